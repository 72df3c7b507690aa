/* arrays.c: numpy arrays a kernel makes or slices, typed as the ndarrays
 * it holds (runtime/containers.h's pins): np.zeros(...), np.empty_like(a),
 * np.arange(...), a.copy(), ... (numpy's own function called, its result
 * checked), and views: a[1:-1], a[1:-1, j], a[i] of a 2-D array (numpy's
 * own indexing). What else meets an ndarray (a + b, np.sum(a), a.T,
 * a[mask], a[1:] = v) goes through the C API as any object's operation.
 */
#include "infer.h"

#include <string.h>

bool names_numpy(const module *m, const expr *e) {
  const char *target = e->kind == EX_NAME ? scope_import_target(m, e->u.global->name) : NULL;
  return target && !strcmp(target, "numpy");
}

/* The dtype letter a dtype= value names (float, int, bool, np.float32,
 * numpy.int64, a name imported from numpy), or 0. */
static char dtype_named(ctx *c, const expr *e) {
  const char *name = NULL;
  if (e->kind == EX_NAME) {
    const char *target = scope_import_target(c->m, e->u.global->name);
    name = target ? target : e->u.global->name;
  } else if (e->kind == EX_ATTR && names_numpy(c->m, e->u.sub.obj)) {
    name = arena_printf(c->m->a, "numpy.%s", e->u.sub.attr);
  }
  if (!name) return 0;
  if (!strcmp(name, "float")) return 'd';
  if (!strcmp(name, "int")) return 'l';
  if (!strcmp(name, "bool")) return '?';
  if (strncmp(name, "numpy.", 6)) return 0;
  static const char letters[] = "dflihbB?";
  for (const char *f = letters; *f; f++)
    if (!strcmp(name + 6, np_name(*f))) return *f;
  return !strcmp(name + 6, "double") ? 'd' : 0;
}

/* The dtype numpy gives a value of type t in an array (np.full's fill,
 * np.array's items), or 0. */
static char dtype_of_value(const type *t) {
  switch (t->kind) {
  case TY_FLOAT: return 'd';
  case TY_INT: return 'l';
  case TY_BOOL: return '?';
  case TY_NP: return t->fmt;
  default: return 0;
  }
}

/* The number of dimensions a shape argument of type t gives (an int, a
 * tuple of ints), or 0. */
static int shape_ndim(const type *t) {
  if (t->kind == TY_INT || t->kind == TY_BOOL || is_np_int(t)) return 1;
  if (t->kind != TY_TUPLE) return 0;
  for (int i = 0; i < t->n; i++)
    if (t->elts[i]->kind != TY_INT && !is_np_int(t->elts[i])) return 0;
  return t->n;
}

/* The numpy function `callee` names (numpy.random.rand is not one; zeros
 * imported from numpy is): its name, or NULL. Read at run time as any
 * global is. (np.zeros(...) is a method call of the module: type_made_array.) */
static const char *numpy_function(module *m, const expr *callee) {
  if (callee->kind == EX_NAME) {
    const char *target = scope_import_target(m, callee->u.global->name);
    return target && !strncmp(target, "numpy.", 6) && !strchr(target + 6, '.') ? target + 6 : NULL;
  }
  return callee->kind == EX_ATTR && names_numpy(m, callee->u.sub.obj) ? callee->u.sub.attr : NULL;
}

/* The kernel holds the arrays it makes or slices (pins): not in a
 * function with graph breaks, whose regions pass their locals boxed (there
 * the array is an object: numpy's call or indexing through the C API). */
static bool pins_arrays(ctx *c) {
  if (c->in->fn->partial) return false;
  c->in->pins = true;
  c->in->containers = true;
  return true;
}

/* Positional argument k (after the callee) of call e, or the keyword
 * argument `kw`: its index in e->u.call.args, or -1. */
static int call_arg(const expr *e, int k, const char *kw) {
  int npos = e->u.call.n - e->u.call.nkw - 1;
  if (k < npos) return k + 1;
  for (int i = 0; kw && i < e->u.call.nkw; i++)
    if (!strcmp(e->u.call.kwnames[i], kw)) return e->u.call.n - e->u.call.nkw + i;
  return -1;
}

