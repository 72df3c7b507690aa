/* loops.c: for loops over ranges and containers: hoisted bounds tests
 * (bounds.c), loop versioning on list shapes (shapes.c) and on writable
 * views, loop ticks, else clauses.
 */
#include "emit.h"

static void emit_for_iter_loop(em *E, stmt *s, int label, const char **objs, const char *count,
                               const shape_plan *plan);

/* An int constant or local of a loop-invariant (bounds.c) as C. */
static const char *invariant_atom_c(em *E, const expr *e) {
  return e->kind == EX_INT ? arena_printf(E->m->a, "INT64_C(%lld)", (long long)e->u.i)
                           : local_name(E, e->u.local);
}
/* b (NULL: 0) of a position a * v + b, negated when `neg`, computed into the
 * new local `var` before the loop; returns a C condition that is true when
 * that overflows int64 ("false" for constants, which are folded). */
static const char *emit_invariant(em *E, const expr *b, bool neg, const char *var) {
  if (!b || b->kind == EX_INT) {
    int64_t c = b ? b->u.i : 0;
    line(E, "const int64_t %s = INT64_C(%lld);", var, (long long)(neg && c != INT64_MIN ? -c : c));
    return neg && c == INT64_MIN ? "true" : "false";
  }
  line(E, "int64_t %s = 0;", var);
  const char *c = b->kind == EX_LOCAL ? arena_printf(E->m->a, "(%s = %s, false)", var, invariant_atom_c(E, b))
      : arena_printf(E->m->a, "dynac_int_%s(%s, %s, &%s)", b->u.bin.op == OP_ADD ? "add" :
                     b->u.bin.op == OP_SUB ? "sub" : "mul", invariant_atom_c(E, b->u.bin.l),
                     invariant_atom_c(E, b->u.bin.r), var);
  return neg ? arena_printf(E->m->a, "(%s || dynac_int_neg(%s, &%s))", c, var, var) : c;
}
static bool same_invariant(const expr *x, const expr *y) {
  if (!x || !y) return x == y;
  if (x->kind != y->kind) return false;
  if (x->kind == EX_INT) return x->u.i == y->u.i;
  if (x->kind == EX_LOCAL) return x->u.local == y->u.local;
  return x->u.bin.op == y->u.bin.op && same_invariant(x->u.bin.l, y->u.bin.l) &&
         same_invariant(x->u.bin.r, y->u.bin.r);
}

/* The test that position p (its b computed into `b` here) is in range for
 * every item of range(start, stop, step), with a comment naming it. */
static const char *affine_test(em *E, const proven_index *p, const char *b, const char *v,
                               const char *start, const char *stop, const char *step) {
  const char *overflows = emit_invariant(E, p->b, p->neg, b);
  bool may_overflow = strcmp(overflows, "false") != 0;
  bool two_d = E->in->local_ty[p->container]->ndim == 2;
  return arena_printf(E->m->a, "%s%s%sdynac_affine_in(INT64_C(%lld), %s, %s, %s, %s, %s) /* %s[%s%lld * %s + %s%s] */",
                      may_overflow ? "!" : "", may_overflow ? overflows : "", may_overflow ? " && " : "",
                      (long long)p->a, b, start, stop, step,
                      view_field(E, local_name(E, p->container), p->dim ? "len1" : "len"),
                      E->in->fn->locals[p->container], p->dim ? "..., " : "", (long long)p->a, v, b,
                      two_d && !p->dim ? ", ..." : "");
}

/* Before `for v in range(start, stop, step)`: one flag, okN, true when every
 * item of the range keeps every view position a * v + b of the body
 * (bounds.c) in range, and every enclosing loop's flag is true too. The
 * accesses read it (emit_index); positions enclosing loops proved read it
 * inside this loop, so the body tests a single loop-invariant bool. Returns
 * the enclosing positions' flags, for restore_bounds after the loop. */
