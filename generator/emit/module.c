/* module.c: phase 7 entry: one C file per module (templates/module.c) with
 * its slots, kernels, entries and the descriptor tables the runtime reads.
 */
#include "emit.h"

#include <cjson/cJSON.h>

/* An entry's flags (runtime/descriptors.h): whether it takes objects, and
 * whether its kernel (or one it calls) calls Python functions. */
static const char *entry_flags(module *m, const inst *in) {
  bool generic = takes_objects(in), calls = in->generic || in->opaque_calls; /* callees' too */
  bool only = generic_only(m, in);
  if (!generic && !calls && !only) return "";
  return arena_printf(m->a, ", .flags = %s%s%s%s%s", generic ? "DYNAC_ENTRY_GENERIC" : "",
                      generic && calls ? " | " : "", calls ? "DYNAC_ENTRY_CALLS_PYTHON" : "",
                      only ? " | " : "", only ? "DYNAC_ENTRY_GENERIC_ONLY" : "");
}

static const char *slot_kind_c(slot *s) {
  switch (s->kind) {
  case SLOT_GLOBAL_SCALAR:
    return s->ty->kind == TY_INT ? "DYNAC_SLOT_GLOBAL_INT" : s->ty->kind == TY_FLOAT
           ? "DYNAC_SLOT_GLOBAL_FLOAT" : "DYNAC_SLOT_GLOBAL_BOOL";
  case SLOT_GLOBAL_FUNC: return "DYNAC_SLOT_GLOBAL_FUNC";
  case SLOT_BUILTIN: return "DYNAC_SLOT_BUILTIN";
  case SLOT_MATH_MODULE: return "DYNAC_SLOT_MATH_MODULE";
  case SLOT_MATH_ATTR: return s->ty ? "DYNAC_SLOT_MATH_FLOAT" : "DYNAC_SLOT_MATH_FUNC";
  case SLOT_DEFAULT:
    return s->ty->kind == TY_INT ? "DYNAC_SLOT_DEFAULT_INT" : s->ty->kind == TY_FLOAT
           ? "DYNAC_SLOT_DEFAULT_FLOAT" : s->ty->kind == TY_NONE ? "DYNAC_SLOT_DEFAULT_NONE"
           : "DYNAC_SLOT_DEFAULT_BOOL";
  case SLOT_OPAQUE: return "DYNAC_SLOT_OPAQUE";
  case SLOT_NAME: return "DYNAC_SLOT_NAME";
  case SLOT_CLASS: return "DYNAC_SLOT_CLASS";
  case SLOT_CONST_RESULT:
    return s->ty->kind == TY_INT ? "DYNAC_SLOT_CONST_INT" : s->ty->kind == TY_FLOAT
           ? "DYNAC_SLOT_CONST_FLOAT" : "DYNAC_SLOT_CONST_BOOL";
  }
  return "0";
}

/* One region as the loader reads it: its first and last statements
 * (line, 0-based column), its wrapper's name, live-ins and live-outs, its
 * operations and whether it is small (region.small). */
static cJSON *region_json(module *m, func *f, const region *r, int ri) {
  cJSON *o = cJSON_CreateObject();
  int first[2] = {r->s_first->pos.line, r->s_first->pos.col - 1};
  int last[2] = {r->s_last->pos.line, r->s_last->pos.col - 1};
  cJSON_AddItemToObject(o, "first", cJSON_CreateIntArray(first, 2));
  cJSON_AddItemToObject(o, "last", cJSON_CreateIntArray(last, 2));
  cJSON_AddStringToObject(o, "fn", arena_printf(m->a, "__region_%s_%d", f->cname, ri));
  cJSON *in = cJSON_AddArrayToObject(o, "in"), *out = cJSON_AddArrayToObject(o, "out");
  for (int k = 0; k < r->nin; k++) cJSON_AddItemToArray(in, cJSON_CreateString(f->locals[r->in[k]]));
  for (int k = 0; k < r->nout; k++) cJSON_AddItemToArray(out, cJSON_CreateString(f->locals[r->out[k]]));
  cJSON_AddNumberToObject(o, "ops", r->ops);
  if (r->small) cJSON_AddTrueToObject(o, "small"); /* the loader leaves it to the interpreter */
  return o;
}

/* Sets inst.reachable on the compiled specialisations that run: each
 * function's root specialisations (its entries, or its regions' kernels)
 * and, transitively, the kernels they call. Others (superseded while
 * typing) are not written. */