/* Are all of e's keyword arguments among `known` (NULL-terminated)? */
static bool keywords_known(const expr *e, const char *const *known) {
  for (int i = 0; i < e->u.call.nkw; i++) {
    bool ok = false;
    for (const char *const *k = known; *k; k++) ok |= !strcmp(e->u.call.kwnames[i], *k);
    if (!ok) return false;
  }
  return true;
}

/* keepdims= of a reduction: 1 for a literal True, 0 for none or a literal
 * False, -1 for another value (numpy's call, untyped). */
static int keepdims_arg(const expr *e) {
  int i = call_arg(e, 99, "keepdims");
  if (i < 0) return 0;
  const expr *v = e->u.call.args[i];
  return v->kind == EX_BOOL ? (int)v->u.b : -1;
}

/* The dtype of dtype= (or positional argument k), else `dflt`; 0 when it
 * names none kernels take. */
static char dtype_arg(ctx *c, const expr *e, int k, char dflt) {
  int i = call_arg(e, k, "dtype");
  if (i < 0) return dflt;
  if (e->u.call.args[i]->kind == EX_NONE) return dflt;
  return dtype_named(c, e->u.call.args[i]);
}

static bool float64_tree(module *m, const inst *in, const expr *e, bool *arrays);
static bool c_ordered_leaves(module *m, const inst *in, const expr *e, int *ndim);

/* The ndarray numpy function `fn` returns for arguments of types `at`
 * (at[0] the callee), as numpy documents it; NULL when the result is not
 * typed (the call's object is used as it is). The result is checked when
 * it comes (dtype, dimensions, layout): a guess that does not hold costs a
 * deoptimisation, never a wrong value. */
