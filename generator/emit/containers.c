/* containers.c: items of lists, buffer views and ndarrays (read, store,
 * bounds, undo log), subscripts, new lists, slices, list comprehensions.
 */
#include "emit.h"

/* The borrowed element `o` (a PyObject * expression) as a value of type
 * `t` in `res`: nonzero when it is not one (a C condition). */
const char *elem_unbox_cond(em *E, const type *t, const char *o, const char *res) {
  switch (t->kind) {
  case TY_FLOAT: return arena_printf(E->m->a, "dynac_elem_float(%s, &%s)", o, res);
  case TY_INT: return arena_printf(E->m->a, "dynac_elem_int(%s, &%s)", o, res);
  case TY_BOOL: return arena_printf(E->m->a, "dynac_elem_bool(%s, &%s)", o, res);
  case TY_NUM: return arena_printf(E->m->a, "dynac_elem_num(%s, &%s)", o, res);
  case TY_LIST: return arena_printf(E->m->a, "dynac_elem_list(%s, &%s)", o, res);
  case TY_OBJ: return arena_printf(E->m->a, "dynac_elem_obj(%s, &%s)", o, res);
  case TY_TUPLE: return arena_printf(E->m->a, "dynac_unbox_%s(%s, &%s)", t->code, o, res);
  case TY_NP: return arena_printf(E->m->a, "%s(%s, &%s)", elem_fn(E->m, t), o, res);
  default: return "1";
  }
}

/* The item at in-range position `k` of buffer `v` (an lvalue). */
static const char *item_ref(em *E, const type *bt, const char *v, const char *k) {
  const char *buf = view_field(E, v, "buf");
  if (!bt->strided) return arena_printf(E->m->a, "((%s *)%s)[%s]", item_ctype(bt->fmt), buf, k);
  return arena_printf(E->m->a, "(*(%s *)(%s + %s * %s))", item_ctype(bt->fmt), buf, k,
                      view_field(E, v, "stride"));
}

/* Logs the old bytes of `item` (an lvalue of view `v`) before a store. For
 * a view parameter with a copy (view_field), the local sn_x remembers that
 * its span was saved whole, so later stores skip the call. */
static void log_write(em *E, const char *v, const char *item) {
  const char *call = arena_printf(E->m->a, "dynac_view_log(dynac__u, %s, (char *)&%s, (int)sizeof %s)",
                                  v, item, item);
  const char *c = copied_view(E, v);
  if (view_unlogged(E, v)) return; /* its span is saved: tested before the loop */
  if (c) line(E, "if (!sn_%s) sn_%s = dynac_view_log_predicted(dynac__u, %s, (char *)&%s, (int)sizeof %s, &snap_%s);",
              c, c, v, item, item, c);
  else line(E, "%s;", call);
}

/* CPython's IndexError message for a container of type `t` (a read, or a store). */
static const char *index_message(const type *t, bool store) {
  if (t->kind == TY_LIST) return store ? "list assignment index out of range" : "list index out of range";
  switch (t->buf_kind) {
  case 'a': return store ? "array assignment index out of range" : "array index out of range";
  case 'm': return "index out of bounds on dimension 1";
  case 'Y': return "bytearray index out of range";
  default: return "index out of range";
  }
}

/* Position `idx` (int64) of container `obj` (of type `t`) made an in-range
 * int64, or a failure raising CPython's IndexError: `slow` is the slow path.
 * `in_range` (or NULL) skips the test when true. */
const char *checked_index(em *E, const type *t, bool store, const char *len, const char *idx,
                                 const char *in_range, const char *slow) {
  /* ixN, not kN: a loop's counter is k<label>, and `int64_t k3 = k3;` once shadowed one */
  const char *k = arena_printf(E->m->a, "ix%d", ++E->tmp);
  if (in_range && (in_range == E->proven || !strcmp(in_range, "true"))) { /* known in range */
    line(E, "int64_t %s = %s; /* in range */", k, idx);
    return k;
  }
  line(E, "int64_t %s = %s;", k, in_range ? idx : "0");
  const char *cond = arena_printf(E->m->a, "%s%sdynac_index(%s, %s, &%s)", in_range ? "!" : "",
                                  in_range ? arena_printf(E->m->a, "%s && ", in_range) : "", idx, len, k);
  if (E->exported) line(E, "if (%s) %s;", cond, export_fail(E, "DYNAC_FAIL_INDEX", index_message(t, store)));
  else fail_if(E, NULL, "IndexError", cond, slow);
  return k;
}

