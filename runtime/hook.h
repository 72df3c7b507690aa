/* runtime/hook.h: the PEP 523 frame hook. A part of single_include/dynac.h (make single_include). */
/* ---- the PEP 523 frame hook --------------------------------------------- */
static PyObject *dynac__eval_default(PyThreadState *ts, dynac_compat_frame *f, int t) {
  return dynac__prev_eval ? dynac__prev_eval(ts, f, t) : DYNAC_COMPAT_EVAL_FRAME_DEFAULT(ts, f, t);
}

/* A function whose code has a cache is entered here, before the
 * interpreter builds a frame (Python-to-Python calls, and calls from C:
 * operators, type calls, a kernel's generic calls), once the frame hook
 * met it: the cache serves the call, or the frame runs in the interpreter
 * as before (the hook does not try it again). The idea of entering
 * compiled code through the callee's vectorcall is PEP 590's. */
static PyObject *dynac__function_itself(PyObject *func, PyCodeObject *tried, PyObject *const *args,
                                        size_t nargsf, PyObject *kwnames) {
  PyCodeObject *saved = dynac__t.skip_code;
  if (tried) dynac__t.skip_code = tried; /* the hook lets its frame run */
  PyObject *r = dynac_compat_function_call_interpreted(func, args, nargsf, kwnames);
  dynac__t.skip_code = saved;
  return r;
}
static PyObject *dynac__function_vectorcall(PyObject *func, PyObject *const *args, size_t nargsf,
                                            PyObject *kwnames) {
  PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(func);
  return dynac__serve_call(dynac__cache_of(co), func, co, args, nargsf, kwnames, dynac__function_itself);
}

/* The frame hook met a function whose code has a cache: its later calls
 * enter through dynac__function_vectorcall, with no frame built first. */
static void dynac__enter_by_vectorcall(dynac_compat_frame *frame, const dynac__cache *c) {
  int servable = c->resume != NULL;
  for (int i = 0; i < c->n && !servable; i++)
    servable = !(c->e[i].d->flags & DYNAC_ENTRY_GENERIC_ONLY) || dynac__generic_kernels;
  if (!servable) return; /* the interpreter runs it: its own vectorcall is the fast way there */
  PyObject *fn = dynac_compat_frame_function(frame);
  if (fn && PyFunction_Check(fn) && dynac_compat_function_enters_interpreter(fn))
    dynac_compat_set_function_vectorcall(fn, dynac__function_vectorcall);
}

/* Called by CPython for every frame while installed. A fresh frame of a
 * code object with a cache runs its cache; a kernel's result is returned
 * without running the frame (the interpreter, which called the hook, clears it).
 * Generators, coroutines, throws and unknown code pass through. */
static PyObject *dynac__eval_frame(PyThreadState *ts, dynac_compat_frame *frame,
                                   int throwflag) {
  PyCodeObject *co = dynac_compat_frame_code(frame);
  dynac__thread *t = &dynac__t;
  if (throwflag || (co->co_flags & DYNAC__SKIP_FLAGS) || t->disable_depth)
    return dynac__eval_default(ts, frame, throwflag);
  dynac__cache *c = dynac__cache_of(co);
  if (!c) return dynac__eval_default(ts, frame, throwflag);
  if (t->skip_code == co) { /* the dispatcher already tried this call */
    t->skip_code = NULL;
    return dynac__eval_default(ts, frame, throwflag);
  }
  dynac__enter_by_vectorcall(frame, c);
  PyObject *result;
  dynac__call_enter(t, c);
  int st = dynac__dispatch_cache(t, c, dynac_compat_frame_locals(frame), dynac_compat_frame_globals(frame),
                                 PyFunction_GET_CLOSURE(dynac_compat_frame_function(frame)), &result);
  if (st != DYNAC__SERVED) {
    if (st == DYNAC__INTERPRET) dynac__note_interpreter(c);
    result = dynac__eval_default(ts, frame, throwflag);
  }
  dynac__call_exit(t, c);
  return result;
}

