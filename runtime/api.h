/* runtime/api.h: the runtime API and its table (declarations). A part of single_include/dynac.h (make single_include). */
/* ======================================================================
 * 3. Runtime API (implemented under DYNAC_IMPLEMENTATION)
 * ==================================================================== */

/* Initialises the runtime (code-extra index, logs from $DYNAC_LOGS).
 * Idempotent. Returns 0, or -1 with an exception set. */
DYNAC_API int dynac_init(void);

/* Attaches the entries of `fd` (from the module descriptor `md`, whose
 * capsule/module `owner` is kept alive by the cache) to `code` as cache
 * entries. `name` is "module.qualname" for logs and counters. Entries past
 * the cache limit are dropped with one RuntimeWarning.
 * Returns the number attached, or -1 with an exception set. */
DYNAC_API int dynac_cache_attach(PyCodeObject *code, const dynac_module_desc *md,
                                 const dynac_func_desc *fd, PyObject *owner, const char *name);

/* Runs the cache of `code` for `args` (borrowed, dynac_code_kernel_argcount of
 * them: positional, keyword-only, the *args tuple, the **kwargs dict, as in a
 * frame's localsplus)
 * and `globals` (borrowed). Returns 1 with *result set (new reference, or
 * NULL with an exception set) when a kernel served the call, 0 when the
 * call must run in the interpreter. */
DYNAC_API int dynac_dispatch(PyCodeObject *code, PyObject *const *args, PyObject *globals,
                             PyObject **result);

/* The PEP 523 frame hook is installed while at least one user holds it.
 * dynac_hook_acquire/release nest; both return 0 (no error is possible). */
DYNAC_API int dynac_hook_acquire(void);
DYNAC_API int dynac_hook_release(void);
/* One hold of the hook taken when the first cache is attached (at once if
 * one is): what `dynac run` uses, so a program with nothing compiled runs
 * without the hook. Not nested: a second acquire_deferred does nothing;
 * release_deferred gives the hold back if it was taken. */
DYNAC_API void dynac_hook_acquire_deferred(void);
DYNAC_API void dynac_hook_release_deferred(void);
/* 1 while someone holds the hook, else 0. */
DYNAC_API int dynac_hook_installed(void);

/* Makes `resume` (a Python function taking the same positional arguments;
 * borrowed, kept by the cache) serve calls of `code` that no kernel entry
 * serves. The cache must exist (dynac_cache_attach). Returns 0, or -1 with
 * an exception set. */
DYNAC_API int dynac_cache_set_resume(PyCodeObject *code, PyObject *resume);

/* Counters per function: a dict {"module.qualname": {...}} (new reference). */
DYNAC_API PyObject *dynac_stats(void);
/* Clears every counter (entries stay attached). */
DYNAC_API void dynac_stats_reset(void);

/* A callable that serves `func` (borrowed PyFunctionObject) from its cache
 * without building a frame, and otherwise calls it with the frame hook held
 * (so the functions it calls dispatch too). New reference. */
DYNAC_API PyObject *dynac_compiled_function_new(PyObject *func);
/* Sets a callable (borrowed; NULL clears) that the compiled function calls
 * once, without arguments, before its first call: the Python package uses it
 * to attach functions of the module defined after the decorated one.
 * Returns 0, or -1 with an exception set. */
DYNAC_API int dynac_compiled_function_on_first_call(PyObject *cf, PyObject *callback);
DYNAC_API PyTypeObject *dynac_compiled_function_type(void);

/* Disable depth of this thread: while > 0 nothing dispatches
 * (disable(recursive=True): the function and everything it calls). */
DYNAC_API void dynac_disable_enter(void);
DYNAC_API void dynac_disable_exit(void);

/* disable(recursive=False): calls `fn` (borrowed: a function or a
 * CompiledFunction) with its own frame in the interpreter while the
 * functions it calls still dispatch. Vectorcall arguments, borrowed.
 * New reference, or NULL with an exception set. */
DYNAC_API PyObject *dynac_call_interpreted(PyObject *fn, PyObject *const *args, size_t nargsf,
                                           PyObject *kwnames);

/* disallow_in_graph(fn) (disallowed=1) and its reversal allow_in_graph(fn)
 * (0), at run time: fn (borrowed) then runs in the interpreter, and kernels
 * that call it fail their guards and run in the interpreter too (Dynamo's
 * disallow_in_graph, applied to already compiled graphs). Returns 0, or -1
 * with an exception set. */
DYNAC_API int dynac_set_disallowed(PyObject *fn, int disallowed);

/* Dynamo's reset(): drops every cache entry and counter and forgets the
 * results of assume_constant_result functions. Each cache re-adds its
 * entries from its artifact at its next call (logged under "recompiles"). */
DYNAC_API void dynac_reset(void);

