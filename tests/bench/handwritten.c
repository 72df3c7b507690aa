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


/* ---- the array examples (examples/*.py), same operations in the same order ---- */
#include <math.h>

/* A writable 1-D buffer of doubles (array('d')) for the call. */
static double *doubles(PyObject *o, Py_buffer *b, Py_ssize_t *n) {
  if (PyObject_GetBuffer(o, b, PyBUF_WRITABLE | PyBUF_FORMAT) < 0) return NULL;
  *n = b->len / (Py_ssize_t)sizeof(double);
  return (double *)b->buf;
}

/* examples/nbody_array.py advance(dt, steps, pos, vel, mass) */
static PyObject *py_nbody_advance(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  double dt = PyFloat_AsDouble(args[0]);
  long long steps = PyLong_AsLongLong(args[1]);
  Py_buffer bp, bv, bm;
  Py_ssize_t np, nv, n;
  double *pos = doubles(args[2], &bp, &np), *vel = doubles(args[3], &bv, &nv),
         *mass = doubles(args[4], &bm, &n);
  for (long long s = 0; s < steps; s++) {
    for (Py_ssize_t i = 0; i < n; i++)
      for (Py_ssize_t j = i + 1; j < n; j++) {
        double dx = pos[3 * i] - pos[3 * j], dy = pos[3 * i + 1] - pos[3 * j + 1],
               dz = pos[3 * i + 2] - pos[3 * j + 2];
        double d2 = dx * dx + dy * dy + dz * dz;
        double mag = dt / (d2 * sqrt(d2));
        double mi = mass[i] * mag, mj = mass[j] * mag;
        vel[3 * i] -= dx * mj; vel[3 * i + 1] -= dy * mj; vel[3 * i + 2] -= dz * mj;
        vel[3 * j] += dx * mi; vel[3 * j + 1] += dy * mi; vel[3 * j + 2] += dz * mi;
      }
    for (Py_ssize_t i = 0; i < 3 * n; i++) pos[i] += dt * vel[i];
  }
  PyBuffer_Release(&bp); PyBuffer_Release(&bv); PyBuffer_Release(&bm);
  Py_RETURN_NONE;
}

static double eval_A(long long i, long long j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }

/* examples/spectral_norm.py AtA_times_u(u, out, tmp) */
static PyObject *py_spectral_AtA(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  Py_buffer bu, bo, bt;
  Py_ssize_t n, n2, n3;
  double *u = doubles(args[0], &bu, &n), *out = doubles(args[1], &bo, &n2),
         *tmp = doubles(args[2], &bt, &n3);
  for (Py_ssize_t i = 0; i < n; i++) {
    double s = 0.0;
    for (Py_ssize_t j = 0; j < n; j++) s += eval_A(i, j) * u[j];
    tmp[i] = s;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    double s = 0.0;
    for (Py_ssize_t j = 0; j < n; j++) s += eval_A(j, i) * tmp[j];
    out[i] = s;
  }
  PyBuffer_Release(&bu); PyBuffer_Release(&bo); PyBuffer_Release(&bt);
  Py_RETURN_NONE;
}

/* examples/mlp.py forward(x, w1, b1, w2, b2, hidden, out) */
static PyObject *py_mlp_forward(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  Py_buffer b[7];
  Py_ssize_t len[7];
  double *p[7];
  for (int k = 0; k < 7; k++) p[k] = doubles(args[k], &b[k], &len[k]);
  double *x = p[0], *w1 = p[1], *b1 = p[2], *w2 = p[3], *b2 = p[4], *hidden = p[5], *out = p[6];
  Py_ssize_t n_in = len[0], n_hid = len[2], n_out = len[4];
  for (Py_ssize_t j = 0; j < n_hid; j++) {
    double s = b1[j];
    for (Py_ssize_t i = 0; i < n_in; i++) s += w1[j * n_in + i] * x[i];
    hidden[j] = s > 0.0 ? s : 0.0;
  }
  for (Py_ssize_t k = 0; k < n_out; k++) {
    double s = b2[k];
    for (Py_ssize_t j = 0; j < n_hid; j++) s += w2[k * n_hid + j] * hidden[j];
    out[k] = tanh(s);
  }
  for (int k = 0; k < 7; k++) PyBuffer_Release(&b[k]);
  Py_RETURN_NONE;
}

/* examples/mandelbrot.py mandel(w, h, maxiter, out) with out an array('i') */
static PyObject *py_mandel_into(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  long long w = PyLong_AsLongLong(args[0]), h = PyLong_AsLongLong(args[1]),
            maxiter = PyLong_AsLongLong(args[2]);
  Py_buffer b;
  if (PyObject_GetBuffer(args[3], &b, PyBUF_WRITABLE) < 0) return NULL;
  int *out = (int *)b.buf;
  for (long long y = 0; y < h; y++) {
    double ci = -1.5 + 3.0 * y / h;
    for (long long x = 0; x < w; x++) {
      double cr = -2.0 + 3.0 * x / w, zr = 0.0, zi = 0.0;
      long long k = 0;
      while (k < maxiter && zr * zr + zi * zi <= 4.0) {
        double nzr = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = nzr;
        k++;
      }
      out[y * w + x] = (int)k;
    }
  }
  PyBuffer_Release(&b);
  Py_RETURN_NONE;
}

/* examples/heat.py diffuse(u, out, alpha) over C-contiguous 2-D float64 ndarrays */
static PyObject *py_heat_diffuse(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  Py_buffer bu, bo;
  if (PyObject_GetBuffer(args[0], &bu, PyBUF_C_CONTIGUOUS) < 0) return NULL;
  if (PyObject_GetBuffer(args[1], &bo, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
    PyBuffer_Release(&bu);
    return NULL;
  }
  double alpha = PyFloat_AsDouble(args[2]);
  const double *u = (const double *)bu.buf;
  double *out = (double *)bo.buf;
  Py_ssize_t n = bu.shape[0], m = bu.shape[1];
  for (Py_ssize_t i = 1; i < n - 1; i++)
    for (Py_ssize_t j = 1; j < m - 1; j++) {
      double lap = u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] + u[i * m + j + 1] -
                   4.0 * u[i * m + j];
      out[i * m + j] = u[i * m + j] + alpha * lap;
    }
  PyBuffer_Release(&bu);
  PyBuffer_Release(&bo);
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"heat_diffuse", (PyCFunction)(void (*)(void))py_heat_diffuse, METH_FASTCALL, NULL},
    {"mandel", (PyCFunction)(void (*)(void))py_mandel, METH_FASTCALL, NULL},
    {"axpy1", (PyCFunction)(void (*)(void))py_axpy1, METH_FASTCALL, NULL},
    {"nbody_advance", (PyCFunction)(void (*)(void))py_nbody_advance, METH_FASTCALL, NULL},
    {"spectral_AtA", (PyCFunction)(void (*)(void))py_spectral_AtA, METH_FASTCALL, NULL},
    {"mlp_forward", (PyCFunction)(void (*)(void))py_mlp_forward, METH_FASTCALL, NULL},
    {"mandel_into", (PyCFunction)(void (*)(void))py_mandel_into, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "handwritten", NULL, -1, methods,
                                 NULL, NULL, NULL, NULL};
PyMODINIT_FUNC PyInit_handwritten(void) { return PyModule_Create(&def); }
