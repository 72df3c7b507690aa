/* stmt.c: statements typed: assignment targets bind local types, returns
 * join the result type, loops type their targets; flow ends (return,
 * raise, an if decided by the types) leave the rest untyped.
 */
#include "infer.h"

#include <string.h>

static bool holds_ndarray(const type *t) {
  if (ty_is_ndarray(t)) return true;
  for (int i = 0; t->kind == TY_TUPLE && i < t->n; i++)
    if (holds_ndarray(t->elts[i])) return true;
  return false;
}

/* `return 0.1` / `return -1.0`: the first float literal the function
 * returns (inst.ret_literal; emit/values.c boxes a call's result equal to it
 * to one object). A builtin's value (float("inf"): e->guard) is not one. */
static void note_returned_literal(inst *in, const expr *e) {
  bool neg = e && e->kind == EX_UNARY && e->u.un.op == UN_NEG;
  const expr *lit = neg ? e->u.un.a : e;
  if (in->returns_literal || !lit || lit->kind != EX_FLOAT || lit->guard || (neg && e->guard)) return;
  in->returns_literal = true;
  in->ret_literal = neg ? -lit->u.f : lit->u.f;
}

/* `return x` of parameter x: inst.ret_params (the glue returns the
 * caller's object of x, as CPython returns the frame's object). */
static void note_returned_params(inst *in, const expr *e) {
  if (e && e->kind == EX_LOCAL && e->u.local < in->fn->nparams && e->u.local < 32)
    in->ret_params |= 1u << e->u.local;
}

static void ret_join(ctx *c, const type *t, srcpos pos) {
  inst *in = c->in;
  if (ty_is_ndarray(t) || (t->kind == TY_TUPLE && holds_ndarray(t)))
    t = &ty_obj; /* boxed by the kernel: the arrays it holds are released as it returns */
  if (t->kind == TY_NONE) { in->ret_may_be_none = true; return; }
  if (t->kind == TY_UNKNOWN) return;
  const type *j = ty_join(in->ret, t);
  if (j->kind == TY_CONFLICT) {
    type_fail(c, pos, arena_printf(c->m->a, "returns both %s and %s", ty_python_name(c->m->a, in->ret),
                              ty_python_name(c->m->a, t)));
    return;
  }
  if (j != in->ret) { in->ret = j; in->pass_changed = 1; }
}

/* May `NAME = value` (s) keep value, an instance made as its fields
 * (type.rec), in the local as fields? Only a value no other place holds
 * (a call's, an operator's: not another local's) into one plain local of a
 * function with no closures (a cell holds objects) and no graph breaks. */
static bool rec_local_target(ctx *c, const stmt *s) {
  const target *t = s->u.assign.targets[0];
  return s->u.assign.ntargets == 1 && !t->is_tuple && !t->sub && s->u.assign.value->kind != EX_LOCAL &&
         !c->in->fn->nowncells && !c->in->fn->partial && t->local >= c->in->fn->nparams;
}

static void type_cond(ctx *c, expr *e) {
  type_expr(c, e, true);
}

/* for target in c / enumerate(c) / zip(c1, ...) / reversed(c): lists and
 * buffers; the target gets an element, (index, element) or a tuple of
 * elements. `for target in obj` of any other object: its iterator's items,
 * and enumerate/zip of lists of objects too unless the target unpacks the
 * tuple (a tuple value holding objects is only ever unpacked). */
bool for_iter_is_generic(const inst *in, const stmt *s) {
  const target *tg = s->u.for_.tgt;
  int parts = s->u.for_.niters + (s->u.for_.how == 'e');
  bool unpacked = tg->is_tuple && tg->n == parts; /* `for i, a in enumerate(xs)`: no tuple of objects is made */
  for (int i = 0; i < s->u.for_.niters; i++) {
    const type *t = ty_of(in, s->u.for_.iters[i]);
    if (t->kind == TY_OBJ ||
        (t->kind == TY_LIST && t->elts[0]->kind == TY_OBJ && (s->u.for_.how == 'e' || s->u.for_.how == 'z') &&
         !unpacked) ||
        (t->kind == TY_TUPLE && s->u.for_.how == 'i' && s->u.for_.niters == 1)) /* boxed, then iterated */
      return true;
  }
  return false;
}

/* try/except/else: the handlers' classes are objects (a tuple display of
 * them is built as one), `as name` binds the exception object. */
