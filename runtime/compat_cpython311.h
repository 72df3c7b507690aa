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
