/* speculate.c: speculation in innermost loops of numpy scalar arithmetic.
 *
 * numpy's scalar arithmetic warns of a result that is inf or nan, so each
 * such operation in a loop is followed by a test that hands the call to the
 * interpreter: a branch per item, with a continuation block behind it, that
 * costs the loop its registers. An innermost range loop whose body only
 * assigns C locals (under ifs too) from arithmetic of array items, and
 * adds into array items at positions fixed for the loop (gravity's
 * `acc[i, 0] += dx * inv`), runs first as a speculative copy:
 *   - numpy's inf/nan tests OR the bits of x - x into one word
 *     (dynac__nonfinite_N, dynac_nonfinite_bits: 0 while every x is
 *     finite), tested after the loop; every other failure, an exception too, goes to
 *     dynac_spec_fail_N at once (DYNAC_LEAVE_SPEC);
 *   - each such item is read into a C local before the loop and written
 *     back after it (scalar promotion: no load and store per iteration),
 *     where no array the loop reads can see it (dynac_view_holds) and it is
 *     writable;
 *   - the loop runs at most DYNAC_TICK_BUDGET iterations (longer ones run
 *     the checked copy only): its count is charged before it and the eval
 *     breaker runs after the write-back, when nothing is pending (or at
 *     the next tick of the enclosing loop, where it ticks per iteration).
 * At dynac_spec_fail_N nothing outside the kernel's locals has changed: the
 * locals go back to their values before the loop and the checked copy runs
 * it again, failing at the first such item as before. This is speculation
 * with a deoptimisation that rolls back to the loop's start, as PyPy's and
 * HotSpot's guards fail back to the last safe point.
 */
#include "emit.h"

#define SPEC_ITEMS 8
#define SPEC_VIEWS 16
#define SPEC_CALLS 8

/* An array item kept in a C local through a speculative loop. */
typedef struct spec_item {
  const expr *sub;        /* its first obj[positions] op= v */
  const char *var;        /* the C local */
  const char *obj;        /* the view, as C */
  const positions *idx;   /* its positions, computed before the loop */
} spec_item;

typedef struct spec_scan {
  em *E;
  bool *assigned;         /* [nlocals]: every local the loop assigns */
  bool *grown;            /* [nlocals]: a numpy float local x op= v changes, + - * in its own dtype */
  bool *set;              /* [nlocals]: assigned otherwise */
  bool numpy;             /* numpy float arithmetic seen (else nothing to gain) */
  const expr *items[SPEC_ITEMS];
  int nitems;
  int views[SPEC_VIEWS];  /* the buffer locals whose items the loop reads */
  int nviews;
  const expr *np_calls[SPEC_CALLS]; /* its np.NAME(x) calls (tested before it: spec_np_test) */
  int ncalls;
} spec_scan;

static bool np_float_type(const type *t) { return t->kind == TY_NP && np_is_float(t->fmt); }
static bool spec_scalar(const type *t) {
  return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || np_float_type(t);
}

/* ---- which loops ------------------------------------------------------- */
static void note_assigned(bool *assigned, const stmt *b) {
  for (; b; b = b->next) {
    if (b->kind == ST_ASSIGN && b->u.assign.ntargets == 1 && !b->u.assign.targets[0]->is_tuple &&
        !b->u.assign.targets[0]->sub)
      assigned[b->u.assign.targets[0]->local] = true;
    else if (b->kind == ST_AUGASSIGN && !b->u.aug.sub) assigned[b->u.aug.local] = true;
    else if (b->kind == ST_IF) {
      note_assigned(assigned, b->u.if_.then);
      note_assigned(assigned, b->u.if_.orelse);
    }
  }
}

static bool spec_value(spec_scan *S, const expr *e);

/* A position of an item read: proved in range, or an int the check of
 * which fails to the checked copy. */
static bool spec_position(spec_scan *S, const expr *p) {
  em *E = S->E;
  return proven_position(E, p) || p->kind == EX_INT ||
         (p->kind == EX_LOCAL && TY(p)->kind == TY_INT && E->bound[p->u.local]);
}