static void type_try(ctx *c, stmt *s) {
  type_block(c, s->u.try_.body);
  for (int i = 0; i < s->u.try_.nhandlers; i++) {
    handler *h = &s->u.try_.handlers[i];
    bool tuple = h->type && h->type->kind == EX_TUPLE;
    for (int k = 0; h->type && k < (tuple ? h->type->u.tuple.n : 1); k++) {
      expr *x = tuple ? h->type->u.tuple.elts[k] : h->type;
      const type *t = type_expr(c, x, false);
      if (t->kind != TY_OBJ && t->kind != TY_UNKNOWN)
        type_fail(c, x->pos, arena_printf(c->m->a, "an except clause naming a %s (catching it raises "
                                          "TypeError)", ty_python_name(c->m->a, t)));
    }
    if (h->name && h->name->local < c->in->fn->nparams) /* a parameter has no unbound state here */
      type_fail(c, h->pos, "an except clause binding a parameter's name");
    else if (h->name) bind_target(c, h->name, &ty_obj, h->pos);
    type_block(c, h->body);
  }
  type_block(c, s->u.try_.orelse);
  type_block(c, s->u.try_.finalbody);
}

static void type_for_iter(ctx *c, stmt *s) {
  const type *el[8];
  bool unknown = false;
  int n = s->u.for_.niters;
  for (int i = 0; i < n; i++) type_expr(c, s->u.for_.iters[i], false);
  if (for_iter_is_generic(c->in, s) && (s->u.for_.how != 'i' || n > 1)) { /* enumerate/zip/reversed of objects: the builtin's
                                                        iterator, its items objects (tuples) */
    for (int i = 0; i < n; i++) {
      const type *t = TY(s->u.for_.iters[i]);
      if (t->kind != TY_UNKNOWN && !generic_operand(t)) {
        type_fail(c, s->u.for_.iters[i]->pos, arena_printf(c->m->a, "%s() of a %s and objects",
             s->u.for_.how == 'e' ? "enumerate" : s->u.for_.how == 'z' ? "zip" : "reversed",
             ty_python_name(c->m->a, t)));
        return;
      }
    }
    if (s->u.for_.start) type_expr(c, s->u.for_.start, false);
    if (s->u.for_.start && !generic_operand(TY(s->u.for_.start)) && TY(s->u.for_.start)->kind != TY_UNKNOWN) {
      type_fail(c, s->u.for_.start->pos, "enumerate() start that is not an int or object");
      return;
    }
    bind_target(c, s->u.for_.tgt, generic_op(c), s->pos);
    type_block(c, s->u.for_.body);
    type_block(c, s->u.for_.orelse);
    return;
  }
  for (int i = 0; i < n; i++) {
    const type *t = type_expr(c, s->u.for_.iters[i], false);
    if (t->kind == TY_UNKNOWN) { unknown = true; continue; }
    if (t->kind == TY_OBJ && n == 1 && s->u.for_.how == 'i') { /* PyObject_GetIter, PyIter_Next */
      el[i] = generic_op(c);
      continue;
    }
    if (t->kind == TY_TUPLE && n == 1 && s->u.for_.how == 'i') { /* a tuple value: boxed, then iterated */
      if (!generic_operand(t)) {
        type_fail(c, s->u.for_.iters[i]->pos, arena_printf(c->m->a, "for loop over a %s",
             ty_python_name(c->m->a, t)));
        return;
      }
      el[i] = generic_op(c);
      continue;
    }
    if ((t->kind != TY_LIST && t->kind != TY_BUF) || (t->kind == TY_BUF && t->ndim == 2)) {
      type_fail(c, s->u.for_.iters[i]->pos, arena_printf(c->m->a, "for loop over a %s%s",
           ty_python_name(c->m->a, t), t->kind == TY_BUF ? " (its items are rows)" : ""));
      return;
    }
    el[i] = ty_elem(t);
    if (el[i]->kind == TY_UNKNOWN) { /* `for i in []`: nothing says what its items would be */
      if (c->strict) type_fail(c, s->u.for_.iters[i]->pos, "for loop over a list whose element type is not known");
      unknown = true;
      continue;
    }
  }
  if (s->u.for_.start) {
    const type *st = type_expr(c, s->u.for_.start, false);
    if (st->kind != TY_INT && st->kind != TY_UNKNOWN) {
      type_fail(c, s->u.for_.start->pos, "enumerate() start that is not an int");
      return;
    }
  }
  if (!unknown) {
    const type *t = el[0];
    if (s->u.for_.how == 'z') t = ty_tuple(c->m->a, n, el);
    if (s->u.for_.how == 'e') {
      const type *pair[2] = {&ty_int, el[0]};
      t = ty_tuple(c->m->a, 2, pair);
    }
    bind_target(c, s->u.for_.tgt, t, s->pos);
  }
  type_block(c, s->u.for_.body);
  type_block(c, s->u.for_.orelse);
}

