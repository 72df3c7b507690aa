/* shapes.c: loops over a list whose items' shape one test before the loop
 * can prove (an analysis; emit/loops.c writes the C).
 *
 * `for ((x, y, z), v, m) in bodies:` reads each item through type tests:
 * the item is an exact tuple of the recorded shape, each unpacked list has
 * exactly as many items, each a float; v[0] in the body is in range and a
 * float. When nothing in an enclosing loop can change any of that, one
 * pass over the list before the enclosing loop tests it all, and a copy of
 * the enclosing loop runs without the tests (the other copy, with them,
 * runs when the pass fails): the pass costs what one run of the loop's
 * tests does, so only a loop inside another gains. The body
 * cannot change it when it calls no kernel, method or Python code, makes
 * no list, and stores only floats into lists of floats or items into
 * buffers: tuples are immutable, a list's length changes only through
 * calls, and a float stored over a float leaves a float. This is loop
 * versioning on a type test, as in the loop-invariant type checks of
 * tracing JITs (PyPy's guards hoisted out of loops by its optimizer).
 */
#include <string.h>

#include "../gen.h"

#define TY(e) ty_of(in, (e)) /* the specialisation being analysed */

/* Are a tuple type's leaves floats and lists of floats (a shape the test
 * covers and the untested field loads, dynac_fields_*, can read)? */
bool shape_tuple_plain(const type *t) {
  for (int i = 0; i < t->n; i++) {
    const type *e = t->elts[i];
    if (e->kind == TY_TUPLE ? !shape_tuple_plain(e)
        : !(e->kind == TY_FLOAT || (e->kind == TY_LIST && e->elts[0]->kind == TY_FLOAT)))
      return false;
  }
  return true;
}

static bool keeps_expr(const inst *in, const expr *e);
typedef struct keeps_walk { const inst *in; bool ok; } keeps_walk;
static void keeps_sub(void *w, expr *e) {
  keeps_walk *K = w;
  if (!keeps_expr(K->in, e)) K->ok = false;
}
/* Evaluating `e` changes no list's length or item types and runs no
 * Python code (builtins and math functions of numbers only). */
static bool keeps_expr(const inst *in, const expr *e) {
  if (e->kind == EX_LIST || e->kind == EX_LISTCOMP || e->kind == EX_SLICE) return false;
  if (TY(e)->kind == TY_OBJ) return false;
  if (e->kind == EX_CALL && ((e->u.call.kind != CALLEE_BUILTIN && e->u.call.kind != CALLEE_MATH) ||
                             TY(e)->kind == TY_LIST))
    return false;
  keeps_walk K = {in, true};
  ir_each_subexpr((expr *)e, keeps_sub, &K);
  return K.ok;
}

/* A store of a value of type `vt` to obj[...] that keeps every shape: an
 * item of a buffer, or a float into a list of floats. */
static bool keeps_store(const inst *in, const expr *sub, const type *vt) {
  if (sub->kind == EX_SLICE || is_name_place(sub)) return false; /* a slice store can change a
                                                                      list's length */
  const type *ot = TY(sub->u.sub.obj);
  if (!keeps_expr(in, sub->u.sub.obj) || !keeps_expr(in, sub->u.sub.index)) return false;
  if (ot->kind == TY_BUF) return true;
  return ot->kind == TY_LIST && ot->elts[0]->kind == TY_FLOAT && vt->kind == TY_FLOAT;
}
static bool keeps_target(const inst *in, const target *t, const type *vt) {
  if (t->is_tuple) return false; /* unpacking into items: not worth a case */
  return !t->sub || keeps_store(in, t->sub, vt);
}
/* A loop target that binds locals only (no item stores). */
static bool binds_locals(const target *t) {
  for (int i = 0; t->is_tuple && i < t->n; i++) if (!binds_locals(t->elts[i])) return false;
  return !t->sub;
}
static bool keeps_opt(const inst *in, const expr *e) { return !e || keeps_expr(in, e); }

