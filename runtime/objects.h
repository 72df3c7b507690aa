/* runtime/objects.h: values of any type, through the C API. A part of single_include/dynac.h (make single_include). */
/* ---- objects: values of any type, through the C API -----------------------
 * A kernel value of type `object` (a list element of no number type, an
 * argument recorded as some class) is an owned PyObject *. The generated C
 * declares each one DYNAC_OBJ: the compiler releases it on every way out of
 * its block (GCC's and Clang's cleanup attribute), so the many early
 * returns of a kernel need no bookkeeping. Operations go through the C API,
 * as the interpreter's own would (PyObject_RichCompare for `<`, ...), so
 * results and exceptions are CPython's. They may run Python code (__lt__,
 * __index__, ...): each sets `*effects` unless every operand is a value of
 * a builtin type whose operation runs none (dynac_obj_pure); a kernel that
 * ran Python code raises instead of deoptimising (dynac_deopt_after_effect). */
static inline void dynac__obj_release(PyObject **p) { Py_XDECREF(*p); }
#define DYNAC_OBJ __attribute__((cleanup(dynac__obj_release))) PyObject *

/* Is `o` an int, float, bool, None, str or bytes, or a tuple of such (up to
 * 4 levels): values whose comparison and arithmetic run no Python code? */
static inline int dynac_obj_pure(PyObject *o, int depth) {
  if (PyLong_CheckExact(o) || PyFloat_CheckExact(o) || PyBool_Check(o) || o == Py_None ||
      PyUnicode_CheckExact(o) || PyBytes_CheckExact(o))
    return 1;
  if (!PyTuple_CheckExact(o) || depth >= 4) return 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); i++)
    if (!dynac_obj_pure(PyTuple_GET_ITEM(o, i), depth + 1)) return 0;
  return 1;
}
static inline void dynac__obj_effect(PyObject *a, PyObject *b, int *effects) {
  if (*effects || !dynac_obj_pure(a, 0) || (b && !dynac_obj_pure(b, 0))) dynac_python_may_run(effects);
}
/* a OP b (op: Py_LT ... Py_GE): the result object (new reference), NULL
 * with CPython's exception. */
#define DYNAC__COMPARED(op, x, y) \
  Py_NewRef(((op) == Py_LT ? (x) < (y) : (op) == Py_LE ? (x) <= (y) : (op) == Py_EQ ? (x) == (y) \
             : (op) == Py_NE ? (x) != (y) : (op) == Py_GT ? (x) > (y) : (x) >= (y)) ? Py_True : Py_False)
static inline PyObject *dynac_obj_compare(PyObject *a, PyObject *b, int op, int *effects) {
  if (PyFloat_CheckExact(a) && PyFloat_CheckExact(b)) /* float_richcompare's answer, as 3.11's
                                                         COMPARE_OP_FLOAT_JUMP takes it */
    return DYNAC__COMPARED(op, PyFloat_AS_DOUBLE(a), PyFloat_AS_DOUBLE(b));
  long i, j;
  if (dynac_compat_small_int(a, &i) && dynac_compat_small_int(b, &j)) /* COMPARE_OP_INT_JUMP's */
    return DYNAC__COMPARED(op, i, j);
  dynac__obj_effect(a, b, effects);
  return PyObject_RichCompare(a, b, op);
}
/* a + b, a - b, a * b, a / b (op 0-3) of two exact floats: float_add ...
 * float_div's result without the number protocol's dispatch, as CPython
 * 3.11's BINARY_OP_ADD_FLOAT and its siblings take it (not a division by
 * zero: float_div raises). Set *done when it was one (the result, or NULL
 * with MemoryError). */
static inline PyObject *dynac__float_op(PyObject *a, PyObject *b, int op, int *done) {
  *done = op <= 3 && PyFloat_CheckExact(a) && PyFloat_CheckExact(b) && (op < 3 || PyFloat_AS_DOUBLE(b) != 0.0);
  if (!*done) return NULL;
  double x = PyFloat_AS_DOUBLE(a), y = PyFloat_AS_DOUBLE(b);
  return PyFloat_FromDouble(op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : x / y);
}
/* a OP b of two exact ints below 2**127 in magnitude, in checked 128-bit
 * C arithmetic with Python's rules: // and % floor (the remainder takes
 * the divisor's sign), >> floors, & | ^ are two's complement. An LCG's
 * `(s * A + C) % 2**64` then costs no digit loops (CPython's k_mul and
 * x_divrem: ~2,000 instructions). Not done (*done 0: the C API's call
 * answers, with its exception) for ** and @, a zero divisor, a negative
 * shift, a result beyond 128 bits, or true division of ints above 2**53
 * (below, (double)a / (double)b is long_true_divide's own fast path). */
static inline DYNAC_ALWAYS_INLINE int dynac__int128_op(__int128 x, __int128 y, int op, __int128 *out) {
  __int128 r;
  switch (op) {
  case 0: if (__builtin_add_overflow(x, y, &r)) return 0; break;
  case 1: if (__builtin_sub_overflow(x, y, &r)) return 0; break;
  case 2: if (__builtin_mul_overflow(x, y, &r)) return 0; break;
  case 4: case 5: {
    if (y == 0) return 0;
    if (y > 0 && !(y & (y - 1))) { /* 2**k: Python's floor // and % are an arithmetic shift and a mask */
      unsigned long long lo = (unsigned long long)y;
      int k = lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)((unsigned __int128)y >> 64));
      r = op == 4 ? x >> k : x & (y - 1);
      break;
    }
    __int128 q = x / y, m = x % y;
    if (m != 0 && (m < 0) != (y < 0)) q -= 1, m += y;
    r = op == 4 ? q : m;
    break;
  }
  case 7: /* the result needs bit_length(|x|) + y bits and a sign */
    if (y < 0 || y > 126 || (x != 0 && (x >= ((__int128)1 << (126 - y)) || x <= -((__int128)1 << (126 - y)))))
      return 0;
    r = (__int128)((unsigned __int128)x << y);
    break;
  case 8: if (y < 0) return 0; r = y > 126 ? (x < 0 ? -1 : 0) : x >> y; break;
  case 9: r = x & y; break;
  case 10: r = x | y; break;
  case 11: r = x ^ y; break;
  default: return 0; /* / ** @: not an int's */
  }
  *out = r;
  return 1;
}
static inline PyObject *dynac__int_op(PyObject *a, PyObject *b, int op, int *done) {
  __int128 x, y, r;
  long sa, sb;
  *done = 0;
  if (op <= 2 && dynac_compat_small_int(a, &sa) && dynac_compat_small_int(b, &sb)) { /* one digit each: */
    *done = 1; /* + - * in a C long, as long_add's and long_mul's own one-digit paths */
    return PyLong_FromLong(op == 0 ? sa + sb : op == 1 ? sa - sb : sa * sb);
  }
  if (op == 6 || op == 12 || !dynac_compat_int128_of(a, &x) || !dynac_compat_int128_of(b, &y)) return NULL;
  const __int128 exact = (__int128)1 << 53; /* doubles hold every int up to it */
  if (op == 3) {
    if (y == 0 || x > exact || x < -exact || y > exact || y < -exact) return NULL;
    *done = 1;
    return PyFloat_FromDouble((double)x / (double)y);
  }
  if (!dynac__int128_op(x, y, op, &r)) return NULL;
  *done = 1;
  return dynac_compat_int_from128(r);
}
/* a OP b of an exact float and an exact int below 2**63 in magnitude (+ - *
 * /): float_add and its siblings convert the int with PyLong_AsDouble,
 * which rounds as the C conversion does. Not done for a zero divisor. */
static inline PyObject *dynac__mixed_float_op(PyObject *a, PyObject *b, int op, int *done) {
  double x, y;
  long long i;
  int overflow = 0;
  *done = 0;
  if (op > 3) return NULL;
  if (PyFloat_CheckExact(a) && PyLong_CheckExact(b)) {
    i = PyLong_AsLongLongAndOverflow(b, &overflow);
    x = PyFloat_AS_DOUBLE(a), y = (double)i;
  } else if (PyLong_CheckExact(a) && PyFloat_CheckExact(b)) {
    i = PyLong_AsLongLongAndOverflow(a, &overflow);
    x = (double)i, y = PyFloat_AS_DOUBLE(b);
  } else
    return NULL;
  if (overflow || (op == 3 && y == 0.0)) return NULL;
  *done = 1;
  return PyFloat_FromDouble(op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : x / y);
}
/* a OP b of exact floats and ints (the values generic code mostly holds)
 * in C arithmetic, with CPython's results; *done 0 for the number protocol
 * to answer. Ints and floats have no in-place operators: OP= is OP. */
static inline PyObject *dynac__exact_number_op(PyObject *a, PyObject *b, int op, int *done) {
  *done = 0;
  if (!PyFloat_CheckExact(a) && !PyLong_CheckExact(a)) return NULL; /* str + str, list * n, ...: one test */
  PyObject *f = dynac__float_op(a, b, op, done);
  if (*done) return f;
  f = dynac__int_op(a, b, op, done);
  if (*done) return f;
  return dynac__mixed_float_op(a, b, op, done);
}
/* a OP b for the generator's binop numbering (+ - * / // % ** << >> & | ^ @). */
static inline PyObject *dynac_obj_binop(PyObject *a, PyObject *b, int op, int *effects) {
  int done;
  PyObject *f = dynac__exact_number_op(a, b, op, &done);
  if (done) return f;
  dynac__obj_effect(a, b, effects);
  switch (op) {
  case 0: return PyNumber_Add(a, b);
  case 1: return PyNumber_Subtract(a, b);
  case 2: return PyNumber_Multiply(a, b);
  case 3: return PyNumber_TrueDivide(a, b);
  case 4: return PyNumber_FloorDivide(a, b);
  case 5: return PyNumber_Remainder(a, b);
  case 6: return PyNumber_Power(a, b, Py_None);
  case 7: return PyNumber_Lshift(a, b);
  case 8: return PyNumber_Rshift(a, b);
  case 9: return PyNumber_And(a, b);
  case 10: return PyNumber_Or(a, b);
  case 11: return PyNumber_Xor(a, b);
  default: return PyNumber_MatrixMultiply(a, b);
  }
}
/* A number chain's literals as C values, read once per site (they are the
 * site's constants, never rebound): per step 'i' an int below 2**127 (i),
 * 'f' a float (d), 0 anything else (the step is the C API's). */
#define DYNAC_CHAIN_MAX 16
typedef struct dynac_chain_ys {
  int ready;
  uint64_t ring_mask; /* nonzero: a ring chain, ending `% 2**k`, k <= 64 (mask 2**k - 1) */
  char kind[DYNAC_CHAIN_MAX];
  __int128 i[DYNAC_CHAIN_MAX];
  double d[DYNAC_CHAIN_MAX];
} dynac_chain_ys;
/* Is the chain + - * of int literals, then `% 2**k` with 1 <= k <= 64 (an
 * LCG's step)? Then its result is x's modulo 2**k, for any int x: + - *
 * commute with taking the remainder, so wrapping 64-bit arithmetic on x's
 * low 64 bits gives it (Python's % of a positive divisor is never
 * negative: the mask's). The mask, or 0. */
static inline uint64_t dynac__chain_ring_mask(const dynac_chain_ys *c, int n, const int *ops) {
  if (n < 2 || n > DYNAC_CHAIN_MAX || ops[n - 1] != 5 || c->kind[n - 1] != 'i') return 0;
  for (int k = 0; k < n - 1; k++)
    if (ops[k] > 2 || c->kind[k] != 'i') return 0;
  __int128 m = c->i[n - 1];
  if (m < 2 || (m & (m - 1)) || m > ((__int128)1 << 64)) return 0;
  return (uint64_t)(m - 1);
}
static inline void dynac__chain_ys_read(dynac_chain_ys *c, int n, const int *ops, PyObject *const *ys) {
  for (int k = 0; k < n && k < DYNAC_CHAIN_MAX; k++) {
    c->kind[k] = dynac_compat_int128_of(ys[k], &c->i[k]) ? 'i' : PyFloat_CheckExact(ys[k]) ? 'f' : 0;
    c->d[k] = c->kind[k] == 'f' ? PyFloat_AS_DOUBLE(ys[k]) : 0.0;
  }
  c->ring_mask = dynac__chain_ring_mask(c, n, ops);
  c->ready = 1;
}
/* A ring chain (dynac__chain_ring_mask) of an exact int x: its steps in
 * wrapping 64-bit arithmetic, masked. A new int, or NULL (MemoryError). */
DYNAC_HOT_INLINE PyObject *dynac__chain_ring(const dynac_chain_ys *c, int n, const int *ops, uint64_t x) {
  for (int k = 0; k < n - 1; k++) {
    uint64_t y = (uint64_t)c->i[k]; /* its value modulo 2**64 */
    x = ops[k] == 0 ? x + y : ops[k] == 1 ? x - y : x * y;
  }
  return PyLong_FromUnsignedLongLong(x & c->ring_mask);
}
/* One step of a number chain on a C value: an int below 2**127 (*is_int,
 * *v) or a float (*d), OP (BINARY_OP's code) literal k of c, as CPython
 * computes it: ints in 128-bit arithmetic (dynac__int128_op); an int and a
 * float, or two floats, with + - * / as float_add and its siblings (an int
 * converted as PyLong_AsDouble rounds it: to nearest, as the C conversion
 * does); int / int when both are below 2**53 (long_true_divide's own fast
 * path). 0: not done here (the C API's answer, with its exception: a zero
 * divisor, // % ** of floats, an overflow, ...). */
