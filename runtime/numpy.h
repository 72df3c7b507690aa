/* runtime/numpy.h: numpy scalars, without numpy's headers. A part of single_include/dynac.h (make single_include). */
/* ---- numpy scalars, without numpy's headers ------------------------------
 * Items read from an ndarray are numpy scalars (numpy.float64, numpy.int8,
 * ...), with numpy's promotion rules and numpy's answers where Python
 * raises (1/0 gives inf and a RuntimeWarning). Kernels compute with them as
 * C values and deoptimise wherever the two could differ, so the interpreter
 * gives numpy's own answer and warning. The scalar types are looked up by
 * name in the numpy module the process imported (an ndarray argument proves
 * it did). dtypes are spelled as struct letters: d f l i h b B ?. */
static inline PyObject *dynac_np_type(char fmt) { /* borrowed; NULL if numpy is not imported */
  static const char letters[] = "dflihbB?";
  static const char *const names[] = {"float64", "float32", "int64", "int32",
                                      "int16", "int8", "uint8", "bool_"};
  static PyObject *types[8]; /* per translation unit, kept for the process */
  const char *p = fmt ? strchr(letters, fmt) : NULL;
  if (!p) return NULL;
  int k = (int)(p - letters);
  if (!types[k]) {
    PyObject *name = PyUnicode_FromString("numpy");
    PyObject *np = name ? PyImport_GetModule(name) : NULL;
    Py_XDECREF(name);
    if (np) types[k] = PyObject_GetAttrString(np, names[k]);
    Py_XDECREF(np);
    if (!types[k]) PyErr_Clear();
  }
  return types[k];
}
/* Underflow: numpy's scalar arithmetic ignores it unless np.seterr (or
 * np.errstate) says 'warn', 'raise', 'call', 'print' or 'log'; C never
 * reports it. A kernel with numpy float arithmetic asks on its way out
 * whether an underflow happened (the FPU's sticky flag: one test) and, only
 * then, numpy's mode (numpy.geterr()). When numpy would not ignore it, the
 * kernel deoptimises and the interpreter gives numpy's warning or
 * FloatingPointError at the operation. The flag may be older than the call
 * (it stays set until cleared): that costs a needless deoptimisation,
 * never a wrong answer; when numpy ignores underflow the flag is cleared,
 * so the question is asked once. */
static DYNAC_NOINLINE int dynac__np_underflow_noticed(void) {
  int noticed = 1; /* numpy's mode unknown: the interpreter decides */
  PyObject *name = PyUnicode_FromString("numpy");
  PyObject *np = name ? PyImport_GetModule(name) : NULL;
  PyObject *modes = np ? PyObject_CallMethod(np, "geterr", NULL) : NULL;
  PyObject *under = modes && PyDict_Check(modes) ? PyDict_GetItemString(modes, "under") : NULL;
  if (under && PyUnicode_Check(under)) noticed = PyUnicode_CompareWithASCIIString(under, "ignore") != 0;
  if (!np) noticed = 0; /* no numpy: nothing to report */
  Py_XDECREF(modes);
  Py_XDECREF(np);
  Py_XDECREF(name);
  if (PyErr_Occurred()) PyErr_Clear();
  if (!noticed) feclearexcept(FE_UNDERFLOW);
  return noticed;
}
static inline int dynac_np_underflow_noticed(void) {
  return DYNAC_UNLIKELY(fetestexcept(FE_UNDERFLOW) != 0) && dynac__np_underflow_noticed();
}
static inline int dynac_is_np(PyObject *o, char fmt) {
  PyObject *t = dynac_np_type(fmt);
  return t && (PyObject *)Py_TYPE(o) == t;
}
/* A numpy scalar of dtype fmt holding the C value (new reference; NULL
 * with an exception). */
static inline PyObject *dynac_box_np(char fmt, double f, int64_t i) {
  PyObject *t = dynac_np_type(fmt);
  if (!t) {
    PyErr_SetString(PyExc_ImportError, "dynac: a kernel made a numpy scalar but numpy is not imported");
    return NULL;
  }
  if (fmt == 'd' && ((PyTypeObject *)t)->tp_basicsize == sizeof(PyFloatObject) &&
      PyType_IsSubtype((PyTypeObject *)t, &PyFloat_Type)) {
    /* numpy.float64 subclasses float with the same layout: made as numpy's
       PyArrayScalar_New makes it (the type's tp_alloc), the value stored where
       numpy keeps it (obval, float's ob_fval) */
    PyObject *r = ((PyTypeObject *)t)->tp_alloc((PyTypeObject *)t, 0);
    if (r) ((PyFloatObject *)r)->ob_fval = f;
    return r;
  }
  PyObject *v = fmt == 'd' || fmt == 'f' ? PyFloat_FromDouble(f)
                : fmt == '?' ? PyBool_FromLong((long)i) : PyLong_FromLongLong(i);
  PyObject *r = v ? PyObject_CallOneArg(t, v) : NULL;
  Py_XDECREF(v);
  return r;
}
/* The C value of a borrowed numpy scalar of exactly dtype fmt: 0, or 1
 * (nothing set) when `o` is not one. */
