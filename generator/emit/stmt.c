/* stmt.c: statements: assignments and their targets, if/while/return and
 * the rest, blocks, definite assignment (no UnboundLocalError check where a
 * local is bound on every path).
 */
#include "emit.h"

typedef struct write_scan { em *E; bool any; } write_scan;
static void may_write_sub(void *scan, expr *e);

/* Definite assignment over structured control flow: a local assigned on
 * every path to a read needs no UnboundLocalError check. */
bool *bound_save(em *E) {
  bool *b = arena_alloc(E->m->a, sizeof(bool) * (size_t)(E->in->fn->nlocals + 1));
  memcpy(b, E->bound, sizeof(bool) * (size_t)E->in->fn->nlocals);
  return b;
}
void bound_restore(em *E, const bool *b) {
  memcpy(E->bound, b, sizeof(bool) * (size_t)E->in->fn->nlocals);
}
void bound_intersect(em *E, const bool *b) {
  for (int i = 0; i < E->in->fn->nlocals; i++) E->bound[i] = E->bound[i] && b[i];
}

/* ---- statements ------------------------------------------------------------ */

/* `return None`: a kernel typed to return an object returns the object None. */
const char *return_none(inst *in) {
  return in->ret->kind == TY_OBJ && !in->ret->rec ? "*dynac_out = Py_NewRef(Py_None);\nreturn DYNAC_OK;"
                                                  : "return DYNAC_OK_NONE;";
}

/* del NAME of a local (DELETE_FAST): UnboundLocalError when it is unbound
 * (the interpreter raises it), else its reference dropped and it unbound. */
static void emit_local_delete(em *E, int loc) {
  if (!E->bound[loc]) unbound_check(E, loc);
  const type *lt = E->in->local_ty[loc];
  if (lt->kind == TY_OBJ || owned_list_local(E->in, loc)) {
    line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* __del__ may run */");
    note_effect(E);
    if (lt->rec) line(E, "dynac_rec_release(&%s.h); /* del %s */", local_name(E, loc), E->in->fn->locals[loc]);
    else line(E, "Py_CLEAR(%s); /* del %s */", local_name(E, loc), E->in->fn->locals[loc]);
  }
  line(E, "b_%s = false;", E->in->fn->local_cnames[loc]);
  E->bound[loc] = false;
}

/* After NAME = v into version `loc` of a local the IR split by type (n =
 * Noisy(x) ... n = None): the other versions' objects are released, as
 * STORE_FAST releases the name's old value (its __del__ runs now, not when
 * the kernel returns). A later read of NAME reads `loc`. */
static void release_other_versions(em *E, int loc) {
  const func *f = E->in->fn;
  if (E->reg || E->exported) return;
  for (int j = 0; j < f->nlocals; j++) {
    const type *jt = E->in->local_ty[j];
    if (j == loc || j < f->nparams || strcmp(f->locals[j], f->locals[loc])) continue;
    if (jt->rec) line(E, "dynac_rec_release(&%s.h); /* %s's other version */", local_name(E, j), f->locals[j]);
    else if (jt->kind == TY_OBJ || owned_list_local(E->in, j))
      line(E, "Py_CLEAR(%s); /* %s's other version */", local_name(E, j), f->locals[j]);
    else continue;
    line(E, "b_%s = false;", f->local_cnames[j]);
  }
}

/* obj.name = v where obj is an instance kept as fields and name one of
 * them, v of its type: the field's store (records.c). False when not such. */
static bool assign_rec_field(em *E, target *t, const char *v, const type *vt) {
  if (!t->sub || t->sub->kind != EX_ATTR || E->exported || E->in->types.callee[t->sub->id]) return false;
  const type *ot = TY(t->sub->u.sub.obj);
  int i = ot->rec ? classes_field(ot->cls, t->sub->u.sub.attr) : -1;
  if (i < 0 || ot->cls->field_types[i] != vt) return false;
  emit_rec_store(E, emit_expr_rec(E, t->sub->u.sub.obj), ot->cls, i, v);
  return true;
}

