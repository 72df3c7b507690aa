/* exceptions.c: try/except/else in C.
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
 * Deoptimisation inside the body is unchanged: before any effect the
 * interpreter runs the whole call (the try too), after one the call goes
 * on in the interpreter from the statement, inside the same try
 * (python/dynac/_continue.py rebuilds it around the rest of the body).
 */
#include "emit.h"

/* Sends the failures in the C that follows to label `handlers` (NULL: out
 * of the kernel, a return), by redefining DYNAC_LEAVE. */
static void route_failures(em *E, const char *handlers) {
  line(E, "#undef DYNAC_LEAVE");
  if (handlers) line(E, "#define DYNAC_LEAVE(st) DYNAC_LEAVE_TO(st, %s)", handlers);
  else line(E, "#define DYNAC_LEAVE(st) return (st)");
}

/* Can the C written since offset `from` of the kernel's text raise (does
 * it leave through DYNAC_LEAVE anywhere)? */
static bool may_raise_since(em *E, size_t from) {
  const char *text = E->b->data ? E->b->data + from : "";
  return strstr(text, "DYNAC_LEAVE(") || strstr(text, "DYNAC_DEOPT_OR_SLOW(");
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

/* One except clause: its class tested against the handled exception
 * (hN), then, when it matches, its name bound and its body run. */
static void emit_handler(em *E, const handler *h, int n, const bool *before, bool *after, bool *any_after) {
  bound_restore(E, before);
  source_comment(E, h->pos);
  line(E, "{");
  E->indent++;
  if (h->type) {
    const char *cls = handler_class(E, h->type);
    const char *m = arena_printf(E->m->a, "m%d", ++E->tmp);
    line(E, "int %s = dynac_exception_matches(&h%d, %s);", m, n, cls);
    line(E, "if (%s < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", m, where(E));
    line(E, "if (%s) {", m);
  } else {
    line(E, "{ /* a bare except: every exception */");
  }
  E->indent++;
  if (h->name) {
    int loc = h->name->local;
    const char *c = E->in->fn->local_cnames[loc];
    line(E, "if (dynac_obj_set(&%s, Py_NewRef(h%d.exc)) < 0) DYNAC_LEAVE(DYNAC_ERROR); /* as %s */",
         local_name(E, loc), n, E->in->fn->locals[loc]);
    line(E, "b_%s = true;", c);
    line(E, "h%d.name = &%s; /* unbound when the clause ends */", n, local_name(E, loc));
    line(E, "h%d.bound = &b_%s;", n, c);
    E->bound[loc] = true;
  }
  emit_block(E, h->body);
  if (falls_through(E->in, h->body)) {
    line(E, "goto dynac_tried_%d;", n);
    if (h->name) E->bound[h->name->local] = false;
    if (*any_after) bound_intersect(E, after);
    memcpy(after, E->bound, sizeof(bool) * (size_t)E->in->fn->nlocals);
    *any_after = true;
  }
  E->indent--;
  line(E, "}");
  E->indent--;
  line(E, "}");
}

/* try: body / except ...: handlers / else: orelse (the else not protected). */
void emit_try(em *E, stmt *s) {
  int n = ++E->label;
  const char *outer = E->handlers;
  bool *before = bound_save(E);
  const char *here = arena_printf(E->m->a, "dynac_except_%d", n);
  route_failures(E, here);
  size_t mark = E->b->len;
  E->handlers = here;
  line(E, "{ /* try */");
  E->indent++;
  emit_block(E, s->u.try_.body);
  E->indent--;
  line(E, "}");
  E->handlers = outer;
  bool raises = may_raise_since(E, mark);
  route_failures(E, outer);
  if (s->u.try_.orelse && falls_through(E->in, s->u.try_.body)) {
    line(E, "{ /* else */");
    E->indent++;
    emit_block(E, s->u.try_.orelse);
    E->indent--;
    line(E, "}");
  }
  if (!raises) { /* nothing in the body can raise: the handlers cannot run */
    line(E, "/* the body cannot raise: its except clauses are not compiled */");
    return;
  }
  bool *after = bound_save(E);
  bool any_after = falls_through(E->in, s->u.try_.body) &&
                   (!s->u.try_.orelse || falls_through(E->in, s->u.try_.orelse));
  line(E, "goto dynac_tried_%d;", n);
  line(E, "%s:;", here);
  line(E, "{");
  E->indent++;
  line(E, "DYNAC_HANDLING h%d = dynac_handling_begin(); /* the exception is being handled */", n);
  for (int i = 0; i < s->u.try_.nhandlers; i++) {
    emit_handler(E, &s->u.try_.handlers[i], n, before, after, &any_after);
    if (!s->u.try_.handlers[i].type) break; /* a bare except takes everything (CPython: it is last) */
  }
  bound_restore(E, before);
  line(E, "dynac_handling_reraise(&h%d); /* no clause matched: it goes on */", n);
  line(E, "DYNAC_LEAVE(DYNAC_ERROR);");
  E->indent--;
  line(E, "}");
  line(E, "dynac_tried_%d:;", n);
  bound_restore(E, any_after ? after : before);
}
