/* star_args.c: *args that only spreads (an escape analysis; emit/kernel.c,
 * emit/calls.c and emit/continue.c write the C).
 *
 * `def schedule(self, kind, delay, *extra): ... kind(t, seq, *extra)`
 * receives a tuple only to take it apart again. CPython's call makes it (a
 * tuple allocated, tracked by the GC and freed per call); PyPy's JIT keeps
 * such a tuple virtual. Here, when the function's only use of its *args is
 * to spread it as the last argument of calls, the tuple cannot escape and
 * its identity cannot be observed: the kernel takes the caller's values
 * instead (a C array and its length), where the kernel also holds it
 * borrowed (emit/writer.c borrowed_param: never rebound or deleted, not
 * captured, no graph break). A kernel calling it passes its
 * values from its stack; the glue passes the items of the tuple
 * CPython's call made. The tuple is made only where the interpreter needs
 * one (a statement going on in the interpreter: dynac_tuple_of).
 */
#include "../gen.h"

typedef struct spread_walk {
  int local; /* the *args parameter */
  bool other_use;
} spread_walk;

static void spread_expr(void *ctx, expr *e);
static void spread_block(void *ctx, stmt *b);
static void spread_target(void *ctx, target *t) {
  if (t->sub) spread_expr(ctx, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) spread_target(ctx, t->elts[i]);
}
static void spread_block(void *ctx, stmt *b) {
  static const ir_parts parts = {spread_expr, spread_target, spread_block, true};
  for (; b; b = b->next) {
    if (b->kind == ST_INTERP) ((spread_walk *)ctx)->other_use = true; /* the interpreter takes every local */
    ir_each_part(b, &parts, ctx);
  }
}
/* Is e a call f(a, b, *x) spreading local `local` last (call_positional_star's form)? */
static bool spreads_last(const expr *e, int local) {
  bool star;
  if (e->kind != EX_CALL || call_positional_star(e, &star) < 0 || !star) return false;
  const expr *x = e->u.call.args[e->u.call.n - 1];
  return x->kind == EX_LOCAL && x->u.local == local;
}
static void spread_expr(void *ctx, expr *e) {
  spread_walk *W = ctx;
  if (e->kind == EX_LOCAL && e->u.local == W->local) W->other_use = true;
  if (e->kind == EX_LISTCOMP) spread_block(ctx, e->u.comp.loop);
  if (!spreads_last(e, W->local)) {
    ir_each_subexpr(e, spread_expr, ctx);
    return;
  }
  for (int i = 0; i < e->u.call.n - 1; i++) spread_expr(ctx, e->u.call.args[i]); /* the callee, the values */
}

bool star_args_spread_only(const func *f) {
  if (!f->star_args || f->nvarparams != 1 || f->nposparams != f->nparams - 1 || f->nparams > 64) return false;
  spread_walk W = {f->nparams - 1, false};
  spread_block(&W, f->body);
  return !W.other_use;
}