void assign_target(em *E, target *t, const char *v, const type *vt) {
  if (assign_rec_field(E, t, v, vt)) return;
  if (t->sub && (is_name_place(t->sub) || t->sub->kind == EX_SLICE || TY(t->sub->u.sub.obj)->kind == TY_OBJ ||
                 array_object_place(E->in, t->sub))) {
    /* obj.name = v, obj[key] = v, obj[lo:hi:step] = v (also of a list: PyObject_SetItem), a
       global's or nonlocal's NAME = v */
    emit_object_store(E, t->sub, v, vt);
    return;
  }
  if (t->sub) { /* obj[index] = v: after the value, obj then index are evaluated */
    const type *ot = TY(t->sub->u.sub.obj);
    const char *obj = keep(E, emit_expr(E, t->sub->u.sub.obj), ot);
    const char *c = shaped_position(E, t->sub);
    elem_store(E, obj, ot, c ? &(positions){{c, NULL}, {"true", NULL}} : emit_index(E, t->sub), v, vt, false);
    return;
  }
  if (t->is_tuple && (vt->kind == TY_OBJ || target_starred(t))) { /* a, b = obj: UNPACK_SEQUENCE; a, *b = v:
                                                                    UNPACK_EX of v boxed */
    if (vt->kind != TY_OBJ) {
      const char *o = tmpvar(E, &ty_obj);
      line(E, "%s = %s;", o, box_value(E, v, vt));
      line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
      v = o;
    }
    emit_object_unpack(E, t, v);
    return;
  }
  if (t->is_tuple && vt->kind == TY_LIST && E->shaped_target) { /* proven: t->n floats */
    for (int i = 0; i < t->n; i++)
      assign_target(E, t->elts[i], arena_printf(E->m->a, "PyFloat_AS_DOUBLE(PyList_GET_ITEM(%s, %d))", v, i),
                    vt->elts[0]);
    return;
  }
  if (t->is_tuple && vt->kind == TY_LIST) { /* [a, b] = lst: exactly len(lst) names */
    line(E, "if (PyList_GET_SIZE(%s) != %d) {", v, t->n);
    if (E->effectful) line(E, "  if (!dynac__effects) return DYNAC_DEOPT;");
    line(E, "  DYNAC_LEAVE(%s);", E->effectful ? arena_printf(E->m->a, "dynac_raise_unpack(%d, "
         "PyList_GET_SIZE(%s), %s)", t->n, v, where(E)) : "DYNAC_DEOPT");
    line(E, "}");
    /* numbers: their type tests joined (|, no short cut: each test reads
     * one item and writes its value only when the type is right), so one
     * branch leaves for any of them */
    const type *et = vt->elts[0];
    bool joined = et->kind == TY_FLOAT || et->kind == TY_INT || et->kind == TY_BOOL;
    const char *vals[64];
    strbuf cond = {0};
    for (int i = 0; i < t->n && i < 64; i++) {
      vals[i] = tmpvar(E, et);
      const char *c = elem_unbox_cond(E, et, arena_printf(E->m->a, "PyList_GET_ITEM(%s, %d)", v, i), vals[i]);
      if (joined) sb_printf(&cond, "%s%s", i ? " |\n    " : "", c);
      else fail_if(E, "DYNAC_FAIL_NONE_RESULT", "an element of another type", c, NULL);
    }
    if (joined && cond.data)
      fail_if(E, "DYNAC_FAIL_NONE_RESULT", "an element of another type", arena_printf(E->m->a, "%s", cond.data), NULL);
    sb_free(&cond);
    for (int i = 0; i < t->n && i < 64; i++) assign_target(E, t->elts[i], vals[i], vt->elts[0]);
    return;
  }
  if (!t->is_tuple) {
    const type *lt = E->in->local_ty[t->local];
    if (vt->kind == TY_OBJ && ty_is_ndarray(lt)) { /* x = a * 2.0 + b: the new array, pinned */
      v = emit_pinned_result(E, v, lt);
      vt = lt;
    }
    if (lt->rec) /* a struct: the value moves in, the old one released (STORE_FAST) */
      line(E, "dynac_rec_move(&%s, &%s, sizeof %s);", local_name(E, t->local),
           is_rec_value(v) ? v : rec_of_object(E, v, lt->cls), local_name(E, t->local));
    else if (lt->kind == TY_OBJ || owned_list_local(E->in, t->local)) /* the old value is released, as STORE_FAST does */
      line(E, "if (dynac_obj_set(&%s, Py_NewRef(%s)) < 0) DYNAC_LEAVE(DYNAC_ERROR);", local_name(E, t->local),
           convert(E, v, vt, lt));
    else line(E, "%s = %s;", local_name(E, t->local), convert(E, v, vt, lt));
    if (t->local >= E->in->fn->nparams || E->reg)
      line(E, "b_%s = true;", E->in->fn->local_cnames[t->local]);
    E->bound[t->local] = true;
    release_other_versions(E, t->local);
    return;
  }
  for (int i = 0; i < t->n; i++)
    assign_target(E, t->elts[i], arena_printf(E->m->a, "%s.v%d", v, i), vt->elts[i]);
}