static const type *made_array_type(ctx *c, const expr *e, const char *fn, const type **at) {
  static const char *const dtype_only[] = {"dtype", NULL};
  int npos = e->u.call.n - e->u.call.nkw - 1;
  int a0 = call_arg(e, 0, NULL);
  const type *t0 = a0 > 0 ? at[a0] : NULL;
  char fmt = 0;
  int ndim = 0;
  bool strided = false;
  if (!strcmp(fn, "zeros") || !strcmp(fn, "ones") || !strcmp(fn, "empty")) {
    if (!t0 || npos > 2 || !keywords_known(e, dtype_only)) return NULL;
    ndim = shape_ndim(t0);
    fmt = dtype_arg(c, e, 1, 'd');
  } else if (!strcmp(fn, "full")) {
    int v = call_arg(e, 1, "fill_value");
    static const char *const kws[] = {"fill_value", "dtype", NULL};
    if (!t0 || v < 0 || npos > 3 || !keywords_known(e, kws)) return NULL;
    ndim = shape_ndim(t0);
    fmt = dtype_arg(c, e, 2, dtype_of_value(at[v]));
  } else if (!strcmp(fn, "zeros_like") || !strcmp(fn, "ones_like") || !strcmp(fn, "empty_like") ||
             !strcmp(fn, "full_like") || !strcmp(fn, "copy")) {
    bool full = !strcmp(fn, "full_like");
    static const char *const kws[] = {"dtype", "fill_value", NULL};
    if (!t0 || !ty_is_ndarray(t0) || npos > (full ? 3 : 2) || !keywords_known(e, full ? kws : dtype_only))
      return NULL;
    if (!strcmp(fn, "copy") && (npos > 1 || e->u.call.nkw)) return NULL;
    ndim = t0->ndim;
    fmt = dtype_arg(c, e, full ? 2 : 1, t0->fmt);
    strided = t0->strided; /* order='K': the input's layout, C-contiguous from a C-contiguous one */
  } else if (!strcmp(fn, "arange")) {
    if (npos < 1 || npos > 3 || !keywords_known(e, dtype_only)) return NULL;
    fmt = 'l';
    for (int k = 0; k < npos; k++) {
      const type *t = at[k + 1];
      if (t->kind == TY_FLOAT || (t->kind == TY_NP && np_is_float(t->fmt))) fmt = 'd';
      else if (t->kind != TY_INT && t->kind != TY_BOOL && !is_np_int(t)) return NULL;
    }
    fmt = dtype_arg(c, e, 3, fmt);
    ndim = 1;
  } else if (!strcmp(fn, "linspace")) {
    static const char *const kws[] = {"num", "endpoint", "dtype", NULL};
    if (npos < 2 || npos > 4 || !keywords_known(e, kws)) return NULL;
    fmt = dtype_arg(c, e, 5, 'd');
    ndim = 1;
  } else if (!strcmp(fn, "cumsum") || !strcmp(fn, "sum") || !strcmp(fn, "prod") || !strcmp(fn, "mean") ||
             !strcmp(fn, "max") || !strcmp(fn, "min") || !strcmp(fn, "amax") || !strcmp(fn, "amin")) {
    /* np.cumsum(a) (flattened: 1-D), np.cumsum(a, axis=k) (a's shape), np.sum(a, axis=k) of a 2-D float64
       array (a row fewer: 1-D); an axis of another type (None: a scalar) is numpy's call untyped */
    static const char *const kws[] = {"axis", "keepdims", NULL};
    int ax = call_arg(e, 1, "axis"), in_ndim = 0, keep = keepdims_arg(e);
    bool cumsum = !strcmp(fn, "cumsum"), arrays = false;
    if (!t0 || npos > 2 || !keywords_known(e, kws) || keep < 0 || (keep && cumsum)) return NULL;
    if (ty_is_ndarray(t0) && t0->fmt == 'd') in_ndim = t0->ndim;
    else if (t0->kind == TY_OBJ && float64_tree(c->m, c->in, e->u.call.args[a0], &arrays) && arrays &&
             !c_ordered_leaves(c->m, c->in, e->u.call.args[a0], &in_ndim)) /* np.sum(a * a, axis=1) */
      return NULL;
    if (!in_ndim || (ax > 0 && at[ax]->kind != TY_INT)) return NULL;
    if (ax < 0 && !cumsum) return NULL; /* np.sum(a): a number (np_reduction_type) */
    if (!cumsum && in_ndim != 2) return NULL;
    fmt = 'd';
    ndim = cumsum ? (ax > 0 ? in_ndim : 1) : keep ? 2 : 1; /* keepdims=True: (n, 1) or (1, m) */
  } else if (!strcmp(fn, "dot")) { /* np.dot(A, x), np.dot(A, B) of float64 arrays: numpy's product, new */
    int a1 = call_arg(e, 1, NULL);
    const type *t1 = a1 > 0 ? at[a1] : NULL;
    if (!t0 || !t1 || npos != 2 || e->u.call.nkw || !ty_is_ndarray(t0) || !ty_is_ndarray(t1) || t0->fmt != 'd' ||
        t1->fmt != 'd' || t0->ndim + t1->ndim < 3)
      return NULL;
    fmt = 'd';
    ndim = t0->ndim + t1->ndim - 2;
  } else if (!strcmp(fn, "array")) {
    if (!t0 || npos > 2 || !keywords_known(e, dtype_only)) return NULL;
    const type *el = t0;
    while (el->kind == TY_LIST && ndim < 3) el = el->elts[0], ndim++;
    if (ty_is_ndarray(t0)) el = ty_elem(t0), ndim = t0->ndim;
    fmt = dtype_arg(c, e, 1, dtype_of_value(el));
  } else {
    return NULL;
  }
  return fmt && ndim ? ty_ndarray(fmt, ndim, strided) : NULL;
}

const char *numpy_callee(module *m, const expr *e) {
  if (e->u.call.kind != CALLEE_METHOD && e->u.call.kind != CALLEE_VALUE) return NULL;
  const expr *recv = e->u.call.args[0];
  return e->u.call.argform ? NULL
         : e->u.call.kind == CALLEE_METHOD ? (names_numpy(m, recv) ? e->u.call.name : NULL)
         : numpy_function(m, recv);
}

const type *type_made_array(ctx *c, expr *e, const type **at) {
  const type *r = np_reduction_type(c->m, c->in, e); /* np.max(a): numpy's, its result checked */
  if (r) return r; /* (called with the call already typed generic) */
  const char *fn = numpy_callee(c->m, e);
  const type *t = fn ? made_array_type(c, e, fn, at) : NULL;
  if (!t || !pins_arrays(c)) return NULL;
  return t;
}

