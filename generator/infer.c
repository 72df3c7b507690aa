/* infer.c: phase 5, types per specialisation.
 *
 * For each compile root and each of its specialisations (argument types),
 * types every local and expression (flow-insensitive: a local keeps one type;
 * int and float in one local is reported, not widened, since CPython would
 * give back an int where a widened kernel would give a float). Calls to other
 * functions of the module create callee instances for the argument types at
 * the call site (kernel-to-kernel calls, guarded by the callee's identity).
 * The result of an instance: local types, return type, the guard slots it
 * reads (its callees' included), or the reason it has no kernel.
 */
#include "gen.h"

#include <string.h>

/* Reads of the side tables of the instance being typed (c->in). */
#define TY(e) ty_of(c->in, (e))

/* ---- instances ----------------------------------------------------------- */
typedef struct ctx {
  module *m;
  inst *in;
  bool strict;   /* final pass: an unknown type is a failure */
  int top;       /* partial functions: split_id of the split-block statement being typed */
  expr *unpacked; /* a tuple display assigned straight to unpacking targets (a, b = b, a):
                     the only tuple that may hold objects (owned by temporaries) */
} ctx;

static inst *get_inst(module *m, func *f, const type **args);

static void fail(ctx *c, srcpos pos, const char *msg) {
  if (c->in->fn->partial && c->top >= 0) { /* that statement runs in the interpreter */
    if (!c->in->top_fail[c->top]) c->in->top_fail[c->top] = msg;
    return;
  }
  if (!c->in->fail) { c->in->fail = msg; c->in->fail_pos = pos; }
  c->in->ok = false;
}

static const type *num_promote(const type *t) { return t->kind == TY_BOOL ? &ty_int : t; }

static const type *type_expr(ctx *c, expr *e, bool truth);
static void type_block(ctx *c, stmt *s);
static void bind(ctx *c, target *tg, const type *t, srcpos pos);

/* Result type of l OP r for number operands (CPython's numeric tower). */
const type *binop_result(binop op, const type *l, const type *r) {
  if (l->kind == TY_NP || r->kind == TY_NP) { /* numpy's result dtype */
    char res = np_promote(np_dtype_of(l), np_dtype_of(r));
    if (!res) return &ty_conflict;
    return ty_np(op == OP_TRUEDIV && !np_is_float(res) ? 'd' : res);
  }
  bool bitwise = op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR;
  if (bitwise && l->kind == TY_BOOL && r->kind == TY_BOOL) return &ty_bool;
  l = num_promote(l);
  r = num_promote(r);
  if (bitwise || op == OP_LSHIFT || op == OP_RSHIFT) /* ints only; a num is checked at run time */
    return l->kind == TY_FLOAT || r->kind == TY_FLOAT ? &ty_conflict : &ty_int;
  if (op == OP_TRUEDIV) return &ty_float;
  if (l->kind == TY_NUM || r->kind == TY_NUM) return &ty_num;
  if (l->kind == TY_FLOAT || r->kind == TY_FLOAT) return &ty_float;
  return &ty_int; /* int ** negative int deoptimises at run time */
}

/* l OP r where one side is a numpy scalar: numpy's result dtype (a
 * Python int counts as int64, a float as float64, a bool as bool_). What
 * kernels leave to the interpreter: int | float operands, arithmetic on two
 * bools, float32 //, % and **, and bit operations on floats. */
static const type *np_binop_type(ctx *c, expr *e, binop op, const type *l, const type *r) {
  char a = np_dtype_of(l), b = np_dtype_of(r);
  char res = np_promote(a, b);
  const char *why = NULL;
  bool bitwise = op >= OP_LSHIFT;
  if (!a || !b || !res) why = "a numpy scalar with an int | float value";
  else if (res == '?') why = "arithmetic on two bools (numpy's bool_ rules)";
  else if (bitwise && np_is_float(res)) why = "a bit operation on a numpy float (TypeError)";
  else if (res == 'f' && (op == OP_FLOORDIV || op == OP_MOD || op == OP_POW))
    why = "//, % and ** on numpy.float32";
  if (why) {
    fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on %s and %s: %s", binop_spelling[op],
                                 ty_python_name(c->m->a, l), ty_python_name(c->m->a, r), why));
    return &ty_conflict;
  }
  return binop_result(op, l, r);
}

/* A value the C API operates on: an object, or a Python number boxed for
 * an operation with one. */
static bool generic_operand(const type *t) {
  return t->kind == TY_OBJ || ty_is_number(t) || t->kind == TY_LIST;
}

/* An operation through the C API: Python code may run (an effect). */
static const type *generic_op(ctx *c) {
  c->in->generic = true;
  c->in->effectful = true;
  return &ty_obj;
}

/* ---- new lists ------------------------------------------------------------
 * Displays, comprehensions, slices, `+` and `*` of lists, and calls that
 * return a list give the kernel a new list (an owned reference). Such an
 * instance `builds_lists`: its list locals hold references (a rebinding
 * releases the old list, as STORE_FAST does), and no local or result may
 * be a tuple holding a list (a tuple value borrows its lists, which a
 * rebinding could free). */
static void builds_list(ctx *c, srcpos pos) {
  if (c->in->fn->partial) /* regions pass the frame's lists, which they borrow */
    fail(c, pos, "a new list in a function with graph breaks");
  c->in->builds_lists = true;
}

/* May a new list hold values of type t (boxed as they go in)? Numbers
 * (int | float too: each element is boxed as what it is), bools, objects,
 * lists, and tuples of those without lists. */
static bool list_elem_ok(const type *t) {
  if (ty_is_number(t) || t->kind == TY_OBJ) return true; /* int | float too (sum of floats) */
  if (t->kind == TY_LIST) return t->elts[0]->kind != TY_UNKNOWN;
  if (t->kind != TY_TUPLE) return false;
  for (int i = 0; i < t->n; i++)
    if (t->elts[i]->kind == TY_LIST || !list_elem_ok(t->elts[i])) return false;
  return true;
}

/* [a, b, ...]: list[T] for elements of one type T; [] is a list whose
 * element type the appends to it decide (list[unknown] until then). */
static const type *type_list_display(ctx *c, expr *e) {
  const type *el = &ty_unknown;
  bool unknown = false;
  for (int i = 0; i < e->u.tuple.n; i++) {
    const type *t = type_expr(c, e->u.tuple.elts[i], false);
    if (t->kind == TY_UNKNOWN) { unknown = true; continue; }
    if (!list_elem_ok(t)) {
      fail(c, e->u.tuple.elts[i]->pos, arena_printf(c->m->a, "a list display holding a %s",
           ty_python_name(c->m->a, t)));
      return &ty_conflict;
    }
    if (el->kind != TY_UNKNOWN && el != t) {
      fail(c, e->pos, arena_printf(c->m->a, "a list display holding both %s and %s",
           ty_python_name(c->m->a, el), ty_python_name(c->m->a, t)));
      return &ty_conflict;
    }
    el = t;
  }
  builds_list(c, e->pos);
  return unknown ? &ty_unknown : ty_list(el);
}

/* [elt for ... in ... if ...]: its clauses are typed as the loops they are
 * (binding the comprehension's own names); its appends decide the type. */
static const type *type_list_comprehension(ctx *c, expr *e) {
  builds_list(c, e->pos);
  int r = e->u.comp.result;
  if (c->in->local_ty[r]->kind == TY_UNKNOWN) {
    c->in->local_ty[r] = ty_list(&ty_unknown);
    c->in->pass_changed = 1;
  }
  type_block(c, e->u.comp.loop);
  const type *t = c->in->local_ty[r];
  if (c->strict && t->kind == TY_LIST && t->elts[0]->kind == TY_UNKNOWN) {
    fail(c, e->pos, "a list comprehension whose elements have no known type");
    return &ty_conflict;
  }
  return t;
}

/* obj[lo:hi:step] of a list: a new list of the same type. The bounds are
 * ints, bools or None (omitted). */
