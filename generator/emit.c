/* emit.c: phase 6, IR -> one readable C file per module.
 *
 * Fills templates/ (module.c, kernel.c, guard.c, glue.c): per compiled
 * function a kernel per specialisation (unboxed C: int64_t, double, bool,
 * structs for tuples), per root specialisation a guard function and glue
 * (unbox, call, box), then the descriptor tables the runtime attaches.
 * Every statement is preceded by `/ * file.py:LINE: source * /`.
 */
#include "gen.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- templates ------------------------------------------------------------ */
char *read_template(const emit_opts *o, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", o->templates_dir, name);
  char *text = read_text_file(path);
  if (!text) diag_plain("cannot read template %s; is DYNAC_TEMPLATES right?", path);
  return text;
}

/* Copies `tpl` to `out`, replacing each hole with its value; the value's
 * later lines get the hole's indentation. */
bool fill(const char *tpl, const hole *holes, int nholes, strbuf *out) {
  const char *p = tpl;
  while (*p) {
    const char *h = strstr(p, "/*@ ");
    if (!h) { sb_puts(out, p); break; }
    const char *e = strstr(h, " @*/");
    if (!e) { sb_puts(out, p); break; }
    sb_putn(out, p, (size_t)(h - p));
    const char *ls = h;
    while (ls > tpl && ls[-1] != '\n') ls--;
    size_t indent = 0;
    while (ls + indent < h && (ls[indent] == ' ' || ls[indent] == '\t')) indent++;
    bool found = false;
    for (int i = 0; i < nholes; i++) {
      if (strlen(holes[i].name) == (size_t)(e - h - 4) && !strncmp(holes[i].name, h + 4, (size_t)(e - h - 4))) {
        found = true;
        for (const char *v = holes[i].value; *v; v++) {
          sb_putn(out, v, 1);
          if (*v == '\n' && v[1] && v[1] != '\n') sb_putn(out, ls, indent);
        }
      }
    }
    if (!found) { diag_plain("template hole '%.*s' has no value", (int)(e - h - 4), h + 4); return false; }
    p = e + 4;
  }
  return true;
}

/* ---- C names and types ---------------------------------------------------- */
const char *c_type(const type *t) {
  switch (t->kind) {
  case TY_INT: return "int64_t";
  case TY_FLOAT: return "double";
  case TY_BOOL: return "bool";
  case TY_NONE: return "bool"; /* None: no value to hold (always false) */
  case TY_NUM: return "dynac_num";
  case TY_LIST: case TY_OBJ: return "PyObject *";
  case TY_BUF: return "const dynac_view *";
  case TY_NP: return t->fmt == 'd' ? "double" : t->fmt == 'f' ? "float" : t->fmt == '?' ? "bool"
                                                                          : "int64_t";
  case TY_TUPLE: return t->cname;
  default: return "void";
  }
}

/* Tuple types used by the emitted code; their structs go before the kernels. */
static const type *used_tuples[512];
static int n_used_tuples;
static void note_type(const type *t) {
  if (t->kind == TY_LIST) { note_type(t->elts[0]); return; }
  if (t->kind != TY_TUPLE) return;
  for (int i = 0; i < n_used_tuples; i++) if (used_tuples[i] == t) return;
  for (int i = 0; i < t->n; i++) note_type(t->elts[i]);
  if (n_used_tuples < 512) used_tuples[n_used_tuples++] = t;
}

typedef struct loopinfo { bool has_else; int label; } loopinfo;

/* A for loop around the statement being emitted, as a continuation in the
 * interpreter needs it (dynac_continue): how to rebuild its iterator at
 * its next item. kind 'r': range (start, step, n and the count kLABEL);
 * 'c': containers (objs, their types, the enumerate count). */
typedef struct cont_loop {
  const stmt *s;
  char kind;
  int label;
  const char *start, *step, *n;
  const char *objs[8];
  const type *otys[8];
  const char *count;
} cont_loop;

/* Where a deoptimisation after an effect continues in the interpreter:
 * the statement being emitted (header: the head of for loop `s`, its item
 * not yet taken). Its code is kept apart until it ends, so that its
 * continuation block can go first (label 0: no deoptimisation point used it). `effect`: the
 * statement already did something a run again would repeat, so it cannot
 * be restarted (the call then ends in dynac_deopt_after_effect). */
typedef struct restart {
  const stmt *s;
  bool header;
  strbuf *outer_b;  /* where its code goes when it closes */
  int indent;
  int label;
  bool effect;
  int nloops;       /* enclosing cont_loops (this one too, for a header) */
  const int *versions; /* the current version of each base name (NULL: itself) */
  int after_label;  /* `x = a OP b` failing after an effect: the exact value, then the */
  int after_local;  /* interpreter goes on after the statement (dynac_after_N, x = avN) */
  int neffects;     /* effects emitted in the statement so far */
  int vbase;        /* E->vstack's entries from here on are this statement's */
  int mid_label;    /* failures inside the statement after an effect (mid_action): */
  struct mid_point *mids; /* dynac_mid_N, each with its pending operands (newest first) */
  int nmids, max_pending;
} restart;

/* An operand the statement has evaluated and not yet used: the left one of
 * a binary operator while its right one is evaluated, both while the
 * operator runs (the interpreter's value stack, as CPython's deoptimising
 * tiers rebuild it). neffects: the statement's effects by then, all inside
 * this operand or earlier ones. */
#define VSTACK_CAP 64
typedef struct pending {
  const expr *e;
  const char *v;   /* its C value; boxed: a reference the continuation takes */
  bool boxed;
  int neffects;
} pending;

/* A failure inside a statement after an effect: the interpreter runs the
 * statement again with the pending operands' values in their places
 * (`subst`: path@line:col of each, `_dynac_vK` in the continuation), so
 * nothing already evaluated is evaluated twice. The statement's failures
 * share one block (dynac_mid_N), told apart by their index (mkN). */
typedef struct mid_point {
  int n;
  const char *subst;
  struct mid_point *next;
} mid_point;

/* A region of a partially compiled function (find_regions). */
typedef struct region {
  stmt *s_first, *s_last;   /* in one split block */
  bool top;                 /* in the function's own block: names are versioned */
  const int *cur_before;    /* then each base name's version as it starts (NULL: itself) */
  int nin, nout;
  int in[256], out[256];    /* local versions: live-ins read, live-outs written */
} region;

typedef struct em {
  module *m;
  inst *in;
  strbuf *b;
  int indent;
  int tmp;
  int label;
  loopinfo loops[64];
  int nloops;
  bool line_directives;
  bool *bound;     /* definitely assigned here (no UnboundLocalError check needed) */
  const struct region *reg; /* a region kernel's region: every local, parameters too, is a
                               C local, and its continuations end where the region ends */
  bool effectful;  /* the instance makes opaque calls: deoptimisation after one raises */
  int cur_line;    /* the Python line of the statement being emitted */
  bool exported;   /* dynac export: plain C, failures fill the status (dynac_st) */
  bool *view_copy; /* [nlocals]: a view parameter whose fields are read from dv_x (view_field) */
  struct hoisted *hoisted; /* positions enclosing loops proved in range (hoist_bounds) */
  int nhoisted;
  const char *proven;  /* the okN flag known true here: the checked-free copy of a loop */
  const bool *unlogged; /* [nparams]: views that copy saved and that are writable, there */
  const expr *finite_by_parent; /* a numpy float operation whose inf/nan test a later one makes */
  const char *finite_note;      /* which (the next statement's), else the enclosing operation */
  const char *finite_later;     /* the operation being emitted is that one: a C comment */
  bool np_exit;        /* numpy float arithmetic: an underflow is looked for on the way out */
  const shape_nest *nest;   /* the untested copy of a loop (shapes.c): the loops over lists in
                               it whose items' shape the test before it proved */
  bool no_nest;             /* the tested copy: no versioning again */
  const shape_plan *shaped; /* in the body of such a loop over a list: what was proved */
  bool shaped_target;       /* assigning its target: its [x, y, z] unpackings are proven */
  bool conts;               /* deoptimisation after an effect continues in the interpreter */
  restart rp;               /* the current restart point (conts) */
  cont_loop cloops[64];     /* the for loops around it, outermost first */
  int ncloops;
  const int *versions;      /* the top-level statement's version of each base name */
  const expr *returned;     /* the value of the return statement being emitted */
  bool returned_op;         /* emitting that value's own operation (checked()) */
  const expr *assigned;     /* the value of `local = a OP b` being emitted */
  int assigned_local;
  bool assigned_op;         /* emitting its operation, or the one of `local op= v` */
  pending vstack[VSTACK_CAP]; /* the operands pending in the statements being emitted */
  int nvstack;
  int call_base;            /* where the arguments of the call being emitted start */
} em;

/* A position of a view access that a test before an enclosing loop proved
 * in range: `ok` (a const bool) holds the test's answer; then the position
 * is a * v + b, `b` a local computed before the loop. */
typedef struct hoisted {
  expr *index;
  const char *ok, *b;
  int64_t a;
  int var;
} hoisted;

/* Definite assignment over structured control flow: a local assigned on
 * every path to a read needs no UnboundLocalError check. */
static bool *bound_save(em *E) {
  bool *b = arena_alloc(E->m->a, sizeof(bool) * (size_t)(E->in->fn->nlocals + 1));
  memcpy(b, E->bound, sizeof(bool) * (size_t)E->in->fn->nlocals);
  return b;
}
static void bound_restore(em *E, const bool *b) {
  memcpy(E->bound, b, sizeof(bool) * (size_t)E->in->fn->nlocals);
}
static void bound_intersect(em *E, const bool *b) {
  for (int i = 0; i < E->in->fn->nlocals; i++) E->bound[i] = E->bound[i] && b[i];
}

static void line(em *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(em *E, const char *fmt, ...) {
  strbuf text = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&text, fmt, ap); /* never cut: names can be long (nested tuple types) */
  va_end(ap);
  for (const char *p = text.data ? text.data : ""; ; p++) { /* each line of it indented */
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    for (int i = 0; i < E->indent; i++) sb_puts(E->b, "  ");
    sb_putn(E->b, p, n);
    sb_puts(E->b, "\n");
    if (!nl) break;
    p = nl;
  }
  sb_free(&text);
}

static const char *c_string(module *m, const char *s);

/* Exported C: `return` of failure `code` (a DYNAC_FAIL_* expression) at the
 * current line; detail: a message replacing the code's, or NULL. */
