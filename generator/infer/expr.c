/* expr.c: phase 5 (this folder), types per specialisation: the type of
 * each expression, with the failure (a reason and a position) where the
 * kernel language has none; numpy scalar promotion, new lists, calls by
 * the operation table.
 */
#include "infer.h"

#include <string.h>

void type_fail(ctx *c, srcpos pos, const char *msg) {
  if (c->in->fn->partial && c->top >= 0) { /* that statement runs in the interpreter */
    if (!c->in->top_fail[c->top]) c->in->top_fail[c->top] = msg;
    return;
  }
  if (!c->in->fail) { c->in->fail = msg; c->in->fail_pos = pos; }
  c->in->ok = false;
}

static const type *num_promote(const type *t) { return t->kind == TY_BOOL ? &ty_int : t; }

/* Result type of l OP r for number operands (CPython's numeric tower). */
const type *binop_result(binop op, const type *l, const type *r) {
  if (l->kind == TY_NP || r->kind == TY_NP) { /* numpy's result dtype */
    if (ty_may_be_np(l) || ty_may_be_np(r)) { /* with a numpy.float64: float64, whatever the other is; */
      char f = (l->kind == TY_NP ? l : r)->fmt; /* with a numpy.int64: int64 or float64, by the number */
      return op > OP_POW ? &ty_conflict : f == 'd' ? ty_np('d') : f == 'l' ? &ty_num_np : &ty_conflict;
    }
    char res = np_promote(np_dtype_of(l), np_dtype_of(r));
    if (!res) return &ty_conflict;
    return ty_np(op == OP_TRUEDIV && !np_is_float(res) ? 'd' : res);
  }
  if (op == OP_MATMUL) return &ty_conflict; /* numbers have no @ (TypeError) */
  bool bitwise = op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR;
  if (bitwise && l->kind == TY_BOOL && r->kind == TY_BOOL) return &ty_bool;
  l = num_promote(l);
  r = num_promote(r);
  if (bitwise || op == OP_LSHIFT || op == OP_RSHIFT) /* ints only; a num is checked at run time */
    return l->kind == TY_FLOAT || r->kind == TY_FLOAT || ty_may_be_np(l) || ty_may_be_np(r) ? &ty_conflict
                                                                                      : &ty_int;
  if (ty_may_be_np(l) || ty_may_be_np(r)) return &ty_num_np; /* a numpy.float64 stays one */
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
  if (ty_may_be_np(l) || ty_may_be_np(r)) {
    const type *t = binop_result(op, l, r);
    if (t->kind == TY_CONFLICT)
      type_fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on %s and %s (numpy's result type "
                "depends on which the number is at run time)", binop_spelling[op],
                ty_python_name(c->m->a, l), ty_python_name(c->m->a, r)));
    return t;
  }
  char a = np_dtype_of(l), b = np_dtype_of(r);
  char res = np_promote(a, b);
  const char *why = NULL;
  bool bitwise = op >= OP_LSHIFT;
  if (op == OP_MATMUL) why = "@ of numbers (TypeError)";
  else if (!a || !b || !res) why = "a numpy scalar with an int | float value";
  else if (res == '?') why = "arithmetic on two bools (numpy's bool_ rules)";
  else if (bitwise && np_is_float(res)) why = "a bit operation on a numpy float (TypeError)";
  else if (res == 'f' && (op == OP_FLOORDIV || op == OP_MOD || op == OP_POW))
    why = "//, % and ** on numpy.float32";
  if (why) {
    type_fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on %s and %s: %s", binop_spelling[op],
                                 ty_python_name(c->m->a, l), ty_python_name(c->m->a, r), why));
    return &ty_conflict;
  }
  return binop_result(op, l, r);
}

/* A tuple value boxed into a tuple object where the C API takes it: one of
 * numbers, None and objects (a tuple holding a list borrows it). */
static bool boxed_tuple(const type *t) {
  if (t->kind != TY_TUPLE) return false;
  for (int i = 0; i < t->n; i++) {
    const type *x = t->elts[i];
    if (!(ty_is_scalar(x) || x->kind == TY_OBJ || x->kind == TY_NONE || boxed_tuple(x))) return false;
  }
  return true;
}

/* A value the C API operates on: an object, a list, or a Python number,
 * numpy scalar or tuple boxed for an operation with one. */
bool generic_operand(const type *t) {
  return t->kind == TY_OBJ || ty_is_scalar(t) || t->kind == TY_LIST || boxed_tuple(t) || ty_is_ndarray(t);
}

/* Is x a read of a "float | None" or "int | None" local that narrow.c
 * could not prove not None, an operand of arithmetic or of a comparison? Then
 * the specialisation fails: the generic operation on the boxed number
 * would be slower than the interpreter's (None there raises TypeError
 * anyway, so such code keeps None out by a test narrow.c does not follow). */
static bool maybe_none_operand(ctx *c, expr *e, const expr *x) {
  if (x->kind != EX_LOCAL || !c->in->local_ty[x->u.local]->num_or_none || c->in->fn->not_none_numbers[x->id])
    return false;
  type_fail(c, e->pos, arena_printf(c->m->a, "'%s' (%s) may be None here: an operand only after a test "
                                    "`%s is not None` (or `if %s is None: return ...`)",
                                    c->in->fn->locals[x->u.local],
                                    ty_python_name(c->m->a, c->in->local_ty[x->u.local]),
                                    c->in->fn->locals[x->u.local], c->in->fn->locals[x->u.local]));
  return true;
}

/* An operation through the C API: Python code may run (an effect). */
const type *generic_op(ctx *c) {
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
    type_fail(c, pos, "a new list in a function with graph breaks");
  c->in->builds_lists = true;
}

/* May a new list hold values of type t (boxed as they go in)? Numbers
 * (int | float too: each element is boxed as what it is), bools, objects,
 * lists, and tuples of those without lists. */
static bool list_elem_ok(const type *t) {
  if (ty_is_scalar(t) || t->kind == TY_OBJ) return true; /* int | float too (sum of floats), numpy scalars */
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
    if ((t->kind == TY_LIST && c->in->nested_as_objects) || t->kind == TY_NONE)
      t = &ty_obj; /* held as an object; None boxed as itself */
    if (!list_elem_ok(t)) {
      type_fail(c, e->u.tuple.elts[i]->pos, arena_printf(c->m->a, "a list display holding a %s",
           ty_python_name(c->m->a, t)));
      return &ty_conflict;
    }
    if (el->kind != TY_UNKNOWN && el != t) /* each element boxed as what it is */
      t = ty_join(el, t)->kind == TY_NUM ? ty_join(el, t) : &ty_obj;
    el = t;
  }
  builds_list(c, e->pos);
  return unknown ? &ty_unknown : ty_list(el);
}

/* [elt for ... in ... if ...]: its clauses are typed as the loops they are
 * (binding the comprehension's own names); its appends decide the type. */
/* any(genexpr) / all(genexpr): a loop that stops at the first item whose
 * truth decides (bool). */
static const type *type_any_all(ctx *c, expr *e) {
  int r = e->u.comp.result;
  if (c->in->local_ty[r]->kind == TY_UNKNOWN) {
    c->in->local_ty[r] = &ty_bool;
    c->in->pass_changed = 1;
  }
  if (e->guard) use_named_slot(c, e->guard->index);
  type_block(c, e->u.comp.loop);
  return &ty_bool;
}

static const type *type_list_comprehension(ctx *c, expr *e) {
  if (e->u.comp.consumer == 'a' || e->u.comp.consumer == 'A') return type_any_all(c, e);
  int r = e->u.comp.result;
  if (e->u.comp.kind != 'l') { /* a set or dict: an object, its inserts through the C API */
    c->in->local_ty[r] = &ty_obj;
    type_block(c, e->u.comp.loop);
    return generic_op(c);
  }
  builds_list(c, e->pos);
  if (c->in->local_ty[r]->kind == TY_UNKNOWN) {
    c->in->local_ty[r] = ty_list(&ty_unknown);
    c->in->pass_changed = 1;
  }
  type_block(c, e->u.comp.loop);
  const type *t = c->in->local_ty[r];
  if (c->strict && t->kind == TY_LIST && t->elts[0]->kind == TY_UNKNOWN) {
    type_fail(c, e->pos, "a list comprehension whose elements have no known type");
    return &ty_conflict;
  }
  if (e->u.comp.consumer == 'n' && t->kind == TY_LIST && t->elts[0]->kind != TY_UNKNOWN &&
      !ty_is_number(t->elts[0])) /* folded item by item: + and < may run Python code */
    c->in->effectful = true;
  return t;
}

/* obj[lo:hi:step] of a list: a new list of the same type, the bounds ints,
 * bools or None (omitted). Of an object, or with an object bound: the slice
 * object built and the item got through the C API (BUILD_SLICE then
 * BINARY_SUBSCR), an object. */
static bool passable(const type *t);
static bool boxable(const type *t);

/* Types obj and the bounds of obj[lo:hi:step]; false (after type_fail) for a
 * bound that is not an int, a bool, None or an object. *generic: obj or a
 * bound is an object; *unknown: some type is not known yet. */
static bool type_slice_parts(ctx *c, expr *e, bool *generic, bool *unknown) {
  const type *ot = type_expr(c, e->u.slice.obj, false);
  expr *parts[3] = {e->u.slice.lo, e->u.slice.hi, e->u.slice.step};
  *unknown = ot->kind == TY_UNKNOWN;
  *generic = ot->kind == TY_OBJ;
  for (int i = 0; i < 3; i++) {
    if (!parts[i]) continue;
    const type *t = type_expr(c, parts[i], false);
    if (t->kind == TY_UNKNOWN) *unknown = true;
    else if (t->kind == TY_OBJ) *generic = true;
    else if (t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_NONE) {
      type_fail(c, parts[i]->pos, arena_printf(c->m->a, "slice bound of type %s",
                                          ty_python_name(c->m->a, t)));
      return false;
    }
  }
  return true;
}

static const type *type_slice(ctx *c, expr *e) {
  bool generic, unknown;
  if (!e->u.slice.obj) { /* lo:hi:step in a[lo:hi, j]: a slice object (BUILD_SLICE runs no code) */
    expr *parts[3] = {e->u.slice.lo, e->u.slice.hi, e->u.slice.step};
    for (int i = 0; i < 3; i++) {
      const type *t = parts[i] ? type_expr(c, parts[i], false) : &ty_none;
      if (t->kind == TY_UNKNOWN) return &ty_unknown;
      if (!passable(t) && t->kind != TY_NP) {
        type_fail(c, parts[i]->pos, arena_printf(c->m->a, "slice bound of type %s", ty_python_name(c->m->a, t)));
        return &ty_conflict;
      }
    }
    return &ty_obj;
  }
  if (!type_slice_parts(c, e, &generic, &unknown)) return &ty_conflict;
  const type *ot = TY(e->u.slice.obj);
  if (unknown) return &ty_unknown;
  if (ty_is_ndarray(ot)) return type_array_view(c, e, ot); /* x[1:]: a view */
  if (generic && passable(ot)) return generic_op(c);
  if (ot->kind != TY_LIST) {
    type_fail(c, e->pos, arena_printf(c->m->a, "slicing a %s (only lists and objects are sliced in "
                                 "kernels)", ty_python_name(c->m->a, ot)));
    return &ty_conflict;
  }
  builds_list(c, e->pos);
  return ot;
}

/* Is obj[lo:hi:step] (typed) generic, PyObject_GetItem of a slice object? */
bool slice_is_generic(const inst *in, const expr *e) {
  const expr *parts[3] = {e->u.slice.lo, e->u.slice.hi, e->u.slice.step};
  if (!e->u.slice.obj) return true; /* a slice object of a multi-dimensional index */
  bool generic = ty_of(in, e->u.slice.obj)->kind == TY_OBJ;
  for (int i = 0; i < 3; i++) generic |= parts[i] && ty_of(in, parts[i])->kind == TY_OBJ;
  return generic;
}

/* list + list (one element type), list * int, int * list: a new list;
 * x += v of a list x (a new version of x): x extended, the same list. */
static const type *list_binop_type(ctx *c, expr *e, binop op, const type *l, const type *r) {
  const type *t = &ty_conflict;
  bool count_l = l->kind == TY_INT || l->kind == TY_BOOL, count_r = r->kind == TY_INT || r->kind == TY_BOOL;
  if (e->u.bin.inplace && op == OP_ADD && l->kind == TY_LIST) /* list.__iadd__: extended, the same list */
    return extendable(c, e->pos, l, r, "'+='") ? (c->in->effectful = true, l) : &ty_conflict;
  if (e->u.bin.inplace) {
    type_fail(c, e->pos, arena_printf(c->m->a, "augmented assignment '%s=' to a list (it changes the "
                                 "list in place)", binop_spelling[op]));
    return &ty_conflict;
  }
  if (op == OP_ADD && l->kind == TY_LIST && r->kind == TY_LIST) t = ty_join(l, r);
  else if (op == OP_MUL && l->kind == TY_LIST && count_r) t = l;
  else if (op == OP_MUL && r->kind == TY_LIST && count_l) t = r;
  if (t->kind != TY_LIST) {
    type_fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on %s and %s", binop_spelling[op],
                                 ty_python_name(c->m->a, l), ty_python_name(c->m->a, r)));
    return &ty_conflict;
  }
  builds_list(c, e->pos);
  return t;
}

