/* dynac._runtime: the runtime of single_include/dynac.h as a Python module.
 * Everything here is a thin binding; the logic lives in the header. */
#define DYNAC_IMPLEMENTATION
#include "dynac.h"

static const dynac_module_desc *desc_of(PyObject *artifact) {
  PyObject *cap = PyObject_GetAttrString(artifact, "__dynac_desc__");
  if (!cap) return NULL;
  const dynac_module_desc *d = (const dynac_module_desc *)PyCapsule_GetPointer(cap, DYNAC_DESC_CAPSULE);
  Py_DECREF(cap);
  if (d && d->abi_version != DYNAC_ABI_VERSION) {
    PyErr_Format(PyExc_ImportError, "dynac: artifact ABI %d, runtime ABI %d: rebuild it",
                 d->abi_version, DYNAC_ABI_VERSION);
    return NULL;
  }
  return d;
}

/* The descriptor of `co` in `d` (also for callee-only functions, whose
 * empty cache still carries their counters). */
static const dynac_func_desc *match(const dynac_module_desc *d, PyCodeObject *co) {
  for (int i = 0; i < d->nfuncs; i++) {
    const dynac_func_desc *f = &d->funcs[i];
    if (co->co_firstlineno == f->firstlineno &&
        dynac_code_kernel_argcount(co) == f->argcount && /* what kernels take */
        PyUnicode_CompareWithASCIIString(co->co_qualname, f->qualname) == 0 &&
        dynac_code_freevars_are(co, f->freevars)) /* the closure the kernels read */
      return f;
  }
  return NULL;
}

static int attach_tree(PyCodeObject *co, const dynac_module_desc *d, PyObject *artifact,
                       const char *modname, int replace);

/* Attaches d's kernels for co (descriptor f); replace: a rebuilt artifact's
 * entries supersede those of the one co's cache came from. */
static int attach_one(PyCodeObject *co, const dynac_module_desc *d, const dynac_func_desc *f,
                      PyObject *artifact, const char *modname, int replace) {
  char name[512];
  snprintf(name, sizeof name, "%s.%s", modname, f->qualname);
  if (replace) dynac__cache_rebind(co, d, f, artifact);
  return dynac_cache_attach(co, d, f, artifact, name);
}

/* Attaches to every code object nested in co's constants (nested defs and
 * lambdas, at any depth). */
static int attach_nested(PyCodeObject *co, const dynac_module_desc *d, PyObject *artifact,
                         const char *modname, int replace) {
  int n = 0;
  PyObject *consts = co->co_consts;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(consts); i++) {
    PyObject *c = PyTuple_GET_ITEM(consts, i);
    if (!PyCode_Check(c)) continue;
    int k = attach_tree((PyCodeObject *)c, d, artifact, modname, replace);
    if (k < 0) return -1;
    n += k;
  }
  return n;
}

/* Attaches to `co` and every code object nested in its constants. */
static int attach_tree(PyCodeObject *co, const dynac_module_desc *d, PyObject *artifact,
                       const char *modname, int replace) {
  int n = 0;
  const dynac_func_desc *f = match(d, co);
  if (f) {
    int k = attach_one(co, d, f, artifact, modname, replace);
    if (k < 0) return -1;
    n += k;
  }
  int k = attach_nested(co, d, artifact, modname, replace);
  return k < 0 ? -1 : n + k;
}

PyDoc_STRVAR(attach_code_doc,
"attach_code(code, artifact, modname, replace=False) -> int\n\n"
"Attaches the kernels of `artifact` (a module built by `dynac build`) to the\n"
"code objects nested in `code` (a module's code object) whose qualified name\n"
"and first line match. Returns the number of cache entries attached. replace:\n"
"`artifact` is a rebuild that supersedes the entries of earlier artifacts.");
static PyObject *py_attach_code(PyObject *self, PyObject *args) {
  PyObject *code, *artifact;
  const char *modname;
  int replace = 0;
  if (!PyArg_ParseTuple(args, "O!Os|p:attach_code", &PyCode_Type, &code, &artifact, &modname, &replace))
    return NULL;
  const dynac_module_desc *d = desc_of(artifact);
  if (!d) return NULL;
  int n = attach_tree((PyCodeObject *)code, d, artifact, modname, replace);
  if (n >= 0) dynac_note_nested_codes(d, (PyCodeObject *)code);
  return n < 0 ? NULL : PyLong_FromLong(n);
}