/* Does block `b` (an innermost loop's body) keep every list's shape? */
static bool keeps_loop(const inst *in, const stmt *s);
static bool keeps_block(const inst *in, const stmt *b) {
  for (const stmt *s = b; s; s = s->next) {
    switch (s->kind) {
    case ST_ASSIGN:
      if (!keeps_expr(in, s->u.assign.value)) return false;
      for (int i = 0; i < s->u.assign.ntargets; i++)
        if (!keeps_target(in, s->u.assign.targets[i], TY(s->u.assign.value))) return false;
      break;
    case ST_AUGASSIGN:
      if (!keeps_expr(in, s->u.aug.value)) return false;
      if (s->u.aug.sub && !keeps_store(in, s->u.aug.sub, binop_result(s->u.aug.op, TY(s->u.aug.sub),
                                                                    TY(s->u.aug.value))))
        return false;
      break;
    case ST_RETURN: if (s->u.ret && !keeps_expr(in, s->u.ret)) return false; break;
    case ST_IF:
      if (!keeps_expr(in, s->u.if_.cond) || !keeps_block(in, s->u.if_.then) || !keeps_block(in, s->u.if_.orelse))
        return false;
      break;
    case ST_EXPR: if (!keeps_expr(in, s->u.expr)) return false; break;
    case ST_RAISE: if (s->u.raise_.arg || s->u.raise_.obj || s->u.raise_.cause) return false; break;
    case ST_BREAK: case ST_CONTINUE: case ST_PASS: break;
    case ST_WHILE: case ST_FOR_RANGE: case ST_FOR_ITER: if (!keeps_loop(in, s)) return false; break;
    default: return false; /* interpreted code */
    }
  }
  return true;
}

/* A loop whose bounds, iterables, target and blocks keep every shape. */
static bool keeps_loop(const inst *in, const stmt *s) {
  if (s->kind == ST_WHILE)
    return keeps_expr(in, s->u.while_.cond) && keeps_block(in, s->u.while_.body) && keeps_block(in, s->u.while_.orelse);
  for (int i = 0; i < s->u.for_.niters; i++) if (!keeps_expr(in, s->u.for_.iters[i])) return false;
  return keeps_opt(in, s->u.for_.start) && keeps_opt(in, s->u.for_.stop) && keeps_opt(in, s->u.for_.step) &&
         binds_locals(s->u.for_.tgt) && keeps_block(in, s->u.for_.body) && keeps_block(in, s->u.for_.orelse);
}

typedef struct plan_walk {
  arena *a;
  const stmt *body;
  shape_plan *plan;
} plan_walk;

/* The largest constant index c >= 0 of `loc[c]` in `e`, plus one (0: none). */
static int items_used_expr(const expr *e, int loc);
typedef struct used { int loc, n; } used;
static void items_used_sub(void *u, expr *e) {
  used *U = u;
  int n = items_used_expr(e, U->loc);
  if (n > U->n) U->n = n;
}
static int items_used_expr(const expr *e, int loc) {
  used U = {loc, 0};
  if (e->kind == EX_SUBSCRIPT && e->u.sub.obj->kind == EX_LOCAL && e->u.sub.obj->u.local == loc &&
      e->u.sub.index->kind == EX_INT && e->u.sub.index->u.i >= 0 && e->u.sub.index->u.i < 64)
    U.n = (int)e->u.sub.index->u.i + 1;
  ir_each_subexpr((expr *)e, items_used_sub, &U);
  return U.n;
}
static void items_used_part(void *u, expr *e) { items_used_sub(u, e); }
static void items_used_target(void *u, target *t) {
  if (t->sub) items_used_sub(u, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) items_used_target(u, t->elts[i]);
}
static void items_used_block(void *u, stmt *b) {
  static const ir_parts parts = {items_used_part, items_used_target, items_used_block, false};
  for (; b; b = b->next) ir_each_part(b, &parts, u);
}

static bool add_fact(plan_walk *W, const char *path, int loc, int n, bool exact) {
  if (W->plan->n == SHAPE_MAX_FACTS) return false;
  W->plan->facts[W->plan->n++] = (shape_fact){arena_strdup(W->a, path), loc, n, exact};
  return true;
}

