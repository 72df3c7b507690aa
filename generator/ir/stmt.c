/* stmt.c: statements lowered from syntax: assignments and their targets,
 * if/while/for (range, containers, enumerate/zip/reversed), list
 * comprehensions as loops, raise, expression statements.
 */
#include "lower.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool bind_comp_names(lower *L, TSNode n);

/* ---- statements -------------------------------------------------------- */

/* One more loop would nest deeper than emit/ keeps (64): a graph break. */
static bool too_deep(lower *L, TSNode n) {
  if (L->loops < 60) return false;
  gb(L, n, "unsupported-statement", "loops nested more than 60 deep");
  return true;
}

/* A block inside if/while/for: not straight-line top-level code. */
static stmt *lower_nested(lower *L, TSNode block) {
  L->depth++;
  stmt *s = lower_block(L, block);
  L->depth--;
  return s;
}

stmt *new_stmt(lower *L, stkind k, TSNode n) {
  stmt *s = arena_alloc(L->m->a, sizeof *s);
  s->kind = k;
  s->pos = node_pos(n);
  TSPoint e = ts_node_end_point(n);
  s->end = (srcpos){(int)e.row + 1, (int)e.column + 1};
  return s;
}

/* Is `n` a name the function declares global or nonlocal (its stores go to
 * the module's dict or to a closure cell, not to a fast local)? */
static bool declared_outside(lower *L, TSNode n) {
  if (!node_is(n, "identifier")) return false;
  const char *name = text(L, n);
  for (int i = 0; i < L->ncomp_names; i++) /* a comprehension's own name (its scope's) */
    if (!strcmp(L->comp_names[i].name, name)) return false;
  return declared_global(L, name) || find_freevar(L->f, name) >= 0;
}

/* pattern: identifier | pattern_list | tuple_pattern | (pattern) */
target *lower_target(lower *L, TSNode n) {
  target *t = arena_alloc(L->m->a, sizeof *t);
  t->pos = node_pos(n);
  if (declared_outside(L, n)) { /* STORE_GLOBAL, STORE_DEREF */
    t->sub = lower_expr(L, n);
    return t->sub ? t : NULL;
  }
  if (node_is(n, "identifier")) {
    const char *name = text(L, n);
    int base = find_local(L->f, name);
    t->local = resolve_local(L, name);
    if (t->local == current_version(L, base) && base >= 0 && base < L->ncurrent) L->seen[base] = true;
    return t;
  }
  if (node_is(n, "pattern_list") || node_is(n, "tuple_pattern") ||
      node_is(n, "list_pattern") || node_is(n, "parenthesized_expression") ||
      node_is(n, "expression_list") || node_is(n, "tuple")) {
    uint32_t c = node_named_count(n);
    if (node_is(n, "parenthesized_expression") && c == 1)
      return lower_target(L, node_named(n, 0));
    t->is_tuple = true;
    t->elts = arena_alloc(L->m->a, sizeof(target *) * (c ? c : 1));
    bool starred = false;
    for (uint32_t i = 0; i < c; i++) {
      TSNode ch = node_named(n, i);
      bool star = node_is(ch, "list_splat_pattern"); /* a, *rest = v */
      target *x = lower_target(L, star ? node_named(ch, 0) : ch);
      if (!x) return NULL;
      if (star && (starred || x->is_tuple)) { /* CPython refuses both when it compiles */
        gb(L, ch, "unsupported-statement", "a second starred name in one assignment target");
        return NULL;
      }
      starred |= star;
      x->star = star;
      t->elts[t->n++] = x;
    }
    return t;
  }
  if (node_is(n, "subscript")) {
    t->sub = lower_element(L, n);
    return t->sub ? t : NULL;
  }
  if (node_is(n, "attribute")) { /* obj.name = ...: EX_ATTR (a module global's: a break) */
    t->sub = lower_expr(L, n);
    return t->sub ? t : NULL;
  }
  if (node_is(n, "list_splat_pattern"))
    gb(L, n, "unsupported-statement", "starred assignment target");
  else
    gb(L, n, "unsupported-statement",
       arena_printf(L->m->a, "assignment to %s", ts_node_type(n)));
  return NULL;
}

/* `target op value` as the in-place EX_BINOP of `target op= value` (an
 * instance's __iadd__, numpy's in-place ufunc: infer/stmt.c). */
static expr *inplace_binop(lower *L, TSNode n, binop op, expr *target, expr *value) {
  expr *b = new_expr(L, EX_BINOP, n);
  b->u.bin.op = op;
  b->u.bin.l = target;
  b->u.bin.r = value;
  b->u.bin.inplace = true;
  return b;
}

/* NAME = value in straight-line top-level code, NAME bound before: a new
 * version of NAME. Returns NULL when the form does not apply. */
static stmt *lower_versioned_assignment(lower *L, TSNode n, TSNode left, TSNode value_node,
                                        binop *aug) {
  if (L->depth != 0 || !node_is(left, "identifier")) return NULL;
  int base = find_local(L->f, text(L, left));
  if (base < 0 || base >= L->ncurrent || !L->seen[base]) return NULL;
  if (node_is(value_node, "assignment") || node_is(value_node, "yield") ||
      node_is(value_node, "augmented_assignment") || node_is(value_node, "pattern_list"))
    return NULL;
  expr *v = lower_expr(L, value_node);
  if (!v) return NULL;
  if (aug) { /* x op= v is x = x op v for numbers */
    expr *old = new_expr(L, EX_LOCAL, left);
    old->u.local = current_version(L, base);
    v = inplace_binop(L, n, *aug, old, v);
  }
  target *t = arena_alloc(L->m->a, sizeof *t);
  t->pos = node_pos(left);
  t->local = new_version(L, base);
  stmt *s = new_stmt(L, ST_ASSIGN, n);
  s->u.assign.ntargets = 1;
  s->u.assign.targets = arena_alloc(L->m->a, sizeof(target *));
  s->u.assign.targets[0] = t;
  s->u.assign.value = v;
  return s;
}

/* assignment: left = right  |  left : type = right  |  a = b = right */
static stmt *lower_assignment(lower *L, TSNode n) {
  TSNode r0 = child_by_field(n, "right");
  if (!ts_node_is_null(r0)) {
    int before = count_breaks(L);
    stmt *vs = lower_versioned_assignment(L, n, child_by_field(n, "left"), r0, NULL);
    if (vs) return vs;
    if (count_breaks(L) != before) return NULL; /* the value broke the graph */
  }
  target *targets[32];
  int nt = 0;
  TSNode cur = n;
  for (;;) {
    TSNode right = child_by_field(cur, "right");
    if (ts_node_is_null(right)) return new_stmt(L, ST_PASS, n); /* `x: int` declares only */
    target *t = lower_target(L, child_by_field(cur, "left"));
    if (!t) return NULL;
    if (nt == 32) { gb(L, n, "unsupported-statement", "assignment chain too long"); return NULL; }
    targets[nt++] = t;
    if (node_is(right, "assignment")) { cur = right; continue; }
    if (node_is(right, "yield")) { gb(L, right, "generator", "yield expression"); return NULL; }
    if (node_is(right, "augmented_assignment") || node_is(right, "pattern_list")) {
      gb(L, right, "unsupported-statement", "unusual assignment form");
      return NULL;
    }
    expr *v = lower_expr(L, right);
    if (!v) return NULL;
    stmt *s = new_stmt(L, ST_ASSIGN, n);
    s->u.assign.ntargets = nt;
    s->u.assign.targets = arena_alloc(L->m->a, sizeof(target *) * (size_t)nt);
    /* Python assigns the leftmost target first. */
    memcpy(s->u.assign.targets, targets, sizeof(target *) * (size_t)nt);
    s->u.assign.value = v;
    return s;
  }
}