PyDoc_STRVAR(attach_function_doc,
"attach_function(func, artifact, modname, replace=False) -> int\n\n"
"Attaches the kernels of `artifact` for func.__code__. Returns the number of\n"
"cache entries attached (0: the artifact has no kernel for this function).\n"
"replace: as attach_code's.");
static PyObject *py_attach_function(PyObject *self, PyObject *args) {
  PyObject *func, *artifact;
  const char *modname;
  int replace = 0;
  if (!PyArg_ParseTuple(args, "O!Os|p:attach_function", &PyFunction_Type, &func, &artifact, &modname,
                        &replace))
    return NULL;
  const dynac_module_desc *d = desc_of(artifact);
  if (!d) return NULL;
  PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(func);
  dynac_note_nested_codes(d, co);
  const dynac_func_desc *f = match(d, co);
  if (!f) return PyLong_FromLong(0);
  int n = attach_one(co, d, f, artifact, modname, replace);
  int k = n < 0 ? -1 : attach_nested(co, d, artifact, modname, replace); /* its nested defs, lambdas */
  return n < 0 || k < 0 ? NULL : PyLong_FromLong(n); /* the function's own entries */
}

PyDoc_STRVAR(set_resume_doc,
"set_resume(code, resume) -> None\n\n"
"Calls of `code` that no kernel serves go to `resume`, the function rebuilt\n"
"around its compiled regions (python/dynac/_resume.py).");
static PyObject *py_set_resume(PyObject *self, PyObject *args) {
  PyObject *code, *resume;
  if (!PyArg_ParseTuple(args, "O!O:set_resume", &PyCode_Type, &code, &resume)) return NULL;
  if (dynac_cache_set_resume((PyCodeObject *)code, resume) < 0) return NULL;
  Py_RETURN_NONE;
}

PyDoc_STRVAR(describe_doc,
"describe(artifact) -> list\n\n"
"[(qualname, firstlineno, [(signature, [guard, ...]), ...]), ...] of an artifact.");
static PyObject *py_describe(PyObject *self, PyObject *artifact) {
  const dynac_module_desc *d = desc_of(artifact);
  if (!d) return NULL;
  PyObject *out = PyList_New(0);
  for (int i = 0; out && i < d->nfuncs; i++) {
    const dynac_func_desc *f = &d->funcs[i];
    PyObject *ents = PyList_New(0);
    for (int k = 0; ents && k < f->nentries; k++) {
      PyObject *g = PyList_New(0);
      for (int j = 0; g && j < f->entries[k].nguards; j++) {
        PyObject *s = PyUnicode_FromString(f->entries[k].guards[j]);
        if (!s || PyList_Append(g, s) < 0) Py_CLEAR(g);
        Py_XDECREF(s);
      }
      PyObject *e = g ? Py_BuildValue("(sN)", f->entries[k].signature, g) : NULL;
      if (!e || PyList_Append(ents, e) < 0) Py_CLEAR(ents);
      Py_XDECREF(e);
    }
    PyObject *t = ents ? Py_BuildValue("(siN)", f->qualname, f->firstlineno, ents) : NULL;
    if (!t || PyList_Append(out, t) < 0) Py_CLEAR(out);
    Py_XDECREF(t);
  }
  return out;
}