static void mark_reachable(module *m) {
  int n = 0;
  for (inst *in = m->insts; in; in = in->next_all) { in->reachable = false; n++; }
  inst **work = arena_alloc(m->a, sizeof(inst *) * (size_t)(n + 1));
  int nw = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    for (inst *in = f->insts; in; in = in->next_root) {
      if (!in->ok) continue;
      if (!f->partial) {
        if (!in->reachable) { in->reachable = true; work[nw++] = in; }
        continue;
      }
      for (int r = 0; r < f->nregions; r++) { /* only its region kernels call kernels */
        inst *cal[256];
        int nc = infer_region_callees(in, f->regions[r].s_first, f->regions[r].s_last, cal, 256);
        for (int k = 0; k < nc; k++)
          if (cal[k]->ok && !cal[k]->reachable && nw < n) { cal[k]->reachable = true; work[nw++] = cal[k]; }
      }
    }
  }
  for (inst *in = m->insts; in; in = in->next_all) /* heapq's comparisons call them */
    if (in->ok && in->heap_direct && !in->reachable && nw < n) { in->reachable = true; work[nw++] = in; }
  while (nw) {
    inst *in = work[--nw];
    for (int k = 0; k < in->ncallees; k++) {
      inst *c = in->callees[k];
      if (c->ok && !c->reachable) { c->reachable = true; work[nw++] = c; }
    }
  }
}

/* The holes of templates/module.c, filled part by part, and the templates
 * the parts are made from. */
typedef struct module_parts {
  strbuf banner, macros, types, slots, protos, kernels, entries, tables, methods, region_types;
  char *tk, *tg, *tu; /* kernel.c, guard.c, glue.c */
  bool line_directives;
  bool ok;
} module_parts;

/* The guarded module-level values: their descriptors and runtime state. */
static void write_slots(module *m, module_parts *P) {
  strbuf *b = &P->slots;
  for (int k = 0; k < m->nslots; k++) { /* the methods each class's guard checks */
    const klass *c = m->slots[k]->cls;
    if (!c || !c->nmembers) continue;
    sb_printf(b, "static const dynac_method_desc dynac__methods_%d[] = {\n", k);
    for (int i = 0; i < c->nmembers; i++) {
      const class_member *cm = &c->members[i];
      sb_printf(b, "    {%s, '%c', %s, %d, %d},\n", c_string(m, cm->name), cm->kind,
                cm->f ? c_string(m, cm->f->qualname) : "NULL", cm->f ? cm->f->firstlineno : 0, cm->up);
    }
    sb_puts(b, "};\n");
  }
  sb_printf(b, "static dynac_slot dynac__slots[%d];\n", m->nslots ? m->nslots : 1);
  sb_printf(b, "static const dynac_slot_desc dynac__slot_desc[%d] = {\n", m->nslots ? m->nslots : 1);
  for (int k = 0; k < m->nslots; k++) {
    slot *s = m->slots[k];
    sb_printf(b, "    [%d] = {.kind = %s, .name = %s", k, slot_kind_c(s), c_string(m, s->name));
    if (s->attr) sb_printf(b, ", .attr = %s", c_string(m, s->attr));
    if (s->module_slot) sb_printf(b, ", .module_slot = %d", s->module_slot);
    if (s->fn) sb_printf(b, ", .qualname = %s, .firstlineno = %d", c_string(m, s->fn->qualname),
                         s->fn->firstlineno);
    if (s->cls && s->cls->nmembers)
      sb_printf(b, ", .nmethods = %d, .methods = dynac__methods_%d", s->cls->nmembers, k);
    sb_puts(b, "},\n");
  }
  if (!m->nslots) sb_puts(b, "    {.kind = DYNAC_SLOT_GLOBAL_INT, .name = \"\", .module_slot = -1},\n");
  sb_puts(b, "};\n");
  int nfs = 0;
  sb_puts(b, "static const int dynac__func_slots[] = {");
  for (int k = 0; k < m->nslots; k++)
    if (m->slots[k]->kind == SLOT_GLOBAL_FUNC || m->slots[k]->kind == SLOT_CLASS)
      sb_printf(b, "%s%d", nfs++ ? ", " : "", k);
  sb_printf(b, "%s}; /* called functions' __code__/__defaults__, classes' version tags: checked per "
            "call */\n", nfs ? "" : "-1");
  for (int k = 0; k < m->nslots; k++) /* reading an instance of a class kernels specialise on */
    if (m->slots[k]->cls)
      sb_printf(b, "/* an element, result or value that must be an instance of exactly %s: a new reference */\n"
                "static inline int dynac_elem_%s(PyObject *o, PyObject **out) {\n"
                "  if ((PyObject *)Py_TYPE(o) != dynac__slots[%d].obj) return 1;\n"
                "  *out = Py_NewRef(o);\n  return 0;\n}\n", m->slots[k]->cls->name,
                m->slots[k]->cls->inst.code, k);
  sb_printf(b, "static dynac_globals dynac__G = {.nslots = %d, .desc = dynac__slot_desc, "
            ".slots = dynac__slots,\n    .nfunc_slots = %d, .func_slots = dynac__func_slots};\n", m->nslots, nfs);
}

