/* narrow.c: which reads of a local are known not to see None (an analysis,
 * a pure function of the IR).
 *
 * A local that holds an instance of one class or None (`nearest = None`,
 * then `nearest = s` in a loop) has the type "Cls | None", whose operations
 * go through the C API. After `if nearest is None: return ...` (or inside
 * `if x is not None:`, `while x is not None:`, the right of `x is not None
 * and ...`) CPython's own semantics say the local holds the instance until
 * it is bound again: such a read is typed as the instance (infer/expr.c),
 * as a type checker narrows an Optional (mypy, Pyright; PyPy's JIT learns
 * the same from its guard on the class).
 *
 * Facts flow forward through a block; a statement that binds the local
 * anywhere (or runs in the interpreter) ends them; branches meet by
 * intersection; a loop's body starts from the facts no statement of the
 * loop can end. Anything unsure gives no fact: a read left as "Cls | None"
 * is only slower. */
#include "../gen.h"

#include <string.h>

typedef struct narrowing {
  bool *not_none;   /* [nexprs]: the result */
  int *fact;        /* [nlocals]: the local's index in facts, or -1 (never tested against
                       None, or captured by a nested function: a call may rebind it) */
  int n;            /* facts tracked */
  arena *a;
  bool numbers;     /* `x op= v` of x known not None keeps the fact: x holds a number (a
                       "float | None" local's op= is typed as its number's, whose result is one) */
} narrowing;

typedef bool *facts; /* [n]: known not None here */

static facts facts_copy(narrowing *N, const bool *from) {
  facts f = arena_alloc(N->a, sizeof(bool) * (size_t)(N->n + 1));
  if (from) memcpy(f, from, sizeof(bool) * (size_t)N->n);
  return f;
}
static void facts_meet(narrowing *N, facts into, const bool *other) {
  for (int i = 0; i < N->n; i++) into[i] = into[i] && other[i];
}

/* ---- the locals a statement binds (anywhere inside): their facts end --- */
typedef struct kill_ctx { narrowing *N; facts F; } kill_ctx;
static void kill_local(kill_ctx *K, int local) {
  if (K->N->fact[local] >= 0) K->F[K->N->fact[local]] = false;
}
static void kill_target(void *ctx, target *t) {
  if (t->is_tuple)
    for (int i = 0; i < t->n; i++) kill_target(ctx, t->elts[i]);
  else if (!t->sub)
    kill_local(ctx, t->local);
}
static void kill_block(void *ctx, stmt *s);
static void kill_expr(void *ctx, expr *e) { /* a comprehension's loop binds names too */
  if (e->kind == EX_LISTCOMP) kill_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, kill_expr, ctx);
}
static void kill_stmt(kill_ctx *K, stmt *s) {
  static const ir_parts parts = {kill_expr, kill_target, kill_block, true};
  if (s->kind == ST_AUGASSIGN && !s->u.aug.sub) kill_local(K, s->u.aug.local);
  ir_each_part(s, &parts, K);
}
static void kill_block(void *ctx, stmt *s) {
  for (; s; s = s->next) kill_stmt(ctx, s);
}
/* Ends the facts of every local `s` binds; an interpreted statement ends all. */
static void kill_bound(narrowing *N, facts F, stmt *s) {
  if (s->kind == ST_INTERP) { memset(F, 0, sizeof(bool) * (size_t)N->n); return; }
  kill_ctx K = {N, F};
  kill_stmt(&K, s);
}

/* ---- conditions: what their truth says ---------------------------------- */
/* `x is None` / `None is x` (is_none) or `x is not None`: x's local, else -1. */
static int none_test(const expr *e, bool *is_none) {
  if (e->kind != EX_COMPARE || e->u.cmp.n != 2) return -1;
  if (e->u.cmp.ops[0] != CMP_IS && e->u.cmp.ops[0] != CMP_IS_NOT) return -1;
  const expr *l = e->u.cmp.operands[0], *r = e->u.cmp.operands[1];
  const expr *x = l->kind == EX_NONE ? r : r->kind == EX_NONE ? l : NULL;
  if (!x || x->kind != EX_LOCAL) return -1;
  *is_none = e->u.cmp.ops[0] == CMP_IS;
  return x->u.local;
}
/* Adds to F what `e` being true (when) or false says. A local that is
 * true is not None (None is false); a false one may be anything. Truth
 * tests count for the statements a condition guards (`truth`), not inside
 * its own expression: bool() of an instance is an effect (__bool__ or
 * __len__ may run), and a typed read that then deoptimised in the same
 * statement (an attribute of another type than recorded) could not go on
 * in the interpreter from inside `a if x else b`. */