/* augmented_assignment: NAME | obj[index] | obj.name op= right */
static stmt *lower_augassign(lower *L, TSNode n) {
  TSNode left = child_by_field(n, "left");
  if (!node_is(left, "identifier") && !node_is(left, "subscript") && !node_is(left, "attribute")) {
    gb(L, n, "unsupported-statement", "augmented assignment to a non-name target");
    return NULL;
  }
  char *op = text(L, child_by_field(n, "operator"));
  op[strlen(op) - 1] = 0; /* "+=" -> "+" */
  int k = binop_from_text(op);
  if (k < 0) {
    gb(L, n, "unsupported-operator", arena_printf(L->m->a, "operator '%s='", op));
    return NULL;
  }
  binop opk = (binop)k;
  bool global = declared_outside(L, left);
  if (!node_is(left, "identifier") || global) { /* obj[index] / obj.name / a global or nonlocal
                                                   op= value: a read, then a store */
    expr *sub = node_is(left, "subscript") ? lower_element(L, left) : lower_expr(L, left);
    expr *v = sub ? lower_expr(L, child_by_field(n, "right")) : NULL;
    if (!v) return NULL;
    stmt *s = new_stmt(L, ST_AUGASSIGN, n);
    s->u.aug.local = -1;
    s->u.aug.sub = sub;
    s->u.aug.op = opk;
    s->u.aug.value = v;
    if (sub->kind == EX_SUBSCRIPT || sub->kind == EX_SLICE) /* an ndarray's slice: fused (emit/fusion.c) */
      s->u.aug.op_expr = inplace_binop(L, n, opk, sub, v);
    return s;
  }
  int before = count_breaks(L);
  stmt *vs = lower_versioned_assignment(L, n, left, child_by_field(n, "right"), &opk);
  if (vs) return vs;
  if (count_breaks(L) != before) return NULL;
  expr *v = lower_expr(L, child_by_field(n, "right"));
  if (!v) return NULL;
  stmt *s = new_stmt(L, ST_AUGASSIGN, n);
  int base = find_local(L->f, text(L, left));
  s->u.aug.local = current_version(L, base);
  if (base >= 0 && base < L->ncurrent) L->seen[base] = true;
  s->u.aug.op = (binop)k;
  s->u.aug.value = v;
  expr *old = new_expr(L, EX_LOCAL, left);
  old->u.local = s->u.aug.local;
  s->u.aug.op_expr = inplace_binop(L, n, (binop)k, old, v);
  return s;
}

/* The only named statement of a block (comments aside), or a null node. */
static TSNode single_statement(TSNode block) {
  TSNode one = {0};
  uint32_t c = node_named_count(block);
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = node_named(block, i);
    if (!ts_node_is_null(one)) return (TSNode){0};
    one = ch;
  }
  return one;
}

/* `if NAME is None: NAME = value` in straight-line top-level code (the
 * default-argument idiom): NAME gets a new version bound on both paths
 * (value, or the old NAME), so its type after the `if` is value's when the
 * instance's NAME is None and NAME's own otherwise; infer.c folds the test.
 * *applies: the form applies (else nothing is lowered); NULL then: a graph break. */
static stmt *lower_none_default(lower *L, TSNode n, bool *applies) {
  *applies = false;
  TSNode cond = child_by_field(n, "condition");
  TSNode asg = single_statement(child_by_field(n, "consequence"));
  if (L->depth != 0 || node_named_count(n) != 2 || !node_is(cond, "comparison_operator") ||
      ts_node_child_count(cond) != 3 || ts_node_is_null(asg) || !node_is(asg, "expression_statement") ||
      node_named_count(asg) != 1)
    return NULL;
  TSNode name = ts_node_child(cond, 0), op = ts_node_child(cond, 1), none = ts_node_child(cond, 2);
  asg = node_named(asg, 0);
  if (!node_is(name, "identifier") || strcmp(ts_node_type(op), "is") || !node_is(none, "none") ||
      !node_is(asg, "assignment") || !node_is(child_by_field(asg, "left"), "identifier") ||
      strcmp(text(L, child_by_field(asg, "left")), text(L, name)))
    return NULL;
  TSNode right = child_by_field(asg, "right");
  int base = find_local(L->f, text(L, name));
  if (base < 0 || base >= L->ncurrent || !L->seen[base] || ts_node_is_null(right) ||
      node_is(right, "assignment") || node_is(right, "yield") ||
      node_is(right, "augmented_assignment") || node_is(right, "pattern_list") ||
      !ts_node_is_null(child_by_field(asg, "type")))
    return NULL;
  *applies = true;
  stmt *s = new_stmt(L, ST_IF, n);
  s->u.if_.cond = lower_expr(L, cond);
  L->depth++;
  expr *v = s->u.if_.cond ? lower_expr(L, right) : NULL;
  L->depth--;
  if (!v) return NULL;
  expr *old = new_expr(L, EX_LOCAL, name);
  old->u.local = current_version(L, base);
  int nv = new_version(L, base);
  stmt *branch[2] = {new_stmt(L, ST_ASSIGN, asg), new_stmt(L, ST_ASSIGN, n)};
  expr *value[2] = {v, old};
  for (int i = 0; i < 2; i++) {
    target *t = arena_alloc(L->m->a, sizeof *t);
    t->pos = node_pos(name);
    t->local = nv;
    branch[i]->u.assign.ntargets = 1;
    branch[i]->u.assign.targets = arena_alloc(L->m->a, sizeof(target *));
    branch[i]->u.assign.targets[0] = t;
    branch[i]->u.assign.value = value[i];
  }
  s->u.if_.then = branch[0];
  s->u.if_.orelse = branch[1]; /* else: NAME = NAME (the new version takes the old value) */
  return s;
}

/* ---- assignment expressions ------------------------------------------- */

/* The `(name := value)` that statement value or test v evaluates before
 * any other operand (down its first operands: a comparison's, a binary
 * or boolean operator's left, a unary or `not` operand, an attribute's
 * object, a subscript's object, a tuple's or list's first item, a
 * conditional expression's test), name a local of the function; else null.
 * Run as an assignment just before the statement, it keeps Python's order
 * of evaluation. */
