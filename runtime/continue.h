/* runtime/continue.h: continuation in the interpreter: deoptimisation at a statement. A part of single_include/dynac.h (make single_include). */
/* ---- continuation in the interpreter: deoptimisation at a statement -------
 * A kernel that must leave its typed code (int64 overflow, an element of
 * another type, a callee that cannot go on) after an effect the interpreter
 * must not repeat (an allow_in_graph call, Python code an object operation
 * ran, list writes the undo log no longer holds) does not hand the whole
 * call back: it continues the call in the interpreter from the start of
 * the statement it was running, which had no effect yet. The function's
 * locals are boxed (unbound ones stay unbound) and each enclosing for
 * loop's iterator is rebuilt at its next item; python/dynac/_continue.py
 * makes the continuation function from the function's source (its code
 * keeps the function's name and lines, so tracebacks are CPython's). This
 * is deoptimisation as PyPy and HotSpot do it (a frame rebuilt from the
 * compiled code's state), at statement granularity, with TorchDynamo's
 * resume functions built at the source level. */
/* A call that finished in the interpreter with DYNAC_OK_BOXED leaves its
 * value here (a new reference); the kernel's caller or glue takes it at
 * once (under the GIL, before anything else runs). One per translation
 * unit: each generated module has its own. */
static __attribute__((unused)) PyObject *dynac__boxed_result;
/* What a kernel that returned normally did, for its caller (a kernel):
 * the caller sets it to 0 just before the call and again once it took
 * it (its own report is then its dynac__effects); the callee ORs its
 * dynac__effects in as it returns: 1 when Python code ran or it wrote
 * what others see, 2 when it only wrote its first parameter (fields of
 * its struct, first stores of attributes: a new instance's __init__ did
 * nothing anyone else sees); a continuation that finished the call sets
 * 1. Under the GIL nothing runs between that return and the caller's read
 * but the callee's own releases. Their Python code (a __del__) may enter
 * kernels, whose own direct calls reset the report: every entry from the
 * interpreter (a glue, a region's entry) therefore leaves 1 as it returns.
 * Callers that assumed every generic callee ran Python code
 * refused to hand a later failure back to the interpreter
 * (dynac_deopt_after_effect) needlessly. */
static __attribute__((unused)) int dynac__callee_effects;

typedef struct dynac_cont_site {
  const char *qualname;
  int firstlineno;   /* co_firstlineno of the function */
  int line, col;     /* where the statement starts (col: UTF-8 bytes) */
  int header;        /* 1: at the head of the innermost for loop (its item not yet taken);
                        2: after the statement (its assigned local is the value given);
                        3: the statement again, its evaluated operands given (subst) */
  const char *names; /* the function's local names, comma-separated: vals' order; then
                        _dynac_v0, ... for header 3's pending operands */
  int nvals, nits;
  const char *subst; /* header 3 (the statement runs again around the operands it had
                        evaluated): each operand's path@line:col, `;`-separated; else NULL */
  const char *region; /* a region kernel's: `line:col:outs` of the region's last statement
                         and its live-outs (the continuation ends there and returns the
                         region entry's tuple); NULL for a whole function */
} dynac_cont_site;

/* The rest of `for v in range(...)` after iteration `next - 1`: the values
 * start + k*step for k in [next, n) (reversed(): from the top down), as a
 * new range iterator. New reference, NULL with an exception set. */
DYNAC_COLD PyObject *dynac_cont_range(int64_t start, int64_t step, uint64_t n, uint64_t next,
                                      int rev) {
  if (next > n) next = n;
  uint64_t k = rev ? (next < n ? n - 1 - next : 0) : next; /* the first value's index */
  PyObject *s = PyLong_FromLongLong(start), *d = PyLong_FromLongLong(step);
  PyObject *kk = PyLong_FromUnsignedLongLong(k), *c = PyLong_FromUnsignedLongLong(n - next);
  PyObject *ks = NULL, *first = NULL, *dir = NULL, *span = NULL, *stop = NULL, *r = NULL, *it = NULL;
  if (s && d && kk && c) ks = PyNumber_Multiply(kk, d);
  if (ks) first = PyNumber_Add(s, ks);
  if (first) dir = rev ? PyNumber_Negative(d) : Py_NewRef(d);
  if (dir) span = PyNumber_Multiply(c, dir);
  if (span) stop = PyNumber_Add(first, span); /* exactly n - next values */
  if (stop) r = PyObject_CallFunctionObjArgs((PyObject *)&PyRange_Type, first, stop, dir, NULL);
  if (r) it = PyObject_GetIter(r);
  Py_XDECREF(s); Py_XDECREF(d); Py_XDECREF(kk); Py_XDECREF(c); Py_XDECREF(ks);
  Py_XDECREF(first); Py_XDECREF(dir); Py_XDECREF(span); Py_XDECREF(stop); Py_XDECREF(r);
  return it;
}

/* An iterator over `obj` (stolen) whose next item is the one at index
 * `next` (reversed(): counting down from it), as the interpreter's own
 * iterator would be at that point: positioned by __setstate__ (list, tuple,
 * array, bytes and sequence iterators have it), else advanced item by
 * item. New reference, NULL with an exception set. */