static void assume(narrowing *N, facts F, const expr *e, bool when, bool truth) {
  bool is_none;
  int x = none_test(e, &is_none);
  if (x < 0 && truth && when && e->kind == EX_LOCAL) x = e->u.local, is_none = false;
  if (x >= 0 && is_none != when && N->fact[x] >= 0) F[N->fact[x]] = true;
  else if (e->kind == EX_NOT) assume(N, F, e->u.not_arg, !when, truth);
  else if (e->kind == EX_BOOLOP && e->u.boolop.is_and == when) { /* both sides held */
    assume(N, F, e->u.boolop.l, when, truth);
    assume(N, F, e->u.boolop.r, when, truth);
  }
}

/* ---- reads ---------------------------------------------------------------- */
typedef struct reads_ctx { narrowing *N; facts F, targets; } reads_ctx;
static void mark_reads(narrowing *N, expr *e, facts F);
static void mark_sub(void *ctx, expr *e) {
  reads_ctx *R = ctx;
  mark_reads(R->N, e, R->F);
}
/* Marks the reads in `e` that F (and e's own conditions) prove not None. */
static void mark_reads(narrowing *N, expr *e, facts F) {
  if (!e) return;
  switch (e->kind) {
  case EX_LOCAL:
    if (N->fact[e->u.local] >= 0 && F[N->fact[e->u.local]]) N->not_none[e->id] = true;
    return;
  case EX_LISTCOMP: return; /* its own names and loops: no facts inside */
  case EX_BOOLOP: { /* the right side runs when the left was true (and) or false (or) */
    mark_reads(N, e->u.boolop.l, F);
    facts G = facts_copy(N, F);
    assume(N, G, e->u.boolop.l, e->u.boolop.is_and, false);
    mark_reads(N, e->u.boolop.r, G);
    return;
  }
  case EX_IFEXP: {
    mark_reads(N, e->u.ifexp.cond, F);
    facts G = facts_copy(N, F), H = facts_copy(N, F);
    assume(N, G, e->u.ifexp.cond, true, false);
    assume(N, H, e->u.ifexp.cond, false, false);
    mark_reads(N, e->u.ifexp.then, G);
    mark_reads(N, e->u.ifexp.orelse, H);
    return;
  }
  default: {
    reads_ctx R = {N, F, F};
    ir_each_subexpr(e, mark_sub, &R);
  }
  }
}

/* ---- statements ----------------------------------------------------------- */
static bool block_ends(const stmt *s) { /* control never reaches the block's end */
  if (!s) return false;
  while (s->next) s = s->next;
  return s->kind == ST_RETURN || s->kind == ST_RAISE || s->kind == ST_BREAK || s->kind == ST_CONTINUE;
}
static facts walk_block(narrowing *N, stmt *s, facts F);

/* The facts a loop's body (and its condition) may start from: those no
 * statement of the loop ends. */
static facts loop_head(narrowing *N, stmt *s, facts F) {
  facts H = facts_copy(N, F);
  kill_bound(N, H, s);
  return H;
}

/* A target's own reads (`x.a = v`, `x[i] = v`) come after its earlier
 * names are bound (`x, x.a = None, 1`): they know only what none of the
 * statement's names says. */
static void mark_target(void *ctx, target *t) {
  reads_ctx *R = ctx;
  if (t->sub) mark_reads(R->N, t->sub, R->targets);
  for (int i = 0; t->is_tuple && i < t->n; i++) mark_target(ctx, t->elts[i]);
}
static void no_block(void *ctx, stmt *b) { (void)ctx, (void)b; }

