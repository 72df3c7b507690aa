/* Layouts: one class check for a run of attribute reads.
 *
 * `dx = a.x - b.x; dy = a.y - b.y; d2 = dx * dx + dy * dy` reads a and b
 * twice each. A read through its site's cache tests the class's version
 * tag every time (CPython 3.11's LOAD_ATTR_SLOT does the same). Here a run
 * of statements that can run no Python code (layout_simple_stmt) gets one
 * layout per instance it reads (runtime/objects.h dynac_layout: the places
 * of the names the run reads): its first read tests the version tag once
 * (dynac_layout_hit), every read then takes its place directly, and a
 * float store (`self.vx += f * dt`) writes the float there when nothing
 * else holds it. Nothing can change the class or the instance's class
 * until the run ends, except the Python code a read or store through a
 * site's cache may run (a miss: a __getattr__, a property of a changed
 * class, the release of an old value): such a read or store first clears
 * every layout flag of the run. PyPy's traces guard an object's class once
 * (guard_class) for all its fields in the same way. */
#include "emit.h"

#include <string.h>

/* Is t a value a layout read gives (runtime: dynac_layout_float, _int, _bool)? */
static bool scalar(const type *t) { return t->kind == TY_FLOAT || t->kind == TY_INT || t->kind == TY_BOOL; }

/* Is e obj.name, obj a local holding an instance of a module class (not kept
 * as fields), no property's getter or setter? */
static bool layout_attr(em *E, const expr *e) {
  if (e->kind != EX_ATTR || e->u.sub.index || e->u.sub.obj->kind != EX_LOCAL) return false;
  const type *ot = TY(e->u.sub.obj);
  return ot->kind == TY_OBJ && ot->cls && !ot->rec && !E->in->types.callee[e->id];
}
/* ... read as a scalar (expr.c emit_attr's typed read)? */
/* (Not a read keeping its object, expr.c emit_attr: its value is boxed again.) */
static bool layout_read(em *E, const expr *e) {
  return layout_attr(E, e) && scalar(TY(e)) && !(E->keeps_object && E->keeps_object[e->id]);
}

/* Does evaluating e run no Python code, only C arithmetic on scalars and
 * layout reads? (A failure leaves the kernel: a continuation, a
 * deoptimisation, an exception.) */
static bool simple_expr(em *E, const expr *e) {
  switch (e->kind) {
  case EX_INT: case EX_FLOAT: case EX_BOOL: return true;
  case EX_LOCAL: return scalar(TY(e));
  case EX_ATTR: return layout_read(E, e);
  case EX_BINOP:
    return !e->u.bin.inplace && scalar(TY(e)) && simple_expr(E, e->u.bin.l) && simple_expr(E, e->u.bin.r);
  case EX_UNARY: return scalar(TY(e)) && simple_expr(E, e->u.un.a);
  case EX_NOT: return simple_expr(E, e->u.not_arg);
  case EX_COMPARE:
    for (int i = 0; i < e->u.cmp.n; i++)
      if (!simple_expr(E, e->u.cmp.operands[i])) return false;
    return true;
  default: return false;
  }
}

static bool layout_simple_stmt(em *E, const stmt *s);

/* Are all statements of block b simple? */
static bool simple_block(em *E, const stmt *b) {
  for (; b; b = b->next)
    if (!layout_simple_stmt(E, b)) return false;
  return true;
}

/* Can statement s be part of a run: `local = v`, `local op= v` of a scalar
 * local, `return v`, with v simple, or an if statement of a simple test and
 * branches? */
static bool layout_simple_stmt(em *E, const stmt *s) {
  switch (s->kind) {
  case ST_IF:
    return !s->u.if_.assert_ && simple_expr(E, s->u.if_.cond) && simple_block(E, s->u.if_.then) &&
           simple_block(E, s->u.if_.orelse);
  case ST_ASSIGN: {
    const target *t = s->u.assign.targets[0];
    const expr *v = s->u.assign.value;
    if (s->u.assign.ntargets != 1 || t->is_tuple || !simple_expr(E, v)) return false;
    if (!t->sub) return scalar(E->in->local_ty[t->local]);
    /* obj.name = v, a float stored in place; not a parameter (its caller's object is stored: values.c) */
    return layout_attr(E, t->sub) && TY(v)->kind == TY_FLOAT &&
           !(v->kind == EX_LOCAL && v->u.local < E->in->fn->nparams);
  }
  case ST_AUGASSIGN:
    if (!simple_expr(E, s->u.aug.value)) return false;
    if (!s->u.aug.sub) return !s->u.aug.op_expr && scalar(E->in->local_ty[s->u.aug.local]);
    /* obj.name op= v of a float attribute */
    return layout_read(E, s->u.aug.sub) && TY(s->u.aug.sub)->kind == TY_FLOAT && typed_number_update(E, (stmt *)s);
  case ST_RETURN: return s->u.ret && simple_expr(E, s->u.ret);
  case ST_PASS: return true;
  default: return false;
  }
}