static TSNode first_walrus(lower *L, TSNode v) {
  for (int depth = 0; !ts_node_is_null(v) && depth < 64; depth++) {
    if (node_is(v, "named_expression"))
      return declared_outside(L, child_by_field(v, "name")) ? (TSNode){0} : v; /* a global's: STORE_GLOBAL */
    if (node_is(v, "parenthesized_expression") && node_named_count(v) == 1) v = node_named(v, 0);
    else if (node_is(v, "comparison_operator")) v = node_named(v, 0);
    else if (node_is(v, "binary_operator") || node_is(v, "boolean_operator")) v = child_by_field(v, "left");
    else if (node_is(v, "not_operator") || node_is(v, "unary_operator")) v = child_by_field(v, "argument");
    else if (node_is(v, "attribute")) v = child_by_field(v, "object");
    else if (node_is(v, "subscript")) v = child_by_field(v, "value");
    else if (node_is(v, "tuple") || node_is(v, "expression_list") || node_is(v, "list")) v = node_named(v, 0);
    else if (node_is(v, "conditional_expression") && node_named_count(v) == 3) v = node_named(v, 1); /* a if TEST else b */
    else break;
  }
  return (TSNode){0};
}

/* `(name := value)`, the first operand its statement evaluates (L->walrus):
 * `name = value` as a statement of its own at the statement's position, to
 * go just before it (L->walrus.hoisted), and a read of name in its place. Every
 * analysis sees an ordinary assignment; a continuation inside either goes
 * on in the statement (emit/continue.c: walrus_prefix, the read pending).
 * Anywhere else (a while loop's test, a comprehension, after another
 * operand): a graph break. */
expr *lower_walrus(lower *L, TSNode n) {
  if (!ts_node_eq(n, L->walrus.node)) {
    gb(L, n, "unsupported-expression", "assignment expression (:=) that is not the first operand of an if, "
       "elif or while test, an assignment's value, a return or an expression statement (a comprehension's, "
       "one after other operands, one in the test of a while loop with an else block)");
    return NULL;
  }
  L->walrus.node = (TSNode){0};
  TSNode name = child_by_field(n, "name");
  expr *v = lower_expr(L, child_by_field(n, "value"));
  if (!v) return NULL;
  int base = find_local(L->f, text(L, name));
  bool unconditional = L->depth == 0 && !node_is(L->walrus.stmt, "elif_clause");
  target *t;
  if (unconditional && base >= 0 && base < L->ncurrent && L->seen[base]) { /* a new version, as `name = value` */
    t = arena_alloc(L->m->a, sizeof *t);
    t->pos = node_pos(name);
    t->local = new_version(L, base);
  } else if (!(t = lower_target(L, name))) {
    return NULL;
  }
  stmt *s = new_stmt(L, ST_ASSIGN, L->walrus.stmt);
  s->u.assign.ntargets = 1;
  s->u.assign.targets = arena_alloc(L->m->a, sizeof(target *));
  s->u.assign.targets[0] = t;
  s->u.assign.value = v;
  if (L->depth == 0) { /* the names as it leaves them (the statement's may differ) */
    s->cur_after = arena_alloc(L->m->a, sizeof(int) * (size_t)(L->ncurrent + 1));
    memcpy(s->cur_after, L->current, sizeof(int) * (size_t)L->ncurrent);
  }
  expr *r = new_expr(L, EX_LOCAL, n);
  r->u.local = t->local;
  L->walrus.hoisted = s;
  L->walrus.read = r;
  return r;
}

/* Starts lowering statement n (its test or value v, or null): the
 * assignment expression it evaluates first, if any, is lower_walrus's to
 * hoist. Returns the enclosing statement's state, for walrus_close. */
static struct walrus_state walrus_open(lower *L, TSNode n, TSNode v) {
  struct walrus_state outer = L->walrus;
  L->walrus = (struct walrus_state){.node = first_walrus(L, v), .stmt = n}; /* (v null: none) */
  return outer;
}

/* Statement s, lowered since walrus_open, with the assignment hoisted out
 * of it (if any) before it, the two linked; the enclosing state back. */
static stmt *walrus_close(lower *L, struct walrus_state outer, stmt *s) {
  struct walrus_state own = L->walrus;
  L->walrus = outer;
  if (!own.hoisted || !s) return s;
  own.hoisted->walrus_of = s;
  own.hoisted->next = s;
  s->walrus = own.read;
  return own.hoisted;
}

/* if_statement: if cond: block (elif_clause)* (else_clause)? */
static stmt *lower_if(lower *L, TSNode n) {
  bool none_default;
  stmt *nd = lower_none_default(L, n, &none_default);
  if (none_default) return nd;
  stmt *s = new_stmt(L, ST_IF, n);
  s->u.if_.cond = lower_expr(L, child_by_field(n, "condition")); /* its (name := value): lower_stmt's */
  s->u.if_.then = lower_nested(L, child_by_field(n, "consequence"));
  stmt **orelse = &s->u.if_.orelse;
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = node_named(n, i);
    if (node_is(ch, "elif_clause")) {
      stmt *e = new_stmt(L, ST_IF, ch);
      struct walrus_state outer = walrus_open(L, ch, child_by_field(ch, "condition"));
      e->u.if_.cond = lower_expr(L, child_by_field(ch, "condition"));
      *orelse = walrus_close(L, outer, e); /* the elif test's assignment: in the else block, before it */
      e->u.if_.then = lower_nested(L, child_by_field(ch, "consequence"));
      orelse = &e->u.if_.orelse;
    } else if (node_is(ch, "else_clause")) {
      *orelse = lower_nested(L, child_by_field(ch, "body"));
    }
  }
  return s->u.if_.cond ? s : NULL;
}

/* A loop's body (one loop deeper) and its else clause: while and for. */
static void lower_loop_blocks(lower *L, TSNode n, stmt **body, stmt **orelse, bool *has_else) {
  L->loops++;
  *body = lower_nested(L, child_by_field(n, "body"));
  L->loops--;
  TSNode alt = child_by_field(n, "alternative");
  if (!ts_node_is_null(alt)) {
    *has_else = true;
    *orelse = lower_nested(L, child_by_field(alt, "body"));
  }
}

/* `while test: body` whose test evaluates `(name := value)` first (and
 * no else block, whose break or continue would be the enclosing loop's):
 * `while True: name = value; if not test: break; body`, the assignment
 * hoisted out of the test (lower_walrus) at each pass. Both are at the
 * while statement's position: a continuation there runs the loop on in
 * the interpreter from its test (the test's first pass with name's value:
 * _continue.py _resumed_statements). */
static stmt *lower_walrus_while(lower *L, TSNode n, stmt *s) {
  TSNode cond = child_by_field(n, "condition");
  struct walrus_state outer = walrus_open(L, n, cond);
  L->depth++, L->loops++; /* inside the loop: it runs at each pass */
  expr *test = lower_expr(L, cond);
  L->depth--, L->loops--;
  stmt *exit = new_stmt(L, ST_IF, n);
  exit->u.if_.cond = new_expr(L, EX_NOT, cond);
  exit->u.if_.cond->u.not_arg = test;
  exit->u.if_.loop_test = true;
  exit->u.if_.then = new_stmt(L, ST_BREAK, n);
  s->u.while_.body = walrus_close(L, outer, exit);
  if (!test || s->u.while_.body == exit) return NULL; /* (the test broke the graph) */
  lower_loop_blocks(L, n, &exit->next, &s->u.while_.orelse, &s->u.while_.has_else);
  s->u.while_.cond = new_expr(L, EX_BOOL, n);
  s->u.while_.cond->u.b = true;
  return s;
}