/* Is e a float64 whole-array expression: + - * / ** and unary - of float64
 * arrays and numbers, numpy ufuncs of such (ops.c's table: np.exp, np.sqrt,
 * np.maximum, ...; `arrays`: some leaf is an array)? numpy's value is then
 * a float64 ndarray. */
static bool float64_tree(module *m, const inst *in, const expr *e, bool *arrays) {
  const type *t = ty_of(in, e);
  if (ty_is_ndarray(t)) return t->fmt == 'd' && (*arrays = true);
  if (t->kind == TY_FLOAT || t->kind == TY_INT || t->kind == TY_NUM || (t->kind == TY_NP && t->fmt == 'd'))
    return true; /* (an int | float | numpy.float64 | numpy.int64 meets a float64 array as a float64) */
  if (t->kind != TY_OBJ || t->cls) return false;
  switch (e->kind) {
  case EX_BINOP:
    return !e->u.bin.inplace && e->u.bin.op <= OP_POW && /* + - * / // % ** */
           float64_tree(m, in, e->u.bin.l, arrays) && float64_tree(m, in, e->u.bin.r, arrays);
  case EX_UNARY: return e->u.un.op == UN_NEG && float64_tree(m, in, e->u.un.a, arrays);
  case EX_CALL: {
    const char *fn = e->u.call.kind == CALLEE_METHOD && !e->u.call.nkw ? numpy_callee(m, e) : NULL;
    if (fn && !strcmp(fn, "where") && e->u.call.n == 4) { /* np.where(a < b, x, y): x's or y's items */
      const expr *c = e->u.call.args[1];
      bool ignored = false;
      return c->kind == EX_COMPARE && c->u.cmp.n == 2 && c->u.cmp.ops[0] <= CMP_NE &&
             float64_tree(m, in, c->u.cmp.operands[0], &ignored) && float64_tree(m, in, c->u.cmp.operands[1], &ignored) &&
             float64_tree(m, in, e->u.call.args[2], arrays) && float64_tree(m, in, e->u.call.args[3], arrays);
    }
    if (!fn || !ops_find(OPS_NP_UFUNC, fn, e->u.call.n - 1)) return false; /* np.exp(x): float64 of float64 */
    for (int i = 1; i < e->u.call.n; i++)
      if (!float64_tree(m, in, e->u.call.args[i], arrays)) return false;
    return true;
  }
  default: return false;
  }
}

bool whole_array_expr(module *m, const inst *in, const expr *e) {
  bool arrays = false;
  if (e->kind == EX_BINOP && e->u.bin.inplace && ty_is_ndarray(ty_of(in, e))) /* p /= s */
    return inplace_array_type(m, in, ty_of(in, e->u.bin.l), e->u.bin.r) != NULL;
  return ty_of(in, e)->kind == TY_OBJ && float64_tree(m, in, e, &arrays) && arrays;
}

/* None or np.newaxis in an index: numpy's new axis of length 1. */
bool is_newaxis(module *m, const expr *p) {
  return p->kind == EX_NONE || (p->kind == EX_ATTR && !strcmp(p->u.sub.attr, "newaxis") &&
                                names_numpy(m, p->u.sub.obj));
}
/* x[:, np.newaxis] / x[None, lo:hi] of a 1-D array: a view numpy
 * broadcasts against the other operands, whose strides give numpy's
 * iterator no order to keep (one of its axes has length 1). */
static bool newaxis_view(module *m, const expr *e) {
  if (e->kind != EX_SUBSCRIPT || e->u.sub.index->kind != EX_TUPLE) return false;
  const expr *ix = e->u.sub.index;
  for (int i = 0; i < ix->u.tuple.n; i++)
    if (is_newaxis(m, ix->u.tuple.elts[i])) return true;
  return false;
}

/* The array leaves of float64 tree e: none strided but new-axis views
 * (*ndim: the most dimensions of one: numpy's result's, a 1-D leaf
 * broadcast as a row); false otherwise. numpy's result is then C-ordered. */