static const type *type_slice(ctx *c, expr *e) {
  const type *ot = type_expr(c, e->u.slice.obj, false);
  expr *parts[3] = {e->u.slice.lo, e->u.slice.hi, e->u.slice.step};
  bool unknown = ot->kind == TY_UNKNOWN;
  for (int i = 0; i < 3; i++) {
    if (!parts[i]) continue;
    const type *t = type_expr(c, parts[i], false);
    if (t->kind == TY_UNKNOWN) unknown = true;
    else if (t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_NONE) {
      fail(c, parts[i]->pos, arena_printf(c->m->a, "slice bound of type %s",
                                          ty_python_name(c->m->a, t)));
      return &ty_conflict;
    }
  }
  if (unknown) return &ty_unknown;
  if (ot->kind != TY_LIST) {
    fail(c, e->pos, arena_printf(c->m->a, "slicing a %s (only lists are sliced in kernels)",
                                 ty_python_name(c->m->a, ot)));
    return &ty_conflict;
  }
  builds_list(c, e->pos);
  return ot;
}

/* list + list (one element type), list * int, int * list: a new list.
 * (x += [..] extends x in place: not this; ST_AUGASSIGN refuses it.) */
static const type *list_binop_type(ctx *c, expr *e, binop op, const type *l, const type *r) {
  const type *t = &ty_conflict;
  bool count_l = l->kind == TY_INT || l->kind == TY_BOOL, count_r = r->kind == TY_INT || r->kind == TY_BOOL;
  if (e->u.bin.inplace) {
    fail(c, e->pos, arena_printf(c->m->a, "augmented assignment '%s=' to a list (it changes the "
                                 "list in place)", binop_spelling[op]));
    return &ty_conflict;
  }
  if (op == OP_ADD && l->kind == TY_LIST && r->kind == TY_LIST) t = ty_join(l, r);
  else if (op == OP_MUL && l->kind == TY_LIST && count_r) t = l;
  else if (op == OP_MUL && r->kind == TY_LIST && count_l) t = r;
  if (t->kind != TY_LIST) {
    fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on %s and %s", binop_spelling[op],
                                 ty_python_name(c->m->a, l), ty_python_name(c->m->a, r)));
    return &ty_conflict;
  }
  builds_list(c, e->pos);
  return t;
}

static const type *binop_type(ctx *c, expr *e, binop op, const type *l, const type *r) {
  if (l->kind == TY_UNKNOWN || r->kind == TY_UNKNOWN) return &ty_unknown;
  if ((l->kind == TY_OBJ || r->kind == TY_OBJ) && generic_operand(l) && generic_operand(r))
    return generic_op(c); /* PyNumber_Add, ... */
  if ((l->kind == TY_NP || r->kind == TY_NP) && ty_is_scalar(l) && ty_is_scalar(r))
    return np_binop_type(c, e, op, l, r);
  if (l->kind == TY_LIST || r->kind == TY_LIST) return list_binop_type(c, e, op, l, r);
  if (!ty_is_number(l) || !ty_is_number(r)) {
    fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on %s and %s", binop_spelling[op],
                                 ty_python_name(c->m->a, l), ty_python_name(c->m->a, r)));
    return &ty_conflict;
  }
  const type *t = binop_result(op, l, r);
  if (t->kind == TY_CONFLICT)
    fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on a float raises TypeError",
                                 binop_spelling[op]));
  return t;
}

/* len(c) of a list, tuple or buffer; sum(c) of a list or buffer of
 * numbers: sum starts from the int 0, so a float list sums to an int when
 * empty (int | float). */
static const type *type_len_sum(ctx *c, expr *e, const type *a) {
  bool is_len = ops_call_is(e, OPI_LEN);
  if (is_len && (a->kind == TY_LIST || a->kind == TY_BUF || a->kind == TY_TUPLE)) return &ty_int;
  if (is_len && a->kind == TY_OBJ) { /* PyObject_Length: __len__ may run */
    generic_op(c);
    return &ty_int;
  }
  if (!is_len && (a->kind == TY_LIST || (a->kind == TY_BUF && a->buf_kind != 'n'))) {
    const type *el = ty_elem(a);
    if (el->kind == TY_INT || el->kind == TY_BOOL) return &ty_int;
    if (el->kind == TY_FLOAT) return &ty_num;
  }
  fail(c, e->pos, arena_printf(c->m->a, "%s() of a %s", e->u.call.name, ty_python_name(c->m->a, a)));
  return &ty_conflict;
}

/* Can a value of type `vt` be stored into `ct` (a list or buffer)? False
 * (with a failure) if it would change what the container holds or raise
 * TypeError. */
static bool storable(ctx *c, srcpos pos, const type *ct, const type *vt) {
  if (vt->kind == TY_UNKNOWN) return true;
  if (ct->kind == TY_LIST && ct->elts[0]->kind == TY_OBJ && generic_operand(vt)) return true;
  if (ct->kind == TY_LIST && vt == ct->elts[0] && ty_is_number(vt) && vt->kind != TY_NUM)
    return true;
  if (ct->kind == TY_LIST && vt == ct->elts[0] && vt->kind == TY_LIST) return true; /* a list of lists */
  if (ct->kind == TY_BUF && ct->buf_kind == 'n' && ty_is_scalar(vt) && vt->kind != TY_NUM)
    return true; /* numpy casts on store: checked or deoptimised when it runs */
  if (ct->kind == TY_BUF && ct->buf_kind != 'n') {
    const type *el = ty_elem(ct);
    if (el->kind == TY_FLOAT && (vt->kind == TY_FLOAT || vt->kind == TY_INT)) return true;
    if (el->kind == TY_INT && (vt->kind == TY_INT || vt->kind == TY_BOOL)) return true;
    if (el->kind == TY_BOOL && vt->kind == TY_BOOL) return true;
  }
  fail(c, pos, arena_printf(c->m->a, "storing a %s into a %s", ty_python_name(c->m->a, vt),
                            ty_python_name(c->m->a, ct)));
  return false;
}

/* Can this value be passed to Python code (boxed, or an object)? */
static bool passable(const type *t) { return generic_operand(t) || t->kind == TY_NONE; }

/* f(args) for an object f, or o.method(args) for an object o: through the C
 * API, an object result; arguments boxed. */
static const type *type_api_call(ctx *c, expr *e, const type **at) {
  for (int i = 0; i < e->u.call.n; i++)
    if (!passable(at[i])) {
      fail(c, e->pos, arena_printf(c->m->a, "%s() with a %s %s", e->u.call.name,
           ty_python_name(c->m->a, at[i]), i ? "argument" : "callee"));
      return &ty_conflict;
    }
  if (at[0]->kind == TY_LIST) c->in->containers = true;
  return generic_op(c);
}

/* r.append(v) or r.insert(i, v) where r = [] so far: the value's type
 * decides what the local r holds (list[T]). */
static const type *type_first_append(ctx *c, expr *e, const type **at) {
  const char *name = e->u.call.name;
  const type *vt = at[e->u.call.n - 1];
  expr *recv = e->u.call.args[0];
  if (!ops_call_is(e, OPI_APPEND) && !ops_call_is(e, OPI_INSERT)) {
    fail(c, e->pos, arena_printf(c->m->a, ".%s() of an empty list nothing appends to", name));
    return &ty_conflict;
  }
  if (recv->kind != EX_LOCAL || !list_elem_ok(vt)) {
    fail(c, e->pos, arena_printf(c->m->a, ".%s() of a %s to a new empty list", name,
                                 ty_python_name(c->m->a, vt)));
    return &ty_conflict;
  }
  target tg = {.local = recv->u.local, .pos = recv->pos};
  bind(c, &tg, ty_list(vt), e->pos);
  if (!e->u.call.own_list) c->in->effectful = true;
  return &ty_none;
}

/* list.append(v) -> None, list.pop([i]) -> the element, list.insert(i, v) ->
 * None; on an object, its method through the C API. */
