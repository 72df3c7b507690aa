/* ops.c: the operation table, one home per operation the kernel language
 * knows by name: each builtin, `math` function or constant and list method
 * has one row (per arity where the arities differ in kind), read by every
 * phase that needs to know something about it:
 *   ir/expr.c  which calls are builtins, math or methods (ops_find)
 *   infer.c    the result type (result; 0: infer's rule for that id)
 *   emit/      how it is written in C (id and helper)
 *   export.c   whether plain C can do it (native) or it needs the C API
 * A name without a row is not an operation of the kernel language: its call
 * is a graph break ("unknown-call"). As in CPython's Tools/cases_generator,
 * facts about an operation are written once and read by everything else.
 */
#include "gen.h"

#include <string.h>

#define ANY (-2) /* max_args: any number from min_args up */
#define CONST (-1), (-1) /* a value (math.pi), not a function */

static const op_row op_table[] = {
    /* builtins: each typed by infer.c's rule for its id; pow(a, b) becomes a ** b in ir/expr.c */
    {OPS_BUILTIN, "abs", OPI_ABS, 1, 1, 0, true, NULL},
    {OPS_BUILTIN, "min", OPI_MIN, 2, ANY, 0, true, NULL},
    {OPS_BUILTIN, "max", OPI_MAX, 2, ANY, 0, true, NULL},
    {OPS_BUILTIN, "min", OPI_MIN, 1, 1, 0, true, NULL}, /* of a list of numbers (min_max_of_list) */
    {OPS_BUILTIN, "max", OPI_MAX, 1, 1, 0, true, NULL},
    {OPS_BUILTIN, "int", OPI_INT, 1, 1, 'i', true, NULL},
    {OPS_BUILTIN, "float", OPI_FLOAT, 1, 1, 'f', true, NULL},
    {OPS_BUILTIN, "bool", OPI_BOOL, 0, 1, 'b', true, NULL},
    {OPS_BUILTIN, "round", OPI_ROUND, 1, 1, 'i', true, NULL},
    {OPS_BUILTIN, "round", OPI_ROUND_DIGITS, 2, 2, 0, false, NULL},
    {OPS_BUILTIN, "divmod", OPI_DIVMOD, 2, 2, 0, true, NULL},
    {OPS_BUILTIN, "pow", OPI_POW, 2, 2, 0, true, NULL},
    {OPS_BUILTIN, "len", OPI_LEN, 1, 1, 'i', true, NULL},
    {OPS_BUILTIN, "sum", OPI_SUM, 1, 1, 0, true, NULL},

    /* math constants */
    {OPS_MATH, "pi", OPI_MATH_CONST, CONST, 'f', true, NULL},
    {OPS_MATH, "e", OPI_MATH_CONST, CONST, 'f', true, NULL},
    {OPS_MATH, "tau", OPI_MATH_CONST, CONST, 'f', true, NULL},
    {OPS_MATH, "inf", OPI_MATH_CONST, CONST, 'f', true, NULL},
    {OPS_MATH, "nan", OPI_MATH_CONST, CONST, 'f', true, NULL},
    /* libm through dynac_libm_1 (an optimisation barrier), then CPython's
     * domain/range checks (dynac_math_check1); MATH_LIBM_OVF: can overflow */
    {OPS_MATH, "sqrt", OPI_MATH_LIBM, 1, 1, 'f', true, "sqrt"},
    {OPS_MATH, "exp", OPI_MATH_LIBM_OVF, 1, 1, 'f', true, "exp"},
    {OPS_MATH, "sin", OPI_MATH_LIBM, 1, 1, 'f', true, "sin"},
    {OPS_MATH, "cos", OPI_MATH_LIBM, 1, 1, 'f', true, "cos"},
    {OPS_MATH, "tan", OPI_MATH_LIBM, 1, 1, 'f', true, "tan"},
    {OPS_MATH, "asin", OPI_MATH_LIBM, 1, 1, 'f', true, "asin"},
    {OPS_MATH, "acos", OPI_MATH_LIBM, 1, 1, 'f', true, "acos"},
    {OPS_MATH, "atan", OPI_MATH_LIBM, 1, 1, 'f', true, "atan"},
    {OPS_MATH, "sinh", OPI_MATH_LIBM_OVF, 1, 1, 'f', true, "sinh"},
    {OPS_MATH, "cosh", OPI_MATH_LIBM_OVF, 1, 1, 'f', true, "cosh"},
    {OPS_MATH, "tanh", OPI_MATH_LIBM, 1, 1, 'f', true, "tanh"},
    {OPS_MATH, "fabs", OPI_MATH_LIBM, 1, 1, 'f', true, "fabs"},
    /* CPython's own wrappers of libm (special values, its error rules): dynac.h's copies */
    {OPS_MATH, "log", OPI_MATH_CPYTHON, 1, 1, 'f', true, "dynac_math_log"},
    {OPS_MATH, "log2", OPI_MATH_CPYTHON, 1, 1, 'f', true, "dynac_math_log2"},
    {OPS_MATH, "log10", OPI_MATH_CPYTHON, 1, 1, 'f', true, "dynac_math_log10"},
    {OPS_MATH, "atan2", OPI_MATH_CPYTHON, 2, 2, 'f', true, "dynac_math_atan2"},
    {OPS_MATH, "fmod", OPI_MATH_CPYTHON, 2, 2, 'f', true, "dynac_math_fmod"},
    {OPS_MATH, "pow", OPI_MATH_CPYTHON, 2, 2, 'f', true, "dynac_math_pow"},
    {OPS_MATH, "copysign", OPI_MATH_LIBM, 2, 2, 'f', true, "copysign"},
    /* plain arithmetic: x * 180/pi as CPython computes it */
    {OPS_MATH, "degrees", OPI_MATH_SCALE, 1, 1, 'f', true, "(180.0 / M_PI)"},
    {OPS_MATH, "radians", OPI_MATH_SCALE, 1, 1, 'f', true, "(M_PI / 180.0)"},
    /* to an int (an int argument is itself; helper: the libm rounding, NULL: none) */
    {OPS_MATH, "floor", OPI_MATH_TO_INT, 1, 1, 'i', true, "floor"},
    {OPS_MATH, "ceil", OPI_MATH_TO_INT, 1, 1, 'i', true, "ceil"},
    {OPS_MATH, "trunc", OPI_MATH_TO_INT, 1, 1, 'i', true, NULL},
    {OPS_MATH, "isnan", OPI_MATH_TEST, 1, 1, 'b', true, "isnan"},
    {OPS_MATH, "isinf", OPI_MATH_TEST, 1, 1, 'b', true, "isinf"},
    {OPS_MATH, "isfinite", OPI_MATH_TEST, 1, 1, 'b', true, "isfinite"},
    /* CPython has its own algorithms for these, or they take ints: called through the C API */
    {OPS_MATH, "log", OPI_MATH_API, 2, 2, 'f', false, NULL},
    {OPS_MATH, "hypot", OPI_MATH_API, 2, 2, 'f', false, NULL},
    {OPS_MATH, "gamma", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "lgamma", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "erf", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "erfc", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "expm1", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "log1p", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "asinh", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "acosh", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "atanh", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "cbrt", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "exp2", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "ldexp", OPI_MATH_API, 2, 2, 'f', false, NULL},
    {OPS_MATH, "remainder", OPI_MATH_API, 2, 2, 'f', false, NULL},
    {OPS_MATH, "nextafter", OPI_MATH_API, 2, 2, 'f', false, NULL},
    {OPS_MATH, "ulp", OPI_MATH_API, 1, 1, 'f', false, NULL},
    {OPS_MATH, "gcd", OPI_MATH_API, 2, 2, 'i', false, NULL},
    {OPS_MATH, "lcm", OPI_MATH_API, 2, 2, 'i', false, NULL},
    {OPS_MATH, "isqrt", OPI_MATH_API, 1, 1, 'i', false, NULL},
    {OPS_MATH, "factorial", OPI_MATH_API, 1, 1, 'i', false, NULL},
    {OPS_MATH, "comb", OPI_MATH_API, 2, 2, 'i', false, NULL},
    {OPS_MATH, "perm", OPI_MATH_API, 2, 2, 'i', false, NULL},

    /* numpy ufuncs of numbers (np.tanh(a[i])): numpy's own float64 inner loop, called on
       one item (runtime/numpy.h's dynac_np_ufunc), so the bits are numpy's */
#define UFUNC(name, nin) {OPS_NP_UFUNC, name, OPI_NP_UFUNC, nin, nin, 0, false, NULL}
#define UFUNC_INT(name, nin) {OPS_NP_UFUNC, name, OPI_NP_UFUNC_INT, nin, nin, 0, false, NULL}
    UFUNC("sqrt", 1), UFUNC("cbrt", 1), UFUNC("exp", 1), UFUNC("exp2", 1), UFUNC("expm1", 1),
    UFUNC("log", 1), UFUNC("log2", 1), UFUNC("log10", 1), UFUNC("log1p", 1),
    UFUNC("sin", 1), UFUNC("cos", 1), UFUNC("tan", 1), UFUNC("arcsin", 1), UFUNC("arccos", 1),
    UFUNC("arctan", 1), UFUNC("sinh", 1), UFUNC("cosh", 1), UFUNC("tanh", 1), UFUNC("arcsinh", 1),
    UFUNC("arccosh", 1), UFUNC("arctanh", 1), UFUNC("floor", 1), UFUNC("ceil", 1), UFUNC("trunc", 1),
    UFUNC("rint", 1), UFUNC("fabs", 1), UFUNC("deg2rad", 1), UFUNC("rad2deg", 1), UFUNC("degrees", 1),
    UFUNC("radians", 1), UFUNC("arctan2", 2), UFUNC("hypot", 2), UFUNC("copysign", 2),
    UFUNC("logaddexp", 2), UFUNC("logaddexp2", 2),
    UFUNC_INT("abs", 1), UFUNC_INT("absolute", 1), UFUNC_INT("negative", 1), UFUNC_INT("square", 1),
    UFUNC_INT("sign", 1), UFUNC_INT("maximum", 2), UFUNC_INT("minimum", 2), UFUNC_INT("fmax", 2),
    UFUNC_INT("fmin", 2), UFUNC_INT("power", 2), UFUNC_INT("fmod", 2),
#undef UFUNC
#undef UFUNC_INT

    /* list methods (on an object: PyObject_VectorcallMethod); plain C has no Python lists */
    {OPS_METHOD, "append", OPI_APPEND, 1, 1, 0, false, NULL},
    {OPS_METHOD, "pop", OPI_POP, 0, 1, 0, false, NULL},
    {OPS_METHOD, "insert", OPI_INSERT, 2, 2, 0, false, NULL},
    {OPS_METHOD, "extend", OPI_EXTEND, 1, 1, 0, false, NULL}, /* of a list or tuple of its element type */
};