const char **hoist_bounds(em *E, stmt *loop, const char *start, const char *stop, const char *step) {
  proven_index found[64];
  int n = find_affine_indices(E->in, loop, E->view_copy, E->bound, found, 64);
  if (n == 0 || E->nhoisted + n > 256) return NULL;
  if (!E->hoisted) E->hoisted = arena_alloc(E->m->a, 256 * sizeof(hoisted));
  int first = E->nhoisted, t = ++E->tmp;
  const char *ok = arena_printf(E->m->a, "ok%d", t), *v = E->in->fn->local_cnames[loop->u.for_.tgt->local];
  strbuf cond = {0};
  if (first) sb_printf(&cond, "%s", E->hoisted[first - 1].ok); /* the enclosing loop's flag */
  line(E, "/* view positions a * %s + b tested for every %s of the range, once */", v, v);
  const char **b = arena_alloc(E->m->a, sizeof(char *) * (size_t)n);
  for (int i = 0; i < n; i++) {
    proven_index *p = &found[i];
    b[i] = NULL;
    for (int j = 0; j < i && !b[i]; j++) /* the same test for the same position of the same view */
      if (found[j].container == p->container && found[j].dim == p->dim && found[j].a == p->a &&
          found[j].neg == p->neg && same_invariant(found[j].b, p->b))
        b[i] = b[j];
    if (!b[i]) {
      b[i] = arena_printf(E->m->a, "b%d_%d", t, i);
      sb_printf(&cond, "%s%s", cond.data ? " &&\n    " : "", affine_test(E, p, b[i], v, start, stop, step));
    }
    E->hoisted[E->nhoisted++] = (hoisted){p->index, ok, b[i], p->a, loop->u.for_.tgt->local};
  }
  line(E, "const bool %s = %s;", ok, cond.data);
  sb_free(&cond);
  const char **saved = arena_alloc(E->m->a, sizeof(char *) * (size_t)(first + 1));
  for (int i = 0; i < first; i++) saved[i] = E->hoisted[i].ok, E->hoisted[i].ok = ok;
  return saved;
}
void restore_bounds(em *E, int nhoisted, const char **saved) {
  E->nhoisted = nhoisted;
  for (int i = 0; saved && i < nhoisted; i++) E->hoisted[i].ok = saved[i];
}

/* Signal polling in loops (exported C has no signals to poll). The budget
 * is the kernel's own local (declared by emit_kernel): a register, where a
 * static one would be stored back at every iteration. */
void loop_tick(em *E) {
  if (E->exported) return;
  if (E->nest) line(E, "DYNAC_LOOP_TICK_HELD(dynac__budget); /* shapes proved before the loop: no switch */");
  else line(E, "DYNAC_LOOP_TICK(dynac__budget);");
}

static void emit_loop_end(em *E, int label) { line(E, "dynac_end_%d:;", label); }

/* The rest of a loop opened with `for (...) {` and pushed on E->loops: its
 * body (locals bound before it: `before`), the closing brace (two for a
 * blocked range loop, then its break label), and the else block, which a
 * break skips (goto dynac_end_LABEL). */
void emit_loop_rest(em *E, stmt *body, bool *before, bool has_else, stmt *orelse, int label) {
  bool blocked = E->loops[E->nloops - 1].blocked;
  emit_block(E, body);
  if (E->ncloops && E->cloops[E->ncloops - 1].label == label) E->ncloops--; /* its else is outside */
  if (E->nloop_items && E->loop_items[E->nloop_items - 1].label == label)
    E->nloop_items--; /* its item and position: in the loop's C scope only, not its else */
  bound_restore(E, before);
  E->indent--;
  line(E, "}");
  if (blocked) {
    E->indent--;
    line(E, "}");
    line(E, "dynac_brk_%d:;", label);
  }
  E->nloops--;
  if (has_else) {
    bool *pre = bound_save(E);
    emit_block(E, orelse);
    bound_restore(E, pre);
    emit_loop_end(E, label);
  }
}