/* An ndarray item access redone through the C API (numpy's own exception). */
static const char *nd_slow(em *E, const char *obj, const type *ot, const positions *idx, bool store,
                           const char *boxed) {
  const char *pos = ot->ndim == 1 ? idx->at[0] : arena_printf(E->m->a, "%s, %s", idx->at[0], idx->at[1]);
  const char *fn = ot->ndim == 1 ? "dynac_slow_%sitem" : "dynac_slow_%sitem2";
  return arena_printf(E->m->a, "%s(%s->obj, %s%s%s, %s)", arena_printf(E->m->a, fn, store ? "set" : "get"),
                      obj, pos, store ? ", " : "", store ? boxed : "", where(E));
}

/* The item of ndarray view `obj` at int64 positions idx[0..ndim) (an
 * lvalue), after the bounds checks (numpy's IndexError on the slow path). */
static const char *nd_item(em *E, const char *obj, const type *ot, const positions *idx,
                           bool store, const char *boxed) {
  const char *slow = nd_slow(E, obj, ot, idx, store, boxed);
  const char *k0 = checked_index(E, ot, store, view_field(E, obj, "len"), idx->at[0], idx->in_range[0], slow);
  if (ot->ndim == 1) return item_ref(E, ot, obj, k0);
  const char *len1 = view_field(E, obj, "len1"), *buf = view_field(E, obj, "buf");
  const char *k1 = checked_index(E, ot, store, len1, idx->at[1], idx->in_range[1], slow);
  const char *ct = item_ctype(ot->fmt);
  if (!ot->strided) return arena_printf(E->m->a, "((%s *)%s)[%s * %s + %s]", ct, buf, k0, len1, k1);
  return arena_printf(E->m->a, "(*(%s *)(%s + %s * %s + %s * %s))", ct, buf, k0,
                      view_field(E, obj, "stride"), k1, view_field(E, obj, "stride1"));
}

/* The item of ndarray `obj` at positions idx as a C lvalue, its positions
 * checked as a read checks them (speculate.c keeps it in a C local). */
const char *nd_item_place(em *E, const char *obj, const type *ot, const positions *idx) {
  return nd_item(E, obj, ot, idx, false, NULL);
}

/* a[i] = v, a[i, j] = v for an ndarray: numpy casts v to the item's dtype;
 * where that would warn, wrap or raise, the kernel deoptimises. */
static void nd_store(em *E, const char *obj, const type *ot, const positions *idx, const char *v,
                     const type *vt) {
  const char *boxed = box_value(E, v, vt); /* for the slow paths only */
  const char *item = nd_item(E, obj, ot, idx, true, boxed);
  /* at every store, in the unchecked copy of a loop too: the loop may call Python code that makes
     the array read-only (freeze(a) in tests/e2e/corpus_numpy.py fill_flagged) */
  fail_if(E, NULL, "ValueError: assignment destination is read-only", view_frozen(E, obj),
          nd_slow(E, obj, ot, idx, true, boxed));
  if (vt->kind == TY_OBJ) { /* np.sqrt(np.sum(...)): a float or numpy.float64 is stored as a double */
    const char *d = tmpvar(E, &ty_float);
    fail_if(E, NULL, "not a float or numpy.float64: numpy's own setitem converts it",
            arena_printf(E->m->a, "dynac_exact_float(%s, &%s)", v, d), nd_slow(E, obj, ot, idx, true, boxed));
    v = d;
    vt = &ty_float;
  }
  char f = ot->fmt;
  bool from_float = vt->kind == TY_FLOAT || (vt->kind == TY_NP && np_is_float(vt->fmt));
  const char *x;
  if (f == '?') x = truth(E, v, vt);
  else if (np_is_float(f)) {
    x = keep(E, as_double(E, v, vt), &ty_float);
    if (f == 'f')
      deopt_if(E, NULL, "numpy: float32 overflow warns", "isfinite(%s) && isinf((float)%s)", x, x);
  } else if (from_float) {
    const char *d = as_double(E, v, vt);
    x = tmpvar(E, &ty_int);
    deopt_if(E, NULL, "numpy: not finite or out of the dtype's range", "dynac_np_float_to_item(%s, '%c', &%s)",
             d, f, x);
  } else {
    x = keep(E, as_int(E, v, vt), &ty_int);
    deopt_if(E, NULL, "numpy: out of the dtype's range", "!dynac_np_fits(%s, '%c')", x, f);
  }
  log_write(E, obj, item);
  line(E, "%s = (%s)%s;", item, item_ctype(f), x);
}

/* obj[idx] for a list, buffer or tuple value `obj` of type `ot`; idx has
 * ot->ndim positions (int64). checked (or NULL): the C name of the index a
 * list or 1-D buffer read checked, else NULL. */
