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
  if (!c->servable) return; /* the interpreter runs it: its own vectorcall is the fast way there */
  PyObject *fn = dynac_compat_frame_function(frame);
  if (fn && PyFunction_Check(fn) && dynac_compat_function_enters_interpreter(fn))
    dynac_compat_set_function_vectorcall(fn, dynac__function_vectorcall);
}

/* ---- parking: the hook out of the way of code it does not serve ----------
 * CPython 3.11 builds a C-level frame for every Python-to-Python call while a
 * PEP 523 hook is installed (no inlined calls, no CALL_PY_EXACT_ARGS): on
 * call-heavy interpreted code that costs 20-30%. So the hook parks
 * (uninstalls itself) when it stops earning that cost:
 *  - while a kernel runs, after DYNAC__PARK_IN_KERNEL frames in a row that
 *    it let the interpreter run (the kernel's generic calls reach interpreted
 *    methods and callbacks);
 *  - outside kernels, once it has served a call: at the end of each window of
 *    DYNAC__PARK_WINDOW frames, when the calls it served took less than a
 *    fifth of the window's time (each timed: the time-stamp counter on
 *    x86-64, a few ns to read; CLOCK_MONOTONIC elsewhere). The
 *    tax is a quarter of the rest's time; a kernel saves at least its own
 *    time. A program whose compiled functions ran early (a setup step), or
 *    that serves small kernels among many interpreted calls, parks.
 * Parked inside a kernel, it is reinstalled when the outermost kernel returns;
 * parked outside kernels (kernels entered from C, through a patched
 * vectorcall or a CompiledFunction, need no hook and do not reinstall it), by
 * a timer after DYNAC__REARM_MIN_US (doubled
 * each time it parks again without having served, up to DYNAC__REARM_MAX_US):
 * a later phase of the program that calls compiled functions is served again.
 * Parked, calls that interpreted code makes run in the interpreter, as they
 * would with nothing compiled: no harm, at worst less gain. DYNAC_PARK=0
 * keeps it installed (every call a kernel can serve is served). */
#define DYNAC__PARK_IN_KERNEL 4096
#define DYNAC__PARKED_IN_KERNEL 1  /* dynac__hook_parked: until the kernel returns */
#define DYNAC__PARKED_FOR_TIMER 2  /* ... until the timer reinstalls it */
#define DYNAC__PARK_WINDOW 65536
#define DYNAC__REARM_MIN_US 50000
#define DYNAC__REARM_MAX_US 1600000
static int dynac__hook_served;   /* the hook has served a call */
static int dynac__served_since_rearm; /* ... since the timer last reinstalled it */
static long dynac__rearm_us = DYNAC__REARM_MIN_US;
static struct { long frames; uint64_t start, kernel; } dynac__window; /* in dynac__ticks */

/* A monotonic count for ratios of times (its unit does not matter). */
static inline uint64_t dynac__ticks(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_ia32_rdtsc(); /* invariant TSC: a few ns to read */
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}
static void dynac__window_reset(void) {
  dynac__window.frames = 0;
  dynac__window.kernel = 0;
  dynac__window.start = dynac__ticks();
}
static void dynac__rearm_after(long us);

static PyObject *dynac__eval_frame(PyThreadState *ts, dynac_compat_frame *frame, int throwflag);

static void dynac__hook_install(int on) {
  PyInterpreterState *interp = PyInterpreterState_Get();
  if (on) {
    dynac_compat_eval_fn cur = dynac_compat_get_eval_frame(interp);
    if (cur == dynac__eval_frame) return;
    dynac__window_reset();
    dynac__prev_eval = cur == DYNAC_COMPAT_EVAL_FRAME_DEFAULT ? NULL : cur;
    dynac_compat_set_eval_frame(interp, dynac__eval_frame);
  } else {
    dynac_compat_set_eval_frame(interp, dynac__prev_eval ? dynac__prev_eval : DYNAC_COMPAT_EVAL_FRAME_DEFAULT);
    dynac__prev_eval = NULL;
  }
}

static void dynac__hook_park(dynac__thread *t) {
  if (dynac__hook_parked || dynac__hook_users == 0 || !dynac__parking) return;
  dynac__hook_parked = t->kernel_depth ? DYNAC__PARKED_IN_KERNEL : DYNAC__PARKED_FOR_TIMER;
  dynac__hook_install(0);
  t->hook_idle = 0;
  if (!t->kernel_depth) { /* the timer reinstalls it; backing off while it keeps serving nothing */
    dynac__rearm_us = dynac__served_since_rearm ? DYNAC__REARM_MIN_US
                      : dynac__rearm_us * 2 > DYNAC__REARM_MAX_US ? DYNAC__REARM_MAX_US : dynac__rearm_us * 2;
    dynac__rearm_after(dynac__rearm_us);
  }
  if (dynac__log_dispatch)
    dynac__log("dispatch", t->kernel_depth ? "frame hook parked: it met %d frames in a row while a kernel "
               "ran and served none; CPython's inlined calls until the kernel returns"
               : "frame hook parked: of the last %d frames it met, those it served took under a fifth "
               "of the time; CPython's inlined calls until a timer reinstalls it",
               t->kernel_depth ? DYNAC__PARK_IN_KERNEL : DYNAC__PARK_WINDOW);
}

