/* failure.c: how a failing operation leaves a kernel: deoptimisation (the
 * interpreter runs the call again or continues it), the Python exception
 * of dynac export, checked arithmetic helpers, UnboundLocalError.
 */
#include "emit.h"

/* Exported C: `return` of failure `code` (a DYNAC_FAIL_* expression) at the
 * current line; detail: a message replacing the code's, or NULL. */
const char *export_fail(em *E, const char *code, const char *detail) {
  return arena_printf(E->m->a, "return dynac_x_fail(dynac_st, %s, %s, %s, %d)", code,
                      detail ? c_string(E->m, detail) : "NULL",
                      c_string(E->m, E->in->fn->qualname), E->cur_line);
}

/* Exported C: `if (COND) <fail>;`. code NULL: COND's value is the
 * DYNAC_FAIL_* code (a helper call returning 0 or a code). */
static void export_fail_if(em *E, const char *code, const char *why, const char *cond) {
  const char *c = why ? arena_printf(E->m->a, " /* %s */", why) : "";
  if (code) line(E, "if (%s) %s;%s", cond, export_fail(E, code, NULL), c);
  else line(E, "if ((dynac_f = %s) != 0) %s;%s", cond, export_fail(E, "dynac_f", NULL), c);
}

/* The statement being emitted has now done something a run again would
 * repeat (an opaque call, Python code, a container write): a later
 * deoptimisation in it cannot continue from its start. */
void note_effect(em *E) {
  E->rp.effect = true;
  E->rp.neffects++;
  E->effects_noted++;
}

/* Emits `if (COND) <deoptimise>;` with `why` as a comment: return DYNAC_DEOPT, or, in a
 * kernel that makes opaque calls, raise once one ran (the interpreter would
 * repeat it): DYNAC_DEOPT_OR_RAISE. why may be NULL. code: the failure's
 * DYNAC_FAIL_* code for exported C, or NULL when COND's value is the code. */
void deopt_if(em *E, const char *code, const char *why, const char *cond_fmt, ...) {
  va_list ap;
  va_start(ap, cond_fmt);
  strbuf cb = {0};
  sb_vprintf(&cb, cond_fmt, ap);
  va_end(ap);
  const char *cond = arena_strdup(E->m->a, cb.data ? cb.data : "");
  sb_free(&cb);
  if (E->exported) { export_fail_if(E, code, why, cond); return; }
  if (E->spec) { /* the speculative copy of a loop: the checked copy runs it again */
    line(E, "if (%s) goto dynac_spec_fail_%d;%s%s%s", cond, E->spec, why ? " /* " : "", why ? why : "",
         why ? " */" : "");
    return;
  }
  const char *action = "return DYNAC_DEOPT";
  if (E->conts && E->rp.s && !E->rp.effect) {
    if (!E->rp.label) E->rp.label = ++E->label;
    action = arena_printf(E->m->a, "DYNAC_DEOPT_OR_CONTINUE(dynac__effects, dynac_cont_%d)",
                          E->rp.label);
  } else if (E->effectful && !(action = mid_action(E)))
    action = arena_printf(E->m->a, "DYNAC_DEOPT_OR_RAISE(dynac__effects, DYNAC_SOURCE_NAME, %d)",
                          E->cur_line);
  line(E, "if (%s) %s;%s%s%s", cond, action, why ? " /* " : "", why ? why : "", why ? " */" : "");
}

/* deopt_if, where the interpreter then goes on exactly: from the call's
 * start (no effect possible), the statement's start, or its middle (a
 * mid_point). Emits nothing and returns false where it could only raise
 * dynac's RuntimeError (an effect, and no continuation): the caller then
 * does the operation another way (numpy's own call, in place). */
bool deopt_if_exact(em *E, const char *why, const char *cond) {
  if (E->exported || E->spec || !E->effectful || (E->conts && E->rp.s && !E->rp.effect)) {
    deopt_if(E, NULL, why, "%s", cond);
    return true;
  }
  const char *mid = mid_action(E);
  if (!mid) return false;
  line(E, "if (%s) %s /* %s */", cond, mid, why);
  return true;
}