static const type *type_method(ctx *c, expr *e, const type **at) {
  const type *lt = at[0];
  const char *name = e->u.call.name;
  if (method_via_api(c->in, e)) return type_api_call(c, e, at); /* its index may be any object */
  if (lt->kind == TY_LIST && lt->elts[0]->kind == TY_UNKNOWN) return type_first_append(c, e, at);
  if (lt->kind != TY_LIST || !generic_operand(lt->elts[0])) {
    fail(c, e->pos, arena_printf(c->m->a, ".%s() on a %s", name, ty_python_name(c->m->a, lt)));
    return &ty_conflict;
  }
  if (e->u.call.own_list) { /* the comprehension's list: boxed values of its element type */
    if (at[1] == lt->elts[0]) return &ty_none;
    fail(c, e->pos, arena_printf(c->m->a, "a list comprehension whose elements are both %s and %s",
         ty_python_name(c->m->a, lt->elts[0]), ty_python_name(c->m->a, at[1])));
    return &ty_conflict;
  }
  c->in->effectful = true;
  if (ops_call_is(e, OPI_APPEND)) return storable(c, e->pos, lt, at[1]) ? &ty_none : &ty_conflict;
  if (ops_call_is(e, OPI_INSERT)) {
    if (at[1]->kind != TY_INT && at[1]->kind != TY_BOOL) {
      fail(c, e->pos, "list.insert() with an index that is not an int");
      return &ty_conflict;
    }
    return storable(c, e->pos, lt, at[2]) ? &ty_none : &ty_conflict;
  }
  if (e->u.call.n == 2 && at[1]->kind != TY_INT && at[1]->kind != TY_BOOL) {
    fail(c, e->pos, "list.pop() with an index that is not an int");
    return &ty_conflict;
  }
  return lt->elts[0];
}

static bool is_np_int(const type *t) {
  return t->kind == TY_NP && t->fmt != '?' && !np_is_float(t->fmt);
}
static bool is_index(const type *t) { return t->kind == TY_INT || is_np_int(t); }

/* a[i] of a 1-D ndarray, a[i, j] of a 2-D one: a numpy scalar. (A bool
 * index is a mask in numpy, and a[i] of a 2-D array a row: not items.) */
static const type *type_nd_index(ctx *c, expr *e, const type *ot, const type *it) {
  bool ok = ot->ndim == 1 ? is_index(it)
                          : it->kind == TY_TUPLE && it->n == 2 && is_index(it->elts[0]) &&
                                is_index(it->elts[1]);
  if (!ok) {
    fail(c, e->pos, arena_printf(c->m->a, "index of type %s into a %d-D ndarray%s",
         ty_python_name(c->m->a, it), ot->ndim, ot->ndim == 2 ? " (a[i] is a row: use a[i, j])"
         : ""));
    return &ty_conflict;
  }
  c->in->containers = true;
  return ty_elem(ot);
}

/* a.shape, a.ndim, a.size of an ndarray */
static const type *type_attr(ctx *c, expr *e) {
  const type *ot = type_expr(c, e->u.sub.obj, false);
  if (ot->kind == TY_UNKNOWN) return &ty_unknown;
  if (ot->kind != TY_BUF || ot->buf_kind != 'n') {
    fail(c, e->pos, arena_printf(c->m->a, "attribute .%s of a %s", e->u.sub.attr,
                                 ty_python_name(c->m->a, ot)));
    return &ty_conflict;
  }
  if (strcmp(e->u.sub.attr, "shape")) return &ty_int;
  const type *el[2] = {&ty_int, &ty_int};
  return ty_tuple(c->m->a, ot->ndim, el);
}

/* obj[index]: an element of a list or buffer (int index), or of a tuple
 * (constant index). */
static const type *type_subscript(ctx *c, expr *e) {
  const type *ot = type_expr(c, e->u.sub.obj, false);
  const type *it = type_expr(c, e->u.sub.index, false);
  if (ot->kind == TY_UNKNOWN || it->kind == TY_UNKNOWN) return &ty_unknown;
  if (ot->kind == TY_TUPLE) {
    expr *ix = e->u.sub.index;
    bool neg = ix->kind == EX_UNARY && ix->u.un.op == UN_NEG && ix->u.un.a->kind == EX_INT;
    if (ix->kind != EX_INT && !neg) {
      fail(c, e->pos, "tuple index that is not a constant");
      return &ty_conflict;
    }
    int64_t k = neg ? -ix->u.un.a->u.i : ix->u.i;
    if (k < 0) k += ot->n;
    if (k < 0 || k >= ot->n) { fail(c, e->pos, "tuple index out of range"); return &ty_conflict; }
    return ot->elts[k];
  }
  if (ot->kind == TY_OBJ && generic_operand(it)) return generic_op(c); /* PyObject_GetItem */
  if (ot->kind == TY_LIST && it->kind == TY_OBJ) { /* PyObject_GetItem: __index__ may run */
    c->in->containers = true;
    return generic_op(c);
  }
  if (ot->kind != TY_LIST && ot->kind != TY_BUF) {
    fail(c, e->pos, arena_printf(c->m->a, "indexing a %s", ty_python_name(c->m->a, ot)));
    return &ty_conflict;
  }
  if (ot->kind == TY_BUF && ot->buf_kind == 'n') return type_nd_index(c, e, ot, it);
  if (ot->kind == TY_LIST && ot->elts[0]->kind == TY_UNKNOWN && c->strict) {
    fail(c, e->pos, "an element of an empty list nothing appends to (its type is not known)");
    return &ty_conflict;
  }
  if (it->kind != TY_INT && it->kind != TY_BOOL && !is_np_int(it)) {
    fail(c, e->pos, arena_printf(c->m->a, "index of type %s", ty_python_name(c->m->a, it)));
    return &ty_conflict;
  }
  c->in->containers = true;
  return ty_elem(ot);
}

/* Builtins compiled for a numpy scalar argument: abs (same dtype, not
 * bool_), int, float, bool, and min/max of one type. */
static bool np_builtin_ok(const op_row *op, const type *t) {
  switch (op->id) {
  case OPI_ABS: return t->fmt != '?';
  case OPI_INT: case OPI_FLOAT: case OPI_BOOL: case OPI_MIN: case OPI_MAX: return true;
  default: return false;
  }
}

