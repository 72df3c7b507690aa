/* runtime/compiled.h: compiled functions: the vectorcall fast path of a decorated root. A part of single_include/dynac.h (make single_include). */
/* ---- compiled function: the vectorcall fast path of a decorated root ---- */

/* Asks cf's on_miss whether a specialisation for this call was compiled
 * (1: retry the cache), 0: the interpreter runs it, -1: error (raised). It
 * returns True, False, None (never ask again: on_miss is dropped), or an
 * exception, which the call raises (a fullgraph root that cannot compile). */
static int dynac__cfunc_ask_jit(dynac__cfunc *cf, dynac__cache *c, PyObject *const *args,
                                size_t nargsf, PyObject *kwnames) {
  Py_ssize_t n = PyVectorcall_NARGS(nargsf), nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject *pos = PyTuple_New(n), *kw = nk ? PyDict_New() : Py_NewRef(Py_None), *reason = NULL;
  for (Py_ssize_t i = 0; pos && i < n; i++) PyTuple_SET_ITEM(pos, i, Py_NewRef(args[i]));
  for (Py_ssize_t i = 0; kw && i < nk; i++)
    if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[n + i]) < 0) Py_CLEAR(kw);
  if (c && c->n && c->e[0].last_fail)
    reason = PyUnicode_FromFormat("entry %s: guard '%s' failed", c->e[0].d->signature, c->e[0].last_fail);
  else
    reason = Py_NewRef(Py_None);
  PyObject *cb = Py_NewRef(cf->on_miss);
  PyObject *res = pos && kw && reason ? PyObject_CallFunctionObjArgs(cb, pos, kw, reason, NULL) : NULL;
  Py_DECREF(cb);
  Py_XDECREF(pos);
  Py_XDECREF(kw);
  Py_XDECREF(reason);
  if (!res) return -1;
  if (PyExceptionInstance_Check(res)) { /* raised as the call's own error (fullgraph=True) */
    PyErr_SetObject((PyObject *)Py_TYPE(res), res);
    Py_DECREF(res);
    return -1;
  }
  if (res == Py_None) Py_CLEAR(cf->on_miss);
  int retry = res == Py_True;
  Py_DECREF(res);
  return retry;
}

/* A call of a root that compiles on first call: a call no cache entry
 * accepts (no cache yet, no entry, every entry's guards failed, or a shape
 * the cache cannot take) asks on_miss, which may build and attach a
 * specialisation for it; then the cache serves it, or the interpreter. */
static PyObject *dynac__cfunc_call_jit(dynac__cfunc *cf, PyCodeObject *co, PyObject *const *args,
                                       size_t nargsf, PyObject *kwnames) {
  dynac__thread *t = &dynac__t;
  dynac__cache *c = cf->cache;
  if (t->disable_depth) /* disable(): nothing compiles or dispatches */
    return dynac__serve_call(c, cf->func, co, args, nargsf, kwnames, dynac__call_in_interpreter);
  int64_t unguarded = c ? c->unguarded : 0;
  PyObject *r = NULL;
  if (c) dynac__call_enter(t, c);
  int st = dynac__try_cache(t, c, cf->func, co, args, nargsf, kwnames, &r);
  if (c) dynac__call_exit(t, c);
  if (st == DYNAC__SERVED) return r;
  /* a call of another shape goes to its frame, where the hook dispatches it with
   * its arguments bound: asked only while nothing is compiled for the function */
  if (!c || !c->n || (st >= 0 && c->unguarded != unguarded)) {
    int retry = dynac__cfunc_ask_jit(cf, c, args, nargsf, kwnames);
    if (retry < 0) return NULL;
    cf->cache = c = dynac__cache_of(co);
    if (retry) return dynac__serve_call(c, cf->func, co, args, nargsf, kwnames, dynac__call_in_interpreter);
  }
  if (c) dynac__call_enter(t, c);
  r = dynac__call_in_interpreter(cf->func, st >= 0 ? co : NULL, args, nargsf, kwnames);
  if (c) dynac__call_exit(t, c);
  return r;
}

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
  if (DYNAC_UNLIKELY(cf->on_miss != NULL)) return dynac__cfunc_call_jit(cf, co, args, nargsf, kwnames);
  return dynac__serve_call(cf->cache, cf->func, co, args, nargsf, kwnames, dynac__call_in_interpreter);
}

static void dynac__cfunc_dealloc(PyObject *self) {
  dynac__cfunc *cf = (dynac__cfunc *)self;
  PyObject_GC_UnTrack(self);
  if (cf->weaklist) PyObject_ClearWeakRefs(self);
  Py_CLEAR(cf->func);
  Py_CLEAR(cf->dict);
  Py_CLEAR(cf->on_first_call);
  Py_CLEAR(cf->on_miss);
  Py_TYPE(self)->tp_free(self);
}

static int dynac__cfunc_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(((dynac__cfunc *)self)->func);
  Py_VISIT(((dynac__cfunc *)self)->dict);
  Py_VISIT(((dynac__cfunc *)self)->on_first_call);
  Py_VISIT(((dynac__cfunc *)self)->on_miss);
  return 0;
}

static int dynac__cfunc_clear(PyObject *self) {
  Py_CLEAR(((dynac__cfunc *)self)->func);
  Py_CLEAR(((dynac__cfunc *)self)->dict);
  Py_CLEAR(((dynac__cfunc *)self)->on_first_call);
  Py_CLEAR(((dynac__cfunc *)self)->on_miss);
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
  cf->on_miss = NULL;
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
