/* runtime/plain_c.h: status codes and plain-C number helpers. A part of
 * single_include/dynac.h (make single_include).
 * This part is plain C11 (GCC/Clang builtins for overflow): it needs
 * <float.h>, <math.h>, <stdbool.h>, <stdint.h> and <string.h>, and no
 * Python header. `dynac export` copies it whole (between its Begin/End
 * banners) into the C it writes, so exported kernels compute exactly what
 * compiled ones do. */
enum {
  DYNAC_ERROR = -1,  /* a Python exception is set (exported C: the status is filled) */
  DYNAC_OK = 0,      /* result written */
  DYNAC_DEOPT = 1,   /* run this call in the interpreter instead */
  DYNAC_OK_NONE = 2, /* the function returned None */
  DYNAC_FALLTHROUGH = 3, /* a region kernel ran to its end (the function goes on) */
  DYNAC_OK_BOXED = 4 /* the call finished in the interpreter (dynac_continue) with a value
                        the kernel's result type cannot hold: the module's
                        dynac__boxed_result holds it (a new reference) */
};

/* Why a helper failed: each fallible helper below returns 0 or one of these
 * codes. Compiled kernels only test for nonzero (and deoptimise: the
 * interpreter then raises CPython's exception); exported C reports the code
 * with the Python exception it stands for and CPython's message. */
enum {
  DYNAC_FAIL_INT64 = 1,           /* an int result beyond int64 (CPython has big ints) */
  DYNAC_FAIL_INT_ZERO_DIV,        /* int // 0 */
  DYNAC_FAIL_INT_MOD_ZERO,        /* int % 0 */
  DYNAC_FAIL_DIV_ZERO,            /* int / 0 */
  DYNAC_FAIL_INT_TRUEDIV_BIG,     /* int / int with an operand beyond 2**53 */
  DYNAC_FAIL_FLOAT_DIV_ZERO,      /* float / 0.0 */
  DYNAC_FAIL_FLOAT_FLOORDIV_ZERO, /* float // 0.0 */
  DYNAC_FAIL_FLOAT_MOD_ZERO,      /* float % 0.0 */
  DYNAC_FAIL_POW_ZERO_NEG,        /* 0.0 ** negative */
  DYNAC_FAIL_POW_COMPLEX,         /* negative ** fractional: a complex number in Python */
  DYNAC_FAIL_POW_RANGE,           /* float ** float overflowed */
  DYNAC_FAIL_INT_POW_NEG,         /* int ** negative int: a float in Python */
  DYNAC_FAIL_NEG_SHIFT,           /* << or >> by a negative count */
  DYNAC_FAIL_NAN_TO_INT,          /* int(nan) */
  DYNAC_FAIL_INF_TO_INT,          /* int(inf) */
  DYNAC_FAIL_MATH_DOMAIN,         /* math.sqrt(-1.0), ... */
  DYNAC_FAIL_MATH_RANGE,          /* math.exp(1000.0), ... */
  DYNAC_FAIL_NOT_INT,             /* a float where Python needs an int (range(), <<, ...) */
  DYNAC_FAIL_INDEX,               /* an index out of range */
  DYNAC_FAIL_READONLY,            /* a write to a read-only buffer */
  DYNAC_FAIL_ITEM_RANGE,          /* a value out of an integer array item's range */
  DYNAC_FAIL_ITEM_VALUE,          /* the same for a bytearray or memoryview (ValueError) */
  DYNAC_FAIL_RANGE_STEP,          /* range(a, b, 0) */
  DYNAC_FAIL_UNBOUND,             /* a local read before assignment */
  DYNAC_FAIL_RECURSION,           /* kernel calls nested deeper than DYNAC_MAX_KERNEL_DEPTH */
  DYNAC_FAIL_NONE_RESULT,         /* a function typed to return a value returned None */
  DYNAC_FAIL_ARGUMENT,            /* exported C: an argument that breaks its documented shape */
  DYNAC_FAIL_NP_SPECIAL,          /* numpy.float64 arithmetic giving inf or nan, or by zero */
  DYNAC_FAIL_EMPTY,               /* min() or max() of no items */
  DYNAC_FAIL_COUNT
};

