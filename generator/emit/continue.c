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
  const char *boxed = (t->kind == TY_OBJ && !t->rec) || owned_list_local(E->in, v)
      ? arena_printf(E->m->a, "Py_XNewRef(l_%s)", c) : box_value(E, local_name(E, v), t); /* a struct: its instance */
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
                                         : box_value(E, L->objs[i], t);
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

/* The dynac_cont_site of a continuation (its initialiser's fields). */
static void cont_site_fields(em *E, const restart *rp, int mode, const mid_point *mp) {
  func *f = E->in->fn;
  strbuf names = {0};
  for (int i = 0; i < f->nbase; i++) sb_printf(&names, "%s%s", i ? "," : "", f->locals[i]);
  for (int i = 0; mp && i < mp->n; i++) sb_printf(&names, "%s_dynac_v%d", names.len ? "," : "", i);
  line(E, "{.qualname = %s, .firstlineno = %d, .line = %d, .col = %d, .header = %d,",
       c_string(E->m, f->qualname), f->firstlineno, rp->s->pos.line, rp->s->pos.col - 1, mode);
  line(E, " .names = %s, .nvals = %d, .nits = %d, .subst = %s,",
       c_string(E->m, names.data ? names.data : ""), f->nbase + (mp ? mp->n : 0), rp->nloops,
       mp ? c_string(E->m, mp->subst) : "NULL");
  line(E, " .region = %s},", E->reg ? c_string(E->m, region_spec(E)) : "NULL");
  sb_free(&names);
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
  int nvals = f->nbase + (mid ? rp->max_pending : 0), nits = rp->nloops;
  if (after) line(E, "PyObject *av%d = NULL; /* the exact value of a failed operation */", label);
  if (mid) line(E, "PyObject *mv%d[%d] = {NULL}; /* the operands pending at failure mk%d */", label,
                rp->max_pending, label);
  if (mid) line(E, "int mk%d = 0;", label);
  static const char *const kinds[] = {"cont", "cont", "after", "mid"};
  static const char *const how[] = {"from here", "from here", "after this statement",
                                    "in this statement, around the operands it had evaluated"};
  line(E, "if (0) {");
  line(E, "dynac_%s_%d: DYNAC_COLD_LABEL; { /* line %d: the call goes on in the interpreter %s */", kinds[mode], label,
       rp->s->pos.line, how[mode]);
  E->indent++;
  line(E, "PyObject *cv[%d] = {NULL}, *ci[%d] = {NULL};", nvals ? nvals : 1, nits ? nits : 1);
  for (int i = 0; i < f->nbase; i++) {
    int v = versions ? versions[i] : i;
    const char *val = i == assigned ? arena_printf(E->m->a, "av%d", label) : cont_value(E, v);
    if (strcmp(val, "NULL")) line(E, "cv[%d] = %s; /* %s */", i, val, f->locals[i]);
  }
  for (int i = 0; i < f->nbase && !E->reg; i++) { /* the continuation holds the locals from here (a del frees) */
    int v = versions ? versions[i] : i;
    const type *lt = E->in->local_ty[v];
    if (lt->rec && v >= f->nparams && i != assigned) /* the continuation holds its instance */
      line(E, "dynac_rec_release(&%s.h);", local_name(E, v));
    else if (i != assigned && !lt->rec && (lt->kind == TY_OBJ || owned_list_local(E->in, v)) &&
             !borrowed_param(E->in, v))
      line(E, "Py_CLEAR(%s);", local_name(E, v));
  }
  for (int i = 0; mid && i < rp->max_pending; i++) line(E, "cv[%d] = mv%d[%d];", f->nbase + i, label, i);
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
  case ST_IF: return s->u.if_.assert_ ? s->u.if_.cond->u.not_arg : s->u.if_.cond; /* assert: `if not test` */
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
  case EX_ATTR: snprintf(step, 16, "O"); return i == 0 ? e->u.sub.obj : NULL;
  case EX_SUBSCRIPT: tag = 'S', kid = i == 0 ? e->u.sub.obj : i == 1 ? e->u.sub.index : NULL; break;
  case EX_TUPLE: case EX_LIST: case EX_SET: tag = 'T', kid = i < e->u.tuple.n ? e->u.tuple.elts[i] : NULL; break;
  case EX_DICT: return dict_child(e, i, step);
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
  const char *prefix;
  const expr *root = stmt_root(rp->s, &prefix), *target = stmt_target(rp->s);
  bool aug = rp->s->kind == ST_AUGASSIGN;
  if (!root) return NULL;
  int label = rp->mid_label ? rp->mid_label : E->label + 1; /* taken below if used */
  strbuf subst = {0}, boxes = {0}, checks = {0};
  bool ok = true, read_kept = false;
  for (int i = 0; ok && i < n; i++) {
    const pending *p = &E->vstack[rp->vbase + i];
    if (!p->e) { ok = false; break; } /* push_barrier's */
    const type *t = p->t ? p->t : TY(p->e);
    int k = t->kind;
    ok = p->boxed || is_scalar(t) || k == TY_NP || k == TY_OBJ || k == TY_LIST || ty_is_ndarray(t);
    if (i) sb_puts(&subst, ";");
    size_t mark = subst.len;
    sb_puts(&subst, prefix);
    bool found = ok && expr_path(root, p->e, &subst);
    if (ok && !found && target) { /* in the target: obj[i] = v evaluates obj and i after v */
      subst.len = mark;
      sb_puts(&subst, p->e == target ? "X" : "G"); /* X: obj[i] op= v's read of obj[i] */
      found = p->e == target || expr_path(target, p->e, &subst);
      read_kept |= p->e == target;
    }
    ok = found;
    sb_printf(&subst, "@%d:%d", p->e->pos.line, p->e->pos.col - 1);
    if (ok && p->quiet)
      sb_printf(&checks, "\n  if (!dynac_quiet_value(%s)) return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
                p->v, rp->s->pos.line);
    if (ok && p->boxed) sb_printf(&boxes, "\n  mv%d[%d] = %s;\n  %s = NULL;", label, i, p->v, p->v);
    else if (ok) sb_printf(&boxes, "\n  mv%d[%d] = %s;", label, i, box_value(E, p->v, t));
  }
  if (aug && target && !read_kept) ok = false; /* the interpreter would read obj[i] again, after v's effects */
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

/* Opens a restart point at statement s (header: the head of for loop s):
 * the code emitted until restart_close goes to a buffer of its own, so the
 * continuation block can be written before it. Returns the outer one. */
restart restart_open(em *E, const stmt *s, bool header) {
  restart outer = E->rp;
  if (!E->conts) return outer;
  E->rp = (restart){.s = s, .header = header, .outer_b = E->b, .indent = E->indent,
                    .nloops = E->ncloops, .versions = E->versions, .vbase = E->nvstack};
  E->b = arena_alloc(E->m->a, sizeof(strbuf));
  return outer;
}

/* Closes it: its continuation block (if a deoptimisation used it), then
 * its code, go to the enclosing buffer. */
void restart_close(em *E, restart outer) {
  if (!E->conts) return;
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
