/* functions.c: defs and lambdas nested in a kernel's function, made as
 * MAKE_FUNCTION makes them (runtime/objects.h's dynac_make_function) from
 * the interpreter's own code object, which the module's table of nested
 * code objects (dynac__code, filled when the artifact is attached) holds.
 * The locals they capture go into cells shared by the call's closures
 * (ir/nested.c says when one cell per local is exact).
 */
#include "emit.h"

static void mark_captures(void *ctx, expr *e);
static void mark_in_block(void *ctx, stmt *s);
static void mark_in_target(void *ctx, target *t) {
  if (t->sub) mark_captures(ctx, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) mark_in_target(ctx, t->elts[i]);
}
static const ir_parts mark_parts = {mark_captures, mark_in_target, mark_in_block, false};
static void mark_in_block(void *ctx, stmt *s) {
  for (; s; s = s->next) ir_each_part(s, &mark_parts, ctx);
}
static void mark_captures(void *ctx, expr *e) {
  if (e->kind == EX_FUNCTION) {
    int first = e->u.mkfn.ndefaults + e->u.mkfn.nkwdefaults + e->u.mkfn.nannotations;
    for (int i = 0; i < e->u.mkfn.ncells; i++)
      if (e->u.mkfn.args[first + i]->kind == EX_LOCAL) ((bool *)ctx)[e->u.mkfn.args[first + i]->u.local] = true;
  }
  if (e->kind == EX_LISTCOMP) mark_in_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, mark_captures, ctx);
}

/* [nlocals]: the locals of f that closures made in its body capture (each
 * gets a cell variable, cell_NAME, in the kernel). */
bool *captured_locals(arena *a, func *f) {
  bool *c = arena_alloc(a, sizeof(bool) * (size_t)(f->nlocals + 1));
  mark_in_block(c, f->body);
  return c;
}

/* The cell (borrowed) of EX_FREE index i: a free variable's in the closure
 * of the function the kernel serves, or one of the kernel's own cells. */
const char *cell_of(em *E, int i) {
  int nfree = E->in->fn->nfreevars;
  return i < nfree ? arena_printf(E->m->a, "PyTuple_GET_ITEM(dynac__closure, %d)", i)
                   : arena_printf(E->m->a, "cellvar%d", i - nfree);
}

/* Is EX_FREE index i one of the kernel's own cell variables? */
bool is_own_cell(em *E, int i) { return i >= E->in->fn->nfreevars; }

/* LOAD_DEREF: the cell's content (a new reference); NameError when a free
 * variable's cell is empty, UnboundLocalError when an own one's is. */
