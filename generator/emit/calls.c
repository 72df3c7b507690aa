/* calls.c: calls: builtins and math functions in C, other kernels directly,
 * allow_in_graph and opaque callables through the runtime, methods of
 * lists and objects.
 */
#include "emit.h"

static const char *emit_call_kind(em *E, expr *e);

/* Is call argument a the callee's default, read by the kernel (ir/expr.c: lower_module_call)? */
static bool is_default_read(const expr *a) { return a->kind == EX_GLOBAL && a->u.global->kind == SLOT_DEFAULT; }

/* Argument i of call e (a builtin, math, module or allow_in_graph callee:
 * its arguments are the call's own), pending until the call ends
 * (emit_call drops them). In a kernel whose statements may go on in the
 * interpreter, a number is kept in a temporary first, so its value is the
 * one evaluated even if a later argument's effect changes what it read. A
 * default the kernel reads for the callee is not pending: the source has
 * no place for it, and the function called there applies its own. */
static const char *emit_arg_as(em *E, expr *e, int i, const type *pt) {
  expr *a = e->u.call.args[i];
  const char *v = emit_operand_for(E, a, pt);
  if (!E->conts || !E->effectful || is_default_read(a)) return v;
  if (is_scalar(TY(a))) v = keep(E, v, TY(a));
  push_pending(E, a, v);
  return v;
}
static const char *emit_arg(em *E, expr *e, int i) { return emit_arg_as(E, e, i, NULL); }
const char *emit_call_arg(em *E, expr *e, int i, const type *pt) { return emit_arg_as(E, e, i, pt); }

static const char *emit_api_call(em *E, expr *e, const char *fn_obj) {
  const char *vals[64];
  for (int i = 0; i < e->u.call.n; i++) vals[i] = emit_arg(E, e, i);
  const char *res = tmpvar(E, TY(e));
  strbuf args = {0};
  for (int i = 0; i < e->u.call.n; i++) {
    if (i) sb_puts(&args, ", ");
    sb_puts(&args, box_value(E, vals[i], TY(e->u.call.args[i])));
  }
  const char *unbox = TY(e)->kind == TY_FLOAT ? "dynac_unbox_float"
                      : TY(e)->kind == TY_INT ? "dynac_unbox_int"
                      : TY(e)->kind == TY_NUM ? (ty_may_be_np(TY(e)) ? "dynac_unbox_num_np" : "dynac_unbox_num")
                      : "dynac_unbox_bool";
  line(E, "{");
  E->indent++;
  line(E, "PyObject *argv[%d] = {%s};", e->u.call.n, args.data ? args.data : "NULL");
  deopt_if(E, "DYNAC_FAIL_NONE_RESULT", NULL, "%s(dynac_call_api(%s, argv, %d), &%s)", unbox, fn_obj,
       e->u.call.n, res);
  E->indent--;
  line(E, "}");
  sb_free(&args);
  return res;
}

/* math.NAME(...) by its row of the operation table (ops.c). */
static const char *emit_math(em *E, expr *e) {
  const op_row *op = e->u.call.op;
  if (op->id == OPI_MATH_API)
    return emit_api_call(E, e, arena_printf(E->m->a, "%s.obj", slot_ref(E, e->u.call.callee_slot)));
  expr *a0 = e->u.call.args[0];
  const char *x = emit_arg(E, e, 0);
  if (op->id == OPI_MATH_TO_INT) {
    if (TY(a0)->kind == TY_NUM)
      return checked(E, &ty_int, !op->helper ? "dynac_num_to_int" : !strcmp(op->helper, "floor")
                     ? "dynac_num_floor" : "dynac_num_ceil", x, NULL);
    if (TY(a0)->kind != TY_FLOAT && TY(a0)->kind != TY_NP) return as_int(E, x, TY(a0));
    x = as_double(E, x, TY(a0)); /* numpy scalars: through float(), as math does */
    const char *t = tmpvar(E, &ty_int);
    if (!op->helper) deopt_if(E, NULL, NULL, "dynac_float_to_int(%s, &%s)", x, t);
    else deopt_if(E, NULL, NULL, "dynac_float_to_int(%s(%s), &%s)", op->helper, x, t);
    return t;
  }
  const char *xd = as_double(E, x, TY(a0));
  if (op->id == OPI_MATH_TEST) return arena_printf(E->m->a, "(bool)%s(%s)", op->helper, xd);
  if (op->id == OPI_MATH_SCALE) return arena_printf(E->m->a, "(%s * %s)", xd, op->helper);
  const char *t = tmpvar(E, &ty_float);
  if (e->u.call.n == 1 && op->helper && !strcmp(op->helper, "sqrt")) {
    /* IEEE's sqrt is correctly rounded (nothing to keep from the optimiser);
     * its only failure is a domain error, from x < 0 (-0.0 and -inf: -0.0, nan).
     * Tested first, no value's test waits for the square root. */
    deopt_if(E, "DYNAC_FAIL_MATH_DOMAIN", "math domain error", "%s < 0", xd);
    line(E, "%s = dynac_sqrt(%s);", t, xd);
    return t;
  }
  if (e->u.call.n == 1) {
    if (op->id == OPI_MATH_CPYTHON) line(E, "%s = %s(%s);", t, op->helper, xd);
    else line(E, "%s = dynac_libm_1(%s, %s);", t, op->helper, xd);
    deopt_if(E, NULL, "math domain/range error", "dynac_math_check1(%s, %s, %d)", xd, t,
             op->id == OPI_MATH_LIBM_OVF);
    return t;
  }
  const char *y = emit_arg(E, e, 1);
  const char *yd = as_double(E, y, TY(e->u.call.args[1]));
  if (op->id == OPI_MATH_CPYTHON) line(E, "%s = %s(%s, %s);", t, op->helper, xd, yd);
  else line(E, "%s = dynac_libm_2(%s, %s, %s);", t, op->helper, xd, yd);
  deopt_if(E, NULL, "math domain/range error", "dynac_math_check2(%s, %s, %s)",
       xd, yd, t);
  return t;
}

static const char *emit_builtin(em *E, expr *e) {
  op_id id = e->u.call.op->id;
  int n = e->u.call.n;
  if (!e->u.call.op->native)
    return emit_api_call(E, e, arena_printf(E->m->a, "%s.obj", slot_ref(E, e->u.call.callee_slot)));
  if (id == OPI_BOOL && n == 0) return "false";
  expr *a0 = e->u.call.args[0];
  if (id == OPI_FLOAT && E->finite_by_parent == e) E->finite_by_parent = a0; /* float(x) has x's inf or nan */
  const char *x = emit_arg(E, e, 0);
  const type *t0 = TY(a0);
  if (t0->kind == TY_NUM && (id == OPI_ABS || id == OPI_INT || id == OPI_ROUND))
    return checked(E, id == OPI_ABS ? t0 : &ty_int, id == OPI_ABS ? "dynac_num_abs"
                   : id == OPI_INT ? "dynac_num_to_int" : "dynac_num_round", x, NULL);
  if (t0->kind == TY_NP && id == OPI_ABS) {
    if (np_is_float(t0->fmt)) return arena_printf(E->m->a, "(%s)fabs(%s)", c_type(t0), x);
    const char *r = tmpvar(E, t0);
    deopt_if(E, NULL, "numpy: abs() wraps", "dynac_int_abs(%s, &%s) || !dynac_np_fits(%s, '%c')", x, r,
             r, t0->fmt);
    return r;
  }
  if (t0->kind == TY_NP && np_is_float(t0->fmt) && id == OPI_INT)
    return checked(E, &ty_int, "dynac_float_to_int", as_double(E, x, t0), NULL);
  if (id == OPI_ABS) {
    if (t0->kind == TY_FLOAT) return arena_printf(E->m->a, "fabs(%s)", x);
    return checked(E, &ty_int, "dynac_int_abs", as_int(E, x, t0), NULL);
  }
  if (id == OPI_INT || id == OPI_ROUND) {
    if (t0->kind != TY_FLOAT) return as_int(E, x, t0);
    return checked(E, &ty_int, id == OPI_INT ? "dynac_float_to_int" : "dynac_float_round",
                   x, NULL);
  }
  if (id == OPI_FLOAT && (t0->kind == TY_INT || t0->kind == TY_BOOL)) /* may be subtracted from 0.0 */
    return arena_printf(E->m->a, "dynac_int_subtrahend(%s)", as_int(E, x, t0));
  if (id == OPI_FLOAT) return as_double(E, x, t0);
  if (id == OPI_BOOL) return truth(E, x, t0);
  if (id == OPI_DIVMOD) {
    const type *et = TY(e)->elts[0];
    const char *y = emit_arg(E, e, 1);
    const type *t1 = TY(e->u.call.args[1]);
    const char *res = tmpvar(E, TY(e));
    if (et->kind == TY_NUM) {
      const char *a = as_num(E, x, t0), *b = as_num(E, y, t1);
      deopt_if(E, NULL, NULL, "dynac_num_floordiv(%s, %s, &%s.v0)", a, b, res);
      deopt_if(E, NULL, NULL, "dynac_num_mod(%s, %s, &%s.v1)", a, b, res);
    } else if (et->kind == TY_FLOAT) {
      const char *a = as_double(E, x, t0), *b = as_double(E, y, t1);
      deopt_if(E, NULL, NULL, "dynac_float_floordiv(%s, %s, &%s.v0)", a, b, res);
      deopt_if(E, NULL, NULL, "dynac_float_mod(%s, %s, &%s.v1)", a, b, res);
    } else {
      const char *a = as_int(E, x, t0), *b = as_int(E, y, t1);
      deopt_if(E, NULL, NULL, "dynac_int_floordiv(%s, %s, &%s.v0)", a, b, res);
      deopt_if(E, NULL, NULL, "dynac_int_mod(%s, %s, &%s.v1)", a, b, res);
    }
    return res;
  }
  /* min / max: the first of the extreme values, as CPython's loop keeps it */
  bool is_max = id == OPI_MAX;
  const char *res = tmpvar(E, TY(e));
  line(E, "%s = %s;", res, convert(E, x, t0, TY(e)));
  for (int i = 1; i < n; i++) {
    expr *ai = e->u.call.args[i];
    const char *v = emit_arg(E, e, i);
    line(E, "if (%s) %s = %s;", cmp_values(E, is_max ? CMP_GT : CMP_LT, v, TY(ai), res, TY(e)),
         res, convert(E, v, TY(ai), TY(e)));
  }
  return res;
}

static const char *keyword_names(em *E, expr *e);
static const char *kwnames_tuple(em *E, int n, const char *const *names);

/* call_through_runtime for E->held_callee, the module function read
 * before the arguments ran, which may have a new __code__ or defaults by
 * now: called as the source calls it (the arguments given by position,
 * then those given by keyword, in the source's order), its own defaults
 * applied by CPython, not the ones the kernel read for the function it
 * was built for. */