/* Target `t` unpacks a value of type `ty` found at `path` of the item:
 * records the lists it takes apart (exact lengths) and the lists it names
 * (the items the body reads by constant index). False: not versioned. */
static bool plan_target(plan_walk *W, const target *t, const type *ty, const char *path) {
  if (t->sub) return false;
  if (!t->is_tuple) {
    if (ty->kind != TY_LIST) return true;
    if (block_binds(W->body, t->local)) return false; /* then v[0] is not always this list's */
    used U = {t->local, 0};
    items_used_block(&U, (stmt *)W->body);
    return U.n == 0 || add_fact(W, path, t->local, U.n, false);
  }
  if (ty->kind == TY_LIST) { /* [x, y, z] = a list of floats: exactly t->n items */
    for (int i = 0; i < t->n; i++)
      if (t->elts[i]->is_tuple || t->elts[i]->sub) return false;
    return add_fact(W, path, -1, t->n, true);
  }
  if (ty->kind != TY_TUPLE || ty->n != t->n) return false;
  for (int i = 0; i < t->n; i++)
    if (!plan_target(W, t->elts[i], ty->elts[i], arena_printf(W->a, "%s.v%d", path, i))) return false;
  return true;
}

bool shape_plan_for(arena *a, const inst *in, const stmt *s, shape_plan *plan) {
  plan->n = 0;
  if (s->kind != ST_FOR_ITER || s->u.for_.how != 'i' || s->u.for_.niters != 1 || s->u.for_.has_else)
    return false;
  const type *lt = TY(s->u.for_.iters[0]), *it = lt->kind == TY_LIST ? lt->elts[0] : NULL;
  if (!it || it->kind != TY_TUPLE || !shape_tuple_plain(it) || !keeps_block(in, s->u.for_.body)) return false;
  plan_walk W = {a, s->u.for_.body, plan};
  return plan_target(&W, s->u.for_.tgt, it, "");
}

typedef struct nest_walk {
  arena *a;
  const inst *in;
  const stmt *outer;
  shape_nest *nest;
} nest_walk;

/* Is local `loc` the same list at every iteration of loop `outer`? */
static bool fixed_in(const stmt *outer, int loc) {
  if (outer->kind == ST_WHILE) return !block_binds(outer->u.while_.body, loc);
  return !target_binds(outer->u.for_.tgt, loc) && !block_binds(outer->u.for_.body, loc);
}

static void nest_block(nest_walk *W, const stmt *b) {
  for (const stmt *s = b; s && W->nest->n < SHAPE_MAX_LOOPS; s = s->next) {
    if (s->kind == ST_FOR_ITER && s->u.for_.niters == 1 && s->u.for_.iters[0]->kind == EX_LOCAL &&
        fixed_in(W->outer, s->u.for_.iters[0]->u.local)) {
      shape_plan *p = arena_alloc(W->a, sizeof *p);
      if (shape_plan_for(W->a, W->in, s, p)) {
        W->nest->loops[W->nest->n] = s;
        W->nest->plans[W->nest->n++] = p;
      }
    }
    if (s->kind == ST_IF) {
      nest_block(W, s->u.if_.then);
      nest_block(W, s->u.if_.orelse);
    }
    if (s->kind == ST_WHILE) nest_block(W, s->u.while_.body);
    if (s->kind == ST_FOR_RANGE || s->kind == ST_FOR_ITER) nest_block(W, s->u.for_.body);
  }
}

bool shape_nest_for(arena *a, const inst *in, const stmt *outer, shape_nest *nest) {
  nest->n = 0;
  if ((outer->kind != ST_WHILE && outer->kind != ST_FOR_RANGE && outer->kind != ST_FOR_ITER) ||
      !keeps_loop(in, outer))
    return false;
  nest_walk W = {a, in, outer, nest};
  nest_block(&W, outer->kind == ST_WHILE ? outer->u.while_.body : outer->u.for_.body);
  return nest->n > 0;
}

const shape_plan *shape_nest_plan(const shape_nest *nest, const stmt *loop) {
  for (int i = 0; nest && i < nest->n; i++) if (nest->loops[i] == loop) return nest->plans[i];
  return NULL;
}