/* ---- one runtime per process: the API table --------------------------------
 * A process has one runtime: the translation unit that defines
 * DYNAC_IMPLEMENTATION (the dynac package's dynac._runtime, or your own).
 * The package publishes its runtime's functions as a table in the capsule
 * DYNAC_API_CAPSULE. An extension that defines DYNAC_SHARED (instead of
 * DYNAC_IMPLEMENTATION) before including this header calls dynac_import()
 * once, in its PyInit, and then every function of section 3 goes through
 * that table: one frame hook, one set of caches, and dynac.disable,
 * dynac.stats(), dynac.reset() and DYNAC_LOGS cover its functions too (the
 * idea is NumPy's import_array()). */
#define DYNAC_API_CAPSULE "dynac._runtime._C_API"
typedef struct dynac_api_table {
  int abi_version; /* DYNAC_ABI_VERSION of the runtime */
  int (*init)(void);
  int (*cache_attach)(PyCodeObject *, const dynac_module_desc *, const dynac_func_desc *,
                      PyObject *, const char *);
  int (*dispatch)(PyCodeObject *, PyObject *const *, PyObject *, PyObject **);
  int (*hook_acquire)(void);
  int (*hook_release)(void);
  int (*cache_set_resume)(PyCodeObject *, PyObject *);
  PyObject *(*stats)(void);
  void (*stats_reset)(void);
  PyObject *(*compiled_function_new)(PyObject *);
  int (*compiled_function_on_first_call)(PyObject *, PyObject *);
  PyTypeObject *(*compiled_function_type)(void);
  void (*disable_enter)(void);
  void (*disable_exit)(void);
  PyObject *(*call_interpreted)(PyObject *, PyObject *const *, size_t, PyObject *);
  int (*set_disallowed)(PyObject *, int);
  void (*reset)(void);
  void (*hook_acquire_deferred)(void);
  void (*hook_release_deferred)(void);
  int (*hook_installed)(void);
} dynac_api_table;

/* The runtime's own table (DYNAC_IMPLEMENTATION): static storage. */
DYNAC_API const dynac_api_table *dynac_api(void);

#ifdef DYNAC_SHARED
#ifdef DYNAC_IMPLEMENTATION
#error "define DYNAC_SHARED (use the dynac package's runtime) or DYNAC_IMPLEMENTATION (your own), not both"
#endif
static const dynac_api_table *dynac__api;
/* Imports dynac._runtime and takes its table. Returns 0, or -1 with
 * ImportError set (dynac not importable, or a runtime of another ABI). */
static inline int dynac_import(void) {
  if (dynac__api) return 0;
  const dynac_api_table *t = (const dynac_api_table *)PyCapsule_Import(DYNAC_API_CAPSULE, 0);
  if (!t) return -1;
  if (t->abi_version != DYNAC_ABI_VERSION) {
    PyErr_Format(PyExc_ImportError, "dynac: the runtime has ABI %d, this extension was built "
                 "for ABI %d: rebuild it against the installed dynac.h", t->abi_version,
                 DYNAC_ABI_VERSION);
    return -1;
  }
  dynac__api = t;
  return 0;
}
#define dynac_init() (dynac__api->init())
#define dynac_cache_attach(code, md, fd, owner, name) (dynac__api->cache_attach(code, md, fd, owner, name))
#define dynac_dispatch(code, args, globals, result) (dynac__api->dispatch(code, args, globals, result))
#define dynac_hook_acquire() (dynac__api->hook_acquire())
#define dynac_hook_release() (dynac__api->hook_release())
#define dynac_cache_set_resume(code, resume) (dynac__api->cache_set_resume(code, resume))
#define dynac_stats() (dynac__api->stats())
#define dynac_stats_reset() (dynac__api->stats_reset())
#define dynac_compiled_function_new(func) (dynac__api->compiled_function_new(func))
#define dynac_compiled_function_on_first_call(cf, cb) (dynac__api->compiled_function_on_first_call(cf, cb))
#define dynac_compiled_function_type() (dynac__api->compiled_function_type())
#define dynac_disable_enter() (dynac__api->disable_enter())
#define dynac_disable_exit() (dynac__api->disable_exit())
#define dynac_call_interpreted(fn, args, nargsf, kw) (dynac__api->call_interpreted(fn, args, nargsf, kw))
#define dynac_set_disallowed(fn, d) (dynac__api->set_disallowed(fn, d))
#define dynac_reset() (dynac__api->reset())
#define dynac_hook_acquire_deferred() (dynac__api->hook_acquire_deferred())
#define dynac_hook_release_deferred() (dynac__api->hook_release_deferred())
#define dynac_hook_installed() (dynac__api->hook_installed())
#endif

#ifdef __cplusplus
}
#endif
#endif /* DYNAC_H */

