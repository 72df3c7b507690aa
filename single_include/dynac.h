/* ==== Begin runtime/intro.h ==== */
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

/* ==== End runtime/intro.h ==== */
/* ==== Begin runtime/compat_cpython311.h ==== */
/* runtime/compat_cpython311.h: every CPython 3.11 detail the runtime relies
 * on that is not the stable C API: private functions (_Py*), the layout of
 * internal structs (the PEP 523 frame, dict version tags, the interpreter's
 * GIL-drop flag) and version-specific fields. A part of
 * single_include/dynac.h (make single_include); it comes before the rest,
 * outside the header's include guard, so that its implementation half is
 * there for the one translation unit that defines DYNAC_IMPLEMENTATION. A
 * port to another CPython is a new file in its place. */
#ifndef DYNAC_COMPAT_H
#define DYNAC_COMPAT_H
#if PY_VERSION_HEX < 0x030B0000 || PY_VERSION_HEX >= 0x030C0000
#error "dynac's runtime supports CPython 3.11; port the compat section for other versions"
#endif

#include <frameobject.h> /* PyFrame_New */
#include <opcode.h>      /* RESUME */

/* A fast path every site inlines and its slow rest kept out of line (as
 * options.h's DYNAC_HOT_INLINE and DYNAC_COLD, which come after this part). */
#if defined(__GNUC__)
#define DYNAC_COMPAT_HOT static inline __attribute__((always_inline, unused))
#define DYNAC_COMPAT_COLD static __attribute__((cold, noinline, unused))
#else
#define DYNAC_COMPAT_HOT static inline
#define DYNAC_COMPAT_COLD static
#endif

/* The column (UTF-8 bytes) a generator expression's code object starts at:
 * its GeneratorExp node's col_offset, or -1. In 3.11 the code is
 * RETURN_GENERATOR, POP_TOP, RESUME, then LOAD_FAST .0 at the node's
 * position (compiler_comprehension); the column is that instruction's. */
static inline int dynac_compat_genexpr_col(PyCodeObject *co) {
  PyObject *bytecode = PyCode_GetCode(co); /* a new reference: the unspecialised instructions */
  if (!bytecode) { PyErr_Clear(); return -1; }
  const unsigned char *op = (const unsigned char *)PyBytes_AS_STRING(bytecode);
  Py_ssize_t n = PyBytes_GET_SIZE(bytecode);
  int col = -1, line, end_line, end_col;
  for (Py_ssize_t i = 0; i + 2 < n; i += 2) /* 2-byte code units; the three before have no caches */
    if (op[i] == RESUME) {
      PyCode_Addr2Location(co, (int)(i + 2), &line, &col, &end_line, &end_col);
      break;
    }
  Py_DECREF(bytecode);
  return col;
}

/* Is f the __new__ collections.namedtuple made for a class of n fields
 * (3.11's `lambda _cls, f0, ...: _tuple_new(_cls, (f0, ...))`, eval'd in a
 * namespace of its own named namedtuple_<typename>, `_tuple_new` there
 * tuple.__new__)? Its globals (a dict, borrowed) in *globals. */
static inline int dynac_compat_namedtuple_new(PyObject *f, Py_ssize_t n, PyObject **globals) {
  if (!PyFunction_Check(f)) return 0;
  PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(f);
  PyObject *g = PyFunction_GET_GLOBALS(f);
  if (!PyDict_CheckExact(g)) return 0;
  PyObject *name = PyDict_GetItemString(g, "__name__"), *tuple_new = PyDict_GetItemString(g, "_tuple_new");
  const char *s = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
  if (!s) PyErr_Clear();
  *globals = g;
  return s && !strncmp(s, "namedtuple_", 11) && tuple_new &&
         tuple_new == PyDict_GetItemString(PyTuple_Type.tp_dict, "__new__") &&
         PyUnicode_CompareWithASCIIString(co->co_filename, "<string>") == 0 &&
         PyUnicode_CompareWithASCIIString(co->co_name, "<lambda>") == 0 && co->co_argcount == n + 1 &&
         co->co_kwonlyargcount == 0 && !(co->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) &&
         PyTuple_GET_SIZE(co->co_names) == 1 &&
         PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(co->co_names, 0), "_tuple_new") == 0;
}

/* The frame of a traceback entry for `func` at `file`:`line` (both
 * strings the kernel keeps for the process: the key is their address),
 * made once per site and shared by its entries, as the interpreter shares
 * one frame object among the entries a call adds (Cython caches the code
 * objects of its __Pyx_AddTraceback alike): one frame per exception, as
 * _PyTraceback_Add makes, made exception-heavy compiled loops slower than
 * the interpreter. Borrowed; NULL (no exception set) when the cache is
 * full or the frame cannot be made. */
static PyFrameObject *dynac_compat_entry_frame(const char *func, const char *file, int line) {
  static struct { const char *func, *file; int line; PyFrameObject *frame; } sites[1024];
  static PyObject *no_globals;
  size_t h = ((size_t)func * 31u + (size_t)file * 7u + (size_t)line) % 1024u;
  for (size_t probe = 0; probe < 1024; probe++, h = (h + 1) % 1024u) {
    if (sites[h].frame && sites[h].func == func && sites[h].file == file && sites[h].line == line)
      return sites[h].frame;
    if (sites[h].frame) continue;
    if (!no_globals && !(no_globals = PyDict_New())) break;
    PyCodeObject *code = PyCode_NewEmpty(file, func, line);
    PyFrameObject *frame = code ? PyFrame_New(PyThreadState_Get(), code, no_globals, NULL) : NULL;
    Py_XDECREF(code);
    if (!frame) break;
    sites[h].func = func, sites[h].file = file, sites[h].line = line, sites[h].frame = frame;
    return frame;
  }
  PyErr_Clear();
  return NULL;
}

/* Adds a traceback entry for `func` at `file`:`line` to the exception
 * being raised, as the interpreter does for a frame: the site's frame,
 * whose line is its empty code's first line (a fresh 3.11 frame has not
 * started: PyFrame_GetLineNumber gives co_firstlineno). Falls back to
 * CPython's _PyTraceback_Add. */
static inline void dynac_compat_traceback_add(const char *func, const char *file, int line) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyFrameObject *frame = dynac_compat_entry_frame(func, file, line);
  PyErr_Restore(type, value, tb);
  if (!frame) {
    _PyTraceback_Add(func, file, line);
    return;
  }
  PyTraceBack_Here(frame);
}

/* Are assert statements run (python without -O)? The bytecode compiler
 * drops them under -O; 3.12 deprecates Py_OptimizeFlag for
 * PyConfig.optimization_level: port here. */
static inline int dynac_compat_asserts_enabled(void) { return Py_OptimizeFlag == 0; }

/* The exception being handled (sys.exception()), a new reference, or
 * NULL when there is none. PyErr_GetHandledException is new in 3.11. */
static inline PyObject *dynac_compat_handled_exception(void) {
  PyObject *e = PyErr_GetHandledException();
  if (e == Py_None) Py_CLEAR(e);
  return e;
}

/* The exception being raised, taken out of the thread state: normalized,
 * its __traceback__ set to the entries so far (as 3.11's ceval does on
 * its way to a handler; 3.12 keeps only the value: PyErr_GetRaisedException).
 * A new reference; NULL when none is set. */
static inline PyObject *dynac_compat_fetch_raised(void) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  if (!type) return NULL;
  PyErr_NormalizeException(&type, &value, &tb);
  if (!value) { /* normalizing failed and left nothing: cannot happen with a type set */
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return NULL;
  }
  PyException_SetTraceback(value, tb ? tb : Py_None);
  Py_DECREF(type);
  Py_XDECREF(tb);
  return value;
}
/* Raises exception object `exc` (stolen) again with the traceback it
 * carries, adding no entry (RERAISE; 3.12: PyErr_SetRaisedException). */
static inline void dynac_compat_restore_raised(PyObject *exc) {
  PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
}

/* Special method `name` (an interned str) of type(obj), bound to obj, as
 * the interpreter looks up __enter__ and __exit__ (3.11's internal
 * _PyObject_LookupSpecial, rebuilt on _PyType_Lookup): a new reference;
 * NULL with no exception set when the type has none, NULL with one when
 * binding it failed. */
static inline PyObject *dynac_compat_lookup_special(PyObject *obj, PyObject *name) {
  PyObject *found = _PyType_Lookup(Py_TYPE(obj), name); /* borrowed */
  if (!found) return NULL;
  descrgetfunc get = Py_TYPE(found)->tp_descr_get;
  if (!get) return Py_NewRef(found);
  Py_INCREF(found);
  PyObject *bound = get(found, obj, (PyObject *)Py_TYPE(obj));
  Py_DECREF(found);
  return bound;
}

/* The callee as CPython's call errors name it ("f()", "Vec.norm()"), a
 * new reference (_PyObject_FunctionStr, private in 3.11). */
static inline PyObject *dynac_compat_function_str(PyObject *func) { return _PyObject_FunctionStr(func); }
/* list.extend(iterable) into `list` (LIST_EXTEND's _PyList_Extend): 0, or
 * -1 with the exception list.extend raises. */
static inline int dynac_compat_list_extend(PyObject *list, PyObject *iterable) {
  PyObject *r = _PyList_Extend((PyListObject *)list, iterable);
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}
/* DICT_MERGE's merge of a mapping into a call's keyword dict: a KeyError
 * of the key for a duplicate, an AttributeError for an object without
 * keys() (_PyDict_MergeEx with override 2). 0, or -1 with the exception. */
static inline int dynac_compat_dict_merge_call(PyObject *kw, PyObject *mapping) {
  return _PyDict_MergeEx(kw, mapping, 2);
}

/* IMPORT_FROM's ImportError for `name` missing from module `pkgname` at
 * `pkgpath` (NULL: unknown): 3.12 also records name_from. */
static inline void dynac_compat_set_import_error(PyObject *msg, PyObject *pkgname, PyObject *pkgpath,
                                                 PyObject *name) {
  (void)name;
  PyErr_SetImportError(msg, pkgname, pkgpath);
}

/* LOAD_DEREF's NameError for an empty cell of a free variable (ceval.c's
 * UNBOUNDFREE_ERROR_MSG; 3.10 worded it otherwise). */
#define DYNAC_COMPAT_UNBOUND_FREE_MSG \
  "cannot access free variable '%s' where it is not associated with a value in enclosing scope"

/* LOAD_DEREF's / DELETE_DEREF's UnboundLocalError for an empty cell of the
 * function's own cell variable (ceval.c's UNBOUNDLOCAL_ERROR_MSG). */
#define DYNAC_COMPAT_UNBOUND_LOCAL_MSG "cannot access local variable '%s' where it is not associated with a value"

/* A dict's version tag (PEP 509): changes whenever the dict does. 3.12
 * deprecates the field (watchers replace it): port here. */
#define DYNAC_DICT_VERSION(d) (((PyDictObject *)(d))->ma_version_tag)

/* Takes item k (0 <= k < len) out of list xs as list.pop(k) does
 * (listobject.c: list_ass_slice's memmove, then list_resize): only the size
 * is set where list_resize would do no more (it reallocates when the new
 * size is below half the allocation: PyList_SetSlice then). The list's
 * reference to the item, now the caller's; NULL with MemoryError, the list
 * unchanged. keep_allocation: never reallocating (undoing an append or an
 * insert: the interpreter's same append then finds the list as the one it
 * made in CPython, and sys.getsizeof agrees). */
static inline PyObject *dynac_compat_list_take(PyObject *xs, Py_ssize_t k, int keep_allocation) {
  PyListObject *l = (PyListObject *)xs;
  Py_ssize_t n = Py_SIZE(l) - 1;
  PyObject *v = l->ob_item[k];
  if (!keep_allocation && n < (l->allocated >> 1)) { /* the list shrinks its allocation */
    Py_INCREF(v);
    if (PyList_SetSlice(xs, k, k + 1, NULL) == 0) return v;
    Py_DECREF(v);
    return NULL;
  }
  memmove(&l->ob_item[k], &l->ob_item[k + 1], (size_t)(n - k) * sizeof(PyObject *));
  Py_SET_SIZE(l, n);
  return v;
}

/* o as a C long when it is an exact int of at most one digit (3.11's
 * longintrepr: ob_size -1, 0 or 1), as COMPARE_OP_INT_JUMP tests it. 1 with
 * *v, or 0. 3.12 keeps the sign and size in lv_tag: port here. */
static inline int dynac_compat_small_int(PyObject *o, long *v) {
  if (!PyLong_CheckExact(o)) return 0;
  Py_ssize_t n = Py_SIZE(o);
  if (n < -1 || n > 1) return 0;
  *v = (long)n * (long)((PyLongObject *)o)->ob_digit[0];
  return 1;
}

/* o as a C __int128 when it is an exact int with |o| < 2**127 (3.11's
 * 30-bit digits: at most 5, the fifth below 2**7), so that -o is one too.
 * 1 with *v, or 0. 3.12 keeps the sign and size in lv_tag: port here. */
static inline int dynac_compat_int128_of(PyObject *o, __int128 *v) {
#if PyLong_SHIFT != 30 /* a build with 15-bit digits: the C API answers */
  (void)o, (void)v;
  return 0;
#else
  if (!PyLong_CheckExact(o)) return 0;
  Py_ssize_t n = Py_SIZE(o), size = n < 0 ? -n : n;
  const digit *d = ((PyLongObject *)o)->ob_digit;
  if (size > 5 || (size == 5 && d[4] >> (127 - 4 * PyLong_SHIFT))) return 0;
  uint64_t lo = 0, hi = 0, top = 0; /* digits 0-1, 2-3 and 4: 64-bit shifts but for two */
  switch (size) {
  case 5: top = d[4]; /* fall through */
  case 4: hi = (uint64_t)d[3] << PyLong_SHIFT; /* fall through */
  case 3: hi |= d[2]; /* fall through */
  case 2: lo = (uint64_t)d[1] << PyLong_SHIFT; /* fall through */
  case 1: lo |= d[0]; /* fall through */
  default: break;
  }
  unsigned __int128 m = ((unsigned __int128)top << (4 * PyLong_SHIFT)) | ((unsigned __int128)hi << (2 * PyLong_SHIFT)) | lo;
  *v = n < 0 ? -(__int128)m : (__int128)m;
  return 1;
#endif
}
/* o modulo 2**64 (its low 64 bits in two's complement) when it is an exact
 * int of any size: dynac_compat_int128_of's value truncated, else (more
 * than four digits and a bit) its low three digits with the sign applied
 * modulo 2**64. 1 with *v, or 0. 3.12 keeps the sign and size in lv_tag: port here. */
static inline int dynac_compat_int_low64(PyObject *o, uint64_t *v) {
  __int128 w;
  if (dynac_compat_int128_of(o, &w)) return *v = (uint64_t)w, 1;
#if PyLong_SHIFT == 30
  if (!PyLong_CheckExact(o)) return 0;
  const digit *d = ((PyLongObject *)o)->ob_digit; /* five of them at least */
  uint64_t m = ((uint64_t)d[2] << (2 * PyLong_SHIFT)) | ((uint64_t)d[1] << PyLong_SHIFT) | d[0];
  *v = Py_SIZE(o) < 0 ? (uint64_t)0 - m : m;
  return 1;
#else
  return 0;
#endif
}
/* A new int of value v, as _PyLong_FromByteArray would make it but without
 * its byte loop: _PyLong_New, then at most 5 digits (new reference; NULL
 * with MemoryError). */
static inline PyObject *dynac_compat_int_from128(__int128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return PyLong_FromLongLong((long long)v);
  unsigned __int128 m = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v; /* >= 2**63 */
  uint64_t lo = (uint64_t)m, hi = (uint64_t)(m >> (2 * PyLong_SHIFT));
  digit d[5] = {(digit)(lo & PyLong_MASK), (digit)((lo >> PyLong_SHIFT) & PyLong_MASK), (digit)(hi & PyLong_MASK),
                (digit)((hi >> PyLong_SHIFT) & PyLong_MASK), (digit)(m >> (4 * PyLong_SHIFT))};
  Py_ssize_t size = d[4] ? 5 : d[3] ? 4 : 3;
  PyLongObject *r = _PyLong_New(size);
  if (!r) return NULL;
  memcpy(r->ob_digit, d, sizeof(digit) * (size_t)size);
  Py_SET_SIZE(r, v < 0 ? -size : size);
  return (PyObject *)r;
}

/* Is o super(type, obj), as super() without arguments makes it in a method
 * of `type` called on `obj`? superobject (Objects/typeobject.c, private):
 * the head, then type, obj and obj_type, in 3.8-3.13. */
typedef struct dynac_compat__super { PyObject_HEAD PyTypeObject *type; PyObject *obj; } dynac_compat__super;
static inline int dynac_compat_super_is(PyObject *o, PyTypeObject *type, PyObject *obj) {
  return Py_IS_TYPE(o, &PySuper_Type) && ((dynac_compat__super *)o)->type == type &&
         ((dynac_compat__super *)o)->obj == obj;
}

/* The function a staticmethod or classmethod object wraps (its __func__,
 * borrowed), else o itself (may be NULL): staticmethod and classmethod
 * (Objects/funcobject.c, private) keep it right after the object's head,
 * sm_callable and cm_callable, in 3.8-3.13. */
typedef struct dynac_compat__method_wrapper { PyObject_HEAD PyObject *callable; } dynac_compat__method_wrapper;
static inline PyObject *dynac_compat_wrapped_function(PyObject *o) {
  return o && (Py_IS_TYPE(o, &PyStaticMethod_Type) || Py_IS_TYPE(o, &PyClassMethod_Type))
             ? ((dynac_compat__method_wrapper *)o)->callable : o;
}

/* A module's __dict__ (borrowed), as PyModule_GetDict without its call:
 * PyModuleObject (internal) starts with it after the object's head in
 * 3.8-3.13. */
typedef struct dynac_compat__module_head { PyObject_HEAD PyObject *md_dict; } dynac_compat__module_head;
static inline PyObject *dynac_compat_module_dict(PyObject *m) {
  return ((dynac_compat__module_head *)m)->md_dict;
}

/* The layout of shared keys and inline values (pycore_dict.h, internal). */
#if !defined(__cplusplus) && !defined(DYNAC__PYCORE_DICT)
#define DYNAC__PYCORE_DICT
#ifndef Py_BUILD_CORE
#define Py_BUILD_CORE 1
#define DYNAC__UNDEF_BUILD_CORE
#endif
#include "internal/pycore_dict.h"
#ifdef DYNAC__UNDEF_BUILD_CORE
#undef Py_BUILD_CORE
#undef DYNAC__UNDEF_BUILD_CORE
#endif
#endif

/* Instance attributes at fixed places, found as CPython 3.11's
 * LOAD_ATTR_INSTANCE_VALUE / STORE_ATTR_INSTANCE_VALUE find them: a heap
 * class with Py_TPFLAGS_MANAGED_DICT keeps its instances' attributes in an
 * array of values just before the object (NULL once the instance's
 * __dict__ was made), indexed as the class's shared keys (ht_cached_keys:
 * append-only, so an index stays valid). The index of `name` (an exact
 * str), or -1 when the class has no such key (yet). */
static inline Py_ssize_t dynac_compat_instance_value_index(PyTypeObject *tp, PyObject *name) {
#ifdef DYNAC__PYCORE_DICT
  if (!(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) || !(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)) return -1;
  PyDictKeysObject *keys = ((PyHeapTypeObject *)tp)->ht_cached_keys;
  if (!keys || keys->dk_kind != DICT_KEYS_SPLIT) return -1;
  PyDictUnicodeEntry *e = DK_UNICODE_ENTRIES(keys);
  int interned = PyUnicode_CHECK_INTERNED(name); /* two interned strs are equal only if the same */
  for (Py_ssize_t i = 0; i < keys->dk_nentries; i++)
    if (e[i].me_key == name || (e[i].me_key && !(interned && PyUnicode_CHECK_INTERNED(e[i].me_key)) &&
                                PyUnicode_Compare(e[i].me_key, name) == 0))
      return i;
#else
  (void)tp, (void)name;
#endif
  return -1;
}
/* The slot of an instance's inline value `i` (see above), or NULL when the
 * instance keeps no inline values (its __dict__ was made). */
static inline PyObject **dynac_compat_instance_value_slot(PyObject *o, Py_ssize_t i) {
#ifdef DYNAC__PYCORE_DICT
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push /* inlined where GCC sees o may be None, on a path the class check rules out */
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
  PyDictValues *values = ((PyDictValues **)o)[-4]; /* _PyObject_ValuesPointer */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  return values ? &values->values[i] : NULL;
#else
  (void)o, (void)i;
  return NULL;
#endif
}

/* Records that inline value `i` of o was just set from NULL (the store
 * itself done by the caller), as STORE_ATTR_INSTANCE_VALUE does: the
 * instance's insertion order (its __dict__'s key order) gets index i. */
static inline void dynac_compat_instance_value_added(PyObject *o, Py_ssize_t i) {
#ifdef DYNAC__PYCORE_DICT
  _PyDictValues_AddToInsertionOrder(((PyDictValues **)o)[-4], i);
#else
  (void)o, (void)i;
#endif
}

/* o.name as LOAD_METHOD looks it up (3.11's _PyObject_GetMethod): 1 with
 * *meth the function to call with o first (no bound method made), 0 with
 * *meth the attribute itself (a new reference either way), or 0 with *meth
 * NULL and CPython's AttributeError set. */
static inline int dynac_compat_get_method(PyObject *o, PyObject *name, PyObject **meth) {
  *meth = NULL;
  return _PyObject_GetMethod(o, name, meth);
}

/* Does instance o keep an attribute `name` (an exact str) of its own, which
 * a method of its class of that name would be shadowed by? Inline values
 * are looked up through the class's shared keys, remembered per call site in
 * *keys / *nkeys (append-only keys: the same keys object with the same count
 * still lacks the name); a materialised __dict__ is asked. 1 or 0. */
DYNAC_COMPAT_COLD int dynac_compat__instance_has_slow(PyObject *o, PyObject *name, void **keys, Py_ssize_t *nkeys) {
  PyTypeObject *tp = Py_TYPE(o);
  if (!(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
    if (!tp->tp_dictoffset) return 0; /* __slots__ without __dict__ */
    PyObject **dp = _PyObject_GetDictPtr(o);
    return dp && *dp && PyDict_GetItem(*dp, name) != NULL;
  }
#ifdef DYNAC__PYCORE_DICT
  PyDictValues *values = ((PyDictValues **)o)[-4]; /* _PyObject_ValuesPointer */
  if (values) {
    PyDictKeysObject *k = ((PyHeapTypeObject *)tp)->ht_cached_keys;
    Py_ssize_t i = dynac_compat_instance_value_index(tp, name);
    if (i < 0) {
      *keys = k, *nkeys = k ? k->dk_nentries : 0;
      return 0;
    }
    return values->values[i] != NULL;
  }
  PyObject *dict = ((PyObject **)o)[-3]; /* _PyObject_ManagedDictPointer */
  return dict && PyDict_GetItem(dict, name) != NULL;
#else
  (void)keys, (void)nkeys;
  return 1; /* unknown layout: CPython's own lookup */
#endif
}
/* The memo's hit (inline values, the keys it saw) and instances with no
 * __dict__ answer inline, the rest out of line. */
DYNAC_COMPAT_HOT int dynac_compat_instance_has(PyObject *o, PyObject *name, void **keys, Py_ssize_t *nkeys) {
  PyTypeObject *tp = Py_TYPE(o);
  if (!(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) && !tp->tp_dictoffset) return 0; /* __slots__ only */
#ifdef DYNAC__PYCORE_DICT
  if ((tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) && ((PyDictValues **)o)[-4]) {
    PyDictKeysObject *k = ((PyHeapTypeObject *)tp)->ht_cached_keys;
    if (k && (void *)k == *keys && k->dk_nentries == *nkeys) return 0;
  }
#endif
  return dynac_compat__instance_has_slow(o, name, keys, nkeys);
}

/* ---- dataclasses' generated __init__ (Lib/dataclasses.py, 3.11) ---------
 * Its kernel is synthesised from the fields the source declares
 * (generator/dataclass_init.c); each construction checks that the class's
 * __init__ is what dataclasses generated for them (dynac_dataclass_init_ok), whose body is then
 * `self.f=f` per field, in order (_init_fn, _field_init, _field_assign). */

/* Field `fld` of __dataclass_fields__: 1 a plain field (init=True, no
 * default_factory, not kw_only), 3 the same with a default_factory, 4 an
 * InitVar (a parameter only), 5 a field with init=False (no parameter)
 * and no default_factory, 6 one with init=False and a default_factory, 7
 * a kw_only field (a keyword-only parameter), 8 one with a
 * default_factory, 2 a ClassVar (no field of __init__), 0 another (an
 * InitVar with init=False, kw_only or a factory, a kw_only field with
 * init=False, ...). Clears what its attribute reads raise. */
static inline int dynac__dataclass_field_kind(PyObject *fld) {
  PyObject *ft = PyObject_GetAttrString(fld, "_field_type");
  PyObject *ftn = ft ? PyObject_GetAttrString(ft, "name") : NULL;
  Py_XDECREF(ft);
  int kind = !ftn || !PyUnicode_Check(ftn) ? 0
             : !PyUnicode_CompareWithASCIIString(ftn, "_FIELD") ? 1
             : !PyUnicode_CompareWithASCIIString(ftn, "_FIELD_CLASSVAR") ? 2
             : !PyUnicode_CompareWithASCIIString(ftn, "_FIELD_INITVAR") ? 4 : 0;
  Py_XDECREF(ftn);
  if (kind == 1 || kind == 4) {
    PyObject *init = PyObject_GetAttrString(fld, "init"), *df = PyObject_GetAttrString(fld, "default_factory");
    PyObject *kw = PyObject_GetAttrString(fld, "kw_only");
    int made = df && strcmp(Py_TYPE(df)->tp_name, "_MISSING_TYPE"); /* a default_factory */
    int noinit = init == Py_False;
    int kw_only = kw == Py_True;
    kind = (init != Py_True && !noinit) || (kw != Py_False && !kw_only) || !df ||
                   (kind == 4 && (made || noinit || kw_only)) || (kw_only && noinit) ? 0
           : noinit ? (made ? 6 : 5)
           : kw_only ? (made ? 8 : 7)
           : made ? 3 : kind;
    Py_XDECREF(init), Py_XDECREF(df), Py_XDECREF(kw);
  }
  PyErr_Clear();
  return kind;
}
/* The next name of comma-separated `*names` (its length in *len), not
 * moving past it (dynac__skip_field does); 0 when none is left. Its mark
 * in *mark (generator/dataclass_init.c writes them), the longest that
 * ends it: 1 "name()", a parameter with a default factory; 2
 * "name:InitVar"; 3 "name!", init=False, not stored; 4 "name!()",
 * init=False, its factory's value stored; 5 "name!=", init=False, its
 * default stored (a slots class's); 6 "name*", a keyword-only parameter;
 * 7 "name*()", one with a default factory; else 0, a parameter. */
enum { DYNAC_FIELD_MARKS = 8 };
static const char *const dynac__field_marks[DYNAC_FIELD_MARKS] = {"", "()", ":InitVar", "!", "!()", "!=", "*", "*()"};
static inline int dynac__next_field(const char **names, size_t *len, int *mark) {
  if (!**names) return 0;
  size_t n = strcspn(*names, ","), best = 0;
  *mark = 0;
  for (int k = 1; k < DYNAC_FIELD_MARKS; k++) {
    size_t m = strlen(dynac__field_marks[k]);
    if (n > m && m > best && !memcmp(*names + n - m, dynac__field_marks[k], m)) *mark = k, best = m;
  }
  *len = n - best;
  return 1;
}
/* Is a field of mark `mark` a parameter of __init__ (not init=False)? A keyword-only one? */
static inline int dynac__field_is_param(int mark) { return mark <= 2 || mark >= 6; }
static inline int dynac__field_is_kw_only(int mark) { return mark >= 6; }
/* Does a field of mark `mark` take a default factory as a parameter (its default _HAS_DEFAULT_FACTORY)? */
static inline int dynac__field_param_factory(int mark) { return mark == 1 || mark == 7; }
/* Is a field of mark `mark` stored from its free variable _dflt_NAME? */
static inline int dynac__field_has_cell(int mark) { return dynac__field_param_factory(mark) || mark == 4 || mark == 5; }
static inline void dynac__skip_field(const char **names, size_t len, int mark) {
  *names += len + strlen(dynac__field_marks[mark]);
  *names += **names == ',';
}
/* Is name (a str) the first `len` bytes of `want`? */
static inline int dynac__name_is(PyObject *name, const char *want, size_t len) {
  Py_ssize_t n = 0;
  const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &n) : NULL;
  if (!s) PyErr_Clear();
  return s && (size_t)n == len && !memcmp(s, want, len);
}
/* Options of a dataclass's generated __init__ (dynac_compat_dataclass_init). */
enum { DYNAC_DC_FROZEN = 1, DYNAC_DC_POST_INIT = 2 };
/* Are tp's dataclass fields `fields`, each plain, in that order, tp
 * frozen or not and with a __post_init__ or not as `options` say? 1 or 0. */
static inline int dynac__dataclass_fields_are(PyTypeObject *tp, const char *fields, int options) {
  int frozen = options & DYNAC_DC_FROZEN;
  PyObject *post = PyUnicode_InternFromString("__post_init__");
  if (!post || !_PyType_Lookup(tp, post) != !(options & DYNAC_DC_POST_INIT)) {
    Py_XDECREF(post);
    PyErr_Clear();
    return 0;
  }
  Py_DECREF(post);
  PyObject *params = PyObject_GetAttrString((PyObject *)tp, "__dataclass_params__");
  PyObject *is_frozen = params ? PyObject_GetAttrString(params, "frozen") : NULL;
  PyObject *dfs = is_frozen == (frozen ? Py_True : Py_False)
                      ? PyObject_GetAttrString((PyObject *)tp, "__dataclass_fields__") : NULL;
  Py_XDECREF(params), Py_XDECREF(is_frozen);
  PyErr_Clear();
  int ok = dfs && PyDict_CheckExact(dfs), mark = 0;
  Py_ssize_t pos = 0;
  PyObject *key, *fld;
  size_t len = 0;
  while (ok && PyDict_Next(dfs, &pos, &key, &fld)) {
    int kind = dynac__dataclass_field_kind(fld);
    if (kind == 2) continue;
    static const int kind_of_mark[DYNAC_FIELD_MARKS] = {1, 3, 4, 5, 6, 5, 7, 8}; /* (dynac__next_field) */
    ok = kind != 0 && dynac__next_field(&fields, &len, &mark) && kind == kind_of_mark[mark] &&
         dynac__name_is(key, fields, len);
    if (ok) dynac__skip_field(&fields, len, mark);
  }
  Py_XDECREF(dfs);
  return ok && !*fields;
}
/* Is each of f's free variables (co_freevars) _dflt_NAME of a field
 * `fields` stores from one (dynac__field_has_cell), or _HAS_DEFAULT_FACTORY
 * where a parameter has a factory, and are there as many as the text for
 * these fields has (see dataclass_init.c)? */
static inline int dynac__dataclass_factory_cells(PyCodeObject *co, const char *fields) {
  int ncells = 0, sentinel = 0, mark = 0;
  size_t len = 0;
  for (const char *w = fields; dynac__next_field(&w, &len, &mark); dynac__skip_field(&w, len, mark)) {
    ncells += dynac__field_has_cell(mark);
    sentinel |= dynac__field_param_factory(mark);
  }
  if (co->co_nfreevars != ncells + sentinel) return 0;
  PyObject *free = PyCode_GetFreevars(co);
  int ok = free != NULL;
  for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(free); i++) {
    const char *v = PyUnicode_AsUTF8(PyTuple_GET_ITEM(free, i));
    ok = v && sentinel && !strcmp(v, "_HAS_DEFAULT_FACTORY");
    for (const char *w = fields; v && !ok && dynac__next_field(&w, &len, &mark); dynac__skip_field(&w, len, mark))
      ok = dynac__field_has_cell(mark) && !strncmp(v, "_dflt_", 6) && strlen(v + 6) == len && !memcmp(v + 6, w, len);
  }
  Py_XDECREF(free);
  PyErr_Clear();
  return ok;
}
/* A frozen class's __init__ stores through `__dataclass_builtins_object__
 * .__setattr__`, its one free variable, which must hold object; another's
 * free variables are its factories' (above), or none. */
static inline int dynac__dataclass_init_closure_ok(PyObject *f, PyCodeObject *co, int frozen, const char *fields) {
  if (!frozen) return dynac__dataclass_factory_cells(co, fields);
  PyObject *cl = PyFunction_GET_CLOSURE(f), *free = PyCode_GetFreevars(co);
  int ok = free && PyTuple_GET_SIZE(free) == 1 &&
           !PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(free, 0), "__dataclass_builtins_object__") &&
           cl && PyTuple_Check(cl) && PyTuple_GET_SIZE(cl) == 1 && PyCell_Check(PyTuple_GET_ITEM(cl, 0)) &&
           PyCell_GET(PyTuple_GET_ITEM(cl, 0)) == (PyObject *)&PyBaseObject_Type;
  Py_XDECREF(free);
  PyErr_Clear();
  return ok;
}
/* Is f (borrowed: tp's lookup of __init__) the __init__ dataclasses
 * generated for tp's fields `fields` (comma-separated; "name()" for a
 * field with a default_factory, a closure cell of its own; "name:InitVar"
 * for an InitVar, a parameter only; "name!", "name!()", "name!=" for
 * init=False, no parameter; "name*", "name*()" for a keyword-only one:
 * dynac__next_field), the last `ndefaults` of the positional ones with a
 * default, with its default options but `options` (DYNAC_DC_FROZEN,
 * DYNAC_DC_POST_INIT: its text ends calling it): the function exec() made
 * of its text (co_filename "<string>", co_name __init__), taking (self,
 * *positional fields, *, *keyword-only fields) and no more, tp's fields and
 * options as dynac__dataclass_fields_are checks them, its free variables
 * as dynac__dataclass_init_closure_ok does? 1, 0, or -1 (MemoryError). */
static inline int dynac_compat_dataclass_init(PyTypeObject *tp, PyObject *f, const char *fields, int ndefaults,
                                              int options) {
  if (!PyFunction_Check(f)) return 0;
  PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(f);
  PyObject *defs = PyFunction_GET_DEFAULTS(f);
  if (PyUnicode_CompareWithASCIIString(co->co_filename, "<string>") ||
      PyUnicode_CompareWithASCIIString(co->co_name, "__init__") ||
      co->co_posonlyargcount || (co->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) ||
      (defs && !PyTuple_Check(defs)) || (defs ? PyTuple_GET_SIZE(defs) : 0) != ndefaults ||
      !dynac__dataclass_init_closure_ok(f, co, options & DYNAC_DC_FROZEN, fields))
    return 0;
  PyObject *names = PyCode_GetVarnames(co);
  if (!names) return -1;
  size_t len = 0;
  int ok = 1, mark = 0, npos = 1, nkw = 0; /* 0: self (__dataclass_self__ if a field is self) */
  for (const char *w = fields; ok && dynac__next_field(&w, &len, &mark); dynac__skip_field(&w, len, mark)) {
    if (!dynac__field_is_param(mark)) continue; /* init=False: no parameter */
    int i = dynac__field_is_kw_only(mark) ? co->co_argcount + nkw++ : npos++;
    ok = i < (dynac__field_is_kw_only(mark) ? co->co_argcount + co->co_kwonlyargcount : co->co_argcount) &&
         dynac__name_is(PyTuple_GET_ITEM(names, i), w, len);
  }
  Py_DECREF(names);
  return ok && npos == co->co_argcount && nkw == co->co_kwonlyargcount &&
         dynac__dataclass_fields_are(tp, fields, options);
}

#endif /* DYNAC_COMPAT_H */

#if defined(DYNAC_IMPLEMENTATION) && !defined(DYNAC__COMPAT_IMPL)
#define DYNAC__COMPAT_IMPL
/* The PEP 523 hook receives a _PyInterpreterFrame, an internal struct. Its
 * 3.11 layout is mirrored here (Include/internal/pycore_frame.h) rather than
 * compiling against internal headers; 3.12 moved f_code to f_executable. */
typedef struct _PyInterpreterFrame dynac_compat_frame;
typedef _PyFrameEvalFunction dynac_compat_eval_fn;
#define DYNAC_COMPAT_EVAL_FRAME_DEFAULT _PyEval_EvalFrameDefault
static inline dynac_compat_eval_fn dynac_compat_get_eval_frame(PyInterpreterState *interp) {
  return _PyInterpreterState_GetEvalFrameFunc(interp);
}
static inline void dynac_compat_set_eval_frame(PyInterpreterState *interp, dynac_compat_eval_fn f) {
  _PyInterpreterState_SetEvalFrameFunc(interp, f);
}
/* Per-code-object extra slots (PEP 523's co_extra). */
static inline Py_ssize_t dynac_compat_code_extra_index(freefunc free_fn) {
  return _PyEval_RequestCodeExtraIndex(free_fn);
}
static inline int dynac_compat_code_get_extra(PyObject *code, Py_ssize_t index, void **extra) {
  return _PyCode_GetExtra(code, index, extra);
}
/* The same for a code object known to be one, read in place (every call
 * dispatches through it): 3.11 keeps the slots in co_extra, laid out as
 * pycore_code.h's _PyCodeObjectExtra {ce_size; ce_extras[]}. NULL when
 * the slot is unset. */
static inline void *dynac_compat_code_extra(PyCodeObject *code, Py_ssize_t index) {
  typedef struct { Py_ssize_t ce_size; void *ce_extras[1]; } extras_311;
  const extras_311 *x = (const extras_311 *)code->co_extra;
  return x && index >= 0 && index < x->ce_size ? x->ce_extras[index] : NULL;
}
static inline int dynac_compat_code_set_extra(PyObject *code, Py_ssize_t index, void *extra) {
  return _PyCode_SetExtra(code, index, extra);
}
typedef struct dynac__iframe {
  PyFunctionObject *f_func;
  PyObject *f_globals;
  PyObject *f_builtins;
  PyObject *f_locals;
  PyCodeObject *f_code;
  PyObject *frame_obj;
  struct dynac__iframe *previous;
  void *prev_instr;
  int stacktop;
  bool is_entry;
  char owner;
  PyObject *localsplus[1];
} dynac__iframe;
/* What the hook reads of a frame: its code object, its arguments (the
 * first co_argcount of localsplus, borrowed) and its globals (borrowed). */
static inline PyCodeObject *dynac_compat_frame_code(dynac_compat_frame *f) {
  return ((dynac__iframe *)f)->f_code;
}
static inline PyObject *const *dynac_compat_frame_locals(dynac_compat_frame *f) {
  return ((dynac__iframe *)f)->localsplus;
}
static inline PyObject *dynac_compat_frame_globals(dynac_compat_frame *f) {
  return ((dynac__iframe *)f)->f_globals;
}
/* The function object a frame runs (borrowed; NULL for module and class bodies). */
static inline PyObject *dynac_compat_frame_function(dynac_compat_frame *f) {
  return (PyObject *)((dynac__iframe *)f)->f_func;
}
/* A function object's vectorcall entry: read, and replaced (3.11 has no
 * API for it: the field itself; 3.12 adds PyFunction_SetVectorcall). */
static inline int dynac_compat_function_enters_interpreter(PyObject *func) {
  return ((PyFunctionObject *)func)->vectorcall == _PyFunction_Vectorcall;
}
static inline void dynac_compat_set_function_vectorcall(PyObject *func, vectorcallfunc vc) {
  ((PyFunctionObject *)func)->vectorcall = vc;
}
/* The call a function's own vectorcall makes: a frame, run by the interpreter. */
static inline PyObject *dynac_compat_function_call_interpreted(PyObject *func, PyObject *const *args,
                                                               size_t nargsf, PyObject *kwnames) {
  return _PyFunction_Vectorcall(func, args, nargsf, kwnames);
}
#define DYNAC__SKIP_FLAGS (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE)
#ifdef __cplusplus
#define DYNAC__TLS thread_local
#else
#define DYNAC__TLS _Thread_local
#endif
/* The runtime's per-thread state, read on every dispatch: in a shared
 * library the default (global-dynamic) TLS model makes each read a
 * __tls_get_addr call; initial-exec makes it a load off the thread pointer.
 * It takes its few dozen bytes from the static TLS glibc keeps for libraries
 * loaded later (dlopen fails only if that ran out): define DYNAC_TLS_DYNAMIC
 * to keep the default. Generated modules' undo logs (one per module, any
 * number of modules) keep the default. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(DYNAC_TLS_DYNAMIC) && defined(__ELF__)
#define DYNAC__TLS_FAST DYNAC__TLS __attribute__((tls_model("initial-exec")))
#else
#define DYNAC__TLS_FAST DYNAC__TLS
#endif

/* Has another thread asked for the GIL (it waited a switch interval)?
 * CPython 3.11 keeps the flag in the interpreter's internal ceval state;
 * releasing the GIL without it would not hand it over (the waiter only
 * asks when no switch happened in its interval). */
#if !defined(__cplusplus) && !defined(DYNAC__PYCORE_INTERP) /* C11 atomics: C only */
#define DYNAC__PYCORE_INTERP
#ifndef Py_BUILD_CORE
#define Py_BUILD_CORE 1
#define DYNAC__UNDEF_BUILD_CORE
#endif
#undef _PyGC_FINALIZED /* pycore_gc.h defines its own */
#include "internal/pycore_interp.h"
#ifdef DYNAC__UNDEF_BUILD_CORE
#undef Py_BUILD_CORE
#undef DYNAC__UNDEF_BUILD_CORE
#endif
#endif

static inline int dynac__gil_drop_requested(void) {
#ifdef DYNAC__PYCORE_INTERP
  return _Py_atomic_load_relaxed(&PyInterpreterState_Get()->ceval.gil_drop_request);
#else
  return 0; /* a runtime built as C++: kernels keep the GIL (signals still run) */
#endif
}

/* How many more Python frames the interpreter allows this thread before
 * RecursionError (3.11: PyThreadState.recursion_remaining). */
static inline int dynac__recursion_remaining(void) {
  return PyThreadState_Get()->recursion_remaining;
}

/* The lowest address the calling thread's C stack may reach, from its
 * bounds (glibc's pthread_getattr_np; NULL where unknown). CPython 3.11
 * counts only Python-level depth; calls through dynac's dispatch (a root
 * calling itself through the interpreter) also use the C stack, which a
 * raised sys.setrecursionlimit lets run out. *soft: where kernels stop
 * (two margins higher): below it the interpreter runs the calls, with the
 * little C stack a Python call takes, so that CPython's own recursion
 * limit ends a deep recursion as it would without dynac. */
#if defined(__GLIBC__)
#include <pthread.h>
static char *dynac__c_stack_floor_of_thread(char **soft) {
  pthread_attr_t a;
  void *addr = NULL;
  size_t size = 0;
  *soft = NULL;
  if (pthread_getattr_np(pthread_self(), &a) != 0) return NULL;
  int ok = pthread_attr_getstack(&a, &addr, &size) == 0;
  pthread_attr_destroy(&a);
  if (!ok || !addr) return NULL;
  size_t margin = size / 4 < (size_t)1 << 20 ? size / 4 : (size_t)1 << 20; /* room for the way back */
  *soft = (char *)addr + 3 * margin;
  return (char *)addr + margin;
}
#else
static char *dynac__c_stack_floor_of_thread(char **soft) { *soft = NULL; return NULL; }
#endif

/* Calls `assigned`(fn) after each successful assignment to a function's
 * __code__, __defaults__ or __kwdefaults__, in this process, from now on
 * (3.12's function watchers report PyFunction_EVENT_MODIFY_CODE and
 * _MODIFY_DEFAULTS, _MODIFY_KWDEFAULTS; 3.11 has none): the setter of
 * each of those descriptors of the function type becomes one that calls
 * the setter it had (func_set_code, ..., or another runtime's such
 * setter: they chain) and then `assigned`. Once per runtime; later calls
 * change nothing. 0, or -1 with an exception when a descriptor is not the
 * getset 3.11 has. */
enum { DYNAC__WATCHED_FUNCTION_ATTRS = 3 };
static const char *const dynac__watched_attrs[DYNAC__WATCHED_FUNCTION_ATTRS] = {"__code__", "__defaults__",
                                                                                  "__kwdefaults__"};
static void (*dynac__code_watcher)(PyObject *fn);
static setter dynac__setter_before[DYNAC__WATCHED_FUNCTION_ATTRS];
static PyGetSetDef dynac__watched_getset[DYNAC__WATCHED_FUNCTION_ATTRS];
#define DYNAC__WATCHED_SETTER(i)                                                     \
  static int dynac__watched_set_##i(PyObject *fn, PyObject *value, void *closure) { \
    if (dynac__setter_before[i](fn, value, closure) < 0) return -1;                 \
    dynac__code_watcher(fn);                                                        \
    return 0;                                                                       \
  }
DYNAC__WATCHED_SETTER(0)
DYNAC__WATCHED_SETTER(1)
DYNAC__WATCHED_SETTER(2)
static int dynac_compat_watch_code_assignments(void (*assigned)(PyObject *fn)) {
  static const setter watched[DYNAC__WATCHED_FUNCTION_ATTRS] = {dynac__watched_set_0, dynac__watched_set_1,
                                                                dynac__watched_set_2};
  if (dynac__code_watcher) return 0;
  PyGetSetDescrObject *gd[DYNAC__WATCHED_FUNCTION_ATTRS];
  for (int i = 0; i < DYNAC__WATCHED_FUNCTION_ATTRS; i++) {
    PyObject *d = PyDict_GetItemString(PyFunction_Type.tp_dict, dynac__watched_attrs[i]); /* borrowed */
    if (!d || !Py_IS_TYPE(d, &PyGetSetDescr_Type) || !((PyGetSetDescrObject *)d)->d_getset->set) {
      PyErr_Format(PyExc_RuntimeError, "dynac: function.%s is not 3.11's getset descriptor", dynac__watched_attrs[i]);
      return -1;
    }
    gd[i] = (PyGetSetDescrObject *)d;
  }
  for (int i = 0; i < DYNAC__WATCHED_FUNCTION_ATTRS; i++) {
    dynac__watched_getset[i] = *gd[i]->d_getset;
    dynac__setter_before[i] = gd[i]->d_getset->set;
    dynac__watched_getset[i].set = watched[i];
    gd[i]->d_getset = &dynac__watched_getset[i];
  }
  dynac__code_watcher = assigned;
  return 0;
}
#endif /* DYNAC_IMPLEMENTATION: the compat half the runtime needs */
/* ==== End runtime/compat_cpython311.h ==== */
/* ==== Begin runtime/options.h ==== */
/* runtime/options.h: the header's include guard, its API macro and compiler
 * macros. A part of single_include/dynac.h (make single_include). */
#ifndef DYNAC_H
#define DYNAC_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef DYNAC_STATIC
#define DYNAC_API static
#else
#define DYNAC_API extern
#endif

#if defined(__GNUC__)
#define DYNAC_UNUSED __attribute__((unused)) /* a variable some kernels never read */
#define DYNAC_LIKELY(x) __builtin_expect(!!(x), 1)
#define DYNAC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define DYNAC_NOINLINE __attribute__((noinline, unused))
#define DYNAC_HOT_INLINE static inline __attribute__((always_inline, unused))
/* A small generated kernel (emit/kernel.c always_inlined): inlined into its callers */
#define DYNAC_ALWAYS_INLINE __attribute__((always_inline))
#else
#define DYNAC_ALWAYS_INLINE
#define DYNAC_UNUSED
#define DYNAC_LIKELY(x) (x)
#define DYNAC_UNLIKELY(x) (x)
#define DYNAC_NOINLINE
#define DYNAC_HOT_INLINE static inline
#endif
/* An error or deoptimisation path: never inlined into a kernel (its loops
 * keep their registers and layout), and calls to it are predicted not
 * taken (GCC's and Clang's cold attribute). */
#if defined(__GNUC__)
#define DYNAC_COLD static __attribute__((cold, noinline, unused))
#else
#define DYNAC_COLD static
#endif
/* A miss path that may still run often (a class whose version tag changes
 * with every instance made refills its sites' caches each time): out of
 * line, but not size-optimised as code reached only from cold paths is
 * (GCC copied a 64-byte cache way with `rep movs` there, half a refill's
 * time). */
#if defined(__GNUC__) && !defined(__clang__)
#define DYNAC_WARM static __attribute__((noinline, hot, unused))
#else
#define DYNAC_WARM static
#endif
/* After a label: the code from it on is rarely run (GCC's cold label
 * attribute: laid out apart from the hot path, which keeps its registers).
 * A speculative loop's way out only (emit/speculate.c): on the labels of
 * continuation blocks, which methods inlined into a caller's loop hold by
 * the dozen, it made GCC lay out and size-optimise those methods' whole
 * bodies as cold (scheduler 7% and raytrace 3% slower, calls to
 * Py_DECREF and other small inline functions left out of line there). */
#if defined(__GNUC__) && !defined(__clang__)
#define DYNAC_COLD_LABEL __attribute__((cold))
#else
#define DYNAC_COLD_LABEL
#endif

/* ======================================================================
 * 1. Status codes and kernel helpers
 * ==================================================================== */
/* ==== End runtime/options.h ==== */
/* ==== Begin runtime/plain_c.h ==== */
/* runtime/plain_c.h: status codes and plain-C number helpers. A part of
 * single_include/dynac.h (make single_include).
 * This part is plain C11 (GCC/Clang builtins for overflow): it needs
 * <float.h>, <math.h>, <stdbool.h>, <stdint.h> and <string.h>, and no
 * Python header. `dynac export` copies it whole (between its Begin/End
 * banners) into the C it writes, so exported kernels compute exactly what
 * compiled ones do. */
enum {
  DYNAC_ERROR = -1,  /* a Python exception is set (exported C: the status is filled) */
  DYNAC_OK = 0,      /* result written */
  DYNAC_DEOPT = 1,   /* run this call in the interpreter instead */
  DYNAC_OK_NONE = 2, /* the function returned None */
  DYNAC_FALLTHROUGH = 3, /* a region kernel ran to its end (the function goes on) */
  DYNAC_OK_BOXED = 4 /* the call finished in the interpreter (dynac_continue) with a value
                        the kernel's result type cannot hold: the module's
                        dynac__boxed_result holds it (a new reference) */
};

/* Why a helper failed: each fallible helper below returns 0 or one of these
 * codes. Compiled kernels only test for nonzero (and deoptimise: the
 * interpreter then raises CPython's exception); exported C reports the code
 * with the Python exception it stands for and CPython's message. */
enum {
  DYNAC_FAIL_INT64 = 1,           /* an int result beyond int64 (CPython has big ints) */
  DYNAC_FAIL_INT_ZERO_DIV,        /* int // 0 */
  DYNAC_FAIL_INT_MOD_ZERO,        /* int % 0 */
  DYNAC_FAIL_DIV_ZERO,            /* int / 0 */
  DYNAC_FAIL_INT_TRUEDIV_BIG,     /* int / int with an operand beyond 2**53 */
  DYNAC_FAIL_FLOAT_DIV_ZERO,      /* float / 0.0 */
  DYNAC_FAIL_FLOAT_FLOORDIV_ZERO, /* float // 0.0 */
  DYNAC_FAIL_FLOAT_MOD_ZERO,      /* float % 0.0 */
  DYNAC_FAIL_POW_ZERO_NEG,        /* 0.0 ** negative */
  DYNAC_FAIL_POW_COMPLEX,         /* negative ** fractional: a complex number in Python */
  DYNAC_FAIL_POW_RANGE,           /* float ** float overflowed */
  DYNAC_FAIL_INT_POW_NEG,         /* int ** negative int: a float in Python */
  DYNAC_FAIL_NEG_SHIFT,           /* << or >> by a negative count */
  DYNAC_FAIL_NAN_TO_INT,          /* int(nan) */
  DYNAC_FAIL_INF_TO_INT,          /* int(inf) */
  DYNAC_FAIL_MATH_DOMAIN,         /* math.sqrt(-1.0), ... */
  DYNAC_FAIL_MATH_RANGE,          /* math.exp(1000.0), ... */
  DYNAC_FAIL_NOT_INT,             /* a float where Python needs an int (range(), <<, ...) */
  DYNAC_FAIL_INDEX,               /* an index out of range */
  DYNAC_FAIL_READONLY,            /* a write to a read-only buffer */
  DYNAC_FAIL_ITEM_RANGE,          /* a value out of an integer array item's range */
  DYNAC_FAIL_ITEM_VALUE,          /* the same for a bytearray or memoryview (ValueError) */
  DYNAC_FAIL_RANGE_STEP,          /* range(a, b, 0) */
  DYNAC_FAIL_UNBOUND,             /* a local read before assignment */
  DYNAC_FAIL_RECURSION,           /* kernel calls nested deeper than DYNAC_MAX_KERNEL_DEPTH */
  DYNAC_FAIL_NONE_RESULT,         /* a function typed to return a value returned None */
  DYNAC_FAIL_ARGUMENT,            /* exported C: an argument that breaks its documented shape */
  DYNAC_FAIL_NP_SPECIAL,          /* numpy.float64 arithmetic giving inf or nan, or by zero */
  DYNAC_FAIL_EMPTY,               /* min() or max() of no items */
  DYNAC_FAIL_COUNT
};

/* The Python exception a failure code stands for. */
enum {
  DYNAC_EXC_NONE = 0, DYNAC_EXC_OVERFLOW, DYNAC_EXC_ZERO_DIVISION, DYNAC_EXC_VALUE,
  DYNAC_EXC_INDEX, DYNAC_EXC_TYPE, DYNAC_EXC_RECURSION, DYNAC_EXC_UNBOUND_LOCAL
};
typedef struct dynac_fail_info {
  int exc;             /* DYNAC_EXC_* */
  const char *message; /* CPython's message where CPython raises; else what Python would
                          have returned that the C types cannot hold */
} dynac_fail_info;
/* The exception and message of failure `code` (0 or unknown: DYNAC_EXC_NONE, ""). */
static inline dynac_fail_info dynac_fail_describe(int code) {
  static const dynac_fail_info table[DYNAC_FAIL_COUNT] = {
      {DYNAC_EXC_NONE, ""},
      {DYNAC_EXC_OVERFLOW, "integer result does not fit in int64 (Python would return a larger int)"},
      {DYNAC_EXC_ZERO_DIVISION, "integer division or modulo by zero"},
      {DYNAC_EXC_ZERO_DIVISION, "integer modulo by zero"},
      {DYNAC_EXC_ZERO_DIVISION, "division by zero"},
      {DYNAC_EXC_OVERFLOW, "int / int with an operand beyond 2**53 is not exact in a double"},
      {DYNAC_EXC_ZERO_DIVISION, "float division by zero"},
      {DYNAC_EXC_ZERO_DIVISION, "float floor division by zero"},
      {DYNAC_EXC_ZERO_DIVISION, "float modulo"},
      {DYNAC_EXC_ZERO_DIVISION, "0.0 cannot be raised to a negative power"},
      {DYNAC_EXC_TYPE, "a negative number raised to a fractional power is complex in Python"},
      {DYNAC_EXC_OVERFLOW, "(34, 'Numerical result out of range')"},
      {DYNAC_EXC_TYPE, "int ** negative int is a float in Python, not an int"},
      {DYNAC_EXC_VALUE, "negative shift count"},
      {DYNAC_EXC_VALUE, "cannot convert float NaN to integer"},
      {DYNAC_EXC_OVERFLOW, "cannot convert float infinity to integer"},
      {DYNAC_EXC_VALUE, "math domain error"},
      {DYNAC_EXC_OVERFLOW, "math range error"},
      {DYNAC_EXC_TYPE, "a float where an integer is required"},
      {DYNAC_EXC_INDEX, "index out of range"},
      {DYNAC_EXC_TYPE, "cannot modify read-only memory"},
      {DYNAC_EXC_OVERFLOW, "value out of range of the array's item type"},
      {DYNAC_EXC_VALUE, "byte must be in range(0, 256)"},
      {DYNAC_EXC_VALUE, "range() arg 3 must not be zero"},
      {DYNAC_EXC_UNBOUND_LOCAL, "cannot access a local variable where it is not associated with a value"},
      {DYNAC_EXC_RECURSION, "maximum recursion depth exceeded"},
      {DYNAC_EXC_TYPE, "returned None where a value was declared"},
      {DYNAC_EXC_VALUE, "an argument does not have its documented shape"},
      {DYNAC_EXC_NONE, "numpy.float64 arithmetic that numpy warns about (inf, nan, a zero divisor)"},
      {DYNAC_EXC_VALUE, "arg is an empty sequence"}};
  if (code <= 0 || code >= DYNAC_FAIL_COUNT) return table[0];
  return table[code];
}
/* "ZeroDivisionError", ... for a DYNAC_EXC_* (NULL for DYNAC_EXC_NONE). */
static inline const char *dynac_exc_name(int exc) {
  static const char *const names[] = {NULL, "OverflowError", "ZeroDivisionError", "ValueError",
                                      "IndexError", "TypeError", "RecursionError",
                                      "UnboundLocalError"};
  return exc > 0 && exc < (int)(sizeof names / sizeof names[0]) ? names[exc] : NULL;
}

/* int: + - * with overflow detection: 0, or DYNAC_FAIL_INT64. */
#define DYNAC__INT64(overflowed) ((overflowed) ? DYNAC_FAIL_INT64 : 0)
static inline int dynac_int_add(int64_t a, int64_t b, int64_t *r) { return DYNAC__INT64(__builtin_add_overflow(a, b, r)); }
static inline int dynac_int_sub(int64_t a, int64_t b, int64_t *r) { return DYNAC__INT64(__builtin_sub_overflow(a, b, r)); }
static inline int dynac_int_mul(int64_t a, int64_t b, int64_t *r) { return DYNAC__INT64(__builtin_mul_overflow(a, b, r)); }
static inline int dynac_int_neg(int64_t a, int64_t *r) { return DYNAC__INT64(__builtin_sub_overflow((int64_t)0, a, r)); }
static inline int dynac_int_abs(int64_t a, int64_t *r) {
  if (a == INT64_MIN) return DYNAC_FAIL_INT64;
  *r = a < 0 ? -a : a;
  return 0;
}

/* int // int: rounds toward -inf. Fails on ZeroDivisionError or overflow. */
static inline int dynac_int_floordiv(int64_t a, int64_t b, int64_t *r) {
  if (b == 0) return DYNAC_FAIL_INT_ZERO_DIV;
  if (a == INT64_MIN && b == -1) return DYNAC_FAIL_INT64;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  *r = q;
  return 0;
}

/* int % int: the result takes the sign of b. Fails on ZeroDivisionError. */
static inline int dynac_int_mod(int64_t a, int64_t b, int64_t *r) {
  if (b == 0) return DYNAC_FAIL_INT_MOD_ZERO;
  if (b == -1) { *r = 0; return 0; }
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  *r = m;
  return 0;
}

/* int / int -> float, correctly rounded while both fit a double's 53-bit
 * mantissa exactly (as CPython's fast path); otherwise deoptimise. */
static inline int dynac_int_truediv(int64_t a, int64_t b, double *r) {
  const int64_t lim = (int64_t)1 << 53;
  if (b == 0) return DYNAC_FAIL_DIV_ZERO;
  if (a > lim || a < -lim || b > lim || b < -lim) return DYNAC_FAIL_INT_TRUEDIV_BIG;
  *r = (double)a / (double)b;
  return 0;
}

/* int ** int for a non-negative exponent; a negative one gives a float in
 * CPython, so the kernel deoptimises. */
static inline int dynac_int_pow(int64_t a, int64_t e, int64_t *r) {
  if (e < 0) return DYNAC_FAIL_INT_POW_NEG;
  int64_t acc = 1, base = a;
  while (e) {
    if ((e & 1) && __builtin_mul_overflow(acc, base, &acc)) return DYNAC_FAIL_INT64;
    e >>= 1;
    if (e && __builtin_mul_overflow(base, base, &base)) return DYNAC_FAIL_INT64;
  }
  *r = acc;
  return 0;
}

static inline int dynac_int_lshift(int64_t a, int64_t n, int64_t *r) {
  if (n < 0) return DYNAC_FAIL_NEG_SHIFT;
  if (a == 0) { *r = 0; return 0; }
  if (n >= 63) { /* only -1 << 63 (INT64_MIN) fits */
    if (a != -1 || n > 63) return DYNAC_FAIL_INT64;
    *r = INT64_MIN;
    return 0;
  }
  return DYNAC__INT64(__builtin_mul_overflow(a, (int64_t)1 << n, r));
}

static inline int dynac_int_rshift(int64_t a, int64_t n, int64_t *r) {
  if (n < 0) return DYNAC_FAIL_NEG_SHIFT;
  *r = n >= 64 ? (a < 0 ? -1 : 0) : (a >> n); /* arithmetic shift = floor */
  return 0;
}

/* float / float. Fails on ZeroDivisionError. */
static inline int dynac_float_div(double a, double b, double *r) {
  if (b == 0.0) return DYNAC_FAIL_FLOAT_DIV_ZERO;
  *r = a / b;
  return 0;
}

/* float % float: fmod, then the sign of the divisor; a zero result takes the
 * divisor's sign (CPython's float_rem). */
static inline int dynac_float_mod(double a, double b, double *r) {
  if (b == 0.0) return DYNAC_FAIL_FLOAT_MOD_ZERO;
  double m = fmod(a, b);
  if (m != 0.0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = copysign(0.0, b);
  }
  *r = m;
  return 0;
}

/* float // float: the quotient matching float % (CPython's _float_div_mod:
 * derive it from fmod, then round to the nearest integer toward -inf). */
static inline int dynac_float_floordiv(double a, double b, double *r) {
  if (b == 0.0) return DYNAC_FAIL_FLOAT_FLOORDIV_ZERO;
  double m = fmod(a, b);
  double div = (a - m) / b;
  if (m != 0.0 && ((b < 0) != (m < 0))) div -= 1.0;
  double q;
  if (div != 0.0) {
    q = floor(div);
    if (div - q > 0.5) q += 1.0;
  } else {
    q = copysign(0.0, a / b);
  }
  *r = q;
  return 0;
}

/* The value `x`, hidden from the optimiser: no instruction, but the
 * compiler may assume nothing of it. libm calls go through it both ways,
 * because GCC otherwise rewrites them into something CPython does not
 * compute: pow(x, 2.0) into x*x and pow(x, -1.0) into 1/x (libm's pow is
 * not correctly rounded, x*x is: they differ in the last bit for ~0.05% of
 * floats), calls with constant arguments into MPFR's value, and
 * copysign(1, exp(x)) into 1.0 ("exp is never negative", but exp(-nan) is
 * -nan). CPython calls the same libm through pointers, which nothing folds. */
static inline double dynac_opaque(double x) {
#if defined(__GNUC__) && (defined(__x86_64__) || (defined(__i386__) && defined(__SSE2_MATH__)))
  __asm__("" : "+x"(x));
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(x));
#else
  volatile double v = x;
  x = v;
#endif
  return x;
}
/* f(x) and f(x, y) of libm, called as CPython calls them (see dynac_opaque). */
#define dynac_libm_1(f, x) dynac_opaque(f(dynac_opaque(x)))
#define dynac_libm_2(f, x, y) dynac_opaque(f(dynac_opaque(x), dynac_opaque(y)))

/* float ** float, step for step as CPython's float_pow (Objects/
 * floatobject.c): the special values first, then libm's pow of |a| with the
 * sign put back. Nonzero where CPython raises (ZeroDivisionError,
 * OverflowError) or returns a complex number. */
static inline int dynac_float_pow(double a, double b, double *r) {
  if (b == 0.0) { *r = 1.0; return 0; }
  if (isnan(a)) { *r = a; return 0; }
  if (isnan(b)) { *r = a == 1.0 ? 1.0 : b; return 0; }
  bool b_odd = isfinite(b) && fmod(fabs(b), 2.0) == 1.0;
  if (isinf(b)) {
    double m = fabs(a);
    *r = m == 1.0 ? 1.0 : (b > 0.0) == (m > 1.0) ? fabs(b) : 0.0;
    return 0;
  }
  if (isinf(a)) {
    *r = b > 0.0 ? (b_odd ? a : fabs(a)) : (b_odd ? copysign(0.0, a) : 0.0);
    return 0;
  }
  if (a == 0.0) {
    if (b < 0.0) return DYNAC_FAIL_POW_ZERO_NEG;
    *r = b_odd ? a : 0.0;
    return 0;
  }
  bool negate = false;
  if (a < 0.0) {
    if (b != floor(b)) return DYNAC_FAIL_POW_COMPLEX;
    a = -a;
    negate = b_odd;
  }
  if (a == 1.0) { *r = negate ? -1.0 : 1.0; return 0; }
  double x = dynac_libm_2(pow, a, b);
  if (isinf(x)) return DYNAC_FAIL_POW_RANGE;
  *r = negate ? -x : x;
  return 0;
}

/* math.pow(x, y): CPython's math_pow (Modules/mathmodule.c) decides the
 * special values itself and leaves finite ** finite to libm; an error
 * (nan or inf from finite arguments) is left to dynac_math_check2. */
static inline double dynac_math_pow(double x, double y) {
  if (isfinite(x) && isfinite(y)) return dynac_libm_2(pow, x, y);
  if (isnan(x)) return y == 0.0 ? 1.0 : x;
  if (isnan(y)) return x == 1.0 ? 1.0 : y;
  if (isinf(x)) {
    bool y_odd = isfinite(y) && fmod(fabs(y), 2.0) == 1.0;
    return y > 0.0 ? (y_odd ? x : fabs(x)) : y == 0.0 ? 1.0 : (y_odd ? copysign(0.0, x) : 0.0);
  }
  if (fabs(x) == 1.0) return 1.0;
  if (y > 0.0 && fabs(x) > 1.0) return y;
  if (y < 0.0 && fabs(x) < 1.0) return -y;
  return 0.0;
}
/* math.atan2(y, x): CPython's m_atan2 answers a NaN argument with its own
 * (positive) NaN, where libm passes the argument's sign on. */
static inline double dynac_math_atan2(double y, double x) {
  return isnan(x) || isnan(y) ? (double)NAN : dynac_libm_2(atan2, y, x);
}
/* math.fmod(x, y): CPython's math_fmod returns x for an infinite y. */
static inline double dynac_math_fmod(double x, double y) {
  return isinf(y) && isfinite(x) ? x : dynac_libm_2(fmod, x, y);
}
/* math.log / log2 / log10 of one float: CPython's m_log family returns a
 * NaN argument itself and its own NaN for -inf (a domain error either way). */
#define DYNAC_MATH_LOG(name)                                       \
  static inline double dynac_math_##name(double x) {               \
    if (isnan(x)) return x;                                        \
    if (isinf(x)) return x > 0.0 ? x : (double)NAN;                \
    return dynac_libm_1(name, x);                                  \
  }
DYNAC_MATH_LOG(log)
DYNAC_MATH_LOG(log2)
DYNAC_MATH_LOG(log10)
#undef DYNAC_MATH_LOG

/* Exact comparison of an int with a float (CPython compares the values, not
 * the int converted to a double): -1 if i < f, 0 if equal, 1 if i > f, 2 if
 * f is NaN (unordered). */
static inline int dynac_cmp_int_float(int64_t i, double f) {
  if (isnan(f)) return 2;
  const int64_t lim = (int64_t)1 << 53;
  if (i >= -lim && i <= lim) {
    double d = (double)i;
    return d < f ? -1 : d > f ? 1 : 0;
  }
  if (f >= 9223372036854775808.0) return -1;
  if (f < -9223372036854775808.0) return 1;
  double t = trunc(f);
  int64_t ti = (int64_t)t;
  if (i != ti) return i < ti ? -1 : 1;
  double frac = f - t;
  return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}
#define DYNAC_CMP_LT(c) ((c) == -1)
#define DYNAC_CMP_LE(c) ((c) == -1 || (c) == 0)
#define DYNAC_CMP_GT(c) ((c) == 1)
#define DYNAC_CMP_GE(c) ((c) == 1 || (c) == 0)
#define DYNAC_CMP_EQ(c) ((c) == 0)
#define DYNAC_CMP_NE(c) ((c) != 0)

/* int(x) / math.trunc(x) of a float: fails for NaN, inf, or outside int64. */
static inline int dynac_float_to_int(double x, int64_t *r) {
  if (isnan(x)) return DYNAC_FAIL_NAN_TO_INT;
  if (isinf(x)) return DYNAC_FAIL_INF_TO_INT;
  double t = trunc(x);
  if (t < -9223372036854775808.0 || t >= 9223372036854775808.0) return DYNAC_FAIL_INT64;
  *r = (int64_t)t;
  return 0;
}

/* round(x) of a float: half to even (CPython's float.__round__). */
static inline int dynac_float_round(double x, int64_t *r) {
  double y = round(x);
  if (fabs(x - y) == 0.5) y = 2.0 * round(x / 2.0);
  return dynac_float_to_int(y, r);
}

/* IEEE's square root (correctly rounded; nan and the invalid flag for x < 0,
 * as C's sqrt) without the errno C's sqrt must set for x < 0: GCC emits the
 * bare instruction with no call of libm behind it (a call, even one never
 * made, costs a loop its xmm registers: pairwise's loop took 13% longer). */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline double dynac_sqrt(double x) {
  __m128d v = _mm_set_sd(x);
  return _mm_cvtsd_f64(_mm_sqrt_sd(v, v));
}
#else
static inline double dynac_sqrt(double x) { return sqrt(x); }
#endif

/* (double)n where GCC cannot see that it came from an int (the right
 * operand of a float subtraction, float(n)): GCC 12 folds 0.0 - (double)n
 * into -(double)n, which is -0.0 for n == 0 where IEEE (and CPython's
 * 0.0 - 0) gives +0.0 (-fsigned-zeros, GCC's default, does not stop it). */
static inline double dynac_int_subtrahend(int64_t n) {
  double d = (double)n;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__)
  __asm__("" : "+x"(d)); /* (no instruction: d stays in its register) */
#elif defined(__GNUC__)
  __asm__("" : "+m"(d));
#endif
  return d;
}

/* math functions of one/two floats: fail where CPython's math module raises
 * (Modules/mathmodule.c math_1/math_2): NaN from non-NaN arguments is
 * ValueError "math domain error"; inf from finite ones is OverflowError
 * "math range error" for the functions that can overflow (can_overflow:
 * exp, exp2, expm1, cosh, sinh) and a domain error (a pole) for the others. */
static inline int dynac_math_check1(double x, double r, int can_overflow) {
  if (isnan(r) && !isnan(x)) return DYNAC_FAIL_MATH_DOMAIN;
  if (isinf(r) && isfinite(x)) return can_overflow ? DYNAC_FAIL_MATH_RANGE : DYNAC_FAIL_MATH_DOMAIN;
  return 0;
}
static inline int dynac_math_check2(double x, double y, double r) {
  if (isnan(r) && !isnan(x) && !isnan(y)) return DYNAC_FAIL_MATH_DOMAIN;
  if (isinf(r) && isfinite(x) && isfinite(y)) return DYNAC_FAIL_MATH_RANGE;
  return 0;
}


/* A number that is an int or a float depending on the path taken (`s = 0`
 * then `s += 0.5`; `max(1, 0.5)`). Operations dispatch on the tag with
 * CPython's rules: int op int stays exact, anything with a float is float.
 * `np`: the number is a numpy.float64 (isf) or numpy.int64 (`s = 0.0` then
 * `s += a[i]` of a float64 array, `t = 0` then `t += v` of an int64 one:
 * the type infer.c calls int | float | numpy.float64 | numpy.int64).
 * Arithmetic with one is numpy's: its result is a numpy scalar too (int64
 * with ints, float64 with a float), and where numpy would warn, wrap or
 * follow np.errstate (a float result that is inf or nan, a zero divisor,
 * int64 overflow) the helper fails with DYNAC_FAIL_NP_SPECIAL and the
 * interpreter (or the C API's own operation) gives numpy's answer. */
typedef struct dynac_num {
  int64_t i;   /* the value when !isf */
  double f;    /* the value when isf */
  bool isf;
  bool np;     /* a numpy.float64 (isf) or numpy.int64 */
} dynac_num;

static inline dynac_num dynac_num_i(int64_t i) { dynac_num n = {i, 0.0, false, false}; return n; }
static inline dynac_num dynac_num_f(double f) { dynac_num n = {0, f, true, false}; return n; }
static inline dynac_num dynac_num_npf(double f) { dynac_num n = {0, f, true, true}; return n; }
static inline dynac_num dynac_num_npi(int64_t i) { dynac_num n = {i, 0.0, false, true}; return n; }
static inline double dynac_num_to_double(dynac_num a) { return a.isf ? a.f : (double)a.i; }
static inline bool dynac_num_truth(dynac_num a) { return a.isf ? a.f != 0.0 : a.i != 0; }

static inline int dynac__float_add(double x, double y, double *r) { *r = x + y; return 0; }
static inline int dynac__float_sub(double x, double y, double *r) { *r = x - y; return 0; }
static inline int dynac__float_mul(double x, double y, double *r) { *r = x * y; return 0; }
/* The failure of a float result r (status st) that is a numpy.float64 when np. */
static inline int dynac__np_result(bool np, int st, double r) {
  return np && (st || !isfinite(r)) ? DYNAC_FAIL_NP_SPECIAL : st;
}

#define DYNAC__NUM_ARITH(name, intop, floatop)                                   \
  static inline int dynac_num_##name(dynac_num a, dynac_num b, dynac_num *r) {   \
    r->np = a.np || b.np;                                                        \
    if (!a.isf && !b.isf) {                                                      \
      r->isf = false;                                                            \
      int ist = intop(a.i, b.i, &r->i);                                          \
      return r->np && ist ? DYNAC_FAIL_NP_SPECIAL : ist;                         \
    }                                                                            \
    r->isf = true;                                                               \
    int st = floatop(dynac_num_to_double(a), dynac_num_to_double(b), &r->f);     \
    return dynac__np_result(r->np, st, r->f);                                    \
  }
DYNAC__NUM_ARITH(add, dynac_int_add, dynac__float_add)
DYNAC__NUM_ARITH(sub, dynac_int_sub, dynac__float_sub)
DYNAC__NUM_ARITH(mul, dynac_int_mul, dynac__float_mul)
DYNAC__NUM_ARITH(floordiv, dynac_int_floordiv, dynac_float_floordiv)
DYNAC__NUM_ARITH(mod, dynac_int_mod, dynac_float_mod)

/* int ** int is an int for exponents >= 0 and float(a) ** float(b) below. */
static inline int dynac_num_pow(dynac_num a, dynac_num b, dynac_num *r) {
  r->np = a.np || b.np;
  if (!a.isf && !b.isf && b.i >= 0) {
    r->isf = false;
    int st = dynac_int_pow(a.i, b.i, &r->i);
    return r->np && st ? DYNAC_FAIL_NP_SPECIAL : st;
  }
  if (!a.isf && !b.isf && r->np) return DYNAC_FAIL_NP_SPECIAL; /* numpy: ValueError */
  r->isf = true;
  int st = dynac_float_pow(dynac_num_to_double(a), dynac_num_to_double(b), &r->f);
  return dynac__np_result(r->np, st, r->f);
}

static inline int dynac_num_truediv(dynac_num a, dynac_num b, double *r) {
  if (!a.isf && !b.isf) return dynac_int_truediv(a.i, b.i, r);
  return dynac_float_div(dynac_num_to_double(a), dynac_num_to_double(b), r);
}
/* a / b where either may be a numpy.float64 (then so is the quotient). */
static inline int dynac_num_np_truediv(dynac_num a, dynac_num b, dynac_num *r) {
  r->np = a.np || b.np;
  r->isf = true;
  r->i = 0;
  if (!r->np) return dynac_num_truediv(a, b, &r->f);
  int st = dynac_float_div(dynac_num_to_double(a), dynac_num_to_double(b), &r->f);
  return dynac__np_result(true, st, r->f);
}

/* -1, 0, 1, or 2 when unordered (NaN): exact across int and float. */
static inline int dynac_num_cmp(dynac_num a, dynac_num b) {
  if (!a.isf && !b.isf) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  if (a.np || b.np) { /* numpy compares an int with a float as float64s */
    double x = dynac_num_to_double(a), y = dynac_num_to_double(b);
    return x != x || y != y ? 2 : x < y ? -1 : x > y ? 1 : 0;
  }
  if (!a.isf) return dynac_cmp_int_float(a.i, b.f);
  if (!b.isf) {
    int c = dynac_cmp_int_float(b.i, a.f);
    return c == 2 ? 2 : -c;
  }
  if (a.f != a.f || b.f != b.f) return 2;
  return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
}

static inline int dynac_num_neg(dynac_num a, dynac_num *r) {
  r->isf = a.isf;
  r->np = a.np;
  if (a.isf) { r->f = -a.f; return 0; }
  int st = dynac_int_neg(a.i, &r->i);
  return a.np && st ? DYNAC_FAIL_NP_SPECIAL : st;
}

static inline int dynac_num_abs(dynac_num a, dynac_num *r) {
  r->isf = a.isf;
  r->np = a.np;
  if (a.isf) { r->f = fabs(a.f); return 0; }
  int st = dynac_int_abs(a.i, &r->i);
  return a.np && st ? DYNAC_FAIL_NP_SPECIAL : st;
}

/* An int-only use (bit operations, shifts, range()) of a number that is a
 * float raises TypeError in CPython: nonzero, deoptimise. */
static inline int dynac_num_as_int(dynac_num a, int64_t *r) {
  if (a.isf) return DYNAC_FAIL_NOT_INT;
  *r = a.i;
  return 0;
}

/* int(x), round(x), math.floor/ceil/trunc of a number. */
static inline int dynac_num_to_int(dynac_num a, int64_t *r) {
  if (!a.isf) { *r = a.i; return 0; }
  return dynac_float_to_int(a.f, r);
}
static inline int dynac_num_round(dynac_num a, int64_t *r) {
  if (!a.isf) { *r = a.i; return 0; }
  return dynac_float_round(a.f, r);
}
static inline int dynac_num_floor(dynac_num a, int64_t *r) {
  if (!a.isf) { *r = a.i; return 0; }
  return dynac_float_to_int(floor(a.f), r);
}
static inline int dynac_num_ceil(dynac_num a, int64_t *r) {
  if (!a.isf) { *r = a.i; return 0; }
  return dynac_float_to_int(ceil(a.f), r);
}

/* Length of range(start, stop, step), step != 0, computed without overflow
 * (as CPython's range does, in unsigned arithmetic). */
static inline uint64_t dynac_range_len(int64_t start, int64_t stop, int64_t step) {
  if (step > 0)
    return start < stop ? ((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1 : 0;
  return start > stop
             ? ((uint64_t)start - (uint64_t)stop - 1) / ((uint64_t)0 - (uint64_t)step) + 1
             : 0;
}

/* Range-derived bounds checks: is a * v + b in [0, len), computed without
 * int64 overflow, for every v of range(start, stop, step) (step != 0)?
 * True for an empty range. a * v + b is monotonic in v, so the first and
 * last items decide it; a kernel tests this once before a loop and then
 * skips the loop's per-item index checks (dynac's generator, bounds.c). */
static inline bool dynac_affine_in(int64_t a, int64_t b, int64_t start, int64_t stop, int64_t step,
                                   int64_t len) {
  uint64_t n = dynac_range_len(start, stop, step);
  if (n == 0) return true;
  int64_t last, x, y;
  if (n - 1 > (uint64_t)INT64_MAX || __builtin_mul_overflow((int64_t)(n - 1), step, &last) ||
      __builtin_add_overflow(start, last, &last))
    return false;
  if (__builtin_mul_overflow(a, start, &x) || __builtin_add_overflow(x, b, &x) ||
      __builtin_mul_overflow(a, last, &y) || __builtin_add_overflow(y, b, &y))
    return false;
  return x >= 0 && x < len && y >= 0 && y < len;
}

/* Python's index rule: negative i counts from the end. Nonzero when out of
 * range (IndexError in CPython). */
static inline int dynac_index(int64_t i, int64_t len, int64_t *out) {
  if (i < 0) i += len;
  if (i < 0 || i >= len) return DYNAC_FAIL_INDEX;
  *out = i;
  return 0;
}

/* Does int64 `x` fit an integer buffer item of struct format `fmt`? (0:
 * CPython's store raises OverflowError.) */
static inline int dynac_fits_fmt(int64_t x, char fmt) {
  switch (fmt) {
  case 'b': return x >= -128 && x <= 127;
  case 'B': return x >= 0 && x <= 255;
  case 'h': return x >= -32768 && x <= 32767;
  case 'H': return x >= 0 && x <= 65535;
  case 'i': return x >= INT32_MIN && x <= INT32_MAX;
  case 'I': return x >= 0 && x <= (int64_t)UINT32_MAX;
  case 'Q': case 'L': return x >= 0;
  case '?': return x == 0 || x == 1;
  default: return 1;
  }
}
/* ==== End runtime/plain_c.h ==== */
/* ==== Begin runtime/artifact.h ==== */
/* runtime/artifact.h: facts the generator and the Python package share,
 * defined once. A part of single_include/dynac.h (make single_include).
 * Plain C (<stddef.h> only): the generator includes this part itself, and
 * the package reads it through dynac._runtime (module_stem, COMPILE_OPTIONS).
 *
 * The keyword options of dynac.compile / torch.compile: `dynac build`
 * reads fullgraph, signatures and backend and accepts the others (as
 * torch.compile's); an unknown one is an error on both sides. */
static const char *const dynac_compile_options[] = {"fullgraph", "signatures", "backend",
                                                     "dynamic", "mode", "options", NULL};

/* How a module's artifact is named (NAME__dynac.c and its extension module).
 *
 * The stem of a source path: its file name without ".py", every byte that
 * is not an ASCII letter, digit or underscore made '_' (bytes: a UTF-8
 * character is as many underscores as it has bytes), '_' in front when it
 * would start with a digit or be empty. "colorsys.py" -> "colorsys",
 * "2d-heat.py" -> "_2d_heat". Writes at most cap bytes with the NUL;
 * returns the stem's length (cap too small: the length it needs). */
static inline size_t dynac_module_stem(const char *path, char *out, size_t cap) {
  const char *base = path;
  for (const char *p = path; *p; p++)
    if (*p == '/') base = p + 1;
  size_t n = 0;
  while (base[n]) n++;
  if (n > 3 && base[n - 3] == '.' && base[n - 2] == 'p' && base[n - 1] == 'y') n -= 3;
  size_t k = 0;
  int digit_first = n > 0 && base[0] >= '0' && base[0] <= '9';
  if (n == 0 || digit_first) {
    if (k + 1 < cap) out[k] = '_';
    k++;
  }
  for (size_t i = 0; i < n; i++) {
    char c = base[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (k + 1 < cap) out[k] = ok ? c : '_';
    k++;
  }
  if (cap) out[k < cap ? k : cap - 1] = 0;
  return k;
}
/* ==== End runtime/artifact.h ==== */
/* ==== Begin runtime/boxing.h ==== */
/* runtime/boxing.h: boxing, unboxing, C-API calls, the eval breaker, tracebacks. A part of single_include/dynac.h (make single_include). */

/* Boxing: new references, NULL with MemoryError on failure. */
static inline PyObject *dynac_box_int(int64_t v) { return PyLong_FromLongLong(v); }
static inline PyObject *dynac_box_float(double v) { return PyFloat_FromDouble(v); }
/* A parameter's value boxed once per call: *kept (the kernel's bx_NAME,
 * released when it returns) taken at the first use and shared by the rest,
 * as the caller's one object is in the interpreter. It is the caller's own
 * object when the caller passed one (args, the kernel's dynac__args,
 * borrowed: the glue's argument objects, or a kernel's call's literals;
 * args[i], when not NULL, an exact float or int of value v), else (args or
 * args[i] NULL: another kernel called it with C values) v boxed. A new
 * reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_param_float(PyObject **kept, double v, PyObject *const *args, int i) {
  if (!*kept) *kept = args && args[i] ? Py_NewRef(args[i]) : dynac_box_float(v);
  return Py_XNewRef(*kept);
}
static inline PyObject *dynac_box_param_int(PyObject **kept, int64_t v, PyObject *const *args, int i) {
  if (!*kept) *kept = args && args[i] ? Py_NewRef(args[i]) : dynac_box_int(v);
  return Py_XNewRef(*kept);
}
/* A parameter read once boxed: the caller's object as above, without
 * keeping it (`self.x = x` stores the caller's float, as CPython's
 * STORE_ATTR does), else v boxed. A new reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_param_once_float(double v, PyObject *const *args, int i) {
  return args && args[i] ? Py_NewRef(args[i]) : dynac_box_float(v);
}
static inline PyObject *dynac_box_param_once_int(int64_t v, PyObject *const *args, int i) {
  return args && args[i] ? Py_NewRef(args[i]) : dynac_box_int(v);
}
/* Float literal `literal`'s one object of the module (*made, made at the
 * first use and kept for the process, as a code object keeps its
 * constants), for a kernel's call to pass (dynac__args): borrowed, or NULL
 * (no exception set) when it could not be made, the callee then boxing the
 * value itself. */
static inline PyObject *dynac_float_literal_object(PyObject **made, double literal) {
  if (!*made && !(*made = dynac_box_float(literal))) PyErr_Clear();
  return *made;
}
/* The result of a kernel whose code returns the float literal `literal`
 * (`return 0.1`): that literal's one object (*made, made at the first use and
 * kept for the process) when v has its bits, else a new float. CPython
 * returns the code object's constant there, so a list of such results holds
 * one object, not one per element (a ray tracer's background pixels: 45,000
 * floats, 260 pages). A new reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_float_literal(double v, double literal, PyObject **made) {
  if (memcmp(&v, &literal, sizeof v)) return dynac_box_float(v); /* -0.0 and 0.0 differ too */
  if (!*made) *made = dynac_box_float(literal);
  return Py_XNewRef(*made);
}
/* The tuple of n new references (taken over), or NULL with MemoryError
 * when one of them is NULL or the tuple cannot be made (the rest released). */
static inline PyObject *dynac_tuple_steal(Py_ssize_t n, PyObject **items) {
  PyObject *r = NULL;
  int ok = 1;
  for (Py_ssize_t i = 0; i < n; i++) ok = ok && items[i];
  if (ok) r = PyTuple_New(n);
  for (Py_ssize_t i = 0; i < n; i++)
    if (r) PyTuple_SET_ITEM(r, i, items[i]);
    else Py_XDECREF(items[i]);
  return r;
}
/* None as a kernel value (a tuple field, a live-in) is a bool that is never
 * read: boxing gives a new reference to None, unboxing tests identity. */
static inline PyObject *dynac_box_none(bool v) {
  (void)v;
  return Py_NewRef(Py_None);
}
static inline int dynac_elem_none(PyObject *o, bool *out) {
  *out = false;
  return o != Py_None;
}
static inline PyObject *dynac_box_bool(bool v) {
  PyObject *r = v ? Py_True : Py_False;
  Py_INCREF(r);
  return r;
}

/* Unboxing for guards: exact int within int64. */
static inline int dynac_int64_of(PyObject *v, int64_t *out) {
  long small;
  if (DYNAC_LIKELY(dynac_compat_small_int(v, &small))) return *out = small, 1; /* one digit: no call */
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (overflow) return 0;
  *out = (int64_t)x;
  return 1;
}
/* A loop variable's value v, read from item k of list `list` (the item
 * object `item`), boxed: the item itself while the list still holds it
 * there and it is an exact int (float) of that value, as CPython's loop
 * variable is the item ({k: k * 2 for k in ks} makes no int per key);
 * else v boxed anew. A new reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_int_item(int64_t v, PyObject *item, PyObject *list, int64_t k) {
  int64_t w;
  if ((uint64_t)k < (uint64_t)PyList_GET_SIZE(list) && PyList_GET_ITEM(list, k) == item &&
      PyLong_CheckExact(item) && dynac_int64_of(item, &w) && w == v)
    return Py_NewRef(item);
  return dynac_box_int(v);
}
static inline PyObject *dynac_box_float_item(double v, PyObject *item, PyObject *list, int64_t k) {
  if ((uint64_t)k < (uint64_t)PyList_GET_SIZE(list) && PyList_GET_ITEM(list, k) == item &&
      PyFloat_CheckExact(item) && !memcmp(&((PyFloatObject *)item)->ob_fval, &v, sizeof v)) /* -0.0, NaNs: bits */
    return Py_NewRef(item);
  return dynac_box_float(v);
}
/* A value v read from an instance's attribute whose object the read kept
 * (obj: a reference the kernel owns, or NULL; dynac_attr_int_kept), boxed
 * as that object while it is an exact int (float) of v: CPython's stack
 * holds the attribute's object, so `kind(t, self.seq)` or `(self.customer,
 * self.time)` holds it again rather than an equal new one. Else v boxed
 * anew. A new reference, or NULL with MemoryError. */
static inline PyObject *dynac_box_int_kept(int64_t v, PyObject *obj) {
  int64_t w;
  if (obj && PyLong_CheckExact(obj) && dynac_int64_of(obj, &w) && w == v) return Py_NewRef(obj);
  return dynac_box_int(v);
}
static inline PyObject *dynac_box_float_kept(double v, PyObject *obj) {
  if (obj && PyFloat_CheckExact(obj) && !memcmp(&((PyFloatObject *)obj)->ob_fval, &v, sizeof v)) /* bits */
    return Py_NewRef(obj);
  return dynac_box_float(v);
}
/* The caller's argument object a kernel's result r is, when its code
 * returned a parameter (`return lo` of a clamp; returned: that parameter's
 * index + 1 as its return reported it, dynac__returned_param, else 0) and
 * args (the glue's argument objects) holds it with r's value: CPython's
 * `return x` gives the frame's object, not an equal new one. Borrowed, or
 * NULL (box r). */
static inline PyObject *dynac_returned_float_arg(double r, PyObject *const *args, int returned) {
  PyObject *a = returned ? args[returned - 1] : NULL;
  return a && PyFloat_CheckExact(a) && !memcmp(&((PyFloatObject *)a)->ob_fval, &r, sizeof r) ? a : NULL;
}
static inline PyObject *dynac_returned_int_arg(int64_t r, PyObject *const *args, int returned) {
  PyObject *a = returned ? args[returned - 1] : NULL;
  int64_t v;
  return a && PyLong_CheckExact(a) && dynac_int64_of(a, &v) && v == r ? a : NULL;
}
static inline int dynac_is_int64(PyObject *v) {
  int64_t ignored;
  return PyLong_CheckExact(v) && dynac_int64_of(v, &ignored);
}

/* The number a "float | None" or "int | None" local holds (o borrowed),
 * read where the generator proved it is not None (generator/analysis/
 * narrow.c, as a type checker narrows an Optional): such a local holds only
 * None and what its kernel boxed there, an exact float (dynac_box_float)
 * or an exact int within int64 (dynac_box_int). */
static inline double dynac_held_float(PyObject *o) { return PyFloat_AS_DOUBLE(o); }
static inline int64_t dynac_held_int(PyObject *o) {
  int64_t v = 0;
  (void)dynac_int64_of(o, &v); /* in range: boxed from an int64 */
  return v;
}

static inline PyObject *dynac_box_np(char fmt, double f, int64_t i); /* numpy.h */
/* A number as the object it stands for: an int, a float, a numpy.float64
 * or a numpy.int64 (new reference; NULL with an exception). */
static inline PyObject *dynac_box_num(dynac_num v) {
  if (v.np) return v.isf ? dynac_box_np('d', v.f, 0) : dynac_box_np('l', 0.0, v.i);
  return v.isf ? PyFloat_FromDouble(v.f) : PyLong_FromLongLong(v.i);
}

/* Calls fn (borrowed) with n boxed arguments (stolen; NULL entries mean a
 * boxing failure). Returns a new reference, or NULL with no exception set:
 * the kernel then deoptimises and the interpreter raises CPython's error. */
static inline PyObject *dynac_call_api(PyObject *fn, PyObject **argv, int n) {
  PyObject *r = NULL;
  int ok = 1;
  for (int i = 0; i < n; i++) if (!argv[i]) ok = 0;
  if (ok) r = PyObject_Vectorcall(fn, argv, (size_t)n, NULL);
  for (int i = 0; i < n; i++) Py_XDECREF(argv[i]);
  if (!r) PyErr_Clear();
  return r;
}
/* Unboxing of an API result (stolen): 0 on success, 1 (deoptimise) when it
 * is not exactly of the type the kernel was typed for. */
static inline int dynac_unbox_float(PyObject *r, double *out) {
  if (!r) return 1;
  int bad = !PyFloat_CheckExact(r);
  if (!bad) *out = PyFloat_AS_DOUBLE(r);
  Py_DECREF(r);
  return bad;
}
static inline int dynac_unbox_int(PyObject *r, int64_t *out) {
  if (!r) return 1;
  int bad = !PyLong_CheckExact(r) || !dynac_int64_of(r, out);
  Py_DECREF(r);
  return bad;
}
static inline int dynac_unbox_num(PyObject *r, dynac_num *out) {
  if (!r) return 1;
  int bad = 0;
  if (PyFloat_CheckExact(r)) *out = dynac_num_f(PyFloat_AS_DOUBLE(r));
  else if (PyLong_CheckExact(r) && dynac_int64_of(r, &out->i)) out->isf = false, out->np = false;
  else bad = 1;
  Py_DECREF(r);
  return bad;
}
static inline int dynac_unbox_bool(PyObject *r, bool *out) {
  if (!r) return 1;
  int bad = !PyBool_Check(r);
  if (!bad) *out = r == Py_True;
  Py_DECREF(r);
  return bad;
}

/* Kernel loops do what the interpreter's eval breaker does at a backward
 * jump, every 65536 iterations: the runtime's dynac_rt.eval_breaker runs
 * pending calls and signal handlers (Ctrl-C raises KeyboardInterrupt) and
 * hands the GIL to a thread that asked for it. In a loop whose items'
 * shape was proved before it (shapes.c), no other thread may run.
 * `budget` is the kernel's own int64_t local (a register), counted down
 * from DYNAC_TICK_BUDGET by the iterations run; whoever finds it below 0
 * runs the eval breaker and refills it (Python code may have run then:
 * dynac__py_serial). A loop ticks per iteration: */
#define DYNAC_TICK_BUDGET 65536
#define DYNAC_TICK_IF(spent, budget, may_switch)                                  \
  if (DYNAC_UNLIKELY(spent)) {                                                    \
    (budget) = DYNAC_TICK_BUDGET;                                                 \
    if (dynac__G.rt->eval_breaker(may_switch) < 0) return DYNAC_ERROR;            \
    dynac__py_serial++; /* a handler or another thread may have run */          \
  }
#define DYNAC_LOOP_TICK(budget) DYNAC_TICK_IF(--(budget) < 0, budget, 1)
#define DYNAC_LOOP_TICK_HELD(budget) DYNAC_TICK_IF(--(budget) < 0, budget, 0)
/* An innermost range loop ticks a block of its iterations k..end-1 at once,
 * before the block (`end`, uint64_t: at most DYNAC_TICK_BUDGET past k, n at
 * most): its body holds no counter and no call. */
#define DYNAC_LOOP_BLOCK(budget, k, n, end, may_switch)                           \
  do {                                                                            \
    end = (n) - (k) > DYNAC_TICK_BUDGET ? (k) + DYNAC_TICK_BUDGET : (n);          \
    (budget) -= (int64_t)((end) - (k));                                           \
    DYNAC_TICK_IF((budget) < 0, budget, may_switch)                               \
  } while (0)
/* One nested in a loop that ticks per iteration, and that holds at most
 * DYNAC_TICK_BUDGET iterations, is one block whose count only comes off the
 * budget: the enclosing loop's next tick runs the eval breaker if it is
 * spent. A call on the way back into the enclosing loop's body costs that
 * body its registers (pairwise's `for k in range(d)`: a third of its time). */
#define DYNAC_LOOP_BLOCK_NESTED(budget, k, n, end, may_switch)                    \
  do {                                                                            \
    if (DYNAC_LIKELY((n) <= DYNAC_TICK_BUDGET)) {                                 \
      end = (n);                                                                  \
      (budget) -= (int64_t)((end) - (k));                                         \
    } else                                                                        \
      DYNAC_LOOP_BLOCK(budget, k, n, end, may_switch);                            \
  } while (0)

/* Bumped wherever this module's kernels may run Python code (a call
 * through the C API, an object operation that calls out, a global stored,
 * a continuation, the eval breaker's handlers): that code may rebind the
 * module-level values the kernels read, so each kernel checks them again
 * before a statement that reads them once this changed
 * (descriptors.h: DYNAC_GLOBALS_CHANGED). One per translation unit: each
 * generated module has its own, which only its own kernels bump and read
 * (calls between modules go through the C API, a bump on the caller's
 * side). */
static __attribute__((unused)) uint64_t dynac__py_serial;
/* A kernel's operation may run Python code: an effect (*effects, the
 * kernel's dynac__effects: a deoptimisation cannot repeat it), and the
 * module-level values are to be checked again (dynac__py_serial). */
static inline void dynac_python_may_run(int *effects) {
  *effects = 1;
  dynac__py_serial++;
}
/* The same as an expression, for generated code: nonzero. */
#define DYNAC_PYTHON_RUNS(effects) ((effects) = 1, ++dynac__py_serial)

/* A kernel that ran Python code (an object's method or operator), made an
 * opaque call (allow_in_graph) or made writes its undo log could not keep
 * cannot hand the call back to the interpreter afterwards where no
 * continuation goes on (generator/emit/continue.c): the interpreter would
 * repeat those effects. Such a deoptimisation point raises instead. */
DYNAC_COLD int dynac_deopt_after_effect(const char *file, int line) {
  PyErr_Format(PyExc_RuntimeError,
               "dynac: %s:%d: the compiled code needs the interpreter here (int64 overflow, "
               "or a value of a type the kernel was not specialised for), but it already ran "
               "Python code (an object's method or operator), wrote to a list or buffer, or made "
               "an allow_in_graph call, which the interpreter would repeat; run this function "
               "with dynac.disable, or keep such values out of it",
               file, line);
  return DYNAC_ERROR;
}
static inline int dynac__comp_frame(const char *name) {
  return !strcmp(name, "<genexpr>") || !strcmp(name, "<listcomp>") || !strcmp(name, "<setcomp>") ||
         !strcmp(name, "<dictcomp>");
}
/* Adds a traceback entry for `func` at `filename` (borrowed str):`line`
 * to the exception being raised, as the frame a kernel replaces would have.
 * Inside a comprehension `func` is "<listcomp>\0NAME\0LINE" (or <genexpr>,
 * <setcomp>, <dictcomp>): the comprehension's frame at `line`, then the
 * frame that runs it, NAME at LINE, which is another comprehension's
 * (followed by its own "\0NAME\0LINE") or the function's, as CPython 3.11
 * runs each comprehension in a frame of its own. Returns DYNAC_ERROR.
 * Cold and out of line: every fallible operation of a kernel calls it. */
DYNAC_COLD int dynac_traceback_here(PyObject *filename, const char *func, int line) {
  const char *file = filename ? PyUnicode_AsUTF8(filename) : NULL;
  if (!file) return DYNAC_ERROR;
  dynac_compat_traceback_add(func, file, line);
  for (const char *name = func, *next = func; dynac__comp_frame(name);) {
    next += strlen(next) + 1; /* the next frame's name (read only past a comprehension's) */
    const char *at = next + strlen(next) + 1; /* its line */
    dynac_compat_traceback_add(next, file, atoi(at));
    name = next;
    next = at;
  }
  return DYNAC_ERROR;
}
/* "<string>", the co_filename of code exec() made from a string: the file
 * of a traceback entry of a kernel synthesised from such code (a
 * @dataclass's __init__: generator/dataclass_init.c). Borrowed (made once,
 * kept), or NULL (MemoryError: the entry is left out). */
static inline PyObject *dynac_exec_filename(void) {
  static PyObject *name;
  if (!name) name = PyUnicode_InternFromString("<string>");
  return name;
}
#define DYNAC_DEOPT_OR_RAISE(effects, file, line) \
  return ((effects) || !DYNAC_UNDO_INTACT()) ? dynac_deopt_after_effect(file, line) : DYNAC_DEOPT
/* A failing operation in a kernel that may have had an effect: before any
 * (and with every write undone) the interpreter runs the call again;
 * after one, `slow` (the operation redone through the C API, which raises
 * CPython's own exception with this frame's line) is the kernel's result.
 * One line per fallible operation, as Cython's __PYX_ERR. */
#define DYNAC_DEOPT_OR_SLOW(effects, slow) \
  do { \
    if (!(effects) && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; /* writes undone */ \
    DYNAC_LEAVE(slow); /* an exception goes to a try statement's handlers */ \
  } while (0)

/* ==== End runtime/boxing.h ==== */
/* ==== Begin runtime/containers.h ==== */
/* runtime/containers.h: lists (borrowed) and 1-D buffers. A part of single_include/dynac.h (make single_include). */
/* ---- containers: lists (borrowed PyObject *) and 1-D buffers ------------
 * A kernel holds lists by borrowed reference (its arguments are held by the
 * caller; it never stores a container into a container) and reads each
 * element's type when it reads the element, so no guard is O(n). Buffers
 * (array.array, memoryview, bytes, bytearray) are acquired by the glue for
 * the whole call, which also keeps them from being resized. */

/* A buffer as kernels see it. `obj` is borrowed (the exporter, used to
 * raise CPython's own exceptions); `len` counts items (rows of a 2-D
 * ndarray); `stride` is in bytes. A 2-D ndarray also has `len1` items per
 * row, `stride1` bytes apart (both 0 for 1-D buffers). The rest is the
 * undo log's bookkeeping for this call (see dynac_view_log): the bytes the
 * items span, and how many writes were logged before the span is copied
 * once instead. */
typedef struct dynac_view {
  char *buf;
  Py_ssize_t len;
  Py_ssize_t stride;
  int readonly;               /* read-only when the view was taken */
  const int *live_flags;      /* read-only now: where numpy keeps an exact ndarray's flags (Python code
                                 may call setflags(write=False) while the kernel holds it), else a
                                 constant; see dynac_frozen */
  PyObject *obj;
  Py_ssize_t len1, stride1;
  char *span;                 /* lowest byte of any item */
  Py_ssize_t span_len;        /* bytes from `span` to the end of the highest item */
  Py_ssize_t logged, snap_after;
  int snapped;                /* the span is saved in the log: stores need no entry */
  int fresh;                  /* an array the kernel made (or a view of one): no one else saw
                                 its items, so its stores need no entry (dynac_pin_array) */
} dynac_view;
/* A view as a Python value (a tuple field): its exporter, new reference. */
static inline PyObject *dynac_box_view(const dynac_view *v) { return Py_NewRef(v->obj); }
/* A view cannot be taken from a tuple's item (it must be acquired and held
 * for the call, as the glue does for arguments): such a tuple never unboxes. */
static inline int dynac_elem_view(PyObject *o, const dynac_view **out) {
  (void)o;
  *out = NULL;
  return 1;
}

/* Item size of a struct-module format letter, or 0 if kernels do not
 * handle it. */
static inline Py_ssize_t dynac_fmt_size(char fmt) {
  switch (fmt) {
  case 'd': case 'q': case 'Q': return 8;
  case 'f': case 'i': case 'I': return 4;
  case 'l': case 'L': return (Py_ssize_t)sizeof(long);
  case 'h': case 'H': return 2;
  case 'b': case 'B': case '?': return 1;
  default: return 0;
  }
}

/* The format letter of a buffer's items, without a byte-order prefix that
 * means native order ('@', '=', and '<' on little-endian machines); 0 if
 * the items are not one native letter. */
static inline char dynac_native_format(const char *f) {
  static const union { uint16_t u; char c[2]; } endian = {1};
  if (!f) return 'B';
  if (*f == '@' || *f == '=' || (*f == '<' && endian.c[0])) f++;
  return f[0] && !f[1] ? f[0] : 0;
}

/* ---- numpy.ndarray without the buffer protocol ------------------------------
 * numpy's buffer export costs more than a small kernel (it builds and
 * caches a format string per array). An exact numpy.ndarray is read from
 * the leading fields of numpy's public PyArrayObject and PyArray_Descr
 * (numpy/ndarraytypes.h), which have kept their layout through numpy 1.x
 * and 2.x, as Cython's generated code reads them. */
typedef struct dynac__ndarray_head {
  PyObject_HEAD
  char *data;
  int nd;
  Py_ssize_t *dimensions;
  Py_ssize_t *strides;
  PyObject *base;
  struct dynac__descr_head *descr;
  int flags;
} dynac__ndarray_head;
typedef struct dynac__descr_head {
  PyObject_HEAD
  PyTypeObject *typeobj;
  char kind, type, byteorder, former_flags;
  int type_num;
} dynac__descr_head;
enum { DYNAC__NPY_C_CONTIGUOUS = 0x0001, DYNAC__NPY_WRITEABLE = 0x0400 };
/* numpy.ndarray, once an object of that exact type was seen (borrowed: numpy
 * stays imported once imported). */
static PyTypeObject *dynac__ndarray_type;
/* The live_flags of views that are not exact ndarrays: their exporters
 * cannot make them read-only while the kernel holds the export. */
static const int dynac__flags_writable = DYNAC__NPY_WRITEABLE, dynac__flags_readonly = 0;
/* Is the view whose live_flags these are read-only now? Its `readonly` is
 * read when the kernel takes the array; Python code the kernel runs
 * afterwards may call o.setflags(write=False) (or True), which numpy allows
 * while the kernel holds it. One load through a pointer the kernel keeps in
 * a register (testing the ndarray's type and flags at each store took
 * pairwise's loop 20% longer). */
static inline int dynac_frozen(const int *live_flags) { return !(*live_flags & DYNAC__NPY_WRITEABLE); }

/* The view of exact ndarray o with ndim dimensions of native items of
 * format fmt (C-contiguous unless strided): 1, or 0 when it is not one.
 * pb holds o as an export would; ndarrays have no bf_releasebuffer (numpy
 * frees its format cache with the array), so PyBuffer_Release only drops it. */
static inline int dynac__ndarray_view(PyObject *o, int ndim, char fmt, int strided, Py_buffer *pb) {
  const dynac__ndarray_head *a = (const dynac__ndarray_head *)o;
  const dynac__descr_head *d = a->descr;
  char order = d->byteorder;
  static const union { uint16_t u; char c[2]; } endian = {1};
  if (a->nd != ndim || d->type != fmt || !(order == '=' || order == '|' || (order == '<' && endian.c[0])))
    return 0;
  if (!strided && !(a->flags & DYNAC__NPY_C_CONTIGUOUS)) return 0;
  pb->obj = Py_NewRef(o); /* as numpy's export holds it: PyBuffer_Release drops it */
  pb->buf = a->data;
  pb->itemsize = dynac_fmt_size(fmt);
  pb->readonly = !(a->flags & DYNAC__NPY_WRITEABLE);
  pb->ndim = ndim;
  pb->shape = a->dimensions;
  pb->strides = a->strides;
  return 1;
}

/* Does `o` export a buffer of exact kind `kind` ('a' array.array,
 * 'm' memoryview, 'y' bytes, 'Y' bytearray: 1-D; 'n' / 'N' numpy.ndarray
 * of 1 / 2 dimensions), native item format `fmt` and, unless `strided`,
 * C-contiguous items? On success fills `pb` (to release with
 * PyBuffer_Release) and `v`; returns 1. Returns 0 with no exception when it
 * does not (a guard failure). */
static inline int dynac_view_acquire(PyObject *o, char kind, char fmt, int strided, Py_buffer *pb,
                                     dynac_view *v) {
  int ndim = kind == 'N' ? 2 : 1;
  switch (kind) {
  case 'a': if (strcmp(Py_TYPE(o)->tp_name, "array.array")) return 0; break;
  case 'm': if (Py_TYPE(o) != &PyMemoryView_Type) return 0; break;
  case 'y': if (!PyBytes_CheckExact(o)) return 0; break;
  case 'Y': if (!PyByteArray_CheckExact(o)) return 0; break;
  case 'n': case 'N':
    if (Py_TYPE(o) != dynac__ndarray_type) {
      if (strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray")) return 0;
      PyBufferProcs *bp = Py_TYPE(o)->tp_as_buffer;
      if (bp && !bp->bf_releasebuffer) dynac__ndarray_type = Py_TYPE(o); /* else: its buffer */
    }
    if (Py_TYPE(o) == dynac__ndarray_type && !dynac__ndarray_view(o, ndim, fmt, strided, pb)) return 0;
    break;
  default: return 0;
  }
  if (Py_TYPE(o) != dynac__ndarray_type) {
    if (PyObject_GetBuffer(o, pb, PyBUF_RECORDS_RO) < 0) { PyErr_Clear(); return 0; }
    int ok = dynac_native_format(pb->format) == fmt && pb->ndim == ndim &&
             pb->itemsize == dynac_fmt_size(fmt) &&
             (strided || (ndim == 1 && pb->strides[0] == pb->itemsize) ||
              PyBuffer_IsContiguous(pb, 'C'));
    if (!ok) { PyBuffer_Release(pb); return 0; }
  }
  v->buf = (char *)pb->buf;
  v->len = pb->shape[0];
  v->stride = pb->strides[0];
  v->len1 = ndim == 2 ? pb->shape[1] : 0;
  v->stride1 = ndim == 2 ? pb->strides[1] : 0;
  v->readonly = pb->readonly;
  v->live_flags = Py_TYPE(o) == dynac__ndarray_type ? &((const dynac__ndarray_head *)o)->flags
                  : pb->readonly ? &dynac__flags_readonly : &dynac__flags_writable;
  v->obj = o;
  /* the span: each axis adds its extent below or above buf by its stride's sign */
  Py_ssize_t lo = 0, hi = pb->itemsize;
  for (int d = 0; d < ndim; d++) {
    Py_ssize_t ext = pb->shape[d] > 0 ? (pb->shape[d] - 1) * pb->strides[d] : 0;
    if (ext < 0) lo += ext; else hi += ext;
  }
  int empty = pb->shape[0] == 0 || (ndim == 2 && pb->shape[1] == 0);
  v->span = v->buf + lo;
  v->span_len = empty ? 0 : hi - lo;
  v->logged = 0;
  v->snapped = 0;
  v->fresh = 0;
  /* copying the span costs about as much as this many log entries */
  v->snap_after = 16 + v->span_len / 64;
  return 1;
}
/* Do views a and b share no byte? (their spans, see dynac_view_acquire;
 * compared as addresses, since they may lie in different objects) */
static inline int dynac_view_disjoint(const dynac_view *a, const dynac_view *b) {
  uintptr_t a0 = (uintptr_t)a->span, b0 = (uintptr_t)b->span;
  return a->span_len == 0 || b->span_len == 0 || a0 + (uintptr_t)a->span_len <= b0 ||
         b0 + (uintptr_t)b->span_len <= a0;
}
/* Does view v's span hold the byte at p? (a speculative loop keeps an item
 * of another array in a C local only where no view it reads can see it) */
static inline int dynac_view_holds(const dynac_view *v, const void *p) {
  uintptr_t a = (uintptr_t)v->span, x = (uintptr_t)p;
  return x >= a && x < a + (uintptr_t)v->span_len;
}
/* For guards: the same check, releasing the buffer at once. */
static inline int dynac_view_matches(PyObject *o, char kind, char fmt, int strided) {
  Py_buffer pb;
  dynac_view v;
  if (!dynac_view_acquire(o, kind, fmt, strided, &pb, &v)) return 0;
  PyBuffer_Release(&pb);
  return 1;
}

/* ---- arrays a kernel makes or slices: pinned for the call ----------------
 * np.zeros(...), a.copy(), a[1:-1, j] in a kernel give ndarrays (numpy's
 * own functions and indexing make them) that the kernel reads and writes
 * through a dynac_view, as it does its buffer arguments. Each is pinned:
 * the kernel holds the array and its buffer in its pins (one chain per
 * call, released when the call ends) until a sweep finds no array local
 * pointing at its view (as a rebinding releases an array in the
 * interpreter). Sweeps run between statements, when no temporary holds a
 * view. A made array is fresh: no one else has seen its items, so its
 * stores need no undo entry (a deoptimised call's run again makes a new
 * one); a view of an argument's memory logs each store item by item, never
 * as a copy of its span (the copy's entry would point at the pin, released
 * before the glue rolls the log back). */
typedef struct dynac_pin {
  struct dynac_pin *next;
  Py_buffer pb;  /* holds the array (pb.obj, a reference) */
  dynac_view v;
} dynac_pin;
typedef struct dynac_pins {
  dynac_pin *head;
  Py_ssize_t n, sweep_at; /* pins held; the count at which a sweep looks for dead ones */
  Py_ssize_t bytes, sweep_bytes; /* their items' bytes; the bytes at which a sweep looks */
} dynac_pins;
#define DYNAC_PINS_FIRST_SWEEP 8
/* Large arrays are swept as soon as they are dead, as the interpreter
 * frees them: a kernel that held every array it made until the call ended
 * (five 700 KB ones in periodic_dist) gave them all new pages from the
 * kernel, whose faults cost more than the loops. */
#define DYNAC_PINS_SWEEP_BYTES (256 * 1024)
#define DYNAC_PINS_INIT {NULL, 0, DYNAC_PINS_FIRST_SWEEP, 0, DYNAC_PINS_SWEEP_BYTES}
static inline void dynac__pin_free(dynac_pin *p) {
  PyBuffer_Release(&p->pb);
  PyMem_RawFree(p);
}
static inline void dynac__pins_release(dynac_pins *ps) {
  while (ps->head) {
    dynac_pin *p = ps->head;
    ps->head = p->next;
    dynac__pin_free(p);
  }
  ps->n = 0;
}
/* A kernel's pins, released on every way out of it. */
#define DYNAC_PINS __attribute__((cleanup(dynac__pins_release))) dynac_pins

/* The view of ndarray `o` (borrowed; the pin takes its own reference) as
 * kind 'n' / 'N' (1 or 2 dimensions), dtype `fmt` and, unless `strided`,
 * C-contiguous items; `from`: the view `o` was sliced from, or NULL for an
 * array the kernel made. NULL without an exception when `o` is not such an
 * array (a value of another type); NULL with MemoryError when no pin can be
 * had. The view lives until the call ends or a sweep releases it. */
static DYNAC_NOINLINE const dynac_view *dynac_pin_array(dynac_pins *ps, PyObject *o, char kind, char fmt, int strided,
                                                  const dynac_view *from) {
  dynac_pin *p = (dynac_pin *)PyMem_RawMalloc(sizeof *p);
  if (!p) { PyErr_NoMemory(); return NULL; }
  if (!dynac_view_acquire(o, kind, fmt, strided, &p->pb, &p->v)) { PyMem_RawFree(p); return NULL; }
  p->v.fresh = from ? from->fresh : 1;
  p->v.snapped = p->v.fresh;                         /* fresh: no entry, ever */
  if (!p->v.fresh) p->v.snap_after = PY_SSIZE_T_MAX; /* never a span copy (see above) */
  p->next = ps->head;
  ps->head = p;
  ps->n++;
  ps->bytes += p->v.span_len;
  return &p->v;
}
static DYNAC_NOINLINE void dynac__pins_sweep(dynac_pins *ps, const dynac_view *const *live, int nlive) {
  for (dynac_pin **q = &ps->head; *q;) {
    int used = 0;
    for (int i = 0; i < nlive && !used; i++) used = live[i] == &(*q)->v;
    if (used) { q = &(*q)->next; continue; }
    dynac_pin *dead = *q;
    *q = dead->next;
    ps->n--;
    ps->bytes -= dead->v.span_len;
    dynac__pin_free(dead); /* an ndarray's deallocation runs no Python code */
  }
  ps->sweep_at = 2 * ps->n + DYNAC_PINS_FIRST_SWEEP;
  ps->sweep_bytes = ps->bytes + DYNAC_PINS_SWEEP_BYTES;
}
/* Between statements: once the pins have grown enough (in number, or by
 * DYNAC_PINS_SWEEP_BYTES of items), releases those no array local
 * (`live`, nlive of them, NULL when unbound) points at. */
static inline void dynac_pins_sweep(dynac_pins *ps, const dynac_view *const *live, int nlive) {
  if (DYNAC_UNLIKELY(ps->n >= ps->sweep_at || ps->bytes >= ps->sweep_bytes)) dynac__pins_sweep(ps, live, nlive);
}

/* ==== End runtime/containers.h ==== */
/* ==== Begin runtime/undo.h ==== */
/* runtime/undo.h: the undo log: writes a deoptimisation can take back. A part of single_include/dynac.h (make single_include). */
/* ---- the undo log: writes a deoptimisation can take back ------------------
 * A kernel that writes to a list or buffer records each write (the old
 * value, kept alive) in a per-thread log. When the kernel then needs the
 * interpreter (int64 overflow, an element of another type, any failure),
 * the glue undoes the writes in reverse order and the untouched call runs in
 * the interpreter, which gives CPython's answer: deoptimisation stays "run it
 * again" (the idea is the rollback of transactional JITs). On success the
 * log is dropped (old values released). The log holds DYNAC_UNDO_MAX
 * writes per call; past that, a list about to be written is saved whole
 * once ('L') and buffers' spans are (dynac_view_log), so the call stays
 * undoable. Only writes no copy covers (lists a kernel made, past the
 * limit; no memory) are counted as `lost`; a failure afterwards redoes the
 * operation through the C API to raise CPython's exception, or raises
 * dynac_deopt_after_effect. Each generated module has its own log
 * (static), shared by its kernels. */
#ifndef DYNAC_UNDO_MAX
#define DYNAC_UNDO_MAX 65536
#endif
#ifdef __cplusplus
#define DYNAC_UNDO_TLS thread_local
#else
#define DYNAC_UNDO_TLS _Thread_local
#endif
typedef struct dynac_undo_entry {
  char kind;          /* 'O' list slot (old kept), 'F' float mutated in place, 'A' append,
                         'I' insert at k, 'N' a list the kernel made (kept: `old`),
                         'P' pop (old kept), 'X' extended from length k, 'B' buffer bytes, 'S' a
                         buffer's whole span,
                         'L' a list's whole contents (`old`: a copy), once the log is long */
  unsigned char size; /* 'B': item size */
  Py_ssize_t k;       /* list index; 'S': bytes saved */
  union {
    PyObject *list;          /* borrowed (held by the caller for the whole call) */
    struct dynac_view *view; /* 'S': the view whose writes it covers (the glue's, alive for the call) */
  } of;
  PyObject *old;      /* owned ('O', 'P') */
  char *at;           /* 'B', 'S' */
  union { double f; unsigned char bytes[8]; char *copy; /* 'S': owned (PyMem_Raw) */ } was;
} dynac_undo_entry;
typedef struct dynac_undo_log {
  dynac_undo_entry *e;
  size_t n, cap;
  size_t lost;        /* writes not recorded (log full) since the log was last empty */
  PyObject **copied;  /* set (open addressing, NULL empty, DYNAC__UNDO_GONE removed) of the
                         lists saved whole by an 'L' entry: their writes need no entry */
  size_t copied_cap, copied_used;
} dynac_undo_log;
#define DYNAC__UNDO_GONE ((PyObject *)1)
static DYNAC_UNDO_TLS dynac_undo_log dynac__undo;
/* The calling thread's log, read once per kernel: a TLS address in a
 * shared library is a __tls_get_addr call. Declared const (its value is
 * the same throughout one thread's call of a kernel), GCC and Clang compute
 * it once per C function and keep it in a register or on the stack, also
 * when small kernels are inlined into their caller (each of them asks
 * again: the empty-asm barrier used before made every inlined copy call it).
 * Not TLS descriptors (-mtls-dialect=gnu2): glibc 2.36's _dl_tlsdesc_dynamic,
 * used once the static TLS surplus is spent (many modules loaded), does not
 * keep the caller's SSE registers (glibc bug 31372): the fuzzer saw floats
 * change across a kernel's log read. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((const, noinline, unused)) static dynac_undo_log *dynac__undo_address(void) {
  return &dynac__undo;
}
static inline dynac_undo_log *dynac_undo_here(void) { return dynac__undo_address(); }
#else
static inline dynac_undo_log *dynac_undo_here(void) { return &dynac__undo; }
#endif

/* A free entry, or NULL (and one more lost write) when the log is full. */
static inline dynac_undo_entry *dynac_undo_push(dynac_undo_log *u) {
  if (DYNAC_UNLIKELY(u->n == u->cap)) {
    size_t cap = u->cap ? u->cap * 2 : 256;
    dynac_undo_entry *e = cap <= DYNAC_UNDO_MAX
        ? (dynac_undo_entry *)PyMem_RawRealloc(u->e, cap * sizeof *e) : NULL;
    if (!e) { u->lost++; return NULL; }
    u->e = e;
    u->cap = cap;
  }
  return &u->e[u->n++];
}
/* The set of lists saved whole (dynac_undo_copy_list). */
static inline PyObject **dynac__undo_copied_slot(dynac_undo_log *u, PyObject *l, int for_insert) {
  size_t mask = u->copied_cap - 1, h = ((size_t)l >> 4) & mask;
  PyObject **free_slot = NULL;
  for (;; h = (h + 1) & mask) {
    PyObject *x = u->copied[h];
    if (x == l) return &u->copied[h];
    if (x == DYNAC__UNDO_GONE && !free_slot) free_slot = &u->copied[h];
    if (!x) return for_insert ? (free_slot ? free_slot : &u->copied[h]) : NULL;
  }
}
static inline int dynac__undo_is_copied(dynac_undo_log *u, PyObject *l) {
  return u->copied_used && dynac__undo_copied_slot(u, l, 0) != NULL;
}
static inline void dynac__undo_forget_copy(dynac_undo_log *u, PyObject *l) {
  PyObject **slot = u->copied_used ? dynac__undo_copied_slot(u, l, 0) : NULL;
  if (slot) *slot = DYNAC__UNDO_GONE;
  if (slot && --u->copied_used == 0) memset(u->copied, 0, u->copied_cap * sizeof *u->copied);
}
/* Records that list `l` is saved whole; 0 without memory for it. */
static int dynac__undo_note_copy(dynac_undo_log *u, PyObject *l) {
  if (2 * (u->copied_used + 1) > u->copied_cap) { /* at most half full: rehash */
    size_t old_cap = u->copied_cap, cap = old_cap ? 2 * old_cap : 64;
    PyObject **old = u->copied, **fresh = (PyObject **)PyMem_RawCalloc(cap, sizeof *fresh);
    if (!fresh) return 0;
    u->copied = fresh;
    u->copied_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
      if (old[i] && old[i] != DYNAC__UNDO_GONE) *dynac__undo_copied_slot(u, old[i], 1) = old[i];
    PyMem_RawFree(old);
  }
  *dynac__undo_copied_slot(u, l, 1) = l;
  u->copied_used++;
  return 1;
}

/* Can every write since `mark` be undone? (the log lost none of them).
 * Kernels that write read the thread's log once, into dynac__u (a TLS
 * access in a shared library is a call); this test is asked on the way to
 * the interpreter only, so it reads the log itself: a kernel that writes
 * nothing (a small method) then makes no TLS call at all. */
#define DYNAC_UNDO_INTACT() (!dynac__undo_lost())
/* The log's lost count, as a function of its own: a const call here would
 * be the same value as a kernel's dynac__u, so GCC would keep the entry's
 * TLS call alive for these cold paths (1.9M calls of raytrace's small
 * methods that log nothing paid ~17 instructions each for it). */
DYNAC_COLD size_t dynac__undo_lost(void) { return dynac__undo.lost; }
static inline size_t dynac_undo_mark(void) { return dynac_undo_here()->n; } /* one TLS call with commit's */
/* Drops the entries after `mark` (the call succeeded or raised): releases
 * the old values they kept. */
DYNAC_COLD void dynac__undo_commit_entries(dynac_undo_log *u, size_t mark) {
  while (u->n > mark) {
    dynac_undo_entry *e = &u->e[--u->n];
    if (e->kind == 'O' || e->kind == 'P' || e->kind == 'N') Py_DECREF(e->old);
    if (e->kind == 'S') PyMem_RawFree(e->was.copy);
    if (e->kind == 'L') {
      dynac__undo_forget_copy(u, e->of.list);
      Py_DECREF(e->old);
    }
  }
  if (u->n == 0) u->lost = 0;
}
static inline void dynac_undo_commit(size_t mark) {
  dynac_undo_log *u = dynac_undo_here();
  if (DYNAC_UNLIKELY(u->n > mark)) dynac__undo_commit_entries(u, mark);
  else if (u->n == 0) u->lost = 0; /* (inline: a call that wrote nothing, the common case) */
}
/* Undoes the writes after `mark`, newest first. */
static inline void dynac_undo_rollback(size_t mark) {
  dynac_undo_log *u = dynac_undo_here();
  while (u->n > mark) {
    dynac_undo_entry *e = &u->e[--u->n];
    switch (e->kind) {
    case 'O': {
      PyObject *cur = PyList_GET_ITEM(e->of.list, e->k);
      PyList_SET_ITEM(e->of.list, e->k, e->old);
      Py_DECREF(cur);
      break;
    }
    case 'F': ((PyFloatObject *)PyList_GET_ITEM(e->of.list, e->k))->ob_fval = e->was.f; break;
    case 'A': Py_DECREF(dynac_compat_list_take(e->of.list, PyList_GET_SIZE(e->of.list) - 1, 1)); break;
    case 'I': Py_DECREF(dynac_compat_list_take(e->of.list, e->k, 1)); break;
    case 'X': (void)PyList_SetSlice(e->of.list, e->k, PyList_GET_SIZE(e->of.list), NULL); break;
    case 'P':
      (void)PyList_Insert(e->of.list, e->k, e->old);
      Py_DECREF(e->old);
      break;
    case 'N': Py_DECREF(e->old); break; /* after the writes to it were undone (newer entries) */
    case 'L': /* the list as it was when copied; its later writes were not logged */
      (void)PyList_SetSlice(e->of.list, 0, PyList_GET_SIZE(e->of.list), e->old);
      dynac__undo_forget_copy(u, e->of.list);
      Py_DECREF(e->old);
      break;
    case 'S': /* the span as it was when the copy was made; later writes were not logged */
      memcpy(e->at, e->was.copy, (size_t)e->k);
      PyMem_RawFree(e->was.copy);
      e->of.view->snapped = 0;
      e->of.view->logged = 0;
      break;
    default: memcpy(e->at, e->was.bytes, e->size); break;
    }
  }
  if (u->n == 0) u->lost = 0;
}

/* Element reads (borrowed `o`): nonzero when `o` is not of the type the
 * kernel was specialised for. */
static inline int dynac_elem_float(PyObject *o, double *out) {
  if (!PyFloat_CheckExact(o)) return 1;
  *out = PyFloat_AS_DOUBLE(o);
  return 0;
}
/* For a test before a loop over a list of tuples (loop versioning on
 * the items' shape, emitted by the generator's shapes.c analysis): does
 * list `l` hold exactly (`exact`) or at least `n` items, the first n of
 * them exact floats? */
static inline int dynac_list_floats(PyObject *l, Py_ssize_t n, int exact) {
  if (exact ? PyList_GET_SIZE(l) != n : PyList_GET_SIZE(l) < n) return 0;
  for (Py_ssize_t i = 0; i < n; i++)
    if (!PyFloat_CheckExact(PyList_GET_ITEM(l, i))) return 0;
  return 1;
}
static inline int dynac_elem_int(PyObject *o, int64_t *out) {
  if (!PyLong_CheckExact(o)) return 1;
  return !dynac_int64_of(o, out);
}
static inline int dynac_elem_bool(PyObject *o, bool *out) {
  if (o != Py_True && o != Py_False) return 1;
  *out = o == Py_True;
  return 0;
}
static inline int dynac_elem_num(PyObject *o, dynac_num *out) {
  if (PyFloat_CheckExact(o)) { *out = dynac_num_f(PyFloat_AS_DOUBLE(o)); return 0; }
  out->isf = false;
  out->np = false;
  return dynac_elem_int(o, &out->i);
}
static inline int dynac_elem_list(PyObject *o, PyObject **out) {
  if (!PyList_CheckExact(o)) return 1;
  *out = o;
  return 0;
}

/* ==== End runtime/undo.h ==== */
/* ==== Begin runtime/objects.h ==== */
/* runtime/objects.h: values of any type, through the C API. A part of single_include/dynac.h (make single_include). */
/* ---- objects: values of any type, through the C API -----------------------
 * A kernel value of type `object` (a list element of no number type, an
 * argument recorded as some class) is an owned PyObject *. The generated C
 * declares each one DYNAC_OBJ: the compiler releases it on every way out of
 * its block (GCC's and Clang's cleanup attribute), so the many early
 * returns of a kernel need no bookkeeping. Operations go through the C API,
 * as the interpreter's own would (PyObject_RichCompare for `<`, ...), so
 * results and exceptions are CPython's. They may run Python code (__lt__,
 * __index__, ...): each sets `*effects` unless every operand is a value of
 * a builtin type whose operation runs none (dynac_obj_pure); a kernel that
 * ran Python code raises instead of deoptimising (dynac_deopt_after_effect). */
static inline void dynac__obj_release(PyObject **p) { Py_XDECREF(*p); }
#define DYNAC_OBJ __attribute__((cleanup(dynac__obj_release))) PyObject *

/* Is `o` an int, float, bool, None, str or bytes, or a tuple of such (up to
 * 4 levels): values whose comparison and arithmetic run no Python code? */
static inline int dynac_obj_pure(PyObject *o, int depth) {
  if (PyLong_CheckExact(o) || PyFloat_CheckExact(o) || PyBool_Check(o) || o == Py_None ||
      PyUnicode_CheckExact(o) || PyBytes_CheckExact(o))
    return 1;
  if (!PyTuple_CheckExact(o) || depth >= 4) return 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); i++)
    if (!dynac_obj_pure(PyTuple_GET_ITEM(o, i), depth + 1)) return 0;
  return 1;
}
static inline void dynac__obj_effect(PyObject *a, PyObject *b, int *effects) {
  if (*effects || !dynac_obj_pure(a, 0) || (b && !dynac_obj_pure(b, 0))) dynac_python_may_run(effects);
}
/* a OP b (op: Py_LT ... Py_GE): the result object (new reference), NULL
 * with CPython's exception. */
#define DYNAC__COMPARED(op, x, y) \
  Py_NewRef(((op) == Py_LT ? (x) < (y) : (op) == Py_LE ? (x) <= (y) : (op) == Py_EQ ? (x) == (y) \
             : (op) == Py_NE ? (x) != (y) : (op) == Py_GT ? (x) > (y) : (x) >= (y)) ? Py_True : Py_False)
static inline PyObject *dynac_obj_compare(PyObject *a, PyObject *b, int op, int *effects) {
  if (PyFloat_CheckExact(a) && PyFloat_CheckExact(b)) /* float_richcompare's answer, as 3.11's
                                                         COMPARE_OP_FLOAT_JUMP takes it */
    return DYNAC__COMPARED(op, PyFloat_AS_DOUBLE(a), PyFloat_AS_DOUBLE(b));
  long i, j;
  if (dynac_compat_small_int(a, &i) && dynac_compat_small_int(b, &j)) /* COMPARE_OP_INT_JUMP's */
    return DYNAC__COMPARED(op, i, j);
  dynac__obj_effect(a, b, effects);
  return PyObject_RichCompare(a, b, op);
}
/* a + b, a - b, a * b, a / b (op 0-3) of two exact floats: float_add ...
 * float_div's result without the number protocol's dispatch, as CPython
 * 3.11's BINARY_OP_ADD_FLOAT and its siblings take it (not a division by
 * zero: float_div raises). Set *done when it was one (the result, or NULL
 * with MemoryError). */
static inline PyObject *dynac__float_op(PyObject *a, PyObject *b, int op, int *done) {
  *done = op <= 3 && PyFloat_CheckExact(a) && PyFloat_CheckExact(b) && (op < 3 || PyFloat_AS_DOUBLE(b) != 0.0);
  if (!*done) return NULL;
  double x = PyFloat_AS_DOUBLE(a), y = PyFloat_AS_DOUBLE(b);
  return PyFloat_FromDouble(op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : x / y);
}
/* a OP b of two exact ints below 2**127 in magnitude, in checked 128-bit
 * C arithmetic with Python's rules: // and % floor (the remainder takes
 * the divisor's sign), >> floors, & | ^ are two's complement. An LCG's
 * `(s * A + C) % 2**64` then costs no digit loops (CPython's k_mul and
 * x_divrem: ~2,000 instructions). Not done (*done 0: the C API's call
 * answers, with its exception) for ** and @, a zero divisor, a negative
 * shift, a result beyond 128 bits, or true division of ints above 2**53
 * (below, (double)a / (double)b is long_true_divide's own fast path). */
static inline DYNAC_ALWAYS_INLINE int dynac__int128_op(__int128 x, __int128 y, int op, __int128 *out) {
  __int128 r;
  switch (op) {
  case 0: if (__builtin_add_overflow(x, y, &r)) return 0; break;
  case 1: if (__builtin_sub_overflow(x, y, &r)) return 0; break;
  case 2: if (__builtin_mul_overflow(x, y, &r)) return 0; break;
  case 4: case 5: {
    if (y == 0) return 0;
    if (y > 0 && !(y & (y - 1))) { /* 2**k: Python's floor // and % are an arithmetic shift and a mask */
      unsigned long long lo = (unsigned long long)y;
      int k = lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)((unsigned __int128)y >> 64));
      r = op == 4 ? x >> k : x & (y - 1);
      break;
    }
    __int128 q = x / y, m = x % y;
    if (m != 0 && (m < 0) != (y < 0)) q -= 1, m += y;
    r = op == 4 ? q : m;
    break;
  }
  case 7: /* the result needs bit_length(|x|) + y bits and a sign */
    if (y < 0 || y > 126 || (x != 0 && (x >= ((__int128)1 << (126 - y)) || x <= -((__int128)1 << (126 - y)))))
      return 0;
    r = (__int128)((unsigned __int128)x << y);
    break;
  case 8: if (y < 0) return 0; r = y > 126 ? (x < 0 ? -1 : 0) : x >> y; break;
  case 9: r = x & y; break;
  case 10: r = x | y; break;
  case 11: r = x ^ y; break;
  default: return 0; /* / ** @: not an int's */
  }
  *out = r;
  return 1;
}
static inline PyObject *dynac__int_op(PyObject *a, PyObject *b, int op, int *done) {
  __int128 x, y, r;
  long sa, sb;
  *done = 0;
  if (op <= 2 && dynac_compat_small_int(a, &sa) && dynac_compat_small_int(b, &sb)) { /* one digit each: */
    *done = 1; /* + - * in a C long, as long_add's and long_mul's own one-digit paths */
    return PyLong_FromLong(op == 0 ? sa + sb : op == 1 ? sa - sb : sa * sb);
  }
  if (op == 6 || op == 12 || !dynac_compat_int128_of(a, &x) || !dynac_compat_int128_of(b, &y)) return NULL;
  const __int128 exact = (__int128)1 << 53; /* doubles hold every int up to it */
  if (op == 3) {
    if (y == 0 || x > exact || x < -exact || y > exact || y < -exact) return NULL;
    *done = 1;
    return PyFloat_FromDouble((double)x / (double)y);
  }
  if (!dynac__int128_op(x, y, op, &r)) return NULL;
  *done = 1;
  return dynac_compat_int_from128(r);
}
/* a OP b of an exact float and an exact int below 2**63 in magnitude (+ - *
 * /): float_add and its siblings convert the int with PyLong_AsDouble,
 * which rounds as the C conversion does. Not done for a zero divisor. */
static inline PyObject *dynac__mixed_float_op(PyObject *a, PyObject *b, int op, int *done) {
  double x, y;
  long long i;
  int overflow = 0;
  *done = 0;
  if (op > 3) return NULL;
  if (PyFloat_CheckExact(a) && PyLong_CheckExact(b)) {
    i = PyLong_AsLongLongAndOverflow(b, &overflow);
    x = PyFloat_AS_DOUBLE(a), y = (double)i;
  } else if (PyLong_CheckExact(a) && PyFloat_CheckExact(b)) {
    i = PyLong_AsLongLongAndOverflow(a, &overflow);
    x = (double)i, y = PyFloat_AS_DOUBLE(b);
  } else
    return NULL;
  if (overflow || (op == 3 && y == 0.0)) return NULL;
  *done = 1;
  return PyFloat_FromDouble(op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : x / y);
}
/* a OP b of exact floats and ints (the values generic code mostly holds)
 * in C arithmetic, with CPython's results; *done 0 for the number protocol
 * to answer. Ints and floats have no in-place operators: OP= is OP. */
static inline PyObject *dynac__exact_number_op(PyObject *a, PyObject *b, int op, int *done) {
  *done = 0;
  if (!PyFloat_CheckExact(a) && !PyLong_CheckExact(a)) return NULL; /* str + str, list * n, ...: one test */
  PyObject *f = dynac__float_op(a, b, op, done);
  if (*done) return f;
  f = dynac__int_op(a, b, op, done);
  if (*done) return f;
  return dynac__mixed_float_op(a, b, op, done);
}
/* a OP b for the generator's binop numbering (+ - * / // % ** << >> & | ^ @). */
static inline PyObject *dynac_obj_binop(PyObject *a, PyObject *b, int op, int *effects) {
  int done;
  PyObject *f = dynac__exact_number_op(a, b, op, &done);
  if (done) return f;
  dynac__obj_effect(a, b, effects);
  switch (op) {
  case 0: return PyNumber_Add(a, b);
  case 1: return PyNumber_Subtract(a, b);
  case 2: return PyNumber_Multiply(a, b);
  case 3: return PyNumber_TrueDivide(a, b);
  case 4: return PyNumber_FloorDivide(a, b);
  case 5: return PyNumber_Remainder(a, b);
  case 6: return PyNumber_Power(a, b, Py_None);
  case 7: return PyNumber_Lshift(a, b);
  case 8: return PyNumber_Rshift(a, b);
  case 9: return PyNumber_And(a, b);
  case 10: return PyNumber_Or(a, b);
  case 11: return PyNumber_Xor(a, b);
  default: return PyNumber_MatrixMultiply(a, b);
  }
}
/* A number chain's literals as C values, read once per site (they are the
 * site's constants, never rebound): per step 'i' an int below 2**127 (i),
 * 'f' a float (d), 0 anything else (the step is the C API's). */
#define DYNAC_CHAIN_MAX 16
typedef struct dynac_chain_ys {
  int ready;
  uint64_t ring_mask; /* nonzero: a ring chain, ending `% 2**k`, k <= 64 (mask 2**k - 1) */
  char kind[DYNAC_CHAIN_MAX];
  __int128 i[DYNAC_CHAIN_MAX];
  double d[DYNAC_CHAIN_MAX];
} dynac_chain_ys;
/* Is the chain + - * of int literals, then `% 2**k` with 1 <= k <= 64 (an
 * LCG's step)? Then its result is x's modulo 2**k, for any int x: + - *
 * commute with taking the remainder, so wrapping 64-bit arithmetic on x's
 * low 64 bits gives it (Python's % of a positive divisor is never
 * negative: the mask's). The mask, or 0. */
static inline uint64_t dynac__chain_ring_mask(const dynac_chain_ys *c, int n, const int *ops) {
  if (n < 2 || n > DYNAC_CHAIN_MAX || ops[n - 1] != 5 || c->kind[n - 1] != 'i') return 0;
  for (int k = 0; k < n - 1; k++)
    if (ops[k] > 2 || c->kind[k] != 'i') return 0;
  __int128 m = c->i[n - 1];
  if (m < 2 || (m & (m - 1)) || m > ((__int128)1 << 64)) return 0;
  return (uint64_t)(m - 1);
}
static inline void dynac__chain_ys_read(dynac_chain_ys *c, int n, const int *ops, PyObject *const *ys) {
  for (int k = 0; k < n && k < DYNAC_CHAIN_MAX; k++) {
    c->kind[k] = dynac_compat_int128_of(ys[k], &c->i[k]) ? 'i' : PyFloat_CheckExact(ys[k]) ? 'f' : 0;
    c->d[k] = c->kind[k] == 'f' ? PyFloat_AS_DOUBLE(ys[k]) : 0.0;
  }
  c->ring_mask = dynac__chain_ring_mask(c, n, ops);
  c->ready = 1;
}
/* A ring chain (dynac__chain_ring_mask) of an exact int x: its steps in
 * wrapping 64-bit arithmetic, masked. A new int, or NULL (MemoryError). */
DYNAC_HOT_INLINE PyObject *dynac__chain_ring(const dynac_chain_ys *c, int n, const int *ops, uint64_t x) {
  for (int k = 0; k < n - 1; k++) {
    uint64_t y = (uint64_t)c->i[k]; /* its value modulo 2**64 */
    x = ops[k] == 0 ? x + y : ops[k] == 1 ? x - y : x * y;
  }
  return PyLong_FromUnsignedLongLong(x & c->ring_mask);
}
/* One step of a number chain on a C value: an int below 2**127 (*is_int,
 * *v) or a float (*d), OP (BINARY_OP's code) literal k of c, as CPython
 * computes it: ints in 128-bit arithmetic (dynac__int128_op); an int and a
 * float, or two floats, with + - * / as float_add and its siblings (an int
 * converted as PyLong_AsDouble rounds it: to nearest, as the C conversion
 * does); int / int when both are below 2**53 (long_true_divide's own fast
 * path). 0: not done here (the C API's answer, with its exception: a zero
 * divisor, // % ** of floats, an overflow, ...). */
DYNAC_HOT_INLINE int dynac__chain_step(int *is_int, __int128 *v, double *d, int op, const dynac_chain_ys *c, int k) {
  if (c->kind[k] == 'i') {
    __int128 yi = c->i[k];
    if (*is_int && op != 3) return dynac__int128_op(*v, yi, op, v);
    const __int128 exact = (__int128)1 << 53;
    if (*is_int && (*v > exact || *v < -exact || yi > exact || yi < -exact)) return 0;
    if (op > 3 || (op == 3 && yi == 0) || (!*is_int && (yi > exact || yi < -exact))) return 0;
    double x = *is_int ? (double)*v : *d, yd = (double)yi;
    *d = op == 0 ? x + yd : op == 1 ? x - yd : op == 2 ? x * yd : x / yd;
  } else if (c->kind[k] == 'f') {
    double yd = c->d[k], x = *is_int ? (double)*v : *d;
    if (op > 3 || (op == 3 && yd == 0.0)) return 0;
    *d = op == 0 ? x + yd : op == 1 ? x - yd : op == 2 ? x * yd : x / yd;
  } else
    return 0;
  *is_int = 0;
  return 1;
}
/* ((x OP1 ys[0]) OP2 ys[1]) ... (n steps, left to right; ops: BINARY_OP's
 * codes) as n dynac_obj_binop calls give it: a ring chain of an exact int
 * in wrapping 64-bit arithmetic (dynac__chain_ring); when x is an exact int below
 * 2**127 or an exact float and every step is one dynac__chain_step takes,
 * in C with only the result made (scheduler's LCG step and its float: two
 * ints and a float it dropped at once); else step by step. A new
 * reference, or NULL with the step's exception. The operands are number
 * literals (generator/emit/expr.c: number_chain), read as C values once
 * into the site's `c`: nothing runs between the steps in either order.
 * Inline with its steps at each site: the site's `ops` are constants, so
 * the loops over them unroll and each step's switch folds away. */
DYNAC_HOT_INLINE PyObject *dynac_obj_num_chain(PyObject *x, int n, const int *ops, PyObject *const *ys,
                                            dynac_chain_ys *c, int *effects) {
  if (DYNAC_UNLIKELY(!c->ready)) dynac__chain_ys_read(c, n, ops, ys);
  uint64_t low;
  if (c->ring_mask && dynac_compat_int_low64(x, &low)) return dynac__chain_ring(c, n, ops, low);
  __int128 v = 0;
  int is_int = dynac_compat_int128_of(x, &v), i = 0;
  double d = !is_int && PyFloat_CheckExact(x) ? PyFloat_AS_DOUBLE(x) : 0.0;
  if ((is_int || PyFloat_CheckExact(x)) && n <= DYNAC_CHAIN_MAX)
    while (i < n && dynac__chain_step(&is_int, &v, &d, ops[i], c, i)) i++;
  if (i == n) return is_int ? dynac_compat_int_from128(v) : PyFloat_FromDouble(d);
  PyObject *cur = Py_NewRef(x);
  for (i = 0; i < n && cur; i++) {
    PyObject *next = dynac_obj_binop(cur, ys[i], ops[i], effects);
    Py_DECREF(cur);
    cur = next;
  }
  return cur;
}
/* math.f(x) for f the math module's own function of one real argument
 * (fn: the kernel's guard checked it) of an object x, as a C double (math_1
 * and m_log return an exact float or raise): where x is an exact finite
 * float whose result `c_fn`(x) is finite, that result, which is CPython's
 * (they return libm's value then, raising only for a NaN or an infinity
 * made from a finite argument); else fn's own call, its float unboxed. 0
 * with *out, or -1 with CPython's exception; *effects set when fn was
 * called (x's __float__ or __index__ may have run Python code). */
static inline int dynac_math_float_of_object(double (*c_fn)(double), PyObject *fn, PyObject *x, double *out,
                                             int *effects) {
  if (PyFloat_CheckExact(x)) {
    double v = PyFloat_AS_DOUBLE(x), r = c_fn(v); /* (inlined: c_fn is a constant at each site) */
    if (isfinite(v) && isfinite(r)) return *out = r, 0;
  }
  dynac_python_may_run(effects);
  PyObject *r = PyObject_Vectorcall(fn, &x, 1, NULL);
  if (!r) return -1;
  *out = PyFloat_AsDouble(r); /* an exact float: no error */
  Py_DECREF(r);
  return 0;
}
/* -o, +o, ~o for the generator's unop numbering (- + ~). */
static inline PyObject *dynac_obj_unary(PyObject *o, int op, int *effects) {
  dynac__obj_effect(o, NULL, effects);
  return op == 0 ? PyNumber_Negative(o) : op == 1 ? PyNumber_Positive(o) : PyNumber_Invert(o);
}
/* bool(o): 1, 0, or -1 with CPython's exception. */
static inline int dynac_obj_truth(PyObject *o, int *effects) {
  if (o == Py_True) return 1;
  if (o == Py_False || o == Py_None) return 0;
  if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) return Py_SIZE(o) != 0; /* `while queue:`: list_length's answer */
  dynac__obj_effect(o, NULL, effects);
  return PyObject_IsTrue(o);
}
/* len(o) as a new int (NULL with CPython's exception). */
static inline PyObject *dynac_obj_len_boxed(PyObject *o) {
  Py_ssize_t n = PyObject_Length(o);
  return n < 0 ? NULL : PyLong_FromSsize_t(n);
}
/* o[key] (new reference; NULL with CPython's exception). A list or tuple
 * indexed by an int runs no Python code. */
static inline PyObject *dynac_obj_getitem(PyObject *o, PyObject *key, int *effects) {
  long i;
  if ((PyList_CheckExact(o) || PyTuple_CheckExact(o)) && dynac_compat_small_int(key, &i)) {
    Py_ssize_t n = Py_SIZE(o), k = i < 0 ? i + n : i; /* list_subscript's and tuplesubscript's index */
    if (k >= 0 && k < n) return Py_NewRef(PyList_CheckExact(o) ? PyList_GET_ITEM(o, k) : PyTuple_GET_ITEM(o, k));
  }
  if (!((PyList_CheckExact(o) || PyTuple_CheckExact(o)) && PyLong_CheckExact(key))) dynac_python_may_run(effects);
  return PyObject_GetItem(o, key); /* (an IndexError too) */
}
/* len(o): PyObject_Length, -1 with CPython's exception. A list, tuple,
 * dict, set, str, bytes or range answers without running Python code. */
static inline Py_ssize_t dynac_obj_len(PyObject *o, int *effects) {
  if (!(PyList_CheckExact(o) || PyTuple_CheckExact(o) || PyDict_CheckExact(o) ||
        PyAnySet_CheckExact(o) || PyUnicode_CheckExact(o) || PyBytes_CheckExact(o) ||
        PyRange_Check(o)))
    dynac_python_may_run(effects);
  return PyObject_Length(o);
}
/* *slot = v (v a new reference, NULL after a failed box: returns -1); the
 * old value is released, as the interpreter's STORE_FAST does. */
static inline int dynac_obj_set(PyObject **slot, PyObject *v) {
  if (!v) return -1;
  Py_XSETREF(*slot, v);
  return 0;
}
/* An element read as an object: always one (a new reference in *out). */
static inline int dynac_elem_obj(PyObject *o, PyObject **out) {
  *out = Py_NewRef(o);
  return 0;
}
/* An object field of a tuple value: borrowed, as every field of a kernel's
 * tuple struct is (the tuple object, or a display's own temporary, holds
 * it for as long as the struct is used). */
static inline int dynac_elem_obj_borrowed(PyObject *o, PyObject **out) {
  *out = o;
  return 0;
}

/* ---- attributes, stores and in-place operators of objects ----------------
 * Each is the call the interpreter makes for the same bytecode (LOAD_ATTR,
 * STORE_ATTR, STORE_SUBSCR, BINARY_OP with an in-place oparg), so results,
 * exceptions and side effects are CPython's. Each may run Python code (a
 * property, __getattr__, __setattr__, __setitem__, __iadd__): an effect. */

/* May o.name run Python code? Not when the class's lookup is object's own
 * (PyObject_GenericGetAttr: no __getattribute__ or __getattr__ of the
 * class's) and what the class's MRO holds under `name`, if anything, is no
 * descriptor or one whose __get__ is CPython's C (a function, a slot or
 * method descriptor, a __slots__ member, a staticmethod or classmethod):
 * then the read is the instance dict's or the class's value, or
 * AttributeError. (An instance __dict__ given keys of a Python class whose
 * __eq__ meets the name's hash is not looked for.) */
static inline int dynac_getattr_may_run_python(PyObject *o, PyObject *name) {
  PyTypeObject *tp = Py_TYPE(o);
  if (tp->tp_getattro != PyObject_GenericGetAttr || !PyUnicode_CheckExact(name)) return 1;
  PyObject *d = _PyType_Lookup(tp, name); /* borrowed */
  if (!d) return 0;
  PyTypeObject *dt = Py_TYPE(d);
  return dt->tp_descr_get && dt != &PyFunction_Type && dt != &PyMethodDescr_Type && dt != &PyWrapperDescr_Type &&
         dt != &PyMemberDescr_Type && dt != &PyStaticMethod_Type && dt != &PyClassMethod_Type;
}

/* o.name: a new reference, NULL with CPython's AttributeError (or what a
 * descriptor raised). `name`: an interned str (borrowed). *effects set
 * when Python code may run (dynac_python_may_run). */
static inline PyObject *dynac_obj_getattr(PyObject *o, PyObject *name, int *effects) {
  if (*effects || dynac_getattr_may_run_python(o, name)) dynac_python_may_run(effects);
  return PyObject_GetAttr(o, name);
}
/* ---- attributes at fixed places ---------------------------------------------
 * A read or write site's cache of where an attribute lives, as CPython
 * 3.11's specialised LOAD_ATTR / STORE_ATTR / LOAD_METHOD keep it in the
 * bytecode, but polymorphic: one way per class the site met (up to
 * DYNAC_ATTR_WAYS; a site reading `self.time` of three Event subclasses
 * keeps the three), as PyPy's and V8's polymorphic inline caches do. A way
 * is valid while its class's version tag is `version` (any change to the
 * class or a base gives it a new tag; 0: empty). Way 0 (the last filled) is
 * tried inline; a class leaving way 0 goes to its home way, 1 + its tag
 * modulo the other ways' number, four (CPython gives classes made one after the
 * other consecutive tags: a module's subclasses get different homes), which
 * a miss of way 0 tries by one small call with one compare. A hit reads or writes the
 * place directly (no Python code runs); anything else (a materialised
 * __dict__, a missing attribute, a property, a class with __getattr__ or
 * __setattr__) goes through the C API, and fills way 0 where it found a
 * fixed place. */
#define DYNAC_ATTR_WAYS 5 /* way 0 and four homes: a tag's home is a mask, not a division */
typedef char dynac__attr_homes_are_a_power_of_two[((DYNAC_ATTR_WAYS - 1) & (DYNAC_ATTR_WAYS - 2)) ? -1 : 1];
enum {
  DYNAC_ATTR_INLINE,    /* an instance's inline value; where: its index (compat part) */
  DYNAC_ATTR_SLOT,      /* a __slots__ member; where: its offset */
  DYNAC_ATTR_FIELD,     /* a namedtuple field; where: its item index */
  DYNAC_ATTR_MODULE,    /* a module's global (LOAD_ATTR_MODULE): value, while its dict is at dict_version */
  DYNAC_ATTR_METHOD,    /* a function of the class (LOAD_METHOD_WITH_VALUES / _NO_DICT), method sites
                           only: value; where: 1 when instances may have a __dict__ shadowing it */
  DYNAC_ATTR_CLASS      /* a value of the class with no __get__ (a class constant read through an
                           instance, as 3.12's LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES): value; where as
                           METHOD's (shadowing tested by name, keys/nkeys its memo) */
};
typedef struct dynac_attr_way {
  uint64_t key;         /* version and slot in one word (DYNAC__ATTR_KEY): a read's one compare */
  unsigned int version; /* the class's version tag; 0: empty */
  int slot;             /* DYNAC_ATTR_* */
  Py_ssize_t where;
  uint64_t dict_version; /* DYNAC_ATTR_MODULE: dict versions are unique to one dict's one state (PEP 509) */
  PyObject *value;       /* MODULE, METHOD, CLASS: borrowed (the module's dict or the class holds it
                            while valid) */
  PyObject *name;        /* CLASS: the attribute's name (the module's interned one) */
  void *keys;            /* CLASS: dynac_compat_instance_has's memo of the class's shared keys */
  Py_ssize_t nkeys;
} dynac_attr_way;
typedef struct dynac_attr_cache {
  dynac_attr_way w[DYNAC_ATTR_WAYS];
  void *keys;           /* method sites: dynac_compat_instance_has's memo of the class's shared keys */
  Py_ssize_t nkeys;
} dynac_attr_cache;

/* The item index of a namedtuple field's descriptor (collections'
 * _tuplegetter, whose struct is private: its __reduce__ gives (type,
 * (index, doc)), C code only). 1 with *index, or 0. */
static inline int dynac__tuplegetter_index(PyObject *descr, Py_ssize_t *index) {
  if (strcmp(Py_TYPE(descr)->tp_name, "_collections._tuplegetter")) return 0;
  PyObject *r = PyObject_CallMethod(descr, "__reduce__", NULL);
  if (!r) { PyErr_Clear(); return 0; }
  PyObject *args = PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2 ? PyTuple_GET_ITEM(r, 1) : NULL;
  int ok = args && PyTuple_Check(args) && PyTuple_GET_SIZE(args) >= 1 && PyLong_CheckExact(PyTuple_GET_ITEM(args, 0));
  if (ok) *index = PyLong_AsSsize_t(PyTuple_GET_ITEM(args, 0));
  if (ok && *index < 0) { PyErr_Clear(); ok = 0; }
  Py_DECREF(r);
  return ok;
}

/* o.name of a module, if it is a global of the module's own (not a
 * ModuleType attribute such as __dict__, not __getattr__'s): borrowed, or NULL. */
static inline PyObject *dynac__module_global(PyObject *o, PyObject *name) {
  if (!PyModule_CheckExact(o) || _PyType_Lookup(Py_TYPE(o), name)) return NULL;
  PyObject *v = PyDict_GetItemWithError(dynac_compat_module_dict(o), name);
  if (!v) PyErr_Clear();
  return v;
}

/* Where o.name lives, as a way for o's class (its lookup also gives the
 * class a version tag): setting is 1 for a write site, 2 for one of
 * object.__setattr__ (DYNAC_STORE_GENERIC: the class's tp_setattro is not
 * asked). 1 with *w, or 0 when the attribute has no fixed place. */
static inline int dynac__attr_way_of(PyObject *o, PyObject *name, int setting, dynac_attr_way *w) {
  PyTypeObject *tp = Py_TYPE(o);
  if (!PyUnicode_CheckExact(name)) return 0;
  if (!setting && PyModule_CheckExact(o)) {
    PyObject *v = dynac__module_global(o, name);
    if (!v || !(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
    w->slot = DYNAC_ATTR_MODULE;
    w->value = v;
    w->dict_version = DYNAC_DICT_VERSION(dynac_compat_module_dict(o));
  } else {
    if (setting == 1 ? tp->tp_setattro != PyObject_GenericSetAttr /* (2: object.__setattr__'s store) */
                     : !setting && tp->tp_getattro != PyObject_GenericGetAttr)
      return 0;
    PyObject *descr = _PyType_Lookup(tp, name); /* borrowed */
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
    Py_ssize_t i = !descr || !PyDescr_IsData(descr) ? dynac_compat_instance_value_index(tp, name) : -1;
    if (i >= 0) { /* the instance's own value (it shadows a class default: a dataclass field's) */
      w->slot = DYNAC_ATTR_INLINE;
      w->where = i;
    } else if (!descr) {
      return 0;
    } else if (Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
      PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
      if (m->type != T_OBJECT_EX || (m->flags & (READONLY | PY_AUDIT_READ))) return 0;
      w->slot = DYNAC_ATTR_SLOT;
      w->where = m->offset;
    } else if (!setting && PyTuple_Check(o) && dynac__tuplegetter_index(descr, &w->where)) {
      w->slot = DYNAC_ATTR_FIELD; /* read as its item, as the descriptor's __get__ reads it */
    } else if (!setting && !Py_TYPE(descr)->tp_descr_get) { /* the value itself unless the instance has one */
      w->slot = DYNAC_ATTR_CLASS;
      w->value = descr;
      w->name = name;
      w->where = (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) || tp->tp_dictoffset;
    } else {
      return 0; /* a property, a method: the C API */
    }
  }
  w->version = tp->tp_version_tag;
  return 1;
}
/* A way's key: its class's version tag and its kind, never 0 (an empty
 * way's), so that an instance of a class with no tag (0) matches no way. */
#define DYNAC__ATTR_KEY(version, slot) (((uint64_t)(version) << 8) | (uint64_t)((slot) + 1))
/* The way a class of version tag v takes when it leaves way 0. */
static inline int dynac__attr_way_home(unsigned int v) { return 1 + (int)(v & (DYNAC_ATTR_WAYS - 2)); }
/* Makes w way 0 of c, way 0's class moving to its home (whose class is dropped). */
static inline void dynac__attr_way_add(dynac_attr_cache *c, const dynac_attr_way *w) {
  if (c->w[0].version) c->w[dynac__attr_way_home(c->w[0].version)] = c->w[0];
  c->w[0] = *w;
  c->w[0].key = DYNAC__ATTR_KEY(w->version, w->slot);
}
/* Fills way 0 of c for o.name when it has a fixed place (the ways met
 * before are kept otherwise). 1 when it did, else 0. */
DYNAC_WARM int dynac__attr_cache_fill(dynac_attr_cache *c, PyObject *o, PyObject *name, int setting) {
  dynac_attr_way w;
  memset(&w, 0, sizeof w);
  if (!dynac__attr_way_of(o, name, setting, &w)) return 0;
  dynac__attr_way_add(c, &w);
  return 1;
}

/* A class constant's place (DYNAC_ATTR_CLASS), or NULL where the instance
 * has its own value (_PyObject_GenericGetAttrWithDict's order). */
DYNAC_COLD PyObject **dynac__attr_class_place(dynac_attr_way *w, PyObject *o) {
  return w->where && dynac_compat_instance_has(o, w->name, &w->keys, &w->nkeys) ? NULL : &w->value;
}
/* The place o.name lives at per way w, or NULL (w missed, or no such
 * place): __slots__ members and inline values tested first (one compare
 * each), the rarer kinds out of line. */
DYNAC_COLD PyObject **dynac__attr_way_place_rare(dynac_attr_way *w, PyObject *o) {
  switch (w->slot) {
  case DYNAC_ATTR_FIELD: return w->where < PyTuple_GET_SIZE(o) ? &((PyTupleObject *)o)->ob_item[w->where] : NULL;
  case DYNAC_ATTR_MODULE:
    return DYNAC_DICT_VERSION(dynac_compat_module_dict(o)) == w->dict_version ? &w->value : NULL;
  case DYNAC_ATTR_CLASS: return dynac__attr_class_place(w, o);
  default: return NULL; /* DYNAC_ATTR_METHOD: dynac_get_method_cached's */
  }
}
DYNAC_HOT_INLINE PyObject **dynac__attr_way_hit_place(dynac_attr_way *w, PyObject *o) { /* w is o's class's */
  if (DYNAC_LIKELY(w->slot == DYNAC_ATTR_SLOT)) return (PyObject **)((char *)o + w->where);
  if (DYNAC_LIKELY(w->slot == DYNAC_ATTR_INLINE)) return dynac_compat_instance_value_slot(o, w->where);
  return dynac__attr_way_place_rare(w, o);
}
static inline PyObject **dynac__attr_way_place(dynac_attr_way *w, PyObject *o) {
  if (!w->version || Py_TYPE(o)->tp_version_tag != w->version) return NULL;
  return dynac__attr_way_hit_place(w, o);
}
/* The way of class version tag v past way 0 (its home), or NULL: one
 * compare (a site whose classes alternate, a heap's events of several
 * subclasses, finds each class's place without the C API). */
DYNAC_COLD dynac_attr_way *dynac__attr_way_other(dynac_attr_cache *c, unsigned int v) {
  dynac_attr_way *w = &c->w[dynac__attr_way_home(v)];
  return v && w->version == v ? w : NULL; /* 0: an empty way, a class with no tag */
}
/* The way of o's class, or NULL: way 0 inline, the others out of line. */
DYNAC_HOT_INLINE dynac_attr_way *dynac__attr_way_for(dynac_attr_cache *c, PyObject *o) {
  unsigned int v = Py_TYPE(o)->tp_version_tag;
  if (DYNAC_LIKELY(c->w[0].version == v && v)) return &c->w[0];
  return dynac__attr_way_other(c, v);
}
/* dynac__attr_place past way 0's __slots__ member or inline value: the
 * class's home way (one compare: the classes of a heap's events alternate
 * at a site), then way 0 of another kind. */
DYNAC_COLD PyObject **dynac__attr_place_other(dynac_attr_cache *c, PyObject *o) {
  unsigned int v = Py_TYPE(o)->tp_version_tag;
  uint64_t tag = (uint64_t)v << 8;
  dynac_attr_way *w = &c->w[dynac__attr_way_home(v)];
  uint64_t kind = w->key ^ tag; /* slot + 1 when the tags match (an empty way's key is 0) */
  if (kind == DYNAC_ATTR_SLOT + 1) return (PyObject **)((char *)o + w->where);
  if (kind && kind <= 0xff) return dynac__attr_way_hit_place(w, o);
  uint64_t kind0 = c->w[0].key ^ tag; /* way 0 of a rarer kind (a namedtuple field, a module's global) */
  return kind0 && kind0 <= 0xff ? dynac__attr_way_place_rare(&c->w[0], o) : NULL;
}
/* The place o.name lives at per the ways, or NULL. Way 0 as a __slots__
 * member or an inline value is one compare of its key (as CPython 3.11's
 * LOAD_ATTR_SLOT and LOAD_ATTR_INSTANCE_VALUE test the type's version),
 * the rest out of line. */
DYNAC_HOT_INLINE PyObject **dynac__attr_place(dynac_attr_cache *c, PyObject *o) {
  uint64_t kind = c->w[0].key ^ ((uint64_t)Py_TYPE(o)->tp_version_tag << 8); /* its slot + 1 when the tags match */
  if (DYNAC_LIKELY(kind == DYNAC_ATTR_SLOT + 1)) return (PyObject **)((char *)o + c->w[0].where);
  if (DYNAC_LIKELY(kind == DYNAC_ATTR_INLINE + 1)) return dynac_compat_instance_value_slot(o, c->w[0].where);
  return dynac__attr_place_other(c, o);
}
/* o.name through the C API, after every way of the site's cache c missed
 * (dynac__attr_place), filling way 0 where it found a fixed place: a new
 * reference, or NULL with CPython's exception; *effects set when Python
 * code may have run. */
DYNAC_COLD PyObject *dynac__obj_getattr_slow(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects) {
  PyObject *v = dynac_obj_getattr(o, name, effects);
  if (v) dynac__attr_cache_fill(c, o, name, 0);
  return v;
}
DYNAC_HOT_INLINE PyObject *dynac_obj_getattr_cached(PyObject *o, PyObject *name, dynac_attr_cache *c,
                                                   int *effects) {
  PyObject **place = dynac__attr_place(c, o);
  if (DYNAC_LIKELY(place && *place)) return Py_NewRef(*place);
  return dynac__obj_getattr_slow(o, name, c, effects);
}

/* What way w of c gives for o.name(...): 1 (*meth: the class's function,
 * a new reference), 0 (*meth: the callable itself), or -1: a miss. */
static inline int dynac__method_way(dynac_attr_cache *c, dynac_attr_way *w, PyObject *o, PyObject *name,
                                    PyObject **meth) {
  if (!w->version || Py_TYPE(o)->tp_version_tag != w->version) return -1;
  if (w->slot == DYNAC_ATTR_METHOD) {
    if (w->where && dynac_compat_instance_has(o, name, &c->keys, &c->nkeys)) return -1;
    *meth = Py_NewRef(w->value);
    return 1;
  }
  PyObject **place = dynac__attr_way_place(w, o);
  if (!place || !*place) return -1;
  *meth = Py_NewRef(*place);
  return 0;
}
DYNAC_COLD int dynac__get_method_slow(PyObject *o, PyObject *name, dynac_attr_cache *c, PyObject **meth,
                                      int *effects) {
  /* the class's home way: moving a hit to way 0 would write the cache at every call of alternating classes */
  int r = dynac__method_way(c, &c->w[dynac__attr_way_home(Py_TYPE(o)->tp_version_tag)], o, name, meth);
  if (r >= 0) return r;
  PyTypeObject *tp = Py_TYPE(o);
  int unbound = dynac_compat_get_method(o, name, meth);
  if (!*meth) { dynac_python_may_run(effects); return 0; }
  if (unbound) { /* a function of the class, none in the instance's __dict__: no Python code ran */
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || _PyType_Lookup(tp, name) != *meth) return 1;
    dynac_attr_way w;
    memset(&w, 0, sizeof w);
    w.version = tp->tp_version_tag;
    w.slot = DYNAC_ATTR_METHOD;
    w.where = (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) || tp->tp_dictoffset; /* may be shadowed */
    w.value = *meth;
    dynac__attr_way_add(c, &w);
    return 1;
  }
  if (!dynac__attr_cache_fill(c, o, name, 0))
    dynac_python_may_run(effects); /* no fixed place: a property's or __getattr__'s answer, maybe */
  return 0;
}
/* o.name(...)'s callable as LOAD_METHOD finds it, through the site's cache
 * c (a way per class: DYNAC_ATTR_METHOD for a function of the class that
 * no instance __dict__ shadows, DYNAC_ATTR_MODULE for a module's function,
 * or the instance's own attribute), as CPython 3.11's LOAD_METHOD_NO_DICT,
 * _WITH_VALUES and _MODULE. *meth: a new reference, or NULL with CPython's
 * exception. Returns 1 when *meth is the class's function, to be called
 * with o first; 0 when it is the callable itself. *effects is set when the
 * lookup may have run Python code (a property, __getattr__). */
DYNAC_HOT_INLINE int dynac_get_method_cached(PyObject *o, PyObject *name, dynac_attr_cache *c, PyObject **meth,
                                             int *effects) {
  int r = dynac__method_way(c, &c->w[0], o, name, meth);
  if (DYNAC_LIKELY(r >= 0)) return r;
  return dynac__get_method_slow(o, name, c, meth, effects);
}

/* ---- instances of the module's classes (generator/classes.c) -------------
 * o.name of an instance whose class's recorded attribute type is float, int
 * (within int64: dynac record names a bigger one an object) or bool, or
 * another module class: read through the site's cache c, then checked.
 * 0 with the value in *out; 1 when the value is of another type (the kernel
 * deoptimises; nothing was changed); -1 with CPython's exception. */
/* The slow paths below (a cache miss: the C API, then a refill) stay out of
 * line, so that each read site inlines only the fast path. */
DYNAC_COLD int dynac__attr_float_slow(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, double *out) {
  PyObject *v = dynac__obj_getattr_slow(o, name, c, effects);
  if (!v) return -1;
  int other = !PyFloat_CheckExact(v);
  if (!other) *out = PyFloat_AS_DOUBLE(v);
  Py_DECREF(v);
  return other;
}
DYNAC_HOT_INLINE int dynac_attr_float(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, double *out) {
  PyObject **place = dynac__attr_place(c, o);
  if (DYNAC_LIKELY(place && *place)) { /* borrowed: no Python code runs between */
    if (!PyFloat_CheckExact(*place)) return 1;
    *out = PyFloat_AS_DOUBLE(*place);
    return 0;
  }
  double got = 0; /* out's address (a kernel's local) never escapes: GCC keeps it in a register */
  int st = dynac__attr_float_slow(o, name, c, effects, &got);
  *out = got;
  return st;
}
DYNAC_COLD int dynac__attr_int_slow(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, int64_t *out) {
  PyObject *v = dynac__obj_getattr_slow(o, name, c, effects);
  if (!v) return -1;
  int other = !PyLong_CheckExact(v) || !dynac_int64_of(v, out); /* a big int: deoptimise */
  Py_DECREF(v);
  return other;
}
DYNAC_HOT_INLINE int dynac_attr_int(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, int64_t *out) {
  PyObject **place = dynac__attr_place(c, o);
  if (DYNAC_LIKELY(place && *place)) /* borrowed, as dynac_attr_float's; a big int: deoptimise */
    return !PyLong_CheckExact(*place) || !dynac_int64_of(*place, out);
  int64_t got = 0; /* as dynac_attr_float's */
  int st = dynac__attr_int_slow(o, name, c, effects, &got);
  *out = got;
  return st;
}
/* dynac_attr_int / _float for a read whose value the kernel boxes again
 * (an argument, a display's item: emit/values.c kept_attr_box): the same,
 * and on success a new reference to the object read in *obj, which
 * dynac_box_int_kept / _float_kept give back while it holds the value. */
DYNAC_HOT_INLINE int dynac_attr_int_kept(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects,
                                         int64_t *out, PyObject **obj) {
  PyObject **place = dynac__attr_place(c, o);
  PyObject *v = DYNAC_LIKELY(place && *place) ? Py_NewRef(*place) : dynac__obj_getattr_slow(o, name, c, effects);
  if (!v) return -1;
  int64_t got = 0; /* as dynac_attr_float's */
  if (!PyLong_CheckExact(v) || !dynac_int64_of(v, &got)) { Py_DECREF(v); return 1; } /* a big int: deoptimise */
  *out = got;
  *obj = v;
  return 0;
}
DYNAC_HOT_INLINE int dynac_attr_float_kept(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects,
                                           double *out, PyObject **obj) {
  PyObject **place = dynac__attr_place(c, o);
  PyObject *v = DYNAC_LIKELY(place && *place) ? Py_NewRef(*place) : dynac__obj_getattr_slow(o, name, c, effects);
  if (!v) return -1;
  if (!PyFloat_CheckExact(v)) { Py_DECREF(v); return 1; }
  *out = PyFloat_AS_DOUBLE(v);
  *obj = v;
  return 0;
}
static inline int dynac_attr_bool(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, bool *out) {
  PyObject *v = dynac_obj_getattr_cached(o, name, c, effects);
  if (!v) return -1;
  int other = !PyBool_Check(v);
  *out = v == Py_True;
  Py_DECREF(v);
  return other;
}
/* The same for an attribute holding an instance of exactly class `cls`
 * (borrowed): a new reference in *out. */
static inline int dynac_attr_instance(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects,
                                      PyObject *cls, PyObject **out) {
  PyObject *v = dynac_obj_getattr_cached(o, name, c, effects);
  if (!v) return -1;
  if ((PyObject *)Py_TYPE(v) != cls) { Py_DECREF(v); return 1; }
  *out = v;
  return 0;
}
/* The same for an attribute recorded as a list (System.bodies): exactly a
 * list, a new reference in *out (the kernel checks its elements per read). */
static inline int dynac_attr_list(PyObject *o, PyObject *name, dynac_attr_cache *c, int *effects, PyObject **out) {
  PyObject *v = dynac_obj_getattr_cached(o, name, c, effects);
  if (!v) return -1;
  if (!PyList_CheckExact(v)) { Py_DECREF(v); return 1; }
  *out = v;
  return 0;
}

/* ---- layouts: one class check for a run of reads (generator/emit/layouts.c)
 * A run of statements that can run no Python code reads several attributes
 * of one instance (`dx = a.x - b.x; dy = a.y - b.y`). One check of its
 * class's version tag (dynac_layout_hit) serves every read of the run, each
 * then only its place: nothing can change the class or the instance's
 * class before the run ends, or before a read leaves the layout for its
 * site's cache. The idea is PyPy's: a trace guards an object's class once
 * (guard_class) for all its fields; CPython 3.11 tests the version tag at
 * each LOAD_ATTR_SLOT / LOAD_ATTR_INSTANCE_VALUE. */
enum { DYNAC_LAYOUT_NAMES = 8 };
typedef struct dynac_layout {
  unsigned int version; /* the tp_version_tag of the class `where` is for; 0: none yet */
  unsigned int refused; /* a version tag whose class keeps a name elsewhere (a property, a class value) */
  int slot;             /* DYNAC_ATTR_SLOT (where: byte offsets) or DYNAC_ATTR_INLINE (indexes) */
  int settable;         /* stores go to those places too (the class's tp_setattro is CPython's generic one) */
  Py_ssize_t where[DYNAC_LAYOUT_NAMES];
} dynac_layout;

/* Fills l with the places of names[ix[0..n-1]] (interned str, borrowed) in
 * instances of o's class: all __slots__ members, or all inline values
 * (dynac__attr_way_of's lookup: no Python code runs); else marks the
 * class's version refused. */
DYNAC_COLD void dynac__layout_fill(dynac_layout *l, PyObject *o, PyObject *const *names, const int *ix, int n) {
  unsigned int v = Py_TYPE(o)->tp_version_tag;
  dynac_layout f;
  memset(&f, 0, sizeof f);
  for (int i = 0; i < n && i < DYNAC_LAYOUT_NAMES; i++) {
    dynac_attr_way w;
    memset(&w, 0, sizeof w);
    if (!dynac__attr_way_of(o, names[ix[i]], 0, &w) || w.version != v ||
        (w.slot != DYNAC_ATTR_SLOT && w.slot != DYNAC_ATTR_INLINE) || (i && w.slot != f.slot)) {
      l->refused = v;
      return;
    }
    f.slot = w.slot;
    f.where[i] = w.where;
  }
  f.version = v;
  f.settable = Py_TYPE(o)->tp_setattro == PyObject_GenericSetAttr;
  *l = f;
}
/* 1 when l holds the places of o's class (one compare of its version tag):
 * the run's reads of o may take them (dynac_layout_float, _int, _bool).
 * Else 0, l filled for the next call: the reads go through their sites'
 * caches. */
DYNAC_HOT_INLINE int dynac_layout_hit(dynac_layout *l, PyObject *o, PyObject *const *names, const int *ix, int n) {
  unsigned int v = Py_TYPE(o)->tp_version_tag;
  if (DYNAC_LIKELY(v == l->version && v)) return 1;
  if (v && v != l->refused) dynac__layout_fill(l, o, names, ix, n);
  return 0;
}
/* The place of name i of l in o, or NULL (an instance whose dict was made). */
DYNAC_HOT_INLINE PyObject **dynac__layout_place(const dynac_layout *l, PyObject *o, int i) {
  if (DYNAC_LIKELY(l->slot == DYNAC_ATTR_SLOT)) return (PyObject **)((char *)o + l->where[i]);
  return dynac_compat_instance_value_slot(o, l->where[i]);
}
/* Name i of o, whose class dynac_layout_hit found l holds, as a float, an
 * int (within int64) or a bool: 0 with the value in *out; 1 when it is of
 * another type (the kernel deoptimises, nothing changed); 2 when o has no
 * value there (its site's cache reads it: CPython's AttributeError, a class
 * default, __getattr__). Borrowed reads: no Python code runs. */
DYNAC_HOT_INLINE int dynac_layout_float(const dynac_layout *l, PyObject *o, int i, double *out) {
  PyObject **p = dynac__layout_place(l, o, i);
  if (DYNAC_UNLIKELY(!p || !*p)) return 2;
  if (!PyFloat_CheckExact(*p)) return 1;
  *out = PyFloat_AS_DOUBLE(*p);
  return 0;
}
DYNAC_HOT_INLINE int dynac_layout_int(const dynac_layout *l, PyObject *o, int i, int64_t *out) {
  PyObject **p = dynac__layout_place(l, o, i);
  if (DYNAC_UNLIKELY(!p || !*p)) return 2;
  return !PyLong_CheckExact(*p) || !dynac_int64_of(*p, out); /* a big int: deoptimise */
}
/* o.name_i = v into the float there, when it is an exact float nothing
 * else holds (no one could tell it from a new one), as
 * dynac_obj_setattr_float_cached's fast path: 1 (*effects: a visible
 * write). 0 when it is not (the site's cache stores a new float), or when
 * o's class stores through a __setattr__ of its own. */
DYNAC_HOT_INLINE int dynac_layout_store_float(const dynac_layout *l, PyObject *o, int i, double v, int *effects) {
  PyObject **p = dynac__layout_place(l, o, i);
  if (DYNAC_UNLIKELY(!l->settable || !p || !*p || !PyFloat_CheckExact(*p) || Py_REFCNT(*p) != 1)) return 0;
  *effects = 1;
  ((PyFloatObject *)*p)->ob_fval = v;
  return 1;
}
DYNAC_HOT_INLINE int dynac_layout_bool(const dynac_layout *l, PyObject *o, int i, bool *out) {
  PyObject **p = dynac__layout_place(l, o, i);
  if (DYNAC_UNLIKELY(!p || !*p)) return 2;
  *out = *p == Py_True;
  return !PyBool_Check(*p);
}

/* Stores v (borrowed) at o's place per way w (an inline value set for the
 * first time joins the instance's order at w's index). */
static inline void dynac__attr_store(const dynac_attr_way *w, PyObject *o, PyObject **place, PyObject *v) {
  PyObject *old = *place;
  *place = Py_NewRef(v);
  if (old) Py_DECREF(old);
  else if (w->slot == DYNAC_ATTR_INLINE) dynac_compat_instance_value_added(o, w->where);
}
/* Whose attribute a store writes: the kernel's own first parameter's
 * (self), where a first store (no old value: `self.x = x` in __init__) is
 * an effect only for the caller that passed the instance (*effects |= 2:
 * one that has just made it sees none), or any other object's. Either may
 * add DYNAC_STORE_GENERIC: the store is object.__setattr__(o, name, v),
 * which the class's own __setattr__ never sees (a frozen dataclass's
 * __init__: dataclasses' _field_assign writes it so). */
#define DYNAC_STORE_SELF 1
#define DYNAC_STORE_OTHER 0
#define DYNAC_STORE_GENERIC 4
/* object.__setattr__ (borrowed: object's dict keeps it), NULL with an exception. */
static inline PyObject *dynac__object_setattr(void) {
  static PyObject *fn;
  if (!fn) fn = PyDict_GetItemString(PyBaseObject_Type.tp_dict, "__setattr__");
  if (!fn && !PyErr_Occurred()) PyErr_SetString(PyExc_AttributeError, "object.__setattr__");
  return fn;
}
/* o.name = v through the C API, after every way of c missed: as STORE_ATTR
 * stores it, or (generic: DYNAC_STORE_GENERIC) as object.__setattr__ does,
 * its own call (hackcheck's TypeError for a class whose C base sets
 * attributes its own way). */
DYNAC_COLD int dynac__obj_setattr_slow(PyObject *o, PyObject *name, PyObject *v, dynac_attr_cache *c, int generic) {
  if (generic) {
    PyObject *fn = dynac__object_setattr(), *args[3] = {o, name, v};
    PyObject *r = fn ? PyObject_Vectorcall(fn, args, 3, NULL) : NULL;
    if (!r) return -1;
    Py_DECREF(r);
  } else if (PyObject_SetAttr(o, name, v) < 0)
    return -1;
  dynac__attr_cache_fill(c, o, name, generic ? 2 : 1);
  return 0;
}
/* o.name = v through the site's cache c (v borrowed; NULL: a failed box,
 * -1). 0, or -1 with CPython's exception. An inline value set for the
 * first time (`self.x = x` in __init__) joins the instance's insertion
 * order as STORE_ATTR_INSTANCE_VALUE has it join (compat part). `owner`:
 * DYNAC_STORE_SELF or DYNAC_STORE_OTHER. */
DYNAC_HOT_INLINE int dynac_obj_setattr_cached(PyObject *o, PyObject *name, PyObject *v, dynac_attr_cache *c,
                                              int *effects, int owner) {
  if (!v) return -1;
  dynac_attr_way *w = dynac__attr_way_for(c, o);
  PyObject **place = w ? dynac__attr_way_hit_place(w, o) : NULL;
  if (DYNAC_LIKELY(place != NULL)) {
    if ((owner & DYNAC_STORE_SELF) && !*place) *effects |= 2; /* a first store into self */
    else *effects = 1; /* a visible write (and the old value's __del__ may run) */
    dynac__attr_store(w, o, place, v);
    return 0;
  }
  dynac_python_may_run(effects);
  return dynac__obj_setattr_slow(o, name, v, c, owner & DYNAC_STORE_GENERIC);
}
/* o.name = v of a float v through the site's cache c: as
 * dynac_obj_setattr_cached with v boxed, except that an attribute holding
 * a float nothing else references (its reference count 1: the instance's
 * own) takes the new value in place, as CPython 3.12's BINARY_OP_ADD_FLOAT
 * reuses an operand float it holds the only reference to: no code can
 * tell that float from a new one. 0, or -1 with CPython's exception. */
DYNAC_HOT_INLINE int dynac_obj_setattr_float_cached(PyObject *o, PyObject *name, double v, dynac_attr_cache *c,
                                                    int *effects, int owner) {
  PyObject **place = dynac__attr_place(c, o);
  if (DYNAC_LIKELY(place && *place && PyFloat_CheckExact(*place) && Py_REFCNT(*place) == 1)) {
    *effects = 1; /* a visible write */
    ((PyFloatObject *)*place)->ob_fval = v;
    return 0;
  }
  PyObject *b = PyFloat_FromDouble(v);
  int rc = dynac_obj_setattr_cached(o, name, b, c, effects, owner);
  Py_XDECREF(b);
  return rc;
}
/* o.name = x of a kernel's float parameter x (value v): the caller's own
 * object `given` when it passed one (borrowed; an exact float of value v:
 * dynac_box_param_float's args[i]), as CPython's STORE_ATTR stores the
 * frame's object, else as dynac_obj_setattr_float_cached. 0, or -1 with
 * CPython's exception. */
DYNAC_HOT_INLINE int dynac_obj_setattr_param_float_cached(PyObject *o, PyObject *name, double v, PyObject *given,
                                                          dynac_attr_cache *c, int *effects, int owner) {
  if (given) return dynac_obj_setattr_cached(o, name, given, c, effects, owner);
  return dynac_obj_setattr_float_cached(o, name, v, c, effects, owner);
}
/* o[key] = v (key, v borrowed; NULL: a failed box, -1). 0, or -1 with an exception. */
static inline int dynac_obj_setitem(PyObject *o, PyObject *key, PyObject *v, int *effects) {
  if (!key || !v) return -1;
  long i;
  if (PyList_CheckExact(o) && dynac_compat_small_int(key, &i)) {
    Py_ssize_t n = PyList_GET_SIZE(o), k = i < 0 ? i + n : i; /* list_ass_subscript's index */
    if (k >= 0 && k < n) {
      PyObject **item = &((PyListObject *)o)->ob_item[k];
      *effects = 1; /* a write others see */
      if (!dynac_obj_pure(*item, 0)) dynac_python_may_run(effects); /* its release may run a __del__ */
      Py_SETREF(*item, Py_NewRef(v)); /* list_ass_item */
      return 0;
    }
  }
  dynac_python_may_run(effects); /* __setitem__, __index__, the old value's __del__ */
  return PyObject_SetItem(o, key, v); /* (an IndexError too) */
}
/* An object argument of range() as an int64, taken as range() takes it
 * (PyNumber_Index: CPython's TypeError "'float' object cannot be interpreted
 * as an integer"); *effects set when Python code may have run. o borrowed.
 * A stop beyond int64 saturates (is_stop): the range's items are the same
 * for its first 2**63 steps, and one below -2**63 gives the same empty or
 * descending run. 0; -1 with an exception; 1 for a start or step beyond
 * int64 (no exception: the caller deoptimises, and the interpreter's range
 * runs on Python ints). */
static inline int dynac_range_bound(PyObject *o, int64_t *out, int is_stop, int *effects) {
  if (!PyLong_Check(o)) dynac_python_may_run(effects); /* __index__ may run (an int or a subclass's: never) */
  PyObject *i = PyNumber_Index(o);
  if (!i) return -1;
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (overflow && is_stop) v = overflow > 0 ? INT64_MAX : INT64_MIN;
  else if (overflow) return 1;
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = (int64_t)v;
  return 0;
}

/* ---- calls with *args and **kwargs (CALL_FUNCTION_EX) ---------------------
 * The positional arguments are gathered in a list (LIST_EXTEND for each
 * *iterable), the keyword ones in a dict (DICT_MERGE for each **mapping),
 * then PyObject_Call; the errors are the interpreter's, naming the callee
 * as _PyObject_FunctionStr does. All arguments borrowed. */

/* Appends the items of `it` (f(a, *it)) to the call's positional list.
 * lone_func: the callee when *it is the call's only positional argument
 * (CALL_FUNCTION_EX then checks it and words the TypeError after the
 * callee), else NULL (LIST_EXTEND's wording). 0, or -1 with an exception. */
static inline int dynac_call_extend(PyObject *list, PyObject *it, PyObject *lone_func) {
  if (Py_TYPE(it)->tp_iter == NULL && !PySequence_Check(it)) {
    if (!lone_func) {
      PyErr_Format(PyExc_TypeError, "Value after * must be an iterable, not %.200s", Py_TYPE(it)->tp_name);
      return -1;
    }
    PyObject *name = dynac_compat_function_str(lone_func);
    if (name) {
      PyErr_Format(PyExc_TypeError, "%U argument after * must be an iterable, not %.200s", name,
                   Py_TYPE(it)->tp_name);
      Py_DECREF(name);
    }
    return -1;
  }
  return dynac_compat_list_extend(list, it);
}

/* The TypeError "F() got multiple values for keyword argument 'k'". -1. */
static inline int dynac__call_duplicate(PyObject *func, PyObject *key) {
  PyObject *name = dynac_compat_function_str(func);
  if (name) {
    PyErr_Format(PyExc_TypeError, "%U got multiple values for keyword argument '%S'", name, key);
    Py_DECREF(name);
  }
  return -1;
}

/* Are o's hash and format (no spec) C code, no Python code (an exact int,
 * bool, float, complex, str or bytes, or None)? A statement going on in
 * the interpreter hashes and formats the values it kept again. */
static inline int dynac_quiet_value(PyObject *o) {
  return o == Py_None || PyLong_CheckExact(o) || PyBool_Check(o) || PyFloat_CheckExact(o) ||
         PyComplex_CheckExact(o) || PyUnicode_CheckExact(o) || PyBytes_CheckExact(o);
}
/* A new dict of d's items past its first n0 in insertion order (d only
 * grew since it held n0: PyDict_Next visits its items in that order): what
 * f(**m) merged into the call's keyword dict, kept for a continuation. A
 * new reference, or NULL with MemoryError. */
static inline PyObject *dynac_dict_tail(PyObject *d, Py_ssize_t n0) {
  PyObject *r = PyDict_New(), *k, *v;
  Py_ssize_t pos = 0, seen = 0;
  while (r && PyDict_Next(d, &pos, &k, &v))
    if (seen++ >= n0 && PyDict_SetItem(r, k, v) < 0) Py_CLEAR(r);
  return r;
}
/* Merges `mapping` (f(**mapping)) into the call's keyword dict `kw`, with
 * the interpreter's TypeErrors: not a mapping, or a key given twice. 0, or
 * -1 with an exception. */
static inline int dynac_call_merge(PyObject *kw, PyObject *mapping, PyObject *func) {
  if (dynac_compat_dict_merge_call(kw, mapping) == 0) return 0;
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) { /* no keys(): not a mapping */
    PyErr_Clear();
    PyObject *name = dynac_compat_function_str(func);
    if (name) {
      PyErr_Format(PyExc_TypeError, "%U argument after ** must be a mapping, not %.200s", name,
                   Py_TYPE(mapping)->tp_name);
      Py_DECREF(name);
    }
  } else if (PyErr_ExceptionMatches(PyExc_KeyError)) { /* the key given twice, as KeyError's args */
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (value && PyTuple_Check(value) && PyTuple_GET_SIZE(value) == 1) {
      dynac__call_duplicate(func, PyTuple_GET_ITEM(value, 0));
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
    } else {
      PyErr_Restore(type, value, tb);
    }
  }
  return -1;
}

/* Adds keyword `name`=v (a plain keyword after a **mapping: its own
 * DICT_MERGE) to `kw`. 0, or -1 with an exception (a duplicate key). */
static inline int dynac_call_keyword(PyObject *kw, PyObject *name, PyObject *v, PyObject *func) {
  if (!name || !v) return -1;
  int has = PyDict_Contains(kw, name);
  if (has) return has < 0 ? -1 : dynac__call_duplicate(func, name);
  return PyDict_SetItem(kw, name, v);
}

/* ---- calls of an object that may be a class ----------------------------
 * `kind(a, b)`, `type(self)(x, y)`, `cls(*args)`: a class held in a value.
 * CPython's type_call makes an argument tuple, object_new checks it, and
 * slot_tp_init looks up __init__ and calls it through
 * _PyObject_Call_Prepend (typeobject.c, 3.11). For a class whose instances
 * object.__new__ makes and whose __init__ is a Python function (a compiled
 * one's kernel serves it through its vectorcall), the same steps run here
 * without the tuple and the bound call. */

/* The __init__ a call of `f` may run directly: f a class of metatype
 * `type` exactly (no metaclass __call__), made by the heap (a class
 * statement), not abstract, object.__new__ its __new__ (tp_new inherited
 * from object: object_new's argument checks then pass, as tp_init is
 * slot_tp_init), its __init__ (looked up through the MRO, as slot_tp_init
 * does) a Python function. Borrowed, or NULL: call `f` as CPython does. */
static inline PyObject *dynac__plain_init(PyObject *f) {
  static PyObject *name; /* "__init__", interned once (kept) */
  if (Py_TYPE(f) != &PyType_Type) return NULL;
  PyTypeObject *tp = (PyTypeObject *)f;
  if ((tp->tp_flags & (Py_TPFLAGS_HEAPTYPE | Py_TPFLAGS_IS_ABSTRACT)) != Py_TPFLAGS_HEAPTYPE ||
      tp->tp_new != PyBaseObject_Type.tp_new)
    return NULL;
  if (!name && !(name = PyUnicode_InternFromString("__init__"))) {
    PyErr_Clear(); /* the call goes the usual way, which reports a MemoryError itself */
    return NULL;
  }
  PyObject *init = _PyType_Lookup(tp, name); /* borrowed; sets no exception */
  return init && PyFunction_Check(init) ? init : NULL;
}

/* object.__new__(tp) with no arguments (tp's __new__ is object's): a new
 * reference, or NULL with the exception. object_new allocates and then
 * gives the instance its inline values (3.11's _PyObject_InitializeDict,
 * not exported); tp_alloc alone leaves them out, and the first attribute
 * store then makes the instance a __dict__, where no site's attribute
 * cache finds a fixed place: every read would go through the C API. */
static inline PyObject *dynac_object_new(PyTypeObject *tp) {
  /* a class of __slots__ only (no __dict__, no inline values; not abstract):
     object_new's steps come down to tp_alloc (Objects/typeobject.c) */
  if (DYNAC_LIKELY(!tp->tp_dictoffset && !(tp->tp_flags & (Py_TPFLAGS_MANAGED_DICT | Py_TPFLAGS_IS_ABSTRACT)) &&
                   tp->tp_new == PyBaseObject_Type.tp_new))
    return tp->tp_alloc(tp, 0);
  PyObject *noargs = PyTuple_New(0); /* the empty tuple singleton */
  PyObject *o = noargs ? PyBaseObject_Type.tp_new(tp, noargs, NULL) : NULL;
  Py_XDECREF(noargs);
  return o;
}

/* type_call's steps for `tp` and its plain __init__ (dynac__plain_init):
 * the instance from object.__new__ (dynac_object_new), then init(instance, *args,
 * **kw) with the instance in a[0] and the n arguments in a[1..n] (keyword
 * values last, named by kwnames), then slot_tp_init's check that it
 * returned None ("__init__() should return None, not 'int'"). A new
 * reference, or NULL with the exception (the instance released). */
static inline PyObject *dynac__construct(PyTypeObject *tp, PyObject *init, PyObject **a, size_t n,
                                         PyObject *kwnames) {
  if (Py_EnterRecursiveCall(" while calling a Python object")) return NULL; /* as _PyObject_MakeTpCall */
  Py_INCREF(init); /* the allocation (a collection's finalizers) or the call may rebind or delete it */
  PyObject *self = dynac_object_new(tp);
  if (!self) {
    Py_DECREF(init);
    Py_LeaveRecursiveCall();
    return NULL;
  }
  a[0] = self;
  PyObject *r = PyObject_Vectorcall(init, a, n + 1 - (kwnames ? PyTuple_GET_SIZE(kwnames) : 0), kwnames);
  Py_DECREF(init);
  Py_LeaveRecursiveCall();
  if (r == Py_None) {
    Py_DECREF(r);
    return self;
  }
  if (r) {
    PyErr_Format(PyExc_TypeError, "__init__() should return None, not '%.200s'", Py_TYPE(r)->tp_name);
    Py_DECREF(r);
  }
  Py_DECREF(self);
  return NULL;
}

/* A class namedtuple made (typing.NamedTuple's too) whose __new__ is still
 * namedtuple's own (dynac_compat_namedtuple_new), as checked for one version
 * of the class and of that __new__'s namespace: an entry of
 * dynac__namedtuple_made's table. */
typedef struct dynac_namedtuple_seen {
  PyTypeObject *tp;      /* not a reference: the version tag, unique per class state, is compared first */
  unsigned int version;  /* its version tag when checked */
  int ok;                /* 1: namedtuple's __new__ for n fields; 0: not (called as CPython calls it) */
  Py_ssize_t n;
  PyObject *globals;     /* __new__'s namespace (borrowed: its class keeps it while the version holds) */
  uint64_t globals_version;
} dynac_namedtuple_seen;
/* Checks tp for calls of n arguments into the entry of `seen` its version
 * tag picks (the lookup gives a class changed since its new tag). */
DYNAC_COLD dynac_namedtuple_seen *dynac__namedtuple_check(dynac_namedtuple_seen *seen, PyTypeObject *tp,
                                                          Py_ssize_t n) {
  static PyObject *name; /* "__new__", interned once (kept) */
  PyObject *descr = name || (name = PyUnicode_InternFromString("__new__")) ? _PyType_Lookup(tp, name) : NULL;
  dynac_namedtuple_seen *s = &seen[tp->tp_version_tag & 7];
  s->tp = tp, s->version = tp->tp_version_tag, s->n = n, s->ok = 0, s->globals = NULL;
  PyObject *f = descr && Py_IS_TYPE(descr, &PyStaticMethod_Type) ? PyObject_GetAttrString(descr, "__func__") : NULL;
  if (!f) { PyErr_Clear(); return s; }
  PyObject *g = NULL;
  s->ok = s->version && dynac_compat_namedtuple_new(f, n, &g);
  s->globals = g;
  s->globals_version = g ? DYNAC_DICT_VERSION(g) : 0;
  Py_DECREF(f);
  return s;
}
/* tp(*argv) of a tuple subclass: where namedtuple's own __new__ would run,
 * what it runs, `tuple.__new__(tp, (argv...))` (tuple_subtype_new: the same
 * instance), without its Python frame; a new reference. NULL with no
 * exception: call tp as CPython does; NULL with one: that error. The checks
 * are remembered per class (8 entries by version tag). */
static inline PyObject *dynac__namedtuple_made(PyTypeObject *tp, PyObject *const *argv, Py_ssize_t n) {
  static dynac_namedtuple_seen seen[8];
  dynac_namedtuple_seen *s = &seen[tp->tp_version_tag & 7]; /* tags are handed out in turn */
  if (s->tp != tp || s->version != tp->tp_version_tag || !s->version || s->n != n)
    s = dynac__namedtuple_check(seen, tp, n);
  if (!s->ok || DYNAC_DICT_VERSION(s->globals) != s->globals_version) return NULL;
  PyObject *items = PyTuple_New(n), *args = items ? PyTuple_New(1) : NULL, *r = NULL;
  if (args) {
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(items, i, Py_NewRef(argv[i]));
    PyTuple_SET_ITEM(args, 0, items);
    r = PyTuple_Type.tp_new(tp, args, NULL);
    Py_DECREF(args);
  } else {
    Py_XDECREF(items);
  }
  return r;
}

/* f(*argv) of an object f, as PyObject_Vectorcall(f, argv, nargsf,
 * kwnames): a namedtuple class's instance made as its __new__ makes it
 * (dynac__namedtuple_made); where the caller set
 * PY_VECTORCALL_ARGUMENTS_OFFSET (argv[-1] is then its to lend: written
 * during the call, then restored), a class with a plain __init__ is
 * constructed directly; else CPython's call. Arguments borrowed; a new
 * reference, or NULL with the exception. */
static inline PyObject *dynac_call_object(PyObject *f, PyObject *const *argv, size_t nargsf, PyObject *kwnames) {
  if (!kwnames && Py_TYPE(f) == &PyType_Type && f != (PyObject *)&PyTuple_Type &&
      PyType_HasFeature((PyTypeObject *)f, Py_TPFLAGS_TUPLE_SUBCLASS)) {
    PyObject *made = dynac__namedtuple_made((PyTypeObject *)f, argv, PyVectorcall_NARGS(nargsf));
    if (made || PyErr_Occurred()) return made;
  }
  PyObject *init = nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET ? dynac__plain_init(f) : NULL;
  if (!init) return PyObject_Vectorcall(f, argv, nargsf, kwnames);
  PyObject **a = (PyObject **)argv - 1, *kept = a[0];
  size_t n = PyVectorcall_NARGS(nargsf) + (kwnames ? (size_t)PyTuple_GET_SIZE(kwnames) : 0);
  PyObject *r = dynac__construct((PyTypeObject *)f, init, a, n, kwnames);
  a[0] = kept;
  return r;
}

static inline PyObject *dynac_call_object_ex(PyObject *f, PyObject *args, PyObject *kw);

/* The items of tuple t, in place (borrowed: t holds them). */
static inline PyObject *const *dynac_tuple_items(PyObject *t) { return &PyTuple_GET_ITEM(t, 0); }
/* A new tuple of the n values at items (borrowed), as CPython's call makes
 * a def's *args: a kernel whose *args only spreads took the caller's values
 * instead (generator/analysis/star_args.c), and this is the tuple where the
 * interpreter needs one (a continuation). A new reference, or NULL with
 * MemoryError. */
static inline PyObject *dynac_tuple_of(PyObject *const *items, Py_ssize_t n) {
  PyObject *t = PyTuple_New(n);
  for (Py_ssize_t i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(items[i]));
  return t;
}

/* f(p[0], ..., p[npos-1], items[0], ..., items[nitems-1]) of an object f:
 * the values of a call that spreads a tuple, or the values a kernel's
 * *args took without one (generator/analysis/star_args.c), from a C
 * array (up to 15 in all; more go in a tuple, as CALL_FUNCTION_EX passes
 * them). Arguments borrowed; a new reference, or NULL with the exception. */
static inline PyObject *dynac_call_vector(PyObject *f, PyObject *const *p, int npos, PyObject *const *items,
                                          Py_ssize_t nitems) {
  if (npos + nitems < 16) {
    PyObject *a[17] = {NULL};
    Py_ssize_t n = npos;
    for (int i = 0; i < npos; i++) a[i + 1] = p[i];
    for (Py_ssize_t i = 0; i < nitems; i++) a[++n] = items[i];
    return dynac_call_object(f, a + 1, (size_t)n | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
  }
  PyObject *args = PyTuple_New(npos + nitems), *r;
  if (!args) return NULL;
  for (int i = 0; i < npos; i++) PyTuple_SET_ITEM(args, i, Py_NewRef(p[i]));
  for (Py_ssize_t i = 0; i < nitems; i++) PyTuple_SET_ITEM(args, npos + i, Py_NewRef(items[i]));
  r = PyObject_Call(f, args, NULL);
  Py_DECREF(args);
  return r;
}

/* f(p[0], ..., p[npos-1], *star) of an object f (CALL_FUNCTION_EX whose
 * positional tuple is the values then star's items; no keywords): an exact
 * tuple `star` (its items borrowed: it holds them) goes with the values to
 * dynac_call_vector; anything else is gathered as CPython gathers it
 * (dynac_call_extend: star iterated, its errors) and called with
 * dynac_call_object_ex. Arguments borrowed; a new reference, or NULL with
 * the exception. */
static inline PyObject *dynac_call_star(PyObject *f, PyObject *const *p, int npos, PyObject *star) {
  if (PyTuple_CheckExact(star))
    return dynac_call_vector(f, p, npos, dynac_tuple_items(star), PyTuple_GET_SIZE(star));
  PyObject *list = PyList_New(0), *args = NULL, *r = NULL;
  if (!list) return NULL;
  int ok = 1;
  for (int i = 0; ok && i < npos; i++) ok = PyList_Append(list, p[i]) == 0;
  if (ok && dynac_call_extend(list, star, npos ? NULL : f) == 0 && (args = PyList_AsTuple(list)))
    r = dynac_call_object_ex(f, args, NULL);
  Py_DECREF(list);
  Py_XDECREF(args);
  return r;
}

/* The argument tuple of cls(p[0], ..., p[n-1], *items) for its tp_init
 * (items: m borrowed values, the items of an exact tuple or a kernel's
 * *args): the values stolen (a NULL among them, a failed boxing: NULL,
 * its exception set), the items new references. A new reference, or NULL
 * with the exception. */
static inline PyObject *dynac_args_tuple(PyObject **p, int n, PyObject *const *items, Py_ssize_t m) {
  int ok = 1;
  for (int i = 0; i < n; i++) ok &= p[i] != NULL;
  PyObject *t = ok ? PyTuple_New(n + m) : NULL;
  for (int i = 0; i < n; i++) {
    if (t) PyTuple_SET_ITEM(t, i, p[i]);
    else Py_XDECREF(p[i]);
  }
  for (Py_ssize_t i = 0; t && i < m; i++) PyTuple_SET_ITEM(t, n + i, Py_NewRef(items[i]));
  return t;
}

/* o.append(v) through what LOAD_METHOD found (meth; unbound: it takes
 * argv[0] = o first; argv = {o, v}, npos 2): an exact list's append in C,
 * as CPython 3.11's PRECALL_NO_KW_LIST_APPEND (an exact list's append is
 * always list.append: builtin types cannot be patched); else the call. A
 * new reference (None), or NULL with the exception. */
static inline PyObject *dynac_call_list_append(PyObject *meth, PyObject *const *argv, int unbound, int npos) {
  if (unbound && PyList_CheckExact(argv[0]))
    return PyList_Append(argv[0], argv[1]) < 0 ? NULL : Py_NewRef(Py_None);
  return PyObject_Vectorcall(meth, argv + !unbound, (size_t)(npos - !unbound), NULL);
}
/* o.pop() / o.pop(i) the same way: an exact list's item at a one-digit
 * index in range (counted from the end when negative) taken out as
 * list_pop_impl takes it (list_ass_slice); an empty list, an index out of
 * range or not a small int: the call (CPython's IndexError, TypeError). */
static inline PyObject *dynac_call_list_pop(PyObject *meth, PyObject *const *argv, int unbound, int npos) {
  long i = -1;
  if (unbound && PyList_CheckExact(argv[0]) && (npos == 1 || dynac_compat_small_int(argv[1], &i))) {
    Py_ssize_t n = PyList_GET_SIZE(argv[0]), k = i < 0 ? i + n : i;
    if (k >= 0 && k < n) {
      return dynac_compat_list_take(argv[0], k, 0);
    }
  }
  return PyObject_Vectorcall(meth, argv + !unbound, (size_t)(npos - !unbound), NULL);
}

/* f(*args, **kw) of an object f (CALL_FUNCTION_EX: args an exact tuple, kw
 * a dict or NULL), as PyObject_Call; without keywords and with up to 15
 * arguments, through dynac_call_star (a class with a plain __init__
 * constructed directly). Arguments borrowed; a new reference, or NULL with
 * the exception. */
static inline PyObject *dynac_call_object_ex(PyObject *f, PyObject *args, PyObject *kw) {
  if ((kw && PyDict_GET_SIZE(kw)) || PyTuple_GET_SIZE(args) >= 16) return PyObject_Call(f, args, kw);
  return dynac_call_star(f, NULL, 0, args);
}

/* iter(v) for unpacking (a new reference), or NULL with the exception:
 * unpack_iterable's TypeError "cannot unpack non-iterable int object" for a
 * value neither iterable nor a sequence. */
static inline PyObject *dynac__unpack_iter(PyObject *v) {
  PyObject *it = PyObject_GetIter(v);
  if (!it && PyErr_ExceptionMatches(PyExc_TypeError) && Py_TYPE(v)->tp_iter == NULL && !PySequence_Check(v))
    PyErr_Format(PyExc_TypeError, "cannot unpack non-iterable %.200s object", Py_TYPE(v)->tp_name);
  return it;
}

/* a, b, ... = v of an object (UNPACK_SEQUENCE): out[0..n-1] get new
 * references to its n items, in order. An exact tuple or list of length n
 * is read directly; anything else is iterated, with CPython's errors
 * ("cannot unpack non-iterable int object", "not enough values to unpack
 * (expected 2, got 1)", "too many values to unpack (expected 2)").
 * *effects is set when an iterator's Python code may run. 0, or -1 with an
 * exception (out then holds no references). */
static inline int dynac_unpack(PyObject *v, int n, PyObject **out, int *effects) {
  if ((PyTuple_CheckExact(v) && PyTuple_GET_SIZE(v) == n) || (PyList_CheckExact(v) && PyList_GET_SIZE(v) == n)) {
    PyObject **items = PyTuple_CheckExact(v) ? &PyTuple_GET_ITEM(v, 0) : PySequence_Fast_ITEMS(v);
    for (int i = 0; i < n; i++) out[i] = Py_NewRef(items[i]);
    return 0;
  }
  dynac_python_may_run(effects);
  PyObject *it = dynac__unpack_iter(v);
  if (!it) return -1;
  int got = 0;
  while (got < n && (out[got] = PyIter_Next(it))) got++;
  if (got < n) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected %d, got %d)", n, got);
  } else {
    PyObject *extra = PyIter_Next(it);
    if (!extra && !PyErr_Occurred()) {
      Py_DECREF(it);
      return 0;
    }
    if (extra) {
      Py_DECREF(extra);
      PyErr_Format(PyExc_ValueError, "too many values to unpack (expected %d)", n);
    }
  }
  for (int i = 0; i < got; i++) Py_CLEAR(out[i]);
  Py_DECREF(it);
  return -1;
}

/* a, *b, c = v of an object (UNPACK_EX, as CPython 3.11's unpack_iterable
 * does it): out[0..before-1] get the first items, out[before] a new list of
 * the items between, out[before+1..before+after] the last `after` items (new
 * references). CPython's errors: "cannot unpack non-iterable int object",
 * "not enough values to unpack (expected at least 2, got 1)". *effects is
 * set unless v is an exact list or tuple (an iterator's Python code may
 * run). 0, or -1 with an exception (out then holds no references). */
static inline int dynac_unpack_ex(PyObject *v, int before, int after, PyObject **out, int *effects) {
  if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) dynac_python_may_run(effects);
  PyObject *it = dynac__unpack_iter(v), *rest = NULL;
  if (!it) return -1;
  int got = 0;
  while (got < before && (out[got] = PyIter_Next(it))) got++;
  if (got < before) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected at least %d, got %d)", before + after, got);
  } else if ((rest = PySequence_List(it))) {
    Py_ssize_t n = PyList_GET_SIZE(rest);
    if (n >= after) { /* the last items move out of the list, which keeps its allocation (Py_SET_SIZE) */
      for (int j = 0; j < after; j++) out[before + 1 + j] = PyList_GET_ITEM(rest, n - after + j);
      Py_SET_SIZE(rest, n - after);
      out[before] = rest;
      Py_DECREF(it);
      return 0;
    }
    PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected at least %d, got %zd)", before + after,
                 before + n);
    Py_DECREF(rest);
  }
  for (int i = 0; i < got; i++) Py_CLEAR(out[i]);
  Py_DECREF(it);
  return -1;
}

/* The iterator of enumerate(it[, start]), zip(a, b, ...) or reversed(seq)
 * of objects (how: 'e', 'z', 'r'): the builtin type called with args[0..n-1]
 * (borrowed), as the loop's iterable; a new reference, or NULL with an
 * exception. */
static inline PyObject *dynac_obj_loop_builtin(char how, PyObject *const *args, Py_ssize_t n, int *effects) {
  dynac_python_may_run(effects); /* the argument's __iter__ or __reversed__ may run */
  PyTypeObject *t = how == 'e' ? &PyEnum_Type : how == 'z' ? &PyZip_Type : &PyReversed_Type;
  return PyObject_Vectorcall((PyObject *)t, args, (size_t)n, NULL);
}

/* del o.name (DELETE_ATTR; name borrowed). 0, or -1 with an exception. */
static inline int dynac_obj_delattr(PyObject *o, PyObject *name, int *effects) {
  dynac_python_may_run(effects);
  return PyObject_DelAttr(o, name);
}
/* del o[key] (DELETE_SUBSCR; key borrowed, NULL: a failed box, -1). 0, or
 * -1 with an exception. */
static inline int dynac_obj_delitem(PyObject *o, PyObject *key, int *effects) {
  if (!key) return -1;
  dynac_python_may_run(effects);
  return PyObject_DelItem(o, key);
}
/* a OP= b for the generator's binop numbering: PyNumber_InPlaceAdd, ...
 * (a list's += extends it; an int's falls back to +). New reference. */
static inline PyObject *dynac_obj_inplace(PyObject *a, PyObject *b, int op, int *effects) {
  int done;
  PyObject *f = dynac__exact_number_op(a, b, op, &done);
  if (done) return f;
  dynac__obj_effect(a, b, effects);
  switch (op) {
  case 0: return PyNumber_InPlaceAdd(a, b);
  case 1: return PyNumber_InPlaceSubtract(a, b);
  case 2: return PyNumber_InPlaceMultiply(a, b);
  case 3: return PyNumber_InPlaceTrueDivide(a, b);
  case 4: return PyNumber_InPlaceFloorDivide(a, b);
  case 5: return PyNumber_InPlaceRemainder(a, b);
  case 6: return PyNumber_InPlacePower(a, b, Py_None);
  case 7: return PyNumber_InPlaceLshift(a, b);
  case 8: return PyNumber_InPlaceRshift(a, b);
  case 9: return PyNumber_InPlaceAnd(a, b);
  case 10: return PyNumber_InPlaceOr(a, b);
  case 11: return PyNumber_InPlaceXor(a, b);
  default: return PyNumber_InPlaceMatrixMultiply(a, b);
  }
}
/* The interned str for `text` (UTF-8), made once into *cache (kept for the
 * process, as the interpreter keeps a code object's co_names): borrowed, or
 * NULL with MemoryError. */
static inline PyObject *dynac_name(PyObject **cache, const char *text) {
  if (!*cache) *cache = PyUnicode_InternFromString(text);
  return *cache;
}
/* iter(o) (PyObject_GetIter: a new reference, NULL with CPython's TypeError). */
static inline PyObject *dynac_obj_iter(PyObject *o, int *effects) {
  if (!(PyList_CheckExact(o) || PyTuple_CheckExact(o) || PyDict_CheckExact(o) ||
        PyAnySet_CheckExact(o) || PyUnicode_CheckExact(o) || PyRange_Check(o)))
    dynac_python_may_run(effects);
  return PyObject_GetIter(o);
}
/* The iterator's next item (a new reference); NULL when it is exhausted
 * (no exception set: StopIteration is cleared, as FOR_ITER does) or with
 * the exception its __next__ raised. */
static inline PyObject *dynac_obj_next(PyObject *it, int *effects) {
  PyTypeObject *t = Py_TYPE(it);
  if (t != &PyListIter_Type && t != &PyTupleIter_Type && t != &PyRangeIter_Type &&
      t != &PyDictIterKey_Type && t != &PyUnicodeIter_Type && t != &PySetIter_Type)
    dynac_python_may_run(effects);
  PyObject *x = t->tp_iternext(it);
  if (!x && PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_StopIteration)) PyErr_Clear();
  return x;
}
/* A str literal with no prefix, escape or implicit concatenation ('a b',
 * """x"""): its text between the quotes, decoded from UTF-8 (a new
 * reference, NULL with an exception); *plain = 0 and NULL for any other source. */
static inline PyObject *dynac__plain_str_literal(const char *s, int *plain) {
  size_t n = strlen(s), k;
  char q = s[0];
  *plain = 0;
  if (q != '\'' && q != '"') return NULL;
  k = n >= 6 && s[1] == q && s[2] == q ? 3 : 1;
  if (n < 2 * k) return NULL;
  for (size_t i = n - k; i < n; i++) if (s[i] != q) return NULL;
  for (size_t i = k; i < n - k; i++) if (s[i] == '\\' || s[i] == q || s[i] == '\r') return NULL;
  *plain = 1;
  return PyUnicode_DecodeUTF8(s + k, (Py_ssize_t)(n - 2 * k), NULL);
}
/* The value of a literal the kernel uses as an object, from its source text
 * (UTF-8): a str or bytes literal (prefixes, escapes and implicit
 * concatenation as written), an int beyond int64, an imaginary literal or
 * `...`, made as the compiler makes the constant: plain str and int literals
 * directly, the rest by compiling and evaluating the literal (no module
 * imported). A new reference, NULL with an exception. */
static inline PyObject *dynac_literal(const char *source) {
  int plain;
  PyObject *v = dynac__plain_str_literal(source, &plain);
  if (plain) return v;
  if (source[0] >= '0' && source[0] <= '9' && !strpbrk(source, "jJ.eE"))
    return PyLong_FromString(source, NULL, 0); /* 0x.., 0o.., 0b.., underscores: as the tokenizer reads them */
  PyObject *code = Py_CompileString(source, "<dynac literal>", Py_eval_input);
  if (!code) return NULL;
  PyObject *globals = PyDict_New();
  v = globals ? PyEval_EvalCode(code, globals, NULL) : NULL;
  Py_XDECREF(globals);
  Py_DECREF(code);
  return v;
}
/* One step of sum() of a generator of objects, as builtin_sum's generic
 * path takes it: *acc = *acc + item (PyNumber_Add; its int and float fast
 * paths give the same values). item: a new reference, consumed (NULL: a
 * failed box). 0, or -1 with CPython's exception. Python code may run
 * (*effects set), unless both are of builtin types (dynac_obj_pure). */
static inline int dynac_fold_sum(PyObject **acc, PyObject *item, int *effects) {
  if (!item) return -1;
  dynac__obj_effect(*acc, item, effects);
  PyObject *r = PyNumber_Add(*acc, item);
  Py_DECREF(item);
  if (!r) return -1;
  Py_SETREF(*acc, r);
  return 0;
}
/* One step of min() (op Py_LT) or max() (op Py_GT) of a generator, as
 * builtin min_max takes it: the first item, then an item replaces *acc when
 * `item op *acc` is true (so the first of equal items stays). item: a new
 * reference, consumed. 0, or -1 with CPython's exception. */
static inline int dynac_fold_min_max(PyObject **acc, PyObject *item, int op, int *effects) {
  if (!item) return -1;
  if (!*acc) { *acc = item; return 0; }
  dynac_python_may_run(effects);
  int better = PyObject_RichCompareBool(item, *acc, op);
  if (better < 0) { Py_DECREF(item); return -1; }
  if (better) Py_SETREF(*acc, item); else Py_DECREF(item);
  return 0;
}
/* item in container (PySequence_Contains, as CONTAINS_OP does): 1, 0, or -1
 * with CPython's exception. A str in a str, and a dict's, set's or
 * frozenset's str or int keys, run no Python code. */
static inline int dynac_obj_contains(PyObject *container, PyObject *item, int *effects) {
  if (!((PyUnicode_CheckExact(container) && PyUnicode_CheckExact(item)) ||
        ((PyDict_CheckExact(container) || PyAnySet_CheckExact(container)) &&
         (PyUnicode_CheckExact(item) || PyLong_CheckExact(item)))))
    dynac_python_may_run(effects);
  return PySequence_Contains(container, item);
}
/* The kwnames tuple of a call site's keyword arguments (n names, UTF-8),
 * made once into *cache and kept for the process: borrowed, or NULL with
 * MemoryError. */
static inline PyObject *dynac_kwnames(PyObject **cache, int n, const char *const *names) {
  if (*cache) return *cache;
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *s = PyUnicode_InternFromString(names[i]);
    if (!s) Py_CLEAR(t);
    else PyTuple_SET_ITEM(t, i, s);
  }
  return *cache = t;
}

/* tp.__init__(obj, *argv[:n - nkw], **dict(zip(kwnames, argv[n - nkw:])))
 * as type_call runs it (tp->tp_init with an argument tuple and a keyword
 * dict; kwnames: the call's tuple of nkw names, or NULL): the __init__ of
 * a construction whose kernel handed it back. argv borrowed, none NULL.
 * 0, or -1 with its exception. */
static inline int dynac_init_interpreted(PyTypeObject *tp, PyObject *obj, PyObject *const *argv, Py_ssize_t n,
                                         PyObject *kwnames) {
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject *args = PyTuple_New(n - nkw), *kwds = nkw ? PyDict_New() : NULL;
  int r = args && (kwds || !nkw) ? 0 : -1;
  for (Py_ssize_t i = 0; args && i < n - nkw; i++) PyTuple_SET_ITEM(args, i, Py_NewRef(argv[i]));
  for (Py_ssize_t j = 0; !r && j < nkw; j++) r = PyDict_SetItem(kwds, PyTuple_GET_ITEM(kwnames, j), argv[n - nkw + j]);
  if (!r) r = tp->tp_init(obj, args, kwds);
  Py_XDECREF(args);
  Py_XDECREF(kwds);
  return r < 0 ? -1 : 0;
}

/* `raise exc from cause` as CPython's RAISE_VARARGS does it (ceval.c's
 * do_raise): a class is called with no arguments and must return an
 * instance, an instance is raised as it is, anything else is a TypeError;
 * a cause (NULL: no `from`) that is a class is called, None suppresses the
 * context. Both borrowed. Always returns -1 with an exception set (the
 * implicit __context__ chaining is PyErr_SetObject's). */
DYNAC_COLD int dynac_raise(PyObject *exc, PyObject *cause) {
  PyObject *value = NULL, *fixed_cause = NULL;
  if (PyExceptionClass_Check(exc)) {
    if (!(value = PyObject_CallNoArgs(exc))) return -1;
    if (!PyExceptionInstance_Check(value)) {
      PyErr_Format(PyExc_TypeError, "calling %R should have returned an instance of "
                   "BaseException, not %R", exc, Py_TYPE(value));
      Py_DECREF(value);
      return -1;
    }
  } else if (PyExceptionInstance_Check(exc)) {
    value = Py_NewRef(exc);
  } else {
    PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
    return -1;
  }
  if (cause) {
    if (PyExceptionClass_Check(cause)) {
      if (!(fixed_cause = PyObject_CallNoArgs(cause))) { Py_DECREF(value); return -1; }
    } else if (PyExceptionInstance_Check(cause)) {
      fixed_cause = Py_NewRef(cause);
    } else if (cause != Py_None) {
      PyErr_SetString(PyExc_TypeError, "exception causes must derive from BaseException");
      Py_DECREF(value);
      return -1;
    }
    PyException_SetCause(value, fixed_cause); /* steals; sets __suppress_context__ */
  }
  PyErr_SetObject((PyObject *)Py_TYPE(value), value);
  Py_DECREF(value);
  return -1;
}

/* A bare `raise`: the exception a caller is handling, raised again with its
 * own traceback (1: no entry is added for this frame, as RERAISE), or
 * CPython's RuntimeError when there is none (0: the caller adds the entry). */
DYNAC_COLD int dynac_reraise(void) {
  PyObject *e = dynac_compat_handled_exception();
  if (!e) {
    PyErr_SetString(PyExc_RuntimeError, "No active exception to reraise");
    return 0;
  }
  PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(e)), e, PyException_GetTraceback(e));
  return 1;
}

/* An f-string's replacement field, as CPython's FORMAT_VALUE makes it:
 * `conv` ('s' str, 'r' repr, 'a' ascii, or 0) applied to `v`, then
 * format(value, spec) (spec: a str, or NULL for none), except that an
 * exact str with no spec is the part itself. v and spec borrowed; a new
 * reference, or NULL with CPython's exception. Sets *effects when v is
 * not a value whose formatting runs no Python code. */
static inline PyObject *dynac_format_value(PyObject *v, char conv, PyObject *spec, int *effects) {
  if (*effects || !dynac_obj_pure(v, 0)) dynac_python_may_run(effects);
  PyObject *c = conv == 's' ? PyObject_Str(v) : conv == 'r' ? PyObject_Repr(v)
                : conv == 'a' ? PyObject_ASCII(v) : Py_NewRef(v);
  if (!c || (!spec && PyUnicode_CheckExact(c))) return c;
  PyObject *r = PyObject_Format(c, spec);
  Py_DECREF(c);
  return r;
}
/* The parts of an f-string (n str, borrowed) joined, as BUILD_STRING
 * joins them: a new reference, or NULL with an exception. */
static inline PyObject *dynac_build_string(PyObject *const *parts, int n) {
  PyObject *t = PyTuple_New(n);
  if (!t) return NULL;
  for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(parts[i]));
  PyObject *empty = PyUnicode_New(0, 0);
  PyObject *r = empty ? PyUnicode_Join(empty, t) : NULL;
  Py_XDECREF(empty);
  Py_DECREF(t);
  return r;
}

/* ---- imports inside functions ---------------------------------------------
 * IMPORT_NAME: `name` (a str) imported through the __import__ of the
 * builtins dict, as ceval's import_name calls it: (name, globals, None for a
 * function's locals, fromlist (a tuple of str, or None), level); a user's
 * replacement of builtins.__import__ is honoured. A new reference (the top
 * package for `import a.b`, the module itself with a fromlist), or NULL with
 * the exception the import system raised (ImportError "__import__ not
 * found" when the builtins have none). */
static inline PyObject *dynac_import_name(PyObject *globals, PyObject *builtins, PyObject *name,
                                          PyObject *fromlist, int level) {
  static PyObject *import_str;
  if (!dynac_name(&import_str, "__import__")) return NULL;
  PyObject *import = PyDict_GetItemWithError(builtins, import_str); /* borrowed */
  if (!import) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ImportError, "__import__ not found");
    return NULL;
  }
  PyObject *lvl = PyLong_FromLong(level);
  if (!lvl) return NULL;
  Py_INCREF(import);
  PyObject *args[5] = {name, globals, Py_None, fromlist, lvl};
  PyObject *r = PyObject_Vectorcall(import, args, 5, NULL);
  Py_DECREF(import);
  Py_DECREF(lvl);
  return r;
}

/* LOAD_BUILD_CLASS: the __build_class__ of the builtins dict (a class
 * statement calls it with the class body's function, the name, the bases
 * and keywords). A new reference, or NULL with NameError "__build_class__
 * not found" (3.11's message) when the builtins have none. */
static inline PyObject *dynac_load_build_class(PyObject *builtins) {
  static PyObject *build_class_str;
  if (!dynac_name(&build_class_str, "__build_class__")) return NULL;
  PyObject *bc = PyDict_GetItemWithError(builtins, build_class_str); /* borrowed */
  if (!bc && !PyErr_Occurred()) PyErr_SetString(PyExc_NameError, "__build_class__ not found");
  return Py_XNewRef(bc);
}

/* LOAD_DEREF of free variable `name` (UTF-8): the content of `cell`
 * (borrowed, from the closure of the function the kernel serves) as a new
 * reference, or NULL with the interpreter's NameError (.name set) when the
 * cell is empty (the enclosing function has not bound it yet, or deleted it). */
static inline PyObject *dynac_cell_deref(PyObject *cell, const char *name) {
  PyObject *v = PyCell_GET(cell);
  if (v) return Py_NewRef(v);
  PyErr_Format(PyExc_NameError, DYNAC_COMPAT_UNBOUND_FREE_MSG, name);
  PyObject *exc = dynac_compat_fetch_raised(), *n = PyUnicode_FromString(name);
  if (exc && n && PyObject_SetAttrString(exc, "name", n) < 0) PyErr_Clear();
  Py_XDECREF(n);
  if (exc) dynac_compat_restore_raised(exc);
  return NULL;
}

/* STORE_DEREF of a `nonlocal` name: `v` (borrowed) into `cell` (borrowed);
 * the old value is released after (its __del__ may run). */
static inline void dynac_cell_store(PyObject *cell, PyObject *v) {
  PyObject *old = PyCell_GET(cell);
  PyCell_SET(cell, Py_NewRef(v));
  Py_XDECREF(old);
}

/* DELETE_DEREF of `nonlocal` name `name`: empties `cell`; 0, or -1 with
 * the interpreter's NameError when it is empty already. */
static inline int dynac_cell_delete(PyObject *cell, const char *name) {
  PyObject *old = PyCell_GET(cell);
  if (!old) return dynac_cell_deref(cell, name) ? 0 : -1; /* raises its NameError */
  PyCell_SET(cell, NULL);
  Py_DECREF(old);
  return 0;
}

/* LOAD_DEREF of the function's own cell variable `name` (a local that
 * closures capture): the cell's content (a new reference), or NULL with the
 * interpreter's UnboundLocalError when it is empty. */
static inline PyObject *dynac_cellvar_deref(PyObject *cell, const char *name) {
  PyObject *v = PyCell_GET(cell);
  if (v) return Py_NewRef(v);
  PyErr_Format(PyExc_UnboundLocalError, DYNAC_COMPAT_UNBOUND_LOCAL_MSG, name);
  return NULL;
}

/* DELETE_DEREF of the function's own cell variable: empties `cell`; 0, or
 * -1 with UnboundLocalError when it is empty already. */
static inline int dynac_cellvar_delete(PyObject *cell, const char *name) {
  PyObject *old = PyCell_GET(cell);
  if (!old) return dynac_cellvar_deref(cell, name) ? 0 : -1;
  PyCell_SET(cell, NULL);
  Py_DECREF(old);
  return 0;
}

/* The cells a continuation reads its free variables from: those of
 * `closure` (borrowed, or NULL), then the n cells `own` (borrowed) of the
 * kernel's own cell variables. A new tuple, or NULL with MemoryError. */
static inline PyObject *dynac_closure_with(PyObject *closure, int n, PyObject *const *own) {
  Py_ssize_t k = closure ? PyTuple_GET_SIZE(closure) : 0;
  PyObject *t = PyTuple_New(k + n);
  for (Py_ssize_t i = 0; t && i < k + n; i++)
    PyTuple_SET_ITEM(t, i, Py_NewRef(i < k ? PyTuple_GET_ITEM(closure, i) : own[i - k]));
  return t;
}

/* super() without arguments, which reads the calling frame: here the
 * kernel gives what 3.11's super_init_without_args reads from it, the
 * __class__ cell (borrowed) and the first parameter's current value
 * (borrowed). `super_fn` is what LOAD_GLOBAL super found (borrowed): a
 * replacement of builtins.super is called with no arguments, as the
 * interpreter calls it. A new reference, or NULL with CPython's
 * RuntimeError ("super(): empty __class__ cell", "... is not a type") or
 * super's own errors. */
static inline PyObject *dynac_super(PyObject *super_fn, PyObject *class_cell, PyObject *self) {
  if (super_fn != (PyObject *)&PySuper_Type) return PyObject_CallNoArgs(super_fn);
  PyObject *cls = PyCell_GET(class_cell);
  if (!cls) {
    PyErr_SetString(PyExc_RuntimeError, "super(): empty __class__ cell");
    return NULL;
  }
  if (!PyType_Check(cls)) {
    PyErr_Format(PyExc_RuntimeError, "super(): __class__ is not a type (%s)", Py_TYPE(cls)->tp_name);
    return NULL;
  }
  PyObject *argv[2] = {cls, self};
  return PyObject_Vectorcall(super_fn, argv, 2, NULL);
}

/* Is module spec `spec` (NULL: none) still running its module's code
 * (spec._initializing true, as 3.11's _PyModuleSpec_IsInitializing reads
 * it; errors read as no)? */
static inline int dynac__spec_initializing(PyObject *spec) {
  if (!spec) return 0;
  PyObject *v = PyObject_GetAttrString(spec, "_initializing");
  int r = v ? PyObject_IsTrue(v) : 0;
  Py_XDECREF(v);
  if (r < 0 || !v) PyErr_Clear();
  return r > 0;
}

/* IMPORT_FROM: attribute `name` (a str) of module `v`, or else the
 * submodule sys.modules["<v.__name__>.<name>"] (a circular import's
 * fallback, CPython issue #17636), as ceval's import_from. A new reference,
 * or NULL with its ImportError ("cannot import name 'x' from 'm' (path)",
 * "... from partially initialized module ...", "(unknown location)"), or an
 * error other than AttributeError that getattr raised. */
static inline PyObject *dynac_import_from(PyObject *v, PyObject *name) {
  static PyObject *name_str, *spec_str;
  if (!dynac_name(&name_str, "__name__") || !dynac_name(&spec_str, "__spec__")) return NULL;
  PyObject *x = PyObject_GetAttr(v, name);
  if (x || !PyErr_ExceptionMatches(PyExc_AttributeError)) return x;
  PyErr_Clear();
  PyObject *pkgname = PyObject_GetAttr(v, name_str);
  if (pkgname && !PyUnicode_Check(pkgname)) Py_CLEAR(pkgname);
  if (pkgname) {
    PyObject *full = PyUnicode_FromFormat("%U.%U", pkgname, name);
    if (!full) { Py_DECREF(pkgname); return NULL; }
    x = PyImport_GetModule(full);
    Py_DECREF(full);
    if (x || PyErr_Occurred()) { Py_DECREF(pkgname); return x; }
  }
  PyObject *pkgpath = PyModule_GetFilenameObject(v);
  PyObject *shown = pkgname ? Py_NewRef(pkgname) : PyUnicode_FromString("<unknown module name>");
  PyObject *msg = NULL;
  if (shown && (!pkgpath || !PyUnicode_Check(pkgpath))) {
    PyErr_Clear();
    msg = PyUnicode_FromFormat("cannot import name %R from %R (unknown location)", name, shown);
    dynac_compat_set_import_error(msg, pkgname, NULL, name);
  } else if (shown) {
    PyObject *spec = PyObject_GetAttr(v, spec_str);
    if (!spec) PyErr_Clear();
    msg = PyUnicode_FromFormat(dynac__spec_initializing(spec) ?
                               "cannot import name %R from partially initialized module %R "
                               "(most likely due to a circular import) (%S)" :
                               "cannot import name %R from %R (%S)", name, shown, pkgpath);
    Py_XDECREF(spec);
    dynac_compat_set_import_error(msg, pkgname, pkgpath, name);
  }
  Py_XDECREF(msg);
  Py_XDECREF(shown);
  Py_XDECREF(pkgname);
  Py_XDECREF(pkgpath);
  return NULL;
}

/* ---- functions made inside kernels ------------------------------------------
 * MAKE_FUNCTION of a nested def or lambda, as the interpreter makes it:
 * PyFunction_New(code, globals) (its __qualname__ the code's, its
 * __module__ and builtins from globals), then the closure, the positional
 * defaults (a tuple), the keyword-only defaults and the annotations (dicts)
 * when given (NULL: none). `code` is the nested code object the artifact's
 * attach step found (NULL: not attached: SystemError). The closure is built
 * in the order of the code's co_freevars, each free variable's cell found
 * by name among the `ncells` the kernel offers (names[i] -> cells[i]). All
 * borrowed; a new reference, or NULL with an exception. */
/* The closure of a function of `code`: per name of co_freevars, the cell
 * offered under that name. 0, or -1 with SystemError (no cell offered). */
static inline int dynac__set_closure(PyObject *fn, PyObject *code, const char *qualname, int ncells,
                                     const char *const *names, PyObject *const *cells) {
  PyObject *freevars = PyCode_GetFreevars((PyCodeObject *)code);
  if (!freevars) return -1;
  Py_ssize_t nfree = PyTuple_GET_SIZE(freevars);
  PyObject *closure = nfree ? PyTuple_New(nfree) : NULL;
  int r = nfree && !closure ? -1 : 0;
  for (Py_ssize_t i = 0; closure && i < nfree && !r; i++) {
    PyObject *cell = NULL;
    for (int k = 0; k < ncells && !cell; k++)
      if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(freevars, i), names[k]) == 0) cell = cells[k];
    if (cell) PyTuple_SET_ITEM(closure, i, Py_NewRef(cell));
    else {
      PyErr_Format(PyExc_SystemError, "dynac: no cell for free variable %R of %s", PyTuple_GET_ITEM(freevars, i),
                   qualname);
      r = -1;
    }
  }
  if (closure && !r) r = PyFunction_SetClosure(fn, closure);
  Py_XDECREF(closure);
  Py_DECREF(freevars);
  return r;
}

static inline PyObject *dynac_make_function(PyObject *code, const char *qualname, PyObject *globals, int ncells,
                                            const char *const *names, PyObject *const *cells,
                                            PyObject *defaults, PyObject *kwdefaults, PyObject *annotations) {
  if (!code) {
    PyErr_Format(PyExc_SystemError, "dynac: the code object of %s was not found when the artifact was attached",
                 qualname);
    return NULL;
  }
  PyObject *fn = PyFunction_New(code, globals);
  if (fn && (dynac__set_closure(fn, code, qualname, ncells, names, cells) < 0 ||
             (defaults && PyFunction_SetDefaults(fn, defaults) < 0) ||
             (kwdefaults && PyFunction_SetKwDefaults(fn, kwdefaults) < 0) ||
             (annotations && PyFunction_SetAnnotations(fn, annotations) < 0)))
    Py_CLEAR(fn);
  return fn;
}
/* ==== End runtime/objects.h ==== */
/* ==== Begin runtime/heapq.h ==== */
/* runtime/heapq.h: heapq.heappush / heappop with the module's compiled __lt__. A part of single_include/dynac.h (make single_include). */
/* ---- heapq with compiled comparisons ---------------------------------------
 * A kernel's `heapq.heappush(h, x)` / `heapq.heappop(h)` calls CPython's
 * _heapq, whose every comparison goes PyObject_RichCompareBool ->
 * slot_tp_richcompare -> the function's vectorcall -> the dispatcher ->
 * the __lt__ kernel's glue (~700 instructions: scheduler.py's event queue
 * spent a fifth of its time there). When the callable is _heapq's own
 * function (looked up by identity: a patched heapq.heappush is called as
 * it is), the kernel runs the same algorithm here, with the generated
 * module's `less` (generator/emit/heap.c): the compiled __lt__ of the
 * classes whose __lt__ it is, called directly, else CPython's comparison.
 * The sift loops are _heapqmodule.c's (CPython 3.11): the same
 * comparisons in the same order, the same swaps, and the same errors
 * (TypeError for a heap that is not a list, IndexError for an empty one,
 * RuntimeError when a comparison changed the list's size). */

/* a < b as PyObject_RichCompareBool(a, b, Py_LT) gives it: 1, 0, or -1 with an exception. */
typedef int (*dynac_less_fn)(PyObject *a, PyObject *b);

enum { DYNAC_HEAPPUSH, DYNAC_HEAPPOP };

/* _heapq's heappush / heappop (borrowed: the module keeps them), NULL while
 * _heapq is not imported. Only sys.modules is asked: no import runs. */
static inline PyObject *dynac__heapq_function(int which) {
  static PyObject *fn[2], *name;
  if (!fn[which]) { /* until found: a heap whose _heapq is blocked (None) asks each call */
    if (!name) name = PyUnicode_InternFromString("_heapq"); /* kept */
    PyObject *mod = name ? PyImport_GetModule(name) : NULL;
    if (mod) {
      fn[which] = PyObject_GetAttrString(mod, which == DYNAC_HEAPPUSH ? "heappush" : "heappop"); /* kept */
      Py_DECREF(mod);
    }
    PyErr_Clear();
  }
  return fn[which];
}

/* The item at pos moves towards the root (startpos) while it is less than
 * its parent. 0, or -1 with an exception. */
static inline int dynac__heap_siftdown(PyObject *heap, Py_ssize_t startpos, Py_ssize_t pos,
                                       dynac_less_fn less) {
  Py_ssize_t size = PyList_GET_SIZE(heap);
  if (pos >= size) {
    PyErr_SetString(PyExc_IndexError, "index out of range");
    return -1;
  }
  while (pos > startpos) {
    Py_ssize_t parentpos = (pos - 1) >> 1;
    PyObject **items = ((PyListObject *)heap)->ob_item;
    PyObject *item = Py_NewRef(items[pos]), *parent = Py_NewRef(items[parentpos]);
    int lt = less(item, parent); /* held: the comparison may change the list */
    Py_DECREF(parent);
    Py_DECREF(item);
    if (lt < 0) return -1;
    if (size != PyList_GET_SIZE(heap)) {
      PyErr_SetString(PyExc_RuntimeError, "list changed size during iteration");
      return -1;
    }
    if (!lt) break;
    items = ((PyListObject *)heap)->ob_item; /* the items, as they are now */
    parent = items[parentpos];
    items[parentpos] = items[pos];
    items[pos] = parent;
    pos = parentpos;
  }
  return 0;
}

/* The smaller child moves up from pos until a leaf, then the item there
 * sifts down towards pos. 0, or -1 with an exception. */
static inline int dynac__heap_siftup(PyObject *heap, Py_ssize_t pos, dynac_less_fn less) {
  Py_ssize_t endpos = PyList_GET_SIZE(heap), startpos = pos, limit = endpos >> 1;
  if (pos >= endpos) {
    PyErr_SetString(PyExc_IndexError, "index out of range");
    return -1;
  }
  while (pos < limit) {
    Py_ssize_t childpos = 2 * pos + 1;
    if (childpos + 1 < endpos) {
      PyObject **items = ((PyListObject *)heap)->ob_item;
      PyObject *left = Py_NewRef(items[childpos]), *right = Py_NewRef(items[childpos + 1]);
      int lt = less(left, right);
      Py_DECREF(right);
      Py_DECREF(left);
      if (lt < 0) return -1;
      childpos += lt ? 0 : 1; /* the right child when the left is not less */
      if (endpos != PyList_GET_SIZE(heap)) {
        PyErr_SetString(PyExc_RuntimeError, "list changed size during iteration");
        return -1;
      }
    }
    PyObject **items = ((PyListObject *)heap)->ob_item;
    PyObject *child = items[childpos];
    items[childpos] = items[pos];
    items[pos] = child;
    pos = childpos;
  }
  return dynac__heap_siftdown(heap, startpos, pos, less);
}

/* heapq.heappush(heap, item): None (a new reference) or NULL with an exception. */
static inline PyObject *dynac__heappush(PyObject *heap, PyObject *item, dynac_less_fn less) {
  if (!PyList_Check(heap)) {
    PyErr_SetString(PyExc_TypeError, "heap argument must be a list");
    return NULL;
  }
  if (PyList_Append(heap, item) < 0 || dynac__heap_siftdown(heap, 0, PyList_GET_SIZE(heap) - 1, less) < 0)
    return NULL;
  Py_RETURN_NONE;
}

/* heapq.heappop(heap): the smallest item (a new reference) or NULL with an exception. */
static inline PyObject *dynac__heappop(PyObject *heap, dynac_less_fn less) {
  if (!PyList_Check(heap)) {
    PyErr_SetString(PyExc_TypeError, "heap argument must be a list");
    return NULL;
  }
  Py_ssize_t n = PyList_GET_SIZE(heap);
  if (n == 0) {
    PyErr_SetString(PyExc_IndexError, "index out of range");
    return NULL;
  }
  PyObject *last = dynac_compat_list_take(heap, n - 1, 0);
  if (!last) return NULL;
  if (n == 1) return last;
  PyObject *smallest = PyList_GET_ITEM(heap, 0); /* the list's reference, now ours */
  PyList_SET_ITEM(heap, 0, last);
  if (dynac__heap_siftup(heap, 0, less) < 0) {
    Py_DECREF(smallest);
    return NULL;
  }
  return smallest;
}

/* callable(*args) (n of them, borrowed) for a kernel's `.heappush(...)` /
 * `.heappop(...)` (which: DYNAC_HEAPPUSH, DYNAC_HEAPPOP): the algorithm
 * above with `less` when callable is _heapq's function and n its number
 * of arguments; else the call itself. A new reference, or NULL with an
 * exception. Where Python code may run (the call itself, a comparison
 * through CPython: dynac_rich_less, dynac_less_result), dynac__py_serial
 * is bumped there; the compiled comparisons' kernels bump it themselves. */
static inline PyObject *dynac_heapq_call(PyObject *callable, PyObject *const *args, Py_ssize_t n, int which,
                                         dynac_less_fn less) {
  if (n == (which == DYNAC_HEAPPUSH ? 2 : 1) && callable == dynac__heapq_function(which))
    return which == DYNAC_HEAPPUSH ? dynac__heappush(args[0], args[1], less) : dynac__heappop(args[0], less);
  dynac__py_serial++; /* Python code may run */
  return PyObject_Vectorcall(callable, args, (size_t)n, NULL);
}

/* The `less` a module's dynac__heap_less picked for a pair of classes,
 * remembered: the pick depends only on the two classes (identity, version
 * tags: a changed __lt__, __gt__ or __bases__ gives a new tag) and on the
 * module's slots (valid, the classes they name: refreshes counts their
 * re-reads), so while those are unchanged the same pair picks the same
 * kernel. A small direct-mapped table per module (an event queue compares
 * a few pairs of classes, alternating), keyed by the two version tags
 * alone, as CPython's method cache (Objects/typeobject.c) keys by one: a
 * tag comes from a counter that only grows (assign_version_tag; a changed
 * class gets a new one, a tag is never given twice), so two nonzero tags
 * name the two classes as they are now, and one compare tests both. */
typedef struct dynac_less_pick {
  uint64_t tags;       /* a's class's tp_version_tag << 32 | b's, neither 0 (0: an empty entry) */
  dynac_less_fn less;
} dynac_less_pick;
enum { DYNAC_LESS_PICKS = 64 };
typedef struct dynac_less_picks {
  uint64_t refreshes;  /* the module's dynac_globals.refreshes its entries were picked at */
  dynac_less_pick e[DYNAC_LESS_PICKS];
} dynac_less_picks;

/* The key of classes ta, tb (dynac_less_pick.tags; a 0 half: a class with no tag now). */
static inline uint64_t dynac_less_tags(PyTypeObject *ta, PyTypeObject *tb) {
  return (uint64_t)ta->tp_version_tag << 32 | tb->tp_version_tag;
}
/* The entry of table t for key `tags`: the pairs of up to 7 classes made
 * one after the other (consecutive tags) each have their own. */
static inline dynac_less_pick *dynac_less_pick_entry(dynac_less_picks *t, uint64_t tags) {
  return &t->e[((tags >> 32) * 7 + (uint32_t)tags) % DYNAC_LESS_PICKS];
}
/* A module's choice of `less` for a pair of classes (its dynac__heap_less_pick). */
typedef dynac_less_fn (*dynac_less_picker)(PyTypeObject *ta, PyTypeObject *tb);
/* a < b for a pair of classes t has no entry for (or of an older refresh):
 * `pick` chooses, the choice is remembered in the pair's entry (when both
 * classes have a tag; the entries of older refreshes dropped first), then
 * called. Out of line, so that dynac_less_through's hit needs no saved
 * registers: both its ways out are tail calls. */
DYNAC_COLD int dynac__less_miss(dynac_less_picks *t, uint64_t tags, uint64_t refreshes, dynac_less_picker pick,
                                PyObject *a, PyObject *b) {
  if (t->refreshes != refreshes) {
    memset(t->e, 0, sizeof t->e);
    t->refreshes = refreshes;
  }
  dynac_less_fn less = pick(Py_TYPE(a), Py_TYPE(b));
  if ((tags >> 32) && (uint32_t)tags) *dynac_less_pick_entry(t, tags) = (dynac_less_pick){tags, less};
  return less(a, b);
}
/* heapq's a < b through table t: 1, 0, or -1 with CPython's exception. The
 * pair's remembered `less` when its entry's key is theirs and t is of the
 * module's current refresh (`refreshes`), else dynac__less_miss. */
DYNAC_HOT_INLINE int dynac_less_through(dynac_less_picks *t, uint64_t refreshes, dynac_less_picker pick, PyObject *a,
                                        PyObject *b) {
  uint64_t tags = dynac_less_tags(Py_TYPE(a), Py_TYPE(b));
  const dynac_less_pick *e = dynac_less_pick_entry(t, tags);
  if (DYNAC_LIKELY(e->tags == tags && e->less && t->refreshes == refreshes)) return e->less(a, b);
  return dynac__less_miss(t, tags, refreshes, pick, a, b);
}
/* CPython's a < b, as a dynac_less_fn. */
static inline int dynac_rich_less(PyObject *a, PyObject *b) {
  dynac__py_serial++; /* Python code may run (a __lt__ of Python) */
  return PyObject_RichCompareBool(a, b, Py_LT);
}

/* Does CPython's a < b (do_richcompare) try b's reflected __gt__ first?
 * When b's class is a proper subclass of a's: PyType_IsSubtype's walk of
 * tb's MRO, inline (a heap's events: three classes, no call). */
static inline int dynac_reflected_first(PyTypeObject *ta, PyTypeObject *tb) {
  if (tb == ta) return 0;
  PyObject *mro = tb->tp_mro;
  if (!mro || !PyTuple_Check(mro)) return PyType_IsSubtype(tb, ta); /* not ready: its base chain */
  for (Py_ssize_t i = 1; i < PyTuple_GET_SIZE(mro); i++) /* item 0 is tb */
    if (PyTuple_GET_ITEM(mro, i) == (PyObject *)ta) return 1;
  return 0;
}
/* What CPython's a < b does once a's __lt__ returned `res` (a new
 * reference, stolen) and b's class is not a proper subclass of a's
 * (do_richcompare): NotImplemented tries b's reflected __gt__, then
 * raises TypeError; any other value is taken by its truth. 1, 0 or -1. */
static inline int dynac_less_result(PyObject *a, PyObject *b, PyObject *res) {
  dynac__py_serial++; /* a reflected __gt__, the result's __bool__: Python code may run */
  if (res == Py_NotImplemented) {
    Py_DECREF(res);
    richcmpfunc f = Py_TYPE(b)->tp_richcompare;
    res = f ? f(b, a, Py_GT) : Py_NewRef(Py_NotImplemented);
    if (!res) return -1;
    if (res == Py_NotImplemented) {
      Py_DECREF(res);
      PyErr_Format(PyExc_TypeError, "'<' not supported between instances of '%.100s' and '%.100s'",
                   Py_TYPE(a)->tp_name, Py_TYPE(b)->tp_name);
      return -1;
    }
  }
  int truth = PyBool_Check(res) ? res == Py_True : PyObject_IsTrue(res);
  Py_DECREF(res);
  return truth;
}
/* ==== End runtime/heapq.h ==== */
/* ==== Begin runtime/exceptions.h ==== */
/* runtime/exceptions.h: try/except inside kernels. A part of single_include/dynac.h (make single_include). */
/* ---- where a failure goes ------------------------------------------------
 * Every place a kernel may fail leaves through DYNAC_LEAVE(status). Outside
 * a try statement that is a return (the caller sees DYNAC_ERROR, or
 * DYNAC_DEOPT, ...). Around the body of a compiled try statement the
 * generated C redefines it (#undef / #define DYNAC_LEAVE(st)
 * DYNAC_LEAVE_TO(st, dynac_except_N)) so that an exception goes to that
 * statement's handlers while every other status still returns: the
 * preprocessor routes each failure by where it is written, as CPython
 * 3.11's exception table routes a failing instruction by its offset. */
#define DYNAC_LEAVE(st) return (st)
#define DYNAC_LEAVE_TO(st, handlers) \
  do { \
    int dynac__leave_st = (st); \
    if (dynac__leave_st == DYNAC_ERROR) goto handlers; \
    return dynac__leave_st; \
  } while (0)
/* In a loop's speculative copy (generator/emit/speculate.c) every way out
 * goes back to the loop's start in its checked copy, which meets the same
 * failure where the interpreter would (an exception is raised again). */
#define DYNAC_LEAVE_SPEC(st, fail) \
  do { \
    (void)(st); \
    PyErr_Clear(); \
    goto fail; \
  } while (0)

/* The exception an except clause is handling: what the interpreter keeps
 * on its value stack and in the thread's exc_info between PUSH_EXC_INFO
 * and POP_EXCEPT. `exc` (owned) is the exception; `outer` (owned, or
 * NULL) the one handled before, put back at the end; `name`/`bound`: the
 * local `as name` bound (or NULL), which the end unbinds as CPython's
 * `name = None; del name` does; `ended`: the end came already (a return
 * or break through a finally block ends it before the block runs). */
typedef struct dynac_handling {
  PyObject *exc, *outer;
  PyObject **name;
  bool *bound;
  bool ended;
} dynac_handling;

/* Takes the exception being raised (normalized, its traceback so far on
 * it) and makes it the one being handled (sys.exception(), the context of
 * exceptions raised in the handler): PUSH_EXC_INFO. */
static inline dynac_handling dynac_handling_begin(void) {
  dynac_handling h = {NULL, NULL, NULL, NULL, false};
  h.exc = dynac_compat_fetch_raised();
  h.outer = dynac_compat_handled_exception();
  PyErr_SetHandledException(h.exc);
  return h;
}

/* The end of the handler, however it is left (its C scope's cleanup: a
 * fall through, return, break, continue or an exception): the handled
 * exception before it is restored (POP_EXCEPT) and `as name` unbound.
 * Once only: later calls do nothing. */
static inline void dynac_handling_end(dynac_handling *h) {
  if (h->ended) return;
  h->ended = true;
  PyErr_SetHandledException(h->outer);
  Py_CLEAR(h->outer);
  Py_CLEAR(h->exc);
  if (h->name) Py_CLEAR(*h->name);
  if (h->bound) *h->bound = false;
}
#define DYNAC_HANDLING __attribute__((cleanup(dynac_handling_end))) dynac_handling

/* except CLS: does the handled exception match `cls` (a class, or a tuple
 * of classes)? 1 or 0, as CHECK_EXC_MATCH; -1 with CPython's TypeError
 * when cls (or an item of the tuple) is not an exception class. */
static inline int dynac_exception_matches(const dynac_handling *h, PyObject *cls) {
  int valid = 1;
  if (PyTuple_Check(cls)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cls); i++)
      if (!PyExceptionClass_Check(PyTuple_GET_ITEM(cls, i))) valid = 0;
  } else {
    valid = PyExceptionClass_Check(cls);
  }
  if (!valid) {
    PyErr_SetString(PyExc_TypeError, "catching classes that do not inherit from BaseException is not allowed");
    return -1;
  }
  return PyErr_GivenExceptionMatches(h->exc, cls);
}

/* No clause matched: the exception goes on with its own traceback (RERAISE). */
static inline void dynac_handling_reraise(const dynac_handling *h) {
  dynac_compat_restore_raised(Py_NewRef(h->exc));
}

/* ---- with statements -------------------------------------------------------
 * BEFORE_WITH: `mgr`'s __enter__ and __exit__, looked up on its type and
 * bound to it; __enter__() is called. Returns its result (a new reference)
 * and sets *exit to the bound __exit__ (a new reference the kernel keeps
 * until the statement ends); NULL with CPython's TypeError when mgr is not
 * a context manager, or with __enter__'s exception. */
static inline PyObject *dynac_with_enter(PyObject *mgr, PyObject **exit) {
  static PyObject *enter_name, *exit_name;
  if (!enter_name && !(enter_name = PyUnicode_InternFromString("__enter__"))) return NULL;
  if (!exit_name && !(exit_name = PyUnicode_InternFromString("__exit__"))) return NULL;
  PyObject *enter = dynac_compat_lookup_special(mgr, enter_name);
  if (!enter) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "'%.200s' object does not support the context manager protocol",
                   Py_TYPE(mgr)->tp_name);
    return NULL;
  }
  *exit = dynac_compat_lookup_special(mgr, exit_name);
  if (!*exit) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "'%.200s' object does not support the context manager protocol "
                   "(missed __exit__ method)", Py_TYPE(mgr)->tp_name);
    Py_DECREF(enter);
    return NULL;
  }
  PyObject *r = PyObject_CallNoArgs(enter);
  Py_DECREF(enter);
  return r;
}

/* The with statement's end: exit(None, None, None) when it ends without an
 * exception (h NULL): 0, or -1 with __exit__'s exception. With the
 * exception being handled in h: exit(type, value, traceback)
 * (WITH_EXCEPT_START): 1 when the result is true (the exception is
 * suppressed), 0 when it is not, -1 with __exit__'s own exception. */
static inline int dynac_with_exit(PyObject *exit, const dynac_handling *h) {
  PyObject *args[3] = {Py_None, Py_None, Py_None};
  PyObject *tb = NULL;
  if (h) {
    tb = PyException_GetTraceback(h->exc);
    args[0] = (PyObject *)Py_TYPE(h->exc);
    args[1] = h->exc;
    args[2] = tb ? tb : Py_None;
  }
  PyObject *r = PyObject_Vectorcall(exit, args, 3, NULL);
  Py_XDECREF(tb);
  if (!r) return -1;
  int truth = h ? PyObject_IsTrue(r) : 0;
  Py_DECREF(r);
  return truth;
}
/* ==== End runtime/exceptions.h ==== */
/* ==== Begin runtime/numpy.h ==== */
/* runtime/numpy.h: numpy scalars, without numpy's headers. A part of single_include/dynac.h (make single_include). */
/* ---- numpy scalars, without numpy's headers ------------------------------
 * Items read from an ndarray are numpy scalars (numpy.float64, numpy.int8,
 * ...), with numpy's promotion rules and numpy's answers where Python
 * raises (1/0 gives inf and a RuntimeWarning). Kernels compute with them as
 * C values and deoptimise wherever the two could differ, so the interpreter
 * gives numpy's own answer and warning. The scalar types are looked up by
 * name in the numpy module the process imported (an ndarray argument proves
 * it did). dtypes are spelled as struct letters: d f l i h b B ?. */
static inline PyObject *dynac_np_type(char fmt) { /* borrowed; NULL if numpy is not imported */
  static const char letters[] = "dflihbB?";
  static const char *const names[] = {"float64", "float32", "int64", "int32",
                                      "int16", "int8", "uint8", "bool_"};
  static PyObject *types[8]; /* per translation unit, kept for the process */
  const char *p = fmt ? strchr(letters, fmt) : NULL;
  if (!p) return NULL;
  int k = (int)(p - letters);
  if (!types[k]) {
    PyObject *name = PyUnicode_FromString("numpy");
    PyObject *np = name ? PyImport_GetModule(name) : NULL;
    Py_XDECREF(name);
    if (np) types[k] = PyObject_GetAttrString(np, names[k]);
    Py_XDECREF(np);
    if (!types[k]) PyErr_Clear();
  }
  return types[k];
}
/* Underflow: numpy's scalar arithmetic ignores it unless np.seterr (or
 * np.errstate) says 'warn', 'raise', 'call', 'print' or 'log'; C never
 * reports it. A kernel with numpy float arithmetic asks on its way out
 * whether an underflow happened (the FPU's sticky flag: one test) and, only
 * then, numpy's mode (numpy.geterr()). When numpy would not ignore it, the
 * kernel deoptimises and the interpreter gives numpy's warning or
 * FloatingPointError at the operation. The flag may be older than the call
 * (it stays set until cleared): that costs a needless deoptimisation,
 * never a wrong answer; when numpy ignores underflow the flag is cleared,
 * so the question is asked once. */
static DYNAC_NOINLINE int dynac__np_underflow_noticed(void) {
  int noticed = 1; /* numpy's mode unknown: the interpreter decides */
  PyObject *name = PyUnicode_FromString("numpy");
  PyObject *np = name ? PyImport_GetModule(name) : NULL;
  PyObject *modes = np ? PyObject_CallMethod(np, "geterr", NULL) : NULL;
  PyObject *under = modes && PyDict_Check(modes) ? PyDict_GetItemString(modes, "under") : NULL;
  if (under && PyUnicode_Check(under)) noticed = PyUnicode_CompareWithASCIIString(under, "ignore") != 0;
  if (!np) noticed = 0; /* no numpy: nothing to report */
  Py_XDECREF(modes);
  Py_XDECREF(np);
  Py_XDECREF(name);
  if (PyErr_Occurred()) PyErr_Clear();
  if (!noticed) feclearexcept(FE_UNDERFLOW);
  return noticed;
}
static inline int dynac_np_underflow_noticed(void) {
  return DYNAC_UNLIKELY(fetestexcept(FE_UNDERFLOW) != 0) && dynac__np_underflow_noticed();
}
static inline int dynac_is_np(PyObject *o, char fmt) {
  PyObject *t = dynac_np_type(fmt);
  return t && (PyObject *)Py_TYPE(o) == t;
}
/* A numpy scalar of dtype fmt holding the C value (new reference; NULL
 * with an exception). */
static inline PyObject *dynac_box_np(char fmt, double f, int64_t i) {
  PyObject *t = dynac_np_type(fmt);
  if (!t) {
    PyErr_SetString(PyExc_ImportError, "dynac: a kernel made a numpy scalar but numpy is not imported");
    return NULL;
  }
  if (fmt == 'd' && ((PyTypeObject *)t)->tp_basicsize == sizeof(PyFloatObject) &&
      PyType_IsSubtype((PyTypeObject *)t, &PyFloat_Type)) {
    /* numpy.float64 subclasses float with the same layout: made as numpy's
       PyArrayScalar_New makes it (the type's tp_alloc), the value stored where
       numpy keeps it (obval, float's ob_fval) */
    PyObject *r = ((PyTypeObject *)t)->tp_alloc((PyTypeObject *)t, 0);
    if (r) ((PyFloatObject *)r)->ob_fval = f;
    return r;
  }
  PyObject *v = fmt == 'd' || fmt == 'f' ? PyFloat_FromDouble(f)
                : fmt == '?' ? PyBool_FromLong((long)i) : PyLong_FromLongLong(i);
  PyObject *r = v ? PyObject_CallOneArg(t, v) : NULL;
  Py_XDECREF(v);
  return r;
}
/* The C value of a borrowed numpy scalar of exactly dtype fmt: 0, or 1
 * (nothing set) when `o` is not one. */
static inline int dynac_unbox_np(PyObject *o, char fmt, double *f, int64_t *i) {
  if (!dynac_is_np(o, fmt)) return 1;
  if (fmt == 'd' || fmt == 'f') {
    *f = PyFloat_AsDouble(o); /* exact: numpy.float32 widens */
    if (*f == -1.0 && PyErr_Occurred()) { PyErr_Clear(); return 1; }
    return 0;
  }
  if (fmt == '?') {
    int t = PyObject_IsTrue(o);
    if (t < 0) { PyErr_Clear(); return 1; }
    *i = t;
    return 0;
  }
  PyObject *x = PyNumber_Index(o);
  int bad = !x || !dynac_int64_of(x, i);
  Py_XDECREF(x);
  if (!x) PyErr_Clear();
  return bad;
}
/* Per dtype: dynac_box_np_float64(v), dynac_elem_np_float64(o, &v), ... */
#define DYNAC_NP_SCALAR(name, fmt, ctype, isf)                                            \
  static inline PyObject *dynac_box_np_##name(ctype v) {                                  \
    return dynac_box_np(fmt, isf ? (double)v : 0.0, isf ? 0 : (int64_t)v);                 \
  }                                                                                      \
  static inline int dynac_elem_np_##name(PyObject *o, ctype *out) {                      \
    double f = 0.0;                                                                      \
    int64_t i = 0;                                                                       \
    if (dynac_unbox_np(o, fmt, &f, &i)) return 1;                                        \
    *out = isf ? (ctype)f : (ctype)i;                                                    \
    return 0;                                                                            \
  }
DYNAC_NP_SCALAR(float64, 'd', double, 1)
DYNAC_NP_SCALAR(float32, 'f', float, 1)
DYNAC_NP_SCALAR(int64, 'l', int64_t, 0)
DYNAC_NP_SCALAR(int32, 'i', int64_t, 0)
DYNAC_NP_SCALAR(int16, 'h', int64_t, 0)
DYNAC_NP_SCALAR(int8, 'b', int64_t, 0)
DYNAC_NP_SCALAR(uint8, 'B', int64_t, 0)
DYNAC_NP_SCALAR(bool_, '?', bool, 0)
#undef DYNAC_NP_SCALAR
/* An int, a float, a numpy.float64 or a numpy.int64 (borrowed) as an `int |
 * float | numpy.float64 | numpy.int64` number: 0, or 1 (nothing set) when it
 * is none of them. */
static inline int dynac_elem_num_np(PyObject *o, dynac_num *out) {
  double f;
  int64_t i;
  if (!dynac_elem_np_float64(o, &f)) { *out = dynac_num_npf(f); return 0; }
  if (!dynac_elem_np_int64(o, &i)) { *out = dynac_num_npi(i); return 0; }
  return dynac_elem_num(o, out);
}
/* The same for an API result (stolen); 1: deoptimise. */
static inline int dynac_unbox_num_np(PyObject *r, dynac_num *out) {
  if (!r) return 1;
  int bad = dynac_elem_num_np(r, out);
  Py_DECREF(r);
  return bad;
}
/* The value of a borrowed float or numpy.float64 (exactly those types):
 * 0, or 1 (nothing set) for any other object. */
static inline int dynac_exact_float(PyObject *o, double *out) {
  if (!PyFloat_CheckExact(o) && (PyObject *)Py_TYPE(o) != dynac_np_type('d')) return 1;
  *out = PyFloat_AS_DOUBLE(o); /* numpy.float64 keeps its value where float does */
  return 0;
}

/* ---- numpy ufuncs of numbers (np.tanh(a[i]), np.maximum(x, 0.0)) ----------
 * numpy's own float64 inner loop, called on one item as numpy calls it for
 * numbers: the same bits (numpy may use its own SIMD exp or log where libm
 * would differ in the last bit). The loop is found once per call site in
 * the ufunc's table of legacy loops: the leading fields of numpy's public
 * PyUFuncObject (numpy/ufuncobject.h; their layout has held since numpy
 * 1.0), read only after the type's name says it is a numpy.ufunc. */
typedef void (*dynac_ufunc_loop)(char **args, const Py_ssize_t *dims, const Py_ssize_t *steps, void *data);
typedef struct dynac__ufunc_head {
  PyObject_HEAD
  int nin, nout, nargs;
  int identity;
  dynac_ufunc_loop *functions; /* ntypes loops */
  void **data;                 /* each loop's data (a C function for the generic d_d loops) */
  int ntypes;
  int reserved1;
  const char *name;
  char *types;                 /* ntypes * nargs type numbers */
} dynac__ufunc_head;
enum { DYNAC__NPY_DOUBLE = 12 }; /* numpy's type number of float64 */
/* A call site's loop: found in `ufunc` (a strong reference, kept for the
 * process), or none yet. */
typedef struct dynac_ufunc_cache {
  PyObject *ufunc;
  dynac_ufunc_loop loop;
  void *data;
  PyObject *dict;              /* the module dict the name was found in (borrowed), */
  uint64_t version;            /* unchanged since (its version tag): ufunc is still there */
  PyObject *module;            /* the module o the ufunc was found in (a strong reference: its
                                  dict is `dict` for as long as the cache holds it), or NULL */
  char exact;                  /* set by the call site: numpy's loop is IEEE's exact operation, done
                                  here in C once the ufunc is numpy's own of that name: 's' sqrt,
                                  'a' absolute, 'f' floor, 'c' ceil, 't' trunc; 0 none */
} dynac_ufunc_cache;

/* Fills c with the all-float64 loop of ufunc f (borrowed) taking nin
 * inputs and giving one output: 1, or 0 when f is no such ufunc. */
static DYNAC_NOINLINE int dynac__ufunc_find(dynac_ufunc_cache *c, PyObject *f, int nin) {
  if (strcmp(Py_TYPE(f)->tp_name, "numpy.ufunc")) return 0;
  const dynac__ufunc_head *u = (const dynac__ufunc_head *)f;
  if (u->nin != nin || u->nout != 1 || u->nargs != nin + 1 || !u->types || !u->functions) return 0;
  if (c->exact) { /* computed in C: only numpy's own ufunc of that name */
    static const char *const names[] = {"sqrt", "absolute", "floor", "ceil", "trunc"};
    const char *want = names[strchr("safct", c->exact) - "safct"];
    if (!u->name || strcmp(u->name, want)) return 0;
  }
  for (int k = 0; k < u->ntypes; k++) {
    int all = 1;
    for (int j = 0; j <= nin; j++) all &= u->types[k * u->nargs + j] == DYNAC__NPY_DOUBLE;
    if (!all || !u->functions[k]) continue;
    Py_INCREF(f);
    Py_XSETREF(c->ufunc, f);
    c->loop = u->functions[k];
    c->data = u->data ? u->data[k] : NULL;
    return 1;
  }
  return 0;
}

/* Is f a numpy ufunc of nin inputs with a float64 loop (then in c)? A
 * fused loop calls it a block at a time (generator/emit/fusion.c). */
static inline int dynac_np_ufunc_loop(dynac_ufunc_cache *c, PyObject *f, int nin) {
  return f == c->ufunc || dynac__ufunc_find(c, f, nin);
}
/* The ufunc ndarray's operator `name` calls (floor_divide for //,
 * remainder for %, power for **: numpy's number protocol, n_ops), from
 * numpy.core.umath, into the call site's *slot, held for the process
 * (borrowed). None where it cannot be had (the check of its loop then
 * fails: numpy's operator runs). */
static DYNAC_NOINLINE PyObject *dynac_np_operator_ufunc(const char *name, PyObject **slot) {
  PyObject *m = PyImport_ImportModule("numpy.core.umath");
  PyObject *f = m ? PyObject_GetAttrString(m, name) : NULL;
  Py_XDECREF(m);
  if (!f) PyErr_Clear();
  *slot = f ? f : Py_NewRef(Py_None);
  return *slot;
}
/* Does numpy compute array ** x by a shortcut (fast_scalar_power: 1
 * positive, -1 reciprocal, 0 ones, 0.5 sqrt, 2 square) rather than by its
 * power loop? */
static inline int dynac_np_power_shortcut(double x) {
  return x == 1.0 || x == -1.0 || x == 0.0 || x == 0.5 || x == 2.0;
}
enum { DYNAC_FUSE_BLOCK = 128 }; /* items per block of a fused loop with numpy's loops in it */

/* np.NAME(x...) of nin numbers as float64 (`in`), into *out. `o` is the
 * module (name: the attribute, an interned str) or, with name NULL, the
 * callee itself (a name imported from numpy). 0 with the result; 1 when
 * the kernel deoptimises: o.NAME is not a numpy ufunc with a float64 loop
 * (the interpreter calls whatever it is); -1 with the attribute lookup's
 * exception. *effects is set when the lookup may have run Python code. */
static DYNAC_NOINLINE int dynac__np_ufunc_found(dynac_ufunc_cache *c, PyObject *o, PyObject *name, int nin,
                                                 const double *in, double *out, int *effects);
/* IEEE's exact operation `exact` (dynac_ufunc_cache.exact, not 0): numpy's loop gives these bits. */
static inline double dynac__np_exact(char exact, double x) {
  switch (exact) {
  case 's': return dynac_sqrt(x);
  case 'a': return fabs(x);
  case 'f': return floor(x);
  case 'c': return ceil(x);
  default: return trunc(x);
  }
}
static inline int dynac_np_ufunc(dynac_ufunc_cache *c, PyObject *o, PyObject *name, int nin,
                                 const double *in, double *out, int *effects) {
  if (DYNAC_LIKELY(o == c->module && c->exact && DYNAC_DICT_VERSION(c->dict) == c->version)) {
    *out = dynac__np_exact(c->exact, in[0]); /* np.sqrt of an item in a loop: no call (GCC keeps the registers) */
    return 0;
  }
  Py_INCREF(o); /* o may be borrowed (dynac_load_global_borrowed): held while Python code may run */
  int st = dynac__np_ufunc_found(c, o, name, nin, in, out, effects);
  Py_DECREF(o);
  return st;
}
/* np.NAME(x) of an exact ufunc in a speculative loop (speculate.c): is o
 * (np, as its LOAD_GLOBAL cache holds it) the module in which the ufunc's
 * cache found numpy's own NAME, unchanged since? Both caches are filled by
 * the checked copy of the loop, which shares them. No call (a miss fails
 * to the checked copy): nothing in the loop then writes memory, and GCC
 * takes these tests out of it. */
static inline int dynac_np_exact_cached(const dynac_ufunc_cache *c, PyObject *o) {
  return o == c->module && c->exact && DYNAC_DICT_VERSION(c->dict) == c->version;
}
/* dynac_np_ufunc's way when the module's dict changed, or for the first
 * call, or for a loop of numpy's: the lookup and the call. */
static DYNAC_NOINLINE int dynac__np_ufunc_found(dynac_ufunc_cache *c, PyObject *o, PyObject *name, int nin,
                                                 const double *in, double *out, int *effects) {
  PyObject *f = o;
  PyObject *d = name && PyModule_CheckExact(o) ? PyModule_GetDict(o) : NULL;
  if (d && d == c->dict && DYNAC_DICT_VERSION(d) == c->version) {
    f = c->ufunc; /* nothing in the module changed since it was found */
  } else if (name) {
    f = d ? PyDict_GetItemWithError(d, name) : NULL; /* borrowed */
    if (!f && PyErr_Occurred()) return -1;
    if (!f) {
      PyObject *g = dynac_obj_getattr(o, name, effects);
      if (!g) return -1;
      Py_DECREF(g); /* a __getattr__'s answer: the interpreter's to call */
      return 1;
    }
  }
  if (DYNAC_UNLIKELY(f != c->ufunc)) {
    if (!dynac__ufunc_find(c, f, nin)) return 1;
  }
  if (d && (d != c->dict || DYNAC_DICT_VERSION(d) != c->version)) { /* found in o as it is now */
    c->dict = d;
    c->version = DYNAC_DICT_VERSION(d);
    if (c->module != o) Py_XSETREF(c->module, Py_NewRef(o));
  }
  if (c->exact) { /* IEEE's exact operations: numpy's loops give these bits */
    *out = dynac__np_exact(c->exact, in[0]);
    return 0;
  }
  /* inputs and output apart, as numpy's own 0-d arrays are: its SIMD loops
     take a slower scalar path (libm's bits) when the output touches an input */
  double io[6] = {in[0], nin > 1 ? in[1] : 0.0, 0.0, 0.0, 0.0, 0.0};
  char *args[3] = {(char *)&io[0], (char *)&io[1], (char *)&io[5]};
  args[nin] = (char *)&io[5];
  const Py_ssize_t dims[1] = {1}, steps[3] = {sizeof(double), sizeof(double), sizeof(double)};
  c->loop(args, dims, steps, c->data);
  *out = io[5];
  return 0;
}
/* The same call through numpy's own machinery (the arguments as
 * numpy.float64s), for a result that is inf or nan, where numpy may warn,
 * or raise under np.errstate: 0 with the value; 1 when the result is not a
 * float or numpy.float64 (a replaced function); -1 with its exception. */
static DYNAC_NOINLINE int dynac_np_ufunc_api(PyObject *o, PyObject *name, int nin, const double *in, double *out) {
  PyObject *f = name ? PyObject_GetAttr(o, name) : Py_NewRef(o);
  if (!f) return -1;
  PyObject *argv[2] = {NULL, NULL};
  int ok = 1;
  for (int i = 0; i < nin; i++) ok &= (argv[i] = dynac_box_np_float64(in[i])) != NULL;
  PyObject *r = ok ? PyObject_Vectorcall(f, argv, (size_t)nin, NULL) : NULL;
  for (int i = 0; i < nin; i++) Py_XDECREF(argv[i]);
  Py_DECREF(f);
  if (!r) return -1;
  int other = dynac_exact_float(r, out);
  Py_DECREF(r);
  return other;
}

/* The bits of x - x: 0 for a finite x, a nan's (never 0) for inf or nan.
 * A speculative loop ORs them into one word per loop (speculate.c): one
 * subtraction off the loop's dependence chains and an OR on it (1 cycle)
 * per numpy operation, where isfinite's compare and flag took five
 * instructions and a sum of x - x put 4 cycles per operation on the chain. */
static inline uint64_t dynac_nonfinite_bits(double x) {
  double z = x - x;
  uint64_t b;
  memcpy(&b, &z, sizeof b);
  return b;
}
/* numpy wraps integers silently or with a warning where Python's do not:
 * does x fit dtype fmt? */
static inline int dynac_np_fits(int64_t x, char fmt) {
  switch (fmt) {
  case 'i': return x >= INT32_MIN && x <= INT32_MAX;
  case 'h': return x >= -32768 && x <= 32767;
  case 'b': return x >= -128 && x <= 127;
  case 'B': return x >= 0 && x <= 255;
  default: return 1;
  }
}
/* A float stored into an integer ndarray: the truncated value, or 1 when it
 * is not finite or out of the dtype's range (numpy raises or wraps). */
static inline int dynac_np_float_to_item(double x, char fmt, int64_t *out) {
  if (!(x > -9.2233720368547758e18 && x < 9.2233720368547758e18)) return 1;
  *out = (int64_t)x;
  return !dynac_np_fits(*out, fmt);
}

/* ---- whole-array expressions in one loop (the generator's fusion.c) -------
 * Each loop is a function of its own, which GCC vectorises and clones for
 * AVX-512 and AVX2 (picked when the module loads, by the CPU it runs on).
 * Element-wise IEEE operations give the same bits in any width; no FMA. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define DYNAC_FUSED_LOOP \
  __attribute__((noinline, optimize("tree-vectorize", "fp-contract=off"), \
                 target_clones("avx512f", "avx2", "default")))
#else
#define DYNAC_FUSED_LOOP __attribute__((noinline))
#endif
/* A new C-contiguous float64 array of shape (n0,) or (n0, n1), as
 * numpy.empty makes it (new reference; NULL with numpy's exception), and
 * where its items are (*data: valid while the array lives). */
static DYNAC_NOINLINE PyObject *dynac_np_empty(int ndim, Py_ssize_t n0, Py_ssize_t n1, double **data) {
  static PyObject *empty; /* numpy.empty, looked up once (kept for the process) */
  if (!empty) {
    PyObject *np = PyImport_ImportModule("numpy");
    empty = np ? PyObject_GetAttrString(np, "empty") : NULL;
    Py_XDECREF(np);
    if (!empty) return NULL;
  }
  PyObject *shape = ndim == 1 ? PyLong_FromSsize_t(n0) : Py_BuildValue("(nn)", n0, n1);
  PyObject *a = shape ? PyObject_CallOneArg(empty, shape) : NULL;
  Py_XDECREF(shape);
  Py_buffer pb;
  if (!a || PyObject_GetBuffer(a, &pb, PyBUF_WRITABLE) < 0) { Py_XDECREF(a); return NULL; }
  *data = (double *)pb.buf; /* numpy's release keeps the memory: the array owns it */
  PyBuffer_Release(&pb);
  return a;
}
/* builtins.sum(items) (the guard has checked that `sum` names it): a new
 * reference, or NULL with its exception. */
static DYNAC_NOINLINE PyObject *dynac_builtin_sum(PyObject *items) {
  static PyObject *sum; /* looked up once (kept for the process) */
  if (!sum) {
    PyObject *b = PyImport_ImportModule("builtins");
    sum = b ? PyObject_GetAttrString(b, "sum") : NULL;
    Py_XDECREF(b);
    if (!sum) return NULL;
  }
  return PyObject_CallOneArg(sum, items);
}
/* Are view v's rows laid out as C orders them (numpy's result of the same
 * shape from such operands is C-contiguous)? Not for one row or column,
 * whose order numpy may choose either way. */
static inline int dynac_rows_in_c_order(const dynac_view *v) {
  return v->len > 1 && v->len1 > 1 && v->stride1 > 0 && v->stride >= v->stride1 * v->len1;
}
/* numpy's broadcasting of the n operands of a 2-D whole-array
 * expression: views vs[i] (rows[i] '1': a 1-D one, numpy's row (1, len);
 * '2': 2-D). Each axis of the result is as long as the operands' that are
 * not 1; *shape gets it (len, len1). 1 when the operands broadcast and
 * numpy's result is C-ordered as the fused loop's is: more than one row and
 * column, and every operand numpy's iterator asks about the order (no axis
 * of length 1: see npyiter's axis ordering, which stride-0 axes do not
 * vote in) has its rows in C order; else 0 (numpy's operations then). */
static inline int dynac_broadcast2(const dynac_view *const *vs, const char *rows, int n, dynac_view *shape) {
  Py_ssize_t n0 = 1, n1 = 1;
  for (int i = 0; i < n; i++) {
    Py_ssize_t l0 = rows[i] == '1' ? 1 : vs[i]->len, l1 = rows[i] == '1' ? vs[i]->len : vs[i]->len1;
    if (l0 != 1 && n0 != 1 && l0 != n0) return 0;
    if (l1 != 1 && n1 != 1 && l1 != n1) return 0;
    if (l0 != 1) n0 = l0;
    if (l1 != 1) n1 = l1;
    if (rows[i] != '1' && l0 > 1 && l1 > 1 && !dynac_rows_in_c_order(vs[i])) return 0;
  }
  shape->len = n0, shape->len1 = n1;
  return n0 > 1 && n1 > 1;
}
/* An axis's stride in the loop: 0 where numpy broadcasts it (length 1). */
#define DYNAC_BSTRIDE(len, stride) ((len) == 1 ? 0 : (stride))
/* Scratch of this many bytes or more is an ndarray numpy allocates (its
 * allocator asks the kernel for huge pages and caches freed blocks: a
 * large buffer from malloc costs a page fault per 4 KiB at each call). */
#define DYNAC_SCRATCH_NUMPY_MIN (256 * 1024)
/* A C-ordered scratch of float64 items shaped as view `like` (1-D or
 * 2-D), for a fused value the target overlaps or an in-place operator
 * writes after its loop: 1, or 0 with an exception set (MemoryError).
 * Release with dynac_scratch_free. */
static inline int dynac_scratch_like(const dynac_view *like, int ndim, dynac_view *tmp) {
  Py_ssize_t rows = ndim == 2 ? like->len : 1, cols = ndim == 2 ? like->len1 : like->len;
  size_t bytes = sizeof(double) * (size_t)(rows * cols > 0 ? rows * cols : 1);
  memset(tmp, 0, sizeof *tmp);
  if (bytes >= DYNAC_SCRATCH_NUMPY_MIN) { /* owned by tmp->obj */
    double *data = NULL;
    tmp->obj = dynac_np_empty(1, rows * cols, 0, &data);
    if (!tmp->obj) return 0;
    tmp->buf = (char *)data;
  } else {
    tmp->buf = (char *)PyMem_Malloc(bytes);
    if (!tmp->buf) { PyErr_NoMemory(); return 0; }
  }
  tmp->len = like->len;
  tmp->len1 = like->len1;
  tmp->stride = ndim == 2 ? cols * (Py_ssize_t)sizeof(double) : (Py_ssize_t)sizeof(double);
  tmp->stride1 = (Py_ssize_t)sizeof(double);
  tmp->live_flags = &dynac__flags_writable;
  return 1;
}
/* a op= v: numpy's in-place ufunc writes a in one pass after making v
 * (a temporary per operation in v); the fused loop computes a op v into
 * scratch in one pass, then copies it into a. Above this many items of a
 * 1-D a, where v is a leaf or one operation, numpy's passes cost no more
 * than the copy and its call's overhead is small: the kernel calls numpy
 * (measured on this machine's AVX-512 numpy: a /= s is even at n = 10,000,
 * a += b * s 0.8x at n = 10^6; a += b * s + 0.5 is even there; 2-D slices
 * 1.7x at 2000 x 2000). */
#define DYNAC_INPLACE_SHORT_MAX 8192
/* Releases scratch made by dynac_scratch_like. */
static inline void dynac_scratch_free(dynac_view *tmp) {
  if (tmp->obj) Py_CLEAR(tmp->obj);
  else PyMem_Free(tmp->buf);
  tmp->buf = NULL;
}
/* Copies the items of C-ordered scratch src into view dst (same shape, any
 * strides): numpy's setitem of a computed value, after the computing. */
static inline void dynac_scratch_store(const dynac_view *dst, const dynac_view *src, int ndim) {
  Py_ssize_t rows = ndim == 2 ? dst->len : 1, cols = ndim == 2 ? dst->len1 : dst->len;
  Py_ssize_t rstride = ndim == 2 ? dst->stride : 0, istride = ndim == 2 ? dst->stride1 : dst->stride;
  const double *s = (const double *)src->buf;
  for (Py_ssize_t i = 0; i < rows; i++) {
    char *row = dst->buf + i * rstride;
    if (istride == (Py_ssize_t)sizeof(double)) memcpy(row, s + i * cols, sizeof(double) * (size_t)cols);
    else for (Py_ssize_t j = 0; j < cols; j++) *(double *)(row + j * istride) = s[i * cols + j];
  }
}
/* Row i (Python's negative i too) of 2-D view a, read in place as a 1-D
 * view of no object (a fused loop's leaf): 1, or 0 when i is out of range. */
static inline int dynac_row_view(const dynac_view *a, int64_t i, dynac_view *row) {
  if (i < 0) i += a->len;
  if (i < 0 || i >= a->len) return 0;
  memset(row, 0, sizeof *row);
  row->buf = a->buf + (Py_ssize_t)i * a->stride;
  row->len = a->len1;
  row->stride = a->stride1;
  row->readonly = a->readonly;
  row->live_flags = a->live_flags;
  row->fresh = a->fresh;
  Py_ssize_t ext = a->len1 > 0 ? (a->len1 - 1) * a->stride1 : 0;
  row->span = ext < 0 ? row->buf + ext : row->buf;
  row->span_len = a->len1 > 0 ? (ext < 0 ? -ext : ext) + (Py_ssize_t)sizeof(double) : 0;
  return 1;
}
/* numpy's own a[i] (a view; its IndexError): a new reference, or NULL. */
static inline PyObject *dynac_row_object(const dynac_view *a, int64_t i) {
  PyObject *k = PyLong_FromLongLong(i);
  PyObject *r = k ? PyObject_GetItem(a->obj, k) : NULL;
  Py_XDECREF(k);
  return r;
}
/* Is f numpy's ufunc named `name` (np.sqrt not replaced)? */
static DYNAC_NOINLINE int dynac__np_is_ufunc(PyObject *f, const char *name) {
  if (strcmp(Py_TYPE(f)->tp_name, "numpy.ufunc")) return 0;
  PyObject *n = PyObject_GetAttrString(f, "__name__");
  int ok = n && PyUnicode_Check(n) && PyUnicode_CompareWithASCIIString(n, name) == 0;
  Py_XDECREF(n);
  if (!n) PyErr_Clear();
  return ok;
}
static inline int dynac_np_is_ufunc(PyObject *f, const char *name) {
  static PyObject *seen[4]; /* ufuncs found to be numpy's (held for the process) */
  for (int i = 0; i < 4 && seen[i]; i++)
    if (seen[i] == f) return 1;
  if (!dynac__np_is_ufunc(f, name)) return 0;
  for (int i = 0; i < 4; i++)
    if (!seen[i]) { seen[i] = Py_NewRef(f); break; }
  return 1;
}
/* Around a loop doing numpy's float operations: the FPU's exception flags
 * the kernel had are kept aside (dynac_fpe_begin returns them) and cleared;
 * after it, dynac_fpe_end says whether numpy would have reported one
 * (divide by zero, overflow, invalid; underflow when numpy's mode is not
 * 'ignore') and puts the earlier flags back. The compiler does not order
 * float arithmetic with these reads (no -frounding-math): both are memory
 * barriers (loads and stores stay between them), and a result the loop
 * keeps in a register (a sum) is pinned with DYNAC_FP_DONE before
 * dynac_fpe_end, or GCC may compute it after the flags were read (it did:
 * sum() of [inf, -inf] missed numpy's "invalid value" warning). */
#define DYNAC_FP_DONE(x) __asm__ __volatile__("" : "+m"(x) : : "memory")
#define DYNAC__FP_BARRIER() __asm__ __volatile__("" : : : "memory")
#if defined(__SSE2__)
/* x86-64 computes doubles in SSE: its flags are MXCSR's low six bits (invalid
 * 0x01, denormal 0x02, divide-by-zero 0x04, overflow 0x08, underflow 0x10,
 * inexact 0x20), read and written in a few cycles where glibc's
 * feclearexcept/feraiseexcept also rewrite the x87 environment (slower than
 * a small fused loop). */
#include <xmmintrin.h>
static inline int dynac_fpe_begin(void) {
  unsigned int csr = _mm_getcsr();
  _mm_setcsr(csr & ~0x3Fu);
  DYNAC__FP_BARRIER();
  return (int)(csr & 0x3Fu);
}
static inline int dynac_fpe_end(int was) {
  DYNAC__FP_BARRIER();
  unsigned int csr = _mm_getcsr();
  int report = (csr & (0x01u | 0x04u | 0x08u)) != 0;
  if (!report && (csr & 0x10u)) report = dynac__np_underflow_noticed();
  _mm_setcsr((_mm_getcsr() & ~0x3Fu) | (unsigned int)was);
  return report;
}
static inline int dynac_fpe_flags(void) {
  DYNAC__FP_BARRIER();
  return (int)(_mm_getcsr() & 0x3Fu);
}
static inline void dynac_fpe_add(int flags) {
  DYNAC__FP_BARRIER();
  _mm_setcsr(_mm_getcsr() | (unsigned int)flags);
}
#else
static inline int dynac_fpe_begin(void) {
  int was = fetestexcept(FE_ALL_EXCEPT);
  feclearexcept(FE_ALL_EXCEPT);
  DYNAC__FP_BARRIER();
  return was;
}
static inline int dynac_fpe_end(int was) {
  DYNAC__FP_BARRIER();
  int now = fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_INVALID | FE_UNDERFLOW);
  int report = (now & (FE_DIVBYZERO | FE_OVERFLOW | FE_INVALID)) != 0;
  if (!report && (now & FE_UNDERFLOW)) report = dynac__np_underflow_noticed();
  feclearexcept(FE_ALL_EXCEPT);
  if (was) feraiseexcept(was);
  return report;
}
static inline int dynac_fpe_flags(void) {
  DYNAC__FP_BARRIER();
  return fetestexcept(FE_ALL_EXCEPT);
}
static inline void dynac_fpe_add(int flags) {
  DYNAC__FP_BARRIER();
  if (flags) feraiseexcept(flags);
}
#endif
/* dynac_fpe_flags / dynac_fpe_add: around a call of one of numpy's inner
 * loops in a fused loop, the flags raised so far are kept: numpy's
 * minimum/maximum loops clear them on their way out (a nan they compare
 * sets "invalid", which they do not report), which lost the "invalid" of
 * -inf * 0.0 computed before np.minimum (fuzz seed 111). */
/* numpy's pairwise summation of float64 items (numpy/core/src/umath/
 * loops_utils.h.src, pairwise_sum). np.sum of a 1-D array starts from the
 * identity 0.0 and adds the pairwise sum of each chunk of numpy's buffer
 * size (np.getbufsize(), 8192 items unless set), in order. Within a chunk a
 * range of more than 128 items is split in two at a multiple of 8 below its
 * half; a block of at most 128 is summed by dynac_pw_block. A fused sum
 * computes each block's items into a buffer, sums it, and combines the
 * blocks' sums as the recursion does (dynac_pw_combine), so the result is
 * numpy's, bit for bit. */
#define DYNAC_PW_BLOCK 128
static inline double dynac_pw_block(const double *a, Py_ssize_t n) {
  if (n < 8) {
    double res = 0.;
    for (Py_ssize_t i = 0; i < n; i++) res += a[i];
    return res;
  }
  double r[8];
  for (int k = 0; k < 8; k++) r[k] = a[k];
  Py_ssize_t i;
  for (i = 8; i < n - (n % 8); i += 8)
    for (int k = 0; k < 8; k++) r[k] += a[i + k];
  double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (; i < n; i++) res += a[i];
  return res;
}
/* The lengths of the blocks of n items, in order (NULL: count only); their number. */
static inline Py_ssize_t dynac_pw_blocks(Py_ssize_t n, Py_ssize_t *lens) {
  if (n <= DYNAC_PW_BLOCK) {
    if (lens) lens[0] = n;
    return 1;
  }
  Py_ssize_t n2 = n / 2;
  n2 -= n2 % 8;
  Py_ssize_t k = dynac_pw_blocks(n2, lens);
  return k + dynac_pw_blocks(n - n2, lens ? lens + k : NULL);
}
static inline double dynac__pw_combine(Py_ssize_t n, const double **sums) {
  if (n <= DYNAC_PW_BLOCK) return *(*sums)++;
  Py_ssize_t n2 = n / 2;
  n2 -= n2 % 8;
  double a = dynac__pw_combine(n2, sums);
  return a + dynac__pw_combine(n - n2, sums);
}
/* The sum of n items whose blocks (dynac_pw_blocks) summed to `sums`. */
static inline double dynac_pw_combine(Py_ssize_t n, const double *sums) {
  return n ? dynac__pw_combine(n, &sums) : 0.;
}
/* numpy's buffer size (items), which np.sum's chunks have; 0 with an
 * exception when it cannot be had. */
enum { DYNAC_NP_MIN_BUFSIZE = 16 }; /* np.setbufsize refuses less (and any non-multiple of 16) */
static DYNAC_NOINLINE Py_ssize_t dynac_np_bufsize(void) {
  static PyObject *get; /* numpy.getbufsize, kept for the process */
  if (!get) {
    PyObject *np = PyImport_ImportModule("numpy");
    get = np ? PyObject_GetAttrString(np, "getbufsize") : NULL;
    Py_XDECREF(np);
    if (!get) return 0;
  }
  PyObject *r = PyObject_CallNoArgs(get);
  Py_ssize_t n = r ? PyLong_AsSsize_t(r) : 0;
  Py_XDECREF(r);
  if (n <= 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "numpy's buffer size is not positive");
  return n > 0 ? n : 0;
}
/* Is f numpy's own np.sum, np.mean or np.where (`name`, a literal;
 * numpy.core's fromnumeric.sum/mean, multiarray.where: not replaced)? The
 * test is inline once the function was found (a loop calling np.sum per
 * item keeps its registers). */
static PyObject *dynac__np_own[3]; /* numpy's sum, mean, where: held for the process */
static DYNAC_NOINLINE int dynac__np_find_own(PyObject *f, int k) {
  static const char *const names[] = {"sum", "mean", "where"};
  if (!dynac__np_own[k]) {
    PyObject *m = PyImport_ImportModule(k < 2 ? "numpy.core.fromnumeric" : "numpy.core.multiarray");
    dynac__np_own[k] = m ? PyObject_GetAttrString(m, names[k]) : NULL;
    Py_XDECREF(m);
    if (!dynac__np_own[k]) { PyErr_Clear(); return 0; }
  }
  return f == dynac__np_own[k];
}
static inline int dynac_np_is_own(PyObject *f, const char *name) {
  int k = name[0] == 's' ? 0 : name[0] == 'm' ? 1 : 2;
  return f == dynac__np_own[k] || dynac__np_find_own(f, k);
}
/* module.name of a module (LOAD_ATTR), cached while the module's dict
 * keeps its version: a new reference, or NULL with the exception. Only
 * an attribute found in the module's dict is cached (ModuleType's own
 * data descriptors, __dict__ or __class__, are never such names). */
typedef struct dynac_module_attr_cache {
  PyObject *module, *value; /* strong references, held for the process */
  PyObject *dict;           /* the module's dict (it has no other while the cache holds the module) */
  uint64_t version;
} dynac_module_attr_cache;
static DYNAC_NOINLINE PyObject *dynac__module_attr_miss(dynac_module_attr_cache *c, PyObject *m, PyObject *name) {
  PyObject *v = PyObject_GetAttr(m, name);
  if (!v || !PyModule_CheckExact(m)) return v;
  PyObject *d = PyModule_GetDict(m);
  if (PyDict_GetItemWithError(d, name) != v) { PyErr_Clear(); return v; } /* a module __getattr__'s answer */
  Py_XSETREF(c->module, Py_NewRef(m));
  Py_XSETREF(c->value, Py_NewRef(v));
  c->dict = d;
  c->version = DYNAC_DICT_VERSION(d);
  return v;
}
static inline PyObject *dynac_module_attr(dynac_module_attr_cache *c, PyObject *m, PyObject *name) {
  if (DYNAC_LIKELY(m == c->module && DYNAC_DICT_VERSION(c->dict) == c->version))
    return Py_NewRef(c->value);
  return dynac__module_attr_miss(c, m, name);
}
/* numpy's temporary elision (numpy/core/src/multiarray/temp_elide.c), which
 * numpy does only when the interpreter's own stack holds the operands: in
 * `a * b + c` the product, which nobody else holds, takes the sum in place
 * (no new array). A kernel's operation results are such temporaries too;
 * `tmp OP r` (or `r OP tmp` for + and *, numpy's commutative case) runs as
 * numpy's in-place operator when tmp is an ndarray of float64 or float32
 * held by nothing but the kernel's temporary (reference count 1), of at
 * least numpy's 256 KiB, writable, and r is a Python float or int, or an
 * ndarray of tmp's dtype and shape: then numpy computes the same items into
 * tmp. Returns -1 when the operation is not such a case. */
#define DYNAC_ELIDE_BYTES (256 * 1024)
static DYNAC_NOINLINE int dynac__np_elidable(PyObject *tmp, PyObject *r) {
  if (Py_REFCNT(tmp) != 1 || strcmp(Py_TYPE(tmp)->tp_name, "numpy.ndarray")) return 0;
  Py_buffer a, b;
  if (PyObject_GetBuffer(tmp, &a, PyBUF_RECORDS_RO) < 0) { PyErr_Clear(); return 0; }
  char f = dynac_native_format(a.format);
  int ok = (f == 'd' || f == 'f') && !a.readonly && a.len >= DYNAC_ELIDE_BYTES;
  if (ok && !PyFloat_CheckExact(r) && !PyLong_CheckExact(r)) {
    ok = !strcmp(Py_TYPE(r)->tp_name, "numpy.ndarray") && PyObject_GetBuffer(r, &b, PyBUF_RECORDS_RO) == 0;
    if (!ok) PyErr_Clear();
    else {
      ok = dynac_native_format(b.format) == f && b.ndim == a.ndim;
      for (int d = 0; ok && d < a.ndim; d++) ok = a.shape[d] == b.shape[d];
      PyBuffer_Release(&b);
    }
  }
  PyBuffer_Release(&a);
  return ok;
}
/* l OP r where `l_temp` / `r_temp` say which operand is a temporary of the
 * kernel (an operation's result it holds alone): numpy's elision, else the
 * operation (dynac_obj_binop). New reference; NULL with the exception. */
static inline PyObject *dynac_obj_binop_temps(PyObject *l, PyObject *r, int op, int l_temp, int r_temp,
                                              int *effects) {
  /* (a Python number, the common temporary of generic code, is never an array: no call) */
  l_temp = l_temp && Py_REFCNT(l) == 1 && !PyLong_CheckExact(l) && !PyFloat_CheckExact(l);
  r_temp = r_temp && Py_REFCNT(r) == 1 && !PyLong_CheckExact(r) && !PyFloat_CheckExact(r);
  if ((op <= 3 || op == 6) && l_temp && dynac__np_elidable(l, r)) return dynac_obj_inplace(l, r, op, effects);
  if ((op == 0 || op == 2) && r_temp && dynac__np_elidable(r, l)) return dynac_obj_inplace(r, l, op, effects);
  return dynac_obj_binop(l, r, op, effects);
}
/* ==== End runtime/numpy.h ==== */
/* ==== Begin runtime/stores.h ==== */
/* runtime/stores.h: list and buffer stores, logged for the undo log. A part of single_include/dynac.h (make single_include). */
/* Can the old value of a list slot be released without running Python code
 * (a finalizer that could touch what the kernel borrows)? */
static inline int dynac_plain_value(PyObject *o) {
  return PyFloat_CheckExact(o) || PyLong_CheckExact(o) || PyBool_Check(o) || o == Py_None;
}
/* Past DYNAC_UNDO_MAX entries, a list about to be written is saved whole
 * once (an 'L' entry holding a copy of its items, made before the write),
 * and its further writes need no entry: a long call stays undoable with
 * memory bounded by the lists it writes, not by its writes. Rolling back
 * newest first restores the copy, then the older entries. 0 when the list
 * is saved (now or before), 1 when the log lost the write (no memory). */
static DYNAC_NOINLINE int dynac__undo_copy_list(dynac_undo_log *u, PyObject *l) {
  if (dynac__undo_is_copied(u, l)) return 0;
  if (u->lost) return 1; /* the call cannot be rolled back anyway */
  PyObject *copy = PyList_GetSlice(l, 0, PyList_GET_SIZE(l));
  dynac_undo_entry *e = NULL;
  if (copy && dynac__undo_note_copy(u, l)) {
    if (u->n == u->cap) { /* past the limit: 'L' entries are bounded by the lists */
      dynac_undo_entry *grown = (dynac_undo_entry *)PyMem_RawRealloc(u->e, 2 * u->cap * sizeof *grown);
      if (grown) { u->e = grown; u->cap *= 2; }
    }
    if (u->n < u->cap) e = &u->e[u->n++];
    else dynac__undo_forget_copy(u, l);
  }
  if (!e) {
    Py_XDECREF(copy);
    PyErr_Clear();
    u->lost++;
    return 1;
  }
  e->kind = 'L';
  e->of.list = l;
  e->old = copy;
  return 0;
}
/* The entry for a write to list `l`, or NULL when it needs none (saved
 * whole) or the log lost it: call before the write. */
static inline dynac_undo_entry *dynac_undo_push_list(dynac_undo_log *u, PyObject *l) {
  if (DYNAC_LIKELY(u->n < DYNAC_UNDO_MAX)) return dynac_undo_push(u);
  (void)dynac__undo_copy_list(u, l);
  return NULL;
}

/* l[k] = v for a list `l` and an in-range k whose old value is plain;
 * `v` is stolen (a new reference, NULL on MemoryError: returns -1). The old
 * value goes to the undo log (or is released when none is needed). */
static inline int dynac_list_store(dynac_undo_log *u, PyObject *l, Py_ssize_t k, PyObject *v) {
  if (!v) return -1;
  dynac_undo_entry *e = dynac_undo_push_list(u, l);
  PyObject *old = PyList_GET_ITEM(l, k);
  PyList_SET_ITEM(l, k, v);
  if (e) { e->kind = 'O'; e->of.list = l; e->k = k; e->old = old; }
  else Py_DECREF(old);
  return 0;
}
/* l[k] = x for a float: reuses the old float object when the list holds
 * its only reference (nothing else can observe it), else a new float. */
static DYNAC_NOINLINE int dynac__list_store_new_float(dynac_undo_log *u, PyObject *l, Py_ssize_t k,
                                                       double x) {
  return dynac_list_store(u, l, k, PyFloat_FromDouble(x));
}
/* (Always inlined: a store in a kernel's loop is one refcount test, the
 * log entry and the write; a new float object is made out of line.) */
DYNAC_HOT_INLINE int dynac_list_store_float(dynac_undo_log *u, PyObject *l, Py_ssize_t k, double x) {
  PyObject *old = PyList_GET_ITEM(l, k);
  if (DYNAC_UNLIKELY(u->n >= DYNAC_UNDO_MAX) && u->lost == 0)
    (void)dynac__undo_copy_list(u, l); /* the copy holds the old float: not mutated below */
  if (DYNAC_LIKELY(PyFloat_CheckExact(old) && Py_REFCNT(old) == 1)) {
    if (DYNAC_LIKELY(u->lost == 0) && !dynac__undo_is_copied(u, l)) {
      dynac_undo_entry *e = dynac_undo_push(u); /* else no entry is of use (or needed) */
      if (e) { e->kind = 'F'; e->of.list = l; e->k = k; e->was.f = PyFloat_AS_DOUBLE(old); }
    }
    ((PyFloatObject *)old)->ob_fval = x;
    return 0;
  }
  return dynac__list_store_new_float(u, l, k, x);
}
/* Drops the keeps among the newest entries (at most 8, none below `since`,
 * the log as the running kernel's call started: no mark of a call still
 * running is above it) whose list only the log still holds, when no other
 * entry came after them: no logged write can name such a list (a write to
 * it would be logged after its keep), so it is garbage. Without this a loop
 * calling a kernel that returns a new list would keep every list, and what
 * they hold, until the call ends. dynac_undo_prune: when the newest entry
 * is a keep (a kernel calls it after each kernel it called returned). */
static inline void dynac__undo_prune_keeps(dynac_undo_log *u, size_t since) {
  size_t lo = u->n > since + 8 ? u->n - 8 : since, k = u->n;
  while (k > lo && u->e[k - 1].kind == 'N') k--;
  size_t w = k;
  for (size_t i = k; i < u->n; i++) {
    if (Py_REFCNT(u->e[i].old) == 1) Py_DECREF(u->e[i].old);
    else u->e[w++] = u->e[i];
  }
  u->n = w;
}
/* Keeps `l`, a list the kernel just made (borrowed), alive until the
 * call's writes are committed or rolled back: a write to it may be logged
 * after the kernel dropped its own reference (a rebound local). When the
 * log is full this counts as a lost write: the call then cannot be rolled
 * back at all, so no entry can outlive the list. since: the log's length
 * when the running kernel's call started (dynac__undo_prune_keeps). */
static inline void dynac_undo_prune(dynac_undo_log *u, size_t since) {
  if (u->n > since && u->e[u->n - 1].kind == 'N') dynac__undo_prune_keeps(u, since);
}
static inline void dynac_undo_keep(dynac_undo_log *u, PyObject *l, size_t since) {
  dynac_undo_prune(u, since);
  dynac_undo_entry *e = dynac_undo_push(u);
  if (e) { e->kind = 'N'; e->of.list = l; e->old = Py_NewRef(l); }
}
/* The item k of a new list of items NULL (PyList_New): `v` stolen (NULL
 * after a failed box: -1). */
static inline int dynac_list_init(PyObject *l, Py_ssize_t k, PyObject *v) {
  if (!v) return -1;
  PyList_SET_ITEM(l, k, v);
  return 0;
}
/* Each item of `iterable` (borrowed) added to the new container `to` by
 * `add` (PyList_Append, PySet_Add); 0, or -1 with the exception. Its
 * __iter__, and the items' __hash__ for a set, may run Python code: an
 * effect unless every object involved is of a builtin kind that runs none. */
static inline int dynac__add_items(PyObject *to, PyObject *iterable, int (*add)(PyObject *, PyObject *),
                                   int *effects) {
  if (!(PyList_CheckExact(iterable) || PyTuple_CheckExact(iterable) || PyRange_Check(iterable) ||
        PyDict_CheckExact(iterable) || PyAnySet_CheckExact(iterable) || PyUnicode_CheckExact(iterable)))
    dynac_python_may_run(effects); /* an iterator of a builtin container runs no Python code */
  PyObject *it = PyObject_GetIter(iterable), *x;
  if (!it) return -1;
  while ((x = PyIter_Next(it))) {
    if (add == PySet_Add) dynac__obj_effect(x, NULL, effects);
    int st = add(to, x);
    Py_DECREF(x);
    if (st < 0) break;
  }
  Py_DECREF(it);
  return PyErr_Occurred() ? -1 : 0;
}
/* LIST_EXTEND of a display's *x: the items of `iterable` appended to the new
 * list `l`; a value that is not iterable gets 3.11's TypeError "Value after
 * * must be an iterable, not T" (ceval.c's LIST_EXTEND rewords it so). */
static inline int dynac_list_extend(PyObject *l, PyObject *iterable, int *effects) {
  if (dynac__add_items(l, iterable, PyList_Append, effects) == 0) return 0;
  if (PyErr_ExceptionMatches(PyExc_TypeError) && !Py_TYPE(iterable)->tp_iter && !PySequence_Check(iterable)) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "Value after * must be an iterable, not %.200s", Py_TYPE(iterable)->tp_name);
  }
  return -1;
}
/* SET_UPDATE of a set display's *x: the items of `iterable` added to the new set `s`. */
static inline int dynac_set_update(PyObject *s, PyObject *iterable, int *effects) {
  return dynac__add_items(s, iterable, PySet_Add, effects);
}
/* SET_ADD of a set display's item `x` (its __hash__ and __eq__ may run). */
static inline int dynac_set_add(PyObject *s, PyObject *x, int *effects) {
  dynac__obj_effect(x, NULL, effects);
  return PySet_Add(s, x);
}
/* d[k] = v in a dict display's new dict `d` (BUILD_MAP, MAP_ADD): k's
 * __hash__ and __eq__ may run, and a repeated key releases its old value. */
static inline int dynac_display_setitem(PyObject *d, PyObject *k, PyObject *v, int *effects) {
  dynac__obj_effect(k, v, effects);
  return PyDict_SetItem(d, k, v);
}
/* Does dict d hold only values of builtin types (dynac_obj_pure) as keys
 * and values: their hashing, comparison and release run no Python code? */
static inline int dynac__dict_quiet(PyObject *d) {
  Py_ssize_t pos = 0;
  PyObject *k, *v;
  while (PyDict_Next(d, &pos, &k, &v))
    if (!dynac_obj_pure(k, 0) || !dynac_obj_pure(v, 0)) return 0;
  return 1;
}
/* DICT_UPDATE of a dict display's **m: `m` (borrowed) merged into the new
 * dict `d` (borrowed); 0, or -1 with the exception, an AttributeError
 * reworded as 3.11's TypeError "'T' object is not a mapping". */
static inline int dynac_dict_update(PyObject *d, PyObject *m, int *effects) {
  /* keys(), __getitem__, the keys' __hash__ and __eq__, a replaced value's __del__: none when m is an exact
     dict and both hold only builtin keys and values (dict_merge inserts with the stored hashes) */
  if (*effects || !(PyDict_CheckExact(m) && dynac__dict_quiet(m) && dynac__dict_quiet(d)))
    dynac_python_may_run(effects);
  if (PyDict_Update(d, m) == 0) return 0;
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "'%.200s' object is not a mapping", Py_TYPE(m)->tp_name);
  }
  return -1;
}
/* l.append(v) to a list no other code has seen yet (a comprehension's):
 * not logged. `v` stolen (NULL after a failed box: -1). */
static inline int dynac_list_append_own(PyObject *l, PyObject *v) {
  if (!v) return -1;
  int st = PyList_Append(l, v);
  Py_DECREF(v);
  return st;
}
/* l[lo:hi:step] of a list as a new list (NULL with CPython's exception);
 * has_*: that part was given (else None). The bounds are clamped as
 * PySlice_Unpack and PySlice_AdjustIndices do for the int64 values a
 * kernel holds (its ints are Py_ssize_t wide). */
static inline PyObject *dynac_list_slice(PyObject *l, int has_lo, int64_t lo, int has_hi, int64_t hi,
                                         int has_step, int64_t step) {
  Py_ssize_t st = has_step ? (Py_ssize_t)step : 1;
  if (st == 0) {
    PyErr_SetString(PyExc_ValueError, "slice step cannot be zero");
    return NULL;
  }
  if (st < -PY_SSIZE_T_MAX) st = -PY_SSIZE_T_MAX; /* so that -step fits (PySlice_Unpack) */
  Py_ssize_t a = has_lo ? (Py_ssize_t)lo : st < 0 ? PY_SSIZE_T_MAX : 0;
  Py_ssize_t b = has_hi ? (Py_ssize_t)hi : st < 0 ? PY_SSIZE_T_MIN : PY_SSIZE_T_MAX;
  Py_ssize_t n = PySlice_AdjustIndices(PyList_GET_SIZE(l), &a, &b, st);
  if (st == 1) return PyList_GetSlice(l, a, b);
  PyObject *r = PyList_New(n);
  if (!r) return NULL;
  for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(r, i, Py_NewRef(PyList_GET_ITEM(l, a + i * st)));
  return r;
}
/* l.append(v) (v borrowed); -1 with MemoryError. */
static inline int dynac_list_append(dynac_undo_log *u, PyObject *l, PyObject *v) {
  if (!v) return -1;
  dynac_undo_entry *e = dynac_undo_push_list(u, l);
  if (PyList_Append(l, v) < 0) {
    if (e) u->n--; /* nothing to undo */
    return -1;
  }
  if (e) { e->kind = 'A'; e->of.list = l; }
  return 0;
}
/* l.extend(v) and l += v (list_extend; v borrowed: a list or a tuple, whose
 * items are added without running Python code); logged as the length before
 * ('X': a rollback cuts the list back to it). 0, or -1 with MemoryError
 * (v NULL: a failed box). */
static inline int dynac_list_extend_logged(dynac_undo_log *u, PyObject *l, PyObject *v) {
  if (!v) return -1;
  Py_ssize_t n = PyList_GET_SIZE(l);
  dynac_undo_entry *e = dynac_undo_push_list(u, l);
  if (dynac_compat_list_extend(l, v) < 0) {
    if (e) u->n--; /* nothing to undo: list_extend of a list or tuple adds all or nothing */
    return -1;
  }
  if (e) { e->kind = 'X'; e->of.list = l; e->k = n; }
  return 0;
}
/* l.insert(k, v) (v borrowed), k clamped as list.insert does; -1 with
 * MemoryError. */
static inline int dynac_list_insert(dynac_undo_log *u, PyObject *l, Py_ssize_t k, PyObject *v) {
  Py_ssize_t n = PyList_GET_SIZE(l);
  if (k < 0) k = k + n < 0 ? 0 : k + n;
  if (k > n) k = n;
  if (!v) return -1;
  dynac_undo_entry *e = dynac_undo_push_list(u, l);
  if (PyList_Insert(l, k, v) < 0) {
    if (e) u->n--;
    return -1;
  }
  if (e) { e->kind = 'I'; e->of.list = l; e->k = k; }
  return 0;
}
/* Removes l[k] (in range) as l.pop(k) does; -1 with MemoryError. */
static inline int dynac_list_pop(dynac_undo_log *u, PyObject *l, Py_ssize_t k) {
  dynac_undo_entry *e = dynac_undo_push_list(u, l);
  PyObject *old = dynac_compat_list_take(l, k, 0);
  if (!old) {
    if (e) u->n--;
    return -1;
  }
  if (e) { e->kind = 'P'; e->of.list = l; e->k = k; e->old = old; }
  else Py_DECREF(old);
  return 0;
}
/* Records the item of `size` bytes at `at` before a buffer store. */
static inline void dynac_buf_log(dynac_undo_log *u, char *at, int size) {
  dynac_undo_entry *e = dynac_undo_push(u);
  if (!e) return;
  e->kind = 'B';
  e->at = at;
  e->size = (unsigned char)size;
  memcpy(e->was.bytes, at, (size_t)size);
}
/* Saves view v's whole span in the log; 0 if there is no memory for it
 * (the caller goes on logging items). */
static DYNAC_NOINLINE int dynac__view_snapshot(dynac_undo_log *u, dynac_view *v) {
  char *copy = (char *)PyMem_RawMalloc(v->span_len ? (size_t)v->span_len : 1);
  if (!copy) return 0;
  dynac_undo_entry *e = dynac_undo_push(u);
  if (!e) { PyMem_RawFree(copy); return 0; }
  memcpy(copy, v->span, (size_t)v->span_len);
  e->kind = 'S';
  e->at = v->span;
  e->k = v->span_len;
  e->of.view = v;
  e->was.copy = copy;
  v->snapped = 1;
  return 1;
}
/* Before a store to the item at `at` of view `cv`: logs the old bytes, or,
 * once the call has logged more writes to this view than a copy of its
 * span would cost, copies the span once and logs nothing more for it.
 * Rolling back replays the log newest first, so a copy restores the span
 * as it was when copied, aliasing views included. (The view belongs to the
 * glue's frame; kernels see it const.) Returns 1 once the span is copied:
 * until the call ends, the view's later writes need no logging (a kernel
 * keeps that answer in a local; only a rollback to a mark taken before the
 * copy clears it, and the kernel that took the copy returns first). */
static inline int dynac_view_log(dynac_undo_log *u, const dynac_view *cv, char *at, int size) {
  dynac_view *v = (dynac_view *)cv;
  if (v->snapped) return 1;
  if (DYNAC_UNLIKELY(++v->logged > v->snap_after) && dynac__view_snapshot(u, v)) return 1;
  dynac_buf_log(u, at, size);
  return 0;
}
/* How many calls after one that copied a view's span copy it at their
 * first write (dynac_view_log_predicted) before one logs items again. */
#define DYNAC_SNAP_PREDICT 8
/* Before a loop that writes view `cv` at no cost per write: copies its
 * span now when dynac_view_log_predicted would copy it at the loop's first
 * write (no write logged yet this call, and the prediction says so).
 * Returns 1 once the span is copied (then writes need no logging). */
static inline int dynac_view_copy_predicted(dynac_undo_log *u, const dynac_view *cv, unsigned char *hint) {
  dynac_view *v = (dynac_view *)cv;
  if (v->snapped) return 1;
  if (*hint && v->logged == 0 && dynac__view_snapshot(u, v)) {
    --*hint;
    return 1;
  }
  return 0;
}
/* `n` writes to view `cv` that need no log entry (its span is copied),
 * counted as logged: once a call's writes reach the count at which
 * dynac_view_log_predicted would have copied the span itself, the
 * prediction `*hint` is renewed. */
static inline void dynac_view_count_writes(const dynac_view *cv, uint64_t n, unsigned char *hint) {
  dynac_view *v = (dynac_view *)cv;
  v->logged = n < (uint64_t)(PY_SSIZE_T_MAX - v->logged) ? v->logged + (Py_ssize_t)n : PY_SSIZE_T_MAX;
  if (v->logged > v->snap_after) *hint = DYNAC_SNAP_PREDICT;
}
/* dynac_view_log for the views a kernel keeps for the whole call, with a
 * prediction: `*hint` (a kernel's static, 0 at first) counts the next calls
 * that copy the span at their first write, as the call that last copied it
 * after logging items did. Kernels that write most of an array at every
 * call (time steps of a stencil) skip the item entries that precede the
 * copy. When the count runs out, a call logs items again and so relearns,
 * unless the calls' own writes renewed it (dynac_view_count_writes). A
 * wrong prediction costs one copy of the span, never a wrong rollback. */
static inline int dynac_view_log_predicted(dynac_undo_log *u, const dynac_view *cv, char *at, int size,
                                           unsigned char *hint) {
  if (dynac_view_copy_predicted(u, cv, hint)) return 1;
  dynac_view *v = (dynac_view *)cv;
  if (DYNAC_UNLIKELY(++v->logged > v->snap_after) && dynac__view_snapshot(u, v)) {
    *hint = DYNAC_SNAP_PREDICT;
    return 1;
  }
  dynac_buf_log(u, at, size);
  return 0;
}

/* ==== End runtime/stores.h ==== */
/* ==== Begin runtime/slow_paths.h ==== */
/* runtime/slow_paths.h: exact errors after an effect: the operation redone through the C API. A part of single_include/dynac.h (make single_include). */
/* Exact errors after an effect: the operation is done again through the C
 * API, which raises CPython's own exception (IndexError, OverflowError,
 * TypeError for read-only buffers, with CPython's message); a traceback
 * entry for `func` at `line` is added. Should the API call succeed after
 * all, the kernel still cannot continue: dynac_deopt_after_effect. */
DYNAC_COLD int dynac_slow_done(PyObject *r, PyObject *filename, const char *func, int line) {
  if (!r) return dynac_traceback_here(filename, func, line);
  Py_DECREF(r);
  const char *file = filename ? PyUnicode_AsUTF8(filename) : NULL;
  return dynac_deopt_after_effect(file ? file : "?", line);
}
/* o[key] and o[key] = v with `key` and `v` stolen (NULL: a failed box). */
DYNAC_COLD int dynac__slow_getkey(PyObject *o, PyObject *key, PyObject *filename,
                                  const char *func, int line) {
  PyObject *r = key ? PyObject_GetItem(o, key) : NULL;
  Py_XDECREF(key);
  return dynac_slow_done(r, filename, func, line);
}
DYNAC_COLD int dynac__slow_setkey(PyObject *o, PyObject *key, PyObject *v, PyObject *filename,
                                  const char *func, int line) {
  int st = key && v ? PyObject_SetItem(o, key, v) : -1;
  Py_XDECREF(key);
  Py_XDECREF(v);
  if (st < 0) return dynac_traceback_here(filename, func, line);
  const char *file = filename ? PyUnicode_AsUTF8(filename) : NULL;
  return dynac_deopt_after_effect(file ? file : "?", line); /* stored after all */
}
DYNAC_COLD int dynac_slow_getitem(PyObject *o, int64_t i, PyObject *filename, const char *func,
                                  int line) {
  return dynac__slow_getkey(o, PyLong_FromLongLong(i), filename, func, line);
}
/* `v` is stolen. */
DYNAC_COLD int dynac_slow_setitem(PyObject *o, int64_t i, PyObject *v, PyObject *filename,
                                  const char *func, int line) {
  return dynac__slow_setkey(o, PyLong_FromLongLong(i), v, filename, func, line);
}
/* The same for a[i, j] of a 2-D ndarray. */
DYNAC_COLD int dynac_slow_getitem2(PyObject *o, int64_t i, int64_t j, PyObject *filename,
                                   const char *func, int line) {
  return dynac__slow_getkey(o, Py_BuildValue("(LL)", (long long)i, (long long)j), filename, func,
                            line);
}
DYNAC_COLD int dynac_slow_setitem2(PyObject *o, int64_t i, int64_t j, PyObject *v,
                                   PyObject *filename, const char *func, int line) {
  return dynac__slow_setkey(o, Py_BuildValue("(LL)", (long long)i, (long long)j), v, filename,
                            func, line);
}
/* l.pop() (i < 0 with `has_index` 0) or l.pop(i). */
DYNAC_COLD int dynac_slow_pop(PyObject *l, int has_index, int64_t i, PyObject *filename,
                              const char *func, int line) {
  PyObject *r = has_index ? PyObject_CallMethod(l, "pop", "L", (long long)i)
                          : PyObject_CallMethod(l, "pop", NULL);
  return dynac_slow_done(r, filename, func, line);
}
/* a OP b (b NULL for -a) through the C API, for its exception; a and b are
 * stolen (new references, NULL on MemoryError). */
enum {
  DYNAC_SLOW_ADD, DYNAC_SLOW_SUB, DYNAC_SLOW_MUL, DYNAC_SLOW_TRUEDIV, DYNAC_SLOW_FLOORDIV,
  DYNAC_SLOW_MOD, DYNAC_SLOW_POW, DYNAC_SLOW_LSHIFT, DYNAC_SLOW_RSHIFT, DYNAC_SLOW_NEG
};
DYNAC_COLD PyObject *dynac__number_value(int op, PyObject *a, PyObject *b) {
  PyObject *r = NULL;
  if (a && (b || op == DYNAC_SLOW_NEG)) {
    switch (op) {
    case DYNAC_SLOW_ADD: r = PyNumber_Add(a, b); break;
    case DYNAC_SLOW_SUB: r = PyNumber_Subtract(a, b); break;
    case DYNAC_SLOW_MUL: r = PyNumber_Multiply(a, b); break;
    case DYNAC_SLOW_TRUEDIV: r = PyNumber_TrueDivide(a, b); break;
    case DYNAC_SLOW_FLOORDIV: r = PyNumber_FloorDivide(a, b); break;
    case DYNAC_SLOW_MOD: r = PyNumber_Remainder(a, b); break;
    case DYNAC_SLOW_POW: r = PyNumber_Power(a, b, Py_None); break;
    case DYNAC_SLOW_LSHIFT: r = PyNumber_Lshift(a, b); break;
    case DYNAC_SLOW_RSHIFT: r = PyNumber_Rshift(a, b); break;
    default: r = PyNumber_Negative(a); break;
    }
  }
  Py_XDECREF(a);
  Py_XDECREF(b);
  return r;
}
DYNAC_COLD int dynac_slow_number(int op, PyObject *a, PyObject *b, PyObject *filename,
                                 const char *func, int line) {
  return dynac_slow_done(dynac__number_value(op, a, b), filename, func, line);
}
/* The same for the value a function returns: the exact result (a big int
 * where int64 overflowed) goes to *boxed (a new reference) and the kernel
 * returns DYNAC_OK_BOXED; CPython's exception otherwise. */
DYNAC_COLD int dynac_slow_returned(int op, PyObject *a, PyObject *b, PyObject **boxed,
                                   PyObject *filename, const char *func, int line) {
  PyObject *r = dynac__number_value(op, a, b);
  if (!r) return dynac_traceback_here(filename, func, line);
  *boxed = r;
  return DYNAC_OK_BOXED;
}
/* Raises exc(text) (text: CPython's message, UTF-8) from this frame's line,
 * e.g. range()'s ValueError for a zero step. Returns DYNAC_ERROR. */
DYNAC_COLD int dynac_raise_text(PyObject *exc, const char *text, PyObject *filename, const char *func,
                                int line) {
  PyErr_SetString(exc, text);
  return dynac_traceback_here(filename, func, line);
}
/* a, b, c = seq with len(seq) != n: CPython's ValueError. */
DYNAC_COLD int dynac_raise_unpack(Py_ssize_t n, Py_ssize_t got, PyObject *filename,
                                  const char *func, int line) {
  if (got > n)
    PyErr_Format(PyExc_ValueError, "too many values to unpack (expected %zd)", n);
  else
    PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected %zd, got %zd)", n, got);
  return dynac_traceback_here(filename, func, line);
}

/* ==== End runtime/slow_paths.h ==== */
/* ==== Begin runtime/continue.h ==== */
/* runtime/continue.h: continuation in the interpreter: deoptimisation at a statement. A part of single_include/dynac.h (make single_include). */
/* ---- continuation in the interpreter: deoptimisation at a statement -------
 * A kernel that must leave its typed code (int64 overflow, an element of
 * another type, a callee that cannot go on) after an effect the interpreter
 * must not repeat (an allow_in_graph call, Python code an object operation
 * ran, list writes the undo log no longer holds) does not hand the whole
 * call back: it continues the call in the interpreter from the start of
 * the statement it was running, which had no effect yet. The function's
 * locals are boxed (unbound ones stay unbound) and each enclosing for
 * loop's iterator is rebuilt at its next item; python/dynac/_continue.py
 * makes the continuation function from the function's source (its code
 * keeps the function's name and lines, so tracebacks are CPython's). This
 * is deoptimisation as PyPy and HotSpot do it (a frame rebuilt from the
 * compiled code's state), at statement granularity, with TorchDynamo's
 * resume functions built at the source level. */
/* A call that finished in the interpreter with DYNAC_OK_BOXED leaves its
 * value here (a new reference); the kernel's caller or glue takes it at
 * once (under the GIL, before anything else runs). One per translation
 * unit: each generated module has its own. */
static __attribute__((unused)) PyObject *dynac__boxed_result;
/* What a kernel that returned normally did, for its caller (a kernel):
 * the caller sets it to 0 just before the call and again once it took
 * it (its own report is then its dynac__effects); the callee ORs its
 * dynac__effects in as it returns: 1 when Python code ran or it wrote
 * what others see, 2 when it only wrote its first parameter (fields of
 * its struct, first stores of attributes: a new instance's __init__ did
 * nothing anyone else sees); a continuation that finished the call sets
 * 1. Under the GIL nothing runs between that return and the caller's read
 * but the callee's own releases. Their Python code (a __del__) may enter
 * kernels, whose own direct calls reset the report: every entry from the
 * interpreter (a glue, a region's entry) therefore leaves 1 as it returns.
 * Callers that assumed every generic callee ran Python code
 * refused to hand a later failure back to the interpreter
 * (dynac_deopt_after_effect) needlessly. */
static __attribute__((unused)) int dynac__callee_effects;

typedef struct dynac_cont_site {
  const char *qualname;
  int firstlineno;   /* co_firstlineno of the function */
  int line, col;     /* where the statement starts (col: UTF-8 bytes) */
  int header;        /* 1: at the head of the innermost for loop (its item not yet taken);
                        2: after the statement (its assigned local is the value given);
                        3: the statement again, its evaluated operands given (subst) */
  const char *names; /* the function's local names, comma-separated: vals' order; then
                        _dynac_v0, ... for header 3's pending operands */
  int nvals, nits;
  const char *subst; /* header 3 (the statement runs again around the operands it had
                        evaluated): each operand's path@line:col, `;`-separated; else NULL */
  const char *region; /* a region kernel's: `line:col:outs` of the region's last statement
                         and its live-outs (the continuation ends there and returns the
                         region entry's tuple); NULL for a whole function */
} dynac_cont_site;

/* The rest of `for v in range(...)` after iteration `next - 1`: the values
 * start + k*step for k in [next, n) (reversed(): from the top down), as a
 * new range iterator. New reference, NULL with an exception set. */
DYNAC_COLD PyObject *dynac_cont_range(int64_t start, int64_t step, uint64_t n, uint64_t next,
                                      int rev) {
  if (next > n) next = n;
  uint64_t k = rev ? (next < n ? n - 1 - next : 0) : next; /* the first value's index */
  PyObject *s = PyLong_FromLongLong(start), *d = PyLong_FromLongLong(step);
  PyObject *kk = PyLong_FromUnsignedLongLong(k), *c = PyLong_FromUnsignedLongLong(n - next);
  PyObject *ks = NULL, *first = NULL, *dir = NULL, *span = NULL, *stop = NULL, *r = NULL, *it = NULL;
  if (s && d && kk && c) ks = PyNumber_Multiply(kk, d);
  if (ks) first = PyNumber_Add(s, ks);
  if (first) dir = rev ? PyNumber_Negative(d) : Py_NewRef(d);
  if (dir) span = PyNumber_Multiply(c, dir);
  if (span) stop = PyNumber_Add(first, span); /* exactly n - next values */
  if (stop) r = PyObject_CallFunctionObjArgs((PyObject *)&PyRange_Type, first, stop, dir, NULL);
  if (r) it = PyObject_GetIter(r);
  Py_XDECREF(s); Py_XDECREF(d); Py_XDECREF(kk); Py_XDECREF(c); Py_XDECREF(ks);
  Py_XDECREF(first); Py_XDECREF(dir); Py_XDECREF(span); Py_XDECREF(stop); Py_XDECREF(r);
  return it;
}

/* An iterator over `obj` (stolen) whose next item is the one at index
 * `next` (reversed(): counting down from it), as the interpreter's own
 * iterator would be at that point: positioned by __setstate__ (list, tuple,
 * array, bytes and sequence iterators have it), else advanced item by
 * item. New reference, NULL with an exception set. */
DYNAC_COLD PyObject *dynac_cont_iter(PyObject *obj, int64_t next, int rev) {
  if (!obj) return NULL;
  PyObject *it = rev ? PyObject_CallOneArg((PyObject *)&PyReversed_Type, obj) : PyObject_GetIter(obj);
  Py_DECREF(obj);
  if (!it) return NULL;
  PyObject *r = PyObject_CallMethod(it, "__setstate__", "L", (long long)next);
  if (r) {
    Py_DECREF(r);
    return it;
  }
  if (rev || !PyErr_ExceptionMatches(PyExc_AttributeError)) {
    Py_DECREF(it);
    return NULL;
  }
  PyErr_Clear();
  for (int64_t i = 0; i < next; i++) {
    PyObject *item = PyIter_Next(it);
    if (!item) break; /* exhausted (or an error, returned below) */
    Py_DECREF(item);
  }
  if (PyErr_Occurred()) Py_CLEAR(it);
  return it;
}
/* zip(*its) and enumerate(it, count) over such iterators (its stolen). */
DYNAC_COLD PyObject *dynac_cont_zip(PyObject **its, int n) {
  PyObject *t = PyTuple_New(n), *r = NULL;
  for (int i = 0; i < n; i++) {
    if (t && its[i]) PyTuple_SET_ITEM(t, i, its[i]);
    else Py_XDECREF(its[i]);
    if (t && !its[i]) Py_CLEAR(t);
  }
  if (t) r = PyObject_Call((PyObject *)&PyZip_Type, t, NULL);
  Py_XDECREF(t);
  return r;
}
DYNAC_COLD PyObject *dynac_cont_enumerate(PyObject *it, int64_t count) {
  if (!it) return NULL;
  PyObject *r = PyObject_CallFunction((PyObject *)&PyEnum_Type, "OL", it, (long long)count);
  Py_DECREF(it);
  return r;
}

/* Continues a kernel's call in the interpreter at `site`. vals: the
 * locals in site->names' order (stolen; NULL: unbound), its: the
 * iterators of the enclosing for loops, outermost first (stolen; NULL
 * means building it failed). globals: the module dict; filename:
 * co_filename; sha: the SHA-256 of the source the kernel was built from
 * (a file edited since gives no continuation); closure: the function's
 * __closure__ (borrowed; NULL: none), the cells of its co_freevars
 * `freevars` (comma-separated; NULL: none). Returns DYNAC_OK with
 * *result (new reference: the function's return value), DYNAC_ERROR with
 * the function's exception (its traceback entries are the continuation's,
 * which carry the function's name and lines), or DYNAC_DEOPT when no
 * continuation can be built (the caller then reports the call as one the
 * interpreter cannot finish). */
DYNAC_COLD int dynac_continue(const dynac_cont_site *site, PyObject *globals, PyObject *filename,
                              const char *sha, PyObject *closure, const char *freevars, PyObject **vals,
                              PyObject **its, PyObject **result) {
  int st = DYNAC_ERROR;
  PyObject *mod = NULL, *fn = NULL, *itt = NULL, *list = NULL;
  *result = NULL;
  dynac__py_serial++; /* the rest of the call is Python code */
  if (PyErr_Occurred() || !globals || !filename) goto done; /* boxing failed */
  itt = PyTuple_New(site->nits);
  if (!itt) goto done;
  for (int i = 0; i < site->nits; i++) {
    if (!its[i]) goto done;
    PyTuple_SET_ITEM(itt, i, its[i]);
    its[i] = NULL;
  }
  mod = PyImport_ImportModule("dynac._continue");
  if (mod)
    fn = PyObject_CallMethod(mod, "function", "OOssiiiisizzOz", globals, filename, sha, site->qualname,
                             site->firstlineno, site->line, site->col, site->header, site->names,
                             site->nits, site->subst, site->region, closure ? closure : Py_None, freevars);
  if (!fn) goto done;
  if (fn == Py_None) {
    st = DYNAC_DEOPT;
    goto done;
  }
  list = PyList_New(site->nvals); /* the locals, which the continuation takes out of it */
  if (!list) goto done;
  for (int i = 0; i < site->nvals; i++) { /* itt also marks an unbound local: no value of the user's is it */
    PyList_SET_ITEM(list, i, vals[i] ? vals[i] : Py_NewRef(itt));
    vals[i] = NULL;
  }
  {
    PyObject *argv[2] = {itt, list};
    *result = PyObject_Vectorcall(fn, argv, 2, NULL);
  }
  st = *result ? DYNAC_OK : DYNAC_ERROR;
done:
  for (int i = 0; i < site->nvals; i++) Py_CLEAR(vals[i]);
  for (int i = 0; i < site->nits; i++) Py_CLEAR(its[i]);
  Py_XDECREF(list);
  Py_XDECREF(itt);
  Py_XDECREF(fn);
  Py_XDECREF(mod);
  return st;
}
/* The kernel's control point after dynac_continue: jumps to a
 * continuation label unless nothing happened that a run again would
 * repeat (then the whole call goes back to the interpreter). */
#define DYNAC_DEOPT_OR_CONTINUE(effects, label) \
  do { \
    if (!(effects) && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; \
    goto label; \
  } while (0)

/* Kernel-to-kernel calls nested this deep ask the runtime whether to go on
 * (dynac_rt.deep_call_refused: CPython's recursion limit and the C stack);
 * below it they cost one compare. Exported C stops here. */
#ifndef DYNAC_MAX_KERNEL_DEPTH
#define DYNAC_MAX_KERNEL_DEPTH 500
#endif

/* ==== End runtime/continue.h ==== */
/* ==== Begin runtime/descriptors.h ==== */
/* runtime/descriptors.h: descriptors exported by generated modules; guards. A part of single_include/dynac.h (make single_include). */
/* ======================================================================
 * 2. Descriptors exported by generated modules
 * ==================================================================== */
#define DYNAC_ABI_VERSION 16

/* The module-level values a kernel reads, re-validated whenever the module's
 * globals, builtins or math dict changed (their dict version tags, PEP 509),
 * and whenever a called function's __code__ was replaced. */
typedef enum dynac_slot_kind {
  DYNAC_SLOT_GLOBAL_INT, DYNAC_SLOT_GLOBAL_FLOAT, DYNAC_SLOT_GLOBAL_BOOL,
  DYNAC_SLOT_GLOBAL_FUNC, DYNAC_SLOT_BUILTIN, DYNAC_SLOT_MATH_MODULE,
  DYNAC_SLOT_MATH_FUNC, DYNAC_SLOT_MATH_FLOAT,
  DYNAC_SLOT_DEFAULT_INT, DYNAC_SLOT_DEFAULT_FLOAT, DYNAC_SLOT_DEFAULT_BOOL,
  DYNAC_SLOT_DEFAULT_NONE, /* a parameter whose default is None */
  DYNAC_SLOT_OPAQUE,       /* a global called opaquely (allow_in_graph): any callable */
  DYNAC_SLOT_CONST_INT, DYNAC_SLOT_CONST_FLOAT, DYNAC_SLOT_CONST_BOOL,
                           /* the result of an assume_constant_result function */
  DYNAC_SLOT_NAME,         /* a global of any type, read at each use (dynac_load_global):
                              always valid, it only asks for the globals snapshot */
  DYNAC_SLOT_CLASS         /* a global bound to a class of the module whose instances kernels
                              are specialised on: valid while its version tag is the one seen
                              when its methods (methods[]) were found to be the module's defs */
} dynac_slot_kind;

/* A class attribute kernels rely on for instances of a DYNAC_SLOT_CLASS
 * class: the class's lookup of `name` (_PyType_Lookup, through the MRO)
 * must give, by kind,
 *   'f' the function of that def (a method called directly),
 *   'p' a property whose getter is that def's function (read directly),
 *   'P' a property whose setter is that def's function (stored directly),
 *   's' a staticmethod of that def's function (called directly),
 *   'c' a classmethod of that def's function (called directly, the class first),
 *   '-' nothing (x += v runs __add__ while the class has no __iadd__). */
typedef struct dynac_method_desc {
  const char *name;
  char kind;
  const char *qualname;    /* the def's co_qualname ("Base.m" when inherited); NULL for '-' */
  int firstlineno;
  int up;                  /* looked up from the class `up` bases above (each the only base:
                              super().m() in a base's method, its MRO after that base) */
} dynac_method_desc;

/* What the runtime lends to generated code (dynac_cache_attach sets
 * dynac_globals.rt); generated modules never link against the runtime. */
typedef struct dynac_rt {
  uint64_t annotations_epoch;  /* bumped by disallow_in_graph / allow_in_graph / reset */
  /* 1 if calls to `fn` (borrowed) must break the graph (disallow_in_graph). */
  int (*is_disallowed)(PyObject *fn);
  /* The cached result of calling `fn` (borrowed) once per process
   * (assume_constant_result): borrowed, or NULL with an exception set. */
  PyObject *(*constant_result)(PyObject *fn);
  /* Calls `fn` (borrowed) from a kernel with `npos` positional arguments
   * (borrowed), then one per name of `kwnames` (a tuple of str, or NULL),
   * as PyObject_Vectorcall takes them, with the frame hook held so the
   * callee's own frame may dispatch. New reference, or NULL with an
   * exception set. */
  PyObject *(*call_opaque)(PyObject *fn, PyObject *const *args, size_t npos, PyObject *kwnames);
  /* Asked once kernel-to-kernel calls nest DYNAC_MAX_KERNEL_DEPTH deep:
   * nonzero if `depth` nested kernel calls would pass the interpreter's
   * recursion limit (sys.setrecursionlimit, less the frames running) or
   * near the C stack's end. The call then deoptimises: the interpreter
   * raises CPython's RecursionError, or runs the deep call itself. */
  int (*deep_call_refused)(int depth);
  /* The interpreter's eval breaker, for kernel loops (DYNAC_LOOP_TICK):
   * pending calls and signal handlers run; with `may_switch`, the GIL goes
   * to a thread that asked for it (CPython's switch interval) and comes
   * back. -1 with an exception set when a handler raised. */
  int (*eval_breaker)(int may_switch);
  /* Bumped by the dispatcher as it starts trying a call's cache entries
   * (and after an entry's kernel deoptimised): the guards of one try check
   * a module's globals once (dynac_globals_update_for_guard), not once per
   * entry: no Python code runs between them. */
  uint64_t guard_serial;
} dynac_rt;

typedef struct dynac_slot_desc {
  dynac_slot_kind kind;
  const char *name;        /* global or builtin name */
  const char *attr;        /* math attribute (MATH_*) */
  int module_slot;         /* MATH_*: slot of `import math`, or -1 (from-import);
                              DEFAULT_*: the index into the function's __defaults__,
                              or -1: a keyword-only parameter's, __kwdefaults__[attr] */
  const char *qualname;    /* GLOBAL_FUNC: the callee's co_qualname */
  int firstlineno;         /* GLOBAL_FUNC: the callee's co_firstlineno */
  int nmethods;            /* CLASS: the methods kernels call directly */
  const dynac_method_desc *methods;
} dynac_slot_desc;

typedef struct dynac_slot {
  PyObject *obj;           /* strong reference while valid */
  PyObject *code;          /* GLOBAL_FUNC: strong: its __code__ when validated; CLASS: the class
                              found not to match (its tag then in kwdefaults_version): a change
                              to it may make it match again (a method patched and restored) */
  PyObject *defaults;      /* GLOBAL_FUNC: strong: its __defaults__ when validated, or NULL */
  PyObject *kwdefaults;    /* GLOBAL_FUNC: strong: its __kwdefaults__ (a dict) or NULL, */
  uint64_t kwdefaults_version; /* and that dict's version tag then (it can change in place) */
  union { double f; int64_t i; } v;
  int valid;
  PyObject *seen;          /* CLASS, valid: strong: a tuple of what the class's __qualname__ and its
                              lookups of the methods were when it matched (dynac__class_unchanged) */
} dynac_slot;

typedef struct dynac_globals {
  PyObject *globals;        /* strong: the module dict last validated against */
  uint64_t globals_version;
  PyObject *builtins;       /* strong: its builtins dict */
  uint64_t builtins_version;
  PyObject *math;           /* strong: math.__dict__, when a slot reads math */
  uint64_t math_version;
  PyObject *filename;       /* strong: co_filename of the attached code (callee check) */
  int nslots;
  const dynac_slot_desc *desc;
  dynac_slot *slots;
  int nfunc_slots;          /* the GLOBAL_FUNC and CLASS slots, checked on every call */
  const int *func_slots;
  const dynac_rt *rt;       /* set when attached; NULL in a module never attached */
  uint64_t epoch;           /* rt->annotations_epoch when last validated */
  uint64_t guard_serial;    /* rt->guard_serial when a guard last found it current */
  uint64_t refreshes;       /* how many refreshes began: a choice made from the slots
                               (heapq.h: dynac_less_pick) holds while it is unchanged */
  int refreshing;           /* a refresh is running: it may call Python code (an
                               assume_constant_result function) whose own guards read
                               this snapshot; they find its slots invalid meanwhile */
} dynac_globals;

/* A guard function: 1 if every assumption of the entry holds for these
 * arguments and globals, 0 if not (*failed names the first failing guard,
 * a static string), -1 with an exception set. args: the function's
 * positional parameters, borrowed; globals: the function's module dict. */
typedef int (*dynac_guard_fn)(PyObject *const *args, PyObject *globals, const char **failed);
/* Glue: unboxes args, runs the kernel, boxes the result into *result (new
 * reference). closure: the called function's __closure__ (a tuple of cells
 * in co_freevars order, borrowed), NULL when it has none or the caller does
 * not know it (a kernel that reads free variables then deoptimises).
 * Returns DYNAC_OK, DYNAC_DEOPT or DYNAC_ERROR. Call only after the guard
 * passed. */
typedef int (*dynac_glue_fn)(PyObject *const *args, PyObject *closure, PyObject **result);

typedef struct dynac_entry_desc {
  const char *signature;   /* "(float, float, float) -> tuple[float, float, float]" */
  dynac_guard_fn guard;
  dynac_glue_fn glue;
  int nguards;
  const char *const *guards; /* the guards, in the order checked, for explain */
  int flags;                 /* DYNAC_ENTRY_GENERIC: it takes objects of any type, so it
                                stays behind the typed entries (never moved to the front) */
} dynac_entry_desc;
#define DYNAC_ENTRY_GENERIC 1
/* DYNAC_ENTRY_CALLS_PYTHON: its kernel calls Python functions (methods, callables, builtins
 * through the C API): dispatch holds the frame hook while it runs, so that the functions it
 * calls dispatch too (Dynamo traces into them). */
#define DYNAC_ENTRY_CALLS_PYTHON 2
/* DYNAC_ENTRY_GENERIC_ONLY: an undecorated function's kernel with no typed island (every
 * operation through the C API): not faster than CPython 3.11's specialising interpreter
 * yet, so it serves calls only when DYNAC_GENERIC_KERNELS=1 (do no harm); kernels still
 * call it directly. */
#define DYNAC_ENTRY_GENERIC_ONLY 4

typedef struct dynac_func_desc {
  const char *qualname;    /* co_qualname */
  int firstlineno;         /* co_firstlineno */
  int argcount;            /* dynac_code_kernel_argcount: the kernels' arguments, in
                              co_varnames order (as a frame's localsplus holds them) */
  int nentries;
  const dynac_entry_desc *entries;
  int64_t *direct_calls;   /* calls from other kernels (not through dispatch) */
  int64_t *region_calls;   /* compiled regions that ran (graph-broken functions) */
  int flags;               /* DYNAC_FUNC_* */
  const char *freevars;    /* co_freevars joined by commas ("__class__,scale"), NULL when none:
                              its kernels read the closure's cells by these positions, so the
                              code object must have exactly these to be attached */
} dynac_func_desc;

/* The arguments a kernel of `co` takes: its positional and keyword-only
 * parameters, then the *args tuple and the **kwargs dict when it has them,
 * as the interpreter binds them into a frame's first local slots. */
static inline int dynac_code_kernel_argcount(const PyCodeObject *co) {
  return co->co_argcount + co->co_kwonlyargcount + !!(co->co_flags & CO_VARARGS) +
         !!(co->co_flags & CO_VARKEYWORDS);
}

/* Are `co`'s co_freevars exactly `names` (comma-separated; NULL: none)? */
static inline int dynac_code_freevars_are(PyCodeObject *co, const char *names) {
  PyObject *fv = PyCode_GetFreevars(co);
  if (!fv) { PyErr_Clear(); return 0; }
  int same = 1;
  const char *p = names ? names : "";
  for (Py_ssize_t i = 0; same && i < PyTuple_GET_SIZE(fv); i++) {
    const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(fv, i));
    size_t n = s ? strlen(s) : 0;
    if (!s || strncmp(p, s, n) || (p[n] != ',' && p[n] != 0)) same = 0;
    else p += n + (p[n] == ',');
  }
  Py_DECREF(fv);
  if (PyErr_Occurred()) PyErr_Clear();
  return same && *p == 0;
}

/* dynac_func_desc.flags */
#define DYNAC_FUNC_ROOT 1  /* a compile root (@compile, --all, profiled); other functions
                              dispatch only inside a root's call, as in Dynamo */
#define DYNAC_FUNC_EAGER 2 /* backend="eager": guards and dispatch, then the interpreter */

/* A code object kernels make functions of (MAKE_FUNCTION of a def, lambda
 * or generator expression nested in a compiled function): found in its
 * parent's co_consts when the artifact is attached, by co_qualname,
 * co_firstlineno and, for a def or lambda, its rank among the parent's
 * constants of that name and line (two lambdas on one line); for a
 * generator expression, the column its code starts at (two on one line:
 * CPython's constants follow its compile order, not the source's, e.g.
 * `a if b else c` puts b's first). Kept in *code (a strong reference; NULL
 * until then). */
typedef struct dynac_code_desc {
  const char *qualname;
  int firstlineno;
  int rank; /* a def's or lambda's; 0 for a generator expression */
  int col;  /* a generator expression's (dynac_compat_genexpr_col, UTF-8 bytes); -1 for the rest */
  PyObject **code;
} dynac_code_desc;

typedef struct dynac_module_desc {
  int abi_version;         /* DYNAC_ABI_VERSION */
  const char *source_name; /* "colorsys.py" */
  const char *source_sha256;
  int nfuncs;
  const dynac_func_desc *funcs;
  dynac_globals *globals;
  int ncodes;
  const dynac_code_desc *codes;
} dynac_module_desc;

/* Fills the code slots of `d` from the code objects nested in `parent`
 * (at any depth): the attach step. */
static inline void dynac_note_nested_codes(const dynac_module_desc *d, PyCodeObject *parent) {
  PyObject *consts = parent->co_consts;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(consts); i++) {
    PyObject *c = PyTuple_GET_ITEM(consts, i);
    if (!PyCode_Check(c)) continue;
    PyCodeObject *co = (PyCodeObject *)c;
    int rank = 0;
    for (Py_ssize_t j = 0; j < i; j++) {
      PyObject *o = PyTuple_GET_ITEM(consts, j);
      if (PyCode_Check(o) && ((PyCodeObject *)o)->co_firstlineno == co->co_firstlineno &&
          PyUnicode_Compare(((PyCodeObject *)o)->co_qualname, co->co_qualname) == 0)
        rank++;
    }
    for (int k = 0; k < d->ncodes; k++) {
      const dynac_code_desc *cd = &d->codes[k];
      if (cd->firstlineno == co->co_firstlineno && PyUnicode_CompareWithASCIIString(co->co_qualname, cd->qualname) == 0 &&
          (cd->col >= 0 ? dynac_compat_genexpr_col(co) == cd->col : cd->rank == rank)) { /* (the column: a copy of the bytecode) */
        Py_INCREF(c);
        Py_XSETREF(*cd->code, c);
      }
    }
    dynac_note_nested_codes(d, co);
  }
}

#define DYNAC_DESC_CAPSULE "dynac.module_desc"


static int dynac__slot_check(dynac_globals *g, int k, PyObject *mathmod);

/* Re-reads every slot from `globals`; returns -1 with an exception set only
 * on an internal error (a missing or changed value just invalidates its slot). */
static int dynac__globals_refresh(dynac_globals *g, PyObject *globals) {
  PyObject *builtins = PyDict_GetItemString(globals, "__builtins__"); /* borrowed */
  if (builtins && PyModule_Check(builtins)) builtins = PyModule_GetDict(builtins);
  if (!builtins || !PyDict_Check(builtins)) builtins = PyEval_GetBuiltins();
  PyObject *mathmod = NULL;
  for (int k = 0; k < g->nslots; k++)
    if (g->desc[k].kind == DYNAC_SLOT_MATH_MODULE || g->desc[k].kind == DYNAC_SLOT_MATH_FUNC ||
        g->desc[k].kind == DYNAC_SLOT_MATH_FLOAT) {
      mathmod = PyImport_ImportModule("math");
      if (!mathmod) return -1;
      break;
    }
  g->refreshing = 1;
  g->refreshes++;
  Py_INCREF(globals);
  Py_XSETREF(g->globals, globals);
  Py_INCREF(builtins);
  Py_XSETREF(g->builtins, builtins);
  if (mathmod) {
    PyObject *md = PyModule_GetDict(mathmod);
    Py_INCREF(md);
    Py_XSETREF(g->math, md);
  }
  for (int k = 0; k < g->nslots; k++) {
    Py_CLEAR(g->slots[k].obj);
    Py_CLEAR(g->slots[k].code);
    Py_CLEAR(g->slots[k].defaults);
    Py_CLEAR(g->slots[k].kwdefaults);
    Py_CLEAR(g->slots[k].seen);
    g->slots[k].valid = 0;
  }
  for (int k = 0; k < g->nslots; k++)
    if (dynac__slot_check(g, k, mathmod) < 0) {
      g->refreshing = 0;
      Py_XDECREF(mathmod);
      return -1;
    }
  g->refreshing = 0;
  Py_XDECREF(mathmod);
  g->globals_version = DYNAC_DICT_VERSION(g->globals);
  g->builtins_version = DYNAC_DICT_VERSION(g->builtins);
  if (g->rt) g->epoch = g->rt->annotations_epoch;
  if (g->math) g->math_version = DYNAC_DICT_VERSION(g->math);
  return 0;
}

static int dynac__is_cfunc_of(PyObject *v, PyObject *module, const char *name) {
  if (!PyCFunction_Check(v)) return 0;
  PyCFunctionObject *f = (PyCFunctionObject *)v;
  return f->m_self == module && !strcmp(f->m_ml->ml_name, name);
}

/* globals[name] as a plain function (seeing through dynac's CompiledFunction),
 * borrowed; NULL if it is something else; -1 in *err on an error. */
static PyObject *dynac__global_function(dynac_globals *g, const char *name, int *err) {
  PyObject *v = PyDict_GetItemString(g->globals, name);
  if (v && !PyFunction_Check(v) && !strcmp(Py_TYPE(v)->tp_name, "dynac.CompiledFunction")) {
    PyObject *w = PyObject_GetAttrString(v, "__wrapped__");
    if (!w) { *err = -1; return NULL; }
    Py_DECREF(w); /* kept alive by the CompiledFunction in globals */
    v = w;
  }
  return v && PyFunction_Check(v) ? v : NULL;
}

/* Reads `v` (borrowed) into the slot as the number type `kind` wants
 * ('i' int64, 'f' float, 'b' bool): 1 if it is exactly that type, else 0. */
static int dynac__load_scalar(PyObject *v, char kind, dynac_slot *s) {
  if (kind == 'f') {
    if (!PyFloat_CheckExact(v)) return 0;
    s->v.f = PyFloat_AS_DOUBLE(v);
    return 1;
  }
  if (kind == 'b') {
    if (!PyBool_Check(v)) return 0;
    s->v.i = v == Py_True;
    return 1;
  }
  return PyLong_CheckExact(v) && dynac_int64_of(v, &s->v.i);
}

/* The function behind class attribute `v` (borrowed) as a member of `kind`
 * (dynac_method_desc): v itself ('f'), the getter or setter of exactly a
 * property ('p', 'P'), the function of exactly a staticmethod ('s') or classmethod
 * ('c'); borrowed (the
 * descriptor holds it), or NULL. Their attributes run no Python code. */
static PyObject *dynac__member_function(PyObject *v, char kind) {
  const char *attr = kind == 'p' && Py_IS_TYPE(v, &PyProperty_Type) ? "fget"
                     : kind == 'P' && Py_IS_TYPE(v, &PyProperty_Type) ? "fset"
                     : kind == 's' && Py_IS_TYPE(v, &PyStaticMethod_Type) ? "__func__"
                     : kind == 'c' && Py_IS_TYPE(v, &PyClassMethod_Type) ? "__func__" : NULL;
  if (kind == 'f') return v;
  if (!attr) return NULL;
  PyObject *f = PyObject_GetAttrString(v, attr);
  if (!f) { PyErr_Clear(); return NULL; }
  Py_DECREF(f); /* kept alive by v */
  return f;
}

/* The interned str of `s` (a name in a module's descriptors, static for
 * the module's life), borrowed: kept in a small direct-mapped memo keyed by
 * the pointer and checked by content (a module unloaded may leave its
 * address to another's name), so looking a class's methods up again after
 * it changed (dynac__class_recheck) makes no new strings. NULL with an
 * exception when it cannot be made. */
static PyObject *dynac__name_of(const char *s) {
  static struct { const char *s; PyObject *name; } memo[64];
  size_t h = ((uintptr_t)s >> 3) % 64;
  if (memo[h].s == s && !strcmp(PyUnicode_AsUTF8(memo[h].name), s)) return memo[h].name;
  PyObject *name = PyUnicode_InternFromString(s);
  if (!name) return NULL;
  Py_XSETREF(memo[h].name, name); /* the memo's reference (interned strings live on anyway) */
  memo[h].s = s;
  return name;
}

/* What class tp's lookup of method md gives (*f, borrowed, NULL when it
 * has none), looked up from md->up bases above, each class on the way
 * having one base (single inheritance: the MRO is the tp_base chain). The
 * lookup gives the class a version tag. 1, 0 when the bases are not such
 * a chain, -1 with an exception. */
static int dynac__method_lookup(PyTypeObject *tp, const dynac_method_desc *md, PyObject **f) {
  for (int up = md->up; up > 0; up--) {
    if (!tp->tp_bases || PyTuple_GET_SIZE(tp->tp_bases) != 1 || !tp->tp_base) return 0;
    tp = tp->tp_base;
  }
  PyObject *name = dynac__name_of(md->name);
  if (!name) return -1;
  *f = _PyType_Lookup(tp, name);
  return 1;
}

/* Gives tp a version tag (any lookup of its own does) and tells whether it
 * has one: 1, 0, or -1 with an exception. */
static int dynac__class_tagged(PyTypeObject *tp) {
  PyObject *name = dynac__name_of("__init__");
  if (!name) return -1;
  (void)_PyType_Lookup(tp, name);
  return (tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) && tp->tp_version_tag != 0;
}

/* Is `v` (borrowed) the class statement d describes, with plain attribute
 * lookup (CPython's generic getattr), its __qualname__, and its lookup of
 * each method kernels call directly giving the function of that def (of
 * this module's file)? It then has a version tag: while the tag stays, none
 * of that changed (any assignment to the class or a base gives a new one).
 * 1, 0, or -1 with an exception. */
static int dynac__class_matches(dynac_globals *g, PyObject *v, const dynac_slot_desc *d) {
  if (!PyType_Check(v)) return 0;
  PyTypeObject *tp = (PyTypeObject *)v;
  if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) || tp->tp_getattro != PyObject_GenericGetAttr ||
      Py_TYPE(v) != &PyType_Type)
    return 0; /* a metaclass may change lookup */
  PyObject *q = ((PyHeapTypeObject *)tp)->ht_qualname;
  if (!q || !PyUnicode_Check(q) || PyUnicode_CompareWithASCIIString(q, d->name) != 0) return 0;
  for (int i = 0; i < d->nmethods; i++) {
    const dynac_method_desc *md = &d->methods[i];
    PyObject *f = NULL;
    int found = dynac__method_lookup(tp, md, &f);
    if (found <= 0) return found;
    if (md->kind == '-') {
      if (f) return 0;
      continue;
    }
    f = f ? dynac__member_function(f, md->kind) : NULL;
    if (!f || !PyFunction_Check(f)) return 0;
    PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(f);
    if (co->co_firstlineno != md->firstlineno || !PyUnicode_Check(co->co_qualname) ||
        PyUnicode_CompareWithASCIIString(co->co_qualname, md->qualname) != 0 ||
        (g->filename && PyUnicode_Compare(co->co_filename, g->filename) != 0))
      return 0;
  }
  return dynac__class_tagged(tp);
}

/* The function of the def behind class attribute f (a function, a
 * staticmethod's, ...: dynac__member_function), borrowed, or Py_None. */
static PyObject *dynac__member_def(PyObject *f, char kind) {
  PyObject *fn = f && kind != '-' ? dynac__member_function(f, kind) : NULL;
  return fn && PyFunction_Check(fn) ? fn : Py_None;
}

/* slot.seen's layout: the class's __qualname__, then per method i of the
 * class's descriptor three items: DYNAC_SEEN_RAW what its lookup gave (the
 * raw class attribute: a function, a staticmethod; None for one that must
 * be missing), DYNAC_SEEN_DEF that def's function and DYNAC_SEEN_CODE its
 * __code__ then (None, None when it has none). */
#define DYNAC_SEEN_RAW(i) (3 * (i) + 1)
#define DYNAC_SEEN_DEF(i) (3 * (i) + 2)
#define DYNAC_SEEN_CODE(i) (3 * (i) + 3)

/* What class tp's lookups give (slot.seen's layout), as a new tuple; NULL
 * on MemoryError. */
static PyObject *dynac__class_lookups(const dynac_slot_desc *d, PyTypeObject *tp) {
  PyObject *t = PyTuple_New(3 * d->nmethods + 1);
  if (!t) return NULL;
  PyTuple_SET_ITEM(t, 0, Py_NewRef(((PyHeapTypeObject *)tp)->ht_qualname));
  for (int i = 0; i < d->nmethods; i++) {
    PyObject *f = NULL;
    if (dynac__method_lookup(tp, &d->methods[i], &f) < 0) {
      Py_DECREF(t);
      return NULL;
    }
    PyObject *fn = dynac__member_def(f, d->methods[i].kind);
    PyTuple_SET_ITEM(t, DYNAC_SEEN_RAW(i), Py_NewRef(f && d->methods[i].kind != '-' ? f : Py_None));
    PyTuple_SET_ITEM(t, DYNAC_SEEN_DEF(i), Py_NewRef(fn));
    PyTuple_SET_ITEM(t, DYNAC_SEEN_CODE(i), Py_NewRef(fn != Py_None ? PyFunction_GET_CODE(fn) : Py_None));
  }
  return t;
}

/* Does method i of valid class slot s (its descriptor's methods[i], a def)
 * still run the code it ran when the class matched? */
static inline int dynac_member_code_same(const dynac_slot *s, int i) {
  PyObject *const *items = ((PyTupleObject *)s->seen)->ob_item;
  return PyFunction_GET_CODE(items[DYNAC_SEEN_DEF(i)]) == items[DYNAC_SEEN_CODE(i)];
}

/* Is function fn (borrowed) the def of one of the methods class slot s
 * (valid, of descriptor d) calls directly? */
static inline int dynac_class_holds_def(const dynac_slot_desc *d, const dynac_slot *s, PyObject *fn) {
  for (int i = 0; i < d->nmethods; i++)
    if (PyTuple_GET_ITEM(s->seen, DYNAC_SEEN_DEF(i)) == fn) return 1;
  return 0;
}

/* Does class slot k's class, with a new version tag, still match as it did
 * (its __qualname__ the same object, plain lookup, and each method's
 * lookup giving the very object, of the same code, it gave then: slot.seen)? Then what
 * changed is none of what its kernels use (a counter: `type(self).made +=
 * 1`), and the slot takes the new tag without checking each def again.
 * The objects are held, so an identity is not a new object at an old
 * address. 1 or 0 (no exception). */
static int dynac__class_unchanged(const dynac_slot_desc *d, dynac_slot *s) {
  PyObject *seen = s->seen;
  if (!s->valid || !seen || PyTuple_GET_SIZE(seen) != 3 * d->nmethods + 1) return 0;
  PyTypeObject *tp = (PyTypeObject *)s->obj;
  if (tp->tp_getattro != PyObject_GenericGetAttr || Py_TYPE(tp) != &PyType_Type ||
      ((PyHeapTypeObject *)tp)->ht_qualname != PyTuple_GET_ITEM(seen, 0))
    return 0;
  for (int i = 0; i < d->nmethods; i++) {
    PyObject *f = NULL;
    int found = dynac__method_lookup(tp, &d->methods[i], &f);
    if (found <= 0) {
      PyErr_Clear(); /* (no memory: checked in full, which meets it again) */
      return 0;
    }
    if (d->methods[i].kind == '-' ? f != NULL : f != PyTuple_GET_ITEM(seen, DYNAC_SEEN_RAW(i))) return 0;
    if (d->methods[i].kind != '-' && !dynac_member_code_same(s, i)) return 0; /* its __code__ assigned */
  }
  int tagged = dynac__class_tagged(tp); /* (a class of no methods: its new tag assigned) */
  if (tagged < 0) PyErr_Clear();
  return tagged == 1;
}

static int dynac__slot_check(dynac_globals *g, int k, PyObject *mathmod) {
  const dynac_slot_desc *d = &g->desc[k];
  dynac_slot *s = &g->slots[k];
  PyObject *v = NULL; /* borrowed */
  switch (d->kind) {
  case DYNAC_SLOT_GLOBAL_INT:
  case DYNAC_SLOT_GLOBAL_FLOAT:
  case DYNAC_SLOT_GLOBAL_BOOL:
    v = PyDict_GetItemString(g->globals, d->name);
    if (!v || !dynac__load_scalar(v, d->kind == DYNAC_SLOT_GLOBAL_FLOAT ? 'f'
                                     : d->kind == DYNAC_SLOT_GLOBAL_BOOL ? 'b' : 'i', s))
      return 0;
    break;
  case DYNAC_SLOT_GLOBAL_FUNC: {
    int err = 0;
    v = dynac__global_function(g, d->name, &err);
    if (err) return -1;
    if (!v) return 0;
    PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(v);
    if (co->co_firstlineno != d->firstlineno || !PyUnicode_Check(co->co_qualname) ||
        PyUnicode_CompareWithASCIIString(co->co_qualname, d->qualname) != 0)
      return 0;
    if (g->filename && PyUnicode_Compare(co->co_filename, g->filename) != 0) return 0;
    if (g->rt && g->rt->is_disallowed(v)) return 0;
    Py_INCREF(co);
    s->code = (PyObject *)co;
    Py_XINCREF(PyFunction_GET_DEFAULTS(v));
    s->defaults = PyFunction_GET_DEFAULTS(v);
    Py_XINCREF(PyFunction_GET_KW_DEFAULTS(v));
    s->kwdefaults = PyFunction_GET_KW_DEFAULTS(v);
    s->kwdefaults_version = s->kwdefaults ? DYNAC_DICT_VERSION(s->kwdefaults) : 0;
    break;
  }
  case DYNAC_SLOT_DEFAULT_INT:
  case DYNAC_SLOT_DEFAULT_FLOAT:
  case DYNAC_SLOT_DEFAULT_BOOL:
  case DYNAC_SLOT_DEFAULT_NONE: {
    int err = 0;
    PyObject *fn = dynac__global_function(g, d->name, &err);
    if (err) return -1;
    if (!fn) return 0;
    if (d->module_slot >= 0) { /* __defaults__[k] */
      PyObject *defs = PyFunction_GET_DEFAULTS(fn);
      if (!defs || !PyTuple_Check(defs) || d->module_slot >= PyTuple_GET_SIZE(defs)) return 0;
      v = PyTuple_GET_ITEM(defs, d->module_slot);
    } else { /* a keyword-only parameter: __kwdefaults__[name] */
      PyObject *kw = PyFunction_GET_KW_DEFAULTS(fn);
      v = kw && PyDict_Check(kw) && d->attr ? PyDict_GetItemString(kw, d->attr) : NULL;
      if (!v) return 0;
    }
    if (d->kind == DYNAC_SLOT_DEFAULT_NONE) {
      if (v != Py_None) return 0;
    } else if (!dynac__load_scalar(v, d->kind == DYNAC_SLOT_DEFAULT_FLOAT ? 'f'
                                   : d->kind == DYNAC_SLOT_DEFAULT_BOOL ? 'b' : 'i', s))
      return 0;
    break;
  }
  case DYNAC_SLOT_BUILTIN: {
    if (PyDict_GetItemString(g->globals, d->name)) return 0; /* shadowed */
    v = PyDict_GetItemString(g->builtins, d->name);
    if (!v) return 0;
    if (!strcmp(d->name, "int")) { if (v != (PyObject *)&PyLong_Type) return 0; }
    else if (!strcmp(d->name, "float")) { if (v != (PyObject *)&PyFloat_Type) return 0; }
    else if (!strcmp(d->name, "bool")) { if (v != (PyObject *)&PyBool_Type) return 0; }
    else if (PyType_Check(v)) { /* `raise ValueError(...)`: the interpreter's own class */
      PyTypeObject *tp = (PyTypeObject *)v;
      if (!PyExceptionClass_Check(v) || (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) ||
          strcmp(tp->tp_name, d->name))
        return 0;
    } else {
      if (!PyCFunction_Check(v)) return 0;
      PyObject *self = ((PyCFunctionObject *)v)->m_self;
      if (!self || !PyModule_Check(self) || strcmp(PyModule_GetName(self), "builtins") ||
          strcmp(((PyCFunctionObject *)v)->m_ml->ml_name, d->name))
        return 0;
    }
    break;
  }
  case DYNAC_SLOT_MATH_MODULE:
    v = PyDict_GetItemString(g->globals, d->name);
    if (!v || v != mathmod) return 0;
    break;
  case DYNAC_SLOT_NAME:
    s->valid = 1;
    return 0;
  case DYNAC_SLOT_OPAQUE:
    v = PyDict_GetItemString(g->globals, d->name);
    if (!v || !g->rt || !PyCallable_Check(v) || g->rt->is_disallowed(v)) return 0;
    break;
  case DYNAC_SLOT_CONST_INT:
  case DYNAC_SLOT_CONST_FLOAT:
  case DYNAC_SLOT_CONST_BOOL: {
    PyObject *fn = PyDict_GetItemString(g->globals, d->name);
    if (!fn || !g->rt || g->rt->is_disallowed(fn)) return 0;
    PyObject *r = g->rt->constant_result(fn); /* borrowed */
    if (!r) return -1; /* the function raised: so would the interpreter */
    if (!dynac__load_scalar(r, d->kind == DYNAC_SLOT_CONST_FLOAT ? 'f'
                               : d->kind == DYNAC_SLOT_CONST_BOOL ? 'b' : 'i', s))
      return 0;
    v = fn; /* the dict version pins the function's identity */
    break;
  }
  case DYNAC_SLOT_CLASS:
    v = PyDict_GetItemString(g->globals, d->name);
    if (!v) return 0;
    switch (dynac__class_matches(g, v, d)) {
    case -1: return -1;
    case 0: /* remembered as it is now (code, kwdefaults_version): a change puts it back, maybe */
      if (PyType_Check(v)) {
        if (dynac__class_tagged((PyTypeObject *)v) < 0) return -1;
        s->code = Py_NewRef(v);
        s->kwdefaults_version = ((PyTypeObject *)v)->tp_version_tag;
      }
      return 0;
    }
    s->v.i = ((PyTypeObject *)v)->tp_version_tag;
    Py_XSETREF(s->seen, dynac__class_lookups(d, (PyTypeObject *)v));
    if (!s->seen) return -1; /* MemoryError: a valid slot has its seen (dynac_member_code_same) */
    break;
  case DYNAC_SLOT_MATH_FUNC:
  case DYNAC_SLOT_MATH_FLOAT:
    if (d->module_slot >= 0) {
      if (!g->slots[d->module_slot].valid) return 0;
      v = PyDict_GetItemString(g->math, d->attr);
    } else {
      v = PyDict_GetItemString(g->globals, d->name);
    }
    if (!v) return 0;
    if (d->kind == DYNAC_SLOT_MATH_FLOAT ? !dynac__load_scalar(v, 'f', s)
                                         : !dynac__is_cfunc_of(v, mathmod, d->attr))
      return 0;
    break;
  }
  Py_INCREF(v);
  s->obj = v;
  s->valid = 1;
  return 0;
}

/* Re-reads class slot k alone, its class having a new version tag while
 * the module's globals did not change (`type(self).count += 1`, a class
 * attribute assigned: CPython's type_modified): its methods looked up
 * again, so a counter in a class costs one class's lookups per change,
 * not a refresh of every slot. refreshes counts it (what was picked for
 * the old class is dropped: dynac_less_picks). 0, or -1 with an exception. */
DYNAC_COLD int dynac__class_slot_refresh(dynac_globals *g, int k) {
  dynac_slot *s = &g->slots[k];
  g->refreshes++;
  if (dynac__class_unchanged(&g->desc[k], s)) {
    s->v.i = ((PyTypeObject *)s->obj)->tp_version_tag;
    return 0;
  }
  Py_CLEAR(s->seen);
  Py_CLEAR(s->obj);
  Py_CLEAR(s->code);
  s->valid = 0;
  g->refreshing = 1;
  int r = dynac__slot_check(g, k, NULL);
  g->refreshing = 0;
  return r;
}

/* Does the function of GLOBAL_FUNC slot s (valid) still have the
 * __code__, __defaults__ and __kwdefaults__ (contents too) it was
 * validated with? */
static inline int dynac__func_slot_unchanged(const dynac_slot *s) {
  return PyFunction_GET_CODE(s->obj) == s->code && PyFunction_GET_DEFAULTS(s->obj) == s->defaults &&
         PyFunction_GET_KW_DEFAULTS(s->obj) == s->kwdefaults &&
         (!s->kwdefaults || DYNAC_DICT_VERSION(s->kwdefaults) == s->kwdefaults_version);
}

/* Brings the snapshot up to date for `globals` (borrowed). Cheap when
 * nothing changed: three version-tag compares and two pointer compares
 * (__code__, __defaults__, __kwdefaults__) per called function. Returns 0, or -1 with an
 * exception set. */
static inline int dynac_globals_update(dynac_globals *g, PyObject *globals) {
  if (DYNAC_UNLIKELY(g->refreshing)) return 0; /* re-entered from a refresh: its slots are invalid */
  if (DYNAC_UNLIKELY(globals != g->globals || DYNAC_DICT_VERSION(globals) != g->globals_version ||
                     DYNAC_DICT_VERSION(g->builtins) != g->builtins_version ||
                     (g->math && DYNAC_DICT_VERSION(g->math) != g->math_version) ||
                     (g->rt && g->rt->annotations_epoch != g->epoch)))
    return dynac__globals_refresh(g, globals);
  for (int i = 0; i < g->nfunc_slots; i++) {
    const dynac_slot *s = &g->slots[g->func_slots[i]];
    if (g->desc[g->func_slots[i]].kind == DYNAC_SLOT_CLASS) { /* the class changed since */
      if ((s->valid ? DYNAC_UNLIKELY(((PyTypeObject *)s->obj)->tp_version_tag != (unsigned int)s->v.i)
                    : s->code && ((PyTypeObject *)s->code)->tp_version_tag != s->kwdefaults_version) &&
          dynac__class_slot_refresh(g, g->func_slots[i]) < 0)
        return -1;
      continue;
    }
    if (s->valid && DYNAC_UNLIKELY(!dynac__func_slot_unchanged(s))) return dynac__globals_refresh(g, globals);
  }
  return 0;
}

/* Is f, the module function a kernel read as a call began (slot s), still
 * what the callee's kernel was built for: s's object, with the __code__,
 * __defaults__ and __kwdefaults__ the guard found? Asked where the call's
 * arguments ran Python code: CPython 3.11's LOAD_GLOBAL pushes the
 * function before its arguments run, so a rebinding of the name then does
 * not change the function called, an assignment to its __code__ or
 * defaults does. */
static inline int dynac_callee_still(const dynac_slot *s, PyObject *f) {
  return f && s->valid && s->obj == f && dynac__func_slot_unchanged(s);
}

/* dynac_globals_update for a guard: once per try of a call's entries (see
 * dynac_rt.guard_serial), a module's later guards in the same try reuse it. */
static inline int dynac_globals_update_for_guard(dynac_globals *g, PyObject *globals) {
  if (g->rt && g->guard_serial == g->rt->guard_serial && globals == g->globals && !g->refreshing) return 0;
  if (dynac_globals_update(g, globals) < 0) return -1;
  if (g->rt && !g->refreshing) g->guard_serial = g->rt->guard_serial;
  return 0;
}

/* What a kernel last found of the module-level values it reads (one per
 * kernel, static: the values are the module's, whichever call of the
 * kernel looked): dynac__py_serial and the module's refreshes count then. */
typedef struct dynac_kslots_seen {
  uint64_t serial, refreshes;
} dynac_kslots_seen;

/* Mid-call: do the module-level values a kernel reads (slot indices ks[0..n),
 * its direct callees' too) still hold, now that Python code its module's
 * kernels ran (a callback, an object's method, a global stored) may have
 * changed them? Quick where nothing changed: the module's dict, its
 * builtins' and math's unchanged (their version tags: PEP 509), no
 * function's __code__ or defaults assigned (the epoch: cache.h,
 * dynac__code_assigned), and no refresh of the slots since the kernel
 * last found them valid (the entry guard checked them at the refresh it
 * saw, and only a refresh changes them). Else the snapshot is brought up
 * to date (dynac_globals_update) and each slot must still be valid. A
 * class changed meanwhile is seen where its methods are called
 * (DYNAC_CLASS_FRESH). 1 yes (*seen updated); 0 no: the kernel goes on in
 * the interpreter from the statement it was starting (dynac_continue),
 * which reads the new values as LOAD_GLOBAL would. An exception from the
 * refresh (an assume_constant_result function raised, a MemoryError) is
 * left to the interpreter too: cleared, 0. Out of line (cold): the
 * kernel's own frame stays as small as without the check (deep recursion
 * through kernels keeps its C stack). */
DYNAC_COLD int dynac_globals_still(dynac_globals *g, const int *ks, int n, dynac_kslots_seen *seen) {
  if (g->refreshing || DYNAC_DICT_VERSION(g->globals) != g->globals_version ||
      DYNAC_DICT_VERSION(g->builtins) != g->builtins_version ||
      (g->math && DYNAC_DICT_VERSION(g->math) != g->math_version) || !g->rt ||
      g->rt->annotations_epoch != g->epoch || seen->refreshes != g->refreshes) {
    if (dynac_globals_update(g, g->globals) < 0) {
      PyErr_Clear();
      return 0;
    }
    for (int i = 0; i < n; i++)
      if (!g->slots[ks[i]].valid) return 0;
    seen->refreshes = g->refreshes;
  }
  seen->serial = dynac__py_serial;
  return 1;
}
/* A kernel's check before a statement that reads module-level values:
 * unless no Python code ran in its module's kernels since it last looked
 * (one compare: CPython 3.11's LOAD_GLOBAL_MODULE compares the dict's keys
 * version at each execution), they are checked again
 * (dynac_globals_still). True when one changed. */
#define DYNAC_GLOBALS_CHANGED(g, ks, n, seen) \
  (DYNAC_UNLIKELY(dynac__py_serial != (seen)->serial) && !dynac_globals_still((g), (ks), (n), (seen)))

/* NameError "name 'x' is not defined" with its .name set, as 3.11's
 * format_exc_check_arg makes it (tracebacks suggest similar names from it). */
static inline void dynac_name_error(PyObject *name) {
  PyErr_Format(PyExc_NameError, "name '%U' is not defined", name);
  PyObject *exc = dynac_compat_fetch_raised();
  if (!exc) return;
  if (PyObject_SetAttrString(exc, "name", name) < 0) PyErr_Clear();
  dynac_compat_restore_raised(exc);
}

/* A global read as LOAD_GLOBAL reads it: `name` (an interned str,
 * borrowed) in the module's dict, else in its builtins. A new reference, or
 * NULL with CPython's NameError. Dict lookups with str keys run no Python
 * code. */
static inline PyObject *dynac_load_global(const dynac_globals *g, PyObject *name) {
  PyObject *v = PyDict_GetItemWithError(g->globals, name);
  if (!v && !PyErr_Occurred()) v = PyDict_GetItemWithError(g->builtins, name);
  if (v) return Py_NewRef(v);
  if (!PyErr_Occurred()) dynac_name_error(name);
  return NULL;
}

/* STORE_GLOBAL of a name declared `global`: the module dict's name = v (v
 * borrowed). 0, or -1 with the exception (MemoryError). */
static inline int dynac_store_global(const dynac_globals *g, PyObject *name, PyObject *v) {
  return PyDict_SetItem(g->globals, name, v);
}
/* DELETE_GLOBAL: del of a name declared `global`; NameError when the
 * module does not bind it. 0, or -1 with the exception. */
static inline int dynac_delete_global(const dynac_globals *g, PyObject *name) {
  int r = PyDict_DelItem(g->globals, name);
  if (r < 0 && PyErr_ExceptionMatches(PyExc_KeyError)) {
    PyErr_Clear();
    dynac_name_error(name);
  }
  return r;
}

/* One LOAD_GLOBAL site's cache, as CPython 3.11's LOAD_GLOBAL keeps one
 * inline: the value found (borrowed: the dict that holds it is unchanged
 * while its version tag is) and the version tags (PEP 509) of the module
 * dict and of builtins when it was found. Zeroed: empty. */
typedef struct dynac_global_cache {
  PyObject *globals, *builtins, *value;
  uint64_t globals_version, builtins_version;
} dynac_global_cache;

/* dynac_load_global through a site's cache: no dict lookup while neither
 * dict changed since the last read (version tags are unique across dicts,
 * so a new dict at an old address never matches). A new reference, or NULL
 * with CPython's NameError. */
static DYNAC_NOINLINE PyObject *dynac__load_global_miss(const dynac_globals *g, PyObject *name,
                                                         dynac_global_cache *c);
static inline int dynac__global_cache_hit(const dynac_globals *g, const dynac_global_cache *c) {
  return c->value && c->globals == g->globals && c->builtins == g->builtins &&
         DYNAC_DICT_VERSION(g->globals) == c->globals_version &&
         DYNAC_DICT_VERSION(g->builtins) == c->builtins_version;
}
static inline PyObject *dynac_load_global_cached(const dynac_globals *g, PyObject *name, dynac_global_cache *c) {
  if (DYNAC_LIKELY(dynac__global_cache_hit(g, c))) return Py_NewRef(c->value);
  return dynac__load_global_miss(g, name, c); /* out of line: a loop reading `np` keeps its registers */
}
/* The same for a global a class slot validates (a class of the module: its
 * constructor calls): while the slot is valid and the module's dict has not
 * changed since the slots were checked (its version), the global is the
 * slot's class, as CPython 3.11's LOAD_GLOBAL_MODULE trusts its keys
 * version; one compare instead of the cache's five. */
static inline PyObject *dynac_load_global_slot(const dynac_globals *g, const dynac_slot *s, PyObject *name,
                                               dynac_global_cache *c) {
  if (DYNAC_LIKELY(s->valid && DYNAC_DICT_VERSION(g->globals) == g->globals_version)) return Py_NewRef(s->obj);
  return dynac_load_global_cached(g, name, c);
}
/* The same, borrowed: the globals' or builtins' dict holds it. Only for a
 * value compared before any Python code can run (a ufunc's module, whose
 * miss path holds it itself): no reference count written per read. */
static inline PyObject *dynac_load_global_borrowed(const dynac_globals *g, PyObject *name,
                                                   dynac_global_cache *c) {
  if (DYNAC_LIKELY(dynac__global_cache_hit(g, c))) return c->value;
  PyObject *v = dynac__load_global_miss(g, name, c);
  Py_XDECREF(v); /* still held by the dict it was found in */
  return v;
}
static DYNAC_NOINLINE PyObject *dynac__load_global_miss(const dynac_globals *g, PyObject *name,
                                                         dynac_global_cache *c) {
  PyObject *v = dynac_load_global(g, name);
  if (v) {
    c->globals = g->globals, c->builtins = g->builtins, c->value = v;
    c->globals_version = DYNAC_DICT_VERSION(g->globals);
    c->builtins_version = DYNAC_DICT_VERSION(g->builtins);
  }
  return v;
}

/* Guard macros used by generated guard functions (args, failed in scope). */
#define DYNAC_GUARD_FLOAT(i, text) \
  if (!PyFloat_CheckExact(args[i])) { *failed = text; return 0; }
#define DYNAC_GUARD_INT(i, text) \
  if (!dynac_is_int64(args[i])) { *failed = text; return 0; }
#define DYNAC_GUARD_LIST(i, text) \
  if (!PyList_CheckExact(args[i])) { *failed = text; return 0; }
#define DYNAC_GUARD_BUF(i, kind, fmt, strided, text) \
  if (!dynac_view_matches(args[i], kind, fmt, strided)) { *failed = text; return 0; }
#define DYNAC_GUARD_UNBOX(i, unbox, ctype, text) \
  { ctype dynac__tmp; if (unbox(args[i], &dynac__tmp)) { *failed = text; return 0; } }
#define DYNAC_GUARD_NP(i, fmt, text) \
  if (!dynac_is_np(args[i], fmt)) { *failed = text; return 0; }
#define DYNAC_GUARD_BOOL(i, text) \
  if (!PyBool_Check(args[i])) { *failed = text; return 0; }
#define DYNAC_GUARD_NONE(i, text) \
  if (args[i] != Py_None) { *failed = text; return 0; }
#define DYNAC_GUARD_GLOBALS(g) \
  if (dynac_globals_update_for_guard((g), globals) < 0) return -1;
/* Only the module's dict (a kernel that reads no slot may go on in the
 * interpreter: dynac_continue builds the rest of the function from it). */
#define DYNAC_GUARD_GLOBALS_DICT(g) \
  if ((g)->globals != globals && dynac_globals_update_for_guard((g), globals) < 0) return -1;
#define DYNAC_GUARD_SLOT(g, k, text) \
  if (!(g)->slots[k].valid) { *failed = text; return 0; }
/* args[i] is an instance of exactly the class of slot k (checked valid before). */
#define DYNAC_GUARD_INSTANCE(g, k, i, text) \
  if ((PyObject *)Py_TYPE(args[i]) != (g)->slots[k].obj) { *failed = text; return 0; }

/* May a construction of tp (its class guard's class, unchanged since) run
 * the __init__ kernel dynac synthesised from a @dataclass's fields
 * (generator/dataclass_init.c, `fields` comma-separated, the last
 * `ndefaults` with a default; options: DYNAC_DC_FROZEN, DYNAC_DC_POST_INIT): is tp's __init__ the one dataclasses
 * generated for them (dynac_compat_dataclass_init)? Asked at each such
 * construction site, once per version tag of tp (*seen: the last that said
 * yes): where it is not, that site makes the instance by CPython's call,
 * and nothing else about the class changes. 1 or 0. */
static inline int dynac_dataclass_init_ok(PyTypeObject *tp, unsigned int *seen, const char *fields, int ndefaults,
                                          int options) {
  if (DYNAC_LIKELY(tp->tp_version_tag && *seen == tp->tp_version_tag)) return 1;
  PyObject *name = dynac__name_of("__init__");
  PyObject *f = name ? _PyType_Lookup(tp, name) : NULL; /* borrowed; gives tp a version tag */
  int ok = f ? dynac_compat_dataclass_init(tp, f, fields, ndefaults, options) : name ? 0 : -1;
  if (ok < 0) PyErr_Clear(); /* a MemoryError: CPython's call, which raises its own */
  if (ok > 0 && (tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) *seen = tp->tp_version_tag;
  return ok > 0;
}

/* The closure of the function `tp`'s lookup of `name` gives (borrowed):
 * what the kernel of a method using super() (its __class__ cell) takes
 * when called directly, tp's version tag checked before (the lookup then
 * gives the def the class guard saw). NULL if it is not a function. */
static inline PyObject *dynac_method_closure(PyTypeObject *tp, PyObject *name) {
  PyObject *f = _PyType_Lookup(tp, name);
  return f && PyFunction_Check(f) ? PyFunction_GET_CLOSURE(f) : NULL;
}

/* The default CPython's call binds to positional parameter `i` (self or
 * cls is parameter 0, but for a staticmethod) of the function `tp`'s
 * lookup of `name` gives (a def, or the def a staticmethod or classmethod
 * wraps), for a call that leaves it out:
 * __defaults__[i - (co_argcount - len(__defaults__))], read when the call
 * runs, as CPython reads it. Borrowed (the caller takes its own reference
 * before anything else runs), or NULL when the lookup gives no such
 * function or its __defaults__ now do not reach parameter i (CPython's
 * call then raises its TypeError). */
static inline PyObject *dynac_method_default(PyTypeObject *tp, PyObject *name, int i) {
  PyObject *f = dynac_compat_wrapped_function(_PyType_Lookup(tp, name));
  if (!f || !PyFunction_Check(f)) return NULL;
  PyObject *d = PyFunction_GET_DEFAULTS(f);
  int argc = ((PyCodeObject *)PyFunction_GET_CODE(f))->co_argcount;
  if (!d || i >= argc || i < argc - PyTuple_GET_SIZE(d)) return NULL;
  return PyTuple_GET_ITEM(d, i - (argc - PyTuple_GET_SIZE(d)));
}
/* The default of keyword-only parameter `param` (interned) of the function
 * tp's lookup of `name` finds (a def, or the def a staticmethod or
 * classmethod wraps; its __kwdefaults__ entry, as CPython's call binds it
 * when the call leaves it out), borrowed; NULL when it is no function or
 * has none (no exception). */
static inline PyObject *dynac_method_kwdefault(PyTypeObject *tp, PyObject *name, PyObject *param) {
  PyObject *f = dynac_compat_wrapped_function(_PyType_Lookup(tp, name));
  PyObject *d = f && PyFunction_Check(f) ? PyFunction_GET_KW_DEFAULTS(f) : NULL;
  if (!d || !PyDict_CheckExact(d)) return NULL;
  PyObject *v = PyDict_GetItemWithError(d, param);
  if (!v) PyErr_Clear(); /* (a key's __eq__ raised: CPython's call meets it again) */
  return v;
}

/* tp's base `up` levels above (the class guard checked each is the only base). */
static inline PyTypeObject *dynac_type_up(PyTypeObject *tp, int up) {
  while (up-- > 0) tp = tp->tp_base;
  return tp;
}

/* Class slot k (valid) of g, whose class a kernel met with a new version
 * tag mid-call (a class attribute assigned: `type(self).made += 1` in
 * __init__; a method's __code__ assigned: dynac__code_assigned), looked at
 * again while the module's globals did not change
 * (dynac__class_slot_refresh): when it still matches, the call site's test
 * after it passes and calls its kernel directly; else the site takes
 * CPython's lookup (a MemoryError is left to meet there). */
DYNAC_COLD void dynac__class_recheck(dynac_globals *g, int k) {
  if (g->refreshing || !g->globals || DYNAC_DICT_VERSION(g->globals) != g->globals_version) return;
  if (dynac__class_slot_refresh(g, k) < 0) PyErr_Clear();
}
/* In a kernel, before a call site's test of class slot k (its direct call
 * of a method's or __init__'s kernel): tp (any object; compared by address
 * first) being the slot's class with a new version tag, the slot is looked
 * at again (dynac__class_recheck) so that the test after it passes. One
 * compare on the hot path, the rest out of line. The site's test stays as
 * it was: a call inside it (449287c's) cost raytrace 14%. */
#define DYNAC_CLASS_FRESH(k, tp) \
  do { \
    if (DYNAC_UNLIKELY((PyObject *)(tp) == dynac__slots[k].obj && \
                       ((PyTypeObject *)(tp))->tp_version_tag != (unsigned int)dynac__slots[k].v.i)) \
      dynac__class_recheck(&dynac__G, (k)); \
  } while (0)

/* A call site o.m(...) calling m's kernel directly: the instance shadows no
 * method (dynac_compat_instance_has's memo of the keys it looked at). */
typedef struct dynac_method_site { void *keys; Py_ssize_t nkeys; } dynac_method_site;

/* May o.m(...) call the kernel of the def the class's guard (slot `cls`)
 * checked: is o an instance of exactly that class, unchanged since (its
 * version tag), with no attribute `name` of its own? Else the call goes
 * through CPython's lookup (a method patched on the class or the instance
 * mid-call). As CPython 3.11's LOAD_METHOD_WITH_VALUES checks it. */
static inline int dynac_method_current(PyObject *o, const dynac_slot *cls, PyObject *name, dynac_method_site *site) {
  PyTypeObject *tp = Py_TYPE(o);
  return cls->valid && (PyObject *)tp == cls->obj && tp->tp_version_tag == (unsigned int)cls->v.i &&
         !dynac_compat_instance_has(o, name, &site->keys, &site->nkeys);
}

/* ==== End runtime/descriptors.h ==== */
/* ==== Begin runtime/records.h ==== */
/* runtime/records.h: instances kernels keep as their fields. A part of single_include/dynac.h (make single_include). */
/* ---- records: instances kept as fields (scalar replacement) --------------
 * `p = Vec(x, y, z)` of a plain class whose __init__ only sets float, int
 * or bool attributes (generator/classes.c: classes_recordable) need not
 * allocate the instance while only kernels look at it: a kernel keeps it
 * as a C struct (one per class, emitted with the kernels: a dynac_rec_head,
 * then the fields in the order __init__ sets them), passes it to other
 * kernels by address and reads its fields directly. The instance is made
 * (dynac_rec_force) the first time anything else needs it: generic code, a
 * container, the interpreter going on with the kernel's locals. From then
 * on the object is the value: every read and write goes through it, so
 * the instance keeps one identity however many kernels share the struct.
 * The idea is PyPy's virtual objects (allocation removal, "forced" when
 * they escape) and the escape analysis of JIT compilers; the guard that
 * keeps it exact is the class's version tag, as CPython 3.11's
 * specialised LOAD_ATTR keeps its caches: a struct's fields are read as
 * fields only while its class has the version tag it had when the struct
 * was made (no property, __setattr__ or class attribute of a field's name
 * added since; dynac_rec_ok checked there was none then). */
typedef struct dynac_rec_head {
  PyObject *obj;        /* the instance once made (owned), else NULL */
  PyTypeObject *tp;     /* its class (owned); NULL: no value */
  unsigned int version; /* tp's version tag when the struct was made */
  uint32_t set;         /* bit i: field i holds a value (__init__ sets them in order); 0 once obj is made */
  PyObject **kept;      /* NULL, or [32] by field: the object a field's nan came from (owned; dynac_rec_keep) */
} dynac_rec_head;

/* One field of a class's struct: its attribute name, kind ('f' float,
 * 'i' int64, 'b' bool) and offset in the struct. */
typedef struct dynac_rec_field {
  const char *name;
  char kind;
  size_t offset;
} dynac_rec_field;

/* A class's struct as the runtime sees it (one per class, emitted). */
typedef struct dynac_rec_desc {
  int nfields;
  const dynac_rec_field *fields;
  PyObject *names[32];      /* the fields' names, interned once */
  dynac_attr_cache stores[32]; /* where instances keep each field (dynac_rec_force's stores) */
  unsigned int ok_version;  /* dynac_rec_ok's last yes (a version tag), 0: none */
  int frozen;               /* a frozen dataclass: __init__ stores as object.__setattr__ does
                               (DYNAC_STORE_GENERIC), any other store goes through the instance,
                               whose __setattr__ raises FrozenInstanceError */
} dynac_rec_desc;

/* Releases the objects the struct keeps for its fields (dynac_rec_keep). */
DYNAC_COLD void dynac__rec_drop_kept(dynac_rec_head *h) {
  PyObject **kept = h->kept;
  h->kept = NULL;
  for (int i = 0; i < 32; i++) Py_XDECREF(kept[i]);
  PyMem_Free(kept);
}

/* Releases what the struct holds (its instance, its class, the objects
 * it keeps): it holds no value after. */
static inline void dynac_rec_release(dynac_rec_head *h) {
  Py_CLEAR(h->obj);
  Py_CLEAR(h->tp);
  h->set = 0;
  if (DYNAC_UNLIKELY(h->kept != NULL)) {
    dynac__rec_drop_kept(h);
    h->kept = NULL; /* (said again here: the compiler then knows a new struct keeps none) */
  }
}

/* After a store of float v into field i of the struct: the field keeps o
 * (borrowed; NULL: none), the object v came from (its caller's argument, a
 * default), when v is a nan, so that the instance made later holds it, as
 * CPython's `self.x = x` stores it: `DV(x, y) == DV(x, y)` of a nan x is
 * True in CPython (the two instances share x, and the tuples dataclass's
 * __eq__ compares test identity first), and so it is here. Another value
 * keeps nothing (an object kept for the field before is released): a
 * float's identity CPython does not promise, and keeping every one cost
 * ~4% of raytrace's time. The generated store calls this only for a nan
 * given as an object or while the struct keeps objects (h->kept). */
DYNAC_COLD void dynac_rec_keep(dynac_rec_head *h, int i, PyObject *o, double v) {
  if (h->kept) Py_CLEAR(h->kept[i]);
  if (!o || !isnan(v)) return;
  if (!h->kept && !(h->kept = (PyObject **)PyMem_Calloc(32, sizeof(PyObject *)))) return; /* (no memory: a new box later) */
  h->kept[i] = Py_NewRef(o);
}

/* Starts a struct for a new instance of tp, no field set yet (tp borrowed). */
static inline void dynac_rec_begin(dynac_rec_head *h, PyTypeObject *tp) {
  dynac_rec_release(h);
  h->tp = (PyTypeObject *)Py_NewRef((PyObject *)tp);
  h->version = tp->tp_version_tag;
}

/* Moves the value of struct src (of `size` bytes) into dst, releasing
 * dst's; src holds none after (a call's result into a local). */
static inline void dynac_rec_move(void *dst, void *src, size_t size) {
  dynac_rec_release((dynac_rec_head *)dst);
  memcpy(dst, src, size);
  memset(src, 0, sizeof(dynac_rec_head)); /* (its fields are not read again: no value) */
}

/* Is field i of the struct read and written as a field now: no instance
 * made, the field set, the class unchanged since the struct was made? */
static inline int dynac_rec_plain(const dynac_rec_head *h, int i) {
  return ((h->set >> i) & 1u) && h->tp->tp_version_tag == h->version; /* set is 0 once made */
}
/* Are all the fields in `mask` plain (dynac_rec_plain of each)? A
 * statement that reads several fields of one struct and runs no Python
 * code between the reads (generator/emit/records.c: rec_checks) asks
 * this once, before its first read, and keeps the answer in a flag that
 * a read through the instance clears. */
static inline int dynac_rec_plain_mask(const dynac_rec_head *h, uint32_t mask) {
  return (h->set & mask) == mask && h->tp->tp_version_tag == h->version;
}
/* May field stores go into the struct (no instance made, class unchanged)? */
static inline int dynac_rec_unmade(const dynac_rec_head *h) {
  return !h->obj && h->tp->tp_version_tag == h->version;
}

/* The interned name of field i (borrowed; NULL with MemoryError). */
static inline PyObject *dynac_rec_name(dynac_rec_desc *d, int i) {
  if (!d->names[i]) d->names[i] = PyUnicode_InternFromString(d->fields[i].name);
  return d->names[i];
}

/* May instances of tp (the class the kernel's guard checked) be kept as
 * fields: is setting a field in __init__ a plain store into the
 * instance's values, and making it object.__new__'s? As
 * classes_recordable decided from the source, checked on the live class
 * once per version tag: generic getattr and setattr (any setattr for a
 * frozen dataclass, whose __init__ stores past it), object's __new__, no
 * finalizer, managed inline values, and no data descriptor named like a
 * field (a property, a slot). A class attribute that is no data
 * descriptor (a dataclass field's default, a method) is fine: the
 * instance's own value hides it, as PyObject_GenericGetAttr looks. 1 or 0. */
static inline int dynac_rec_ok(dynac_rec_desc *d, PyTypeObject *tp) {
  if (DYNAC_LIKELY(tp->tp_version_tag && d->ok_version == tp->tp_version_tag)) return 1;
  if ((!d->frozen && tp->tp_setattro != PyObject_GenericSetAttr) || tp->tp_getattro != PyObject_GenericGetAttr ||
      tp->tp_new != PyBaseObject_Type.tp_new || tp->tp_finalize || tp->tp_del ||
      !(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT))
    return 0;
  for (int i = 0; i < d->nfields; i++) {
    PyObject *name = dynac_rec_name(d, i);
    if (!name) { PyErr_Clear(); return 0; }
    PyObject *attr = _PyType_Lookup(tp, name); /* (which also gives tp a version tag) */
    if (attr && Py_TYPE(attr)->tp_descr_set) return 0;
  }
  if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
  d->ok_version = tp->tp_version_tag;
  return 1;
}

/* The struct's field i as an object (a new reference, NULL with
 * MemoryError): the object it keeps (dynac_rec_keep), else boxed. */
static inline PyObject *dynac__rec_box_field(dynac_rec_head *h, const dynac_rec_field *f, int i) {
  if (h->kept && h->kept[i]) return Py_NewRef(h->kept[i]);
  const char *p = (const char *)h + f->offset;
  if (f->kind == 'f') return PyFloat_FromDouble(*(const double *)p);
  if (f->kind == 'i') return PyLong_FromLongLong(*(const int64_t *)p);
  return Py_NewRef(*(const bool *)p ? Py_True : Py_False);
}

/* The instance the struct stands for (borrowed; NULL with an exception):
 * made now if it was not, as object.__new__(tp) then __init__'s stores
 * made it, its set fields stored in order. While the class is unchanged,
 * each is the store __init__ made (into the instance's values, in
 * insertion order, through a cache per field); a class changed since may have a
 * descriptor of that name now, which the store made earlier never met:
 * the value goes into the instance's __dict__ itself. */
DYNAC_COLD PyObject *dynac_rec_force(dynac_rec_head *h, dynac_rec_desc *d) {
  if (h->obj) return h->obj;
  PyObject *o = dynac_object_new(h->tp);
  if (!o) return NULL;
  int same = h->tp->tp_version_tag == h->version;
  for (int i = 0; i < d->nfields; i++) {
    if (!((h->set >> i) & 1u)) continue;
    PyObject *name = dynac_rec_name(d, i), *v = name ? dynac__rec_box_field(h, &d->fields[i], i) : NULL;
    PyObject *dict = v && !same ? PyObject_GenericGetDict(o, NULL) : NULL;
    int effects = 0;
    int owner = DYNAC_STORE_OTHER | (d->frozen ? DYNAC_STORE_GENERIC : 0); /* as __init__ stored it */
    int rc = !v ? -1 : same ? dynac_obj_setattr_cached(o, name, v, &d->stores[i], &effects, owner)
                            : dict ? PyDict_SetItem(dict, name, v) : -1;
    Py_XDECREF(dict);
    Py_XDECREF(v);
    if (rc < 0) { Py_DECREF(o); return NULL; }
  }
  h->obj = o;
  h->set = 0; /* the fields are the instance's now: dynac_rec_plain needs no test of obj */
  if (h->kept) dynac__rec_drop_kept(h);
  return o;
}
/* The instance as a new reference (dynac_rec_force), NULL with an exception. */
static inline PyObject *dynac_rec_box(dynac_rec_head *h, dynac_rec_desc *d) {
  PyObject *o = h->obj ? h->obj : dynac_rec_force(h, d);
  return o ? Py_NewRef(o) : NULL;
}

/* An object where a struct of class cls (borrowed) is typed (a call
 * CPython made, a continuation's result): kept as that instance when it is
 * one of exactly cls (0; o borrowed), else 1 (nothing changed). */
static inline int dynac_rec_from(PyObject *o, PyObject *cls, dynac_rec_head *h) {
  if ((PyObject *)Py_TYPE(o) != cls) return 1;
  dynac_rec_begin(h, Py_TYPE(o));
  h->obj = Py_NewRef(o);
  return 0;
}

/* Field i of kind float / int / bool through the instance (the struct's
 * field is not plain: dynac_rec_plain), as dynac_attr_float reads an
 * attribute: 0 with *out, 1 when it holds another type, -1 with an
 * exception (AttributeError for a field not set yet). */
DYNAC_COLD int dynac_rec_attr_float(dynac_rec_head *h, dynac_rec_desc *d, int i, dynac_attr_cache *c,
                                    int *effects, double *out) {
  PyObject *o = dynac_rec_force(h, d), *name = dynac_rec_name(d, i);
  return o && name ? dynac_attr_float(o, name, c, effects, out) : -1;
}
DYNAC_COLD int dynac_rec_attr_int(dynac_rec_head *h, dynac_rec_desc *d, int i, dynac_attr_cache *c,
                                  int *effects, int64_t *out) {
  PyObject *o = dynac_rec_force(h, d), *name = dynac_rec_name(d, i);
  return o && name ? dynac_attr_int(o, name, c, effects, out) : -1;
}
DYNAC_COLD int dynac_rec_attr_bool(dynac_rec_head *h, dynac_rec_desc *d, int i, dynac_attr_cache *c,
                                   int *effects, bool *out) {
  PyObject *o = dynac_rec_force(h, d), *name = dynac_rec_name(d, i);
  return o && name ? dynac_attr_bool(o, name, c, effects, out) : -1;
}
/* Field i = v (v a new reference, NULL: a failed box) through the
 * instance, as STORE_ATTR stores it (owner: DYNAC_STORE_OTHER), or as
 * object.__setattr__ does (| DYNAC_STORE_GENERIC: a frozen dataclass's
 * __init__). 0, or -1 with an exception. */
DYNAC_COLD int dynac_rec_setattr(dynac_rec_head *h, dynac_rec_desc *d, int i, PyObject *v, dynac_attr_cache *c,
                                 int *effects, int owner) {
  PyObject *o = v ? dynac_rec_force(h, d) : NULL, *name = o ? dynac_rec_name(d, i) : NULL;
  int rc = name ? dynac_obj_setattr_cached(o, name, v, c, effects, owner) : -1;
  Py_XDECREF(v);
  return rc;
}

/* The class whose guard covers a call on the struct's instance: the
 * instance's own type once made (__class__ may have been assigned). */
static inline PyTypeObject *dynac_rec_type(const dynac_rec_head *h) {
  return h->obj ? Py_TYPE(h->obj) : h->tp;
}
/* May r.m(...) call the kernel of the def class slot `cls` checked (as
 * dynac_method_current asks of an object)? A struct with no instance has
 * no attributes of its own to shadow m. */
static inline int dynac_rec_method_current(dynac_rec_head *h, const dynac_slot *cls, PyObject *name,
                                           dynac_method_site *site) {
  if (h->obj) return dynac_method_current(h->obj, cls, name, site);
  return cls->valid && (PyObject *)h->tp == cls->obj && h->tp->tp_version_tag == (unsigned int)cls->v.i;
}
/* ==== End runtime/records.h ==== */
/* ==== Begin runtime/api.h ==== */
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

/* ==== End runtime/api.h ==== */
/* ==== Begin runtime/impl_options.h ==== */
/* runtime/impl_options.h: the implementation's includes and options. A part of single_include/dynac.h (make single_include). */
/* ======================================================================
 * Implementation
 * ==================================================================== */
#ifdef DYNAC_IMPLEMENTATION
#ifndef DYNAC_IMPLEMENTATION_DONE
#define DYNAC_IMPLEMENTATION_DONE

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <structmember.h>

#ifndef DYNAC_MALLOC
#define DYNAC_MALLOC(n) PyMem_RawMalloc(n)
#define DYNAC_FREE(p) PyMem_RawFree(p)
#endif
#ifndef DYNAC_ASSERT
#include <assert.h>
#define DYNAC_ASSERT(x) assert(x)
#endif
#ifndef DYNAC_CACHE_LIMIT
#define DYNAC_CACHE_LIMIT 8 /* Dynamo's cache_size_limit */
#endif

/* ==== End runtime/impl_options.h ==== */
/* ==== Begin runtime/cache.h ==== */
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

/* ==== End runtime/cache.h ==== */
/* ==== Begin runtime/dispatch.h ==== */
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

/* ==== End runtime/dispatch.h ==== */
/* ==== Begin runtime/hook.h ==== */
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

/* ==== End runtime/hook.h ==== */
/* ==== Begin runtime/stats.h ==== */
/* runtime/stats.h: counters. A part of single_include/dynac.h (make single_include). */
/* ---- counters ------------------------------------------------------------ */
static int dynac__add_count(PyObject *d, const char *key, int64_t v) {
  PyObject *old = PyDict_GetItemString(d, key); /* borrowed */
  long long base = old ? PyLong_AsLongLong(old) : 0;
  PyObject *n = PyLong_FromLongLong(base + v);
  if (!n) return -1;
  int r = PyDict_SetItemString(d, key, n);
  Py_DECREF(n);
  return r;
}

DYNAC_API PyObject *dynac_stats(void) {
  PyObject *out = PyDict_New();
  if (!out) return NULL;
  for (dynac__cache *c = dynac__caches; c; c = c->next) {
    PyObject *d = PyDict_GetItemString(out, c->name); /* borrowed */
    if (!d) {
      d = PyDict_New();
      if (!d || PyDict_SetItemString(out, c->name, d) < 0) { Py_XDECREF(d); goto error; }
      Py_DECREF(d);
      PyObject *entries = PyList_New(0);
      if (!entries || PyDict_SetItemString(d, "entries", entries) < 0) { Py_XDECREF(entries); goto error; }
      Py_DECREF(entries);
      if (dynac__add_count(d, "direct_calls", c->retired_direct +
                           (c->fd->direct_calls ? *c->fd->direct_calls : 0)) < 0 ||
          dynac__add_count(d, "region_kernel_calls", c->retired_region +
                           (c->fd->region_calls ? *c->fd->region_calls : 0)) < 0)
        goto error;
    }
    int64_t hits = c->retired_hits;
    PyObject *entries = PyDict_GetItemString(d, "entries");
    for (int i = 0; i < c->n; i++) {
      hits += c->e[i].hits;
      PyObject *e = Py_BuildValue("{s:s,s:L,s:L,s:s}", "signature", c->e[i].d->signature,
                                  "hits", (long long)c->e[i].hits, "guard_failures",
                                  (long long)c->e[i].misses, "last_failed_guard",
                                  c->e[i].last_fail ? c->e[i].last_fail : "");
      if (!e || PyList_Append(entries, e) < 0) { Py_XDECREF(e); goto error; }
      Py_DECREF(e);
    }
    if (dynac__add_count(d, "kernel_calls", hits) < 0 ||
        dynac__add_count(d, "guard_failures", c->unguarded) < 0 ||
        dynac__add_count(d, "interpreter_calls", c->interpreter) < 0 ||
        dynac__add_count(d, "deopts", c->deopts) < 0 ||
        dynac__add_count(d, "resume_calls", c->resume_calls) < 0 ||
        dynac__add_count(d, "outside_root_calls", c->outside_root) < 0)
      goto error;
    PyObject *flags = Py_BuildValue("{s:O,s:O,s:O}", "root",
                                    (c->fd->flags & DYNAC_FUNC_ROOT) ? Py_True : Py_False, "eager",
                                    (c->fd->flags & DYNAC_FUNC_EAGER) ? Py_True : Py_False,
                                    "disallowed", c->disallowed ? Py_True : Py_False);
    if (!flags || PyDict_Update(d, flags) < 0) { Py_XDECREF(flags); goto error; }
    Py_DECREF(flags);
  }
  return out;
error:
  Py_DECREF(out);
  return NULL;
}

DYNAC_API void dynac_stats_reset(void) {
  for (dynac__cache *c = dynac__caches; c; c = c->next) {
    c->interpreter = c->deopts = c->resume_calls = c->outside_root = c->unguarded = 0;
    c->retired_hits = c->retired_direct = c->retired_region = 0;
    if (c->fd->direct_calls) *c->fd->direct_calls = 0;
    if (c->fd->region_calls) *c->fd->region_calls = 0;
    for (int i = 0; i < c->n; i++) c->e[i].hits = c->e[i].misses = 0;
  }
}

/* ==== End runtime/stats.h ==== */
/* ==== Begin runtime/compiled.h ==== */
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
/* ==== End runtime/compiled.h ==== */
