/* runtime/boxing.h: boxing, unboxing, C-API calls, the eval breaker, tracebacks. A part of single_include/dynac.h (make single_include). */

/* Boxing: new references, NULL with MemoryError on failure. */
static inline PyObject *dynac_box_int(int64_t v) { return PyLong_FromLongLong(v); }
static inline PyObject *dynac_box_float(double v) { return PyFloat_FromDouble(v); }
/* A parameter's value boxed once per call: *kept (the kernel's bx_NAME,
 * released when it returns) taken at the first use and shared by the rest,
 * as the caller's one object is in the interpreter. It is the caller's own
 * object when the caller passed one (args, the kernel's dynac__args,
 * borrowed: the glue's argument objects, or a kernel's call's literals;
 * args[i], when not NULL, an exact float or int of value v), else (args or
 * args[i] NULL: another kernel called it with C values) v boxed. A new
 * reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_param_float(PyObject **kept, double v, PyObject *const *args, int i) {
  if (!*kept) *kept = args && args[i] ? Py_NewRef(args[i]) : dynac_box_float(v);
  return Py_XNewRef(*kept);
}
static inline PyObject *dynac_box_param_int(PyObject **kept, int64_t v, PyObject *const *args, int i) {
  if (!*kept) *kept = args && args[i] ? Py_NewRef(args[i]) : dynac_box_int(v);
  return Py_XNewRef(*kept);
}
/* A parameter read once boxed: the caller's object as above, without
 * keeping it (`self.x = x` stores the caller's float, as CPython's
 * STORE_ATTR does), else v boxed. A new reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_param_once_float(double v, PyObject *const *args, int i) {
  return args && args[i] ? Py_NewRef(args[i]) : dynac_box_float(v);
}
static inline PyObject *dynac_box_param_once_int(int64_t v, PyObject *const *args, int i) {
  return args && args[i] ? Py_NewRef(args[i]) : dynac_box_int(v);
}
/* Float literal `literal`'s one object of the module (*made, made at the
 * first use and kept for the process, as a code object keeps its
 * constants), for a kernel's call to pass (dynac__args): borrowed, or NULL
 * (no exception set) when it could not be made, the callee then boxing the
 * value itself. */
static inline PyObject *dynac_float_literal_object(PyObject **made, double literal) {
  if (!*made && !(*made = dynac_box_float(literal))) PyErr_Clear();
  return *made;
}
/* The result of a kernel whose code returns the float literal `literal`
 * (`return 0.1`): that literal's one object (*made, made at the first use and
 * kept for the process) when v has its bits, else a new float. CPython
 * returns the code object's constant there, so a list of such results holds
 * one object, not one per element (a ray tracer's background pixels: 45,000
 * floats, 260 pages). A new reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_float_literal(double v, double literal, PyObject **made) {
  if (memcmp(&v, &literal, sizeof v)) return dynac_box_float(v); /* -0.0 and 0.0 differ too */
  if (!*made) *made = dynac_box_float(literal);
  return Py_XNewRef(*made);
}
/* The tuple of n new references (taken over), or NULL with MemoryError
 * when one of them is NULL or the tuple cannot be made (the rest released). */
static inline PyObject *dynac_tuple_steal(Py_ssize_t n, PyObject **items) {
  PyObject *r = NULL;
  int ok = 1;
  for (Py_ssize_t i = 0; i < n; i++) ok = ok && items[i];
  if (ok) r = PyTuple_New(n);
  for (Py_ssize_t i = 0; i < n; i++)
    if (r) PyTuple_SET_ITEM(r, i, items[i]);
    else Py_XDECREF(items[i]);
  return r;
}
/* None as a kernel value (a tuple field, a live-in) is a bool that is never
 * read: boxing gives a new reference to None, unboxing tests identity. */
static inline PyObject *dynac_box_none(bool v) {
  (void)v;
  return Py_NewRef(Py_None);
}
static inline int dynac_elem_none(PyObject *o, bool *out) {
  *out = false;
  return o != Py_None;
}
static inline PyObject *dynac_box_bool(bool v) {
  PyObject *r = v ? Py_True : Py_False;
  Py_INCREF(r);
  return r;
}

