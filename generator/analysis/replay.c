/* replay.c: view parameters whose stores need no undo entry (an analysis;
 * emit/kernel.c writes the C).
 *
 * A deoptimised call is taken back and runs again, whole, in the
 * interpreter (dynac.h's undo log). A view parameter the function only
 * stores to (never reads an item of, iterates, passes on, aliases or
 * rebinds; len(), .shape, .ndim and .size read no item) needs no taking
 * back, provided it shares no memory with any view the call reads: nothing
 * the call reads then depends on the stores made so far, so the run again
 * makes the same stores in the same order, and the view ends as the
 * interpreter alone would have left it. What the run again reads is as it
 * was at the call: lists and the other views come back from the log. This
 * is idempotent re-execution, the reason a store-only output needs no
 * checkpoint in transactional and speculative compilers.
 *
 * emit/kernel.c tests the shared memory when the call starts (dynac_view_disjoint):
 * a view that shares memory with one the call reads is logged as before.
 * Only a kernel no other kernel calls qualifies: a callee's run again is its
 * caller's, which may have read the view before the call.
 */
#include <string.h>

#include "../gen.h"

typedef struct reads {
  int p;      /* the view parameter */
  bool read;  /* found an item read (or any use that could be one) */
} reads;

static void reads_expr(reads *R, expr *e);
static void reads_block(reads *R, stmt *s);

static void reads_sub(void *R, expr *e) { reads_expr(R, e); }
static bool is_param(const expr *e, int p) { return e->kind == EX_LOCAL && e->u.local == p; }

/* A use of p in `e` that may read an item: anything but len(p) and p.attr. */
static void reads_expr(reads *R, expr *e) {
  if (R->read || !e) return;
  if (is_param(e, R->p)) { R->read = true; return; }
  if (e->kind == EX_ATTR && is_param(e->u.sub.obj, R->p)) return; /* shape, ndim, size */
  if (e->kind == EX_CALL && e->u.call.kind == CALLEE_BUILTIN && ops_call_is(e, OPI_LEN) && is_param(e->u.call.args[0], R->p))
    return;
  if (e->kind == EX_LISTCOMP) reads_block(R, e->u.comp.loop);
  ir_each_subexpr(e, reads_sub, R);
}

/* p[index] = ... stores: only its index is read (a slice store reads p). */
static void reads_target(reads *R, target *t) {
  for (int i = 0; t->is_tuple && i < t->n; i++) reads_target(R, t->elts[i]);
  if (t->is_tuple) return;
  if (!t->sub) R->read |= t->local == R->p; /* rebound: not the caller's view any more */
  else if (t->sub->kind != EX_SLICE && !is_name_place(t->sub) && is_param(t->sub->u.sub.obj, R->p)) reads_expr(R, t->sub->u.sub.index);
  else reads_expr(R, t->sub);
}

static void reads_part_expr(void *R, expr *e) { reads_expr(R, e); }
static void reads_part_target(void *R, target *t) { reads_target(R, t); }
static void reads_part_block(void *R, stmt *b) { reads_block(R, b); }
/* An augmented store p[i] += v is an expression part (it reads the item). */
static void reads_block(reads *R, stmt *s) {
  static const ir_parts parts = {reads_part_expr, reads_part_target, reads_part_block, true};
  for (; s && !R->read; s = s->next) {
    if (s->kind == ST_INTERP) R->read = true; /* the interpreter may do anything with it */
    else ir_each_part(s, &parts, R);
  }
}

/* Does another kernel of the module call `in`? */
static bool called_by_a_kernel(const module *m, const inst *in) {
  for (const inst *c = m->insts; c; c = c->next_all)
    for (int i = 0; i < c->ncallees; i++)
      if (c->callees[i] == in) return true;
  return false;
}

/* Does a value of type `t` hold a buffer (itself, or as an item at any depth)? */
static bool holds_buffer(const type *t) {
  if (!t) return false;
  if (t->kind == TY_BUF) return true;
  for (int i = 0; (t->kind == TY_LIST || t->kind == TY_TUPLE) && i < t->n; i++)
    if (holds_buffer(t->elts[i])) return true;
  return false;
}

bool *store_only_views(arena *a, const module *m, const inst *in) {
  bool *only = arena_alloc(a, sizeof(bool) * (size_t)(in->fn->nparams + 1));
  if (in->generic || called_by_a_kernel(m, in)) return only;
  /* a view reached otherwise (a local, an item) could share memory unseen */
  for (int i = 0; i < in->fn->nlocals; i++)
    if (holds_buffer(in->local_ty[i]) && (i >= in->fn->nparams || in->local_ty[i]->kind != TY_BUF))
      return only;
  for (int p = 0; p < in->fn->nparams; p++) {
    if (in->args[p]->kind != TY_BUF) continue;
    reads R = {p, false};
    reads_block(&R, in->fn->body);
    only[p] = !R.read;
  }
  return only;
}