/* Where numpy would warn (`cond`), in a kernel that can go on in the
 * interpreter from this statement: it does so even before any effect,
 * where a deoptimisation would hand the whole call to the next cache entry
 * (one taking objects runs numpy's own operation, and numpy's warning then
 * names the caller's line, kernels having no frame). Emits the jump and
 * returns true; false (nothing emitted) where there is no continuation. */
bool warn_in_interpreter_if(em *E, const char *why, const char *cond) {
  if (E->exported || E->spec || !E->conts || !E->rp.s || E->rp.effect) return false;
  if (!E->rp.label) E->rp.label = ++E->label;
  line(E, "if (%s) goto dynac_cont_%d; /* %s */", cond, E->rp.label, why);
  return true;
}

/* The operation a number helper computes, as dynac.h's DYNAC_SLOW_* code
 * (for the slow path that raises CPython's exception), or NULL. */
static const char *slow_op(const char *helper) {
  static const char *const ops[][2] = {
      {"_add", "ADD"}, {"_sub", "SUB"}, {"_mul", "MUL"}, {"_truediv", "TRUEDIV"},
      {"_div", "TRUEDIV"}, {"_floordiv", "FLOORDIV"}, {"_mod", "MOD"}, {"_pow", "POW"},
      {"_lshift", "LSHIFT"}, {"_rshift", "RSHIFT"}, {"_neg", "NEG"}};
  size_t n = strlen(helper);
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    size_t k = strlen(ops[i][0]);
    if (n > k && !strcmp(helper + n - k, ops[i][0])) return ops[i][1];
  }
  return NULL;
}

/* A fallible helper call: `int dynac_X(a, b, &t)` returning nonzero to
 * deoptimise. After an effect, an arithmetic helper's failure is redone
 * through the C API, which raises CPython's exception (ZeroDivisionError,
 * ...); int64 overflow has no exception and stays dynac_deopt_after_effect. */
const char *checked(em *E, const type *rt, const char *helper, const char *a, const char *b) {
  const char *t = tmpvar(E, rt);
  const char *call = b ? arena_printf(E->m->a, "%s(%s, %s, &%s)", helper, a, b, t)
                       : arena_printf(E->m->a, "%s(%s, &%s)", helper, a, t);
  const char *op = slow_op(helper);
  const char *box = !strncmp(helper, "dynac_int_", 10) ? "dynac_box_int"
                    : !strncmp(helper, "dynac_float_", 12) ? "dynac_box_float" : "dynac_box_num";
  const char *bv = b ? arena_printf(E->m->a, "%s(%s)", box, b) : "NULL";
  if (op && E->conts && !E->reg && E->returned_op && !E->spec) { /* `return a OP b`: the exact value is the result */
    line(E, "if (%s) DYNAC_LEAVE(dynac_slow_returned(DYNAC_SLOW_%s, %s(%s), %s, &dynac__boxed_result, %s));",
         call, op, box, a, bv, where(E));
    return t;
  }
  if (op && E->conts && E->rp.s && E->rp.effect && E->assigned_op && !E->spec) {
    /* `x = a OP b` after an effect in the statement: the exact value (a
       big int) is x, and the interpreter goes on after the statement */
    if (!E->rp.after_label) E->rp.after_label = ++E->label, E->rp.after_local = E->assigned_local;
    int n = E->rp.after_label;
    line(E, "if (%s) {", call);
    line(E, "  av%d = dynac__number_value(DYNAC_SLOW_%s, %s(%s), %s);", n, op, box, a, bv);
    line(E, "  if (!av%d) DYNAC_LEAVE(dynac_traceback_here(%s)); /* CPython's exception */", n, where(E));
    line(E, "  goto dynac_after_%d;", n);
    line(E, "}");
    return t;
  }
  const char *slow = op ? arena_printf(E->m->a, "dynac_slow_number(DYNAC_SLOW_%s, %s(%s), %s, %s)",
                                       op, box, a, bv, where(E)) : NULL;
  fail_if(E, NULL, NULL, call, slow);
  return t;
}

/* dynac.h's checked helper for an arithmetic operator, per binop (NULL:
 * plain C, or not defined for that kind). */