/* while_statement: while cond: block (else: block)? */
static stmt *lower_while(lower *L, TSNode n) {
  stmt *s = new_stmt(L, ST_WHILE, n);
  if (too_deep(L, n)) return NULL;
  if (ts_node_is_null(child_by_field(n, "alternative")) &&
      !ts_node_is_null(first_walrus(L, child_by_field(n, "condition"))))
    return lower_walrus_while(L, n, s);
  s->u.while_.cond = lower_expr(L, child_by_field(n, "condition"));
  lower_loop_blocks(L, n, &s->u.while_.body, &s->u.while_.orelse, &s->u.while_.has_else);
  return s->u.while_.cond ? s : NULL;
}

/* Is `fnode` the builtin NAME (not shadowed by a local or a global)? */
static bool is_builtin_name(lower *L, TSNode fnode, const char *name) {
  return node_is(fnode, "identifier") && !strcmp(text(L, fnode), name) &&
         resolve_local(L, name) < 0 && !scope_is_global(L->m, name);
}

/* The positional arguments of a call (at most cap), or -1 if there are
 * keyword or starred ones. */
static int call_args(lower *L, TSNode args, expr **out, int cap) {
  int na = 0;
  uint32_t c = node_is(args, "argument_list") ? node_named_count(args) : 0;
  if (!node_is(args, "argument_list")) return -1;
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = node_named(args, i);
    if (na == cap || node_is(ch, "keyword_argument") || node_is(ch, "list_splat") ||
        node_is(ch, "dictionary_splat"))
      return -1;
    if (!(out[na] = lower_expr(L, ch))) return -2;
    na++;
  }
  return na;
}

/* The loop body and else clause of a for statement. */
static bool lower_for_body(lower *L, TSNode n, stmt *s) {
  if (too_deep(L, n)) return false;
  lower_loop_blocks(L, n, &s->u.for_.body, &s->u.for_.orelse, &s->u.for_.has_else);
  return true;
}

/* Is local version v bound by an interpreted statement that says nothing
 * of its type (range_it = range(n), a value dynac does not model)? */
static bool bound_by_interpreter(lower *L, int v) {
  for (int i = 0; i < L->ndynamic; i++) if (L->dynamic[i] == v) return L->hint[i] == NULL;
  return false;
}

/* for target in c | enumerate(c[, start]) | zip(c1, c2, ...) | reversed(c):
 * c a list, tuple or buffer (checked by infer.c). */
static stmt *lower_for_iter(lower *L, TSNode n, TSNode right, bool clause) {
  stmt *s = new_stmt(L, ST_FOR_ITER, n);
  expr *a[8];
  int na = 1;
  s->u.for_.how = 'i';
  TSNode fnode = child_by_field(right, "function");
  const char *how = NULL;
  if (node_is(right, "call")) {
    if (is_builtin_name(L, fnode, "enumerate")) how = "e";
    else if (is_builtin_name(L, fnode, "zip")) how = "z";
    else if (is_builtin_name(L, fnode, "reversed")) how = "r";
  }
  if (how) {
    na = call_args(L, child_by_field(right, "arguments"), a, 8);
    if (na == -2) return NULL;
    if (na < 1 || (*how == 'e' && na > 2) || (*how == 'r' && na != 1)) {
      gb(L, right, "unsupported-loop", arena_printf(L->m->a, "%s() with these arguments",
         text(L, fnode)));
      return NULL;
    }
    s->u.for_.how = *how;
    if (*how == 'e' && na == 2) { s->u.for_.start = a[1]; na = 1; }
  } else if (!(a[0] = lower_expr(L, right))) {
    return NULL;
  } else if (a[0]->kind == EX_LOCAL && bound_by_interpreter(L, a[0]->u.local)) {
    /* its header runs in the interpreter; its body is split into regions */
    gb(L, right, "unsupported-loop", arena_printf(L->m->a, "for loop over '%s', bound by "
       "interpreted code (its type is not known here)", text(L, right)));
    return NULL;
  }
  s->u.for_.niters = na;
  s->u.for_.iters = arena_alloc(L->m->a, sizeof(expr *) * (size_t)na);
  memcpy(s->u.for_.iters, a, sizeof(expr *) * (size_t)na);
  if (clause && !bind_comp_names(L, child_by_field(n, "left"))) return NULL;
  s->u.for_.tgt = lower_target(L, child_by_field(n, "left"));
  if (!s->u.for_.tgt || (!clause && !lower_for_body(L, n, s))) return NULL;
  return s;
}

/* for_statement: for target in range(args): block (else: block)?, or over
 * a container (lower_for_iter). clause: a comprehension's for_in_clause
 * (for target in iterable): its names are the comprehension's own, and the
 * caller puts the loop's body in. */
static stmt *lower_for(lower *L, TSNode n, bool clause) {
  TSNode right = child_by_field(n, "right");
  TSNode fnode = child_by_field(right, "function");
  bool rev = false; /* reversed(range(...)): the same range, last element first */
  if (node_is(right, "call") && is_builtin_name(L, fnode, "reversed")) {
    TSNode args = child_by_field(right, "arguments");
    TSNode inner = node_named_count(args) == 1 ? node_named(args, 0) : args;
    if (node_is(inner, "call") && is_builtin_name(L, child_by_field(inner, "function"), "range")) {
      right = inner;
      fnode = child_by_field(right, "function");
      rev = true;
    }
  }
  if (!node_is(right, "call") || !is_builtin_name(L, fnode, "range"))
    return lower_for_iter(L, n, right, clause);
  expr *a[3];
  int na = call_args(L, child_by_field(right, "arguments"), a, 3);
  if (na == -2) return NULL;
  if (na < 0) { gb(L, right, "unsupported-loop", "range() with unusual arguments"); return NULL; }
  if (na == 0) { gb(L, right, "unsupported-loop", "range() without arguments"); return NULL; }
  if (clause && !bind_comp_names(L, child_by_field(n, "left"))) return NULL;
  target *t = lower_target(L, child_by_field(n, "left"));
  if (!t) return NULL;
  if (t->is_tuple) { gb(L, n, "unsupported-loop", "unpacking a range element"); return NULL; }
  stmt *s = new_stmt(L, ST_FOR_RANGE, n);
  s->u.for_.tgt = t;
  s->u.for_.start = na >= 2 ? a[0] : NULL;
  s->u.for_.stop = na >= 2 ? a[1] : a[0];
  s->u.for_.step = na == 3 ? a[2] : NULL;
  s->u.for_.how = rev ? 'r' : 'i';
  return clause || lower_for_body(L, n, s) ? s : NULL;
}

/* ---- list comprehensions ------------------------------------------------
 * [elt for x in it if cond for y in it2] is lowered as CPython 3.11 runs
 * it: a new list, then the clauses as nested loops and ifs around
 * list.append(elt). The names the clauses bind are the comprehension's own
 * (hidden locals, invisible outside it), and the first iterable is
 * evaluated where the comprehension stands. */

/* The names of a for clause's target become hidden locals of the
 * comprehension (shadowing the function's while it is lowered). */
