/* continue.c: continuations: where a deoptimisation after an effect goes on
 * in the interpreter (dynac_continue), the pending operands of the statement
 * being emitted, the loops to rebuild.
 */
#include "emit.h"

/* Operand e, evaluated as C value v, is pending (struct pending); boxed: v
 * is a reference the continuation takes. Past VSTACK_CAP pending operands
 * the deepest stay unrecorded: mid_action then refuses. */
void push_operand(em *E, const expr *e, const char *v, bool boxed) {
  if (E->nvstack < VSTACK_CAP)
    E->vstack[E->nvstack++] = (pending){.e = e, .v = v, .boxed = boxed, .neffects = E->rp.neffects};
}
void push_pending(em *E, const expr *e, const char *v) { push_operand(E, e, v, false); }
/* An operand evaluated that a continuation cannot take as a value (a dict
 * key whose __hash__ may run Python code, which the interpreter would run
 * again): no MID continuation while it is pending (mid_action). */
void push_barrier(em *E) {
  if (E->nvstack < VSTACK_CAP) E->vstack[E->nvstack++] = (pending){.e = NULL, .neffects = E->rp.neffects};
}
/* An object v a continuation would hash or format again (a set element, a
 * dict key, an f-string's value): it goes on only when v is a number or a
 * str (runtime: dynac_quiet_value), whose hash and format run no Python
 * code; else the RuntimeError of a deoptimisation after an effect. */
void push_quiet(em *E, const expr *e, const char *v) {
  push_pending(E, e, v);
  if (E->vstack[E->nvstack - 1].e == e) E->vstack[E->nvstack - 1].quiet = true;
}
/* v, the str an f-string's replacement field made of e (its conversion
 * and format spec applied): a continuation takes it for the whole field,
 * so that e's __format__ or __repr__ does not run again. */
void push_formatted(em *E, const expr *e, const char *v) {
  push_pending(E, e, v);
  if (E->vstack[E->nvstack - 1].e == e) E->vstack[E->nvstack - 1].formatted = true;
}
/* v, operand i of a comparison chain of objects whose links before it
 * held (were true): a continuation takes the chain from v on (path step
 * D<i>), so that no comparison already made, and no truth already tested,
 * runs again (COMPARE_OP then POP_JUMP_IF_FALSE on each link's result, as
 * CPython 3.11 compiles a chain). */
void push_held(em *E, const expr *e, const char *v) {
  push_typed(E, e, v, &ty_obj);
  if (E->vstack[E->nvstack - 1].e == e) E->vstack[E->nvstack - 1].held = true;
}
/* v, the list a list or tuple display with starred parts made so far,
 * item e its last: a continuation takes `*v` for the items up to e (path
 * step P<i>), so that no starred value is iterated again (its __iter__
 * may be Python code) and the display goes on from the next item. */
void push_prefix(em *E, const expr *e, const char *v) {
  push_typed(E, e, v, &ty_obj);
  if (E->vstack[E->nvstack - 1].e == e) E->vstack[E->nvstack - 1].prefix = true;
}
/* The same for v of type t, not e's: `obj.name op= v`'s read of an attribute typed float as an object. */
void push_typed(em *E, const expr *e, const char *v, const type *t) {
  push_pending(E, e, v);
  if (E->vstack[E->nvstack - 1].e == e) E->vstack[E->nvstack - 1].t = t;
}

/* ---- continuation in the interpreter (dynac.h's dynac_continue) ------------ */
/* Can a deoptimisation in instance `in` come after something the
 * interpreter must not repeat and the undo log cannot take back? An
 * allow_in_graph call, Python code run by an object operation, writes to a
 * list the kernel made once the log is full. Writes to the caller's lists
 * and buffers are always taken back (whole copies past DYNAC_UNDO_MAX), so
 * such kernels (array loops) carry no continuation code: only a copy that
 * finds no memory ends their call in dynac_deopt_after_effect. */
bool may_continue(const inst *in) {
  return in->effectful && (in->opaque_calls || in->generic || in->builds_lists);
}

/* Local v boxed as the interpreter holds it (a new reference), NULL when unbound. */
static const char *cont_value(em *E, int v) {
  const type *t = E->in->local_ty[v];
  if (t->kind == TY_UNKNOWN) return "NULL"; /* never bound by compiled code */
  const char *c = E->in->fn->local_cnames[v];
  if (spread_param(E->in, v)) /* *args the kernel took as the caller's values: its tuple now */
    return arena_printf(E->m->a, "dynac_tuple_of(p_%s, n_%s)", E->in->fn->params[v], E->in->fn->params[v]);
  const char *boxed = (t->kind == TY_OBJ && !t->rec) || owned_list_local(E->in, v)
      ? arena_printf(E->m->a, "Py_XNewRef(l_%s)", c) : box_value_cold(E, local_name(E, v), t); /* a struct: its instance */
  if (v < E->in->fn->nparams && !E->reg) return boxed;
  return arena_printf(E->m->a, "b_%s ? %s : NULL", c, boxed);
}

/* The iterator of enclosing for loop L at its next item (at the current
 * one: `header`), as a new reference. */
