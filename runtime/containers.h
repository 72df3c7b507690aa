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
  int readonly;
  PyObject *obj;
  Py_ssize_t len1, stride1;
  char *span;                 /* lowest byte of any item */
  Py_ssize_t span_len;        /* bytes from `span` to the end of the highest item */
  Py_ssize_t logged, snap_after;
  int snapped;                /* the span is saved in the log: writes need no entry */
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
  case 'n': case 'N': if (strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray")) return 0; break;
  default: return 0;
  }
  if (PyObject_GetBuffer(o, pb, PyBUF_RECORDS_RO) < 0) { PyErr_Clear(); return 0; }
  int ok = dynac_native_format(pb->format) == fmt && pb->ndim == ndim &&
           pb->itemsize == dynac_fmt_size(fmt) &&
           (strided || (ndim == 1 && pb->strides[0] == pb->itemsize) ||
            PyBuffer_IsContiguous(pb, 'C'));
  if (!ok) { PyBuffer_Release(pb); return 0; }
  v->buf = (char *)pb->buf;
  v->len = pb->shape[0];
  v->stride = pb->strides[0];
  v->len1 = ndim == 2 ? pb->shape[1] : 0;
  v->stride1 = ndim == 2 ? pb->strides[1] : 0;
  v->readonly = pb->readonly;
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
/* For guards: the same check, releasing the buffer at once. */
static inline int dynac_view_matches(PyObject *o, char kind, char fmt, int strided) {
  Py_buffer pb;
  dynac_view v;
  if (!dynac_view_acquire(o, kind, fmt, strided, &pb, &v)) return 0;
  PyBuffer_Release(&pb);
  return 1;
}

