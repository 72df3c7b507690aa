/* exceptions.c: try/except/else/finally and with statements in C.
 *
 * The body is ordinary kernel code whose failures leave through
 * DYNAC_LEAVE (dynac.h); around it the macro is redefined to jump to the
 * statement's handlers on an exception, as CPython 3.11's exception table
 * sends a failing instruction of a try body to its handler. There the
 * exception is taken and made the one being handled (PUSH_EXC_INFO), each
 * clause's class is evaluated and matched in order (CHECK_EXC_MATCH), the
 * first that matches runs, and leaving the handler's C scope by any way
 * restores the exception handled before and unbinds `as name`
 * (POP_EXCEPT; the cleanup of a DYNAC_HANDLING variable). No match: the
 * exception goes on, its traceback unchanged (RERAISE).
 *
 * A finally block is written once per way out, as CPython's compiler
 * writes it: after the statement (falling through), on the exceptional
 * path (the exception handled while it runs, then raised again), and
 * before each return, break or continue that leaves it (unwind_scopes).
 *
 * A with statement is the same machinery around __enter__ and __exit__
 * (BEFORE_WITH, WITH_EXCEPT_START): its exit is called on every way out,
 * with the exception on the exceptional path, whose true result
 * suppresses it.
 *
 * Deoptimisation inside the body is unchanged: before any effect the
 * interpreter runs the whole call (the try too), after one the call goes
 * on in the interpreter from the statement, inside the same try
 * (python/dynac/_continue.py rebuilds it around the rest of the body).
 */
#include "emit.h"

/* Sends the failures in the C that follows to route `r`'s label (NULL: out
 * of the kernel, a return), by redefining DYNAC_LEAVE. */
static void route_failures(em *E, route *r) {
  if (r == E->route) return;
  E->route = r;
  route_failures_to(E, NULL);
}

/* Redefines DYNAC_LEAVE(st) as `define` (NULL: as E->route has it). */
void route_failures_to(em *E, const char *define) {
  line(E, "#undef DYNAC_LEAVE");
  if (define) line(E, "#define DYNAC_LEAVE(st) %s", define);
  else if (E->route) line(E, "#define DYNAC_LEAVE(st) DYNAC_LEAVE_TO(st, %s)", E->route->label);
  else line(E, "#define DYNAC_LEAVE(st) return (st)");
}

/* A new route to label `prefix`_N. */
static route *new_route(em *E, const char *prefix, int n) {
  route *r = arena_alloc(E->m->a, sizeof *r);
  r->label = arena_printf(E->m->a, "%s_%d", prefix, n);
  return r;
}

static void push_scope(em *E, char kind, const stmt *s, route *route, const char *h) {
  E->exits[E->nexits++] = (exit_scope){kind, s, route, h, E->nloops};
}

/* One of a finally block's copies: a deoptimisation after an effect there
 * has no continuation (each copy has its own way out, which the
 * interpreter would need rebuilt), so a failing operation is redone
 * through the C API where it can be (CPython's exception, e.g.
 * ZeroDivisionError) and only int64 overflow ends in
 * dynac_deopt_after_effect. */
static void emit_block_without_continuations(em *E, stmt *b) {
  bool conts = E->conts;
  E->conts = false;
  emit_block(E, b);
  E->conts = conts;
}

/* The finally block of `s` once more, for one way out: its failures go to
 * route `to`; it is itself outside the scopes from index `depth` on. */
static void emit_finally_copy(em *E, const stmt *s, route *to, int depth, const char *why) {
  int saved = E->nexits;
  route *inner = E->route;
  E->nexits = depth;
  route_failures(E, to);
  line(E, "{ /* finally (line %d)%s */", s->pos.line, why);
  E->indent++;
  emit_block_without_continuations(E, s->u.try_.finalbody);
  E->indent--;
  line(E, "}");
  route_failures(E, inner);
  E->nexits = saved;
}

/* The with statement `s`'s __exit__(None, None, None) (C variable `exit`),
 * its failure going to route `to`, its line the statement's. */