static const char *cont_iterator(em *E, const cont_loop *L, bool header) {
  if (L->kind == 'g' || L->kind == 'w' || L->kind == 'x') /* the iterator at its next item; a with's
                                                              __exit__; an except clause's outer exception */
    return arena_printf(E->m->a, "Py_NewRef(%s)", L->objs[0]);
  bool rev = L->s->u.for_.how == 'r';
  const char *k = arena_printf(E->m->a, "k%d", L->label);
  if (L->kind == 'r')
    return arena_printf(E->m->a, "dynac_cont_range(%s, %s, n%d, %s%s, %d)", L->start, L->step, L->label,
                        k, header ? "" : " + 1", rev);
  const char *next = header ? k : arena_printf(E->m->a, "%s %s 1", k, rev ? "-" : "+");
  int n = L->s->u.for_.niters;
  const char *its[8];
  for (int i = 0; i < n; i++) {
    const type *t = L->otys[i];
    const char *obj = t->kind == TY_LIST ? arena_printf(E->m->a, "Py_NewRef(%s)", L->objs[i])
                                         : box_value_cold(E, L->objs[i], t);
    its[i] = arena_printf(E->m->a, "dynac_cont_iter(%s, %s, %d)", obj, next, rev);
  }
  if (L->s->u.for_.how == 'e') return arena_printf(E->m->a, "dynac_cont_enumerate(%s, %s)", its[0], L->count);
  if (L->s->u.for_.how != 'z') return its[0];
  strbuf z = {0};
  for (int i = 0; i < n; i++) sb_printf(&z, "%s%s", i ? ", " : "", its[i]);
  const char *r = arena_printf(E->m->a, "dynac_cont_zip((PyObject *[]){%s}, %d)", z.data, n);
  sb_free(&z);
  return r;
}

/* How the continuation's value (PyObject *r, owned) leaves the kernel:
 * as its typed result when it is one, else DYNAC_OK_BOXED. */
static void cont_finish(em *E) {
  const type *t = E->in->ret;
  if (E->reg) { /* a region's continuation gives the entry's tuple: (1, value) or (0, None, outs) */
    line(E, "dynac__boxed_result = r;");
    line(E, "return DYNAC_OK_BOXED;");
    return;
  }
  line(E, "dynac__callee_effects = 1; /* Python code ran, for the caller */");
  report_returned_param(E, NULL);
  if (t->rec) { /* the instance, kept as the caller's struct */
    line(E, "if (r != Py_None && !dynac_rec_from(r, dynac__slots[%d].obj, &dynac_out->h)) { Py_DECREF(r); return DYNAC_OK; }",
         t->cls->slot->index);
  } else if (t->kind == TY_OBJ) {
    line(E, "*dynac_out = r;");
    line(E, "return DYNAC_OK;");
    return;
  }
  else if (t->kind == TY_LIST) line(E, "if (PyList_CheckExact(r)) { *dynac_out = r; return DYNAC_OK; }");
  else if (t->kind != TY_UNKNOWN && !ty_is_container(t) && elem_fn(E->m, t))
    line(E, "if (r != Py_None && !%s(r, dynac_out)) { Py_DECREF(r); return DYNAC_OK; }", elem_fn(E->m, t));
  line(E, "if (r == Py_None) { Py_DECREF(r); return DYNAC_OK_NONE; }");
  line(E, "dynac__boxed_result = r; /* a value of another type: the caller takes it */");
  line(E, "return DYNAC_OK_BOXED;");
}

/* Where a continuation goes on (dynac_cont_site.header, _continue.py's modes). */
enum { CONT_START = 0, CONT_HEAD = 1, CONT_AFTER = 2, CONT_MID = 3 };

static int comp_targets(const expr *c, int *out, int cap);
static bool consumes_early(const expr *c);
static const char *pending_box(em *E, const pending *p);
#define COMP_TARGETS_MAX 32 /* as the IR's comprehension names */

/* What comprehension c is folded into, item by item (comprehension_folds):
 * 'S' sum() (the fold so far is its start), 'm' min() or 'M' max() (the
 * item so far, in a tuple of 0 or 1); 0 when it is not folded. */
static char fold_kind(em *E, const expr *c) {
  const number_fold *nf = number_fold_of(E, c);
  if (nf) return nf->kind;
  if (!comprehension_folds(E->in, c)) return 0;
  return !strcmp(c->u.comp.reducer, "sum") ? 'S' : !strcmp(c->u.comp.reducer, "min") ? 'm' : 'M';
}

/* A comprehension clause's values after the locals (rp->comp): the partial
 * result, its names (renamed: _continue.py's _dynac_c_NAME), then the
 * statement's operands pending as it started. Their names into `names`
 * (NULL: none); how many. */
static int comp_names(em *E, const restart *rp, strbuf *names) {
  int locs[COMP_TARGETS_MAX], nt = comp_targets(rp->comp->comp, locs, COMP_TARGETS_MAX);
  bool made = !consumes_early(rp->comp->comp);
  if (!names) return made + nt + rp->comp->vto - rp->comp->vfrom; /* only how many */
  if (made) sb_puts(names, ",_dynac_cr");
  for (int i = 0; i < nt; i++) {
    const char *name = E->in->fn->locals[locs[i]]; /* "x (in a comprehension)" */
    sb_printf(names, ",_dynac_c_%.*s", (int)strcspn(name, " "), name);
  }
  int m = rp->comp->vto - rp->comp->vfrom;
  for (int i = 0; i < m; i++) sb_printf(names, ",_dynac_v%d", i);
  return made + nt + m;
}

