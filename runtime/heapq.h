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