static inline int dynac_unbox_np(PyObject *o, char fmt, double *f, int64_t *i) {
  if (!dynac_is_np(o, fmt)) return 1;
  if (fmt == 'd' || fmt == 'f') {
    *f = PyFloat_AsDouble(o); /* exact: numpy.float32 widens */
    if (*f == -1.0 && PyErr_Occurred()) { PyErr_Clear(); return 1; }
    return 0;
  }
  if (fmt == '?') {
    int t = PyObject_IsTrue(o);
    if (t < 0) { PyErr_Clear(); return 1; }
    *i = t;
    return 0;
  }
  PyObject *x = PyNumber_Index(o);
  int bad = !x || !dynac_int64_of(x, i);
  Py_XDECREF(x);
  if (!x) PyErr_Clear();
  return bad;
}
/* Per dtype: dynac_box_np_float64(v), dynac_elem_np_float64(o, &v), ... */
#define DYNAC_NP_SCALAR(name, fmt, ctype, isf)                                            \
  static inline PyObject *dynac_box_np_##name(ctype v) {                                  \
    return dynac_box_np(fmt, isf ? (double)v : 0.0, isf ? 0 : (int64_t)v);                 \
  }                                                                                      \
  static inline int dynac_elem_np_##name(PyObject *o, ctype *out) {                      \
    double f = 0.0;                                                                      \
    int64_t i = 0;                                                                       \
    if (dynac_unbox_np(o, fmt, &f, &i)) return 1;                                        \
    *out = isf ? (ctype)f : (ctype)i;                                                    \
    return 0;                                                                            \
  }
DYNAC_NP_SCALAR(float64, 'd', double, 1)
DYNAC_NP_SCALAR(float32, 'f', float, 1)
DYNAC_NP_SCALAR(int64, 'l', int64_t, 0)
DYNAC_NP_SCALAR(int32, 'i', int64_t, 0)
DYNAC_NP_SCALAR(int16, 'h', int64_t, 0)
DYNAC_NP_SCALAR(int8, 'b', int64_t, 0)
DYNAC_NP_SCALAR(uint8, 'B', int64_t, 0)
DYNAC_NP_SCALAR(bool_, '?', bool, 0)
#undef DYNAC_NP_SCALAR
/* An int, a float, a numpy.float64 or a numpy.int64 (borrowed) as an `int |
 * float | numpy.float64 | numpy.int64` number: 0, or 1 (nothing set) when it
 * is none of them. */
static inline int dynac_elem_num_np(PyObject *o, dynac_num *out) {
  double f;
  int64_t i;
  if (!dynac_elem_np_float64(o, &f)) { *out = dynac_num_npf(f); return 0; }
  if (!dynac_elem_np_int64(o, &i)) { *out = dynac_num_npi(i); return 0; }
  return dynac_elem_num(o, out);
}
/* The same for an API result (stolen); 1: deoptimise. */
static inline int dynac_unbox_num_np(PyObject *r, dynac_num *out) {
  if (!r) return 1;
  int bad = dynac_elem_num_np(r, out);
  Py_DECREF(r);
  return bad;
}
/* The value of a borrowed float or numpy.float64 (exactly those types):
 * 0, or 1 (nothing set) for any other object. */
static inline int dynac_exact_float(PyObject *o, double *out) {
  if (!PyFloat_CheckExact(o) && (PyObject *)Py_TYPE(o) != dynac_np_type('d')) return 1;
  *out = PyFloat_AS_DOUBLE(o); /* numpy.float64 keeps its value where float does */
  return 0;
}

/* ---- numpy ufuncs of numbers (np.tanh(a[i]), np.maximum(x, 0.0)) ----------
 * numpy's own float64 inner loop, called on one item as numpy calls it for
 * numbers: the same bits (numpy may use its own SIMD exp or log where libm
 * would differ in the last bit). The loop is found once per call site in
 * the ufunc's table of legacy loops: the leading fields of numpy's public
 * PyUFuncObject (numpy/ufuncobject.h; their layout has held since numpy
 * 1.0), read only after the type's name says it is a numpy.ufunc. */
typedef void (*dynac_ufunc_loop)(char **args, const Py_ssize_t *dims, const Py_ssize_t *steps, void *data);
typedef struct dynac__ufunc_head {
  PyObject_HEAD
  int nin, nout, nargs;
  int identity;
  dynac_ufunc_loop *functions; /* ntypes loops */
  void **data;                 /* each loop's data (a C function for the generic d_d loops) */
  int ntypes;
  int reserved1;
  const char *name;
  char *types;                 /* ntypes * nargs type numbers */
} dynac__ufunc_head;
enum { DYNAC__NPY_DOUBLE = 12 }; /* numpy's type number of float64 */
/* A call site's loop: found in `ufunc` (a strong reference, kept for the
 * process), or none yet. */
typedef struct dynac_ufunc_cache {
  PyObject *ufunc;
  dynac_ufunc_loop loop;
  void *data;
  PyObject *dict;              /* the module dict the name was found in (borrowed), */
  uint64_t version;            /* unchanged since (its version tag): ufunc is still there */
  PyObject *module;            /* the module o the ufunc was found in (a strong reference: its
                                  dict is `dict` for as long as the cache holds it), or NULL */
  char exact;                  /* set by the call site: numpy's loop is IEEE's exact operation, done
                                  here in C once the ufunc is numpy's own of that name: 's' sqrt,
                                  'a' absolute, 'f' floor, 'c' ceil, 't' trunc; 0 none */
} dynac_ufunc_cache;

/* Fills c with the all-float64 loop of ufunc f (borrowed) taking nin
 * inputs and giving one output: 1, or 0 when f is no such ufunc. */
