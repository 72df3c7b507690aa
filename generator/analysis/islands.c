/* islands.c: does a specialisation run any typed island (an analysis, a
 * pure function of IR + types)?
 *
 * A kernel whose every operation goes through the C API and that reads or
 * writes attributes or calls methods of objects does what the interpreter
 * does, plus the dispatch, without the interpreter's inline caches for
 * attributes: with CPython 3.11 it is not faster yet (measured: 1.1-1.6x
 * slower on method-heavy code). Its entry is marked generic-only; the
 * runtime serves such entries of undecorated functions only when
 * DYNAC_GENERIC_KERNELS=1 (do no harm). A typed island is an operation on
 * unboxed values: arithmetic, a comparison or a unary operator on numbers,
 * an element read of a list or buffer as a number, a range loop.
 */
#include "../gen.h"

typedef struct island_scan { const inst *in; int n, attrs; } island_scan;

static bool unboxed(const type *t) { return ty_is_scalar(t); }
static void scan_block(void *ctx, stmt *s);
static void scan_expr(void *ctx, expr *e);
static void scan_target(void *ctx, target *t) {
  if (t->sub && t->sub->kind == EX_ATTR) ((island_scan *)ctx)->attrs++; /* obj.name = v */
  if (t->sub && place_obj(t->sub)) scan_expr(ctx, place_obj(t->sub));
  for (int i = 0; t->is_tuple && i < t->n; i++) scan_target(ctx, t->elts[i]);
}

static void scan_expr(void *ctx, expr *e) {
  island_scan *S = ctx;
  const type *t = ty_of(S->in, e);
  bool literal = e->kind == EX_UNARY && (e->u.un.a->kind == EX_INT || e->u.un.a->kind == EX_FLOAT);
  if ((e->kind == EX_BINOP || e->kind == EX_UNARY || e->kind == EX_COMPARE || e->kind == EX_SUBSCRIPT) &&
      unboxed(t) && !literal) /* -1.0 is a constant, not an operation */
    S->n++;
  if ((e->kind == EX_ATTR && ty_of(S->in, e->u.sub.obj)->kind == TY_OBJ) ||
      (e->kind == EX_CALL && e->u.call.kind == CALLEE_METHOD && !e->u.call.op))
    S->attrs++; /* obj.name, obj.m(...): attribute lookups CPython's inline caches do faster */
  if (e->kind == EX_LISTCOMP) scan_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, scan_expr, ctx);
}
static void scan_block(void *ctx, stmt *s) {
  static const ir_parts parts = {scan_expr, scan_target, scan_block, false};
  for (; s; s = s->next) {
    if (s->kind == ST_FOR_RANGE) ((island_scan *)ctx)->n++;
    ir_each_part(s, &parts, ctx);
  }
}

bool generic_only(const inst *in) {
  if (!in->generic || in->fn->decorated_compile) return false;
  island_scan S = {in, 0, 0};
  scan_block(&S, in->fn->body);
  return S.n == 0 && S.attrs > 0;
}