static void emit_with_exit(em *E, const stmt *s, const char *exit, route *to) {
  route *inner = E->route;
  int line_was = E->cur_line;
  route_failures(E, to);
  E->cur_line = s->pos.line;
  line(E, "if (dynac_with_exit(%s, NULL) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* __exit__ */",
       exit, where(E));
  E->cur_line = line_was;
  route_failures(E, inner);
}

/* Is there a finally block or a with statement between here and the end
 * of the function (or, loop_only, of the innermost loop)? */
bool leaves_finally(em *E, bool loop_only) {
  for (int i = E->nexits - 1; i >= 0 && (!loop_only || E->exits[i].nloops == E->nloops); i--)
    if (E->exits[i].kind != 'h') return true;
  return false;
}

/* Before a return (or, loop_only, a break or continue) leaves the scopes
 * around it: innermost first, each handled exception stops being handled
 * and each finally block runs, as CPython's compiler unwinds its frame
 * blocks. Nothing to write when no finally block is left: the handlers'
 * C cleanups do the rest. */
void unwind_scopes(em *E, bool loop_only) {
  if (!leaves_finally(E, loop_only)) return;
  for (int i = E->nexits - 1; i >= 0 && (!loop_only || E->exits[i].nloops == E->nloops); i--) {
    exit_scope *x = &E->exits[i];
    if (x->kind == 'h') line(E, "dynac_handling_end(&%s); /* no longer handled */", x->h);
    else if (x->kind == 'w') emit_with_exit(E, x->s, x->h, x->route);
    else emit_finally_copy(E, x->s, x->route, i, loop_only ? ", before leaving the loop's pass"
                                                           : ", before returning");
  }
}

/* The class of an except clause as an object (a borrowed or owned C
 * expression the clause keeps until its test is made): `(A, B)` is built as
 * the tuple the interpreter would build. */
static const char *handler_class(em *E, expr *type) {
  if (type->kind != EX_TUPLE) return as_obj(E, emit_expr(E, type), TY(type));
  int n = type->u.tuple.n;
  const char *t = tmpvar(E, &ty_obj);
  line(E, "%s = PyTuple_New(%d); /* the clause's classes */", t, n);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", t, where(E));
  for (int i = 0; i < n; i++) {
    expr *x = type->u.tuple.elts[i];
    const char *v = as_obj(E, emit_expr(E, x), TY(x));
    line(E, "PyTuple_SET_ITEM(%s, %d, Py_NewRef(%s));", t, i, v);
  }
  return t;
}

/* Definite assignment where the paths out of a try statement meet. */
typedef struct join { bool *bound; bool any; } join;

static void join_here(em *E, join *j) {
  if (j->any) bound_intersect(E, j->bound);
  memcpy(j->bound, E->bound, sizeof(bool) * (size_t)E->in->fn->nlocals);
  j->any = true;
}

/* One except clause: its class tested against the handled exception
 * (`h`), then, when it matches, its name bound and its body run. */