/* The dynac_cont_site of a continuation (its initialiser's fields). In a
 * comprehension's clause, the statement holding it goes on (its line and
 * column), and subst says where in the clauses, what that statement had
 * pending and what the clause had: `Q<part>@<line>:<col><kind>|<paths>|<paths>`
 * with part H<clause> (a for clause's head), F<clause> (its start),
 * C<clause>.<k> (an if clause) or E (the element), kind what it fills
 * (l a list, s a set, d a dict), a / A: the items any() or all() takes, or
 * S / m / M: those sum(), min() or max() folds (fold_kind). */
static void cont_site_fields(em *E, const restart *rp, int mode, const mid_point *mp) {
  func *f = E->in->fn;
  strbuf names = {0};
  for (int i = 0; i < f->nbase; i++) sb_printf(&names, "%s%s", i ? "," : "", f->locals[i]);
  int extra = rp->comp ? comp_names(E, rp, &names) : 0;
  int first = rp->comp ? rp->comp->vto - rp->comp->vfrom : 0; /* the clause's own operands after them */
  for (int i = 0; mp && i < mp->n; i++) sb_printf(&names, "%s_dynac_v%d", names.len ? "," : "", first + i);
  const stmt *s = rp->comp ? rp->comp->s : rp->s;
  const char *subst = mp ? mp->subst : NULL;
  if (rp->comp) {
    const expr *c = rp->comp->comp;
    const char *part = rp->part == 'H' || rp->part == 'F' ? arena_printf(E->m->a, "%c%d", rp->part, rp->clause)
                       : rp->part == 'C' ? arena_printf(E->m->a, "C%d.%d", rp->clause, rp->cond) : "E";
    srcpos at = consumes_early(c) ? c->u.comp.gen : c->pos; /* the generator's, in any(...) */
    char fold = fold_kind(E, c);
    char kind = consumes_early(c) ? c->u.comp.consumer : fold ? fold : c->u.comp.kind;
    subst = arena_printf(E->m->a, "Q%s@%d:%d%c|%s|%s", part, at.line, at.col - 1, kind, rp->comp->subst,
                         mp ? mp->subst : "");
  }
  line(E, "{.qualname = %s, .firstlineno = %d, .line = %d, .col = %d, .header = %d,",
       c_string(E->m, f->qualname), f->firstlineno, s->pos.line, s->pos.col - 1, mode);
  line(E, " .names = %s, .nvals = %d, .nits = %d, .subst = %s,",
       c_string(E->m, names.data ? names.data : ""), f->nbase + extra + (mp ? mp->n : 0), rp->nloops,
       subst ? c_string(E->m, subst) : "NULL");
  line(E, " .region = %s},", E->reg ? c_string(E->m, region_spec(E)) : "NULL");
  sb_free(&names);
}

/* Releases what local v holds once a continuation took it boxed (a del
 * in the continuation frees at once). */
static void cont_release(em *E, int v) {
  const type *lt = E->in->local_ty[v];
  if (lt->rec && v >= E->in->fn->nparams) /* the continuation holds its instance */
    line(E, "dynac_rec_release(&%s.h);", local_name(E, v));
  else if (!lt->rec && (lt->kind == TY_OBJ || owned_list_local(E->in, v)) && !borrowed_param(E->in, v))
    line(E, "Py_CLEAR(%s);", local_name(E, v));
}

/* A comprehension clause's values (comp_names) into cv from cv[at]: the
 * partial result moved, its names boxed, the statement's pending operands. */
static void comp_values(em *E, const restart *rp, int at) {
  const expr *c = rp->comp->comp;
  const number_fold *nf = number_fold_of(E, c);
  if (nf && nf->kind == 'S') /* sum(): the sum so far (the int 0 before a float) */
    line(E, "cv[%d] = %s ? %s : PyLong_FromLong(0); /* sum()'s start from here */", at++, nf->count,
         box_value_cold(E, nf->acc, nf->acc_ty));
  else if (nf) { /* min(), max(): the item kept, if any */
    line(E, "if (%s) {", nf->count);
    line(E, "  PyObject *kept = %s;", box_value_cold(E, nf->acc, nf->item));
    line(E, "  cv[%d] = kept ? PyTuple_Pack(1, kept) : NULL; /* min()'s or max()'s item so far */", at);
    line(E, "  Py_XDECREF(kept);");
    line(E, "} else cv[%d] = PyTuple_New(0);", at++);
  } else if (!consumes_early(c)) {
    const char *r = local_name(E, c->u.comp.result);
    char fold = fold_kind(E, c);
    if (fold == 'm' || fold == 'M') /* min(), max(): the item so far, if any */
      line(E, "cv[%d] = %s ? PyTuple_Pack(1, %s) : PyTuple_New(0); /* min()'s or max()'s item so far */", at++, r, r);
    else
      line(E, "cv[%d] = %s; /* the comprehension's result so far, moved */", at++, r);
    line(E, "%s = NULL;", r);
  }
  int locs[COMP_TARGETS_MAX], nt = comp_targets(rp->comp->comp, locs, COMP_TARGETS_MAX);
  for (int i = 0; i < nt; i++) {
    const type *t = E->in->local_ty[locs[i]];
    if (t->kind == TY_UNKNOWN) { at++; continue; }
    bool obj = (t->kind == TY_OBJ && !t->rec) || owned_list_local(E->in, locs[i]);
    line(E, "cv[%d] = %s; /* %s */", at++, obj ? arena_printf(E->m->a, "Py_XNewRef(%s)", local_name(E, locs[i]))
                                             : box_value_cold(E, local_name(E, locs[i]), t), E->in->fn->locals[locs[i]]);
    if (!E->reg) cont_release(E, locs[i]);
  }
  for (int i = rp->comp->vfrom; i < rp->comp->vto; i++) { /* pending as the comprehension started */
    const pending *p = &E->vstack[i];
    line(E, "cv[%d] = %s;", at++, pending_box(E, p));
    if (p->boxed) line(E, "%s = NULL;", p->v);
  }
}