/* The positions of obj[index], one or two. */
static int sub_positions(em *E, const expr *sub, const expr *out[2]) {
  const type *ot = TY(sub->u.sub.obj);
  int n = ot->buf_kind == 'n' && ot->ndim == 2 ? 2 : 1;
  for (int k = 0; k < n; k++) out[k] = n == 2 ? sub->u.sub.index->u.tuple.elts[k] : sub->u.sub.index;
  return n;
}

/* A float item of a buffer local (a read). */
static bool spec_item_read(spec_scan *S, const expr *e) {
  em *E = S->E;
  const expr *o = e->u.sub.obj, *p[2];
  const type *ot = TY(o);
  if (ot->kind != TY_BUF || (ot->fmt != 'd' && ot->fmt != 'f') || o->kind != EX_LOCAL || !S->E->bound[o->u.local])
    return false;
  if (ot->buf_kind == 'n' && ot->ndim == 2 && e->u.sub.index->kind != EX_TUPLE) return false;
  for (int k = 0, n = sub_positions(S->E, e, p); k < n; k++)
    if (!spec_position(S, p[k])) return false;
  int i = 0;
  while (i < S->nviews && S->views[i] != o->u.local) i++;
  if (i == S->nviews && S->nviews == SPEC_VIEWS) return false;
  S->views[i] = o->u.local;
  if (i == S->nviews) S->nviews++;
  return true;
}

/* float(x), math.sqrt(x), np.NAME(x[, y]) of a numpy ufunc (numpy's own
 * loop or IEEE's operation once the module is found unchanged). */
static bool spec_call(spec_scan *S, const expr *e) {
  em *E = S->E;
  if (e->u.call.nkw || e->u.call.argform) return false;
  const char *nm = e->u.call.name;
  if (e->u.call.kind == CALLEE_BUILTIN || e->u.call.kind == CALLEE_MATH)
    return nm && !strcmp(nm, e->u.call.kind == CALLEE_BUILTIN ? "float" : "sqrt") && e->u.call.n == 1 &&
           TY(e)->kind == TY_FLOAT && spec_value(S, e->u.call.args[0]);
  if (!np_float_type(TY(e)) || !np_ufunc_row(S->E->m, e) || e->u.call.n < 2 || e->u.call.n > 3) return false;
  const expr *callee = e->u.call.args[0];
  if (callee->kind != EX_GLOBAL && callee->kind != EX_NAME) return false;
  for (int i = 1; i < e->u.call.n; i++)
    if (!spec_value(S, e->u.call.args[i])) return false;
  if (S->ncalls == SPEC_CALLS) return false;
  S->np_calls[S->ncalls++] = e;
  return true;
}

/* Can `e` be computed in the speculative copy: scalar arithmetic whose
 * failures all go through deopt_if or DYNAC_LEAVE, no Python code, no
 * store? */
static bool spec_value(spec_scan *S, const expr *e) {
  em *E = S->E;
  const type *t = TY(e);
  bool np_truth = e->kind == EX_COMPARE && t->kind == TY_NP && t->fmt == '?'; /* g > 1e300 of a numpy.float64 */
  if (!spec_scalar(t) && !np_truth) return false;
  bool fl = t->kind == TY_FLOAT || np_float_type(t);
  switch (e->kind) {
  case EX_BINOP: {
    binop op = e->u.bin.op;
    S->numpy |= t->kind == TY_NP;
    bool arith = op == OP_ADD || op == OP_SUB || op == OP_MUL || (fl && op == OP_TRUEDIV);
    return (fl || t->kind == TY_INT) && arith && spec_value(S, e->u.bin.l) && spec_value(S, e->u.bin.r);
  }
  case EX_UNARY: return (fl || t->kind == TY_INT) && e->u.un.op == UN_NEG && spec_value(S, e->u.un.a);
  case EX_COMPARE:
    return e->u.cmp.n == 2 && e->u.cmp.ops[0] <= CMP_NE && spec_value(S, e->u.cmp.operands[0]) &&
           spec_value(S, e->u.cmp.operands[1]);
  case EX_CALL: return spec_call(S, e);
  case EX_SUBSCRIPT: return fl && spec_item_read(S, e);
  default: return quiet(S->E, e);
  }
}

/* Local v's C value can be saved and restored as it is. */
static bool spec_local(em *E, int v) { return spec_scalar(E->in->local_ty[v]); }