static bool bind_comp_names(lower *L, TSNode n) {
  if (node_is(n, "identifier")) {
    if (L->ncomp_names == 32) {
      gb(L, n, "unsupported-expression", "comprehensions binding more than 32 names");
      return false;
    }
    const char *name = text(L, n);
    int loc = append_local(L, arena_printf(L->m->a, "%s (in a comprehension)", name),
                           unique_cname(L, arena_printf(L->m->a, "lc%d_%s", L->ncomps, name)));
    L->comp_names[L->ncomp_names].name = name;
    L->comp_names[L->ncomp_names++].local = loc;
    return true;
  }
  if (!node_is(n, "pattern_list") && !node_is(n, "tuple_pattern") && !node_is(n, "list_pattern") &&
      !node_is(n, "parenthesized_expression") && !node_is(n, "tuple") &&
      !node_is(n, "list_splat_pattern")) {
    gb(L, n, "unsupported-expression", arena_printf(L->m->a, "comprehension target %s",
                                                   ts_node_type(n)));
    return false;
  }
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++)
    if (!bind_comp_names(L, node_named(n, i))) return false;
  return true;
}

/* for_in_clause: for left in right (one iterable; `in a, b` is a tuple) */
static stmt *lower_for_clause(lower *L, TSNode n) {
  uint32_t rights = 0;
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    const char *f = ts_node_field_name_for_child(n, i);
    if (f && !strcmp(f, "right")) rights++;
  }
  if (ts_node_has_error(n)) {
    gb(L, n, "parser-limitation", "the grammar could not parse this comprehension clause");
    return NULL;
  }
  if (rights != 1) {
    gb(L, n, "unsupported-loop", "a comprehension over a tuple display (for x in a, b)");
    return NULL;
  }
  if (too_deep(L, n)) return NULL;
  return lower_for(L, n, true);
}

/* result.append(elt) for the comprehension's own list `result`. */
static stmt *own_append(lower *L, TSNode n, int result, expr *elt) {
  expr *recv = new_expr(L, EX_LOCAL, n);
  recv->u.local = result;
  expr *call = new_expr(L, EX_CALL, n);
  call->u.call.kind = CALLEE_METHOD;
  call->u.call.name = "append";
  call->u.call.op = ops_find(OPS_METHOD, "append", 1);
  call->u.call.own_list = true;
  call->u.call.n = 2;
  call->u.call.args = arena_alloc(L->m->a, 2 * sizeof(expr *));
  call->u.call.args[0] = recv;
  call->u.call.args[1] = elt;
  stmt *s = new_stmt(L, ST_EXPR, n);
  s->u.expr = call;
  return s;
}

/* result.add(x) / result.__setitem__(k, v) of a set or dict comprehension's
 * own set or dict (an object: the C API's method call, which for an exact
 * set or dict is SET_ADD's PySet_Add / MAP_ADD's PyDict_SetItem). */
static stmt *own_insert(lower *L, TSNode n, int result, const char *method, expr *a, expr *b) {
  expr *recv = new_expr(L, EX_LOCAL, n);
  recv->u.local = result;
  expr *call = new_expr(L, EX_CALL, n);
  call->u.call.kind = CALLEE_METHOD;
  call->u.call.name = method;
  call->u.call.own_list = true;
  call->u.call.n = b ? 3 : 2;
  call->u.call.args = arena_alloc(L->m->a, 3 * sizeof(expr *));
  call->u.call.args[0] = recv;
  call->u.call.args[1] = a;
  call->u.call.args[2] = b;
  stmt *s = new_stmt(L, ST_EXPR, n);
  s->u.expr = call;
  return s;
}

/* The element of a dict comprehension (key: value) or of dict()'s generator
 * (a (key, value) display): its key and value; false (a break) otherwise. */
static bool lower_dict_item(lower *L, TSNode body, expr **k, expr **v) {
  bool pair = node_is(body, "pair");
  if (!pair && !(node_is(body, "tuple") || node_is(body, "parenthesized_expression"))) {
    gb(L, body, "unsupported-expression", "dict() of a generator whose items are not (key, value) displays");
    return false;
  }
  TSNode kn = pair ? child_by_field(body, "key") : node_named(body, 0);
  TSNode vn = pair ? child_by_field(body, "value") : node_named(body, 1);
  if (!pair && (node_named_count(body) != 2 || node_is(kn, "list_splat") || node_is(vn, "list_splat"))) {
    gb(L, body, "unsupported-expression", "dict() of a generator whose items are not (key, value) displays");
    return false;
  }
  return (*k = lower_expr(L, kn)) && (*v = lower_expr(L, vn));
}

/* `if [not] elt: result = <any ? True : False>; break`: the innermost
 * statement of any(genexpr) / all(genexpr). */
static stmt *any_all_exit(lower *L, TSNode n, int result, expr *elt, bool all) {
  expr *cond = elt;
  if (all) {
    cond = new_expr(L, EX_NOT, n);
    cond->u.not_arg = elt;
  }
  expr *val = new_expr(L, EX_BOOL, n);
  val->u.b = !all;
  target *t = arena_alloc(L->m->a, sizeof *t);
  t->pos = node_pos(n);
  t->local = result;
  stmt *set = new_stmt(L, ST_ASSIGN, n);
  set->u.assign.ntargets = 1;
  set->u.assign.targets = arena_alloc(L->m->a, sizeof(target *));
  set->u.assign.targets[0] = t;
  set->u.assign.value = val;
  set->next = new_stmt(L, ST_BREAK, n);
  stmt *s = new_stmt(L, ST_IF, n);
  s->u.if_.cond = cond;
  s->u.if_.then = set;
  return s;
}

/* list_comprehension: [ body for_in_clause (for_in_clause | if_clause)* ],
 * set_comprehension { body ... }, dictionary_comprehension { key: value ... } */
expr *lower_list_comprehension(lower *L, TSNode n) { return lower_comprehension(L, n, 0); }

/* A list comprehension, or a generator expression consumed on the spot
 * (consumer: see expr.u.comp): the same clauses as loops, in the order
 * CPython runs them. */
