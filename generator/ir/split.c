/* split.c: functions with graph breaks: statements the kernel language
 * lacks become interpreted statements (ST_INTERP) whose compound
 * statements are split into blocks; the names they may bind get versions.
 * ir_lower_module, the phase's entry, lowers every function.
 */
#include "lower.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void hit_identifiers(lower *L, TSNode n, bool *hit) {
  if (node_is(n, "identifier")) {
    int base = find_local(L->f, text(L, n));
    if (base >= 0 && base < L->ncurrent) hit[base] = true;
    return;
  }
  if (node_is(n, "attribute") || node_is(n, "subscript")) return; /* binds no name */
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) hit_identifiers(L, node_named(n, i), hit);
}

/* The local names an interpreted statement may bind (assignment, for and
 * with/except targets, :=, imports, def/class names, del). Nested scopes
 * bind nothing here. Each gets a new version whose type is unknown. */
static void mark_rebound(lower *L, TSNode n, bool *hit) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "lambda") || strstr(t, "comprehension") || !strcmp(t, "generator_expression"))
    return;
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")) {
    hit_identifiers(L, child_by_field(n, "name"), hit);
    return;
  }
  if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment") ||
      !strcmp(t, "for_statement"))
    hit_identifiers(L, child_by_field(n, "left"), hit);
  else if (!strcmp(t, "named_expression"))
    hit_identifiers(L, child_by_field(n, "name"), hit);
  else if (!strcmp(t, "as_pattern_target") || !strcmp(t, "delete_statement") ||
           !strcmp(t, "import_statement") || !strcmp(t, "import_from_statement") ||
           !strcmp(t, "aliased_import")) {
    hit_identifiers(L, n, hit);
    return;
  }
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) mark_rebound(L, node_named(n, i), hit);
}

/* `NAME = fn(...)` where fn is a def of this module annotated `-> int`,
 * `-> float` or `-> bool`: NAME's type after the interpreted statement (the
 * regions that read it check it on entry, like every live-in). */
static const type *interp_result_hint(lower *L, TSNode n, const char **name) {
  TSNode e = node_named(n, 0);
  if (!node_is(n, "expression_statement") || !node_is(e, "assignment")) return NULL;
  TSNode left = child_by_field(e, "left"), right = child_by_field(e, "right");
  if (!node_is(left, "identifier") || !node_is(right, "call")) return NULL;
  TSNode fn = child_by_field(right, "function");
  if (!node_is(fn, "identifier") || find_local(L->f, text(L, fn)) >= 0) return NULL;
  func *callee = scope_find_func(L->m, text(L, fn));
  if (!callee || !callee->ret_ann || !ty_is_number(callee->ret_ann) ||
      callee->ret_ann->kind == TY_NUM)
    return NULL;
  *name = text(L, left);
  return callee->ret_ann;
}

/* Names in `hit` are bound by the interpreter here: at the top level each
 * gets a new version; inside an interpreted compound statement (no versions:
 * code may run again) the current version is marked. */
static void bind_dynamic(lower *L, const bool *hit, const char *hinted, const type *hint) {
  for (int base = 0; base < L->ncurrent; base++) {
    if (!hit[base]) continue;
    bool hinted_here = hinted && !strcmp(L->f->locals[base], hinted);
    /* Nested, the local keeps the type its compiled assignments give it: a
     * region reading it checks the interpreter's value on entry. */
    if (L->depth > 0 && !hinted_here) continue;
    int v = L->depth == 0 ? new_version(L, base) : L->current[base];
    L->seen[base] = true;
    if (L->ndynamic == 256) continue;
    L->hint[L->ndynamic] = hinted_here ? hint : NULL;
    L->dynamic[L->ndynamic++] = v;
  }
}

static bool is_clause(TSNode n) {
  return node_is(n, "elif_clause") || node_is(n, "else_clause") || node_is(n, "except_clause") ||
         node_is(n, "except_group_clause") || node_is(n, "finally_clause");
}

/* The header of an interpreted compound statement binds: for targets (an int
 * for range(...)), with/except `as` names, := in conditions. */