/* Are positions p and q the same for the whole loop? */
static bool same_position(const expr *p, const expr *q) {
  return (p->kind == EX_INT && q->kind == EX_INT && p->u.i == q->u.i) ||
         (p->kind == EX_LOCAL && q->kind == EX_LOCAL && p->u.local == q->u.local);
}

/* Are obj[positions] a and b (obj a local) the same item for the whole loop? */
static bool same_item(em *E, const expr *a, const expr *b) {
  const expr *p[2], *q[2];
  if (a->u.sub.obj->kind != EX_LOCAL || b->u.sub.obj->kind != EX_LOCAL ||
      a->u.sub.obj->u.local != b->u.sub.obj->u.local)
    return false;
  int n = sub_positions(E, a, p);
  sub_positions(E, b, q);
  for (int k = 0; k < n; k++)
    if (!same_position(p[k], q[k])) return false;
  return true;
}

/* obj[positions] op= v: an item of a float64 ndarray local at positions
 * the loop does not change, kept in a C local (S->items). */
static bool spec_promotable(spec_scan *S, const stmt *b) {
  em *E = S->E;
  const expr *sub = b->u.aug.sub, *p[2];
  if (sub->kind != EX_SUBSCRIPT) return false; /* obj.name op= v, a cell's or global's NAME op= v */
  const expr *o = sub->u.sub.obj;
  const type *ot = TY(o);
  binop op = b->u.aug.op;
  if (o->kind != EX_LOCAL || ot->kind != TY_BUF || ot->buf_kind != 'n' ||
      ot->fmt != 'd' || !S->E->bound[o->u.local] || (ot->ndim == 2 && sub->u.sub.index->kind != EX_TUPLE) ||
      (b->u.aug.op_expr && S->E->in->types.callee[b->u.aug.op_expr->id]))
    return false;
  if (!(op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_TRUEDIV) ||
      !np_float_type(binop_result(op, TY(sub), TY(b->u.aug.value))) || !spec_value(S, b->u.aug.value))
    return false;
  int n = sub_positions(E, sub, p);
  for (int k = 0; k < n; k++)
    if (!(p[k]->kind == EX_INT ||
          (p[k]->kind == EX_LOCAL && TY(p[k])->kind == TY_INT && S->E->bound[p[k]->u.local] &&
           !S->assigned[p[k]->u.local])))
      return false;
  S->numpy = true;
  for (int i = 0; i < S->nitems; i++)
    if (same_item(E, S->items[i], sub)) return true; /* the same item again */
  if (S->nitems == SPEC_ITEMS) return false;
  S->items[S->nitems++] = sub;
  return true;
}

/* The statements of block b (E->bound as its emission will have it). */
static bool spec_block(spec_scan *S, const stmt *b) {
  em *E = S->E;
  for (; b; b = b->next) {
    if (b->kind == ST_PASS) continue;
    if (b->kind == ST_IF) {
      if (b->u.if_.assert_ || !spec_value(S, b->u.if_.cond)) return false;
      bool *before = bound_save(E);
      bool ok = spec_block(S, b->u.if_.then);
      bound_restore(E, before);
      ok = ok && spec_block(S, b->u.if_.orelse);
      bound_restore(E, before); /* bound after it only if bound before it */
      if (!ok) return false;
      continue;
    }
    if (b->kind == ST_AUGASSIGN && b->u.aug.sub) {
      if (!spec_promotable(S, b)) return false;
      continue;
    }
    int v;
    if (b->kind == ST_ASSIGN && b->u.assign.ntargets == 1 && !b->u.assign.targets[0]->is_tuple &&
        !b->u.assign.targets[0]->sub) {
      v = b->u.assign.targets[0]->local;
      if (!spec_value(S, b->u.assign.value)) return false;
      S->set[v] = true;
    } else if (b->kind == ST_AUGASSIGN && !(b->u.aug.op_expr && E->in->types.callee[b->u.aug.op_expr->id])) {
      v = b->u.aug.local;
      const type *res = binop_result(b->u.aug.op, E->in->local_ty[v], TY(b->u.aug.value));
      binop op = b->u.aug.op;
      S->numpy |= res->kind == TY_NP;
      if (!E->bound[v] || !(op == OP_ADD || op == OP_SUB || op == OP_MUL) || !spec_scalar(res) ||
          !spec_value(S, b->u.aug.value))
        return false;
      const type *lt = E->in->local_ty[v];
      if ((np_float_type(res) && np_float_type(lt) && res->fmt == lt->fmt) ||
          (res->kind == TY_FLOAT && lt->kind == TY_FLOAT))
        S->grown[v] = true;
      else S->set[v] = true;
    } else return false;
    if (!spec_local(E, v)) return false;
    E->bound[v] = true;
  }
  return true;
}