const char *emit_free_variable(em *E, expr *e) {
  const char *o = tmpvar(E, &ty_obj);
  const char *name = E->in->fn->freevars[e->u.local];
  bool own = is_own_cell(E, e->u.local);
  line(E, "%s = %s(%s, %s); /* %s %s */", o, own ? "dynac_cellvar_deref" : "dynac_cell_deref",
       cell_of(E, e->u.local), c_string(E->m, name), own ? "cell variable" : "free variable", name);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* MAKE_CELL of the kernel's own cell variables, at its entry: empty cells
 * (none of them is a parameter). */
void emit_own_cells(em *E) {
  const func *f = E->in->fn;
  for (int j = 0; j < f->nowncells; j++) {
    line(E, "DYNAC_OBJ cellvar%d = PyCell_New(NULL); /* %s: closures capture it and it is rebound */", j,
         f->freevars[f->nfreevars + j]);
    line(E, "if (!cellvar%d) return DYNAC_ERROR;", j);
  }
}

/* LOAD_BUILD_CLASS (a new reference). */
const char *emit_load_build_class(em *E, expr *e) {
  (void)e;
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_load_build_class(dynac__G.builtins); /* LOAD_BUILD_CLASS */", o);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* A tuple (positional defaults) or a dict (keyword-only defaults,
 * annotations: name -> value) of the boxed values v[0..n): a new
 * reference in an owned temporary. */
static const char *pack(em *E, bool dict, const char *const *names, const char *const *v, int n) {
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = %s;", o, dict ? "PyDict_New()" : arena_printf(E->m->a, "PyTuple_New(%d)", n));
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  for (int i = 0; i < n; i++)
    if (dict)
      line(E, "if (PyDict_SetItem(%s, %s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", o,
           interned_name(E, names[i]), v[i], where(E));
    else
      line(E, "PyTuple_SET_ITEM(%s, %d, Py_NewRef(%s));", o, i, v[i]);
  return o;
}

/* MAKE_FUNCTION: the defaults, keyword-only defaults and annotations
 * evaluated in that order, the captured locals' cells made if this is the
 * call's first closure, then the function (a new reference). */
const char *emit_make_function(em *E, expr *e) {
  int nd = e->u.mkfn.ndefaults, nkw = e->u.mkfn.nkwdefaults, nann = e->u.mkfn.nannotations;
  int nc = e->u.mkfn.ncells, n = nd + nkw + nann + nc;
  const char **v = arena_alloc(E->m->a, sizeof(char *) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    expr *x = e->u.mkfn.args[i];
    v[i] = x->kind == EX_FREE ? NULL /* a cell passed on */ : keep(E, as_obj(E, emit_expr(E, x), TY(x)), &ty_obj);
  }
  const char *defaults = nd ? pack(E, false, NULL, v, nd) : "NULL";
  const char *kwdefaults = nkw ? pack(E, true, e->u.mkfn.names + nd, v + nd, nkw) : "NULL";
  const char *annotations = nann ? pack(E, true, e->u.mkfn.names + nd + nkw, v + nd + nkw, nann) : "NULL";
  strbuf names = {0}, cells = {0};
  for (int i = 0; i < nc; i++) {
    int k = nd + nkw + nann + i;
    const char *cell;
    if (e->u.mkfn.args[k]->kind == EX_FREE) { /* a cell of the function's closure or its own */
      cell = cell_of(E, e->u.mkfn.args[k]->u.local);
    } else {
      cell = arena_printf(E->m->a, "cell_%s", E->in->fn->local_cnames[e->u.mkfn.args[k]->u.local]);
      line(E, "if (!%s && !(%s = PyCell_New(%s))) DYNAC_LEAVE(dynac_traceback_here(%s)); /* the cell of %s */",
           cell, cell, v[k], where(E), e->u.mkfn.names[k]);
    }
    sb_printf(&names, "%s%s", i ? ", " : "", c_string(E->m, e->u.mkfn.names[k]));
    sb_printf(&cells, "%s%s", i ? ", " : "", cell);
  }
  deopt_if(E, NULL, "its code object was not found when attached: the interpreter makes the function",
           "!dynac__code[%d]", e->u.mkfn.code);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "{");
  line(E, "  static const char *const names[] = {%s};", nc ? names.data : "NULL");
  line(E, "  PyObject *const cells[] = {%s};", nc ? cells.data : "NULL");
  line(E, "  %s = dynac_make_function(dynac__code[%d], %s, dynac__G.globals, %d, names, cells, %s, %s, %s);",
       o, e->u.mkfn.code, c_string(E->m, e->u.mkfn.qualname), nc, defaults, kwdefaults, annotations);
  line(E, "}");
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s)); /* MAKE_FUNCTION %s */", o, where(E), e->u.mkfn.qualname);
  sb_free(&names);
  sb_free(&cells);
  if (!e->u.mkfn.iterable) return o;
  expr *x = e->u.mkfn.iterable; /* a generator expression: GET_ITER, then the call */
  const char *it = tmpvar(E, &ty_obj), *gen = tmpvar(E, &ty_obj);
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* __iter__ may run */");
  note_effect(E);
  line(E, "%s = PyObject_GetIter(%s); /* GET_ITER */", it, as_obj(E, emit_expr(E, x), TY(x)));
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", it, where(E));
  line(E, "%s = PyObject_CallOneArg(%s, %s); /* the generator */", gen, o, it);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", gen, where(E));
  return gen;
}