/* Could evaluating `e` change a list (its length or an element)? Calls of
 * kernels and methods, operations on objects (Python code) and
 * comprehensions may; arithmetic, reads and builtins of numbers do not (a
 * failure there leaves the kernel). */
static bool may_write(em *E, expr *e) {
  if (e->kind == EX_LISTCOMP || TY(e)->kind == TY_OBJ) return true;
  if (e->kind == EX_CALL && e->u.call.kind != CALLEE_BUILTIN && e->u.call.kind != CALLEE_MATH) return true;
  write_scan S = {E, false};
  ir_each_subexpr(e, may_write_sub, &S);
  return S.any;
}
static void may_write_sub(void *scan, expr *e) {
  write_scan *S = scan;
  if (may_write(S->E, e)) S->any = true;
}

/* targets = value: the value once, then each target. */
static void emit_assign(em *E, stmt *s) {
  if (emit_fused_store(E, s)) return; /* a[1:-1] = <whole-array expression>: into the target */
  bool simple = s->u.assign.ntargets == 1 && !s->u.assign.targets[0]->is_tuple;
  if (simple && !s->u.assign.targets[0]->sub && s->u.assign.value->kind == EX_BINOP &&
      !s->walrus_of) /* (a hoisted one: the interpreter goes on in its statement, not after it) */
    E->assigned = s->u.assign.value, E->assigned_local = s->u.assign.targets[0]->local;
  const target *t0 = s->u.assign.targets[0];
  bool rec = simple && !t0->sub && E->in->local_ty[t0->local]->rec; /* into a struct local: the struct */
  const char *v = rec ? emit_expr_rec(E, s->u.assign.value) : emit_expr(E, s->u.assign.value);
  E->assigned = NULL;
  const type *vt = TY(s->u.assign.value);
  if (!simple && s->u.assign.value->kind != EX_TUPLE && vt->kind != TY_NONE) { /* (None: a constant) */
    v = keep_always(E, v, vt); /* an object: its own reference (v may be a borrowed local) */
  }
  int depth = E->nvstack;
  if (simple && s->u.assign.targets[0]->sub) /* obj[i] = v: v is pending while obj and i are evaluated */
    push_pending(E, s->u.assign.value, v);
  for (int i = 0; i < s->u.assign.ntargets; i++) assign_target(E, s->u.assign.targets[i], v, vt);
  E->nvstack = depth;
}