const type *binop_type(ctx *c, expr *e, binop op, const type *l, const type *r) {
  if (l->kind == TY_UNKNOWN || r->kind == TY_UNKNOWN) return &ty_unknown;
  if (e->kind == EX_BINOP && e->u.bin.inplace && ty_is_ndarray(l) &&
      inplace_array_type(c->m, c->in, l, e->u.bin.r)) {
    generic_op(c); /* p /= s: numpy's in-place ufunc (or a fused loop) writes p and gives it back */
    return l;
  }
  if ((l->kind == TY_OBJ || r->kind == TY_OBJ) && generic_operand(l) && generic_operand(r))
    return generic_op(c); /* PyNumber_Add, ... */
  if ((ty_is_ndarray(l) || ty_is_ndarray(r)) && (generic_operand(l) || l->kind == TY_NP) &&
      (generic_operand(r) || r->kind == TY_NP))
    return generic_op(c); /* numpy's whole-array operation */
  if ((l->kind == TY_NP || r->kind == TY_NP) && ty_is_scalar(l) && ty_is_scalar(r))
    return np_binop_type(c, e, op, l, r);
  if (l->kind == TY_LIST || r->kind == TY_LIST) return list_binop_type(c, e, op, l, r);
  if (!ty_is_number(l) || !ty_is_number(r)) {
    type_fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on %s and %s", binop_spelling[op],
                                 ty_python_name(c->m->a, l), ty_python_name(c->m->a, r)));
    return &ty_conflict;
  }
  const type *t = binop_result(op, l, r);
  if (t->kind == TY_CONFLICT)
    type_fail(c, e->pos, arena_printf(c->m->a, "operator '%s' on %s raises TypeError", binop_spelling[op],
                                      op == OP_MATMUL ? "numbers" : "a float"));
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
  type_fail(c, e->pos, arena_printf(c->m->a, "%s() of a %s", e->u.call.name, ty_python_name(c->m->a, a)));
  return &ty_conflict;
}

/* Can a value of type `vt` be stored into `ct` (a list or buffer)? False
 * (with a failure) if it would change what the container holds or raise
 * TypeError. */
const type *extends_empty_with(const type *vt) {
  if (vt->kind == TY_LIST && vt->elts[0]->kind != TY_UNKNOWN) return vt->elts[0];
  if (vt->kind != TY_TUPLE || vt->n == 0) return NULL;
  for (int i = 1; i < vt->n; i++)
    if (vt->elts[i] != vt->elts[0]) return NULL;
  return vt->elts[0];
}

bool extendable(ctx *c, srcpos pos, const type *lt, const type *vt, const char *what) {
  if (vt->kind == TY_LIST && vt->elts[0]->kind == TY_UNKNOWN) return true; /* `xs += []` */
  if (extends_empty_with(vt) == lt->elts[0]) return true;
  type_fail(c, pos, arena_printf(c->m->a, "%s of a %s with a %s (only a list or tuple of its element type)",
                                 what, ty_python_name(c->m->a, lt), ty_python_name(c->m->a, vt)));
  return false;
}

bool storable(ctx *c, srcpos pos, const type *ct, const type *vt) {
  if (vt->kind == TY_UNKNOWN) return true;
  if (ct->kind == TY_LIST && ct->elts[0]->kind == TY_OBJ && (generic_operand(vt) || vt->kind == TY_NONE))
    return true;
  if (ct->kind == TY_LIST && vt == ct->elts[0] && ty_is_scalar(vt) && vt->kind != TY_NUM)
    return true;
  if (ct->kind == TY_LIST && vt == ct->elts[0] && vt->kind == TY_LIST) return true; /* a list of lists */
  if (ct->kind == TY_BUF && ct->buf_kind == 'n' && ty_is_scalar(vt) && (vt->kind != TY_NUM || ct->fmt == 'd'))
    return true; /* numpy casts on store: checked or deoptimised when it runs */
  if (ct->kind == TY_BUF && ct->buf_kind == 'n' && vt->kind == TY_OBJ && !vt->cls)
    return true; /* a float or numpy.float64 as a C value, anything else numpy's own setitem */
  if (ct->kind == TY_BUF && ct->buf_kind != 'n') {
    const type *el = ty_elem(ct);
    if (el->kind == TY_FLOAT && (vt->kind == TY_FLOAT || vt->kind == TY_INT)) return true;
    if (el->kind == TY_INT && (vt->kind == TY_INT || vt->kind == TY_BOOL)) return true;
    if (el->kind == TY_BOOL && vt->kind == TY_BOOL) return true;
  }
  type_fail(c, pos, arena_printf(c->m->a, "storing a %s into a %s", ty_python_name(c->m->a, vt),
                            ty_python_name(c->m->a, ct)));
  return false;
}

/* Can this value be passed to Python code (boxed, or an object)? */
static bool passable(const type *t) { return generic_operand(t) || t->kind == TY_NONE; }

/* Can this value be boxed into an object (a tuple of such values too)? */
static bool boxable(const type *t) {
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->n; i++)
      if (!boxable(t->elts[i])) return false;
    return true;
  }
  return passable(t) || t->kind == TY_NP;
}

/* f(args) for an object f, or o.method(args) for an object o: through the C
 * API, an object result; arguments boxed. */
