/* runtime/dispatch.h: what generated code borrows from the runtime (dynac_rt): dispatch. A part of single_include/dynac.h (make single_include). */
/* ---- what generated code borrows from the runtime (dynac_rt) --------------- */
static PyObject *dynac__code_of(PyObject *fn) { /* borrowed, or NULL */
  if (PyFunction_Check(fn)) return PyFunction_GET_CODE(fn);
  if (dynac__cfunc_type && Py_TYPE(fn) == dynac__cfunc_type)
    return PyFunction_GET_CODE(((dynac__cfunc *)fn)->func);
  return NULL;
}

static int dynac__rt_is_disallowed(PyObject *fn) {
  PyObject *key = dynac__code_of(fn);
  if (!key) key = fn;
  int r = PySet_Contains(dynac__disallowed, key);
  if (r < 0) PyErr_Clear();
  return r > 0;
}

static PyObject *dynac__rt_constant_result(PyObject *fn) {
  PyObject *r = PyDict_GetItemWithError(dynac__constants, fn); /* borrowed */
  if (r || PyErr_Occurred()) return r;
  r = PyObject_CallNoArgs(fn);
  if (!r) return NULL;
  int st = PyDict_SetItem(dynac__constants, fn, r);
  Py_DECREF(r); /* the dict keeps it */
  return st < 0 ? NULL : r;
}

/* Calls func with the frame hook held, so the functions it calls dispatch;
 * the next frame of `skip` (or none) runs in the interpreter. */
static PyObject *dynac__call_in_interpreter(PyObject *func, PyCodeObject *skip,
                                            PyObject *const *args, size_t nargsf,
                                            PyObject *kwnames) {
  dynac_hook_acquire();
  PyCodeObject *saved = dynac__t.skip_code;
  if (skip) dynac__t.skip_code = skip;
  PyObject *r = PyObject_Vectorcall(func, args, nargsf, kwnames);
  dynac__t.skip_code = saved;
  dynac_hook_release();
  return r;
}

static PyObject *dynac__rt_call_opaque(PyObject *fn, PyObject *const *args, size_t npos, PyObject *kwnames) {
  return dynac__call_in_interpreter(fn, NULL, args, npos, kwnames);
}

static inline int dynac__c_stack_low(dynac__thread *t);
static int dynac__rt_deep_call_refused(int depth) {
  return depth + 50 >= dynac__recursion_remaining() || dynac__c_stack_low(&dynac__t);
}

static int dynac__rt_eval_breaker(int may_switch) {
  if (Py_MakePendingCalls() < 0) return -1; /* signals first, then pending calls */
  if (may_switch && dynac__gil_drop_requested()) PyEval_RestoreThread(PyEval_SaveThread());
  return 0;
}

static dynac_rt dynac__rt = {1, dynac__rt_is_disallowed, dynac__rt_constant_result,
                             dynac__rt_call_opaque, dynac__rt_deep_call_refused,
                             dynac__rt_eval_breaker, 0};

static inline dynac__cache *dynac__cache_of(PyCodeObject *code) {
  return (dynac__cache *)dynac_compat_code_extra(code, dynac__extra_index);
}

static int dynac__add_entries(dynac__cache *c, const dynac_module_desc *md,
                              const dynac_func_desc *fd);

#define DYNAC__GENERIC_ONLY_WHY "its kernel is generic-only (its typed islands weigh less than its " \
  "attribute lookups: not faster than the interpreter yet); DYNAC_GENERIC_KERNELS=1 runs it"

/* Can the cache serve any call? Generic-only entries serve only with
 * DYNAC_GENERIC_KERNELS=1 (not faster than the interpreter yet). The first
 * servable cache takes the deferred hold on the frame hook: a program whose
 * caches cannot serve keeps CPython's inlined calls (no hook at all). */
static void dynac__update_servable(dynac__cache *c) {
  int servable = c->resume != NULL;
  for (int i = 0; i < c->n && !servable; i++)
    servable = !(c->e[i].d->flags & DYNAC_ENTRY_GENERIC_ONLY) || dynac__generic_kernels;
  c->servable = servable;
  if (servable) dynac__hook_take_deferred();
}

