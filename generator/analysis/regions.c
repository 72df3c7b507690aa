/* regions.c: the regions of a partially compiled function (an analysis):
 * maximal runs of statements that type in every specialisation, with their
 * live-ins and live-outs. emit/regions.c writes their kernels; explain
 * and the loader read the same regions.
 */
#include "../gen.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void reads_expr(expr *e, bool *r);
static void reads_block(stmt *s, bool *r, bool *w);

static bool top_ok(func *f, int k, stmt *s) { /* k: s->split_id */
  if (s->kind == ST_INTERP) return false;
  bool any = false;
  for (inst *in = f->insts; in; in = in->next_root) {
    if (!in->ok) continue;
    any = true;
    if (in->top_fail && in->top_fail[k]) return false;
  }
  return any;
}

static void writes_target(target *t, bool *w, bool *r) {
  if (t->sub) { reads_expr(t->sub, r); return; } /* obj[i] = v reads obj and i */
  if (!t->is_tuple) { w[t->local] = true; return; }
  for (int i = 0; i < t->n; i++) writes_target(t->elts[i], w, r);
}
static void reads_sub(void *r, expr *e) { reads_expr(e, r); }
static void reads_expr(expr *e, bool *r) {
  if (e->kind == EX_LOCAL) r[e->u.local] = true;
  if (e->kind == EX_LISTCOMP) reads_block(e->u.comp.loop, r, r); /* its own names: never in a region */
  ir_each_subexpr(e, reads_sub, r);
}
typedef struct reads_ctx { bool *r, *w; } reads_ctx;
static void reads_part_expr(void *ctx, expr *e) { reads_expr(e, ((reads_ctx *)ctx)->r); }
static void reads_part_target(void *ctx, target *t) { writes_target(t, ((reads_ctx *)ctx)->w, ((reads_ctx *)ctx)->r); }
static void reads_part_block(void *ctx, stmt *b) { reads_block(b, ((reads_ctx *)ctx)->r, ((reads_ctx *)ctx)->w); }
static void reads_stmt(stmt *s, bool *r, bool *w) {
  static const ir_parts parts = {reads_part_expr, reads_part_target, reads_part_block, false};
  if (s->kind == ST_AUGASSIGN && !s->u.aug.sub) r[s->u.aug.local] = w[s->u.aug.local] = true;
  ir_each_part(s, &parts, &(reads_ctx){r, w});
}
static void reads_block(stmt *s, bool *r, bool *w) {
  for (; s; s = s->next) reads_stmt(s, r, w);
}

/* The function's own name a version stands for (v itself for a
 * comprehension's hidden local: >= f->nbase, never versioned). */
int regions_base_local(func *f, int v) {
  for (int i = 0; i < f->nbase; i++) if (!strcmp(f->locals[i], f->locals[v])) return i;
  return v;
}

/* A break or continue that leaves `s` (its loop is outside s). */
static bool escapes(stmt *s) {
  for (; s; s = s->next) {
    if (s->kind == ST_BREAK || s->kind == ST_CONTINUE) return true;
    if (s->kind == ST_IF && (escapes(s->u.if_.then) || escapes(s->u.if_.orelse))) return true;
    if (s->kind == ST_TRY && (escapes(s->u.try_.body) || escapes(s->u.try_.orelse) ||
                              escapes(s->u.try_.finalbody))) return true;
    if (s->kind == ST_WITH && escapes(s->u.with.body)) return true;
    for (int i = 0; s->kind == ST_TRY && i < s->u.try_.nhandlers; i++)
      if (escapes(s->u.try_.handlers[i].body)) return true;
  }
  return false;
}

static bool no_op(stmt *s) {
  return s->kind == ST_PASS ||
         (s->kind == ST_EXPR && (s->u.expr->kind == EX_INT || s->u.expr->kind == EX_FLOAT ||
                                 s->u.expr->kind == EX_BOOL || s->u.expr->kind == EX_NONE));
}

typedef struct region_scan {
  module *m;
  func *f;
  region *rs;
  int nr, cap;
} region_scan;

static void mark_assigned(stmt *s, bool *defbound) {
  if (s->kind == ST_ASSIGN)
    for (int i = 0; i < s->u.assign.ntargets; i++)
      if (!s->u.assign.targets[i]->is_tuple && !s->u.assign.targets[i]->sub)
        defbound[s->u.assign.targets[i]->local] = true;
}

/* Does region r loop: a while or for loop (stmt_has_loop), or a
 * comprehension, whose items the interpreter would take one by one? */
static void comprehension_in(void *hit, expr *e) {
  if (e->kind == EX_LISTCOMP) *(bool *)hit = true;
  else ir_each_subexpr(e, comprehension_in, hit);
}
static void no_target(void *hit, target *t) { (void)hit, (void)t; }
static void comprehension_in_block(void *hit, stmt *b);
static void comprehension_in_stmt(bool *hit, stmt *s) {
  static const ir_parts parts = {comprehension_in, no_target, comprehension_in_block, false};
  ir_each_part(s, &parts, hit);
}
static void comprehension_in_block(void *hit, stmt *b) {
  for (; b; b = b->next) comprehension_in_stmt(hit, b);
}
static bool region_loops(const region *r) {
  bool hit = false;
  for (stmt *s = r->s_first; s && !hit; s = s == r->s_last ? NULL : s->next) {
    hit = stmt_has_loop(s);
    if (!hit) comprehension_in_stmt(&hit, s);
  }
  return hit;
}