/* Writes restart point rp's continuation block (`if (0) { dynac_cont_N: ... }`):
 * the locals boxed, the enclosing loops' iterators, dynac_continue. AFTER:
 * the block that goes on after the statement, its local bound to avN; MID:
 * the statement runs again with rp->mids[mkN]'s pending operands (mvN). */
static void cont_block(em *E, const restart *rp, int mode) {
  func *f = E->in->fn;
  bool after = mode == CONT_AFTER, mid = mode == CONT_MID;
  int label = after ? rp->after_label : mid ? rp->mid_label : rp->label;
  const int *versions = after && rp->s->cur_after ? rp->s->cur_after : rp->versions;
  int assigned = after ? regions_base_local(f, rp->after_local) : -1;
  int extra = rp->comp ? comp_names(E, rp, NULL) : 0;
  int nvals = f->nbase + extra + (mid ? rp->max_pending : 0), nits = rp->nloops;
  if (after) line(E, "PyObject *av%d = NULL; /* the exact value of a failed operation */", label);
  if (mid) line(E, "PyObject *mv%d[%d] = {NULL}; /* the operands pending at failure mk%d */", label,
                rp->max_pending, label);
  if (mid) line(E, "int mk%d = 0;", label);
  static const char *const kinds[] = {"cont", "cont", "after", "mid"};
  static const char *const how[] = {"from here", "from here", "after this statement",
                                    "in this statement, around the operands it had evaluated"};
  line(E, "if (0) {");
  line(E, "dynac_%s_%d: { /* line %d: the call goes on in the interpreter %s */", kinds[mode], label,
       rp->s->pos.line, how[mode]);
  E->indent++;
  line(E, "PyObject *cv[%d] = {NULL}, *ci[%d] = {NULL};", nvals ? nvals : 1, nits ? nits : 1);
  for (int i = 0; i < f->nbase; i++) {
    int v = versions ? versions[i] : i;
    const char *val = i == assigned ? arena_printf(E->m->a, "av%d", label) : cont_value(E, v);
    if (strcmp(val, "NULL")) line(E, "cv[%d] = %s; /* %s */", i, val, f->locals[i]);
  }
  for (int i = 0; i < f->nbase && !E->reg; i++) /* the continuation holds the locals from here (a del frees) */
    if (i != assigned) cont_release(E, versions ? versions[i] : i);
  if (rp->comp) comp_values(E, rp, f->nbase);
  for (int i = 0; i < rp->nclears; i++) /* a nested comprehension's list so far: the interpreter makes it again */
    line(E, "Py_CLEAR(%s);", local_name(E, rp->clears[i]));
  for (int i = 0; mid && i < rp->max_pending; i++) line(E, "cv[%d] = mv%d[%d];", f->nbase + extra + i, label, i);
  for (int j = 0; j < nits; j++)
    line(E, "ci[%d] = %s;", j, cont_iterator(E, &E->cloops[j], rp->header && j == nits - 1));
  line(E, "static const dynac_cont_site sites[] = {");
  E->indent += 2;
  if (!mid) cont_site_fields(E, rp, mode, NULL);
  const mid_point **order = mid ? arena_alloc(E->m->a, (size_t)rp->nmids * sizeof *order) : NULL;
  int k = rp->nmids;
  for (const mid_point *mp = mid ? rp->mids : NULL; mp; mp = mp->next) order[--k] = mp;
  for (int i = 0; mid && i < rp->nmids; i++) cont_site_fields(E, rp, mode, order[i]);
  E->indent -= 2;
  line(E, "};");
  line(E, "PyObject *r = NULL;");
  const func *fn = E->in->fn;
  strbuf fv = {0}; /* its co_freevars and own cell variables: the continuation reads them from cells */
  for (int k = 0; k < fn->nfreevars + fn->nowncells; k++) sb_printf(&fv, "%s%s", k ? "," : "", fn->freevars[k]);
  const char *closure = fn->nfreevars ? "dynac__closure" : "NULL";
  if (fn->nowncells) { /* the closure's cells, then the kernel's own */
    strbuf own = {0};
    for (int j = 0; j < fn->nowncells; j++) sb_printf(&own, "%scellvar%d", j ? ", " : "", j);
    line(E, "DYNAC_OBJ cells = dynac_closure_with(%s, %d, (PyObject *[]){%s});", closure, fn->nowncells, own.data);
    line(E, "if (!cells) return DYNAC_ERROR;");
    closure = "cells";
    sb_free(&own);
  }
  line(E, "int st = dynac_continue(&sites[%s], dynac__G.globals, dynac__G.filename, DYNAC_SOURCE_SHA256, %s, %s, "
       "cv, ci, &r);", mid ? arena_printf(E->m->a, "mk%d", label) : "0", closure,
       fv.data ? c_string(E->m, fv.data) : "NULL");
  sb_free(&fv);
  line(E, "if (st == DYNAC_DEOPT) return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);", rp->s->pos.line);
  line(E, "if (st != DYNAC_OK) return DYNAC_ERROR; /* the function's own exception */");
  cont_finish(E);
  E->indent--;
  line(E, "}");
  line(E, "}");
}