static const type *type_call(ctx *c, expr *e) {
  int n = e->u.call.n;
  const type *at[64];
  if (n > 64) { fail(c, e->pos, "too many arguments"); return &ty_conflict; }
  bool unknown = false;
  bool truth_arg = e->u.call.kind == CALLEE_BUILTIN && ops_call_is(e, OPI_BOOL);
  for (int i = 0; i < n; i++) {
    at[i] = type_expr(c, e->u.call.args[i], truth_arg);
    if (at[i]->kind == TY_UNKNOWN) unknown = true;
  }
  if (e->u.call.callee_slot) c->in->slots_used[e->u.call.callee_slot->index] = true;
  if (e->u.call.callee_slot && e->u.call.callee_slot->kind == SLOT_MATH_ATTR && e->u.call.callee_slot->module_slot >= 0)
    c->in->slots_used[e->u.call.callee_slot->module_slot] = true;
  const char *name = e->u.call.name;
  if (e->u.call.kind == CALLEE_OPAQUE) {
    c->in->effectful = true;
    c->in->opaque_calls = true;
    for (int i = 0; i < n; i++)
      if (at[i]->kind != TY_UNKNOWN && (!ty_is_scalar(at[i]) || at[i]->kind == TY_NUM)) {
        fail(c, e->pos, arena_printf(c->m->a, "allow_in_graph call %s() with a %s argument",
                                     name, ty_python_name(c->m->a, at[i])));
        return &ty_conflict;
      }
    return e->u.call.ret ? e->u.call.ret : &ty_none;
  }
  if (e->u.call.kind == CALLEE_MODULE_FN) {
    func *f = e->u.call.fn; /* lowered by the IR phase, as every function of the module */
    if (f->breaks || f->not_compiled || !f->params_ok) {
      fail(c, e->pos, arena_printf(c->m->a, "calls %s(), which runs in the interpreter (%s)",
                                   f->name, f->breaks ? f->breaks->reason : f->not_compiled ?
                                   f->not_compiled : "unsupported parameters"));
      return &ty_conflict;
    }
    if (n != f->nparams) {
      fail(c, e->pos, arena_printf(c->m->a, "call passes %d arguments; %s() takes %d", n,
                                   f->name, f->nparams));
      return &ty_conflict;
    }
    if (unknown) return &ty_unknown;
    for (int i = 0; i < n; i++) {
      if (!ty_is_scalar(at[i]) && at[i]->kind != TY_TUPLE && !ty_is_container(at[i]) &&
          at[i]->kind != TY_OBJ && at[i]->kind != TY_NONE)
        return &ty_conflict;
      if (at[i]->kind == TY_LIST && at[i]->elts[0]->kind == TY_UNKNOWN) { /* f([]) */
        if (c->strict)
          fail(c, e->u.call.args[i]->pos, arena_printf(c->m->a, "an empty list passed to %s() "
               "(no specialisation for a list whose element type is not known)", f->name));
        return c->strict ? &ty_conflict : &ty_unknown;
      }
    }
    inst *callee = get_inst(c->m, f, at);
    c->in->types.callee[e->id] = callee;
    if (!callee) { fail(c, e->pos, "too many specialisations of the callee"); return &ty_conflict; }
    if (!callee->ok && !callee->typing) {
      strbuf sig = {0};
      for (int i = 0; i < n; i++) sb_printf(&sig, "%s%s", i ? ", " : "", ty_python_name(c->m->a, at[i]));
      fail(c, e->pos, arena_printf(c->m->a, "calls %s(%s), which is not compiled: %s", f->name,
                                   sig.data ? sig.data : "", callee->fail));
      sb_free(&sig);
      return &ty_conflict;
    }
    if (callee->effectful) c->in->effectful = true;
    if (callee->opaque_calls) c->in->opaque_calls = true;
    if (callee->generic) c->in->generic = true;
    if (callee->ret->kind == TY_UNKNOWN)
      return callee->typing ? &ty_unknown : &ty_none;
    if (callee->ret->kind == TY_LIST) builds_list(c, e->pos); /* a new reference */
    return callee->ret;
  }
  if (unknown) return &ty_unknown;
  if (e->u.call.kind == CALLEE_METHOD) return type_method(c, e, at);
  if (e->u.call.kind == CALLEE_VALUE) {
    if (at[0]->kind != TY_OBJ) {
      fail(c, e->pos, arena_printf(c->m->a, "calling a %s", ty_python_name(c->m->a, at[0])));
      return &ty_conflict;
    }
    return type_api_call(c, e, at);
  }
  const op_row *op = e->u.call.op;
  if (e->u.call.kind == CALLEE_BUILTIN && op && (op->id == OPI_LEN || op->id == OPI_SUM))
    return type_len_sum(c, e, at[0]);
  for (int i = 0; i < n; i++)
    if (!ty_is_scalar(at[i]) || (at[i]->kind == TY_NP && e->u.call.kind == CALLEE_BUILTIN &&
                                 op && !np_builtin_ok(op, at[i]))) {
      fail(c, e->pos, arena_printf(c->m->a, "%s() of a %s", name, ty_python_name(c->m->a, at[i])));
      return &ty_conflict;
    }
  if (e->u.call.kind == CALLEE_MATH) {
    if (!op) {
      fail(c, e->pos, arena_printf(c->m->a, "math.%s() with %d arguments", name, n));
      return &ty_conflict;
    }
    if (op->id == OPI_MATH_TO_INT && !op->helper && at[0]->kind == TY_NP && at[0]->fmt != 'd') {
      fail(c, e->pos, arena_printf(c->m->a, "math.trunc() of a %s raises TypeError (no __trunc__)",
                                   ty_python_name(c->m->a, at[0])));
      return &ty_conflict;
    }
    if (op->id == OPI_MATH_TO_INT) return &ty_int;
    if (op->result == 'i' && !op->native)
      for (int i = 0; i < n; i++)
        if (at[i]->kind == TY_FLOAT || (at[i]->kind == TY_NP && np_is_float(at[i]->fmt))) {
          fail(c, e->pos, arena_printf(c->m->a, "math.%s() of a float raises TypeError", name));
          return &ty_conflict;
        }
    return ops_result_type(op);
  }
  if (!op) {
    fail(c, e->pos, arena_printf(c->m->a, "%s() with %d arguments", name, n));
    return &ty_conflict;
  }
  /* builtins: the table's result type, or their own rule */
  if (ops_result_type(op)) return ops_result_type(op);
  switch (op->id) {
  case OPI_ABS: return at[0]->kind == TY_NP ? at[0] : num_promote(at[0]);
  case OPI_ROUND_DIGITS:
    if (at[1]->kind == TY_FLOAT) { fail(c, e->pos, "round() with a float ndigits"); return &ty_conflict; }
    return num_promote(at[0]);
  case OPI_DIVMOD: {
    const type *t = binop_type(c, e, OP_FLOORDIV, at[0], at[1]);
    const type *el[2] = {t, t};
    return ty_tuple(c->m->a, 2, el);
  }
  case OPI_MIN: case OPI_MAX: {
    const type *j = at[0];
    for (int i = 1; i < n; i++) j = ty_join(j, at[i]);
    if (j->kind == TY_NUM) return &ty_num; /* the winner's own type, known at run time */
    for (int i = 1; i < n; i++)
      if (at[i] != at[0]) {
        fail(c, e->pos, arena_printf(c->m->a, "%s() of %s and %s: the result's type depends on "
             "the values", name, ty_python_name(c->m->a, at[0]), ty_python_name(c->m->a, at[i])));
        return &ty_conflict;
      }
    return at[0];
  }
  default:
    fail(c, e->pos, arena_printf(c->m->a, "%s() with %d arguments", name, n));
    return &ty_conflict;
  }
}

/* -x, +x, ~x of a numpy scalar: its own dtype (~ of a bool_ is `not`). */
static const type *np_unary_type(ctx *c, expr *e, const type *a) {
  bool bad = e->u.un.op == UN_INVERT ? np_is_float(a->fmt) : a->fmt == '?' && e->u.un.op == UN_NEG;
  if (bad) {
    fail(c, e->pos, arena_printf(c->m->a, "unary operator on a %s", ty_python_name(c->m->a, a)));
    return &ty_conflict;
  }
  return a;
}

/* a < b < c: bool, or numpy.bool_ when numpy scalars are compared. A chain
 * mixing both gives either, by value: only its truth is compiled. */
/* x is None / x is not None: decided by x's type (folded) unless x is an
 * object, whose identity is compared when it runs. */
static const type *type_is_none(ctx *c, expr *e) {
  c->in->types.folded[e->id] = -1;
  if (e->u.cmp.n != 2) {
    fail(c, e->pos, "a comparison chain with 'is'");
    return &ty_conflict;
  }
  expr *x = e->u.cmp.operands[e->u.cmp.operands[0]->kind == EX_NONE ? 1 : 0];
  const type *t = type_expr(c, x, false);
  if (t->kind == TY_UNKNOWN) { c->in->types.folded[e->id] = -2; return &ty_unknown; } /* not yet known */
  if (t->kind != TY_OBJ) c->in->types.folded[e->id] = (t->kind == TY_NONE) == (e->u.cmp.ops[0] == CMP_IS);
  return &ty_bool;
}

static const type *type_compare(ctx *c, expr *e, bool truth) {
  for (int i = 0; i + 1 < e->u.cmp.n; i++)
    if (e->u.cmp.ops[i] == CMP_IS || e->u.cmp.ops[i] == CMP_IS_NOT) return type_is_none(c, e);
  const type *res = NULL;
  bool mixed = false;
  const type *prev = NULL;
  for (int i = 0; i < e->u.cmp.n; i++) {
    const type *a = type_expr(c, e->u.cmp.operands[i], false);
    if (a->kind == TY_UNKNOWN) return &ty_unknown;
    if (a->kind == TY_OBJ || (prev && prev->kind == TY_OBJ)) { /* PyObject_RichCompare */
      if (e->u.cmp.n > 2) {
        fail(c, e->pos, "a comparison chain with objects");
        return &ty_conflict;
      }
      if (!generic_operand(a) || !generic_operand(prev ? prev : a)) {
        fail(c, e->pos, arena_printf(c->m->a, "comparison of an object with a %s",
             ty_python_name(c->m->a, a->kind == TY_OBJ && prev ? prev : a)));
        return &ty_conflict;
      }
      if (prev) return generic_op(c);
      prev = a;
      continue;
    }
    if (!ty_is_scalar(a)) {
      fail(c, e->pos, arena_printf(c->m->a, "comparison of a %s", ty_python_name(c->m->a, a)));
      return &ty_conflict;
    }
    if (prev) {
      const type *r = &ty_bool;
      if (prev->kind == TY_NP || a->kind == TY_NP) {
        if (!np_promote(np_dtype_of(prev), np_dtype_of(a))) {
          fail(c, e->pos, "comparison of a numpy scalar with an int | float value");
          return &ty_conflict;
        }
        r = ty_np('?');
      }
      if (res && r != res) mixed = true;
      res = r;
    }
    prev = a;
  }
  if (mixed && !truth) {
    fail(c, e->pos, "a comparison chain giving bool or numpy.bool_ by value");
    return &ty_conflict;
  }
  return mixed ? &ty_bool : res;
}

