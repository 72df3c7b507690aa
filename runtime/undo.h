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

