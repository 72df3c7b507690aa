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