static const type *type_api_call(ctx *c, expr *e, const type **at) {
  for (int i = 0; i < e->u.call.n; i++)
    if (!passable(at[i])) {
      type_fail(c, e->pos, arena_printf(c->m->a, "%s() with a %s %s", e->u.call.name,
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
  if (vt->kind == TY_LIST && (c->in->nested_as_objects || vt->elts[0]->kind == TY_UNKNOWN))
    vt = &ty_obj; /* held as an object: `[[] for _ in range(n)]`, whose inner lists nothing here fills */
  expr *recv = e->u.call.args[0];
  if (ops_call_is(e, OPI_EXTEND) && extends_empty_with(at[1])) /* out = []; out.extend(xs) */
    vt = extends_empty_with(at[1]);
  else if (!ops_call_is(e, OPI_APPEND) && !ops_call_is(e, OPI_INSERT)) {
    type_fail(c, e->pos, arena_printf(c->m->a, ".%s() of an empty list nothing appends to", name));
    return &ty_conflict;
  }
  if (recv->kind != EX_LOCAL || !list_elem_ok(vt)) {
    type_fail(c, e->pos, arena_printf(c->m->a, ".%s() of a %s to a new empty list", name,
                                 ty_python_name(c->m->a, vt)));
    return &ty_conflict;
  }
  target tg = {.local = recv->u.local, .pos = recv->pos};
  bind_target(c, &tg, ty_list(vt), e->pos);
  if (!e->u.call.own_list) c->in->effectful = true;
  return &ty_none;
}

/* out.append(v) or out.insert(i, v) where the local `out` (not a parameter:
 * those keep the type their guard checks) holds a list[T] and v is not a T:
 * the local holds a list[object] instead (ty_join), which CPython's mixed
 * list is; the pass that follows types every use of `out` so. */
static bool widens_local_list(ctx *c, expr *e, const type *lt, const type *vt) {
  expr *recv = e->u.call.args[0];
  if (recv->kind != EX_LOCAL || recv->u.local < c->in->fn->nparams || vt->kind == TY_UNKNOWN ||
      vt == lt->elts[0] || !list_elem_ok(vt))
    return false;
  const type *j = ty_join(lt, ty_list(vt));
  if (j->kind != TY_LIST || j == lt) return false;
  target tg = {.local = recv->u.local, .pos = recv->pos};
  bind_target(c, &tg, j, e->pos);
  return true;
}

/* Is k (or a base) a typing.NamedTuple, whose instances namedtuple's own
 * __new__ makes? */
static bool named_tuple_class(const klass *k) {
  for (; k; k = k->base)
    if (k->named_tuple) return true;
  return false;
}

/* Cls(args) of a class of the module kernels specialise on, whose
 * instances object.__new__ makes (no __new__ in it or its bases), or
 * namedtuple's __new__ (CPython's call): an instance of exactly that class
 * (checked when made: the global may be rebound), or NULL. */
static klass *constructed_class(ctx *c, expr *e) {
  expr *f = e->u.call.args[0];
  if (f->kind != EX_NAME || e->u.call.argform) return NULL;
  klass *k = classes_find(c->m, f->u.global->name);
  if (!k || k->why_not || !k->slot) return NULL;
  for (const klass *b = k; b; b = b->base)
    if (b->defines_new && !b->named_tuple) return NULL;
  use_named_slot(c, k->slot->index);
  return k;
}

/* May argument type t be passed to a kernel directly? */
static bool direct_arg(const type *t) {
  return ty_is_scalar(t) || t->kind == TY_TUPLE || ty_is_container(t) || t->kind == TY_OBJ ||
         t->kind == TY_NONE;
}

/* May n arguments of types `at` all be passed so (f([]) may not: no element type)? */
static bool direct_args(const type **at, int n) {
  for (int i = 0; i < n; i++)
    if (!direct_arg(at[i]) || (at[i]->kind == TY_LIST && at[i]->elts[0]->kind == TY_UNKNOWN)) return false;
  return true;
}

/* Does a call of f with n positional values pack the last of them into
 * its *args (f has no keyword-only parameter or **kwargs; none of its
 * positional ones is left to a default)? The kernel then takes the tuple,
 * made at the call (emit/calls.c: packed_star_args). */
bool packs_star_args(const func *f, int n) {
  return f->star_args && f->nvarparams == 1 && f->nposparams == f->nparams - 1 && n >= f->nparams - 1 &&
         n <= 64;
}

/* May kernels call f directly: no closure, or only the __class__ cell of
 * a method using super(), or the cells of a @dataclass's __init__ with a
 * default factory (dataclass_init.c; the function's closure, read at the
 * call, and checked with the __init__ by each construction)? */
static bool direct_closure(const func *f, char kind) {
  return !f->nfreevars || (kind == 'f' && f->nfreevars == 1 && !strcmp(f->freevars[0], "__class__")) ||
         (kind == 'f' && f->synth_first);
}

/* f's parameter named `name` that a keyword may bind (none before a `/`,
 * nor *args or **kwargs), or -1. */
static int keyword_param(const func *f, const char *name) {
  for (int p = f->nposonly; p < f->nparams - f->nvarparams; p++)
    if (!strcmp(f->params[p], name)) return p;
  return -1;
}

int call_param(const expr *e, const func *f, int i, int delta) {
  int npos = e->u.call.n - e->u.call.nkw;
  return i < npos ? i + delta : keyword_param(f, e->u.call.kwnames[i - npos]);
}

/* The types of f's parameters for the n values `at` of call e (its last
 * nkw given by keyword, as keywords_in_order allows; value i of the
 * others is parameter i), into `out` (64): a parameter the call leaves out
 * is typed as its default, a number literal or None (read from
 * __defaults__ or __kwdefaults__ when the call runs: emit/calls.c,
 * defaults_read). `P(1.0)` of `__init__(self, x, y=0.0, *, m=1.0)`;
 * `o.move(dt=0.1)` of `move(self, scale=1.0, dt=0.0)`. false when one left
 * out has no such default, or f takes *args or **kwargs. */
static bool bind_types(const expr *e, const func *f, const type **at, int n, const type **out) {
  if (f->nvarparams || f->nparams > 64 || n > 64) return false;
  bool given[64] = {false};
  int nkw = e->kind == EX_CALL ? e->u.call.nkw : 0;
  for (int i = 0; i < n; i++) {
    int p = i < n - nkw ? i : keyword_param(f, e->u.call.kwnames[i - (n - nkw)]);
    if (p < 0 || p >= f->nparams || given[p]) return false;
    out[p] = at[i], given[p] = true;
  }
  for (int j = 0; j < f->nparams; j++) {
    const type *dt = f->param_default ? f->param_default[j] : NULL;
    if (given[j]) continue;
    if (j < f->nposparams - f->nposdefaults || !dt || dt->kind == TY_CONFLICT) return false; /* (a required one) */
    out[j] = dt;
  }
  return true;
}

/* The specialisation of k's member f of `kind` (class_member's kinds: a
 * method, staticmethod, classmethod, property getter or setter; looked up
 * `up` bases above k; f may be NULL) for the n argument types `at` (as the
 * kernel takes them: the instance or class first, but for a staticmethod)
 * that e calls kernel to kernel, recorded as e's callee
 * with k's guard checking f; NULL when f or its kernel for these types
 * cannot be called so (CPython's lookup and call then run). A method
 * call's values are bound to the parameters, those it leaves to their
 * defaults typed as the defaults (bind_types). */
static inst *direct_member_callee(ctx *c, expr *e, klass *k, func *f, char kind, int up, const type **at, int n) {
  const type *bound[64];
  bool method_call = e->kind == EX_CALL && e->u.call.kind == CALLEE_METHOD;
  bool bound_here = !(e->kind == EX_CALL && e->u.call.kind == CALLEE_VALUE); /* (a construction's: its own) */
  int nkw = method_call ? e->u.call.nkw : 0;
  if (f && bound_here && !f->nvarparams && n - nkw > f->nposparams) return NULL; /* keyword-only by position */
  if (f && method_call && !f->nvarparams && (n < f->nparams || nkw)) {
    if (!bind_types(e, f, at, n, bound)) return NULL;
    at = bound, n = f->nparams;
  }
  if (!f || f->breaks || f->not_compiled || f->partial || !direct_closure(f, kind) || !direct_args(at, n) ||
      (n != f->nparams && !f->nvarparams))
    return NULL;
  if (f->synth_first && e->kind == EX_CALL && e->u.call.kind == CALLEE_METHOD)
    return NULL; /* super().__init__(...) of a dataclass: CPython's (only constructions check its __init__) */
  const type *packed[64];
  if (f->nvarparams) { /* def m(self, a, *rest): the values past `a` make rest's tuple, as CPython's call does */
    bool method_call = e->kind == EX_CALL && e->u.call.kind == CALLEE_METHOD; /* (emit_call_kind packs) */
    if (!method_call || (kind != 'f' && kind != 's') || !packs_star_args(f, n)) return NULL;
    memcpy(packed, at, sizeof *at * (size_t)(f->nparams - 1));
    packed[f->nparams - 1] = &ty_obj;
    at = packed;
  }
  inst *callee = get_inst(c->m, f, at);
  if (!callee || (!callee->ok && !callee->typing)) return NULL;
  c->in->types.callee[e->id] = callee;
  use_named_slot(c, k->slot->index);
  classes_use_member(c->m, k, f, kind, up);
  c->in->generic = c->in->effectful = true; /* when the class changed: CPython's lookup and call */
  if (callee->opaque_calls) c->in->opaque_calls = true;
  return callee;
}

/* A method f of k (classes_method) called directly on an instance. */
static inst *direct_method_callee(ctx *c, expr *e, klass *k, func *f, const type **at, int n) {
  return direct_member_callee(c, e, k, f, 'f', 0, at, n);
}

/* The type of a direct call's value: callee's result (None when it returns none). */
static const type *direct_result(ctx *c, expr *e, const inst *callee) {
  if (callee->ret->kind == TY_UNKNOWN) return callee->typing ? &ty_unknown : &ty_none;
  if (callee->ret->kind == TY_LIST) builds_list(c, e->pos);
  return callee->ret;
}

/* e runs k's special method `name` with the n arguments of types `at` (the
 * instance first) through its type's slot (Objects/typeobject.c:
 * slot_nb_add, slot_tp_richcompare, slot_sq_length, ...): when that method
 * is a plain def of the module with a kernel for these types, the kernel
 * is called directly (types.callee[e->id]; the class guard covers the
 * def). With `may_defer` (a binary operator or a comparison), a result of
 * NotImplemented would make CPython try the other operand: only a kernel
 * whose result type cannot be NotImplemented (an instance, a number, None)
 * qualifies. The result's type, or NULL (CPython's operation runs). */
static const type *type_special(ctx *c, expr *e, klass *k, const char *name, const type **at, int n,
                                bool may_defer) {
  c->in->types.callee[e->id] = NULL;
  if (!k->slot) return NULL;
  func *f = classes_method(c->m, k, name);
  if (!f || f->nparams != n) return NULL;
  if (may_defer) {
    inst *probe = direct_args(at, n) ? get_inst(c->m, f, at) : NULL; /* the one called, if any */
    const type *rt = probe ? probe->ret : NULL;
    if (!rt || (rt->kind == TY_OBJ && !rt->cls) || ty_is_container(rt) || rt->kind == TY_TUPLE)
      return NULL; /* an object may be NotImplemented; a container result: CPython's operator */
  }
  inst *callee = direct_method_callee(c, e, k, f, at, n);
  return callee ? direct_result(c, e, callee) : NULL;
}

/* The names of the binary operators' special methods, by binop. */
static const char *const binop_method[] = {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
                                           "lshift", "rshift", "and", "or", "xor", "matmul"};

/* a OP b where a is an instance of a module class and b a number or an
 * instance of the same class: b's type is not a subclass of a's, so the
 * slot CPython calls is a's __OP__ (binary_op1). a OP b with a a number and
 * b such an instance: the number's own operator gives NotImplemented, so
 * b's __rOP__(b, a) runs. x op= v: __iOP__ when the class has one, else
 * as x OP v, the class guard then checking that it still has none. NULL
 * when it is not such (CPython's operator). */
static const type *type_operator(ctx *c, expr *e, const type *l, const type *r) {
  c->in->types.callee[e->id] = NULL;
  const char *op = binop_method[e->u.bin.op];
  if (l->cls && (ty_is_number(r) || r->cls == l->cls)) {
    klass *k = (klass *)l->cls;
    const type *a[2] = {l, r};
    if (e->u.bin.inplace) {
      const char *iname = arena_printf(c->m->a, "__i%s__", op);
      if (classes_defines(c->m, k, iname)) return type_special(c, e, k, iname, a, 2, true);
      const type *t = type_special(c, e, k, arena_printf(c->m->a, "__%s__", op), a, 2, true);
      if (t) classes_use_absent(c->m, k, iname);
      return t;
    }
    return type_special(c, e, k, arena_printf(c->m->a, "__%s__", op), a, 2, true);
  }
  if (r->cls && ty_is_number(l)) {
    const type *a[2] = {r, l};
    return type_special(c, e, (klass *)r->cls, arena_printf(c->m->a, "__r%s__", op), a, 2, true);
  }
  return NULL;
}

/* a < b (two operands) with an instance of a module class: as
 * do_richcompare, a's __lt__(a, b) when b is a number or an instance of
 * the same class; b's reflected __gt__(b, a) when a is a number (whose own
 * comparison gives NotImplemented). NULL when it is not such. */
static const type *type_rich_compare(ctx *c, expr *e, const type *l, const type *r) {
  static const char *const method[] = {"__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"};
  static const char *const reflected[] = {"__gt__", "__ge__", "__lt__", "__le__", "__eq__", "__ne__"};
  c->in->types.callee[e->id] = NULL;
  cmpop op = e->u.cmp.ops[0];
  if (e->u.cmp.n != 2 || op > CMP_NE) return NULL;
  if (l->cls && (ty_is_number(r) || r->cls == l->cls)) {
    const type *a[2] = {l, r};
    return type_special(c, e, (klass *)l->cls, method[op], a, 2, true);
  }
  if (r->cls && ty_is_number(l)) {
    const type *a[2] = {r, l};
    return type_special(c, e, (klass *)r->cls, reflected[op], a, 2, true);
  }
  return NULL;
}

/* len(a) and abs(a) of an instance of a module class: its __len__ (an int
 * or bool result: slot_sq_length takes its index; its sign is checked when
 * it runs, emit) or __abs__, called directly. NULL when not such. */
static const type *type_special_builtin(ctx *c, expr *e, const type **at) {
  klass *k = (klass *)at[0]->cls;
  if (ops_call_is(e, OPI_ABS)) return type_special(c, e, k, "__abs__", at, 1, false);
  const type *t = type_special(c, e, k, "__len__", at, 1, false);
  if (t && t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_UNKNOWN) { /* CPython's TypeError */
    c->in->types.callee[e->id] = NULL;
    return NULL;
  }
  return t && t->kind != TY_UNKNOWN ? &ty_int : t;
}

/* Do call e's keyword arguments (its last nkw) name parameters of f
 * after the ones given by position, in f's order (`P(1.0, y=2.0, m=3.0)`
 * of `__init__(self, x, y, m=1.0)`; `o.move(dt=0.1)`; `V(x, scale=2.0)`
 * of `__init__(self, x, y=0.0, *, scale=1.0)`)? Argument i is f's
 * parameter i - shift. Then their values are evaluated in the order of
 * the parameters they bind: a direct call passes them so (while the
 * class's def is f), the parameters between them read from its defaults
 * (bind_types); CPython's call keeps the keywords (emit/calls.c:
 * emit_class_call, call_through_runtime). A def with *args takes them only
 * right after the positional ones (it packs the rest: packs_star_args).
 * None: yes. */
static bool keywords_in_order(const expr *e, const func *f, int shift) {
  int first = e->u.call.n - e->u.call.nkw, last = first - shift - 1;
  for (int i = first; i < e->u.call.n; i++) {
    int p = call_param(e, f, i, -shift);
    if (p <= last || (f->nvarparams && (p != last + 1 || p >= f->nposparams))) return false;
    last = p;
  }
  return true;
}

/* Cls(args) (constructed_class) whose __init__, a def of the module, has a
 * kernel for (an instance of Cls, the arguments' types) that returns None:
 * the call makes the instance as object.__new__ does and runs that kernel
 * on it directly (types.callee[e->id]; emit/calls.c: emit_construction).
 * Keyword arguments only as keywords_in_order allows. */
static const type *constructed_init(ctx *c, expr *e, const type **at, klass *k) {
  c->in->types.callee[e->id] = NULL;
  func *f = classes_method(c->m, k, "__init__");
  int n = e->u.call.n; /* args[0] is the class, whose place the instance takes */
  if (!f || !keywords_in_order(e, f, 0) || n > 64) return &k->inst; /* (args[0], the class, stands for self) */
  const type *a[64], *given[64];
  /* an instance of a recordable class is made as its fields (its __init__'s kernel takes them) */
  given[0] = !c->in->fn->partial && classes_recordable(c->m, k) ? &k->rec : &k->inst;
  for (int i = 1; i < n; i++) given[i] = at[i];
  if (n - e->u.call.nkw > f->nposparams || !bind_types(e, f, given, n, a)) /* Cls(x) of `def __init__(self, x, */
    return &k->inst;                                                         /* y=0.0)`: y's read when it runs */
  n = f->nparams;
  for (int pass = 0; pass < 2; pass++) {
    inst *probe = direct_args(a, n) ? get_inst(c->m, f, a) : NULL; /* the one called */
    if (probe && probe->ret->kind != TY_UNKNOWN && probe->ret->kind != TY_NONE)
      return &k->inst; /* it returns a value: CPython's TypeError, from its own call */
    if (direct_method_callee(c, e, k, f, a, n)) {
      if (a[0]->rec) k->rec_used = true;
      return a[0];
    }
    if (!a[0]->rec) break;
    a[0] = &k->inst; /* no kernel takes it as fields: made */
  }
  return &k->inst;
}

/* Attributes of `type` itself that Cls.name would give before the class's own. */
static bool type_data_attr(const char *name) {
  static const char *const names[] = {"__name__", "__qualname__", "__bases__", "__module__", "__dict__",
                                      "__doc__", "__mro__", "__annotations__", "__abstractmethods__",
                                      "__text_signature__", "__base__", "__basicsize__", "__flags__"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) if (!strcmp(name, names[i])) return true;
  return false;
}

/* A method call made kernel to kernel (its form then read back by emit
 * from the receiver, calls.c: member_call_of):
 *   obj.m(args)        m a def found through obj's class (the instance first), a
 *                      staticmethod (the arguments only) or a classmethod (the
 *                      instance's class first);
 *   Cls.m(args)        Cls a class of the module: m's def or staticmethod, the
 *                      arguments as given (Base.__init__(self, x)); a classmethod,
 *                      Cls first;
 *   super().m(args)    in a method of class C, self an instance of exactly D (C or a
 *                      subclass): m as found after C in D's MRO (the bases' chain).
 * The class guard checks m (kind and def). NULL when it is not one. */
static const type *type_devirtualised(ctx *c, expr *e, const type **at) {
  c->in->types.callee[e->id] = NULL;
  if (e->u.call.argform) return NULL;
  const char *name = e->u.call.name;
  int n = e->u.call.n;
  expr *recv = e->u.call.args[0];
  char kind;
  inst *callee = NULL;
  if (at[0]->cls && at[0]->cls->slot) {
    klass *k = (klass *)at[0]->cls;
    func *f = classes_member(c->m, k, name, &kind);
    if (f && !keywords_in_order(e, f, kind == 's')) return NULL; /* (a staticmethod's: the instance dropped) */
    if (kind == 'f') callee = direct_member_callee(c, e, k, f, kind, 0, at, n);
    if (kind == 's') callee = direct_member_callee(c, e, k, f, kind, 0, at + 1, n - 1);
    if (kind == 'c' && n <= 64) { /* the instance's class first */
      const type *a[64];
      a[0] = &ty_obj;
      for (int i = 1; i < n; i++) a[i] = at[i];
      callee = direct_member_callee(c, e, k, f, kind, 0, a, n);
    }
  } else if (recv->kind == EX_NAME && !type_data_attr(name)) {
    klass *k = classes_find(c->m, recv->u.global->name);
    func *f = k && k->slot ? classes_member(c->m, k, name, &kind) : NULL;
    if (f && !keywords_in_order(e, f, kind != 'c')) return NULL; /* Cls.m(self, ...): Cls dropped */
    if (f && (kind == 'f' || kind == 's')) callee = direct_member_callee(c, e, k, f, kind, 0, at + 1, n - 1);
    if (f && kind == 'c') callee = direct_member_callee(c, e, k, f, kind, 0, at, n); /* Cls itself first */
  } else if (recv->kind == EX_CALL && recv->u.call.super_cell && strcmp(name, "__class__")) {
    const type *st = type_expr(c, recv->u.call.args[1], false);
    klass *d = (klass *)st->cls;
    int up = d && d->slot ? classes_super_up(c->m, c->in->fn, d) : -1;
    func *f = up > 0 ? classes_member(c->m, classes_up(d, up), name, &kind) : NULL;
    if (f && !keywords_in_order(e, f, 0)) return NULL;
    const type *a[64];
    a[0] = st;
    for (int i = 1; i < n && i < 64; i++) a[i] = at[i];
    if (f && kind == 'f' && n <= 64) callee = direct_member_callee(c, e, d, f, kind, up, a, n);
  }
  return callee ? direct_result(c, e, callee) : NULL;
}

/* Was `k` a receiver of f when profiled (or annotated): a specialisation
 * whose self is an instance of exactly k? */
static bool recorded_receiver(const func *f, const klass *k) {
  for (const spec *s = f->specs; s; s = s->next)
    if (f->nparams && s->args[0]->cls == k) return true;
  return false;
}

/* Adds class k's kernel (NULL: none) to poly site ps. */
static void poly_add(poly_site *ps, const klass *k, inst *callee) {
  if (!callee) return;
  ps->k[ps->n] = k;
  ps->callee[ps->n++] = callee;
}
/* Keeps ps as call e's poly site when it has a kernel; the call's own form
 * stays the C API call (no callee of its own). */
static void poly_keep(ctx *c, expr *e, const poly_site *ps) {
  c->in->types.callee[e->id] = NULL;
  if (!ps->n) return;
  poly_site *p = arena_alloc(c->m->a, sizeof *p);
  *p = *ps;
  c->in->types.poly[e->id] = p;
}

/* obj.m(args) of an object in a local (types.poly; gen.h: poly_site): for
 * each of the module's classes (up to POLY_MAX, in the order of the class
 * statements) that the profile saw as a receiver of the def m resolves to
 * in it, that def's kernel for an instance of exactly the class and these
 * arguments, as type_devirtualised makes it for one class (keywords bound
 * per class: keywords_in_order, bind_types). The call's own
 * type stays the C API call's (an object). */
static void type_polymorphic(ctx *c, expr *e, const type **at) {
  c->in->types.poly[e->id] = NULL;
  int n = e->u.call.n;
  expr *recv = e->u.call.args[0]; /* a local, or an element or attribute (evaluated once: emit_polymorphic_call) */
  if (at[0]->cls || (recv->kind != EX_LOCAL && recv->kind != EX_SUBSCRIPT && recv->kind != EX_ATTR) ||
      e->u.call.argform || n > 64)
    return;
  for (int i = 1; i < n; i++) /* inert: the receiver's class is tested before them, as CPython's lookup is */
    if (!expr_inert(e->u.call.args[i])) return;
  poly_site ps = {0};
  for (int i = 0; i < c->m->nclasses && ps.n < POLY_MAX; i++) {
    klass *k = c->m->classes[i];
    char kind;
    func *f = k->slot && !k->why_not ? classes_member(c->m, k, e->u.call.name, &kind) : NULL;
    if (!f || kind != 'f' || !recorded_receiver(f, k) || !keywords_in_order(e, f, 0)) continue;
    const type *a[64];
    a[0] = &k->inst;
    for (int j = 1; j < n; j++) a[j] = at[j];
    poly_add(&ps, k, direct_member_callee(c, e, k, f, kind, 0, a, n));
  }
  poly_keep(c, e, &ps);
}

/* The positional values of call e, before a last *iterable if it has one
 * (*star set): f(a, b) or f(a, b, *t); -1 for any other form. */
int call_positional_star(const expr *e, bool *star) {
  const char *form = e->u.call.argform;
  int n = e->u.call.n;
  *star = form && n > 1 && form[n - 1] == '*';
  for (int i = 1; form && i < n - *star; i++)
    if (form[i] != 'p') return -1;
  return e->u.call.nkw ? -1 : n - 1 - *star;
}

/* Did the profile see f, the __init__ of class k, receive an instance of
 * exactly k and the types of the npos values `at` (at[1]..: an object
 * argument fits any) first? */
static bool recorded_init_fits(const func *f, const klass *k, const type **at, int npos) {
  for (const spec *s = f->specs; s; s = s->next) {
    bool fits = f->nparams > npos && s->args[0]->cls == k;
    for (int j = 1; fits && j <= npos; j++) fits = at[j]->kind == TY_OBJ || s->args[j] == at[j];
    if (fits) return true;
  }
  return false;
}

/* The module's classes named as the argument for parameter `param` of
 * function `fn` at its calls in the module's functions (`f(Cls, ...)`, a
 * method's `obj.fn(Cls, ...)`): what a class held in that parameter may be,
 * as far as the source says (scheduler's shop.schedule(Arrival, ...)). */
typedef struct class_args {
  const module *m;
  const func *fn;
  int param;
  const klass *k[POLY_MAX];
  int n;
} class_args;
static void class_args_expr(void *ctx, expr *e);
static void class_args_target(void *ctx, target *t) {
  if (t->sub) ir_each_subexpr(t->sub, class_args_expr, ctx);
  for (int i = 0; t->is_tuple && i < t->n; i++) class_args_target(ctx, t->elts[i]);
}
static void class_args_block(void *ctx, stmt *b) {
  static const ir_parts parts = {class_args_expr, class_args_target, class_args_block, false};
  for (; b; b = b->next) ir_each_part(b, &parts, ctx);
}
static void class_args_expr(void *ctx, expr *e) {
  class_args *A = ctx;
  if (e->kind == EX_CALL && A->param < e->u.call.n && !e->u.call.argform &&
      (A->fn->method ? e->u.call.kind == CALLEE_METHOD && !strcmp(e->u.call.name, A->fn->name)
                     : e->u.call.kind == CALLEE_MODULE_FN && e->u.call.fn == A->fn)) {
    expr *a = e->u.call.args[A->param];
    const klass *k = a->kind == EX_NAME ? classes_find((module *)A->m, a->u.global->name) : NULL;
    bool seen = false;
    for (int i = 0; i < A->n; i++) seen |= A->k[i] == k;
    if (k && !seen && A->n < POLY_MAX) A->k[A->n++] = k;
  }
  if (e->kind == EX_LISTCOMP) class_args_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, class_args_expr, ctx);
}
static class_args classes_passed(const module *m, const func *fn, int param) {
  class_args A = {m, fn, param, {0}, 0};
  for (int i = 0; i < m->nfuncs; i++) class_args_block(&A, m->funcs[i]->body);
  return A;
}

/* cls(args) of a class held in a local (types.poly; gen.h: poly_site), as
 * `kind(t, seq, *extra)`: for each of the module's classes (those the
 * callers pass for that parameter when the source names any) made as
 * object.__new__ makes an instance whose __init__ (a def, no *args, through
 * the MRO) the profile saw receive an instance of exactly that class and
 * values of these types (recorded_init_fits), the kernel of that __init__
 * for it and these arguments (the items of a
 * *tuple as objects, so many as its parameters leave). The call's own type
 * stays the C API call's (an object). */
static void type_polymorphic_construction(ctx *c, expr *e, const type **at) {
  c->in->types.poly[e->id] = NULL;
  bool star;
  int npos = call_positional_star(e, &star);
  if (at[0]->cls || e->u.call.args[0]->kind != EX_LOCAL || npos < 0) return;
  int local = e->u.call.args[0]->u.local;
  class_args passed = local < c->in->fn->nparams ? classes_passed(c->m, c->in->fn, local) : (class_args){0};
  poly_site ps = {0};
  for (int i = 0; i < c->m->nclasses && ps.n < POLY_MAX; i++) {
    klass *k = c->m->classes[i];
    bool named = !passed.n;
    for (int j = 0; j < passed.n; j++) named |= passed.k[j] == k;
    if (!named || !k->slot || k->why_not || named_tuple_class(k)) continue;
    bool own_new = false;
    for (const klass *b = k; b; b = b->base) own_new |= b->defines_new;
    func *f = own_new ? NULL : classes_method(c->m, k, "__init__");
    if (!f || f->nvarparams || f->nparams > 64 || f->nposparams != f->nparams || !recorded_init_fits(f, k, at, npos) ||
        (star ? f->nparams - 1 < npos : f->nparams - 1 != npos))
      continue;
    const type *a[64];
    a[0] = &k->inst;
    for (int j = 1; j < f->nparams; j++) a[j] = j <= npos ? at[j] : &ty_obj; /* a *tuple's items */
    inst *probe = direct_args(a, f->nparams) ? get_inst(c->m, f, a) : NULL;
    if (probe && probe->ret->kind != TY_UNKNOWN && probe->ret->kind != TY_NONE) continue; /* a value: TypeError */
    inst *callee = direct_method_callee(c, e, k, f, a, f->nparams);
    bool passable = callee != NULL;
    for (int j = 1; passable && j < f->nparams; j++) /* each value as it is, or boxed (emit: convert) */
      passable = !callee->args[j]->rec && (callee->args[j] == a[j] || callee->args[j]->kind == TY_OBJ);
    poly_add(&ps, k, passable ? callee : NULL);
  }
  poly_keep(c, e, &ps);
}

/* list.append(v) -> None, list.pop([i]) -> the element, list.insert(i, v) ->
 * None; on an object, its method through the C API. */
static const type *type_method(ctx *c, expr *e, const type **at) {
  const type *lt = at[0];
  const char *name = e->u.call.name;
  if (lt->kind == TY_OBJ) { /* an instance's method, Cls.m(...), super().m(...) */
    const type *t = type_devirtualised(c, e, at);
    if (t) return t;
    type_polymorphic(c, e, at); /* an object: per recorded receiver class, its kernel */
  }
  const type *uf = lt->kind == TY_OBJ ? type_np_ufunc(c, e, at) : NULL; /* np.tanh(x) */
  if (uf) return uf;
  if (lt->kind == TY_OBJ && method_via_api(c->in, e)) { /* np.zeros(...): numpy's array, typed */
    const type *t = type_api_call(c, e, at);
    const type *made = t->kind == TY_OBJ ? type_made_array(c, e, at) : NULL;
    if (!made && t->kind == TY_OBJ) made = type_expr_method(c, e); /* (a ** 2).sum(axis=0) */
    return made ? made : t;
  }
  if (ty_is_ndarray(lt)) return type_array_method(c, e, at); /* numpy's method */
  if (method_via_api(c->in, e)) return type_api_call(c, e, at); /* its index may be any object */
  if (!e->u.call.op) { /* a method no row of the operation table names: objects only */
    type_fail(c, e->pos, arena_printf(c->m->a, ".%s() of a %s", name, ty_python_name(c->m->a, lt)));
    return &ty_conflict;
  }
  if (lt->kind == TY_LIST && lt->elts[0]->kind == TY_UNKNOWN) return type_first_append(c, e, at);
  if (lt->kind != TY_LIST || !generic_operand(lt->elts[0])) {
    type_fail(c, e->pos, arena_printf(c->m->a, ".%s() on a %s", name, ty_python_name(c->m->a, lt)));
    return &ty_conflict;
  }
  if (e->u.call.own_list) { /* the comprehension's list: boxed values of its element type */
    if (ty_unrec(at[1]) == lt->elts[0]) return &ty_none; /* an instance kept as fields: made (box_value) */
    if (at[1]->kind == TY_LIST && (c->in->nested_as_objects || at[1]->elts[0]->kind == TY_UNKNOWN) &&
        lt->elts[0] == &ty_obj)
      return &ty_none; /* an inner list held as an object (type_first_append) */
    type_fail(c, e->pos, arena_printf(c->m->a, "a list comprehension whose elements are both %s and %s",
         ty_python_name(c->m->a, lt->elts[0]), ty_python_name(c->m->a, at[1])));
    return &ty_conflict;
  }
  c->in->effectful = true;
  if ((ops_call_is(e, OPI_APPEND) || ops_call_is(e, OPI_INSERT)) && widens_local_list(c, e, lt, at[e->u.call.n - 1]))
    return &ty_none;
  if (ops_call_is(e, OPI_APPEND)) return storable(c, e->pos, lt, at[1]) ? &ty_none : &ty_conflict;
  if (ops_call_is(e, OPI_EXTEND)) return extendable(c, e->pos, lt, at[1], ".extend()") ? &ty_none : &ty_conflict;
  if (ops_call_is(e, OPI_INSERT)) {
    if (at[1]->kind != TY_INT && at[1]->kind != TY_BOOL) {
      type_fail(c, e->pos, "list.insert() with an index that is not an int");
      return &ty_conflict;
    }
    return storable(c, e->pos, lt, at[2]) ? &ty_none : &ty_conflict;
  }
  if (e->u.call.n == 2 && at[1]->kind != TY_INT && at[1]->kind != TY_BOOL) {
    type_fail(c, e->pos, "list.pop() with an index that is not an int");
    return &ty_conflict;
  }
  return lt->elts[0];
}

bool is_np_int(const type *t) {
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
    type_fail(c, e->pos, arena_printf(c->m->a, "index of type %s into a %d-D ndarray%s",
         ty_python_name(c->m->a, it), ot->ndim, ot->ndim == 2 ? " (a[i] is a row: use a[i, j])"
         : ""));
    return &ty_conflict;
  }
  c->in->containers = true;
  return ty_elem(ot);
}

/* np.pi, np.e, np.inf, np.nan, ... through a global bound to numpy: a
 * float when it runs (each read checked), as math.pi is. */
static bool numpy_float_constant(ctx *c, const expr *e) {
  static const char *const names[] = {"pi", "e", "inf", "nan", "euler_gamma", "Inf", "Infinity",
                                      "NaN", "NAN", "PINF", "NINF", "PZERO", "NZERO", NULL};
  if (!names_numpy(c->m, e->u.sub.obj)) return false;
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], e->u.sub.attr)) return true;
  return false;
}