static DYNAC_NOINLINE int dynac__ufunc_find(dynac_ufunc_cache *c, PyObject *f, int nin) {
  if (strcmp(Py_TYPE(f)->tp_name, "numpy.ufunc")) return 0;
  const dynac__ufunc_head *u = (const dynac__ufunc_head *)f;
  if (u->nin != nin || u->nout != 1 || u->nargs != nin + 1 || !u->types || !u->functions) return 0;
  if (c->exact) { /* computed in C: only numpy's own ufunc of that name */
    static const char *const names[] = {"sqrt", "absolute", "floor", "ceil", "trunc"};
    const char *want = names[strchr("safct", c->exact) - "safct"];
    if (!u->name || strcmp(u->name, want)) return 0;
  }
  for (int k = 0; k < u->ntypes; k++) {
    int all = 1;
    for (int j = 0; j <= nin; j++) all &= u->types[k * u->nargs + j] == DYNAC__NPY_DOUBLE;
    if (!all || !u->functions[k]) continue;
    Py_INCREF(f);
    Py_XSETREF(c->ufunc, f);
    c->loop = u->functions[k];
    c->data = u->data ? u->data[k] : NULL;
    return 1;
  }
  return 0;
}

/* Is f a numpy ufunc of nin inputs with a float64 loop (then in c)? A
 * fused loop calls it a block at a time (generator/emit/fusion.c). */
static inline int dynac_np_ufunc_loop(dynac_ufunc_cache *c, PyObject *f, int nin) {
  return f == c->ufunc || dynac__ufunc_find(c, f, nin);
}
/* The ufunc ndarray's operator `name` calls (floor_divide for //,
 * remainder for %, power for **: numpy's number protocol, n_ops), from
 * numpy.core.umath, into the call site's *slot, held for the process
 * (borrowed). None where it cannot be had (the check of its loop then
 * fails: numpy's operator runs). */
static DYNAC_NOINLINE PyObject *dynac_np_operator_ufunc(const char *name, PyObject **slot) {
  PyObject *m = PyImport_ImportModule("numpy.core.umath");
  PyObject *f = m ? PyObject_GetAttrString(m, name) : NULL;
  Py_XDECREF(m);
  if (!f) PyErr_Clear();
  *slot = f ? f : Py_NewRef(Py_None);
  return *slot;
}
/* Does numpy compute array ** x by a shortcut (fast_scalar_power: 1
 * positive, -1 reciprocal, 0 ones, 0.5 sqrt, 2 square) rather than by its
 * power loop? */
static inline int dynac_np_power_shortcut(double x) {
  return x == 1.0 || x == -1.0 || x == 0.0 || x == 0.5 || x == 2.0;
}
enum { DYNAC_FUSE_BLOCK = 128 }; /* items per block of a fused loop with numpy's loops in it */

/* np.NAME(x...) of nin numbers as float64 (`in`), into *out. `o` is the
 * module (name: the attribute, an interned str) or, with name NULL, the
 * callee itself (a name imported from numpy). 0 with the result; 1 when
 * the kernel deoptimises: o.NAME is not a numpy ufunc with a float64 loop
 * (the interpreter calls whatever it is); -1 with the attribute lookup's
 * exception. *effects is set when the lookup may have run Python code. */
static DYNAC_NOINLINE int dynac__np_ufunc_found(dynac_ufunc_cache *c, PyObject *o, PyObject *name, int nin,
                                                 const double *in, double *out, int *effects);
/* IEEE's exact operation `exact` (dynac_ufunc_cache.exact, not 0): numpy's loop gives these bits. */
static inline double dynac__np_exact(char exact, double x) {
  switch (exact) {
  case 's': return dynac_sqrt(x);
  case 'a': return fabs(x);
  case 'f': return floor(x);
  case 'c': return ceil(x);
  default: return trunc(x);
  }
}
static inline int dynac_np_ufunc(dynac_ufunc_cache *c, PyObject *o, PyObject *name, int nin,
                                 const double *in, double *out, int *effects) {
  if (DYNAC_LIKELY(o == c->module && c->exact && DYNAC_DICT_VERSION(c->dict) == c->version)) {
    *out = dynac__np_exact(c->exact, in[0]); /* np.sqrt of an item in a loop: no call (GCC keeps the registers) */
    return 0;
  }
  Py_INCREF(o); /* o may be borrowed (dynac_load_global_borrowed): held while Python code may run */
  int st = dynac__np_ufunc_found(c, o, name, nin, in, out, effects);
  Py_DECREF(o);
  return st;
}
/* np.NAME(x) of an exact ufunc in a speculative loop (speculate.c): is o
 * (np, as its LOAD_GLOBAL cache holds it) the module in which the ufunc's
 * cache found numpy's own NAME, unchanged since? Both caches are filled by
 * the checked copy of the loop, which shares them. No call (a miss fails
 * to the checked copy): nothing in the loop then writes memory, and GCC
 * takes these tests out of it. */
static inline int dynac_np_exact_cached(const dynac_ufunc_cache *c, PyObject *o) {
  return o == c->module && c->exact && DYNAC_DICT_VERSION(c->dict) == c->version;
}
/* dynac_np_ufunc's way when the module's dict changed, or for the first
 * call, or for a loop of numpy's: the lookup and the call. */