/* The view parameters (copied, view_copy) that a block stores to. */
static void note_target_views(em *E, const target *t, bool *views) {
  if (t->is_tuple) {
    for (int i = 0; i < t->n; i++) note_target_views(E, t->elts[i], views);
    return;
  }
  const expr *o = t->sub ? place_obj(t->sub) : NULL;
  if (o && o->kind == EX_LOCAL && o->u.local < E->in->fn->nparams && E->view_copy[o->u.local])
    views[o->u.local] = true;
}
static void note_stored_views(em *E, const stmt *b, bool *views) {
  for (const stmt *s = b; s; s = s->next) {
    if (s->kind == ST_ASSIGN)
      for (int i = 0; i < s->u.assign.ntargets; i++) note_target_views(E, s->u.assign.targets[i], views);
    if (s->kind == ST_AUGASSIGN && s->u.aug.sub)
      note_target_views(E, &(target){.sub = s->u.aug.sub}, views);
    if (s->kind == ST_IF) {
      note_stored_views(E, s->u.if_.then, views);
      note_stored_views(E, s->u.if_.orelse, views);
    }
  }
}

/* The condition of the unchecked copy of innermost loop `s`: its positions
 * are in range (ok), and every view parameter it stores to is saved whole
 * in the undo log (sn_x), so its stores need no entry (E->unlogged, for
 * the copy; they still test the array's live WRITEABLE flag). A view whose last call had
 * its span copied is copied now, before the loop (the prediction of
 * dynac_view_log_predicted); otherwise the checked copy logs its writes
 * until it is. */
const char *versioned_condition(em *E, const stmt *s, const char *ok) {
  if (!E->view_copy) return ok;
  bool *views = arena_alloc(E->m->a, sizeof(bool) * (size_t)(E->in->fn->nparams + 1));
  note_stored_views(E, s->u.for_.body, views);
  strbuf cond = {0};
  sb_printf(&cond, "%s", ok);
  for (int i = 0; i < E->in->fn->nparams; i++) {
    if (!views[i]) continue;
    const char *c = E->in->fn->local_cnames[i];
    line(E, "if (%s && !sn_%s) sn_%s = dynac_view_copy_predicted(dynac__u, l_%s, &snap_%s);", ok, c, c, c, c);
    sb_printf(&cond, " && sn_%s", c);
  }
  E->unlogged = views;
  const char *r = arena_printf(E->m->a, "%s", cond.data);
  sb_free(&cond);
  return r;
}

/* Stores to view parameter `p` that every iteration of block `b` makes
 * (its top level: not under an if, before any break or continue). */
static int stores_each_iteration(const stmt *b, int p) {
  int n = 0;
  for (const stmt *s = b; s && s->kind != ST_BREAK && s->kind != ST_CONTINUE && s->kind != ST_IF; s = s->next) {
    const expr *sub = s->kind == ST_AUGASSIGN ? s->u.aug.sub
        : s->kind == ST_ASSIGN && s->u.assign.ntargets == 1 ? s->u.assign.targets[0]->sub : NULL;
    if (sub && place_obj(sub) && place_obj(sub)->kind == EX_LOCAL && place_obj(sub)->u.local == p) n++;
  }
  return n;
}

/* In the unchecked copy: the writes the loop is about to make to each
 * view it needs no log for, counted as if logged (one addition), so that a
 * call that would have copied the span anyway renews the prediction and
 * the next call need not log item by item to learn it again. */
void count_unlogged_writes(em *E, const stmt *s, const char *start, const char *stop, const char *step) {
  for (int i = 0; E->unlogged && i < E->in->fn->nparams; i++) {
    int k = E->unlogged[i] ? stores_each_iteration(s->u.for_.body, i) : 0;
    const char *c = E->in->fn->local_cnames[i];
    if (k)
      line(E, "dynac_view_count_writes(l_%s, dynac_range_len(%s, %s, %s) * %d, &snap_%s); /* renews the prediction */",
           c, start, stop, step, k, c);
  }
}

