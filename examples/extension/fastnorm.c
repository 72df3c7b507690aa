/* fastnorm: a hand-written extension that serves vectors.norm (a Python
 * function) with its own C kernel, through the dynac runtime's cache and
 * dispatch. When the guard passes (two floats) the kernel computes the
 * result; otherwise (ints, Decimals, ...) the call runs in the interpreter,
 * unchanged. Everything else comes from the runtime: the per-code-object
 * cache, the frame hook (calls of norm from anywhere dispatch, not only
 * through the object serve() returns), dynac.disable, dynac.stats(),
 * dynac.reset() and DYNAC_LOGS.
 *
 * DYNAC_SHARED: use the runtime of the dynac package (one per process)
 * through its API table; dynac_import() in PyInit takes it. */
#define DYNAC_SHARED
#include "dynac.h"

static int64_t kernel_calls; /* so a test can see which path ran */

/* Guard: 1 when every assumption of the kernel holds for these arguments
 * (borrowed, the function's positional parameters), 0 (with *failed naming
 * the first that does not: it appears in DYNAC_LOGS=guards) when not. */
static int norm_guard(PyObject *const *args, PyObject *globals, const char **failed) {
  (void)globals;
  if (!PyFloat_CheckExact(args[0])) { *failed = "x is a float"; return 0; }
  if (!PyFloat_CheckExact(args[1])) { *failed = "y is a float"; return 0; }
  return 1;
}

/* Glue and kernel in one: unbox, compute what CPython computes (the same
 * libm sqrt on the same doubles, so the same bits), box. *result is a new
 * reference. */
static int norm_glue(PyObject *const *args, PyObject *closure, PyObject **result) {
  (void)closure; /* norm reads no free variables */
  double x = PyFloat_AS_DOUBLE(args[0]), y = PyFloat_AS_DOUBLE(args[1]);
  double s = x * x + y * y;
  if (s < 0.0) return DYNAC_DEOPT; /* cannot happen; a kernel may always hand back */
  kernel_calls++;
  *result = PyFloat_FromDouble(sqrt(s));
  return *result ? DYNAC_OK : DYNAC_ERROR;
}

static const char *const norm_guards[] = {"x is a float", "y is a float"};
static const dynac_entry_desc norm_entries[] = {
    {"(float, float) -> float", norm_guard, norm_glue, 2, norm_guards, 0}};
static int64_t direct_calls[1], region_calls[1];
static dynac_globals norm_globals; /* no module-level values to guard */
static const dynac_func_desc funcs[] = {
    {"norm", 8, 2, 1, norm_entries, direct_calls, region_calls, DYNAC_FUNC_ROOT,
     NULL /* no free variables */}};
static const dynac_module_desc desc = {DYNAC_ABI_VERSION, "vectors.py", "", 1, funcs,
                                       &norm_globals, 0, NULL /* no nested code objects */};

/* serve(func) -> CompiledFunction: attaches the kernel to func's code object
 * and returns dynac's fast callable for it. Calls of func itself dispatch
 * too while a compiled function runs (the frame hook). */
static PyObject *serve(PyObject *self, PyObject *func) {
  if (!PyFunction_Check(func)) {
    PyErr_SetString(PyExc_TypeError, "serve() takes a Python function");
    return NULL;
  }
  PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(func);
  if (code->co_argcount != 2 || PyUnicode_CompareWithASCIIString(code->co_name, "norm")) {
    PyErr_SetString(PyExc_ValueError, "serve() takes vectors.norm(x, y)");
    return NULL;
  }
  if (dynac_cache_attach(code, &desc, &funcs[0], self, "vectors.norm") < 0) return NULL;
  return dynac_compiled_function_new(func);
}

static PyObject *get_kernel_calls(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  return PyLong_FromLongLong(kernel_calls);
}

static PyMethodDef methods[] = {
    {"serve", serve, METH_O, "serve(norm) -> a callable served by the C kernel when it can"},
    {"kernel_calls", get_kernel_calls, METH_NOARGS, "calls the C kernel served"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "fastnorm",
                                    "A C kernel for vectors.norm, served by dynac's runtime.",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_fastnorm(void) {
  if (dynac_import() < 0) return NULL;
  return PyModule_Create(&moddef);
}
