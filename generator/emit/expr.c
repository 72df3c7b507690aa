/* expr.c: expressions: operators, comparisons, and/or, conditional
 * expressions, tuples, attributes; emit_expr dispatches on the kind.
 */
#include "emit.h"

#include <ctype.h>

const char *emit_binop_values(em *E, binop op, const char *l, const type *lt,
                                     const char *r, const type *rt, const type *res) {
  if (res->kind == TY_NP) return emit_np_binop(E, op, l, lt, r, rt, res);
  if (res->kind == TY_OBJ) { /* PyNumber_Add, ...: CPython's result and exceptions */
    const char *a = as_obj(E, l, lt), *b = as_obj(E, r, rt);
    const char *o = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_obj_binop(%s, %s, %d, &dynac__effects); /* %s */", o, a, b, (int)op,
         binop_spelling[op]);
    note_effect(E);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
    return o;
  }
  static const char *const num_helper[] = {"dynac_num_add", "dynac_num_sub", "dynac_num_mul",
                                           NULL, "dynac_num_floordiv", "dynac_num_mod",
                                           "dynac_num_pow"};
  if (res->kind == TY_NUM && op == OP_TRUEDIV) /* int | float | numpy.float64 */
    return checked(E, res, "dynac_num_np_truediv", as_num(E, l, lt), as_num(E, r, rt));
  if (res->kind == TY_NUM)
    return checked(E, res, num_helper[op], as_num(E, l, lt), as_num(E, r, rt));
  if (op == OP_TRUEDIV && (lt->kind == TY_NUM || rt->kind == TY_NUM))
    return checked(E, &ty_float, "dynac_num_truediv", as_num(E, l, lt), as_num(E, r, rt));
  if (res->kind == TY_BOOL) /* & | ^ of two bools */
    return arena_printf(E->m->a, "(bool)(%s %s %s)", l, binop_spelling[op], r);
  if (res->kind == TY_FLOAT) {
    if (lt->kind != TY_FLOAT && rt->kind != TY_FLOAT && op == OP_TRUEDIV)
      return checked(E, &ty_float, "dynac_int_truediv", as_int(E, l, lt), as_int(E, r, rt));
    const char *a = as_double(E, l, lt), *b = as_double(E, r, rt);
    if (op == OP_SUB && (rt->kind == TY_INT || rt->kind == TY_BOOL)) /* 0.0 - n: +0.0, which GCC folds away */
      b = arena_printf(E->m->a, "dynac_int_subtrahend(%s)", as_int(E, r, rt));
    if (op <= OP_MUL) return arena_printf(E->m->a, "(%s %s %s)", a, binop_spelling[op], b);
    return checked(E, &ty_float, float_helper[op], a, b); /* / // % ** (bit ops fail typing) */
  }
  const char *a = as_int(E, l, lt), *b = as_int(E, r, rt);
  if (op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR)
    return arena_printf(E->m->a, "(%s %s %s)", a, binop_spelling[op], b);
  return checked(E, &ty_int, int_helper[op], a, b); /* int / int is typed float, above */
}

const char *cmp_values(em *E, cmpop op, const char *l, const type *lt, const char *r,
                              const type *rt) {
  static const char *const macro[] = {"LT", "LE", "GT", "GE", "EQ", "NE"};
  static const cmpop mirror[] = {CMP_GT, CMP_GE, CMP_LT, CMP_LE, CMP_EQ, CMP_NE};
  if (ty_may_be_np(lt) || ty_may_be_np(rt)) /* int | float | numpy scalar: as the tags say */
    return arena_printf(E->m->a, "DYNAC_CMP_%s(dynac_num_cmp(%s, %s))", macro[op], as_num(E, l, lt),
                        as_num(E, r, rt));
  if (lt->kind == TY_NP || rt->kind == TY_NP) { /* numpy compares in the promoted dtype */
    bool fl = np_is_float(np_promote(np_dtype_of(lt), np_dtype_of(rt)));
    return fl ? arena_printf(E->m->a, "(%s %s %s)", as_double(E, l, lt), cmpop_spelling[op], as_double(E, r, rt))
              : arena_printf(E->m->a, "(%s %s %s)", as_int(E, l, lt), cmpop_spelling[op], as_int(E, r, rt));
  }
  if (lt->kind == TY_NUM || rt->kind == TY_NUM)
    return arena_printf(E->m->a, "DYNAC_CMP_%s(dynac_num_cmp(%s, %s))", macro[op],
                        as_num(E, l, lt), as_num(E, r, rt));
  bool lf = lt->kind == TY_FLOAT, rf = rt->kind == TY_FLOAT;
  if (!lf && !rf && !strcmp(l, r)) /* x == x of an int: decided (a float may be nan) */
    return op == CMP_EQ || op == CMP_LE || op == CMP_GE ? "true" : "false";
  if (lf == rf) return arena_printf(E->m->a, "(%s %s %s)", l, cmpop_spelling[op], r);
  if (!lf) /* int OP float: exact */
    return arena_printf(E->m->a, "DYNAC_CMP_%s(dynac_cmp_int_float(%s, %s))", macro[op],
                        as_int(E, l, lt), r);
  return arena_printf(E->m->a, "DYNAC_CMP_%s(dynac_cmp_int_float(%s, %s))", macro[mirror[op]],
                      as_int(E, r, rt), l);
}