static void call_held_callee(em *E, expr *e, const char *const *vals, const char *comment) {
  int np = e->u.call.npos_given, nk = e->u.call.nkw_given, n = np + nk;
  const char *names[64];
  for (int j = 0; j < nk; j++) names[j] = e->u.call.fn->params[e->u.call.kw_given[j]];
  const char *kw = nk ? kwnames_tuple(E, nk, names) : "NULL";
  line(E, "PyObject *argv[%d] = {NULL};", n ? n : 1);
  for (int i = 0; i < n; i++) {
    int a = i < np ? i : e->u.call.kw_given[i - np];
    line(E, "argv[%d] = %s;", i, box_value_cold(E, vals[a], TY(e->u.call.args[a])));
  }
  line(E, "PyObject *r = NULL;");
  line(E, "int ok = 1;");
  line(E, "for (int i = 0; i < %d; i++) if (!argv[i]) ok = 0;", n);
  line(E, "if (ok) r = dynac__G.rt->call_opaque(%s, argv, %d, %s); /* %s: the function read first */",
       E->held_callee, np, kw, comment);
  line(E, "for (int i = 0; i < %d; i++) Py_XDECREF(argv[i]);", n);
  line(E, "if (!r) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
}

/* Calls e's callee (its guard slot) through the runtime with the kernel
 * values `vals` boxed, leaving `PyObject *r` (a new reference) in scope; on
 * an exception, returns it with this line in the traceback. The path of a
 * guard that failed (the callee or its class changed): its boxes are made
 * there (box_value_cold), so that a parameter passed on is read from the
 * caller's objects only where the kernel's own path needs it (reads_args). */
static void call_through_runtime(em *E, expr *e, const char *const *vals, const char *comment) {
  if (E->held_callee) {
    call_held_callee(E, e, vals, comment);
    return;
  }
  int n = e->u.call.n;
  const char *kw = keyword_names(E, e); /* a devirtualised method's keywords (before the references below) */
  line(E, "PyObject *argv[%d] = {NULL};", n ? n : 1);
  for (int i = 0; i < n; i++)
    line(E, "argv[%d] = %s;", i, box_value_cold(E, vals[i], TY(e->u.call.args[i])));
  line(E, "PyObject *r = NULL;");
  line(E, "int ok = 1;");
  line(E, "for (int i = 0; i < %d; i++) if (!argv[i]) ok = 0;", n);
  if (e->u.call.kind == CALLEE_METHOD) /* a devirtualised method: CPython's lookup on argv[0] */
    line(E, "if (ok) r = PyObject_VectorcallMethod(%s, argv, %d, %s); /* %s */",
         interned_name(E, e->u.call.name), n - e->u.call.nkw, kw, comment);
  else
    line(E, "if (ok) r = dynac__G.rt->call_opaque(%s.obj, argv, %d, NULL); /* %s */",
         slot_ref(E, e->u.call.callee_slot), n, comment);
  line(E, "for (int i = 0; i < %d; i++) Py_XDECREF(argv[i]);", n);
  line(E, "if (!r) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
}

/* allow_in_graph: the callee runs through the C API (its own frame may
 * dispatch); its exception propagates with this line in the traceback. */
static const char *emit_opaque_call(em *E, expr *e) {
  const char *vals[64];
  int n = e->u.call.n;
  for (int i = 0; i < n; i++) vals[i] = emit_arg(E, e, i);
  const type *rt = e->u.call.ret;
  const char *res = rt ? tmpvar(E, rt) : "0";
  if (rt) line(E, "%s = 0;", res);
  line(E, "{");
  E->indent++;
  call_through_runtime(E, e, vals, arena_printf(E->m->a, "%s(): opaque", e->u.call.name));
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects);");
  note_effect(E);
  if (rt) {
    const char *unbox = rt->kind == TY_FLOAT ? "dynac_unbox_float" : rt->kind == TY_INT
                        ? "dynac_unbox_int" : "dynac_unbox_bool";
    deopt_if(E, "DYNAC_FAIL_NONE_RESULT", "not the annotated type", "%s(r, &%s)", unbox, res);
  } else {
    line(E, "Py_DECREF(r); /* the result is not used */");
  }
  E->indent--;
  line(E, "}");
  return res;
}

/* len(c), and sum(c) as CPython 3.11 computes it: from the int 0, ints
 * exactly (overflow deoptimises), floats added left to right in a double. */
static const char *emit_len_sum(em *E, expr *e) {
  if (TY(e) == &ty_num_np) return emit_builtin_sum(E, e->u.call.args[0]); /* sum(a) of float64 items */
  expr *a = e->u.call.args[0];
  const char *obj = emit_arg(E, e, 0);
  if (ops_call_is(e, OPI_LEN) && TY(a)->kind == TY_OBJ) { /* __len__ may run */
    const char *n = arena_printf(E->m->a, "t%d", ++E->tmp);
    line(E, "Py_ssize_t %s = dynac_obj_len(%s, &dynac__effects);", n, obj);
    note_effect(E);
    line(E, "if (%s < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", n, where(E));
    return arena_printf(E->m->a, "(int64_t)%s", n);
  }
  if (ops_call_is(e, OPI_LEN) && TY(a)->kind == TY_TUPLE) { /* its length is its type's */
    line(E, "(void)%s; /* evaluated for its effects only */", obj);
    return arena_printf(E->m->a, "INT64_C(%d)", TY(a)->n);
  }
  if (ops_call_is(e, OPI_LEN)) return arena_printf(E->m->a, "(int64_t)%s", len_of(E, obj, TY(a)));
  obj = keep(E, obj, TY(a));
  const type *et = ty_elem(TY(a));
  bool fl = et->kind == TY_FLOAT;
  const char *acc = tmpvar(E, fl ? &ty_float : &ty_int);
  line(E, "%s = 0;", acc);
  const char *k = arena_printf(E->m->a, "ix%d", ++E->tmp);
  line(E, "for (int64_t %s = 0; %s < %s; %s++) {", k, k, len_of(E, obj, TY(a)), k);
  E->indent++;
  const positions at = {{k, NULL}, {"true", NULL}}; /* 0 <= k < len, and reads change no length */
  const char *x = elem_read(E, obj, TY(a), &at, NULL, NULL);
  if (fl) line(E, "%s += %s;", acc, x);
  else fail_if(E, NULL, "int64 overflow", arena_printf(E->m->a, "dynac_int_add(%s, (int64_t)%s, &%s)",
               acc, x, acc), NULL);
  E->indent--;
  line(E, "}");
  if (!fl) return acc;
  return arena_printf(E->m->a, "(%s ? dynac_num_f(%s) : dynac_num_i(0))", len_of(E, obj, TY(a)), acc);
}

/* min(xs) / max(xs) of a list of numbers (min_max_of_list), as CPython's
 * min_max loop: the first item, then each later one that compares less
 * (greater) than the one kept, so the first of equal extremes and a NaN
 * first stay; an empty list: the interpreter's ValueError. */
static const char *emit_min_max_of_list(em *E, expr *e) {
  expr *a = e->u.call.args[0];
  const char *obj = keep(E, emit_arg(E, e, 0), TY(a));
  const type *et = ty_elem(TY(a));
  const char *n = len_of(E, obj, TY(a));
  fail_if(E, NULL, arena_printf(E->m->a, "%s() of an empty list", e->u.call.name),
          arena_printf(E->m->a, "%s == 0", n), NULL);
  const positions first = {{"0", NULL}, {"true", NULL}}; /* the list is not empty, and reads change no length */
  const char *res = tmpvar(E, et);
  line(E, "%s = %s;", res, elem_read(E, obj, TY(a), &first, NULL, NULL));
  const char *k = arena_printf(E->m->a, "ix%d", ++E->tmp);
  line(E, "for (int64_t %s = 1; %s < %s; %s++) {", k, k, n, k);
  E->indent++;
  const positions at = {{k, NULL}, {"true", NULL}};
  const char *x = elem_read(E, obj, TY(a), &at, NULL, NULL);
  line(E, "if (%s) %s = %s;", cmp_values(E, ops_call_is(e, OPI_MAX) ? CMP_GT : CMP_LT, x, et, res, et), res, x);
  E->indent--;
  line(E, "}");
  return res;
}

/* A callee's text for a comment: a dotted name, else "<callee>" (never a comment end). */
static const char *dotted_or_blank(const char *s) {
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.') return "<callee>";
  return s;
}

/* The kwnames tuple of a call with keyword arguments (made once per site),
 * or "NULL". */
static const char *keyword_names(em *E, expr *e) {
  return e->u.call.nkw ? kwnames_tuple(E, e->u.call.nkw, e->u.call.kwnames) : "NULL";
}
/* The tuple of keyword names `names` (n of them), made once per site. */
static const char *kwnames_tuple(em *E, int n, const char *const *names) {
  strbuf list = {0};
  for (int i = 0; i < n; i++) sb_printf(&list, "%s%s", i ? ", " : "", c_string(E->m, names[i]));
  const char *var = arena_printf(E->m->a, "kw%d", ++E->tmp);
  line(E, "static PyObject *%s; /* keyword names, made once */", var);
  line(E, "if (!dynac_kwnames(&%s, %d, (const char *const[]){%s})) DYNAC_LEAVE(dynac_traceback_here(%s));",
       var, n, list.data, where(E));
  sb_free(&list);
  return var;
}

/* LOAD_METHOD: `int unbound = ...` and meth (an owned temporary) for
 * o.name(...) through the site's cache (runtime's dynac_get_method_cached);
 * unbound: whether meth is the class's function, to take o first. */
static void emit_method_lookup(em *E, const char *o, const char *name, const char *meth, const char *unbound,
                               const char *why) {
  const char *c = emit_attr_cache(E, "where each class (or module) keeps the method");
  line(E, "int %s DYNAC_UNUSED = dynac_get_method_cached(%s, %s, &%s, &%s, &dynac__effects); /* .%s, %s */", unbound, o,
       interned_name(E, name), c, meth, name, why);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", meth, where(E));
}

/* The arguments of a call through the C API as an array of objects, in
 * order (boxed where typed): returns the array's initialiser. o.m(args)
 * whose arguments may raise or run code looks m up first, as LOAD_METHOD
 * does before they are evaluated (an AttributeError comes before their
 * errors): *meth then names the looked-up callable (an owned temporary)
 * and *unbound whether it takes o first; else they stay NULL. */
static char *object_args(em *E, expr *e, const char **meth, const char **unbound) {
  const char *argv[64];
  bool lookup_first = false;
  for (int i = 1; e->u.call.kind == CALLEE_METHOD && i < e->u.call.n; i++)
    if (!expr_inert(e->u.call.args[i])) lookup_first = true;
  for (int i = 0; i < e->u.call.n && i < 64; i++) {
    argv[i] = as_obj(E, emit_arg(E, e, i), TY(e->u.call.args[i]));
    if (i == 0 && lookup_first) { /* LOAD_METHOD */
      *meth = tmpvar(E, &ty_obj);
      *unbound = arena_printf(E->m->a, "u%d", ++E->tmp);
      emit_method_lookup(E, argv[0], e->u.call.name, *meth, *unbound, "before its arguments");
    }
  }
  strbuf args = {0};
  for (int i = 0; i < e->u.call.n && i < 64; i++) sb_printf(&args, "%s%s", i ? ", " : "", argv[i]);
  char *r = arena_strdup(E->m->a, args.data ? args.data : "NULL");
  sb_free(&args);
  return r;
}

/* math.f(x) of an object x typed float (infer: its result is always an
 * exact float, the guarded function being math's own): computed in C for
 * an exact float, else the function's call,
 * its float unboxed (runtime/objects.h: dynac_math_float_of_object). The
 * call may run Python code (x.__float__): an effect only then. */
static const char *emit_math_float_of_object(em *E, expr *e) {
  const char *x = as_obj(E, emit_arg(E, e, 0), TY(e->u.call.args[0]));
  const char *t = tmpvar(E, &ty_float);
  note_effect(E);
  line(E, "if (dynac_math_float_of_object(%s, %s.obj, %s, &%s, &dynac__effects) < 0) /* %s(): an exact float's in C */",
       e->u.call.op->helper, slot_ref(E, e->u.call.callee_slot), x, t, e->u.call.name);
  line(E, "  DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  return t;
}

/* The call of looked-up method `meth` (`unbound`: it takes argv[0] first)
 * with argv's npos positional arguments, its `;` and comment: heapq's
 * heappush / heappop with the module's compiled comparisons (heap.c);
 * .append(v) and .pop([i]) of an exact list in C (runtime/objects.h:
 * dynac_call_list_append, dynac_call_list_pop); else PyObject_Vectorcall. */
static const char *method_vectorcall(em *E, expr *e, const char *meth, const char *unbound, int npos,
                                     const char *kw) {
  if (heap_call(E, e))
    return arena_printf(E->m->a, "dynac_heapq_call(%s, argv + !%s, %d - !%s, %s, dynac__heap_less); /* .%s(...): "
                        "its comparisons compiled */", meth, unbound, npos, unbound,
                        e->u.call.n == 3 ? "DYNAC_HEAPPUSH" : "DYNAC_HEAPPOP", e->u.call.name);
  const char *name = e->u.call.name;
  if (!e->u.call.nkw && ((!strcmp(name, "append") && npos == 2) || (!strcmp(name, "pop") && npos <= 2)))
    return arena_printf(E->m->a, "dynac_call_list_%s(%s, argv, %s, %d); /* .%s(...): an exact list's in C */", name,
                        meth, unbound, npos, name);
  return arena_printf(E->m->a, "PyObject_Vectorcall(%s, argv + !%s, %d - !%s, %s); /* .%s(...) */", meth, unbound,
                      npos, unbound, kw, name);
}

/* A call through the C API, the arguments as objects (keywords by name), an
 * object result (a new reference); Python code runs (an effect):
 * f(args) of an object f (CALLEE_VALUE: PyObject_Vectorcall), o.name(args)
 * of an object o (PyObject_VectorcallMethod), or a builtin or math function
 * called with objects or keywords (the function object its guard slot holds). */
static const char *emit_object_call(em *E, expr *e) {
  const char *meth = NULL, *unbound = NULL;
  const char *args = object_args(E, e, &meth, &unbound);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "{");
  E->indent++;
  line(E, "PyObject *argv[%d] = {%s};", e->u.call.n ? e->u.call.n : 1, args);
  const char *kw = keyword_names(E, e);
  bool heap = heap_call(E, e) && (meth || e->u.call.kind == CALLEE_METHOD) && !e->u.call.own_list &&
              !e->u.call.super_cell && e->u.call.kind != CALLEE_VALUE;
  if (heap) /* heapq's own algorithm with compiled comparisons: runtime/heapq.h bumps where Python code runs */
    line(E, "dynac__effects = 1; /* the heap changes (its comparisons may run Python code) */");
  else line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code runs */");
  note_effect(E);
  int npos = e->u.call.n - e->u.call.nkw;
  if (e->u.call.own_list) /* a set or dict comprehension's own insert: __hash__, __eq__ may run */
    line(E, "%s = %s < 0 ? NULL : Py_NewRef(Py_None); /* SET_ADD / MAP_ADD */", o, e->u.call.n == 2
         ? "PySet_Add(argv[0], argv[1])" : "PyDict_SetItem(argv[0], argv[1], argv[2])");
  else if (e->u.call.super_cell)
    line(E, "%s = dynac_super(argv[0], PyTuple_GET_ITEM(dynac__closure, %d), argv[1]); /* super() */", o,
         e->u.call.super_cell - 1);
  else if (e->u.call.kind == CALLEE_VALUE)
    line(E, "%s = dynac_call_object(argv[0], argv + 1, %d | PY_VECTORCALL_ARGUMENTS_OFFSET, %s); /* %s(...) */", o,
         npos - 1, kw, dotted_or_blank(e->u.call.name));
  else if (meth) /* looked up before the arguments: with the receiver when unbound */
    line(E, "%s = %s", o, method_vectorcall(E, e, meth, unbound, npos, kw));
  else if (e->u.call.kind == CALLEE_METHOD) { /* PyObject_VectorcallMethod, its lookup cached */
    const char *m = tmpvar(E, &ty_obj), *u = arena_printf(E->m->a, "u%d", ++E->tmp);
    emit_method_lookup(E, "argv[0]", e->u.call.name, m, u, "its arguments inert");
    line(E, "%s = %s", o, method_vectorcall(E, e, m, u, npos, kw));
  }
  else
    line(E, "%s = PyObject_Vectorcall(%s.obj, argv, %d, %s); /* %s() */", o,
         slot_ref(E, e->u.call.callee_slot), npos, kw, e->u.call.name);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  E->indent--;
  line(E, "}");
  return o;
}

/* Argument i of a call with * or ** (the callee is argument 0) as an
 * object, pending until the call (emit_arg) unless `pend` is false: a
 * statement going on in the interpreter at a later value keeps it rather
 * than evaluating it again. */
static const char *starred_call_value(em *E, expr *e, int i, bool pend) {
  expr *a = e->u.call.args[i];
  pend &= a->kind != EX_INT && a->kind != EX_FLOAT && a->kind != EX_BOOL && a->kind != EX_NONE &&
          a->kind != EX_CONST; /* a literal: evaluating it again is the same (its constant made once) */
  return keep(E, as_obj(E, pend ? emit_arg(E, e, i) : emit_expr(E, a), TY(a)), &ty_obj);
}
static const char *starred_call_arg(em *E, expr *e, int i) { return starred_call_value(E, e, i, true); }

/* f(..., *it, ...) with more to evaluate after it: it is spread into `list`
 * now, as LIST_EXTEND does, and what it gave is pending (a list of its
 * items): a statement going on in the interpreter spreads that list, where
 * `it` itself, an iterator, would be spent. */
static void spread_pending(em *E, expr *a, const char *list, const char *it) {
  bool pend = E->conts && E->effectful;
  const char *n0 = pend ? tmpvar(E, &ty_int) : NULL;
  if (pend) line(E, "%s = PyList_GET_SIZE(%s);", n0, list);
  line(E, "if (dynac_call_extend(%s, %s, NULL) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", list, it, where(E));
  if (!pend) return;
  const char *got = tmpvar(E, &ty_obj);
  line(E, "%s = PyList_GetSlice(%s, %s, PyList_GET_SIZE(%s)); /* the items the * gave */", got, list, n0, list);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", got, where(E));
  push_operand(E, a, got, true); /* owned: a continuation takes it */
}

/* The spread operand x of a call f(..., *x) when x is the *args this
 * kernel took as its caller's values (spread_param): its C array, with
 * *n its length; else NULL (x is evaluated as a tuple or iterable). A
 * never-rebound parameter, it is not pending: a statement going on in
 * the interpreter reads it again (its tuple: continue.c cont_value). */
static const char *spread_values(em *E, const expr *x, const char **n) {
  if (E->exported || x->kind != EX_LOCAL || !spread_param(E->in, x->u.local)) return NULL;
  const char *nm = E->in->fn->params[x->u.local];
  *n = arena_printf(E->m->a, "n_%s", nm);
  return arena_printf(E->m->a, "p_%s", nm);
}

/* f(a, b, *t) (argform "p..p*"): the values in order, then one call
 * (runtime: dynac_call_star) that passes an exact tuple's items without a
 * list, and gathers anything else as CALL_FUNCTION_EX does. */
static const char *positional_star_call(em *E, expr *e, const char *f, int npos) {
  strbuf vals = {0};
  for (int i = 1; i <= npos; i++) sb_printf(&vals, "%s%s", i > 1 ? ", " : "", starred_call_arg(E, e, i));
  const char *n = NULL, *items = spread_values(E, e->u.call.args[npos + 1], &n);
  const char *t = items ? NULL : starred_call_arg(E, e, npos + 1), *o = tmpvar(E, &ty_obj);
  const char *p = npos ? arena_printf(E->m->a, "(PyObject *[]){%s}", vals.data) : "NULL";
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code runs: the call, an iterator's __next__ */");
  note_effect(E);
  if (items)
    line(E, "%s = dynac_call_vector(%s, %s, %d, %s, %s); /* %s(...): *args' values */", o, f, p, npos, items, n,
         dotted_or_blank(e->u.call.name));
  else
    line(E, "%s = dynac_call_star(%s, %s, %d, %s); /* %s(...) */", o, f, p, npos, t, dotted_or_blank(e->u.call.name));
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  sb_free(&vals);
  return o;
}

/* f(..., **m, ...): m merged into the keyword dict `kw` now, as
 * DICT_MERGE does, and what it gave is pending (a new dict of the items it
 * added, kw's last ones): a statement going on in the interpreter merges
 * that exact dict, where m's keys() and __getitem__ would run again. */
static void merge_pending(em *E, expr *a, const char *kw, const char *m, const char *f, bool more) {
  bool pend = E->conts && E->effectful && more; /* (more: arguments follow it, which may fail) */
  const char *n0 = pend ? tmpvar(E, &ty_int) : NULL;
  if (pend) line(E, "%s = PyDict_GET_SIZE(%s);", n0, kw);
  line(E, "if (dynac_call_merge(%s, %s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", kw, m, f, where(E));
  if (!pend) return;
  const char *got = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_dict_tail(%s, %s); /* the items the ** gave */", got, kw, n0);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", got, where(E));
  push_operand(E, a, got, true); /* owned: a continuation takes it */
}

