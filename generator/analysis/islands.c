/* islands.c: does a specialisation run enough typed islands to beat the
 * interpreter (an analysis, a pure function of IR + types)?
 *
 * A kernel whose operations go through the C API and that reads or writes
 * attributes or calls methods of objects does what the interpreter does,
 * plus the dispatch: with CPython 3.11 it is not faster on method-heavy
 * code (measured: 1.1-1.6x slower: the interpreter's Python-to-Python
 * calls are cheaper than the C API's), and serving it keeps the frame hook
 * installed, which slows every other call (see runtime/hook.h). Attribute
 * reads and writes go through the site's polymorphic cache, as fast as the
 * interpreter's inline caches: inside a loop, where the kernel also saves
 * the interpreter's dispatch per instruction, they do not count against it
 * (a loop over objects reading their attributes: 3x CPython); outside
 * loops they do (a few lookups do not repay the call's dispatch). A typed
 * island is an operation on unboxed values: arithmetic, a comparison or a
 * unary operator on numbers, an element read of a list or buffer as a
 * number, a range loop's counter, a method call, a construction or an
 * operator made kernel to kernel (classes.c); an instance's attribute read
 * as a number is neither (the interpreter's inline cache reads it as fast:
 * the arithmetic on it is the island). Inside a loop, typed islands and method calls count
 * LOOP_WEIGHT times. An entry whose typed islands weigh less than its
 * attribute lookups and method calls is marked generic-only; the
 * runtime serves such entries of undecorated functions only when
 * DYNAC_GENERIC_KERNELS=1 (do no harm).
 */
#include "../gen.h"

#define LOOP_WEIGHT 8

typedef struct island_scan { const inst *in; int n, attrs, loops; } island_scan;

static bool unboxed(const type *t) { return ty_is_scalar(t); }
static void scan_block(void *ctx, stmt *s);
static void scan_expr(void *ctx, expr *e);
static int weight(const island_scan *S) { return S->loops ? LOOP_WEIGHT : 1; }
/* An attribute read or write of an object (through the site's cache): against the kernel
 * outside loops only (see above). */
static void count_attribute(island_scan *S) {
  if (!S->loops) S->attrs++;
}
static void scan_target(void *ctx, target *t) {
  island_scan *S = ctx;
  if (t->sub && t->sub->kind == EX_ATTR) count_attribute(S); /* obj.name = v */
  if (t->sub && place_obj(t->sub)) scan_expr(ctx, place_obj(t->sub));
  for (int i = 0; t->is_tuple && i < t->n; i++) scan_target(ctx, t->elts[i]);
}

/* An operation on unboxed values: its value and its operands are numbers
 * (a comparison of objects gives a bool, but runs through the C API). */
static bool typed_operation(const island_scan *S, const expr *e) {
  if (!unboxed(ty_of(S->in, e))) return false;
  switch (e->kind) {
  case EX_BINOP: return unboxed(ty_of(S->in, e->u.bin.l)) && unboxed(ty_of(S->in, e->u.bin.r));
  case EX_UNARY: /* -1.0 is a constant, not an operation */
    return unboxed(ty_of(S->in, e->u.un.a)) && e->u.un.a->kind != EX_INT && e->u.un.a->kind != EX_FLOAT;
  case EX_COMPARE:
    for (int i = 0; i < e->u.cmp.n; i++) if (!unboxed(ty_of(S->in, e->u.cmp.operands[i]))) return false;
    return true;
  case EX_SUBSCRIPT: return true; /* an element read as a number */
  default: return false;
  }
}

static void scan_expr(void *ctx, expr *e) {
  island_scan *S = ctx;
  if (typed_operation(S, e)) S->n += weight(S);
  const type *ot = e->kind == EX_ATTR ? ty_of(S->in, e->u.sub.obj) : NULL;
  bool constructs = (e->kind != EX_CALL || e->u.call.kind == CALLEE_VALUE || e->u.call.kind == CALLEE_BUILTIN) &&
                    S->in->types.callee[e->id]; /* Cls(...), a OP b, len(a) of instances: kernel to kernel */
  bool number_attr = ot && ot->cls && unboxed(ty_of(S->in, e)); /* neither: see above */
  if (method_devirtualised(S->in, e) || constructs)
    S->n += weight(S); /* a kernel-to-kernel method call */
  else if (e->kind == EX_CALL && e->u.call.kind == CALLEE_METHOD && !e->u.call.op)
    S->attrs += weight(S); /* obj.m(...): a call through the C API, CPython's own calls are faster */
  else if (!number_attr && ot && ot->kind == TY_OBJ)
    count_attribute(S); /* obj.name */
  if (e->kind == EX_LISTCOMP) {
    S->loops++;
    scan_block(ctx, e->u.comp.loop);
    S->loops--;
  }
  ir_each_subexpr(e, scan_expr, ctx);
}
static void scan_block(void *ctx, stmt *s) {
  static const ir_parts parts = {scan_expr, scan_target, scan_block, false};
  island_scan *S = ctx;
  for (; s; s = s->next) {
    bool loop = s->kind == ST_FOR_RANGE || s->kind == ST_FOR_ITER || s->kind == ST_WHILE;
    S->loops += loop;
    if (s->kind == ST_FOR_RANGE) S->n += weight(S); /* its counter, unboxed */
    ir_each_part(s, &parts, ctx);
    S->loops -= loop;
  }
}

bool generic_only(const inst *in) {
  if (!in->generic || in->fn->decorated_compile) return false;
  island_scan S = {in, 0, 0, 0};
  scan_block(&S, in->fn->body);
  return S.attrs > 0 && S.n < S.attrs;
}
