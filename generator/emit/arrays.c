/* arrays.c: ndarrays a kernel makes (np.zeros(...), a.copy()) or slices
 * (a[1:-1, j], a row): numpy makes them, the kernel pins them (dynac.h's
 * dynac_pin_array) and reads and writes them through views; the pins no
 * array local points at are swept between statements (infer/arrays.c
 * types them).
 */
#include "emit.h"

/* The kernel's pins, when it has any (before its body). */
void declare_pins(em *E) {
  if (E->in->pins)
    line(E, "DYNAC_PINS dynac__pins = DYNAC_PINS_INIT; /* the arrays it made or sliced */");
}

/* The array a call made (o: its result, owned by a temporary), pinned as
 * TY(e), fresh; `other` is the statement for a value of another type (o is
 * not such an array: numpy's function was replaced, or its result's dtype
 * was not the one expected). */
const char *emit_made_array(em *E, expr *e, const char *o, const char *other) {
  const type *t = TY(e);
  const char *v = tmpvar(E, t);
  line(E, "%s = dynac_pin_array(&dynac__pins, %s, '%c', '%c', %d, NULL);", v, o, t->ndim == 2 ? 'N' : 'n', t->fmt,
       t->strided);
  line(E, "if (!%s) {", v);
  E->indent++;
  line(E, "if (PyErr_Occurred()) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  line(E, "%s", other);
  E->indent--;
  line(E, "}");
  return v;
}

/* The value o (an object) of a whole-array expression a local typed `t`
 * holds (infer/arrays.c array_result_type): numpy's new C-ordered float64
 * array, pinned as t. Another value (numpy's function was replaced) is
 * handed to the interpreter with the statement where it can go on. */
const char *emit_pinned_result(em *E, const char *o, const type *t) {
  const char *v = tmpvar(E, t);
  line(E, "%s = dynac_pin_array(&dynac__pins, %s, '%c', 'd', 0, NULL);", v, o, t->ndim == 2 ? 'N' : 'n');
  line(E, "if (!%s && PyErr_Occurred()) DYNAC_LEAVE(dynac_traceback_here(%s));", v, where(E));
  deopt_if(E, NULL, "not a new C-ordered float64 array (numpy's function replaced)", "!%s", v);
  return v;
}

/* The index object of place or view e (obj[lo:hi:step], obj[i, lo:hi],
 * obj[i]), as the interpreter builds it. */
const char *view_key(em *E, expr *e) {
  if (e->kind == EX_SLICE) return emit_slice_object(E, e);
  expr *ix = e->u.sub.index;
  return keep(E, as_obj(E, emit_expr(E, ix), TY(ix)), &ty_obj);
}

/* obj[...] of an ndarray giving a view (TY(e) an ndarray; obj: the
 * array's view when evaluated already, else NULL): numpy's own
 * indexing (its IndexError for a row out of range; a slice never fails),
 * the view pinned. No Python code runs. */
const char *emit_array_view(em *E, expr *e, const char *obj) {
  expr *oe = e->kind == EX_SLICE ? e->u.slice.obj : e->u.sub.obj;
  obj = keep(E, obj ? obj : emit_expr(E, oe), TY(oe));
  int depth = E->nvstack;
  push_pending(E, oe, obj);
  const char *key = view_key(E, e);
  E->nvstack = depth;
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = PyObject_GetItem(%s->obj, %s); /* numpy's view */", o, obj, key);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  const char *v = tmpvar(E, TY(e));
  deopt_if(E, NULL, "numpy's view is another array (cannot happen)",
           "!(%s = dynac_pin_array(&dynac__pins, %s, '%c', '%c', 1, %s)) && !PyErr_Occurred()", v, o,
           TY(e)->ndim == 2 ? 'N' : 'n', TY(e)->fmt, obj);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", v, where(E));
  return v;
}

/* Array locals of the kernel (their C names), NULL-terminated; the
 * current views a sweep keeps. */
static void array_locals(em *E, strbuf *b, int *n) {
  for (int i = 0; i < E->in->fn->nlocals; i++)
    if (E->in->local_ty[i]->kind == TY_BUF) {
      sb_printf(b, "%s%s", *n ? ", " : "", local_name(E, i));
      ++*n;
    }
  for (int i = 0; i < E->nlive_views; i++) {
    sb_printf(b, "%s%s", *n ? ", " : "", E->live_views[i]);
    ++*n;
  }
}

/* Does a part of statement s (not its nested blocks) pin an array or
 * make one: a made array, a view, a whole-array expression's new array
 * (dead arrays are released before it, so that it may take their memory
 * as the interpreter's would)? */
typedef struct pin_scan { module *m; const inst *in; bool found; } pin_scan;
static void scan_expr(void *ctx, expr *e) {
  pin_scan *ps = ctx;
  if (!e || ps->found) return;
  const type *t = ty_of(ps->in, e);
  if (t && ((ty_is_ndarray(t) && (e->kind == EX_CALL || e->kind == EX_SLICE || e->kind == EX_SUBSCRIPT)) ||
            whole_array_expr(ps->m, ps->in, e)))
    ps->found = true;
  else ir_each_subexpr(e, scan_expr, ctx);
}
static void scan_target(void *ctx, target *t) {
  for (int i = 0; t->is_tuple && i < t->n; i++) scan_target(ctx, t->elts[i]);
  if (t->sub) ir_each_subexpr(t->sub, scan_expr, ctx); /* the store itself pins nothing */
}
static void scan_none(void *ctx, stmt *b) { (void)ctx, (void)b; }
static bool stmt_pins(module *m, const inst *in, stmt *s) {
  pin_scan ps = {m, in, false};
  ir_each_part(s, &(ir_parts){scan_expr, scan_target, scan_none, false}, &ps);
  return ps.found;
}

/* Before statement s of a kernel that pins, where s's own parts pin (not
 * its nested blocks: their statements sweep for themselves; a while's
 * condition sweeps again each time it is tested): once the pins have
 * grown, the ones no array local points at are released. */
void sweep_pins(em *E, stmt *s) {
  if (!E->in->pins || E->live_overflow || !stmt_pins(E->m, E->in, s)) return;
  strbuf live = {0};
  int n = 0;
  array_locals(E, &live, &n);
  line(E, "dynac_pins_sweep(&dynac__pins, (const dynac_view *const[]){%s}, %d);", n ? live.data : "NULL", n);
  sb_free(&live);
}

/* Does statement t itself (its blocks too, not the statements after it) bind local i? */
static bool stmt_binds(const stmt *t, int i) {
  stmt one = *t;
  one.next = NULL;
  return block_binds(&one, i);
}

/* The top-level statement `i = np.zeros(...)` (a made array) that is the
 * only binding of local i, or NULL. */
static const stmt *made_once(const inst *in, const stmt *body, int i) {
  const stmt *found = NULL;
  for (const stmt *t = body; t; t = t->next) {
    if (!stmt_binds(t, i)) continue;
    bool made = t->kind == ST_ASSIGN && t->u.assign.ntargets == 1 && !t->u.assign.targets[0]->is_tuple &&
                !t->u.assign.targets[0]->sub && t->u.assign.targets[0]->local == i &&
                t->u.assign.value->kind == EX_CALL && ty_is_ndarray(ty_of(in, t->u.assign.value));
    if (found || !made) return NULL;
    found = t;
  }
  return found;
}

/* An array local bound once, at the top level, to an array the kernel made
 * (D = np.empty((n, n))) keeps a copy of its view's fields from there on,
 * dv_D, as a view parameter does: its items' positions are proved in range
 * before a loop (bounds.c) and its fields stay in registers. Being fresh,
 * its stores need no undo entry (sn_D). */
void declare_made_array_copies(em *E, stmt *body) {
  if (!E->in->pins || E->exported) return;
  for (int i = E->in->fn->nparams; i < E->in->fn->nlocals; i++) {
    if (!ty_is_ndarray(E->in->local_ty[i]) || !made_once(E->in, body, i)) continue;
    E->view_copy[i] = true;
    const char *c = E->in->fn->local_cnames[i];
    line(E, "dynac_view dv_%s = {0}; /* %s's fields, from its assignment on */", c, E->in->fn->locals[i]);
    line(E, "int sn_%s = 1; /* an array made here: its stores need no undo entry */", c);
    line(E, "static unsigned char snap_%s;\n(void)sn_%s, (void)snap_%s, (void)dv_%s;", c, c, c, c);
  }
}

/* After statement s: the copy of the fields of the array local s made (declare_made_array_copies). */
void copy_made_array(em *E, const stmt *s) {
  if (!E->view_copy || E->reg || s->kind != ST_ASSIGN || s->u.assign.ntargets != 1 ||
      s->u.assign.targets[0]->is_tuple || s->u.assign.targets[0]->sub)
    return;
  int i = s->u.assign.targets[0]->local;
  if (i < E->in->fn->nparams || !E->view_copy[i]) return;
  const char *c = E->in->fn->local_cnames[i];
  line(E, "dv_%s = *l_%s; /* its fields, fixed from here on */", c, c);
}
