/* driver.c: the generator's phases in order, timed, and the commands that
 * run them: parse -> scope -> annotations -> ir -> infer (analyse), then
 * emit -> cc (build, export). main.c reads the command line; explain.c
 * writes what explain prints. */
#include "gen.h"
#include "driver.h"
#include "../runtime/artifact.h"

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

static const char *env_or(const char *name, const char *dflt) {
  const char *v = getenv(name);
  return v && *v ? v : dflt;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* "FILE: compile times (ms): parse 1.234, ..., cc 210.000" (phases not run left out). */
void print_phase_times(FILE *to, const char *path, const phase_times *pt) {
  const char *names[] = {"parse", "scope", "annotations", "ir", "infer", "analyses", "emit", "cc"};
  double ms[] = {pt->parse, pt->scope, pt->annotations, pt->ir, pt->infer, pt->analyses, pt->emit, pt->cc};
  fprintf(to, "%s%scompile times (ms):", path ? path : "", path ? ": " : "");
  const char *sep = " ";
  for (int i = 0; i < 8; i++) {
    if (i >= 6 && ms[i] == 0) continue; /* emit and cc run only in a build */
    fprintf(to, "%s%s %.3f", sep, names[i], ms[i]);
    sep = ", ";
  }
  fputc('\n', to);
}

/* C-identifier version of the file's stem: "colorsys.py" -> "colorsys"
 * (runtime/artifact.h: the loader names it with the same code). */
static char *module_stem(arena *a, const char *path) {
  size_t n = dynac_module_stem(path, NULL, 0);
  char *s = arena_alloc(a, n + 1);
  dynac_module_stem(path, s, n + 1);
  return s;
}


/* parse -> scope -> annotations -> ir -> infer -> analyses on one file, with the
 * functions named in `suppressed` left to the interpreter; NULL after
 * reporting errors. */
static module *analyse_suppressed(const char *path, const profile *prof, int all, bool trusted,
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
  classes_scope(m);
  classes_dataclass_inits(m);
  double t2 = now_ms();
  bool ann_ok = annotations_module(m);
  double t3 = now_ms();
  if (!ann_ok) { parse_release(&m->p); arena_free(m->a); free(m); return NULL; }
  classes_make_slots(m);
  ir_lower_module(m);
  double t4 = now_ms();
  infer_module(m);
  double t5 = now_ms();
  analyses_module(m);
  double t6 = now_ms();
  if (pt) {
    pt->parse = t1 - t0, pt->scope = t2 - t1, pt->annotations = t3 - t2;
    pt->ir = t4 - t3, pt->infer = t5 - t4, pt->analyses = t6 - t5;
  }
  return m;
}

module *analyse(const char *path, const profile *prof, int all, bool trusted,
                       phase_times *pt) {
  return analyse_suppressed(path, prof, all, trusted, pt, NULL, 0);
}

void release(module *m) {
  parse_release(&m->p);
  arena_free(m->a);
  free(m);
}

/* Compiled: a kernel for some specialisation, or (graph breaks) a region. */
bool is_compiled(module *m, func *f) {
  bool any = false;
  for (inst *in = f->insts; in; in = in->next_root) if (in->ok) any = true;
  if (any && f->partial) return regions_any_kept(m, f); /* small ones stay the interpreter's */
  return any;
}

int count_compiled(module *m, int *nkernels) {
  int n = 0;
  *nkernels = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    if (!is_compiled(m, m->funcs[i])) continue;
    n++;
    for (inst *in = m->funcs[i]->insts; in; in = in->next_root) if (in->ok) (*nkernels)++;
  }
  return n;
}


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
    if (any && f->partial && !is_compiled(m, f)) /* each region small: no kernel would pay for its call */
      fprintf(stderr, "%s:%d:%d: warning: %s() runs in the interpreter: the statements around its graph "
              "breaks that compile are too small for a kernel's call to pay (no loop, fewer than %d "
              "operations and %d per live-out; `dynac explain` shows them; DYNAC_SMALL_REGIONS=1 runs them "
              "as kernels)\n", m->path, f->pos.line, f->pos.col, f->name, REGION_MIN_OPS, REGION_OPS_PER_OUT);
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

int cmd_build(options *o, const profile *prof) {
  emit_opts eo = {env_or("DYNAC_TEMPLATES", DYNAC_DEFAULT_TEMPLATES), o->line_directives};
  cc_opts co = {env_or("CC", "cc"), env_or("DYNAC_PYTHON_INCLUDE", DYNAC_DEFAULT_PYTHON_INCLUDE),
                env_or("DYNAC_INCLUDE", DYNAC_DEFAULT_INCLUDE),
                env_or("DYNAC_EXT_SUFFIX", DYNAC_DEFAULT_EXT_SUFFIX), prof != NULL};
  const char *sup_env = getenv("DYNAC_SUPPRESS_ERRORS");
  bool suppress = o->suppress_errors || (sup_env && !strcmp(sup_env, "1"));
  for (int i = 0; i < o->nfiles; i++) {
    phase_times pt = {0};
    module *m = analyse(o->files[i], prof, o->all, o->trusted_syntax, &pt);
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
    double t0 = now_ms();
    bool built = emit_module(m, &eo, &out) && write_file(c_path, out.data, out.len);
    double t1 = now_ms();
    built = built && (o->emit_only || cc_build(c_path, so_path, &co));
    pt.emit = t1 - t0, pt.cc = o->emit_only ? 0 : now_ms() - t1;
    if (o->times) print_phase_times(stderr, m->path, &pt);
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

int cmd_export(options *o, const profile *prof) {
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
