/* kernel.c: a kernel per specialisation (templates/kernel.c), its guard
 * function and glue (templates/guard.c, glue.c), tuple structs.
 */
#include "emit.h"

/* ---- per instance: kernel, guard, glue ---------------------------------- */
/* The kernel's C parameters; exported kernels end with the status. */
const char *params_of(module *m, inst *in, bool exported) {
  strbuf b = {0};
  if (in->fn->nfreevars) /* the closure of the function the kernel serves (borrowed) */
    sb_printf(&b, "PyObject *dynac__closure%s", in->fn->nparams || in->ret->kind != TY_UNKNOWN ? ", " : "");
  for (int i = 0; i < in->fn->nparams; i++) {
    if (i) sb_puts(&b, ", ");
    note_type(in->args[i]);
    if (in->args[i]->rec) /* the caller's struct, by address (records.c) */
      sb_printf(&b, "%s *rp_%s", rec_ctype(m, in->args[i]->cls), in->fn->local_cnames[i]);
    else if (!exported && spread_param(in, i)) /* *args that only spreads: the caller's values */
      sb_printf(&b, "PyObject *const *p_%s, Py_ssize_t n_%s", in->fn->params[i], in->fn->params[i]);
    else
      sb_printf(&b, "%s %c_%s", c_type(in->args[i]),
                in->args[i]->kind == TY_OBJ || owned_list_local(in, i) ? 'p' : 'l',
                in->fn->params[i]); /* an object parameter: borrowed p_x, owned local l_x */
  }
  note_type(in->ret);
  if (in->ret->kind != TY_UNKNOWN) {
    if (in->fn->nparams) sb_puts(&b, ", ");
    sb_printf(&b, "%s *dynac_out", in->ret->rec ? rec_ctype(m, in->ret->cls) : c_type(in->ret));
  }
  if (exported) sb_printf(&b, "%sdynac_x_status *dynac_st", b.data ? ", " : "");
  else if (in->takes_entry_args) sb_puts(&b, ", PyObject *const *dynac__args");
  if (!b.data) sb_puts(&b, "void");
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

const char *signature_of(module *m, inst *in) {
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

/* May the kernel emitted by E, whose text past the undo log's
 * declaration is `text`, leave entries in the log? When the text uses
 * dynac__u (the log declare_undo_log reads), as every logged write does (a
 * list or buffer write, a keep, a callee's mark), or it calls a kernel
 * directly that may log (em.calls_logging: some direct calls take no mark,
 * the callee's entries being the caller's glue's to commit). Else it
 * leaves the log as it found it, and its callers need no mark or commit. */
static bool kernel_may_log(const em *E, const char *text) {
  if (E->calls_logging) return true;
  for (const char *p = strstr(text, "dynac__u"); p; p = strstr(p + 1, "dynac__u")) {
    char c = p[strlen("dynac__u")];
    if (!isalnum((unsigned char)c) && c != '_') return true;
  }
  return false;
}
/* May a call of in's kernel leave entries in the undo log? Yes until its
 * kernel is emitted and found to log nothing (kernel_may_log). */
bool may_log(const inst *in) { return in->effectful && !in->logs_nothing; }

/* The state of a kernel that logs its writes: whether it ran Python code
 * yet, the undo log, and the log's length as the call started (the keeps
 * of lists above it are this call's own: dynac_undo_keep). */
void declare_undo_log(em *E) {
  line(E, "int dynac__effects = 0; /* 1 once Python code ran or others saw a write; 2: only self's */");
  line(E, "dynac_undo_log *const dynac__u = dynac_undo_here(); /* writes */");
  line(E, "const size_t dynac__u0 = dynac__u->n; /* the log as the call started */");
  line(E, "(void)dynac__effects;\n(void)dynac__u;\n(void)dynac__u0;");
}

/* The line a kernel returning normally reports its effects with, before
 * its `return` (runtime/continue.h: dynac__callee_effects); "" for a kernel
 * without effects (no undo log) and for regions (the glue calls them). */
static const char *effects_report(const em *E) {
  return E->effectful && !E->reg ? "dynac__callee_effects |= dynac__effects; /* for the caller */" : "";
}

/* effects_report's line, if any (before a `return DYNAC_OK...`). */
void report_effects(em *E) {
  const char *r = effects_report(E);
  if (*r) line(E, "%s", r);
}

/* Is C value v this kernel's first parameter (self), never rebound: its
 * struct, or the instance of a class? Writes to it that nothing else could
 * see before are effects only for the caller that passed it (2, below). */
bool is_own_first_param(const em *E, const char *v) {
  const func *f = E->in->fn;
  const type *t = f->nparams ? E->in->args[0] : NULL;
  if (!v || !t || !t->cls || block_binds(f->body, 0)) return false;
  return !strcmp(v, arena_printf(E->m->a, t->rec ? "(*rp_%s)" : "l_%s", f->local_cnames[0]));
}

/* Just before a direct call of kernel `callee`: its report starts empty.
 * A callee without effects keeps none (it runs no Python code). */
void callee_report_start(em *E, const inst *callee) {
  if (E->effectful && callee->effectful) line(E, "dynac__callee_effects = 0;");
  if (may_log(callee)) E->calls_logging = true;
}

/* After the callee returned normally (callee_report_start before it):
 * what it did is this kernel's effect, except its writes to `first`, its
 * first argument's value: none when that is the instance this call made
 * (`made`: Cls(...)'s __init__), still only that (2) when it is this
 * kernel's own first parameter, else an effect (1). The report is emptied
 * again once taken: this kernel's own is its dynac__effects. */
void callee_report_take(em *E, const inst *callee, const char *first, bool made) {
  if (!E->effectful || !callee->effectful) return;
  if (made) line(E, "dynac__effects |= dynac__callee_effects & 1; /* writes to the new instance are none */");
  else if (is_own_first_param(E, first)) line(E, "dynac__effects |= dynac__callee_effects; /* what the callee did */");
  else line(E, "if (dynac__callee_effects) dynac__effects |= 1; /* what the callee did */");
  line(E, "dynac__callee_effects = 0; /* taken: this kernel reports its own */");
}

/* Locals every kernel body may use: the loop counter for signal polling,
 * the copies of view parameters' fields (view_field). */
void declare_kernel_locals(em *E, stmt *body) {
  if (has_loop(body) && !E->exported)
    line(E, "int64_t dynac__budget = DYNAC_TICK_BUDGET; /* loop iterations before the eval breaker */");
  else if (E->in->fn->comprehensions && !E->exported)
    line(E, "int64_t dynac__budget = DYNAC_TICK_BUDGET; /* loop iterations (of comprehensions) */");
  if (E->reg) return;
  E->fresh = fresh_list_locals(E->m->a, E->in);
  E->view_copy = arena_alloc(E->m->a, sizeof(bool) * (size_t)(E->in->fn->nlocals + 1));
  const bool *store_only = E->exported ? NULL : store_only_views(E->m->a, E->m, E->in);
  for (int i = 0; i < E->in->fn->nparams; i++) {
    if (E->in->args[i]->kind == TY_BUF) /* a view argument the body never reads is no C warning */
      line(E, "(void)l_%s;", E->in->fn->local_cnames[i]);
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
  declare_made_array_copies(E, body);
}

/* The statements of a block (those of an if's branches counted), or -1 when
 * it holds a loop, a try or a with. */
static int small_block_size(const stmt *s) {
  int n = 0;
  for (; s; s = s->next) {
    if (s->kind == ST_WHILE || s->kind == ST_FOR_RANGE || s->kind == ST_FOR_ITER || s->kind == ST_TRY ||
        s->kind == ST_WITH)
      return -1;
    n++;
    if (s->kind == ST_IF) {
      int a = small_block_size(s->u.if_.then), b = small_block_size(s->u.if_.orelse);
      if (a < 0 || b < 0) return -1;
      n += a + b;
    }
  }
  return n;
}

/* A kernel's statements as small_block_size counts them; -1 with a
 * comprehension too. */
static int inline_size(const inst *in) {
  return in->fn->comprehensions ? -1 : small_block_size(in->fn->body);
}

/* The kernels written that call `in` directly (regions not counted). */
static int callers_of(const module *m, const inst *in) {
  int n = 0;
  for (const inst *c = m->insts; c; c = c->next_all)
    for (int k = 0; c->ok && c->reachable && k < c->ncallees; k++) n += c->callees[k] == in;
  return n;
}

/* Does a chain of calls lead from `from` to `to`? (seen: the kernels
 * visited, up to 256; past that the answer is yes, the safe one.) */
static bool calls_reach(const inst *from, const inst *to, const inst **seen, int *nseen) {
  for (int k = 0; k < from->ncallees; k++) {
    const inst *c = from->callees[k];
    if (c == to) return true;
    bool old = false;
    for (int i = 0; i < *nseen && !old; i++) old = seen[i] == c;
    if (old) continue;
    if (*nseen == 256) return true;
    seen[(*nseen)++] = c;
    if (calls_reach(c, to, seen, nseen)) return true;
  }
  return false;
}

/* One statement calling only kernels that are one statement too (Vec.dot,
 * Vec.norm): inlined whatever the number of callers. */
static bool one_statement_chain(inst *in) {
  if (in->chains) return in->chains == 2;
  in->chains = 3; /* no, while asking (a cycle back to it) */
  bool yes = inline_size(in) == 1;
  for (int i = 0; yes && i < in->ncallees; i++) yes = one_statement_chain(in->callees[i]);
  in->chains = yes ? 2 : 3;
  return yes;
}

/* Is the kernel always inlined into its callers? Never with a loop or a
 * comprehension, nor when recursive; yes for one statement calling only
 * such (Vec.dot), a leaf of up to three (Vec.__init__), or up to ten with a
 * single caller kernel (repel in particles' step). GCC weighs a kernel's
 * cold continuation blocks into its size, so without the attribute a
 * one-line method stays a call, with its prologue (the undo log's
 * thread-local) at every call; inlined, its field reads and guards join the
 * caller's (PyPy's and V8's inlining of small methods). Each copy carries
 * the cold blocks: inlining one-line methods whose callee has more
 * statements (Vec.__sub__ making a Vec) at their many call sites tripled
 * GCC's time on raytrace's module and ran more instructions. */
#define DYNAC_INLINE_LEAF_STATEMENTS 3
#define DYNAC_INLINE_STATEMENTS 10
bool kernel_always_inlined(const module *m, inst *in) {
  if (in->inlined) return in->inlined == 2;
  int n = inline_size(in);
  bool yes = one_statement_chain(in) || (n >= 1 && in->ncallees == 0 && n <= DYNAC_INLINE_LEAF_STATEMENTS);
  const inst *seen[256];
  int nseen = 0;
  if (!yes && n >= 1 && n <= DYNAC_INLINE_STATEMENTS && callers_of(m, in) == 1)
    yes = !calls_reach(in, in, seen, &nseen);
  in->inlined = yes ? 2 : 3;
  return yes;
}

/* A call of `callee` that keeps no frame of its own that could recurse: a
 * leaf (it calls no kernel) or a kernel inlined into its caller (its own
 * calls count theirs). Such calls skip the depth count and its check
 * (DYNAC_MAX_KERNEL_DEPTH). */
bool kernel_call_is_flat(const module *m, inst *callee) {
  return callee->ncallees == 0 || kernel_always_inlined(m, callee);
}

/* The parameters `in` returns (inst.ret_params) whose argument object the
 * glue may return: a float or int of the result's type, never rebound or
 * deleted (its value is the caller's object's). A bit mask by parameter
 * index. */
static unsigned returned_number_params(const inst *in) {
  unsigned mask = 0;
  const type *rt = in->ret;
  for (int p = 0; p < in->fn->nparams && p < 32; p++)
    if ((in->ret_params >> p & 1) && (rt->kind == TY_FLOAT || rt->kind == TY_INT) && in->args[p] == rt &&
        !block_binds(in->fn->body, p) && !block_deletes(in->fn->body, p))
      mask |= 1u << p;
  return mask;
}

/* exported: plain C without dynac.h (export.c), left to the C compiler */
static const char *kernel_storage(const module *m, inst *in, bool exported) {
  if (has_loop(in->fn->body) || in->fn->comprehensions) return "static";
  return !exported && kernel_always_inlined(m, in) ? "static inline DYNAC_ALWAYS_INLINE" : "static inline";
}

/* Reads of f's parameters, a read inside a loop (or a comprehension) counting
 * twice: a parameter read once outside loops is boxed at most once anyway
 * (box_value keeps no box for it). */
typedef struct param_reads { const func *f; int *n, loops; } param_reads;
static void count_param_reads(void *ctx, expr *e);
static void count_param_reads_block(void *ctx, stmt *s);
static void count_param_reads_target(void *ctx, target *t) {
  if (t->sub) count_param_reads(ctx, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) count_param_reads_target(ctx, t->elts[i]);
}
static void count_param_reads_block(void *ctx, stmt *s) {
  static const ir_parts parts = {count_param_reads, count_param_reads_target, count_param_reads_block, false};
  param_reads *R = ctx;
  for (; s; s = s->next) {
    bool loop = s->kind == ST_FOR_RANGE || s->kind == ST_FOR_ITER || s->kind == ST_WHILE;
    R->loops += loop;
    ir_each_part(s, &parts, ctx);
    R->loops -= loop;
  }
}
static void count_param_reads(void *ctx, expr *e) {
  param_reads *R = ctx;
  if (e->kind == EX_LOCAL && e->u.local < R->f->nparams) R->n[e->u.local] += R->loops ? 2 : 1;
  if (e->kind == EX_LISTCOMP) {
    R->loops++;
    count_param_reads_block(ctx, e->u.comp.loop);
    R->loops--;
  }
  ir_each_subexpr(e, count_param_reads, ctx);
}

/* E->kept_box: for a float or int parameter never rebound or deleted (its
 * value is the call's), KEEP_BOX when box_value may box it once per call
 * (read more than once) and share that box, KEEP_ARG when it is read once
 * (each boxing takes the caller's object if it passed one, keeping none);
 * 0 for the rest; NULL when none may. */
static char *params_to_keep_boxed(module *m, const inst *in) {
  const func *f = in->fn;
  param_reads R = {f, arena_alloc(m->a, sizeof(int) * (size_t)(f->nparams + 1)), 0};
  count_param_reads_block(&R, f->body);
  char *keep = arena_alloc(m->a, (size_t)(f->nparams + 1));
  for (int i = 0; i < f->nparams; i++)
    keep[i] = !R.n[i] || (in->args[i]->kind != TY_FLOAT && in->args[i]->kind != TY_INT) ||
              block_binds(f->body, i) || block_deletes(f->body, i) ? 0 : R.n[i] >= 2 ? KEEP_BOX : KEEP_ARG;
  return keep;
}

/* Does the kernel take its caller's argument objects as its parameters'
 * boxes (inst.takes_entry_args: a last parameter, dynac__args: the glue's
 * argument array, a direct call's entry_args_of_call, or NULL)? When a
 * parameter may keep its box; decided before any kernel or call of it is
 * emitted. */
void decide_entry_args(module *m, inst *in) {
  char *keep = in->ok && !in->fn->partial ? params_to_keep_boxed(m, in) : NULL;
  for (int i = 0; keep && i < in->fn->nparams; i++) in->takes_entry_args = in->takes_entry_args || keep[i];
  in->keeps_box = keep;
}
/* A direct call's last argument: NULL for the glue's objects (see above);
 * none in exported C, whose kernels have no glue (params_of). */
const char *no_entry_args(const inst *callee, bool exported) {
  return !exported && callee->takes_entry_args ? ", NULL" : "";
}

/* The object a direct call has for argument a of parameter p, which callee
 * may keep boxed (a C expression of a borrowed reference, NULL at run time
 * when there is none), else NULL: a float literal (`1.0`, `-2.5`: CPython's
 * constants) as the module's one object of it; a parameter of the caller's
 * own, unchanged and of the same type, as the object its caller passed
 * (`super().__init__(x, y)` stores the interpreter's objects). */
static const char *argument_object(em *E, const inst *callee, int p, const expr *a) {
  if (!a || !callee->reads_args || !callee->reads_args[p]) return NULL;
  const type *pt = callee->args[p];
  const char *kept = TY(a) == pt ? kept_attr_object(E, a) : NULL; /* an attribute's object (values.c) */
  if (kept) return kept;
  if (a->kind == EX_LOCAL && a->u.local < E->in->fn->nparams && E->in->args[a->u.local] == pt &&
      E->kept_box && E->kept_box[a->u.local])
    return passed_object(E, a->u.local);
  bool neg = a->kind == EX_UNARY && a->u.un.op == UN_NEG;
  const expr *lit = neg ? a->u.un.a : a;
  if (pt->kind != TY_FLOAT || lit->kind != EX_FLOAT || lit->guard || (neg && a->guard)) return NULL;
  double f = neg ? -lit->u.f : lit->u.f;
  return arena_printf(E->m->a, "dynac_float_literal_object(%s, %s)", float_literal_place(E->m, f),
                      float_literal(E, f));
}
/* The object parameter p's caller passed (a C expression of a borrowed
 * reference, NULL at run time when there is none): noted as read. */
const char *passed_object(em *E, int p) {
  E->args_read[p] = 1;
  return arena_printf(E->m->a, "(dynac__args ? dynac__args[%d] : NULL)", p);
}

/* Before a `return v` of a kernel that may return a parameter the caller
 * passed (em.ret_params): which one v is (its index + 1), else 0, for the
 * glue to return the caller's object (dynac_returned_float_arg). */
void report_returned_param(em *E, const expr *v) {
  if (!E->ret_params) return;
  int p = v && v->kind == EX_LOCAL && v->u.local < 32 && (E->ret_params >> v->u.local & 1) ? v->u.local + 1 : 0;
  line(E, "dynac__returned_param = %d; /* %s */", p, p ? "the glue returns the caller's object" : "none returned");
}

/* A direct call's last argument (none in exported C: no_entry_args): the
 * objects it passes for the callee's parameters (args[p]: parameter p's
 * argument expression, or NULL), as the glue passes the interpreter's
 * (argument_object). A float literal the callee may keep boxed is passed as
 * the module's one object of it, as CPython passes the code object's
 * constant: `add_edge(u, v, 1.0)` storing `(v, w)` holds one float for all
 * edges, not one per call. defaults[p] (or NULL): the object of a
 * parameter the call leaves to its default (construction_defaults), as
 * CPython binds it. ", NULL" when there is none. */
const char *entry_args_of_call(em *E, const inst *callee, expr *const *args, const char *const *defaults) {
  if (E->exported || !callee->takes_entry_args) return "";
  strbuf b = {0};
  bool any = false;
  for (int p = 0; p < callee->fn->nparams; p++) {
    const char *o = argument_object(E, callee, p, args[p]);
    if (!o && defaults && p < 64 && defaults[p] && callee->reads_args && callee->reads_args[p]) o = defaults[p];
    any = any || o;
    sb_printf(&b, "%s%s", p ? ", " : "", o ? o : "NULL");
  }
  const char *r = any ? arena_printf(E->m->a, ", (PyObject *const[]){%s}", b.data) : ", NULL";
  sb_free(&b);
  return r;
}

/* The boxes of the parameters box_value boxed once per call (bx_NAME,
 * owned, taken at the first use): the caller's own objects when it passed
 * them (its last parameter, dynac__args: the glue's, as the interpreter's
 * frame holds them: a float stored into a dict is the caller's float; a
 * kernel's call's literals, entry_args_of_call), else new ones (NULL: C
 * values only). */
static void declare_param_boxes(em *E, strbuf *locals) {
  inst *in = E->in;
  if (!in->takes_entry_args || !E->kept_box) return; /* exported C: no glue */
  sb_puts(locals, "(void)dynac__args; /* the caller's argument objects (the glue's, a kernel's literals) or NULL */\n");
  for (int i = 0; i < in->fn->nparams; i++)
    if (E->kept_box[i] == KEEP_BOX_USED)
      sb_printf(locals, "DYNAC_OBJ bx_%s = NULL; /* %s as an object, taken at its first use */\n",
                in->fn->local_cnames[i], in->fn->params[i]);
}

bool emit_kernel(module *m, inst *in, const char *tpl, bool line_directives, bool exported,
                        strbuf *out) {
  strbuf locals = {0}, body = {0};
  for (int i = 0; i < in->fn->nparams; i++)
    if (!exported && spread_param(in, i))
      sb_printf(&locals, "/* *%s: the caller's n_%s values at p_%s, no tuple (it only spreads: analysis/star_args.c) */\n",
                in->fn->params[i], in->fn->params[i], in->fn->params[i]);
    else if (!exported && borrowed_param(in, i))
      sb_printf(&locals, "PyObject *const l_%s DYNAC_UNUSED = p_%s; /* borrowed: the caller's reference lasts the call */\n",
                in->fn->local_cnames[i], in->fn->params[i]);
    else if ((in->args[i]->kind == TY_OBJ && !in->args[i]->rec) || owned_list_local(in, i))
      sb_printf(&locals, "DYNAC_OBJ l_%s = Py_NewRef(p_%s); /* owned: it can be rebound */\n",
                in->fn->local_cnames[i], in->fn->params[i]);
  bool *cells = captured_locals(m->a, in->fn);
  for (int i = 0; i < in->fn->nlocals; i++)
    if (cells[i])
      sb_printf(&locals, "DYNAC_OBJ cell_%s = NULL; /* the cell closures share, made with the first */\n",
                in->fn->local_cnames[i]);
  for (int i = in->fn->nparams; i < in->fn->nlocals; i++) {
    const type *t = in->local_ty[i];
    if (t->kind == TY_UNKNOWN) continue;
    note_type(t);
    if (t->rec) { /* an instance kept as fields: its struct (records.c) */
      sb_printf(&locals, "DYNAC_REC_%s rl_%s = {0};\nbool b_%s = false; /* bound? */\n", t->code,
                in->fn->local_cnames[i], in->fn->local_cnames[i]);
      continue;
    }
    if (t->kind == TY_OBJ || owned_list_local(in, i)) {
      sb_printf(&locals, "DYNAC_OBJ l_%s = NULL; /* owned */\nbool b_%s = false; /* bound? */\n",
                in->fn->local_cnames[i], in->fn->local_cnames[i]);
      continue;
    }
    sb_printf(&locals, "%s l_%s = %s;\nbool b_%s = false; /* bound? */\n", c_type(t),
              in->fn->local_cnames[i], t->kind == TY_TUPLE || t->kind == TY_NUM ? "{0}" : "0",
              in->fn->local_cnames[i]);
  }
  bool undo = in->effectful && !exported; /* exported C keeps CPython's partial writes */
  strbuf helpers = {0};
  em E = {.m = m, .in = in, .b = &body, .line_directives = line_directives, .effectful = undo,
          .exported = exported, .helpers = &helpers, .fused_prefix = in->cname};
  E.conts = undo && may_continue(in);
  if (undo) declare_undo_log(&E);
  if (!exported) declare_globals_recheck(&E);
  size_t after_log = body.len; /* the undo log's uses past its declaration: kernel_may_log */
  if (exported) line(&E, "int dynac_f = 0; /* a helper's failure code */\n(void)dynac_f, (void)dynac_st;");
  declare_kernel_locals(&E, in->fn->body);
  declare_pins(&E);
  emit_own_cells(&E);
  E.bound = arena_alloc(m->a, sizeof(bool) * (size_t)(in->fn->nlocals + 1));
  for (int i = 0; i < in->fn->nparams; i++) E.bound[i] = true;
  if (!exported && !in->fn->partial) E.kept_box = params_to_keep_boxed(m, in);
  if (!exported) E.keeps_object = attrs_boxed_again(&E);
  E.args_read = arena_alloc(m->a, (size_t)(in->fn->nparams + 1));
  memset(E.args_read, 0, (size_t)(in->fn->nparams + 1));
  E.ret_params = exported ? 0 : returned_number_params(in);
  E.np_exit = uses_np_float(&E, in->fn->body);
  emit_block(&E, in->fn->body);
  if (!exported) in->reads_args = E.args_read; /* for its callers (module.c emits them after it) */
  declare_param_boxes(&E, &locals);
  np_exit_check(&E); /* before the end's return */
  if (!exported)
    in->logs_nothing = !undo || !kernel_may_log(&E, body.data ? body.data + after_log : "");
  if (test_break_requested(m, in->fn->qualname))
    line(&E, "this is not C; /* DYNAC_TEST_BREAK_EMIT: a simulated generator bug */");
  const char *comment =
      in->fn->synth_first
          ? arena_printf(m->a, "/* %s:%d: %s, generated by @dataclass (its text, past the source's end, "
                               "made from the fields): specialisation %s */",
                         basename_of(m->path), in->fn->synth_of->firstlineno, in->fn->qualname, signature_of(m, in))
          : arena_printf(m->a, "/* %s:%d: def %s: specialisation %s */", basename_of(m->path), in->fn->pos.line,
                         in->fn->qualname, signature_of(m, in));
  const char *params = params_of(m, in, exported);
  const char *end = arena_printf(m->a, "%s%s%s /* end of the function: None */", effects_report(&E),
                                *effects_report(&E) ? "\n" : "", return_none(in));
  tidy_kernel(&locals, &body, end, params);
  hole holes[] = {{"comment", comment}, {"name", in->cname}, {"params", params},
                  {"storage", kernel_storage(m, in, exported)},
                  {"locals", locals.data ? locals.data : ""},
                  {"body", body.data ? body.data : ""},
                  {"end", end}};
  if (helpers.data) sb_puts(out, helpers.data);
  bool ok = fill(tpl, holes, 7, out);
  sb_puts(out, "\n");
  sb_free(&helpers);
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
  case SLOT_NAME: return NULL; /* read at each use: no guard */
  case SLOT_CLASS: {
    strbuf ms = {0};
    for (int i = 0; i < s->cls->nmembers; i++) {
      const class_member *cm = &s->cls->members[i];
      sb_printf(&ms, "%s%s", i ? ", " : "; its lookups: ", cm->kind == '-' ? arena_printf(m->a, "no %s", cm->name)
                : cm->kind == 'p' ? arena_printf(m->a, "property %s", cm->f->qualname)
                : cm->kind == 'P' ? arena_printf(m->a, "property %s's setter", cm->f->qualname)
                : cm->kind == 's' ? arena_printf(m->a, "staticmethod %s", cm->f->qualname)
                : cm->kind == 'c' ? arena_printf(m->a, "classmethod %s", cm->f->qualname)
                : cm->up ? arena_printf(m->a, "%s (super())", cm->f->qualname) : cm->f->qualname);
    }
    const char *t = arena_printf(m->a, "global %s is the class defined at %s:%d, unchanged since "
                                 "(version tag)%s", s->name, basename_of(m->path), s->cls->firstlineno,
                                 ms.data ? ms.data : "");
    sb_free(&ms);
    return t;
  }
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
    else if (t->kind == TY_OBJ && t->cls)
      g[n++] = arena_printf(m->a, "type(%s) is %s (exactly: a subclass is another specialisation)", p,
                            t->cls->name);
    else if (t->kind == TY_OBJ)
      g[n++] = arena_printf(m->a, "%s is any object (operations on it go through the C API)", p);
    else if (t->kind == TY_NONE) g[n++] = arena_printf(m->a, "%s is None", p);
    else g[n++] = arena_printf(m->a, "type(%s) is %s", p, ty_python_name(m->a, t));
  }
  for (int k = 0; k < m->nslots; k++)
    if (in->slots_used[k] && guard_text(m, m->slots[k])) g[n++] = guard_text(m, m->slots[k]);
  g[n++] = "source sha256 matches the module's source (checked when attached)";
  *out = g;
  return n;
}

/* The C argument a<i> of type t made from the borrowed object `src`, for
 * the glue of a root (guarded: `guarded` types were checked by its guard
 * function) and for the entry of a region (nothing checked yet). Where the
 * object is not of type t, `fail` runs after the buffers acquired so far
 * are released; `release` collects the releases for after the call. */
void emit_unbox_arg(module *m, const type *t, int i, const char *src, bool guarded,
                           const char *fail, strbuf *unbox, strbuf *release) {
  const char *undo = release->data ? release->data : "";
  if (t->kind == TY_BUF) { /* held for the call: the exporter cannot resize it */
    sb_printf(unbox, "Py_buffer pb%d = {0};\ndynac_view v%d;\nif (!dynac_view_acquire(%s, '%c', '%c', %d, "
              "&pb%d, &v%d)) {%s %s }\nconst dynac_view *a%d = &v%d;\n", i, i, src, view_kind(t),
              t->fmt, t->strided, i, i, undo, fail, i, i);
    sb_printf(release, " PyBuffer_Release(&pb%d);", i);
    return;
  }
  if (t->kind == TY_LIST || t->kind == TY_OBJ) {
    sb_printf(unbox, "PyObject *a%d = %s; /* borrowed */\n", i, src);
    if (!guarded && t->kind == TY_LIST) sb_printf(unbox, "if (!PyList_CheckExact(a%d)) {%s %s }\n", i, undo, fail);
    if (!guarded && t->cls)
      sb_printf(unbox, "if ((PyObject *)Py_TYPE(a%d) != dynac__slots[%d].obj) {%s %s }\n", i,
                t->cls->slot->index, undo, fail);
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

/* After a kernel entered from the interpreter (its glue, a region's entry)
 * returned: its callees' reports went into dynac__callee_effects, which a
 * kernel further out may be about to read. That kernel's callee was
 * releasing its locals (a __del__ ran this function), so Python code ran
 * for it: the report says so, whatever this kernel's callees left there. */
const char *const entered_report =
    "dynac__callee_effects = 1; /* Python code ran: for a kernel whose callee's release ran this one */";

bool emit_entry(module *m, inst *in, const char *gtpl, const char *utpl, strbuf *out) {
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
    else if (t->kind == TY_OBJ && t->cls) sb_printf(&checks, "/* args[%d]: an instance of %s (below) */\n", i,
                                                    t->cls->name);
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
  /* a kernel that may go on in the interpreter builds the rest of the function from the module's
     globals (dynac_continue): where it reads no module-level name, it needs only their dict */
  if (!any && in->effectful && may_continue(in)) sb_puts(&checks, "DYNAC_GUARD_GLOBALS_DICT(&dynac__G)\n");
  if (any) {
    sb_puts(&checks, "DYNAC_GUARD_GLOBALS(&dynac__G)\n");
    for (int k = 0; k < m->nslots; k++)
      if (in->slots_used[k] && guard_text(m, m->slots[k]))
        sb_printf(&checks, "DYNAC_GUARD_SLOT(&dynac__G, %d, %s)\n", k,
                  c_string(m, guard_text(m, m->slots[k])));
    for (int i = 0; i < in->fn->nparams; i++)
      if (in->args[i]->kind == TY_OBJ && in->args[i]->cls)
        sb_printf(&checks, "DYNAC_GUARD_INSTANCE(&dynac__G, %d, %d, %s)\n", in->args[i]->cls->slot->index, i,
                  c_string(m, gl[i]));
  }
  const char *sig = signature_of(m, in);
  const char *gcomment = arena_printf(m->a, "/* guard: may %s%s run for these arguments? */",
                                      in->fn->qualname, sig);
  hole gh[] = {{"comment", gcomment}, {"name", in->cname}, {"checks", checks.data ? checks.data : ""}};
  if (!fill(gtpl, gh, 3, out)) return false;
  sb_puts(out, "\n");
  strbuf unbox = {0}, call = {0}, box = {0}, release = {0};
  for (int i = 0; i < in->fn->nparams; i++) {
    emit_unbox_arg(m, in->args[i], i, arena_printf(m->a, "args[%d]", i), true, "return DYNAC_DEOPT;",
                   &unbox, &release);
    if (spread_param(in, i)) /* the tuple CPython's call made: its items */
      sb_printf(&unbox, "if (!PyTuple_CheckExact(a%d)) return DYNAC_DEOPT;\n", i);
  }
  bool has_value = in->ret->kind != TY_UNKNOWN;
  if (has_value && in->ret->rec) /* an instance kept as fields: made here, for the caller */
    sb_printf(&unbox, "DYNAC_REC_%s r = {0};\n", in->ret->code);
  else if (has_value) sb_printf(&unbox, "%s r = %s;\n", c_type(in->ret),
                                in->ret->kind == TY_TUPLE || in->ret->kind == TY_NUM ? "{0}" : "0");
  if (in->fn->nfreevars) /* its co_freevars were checked when the artifact was attached */
    sb_printf(&unbox, "if (!closure || PyTuple_GET_SIZE(closure) != %d) return DYNAC_DEOPT;\n", in->fn->nfreevars);
  bool logs = may_log(in);
  if (logs) sb_puts(&call, "size_t mark = dynac_undo_mark();\n");
  sb_printf(&call, "st = dynac_kernel_%s(%s", in->cname,
            in->fn->nfreevars ? (in->fn->nparams || has_value ? "closure, " : "closure") : "");
  for (int i = 0; i < in->fn->nparams; i++)
    sb_printf(&call, spread_param(in, i) ? "%sdynac_tuple_items(a%d), PyTuple_GET_SIZE(a%d)" : "%sa%d",
              i ? ", " : "", i, i);
  sb_printf(&call, "%s%s);", has_value ? (in->fn->nparams ? ", &r" : "&r") : "",
            in->takes_entry_args ? ", args" : ""); /* its parameters' boxes (declare_param_boxes) */
  if (logs) /* a deoptimised call runs again in the interpreter: undo its writes */
    sb_puts(&call, "\nif (st == DYNAC_DEOPT) dynac_undo_rollback(mark);\nelse dynac_undo_commit(mark);");
  if (in->effectful) sb_printf(&call, "\n%s", entered_report);
  if (has_value) {
    const type *rt = in->ret;
    const char *bx = rt->rec ? arena_printf(m->a, "dynac_rec_box(&r.h, &dynac__rdesc_%s); /* the instance */", rt->code)
                     : rt->kind == TY_TUPLE ? arena_printf(m->a, "dynac_box_%s(&r)", rt->code)
                     : rt->kind == TY_OBJ || rt->kind == TY_LIST ? "r; /* the kernel's new reference */"
                     : rt->kind == TY_BUF ? "Py_NewRef(r->obj)"
                     : rt->kind == TY_FLOAT && in->returns_literal /* as values.c's box_as_literal */
                     ? arena_printf(m->a, "dynac_box_float_literal(r, %s, %s)", c_double(m, in->ret_literal),
                                    float_literal_place(m, in->ret_literal))
                     : arena_printf(m->a, "%s(r)", box_fn(m, rt));
    if (returned_number_params(in)) /* `return x`: the caller's own object of x */
      sb_printf(&box, "PyObject *same = dynac_returned_%s_arg(r, args, dynac__returned_param);\n"
                "*result = same ? Py_NewRef(same) : %s;", rt->kind == TY_FLOAT ? "float" : "int", bx);
    else sb_printf(&box, "*result = %s;", bx);
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

/* struct per tuple type, its boxing function, and its unboxing function
 * (exact tuple of the right length, each element checked). */
void emit_tuple_type(module *m, const type *t, strbuf *types, const type **done, int *ndone) {
  for (int i = 0; i < *ndone; i++) if (done[i] == t) return;
  for (int i = 0; i < t->n; i++)
    if (t->elts[i]->kind == TY_TUPLE) emit_tuple_type(m, t->elts[i], types, done, ndone);
  done[(*ndone)++] = t;
  sb_printf(types, "/* %s */\ntypedef struct { ", ty_python_name(m->a, t));
  for (int i = 0; i < t->n; i++) sb_printf(types, "%s v%d; ", c_type(t->elts[i]), i);
  sb_printf(types, "} dynac_%s;\n", t->code);
  sb_printf(types, "static inline PyObject *dynac_box_%s(const dynac_%s *v) {\n", t->code, t->code);
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

/* ---- dynac export: the same kernels as plain C ------------------------------ */
bool emit_export_kernel(module *m, inst *in, const char *tpl, bool line_directives,
                        strbuf *protos, strbuf *out) {
  sb_printf(protos, "static int dynac_kernel_%s(%s);\n", in->cname, params_of(m, in, true));
  return emit_kernel(m, in, tpl, line_directives, true, out);
}