int constant_truth(const inst *in, const expr *e) {
  if (e->kind == EX_BOOL) return e->u.b;
  if (e->kind == EX_NOT) {
    int k = constant_truth(in, e->u.not_arg);
    return k >= 0 ? !k : k;
  }
  if (e->kind == EX_COMPARE && e->u.cmp.n == 2 &&
      (e->u.cmp.ops[0] == CMP_IS || e->u.cmp.ops[0] == CMP_IS_NOT))
    return in->types.folded[e->id];
  return -1;
}

/* Types `e` (and records it in e->ty). `truth`: only its truth value is used. */
static const type *type_expr(ctx *c, expr *e, bool truth) {
  const type *t = &ty_unknown;
  switch (e->kind) {
  case EX_INT: t = &ty_int; break;
  case EX_FLOAT: t = &ty_float; break;
  case EX_BOOL: t = &ty_bool; break;
  case EX_NONE: t = &ty_none; break;
  case EX_LOCAL:
    if (c->in->fn->local_dynamic && c->in->fn->local_dynamic[e->u.local] &&
        c->in->fn->local_hint[e->u.local]) {
      t = c->in->local_ty[e->u.local] = c->in->fn->local_hint[e->u.local];
      break;
    }
    if (c->in->fn->local_dynamic && c->in->fn->local_dynamic[e->u.local]) {
      fail(c, e->pos, arena_printf(c->m->a, "'%s' was bound by code that runs in the "
           "interpreter; its type is not known here", c->in->fn->locals[e->u.local]));
      t = &ty_conflict;
      break;
    }
    t = c->in->local_ty[e->u.local];
    if (t->kind == TY_UNKNOWN && c->strict) {
      fail(c, e->pos, arena_printf(c->m->a, "local '%s' is read but never assigned a value",
                                   c->in->fn->locals[e->u.local]));
      t = &ty_conflict;
    }
    break;
  case EX_GLOBAL:
    c->in->slots_used[e->u.global->index] = true;
    if (e->u.global->kind == SLOT_MATH_ATTR && e->u.global->module_slot >= 0)
      c->in->slots_used[e->u.global->module_slot] = true;
    t = e->u.global->ty;
    break;
  case EX_BINOP: {
    const type *l = type_expr(c, e->u.bin.l, false), *r = type_expr(c, e->u.bin.r, false);
    if (e->u.bin.inplace && (l->kind == TY_OBJ || r->kind == TY_OBJ)) {
      fail(c, e->pos, "augmented assignment with an object"); /* __iadd__ is not __add__ */
      t = &ty_conflict;
      break;
    }
    t = binop_type(c, e, e->u.bin.op, l, r);
    break;
  }
  case EX_UNARY: {
    const type *a = type_expr(c, e->u.un.a, false);
    if (a->kind == TY_UNKNOWN) break;
    if (a->kind == TY_NP) { t = np_unary_type(c, e, a); break; }
    if (a->kind == TY_OBJ) { t = generic_op(c); break; }
    if (!ty_is_number(a) || (a->kind == TY_FLOAT && e->u.un.op == UN_INVERT)) {
      fail(c, e->pos, arena_printf(c->m->a, "unary operator on a %s", ty_python_name(c->m->a, a)));
      t = &ty_conflict;
      break;
    }
    t = e->u.un.op == UN_INVERT ? &ty_int : num_promote(a);
    break;
  }
  case EX_NOT: {
    type_expr(c, e->u.not_arg, true);
    t = &ty_bool;
    break;
  }
  case EX_COMPARE: t = type_compare(c, e, truth); break;
  case EX_BOOLOP: {
    const type *l = type_expr(c, e->u.boolop.l, truth);
    const type *r = type_expr(c, e->u.boolop.r, truth);
    if (truth) { t = &ty_bool; break; }
    if (l->kind == TY_UNKNOWN || r->kind == TY_UNKNOWN) break;
    if (l != r && ty_join(l, r)->kind == TY_NUM) { t = &ty_num; break; }
    if (l != r || !ty_is_scalar(l)) {
      fail(c, e->pos, arena_printf(c->m->a, "'%s' of %s and %s by value",
           e->u.boolop.is_and ? "and" : "or", ty_python_name(c->m->a, l), ty_python_name(c->m->a, r)));
      t = &ty_conflict;
      break;
    }
    t = l;
    break;
  }
  case EX_IFEXP: {
    type_expr(c, e->u.ifexp.cond, true);
    const type *a = type_expr(c, e->u.ifexp.then, truth);
    const type *b = type_expr(c, e->u.ifexp.orelse, truth);
    if (truth && ty_is_scalar(a) && ty_is_scalar(b)) { t = &ty_bool; break; }
    t = ty_join(a, b);
    if (t->kind == TY_OBJ) t = &ty_conflict; /* by value: kept scalar */
    if (t->kind == TY_CONFLICT)
      fail(c, e->pos, arena_printf(c->m->a, "conditional expression gives %s or %s",
                                   ty_python_name(c->m->a, a), ty_python_name(c->m->a, b)));
    break;
  }
  case EX_TUPLE: {
    const type *el[64];
    if (e->u.tuple.n > 64) { fail(c, e->pos, "tuple too long"); t = &ty_conflict; break; }
    bool unknown = false;
    for (int i = 0; i < e->u.tuple.n; i++) {
      el[i] = type_expr(c, e->u.tuple.elts[i], false);
      if (el[i]->kind == TY_UNKNOWN) unknown = true;
      if (el[i]->kind == TY_CONFLICT || el[i]->kind == TY_NONE) {
        fail(c, e->pos, "tuple element of an unsupported type");
        unknown = true;
      }
    }
    t = unknown ? &ty_unknown : ty_tuple(c->m->a, e->u.tuple.n, el);
    break;
  }
  case EX_CALL: t = type_call(c, e); break;
  case EX_SUBSCRIPT: t = type_subscript(c, e); break;
  case EX_ATTR: t = type_attr(c, e); break;
  case EX_LIST: t = type_list_display(c, e); break;
  case EX_LISTCOMP: t = type_list_comprehension(c, e); break;
  case EX_SLICE: t = type_slice(c, e); break;
  }
  if (ty_is_container(t)) c->in->containers = true;
  if (t->kind == TY_OBJ && c->in->fn->partial) /* region kernels take and give numbers */
    fail(c, e->pos, "an object in a function with graph breaks (its compiled regions pass "
         "numbers, lists and buffers only)");
  if (t->kind == TY_TUPLE && ty_holds_object(t) && e != c->unpacked) {
    fail(c, e->pos, "a tuple holding objects");
    t = &ty_conflict;
  }
  if (truth && t->kind == TY_TUPLE) fail(c, e->pos, "truth value of a tuple");
  if (truth && t->kind == TY_BUF && t->buf_kind == 'n')
    fail(c, e->pos, "truth value of an ndarray (numpy raises for more than one element)");
  if (e->guard) c->in->slots_used[e->guard->index] = true;
  c->in->types.ty[e->id] = t;
  return t;
}