static DYNAC_NOINLINE int dynac__np_ufunc_found(dynac_ufunc_cache *c, PyObject *o, PyObject *name, int nin,
                                                 const double *in, double *out, int *effects) {
  PyObject *f = o;
  PyObject *d = name && PyModule_CheckExact(o) ? PyModule_GetDict(o) : NULL;
  if (d && d == c->dict && DYNAC_DICT_VERSION(d) == c->version) {
    f = c->ufunc; /* nothing in the module changed since it was found */
  } else if (name) {
    f = d ? PyDict_GetItemWithError(d, name) : NULL; /* borrowed */
    if (!f && PyErr_Occurred()) return -1;
    if (!f) {
      PyObject *g = dynac_obj_getattr(o, name, effects);
      if (!g) return -1;
      Py_DECREF(g); /* a __getattr__'s answer: the interpreter's to call */
      return 1;
    }
  }
  if (DYNAC_UNLIKELY(f != c->ufunc)) {
    if (!dynac__ufunc_find(c, f, nin)) return 1;
  }
  if (d && (d != c->dict || DYNAC_DICT_VERSION(d) != c->version)) { /* found in o as it is now */
    c->dict = d;
    c->version = DYNAC_DICT_VERSION(d);
    if (c->module != o) Py_XSETREF(c->module, Py_NewRef(o));
  }
  if (c->exact) { /* IEEE's exact operations: numpy's loops give these bits */
    *out = dynac__np_exact(c->exact, in[0]);
    return 0;
  }
  /* inputs and output apart, as numpy's own 0-d arrays are: its SIMD loops
     take a slower scalar path (libm's bits) when the output touches an input */
  double io[6] = {in[0], nin > 1 ? in[1] : 0.0, 0.0, 0.0, 0.0, 0.0};
  char *args[3] = {(char *)&io[0], (char *)&io[1], (char *)&io[5]};
  args[nin] = (char *)&io[5];
  const Py_ssize_t dims[1] = {1}, steps[3] = {sizeof(double), sizeof(double), sizeof(double)};
  c->loop(args, dims, steps, c->data);
  *out = io[5];
  return 0;
}
/* The same call through numpy's own machinery (the arguments as
 * numpy.float64s), for a result that is inf or nan, where numpy may warn,
 * or raise under np.errstate: 0 with the value; 1 when the result is not a
 * float or numpy.float64 (a replaced function); -1 with its exception. */
static DYNAC_NOINLINE int dynac_np_ufunc_api(PyObject *o, PyObject *name, int nin, const double *in, double *out) {
  PyObject *f = name ? PyObject_GetAttr(o, name) : Py_NewRef(o);
  if (!f) return -1;
  PyObject *argv[2] = {NULL, NULL};
  int ok = 1;
  for (int i = 0; i < nin; i++) ok &= (argv[i] = dynac_box_np_float64(in[i])) != NULL;
  PyObject *r = ok ? PyObject_Vectorcall(f, argv, (size_t)nin, NULL) : NULL;
  for (int i = 0; i < nin; i++) Py_XDECREF(argv[i]);
  Py_DECREF(f);
  if (!r) return -1;
  int other = dynac_exact_float(r, out);
  Py_DECREF(r);
  return other;
}

/* The bits of x - x: 0 for a finite x, a nan's (never 0) for inf or nan.
 * A speculative loop ORs them into one word per loop (speculate.c): one
 * subtraction off the loop's dependence chains and an OR on it (1 cycle)
 * per numpy operation, where isfinite's compare and flag took five
 * instructions and a sum of x - x put 4 cycles per operation on the chain. */
static inline uint64_t dynac_nonfinite_bits(double x) {
  double z = x - x;
  uint64_t b;
  memcpy(&b, &z, sizeof b);
  return b;
}
/* numpy wraps integers silently or with a warning where Python's do not:
 * does x fit dtype fmt? */
static inline int dynac_np_fits(int64_t x, char fmt) {
  switch (fmt) {
  case 'i': return x >= INT32_MIN && x <= INT32_MAX;
  case 'h': return x >= -32768 && x <= 32767;
  case 'b': return x >= -128 && x <= 127;
  case 'B': return x >= 0 && x <= 255;
  default: return 1;
  }
}
/* A float stored into an integer ndarray: the truncated value, or 1 when it
 * is not finite or out of the dtype's range (numpy raises or wraps). */
static inline int dynac_np_float_to_item(double x, char fmt, int64_t *out) {
  if (!(x > -9.2233720368547758e18 && x < 9.2233720368547758e18)) return 1;
  *out = (int64_t)x;
  return !dynac_np_fits(*out, fmt);
}

/* ---- whole-array expressions in one loop (the generator's fusion.c) -------
 * Each loop is a function of its own, which GCC vectorises and clones for
 * AVX-512 and AVX2 (picked when the module loads, by the CPU it runs on).
 * Element-wise IEEE operations give the same bits in any width; no FMA. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define DYNAC_FUSED_LOOP \
  __attribute__((noinline, optimize("tree-vectorize", "fp-contract=off"), \
                 target_clones("avx512f", "avx2", "default")))
#else
#define DYNAC_FUSED_LOOP __attribute__((noinline))
#endif
/* A new C-contiguous float64 array of shape (n0,) or (n0, n1), as
 * numpy.empty makes it (new reference; NULL with numpy's exception), and
 * where its items are (*data: valid while the array lives). */
