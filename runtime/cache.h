/* runtime/cache.h: state: per-code-object cache entries. A part of single_include/dynac.h (make single_include). */
/* ---- state ----------------------------------------------------------------- */
typedef struct dynac__entry {
  const dynac_entry_desc *d;
  dynac_globals *g;
  int64_t hits, misses;
  const char *last_fail;      /* the guard that failed last (static string) */
  int logged_hit;
} dynac__entry;

typedef struct dynac__cache {
  char *name;                 /* "module.qualname" */
  int n;
  dynac__entry e[DYNAC_CACHE_LIMIT];
  int64_t interpreter;        /* calls that ran in the interpreter */
  int64_t deopts;             /* kernel calls that handed back to the interpreter */
  const dynac_func_desc *fd;
  const dynac_module_desc *md;
  int disallowed;             /* disallow_in_graph(fn): every call runs in the interpreter */
  int needs_reattach;         /* dynac_reset() dropped the entries; the next call re-adds them */
  const dynac_entry_desc *last_served; /* for the recompiles log */
  int64_t outside_root;       /* calls outside any root's call (interpreter) */
  int64_t unguarded;          /* calls no entry's guards passed (stats: guard_failures) */
  PyObject *owner;            /* strong: keeps the artifact loaded */
  PyObject *resume;           /* strong, or NULL: the function rebuilt around its compiled
                                 regions (a graph-broken function), called with its arguments */
  int64_t resume_calls;
  unsigned generation;         /* bumped when a rebuilt artifact replaces the entries: a
                                 kernel that ran meanwhile (it let another thread run, which
                                 attached the rebuild) finds its entry gone */
  int64_t retired_hits, retired_direct, retired_region; /* counted by the entries and
                                 descriptors of artifacts a rebuild superseded (stats) */
  int warned_limit, logged_interp;
  int servable;               /* an entry may serve a call (or a resume function exists): else
                                 the hook and the vectorcall pass its calls straight through */
  const char *interp_why;     /* static text: why the last call went to the interpreter */
  struct dynac__cache *prev, *next;
} dynac__cache;

/* A CompiledFunction: the vectorcall fast path of a decorated root. */
typedef struct dynac__cfunc {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *func;        /* strong: the original function, unchanged */
  PyObject *code;        /* borrowed: func.__code__ when `cache` was looked up */
  dynac__cache *cache;   /* its cache (alive while the code object is) */
  PyObject *dict;        /* __dict__, for functools.wraps-style attributes */
  PyObject *weaklist;
  PyObject *on_first_call; /* strong, or NULL: called (no arguments) before the first call */
  PyObject *on_miss;     /* strong, or NULL: compile on first call (python/dynac/_jit.py),
                            called as on_miss(args, kwargs, reason) by a call no entry accepts */
} dynac__cfunc;
static PyTypeObject *dynac__cfunc_type;
static Py_ssize_t dynac__extra_index = -1;
static dynac__cache *dynac__caches;       /* every live cache, for stats */
static int dynac__hook_users;
static int dynac__hook_parked;   /* installed by its users, but parked (0: not): see dynac__hook_park */
static int dynac__hook_deferred; /* 1: a hold wanted once a cache exists; 2: taken */
static void dynac__hook_take_deferred(void);
static dynac_compat_eval_fn dynac__prev_eval;
static int dynac__log_dispatch, dynac__log_guards, dynac__log_recompiles, dynac__log_breaks;
static int dynac__generic_kernels; /* DYNAC_GENERIC_KERNELS=1: generic-only entries serve too */
static int dynac__parking = 1;     /* DYNAC_PARK=0: the frame hook never parks (hook.h) */
/* Per-thread dispatch state, one thread-local object (one TLS lookup per call). */
typedef struct dynac__thread {
  int disable_depth;        /* disable(recursive=True) regions: nothing dispatches */
  int root_depth;           /* roots running (Dynamo's "inside a compiled frame");
                               non-roots dispatch only then */
  int eager_depth;          /* backend="eager" roots running */
  PyCodeObject *skip_code;  /* the next frame of it runs in the interpreter */
  char *c_stack_floor;      /* dispatch raises RecursionError below it (0: not known yet) */
  char *c_stack_soft;       /* below it, no kernel serves a call: the interpreter does */
  int c_stack_known;
  int kernel_depth;         /* kernels running (entered by dispatch) */
  int hook_idle;            /* frames the hook let run in the interpreter since it last
                               served one, while a kernel ran (see dynac__hook_park) */
} dynac__thread;
static DYNAC__TLS_FAST dynac__thread dynac__t;
static inline void dynac__kernel_enter(dynac__thread *t); /* hook.h: parking */
static inline void dynac__kernel_exit(dynac__thread *t);
static PyObject *dynac__disallowed;       /* set of code objects (disallow_in_graph) */
static PyObject *dynac__constants;        /* {function: result} (assume_constant_result) */