/* The Python exception a failure code stands for. */
enum {
  DYNAC_EXC_NONE = 0, DYNAC_EXC_OVERFLOW, DYNAC_EXC_ZERO_DIVISION, DYNAC_EXC_VALUE,
  DYNAC_EXC_INDEX, DYNAC_EXC_TYPE, DYNAC_EXC_RECURSION, DYNAC_EXC_UNBOUND_LOCAL
};
typedef struct dynac_fail_info {
  int exc;             /* DYNAC_EXC_* */
  const char *message; /* CPython's message where CPython raises; else what Python would
                          have returned that the C types cannot hold */
} dynac_fail_info;
/* The exception and message of failure `code` (0 or unknown: DYNAC_EXC_NONE, ""). */
static inline dynac_fail_info dynac_fail_describe(int code) {
  static const dynac_fail_info table[DYNAC_FAIL_COUNT] = {
      {DYNAC_EXC_NONE, ""},
      {DYNAC_EXC_OVERFLOW, "integer result does not fit in int64 (Python would return a larger int)"},
      {DYNAC_EXC_ZERO_DIVISION, "integer division or modulo by zero"},
      {DYNAC_EXC_ZERO_DIVISION, "integer modulo by zero"},
      {DYNAC_EXC_ZERO_DIVISION, "division by zero"},
      {DYNAC_EXC_OVERFLOW, "int / int with an operand beyond 2**53 is not exact in a double"},
      {DYNAC_EXC_ZERO_DIVISION, "float division by zero"},
      {DYNAC_EXC_ZERO_DIVISION, "float floor division by zero"},
      {DYNAC_EXC_ZERO_DIVISION, "float modulo"},
      {DYNAC_EXC_ZERO_DIVISION, "0.0 cannot be raised to a negative power"},
      {DYNAC_EXC_TYPE, "a negative number raised to a fractional power is complex in Python"},
      {DYNAC_EXC_OVERFLOW, "(34, 'Numerical result out of range')"},
      {DYNAC_EXC_TYPE, "int ** negative int is a float in Python, not an int"},
      {DYNAC_EXC_VALUE, "negative shift count"},
      {DYNAC_EXC_VALUE, "cannot convert float NaN to integer"},
      {DYNAC_EXC_OVERFLOW, "cannot convert float infinity to integer"},
      {DYNAC_EXC_VALUE, "math domain error"},
      {DYNAC_EXC_OVERFLOW, "math range error"},
      {DYNAC_EXC_TYPE, "a float where an integer is required"},
      {DYNAC_EXC_INDEX, "index out of range"},
      {DYNAC_EXC_TYPE, "cannot modify read-only memory"},
      {DYNAC_EXC_OVERFLOW, "value out of range of the array's item type"},
      {DYNAC_EXC_VALUE, "byte must be in range(0, 256)"},
      {DYNAC_EXC_VALUE, "range() arg 3 must not be zero"},
      {DYNAC_EXC_UNBOUND_LOCAL, "cannot access a local variable where it is not associated with a value"},
      {DYNAC_EXC_RECURSION, "maximum recursion depth exceeded"},
      {DYNAC_EXC_TYPE, "returned None where a value was declared"},
      {DYNAC_EXC_VALUE, "an argument does not have its documented shape"},
      {DYNAC_EXC_NONE, "numpy.float64 arithmetic that numpy warns about (inf, nan, a zero divisor)"},
      {DYNAC_EXC_VALUE, "arg is an empty sequence"}};
  if (code <= 0 || code >= DYNAC_FAIL_COUNT) return table[0];
  return table[code];
}
/* "ZeroDivisionError", ... for a DYNAC_EXC_* (NULL for DYNAC_EXC_NONE). */
static inline const char *dynac_exc_name(int exc) {
  static const char *const names[] = {NULL, "OverflowError", "ZeroDivisionError", "ValueError",
                                      "IndexError", "TypeError", "RecursionError",
                                      "UnboundLocalError"};
  return exc > 0 && exc < (int)(sizeof names / sizeof names[0]) ? names[exc] : NULL;
}