DYNAC_API int dynac_cache_attach(PyCodeObject *code, const dynac_module_desc *md,
                                 const dynac_func_desc *fd, PyObject *owner, const char *name) {
  if (dynac_init() < 0) return -1;
  dynac__cache *c = dynac__cache_of(code);
  if (!c) {
    c = (dynac__cache *)DYNAC_MALLOC(sizeof *c);
    if (!c) { PyErr_NoMemory(); return -1; }
    memset(c, 0, sizeof *c);
    size_t len = strlen(name);
    c->name = (char *)DYNAC_MALLOC(len + 1);
    if (!c->name) { DYNAC_FREE(c); PyErr_NoMemory(); return -1; }
    memcpy(c->name, name, len + 1);
    c->fd = fd;
    c->md = md;
    int dis = PySet_Contains(dynac__disallowed, (PyObject *)code);
    if (dis < 0) { DYNAC_FREE(c->name); DYNAC_FREE(c); return -1; }
    c->disallowed = dis;
    Py_INCREF(owner);
    c->owner = owner;
    if (dynac_compat_code_set_extra((PyObject *)code, dynac__extra_index, c) < 0) {
      dynac__cache_free(c);
      return -1;
    }
    c->next = dynac__caches;
    if (dynac__caches) dynac__caches->prev = c;
    dynac__caches = c;
  }
  md->globals->rt = &dynac__rt;
  if (!md->globals->filename) {
    Py_INCREF(code->co_filename);
    md->globals->filename = code->co_filename;
  }
  return dynac__add_entries(c, md, fd);
}

/* A rebuilt artifact of the same source supersedes the one `code`'s cache
 * was attached from (compile on first call, python/dynac/_jit.py): its
 * entries are dropped and the cache takes the new artifact's descriptors
 * (the old artifact stays loaded while a kernel of it may still run: its
 * module object is kept by the loader). No-op without a cache. */
static DYNAC_NOINLINE void dynac__cache_rebind(PyCodeObject *code, const dynac_module_desc *md,
                                               const dynac_func_desc *fd, PyObject *owner) {
  dynac__cache *c = dynac__cache_of(code);
  if (!c || c->owner == owner) return;
  for (int i = 0; i < c->n; i++) c->retired_hits += c->e[i].hits;
  c->generation++;
  c->retired_direct += c->fd->direct_calls ? *c->fd->direct_calls : 0;
  c->retired_region += c->fd->region_calls ? *c->fd->region_calls : 0;
  c->n = 0;
  c->fd = fd;
  c->md = md;
  c->last_served = NULL;
  c->warned_limit = 0;
  Py_CLEAR(c->resume); /* the new artifact's, if any, is set after */
  Py_INCREF(owner);
  Py_SETREF(c->owner, owner);
  dynac__update_servable(c);
}

/* Adds fd's entries not yet in c (up to the cache limit, with one warning).
 * Returns how many, or -1 with an exception set. */
static int dynac__add_entries(dynac__cache *c, const dynac_module_desc *md,
                              const dynac_func_desc *fd) {
  int attached = 0;
  for (int i = 0; i < fd->nentries; i++) {
    const dynac_entry_desc *d = &fd->entries[i];
    int dup = 0;
    for (int k = 0; k < c->n; k++) if (c->e[k].d == d) dup = 1;
    if (dup) continue;
    if (c->n == DYNAC_CACHE_LIMIT) {
      if (!c->warned_limit) {
        c->warned_limit = 1;
        if (PyErr_WarnFormat(PyExc_RuntimeWarning, 1,
                             "dynac: %s: cache_size_limit (%d) reached; specialisation %s "
                             "and later ones run in the interpreter", c->name,
                             DYNAC_CACHE_LIMIT, d->signature) < 0)
          return -1;
      }
      break;
    }
    DYNAC_ASSERT(c->n < DYNAC_CACHE_LIMIT);
    dynac__entry *e = &c->e[c->n++];
    memset(e, 0, sizeof *e);
    e->d = d;
    e->g = md->globals;
    attached++;
    if (dynac__log_recompiles)
      dynac__log("recompiles", "%s: cache entry %s added%s", c->name, d->signature,
                 c->needs_reattach ? " (after dynac.reset())" : "");
  }
  dynac__update_servable(c);
  return attached;
}

