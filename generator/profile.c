/* profile.c: reads the profile written by `python3 -m dynac record`.
 *
 * Format (JSON, parsed with cJSON):
 *   {"version": 1, "functions": [{"file": "/abs/path.py", "qualname": "f",
 *     "firstlineno": 12, "signatures": [{"args": ["float", "int"], "calls": 7}]}],
 *    "classes": [{"file": "/abs/path.py", "name": "__main__.Vec",
 *     "attributes": {"x": "float", "centre": "__main__.Vec"}}]}
 * A function's recorded argument types become its specialisations; types
 * outside the kernel language (str, list, ...) are reported by explain. A
 * class's recorded instance attributes type its instances' attribute reads
 * (classes.c).
 */
#include "gen.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  size_t got = fread(buf, 1, (size_t)n, f);
  buf[got] = 0;
  fclose(f);
  return buf;
}

/* The "classes" list (absent in older profiles: none). */
static void load_classes(arena *a, const cJSON *classes, profile *out) {
  if (!cJSON_IsArray(classes)) return;
  out->classes = arena_alloc(a, sizeof(profile_class) * (size_t)(cJSON_GetArraySize(classes) + 1));
  const cJSON *c;
  cJSON_ArrayForEach(c, classes) {
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(c, "file");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "name");
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(c, "attributes");
    if (!cJSON_IsString(file) || !cJSON_IsString(name) || !cJSON_IsObject(attrs)) continue;
    profile_class *pc = &out->classes[out->nclasses++];
    pc->file = arena_strdup(a, file->valuestring);
    pc->name = arena_strdup(a, name->valuestring);
    int n = cJSON_GetArraySize(attrs);
    pc->attr_names = arena_alloc(a, sizeof(char *) * (size_t)(n + 1));
    pc->attr_types = arena_alloc(a, sizeof(char *) * (size_t)(n + 1));
    const cJSON *at;
    cJSON_ArrayForEach(at, attrs) {
      if (!cJSON_IsString(at) || !at->string) continue;
      pc->attr_names[pc->nattrs] = arena_strdup(a, at->string);
      pc->attr_types[pc->nattrs++] = arena_strdup(a, at->valuestring);
    }
  }
}

bool profile_load(arena *a, const char *path, profile *out) {
  memset(out, 0, sizeof *out);
  source where = {.path = path};
  char *text = slurp(path);
  if (!text) {
    diag_error(&where, (srcpos){1, 1}, "cannot read the profile (%s); write one with "
               "'python3 -m dynac record -o %s SCRIPT'", strerror(errno), path);
    return false;
  }
  cJSON *root = cJSON_Parse(text);
  free(text);
  cJSON *fns = root ? cJSON_GetObjectItemCaseSensitive(root, "functions") : NULL;
  if (!cJSON_IsArray(fns)) {
    diag_error(&where, (srcpos){1, 1}, "not a dynac profile (expected a JSON object with "
               "a \"functions\" list)");
    cJSON_Delete(root);
    return false;
  }
  int n = cJSON_GetArraySize(fns);
  out->fns = arena_alloc(a, sizeof(profile_fn) * (size_t)(n ? n : 1));
  cJSON *fn;
  cJSON_ArrayForEach(fn, fns) {
    cJSON *file = cJSON_GetObjectItemCaseSensitive(fn, "file");
    cJSON *qual = cJSON_GetObjectItemCaseSensitive(fn, "qualname");
    cJSON *sigs = cJSON_GetObjectItemCaseSensitive(fn, "signatures");
    if (!cJSON_IsString(file) || !cJSON_IsString(qual) || !cJSON_IsArray(sigs)) continue;
    profile_fn *pf = &out->fns[out->nfns++];
    pf->file = arena_strdup(a, file->valuestring);
    pf->qualname = arena_strdup(a, qual->valuestring);
    int ns = cJSON_GetArraySize(sigs);
    pf->sigs = arena_alloc(a, sizeof(char **) * (size_t)(ns ? ns : 1));
    pf->sig_nargs = arena_alloc(a, sizeof(int) * (size_t)(ns ? ns : 1));
    cJSON *sig;
    cJSON_ArrayForEach(sig, sigs) {
      cJSON *args = cJSON_GetObjectItemCaseSensitive(sig, "args");
      if (!cJSON_IsArray(args)) continue;
      int na = cJSON_GetArraySize(args);
      const char **names = arena_alloc(a, sizeof(char *) * (size_t)(na ? na : 1));
      int k = 0;
      cJSON *arg;
      cJSON_ArrayForEach(arg, args)
          names[k++] = arena_strdup(a, cJSON_IsString(arg) ? arg->valuestring : "?");
      pf->sigs[pf->nsigs] = names;
      pf->sig_nargs[pf->nsigs++] = k;
    }
  }
  load_classes(a, cJSON_GetObjectItemCaseSensitive(root, "classes"), out);
  cJSON_Delete(root);
  return true;
}