/* An instance's attribute recorded as a list (System.bodies: list[Body]):
 * that list, checked to be one per read and its elements per read as a
 * parameter's are, held as a new reference (the attribute may be rebound
 * while the kernel uses it). Not in a function with graph breaks (its
 * regions borrow lists), nor after a typing with it failed. */
static bool list_attr_typed(ctx *c, const expr *e, const type *at) {
  if (at->kind != TY_LIST || c->in->list_attrs_as_objects || c->in->nested_as_objects || c->in->fn->partial ||
      !list_elem_ok(at->elts[0]) || (at->elts[0]->kind == TY_OBJ && at->elts[0]->cls && !at->elts[0]->cls->slot))
    return false;
  builds_list(c, e->pos);
  c->in->list_attrs_typed = true;
  use_class_guards(c, at);
  return true;
}

/* xs.append as a value (a bound method: Counter(on_tick=log.append)): the
 * C API's attribute. What calls it may store anything, so a local list
 * holds objects from then on (ty_join); a parameter, whose guard promised
 * its element type, only if it holds objects already. */
static bool list_method_value(ctx *c, expr *e, const type *lt) {
  expr *o = e->u.sub.obj;
  if (lt->elts[0]->kind == TY_OBJ && !lt->elts[0]->cls) return true;
  if (o->kind != EX_LOCAL || o->u.local < c->in->fn->nparams) return false;
  target tg = {.local = o->u.local, .pos = o->pos};
  bind_target(c, &tg, ty_list(&ty_obj), e->pos);
  return true;
}

