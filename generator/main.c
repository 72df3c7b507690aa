/* main.c: the `dynac` command line.
 *
 *   dynac build FILE.py... [-o DIR] [--profile FILE] [--all] [--emit-only]
 *                          [--line-directives]
 *   dynac explain FILE.py... [--profile FILE] [--all] [--json]
 *   dynac export FILE.py [--function NAME]... [--prefix P] -o DIR [--profile FILE]
 *
 * Configuration (defaults baked in by the Makefile): DYNAC_TEMPLATES,
 * DYNAC_INCLUDE (the directory of dynac.h), DYNAC_PYTHON_INCLUDE,
 * DYNAC_EXT_SUFFIX, CC.
 */
#include "gen.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifndef DYNAC_DEFAULT_TEMPLATES
#define DYNAC_DEFAULT_TEMPLATES "templates"
#endif
#ifndef DYNAC_DEFAULT_INCLUDE
#define DYNAC_DEFAULT_INCLUDE "single_include"
#endif
#ifndef DYNAC_DEFAULT_PYTHON_INCLUDE
#define DYNAC_DEFAULT_PYTHON_INCLUDE "/usr/include/python3.11"
#endif
#ifndef DYNAC_DEFAULT_EXT_SUFFIX
#define DYNAC_DEFAULT_EXT_SUFFIX ".cpython-311-x86_64-linux-gnu.so"
#endif
#define DYNAC_VERSION "0.1.0"

typedef struct options {
  const char *outdir;
  const char *profile_path;
  bool all, emit_only, json, line_directives, trusted_syntax, suppress_errors;
  const char **files;
  int nfiles;
  const char **functions; /* export --function */
  int nfunctions;
  const char *prefix;     /* export --prefix */
} options;

static const char *env_or(const char *name, const char *dflt) {
  const char *v = getenv(name);
  return v && *v ? v : dflt;
}

