/* runtime/slow_paths.h: exact errors after an effect: the operation redone through the C API. A part of single_include/dynac.h (make single_include). */
/* Exact errors after an effect: the operation is done again through the C
 * API, which raises CPython's own exception (IndexError, OverflowError,
 * TypeError for read-only buffers, with CPython's message); a traceback
 * entry for `func` at `line` is added. Should the API call succeed after
 * all, the kernel still cannot continue: dynac_deopt_after_effect. */
DYNAC_COLD int dynac_slow_done(PyObject *r, PyObject *filename, const char *func, int line) {
  if (!r) return dynac_traceback_here(filename, func, line);
  Py_DECREF(r);
  const char *file = filename ? PyUnicode_AsUTF8(filename) : NULL;
  return dynac_deopt_after_effect(file ? file : "?", line);
}
/* o[key] and o[key] = v with `key` and `v` stolen (NULL: a failed box). */
DYNAC_COLD int dynac__slow_getkey(PyObject *o, PyObject *key, PyObject *filename,
                                  const char *func, int line) {
  PyObject *r = key ? PyObject_GetItem(o, key) : NULL;
  Py_XDECREF(key);
  return dynac_slow_done(r, filename, func, line);
}
DYNAC_COLD int dynac__slow_setkey(PyObject *o, PyObject *key, PyObject *v, PyObject *filename,
                                  const char *func, int line) {
  int st = key && v ? PyObject_SetItem(o, key, v) : -1;
  Py_XDECREF(key);
  Py_XDECREF(v);
  if (st < 0) return dynac_traceback_here(filename, func, line);
  const char *file = filename ? PyUnicode_AsUTF8(filename) : NULL;
  return dynac_deopt_after_effect(file ? file : "?", line); /* stored after all */
}
DYNAC_COLD int dynac_slow_getitem(PyObject *o, int64_t i, PyObject *filename, const char *func,
                                  int line) {
  return dynac__slow_getkey(o, PyLong_FromLongLong(i), filename, func, line);
}
/* `v` is stolen. */
DYNAC_COLD int dynac_slow_setitem(PyObject *o, int64_t i, PyObject *v, PyObject *filename,
                                  const char *func, int line) {
  return dynac__slow_setkey(o, PyLong_FromLongLong(i), v, filename, func, line);
}
/* The same for a[i, j] of a 2-D ndarray. */
DYNAC_COLD int dynac_slow_getitem2(PyObject *o, int64_t i, int64_t j, PyObject *filename,
                                   const char *func, int line) {
  return dynac__slow_getkey(o, Py_BuildValue("(LL)", (long long)i, (long long)j), filename, func,
                            line);
}
DYNAC_COLD int dynac_slow_setitem2(PyObject *o, int64_t i, int64_t j, PyObject *v,
                                   PyObject *filename, const char *func, int line) {
  return dynac__slow_setkey(o, Py_BuildValue("(LL)", (long long)i, (long long)j), v, filename,
                            func, line);
}
/* l.pop() (i < 0 with `has_index` 0) or l.pop(i). */
DYNAC_COLD int dynac_slow_pop(PyObject *l, int has_index, int64_t i, PyObject *filename,
                              const char *func, int line) {
  PyObject *r = has_index ? PyObject_CallMethod(l, "pop", "L", (long long)i)
                          : PyObject_CallMethod(l, "pop", NULL);
  return dynac_slow_done(r, filename, func, line);
}
/* a OP b (b NULL for -a) through the C API, for its exception; a and b are
 * stolen (new references, NULL on MemoryError). */
enum {
  DYNAC_SLOW_ADD, DYNAC_SLOW_SUB, DYNAC_SLOW_MUL, DYNAC_SLOW_TRUEDIV, DYNAC_SLOW_FLOORDIV,
  DYNAC_SLOW_MOD, DYNAC_SLOW_POW, DYNAC_SLOW_LSHIFT, DYNAC_SLOW_RSHIFT, DYNAC_SLOW_NEG
};
DYNAC_COLD PyObject *dynac__number_value(int op, PyObject *a, PyObject *b) {
  PyObject *r = NULL;
  if (a && (b || op == DYNAC_SLOW_NEG)) {
    switch (op) {
    case DYNAC_SLOW_ADD: r = PyNumber_Add(a, b); break;
    case DYNAC_SLOW_SUB: r = PyNumber_Subtract(a, b); break;
    case DYNAC_SLOW_MUL: r = PyNumber_Multiply(a, b); break;
    case DYNAC_SLOW_TRUEDIV: r = PyNumber_TrueDivide(a, b); break;
    case DYNAC_SLOW_FLOORDIV: r = PyNumber_FloorDivide(a, b); break;
    case DYNAC_SLOW_MOD: r = PyNumber_Remainder(a, b); break;
    case DYNAC_SLOW_POW: r = PyNumber_Power(a, b, Py_None); break;
    case DYNAC_SLOW_LSHIFT: r = PyNumber_Lshift(a, b); break;
    case DYNAC_SLOW_RSHIFT: r = PyNumber_Rshift(a, b); break;
    default: r = PyNumber_Negative(a); break;
    }
  }
  Py_XDECREF(a);
  Py_XDECREF(b);
  return r;
}
DYNAC_COLD int dynac_slow_number(int op, PyObject *a, PyObject *b, PyObject *filename,
                                 const char *func, int line) {
  return dynac_slow_done(dynac__number_value(op, a, b), filename, func, line);
}
/* The same for the value a function returns: the exact result (a big int
 * where int64 overflowed) goes to *boxed (a new reference) and the kernel
 * returns DYNAC_OK_BOXED; CPython's exception otherwise. */
DYNAC_COLD int dynac_slow_returned(int op, PyObject *a, PyObject *b, PyObject **boxed,
                                   PyObject *filename, const char *func, int line) {
  PyObject *r = dynac__number_value(op, a, b);
  if (!r) return dynac_traceback_here(filename, func, line);
  *boxed = r;
  return DYNAC_OK_BOXED;
}
/* Raises exc(text) (text: CPython's message, UTF-8) from this frame's line,
 * e.g. range()'s ValueError for a zero step. Returns DYNAC_ERROR. */
DYNAC_COLD int dynac_raise_text(PyObject *exc, const char *text, PyObject *filename, const char *func,
                                int line) {
  PyErr_SetString(exc, text);
  return dynac_traceback_here(filename, func, line);
}
/* a, b, c = seq with len(seq) != n: CPython's ValueError. */
DYNAC_COLD int dynac_raise_unpack(Py_ssize_t n, Py_ssize_t got, PyObject *filename,
                                  const char *func, int line) {
  if (got > n)
    PyErr_Format(PyExc_ValueError, "too many values to unpack (expected %zd)", n);
  else
    PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected %zd, got %zd)", n, got);
  return dynac_traceback_here(filename, func, line);
}