static void bind(ctx *c, target *tg, const type *t, srcpos pos) {
  if (tg->sub) { /* obj[index] = value: an element store */
    const type *et = type_expr(c, tg->sub, false);
    const type *ct = TY(tg->sub->u.sub.obj);
    if (et->kind == TY_UNKNOWN || t->kind == TY_UNKNOWN) return;
    if (ct->kind == TY_TUPLE) { fail(c, pos, "tuples do not support item assignment"); return; }
    if (ct->kind == TY_OBJ || TY(tg->sub->u.sub.index)->kind == TY_OBJ) {
      fail(c, pos, "an element store into an object or with an object index");
      return;
    }
    c->in->effectful = true;
    storable(c, pos, ct, t);
    return;
  }
  if (t->kind == TY_UNKNOWN) return;
  if (!tg->is_tuple) {
    const type *old = c->in->local_ty[tg->local];
    if (tg->local < c->in->fn->nparams && old != t && !(old->kind == TY_OBJ && generic_operand(t))) {
      fail(c, pos, arena_printf(c->m->a, "parameter '%s' (%s) is assigned a %s",
           c->in->fn->locals[tg->local], ty_python_name(c->m->a, old), ty_python_name(c->m->a, t)));
      return;
    }
    const type *j = ty_join(old, t);
    if (j->kind == TY_CONFLICT) {
      bool np = (old->kind == TY_NP) != (t->kind == TY_NP);
      fail(c, pos, arena_printf(c->m->a, "local '%s' holds both %s and %s%s",
           c->in->fn->locals[tg->local], ty_python_name(c->m->a, old), ty_python_name(c->m->a, t),
           np ? " (CPython's type changes as it runs: convert with float() or int(), or start "
                "from a numpy value)" : ""));
      return;
    }
    if (t->kind == TY_NONE && j->kind != TY_OBJ && j->kind != TY_NONE) {
      fail(c, pos, "assignment of None");
      return;
    }
    if (j != old) { c->in->local_ty[tg->local] = j; c->in->pass_changed = 1; }
    return;
  }
  if (t->kind == TY_LIST) { /* its length is checked when it runs */
    for (int i = 0; i < tg->n; i++) bind(c, tg->elts[i], t->elts[0], tg->elts[i]->pos);
    return;
  }
  if (t->kind != TY_TUPLE || t->n != tg->n) {
    fail(c, pos, arena_printf(c->m->a, "cannot unpack a %s into %d names",
                              ty_python_name(c->m->a, t), tg->n));
    return;
  }
  for (int i = 0; i < tg->n; i++) bind(c, tg->elts[i], t->elts[i], tg->elts[i]->pos);
}

static void type_block(ctx *c, stmt *s);

static void ret_join(ctx *c, const type *t, srcpos pos) {
  inst *in = c->in;
  if (t->kind == TY_NONE) { in->ret_may_be_none = true; return; }
  if (t->kind == TY_UNKNOWN) return;
  const type *j = ty_join(in->ret, t);
  if (j->kind == TY_CONFLICT) {
    fail(c, pos, arena_printf(c->m->a, "returns both %s and %s", ty_python_name(c->m->a, in->ret),
                              ty_python_name(c->m->a, t)));
    return;
  }
  if (j != in->ret) { in->ret = j; in->pass_changed = 1; }
}

static void type_cond(ctx *c, expr *e) {
  type_expr(c, e, true);
}

/* for target in c / enumerate(c) / zip(c1, ...) / reversed(c): lists and
 * buffers; the target gets an element, (index, element) or a tuple of
 * elements. */
static void type_for_iter(ctx *c, stmt *s) {
  const type *el[8];
  bool unknown = false;
  int n = s->u.for_.niters;
  for (int i = 0; i < n; i++) {
    const type *t = type_expr(c, s->u.for_.iters[i], false);
    if (t->kind == TY_UNKNOWN) { unknown = true; continue; }
    if ((t->kind != TY_LIST && t->kind != TY_BUF) || (t->kind == TY_BUF && t->ndim == 2)) {
      fail(c, s->u.for_.iters[i]->pos, arena_printf(c->m->a, "for loop over a %s%s",
           ty_python_name(c->m->a, t), t->kind == TY_BUF ? " (its items are rows)" : ""));
      return;
    }
    el[i] = ty_elem(t);
    if (el[i]->kind == TY_OBJ && s->u.for_.how != 'i' && s->u.for_.how != 'r') {
      fail(c, s->u.for_.iters[i]->pos, "enumerate() or zip() of a list of objects");
      return;
    }
  }
  if (s->u.for_.start) {
    const type *st = type_expr(c, s->u.for_.start, false);
    if (st->kind != TY_INT && st->kind != TY_UNKNOWN) {
      fail(c, s->u.for_.start->pos, "enumerate() start that is not an int");
      return;
    }
  }
  if (!unknown) {
    const type *t = el[0];
    if (s->u.for_.how == 'z') t = ty_tuple(c->m->a, n, el);
    if (s->u.for_.how == 'e') {
      const type *pair[2] = {&ty_int, el[0]};
      t = ty_tuple(c->m->a, 2, pair);
    }
    bind(c, s->u.for_.tgt, t, s->pos);
  }
  type_block(c, s->u.for_.body);
  type_block(c, s->u.for_.orelse);
}

static void type_stmt(ctx *c, stmt *s) {
  switch (s->kind) {
  case ST_ASSIGN: {
    expr *v = s->u.assign.value;
    bool unpack = v->kind == EX_TUPLE;
    for (int i = 0; i < s->u.assign.ntargets; i++)
      if (!s->u.assign.targets[i]->is_tuple || s->u.assign.targets[i]->n != v->u.tuple.n) unpack = false;
    c->unpacked = unpack ? v : NULL;
    const type *t = type_expr(c, v, false);
    c->unpacked = NULL;
    for (int i = 0; i < s->u.assign.ntargets; i++) bind(c, s->u.assign.targets[i], t, s->pos);
    break;
  }
  case ST_AUGASSIGN: {
    if (s->u.aug.sub) { /* obj[index] op= value */
      const type *l = type_expr(c, s->u.aug.sub, false);
      const type *r = type_expr(c, s->u.aug.value, false);
      if (l->kind == TY_UNKNOWN || r->kind == TY_UNKNOWN) break;
      if (l->kind == TY_OBJ || r->kind == TY_OBJ || l->kind == TY_LIST) {
        fail(c, s->pos, l->kind == TY_LIST ? "augmented assignment to a list element (it changes "
             "the list in place)" : "augmented assignment with an object");
        break;
      }
      expr fake = {.pos = s->pos};
      const type *res = binop_type(c, &fake, s->u.aug.op, l, r);
      if (TY(s->u.aug.sub->u.sub.obj)->kind == TY_TUPLE) {
        fail(c, s->pos, "tuples do not support item assignment");
        break;
      }
      c->in->effectful = true;
      if (res->kind != TY_CONFLICT) storable(c, s->pos, TY(s->u.aug.sub->u.sub.obj), res);
      break;
    }
    const type *l = c->in->local_ty[s->u.aug.local];
    const type *r = type_expr(c, s->u.aug.value, false);
    if (l->kind == TY_LIST) { /* list.__iadd__ extends the list itself: every alias sees it */
      fail(c, s->pos, arena_printf(c->m->a, "augmented assignment '%s=' to a list (it changes the "
                                   "list in place)", binop_spelling[s->u.aug.op]));
      break;
    }
    if (l->kind == TY_OBJ || r->kind == TY_OBJ) { /* in-place operators are not compiled */
      fail(c, s->pos, "augmented assignment with an object");
      break;
    }
    if (l->kind == TY_UNKNOWN) {
      if (c->strict) fail(c, s->pos, arena_printf(c->m->a, "local '%s' is read before any "
                          "assignment", c->in->fn->locals[s->u.aug.local]));
      break;
    }
    expr fake = {.pos = s->pos};
    const type *res = binop_type(c, &fake, s->u.aug.op, l, r);
    target tg = {.local = s->u.aug.local};
    bind(c, &tg, res, s->pos);
    break;
  }
  case ST_RETURN:
    ret_join(c, s->u.ret ? type_expr(c, s->u.ret, false) : &ty_none, s->pos);
    break;
  case ST_IF: { /* a branch `x is None` rules out for this instance is not typed */
    type_cond(c, s->u.if_.cond);
    int k = constant_truth(c->in, s->u.if_.cond);
    if (k != 0 && k != -2) type_block(c, s->u.if_.then);
    if (k != 1 && k != -2) type_block(c, s->u.if_.orelse);
    break;
  }
  case ST_WHILE:
    type_cond(c, s->u.while_.cond);
    type_block(c, s->u.while_.body);
    type_block(c, s->u.while_.orelse);
    break;
  case ST_FOR_RANGE: {
    expr *parts[3] = {s->u.for_.start, s->u.for_.stop, s->u.for_.step};
    for (int i = 0; i < 3; i++) {
      if (!parts[i]) continue;
      const type *t = type_expr(c, parts[i], false);
      if (t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_UNKNOWN && t->kind != TY_NUM &&
          !is_np_int(t))
        fail(c, parts[i]->pos, arena_printf(c->m->a, "range() of a %s raises TypeError",
                                            ty_python_name(c->m->a, t)));
    }
    bind(c, s->u.for_.tgt, &ty_int, s->pos);
    type_block(c, s->u.for_.body);
    type_block(c, s->u.for_.orelse);
    break;
  }
  case ST_FOR_ITER: type_for_iter(c, s); break;
  case ST_EXPR: type_expr(c, s->u.expr, false); break;
  case ST_RAISE: {
    c->in->slots_used[s->u.raise_.guard->index] = true;
    const type *t = s->u.raise_.arg ? type_expr(c, s->u.raise_.arg, false) : &ty_none;
    if (t->kind == TY_TUPLE || t->kind == TY_BUF || t->kind == TY_NP)
      fail(c, s->pos, arena_printf(c->m->a, "raise with a %s argument", ty_python_name(c->m->a, t)));
    break;
  }
  case ST_BREAK: case ST_CONTINUE: case ST_PASS: case ST_INTERP: break;
  }
}