static void type_stmt(ctx *c, stmt *s) {
  switch (s->kind) {
  case ST_ASSIGN: {
    expr *v = s->u.assign.value;
    bool unpack = v->kind == EX_TUPLE;
    for (int i = 0; i < s->u.assign.ntargets; i++)
      if (!s->u.assign.targets[i]->is_tuple || s->u.assign.targets[i]->n != v->u.tuple.n) unpack = false;
    c->unpacked = unpack ? v : NULL;
    const type *t = type_expr(c, v, false);
    c->unpacked = NULL;
    const target *t0 = s->u.assign.targets[0];
    const type *at = s->u.assign.ntargets == 1 && !t0->is_tuple && !t0->sub ? array_result_type(c, v) : NULL;
    if (at) t = at; /* x = a * 2.0 + b: the local holds the new array typed */
    if (t->rec && !rec_local_target(c, s)) t = ty_unrec(t);
    for (int i = 0; i < s->u.assign.ntargets; i++) bind_target(c, s->u.assign.targets[i], t, s->pos);
    break;
  }
  case ST_AUGASSIGN: {
    if (s->u.aug.sub) { /* obj[index] op= value, obj.name op= value */
      const type *l = type_expr(c, s->u.aug.sub, false);
      const type *r = type_expr(c, s->u.aug.value, false);
      if (l->kind == TY_UNKNOWN || r->kind == TY_UNKNOWN) break;
      if (is_name_place(s->u.aug.sub) || TY(s->u.aug.sub->u.sub.obj)->kind == TY_OBJ ||
          array_object_place(c->in, s->u.aug.sub)) { /* get, in-place operator, set: the C API */
        if (s->u.aug.op_expr && ty_is_ndarray(l)) type_expr(c, s->u.aug.op_expr, false); /* (or a fused loop) */
        target tg = {.sub = s->u.aug.sub};
        expr fake = {.pos = s->pos};
        bind_target(c, &tg, binop_type(c, &fake, s->u.aug.op, l, r), s->pos);
        break;
      }
      if (s->u.aug.sub->kind == EX_ATTR) {
        type_fail(c, s->pos, arena_printf(c->m->a, "attribute store into a %s",
             ty_python_name(c->m->a, TY(s->u.aug.sub->u.sub.obj))));
        break;
      }
      if (l->kind == TY_OBJ || r->kind == TY_OBJ || l->kind == TY_LIST) {
        type_fail(c, s->pos, l->kind == TY_LIST ? "augmented assignment to a list element (it changes "
             "the list in place)" : "augmented assignment with an object");
        break;
      }
      expr fake = {.pos = s->pos};
      const type *res = binop_type(c, &fake, s->u.aug.op, l, r);
      if (TY(s->u.aug.sub->u.sub.obj)->kind == TY_TUPLE) {
        type_fail(c, s->pos, "tuples do not support item assignment");
        break;
      }
      c->in->effectful = true;
      if (res->kind != TY_CONFLICT) storable(c, s->pos, TY(s->u.aug.sub->u.sub.obj), res);
      break;
    }
    const type *l = c->in->local_ty[s->u.aug.local];
    const type *r = type_expr(c, s->u.aug.value, false);
    if (l->kind == TY_LIST && s->u.aug.op == OP_ADD && r->kind != TY_UNKNOWN) {
      /* list.__iadd__ extends the list itself (every alias sees it), which stays the local's */
      if (extendable(c, s->pos, l, r, "'+='")) c->in->effectful = true;
      break;
    }
    if (l->kind == TY_LIST) {
      type_fail(c, s->pos, arena_printf(c->m->a, "augmented assignment '%s=' to a list (it changes the "
                                   "list in place)", binop_spelling[s->u.aug.op]));
      break;
    }
    if (l->kind == TY_UNKNOWN) {
      if (c->strict) type_fail(c, s->pos, arena_printf(c->m->a, "local '%s' is read before any "
                          "assignment", c->in->fn->locals[s->u.aug.local]));
      break;
    }
    if (l->num_or_none) { /* its number where narrow.c proves its read not None (`else: best += x`) */
      expr *old = s->u.aug.op_expr ? s->u.aug.op_expr->u.bin.l : NULL;
      if (!old || !c->in->fn->not_none_numbers[old->id]) {
        type_fail(c, s->pos, arena_printf(c->m->a, "augmented assignment '%s=' to '%s' (%s), which may be None",
                                          binop_spelling[s->u.aug.op], c->in->fn->locals[s->u.aug.local],
                                          ty_python_name(c->m->a, l)));
        break;
      }
      l = type_expr(c, old, false);
      if (r->cls) { /* float += instance: the instance's __radd__ through CPython */
        type_fail(c, s->pos, "augmented assignment of an instance to a 'float | None' local");
        break;
      }
    }
    if (ty_is_ndarray(l) && (generic_operand(r) || r->kind == TY_NP)) { /* a += b: the array itself */
      if (s->u.aug.op_expr) type_expr(c, s->u.aug.op_expr, false); /* (a fused loop's tree: emit/fusion.c) */
      generic_op(c);
      break;
    }
    target tg = {.local = s->u.aug.local};
    if ((l->cls || r->cls) && s->u.aug.op_expr) { /* an instance's __iadd__ (or __add__), directly */
      const type *t = type_expr(c, s->u.aug.op_expr, false);
      if (c->in->types.callee[s->u.aug.op_expr->id] && t->cls && t->cls == l->cls) {
        bind_target(c, &tg, l->rec ? t : ty_unrec(t), s->pos); /* a struct result into an object local: its instance */
        break;
      }
      c->in->types.callee[s->u.aug.op_expr->id] = NULL; /* CPython's in-place operator */
    }
    expr fake = {.pos = s->pos};
    const type *res = binop_type(c, &fake, s->u.aug.op, l, r);
    bind_target(c, &tg, res, s->pos);
    break;
  }
  case ST_RETURN: {
    const type *t = s->u.ret ? type_expr(c, s->u.ret, false) : &ty_none;
    if (t->rec && s->u.ret->kind == EX_LOCAL && s->u.ret->u.local < c->in->fn->nparams)
      t = ty_unrec(t); /* the caller's struct: its instance itself (a local's moves out) */
    ret_join(c, t, s->pos);
    note_returned_literal(c->in, s->u.ret);
    note_returned_params(c->in, s->u.ret);
    break;
  }
  case ST_IF: { /* a branch `x is None` rules out for this instance is not typed */
    type_cond(c, s->u.if_.cond);
    int k = constant_truth(c->in, s->u.if_.cond);
    if (k != 0 && k != -2) type_block(c, s->u.if_.then);
    if (k != 1 && k != -2) type_block(c, s->u.if_.orelse);
    break;
  }
  case ST_WHILE:
    type_cond(c, s->u.while_.cond);
    type_block(c, s->u.while_.body);
    type_block(c, s->u.while_.orelse);
    break;
  case ST_FOR_RANGE: {
    expr *parts[3] = {s->u.for_.start, s->u.for_.stop, s->u.for_.step};
    for (int i = 0; i < 3; i++) {
      if (!parts[i]) continue;
      const type *t = type_expr(c, parts[i], false);
      if (t->kind == TY_OBJ) generic_op(c); /* taken through __index__ (dynac_range_bound) */
      else if (t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_UNKNOWN && t->kind != TY_NUM &&
          !is_np_int(t))
        type_fail(c, parts[i]->pos, arena_printf(c->m->a, "range() of a %s raises TypeError",
                                            ty_python_name(c->m->a, t)));
    }
    bind_target(c, s->u.for_.tgt, &ty_int, s->pos);
    type_block(c, s->u.for_.body);
    type_block(c, s->u.for_.orelse);
    break;
  }
  case ST_FOR_ITER: type_for_iter(c, s); break;
  case ST_EXPR: type_expr(c, s->u.expr, false); break;
  case ST_RAISE: {
    if (s->u.raise_.guard) use_named_slot(c, s->u.raise_.guard->index);
    expr *parts[3] = {s->u.raise_.arg, s->u.raise_.obj, s->u.raise_.cause};
    for (int i = 0; i < 3; i++) {
      const type *t = parts[i] ? type_expr(c, parts[i], false) : &ty_none;
      if (t->kind == TY_TUPLE || t->kind == TY_BUF || t->kind == TY_NP)
        type_fail(c, parts[i]->pos, arena_printf(c->m->a, "raise with a %s", ty_python_name(c->m->a, t)));
    }
    break;
  }
  case ST_DEL: for (int i = 0; i < s->u.del.n; i++) type_delete(c, s->u.del.subs[i]); break;
  case ST_TRY: type_try(c, s); break;
  case ST_WITH: {
    const type *t = type_expr(c, s->u.with.mgr, false);
    if (t->kind != TY_OBJ && t->kind != TY_UNKNOWN)
      type_fail(c, s->u.with.mgr->pos, arena_printf(c->m->a, "with a %s (not a context manager: TypeError)",
                                                    ty_python_name(c->m->a, t)));
    generic_op(c); /* __enter__ and __exit__ run */
    if (s->u.with.tgt) bind_target(c, s->u.with.tgt, &ty_obj, s->pos);
    type_block(c, s->u.with.body);
    break;
  }
  case ST_IMPORT: /* the module's code may run: an effect */
    use_named_slot(c, s->u.import_.import_fn->index);
    generic_op(c);
    for (int i = 0; i < s->u.import_.n; i++) bind_target(c, s->u.import_.tgts[i], &ty_obj, s->pos);
    break;
  case ST_BREAK: case ST_CONTINUE: case ST_PASS: case ST_INTERP: break;
  }
}