static void emit_handler(em *E, const handler *h, const char *hv, int n, const bool *before, join *after) {
  bound_restore(E, before);
  source_comment(E, h->pos);
  line(E, "{");
  E->indent++;
  if (h->type) {
    const char *cls = handler_class(E, h->type);
    const char *m = arena_printf(E->m->a, "m%d", ++E->tmp);
    line(E, "int %s = dynac_exception_matches(&%s, %s);", m, hv, cls);
    line(E, "if (%s < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", m, where(E));
    line(E, "if (%s) {", m);
  } else {
    line(E, "{ /* a bare except: every exception */");
  }
  E->indent++;
  if (h->name) {
    int loc = h->name->local;
    const char *c = E->in->fn->local_cnames[loc];
    line(E, "if (dynac_obj_set(&%s, Py_NewRef(%s.exc)) < 0) DYNAC_LEAVE(DYNAC_ERROR); /* as %s */",
         local_name(E, loc), hv, E->in->fn->locals[loc]);
    line(E, "b_%s = true;", c);
    line(E, "%s.name = &%s; /* unbound when the clause ends */", hv, local_name(E, loc));
    line(E, "%s.bound = &b_%s;", hv, c);
    E->bound[loc] = true;
  }
  if (E->conts) /* a continuation inside the clause ends the handling itself: it gets the exception
                   handled before (_continue.py) */
    E->cloops[E->ncloops++] = (cont_loop){.s = NULL, .kind = 'x', .label = n,
                                          .objs = {arena_printf(E->m->a, "(%s.outer ? %s.outer : Py_None)", hv, hv)}};
  emit_block(E, h->body);
  if (E->conts) E->ncloops--;
  if (falls_through(E->in, h->body)) {
    line(E, "goto dynac_tried_%d;", n);
    if (h->name) E->bound[h->name->local] = false;
    join_here(E, after);
  }
  E->indent--;
  line(E, "}");
  E->indent--;
  line(E, "}");
}

/* Opens the block that label `here` reaches with an exception raised (the
 * code before it jumps over it, to `past`): the exception becomes the one
 * handled, in C variable `hv`, until the block is left. */
static void open_handling(em *E, const char *past, const char *here, const char *hv, const char *why) {
  line(E, "goto %s;", past);
  line(E, "%s:;", here);
  line(E, "{");
  E->indent++;
  line(E, "DYNAC_HANDLING %s = dynac_handling_begin(); /* %s */", hv, why);
}

/* Closes it: the exception goes on with its traceback (RERAISE). */
static void close_handling(em *E, const char *past, const char *hv, const char *why) {
  line(E, "dynac_handling_reraise(&%s); /* %s */", hv, why);
  line(E, "DYNAC_LEAVE(DYNAC_ERROR);");
  E->indent--;
  line(E, "}");
  line(E, "%s:;", past);
}

/* The except clauses of `s`, reached at route `here`'s label with the
 * exception raised; unmatched, it leaves through DYNAC_LEAVE (the finally's
 * path, or the handlers around the statement). */
static void emit_handlers(em *E, stmt *s, int n, const route *here, const bool *before, join *after) {
  const char *hv = arena_printf(E->m->a, "h%d", n), *past = arena_printf(E->m->a, "dynac_tried_%d", n);
  open_handling(E, past, here->label, hv, "the exception is being handled");
  push_scope(E, 'h', s, NULL, hv);
  for (int i = 0; i < s->u.try_.nhandlers; i++) {
    emit_handler(E, &s->u.try_.handlers[i], hv, n, before, after);
    if (!s->u.try_.handlers[i].type) break; /* a bare except takes everything (CPython: it is last) */
  }
  E->nexits--;
  bound_restore(E, before);
  close_handling(E, past, hv, "no clause matched: it goes on");
}

/* The finally block after the rest of statement `s`: on the way through
 * (`through`: the rest can end normally), and, when a failure went to
 * route `here`, on the exceptional path from its label. */
static void emit_finally(em *E, stmt *s, int n, const route *here, route *outer, bool through,
                         const bool *before) {
  if (through) emit_finally_copy(E, s, outer, E->nexits, "");
  if (!here->uses) return;
  bool *after = bound_save(E);
  const char *fv = arena_printf(E->m->a, "f%d", n), *past = arena_printf(E->m->a, "dynac_finished_%d", n);
  open_handling(E, past, here->label, fv, "the exception waits while it runs");
  bound_restore(E, before);
  push_scope(E, 'h', s, NULL, fv);
  emit_finally_copy(E, s, outer, E->nexits, ", with an exception");
  E->nexits--;
  close_handling(E, past, fv, "then goes on");
  bound_restore(E, after);
}

/* try: body / except ...: handlers / else: orelse (not protected by the
 * handlers) / finally: finalbody (protecting all of them). */
