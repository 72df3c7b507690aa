/* runtime/compiled.h: compiled functions: the vectorcall fast path of a decorated root. A part of single_include/dynac.h (make single_include). */
/* ---- compiled function: the vectorcall fast path of a decorated root ---- */

static PyObject *dynac__cfunc_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                         PyObject *kwnames) {
  dynac__cfunc *cf = (dynac__cfunc *)self;
  PyFunctionObject *fn = (PyFunctionObject *)cf->func;
  PyCodeObject *co = (PyCodeObject *)fn->func_code;
  if (DYNAC_UNLIKELY(cf->on_first_call != NULL)) {
    PyObject *cb = cf->on_first_call;
    cf->on_first_call = NULL;
    PyObject *ignored = PyObject_CallNoArgs(cb);
    Py_DECREF(cb);
    if (!ignored) return NULL;
    Py_DECREF(ignored);
  }
  if (DYNAC_UNLIKELY((PyObject *)co != cf->code)) { /* first call, or __code__ replaced */
    cf->code = (PyObject *)co;
    cf->cache = dynac__cache_of(co);
  }
  return dynac__serve_call(cf->cache, cf->func, co, args, nargsf, kwnames, dynac__call_in_interpreter);
}

static void dynac__cfunc_dealloc(PyObject *self) {
  dynac__cfunc *cf = (dynac__cfunc *)self;
  PyObject_GC_UnTrack(self);
  if (cf->weaklist) PyObject_ClearWeakRefs(self);
  Py_CLEAR(cf->func);
  Py_CLEAR(cf->dict);
  Py_CLEAR(cf->on_first_call);
  Py_TYPE(self)->tp_free(self);
}

static int dynac__cfunc_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(((dynac__cfunc *)self)->func);
  Py_VISIT(((dynac__cfunc *)self)->dict);
  Py_VISIT(((dynac__cfunc *)self)->on_first_call);
  return 0;
}

static int dynac__cfunc_clear(PyObject *self) {
  Py_CLEAR(((dynac__cfunc *)self)->func);
  Py_CLEAR(((dynac__cfunc *)self)->dict);
  Py_CLEAR(((dynac__cfunc *)self)->on_first_call);
  return 0;
}

/* Attributes the compiled function does not have come from the function. */
static PyObject *dynac__cfunc_getattro(PyObject *self, PyObject *name) {
  PyObject *r = PyObject_GenericGetAttr(self, name);
  if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
  PyErr_Clear();
  return PyObject_GetAttr(((dynac__cfunc *)self)->func, name);
}

static PyObject *dynac__cfunc_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
  (void)type;
  if (!obj || obj == Py_None) { Py_INCREF(self); return self; }
  return PyMethod_New(self, obj);
}

static PyObject *dynac__cfunc_repr(PyObject *self) {
  return PyUnicode_FromFormat("<dynac compiled %R>", ((dynac__cfunc *)self)->func);
}

static PyObject *dynac__cfunc_get_wrapped(PyObject *self, void *closure) {
  (void)closure;
  Py_INCREF(((dynac__cfunc *)self)->func);
  return ((dynac__cfunc *)self)->func;
}

static PyGetSetDef dynac__cfunc_getset[] = {
    {"__wrapped__", dynac__cfunc_get_wrapped, NULL, "the original function", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef dynac__cfunc_members[] = {
    {(char *)"__vectorcalloffset__", T_PYSSIZET, offsetof(dynac__cfunc, vectorcall), READONLY, NULL},
    {(char *)"__dictoffset__", T_PYSSIZET, offsetof(dynac__cfunc, dict), READONLY, NULL},
    {(char *)"__weaklistoffset__", T_PYSSIZET, offsetof(dynac__cfunc, weaklist), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot dynac__cfunc_slots[] = {
    {Py_tp_doc, (void *)"A function served by dynac kernels when their guards pass."},
    {Py_tp_dealloc, (void *)dynac__cfunc_dealloc},
    {Py_tp_traverse, (void *)dynac__cfunc_traverse},
    {Py_tp_clear, (void *)dynac__cfunc_clear},
    {Py_tp_call, (void *)PyVectorcall_Call},
    {Py_tp_getattro, (void *)dynac__cfunc_getattro},
    {Py_tp_descr_get, (void *)dynac__cfunc_descr_get},
    {Py_tp_repr, (void *)dynac__cfunc_repr},
    {Py_tp_getset, (void *)dynac__cfunc_getset},
    {Py_tp_members, (void *)dynac__cfunc_members},
    {0, NULL}};

static PyType_Spec dynac__cfunc_spec = {
    "dynac.CompiledFunction", sizeof(dynac__cfunc), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
        Py_TPFLAGS_METHOD_DESCRIPTOR,
    dynac__cfunc_slots};

/* The CompiledFunction type (borrowed; created on first use). */
DYNAC_API PyTypeObject *dynac_compiled_function_type(void) {
  if (!dynac__cfunc_type) dynac__cfunc_type = (PyTypeObject *)PyType_FromSpec(&dynac__cfunc_spec);
  return dynac__cfunc_type;
}


DYNAC_API PyObject *dynac_compiled_function_new(PyObject *func) {
  if (!PyFunction_Check(func)) {
    PyErr_Format(PyExc_TypeError, "dynac: expected a Python function, got %.200s",
                 Py_TYPE(func)->tp_name);
    return NULL;
  }
  PyTypeObject *t = dynac_compiled_function_type();
  if (!t) return NULL;
  dynac__cfunc *cf = PyObject_GC_New(dynac__cfunc, t);
  if (!cf) return NULL;
  cf->vectorcall = dynac__cfunc_vectorcall;
  Py_INCREF(func);
  cf->func = func;
  cf->dict = NULL;
  cf->weaklist = NULL;
  cf->code = NULL;
  cf->cache = NULL;
  cf->on_first_call = NULL;
  PyObject_GC_Track((PyObject *)cf);
  return (PyObject *)cf;
}

DYNAC_API int dynac_compiled_function_on_first_call(PyObject *self, PyObject *callback) {
  if (!dynac__cfunc_type || Py_TYPE(self) != dynac__cfunc_type) {
    PyErr_SetString(PyExc_TypeError, "dynac: expected a CompiledFunction");
    return -1;
  }
  Py_XINCREF(callback);
  Py_XSETREF(((dynac__cfunc *)self)->on_first_call, callback);
  return 0;
}

#if defined(DYNAC_STATIC) && defined(__GNUC__)
__attribute__((unused)) /* a private runtime need not publish its table */
#endif
DYNAC_API const dynac_api_table *dynac_api(void) {
  static const dynac_api_table table = {
      DYNAC_ABI_VERSION, dynac_init, dynac_cache_attach, dynac_dispatch, dynac_hook_acquire,
      dynac_hook_release, dynac_cache_set_resume, dynac_stats, dynac_stats_reset,
      dynac_compiled_function_new, dynac_compiled_function_on_first_call,
      dynac_compiled_function_type, dynac_disable_enter, dynac_disable_exit,
      dynac_call_interpreted, dynac_set_disallowed, dynac_reset, dynac_hook_acquire_deferred,
      dynac_hook_release_deferred, dynac_hook_installed};
  return &table;
}

#endif /* DYNAC_IMPLEMENTATION_DONE */
#endif /* DYNAC_IMPLEMENTATION */