/* DYNAC_SMALL_REGIONS=1: no region is small (their kernels run; the
 * loader reads it too: _resume.kept). */
static bool small_regions_run(void) {
  const char *v = getenv("DYNAC_SMALL_REGIONS");
  return v && !strcmp(v, "1");
}

bool regions_any_kept(module *m, func *f) {
  region *rs;
  int n = regions_find(m, f, &rs);
  for (int i = 0; i < n; i++) if (!rs[i].small) return true;
  return false;
}

/* Regions of one split block. Top level: names are versioned (cur_after);
 * nested (the block of an interpreted compound statement): versions are
 * fixed, and a region must not break or continue the interpreted loop. */
static bool in_region(func *f, stmt *s, bool top) {
  return top_ok(f, s->split_id, s) && (top || !escapes(s));
}

static void scan_block(region_scan *S, stmt *b, bool *defbound, bool top) {
  func *f = S->f;
  const int *cur_before = NULL;
  for (stmt *s = b; s;) {
    if (!in_region(f, s, top)) {
      if (s->kind == ST_INTERP && s->nblocks) {
        bool *inner = arena_alloc(S->m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
        for (int i = 0; i < s->nblocks; i++) {
          memcpy(inner, defbound, sizeof(bool) * (size_t)f->nlocals);
          for (int v = 0; i == 0 && s->binds_body && v < f->nlocals; v++) inner[v] |= s->binds_body[v];
          scan_block(S, s->blocks[i], inner, false);
        }
      }
      mark_assigned(s, defbound);
      for (int bl = 0; top && s->cur_after && bl < f->nbase; bl++) { /* NAME = typed_fn(...) */
        if (regions_base_local(f, bl) != bl) continue; /* cur_after is indexed by base names */
        int v = s->cur_after[bl];
        if (v != (cur_before ? cur_before[bl] : bl) && f->local_hint && f->local_hint[v])
          defbound[v] = true;
      }
      if (top) cur_before = s->cur_after;
      s = s->next;
      continue;
    }
    region *r = &S->rs[S->nr];
    memset(r, 0, sizeof *r);
    r->in = arena_alloc(S->m->a, sizeof(int) * (size_t)(f->nlocals + 1)); /* at most every local */
    r->out = arena_alloc(S->m->a, sizeof(int) * (size_t)(f->nlocals + 1));
    r->s_first = s;
    r->top = top;
    r->cur_before = top ? cur_before : NULL;
    bool *rd = arena_alloc(S->m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
    bool *wr = arena_alloc(S->m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
    stmt *last = s;
    bool all_no_op = true;
    while (s && in_region(f, s, top)) {
      reads_stmt(s, rd, wr);
      all_no_op = all_no_op && no_op(s);
      last = s;
      s = s->next;
    }
    r->s_last = last;
    for (int v = 0; v < f->nlocals; v++) {
      int b = regions_base_local(f, v);
      int cur = top && b < f->nbase ? (cur_before ? cur_before[b] : b) : v;
      if (!(rd[v] && defbound[v] && cur == v)) continue;
      r->in[r->nin++] = v;
    }
    bool *outbase = arena_alloc(S->m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
    for (int v = 0; v < f->nlocals; v++) if (wr[v]) outbase[top ? regions_base_local(f, v) : v] = true;
    for (int b2 = 0; b2 < f->nlocals; b2++) {
      if (!outbase[b2]) continue;
      r->out[r->nout++] = top && last->cur_after && b2 < f->nbase ? last->cur_after[b2] : b2;
    }
    for (stmt *t = r->s_first;; t = t->next) { /* assignments bind for later regions */
      mark_assigned(t, defbound);
      if (t == last) break;
    }
    if (top) cur_before = last->cur_after;
    r->ops = graph_ops_of(r->s_first, r->s_last);
    r->small = r->ops < REGION_MIN_OPS + REGION_OPS_PER_OUT * r->nout && !region_loops(r) && !small_regions_run();
    if (!all_no_op && S->nr < S->cap) S->nr++; /* else: stays interpreted */
  }
}

/* The regions of `f`, with live-ins (read in the region, definitely bound at
 * its entry: parameters, assignments before it, `x = typed_fn()`) and
 * live-outs (written in it), in source order. */
int regions_find(module *m, func *f, region **out) {
  if (f->regions_done) { *out = f->regions; return f->nregions; }
  region_scan S = {m, f, NULL, 0, f->nsplit + 1};
  S.rs = arena_alloc(m->a, sizeof(region) * (size_t)S.cap);
  bool *defbound = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < f->nparams; i++) defbound[i] = true;
  scan_block(&S, f->body, defbound, true);
  f->regions = *out = S.rs;
  f->regions_done = true;
  return f->nregions = S.nr;
}


void analyses_module(module *m) {
  for (int i = 0; i < m->nfuncs; i++) {
    region *rs;
    if (m->funcs[i]->partial) regions_find(m, m->funcs[i], &rs);
  }
  heap_plan(m); /* which classes' __lt__ heapq's comparisons call (explain shows its guards) */
}