static bool c_ordered_leaves(module *m, const inst *in, const expr *e, int *ndim) {
  const type *t = ty_of(in, e);
  if (ty_is_ndarray(t)) {
    if (t->strided && !newaxis_view(m, e)) return false;
    if (t->ndim > *ndim) *ndim = t->ndim;
    return true;
  }
  switch (e->kind) {
  case EX_BINOP: return c_ordered_leaves(m, in, e->u.bin.l, ndim) && c_ordered_leaves(m, in, e->u.bin.r, ndim);
  case EX_UNARY: return c_ordered_leaves(m, in, e->u.un.a, ndim);
  case EX_COMPARE: /* np.where's condition */
    return c_ordered_leaves(m, in, e->u.cmp.operands[0], ndim) && c_ordered_leaves(m, in, e->u.cmp.operands[1], ndim);
  case EX_CALL:
    for (int i = 1; i < e->u.call.n; i++)
      if (!c_ordered_leaves(m, in, e->u.call.args[i], ndim)) return false;
    return true;
  default: return true;
  }
}

bool array_sum_arg(module *m, const inst *in, const expr *a) {
  const type *t = ty_of(in, a);
  bool arrays = false;
  int ndim = 0;
  if (ty_is_ndarray(t)) return t->fmt == 'd' && t->ndim == 1;
  return t->kind == TY_OBJ && float64_tree(m, in, a, &arrays) && arrays && c_ordered_leaves(m, in, a, &ndim) &&
         ndim == 1;
}

/* A @ x, A @ B of float64 arrays (2-D with 1-D or 2-D): numpy's matmul
 * makes a new C-ordered float64 array of that many dimensions; 0 for
 * another product (x @ y of two 1-D arrays is a number). */
static int matmul_ndim(const inst *in, const expr *v) {
  if (v->kind != EX_BINOP || v->u.bin.op != OP_MATMUL || v->u.bin.inplace) return 0;
  const type *l = ty_of(in, v->u.bin.l), *r = ty_of(in, v->u.bin.r);
  if (!ty_is_ndarray(l) || !ty_is_ndarray(r) || l->fmt != 'd' || r->fmt != 'd' || l->ndim + r->ndim < 3) return 0;
  return l->ndim + r->ndim - 2;
}

const type *array_result_type(ctx *c, const expr *v) {
  bool arrays = false;
  int ndim = matmul_ndim(c->in, v);
  if (ndim && ty_of(c->in, v)->kind == TY_OBJ && pins_arrays(c)) return ty_ndarray('d', ndim, false);
  if (ty_of(c->in, v)->kind != TY_OBJ || !float64_tree(c->m, c->in, v, &arrays) || !arrays ||
      !c_ordered_leaves(c->m, c->in, v, &ndim) || !pins_arrays(c))
    return NULL;
  return ty_ndarray('d', ndim, false);
}

/* a op= v with `a` a float64 ndarray, `v` a number, a numpy scalar, an
 * ndarray (of the dtypes kernels type) or a float64 whole-array expression:
 * numpy's in-place ufunc writes `a` and gives it back (ndarray.__iadd__
 * never defers to such an operand), so the result is typed as `a` is;
 * else NULL. */
const type *inplace_array_type(module *m, const inst *in, const type *a, const expr *v) {
  const type *t = ty_of(in, v);
  bool arrays = false;
  if (!ty_is_ndarray(a) || a->fmt != 'd') return NULL;
  bool number = t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || t->kind == TY_NP ||
                ty_is_ndarray(t);
  return number || (t->kind == TY_OBJ && float64_tree(m, in, v, &arrays)) ? a : NULL;
}

/* np.dot(x, y), x.dot(y) of two 1-D float64 arrays: a number, numpy's
 * (BLAS ddot adds in an order of its own: only numpy's call gives its bits). */
static bool dot_1d(module *m, const inst *in, const expr *e) {
  const char *fn = numpy_callee(m, e); /* np.dot(x, y) */
  int first = 1;
  if (!fn && e->u.call.kind == CALLEE_METHOD) fn = e->u.call.name, first = 0; /* x.dot(y) */
  if (!fn || strcmp(fn, "dot") || e->u.call.n != first + 2) return false;
  for (int i = first; i < first + 2; i++) {
    const type *t = ty_of(in, e->u.call.args[i]);
    if (!ty_is_ndarray(t) || t->fmt != 'd' || t->ndim != 1) return false;
  }
  return true;
}