DYNAC_HOT_INLINE int dynac__chain_step(int *is_int, __int128 *v, double *d, int op, const dynac_chain_ys *c, int k) {
  if (c->kind[k] == 'i') {
    __int128 yi = c->i[k];
    if (*is_int && op != 3) return dynac__int128_op(*v, yi, op, v);
    const __int128 exact = (__int128)1 << 53;
    if (*is_int && (*v > exact || *v < -exact || yi > exact || yi < -exact)) return 0;
    if (op > 3 || (op == 3 && yi == 0) || (!*is_int && (yi > exact || yi < -exact))) return 0;
    double x = *is_int ? (double)*v : *d, yd = (double)yi;
    *d = op == 0 ? x + yd : op == 1 ? x - yd : op == 2 ? x * yd : x / yd;
  } else if (c->kind[k] == 'f') {
    double yd = c->d[k], x = *is_int ? (double)*v : *d;
    if (op > 3 || (op == 3 && yd == 0.0)) return 0;
    *d = op == 0 ? x + yd : op == 1 ? x - yd : op == 2 ? x * yd : x / yd;
  } else
    return 0;
  *is_int = 0;
  return 1;
}
/* ((x OP1 ys[0]) OP2 ys[1]) ... (n steps, left to right; ops: BINARY_OP's
 * codes) as n dynac_obj_binop calls give it: a ring chain of an exact int
 * in wrapping 64-bit arithmetic (dynac__chain_ring); when x is an exact int below
 * 2**127 or an exact float and every step is one dynac__chain_step takes,
 * in C with only the result made (scheduler's LCG step and its float: two
 * ints and a float it dropped at once); else step by step. A new
 * reference, or NULL with the step's exception. The operands are number
 * literals (generator/emit/expr.c: number_chain), read as C values once
 * into the site's `c`: nothing runs between the steps in either order.
 * Inline with its steps at each site: the site's `ops` are constants, so
 * the loops over them unroll and each step's switch folds away. */
DYNAC_HOT_INLINE PyObject *dynac_obj_num_chain(PyObject *x, int n, const int *ops, PyObject *const *ys,
                                            dynac_chain_ys *c, int *effects) {
  if (DYNAC_UNLIKELY(!c->ready)) dynac__chain_ys_read(c, n, ops, ys);
  uint64_t low;
  if (c->ring_mask && dynac_compat_int_low64(x, &low)) return dynac__chain_ring(c, n, ops, low);
  __int128 v = 0;
  int is_int = dynac_compat_int128_of(x, &v), i = 0;
  double d = !is_int && PyFloat_CheckExact(x) ? PyFloat_AS_DOUBLE(x) : 0.0;
  if ((is_int || PyFloat_CheckExact(x)) && n <= DYNAC_CHAIN_MAX)
    while (i < n && dynac__chain_step(&is_int, &v, &d, ops[i], c, i)) i++;
  if (i == n) return is_int ? dynac_compat_int_from128(v) : PyFloat_FromDouble(d);
  PyObject *cur = Py_NewRef(x);
  for (i = 0; i < n && cur; i++) {
    PyObject *next = dynac_obj_binop(cur, ys[i], ops[i], effects);
    Py_DECREF(cur);
    cur = next;
  }
  return cur;
}
/* math.f(x) for f the math module's own function of one real argument
 * (fn: the kernel's guard checked it) of an object x, as a C double (math_1
 * and m_log return an exact float or raise): where x is an exact finite
 * float whose result `c_fn`(x) is finite, that result, which is CPython's
 * (they return libm's value then, raising only for a NaN or an infinity
 * made from a finite argument); else fn's own call, its float unboxed. 0
 * with *out, or -1 with CPython's exception; *effects set when fn was
 * called (x's __float__ or __index__ may have run Python code). */
static inline int dynac_math_float_of_object(double (*c_fn)(double), PyObject *fn, PyObject *x, double *out,
                                             int *effects) {
  if (PyFloat_CheckExact(x)) {
    double v = PyFloat_AS_DOUBLE(x), r = c_fn(v); /* (inlined: c_fn is a constant at each site) */
    if (isfinite(v) && isfinite(r)) return *out = r, 0;
  }
  dynac_python_may_run(effects);
  PyObject *r = PyObject_Vectorcall(fn, &x, 1, NULL);
  if (!r) return -1;
  *out = PyFloat_AsDouble(r); /* an exact float: no error */
  Py_DECREF(r);
  return 0;
}
/* -o, +o, ~o for the generator's unop numbering (- + ~). */
static inline PyObject *dynac_obj_unary(PyObject *o, int op, int *effects) {
  dynac__obj_effect(o, NULL, effects);
  return op == 0 ? PyNumber_Negative(o) : op == 1 ? PyNumber_Positive(o) : PyNumber_Invert(o);
}
/* bool(o): 1, 0, or -1 with CPython's exception. */
static inline int dynac_obj_truth(PyObject *o, int *effects) {
  if (o == Py_True) return 1;
  if (o == Py_False || o == Py_None) return 0;
  if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) return Py_SIZE(o) != 0; /* `while queue:`: list_length's answer */
  dynac__obj_effect(o, NULL, effects);
  return PyObject_IsTrue(o);
}
/* len(o) as a new int (NULL with CPython's exception). */
static inline PyObject *dynac_obj_len_boxed(PyObject *o) {
  Py_ssize_t n = PyObject_Length(o);
  return n < 0 ? NULL : PyLong_FromSsize_t(n);
}
/* o[key] (new reference; NULL with CPython's exception). A list or tuple
 * indexed by an int runs no Python code. */
static inline PyObject *dynac_obj_getitem(PyObject *o, PyObject *key, int *effects) {
  long i;
  if ((PyList_CheckExact(o) || PyTuple_CheckExact(o)) && dynac_compat_small_int(key, &i)) {
    Py_ssize_t n = Py_SIZE(o), k = i < 0 ? i + n : i; /* list_subscript's and tuplesubscript's index */
    if (k >= 0 && k < n) return Py_NewRef(PyList_CheckExact(o) ? PyList_GET_ITEM(o, k) : PyTuple_GET_ITEM(o, k));
  }
  if (!((PyList_CheckExact(o) || PyTuple_CheckExact(o)) && PyLong_CheckExact(key))) dynac_python_may_run(effects);
  return PyObject_GetItem(o, key); /* (an IndexError too) */
}
/* len(o): PyObject_Length, -1 with CPython's exception. A list, tuple,
 * dict, set, str, bytes or range answers without running Python code. */
static inline Py_ssize_t dynac_obj_len(PyObject *o, int *effects) {
  if (!(PyList_CheckExact(o) || PyTuple_CheckExact(o) || PyDict_CheckExact(o) ||
        PyAnySet_CheckExact(o) || PyUnicode_CheckExact(o) || PyBytes_CheckExact(o) ||
        PyRange_Check(o)))
    dynac_python_may_run(effects);
  return PyObject_Length(o);
}
/* *slot = v (v a new reference, NULL after a failed box: returns -1); the
 * old value is released, as the interpreter's STORE_FAST does. */
static inline int dynac_obj_set(PyObject **slot, PyObject *v) {
  if (!v) return -1;
  Py_XSETREF(*slot, v);
  return 0;
}
/* An element read as an object: always one (a new reference in *out). */
static inline int dynac_elem_obj(PyObject *o, PyObject **out) {
  *out = Py_NewRef(o);
  return 0;
}
/* An object field of a tuple value: borrowed, as every field of a kernel's
 * tuple struct is (the tuple object, or a display's own temporary, holds
 * it for as long as the struct is used). */
static inline int dynac_elem_obj_borrowed(PyObject *o, PyObject **out) {
  *out = o;
  return 0;
}

/* ---- attributes, stores and in-place operators of objects ----------------
 * Each is the call the interpreter makes for the same bytecode (LOAD_ATTR,
 * STORE_ATTR, STORE_SUBSCR, BINARY_OP with an in-place oparg), so results,
 * exceptions and side effects are CPython's. Each may run Python code (a
 * property, __getattr__, __setattr__, __setitem__, __iadd__): an effect. */

/* May o.name run Python code? Not when the class's lookup is object's own
 * (PyObject_GenericGetAttr: no __getattribute__ or __getattr__ of the
 * class's) and what the class's MRO holds under `name`, if anything, is no
 * descriptor or one whose __get__ is CPython's C (a function, a slot or
 * method descriptor, a __slots__ member, a staticmethod or classmethod):
 * then the read is the instance dict's or the class's value, or
 * AttributeError. (An instance __dict__ given keys of a Python class whose
 * __eq__ meets the name's hash is not looked for.) */
static inline int dynac_getattr_may_run_python(PyObject *o, PyObject *name) {
  PyTypeObject *tp = Py_TYPE(o);
  if (tp->tp_getattro != PyObject_GenericGetAttr || !PyUnicode_CheckExact(name)) return 1;
  PyObject *d = _PyType_Lookup(tp, name); /* borrowed */
  if (!d) return 0;
  PyTypeObject *dt = Py_TYPE(d);
  return dt->tp_descr_get && dt != &PyFunction_Type && dt != &PyMethodDescr_Type && dt != &PyWrapperDescr_Type &&
         dt != &PyMemberDescr_Type && dt != &PyStaticMethod_Type && dt != &PyClassMethod_Type;
}

/* o.name: a new reference, NULL with CPython's AttributeError (or what a
 * descriptor raised). `name`: an interned str (borrowed). *effects set
 * when Python code may run (dynac_python_may_run). */
static inline PyObject *dynac_obj_getattr(PyObject *o, PyObject *name, int *effects) {
  if (*effects || dynac_getattr_may_run_python(o, name)) dynac_python_may_run(effects);
  return PyObject_GetAttr(o, name);
}
/* ---- attributes at fixed places ---------------------------------------------
 * A read or write site's cache of where an attribute lives, as CPython
 * 3.11's specialised LOAD_ATTR / STORE_ATTR / LOAD_METHOD keep it in the
 * bytecode, but polymorphic: one way per class the site met (up to
 * DYNAC_ATTR_WAYS; a site reading `self.time` of three Event subclasses
 * keeps the three), as PyPy's and V8's polymorphic inline caches do. A way
 * is valid while its class's version tag is `version` (any change to the
 * class or a base gives it a new tag; 0: empty). Way 0 (the last filled) is
 * tried inline; a class leaving way 0 goes to its home way, 1 + its tag
 * modulo the other ways' number, four (CPython gives classes made one after the
 * other consecutive tags: a module's subclasses get different homes), which
 * a miss of way 0 tries by one small call with one compare. A hit reads or writes the
 * place directly (no Python code runs); anything else (a materialised
 * __dict__, a missing attribute, a property, a class with __getattr__ or
 * __setattr__) goes through the C API, and fills way 0 where it found a
 * fixed place. */
#define DYNAC_ATTR_WAYS 5 /* way 0 and four homes: a tag's home is a mask, not a division */
typedef char dynac__attr_homes_are_a_power_of_two[((DYNAC_ATTR_WAYS - 1) & (DYNAC_ATTR_WAYS - 2)) ? -1 : 1];
enum {
  DYNAC_ATTR_INLINE,    /* an instance's inline value; where: its index (compat part) */
  DYNAC_ATTR_SLOT,      /* a __slots__ member; where: its offset */
  DYNAC_ATTR_FIELD,     /* a namedtuple field; where: its item index */
  DYNAC_ATTR_MODULE,    /* a module's global (LOAD_ATTR_MODULE): value, while its dict is at dict_version */
  DYNAC_ATTR_METHOD,    /* a function of the class (LOAD_METHOD_WITH_VALUES / _NO_DICT), method sites
                           only: value; where: 1 when instances may have a __dict__ shadowing it */
  DYNAC_ATTR_CLASS      /* a value of the class with no __get__ (a class constant read through an
                           instance, as 3.12's LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES): value; where as
                           METHOD's (shadowing tested by name, keys/nkeys its memo) */
};
typedef struct dynac_attr_way {
  uint64_t key;         /* version and slot in one word (DYNAC__ATTR_KEY): a read's one compare */
  unsigned int version; /* the class's version tag; 0: empty */
  int slot;             /* DYNAC_ATTR_* */
  Py_ssize_t where;
  uint64_t dict_version; /* DYNAC_ATTR_MODULE: dict versions are unique to one dict's one state (PEP 509) */
  PyObject *value;       /* MODULE, METHOD, CLASS: borrowed (the module's dict or the class holds it
                            while valid) */
  PyObject *name;        /* CLASS: the attribute's name (the module's interned one) */
  void *keys;            /* CLASS: dynac_compat_instance_has's memo of the class's shared keys */
  Py_ssize_t nkeys;
} dynac_attr_way;
typedef struct dynac_attr_cache {
  dynac_attr_way w[DYNAC_ATTR_WAYS];
  void *keys;           /* method sites: dynac_compat_instance_has's memo of the class's shared keys */
  Py_ssize_t nkeys;
} dynac_attr_cache;

/* The item index of a namedtuple field's descriptor (collections'
 * _tuplegetter, whose struct is private: its __reduce__ gives (type,
 * (index, doc)), C code only). 1 with *index, or 0. */
static inline int dynac__tuplegetter_index(PyObject *descr, Py_ssize_t *index) {
  if (strcmp(Py_TYPE(descr)->tp_name, "_collections._tuplegetter")) return 0;
  PyObject *r = PyObject_CallMethod(descr, "__reduce__", NULL);
  if (!r) { PyErr_Clear(); return 0; }
  PyObject *args = PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2 ? PyTuple_GET_ITEM(r, 1) : NULL;
  int ok = args && PyTuple_Check(args) && PyTuple_GET_SIZE(args) >= 1 && PyLong_CheckExact(PyTuple_GET_ITEM(args, 0));
  if (ok) *index = PyLong_AsSsize_t(PyTuple_GET_ITEM(args, 0));
  if (ok && *index < 0) { PyErr_Clear(); ok = 0; }
  Py_DECREF(r);
  return ok;
}