/* for v in range(start, stop, step) after its bounds are evaluated: the C
 * loop over the range's length (label: its k/n names, its else's label).
 * In a kernel, an innermost one runs in blocks ticked once each
 * (DYNAC_LOOP_BLOCK: an outer C loop over blocks, the body in the inner one);
 * others tick per iteration. */
void emit_range_loop(em *E, stmt *s, int label, const char *startv, const char *stopv,
                            const char *stepv) {
  bool blocked = !E->exported && !E->spec && !has_loop(s->u.for_.body); /* a speculative copy is charged
                                                                          before it (speculate.c) */
  bool nested = E->nloops > 0 && !E->loops[E->nloops - 1].blocked; /* in a loop that ticks per iteration */
  E->loops[E->nloops++] = (loopinfo){.has_else = s->u.for_.has_else, .blocked = blocked,
                                     .label = label};
  if (blocked) {
    line(E, "for (uint64_t k%d = 0, n%d = dynac_range_len(%s, %s, %s), e%d; k%d < n%d;) {", label, label,
         startv, stopv, stepv, label, label, label);
    line(E, "  DYNAC_LOOP_BLOCK%s(dynac__budget, k%d, n%d, e%d, %d);%s", nested ? "_NESTED" : "", label, label,
         label, !E->nest, E->nest ? " /* shapes proved before the loop: no switch */" : "");
    line(E, "  for (; k%d < e%d; k%d++) {", label, label, label);
    E->indent++;
  } else
    line(E, "for (uint64_t k%d = 0, n%d = dynac_range_len(%s, %s, %s); k%d < n%d; k%d++) {", label,
         label, startv, stopv, stepv, label, label, label);
  E->indent++;
  if (E->conts) E->cloops[E->ncloops++] = (cont_loop){.s = s, .kind = 'r', .label = label,
                                                      .start = startv, .step = stepv};
  if (!blocked && !E->spec) loop_tick(E);
  bool *before = bound_save(E);
  const char *k = s->u.for_.how == 'r' ? arena_printf(E->m->a, "(n%d - 1 - k%d)", label, label) /* reversed() */
                                       : arena_printf(E->m->a, "k%d", label);
  assign_target(E, s->u.for_.tgt,
                arena_printf(E->m->a, "(int64_t)((uint64_t)%s + %s * (uint64_t)%s)", startv, k, stepv),
                &ty_int);
  emit_loop_rest(E, s->u.for_.body, before, s->u.for_.has_else, s->u.for_.orelse, label);
}

/* for target in c / enumerate(c[, start]) / zip(c1, ...) / reversed(c):
 * the length is read at every step, as CPython's iterators do (a list the
 * body appends to is iterated to its new end). */

/* for target in obj of an object: PyObject_GetIter, then PyIter_Next per
 * item, as GET_ITER and FOR_ITER do. A continuation takes the iterator
 * itself (the interpreter's loop state); taking an item cannot deoptimise. */