/* int: + - * with overflow detection: 0, or DYNAC_FAIL_INT64. */
#define DYNAC__INT64(overflowed) ((overflowed) ? DYNAC_FAIL_INT64 : 0)
static inline int dynac_int_add(int64_t a, int64_t b, int64_t *r) { return DYNAC__INT64(__builtin_add_overflow(a, b, r)); }
static inline int dynac_int_sub(int64_t a, int64_t b, int64_t *r) { return DYNAC__INT64(__builtin_sub_overflow(a, b, r)); }
static inline int dynac_int_mul(int64_t a, int64_t b, int64_t *r) { return DYNAC__INT64(__builtin_mul_overflow(a, b, r)); }
static inline int dynac_int_neg(int64_t a, int64_t *r) { return DYNAC__INT64(__builtin_sub_overflow((int64_t)0, a, r)); }
static inline int dynac_int_abs(int64_t a, int64_t *r) {
  if (a == INT64_MIN) return DYNAC_FAIL_INT64;
  *r = a < 0 ? -a : a;
  return 0;
}

/* int // int: rounds toward -inf. Fails on ZeroDivisionError or overflow. */
static inline int dynac_int_floordiv(int64_t a, int64_t b, int64_t *r) {
  if (b == 0) return DYNAC_FAIL_INT_ZERO_DIV;
  if (a == INT64_MIN && b == -1) return DYNAC_FAIL_INT64;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  *r = q;
  return 0;
}

/* int % int: the result takes the sign of b. Fails on ZeroDivisionError. */
static inline int dynac_int_mod(int64_t a, int64_t b, int64_t *r) {
  if (b == 0) return DYNAC_FAIL_INT_MOD_ZERO;
  if (b == -1) { *r = 0; return 0; }
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  *r = m;
  return 0;
}

/* int / int -> float, correctly rounded while both fit a double's 53-bit
 * mantissa exactly (as CPython's fast path); otherwise deoptimise. */
static inline int dynac_int_truediv(int64_t a, int64_t b, double *r) {
  const int64_t lim = (int64_t)1 << 53;
  if (b == 0) return DYNAC_FAIL_DIV_ZERO;
  if (a > lim || a < -lim || b > lim || b < -lim) return DYNAC_FAIL_INT_TRUEDIV_BIG;
  *r = (double)a / (double)b;
  return 0;
}

/* int ** int for a non-negative exponent; a negative one gives a float in
 * CPython, so the kernel deoptimises. */
static inline int dynac_int_pow(int64_t a, int64_t e, int64_t *r) {
  if (e < 0) return DYNAC_FAIL_INT_POW_NEG;
  int64_t acc = 1, base = a;
  while (e) {
    if ((e & 1) && __builtin_mul_overflow(acc, base, &acc)) return DYNAC_FAIL_INT64;
    e >>= 1;
    if (e && __builtin_mul_overflow(base, base, &base)) return DYNAC_FAIL_INT64;
  }
  *r = acc;
  return 0;
}

static inline int dynac_int_lshift(int64_t a, int64_t n, int64_t *r) {
  if (n < 0) return DYNAC_FAIL_NEG_SHIFT;
  if (a == 0) { *r = 0; return 0; }
  if (n >= 63) { /* only -1 << 63 (INT64_MIN) fits */
    if (a != -1 || n > 63) return DYNAC_FAIL_INT64;
    *r = INT64_MIN;
    return 0;
  }
  return DYNAC__INT64(__builtin_mul_overflow(a, (int64_t)1 << n, r));
}

static inline int dynac_int_rshift(int64_t a, int64_t n, int64_t *r) {
  if (n < 0) return DYNAC_FAIL_NEG_SHIFT;
  *r = n >= 64 ? (a < 0 ? -1 : 0) : (a >> n); /* arithmetic shift = floor */
  return 0;
}

/* float / float. Fails on ZeroDivisionError. */
static inline int dynac_float_div(double a, double b, double *r) {
  if (b == 0.0) return DYNAC_FAIL_FLOAT_DIV_ZERO;
  *r = a / b;
  return 0;
}

