/* fresh.c: list locals that only ever hold lists the call itself made (an
 * analysis, a pure function of IR + types).
 *
 * A write to such a list needs no undo entry: when a call is rolled back
 * (no Python code ran in it, so nothing outside saw the list but through
 * containers whose own writes are rolled back), the list is unreachable
 * and its contents do not matter. Logging it cost an entry per append and,
 * past DYNAC_UNDO_MAX, a copy of the list, kept alive (and traversed by the
 * garbage collector) until the outermost call ends.
 */
#include "../gen.h"

#include <string.h>

typedef struct fresh_scan { const inst *in; bool *fresh; } fresh_scan;

static bool makes_new_list(const inst *in, const expr *v) {
  if (v->kind == EX_LIST || v->kind == EX_LISTCOMP || v->kind == EX_SLICE) return ty_of(in, v)->kind == TY_LIST;
  return v->kind == EX_BINOP && ty_of(in, v)->kind == TY_LIST; /* a + b, a * n: a new list */
}

static void not_fresh_target(void *ctx, target *t) {
  fresh_scan *S = ctx;
  if (t->is_tuple) {
    for (int i = 0; i < t->n; i++) not_fresh_target(ctx, t->elts[i]);
  } else if (!t->sub) {
    S->fresh[t->local] = false;
  }
}
static void scan_block(void *ctx, stmt *s);
static void scan_expr(void *ctx, expr *e) { /* a comprehension's clauses bind its own names */
  if (e->kind == EX_LISTCOMP) scan_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, scan_expr, ctx);
}

static void scan_stmt(fresh_scan *S, stmt *s) {
  static const ir_parts parts = {scan_expr, not_fresh_target, scan_block, true};
  if (s->kind == ST_ASSIGN) {
    bool fresh_value = makes_new_list(S->in, s->u.assign.value);
    scan_expr(S, s->u.assign.value);
    for (int i = 0; i < s->u.assign.ntargets; i++) {
      target *t = s->u.assign.targets[i];
      if (!fresh_value || t->is_tuple) not_fresh_target(S, t);
    }
    return;
  }
  if (s->kind == ST_AUGASSIGN && !s->u.aug.sub) S->fresh[s->u.aug.local] = false;
  ir_each_part(s, &parts, S);
}
static void scan_block(void *ctx, stmt *s) {
  for (; s; s = s->next) scan_stmt(ctx, s);
}

bool *fresh_list_locals(arena *a, const inst *in) {
  const func *f = in->fn;
  bool *fresh = arena_alloc(a, sizeof(bool) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < f->nlocals; i++)
    fresh[i] = i >= f->nparams && in->local_ty[i]->kind == TY_LIST &&
               !(f->local_dynamic && f->local_dynamic[i]);
  fresh_scan S = {in, fresh};
  scan_block(&S, f->body);
  return fresh;
}