static void emit_for_object(em *E, stmt *s, int label) {
  expr *comp = E->comp;
  if (s == E->comp_first) E->comp = enclosing_comp(E, comp); /* a comprehension's first iterable: the
                                                                  enclosing frame's */
  const char *obj = as_obj(E, emit_expr(E, s->u.for_.iters[0]), TY(s->u.for_.iters[0])); /* a tuple: boxed */
  if (s->u.for_.how != 'i' || s->u.for_.niters > 1) { /* enumerate/zip/reversed of objects */
    const char *args[9];
    int n = 0;
    for (int i = 0; i < s->u.for_.niters; i++) {
      const char *v = i ? emit_expr(E, s->u.for_.iters[i]) : obj;
      args[n++] = keep(E, as_obj(E, v, TY(s->u.for_.iters[i])), &ty_obj);
    }
    if (s->u.for_.start)
      args[n++] = keep(E, as_obj(E, emit_expr(E, s->u.for_.start), TY(s->u.for_.start)), &ty_obj);
    strbuf b = {0};
    for (int i = 0; i < n; i++) sb_printf(&b, "%s%s", i ? ", " : "", args[i]);
    obj = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_obj_loop_builtin('%c', (PyObject *[]){%s}, %d, &dynac__effects); /* %s() */", obj,
         s->u.for_.how, b.data, n, s->u.for_.how == 'e' ? "enumerate" : s->u.for_.how == 'z' ? "zip" : "reversed");
    sb_free(&b);
    note_effect(E);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", obj, where(E));
  }
  const char *it = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_obj_iter(%s, &dynac__effects);", it, obj);
  note_effect(E);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", it, where(E));
  E->comp = comp;
  E->loops[E->nloops++] = (loopinfo){.has_else = s->u.for_.has_else, .label = label};
  line(E, "for (;;) {");
  E->indent++;
  loop_tick(E);
  if (E->conts)
    E->cloops[E->ncloops++] = (cont_loop){.s = s, .kind = 'g', .label = label, .objs = {it}};
  const char *x = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_obj_next(%s, &dynac__effects);", x, it);
  line(E, "if (!%s) {", x);
  line(E, "  if (PyErr_Occurred()) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  line(E, "  break; /* exhausted */");
  line(E, "}");
  bool *before = bound_save(E);
  assign_target(E, s->u.for_.tgt, x, &ty_obj);
  emit_loop_rest(E, s->u.for_.body, before, s->u.for_.has_else, s->u.for_.orelse, label);
}

void emit_for_iter(em *E, stmt *s) {
  int label = ++E->label;
  int n = s->u.for_.niters;
  if (for_iter_is_generic(E->in, s)) {
    emit_for_object(E, s, label);
    return;
  }
  const char *objs[8];
  for (int i = 0; i < n; i++) {
    const type *t = TY(s->u.for_.iters[i]);
    const char *v = emit_expr(E, s->u.for_.iters[i]);
    if (t->kind == TY_LIST && E->in->builds_lists) { /* held, as the list iterator holds it */
      objs[i] = tmpvar(E, &ty_obj);
      line(E, "%s = Py_NewRef(%s);", objs[i], v);
    } else objs[i] = keep_always(E, v, t);
  }
  int live = E->nlive_views, overflow = E->live_overflow; /* a view iterated over stays pinned */
  for (int i = 0; i < n; i++)
    if (TY(s->u.for_.iters[i])->kind != TY_BUF) continue;
    else if (E->nlive_views < 16) E->live_views[E->nlive_views++] = objs[i];
    else E->live_overflow++;
  const char *count = NULL;
  if (s->u.for_.how == 'e')
    count = keep_always(E, s->u.for_.start ? as_int(E, emit_expr(E, s->u.for_.start), TY(s->u.for_.start))
                                           : "INT64_C(0)", &ty_int); /* the iterator's own count */
  emit_for_iter_loop(E, s, label, objs, count, shape_nest_plan(E->nest, s));
  E->nlive_views = live;
  E->live_overflow = overflow;
}

/* The pass before a loop that tests what `plan` needs of every item of
 * list `l`, which inner loop `s` iterates: the item's tuple shape (its
 * tests, not its values: the loop reads them again) and each fact's list.
 * Returns the flag, shN. */