static void usage(FILE *to) {
  fputs("usage: dynac build FILE.py... [-o DIR] [--profile FILE] [--all] [--emit-only]\n"
        "                  [--line-directives] [--trusted-syntax] [--suppress-errors]\n"
        "       dynac explain FILE.py... [--profile FILE] [--all] [--json]\n"
        "       dynac export FILE.py [--function NAME]... [--prefix P] -o DIR [--profile FILE]\n"
        "       dynac --version\n"
        "build   writes DIR/NAME__dynac.c per module and compiles it into an extension\n"
        "        module (default DIR: __dynac__ beside the source)\n"
        "export  writes DIR/P.h, DIR/P.c and DIR/Makefile (-> libP.a): the kernels of the\n"
        "        compile roots (or of each --function) as plain C, no Python needed;\n"
        "        P is the module name unless --prefix\n"
        "explain prints, per function: compiled or not, specialisations, guards and\n"
        "        graph breaks with file:line:col and reason\n"
        "--suppress-errors (or DYNAC_SUPPRESS_ERRORS=1): a function whose generated code does\n"
        "  not compile (a dynac bug) runs in the interpreter, with a warning, instead of\n"
        "  failing the build\n"
        "--trusted-syntax: the files are known to compile with CPython; a construct the\n"
        "        Tree-sitter grammar cannot parse is then a graph break, not an error\n",
        to);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* C-identifier version of the file's stem: "colorsys.py" -> "colorsys". */
static char *module_stem(arena *a, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 3 && !strcmp(base + n - 3, ".py")) n -= 3;
  char *s = arena_alloc(a, n + 2);
  size_t k = 0;
  if (n == 0 || (base[0] >= '0' && base[0] <= '9')) s[k++] = '_';
  for (size_t i = 0; i < n; i++) {
    char c = base[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    s[k++] = ok ? c : '_';
  }
  s[k] = 0;
  return s;
}

typedef struct phase_times { double parse, scope, annotations, infer, emit, cc; } phase_times;

/* Runs parse .. infer on one file; returns NULL after reporting errors. */
static module *analyse_suppressed(const char *path, const profile *prof, bool all, bool trusted,
                                  phase_times *pt, const char *const *suppressed, int nsup) {
  module *m = calloc(1, sizeof *m);
  m->a = arena_new();
  m->path = path;
  m->all = all;
  m->suppressed = suppressed;
  m->nsuppressed = nsup;
  m->prof = prof;
  m->modname = module_stem(m->a, path);
  char rp[PATH_MAX];
  m->realpath = arena_strdup(m->a, realpath(path, rp) ? rp : path);
  double t0 = now_ms();
  if (!parse_file(m->a, path, trusted, &m->p)) { parse_release(&m->p); arena_free(m->a); free(m); return NULL; }
  double t1 = now_ms();
  scope_module(m);
  double t2 = now_ms();
  bool ann_ok = annotations_module(m);
  double t3 = now_ms();
  if (!ann_ok) { parse_release(&m->p); arena_free(m->a); free(m); return NULL; }
  infer_module(m);
  double t4 = now_ms();
  if (pt) { pt->parse = t1 - t0; pt->scope = t2 - t1; pt->annotations = t3 - t2; pt->infer = t4 - t3; }
  return m;
}

static module *analyse(const char *path, const profile *prof, bool all, bool trusted,
                       phase_times *pt) {
  return analyse_suppressed(path, prof, all, trusted, pt, NULL, 0);
}

static void release(module *m) {
  parse_release(&m->p);
  arena_free(m->a);
  free(m);
}

/* Compiled: a kernel for some specialisation, or (graph breaks) a region. */
static bool is_compiled(module *m, func *f) {
  bool any = false;
  for (inst *in = f->insts; in; in = in->next_root) if (in->ok) any = true;
  if (any && f->partial) {
    int lines[2];
    return emit_region_lines(m, f, lines, 1) > 0;
  }
  return any;
}

static int count_compiled(module *m, int *nkernels) {
  int n = 0;
  *nkernels = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    if (!is_compiled(m, m->funcs[i])) continue;
    n++;
    for (inst *in = m->funcs[i]->insts; in; in = in->next_root) if (in->ok) (*nkernels)++;
  }
  return n;
}

static const char *spec_text(module *m, inst *in);

/* Decorated functions that get no kernel are reported, never guessed. */
static bool report_roots(module *m) {
  bool ok = true;
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    if (!f->decorated_compile) continue;
    if (f->fullgraph && f->breaks) {
      for (gbreak *b = f->breaks; b; b = b->next)
        diag_error(&m->p.src, b->pos, "%s() has fullgraph=True but breaks the graph here "
                   "[%s %s]: %s; hint: %s", f->name, b->id, b->type, b->reason, b->hint);
      ok = false;
      continue;
    }
    bool any = false;
    for (inst *in = f->insts; in; in = in->next_root) {
      if (in->ok) { any = true; continue; }
      fprintf(stderr, "%s:%d:%d: warning: %s(): specialisation %s is not compiled: %s\n",
              m->path, in->fail_pos.line ? in->fail_pos.line : f->pos.line,
              in->fail_pos.line ? in->fail_pos.col : f->pos.col, f->name, spec_text(m, in),
              in->fail);
    }
    if (!any && f->not_compiled)
      fprintf(stderr, "%s:%d:%d: warning: %s() runs in the interpreter: %s\n", m->path,
              f->pos.line, f->pos.col, f->name, f->not_compiled);
  }
  return ok;
}

static bool write_file(const char *path, const char *data, size_t len) {
  char tmp[PATH_MAX + 32];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  if (!f) { diag_plain("cannot write %s: %s", tmp, strerror(errno)); return false; }
  bool ok = fwrite(data, 1, len, f) == len;
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp, path) != 0) { diag_plain("cannot write %s: %s", path, strerror(errno)); return false; }
  return true;
}