static DYNAC_NOINLINE PyObject *dynac_np_empty(int ndim, Py_ssize_t n0, Py_ssize_t n1, double **data) {
  static PyObject *empty; /* numpy.empty, looked up once (kept for the process) */
  if (!empty) {
    PyObject *np = PyImport_ImportModule("numpy");
    empty = np ? PyObject_GetAttrString(np, "empty") : NULL;
    Py_XDECREF(np);
    if (!empty) return NULL;
  }
  PyObject *shape = ndim == 1 ? PyLong_FromSsize_t(n0) : Py_BuildValue("(nn)", n0, n1);
  PyObject *a = shape ? PyObject_CallOneArg(empty, shape) : NULL;
  Py_XDECREF(shape);
  Py_buffer pb;
  if (!a || PyObject_GetBuffer(a, &pb, PyBUF_WRITABLE) < 0) { Py_XDECREF(a); return NULL; }
  *data = (double *)pb.buf; /* numpy's release keeps the memory: the array owns it */
  PyBuffer_Release(&pb);
  return a;
}
/* builtins.sum(items) (the guard has checked that `sum` names it): a new
 * reference, or NULL with its exception. */
static DYNAC_NOINLINE PyObject *dynac_builtin_sum(PyObject *items) {
  static PyObject *sum; /* looked up once (kept for the process) */
  if (!sum) {
    PyObject *b = PyImport_ImportModule("builtins");
    sum = b ? PyObject_GetAttrString(b, "sum") : NULL;
    Py_XDECREF(b);
    if (!sum) return NULL;
  }
  return PyObject_CallOneArg(sum, items);
}
/* Are view v's rows laid out as C orders them (numpy's result of the same
 * shape from such operands is C-contiguous)? Not for one row or column,
 * whose order numpy may choose either way. */
static inline int dynac_rows_in_c_order(const dynac_view *v) {
  return v->len > 1 && v->len1 > 1 && v->stride1 > 0 && v->stride >= v->stride1 * v->len1;
}
/* numpy's broadcasting of the n operands of a 2-D whole-array
 * expression: views vs[i] (rows[i] '1': a 1-D one, numpy's row (1, len);
 * '2': 2-D). Each axis of the result is as long as the operands' that are
 * not 1; *shape gets it (len, len1). 1 when the operands broadcast and
 * numpy's result is C-ordered as the fused loop's is: more than one row and
 * column, and every operand numpy's iterator asks about the order (no axis
 * of length 1: see npyiter's axis ordering, which stride-0 axes do not
 * vote in) has its rows in C order; else 0 (numpy's operations then). */
static inline int dynac_broadcast2(const dynac_view *const *vs, const char *rows, int n, dynac_view *shape) {
  Py_ssize_t n0 = 1, n1 = 1;
  for (int i = 0; i < n; i++) {
    Py_ssize_t l0 = rows[i] == '1' ? 1 : vs[i]->len, l1 = rows[i] == '1' ? vs[i]->len : vs[i]->len1;
    if (l0 != 1 && n0 != 1 && l0 != n0) return 0;
    if (l1 != 1 && n1 != 1 && l1 != n1) return 0;
    if (l0 != 1) n0 = l0;
    if (l1 != 1) n1 = l1;
    if (rows[i] != '1' && l0 > 1 && l1 > 1 && !dynac_rows_in_c_order(vs[i])) return 0;
  }
  shape->len = n0, shape->len1 = n1;
  return n0 > 1 && n1 > 1;
}
/* An axis's stride in the loop: 0 where numpy broadcasts it (length 1). */
#define DYNAC_BSTRIDE(len, stride) ((len) == 1 ? 0 : (stride))
/* Scratch of this many bytes or more is an ndarray numpy allocates (its
 * allocator asks the kernel for huge pages and caches freed blocks: a
 * large buffer from malloc costs a page fault per 4 KiB at each call). */
#define DYNAC_SCRATCH_NUMPY_MIN (256 * 1024)
/* A C-ordered scratch of float64 items shaped as view `like` (1-D or
 * 2-D), for a fused value the target overlaps or an in-place operator
 * writes after its loop: 1, or 0 with an exception set (MemoryError).
 * Release with dynac_scratch_free. */
static inline int dynac_scratch_like(const dynac_view *like, int ndim, dynac_view *tmp) {
  Py_ssize_t rows = ndim == 2 ? like->len : 1, cols = ndim == 2 ? like->len1 : like->len;
  size_t bytes = sizeof(double) * (size_t)(rows * cols > 0 ? rows * cols : 1);
  memset(tmp, 0, sizeof *tmp);
  if (bytes >= DYNAC_SCRATCH_NUMPY_MIN) { /* owned by tmp->obj */
    double *data = NULL;
    tmp->obj = dynac_np_empty(1, rows * cols, 0, &data);
    if (!tmp->obj) return 0;
    tmp->buf = (char *)data;
  } else {
    tmp->buf = (char *)PyMem_Malloc(bytes);
    if (!tmp->buf) { PyErr_NoMemory(); return 0; }
  }
  tmp->len = like->len;
  tmp->len1 = like->len1;
  tmp->stride = ndim == 2 ? cols * (Py_ssize_t)sizeof(double) : (Py_ssize_t)sizeof(double);
  tmp->stride1 = (Py_ssize_t)sizeof(double);
  tmp->live_flags = &dynac__flags_writable;
  return 1;
}
/* a op= v: numpy's in-place ufunc writes a in one pass after making v
 * (a temporary per operation in v); the fused loop computes a op v into
 * scratch in one pass, then copies it into a. Above this many items of a
 * 1-D a, where v is a leaf or one operation, numpy's passes cost no more
 * than the copy and its call's overhead is small: the kernel calls numpy
 * (measured on this machine's AVX-512 numpy: a /= s is even at n = 10,000,
 * a += b * s 0.8x at n = 10^6; a += b * s + 0.5 is even there; 2-D slices
 * 1.7x at 2000 x 2000). */