/* o.name of a module, if it is a global of the module's own (not a
 * ModuleType attribute such as __dict__, not __getattr__'s): borrowed, or NULL. */
static inline PyObject *dynac__module_global(PyObject *o, PyObject *name) {
  if (!PyModule_CheckExact(o) || _PyType_Lookup(Py_TYPE(o), name)) return NULL;
  PyObject *v = PyDict_GetItemWithError(dynac_compat_module_dict(o), name);
  if (!v) PyErr_Clear();
  return v;
}

/* Where o.name lives, as a way for o's class (its lookup also gives the
 * class a version tag): setting is 1 for a write site, 2 for one of
 * object.__setattr__ (DYNAC_STORE_GENERIC: the class's tp_setattro is not
 * asked). 1 with *w, or 0 when the attribute has no fixed place. */
static inline int dynac__attr_way_of(PyObject *o, PyObject *name, int setting, dynac_attr_way *w) {
  PyTypeObject *tp = Py_TYPE(o);
  if (!PyUnicode_CheckExact(name)) return 0;
  if (!setting && PyModule_CheckExact(o)) {
    PyObject *v = dynac__module_global(o, name);
    if (!v || !(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
    w->slot = DYNAC_ATTR_MODULE;
    w->value = v;
    w->dict_version = DYNAC_DICT_VERSION(dynac_compat_module_dict(o));
  } else {
    if (setting == 1 ? tp->tp_setattro != PyObject_GenericSetAttr /* (2: object.__setattr__'s store) */
                     : !setting && tp->tp_getattro != PyObject_GenericGetAttr)
      return 0;
    PyObject *descr = _PyType_Lookup(tp, name); /* borrowed */
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
    Py_ssize_t i = !descr || !PyDescr_IsData(descr) ? dynac_compat_instance_value_index(tp, name) : -1;
    if (i >= 0) { /* the instance's own value (it shadows a class default: a dataclass field's) */
      w->slot = DYNAC_ATTR_INLINE;
      w->where = i;
    } else if (!descr) {
      return 0;
    } else if (Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
      PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
      if (m->type != T_OBJECT_EX || (m->flags & (READONLY | PY_AUDIT_READ))) return 0;
      w->slot = DYNAC_ATTR_SLOT;
      w->where = m->offset;
    } else if (!setting && PyTuple_Check(o) && dynac__tuplegetter_index(descr, &w->where)) {
      w->slot = DYNAC_ATTR_FIELD; /* read as its item, as the descriptor's __get__ reads it */
    } else if (!setting && !Py_TYPE(descr)->tp_descr_get) { /* the value itself unless the instance has one */
      w->slot = DYNAC_ATTR_CLASS;
      w->value = descr;
      w->name = name;
      w->where = (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) || tp->tp_dictoffset;
    } else {
      return 0; /* a property, a method: the C API */
    }
  }
  w->version = tp->tp_version_tag;
  return 1;
}
/* A way's key: its class's version tag and its kind, never 0 (an empty
 * way's), so that an instance of a class with no tag (0) matches no way. */
#define DYNAC__ATTR_KEY(version, slot) (((uint64_t)(version) << 8) | (uint64_t)((slot) + 1))
/* The way a class of version tag v takes when it leaves way 0. */
static inline int dynac__attr_way_home(unsigned int v) { return 1 + (int)(v & (DYNAC_ATTR_WAYS - 2)); }
/* Makes w way 0 of c, way 0's class moving to its home (whose class is dropped). */
static inline void dynac__attr_way_add(dynac_attr_cache *c, const dynac_attr_way *w) {
  if (c->w[0].version) c->w[dynac__attr_way_home(c->w[0].version)] = c->w[0];
  c->w[0] = *w;
  c->w[0].key = DYNAC__ATTR_KEY(w->version, w->slot);
}
/* Fills way 0 of c for o.name when it has a fixed place (the ways met
 * before are kept otherwise). 1 when it did, else 0. */
DYNAC_WARM int dynac__attr_cache_fill(dynac_attr_cache *c, PyObject *o, PyObject *name, int setting) {
  dynac_attr_way w;
  memset(&w, 0, sizeof w);
  if (!dynac__attr_way_of(o, name, setting, &w)) return 0;
  dynac__attr_way_add(c, &w);
  return 1;
}

/* A class constant's place (DYNAC_ATTR_CLASS), or NULL where the instance
 * has its own value (_PyObject_GenericGetAttrWithDict's order). */
DYNAC_COLD PyObject **dynac__attr_class_place(dynac_attr_way *w, PyObject *o) {
  return w->where && dynac_compat_instance_has(o, w->name, &w->keys, &w->nkeys) ? NULL : &w->value;
}
/* The place o.name lives at per way w, or NULL (w missed, or no such
 * place): __slots__ members and inline values tested first (one compare
 * each), the rarer kinds out of line. */
DYNAC_COLD PyObject **dynac__attr_way_place_rare(dynac_attr_way *w, PyObject *o) {
  switch (w->slot) {
  case DYNAC_ATTR_FIELD: return w->where < PyTuple_GET_SIZE(o) ? &((PyTupleObject *)o)->ob_item[w->where] : NULL;
  case DYNAC_ATTR_MODULE:
    return DYNAC_DICT_VERSION(dynac_compat_module_dict(o)) == w->dict_version ? &w->value : NULL;
  case DYNAC_ATTR_CLASS: return dynac__attr_class_place(w, o);
  default: return NULL; /* DYNAC_ATTR_METHOD: dynac_get_method_cached's */
  }
}
DYNAC_HOT_INLINE PyObject **dynac__attr_way_hit_place(dynac_attr_way *w, PyObject *o) { /* w is o's class's */
  if (DYNAC_LIKELY(w->slot == DYNAC_ATTR_SLOT)) return (PyObject **)((char *)o + w->where);
  if (DYNAC_LIKELY(w->slot == DYNAC_ATTR_INLINE)) return dynac_compat_instance_value_slot(o, w->where);
  return dynac__attr_way_place_rare(w, o);
}
static inline PyObject **dynac__attr_way_place(dynac_attr_way *w, PyObject *o) {
  if (!w->version || Py_TYPE(o)->tp_version_tag != w->version) return NULL;
  return dynac__attr_way_hit_place(w, o);
}
/* The way of class version tag v past way 0 (its home), or NULL: one
 * compare (a site whose classes alternate, a heap's events of several
 * subclasses, finds each class's place without the C API). */
DYNAC_COLD dynac_attr_way *dynac__attr_way_other(dynac_attr_cache *c, unsigned int v) {
  dynac_attr_way *w = &c->w[dynac__attr_way_home(v)];
  return v && w->version == v ? w : NULL; /* 0: an empty way, a class with no tag */
}
/* The way of o's class, or NULL: way 0 inline, the others out of line. */
DYNAC_HOT_INLINE dynac_attr_way *dynac__attr_way_for(dynac_attr_cache *c, PyObject *o) {
  unsigned int v = Py_TYPE(o)->tp_version_tag;
  if (DYNAC_LIKELY(c->w[0].version == v && v)) return &c->w[0];
  return dynac__attr_way_other(c, v);
}
/* dynac__attr_place past way 0's __slots__ member or inline value: the
 * class's home way (one compare: the classes of a heap's events alternate
 * at a site), then way 0 of another kind. */
DYNAC_COLD PyObject **dynac__attr_place_other(dynac_attr_cache *c, PyObject *o) {
  unsigned int v = Py_TYPE(o)->tp_version_tag;
  uint64_t tag = (uint64_t)v << 8;
  dynac_attr_way *w = &c->w[dynac__attr_way_home(v)];
  uint64_t kind = w->key ^ tag; /* slot + 1 when the tags match (an empty way's key is 0) */
  if (kind == DYNAC_ATTR_SLOT + 1) return (PyObject **)((char *)o + w->where);
  if (kind && kind <= 0xff) return dynac__attr_way_hit_place(w, o);
  uint64_t kind0 = c->w[0].key ^ tag; /* way 0 of a rarer kind (a namedtuple field, a module's global) */
  return kind0 && kind0 <= 0xff ? dynac__attr_way_place_rare(&c->w[0], o) : NULL;
}
/* The place o.name lives at per the ways, or NULL. Way 0 as a __slots__
 * member or an inline value is one compare of its key (as CPython 3.11's
 * LOAD_ATTR_SLOT and LOAD_ATTR_INSTANCE_VALUE test the type's version),
 * the rest out of line. */
DYNAC_HOT_INLINE PyObject **dynac__attr_place(dynac_attr_cache *c, PyObject *o) {
  uint64_t kind = c->w[0].key ^ ((uint64_t)Py_TYPE(o)->tp_version_tag << 8); /* its slot + 1 when the tags match */
  if (DYNAC_LIKELY(kind == DYNAC_ATTR_SLOT + 1)) return (PyObject **)((char *)o + c->w[0].where);
  if (DYNAC_LIKELY(kind == DYNAC_ATTR_INLINE + 1)) return dynac_compat_instance_value_slot(o, c->w[0].where);
  return dynac__attr_place_other(c, o);
}
/* o.name through the C API, after every way of the site's cache c missed
 * (dynac__attr_place), filling way 0 where it found a fixed place: a new
 * reference, or NULL with CPython's exception; *effects set when Python
 * code may have run. */
DYNAC_COLD PyObject *dynac__obj_getattr_slow(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects) {
  PyObject *v = dynac_obj_getattr(o, name, effects);
  if (v) dynac__attr_cache_fill(c, o, name, 0);
  return v;
}
DYNAC_HOT_INLINE PyObject *dynac_obj_getattr_cached(PyObject *o, PyObject *name, dynac_attr_cache *c,
                                                   int *effects) {
  PyObject **place = dynac__attr_place(c, o);
  if (DYNAC_LIKELY(place && *place)) return Py_NewRef(*place);
  return dynac__obj_getattr_slow(o, name, c, effects);
}

/* What way w of c gives for o.name(...): 1 (*meth: the class's function,
 * a new reference), 0 (*meth: the callable itself), or -1: a miss. */
static inline int dynac__method_way(dynac_attr_cache *c, dynac_attr_way *w, PyObject *o, PyObject *name,
                                    PyObject **meth) {
  if (!w->version || Py_TYPE(o)->tp_version_tag != w->version) return -1;
  if (w->slot == DYNAC_ATTR_METHOD) {
    if (w->where && dynac_compat_instance_has(o, name, &c->keys, &c->nkeys)) return -1;
    *meth = Py_NewRef(w->value);
    return 1;
  }
  PyObject **place = dynac__attr_way_place(w, o);
  if (!place || !*place) return -1;
  *meth = Py_NewRef(*place);
  return 0;
}
DYNAC_COLD int dynac__get_method_slow(PyObject *o, PyObject *name, dynac_attr_cache *c, PyObject **meth,
                                      int *effects) {
  /* the class's home way: moving a hit to way 0 would write the cache at every call of alternating classes */
  int r = dynac__method_way(c, &c->w[dynac__attr_way_home(Py_TYPE(o)->tp_version_tag)], o, name, meth);
  if (r >= 0) return r;
  PyTypeObject *tp = Py_TYPE(o);
  int unbound = dynac_compat_get_method(o, name, meth);
  if (!*meth) { dynac_python_may_run(effects); return 0; }
  if (unbound) { /* a function of the class, none in the instance's __dict__: no Python code ran */
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || _PyType_Lookup(tp, name) != *meth) return 1;
    dynac_attr_way w;
    memset(&w, 0, sizeof w);
    w.version = tp->tp_version_tag;
    w.slot = DYNAC_ATTR_METHOD;
    w.where = (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) || tp->tp_dictoffset; /* may be shadowed */
    w.value = *meth;
    dynac__attr_way_add(c, &w);
    return 1;
  }
  if (!dynac__attr_cache_fill(c, o, name, 0))
    dynac_python_may_run(effects); /* no fixed place: a property's or __getattr__'s answer, maybe */
  return 0;
}
/* o.name(...)'s callable as LOAD_METHOD finds it, through the site's cache
 * c (a way per class: DYNAC_ATTR_METHOD for a function of the class that
 * no instance __dict__ shadows, DYNAC_ATTR_MODULE for a module's function,
 * or the instance's own attribute), as CPython 3.11's LOAD_METHOD_NO_DICT,
 * _WITH_VALUES and _MODULE. *meth: a new reference, or NULL with CPython's
 * exception. Returns 1 when *meth is the class's function, to be called
 * with o first; 0 when it is the callable itself. *effects is set when the
 * lookup may have run Python code (a property, __getattr__). */
DYNAC_HOT_INLINE int dynac_get_method_cached(PyObject *o, PyObject *name, dynac_attr_cache *c, PyObject **meth,
                                             int *effects) {
  int r = dynac__method_way(c, &c->w[0], o, name, meth);
  if (DYNAC_LIKELY(r >= 0)) return r;
  return dynac__get_method_slow(o, name, c, meth, effects);
}

/* ---- instances of the module's classes (generator/classes.c) -------------
 * o.name of an instance whose class's recorded attribute type is float, int
 * (within int64: dynac record names a bigger one an object) or bool, or
 * another module class: read through the site's cache c, then checked.
 * 0 with the value in *out; 1 when the value is of another type (the kernel
 * deoptimises; nothing was changed); -1 with CPython's exception. */
/* The slow paths below (a cache miss: the C API, then a refill) stay out of
 * line, so that each read site inlines only the fast path. */
DYNAC_COLD int dynac__attr_float_slow(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, double *out) {
  PyObject *v = dynac__obj_getattr_slow(o, name, c, effects);
  if (!v) return -1;
  int other = !PyFloat_CheckExact(v);
  if (!other) *out = PyFloat_AS_DOUBLE(v);
  Py_DECREF(v);
  return other;
}
DYNAC_HOT_INLINE int dynac_attr_float(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, double *out) {
  PyObject **place = dynac__attr_place(c, o);
  if (DYNAC_LIKELY(place && *place)) { /* borrowed: no Python code runs between */
    if (!PyFloat_CheckExact(*place)) return 1;
    *out = PyFloat_AS_DOUBLE(*place);
    return 0;
  }
  double got = 0; /* out's address (a kernel's local) never escapes: GCC keeps it in a register */
  int st = dynac__attr_float_slow(o, name, c, effects, &got);
  *out = got;
  return st;
}
DYNAC_COLD int dynac__attr_int_slow(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, int64_t *out) {
  PyObject *v = dynac__obj_getattr_slow(o, name, c, effects);
  if (!v) return -1;
  int other = !PyLong_CheckExact(v) || !dynac_int64_of(v, out); /* a big int: deoptimise */
  Py_DECREF(v);
  return other;
}
DYNAC_HOT_INLINE int dynac_attr_int(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, int64_t *out) {
  PyObject **place = dynac__attr_place(c, o);
  if (DYNAC_LIKELY(place && *place)) /* borrowed, as dynac_attr_float's; a big int: deoptimise */
    return !PyLong_CheckExact(*place) || !dynac_int64_of(*place, out);
  int64_t got = 0; /* as dynac_attr_float's */
  int st = dynac__attr_int_slow(o, name, c, effects, &got);
  *out = got;
  return st;
}
/* dynac_attr_int / _float for a read whose value the kernel boxes again
 * (an argument, a display's item: emit/values.c kept_attr_box): the same,
 * and on success a new reference to the object read in *obj, which
 * dynac_box_int_kept / _float_kept give back while it holds the value. */
DYNAC_HOT_INLINE int dynac_attr_int_kept(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects,
                                         int64_t *out, PyObject **obj) {
  PyObject **place = dynac__attr_place(c, o);
  PyObject *v = DYNAC_LIKELY(place && *place) ? Py_NewRef(*place) : dynac__obj_getattr_slow(o, name, c, effects);
  if (!v) return -1;
  int64_t got = 0; /* as dynac_attr_float's */
  if (!PyLong_CheckExact(v) || !dynac_int64_of(v, &got)) { Py_DECREF(v); return 1; } /* a big int: deoptimise */
  *out = got;
  *obj = v;
  return 0;
}
DYNAC_HOT_INLINE int dynac_attr_float_kept(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects,
                                           double *out, PyObject **obj) {
  PyObject **place = dynac__attr_place(c, o);
  PyObject *v = DYNAC_LIKELY(place && *place) ? Py_NewRef(*place) : dynac__obj_getattr_slow(o, name, c, effects);
  if (!v) return -1;
  if (!PyFloat_CheckExact(v)) { Py_DECREF(v); return 1; }
  *out = PyFloat_AS_DOUBLE(v);
  *obj = v;
  return 0;
}
static inline int dynac_attr_bool(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, bool *out) {
  PyObject *v = dynac_obj_getattr_cached(o, name, c, effects);
  if (!v) return -1;
  int other = !PyBool_Check(v);
  *out = v == Py_True;
  Py_DECREF(v);
  return other;
}
/* The same for an attribute holding an instance of exactly class `cls`
 * (borrowed): a new reference in *out. */
static inline int dynac_attr_instance(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects,
                                      PyObject *cls, PyObject **out) {
  PyObject *v = dynac_obj_getattr_cached(o, name, c, effects);
  if (!v) return -1;
  if ((PyObject *)Py_TYPE(v) != cls) { Py_DECREF(v); return 1; }
  *out = v;
  return 0;
}
/* The same for an attribute recorded as a list (System.bodies): exactly a
 * list, a new reference in *out (the kernel checks its elements per read). */
static inline int dynac_attr_list(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, PyObject **out) {
  PyObject *v = dynac_obj_getattr_cached(o, name, c, effects);
  if (!v) return -1;
  if (!PyList_CheckExact(v)) { Py_DECREF(v); return 1; }
  *out = v;
  return 0;
}

/* ---- layouts: one class check for a run of reads (generator/emit/layouts.c)
 * A run of statements that can run no Python code reads several attributes
 * of one instance (`dx = a.x - b.x; dy = a.y - b.y`). One check of its
 * class's version tag (dynac_layout_hit) serves every read of the run, each
 * then only its place: nothing can change the class or the instance's
 * class before the run ends, or before a read leaves the layout for its
 * site's cache. The idea is PyPy's: a trace guards an object's class once
 * (guard_class) for all its fields; CPython 3.11 tests the version tag at
 * each LOAD_ATTR_SLOT / LOAD_ATTR_INSTANCE_VALUE. */
enum { DYNAC_LAYOUT_NAMES = 8 };
typedef struct dynac_layout {
  unsigned int version; /* the tp_version_tag of the class `where` is for; 0: none yet */
  unsigned int refused; /* a version tag whose class keeps a name elsewhere (a property, a class value) */
  int slot;             /* DYNAC_ATTR_SLOT (where: byte offsets) or DYNAC_ATTR_INLINE (indexes) */
  int settable;         /* stores go to those places too (the class's tp_setattro is CPython's generic one) */
  Py_ssize_t where[DYNAC_LAYOUT_NAMES];
} dynac_layout;

/* Fills l with the places of names[ix[0..n-1]] (interned str, borrowed) in
 * instances of o's class: all __slots__ members, or all inline values
 * (dynac__attr_way_of's lookup: no Python code runs); else marks the
 * class's version refused. */
DYNAC_COLD void dynac__layout_fill(dynac_layout *l, PyObject *o, PyObject *const *names, const int *ix, int n) {
  unsigned int v = Py_TYPE(o)->tp_version_tag;
  dynac_layout f;
  memset(&f, 0, sizeof f);
  for (int i = 0; i < n && i < DYNAC_LAYOUT_NAMES; i++) {
    dynac_attr_way w;
    memset(&w, 0, sizeof w);
    if (!dynac__attr_way_of(o, names[ix[i]], 0, &w) || w.version != v ||
        (w.slot != DYNAC_ATTR_SLOT && w.slot != DYNAC_ATTR_INLINE) || (i && w.slot != f.slot)) {
      l->refused = v;
      return;
    }
    f.slot = w.slot;
    f.where[i] = w.where;
  }
  f.version = v;
  f.settable = Py_TYPE(o)->tp_setattro == PyObject_GenericSetAttr;
  *l = f;
}
/* 1 when l holds the places of o's class (one compare of its version tag):
 * the run's reads of o may take them (dynac_layout_float, _int, _bool).
 * Else 0, l filled for the next call: the reads go through their sites'
 * caches. */
DYNAC_HOT_INLINE int dynac_layout_hit(dynac_layout *l, PyObject *o, PyObject *const *names, const int *ix, int n) {
  unsigned int v = Py_TYPE(o)->tp_version_tag;
  if (DYNAC_LIKELY(v == l->version && v)) return 1;
  if (v && v != l->refused) dynac__layout_fill(l, o, names, ix, n);
  return 0;
}
/* The place of name i of l in o, or NULL (an instance whose dict was made). */
DYNAC_HOT_INLINE PyObject **dynac__layout_place(const dynac_layout *l, PyObject *o, int i) {
  if (DYNAC_LIKELY(l->slot == DYNAC_ATTR_SLOT)) return (PyObject **)((char *)o + l->where[i]);
  return dynac_compat_instance_value_slot(o, l->where[i]);
}
/* Name i of o, whose class dynac_layout_hit found l holds, as a float, an
 * int (within int64) or a bool: 0 with the value in *out; 1 when it is of
 * another type (the kernel deoptimises, nothing changed); 2 when o has no
 * value there (its site's cache reads it: CPython's AttributeError, a class
 * default, __getattr__). Borrowed reads: no Python code runs. */
DYNAC_HOT_INLINE int dynac_layout_float(const dynac_layout *l, PyObject *o, int i, double *out) {
  PyObject **p = dynac__layout_place(l, o, i);
  if (DYNAC_UNLIKELY(!p || !*p)) return 2;
  if (!PyFloat_CheckExact(*p)) return 1;
  *out = PyFloat_AS_DOUBLE(*p);
  return 0;
}
DYNAC_HOT_INLINE int dynac_layout_int(const dynac_layout *l, PyObject *o, int i, int64_t *out) {
  PyObject **p = dynac__layout_place(l, o, i);
  if (DYNAC_UNLIKELY(!p || !*p)) return 2;
  return !PyLong_CheckExact(*p) || !dynac_int64_of(*p, out); /* a big int: deoptimise */
}
/* o.name_i = v into the float there, when it is an exact float nothing
 * else holds (no one could tell it from a new one), as
 * dynac_obj_setattr_float_cached's fast path: 1 (*effects: a visible
 * write). 0 when it is not (the site's cache stores a new float), or when
 * o's class stores through a __setattr__ of its own. */
DYNAC_HOT_INLINE int dynac_layout_store_float(const dynac_layout *l, PyObject *o, int i, double v, int *effects) {
  PyObject **p = dynac__layout_place(l, o, i);
  if (DYNAC_UNLIKELY(!l->settable || !p || !*p || !PyFloat_CheckExact(*p) || Py_REFCNT(*p) != 1)) return 0;
  *effects = 1;
  ((PyFloatObject *)*p)->ob_fval = v;
  return 1;
}
DYNAC_HOT_INLINE int dynac_layout_bool(const dynac_layout *l, PyObject *o, int i, bool *out) {
  PyObject **p = dynac__layout_place(l, o, i);
  if (DYNAC_UNLIKELY(!p || !*p)) return 2;
  *out = *p == Py_True;
  return !PyBool_Check(*p);
}

/* Stores v (borrowed) at o's place per way w (an inline value set for the
 * first time joins the instance's order at w's index). */
static inline void dynac__attr_store(const dynac_attr_way *w, PyObject *o, PyObject **place, PyObject *v) {
  PyObject *old = *place;
  *place = Py_NewRef(v);
  if (old) Py_DECREF(old);
  else if (w->slot == DYNAC_ATTR_INLINE) dynac_compat_instance_value_added(o, w->where);
}
/* Whose attribute a store writes: the kernel's own first parameter's
 * (self), where a first store (no old value: `self.x = x` in __init__) is
 * an effect only for the caller that passed the instance (*effects |= 2:
 * one that has just made it sees none), or any other object's. Either may
 * add DYNAC_STORE_GENERIC: the store is object.__setattr__(o, name, v),
 * which the class's own __setattr__ never sees (a frozen dataclass's
 * __init__: dataclasses' _field_assign writes it so). */
#define DYNAC_STORE_SELF 1
#define DYNAC_STORE_OTHER 0
#define DYNAC_STORE_GENERIC 4
/* object.__setattr__ (borrowed: object's dict keeps it), NULL with an exception. */
static inline PyObject *dynac__object_setattr(void) {
  static PyObject *fn;
  if (!fn) fn = PyDict_GetItemString(PyBaseObject_Type.tp_dict, "__setattr__");
  if (!fn && !PyErr_Occurred()) PyErr_SetString(PyExc_AttributeError, "object.__setattr__");
  return fn;
}
/* o.name = v through the C API, after every way of c missed: as STORE_ATTR
 * stores it, or (generic: DYNAC_STORE_GENERIC) as object.__setattr__ does,
 * its own call (hackcheck's TypeError for a class whose C base sets
 * attributes its own way). */
DYNAC_COLD int dynac__obj_setattr_slow(PyObject *o, PyObject *name, PyObject *v, dynac_attr_cache *c, int generic) {
  if (generic) {
    PyObject *fn = dynac__object_setattr(), *args[3] = {o, name, v};
    PyObject *r = fn ? PyObject_Vectorcall(fn, args, 3, NULL) : NULL;
    if (!r) return -1;
    Py_DECREF(r);
  } else if (PyObject_SetAttr(o, name, v) < 0)
    return -1;
  dynac__attr_cache_fill(c, o, name, generic ? 2 : 1);
  return 0;
}
/* o.name = v through the site's cache c (v borrowed; NULL: a failed box,
 * -1). 0, or -1 with CPython's exception. An inline value set for the
 * first time (`self.x = x` in __init__) joins the instance's insertion
 * order as STORE_ATTR_INSTANCE_VALUE has it join (compat part). `owner`:
 * DYNAC_STORE_SELF or DYNAC_STORE_OTHER. */
DYNAC_HOT_INLINE int dynac_obj_setattr_cached(PyObject *o, PyObject *name, PyObject *v, dynac_attr_cache *c,
                                              int *effects, int owner) {
  if (!v) return -1;
  dynac_attr_way *w = dynac__attr_way_for(c, o);
  PyObject **place = w ? dynac__attr_way_hit_place(w, o) : NULL;
  if (DYNAC_LIKELY(place != NULL)) {
    if ((owner & DYNAC_STORE_SELF) && !*place) *effects |= 2; /* a first store into self */
    else *effects = 1; /* a visible write (and the old value's __del__ may run) */
    dynac__attr_store(w, o, place, v);
    return 0;
  }
  dynac_python_may_run(effects);
  return dynac__obj_setattr_slow(o, name, v, c, owner & DYNAC_STORE_GENERIC);
}
/* o.name = v of a float v through the site's cache c: as
 * dynac_obj_setattr_cached with v boxed, except that an attribute holding
 * a float nothing else references (its reference count 1: the instance's
 * own) takes the new value in place, as CPython 3.12's BINARY_OP_ADD_FLOAT
 * reuses an operand float it holds the only reference to: no code can
 * tell that float from a new one. 0, or -1 with CPython's exception. */
DYNAC_HOT_INLINE int dynac_obj_setattr_float_cached(PyObject *o, PyObject *name, double v, dynac_attr_cache *c,
                                                    int *effects, int owner) {
  PyObject **place = dynac__attr_place(c, o);
  if (DYNAC_LIKELY(place && *place && PyFloat_CheckExact(*place) && Py_REFCNT(*place) == 1)) {
    *effects = 1; /* a visible write */
    ((PyFloatObject *)*place)->ob_fval = v;
    return 0;
  }
  PyObject *b = PyFloat_FromDouble(v);
  int rc = dynac_obj_setattr_cached(o, name, b, c, effects, owner);
  Py_XDECREF(b);
  return rc;
}
/* o.name = x of a kernel's float parameter x (value v): the caller's own
 * object `given` when it passed one (borrowed; an exact float of value v:
 * dynac_box_param_float's args[i]), as CPython's STORE_ATTR stores the
 * frame's object, else as dynac_obj_setattr_float_cached. 0, or -1 with
 * CPython's exception. */
DYNAC_HOT_INLINE int dynac_obj_setattr_param_float_cached(PyObject *o, PyObject *name, double v, PyObject *given,
                                                          dynac_attr_cache *c, int *effects, int owner) {
  if (given) return dynac_obj_setattr_cached(o, name, given, c, effects, owner);
  return dynac_obj_setattr_float_cached(o, name, v, c, effects, owner);
}
/* o[key] = v (key, v borrowed; NULL: a failed box, -1). 0, or -1 with an exception. */
static inline int dynac_obj_setitem(PyObject *o, PyObject *key, PyObject *v, int *effects) {
  if (!key || !v) return -1;
  long i;
  if (PyList_CheckExact(o) && dynac_compat_small_int(key, &i)) {
    Py_ssize_t n = PyList_GET_SIZE(o), k = i < 0 ? i + n : i; /* list_ass_subscript's index */
    if (k >= 0 && k < n) {
      PyObject **item = &((PyListObject *)o)->ob_item[k];
      *effects = 1; /* a write others see */
      if (!dynac_obj_pure(*item, 0)) dynac_python_may_run(effects); /* its release may run a __del__ */
      Py_SETREF(*item, Py_NewRef(v)); /* list_ass_item */
      return 0;
    }
  }
  dynac_python_may_run(effects); /* __setitem__, __index__, the old value's __del__ */
  return PyObject_SetItem(o, key, v); /* (an IndexError too) */
}
/* An object argument of range() as an int64, taken as range() takes it
 * (PyNumber_Index: CPython's TypeError "'float' object cannot be interpreted
 * as an integer"); *effects set when Python code may have run. o borrowed.
 * A stop beyond int64 saturates (is_stop): the range's items are the same
 * for its first 2**63 steps, and one below -2**63 gives the same empty or
 * descending run. 0; -1 with an exception; 1 for a start or step beyond
 * int64 (no exception: the caller deoptimises, and the interpreter's range
 * runs on Python ints). */
static inline int dynac_range_bound(PyObject *o, int64_t *out, int is_stop, int *effects) {
  if (!PyLong_Check(o)) dynac_python_may_run(effects); /* __index__ may run (an int or a subclass's: never) */
  PyObject *i = PyNumber_Index(o);
  if (!i) return -1;
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (overflow && is_stop) v = overflow > 0 ? INT64_MAX : INT64_MIN;
  else if (overflow) return 1;
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = (int64_t)v;
  return 0;
}

/* ---- calls with *args and **kwargs (CALL_FUNCTION_EX) ---------------------
 * The positional arguments are gathered in a list (LIST_EXTEND for each
 * *iterable), the keyword ones in a dict (DICT_MERGE for each **mapping),
 * then PyObject_Call; the errors are the interpreter's, naming the callee
 * as _PyObject_FunctionStr does. All arguments borrowed. */

/* Appends the items of `it` (f(a, *it)) to the call's positional list.
 * lone_func: the callee when *it is the call's only positional argument
 * (CALL_FUNCTION_EX then checks it and words the TypeError after the
 * callee), else NULL (LIST_EXTEND's wording). 0, or -1 with an exception. */
static inline int dynac_call_extend(PyObject *list, PyObject *it, PyObject *lone_func) {
  if (Py_TYPE(it)->tp_iter == NULL && !PySequence_Check(it)) {
    if (!lone_func) {
      PyErr_Format(PyExc_TypeError, "Value after * must be an iterable, not %.200s", Py_TYPE(it)->tp_name);
      return -1;
    }
    PyObject *name = dynac_compat_function_str(lone_func);
    if (name) {
      PyErr_Format(PyExc_TypeError, "%U argument after * must be an iterable, not %.200s", name,
                   Py_TYPE(it)->tp_name);
      Py_DECREF(name);
    }
    return -1;
  }
  return dynac_compat_list_extend(list, it);
}

/* The TypeError "F() got multiple values for keyword argument 'k'". -1. */
static inline int dynac__call_duplicate(PyObject *func, PyObject *key) {
  PyObject *name = dynac_compat_function_str(func);
  if (name) {
    PyErr_Format(PyExc_TypeError, "%U got multiple values for keyword argument '%S'", name, key);
    Py_DECREF(name);
  }
  return -1;
}

/* Are o's hash and format (no spec) C code, no Python code (an exact int,
 * bool, float, complex, str or bytes, or None)? A statement going on in
 * the interpreter hashes and formats the values it kept again. */
static inline int dynac_quiet_value(PyObject *o) {
  return o == Py_None || PyLong_CheckExact(o) || PyBool_Check(o) || PyFloat_CheckExact(o) ||
         PyComplex_CheckExact(o) || PyUnicode_CheckExact(o) || PyBytes_CheckExact(o);
}
/* A new dict of d's items past its first n0 in insertion order (d only
 * grew since it held n0: PyDict_Next visits its items in that order): what
 * f(**m) merged into the call's keyword dict, kept for a continuation. A
 * new reference, or NULL with MemoryError. */
static inline PyObject *dynac_dict_tail(PyObject *d, Py_ssize_t n0) {
  PyObject *r = PyDict_New(), *k, *v;
  Py_ssize_t pos = 0, seen = 0;
  while (r && PyDict_Next(d, &pos, &k, &v))
    if (seen++ >= n0 && PyDict_SetItem(r, k, v) < 0) Py_CLEAR(r);
  return r;
}
/* Merges `mapping` (f(**mapping)) into the call's keyword dict `kw`, with
 * the interpreter's TypeErrors: not a mapping, or a key given twice. 0, or
 * -1 with an exception. */
static inline int dynac_call_merge(PyObject *kw, PyObject *mapping, PyObject *func) {
  if (dynac_compat_dict_merge_call(kw, mapping) == 0) return 0;
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) { /* no keys(): not a mapping */
    PyErr_Clear();
    PyObject *name = dynac_compat_function_str(func);
    if (name) {
      PyErr_Format(PyExc_TypeError, "%U argument after ** must be a mapping, not %.200s", name,
                   Py_TYPE(mapping)->tp_name);
      Py_DECREF(name);
    }
  } else if (PyErr_ExceptionMatches(PyExc_KeyError)) { /* the key given twice, as KeyError's args */
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (value && PyTuple_Check(value) && PyTuple_GET_SIZE(value) == 1) {
      dynac__call_duplicate(func, PyTuple_GET_ITEM(value, 0));
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
    } else {
      PyErr_Restore(type, value, tb);
    }
  }
  return -1;
}