/* Unboxing for guards: exact int within int64. */
static inline int dynac_int64_of(PyObject *v, int64_t *out) {
  long small;
  if (DYNAC_LIKELY(dynac_compat_small_int(v, &small))) return *out = small, 1; /* one digit: no call */
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (overflow) return 0;
  *out = (int64_t)x;
  return 1;
}
/* A loop variable's value v, read from item k of list `list` (the item
 * object `item`), boxed: the item itself while the list still holds it
 * there and it is an exact int (float) of that value, as CPython's loop
 * variable is the item ({k: k * 2 for k in ks} makes no int per key);
 * else v boxed anew. A new reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_int_item(int64_t v, PyObject *item, PyObject *list, int64_t k) {
  int64_t w;
  if ((uint64_t)k < (uint64_t)PyList_GET_SIZE(list) && PyList_GET_ITEM(list, k) == item &&
      PyLong_CheckExact(item) && dynac_int64_of(item, &w) && w == v)
    return Py_NewRef(item);
  return dynac_box_int(v);
}
static inline PyObject *dynac_box_float_item(double v, PyObject *item, PyObject *list, int64_t k) {
  if ((uint64_t)k < (uint64_t)PyList_GET_SIZE(list) && PyList_GET_ITEM(list, k) == item &&
      PyFloat_CheckExact(item) && !memcmp(&((PyFloatObject *)item)->ob_fval, &v, sizeof v)) /* -0.0, NaNs: bits */
    return Py_NewRef(item);
  return dynac_box_float(v);
}
/* A value v read from an instance's attribute whose object the read kept
 * (obj: a reference the kernel owns, or NULL; dynac_attr_int_kept), boxed
 * as that object while it is an exact int (float) of v: CPython's stack
 * holds the attribute's object, so `kind(t, self.seq)` or `(self.customer,
 * self.time)` holds it again rather than an equal new one. Else v boxed
 * anew. A new reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_int_kept(int64_t v, PyObject *obj) {
  int64_t w;
  if (obj && PyLong_CheckExact(obj) && dynac_int64_of(obj, &w) && w == v) return Py_NewRef(obj);
  return dynac_box_int(v);
}
static inline PyObject *dynac_box_float_kept(double v, PyObject *obj) {
  if (obj && PyFloat_CheckExact(obj) && !memcmp(&((PyFloatObject *)obj)->ob_fval, &v, sizeof v)) /* bits */
    return Py_NewRef(obj);
  return dynac_box_float(v);
}
/* The caller's argument object a kernel's result r is, when its code
 * returned a parameter (`return lo` of a clamp; returned: that parameter's
 * index + 1 as its return reported it, dynac__returned_param, else 0) and
 * args (the glue's argument objects) holds it with r's value: CPython's
 * `return x` gives the frame's object, not an equal new one. Borrowed, or
 * NULL (box r). */
static inline PyObject *dynac_returned_float_arg(double r, PyObject *const *args, int returned) {
  PyObject *a = returned ? args[returned - 1] : NULL;
  return a && PyFloat_CheckExact(a) && !memcmp(&((PyFloatObject *)a)->ob_fval, &r, sizeof r) ? a : NULL;
}
static inline PyObject *dynac_returned_int_arg(int64_t r, PyObject *const *args, int returned) {
  PyObject *a = returned ? args[returned - 1] : NULL;
  int64_t v;
  return a && PyLong_CheckExact(a) && dynac_int64_of(a, &v) && v == r ? a : NULL;
}
static inline int dynac_is_int64(PyObject *v) {
  int64_t ignored;
  return PyLong_CheckExact(v) && dynac_int64_of(v, &ignored);
}

/* The number a "float | None" or "int | None" local holds (o borrowed),
 * read where the generator proved it is not None (generator/analysis/
 * narrow.c, as a type checker narrows an Optional): such a local holds only
 * None and what its kernel boxed there, an exact float (dynac_box_float)
 * or an exact int within int64 (dynac_box_int). */
static inline double dynac_held_float(PyObject *o) { return PyFloat_AS_DOUBLE(o); }
static inline int64_t dynac_held_int(PyObject *o) {
  int64_t v = 0;
  (void)dynac_int64_of(o, &v); /* in range: boxed from an int64 */
  return v;
}

static inline PyObject *dynac_box_np(char fmt, double f, int64_t i); /* numpy.h */
/* A number as the object it stands for: an int, a float, a numpy.float64
 * or a numpy.int64 (new reference; NULL with an exception). */
static inline PyObject *dynac_box_num(dynac_num v) {
  if (v.np) return v.isf ? dynac_box_np('d', v.f, 0) : dynac_box_np('l', 0.0, v.i);
  return v.isf ? PyFloat_FromDouble(v.f) : PyLong_FromLongLong(v.i);
}

/* Calls fn (borrowed) with n boxed arguments (stolen; NULL entries mean a
 * boxing failure). Returns a new reference, or NULL with no exception set:
 * the kernel then deoptimises and the interpreter raises CPython's error. */