const char *elem_read(em *E, const char *obj, const type *ot, const positions *idxs,
                             expr *idx_expr, const char **checked) {
  if (checked) *checked = NULL;
  const char *idx = idxs ? idxs->at[0] : NULL, *in_range = idxs ? idxs->in_range[0] : NULL;
  const type *et = ot->kind == TY_TUPLE ? NULL : ty_elem(ot);
  if (ot->kind == TY_TUPLE) { /* a constant index, checked by infer.c */
    int64_t k = idx_expr->kind == EX_INT ? idx_expr->u.i : -idx_expr->u.un.a->u.i;
    if (k < 0) k += ot->n;
    return arena_printf(E->m->a, "%s.v%lld", obj, (long long)k);
  }
  const char *res = tmpvar(E, et);
  if (ot->kind == TY_BUF && ot->buf_kind == 'n') {
    line(E, "%s = (%s)%s;", res, c_type(et), nd_item(E, obj, ot, idxs, false, NULL));
    return res;
  }
  if (ot->kind == TY_LIST) {
    const char *k = checked_index(E, ot, false, arena_printf(E->m->a, "PyList_GET_SIZE(%s)", obj), idx,
                                  in_range, arena_printf(E->m->a, "dynac_slow_getitem(%s, %s, %s)", obj, idx,
                                               where(E)));
    fail_if(E, "DYNAC_FAIL_NONE_RESULT", "an element of another type", elem_unbox_cond(E, et, arena_printf(E->m->a,
            "PyList_GET_ITEM(%s, %s)", obj, k), res), NULL);
    if (checked) *checked = k;
    return res;
  }
  const char *k = checked_index(E, ot, false, view_field(E, obj, "len"), idx, in_range,
                                arena_printf(E->m->a, "dynac_slow_getitem(%s->obj, %s, %s)", obj,
                                             idx, where(E)));
  if (checked) *checked = k;
  const char *item = item_ref(E, ot, obj, k);
  if (ot->fmt == 'Q' || ot->fmt == 'L') /* above INT64_MAX: a big int in CPython */
    fail_if(E, "DYNAC_FAIL_INT64", "an item above the int64 range", arena_printf(E->m->a, "%s > (%s)INT64_MAX", item,
            item_ctype(ot->fmt)), NULL);
  line(E, "%s = (%s)%s;", res, c_type(et), item);
  return res;
}

/* obj[idx] = v: a list or buffer store (an effect). */
void elem_store(em *E, const char *obj, const type *ot, const positions *idxs, const char *v,
                       const type *vt, bool old_plain) {
  if (ot->kind == TY_BUF && ot->buf_kind == 'n') { nd_store(E, obj, ot, idxs, v, vt); return; }
  const char *idx = idxs->at[0], *in_range = idxs->in_range[0];
  const type *et = ty_elem(ot);
  const char *boxed = box_value(E, v, vt); /* for the slow paths only */
  if (ot->kind == TY_LIST) {
    const char *slow = arena_printf(E->m->a, "dynac_slow_setitem(%s, %s, %s, %s)", obj, idx, boxed,
                                    where(E));
    const char *k = checked_index(E, ot, true, arena_printf(E->m->a, "PyList_GET_SIZE(%s)", obj), idx,
                                  in_range, slow);
    if (et->kind != TY_OBJ && !old_plain) /* a list of objects: the undo log keeps the old one */
      fail_if(E, "DYNAC_FAIL_NONE_RESULT", "the old element is not a plain number (releasing it could run Python code)",
              arena_printf(E->m->a, "!dynac_plain_value(PyList_GET_ITEM(%s, %s))", obj, k), NULL);
    const char *store = et->kind == TY_FLOAT
        ? arena_printf(E->m->a, "dynac_list_store_float(dynac__u, %s, %s, %s)", obj, k, v)
        : arena_printf(E->m->a, "dynac_list_store(dynac__u, %s, %s, %s)", obj, k, boxed);
    line(E, "if (%s < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* logged for undo */", store, where(E));
    note_effect(E);
    return;
  }
  const char *slow = arena_printf(E->m->a, "dynac_slow_setitem(%s->obj, %s, %s, %s)", obj, idx,
                                  boxed, where(E));
  const char *k = checked_index(E, ot, true, view_field(E, obj, "len"), idx, in_range, slow);
  fail_if(E, "DYNAC_FAIL_READONLY", "TypeError: read-only buffer", view_field(E, obj, "readonly"), slow);
  const char *x = et->kind == TY_FLOAT ? as_double(E, v, vt) : as_int(E, v, vt);
  const char *fits = arena_printf(E->m->a, "!dynac_fits_fmt(%s, '%c')", x, ot->fmt);
  if ((et->kind == TY_INT || et->kind == TY_BOOL) && E->exported && ot->buf_kind != 'a')
    line(E, "if (%s) %s;", fits, export_fail(E, "DYNAC_FAIL_ITEM_VALUE", ot->buf_kind == 'm'
         ? arena_printf(E->m->a, "memoryview: invalid value for format '%c'", ot->fmt) : NULL));
  else if (et->kind == TY_INT || et->kind == TY_BOOL)
    fail_if(E, "DYNAC_FAIL_ITEM_RANGE", "OverflowError: out of the item format's range", fits, slow);
  const char *item = item_ref(E, ot, obj, k);
  if (!E->exported) log_write(E, obj, item);
  line(E, "%s = (%s)%s;", item, item_ctype(ot->fmt), x);
  note_effect(E);
}