expr *lower_comprehension(lower *L, TSNode n, char consumer) {
  int saved_names = L->ncomp_names, saved_loops = L->loops;
  L->ncomps++;
  L->f->comprehensions = true;
  expr *e = new_expr(L, EX_LISTCOMP, n);
  e->u.comp.consumer = consumer;
  bool any_all = consumer == 'a' || consumer == 'A';
  char kind = e->u.comp.kind = node_is(n, "set_comprehension") || consumer == 's' ? 's'
                               : node_is(n, "dictionary_comprehension") || consumer == 'd' ? 'd' : 'l';
  e->u.comp.result = append_local(L, any_all ? "<genexpr>" : kind == 's' ? "<setcomp>"
                                  : kind == 'd' ? "<dictcomp>" : "<listcomp>",
                                  unique_cname(L, arena_printf(L->m->a, any_all ? "ge%d" : kind == 's' ? "sc%d"
                                                               : kind == 'd' ? "dc%d" : "lc%d", L->ncomps)));
  int nfor = 0;
  stmt **hole = &e->u.comp.loop; /* where the next clause goes */
  bool ok = true;
  TSNode body = child_by_field(n, "body");
  for (uint32_t i = 0; ok && i < node_named_count(n); i++) {
    TSNode c = node_named(n, i);
    if (ts_node_eq(c, body)) continue;
    stmt *s = NULL;
    if (node_is(c, "for_in_clause")) {
      if (any_all && nfor++) { /* its break would leave the innermost loop only */
        gb(L, c, "unsupported-expression", "any() or all() of a generator with two for clauses");
        ok = false;
        break;
      }
      if ((s = lower_for_clause(L, c))) { *hole = s; hole = &s->u.for_.body; L->loops++; }
    } else if (node_is(c, "if_clause")) {
      expr *cond = lower_expr(L, node_named(c, 0));
      if (cond) {
        s = new_stmt(L, ST_IF, c);
        s->u.if_.cond = cond;
        *hole = s;
        hole = &s->u.if_.then;
      }
    } else {
      gb(L, c, "unsupported-expression", arena_printf(L->m->a, "%s in a comprehension",
                                                     ts_node_type(c)));
    }
    ok = s != NULL;
  }
  expr *elt = NULL, *value = NULL;
  if (ok && kind == 'd') ok = lower_dict_item(L, body, &elt, &value);
  else if (ok) elt = lower_expr(L, body);
  if (elt && kind != 'l') *hole = own_insert(L, body, e->u.comp.result, kind == 's' ? "add" : "__setitem__",
                                              elt, value);
  else if (elt) *hole = any_all ? any_all_exit(L, body, e->u.comp.result, elt, consumer == 'A')
                                : own_append(L, body, e->u.comp.result, elt);
  L->ncomp_names = saved_names;
  L->loops = saved_loops;
  return elt ? e : NULL;
}

/* expression_statement: expression | assignment | augmented_assignment */
static stmt *lower_expression_statement(lower *L, TSNode n) {
  TSNode e = node_named(n, 0);
  if (node_is(e, "assignment")) return lower_assignment(L, e);
  if (node_is(e, "augmented_assignment")) return lower_augassign(L, e);
  if (node_is(e, "string")) return new_stmt(L, ST_PASS, n); /* docstring */
  if (node_is(e, "yield")) { gb(L, e, "generator", "yield statement"); return NULL; }
  if (node_named_count(n) > 1) { /* a, b (a tuple display) */
    gb(L, n, "unsupported-statement", "tuple expression statement");
    return NULL;
  }
  L->statement_call = e; /* a call whose result is not used */
  expr *x = lower_expr(L, e);
  if (!x) return NULL;
  stmt *s = new_stmt(L, ST_EXPR, n);
  s->u.expr = x;
  return s;
}

/* Builtin exception classes a kernel raises (the guard checks the name still
 * means the builtin). */
static const char *const builtin_exceptions[] = {
    "ValueError", "TypeError", "IndexError", "KeyError", "LookupError", "ZeroDivisionError",
    "ArithmeticError", "OverflowError", "RuntimeError", "NotImplementedError", "AssertionError",
    "Exception", NULL};

/* A plain string literal's text (no prefix, escape or triple quote), or NULL. */
static const char *plain_string(lower *L, TSNode n) {
  if (!node_is(n, "string")) return NULL;
  char *t = text(L, n);
  size_t len = strlen(t);
  if (len < 2 || (t[0] != '\'' && t[0] != '"') || t[len - 1] != t[0] || strchr(t, '\\') ||
      (len >= 6 && t[1] == t[0] && t[2] == t[0]))
    return NULL;
  return arena_strndup(L->m->a, t + 1, len - 2);
}

/* raise E | raise E() | raise E('text') | raise E(value), E a builtin
 * exception class with at most one positional argument: E's name (its
 * object is made in C), else NULL. */
static const char *builtin_raise_class(lower *L, TSNode x) {
  TSNode cls = node_is(x, "call") ? child_by_field(x, "function") : x;
  TSNode args = node_is(x, "call") ? child_by_field(x, "arguments") : (TSNode){0};
  uint32_t nargs = ts_node_is_null(args) ? 0 : node_named_count(args);
  const char *name = !ts_node_is_null(cls) && node_is(cls, "identifier") ? text(L, cls) : "";
  bool builtin = find_local(L->f, name) < 0 && !scope_is_global(L->m, name);
  const char *const *b = builtin_exceptions;
  while (*b && strcmp(*b, name)) b++;
  TSNode a0 = nargs ? node_named(args, 0) : (TSNode){0};
  if (!*b || !builtin || (!ts_node_is_null(args) && !node_is(args, "argument_list")) || nargs > 1 ||
      (nargs && (node_is(a0, "keyword_argument") || node_is(a0, "list_splat") ||
                 node_is(a0, "dictionary_splat"))))
    return NULL;
  return *b;
}

static stmt *lower_builtin_raise(lower *L, TSNode n, TSNode x, const char *exc) {
  TSNode args = node_is(x, "call") ? child_by_field(x, "arguments") : (TSNode){0};
  stmt *s = new_stmt(L, ST_RAISE, n);
  s->u.raise_.exc = exc;
  s->u.raise_.guard = ir_slot(L->m, SLOT_BUILTIN, exc, NULL, NULL, NULL, -1);
  if (!ts_node_is_null(args) && node_named_count(args)) {
    TSNode a0 = node_named(args, 0);
    s->u.raise_.msg = plain_string(L, a0);
    if (!s->u.raise_.msg && !(s->u.raise_.arg = lower_expr(L, a0))) return NULL;
  }
  return s;
}

/* raise_statement: raise | raise OBJ | raise OBJ from CAUSE. A builtin
 * exception class called with at most one argument is made in C; any other
 * OBJ (a class or an instance of any exception) is raised as CPython's
 * RAISE_VARARGS does, and a bare raise re-raises the exception being
 * handled by a caller. */
static stmt *lower_raise(lower *L, TSNode n) {
  TSNode cause_node = child_by_field(n, "cause");
  TSNode x = (TSNode){0};
  for (uint32_t i = 0; i < node_named_count(n); i++) {
    TSNode c = node_named(n, i);
    if (!(!ts_node_is_null(cause_node) && ts_node_eq(c, cause_node))) {
      if (!ts_node_is_null(x) || node_is(c, "expression_list")) {
        gb(L, n, "exception-handling", "'raise' of a tuple");
        return NULL;
      }
      x = c;
    }
  }
  if (ts_node_is_null(x)) {
    stmt *s = new_stmt(L, ST_RAISE, n);
    s->u.raise_.reraise = true;
    return s;
  }
  const char *exc = ts_node_is_null(cause_node) ? builtin_raise_class(L, x) : NULL;
  if (exc) return lower_builtin_raise(L, n, x, exc);
  stmt *s = new_stmt(L, ST_RAISE, n);
  if (!(s->u.raise_.obj = lower_expr(L, x))) return NULL;
  if (!ts_node_is_null(cause_node) && !(s->u.raise_.cause = lower_expr(L, cause_node))) return NULL;
  return s;
}

/* assert_statement: assert TEST[, MSG] is `if not TEST: raise
 * AssertionError(MSG)`, skipped when Python runs with -O (as the bytecode
 * compiler drops it). */
