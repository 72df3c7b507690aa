/* numpy.c: numpy scalar arithmetic with numpy's dtype rules, and where the
 * inf/nan test of one operation may stand for another's (finiteness).
 */
#include "emit.h"

typedef struct np_scan { em *E; bool any; } np_scan;
static void np_float_block(void *scan, stmt *b);

/* Is `e` a numpy float + - * whose result is inf or nan whenever an operand
 * is (IEEE 754: inf + x, inf * x, nan op x)? Then an operand that is itself
 * such an operation need not test its own result: numpy would have warned
 * there, and the test here deoptimises for both (the interpreter runs the
 * call again and warns in order). Division is not: x / inf is 0. */
static bool add_sub_mul(binop op) { return op == OP_ADD || op == OP_SUB || op == OP_MUL; }
static bool np_float(const type *t) { return t->kind == TY_NP && np_is_float(t->fmt); }
bool finite_operands_pass(em *E, const expr *e) {
  return e->kind == EX_BINOP && np_float(TY(e)) && add_sub_mul(e->u.bin.op);
}

/* v of x op= v (x of type xt), emitted: v's inf/nan test waits for the
 * operation's, which follows it at once (numpy's float + - * of an inf or
 * nan gives one), as a binary operation's right operand's does. */
const char *emit_aug_value(em *E, const stmt *s, const type *xt) {
  expr *v = s->u.aug.value;
  if (add_sub_mul(s->u.aug.op) && np_float(binop_result(s->u.aug.op, xt, TY(v)))) {
    E->finite_by_parent = v;
    E->finite_note = " /* inf or nan: tested by the augmented assignment */";
  }
  const char *r = emit_expr(E, v);
  E->finite_by_parent = NULL;
  E->finite_note = NULL;
  return r;
}

/* Can evaluating `e` neither run Python code nor leave the kernel other
 * than by deoptimising? A left operand's inf/nan test may wait for its
 * parent's only when the right operand is quiet: nothing observable may
 * happen between numpy's warning and the test that stands for it. */
bool quiet(em *E, const expr *e) {
  switch (e->kind) {
  case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_GLOBAL: return true;
  case EX_LOCAL: return E->bound[e->u.local];
  case EX_UNARY: /* -x of a float */
    return e->u.un.op == UN_NEG && (TY(e)->kind == TY_FLOAT || np_float(TY(e))) && quiet(E, e->u.un.a);
  case EX_BINOP: /* float + - * cannot fail; numpy's inf/nan test deoptimises */
    return (TY(e)->kind == TY_FLOAT || np_float(TY(e))) && add_sub_mul(e->u.bin.op) &&
           quiet(E, e->u.bin.l) && quiet(E, e->u.bin.r);
  case EX_SUBSCRIPT: { /* a float item at positions proved in range, in the unchecked loop */
    const type *ot = TY(e->u.sub.obj);
    if (ot->kind != TY_BUF || (ot->fmt != 'd' && ot->fmt != 'f') || !quiet(E, e->u.sub.obj)) return false;
    int n = ot->buf_kind == 'n' && ot->ndim == 2 ? 2 : 1;
    for (int k = 0; k < n; k++)
      if (!proven_position(E, n == 2 ? e->u.sub.index->u.tuple.elts[k] : e->u.sub.index)) return false;
    return true;
  }
  default: return false;
  }
}

/* Is position p of an item access one an enclosing loop's test proved in
 * range, in the copy of the loop that test chose (no bounds check)? */
bool proven_position(em *E, const expr *p) {
  for (int i = 0; i < E->nhoisted; i++)
    if (E->hoisted[i].index == p && E->hoisted[i].ok == E->proven) return true;
  return false;
}

/* l OP r with a numpy result dtype (infer.c np_binop_type), computed in
 * the result's C type. Where numpy would wrap, give inf or nan (with a
 * RuntimeWarning) or raise, the kernel deoptimises and the interpreter
 * gives numpy's own answer: a float result that is not finite, an integer
 * that leaves int64 or the dtype's range, a zero divisor. */