static char *dir_of(const char *path) {
  const char *s = strrchr(path, '/');
  if (!s) return strdup(".");
  return strndup(path, (size_t)(s - path ? s - path : 1));
}

/* Emits m into c_path and checks that it compiles (quietly). */
static bool emits_valid_c(module *m, const emit_opts *eo, const cc_opts *co, const char *c_path) {
  strbuf out = {0};
  bool ok = emit_module(m, eo, &out) && write_file(c_path, out.data, out.len) && cc_check(c_path, co);
  sb_free(&out);
  return ok;
}

/* A list of function names (malloc'ed strings), growable. */
typedef struct name_list {
  char **v;
  int n, cap;
} name_list;
static void names_add(name_list *l, const char *name) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->v = realloc(l->v, sizeof(char *) * (size_t)l->cap);
  }
  l->v[l->n++] = strdup(name);
}
static bool names_has(const name_list *l, const char *name) {
  for (int i = 0; i < l->n; i++) if (!strcmp(l->v[i], name)) return true;
  return false;
}
static void names_free(name_list *l) {
  for (int i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  *l = (name_list){0};
}

/* --suppress-errors, one round: the functions, other than those already in
 * `bad`, whose code does not compile when each is built alone (every other
 * function suppressed). They are added to `bad`; returns how many. */
static int find_failing_functions(const char *path, const options *o, const profile *prof,
                                  const emit_opts *eo, const cc_opts *co, const char *c_path,
                                  name_list *bad) {
  module *m = analyse(path, prof, o->all, o->trusted_syntax, NULL);
  if (!m) return 0;
  name_list names = {0};
  for (int i = 0; i < m->nfuncs; i++)
    if (is_compiled(m, m->funcs[i]) && !names_has(bad, m->funcs[i]->qualname))
      names_add(&names, m->funcs[i]->qualname);
  name_list others = {0};
  for (int i = 0; i < m->nfuncs; i++) names_add(&others, m->funcs[i]->qualname);
  release(m);
  int found = 0;
  for (int k = 0; k < names.n; k++) {
    const char **rest = malloc(sizeof(char *) * (size_t)(others.n + 1));
    int nr = 0;
    for (int j = 0; j < others.n; j++) if (strcmp(others.v[j], names.v[k])) rest[nr++] = others.v[j];
    module *one = analyse_suppressed(path, prof, o->all, o->trusted_syntax, NULL, rest, nr);
    bool ok = one && emits_valid_c(one, eo, co, c_path);
    if (one) release(one);
    free(rest);
    if (!ok) { names_add(bad, names.v[k]); found++; }
  }
  names_free(&names);
  names_free(&others);
  return found;
}

/* --suppress-errors: the module analysed with every function suppressed
 * whose code does not compile, so that the C it emits does compile.
 * Suppressing a function makes its calls graph breaks in its callers, and
 * functions may fail only together: after each round the whole module is
 * checked again, and a round that cannot single out a culprit suppresses
 * every function still compiled (the module then has no kernels, which
 * always compiles). `bad` receives the names; NULL if even that fails. */
static module *suppress_until_valid(const char *path, const options *o, const profile *prof,
                                    const emit_opts *eo, const cc_opts *co, const char *c_path,
                                    name_list *bad) {
  for (;;) {
    if (!find_failing_functions(path, o, prof, eo, co, c_path, bad)) {
      module *all = analyse_suppressed(path, prof, o->all, o->trusted_syntax, NULL,
                                       (const char *const *)bad->v, bad->n);
      if (!all) return NULL;
      int before = bad->n;
      for (int i = 0; i < all->nfuncs; i++)
        if (is_compiled(all, all->funcs[i])) names_add(bad, all->funcs[i]->qualname);
      release(all);
      if (bad->n == before) return NULL; /* nothing left to suppress */
    }
    module *m = analyse_suppressed(path, prof, o->all, o->trusted_syntax, NULL,
                                   (const char *const *)bad->v, bad->n);
    if (!m || emits_valid_c(m, eo, co, c_path)) return m;
    release(m);
  }
}

static int cmd_build(options *o, const profile *prof) {
  emit_opts eo = {env_or("DYNAC_TEMPLATES", DYNAC_DEFAULT_TEMPLATES), o->line_directives};
  cc_opts co = {env_or("CC", "cc"), env_or("DYNAC_PYTHON_INCLUDE", DYNAC_DEFAULT_PYTHON_INCLUDE),
                env_or("DYNAC_INCLUDE", DYNAC_DEFAULT_INCLUDE),
                env_or("DYNAC_EXT_SUFFIX", DYNAC_DEFAULT_EXT_SUFFIX)};
  const char *sup_env = getenv("DYNAC_SUPPRESS_ERRORS");
  bool suppress = o->suppress_errors || (sup_env && !strcmp(sup_env, "1"));
  for (int i = 0; i < o->nfiles; i++) {
    module *m = analyse(o->files[i], prof, o->all, o->trusted_syntax, NULL);
    if (!m) continue;
    if (!report_roots(m)) { release(m); continue; }
    char *dir = o->outdir ? strdup(o->outdir) : NULL;
    if (!dir) {
      char *sd = dir_of(m->path);
      size_t n = strlen(sd) + 16;
      dir = malloc(n);
      snprintf(dir, n, "%s/__dynac__", sd);
      free(sd);
    }
    char c_path[PATH_MAX], so_path[PATH_MAX];
    snprintf(c_path, sizeof c_path, "%s/%s__dynac.c", dir, m->modname);
    snprintf(so_path, sizeof so_path, "%s/%s__dynac%s", dir, m->modname, co.ext_suffix);
    if (!mkdirs(dir)) { diag_plain("cannot create %s: %s", dir, strerror(errno)); free(dir); release(m); continue; }
    name_list bad = {0};
    if (suppress && !emits_valid_c(m, &eo, &co, c_path)) {
      release(m);
      m = suppress_until_valid(o->files[i], o, prof, &eo, &co, c_path, &bad);
      for (int k = 0; k < bad.n; k++)
        fprintf(stderr, "%s: warning: %s(): the generator failed on it; it runs in the "
                "interpreter (suppress_errors; please report this with the source file)\n",
                o->files[i], bad.v[k]);
      names_free(&bad);
      if (!m) {
        diag_plain("%s: no module written: the C emitted for it does not compile even with "
                   "every function suppressed (an internal dynac error: please report it)",
                   o->files[i]);
        free(dir);
        continue;
      }
    }
    strbuf out = {0};
    bool built = emit_module(m, &eo, &out) && write_file(c_path, out.data, out.len) &&
                 (o->emit_only || cc_build(c_path, so_path, &co));
    int nk, nc = count_compiled(m, &nk);
    if (built)
      fprintf(stderr, "dynac: %s: %d of %d functions compiled (%d specialisations) -> %s\n",
              m->path, nc, m->nfuncs, nk, o->emit_only ? c_path : so_path);
    else
      fprintf(stderr, "dynac: %s: build failed; no module written (the errors above say why)\n",
              m->path);
    free(dir);
    sb_free(&out);
    release(m);
  }
  return diag_error_count() ? 1 : 0;
}

/* ---- export ------------------------------------------------------------------ */
static bool c_identifier(const char *s) {
  if (!*s || (*s >= '0' && *s <= '9')) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

static int cmd_export(options *o, const profile *prof) {
  if (o->nfiles != 1 || !o->outdir) {
    fprintf(stderr, "dynac: error: export takes one FILE.py and -o DIR\n");
    return 2;
  }
  if (o->prefix && !c_identifier(o->prefix)) {
    fprintf(stderr, "dynac: error: --prefix '%s' is not a C identifier\n", o->prefix);
    return 2;
  }
  emit_opts eo = {env_or("DYNAC_TEMPLATES", DYNAC_DEFAULT_TEMPLATES), o->line_directives};
  char header[PATH_MAX];
  snprintf(header, sizeof header, "%s/dynac.h", env_or("DYNAC_INCLUDE", DYNAC_DEFAULT_INCLUDE));
  module *m = analyse(o->files[0], prof, o->all, o->trusted_syntax, NULL);
  if (!m) return 1;
  export_opts xo = {o->outdir, o->prefix, header, o->functions, o->nfunctions, o->line_directives};
  bool ok = export_module(m, &eo, &xo);
  if (ok) fprintf(stderr, "dynac: %s -> %s/%s.{h,c}, Makefile\n", m->path, o->outdir,
                  o->prefix ? o->prefix : m->modname);
  release(m);
  return ok && !diag_error_count() ? 0 : 1;
}

/* ---- explain ---------------------------------------------------------------- */
static void print_caret(module *m, srcpos pos, const char *indent) {
  int len;
  const char *s = source_line(&m->p.src, pos.line, &len);
  printf("%s%5d | %.*s\n%s      | ", indent, pos.line, len, s, indent);
  for (int i = 1; i < pos.col && i <= len; i++) putchar(s[i - 1] == '\t' ? '\t' : ' ');
  puts("^");
}

static const char *spec_text(module *m, inst *in) {
  strbuf b = {0};
  sb_puts(&b, "(");
  for (int i = 0; i < in->fn->nparams; i++) {
    if (i) sb_puts(&b, ", ");
    sb_puts(&b, ty_python_name(m->a, in->args[i]));
  }
  sb_puts(&b, ")");
  if (in->ok) {
    sb_printf(&b, " -> %s", ty_python_name(m->a, in->ret));
    if (in->ret_may_be_none && in->ret->kind != TY_UNKNOWN) sb_puts(&b, " | None");
  }
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

/* Graphs of f: one per kernel (a specialisation of the whole function, or of
 * one region of a graph-broken function). */
static int graph_count(module *m, func *f) {
  if (!is_compiled(m, f)) return 0;
  int nspec = 0, ops[1];
  for (inst *in = f->insts; in; in = in->next_root) if (in->ok) nspec++;
  return nspec * emit_graph_ops(m, f, ops, 0);
}

static void print_ops(module *m, func *f) {
  int ops[64];
  int n = emit_graph_ops(m, f, ops, 64);
  printf("  graphs: %d; ops per graph:", graph_count(m, f));
  for (int i = 0; i < n && i < 64; i++) printf("%s %d", i ? "," : "", ops[i]);
  puts(f->partial ? " (per region, in each specialisation)" : "");
}

/* What explain says of f after its name: compiled, partially, or why not
 * (one text for the text and the JSON output). */
static const char *func_status(module *m, func *f) {
  bool compiled = is_compiled(m, f);
  bool callee_kernel = false;
  for (inst *in = m->insts; in; in = in->next_all) if (in->fn == f && in->ok) callee_kernel = true;
  if (compiled && f->partial) {
    int rl[64];
    int nreg = emit_region_lines(m, f, rl, 32);
    strbuf b = {0};
    sb_printf(&b, "partially compiled: %d region%s run%s as kernels (lines", nreg, nreg == 1 ? "" : "s",
              nreg == 1 ? "s" : "");
    for (int r = 0; r < nreg && r < 32; r++) sb_printf(&b, "%s %d-%d", r ? "," : "", rl[2 * r], rl[2 * r + 1]);
    sb_printf(&b, "); the graph breaks below run in the interpreter, in a resume function%s",
              f->is_root ? "" : " (not a root: only inside a root's call)");
    char *r = arena_strdup(m->a, b.data);
    sb_free(&b);
    return r;
  }
  if (f->partial && !compiled)
    return arena_printf(m->a, "not compiled: graph break at line %d: %s (no statement around the "
                        "breaks compiles)", f->breaks->pos.line, f->breaks->reason);
  if (compiled && !f->is_root) return "compiled (not a root: its kernels run only inside a root's call)";
  if (compiled) return "compiled";
  if (callee_kernel) return "compiled only as a callee of other kernels (not a root)";
  if (f->disabled) return "not compiled: disabled by @disable (runs in the interpreter)";
  if (!f->is_root) return "not compiled: not a compile root (decorate it with @dynac.compile, "
                          "record a profile, or build with --all)";
  return arena_printf(m->a, "not compiled: %s", f->not_compiled ? f->not_compiled
                                                                : "no specialisation compiled");
}

static void explain_text(module *m, const phase_times *pt) {
  int nk, nc = count_compiled(m, &nk);
  int nbreaks = 0, ngraphs = 0;
  for (int i = 0; i < m->nfuncs; i++) for (gbreak *b = m->funcs[i]->breaks; b; b = b->next) nbreaks++;
  for (int i = 0; i < m->nfuncs; i++) ngraphs += graph_count(m, m->funcs[i]);
  printf("%s: %d functions, %d compiled (%d specialisations), %d graphs, %d graph breaks\n",
         m->path, m->nfuncs + m->nothers, nc, nk, ngraphs, nbreaks);
  if (ts_node_has_error(m->p.root))
    printf("note: the Tree-sitter grammar could not parse parts of this file (CPython can); "
           "functions there are not compiled\n");
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    bool compiled = is_compiled(m, f);
    printf("\n%s (%s:%d): %s\n", f->qualname, m->path, f->pos.line, func_status(m, f));
    if (compiled) print_ops(m, f);
    for (inst *in = f->insts; in; in = in->next_root) {
      if (f->partial && !compiled) continue;
      printf("  specialisation %s [%s]: %s\n", spec_text(m, in), in->origin,
             !in->ok ? "interpreter" : f->partial ? "region kernels" : "kernel");
      if (!in->ok) {
        printf("    reason: %s\n", in->fail);
        if (in->fail_pos.line) print_caret(m, in->fail_pos, "    ");
        continue;
      }
      const char **g;
      int ng = emit_guard_list(m, in, &g);
      for (int k = 0; k < ng; k++) printf("    guard: %s\n", g[k]);
    }
    for (gbreak *b = f->breaks; b; b = b->next) {
      printf("  graph break %s (%s) at %s:%d:%d: %s\n", b->id, b->type, m->path, b->pos.line,
             b->pos.col, b->reason);
      print_caret(m, b->pos, "    ");
      printf("    hint: %s\n", b->hint);
    }
  }
  for (int i = 0; i < m->nothers; i++)
    printf("\n%s (%s:%d): not compiled: %s\n", m->others[i].qualname, m->path, m->others[i].pos.line,
           m->others[i].reason);
  printf("\ncompile times (ms): parse %.3f, scope %.3f, annotations %.3f, infer %.3f\n",
         pt->parse, pt->scope, pt->annotations, pt->infer);
}

static void explain_json(module *m, cJSON *files, const phase_times *pt) {
  cJSON *fo = cJSON_CreateObject();
  cJSON_AddStringToObject(fo, "file", m->path);
  cJSON_AddStringToObject(fo, "sha256", m->p.sha256);
  cJSON *fns = cJSON_AddArrayToObject(fo, "functions");
  int nbreaks = 0, ngraphs = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    cJSON *jf = cJSON_CreateObject();
    cJSON_AddStringToObject(jf, "qualname", f->qualname);
    cJSON_AddNumberToObject(jf, "line", f->pos.line);
    bool compiled = is_compiled(m, f);
    int rl[64];
    int nreg = emit_region_lines(m, f, rl, 32);
    int ng = graph_count(m, f);
    ngraphs += ng;
    cJSON_AddNumberToObject(jf, "graph_count", ng);
    int ops[64];
    int nops = compiled ? emit_graph_ops(m, f, ops, 64) : 0;
    cJSON *jo = cJSON_AddArrayToObject(jf, "ops_per_graph");
    for (int k = 0; k < nops && k < 64; k++) cJSON_AddItemToArray(jo, cJSON_CreateNumber(ops[k]));
    cJSON_AddBoolToObject(jf, "compiled", compiled);
    cJSON_AddBoolToObject(jf, "partial", f->partial && compiled);
    cJSON *jr = cJSON_AddArrayToObject(jf, "regions");
    for (int r = 0; compiled && r < nreg && r < 32; r++) {
      cJSON *x = cJSON_CreateObject();
      cJSON_AddNumberToObject(x, "first_line", rl[2 * r]);
      cJSON_AddNumberToObject(x, "last_line", rl[2 * r + 1]);
      cJSON_AddItemToArray(jr, x);
    }
    cJSON_AddBoolToObject(jf, "root", f->is_root);
    const char *status = func_status(m, f);
    cJSON_AddStringToObject(jf, "status", status);
    if (!compiled) /* the text's reason, without its "not compiled: " */
      cJSON_AddStringToObject(jf, "reason", strncmp(status, "not compiled: ", 14) ? status : status + 14);
    cJSON *specs = cJSON_AddArrayToObject(jf, "specialisations");
    for (inst *in = f->insts; in; in = in->next_root) {
      cJSON *js = cJSON_CreateObject();
      cJSON_AddStringToObject(js, "signature", spec_text(m, in));
      cJSON_AddStringToObject(js, "origin", in->origin);
      cJSON_AddBoolToObject(js, "kernel", in->ok);
      if (!in->ok) {
        cJSON_AddStringToObject(js, "reason", in->fail);
        cJSON_AddNumberToObject(js, "line", in->fail_pos.line);
        cJSON_AddNumberToObject(js, "col", in->fail_pos.col);
      } else {
        const char **g;
        int ng = emit_guard_list(m, in, &g);
        cJSON *jg = cJSON_AddArrayToObject(js, "guards");
        for (int k = 0; k < ng; k++) cJSON_AddItemToArray(jg, cJSON_CreateString(g[k]));
      }
      cJSON_AddItemToArray(specs, js);
    }
    cJSON *jb = cJSON_AddArrayToObject(jf, "graph_breaks");
    for (gbreak *b = f->breaks; b; b = b->next) {
      nbreaks++;
      cJSON *x = cJSON_CreateObject();
      cJSON_AddStringToObject(x, "id", b->id);
      cJSON_AddStringToObject(x, "type", b->type);
      cJSON_AddNumberToObject(x, "line", b->pos.line);
      cJSON_AddNumberToObject(x, "col", b->pos.col);
      int len;
      const char *s = source_line(&m->p.src, b->pos.line, &len);
      char *src = arena_strndup(m->a, s, (size_t)len);
      cJSON_AddStringToObject(x, "source", src);
      cJSON_AddStringToObject(x, "reason", b->reason);
      cJSON_AddStringToObject(x, "hint", b->hint);
      cJSON_AddItemToArray(jb, x);
    }
    cJSON_AddItemToArray(fns, jf);
  }
  for (int i = 0; i < m->nothers; i++) {
    cJSON *jf = cJSON_CreateObject();
    cJSON_AddStringToObject(jf, "qualname", m->others[i].qualname);
    cJSON_AddNumberToObject(jf, "line", m->others[i].pos.line);
    cJSON_AddNumberToObject(jf, "graph_count", 0);
    cJSON_AddBoolToObject(jf, "compiled", false);
    cJSON_AddBoolToObject(jf, "partial", false);
    cJSON_AddBoolToObject(jf, "root", false);
    cJSON_AddStringToObject(jf, "status", arena_printf(m->a, "not compiled: %s", m->others[i].reason));
    cJSON_AddStringToObject(jf, "reason", m->others[i].reason);
    cJSON_AddArrayToObject(jf, "ops_per_graph");
    cJSON_AddArrayToObject(jf, "regions");
    cJSON_AddArrayToObject(jf, "specialisations");
    cJSON_AddArrayToObject(jf, "graph_breaks");
    cJSON_AddItemToArray(fns, jf);
  }
  cJSON_AddNumberToObject(fo, "graph_count", ngraphs);
  cJSON_AddNumberToObject(fo, "graph_break_count", nbreaks);
  cJSON *t = cJSON_AddObjectToObject(fo, "compile_times_ms");
  cJSON_AddNumberToObject(t, "parse", pt->parse);
  cJSON_AddNumberToObject(t, "scope", pt->scope);
  cJSON_AddNumberToObject(t, "annotations", pt->annotations);
  cJSON_AddNumberToObject(t, "infer", pt->infer);
  cJSON_AddItemToArray(files, fo);
}

static int cmd_explain(options *o, const profile *prof) {
  cJSON *files = o->json ? cJSON_CreateArray() : NULL;
  for (int i = 0; i < o->nfiles; i++) {
    phase_times pt = {0};
    module *m = analyse(o->files[i], prof, o->all, o->trusted_syntax, &pt);
    if (!m) continue;
    if (o->json) explain_json(m, files, &pt);
    else explain_text(m, &pt);
    release(m);
  }
  if (o->json) {
    char *s = cJSON_Print(files);
    puts(s);
    free(s);
    cJSON_Delete(files);
  }
  return diag_error_count() ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc < 2) { usage(stderr); return 2; }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--version")) { puts("dynac " DYNAC_VERSION); return 0; }
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) { usage(stdout); return 0; }
  if (strcmp(cmd, "build") && strcmp(cmd, "explain") && strcmp(cmd, "export")) {
    fprintf(stderr, "dynac: error: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
  }
  options o = {0};
  o.files = calloc((size_t)argc, sizeof(char *));
  o.functions = calloc((size_t)argc, sizeof(char *));
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if ((!strcmp(a, "-o") || !strcmp(a, "--profile") || !strcmp(a, "--function") ||
         !strcmp(a, "--prefix")) && i + 1 >= argc) {
      fprintf(stderr, "dynac: error: %s needs an argument\n", a);
      return 2;
    }
    if (!strcmp(a, "-o")) o.outdir = argv[++i];
    else if (!strcmp(a, "--profile")) o.profile_path = argv[++i];
    else if (!strcmp(a, "--function")) o.functions[o.nfunctions++] = argv[++i];
    else if (!strcmp(a, "--prefix")) o.prefix = argv[++i];
    else if (!strcmp(a, "--all")) o.all = true;
    else if (!strcmp(a, "--emit-only")) o.emit_only = true;
    else if (!strcmp(a, "--json")) o.json = true;
    else if (!strcmp(a, "--line-directives")) o.line_directives = true;
    else if (!strcmp(a, "--trusted-syntax")) o.trusted_syntax = true;
    else if (!strcmp(a, "--suppress-errors")) o.suppress_errors = true;
    else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "dynac: error: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    } else o.files[o.nfiles++] = a;
  }
  if (!o.nfiles) { fprintf(stderr, "dynac: error: no input files\n"); usage(stderr); return 2; }
  profile prof;
  arena *pa = arena_new();
  const profile *pp = NULL;
  if (o.profile_path) {
    if (!profile_load(pa, o.profile_path, &prof)) { arena_free(pa); return 1; }
    pp = &prof;
  }
  int rc = !strcmp(cmd, "build") ? cmd_build(&o, pp) : !strcmp(cmd, "export") ? cmd_export(&o, pp)
           : cmd_explain(&o, pp);
  arena_free(pa);
  free(o.files);
  free(o.functions);
  return rc;
}