void emit_try(em *E, stmt *s) {
  int n = ++E->label;
  route *outer = E->route;
  route *fin = s->u.try_.has_finally ? new_route(E, "dynac_finally", n) : NULL;
  route *around = fin ? fin : outer; /* where failures of the handlers and else go */
  route *here = s->u.try_.nhandlers ? new_route(E, "dynac_except", n) : around;
  bool *before = bound_save(E);
  if (fin) push_scope(E, 'f', s, outer, NULL);
  route_failures(E, here);
  line(E, "{ /* try */");
  E->indent++;
  emit_block(E, s->u.try_.body);
  E->indent--;
  line(E, "}");
  route_failures(E, around);
  bool body_through = falls_through(E->in, s->u.try_.body);
  if (s->u.try_.orelse && body_through) {
    line(E, "{ /* else */");
    E->indent++;
    emit_block(E, s->u.try_.orelse);
    E->indent--;
    line(E, "}");
  }
  join after = {bound_save(E), body_through && (!s->u.try_.orelse || falls_through(E->in, s->u.try_.orelse))};
  if (s->u.try_.nhandlers && here->uses) emit_handlers(E, s, n, here, before, &after);
  else if (s->u.try_.nhandlers) line(E, "/* the body cannot raise: its except clauses are not compiled */");
  if (after.any) bound_restore(E, after.bound);
  if (!fin) return;
  E->nexits--;
  route_failures(E, outer);
  emit_finally(E, s, n, fin, outer, after.any, before);
}

/* with MGR [as TARGET]: body -- MGR entered, the target bound and the body
 * run with failures going to the exceptional exit; __exit__ called on
 * every way out (suppressing the exception when it returns true). */
void emit_with(em *E, stmt *s) {
  int n = ++E->label;
  route *outer = E->route, *here = new_route(E, "dynac_with", n);
  const char *exit = arena_printf(E->m->a, "exit%d", n);
  line(E, "{");
  E->indent++;
  const char *mgr = as_obj(E, emit_expr(E, s->u.with.mgr), TY(s->u.with.mgr));
  line(E, "DYNAC_OBJ %s = NULL; /* the manager's bound __exit__ */", exit);
  const char *v = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_with_enter(%s, &%s); /* __enter__ */", v, mgr, exit);
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* Python code ran */");
  note_effect(E);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", v, where(E));
  bool *before = bound_save(E);
  push_scope(E, 'w', s, outer, exit);
  if (E->conts) E->cloops[E->ncloops++] = (cont_loop){.s = s, .kind = 'w', .label = n, .objs = {exit}};
  route_failures(E, here);
  line(E, "{ /* with */");
  E->indent++;
  if (s->u.with.tgt) assign_target(E, s->u.with.tgt, v, &ty_obj);
  emit_block(E, s->u.with.body);
  E->indent--;
  line(E, "}");
  E->nexits--;
  if (E->conts) E->ncloops--;
  route_failures(E, outer);
  bool through = falls_through(E->in, s->u.with.body);
  if (through) emit_with_exit(E, s, exit, outer);
  if (here->uses) {
    const char *wv = arena_printf(E->m->a, "w%d", n);
    open_handling(E, arena_printf(E->m->a, "dynac_with_done_%d", n), here->label, wv,
                  "the exception is being handled");
    E->cur_line = s->pos.line;
    line(E, "int s%d = dynac_with_exit(%s, &%s); /* __exit__(type, value, traceback) */", n, exit, wv);
    line(E, "if (s%d < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", n, where(E));
    line(E, "if (!s%d) { /* not suppressed: it goes on */", n);
    line(E, "  dynac_handling_reraise(&%s);", wv);
    line(E, "  DYNAC_LEAVE(DYNAC_ERROR);");
    line(E, "}");
    E->indent--;
    line(E, "} /* suppressed: the statements after the with run */");
    line(E, "dynac_with_done_%d:;", n);
    if (through) bound_intersect(E, before); /* the body may have ended anywhere */
    else bound_restore(E, before);
  }
  E->indent--;
  line(E, "}");
}