static void dynac__move_to_front(dynac__cache *c, int i) {
  if (i == 0) return;
  dynac__entry hit = c->e[i];
  memmove(&c->e[1], &c->e[0], sizeof(dynac__entry) * (size_t)i);
  c->e[0] = hit;
}

/* dynac__dispatch_cache results */
#define DYNAC__INTERPRET 0 /* run the frame in the interpreter */
#define DYNAC__SERVED 1    /* *result is the call's result (or NULL: its exception) */
#define DYNAC__EAGER 2     /* backend="eager": an entry's guards passed; interpret */

/* Roots (and eager roots) count as running while their call runs, in the
 * interpreter or not: non-roots dispatch only inside a root's call. */
static inline void dynac__call_enter(dynac__thread *t, const dynac__cache *c) {
  if (c->fd->flags & DYNAC_FUNC_ROOT) t->root_depth++;
  if (c->fd->flags & DYNAC_FUNC_EAGER) t->eager_depth++;
}
static inline void dynac__call_exit(dynac__thread *t, const dynac__cache *c) {
  if (c->fd->flags & DYNAC_FUNC_ROOT) t->root_depth--;
  if (c->fd->flags & DYNAC_FUNC_EAGER) t->eager_depth--;
}

/* The recompiles log: the call is served by another entry (or by the
 * interpreter) than the last one. d: the new entry, NULL: interpreter. */
static void dynac__log_switch(dynac__cache *c, const dynac_entry_desc *d, const char *failed) {
  if (c->last_served && c->last_served != d)
    dynac__log("recompiles", "%s: now served by %s%s (entry %s: guard '%s' failed)", c->name,
               d ? "entry " : "the interpreter", d ? d->signature : "", c->last_served->signature,
               failed ? failed : "?");
  c->last_served = d;
}

/* Is the C stack nearly used up? Then a dispatch raises RecursionError, as
 * CPython does when C recursion nears the stack's end, instead of crashing. */
static int dynac__c_stack_exhausted(dynac__thread *t) {
  if (DYNAC_UNLIKELY(!t->c_stack_known)) {
    t->c_stack_floor = dynac__c_stack_floor_of_thread(&t->c_stack_soft);
    t->c_stack_known = 1;
  }
  char here;
  return t->c_stack_floor && &here < t->c_stack_floor;
}
/* Is it deep enough that kernels, whose frames are larger than a Python
 * call's share of the C stack, should leave the calls to the interpreter
 * (kernel-to-kernel recursion stops too: dynac_rt.deep_call_refused)? */
static inline int dynac__c_stack_low(dynac__thread *t) {
  if (DYNAC_UNLIKELY(!t->c_stack_known)) (void)dynac__c_stack_exhausted(t);
  char here;
  return t->c_stack_soft && &here < t->c_stack_soft;
}

/* Runs the glue of entry d (its guards passed): the kernel, with the frame
 * hook held while it may call Python code. DYNAC_OK (*result set),
 * DYNAC_ERROR (*result NULL, an exception set) or DYNAC_DEOPT (nothing
 * done). */
static inline int dynac__run_glue(dynac__thread *t, const dynac_entry_desc *d, PyObject *const *args,
                                  PyObject *closure, PyObject **result) {
  *result = NULL;
  int hold = d->flags & DYNAC_ENTRY_CALLS_PYTHON;
  if (hold) dynac_hook_acquire();
  dynac__kernel_enter(t);
  int st = d->glue(args, closure, result);
  dynac__kernel_exit(t);
  if (hold) dynac_hook_release();
  if (st == DYNAC_ERROR) Py_CLEAR(*result); /* the exception is the result */
  return st;
}