static bool has_kernel(const inst *in) { return in->ok && !in->fn->partial && in->reachable; }

/* Emits in's kernel into texts[in->kernel_index] after its callees' (but
 * where a call cycle closes), so that a call knows which of its callee's
 * parameters read the objects it may pass (inst.reads_args). */
static void emit_after_callees(module *m, module_parts *P, inst *in, strbuf *texts) {
  if (in->emit_state) return;
  in->emit_state = 1;
  for (int k = 0; k < in->ncallees; k++)
    if (has_kernel(in->callees[k])) emit_after_callees(m, P, in->callees[k], texts);
  P->ok &= emit_kernel(m, in, P->tk, P->line_directives, false, &texts[in->kernel_index]);
  in->emit_state = 2;
}

/* The kernels of the specialisations an entry or a region calls, and their
 * callees: written in the order of m->insts, emitted callees first. */
static void write_kernels(module *m, module_parts *P) {
  mark_reachable(m);
  int n = 0;
  for (inst *in = m->insts; in; in = in->next_all, n++) {
    in->emit_state = 0, in->reads_args = NULL, in->kernel_index = n;
    if (has_kernel(in)) decide_entry_args(m, in);
  }
  strbuf *texts = arena_alloc(m->a, sizeof(strbuf) * (size_t)(n + 1));
  memset(texts, 0, sizeof(strbuf) * (size_t)(n + 1));
  for (inst *in = m->insts; in; in = in->next_all)
    if (has_kernel(in)) emit_after_callees(m, P, in, texts);
  for (inst *in = m->insts; in; in = in->next_all) {
    if (!has_kernel(in)) continue;
    sb_printf(&P->protos, "static int dynac_kernel_%s(%s);\n", in->cname, params_of(m, in, false));
    strbuf *text = &texts[in->kernel_index];
    if (text->data) sb_puts(&P->kernels, text->data);
    sb_free(text);
  }
}

/* Graph-broken functions: region kernels, their wrappers, and the region
 * table _resume.py reads (DYNAC_REGIONS_JSON, written with cJSON). */
static void write_regions(module *m, module_parts *P) {
  cJSON *regions_json = cJSON_CreateObject();
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    if (!f->partial) continue;
    region *rs;
    int nr = regions_find(m, f, &rs);
    if (!nr) continue;
    cJSON *list = cJSON_AddArrayToObject(regions_json, arena_printf(m->a, "%s:%d", f->qualname,
                                                                    f->firstlineno));
    for (int r = 0; r < nr; r++) {
      for (inst *in = f->insts; in; in = in->next_root)
        if (in->ok)
          P->ok &= emit_region_kernel(m, in, &rs[r], r + 1, P->tk, &P->region_types, &P->protos, &P->kernels);
      emit_region_wrapper(m, f, &rs[r], r + 1, &P->entries, &P->methods);
      cJSON_AddItemToArray(list, region_json(m, f, &rs[r], r + 1));
    }
  }
  char *rj = cJSON_PrintUnformatted(regions_json);
  sb_printf(&P->macros, "#define DYNAC_REGIONS_JSON %s\n", c_string(m, rj));
  free(rj);
  cJSON_Delete(regions_json);
}

/* One function's entries (guard and glue per root specialisation) and its
 * row of the function table; false when it has no kernel at all. */