/* Does for-range loop s qualify? Fills S (its locals, items and views). */
static bool speculable(spec_scan *S, const stmt *s) {
  em *E = S->E;
  const target *tg = s->u.for_.tgt;
  if (s->u.for_.has_else || tg->is_tuple || tg->sub || !spec_local(E, tg->local)) return false;
  S->assigned[tg->local] = S->set[tg->local] = true;
  note_assigned(S->assigned, s->u.for_.body);
  bool *outer = E->bound;
  E->bound = bound_save(E);
  E->bound[tg->local] = true;
  bool ok = spec_block(S, s->u.for_.body);
  E->bound = outer;
  for (int i = 0; ok && i < S->nitems; i++) /* a kept item's array is not read otherwise */
    for (int k = 0; k < S->nviews; k++) ok = ok && S->views[k] != S->items[i]->u.sub.obj->u.local;
  return ok && S->numpy;
}

/* ---- the speculative copy ----------------------------------------------- */
/* Before the loop: each kept item read into its C local, once its
 * positions are in range, its array writable, and no array the loop reads
 * (nor another kept item) at its address. */
static spec_item *emit_item_reads(em *E, const spec_scan *S, int n) {
  spec_item *items = arena_alloc(E->m->a, sizeof(spec_item) * (size_t)(S->nitems + 1));
  const char **places = arena_alloc(E->m->a, sizeof(char *) * (size_t)(S->nitems + 1));
  for (int i = 0; i < S->nitems; i++) {
    expr *sub = (expr *)S->items[i];
    const type *ot = TY(sub->u.sub.obj);
    const char *obj = emit_expr(E, sub->u.sub.obj);
    const positions *idx = emit_index(E, sub);
    places[i] = nd_item_place(E, obj, ot, idx);
    items[i] = (spec_item){.sub = sub, .var = arena_printf(E->m->a, "pv%d_%d", n, i), .obj = obj, .idx = idx};
    line(E, "if (%s) goto dynac_spec_fail_%d; /* read-only: the checked copy fails there */", view_frozen(E, obj), n);
    for (int k = 0; k < S->nviews; k++)
      line(E, "if (dynac_view_holds(%s, &%s)) goto dynac_spec_fail_%d; /* %s's items may be it */",
           local_name(E, S->views[k]), places[i], n, E->in->fn->local_cnames[S->views[k]]);
    for (int k = 0; k < i; k++)
      line(E, "if ((const void *)&%s == (const void *)&%s) goto dynac_spec_fail_%d;", places[i], places[k], n);
    line(E, "double %s = %s; /* kept in a C local through the loop */", items[i].var, places[i]);
  }
  return items;
}

/* obj[positions] op= v on an item kept in a C local (emit_augassign, in
 * the speculative copy): numpy's operation on the local. */
bool emit_promoted_augassign(em *E, stmt *s) {
  const expr *sub = s->u.aug.sub;
  if (!sub || sub->kind != EX_SUBSCRIPT) return false;
  for (int i = 0; i < E->npromoted; i++) {
    if (!same_item(E, E->promoted[i].sub, sub)) continue;
    const char *r = emit_aug_value(E, s, TY(sub));
    const type *res = binop_result(s->u.aug.op, TY(sub), TY(s->u.aug.value));
    E->finite_later = " /* inf or nan: tested after the loop */";
    const char *v = emit_binop_values(E, s->u.aug.op, E->promoted[i].var, TY(sub), r, TY(s->u.aug.value), res);
    E->finite_later = NULL;
    line(E, "%s = %s;", E->promoted[i].var, as_double(E, v, res));
    return true;
  }
  return false;
}

