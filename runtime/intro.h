/* runtime/intro.h: the header's guide and the headers it includes. A part of
 * single_include/dynac.h (make single_include). */
/* dynac.h: the dynac runtime, one header (stb style). Depends on CPython's
 * C API only (3.11; every version-specific detail is in the compat part,
 * runtime/compat_cpython311.h).
 *
 * ---- How to use it ----------------------------------------------------------
 *   #include "dynac.h"             declarations, descriptors, kernel helpers
 *   #define DYNAC_IMPLEMENTATION   in exactly one C file of a program, before
 *   #include "dynac.h"             the include: the runtime itself
 * Three kinds of user:
 *   - modules written by `dynac build` include it for sections 1 and 2 and
 *     never link against a runtime: the runtime that loads them lends them
 *     what they need (dynac_rt, through dynac_cache_attach);
 *   - the dynac Python package (dynac._runtime) defines DYNAC_IMPLEMENTATION;
 *   - a hand-written extension serving Python functions with its own kernels
 *     (examples/extension/fastnorm.c) defines DYNAC_SHARED and calls
 *     dynac_import() in its PyInit: section 3 then calls the package's
 *     runtime through a table, so a process has one frame hook and one set
 *     of caches. An embedder without the package may define
 *     DYNAC_IMPLEMENTATION (and DYNAC_STATIC) in its own extension instead.
 *
 * Serving a Python function with your own kernel (see fastnorm.c):
 *   1. a guard, dynac_guard_fn: 1 when your kernel's assumptions hold for the
 *      positional arguments (exact types, value ranges), else 0 with *failed
 *      naming the first failing guard (a static string; DYNAC_LOGS=guards);
 *   2. glue, dynac_glue_fn: unbox, compute what CPython would, box into
 *      *result (a new reference); return DYNAC_OK, DYNAC_DEOPT to let the
 *      interpreter run the call instead (only if nothing was changed yet: the
 *      next entry whose guard passes, or the interpreter, runs it), or
 *      DYNAC_ERROR with an exception set;
 *   3. static descriptors: a dynac_entry_desc per specialisation (flags 0,
 *      or DYNAC_ENTRY_GENERIC for one that takes any object), a
 *      dynac_func_desc (flags DYNAC_FUNC_ROOT: calls dispatch without an
 *      enclosing compiled call), a dynac_module_desc with a zeroed
 *      dynac_globals when no module-level value is guarded;
 *   4. dynac_cache_attach(func.__code__, &md, &fd, owner, "module.name"),
 *      then dynac_compiled_function_new(func) for a fast callable, or
 *      dynac_hook_acquire() so every call of func dispatches.
 * The cache then checks entries in order (most recent hit first), counts
 * hits, guard failures and interpreter calls (dynac_stats), honours disable
 * (dynac_disable_enter/exit), disallow_in_graph and reset, and logs.
 *
 * ---- Sections ---------------------------------------------------------------
 *   1. status codes and kernel helpers: CPython's number semantics in C
 *      (int64 with overflow detection, float //, %, **, exact int/float
 *      comparison, failure codes naming CPython's exception). The first
 *      part (runtime/plain_c.h) is plain C that `dynac export` copies into
 *      the C it writes; then boxing, containers (lists, buffers, views) and
 *      the undo log. `static inline`; used by generated kernels.
 *   2. descriptors: what a generated module (or an extension) exports:
 *      guard and glue functions per specialisation, the globals its guards
 *      check.
 *   3. runtime API: cache per code object, PEP 523 frame hook, dispatch,
 *      counters and logs. Implemented under DYNAC_IMPLEMENTATION; through
 *      the package's table under DYNAC_SHARED.
 *
 * ---- References and errors --------------------------------------------------
 * Every PyObject* parameter is borrowed unless its comment says "steals";
 * every PyObject* result is a new reference unless its comment says
 * "borrowed". Functions returning PyObject* return NULL with an exception
 * set on error; functions returning int return -1 (DYNAC_ERROR for kernels)
 * with an exception set. Descriptors given to the runtime must outlive it
 * (static storage); `owner` objects are kept alive by the caches.
 *
 * ---- Option macros (define before including) ----------------------------------
 *   DYNAC_IMPLEMENTATION  this translation unit holds the runtime (one per program)
 *   DYNAC_STATIC          the runtime's functions are `static` (a private copy)
 *   DYNAC_SHARED          use the dynac package's runtime (dynac_import())
 *   DYNAC_MALLOC(n), DYNAC_FREE(p)   the runtime's allocator for its caches
 *                         (default PyMem_RawMalloc/PyMem_RawFree; define both)
 *   DYNAC_ASSERT(x)       internal invariants (default assert(x) from <assert.h>,
 *                         so NDEBUG turns them off)
 *   DYNAC_CACHE_LIMIT     cache entries per code object (default 8, Dynamo's
 *                         cache_size_limit)
 *   DYNAC_UNDO_MAX        list/buffer writes a call can take back (default 65536)
 *   DYNAC_MAX_KERNEL_DEPTH  kernel-to-kernel nesting before deoptimising (500)
 *
 * ---- Kernel protocol -----------------------------------------------------------
 * (The idea is the deoptimisation of JIT compilers, and Dynamo's "fall back
 * to the interpreter" on a guard failure.) A kernel returns DYNAC_OK with
 * its result, DYNAC_OK_NONE when the function returned None, DYNAC_DEOPT
 * when CPython's answer is not the fast path's (int64 overflow,
 * ZeroDivisionError, a math domain error, a value of another type), or
 * DYNAC_ERROR with a Python exception set. On DYNAC_DEOPT the untouched
 * frame runs in the interpreter, which produces CPython's result,
 * exception, message and traceback. Writes to lists and buffers are first
 * recorded in an undo log and rolled back before that (section 1). A kernel
 * that made an opaque call (allow_in_graph, through dynac_rt.call_opaque)
 * cannot be rerun: a deoptimisation point reached afterwards redoes the
 * operation through the C API to raise CPython's exception, or raises
 * (DYNAC_DEOPT_OR_RAISE); the callee's own exception propagates with a
 * traceback entry (dynac_traceback_here).
 *
 * Annotations at run time (section 3): roots (DYNAC_FUNC_ROOT) start
 * compiled execution, other functions dispatch only inside a root's call;
 * dynac_disable_enter/exit (disable), dynac_call_interpreted
 * (disable(recursive=False)), dynac_set_disallowed (disallow_in_graph),
 * dynac_reset (reset). Logs: DYNAC_LOGS=dispatch,guards,graph_breaks,recompiles.
 */
#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h> /* clock_gettime: the frame hook's parking */
#include <structmember.h> /* T_OBJECT_EX, READONLY: __slots__ members (attributes at fixed places) */

