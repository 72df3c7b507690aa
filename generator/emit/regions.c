/* regions.c: partially compiled functions: a kernel per region and
 * specialisation, the entry that picks one, the Python-callable wrapper.
 */
#include "emit.h"

/* ---- partially compiled functions: regions and the resume table ---------
 * A function with graph breaks in its top-level block is split: maximal runs
 * of top-level statements that type in every specialisation are regions,
 * each a kernel per specialisation behind one Python-callable wrapper; the
 * loader rebuilds the function around them (python/dynac/_resume.py). */

/* Where a region's continuation ends: `line:col:outs` of its last
 * statement, its live-outs' names in the entry's order. */
const char *region_spec(em *E) {
  func *f = E->in->fn;
  const struct region *r = E->reg;
  strbuf outs = {0};
  for (int i = 0; i < r->nout; i++) sb_printf(&outs, "%s%s", i ? "," : "", f->locals[regions_base_local(f, r->out[i])]);
  const char *spec = arena_printf(E->m->a, "%d:%d:%s", r->s_last->pos.line, r->s_last->pos.col - 1,
                                  outs.data ? outs.data : "");
  sb_free(&outs);
  return spec;
}

/* Does a region kernel own a reference in local v (an object, or a list
 * that a list-building function may rebind), as emit_kernel's locals do? */
static bool region_owns(const inst *in, int v) {
  return in->local_ty[v]->kind == TY_OBJ || owned_list_local(in, v);
}

bool emit_region_kernel(module *m, inst *in, region *r, int ri, const char *tpl,
                               strbuf *types, strbuf *protos, strbuf *out) {
  func *f = in->fn;
  const char *name = arena_printf(m->a, "%s__r%d", in->cname, ri);
  strbuf params = {0}, locals = {0}, body = {0}, end = {0};
  for (int i = 0; i < r->nin; i++) {
    int v = r->in[i];
    note_type(in->local_ty[v]);
    sb_printf(&params, "%s%s a_%s", i ? ", " : "", c_type(in->local_ty[v]), f->local_cnames[v]);
  }
  bool has_value = in->ret->kind != TY_UNKNOWN;
  if (has_value) sb_printf(&params, "%s%s *dynac_out", r->nin ? ", " : "", c_type(in->ret));
  sb_printf(&params, "%sdynac_lo_%s *lo", r->nin || has_value ? ", " : "", name);
  sb_printf(types, "typedef struct { /* live-outs of region %d of %s */\n", ri, f->qualname);
  for (int i = 0; i < r->nout; i++) {
    const type *t = in->local_ty[r->out[i]];
    if (t->kind == TY_UNKNOWN || t->kind == TY_CONFLICT) t = &ty_int; /* never bound here */
    note_type(t);
    sb_printf(types, "  %s v%d; bool b%d; /* %s */\n", c_type(t), i, i, f->locals[r->out[i]]);
  }
  sb_printf(types, "  char unused;\n} dynac_lo_%s;\n", name);
  for (int v = 0; v < f->nlocals; v++) {
    const type *t = in->local_ty[v];
    if (t->kind == TY_UNKNOWN || t->kind == TY_CONFLICT) continue;
    note_type(t);
    if (region_owns(in, v)) /* as in a whole kernel: released on every way out */
      sb_printf(&locals, "DYNAC_OBJ l_%s = NULL; /* owned */\nbool b_%s = false; /* bound? */\n",
                f->local_cnames[v], f->local_cnames[v]);
    else
      sb_printf(&locals, "%s l_%s = %s;\nbool b_%s = false; /* bound? */\n", c_type(t),
                f->local_cnames[v], t->kind == TY_TUPLE || t->kind == TY_NUM ? "{0}" : "0",
                f->local_cnames[v]);
  }
  for (int i = 0; i < r->nin; i++) {
    const char *c = f->local_cnames[r->in[i]];
    if (region_owns(in, r->in[i])) sb_printf(&locals, "l_%s = Py_NewRef(a_%s); /* live-in, owned */\nb_%s = true;\n", c, c, c);
    else sb_printf(&locals, "l_%s = a_%s; /* live-in */\nb_%s = true;\n", c, c, c);
  }
  strbuf helpers = {0}; /* loop functions (fusion.c), written before the region's kernel */
  em E = {.m = m, .in = in, .b = &body, .reg = r, .effectful = in->effectful,
          .conts = may_continue(in), .helpers = &helpers, .fused_prefix = name};
  if (in->effectful) declare_undo_log(&E);
  declare_globals_recheck(&E);
  E.bound = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < r->nin; i++) E.bound[r->in[i]] = true;
  stmt *saved = r->s_last->next;
  r->s_last->next = NULL; /* emit just the region */
  declare_kernel_locals(&E, r->s_first);
  E.np_exit = uses_np_float(&E, r->s_first);
  emit_block(&E, r->s_first);
  np_exit_check(&E); /* before the live-outs and the return */
  r->s_last->next = saved;
  for (int i = 0; i < r->nout; i++) {
    const type *t = in->local_ty[r->out[i]];
    if (t->kind == TY_UNKNOWN || t->kind == TY_CONFLICT) { sb_printf(&end, "lo->b%d = false;\n", i); continue; }
    bool ref = t->kind == TY_LIST || t->kind == TY_OBJ; /* the entry takes a reference of its own */
    sb_printf(&end, "lo->v%d = %sl_%s%s;\nlo->b%d = b_%s;\n", i, ref ? "Py_XNewRef(" : "",
              f->local_cnames[r->out[i]], ref ? ")" : "", i, f->local_cnames[r->out[i]]);
  }
  sb_puts(&end, "return DYNAC_FALLTHROUGH; /* the function goes on in the interpreter */");
  tidy_kernel(&locals, &body, end.data, params.data);
  sb_printf(protos, "static int dynac_kernel_%s(%s);\n", name, params.data);
  const char *comment = arena_printf(m->a, "/* %s:%d-%d: region %d of %s, specialisation %s */",
                                     basename_of(m->path), r->s_first->pos.line, r->s_last->end.line,
                                     ri, f->qualname, signature_of(m, in));
  hole holes[] = {{"comment", comment}, {"name", name}, {"params", params.data},
                  {"storage", "static"}, {"locals", locals.data ? locals.data : ""},
                  {"body", body.data ? body.data : ""}, {"end", end.data}};
  if (helpers.data) sb_puts(out, helpers.data);
  bool ok = fill(tpl, holes, 7, out);
  sb_puts(out, "\n");
  sb_free(&params); sb_free(&locals); sb_free(&body); sb_free(&end); sb_free(&helpers);
  return ok;
}