const char *emit_np_binop(em *E, binop op, const char *l, const type *lt, const char *r,
                                 const type *rt, const type *res) {
  char f = res->fmt;
  const char *t = tmpvar(E, res);
  if (np_is_float(f)) {
    const char *ct = f == 'd' ? "double" : "float";
    if (lt->kind == TY_NUM) l = as_double(E, l, lt); /* int | float | numpy.float64 */
    if (rt->kind == TY_NUM) r = as_double(E, r, rt);
    const char *a = arena_printf(E->m->a, "(%s)%s", ct, l), *b = arena_printf(E->m->a, "(%s)%s", ct, r);
    if (op <= OP_TRUEDIV)
      line(E, "%s = %s %s %s;%s", t, a, binop_spelling[op], b, E->finite_later ? E->finite_later : "");
    else deopt_if(E, NULL, "numpy: a zero divisor, or a complex or overflowing power",
                  "%s(%s, %s, &%s)", float_helper[op], a, b, t);
    if (E->spec && !E->finite_later) /* a speculative loop: one test after it */
      line(E, "dynac__nonfinite_%d |= dynac_nonfinite_bits(%s);", E->spec, t);
    else if (!E->finite_later) {
      const char *why = "numpy: inf or nan (with a RuntimeWarning, or as the interpreter has it)";
      const char *cond = arena_printf(E->m->a, "!isfinite(%s)", t);
      if (!warn_in_interpreter_if(E, why, cond)) deopt_if(E, NULL, why, "%s", cond);
    }
    return t;
  }
  const char *a = as_int(E, l, lt), *b = as_int(E, r, rt);
  if (op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR) {
    line(E, "%s = %s %s %s;", t, a, binop_spelling[op], b);
    return t;
  }
  deopt_if(E, NULL, "numpy: wraps, warns or raises here", "%s(%s, %s, &%s)", int_helper[op], a, b, t);
  if (f != 'l') deopt_if(E, NULL, "numpy: wraps to the dtype's range", "!dynac_np_fits(%s, '%c')", t, f);
  return t;
}

/* -x, +x, ~x of a numpy scalar: its own dtype; ~ of a bool_ is `not`,
 * of a uint8 stays in 0..255; a negation that wraps deoptimises. */
const char *emit_np_unary(em *E, unop op, const char *a, const type *t) {
  if (op == UN_POS) return a;
  if (op == UN_INVERT)
    return t->fmt == '?' ? arena_printf(E->m->a, "(!%s)", a)
           : t->fmt == 'B' ? arena_printf(E->m->a, "(int64_t)(uint8_t)~%s", a)
           : arena_printf(E->m->a, "(~%s)", a);
  if (np_is_float(t->fmt)) return arena_printf(E->m->a, "(-%s)", a);
  const char *r = tmpvar(E, t);
  deopt_if(E, NULL, "numpy: the negation wraps", "dynac_int_neg(%s, &%s) || !dynac_np_fits(%s, '%c')",
           a, r, r, t->fmt);
  return r;
}

/* numpy's ufunc NAME is IEEE's exact operation: its dynac_ufunc_cache.exact, else 0. */
static char exact_ufunc(const char *fn) {
  static const char *const exacts[][2] = {{"sqrt", "s"}, {"abs", "a"}, {"absolute", "a"}, {"floor", "f"},
                                          {"ceil", "c"}, {"trunc", "t"}};
  for (size_t i = 0; i < sizeof exacts / sizeof *exacts; i++)
    if (!strcmp(exacts[i][0], fn)) return exacts[i][1][0];
  return 0;
}

/* np.NAME(x) of an exact ufunc (e a call emit_np_ufunc emits): its caches
 * (np's LOAD_GLOBAL cache, the ufunc's) are at file scope, shared by a
 * loop's speculative and checked copies: the checked copy fills them, the
 * speculative one only reads them, once before it (spec_np_test). Their
 * names (declared on first use), or false for any other call, and in a
 * region's kernel (no file-scope C of its own). */
bool np_shared_caches(em *E, const expr *e, const char **gc, const char **uc) {
  const char *fn = numpy_callee(E->m, e);
  char exact = exact_ufunc(fn);
  if (!exact || !E->helpers || e->u.call.args[0]->kind != EX_NAME || e->u.call.kind != CALLEE_METHOD ||
      e->u.call.n != 2)
    return false;
  *uc = arena_printf(E->m->a, "dynac__uf_%s_%d", E->in->cname, e->id);
  *gc = arena_printf(E->m->a, "dynac__gc_%s_%d", E->in->cname, e->id);
  if (!(E->helpers->data && strstr(E->helpers->data, arena_printf(E->m->a, "%s = ", *uc))))
    sb_printf(E->helpers, "static dynac_global_cache %s; /* np in line %d's np.%s */\n"
              "static dynac_ufunc_cache %s = {.exact = '%c'}; /* numpy.%s */\n", *gc, e->pos.line, fn, *uc, exact, fn);
  return true;
}

/* Before speculative loop N: np of np.NAME(x) call e is still the module
 * in which its ufunc's cache found numpy's NAME (nothing in the loop can
 * change either: it runs no Python code). */