/* The expression whose pending operands a MID continuation substitutes,
 * and the path from the statement's value field to it (_continue.py's
 * _VALUE_FIELD) in *prefix: the value of `x = v` and `return v`, `v` of
 * `x op= v` (R: as `x op v`), an expression statement, an if's, a while's
 * or an assert's test, a for loop's iterable, the argument of `raise E(v)`
 * (A0: the call CPython makes) or `raise v`; else NULL. */
static const expr *stmt_root(const stmt *s, const char **prefix) {
  *prefix = "";
  switch (s->kind) {
  case ST_ASSIGN: return s->u.assign.value;
  case ST_AUGASSIGN: *prefix = "R"; return s->u.aug.value; /* obj[i] op= v: with its target's read pending */
  case ST_RAISE:
    if (s->u.raise_.exc && s->u.raise_.arg) *prefix = "A0";
    return s->u.raise_.exc ? s->u.raise_.arg : s->u.raise_.cause ? NULL : s->u.raise_.obj;
  case ST_RETURN: return s->u.ret;
  case ST_EXPR: return s->u.expr;
  case ST_IF: /* assert, a while loop's test (ir/stmt.c lower_walrus_while): `if not test` */
    return s->u.if_.assert_ || s->u.if_.loop_test ? s->u.if_.cond->u.not_arg : s->u.if_.cond;
  case ST_WHILE: return s->u.while_.cond; /* its first pass's test (_continue.py: _resumed_statements) */
  case ST_FOR_ITER: /* `for x in c`: c, evaluated once before the loop starts */
    return s->u.for_.how == 'i' && s->u.for_.niters == 1 ? s->u.for_.iters[0] : NULL;
  default: return NULL;
  }
}

/* Element i of dict display e (keys and values alternating; a `**m`
 * alone) as a step: K<j> the key of its j-th item, V<j> its value (a
 * mapping's: ast.Dict gives it the key None). */
static const expr *dict_child(const expr *e, int i, char step[16]) {
  for (int j = 0, item = 0; j < e->u.tuple.n; item++) {
    bool alone = e->u.tuple.splat && e->u.tuple.splat[j];
    if (i == j || (!alone && i == j + 1)) {
      snprintf(step, 16, "%c%d", i == j && !alone ? 'K' : 'V', item);
      return e->u.tuple.elts[i];
    }
    j += alone ? 1 : 2;
  }
  return NULL;
}

/* path_child of a direct call of a module function: the name called (F:
 * Call.func, where a continuation puts the function held from before the
 * arguments ran), then the arguments the source gives, in its order (A0,
 * A1, ...: positional ones, then keywords); the callee's defaults the
 * kernel read have no place in the source and no step. */
static const expr *module_call_child(const expr *e, int i, char *step) {
  if (i == 0 && e->u.call.callee_name) {
    snprintf(step, 16, "F");
    return e->u.call.callee_name;
  }
  int j = e->u.call.callee_name ? i - 1 : i, np = e->u.call.npos_given;
  if (j >= np + e->u.call.nkw_given) return NULL;
  snprintf(step, 16, "A%d", j);
  return e->u.call.args[j < np ? j : e->u.call.kw_given[j - np]];
}

/* Child i of `e` that a continuation can address, and its path step in
 * `step` (_continue.py reads them): binary operands L, R; the unary operand
 * U; an attribute's object O; a subscript's object and index S0, S1; tuple, list and set elements T<i>;
 * a dict display's keys and values K<j>, V<j>; an f-string's replacement fields J<k>; the operands of a comparison (a chain too) C<i> or of
 * and/or B<i>; the arguments of a call of a named callee A<i>. NULL past
 * the last. */