/* float % float: fmod, then the sign of the divisor; a zero result takes the
 * divisor's sign (CPython's float_rem). */
static inline int dynac_float_mod(double a, double b, double *r) {
  if (b == 0.0) return DYNAC_FAIL_FLOAT_MOD_ZERO;
  double m = fmod(a, b);
  if (m != 0.0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = copysign(0.0, b);
  }
  *r = m;
  return 0;
}

/* float // float: the quotient matching float % (CPython's _float_div_mod:
 * derive it from fmod, then round to the nearest integer toward -inf). */
static inline int dynac_float_floordiv(double a, double b, double *r) {
  if (b == 0.0) return DYNAC_FAIL_FLOAT_FLOORDIV_ZERO;
  double m = fmod(a, b);
  double div = (a - m) / b;
  if (m != 0.0 && ((b < 0) != (m < 0))) div -= 1.0;
  double q;
  if (div != 0.0) {
    q = floor(div);
    if (div - q > 0.5) q += 1.0;
  } else {
    q = copysign(0.0, a / b);
  }
  *r = q;
  return 0;
}

/* The value `x`, hidden from the optimiser: no instruction, but the
 * compiler may assume nothing of it. libm calls go through it both ways,
 * because GCC otherwise rewrites them into something CPython does not
 * compute: pow(x, 2.0) into x*x and pow(x, -1.0) into 1/x (libm's pow is
 * not correctly rounded, x*x is: they differ in the last bit for ~0.05% of
 * floats), calls with constant arguments into MPFR's value, and
 * copysign(1, exp(x)) into 1.0 ("exp is never negative", but exp(-nan) is
 * -nan). CPython calls the same libm through pointers, which nothing folds. */
static inline double dynac_opaque(double x) {
#if defined(__GNUC__) && (defined(__x86_64__) || (defined(__i386__) && defined(__SSE2_MATH__)))
  __asm__("" : "+x"(x));
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(x));
#else
  volatile double v = x;
  x = v;
#endif
  return x;
}
/* f(x) and f(x, y) of libm, called as CPython calls them (see dynac_opaque). */
#define dynac_libm_1(f, x) dynac_opaque(f(dynac_opaque(x)))
#define dynac_libm_2(f, x, y) dynac_opaque(f(dynac_opaque(x), dynac_opaque(y)))

/* float ** float, step for step as CPython's float_pow (Objects/
 * floatobject.c): the special values first, then libm's pow of |a| with the
 * sign put back. Nonzero where CPython raises (ZeroDivisionError,
 * OverflowError) or returns a complex number. */
static inline int dynac_float_pow(double a, double b, double *r) {
  if (b == 0.0) { *r = 1.0; return 0; }
  if (isnan(a)) { *r = a; return 0; }
  if (isnan(b)) { *r = a == 1.0 ? 1.0 : b; return 0; }
  bool b_odd = isfinite(b) && fmod(fabs(b), 2.0) == 1.0;
  if (isinf(b)) {
    double m = fabs(a);
    *r = m == 1.0 ? 1.0 : (b > 0.0) == (m > 1.0) ? fabs(b) : 0.0;
    return 0;
  }
  if (isinf(a)) {
    *r = b > 0.0 ? (b_odd ? a : fabs(a)) : (b_odd ? copysign(0.0, a) : 0.0);
    return 0;
  }
  if (a == 0.0) {
    if (b < 0.0) return DYNAC_FAIL_POW_ZERO_NEG;
    *r = b_odd ? a : 0.0;
    return 0;
  }
  bool negate = false;
  if (a < 0.0) {
    if (b != floor(b)) return DYNAC_FAIL_POW_COMPLEX;
    a = -a;
    negate = b_odd;
  }
  if (a == 1.0) { *r = negate ? -1.0 : 1.0; return 0; }
  double x = dynac_libm_2(pow, a, b);
  if (isinf(x)) return DYNAC_FAIL_POW_RANGE;
  *r = negate ? -x : x;
  return 0;
}

/* math.pow(x, y): CPython's math_pow (Modules/mathmodule.c) decides the
 * special values itself and leaves finite ** finite to libm; an error
 * (nan or inf from finite arguments) is left to dynac_math_check2. */