const char *const int_helper[9] = {"dynac_int_add", "dynac_int_sub", "dynac_int_mul", NULL,
                                   "dynac_int_floordiv", "dynac_int_mod", "dynac_int_pow",
                                   "dynac_int_lshift", "dynac_int_rshift"};
const char *const float_helper[7] = {NULL, NULL, NULL, "dynac_float_div",
                                     "dynac_float_floordiv", "dynac_float_mod",
                                     "dynac_float_pow"};

/* A failure the kernel cannot take: in a kernel without effects, deoptimise
 * (the interpreter reruns the call and gives CPython's answer). Once an
 * effect happened: continue in the interpreter from the statement's start
 * if it did nothing yet (deopt_if), else `slow`, a C expression that does
 * the operation through the C API and so raises CPython's own exception,
 * or (slow NULL) dynac_deopt_after_effect. */
void fail_if(em *E, const char *code, const char *why, const char *cond, const char *slow) {
  bool restartable = E->conts && E->rp.s && !E->rp.effect; /* the interpreter goes on from the statement */
  if (E->exported || E->spec || !E->effectful || !slow || restartable) {
    deopt_if(E, code, why, "%s", cond);
    return;
  }
  const char *mid = mid_action(E); /* the interpreter runs the statement on, exactly */
  if (mid) {
    line(E, "if (%s) %s%s%s%s", cond, mid, why ? " /* " : "", why ? why : "", why ? " */" : "");
    return;
  }
  line(E, "if (%s) DYNAC_DEOPT_OR_SLOW(dynac__effects, %s);%s%s%s", cond, slow, why ? " /* " : "",
       why ? why : "", why ? " */" : "");
}

/* The comprehension whose frame runs comprehension `comp`'s (the one
 * whose clause holds it), or NULL: the function's. */
expr *enclosing_comp(const em *E, const expr *comp) {
  for (const comp_frame *f = E->frames; f; f = f->up)
    if (f->comp == comp) return f->up ? f->up->comp : NULL;
  return NULL;
}

static const char *comp_frame_name(const expr *c) {
  return c->u.comp.consumer ? "<genexpr>" : c->u.comp.kind == 's' ? "<setcomp>"
         : c->u.comp.kind == 'd' ? "<dictcomp>" : "<listcomp>";
}

/* The arguments every slow path takes: where to add the traceback entry. */
const char *where(em *E) {
  const func *f = E->in->fn;
  if (f->synth_first) /* dataclasses' text: its def on line 2 of what exec() ran (_create_fn) */
    return arena_printf(E->m->a, "dynac_exec_filename(), %s, %d", c_string(E->m, f->name),
                        E->cur_line - f->synth_first + 2);
  if (!E->comp)
    return arena_printf(E->m->a, "dynac__G.filename, %s, %d", c_string(E->m, E->in->fn->name), /* co_name */
                        E->cur_line);
  /* the comprehension's frame, each enclosing one's at the line of the comprehension it runs, then
     the function's (dynac_traceback_here) */
  strbuf b = {0};
  sb_printf(&b, "\"%s\"", comp_frame_name(E->comp));
  const expr *c = E->comp;
  for (const expr *up = enclosing_comp(E, c); up; c = up, up = enclosing_comp(E, up))
    sb_printf(&b, " \"\\0\" \"%s\" \"\\0\" \"%d\"", comp_frame_name(up), c->pos.line);
  sb_printf(&b, " \"\\0\" %s \"\\0\" \"%d\"", c_string(E->m, E->in->fn->name), c->pos.line);
  const char *r = arena_printf(E->m->a, "dynac__G.filename, %s, %d", b.data, E->cur_line);
  sb_free(&b);
  return r;
}

/* UnboundLocalError: local `loc` read where it may be unassigned. */
void unbound_check(em *E, int loc) {
  const char *c = E->in->fn->local_cnames[loc];
  if (!E->exported) { deopt_if(E, NULL, "UnboundLocalError", "!b_%s", c); return; }
  line(E, "if (!b_%s) %s;", c, export_fail(E, "DYNAC_FAIL_UNBOUND", arena_printf(E->m->a,
       "cannot access local variable '%s' where it is not associated with a value",
       E->in->fn->locals[loc])));
}