static bool write_function(module *m, module_parts *P, int i, strbuf *funcs) {
  func *f = m->funcs[i];
  int ne = 0;
  strbuf ents = {0};
  for (inst *in = f->insts; in; in = in->next_root) {
    if (!in->ok || f->partial) continue;
    P->ok &= emit_entry(m, in, P->tg, P->tu, &P->entries);
    const char **gl;
    int ng = emit_guard_list(m, in, &gl);
    sb_printf(&P->tables, "static const char *const dynac__guards_%s[] = {\n", in->cname);
    for (int g = 0; g < ng; g++) sb_printf(&P->tables, "    %s,\n", c_string(m, gl[g]));
    sb_puts(&P->tables, "};\n");
    sb_printf(&ents, "    {.signature = %s,\n     .guard = dynac_guard_%s, .glue = dynac_glue_%s,\n"
              "     .nguards = %d, .guards = dynac__guards_%s%s},\n",
              c_string(m, signature_of(m, in)), in->cname, in->cname, ng, in->cname,
              entry_flags(m, in));
    ne++;
  }
  bool has_kernel = f->partial ? f->nregions > 0 : false;
  for (inst *in = m->insts; in; in = in->next_all)
    if (in->fn == f && in->ok && !f->partial) has_kernel = true;
  if (!has_kernel) { sb_free(&ents); return false; }
  if (ne) sb_printf(&P->tables, "static const dynac_entry_desc dynac__entries_%s[] = {\n%s};\n",
                    f->cname, ents.data);
  strbuf fv = {0}; /* co_freevars, which the code object must have (its kernels read the closure) */
  for (int k = 0; k < f->nfreevars; k++) sb_printf(&fv, "%s%s", k ? "," : "", f->freevars[k]);
  sb_printf(funcs, "    {.qualname = %s, .firstlineno = %d, .argcount = %d,\n     .nentries = %d, "
            ".entries = %s,\n     .direct_calls = &dynac__direct_calls[%d], "
            ".region_calls = &dynac__region_calls[%d]%s%s},\n", c_string(m, f->qualname),
            f->firstlineno, f->nparams, ne, ne ? arena_printf(m->a, "dynac__entries_%s", f->cname) : "NULL",
            i, i, f->is_root ? (f->eager_backend ? ", .flags = DYNAC_FUNC_ROOT | DYNAC_FUNC_EAGER"
                                                 : ", .flags = DYNAC_FUNC_ROOT") : "",
            fv.data ? arena_printf(m->a, ",\n     .freevars = %s", c_string(m, fv.data)) : "");
  sb_free(&fv);
  sb_free(&ents);
  return true;
}

/* The names kernels read (interned_name): declared before the kernels,
 * interned by dynac__make_names when the module is imported (-1 with
 * MemoryError), as CPython makes a code object's co_names with it. */
static void write_names(module *m, module_parts *P) {
  int n = m->nnames ? m->nnames : 1;
  sb_printf(&P->slots, "static PyObject *dynac__names[%d]; /* attribute and global names (co_names) */\n", n);
  sb_printf(&P->tables, "static const char *const dynac__name_texts[%d] = {", n);
  for (int i = 0; i < m->nnames; i++) sb_printf(&P->tables, "%s%s", i ? ", " : "", c_string(m, m->names[i]));
  sb_printf(&P->tables, "%s};\nstatic int dynac__make_names(void) {\n"
            "  for (int i = 0; i < %d; i++)\n"
            "    if (!dynac__names[i] && !(dynac__names[i] = PyUnicode_InternFromString(dynac__name_texts[i])))\n"
            "      return -1;\n"
            "  return 0;\n}\n", m->nnames ? "" : "NULL", m->nnames);
}

/* The descriptor the runtime attaches (dynac_module_desc) and the state
 * only some modules need: call counters, the kernel call depth. */