static const expr *path_child(const expr *e, int i, char step[16]) {
  const expr *kid = NULL;
  char tag = 0;
  switch (e->kind) {
  case EX_BINOP:
    if (i < 2) snprintf(step, 16, "%s", i ? "R" : "L");
    return i == 0 ? e->u.bin.l : i == 1 ? e->u.bin.r : NULL;
  case EX_UNARY: snprintf(step, 16, "U"); return i == 0 ? e->u.un.a : NULL;
  case EX_NOT: snprintf(step, 16, "U"); return i == 0 ? e->u.not_arg : NULL; /* `not x` (all()'s exit: its item) */
  case EX_ATTR: snprintf(step, 16, "O"); return i == 0 ? e->u.sub.obj : NULL;
  case EX_SUBSCRIPT: tag = 'S', kid = i == 0 ? e->u.sub.obj : i == 1 ? e->u.sub.index : NULL; break;
  case EX_TUPLE: case EX_LIST: case EX_SET: tag = 'T', kid = i < e->u.tuple.n ? e->u.tuple.elts[i] : NULL; break;
  case EX_DICT: return dict_child(e, i, step);
  case EX_UNPACKED: /* a starred item: T<i> or V<j> addresses its value (x of *x) */
    if (e->u.tuple.display == 'd') return dict_child(e, i, step);
    tag = 'T', kid = i < e->u.tuple.n ? e->u.tuple.elts[i] : NULL;
    break;
  case EX_FSTRING: { /* J<k>: the value of its k-th replacement field (literal parts are not counted) */
    int k = 0;
    for (int j = 0; j < i && j < e->u.tuple.n; j++) k += e->u.tuple.fconv[j] != 'L';
    if (i >= e->u.tuple.n || e->u.tuple.fconv[i] == 'L') return i < e->u.tuple.n ? path_child(e, i + 1, step) : NULL;
    snprintf(step, 16, "J%d", k);
    return e->u.tuple.elts[i];
  }
  case EX_COMPARE:
    tag = 'C', kid = i < e->u.cmp.n ? e->u.cmp.operands[i] : NULL;
    break;
  case EX_BOOLOP: tag = 'B', kid = i == 0 ? e->u.boolop.l : i == 1 ? e->u.boolop.r : NULL; break;
  case EX_IFEXP: /* the test, then the branches */
    tag = 'I', kid = i == 0 ? e->u.ifexp.cond : i == 1 ? e->u.ifexp.then : i == 2 ? e->u.ifexp.orelse : NULL;
    break;
  case EX_CALL: {
    if (e->u.call.kind == CALLEE_MODULE_FN) return module_call_child(e, i, step);
    /* a method's args[0] is the receiver (M: Call.func.value), a value's the callee (F:
       Call.func); their other args are the source's arguments from A0 */
    bool own = e->u.call.kind == CALLEE_METHOD || e->u.call.kind == CALLEE_VALUE;
    if (own && i == 0) {
      snprintf(step, 16, "%s", e->u.call.kind == CALLEE_METHOD ? "M" : "F");
      return e->u.call.args[0];
    }
    if (i >= e->u.call.n) return NULL;
    snprintf(step, 16, "A%d", own ? i - 1 : i);
    return e->u.call.args[i];
  }
  default: return NULL;
  }
  if (kid) snprintf(step, 16, "%c%d", tag, i);
  return kid;
}

/* The path from `root` down to `e` (path_child's steps), appended to
 * `out`; false when e is not reached that way. */
static bool expr_path(const expr *root, const expr *e, strbuf *out) {
  if (root == e) return true;
  size_t len = out->len;
  char step[16];
  const expr *kid;
  for (int i = 0; (kid = path_child(root, i, step)); i++) {
    out->len = len;
    sb_puts(out, step);
    if (expr_path(kid, e, out)) return true;
  }
  out->len = len;
  if (out->data) out->data[len] = 0;
  return false;
}

/* The place a one-target assignment stores into (obj[i] = v, obj.name = v):
 * its operands are evaluated after the value, so they may be pending too
 * (path prefix G); an augmented one's (obj[i] op= v), whose operands and
 * read come before the value (the read: path X); else NULL. */
static const expr *stmt_target(const stmt *s) {
  const expr *t = NULL;
  if (s->kind == ST_AUGASSIGN) t = s->u.aug.sub;
  else if (s->kind == ST_ASSIGN && s->u.assign.ntargets == 1 && !s->u.assign.targets[0]->is_tuple)
    t = s->u.assign.targets[0]->sub;
  return t && (t->kind == EX_SUBSCRIPT || t->kind == EX_ATTR) ? t : NULL;
}

/* A pending operand in the bounds of range() loop s: its path through the
 * call's arguments (A0, A1, A2, as range's source gives them; inside
 * reversed()'s A0), then @line:col; false when it is not there. */
static bool range_path(const stmt *s, const pending *p, strbuf *subst) {
  const expr *args[3] = {s->u.for_.start ? s->u.for_.start : s->u.for_.stop,
                         s->u.for_.start ? s->u.for_.stop : NULL, s->u.for_.step};
  for (int i = 0; i < 3; i++) {
    size_t mark = subst->len;
    sb_printf(subst, "%sA%d", s->u.for_.how == 'r' ? "A0" : "", i);
    if (args[i] && expr_path(args[i], p->e, subst)) {
      sb_printf(subst, "@%d:%d", p->e->pos.line, p->e->pos.col - 1);
      return true;
    }
    subst->len = mark;
    subst->data[mark] = 0;
  }
  return false;
}

/* The path from the value field of the statement an assignment s was
 * hoisted out of (s->walrus_of: `(name := value)` its first operand) to
 * that value (step N): a continuation inside s goes on in that statement,
 * which assigns name as it goes; NULL when the path is not there. */
static const char *walrus_prefix(em *E, const stmt *s) {
  const char *pre;
  const expr *root = stmt_root(s->walrus_of, &pre);
  strbuf b = {0};
  sb_puts(&b, pre);
  bool found = root && expr_path(root, s->walrus_of->walrus, &b);
  sb_puts(&b, "N");
  const char *path = found ? arena_strdup(E->m->a, b.data) : NULL;
  sb_free(&b);
  return path;
}

/* Statement s evaluates `(name := value)` first, its assignment hoisted
 * just before it (ir/stmt.c lower_walrus): the interpreter must not run
 * that again (value may call Python code, or read name). The read of name
 * standing for it is pending from s's start, so that every continuation
 * inside s takes its value there (mid_action), and none starts s again. */
void walrus_pending(em *E, const stmt *s) {
  if (E->rp.s != s) return; /* no continuations here */
  E->rp.effect = true;
  push_pending(E, s->walrus, local_name(E, s->walrus->u.local));
}

/* Appends pending operand p's path in statement s to subst (its value's,
 * or its target's: G, X), then @line:col; false when a continuation
 * cannot address or box it (a barrier's, a type it cannot box). *read:
 * p is `obj[i] op= v`'s read of its target. */