static void dynac__hook_unpark(void) {
  if (!dynac__hook_parked) return;
  dynac__hook_parked = 0;
  if (dynac__hook_users > 0) dynac__hook_install(1);
}

/* ---- the re-arm timer: one thread, started at the first park outside a
 * kernel, sleeping until a park and then for its delay, then taking the GIL
 * to reinstall the hook (PyGILState_Ensure; CPython 3.11 does not signal a
 * busy main thread about a pending call made from another thread). CPython's
 * own thread and lock API; stopped and joined at exit (atexit runs before
 * the interpreter is torn down); a forked child starts with the hook
 * installed and no timer. */
static PyThread_type_lock dynac__rearm_start, dynac__rearm_wake, dynac__rearm_exited;
static int dynac__rearm_running, dynac__rearm_stop, dynac__rearm_shut; /* shut: at exit, for good */
static volatile long dynac__rearm_delay_us;

static int dynac__rearm_now(void *unused) { /* the GIL held */
  (void)unused;
  if (dynac__hook_parked) {
    dynac__served_since_rearm = 0;
    dynac__hook_unpark();
  }
  return 0;
}

static void dynac__rearm_thread(void *unused) {
  (void)unused;
  for (;;) {
    PyThread_acquire_lock(dynac__rearm_start, WAIT_LOCK); /* a park */
    if (dynac__rearm_stop) break;
    if (PyThread_acquire_lock_timed(dynac__rearm_wake, dynac__rearm_delay_us, 0) == PY_LOCK_ACQUIRED ||
        dynac__rearm_stop)
      break;
    PyGILState_STATE gil = PyGILState_Ensure();
    if (!dynac__rearm_stop) dynac__rearm_now(NULL);
    PyGILState_Release(gil);
  }
  PyThread_release_lock(dynac__rearm_exited);
}

static PyObject *dynac__rearm_stop_timer(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  dynac__rearm_shut = 1;
  if (dynac__rearm_running) {
    dynac__rearm_stop = 1;
    PyThread_release_lock(dynac__rearm_start);
    PyThread_release_lock(dynac__rearm_wake);
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(dynac__rearm_exited, WAIT_LOCK);
    Py_END_ALLOW_THREADS
    dynac__rearm_running = 0;
  }
  Py_RETURN_NONE;
}

static PyObject *dynac__rearm_after_fork(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  dynac__rearm_running = 0; /* the timer thread is the parent's (its locks are left behind) */
  dynac__rearm_now(NULL);
  Py_RETURN_NONE;
}

static PyMethodDef dynac__rearm_stop_def = {"dynac_stop_rearm_timer", dynac__rearm_stop_timer, METH_NOARGS, NULL};
static PyMethodDef dynac__rearm_fork_def = {"dynac_rearm_after_fork", dynac__rearm_after_fork, METH_NOARGS, NULL};

/* Registers fn(name=...) with a Python module's function (atexit.register,
 * os.register_at_fork); 0, or -1 with an exception. */
static int dynac__register_callback(const char *module, const char *register_fn, const char *keyword,
                                    PyMethodDef *def) {
  PyObject *cb = PyCFunction_New(def, NULL), *mod = cb ? PyImport_ImportModule(module) : NULL;
  PyObject *reg = mod ? PyObject_GetAttrString(mod, register_fn) : NULL, *r = NULL;
  if (reg && keyword) {
    PyObject *kw = Py_BuildValue("{sO}", keyword, cb);
    PyObject *noargs = kw ? PyTuple_New(0) : NULL;
    r = noargs ? PyObject_Call(reg, noargs, kw) : NULL;
    Py_XDECREF(noargs);
    Py_XDECREF(kw);
  } else if (reg) {
    r = PyObject_CallOneArg(reg, cb);
  }
  Py_XDECREF(r);
  Py_XDECREF(reg);
  Py_XDECREF(mod);
  Py_XDECREF(cb);
  return r ? 0 : -1;
}

static int dynac__rearm_start_timer(void) {
  if (!dynac__rearm_start) {
    dynac__rearm_start = PyThread_allocate_lock();
    dynac__rearm_wake = PyThread_allocate_lock();
    dynac__rearm_exited = PyThread_allocate_lock();
    if (!dynac__rearm_start || !dynac__rearm_wake || !dynac__rearm_exited) return -1;
    if (dynac__register_callback("atexit", "register", NULL, &dynac__rearm_stop_def) < 0 ||
        dynac__register_callback("os", "register_at_fork", "after_in_child", &dynac__rearm_fork_def) < 0)
      return -1;
  }
  PyThread_acquire_lock(dynac__rearm_start, NOWAIT_LOCK); /* held: each park releases it once */
  PyThread_acquire_lock(dynac__rearm_wake, NOWAIT_LOCK);  /* held: only the stop releases it */
  PyThread_acquire_lock(dynac__rearm_exited, NOWAIT_LOCK);
  dynac__rearm_stop = 0;
  if (PyThread_start_new_thread(dynac__rearm_thread, NULL) == PYTHREAD_INVALID_THREAD_ID) return -1;
  dynac__rearm_running = 1;
  return 0;
}