/* One specialisation's part of a region's entry: its live-ins checked and
 * unboxed (else on to the next specialisation, label next_<k>), the
 * module-level values it reads validated, the region kernel run, and its
 * outcome boxed: (1, value) when the function returned, (0, None,
 * live-outs...) when it fell through. */
static void emit_region_entry_spec(module *m, func *f, inst *in, region *r, int ri, int k,
                                   strbuf *out) {
  const char *name = arena_printf(m->a, "%s__r%d", in->cname, ri);
  const char *next = arena_printf(m->a, "goto next_%d;", k);
  strbuf unbox = {0}, release = {0};
  for (int i = 0; i < r->nin; i++)
    emit_unbox_arg(m, in->local_ty[r->in[i]], i, arena_printf(m->a, "args[%d]", i + 1), false, next,
                   &unbox, &release);
  const char *rel = release.data ? release.data : "";
  sb_printf(out, "  { /* specialisation %s */\n", signature_of(m, in));
  bool any_slot = false;
  for (int q = 0; q < m->nslots; q++) if (in->slots_used[q]) any_slot = true;
  if (any_slot) {
    sb_puts(out, "    if (dynac_globals_update(&dynac__G, globals) < 0) return NULL;\n    if (!(1");
    for (int q = 0; q < m->nslots; q++) if (in->slots_used[q]) sb_printf(out, " && dynac__slots[%d].valid", q);
    sb_printf(out, ")) %s\n", next);
  }
  for (const char *p = unbox.data; p && *p;) { /* indented */
    const char *nl = strchr(p, '\n');
    sb_printf(out, "    %.*s\n", (int)(nl ? nl - p : (long)strlen(p)), p);
    p = nl ? nl + 1 : NULL;
  }
  bool has_value = in->ret->kind != TY_UNKNOWN;
  if (has_value) sb_printf(out, "    %s r = %s;\n", c_type(in->ret),
                           in->ret->kind == TY_TUPLE || in->ret->kind == TY_NUM ? "{0}" : "0");
  sb_printf(out, "    dynac_lo_%s lo = {0}; /* filled when the kernel falls through */\n"
            "    size_t mark = dynac_undo_mark();\n"
            "    int st = dynac_kernel_%s(", name, name);
  for (int i = 0; i < r->nin; i++) sb_printf(out, "%sa%d", i ? ", " : "", i);
  sb_printf(out, "%s%s%slo);\n", r->nin && has_value ? ", " : "", has_value ? "&r" : "",
            r->nin || has_value ? ", &" : "&");
  int fi = 0;
  for (int q = 0; q < m->nfuncs; q++) if (m->funcs[q] == f) fi = q;
  sb_puts(out, "    if (st == DYNAC_DEOPT) dynac_undo_rollback(mark);\n"
               "    else dynac_undo_commit(mark);\n");
  if (in->effectful) sb_printf(out, "    %s\n", entered_report);
  sb_printf(out, "    PyObject *res = NULL;\n"
            "    if (st == DYNAC_ERROR) res = NULL;\n"
            "    else if (st == DYNAC_DEOPT) res = Py_NewRef(Py_None); /* the interpreter runs the region */\n"
            "    else if (st == DYNAC_OK_NONE) res = Py_BuildValue(\"(iO)\", 1, Py_None);\n"
            "    else if (st == DYNAC_OK_BOXED) { /* it went on in the interpreter: the tuple */\n"
            "      res = dynac__boxed_result;\n"
            "      dynac__boxed_result = NULL;\n"
            "    }\n");
  if (has_value) {
    const char *bf = in->ret->kind == TY_TUPLE ? arena_printf(m->a, "dynac_box_%s(&r)", in->ret->code)
                                               : arena_printf(m->a, "%s(r)", box_fn(m, in->ret));
    sb_printf(out, "    else if (st == DYNAC_OK) res = Py_BuildValue(\"(iN)\", 1, %s);\n", bf);
  }
  sb_printf(out, "    else res = PyTuple_New(%d);\n", r->nout + 2);
  sb_printf(out, "    if (st != DYNAC_DEOPT) dynac__region_calls[%d]++;\n", fi);
  /* fell through: (0, None, live-outs...), Ellipsis for an unbound name;
   * each boxed value (or the reference the kernel gave) goes into the tuple,
   * or is released when the tuple could not be made */
  sb_puts(out, "    if (st == DYNAC_FALLTHROUGH) {\n      int failed = !res;\n");
  for (int i = 0; i < r->nout; i++) {
    const type *t = in->local_ty[r->out[i]];
    const char *bx = t->kind == TY_TUPLE ? arena_printf(m->a, "dynac_box_%s(&lo.v%d)", t->code, i)
                     : t->kind == TY_LIST || t->kind == TY_OBJ ? arena_printf(m->a, "lo.v%d", i)
                     : box_fn(m, t) ? arena_printf(m->a, "%s(lo.v%d)", box_fn(m, t), i) : NULL;
    sb_printf(out, "      PyObject *o%d = %s;\n", i,
              bx ? arena_printf(m->a, "lo.b%d ? %s : Py_NewRef(Py_Ellipsis)", i, bx) : "Py_NewRef(Py_Ellipsis)");
    sb_printf(out, "      failed |= !o%d;\n", i);
  }
  sb_puts(out, "      if (failed) {\n        Py_CLEAR(res);\n");
  for (int i = 0; i < r->nout; i++) sb_printf(out, "        Py_XDECREF(o%d);\n", i);
  sb_puts(out, "      } else {\n        PyTuple_SET_ITEM(res, 0, PyLong_FromLong(0));\n"
               "        PyTuple_SET_ITEM(res, 1, Py_NewRef(Py_None));\n");
  for (int i = 0; i < r->nout; i++) sb_printf(out, "        PyTuple_SET_ITEM(res, %d, o%d);\n", i + 2, i);
  sb_puts(out, "      }\n");
  sb_printf(out, "    }\n%s%s%s    return res;\n  }\n", *rel ? "   " : "", rel, *rel ? "\n" : "");
  if (any_slot || (unbox.data && strstr(unbox.data, next))) sb_printf(out, "next_%d:;\n", k);
  sb_free(&unbox);
  sb_free(&release);
}