static void bind_header(lower *L, TSNode n) {
  bool *hit = arena_alloc(L->m->a, sizeof(bool) * (size_t)(L->ncurrent + 1));
  const char *hinted = NULL;
  const type *hint = NULL;
  if (node_is(n, "for_statement")) {
    TSNode left = child_by_field(n, "left"), right = child_by_field(n, "right");
    hit_identifiers(L, left, hit);
    TSNode fn = node_is(right, "call") ? child_by_field(right, "function") : right;
    if (node_is(left, "identifier") && node_is(right, "call") && node_is(fn, "identifier") &&
        !strcmp(text(L, fn), "range") && find_local(L->f, "range") < 0 &&
        !scope_is_global(L->m, "range")) {
      hinted = text(L, left);
      hint = &ty_int;
    }
  }
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = node_named(n, i);
    if (node_is(ch, "block")) continue;
    if (node_is(n, "for_statement") && (ts_node_eq(ch, child_by_field(n, "left")))) continue;
    if (is_clause(ch)) {
      uint32_t cc = node_named_count(ch);
      for (uint32_t k = 0; k < cc; k++)
        if (!node_is(node_named(ch, k), "block")) mark_rebound(L, node_named(ch, k), hit);
      continue;
    }
    mark_rebound(L, ch, hit);
  }
  bind_dynamic(L, hit, hinted, hint);
}

/* The local versions for loop n binds before each pass of its body (its
 * first block): its target names (at their current versions: its blocks
 * bind at those), or NULL. A region in the body takes them as live-ins
 * (regions.c); `for i in range(...)`'s target is typed int (bind_header). */
static bool *body_bindings(lower *L, TSNode n) {
  if (!node_is(n, "for_statement")) return NULL;
  bool *hit = arena_alloc(L->m->a, sizeof(bool) * (size_t)(L->ncurrent + 1));
  hit_identifiers(L, child_by_field(n, "left"), hit);
  bool *bound = arena_alloc(L->m->a, sizeof(bool) * (size_t)(L->f->nlocals + 1)), any = false;
  for (int base = 0; base < L->ncurrent; base++)
    if (hit[base]) bound[L->current[base]] = any = true;
  return any ? bound : NULL;
}

/* A compound statement whose blocks are split when it runs in the interpreter. */
static bool splittable(TSNode n) {
  if (!node_is(n, "if_statement") && !node_is(n, "while_statement") &&
      !node_is(n, "for_statement") && !node_is(n, "with_statement") && !node_is(n, "try_statement"))
    return false;
  if (ts_node_child_count(n) && !strcmp(ts_node_type(ts_node_child(n, 0)), "async")) return false;
  for (uint32_t i = 0; node_is(n, "try_statement") && i < node_named_count(n); i++)
    if (node_is(node_named(n, i), "except_group_clause"))
      return false; /* a region's return cannot stand in an except* block (a SyntaxError) */
  return true;
}

/* An interpreted compound statement keeps its blocks: they are split in
 * turn, so the statements in them that compile still run as kernels. */
static void split_blocks(lower *L, stmt *s, TSNode n) {
  TSNode blocks[64];
  int nb = 0;
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c && nb < 64; i++) {
    TSNode ch = node_named(n, i);
    if (node_is(ch, "block")) blocks[nb++] = ch;
    else if (is_clause(ch))
      for (uint32_t k = 0; k < node_named_count(ch) && nb < 64; k++)
        if (node_is(node_named(ch, k), "block")) blocks[nb++] = node_named(ch, k);
  }
  bind_header(L, n);
  s->binds_body = body_bindings(L, n);
  s->blocks = arena_alloc(L->m->a, sizeof(stmt *) * (size_t)(nb + 1));
  L->depth++;
  for (int i = 0; i < nb; i++) {
    L->split = true;
    s->blocks[i] = lower_block(L, blocks[i]);
  }
  L->depth--;
  s->nblocks = nb;
}

/* Keeps the first `keep` graph breaks of the function, then `tail`;
 * returns the breaks that followed them. */
static gbreak *splice_breaks(lower *L, int keep, gbreak *tail) {
  gbreak **p = &L->f->breaks;
  for (int i = 0; i < keep && *p; i++) p = &(*p)->next;
  gbreak *old = *p;
  *p = tail;
  return old;
}

static stmt *interp_stmt(lower *L, TSNode n) {
  stmt *s = new_stmt(L, ST_INTERP, n);
  bool split = splittable(n);
  if (L->depth > 0 && split) {
    split_blocks(L, s, n); /* nested: its blocks bind their own names */
    return s;
  }
  bool *hit = arena_alloc(L->m->a, sizeof(bool) * (size_t)(L->ncurrent + 1));
  const char *hinted = NULL;
  const type *hint = interp_result_hint(L, n, &hinted);
  mark_rebound(L, n, hit);
  if (L->depth == 0 && split) split_blocks(L, s, n); /* its blocks bind at the current versions... */
  bind_dynamic(L, hit, hinted, hint);                  /* ...and later code sees new ones */
  return s;
}

