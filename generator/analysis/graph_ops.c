/* graph_ops.c: operations per graph (an analysis explain reports, as
 * torch._dynamo.explain counts ops per graph).
 */
#include "../gen.h"

#include <stdbool.h>
#include <string.h>

static void ops_sub(void *n, expr *e);
static int ops_block(stmt *s, stmt *last);

/* ---- ops per graph (explain) ---------------------------------------------- */
/* The operations of e: one per operator, comparison, call, element access
 * or new list, and a comprehension's clauses as loops. */
static int ops_expr(expr *e) {
  if (!e) return 0;
  int n = 0;
  switch (e->kind) {
  case EX_COMPARE: n = e->u.cmp.n - 1; break;
  case EX_BINOP: case EX_UNARY: case EX_NOT: case EX_BOOLOP: case EX_IFEXP: case EX_CALL:
  case EX_SUBSCRIPT: case EX_ATTR: case EX_LIST: case EX_SLICE: case EX_DICT: case EX_SET: case EX_FSTRING: case EX_UNPACKED:
  case EX_FUNCTION: case EX_BUILD_CLASS:
    n = 1;
    break;
  case EX_LISTCOMP: n = 1 + ops_block(e->u.comp.loop, NULL); break;
  default: break;
  }
  ir_each_subexpr(e, ops_sub, &n);
  return n;
}
static void ops_sub(void *n, expr *e) { *(int *)n += ops_expr(e); }

/* Operations of a statement list up to and including `last` (NULL: all):
 * arithmetic, comparisons, calls, and one per branch or loop. */
static int ops_block(stmt *s, stmt *last) {
  int n = 0;
  for (; s; s = s->next) {
    switch (s->kind) {
    case ST_ASSIGN: n += ops_expr(s->u.assign.value); break;
    case ST_AUGASSIGN: n += 1 + ops_expr(s->u.aug.value) + (s->u.aug.sub ? 1 : 0); break;
    case ST_RETURN: n += ops_expr(s->u.ret); break;
    case ST_EXPR: n += ops_expr(s->u.expr); break;
    case ST_DEL: n += s->u.del.n; break;
    case ST_IMPORT: n += s->u.import_.n + !s->u.import_.from; break;
    case ST_IF: n += 1 + ops_expr(s->u.if_.cond) + ops_block(s->u.if_.then, NULL) +
                     ops_block(s->u.if_.orelse, NULL); break;
    case ST_WHILE: n += 1 + ops_expr(s->u.while_.cond) + ops_block(s->u.while_.body, NULL) +
                        ops_block(s->u.while_.orelse, NULL); break;
    case ST_FOR_RANGE: n += 1 + ops_expr(s->u.for_.start) + ops_expr(s->u.for_.stop) +
                            ops_expr(s->u.for_.step) + ops_block(s->u.for_.body, NULL) +
                            ops_block(s->u.for_.orelse, NULL); break;
    case ST_FOR_ITER:
      n += 1 + ops_expr(s->u.for_.start) + ops_block(s->u.for_.body, NULL) +
           ops_block(s->u.for_.orelse, NULL);
      for (int i = 0; i < s->u.for_.niters; i++) n += ops_expr(s->u.for_.iters[i]);
      break;
    case ST_WITH: n += 2 + ops_expr(s->u.with.mgr) + ops_block(s->u.with.body, NULL); break;
    case ST_TRY:
      n += 1 + ops_block(s->u.try_.body, NULL) + ops_block(s->u.try_.orelse, NULL) +
           ops_block(s->u.try_.finalbody, NULL);
      for (int i = 0; i < s->u.try_.nhandlers; i++)
        n += ops_expr(s->u.try_.handlers[i].type) + ops_block(s->u.try_.handlers[i].body, NULL);
      break;
    default: break;
    }
    if (s == last) break;
  }
  return n;
}

int graph_ops_of(stmt *first, stmt *last) { return ops_block(first, last); }

int graph_ops_count(module *m, func *f, int **ops) {
  region *rs;
  int n = f->partial ? regions_find(m, f, &rs) : 1;
  *ops = arena_alloc(m->a, sizeof(int) * (size_t)(n + 1));
  if (!f->partial) (*ops)[0] = ops_block(f->body, NULL);
  for (int i = 0; f->partial && i < n; i++) (*ops)[i] = ops_block(rs[i].s_first, rs[i].s_last);
  return n;
}
