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

