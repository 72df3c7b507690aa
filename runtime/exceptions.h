/* runtime/exceptions.h: try/except inside kernels. A part of single_include/dynac.h (make single_include). */
/* ---- where a failure goes ------------------------------------------------
 * Every place a kernel may fail leaves through DYNAC_LEAVE(status). Outside
 * a try statement that is a return (the caller sees DYNAC_ERROR, or
 * DYNAC_DEOPT, ...). Around the body of a compiled try statement the
 * generated C redefines it (#undef / #define DYNAC_LEAVE(st)
 * DYNAC_LEAVE_TO(st, dynac_except_N)) so that an exception goes to that
 * statement's handlers while every other status still returns: the
 * preprocessor routes each failure by where it is written, as CPython
 * 3.11's exception table routes a failing instruction by its offset. */
#define DYNAC_LEAVE(st) return (st)
#define DYNAC_LEAVE_TO(st, handlers) \
  do { \
    int dynac__leave_st = (st); \
    if (dynac__leave_st == DYNAC_ERROR) goto handlers; \
    return dynac__leave_st; \
  } while (0)
/* In a loop's speculative copy (generator/emit/speculate.c) every way out
 * goes back to the loop's start in its checked copy, which meets the same
 * failure where the interpreter would (an exception is raised again). */
#define DYNAC_LEAVE_SPEC(st, fail) \
  do { \
    (void)(st); \
    PyErr_Clear(); \
    goto fail; \
  } while (0)

/* The exception an except clause is handling: what the interpreter keeps
 * on its value stack and in the thread's exc_info between PUSH_EXC_INFO
 * and POP_EXCEPT. `exc` (owned) is the exception; `outer` (owned, or
 * NULL) the one handled before, put back at the end; `name`/`bound`: the
 * local `as name` bound (or NULL), which the end unbinds as CPython's
 * `name = None; del name` does; `ended`: the end came already (a return
 * or break through a finally block ends it before the block runs). */
typedef struct dynac_handling {
  PyObject *exc, *outer;
  PyObject **name;
  bool *bound;
  bool ended;
} dynac_handling;

/* Takes the exception being raised (normalized, its traceback so far on
 * it) and makes it the one being handled (sys.exception(), the context of
 * exceptions raised in the handler): PUSH_EXC_INFO. */
static inline dynac_handling dynac_handling_begin(void) {
  dynac_handling h = {NULL, NULL, NULL, NULL, false};
  h.exc = dynac_compat_fetch_raised();
  h.outer = dynac_compat_handled_exception();
  PyErr_SetHandledException(h.exc);
  return h;
}

/* The end of the handler, however it is left (its C scope's cleanup: a
 * fall through, return, break, continue or an exception): the handled
 * exception before it is restored (POP_EXCEPT) and `as name` unbound.
 * Once only: later calls do nothing. */
static inline void dynac_handling_end(dynac_handling *h) {
  if (h->ended) return;
  h->ended = true;
  PyErr_SetHandledException(h->outer);
  Py_CLEAR(h->outer);
  Py_CLEAR(h->exc);
  if (h->name) Py_CLEAR(*h->name);
  if (h->bound) *h->bound = false;
}
#define DYNAC_HANDLING __attribute__((cleanup(dynac_handling_end))) dynac_handling

/* except CLS: does the handled exception match `cls` (a class, or a tuple
 * of classes)? 1 or 0, as CHECK_EXC_MATCH; -1 with CPython's TypeError
 * when cls (or an item of the tuple) is not an exception class. */
static inline int dynac_exception_matches(const dynac_handling *h, PyObject *cls) {
  int valid = 1;
  if (PyTuple_Check(cls)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cls); i++)
      if (!PyExceptionClass_Check(PyTuple_GET_ITEM(cls, i))) valid = 0;
  } else {
    valid = PyExceptionClass_Check(cls);
  }
  if (!valid) {
    PyErr_SetString(PyExc_TypeError, "catching classes that do not inherit from BaseException is not allowed");
    return -1;
  }
  return PyErr_GivenExceptionMatches(h->exc, cls);
}

/* No clause matched: the exception goes on with its own traceback (RERAISE). */
static inline void dynac_handling_reraise(const dynac_handling *h) {
  dynac_compat_restore_raised(Py_NewRef(h->exc));
}

/* ---- with statements -------------------------------------------------------
 * BEFORE_WITH: `mgr`'s __enter__ and __exit__, looked up on its type and
 * bound to it; __enter__() is called. Returns its result (a new reference)
 * and sets *exit to the bound __exit__ (a new reference the kernel keeps
 * until the statement ends); NULL with CPython's TypeError when mgr is not
 * a context manager, or with __enter__'s exception. */
static inline PyObject *dynac_with_enter(PyObject *mgr, PyObject **exit) {
  static PyObject *enter_name, *exit_name;
  if (!enter_name && !(enter_name = PyUnicode_InternFromString("__enter__"))) return NULL;
  if (!exit_name && !(exit_name = PyUnicode_InternFromString("__exit__"))) return NULL;
  PyObject *enter = dynac_compat_lookup_special(mgr, enter_name);
  if (!enter) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "'%.200s' object does not support the context manager protocol",
                   Py_TYPE(mgr)->tp_name);
    return NULL;
  }
  *exit = dynac_compat_lookup_special(mgr, exit_name);
  if (!*exit) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "'%.200s' object does not support the context manager protocol "
                   "(missed __exit__ method)", Py_TYPE(mgr)->tp_name);
    Py_DECREF(enter);
    return NULL;
  }
  PyObject *r = PyObject_CallNoArgs(enter);
  Py_DECREF(enter);
  return r;
}

/* The with statement's end: exit(None, None, None) when it ends without an
 * exception (h NULL): 0, or -1 with __exit__'s exception. With the
 * exception being handled in h: exit(type, value, traceback)
 * (WITH_EXCEPT_START): 1 when the result is true (the exception is
 * suppressed), 0 when it is not, -1 with __exit__'s own exception. */
static inline int dynac_with_exit(PyObject *exit, const dynac_handling *h) {
  PyObject *args[3] = {Py_None, Py_None, Py_None};
  PyObject *tb = NULL;
  if (h) {
    tb = PyException_GetTraceback(h->exc);
    args[0] = (PyObject *)Py_TYPE(h->exc);
    args[1] = h->exc;
    args[2] = tb ? tb : Py_None;
  }
  PyObject *r = PyObject_Vectorcall(exit, args, 3, NULL);
  Py_XDECREF(tb);
  if (!r) return -1;
  int truth = h ? PyObject_IsTrue(r) : 0;
  Py_DECREF(r);
  return truth;
}