/* A function called with instances of more than this many class
 * combinations (a comparison of a heap's events of several subclasses) gets
 * one specialisation taking objects instead: a kernel per combination would
 * make every call scan that many guards (CPython's own inline caches go
 * megamorphic likewise; Dynamo's automatic dynamic after recompiles). */
#define PROFILE_MAX_INSTANCE_SIGNATURES 4

/* Does recorded signature s of pf name instances of the module's classes? */
static bool names_instances(const module *m, const profile_fn *pf, int s) {
  for (int k = 0; k < pf->sig_nargs[s]; k++) {
    const type *t = ty_from_name_in(m, pf->sigs[s][k]);
    if (t && t->cls) return true;
  }
  return false;
}

/* The pairs of classes a heap's __lt__ was recorded comparing, when there
 * were too many for cache entries: specialisations only heapq's comparisons
 * call (emit/heap.c picks one by both operands' classes, so no guard list
 * is scanned), their instances' attributes read at their places. At most
 * this many, the first recorded. */
#define PROFILE_MAX_DIRECT_SIGNATURES 12
static void add_direct_specs(module *m, func *f, const profile_fn *pf) {
  if (f->method != 'm' || strcmp(f->name, "__lt__") || f->nparams != 2) return;
  int n = 0;
  for (spec *s = f->direct_specs; s; s = s->next) n++;
  for (int s = 0; s < pf->nsigs && n < PROFILE_MAX_DIRECT_SIGNATURES; s++) {
    if (pf->sig_nargs[s] != 2) continue;
    const type **args = arena_alloc(m->a, sizeof(type *) * 3);
    for (int k = 0; k < 2; k++) args[k] = ty_from_name_in(m, pf->sigs[s][k]);
    if (args[0] && args[0]->cls && args[1] && args[1]->cls && spec_append(m, &f->direct_specs, 2, args, "profile"))
      n++; /* a pair two entries name is one */
  }
}

/* Adds f's recorded signatures (those made only of kernel types) as specs. */
bool profile_specs(module *m, func *f) {
  const profile *p = m->prof;
  bool recorded = false;
  for (int i = 0; i < p->nfns; i++) {
    const profile_fn *pf = &p->fns[i];
    if (strcmp(pf->qualname, f->qualname) || strcmp(pf->file, m->realpath)) continue;
    int with_instances = 0;
    for (int s = 0; s < pf->nsigs; s++) with_instances += names_instances(m, pf, s);
    const module *classes = with_instances > PROFILE_MAX_INSTANCE_SIGNATURES ? NULL : m; /* NULL: objects */
    if (!classes) add_direct_specs(m, f, pf);
    for (int s = 0; s < pf->nsigs; s++) {
      if (pf->sig_nargs[s] != f->nparams) continue;
      const type **args = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
      bool ok = true;
      for (int k = 0; k < f->nparams; k++) {
        args[k] = ty_from_name_in(classes, pf->sigs[s][k]);
        if (!args[k]) ok = false;
      }
      if (!ok) continue;
      recorded = true;
      annotations_add_spec(m, f, args, "profile");
    }
  }
  return recorded;
}