/* Position `p` where a test before an enclosing loop proved it in range
 * (hoist_bounds): when that test passed, a * v + b directly (no overflow is
 * possible then), else the expression as written, with its checks. */
static const char *emit_proven_position(em *E, expr *p, const hoisted *h) {
  const char *t = tmpvar(E, &ty_int);
  if (E->proven == h->ok) { /* inside `if (okN)`: the loop's checked-free copy */
    line(E, "%s = INT64_C(%lld) * %s + %s; /* in range: tested before the loop */", t, (long long)h->a,
         local_name(E, h->var), h->b);
    return t;
  }
  line(E, "if (DYNAC_LIKELY(%s)) %s = INT64_C(%lld) * %s + %s; /* in range: tested before the loop */",
       h->ok, t, (long long)h->a, local_name(E, h->var), h->b);
  line(E, "else {");
  E->indent++;
  line(E, "%s = %s;", t, as_int(E, emit_expr(E, p), TY(p)));
  E->indent--;
  line(E, "}");
  return t;
}

/* The positions of obj[index] as int64 values, evaluated left to right:
 * one, or two for a[i, j] of a 2-D ndarray. */
/* In the untested copy of a loop over a list (E->shaped): the position c,
 * as C, of `sub`, obj[c] with obj a list the test before the loop proved
 * holds a float at c; else NULL. */
const char *shaped_position(em *E, const expr *sub) {
  const expr *o = sub->u.sub.obj, *ix = sub->u.sub.index;
  if (!E->shaped || o->kind != EX_LOCAL || ix->kind != EX_INT || ix->u.i < 0) return NULL;
  for (int i = 0; i < E->shaped->n; i++)
    if (E->shaped->facts[i].local == o->u.local && ix->u.i < E->shaped->facts[i].n)
      return arena_printf(E->m->a, "INT64_C(%lld)", (long long)ix->u.i);
  return NULL;
}
const char *shaped_item(em *E, const char *list, const char *c) {
  const char *res = tmpvar(E, &ty_float);
  line(E, "%s = PyFloat_AS_DOUBLE(PyList_GET_ITEM(%s, %s)); /* a float: tested before the loop */", res, list, c);
  return res;
}

const positions *emit_index(em *E, expr *sub) {
  positions *idx = arena_alloc(E->m->a, sizeof *idx);
  expr *ix = sub->u.sub.index;
  const type *ot = TY(sub->u.sub.obj);
  int n = ot->kind == TY_BUF && ot->ndim == 2 ? 2 : 1;
  for (int k = 0; k < n; k++) {
    expr *p = n == 2 ? ix->u.tuple.elts[k] : ix;
    const hoisted *h = NULL;
    for (int i = 0; i < E->nhoisted && !h; i++) if (E->hoisted[i].index == p) h = &E->hoisted[i];
    idx->at[k] = h ? emit_proven_position(E, p, h) : keep(E, as_int(E, emit_expr(E, p), TY(p)), &ty_int);
    idx->in_range[k] = h ? h->ok : NULL;
  }
  return idx;
}

const char *emit_subscript(em *E, expr *e) {
  const inst *getitem = E->exported ? NULL : E->in->types.callee[e->id];
  const char *obj = emit_operand_for(E, e->u.sub.obj, getitem ? getitem->args[0] : NULL);
  const type *ot = TY(e->u.sub.obj);
  if (getitem) { /* an instance's __getitem__, kernel to kernel */
    int depth = E->nvstack;
    push_pending(E, e->u.sub.obj, obj);
    const char *i = emit_operand_for(E, e->u.sub.index, getitem->args[1]);
    push_pending(E, e->u.sub.index, i);
    return emit_getitem_call(E, e, obj, i, depth);
  }
  if (ty_is_ndarray(ot) && ty_is_ndarray(TY(e))) return emit_array_view(E, e, obj); /* a view */
  if (ot->kind == TY_OBJ || TY(e->u.sub.index)->kind == TY_OBJ || (ty_is_ndarray(ot) && TY(e)->kind == TY_OBJ)) {
    obj = keep(E, as_obj(E, obj, ot), &ty_obj); /* PyObject_GetItem */
    const char *key = as_obj(E, emit_expr(E, e->u.sub.index), TY(e->u.sub.index));
    const char *o = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_obj_getitem(%s, %s, &dynac__effects);", o, obj, key);
    note_effect(E);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
    return o;
  }
  if (ot->kind == TY_TUPLE) return elem_read(E, obj, ot, NULL, e->u.sub.index, NULL);
  obj = keep(E, obj, ot);
  const char *c = shaped_position(E, e);
  if (c) return shaped_item(E, obj, c);
  return elem_read(E, obj, ot, emit_index(E, e), e->u.sub.index, NULL);
}