static const char *shape_test(em *E, const stmt *s, const char *l, const shape_plan *plan, int label) {
  const type *it = TY(s->u.for_.iters[0])->elts[0];
  line(E, "/* line %d: the shape of every item of its list, tested once */", s->pos.line);
  line(E, "bool sh%d = true;", label);
  line(E, "for (Py_ssize_t q%d = 0; sh%d && q%d < PyList_GET_SIZE(%s); q%d++) {", label, label, label, l, label);
  E->indent++;
  line(E, "dynac_%s w = {0};", it->code);
  strbuf c = {0};
  sb_printf(&c, "!dynac_unbox_%s(PyList_GET_ITEM(%s, q%d), &w)", it->code, l, label);
  for (int i = 0; i < plan->n; i++)
    sb_printf(&c, " &&\n    dynac_list_floats(w%s, %d, %d)", plan->facts[i].path, plan->facts[i].n,
              plan->facts[i].exact);
  line(E, "sh%d = %s;", label, c.data);
  sb_free(&c);
  E->indent--;
  line(E, "}");
  return arena_printf(E->m->a, "sh%d", label);
}

/* For a loop over one list of ints or floats into a plain local: the C
 * name of a variable holding the item object its number comes from
 * (declared here, before the loop: a continuation jumped to before the
 * item is read finds the last one or NULL, which dynac_box_int_item
 * tests), so that boxing the loop variable again gives that object
 * (values.c: loop_item_box); else NULL. */
static const char *loop_item(em *E, const stmt *s, const char *list, const shape_plan *plan, int label) {
  const type *lt = TY(s->u.for_.iters[0]), *et = ty_elem(lt);
  if (s->u.for_.niters != 1 || plan || lt->kind != TY_LIST || (et->kind != TY_INT && et->kind != TY_FLOAT) ||
      s->u.for_.how == 'e' || s->u.for_.how == 'z' || s->u.for_.tgt->is_tuple || s->u.for_.tgt->sub ||
      E->exported || E->nloop_items == (int)(sizeof E->loop_items / sizeof *E->loop_items))
    return NULL;
  const char *item = arena_printf(E->m->a, "li%d", label);
  line(E, "PyObject * %s = NULL; /* borrowed: the item of %s whose number %s holds */", item, list,
       local_name(E, s->u.for_.tgt->local));
  return item;
}

/* The loop of emit_for_iter over its evaluated containers `objs`; `plan`:
 * the shape of its items, proved before an enclosing loop (else NULL). */
static void emit_for_iter_loop(em *E, stmt *s, int label, const char **objs, const char *count,
                               const shape_plan *plan) {
  int n = s->u.for_.niters;
  const char *k = arena_printf(E->m->a, "k%d", label);
  bool rev = s->u.for_.how == 'r';
  const char *item = loop_item(E, s, objs[0], plan, label);
  E->loops[E->nloops++] = (loopinfo){.has_else = s->u.for_.has_else, .label = label};
  if (rev) line(E, "for (int64_t %s = %s - 1;; %s--) {", k, len_of(E, objs[0], TY(s->u.for_.iters[0])), k);
  else line(E, "for (int64_t %s = 0;; %s++) {", k, k);
  E->indent++;
  loop_tick(E);
  for (int i = 0; i < n; i++)
    line(E, "if (%s%s >= %s) break; /* exhausted */", rev ? arena_printf(E->m->a, "%s < 0 || ", k) : "",
         k, len_of(E, objs[i], TY(s->u.for_.iters[i])));
  if (item) line(E, "%s = PyList_GET_ITEM(%s, %s);", item, objs[0], k);
  if (E->conts) {
    cont_loop L = {.s = s, .kind = 'c', .label = label, .count = count};
    for (int i = 0; i < n; i++) L.objs[i] = objs[i], L.otys[i] = TY(s->u.for_.iters[i]);
    E->cloops[E->ncloops++] = L;
  }
  restart outer_rp = restart_open(E, s, true); /* taking the item: a deoptimisation goes on from it */
  const char *vals[8];
  for (int i = 0; i < n; i++) {
    const type *t = TY(s->u.for_.iters[i]);
    if (plan) { /* its shape is tested before the loop */
      vals[i] = tmpvar(E, t->elts[0]);
      line(E, "dynac_fields_%s(PyList_GET_ITEM(%s, %s), &%s);", t->elts[0]->code, objs[i], k, vals[i]);
    } else
      vals[i] = elem_read(E, objs[i], t, &(positions){{k, NULL}, {"true", NULL}},
                          NULL, NULL); /* tested just above; reads change no length */
  }
  bool *before = bound_save(E);
  if (s->u.for_.how == 'e' || s->u.for_.how == 'z') { /* a tuple (index, x) / (x1, x2, ...) */
    const type *el[9];
    const char *parts[9];
    int np = 0;
    if (count) { el[np] = &ty_int; parts[np++] = count; }
    for (int i = 0; i < n; i++) { el[np] = ty_elem(TY(s->u.for_.iters[i])); parts[np++] = vals[i]; }
    const type *t = ty_tuple(E->m->a, np, el);
    const char *tv = tmpvar(E, t);
    for (int i = 0; i < np; i++) line(E, "%s.v%d = %s;", tv, i, parts[i]);
    if (count) fail_if(E, NULL, "enumerate() count above int64", arena_printf(E->m->a,
                       "dynac_int_add(%s, 1, &%s)", count, count), NULL);
    assign_target(E, s->u.for_.tgt, tv, t);
  } else {
    E->shaped_target = plan != NULL;
    assign_target(E, s->u.for_.tgt, vals[0], ty_elem(TY(s->u.for_.iters[0])));
    E->shaped_target = false;
  }
  restart_close(E, outer_rp);
  const shape_plan *outer = E->shaped;
  if (plan) E->shaped = plan;
  if (item)
    E->loop_items[E->nloop_items++] =
        (typeof(E->loop_items[0])){local_name(E, s->u.for_.tgt->local), item, objs[0], k, label};
  emit_loop_rest(E, s->u.for_.body, before, s->u.for_.has_else, s->u.for_.orelse, label);
  E->shaped = outer;
}