#define DYNAC_INPLACE_SHORT_MAX 8192
/* Releases scratch made by dynac_scratch_like. */
static inline void dynac_scratch_free(dynac_view *tmp) {
  if (tmp->obj) Py_CLEAR(tmp->obj);
  else PyMem_Free(tmp->buf);
  tmp->buf = NULL;
}
/* Copies the items of C-ordered scratch src into view dst (same shape, any
 * strides): numpy's setitem of a computed value, after the computing. */
static inline void dynac_scratch_store(const dynac_view *dst, const dynac_view *src, int ndim) {
  Py_ssize_t rows = ndim == 2 ? dst->len : 1, cols = ndim == 2 ? dst->len1 : dst->len;
  Py_ssize_t rstride = ndim == 2 ? dst->stride : 0, istride = ndim == 2 ? dst->stride1 : dst->stride;
  const double *s = (const double *)src->buf;
  for (Py_ssize_t i = 0; i < rows; i++) {
    char *row = dst->buf + i * rstride;
    if (istride == (Py_ssize_t)sizeof(double)) memcpy(row, s + i * cols, sizeof(double) * (size_t)cols);
    else for (Py_ssize_t j = 0; j < cols; j++) *(double *)(row + j * istride) = s[i * cols + j];
  }
}
/* Row i (Python's negative i too) of 2-D view a, read in place as a 1-D
 * view of no object (a fused loop's leaf): 1, or 0 when i is out of range. */
static inline int dynac_row_view(const dynac_view *a, int64_t i, dynac_view *row) {
  if (i < 0) i += a->len;
  if (i < 0 || i >= a->len) return 0;
  memset(row, 0, sizeof *row);
  row->buf = a->buf + (Py_ssize_t)i * a->stride;
  row->len = a->len1;
  row->stride = a->stride1;
  row->readonly = a->readonly;
  row->live_flags = a->live_flags;
  row->fresh = a->fresh;
  Py_ssize_t ext = a->len1 > 0 ? (a->len1 - 1) * a->stride1 : 0;
  row->span = ext < 0 ? row->buf + ext : row->buf;
  row->span_len = a->len1 > 0 ? (ext < 0 ? -ext : ext) + (Py_ssize_t)sizeof(double) : 0;
  return 1;
}
/* numpy's own a[i] (a view; its IndexError): a new reference, or NULL. */
static inline PyObject *dynac_row_object(const dynac_view *a, int64_t i) {
  PyObject *k = PyLong_FromLongLong(i);
  PyObject *r = k ? PyObject_GetItem(a->obj, k) : NULL;
  Py_XDECREF(k);
  return r;
}
/* Is f numpy's ufunc named `name` (np.sqrt not replaced)? */
static DYNAC_NOINLINE int dynac__np_is_ufunc(PyObject *f, const char *name) {
  if (strcmp(Py_TYPE(f)->tp_name, "numpy.ufunc")) return 0;
  PyObject *n = PyObject_GetAttrString(f, "__name__");
  int ok = n && PyUnicode_Check(n) && PyUnicode_CompareWithASCIIString(n, name) == 0;
  Py_XDECREF(n);
  if (!n) PyErr_Clear();
  return ok;
}
static inline int dynac_np_is_ufunc(PyObject *f, const char *name) {
  static PyObject *seen[4]; /* ufuncs found to be numpy's (held for the process) */
  for (int i = 0; i < 4 && seen[i]; i++)
    if (seen[i] == f) return 1;
  if (!dynac__np_is_ufunc(f, name)) return 0;
  for (int i = 0; i < 4; i++)
    if (!seen[i]) { seen[i] = Py_NewRef(f); break; }
  return 1;
}
/* Around a loop doing numpy's float operations: the FPU's exception flags
 * the kernel had are kept aside (dynac_fpe_begin returns them) and cleared;
 * after it, dynac_fpe_end says whether numpy would have reported one
 * (divide by zero, overflow, invalid; underflow when numpy's mode is not
 * 'ignore') and puts the earlier flags back. The compiler does not order
 * float arithmetic with these reads (no -frounding-math): both are memory
 * barriers (loads and stores stay between them), and a result the loop
 * keeps in a register (a sum) is pinned with DYNAC_FP_DONE before
 * dynac_fpe_end, or GCC may compute it after the flags were read (it did:
 * sum() of [inf, -inf] missed numpy's "invalid value" warning). */
#define DYNAC_FP_DONE(x) __asm__ __volatile__("" : "+m"(x) : : "memory")
#define DYNAC__FP_BARRIER() __asm__ __volatile__("" : : : "memory")
#if defined(__SSE2__)
/* x86-64 computes doubles in SSE: its flags are MXCSR's low six bits (invalid
 * 0x01, denormal 0x02, divide-by-zero 0x04, overflow 0x08, underflow 0x10,
 * inexact 0x20), read and written in a few cycles where glibc's
 * feclearexcept/feraiseexcept also rewrite the x87 environment (slower than
 * a small fused loop). */