/* Reinstalls the parked hook after `us` microseconds (the GIL held). Without
 * a timer (it could not start) the hook stays parked until a kernel returns. */
static void dynac__rearm_after(long us) {
  if (dynac__rearm_shut) return;
  dynac__rearm_delay_us = us;
  if (!dynac__rearm_running) {
    PyObject *type, *value, *tb; /* a frame being thrown into has its exception set */
    PyErr_Fetch(&type, &value, &tb);
    int failed = dynac__rearm_start_timer() < 0;
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
    if (failed) return;
  }
  PyThread_release_lock(dynac__rearm_start);
}

/* Kernel entry and exit (dispatch brackets every glue call with these). */
static inline void dynac__kernel_enter(dynac__thread *t) { t->kernel_depth++; }
static inline void dynac__kernel_exit(dynac__thread *t) {
  if (--t->kernel_depth == 0) {
    t->hook_idle = 0;
    if (DYNAC_UNLIKELY(dynac__hook_parked == DYNAC__PARKED_IN_KERNEL)) dynac__hook_unpark();
  }
}

/* The end of a window outside kernels (see parking): does it park? */
static void dynac__window_end(dynac__thread *t) {
  uint64_t spent = dynac__ticks() - dynac__window.start;
  int idle = dynac__hook_served && dynac__window.kernel * 5 < spent;
  dynac__window_reset();
  if (idle) dynac__hook_park(t);
}

/* A frame the hook met outside kernels: the window's count. */
static inline void dynac__window_frame(dynac__thread *t) {
  if (DYNAC_UNLIKELY(++dynac__window.frames >= DYNAC__PARK_WINDOW)) dynac__window_end(t);
}

/* A frame the hook lets the interpreter run. */
static inline PyObject *dynac__hook_pass(dynac__thread *t, PyThreadState *ts, dynac_compat_frame *frame,
                                         int throwflag) {
  if (t->kernel_depth) {
    if (++t->hook_idle >= DYNAC__PARK_IN_KERNEL) dynac__hook_park(t);
  } else {
    dynac__window_frame(t);
  }
  return dynac__eval_default(ts, frame, throwflag);
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
    return dynac__hook_pass(t, ts, frame, throwflag);
  dynac__cache *c = dynac__cache_of(co);
  if (!c) return dynac__hook_pass(t, ts, frame, throwflag);
  if (t->skip_code == co) { /* the dispatcher already tried this call */
    t->skip_code = NULL;
    return dynac__eval_default(ts, frame, throwflag);
  }
  dynac__enter_by_vectorcall(frame, c);
  PyObject *result;
  dynac__call_enter(t, c);
  int outside = !t->kernel_depth; /* outside kernels: the window's time and frames */
  uint64_t t0 = outside ? dynac__ticks() : 0;
  int st = dynac__dispatch_cache(t, c, dynac_compat_frame_locals(frame), dynac_compat_frame_globals(frame),
                                 PyFunction_GET_CLOSURE(dynac_compat_frame_function(frame)), &result);
  if (st != DYNAC__SERVED) {
    if (st == DYNAC__INTERPRET) dynac__note_interpreter(c);
    result = dynac__hook_pass(t, ts, frame, throwflag);
  } else {
    t->hook_idle = 0;
    dynac__hook_served = dynac__served_since_rearm = 1;
    if (outside) {
      dynac__window.kernel += dynac__ticks() - t0;
      dynac__window_frame(t);
    }
  }
  dynac__call_exit(t, c);
  return result;
}

DYNAC_API int dynac_hook_acquire(void) {
  if (dynac__hook_users++ == 0 && !dynac__hook_parked) dynac__hook_install(1);
  return 0;
}

DYNAC_API int dynac_hook_release(void) {
  if (dynac__hook_users > 0 && --dynac__hook_users == 0) {
    if (!dynac__hook_parked) dynac__hook_install(0);
    dynac__hook_parked = 0;
  }
  return 0;
}

/* A hold on the frame hook taken only once some code object has a cache
 * that can serve (at once if one has): `dynac run` of a program with nothing
 * compiled, or only generic-only kernels, runs with no hook at all. CPython
 * 3.11 inlines Python-to-Python calls only while no hook is installed (and
 * then ignores a patched vectorcall),
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
  for (const dynac__cache *c = dynac__caches; c; c = c->next)
    if (c->servable) {
      dynac__hook_take_deferred();
      break;
    }
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