static void write_tables(module *m, module_parts *P) {
  write_names(m, P);
  strbuf funcs = {0};
  int nfd = 0;
  for (int i = 0; i < m->nfuncs; i++) nfd += write_function(m, P, i, &funcs);
  sb_printf(&P->tables, "static const dynac_func_desc dynac__funcs[%d] = {\n%s};\n", nfd ? nfd : 1,
            funcs.data ? funcs.data : "    {0},\n");
  if (m->ncodes) { /* nested code objects kernels make functions of, found when attached */
    sb_printf(&P->slots, "static PyObject *dynac__code[%d]; /* nested code objects (dynac__codes) */\n", m->ncodes);
    sb_printf(&P->tables, "static const dynac_code_desc dynac__codes[%d] = {\n", m->ncodes);
    for (int i = 0; i < m->ncodes; i++)
      sb_printf(&P->tables, "    {%s, %d, %d, %d, &dynac__code[%d]},\n", c_string(m, m->codes[i].qualname),
                m->codes[i].firstlineno, m->codes[i].rank, m->codes[i].col, i);
    sb_puts(&P->tables, "};\n");
  }
  sb_printf(&P->tables, "static const dynac_module_desc dynac__desc = {.abi_version = DYNAC_ABI_VERSION,\n"
            "    .source_name = DYNAC_SOURCE_NAME, .source_sha256 = DYNAC_SOURCE_SHA256,\n"
            "    .nfuncs = %d, .funcs = dynac__funcs, .globals = &dynac__G%s};\n", nfd,
            m->ncodes ? arena_printf(m->a, ", .ncodes = %d, .codes = dynac__codes", m->ncodes) : "");
  sb_free(&funcs);
  if (nfd) { /* the functions' counters (a module whose every function failed has none) */
    sb_printf(&P->slots, "static int64_t dynac__direct_calls[%d]; /* calls from other kernels */\n", m->nfuncs);
    sb_printf(&P->slots, "static int64_t dynac__region_calls[%d]; /* compiled regions that ran */\n", m->nfuncs);
  }
  if (m->nfloat_literals) /* after the glue, which boxes them too */
    sb_printf(&P->slots, "static PyObject *dynac__floats[%d]; /* float literals kernels return or pass, "
              "one object each (co_consts) */\n", m->nfloat_literals);
  if (P->kernels.data && strstr(P->kernels.data, "dynac__returned_param"))
    sb_puts(&P->slots, "static int dynac__returned_param; /* the parameter a kernel's `return x` returned, + 1 */\n");
  if (P->kernels.data && strstr(P->kernels.data, "dynac__depth"))
    sb_puts(&P->slots, "static int dynac__depth;      /* kernel-to-kernel call depth */\n");
}

bool emit_module(module *m, const emit_opts *o, strbuf *out) {
  module_parts P = {.line_directives = o->line_directives, .ok = true};
  char *tm = read_template(o, "module.c");
  P.tk = read_template(o, "kernel.c"), P.tg = read_template(o, "guard.c"), P.tu = read_template(o, "glue.c");
  if (!tm || !P.tk || !P.tg || !P.tu) { free(tm); free(P.tk); free(P.tg); free(P.tu); return false; }
  sb_printf(&P.banner, "/* Generated by dynac from %s (sha256 %s).\n * Do not edit: rebuild with "
            "`dynac build %s`. Each kernel is headed by its Python\n * function and "
            "specialisation; each statement by its source line. */", basename_of(m->path),
            m->p.sha256, basename_of(m->path));
  sb_printf(&P.macros, "#define DYNAC_MODULE_NAME \"%s__dynac\"\n#define DYNAC_MODULE_INIT "
            "PyInit_%s__dynac\n#define DYNAC_SOURCE_NAME %s\n#define DYNAC_SOURCE_SHA256 \"%s\"\n",
            m->modname, m->modname, c_string(m, basename_of(m->path)), m->p.sha256);
  n_used_tuples = 0;
  heap_plan(m); /* as the analyses made it (the functions compiled may be fewer now): before the slots */
  write_slots(m, &P);
  write_kernels(m, &P);
  write_regions(m, &P);
  write_tables(m, &P);
  emit_heap_less(m, &P.protos, &P.entries);
  const type **done = arena_alloc(m->a, sizeof *done * (size_t)(n_used_tuples + 1)); /* each noted */
  int ndone = 0;
  for (int i = 0; i < n_used_tuples; i++) emit_tuple_type(m, used_tuples[i], &P.types, done, &ndone);
  emit_rec_structs(m, &P.types); /* instances kernels keep as fields */
  if (P.region_types.data) sb_puts(&P.types, P.region_types.data);
  hole holes[] = {{"banner", P.banner.data}, {"module_macros", P.macros.data},
                  {"tuple_types", P.types.data ? P.types.data : ""}, {"slots", P.slots.data},
                  {"prototypes", P.protos.data ? P.protos.data : ""},
                  {"kernels", P.kernels.data ? P.kernels.data : ""},
                  {"entries", P.entries.data ? P.entries.data : ""}, {"tables", P.tables.data},
                  {"methods", P.methods.data ? P.methods.data : ""}};
  bool ok = fill(tm, holes, 9, out) && P.ok; /* written even when a kernel failed */
  strbuf *bufs[] = {&P.banner, &P.macros, &P.types, &P.slots, &P.protos, &P.kernels, &P.entries,
                    &P.tables, &P.methods, &P.region_types};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) sb_free(bufs[i]);
  free(tm); free(P.tk); free(P.tg); free(P.tu);
  return ok;
}