/* Adds keyword `name`=v (a plain keyword after a **mapping: its own
 * DICT_MERGE) to `kw`. 0, or -1 with an exception (a duplicate key). */
static inline int dynac_call_keyword(PyObject *kw, PyObject *name, PyObject *v, PyObject *func) {
  if (!name || !v) return -1;
  int has = PyDict_Contains(kw, name);
  if (has) return has < 0 ? -1 : dynac__call_duplicate(func, name);
  return PyDict_SetItem(kw, name, v);
}

/* ---- calls of an object that may be a class ----------------------------
 * `kind(a, b)`, `type(self)(x, y)`, `cls(*args)`: a class held in a value.
 * CPython's type_call makes an argument tuple, object_new checks it, and
 * slot_tp_init looks up __init__ and calls it through
 * _PyObject_Call_Prepend (typeobject.c, 3.11). For a class whose instances
 * object.__new__ makes and whose __init__ is a Python function (a compiled
 * one's kernel serves it through its vectorcall), the same steps run here
 * without the tuple and the bound call. */

/* The __init__ a call of `f` may run directly: f a class of metatype
 * `type` exactly (no metaclass __call__), made by the heap (a class
 * statement), not abstract, object.__new__ its __new__ (tp_new inherited
 * from object: object_new's argument checks then pass, as tp_init is
 * slot_tp_init), its __init__ (looked up through the MRO, as slot_tp_init
 * does) a Python function. Borrowed, or NULL: call `f` as CPython does. */
