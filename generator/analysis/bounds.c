/* bounds.c: range-derived bounds-check elimination (an analysis; emit/loops.c
 * writes the C).
 *
 * Inside `for v in range(start, stop, step)`, a position of the form
 * a * v + b, with `a` a constant and `b` the same at every iteration, takes
 * its smallest and largest values at the range's first and last items. One
 * test before the loop (dynac_affine_in in dynac.h) then tells whether every
 * iteration's position is in [0, len) and computed without int64 overflow;
 * when it is, the loop's accesses skip their per-item checks, and when it is
 * not, they keep them (a Python IndexError is still raised where CPython
 * raises it). Only views the kernel never rebinds qualify: a buffer's
 * length cannot change while the glue holds it, a list's can. This is the
 * classic loop-bounds hoisting of array compilers (Numba leaves the checks
 * off instead; CPython has none to remove).
 */
#include "../gen.h"

#define TY(e) ty_of(S->in, (e)) /* the specialisation being analysed */

bool target_binds(const target *t, int loc) {
  if (!t->is_tuple) return !t->sub && t->local == loc;
  for (int i = 0; i < t->n; i++) if (target_binds(t->elts[i], loc)) return true;
  return false;
}

/* Does block s (nested blocks too) `del` local loc? */
bool block_deletes(const stmt *s, int loc) {
  for (; s; s = s->next) {
    if (s->kind == ST_DEL)
      for (int i = 0; i < s->u.del.n; i++)
        if (s->u.del.subs[i]->kind == EX_LOCAL && s->u.del.subs[i]->u.local == loc) return true;
    const stmt *kids[4] = {NULL};
    switch (s->kind) {
    case ST_IF: kids[0] = s->u.if_.then, kids[1] = s->u.if_.orelse; break;
    case ST_WHILE: kids[0] = s->u.while_.body, kids[1] = s->u.while_.orelse; break;
    case ST_FOR_RANGE: case ST_FOR_ITER: kids[0] = s->u.for_.body, kids[1] = s->u.for_.orelse; break;
    case ST_TRY:
      kids[0] = s->u.try_.body, kids[1] = s->u.try_.orelse, kids[2] = s->u.try_.finalbody;
      for (int i = 0; i < s->u.try_.nhandlers; i++)
        if (block_deletes(s->u.try_.handlers[i].body, loc)) return true;
      break;
    case ST_WITH: kids[0] = s->u.with.body; break;
    case ST_INTERP: return true;
    default: break;
    }
    for (int i = 0; i < 4; i++) if (kids[i] && block_deletes(kids[i], loc)) return true;
  }
  return false;
}

bool block_binds(const stmt *s, int loc) {
  for (; s; s = s->next) {
    switch (s->kind) {
    case ST_ASSIGN:
      for (int i = 0; i < s->u.assign.ntargets; i++)
        if (target_binds(s->u.assign.targets[i], loc)) return true;
      break;
    case ST_AUGASSIGN: if (!s->u.aug.sub && s->u.aug.local == loc) return true; break;
    case ST_IF: if (block_binds(s->u.if_.then, loc) || block_binds(s->u.if_.orelse, loc)) return true; break;
    case ST_WHILE:
      if (block_binds(s->u.while_.body, loc) || block_binds(s->u.while_.orelse, loc)) return true;
      break;
    case ST_FOR_RANGE: case ST_FOR_ITER:
      if (target_binds(s->u.for_.tgt, loc) || block_binds(s->u.for_.body, loc) ||
          block_binds(s->u.for_.orelse, loc)) return true;
      break;
    case ST_TRY:
      if (block_binds(s->u.try_.body, loc) || block_binds(s->u.try_.orelse, loc) ||
          block_binds(s->u.try_.finalbody, loc)) return true;
      for (int i = 0; i < s->u.try_.nhandlers; i++)
        if ((s->u.try_.handlers[i].name && target_binds(s->u.try_.handlers[i].name, loc)) ||
            block_binds(s->u.try_.handlers[i].body, loc)) return true;
      break;
    case ST_WITH:
      if ((s->u.with.tgt && target_binds(s->u.with.tgt, loc)) || block_binds(s->u.with.body, loc)) return true;
      break;
    case ST_IMPORT:
      for (int i = 0; i < s->u.import_.n; i++) if (target_binds(s->u.import_.tgts[i], loc)) return true;
      break;
    case ST_INTERP: return true;
    default: break;
    }
  }
  return false;
}

typedef struct scan {
  const inst *in;
  const stmt *body;    /* the loop's body */
  int var;             /* the loop variable */
  const bool *views;   /* [nparams]: view parameters never rebound */
  const bool *bound;   /* locals definitely bound before the loop */
  proven_index *out;
  int n, cap;
} scan;

/* An int constant, or an int local bound before the loop and not rebound
 * in it (never the loop variable). */