/* ---- new lists ----------------------------------------------------------------
 * A list the kernel makes is a new reference in an owned temporary
 * (released leaving its block). A kernel that logs writes also keeps it in
 * the undo log until the call's writes are settled (dynac_undo_keep): a
 * logged write to it must not outlive it. */
static const char *fresh_list(em *E, const char *make, const char *what) {
  const char *t = tmpvar(E, &ty_obj);
  line(E, "%s = %s; /* %s */", t, make, what);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", t, where(E));
  if (E->effectful) line(E, "dynac_undo_keep(dynac__u, %s, dynac__u0);", t);
  return t;
}

/* [a, b, ...]: the elements in order, then the list of their boxes. */
const char *emit_list_display(em *E, expr *e) {
  int n = e->u.tuple.n;
  const char **vals = arena_alloc(E->m->a, sizeof(char *) * (size_t)(n + 1));
  int depth = E->nvstack;
  for (int i = 0; i < n; i++) {
    const type *t = TY(e->u.tuple.elts[i]);
    const char *v = emit_expr(E, e->u.tuple.elts[i]);
    E->nvstack = depth + i;
    vals[i] = t->kind == TY_NONE ? v : keep(E, v, t); /* None: boxed as itself below */
    push_pending(E, e->u.tuple.elts[i], vals[i]); /* a later element's failure goes on around it */
  }
  E->nvstack = depth;
  const char *t = fresh_list(E, arena_printf(E->m->a, "PyList_New(%d)", n), "a list display");
  for (int i = 0; i < n; i++)
    line(E, "if (dynac_list_init(%s, %d, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", t, i,
         box_value(E, vals[i], TY(e->u.tuple.elts[i])), where(E));
  return t;
}

/* A write of one value v (of type vt) into a list, logged for undo: `call`
 * names its box `b` (the runtime's dynac_list_append, _insert or
 * _extend_logged, which take a failed box, NULL, as -1). */