static void save_locals(em *E, const bool *assigned, int n, bool restore) {
  for (int v = 0; v < E->in->fn->nlocals; v++) {
    if (!assigned[v]) continue;
    const char *c = E->in->fn->local_cnames[v];
    bool flag = v >= E->in->fn->nparams || E->reg;
    if (restore) line(E, "l_%s = sv%d_%s;", c, n, c);
    else line(E, "const %s sv%d_%s = l_%s;", c_type(E->in->local_ty[v]), n, c, c);
    if (flag && restore) line(E, "b_%s = sb%d_%s;", c, n, c);
    else if (flag) line(E, "const bool sb%d_%s = b_%s;", n, c, c);
  }
}

/* The speculative copy of loop s (in the copy without bounds checks) and
 * the locals' restoration when it fails; returns its label N: the checked
 * copy that follows ends at dynac_spec_done_N. 0: not speculable. */
int emit_speculation(em *E, stmt *s, const char *startv, const char *stopv, const char *stepv) {
  spec_scan S = {.E = E};
  size_t nl = sizeof(bool) * (size_t)(E->in->fn->nlocals + 1);
  S.assigned = arena_alloc(E->m->a, nl), S.grown = arena_alloc(E->m->a, nl), S.set = arena_alloc(E->m->a, nl);
  if (E->spec || E->exported || !speculable(&S, s)) return 0;
  int n = ++E->label;
  const char *len = arena_printf(E->m->a, "dynac_range_len(%s, %s, %s)", startv, stopv, stepv);
  line(E, "if (%s <= DYNAC_TICK_BUDGET) { /* speculation: numpy's inf/nan tests as one flag after the loop */",
       len);
  E->indent++;
  save_locals(E, S.assigned, n, false);
  line(E, "uint64_t dynac__nonfinite_%d = 0; /* the bits of x - x: 0 while every x is finite */", n);
  E->spec = n;
  route_failures_to(E, arena_printf(E->m->a, "DYNAC_LEAVE_SPEC(st, dynac_spec_fail_%d)", n));
  spec_item *items = emit_item_reads(E, &S, n);
  for (int i = 0; i < S.ncalls; i++) spec_np_test(E, S.np_calls[i], n);
  line(E, "dynac__budget -= (int64_t)%s; /* the eval breaker runs after it, when nothing is pending */", len);
  bool *accumulators = S.grown;
  for (int v = 0; v < E->in->fn->nlocals; v++) accumulators[v] = S.grown[v] && !S.set[v];
  E->promoted = items, E->npromoted = S.nitems, E->accumulators = accumulators;
  E->accumulated = arena_alloc(E->m->a, nl);
  emit_range_loop(E, s, ++E->label, startv, stopv, stepv);
  for (int v = 0; v < E->in->fn->nlocals; v++) /* inf or nan once stays so under + - * (/ for items) */
    if (accumulators[v] && (np_float_type(E->in->local_ty[v]) || E->accumulated[v]))
      line(E, "dynac__nonfinite_%d |= dynac_nonfinite_bits(%s);", n, local_name(E, v));
  E->promoted = NULL, E->npromoted = 0, E->accumulators = NULL, E->accumulated = NULL;
  for (int i = 0; i < S.nitems; i++) line(E, "dynac__nonfinite_%d |= dynac_nonfinite_bits(%s);", n, items[i].var);
  line(E, "if (DYNAC_UNLIKELY(dynac__nonfinite_%d != 0)) goto dynac_spec_fail_%d;", n, n);
  for (int i = 0; i < S.nitems; i++) /* cannot fail: tested before the loop */
    elem_store(E, items[i].obj, TY(items[i].sub->u.sub.obj), items[i].idx, items[i].var, TY(items[i].sub), true);
  E->spec = 0;
  route_failures_to(E, NULL);
  /* in a loop that ticks per iteration, its next tick runs the eval breaker if the budget is spent (as
     after DYNAC_LOOP_BLOCK_NESTED): no call here, which would cost the loop nest its registers (pairwise 7%) */
  if (!(E->nloops > 0 && !E->loops[E->nloops - 1].blocked))
    line(E, "DYNAC_TICK_IF(dynac__budget < 0, dynac__budget, %d);", !E->nest);
  line(E, "goto dynac_spec_done_%d;", n);
  E->indent--;
  line(E, "dynac_spec_fail_%d: DYNAC_COLD_LABEL; /* inf or nan, or a failure: again with every test */", n);
  E->indent++;
  save_locals(E, S.assigned, n, true);
  E->indent--;
  line(E, "}");
  return n;
}