static PyObject *py_compiled_function(PyObject *self, PyObject *args) {
  PyObject *func, *first = Py_None, *miss = Py_None;
  if (!PyArg_ParseTuple(args, "O|OO:compiled_function", &func, &first, &miss)) return NULL;
  PyObject *cf = dynac_compiled_function_new(func);
  if (cf && first != Py_None && dynac_compiled_function_on_first_call(cf, first) < 0) Py_CLEAR(cf);
  if (cf && miss != Py_None) ((dynac__cfunc *)cf)->on_miss = Py_NewRef(miss);
  return cf;
}
static PyObject *py_hook_acquire(PyObject *self, PyObject *unused) {
  dynac_hook_acquire();
  Py_RETURN_NONE;
}
static PyObject *py_hook_release(PyObject *self, PyObject *unused) {
  dynac_hook_release();
  Py_RETURN_NONE;
}
static PyObject *py_hook_acquire_deferred(PyObject *self, PyObject *unused) {
  dynac_hook_acquire_deferred();
  Py_RETURN_NONE;
}
static PyObject *py_hook_release_deferred(PyObject *self, PyObject *unused) {
  dynac_hook_release_deferred();
  Py_RETURN_NONE;
}
static PyObject *py_hook_installed(PyObject *self, PyObject *unused) {
  return PyBool_FromLong(dynac_hook_installed());
}
static PyObject *py_stats(PyObject *self, PyObject *unused) { return dynac_stats(); }
static PyObject *py_reset_stats(PyObject *self, PyObject *unused) {
  dynac_stats_reset();
  Py_RETURN_NONE;
}

static PyObject *py_disable_enter(PyObject *self, PyObject *unused) {
  dynac_disable_enter();
  Py_RETURN_NONE;
}
static PyObject *py_disable_exit(PyObject *self, PyObject *unused) {
  dynac_disable_exit();
  Py_RETURN_NONE;
}
/* set_handled_exception(exc): the exception being handled becomes exc (None: none), as
 * POP_EXCEPT restores it; a continuation that finishes an except clause ends with it. */
static PyObject *py_set_handled_exception(PyObject *self, PyObject *exc) {
  PyErr_SetHandledException(exc == Py_None ? NULL : exc);
  Py_RETURN_NONE;
}
static PyObject *py_call_interpreted(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames) {
  if (nargs < 1) {
    PyErr_SetString(PyExc_TypeError, "call_interpreted(fn, *args, **kwargs): fn missing");
    return NULL;
  }
  return dynac_call_interpreted(args[0], args + 1, (size_t)(nargs - 1), kwnames);
}
static PyObject *py_set_disallowed(PyObject *self, PyObject *args) {
  PyObject *fn;
  int flag;
  if (!PyArg_ParseTuple(args, "Op:set_disallowed", &fn, &flag)) return NULL;
  if (dynac_set_disallowed(fn, flag) < 0) return NULL;
  Py_RETURN_NONE;
}
static PyObject *py_reset(PyObject *self, PyObject *unused) {
  dynac_reset();
  Py_RETURN_NONE;
}

/* dynac._runtime.module_stem(path): the artifact's stem, as the generator
 * names it (runtime/artifact.h); path: str (the file system's encoding) or bytes. */
static PyObject *py_module_stem(PyObject *self, PyObject *arg) {
  (void)self;
  PyObject *bytes = NULL;
  if (!PyUnicode_FSConverter(arg, &bytes)) return NULL;
  const char *path = PyBytes_AS_STRING(bytes);
  size_t n = dynac_module_stem(path, NULL, 0);
  char *s = PyMem_Malloc(n + 1);
  if (!s) { Py_DECREF(bytes); return PyErr_NoMemory(); }
  dynac_module_stem(path, s, n + 1);
  PyObject *r = PyUnicode_FromStringAndSize(s, (Py_ssize_t)n);
  PyMem_Free(s);
  Py_DECREF(bytes);
  return r;
}