/* The run's layout for local `local`, added if new (NULL: no room). */
static layout_group *group_for(layout_run *r, int local) {
  for (int i = 0; i < r->ngroups; i++)
    if (r->groups[i].local == local) return &r->groups[i];
  if (r->ngroups == LAYOUT_GROUPS) return NULL;
  layout_group *g = &r->groups[r->ngroups++];
  memset(g, 0, sizeof *g);
  g->local = local;
  return g;
}

/* Adds e's layout reads to run r; false when one has no room. */
static bool collect_reads(em *E, const expr *e, layout_run *r) {
  switch (e->kind) {
  case EX_ATTR: {
    layout_group *g = group_for(r, e->u.sub.obj->u.local);
    if (!g) return false;
    g->nreads++;
    for (int i = 0; i < g->n; i++)
      if (!strcmp(g->names[i], e->u.sub.attr)) return true;
    if (g->n == LAYOUT_NAMES) return false;
    g->names[g->n++] = e->u.sub.attr;
    return true;
  }
  case EX_BINOP: return collect_reads(E, e->u.bin.l, r) && collect_reads(E, e->u.bin.r, r);
  case EX_UNARY: return collect_reads(E, e->u.un.a, r);
  case EX_NOT: return collect_reads(E, e->u.not_arg, r);
  case EX_COMPARE:
    for (int i = 0; i < e->u.cmp.n; i++)
      if (!collect_reads(E, e->u.cmp.operands[i], r)) return false;
    return true;
  default: return true;
  }
}

static const expr *stmt_value(const stmt *s) {
  return s->kind == ST_ASSIGN ? s->u.assign.value : s->kind == ST_AUGASSIGN ? s->u.aug.value
         : s->kind == ST_RETURN ? s->u.ret : s->kind == ST_IF ? s->u.if_.cond : NULL;
}

/* Adds simple statement s's layout reads (an if's branches too) to run r;
 * false when one has no room. */
static bool collect_stmt_reads(em *E, const stmt *s, layout_run *r) {
  const expr *place = s->kind == ST_ASSIGN ? s->u.assign.targets[0]->sub : s->kind == ST_AUGASSIGN ? s->u.aug.sub
                      : NULL;
  if (place && !collect_reads(E, place, r)) return false; /* a store's place: its layout's too */
  const expr *v = stmt_value(s);
  if (v && !collect_reads(E, v, r)) return false;
  if (s->kind != ST_IF) return true;
  for (const stmt *t = s->u.if_.then; t; t = t->next)
    if (!collect_stmt_reads(E, t, r)) return false;
  for (const stmt *t = s->u.if_.orelse; t; t = t->next)
    if (!collect_stmt_reads(E, t, r)) return false;
  return true;
}

/* Before statement s of a block: when s starts a run of simple statements
 * in which some instance is read twice or more, declares the run's layouts
 * (static, one per instance read) and their flags, and makes the run
 * current (E->layouts) until its last statement was emitted
 * (layouts_after): true then. Not in code emitted twice or entered by a
 * jump (speculative and shape-tested copies of loops, comprehensions,
 * exported C). */
bool layouts_before(em *E, const stmt *s) {
  if (E->layouts.last || E->exported || E->spec || E->nest || E->shaped || E->comp || E->proven) return false;
  layout_run r;
  memset(&r, 0, sizeof r);
  const stmt *last = NULL;
  for (const stmt *t = s; t && layout_simple_stmt(E, t); t = t->next) {
    layout_run with = r;
    if (!collect_stmt_reads(E, t, &with)) break; /* no room: the run ends before t */
    r = with;
    last = t;
    if (t->kind == ST_RETURN) break;
  }
  bool twice = false;
  for (int i = 0; i < r.ngroups; i++) twice |= r.groups[i].nreads > 1;
  if (!last || !twice) return false;
  r.last = last;
  for (int i = 0; i < r.ngroups; i++) {
    layout_group *g = &r.groups[i];
    int k = ++E->tmp;
    g->layout = arena_printf(E->m->a, "lay%d", k);
    g->flag = arena_printf(E->m->a, "lk%d", k);
    strbuf ix = {0};
    for (int j = 0; j < g->n; j++) sb_printf(&ix, "%s%d", j ? ", " : "", interned_index(E, g->names[j]));
    line(E, "static dynac_layout %s DYNAC_UNUSED; /* where instances of %s's class keep .%s%s */", g->layout,
         E->in->fn->local_cnames[g->local], g->names[0], g->n > 1 ? " ..." : "");
    line(E, "static const int %s_names[] DYNAC_UNUSED = {%s};", g->layout, ix.data);
    const char *lines = last->pos.line == s->pos.line ? arena_printf(E->m->a, "line %d", s->pos.line)
                        : arena_printf(E->m->a, "lines %d-%d", s->pos.line, last->pos.line);
    line(E, "int %s DYNAC_UNUSED = 0; /* %s is of %s's class, as tested on %s */", g->flag,
         E->in->fn->local_cnames[g->local],
         g->layout, lines);
    sb_free(&ix);
  }
  E->layouts = r;
  return true;
}

