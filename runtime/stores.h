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