/* A kernel ran while a rebuilt artifact replaced c's entries (it let another
 * thread run, which attached the rebuild): its entry is gone, its answer
 * stands unless it deoptimised. */
static int dynac__served_across_rebuild(dynac__cache *c, int st) {
  if (st == DYNAC_DEOPT) return DYNAC__INTERPRET;
  c->retired_hits++;
  return DYNAC__SERVED;
}

static int dynac__dispatch_entries(dynac__thread *t, dynac__cache *c, PyObject *const *args,
                                   PyObject *globals, PyObject *closure, PyObject **result,
                                   int from);

/* The common call in few instructions: the cache's first entry (the last
 * that served: dynac__move_to_front) takes it and its kernel finishes.
 * Anything else (a condition dynac__dispatch_entries checks first could
 * matter, a log is on, the guard failed, the kernel deoptimised) goes to the
 * full dispatch, from the first entry not yet tried; the guard is pure, so
 * asking it again there costs only time. As CPython's specialised CALL
 * tries its inline cache before the generic path. */
static inline DYNAC_ALWAYS_INLINE int dynac__dispatch_cache(dynac__thread *t, dynac__cache *c,
                                                            PyObject *const *args, PyObject *globals,
                                                            PyObject *closure, PyObject **result) {
  int from = 0;
  const dynac_entry_desc *d = c->n ? c->e[0].d : NULL;
  if (DYNAC_LIKELY(d && c->servable && !c->disallowed && !c->needs_reattach && !t->eager_depth &&
                   ((c->fd->flags & DYNAC_FUNC_ROOT) || t->root_depth) && !dynac__c_stack_low(t) &&
                   (!(d->flags & DYNAC_ENTRY_GENERIC_ONLY) || dynac__generic_kernels) &&
                   !(dynac__log_dispatch | dynac__log_guards | dynac__log_recompiles))) {
    const char *failed = NULL;
    dynac__rt.guard_serial++; /* the globals are checked afresh */
    int ok = d->guard(args, globals, &failed);
    if (ok < 0) { *result = NULL; return DYNAC__SERVED; }
    if (ok) {
      unsigned generation = c->generation;
      int st = dynac__run_glue(t, d, args, closure, result);
      if (DYNAC_UNLIKELY(c->generation != generation)) return dynac__served_across_rebuild(c, st);
      if (DYNAC_LIKELY(st != DYNAC_DEOPT)) {
        c->e[0].hits++;
        return DYNAC__SERVED;
      }
      c->deopts++;
      dynac__rt.guard_serial++;
      c->interp_why = "the kernel deoptimised (DYNAC_LOGS=dispatch names it)";
      from = 1;
    }
  }
  return dynac__dispatch_entries(t, c, args, globals, closure, result, from);
}

/* The full dispatch: every condition, then the entries from index `from`
 * in order (the first whose guards pass and whose kernel does not
 * deoptimise serves), then the resume function, else the interpreter. */