#include <xmmintrin.h>
static inline int dynac_fpe_begin(void) {
  unsigned int csr = _mm_getcsr();
  _mm_setcsr(csr & ~0x3Fu);
  DYNAC__FP_BARRIER();
  return (int)(csr & 0x3Fu);
}
static inline int dynac_fpe_end(int was) {
  DYNAC__FP_BARRIER();
  unsigned int csr = _mm_getcsr();
  int report = (csr & (0x01u | 0x04u | 0x08u)) != 0;
  if (!report && (csr & 0x10u)) report = dynac__np_underflow_noticed();
  _mm_setcsr((_mm_getcsr() & ~0x3Fu) | (unsigned int)was);
  return report;
}
static inline int dynac_fpe_flags(void) {
  DYNAC__FP_BARRIER();
  return (int)(_mm_getcsr() & 0x3Fu);
}
static inline void dynac_fpe_add(int flags) {
  DYNAC__FP_BARRIER();
  _mm_setcsr(_mm_getcsr() | (unsigned int)flags);
}
#else
static inline int dynac_fpe_begin(void) {
  int was = fetestexcept(FE_ALL_EXCEPT);
  feclearexcept(FE_ALL_EXCEPT);
  DYNAC__FP_BARRIER();
  return was;
}
static inline int dynac_fpe_end(int was) {
  DYNAC__FP_BARRIER();
  int now = fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_INVALID | FE_UNDERFLOW);
  int report = (now & (FE_DIVBYZERO | FE_OVERFLOW | FE_INVALID)) != 0;
  if (!report && (now & FE_UNDERFLOW)) report = dynac__np_underflow_noticed();
  feclearexcept(FE_ALL_EXCEPT);
  if (was) feraiseexcept(was);
  return report;
}
static inline int dynac_fpe_flags(void) {
  DYNAC__FP_BARRIER();
  return fetestexcept(FE_ALL_EXCEPT);
}
static inline void dynac_fpe_add(int flags) {
  DYNAC__FP_BARRIER();
  if (flags) feraiseexcept(flags);
}
#endif
/* dynac_fpe_flags / dynac_fpe_add: around a call of one of numpy's inner
 * loops in a fused loop, the flags raised so far are kept: numpy's
 * minimum/maximum loops clear them on their way out (a nan they compare
 * sets "invalid", which they do not report), which lost the "invalid" of
 * -inf * 0.0 computed before np.minimum (fuzz seed 111). */
/* numpy's pairwise summation of float64 items (numpy/core/src/umath/
 * loops_utils.h.src, pairwise_sum). np.sum of a 1-D array starts from the
 * identity 0.0 and adds the pairwise sum of each chunk of numpy's buffer
 * size (np.getbufsize(), 8192 items unless set), in order. Within a chunk a
 * range of more than 128 items is split in two at a multiple of 8 below its
 * half; a block of at most 128 is summed by dynac_pw_block. A fused sum
 * computes each block's items into a buffer, sums it, and combines the
 * blocks' sums as the recursion does (dynac_pw_combine), so the result is
 * numpy's, bit for bit. */
#define DYNAC_PW_BLOCK 128
static inline double dynac_pw_block(const double *a, Py_ssize_t n) {
  if (n < 8) {
    double res = 0.;
    for (Py_ssize_t i = 0; i < n; i++) res += a[i];
    return res;
  }
  double r[8];
  for (int k = 0; k < 8; k++) r[k] = a[k];
  Py_ssize_t i;
  for (i = 8; i < n - (n % 8); i += 8)
    for (int k = 0; k < 8; k++) r[k] += a[i + k];
  double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (; i < n; i++) res += a[i];
  return res;
}
/* The lengths of the blocks of n items, in order (NULL: count only); their number. */
static inline Py_ssize_t dynac_pw_blocks(Py_ssize_t n, Py_ssize_t *lens) {
  if (n <= DYNAC_PW_BLOCK) {
    if (lens) lens[0] = n;
    return 1;
  }
  Py_ssize_t n2 = n / 2;
  n2 -= n2 % 8;
  Py_ssize_t k = dynac_pw_blocks(n2, lens);
  return k + dynac_pw_blocks(n - n2, lens ? lens + k : NULL);
}
static inline double dynac__pw_combine(Py_ssize_t n, const double **sums) {
  if (n <= DYNAC_PW_BLOCK) return *(*sums)++;
  Py_ssize_t n2 = n / 2;
  n2 -= n2 % 8;
  double a = dynac__pw_combine(n2, sums);
  return a + dynac__pw_combine(n - n2, sums);
}
/* The sum of n items whose blocks (dynac_pw_blocks) summed to `sums`. */
static inline double dynac_pw_combine(Py_ssize_t n, const double *sums) {
  return n ? dynac__pw_combine(n, &sums) : 0.;
}
/* numpy's buffer size (items), which np.sum's chunks have; 0 with an
 * exception when it cannot be had. */
enum { DYNAC_NP_MIN_BUFSIZE = 16 }; /* np.setbufsize refuses less (and any non-multiple of 16) */
static DYNAC_NOINLINE Py_ssize_t dynac_np_bufsize(void) {
  static PyObject *get; /* numpy.getbufsize, kept for the process */
  if (!get) {
    PyObject *np = PyImport_ImportModule("numpy");
    get = np ? PyObject_GetAttrString(np, "getbufsize") : NULL;
    Py_XDECREF(np);
    if (!get) return 0;
  }
  PyObject *r = PyObject_CallNoArgs(get);
  Py_ssize_t n = r ? PyLong_AsSsize_t(r) : 0;
  Py_XDECREF(r);
  if (n <= 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "numpy's buffer size is not positive");
  return n > 0 ? n : 0;
}
/* Is f numpy's own np.sum, np.mean or np.where (`name`, a literal;
 * numpy.core's fromnumeric.sum/mean, multiarray.where: not replaced)? The
 * test is inline once the function was found (a loop calling np.sum per
 * item keeps its registers). */