/* Loop versioning on the items' shape (shapes.c): a loop holding loops over
 * lists whose items' shape nothing in it can change runs as a copy without
 * their type tests when one pass before it proves them, else as the tested
 * copy. False: not a loop that gains. */
bool emit_shape_versioned(em *E, stmt *s) {
  if (E->nest || E->no_nest || E->exported ||
      (s->kind != ST_WHILE && s->kind != ST_FOR_RANGE && s->kind != ST_FOR_ITER))
    return false;
  shape_nest *nest = arena_alloc(E->m->a, sizeof *nest);
  if (!shape_nest_for(E->m->a, E->in, s, nest)) return false;
  for (int i = 0; i < nest->n; i++)
    if (!E->bound[nest->loops[i]->u.for_.iters[0]->u.local]) return false;
  strbuf cond = {0};
  for (int i = 0; i < nest->n; i++)
    sb_printf(&cond, "%s%s", i ? " && " : "", shape_test(E, nest->loops[i],
              local_name(E, nest->loops[i]->u.for_.iters[0]->u.local), nest->plans[i], ++E->label));
  line(E, "if (%s) { /* every item has the shape its loop takes apart: no type tests */", cond.data);
  sb_free(&cond);
  bool *before = bound_save(E);
  E->indent++;
  E->nest = nest;
  emit_stmt(E, s);
  E->nest = NULL;
  E->indent--;
  line(E, "} else {");
  bound_restore(E, before);
  E->indent++;
  E->no_nest = true;
  emit_stmt(E, s);
  E->no_nest = false;
  E->indent--;
  line(E, "}");
  return true;
}

/* for v in range(start, stop, step): the bounds once, the step tested, and
 * an innermost loop versioned on its hoisted bounds test (bounds.c). */
/* range()'s arguments as int64 values (temporaries), in order. Typed ones
 * are converted as they come; with an object among them, every argument is
 * evaluated first and then each taken through __index__ in order, as
 * range() does once called (dynac_range_bound: a stop beyond int64
 * saturates, a start or step beyond it deoptimises). */