/* ---- record: a frame hook that samples calls ---------------------------------
 * `dynac record` (python/dynac/_cli.py) types the arguments of sampled calls.
 * A profile function (sys.setprofile, even one in C) puts CPython 3.11's
 * eval loop in tracing mode, which runs every instruction unspecialised
 * (measured 2-3x on the example programs); the PEP 523 frame hook costs only
 * the inlining of Python-to-Python calls. This hook counts the frames of each
 * function (a co_extra slot) and hands the arguments to the Python sampler for
 * the first RECORD_FULL calls of each function, then one call in RECORD_EVERY
 * (weight RECORD_EVERY: the profile's call counts are estimates). Arguments are
 * bound in the frame before the hook sees it (*args, **kwargs included). */
#define RECORD_FULL 16
#define RECORD_EVERY 64
static PyObject *record_sampler;       /* strong: sampler(code, args, weight) */
static Py_ssize_t record_extra = -1;   /* co_extra index of the call counter */
static dynac_compat_eval_fn record_prev; /* the evaluator installed before (NULL: CPython's) */
static DYNAC__TLS int record_sampling;   /* the sampler runs: its own frames are not sampled */

/* Hands a call's arguments to the sampler. Returns 0, or -1 with an
 * exception to raise at the call: one that is not an Exception (the
 * KeyboardInterrupt or SystemExit of a signal handler that ran while the
 * sampler did), which must not be lost; the sampler's own errors are
 * reported as unraisable and the program goes on. */
static int record_sample(PyCodeObject *co, dynac_compat_frame *f, int weight) {
  int nvar = !!(co->co_flags & CO_VARARGS) + !!(co->co_flags & CO_VARKEYWORDS);
  Py_ssize_t n = co->co_argcount + co->co_kwonlyargcount + nvar;
  PyObject *const *locals = dynac_compat_frame_locals(f);
  PyObject *args = PyTuple_New(n);
  for (Py_ssize_t i = 0; args && i < n; i++)
    PyTuple_SET_ITEM(args, i, Py_NewRef(locals[i] ? locals[i] : Py_None));
  PyObject *r = args ? PyObject_CallFunction(record_sampler, "OOi", (PyObject *)co, args, weight) : NULL;
  Py_XDECREF(args);
  if (r) {
    Py_DECREF(r);
    return 0;
  }
  if (!PyErr_ExceptionMatches(PyExc_Exception)) return -1;
  PyErr_WriteUnraisable(record_sampler); /* never the program's failure */
  return 0;
}

/* Per function (a co_extra slot): its calls, and the last few shapes (the
 * exact types of its arguments, hashed) it was sampled with: a call with a
 * shape not among them is sampled too, so an argument type that shows up
 * only after the first calls, and rarely, is still recorded. */
#define RECORD_SHAPES 8          /* shapes remembered per function */
#define RECORD_SHAPE_BUDGET 256  /* samples a function's new shapes may take (then: by count) */
typedef struct record_counter {
  uintptr_t calls;
  uintptr_t shapes[RECORD_SHAPES];
  int next, budget_used;
} record_counter;

static uintptr_t record_shape(PyCodeObject *co, dynac_compat_frame *f) {
  Py_ssize_t n = co->co_argcount + co->co_kwonlyargcount;
  PyObject *const *locals = dynac_compat_frame_locals(f);
  uintptr_t h = 1;
  for (Py_ssize_t i = 0; i < n; i++) h = h * 1000003u ^ (uintptr_t)(locals[i] ? Py_TYPE(locals[i]) : NULL);
  return h;
}

static int record_wanted(record_counter *c, uintptr_t shape) {
  if (c->calls <= RECORD_FULL || c->calls % RECORD_EVERY == 0) return 1;
  if (c->budget_used >= RECORD_SHAPE_BUDGET) return 0; /* more shapes than it remembers */
  for (int i = 0; i < RECORD_SHAPES; i++)
    if (c->shapes[i] == shape) return 0;
  c->shapes[c->next] = shape;
  c->next = (c->next + 1) % RECORD_SHAPES;
  c->budget_used++;
  return 1;
}