static int dynac__dispatch_entries(dynac__thread *t, dynac__cache *c, PyObject *const *args,
                                   PyObject *globals, PyObject *closure, PyObject **result,
                                   int from) {
  if (DYNAC_UNLIKELY(dynac__c_stack_low(t))) { /* one compare on the way in; the floor is below */
    if (dynac__c_stack_exhausted(t)) {
      PyErr_Format(PyExc_RecursionError, "maximum recursion depth exceeded in %s: calls through "
                   "dynac's compiled functions used up the C stack (sys.setrecursionlimit was "
                   "raised past what the C stack holds)", c->name);
      *result = NULL;
      return DYNAC__SERVED;
    }
    c->interp_why = "the C stack is deep: the interpreter runs the call (CPython's recursion limit "
                    "then ends a runaway recursion)";
    return DYNAC__INTERPRET;
  }
  if (c->disallowed) {
    c->interp_why = "disallow_in_graph";
    return DYNAC__INTERPRET;
  }
  if (!(c->fd->flags & DYNAC_FUNC_ROOT) && !t->root_depth) {
    c->outside_root++;
    c->interp_why = "not a compile root: its kernels serve only calls from other kernels; "
                    "decorate it, or record a run that calls it";
    return DYNAC__INTERPRET;
  }
  c->interp_why = "no cache entry's guards passed";
  if (DYNAC_UNLIKELY(c->needs_reattach)) {
    if (dynac__add_entries(c, c->md, c->fd) < 0) { *result = NULL; return DYNAC__SERVED; }
    c->needs_reattach = 0;
  }
  if (!c->servable) {
    c->interp_why = DYNAC__GENERIC_ONLY_WHY;
    return DYNAC__INTERPRET;
  }
  int eager = t->eager_depth > 0;
  const char *first_failed = NULL;
  int passed = from > 0; /* some entry's guards passed (it may have deoptimised): from 1, the fast
                            path's entry 0, whose kernel deoptimised; not a guard failure, which
                            would ask a JIT root to compile for types it has a kernel for */
  dynac__rt.guard_serial++; /* the globals are checked afresh, once for this try */
  for (int i = from; i < c->n; i++) {
    dynac__entry *e = &c->e[i];
    if ((e->d->flags & DYNAC_ENTRY_GENERIC_ONLY) && !dynac__generic_kernels) {
      c->interp_why = DYNAC__GENERIC_ONLY_WHY;
      continue;
    }
    const char *failed = NULL;
    int ok = e->d->guard(args, globals, &failed);
    if (ok < 0) { *result = NULL; return DYNAC__SERVED; }
    passed |= ok;
    if (!ok) {
      e->misses++;
      if (dynac__log_guards && failed != e->last_fail)
        dynac__log("guards", "%s: entry %s rejected: guard '%s' failed", c->name,
                   e->d->signature, failed ? failed : "?");
      e->last_fail = failed;
      if (!first_failed) first_failed = failed;
      continue;
    }
    if (dynac__log_recompiles) dynac__log_switch(c, e->d, first_failed);
    if (eager) {
      e->hits++;
      if (dynac__log_dispatch && !e->logged_hit) {
        e->logged_hit = 1;
        dynac__log("dispatch", "%s: entry %s's guards passed; backend eager runs the "
                   "interpreter (first time)", c->name, e->d->signature);
      }
      dynac__move_to_front(c, i);
      return DYNAC__EAGER;
    }
    unsigned generation = c->generation;
    int st = dynac__run_glue(t, e->d, args, closure, result);
    if (DYNAC_UNLIKELY(c->generation != generation)) return dynac__served_across_rebuild(c, st);
    if (st == DYNAC_DEOPT) { /* the call is untouched: a later entry (or the interpreter) runs it */
      c->deopts++;
      dynac__rt.guard_serial++;
      c->interp_why = "the kernel deoptimised (DYNAC_LOGS=dispatch names it)";
      if (dynac__log_dispatch)
        dynac__log("dispatch", "%s: kernel %s deoptimised; this call goes to the next entry or "
                   "the interpreter", c->name, e->d->signature);
      continue;
    }
    e->hits++;
    if (dynac__log_dispatch && !e->logged_hit) {
      e->logged_hit = 1;
      dynac__log("dispatch", "%s: kernel %s served the call (first hit)", c->name,
                 e->d->signature);
    }
    if (!(e->d->flags & DYNAC_ENTRY_GENERIC)) dynac__move_to_front(c, i);
    return DYNAC__SERVED; /* DYNAC_OK, or DYNAC_ERROR with *result == NULL */
  }
  if (c->n && !passed) c->unguarded++;
  if (c->resume && !eager) { /* graph breaks: compiled regions, the rest interpreted */
    c->resume_calls++;
    if ((dynac__log_dispatch || dynac__log_breaks) && c->resume_calls == 1)
      dynac__log(dynac__log_breaks ? "graph_breaks" : "dispatch",
                 "%s: resume function (compiled regions around graph breaks; first call; "
                 "`dynac explain` lists the breaks)", c->name);
    dynac_hook_acquire(); /* functions the interpreted statements call dispatch too */
    *result = PyObject_Vectorcall(c->resume, args, (size_t)c->fd->argcount, NULL);
    dynac_hook_release();
    return DYNAC__SERVED;
  }
  if (dynac__log_recompiles) dynac__log_switch(c, NULL, first_failed);
  return DYNAC__INTERPRET;
}