/* x in c / x not in c (PySequence_Contains), x is y / x is not y of objects. */
static const char *emit_membership(em *E, expr *e) {
  cmpop op = e->u.cmp.ops[0];
  expr *l = e->u.cmp.operands[0], *r = e->u.cmp.operands[1];
  int depth = E->nvstack;
  const char *lv = emit_expr(E, l);
  push_pending(E, l, lv);
  const char *a = keep(E, as_obj(E, lv, TY(l)), &ty_obj);
  const char *b = as_obj(E, emit_expr(E, r), TY(r));
  E->nvstack = depth;
  if ((op == CMP_ID || op == CMP_NOT_ID) && !strcmp(a, b)) /* `x is x` (C warns of a == a) */
    return op == CMP_ID ? "1 /* the same object */" : "0 /* the same object */";
  if (op == CMP_ID || op == CMP_NOT_ID)
    return arena_printf(E->m->a, "(%s %s %s)", a, op == CMP_ID ? "==" : "!=", b);
  const char *res = tmpvar(E, &ty_bool);
  const char *k = arena_printf(E->m->a, "t%d", ++E->tmp);
  line(E, "int %s = dynac_obj_contains(%s, %s, &dynac__effects); /* %s */", k, b, a, cmpop_spelling[op]);
  note_effect(E);
  line(E, "if (%s < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", k, where(E));
  line(E, "%s = %s%s;", res, op == CMP_NOT_IN ? "!" : "", k);
  return res;
}

/* One comparison of a chain of objects: a new reference to its result (a
 * rich comparison's object, or True/False of is and in). */