DYNAC_COLD PyObject *dynac_cont_iter(PyObject *obj, int64_t next, int rev) {
  if (!obj) return NULL;
  PyObject *it = rev ? PyObject_CallOneArg((PyObject *)&PyReversed_Type, obj) : PyObject_GetIter(obj);
  Py_DECREF(obj);
  if (!it) return NULL;
  PyObject *r = PyObject_CallMethod(it, "__setstate__", "L", (long long)next);
  if (r) {
    Py_DECREF(r);
    return it;
  }
  if (rev || !PyErr_ExceptionMatches(PyExc_AttributeError)) {
    Py_DECREF(it);
    return NULL;
  }
  PyErr_Clear();
  for (int64_t i = 0; i < next; i++) {
    PyObject *item = PyIter_Next(it);
    if (!item) break; /* exhausted (or an error, returned below) */
    Py_DECREF(item);
  }
  if (PyErr_Occurred()) Py_CLEAR(it);
  return it;
}
/* zip(*its) and enumerate(it, count) over such iterators (its stolen). */
DYNAC_COLD PyObject *dynac_cont_zip(PyObject **its, int n) {
  PyObject *t = PyTuple_New(n), *r = NULL;
  for (int i = 0; i < n; i++) {
    if (t && its[i]) PyTuple_SET_ITEM(t, i, its[i]);
    else Py_XDECREF(its[i]);
    if (t && !its[i]) Py_CLEAR(t);
  }
  if (t) r = PyObject_Call((PyObject *)&PyZip_Type, t, NULL);
  Py_XDECREF(t);
  return r;
}
DYNAC_COLD PyObject *dynac_cont_enumerate(PyObject *it, int64_t count) {
  if (!it) return NULL;
  PyObject *r = PyObject_CallFunction((PyObject *)&PyEnum_Type, "OL", it, (long long)count);
  Py_DECREF(it);
  return r;
}

/* Continues a kernel's call in the interpreter at `site`. vals: the
 * locals in site->names' order (stolen; NULL: unbound), its: the
 * iterators of the enclosing for loops, outermost first (stolen; NULL
 * means building it failed). globals: the module dict; filename:
 * co_filename; sha: the SHA-256 of the source the kernel was built from
 * (a file edited since gives no continuation); closure: the function's
 * __closure__ (borrowed; NULL: none), the cells of its co_freevars
 * `freevars` (comma-separated; NULL: none). Returns DYNAC_OK with
 * *result (new reference: the function's return value), DYNAC_ERROR with
 * the function's exception (its traceback entries are the continuation's,
 * which carry the function's name and lines), or DYNAC_DEOPT when no
 * continuation can be built (the caller then reports the call as one the
 * interpreter cannot finish). */
DYNAC_COLD int dynac_continue(const dynac_cont_site *site, PyObject *globals, PyObject *filename,
                              const char *sha, PyObject *closure, const char *freevars, PyObject **vals,
                              PyObject **its, PyObject **result) {
  int st = DYNAC_ERROR;
  PyObject *mod = NULL, *fn = NULL, *itt = NULL, *list = NULL;
  *result = NULL;
  dynac__py_serial++; /* the rest of the call is Python code */
  if (PyErr_Occurred() || !globals || !filename) goto done; /* boxing failed */
  itt = PyTuple_New(site->nits);
  if (!itt) goto done;
  for (int i = 0; i < site->nits; i++) {
    if (!its[i]) goto done;
    PyTuple_SET_ITEM(itt, i, its[i]);
    its[i] = NULL;
  }
  mod = PyImport_ImportModule("dynac._continue");
  if (mod)
    fn = PyObject_CallMethod(mod, "function", "OOssiiiisizzOz", globals, filename, sha, site->qualname,
                             site->firstlineno, site->line, site->col, site->header, site->names,
                             site->nits, site->subst, site->region, closure ? closure : Py_None, freevars);
  if (!fn) goto done;
  if (fn == Py_None) {
    st = DYNAC_DEOPT;
    goto done;
  }
  list = PyList_New(site->nvals); /* the locals, which the continuation takes out of it */
  if (!list) goto done;
  for (int i = 0; i < site->nvals; i++) { /* itt also marks an unbound local: no value of the user's is it */
    PyList_SET_ITEM(list, i, vals[i] ? vals[i] : Py_NewRef(itt));
    vals[i] = NULL;
  }
  {
    PyObject *argv[2] = {itt, list};
    *result = PyObject_Vectorcall(fn, argv, 2, NULL);
  }
  st = *result ? DYNAC_OK : DYNAC_ERROR;
done:
  for (int i = 0; i < site->nvals; i++) Py_CLEAR(vals[i]);
  for (int i = 0; i < site->nits; i++) Py_CLEAR(its[i]);
  Py_XDECREF(list);
  Py_XDECREF(itt);
  Py_XDECREF(fn);
  Py_XDECREF(mod);
  return st;
}
/* The kernel's control point after dynac_continue: jumps to a
 * continuation label unless nothing happened that a run again would
 * repeat (then the whole call goes back to the interpreter). */
#define DYNAC_DEOPT_OR_CONTINUE(effects, label) \
  do { \
    if (!(effects) && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; \
    goto label; \
  } while (0)

/* Kernel-to-kernel calls nested this deep ask the runtime whether to go on
 * (dynac_rt.deep_call_refused: CPython's recursion limit and the C stack);
 * below it they cost one compare. Exported C stops here. */
#ifndef DYNAC_MAX_KERNEL_DEPTH
#define DYNAC_MAX_KERNEL_DEPTH 500
#endif