void emit_logged_list_write(em *E, const char *v, const type *vt, const char *call) {
  line(E, "{");
  E->indent++;
  line(E, "PyObject *b = %s;", box_value(E, v, vt));
  line(E, "int st = %s; /* logged for undo */", call);
  note_effect(E);
  line(E, "Py_XDECREF(b);");
  line(E, "if (st < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  E->indent--;
  line(E, "}");
}

/* l.extend(v) and l += v of a list l, v a list or tuple of its element type
 * (infer: extendable): list_extend, logged as the length before
 * (dynac_list_extend_logged); no Python code runs. */
void emit_list_extend(em *E, const char *l, const char *v, const type *vt) {
  emit_logged_list_write(E, v, vt, arena_printf(E->m->a, "dynac_list_extend_logged(dynac__u, %s, b)", l));
}

/* list + list (list_concat), list * n and n * list (list_repeat); x += v of
 * a list x (a new version of x): x extended, then x itself (list.__iadd__). */
const char *emit_list_binop(em *E, expr *e, const char *l, const char *r) {
  const type *lt = TY(e->u.bin.l), *rt = TY(e->u.bin.r);
  if (e->u.bin.inplace && e->u.bin.op == OP_ADD) {
    emit_list_extend(E, l, r, rt);
    return l;
  }
  if (e->u.bin.op == OP_ADD)
    return fresh_list(E, arena_printf(E->m->a, "PySequence_Concat(%s, %s)", l, r), "list + list");
  bool list_left = lt->kind == TY_LIST;
  const char *count = list_left ? as_int(E, r, rt) : as_int(E, l, lt);
  return fresh_list(E, arena_printf(E->m->a, "PySequence_Repeat(%s, (Py_ssize_t)%s)",
                                    list_left ? l : r, count), "list * n");
}

/* obj[lo:hi:step] of a list: its parts in order; None or omitted ones absent. */
const char *emit_slice(em *E, expr *e) {
  if (!e->u.slice.obj) return emit_slice_object(E, e); /* lo:hi in a[lo:hi, j] */
  if (ty_is_ndarray(TY(e))) return emit_array_view(E, e, NULL);
  if (slice_is_generic(E->in, e) || ty_is_ndarray(TY(e->u.slice.obj))) return emit_object_slice(E, e);
  const char *obj = keep(E, emit_expr(E, e->u.slice.obj), TY(e->u.slice.obj));
  expr *parts[3] = {e->u.slice.lo, e->u.slice.hi, e->u.slice.step};
  const char *args[3];
  for (int i = 0; i < 3; i++) {
    const char *v = parts[i] ? emit_expr(E, parts[i]) : NULL;
    args[i] = !v || TY(parts[i])->kind == TY_NONE ? "0, 0"
              : arena_printf(E->m->a, "1, %s", keep(E, as_int(E, v, TY(parts[i])), &ty_int));
  }
  return fresh_list(E, arena_printf(E->m->a, "dynac_list_slice(%s, %s, %s, %s)", obj, args[0], args[1],
                                    args[2]), "a slice");
}

/* ---- a nested comprehension that runs no Python code --------------------
 * [[x * k for x in row] for row in rows]: the inner comprehension cannot go
 * on in the interpreter mid-way (its clauses are inside the outer one's
 * element). When nothing in it runs Python code or writes what others see
 * (numbers, typed lists of numbers, math on them), a failure in it goes on
 * through the outer clause's restart point: the interpreter makes the
 * element again from its start, which repeats nothing. */
static bool quiet_comprehension(em *E, const expr *e);

static bool quiet_expr(em *E, const expr *e) {
  if (!e) return true;
  switch (e->kind) {
  case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_LOCAL: return true;
  case EX_BINOP:
    return !e->u.bin.inplace && is_scalar(TY(e)) && is_scalar(TY(e->u.bin.l)) && is_scalar(TY(e->u.bin.r)) &&
           quiet_expr(E, e->u.bin.l) && quiet_expr(E, e->u.bin.r);
  case EX_UNARY: return is_scalar(TY(e->u.un.a)) && quiet_expr(E, e->u.un.a);
  case EX_NOT: return is_scalar(TY(e->u.not_arg)) && quiet_expr(E, e->u.not_arg);
  case EX_BOOLOP:
    return is_scalar(TY(e->u.boolop.l)) && is_scalar(TY(e->u.boolop.r)) && quiet_expr(E, e->u.boolop.l) &&
           quiet_expr(E, e->u.boolop.r);
  case EX_IFEXP:
    return is_scalar(TY(e)) && is_scalar(TY(e->u.ifexp.cond)) && quiet_expr(E, e->u.ifexp.cond) &&
           quiet_expr(E, e->u.ifexp.then) && quiet_expr(E, e->u.ifexp.orelse);
  case EX_COMPARE:
    for (int i = 0; i < e->u.cmp.n; i++)
      if (!is_scalar(TY(e->u.cmp.operands[i])) || !quiet_expr(E, e->u.cmp.operands[i])) return false;
    return e->u.cmp.ops[0] < CMP_IN;
  case EX_SUBSCRIPT: { /* an item of a typed list of numbers */
    const type *ot = TY(e->u.sub.obj);
    return ot->kind == TY_LIST && is_scalar(ot->elts[0]) && is_scalar(TY(e->u.sub.index)) &&
           quiet_expr(E, e->u.sub.obj) && quiet_expr(E, e->u.sub.index);
  }
  case EX_CALL:
    if (e->u.call.kind != CALLEE_MATH || e->u.call.nkw || e->u.call.argform) return false;
    for (int i = 0; i < e->u.call.n; i++)
      if (!is_scalar(TY(e->u.call.args[i])) || !quiet_expr(E, e->u.call.args[i])) return false;
    return true;
  case EX_LISTCOMP: return quiet_comprehension(E, e);
  default: return false;
  }
}

/* Its clauses: for loops over ranges or typed lists of numbers, ifs, the append. */
static bool quiet_clauses(em *E, const stmt *s) {
  for (; s; s = s->next) {
    switch (s->kind) {
    case ST_FOR_RANGE:
      if (!quiet_expr(E, s->u.for_.start) || !quiet_expr(E, s->u.for_.stop) || !quiet_expr(E, s->u.for_.step) ||
          s->u.for_.has_else || !quiet_clauses(E, s->u.for_.body))
        return false;
      break;
    case ST_FOR_ITER:
      if (s->u.for_.how != 'i' || s->u.for_.niters != 1 || s->u.for_.has_else) return false;
      if (TY(s->u.for_.iters[0])->kind != TY_LIST || !is_scalar(TY(s->u.for_.iters[0])->elts[0]) ||
          !quiet_expr(E, s->u.for_.iters[0]) || !quiet_clauses(E, s->u.for_.body))
        return false;
      break;
    case ST_IF:
      if (!is_scalar(TY(s->u.if_.cond)) || !quiet_expr(E, s->u.if_.cond) || !quiet_clauses(E, s->u.if_.then) ||
          !quiet_clauses(E, s->u.if_.orelse))
        return false;
      break;
    case ST_EXPR: /* the append to the list it builds */
      if (s->u.expr->kind != EX_CALL || !s->u.expr->u.call.own_list || s->u.expr->u.call.n != 2 ||
          !ops_call_is(s->u.expr, OPI_APPEND) || !is_scalar(TY(s->u.expr->u.call.args[1])) ||
          !quiet_expr(E, s->u.expr->u.call.args[1]))
        return false;
      break;
    default: return false;
    }
  }
  return true;
}

static bool quiet_comprehension(em *E, const expr *e) {
  char consumer = e->u.comp.consumer;
  return e->u.comp.kind == 'l' && !comprehension_folds(E->in, e) && consumer != 'a' && consumer != 'A' &&
         quiet_clauses(E, e->u.comp.loop);
}

/* [elt for ...]: a new list in the comprehension's hidden local, its
 * clauses as loops appending to it, then the list moved to a temporary. */
/* The comprehension's loops, with tracebacks naming its frame. */
static void emit_comprehension_loops(em *E, expr *e) {
  expr *outer = E->comp;
  stmt *outer_first = E->comp_first;
  const comp_cont *outer_cont = E->comp_cont;
  E->comp_cont = comp_enter(E, e); /* before E->comp: none inside another */
  bool routed = !E->comp_cont && outer && E->conts && E->rp.comp && E->rp.nclears < 4 &&
                quiet_comprehension(E, e); /* nested: through the outer clause's restart point */
  if (routed) E->rp.clears[E->rp.nclears++] = e->u.comp.result, E->routed_comps++;
  E->comp = e;
  E->comp_first = e->u.comp.loop;
  comp_frame frame = {e, E->frames};
  E->frames = &frame;
  int noted = E->effects_noted;
  emit_block(E, e->u.comp.loop);
  if (routed) E->routed_comps--;
  E->frames = frame.up;
  E->comp = outer;
  E->comp_first = outer_first;
  E->comp_cont = outer_cont;
  if (E->effects_noted != noted) /* its clauses' restart points took them: the statement did them too */
    note_effect(E);
}

/* Where the builtin's own steps fail: the function's frame at the call's line
 * (the generator's frame is not running then). */
static const char *fold_where(em *E, const expr *comp) {
  return arena_printf(E->m->a, "dynac__G.filename, %s, %d", c_string(E->m, E->in->fn->name), comp->pos.line);
}

/* min() or max() of no items (count, a C expression, is 0): 3.11's
 * ValueError at the call's line; exported C: its ValueError code. */
static void empty_fold_error(em *E, const expr *comp, const char *name, const char *count) {
  const char *message = arena_printf(E->m->a, "%s() arg is an empty sequence", name);
  if (E->exported) {
    line(E, "if (!%s) %s;", count, export_fail(E, "DYNAC_FAIL_EMPTY", message));
    return;
  }
  line(E, "if (!%s) {", count);
  E->indent++;
  line(E, "PyErr_SetString(PyExc_ValueError, %s);", c_string(E->m, message));
  line(E, "DYNAC_LEAVE(dynac_traceback_here(%s));", fold_where(E, comp));
  E->indent--;
  line(E, "}");
}

/* sum(), min() or max() of a generator of objects (comprehension_folds):
 * the hidden local holds the fold so far (sum: the int 0 first; min and max:
 * NULL until the first item), each item folded where it is made
 * (emit_fold_item); min() and max() of no items raise 3.11's ValueError. */
static const char *emit_fold(em *E, expr *e) {
  const char *r = local_name(E, e->u.comp.result);
  bool sum = !strcmp(e->u.comp.reducer, "sum");
  if (sum)
    line(E, "if (dynac_obj_set(&%s, PyLong_FromLong(0)) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); "
         "/* sum() of a generator, folded from 0 */", r, where(E));
  else
    line(E, "Py_CLEAR(%s); /* %s() of a generator, folded: no item yet */", r, e->u.comp.reducer);
  E->bound[e->u.comp.result] = true;
  emit_comprehension_loops(E, e);
  if (!sum) empty_fold_error(E, e, e->u.comp.reducer, r);
  const char *t = tmpvar(E, &ty_obj);
  line(E, "%s = %s; /* the fold's value, moved */", t, r);
  line(E, "%s = NULL;", r);
  return t;
}

/* One item of a fold (see emit_fold), where the comprehension would append it. */
const char *emit_fold_item(em *E, const expr *comp, const char *boxed) {
  const char *r = local_name(E, comp->u.comp.result);
  const char *reducer = comp->u.comp.reducer;
  if (!strcmp(reducer, "sum"))
    line(E, "if (dynac_fold_sum(&%s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));",
         r, boxed, fold_where(E, comp));
  else
    line(E, "if (dynac_fold_min_max(&%s, %s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));",
         r, boxed, strcmp(reducer, "min") ? "Py_GT" : "Py_LT", fold_where(E, comp));
  note_effect(E);
  return "0";
}

/* sum(), min() or max() of a generator of ints, bools or floats
 * (folds_numbers): the items folded into C locals where the comprehension
 * would append them, as builtin_sum (3.11) and min_max fold them: sum from
 * the int 0, ints exactly (an int64 overflow deoptimises, the sum so far
 * handed on), floats added left to right in a double (an empty sum is the
 * int 0); min and max keep the first item, then each later one that
 * compares less (greater), so the first of equal extremes and a NaN first
 * stay; with no item, 3.11's ValueError. No list is made: memory stays
 * constant, as CPython's generator keeps it. */
const char *emit_number_fold(em *E, expr *call) {
  expr *comp = call->u.call.args[0];
  const type *item = ty_elem(TY(comp));
  const char *name = call->u.call.name;
  char kind = !strcmp(name, "sum") ? 'S' : !strcmp(name, "min") ? 'm' : 'M';
  const type *acc_ty = kind == 'S' && item->kind != TY_FLOAT ? &ty_int : item; /* a sum of bools: an int */
  number_fold f = {comp, tmpvar(E, acc_ty), tmpvar(E, &ty_int), item, acc_ty, kind, E->nfolds};
  line(E, "/* %s() of a generator of %ss, folded: %s so far in %s, %s items */", name, ty_python_name(E->m->a, item),
       kind == 'S' ? "the sum" : "the item kept", f.acc, f.count);
  E->nfolds = &f;
  E->bound[comp->u.comp.result] = true; /* (the list the items would be appended to: none is made) */
  emit_comprehension_loops(E, comp);
  E->nfolds = f.up;
  if (kind == 'S')
    return item->kind == TY_FLOAT ? arena_printf(E->m->a, "(%s ? dynac_num_f(%s) : dynac_num_i(0))", f.count, f.acc)
                                  : f.acc;
  empty_fold_error(E, comp, name, f.count);
  return f.acc;
}

/* One item x (a C value of the fold's item type) of number fold f, where
 * the comprehension would append it. */
const char *emit_number_fold_item(em *E, const number_fold *f, const char *x) {
  if (f->kind == 'S' && f->item->kind == TY_FLOAT) {
    line(E, "%s += %s;", f->acc, x);
  } else if (f->kind == 'S') {
    const char *s = tmpvar(E, &ty_int);
    deopt_if(E, NULL, "int64 overflow: the sum so far goes on in the interpreter", "dynac_int_add(%s, (int64_t)%s, &%s)",
             f->acc, x, s);
    line(E, "%s = %s;", f->acc, s);
  } else {
    x = keep(E, x, f->item);
    line(E, "if (!%s || %s) %s = %s;", f->count,
         cmp_values(E, f->kind == 'M' ? CMP_GT : CMP_LT, x, f->item, f->acc, f->item), f->acc, x);
  }
  line(E, "%s++;", f->count);
  return "0";
}

/* The number fold being made of comprehension comp, or NULL. */
const number_fold *number_fold_of(const em *E, const expr *comp) {
  for (const number_fold *f = E->nfolds; f; f = f->up)
    if (f->comp == comp) return f;
  return NULL;
}

const char *emit_list_comprehension(em *E, expr *e) {
  if (comprehension_folds(E->in, e)) return emit_fold(E, e);
  const char *r = local_name(E, e->u.comp.result);
  if (e->u.comp.consumer == 'a' || e->u.comp.consumer == 'A') { /* stops at the deciding item */
    line(E, "%s = %d; /* %s() of a generator, consumed on the spot */", r, e->u.comp.consumer == 'A',
         e->u.comp.consumer == 'A' ? "all" : "any");
    E->bound[e->u.comp.result] = true;
    emit_comprehension_loops(E, e);
    const char *t = tmpvar(E, &ty_bool);
    line(E, "%s = %s;", t, r);
    return t;
  }
  line(E, "if (dynac_obj_set(&%s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* a %s comprehension */", r,
       e->u.comp.kind == 's' ? "PySet_New(NULL)" : e->u.comp.kind == 'd' ? "PyDict_New()" : "PyList_New(0)",
       where(E), e->u.comp.kind == 's' ? "set" : e->u.comp.kind == 'd' ? "dict" : "list");
  E->bound[e->u.comp.result] = true;
  emit_comprehension_loops(E, e);
  const char *t = tmpvar(E, &ty_obj);
  line(E, "%s = %s; /* the comprehension's list, moved */", t, r);
  line(E, "%s = NULL;", r);
  if (E->effectful) line(E, "dynac_undo_keep(dynac__u, %s, dynac__u0);", t);
  return t;
}