static void range_bounds(em *E, stmt *s, const char *out[3]) {
  expr *parts[3] = {s->u.for_.start, s->u.for_.stop, s->u.for_.step};
  bool objects = false;
  for (int i = 0; i < 3; i++) objects |= parts[i] && TY(parts[i])->kind == TY_OBJ;
  const char *v[3];
  for (int i = 0; i < 3; i++) {
    v[i] = !parts[i] ? (i == 2 ? "INT64_C(1)" : "INT64_C(0)") : emit_expr(E, parts[i]);
    if (parts[i] && objects) v[i] = keep(E, v[i], TY(parts[i]));
    if (parts[i] && !objects) v[i] = as_int(E, v[i], TY(parts[i]));
    if (!objects) out[i] = tmp_init(E, &ty_int, v[i]);
  }
  for (int i = 0; objects && i < 3; i++) {
    if (!parts[i] || TY(parts[i])->kind != TY_OBJ) {
      out[i] = tmp_init(E, &ty_int, parts[i] ? as_int(E, v[i], TY(parts[i])) : v[i]);
      continue;
    }
    out[i] = tmp_init(E, &ty_int, "0");
    const char *st = tmpvar(E, &ty_int);
    line(E, "%s = dynac_range_bound(%s, &%s, %d, &dynac__effects); /* range() takes it through __index__ */", st,
         v[i], out[i], i == 1);
    line(E, "if (%s < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", st, where(E));
    note_effect(E);
    deopt_if(E, "DYNAC_FAIL_INT64", "an int beyond int64: the interpreter's range", "%s", st);
  }
}

void emit_for_range(em *E, stmt *s) {
  int label = ++E->label;
  const char *b[3];
  expr *comp = E->comp;
  if (s == E->comp_first) E->comp = enclosing_comp(E, comp); /* a comprehension's first range(): the
                                                                  enclosing frame's call */
  range_bounds(E, s, b);
  const char *startv = b[0], *stopv = b[1], *stepv = b[2];
  expr *step = s->u.for_.step;
  if (step && !(step->kind == EX_INT && step->u.i != 0) && E->exported) /* a literal step is not 0 */
    deopt_if(E, "DYNAC_FAIL_RANGE_STEP", "ValueError: range() arg 3 must not be zero", "%s == 0", stepv);
  else if (step && !(step->kind == EX_INT && step->u.i != 0)) /* range()'s own error, also after an effect */
    line(E, "if (%s == 0) DYNAC_LEAVE(dynac_raise_text(PyExc_ValueError, \"range() arg 3 must not be zero\", %s));",
         stepv, where(E));
  E->comp = comp;
  int nhoisted = E->nhoisted;
  const char **saved = E->exported ? NULL : hoist_bounds(E, s, startv, stopv, stepv);
  if (saved && !s->u.for_.has_else && !has_loop(s->u.for_.body)) {
    /* loop versioning: a copy of an innermost loop without the bounds
     * checks the flag proved unneeded, and the checked copy */
    const char *ok = E->hoisted[nhoisted].ok, *outer = E->proven;
    const bool *outer_unlogged = E->unlogged;
    line(E, "if (DYNAC_LIKELY(%s)) { /* every position in range: no bounds checks */", versioned_condition(E, s, ok));
    E->indent++;
    count_unlogged_writes(E, s, startv, stopv, stepv);
    E->proven = ok;
    int spec = emit_speculation(E, s, startv, stopv, stepv);
    emit_range_loop(E, s, label, startv, stopv, stepv);
    if (spec) line(E, "dynac_spec_done_%d:;", spec);
    E->proven = outer;
    E->unlogged = outer_unlogged;
    E->indent--;
    line(E, "} else {");
    E->indent++;
    emit_range_loop(E, s, ++E->label, startv, stopv, stepv);
    E->indent--;
    line(E, "}");
  } else emit_range_loop(E, s, label, startv, stopv, stepv);
  restore_bounds(E, nhoisted, saved);
}