static bool falls_through(const inst *in, stmt *s);

bool ends_flow(const inst *in, const stmt *s) {
  if (s->kind == ST_RETURN || s->kind == ST_RAISE) return true;
  if (s->kind != ST_IF) return false; /* loops included: a break may leave them */
  int k = constant_truth(in, s->u.if_.cond);
  if (k == 1) return !falls_through(in, s->u.if_.then);
  if (k == 0) return !falls_through(in, s->u.if_.orelse);
  return s->u.if_.orelse && !falls_through(in, s->u.if_.then) && !falls_through(in, s->u.if_.orelse);
}

/* Statements after one that ends the flow (`if key is None: return ...`
 * when key is None) are not typed: their types may not fit this instance. */
static void type_block(ctx *c, stmt *s) {
  for (; s; s = s->next) {
    type_stmt(c, s);
    if (ends_flow(c->in, s)) break;
  }
}

/* Can control reach the end of this block? (conservative: may say yes) */
static bool falls_through(const inst *in, stmt *s) {
  for (; s; s = s->next) if (ends_flow(in, s)) return false;
  return true;
}

/* The function body; for partial functions with the index of each top-level
 * statement, so a failure sends just that statement to the interpreter. */
static void type_split_block(ctx *c, stmt *b) {
  for (stmt *s = b; s; s = s->next) {
    c->top = s->split_id;
    type_stmt(c, s);
    for (int i = 0; i < s->nblocks; i++) type_split_block(c, s->blocks[i]);
  }
}

static void type_body(ctx *c) {
  if (!c->in->fn->partial) { type_block(c, c->in->fn->body); return; }
  type_split_block(c, c->in->fn->body);
  c->top = -1;
}

/* A list or tuple whose elements are lists: the inner ones are borrowed. */
static bool holds_nested_container(const type *t) {
  if (t->kind != TY_LIST && t->kind != TY_TUPLE) return false;
  for (int i = 0; i < t->n; i++)
    if (t->elts[i]->kind == TY_LIST || holds_nested_container(t->elts[i])) return true;
  return false;
}

static void type_inst(module *m, inst *in) {
  ctx c = {m, in, false, -1, NULL};
  in->typing = true;
  int ntop = in->fn->nsplit;
  in->ntop = ntop;
  in->top_fail = arena_alloc(m->a, sizeof(char *) * (size_t)(ntop + 1));
  for (int pass = 0; pass < 20; pass++) {
    in->pass_changed = 0;
    type_body(&c);
    if (!in->pass_changed) break;
  }
  c.strict = true;
  type_body(&c);
  if (falls_through(in, in->fn->body)) in->ret_may_be_none = true;
  for (int i = 0; i < in->fn->nlocals; i++) {
    if (in->local_ty[i]->kind == TY_CONFLICT) fail(&c, in->fn->pos, "a local has no single type");
    if (ty_is_container(in->local_ty[i])) in->containers = true;
  }
  if (in->builds_lists) { /* a tuple value borrows its lists: a rebinding could free them */
    for (int i = 0; i < in->fn->nlocals; i++)
      if (in->local_ty[i]->kind == TY_TUPLE && holds_nested_container(in->local_ty[i]))
        fail(&c, in->fn->pos, arena_printf(m->a, "local '%s' holds a %s in a function that builds "
             "new lists (unpack the tuple instead)", in->fn->locals[i],
             ty_python_name(m->a, in->local_ty[i])));
    if (in->ret->kind == TY_TUPLE && holds_nested_container(in->ret))
      in->ret = &ty_obj; /* boxed by the kernel, whose references to the lists end with it */
  }
  if (in->containers && in->opaque_calls) /* the callee could free what the kernel borrows */
    fail(&c, in->fn->pos, "allow_in_graph calls in a function that holds lists or buffers");
  if (in->generic) { /* Python code may run: it must not free a list the kernel borrows */
    in->effectful = true;
    for (int i = 0; i < in->fn->nlocals; i++)
      if (holds_nested_container(in->local_ty[i]))
        fail(&c, in->fn->pos, arena_printf(m->a, "operations on objects (which may run Python "
             "code) in a function that holds the %s '%s' (its inner lists are borrowed)",
             ty_python_name(m->a, in->local_ty[i]), in->fn->locals[i]));
  }
  in->typing = false;
}

static const char *inst_cname(module *m, func *f, const type **args) {
  strbuf b = {0};
  sb_printf(&b, "%s__", f->name);
  for (int i = 0; i < f->nparams; i++) sb_puts(&b, args[i]->code);
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

static inst *get_inst(module *m, func *f, const type **args) {
  int count = 0;
  for (inst *in = m->insts; in; in = in->next_all) {
    if (in->fn != f) continue;
    count++;
    bool same = true;
    for (int i = 0; i < f->nparams; i++) if (in->args[i] != args[i]) same = false;
    if (same) return in;
  }
  if (count >= 16) return NULL;
  inst *in = arena_alloc(m->a, sizeof *in);
  in->fn = f;
  in->args = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
  memcpy(in->args, args, sizeof(type *) * (size_t)f->nparams);
  in->local_ty = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < f->nlocals; i++) in->local_ty[i] = i < f->nparams ? args[i] : &ty_unknown;
  in->types.ty = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nexprs + 1));
  for (int i = 0; i < f->nexprs; i++) in->types.ty[i] = &ty_unknown;
  in->types.folded = arena_alloc(m->a, (size_t)(f->nexprs + 1));
  in->types.callee = arena_alloc(m->a, sizeof(inst *) * (size_t)(f->nexprs + 1));
  in->ret = &ty_unknown;
  in->ok = true;
  in->cname = inst_cname(m, f, args);
  in->slots_used = arena_alloc(m->a, sizeof(bool) * (size_t)(m->nslots + 1));
  inst **tail = &m->insts;
  while (*tail) tail = &(*tail)->next_all;
  *tail = in;
  type_inst(m, in);
  return in;
}

