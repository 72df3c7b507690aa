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
 * number, a range loop's counter, a call of a module function, a method
 * call, a construction or an operator made kernel to kernel (classes.c), a
 * method call on objects with a kernel per recorded receiver class;
 * a heapq.heappush / heappop whose comparisons call compiled __lt__s
 * (emit/heap.c) weighs as a loop of them;
 * an object's attribute read as a number is neither (the interpreter's
 * inline cache reads it as fast: the arithmetic on it is the island).
 * Inside a loop, typed islands and method calls count LOOP_WEIGHT times.
 * An entry whose typed islands weigh less than its
 * attribute lookups and method calls is marked generic-only; the
 * runtime serves such entries of undecorated functions only when
 * DYNAC_GENERIC_KERNELS=1 (do no harm). Not so a method whose callers are C
 * code: a special method (type slots call it) or one a kernel calls through
 * the C API; the interpreter's call from C costs what a dispatch does
 * (measured on examples/programs/scheduler.py: serving the generic kernels
 * of Event.__lt__, called by heapq, and of the fire() methods, called by
 * Shop.run's kernel, takes 7.7% and 3.3% of the instructions away).
 */
#include "../gen.h"

#include <string.h>

#define LOOP_WEIGHT 8

typedef struct island_scan { const module *m; const inst *in; int n, attrs, loops; } island_scan;

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
  bool constructs = (e->kind != EX_CALL || e->u.call.kind == CALLEE_VALUE || e->u.call.kind == CALLEE_BUILTIN ||
                     e->u.call.kind == CALLEE_MODULE_FN) &&
                    S->in->types.callee[e->id]; /* Cls(...), a OP b, len(a) of instances, f(...) of a
                                                   module function: kernel to kernel */
  bool number_attr = ot && ot->kind == TY_OBJ && unboxed(ty_of(S->in, e)); /* neither: see above */
  if (S->m->nheap_less && heapq_call_shape(e))
    S->n += LOOP_WEIGHT * weight(S); /* heapq's comparisons, each a compiled __lt__ (emit/heap.c) */
  else if (method_devirtualised(S->in, e) || constructs || S->in->types.poly[e->id])
    S->n += weight(S); /* a kernel-to-kernel method call (per recorded receiver class: gen.h poly_site) */
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

/* A special method (`__lt__`, `__init__`, `__getitem__`, ...): CPython calls
 * it through its type's slot (heapq's comparisons, `Cls(...)`'s __init__),
 * from C, where the interpreter has no inlined Python-to-Python call: it
 * enters its eval loop for a new frame, which costs what a dispatch does. */
static bool special_method(const func *f) {
  size_t n = strlen(f->name);
  return f->method && n > 4 && !strncmp(f->name, "__", 2) && !strcmp(f->name + n - 2, "__");
}

/* Does an instance of the module call a method named `name` through the
 * C API (`obj.name(...)`, obj of no class it knows)? From a kernel that is
 * a call from C into the interpreter, as a type slot's. */
typedef struct api_call_scan { const inst *in; const char *name; bool found; } api_call_scan;
static void find_api_call(void *ctx, expr *e);
static void find_api_call_target(void *ctx, target *t) { /* a place's own expressions */
  if (t->sub) find_api_call(ctx, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) find_api_call_target(ctx, t->elts[i]);
}
static void find_api_call_block(void *ctx, stmt *s) {
  static const ir_parts parts = {find_api_call, find_api_call_target, find_api_call_block, false};
  for (; s; s = s->next) ir_each_part(s, &parts, ctx);
}
static void find_api_call(void *ctx, expr *e) {
  api_call_scan *A = ctx;
  if (e->kind == EX_CALL && e->u.call.kind == CALLEE_METHOD && e->u.call.name &&
      !strcmp(e->u.call.name, A->name) && method_via_api(A->in, e))
    A->found = true;
  if (e->kind == EX_LISTCOMP) find_api_call_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, find_api_call, ctx);
}
static bool called_through_api(const module *m, const char *name) {
  for (const inst *in = m->insts; in; in = in->next_all) {
    api_call_scan A = {in, name, false};
    if (in->ok) find_api_call_block(&A, in->fn->body);
    if (A.found) return true;
  }
  return false;
}

bool generic_only(const module *m, const inst *in) {
  if (!in->generic || in->fn->decorated_compile) return false;
  if (special_method(in->fn) || (in->fn->method && called_through_api(m, in->fn->name)))
    return false; /* its callers are C code: serving it costs no inlined call (see above) */
  island_scan S = {m, in, 0, 0, 0};
  scan_block(&S, in->fn->body);
  return S.attrs > 0 && S.n < S.attrs;
}