/* x op= v of a local, or obj[i] op= v: obj, i, the item, v, the operation, the store. */
static void emit_augassign(em *E, stmt *s) {
  if (E->spec && emit_promoted_augassign(E, s)) return; /* acc[i, 0] += v kept in a C local */
  if (s->u.aug.sub && s->u.aug.op_expr && emit_fused_inplace(E, s->u.aug.op_expr, s->u.aug.sub))
    return; /* u[1:-1] += v: one loop, into the slice */
  if (s->u.aug.sub && (is_name_place(s->u.aug.sub) || TY(s->u.aug.sub->u.sub.obj)->kind == TY_OBJ ||
                      array_object_place(E->in, s->u.aug.sub))) {
    emit_object_augassign(E, s);
    return;
  }
  if (s->u.aug.sub) { /* obj[i] op= v: obj, i, the element, v, the operation, the store */
    expr *sub = s->u.aug.sub, *index = sub->u.sub.index;
    const type *ot = TY(sub->u.sub.obj);
    int depth = E->nvstack;
    const char *obj = keep(E, emit_expr(E, sub->u.sub.obj), ot);
    const char *checked = shaped_position(E, sub); /* the item's index, checked by the read */
    const positions *idx = checked ? NULL : emit_index(E, sub);
    const char *old = checked ? shaped_item(E, obj, checked) : elem_read(E, obj, ot, idx, sub->u.sub.index, &checked);
    /* for a continuation: the object, the index (unless a local or a literal, which it reads again:
       a 1-D position not hoisted out of a loop, as evaluated) and the read, before the value */
    bool inert = index->kind == EX_LOCAL || index->kind == EX_INT;
    bool one = idx && !idx->in_range[0] && !(ot->kind == TY_BUF && ot->ndim == 2);
    if (inert || one) {
      push_pending(E, sub->u.sub.obj, obj);
      if (!inert) push_typed(E, index, idx->at[0], &ty_int);
      push_pending(E, sub, old);
    }
    const char *r = emit_aug_value(E, s, TY(sub));
    const type *res = binop_result(s->u.aug.op, TY(sub), TY(s->u.aug.value));
    const char *v = emit_binop_values(E, s->u.aug.op, old, TY(sub), r, TY(s->u.aug.value), res);
    E->nvstack = depth;
    /* the item just read, which nothing in between can have moved or changed (a buffer's
       length is fixed while the kernel holds it): its index is checked, its value plain */
    bool reuse = checked && (ot->kind == TY_BUF || !idx || !may_write(E, s->u.aug.value));
    positions same = {{checked, NULL}, {"true", NULL}};
    elem_store(E, obj, ot, reuse ? &same : idx, keep(E, v, res), res, reuse);
    return;
  }
  int loc = s->u.aug.local;
  const type *lt = E->in->local_ty[loc];
  if (!E->bound[loc])
    unbound_check(E, loc);
  expr *direct = s->u.aug.op_expr;
  if (direct && E->in->types.callee[direct->id] && !E->exported) { /* an instance's __iadd__, ... */
    if (lt->rec) { /* its struct, replaced by the result's */
      const char *v = emit_expr_rec(E, direct);
      line(E, "dynac_rec_move(&%s, &%s, sizeof %s);", local_name(E, loc), v, local_name(E, loc));
      return;
    }
    const char *v = emit_expr(E, direct);
    line(E, "if (dynac_obj_set(&%s, Py_NewRef(%s)) < 0) DYNAC_LEAVE(DYNAC_ERROR);", local_name(E, loc), v);
    return;
  }
  if (lt->num_or_none) { /* narrowed (infer): its number's operation, the result boxed into the local */
    const type *held = lt->num_or_none;
    const char *old = emit_expr(E, direct->u.bin.l); /* dynac_held_float(local): not None here */
    const char *r = emit_aug_value(E, s, held);
    const type *res = binop_result(s->u.aug.op, held, TY(s->u.aug.value));
    const char *v = emit_binop_values(E, s->u.aug.op, old, held, r, TY(s->u.aug.value), res);
    line(E, "if (dynac_obj_set(&%s, %s) < 0) DYNAC_LEAVE(DYNAC_ERROR); /* %s %s= */", local_name(E, loc),
         box_value(E, v, res), E->in->fn->locals[loc], binop_spelling[s->u.aug.op]);
    return;
  }
  if (lt->kind == TY_LIST) { /* xs += v: list.__iadd__ extends the list, which stays the local's */
    emit_list_extend(E, local_name(E, loc), emit_aug_value(E, s, lt), TY(s->u.aug.value));
    return;
  }
  if (ty_is_ndarray(lt) && direct && emit_fused_inplace(E, direct, NULL)) return; /* one loop, into the array */
  const char *r = emit_aug_value(E, s, lt);
  const type *res = binop_result(s->u.aug.op, lt, TY(s->u.aug.value));
  if (ty_is_ndarray(lt)) { /* numpy's in-place operator writes the array and gives it back */
    emit_array_inplace(E, s->u.aug.op, local_name(E, loc), lt, r, TY(s->u.aug.value));
    return;
  }
  if (lt->kind == TY_OBJ) { /* PyNumber_InPlaceAdd, ...: a list's += extends it */
    const char *v = emit_inplace_values(E, s->u.aug.op, local_name(E, loc), lt, r, TY(s->u.aug.value));
    line(E, "if (dynac_obj_set(&%s, Py_NewRef(%s)) < 0) DYNAC_LEAVE(DYNAC_ERROR);", local_name(E, loc), v);
    return;
  }
  E->assigned_op = true, E->assigned_local = loc;
  if (E->accumulators && E->accumulators[loc]) E->finite_later = " /* inf or nan: tested after the loop */";
  const char *v = emit_binop_values(E, s->u.aug.op, local_name(E, loc), lt, r,
                                    TY(s->u.aug.value), res);
  E->assigned_op = false;
  E->finite_later = NULL;
  line(E, "%s = %s;", local_name(E, loc), convert(E, v, res, lt));
}