/* After statement s: the run ends with its last statement. */
void layouts_after(em *E, const stmt *s) {
  if (E->layouts.last == s) layouts_end(E);
}

/* No run from here (its block ended before its last statement: the rest
 * was unreachable). */
void layouts_end(em *E) { memset(&E->layouts, 0, sizeof E->layouts); }

/* The run's layouts whose test was emitted on every path to here: bit i for
 * group i (an if's branches: what both tested counts after it). */
unsigned layouts_tested(const em *E) {
  unsigned m = 0;
  for (int i = 0; i < E->layouts.ngroups; i++)
    if (E->layouts.groups[i].tested) m |= 1u << i;
  return m;
}
void layouts_set_tested(em *E, unsigned m) {
  for (int i = 0; i < E->layouts.ngroups; i++) E->layouts.groups[i].tested = (m >> i) & 1;
}

/* "lkA = lkB = " for the run's layouts tested so far ("" if none). */
static const char *tested_flags(em *E) {
  strbuf b = {0};
  for (int i = 0; i < E->layouts.ngroups; i++)
    if (E->layouts.groups[i].tested) sb_printf(&b, "%s = ", E->layouts.groups[i].flag);
  const char *r = arena_strdup(E->m->a, b.data ? b.data : "");
  sb_free(&b);
  return r;
}

/* Before a read through a site's cache inside a run (which may run Python
 * code): the run's layouts are off from here. */
void layouts_off(em *E) {
  const char *flags = E->layouts.last ? tested_flags(E) : "";
  if (*flags) line(E, "%s0; /* Python code may run: the layouts tested are off */", flags);
}

/* The current run's layout serving obj.name (e: a read or a store's place;
 * obj its C value), its test emitted where no earlier one reaches; *k the
 * name's index in it. NULL when e is not one of the run's. */
static layout_group *layout_use(em *E, const char *obj, const expr *e, int *k) {
  if (!E->layouts.last || !layout_attr(E, e)) return NULL;
  layout_group *g = NULL;
  for (int i = 0; i < E->layouts.ngroups; i++)
    if (E->layouts.groups[i].local == e->u.sub.obj->u.local) g = &E->layouts.groups[i];
  *k = -1;
  for (int i = 0; g && i < g->n; i++)
    if (!strcmp(g->names[i], e->u.sub.attr)) *k = i;
  if (*k < 0) return NULL;
  if (!g->tested) { /* the first use of obj on this path (an if's branches: layouts_tested) */
    line(E, "%s = dynac_layout_hit(&%s, %s, dynac__names, %s_names, %d); /* one test of %s's class */", g->flag,
         g->layout, obj, g->layout, g->n, E->in->fn->local_cnames[g->local]);
    g->tested = true;
  }
  return g;
}

/* obj.name = v (place: obj.name, v a C double) of the current run: the
 * float there takes v's value when nothing else holds it (as
 * dynac_obj_setattr_float_cached does); else, in the block this opens, the
 * site's cache stores a new float (store_into writes it), the run's layouts
 * off first (the old value's release may run Python code). False when place
 * is not one of the run's. */
bool layout_store_open(em *E, const char *obj, const expr *place, const char *v) {
  int k;
  layout_group *g = layout_use(E, obj, place, &k);
  if (!g) return false;
  line(E, "if (!%s || !dynac_layout_store_float(&%s, %s, %d, %s, &dynac__effects)) { /* .%s = */", g->flag, g->layout,
       obj, k, v, place->u.sub.attr);
  E->indent++;
  line(E, "%s0; /* through the site's cache, which may run Python code: the run's layouts are off */",
       tested_flags(E));
  return true;
}
void layout_store_close(em *E) {
  E->indent--;
  line(E, "}");
}

/* obj.name (e, obj its C value) through the current run's layout of obj:
 * the value (a temporary of e's type), or NULL when e is not one of the
 * run's reads (expr.c emit_attr reads it through its site's cache). */
const char *emit_layout_attr(em *E, const char *obj, const expr *e) {
  int k;
  layout_group *g = layout_read(E, e) ? layout_use(E, obj, e, &k) : NULL;
  if (!g) return NULL;
  const type *t = TY(e);
  const char *kind = t->kind == TY_FLOAT ? "float" : t->kind == TY_INT ? "int" : "bool";
  const char *nm = interned_name(E, e->u.sub.attr);
  const char *c = emit_attr_cache(E, "where instances keep it, when the layout is not theirs");
  const char *o = tmpvar(E, t);
  line(E, "{");
  E->indent++;
  line(E, "int st = %s ? dynac_layout_%s(&%s, %s, %d, &%s) : 2; /* .%s: a %s */", g->flag, kind, g->layout, obj,
       k, o, e->u.sub.attr, ty_python_name(E->m->a, t));
  line(E, "if (st == 2) { /* through the site's cache, which may run Python code: the run's layouts are off */");
  line(E, "  %s0;", tested_flags(E));
  line(E, "  st = dynac_attr_%s(%s, %s, &%s, &dynac__effects, &%s);", kind, obj, nm, c, o);
  line(E, "}");
  end_attr_read(E);
  return o;
}