static inline double dynac_math_pow(double x, double y) {
  if (isfinite(x) && isfinite(y)) return dynac_libm_2(pow, x, y);
  if (isnan(x)) return y == 0.0 ? 1.0 : x;
  if (isnan(y)) return x == 1.0 ? 1.0 : y;
  if (isinf(x)) {
    bool y_odd = isfinite(y) && fmod(fabs(y), 2.0) == 1.0;
    return y > 0.0 ? (y_odd ? x : fabs(x)) : y == 0.0 ? 1.0 : (y_odd ? copysign(0.0, x) : 0.0);
  }
  if (fabs(x) == 1.0) return 1.0;
  if (y > 0.0 && fabs(x) > 1.0) return y;
  if (y < 0.0 && fabs(x) < 1.0) return -y;
  return 0.0;
}
/* math.atan2(y, x): CPython's m_atan2 answers a NaN argument with its own
 * (positive) NaN, where libm passes the argument's sign on. */
static inline double dynac_math_atan2(double y, double x) {
  return isnan(x) || isnan(y) ? (double)NAN : dynac_libm_2(atan2, y, x);
}
/* math.fmod(x, y): CPython's math_fmod returns x for an infinite y. */
static inline double dynac_math_fmod(double x, double y) {
  return isinf(y) && isfinite(x) ? x : dynac_libm_2(fmod, x, y);
}
/* math.log / log2 / log10 of one float: CPython's m_log family returns a
 * NaN argument itself and its own NaN for -inf (a domain error either way). */
#define DYNAC_MATH_LOG(name)                                       \
  static inline double dynac_math_##name(double x) {               \
    if (isnan(x)) return x;                                        \
    if (isinf(x)) return x > 0.0 ? x : (double)NAN;                \
    return dynac_libm_1(name, x);                                  \
  }
DYNAC_MATH_LOG(log)
DYNAC_MATH_LOG(log2)
DYNAC_MATH_LOG(log10)
#undef DYNAC_MATH_LOG

/* Exact comparison of an int with a float (CPython compares the values, not
 * the int converted to a double): -1 if i < f, 0 if equal, 1 if i > f, 2 if
 * f is NaN (unordered). */
static inline int dynac_cmp_int_float(int64_t i, double f) {
  if (isnan(f)) return 2;
  const int64_t lim = (int64_t)1 << 53;
  if (i >= -lim && i <= lim) {
    double d = (double)i;
    return d < f ? -1 : d > f ? 1 : 0;
  }
  if (f >= 9223372036854775808.0) return -1;
  if (f < -9223372036854775808.0) return 1;
  double t = trunc(f);
  int64_t ti = (int64_t)t;
  if (i != ti) return i < ti ? -1 : 1;
  double frac = f - t;
  return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}
#define DYNAC_CMP_LT(c) ((c) == -1)
#define DYNAC_CMP_LE(c) ((c) == -1 || (c) == 0)
#define DYNAC_CMP_GT(c) ((c) == 1)
#define DYNAC_CMP_GE(c) ((c) == 1 || (c) == 0)
#define DYNAC_CMP_EQ(c) ((c) == 0)
#define DYNAC_CMP_NE(c) ((c) != 0)

/* int(x) / math.trunc(x) of a float: fails for NaN, inf, or outside int64. */
static inline int dynac_float_to_int(double x, int64_t *r) {
  if (isnan(x)) return DYNAC_FAIL_NAN_TO_INT;
  if (isinf(x)) return DYNAC_FAIL_INF_TO_INT;
  double t = trunc(x);
  if (t < -9223372036854775808.0 || t >= 9223372036854775808.0) return DYNAC_FAIL_INT64;
  *r = (int64_t)t;
  return 0;
}

/* round(x) of a float: half to even (CPython's float.__round__). */
static inline int dynac_float_round(double x, int64_t *r) {
  double y = round(x);
  if (fabs(x - y) == 0.5) y = 2.0 * round(x / 2.0);
  return dynac_float_to_int(y, r);
}