/* return [v]: the value in the caller's type, after numpy's exit check. */
static void emit_return(em *E, stmt *s) {
  if (!s->u.ret) {
    np_exit_check(E);
    unwind_scopes(E, false);
    report_effects(E);
    line(E, "%s", return_none(E->in));
    return;
  }
  bool unwinds = leaves_finally(E, false);
  if (E->in->ret->rec && TY(s->u.ret)->rec) { /* a struct: made in the caller's, or moved there */
    if (!unwinds) E->rec_dest_for = s->u.ret, E->rec_dest = "(*dynac_out)";
    const char *v = emit_expr_rec(E, s->u.ret);
    E->rec_dest_for = NULL;
    np_exit_check(E);
    unwind_scopes(E, false);
    if (strcmp(v, "(*dynac_out)")) line(E, "dynac_rec_move(dynac_out, &%s, sizeof *dynac_out);", v);
    report_effects(E);
    line(E, "return DYNAC_OK;");
    return;
  }
  E->returned = unwinds ? NULL : s->u.ret; /* (its shortcuts return at once: not past a finally) */
  const char *v = emit_expr(E, s->u.ret);
  E->returned = NULL;
  np_exit_check(E);
  bool none = TY(s->u.ret)->kind == TY_NONE && (E->in->ret->kind != TY_OBJ || E->in->ret->rec); /* return x, x None */
  bool ref = E->in->ret->kind == TY_OBJ || E->in->ret->kind == TY_LIST; /* a new reference for the caller */
  const char *out = none ? NULL : convert(E, v, TY(s->u.ret), E->in->ret);
  if (unwinds && out) /* kept while the finally blocks run, as CPython keeps it on its stack */
    out = keep_always(E, out, ref ? &ty_obj : E->in->ret);
  unwind_scopes(E, false);
  report_effects(E);
  if (none) {
    line(E, "%s", return_none(E->in));
    return;
  }
  report_returned_param(E, s->u.ret);
  line(E, "*dynac_out = %s;", ref ? arena_printf(E->m->a, "Py_NewRef(%s)", out) : out);
  line(E, "return DYNAC_OK;");
}

/* if/else, or only the branch the types decide; definite assignment joins the branches. */
static void emit_if_test(em *E, stmt *s);

/* if, and an assert (its test evaluated only when asserts are on: not under -O). */
static void emit_if(em *E, stmt *s) {
  if (!s->u.if_.assert_) { emit_if_test(E, s); return; }
  line(E, "if (dynac_compat_asserts_enabled()) { /* assert (not under python -O) */");
  E->indent++;
  emit_if_test(E, s);
  E->indent--;
  line(E, "}");
}