static PyObject *record_eval(PyThreadState *ts, dynac_compat_frame *f, int throwflag) {
  PyCodeObject *co = dynac_compat_frame_code(f);
  if (!throwflag && record_sampler && !record_sampling && dynac_compat_frame_function(f) &&
      (co->co_flags & CO_OPTIMIZED) && !(co->co_flags & DYNAC__SKIP_FLAGS)) {
    void *extra = NULL;
    if (dynac_compat_code_get_extra((PyObject *)co, record_extra, &extra) < 0) PyErr_Clear();
    record_counter *c = (record_counter *)extra;
    if (!c && (c = (record_counter *)PyMem_RawCalloc(1, sizeof *c)) != NULL &&
        dynac_compat_code_set_extra((PyObject *)co, record_extra, c) < 0) {
      PyErr_Clear();
      PyMem_RawFree(c);
      c = NULL;
    }
    if (c && (++c->calls, record_wanted(c, record_shape(co, f)))) {
      PyObject *type, *value, *tb; /* a frame may start with an exception set: kept */
      PyErr_Fetch(&type, &value, &tb);
      record_sampling = 1;
      int st = record_sample(co, f, c->calls <= RECORD_FULL ? 1 : RECORD_EVERY);
      record_sampling = 0;
      if (st < 0) { /* the call raises it, its frame not run (as a served call's error) */
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return NULL;
      }
      PyErr_Restore(type, value, tb);
    }
  }
  return record_prev ? record_prev(ts, f, throwflag) : DYNAC_COMPAT_EVAL_FRAME_DEFAULT(ts, f, throwflag);
}

static PyObject *py_record_start(PyObject *self, PyObject *sampler) {
  if (record_sampler) {
    PyErr_SetString(PyExc_RuntimeError, "dynac: already recording");
    return NULL;
  }
  if (record_extra < 0 && (record_extra = dynac_compat_code_extra_index(PyMem_RawFree)) < 0) {
    PyErr_SetString(PyExc_RuntimeError, "dynac: no code object extra slot left for record");
    return NULL;
  }
  record_sampler = Py_NewRef(sampler);
  PyInterpreterState *interp = PyInterpreterState_Get();
  dynac_compat_eval_fn cur = dynac_compat_get_eval_frame(interp);
  record_prev = cur == DYNAC_COMPAT_EVAL_FRAME_DEFAULT ? NULL : cur;
  dynac_compat_set_eval_frame(interp, record_eval);
  Py_RETURN_NONE;
}