static void dynac__log(const char *topic, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "[dynac %s] ", topic);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static void dynac__cache_free(void *p) {
  dynac__cache *c = (dynac__cache *)p;
  if (!c) return;
  if (c->prev) c->prev->next = c->next; else dynac__caches = c->next;
  if (c->next) c->next->prev = c->prev;
  Py_XDECREF(c->owner);
  Py_XDECREF(c->resume);
  DYNAC_FREE(c->name);
  DYNAC_FREE(c);
}

/* A function's __code__, __defaults__ or __kwdefaults__ was assigned
 * (dynac_compat_watch_code_assignments): every attached module's snapshot
 * of its globals is made stale (epoch 0: the runtime's starts at 1), so
 * its next entry guard, or mid-call recheck (dynac_globals_still), reads
 * its slots afresh, the functions kernels call directly among them. And
 * each class whose guard (a valid class slot of an attached module) holds
 * fn as the def of a method kernels call directly gets a new version tag
 * (PyType_Modified, as a class attribute's assignment does). Its kernels'
 * direct calls then look at it again (DYNAC_CLASS_FRESH, the entry's
 * dynac_globals_update, heapq's pick of a `less`): the def's code is not
 * what it was (dynac__class_unchanged), so its slot is invalid while the
 * def runs other code, and CPython's call runs the code assigned. A class
 * a guard found not to match gets a new tag too: the assignment may put
 * a def's code back, and the next entry then looks at it again. The
 * assignment leaves the class's tag as it was, and checking each def's code
 * at each direct call, as CPython's CALL does with func_version, cost
 * raytrace 4% of its time. */
static void dynac__code_assigned(PyObject *fn) {
  for (dynac__cache *c = dynac__caches; c; c = c->next)
    for (int e = 0; e < c->n; e++) {
      dynac_globals *g = c->e[e].g;
      if (g) g->epoch = 0;
      for (int k = 0; g && k < g->nslots; k++) {
        dynac_slot *s = &g->slots[k];
        if (g->desc[k].kind != DYNAC_SLOT_CLASS) continue;
        if (s->valid && s->seen && dynac_class_holds_def(&g->desc[k], s, fn))
          PyType_Modified((PyTypeObject *)s->obj);
        else if (!s->valid && s->code) /* a class found not to match: this may be a def's code put back */
          PyType_Modified((PyTypeObject *)s->code);
      }
    }
}

DYNAC_API int dynac_init(void) {
  if (dynac__extra_index >= 0) return 0;
  dynac__extra_index = dynac_compat_code_extra_index(dynac__cache_free);
  if (dynac__extra_index < 0) {
    PyErr_SetString(PyExc_RuntimeError, "dynac: no free code-extra index");
    return -1;
  }
  const char *generic = getenv("DYNAC_GENERIC_KERNELS");
  dynac__generic_kernels = generic && generic[0] == '1';
  const char *park = getenv("DYNAC_PARK");
  dynac__parking = !(park && park[0] == '0');
  const char *logs = getenv("DYNAC_LOGS");
  if (logs) {
    int all = strstr(logs, "all") != NULL;
    dynac__log_dispatch = all || strstr(logs, "dispatch") != NULL;
    dynac__log_guards = all || strstr(logs, "guards") != NULL;
    dynac__log_recompiles = all || strstr(logs, "recompiles") != NULL;
    dynac__log_breaks = all || strstr(logs, "graph_breaks") != NULL;
  }
  dynac__disallowed = PySet_New(NULL);
  dynac__constants = PyDict_New();
  if (!dynac__disallowed || !dynac__constants) return -1;
  if (dynac_compat_watch_code_assignments(dynac__code_assigned) < 0) return -1;
  return 0;
}