static const char *chain_link(em *E, cmpop op, const char *a, const char *b) {
  static const char *const rich[] = {"Py_LT", "Py_LE", "Py_GT", "Py_GE", "Py_EQ", "Py_NE"};
  const char *o = tmpvar(E, &ty_obj);
  if (op <= CMP_NE) {
    line(E, "%s = dynac_obj_compare(%s, %s, %s, &dynac__effects);", o, a, b, rich[op]);
    note_effect(E);
  } else if (op == CMP_IN || op == CMP_NOT_IN) {
    const char *k = arena_printf(E->m->a, "t%d", ++E->tmp);
    line(E, "int %s = dynac_obj_contains(%s, %s, &dynac__effects); /* %s */", k, b, a, cmpop_spelling[op]);
    note_effect(E);
    line(E, "if (%s < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", k, where(E));
    line(E, "%s = dynac_box_bool(%s%s);", o, op == CMP_NOT_IN ? "!" : "", k);
  } else {
    bool is = op == CMP_IS || op == CMP_ID;
    line(E, "%s = dynac_box_bool(%s %s %s);", o, a, is ? "==" : "!=", b);
  }
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* a < b in c is d of objects (COMPARE_OP, CONTAINS_OP, IS_OP, each operand
 * evaluated once, boxed): a later comparison runs only while the earlier
 * results are true; the value is the first false result or the last one
 * (a new reference), or in a test only its truth, each result's tested once.
 * The operands evaluated are pending (a later one's failure goes on in the
 * interpreter around them); once links held, only the last operand
 * compared, as the start of the rest of the chain (push_held). */
static const char *emit_object_chain(em *E, expr *e) {
  bool by_value = TY(e)->kind == TY_OBJ;
  const char *res = tmpvar(E, by_value ? &ty_obj : &ty_bool);
  expr *first = e->u.cmp.operands[0];
  const char *prev = keep(E, as_obj(E, emit_expr(E, first), TY(first)), &ty_obj);
  int opened = 0, depth = E->nvstack;
  push_typed(E, first, prev, &ty_obj);
  for (int i = 1; i < e->u.cmp.n; i++) {
    expr *o = e->u.cmp.operands[i];
    const char *cur = as_obj(E, emit_expr(E, o), TY(o));
    if (i + 1 < e->u.cmp.n) cur = keep(E, cur, &ty_obj);
    const char *r = chain_link(E, e->u.cmp.ops[i - 1], prev, cur);
    if (by_value) line(E, "Py_XSETREF(%s, Py_NewRef(%s));", res, r);
    else line(E, "%s = %s;", res, truth(E, r, &ty_obj));
    if (i + 1 < e->u.cmp.n) {
      E->nvstack = depth; /* compared: a continuation takes the chain from o on */
      push_held(E, o, cur);
      line(E, "if (%s) {", by_value ? truth(E, res, &ty_obj) : res);
      E->indent++;
      opened++;
    }
    prev = cur;
  }
  E->nvstack = depth; /* the chain's value replaces them */
  while (opened--) { E->indent--; line(E, "}"); }
  return res;
}

/* a < b < c: b evaluated once, later comparisons only if earlier ones hold. */
static const char *emit_compare(em *E, expr *e) {
  if (is_object_chain(E->in, e)) return emit_object_chain(E, e);
  if (E->in->types.callee[e->id] && !E->exported) { /* an instance's __lt__, ..., kernel to kernel */
    expr *l = e->u.cmp.operands[0], *r = e->u.cmp.operands[1];
    const inst *op = E->in->types.callee[e->id];
    bool reflected = !TY(l)->cls;
    int depth = E->nvstack;
    const char *lv = emit_operand_for(E, l, op->args[reflected ? 1 : 0]);
    push_pending(E, l, lv);
    const char *rv = emit_operand_for(E, r, op->args[reflected ? 0 : 1]);
    push_pending(E, r, rv);
    return emit_compare_call(E, e, lv, rv, depth);
  }
  if (e->u.cmp.ops[0] >= CMP_IN) return emit_membership(E, e);
  if (e->u.cmp.ops[0] == CMP_IS || e->u.cmp.ops[0] == CMP_IS_NOT) { /* x is [not] None */
    expr *x = e->u.cmp.operands[e->u.cmp.operands[0]->kind == EX_NONE ? 1 : 0];
    const char *v = emit_expr(E, x); /* evaluated as in CPython, even when the type decides */
    int folded = E->in->types.folded[e->id];
    if (folded >= 0) return folded ? "true" : "false";
    return arena_printf(E->m->a, "(%s %s Py_None)", v, e->u.cmp.ops[0] == CMP_IS ? "==" : "!=");
  }
  if (TY(e)->kind == TY_OBJ) { /* a OP b with an object: PyObject_RichCompare (infer: no chains) */
    static const char *const rich[] = {"Py_LT", "Py_LE", "Py_GT", "Py_GE", "Py_EQ", "Py_NE"};
    expr *l = e->u.cmp.operands[0], *r = e->u.cmp.operands[1];
    int depth = E->nvstack;
    const char *lv = emit_expr(E, l);
    push_pending(E, l, lv);
    const char *a = as_obj(E, lv, TY(l));
    const char *b = as_obj(E, emit_expr(E, r), TY(r));
    E->nvstack = depth;
    const char *o = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_obj_compare(%s, %s, %s, &dynac__effects);", o, a, b, rich[e->u.cmp.ops[0]]);
    note_effect(E);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
    return o;
  }
  const char *res = tmpvar(E, &ty_bool);
  const char *prev = emit_expr(E, e->u.cmp.operands[0]);
  const type *pt = TY(e->u.cmp.operands[0]);
  int opened = 0, depth = E->nvstack;
  /* Operands evaluated are pending: a chain resumed in the interpreter compares them again, which
     runs no Python code (C values; objects took the branch above) */
  push_pending(E, e->u.cmp.operands[0], prev);
  for (int i = 1; i < e->u.cmp.n; i++) {
    expr *o = e->u.cmp.operands[i];
    const char *cur = emit_expr(E, o);
    E->nvstack = depth + i;
    if (i + 1 < e->u.cmp.n && o->kind != EX_LOCAL && o->kind != EX_INT && o->kind != EX_FLOAT) {
      const char *keep = tmpvar(E, TY(o));
      line(E, "%s = %s;", keep, cur);
      cur = keep;
    }
    if (i + 1 < e->u.cmp.n) push_pending(E, o, cur);
    line(E, "%s = %s;", res, cmp_values(E, e->u.cmp.ops[i - 1], prev, pt, cur, TY(o)));
    if (i + 1 < e->u.cmp.n) { line(E, "if (%s) {", res); E->indent++; opened++; }
    prev = cur;
    pt = TY(o);
  }
  E->nvstack = depth; /* the chain's value replaces them */
  while (opened--) { E->indent--; line(E, "}"); }
  return res;
}

/* The truth of `operand` (value v of type t, not a number: __bool__ or
 * __len__ may run; `known`: see boolop_object) as a bool, pending while
 * what it decides runs (and/or's right operand, a conditional expression's
 * branch): a continuation gets True or False in its place, which takes the
 * same way without testing it again. */
static const char *pending_truth(em *E, const expr *operand, const char *v, const type *t, const char *known) {
  const char *test = truth_unless_known(E, v, t, known);
  if (!E->conts || !E->effectful) return test;
  test = keep(E, test, &ty_bool);
  push_typed(E, operand, test, &ty_bool);
  return test;
}

static const char *boolop_object(em *E, expr *e, const char **known);
/* and/or e's left operand; an and/or of objects itself sets *known (see
 * boolop_object), else NULL. */
static const char *boolop_left(em *E, expr *e, const char **known) {
  expr *l = e->u.boolop.l;
  *known = NULL;
  return l->kind == EX_BOOLOP && TY(l)->kind == TY_OBJ ? boolop_object(E, l, known) : emit_expr(E, l);
}

/* and/or of values that are boxed (JUMP_IF_TRUE_OR_POP): the left
 * operand's truth tested once; when the right one is evaluated, the left
 * one is released first, as the interpreter pops it. A new reference.
 * known (may be NULL): set to a C int holding the result's truth when the
 * left operand decided it, else -1: `(a and b) or c` with a false tests a
 * once, as CPython 3.11's jump threading has JUMP_IF_FALSE_OR_POP go past
 * the JUMP_IF_TRUE_OR_POP it lands on (compile.c, optimize_basic_block). */
static const char *boolop_object(em *E, expr *e, const char **known) {
  const char *res = tmpvar(E, &ty_obj);
  const char *kl;
  const char *l = boolop_left(E, e, &kl);
  line(E, "%s = Py_NewRef(%s);", res, as_obj(E, l, TY(e->u.boolop.l)));
  int depth = E->nvstack;
  const char *test = pending_truth(E, e->u.boolop.l, res, &ty_obj, kl);
  if (known) {
    *known = arena_printf(E->m->a, "t%d", ++E->tmp);
    line(E, "int %s = %s ? %s : %s; /* the result's truth, when the left operand is the result */", *known,
         test, e->u.boolop.is_and ? "-1" : "1", e->u.boolop.is_and ? "0" : "-1");
  }
  line(E, e->u.boolop.is_and ? "if (%s) {" : "if (!%s) {", test);
  E->indent++;
  line(E, "Py_CLEAR(%s);", res);
  const char *r = emit_expr(E, e->u.boolop.r);
  E->nvstack = depth;
  line(E, "%s = Py_NewRef(%s);", res, as_obj(E, r, TY(e->u.boolop.r)));
  E->indent--;
  line(E, "}");
  return res;
}

/* and/or: value form (both operands of one type) or truth form. */
static const char *emit_boolop(em *E, expr *e) {
  if (boolop_right_dead(E->in, e)) /* `lo is not None and x < lo`, lo None: the left's value (a bool) */
    return emit_expr(E, e->u.boolop.l);
  if (TY(e)->kind == TY_OBJ) return boolop_object(E, e, NULL);
  bool value_form = TY(e)->kind != TY_BOOL || (TY(e->u.boolop.l) == TY(e) && TY(e->u.boolop.r) == TY(e));
  const char *res = tmpvar(E, TY(e));
  const char *kl;
  const char *l = boolop_left(E, e, &kl);
  const type *lt = TY(e->u.boolop.l);
  int depth = E->nvstack;
  const char *test;
  if (value_form || is_scalar(lt)) {
    if (E->conts && E->effectful && is_scalar(lt)) {
      l = keep(E, l, lt); /* pending while the right operand runs: its truth runs no code */
      push_pending(E, e->u.boolop.l, l);
    }
    line(E, "%s = %s;", res, value_form ? convert(E, l, lt, TY(e)) : truth(E, l, lt));
    test = truth(E, res, TY(e));
  } else { /* an object tested: its truth once, in its place while the right operand runs */
    test = pending_truth(E, e->u.boolop.l, l, lt, kl);
    line(E, "%s = %s;", res, test);
  }
  line(E, e->u.boolop.is_and ? "if (%s) {" : "if (!%s) {", test);
  E->indent++;
  const char *r = emit_expr(E, e->u.boolop.r);
  E->nvstack = depth;
  line(E, "%s = %s;", res, value_form ? convert(E, r, TY(e->u.boolop.r), TY(e))
                                      : truth(E, r, TY(e->u.boolop.r)));
  E->indent--;
  line(E, "}");
  return res;
}

/* The value of one branch of a conditional expression, stored into `res`
 * before its block (and the temporaries in it) ends: a list is held. */
static void ifexp_branch(em *E, expr *e, expr *branch, const char *res, bool held) {
  E->indent++;
  const char *v = emit_expr(E, branch);
  if (held) line(E, "%s = Py_NewRef(%s);", res, v);
  else if (TY(e)->kind == TY_OBJ) line(E, "%s = Py_NewRef(%s);", res, as_obj(E, v, TY(branch)));
  else line(E, "%s = %s;", res, TY(e)->kind == TY_BOOL && TY(branch)->kind != TY_BOOL
                                  ? truth(E, v, TY(branch)) : convert(E, v, TY(branch), TY(e)));
  E->indent--;
}

static const char *emit_ifexp(em *E, expr *e) {
  bool held = TY(e)->kind == TY_LIST && E->in->builds_lists; /* a new list dies with its block */
  const char *res = tmpvar(E, held ? &ty_obj : TY(e));
  const char *c = emit_expr(E, e->u.ifexp.cond); /* evaluated even when its value is known */
  int k = constant_truth(E->in, e->u.ifexp.cond);
  if (k == 0 || k == 1) { /* is_compiling(), `x is None` decided by the types: one branch */
    line(E, "{ /* the condition is %s here */", k ? "true" : "false");
    ifexp_branch(E, e, k ? e->u.ifexp.then : e->u.ifexp.orelse, res, held);
    line(E, "}");
    return res;
  }
  const type *ct = TY(e->u.ifexp.cond);
  int depth = E->nvstack;
  const char *test;
  if (E->conts && E->effectful && is_scalar(ct)) {
    c = keep(E, c, ct); /* pending while a branch runs: its truth runs no code */
    push_pending(E, e->u.ifexp.cond, c);
    test = truth(E, c, ct);
  } else {
    test = pending_truth(E, e->u.ifexp.cond, c, ct, NULL);
  }
  line(E, "if (%s) {", test);
  bool effect = E->rp.effect;
  int neffects = E->rp.neffects, then_neffects;
  ifexp_branch(E, e, e->u.ifexp.then, res, held);
  then_neffects = E->rp.neffects;
  E->rp.effect = effect, E->rp.neffects = neffects; /* the other branch runs when this one did not */
  line(E, "} else {");
  ifexp_branch(E, e, e->u.ifexp.orelse, res, held);
  line(E, "}");
  if (then_neffects != neffects || E->rp.neffects != neffects) { /* either branch's effects, after both */
    E->rp.effect = true;
    E->rp.neffects = (then_neffects > E->rp.neffects ? then_neffects : E->rp.neffects) + 1;
  }
  E->nvstack = depth;
  return res;
}

/* A tuple display holding objects: a tuple object (a new reference), its
 * elements boxed in order, as BUILD_TUPLE makes it; each pending once
 * made (a later element's failure goes on in the interpreter around it). */
static const char *emit_tuple_object(em *E, expr *e) {
  const char *res = tmpvar(E, &ty_obj);
  line(E, "%s = PyTuple_New(%d);", res, e->u.tuple.n);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", res, where(E));
  int depth = E->nvstack;
  for (int i = 0; i < e->u.tuple.n; i++) {
    expr *x = e->u.tuple.elts[i];
    const char *o = as_obj(E, x->kind == EX_NONE ? "Py_None" : emit_expr(E, x),
                           x->kind == EX_NONE ? &ty_obj : TY(x));
    line(E, "PyTuple_SET_ITEM(%s, %d, Py_NewRef(%s));", res, i, o);
    E->nvstack = depth + i;
    push_typed(E, x, arena_printf(E->m->a, "PyTuple_GET_ITEM(%s, %d)", res, i), &ty_obj); /* the tuple holds it */
  }
  E->nvstack = depth;
  return res;
}

static const char *emit_tuple(em *E, expr *e) {
  if (TY(e)->kind == TY_OBJ) return emit_tuple_object(E, e);
  const char *res = tmpvar(E, TY(e));
  int depth = E->nvstack;
  const char **parts = arena_alloc(E->m->a, sizeof(char *) * (size_t)(e->u.tuple.n + 1));
  bool numbers = true;
  for (int i = 0; i < e->u.tuple.n; i++) {
    const char *v = parts[i] = emit_expr(E, e->u.tuple.elts[i]);
    const type *et = TY(e->u.tuple.elts[i]);
    numbers = numbers && (et->kind == TY_INT || et->kind == TY_FLOAT || et->kind == TY_BOOL);
    if (et->kind == TY_OBJ || (et->kind == TY_LIST && E->in->builds_lists)) {
      /* a, b = b, a: rebinding a must not free b's value */
      const char *own = tmpvar(E, &ty_obj);
      line(E, "%s = Py_NewRef(%s);", own, v);
      v = own;
    }
    line(E, "%s.v%d = %s;", res, i, v);
    push_pending(E, e->u.tuple.elts[i], arena_printf(E->m->a, "%s.v%d", res, i));
  }
  E->nvstack = depth;
  if (numbers) { /* boxed, its parts' own boxes may be shared (box_value) */
    int k = E->ndisplays++ % (int)(sizeof E->displays / sizeof *E->displays);
    E->displays[k].name = res, E->displays[k].parts = parts, E->displays[k].n = e->u.tuple.n;
  }
  return res;
}

/* a.shape, a.ndim, a.size of an ndarray view; any other attribute of an
 * object or an ndarray (PyObject_GetAttr) */
static const char *emit_attr(em *E, expr *e) {
  const type *ot = TY(e->u.sub.obj);
  const char *attr = e->u.sub.attr;
  const inst *getter = E->exported ? NULL : E->in->types.callee[e->id];
  int field = ot->rec && !getter ? classes_field(ot->cls, attr) : -1;
  if (field >= 0 && TY(e) != &ty_obj) { /* a field of an instance kept as fields */
    const char *r = emit_expr_rec(E, e->u.sub.obj);
    int depth = E->nvstack;
    push_pending(E, e->u.sub.obj, r);
    const char *v = emit_rec_field(E, e, r, ot->cls, field);
    E->nvstack = depth;
    return v;
  }
  const char *v = getter ? emit_operand_for(E, e->u.sub.obj, getter->args[0]) : emit_expr(E, e->u.sub.obj);
  if (getter) return emit_property_call(E, e, v); /* its getter's kernel */
  /* a typed read of an instance's attribute, or of an object's (classes_attr_type_any): the object
     pending, so the interpreter may go on from it */
  if (ot->kind == TY_OBJ && TY(e) != &ty_obj && (ot->cls || !names_numpy(E->m, e->u.sub.obj))) {
    int depth = E->nvstack;
    push_pending(E, e->u.sub.obj, v);
    const char *r = E->keeps_object && E->keeps_object[e->id]
        ? emit_instance_attr_kept(E, v, e) /* its value boxed again: its object kept */
        : emit_layout_attr(E, v, e); /* a run's read of an instance it reads again */
    if (!r) r = emit_instance_attr(E, v, attr, TY(e));
    E->nvstack = depth;
    return r;
  }
  if (ot->kind == TY_OBJ && TY(e)->kind == TY_FLOAT) { /* np.inf */
    restart before = E->rp;
    const char *r = emit_instance_attr(E, v, attr, &ty_float);
    if (names_numpy(E->m, e->u.sub.obj)) /* a name in numpy's dict: no Python code runs (its module __getattr__
                                            only for a missing one, and then the read raises); dynac__effects
                                            still says so if any ran */
      E->rp.effect = before.effect, E->rp.neffects = before.neffects;
    return r;
  }
  if (ot->kind == TY_OBJ) return emit_object_attr(E, v, attr);
  if (TY(e)->kind == TY_OBJ) return emit_object_attr(E, keep(E, as_obj(E, v, ot), &ty_obj), attr); /* a.T: numpy's */
  if (!strcmp(attr, "ndim")) return arena_printf(E->m->a, "INT64_C(%d)", ot->ndim);
  const char *len = view_field(E, v, "len"), *len1 = view_field(E, v, "len1");
  if (!strcmp(attr, "size"))
    return ot->ndim == 1 ? arena_printf(E->m->a, "(int64_t)%s", len)
                         : arena_printf(E->m->a, "(int64_t)(%s * %s)", len, len1);
  const char *t = tmpvar(E, TY(e));
  line(E, "%s.v0 = (int64_t)%s;", t, len);
  if (ot->ndim == 2) line(E, "%s.v1 = (int64_t)%s;", t, len1);
  return t;
}

/* Is operand `v` of expression `x` an object only the operation about to
 * consume it holds (another object operation's result)? It is released
 * once consumed, as the interpreter's stack drops it, rather than when the
 * block ends, and numpy may compute into it (emit_temps_binop): numpy's
 * temporaries of `a * b + c` are reused as they are in the interpreter. */
static bool consumed_temp(em *E, const expr *x, const char *v) {
  bool temp = v[0] == 't' && v[1];
  for (const char *p = v + 1; temp && *p; p++) temp = isdigit((unsigned char)*p);
  bool made = x->kind == EX_BINOP || x->kind == EX_UNARY || x->kind == EX_COMPARE;
  return temp && made && TY(x)->kind == TY_OBJ && !E->in->types.callee[x->id];
}

/* l OP r of objects (+ - * / **), `lt` / `rt`: which is a consumed temporary
 * (dynac.h's dynac_obj_binop_temps: numpy's temporary elision). */
static const char *emit_temps_binop(em *E, binop op, const char *l, const type *ltype, bool lt, const char *r,
                                    const type *rtype, bool rt) {
  l = as_obj(E, l, ltype);
  const char *b = as_obj(E, r, rtype);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_obj_binop_temps(%s, %s, %d, %d, %d, &dynac__effects); /* %s */", o, l, b, (int)op, lt, rt,
       binop_spelling[op]);
  note_effect(E);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

static const char *emit_expr_raw(em *E, expr *e);

/* Is e a number literal: an int (an int64 one, or a bigger one kept as its text) or a float? */
static bool number_literal_expr(const expr *e) {
  if (e->kind == EX_INT || e->kind == EX_FLOAT) return true;
  if (e->kind != EX_CONST || !e->u.literal[0]) return false;
  for (const char *p = e->u.literal; *p; p++) if (!isdigit((unsigned char)*p) && *p != '_') return false;
  return true;
}

/* ((x OP c1) OP c2) ...: two or more operations on objects (not in place,
 * no user class's __OP__; + - * / // % << >> & | ^), each with a number
 * literal on the right. Fills links (outermost first) and gives their
 * number, else 0. */
static int number_chain(em *E, expr *e, expr **links, int cap) {
  int n = 0;
  for (expr *x = e; x->kind == EX_BINOP && n < cap; x = x->u.bin.l) {
    binop op = x->u.bin.op;
    if (x->u.bin.inplace || TY(x)->kind != TY_OBJ || E->in->types.callee[x->id] ||
        !number_literal_expr(x->u.bin.r) || op == OP_POW || op == OP_MATMUL)
      break;
    links[n++] = x;
  }
  return n >= 2 && !E->exported ? n : 0;
}

/* The chain number_chain found, through dynac_obj_num_chain: x, then the
 * literals (made once per site), then the operations in C with one result
 * made (scheduler's LCG step and its float), else one by one. */
static const char *emit_number_chain(em *E, expr **links, int n) {
  expr *first = links[n - 1]->u.bin.l;
  const char *x = as_obj(E, emit_expr(E, first), TY(first));
  strbuf ops = {0}, ys = {0};
  for (int i = n - 1; i >= 0; i--) {
    expr *c = links[i]->u.bin.r;
    sb_printf(&ops, "%s%d", i < n - 1 ? ", " : "", (int)links[i]->u.bin.op);
    sb_printf(&ys, "%s%s", i < n - 1 ? ", " : "", as_obj(E, emit_expr(E, c), TY(c)));
  }
  const char *o = tmpvar(E, &ty_obj);
  line(E, "{");
  E->indent++;
  line(E, "static const int ops[%d] = {%s};", n, ops.data);
  line(E, "static dynac_chain_ys cy; /* the literals as C values, read once */");
  line(E, "PyObject *const ys[%d] = {%s};", n, ys.data);
  line(E, "%s = dynac_obj_num_chain(%s, %d, ops, ys, &cy, &dynac__effects); /* numbers: one result made */", o, x,
       n);
  E->indent--;
  line(E, "}");
  note_effect(E);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  sb_free(&ops);
  sb_free(&ys);
  return o;
}

/* Expression e's C value: an instance kept as its fields (a struct:
 * records.c) is the instance itself here, made if it was not yet. */
const char *emit_expr(em *E, expr *e) {
  const char *v = emit_expr_raw(E, e);
  if (!is_rec_value(v)) return v;
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = %s; /* the instance itself */", o, rec_box(E, v, TY(e)->cls));
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* Expression e, typed rec, as its struct: an object where one is typed
 * (a call CPython made) is kept as the instance it is. */
const char *emit_expr_rec(em *E, expr *e) {
  const char *v = emit_expr_raw(E, e);
  return is_rec_value(v) ? v : rec_of_object(E, v, TY(e)->cls);
}

static const char *emit_expr_raw(em *E, expr *e) {
  if (e == E->given) return E->given_v; /* evaluated once already (emit_polymorphic_call) */
  recheck_globals_mid(E, e);
  switch (e->kind) {
  case EX_LIST: return emit_list_display(E, e);
  case EX_LISTCOMP: return emit_list_comprehension(E, e);
  case EX_SLICE: return emit_slice(E, e);
  case EX_CONST: return emit_constant(E, e->u.literal);
  case EX_DICT: case EX_SET: case EX_UNPACKED: return emit_display_object(E, e);
  case EX_FSTRING: return emit_fstring(E, e);
  case EX_NAME: return emit_global_name(E, e->u.global->name);
  case EX_FUNCTION: return emit_make_function(E, e);
  case EX_BUILD_CLASS: return emit_load_build_class(E, e);
  case EX_FREE: return emit_free_variable(E, e);
  case EX_INT: return arena_printf(E->m->a, "INT64_C(%lld)", (long long)e->u.i);
  case EX_FLOAT: return float_literal(E, e->u.f);
  case EX_BOOL: return e->u.b ? "true" : "false";
  case EX_NONE: return "false /* None */";
  case EX_LOCAL: {
    if (!E->bound[e->u.local])
      unbound_check(E, e->u.local);
    const type *held = E->in->local_ty[e->u.local]->num_or_none;
    if (held && TY(e) == held) /* "float | None" known not None here: its number */
      return arena_printf(E->m->a, "%s(%s)", held == &ty_float ? "dynac_held_float" : "dynac_held_int",
                          local_name(E, e->u.local));
    return local_name(E, e->u.local);
  }
  case EX_GLOBAL: {
    slot *s = e->u.global;
    const char *field = s->ty->kind == TY_FLOAT ? "v.f" : "v.i";
    const char *what = s->kind == SLOT_DEFAULT
        ? arena_printf(E->m->a, "default of %s(%s=)", s->name, s->attr)
        : s->attr ? arena_printf(E->m->a, "%s%s%s", s->module_slot >= 0 ? s->name : "",
                                 s->module_slot >= 0 ? "." : "", s->attr) : s->name;
    if (s->ty->kind == TY_NONE) return arena_printf(E->m->a, "false /* None: %s */", what);
    const char *v = arena_printf(E->m->a, "%s.%s /* %s */", slot_ref(E, s), field, what);
    return s->ty->kind == TY_BOOL ? arena_printf(E->m->a, "(bool)%s", v) : v;
  }
  case EX_BINOP: {
    const char *fused = e->u.bin.inplace ? emit_fused_inplace(E, e, NULL) /* p /= s: one loop, into p */
                                         : emit_fused(E, e); /* a whole-array expression: one loop */
    if (fused) return fused;
    expr *links[16];
    int nlinks = number_chain(E, e, links, 16);
    if (nlinks) return emit_number_chain(E, links, nlinks);
    const char *tested_later = E->finite_by_parent != e ? NULL
        : E->finite_note ? E->finite_note : " /* inf or nan: tested by the enclosing operation */";
    E->finite_note = NULL;
    bool passes = finite_operands_pass(E, e);
    E->finite_by_parent = passes && quiet(E, e->u.bin.r) ? e->u.bin.l : NULL;
    const inst *op = E->exported ? NULL : E->in->types.callee[e->id]; /* __OP__'s kernel: its parameters */
    bool reflected = op && !TY(e->u.bin.l)->cls;
    const char *l = emit_operand_for(E, e->u.bin.l, op ? op->args[reflected ? 1 : 0] : NULL);
    int depth = E->nvstack;
    if (!e->u.bin.inplace) push_pending(E, e->u.bin.l, l); /* x op= v: x is read again */
    E->finite_by_parent = passes ? e->u.bin.r : NULL;
    const char *r = emit_operand_for(E, e->u.bin.r, op ? op->args[reflected ? 0 : 1] : NULL);
    E->finite_by_parent = NULL;
    push_pending(E, e->u.bin.r, r);
    if (TY(e)->kind == TY_LIST) {
      E->nvstack = depth;
      return emit_list_binop(E, e, l, r);
    }
    if (E->in->types.callee[e->id] && !E->exported) /* a user class's __OP__, kernel to kernel */
      return emit_operator_call(E, e, l, r, depth);
    if (ty_is_ndarray(TY(e)) && e->u.bin.inplace) { /* p /= s: numpy writes p and gives it back */
      E->nvstack = depth;
      emit_array_inplace(E, e->u.bin.op, l, TY(e->u.bin.l), r, TY(e->u.bin.r));
      return l;
    }
    if (TY(e)->kind == TY_OBJ && e->u.bin.inplace) { /* x op= v: __iadd__, ... */
      E->nvstack = depth;
      return emit_inplace_values(E, e->u.bin.op, l, TY(e->u.bin.l), r, TY(e->u.bin.r));
    }
    E->finite_later = tested_later;
    E->returned_op = e == E->returned && TY(e) == E->in->ret; /* no conversion after it */
    E->assigned_op = e == E->assigned;
    bool lt = consumed_temp(E, e->u.bin.l, l), rt = consumed_temp(E, e->u.bin.r, r);
    const char *v = TY(e)->kind == TY_OBJ && (lt || rt) && (e->u.bin.op <= OP_TRUEDIV || e->u.bin.op == OP_POW)
        ? emit_temps_binop(E, e->u.bin.op, l, TY(e->u.bin.l), lt, r, TY(e->u.bin.r), rt)
        : emit_binop_values(E, e->u.bin.op, l, TY(e->u.bin.l), r, TY(e->u.bin.r), TY(e));
    E->nvstack = depth;
    E->returned_op = E->assigned_op = false;
    E->finite_later = NULL;
    if (TY(e)->kind == TY_OBJ) {
      if (lt) line(E, "Py_CLEAR(%s); /* consumed */", l);
      if (rt) line(E, "Py_CLEAR(%s); /* consumed */", r);
    }
    return v;
  }
  case EX_UNARY: {
    const char *fused = emit_fused(E, e);
    if (fused) return fused;
    const inst *op = E->exported ? NULL : E->in->types.callee[e->id]; /* __neg__'s kernel */
    const char *a = emit_operand_for(E, e->u.un.a, op ? op->args[0] : NULL);
    const type *t = TY(e->u.un.a);
    if (t->kind == TY_NP) return emit_np_unary(E, e->u.un.op, a, t);
    if (E->in->types.callee[e->id] && !E->exported) { /* __neg__, ..., kernel to kernel */
      int depth = E->nvstack;
      push_pending(E, e->u.un.a, a);
      return emit_unary_call(E, e, a, depth);
    }
    if (t->kind == TY_OBJ || ty_is_ndarray(t)) { /* PyNumber_Negative, ...: __neg__ may run */
      a = as_obj(E, a, t);
      const char *o = tmpvar(E, &ty_obj);
      line(E, "%s = dynac_obj_unary(%s, %d, &dynac__effects); /* %s */", o, a, (int)e->u.un.op,
           e->u.un.op == UN_NEG ? "-" : e->u.un.op == UN_POS ? "+" : "~");
      note_effect(E);
      line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
      return o;
    }
    if (e->u.un.op == UN_POS) return t->kind == TY_FLOAT || t->kind == TY_NUM ? a : as_int(E, a, t);
    if (e->u.un.op == UN_INVERT) return arena_printf(E->m->a, "(~%s)", as_int(E, a, t));
    if (t->kind == TY_NUM) return checked(E, t, "dynac_num_neg", a, NULL);
    if (t->kind == TY_FLOAT) return arena_printf(E->m->a, "(-%s)", a);
    return checked(E, &ty_int, "dynac_int_neg", as_int(E, a, t), NULL);
  }
  case EX_NOT: {
    const char *a = emit_expr(E, e->u.not_arg);
    return arena_printf(E->m->a, "(!%s)", truth(E, a, TY(e->u.not_arg)));
  }
  case EX_COMPARE: return emit_compare(E, e);
  case EX_BOOLOP: return emit_boolop(E, e);
  case EX_IFEXP: return emit_ifexp(E, e);
  case EX_TUPLE: return emit_tuple(E, e);
  case EX_CALL: { /* a call's exception is at the call's line (3.11's CALL location: the call
                     expression's first line; a decorator's own, a class statement's) */
    int line_was = E->cur_line;
    E->cur_line = e->pos.line;
    const char *r = emit_call(E, e);
    E->cur_line = line_was;
    return r;
  }
  case EX_SUBSCRIPT: return emit_subscript(E, e);
  case EX_ATTR: return emit_attr(E, e);
  }
  return "0";
}