/* block: statement+ ; returns the linked statement list. In the function's
 * top-level block, a statement with a graph break becomes ST_INTERP: it runs
 * in the interpreter and the statements around it still compile. */
stmt *lower_block(lower *L, TSNode block) {
  stmt *head = NULL, **tail = &head;
  bool split = (L->split || L->depth == 0) && !L->f->nested; /* a nested function's resume
                                                                  function is not built */
  L->split = false; /* blocks inside a compiled statement are not split */
  uint32_t c = node_named_count(block);
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = node_named(block, i);
    int before = count_breaks(L);
    stmt *s = lower_stmt(L, ch);
    if (split && (count_breaks(L) != before || !s)) {
      gbreak *found = splice_breaks(L, before, NULL); /* as first found: the ones reported */
      s = interp_stmt(L, ch); /* re-lowering its blocks finds them again: drop those */
      splice_breaks(L, before, found);
      L->f->partial = true;
    }
    if (!s) continue; /* the break is recorded; keep lowering to find all */
    int id = split ? L->f->nsplit++ : 0; /* an assignment hoisted out of s shares it: both compile, or neither */
    if (L->depth == 0 && !L->snapshot) { /* shared while no name gets a new version: linear in the length */
      L->snapshot = arena_alloc(L->m->a, sizeof(int) * (size_t)(L->ncurrent + 1));
      memcpy(L->snapshot, L->current, sizeof(int) * (size_t)L->ncurrent);
    }
    *tail = s;
    for (stmt *x = s; x; x = x->next) { /* s, or a hoisted assignment and s (lower_stmt) */
      x->split_id = id;
      if (L->depth == 0 && !x->cur_after) x->cur_after = L->snapshot;
      tail = &x->next;
    }
  }
  return head;
}

static bool any_compiled_stmt(stmt *b) {
  for (stmt *s = b; s; s = s->next) {
    if (s->kind != ST_INTERP) return true;
    for (int i = 0; i < s->nblocks; i++) if (any_compiled_stmt(s->blocks[i])) return true;
  }
  return false;
}

/* The IR phase: every function of the module lowered from its syntax tree
 * (graph breaks recorded, the module's guard slots fixed), before infer. */
void ir_lower_module(module *m) {
  for (int i = 0; i < m->nfuncs; i++) ir_lower_func(m, m->funcs[i]);
}

void ir_lower_func(module *m, func *f) {
  if (f->lowered) return;
  f->lowered = true;
  lower L = {.m = m, .f = f};
  for (int i = 0; i < f->nparams; i++) add_local(&L, f->params[i]);
  TSNode body = child_by_field(f->node, "body");
  if (ts_node_has_error(f->node) || ts_node_is_null(body)) { /* never compile a guess */
    gb(&L, f->node, "parser-limitation", "the parser could not read this function");
    return;
  }
  /* `async def`: a coroutine is never a kernel */
  if (ts_node_child_count(f->node) && !strcmp(ts_node_type(ts_node_child(f->node, 0)), "async"))
    gb(&L, f->node, "generator", "async def");
  collect_global_declarations(&L, body);
  collect_freevars(&L); /* before the locals: a `nonlocal` name is none */
  collect_locals(&L, body);
  L.ncurrent = f->nbase = f->nlocals;
  L.current = arena_alloc(m->a, sizeof(int) * (size_t)(f->nlocals + 1));
  L.seen = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
  L.nversions = arena_alloc(m->a, sizeof(int) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < f->nlocals; i++) {
    L.current[i] = i;
    L.seen[i] = i < f->nparams;
  }
  f->body = node_is(f->node, "lambda") ? lower_lambda_body(&L, body) : lower_block(&L, body);
  if (f->reads_frame || f->nfreevars || f->nowncells || f->nvarparams)
    f->partial = false; /* the interpreter runs all of it (a region kernel has no closure, a
                           resume function takes positional parameters only) */
  f->local_dynamic = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
  f->local_hint = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < L.ndynamic; i++) {
    f->local_dynamic[L.dynamic[i]] = true;
    f->local_hint[L.dynamic[i]] = L.hint[i];
  }
  /* Never partial: generators, global/nonlocal (names change scope), and
   * functions where nothing but interpreted statements remain. */
  bool any_compiled = any_compiled_stmt(f->body);
  for (gbreak *b = f->breaks; b; b = b->next)
    if (!strcmp(b->type, "generator") || !strcmp(b->type, "scope-declaration") ||
        !strcmp(b->type, "parser-limitation"))
      f->partial = false, any_compiled = false;
  if (!any_compiled) f->partial = false;
}
