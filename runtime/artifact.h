/* runtime/artifact.h: facts the generator and the Python package share,
 * defined once. A part of single_include/dynac.h (make single_include).
 * Plain C (<stddef.h> only): the generator includes this part itself, and
 * the package reads it through dynac._runtime (module_stem, COMPILE_OPTIONS).
 *
 * The keyword options of dynac.compile / torch.compile: `dynac build`
 * reads fullgraph, signatures and backend and accepts the others (as
 * torch.compile's); an unknown one is an error on both sides. */
static const char *const dynac_compile_options[] = {"fullgraph", "signatures", "backend",
                                                     "dynamic", "mode", "options", NULL};

/* How a module's artifact is named (NAME__dynac.c and its extension module).
 *
 * The stem of a source path: its file name without ".py", every byte that
 * is not an ASCII letter, digit or underscore made '_' (bytes: a UTF-8
 * character is as many underscores as it has bytes), '_' in front when it
 * would start with a digit or be empty. "colorsys.py" -> "colorsys",
 * "2d-heat.py" -> "_2d_heat". Writes at most cap bytes with the NUL;
 * returns the stem's length (cap too small: the length it needs). */
static inline size_t dynac_module_stem(const char *path, char *out, size_t cap) {
  const char *base = path;
  for (const char *p = path; *p; p++)
    if (*p == '/') base = p + 1;
  size_t n = 0;
  while (base[n]) n++;
  if (n > 3 && base[n - 3] == '.' && base[n - 2] == 'p' && base[n - 1] == 'y') n -= 3;
  size_t k = 0;
  int digit_first = n > 0 && base[0] >= '0' && base[0] <= '9';
  if (n == 0 || digit_first) {
    if (k + 1 < cap) out[k] = '_';
    k++;
  }
  for (size_t i = 0; i < n; i++) {
    char c = base[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (k + 1 < cap) out[k] = ok ? c : '_';
    k++;
  }
  if (cap) out[k < cap ? k : cap - 1] = 0;
  return k;
}