static bool pending_path(em *E, const stmt *s, const pending *p, strbuf *subst, bool *read) {
  const char *prefix;
  const expr *root = stmt_root(s, &prefix), *target = stmt_target(s);
  if (s->walrus_of) /* name = value, hoisted out of `(name := value)`: value, in that statement */
    prefix = walrus_prefix(E, s), target = NULL;
  *read = false;
  if (!p->e || !prefix) return false; /* push_barrier's */
  const type *t = p->t ? p->t : TY(p->e);
  int k = t->kind;
  if (!(p->boxed || is_scalar(t) || k == TY_NP || k == TY_OBJ || k == TY_LIST || ty_is_ndarray(t))) return false;
  if (s->kind == ST_FOR_RANGE) return range_path(s, p, subst);
  if (!root) return false;
  size_t mark = subst->len;
  sb_puts(subst, prefix);
  bool found = expr_path(root, p->e, subst);
  if (!found && target) { /* in the target: obj[i] = v evaluates obj and i after v */
    subst->len = mark;
    sb_puts(subst, p->e == target ? "X" : "G"); /* X: obj[i] op= v's read of obj[i] */
    found = p->e == target || expr_path(target, p->e, subst);
    *read = p->e == target;
  }
  if (found && p->formatted) { /* its field's step J<k> becomes W<k>: the whole field */
    char *j = strrchr(subst->data + mark, 'J');
    if (j) *j = 'W';
    else found = false;
  }
  if (found && p->held) { /* its operand step C<i> becomes D<i>: the chain from it on */
    char *c = strrchr(subst->data + mark, 'C');
    if (c) *c = 'D';
    else found = false;
  }
  if (found && p->prefix) { /* its item step T<i> becomes P<i>: the display's items up to it */
    char *t = strrchr(subst->data + mark, 'T');
    if (t) *t = 'P';
    else found = false;
  }
  sb_printf(subst, "@%d:%d", p->e->pos.line, p->e->pos.col - 1);
  return found;
}

/* Pending operand p boxed as a continuation takes it: a new reference, or
 * the one it owns already (p->boxed: the caller then clears p->v, moved). */
static const char *pending_box(em *E, const pending *p) {
  return p->boxed ? p->v : box_value_cold(E, p->v, p->t ? p->t : TY(p->e));
}

/* A failure here, in a statement that already had an effect: the action
 * that boxes the pending operands and goes on in the interpreter with the
 * statement run again around them (a mid_point), or NULL when that cannot
 * be exact: an effect in something the interpreter would evaluate again,
 * an operand the continuation cannot address, or one it cannot box. */
const char *mid_action(em *E) {
  restart *rp = &E->rp;
  int n = E->nvstack - rp->vbase;
  bool full = E->nvstack == VSTACK_CAP; /* some unrecorded */
  if (!E->conts || !rp->s || !rp->effect || E->exported || n <= 0 || full) return NULL;
  if (E->vstack[E->nvstack - 1].neffects != rp->neffects) return NULL;
  bool aug = rp->s->kind == ST_AUGASSIGN;
  int label = rp->mid_label ? rp->mid_label : E->label + 1; /* taken below if used */
  strbuf subst = {0}, boxes = {0}, checks = {0};
  bool ok = true, read_kept = false;
  for (int i = 0; ok && i < n; i++) {
    const pending *p = &E->vstack[rp->vbase + i];
    bool read;
    if (i) sb_puts(&subst, ";");
    ok = pending_path(E, rp->s, p, &subst, &read);
    read_kept |= read;
    if (ok && p->quiet)
      sb_printf(&checks, "\n  if (!dynac_quiet_value(%s)) return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
                p->v, rp->s->pos.line);
    if (ok) sb_printf(&boxes, "\n  mv%d[%d] = %s;", label, i, pending_box(E, p));
    if (ok && p->boxed) sb_printf(&boxes, "\n  %s = NULL;", p->v);
  }
  if (aug && stmt_target(rp->s) && !read_kept) ok = false; /* the interpreter would read obj[i] again, after v's effects */
  const char *action = NULL;
  if (ok) {
    mid_point *mp = arena_alloc(E->m->a, sizeof *mp);
    *mp = (mid_point){.n = n, .subst = arena_strdup(E->m->a, subst.data), .next = rp->mids};
    rp->mids = mp;
    if (!rp->mid_label) rp->mid_label = ++E->label;
    if (n > rp->max_pending) rp->max_pending = n;
    action = arena_printf(E->m->a,
                          "{ /* goes on in the interpreter */\n"
                          "  if (!dynac__effects && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; /* nothing done */%s%s\n"
                          "  mk%d = %d;\n  goto dynac_mid_%d;\n}",
                          checks.data ? checks.data : "", boxes.data, label, rp->nmids++, label);
  }
  sb_free(&subst);
  sb_free(&boxes);
  sb_free(&checks);
  return action;
}

/* ---- comprehensions: their clauses go on through their statement ----------
 * A comprehension is its own frame in CPython; its clauses are loops here.
 * A deoptimisation in them after an effect goes on in the interpreter with
 * the rest of the clauses as loops filling the partial result (its names
 * renamed, _continue.py: _comprehension_rest), then the statement holding
 * it with that result in its place. */

/* any() or all() of a generator: its loop stops at the deciding item, and
 * what it made so far is only that no item decided (continuing, the
 * interpreter's any() or all() takes the rest of the items). */