static inline PyObject *dynac__plain_init(PyObject *f) {
  static PyObject *name; /* "__init__", interned once (kept) */
  if (Py_TYPE(f) != &PyType_Type) return NULL;
  PyTypeObject *tp = (PyTypeObject *)f;
  if ((tp->tp_flags & (Py_TPFLAGS_HEAPTYPE | Py_TPFLAGS_IS_ABSTRACT)) != Py_TPFLAGS_HEAPTYPE ||
      tp->tp_new != PyBaseObject_Type.tp_new)
    return NULL;
  if (!name && !(name = PyUnicode_InternFromString("__init__"))) {
    PyErr_Clear(); /* the call goes the usual way, which reports a MemoryError itself */
    return NULL;
  }
  PyObject *init = _PyType_Lookup(tp, name); /* borrowed; sets no exception */
  return init && PyFunction_Check(init) ? init : NULL;
}

/* object.__new__(tp) with no arguments (tp's __new__ is object's): a new
 * reference, or NULL with the exception. object_new allocates and then
 * gives the instance its inline values (3.11's _PyObject_InitializeDict,
 * not exported); tp_alloc alone leaves them out, and the first attribute
 * store then makes the instance a __dict__, where no site's attribute
 * cache finds a fixed place: every read would go through the C API. */
static inline PyObject *dynac_object_new(PyTypeObject *tp) {
  /* a class of __slots__ only (no __dict__, no inline values; not abstract):
     object_new's steps come down to tp_alloc (Objects/typeobject.c) */
  if (DYNAC_LIKELY(!tp->tp_dictoffset && !(tp->tp_flags & (Py_TPFLAGS_MANAGED_DICT | Py_TPFLAGS_IS_ABSTRACT)) &&
                   tp->tp_new == PyBaseObject_Type.tp_new))
    return tp->tp_alloc(tp, 0);
  PyObject *noargs = PyTuple_New(0); /* the empty tuple singleton */
  PyObject *o = noargs ? PyBaseObject_Type.tp_new(tp, noargs, NULL) : NULL;
  Py_XDECREF(noargs);
  return o;
}

/* type_call's steps for `tp` and its plain __init__ (dynac__plain_init):
 * the instance from object.__new__ (dynac_object_new), then init(instance, *args,
 * **kw) with the instance in a[0] and the n arguments in a[1..n] (keyword
 * values last, named by kwnames), then slot_tp_init's check that it
 * returned None ("__init__() should return None, not 'int'"). A new
 * reference, or NULL with the exception (the instance released). */
static inline PyObject *dynac__construct(PyTypeObject *tp, PyObject *init, PyObject **a, size_t n,
                                         PyObject *kwnames) {
  if (Py_EnterRecursiveCall(" while calling a Python object")) return NULL; /* as _PyObject_MakeTpCall */
  Py_INCREF(init); /* the allocation (a collection's finalizers) or the call may rebind or delete it */
  PyObject *self = dynac_object_new(tp);
  if (!self) {
    Py_DECREF(init);
    Py_LeaveRecursiveCall();
    return NULL;
  }
  a[0] = self;
  PyObject *r = PyObject_Vectorcall(init, a, n + 1 - (kwnames ? PyTuple_GET_SIZE(kwnames) : 0), kwnames);
  Py_DECREF(init);
  Py_LeaveRecursiveCall();
  if (r == Py_None) {
    Py_DECREF(r);
    return self;
  }
  if (r) {
    PyErr_Format(PyExc_TypeError, "__init__() should return None, not '%.200s'", Py_TYPE(r)->tp_name);
    Py_DECREF(r);
  }
  Py_DECREF(self);
  return NULL;
}

/* A class namedtuple made (typing.NamedTuple's too) whose __new__ is still
 * namedtuple's own (dynac_compat_namedtuple_new), as checked for one version
 * of the class and of that __new__'s namespace: an entry of
 * dynac__namedtuple_made's table. */
typedef struct dynac_namedtuple_seen {
  PyTypeObject *tp;      /* not a reference: the version tag, unique per class state, is compared first */
  unsigned int version;  /* its version tag when checked */
  int ok;                /* 1: namedtuple's __new__ for n fields; 0: not (called as CPython calls it) */
  Py_ssize_t n;
  PyObject *globals;     /* __new__'s namespace (borrowed: its class keeps it while the version holds) */
  uint64_t globals_version;
} dynac_namedtuple_seen;
/* Checks tp for calls of n arguments into the entry of `seen` its version
 * tag picks (the lookup gives a class changed since its new tag). */