static PyObject *dynac__np_own[3]; /* numpy's sum, mean, where: held for the process */
static DYNAC_NOINLINE int dynac__np_find_own(PyObject *f, int k) {
  static const char *const names[] = {"sum", "mean", "where"};
  if (!dynac__np_own[k]) {
    PyObject *m = PyImport_ImportModule(k < 2 ? "numpy.core.fromnumeric" : "numpy.core.multiarray");
    dynac__np_own[k] = m ? PyObject_GetAttrString(m, names[k]) : NULL;
    Py_XDECREF(m);
    if (!dynac__np_own[k]) { PyErr_Clear(); return 0; }
  }
  return f == dynac__np_own[k];
}
static inline int dynac_np_is_own(PyObject *f, const char *name) {
  int k = name[0] == 's' ? 0 : name[0] == 'm' ? 1 : 2;
  return f == dynac__np_own[k] || dynac__np_find_own(f, k);
}
/* module.name of a module (LOAD_ATTR), cached while the module's dict
 * keeps its version: a new reference, or NULL with the exception. Only
 * an attribute found in the module's dict is cached (ModuleType's own
 * data descriptors, __dict__ or __class__, are never such names). */
typedef struct dynac_module_attr_cache {
  PyObject *module, *value; /* strong references, held for the process */
  PyObject *dict;           /* the module's dict (it has no other while the cache holds the module) */
  uint64_t version;
} dynac_module_attr_cache;
static DYNAC_NOINLINE PyObject *dynac__module_attr_miss(dynac_module_attr_cache *c, PyObject *m, PyObject *name) {
  PyObject *v = PyObject_GetAttr(m, name);
  if (!v || !PyModule_CheckExact(m)) return v;
  PyObject *d = PyModule_GetDict(m);
  if (PyDict_GetItemWithError(d, name) != v) { PyErr_Clear(); return v; } /* a module __getattr__'s answer */
  Py_XSETREF(c->module, Py_NewRef(m));
  Py_XSETREF(c->value, Py_NewRef(v));
  c->dict = d;
  c->version = DYNAC_DICT_VERSION(d);
  return v;
}
static inline PyObject *dynac_module_attr(dynac_module_attr_cache *c, PyObject *m, PyObject *name) {
  if (DYNAC_LIKELY(m == c->module && DYNAC_DICT_VERSION(c->dict) == c->version))
    return Py_NewRef(c->value);
  return dynac__module_attr_miss(c, m, name);
}
/* numpy's temporary elision (numpy/core/src/multiarray/temp_elide.c), which
 * numpy does only when the interpreter's own stack holds the operands: in
 * `a * b + c` the product, which nobody else holds, takes the sum in place
 * (no new array). A kernel's operation results are such temporaries too;
 * `tmp OP r` (or `r OP tmp` for + and *, numpy's commutative case) runs as
 * numpy's in-place operator when tmp is an ndarray of float64 or float32
 * held by nothing but the kernel's temporary (reference count 1), of at
 * least numpy's 256 KiB, writable, and r is a Python float or int, or an
 * ndarray of tmp's dtype and shape: then numpy computes the same items into
 * tmp. Returns -1 when the operation is not such a case. */
#define DYNAC_ELIDE_BYTES (256 * 1024)
static DYNAC_NOINLINE int dynac__np_elidable(PyObject *tmp, PyObject *r) {
  if (Py_REFCNT(tmp) != 1 || strcmp(Py_TYPE(tmp)->tp_name, "numpy.ndarray")) return 0;
  Py_buffer a, b;
  if (PyObject_GetBuffer(tmp, &a, PyBUF_RECORDS_RO) < 0) { PyErr_Clear(); return 0; }
  char f = dynac_native_format(a.format);
  int ok = (f == 'd' || f == 'f') && !a.readonly && a.len >= DYNAC_ELIDE_BYTES;
  if (ok && !PyFloat_CheckExact(r) && !PyLong_CheckExact(r)) {
    ok = !strcmp(Py_TYPE(r)->tp_name, "numpy.ndarray") && PyObject_GetBuffer(r, &b, PyBUF_RECORDS_RO) == 0;
    if (!ok) PyErr_Clear();
    else {
      ok = dynac_native_format(b.format) == f && b.ndim == a.ndim;
      for (int d = 0; ok && d < a.ndim; d++) ok = a.shape[d] == b.shape[d];
      PyBuffer_Release(&b);
    }
  }
  PyBuffer_Release(&a);
  return ok;
}
/* l OP r where `l_temp` / `r_temp` say which operand is a temporary of the
 * kernel (an operation's result it holds alone): numpy's elision, else the
 * operation (dynac_obj_binop). New reference; NULL with the exception. */
static inline PyObject *dynac_obj_binop_temps(PyObject *l, PyObject *r, int op, int l_temp, int r_temp,
                                              int *effects) {
  /* (a Python number, the common temporary of generic code, is never an array: no call) */
  l_temp = l_temp && Py_REFCNT(l) == 1 && !PyLong_CheckExact(l) && !PyFloat_CheckExact(l);
  r_temp = r_temp && Py_REFCNT(r) == 1 && !PyLong_CheckExact(r) && !PyFloat_CheckExact(r);
  if ((op <= 3 || op == 6) && l_temp && dynac__np_elidable(l, r)) return dynac_obj_inplace(l, r, op, effects);
  if ((op == 0 || op == 2) && r_temp && dynac__np_elidable(r, l)) return dynac_obj_inplace(r, l, op, effects);
  return dynac_obj_binop(l, r, op, effects);
}