static stmt *lower_assert(lower *L, TSNode n) {
  uint32_t k = 0;
  TSNode parts[2];
  for (uint32_t i = 0; i < node_named_count(n); i++) {
    TSNode c = node_named(n, i);
    if (k == 2) { gb(L, n, "exception-handling", "an assert with more than a test and a message"); return NULL; }
    parts[k++] = c;
  }
  expr *test = k ? lower_expr(L, parts[0]) : NULL;
  if (!test) return NULL;
  stmt *r = new_stmt(L, ST_RAISE, n);
  r->u.raise_.exc = "AssertionError";
  if (k == 2 && !(r->u.raise_.arg = lower_expr(L, parts[1]))) return NULL;
  expr *not_test = new_expr(L, EX_NOT, parts[0]);
  not_test->u.not_arg = test;
  stmt *s = new_stmt(L, ST_IF, n);
  s->u.if_.cond = not_test;
  s->u.if_.then = r;
  s->u.if_.assert_ = true;
  return s;
}

/* The places of `del a, b[k], (c.x, d[i:j])`, flattened in source order
 * (CPython deletes left to right). A name is a break: a kernel's locals
 * have no unbound state after their first binding. */
static bool lower_del_places(lower *L, TSNode n, stmt *s, int *cap);

static void add_del_place(lower *L, stmt *s, int *cap, expr *e) {
  if (s->u.del.n == *cap) {
    *cap = *cap ? 2 * *cap : 4;
    expr **grown = arena_alloc(L->m->a, sizeof(expr *) * (size_t)*cap);
    if (s->u.del.n) memcpy(grown, s->u.del.subs, sizeof(expr *) * (size_t)s->u.del.n);
    s->u.del.subs = grown;
  }
  s->u.del.subs[s->u.del.n++] = e;
}

/* del NAME of a local (DELETE_FAST, an EX_LOCAL place): in the function's
 * top-level block, where the kernel knows what is bound after it (a loop's
 * next pass or an exception handler would see it unbound); not of a
 * parameter (a kernel's parameters are always bound). */
static bool lower_del_local(lower *L, TSNode n, stmt *s, int *cap) {
  const char *name = text(L, n);
  int base = find_local(L->f, name), loc = resolve_local(L, name);
  const char *why = base < 0 || loc < 0 ? "del of a name the function never binds"
                    : base < L->f->nparams ? "del of a parameter"
                    : L->depth ? "del of a local inside a loop, if, try or with block" : NULL;
  if (why) {
    gb(L, n, "unsupported-statement", why);
    return false;
  }
  expr *e = new_expr(L, EX_LOCAL, n);
  e->u.local = loc;
  add_del_place(L, s, cap, e);
  return true;
}

static bool lower_del_places(lower *L, TSNode n, stmt *s, int *cap) {
  if (node_is(n, "expression_list") || node_is(n, "tuple") || node_is(n, "list") ||
      node_is(n, "parenthesized_expression")) {
    for (uint32_t i = 0; i < node_named_count(n); i++)
      if (!lower_del_places(L, node_named(n, i), s, cap)) return false;
    return true;
  }
  bool global = declared_outside(L, n); /* DELETE_GLOBAL, DELETE_DEREF */
  if (node_is(n, "identifier") && !global) return lower_del_local(L, n, s, cap);
  if (!node_is(n, "subscript") && !node_is(n, "attribute") && !global) {
    gb(L, n, "unsupported-statement", node_is(n, "identifier") ? "del of a local name"
       : arena_printf(L->m->a, "del of %s", ts_node_type(n)));
    return false;
  }
  expr *e = lower_expr(L, n);
  if (!e) return false;
  add_del_place(L, s, cap, e);
  return true;
}

/* delete_statement: del PLACE, ... */
static stmt *lower_del(lower *L, TSNode n) {
  stmt *s = new_stmt(L, ST_DEL, n);
  int cap = 0;
  for (uint32_t i = 0; i < node_named_count(n); i++)
    if (!lower_del_places(L, node_named(n, i), s, &cap)) return NULL;
  return s;
}

/* except [E [as name]]: block -- a clause of a try statement. */
static bool lower_handler(lower *L, TSNode n, handler *h) {
  h->pos = node_pos(n);
  TSNode type = child_by_field(n, "value"), alias = child_by_field(n, "alias");
  if (node_is(type, "as_pattern")) { /* the grammar's reading of `except (A, B) as name` */
    alias = child_by_field(type, "alias");
    if (!ts_node_is_null(alias) && node_named_count(alias) == 1) alias = node_named(alias, 0);
    type = node_named(type, 0);
  }
  if (!ts_node_is_null(type) && !(h->type = lower_expr(L, type))) return false;
  if (!ts_node_is_null(alias)) {
    if (!node_is(alias, "identifier")) {
      gb(L, alias, "exception-handling", "an except clause binding a name that is not a plain name");
      return false;
    }
    if (!(h->name = lower_target(L, alias))) return false;
  }
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++)
    if (node_is(node_named(n, i), "block")) h->body = lower_nested(L, node_named(n, i));
  return true;
}

/* try_statement: try: block (except_clause)* (else_clause)? (finally_clause)?
 * -- compiled with the handlers in C (emit_try); `except*` is a graph break. */
static stmt *lower_try(lower *L, TSNode n) {
  stmt *s = new_stmt(L, ST_TRY, n);
  if (L->tries >= 20) {
    gb(L, n, "exception-handling", "try statements nested more than 20 deep");
    return NULL;
  }
  uint32_t c = node_named_count(n);
  s->u.try_.handlers = arena_alloc(L->m->a, sizeof(handler) * (c ? c : 1));
  L->tries++;
  s->u.try_.body = lower_nested(L, child_by_field(n, "body"));
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = node_named(n, i);
    if (node_is(ch, "except_group_clause")) {
      L->tries--;
      gb(L, ch, "exception-handling", "'except*'");
      return NULL;
    }
    if (node_is(ch, "finally_clause")) {
      s->u.try_.has_finally = true;
      for (uint32_t k = 0; k < node_named_count(ch); k++)
        if (node_is(node_named(ch, k), "block"))
          s->u.try_.finalbody = lower_nested(L, node_named(ch, k));
    }
    if (node_is(ch, "else_clause")) s->u.try_.orelse = lower_nested(L, child_by_field(ch, "body"));
    if (node_is(ch, "except_clause") && !lower_handler(L, ch, &s->u.try_.handlers[s->u.try_.nhandlers++])) {
      L->tries--;
      return NULL;
    }
  }
  L->tries--;
  return s;
}

/* with_statement: with item, ...: block -- each item a with statement
 * around the next (with_item: MGR, or MGR as TARGET, an as_pattern). */
static stmt *lower_with(lower *L, TSNode n) {
  if (ts_node_child_count(n) && !strcmp(ts_node_type(ts_node_child(n, 0)), "async")) {
    gb(L, n, "generator", "async with");
    return NULL;
  }
  TSNode items[32];
  int k = 0;
  for (uint32_t i = 0; i < node_named_count(n); i++) {
    TSNode clause = node_named(n, i);
    for (uint32_t j = 0; node_is(clause, "with_clause") && j < node_named_count(clause); j++) {
      if (!node_is(node_named(clause, j), "with_item")) continue;
      if (k == 32 || L->tries + k >= 20) {
        gb(L, n, "exception-handling", "with statements nested more than 20 deep");
        return NULL;
      }
      items[k++] = node_named(clause, j);
    }
  }
  stmt *outer = NULL, **slot = &outer;
  L->tries += k;
  for (int i = 0; i < k; i++) {
    stmt *s = new_stmt(L, ST_WITH, i ? items[i] : n);
    TSNode v = child_by_field(items[i], "value");
    if (node_is(v, "as_pattern")) {
      TSNode alias = child_by_field(v, "alias");
      if (!ts_node_is_null(alias) && node_named_count(alias) == 1) alias = node_named(alias, 0);
      if (!(s->u.with.tgt = lower_target(L, alias))) { L->tries -= k; return NULL; }
      v = node_named(v, 0);
    }
    if (!(s->u.with.mgr = lower_expr(L, v))) { L->tries -= k; return NULL; }
    *slot = s;
    slot = &s->u.with.body;
  }
  *slot = lower_nested(L, child_by_field(n, "body"));
  L->tries -= k;
  return outer;
}