/* The wrapper the resume function calls: (globals, live-ins...) -> None
 * (run the region's statements in the interpreter), (1, value) (the function
 * returned), or (0, None, live-outs...) with Ellipsis for a name left unbound. */
void emit_region_wrapper(module *m, func *f, region *r, int ri, strbuf *out, strbuf *methods) {
  const char *wname = arena_printf(m->a, "dynac_region_%s_%d", f->cname, ri);
  sb_printf(out, "/* %s:%d-%d: entry of region %d of %s (called by its resume function) */\n",
            basename_of(m->path), r->s_first->pos.line, r->s_last->end.line, ri, f->qualname);
  sb_printf(out, "static PyObject *%s(PyObject *self, PyObject *const *args, Py_ssize_t nargs)\n{\n", wname);
  sb_printf(out, "  (void)self;\n  if (nargs != %d) {\n    PyErr_SetString(PyExc_TypeError, "
            "\"dynac region: wrong number of arguments\");\n    return NULL;\n  }\n"
            "  PyObject *globals = args[0];\n  (void)globals;\n", r->nin + 1);
  int k = 0;
  for (inst *in = f->insts; in; in = in->next_root) {
    if (!in->ok) continue;
    emit_region_entry_spec(m, f, in, r, ri, ++k, out);
  }
  sb_puts(out, "  Py_RETURN_NONE; /* no specialisation's guards passed: the interpreter */\n}\n\n");
  sb_printf(methods, "{\"__%s\", (PyCFunction)(void (*)(void))%s, METH_FASTCALL, NULL},\n", wname + 6, wname);
}