static bool invariant_atom(const scan *S, const expr *e) {
  if (e->kind == EX_INT) return true;
  return e->kind == EX_LOCAL && e->u.local != S->var && S->bound[e->u.local] &&
         S->in->local_ty[e->u.local]->kind == TY_INT && !block_binds(S->body, e->u.local);
}
/* An atom, or atom + - * atom: what the test before the loop computes. */
static bool invariant(const scan *S, const expr *e) {
  if (e->kind == EX_BINOP && (e->u.bin.op == OP_ADD || e->u.bin.op == OP_SUB || e->u.bin.op == OP_MUL))
    return TY(e)->kind == TY_INT && invariant_atom(S, e->u.bin.l) && invariant_atom(S, e->u.bin.r);
  return invariant_atom(S, e);
}
/* a * v (or v * a, or v itself) with `a` a constant: sets *a. */
static bool scaled_var(const scan *S, const expr *e, int64_t *a) {
  if (e->kind == EX_LOCAL && e->u.local == S->var) { *a = 1; return true; }
  if (e->kind != EX_BINOP || e->u.bin.op != OP_MUL) return false;
  const expr *l = e->u.bin.l, *r = e->u.bin.r;
  if (l->kind == EX_INT && r->kind == EX_LOCAL && r->u.local == S->var) { *a = l->u.i; return true; }
  if (r->kind == EX_INT && l->kind == EX_LOCAL && l->u.local == S->var) { *a = r->u.i; return true; }
  return false;
}
/* Is position `e` a * v + b, a * v - b or b + a * v? Fills p's a, b, neg. */
static bool affine(const scan *S, expr *e, proven_index *p) {
  p->b = NULL;
  p->neg = false;
  if (TY(e)->kind != TY_INT) return false;
  if (scaled_var(S, e, &p->a)) return p->a != 0;
  if (e->kind != EX_BINOP || (e->u.bin.op != OP_ADD && e->u.bin.op != OP_SUB)) return false;
  expr *l = e->u.bin.l, *r = e->u.bin.r;
  if (scaled_var(S, l, &p->a) && invariant(S, r)) {
    p->b = r;
    p->neg = e->u.bin.op == OP_SUB;
    return p->a != 0;
  }
  if (e->u.bin.op == OP_ADD && scaled_var(S, r, &p->a) && invariant(S, l)) {
    p->b = l;
    return p->a != 0;
  }
  return false;
}

static void scan_expr(scan *S, expr *e);

/* obj[index] of a qualifying view: each of its positions that is affine. */
static void scan_subscript(scan *S, expr *e) {
  const expr *obj = e->u.sub.obj;
  if (obj->kind != EX_LOCAL || !S->views[obj->u.local]) return;
  const type *t = TY(obj);
  if (t->kind != TY_BUF || TY(e->u.sub.index)->kind == TY_OBJ) return;
  if (t->kind == TY_BUF && (TY(e)->kind == TY_BUF || TY(e)->kind == TY_OBJ)) return; /* a view (a row), not an item */
  if (t->ndim == 2 && e->u.sub.index->kind != EX_TUPLE) return;
  int ndim = t->ndim == 2 ? 2 : 1;
  for (int d = 0; d < ndim && S->n < S->cap; d++) {
    expr *pos = ndim == 2 ? e->u.sub.index->u.tuple.elts[d] : e->u.sub.index;
    proven_index p = {pos, obj->u.local, d, 0, NULL, false};
    if (affine(S, pos, &p)) S->out[S->n++] = p;
  }
}

static void scan_sub(void *S, expr *e) { scan_expr(S, e); }
/* A comprehension's own loop is not entered: its positions are tested
 * before that loop, when it is emitted. */
static void scan_expr(scan *S, expr *e) {
  if (!e) return;
  ir_each_subexpr(e, scan_sub, S);
  if (e->kind == EX_SUBSCRIPT) scan_subscript(S, e);
}

static void scan_target(scan *S, target *t) {
  if (t->sub) scan_expr(S, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) scan_target(S, t->elts[i]);
}

static void scan_block(scan *S, stmt *s);
static void scan_part_expr(void *S, expr *e) { scan_expr(S, e); }
static void scan_part_target(void *S, target *t) { scan_target(S, t); }
static void scan_part_block(void *S, stmt *b) { scan_block(S, b); }
static void scan_block(scan *S, stmt *s) {
  static const ir_parts parts = {scan_part_expr, scan_part_target, scan_part_block, false};
  for (; s; s = s->next) ir_each_part(s, &parts, S);
}

int find_affine_indices(const inst *in, const stmt *loop, const bool *views, const bool *bound,
                        proven_index *out, int cap) {
  const target *t = loop->u.for_.tgt;
  if (loop->kind != ST_FOR_RANGE || t->is_tuple || t->sub || !views) return 0;
  if (block_binds(loop->u.for_.body, t->local)) return 0; /* v is not the range's item everywhere */
  scan S = {in, loop->u.for_.body, t->local, views, bound, out, 0, cap};
  scan_block(&S, loop->u.for_.body);
  return S.n;
}