static void emit_if_test(em *E, stmt *s) {
  const char *c = emit_expr(E, s->u.if_.cond);
  int k = constant_truth(E->in, s->u.if_.cond);
  if (k == 0 || k == 1) { /* `x is None` decided by the argument types (the guard) */
    line(E, "{ /* %s for these argument types: only this branch is compiled */",
         k ? "true" : "false");
    E->indent++;
    emit_block(E, k ? s->u.if_.then : s->u.if_.orelse);
    E->indent--;
    line(E, "}");
    return;
  }
  line(E, "if (%s) {", truth(E, c, TY(s->u.if_.cond)));
  E->indent++;
  bool *before = bound_save(E);
  unsigned tested = layouts_tested(E);
  emit_block(E, s->u.if_.then);
  bool *after_then = bound_save(E);
  unsigned tested_then = layouts_tested(E);
  bound_restore(E, before);
  layouts_set_tested(E, tested);
  E->indent--;
  if (s->u.if_.orelse) {
    line(E, "} else {");
    E->indent++;
    emit_block(E, s->u.if_.orelse);
    E->indent--;
  }
  bound_intersect(E, after_then);
  layouts_set_tested(E, layouts_tested(E) & tested_then);
  line(E, "}");
}

/* while: a for (;;) with the test first; the else block and break labels in emit_loop_rest. */
static void emit_while(em *E, stmt *s) {
  int label = ++E->label;
  E->loops[E->nloops++] = (loopinfo){.has_else = s->u.while_.has_else, .label = label};
  line(E, "for (;;) {");
  E->indent++;
  loop_tick(E);
  sweep_pins(E, s); /* its condition pins arrays each time */
  recheck_globals(E, s); /* the condition, read again after the body ran */
  const char *c = emit_expr(E, s->u.while_.cond);
  line(E, "if (!%s) break;", truth(E, c, TY(s->u.while_.cond)));
  emit_loop_rest(E, s->u.while_.body, bound_save(E), s->u.while_.has_else, s->u.while_.orelse,
                 label);
}

/* break: out of the loop, past its else block when it has one. */
static void emit_break(em *E) {
  unwind_scopes(E, true);
  loopinfo *L = &E->loops[E->nloops - 1];
  if (L->has_else) line(E, "goto dynac_end_%d;", L->label);
  else if (L->blocked) line(E, "goto dynac_brk_%d;", L->label);
  else line(E, "break;");
}

/* raise E / E(msg) / E(v): CPython's own exception object, raised from this line. */
/* raise: CPython's own exception object, raised from this line. A bare
 * raise re-raises the exception a caller is handling, with no entry for
 * this frame (as RERAISE); with none, CPython's RuntimeError. */