bool ends_flow(const inst *in, const stmt *s) {
  if (s->kind == ST_RETURN || s->kind == ST_RAISE) return true;
  if (s->kind == ST_TRY) { /* its finally, or the body (or its else) and every handler end so */
    if (s->u.try_.has_finally && !falls_through(in, s->u.try_.finalbody)) return true;
    for (int i = 0; i < s->u.try_.nhandlers; i++)
      if (falls_through(in, s->u.try_.handlers[i].body)) return false;
    return !falls_through(in, s->u.try_.body) || (s->u.try_.orelse && !falls_through(in, s->u.try_.orelse));
  }
  if (s->kind != ST_IF || s->u.if_.assert_) return false; /* loops included: a break may leave
                                                               them; an assert may be skipped (-O) */
  int k = constant_truth(in, s->u.if_.cond);
  if (k == 1) return !falls_through(in, s->u.if_.then);
  if (k == 0) return !falls_through(in, s->u.if_.orelse);
  return s->u.if_.orelse && !falls_through(in, s->u.if_.then) && !falls_through(in, s->u.if_.orelse);
}

/* Statements after one that ends the flow (`if key is None: return ...`
 * when key is None) are not typed: their types may not fit this instance. */
void type_block(ctx *c, stmt *s) {
  for (; s; s = s->next) {
    type_stmt(c, s);
    if (ends_flow(c->in, s)) break;
  }
}