/* IEEE's square root (correctly rounded; nan and the invalid flag for x < 0,
 * as C's sqrt) without the errno C's sqrt must set for x < 0: GCC emits the
 * bare instruction with no call of libm behind it (a call, even one never
 * made, costs a loop its xmm registers: pairwise's loop took 13% longer). */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline double dynac_sqrt(double x) {
  __m128d v = _mm_set_sd(x);
  return _mm_cvtsd_f64(_mm_sqrt_sd(v, v));
}
#else
static inline double dynac_sqrt(double x) { return sqrt(x); }
#endif

/* (double)n where GCC cannot see that it came from an int (the right
 * operand of a float subtraction, float(n)): GCC 12 folds 0.0 - (double)n
 * into -(double)n, which is -0.0 for n == 0 where IEEE (and CPython's
 * 0.0 - 0) gives +0.0 (-fsigned-zeros, GCC's default, does not stop it). */
static inline double dynac_int_subtrahend(int64_t n) {
  double d = (double)n;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__)
  __asm__("" : "+x"(d)); /* (no instruction: d stays in its register) */
#elif defined(__GNUC__)
  __asm__("" : "+m"(d));
#endif
  return d;
}

/* math functions of one/two floats: fail where CPython's math module raises
 * (Modules/mathmodule.c math_1/math_2): NaN from non-NaN arguments is
 * ValueError "math domain error"; inf from finite ones is OverflowError
 * "math range error" for the functions that can overflow (can_overflow:
 * exp, exp2, expm1, cosh, sinh) and a domain error (a pole) for the others. */
static inline int dynac_math_check1(double x, double r, int can_overflow) {
  if (isnan(r) && !isnan(x)) return DYNAC_FAIL_MATH_DOMAIN;
  if (isinf(r) && isfinite(x)) return can_overflow ? DYNAC_FAIL_MATH_RANGE : DYNAC_FAIL_MATH_DOMAIN;
  return 0;
}
static inline int dynac_math_check2(double x, double y, double r) {
  if (isnan(r) && !isnan(x) && !isnan(y)) return DYNAC_FAIL_MATH_DOMAIN;
  if (isinf(r) && isfinite(x) && isfinite(y)) return DYNAC_FAIL_MATH_RANGE;
  return 0;
}


/* A number that is an int or a float depending on the path taken (`s = 0`
 * then `s += 0.5`; `max(1, 0.5)`). Operations dispatch on the tag with
 * CPython's rules: int op int stays exact, anything with a float is float.
 * `np`: the number is a numpy.float64 (isf) or numpy.int64 (`s = 0.0` then
 * `s += a[i]` of a float64 array, `t = 0` then `t += v` of an int64 one:
 * the type infer.c calls int | float | numpy.float64 | numpy.int64).
 * Arithmetic with one is numpy's: its result is a numpy scalar too (int64
 * with ints, float64 with a float), and where numpy would warn, wrap or
 * follow np.errstate (a float result that is inf or nan, a zero divisor,
 * int64 overflow) the helper fails with DYNAC_FAIL_NP_SPECIAL and the
 * interpreter (or the C API's own operation) gives numpy's answer. */
typedef struct dynac_num {
  int64_t i;   /* the value when !isf */
  double f;    /* the value when isf */
  bool isf;
  bool np;     /* a numpy.float64 (isf) or numpy.int64 */
} dynac_num;

static inline dynac_num dynac_num_i(int64_t i) { dynac_num n = {i, 0.0, false, false}; return n; }
static inline dynac_num dynac_num_f(double f) { dynac_num n = {0, f, true, false}; return n; }
static inline dynac_num dynac_num_npf(double f) { dynac_num n = {0, f, true, true}; return n; }
static inline dynac_num dynac_num_npi(int64_t i) { dynac_num n = {i, 0.0, false, true}; return n; }
static inline double dynac_num_to_double(dynac_num a) { return a.isf ? a.f : (double)a.i; }
static inline bool dynac_num_truth(dynac_num a) { return a.isf ? a.f != 0.0 : a.i != 0; }