static bool consumes_early(const expr *c) { return c->u.comp.consumer == 'a' || c->u.comp.consumer == 'A'; }

/* Where IR statement s stands in comprehension c's clauses: *clause its for
 * clause (from 0), *cond an if clause's index among that clause's
 * conditions; 'F' a for clause, 'C' an if clause, 'E' the element's append
 * or insert; 0 when s is none of them. */
static char comp_part(const expr *c, const stmt *s, int *clause, int *cond) {
  *clause = -1, *cond = 0;
  for (const stmt *t = c->u.comp.loop; t;) {
    if (t->kind == ST_FOR_RANGE || t->kind == ST_FOR_ITER) {
      ++*clause, *cond = 0;
      if (t == s) return 'F';
      t = t->u.for_.body;
    } else if (t->kind == ST_IF && !(consumes_early(c) && t->u.if_.then->kind == ST_ASSIGN)) {
      if (t == s) return 'C';
      ++*cond;
      t = t->u.if_.then;
    } else /* the element's append or insert; any()'s and all()'s `if [not] elt:` */
      return t == s ? 'E' : 0;
  }
  return 0;
}

static int target_locals(const target *t, int *out, int n, int cap) {
  if (!t->is_tuple) {
    if (!t->sub && n < cap) out[n++] = t->local;
    return n;
  }
  for (int i = 0; i < t->n; i++) n = target_locals(t->elts[i], out, n, cap);
  return n;
}

/* The hidden locals comprehension c's for clauses bind, in clause order
 * (at most cap): how many. */
static int comp_targets(const expr *c, int *out, int cap) {
  int n = 0;
  for (const stmt *t = c->u.comp.loop; t;) {
    if (t->kind == ST_FOR_RANGE || t->kind == ST_FOR_ITER) {
      n = target_locals(t->u.for_.tgt, out, n, cap);
      t = t->u.for_.body;
    } else
      t = t->kind == ST_IF ? t->u.if_.then : NULL;
  }
  return n;
}

/* Comprehension e's continuation as it starts (emit_comprehension_loops),
 * or NULL: one inside another (a consumer taking the items' list goes on
 * with that list, as the kernel does; any() and all() with the rest of the
 * items; sum(), min() and max() folding objects with the fold so far too),
 * no statement to go on through, an effect of that statement the
 * interpreter would repeat (one not inside its pending operands), or a
 * pending operand a continuation cannot take. */
const comp_cont *comp_enter(em *E, const expr *e) {
  const restart *rp = &E->rp;
  const char *prefix;
  if (!E->conts || E->comp || !rp->s || rp->comp || E->exported ||
      !stmt_root(rp->s, &prefix))
    return NULL;
  int from = rp->vbase, to = E->nvstack;
  if (to == VSTACK_CAP || (rp->neffects && (to == from || E->vstack[to - 1].neffects != rp->neffects)))
    return NULL;
  strbuf subst = {0};
  bool ok = true, read_kept = false;
  for (int i = from; ok && i < to; i++) {
    bool read = false;
    if (i > from) sb_puts(&subst, ";");
    ok = !E->vstack[i].quiet && pending_path(E, rp->s, &E->vstack[i], &subst, &read);
    read_kept |= read;
  }
  if (rp->s->kind == ST_AUGASSIGN && stmt_target(rp->s) && !read_kept) ok = false;
  comp_cont *cc = NULL;
  if (ok) {
    cc = arena_alloc(E->m->a, sizeof *cc);
    *cc = (comp_cont){.comp = e, .s = rp->s, .subst = arena_strdup(E->m->a, subst.data ? subst.data : ""),
                      .vfrom = from, .vto = to};
  }
  sb_free(&subst);
  return cc;
}

/* Opens a restart point at statement s (header: the head of for loop s):
 * the code emitted until restart_close goes to a buffer of its own, so the
 * continuation block can be written before it. Returns the outer one. */
restart restart_open(em *E, const stmt *s, bool header) {
  restart outer = E->rp;
  if (!E->conts || E->routed_comps) return outer; /* a routed comprehension's: the enclosing one serves */
  E->rp = (restart){.s = s, .header = header, .outer_b = E->b, .indent = E->indent,
                    .nloops = E->ncloops, .versions = E->versions, .vbase = E->nvstack};
  char part = E->comp_cont && E->comp == E->comp_cont->comp
      ? comp_part(E->comp, s, &E->rp.clause, &E->rp.cond) : 0;
  if (part) E->rp.comp = E->comp_cont, E->rp.part = header ? 'H' : part;
  E->b = arena_alloc(E->m->a, sizeof(strbuf));
  return outer;
}

/* Closes it: its continuation block (if a deoptimisation used it), then
 * its code, go to the enclosing buffer. */
void restart_close(em *E, restart outer) {
  if (!E->conts || E->routed_comps) return;
  strbuf *own = E->b;
  E->b = E->rp.outer_b;
  int indent = E->indent;
  E->indent = E->rp.indent;
  if (E->rp.label) cont_block(E, &E->rp, E->rp.header ? CONT_HEAD : CONT_START);
  if (E->rp.after_label) cont_block(E, &E->rp, CONT_AFTER);
  if (E->rp.mid_label) cont_block(E, &E->rp, CONT_MID);
  E->indent = indent;
  if (own->data) sb_putn(E->b, own->data, own->len);
  sb_free(own);
  E->rp = outer;
}