static inline PyObject *dynac_call_api(PyObject *fn, PyObject **argv, int n) {
  PyObject *r = NULL;
  int ok = 1;
  for (int i = 0; i < n; i++) if (!argv[i]) ok = 0;
  if (ok) r = PyObject_Vectorcall(fn, argv, (size_t)n, NULL);
  for (int i = 0; i < n; i++) Py_XDECREF(argv[i]);
  if (!r) PyErr_Clear();
  return r;
}
/* Unboxing of an API result (stolen): 0 on success, 1 (deoptimise) when it
 * is not exactly of the type the kernel was typed for. */
static inline int dynac_unbox_float(PyObject *r, double *out) {
  if (!r) return 1;
  int bad = !PyFloat_CheckExact(r);
  if (!bad) *out = PyFloat_AS_DOUBLE(r);
  Py_DECREF(r);
  return bad;
}
static inline int dynac_unbox_int(PyObject *r, int64_t *out) {
  if (!r) return 1;
  int bad = !PyLong_CheckExact(r) || !dynac_int64_of(r, out);
  Py_DECREF(r);
  return bad;
}
static inline int dynac_unbox_num(PyObject *r, dynac_num *out) {
  if (!r) return 1;
  int bad = 0;
  if (PyFloat_CheckExact(r)) *out = dynac_num_f(PyFloat_AS_DOUBLE(r));
  else if (PyLong_CheckExact(r) && dynac_int64_of(r, &out->i)) out->isf = false, out->np = false;
  else bad = 1;
  Py_DECREF(r);
  return bad;
}
static inline int dynac_unbox_bool(PyObject *r, bool *out) {
  if (!r) return 1;
  int bad = !PyBool_Check(r);
  if (!bad) *out = r == Py_True;
  Py_DECREF(r);
  return bad;
}

/* Kernel loops do what the interpreter's eval breaker does at a backward
 * jump, every 65536 iterations: the runtime's dynac_rt.eval_breaker runs
 * pending calls and signal handlers (Ctrl-C raises KeyboardInterrupt) and
 * hands the GIL to a thread that asked for it. In a loop whose items'
 * shape was proved before it (shapes.c), no other thread may run.
 * `budget` is the kernel's own int64_t local (a register), counted down
 * from DYNAC_TICK_BUDGET by the iterations run; whoever finds it below 0
 * runs the eval breaker and refills it (Python code may have run then:
 * dynac__py_serial). A loop ticks per iteration: */
#define DYNAC_TICK_BUDGET 65536
#define DYNAC_TICK_IF(spent, budget, may_switch)                                  \
  if (DYNAC_UNLIKELY(spent)) {                                                    \
    (budget) = DYNAC_TICK_BUDGET;                                                 \
    if (dynac__G.rt->eval_breaker(may_switch) < 0) return DYNAC_ERROR;            \
    dynac__py_serial++; /* a handler or another thread may have run */          \
  }
#define DYNAC_LOOP_TICK(budget) DYNAC_TICK_IF(--(budget) < 0, budget, 1)
#define DYNAC_LOOP_TICK_HELD(budget) DYNAC_TICK_IF(--(budget) < 0, budget, 0)
/* An innermost range loop ticks a block of its iterations k..end-1 at once,
 * before the block (`end`, uint64_t: at most DYNAC_TICK_BUDGET past k, n at
 * most): its body holds no counter and no call. */
#define DYNAC_LOOP_BLOCK(budget, k, n, end, may_switch)                           \
  do {                                                                            \
    end = (n) - (k) > DYNAC_TICK_BUDGET ? (k) + DYNAC_TICK_BUDGET : (n);          \
    (budget) -= (int64_t)((end) - (k));                                           \
    DYNAC_TICK_IF((budget) < 0, budget, may_switch)                               \
  } while (0)
/* One nested in a loop that ticks per iteration, and that holds at most
 * DYNAC_TICK_BUDGET iterations, is one block whose count only comes off the
 * budget: the enclosing loop's next tick runs the eval breaker if it is
 * spent. A call on the way back into the enclosing loop's body costs that
 * body its registers (pairwise's `for k in range(d)`: a third of its time). */
#define DYNAC_LOOP_BLOCK_NESTED(budget, k, n, end, may_switch)                    \
  do {                                                                            \
    if (DYNAC_LIKELY((n) <= DYNAC_TICK_BUDGET)) {                                 \
      end = (n);                                                                  \
      (budget) -= (int64_t)((end) - (k));                                         \
    } else                                                                        \
      DYNAC_LOOP_BLOCK(budget, k, n, end, may_switch);                            \
  } while (0)