static inline int dynac__float_add(double x, double y, double *r) { *r = x + y; return 0; }
static inline int dynac__float_sub(double x, double y, double *r) { *r = x - y; return 0; }
static inline int dynac__float_mul(double x, double y, double *r) { *r = x * y; return 0; }
/* The failure of a float result r (status st) that is a numpy.float64 when np. */
static inline int dynac__np_result(bool np, int st, double r) {
  return np && (st || !isfinite(r)) ? DYNAC_FAIL_NP_SPECIAL : st;
}

#define DYNAC__NUM_ARITH(name, intop, floatop)                                   \
  static inline int dynac_num_##name(dynac_num a, dynac_num b, dynac_num *r) {   \
    r->np = a.np || b.np;                                                        \
    if (!a.isf && !b.isf) {                                                      \
      r->isf = false;                                                            \
      int ist = intop(a.i, b.i, &r->i);                                          \
      return r->np && ist ? DYNAC_FAIL_NP_SPECIAL : ist;                         \
    }                                                                            \
    r->isf = true;                                                               \
    int st = floatop(dynac_num_to_double(a), dynac_num_to_double(b), &r->f);     \
    return dynac__np_result(r->np, st, r->f);                                    \
  }
DYNAC__NUM_ARITH(add, dynac_int_add, dynac__float_add)
DYNAC__NUM_ARITH(sub, dynac_int_sub, dynac__float_sub)
DYNAC__NUM_ARITH(mul, dynac_int_mul, dynac__float_mul)
DYNAC__NUM_ARITH(floordiv, dynac_int_floordiv, dynac_float_floordiv)
DYNAC__NUM_ARITH(mod, dynac_int_mod, dynac_float_mod)

/* int ** int is an int for exponents >= 0 and float(a) ** float(b) below. */
static inline int dynac_num_pow(dynac_num a, dynac_num b, dynac_num *r) {
  r->np = a.np || b.np;
  if (!a.isf && !b.isf && b.i >= 0) {
    r->isf = false;
    int st = dynac_int_pow(a.i, b.i, &r->i);
    return r->np && st ? DYNAC_FAIL_NP_SPECIAL : st;
  }
  if (!a.isf && !b.isf && r->np) return DYNAC_FAIL_NP_SPECIAL; /* numpy: ValueError */
  r->isf = true;
  int st = dynac_float_pow(dynac_num_to_double(a), dynac_num_to_double(b), &r->f);
  return dynac__np_result(r->np, st, r->f);
}

static inline int dynac_num_truediv(dynac_num a, dynac_num b, double *r) {
  if (!a.isf && !b.isf) return dynac_int_truediv(a.i, b.i, r);
  return dynac_float_div(dynac_num_to_double(a), dynac_num_to_double(b), r);
}
/* a / b where either may be a numpy.float64 (then so is the quotient). */
static inline int dynac_num_np_truediv(dynac_num a, dynac_num b, dynac_num *r) {
  r->np = a.np || b.np;
  r->isf = true;
  r->i = 0;
  if (!r->np) return dynac_num_truediv(a, b, &r->f);
  int st = dynac_float_div(dynac_num_to_double(a), dynac_num_to_double(b), &r->f);
  return dynac__np_result(true, st, r->f);
}

/* -1, 0, 1, or 2 when unordered (NaN): exact across int and float. */
static inline int dynac_num_cmp(dynac_num a, dynac_num b) {
  if (!a.isf && !b.isf) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  if (a.np || b.np) { /* numpy compares an int with a float as float64s */
    double x = dynac_num_to_double(a), y = dynac_num_to_double(b);
    return x != x || y != y ? 2 : x < y ? -1 : x > y ? 1 : 0;
  }
  if (!a.isf) return dynac_cmp_int_float(a.i, b.f);
  if (!b.isf) {
    int c = dynac_cmp_int_float(b.i, a.f);
    return c == 2 ? 2 : -c;
  }
  if (a.f != a.f || b.f != b.f) return 2;
  return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
}

static inline int dynac_num_neg(dynac_num a, dynac_num *r) {
  r->isf = a.isf;
  r->np = a.np;
  if (a.isf) { r->f = -a.f; return 0; }
  int st = dynac_int_neg(a.i, &r->i);
  return a.np && st ? DYNAC_FAIL_NP_SPECIAL : st;
}