/* Can control reach the end of this block? (conservative: may say yes) */
bool falls_through(const inst *in, stmt *s) {
  for (; s; s = s->next) if (ends_flow(in, s)) return false;
  return true;
}

/* The function body; for partial functions with the index of each top-level
 * statement, so a failure sends just that statement to the interpreter. */
static void type_split_block(ctx *c, stmt *b) {
  for (stmt *s = b; s; s = s->next) {
    c->top = s->split_id;
    type_stmt(c, s);
    for (int i = 0; i < s->nblocks; i++) type_split_block(c, s->blocks[i]);
  }
}

void use_class_guards(ctx *c, const type *t) {
  if (t->kind == TY_OBJ && t->cls && t->cls->slot) c->in->slots_used[t->cls->slot->index] = true;
  if (t->kind == TY_LIST || t->kind == TY_TUPLE)
    for (int i = 0; i < t->n; i++) use_class_guards(c, t->elts[i]);
}

void type_body(ctx *c) {
  for (int i = 0; i < c->in->fn->nparams; i++) use_class_guards(c, c->in->args[i]);
  if (!c->in->fn->partial) { type_block(c, c->in->fn->body); return; }
  type_split_block(c, c->in->fn->body);
  c->top = -1;
}

/* A list or tuple whose elements are lists: the inner ones are borrowed. */
bool holds_nested_container(const type *t) {
  if (t->kind != TY_LIST && t->kind != TY_TUPLE) return false;
  for (int i = 0; i < t->n; i++)
    if (t->elts[i]->kind == TY_LIST || holds_nested_container(t->elts[i])) return true;
  return false;
}