DYNAC_COLD dynac_namedtuple_seen *dynac__namedtuple_check(dynac_namedtuple_seen *seen, PyTypeObject *tp,
                                                          Py_ssize_t n) {
  static PyObject *name; /* "__new__", interned once (kept) */
  PyObject *descr = name || (name = PyUnicode_InternFromString("__new__")) ? _PyType_Lookup(tp, name) : NULL;
  dynac_namedtuple_seen *s = &seen[tp->tp_version_tag & 7];
  s->tp = tp, s->version = tp->tp_version_tag, s->n = n, s->ok = 0, s->globals = NULL;
  PyObject *f = descr && Py_IS_TYPE(descr, &PyStaticMethod_Type) ? PyObject_GetAttrString(descr, "__func__") : NULL;
  if (!f) { PyErr_Clear(); return s; }
  PyObject *g = NULL;
  s->ok = s->version && dynac_compat_namedtuple_new(f, n, &g);
  s->globals = g;
  s->globals_version = g ? DYNAC_DICT_VERSION(g) : 0;
  Py_DECREF(f);
  return s;
}
/* tp(*argv) of a tuple subclass: where namedtuple's own __new__ would run,
 * what it runs, `tuple.__new__(tp, (argv...))` (tuple_subtype_new: the same
 * instance), without its Python frame; a new reference. NULL with no
 * exception: call tp as CPython does; NULL with one: that error. The checks
 * are remembered per class (8 entries by version tag). */
static inline PyObject *dynac__namedtuple_made(PyTypeObject *tp, PyObject *const *argv, Py_ssize_t n) {
  static dynac_namedtuple_seen seen[8];
  dynac_namedtuple_seen *s = &seen[tp->tp_version_tag & 7]; /* tags are handed out in turn */
  if (s->tp != tp || s->version != tp->tp_version_tag || !s->version || s->n != n)
    s = dynac__namedtuple_check(seen, tp, n);
  if (!s->ok || DYNAC_DICT_VERSION(s->globals) != s->globals_version) return NULL;
  PyObject *items = PyTuple_New(n), *args = items ? PyTuple_New(1) : NULL, *r = NULL;
  if (args) {
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(items, i, Py_NewRef(argv[i]));
    PyTuple_SET_ITEM(args, 0, items);
    r = PyTuple_Type.tp_new(tp, args, NULL);
    Py_DECREF(args);
  } else {
    Py_XDECREF(items);
  }
  return r;
}

/* f(*argv) of an object f, as PyObject_Vectorcall(f, argv, nargsf,
 * kwnames): a namedtuple class's instance made as its __new__ makes it
 * (dynac__namedtuple_made); where the caller set
 * PY_VECTORCALL_ARGUMENTS_OFFSET (argv[-1] is then its to lend: written
 * during the call, then restored), a class with a plain __init__ is
 * constructed directly; else CPython's call. Arguments borrowed; a new
 * reference, or NULL with the exception. */
static inline PyObject *dynac_call_object(PyObject *f, PyObject *const *argv, size_t nargsf, PyObject *kwnames) {
  if (!kwnames && Py_TYPE(f) == &PyType_Type && f != (PyObject *)&PyTuple_Type &&
      PyType_HasFeature((PyTypeObject *)f, Py_TPFLAGS_TUPLE_SUBCLASS)) {
    PyObject *made = dynac__namedtuple_made((PyTypeObject *)f, argv, PyVectorcall_NARGS(nargsf));
    if (made || PyErr_Occurred()) return made;
  }
  PyObject *init = nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET ? dynac__plain_init(f) : NULL;
  if (!init) return PyObject_Vectorcall(f, argv, nargsf, kwnames);
  PyObject **a = (PyObject **)argv - 1, *kept = a[0];
  size_t n = PyVectorcall_NARGS(nargsf) + (kwnames ? (size_t)PyTuple_GET_SIZE(kwnames) : 0);
  PyObject *r = dynac__construct((PyTypeObject *)f, init, a, n, kwnames);
  a[0] = kept;
  return r;
}

static inline PyObject *dynac_call_object_ex(PyObject *f, PyObject *args, PyObject *kw);

/* The items of tuple t, in place (borrowed: t holds them). */
static inline PyObject *const *dynac_tuple_items(PyObject *t) { return &PyTuple_GET_ITEM(t, 0); }
/* A new tuple of the n values at items (borrowed), as CPython's call makes
 * a def's *args: a kernel whose *args only spreads took the caller's values
 * instead (generator/analysis/star_args.c), and this is the tuple where the
 * interpreter needs one (a continuation). A new reference, or NULL with
 * MemoryError. */
static inline PyObject *dynac_tuple_of(PyObject *const *items, Py_ssize_t n) {
  PyObject *t = PyTuple_New(n);
  for (Py_ssize_t i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(items[i]));
  return t;
}

/* f(p[0], ..., p[npos-1], items[0], ..., items[nitems-1]) of an object f:
 * the values of a call that spreads a tuple, or the values a kernel's
 * *args took without one (generator/analysis/star_args.c), from a C
 * array (up to 15 in all; more go in a tuple, as CALL_FUNCTION_EX passes
 * them). Arguments borrowed; a new reference, or NULL with the exception. */
static inline PyObject *dynac_call_vector(PyObject *f, PyObject *const *p, int npos, PyObject *const *items,
                                          Py_ssize_t nitems) {
  if (npos + nitems < 16) {
    PyObject *a[17] = {NULL};
    Py_ssize_t n = npos;
    for (int i = 0; i < npos; i++) a[i + 1] = p[i];
    for (Py_ssize_t i = 0; i < nitems; i++) a[++n] = items[i];
    return dynac_call_object(f, a + 1, (size_t)n | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
  }
  PyObject *args = PyTuple_New(npos + nitems), *r;
  if (!args) return NULL;
  for (int i = 0; i < npos; i++) PyTuple_SET_ITEM(args, i, Py_NewRef(p[i]));
  for (Py_ssize_t i = 0; i < nitems; i++) PyTuple_SET_ITEM(args, npos + i, Py_NewRef(items[i]));
  r = PyObject_Call(f, args, NULL);
  Py_DECREF(args);
  return r;
}

/* f(p[0], ..., p[npos-1], *star) of an object f (CALL_FUNCTION_EX whose
 * positional tuple is the values then star's items; no keywords): an exact
 * tuple `star` (its items borrowed: it holds them) goes with the values to
 * dynac_call_vector; anything else is gathered as CPython gathers it
 * (dynac_call_extend: star iterated, its errors) and called with
 * dynac_call_object_ex. Arguments borrowed; a new reference, or NULL with
 * the exception. */
static inline PyObject *dynac_call_star(PyObject *f, PyObject *const *p, int npos, PyObject *star) {
  if (PyTuple_CheckExact(star))
    return dynac_call_vector(f, p, npos, dynac_tuple_items(star), PyTuple_GET_SIZE(star));
  PyObject *list = PyList_New(0), *args = NULL, *r = NULL;
  if (!list) return NULL;
  int ok = 1;
  for (int i = 0; ok && i < npos; i++) ok = PyList_Append(list, p[i]) == 0;
  if (ok && dynac_call_extend(list, star, npos ? NULL : f) == 0 && (args = PyList_AsTuple(list)))
    r = dynac_call_object_ex(f, args, NULL);
  Py_DECREF(list);
  Py_XDECREF(args);
  return r;
}

/* The argument tuple of cls(p[0], ..., p[n-1], *items) for its tp_init
 * (items: m borrowed values, the items of an exact tuple or a kernel's
 * *args): the values stolen (a NULL among them, a failed boxing: NULL,
 * its exception set), the items new references. A new reference, or NULL
 * with the exception. */
static inline PyObject *dynac_args_tuple(PyObject **p, int n, PyObject *const *items, Py_ssize_t m) {
  int ok = 1;
  for (int i = 0; i < n; i++) ok &= p[i] != NULL;
  PyObject *t = ok ? PyTuple_New(n + m) : NULL;
  for (int i = 0; i < n; i++) {
    if (t) PyTuple_SET_ITEM(t, i, p[i]);
    else Py_XDECREF(p[i]);
  }
  for (Py_ssize_t i = 0; t && i < m; i++) PyTuple_SET_ITEM(t, n + i, Py_NewRef(items[i]));
  return t;
}

/* o.append(v) through what LOAD_METHOD found (meth; unbound: it takes
 * argv[0] = o first; argv = {o, v}, npos 2): an exact list's append in C,
 * as CPython 3.11's PRECALL_NO_KW_LIST_APPEND (an exact list's append is
 * always list.append: builtin types cannot be patched); else the call. A
 * new reference (None), or NULL with the exception. */
static inline PyObject *dynac_call_list_append(PyObject *meth, PyObject *const *argv, int unbound, int npos) {
  if (unbound && PyList_CheckExact(argv[0]))
    return PyList_Append(argv[0], argv[1]) < 0 ? NULL : Py_NewRef(Py_None);
  return PyObject_Vectorcall(meth, argv + !unbound, (size_t)(npos - !unbound), NULL);
}
/* o.pop() / o.pop(i) the same way: an exact list's item at a one-digit
 * index in range (counted from the end when negative) taken out as
 * list_pop_impl takes it (list_ass_slice); an empty list, an index out of
 * range or not a small int: the call (CPython's IndexError, TypeError). */
static inline PyObject *dynac_call_list_pop(PyObject *meth, PyObject *const *argv, int unbound, int npos) {
  long i = -1;
  if (unbound && PyList_CheckExact(argv[0]) && (npos == 1 || dynac_compat_small_int(argv[1], &i))) {
    Py_ssize_t n = PyList_GET_SIZE(argv[0]), k = i < 0 ? i + n : i;
    if (k >= 0 && k < n) {
      return dynac_compat_list_take(argv[0], k, 0);
    }
  }
  return PyObject_Vectorcall(meth, argv + !unbound, (size_t)(npos - !unbound), NULL);
}

/* f(*args, **kw) of an object f (CALL_FUNCTION_EX: args an exact tuple, kw
 * a dict or NULL), as PyObject_Call; without keywords and with up to 15
 * arguments, through dynac_call_star (a class with a plain __init__
 * constructed directly). Arguments borrowed; a new reference, or NULL with
 * the exception. */
static inline PyObject *dynac_call_object_ex(PyObject *f, PyObject *args, PyObject *kw) {
  if ((kw && PyDict_GET_SIZE(kw)) || PyTuple_GET_SIZE(args) >= 16) return PyObject_Call(f, args, kw);
  return dynac_call_star(f, NULL, 0, args);
}

/* iter(v) for unpacking (a new reference), or NULL with the exception:
 * unpack_iterable's TypeError "cannot unpack non-iterable int object" for a
 * value neither iterable nor a sequence. */
static inline PyObject *dynac__unpack_iter(PyObject *v) {
  PyObject *it = PyObject_GetIter(v);
  if (!it && PyErr_ExceptionMatches(PyExc_TypeError) && Py_TYPE(v)->tp_iter == NULL && !PySequence_Check(v))
    PyErr_Format(PyExc_TypeError, "cannot unpack non-iterable %.200s object", Py_TYPE(v)->tp_name);
  return it;
}

/* a, b, ... = v of an object (UNPACK_SEQUENCE): out[0..n-1] get new
 * references to its n items, in order. An exact tuple or list of length n
 * is read directly; anything else is iterated, with CPython's errors
 * ("cannot unpack non-iterable int object", "not enough values to unpack
 * (expected 2, got 1)", "too many values to unpack (expected 2)").
 * *effects is set when an iterator's Python code may run. 0, or -1 with an
 * exception (out then holds no references). */
static inline int dynac_unpack(PyObject *v, int n, PyObject **out, int *effects) {
  if ((PyTuple_CheckExact(v) && PyTuple_GET_SIZE(v) == n) || (PyList_CheckExact(v) && PyList_GET_SIZE(v) == n)) {
    PyObject **items = PyTuple_CheckExact(v) ? &PyTuple_GET_ITEM(v, 0) : PySequence_Fast_ITEMS(v);
    for (int i = 0; i < n; i++) out[i] = Py_NewRef(items[i]);
    return 0;
  }
  dynac_python_may_run(effects);
  PyObject *it = dynac__unpack_iter(v);
  if (!it) return -1;
  int got = 0;
  while (got < n && (out[got] = PyIter_Next(it))) got++;
  if (got < n) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected %d, got %d)", n, got);
  } else {
    PyObject *extra = PyIter_Next(it);
    if (!extra && !PyErr_Occurred()) {
      Py_DECREF(it);
      return 0;
    }
    if (extra) {
      Py_DECREF(extra);
      PyErr_Format(PyExc_ValueError, "too many values to unpack (expected %d)", n);
    }
  }
  for (int i = 0; i < got; i++) Py_CLEAR(out[i]);
  Py_DECREF(it);
  return -1;
}

/* a, *b, c = v of an object (UNPACK_EX, as CPython 3.11's unpack_iterable
 * does it): out[0..before-1] get the first items, out[before] a new list of
 * the items between, out[before+1..before+after] the last `after` items (new
 * references). CPython's errors: "cannot unpack non-iterable int object",
 * "not enough values to unpack (expected at least 2, got 1)". *effects is
 * set unless v is an exact list or tuple (an iterator's Python code may
 * run). 0, or -1 with an exception (out then holds no references). */