static inline int dynac_num_abs(dynac_num a, dynac_num *r) {
  r->isf = a.isf;
  r->np = a.np;
  if (a.isf) { r->f = fabs(a.f); return 0; }
  int st = dynac_int_abs(a.i, &r->i);
  return a.np && st ? DYNAC_FAIL_NP_SPECIAL : st;
}

/* An int-only use (bit operations, shifts, range()) of a number that is a
 * float raises TypeError in CPython: nonzero, deoptimise. */
static inline int dynac_num_as_int(dynac_num a, int64_t *r) {
  if (a.isf) return DYNAC_FAIL_NOT_INT;
  *r = a.i;
  return 0;
}

/* int(x), round(x), math.floor/ceil/trunc of a number. */
static inline int dynac_num_to_int(dynac_num a, int64_t *r) {
  if (!a.isf) { *r = a.i; return 0; }
  return dynac_float_to_int(a.f, r);
}
static inline int dynac_num_round(dynac_num a, int64_t *r) {
  if (!a.isf) { *r = a.i; return 0; }
  return dynac_float_round(a.f, r);
}
static inline int dynac_num_floor(dynac_num a, int64_t *r) {
  if (!a.isf) { *r = a.i; return 0; }
  return dynac_float_to_int(floor(a.f), r);
}
static inline int dynac_num_ceil(dynac_num a, int64_t *r) {
  if (!a.isf) { *r = a.i; return 0; }
  return dynac_float_to_int(ceil(a.f), r);
}

/* Length of range(start, stop, step), step != 0, computed without overflow
 * (as CPython's range does, in unsigned arithmetic). */
static inline uint64_t dynac_range_len(int64_t start, int64_t stop, int64_t step) {
  if (step > 0)
    return start < stop ? ((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1 : 0;
  return start > stop
             ? ((uint64_t)start - (uint64_t)stop - 1) / ((uint64_t)0 - (uint64_t)step) + 1
             : 0;
}

/* Range-derived bounds checks: is a * v + b in [0, len), computed without
 * int64 overflow, for every v of range(start, stop, step) (step != 0)?
 * True for an empty range. a * v + b is monotonic in v, so the first and
 * last items decide it; a kernel tests this once before a loop and then
 * skips the loop's per-item index checks (dynac's generator, bounds.c). */
static inline bool dynac_affine_in(int64_t a, int64_t b, int64_t start, int64_t stop, int64_t step,
                                   int64_t len) {
  uint64_t n = dynac_range_len(start, stop, step);
  if (n == 0) return true;
  int64_t last, x, y;
  if (n - 1 > (uint64_t)INT64_MAX || __builtin_mul_overflow((int64_t)(n - 1), step, &last) ||
      __builtin_add_overflow(start, last, &last))
    return false;
  if (__builtin_mul_overflow(a, start, &x) || __builtin_add_overflow(x, b, &x) ||
      __builtin_mul_overflow(a, last, &y) || __builtin_add_overflow(y, b, &y))
    return false;
  return x >= 0 && x < len && y >= 0 && y < len;
}

/* Python's index rule: negative i counts from the end. Nonzero when out of
 * range (IndexError in CPython). */
static inline int dynac_index(int64_t i, int64_t len, int64_t *out) {
  if (i < 0) i += len;
  if (i < 0 || i >= len) return DYNAC_FAIL_INDEX;
  *out = i;
  return 0;
}

/* Does int64 `x` fit an integer buffer item of struct format `fmt`? (0:
 * CPython's store raises OverflowError.) */
static inline int dynac_fits_fmt(int64_t x, char fmt) {
  switch (fmt) {
  case 'b': return x >= -128 && x <= 127;
  case 'B': return x >= 0 && x <= 255;
  case 'h': return x >= -32768 && x <= 32767;
  case 'H': return x >= 0 && x <= 65535;
  case 'i': return x >= INT32_MIN && x <= INT32_MAX;
  case 'I': return x >= 0 && x <= (int64_t)UINT32_MAX;
  case 'Q': case 'L': return x >= 0;
  case '?': return x == 0 || x == 1;
  default: return 1;
  }
}