/* Marks the reads of `s` under F; returns the facts after it. */
static facts walk_stmt(narrowing *N, stmt *s, facts F) {
  switch (s->kind) {
  case ST_IF: {
    mark_reads(N, s->u.if_.cond, F);
    facts T = facts_copy(N, F), E = facts_copy(N, F);
    assume(N, T, s->u.if_.cond, true, true);
    assume(N, E, s->u.if_.cond, false, true);
    T = walk_block(N, s->u.if_.then, T);
    E = walk_block(N, s->u.if_.orelse, E);
    bool t_ends = block_ends(s->u.if_.then), e_ends = block_ends(s->u.if_.orelse);
    if (s->u.if_.assert_ || (t_ends && e_ends)) { /* python -O skips an assert */
      facts G = facts_copy(N, F);
      kill_bound(N, G, s);
      return G;
    }
    if (t_ends) return E;
    if (!e_ends) facts_meet(N, T, E);
    return T;
  }
  case ST_WHILE: {
    facts H = loop_head(N, s, F);
    mark_reads(N, s->u.while_.cond, H);
    facts B = facts_copy(N, H), X = facts_copy(N, H);
    assume(N, B, s->u.while_.cond, true, true);
    assume(N, X, s->u.while_.cond, false, true);
    walk_block(N, s->u.while_.body, B);
    walk_block(N, s->u.while_.orelse, X);
    return H; /* a break leaves with the head's facts only */
  }
  case ST_FOR_RANGE: case ST_FOR_ITER: {
    for (int i = 0; i < s->u.for_.niters; i++) mark_reads(N, s->u.for_.iters[i], F);
    mark_reads(N, s->u.for_.start, F);
    mark_reads(N, s->u.for_.stop, F);
    mark_reads(N, s->u.for_.step, F);
    facts H = loop_head(N, s, F);
    walk_block(N, s->u.for_.body, facts_copy(N, H));
    walk_block(N, s->u.for_.orelse, facts_copy(N, H));
    return H;
  }
  case ST_TRY: { /* an exception may leave the body anywhere: handlers and after know less */
    facts H = loop_head(N, s, F);
    walk_block(N, s->u.try_.body, facts_copy(N, F));
    for (int i = 0; i < s->u.try_.nhandlers; i++) {
      mark_reads(N, s->u.try_.handlers[i].type, H);
      walk_block(N, s->u.try_.handlers[i].body, facts_copy(N, H));
    }
    walk_block(N, s->u.try_.orelse, facts_copy(N, H));
    walk_block(N, s->u.try_.finalbody, facts_copy(N, H));
    return H;
  }
  case ST_WITH: { /* __exit__ may swallow an exception from anywhere in the body */
    mark_reads(N, s->u.with.mgr, F);
    facts H = loop_head(N, s, F);
    walk_block(N, s->u.with.body, facts_copy(N, H));
    return H;
  }
  case ST_INTERP: return facts_copy(N, NULL);
  default: { /* simple statements: values are read before the targets are bound */
    static const ir_parts parts = {mark_sub, mark_target, no_block, false};
    facts G = facts_copy(N, F);
    kill_bound(N, G, s);
    reads_ctx R = {N, F, G};
    ir_each_part(s, &parts, &R);
    if (s->kind == ST_AUGASSIGN && !s->u.aug.sub && s->u.aug.op_expr) { /* `x += v` reads x first */
      mark_reads(N, s->u.aug.op_expr->u.bin.l, F);
      int k = N->fact[s->u.aug.local];
      if (N->numbers && k >= 0 && F[k]) G[k] = true;
    }
    return G;
  }
  }
}

static facts walk_block(narrowing *N, stmt *s, facts F) {
  for (; s; s = s->next) F = walk_stmt(N, s, F);
  return F;
}

/* The locals to track: those a condition tests against None, or an if or
 * while statement's condition for truth (-2 marks them), less those a nested function's closure captures
 * (MAKE_FUNCTION's cells: a call may rebind them behind the function's
 * back). */
static void candidates_block(void *ctx, stmt *s);
static void candidates_cond(narrowing *N, const expr *e) { /* `if x:`, `while x and ...:` */
  if (!e) return;
  if (e->kind == EX_LOCAL && N->fact[e->u.local] == -1) N->fact[e->u.local] = -2;
  if (e->kind == EX_NOT) candidates_cond(N, e->u.not_arg);
  if (e->kind == EX_BOOLOP) candidates_cond(N, e->u.boolop.l), candidates_cond(N, e->u.boolop.r);
}
static void candidates_expr(void *ctx, expr *e) {
  narrowing *N = ctx;
  bool is_none;
  int x = none_test(e, &is_none);
  if (x >= 0 && N->fact[x] == -1) N->fact[x] = -2;
  if (e->kind == EX_FUNCTION) {
    int first = e->u.mkfn.ndefaults + e->u.mkfn.nkwdefaults + e->u.mkfn.nannotations;
    for (int i = first; i < first + e->u.mkfn.ncells; i++)
      if (e->u.mkfn.args[i]->kind == EX_LOCAL) N->fact[e->u.mkfn.args[i]->u.local] = -3;
  }
  if (e->kind == EX_LISTCOMP) candidates_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, candidates_expr, ctx);
}
static void candidates_target(void *ctx, target *t) {
  if (t->sub) candidates_expr(ctx, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) candidates_target(ctx, t->elts[i]);
}
static void candidates_block(void *ctx, stmt *s) {
  static const ir_parts parts = {candidates_expr, candidates_target, candidates_block, true};
  for (; s; s = s->next) {
    if (s->kind == ST_IF) candidates_cond(ctx, s->u.if_.cond);
    if (s->kind == ST_WHILE) candidates_cond(ctx, s->u.while_.cond);
    ir_each_part(s, &parts, ctx);
  }
}

bool *narrow_not_none_reads(arena *a, const func *f, bool numbers) {
  narrowing N = {NULL, NULL, 0, a, numbers};
  N.not_none = arena_alloc(a, sizeof(bool) * (size_t)(f->nexprs + 1));
  N.fact = arena_alloc(a, sizeof(int) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < f->nlocals; i++) N.fact[i] = -1;
  candidates_block(&N, f->body);
  for (int i = 0; i < f->nlocals; i++) N.fact[i] = N.fact[i] == -2 ? N.n++ : -1;
  if (N.n) walk_block(&N, f->body, facts_copy(&N, NULL));
  return N.not_none;
}