static inline int dynac_unpack_ex(PyObject *v, int before, int after, PyObject **out, int *effects) {
  if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) dynac_python_may_run(effects);
  PyObject *it = dynac__unpack_iter(v), *rest = NULL;
  if (!it) return -1;
  int got = 0;
  while (got < before && (out[got] = PyIter_Next(it))) got++;
  if (got < before) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected at least %d, got %d)", before + after, got);
  } else if ((rest = PySequence_List(it))) {
    Py_ssize_t n = PyList_GET_SIZE(rest);
    if (n >= after) { /* the last items move out of the list, which keeps its allocation (Py_SET_SIZE) */
      for (int j = 0; j < after; j++) out[before + 1 + j] = PyList_GET_ITEM(rest, n - after + j);
      Py_SET_SIZE(rest, n - after);
      out[before] = rest;
      Py_DECREF(it);
      return 0;
    }
    PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected at least %d, got %zd)", before + after,
                 before + n);
    Py_DECREF(rest);
  }
  for (int i = 0; i < got; i++) Py_CLEAR(out[i]);
  Py_DECREF(it);
  return -1;
}

/* The iterator of enumerate(it[, start]), zip(a, b, ...) or reversed(seq)
 * of objects (how: 'e', 'z', 'r'): the builtin type called with args[0..n-1]
 * (borrowed), as the loop's iterable; a new reference, or NULL with an
 * exception. */
static inline PyObject *dynac_obj_loop_builtin(char how, PyObject *const *args, Py_ssize_t n, int *effects) {
  dynac_python_may_run(effects); /* the argument's __iter__ or __reversed__ may run */
  PyTypeObject *t = how == 'e' ? &PyEnum_Type : how == 'z' ? &PyZip_Type : &PyReversed_Type;
  return PyObject_Vectorcall((PyObject *)t, args, (size_t)n, NULL);
}

/* del o.name (DELETE_ATTR; name borrowed). 0, or -1 with an exception. */
static inline int dynac_obj_delattr(PyObject *o, PyObject *name, int *effects) {
  dynac_python_may_run(effects);
  return PyObject_DelAttr(o, name);
}
/* del o[key] (DELETE_SUBSCR; key borrowed, NULL: a failed box, -1). 0, or
 * -1 with an exception. */
static inline int dynac_obj_delitem(PyObject *o, PyObject *key, int *effects) {
  if (!key) return -1;
  dynac_python_may_run(effects);
  return PyObject_DelItem(o, key);
}
/* a OP= b for the generator's binop numbering: PyNumber_InPlaceAdd, ...
 * (a list's += extends it; an int's falls back to +). New reference. */
static inline PyObject *dynac_obj_inplace(PyObject *a, PyObject *b, int op, int *effects) {
  int done;
  PyObject *f = dynac__exact_number_op(a, b, op, &done);
  if (done) return f;
  dynac__obj_effect(a, b, effects);
  switch (op) {
  case 0: return PyNumber_InPlaceAdd(a, b);
  case 1: return PyNumber_InPlaceSubtract(a, b);
  case 2: return PyNumber_InPlaceMultiply(a, b);
  case 3: return PyNumber_InPlaceTrueDivide(a, b);
  case 4: return PyNumber_InPlaceFloorDivide(a, b);
  case 5: return PyNumber_InPlaceRemainder(a, b);
  case 6: return PyNumber_InPlacePower(a, b, Py_None);
  case 7: return PyNumber_InPlaceLshift(a, b);
  case 8: return PyNumber_InPlaceRshift(a, b);
  case 9: return PyNumber_InPlaceAnd(a, b);
  case 10: return PyNumber_InPlaceOr(a, b);
  case 11: return PyNumber_InPlaceXor(a, b);
  default: return PyNumber_InPlaceMatrixMultiply(a, b);
  }
}
/* The interned str for `text` (UTF-8), made once into *cache (kept for the
 * process, as the interpreter keeps a code object's co_names): borrowed, or
 * NULL with MemoryError. */
static inline PyObject *dynac_name(PyObject **cache, const char *text) {
  if (!*cache) *cache = PyUnicode_InternFromString(text);
  return *cache;
}
/* iter(o) (PyObject_GetIter: a new reference, NULL with CPython's TypeError). */
static inline PyObject *dynac_obj_iter(PyObject *o, int *effects) {
  if (!(PyList_CheckExact(o) || PyTuple_CheckExact(o) || PyDict_CheckExact(o) ||
        PyAnySet_CheckExact(o) || PyUnicode_CheckExact(o) || PyRange_Check(o)))
    dynac_python_may_run(effects);
  return PyObject_GetIter(o);
}
/* The iterator's next item (a new reference); NULL when it is exhausted
 * (no exception set: StopIteration is cleared, as FOR_ITER does) or with
 * the exception its __next__ raised. */
static inline PyObject *dynac_obj_next(PyObject *it, int *effects) {
  PyTypeObject *t = Py_TYPE(it);
  if (t != &PyListIter_Type && t != &PyTupleIter_Type && t != &PyRangeIter_Type &&
      t != &PyDictIterKey_Type && t != &PyUnicodeIter_Type && t != &PySetIter_Type)
    dynac_python_may_run(effects);
  PyObject *x = t->tp_iternext(it);
  if (!x && PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_StopIteration)) PyErr_Clear();
  return x;
}
/* A str literal with no prefix, escape or implicit concatenation ('a b',
 * """x"""): its text between the quotes, decoded from UTF-8 (a new
 * reference, NULL with an exception); *plain = 0 and NULL for any other source. */
static inline PyObject *dynac__plain_str_literal(const char *s, int *plain) {
  size_t n = strlen(s), k;
  char q = s[0];
  *plain = 0;
  if (q != '\'' && q != '"') return NULL;
  k = n >= 6 && s[1] == q && s[2] == q ? 3 : 1;
  if (n < 2 * k) return NULL;
  for (size_t i = n - k; i < n; i++) if (s[i] != q) return NULL;
  for (size_t i = k; i < n - k; i++) if (s[i] == '\\' || s[i] == q || s[i] == '\r') return NULL;
  *plain = 1;
  return PyUnicode_DecodeUTF8(s + k, (Py_ssize_t)(n - 2 * k), NULL);
}
/* The value of a literal the kernel uses as an object, from its source text
 * (UTF-8): a str or bytes literal (prefixes, escapes and implicit
 * concatenation as written), an int beyond int64, an imaginary literal or
 * `...`, made as the compiler makes the constant: plain str and int literals
 * directly, the rest by compiling and evaluating the literal (no module
 * imported). A new reference, NULL with an exception. */
static inline PyObject *dynac_literal(const char *source) {
  int plain;
  PyObject *v = dynac__plain_str_literal(source, &plain);
  if (plain) return v;
  if (source[0] >= '0' && source[0] <= '9' && !strpbrk(source, "jJ.eE"))
    return PyLong_FromString(source, NULL, 0); /* 0x.., 0o.., 0b.., underscores: as the tokenizer reads them */
  PyObject *code = Py_CompileString(source, "<dynac literal>", Py_eval_input);
  if (!code) return NULL;
  PyObject *globals = PyDict_New();
  v = globals ? PyEval_EvalCode(code, globals, NULL) : NULL;
  Py_XDECREF(globals);
  Py_DECREF(code);
  return v;
}
/* One step of sum() of a generator of objects, as builtin_sum's generic
 * path takes it: *acc = *acc + item (PyNumber_Add; its int and float fast
 * paths give the same values). item: a new reference, consumed (NULL: a
 * failed box). 0, or -1 with CPython's exception. Python code may run
 * (*effects set), unless both are of builtin types (dynac_obj_pure). */
static inline int dynac_fold_sum(PyObject **acc, PyObject *item, int *effects) {
  if (!item) return -1;
  dynac__obj_effect(*acc, item, effects);
  PyObject *r = PyNumber_Add(*acc, item);
  Py_DECREF(item);
  if (!r) return -1;
  Py_SETREF(*acc, r);
  return 0;
}
/* One step of min() (op Py_LT) or max() (op Py_GT) of a generator, as
 * builtin min_max takes it: the first item, then an item replaces *acc when
 * `item op *acc` is true (so the first of equal items stays). item: a new
 * reference, consumed. 0, or -1 with CPython's exception. */
static inline int dynac_fold_min_max(PyObject **acc, PyObject *item, int op, int *effects) {
  if (!item) return -1;
  if (!*acc) { *acc = item; return 0; }
  dynac_python_may_run(effects);
  int better = PyObject_RichCompareBool(item, *acc, op);
  if (better < 0) { Py_DECREF(item); return -1; }
  if (better) Py_SETREF(*acc, item); else Py_DECREF(item);
  return 0;
}
/* item in container (PySequence_Contains, as CONTAINS_OP does): 1, 0, or -1
 * with CPython's exception. A str in a str, and a dict's, set's or
 * frozenset's str or int keys, run no Python code. */
static inline int dynac_obj_contains(PyObject *container, PyObject *item, int *effects) {
  if (!((PyUnicode_CheckExact(container) && PyUnicode_CheckExact(item)) ||
        ((PyDict_CheckExact(container) || PyAnySet_CheckExact(container)) &&
         (PyUnicode_CheckExact(item) || PyLong_CheckExact(item)))))
    dynac_python_may_run(effects);
  return PySequence_Contains(container, item);
}
/* The kwnames tuple of a call site's keyword arguments (n names, UTF-8),
 * made once into *cache and kept for the process: borrowed, or NULL with
 * MemoryError. */
static inline PyObject *dynac_kwnames(PyObject **cache, int n, const char *const *names) {
  if (*cache) return *cache;
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *s = PyUnicode_InternFromString(names[i]);
    if (!s) Py_CLEAR(t);
    else PyTuple_SET_ITEM(t, i, s);
  }
  return *cache = t;
}

/* tp.__init__(obj, *argv[:n - nkw], **dict(zip(kwnames, argv[n - nkw:])))
 * as type_call runs it (tp->tp_init with an argument tuple and a keyword
 * dict; kwnames: the call's tuple of nkw names, or NULL): the __init__ of
 * a construction whose kernel handed it back. argv borrowed, none NULL.
 * 0, or -1 with its exception. */
static inline int dynac_init_interpreted(PyTypeObject *tp, PyObject *obj, PyObject *const *argv, Py_ssize_t n,
                                         PyObject *kwnames) {
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject *args = PyTuple_New(n - nkw), *kwds = nkw ? PyDict_New() : NULL;
  int r = args && (kwds || !nkw) ? 0 : -1;
  for (Py_ssize_t i = 0; args && i < n - nkw; i++) PyTuple_SET_ITEM(args, i, Py_NewRef(argv[i]));
  for (Py_ssize_t j = 0; !r && j < nkw; j++) r = PyDict_SetItem(kwds, PyTuple_GET_ITEM(kwnames, j), argv[n - nkw + j]);
  if (!r) r = tp->tp_init(obj, args, kwds);
  Py_XDECREF(args);
  Py_XDECREF(kwds);
  return r < 0 ? -1 : 0;
}

/* `raise exc from cause` as CPython's RAISE_VARARGS does it (ceval.c's
 * do_raise): a class is called with no arguments and must return an
 * instance, an instance is raised as it is, anything else is a TypeError;
 * a cause (NULL: no `from`) that is a class is called, None suppresses the
 * context. Both borrowed. Always returns -1 with an exception set (the
 * implicit __context__ chaining is PyErr_SetObject's). */
DYNAC_COLD int dynac_raise(PyObject *exc, PyObject *cause) {
  PyObject *value = NULL, *fixed_cause = NULL;
  if (PyExceptionClass_Check(exc)) {
    if (!(value = PyObject_CallNoArgs(exc))) return -1;
    if (!PyExceptionInstance_Check(value)) {
      PyErr_Format(PyExc_TypeError, "calling %R should have returned an instance of "
                   "BaseException, not %R", exc, Py_TYPE(value));
      Py_DECREF(value);
      return -1;
    }
  } else if (PyExceptionInstance_Check(exc)) {
    value = Py_NewRef(exc);
  } else {
    PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
    return -1;
  }
  if (cause) {
    if (PyExceptionClass_Check(cause)) {
      if (!(fixed_cause = PyObject_CallNoArgs(cause))) { Py_DECREF(value); return -1; }
    } else if (PyExceptionInstance_Check(cause)) {
      fixed_cause = Py_NewRef(cause);
    } else if (cause != Py_None) {
      PyErr_SetString(PyExc_TypeError, "exception causes must derive from BaseException");
      Py_DECREF(value);
      return -1;
    }
    PyException_SetCause(value, fixed_cause); /* steals; sets __suppress_context__ */
  }
  PyErr_SetObject((PyObject *)Py_TYPE(value), value);
  Py_DECREF(value);
  return -1;
}

/* A bare `raise`: the exception a caller is handling, raised again with its
 * own traceback (1: no entry is added for this frame, as RERAISE), or
 * CPython's RuntimeError when there is none (0: the caller adds the entry). */
DYNAC_COLD int dynac_reraise(void) {
  PyObject *e = dynac_compat_handled_exception();
  if (!e) {
    PyErr_SetString(PyExc_RuntimeError, "No active exception to reraise");
    return 0;
  }
  PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(e)), e, PyException_GetTraceback(e));
  return 1;
}

/* An f-string's replacement field, as CPython's FORMAT_VALUE makes it:
 * `conv` ('s' str, 'r' repr, 'a' ascii, or 0) applied to `v`, then
 * format(value, spec) (spec: a str, or NULL for none), except that an
 * exact str with no spec is the part itself. v and spec borrowed; a new
 * reference, or NULL with CPython's exception. Sets *effects when v is
 * not a value whose formatting runs no Python code. */