const type *np_reduction_type(module *m, const inst *in, const expr *e) {
  static const char *const names[] = {"min", "max", "amin", "amax", "sum", "prod", "mean", "argmin", "argmax",
                                      NULL};
  if (e->u.call.nkw || e->u.call.argform) return NULL;
  if (dot_1d(m, in, e)) return ty_np('d');
  const char *name = NULL;
  const expr *a = NULL;
  if (e->u.call.kind == CALLEE_METHOD && e->u.call.n == 1) name = e->u.call.name, a = e->u.call.args[0];
  else if (e->u.call.n == 2 && numpy_callee(m, e)) name = numpy_callee(m, e), a = e->u.call.args[1];
  const type *t = a ? ty_of(in, a) : NULL;
  bool arrays = false;
  if (t && t->kind == TY_OBJ && e->u.call.kind == CALLEE_METHOD && name && (!strcmp(name, "sum") || !strcmp(name, "mean")) &&
      float64_tree(m, in, a, &arrays) && arrays)
    return ty_np('d'); /* np.sum(x * y): numpy's float64 sum */
  if (!t || !ty_is_ndarray(t) || (t->fmt != 'd' && t->fmt != 'l')) return NULL;
  int k = 0;
  while (names[k] && strcmp(names[k], name)) k++;
  if (!names[k] || (e->u.call.kind == CALLEE_METHOD && (!strcmp(name, "amin") || !strcmp(name, "amax"))))
    return NULL; /* a.amin(): no such method */
  if (!strncmp(name, "arg", 3)) return ty_np('l'); /* a position: numpy.int64 (intp) */
  return ty_np(!strcmp(name, "mean") ? 'd' : t->fmt);
}

/* a.sum(axis=k), a.mean(k), a.max/min/prod(axis=k) of a 2-D float64 array
 * (numpy's reduction along k: 1-D), a.cumsum() (1-D) and a.cumsum(axis=k)
 * (a's shape): numpy's method, its new array typed as np.sum(A, axis=k)'s
 * is (made_array_type); NULL for any other form. */
static const type *axis_method_type(ctx *c, const expr *e, const type *t) {
  static const char *const names[] = {"sum", "mean", "max", "min", "prod", "cumsum", NULL};
  static const char *const kws[] = {"axis", "keepdims", NULL};
  int k = 0;
  while (names[k] && strcmp(names[k], e->u.call.name)) k++;
  if (!names[k] || t->fmt != 'd' || e->u.call.argform || !keywords_known(e, kws)) return NULL;
  int npos = e->u.call.n - e->u.call.nkw - 1, ax = call_arg(e, 0, "axis"), keep = keepdims_arg(e);
  bool cumsum = !strcmp(e->u.call.name, "cumsum");
  if (npos > 1 || (ax > 0 && TY(e->u.call.args[ax])->kind != TY_INT) || keep < 0 || (keep && cumsum)) return NULL;
  if (ax < 0) return cumsum ? ty_ndarray('d', 1, false) : NULL; /* a.sum(): a number (np_reduction_type) */
  if (!cumsum && t->ndim != 2) return NULL;
  return ty_ndarray('d', cumsum ? t->ndim : keep ? 2 : 1, false); /* keepdims=True: (n, 1) or (1, m) */
}

/* (a * a).sum(axis=0) and the other axis methods of a whole-array
 * expression's value (numpy's new C-ordered float64 array, then its
 * method): typed as the same method of such an array is; else NULL. */
const type *type_expr_method(ctx *c, const expr *e) {
  const type *rt = array_result_type(c, e->u.call.args[0]);
  return rt ? axis_method_type(c, e, rt) : NULL;
}

/* a.copy() of an ndarray: a new C-contiguous array of its dtype; reductions
 * along an axis and cumsum (axis_method_type) likewise typed; any other
 * method of an ndarray (a.reshape(...), a.fill(0)) is numpy's, called
 * through the C API. */