/* The dotted name of a dotted_name node, its identifiers joined by '.'
 * (the source may space them: `import a . b`). */
static const char *dotted(lower *L, TSNode n) {
  strbuf b = {0};
  for (uint32_t i = 0; i < node_named_count(n); i++) {
    TSNode part = node_named(n, i);
    if (node_is(part, "identifier")) sb_printf(&b, "%s%s", b.len ? "." : "", text(L, part));
  }
  const char *r = arena_strdup(L->m->a, b.data ? b.data : "");
  sb_free(&b);
  return r;
}

/* import a.b [as c], ... / from [..]a import b [as c], ...: the names bound
 * are locals (collect_locals), each an object. As CPython 3.11 compiles
 * them: `import a.b` binds the top package a, `import a.b as c` binds a.b
 * (IMPORT_FROM b after IMPORT_NAME); a from import makes one IMPORT_NAME
 * with the names as its fromlist. */
static stmt *lower_import(lower *L, TSNode n) {
  bool from = node_is(n, "import_from_statement");
  TSNode mod = from ? child_by_field(n, "module_name") : (TSNode){0};
  stmt *s = new_stmt(L, ST_IMPORT, n);
  s->u.import_.from = from;
  s->u.import_.import_fn = ir_slot(L->m, SLOT_NAME, "__import__", NULL, NULL, NULL, -1);
  if (from) {
    TSNode name = mod;
    if (node_is(mod, "relative_import")) {
      name = (TSNode){0};
      for (uint32_t i = 0; i < node_named_count(mod); i++) {
        TSNode part = node_named(mod, i);
        if (node_is(part, "import_prefix")) s->u.import_.level = (int)(ts_node_end_byte(part) - ts_node_start_byte(part));
        else if (node_is(part, "dotted_name")) name = part;
      }
    }
    s->u.import_.module = ts_node_is_null(name) ? "" : dotted(L, name);
  }
  uint32_t c = node_named_count(n);
  s->u.import_.names = arena_alloc(L->m->a, sizeof(char *) * (c ? c : 1));
  s->u.import_.chain = arena_alloc(L->m->a, sizeof(bool) * (c ? c : 1));
  s->u.import_.tgts = arena_alloc(L->m->a, sizeof(target *) * (c ? c : 1));
  for (uint32_t i = 0; i < c; i++) {
    TSNode item = node_named(n, i), name = item, bound;
    if (from && ts_node_eq(item, mod)) continue;
    if (node_is(item, "wildcard_import")) { /* a SyntaxError inside a function */
      gb(L, item, "unsupported-statement", "from ... import *");
      return NULL;
    }
    int k = s->u.import_.n++;
    if (node_is(item, "aliased_import")) {
      name = child_by_field(item, "name");
      bound = child_by_field(item, "alias");
      s->u.import_.chain[k] = !from;
    } else {
      bound = node_named(item, 0); /* `import a.b` binds a; from m import b binds b */
    }
    s->u.import_.names[k] = dotted(L, name);
    if (!(s->u.import_.tgts[k] = lower_target(L, bound))) return NULL;
  }
  return s;
}

/* The statement value or test node of statement n whose first operand
 * may be an assignment expression (first_walrus): an if's test (its
 * elifs': lower_if), an assignment's value, a return's, an expression. */
static TSNode statement_value(TSNode n) {
  if (node_is(n, "if_statement")) return child_by_field(n, "condition");
  if (node_is(n, "return_statement")) return node_named(n, 0);
  if (!node_is(n, "expression_statement") || node_named_count(n) != 1) return (TSNode){0};
  TSNode e = node_named(n, 0);
  while (node_is(e, "assignment") && node_is(child_by_field(e, "right"), "assignment")) e = child_by_field(e, "right");
  return node_is(e, "assignment") ? child_by_field(e, "right") : node_is(e, "augmented_assignment") ? (TSNode){0} : e;
}

static stmt *lower_stmt_kind(lower *L, TSNode n);

/* Statement n lowered, after the assignment its first operand makes if it
 * is `(name := value)` (lower_walrus): one statement, or that assignment
 * linked to it. */
stmt *lower_stmt(lower *L, TSNode n) {
  struct walrus_state outer = walrus_open(L, n, statement_value(n)); /* an enclosing statement's, if any */
  return walrus_close(L, outer, lower_stmt_kind(L, n));
}

static stmt *lower_stmt_kind(lower *L, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "expression_statement")) return lower_expression_statement(L, n);
  if (!strcmp(t, "return_statement")) {
    stmt *s = new_stmt(L, ST_RETURN, n);
    TSNode v = node_named(n, 0);
    if (!ts_node_is_null(v) && !node_is(v, "none")) {
      s->u.ret = lower_expr(L, v);
      if (!s->u.ret) return NULL;
    }
    return s;
  }
  if (!strcmp(t, "if_statement")) return lower_if(L, n);
  if (!strcmp(t, "while_statement")) return lower_while(L, n);
  if (!strcmp(t, "for_statement")) {
    if (ts_node_child_count(n) && !strcmp(ts_node_type(ts_node_child(n, 0)), "async")) {
      gb(L, n, "generator", "async for");
      return NULL;
    }
    return lower_for(L, n, false);
  }
  if (!strcmp(t, "break_statement")) return new_stmt(L, ST_BREAK, n);
  if (!strcmp(t, "continue_statement")) return new_stmt(L, ST_CONTINUE, n);
  if (!strcmp(t, "pass_statement")) return new_stmt(L, ST_PASS, n);
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
      !strcmp(t, "decorated_definition"))
    return lower_nested_def(L, n);
  if (!strcmp(t, "global_statement")) return new_stmt(L, ST_PASS, n); /* collect_global_declarations */
  if (!strcmp(t, "nonlocal_statement")) return new_stmt(L, ST_PASS, n); /* collect_freevars */
  if (!strcmp(t, "raise_statement")) return lower_raise(L, n);
  if (!strcmp(t, "delete_statement")) return lower_del(L, n);
  if (!strcmp(t, "assert_statement")) return lower_assert(L, n);
  if (!strcmp(t, "try_statement")) return lower_try(L, n);
  if (!strcmp(t, "with_statement")) return lower_with(L, n);
  if (!strcmp(t, "import_statement") || !strcmp(t, "import_from_statement")) return lower_import(L, n);
  gb(L, n, "unsupported-statement", arena_printf(L->m->a, "%s", t));
  return NULL;
}