/* f(a, *it, k=v, **m) (argform): the callee, then the arguments in source
 * order into a list (LIST_EXTEND for *it) and a dict (DICT_MERGE for **m;
 * the plain keywords after a ** merged as a group once evaluated), then
 * PyObject_Call, as CALL_FUNCTION_EX. A lone *it is checked and made a
 * tuple after the keywords, as CALL_FUNCTION_EX does. */
static const char *emit_starred_call(em *E, expr *e) {
  const char *form = e->u.call.argform;
  const char *f = starred_call_arg(E, e, 0);
  int npos = 0, nstar = 0;
  for (int i = 1; i < e->u.call.n; i++) npos += form[i] == 'p', nstar += form[i] == '*';
  if (nstar == 1 && npos == e->u.call.n - 2 && form[e->u.call.n - 1] == '*')
    return positional_star_call(E, e, f, npos); /* f(a, b, *t) */
  bool lone = nstar == 1 && npos == 0;
  const char *list = tmpvar(E, &ty_obj), *kw = "NULL", *lone_it = NULL;
  line(E, "%s = PyList_New(0); /* f(*args, **kwargs): the positional arguments */", list);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", list, where(E));
  int k = 0, group = 0; /* keywords: their index; the plain keywords waiting to be added */
  const char *pending[65], *pending_name[65]; /* infer takes at most 64 arguments */
  for (int i = 1; i <= e->u.call.n; i++) {
    char c = i < e->u.call.n ? form[i] : 0;
    if (c != 'k' && group) { /* a group of plain keywords, added once all are evaluated */
      for (int g = 0; g < group; g++)
        line(E, "if (dynac_call_keyword(%s, %s, %s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", kw,
             pending_name[g], pending[g], f, where(E));
      group = 0;
    }
    if (!c) break;
    bool spread = (c == '*' && !lone) || c == 'd'; /* pending as what they gave */
    const char *v = starred_call_value(E, e, i, !spread);
    if ((c == 'k' || c == 'd') && !strcmp(kw, "NULL")) {
      kw = tmpvar(E, &ty_obj);
      line(E, "%s = PyDict_New(); /* the keyword arguments */", kw);
      line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", kw, where(E));
    }
    if (c == '*' || c == 'd') { /* an iterator's __next__, a mapping's keys() may be Python code */
      line(E, "DYNAC_PYTHON_RUNS(dynac__effects);");
      note_effect(E);
    }
    if (c == 'p')
      line(E, "if (PyList_Append(%s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", list, v, where(E));
    else if (c == '*' && lone)
      lone_it = v;
    else if (c == '*')
      spread_pending(E, e->u.call.args[i], list, v);
    else if (c == 'd')
      merge_pending(E, e->u.call.args[i], kw, v, f, i + 1 < e->u.call.n);
    else {
      pending_name[group] = interned_name(E, e->u.call.kwnames[k++]);
      pending[group++] = v;
    }
  }
  if (lone_it)
    line(E, "if (dynac_call_extend(%s, %s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", list, lone_it, f,
         where(E));
  const char *args = tmpvar(E, &ty_obj), *o = tmpvar(E, &ty_obj);
  line(E, "%s = PyList_AsTuple(%s);", args, list);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", args, where(E));
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code runs */");
  note_effect(E);
  line(E, "%s = dynac_call_object_ex(%s, %s, %s); /* %s(...) */", o, f, args, kw, dotted_or_blank(e->u.call.name));
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* list.append(v) / list.pop([i]) / list.insert(i, v) / list.extend(v) */
static const char *emit_method(em *E, expr *e) {
  const type *lt = TY(e->u.call.args[0]);
  if (method_via_api(E->in, e)) return emit_object_call(E, e);
  const type *et = lt->elts[0];
  const char *l = keep(E, emit_expr(E, e->u.call.args[0]), lt);
  if (ops_call_is(e, OPI_EXTEND)) {
    emit_list_extend(E, l, emit_expr(E, e->u.call.args[1]), TY(e->u.call.args[1]));
    return "0";
  }
  if (ops_call_is(e, OPI_INSERT)) {
    const char *i = keep(E, as_int(E, emit_expr(E, e->u.call.args[1]), TY(e->u.call.args[1])), &ty_int);
    emit_logged_list_write(E, emit_expr(E, e->u.call.args[2]), TY(e->u.call.args[2]),
                           arena_printf(E->m->a, "dynac_list_insert(dynac__u, %s, %s, b)", l, i));
    return "0";
  }
  expr *recv = e->u.call.args[0];
  bool fresh = recv->kind == EX_LOCAL && E->fresh && E->fresh[recv->u.local];
  if (e->u.call.own_list && E->comp && comprehension_folds(E->in, E->comp))
    return emit_fold_item(E, E->comp, box_value(E, emit_expr(E, e->u.call.args[1]), TY(e->u.call.args[1])));
  const number_fold *nf = e->u.call.own_list && E->comp ? number_fold_of(E, E->comp) : NULL;
  if (nf && (nf->kind != 'S' || nf->item->kind == TY_FLOAT)) /* (a float sum, min, max: no overflow) */
    return emit_number_fold_item(E, nf, emit_expr(E, e->u.call.args[1]));
  if (nf) { /* the item pending: an int64 overflow of the sum goes on in the interpreter with it */
    int depth = E->nvstack;
    const char *x = keep(E, emit_expr(E, e->u.call.args[1]), TY(e->u.call.args[1]));
    push_pending(E, e->u.call.args[1], x);
    const char *r = emit_number_fold_item(E, nf, x);
    E->nvstack = depth;
    return r;
  }
  if ((e->u.call.own_list || fresh) && ops_call_is(e, OPI_APPEND)) {
    /* a list this call made (a comprehension's, or one only ever bound to new lists): a
       rollback leaves it unreachable, so its appends need no undo entry */
    const char *v = emit_expr(E, e->u.call.args[1]);
    line(E, "if (dynac_list_append_own(%s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", l,
         box_value(E, v, TY(e->u.call.args[1])), where(E));
    return "0";
  }
  if (ops_call_is(e, OPI_APPEND)) {
    emit_logged_list_write(E, emit_expr(E, e->u.call.args[1]), TY(e->u.call.args[1]),
                           arena_printf(E->m->a, "dynac_list_append(dynac__u, %s, b)", l));
    return "0";
  }
  const char *res = tmpvar(E, et);
  const char *n = arena_printf(E->m->a, "PyList_GET_SIZE(%s)", l);
  const char *k;
  if (e->u.call.n == 2) {
    const char *i = keep(E, as_int(E, emit_expr(E, e->u.call.args[1]), TY(e->u.call.args[1])), &ty_int);
    k = checked_index(E, lt, false, n, i, NULL, arena_printf(E->m->a, "dynac_slow_pop(%s, 1, %s, %s)", l, i, where(E)));
  } else {
    k = arena_printf(E->m->a, "ix%d", ++E->tmp);
    line(E, "int64_t %s = %s - 1;", k, n);
    fail_if(E, "DYNAC_FAIL_INDEX", "IndexError: pop from empty list", arena_printf(E->m->a, "%s < 0", k),
            arena_printf(E->m->a, "dynac_slow_pop(%s, 0, 0, %s)", l, where(E)));
  }
  fail_if(E, "DYNAC_FAIL_NONE_RESULT", "an element of another type", elem_unbox_cond(E, et, arena_printf(E->m->a,
          "PyList_GET_ITEM(%s, %s)", l, k), res), NULL);
  if (et->kind == TY_LIST) { /* held: a full undo log would drop the popped reference */
    const char *own = tmpvar(E, &ty_obj);
    line(E, "%s = Py_NewRef(%s);", own, res);
    res = own;
  }
  line(E, "if (dynac_list_pop(dynac__u, %s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* logged for undo */",
       l, k, where(E));
  note_effect(E);
  return res;
}

/* Exported C: a call of another exported kernel; its failure has filled
 * the status already. args: the C arguments (NULL: none); res: where the
 * result goes, or NULL. */
static void emit_export_call(em *E, inst *callee, const char *args, const char *res) {
  line(E, "{");
  E->indent++;
  deopt_if(E, "DYNAC_FAIL_RECURSION", NULL, "dynac__depth >= DYNAC_MAX_KERNEL_DEPTH");
  line(E, "dynac__depth++;");
  line(E, "int st = dynac_kernel_%s(%s%s%s%s%sdynac_st);", callee->cname, args ? args : "",
       args ? ", " : "", res ? "&" : "", res ? res : "", res ? ", " : "");
  line(E, "dynac__depth--;");
  line(E, "if (st == DYNAC_ERROR) return DYNAC_ERROR; /* the callee filled the status */");
  if (res) deopt_if(E, "DYNAC_FAIL_NONE_RESULT", "None where a value was typed", "st == DYNAC_OK_NONE");
  E->indent--;
  line(E, "}");
}

/* A call: its arguments are pending (emit_arg) until it returns. */
const char *emit_call(em *E, expr *e) {
  int depth = E->nvstack, outer = E->call_base;
  E->call_base = depth;
  const char *v = emit_call_kind(E, e);
  E->nvstack = depth;
  E->call_base = outer;
  return v;
}

/* A value of another type than typed (dynac__boxed_result: a kernel callee
 * that finished in the interpreter, dynac_continue, or CPython's operation
 * a special method's call fell back to) in the place of expression `e`,
 * whose own operands were pending above vstack depth `base`: the
 * statement goes on in the interpreter with that value there, its operands
 * no longer pending (mid_action), or NULL when it cannot. */
static const char *boxed_value_action(em *E, const expr *e, int base) {
  int top = E->nvstack;
  bool effect = E->rp.effect;
  int neffects = E->rp.neffects;
  E->rp.effect = true; /* the callee's effects, inside the call's value */
  E->rp.neffects++;
  pending under = E->vstack[base < VSTACK_CAP ? base : 0]; /* an argument's, put back below */
  E->nvstack = base;
  push_operand(E, e, "dynac__boxed_result", true);
  const char *action = mid_action(E);
  E->vstack[base < VSTACK_CAP ? base : 0] = under;
  E->nvstack = top;
  E->rp.effect = effect;
  E->rp.neffects = neffects;
  return action;
}

/* A call's value of another type (boxed_value_action), its arguments pending above call_base. */
const char *boxed_call_action(em *E, const expr *call) {
  return boxed_value_action(E, call, E->call_base);
}

/* How a devirtualised method call (infer/expr.c: type_devirtualised) reaches
 * its kernel: the class whose guard covers it, the C condition under which
 * the kernel may be called, the type whose lookup gives the function (for
 * a closure), and the kernel's arguments' first value and index. */
typedef struct member_call {
  const klass *k;
  const char *current;  /* the condition */
  const char *owner;    /* a PyTypeObject * expression */
  const char *tested;   /* the class (an object expression) `current` tests against k's slot */
  const char *self;     /* super(): the instance, first; else NULL */
  int first;            /* the first of vals the kernel takes (1: the receiver is not an argument) */
  const char *made;     /* a lazy super() receiver: the line making it before CPython's call (else NULL) */
} member_call;

/* The first of a devirtualised call's values the kernel takes (as
 * member_call_of's `first`), and whether a value of the call's own comes
 * before them (a classmethod's class, super()'s instance: member_self). */
static int member_first(em *E, expr *e, const inst *callee) {
  expr *recv = e->u.call.args[0];
  if (TY(recv)->cls) return callee->fn->method == 's' || callee->fn->method == 'c';
  if (recv->kind == EX_NAME) return callee->fn->method != 'c';
  return 1;
}
static int member_self(em *E, expr *e, const inst *callee) {
  expr *recv = e->u.call.args[0];
  if (TY(recv)->cls) return callee->fn->method == 'c';
  return recv->kind != EX_NAME;
}

/* A C condition, nonzero when object o (borrowed) is not a value of type
 * t, else o unboxed into `res`: a struct keeps the instance itself. */
const char *unbox_into(em *E, const type *t, const char *o, const char *res) {
  if (t->rec) return arena_printf(E->m->a, "dynac_rec_from(%s, dynac__slots[%d].obj, &%s.h)", o,
                                  t->cls->slot->index, res);
  return arena_printf(E->m->a, "%s(%s, &%s)", elem_fn(E->m, t), o, res);
}

static member_call member_call_of(em *E, expr *e, const char *const *vals, const inst *callee) {
  arena *a = E->m->a;
  expr *recv = e->u.call.args[0];
  const type *rt = TY(recv);
  member_call mc = {0};
  if (rt->cls) { /* obj.m(...): no attribute m of the instance's own */
    mc.k = rt->cls;
    const char *site = arena_printf(a, "ms%d", ++E->tmp);
    line(E, "static dynac_method_site %s; /* the instances seen lack their own .%s */", site, e->u.call.name);
    bool rec = is_rec_value(vals[0]); /* an instance kept as fields */
    mc.current = arena_printf(a, "%s(%s, &dynac__slots[%d], %s, &%s)",
                              rec ? "dynac_rec_method_current" : "dynac_method_current",
                              rec ? arena_printf(a, "&%s.h", vals[0]) : vals[0], mc.k->slot->index,
                              interned_name(E, e->u.call.name), site);
    mc.owner = rec ? arena_printf(a, "dynac_rec_type(&%s.h)", vals[0]) : arena_printf(a, "Py_TYPE(%s)", vals[0]);
    mc.tested = mc.owner;
    mc.first = callee->fn->method == 's' || callee->fn->method == 'c';
    if (callee->fn->method == 'c') mc.self = arena_printf(a, "(PyObject *)%s", mc.owner); /* cls */
    return mc;
  }
  if (recv->kind == EX_NAME) { /* Cls.m(...): the global still the class, unchanged */
    mc.k = classes_find(E->m, recv->u.global->name);
    int ks = mc.k->slot->index;
    mc.current = arena_printf(a, "%s == dynac__slots[%d].obj && dynac__slots[%d].valid && ((PyTypeObject *)%s)->"
                              "tp_version_tag == (unsigned int)dynac__slots[%d].v.i", vals[0], ks, ks, vals[0], ks);
    mc.owner = arena_printf(a, "((PyTypeObject *)%s)", vals[0]);
    mc.tested = vals[0];
    mc.first = callee->fn->method != 'c'; /* a classmethod takes the class */
    return mc;
  }
  /* super().m(...): super(C, self) for C the class the method was defined in (or none made:
     lazy_super), self an instance of exactly the class, unchanged */
  mc.k = TY(recv->u.call.args[1])->cls;
  mc.self = emit_expr(E, recv->u.call.args[1]); /* the first parameter, as super() read it */
  int ks = mc.k->slot->index, up = classes_super_up(E->m, E->in->fn, mc.k);
  mc.current = arena_printf(a, "dynac__slots[%d].valid && (PyObject *)Py_TYPE(%s) == dynac__slots[%d].obj && "
                            "Py_TYPE(%s)->tp_version_tag == (unsigned int)dynac__slots[%d].v.i && (!%s || "
                            "dynac_compat_super_is(%s, dynac_type_up(Py_TYPE(%s), %d), %s))", ks, mc.self, ks,
                            mc.self, ks, vals[0], vals[0], mc.self, up - 1, mc.self);
  mc.owner = arena_printf(a, "dynac_type_up(Py_TYPE(%s), %d)", mc.self, up);
  mc.tested = arena_printf(a, "Py_TYPE(%s)", mc.self);
  mc.first = 1;
  return mc;
}

/* super() as the receiver of devirtualised call e whose other arguments
 * are inert (nothing runs between super() and the call): the super object
 * is made only when the call cannot be direct. While LOAD_GLOBAL super finds
 * the builtin, the __class__ cell holds the class the method was defined
 * in, and the instance is of exactly the class its guard saw, super().m is
 * the def the build resolved (member_call_of tests the rest); else
 * dynac_super as before (its errors too). The receiver: a PyObject * that
 * is NULL when not made; *made: the line making it (before CPython's call). */
static const char *lazy_super(em *E, expr *e, const char **made) {
  expr *recv = e->u.call.args[0];
  const klass *k = TY(recv->u.call.args[1])->cls;
  int up = classes_super_up(E->m, E->in->fn, k), ks = k->slot->index;
  const char *sfn = emit_expr(E, recv->u.call.args[0]), *self = emit_expr(E, recv->u.call.args[1]);
  const char *cell = arena_printf(E->m->a, "PyTuple_GET_ITEM(dynac__closure, %d)", recv->u.call.super_cell - 1);
  const char *o = tmpvar(E, &ty_obj);
  *made = arena_printf(E->m->a, "if (!%s && DYNAC_PYTHON_RUNS(dynac__effects) && !(%s = dynac_super(%s, %s, %s))) "
                       "DYNAC_LEAVE(dynac_traceback_here(%s)); /* Python code may run */", o, o, sfn, cell, self,
                       where(E));
  note_effect(E);
  line(E, "if (!(%s == (PyObject *)&PySuper_Type && dynac__slots[%d].valid && (PyObject *)Py_TYPE(%s) == "
       "dynac__slots[%d].obj && PyCell_GET(%s) == (PyObject *)dynac_type_up(Py_TYPE(%s), %d))) /* super() */",
       sfn, ks, self, ks, cell, self, up - 1);
  line(E, "  %s", *made);
  return o;
}
static bool super_receiver_lazy(em *E, expr *e, bool devirt) {
  expr *recv = e->u.call.args[0];
  if (!devirt || recv->kind != EX_CALL || !recv->u.call.super_cell || TY(recv)->cls) return false;
  if (classes_super_up(E->m, E->in->fn, TY(recv->u.call.args[1])->cls) < 1) return false;
  for (int i = 1; i < e->u.call.n; i++)
    if (!expr_inert(e->u.call.args[i])) return false;
  return true;
}

/* Before a site's test of class slot ks for `tested` (an object
 * expression): the class, met with a new version tag mid-call (a class
 * attribute assigned: `type(self).made += 1`), is looked at again
 * (runtime: DYNAC_CLASS_FRESH), so the site's calls stay direct. Emitted
 * before the test, not in its miss path: a branch back to the test made
 * GCC's code for raytrace's loops 3% longer. */
void emit_class_fresh(em *E, int ks, const char *tested) {
  line(E, "DYNAC_CLASS_FRESH(%d, %s); /* a change of the class mid-call looked at */", ks, tested);
}

/* A devirtualised call (member_call_of) of `kcall` while mc.current holds,
 * counted then as a direct call of function fi; else CPython's own lookup
 * and call, its result read back into `res` of type rt, or, of another
 * type, passed on as a call that finished in the interpreter
 * (DYNAC_OK_BOXED). Leaves `int st` in scope. */
static void emit_devirtualised_call(em *E, expr *e, const member_call *mc, const char *const *vals,
                                    const char *kcall, const char *res, const type *rt, int fi) {
  line(E, "int st;");
  emit_class_fresh(E, mc->k->slot->index, mc->tested);
  line(E, "if (DYNAC_LIKELY(%s)) {", mc->current);
  line(E, "  dynac__direct_calls[%d]++;", fi);
  line(E, "  st = %s; /* %s.%s, devirtualised */", kcall, mc->k->name, e->u.call.name);
  line(E, "} else { /* the class or the instance changed since the guard: CPython's lookup */");
  E->indent++;
  if (mc->made) line(E, "%s", mc->made);
  call_through_runtime(E, e, vals, arena_printf(E->m->a, ".%s()", e->u.call.name));
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code ran */");
  if (!res) line(E, "st = r == Py_None ? DYNAC_OK : DYNAC_OK_BOXED;");
  else if (ty_is_container(rt) || rt->kind == TY_TUPLE) line(E, "st = DYNAC_OK_BOXED;");
  else line(E, "st = %s ? DYNAC_OK_BOXED : DYNAC_OK;", unbox_into(E, rt, "r", res));
  line(E, "if (st == DYNAC_OK_BOXED) dynac__boxed_result = r;");
  line(E, "else Py_DECREF(r);");
  E->indent--;
  line(E, "}");
}

/* The kernel parameters of `callee` a call leaves to their defaults (not
 * `given`; infer/expr.c: bind_types): each read from the function
 * `owner`'s lookup of `name` gives, as CPython binds it when the call runs
 * (runtime: dynac_method_default, dynac_method_kwdefault for a
 * keyword-only one), and unboxed as typed into a temporary, that
 * parameter's argument in pv. The C condition (" && ..." per default, ""
 * for none) under which each is there and of its type; else CPython's
 * call binds them itself. objs[p]: the default's object (may be NULL). */
static const char *defaults_read(em *E, const inst *callee, const bool *given, const char *owner, const char *name,
                                 const char **pv, const char **objs) {
  const char *cond = "";
  const func *f = callee->fn;
  for (int p = 0; !f->nvarparams && p < f->nparams && p < 64; p++) {
    if (given[p]) continue;
    const type *pt = callee->args[p];
    const char *d = arena_printf(E->m->a, "d%d", ++E->tmp), *u = tmpvar(E, pt);
    if (objs) objs[p] = d;
    line(E, "PyObject *%s = NULL; /* the default of '%s' */", d, f->params[p]);
    const char *read = p < f->nposparams
        ? arena_printf(E->m->a, "dynac_method_default(%s, %s, %d)", owner, interned_name(E, name), p)
        : arena_printf(E->m->a, "dynac_method_kwdefault(%s, %s, %s)", owner, interned_name(E, name),
                       interned_name(E, f->params[p]));
    cond = arena_printf(E->m->a, "%s && (%s = %s) && !%s(%s, &%s)", cond, d, read, elem_fn(E->m, pt), d, u);
    pv[p] = u;
  }
  return cond;
}

/* A devirtualised method call's defaults (defaults_read): the call is made
 * directly only while each is there and of its type (mc->current grows). */
static void defaulted_args(em *E, expr *e, const inst *callee, const bool *given, member_call *mc, const char **pv) {
  mc->current = arena_printf(E->m->a, "%s%s", mc->current,
                             defaults_read(E, callee, given, mc->owner, e->u.call.name, pv, NULL));
}

/* The kernel parameter each of call e's values binds (-1: none; values
 * from `first` up to `end`, the callee's parameter i - first + shift by
 * position, or its keyword's: infer/expr.c, call_param), into param[64],
 * and each parameter a value binds into given[64] (those below `shift`
 * too: a value of the call's own, member_self). */
static void bind_values(const expr *e, const inst *callee, int first, int shift, int end, int *param, bool *given) {
  for (int p = 0; p < shift && p < 64; p++) given[p] = true;
  for (int i = 0; i < e->u.call.n && i < 64; i++) {
    param[i] = i >= first && i < end ? call_param(e, callee->fn, i, shift - first) : -1;
    if (param[i] >= 0 && param[i] < 64) given[param[i]] = true;
  }
}

/* pv[from..to), the arguments of a kernel by parameter, each followed by
 * ", " (one infer bound none: a name that stops the C compiler, never a
 * wrong value). */
static void join_params(strbuf *args, const char *const *pv, int from, int to) {
  for (int p = from; p < to && p < 64; p++) sb_printf(args, "%s, ", pv[p] ? pv[p] : "DYNAC_UNBOUND_PARAMETER");
}

/* The closure argument of a kernel whose function has one (the __class__
 * cell of a method using super()): that of the function `owner`'s lookup
 * of `name` gives, checked to be the def before the call. "" otherwise. */
static const char *closure_arg(em *E, const inst *callee, const char *owner, const char *name) {
  if (!callee->fn->nfreevars) return "";
  return arena_printf(E->m->a, "dynac_method_closure(%s, %s), ", owner, interned_name(E, name));
}

/* f's index in the module's function table (its dynac__direct_calls counter). */
int func_index(const module *m, const func *f) {
  for (int i = 0; i < m->nfuncs; i++) if (m->funcs[i] == f) return i;
  return -1;
}

/* The kernel arguments of special method call e: its callee's first and
 * (second: NULL for none) parameter's values, a struct by address. */
static const char *special_args(em *E, const expr *e, const char *a0, const char *a1) {
  const inst *callee = E->in->types.callee[e->id];
  const char *x = kernel_arg(E, a0, callee->args[0]);
  return a1 ? arena_printf(E->m->a, "%s, %s", x, kernel_arg(E, a1, callee->args[1])) : x;
}

/* e runs a special method of class k whose kernel infer chose
 * (types.callee[e->id]: type_special) on the instance `recv`: while recv's
 * class is the one its guard saw (same version tag), that kernel is called
 * with `kargs` (C values in the def's parameter order); else, or when the
 * kernel hands the call back before doing anything, CPython's operation
 * `fallback` (a C expression of a new reference, or NULL with an
 * exception) on the n operands boxed as a0, a1 (vals and types, in source
 * order), its result read back. The result's value. */
static const char *emit_special_call(em *E, expr *e, const klass *k, const char *recv, const char *kargs,
                                     int n, const char *const *vals, const type *const *types,
                                     const char *fallback, int depth) {
  inst *callee = E->in->types.callee[e->id];
  const type *rt = callee->ret;
  bool has_value = rt->kind != TY_UNKNOWN && rt->kind != TY_NONE;
  const char *res = !has_value ? "0" : rt->rec ? rec_result(E, e, rt->cls) : tmpvar(E, rt);
  const char *rtype = is_rec_value(recv) ? arena_printf(E->m->a, "dynac_rec_type(&%s.h)", recv)
                                         : arena_printf(E->m->a, "Py_TYPE(%s)", recv);
  int ks = k->slot->index;
  bool leaf = kernel_call_is_flat(E->m, callee);
  line(E, "{");
  E->indent++;
  if (!leaf) /* the operands still pending: the interpreter may go on with them */
    deopt_if(E, "DYNAC_FAIL_RECURSION", NULL, "dynac__depth >= DYNAC_MAX_KERNEL_DEPTH && "
             "dynac__G.rt->deep_call_refused(dynac__depth)");
  E->nvstack = depth;
  line(E, "int st = DYNAC_DEOPT;");
  callee_report_start(E, callee);
  emit_class_fresh(E, ks, rtype);
  line(E, "if (DYNAC_LIKELY(dynac__slots[%d].valid && %s->tp_version_tag == (unsigned int)"
       "dynac__slots[%d].v.i)) {", ks, rtype, ks);
  line(E, "  dynac__direct_calls[%d]++;", func_index(E->m, callee->fn));
  if (!leaf) line(E, "  dynac__depth++;");
  line(E, "  st = dynac_kernel_%s(%s%s%s%s%s); /* %s.%s */", callee->cname,
       closure_arg(E, callee, rtype, callee->fn->name), kargs,
       has_value ? ", &" : "", has_value ? res : "", no_entry_args(callee, E->exported), k->name, callee->fn->name);
  if (!leaf) line(E, "  dynac__depth--;");
  line(E, "}");
  line(E, "if (st == DYNAC_DEOPT) { /* the class changed, or nothing done yet: CPython's operation */");
  E->indent++;
  line(E, "PyObject *a0 = %s%s%s;", box_value(E, vals[0], types[0]), n > 1 ? ", *a1 = " : "",
       n > 1 ? box_value(E, vals[1], types[1]) : "");
  line(E, "PyObject *v = a0%s ? %s : NULL;", n > 1 ? " && a1" : "", fallback);
  line(E, "Py_XDECREF(a0);");
  if (n > 1) line(E, "Py_XDECREF(a1);");
  if (has_value)
    line(E, "st = !v ? DYNAC_ERROR : %s ? DYNAC_OK_BOXED : DYNAC_OK;", unbox_into(E, rt, "v", res));
  else line(E, "st = !v ? DYNAC_ERROR : v == Py_None ? DYNAC_OK : DYNAC_OK_BOXED;");
  line(E, "if (st == DYNAC_OK_BOXED) dynac__boxed_result = v; /* of another type */");
  line(E, "else Py_XDECREF(v);");
  E->indent--;
  line(E, "}");
  line(E, "if (st == DYNAC_OK_BOXED) { /* a value of another type than typed */");
  const char *mid = boxed_value_action(E, e, depth);
  E->indent++;
  if (mid) line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code ran */\n%s", mid);
  else line(E, "Py_CLEAR(dynac__boxed_result);\nreturn dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
            E->cur_line);
  E->indent--;
  line(E, "}");
  line(E, "if (st == DYNAC_ERROR) DYNAC_LEAVE(dynac_traceback_here(%s)); /* this frame's line */", where(E));
  line(E, "if (st != DYNAC_OK && st != DYNAC_OK_NONE) DYNAC_LEAVE(st);");
  callee_report_take(E, callee, recv, false); /* CPython's operation set dynac__effects itself */
  note_effect(E);
  E->indent--;
  line(E, "}");
  return res;
}

/* a OP b, a op= b, or (reflected) a number OP an instance, calling the
 * class's __OP__ / __iOP__ / __rOP__ kernel directly (infer/expr.c:
 * type_operator); CPython's binary or in-place operator otherwise. */
const char *emit_operator_call(em *E, expr *e, const char *l, const char *r, int depth) {
  const type *lt = TY(e->u.bin.l), *rtp = TY(e->u.bin.r);
  bool reflected = !lt->cls;
  const char *vals[2] = {l, r};
  const type *types[2] = {lt, rtp};
  const char *fallback = arena_printf(E->m->a, "dynac_obj_%s(a0, a1, %d, &dynac__effects) /* %s */",
                                      e->u.bin.inplace ? "inplace" : "binop", (int)e->u.bin.op,
                                      binop_spelling[e->u.bin.op]);
  return emit_special_call(E, e, reflected ? rtp->cls : lt->cls, reflected ? r : l,
                           special_args(E, e, reflected ? r : l, reflected ? l : r), 2, vals, types, fallback,
                           depth);
}

/* -a, +a, ~a of an instance: its __neg__ / __pos__ / __invert__ kernel. */
const char *emit_unary_call(em *E, expr *e, const char *a, int depth) {
  const type *at = TY(e->u.un.a);
  return emit_special_call(E, e, at->cls, a, special_args(E, e, a, NULL), 1, &a, &at,
                           arena_printf(E->m->a, "dynac_obj_unary(a0, %d, &dynac__effects)", (int)e->u.un.op),
                           depth);
}

/* a < b, ... of an instance (and a number or one of its class): its
 * __lt__ kernel, or the number's reflected operand's __gt__. */
const char *emit_compare_call(em *E, expr *e, const char *l, const char *r, int depth) {
  static const char *const rich[] = {"Py_LT", "Py_LE", "Py_GT", "Py_GE", "Py_EQ", "Py_NE"};
  const type *lt = TY(e->u.cmp.operands[0]), *rtp = TY(e->u.cmp.operands[1]);
  bool reflected = !lt->cls;
  const char *vals[2] = {l, r};
  const type *types[2] = {lt, rtp};
  return emit_special_call(E, e, reflected ? rtp->cls : lt->cls, reflected ? r : l,
                           special_args(E, e, reflected ? r : l, reflected ? l : r), 2, vals, types,
                           arena_printf(E->m->a, "dynac_obj_compare(a0, a1, %s, &dynac__effects)",
                                        rich[e->u.cmp.ops[0]]), depth);
}

/* o[i] of an instance: its __getitem__ kernel. */
const char *emit_getitem_call(em *E, expr *e, const char *o, const char *i, int depth) {
  const char *vals[2] = {o, i};
  const type *types[2] = {TY(e->u.sub.obj), TY(e->u.sub.index)};
  return emit_special_call(E, e, types[0]->cls, o, special_args(E, e, o, i), 2, vals, types,
                           "dynac_obj_getitem(a0, a1, &dynac__effects)", depth);
}

/* o.name of an instance whose class has a property `name`: its getter's
 * kernel (a property is a data descriptor: the instance's own attributes
 * do not shadow it). */
const char *emit_property_call(em *E, expr *e, const char *o) {
  const type *ot = TY(e->u.sub.obj);
  int depth = E->nvstack;
  push_pending(E, e->u.sub.obj, o);
  return emit_special_call(E, e, ot->cls, o, special_args(E, e, o, NULL), 1, &o, &ot,
                           arena_printf(E->m->a, "PyObject_GetAttr(a0, %s)", interned_name(E, e->u.sub.attr)),
                           depth);
}

/* o.name = v of an instance whose class has a property `name` with a
 * setter: the setter's kernel (CPython's setattr when the class changed). */
void emit_setter_call(em *E, expr *sub, const char *o, const char *v, const type *vt) {
  const type *ot = TY(sub->u.sub.obj);
  const char *vals[2] = {o, v};
  const type *types[2] = {ot, vt};
  emit_special_call(E, sub, ot->cls, o, special_args(E, sub, o, v), 2, vals, types,
                    arena_printf(E->m->a, "(PyObject_SetAttr(a0, %s, a1) < 0 ? NULL : Py_NewRef(Py_None))",
                                 interned_name(E, sub->u.sub.attr)), E->nvstack);
}

/* len(a) / abs(a) of an instance: its __len__ / __abs__ kernel. len's
 * result is checked as slot_sq_length checks it (>= 0, ValueError). */
static const char *emit_special_builtin(em *E, expr *e) {
  const char *a = emit_arg_as(E, e, 0, E->in->types.callee[e->id]->args[0]);
  const type *at = TY(e->u.call.args[0]);
  bool len = ops_call_is(e, OPI_LEN);
  const char *v = emit_special_call(E, e, at->cls, a, special_args(E, e, a, NULL), 1, &a, &at,
                                    len ? "dynac_obj_len_boxed(a0)" : "PyNumber_Absolute(a0)", E->call_base);
  if (!len) return v;
  const char *n = tmpvar(E, &ty_int);
  line(E, "%s = (int64_t)%s;", n, v);
  line(E, "if (%s < 0) { /* slot_sq_length's check */", n);
  line(E, "  PyErr_SetString(PyExc_ValueError, \"__len__() should return >= 0\");");
  line(E, "  DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  line(E, "}");
  return n;
}

/* __init__ of Cls(args) (call e, its values `vals`, the class as `tp`) run
 * by the interpreter on instance `obj` (the kernel handed the call back
 * before doing anything): sets `st`. */
void emit_init_interpreted(em *E, expr *e, const char *const *vals, const char *tp, const char *obj) {
  int n = e->u.call.n;
  const char *kw = keyword_names(E, e); /* (before the references below: it may leave) */
  line(E, "PyObject *argv[%d] = {NULL};", n);
  for (int i = 1; i < n; i++) line(E, "argv[%d] = %s;", i - 1, box_value(E, vals[i], TY(e->u.call.args[i])));
  line(E, "int ok = %s != NULL;", obj);
  line(E, "for (int i = 0; i < %d; i++) if (!argv[i]) ok = 0;", n - 1);
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code runs */");
  line(E, "st = ok && dynac_init_interpreted(%s, %s, argv, %d, %s) == 0 ? DYNAC_OK : DYNAC_ERROR;", tp, obj, n - 1,
       kw);
  line(E, "for (int i = 0; i < %d; i++) Py_XDECREF(argv[i]);", n - 1);
}

/* Cls(args) as CPython calls the class (call e, its values `vals`, its
 * keyword arguments last): the result into `dest` (a PyObject * the caller
 * releases); an exception leaves with this line. */
void emit_class_call(em *E, expr *e, const char *const *vals, const char *dest) {
  int n = e->u.call.n;
  const char *kw = keyword_names(E, e); /* (before the references below: it may leave) */
  line(E, "PyObject *argv[%d] = {NULL};", n);
  line(E, "argv[0] = Py_NewRef(%s);", vals[0]);
  for (int i = 1; i < n; i++) line(E, "argv[%d] = %s;", i, box_value(E, vals[i], TY(e->u.call.args[i])));
  line(E, "int ok = 1;");
  line(E, "for (int i = 0; i < %d; i++) if (!argv[i]) ok = 0;", n);
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code runs */");
  line(E, "if (ok) %s = PyObject_Vectorcall(argv[0], argv + 1, %d, %s);", dest, n - 1 - e->u.call.nkw, kw);
  line(E, "for (int i = 0; i < %d; i++) Py_XDECREF(argv[i]);", n);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", dest, where(E));
}

/* After `int st` of an __init__ run on a new instance: a value returned
 * is CPython's TypeError; an error leaves with this frame's line. */
void emit_init_status(em *E) {
  line(E, "if (st == DYNAC_OK_BOXED) { /* it finished in the interpreter with a value */");
  line(E, "  PyErr_Format(PyExc_TypeError, \"__init__() should return None, not '%%.200s'\", "
       "Py_TYPE(dynac__boxed_result)->tp_name);");
  line(E, "  Py_CLEAR(dynac__boxed_result);");
  line(E, "  st = DYNAC_ERROR;");
  line(E, "}");
  line(E, "if (st == DYNAC_ERROR) DYNAC_LEAVE(dynac_traceback_here(%s)); /* this frame's line */", where(E));
  line(E, "if (st != DYNAC_OK && st != DYNAC_OK_NONE) DYNAC_LEAVE(st);");
}

/* `int st` of init's kernel run directly (a class k's __init__, tp: the
 * class as a PyTypeObject *) with `args`, the new instance first;
 * defaults: the objects of parameters left to their defaults, or NULL. */
static void emit_init_kernel_call(em *E, const klass *k, inst *init, const char *tp, const char *args,
                                  const expr *e, const char *const *defaults) {
  bool leaf = kernel_call_is_flat(E->m, init);
  line(E, "dynac__direct_calls[%d]++;", func_index(E->m, init->fn));
  if (!leaf) line(E, "dynac__depth++;");
  callee_report_start(E, init);
  expr *byparam[64] = {NULL}; /* self, then Cls(...)'s arguments, by the parameter each binds */
  for (int i = 1; e && i < e->u.call.n && i < 64; i++) {
    int p = call_param(e, init->fn, i, 0);
    if (p >= 0 && p < 64) byparam[p] = e->u.call.args[i];
  }
  line(E, "int st = dynac_kernel_%s(%s%s%s); /* %s.__init__, run directly */", init->cname,
       closure_arg(E, init, tp, "__init__"), args, entry_args_of_call(E, init, byparam, defaults), k->name);
  if (!leaf) line(E, "dynac__depth--;");
  callee_report_take(E, init, NULL, true);
}

/* The condition (" && ...", or "" for a def of the source) under which a
 * construction of class tp may run `init`, an __init__ synthesised from a
 * @dataclass's fields: the class's __init__ is the one dataclasses
 * generated for them (runtime: dynac_dataclass_init_ok, once per version
 * tag at this site), else CPython's call. */
const char *synthesised_init_ok(em *E, const inst *init, const char *tp) {
  if (!init->fn->synth_first) return "";
  const char *seen = arena_printf(E->m->a, "dcv%d", ++E->tmp);
  line(E, "static unsigned int %s; /* %s's version tag when its __init__ was dataclasses' for %s */", seen,
       init->fn->synth_of->name, init->fn->synth_fields);
  static const char *const options[] = {"0", "DYNAC_DC_FROZEN", "DYNAC_DC_POST_INIT",
                                        "DYNAC_DC_FROZEN | DYNAC_DC_POST_INIT"};
  return arena_printf(E->m->a, " && dynac_dataclass_init_ok(%s, &%s, %s, %d, %s)", tp, seen,
                      c_string(E->m, init->fn->synth_fields), init->fn->synth_defaults,
                      options[init->fn->synth_of->frozen | init->fn->synth_post_init << 1]);
}

/* The type of the parameter of init's kernel that value i of construction e binds (NULL: none). */
const type *init_param_type(const expr *e, const inst *init, int i) {
  int p = call_param(e, init->fn, i, 0);
  return p >= 0 ? init->args[p] : NULL;
}

/* The kernel arguments of construction e (Cls(...), its __init__'s kernel
 * `init`; `self` the instance, vals the call's values) into args, by
 * parameter: each value where it binds (by position or keyword:
 * bind_values), each parameter it leaves out its default, read from class
 * tp's __init__ (defaults_read), tested once tp is the guard's class.
 * objs[p]: the default object of each such parameter p (for
 * entry_args_of_call: the instance keeps it, as CPython's __init__ stores
 * it). The defaults' condition (" && ...", or ""). */
const char *construction_args(em *E, expr *e, const inst *init, const char *tp, const char *self,
                              const char *const *vals, strbuf *args, const char **objs) {
  int param[64];
  bool given[64] = {false};
  const char *pv[64] = {self};
  bind_values(e, init, 1, 1, e->u.call.n, param, given);
  for (int i = 1; i < e->u.call.n && i < 64; i++)
    if (param[i] >= 0) pv[param[i]] = kernel_arg(E, vals[i], init->args[param[i]]);
  const char *cond = defaults_read(E, init, given, tp, "__init__", pv, objs);
  join_params(args, pv, 0, init->fn->nparams);
  if (args->len) args->data[args->len -= 2] = 0; /* the last ", " */
  return cond;
}

/* Cls(args) whose __init__ has a kernel for these arguments (infer:
 * constructed_init): while the global still names the class its guard saw
 * (same version tag), the instance is made as object.__new__ makes it
 * (dynac_object_new: the guard saw object's own) and that kernel runs on it directly: no
 * argument tuple, no dispatch, unboxed arguments. A kernel that hands the
 * call back (DYNAC_DEOPT: nothing done yet) leaves it to the type's tp_init
 * (the interpreter runs __init__); an __init__ that returned a value raises
 * CPython's TypeError. Otherwise CPython's call of the class. A new
 * reference, an instance of exactly Cls. */
static const char *emit_construction(em *E, expr *e, inst *init) {
  const klass *k = TY(e)->cls;
  int n = e->u.call.n, ks = k->slot->index;
  const char *vals[64];
  for (int i = 0; i < n; i++) vals[i] = emit_arg_as(E, e, i, i ? init_param_type(e, init, i) : NULL);
  const char *o = tmpvar(E, TY(e));
  const char *tp = arena_printf(E->m->a, "((PyTypeObject *)%s)", vals[0]);
  strbuf args = {0};
  const char *dobjs[64] = {NULL};
  const char *defaults = construction_args(E, e, init, tp, o, vals, &args, dobjs);
  const char *synth = synthesised_init_ok(E, init, tp);
  if (classes_defines(E->m, k, "__del__")) line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code may run (a __del__) */");
  note_effect(E);
  emit_class_fresh(E, ks, vals[0]);
  line(E, "if (%s == dynac__slots[%d].obj && %s->tp_version_tag == (unsigned int)dynac__slots[%d].v.i%s%s) {",
       vals[0], ks, tp, ks, synth, defaults);
  E->indent++;
  line(E, "%s = dynac_object_new(%s); /* object.__new__(%s) */", o, tp, k->name);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  emit_init_kernel_call(E, k, init, tp, args.data, e, dobjs);
  line(E, "if (st == DYNAC_DEOPT) { /* nothing done: __init__ in the interpreter */");
  E->indent++;
  emit_init_interpreted(E, e, vals, tp, o);
  E->indent--;
  line(E, "}");
  emit_init_status(E);
  E->indent--;
  line(E, "} else { /* the global names another object now, or the class changed: CPython's call */");
  E->indent++;
  emit_class_call(E, e, vals, o);
  E->indent--;
  line(E, "}");
  sb_free(&args);
  const char *mid = boxed_call_action(E, e);
  if (mid) { /* (__init__ ran: the interpreter must not make the instance again) */
    line(E, "if ((PyObject *)Py_TYPE(%s) != dynac__slots[%d].obj) { /* made by another class (the global rebound) "
         "or by the class changed since its guard: the interpreter goes on with it as the call's value */", o, ks);
    line(E, "  dynac__boxed_result = Py_NewRef(%s);", o);
    line(E, "  %s", mid);
    line(E, "}");
  } else {
    deopt_if(E, "DYNAC_FAIL_NOT_INT", "the global no longer names the class", "(PyObject *)Py_TYPE(%s) != "
             "dynac__slots[%d].obj", o, ks);
  }
  return o;
}

/* np.zeros(...), a.copy(): numpy's function or method called as any
 * object's, its result pinned as the ndarray typed (infer/arrays.c); a
 * result of another dtype or shape (a replaced function) goes on in the
 * interpreter in the call's place. */
static const char *emit_made_array_call(em *E, expr *e) {
  const char *o = emit_object_call(E, e);
  const char *mid = boxed_call_action(E, e);
  const char *other = mid ? arena_printf(E->m->a, "dynac__boxed_result = Py_NewRef(%s);\n%s", o, mid)
      : arena_printf(E->m->a, "return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);", E->cur_line);
  return emit_made_array(E, e, o, other);
}

/* a.max(), np.min(a): numpy's method or function called as any object's,
 * its result unboxed as the numpy scalar typed; another answer (a replaced
 * function) goes on in the interpreter in the call's place. */
static const char *emit_scalar_result_call(em *E, expr *e) {
  return unbox_call_result(E, e, emit_object_call(E, e));
}
/* The result o (an owned object) of call e as the numpy scalar e is typed. */
const char *unbox_call_result(em *E, expr *e, const char *o) {
  const char *mid = boxed_call_action(E, e);
  const char *other = mid ? arena_printf(E->m->a, "dynac__boxed_result = Py_NewRef(%s);\n%s", o, mid)
      : arena_printf(E->m->a, "return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);", E->cur_line);
  const char *v = tmpvar(E, TY(e));
  line(E, "if (%s(%s, &%s)) { /* not a %s */", elem_fn(E->m, TY(e)), o, v, ty_python_name(E->m->a, TY(e)));
  E->indent++;
  line(E, "%s", other);
  E->indent--;
  line(E, "}");
  return v;
}

/* The tuple a def's *args receives: call e's values from `from` on, boxed
 * (an owned temporary; an empty call gives the empty tuple). A callee that
 * only spreads its *args (spread_param) takes the values themselves: a C
 * array of them (borrowed, as the kernel's object parameters are) and
 * their number. */
static const char *packed_star_args(em *E, expr *e, const inst *callee, const char *const *vals, int from) {
  const func *f = callee->fn;
  if (spread_param(callee, f->nparams - 1)) {
    if (from == e->u.call.n) return "NULL, 0";
    strbuf b = {0};
    for (int i = from; i < e->u.call.n; i++)
      sb_printf(&b, "%s%s", i > from ? ", " : "", as_obj(E, vals[i], TY(e->u.call.args[i])));
    const char *r = arena_printf(E->m->a, "(PyObject *const[]){%s}, %d", b.data, e->u.call.n - from);
    sb_free(&b);
    return r;
  }
  const char *t = tmpvar(E, &ty_obj);
  line(E, "%s = PyTuple_New(%d); /* *%s */", t, e->u.call.n - from, f->params[f->nparams - 1]);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", t, where(E));
  for (int i = from; i < e->u.call.n; i++)
    line(E, "PyTuple_SET_ITEM(%s, %d, Py_NewRef(%s));", t, i - from, as_obj(E, vals[i], TY(e->u.call.args[i])));
  return t;
}

/* cls(args) or cls(args, *t) of a class held in a local, with kernels per
 * class (gen.h: poly_site; infer: type_polymorphic_construction): the
 * callee tested (exactly one of those classes, its global's slot valid and
 * the version tag its guard saw; a *t an exact tuple of the items its
 * __init__ still takes), the instance made as object.__new__ makes it and
 * that class's __init__ kernel run on it, the tuple's items passed as
 * objects (as emit_construction does for a class named by its global);
 * anything else: the C API call (dynac_call_object, dynac_call_star), as
 * CPython calls it. The value: an object (a new reference, owned). */
static const char *emit_polymorphic_construction(em *E, expr *e) {
  poly_site *ps = E->in->types.poly[e->id];
  bool star;
  int npos = call_positional_star(e, &star);
  const char *f = emit_arg(E, e, 0); /* a local; each value pending until the call, as emit_object_call's */
  const char *vals[64];
  for (int i = 1; i <= npos; i++) vals[i] = keep(E, emit_arg(E, e, i), TY(e->u.call.args[i]));
  expr *sx = star ? e->u.call.args[npos + 1] : NULL;
  const char *n = NULL, *items = sx ? spread_values(E, sx, &n) : NULL; /* *args' values: no tuple */
  const char *t = sx && !items ? keep(E, as_obj(E, emit_arg(E, e, npos + 1), TY(sx)), &ty_obj) : NULL;
  const char *o = tmpvar(E, &ty_obj);
  if (t) items = arena_printf(E->m->a, "dynac_tuple_items(%s)", t), n = arena_printf(E->m->a, "PyTuple_GET_SIZE(%s)", t);
  note_effect(E);
  const char *synths[POLY_MAX]; /* each class's __init__ check, its static before the chain */
  for (int i = 0; i < ps->n; i++)
    synths[i] = ps->callee[i]->ok ? synthesised_init_ok(E, ps->callee[i], arena_printf(E->m->a, "((PyTypeObject *)%s)", f)) : "";
  int opened = 0;
  for (int i = 0; i < ps->n; i++)
    if (ps->callee[i]->ok) emit_class_fresh(E, ps->k[i]->slot->index, f);
  for (int i = 0; i < ps->n; i++) {
    if (!ps->callee[i]->ok) continue; /* not compiled: CPython's call */
    const klass *k = ps->k[i];
    inst *init = ps->callee[i];
    int ks = k->slot->index, more = init->fn->nparams - 1 - npos; /* the values *t gives */
    const char *tp = arena_printf(E->m->a, "((PyTypeObject *)%s)", f), *synth = synths[i];
    line(E, "%sif (dynac__slots[%d].valid && %s == dynac__slots[%d].obj && %s->tp_version_tag == (unsigned int)"
         "dynac__slots[%d].v.i%s%s) { /* %s(...) */", opened++ ? "} else " : "", ks, f, ks, tp, ks,
         t ? arena_printf(E->m->a, " && PyTuple_CheckExact(%s) && PyTuple_GET_SIZE(%s) == %d", t, t, more)
         : items ? arena_printf(E->m->a, " && %s == %d", n, more) : "",
         synth, k->name);
    E->indent++;
    if (classes_defines(E->m, k, "__del__")) line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code may run (a __del__) */");
    strbuf args = {0};
    sb_puts(&args, o);
    for (int j = 1; j <= npos; j++) sb_printf(&args, ", %s", convert(E, vals[j], TY(e->u.call.args[j]), init->args[j]));
    for (int j = 0; j < more; j++) sb_printf(&args, ", %s[%d]", items, j);
    line(E, "%s = dynac_object_new(%s); /* object.__new__(%s) */", o, tp, k->name);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
    emit_init_kernel_call(E, k, init, tp, args.data, e, NULL);
    sb_free(&args);
    line(E, "if (st == DYNAC_DEOPT) { /* nothing done: __init__ in the interpreter */");
    strbuf bv = {0};
    for (int j = 1; j <= npos; j++) sb_printf(&bv, "%s%s", j > 1 ? ", " : "", box_value(E, vals[j], TY(e->u.call.args[j])));
    line(E, "  PyObject *argt = dynac_args_tuple((PyObject *[]){%s}, %d, %s, %s);", bv.data ? bv.data : "NULL",
         npos, items ? items : "NULL", items ? n : "0");
    sb_free(&bv);
    line(E, "  st = argt && %s->tp_init(%s, argt, NULL) == 0 ? DYNAC_OK : DYNAC_ERROR;", tp, o);
    line(E, "  Py_XDECREF(argt);");
    line(E, "}");
    emit_init_status(E);
    E->indent--;
  }
  line(E, "%s /* another callee: CPython's call */", opened ? "} else {" : "{");
  E->indent++;
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code runs: the call, an iterator's __next__ */");
  strbuf bv = {0}; /* argv[0]: the slot PY_VECTORCALL_ARGUMENTS_OFFSET lets the callee borrow */
  for (int j = 1; j <= npos; j++) sb_printf(&bv, ", %s", box_value(E, vals[j], TY(e->u.call.args[j])));
  line(E, "PyObject *argv[%d] = {NULL%s};", npos + 1, bv.data ? bv.data : "");
  sb_free(&bv);
  line(E, "int ok = 1;");
  line(E, "for (int i = 1; i <= %d; i++) if (!argv[i]) ok = 0;", npos);
  if (t) line(E, "%s = ok ? dynac_call_star(%s, argv + 1, %d, %s) : NULL; /* %s(...) */", o, f, npos, t,
               dotted_or_blank(e->u.call.name));
  else if (items) line(E, "%s = ok ? dynac_call_vector(%s, argv + 1, %d, %s, %s) : NULL; /* %s(...): *args' values */", o,
                       f, npos, items, n, dotted_or_blank(e->u.call.name));
  else line(E, "%s = ok ? dynac_call_object(%s, argv + 1, %d | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL) : NULL;", o, f,
            npos);
  line(E, "for (int i = 1; i <= %d; i++) Py_XDECREF(argv[i]);", npos);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  E->indent--;
  line(E, "}");
  return o;
}

/* obj.m(args) of an object with kernels per receiver class (gen.h:
 * poly_site): the receiver's class tested (exactly, its slot valid), then
 * that class's devirtualised call, as emit_call_kind makes it for an
 * instance typed as that class (the class guard's check, the instance's
 * own attributes, and CPython's call when either changed); any other
 * receiver: the call through the C API. The receiver is evaluated once
 * (each branch takes its value: E->given) and the arguments are inert
 * (infer: type_polymorphic): testing first changes no order of effects.
 * The value: an object (a new reference, owned). */
static const char *emit_polymorphic_call(em *E, expr *e) {
  inst *in = E->in;
  poly_site *ps = in->types.poly[e->id];
  expr *recv = e->u.call.args[0];
  const type *recv_ty = in->types.ty[recv->id];
  const char *r = emit_expr(E, recv), *o = tmpvar(E, &ty_obj);
  if (recv->kind != EX_LOCAL) r = keep(E, r, &ty_obj); /* self.items[i]: held while the call runs */
  const expr *given = E->given;
  const char *given_v = E->given_v;
  E->given = recv, E->given_v = r;
  int depth = E->nvstack;
  in->types.poly[e->id] = NULL; /* each branch is a call of one form */
  int opened = 0;
  for (int i = 0; i < ps->n; i++) {
    if (!ps->callee[i]->ok) continue; /* not compiled: that class's receivers take the C API call */
    int ks = ps->k[i]->slot->index;
    line(E, "%sif (dynac__slots[%d].valid && (PyObject *)Py_TYPE(%s) == dynac__slots[%d].obj) { /* .%s() of a %s */",
         opened++ ? "} else " : "", ks, r, ks, e->u.call.name, ps->k[i]->name);
    E->indent++;
    in->types.ty[recv->id] = &ps->k[i]->inst;
    in->types.callee[e->id] = ps->callee[i];
    const char *v = emit_call_kind(E, e);
    const type *rt = ps->callee[i]->ret;
    line(E, "%s = Py_NewRef(%s);", o, rt->kind == TY_UNKNOWN ? "Py_None" : as_obj(E, v, rt));
    in->types.callee[e->id] = NULL;
    in->types.ty[recv->id] = recv_ty;
    E->nvstack = depth;
    E->indent--;
  }
  line(E, "%s /* another class: CPython's lookup and call */", opened ? "} else {" : "{");
  E->indent++;
  line(E, "%s = Py_NewRef(%s);", o, emit_method(E, e));
  E->nvstack = depth;
  E->indent--;
  line(E, "}");
  in->types.poly[e->id] = ps;
  E->given = given, E->given_v = given_v;
  return o;
}

/* Does x run no Python code: a constant, a local or scalar global read,
 * an item of a typed list or tuple at an int index, or arithmetic,
 * comparisons and math functions of scalars made of such? */
typedef struct quiet_walk { em *E; bool quiet; } quiet_walk;
static bool runs_no_python(em *E, expr *x);
static void operand_quiet(void *ctx, expr *c) {
  quiet_walk *W = ctx;
  if (W->quiet && c && !(is_scalar(ty_of(W->E->in, c)) && runs_no_python(W->E, c))) W->quiet = false;
}
static bool runs_no_python(em *E, expr *x) {
  switch (x->kind) {
  case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_NONE: case EX_LOCAL: case EX_GLOBAL: case EX_CONST:
    return true;
  case EX_BINOP: case EX_UNARY: case EX_NOT: case EX_COMPARE: case EX_BOOLOP: case EX_IFEXP:
    break;
  case EX_CALL:
    if (x->u.call.kind == CALLEE_MATH) break;
    return false;
  case EX_SUBSCRIPT: { /* list_subscript, tuplesubscript: an IndexError at most */
    const type *c = ty_of(E->in, x->u.sub.obj), *i = ty_of(E->in, x->u.sub.index);
    return (c->kind == TY_LIST || c->kind == TY_TUPLE) && i->kind == TY_INT && runs_no_python(E, x->u.sub.obj) &&
           runs_no_python(E, x->u.sub.index);
  }
  default:
    return false;
  }
  quiet_walk W = {E, true};
  ir_each_subexpr(x, operand_quiet, &W);
  return W.quiet;
}

/* A direct call of module function e whose arguments may run Python code:
 * the function object is held from before they run, as CPython 3.11's
 * LOAD_GLOBAL pushes it first. Code they run may rebind the name (the old
 * function is still the one called) or assign the function's __code__ or
 * defaults (the new ones run). The kernel is called when no Python code
 * ran meanwhile or the function is still what it was built for
 * (dynac_callee_still), else the held object through the C API, called
 * as the source calls it (call_held_callee); a continuation from the
 * arguments calls it too (it is pending, in the name's place). Sets
 * E->held_callee; *serial: dynac__py_serial as they began. */
static void hold_callee(em *E, expr *e, const char **serial) {
  bool quiet = true;
  for (int i = 0; i < e->u.call.n && quiet; i++) quiet = runs_no_python(E, e->u.call.args[i]);
  if (quiet || E->exported || E->spec || !E->effectful || e->u.call.kind != CALLEE_MODULE_FN) return;
  E->held_callee = tmp_init(E, &ty_obj, arena_printf(E->m->a, "Py_XNewRef(%s.obj)", slot_ref(E, e->u.call.callee_slot)));
  if (E->conts && e->u.call.callee_name) /* a continuation calls it, not what the name means then */
    push_typed(E, e->u.call.callee_name, E->held_callee, &ty_obj);
  *serial = arena_printf(E->m->a, "sn%d", ++E->tmp);
  line(E, "const uint64_t %s = dynac__py_serial; /* %s(): the function as its arguments begin */", *serial,
       e->u.call.name);
}

static const char *emit_call_kind(em *E, expr *e) {
  const char *sum = TY(e)->kind == TY_NP ? emit_fused_sum_value(E, e) : NULL; /* np.sum((x - y) ** 2) */
  if (sum) return sum;
  const char *fused = emit_fused(E, e); /* np.sqrt(a * a + b * b): one loop */
  if (fused) return fused;
  if (TY(e)->kind == TY_NP && np_ufunc_row(E->m, e)) return emit_np_ufunc(E, e); /* np.tanh(a[i]) */
  if (e->u.call.n == 1 && comprehension_folds(E->in, e->u.call.args[0]))
    return emit_expr(E, e->u.call.args[0]); /* the fold is the call (its builtin guarded) */
  if (e->u.call.n == 1 && !e->u.call.nkw && e->u.call.kind == CALLEE_BUILTIN && folds_numbers(E->in, e->u.call.args[0]))
    return emit_number_fold(E, e); /* sum(x * x for x in xs): no list (its builtin guarded) */
  if (e->u.call.kind == CALLEE_BUILTIN && E->in->types.callee[e->id] && !E->exported)
    return emit_special_builtin(E, e); /* len(a), abs(a) of an instance */
  if (ty_is_ndarray(TY(e)) && (e->u.call.kind == CALLEE_VALUE || e->u.call.kind == CALLEE_METHOD))
    return emit_made_array_call(E, e); /* np.zeros(...), a.copy() */
  if (TY(e)->kind == TY_NP && np_reduction_type(E->m, E->in, e))
    return emit_scalar_result_call(E, e); /* a.max(), np.min(a) */
  if (function_via_api(E->in, e))
    return math_float_of_one(e) && TY(e)->kind == TY_FLOAT ? emit_math_float_of_object(E, e) : emit_object_call(E, e);
  if (e->u.call.kind == CALLEE_OPAQUE) return emit_opaque_call(E, e);
  if (E->in->types.poly[e->id] && !E->exported) /* event.fire(self), kind(t, *extra) */
    return e->u.call.kind == CALLEE_VALUE ? emit_polymorphic_construction(E, e) : emit_polymorphic_call(E, e);
  bool devirt = method_devirtualised(E->in, e);
  if (e->u.call.kind == CALLEE_METHOD && !devirt) return emit_method(E, e);
  if (e->u.call.kind == CALLEE_VALUE && TY(e)->rec && E->in->types.callee[e->id] && !E->exported)
    return emit_rec_construction(E, e, E->in->types.callee[e->id]); /* made as its fields */
  if (e->u.call.kind == CALLEE_VALUE && TY(e)->cls && E->in->types.callee[e->id] && !E->exported)
    return emit_construction(E, e, E->in->types.callee[e->id]);
  if (e->u.call.kind == CALLEE_VALUE && TY(e)->cls) { /* Cls(...): an instance of exactly Cls */
    const char *o = emit_object_call(E, e);
    deopt_if(E, "DYNAC_FAIL_NOT_INT", "the global no longer names the class", "(PyObject *)Py_TYPE(%s) != "
             "dynac__slots[%d].obj", o, TY(e)->cls->slot->index);
    return o;
  }
  if (e->u.call.kind == CALLEE_VALUE) return e->u.call.argform ? emit_starred_call(E, e) : emit_object_call(E, e);
  if (ops_call_is(e, OPI_LEN) || ops_call_is(e, OPI_SUM))
    return emit_len_sum(E, e);
  if (min_max_of_list(E->in, e)) return emit_min_max_of_list(E, e);
  if (e->u.call.kind == CALLEE_MATH) return emit_math(E, e);
  if (e->u.call.kind == CALLEE_BUILTIN) return emit_builtin(E, e);
  inst *callee = E->in->types.callee[e->id];
  if (!callee) { /* cannot happen for a typed instance; never crash on it */
    deopt_if(E, "DYNAC_FAIL_RECURSION", "internal: a call without a typed callee", "1");
    return "0";
  }
  const char *vals[64] = {NULL};
  int first = devirt ? member_first(E, e, callee) : 0, shift = devirt ? member_self(E, e, callee) : 0;
  /* a def with *args: the values from `packed` on make its tuple (infer/expr.c: packs_star_args) */
  int packed = callee->fn->nvarparams ? callee->fn->nparams - 1 + first - shift : e->u.call.n;
  const char *made = NULL;
  bool lazy = super_receiver_lazy(E, e, devirt);
  int param[64];
  bool given[64] = {false};
  bind_values(e, callee, first, shift, packed, param, given);
  const char *held_serial = NULL, *held_before = E->held_callee;
  E->held_callee = NULL;
  if (!devirt) hold_callee(E, e, &held_serial);
  const char *held = E->held_callee;
  E->held_callee = held_before; /* (a callee in the arguments holds its own) */
  for (int i = 0; i < e->u.call.n; i++) /* a struct for a parameter that keeps one (records.c) */
    vals[i] = i == 0 && lazy ? lazy_super(E, e, &made)
              : emit_arg_as(E, e, i, i < 64 && param[i] >= 0 ? callee->args[param[i]] : NULL);
  member_call mc = devirt ? member_call_of(E, e, vals, callee) : (member_call){0};
  mc.made = made;
  const char *pv[64] = {NULL}; /* each kernel parameter's argument */
  for (int i = mc.first; i < packed && i < 64; i++)
    if (param[i] >= 0) pv[param[i]] = kernel_arg(E, vals[i], callee->args[param[i]]);
  if (devirt) defaulted_args(E, e, callee, given, &mc, pv);
  strbuf args = {0}; /* the kernel's arguments, each followed by ", " */
  if (devirt) sb_puts(&args, closure_arg(E, callee, mc.owner, e->u.call.name));
  if (mc.self) sb_printf(&args, "%s, ", mc.self);
  join_params(&args, pv, shift, callee->fn->nparams - callee->fn->nvarparams);
  if (callee->fn->nvarparams)
    sb_printf(&args, "%s, ", packed_star_args(E, e, callee, vals, packed));
  if (args.len) args.data[args.len -= 2] = 0; /* the last ", " */
  bool has_value = callee->ret->kind != TY_UNKNOWN;
  const char *res = !has_value ? "0" /* a list result is a new reference: owned here */
                    : callee->ret->rec ? rec_result(E, e, callee->ret->cls) /* its fields */
                    : tmpvar(E, callee->ret->kind == TY_LIST ? &ty_obj : callee->ret);
  if (E->exported) {
    emit_export_call(E, callee, args.data, has_value ? res : NULL);
    sb_free(&args);
    return res;
  }
  int fi = func_index(E->m, callee->fn);
  bool leaf = kernel_call_is_flat(E->m, callee); /* cannot recurse through its own frame */
  line(E, "{");
  E->indent++;
  if (!leaf) deopt_if(E, "DYNAC_FAIL_RECURSION", NULL, "dynac__depth >= DYNAC_MAX_KERNEL_DEPTH && "
                      "dynac__G.rt->deep_call_refused(dynac__depth)");
  if (!devirt) line(E, "dynac__direct_calls[%d]++;", fi); /* (a devirtualised call: where its kernel runs) */
  /* the callee's own log entries, undone if it deoptimises after this kernel's effects; a callee
     that logs nothing (no container writes, no opaque calls) needs no mark: a kernel whose calls
     are all such makes no TLS read (dynac__u unused) */
  bool callee_logs = E->effectful && may_log(callee);
  if (callee_logs) /* dynac__u, not the TLS log: a TLS read is a call in a shared library */
    line(E, "size_t mark0 = dynac__u->n, lost0 = dynac__u->lost;");
  if (!leaf) line(E, "dynac__depth++;");
  if (has_value) sb_printf(&args, "%s&%s", args.len ? ", " : "", res);
  callee_report_start(E, callee);
  expr *byparam[64] = {NULL}; /* the argument expression of each of the callee's parameters */
  for (int i = first; i < packed && i < 64; i++) if (param[i] >= 0) byparam[param[i]] = e->u.call.args[i];
  const char *kcall = arena_printf(E->m->a, "dynac_kernel_%s(%s%s)", callee->cname, args.data ? args.data : "",
                                   entry_args_of_call(E, callee, byparam, NULL));
  if (devirt) emit_devirtualised_call(E, e, &mc, vals, kcall, has_value ? res : NULL, callee->ret, fi);
  else if (held)
    line(E, "int st = DYNAC_LIKELY(dynac__py_serial == %s) || dynac_callee_still(&%s, %s) ? %s : DYNAC_DEOPT;",
         held_serial, slot_ref(E, e->u.call.callee_slot), held, kcall);
  else line(E, "int st = %s;", kcall);
  if (!leaf) line(E, "dynac__depth--;");
  bool passes_on = E->conts && !E->reg && E->returned == e; /* `return callee(...)` */
  /* a value of another type: the callee finished in the interpreter (dynac_continue), or,
     run there after an effect (below), returned one */
  bool boxed = callee->effectful || devirt || E->effectful;
  const char *mid = boxed && !passes_on ? boxed_call_action(E, e) : NULL;
  if (E->effectful) { /* after an effect, the callee runs in the interpreter, once */
    line(E, "if (st == DYNAC_DEOPT && (dynac__effects || !DYNAC_UNDO_INTACT())) {");
    E->indent++;
    if (callee_logs) {
      line(E, "if (dynac__u->lost != lost0) return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
           E->cur_line);
      line(E, "dynac_undo_rollback(mark0); /* the callee's own writes: it runs again */");
    }
    if (mc.made) line(E, "%s", mc.made);
    E->held_callee = held;
    call_through_runtime(E, e, vals, arena_printf(E->m->a, "%s() interpreted", callee->fn->name));
    E->held_callee = held_before;
    line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code ran */");
    /* a container result would be borrowed from r: it cannot be kept */
    const char *ub = has_value && !ty_is_container(callee->ret) ? elem_fn(E->m, callee->ret) : NULL;
    if (callee->ret->rec) /* the instance kept as the struct */
      line(E, "st = r == Py_None ? DYNAC_OK_NONE : %s ? DYNAC_DEOPT : DYNAC_OK;",
           unbox_into(E, callee->ret, "r", res));
    else if (callee->ret->kind == TY_OBJ) line(E, "st = dynac_elem_obj(r, &%s);", res); /* None too */
    else line(E, "st = r == Py_None ? DYNAC_OK_NONE : %s;",
         ub ? arena_printf(E->m->a, "%s(r, &%s) ? DYNAC_DEOPT : DYNAC_OK", ub, res) : "DYNAC_DEOPT");
    if (passes_on) line(E, "if (st == DYNAC_DEOPT) { dynac__boxed_result = r; return DYNAC_OK_BOXED; }");
    else if (mid) line(E, "if (st == DYNAC_DEOPT) { dynac__boxed_result = r; r = NULL; st = DYNAC_OK_BOXED; }");
    line(E, "Py_XDECREF(r);");
    line(E, "if (st == DYNAC_DEOPT) return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
         E->cur_line);
    E->indent--;
    line(E, "}");
  }
  if (boxed) {
    line(E, "if (st == DYNAC_OK_BOXED) { /* with a value of another type */");
    E->indent++;
    if (passes_on) line(E, "return DYNAC_OK_BOXED; /* this call's value too */");
    else if (mid) line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* the callee's effects */\n%s", mid);
    else line(E, "Py_CLEAR(dynac__boxed_result);\nreturn dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
              E->cur_line);
    E->indent--;
    line(E, "}");
  }
  if (has_value) deopt_if(E, "DYNAC_FAIL_NONE_RESULT", "None where a value was typed", "st == DYNAC_OK_NONE");
  deopt_if(E, "DYNAC_FAIL_RECURSION", NULL, "st == DYNAC_DEOPT");
  line(E, "if (st == DYNAC_ERROR) DYNAC_LEAVE(dynac_traceback_here(%s)); /* this frame's line */",
       where(E));
  line(E, "if (st != DYNAC_OK && st != DYNAC_OK_NONE) DYNAC_LEAVE(st);");
  if (callee->opaque_calls) line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* the callee made opaque calls */");
  else { /* the callee's first parameter: a method's receiver */
    const char *first = mc.self ? mc.self : mc.first < e->u.call.n ? vals[mc.first] : NULL;
    callee_report_take(E, callee, first, false);
  }
  if (callee_logs && !E->reg) /* past an effect (bit 1, which every caller up the chain takes too) no
                                 deoptimisation takes the call's writes back: a kernel that runs a whole
                                 simulation would otherwise keep every write's old value until it returns */
    line(E, "if ((dynac__effects & 1) && dynac__u->n > mark0) dynac__undo_commit_entries(dynac__u, mark0);");
  if (callee->effectful) note_effect(E); /* a statement that called it cannot restart */
  if (E->effectful && callee->builds_lists)
    line(E, "dynac_undo_prune(dynac__u, dynac__u0); /* keeps of the lists it made that are garbage now */");
  E->indent--;
  line(E, "}");
  sb_free(&args);
  if (has_value && callee->ret->kind == TY_FLOAT && callee->returns_literal) note_literal_result(E, res, callee);
  return res;
}