const type *type_array_method(ctx *c, expr *e, const type **at) {
  const type *t = at[0];
  const type *r = np_reduction_type(c->m, c->in, e); /* a.max(): numpy's, its result checked */
  if (r) {
    generic_op(c);
    return r;
  }
  if (!strcmp(e->u.call.name, "copy") && e->u.call.n == 1 && pins_arrays(c))
    return ty_ndarray(t->fmt, t->ndim, false);
  const type *made = axis_method_type(c, e, t);
  if (made && pins_arrays(c)) return made;
  for (int i = 1; i < e->u.call.n; i++)
    if (!generic_operand(at[i]) && at[i]->kind != TY_NP && at[i]->kind != TY_NONE) {
      type_fail(c, e->pos, arena_printf(c->m->a, "ndarray.%s() with a %s argument", e->u.call.name,
                                        ty_python_name(c->m->a, at[i])));
      return &ty_conflict;
    }
  return generic_op(c);
}

/* Is the slice object `lo:hi:step` of a multi-dimensional index (an
 * EX_SLICE with no object) typed with bounds a view may take? */
static bool view_bounds(ctx *c, expr *s) {
  expr *parts[3] = {s->u.slice.lo, s->u.slice.hi, s->u.slice.step};
  for (int i = 0; i < 3; i++) {
    if (!parts[i]) continue;
    const type *t = TY(parts[i]);
    if (t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_NONE && !is_np_int(t)) return false;
  }
  return true;
}

/* obj[index] of ndarray type ot that numpy answers with a view (a slice in
 * the index, a row of a 2-D array) or an object (an object index: a mask,
 * a list): its type, or NULL for an item (a[i], a[i, j]). The index is
 * typed already. */
const type *type_array_view(ctx *c, expr *e, const type *ot) {
  expr *ix = e->kind == EX_SLICE ? NULL : e->u.sub.index;
  const type *it = ix ? TY(ix) : NULL;
  int slices = 0, ints = 0, news = 0;
  bool bounds_ok = true, others = false;
  if (!ix) slices = 1, bounds_ok = view_bounds(c, e);
  else if (ix->kind == EX_TUPLE) {
    for (int i = 0; i < ix->u.tuple.n; i++) {
      expr *p = ix->u.tuple.elts[i];
      const type *pt = TY(p);
      if (p->kind == EX_SLICE && !p->u.slice.obj) slices++, bounds_ok &= view_bounds(c, p);
      else if (pt->kind == TY_INT || pt->kind == TY_BOOL || is_np_int(pt)) ints += pt->kind != TY_BOOL;
      else if (is_newaxis(c->m, p)) news++; /* x[:, np.newaxis]: a column of x's items */
      else others = true;
    }
    if (!slices && !others && !news) return NULL; /* a[i, j]: an item */
    bounds_ok &= !others;
  } else if (it->kind == TY_OBJ || it->kind == TY_LIST) {
    return generic_op(c); /* a[mask], a[[1, 2]]: numpy's fancy indexing (a copy) */
  } else if (ot->ndim == 2 && (it->kind == TY_INT || is_np_int(it))) {
    ints = 1; /* a[i]: row i */
  } else return NULL;
  if (!bounds_ok || (ix && ix->kind == EX_TUPLE && ix->u.tuple.n != ot->ndim + news))
    return generic_op(c); /* numpy's own answer (an object bound's __index__, an IndexError) */
  int ndim = ot->ndim - ints + news;
  if (ndim < 1 || ndim > 2 || !pins_arrays(c)) return generic_op(c);
  return ty_ndarray(ot->fmt, ndim, true);
}

/* Is obj[index] (or obj[lo:hi]) of an ndarray a place numpy's setitem
 * takes as a whole (a slice, a row, a mask), not an item? Stores to it go
 * through PyObject_SetItem. Syntactic: the index's form decides. */
bool array_object_place(const inst *in, const expr *sub) {
  if (sub->kind == EX_SLICE) return sub->u.slice.obj && ty_is_ndarray(ty_of(in, sub->u.slice.obj));
  if (sub->kind != EX_SUBSCRIPT || !ty_is_ndarray(ty_of(in, sub->u.sub.obj))) return false;
  const expr *ix = sub->u.sub.index;
  if (ix->kind == EX_TUPLE) {
    for (int i = 0; i < ix->u.tuple.n; i++)
      if (ix->u.tuple.elts[i]->kind == EX_SLICE) return true;
    return false;
  }
  const type *it = ty_of(in, ix);
  return it->kind == TY_OBJ || it->kind == TY_LIST || ty_of(in, sub->u.sub.obj)->ndim == 2;
}