/* a.shape, a.ndim, a.size of an ndarray; any attribute of an object
 * (PyObject_GetAttr: a descriptor or __getattr__ may run Python code) */
static const type *type_attr(ctx *c, expr *e) {
  const type *ot = type_expr(c, e->u.sub.obj, false);
  if (ot->kind == TY_UNKNOWN) return &ty_unknown;
  if (ot->kind == TY_NONE && e->u.sub.obj->kind == EX_LOCAL && !c->strict)
    return &ty_unknown; /* `best = None` before a loop that binds an instance: "Cls | None" next pass */
  c->in->types.callee[e->id] = NULL;
  char kind;
  func *getter = ot->cls && ot->cls->slot ? classes_member(c->m, ot->cls, e->u.sub.attr, &kind) : NULL;
  if (getter && kind == 'p') { /* a property: its getter's kernel, called directly */
    inst *callee = direct_member_callee(c, e, (klass *)ot->cls, getter, 'p', 0, &ot, 1);
    if (callee) return direct_result(c, e, callee);
  }
  if (ot->kind == TY_OBJ && ot->cls) { /* an instance: its attribute as recorded (checked per read) */
    const type *at = classes_attr_type(ot->cls, e->u.sub.attr);
    generic_op(c);
    /* an int attribute is an int64, checked per read (dynac record names an attribute that held
       a bigger int, an LCG's state, an object: every read would deoptimise) */
    if (at && (at->kind == TY_FLOAT || at->kind == TY_INT || at->kind == TY_BOOL ||
               (at->kind == TY_OBJ && at->cls && at->cls->slot))) {
      if (at->cls) c->in->slots_used[at->cls->slot->index] = true;
      return at;
    }
    return at && list_attr_typed(c, e, at) ? at : &ty_obj;
  }
  if (ot->kind == TY_OBJ && numpy_float_constant(c, e)) { /* np.inf: checked per read */
    generic_op(c);
    return &ty_float;
  }
  if (ot->kind == TY_OBJ && !ot->or_none && !names_numpy(c->m, e->u.sub.obj)) {
    /* an object of no known class: a number if the module's classes agree (checked per read) */
    const type *at = c->in->attrs_as_objects ? NULL : classes_attr_type_any(c->m, e->u.sub.attr);
    generic_op(c);
    if (at) c->in->attrs_guessed = true;
    return at ? at : &ty_obj;
  }
  if (ot->kind == TY_OBJ) return generic_op(c);
  if (ot->kind == TY_LIST && list_method_value(c, e, ot)) return generic_op(c);
  bool nd_attr = !strcmp(e->u.sub.attr, "shape") || !strcmp(e->u.sub.attr, "ndim") ||
                 !strcmp(e->u.sub.attr, "size");
  if (ty_is_ndarray(ot) && !nd_attr) return generic_op(c); /* a.T, a.dtype: numpy's attribute */
  if (ot->kind != TY_BUF || ot->buf_kind != 'n' || !nd_attr) {
    type_fail(c, e->pos, arena_printf(c->m->a, "attribute .%s of a %s", e->u.sub.attr,
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
      type_fail(c, e->pos, "tuple index that is not a constant");
      return &ty_conflict;
    }
    int64_t k = neg ? -ix->u.un.a->u.i : ix->u.i;
    if (k < 0) k += ot->n;
    if (k < 0 || k >= ot->n) { type_fail(c, e->pos, "tuple index out of range"); return &ty_conflict; }
    return ot->elts[k];
  }
  c->in->types.callee[e->id] = NULL;
  if (ot->cls && generic_operand(it)) { /* an instance's __getitem__ */
    const type *a[2] = {ot, it};
    const type *t = type_special(c, e, (klass *)ot->cls, "__getitem__", a, 2, false);
    if (t) return t;
  }
  if (ot->kind == TY_OBJ && generic_operand(it)) return generic_op(c); /* PyObject_GetItem */
  if (ot->kind == TY_LIST && it->kind == TY_OBJ) { /* PyObject_GetItem: __index__ may run */
    c->in->containers = true;
    return generic_op(c);
  }
  if (ot->kind != TY_LIST && ot->kind != TY_BUF) {
    type_fail(c, e->pos, arena_printf(c->m->a, "indexing a %s", ty_python_name(c->m->a, ot)));
    return &ty_conflict;
  }
  if (ty_is_ndarray(ot)) { /* a view (a[1:-1, j], a row), an object (a[mask]), or an item */
    const type *v = type_array_view(c, e, ot);
    return v ? v : type_nd_index(c, e, ot, it);
  }
  if (ot->kind == TY_LIST && ot->elts[0]->kind == TY_UNKNOWN && c->strict) {
    type_fail(c, e->pos, "an element of an empty list nothing appends to (its type is not known)");
    return &ty_conflict;
  }
  if (it->kind != TY_INT && it->kind != TY_BOOL && !is_np_int(it)) {
    type_fail(c, e->pos, arena_printf(c->m->a, "index of type %s", ty_python_name(c->m->a, it)));
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

/* Does numpy pick a ufunc's float64 loop for a number of type t (float,
 * int64, int32: yes; bool, int8, int16, float32: a smaller loop)? `floaty`:
 * whatever integer loops the ufunc has, this argument picks float64. */
static bool ufunc_float64_arg(const type *t, bool *floaty) {
  if (t->kind == TY_FLOAT || (t->kind == TY_NP && t->fmt == 'd') || ty_may_be_np(t)) {
    *floaty = *floaty || t->kind != TY_NUM;
    return true;
  }
  return t->kind == TY_INT || t->kind == TY_NUM || (t->kind == TY_NP && (t->fmt == 'l' || t->fmt == 'i'));
}

const op_row *np_ufunc_row(module *m, const expr *e) {
  const char *fn = e->u.call.nkw ? NULL : numpy_callee(m, e);
  return fn ? ops_find(OPS_NP_UFUNC, fn, e->u.call.n - 1) : NULL;
}

const type *type_np_ufunc(ctx *c, expr *e, const type **at) {
  const op_row *op = np_ufunc_row(c->m, e);
  if (!op) return NULL;
  bool floaty = false;
  for (int i = 1; i < e->u.call.n; i++)
    if (!ufunc_float64_arg(at[i], &floaty)) return NULL;
  if (op->id == OPI_NP_UFUNC_INT && !floaty) return NULL; /* np.maximum(i, j): numpy's int64 loop */
  c->in->effectful = true; /* the global may be rebound to anything */
  return ty_np('d');
}

/* A call of a function of this module that runs in the interpreter (a
 * generator, a function with graph breaks or parameters kernels do not
 * take, or one whose specialisation for these arguments failed): through
 * the C API as CPython calls it (emit/calls.c: emit_object_call), its
 * arguments boxed, its result an object; Python code runs (an effect). Its
 * callers compile, where they failed with it before. */
static const type *interpreted_call(ctx *c, expr *e, const type **at) {
  for (int i = 0; i < e->u.call.n; i++)
    if (at[i]->kind != TY_UNKNOWN && !passable(at[i])) {
      type_fail(c, e->pos, arena_printf(c->m->a, "calls %s(), which runs in the interpreter, with a %s",
                                        e->u.call.fn->name, ty_python_name(c->m->a, at[i])));
      return &ty_conflict;
    }
  c->in->types.interpreted[e->id] = true;
  c->in->types.callee[e->id] = NULL;
  return generic_op(c);
}

/* A call of a function of this module: the callee's specialisation for the
 * argument types (made and typed now if new), a kernel-to-kernel call; a
 * function that runs in the interpreter: interpreted_call. */
static const type *type_module_call(ctx *c, expr *e, const type **at, bool unknown) {
  int n = e->u.call.n;
  func *f = e->u.call.fn; /* lowered by the IR phase, as every function of the module */
  if (f->breaks || f->not_compiled || !f->params_ok) return interpreted_call(c, e, at);
  if (n != f->nparams) {
    type_fail(c, e->pos, arena_printf(c->m->a, "call passes %d arguments; %s() takes %d", n,
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
        type_fail(c, e->u.call.args[i]->pos, arena_printf(c->m->a, "an empty list passed to %s() "
             "(no specialisation for a list whose element type is not known)", f->name));
      return c->strict ? &ty_conflict : &ty_unknown;
    }
  }
  inst *callee = get_inst(c->m, f, at);
  c->in->types.callee[e->id] = callee;
  if (!callee) { type_fail(c, e->pos, "too many specialisations of the callee"); return &ty_conflict; }
  if (!callee->ok && !callee->typing) return interpreted_call(c, e, at);
  c->in->types.interpreted[e->id] = false; /* a kernel call after all (a pass before saw the callee fail) */
  if (callee->effectful) c->in->effectful = true;
  if (callee->opaque_calls) c->in->opaque_calls = true;
  if (callee->generic) c->in->generic = true;
  if (callee->ret->kind == TY_UNKNOWN)
    return callee->typing ? &ty_unknown : &ty_none;
  if (callee->ret->kind == TY_LIST) builds_list(c, e->pos); /* a new reference */
  return callee->ret;
}

static const type *type_call(ctx *c, expr *e) {
  int n = e->u.call.n;
  const type *at[64];
  if (n > 64) { type_fail(c, e->pos, "too many arguments"); return &ty_conflict; }
  bool unknown = false;
  bool truth_arg = e->u.call.kind == CALLEE_BUILTIN && ops_call_is(e, OPI_BOOL);
  for (int i = 0; i < n; i++) {
    at[i] = type_expr(c, e->u.call.args[i], truth_arg);
    if (at[i]->kind == TY_UNKNOWN) unknown = true;
  }
  if (e->u.call.callee_slot) use_named_slot(c, e->u.call.callee_slot->index);
  if (e->u.call.nkw && !unknown && !function_via_api(c->in, e) && e->u.call.kind != CALLEE_VALUE &&
      !(e->u.call.kind == CALLEE_METHOD && (method_via_api(c->in, e) || method_devirtualised(c->in, e)))) {
    type_fail(c, e->pos, arena_printf(c->m->a, "keyword arguments to %s()", e->u.call.name));
    return &ty_conflict;
  }
  if (e->u.call.callee_slot && e->u.call.callee_slot->kind == SLOT_MATH_ATTR && e->u.call.callee_slot->module_slot >= 0)
    use_named_slot(c, e->u.call.callee_slot->module_slot);
  const char *name = e->u.call.name;
  if (e->u.call.kind == CALLEE_OPAQUE) {
    c->in->effectful = true;
    c->in->opaque_calls = true;
    for (int i = 0; i < n; i++)
      if (at[i]->kind != TY_UNKNOWN && (!ty_is_scalar(at[i]) || at[i]->kind == TY_NUM)) {
        type_fail(c, e->pos, arena_printf(c->m->a, "allow_in_graph call %s() with a %s argument",
                                     name, ty_python_name(c->m->a, at[i])));
        return &ty_conflict;
      }
    return e->u.call.ret ? e->u.call.ret : &ty_none;
  }
  if (e->u.call.kind == CALLEE_MODULE_FN) return type_module_call(c, e, at, unknown);
  if (unknown) return &ty_unknown;
  if (e->u.call.kind == CALLEE_METHOD) return type_method(c, e, at);
  if (e->u.call.kind == CALLEE_VALUE) {
    if (at[0]->kind != TY_OBJ) {
      type_fail(c, e->pos, arena_printf(c->m->a, "calling a %s", ty_python_name(c->m->a, at[0])));
      return &ty_conflict;
    }
    const type *uf = type_np_ufunc(c, e, at); /* sqrt(x) imported from numpy */
    if (uf) return uf;
    const type *t = type_api_call(c, e, at);
    const type *made = t->kind == TY_OBJ ? type_made_array(c, e, at) : NULL; /* np.zeros(...) */
    if (made) return made;
    klass *k = constructed_class(c, e);
    if (k && t->kind == TY_OBJ && !named_tuple_class(k)) return constructed_init(c, e, at, k);
    if (!k && t->kind == TY_OBJ) type_polymorphic_construction(c, e, at); /* kind(t, *extra) */
    return k && t->kind == TY_OBJ ? &k->inst : t;
  }
  const op_row *op = e->u.call.op;
  c->in->types.callee[e->id] = NULL;
  if (e->u.call.kind == CALLEE_BUILTIN && op && n == 1 && at[0]->cls && !e->u.call.nkw &&
      (op->id == OPI_LEN || op->id == OPI_ABS)) {
    const type *t = type_special_builtin(c, e, at);
    if (t) return t;
  }
  if (e->u.call.kind == CALLEE_BUILTIN && op && op->id == OPI_SUM && n == 1 && !e->u.call.nkw &&
      array_sum_arg(c->m, c->in, e->u.call.args[0])) {
    generic_op(c); /* (where numpy would warn: its operations and the builtin, in the kernel) */
    return &ty_num_np; /* sum(a) of float64 items: 0 + a[0] + a[1] + ... as numpy.float64 (or 0) */
  }
  if (e->u.call.kind == CALLEE_BUILTIN && op &&
      (op->id == OPI_LEN || (op->id == OPI_SUM && !function_via_api(c->in, e))))
    return type_len_sum(c, e, at[0]);
  if (e->u.call.kind == CALLEE_BUILTIN && op && (op->id == OPI_MIN || op->id == OPI_MAX) && n == 1 &&
      !function_via_api(c->in, e)) { /* min(xs): an element (ValueError when empty: the interpreter's) */
    if (min_max_of_list(c->in, e)) return ty_elem(at[0]);
    type_fail(c, e->pos, arena_printf(c->m->a, "%s() of a %s", name, ty_python_name(c->m->a, at[0])));
    return &ty_conflict;
  }
  if (function_via_api(c->in, e)) { /* abs(obj), math.sqrt(obj), ...: the function itself */
    for (int i = 0; i < n; i++)
      if (!passable(at[i])) {
        type_fail(c, e->pos, arena_printf(c->m->a, "%s() of a %s", name, ty_python_name(c->m->a, at[i])));
        return &ty_conflict;
      }
    generic_op(c);
    return math_float_of_one(e) ? &ty_float : &ty_obj; /* math.log(obj): math's function returns a float */
  }
  for (int i = 0; i < n; i++)
    if (!ty_is_scalar(at[i]) || (at[i]->kind == TY_NP && e->u.call.kind == CALLEE_BUILTIN &&
                                 op && !np_builtin_ok(op, at[i]))) {
      type_fail(c, e->pos, arena_printf(c->m->a, "%s() of a %s", name, ty_python_name(c->m->a, at[i])));
      return &ty_conflict;
    }
  if (e->u.call.kind == CALLEE_MATH) {
    if (!op) {
      type_fail(c, e->pos, arena_printf(c->m->a, "math.%s() with %d arguments", name, n));
      return &ty_conflict;
    }
    if (op->id == OPI_MATH_TO_INT && !op->helper && at[0]->kind == TY_NP && at[0]->fmt != 'd') {
      type_fail(c, e->pos, arena_printf(c->m->a, "math.trunc() of a %s raises TypeError (no __trunc__)",
                                   ty_python_name(c->m->a, at[0])));
      return &ty_conflict;
    }
    if (op->id == OPI_MATH_TO_INT) return &ty_int;
    if (op->result == 'i' && !op->native)
      for (int i = 0; i < n; i++)
        if (at[i]->kind == TY_FLOAT || (at[i]->kind == TY_NP && np_is_float(at[i]->fmt))) {
          type_fail(c, e->pos, arena_printf(c->m->a, "math.%s() of a float raises TypeError", name));
          return &ty_conflict;
        }
    return ops_result_type(op);
  }
  if (!op) {
    type_fail(c, e->pos, arena_printf(c->m->a, "%s() with %d arguments", name, n));
    return &ty_conflict;
  }
  /* builtins: the table's result type, or their own rule */
  if (ops_result_type(op)) return ops_result_type(op);
  switch (op->id) {
  case OPI_ABS: return at[0]->kind == TY_NP ? at[0] : num_promote(at[0]);
  case OPI_ROUND_DIGITS:
    if (at[1]->kind == TY_FLOAT) { type_fail(c, e->pos, "round() with a float ndigits"); return &ty_conflict; }
    return num_promote(at[0]);
  case OPI_DIVMOD: {
    const type *t = binop_type(c, e, OP_FLOORDIV, at[0], at[1]);
    const type *el[2] = {t, t};
    return ty_tuple(c->m->a, 2, el);
  }
  case OPI_MIN: case OPI_MAX: {
    const type *j = at[0];
    for (int i = 1; i < n; i++) j = ty_join(j, at[i]);
    if (j->kind == TY_NUM) return j; /* the winner's own type, known at run time */
    for (int i = 1; i < n; i++)
      if (at[i] != at[0]) {
        type_fail(c, e->pos, arena_printf(c->m->a, "%s() of %s and %s: the result's type depends on "
             "the values", name, ty_python_name(c->m->a, at[0]), ty_python_name(c->m->a, at[i])));
        return &ty_conflict;
      }
    return at[0];
  }
  default:
    type_fail(c, e->pos, arena_printf(c->m->a, "%s() with %d arguments", name, n));
    return &ty_conflict;
  }
}

/* -x, +x, ~x of a numpy scalar: its own dtype (~ of a bool_ is `not`). */
static const type *np_unary_type(ctx *c, expr *e, const type *a) {
  bool bad = e->u.un.op == UN_INVERT ? np_is_float(a->fmt) : a->fmt == '?' && e->u.un.op == UN_NEG;
  if (bad) {
    type_fail(c, e->pos, arena_printf(c->m->a, "unary operator on a %s", ty_python_name(c->m->a, a)));
    return &ty_conflict;
  }
  return a;
}

/* The type of a value that is one of a or b (a conditional expression,
 * and/or by value): their common scalar type, int | float, their common
 * list or tuple type when `typed_containers`, or else an object (each boxed,
 * as the interpreter holds them) when both can be boxed. */
static const type *by_value_join(const type *a, const type *b, bool typed_containers) {
  const type *t = ty_join(a, b);
  if (t->kind == TY_NUM || t->or_none || (a == b && (ty_is_scalar(a) || a->kind == TY_NONE))) return t;
  if (typed_containers && t->kind != TY_OBJ && t->kind != TY_CONFLICT) return t; /* a list, a tuple */
  if (boxable(a) && boxable(b)) return &ty_obj;
  return &ty_conflict;
}

/* a < b < c: bool, or numpy.bool_ when numpy scalars are compared. A chain
 * mixing both gives either, by value: only its truth is compiled. */
/* x is None / x is not None: decided by x's type (folded) unless x is an
 * object, whose identity is compared when it runs. */
static const type *type_is_none(ctx *c, expr *e) {
  c->in->types.folded[e->id] = -1;
  if (e->u.cmp.n != 2) {
    type_fail(c, e->pos, "a comparison chain with 'is'");
    return &ty_conflict;
  }
  expr *x = e->u.cmp.operands[e->u.cmp.operands[0]->kind == EX_NONE ? 1 : 0];
  const type *t = type_expr(c, x, false);
  if (t->kind == TY_UNKNOWN) { c->in->types.folded[e->id] = -2; return &ty_unknown; } /* not yet known */
  if (t->kind != TY_OBJ) c->in->types.folded[e->id] = (t->kind == TY_NONE) == (e->u.cmp.ops[0] == CMP_IS);
  return &ty_bool;
}

/* Is t a tuple holding a float? Boxed for a comparison, its float is a new
 * object, where CPython compares the very objects the tuple was made of,
 * identity first: a NaN equals itself there and not here. */
static bool tuple_holds_float(const type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->n; i++) {
    const type *x = t->elts[i];
    if (x->kind == TY_FLOAT || x->kind == TY_NUM || (x->kind == TY_NP && np_is_float(x->fmt)) ||
        tuple_holds_float(x))
      return true;
  }
  return false;
}

/* A comparison (==, <, in, ...) of a tuple holding a float with an object:
 * a failure (see tuple_holds_float). */
static const type *float_tuple_compared(ctx *c, expr *e, const type *t) {
  type_fail(c, e->pos, arena_printf(c->m->a, "comparison of an object with a %s (a float boxed anew is not the "
       "object CPython compares: a NaN would differ)", ty_python_name(c->m->a, t)));
  return &ty_conflict;
}

/* Is a value of type t an object whose identity Python code can see? True
 * and False are singletons, boxed as themselves; a boxed number is new. */
static bool has_identity(const type *t) {
  return t->kind == TY_OBJ || t->kind == TY_LIST || t->kind == TY_NONE || t->kind == TY_BOOL;
}

/* x in c (PySequence_Contains: __contains__, __iter__ or __eq__ may run), or
 * x is y of two objects (their identity); never chained (ir/expr.c). */
static const type *type_membership(ctx *c, expr *e) {
  const type *a = type_expr(c, e->u.cmp.operands[0], false);
  const type *b = type_expr(c, e->u.cmp.operands[1], false);
  if (a->kind == TY_UNKNOWN || b->kind == TY_UNKNOWN) return &ty_unknown;
  bool in = e->u.cmp.ops[0] == CMP_IN || e->u.cmp.ops[0] == CMP_NOT_IN;
  if (in && (tuple_holds_float(a) || tuple_holds_float(b)))
    return float_tuple_compared(c, e, tuple_holds_float(a) ? a : b);
  bool ok = in ? passable(a) && passable(b)
               : has_identity(a) && has_identity(b);
  if (!ok) {
    type_fail(c, e->pos, arena_printf(c->m->a, "'%s' of a %s and a %s (%s)", cmpop_spelling[e->u.cmp.ops[0]],
         ty_python_name(c->m->a, a), ty_python_name(c->m->a, b),
         in ? "not values the C API takes" : "the identity of a number is CPython's own business"));
    return &ty_conflict;
  }
  if (in) generic_op(c);
  else c->in->generic = true;
  return &ty_bool;
}

/* Is `e` a chain (a < b <= c) that compares objects, or uses is / in? */
bool is_object_chain(const inst *in, const expr *e) {
  if (e->kind != EX_COMPARE || e->u.cmp.n <= 2) return false;
  for (int i = 0; i < e->u.cmp.n; i++) {
    int k = ty_of(in, e->u.cmp.operands[i])->kind;
    if (k == TY_OBJ || k == TY_NONE || k == TY_LIST || k == TY_TUPLE) return true;
  }
  for (int i = 0; i + 1 < e->u.cmp.n; i++)
    if (e->u.cmp.ops[i] >= CMP_IS) return true;
  return false;
}

/* A chain of comparisons with objects, is or in (emit's object chain): each
 * operand boxed, each comparison the C API's; the value is the first false
 * result or the last one (an object), or only its truth. */
static const type *type_object_chain(ctx *c, expr *e, bool truth) {
  for (int i = 0; i < e->u.cmp.n; i++) {
    const type *a = TY(e->u.cmp.operands[i]); /* typed by type_compare */
    if (a->kind == TY_UNKNOWN) return &ty_unknown;
    if (maybe_none_operand(c, e, e->u.cmp.operands[i])) return &ty_conflict;
    if (!boxable(a)) {
      type_fail(c, e->pos, arena_printf(c->m->a, "a comparison chain with a %s", ty_python_name(c->m->a, a)));
      return &ty_conflict;
    }
    if (tuple_holds_float(a)) return float_tuple_compared(c, e, a);
  }
  generic_op(c);
  return truth ? &ty_bool : &ty_obj;
}

static const type *type_compare(ctx *c, expr *e, bool truth) {
  c->in->types.callee[e->id] = NULL;
  if (e->u.cmp.n == 2 && e->u.cmp.ops[0] <= CMP_NE) { /* an instance's __lt__, ... */
    const type *l = type_expr(c, e->u.cmp.operands[0], false), *r = type_expr(c, e->u.cmp.operands[1], false);
    const type *t = l->cls || r->cls ? type_rich_compare(c, e, l, r) : NULL;
    if (t) return t;
  }
  if (e->u.cmp.n > 2) { /* the operands' types decide which chain */
    for (int i = 0; i < e->u.cmp.n; i++) type_expr(c, e->u.cmp.operands[i], false);
    if (is_object_chain(c->in, e)) return type_object_chain(c, e, truth);
  }
  if (e->u.cmp.ops[0] >= CMP_IN) return type_membership(c, e);
  for (int i = 0; i + 1 < e->u.cmp.n; i++)
    if (e->u.cmp.ops[i] == CMP_IS || e->u.cmp.ops[i] == CMP_IS_NOT) return type_is_none(c, e);
  const type *res = NULL;
  bool mixed = false;
  const type *prev = NULL;
  for (int i = 0; i < e->u.cmp.n; i++) {
    const type *a = type_expr(c, e->u.cmp.operands[i], false);
    if (a->kind == TY_UNKNOWN) return &ty_unknown;
    if (maybe_none_operand(c, e, e->u.cmp.operands[i])) return &ty_conflict;
    bool whole = ty_is_ndarray(a) || (prev && ty_is_ndarray(prev)); /* numpy's elementwise comparison */
    if (a->kind == TY_OBJ || (prev && prev->kind == TY_OBJ) || whole) { /* PyObject_RichCompare (never a
                                                                            chain: type_object_chain) */
      const type *other = a->kind == TY_OBJ && prev ? prev : a;
      const type *first = prev ? prev : a;
      if ((!generic_operand(a) && !(whole && a->kind == TY_NP)) ||
          (!generic_operand(first) && !(whole && first->kind == TY_NP))) {
        type_fail(c, e->pos, arena_printf(c->m->a, "comparison of an object with a %s",
             ty_python_name(c->m->a, other)));
        return &ty_conflict;
      }
      if (tuple_holds_float(other)) return float_tuple_compared(c, e, other);
      if (prev) return generic_op(c);
      prev = a;
      continue;
    }
    if (!ty_is_scalar(a)) {
      type_fail(c, e->pos, arena_printf(c->m->a, "comparison of a %s", ty_python_name(c->m->a, a)));
      return &ty_conflict;
    }
    if (prev) {
      const type *r = &ty_bool;
      bool maybe_np = ty_may_be_np(prev) || ty_may_be_np(a); /* bool or numpy.bool_ at run time */
      if (prev->kind == TY_NP || a->kind == TY_NP) {
        const type *np = prev->kind == TY_NP ? prev : a;
        if (maybe_np ? np->fmt != 'd' && np->fmt != 'l' : !np_promote(np_dtype_of(prev), np_dtype_of(a))) {
          type_fail(c, e->pos, "comparison of a numpy scalar with an int | float value");
          return &ty_conflict;
        }
        r = ty_np('?');
      } else if (maybe_np) mixed = true;
      if (res && r != res) mixed = true;
      res = r;
    }
    prev = a;
  }
  if (mixed && !truth) {
    type_fail(c, e->pos, "a comparison giving bool or numpy.bool_ by value (which one depends on the "
              "operands' types at run time: convert with float())");
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
  if (e->kind == EX_BOOLOP) { /* `lo is not None and x < lo` with lo None: false */
    int stop = e->u.boolop.is_and ? 0 : 1; /* the truth that ends an and (or) */
    int l = constant_truth(in, e->u.boolop.l);
    if (l == -2 || l == stop) return l; /* the right operand never runs (boolop_right_dead) */
    int r = constant_truth(in, e->u.boolop.r);
    if (r == -2 || r == stop) return r; /* whichever operand gives the value, its truth is r's */
    return l == -1 ? -1 : r;
  }
  return -1;
}

/* Is and/or e's right operand never run for these argument types: its
 * left one's truth decided by them (`lo is not None and x < lo` with lo
 * None; -2: not known yet)? It is then neither typed nor compiled, as a
 * branch `if x is None:` rules out. */
bool boolop_right_dead(const inst *in, const expr *e) {
  int l = constant_truth(in, e->u.boolop.l);
  return l == -2 || l == (e->u.boolop.is_and ? 0 : 1);
}

/* Is e an and/or testing an object's truth (__bool__ or __len__ may run)?
 * `x = not (t or u)` is UNARY_NOT of the and/or's value in CPython 3.11, so
 * a true t is tested twice; in a condition (`if not (t or u):`) its jumps
 * test t once. Such an and/or under `not`s by value keeps its value form. */
static bool boolop_tests_object(ctx *c, const expr *e) {
  if (e->kind != EX_BOOLOP) return false;
  const expr *ops[2] = {e->u.boolop.l, e->u.boolop.r};
  for (int i = 0; i < 2; i++)
    if (ops[i]->kind == EX_BOOLOP ? boolop_tests_object(c, ops[i]) : TY(ops[i])->kind == TY_OBJ) return true;
  return false;
}

/* Types `e` (and records it in e->ty). `truth`: only its truth value is used. */
const type *type_expr(ctx *c, expr *e, bool truth) {
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
      type_fail(c, e->pos, arena_printf(c->m->a, "'%s' was bound by code that runs in the "
           "interpreter; its type is not known here", c->in->fn->locals[e->u.local]));
      t = &ty_conflict;
      break;
    }
    t = c->in->local_ty[e->u.local];
    if (t->num_or_none && c->in->fn->not_none_numbers[e->id]) {
      t = t->num_or_none; /* known not None here (narrow.c): unboxed (emit: dynac_held_float, dynac_held_int) */
    } else if (c->in->fn->not_none[e->id]) { /* known not None here (narrow.c) */
      if (t->or_none) {
        t = &t->or_none->inst;
        if (t->cls->slot) c->in->slots_used[t->cls->slot->index] = true;
      } else if (t->kind == TY_NONE && !c->strict) {
        t = &ty_unknown; /* only None so far: the instance assigned later in a loop comes next pass */
      }
    }
    if (t->num_or_none) t = &ty_obj; /* may be None here: the object (maybe_none_operand) */
    if (t->kind == TY_UNKNOWN && c->strict) {
      type_fail(c, e->pos, arena_printf(c->m->a, "local '%s' is read but never assigned a value",
                                   c->in->fn->locals[e->u.local]));
      t = &ty_conflict;
    }
    break;
  case EX_GLOBAL:
    use_named_slot(c, e->u.global->index);
    if (e->u.global->kind == SLOT_MATH_ATTR && e->u.global->module_slot >= 0)
      use_named_slot(c, e->u.global->module_slot);
    t = e->u.global->ty;
    break;
  case EX_BINOP: {
    const type *l = type_expr(c, e->u.bin.l, false), *r = type_expr(c, e->u.bin.r, false);
    if (maybe_none_operand(c, e, e->u.bin.l) || maybe_none_operand(c, e, e->u.bin.r)) { t = &ty_conflict; break; }
    t = l->cls || r->cls ? type_operator(c, e, l, r) : NULL;
    if (!t) t = binop_type(c, e, e->u.bin.op, l, r); /* x op= v of an object: __iadd__, ... (emit) */
    break;
  }
  case EX_UNARY: {
    const type *a = type_expr(c, e->u.un.a, false);
    if (a->kind == TY_UNKNOWN) break;
    if (maybe_none_operand(c, e, e->u.un.a)) { t = &ty_conflict; break; }
    if (a->kind == TY_NP) { t = np_unary_type(c, e, a); break; }
    static const char *const method[] = {"__neg__", "__pos__", "__invert__"};
    c->in->types.callee[e->id] = NULL;
    if (a->cls && (t = type_special(c, e, (klass *)a->cls, method[e->u.un.op], &a, 1, false))) break;
    if (a->kind == TY_OBJ || ty_is_ndarray(a)) { t = generic_op(c); break; }
    if (!ty_is_number(a) || (a->kind == TY_FLOAT && e->u.un.op == UN_INVERT)) {
      type_fail(c, e->pos, arena_printf(c->m->a, "unary operator on a %s", ty_python_name(c->m->a, a)));
      t = &ty_conflict;
      break;
    }
    t = e->u.un.op == UN_INVERT ? &ty_int : num_promote(a);
    break;
  }
  case EX_NOT: {
    type_expr(c, e->u.not_arg, truth || e->u.not_arg->kind != EX_NOT); /* `not not x`: x's value */
    if (!truth && boolop_tests_object(c, e->u.not_arg)) type_expr(c, e->u.not_arg, false);
    t = &ty_bool;
    break;
  }
  case EX_COMPARE: t = type_compare(c, e, truth); break;
  case EX_BOOLOP: {
    const type *l = type_expr(c, e->u.boolop.l, truth);
    if (boolop_right_dead(c->in, e)) { /* its value is the left's (a bool), the right's never made */
      t = truth ? &ty_bool : l;
      break;
    }
    const type *r = type_expr(c, e->u.boolop.r, truth);
    if (truth) { t = &ty_bool; break; }
    if (l->kind == TY_UNKNOWN || r->kind == TY_UNKNOWN) break;
    t = by_value_join(ty_unrec(l), ty_unrec(r), false); /* an operand's value: the instance itself */
    if (t->kind == TY_OBJ) generic_op(c); /* the left operand's __bool__ may run */
    if (t->kind == TY_CONFLICT)
      type_fail(c, e->pos, arena_printf(c->m->a, "'%s' of %s and %s by value",
           e->u.boolop.is_and ? "and" : "or", ty_python_name(c->m->a, l), ty_python_name(c->m->a, r)));
    break;
  }
  case EX_IFEXP: {
    type_expr(c, e->u.ifexp.cond, true);
    int k = constant_truth(c->in, e->u.ifexp.cond); /* `hi if hi is not None else 0.0`: hi None rules one out */
    if (k == -2) break;
    const type *a = k == 0 ? NULL : type_expr(c, e->u.ifexp.then, truth);
    const type *b = k == 1 ? NULL : type_expr(c, e->u.ifexp.orelse, truth);
    if (!a) a = b; /* the branch that never runs is neither typed nor compiled (emit_ifexp) */
    if (!b) b = a;
    if (truth && ty_is_scalar(a) && ty_is_scalar(b)) { t = &ty_bool; break; }
    a = ty_unrec(a), b = ty_unrec(b); /* either branch's value is the instance itself */
    if (a->kind == TY_UNKNOWN || b->kind == TY_UNKNOWN) { t = ty_join(a, b); break; }
    t = by_value_join(a, b, true);
    if (t->kind == TY_OBJ && !t->or_none) c->in->generic = true;
    if (t->kind == TY_CONFLICT)
      type_fail(c, e->pos, arena_printf(c->m->a, "conditional expression gives %s or %s",
                                   ty_python_name(c->m->a, a), ty_python_name(c->m->a, b)));
    break;
  }
  case EX_TUPLE: {
    const type *el[64];
    if (e->u.tuple.n > 64) { type_fail(c, e->pos, "tuple too long"); t = &ty_conflict; break; }
    bool unknown = false, objects = false;
    for (int i = 0; i < e->u.tuple.n; i++) {
      el[i] = type_expr(c, e->u.tuple.elts[i], false);
      if (el[i]->kind == TY_UNKNOWN) unknown = true;
      if (ty_holds_object(el[i]) || el[i]->kind == TY_NONE) objects = true;
      if (el[i]->kind == TY_CONFLICT) {
        type_fail(c, e->pos, "tuple element of an unsupported type");
        unknown = true;
      }
    }
    if (unknown) { t = &ty_unknown; break; }
    for (int i = 0; i < e->u.tuple.n && e != c->unpacked; i++) /* unpacked: each list goes to its
                                                                      target, typed there as `xs = []` is */
      if (el[i]->kind == TY_LIST && el[i]->elts[0]->kind == TY_UNKNOWN)
        objects = true; /* a list no element was ever stored in: the list object, in a tuple object */
    if (e->u.tuple.n == 0) objects = true; /* () is the empty tuple object */
    if (objects && e != c->unpacked) { /* a tuple object (PyTuple_New), its elements boxed */
      c->in->generic = true;
      t = &ty_obj;
      break;
    }
    for (int i = 0; i < e->u.tuple.n; i++)
      if (el[i]->kind == TY_NONE) type_fail(c, e->pos, "tuple element of an unsupported type");
    t = ty_tuple(c->m->a, e->u.tuple.n, el);
    break;
  }
  case EX_CALL: t = type_call(c, e); break;
  case EX_SUBSCRIPT: t = type_subscript(c, e); break;
  case EX_ATTR: t = type_attr(c, e); break;
  case EX_LIST: t = type_list_display(c, e); break;
  case EX_LISTCOMP: t = type_list_comprehension(c, e); break;
  case EX_SLICE: t = type_slice(c, e); break;
  case EX_CONST: t = &ty_obj; break; /* made once, before the kernel runs it: no effect */
  case EX_FSTRING: /* a new str: __format__, __str__ or __repr__ of its values may run */
  case EX_UNPACKED: /* a new list, tuple or set: the starred values' __iter__ run */
  case EX_DICT: case EX_SET: { /* a new dict or set: __hash__ and __eq__ of its keys may run */
    bool unknown = false, bad = false;
    for (int i = 0; i < e->u.tuple.n; i++) {
      const type *x = type_expr(c, e->u.tuple.elts[i], false);
      if (x->kind == TY_UNKNOWN) unknown = true;
      else if (!passable(x)) {
        type_fail(c, e->pos, arena_printf(c->m->a, "a %s holding a %s", e->kind == EX_DICT ?
             "dict display" : e->kind == EX_SET ? "set display" : e->kind == EX_UNPACKED ? "starred display"
             : "f-string", ty_python_name(c->m->a, x)));
        bad = true;
      }
    }
    t = bad ? &ty_conflict : unknown ? &ty_unknown : generic_op(c);
    break;
  }
  case EX_FUNCTION: { /* MAKE_FUNCTION runs no Python code (its defaults and annotations may) */
    int n = e->u.mkfn.ndefaults + e->u.mkfn.nkwdefaults + e->u.mkfn.nannotations + e->u.mkfn.ncells;
    bool unknown = false, bad = false;
    for (int i = 0; i < n; i++) {
      const type *x = type_expr(c, e->u.mkfn.args[i], false);
      if (x->kind == TY_UNKNOWN) unknown = true;
      else if (!passable(x)) {
        type_fail(c, e->u.mkfn.args[i]->pos, arena_printf(c->m->a, "a %s %s a nested function",
             ty_python_name(c->m->a, x), i < n - e->u.mkfn.ncells ? "as a default or annotation of"
             : "captured by"));
        bad = true;
      }
    }
    if (e->u.mkfn.iterable) { /* a generator expression's GET_ITER: __iter__ may run */
      const type *x = type_expr(c, e->u.mkfn.iterable, false);
      if (x->kind == TY_UNKNOWN) unknown = true;
      else if (!passable(x)) {
        type_fail(c, e->u.mkfn.iterable->pos, arena_printf(c->m->a, "a generator expression over a %s",
             ty_python_name(c->m->a, x)));
        bad = true;
      }
      if (!bad && !unknown) generic_op(c);
    }
    c->in->generic = true;
    t = bad ? &ty_conflict : unknown ? &ty_unknown : &ty_obj;
    break;
  }
  case EX_FREE: /* a cell's content: no effect */
  case EX_BUILD_CLASS: /* a dict lookup in the builtins: no effect */
    c->in->generic = true;
    t = &ty_obj;
    break;
  case EX_NAME: /* a dict lookup (str keys run no Python code): no effect */
    use_named_slot(c, e->u.global->index);
    c->in->generic = true;
    t = &ty_obj;
    break;
  }
  if (ty_is_container(t)) c->in->containers = true;
  if (t->kind == TY_OBJ && c->in->fn->partial) /* region kernels take and give numbers */
    type_fail(c, e->pos, "an object in a function with graph breaks (its compiled regions pass "
         "numbers, lists and buffers only)");
  if (t->kind == TY_TUPLE && ty_holds_object(t) && e != c->unpacked) {
    type_fail(c, e->pos, "a tuple holding objects");
    t = &ty_conflict;
  }
  if (truth && t->kind == TY_TUPLE) type_fail(c, e->pos, "truth value of a tuple");
  if (truth && t->kind == TY_OBJ) generic_op(c); /* __bool__ or __len__ may run */
  if (truth && t->kind == TY_BUF && t->buf_kind == 'n')
    type_fail(c, e->pos, "truth value of an ndarray (numpy raises for more than one element)");
  if (e->guard) use_named_slot(c, e->guard->index);
  c->in->types.ty[e->id] = t;
  return t;
}

/* obj.name = value (PyObject_SetAttr) or obj[key] = value
 * (PyObject_SetItem) into an object: the value boxed. */
static void bind_object_store(ctx *c, target *tg, const type *t, srcpos pos) {
  if (!passable(t)) {
    type_fail(c, pos, arena_printf(c->m->a, "storing a %s into an object", ty_python_name(c->m->a, t)));
    return;
  }
  const type *ot = tg->sub->kind == EX_ATTR ? TY(tg->sub->u.sub.obj) : NULL;
  func *setter = ot && ot->cls && ot->cls->slot ? classes_setter(c->m, ot->cls, tg->sub->u.sub.attr) : NULL;
  if (setter) { /* obj.p = v of a property: its setter's kernel, called directly */
    const type *a[2] = {ot, t};
    inst *callee = direct_member_callee(c, tg->sub, (klass *)ot->cls, setter, 'P', 0, a, 2);
    if (callee && (callee->ret->kind == TY_UNKNOWN || callee->ret->kind == TY_NONE)) return;
    c->in->types.callee[tg->sub->id] = NULL; /* a setter returning a value: CPython's setattr drops it */
  }
  bool generic, unknown;
  if (tg->sub->kind == EX_SLICE) { /* obj[lo:hi:step] = value: its bounds typed as a slice's */
    if (!type_slice_parts(c, tg->sub, &generic, &unknown)) return;
  } else if (tg->sub->kind == EX_SUBSCRIPT && !passable(TY(tg->sub->u.sub.index))) {
    type_fail(c, pos, arena_printf(c->m->a, "an object's item with a %s key",
         ty_python_name(c->m->a, TY(tg->sub->u.sub.index))));
    return;
  }
  generic_op(c);
}

/* a[1:-1] = v, a[i, :] = v, a[mask] = v of an ndarray: PyObject_SetItem
 * (numpy casts and broadcasts v, and copies first where the two overlap). */
static void bind_array_store(ctx *c, target *tg, const type *t, srcpos pos) {
  if (!passable(t) && t->kind != TY_NP) {
    type_fail(c, pos, arena_printf(c->m->a, "storing a %s into an ndarray", ty_python_name(c->m->a, t)));
    return;
  }
  if (tg->sub->kind == EX_SLICE) {
    bool generic, unknown;
    if (!type_slice_parts(c, tg->sub, &generic, &unknown)) return;
  }
  generic_op(c);
}

/* del obj.name / obj[key] / obj[lo:hi] of any value the C API can take
 * (PyObject_DelAttr, PyObject_DelItem: CPython's exceptions, e.g. a
 * tuple's TypeError); a list keeps its element type. */
void type_delete(ctx *c, expr *place) {
  if (place->kind == EX_LOCAL) { /* DELETE_FAST: an object's reference dropped (__del__ may run) */
    const type *t = type_expr(c, place, false);
    if (t->kind == TY_OBJ || t->kind == TY_LIST) generic_op(c); /* a list: its items may go too */
    else if (t->kind != TY_INT && t->kind != TY_FLOAT && t->kind != TY_BOOL && t->kind != TY_NONE &&
             t->kind != TY_UNKNOWN && t->kind != TY_CONFLICT)
      type_fail(c, place->pos, arena_printf(c->m->a, "del of a local holding a %s", ty_python_name(c->m->a, t)));
    return;
  }
  if (is_name_place(place)) { /* del of a global or nonlocal (DELETE_GLOBAL, DELETE_DEREF) */
    if (place->kind == EX_NAME) use_named_slot(c, place->u.global->index);
    c->in->types.ty[place->id] = &ty_obj;
    generic_op(c);
    return;
  }
  bool generic, unknown = false;
  const type *ot = type_expr(c, place->u.sub.obj, false);
  if (place->kind == EX_SLICE) {
    if (!type_slice_parts(c, place, &generic, &unknown)) return;
  } else if (place->kind == EX_SUBSCRIPT) {
    const type *kt = type_expr(c, place->u.sub.index, false);
    unknown = kt->kind == TY_UNKNOWN;
    if (!unknown && !passable(kt)) {
      type_fail(c, place->pos, arena_printf(c->m->a, "del of an item with a %s key", ty_python_name(c->m->a, kt)));
      return;
    }
  }
  if (unknown || ot->kind == TY_UNKNOWN) return;
  if (!passable(ot)) {
    type_fail(c, place->pos, arena_printf(c->m->a, "del of %s of a %s", place->kind == EX_ATTR ? "an attribute"
         : "an item", ty_python_name(c->m->a, ot)));
    return;
  }
  generic_op(c);
}

void bind_target(ctx *c, target *tg, const type *t, srcpos pos) {
  if (tg->sub && is_name_place(tg->sub)) { /* NAME = value of a global or nonlocal (STORE_GLOBAL,
                                               STORE_DEREF): boxed */
    bool global = tg->sub->kind == EX_NAME;
    if (global) use_named_slot(c, tg->sub->u.global->index);
    c->in->types.ty[tg->sub->id] = &ty_obj;
    if (t->kind == TY_UNKNOWN) return;
    if (!passable(t)) {
      type_fail(c, pos, arena_printf(c->m->a, "storing a %s into %s '%s'", ty_python_name(c->m->a, t),
                                     global ? "global" : "nonlocal", global ? tg->sub->u.global->name
                                     : c->in->fn->freevars[tg->sub->u.local]));
      return;
    }
    generic_op(c); /* the old value's __del__ may run */
    return;
  }
  if (tg->sub && tg->sub->kind == EX_ATTR) { /* obj.name = value */
    const type *ot = type_expr(c, tg->sub->u.sub.obj, false);
    if (ot->kind == TY_UNKNOWN || t->kind == TY_UNKNOWN) return;
    if (ot->kind != TY_OBJ) {
      type_fail(c, pos, arena_printf(c->m->a, "attribute store into a %s", ty_python_name(c->m->a, ot)));
      return;
    }
    bind_object_store(c, tg, t, pos);
    return;
  }
  if (tg->sub && tg->sub->kind == EX_SLICE) { /* obj[lo:hi:step] = value: PyObject_SetItem */
    const type *ot = type_expr(c, tg->sub->u.slice.obj, false);
    if (ot->kind == TY_UNKNOWN || t->kind == TY_UNKNOWN) return;
    if (ot->kind == TY_LIST && ty_join(ot, t) != ot) { /* the list's element type stays what it is */
      type_fail(c, pos, arena_printf(c->m->a, "assignment of a %s to a slice of a %s (only a list of the "
           "same type)", ty_python_name(c->m->a, t), ty_python_name(c->m->a, ot)));
      return;
    }
    if (ty_is_ndarray(ot)) { bind_array_store(c, tg, t, pos); return; }
    if (ot->kind != TY_OBJ && ot->kind != TY_LIST) {
      type_fail(c, pos, arena_printf(c->m->a, "assignment to a slice of a %s", ty_python_name(c->m->a, ot)));
      return;
    }
    bind_object_store(c, tg, t, pos);
    return;
  }
  if (tg->sub && ty_is_ndarray(type_expr(c, tg->sub->u.sub.obj, false))) { /* a[1:-1, j] = v: numpy's setitem */
    const type *it = type_expr(c, tg->sub->u.sub.index, false);
    if (it->kind == TY_UNKNOWN || t->kind == TY_UNKNOWN) return;
    if (array_object_place(c->in, tg->sub)) { bind_array_store(c, tg, t, pos); return; }
  }
  if (tg->sub) { /* obj[index] = value: an element store */
    const type *et = type_expr(c, tg->sub, false);
    const type *ct = TY(tg->sub->u.sub.obj);
    if (et->kind == TY_UNKNOWN || t->kind == TY_UNKNOWN) return;
    if (ct->kind == TY_TUPLE) { type_fail(c, pos, "tuples do not support item assignment"); return; }
    if (ct->kind == TY_OBJ) { bind_object_store(c, tg, t, pos); return; }
    if (TY(tg->sub->u.sub.index)->kind == TY_OBJ) {
      type_fail(c, pos, "an element store with an object index");
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
      type_fail(c, pos, arena_printf(c->m->a, "parameter '%s' (%s) is assigned a %s",
           c->in->fn->locals[tg->local], ty_python_name(c->m->a, old), ty_python_name(c->m->a, t)));
      return;
    }
    const type *j = ty_join(old, t);
    if (j->kind == TY_CONFLICT && ((ty_is_ndarray(old) && ty_join(&ty_obj, t) == &ty_obj) ||
                                   (ty_is_ndarray(t) && ty_join(&ty_obj, old) == &ty_obj)))
      j = &ty_obj; /* x = a * 2.0 + b, then x = None or another object: the array boxed */
    if (j->num_or_none && c->in->fn->local_dynamic && c->in->fn->local_dynamic[tg->local])
      j = &ty_conflict; /* the interpreter binds it too: its recorded type, not a join */
    if (j->kind == TY_CONFLICT) {
      bool np = (old->kind == TY_NP) != (t->kind == TY_NP);
      type_fail(c, pos, arena_printf(c->m->a, "local '%s' holds both %s and %s%s",
           c->in->fn->locals[tg->local], ty_python_name(c->m->a, old), ty_python_name(c->m->a, t),
           np ? " (CPython's type changes as it runs: convert with float() or int(), or start "
                "from a numpy value)" : ""));
      return;
    }
    if (t->kind == TY_NONE && j->kind != TY_OBJ && j->kind != TY_NONE) {
      type_fail(c, pos, "assignment of None");
      return;
    }
    if (j != old) { c->in->local_ty[tg->local] = j; c->in->pass_changed = 1; }
    return;
  }
  if (t->kind == TY_OBJ || target_starred(tg)) { /* UNPACK_SEQUENCE (UNPACK_EX: a, *rest = v; v boxed)
                                                    through the C API (dynac_unpack): objects */
    for (int i = 0; i < tg->n; i++) bind_target(c, tg->elts[i], &ty_obj, tg->elts[i]->pos);
    generic_op(c);
    return;
  }
  if (t->kind == TY_LIST) { /* its length is checked when it runs */
    if (t->elts[0]->kind == TY_UNKNOWN && c->strict) {
      type_fail(c, pos, "unpacking a list whose element type is not known");
      return;
    }
    for (int i = 0; i < tg->n; i++) bind_target(c, tg->elts[i], t->elts[0], tg->elts[i]->pos);
    return;
  }
  if (t->kind != TY_TUPLE || t->n != tg->n) {
    type_fail(c, pos, arena_printf(c->m->a, "cannot unpack a %s into %d names",
                              ty_python_name(c->m->a, t), tg->n));
    return;
  }
  for (int i = 0; i < tg->n; i++) bind_target(c, tg->elts[i], t->elts[i], tg->elts[i]->pos);
}