/* Instances referenced by calls inside `s`, for the transitive slot set. */
typedef struct callees { inst *in, **out; int *n, cap; } callees;
static void collect_callees_expr(inst *in, expr *e, inst **out, int *n, int cap);
static void collect_callees_block(inst *in, stmt *s, inst **out, int *n, int cap);
static void collect_callees_sub(void *ctx, expr *e) {
  callees *C = ctx;
  collect_callees_expr(C->in, e, C->out, C->n, C->cap);
}
static void collect_callees_target(void *ctx, target *t) {
  if (t->sub) collect_callees_sub(ctx, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) collect_callees_target(ctx, t->elts[i]);
}
static void collect_callees_part_block(void *ctx, stmt *b) {
  callees *C = ctx;
  collect_callees_block(C->in, b, C->out, C->n, C->cap);
}
static void collect_callees_block(inst *in, stmt *s, inst **out, int *n, int cap) {
  static const ir_parts parts = {collect_callees_sub, collect_callees_target, collect_callees_part_block, true};
  callees C = {in, out, n, cap};
  for (; s; s = s->next) ir_each_part(s, &parts, &C);
}
static void collect_callees_expr(inst *in, expr *e, inst **out, int *n, int cap) {
  callees C = {in, out, n, cap};
  ir_each_subexpr(e, collect_callees_sub, &C);
  if (e->kind == EX_LISTCOMP) collect_callees_block(in, e->u.comp.loop, out, n, cap);
  inst *callee = e->kind == EX_CALL ? in->types.callee[e->id] : NULL;
  if (callee) {
    for (int i = 0; i < *n; i++) if (out[i] == callee) return;
    if (*n < cap) out[(*n)++] = callee;
  }
}

/* The final typing of a compiled instance, once every instance's verdict
 * is known: its side tables (in->types) as every later phase reads them.
 * Only the tables change; the verdict stands. */
static void retype_final(module *m, inst *in) {
  ctx c = {m, in, true, -1, NULL};
  bool ok = in->ok;
  const char *f = in->fail;
  const char **saved = in->top_fail;
  in->top_fail = arena_alloc(m->a, sizeof(char *) * (size_t)(in->ntop + 1));
  type_body(&c);
  in->top_fail = saved;
  in->ok = ok;
  in->fail = f;
}

bool takes_objects(const inst *in) {
  for (int i = 0; i < in->fn->nparams; i++) if (ty_holds_object(in->args[i])) return true;
  return false;
}

bool method_via_api(const inst *in, const expr *e) {
  const expr *const *a = (const expr *const *)e->u.call.args;
  return ty_of(in, a[0])->kind == TY_OBJ ||
         (ty_of(in, a[0])->kind == TY_LIST && e->u.call.n >= 2 && ty_of(in, a[1])->kind == TY_OBJ &&
          !ops_call_is(e, OPI_APPEND));
}

/* A root specialisation that takes an object takes its int arguments as
 * objects too. Python code may run in it (a __lt__, __len__, a key
 * function), after which the kernel cannot deoptimise; int64 arithmetic on
 * its arguments (bisect's (lo + hi) // 2 near sys.maxsize) could overflow,
 * and Python ints do not. */
static const type **object_ints(module *m, func *f, const type **args) {
  bool any = false; /* an argument that is an object itself (a list of them: heapq's code
                       indexes it with ints, which stay int64) */
  for (int i = 0; i < f->nparams; i++) if (args[i]->kind == TY_OBJ) any = true;
  if (!any || f->partial) return args; /* regions around graph breaks take no objects */
  const type **w = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
  for (int i = 0; i < f->nparams; i++) w[i] = args[i]->kind == TY_INT ? &ty_obj : args[i];
  return w;
}

/* t with the elements of its lists, and its tuples, held as objects
 * (list[tuple[int, int]] -> list[object], tuple[...] -> object); numbers stay. */
static const type *widen(const type *t) {
  if (t->kind == TY_TUPLE) return &ty_obj;
  if (t->kind == TY_LIST && !ty_is_scalar(t->elts[0])) return ty_list(&ty_obj);
  return t;
}

/* A specialisation that did not compile, typed again with its containers'
 * elements as objects (code that only compares and moves elements, like
 * heapq's, then compiles for any element type); the original one when that
 * changes nothing or does not compile either. */
static inst *widened_inst(module *m, func *f, inst *in) {
  inst *wi = in;
  for (int level = 0; level < 2 && !wi->ok; level++) { /* then the other parameters too */
    const type **w = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
    bool changed = false;
    for (int i = 0; i < f->nparams; i++) {
      const type *t = in->args[i]; /* level 1: numbers and tuples too; buffers stay */
      w[i] = level == 0 || t->kind == TY_LIST || t->kind == TY_BUF ? widen(t) : &ty_obj;
    }
    w = object_ints(m, f, w);
    for (int i = 0; i < f->nparams; i++) if (w[i] != in->args[i]) changed = true;
    inst *next = changed ? get_inst(m, f, w) : NULL;
    if (next) wi = next;
  }
  return wi->ok ? wi : in;
}

/* Does `b` accept every call `a` does (the same type, or object where `a`
 * has another)? */
static bool subsumes(const inst *b, const inst *a) {
  for (int i = 0; i < a->fn->nparams; i++)
    if (b->args[i] != a->args[i] && (b->args[i]->kind != TY_OBJ || a->args[i]->kind == TY_BUF))
      return false;
  return true;
}

/* Root instances taking objects that another one taking objects accepts
 * every call of are dropped: they would only be slightly faster (a list
 * read directly, `x is None` folded) and the cache holds few entries
 * (cache_size_limit). Typed ones stay, ahead of them. */
static void drop_subsumed(func *f) {
  for (inst **p = &f->insts; *p;) {
    inst *a = *p;
    bool dropped = false;
    for (inst *b = f->insts; b && a->ok && takes_objects(a) && !dropped; b = b->next_root)
      dropped = b != a && b->ok && takes_objects(b) && subsumes(b, a);
    if (dropped) *p = a->next_root;
    else p = &a->next_root;
  }
}

void infer_module(module *m) {
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    /* Non-roots with declared types compile too: a root may reach them at
     * run time through interpreted code (disable(recursive=False), a graph
     * break), and their kernels dispatch only inside a root's call. */
    if (!f->is_root && (!f->specs || f->disabled)) continue;
    if (f->breaks && !f->partial && !f->not_compiled)
      f->not_compiled = arena_printf(m->a, "graph break at line %d: %s", f->breaks->pos.line,
                                     f->breaks->reason);
    if (f->not_compiled) continue;
    if (!f->specs) {
      f->not_compiled = "no specialisation: annotate the parameters (int, float, bool), give "
                        "signatures=[...], or record a profile with 'python3 -m dynac record'";
      continue;
    }
    /* typed specialisations first: the cache checks entries in order, and
     * one taking objects accepts any argument */
    for (int objects = 0; objects < 2; objects++)
      for (spec *s = f->specs; s; s = s->next) {
        const type **oargs = object_ints(m, f, s->args);
        inst *in = get_inst(m, f, oargs);
        if (in && !in->ok) in = widened_inst(m, f, in);
        if (in && !in->ok && oargs != s->args) { /* ints as objects do not compile (range(n)): */
          inst *typed = get_inst(m, f, s->args);  /* they stay the int64 ints they were declared */
          if (typed && typed->ok) in = typed;
        }
        if (!in || takes_objects(in) != objects) continue;
        bool listed = false;
        inst **tail = &f->insts;
        for (; *tail; tail = &(*tail)->next_root) if (*tail == in) listed = true;
        if (listed) continue;
        in->origin = s->origin;
        *tail = in;
      }
    drop_subsumed(f);
  }
  /* Transitive slot sets and callee lists (fixpoint over the call graph). */
  for (inst *in = m->insts; in; in = in->next_all) {
    if (!in->ok) continue;
    retype_final(m, in);
    inst *buf[256];
    int n = 0;
    collect_callees_block(in, in->fn->body, buf, &n, 256);
    in->callees = arena_alloc(m->a, sizeof(inst *) * (size_t)(n ? n : 1));
    memcpy(in->callees, buf, sizeof(inst *) * (size_t)n);
    in->ncallees = n;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (inst *in = m->insts; in; in = in->next_all) {
      if (!in->ok) continue;
      for (int k = 0; k < in->ncallees; k++) {
        inst *cal = in->callees[k];
        if (!cal->ok && in->ok) {
          in->ok = false;
          in->fail = arena_printf(m->a, "calls %s(), which is not compiled: %s", cal->fn->name,
                                  cal->fail);
          changed = true;
        }
        for (int s = 0; s < m->nslots; s++)
          if (cal->slots_used[s] && !in->slots_used[s]) { in->slots_used[s] = true; changed = true; }
      }
    }
  }
}