static const char *export_fail(em *E, const char *code, const char *detail) {
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
static void note_effect(em *E) {
  E->rp.effect = true;
  E->rp.neffects++;
}

/* Operand e, evaluated as C value v, is pending (struct pending); boxed: v
 * is a reference the continuation takes. Past VSTACK_CAP pending operands
 * the deepest stay unrecorded: mid_action then refuses. */
static void push_operand(em *E, const expr *e, const char *v, bool boxed) {
  if (E->nvstack < VSTACK_CAP)
    E->vstack[E->nvstack++] = (pending){.e = e, .v = v, .boxed = boxed, .neffects = E->rp.neffects};
}
static void push_pending(em *E, const expr *e, const char *v) { push_operand(E, e, v, false); }

/* A number or bool: a C value whose truth and boxing run no Python code. */
static bool is_scalar(const type *t) {
  return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || t->kind == TY_NUM;
}

/* Emits `if (COND) <deoptimise>;` with `why` as a comment: return DYNAC_DEOPT, or, in a
 * kernel that makes opaque calls, raise once one ran (the interpreter would
 * repeat it): DYNAC_DEOPT_OR_RAISE. why may be NULL. code: the failure's
 * DYNAC_FAIL_* code for exported C, or NULL when COND's value is the code. */
static const char *mid_action(em *E);
static void deopt_if(em *E, const char *code, const char *why, const char *cond_fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void deopt_if(em *E, const char *code, const char *why, const char *cond_fmt, ...) {
  va_list ap;
  va_start(ap, cond_fmt);
  strbuf cb = {0};
  sb_vprintf(&cb, cond_fmt, ap);
  va_end(ap);
  const char *cond = arena_strdup(E->m->a, cb.data ? cb.data : "");
  sb_free(&cb);
  if (E->exported) { export_fail_if(E, code, why, cond); return; }
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

static const char *tmpvar(em *E, const type *t) {
  note_type(t);
  const char *name = arena_printf(E->m->a, "t%d", ++E->tmp);
  if (t->kind == TY_OBJ) line(E, "DYNAC_OBJ %s = NULL; /* owned, released leaving the block */", name);
  else if (t->kind == TY_TUPLE || t->kind == TY_NUM) line(E, "%s %s = {0};", c_type(t), name);
  else line(E, "%s %s = 0;", c_type(t), name); /* set before use; 0 keeps -Wmaybe-uninitialized quiet */
  return name;
}

/* Does list local i hold a reference of its own? In an instance that
 * builds lists a rebinding may release a list's last reference, so its
 * list locals own theirs (DYNAC_OBJ), except parameters it never rebinds
 * (the caller holds those). */
static bool owned_list_local(const inst *in, int i) {
  return in->builds_lists && in->local_ty[i]->kind == TY_LIST &&
         (i >= in->fn->nparams || block_binds(in->fn->body, i));
}

static const char *local_name(em *E, int i) { return arena_printf(E->m->a, "l_%s", E->in->fn->local_cnames[i]); }

/* The source line for a comment: no comment terminators, trimmed. */
static const char *comment_text(module *m, int ln) {
  int len;
  const char *s = source_line(&m->p.src, ln, &len);
  while (len > 0 && (*s == ' ' || *s == '\t')) { s++; len--; }
  strbuf b = {0};
  for (int i = 0; i < len; i++) {
    if (s[i] == '*' && i + 1 < len && s[i + 1] == '/') { sb_puts(&b, "* /"); i++; continue; }
    if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') { sb_puts(&b, "/ *"); i++; continue; }
    sb_putn(&b, s + i, 1);
  }
  char *r = arena_strdup(m->a, b.data ? b.data : "");
  sb_free(&b);
  return r;
}

static const char *basename_of(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static void source_comment(em *E, srcpos pos) {
  E->cur_line = pos.line;
  line(E, "/* %s:%d: %s */", basename_of(E->m->path), pos.line, comment_text(E->m, pos.line));
  if (E->line_directives) sb_printf(E->b, "#line %d \"%s\"\n", pos.line, E->m->path);
}

/* ---- expressions ------------------------------------------------------------ */
static const char *emit_expr(em *E, expr *e);

static const char *checked(em *E, const type *rt, const char *helper, const char *a, const char *b);

static const char *as_double(em *E, const char *v, const type *t) {
  if (t->kind == TY_NUM) return arena_printf(E->m->a, "dynac_num_to_double(%s)", v);
  if (t->kind == TY_NP && t->fmt == 'd') return v;
  return t->kind == TY_FLOAT ? v : arena_printf(E->m->a, "(double)%s", v);
}
/* An int-only use; a number that is a float at run time raises TypeError. */
static const char *as_int(em *E, const char *v, const type *t) {
  if (t->kind == TY_NUM) return checked(E, &ty_int, "dynac_num_as_int", v, NULL);
  return t->kind == TY_BOOL || (t->kind == TY_NP && t->fmt == '?')
             ? arena_printf(E->m->a, "(int64_t)%s", v) : v;
}
static const char *as_num(em *E, const char *v, const type *t) {
  switch (t->kind) {
  case TY_NUM: return v;
  case TY_FLOAT: return arena_printf(E->m->a, "dynac_num_f(%s)", v);
  case TY_BOOL: return arena_printf(E->m->a, "dynac_num_i((int64_t)%s)", v);
  default: return arena_printf(E->m->a, "dynac_num_i(%s)", v);
  }
}
/* `v` of type `from` where a `to` is declared (a local, a return, a branch). */
static const char *box_value(em *E, const char *v, const type *t);
static const char *where(em *E);
/* A value as an object: itself, or boxed into an owned temporary. */
static const char *as_obj(em *E, const char *v, const type *t) {
  if (t->kind == TY_OBJ || t->kind == TY_LIST) return v; /* a list: borrowed, held by the caller */
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = %s;", o, box_value(E, v, t));
  line(E, "if (!%s) return dynac_traceback_here(%s);", o, where(E));
  return o;
}

static const char *convert(em *E, const char *v, const type *from, const type *to) {
  if (from == to || to->kind == TY_UNKNOWN) return v;
  if (to->kind == TY_OBJ) return as_obj(E, v, from);
  if (to->kind == TY_NUM) return as_num(E, v, from);
  if (to->kind == TY_FLOAT) return as_double(E, v, from);
  if (to->kind == TY_BOOL && from->kind == TY_BOOL) return v;
  return v;
}
/* Field `f` of the view `v` (a `const dynac_view *` expression). A view
 * parameter the kernel never rebinds has its fields copied to a local,
 * dv_x, at entry (they do not change during a call): the kernels are built
 * with -fno-strict-aliasing, so after a store through an item pointer the
 * compiler would reload l_x->buf, ->len... from memory; it keeps a local
 * whose address is never taken in registers. Logging a write still takes
 * the view itself (l_x), whose `snapped` and `logged` do change. */
static const char *copied_view(em *E, const char *v) { /* its C name, or NULL */
  for (int i = 0; E->view_copy && i < E->in->fn->nparams; i++)
    if (E->view_copy[i] && v[0] == 'l' && v[1] == '_' && !strcmp(v + 2, E->in->fn->local_cnames[i]))
      return E->in->fn->local_cnames[i];
  return NULL;
}
/* Is view `v` one whose stores need neither an undo entry nor the
 * read-only test here? (the unchecked copy of a loop, see versioned_condition) */
static bool view_unlogged(em *E, const char *v) {
  const char *c = copied_view(E, v);
  for (int i = 0; c && E->unlogged && i < E->in->fn->nparams; i++)
    if (E->unlogged[i] && !strcmp(c, E->in->fn->local_cnames[i])) return true;
  return false;
}
static const char *view_field(em *E, const char *v, const char *f) {
  const char *c = copied_view(E, v);
  return c ? arena_printf(E->m->a, "dv_%s.%s", c, f) : arena_printf(E->m->a, "%s->%s", v, f);
}

/* Length of a list or buffer value (a Py_ssize_t expression). */
static const char *len_of(em *E, const char *obj, const type *t) {
  return t->kind == TY_LIST ? arena_printf(E->m->a, "PyList_GET_SIZE(%s)", obj)
                            : view_field(E, obj, "len");
}
static const char *truth(em *E, const char *v, const type *t) {
  if (t->kind == TY_OBJ) { /* __bool__ or __len__ may run */
    const char *r = arena_printf(E->m->a, "t%d", ++E->tmp);
    line(E, "int %s = dynac_obj_truth(%s, &dynac__effects);", r, v);
    note_effect(E);
    line(E, "if (%s < 0) return dynac_traceback_here(%s);", r, where(E));
    return r;
  }
  if (t->kind == TY_NUM) return arena_printf(E->m->a, "dynac_num_truth(%s)", v);
  if (t->kind == TY_BOOL || (t->kind == TY_NP && t->fmt == '?')) return v;
  if (t->kind == TY_FLOAT) return arena_printf(E->m->a, "(%s != 0.0)", v);
  if (t->kind == TY_LIST || t->kind == TY_BUF) /* a container is true when not empty */
    return arena_printf(E->m->a, "(%s != 0)", len_of(E, v, t));
  return arena_printf(E->m->a, "(%s != 0)", v);
}

static const char *float_literal(em *E, double f) {
  if (isinf(f)) return f > 0 ? "HUGE_VAL" : "(-HUGE_VAL)";
  if (isnan(f)) return signbit(f) ? "(-NAN)" : "NAN";
  char buf[64];
  for (int prec = 15; prec <= 17; prec++) { /* the shortest spelling that round-trips */
    snprintf(buf, sizeof buf, "%.*g", prec, f);
    if (strtod(buf, NULL) == f) break;
  }
  if (!strpbrk(buf, ".en")) strcat(buf, ".0");
  return arena_strdup(E->m->a, buf);
}

static void fail_if(em *E, const char *code, const char *why, const char *cond, const char *slow);
static const char *where(em *E);

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
static const char *checked(em *E, const type *rt, const char *helper, const char *a, const char *b) {
  const char *t = tmpvar(E, rt);
  const char *call = b ? arena_printf(E->m->a, "%s(%s, %s, &%s)", helper, a, b, t)
                       : arena_printf(E->m->a, "%s(%s, &%s)", helper, a, t);
  const char *op = slow_op(helper);
  const char *box = !strncmp(helper, "dynac_int_", 10) ? "dynac_box_int"
                    : !strncmp(helper, "dynac_float_", 12) ? "dynac_box_float" : "dynac_box_num";
  const char *bv = b ? arena_printf(E->m->a, "%s(%s)", box, b) : "NULL";
  if (op && E->conts && !E->reg && E->returned_op) { /* `return a OP b`: the exact value is the result */
    line(E, "if (%s) return dynac_slow_returned(DYNAC_SLOW_%s, %s(%s), %s, &dynac__boxed_result, %s);",
         call, op, box, a, bv, where(E));
    return t;
  }
  if (op && E->conts && E->rp.s && E->rp.effect && E->assigned_op) {
    /* `x = a OP b` after an effect in the statement: the exact value (a
       big int) is x, and the interpreter goes on after the statement */
    if (!E->rp.after_label) E->rp.after_label = ++E->label, E->rp.after_local = E->assigned_local;
    int n = E->rp.after_label;
    line(E, "if (%s) {", call);
    line(E, "  av%d = dynac__number_value(DYNAC_SLOW_%s, %s(%s), %s);", n, op, box, a, bv);
    line(E, "  if (!av%d) return dynac_traceback_here(%s); /* CPython's exception */", n, where(E));
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
static const char *const int_helper[] = {"dynac_int_add", "dynac_int_sub", "dynac_int_mul", NULL,
                                         "dynac_int_floordiv", "dynac_int_mod", "dynac_int_pow",
                                         "dynac_int_lshift", "dynac_int_rshift"};
static const char *const float_helper[] = {NULL, NULL, NULL, "dynac_float_div",
                                           "dynac_float_floordiv", "dynac_float_mod",
                                           "dynac_float_pow"};

/* Is `e` a numpy float + - * whose result is inf or nan whenever an operand
 * is (IEEE 754: inf + x, inf * x, nan op x)? Then an operand that is itself
 * such an operation need not test its own result: numpy would have warned
 * there, and the test here deoptimises for both (the interpreter runs the
 * call again and warns in order). Division is not: x / inf is 0. */
static bool add_sub_mul(binop op) { return op == OP_ADD || op == OP_SUB || op == OP_MUL; }
static bool np_float(const type *t) { return t->kind == TY_NP && np_is_float(t->fmt); }
static bool finite_operands_pass(const expr *e) {
  return e->kind == EX_BINOP && np_float(e->ty) && add_sub_mul(e->u.bin.op);
}

/* Can evaluating `e` neither run Python code nor leave the kernel other
 * than by deoptimising? A left operand's inf/nan test may wait for its
 * parent's only when the right operand is quiet: nothing observable may
 * happen between numpy's warning and the test that stands for it. */
static bool quiet(em *E, const expr *e) {
  switch (e->kind) {
  case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_GLOBAL: return true;
  case EX_LOCAL: return E->bound[e->u.local];
  case EX_UNARY: /* -x of a float */
    return e->u.un.op == UN_NEG && (e->ty->kind == TY_FLOAT || np_float(e->ty)) && quiet(E, e->u.un.a);
  case EX_BINOP: /* float + - * cannot fail; numpy's inf/nan test deoptimises */
    return (e->ty->kind == TY_FLOAT || np_float(e->ty)) && add_sub_mul(e->u.bin.op) &&
           quiet(E, e->u.bin.l) && quiet(E, e->u.bin.r);
  case EX_SUBSCRIPT: { /* a float item at positions proved in range, in the unchecked loop */
    const type *ot = e->u.sub.obj->ty;
    if (ot->kind != TY_BUF || (ot->fmt != 'd' && ot->fmt != 'f') || !quiet(E, e->u.sub.obj)) return false;
    int n = ot->buf_kind == 'n' && ot->ndim == 2 ? 2 : 1;
    for (int k = 0; k < n; k++) {
      const expr *p = n == 2 ? e->u.sub.index->u.tuple.elts[k] : e->u.sub.index;
      bool proven = false;
      for (int i = 0; i < E->nhoisted && !proven; i++)
        proven = E->hoisted[i].index == p && E->hoisted[i].ok == E->proven;
      if (!proven) return false;
    }
    return true;
  }
  default: return false;
  }
}

/* l OP r with a numpy result dtype (infer.c np_binop_type), computed in
 * the result's C type. Where numpy would wrap, give inf or nan (with a
 * RuntimeWarning) or raise, the kernel deoptimises and the interpreter
 * gives numpy's own answer: a float result that is not finite, an integer
 * that leaves int64 or the dtype's range, a zero divisor. */
static const char *emit_np_binop(em *E, binop op, const char *l, const type *lt, const char *r,
                                 const type *rt, const type *res) {
  char f = res->fmt;
  const char *t = tmpvar(E, res);
  if (np_is_float(f)) {
    const char *ct = f == 'd' ? "double" : "float";
    const char *a = arena_printf(E->m->a, "(%s)%s", ct, l), *b = arena_printf(E->m->a, "(%s)%s", ct, r);
    if (op <= OP_TRUEDIV)
      line(E, "%s = %s %s %s;%s", t, a, binop_spelling[op], b, E->finite_later ? E->finite_later : "");
    else deopt_if(E, NULL, "numpy: a zero divisor, or a complex or overflowing power",
                  "%s(%s, %s, &%s)", float_helper[op], a, b, t);
    if (!E->finite_later) deopt_if(E, NULL, "numpy: inf or nan (with a RuntimeWarning, or as the interpreter has it)",
              "!isfinite(%s)", t);
    return t;
  }
  const char *a = as_int(E, l, lt), *b = as_int(E, r, rt);
  if (op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR) {
    line(E, "%s = %s %s %s;", t, a, binop_spelling[op], b);
    return t;
  }
  deopt_if(E, NULL, "numpy: wraps, warns or raises here", "%s(%s, %s, &%s)", int_helper[op], a, b, t);
  if (f != 'l') deopt_if(E, NULL, "numpy: wraps to the dtype's range", "!dynac_np_fits(%s, '%c')", t, f);
  return t;
}

static const char *emit_binop_values(em *E, binop op, const char *l, const type *lt,
                                     const char *r, const type *rt, const type *res) {
  if (res->kind == TY_NP) return emit_np_binop(E, op, l, lt, r, rt, res);
  if (res->kind == TY_OBJ) { /* PyNumber_Add, ...: CPython's result and exceptions */
    const char *a = as_obj(E, l, lt), *b = as_obj(E, r, rt);
    const char *o = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_obj_binop(%s, %s, %d, &dynac__effects); /* %s */", o, a, b, (int)op,
         binop_spelling[op]);
    note_effect(E);
    line(E, "if (!%s) return dynac_traceback_here(%s);", o, where(E));
    return o;
  }
  static const char *const num_helper[] = {"dynac_num_add", "dynac_num_sub", "dynac_num_mul",
                                           NULL, "dynac_num_floordiv", "dynac_num_mod",
                                           "dynac_num_pow"};
  if (res->kind == TY_NUM)
    return checked(E, &ty_num, num_helper[op], as_num(E, l, lt), as_num(E, r, rt));
  if (op == OP_TRUEDIV && (lt->kind == TY_NUM || rt->kind == TY_NUM))
    return checked(E, &ty_float, "dynac_num_truediv", as_num(E, l, lt), as_num(E, r, rt));
  if (res->kind == TY_BOOL) /* & | ^ of two bools */
    return arena_printf(E->m->a, "(bool)(%s %s %s)", l, binop_spelling[op], r);
  if (res->kind == TY_FLOAT) {
    if (lt->kind != TY_FLOAT && rt->kind != TY_FLOAT && op == OP_TRUEDIV)
      return checked(E, &ty_float, "dynac_int_truediv", as_int(E, l, lt), as_int(E, r, rt));
    const char *a = as_double(E, l, lt), *b = as_double(E, r, rt);
    if (op <= OP_MUL) return arena_printf(E->m->a, "(%s %s %s)", a, binop_spelling[op], b);
    return checked(E, &ty_float, float_helper[op], a, b); /* / // % ** (bit ops fail typing) */
  }
  const char *a = as_int(E, l, lt), *b = as_int(E, r, rt);
  if (op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR)
    return arena_printf(E->m->a, "(%s %s %s)", a, binop_spelling[op], b);
  return checked(E, &ty_int, int_helper[op], a, b); /* int / int is typed float, above */
}

static const char *cmp_values(em *E, cmpop op, const char *l, const type *lt, const char *r,
                              const type *rt) {
  static const char *const macro[] = {"LT", "LE", "GT", "GE", "EQ", "NE"};
  static const cmpop mirror[] = {CMP_GT, CMP_GE, CMP_LT, CMP_LE, CMP_EQ, CMP_NE};
  if (lt->kind == TY_NP || rt->kind == TY_NP) { /* numpy compares in the promoted dtype */
    bool fl = np_is_float(np_promote(np_dtype_of(lt), np_dtype_of(rt)));
    return fl ? arena_printf(E->m->a, "((double)%s %s (double)%s)", l, cmpop_spelling[op], r)
              : arena_printf(E->m->a, "(%s %s %s)", as_int(E, l, lt), cmpop_spelling[op], as_int(E, r, rt));
  }
  if (lt->kind == TY_NUM || rt->kind == TY_NUM)
    return arena_printf(E->m->a, "DYNAC_CMP_%s(dynac_num_cmp(%s, %s))", macro[op],
                        as_num(E, l, lt), as_num(E, r, rt));
  bool lf = lt->kind == TY_FLOAT, rf = rt->kind == TY_FLOAT;
  if (lf == rf) return arena_printf(E->m->a, "(%s %s %s)", l, cmpop_spelling[op], r);
  if (!lf) /* int OP float: exact */
    return arena_printf(E->m->a, "DYNAC_CMP_%s(dynac_cmp_int_float(%s, %s))", macro[op],
                        as_int(E, l, lt), r);
  return arena_printf(E->m->a, "DYNAC_CMP_%s(dynac_cmp_int_float(%s, %s))", macro[mirror[op]],
                      as_int(E, r, rt), l);
}

/* a < b < c: b evaluated once, later comparisons only if earlier ones hold. */
static const char *emit_compare(em *E, expr *e) {
  if (e->u.cmp.ops[0] == CMP_IS || e->u.cmp.ops[0] == CMP_IS_NOT) { /* x is [not] None */
    expr *x = e->u.cmp.operands[e->u.cmp.operands[0]->kind == EX_NONE ? 1 : 0];
    const char *v = emit_expr(E, x); /* evaluated as in CPython, even when the type decides */
    if (e->u.cmp.folded >= 0) return e->u.cmp.folded ? "true" : "false";
    return arena_printf(E->m->a, "(%s %s Py_None)", v, e->u.cmp.ops[0] == CMP_IS ? "==" : "!=");
  }
  if (e->ty->kind == TY_OBJ) { /* a OP b with an object: PyObject_RichCompare (infer: no chains) */
    static const char *const rich[] = {"Py_LT", "Py_LE", "Py_GT", "Py_GE", "Py_EQ", "Py_NE"};
    expr *l = e->u.cmp.operands[0], *r = e->u.cmp.operands[1];
    int depth = E->nvstack;
    const char *lv = emit_expr(E, l);
    push_pending(E, l, lv);
    const char *a = as_obj(E, lv, l->ty);
    const char *b = as_obj(E, emit_expr(E, r), r->ty);
    E->nvstack = depth;
    const char *o = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_obj_compare(%s, %s, %s, &dynac__effects);", o, a, b, rich[e->u.cmp.ops[0]]);
    note_effect(E);
    line(E, "if (!%s) return dynac_traceback_here(%s);", o, where(E));
    return o;
  }
  const char *res = tmpvar(E, &ty_bool);
  const char *prev = emit_expr(E, e->u.cmp.operands[0]);
  const type *pt = e->u.cmp.operands[0]->ty;
  int opened = 0, depth = E->nvstack;
  if (e->u.cmp.n == 2) push_pending(E, e->u.cmp.operands[0], prev); /* a chain compares again */
  for (int i = 1; i < e->u.cmp.n; i++) {
    expr *o = e->u.cmp.operands[i];
    const char *cur = emit_expr(E, o);
    E->nvstack = depth;
    if (i + 1 < e->u.cmp.n && o->kind != EX_LOCAL && o->kind != EX_INT && o->kind != EX_FLOAT) {
      const char *keep = tmpvar(E, o->ty);
      line(E, "%s = %s;", keep, cur);
      cur = keep;
    }
    line(E, "%s = %s;", res, cmp_values(E, e->u.cmp.ops[i - 1], prev, pt, cur, o->ty));
    if (i + 1 < e->u.cmp.n) { line(E, "if (%s) {", res); E->indent++; opened++; }
    prev = cur;
    pt = o->ty;
  }
  while (opened--) { E->indent--; line(E, "}"); }
  return res;
}

static const char *keep(em *E, const char *v, const type *t);

/* and/or: value form (both operands of one type) or truth form. */
static const char *emit_boolop(em *E, expr *e) {
  bool value_form = e->ty->kind != TY_BOOL || (e->u.boolop.l->ty == e->ty && e->u.boolop.r->ty == e->ty);
  const char *res = tmpvar(E, e->ty);
  const char *l = emit_expr(E, e->u.boolop.l);
  const type *lt = e->u.boolop.l->ty;
  int depth = E->nvstack;
  if (E->conts && E->effectful && is_scalar(lt)) {
    l = keep(E, l, lt); /* pending while the right operand runs: its truth runs no code */
    push_pending(E, e->u.boolop.l, l);
  }
  line(E, "%s = %s;", res, value_form ? convert(E, l, lt, e->ty) : truth(E, l, lt));
  const char *test = truth(E, res, e->ty);
  line(E, e->u.boolop.is_and ? "if (%s) {" : "if (!%s) {", test);
  E->indent++;
  const char *r = emit_expr(E, e->u.boolop.r);
  E->nvstack = depth;
  line(E, "%s = %s;", res, value_form ? convert(E, r, e->u.boolop.r->ty, e->ty)
                                      : truth(E, r, e->u.boolop.r->ty));
  E->indent--;
  line(E, "}");
  return res;
}

/* The value of one branch of a conditional expression, stored into `res`
 * before its block (and the temporaries in it) ends: a list is held. */
static void ifexp_branch(em *E, expr *e, expr *branch, const char *res, bool held) {
  E->indent++;
  const char *v = emit_expr(E, branch);
  if (held) line(E, "%s = Py_NewRef(%s);", res, v);
  else line(E, "%s = %s;", res, e->ty->kind == TY_BOOL && branch->ty->kind != TY_BOOL
                                  ? truth(E, v, branch->ty) : convert(E, v, branch->ty, e->ty));
  E->indent--;
}

static const char *emit_ifexp(em *E, expr *e) {
  bool held = e->ty->kind == TY_LIST && E->in->builds_lists; /* a new list dies with its block */
  const char *res = tmpvar(E, held ? &ty_obj : e->ty);
  const char *c = emit_expr(E, e->u.ifexp.cond);
  line(E, "if (%s) {", truth(E, c, e->u.ifexp.cond->ty));
  ifexp_branch(E, e, e->u.ifexp.then, res, held);
  line(E, "} else {");
  ifexp_branch(E, e, e->u.ifexp.orelse, res, held);
  line(E, "}");
  return res;
}

static const char *emit_tuple(em *E, expr *e) {
  const char *res = tmpvar(E, e->ty);
  int depth = E->nvstack;
  for (int i = 0; i < e->u.tuple.n; i++) {
    const char *v = emit_expr(E, e->u.tuple.elts[i]);
    const type *et = e->u.tuple.elts[i]->ty;
    if (et->kind == TY_OBJ || (et->kind == TY_LIST && E->in->builds_lists)) {
      /* a, b = b, a: rebinding a must not free b's value */
      const char *own = tmpvar(E, &ty_obj);
      line(E, "%s = Py_NewRef(%s);", own, v);
      v = own;
    }
    line(E, "%s.v%d = %s;", res, i, v);
    push_pending(E, e->u.tuple.elts[i], arena_printf(E->m->a, "%s.v%d", res, i));
  }
  E->nvstack = depth;
  return res;
}

static const char *slot_ref(em *E, slot *s) {
  return arena_printf(E->m->a, "dynac__slots[%d]", s->index);
}

/* Boxes a kernel value for a call through the C API (new reference). */
static const char *box_value(em *E, const char *v, const type *t) {
  switch (t->kind) {
  case TY_INT: return arena_printf(E->m->a, "dynac_box_int(%s)", v);
  case TY_FLOAT: return arena_printf(E->m->a, "dynac_box_float(%s)", v);
  case TY_NUM: return arena_printf(E->m->a, "dynac_box_num(%s)", v);
  case TY_LIST: case TY_OBJ: return arena_printf(E->m->a, "Py_NewRef(%s)", v);
  case TY_NONE: return "Py_NewRef(Py_None)";
  case TY_BUF: return arena_printf(E->m->a, "Py_NewRef(%s->obj)", v);
  case TY_TUPLE: return arena_printf(E->m->a, "dynac_box_%s(&%s)", t->code, v);
  case TY_NP: return arena_printf(E->m->a, "dynac_box_np_%s(%s)", np_name(t->fmt), v);
  default: return arena_printf(E->m->a, "dynac_box_bool(%s)", v);
  }
}

/* Argument i of call e (a builtin, math, module or allow_in_graph callee:
 * its arguments are the call's own), pending until the call ends
 * (emit_call drops them). In a kernel whose statements may go on in the
 * interpreter, a number is kept in a temporary first, so its value is the
 * one evaluated even if a later argument's effect changes what it read. */
static const char *emit_arg(em *E, expr *e, int i) {
  expr *a = e->u.call.args[i];
  const char *v = emit_expr(E, a);
  if (!E->conts || !E->effectful) return v;
  if (is_scalar(a->ty)) v = keep(E, v, a->ty);
  push_pending(E, a, v);
  return v;
}

static const char *emit_api_call(em *E, expr *e, const char *fn_obj) {
  const char *vals[64];
  for (int i = 0; i < e->u.call.n; i++) vals[i] = emit_arg(E, e, i);
  const char *res = tmpvar(E, e->ty);
  strbuf args = {0};
  for (int i = 0; i < e->u.call.n; i++) {
    if (i) sb_puts(&args, ", ");
    sb_puts(&args, box_value(E, vals[i], e->u.call.args[i]->ty));
  }
  const char *unbox = e->ty->kind == TY_FLOAT ? "dynac_unbox_float"
                      : e->ty->kind == TY_INT ? "dynac_unbox_int"
                      : e->ty->kind == TY_NUM ? "dynac_unbox_num" : "dynac_unbox_bool";
  line(E, "{");
  E->indent++;
  line(E, "PyObject *argv[%d] = {%s};", e->u.call.n, args.data ? args.data : "NULL");
  deopt_if(E, "DYNAC_FAIL_NONE_RESULT", NULL, "%s(dynac_call_api(%s, argv, %d), &%s)", unbox, fn_obj,
       e->u.call.n, res);
  E->indent--;
  line(E, "}");
  sb_free(&args);
  return res;
}

static const char *emit_math(em *E, expr *e) {
  const char *name = e->u.call.name;
  const char *kind = math_return_kind(name, e->u.call.n);
  slot *s = e->u.call.callee_slot;
  if (!strcmp(kind, "api"))
    return emit_api_call(E, e, arena_printf(E->m->a, "%s.obj", slot_ref(E, s)));
  expr *a0 = e->u.call.args[0];
  const char *x = emit_arg(E, e, 0);
  if (!strcmp(name, "floor") || !strcmp(name, "ceil") || !strcmp(name, "trunc")) {
    if (a0->ty->kind == TY_NUM)
      return checked(E, &ty_int, !strcmp(name, "floor") ? "dynac_num_floor" : !strcmp(name, "ceil")
                     ? "dynac_num_ceil" : "dynac_num_to_int", x, NULL);
    if (a0->ty->kind != TY_FLOAT && a0->ty->kind != TY_NP) return as_int(E, x, a0->ty);
    x = as_double(E, x, a0->ty); /* numpy scalars: through float(), as math does */
    const char *t = tmpvar(E, &ty_int);
    if (!strcmp(name, "trunc")) deopt_if(E, NULL, NULL, "dynac_float_to_int(%s, &%s)", x, t);
    else deopt_if(E, NULL, NULL, "dynac_float_to_int(%s(%s), &%s)", name, x, t);
    return t;
  }
  const char *xd = as_double(E, x, a0->ty);
  if (!strcmp(name, "isnan") || !strcmp(name, "isinf") || !strcmp(name, "isfinite"))
    return arena_printf(E->m->a, "(bool)%s(%s)", name, xd);
  if (!strcmp(name, "degrees")) return arena_printf(E->m->a, "(%s * (180.0 / M_PI))", xd);
  if (!strcmp(name, "radians")) return arena_printf(E->m->a, "(%s * (M_PI / 180.0))", xd);
  const char *t = tmpvar(E, &ty_float);
  if (e->u.call.n == 1) {
    bool cpython_wrapper = !strcmp(name, "log") || !strcmp(name, "log2") || !strcmp(name, "log10");
    if (cpython_wrapper) line(E, "%s = dynac_math_%s(%s);", t, name, xd);
    else line(E, "%s = dynac_libm_1(%s, %s);", t, name, xd);
    static const char *const can_overflow[] = {"exp", "exp2", "expm1", "cosh", "sinh", "gamma",
                                               "lgamma"};
    int ovf = 0;
    for (size_t i = 0; i < sizeof can_overflow / sizeof *can_overflow; i++)
      ovf |= !strcmp(name, can_overflow[i]);
    deopt_if(E, NULL, "math domain/range error", "dynac_math_check1(%s, %s, %d)", xd, t, ovf);
    return t;
  }
  const char *y = emit_arg(E, e, 1);
  const char *yd = as_double(E, y, e->u.call.args[1]->ty);
  if (!strcmp(name, "copysign")) line(E, "%s = dynac_libm_2(copysign, %s, %s);", t, xd, yd);
  else line(E, "%s = dynac_math_%s(%s, %s);", t, name, xd, yd); /* CPython's own rules */
  deopt_if(E, NULL, "math domain/range error", "dynac_math_check2(%s, %s, %s)",
       xd, yd, t);
  return t;
}

static const char *emit_builtin(em *E, expr *e) {
  const char *name = e->u.call.name;
  int n = e->u.call.n;
  if (!strcmp(name, "round") && n == 2)
    return emit_api_call(E, e, arena_printf(E->m->a, "%s.obj", slot_ref(E, e->u.call.callee_slot)));
  if (!strcmp(name, "bool") && n == 0) return "false";
  expr *a0 = e->u.call.args[0];
  const char *x = emit_arg(E, e, 0);
  const type *t0 = a0->ty;
  if (t0->kind == TY_NUM && (!strcmp(name, "abs") || !strcmp(name, "int") || !strcmp(name, "round")))
    return checked(E, !strcmp(name, "abs") ? &ty_num : &ty_int, !strcmp(name, "abs") ? "dynac_num_abs"
                   : !strcmp(name, "int") ? "dynac_num_to_int" : "dynac_num_round", x, NULL);
  if (t0->kind == TY_NP && !strcmp(name, "abs")) {
    if (np_is_float(t0->fmt)) return arena_printf(E->m->a, "(%s)fabs(%s)", c_type(t0), x);
    const char *r = tmpvar(E, t0);
    deopt_if(E, NULL, "numpy: abs() wraps", "dynac_int_abs(%s, &%s) || !dynac_np_fits(%s, '%c')", x, r,
             r, t0->fmt);
    return r;
  }
  if (t0->kind == TY_NP && np_is_float(t0->fmt) && !strcmp(name, "int"))
    return checked(E, &ty_int, "dynac_float_to_int", as_double(E, x, t0), NULL);
  if (!strcmp(name, "abs")) {
    if (t0->kind == TY_FLOAT) return arena_printf(E->m->a, "fabs(%s)", x);
    return checked(E, &ty_int, "dynac_int_abs", as_int(E, x, t0), NULL);
  }
  if (!strcmp(name, "int") || !strcmp(name, "round")) {
    if (t0->kind != TY_FLOAT) return as_int(E, x, t0);
    return checked(E, &ty_int, !strcmp(name, "int") ? "dynac_float_to_int" : "dynac_float_round",
                   x, NULL);
  }
  if (!strcmp(name, "float")) return as_double(E, x, t0);
  if (!strcmp(name, "bool")) return truth(E, x, t0);
  if (!strcmp(name, "divmod")) {
    const type *et = e->ty->elts[0];
    const char *y = emit_arg(E, e, 1);
    const type *t1 = e->u.call.args[1]->ty;
    const char *res = tmpvar(E, e->ty);
    if (et->kind == TY_NUM) {
      const char *a = as_num(E, x, t0), *b = as_num(E, y, t1);
      deopt_if(E, NULL, NULL, "dynac_num_floordiv(%s, %s, &%s.v0)", a, b, res);
      deopt_if(E, NULL, NULL, "dynac_num_mod(%s, %s, &%s.v1)", a, b, res);
    } else if (et->kind == TY_FLOAT) {
      const char *a = as_double(E, x, t0), *b = as_double(E, y, t1);
      deopt_if(E, NULL, NULL, "dynac_float_floordiv(%s, %s, &%s.v0)", a, b, res);
      deopt_if(E, NULL, NULL, "dynac_float_mod(%s, %s, &%s.v1)", a, b, res);
    } else {
      const char *a = as_int(E, x, t0), *b = as_int(E, y, t1);
      deopt_if(E, NULL, NULL, "dynac_int_floordiv(%s, %s, &%s.v0)", a, b, res);
      deopt_if(E, NULL, NULL, "dynac_int_mod(%s, %s, &%s.v1)", a, b, res);
    }
    return res;
  }
  /* min / max: the first of the extreme values, as CPython's loop keeps it */
  bool is_max = !strcmp(name, "max");
  const char *res = tmpvar(E, e->ty);
  line(E, "%s = %s;", res, convert(E, x, t0, e->ty));
  for (int i = 1; i < n; i++) {
    expr *ai = e->u.call.args[i];
    const char *v = emit_arg(E, e, i);
    line(E, "if (%s) %s = %s;", cmp_values(E, is_max ? CMP_GT : CMP_LT, v, ai->ty, res, e->ty),
         res, convert(E, v, ai->ty, e->ty));
  }
  return res;
}

static const char *c_string(module *m, const char *s);


/* Calls e's callee (its guard slot) through the runtime with the kernel
 * values `vals` boxed, leaving `PyObject *r` (a new reference) in scope; on
 * an exception, returns it with this line in the traceback. */
static void call_through_runtime(em *E, expr *e, const char *const *vals, const char *comment) {
  int n = e->u.call.n;
  line(E, "PyObject *argv[%d] = {NULL};", n ? n : 1);
  for (int i = 0; i < n; i++)
    line(E, "argv[%d] = %s;", i, box_value(E, vals[i], e->u.call.args[i]->ty));
  line(E, "PyObject *r = NULL;");
  line(E, "int ok = 1;");
  line(E, "for (int i = 0; i < %d; i++) if (!argv[i]) ok = 0;", n);
  line(E, "if (ok) r = dynac__G.rt->call_opaque(%s.obj, argv, %d); /* %s */",
       slot_ref(E, e->u.call.callee_slot), n, comment);
  line(E, "for (int i = 0; i < %d; i++) Py_XDECREF(argv[i]);", n);
  line(E, "if (!r) return dynac_traceback_here(%s);", where(E));
}

/* allow_in_graph: the callee runs through the C API (its own frame may
 * dispatch); its exception propagates with this line in the traceback. */
static const char *emit_opaque_call(em *E, expr *e) {
  const char *vals[64];
  int n = e->u.call.n;
  for (int i = 0; i < n; i++) vals[i] = emit_arg(E, e, i);
  const type *rt = e->u.call.ret;
  const char *res = rt ? tmpvar(E, rt) : "0";
  if (rt) line(E, "%s = 0;", res);
  line(E, "{");
  E->indent++;
  call_through_runtime(E, e, vals, arena_printf(E->m->a, "%s(): opaque", e->u.call.name));
  line(E, "dynac__effects = 1;");
  note_effect(E);
  if (rt) {
    const char *unbox = rt->kind == TY_FLOAT ? "dynac_unbox_float" : rt->kind == TY_INT
                        ? "dynac_unbox_int" : "dynac_unbox_bool";
    deopt_if(E, "DYNAC_FAIL_NONE_RESULT", "not the annotated type", "%s(r, &%s)", unbox, res);
  } else {
    line(E, "Py_DECREF(r); /* the result is not used */");
  }
  E->indent--;
  line(E, "}");
  return res;
}


/* ---- containers: lists, tuples and buffers ---------------------------------- */

/* A failure the kernel cannot take: in a kernel without effects, deoptimise
 * (the interpreter reruns the call and gives CPython's answer). Once an
 * effect happened: continue in the interpreter from the statement's start
 * if it did nothing yet (deopt_if), else `slow`, a C expression that does
 * the operation through the C API and so raises CPython's own exception,
 * or (slow NULL) dynac_deopt_after_effect. */
static void fail_if(em *E, const char *code, const char *why, const char *cond, const char *slow) {
  bool restartable = E->conts && E->rp.s && !E->rp.effect; /* the interpreter goes on from the statement */
  if (E->exported || !E->effectful || !slow || restartable) { deopt_if(E, code, why, "%s", cond); return; }
  const char *mid = mid_action(E); /* the interpreter runs the statement on, exactly */
  if (mid) {
    line(E, "if (%s) %s%s%s%s", cond, mid, why ? " /* " : "", why ? why : "", why ? " */" : "");
    return;
  }
  line(E, "if (%s) {%s%s%s", cond, why ? " /* " : "", why ? why : "", why ? " */" : "");
  line(E, "  if (!dynac__effects && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; /* writes undone */");
  line(E, "  return %s;", slow);
  line(E, "}");
}

/* The arguments every slow path takes: where to add the traceback entry. */
static const char *where(em *E) {
  return arena_printf(E->m->a, "dynac__G.filename, %s, %d", c_string(E->m, E->in->fn->qualname),
                      E->cur_line);
}

/* A value kept in a temporary, so it is evaluated once (a local or a
 * temporary is used as it is: nothing between evaluation and use rebinds it). */
static const char *keep_always(em *E, const char *v, const type *t);
static const char *keep(em *E, const char *v, const type *t) {
  bool name = (v[0] == 'l' && v[1] == '_') || v[0] == 't';
  for (const char *p = v + 1; name && *p; p++) name = isalnum((unsigned char)*p) || *p == '_';
  return name ? v : keep_always(E, v, t);
}
static const char *keep_always(em *E, const char *v, const type *t) {
  const char *k = tmpvar(E, t);
  line(E, t->kind == TY_OBJ ? "%s = Py_NewRef(%s); /* owned like every object temporary */"
                            : "%s = %s;", k, v);
  return k;
}

static const char *elem_fn(module *m, const type *t);

/* The borrowed element `o` (a PyObject * expression) as a value of type
 * `t` in `res`: nonzero when it is not one (a C condition). */
static const char *elem_unbox_cond(em *E, const type *t, const char *o, const char *res) {
  switch (t->kind) {
  case TY_FLOAT: return arena_printf(E->m->a, "dynac_elem_float(%s, &%s)", o, res);
  case TY_INT: return arena_printf(E->m->a, "dynac_elem_int(%s, &%s)", o, res);
  case TY_BOOL: return arena_printf(E->m->a, "dynac_elem_bool(%s, &%s)", o, res);
  case TY_NUM: return arena_printf(E->m->a, "dynac_elem_num(%s, &%s)", o, res);
  case TY_LIST: return arena_printf(E->m->a, "dynac_elem_list(%s, &%s)", o, res);
  case TY_OBJ: return arena_printf(E->m->a, "dynac_elem_obj(%s, &%s)", o, res);
  case TY_TUPLE: return arena_printf(E->m->a, "dynac_unbox_%s(%s, &%s)", t->code, o, res);
  case TY_NP: return arena_printf(E->m->a, "%s(%s, &%s)", elem_fn(E->m, t), o, res);
  default: return "1";
  }
}

/* C type of a buffer item of format `fmt`. */
static const char *item_ctype(char fmt) {
  switch (fmt) {
  case 'd': return "double";
  case 'f': return "float";
  case 'q': return "long long";
  case 'Q': return "unsigned long long";
  case 'l': return "long";
  case 'L': return "unsigned long";
  case 'i': return "int";
  case 'I': return "unsigned int";
  case 'h': return "short";
  case 'H': return "unsigned short";
  case 'b': return "signed char";
  case 'B': return "unsigned char";
  default: return "bool";
  }
}

const char *c_item_type(char fmt) { return item_ctype(fmt); }

/* The item at in-range position `k` of buffer `v` (an lvalue). */
static const char *item_ref(em *E, const type *bt, const char *v, const char *k) {
  const char *buf = view_field(E, v, "buf");
  if (!bt->strided) return arena_printf(E->m->a, "((%s *)%s)[%s]", item_ctype(bt->fmt), buf, k);
  return arena_printf(E->m->a, "(*(%s *)(%s + %s * %s))", item_ctype(bt->fmt), buf, k,
                      view_field(E, v, "stride"));
}

/* Logs the old bytes of `item` (an lvalue of view `v`) before a store. For
 * a view parameter with a copy (view_field), the local sn_x remembers that
 * its span was saved whole, so later stores skip the call. */
static void log_write(em *E, const char *v, const char *item) {
  const char *call = arena_printf(E->m->a, "dynac_view_log(dynac__u, %s, (char *)&%s, (int)sizeof %s)",
                                  v, item, item);
  const char *c = copied_view(E, v);
  if (view_unlogged(E, v)) return; /* its span is saved: tested before the loop */
  if (c) line(E, "if (!sn_%s) sn_%s = dynac_view_log_predicted(dynac__u, %s, (char *)&%s, (int)sizeof %s, &snap_%s);",
              c, c, v, item, item, c);
  else line(E, "%s;", call);
}

/* CPython's IndexError message for a container of type `t` (a read, or a store). */
static const char *index_message(const type *t, bool store) {
  if (t->kind == TY_LIST) return store ? "list assignment index out of range" : "list index out of range";
  switch (t->buf_kind) {
  case 'a': return store ? "array assignment index out of range" : "array index out of range";
  case 'm': return "index out of bounds on dimension 1";
  case 'Y': return "bytearray index out of range";
  default: return "index out of range";
  }
}

/* The int64 positions of an item access: one, or two for a[i, j] of a 2-D
 * ndarray. in_range[d], when not NULL, is a C condition under which
 * position d is known to be in [0, len) already: a loop's bound tested
 * before it (bounds.c), or the loop's own index. */
typedef struct positions {
  const char *at[2];
  const char *in_range[2];
} positions;

/* Position `idx` (int64) of container `obj` (of type `t`) made an in-range
 * int64, or a failure raising CPython's IndexError: `slow` is the slow path.
 * `in_range` (or NULL) skips the test when true. */
static const char *checked_index(em *E, const type *t, bool store, const char *len, const char *idx,
                                 const char *in_range, const char *slow) {
  const char *k = arena_printf(E->m->a, "k%d", ++E->tmp);
  if (in_range && in_range == E->proven) { /* the loop's checked-free copy */
    line(E, "int64_t %s = %s; /* in range */", k, idx);
    return k;
  }
  line(E, "int64_t %s = %s;", k, in_range ? idx : "0");
  const char *cond = arena_printf(E->m->a, "%s%sdynac_index(%s, %s, &%s)", in_range ? "!" : "",
                                  in_range ? arena_printf(E->m->a, "%s && ", in_range) : "", idx, len, k);
  if (E->exported) line(E, "if (%s) %s;", cond, export_fail(E, "DYNAC_FAIL_INDEX", index_message(t, store)));
  else fail_if(E, NULL, "IndexError", cond, slow);
  return k;
}

/* An ndarray item access redone through the C API (numpy's own exception). */
static const char *nd_slow(em *E, const char *obj, const type *ot, const positions *idx, bool store,
                           const char *boxed) {
  const char *pos = ot->ndim == 1 ? idx->at[0] : arena_printf(E->m->a, "%s, %s", idx->at[0], idx->at[1]);
  const char *fn = ot->ndim == 1 ? "dynac_slow_%sitem" : "dynac_slow_%sitem2";
  return arena_printf(E->m->a, "%s(%s->obj, %s%s%s, %s)", arena_printf(E->m->a, fn, store ? "set" : "get"),
                      obj, pos, store ? ", " : "", store ? boxed : "", where(E));
}

/* The item of ndarray view `obj` at int64 positions idx[0..ndim) (an
 * lvalue), after the bounds checks (numpy's IndexError on the slow path). */
static const char *nd_item(em *E, const char *obj, const type *ot, const positions *idx,
                           bool store, const char *boxed) {
  const char *slow = nd_slow(E, obj, ot, idx, store, boxed);
  const char *k0 = checked_index(E, ot, store, view_field(E, obj, "len"), idx->at[0], idx->in_range[0], slow);
  if (ot->ndim == 1) return item_ref(E, ot, obj, k0);
  const char *len1 = view_field(E, obj, "len1"), *buf = view_field(E, obj, "buf");
  const char *k1 = checked_index(E, ot, store, len1, idx->at[1], idx->in_range[1], slow);
  const char *ct = item_ctype(ot->fmt);
  if (!ot->strided) return arena_printf(E->m->a, "((%s *)%s)[%s * %s + %s]", ct, buf, k0, len1, k1);
  return arena_printf(E->m->a, "(*(%s *)(%s + %s * %s + %s * %s))", ct, buf, k0,
                      view_field(E, obj, "stride"), k1, view_field(E, obj, "stride1"));
}

/* a[i] = v, a[i, j] = v for an ndarray: numpy casts v to the item's dtype;
 * where that would warn, wrap or raise, the kernel deoptimises. */
static void nd_store(em *E, const char *obj, const type *ot, const positions *idx, const char *v,
                     const type *vt) {
  const char *boxed = box_value(E, v, vt); /* for the slow paths only */
  const char *item = nd_item(E, obj, ot, idx, true, boxed);
  if (!view_unlogged(E, obj)) /* else writable: tested before the loop */
    fail_if(E, NULL, "ValueError: assignment destination is read-only", view_field(E, obj, "readonly"),
            nd_slow(E, obj, ot, idx, true, boxed));
  char f = ot->fmt;
  bool from_float = vt->kind == TY_FLOAT || (vt->kind == TY_NP && np_is_float(vt->fmt));
  const char *x;
  if (f == '?') x = truth(E, v, vt);
  else if (np_is_float(f)) {
    x = keep(E, as_double(E, v, vt), &ty_float);
    if (f == 'f')
      deopt_if(E, NULL, "numpy: float32 overflow warns", "isfinite(%s) && isinf((float)%s)", x, x);
  } else if (from_float) {
    const char *d = as_double(E, v, vt);
    x = tmpvar(E, &ty_int);
    deopt_if(E, NULL, "numpy: not finite or out of the dtype's range", "dynac_np_float_to_item(%s, '%c', &%s)",
             d, f, x);
  } else {
    x = keep(E, as_int(E, v, vt), &ty_int);
    deopt_if(E, NULL, "numpy: out of the dtype's range", "!dynac_np_fits(%s, '%c')", x, f);
  }
  log_write(E, obj, item);
  line(E, "%s = (%s)%s;", item, item_ctype(f), x);
}

/* obj[idx] for a list, buffer or tuple value `obj` of type `ot`; idx has
 * ot->ndim positions (int64). checked (or NULL): the C name of the index a
 * list or 1-D buffer read checked, else NULL. */
static const char *elem_read(em *E, const char *obj, const type *ot, const positions *idxs,
                             expr *idx_expr, const char **checked) {
  if (checked) *checked = NULL;
  const char *idx = idxs ? idxs->at[0] : NULL, *in_range = idxs ? idxs->in_range[0] : NULL;
  const type *et = ot->kind == TY_TUPLE ? NULL : ty_elem(ot);
  if (ot->kind == TY_TUPLE) { /* a constant index, checked by infer.c */
    int64_t k = idx_expr->kind == EX_INT ? idx_expr->u.i : -idx_expr->u.un.a->u.i;
    if (k < 0) k += ot->n;
    return arena_printf(E->m->a, "%s.v%lld", obj, (long long)k);
  }
  const char *res = tmpvar(E, et);
  if (ot->kind == TY_BUF && ot->buf_kind == 'n') {
    line(E, "%s = (%s)%s;", res, c_type(et), nd_item(E, obj, ot, idxs, false, NULL));
    return res;
  }
  if (ot->kind == TY_LIST) {
    const char *k = checked_index(E, ot, false, arena_printf(E->m->a, "PyList_GET_SIZE(%s)", obj), idx,
                                  in_range, arena_printf(E->m->a, "dynac_slow_getitem(%s, %s, %s)", obj, idx,
                                               where(E)));
    fail_if(E, "DYNAC_FAIL_NONE_RESULT", "an element of another type", elem_unbox_cond(E, et, arena_printf(E->m->a,
            "PyList_GET_ITEM(%s, %s)", obj, k), res), NULL);
    if (checked) *checked = k;
    return res;
  }
  const char *k = checked_index(E, ot, false, view_field(E, obj, "len"), idx, in_range,
                                arena_printf(E->m->a, "dynac_slow_getitem(%s->obj, %s, %s)", obj,
                                             idx, where(E)));
  if (checked) *checked = k;
  const char *item = item_ref(E, ot, obj, k);
  if (ot->fmt == 'Q' || ot->fmt == 'L') /* above INT64_MAX: a big int in CPython */
    fail_if(E, "DYNAC_FAIL_INT64", "an item above the int64 range", arena_printf(E->m->a, "%s > (%s)INT64_MAX", item,
            item_ctype(ot->fmt)), NULL);
  line(E, "%s = (%s)%s;", res, c_type(et), item);
  return res;
}

/* obj[idx] = v: a list or buffer store (an effect). */
static void elem_store(em *E, const char *obj, const type *ot, const positions *idxs, const char *v,
                       const type *vt, bool old_plain) {
  if (ot->kind == TY_BUF && ot->buf_kind == 'n') { nd_store(E, obj, ot, idxs, v, vt); return; }
  const char *idx = idxs->at[0], *in_range = idxs->in_range[0];
  const type *et = ty_elem(ot);
  const char *boxed = box_value(E, v, vt); /* for the slow paths only */
  if (ot->kind == TY_LIST) {
    const char *slow = arena_printf(E->m->a, "dynac_slow_setitem(%s, %s, %s, %s)", obj, idx, boxed,
                                    where(E));
    const char *k = checked_index(E, ot, true, arena_printf(E->m->a, "PyList_GET_SIZE(%s)", obj), idx,
                                  in_range, slow);
    if (et->kind != TY_OBJ && !old_plain) /* a list of objects: the undo log keeps the old one */
      fail_if(E, "DYNAC_FAIL_NONE_RESULT", "the old element is not a plain number (releasing it could run Python code)",
              arena_printf(E->m->a, "!dynac_plain_value(PyList_GET_ITEM(%s, %s))", obj, k), NULL);
    const char *store = et->kind == TY_FLOAT
        ? arena_printf(E->m->a, "dynac_list_store_float(dynac__u, %s, %s, %s)", obj, k, v)
        : arena_printf(E->m->a, "dynac_list_store(dynac__u, %s, %s, %s)", obj, k, boxed);
    line(E, "if (%s < 0) return dynac_traceback_here(%s); /* logged for undo */", store, where(E));
    note_effect(E);
    return;
  }
  const char *slow = arena_printf(E->m->a, "dynac_slow_setitem(%s->obj, %s, %s, %s)", obj, idx,
                                  boxed, where(E));
  const char *k = checked_index(E, ot, true, view_field(E, obj, "len"), idx, in_range, slow);
  if (!view_unlogged(E, obj)) /* else writable: tested before the loop */
    fail_if(E, "DYNAC_FAIL_READONLY", "TypeError: read-only buffer", view_field(E, obj, "readonly"), slow);
  const char *x = et->kind == TY_FLOAT ? as_double(E, v, vt) : as_int(E, v, vt);
  const char *fits = arena_printf(E->m->a, "!dynac_fits_fmt(%s, '%c')", x, ot->fmt);
  if ((et->kind == TY_INT || et->kind == TY_BOOL) && E->exported && ot->buf_kind != 'a')
    line(E, "if (%s) %s;", fits, export_fail(E, "DYNAC_FAIL_ITEM_VALUE", ot->buf_kind == 'm'
         ? arena_printf(E->m->a, "memoryview: invalid value for format '%c'", ot->fmt) : NULL));
  else if (et->kind == TY_INT || et->kind == TY_BOOL)
    fail_if(E, "DYNAC_FAIL_ITEM_RANGE", "OverflowError: out of the item format's range", fits, slow);
  const char *item = item_ref(E, ot, obj, k);
  if (!E->exported) log_write(E, obj, item);
  line(E, "%s = (%s)%s;", item, item_ctype(ot->fmt), x);
  note_effect(E);
}

/* Position `p` where a test before an enclosing loop proved it in range
 * (hoist_bounds): when that test passed, a * v + b directly (no overflow is
 * possible then), else the expression as written, with its checks. */
static const char *emit_proven_position(em *E, expr *p, const hoisted *h) {
  const char *t = tmpvar(E, &ty_int);
  if (E->proven == h->ok) { /* inside `if (okN)`: the loop's checked-free copy */
    line(E, "%s = INT64_C(%lld) * %s + %s; /* in range: tested before the loop */", t, (long long)h->a,
         local_name(E, h->var), h->b);
    return t;
  }
  line(E, "if (DYNAC_LIKELY(%s)) %s = INT64_C(%lld) * %s + %s; /* in range: tested before the loop */",
       h->ok, t, (long long)h->a, local_name(E, h->var), h->b);
  line(E, "else {");
  E->indent++;
  line(E, "%s = %s;", t, as_int(E, emit_expr(E, p), p->ty));
  E->indent--;
  line(E, "}");
  return t;
}

/* The positions of obj[index] as int64 values, evaluated left to right:
 * one, or two for a[i, j] of a 2-D ndarray. */
/* In the untested copy of a loop over a list (E->shaped): the position c,
 * as C, of `sub`, obj[c] with obj a list the test before the loop proved
 * holds a float at c; else NULL. */
static const char *shaped_position(em *E, const expr *sub) {
  const expr *o = sub->u.sub.obj, *ix = sub->u.sub.index;
  if (!E->shaped || o->kind != EX_LOCAL || ix->kind != EX_INT || ix->u.i < 0) return NULL;
  for (int i = 0; i < E->shaped->n; i++)
    if (E->shaped->facts[i].local == o->u.local && ix->u.i < E->shaped->facts[i].n)
      return arena_printf(E->m->a, "INT64_C(%lld)", (long long)ix->u.i);
  return NULL;
}
static const char *shaped_item(em *E, const char *list, const char *c) {
  const char *res = tmpvar(E, &ty_float);
  line(E, "%s = PyFloat_AS_DOUBLE(PyList_GET_ITEM(%s, %s)); /* a float: tested before the loop */", res, list, c);
  return res;
}

static const positions *emit_index(em *E, expr *sub) {
  positions *idx = arena_alloc(E->m->a, sizeof *idx);
  expr *ix = sub->u.sub.index;
  const type *ot = sub->u.sub.obj->ty;
  int n = ot->kind == TY_BUF && ot->ndim == 2 ? 2 : 1;
  for (int k = 0; k < n; k++) {
    expr *p = n == 2 ? ix->u.tuple.elts[k] : ix;
    const hoisted *h = NULL;
    for (int i = 0; i < E->nhoisted && !h; i++) if (E->hoisted[i].index == p) h = &E->hoisted[i];
    idx->at[k] = h ? emit_proven_position(E, p, h) : keep(E, as_int(E, emit_expr(E, p), p->ty), &ty_int);
    idx->in_range[k] = h ? h->ok : NULL;
  }
  return idx;
}

static const char *emit_subscript(em *E, expr *e) {
  const char *obj = emit_expr(E, e->u.sub.obj);
  const type *ot = e->u.sub.obj->ty;
  if (ot->kind == TY_OBJ || e->u.sub.index->ty->kind == TY_OBJ) { /* PyObject_GetItem */
    const char *key = as_obj(E, emit_expr(E, e->u.sub.index), e->u.sub.index->ty);
    const char *o = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_obj_getitem(%s, %s, &dynac__effects);", o, obj, key);
    note_effect(E);
    line(E, "if (!%s) return dynac_traceback_here(%s);", o, where(E));
    return o;
  }
  if (ot->kind == TY_TUPLE) return elem_read(E, obj, ot, NULL, e->u.sub.index, NULL);
  obj = keep(E, obj, ot);
  const char *c = shaped_position(E, e);
  if (c) return shaped_item(E, obj, c);
  return elem_read(E, obj, ot, emit_index(E, e), e->u.sub.index, NULL);
}


/* len(c), and sum(c) as CPython 3.11 computes it: from the int 0, ints
 * exactly (overflow deoptimises), floats added left to right in a double. */
static const char *emit_len_sum(em *E, expr *e) {
  expr *a = e->u.call.args[0];
  const char *obj = emit_arg(E, e, 0);
  if (!strcmp(e->u.call.name, "len") && a->ty->kind == TY_OBJ) { /* __len__ may run */
    const char *n = arena_printf(E->m->a, "t%d", ++E->tmp);
    line(E, "Py_ssize_t %s = dynac_obj_len(%s, &dynac__effects);", n, obj);
    note_effect(E);
    line(E, "if (%s < 0) return dynac_traceback_here(%s);", n, where(E));
    return arena_printf(E->m->a, "(int64_t)%s", n);
  }
  if (!strcmp(e->u.call.name, "len"))
    return a->ty->kind == TY_TUPLE ? arena_printf(E->m->a, "INT64_C(%d)", a->ty->n)
                                   : arena_printf(E->m->a, "(int64_t)%s", len_of(E, obj, a->ty));
  obj = keep(E, obj, a->ty);
  const type *et = ty_elem(a->ty);
  bool fl = et->kind == TY_FLOAT;
  const char *acc = tmpvar(E, fl ? &ty_float : &ty_int);
  line(E, "%s = 0;", acc);
  const char *k = arena_printf(E->m->a, "k%d", ++E->tmp);
  line(E, "for (int64_t %s = 0; %s < %s; %s++) {", k, k, len_of(E, obj, a->ty), k);
  E->indent++;
  const positions at = {{k, NULL}, {"true", NULL}}; /* 0 <= k < len, and reads change no length */
  const char *x = elem_read(E, obj, a->ty, &at, NULL, NULL);
  if (fl) line(E, "%s += %s;", acc, x);
  else fail_if(E, NULL, "int64 overflow", arena_printf(E->m->a, "dynac_int_add(%s, (int64_t)%s, &%s)",
               acc, x, acc), NULL);
  E->indent--;
  line(E, "}");
  if (!fl) return acc;
  return arena_printf(E->m->a, "(%s ? dynac_num_f(%s) : dynac_num_i(0))", len_of(E, obj, a->ty), acc);
}

/* f(args) of an object f (CALLEE_VALUE), or o.name(args) of an object o:
 * PyObject_Vectorcall / PyObject_VectorcallMethod, the arguments as
 * objects; an object result (new reference). Python code runs: an effect. */
static const char *emit_object_call(em *E, expr *e) {
  const char *argv[64];
  for (int i = 0; i < e->u.call.n; i++)
    argv[i] = as_obj(E, emit_expr(E, e->u.call.args[i]), e->u.call.args[i]->ty);
  strbuf args = {0};
  for (int i = 0; i < e->u.call.n; i++) sb_printf(&args, "%s%s", i ? ", " : "", argv[i]);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "{");
  E->indent++;
  line(E, "PyObject *argv[%d] = {%s};", e->u.call.n, args.data);
  line(E, "dynac__effects = 1; /* Python code runs */");
  note_effect(E);
  if (e->u.call.kind == CALLEE_VALUE)
    line(E, "%s = PyObject_Vectorcall(argv[0], argv + 1, %d, NULL); /* %s(...) */", o,
         e->u.call.n - 1, e->u.call.name);
  else {
    line(E, "static PyObject *name; /* interned once */");
    line(E, "if (!name && !(name = PyUnicode_InternFromString(%s))) return dynac_traceback_here(%s);",
         c_string(E->m, e->u.call.name), where(E));
    line(E, "%s = PyObject_VectorcallMethod(name, argv, %d, NULL); /* .%s(...) */", o, e->u.call.n,
         e->u.call.name);
  }
  line(E, "if (!%s) return dynac_traceback_here(%s);", o, where(E));
  E->indent--;
  line(E, "}");
  sb_free(&args);
  return o;
}

/* list.append(v) / list.pop([i]) / list.insert(i, v) */
static const char *emit_method(em *E, expr *e) {
  const type *lt = e->u.call.args[0]->ty;
  if (method_via_api(e)) return emit_object_call(E, e);
  const type *et = lt->elts[0];
  const char *l = keep(E, emit_expr(E, e->u.call.args[0]), lt);
  if (!strcmp(e->u.call.name, "insert")) {
    const char *i = keep(E, as_int(E, emit_expr(E, e->u.call.args[1]), e->u.call.args[1]->ty), &ty_int);
    const char *v = emit_expr(E, e->u.call.args[2]);
    line(E, "{");
    E->indent++;
    line(E, "PyObject *b = %s;", box_value(E, v, e->u.call.args[2]->ty));
    line(E, "int st = dynac_list_insert(dynac__u, %s, %s, b); /* logged for undo */", l, i);
    note_effect(E);
    line(E, "Py_XDECREF(b);");
    line(E, "if (st < 0) return dynac_traceback_here(%s);", where(E));
    E->indent--;
    line(E, "}");
    return "0";
  }
  if (e->u.call.own_list) { /* a comprehension's list: nobody else has seen it */
    const char *v = emit_expr(E, e->u.call.args[1]);
    line(E, "if (dynac_list_append_own(%s, %s) < 0) return dynac_traceback_here(%s);", l,
         box_value(E, v, e->u.call.args[1]->ty), where(E));
    return "0";
  }
  if (!strcmp(e->u.call.name, "append")) {
    const char *v = emit_expr(E, e->u.call.args[1]);
    line(E, "{");
    E->indent++;
    line(E, "PyObject *b = %s;", box_value(E, v, e->u.call.args[1]->ty));
    line(E, "int st = dynac_list_append(dynac__u, %s, b); /* logged for undo */", l);
    note_effect(E);
    line(E, "Py_XDECREF(b);");
    line(E, "if (st < 0) return dynac_traceback_here(%s);", where(E));
    E->indent--;
    line(E, "}");
    return "0";
  }
  const char *res = tmpvar(E, et);
  const char *n = arena_printf(E->m->a, "PyList_GET_SIZE(%s)", l);
  const char *k;
  if (e->u.call.n == 2) {
    const char *i = keep(E, as_int(E, emit_expr(E, e->u.call.args[1]), e->u.call.args[1]->ty), &ty_int);
    k = checked_index(E, lt, false, n, i, NULL, arena_printf(E->m->a, "dynac_slow_pop(%s, 1, %s, %s)", l, i, where(E)));
  } else {
    k = arena_printf(E->m->a, "k%d", ++E->tmp);
    line(E, "int64_t %s = %s - 1;", k, n);
    fail_if(E, "DYNAC_FAIL_INDEX", "IndexError: pop from empty list", arena_printf(E->m->a, "%s < 0", k),
            arena_printf(E->m->a, "dynac_slow_pop(%s, 0, 0, %s)", l, where(E)));
  }
  fail_if(E, "DYNAC_FAIL_NONE_RESULT", "an element of another type", elem_unbox_cond(E, et, arena_printf(E->m->a,
          "PyList_GET_ITEM(%s, %s)", l, k), res), NULL);
  if (et->kind == TY_LIST) { /* held: a full undo log would drop the popped reference */
    const char *own = tmpvar(E, &ty_obj);
    line(E, "%s = Py_NewRef(%s);", own, res);
    res = own;
  }
  line(E, "if (dynac_list_pop(dynac__u, %s, %s) < 0) return dynac_traceback_here(%s); /* logged for undo */",
       l, k, where(E));
  note_effect(E);
  return res;
}

/* Exported C: a call of another exported kernel; its failure has filled
 * the status already. args: the C arguments (NULL: none); res: where the
 * result goes, or NULL. */
static void emit_export_call(em *E, inst *callee, const char *args, const char *res) {
  line(E, "{");
  E->indent++;
  deopt_if(E, "DYNAC_FAIL_RECURSION", NULL, "dynac__depth >= DYNAC_MAX_KERNEL_DEPTH");
  line(E, "dynac__depth++;");
  line(E, "int st = dynac_kernel_%s(%s%s%s%s%sdynac_st);", callee->cname, args ? args : "",
       args ? ", " : "", res ? "&" : "", res ? res : "", res ? ", " : "");
  line(E, "dynac__depth--;");
  line(E, "if (st == DYNAC_ERROR) return DYNAC_ERROR; /* the callee filled the status */");
  if (res) deopt_if(E, "DYNAC_FAIL_NONE_RESULT", "None where a value was typed", "st == DYNAC_OK_NONE");
  E->indent--;
  line(E, "}");
}

static const char *emit_call_kind(em *E, expr *e);

/* A call: its arguments are pending (emit_arg) until it returns. */
static const char *emit_call(em *E, expr *e) {
  int depth = E->nvstack, outer = E->call_base;
  E->call_base = depth;
  const char *v = emit_call_kind(E, e);
  E->nvstack = depth;
  E->call_base = outer;
  return v;
}

/* A kernel callee that finished in the interpreter (dynac_continue) with a
 * value its type cannot hold (dynac__boxed_result): the caller's statement
 * goes on in the interpreter with that value in the call's place, its own
 * arguments no longer pending (mid_action), or NULL when it cannot. */
static const char *boxed_call_action(em *E, const expr *call) {
  int top = E->nvstack, base = E->call_base;
  bool effect = E->rp.effect;
  int neffects = E->rp.neffects;
  E->rp.effect = true; /* the callee's effects, inside the call's value */
  E->rp.neffects++;
  pending under = E->vstack[base < VSTACK_CAP ? base : 0]; /* an argument's, put back below */
  E->nvstack = base;
  push_operand(E, call, "dynac__boxed_result", true);
  const char *action = mid_action(E);
  E->vstack[base < VSTACK_CAP ? base : 0] = under;
  E->nvstack = top;
  E->rp.effect = effect;
  E->rp.neffects = neffects;
  return action;
}

static const char *emit_call_kind(em *E, expr *e) {
  if (e->u.call.kind == CALLEE_OPAQUE) return emit_opaque_call(E, e);
  if (e->u.call.kind == CALLEE_METHOD) return emit_method(E, e);
  if (e->u.call.kind == CALLEE_VALUE) return emit_object_call(E, e);
  if (e->u.call.kind == CALLEE_BUILTIN &&
      (!strcmp(e->u.call.name, "len") || !strcmp(e->u.call.name, "sum")))
    return emit_len_sum(E, e);
  if (e->u.call.kind == CALLEE_MATH) return emit_math(E, e);
  if (e->u.call.kind == CALLEE_BUILTIN) return emit_builtin(E, e);
  inst *callee = e->u.call.inst;
  if (!callee) { /* cannot happen for a typed instance; never crash on it */
    deopt_if(E, "DYNAC_FAIL_RECURSION", "internal: a call without a typed callee", "1");
    return "0";
  }
  const char *vals[64];
  for (int i = 0; i < e->u.call.n; i++) vals[i] = emit_arg(E, e, i);
  strbuf args = {0};
  for (int i = 0; i < e->u.call.n; i++) {
    if (i) sb_puts(&args, ", ");
    sb_puts(&args, vals[i]);
  }
  bool has_value = callee->ret->kind != TY_UNKNOWN;
  const char *res = !has_value ? "0" /* a list result is a new reference: owned here */
                    : tmpvar(E, callee->ret->kind == TY_LIST ? &ty_obj : callee->ret);
  if (E->exported) {
    emit_export_call(E, callee, args.data, has_value ? res : NULL);
    sb_free(&args);
    return res;
  }
  int fi = -1;
  for (int i = 0; i < E->m->nfuncs; i++) if (E->m->funcs[i] == callee->fn) fi = i;
  bool leaf = callee->ncallees == 0; /* calls no kernel: cannot recurse */
  line(E, "{");
  E->indent++;
  if (!leaf) deopt_if(E, "DYNAC_FAIL_RECURSION", NULL, "dynac__depth >= DYNAC_MAX_KERNEL_DEPTH && "
                      "dynac__G.rt->deep_call_refused(dynac__depth)");
  line(E, "dynac__direct_calls[%d]++;", fi);
  if (E->effectful) /* dynac__u, not the TLS log: a TLS read is a call in a shared library */
    line(E, "size_t mark0 = dynac__u->n, lost0 = dynac__u->lost;");
  if (!leaf) line(E, "dynac__depth++;");
  line(E, "int st = dynac_kernel_%s(%s%s%s);", callee->cname, args.data ? args.data : "",
       has_value && e->u.call.n ? ", " : "", has_value ? arena_printf(E->m->a, "&%s", res) : "");
  if (!leaf) line(E, "dynac__depth--;");
  bool passes_on = E->conts && !E->reg && E->returned == e; /* `return callee(...)` */
  if (callee->effectful) { /* it may have finished in the interpreter (dynac_continue) */
    line(E, "if (st == DYNAC_OK_BOXED) { /* with a value of another type */");
    const char *mid = passes_on ? NULL : boxed_call_action(E, e);
    E->indent++;
    if (passes_on) line(E, "return DYNAC_OK_BOXED; /* this call's value too */");
    else if (mid) line(E, "dynac__effects = 1; /* the callee's effects */\n%s", mid);
    else line(E, "Py_CLEAR(dynac__boxed_result);\nreturn dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
              E->cur_line);
    E->indent--;
    line(E, "}");
  }
  if (E->effectful) { /* after an effect, the callee runs in the interpreter, once */
    line(E, "if (st == DYNAC_DEOPT && (dynac__effects || !DYNAC_UNDO_INTACT())) {");
    E->indent++;
    line(E, "if (dynac__u->lost != lost0) return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
         E->cur_line);
    line(E, "dynac_undo_rollback(mark0); /* the callee's own writes: it runs again */");
    call_through_runtime(E, e, vals, arena_printf(E->m->a, "%s() interpreted", callee->fn->name));
    /* a container result would be borrowed from r: it cannot be kept */
    const char *ub = has_value && !ty_is_container(callee->ret) ? elem_fn(E->m, callee->ret) : NULL;
    if (callee->ret->kind == TY_OBJ) line(E, "st = dynac_elem_obj(r, &%s);", res); /* None too */
    else line(E, "st = r == Py_None ? DYNAC_OK_NONE : %s;",
         ub ? arena_printf(E->m->a, "%s(r, &%s) ? DYNAC_DEOPT : DYNAC_OK", ub, res) : "DYNAC_DEOPT");
    if (passes_on) line(E, "if (st == DYNAC_DEOPT) { dynac__boxed_result = r; return DYNAC_OK_BOXED; }");
    line(E, "Py_DECREF(r);");
    line(E, "if (st == DYNAC_DEOPT) return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);",
         E->cur_line);
    E->indent--;
    line(E, "}");
  }
  if (has_value) deopt_if(E, "DYNAC_FAIL_NONE_RESULT", "None where a value was typed", "st == DYNAC_OK_NONE");
  deopt_if(E, "DYNAC_FAIL_RECURSION", NULL, "st == DYNAC_DEOPT");
  line(E, "if (st == DYNAC_ERROR) return dynac_traceback_here(%s); /* this frame's line */",
       where(E));
  line(E, "if (st != DYNAC_OK && st != DYNAC_OK_NONE) return st;");
  if (callee->opaque_calls) line(E, "dynac__effects = 1; /* the callee made opaque calls */");
  else if (callee->generic) line(E, "dynac__effects = 1; /* the callee may have run Python code */");
  if (callee->effectful) note_effect(E); /* a statement that called it cannot restart */
  E->indent--;
  line(E, "}");
  sb_free(&args);
  return res;
}

/* UnboundLocalError: local `loc` read where it may be unassigned. */
static void unbound_check(em *E, int loc) {
  const char *c = E->in->fn->local_cnames[loc];
  if (!E->exported) { deopt_if(E, NULL, "UnboundLocalError", "!b_%s", c); return; }
  line(E, "if (!b_%s) %s;", c, export_fail(E, "DYNAC_FAIL_UNBOUND", arena_printf(E->m->a,
       "cannot access local variable '%s' where it is not associated with a value",
       E->in->fn->locals[loc])));
}

/* -x, +x, ~x of a numpy scalar: its own dtype; ~ of a bool_ is `not`,
 * of a uint8 stays in 0..255; a negation that wraps deoptimises. */
static const char *emit_np_unary(em *E, unop op, const char *a, const type *t) {
  if (op == UN_POS) return a;
  if (op == UN_INVERT)
    return t->fmt == '?' ? arena_printf(E->m->a, "(!%s)", a)
           : t->fmt == 'B' ? arena_printf(E->m->a, "(int64_t)(uint8_t)~%s", a)
           : arena_printf(E->m->a, "(~%s)", a);
  if (np_is_float(t->fmt)) return arena_printf(E->m->a, "(-%s)", a);
  const char *r = tmpvar(E, t);
  deopt_if(E, NULL, "numpy: the negation wraps", "dynac_int_neg(%s, &%s) || !dynac_np_fits(%s, '%c')",
           a, r, r, t->fmt);
  return r;
}

/* a.shape, a.ndim, a.size of an ndarray view */
static const char *emit_attr(em *E, expr *e) {
  const type *ot = e->u.sub.obj->ty;
  const char *v = emit_expr(E, e->u.sub.obj);
  const char *attr = e->u.sub.attr;
  if (!strcmp(attr, "ndim")) return arena_printf(E->m->a, "INT64_C(%d)", ot->ndim);
  const char *len = view_field(E, v, "len"), *len1 = view_field(E, v, "len1");
  if (!strcmp(attr, "size"))
    return ot->ndim == 1 ? arena_printf(E->m->a, "(int64_t)%s", len)
                         : arena_printf(E->m->a, "(int64_t)(%s * %s)", len, len1);
  const char *t = tmpvar(E, e->ty);
  line(E, "%s.v0 = (int64_t)%s;", t, len);
  if (ot->ndim == 2) line(E, "%s.v1 = (int64_t)%s;", t, len1);
  return t;
}

/* ---- new lists ----------------------------------------------------------------
 * A list the kernel makes is a new reference in an owned temporary
 * (released leaving its block). A kernel that logs writes also keeps it in
 * the undo log until the call's writes are settled (dynac_undo_keep): a
 * logged write to it must not outlive it. */
static void emit_block(em *E, stmt *s);
static const char *fresh_list(em *E, const char *make, const char *what) {
  const char *t = tmpvar(E, &ty_obj);
  line(E, "%s = %s; /* %s */", t, make, what);
  line(E, "if (!%s) return dynac_traceback_here(%s);", t, where(E));
  if (E->effectful) line(E, "dynac_undo_keep(dynac__u, %s);", t);
  return t;
}

/* [a, b, ...]: the elements in order, then the list of their boxes. */
static const char *emit_list_display(em *E, expr *e) {
  int n = e->u.tuple.n;
  const char **vals = arena_alloc(E->m->a, sizeof(char *) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) vals[i] = keep(E, emit_expr(E, e->u.tuple.elts[i]), e->u.tuple.elts[i]->ty);
  const char *t = fresh_list(E, arena_printf(E->m->a, "PyList_New(%d)", n), "a list display");
  for (int i = 0; i < n; i++)
    line(E, "if (dynac_list_init(%s, %d, %s) < 0) return dynac_traceback_here(%s);", t, i,
         box_value(E, vals[i], e->u.tuple.elts[i]->ty), where(E));
  return t;
}

/* list + list (list_concat), list * n and n * list (list_repeat). */
static const char *emit_list_binop(em *E, expr *e, const char *l, const char *r) {
  const type *lt = e->u.bin.l->ty, *rt = e->u.bin.r->ty;
  if (e->u.bin.op == OP_ADD)
    return fresh_list(E, arena_printf(E->m->a, "PySequence_Concat(%s, %s)", l, r), "list + list");
  bool list_left = lt->kind == TY_LIST;
  const char *count = list_left ? as_int(E, r, rt) : as_int(E, l, lt);
  return fresh_list(E, arena_printf(E->m->a, "PySequence_Repeat(%s, (Py_ssize_t)%s)",
                                    list_left ? l : r, count), "list * n");
}

/* obj[lo:hi:step] of a list: its parts in order; None or omitted ones absent. */
static const char *emit_slice(em *E, expr *e) {
  const char *obj = keep(E, emit_expr(E, e->u.slice.obj), e->u.slice.obj->ty);
  expr *parts[3] = {e->u.slice.lo, e->u.slice.hi, e->u.slice.step};
  const char *args[3];
  for (int i = 0; i < 3; i++) {
    const char *v = parts[i] ? emit_expr(E, parts[i]) : NULL;
    args[i] = !v || parts[i]->ty->kind == TY_NONE ? "0, 0"
              : arena_printf(E->m->a, "1, %s", keep(E, as_int(E, v, parts[i]->ty), &ty_int));
  }
  return fresh_list(E, arena_printf(E->m->a, "dynac_list_slice(%s, %s, %s, %s)", obj, args[0], args[1],
                                    args[2]), "a slice");
}

/* [elt for ...]: a new list in the comprehension's hidden local, its
 * clauses as loops appending to it, then the list moved to a temporary. */
static const char *emit_list_comprehension(em *E, expr *e) {
  const char *r = local_name(E, e->u.comp.result);
  line(E, "if (dynac_obj_set(&%s, PyList_New(0)) < 0) return dynac_traceback_here(%s); /* a list comprehension */",
       r, where(E));
  E->bound[e->u.comp.result] = true;
  emit_block(E, e->u.comp.loop);
  const char *t = tmpvar(E, &ty_obj);
  line(E, "%s = %s; /* the comprehension's list, moved */", t, r);
  line(E, "%s = NULL;", r);
  if (E->effectful) line(E, "dynac_undo_keep(dynac__u, %s);", t);
  return t;
}

static const char *emit_expr(em *E, expr *e) {
  switch (e->kind) {
  case EX_LIST: return emit_list_display(E, e);
  case EX_LISTCOMP: return emit_list_comprehension(E, e);
  case EX_SLICE: return emit_slice(E, e);
  case EX_INT: return arena_printf(E->m->a, "INT64_C(%lld)", (long long)e->u.i);
  case EX_FLOAT: return float_literal(E, e->u.f);
  case EX_BOOL: return e->u.b ? "true" : "false";
  case EX_NONE: return "false /* None */";
  case EX_LOCAL:
    if (!E->bound[e->u.local])
      unbound_check(E, e->u.local);
    return local_name(E, e->u.local);
  case EX_GLOBAL: {
    slot *s = e->u.global;
    const char *field = s->ty->kind == TY_FLOAT ? "v.f" : "v.i";
    const char *what = s->kind == SLOT_DEFAULT
        ? arena_printf(E->m->a, "default of %s(%s=)", s->name, s->attr)
        : s->attr ? arena_printf(E->m->a, "%s%s%s", s->module_slot >= 0 ? s->name : "",
                                 s->module_slot >= 0 ? "." : "", s->attr) : s->name;
    if (s->ty->kind == TY_NONE) return arena_printf(E->m->a, "false /* None: %s */", what);
    const char *v = arena_printf(E->m->a, "%s.%s /* %s */", slot_ref(E, s), field, what);
    return s->ty->kind == TY_BOOL ? arena_printf(E->m->a, "(bool)%s", v) : v;
  }
  case EX_BINOP: {
    const char *tested_later = E->finite_by_parent != e ? NULL
        : E->finite_note ? E->finite_note : " /* inf or nan: tested by the enclosing operation */";
    E->finite_note = NULL;
    bool passes = finite_operands_pass(e);
    E->finite_by_parent = passes && quiet(E, e->u.bin.r) ? e->u.bin.l : NULL;
    const char *l = emit_expr(E, e->u.bin.l);
    int depth = E->nvstack;
    if (!e->u.bin.inplace) push_pending(E, e->u.bin.l, l); /* x op= v: x is read again */
    E->finite_by_parent = passes ? e->u.bin.r : NULL;
    const char *r = emit_expr(E, e->u.bin.r);
    E->finite_by_parent = NULL;
    push_pending(E, e->u.bin.r, r);
    if (e->ty->kind == TY_LIST) {
      E->nvstack = depth;
      return emit_list_binop(E, e, l, r);
    }
    E->finite_later = tested_later;
    E->returned_op = e == E->returned && e->ty == E->in->ret; /* no conversion after it */
    E->assigned_op = e == E->assigned;
    const char *v = emit_binop_values(E, e->u.bin.op, l, e->u.bin.l->ty, r, e->u.bin.r->ty, e->ty);
    E->nvstack = depth;
    E->returned_op = E->assigned_op = false;
    E->finite_later = NULL;
    return v;
  }
  case EX_UNARY: {
    const char *a = emit_expr(E, e->u.un.a);
    const type *t = e->u.un.a->ty;
    if (t->kind == TY_NP) return emit_np_unary(E, e->u.un.op, a, t);
    if (t->kind == TY_OBJ) { /* PyNumber_Negative, ...: __neg__ may run */
      const char *o = tmpvar(E, &ty_obj);
      line(E, "%s = dynac_obj_unary(%s, %d, &dynac__effects); /* %s */", o, a, (int)e->u.un.op,
           e->u.un.op == UN_NEG ? "-" : e->u.un.op == UN_POS ? "+" : "~");
      note_effect(E);
      line(E, "if (!%s) return dynac_traceback_here(%s);", o, where(E));
      return o;
    }
    if (e->u.un.op == UN_POS) return t->kind == TY_FLOAT || t->kind == TY_NUM ? a : as_int(E, a, t);
    if (e->u.un.op == UN_INVERT) return arena_printf(E->m->a, "(~%s)", as_int(E, a, t));
    if (t->kind == TY_NUM) return checked(E, &ty_num, "dynac_num_neg", a, NULL);
    if (t->kind == TY_FLOAT) return arena_printf(E->m->a, "(-%s)", a);
    return checked(E, &ty_int, "dynac_int_neg", as_int(E, a, t), NULL);
  }
  case EX_NOT: {
    const char *a = emit_expr(E, e->u.not_arg);
    return arena_printf(E->m->a, "(!%s)", truth(E, a, e->u.not_arg->ty));
  }
  case EX_COMPARE: return emit_compare(E, e);
  case EX_BOOLOP: return emit_boolop(E, e);
  case EX_IFEXP: return emit_ifexp(E, e);
  case EX_TUPLE: return emit_tuple(E, e);
  case EX_CALL: return emit_call(E, e);
  case EX_SUBSCRIPT: return emit_subscript(E, e);
  case EX_ATTR: return emit_attr(E, e);
  }
  return "0";
}

/* ---- statements ------------------------------------------------------------ */
static void emit_block(em *E, stmt *s);

/* `return None`: a kernel typed to return an object returns the object None. */
static const char *return_none(inst *in) {
  return in->ret->kind == TY_OBJ ? "*dynac_out = Py_NewRef(Py_None);\nreturn DYNAC_OK;"
                                 : "return DYNAC_OK_NONE;";
}

static void assign_target(em *E, target *t, const char *v, const type *vt) {
  if (t->sub) { /* obj[index] = v: after the value, obj then index are evaluated */
    const type *ot = t->sub->u.sub.obj->ty;
    const char *obj = keep(E, emit_expr(E, t->sub->u.sub.obj), ot);
    const char *c = shaped_position(E, t->sub);
    elem_store(E, obj, ot, c ? &(positions){{c, NULL}, {"true", NULL}} : emit_index(E, t->sub), v, vt, false);
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
    line(E, "  return %s;", E->effectful ? arena_printf(E->m->a, "dynac_raise_unpack(%d, "
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
    if (lt->kind == TY_OBJ || owned_list_local(E->in, t->local)) /* the old value is released, as STORE_FAST does */
      line(E, "if (dynac_obj_set(&%s, Py_NewRef(%s)) < 0) return DYNAC_ERROR;", local_name(E, t->local),
           convert(E, v, vt, lt));
    else line(E, "%s = %s;", local_name(E, t->local), convert(E, v, vt, lt));
    if (t->local >= E->in->fn->nparams || E->reg)
      line(E, "b_%s = true;", E->in->fn->local_cnames[t->local]);
    E->bound[t->local] = true;
    return;
  }
  for (int i = 0; i < t->n; i++)
    assign_target(E, t->elts[i], arena_printf(E->m->a, "%s.v%d", v, i), vt->elts[i]);
}

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
  bool two_d = E->in->args[p->container]->ndim == 2;
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
static const char **hoist_bounds(em *E, stmt *loop, const char *start, const char *stop, const char *step) {
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
static void restore_bounds(em *E, int nhoisted, const char **saved) {
  E->nhoisted = nhoisted;
  for (int i = 0; saved && i < nhoisted; i++) E->hoisted[i].ok = saved[i];
}

/* Signal polling in loops (exported C has no signals to poll). The counter
 * is the kernel's own local (declared by emit_kernel): a register, where a
 * static one would be stored back at every iteration. */
static void loop_tick(em *E) {
  if (E->exported) return;
  if (E->nest) line(E, "DYNAC_LOOP_TICK_HELD(dynac__ticks); /* shapes proved before the loop: no switch */");
  else line(E, "DYNAC_LOOP_TICK(dynac__ticks);");
}

static void emit_loop_end(em *E, int label) { line(E, "dynac_end_%d:;", label); }

/* The rest of a loop opened with `for (...) {` and pushed on E->loops: its
 * body (locals bound before it: `before`), the closing brace, and the else
 * block, which a break skips (goto dynac_end_LABEL). */
static void emit_loop_rest(em *E, stmt *body, bool *before, bool has_else, stmt *orelse, int label) {
  emit_block(E, body);
  if (E->ncloops && E->cloops[E->ncloops - 1].label == label) E->ncloops--; /* its else is outside */
  bound_restore(E, before);
  E->indent--;
  line(E, "}");
  E->nloops--;
  if (has_else) {
    bool *pre = bound_save(E);
    emit_block(E, orelse);
    bound_restore(E, pre);
    emit_loop_end(E, label);
  }
}


/* Does the block hold a loop, at any depth? A kernel without one is marked
 * `inline`: small leaves (eval_A in spectral_norm) then cost no call, guard
 * or counter in their callers' loops. GCC and Clang still weigh its size.
 * A loop whose body holds none is innermost: it is versioned. */
static bool has_loop(const stmt *s) {
  for (; s; s = s->next) {
    if (s->kind == ST_WHILE || s->kind == ST_FOR_RANGE || s->kind == ST_FOR_ITER) return true;
    if (s->kind == ST_IF && (has_loop(s->u.if_.then) || has_loop(s->u.if_.orelse))) return true;
  }
  return false;
}

/* The view parameters (copied, view_copy) that a block stores to. */
static void note_target_views(em *E, const target *t, bool *views) {
  if (t->is_tuple) {
    for (int i = 0; i < t->n; i++) note_target_views(E, t->elts[i], views);
    return;
  }
  const expr *o = t->sub ? t->sub->u.sub.obj : NULL;
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
 * are in range (ok), and every view parameter it stores to is writable
 * and saved whole in the undo log (sn_x), so its stores need neither
 * test nor entry (E->unlogged, for the copy). A view whose last call had
 * its span copied is copied now, before the loop (the prediction of
 * dynac_view_log_predicted); otherwise the checked copy logs its writes
 * until it is. */
static const char *versioned_condition(em *E, const stmt *s, const char *ok) {
  if (!E->view_copy) return ok;
  bool *views = arena_alloc(E->m->a, sizeof(bool) * (size_t)(E->in->fn->nparams + 1));
  note_stored_views(E, s->u.for_.body, views);
  strbuf cond = {0};
  sb_printf(&cond, "%s", ok);
  for (int i = 0; i < E->in->fn->nparams; i++) {
    if (!views[i]) continue;
    const char *c = E->in->fn->local_cnames[i];
    line(E, "if (%s && !sn_%s) sn_%s = dynac_view_copy_predicted(dynac__u, l_%s, &snap_%s);", ok, c, c, c, c);
    sb_printf(&cond, " && sn_%s && !dv_%s.readonly", c, c);
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
    if (sub && sub->u.sub.obj->kind == EX_LOCAL && sub->u.sub.obj->u.local == p) n++;
  }
  return n;
}

/* In the unchecked copy: the writes the loop is about to make to each
 * view it needs no log for, counted as if logged (one addition), so that a
 * call that would have copied the span anyway renews the prediction and
 * the next call need not log item by item to learn it again. */
static void count_unlogged_writes(em *E, const stmt *s, const char *start, const char *stop, const char *step) {
  for (int i = 0; E->unlogged && i < E->in->fn->nparams; i++) {
    int k = E->unlogged[i] ? stores_each_iteration(s->u.for_.body, i) : 0;
    const char *c = E->in->fn->local_cnames[i];
    if (k)
      line(E, "dynac_view_count_writes(l_%s, dynac_range_len(%s, %s, %s) * %d, &snap_%s); /* renews the prediction */",
           c, start, stop, step, k, c);
  }
}

/* for v in range(start, stop, step) after its bounds are evaluated: the C
 * loop over the range's length (label: its k/n names, its else's label). */
static void emit_range_loop(em *E, stmt *s, int label, const char *startv, const char *stopv,
                            const char *stepv) {
  E->loops[E->nloops++] = (loopinfo){s->u.for_.has_else, label};
  line(E, "for (uint64_t k%d = 0, n%d = dynac_range_len(%s, %s, %s); k%d < n%d; k%d++) {", label,
       label, startv, stopv, stepv, label, label, label);
  E->indent++;
  if (E->conts) E->cloops[E->ncloops++] = (cont_loop){.s = s, .kind = 'r', .label = label,
                                                      .start = startv, .step = stepv};
  loop_tick(E);
  bool *before = bound_save(E);
  const char *k = s->u.for_.how == 'r' ? arena_printf(E->m->a, "(n%d - 1 - k%d)", label, label) /* reversed() */
                                       : arena_printf(E->m->a, "k%d", label);
  assign_target(E, s->u.for_.tgt,
                arena_printf(E->m->a, "(int64_t)((uint64_t)%s + %s * (uint64_t)%s)", startv, k, stepv),
                &ty_int);
  emit_loop_rest(E, s->u.for_.body, before, s->u.for_.has_else, s->u.for_.orelse, label);
}

static void emit_for_iter_loop(em *E, stmt *s, int label, const char **objs, const char *count,
                               const shape_plan *plan);
static restart restart_open(em *E, const stmt *s, bool header);
static void restart_close(em *E, restart outer);
/* for target in c / enumerate(c[, start]) / zip(c1, ...) / reversed(c):
 * the length is read at every step, as CPython's iterators do (a list the
 * body appends to is iterated to its new end). */

static void emit_for_iter(em *E, stmt *s) {
  int label = ++E->label;
  int n = s->u.for_.niters;
  const char *objs[8];
  for (int i = 0; i < n; i++) {
    const type *t = s->u.for_.iters[i]->ty;
    const char *v = emit_expr(E, s->u.for_.iters[i]);
    if (t->kind == TY_LIST && E->in->builds_lists) { /* held, as the list iterator holds it */
      objs[i] = tmpvar(E, &ty_obj);
      line(E, "%s = Py_NewRef(%s);", objs[i], v);
    } else objs[i] = keep_always(E, v, t);
  }
  const char *count = NULL;
  if (s->u.for_.how == 'e')
    count = keep_always(E, s->u.for_.start ? as_int(E, emit_expr(E, s->u.for_.start), s->u.for_.start->ty)
                                           : "INT64_C(0)", &ty_int); /* the iterator's own count */
  emit_for_iter_loop(E, s, label, objs, count, shape_nest_plan(E->nest, s));
}

/* The pass before a loop that tests what `plan` needs of every item of
 * list `l`, which inner loop `s` iterates: the item's tuple shape (its
 * tests, not its values: the loop reads them again) and each fact's list.
 * Returns the flag, shN. */
static const char *shape_test(em *E, const stmt *s, const char *l, const shape_plan *plan, int label) {
  const type *it = s->u.for_.iters[0]->ty->elts[0];
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

/* The loop of emit_for_iter over its evaluated containers `objs`; `plan`:
 * the shape of its items, proved before an enclosing loop (else NULL). */
static void emit_for_iter_loop(em *E, stmt *s, int label, const char **objs, const char *count,
                               const shape_plan *plan) {
  int n = s->u.for_.niters;
  const char *k = arena_printf(E->m->a, "k%d", label);
  bool rev = s->u.for_.how == 'r';
  E->loops[E->nloops++] = (loopinfo){s->u.for_.has_else, label};
  if (rev) line(E, "for (int64_t %s = %s - 1;; %s--) {", k, len_of(E, objs[0], s->u.for_.iters[0]->ty), k);
  else line(E, "for (int64_t %s = 0;; %s++) {", k, k);
  E->indent++;
  loop_tick(E);
  for (int i = 0; i < n; i++)
    line(E, "if (%s%s >= %s) break; /* exhausted */", rev ? arena_printf(E->m->a, "%s < 0 || ", k) : "",
         k, len_of(E, objs[i], s->u.for_.iters[i]->ty));
  if (E->conts) {
    cont_loop L = {.s = s, .kind = 'c', .label = label, .count = count};
    for (int i = 0; i < n; i++) L.objs[i] = objs[i], L.otys[i] = s->u.for_.iters[i]->ty;
    E->cloops[E->ncloops++] = L;
  }
  restart outer_rp = restart_open(E, s, true); /* taking the item: a deoptimisation goes on from it */
  const char *vals[8];
  for (int i = 0; i < n; i++) {
    const type *t = s->u.for_.iters[i]->ty;
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
    for (int i = 0; i < n; i++) { el[np] = ty_elem(s->u.for_.iters[i]->ty); parts[np++] = vals[i]; }
    const type *t = ty_tuple(E->m->a, np, el);
    const char *tv = tmpvar(E, t);
    for (int i = 0; i < np; i++) line(E, "%s.v%d = %s;", tv, i, parts[i]);
    if (count) fail_if(E, NULL, "enumerate() count above int64", arena_printf(E->m->a,
                       "dynac_int_add(%s, 1, &%s)", count, count), NULL);
    assign_target(E, s->u.for_.tgt, tv, t);
  } else {
    E->shaped_target = plan != NULL;
    assign_target(E, s->u.for_.tgt, vals[0], ty_elem(s->u.for_.iters[0]->ty));
    E->shaped_target = false;
  }
  restart_close(E, outer_rp);
  const shape_plan *outer = E->shaped;
  if (plan) E->shaped = plan;
  emit_loop_rest(E, s->u.for_.body, before, s->u.for_.has_else, s->u.for_.orelse, label);
  E->shaped = outer;
}

/* Could evaluating `e` change a list (its length or an element)? Calls of
 * kernels and methods, operations on objects (Python code) and
 * comprehensions may; arithmetic, reads and builtins of numbers do not (a
 * failure there leaves the kernel). */
static void may_write_sub(void *any, expr *e);
static bool may_write(expr *e) {
  if (e->kind == EX_LISTCOMP || e->ty->kind == TY_OBJ) return true;
  if (e->kind == EX_CALL && e->u.call.kind != CALLEE_BUILTIN && e->u.call.kind != CALLEE_MATH) return true;
  bool any = false;
  ir_each_subexpr(e, may_write_sub, &any);
  return any;
}
static void may_write_sub(void *any, expr *e) { if (may_write(e)) *(bool *)any = true; }

/* Does a block use numpy float arithmetic (whose underflow numpy may be
 * told to report, dynac_np_underflow_noticed)? */
static void np_float_block(void *any, stmt *b);
static void np_float_expr(void *any, expr *e) {
  if (e->kind == EX_BINOP && np_float(e->ty)) *(bool *)any = true;
  if (e->kind == EX_LISTCOMP) np_float_block(any, e->u.comp.loop);
  ir_each_subexpr(e, np_float_expr, any);
}
static void np_float_target(void *any, target *t) {
  if (t->sub) np_float_expr(any, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) np_float_target(any, t->elts[i]);
}
static void np_float_block(void *any, stmt *b) {
  static const ir_parts parts = {np_float_expr, np_float_target, np_float_block, true};
  for (; b; b = b->next) ir_each_part(b, &parts, any);
}
static bool uses_np_float(stmt *b) {
  bool any = false;
  np_float_block(&any, b);
  return any;
}
/* On the way out of a kernel with numpy float arithmetic: an underflow
 * numpy would report (np.seterr) sends the call to the interpreter. */
static void np_exit_check(em *E) {
  if (E->np_exit && !E->exported)
    deopt_if(E, NULL, "numpy: an underflow that np.seterr does not ignore", "dynac_np_underflow_noticed()");
}

static void emit_stmt(em *E, stmt *s);
/* Loop versioning on the items' shape (shapes.c): a loop holding loops over
 * lists whose items' shape nothing in it can change runs as a copy without
 * their type tests when one pass before it proves them, else as the tested
 * copy. False: not a loop that gains. */
static bool emit_shape_versioned(em *E, stmt *s) {
  if (E->nest || E->no_nest || E->exported ||
      (s->kind != ST_WHILE && s->kind != ST_FOR_RANGE && s->kind != ST_FOR_ITER))
    return false;
  shape_nest *nest = arena_alloc(E->m->a, sizeof *nest);
  if (!shape_nest_for(E->m->a, s, nest)) return false;
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

static void emit_stmt_kind(em *E, stmt *s) {
  if (emit_shape_versioned(E, s)) return;
  source_comment(E, s->pos);
  switch (s->kind) {
  case ST_ASSIGN: {
    bool simple = s->u.assign.ntargets == 1 && !s->u.assign.targets[0]->is_tuple;
    if (simple && !s->u.assign.targets[0]->sub && s->u.assign.value->kind == EX_BINOP)
      E->assigned = s->u.assign.value, E->assigned_local = s->u.assign.targets[0]->local;
    const char *v = emit_expr(E, s->u.assign.value);
    E->assigned = NULL;
    const type *vt = s->u.assign.value->ty;
    if (!simple && s->u.assign.value->kind != EX_TUPLE) {
      const char *keep = tmpvar(E, vt);
      line(E, "%s = %s;", keep, v);
      v = keep;
    }
    for (int i = 0; i < s->u.assign.ntargets; i++) assign_target(E, s->u.assign.targets[i], v, vt);
    break;
  }
  case ST_AUGASSIGN: {
    if (s->u.aug.sub) { /* obj[i] op= v: obj, i, the element, v, the operation, the store */
      expr *sub = s->u.aug.sub;
      const type *ot = sub->u.sub.obj->ty;
      const char *obj = keep(E, emit_expr(E, sub->u.sub.obj), ot);
      const char *checked = shaped_position(E, sub); /* the item's index, checked by the read */
      const positions *idx = checked ? NULL : emit_index(E, sub);
      const char *old = checked ? shaped_item(E, obj, checked) : elem_read(E, obj, ot, idx, sub->u.sub.index, &checked);
      const char *r = emit_expr(E, s->u.aug.value);
      const type *res = binop_result(s->u.aug.op, sub->ty, s->u.aug.value->ty);
      const char *v = emit_binop_values(E, s->u.aug.op, old, sub->ty, r, s->u.aug.value->ty, res);
      /* the item just read, which nothing in between can have moved or changed (a buffer's
         length is fixed while the kernel holds it): its index is checked, its value plain */
      bool reuse = checked && (ot->kind == TY_BUF || !idx || !may_write(s->u.aug.value));
      positions same = {{checked, NULL}, {"true", NULL}};
      elem_store(E, obj, ot, reuse ? &same : idx, keep(E, v, res), res, reuse);
      break;
    }
    int loc = s->u.aug.local;
    const type *lt = E->in->local_ty[loc];
    if (!E->bound[loc])
      unbound_check(E, loc);
    const char *r = emit_expr(E, s->u.aug.value);
    const type *res = binop_result(s->u.aug.op, lt, s->u.aug.value->ty);
    E->assigned_op = true, E->assigned_local = loc;
    const char *v = emit_binop_values(E, s->u.aug.op, local_name(E, loc), lt, r,
                                      s->u.aug.value->ty, res);
    E->assigned_op = false;
    line(E, "%s = %s;", local_name(E, loc), convert(E, v, res, lt)); /* infer: not an object */
    break;
  }
  case ST_RETURN:
    if (!s->u.ret) {
      np_exit_check(E);
      line(E, "%s", return_none(E->in));
      break;
    }
    {
      E->returned = s->u.ret;
      const char *v = emit_expr(E, s->u.ret);
      E->returned = NULL;
      np_exit_check(E);
      if (E->in->ret->kind == TY_OBJ || E->in->ret->kind == TY_LIST) /* a new reference for the caller */
        line(E, "*dynac_out = Py_NewRef(%s);", convert(E, v, s->u.ret->ty, E->in->ret));
      else line(E, "*dynac_out = %s;", convert(E, v, s->u.ret->ty, E->in->ret));
      line(E, "return DYNAC_OK;");
    }
    break;
  case ST_IF: {
    const char *c = emit_expr(E, s->u.if_.cond);
    int k = constant_truth(s->u.if_.cond);
    if (k == 0 || k == 1) { /* `x is None` decided by the argument types (the guard) */
      line(E, "{ /* %s for these argument types: only this branch is compiled */",
           k ? "true" : "false");
      E->indent++;
      emit_block(E, k ? s->u.if_.then : s->u.if_.orelse);
      E->indent--;
      line(E, "}");
      break;
    }
    line(E, "if (%s) {", truth(E, c, s->u.if_.cond->ty));
    E->indent++;
    bool *before = bound_save(E);
    emit_block(E, s->u.if_.then);
    bool *after_then = bound_save(E);
    bound_restore(E, before);
    E->indent--;
    if (s->u.if_.orelse) {
      line(E, "} else {");
      E->indent++;
      emit_block(E, s->u.if_.orelse);
      E->indent--;
    }
    bound_intersect(E, after_then);
    line(E, "}");
    break;
  }
  case ST_WHILE: {
    int label = ++E->label;
    E->loops[E->nloops++] = (loopinfo){s->u.while_.has_else, label};
    line(E, "for (;;) {");
    E->indent++;
    loop_tick(E);
    const char *c = emit_expr(E, s->u.while_.cond);
    line(E, "if (!%s) break;", truth(E, c, s->u.while_.cond->ty));
    emit_loop_rest(E, s->u.while_.body, bound_save(E), s->u.while_.has_else, s->u.while_.orelse,
                   label);
    break;
  }
  case ST_FOR_RANGE: {
    int label = ++E->label;
    const char *start = s->u.for_.start ? as_int(E, emit_expr(E, s->u.for_.start), s->u.for_.start->ty) : "INT64_C(0)";
    const char *startv = tmpvar(E, &ty_int);
    line(E, "%s = %s;", startv, start);
    const char *stopv = tmpvar(E, &ty_int);
    line(E, "%s = %s;", stopv, as_int(E, emit_expr(E, s->u.for_.stop), s->u.for_.stop->ty));
    const char *stepv = tmpvar(E, &ty_int);
    line(E, "%s = %s;", stepv, s->u.for_.step ? as_int(E, emit_expr(E, s->u.for_.step), s->u.for_.step->ty) : "INT64_C(1)");
    deopt_if(E, "DYNAC_FAIL_RANGE_STEP", "ValueError: range() arg 3 must not be zero", "%s == 0", stepv);
    int nhoisted = E->nhoisted;
    const char **saved = E->exported ? NULL : hoist_bounds(E, s, startv, stopv, stepv);
    if (saved && !s->u.for_.has_else && !has_loop(s->u.for_.body)) {
      /* loop versioning: a copy of an innermost loop without the bounds
       * checks the flag proved unneeded, and the checked copy */
      const char *ok = E->hoisted[nhoisted].ok, *outer = E->proven;
      const bool *outer_unlogged = E->unlogged;
      line(E, "if (%s) { /* every position in range: no bounds checks */", versioned_condition(E, s, ok));
      E->indent++;
      count_unlogged_writes(E, s, startv, stopv, stepv);
      E->proven = ok;
      emit_range_loop(E, s, label, startv, stopv, stepv);
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
    break;
  }
  case ST_FOR_ITER: emit_for_iter(E, s); break;
  case ST_BREAK: {
    loopinfo *L = &E->loops[E->nloops - 1];
    if (L->has_else) line(E, "goto dynac_end_%d;", L->label);
    else line(E, "break;");
    break;
  }
  case ST_CONTINUE: line(E, "continue;"); break;
  case ST_PASS: break;
  case ST_RAISE: { /* CPython's own exception object, raised from this line */
    const char *exc = arena_printf(E->m->a, "PyExc_%s", s->u.raise_.exc);
    if (s->u.raise_.arg) {
      const char *v = as_obj(E, emit_expr(E, s->u.raise_.arg), s->u.raise_.arg->ty);
      const char *o = tmpvar(E, &ty_obj);
      line(E, "%s = PyObject_CallOneArg(%s, %s);", o, exc, v);
      line(E, "if (%s) PyErr_SetObject((PyObject *)Py_TYPE(%s), %s);", o, o, o);
    } else if (s->u.raise_.msg) line(E, "PyErr_SetString(%s, %s);", exc, c_string(E->m, s->u.raise_.msg));
    else line(E, "PyErr_SetNone(%s);", exc);
    line(E, "return dynac_traceback_here(%s);", where(E));
    break;
  }
  case ST_INTERP: break; /* never inside a region */
  case ST_EXPR: {
    const char *v = emit_expr(E, s->u.expr);
    if (s->u.expr->ty->kind != TY_UNKNOWN && s->u.expr->ty->kind != TY_NONE) line(E, "(void)%s;", v);
    break;
  }
  }
}

/* ---- continuation in the interpreter (dynac.h's dynac_continue) ------------ */
/* Can a deoptimisation in instance `in` come after something the
 * interpreter must not repeat and the undo log cannot take back? An
 * allow_in_graph call, Python code run by an object operation, writes to a
 * list the kernel made once the log is full. Writes to the caller's lists
 * and buffers are always taken back (whole copies past DYNAC_UNDO_MAX), so
 * such kernels (array loops) carry no continuation code: only a copy that
 * finds no memory ends their call in dynac_deopt_after_effect. */
static bool may_continue(const inst *in) {
  return in->effectful && (in->opaque_calls || in->generic || in->builds_lists);
}


static int base_of(func *f, int v);

/* Local v boxed as the interpreter holds it (a new reference), NULL when unbound. */
static const char *cont_value(em *E, int v) {
  const type *t = E->in->local_ty[v];
  if (t->kind == TY_UNKNOWN) return "NULL"; /* never bound by compiled code */
  const char *c = E->in->fn->local_cnames[v];
  const char *boxed = t->kind == TY_OBJ || owned_list_local(E->in, v)
      ? arena_printf(E->m->a, "Py_XNewRef(l_%s)", c) : box_value(E, local_name(E, v), t);
  if (v < E->in->fn->nparams && !E->reg) return boxed;
  return arena_printf(E->m->a, "b_%s ? %s : NULL", c, boxed);
}

/* The iterator of enclosing for loop L at its next item (at the current
 * one: `header`), as a new reference. */
static const char *cont_iterator(em *E, const cont_loop *L, bool header) {
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
  if (t->kind == TY_OBJ) {
    line(E, "*dynac_out = r;");
    line(E, "return DYNAC_OK;");
    return;
  }
  if (t->kind == TY_LIST) line(E, "if (PyList_CheckExact(r)) { *dynac_out = r; return DYNAC_OK; }");
  else if (t->kind != TY_UNKNOWN && !ty_is_container(t) && elem_fn(E->m, t))
    line(E, "if (r != Py_None && !%s(r, dynac_out)) { Py_DECREF(r); return DYNAC_OK; }", elem_fn(E->m, t));
  line(E, "if (r == Py_None) { Py_DECREF(r); return DYNAC_OK_NONE; }");
  line(E, "dynac__boxed_result = r; /* a value of another type: the caller takes it */");
  line(E, "return DYNAC_OK_BOXED;");
}

/* Where a continuation goes on (dynac_cont_site.header, _continue.py's modes). */
enum { CONT_START = 0, CONT_HEAD = 1, CONT_AFTER = 2, CONT_MID = 3 };

static const char *region_spec(em *E);

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
  int assigned = after ? base_of(f, rp->after_local) : -1;
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
  line(E, "int st = dynac_continue(&sites[%s], dynac__G.globals, dynac__G.filename, DYNAC_SOURCE_SHA256, cv, ci, &r);",
       mid ? arena_printf(E->m->a, "mk%d", label) : "0");
  line(E, "if (st == DYNAC_DEOPT) return dynac_deopt_after_effect(DYNAC_SOURCE_NAME, %d);", rp->s->pos.line);
  line(E, "if (st != DYNAC_OK) return DYNAC_ERROR; /* the function's own exception */");
  cont_finish(E);
  E->indent--;
  line(E, "}");
  line(E, "}");
}

/* The expression whose pending operands a MID continuation substitutes:
 * the value of `x = v` and `return v`, `v` of `x op= v` (as `x op v`), an
 * expression statement, an if's test; NULL for the statements whose
 * earlier parts the interpreter would evaluate again (`xs[i] op= v`). */
static const expr *stmt_root(const stmt *s, bool *aug) {
  *aug = false;
  switch (s->kind) {
  case ST_ASSIGN: return s->u.assign.value;
  case ST_AUGASSIGN: *aug = true; return s->u.aug.sub ? NULL : s->u.aug.value;
  case ST_RETURN: return s->u.ret;
  case ST_EXPR: return s->u.expr;
  case ST_IF: return s->u.if_.cond;
  default: return NULL;
  }
}

/* Child i of `e` that a continuation can address, and its path step in
 * `step` (_continue.py reads them): binary operands L, R; the unary operand
 * U; tuple elements T<i>; the two operands of a comparison C<i> or of
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
  case EX_TUPLE: tag = 'T', kid = i < e->u.tuple.n ? e->u.tuple.elts[i] : NULL; break;
  case EX_COMPARE:
    tag = 'C', kid = e->u.cmp.n == 2 && i < 2 ? e->u.cmp.operands[i] : NULL;
    break;
  case EX_BOOLOP: tag = 'B', kid = i == 0 ? e->u.boolop.l : i == 1 ? e->u.boolop.r : NULL; break;
  case EX_CALL: /* a method's or a value's args[0] is not an argument of the source's call */
    tag = 'A';
    kid = e->u.call.kind != CALLEE_METHOD && e->u.call.kind != CALLEE_VALUE && i < e->u.call.n
        ? e->u.call.args[i] : NULL;
    break;
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

/* A failure here, in a statement that already had an effect: the action
 * that boxes the pending operands and goes on in the interpreter with the
 * statement run again around them (a mid_point), or NULL when that cannot
 * be exact: an effect in something the interpreter would evaluate again,
 * an operand the continuation cannot address, or one it cannot box. */
static const char *mid_action(em *E) {
  restart *rp = &E->rp;
  int n = E->nvstack - rp->vbase;
  bool full = E->nvstack == VSTACK_CAP; /* some unrecorded */
  if (!E->conts || !rp->s || !rp->effect || E->exported || n <= 0 || full) return NULL;
  if (E->vstack[E->nvstack - 1].neffects != rp->neffects) return NULL;
  bool aug;
  const expr *root = stmt_root(rp->s, &aug);
  if (!root) return NULL;
  int label = rp->mid_label ? rp->mid_label : E->label + 1; /* taken below if used */
  strbuf subst = {0}, boxes = {0};
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    const pending *p = &E->vstack[rp->vbase + i];
    int k = p->e->ty->kind;
    ok = p->boxed || is_scalar(p->e->ty) || k == TY_OBJ || k == TY_LIST;
    sb_printf(&subst, "%s%s", i ? ";" : "", aug ? "R" : "");
    ok = ok && expr_path(root, p->e, &subst);
    sb_printf(&subst, "@%d:%d", p->e->pos.line, p->e->pos.col - 1);
    if (ok && p->boxed) sb_printf(&boxes, "\n  mv%d[%d] = %s;\n  %s = NULL;", label, i, p->v, p->v);
    else if (ok) sb_printf(&boxes, "\n  mv%d[%d] = %s;", label, i, box_value(E, p->v, p->e->ty));
  }
  const char *action = NULL;
  if (ok) {
    mid_point *mp = arena_alloc(E->m->a, sizeof *mp);
    *mp = (mid_point){.n = n, .subst = arena_strdup(E->m->a, subst.data), .next = rp->mids};
    rp->mids = mp;
    if (!rp->mid_label) rp->mid_label = ++E->label;
    if (n > rp->max_pending) rp->max_pending = n;
    action = arena_printf(E->m->a,
                          "{ /* goes on in the interpreter */\n"
                          "  if (!dynac__effects && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; /* nothing done */%s\n"
                          "  mk%d = %d;\n  goto dynac_mid_%d;\n}",
                          boxes.data, label, rp->nmids++, label);
  }
  sb_free(&subst);
  sb_free(&boxes);
  return action;
}

/* Opens a restart point at statement s (header: the head of for loop s):
 * the code emitted until restart_close goes to a buffer of its own, so the
 * continuation block can be written before it. Returns the outer one. */
static restart restart_open(em *E, const stmt *s, bool header) {
  restart outer = E->rp;
  if (!E->conts) return outer;
  E->rp = (restart){.s = s, .header = header, .outer_b = E->b, .indent = E->indent,
                    .nloops = E->ncloops, .versions = E->versions, .vbase = E->nvstack};
  E->b = arena_alloc(E->m->a, sizeof(strbuf));
  return outer;
}

/* Closes it: its continuation block (if a deoptimisation used it), then
 * its code, go to the enclosing buffer. */
static void restart_close(em *E, restart outer) {
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

static void emit_stmt(em *E, stmt *s) {
  restart outer = restart_open(E, s, false);
  emit_stmt_kind(E, s);
  restart_close(E, outer);
}

/* Does the numpy float chain `e` pass local `x`'s inf or nan to its top? */
static bool passes_local(const expr *e, int x) {
  if (e->kind == EX_LOCAL) return e->u.local == x;
  return finite_operands_pass(e) && (passes_local(e->u.bin.l, x) || passes_local(e->u.bin.r, x));
}

/* `x = chain` followed by `target = chain2` where chain2 passes x's inf or
 * nan to its top, and nothing in chain2 can be observed first (quiet):
 * the inf/nan test of chain2 stands for both (lap = ...; out[i, j] = u +
 * alpha * lap tests once). */
static bool finite_left_to_next(em *E, const stmt *s) {
  const stmt *n = s->next;
  if (s->kind != ST_ASSIGN || s->u.assign.ntargets != 1 || !n || n->kind != ST_ASSIGN ||
      n->u.assign.ntargets != 1 || n->u.assign.targets[0]->is_tuple)
    return false;
  const target *t = s->u.assign.targets[0];
  if (t->is_tuple || t->sub || !finite_operands_pass(s->u.assign.value) ||
      !finite_operands_pass(n->u.assign.value) || !passes_local(n->u.assign.value, t->local))
    return false;
  bool was = E->bound[t->local];
  E->bound[t->local] = true; /* by then */
  bool q = quiet(E, n->u.assign.value);
  E->bound[t->local] = was;
  return q;
}

static void emit_block(em *E, stmt *s) {
  bool top = s == E->in->fn->body || (E->reg && E->reg->top && s == E->reg->s_first);
  const int *first = s == E->in->fn->body ? NULL : E->reg ? E->reg->cur_before : NULL;
  for (stmt *prev = NULL; s; prev = s, s = s->next) {
    if (top) E->versions = prev ? prev->cur_after : first; /* names as this statement starts */
    if (finite_left_to_next(E, s)) {
      E->finite_by_parent = s->u.assign.value;
      E->finite_note = arena_printf(E->m->a, " /* inf or nan: tested with line %d's result */", s->next->pos.line);
    }
    emit_stmt(E, s);
    E->finite_by_parent = NULL;
    E->finite_note = NULL;
    if (ends_flow(s)) break; /* the rest is unreachable (and may not be typed) */
  }
}

/* ---- per instance: kernel, guard, glue ---------------------------------- */
/* The kernel's C parameters; exported kernels end with the status. */
static const char *params_of(module *m, inst *in, bool exported) {
  strbuf b = {0};
  for (int i = 0; i < in->fn->nparams; i++) {
    if (i) sb_puts(&b, ", ");
    note_type(in->args[i]);
    sb_printf(&b, "%s %c_%s", c_type(in->args[i]),
              in->args[i]->kind == TY_OBJ || owned_list_local(in, i) ? 'p' : 'l',
              in->fn->params[i]); /* an object parameter: borrowed p_x, owned local l_x */
  }
  note_type(in->ret);
  if (in->ret->kind != TY_UNKNOWN) {
    if (in->fn->nparams) sb_puts(&b, ", ");
    sb_printf(&b, "%s *dynac_out", c_type(in->ret));
  }
  if (exported) sb_printf(&b, "%sdynac_x_status *dynac_st", b.data ? ", " : "");
  if (!b.data) sb_puts(&b, "void");
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

static const char *signature_of(module *m, inst *in) {
  strbuf b = {0};
  sb_puts(&b, "(");
  for (int i = 0; i < in->fn->nparams; i++) {
    if (i) sb_puts(&b, ", ");
    sb_puts(&b, ty_python_name(m->a, in->args[i]));
  }
  sb_printf(&b, ") -> %s", ty_python_name(m->a, in->ret));
  if (in->ret->kind != TY_UNKNOWN && in->ret_may_be_none) sb_puts(&b, " | None");
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}


/* sn_x of view parameter `p`, which the function only stores to: its
 * stores need no undo entry when it shares no memory with a view the call
 * reads, since a deoptimised call's run again rewrites it (replay.c). */
static void declare_store_only(em *E, int p, const bool *store_only) {
  strbuf cond = {0};
  const char *c = E->in->fn->local_cnames[p];
  for (int i = 0; i < E->in->fn->nparams; i++)
    if (E->in->args[i]->kind == TY_BUF && !store_only[i])
      sb_printf(&cond, "%sdynac_view_disjoint(l_%s, l_%s)", cond.data ? " && " : "", c, E->in->fn->local_cnames[i]);
  line(E, "/* %s is only stored to: a run again rewrites it, so its stores need no undo entry", E->in->fn->params[p]);
  line(E, " * when it shares no memory with a view the call reads */");
  line(E, "int sn_%s = %s;", c, cond.data ? cond.data : "1");
  sb_free(&cond);
}


/* Tests of --suppress-errors simulate generator bugs: DYNAC_TEST_BREAK_EMIT
 * is a comma-separated list of `f` (f's kernels are not C) and `f+g` (f's
 * kernels are not C while g is compiled too: functions that fail only
 * together). */
static bool test_break_requested(const module *m, const char *qualname) {
  const char *spec = getenv("DYNAC_TEST_BREAK_EMIT");
  size_t n = strlen(qualname);
  for (const char *p = spec; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *plus = memchr(p, '+', len);
    size_t head = plus ? (size_t)(plus - p) : len;
    if (head == n && !strncmp(p, qualname, n)) {
      if (!plus) return true;
      bool other_suppressed = false;
      for (int k = 0; k < m->nsuppressed; k++)
        if (strlen(m->suppressed[k]) == len - head - 1 && !strncmp(m->suppressed[k], plus + 1, len - head - 1))
          other_suppressed = true;
      if (!other_suppressed) return true;
    }
    p = end ? end + 1 : NULL;
  }
  return false;
}

/* Locals every kernel body may use: the loop counter for signal polling,
 * the copies of view parameters' fields (view_field). */
static void declare_kernel_locals(em *E, stmt *body) {
  if (has_loop(body) && !E->exported) line(E, "unsigned dynac__ticks = 0; /* loop iterations */");
  else if (E->in->fn->comprehensions && !E->exported)
    line(E, "unsigned dynac__ticks = 0; /* loop iterations (of comprehensions) */");
  if (E->reg) return;
  E->view_copy = arena_alloc(E->m->a, sizeof(bool) * (size_t)(E->in->fn->nparams + 1));
  const bool *store_only = E->exported ? NULL : store_only_views(E->m->a, E->m, E->in);
  for (int i = 0; i < E->in->fn->nparams; i++) {
    if (E->in->args[i]->kind != TY_BUF || block_binds(body, i)) continue;
    E->view_copy[i] = true;
    const char *c = E->in->fn->local_cnames[i];
    line(E, "const dynac_view dv_%s = *l_%s; /* its fields, fixed for the call */", c, c);
    if (E->exported) line(E, "(void)dv_%s;", c);
    else if (store_only[i]) declare_store_only(E, i, store_only);
    else line(E, "int sn_%s = 0; /* its span is saved in the undo log: stores need no entry */", c);
    if (!E->exported)
      line(E, "(void)sn_%s;\nstatic unsigned char snap_%s; /* copy the span at the first write? (predicted) */\n"
           "(void)snap_%s;", c, c, c);
  }
}

static bool emit_kernel(module *m, inst *in, const char *tpl, bool line_directives, bool exported,
                        strbuf *out) {
  infer_retype(m, in);
  strbuf locals = {0}, body = {0};
  for (int i = 0; i < in->fn->nparams; i++)
    if (in->args[i]->kind == TY_OBJ || owned_list_local(in, i))
      sb_printf(&locals, "DYNAC_OBJ l_%s = Py_NewRef(p_%s); /* owned: it can be rebound */\n",
                in->fn->local_cnames[i], in->fn->params[i]);
  for (int i = in->fn->nparams; i < in->fn->nlocals; i++) {
    const type *t = in->local_ty[i];
    if (t->kind == TY_UNKNOWN) continue;
    note_type(t);
    if (t->kind == TY_OBJ || owned_list_local(in, i)) {
      sb_printf(&locals, "DYNAC_OBJ l_%s = NULL; /* owned */\nbool b_%s = false; /* bound? */\n",
                in->fn->local_cnames[i], in->fn->local_cnames[i]);
      continue;
    }
    sb_printf(&locals, "%s l_%s = %s;\nbool b_%s = false; /* bound? */\n", c_type(t),
              in->fn->local_cnames[i], t->kind == TY_TUPLE || t->kind == TY_NUM ? "{0}" : "0",
              in->fn->local_cnames[i]);
    if (exported) /* plain C is built with the user's warnings */
      sb_printf(&locals, "(void)l_%s, (void)b_%s;\n", in->fn->local_cnames[i], in->fn->local_cnames[i]);
  }
  bool undo = in->effectful && !exported; /* exported C keeps CPython's partial writes */
  em E = {.m = m, .in = in, .b = &body, .line_directives = line_directives, .effectful = undo,
          .exported = exported};
  E.conts = undo && may_continue(in);
  if (undo) line(&E, "int dynac__effects = 0; /* set once an opaque call ran */");
  if (undo) line(&E, "dynac_undo_log *const dynac__u = dynac_undo_here(); /* writes */");
  if (undo) line(&E, "(void)dynac__effects;\n(void)dynac__u;");
  if (exported) line(&E, "int dynac_f = 0; /* a helper's failure code */\n(void)dynac_f, (void)dynac_st;");
  declare_kernel_locals(&E, in->fn->body);
  E.bound = arena_alloc(m->a, sizeof(bool) * (size_t)(in->fn->nlocals + 1));
  for (int i = 0; i < in->fn->nparams; i++) E.bound[i] = true;
  E.np_exit = uses_np_float(in->fn->body);
  emit_block(&E, in->fn->body);
  np_exit_check(&E); /* before the end's return */
  if (test_break_requested(m, in->fn->qualname))
    line(&E, "this is not C; /* DYNAC_TEST_BREAK_EMIT: a simulated generator bug */");
  const char *comment = arena_printf(m->a, "/* %s:%d: def %s: specialisation %s */",
                                     basename_of(m->path), in->fn->pos.line, in->fn->qualname,
                                     signature_of(m, in));
  hole holes[] = {{"comment", comment}, {"name", in->cname}, {"params", params_of(m, in, exported)},
                  {"storage", has_loop(in->fn->body) || in->fn->comprehensions ? "static" : "static inline"},
                  {"locals", locals.data ? locals.data : ""},
                  {"body", body.data ? body.data : ""},
                  {"end", arena_printf(m->a, "%s /* end of the function: None */", return_none(in))}};
  bool ok = fill(tpl, holes, 7, out);
  sb_puts(out, "\n");
  sb_free(&locals);
  sb_free(&body);
  return ok;
}

static const char *guard_text(module *m, slot *s) {
  switch (s->kind) {
  case SLOT_GLOBAL_SCALAR:
    return arena_printf(m->a, "global %s is a %s", s->name, ty_python_name(m->a, s->ty));
  case SLOT_GLOBAL_FUNC:
    return arena_printf(m->a, "global %s is the function defined at %s:%d", s->name,
                        basename_of(m->path), s->fn->firstlineno);
  case SLOT_BUILTIN: return arena_printf(m->a, "builtin %s is not shadowed or replaced", s->name);
  case SLOT_MATH_MODULE: return arena_printf(m->a, "global %s is the math module", s->name);
  case SLOT_OPAQUE:
    return arena_printf(m->a, "global %s is callable and not disallow_in_graph", s->name);
  case SLOT_CONST_RESULT:
    return arena_printf(m->a, "%s() (assume_constant_result, called once) gave a %s", s->name,
                        ty_python_name(m->a, s->ty));
  case SLOT_DEFAULT:
    return arena_printf(m->a, "the default of %s(%s=) is %s%s", s->name, s->attr,
                        s->ty->kind == TY_NONE ? "" : "a ", ty_python_name(m->a, s->ty));
  case SLOT_MATH_ATTR:
    return s->ty ? arena_printf(m->a, "%s%s is a float", s->module_slot >= 0 ? "math." : "global ",
                                s->module_slot >= 0 ? s->attr : s->name)
                 : arena_printf(m->a, "%s is the math module's %s", s->module_slot >= 0 ?
                                arena_printf(m->a, "math.%s", s->attr) : s->name, s->attr);
  }
  return "?";
}

static const char *c_string(module *m, const char *s) {
  strbuf b = {0};
  sb_puts(&b, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') sb_printf(&b, "\\%c", *s);
    else if ((unsigned char)*s < 32) sb_printf(&b, "\\%03o", (unsigned char)*s);
    else sb_putn(&b, s, 1);
  }
  sb_puts(&b, "\"");
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

/* The guards of a root instance, in check order (for the guard function and
 * for explain). */
int emit_guard_list(module *m, inst *in, const char ***out) {
  int n = 0;
  const char **g = arena_alloc(m->a, sizeof(char *) * (size_t)(in->fn->nparams + m->nslots + 2));
  for (int i = 0; i < in->fn->nparams; i++) {
    const type *t = in->args[i];
    const char *p = in->fn->params[i];
    if (t->kind == TY_INT) g[n++] = arena_printf(m->a, "type(%s) is int and it fits in int64", p);
    else if (t->kind == TY_LIST)
      g[n++] = arena_printf(m->a, "type(%s) is list (each element's type is checked when it is "
                            "read)", p);
    else if (t->kind == TY_BUF)
      g[n++] = arena_printf(m->a, "type(%s) is %s with %d-D '%c' items%s", p, t->buf_kind == 'a'
                            ? "array.array" : t->buf_kind == 'm' ? "memoryview" : t->buf_kind ==
                            'y' ? "bytes" : t->buf_kind == 'n' ? "numpy.ndarray" : "bytearray",
                            t->ndim, t->fmt, t->strided ? "" : ", C-contiguous");
    else if (t->kind == TY_OBJ)
      g[n++] = arena_printf(m->a, "%s is any object (operations on it go through the C API)", p);
    else if (t->kind == TY_NONE) g[n++] = arena_printf(m->a, "%s is None", p);
    else g[n++] = arena_printf(m->a, "type(%s) is %s", p, ty_python_name(m->a, t));
  }
  for (int k = 0; k < m->nslots; k++) if (in->slots_used[k]) g[n++] = guard_text(m, m->slots[k]);
  g[n++] = "source sha256 matches the module's source (checked when attached)";
  *out = g;
  return n;
}

static const char *box_fn(module *m, const type *t);

/* dynac_view_acquire's kind letter: the buffer kind, 'N' for a 2-D ndarray. */
static char view_kind(const type *t) { return t->ndim == 2 ? 'N' : t->buf_kind; }

/* The C argument a<i> of type t made from the borrowed object `src`, for
 * the glue of a root (guarded: `guarded` types were checked by its guard
 * function) and for the entry of a region (nothing checked yet). Where the
 * object is not of type t, `fail` runs after the buffers acquired so far
 * are released; `release` collects the releases for after the call. */
static void emit_unbox_arg(module *m, const type *t, int i, const char *src, bool guarded,
                           const char *fail, strbuf *unbox, strbuf *release) {
  const char *undo = release->data ? release->data : "";
  if (t->kind == TY_BUF) { /* held for the call: the exporter cannot resize it */
    sb_printf(unbox, "Py_buffer pb%d;\ndynac_view v%d;\nif (!dynac_view_acquire(%s, '%c', '%c', %d, "
              "&pb%d, &v%d)) {%s %s }\nconst dynac_view *a%d = &v%d;\n", i, i, src, view_kind(t),
              t->fmt, t->strided, i, i, undo, fail, i, i);
    sb_printf(release, " PyBuffer_Release(&pb%d);", i);
    return;
  }
  if (t->kind == TY_LIST || t->kind == TY_OBJ) {
    sb_printf(unbox, "PyObject *a%d = %s; /* borrowed */\n", i, src);
    if (!guarded && t->kind == TY_LIST) sb_printf(unbox, "if (!PyList_CheckExact(a%d)) {%s %s }\n", i, undo, fail);
    return;
  }
  bool simple = t->kind == TY_FLOAT || t->kind == TY_BOOL || t->kind == TY_INT || t->kind == TY_NONE;
  if (guarded && simple) { /* the guard checked it */
    if (t->kind == TY_FLOAT) sb_printf(unbox, "double a%d = PyFloat_AS_DOUBLE(%s);\n", i, src);
    else if (t->kind == TY_BOOL) sb_printf(unbox, "bool a%d = %s == Py_True;\n", i, src);
    else if (t->kind == TY_NONE) sb_printf(unbox, "bool a%d = false; /* None */\n", i);
    else sb_printf(unbox, "int64_t a%d = 0;\n(void)dynac_int64_of(%s, &a%d); /* the guard checked the range */\n",
                   i, src, i);
    return;
  }
  sb_printf(unbox, "%s a%d = %s;\nif (%s(%s, &a%d)) {%s %s }\n", c_type(t), i,
            t->kind == TY_TUPLE || t->kind == TY_NUM ? "{0}" : "0", elem_fn(m, t), src, i, undo, fail);
}

static bool emit_entry(module *m, inst *in, const char *gtpl, const char *utpl, strbuf *out) {
  const char **gl;
  emit_guard_list(m, in, &gl);
  strbuf checks = {0};
  for (int i = 0; i < in->fn->nparams; i++) {
    const type *t = in->args[i];
    const char *text = c_string(m, gl[i]);
    if (t->kind == TY_BUF)
      sb_printf(&checks, "DYNAC_GUARD_BUF(%d, '%c', '%c', %d, %s)\n", i, view_kind(t), t->fmt,
                t->strided, text);
    else if (t->kind == TY_NP) sb_printf(&checks, "DYNAC_GUARD_NP(%d, '%c', %s)\n", i, t->fmt, text);
    else if (t->kind == TY_LIST) sb_printf(&checks, "DYNAC_GUARD_LIST(%d, %s)\n", i, text);
    else if (t->kind == TY_OBJ) sb_printf(&checks, "/* args[%d]: any object */\n", i);
    else if (t->kind == TY_NONE) sb_printf(&checks, "DYNAC_GUARD_NONE(%d, %s)\n", i, text);
    else if (t->kind == TY_TUPLE)
      sb_printf(&checks, "DYNAC_GUARD_UNBOX(%d, dynac_unbox_%s, dynac_%s, %s)\n", i, t->code,
                t->code, text);
    else
      sb_printf(&checks, "%s(%d, %s)\n", t->kind == TY_INT ? "DYNAC_GUARD_INT" : t->kind ==
                TY_FLOAT ? "DYNAC_GUARD_FLOAT" : "DYNAC_GUARD_BOOL", i, text);
  }
  bool any = false;
  for (int k = 0; k < m->nslots; k++) if (in->slots_used[k]) any = true;
  if (any) {
    sb_puts(&checks, "DYNAC_GUARD_GLOBALS(&dynac__G)\n");
    for (int k = 0; k < m->nslots; k++)
      if (in->slots_used[k])
        sb_printf(&checks, "DYNAC_GUARD_SLOT(&dynac__G, %d, %s)\n", k,
                  c_string(m, guard_text(m, m->slots[k])));
  }
  const char *sig = signature_of(m, in);
  const char *gcomment = arena_printf(m->a, "/* guard: may %s%s run for these arguments? */",
                                      in->fn->qualname, sig);
  hole gh[] = {{"comment", gcomment}, {"name", in->cname}, {"checks", checks.data ? checks.data : ""}};
  if (!fill(gtpl, gh, 3, out)) return false;
  sb_puts(out, "\n");
  strbuf unbox = {0}, call = {0}, box = {0}, release = {0};
  for (int i = 0; i < in->fn->nparams; i++)
    emit_unbox_arg(m, in->args[i], i, arena_printf(m->a, "args[%d]", i), true, "return DYNAC_DEOPT;",
                   &unbox, &release);
  bool has_value = in->ret->kind != TY_UNKNOWN;
  if (has_value) sb_printf(&unbox, "%s r = %s;\n", c_type(in->ret),
                           in->ret->kind == TY_TUPLE || in->ret->kind == TY_NUM ? "{0}" : "0");
  if (in->effectful) sb_puts(&call, "size_t mark = dynac_undo_mark();\n");
  sb_printf(&call, "st = dynac_kernel_%s(", in->cname);
  for (int i = 0; i < in->fn->nparams; i++) sb_printf(&call, "%sa%d", i ? ", " : "", i);
  sb_printf(&call, "%s);", has_value ? (in->fn->nparams ? ", &r" : "&r") : "");
  if (in->effectful) /* a deoptimised call runs again in the interpreter: undo its writes */
    sb_puts(&call, "\nif (st == DYNAC_DEOPT) dynac_undo_rollback(mark);\nelse dynac_undo_commit(mark);");
  if (has_value) {
    const type *rt = in->ret;
    const char *bx = rt->kind == TY_TUPLE ? arena_printf(m->a, "dynac_box_%s(&r)", rt->code)
                     : rt->kind == TY_OBJ || rt->kind == TY_LIST ? "r; /* the kernel's new reference */"
                     : rt->kind == TY_BUF ? "Py_NewRef(r->obj)"
                     : arena_printf(m->a, "%s(r)", box_fn(m, rt));
    sb_printf(&box, "*result = %s;", bx);
  }
  else sb_puts(&box, "*result = NULL; /* unreachable: the kernel returns None */");
  if (release.data) { /* after boxing: a returned buffer's object is referenced first */
    sb_printf(&call, "\nif (st == DYNAC_OK) {\n  %s\n  if (!*result) st = DYNAC_ERROR;\n}\n%s",
              box.data, release.data + 1);
    box.len = 0;
    sb_puts(&box, "/* boxed before the buffers were released */");
  }
  const char *ucomment = arena_printf(m->a, "/* glue: unbox, run the kernel, box: %s%s */",
                                      in->fn->qualname, sig);
  hole uh[] = {{"comment", ucomment}, {"name", in->cname}, {"unbox", unbox.data ? unbox.data : ""},
               {"call", call.data}, {"box", box.data}};
  bool ok = fill(utpl, uh, 5, out);
  sb_puts(out, "\n");
  sb_free(&checks); sb_free(&unbox); sb_free(&call); sb_free(&box); sb_free(&release);
  return ok;
}

/* The function that unboxes a borrowed element of type t into `out`, nonzero
 * when the object is not one (see dynac.h's dynac_elem_*). */
static const char *elem_fn(module *m, const type *t) {
  switch (t->kind) {
  case TY_FLOAT: return "dynac_elem_float";
  case TY_INT: return "dynac_elem_int";
  case TY_BOOL: return "dynac_elem_bool";
  case TY_NUM: return "dynac_elem_num";
  case TY_LIST: return "dynac_elem_list";
  case TY_OBJ: return "dynac_elem_obj";
  case TY_TUPLE: return arena_printf(m->a, "dynac_unbox_%s", t->code);
  case TY_NP: return arena_printf(m->a, "dynac_elem_np_%s", np_name(t->fmt));
  case TY_NONE: return "dynac_elem_none";
  case TY_BUF: return "dynac_elem_view";
  default: return NULL;
  }
}

/* struct per tuple type, its boxing function, and its unboxing function
 * (exact tuple of the right length, each element checked). */
static void emit_tuple_type(module *m, const type *t, strbuf *types, const type **done, int *ndone) {
  for (int i = 0; i < *ndone; i++) if (done[i] == t) return;
  for (int i = 0; i < t->n; i++)
    if (t->elts[i]->kind == TY_TUPLE) emit_tuple_type(m, t->elts[i], types, done, ndone);
  done[(*ndone)++] = t;
  sb_printf(types, "/* %s */\ntypedef struct { ", ty_python_name(m->a, t));
  for (int i = 0; i < t->n; i++) sb_printf(types, "%s v%d; ", c_type(t->elts[i]), i);
  sb_printf(types, "} dynac_%s;\n", t->code);
  sb_printf(types, "static PyObject *dynac_box_%s(const dynac_%s *v) {\n", t->code, t->code);
  sb_printf(types, "  PyObject *r = PyTuple_New(%d);\n  if (!r) return NULL;\n", t->n);
  for (int i = 0; i < t->n; i++) {
    const type *e = t->elts[i];
    const char *b = e->kind == TY_TUPLE ? arena_printf(m->a, "dynac_box_%s(&v->v%d)", e->code, i)
                    : arena_printf(m->a, "%s(v->v%d)", box_fn(m, e), i);
    sb_printf(types, "  PyObject *e%d = %s;\n  if (!e%d) { Py_DECREF(r); return NULL; }\n"
              "  PyTuple_SET_ITEM(r, %d, e%d);\n", i, b, i, i, i);
  }
  sb_puts(types, "  return r;\n}\n");
  /* the fields' tests joined (|, one branch for the caller): each reads
   * one item and takes no reference (objects are borrowed from the tuple) */
  sb_printf(types, "static inline int dynac_unbox_%s(PyObject *o, dynac_%s *out) {\n", t->code, t->code);
  sb_printf(types, "  if (!PyTuple_CheckExact(o) || PyTuple_GET_SIZE(o) != %d) return 1;\n  return ", t->n);
  for (int i = 0; i < t->n; i++)
    sb_printf(types, "%s%s(PyTuple_GET_ITEM(o, %d), &out->v%d)", i ? " |\n         " : "",
              t->elts[i]->kind == TY_OBJ ? "dynac_elem_obj_borrowed" : elem_fn(m, t->elts[i]), i, i);
  sb_puts(types, ";\n}\n");
  if (shape_tuple_plain(t)) { /* for loops versioned on their items' shape (shapes.c) */
    sb_printf(types, "/* its fields, untested: a test before the loop proved their types */\n"
              "static inline void dynac_fields_%s(PyObject *o, dynac_%s *out) {\n", t->code, t->code);
    for (int i = 0; i < t->n; i++) {
      const type *e = t->elts[i];
      if (e->kind == TY_TUPLE) sb_printf(types, "  dynac_fields_%s(PyTuple_GET_ITEM(o, %d), &out->v%d);\n", e->code, i, i);
      else sb_printf(types, "  out->v%d = %sPyTuple_GET_ITEM(o, %d)%s;\n", i,
                     e->kind == TY_FLOAT ? "PyFloat_AS_DOUBLE(" : "", i, e->kind == TY_FLOAT ? ")" : "");
    }
    sb_puts(types, "}\n");
  }
  sb_puts(types, "\n");
}

static const char *slot_kind_c(slot *s) {
  switch (s->kind) {
  case SLOT_GLOBAL_SCALAR:
    return s->ty->kind == TY_INT ? "DYNAC_SLOT_GLOBAL_INT" : s->ty->kind == TY_FLOAT
           ? "DYNAC_SLOT_GLOBAL_FLOAT" : "DYNAC_SLOT_GLOBAL_BOOL";
  case SLOT_GLOBAL_FUNC: return "DYNAC_SLOT_GLOBAL_FUNC";
  case SLOT_BUILTIN: return "DYNAC_SLOT_BUILTIN";
  case SLOT_MATH_MODULE: return "DYNAC_SLOT_MATH_MODULE";
  case SLOT_MATH_ATTR: return s->ty ? "DYNAC_SLOT_MATH_FLOAT" : "DYNAC_SLOT_MATH_FUNC";
  case SLOT_DEFAULT:
    return s->ty->kind == TY_INT ? "DYNAC_SLOT_DEFAULT_INT" : s->ty->kind == TY_FLOAT
           ? "DYNAC_SLOT_DEFAULT_FLOAT" : s->ty->kind == TY_NONE ? "DYNAC_SLOT_DEFAULT_NONE"
           : "DYNAC_SLOT_DEFAULT_BOOL";
  case SLOT_OPAQUE: return "DYNAC_SLOT_OPAQUE";
  case SLOT_CONST_RESULT:
    return s->ty->kind == TY_INT ? "DYNAC_SLOT_CONST_INT" : s->ty->kind == TY_FLOAT
           ? "DYNAC_SLOT_CONST_FLOAT" : "DYNAC_SLOT_CONST_BOOL";
  }
  return "0";
}


/* ---- partially compiled functions: regions and the resume table ---------
 * A function with graph breaks in its top-level block is split: maximal runs
 * of top-level statements that type in every specialisation are regions,
 * each a kernel per specialisation behind one Python-callable wrapper; the
 * loader rebuilds the function around them (python/dynac/_resume.py). */

/* Where a region's continuation ends: `line:col:outs` of its last
 * statement, its live-outs' names in the entry's order. */
static const char *region_spec(em *E) {
  func *f = E->in->fn;
  const struct region *r = E->reg;
  strbuf outs = {0};
  for (int i = 0; i < r->nout; i++) sb_printf(&outs, "%s%s", i ? "," : "", f->locals[base_of(f, r->out[i])]);
  const char *spec = arena_printf(E->m->a, "%d:%d:%s", r->s_last->pos.line, r->s_last->pos.col - 1,
                                  outs.data ? outs.data : "");
  sb_free(&outs);
  return spec;
}

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

static void reads_expr(expr *e, bool *r);
static void reads_block(stmt *s, bool *r, bool *w);
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
static int base_of(func *f, int v) {
  for (int i = 0; i < f->nbase; i++) if (!strcmp(f->locals[i], f->locals[v])) return i;
  return v;
}

/* A break or continue that leaves `s` (its loop is outside s). */
static bool escapes(stmt *s) {
  for (; s; s = s->next) {
    if (s->kind == ST_BREAK || s->kind == ST_CONTINUE) return true;
    if (s->kind == ST_IF && (escapes(s->u.if_.then) || escapes(s->u.if_.orelse))) return true;
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
          scan_block(S, s->blocks[i], inner, false);
        }
      }
      mark_assigned(s, defbound);
      for (int bl = 0; top && s->cur_after && bl < f->nbase; bl++) { /* NAME = typed_fn(...) */
        if (base_of(f, bl) != bl) continue; /* cur_after is indexed by base names */
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
    bool too_many = false; /* a dropped live-out would lose a value: no region then */
    for (int v = 0; v < f->nlocals; v++) {
      int b = base_of(f, v);
      int cur = top && b < f->nbase ? (cur_before ? cur_before[b] : b) : v;
      if (!(rd[v] && defbound[v] && cur == v)) continue;
      if (r->nin == 256) too_many = true; else r->in[r->nin++] = v;
    }
    bool *outbase = arena_alloc(S->m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
    for (int v = 0; v < f->nlocals; v++) if (wr[v]) outbase[top ? base_of(f, v) : v] = true;
    for (int b2 = 0; b2 < f->nlocals; b2++) {
      if (!outbase[b2]) continue;
      if (r->nout == 256) too_many = true;
      else r->out[r->nout++] = top && last->cur_after && b2 < f->nbase ? last->cur_after[b2] : b2;
    }
    for (stmt *t = r->s_first;; t = t->next) { /* assignments bind for later regions */
      mark_assigned(t, defbound);
      if (t == last) break;
    }
    if (top) cur_before = last->cur_after;
    if (!too_many && !all_no_op && S->nr < S->cap) S->nr++; /* else: stays interpreted */
  }
}

/* The regions of `f`, with live-ins (read in the region, definitely bound at
 * its entry: parameters, assignments before it, `x = typed_fn()`) and
 * live-outs (written in it), in source order. */
static int find_regions(module *m, func *f, region **out) {
  region_scan S = {m, f, NULL, 0, f->nsplit + 1};
  S.rs = arena_alloc(m->a, sizeof(region) * (size_t)S.cap);
  bool *defbound = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < f->nparams; i++) defbound[i] = true;
  scan_block(&S, f->body, defbound, true);
  *out = S.rs;
  return S.nr;
}

/* ---- ops per graph (explain) ---------------------------------------------- */
static int ops_block(stmt *s, stmt *last);
static void ops_sub(void *n, expr *e);
/* The operations of e: one per operator, comparison, call, element access
 * or new list, and a comprehension's clauses as loops. */
static int ops_expr(expr *e) {
  if (!e) return 0;
  int n = 0;
  switch (e->kind) {
  case EX_COMPARE: n = e->u.cmp.n - 1; break;
  case EX_BINOP: case EX_UNARY: case EX_NOT: case EX_BOOLOP: case EX_IFEXP: case EX_CALL:
  case EX_SUBSCRIPT: case EX_ATTR: case EX_LIST: case EX_SLICE: n = 1; break;
  case EX_LISTCOMP: n = 1 + ops_block(e->u.comp.loop, NULL); break;
  default: break;
  }
  ir_each_subexpr(e, ops_sub, &n);
  return n;
}
static void ops_sub(void *n, expr *e) { *(int *)n += ops_expr(e); }

/* Operations of a statement list up to and including `last` (NULL: all):
 * arithmetic, comparisons, calls, and one per branch or loop. */
static int ops_block(stmt *s, stmt *last) {
  int n = 0;
  for (; s; s = s->next) {
    switch (s->kind) {
    case ST_ASSIGN: n += ops_expr(s->u.assign.value); break;
    case ST_AUGASSIGN: n += 1 + ops_expr(s->u.aug.value) + (s->u.aug.sub ? 1 : 0); break;
    case ST_RETURN: n += ops_expr(s->u.ret); break;
    case ST_EXPR: n += ops_expr(s->u.expr); break;
    case ST_IF: n += 1 + ops_expr(s->u.if_.cond) + ops_block(s->u.if_.then, NULL) +
                     ops_block(s->u.if_.orelse, NULL); break;
    case ST_WHILE: n += 1 + ops_expr(s->u.while_.cond) + ops_block(s->u.while_.body, NULL) +
                        ops_block(s->u.while_.orelse, NULL); break;
    case ST_FOR_RANGE: n += 1 + ops_expr(s->u.for_.start) + ops_expr(s->u.for_.stop) +
                            ops_expr(s->u.for_.step) + ops_block(s->u.for_.body, NULL) +
                            ops_block(s->u.for_.orelse, NULL); break;
    case ST_FOR_ITER:
      n += 1 + ops_expr(s->u.for_.start) + ops_block(s->u.for_.body, NULL) +
           ops_block(s->u.for_.orelse, NULL);
      for (int i = 0; i < s->u.for_.niters; i++) n += ops_expr(s->u.for_.iters[i]);
      break;
    default: break;
    }
    if (s == last) break;
  }
  return n;
}

int emit_graph_ops(module *m, func *f, int *ops, int cap) {
  if (!f->partial) {
    if (cap > 0) ops[0] = ops_block(f->body, NULL);
    return 1;
  }
  region *rs;
  int n = find_regions(m, f, &rs);
  for (int i = 0; i < n && i < cap; i++) ops[i] = ops_block(rs[i].s_first, rs[i].s_last);
  return n;
}

int emit_region_lines(module *m, func *f, int *lines, int cap) {
  if (!f->partial) return 0;
  region *rs;
  int n = find_regions(m, f, &rs);
  for (int i = 0; i < n && i < cap; i++) {
    lines[2 * i] = rs[i].s_first->pos.line;
    lines[2 * i + 1] = rs[i].s_last->end.line;
  }
  return n;
}

static const char *box_fn(module *m, const type *t) {
  switch (t->kind) {
  case TY_NP: return arena_printf(m->a, "dynac_box_np_%s", np_name(t->fmt));
  case TY_LIST: case TY_OBJ: return "Py_NewRef";
  case TY_INT: return "dynac_box_int";
  case TY_FLOAT: return "dynac_box_float";
  case TY_NUM: return "dynac_box_num";
  case TY_BOOL: return "dynac_box_bool";
  case TY_NONE: return "dynac_box_none";
  case TY_BUF: return "dynac_box_view";
  default: return NULL;
  }
}

/* Does a region kernel own a reference in local v (an object, or a list
 * that a list-building function may rebind), as emit_kernel's locals do? */
static bool region_owns(const inst *in, int v) {
  return in->local_ty[v]->kind == TY_OBJ || owned_list_local(in, v);
}

static bool emit_region_kernel(module *m, inst *in, region *r, int ri, const char *tpl,
                               strbuf *types, strbuf *protos, strbuf *out) {
  infer_retype(m, in);
  func *f = in->fn;
  const char *name = arena_printf(m->a, "%s__r%d", in->cname, ri);
  strbuf params = {0}, locals = {0}, body = {0}, end = {0};
  for (int i = 0; i < r->nin; i++) {
    int v = r->in[i];
    note_type(in->local_ty[v]);
    sb_printf(&params, "%s%s a_%s", i ? ", " : "", c_type(in->local_ty[v]), f->local_cnames[v]);
  }
  bool has_value = in->ret->kind != TY_UNKNOWN;
  if (has_value) sb_printf(&params, "%s%s *dynac_out", r->nin ? ", " : "", c_type(in->ret));
  sb_printf(&params, "%sdynac_lo_%s *lo", r->nin || has_value ? ", " : "", name);
  sb_printf(types, "typedef struct { /* live-outs of region %d of %s */\n", ri, f->qualname);
  for (int i = 0; i < r->nout; i++) {
    const type *t = in->local_ty[r->out[i]];
    if (t->kind == TY_UNKNOWN || t->kind == TY_CONFLICT) t = &ty_int; /* never bound here */
    note_type(t);
    sb_printf(types, "  %s v%d; bool b%d; /* %s */\n", c_type(t), i, i, f->locals[r->out[i]]);
  }
  sb_printf(types, "  char unused;\n} dynac_lo_%s;\n", name);
  for (int v = 0; v < f->nlocals; v++) {
    const type *t = in->local_ty[v];
    if (t->kind == TY_UNKNOWN || t->kind == TY_CONFLICT) continue;
    note_type(t);
    if (region_owns(in, v)) /* as in a whole kernel: released on every way out */
      sb_printf(&locals, "DYNAC_OBJ l_%s = NULL; /* owned */\nbool b_%s = false; /* bound? */\n",
                f->local_cnames[v], f->local_cnames[v]);
    else
      sb_printf(&locals, "%s l_%s = %s;\nbool b_%s = false; /* bound? */\n", c_type(t),
                f->local_cnames[v], t->kind == TY_TUPLE || t->kind == TY_NUM ? "{0}" : "0",
                f->local_cnames[v]);
  }
  for (int i = 0; i < r->nin; i++) {
    const char *c = f->local_cnames[r->in[i]];
    if (region_owns(in, r->in[i])) sb_printf(&locals, "l_%s = Py_NewRef(a_%s); /* live-in, owned */\nb_%s = true;\n", c, c, c);
    else sb_printf(&locals, "l_%s = a_%s; /* live-in */\nb_%s = true;\n", c, c, c);
  }
  em E = {.m = m, .in = in, .b = &body, .reg = r, .effectful = in->effectful,
          .conts = may_continue(in)};
  if (in->effectful) line(&E, "int dynac__effects = 0; /* set once an opaque call ran */");
  if (in->effectful) line(&E, "dynac_undo_log *const dynac__u = dynac_undo_here(); /* writes */");
  if (in->effectful) line(&E, "(void)dynac__effects;\n(void)dynac__u;");
  E.bound = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < r->nin; i++) E.bound[r->in[i]] = true;
  stmt *saved = r->s_last->next;
  r->s_last->next = NULL; /* emit just the region */
  declare_kernel_locals(&E, r->s_first);
  E.np_exit = uses_np_float(r->s_first);
  emit_block(&E, r->s_first);
  np_exit_check(&E); /* before the live-outs and the return */
  r->s_last->next = saved;
  for (int i = 0; i < r->nout; i++) {
    const type *t = in->local_ty[r->out[i]];
    if (t->kind == TY_UNKNOWN || t->kind == TY_CONFLICT) { sb_printf(&end, "lo->b%d = false;\n", i); continue; }
    bool ref = t->kind == TY_LIST || t->kind == TY_OBJ; /* the entry takes a reference of its own */
    sb_printf(&end, "lo->v%d = %sl_%s%s;\nlo->b%d = b_%s;\n", i, ref ? "Py_XNewRef(" : "",
              f->local_cnames[r->out[i]], ref ? ")" : "", i, f->local_cnames[r->out[i]]);
  }
  sb_puts(&end, "return DYNAC_FALLTHROUGH; /* the function goes on in the interpreter */");
  sb_printf(protos, "static int dynac_kernel_%s(%s);\n", name, params.data);
  const char *comment = arena_printf(m->a, "/* %s:%d-%d: region %d of %s, specialisation %s */",
                                     basename_of(m->path), r->s_first->pos.line, r->s_last->end.line,
                                     ri, f->qualname, signature_of(m, in));
  hole holes[] = {{"comment", comment}, {"name", name}, {"params", params.data},
                  {"storage", "static"}, {"locals", locals.data ? locals.data : ""},
                  {"body", body.data ? body.data : ""}, {"end", end.data}};
  bool ok = fill(tpl, holes, 7, out);
  sb_puts(out, "\n");
  sb_free(&params); sb_free(&locals); sb_free(&body); sb_free(&end);
  return ok;
}

/* One specialisation's part of a region's entry: its live-ins checked and
 * unboxed (else on to the next specialisation, label next_<k>), the
 * module-level values it reads validated, the region kernel run, and its
 * outcome boxed: (1, value) when the function returned, (0, None,
 * live-outs...) when it fell through. */
static void emit_region_entry_spec(module *m, func *f, inst *in, region *r, int ri, int k,
                                   strbuf *out) {
  const char *name = arena_printf(m->a, "%s__r%d", in->cname, ri);
  const char *next = arena_printf(m->a, "goto next_%d;", k);
  strbuf unbox = {0}, release = {0};
  for (int i = 0; i < r->nin; i++)
    emit_unbox_arg(m, in->local_ty[r->in[i]], i, arena_printf(m->a, "args[%d]", i + 1), false, next,
                   &unbox, &release);
  const char *rel = release.data ? release.data : "";
  sb_printf(out, "  { /* specialisation %s */\n", signature_of(m, in));
  bool any_slot = false;
  for (int q = 0; q < m->nslots; q++) if (in->slots_used[q]) any_slot = true;
  if (any_slot) {
    sb_puts(out, "    if (dynac_globals_update(&dynac__G, globals) < 0) return NULL;\n    if (!(1");
    for (int q = 0; q < m->nslots; q++) if (in->slots_used[q]) sb_printf(out, " && dynac__slots[%d].valid", q);
    sb_printf(out, ")) %s\n", next);
  }
  for (const char *p = unbox.data; p && *p;) { /* indented */
    const char *nl = strchr(p, '\n');
    sb_printf(out, "    %.*s\n", (int)(nl ? nl - p : (long)strlen(p)), p);
    p = nl ? nl + 1 : NULL;
  }
  bool has_value = in->ret->kind != TY_UNKNOWN;
  if (has_value) sb_printf(out, "    %s r = %s;\n", c_type(in->ret),
                           in->ret->kind == TY_TUPLE || in->ret->kind == TY_NUM ? "{0}" : "0");
  sb_printf(out, "    dynac_lo_%s lo = {0}; /* filled when the kernel falls through */\n"
            "    size_t mark = dynac_undo_mark();\n"
            "    int st = dynac_kernel_%s(", name, name);
  for (int i = 0; i < r->nin; i++) sb_printf(out, "%sa%d", i ? ", " : "", i);
  sb_printf(out, "%s%s%slo);\n", r->nin && has_value ? ", " : "", has_value ? "&r" : "",
            r->nin || has_value ? ", &" : "&");
  int fi = 0;
  for (int q = 0; q < m->nfuncs; q++) if (m->funcs[q] == f) fi = q;
  sb_puts(out, "    if (st == DYNAC_DEOPT) dynac_undo_rollback(mark);\n"
               "    else dynac_undo_commit(mark);\n");
  sb_printf(out, "    PyObject *res = NULL;\n"
            "    if (st == DYNAC_ERROR) res = NULL;\n"
            "    else if (st == DYNAC_DEOPT) res = Py_NewRef(Py_None); /* the interpreter runs the region */\n"
            "    else if (st == DYNAC_OK_NONE) res = Py_BuildValue(\"(iO)\", 1, Py_None);\n"
            "    else if (st == DYNAC_OK_BOXED) { /* it went on in the interpreter: the tuple */\n"
            "      res = dynac__boxed_result;\n"
            "      dynac__boxed_result = NULL;\n"
            "    }\n");
  if (has_value) {
    const char *bf = in->ret->kind == TY_TUPLE ? arena_printf(m->a, "dynac_box_%s(&r)", in->ret->code)
                                               : arena_printf(m->a, "%s(r)", box_fn(m, in->ret));
    sb_printf(out, "    else if (st == DYNAC_OK) res = Py_BuildValue(\"(iN)\", 1, %s);\n", bf);
  }
  sb_printf(out, "    else res = PyTuple_New(%d);\n", r->nout + 2);
  sb_printf(out, "    if (st != DYNAC_DEOPT) dynac__region_calls[%d]++;\n", fi);
  /* fell through: (0, None, live-outs...), Ellipsis for an unbound name;
   * each boxed value (or the reference the kernel gave) goes into the tuple,
   * or is released when the tuple could not be made */
  sb_puts(out, "    if (st == DYNAC_FALLTHROUGH) {\n      int failed = !res;\n");
  for (int i = 0; i < r->nout; i++) {
    const type *t = in->local_ty[r->out[i]];
    const char *bx = t->kind == TY_TUPLE ? arena_printf(m->a, "dynac_box_%s(&lo.v%d)", t->code, i)
                     : t->kind == TY_LIST || t->kind == TY_OBJ ? arena_printf(m->a, "lo.v%d", i)
                     : box_fn(m, t) ? arena_printf(m->a, "%s(lo.v%d)", box_fn(m, t), i) : NULL;
    sb_printf(out, "      PyObject *o%d = %s;\n", i,
              bx ? arena_printf(m->a, "lo.b%d ? %s : Py_NewRef(Py_Ellipsis)", i, bx) : "Py_NewRef(Py_Ellipsis)");
    sb_printf(out, "      failed |= !o%d;\n", i);
  }
  sb_puts(out, "      if (failed) {\n        Py_CLEAR(res);\n");
  for (int i = 0; i < r->nout; i++) sb_printf(out, "        Py_XDECREF(o%d);\n", i);
  sb_puts(out, "      } else {\n        PyTuple_SET_ITEM(res, 0, PyLong_FromLong(0));\n"
               "        PyTuple_SET_ITEM(res, 1, Py_NewRef(Py_None));\n");
  for (int i = 0; i < r->nout; i++) sb_printf(out, "        PyTuple_SET_ITEM(res, %d, o%d);\n", i + 2, i);
  sb_puts(out, "      }\n");
  sb_printf(out, "    }\n%s%s%s    return res;\n  }\nnext_%d:;\n", *rel ? "   " : "", rel, *rel ? "\n" : "", k);
  sb_free(&unbox);
  sb_free(&release);
}

/* The wrapper the resume function calls: (globals, live-ins...) -> None
 * (run the region's statements in the interpreter), (1, value) (the function
 * returned), or (0, None, live-outs...) with Ellipsis for a name left unbound. */
static void emit_region_wrapper(module *m, func *f, region *r, int ri, strbuf *out, strbuf *methods) {
  const char *wname = arena_printf(m->a, "dynac_region_%s_%d", f->name, ri);
  sb_printf(out, "/* %s:%d-%d: entry of region %d of %s (called by its resume function) */\n",
            basename_of(m->path), r->s_first->pos.line, r->s_last->end.line, ri, f->qualname);
  sb_printf(out, "static PyObject *%s(PyObject *self, PyObject *const *args, Py_ssize_t nargs)\n{\n", wname);
  sb_printf(out, "  (void)self;\n  if (nargs != %d) {\n    PyErr_SetString(PyExc_TypeError, "
            "\"dynac region: wrong number of arguments\");\n    return NULL;\n  }\n"
            "  PyObject *globals = args[0];\n  (void)globals;\n", r->nin + 1);
  int k = 0;
  for (inst *in = f->insts; in; in = in->next_root) {
    if (!in->ok) continue;
    emit_region_entry_spec(m, f, in, r, ri, ++k, out);
  }
  sb_puts(out, "  Py_RETURN_NONE; /* no specialisation's guards passed: the interpreter */\n}\n\n");
  sb_printf(methods, "{\"__%s\", (PyCFunction)(void (*)(void))%s, METH_FASTCALL, NULL},\n", wname + 6, wname);
}

static void json_str(strbuf *b, const char *s) {
  sb_puts(b, "\\\"");
  for (; *s; s++) sb_putn(b, s, 1);
  sb_puts(b, "\\\"");
}

bool emit_module(module *m, const emit_opts *o, strbuf *out) {
  char *tm = read_template(o, "module.c"), *tk = read_template(o, "kernel.c");
  char *tg = read_template(o, "guard.c"), *tu = read_template(o, "glue.c");
  if (!tm || !tk || !tg || !tu) { free(tm); free(tk); free(tg); free(tu); return false; }
  bool ok = true;
  strbuf banner = {0}, macros = {0}, types = {0}, slots = {0}, protos = {0}, kernels = {0},
         entries = {0}, tables = {0};
  sb_printf(&banner, "/* Generated by dynac from %s (sha256 %s).\n * Do not edit: rebuild with "
            "`dynac build %s`. Each kernel is headed by its Python\n * function and "
            "specialisation; each statement by its source line. */", basename_of(m->path),
            m->p.sha256, basename_of(m->path));
  sb_printf(&macros, "#define DYNAC_MODULE_NAME \"%s__dynac\"\n#define DYNAC_MODULE_INIT "
            "PyInit_%s__dynac\n#define DYNAC_SOURCE_NAME %s\n#define DYNAC_SOURCE_SHA256 \"%s\"\n",
            m->modname, m->modname, c_string(m, basename_of(m->path)), m->p.sha256);
  n_used_tuples = 0;
  /* slots */
  sb_printf(&slots, "static dynac_slot dynac__slots[%d];\n", m->nslots ? m->nslots : 1);
  sb_printf(&slots, "static const dynac_slot_desc dynac__slot_desc[%d] = {\n", m->nslots ? m->nslots : 1);
  for (int k = 0; k < m->nslots; k++) {
    slot *s = m->slots[k];
    sb_printf(&slots, "    {%s, %s, %s, %d, %s, %d}, /* %d */\n", slot_kind_c(s), c_string(m, s->name),
              s->attr ? c_string(m, s->attr) : "NULL", s->module_slot,
              s->fn ? c_string(m, s->fn->qualname) : "NULL", s->fn ? s->fn->firstlineno : 0, k);
  }
  if (!m->nslots) sb_puts(&slots, "    {DYNAC_SLOT_GLOBAL_INT, \"\", NULL, -1, NULL, 0},\n");
  sb_puts(&slots, "};\n");
  int nfs = 0;
  sb_puts(&slots, "static const int dynac__func_slots[] = {");
  for (int k = 0; k < m->nslots; k++)
    if (m->slots[k]->kind == SLOT_GLOBAL_FUNC) sb_printf(&slots, "%s%d", nfs++ ? ", " : "", k);
  sb_printf(&slots, "%s}; /* called functions: __code__/__defaults__ checked per call */\n",
            nfs ? "" : "-1");
  sb_printf(&slots, "static dynac_globals dynac__G = {NULL, 0, NULL, 0, NULL, 0, NULL, %d, "
            "dynac__slot_desc, dynac__slots, %d, dynac__func_slots, NULL, 0};\n", m->nslots, nfs);
  sb_printf(&slots, "static int64_t dynac__direct_calls[%d]; /* calls from other kernels */\n",
            m->nfuncs ? m->nfuncs : 1);
  sb_printf(&slots, "static int64_t dynac__region_calls[%d]; /* compiled regions that ran */\n",
            m->nfuncs ? m->nfuncs : 1);
  sb_puts(&slots, "static int dynac__depth;      /* kernel-to-kernel call depth */\n");
  /* kernels */
  for (inst *in = m->insts; in; in = in->next_all) {
    if (!in->ok || in->fn->partial) continue;
    sb_printf(&protos, "static int dynac_kernel_%s(%s);\n", in->cname, params_of(m, in, false));
    ok &= emit_kernel(m, in, tk, o->line_directives, false, &kernels);
  }
  /* partially compiled functions: region kernels, wrappers, the region table */
  strbuf methods = {0}, regions_json = {0}, region_types = {0};
  sb_puts(&regions_json, "{");
  int nregion_funcs = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    if (!f->partial) continue;
    region *rs;
    int nr = find_regions(m, f, &rs);
    f->nregions = nr;
    if (!nr) continue;
    sb_printf(&regions_json, "%s\\\"%s:%d\\\": [", nregion_funcs++ ? ", " : "", f->qualname,
              f->firstlineno);
    for (int r = 0; r < nr; r++) {
      for (inst *in = f->insts; in; in = in->next_root)
        if (in->ok) ok &= emit_region_kernel(m, in, &rs[r], r + 1, tk, &region_types, &protos, &kernels);
      emit_region_wrapper(m, f, &rs[r], r + 1, &entries, &methods);
      sb_printf(&regions_json, "%s{\\\"first\\\": [%d, %d], \\\"last\\\": [%d, %d], "
                "\\\"fn\\\": \\\"__region_%s_%d\\\", \\\"in\\\": [", r ? ", " : "",
                rs[r].s_first->pos.line, rs[r].s_first->pos.col - 1, rs[r].s_last->pos.line,
                rs[r].s_last->pos.col - 1, f->name, r + 1);
      for (int k = 0; k < rs[r].nin; k++) {
        if (k) sb_puts(&regions_json, ", ");
        json_str(&regions_json, f->locals[rs[r].in[k]]);
      }
      sb_puts(&regions_json, "], \\\"out\\\": [");
      for (int k = 0; k < rs[r].nout; k++) {
        if (k) sb_puts(&regions_json, ", ");
        json_str(&regions_json, f->locals[rs[r].out[k]]);
      }
      sb_puts(&regions_json, "]}");
    }
    sb_puts(&regions_json, "]");
  }
  sb_puts(&regions_json, "}");
  sb_printf(&macros, "#define DYNAC_REGIONS_JSON \"%s\"\n", regions_json.data);
  /* guards, glue and tables for root instances */
  sb_puts(&tables, "#define DYNAC_HAVE_TABLES 1\n");
  strbuf funcs = {0};
  int nfd = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    int ne = 0;
    strbuf ents = {0};
    for (inst *in = f->insts; in; in = in->next_root) {
      if (!in->ok || f->partial) continue;
      ok &= emit_entry(m, in, tg, tu, &entries);
      const char **gl;
      int ng = emit_guard_list(m, in, &gl);
      sb_printf(&tables, "static const char *const dynac__guards_%s[] = {\n", in->cname);
      for (int g = 0; g < ng; g++) sb_printf(&tables, "    %s,\n", c_string(m, gl[g]));
      sb_puts(&tables, "};\n");
      sb_printf(&ents, "    {%s, dynac_guard_%s, dynac_glue_%s, %d, dynac__guards_%s, %s},\n",
                c_string(m, signature_of(m, in)), in->cname, in->cname, ng, in->cname,
                takes_objects(in) ? "DYNAC_ENTRY_GENERIC" : "0");
      ne++;
    }
    bool has_kernel = f->partial ? f->nregions > 0 : false;
    for (inst *in = m->insts; in; in = in->next_all)
      if (in->fn == f && in->ok && !f->partial) has_kernel = true;
    if (!has_kernel) { sb_free(&ents); continue; }
    if (ne) sb_printf(&tables, "static const dynac_entry_desc dynac__entries_%s[] = {\n%s};\n",
                      f->name, ents.data);
    sb_printf(&funcs, "    {%s, %d, %d, %d, %s, &dynac__direct_calls[%d], &dynac__region_calls[%d], "
              "%s},\n", c_string(m, f->qualname), f->firstlineno, f->nparams, ne,
              ne ? arena_printf(m->a, "dynac__entries_%s", f->name) : "NULL", i, i,
              f->is_root ? (f->eager_backend ? "DYNAC_FUNC_ROOT | DYNAC_FUNC_EAGER" : "DYNAC_FUNC_ROOT")
                         : "0");
    nfd++;
    sb_free(&ents);
  }
  {
    const type *done[512];
    int ndone = 0;
    for (int i = 0; i < n_used_tuples; i++) emit_tuple_type(m, used_tuples[i], &types, done, &ndone);
  }
  sb_printf(&tables, "static const dynac_func_desc dynac__funcs[%d] = {\n%s};\n", nfd ? nfd : 1,
            funcs.data ? funcs.data : "    {NULL, 0, 0, 0, NULL, NULL, NULL, 0},\n");
  sb_printf(&tables, "static const dynac_module_desc dynac__desc = {DYNAC_ABI_VERSION, "
            "DYNAC_SOURCE_NAME, DYNAC_SOURCE_SHA256, %d, dynac__funcs, &dynac__G};\n", nfd);
  sb_free(&funcs);
  if (region_types.data) sb_puts(&types, region_types.data);
  hole holes[] = {{"banner", banner.data}, {"module_macros", macros.data},
                  {"tuple_types", types.data ? types.data : ""}, {"slots", slots.data},
                  {"prototypes", protos.data ? protos.data : ""},
                  {"kernels", kernels.data ? kernels.data : ""},
                  {"entries", entries.data ? entries.data : ""}, {"tables", tables.data},
                  {"methods", methods.data ? methods.data : ""}};
  ok &= fill(tm, holes, 9, out);
  sb_free(&methods); sb_free(&regions_json); sb_free(&region_types);
  sb_free(&banner); sb_free(&macros); sb_free(&types); sb_free(&slots); sb_free(&protos);
  sb_free(&kernels); sb_free(&entries); sb_free(&tables);
  free(tm); free(tk); free(tg); free(tu);
  return ok;
}

/* ---- dynac export: the same kernels as plain C ------------------------------ */
bool emit_export_kernel(module *m, inst *in, const char *tpl, bool line_directives,
                        strbuf *protos, strbuf *out) {
  sb_printf(protos, "static int dynac_kernel_%s(%s);\n", in->cname, params_of(m, in, true));
  return emit_kernel(m, in, tpl, line_directives, true, out);
}