static PyObject *py_record_stop(PyObject *self, PyObject *unused) {
  if (!record_sampler) Py_RETURN_NONE;
  dynac_compat_set_eval_frame(PyInterpreterState_Get(),
                              record_prev ? record_prev : DYNAC_COMPAT_EVAL_FRAME_DEFAULT);
  record_prev = NULL;
  Py_CLEAR(record_sampler);
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"module_stem", py_module_stem, METH_O,
     "module_stem(path) -> str: the stem of NAME.py's artifact, as the generator names it."},
    {"disable_enter", py_disable_enter, METH_NOARGS,
     "Enters a disabled region on this thread (nests): nothing dispatches."},
    {"disable_exit", py_disable_exit, METH_NOARGS, "Leaves one disabled region."},
    {"set_handled_exception", py_set_handled_exception, METH_O,
     "set_handled_exception(exc): sys.exception() becomes exc (None: no exception is handled), as "
     "the end of an except clause restores it (POP_EXCEPT); used by continuations."},
    {"call_interpreted", (PyCFunction)(void (*)(void))py_call_interpreted,
     METH_FASTCALL | METH_KEYWORDS,
     "call_interpreted(fn, *args, **kwargs): fn's own frame in the interpreter, its callees "
     "dispatching (disable(recursive=False))."},
    {"set_disallowed", py_set_disallowed, METH_VARARGS,
     "set_disallowed(fn, flag): disallow_in_graph(fn) (True) or allow_in_graph(fn) (False)."},
    {"reset", py_reset, METH_NOARGS, "Drops every cache entry and counter (dynac.reset())."},
    {"attach_code", py_attach_code, METH_VARARGS, attach_code_doc},
    {"attach_function", py_attach_function, METH_VARARGS, attach_function_doc},
    {"describe", py_describe, METH_O, describe_doc},
    {"set_resume", py_set_resume, METH_VARARGS, set_resume_doc},
    {"compiled_function", py_compiled_function, METH_VARARGS,
     "compiled_function(func, on_first_call=None, on_miss=None): a callable served by func's kernels; "
     "on_miss(args, kwargs, reason) is asked by calls no entry accepts (compile on first call, _jit.py; see "
     "dynac.h); on_first_call() runs once before its first call."},
    {"record_start", py_record_start, METH_O,
     "record_start(sampler): calls of Python functions (every thread) are sampled by a frame hook: "
     "sampler(code, args, weight) for the first 16 calls of each function, then one in 64 (weight 64); "
     "args: the bound parameters in co_varnames order (*args, **kwargs last)."},
    {"record_stop", py_record_stop, METH_NOARGS, "Stops sampling (the previous frame evaluator returns)."},
    {"hook_acquire", py_hook_acquire, METH_NOARGS,
     "Holds the PEP 523 frame hook installed (nests)."},
    {"hook_release", py_hook_release, METH_NOARGS, "Releases one hold on the frame hook."},
    {"hook_acquire_deferred", py_hook_acquire_deferred, METH_NOARGS,
     "Holds the frame hook from the moment some code object has a cache (not nested)."},
    {"hook_release_deferred", py_hook_release_deferred, METH_NOARGS,
     "Gives back the hold of hook_acquire_deferred, if it was taken."},
    {"hook_installed", py_hook_installed, METH_NOARGS,
     "True while the PEP 523 frame hook is installed (someone holds it)."},
    {"stats", py_stats, METH_NOARGS, "Dispatch counters per function (a new dict)."},
    {"reset_stats", py_reset_stats, METH_NOARGS, "Sets every counter to zero."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "dynac._runtime",
                                    "dynac's runtime (single_include/dynac.h).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__runtime(void) {
  if (dynac_init() < 0) return NULL;
  PyObject *m = PyModule_Create(&moddef);
  if (!m) return NULL;
  PyTypeObject *t = dynac_compiled_function_type();
  if (!t) { Py_DECREF(m); return NULL; }
  Py_INCREF(t);
  if (PyModule_AddObject(m, "CompiledFunction", (PyObject *)t) < 0) {
    Py_DECREF(t);
    Py_DECREF(m);
    return NULL;
  }
  /* The code flags whose frames the hook passes by (generators, coroutines):
     `dynac run`'s recorder skips the same frames (_cli.py). */
  if (PyModule_AddIntConstant(m, "ABI_VERSION", DYNAC_ABI_VERSION) < 0 ||
      PyModule_AddIntConstant(m, "SKIP_FLAGS", DYNAC__SKIP_FLAGS) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  /* dynac.compile's options (runtime/artifact.h: the generator's list too). */
  Py_ssize_t nopts = 0;
  while (dynac_compile_options[nopts]) nopts++;
  PyObject *opts = PyTuple_New(nopts);
  for (Py_ssize_t i = 0; opts && i < nopts; i++) {
    PyObject *s = PyUnicode_FromString(dynac_compile_options[i]);
    if (!s) { Py_CLEAR(opts); break; }
    PyTuple_SET_ITEM(opts, i, s);
  }
  if (!opts || PyModule_AddObject(m, "COMPILE_OPTIONS", opts) < 0) {
    Py_XDECREF(opts);
    Py_DECREF(m);
    return NULL;
  }
  /* The runtime for extensions built with DYNAC_SHARED (see dynac.h). */
  PyObject *api = PyCapsule_New((void *)dynac_api(), DYNAC_API_CAPSULE, NULL);
  if (!api || PyModule_AddObject(m, "_C_API", api) < 0) {
    Py_XDECREF(api);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