DYNAC_API int dynac_cache_set_resume(PyCodeObject *code, PyObject *resume) {
  dynac__cache *c = dynac__cache_of(code);
  if (!c) {
    PyErr_SetString(PyExc_RuntimeError, "dynac: no cache attached to this code object");
    return -1;
  }
  Py_INCREF(resume);
  Py_XSETREF(c->resume, resume);
  dynac__update_servable(c);
  return 0;
}

static void dynac__note_interpreter(dynac__cache *c) {
  c->interpreter++;
  if (dynac__log_dispatch && !c->logged_interp) {
    c->logged_interp = 1;
    dynac__log("dispatch", "%s: interpreter (%s; first time)", c->name,
               c->interp_why ? c->interp_why : "no cache entry's guards passed");
  }
}

/* How a call its cache did not serve runs: `func` in the interpreter;
 * `tried` (or NULL) is its code when the dispatcher already tried this call,
 * so that the frame hook lets its frame run. */
typedef PyObject *(*dynac__interpret_fn)(PyObject *func, PyCodeObject *tried, PyObject *const *args,
                                         size_t nargsf, PyObject *kwnames);

/* A call of function `func` (code `co`, its cache `c` or NULL) entered before
 * any frame exists (a CompiledFunction, a function's vectorcall): the cache
 * serves it when the call's shape is its parameters', else `interpret`. */
/* The cache `c` tries a call of `func` (code `co`): DYNAC__SERVED (*r set,
 * NULL with an exception raised), what the dispatcher said, or -1 when it
 * did not try (the call's shape is not the parameters': its frame binds them). */
static inline DYNAC_ALWAYS_INLINE int dynac__try_cache(dynac__thread *t, dynac__cache *c, PyObject *func,
                                                       PyCodeObject *co, PyObject *const *args, size_t nargsf,
                                                       PyObject *kwnames, PyObject **r) {
  if (!c || kwnames || PyVectorcall_NARGS(nargsf) != co->co_argcount || co->co_kwonlyargcount != 0 ||
      (co->co_flags & (DYNAC__SKIP_FLAGS | CO_VARARGS | CO_VARKEYWORDS)))
    return -1;
  int st = dynac__dispatch_cache(t, c, args, PyFunction_GET_GLOBALS(func), PyFunction_GET_CLOSURE(func), r);
  if (st == DYNAC__INTERPRET) dynac__note_interpreter(c);
  return st;
}

static inline DYNAC_ALWAYS_INLINE PyObject *dynac__serve_call(dynac__cache *c, PyObject *func,
                                                              PyCodeObject *co, PyObject *const *args,
                                                              size_t nargsf, PyObject *kwnames,
                                                              dynac__interpret_fn interpret) {
  dynac__thread *t = &dynac__t;
  if (t->disable_depth) c = NULL;
  PyObject *r = NULL;
  if (c) dynac__call_enter(t, c);
  int st = dynac__try_cache(t, c, func, co, args, nargsf, kwnames, &r);
  if (st != DYNAC__SERVED) r = interpret(func, st >= 0 ? co : NULL, args, nargsf, kwnames);
  if (c) dynac__call_exit(t, c);
  return r;
}

DYNAC_API int dynac_dispatch(PyCodeObject *code, PyObject *const *args, PyObject *globals,
                             PyObject **result) {
  dynac__cache *c = dynac__cache_of(code);
  dynac__thread *t = &dynac__t;
  if (!c || t->disable_depth) return 0;
  int st = dynac__dispatch_cache(t, c, args, globals, NULL, result); /* kernels reading a closure deoptimise */
  if (st == DYNAC__SERVED) return 1;
  if (st == DYNAC__INTERPRET) dynac__note_interpreter(c);
  return 0;
}