static void emit_raise(em *E, stmt *s) {
  if (s->u.raise_.reraise) {
    line(E, "if (dynac_reraise()) DYNAC_LEAVE(DYNAC_ERROR); /* no entry for this frame */");
    line(E, "DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
    return;
  }
  if (s->u.raise_.obj) { /* RAISE_VARARGS: a class is called, an instance raised, the cause set */
    const char *o = as_obj(E, emit_expr(E, s->u.raise_.obj), TY(s->u.raise_.obj));
    const char *c = s->u.raise_.cause ? as_obj(E, emit_expr(E, s->u.raise_.cause), TY(s->u.raise_.cause))
                                      : "NULL";
    line(E, "dynac_raise(%s, %s);", o, c);
    line(E, "DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
    return;
  }
  const char *exc = arena_printf(E->m->a, "PyExc_%s", s->u.raise_.exc);
  if (s->u.raise_.arg) {
    const char *v = as_obj(E, emit_expr(E, s->u.raise_.arg), TY(s->u.raise_.arg));
    const char *o = tmpvar(E, &ty_obj);
    line(E, "%s = PyObject_CallOneArg(%s, %s);", o, exc, v);
    line(E, "if (%s) PyErr_SetObject((PyObject *)Py_TYPE(%s), %s);", o, o, o);
  } else if (s->u.raise_.msg) line(E, "PyErr_SetString(%s, %s);", exc, c_string(E->m, s->u.raise_.msg));
  else line(E, "PyErr_SetNone(%s);", exc);
  line(E, "DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
}

/* An expression statement: its value, if any, discarded. */
static void emit_expr_stmt(em *E, stmt *s) {
  const char *v = emit_expr(E, s->u.expr);
  if (TY(s->u.expr)->kind != TY_UNKNOWN && TY(s->u.expr)->kind != TY_NONE) line(E, "(void)%s;", v);
}

static void emit_stmt_kind(em *E, stmt *s) {
  if (emit_shape_versioned(E, s)) return;
  source_comment(E, s->pos);
  recheck_globals(E, s);
  struct rec_checks *outer = E->recr;
  E->recr = rec_checks_open(E, s);
  switch (s->kind) {
  case ST_ASSIGN: emit_assign(E, s); break;
  case ST_AUGASSIGN: emit_augassign(E, s); break;
  case ST_RETURN: emit_return(E, s); break;
  case ST_IF: emit_if(E, s); break;
  case ST_WHILE: emit_while(E, s); break;
  case ST_FOR_RANGE: emit_for_range(E, s); break;
  case ST_FOR_ITER: emit_for_iter(E, s); break;
  case ST_BREAK: emit_break(E); break;
  case ST_CONTINUE: unwind_scopes(E, true); line(E, "continue;"); break;
  case ST_PASS: break;
  case ST_RAISE: emit_raise(E, s); break;
  case ST_TRY: emit_try(E, s); break;
  case ST_WITH: emit_with(E, s); break;
  case ST_IMPORT: emit_import(E, s); break;
  case ST_DEL:
    for (int i = 0; i < s->u.del.n; i++)
      if (s->u.del.subs[i]->kind == EX_LOCAL) emit_local_delete(E, s->u.del.subs[i]->u.local);
      else emit_object_delete(E, s->u.del.subs[i]);
    break;
  case ST_INTERP: break; /* never inside a region */
  case ST_EXPR: emit_expr_stmt(E, s); break;
  }
  E->recr = outer;
}

void emit_stmt(em *E, stmt *s) {
  sweep_pins(E, s);
  size_t start = E->b->len;
  restart outer = restart_open(E, s, false);
  int depth = E->nvstack;
  if (s->walrus) walrus_pending(E, s);
  emit_stmt_kind(E, s);
  E->nvstack = depth;
  restart_close(E, outer);
  scope_statement(E, start);
}

void emit_block(em *E, stmt *s) {
  bool top = s == E->in->fn->body || (E->reg && E->reg->top && s == E->reg->s_first);
  bool own_run = false; /* a run of layouts (layouts.c) started in this block */
  const int *first = s == E->in->fn->body ? NULL : E->reg ? E->reg->cur_before : NULL;
  for (stmt *prev = NULL; s; prev = s, s = s->next) {
    if (top) E->versions = prev ? prev->cur_after : first; /* names as this statement starts */
    if (finite_left_to_next(E, s)) {
      E->finite_by_parent = s->u.assign.value;
      E->finite_note = arena_printf(E->m->a, " /* inf or nan: tested with line %d's result */", s->next->pos.line);
    } else if (finite_left_to_accumulator(E, s)) {
      E->finite_by_parent = s->u.assign.value;
      E->finite_note = arena_printf(E->m->a, " /* inf or nan: line %d's sum is, tested after the loop */",
                                    s->next->pos.line);
    }
    own_run |= layouts_before(E, s);
    emit_stmt(E, s);
    layouts_after(E, s);
    if (top) copy_made_array(E, s);
    E->finite_by_parent = NULL;
    E->finite_note = NULL;
    if (ends_flow(E->in, s)) break; /* the rest is unreachable (and may not be typed) */
  }
  if (own_run && E->layouts.last) layouts_end(E); /* a run cut short by that */
}