DYNAC_API int dynac_hook_acquire(void) {
  if (dynac__hook_users++ == 0) {
    PyInterpreterState *interp = PyInterpreterState_Get();
    dynac_compat_eval_fn cur = dynac_compat_get_eval_frame(interp);
    dynac__prev_eval = cur == DYNAC_COMPAT_EVAL_FRAME_DEFAULT ? NULL : cur;
    dynac_compat_set_eval_frame(interp, dynac__eval_frame);
  }
  return 0;
}

DYNAC_API int dynac_hook_release(void) {
  if (dynac__hook_users > 0 && --dynac__hook_users == 0) {
    PyInterpreterState *interp = PyInterpreterState_Get();
    dynac_compat_set_eval_frame(interp, dynac__prev_eval ? dynac__prev_eval : DYNAC_COMPAT_EVAL_FRAME_DEFAULT);
    dynac__prev_eval = NULL;
  }
  return 0;
}

/* A hold on the frame hook taken only once some code object has a cache
 * (at once if one has): `dynac run` of a program with nothing compiled
 * runs with no hook at all. CPython 3.11 inlines Python-to-Python calls
 * only while no hook is installed (and then ignores a patched vectorcall),
 * so the hook is the price of being served at all, paid only when there is
 * something to serve. release_deferred gives the hold back if it was taken. */
static void dynac__hook_take_deferred(void) {
  if (dynac__hook_deferred != 1) return;
  dynac__hook_deferred = 2;
  dynac_hook_acquire();
}
DYNAC_API void dynac_hook_acquire_deferred(void) {
  if (dynac__hook_deferred) return;
  dynac__hook_deferred = 1;
  if (dynac__caches) dynac__hook_take_deferred();
}
DYNAC_API void dynac_hook_release_deferred(void) {
  if (dynac__hook_deferred == 2) dynac_hook_release();
  dynac__hook_deferred = 0;
}

DYNAC_API int dynac_hook_installed(void) { return dynac__hook_users > 0; }

DYNAC_API void dynac_disable_enter(void) { dynac__t.disable_depth++; }
DYNAC_API void dynac_disable_exit(void) { if (dynac__t.disable_depth > 0) dynac__t.disable_depth--; }

DYNAC_API PyObject *dynac_call_interpreted(PyObject *fn, PyObject *const *args, size_t nargsf,
                                           PyObject *kwnames) {
  PyObject *code = dynac__code_of(fn);
  if (!code) return PyObject_Vectorcall(fn, args, nargsf, kwnames);
  PyObject *func = PyFunction_Check(fn) ? fn : ((dynac__cfunc *)fn)->func;
  dynac__cache *c = dynac__cache_of((PyCodeObject *)code);
  dynac__thread *t = &dynac__t;
  if (c) dynac__call_enter(t, c);
  PyObject *r = dynac__call_in_interpreter(func, (PyCodeObject *)code, args, nargsf, kwnames);
  if (c) dynac__call_exit(t, c);
  return r;
}

DYNAC_API int dynac_set_disallowed(PyObject *fn, int disallowed) {
  if (dynac_init() < 0) return -1;
  PyObject *key = dynac__code_of(fn);
  if (!key) key = fn;
  if ((disallowed ? PySet_Add(dynac__disallowed, key) : PySet_Discard(dynac__disallowed, key)) < 0)
    return -1;
  dynac__cache *c = PyCode_Check(key) ? dynac__cache_of((PyCodeObject *)key) : NULL;
  if (c) c->disallowed = disallowed;
  dynac__rt.annotations_epoch++;
  return 0;
}

DYNAC_API void dynac_reset(void) {
  for (dynac__cache *c = dynac__caches; c; c = c->next) {
    c->n = 0;
    c->needs_reattach = 1;
    c->last_served = NULL;
    c->warned_limit = c->logged_interp = 0;
  }
  dynac_stats_reset();
  if (dynac__constants) PyDict_Clear(dynac__constants);
  dynac__rt.annotations_epoch++;
}