static bool arity_ok(const op_row *r, int nargs) {
  if (nargs < 0) return true;
  if (r->min_args < 0) return false; /* a constant is not called */
  return nargs >= r->min_args && (r->max_args == ANY || nargs <= r->max_args);
}

const op_row *ops_find(op_family family, const char *name, int nargs) {
  for (size_t i = 0; i < sizeof op_table / sizeof *op_table; i++) {
    const op_row *r = &op_table[i];
    if (r->family == family && !strcmp(r->name, name) && arity_ok(r, nargs)) return r;
  }
  return NULL;
}

bool ops_is_math_const(const char *name) {
  const op_row *r = ops_find(OPS_MATH, name, -1);
  return r && r->id == OPI_MATH_CONST;
}

bool ops_is_math_function(const char *name) {
  for (size_t i = 0; i < sizeof op_table / sizeof *op_table; i++) {
    const op_row *r = &op_table[i];
    if (r->family == OPS_MATH && r->id != OPI_MATH_CONST && !strcmp(r->name, name)) return true;
  }
  return false;
}

bool ops_call_is(const expr *e, op_id id) {
  return e->u.call.op && e->u.call.op->id == id;
}

bool math_float_of_one(const expr *e) {
  const op_row *r = e->u.call.op;
  return e->u.call.kind == CALLEE_MATH && e->u.call.n == 1 && !e->u.call.nkw && r && r->helper &&
         r->min_args == 1 && r->result == 'f' &&
         (r->id == OPI_MATH_LIBM || r->id == OPI_MATH_LIBM_OVF || r->id == OPI_MATH_CPYTHON);
}

const type *ops_result_type(const op_row *r) {
  switch (r->result) {
  case 'f': return &ty_float;
  case 'i': return &ty_int;
  case 'b': return &ty_bool;
  default: return NULL;
  }
}
