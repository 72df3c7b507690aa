/* Hand-written C baselines for tests/bench.py: the same algorithms, written
 * the way a C programmer would, compiled with the same -O2. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* mandel: the same loop as kernels.mandel (no overflow checks: C wraps). */
static int64_t mandel(int64_t width, int64_t height, int64_t maxiter) {
  int64_t total = 0;
  for (int64_t py = 0; py < height; py++) {
    double y0 = py * 2.0 / height - 1.0;
    for (int64_t px = 0; px < width; px++) {
      double x0 = px * 3.0 / width - 2.0, x = 0.0, y = 0.0;
      int64_t i = 0;
      while (i < maxiter && x * x + y * y <= 4.0) {
        double nx = x * x - y * y + x0;
        y = 2.0 * x * y + y0;
        x = nx;
        i++;
      }
      total += i;
    }
  }
  return total;
}

static PyObject *py_mandel(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  return PyLong_FromLongLong(mandel(PyLong_AsLongLong(args[0]), PyLong_AsLongLong(args[1]),
                                    PyLong_AsLongLong(args[2])));
}

/* axpy1: a METH_FASTCALL function doing a * x + y on three floats. */
static PyObject *py_axpy1(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  if (n != 3 || !PyFloat_CheckExact(args[0]) || !PyFloat_CheckExact(args[1]) ||
      !PyFloat_CheckExact(args[2])) {
    PyErr_SetString(PyExc_TypeError, "axpy1(float, float, float)");
    return NULL;
  }
  return PyFloat_FromDouble(PyFloat_AS_DOUBLE(args[0]) * PyFloat_AS_DOUBLE(args[1]) +
                            PyFloat_AS_DOUBLE(args[2]));
}

static PyMethodDef methods[] = {
    {"mandel", (PyCFunction)(void (*)(void))py_mandel, METH_FASTCALL, NULL},
    {"axpy1", (PyCFunction)(void (*)(void))py_axpy1, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "handwritten", NULL, -1, methods,
                                 NULL, NULL, NULL, NULL};
PyMODINIT_FUNC PyInit_handwritten(void) { return PyModule_Create(&def); }