static inline PyObject *dynac_format_value(PyObject *v, char conv, PyObject *spec, int *effects) {
  if (*effects || !dynac_obj_pure(v, 0)) dynac_python_may_run(effects);
  PyObject *c = conv == 's' ? PyObject_Str(v) : conv == 'r' ? PyObject_Repr(v)
                : conv == 'a' ? PyObject_ASCII(v) : Py_NewRef(v);
  if (!c || (!spec && PyUnicode_CheckExact(c))) return c;
  PyObject *r = PyObject_Format(c, spec);
  Py_DECREF(c);
  return r;
}
/* The parts of an f-string (n str, borrowed) joined, as BUILD_STRING
 * joins them: a new reference, or NULL with an exception. */
static inline PyObject *dynac_build_string(PyObject *const *parts, int n) {
  PyObject *t = PyTuple_New(n);
  if (!t) return NULL;
  for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(parts[i]));
  PyObject *empty = PyUnicode_New(0, 0);
  PyObject *r = empty ? PyUnicode_Join(empty, t) : NULL;
  Py_XDECREF(empty);
  Py_DECREF(t);
  return r;
}

/* ---- imports inside functions ---------------------------------------------
 * IMPORT_NAME: `name` (a str) imported through the __import__ of the
 * builtins dict, as ceval's import_name calls it: (name, globals, None for a
 * function's locals, fromlist (a tuple of str, or None), level); a user's
 * replacement of builtins.__import__ is honoured. A new reference (the top
 * package for `import a.b`, the module itself with a fromlist), or NULL with
 * the exception the import system raised (ImportError "__import__ not
 * found" when the builtins have none). */
static inline PyObject *dynac_import_name(PyObject *globals, PyObject *builtins, PyObject *name,
                                          PyObject *fromlist, int level) {
  static PyObject *import_str;
  if (!dynac_name(&import_str, "__import__")) return NULL;
  PyObject *import = PyDict_GetItemWithError(builtins, import_str); /* borrowed */
  if (!import) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ImportError, "__import__ not found");
    return NULL;
  }
  PyObject *lvl = PyLong_FromLong(level);
  if (!lvl) return NULL;
  Py_INCREF(import);
  PyObject *args[5] = {name, globals, Py_None, fromlist, lvl};
  PyObject *r = PyObject_Vectorcall(import, args, 5, NULL);
  Py_DECREF(import);
  Py_DECREF(lvl);
  return r;
}

/* LOAD_BUILD_CLASS: the __build_class__ of the builtins dict (a class
 * statement calls it with the class body's function, the name, the bases
 * and keywords). A new reference, or NULL with NameError "__build_class__
 * not found" (3.11's message) when the builtins have none. */
static inline PyObject *dynac_load_build_class(PyObject *builtins) {
  static PyObject *build_class_str;
  if (!dynac_name(&build_class_str, "__build_class__")) return NULL;
  PyObject *bc = PyDict_GetItemWithError(builtins, build_class_str); /* borrowed */
  if (!bc && !PyErr_Occurred()) PyErr_SetString(PyExc_NameError, "__build_class__ not found");
  return Py_XNewRef(bc);
}

/* LOAD_DEREF of free variable `name` (UTF-8): the content of `cell`
 * (borrowed, from the closure of the function the kernel serves) as a new
 * reference, or NULL with the interpreter's NameError (.name set) when the
 * cell is empty (the enclosing function has not bound it yet, or deleted it). */
static inline PyObject *dynac_cell_deref(PyObject *cell, const char *name) {
  PyObject *v = PyCell_GET(cell);
  if (v) return Py_NewRef(v);
  PyErr_Format(PyExc_NameError, DYNAC_COMPAT_UNBOUND_FREE_MSG, name);
  PyObject *exc = dynac_compat_fetch_raised(), *n = PyUnicode_FromString(name);
  if (exc && n && PyObject_SetAttrString(exc, "name", n) < 0) PyErr_Clear();
  Py_XDECREF(n);
  if (exc) dynac_compat_restore_raised(exc);
  return NULL;
}

/* STORE_DEREF of a `nonlocal` name: `v` (borrowed) into `cell` (borrowed);
 * the old value is released after (its __del__ may run). */
static inline void dynac_cell_store(PyObject *cell, PyObject *v) {
  PyObject *old = PyCell_GET(cell);
  PyCell_SET(cell, Py_NewRef(v));
  Py_XDECREF(old);
}

/* DELETE_DEREF of `nonlocal` name `name`: empties `cell`; 0, or -1 with
 * the interpreter's NameError when it is empty already. */
static inline int dynac_cell_delete(PyObject *cell, const char *name) {
  PyObject *old = PyCell_GET(cell);
  if (!old) return dynac_cell_deref(cell, name) ? 0 : -1; /* raises its NameError */
  PyCell_SET(cell, NULL);
  Py_DECREF(old);
  return 0;
}

/* LOAD_DEREF of the function's own cell variable `name` (a local that
 * closures capture): the cell's content (a new reference), or NULL with the
 * interpreter's UnboundLocalError when it is empty. */
static inline PyObject *dynac_cellvar_deref(PyObject *cell, const char *name) {
  PyObject *v = PyCell_GET(cell);
  if (v) return Py_NewRef(v);
  PyErr_Format(PyExc_UnboundLocalError, DYNAC_COMPAT_UNBOUND_LOCAL_MSG, name);
  return NULL;
}

/* DELETE_DEREF of the function's own cell variable: empties `cell`; 0, or
 * -1 with UnboundLocalError when it is empty already. */
static inline int dynac_cellvar_delete(PyObject *cell, const char *name) {
  PyObject *old = PyCell_GET(cell);
  if (!old) return dynac_cellvar_deref(cell, name) ? 0 : -1;
  PyCell_SET(cell, NULL);
  Py_DECREF(old);
  return 0;
}

/* The cells a continuation reads its free variables from: those of
 * `closure` (borrowed, or NULL), then the n cells `own` (borrowed) of the
 * kernel's own cell variables. A new tuple, or NULL with MemoryError. */
static inline PyObject *dynac_closure_with(PyObject *closure, int n, PyObject *const *own) {
  Py_ssize_t k = closure ? PyTuple_GET_SIZE(closure) : 0;
  PyObject *t = PyTuple_New(k + n);
  for (Py_ssize_t i = 0; t && i < k + n; i++)
    PyTuple_SET_ITEM(t, i, Py_NewRef(i < k ? PyTuple_GET_ITEM(closure, i) : own[i - k]));
  return t;
}

/* super() without arguments, which reads the calling frame: here the
 * kernel gives what 3.11's super_init_without_args reads from it, the
 * __class__ cell (borrowed) and the first parameter's current value
 * (borrowed). `super_fn` is what LOAD_GLOBAL super found (borrowed): a
 * replacement of builtins.super is called with no arguments, as the
 * interpreter calls it. A new reference, or NULL with CPython's
 * RuntimeError ("super(): empty __class__ cell", "... is not a type") or
 * super's own errors. */
static inline PyObject *dynac_super(PyObject *super_fn, PyObject *class_cell, PyObject *self) {
  if (super_fn != (PyObject *)&PySuper_Type) return PyObject_CallNoArgs(super_fn);
  PyObject *cls = PyCell_GET(class_cell);
  if (!cls) {
    PyErr_SetString(PyExc_RuntimeError, "super(): empty __class__ cell");
    return NULL;
  }
  if (!PyType_Check(cls)) {
    PyErr_Format(PyExc_RuntimeError, "super(): __class__ is not a type (%s)", Py_TYPE(cls)->tp_name);
    return NULL;
  }
  PyObject *argv[2] = {cls, self};
  return PyObject_Vectorcall(super_fn, argv, 2, NULL);
}

/* Is module spec `spec` (NULL: none) still running its module's code
 * (spec._initializing true, as 3.11's _PyModuleSpec_IsInitializing reads
 * it; errors read as no)? */
static inline int dynac__spec_initializing(PyObject *spec) {
  if (!spec) return 0;
  PyObject *v = PyObject_GetAttrString(spec, "_initializing");
  int r = v ? PyObject_IsTrue(v) : 0;
  Py_XDECREF(v);
  if (r < 0 || !v) PyErr_Clear();
  return r > 0;
}

/* IMPORT_FROM: attribute `name` (a str) of module `v`, or else the
 * submodule sys.modules["<v.__name__>.<name>"] (a circular import's
 * fallback, CPython issue #17636), as ceval's import_from. A new reference,
 * or NULL with its ImportError ("cannot import name 'x' from 'm' (path)",
 * "... from partially initialized module ...", "(unknown location)"), or an
 * error other than AttributeError that getattr raised. */
static inline PyObject *dynac_import_from(PyObject *v, PyObject *name) {
  static PyObject *name_str, *spec_str;
  if (!dynac_name(&name_str, "__name__") || !dynac_name(&spec_str, "__spec__")) return NULL;
  PyObject *x = PyObject_GetAttr(v, name);
  if (x || !PyErr_ExceptionMatches(PyExc_AttributeError)) return x;
  PyErr_Clear();
  PyObject *pkgname = PyObject_GetAttr(v, name_str);
  if (pkgname && !PyUnicode_Check(pkgname)) Py_CLEAR(pkgname);
  if (pkgname) {
    PyObject *full = PyUnicode_FromFormat("%U.%U", pkgname, name);
    if (!full) { Py_DECREF(pkgname); return NULL; }
    x = PyImport_GetModule(full);
    Py_DECREF(full);
    if (x || PyErr_Occurred()) { Py_DECREF(pkgname); return x; }
  }
  PyObject *pkgpath = PyModule_GetFilenameObject(v);
  PyObject *shown = pkgname ? Py_NewRef(pkgname) : PyUnicode_FromString("<unknown module name>");
  PyObject *msg = NULL;
  if (shown && (!pkgpath || !PyUnicode_Check(pkgpath))) {
    PyErr_Clear();
    msg = PyUnicode_FromFormat("cannot import name %R from %R (unknown location)", name, shown);
    dynac_compat_set_import_error(msg, pkgname, NULL, name);
  } else if (shown) {
    PyObject *spec = PyObject_GetAttr(v, spec_str);
    if (!spec) PyErr_Clear();
    msg = PyUnicode_FromFormat(dynac__spec_initializing(spec) ?
                               "cannot import name %R from partially initialized module %R "
                               "(most likely due to a circular import) (%S)" :
                               "cannot import name %R from %R (%S)", name, shown, pkgpath);
    Py_XDECREF(spec);
    dynac_compat_set_import_error(msg, pkgname, pkgpath, name);
  }
  Py_XDECREF(msg);
  Py_XDECREF(shown);
  Py_XDECREF(pkgname);
  Py_XDECREF(pkgpath);
  return NULL;
}

/* ---- functions made inside kernels ------------------------------------------
 * MAKE_FUNCTION of a nested def or lambda, as the interpreter makes it:
 * PyFunction_New(code, globals) (its __qualname__ the code's, its
 * __module__ and builtins from globals), then the closure, the positional
 * defaults (a tuple), the keyword-only defaults and the annotations (dicts)
 * when given (NULL: none). `code` is the nested code object the artifact's
 * attach step found (NULL: not attached: SystemError). The closure is built
 * in the order of the code's co_freevars, each free variable's cell found
 * by name among the `ncells` the kernel offers (names[i] -> cells[i]). All
 * borrowed; a new reference, or NULL with an exception. */
/* The closure of a function of `code`: per name of co_freevars, the cell
 * offered under that name. 0, or -1 with SystemError (no cell offered). */
static inline int dynac__set_closure(PyObject *fn, PyObject *code, const char *qualname, int ncells,
                                     const char *const *names, PyObject *const *cells) {
  PyObject *freevars = PyCode_GetFreevars((PyCodeObject *)code);
  if (!freevars) return -1;
  Py_ssize_t nfree = PyTuple_GET_SIZE(freevars);
  PyObject *closure = nfree ? PyTuple_New(nfree) : NULL;
  int r = nfree && !closure ? -1 : 0;
  for (Py_ssize_t i = 0; closure && i < nfree && !r; i++) {
    PyObject *cell = NULL;
    for (int k = 0; k < ncells && !cell; k++)
      if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(freevars, i), names[k]) == 0) cell = cells[k];
    if (cell) PyTuple_SET_ITEM(closure, i, Py_NewRef(cell));
    else {
      PyErr_Format(PyExc_SystemError, "dynac: no cell for free variable %R of %s", PyTuple_GET_ITEM(freevars, i),
                   qualname);
      r = -1;
    }
  }
  if (closure && !r) r = PyFunction_SetClosure(fn, closure);
  Py_XDECREF(closure);
  Py_DECREF(freevars);
  return r;
}

static inline PyObject *dynac_make_function(PyObject *code, const char *qualname, PyObject *globals, int ncells,
                                            const char *const *names, PyObject *const *cells,
                                            PyObject *defaults, PyObject *kwdefaults, PyObject *annotations) {
  if (!code) {
    PyErr_Format(PyExc_SystemError, "dynac: the code object of %s was not found when the artifact was attached",
                 qualname);
    return NULL;
  }
  PyObject *fn = PyFunction_New(code, globals);
  if (fn && (dynac__set_closure(fn, code, qualname, ncells, names, cells) < 0 ||
             (defaults && PyFunction_SetDefaults(fn, defaults) < 0) ||
             (kwdefaults && PyFunction_SetKwDefaults(fn, kwdefaults) < 0) ||
             (annotations && PyFunction_SetAnnotations(fn, annotations) < 0)))
    Py_CLEAR(fn);
  return fn;
}