/* Bumped wherever this module's kernels may run Python code (a call
 * through the C API, an object operation that calls out, a global stored,
 * a continuation, the eval breaker's handlers): that code may rebind the
 * module-level values the kernels read, so each kernel checks them again
 * before a statement that reads them once this changed
 * (descriptors.h: DYNAC_GLOBALS_CHANGED). One per translation unit: each
 * generated module has its own, which only its own kernels bump and read
 * (calls between modules go through the C API, a bump on the caller's
 * side). */
static __attribute__((unused)) uint64_t dynac__py_serial;
/* A kernel's operation may run Python code: an effect (*effects, the
 * kernel's dynac__effects: a deoptimisation cannot repeat it), and the
 * module-level values are to be checked again (dynac__py_serial). */
static inline void dynac_python_may_run(int *effects) {
  *effects = 1;
  dynac__py_serial++;
}
/* The same as an expression, for generated code: nonzero. */
#define DYNAC_PYTHON_RUNS(effects) ((effects) = 1, ++dynac__py_serial)

/* A kernel that ran Python code (an object's method or operator), made an
 * opaque call (allow_in_graph) or made writes its undo log could not keep
 * cannot hand the call back to the interpreter afterwards where no
 * continuation goes on (generator/emit/continue.c): the interpreter would
 * repeat those effects. Such a deoptimisation point raises instead. */
DYNAC_COLD int dynac_deopt_after_effect(const char *file, int line) {
  PyErr_Format(PyExc_RuntimeError,
               "dynac: %s:%d: the compiled code needs the interpreter here (int64 overflow, "
               "or a value of a type the kernel was not specialised for), but it already ran "
               "Python code (an object's method or operator), wrote to a list or buffer, or made "
               "an allow_in_graph call, which the interpreter would repeat; run this function "
               "with dynac.disable, or keep such values out of it",
               file, line);
  return DYNAC_ERROR;
}
static inline int dynac__comp_frame(const char *name) {
  return !strcmp(name, "<genexpr>") || !strcmp(name, "<listcomp>") || !strcmp(name, "<setcomp>") ||
         !strcmp(name, "<dictcomp>");
}
/* Adds a traceback entry for `func` at `filename` (borrowed str):`line`
 * to the exception being raised, as the frame a kernel replaces would have.
 * Inside a comprehension `func` is "<listcomp>\0NAME\0LINE" (or <genexpr>,
 * <setcomp>, <dictcomp>): the comprehension's frame at `line`, then the
 * frame that runs it, NAME at LINE, which is another comprehension's
 * (followed by its own "\0NAME\0LINE") or the function's, as CPython 3.11
 * runs each comprehension in a frame of its own. Returns DYNAC_ERROR.
 * Cold and out of line: every fallible operation of a kernel calls it. */
DYNAC_COLD int dynac_traceback_here(PyObject *filename, const char *func, int line) {
  const char *file = filename ? PyUnicode_AsUTF8(filename) : NULL;
  if (!file) return DYNAC_ERROR;
  dynac_compat_traceback_add(func, file, line);
  for (const char *name = func, *next = func; dynac__comp_frame(name);) {
    next += strlen(next) + 1; /* the next frame's name (read only past a comprehension's) */
    const char *at = next + strlen(next) + 1; /* its line */
    dynac_compat_traceback_add(next, file, atoi(at));
    name = next;
    next = at;
  }
  return DYNAC_ERROR;
}
/* "<string>", the co_filename of code exec() made from a string: the file
 * of a traceback entry of a kernel synthesised from such code (a
 * @dataclass's __init__: generator/dataclass_init.c). Borrowed (made once,
 * kept), or NULL (MemoryError: the entry is left out). */
static inline PyObject *dynac_exec_filename(void) {
  static PyObject *name;
  if (!name) name = PyUnicode_InternFromString("<string>");
  return name;
}
#define DYNAC_DEOPT_OR_RAISE(effects, file, line) \
  return ((effects) || !DYNAC_UNDO_INTACT()) ? dynac_deopt_after_effect(file, line) : DYNAC_DEOPT
/* A failing operation in a kernel that may have had an effect: before any
 * (and with every write undone) the interpreter runs the call again;
 * after one, `slow` (the operation redone through the C API, which raises
 * CPython's own exception with this frame's line) is the kernel's result.
 * One line per fallible operation, as Cython's __PYX_ERR. */
#define DYNAC_DEOPT_OR_SLOW(effects, slow) \
  do { \
    if (!(effects) && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; /* writes undone */ \
    DYNAC_LEAVE(slow); /* an exception goes to a try statement's handlers */ \
  } while (0)