void spec_np_test(em *E, const expr *e, int n) {
  const char *gc, *uc;
  if (!np_shared_caches(E, e, &gc, &uc)) return;
  line(E, "if (!dynac__global_cache_hit(&dynac__G, &%s) || !dynac_np_exact_cached(&%s, %s.value)) "
       "goto dynac_spec_fail_%d; /* line %d's np.%s as the checked copy found it */", gc, uc, gc, n, e->pos.line,
       e->u.call.name);
}

/* The same call in the speculative copy: IEEE's operation in C, its inf or nan to the flag. */
static const char *spec_np_exact(em *E, expr *e) {
  expr *a = e->u.call.args[1];
  const char *x = keep(E, as_double(E, emit_expr(E, a), TY(a)), &ty_float);
  const char *r = tmpvar(E, TY(e));
  line(E, "%s = dynac__np_exact('%c', %s); /* np.%s: tested before the loop */", r,
       exact_ufunc(numpy_callee(E->m, e)), x, e->u.call.name);
  line(E, "dynac__nonfinite_%d |= dynac_nonfinite_bits(%s);", E->spec, r);
  return r;
}

const char *emit_np_ufunc(em *E, expr *e) {
  int nin = e->u.call.n - 1;
  expr *callee = e->u.call.args[0];
  const char *fn = numpy_callee(E->m, e);
  char exact = exact_ufunc(fn);
  const char *gc = NULL, *c = NULL;
  bool shared = np_shared_caches(E, e, &gc, &c);
  if (shared && E->spec) return spec_np_exact(E, e);
  if (!shared) c = arena_printf(E->m->a, "uf%d", ++E->tmp);
  bool args_quiet = true; /* no Python code before the call: np may be read borrowed */
  for (int i = 0; i < nin; i++) args_quiet = args_quiet && quiet(E, e->u.call.args[i + 1]);
  const char *f = callee->kind != EX_NAME ? keep(E, emit_expr(E, callee), TY(callee)) /* the ufunc itself */
                 : args_quiet ? emit_global_borrowed(E, callee->u.global->name, gc) /* the module */
                 : keep(E, emit_global_cached(E, callee->u.global->name, gc), &ty_obj);
  const char *x[2] = {NULL, NULL};
  for (int i = 0; i < nin; i++) {
    expr *a = e->u.call.args[i + 1];
    x[i] = keep(E, as_double(E, emit_expr(E, a), TY(a)), &ty_float);
  }
  const char *nm = e->u.call.kind == CALLEE_METHOD ? interned_name(E, e->u.call.name) : "NULL";
  if (shared) { /* declared above */
  } else if (exact) /* numpy's loop is IEEE's exact operation: done in C once np.NAME is numpy's own */
    line(E, "static dynac_ufunc_cache %s = {.exact = '%c'}; /* numpy.%s */", c, exact, fn);
  else line(E, "static dynac_ufunc_cache %s; /* numpy.%s's float64 loop */", c, fn);
  const char *r = tmpvar(E, TY(e));
  line(E, "{");
  E->indent++;
  line(E, "const double in[%d] = {%s%s%s};", nin, x[0], nin > 1 ? ", " : "", nin > 1 ? x[1] : "");
  line(E, "int st = dynac_np_ufunc(&%s, %s, %s, %d, in, &%s, &dynac__effects); /* np.%s */", c, f, nm, nin, r,
       fn);
  line(E, "if (st < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  /* the interpreter calls it where it can go on from here (numpy then warns at this line) */
  const char *cond = arena_printf(E->m->a, "st || !isfinite(%s)", r);
  const char *why = "not numpy's ufunc, or inf or nan, where numpy may warn";
  if (!warn_in_interpreter_if(E, why, cond) && !deopt_if_exact(E, why, cond)) {
    line(E, "if (%s) { /* not numpy's ufunc, or inf or nan, where numpy may warn */", cond);
    E->indent++;
    line(E, "if (!dynac__effects && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; /* the interpreter calls it */");
    line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* else numpy's own call, here (it warns or raises) */");
    line(E, "st = dynac_np_ufunc_api(%s, %s, %d, in, &%s);", f, nm, nin, r);
    line(E, "if (st < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
    deopt_if(E, NULL, "np.NAME gave something else than a float", "st");
    E->indent--;
    line(E, "}");
    note_effect(E); /* numpy's call may warn: a warning filter may run Python code */
  }
  E->indent--;
  line(E, "}");
  return r; /* (the lookup of np.NAME in numpy's dict runs no Python code; dynac__effects says if any ran) */
}

/* Does a block use numpy float arithmetic (whose underflow numpy may be
 * told to report, dynac_np_underflow_noticed)? */
static void np_float_expr(void *scan, expr *e) {
  np_scan *S = scan;
  const type *t = ty_of(S->E->in, e);
  if (e->kind == EX_BINOP && (np_float(t) || ty_may_be_np(t))) S->any = true;
  if (e->kind == EX_LISTCOMP) np_float_block(scan, e->u.comp.loop);
  ir_each_subexpr(e, np_float_expr, scan);
}
static void np_float_target(void *scan, target *t) {
  if (t->sub) np_float_expr(scan, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) np_float_target(scan, t->elts[i]);
}
static void np_float_block(void *scan, stmt *b) {
  static const ir_parts parts = {np_float_expr, np_float_target, np_float_block, true};
  for (; b; b = b->next) ir_each_part(b, &parts, scan);
}
bool uses_np_float(em *E, stmt *b) {
  np_scan S = {E, false};
  np_float_block(&S, b);
  return S.any;
}
/* On the way out of a kernel with numpy float arithmetic: an underflow
 * numpy would report (np.seterr) sends the call to the interpreter. */
void np_exit_check(em *E) {
  if (E->np_exit && !E->exported)
    deopt_if(E, NULL, "numpy: an underflow that np.seterr does not ignore", "dynac_np_underflow_noticed()");
}

/* Does the numpy float chain `e` pass local `x`'s inf or nan to its top? */
static bool passes_local(em *E, const expr *e, int x) {
  if (e->kind == EX_LOCAL) return e->u.local == x;
  return finite_operands_pass(E, e) && (passes_local(E, e->u.bin.l, x) || passes_local(E, e->u.bin.r, x));
}

/* Does e pass local x's inf or nan to its top, as + - * of floats and
 * float() do (inf * 0 is nan: a tree of them with an inf or nan leaf is
 * inf or nan)? */
static bool carries_local(em *E, const expr *e, int x) {
  const type *t = TY(e);
  if (e->kind == EX_LOCAL) return e->u.local == x;
  if (!(t->kind == TY_FLOAT || np_float(t))) return false;
  if (e->kind == EX_CALL && e->u.call.kind == CALLEE_BUILTIN && e->u.call.op && e->u.call.op->id == OPI_FLOAT &&
      e->u.call.n == 1)
    return carries_local(E, e->u.call.args[0], x);
  return e->kind == EX_BINOP && add_sub_mul(e->u.bin.op) &&
         (carries_local(E, e->u.bin.l, x) || carries_local(E, e->u.bin.r, x));
}

/* In a speculative loop: `x = chain` (a numpy float operation, under
 * float() too) followed by `acc op= v`, acc a float accumulator the loop
 * changes by + - * only (E->accumulators) and v carrying x: acc is inf or
 * nan after the loop if x ever was, and the test of acc after the loop
 * stands for x's (pairwise's t = float(X[i, k] - X[j, k]); s += t * t).
 * Sets E->accumulated[acc]: its test after the loop is needed. */
bool finite_left_to_accumulator(em *E, const stmt *s) {
  const stmt *n = s->next;
  if (!E->spec || !E->accumulators || s->kind != ST_ASSIGN || s->u.assign.ntargets != 1 || !n ||
      n->kind != ST_AUGASSIGN || n->u.aug.sub || !E->accumulators[n->u.aug.local] || !add_sub_mul(n->u.aug.op))
    return false;
  const target *t = s->u.assign.targets[0];
  const expr *v = s->u.assign.value;
  if (v->kind == EX_CALL && v->u.call.kind == CALLEE_BUILTIN && v->u.call.op && v->u.call.op->id == OPI_FLOAT &&
      v->u.call.n == 1)
    v = v->u.call.args[0];
  if (t->is_tuple || t->sub || !finite_operands_pass(E, v) || !carries_local(E, n->u.aug.value, t->local))
    return false;
  E->accumulated[n->u.aug.local] = true;
  return true;
}

/* `x = chain` followed by `target = chain2` where chain2 passes x's inf or
 * nan to its top, and nothing in chain2 can be observed first (quiet):
 * the inf/nan test of chain2 stands for both (lap = ...; out[i, j] = u +
 * alpha * lap tests once). */
bool finite_left_to_next(em *E, const stmt *s) {
  const stmt *n = s->next;
  if (s->kind != ST_ASSIGN || s->u.assign.ntargets != 1 || !n || n->kind != ST_ASSIGN ||
      n->u.assign.ntargets != 1 || n->u.assign.targets[0]->is_tuple)
    return false;
  const target *t = s->u.assign.targets[0];
  if (t->is_tuple || t->sub || !finite_operands_pass(E, s->u.assign.value) ||
      !finite_operands_pass(E, n->u.assign.value) || !passes_local(E, n->u.assign.value, t->local))
    return false;
  bool was = E->bound[t->local];
  E->bound[t->local] = true; /* by then */
  bool q = quiet(E, n->u.assign.value);
  E->bound[t->local] = was;
  return q;
}
