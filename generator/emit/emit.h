/* emit.h: what the files of emit/ share (not a phase interface: gen.h is).
 *
 * em is the writer's state for one kernel: where the C goes, the instance
 * being written, and what the statements around the one being written
 * established (bound locals, hoisted bounds, the restart point). */
#ifndef DYNAC_EMIT_H
#define DYNAC_EMIT_H

#include "../gen.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The type of an expression in the specialisation being written (infer.c's
 * side table for E->in). */
#define TY(e) ty_of(E->in, (e))

/* A loop a break leaves: with an else clause (goto dynac_end_LABEL, past
 * it), or blocked (a range loop ticked block by block: goto
 * dynac_brk_LABEL, past both C loops). */
typedef struct loopinfo { bool has_else, blocked; int label; } loopinfo;

/* A scope that a return, break or continue leaving it has work to do for
 * (CPython's compiler unwinds the same "frame blocks"): kind 'f', the
 * finally block of try statement `s`, whose copy runs (its failures going
 * to `route`, the try's outer handlers); kind 'h', the exception handled in
 * C variable `h`, which stops being handled (POP_EXCEPT); kind 'w', the
 * with statement `s`, whose bound __exit__ (C variable `h`) is called
 * (its failure going to `route`). nloops: the loops
 * around the scope (a break leaves the scopes inside its loop). */
/* Where the failures of the C being written go: a try statement's
 * handlers (label), and how many failure sites were written while they
 * went there (a label no failure goes to is not written). */
typedef struct route { const char *label; int uses; } route;

typedef struct exit_scope {
  char kind;
  const stmt *s;
  route *route;
  const char *h;
  int nloops;
} exit_scope;
#define EXIT_SCOPES_CAP 64

/* A for loop around the statement being emitted, as a continuation in the
 * interpreter needs it (dynac_continue): how to rebuild its iterator at
 * its next item. kind 'r': range (start, step, n and the count kLABEL);
 * 'c': containers (objs, their types, the enumerate count); 'g': any
 * iterator (objs[0]); 'w': a with statement, whose bound __exit__
 * (objs[0]) the continuation calls on its way out; 'x': an except clause,
 * objs[0] the exception handled before it, which the continuation
 * restores when the clause ends. */
typedef struct cont_loop {
  const stmt *s;
  char kind;
  int label;
  const char *start, *step, *n;
  const char *objs[8];
  const type *otys[8];
  const char *count;
} cont_loop;

/* A list, set or dict comprehension whose clauses continue in the
 * interpreter through the statement holding it (continue.c: comp_enter):
 * the rest of its clauses as loops filling the partial result, then that
 * statement with the result in the comprehension's place and the operands
 * it had pending when the comprehension started (`subst`, "" if none: the
 * E->vstack entries [vfrom, vto)) in theirs. */
typedef struct comp_cont {
  const expr *comp;
  const stmt *s;
  const char *subst;
  int vfrom, vto;
} comp_cont;

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
  const comp_cont *comp; /* a clause of this comprehension: its continuation goes through comp->s */
  char part;        /* there: 'H' a for clause's head, 'F' its start, 'C' an if clause, 'E' the element */
  int clause, cond; /* the for clause (from 0) and, for 'C', the condition's index in it */
  int nclears, clears[4]; /* hidden locals its continuations release: nested comprehensions' lists */
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
  const type *t;   /* v's type when not e's (an object read where e is typed), else NULL */
  bool boxed;
  bool quiet;      /* an object a continuation hashes or formats again: only a number's or a str's */
  bool formatted;  /* v: the str e's f-string field made, which a continuation puts in the field's place */
  bool held;       /* e: operand i of a chain whose links before it held (path step D<i>: the chain from e on) */
  bool prefix;     /* v: the list a display with starred parts made up to item e (path step P<i>: *v for them) */
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

/* A comprehension being emitted, and the one whose clause holds it (NULL:
 * the function's): each runs in a frame of its own in CPython 3.11. */
typedef struct comp_frame {
  expr *comp;
  const struct comp_frame *up;
} comp_frame;

/* sum(), min() or max() of a generator of numbers being made (folds_numbers):
 * its C locals, which continuations box (continue.c: comp_values). */
typedef struct number_fold {
  const expr *comp;
  const char *acc, *count; /* the fold so far (sum: from 0; min, max: the item kept), the items folded */
  const type *item;        /* the items' type: int, bool or float */
  const type *acc_ty;      /* acc's: the item's, int for a sum of ints or bools */
  char kind;               /* 'S' sum, 'm' min, 'M' max (as continue.c's fold_kind) */
  const struct number_fold *up;
} number_fold;

/* A run of statements that runs no Python code (layouts.c): per instance
 * it reads, the names and the layout serving them. */
enum { LAYOUT_GROUPS = 8, LAYOUT_NAMES = 8 }; /* LAYOUT_NAMES: runtime's DYNAC_LAYOUT_NAMES */
typedef struct layout_group {
  int local;                       /* the local holding the instance */
  const char *names[LAYOUT_NAMES]; /* the attributes the run reads, first read first */
  int n, nreads;
  const char *layout, *flag;       /* C names: the static dynac_layout, the flag of its test */
  bool tested;                     /* its test (the run's first read of the instance) emitted */
} layout_group;
typedef struct layout_run {
  const stmt *last; /* the run's last statement; NULL: no run */
  layout_group groups[LAYOUT_GROUPS];
  int ngroups;
} layout_run;

typedef struct em {
  module *m;
  inst *in;
  strbuf *b;
  int indent;
  int tmp;
  const expr *rec_dest_for; /* the expression whose struct is made in rec_dest (`return Vec(...)`: */
  const char *rec_dest;     /* the caller's, (*dynac_out)), rather than in a temporary (records.c) */
  int label;
  loopinfo loops[64];
  int nloops;
  bool line_directives;
  bool *bound;     /* definitely assigned here (no UnboundLocalError check needed) */
  char *kept_box;  /* per parameter (kernel.c params_to_keep_boxed): KEEP_BOX when box_value may box it
                      once per call (its bx_ local), KEEP_BOX_USED once it did, KEEP_ARG when it is read
                      once (each boxing takes the caller's object); NULL: none may */
  char *args_read; /* per parameter: 1 once the kernel reads dynac__args[p] (inst.reads_args) */
  struct { const char *local, *item, *list, *index; int label; } loop_items[8]; /* the bodies of for loops
                                          over lists of ints or floats being emitted: the loop variable (C
                                          name) and its item's object, list and position (box_value:
                                          loop_item_box), the loop's label */
  int nloop_items;
  bool *keeps_object; /* [nexprs] the int and float attribute reads whose value the kernel boxes again (an
                         argument, a display's item): read keeping their object (values.c kept_attr_box) */
  struct { const char *value, *obj; int id; } kept_attrs[8]; /* the last such reads: their C value, object */
  int nkept_attrs;
  struct { const char *name, **parts; int n; } displays[8]; /* the last tuple displays of numbers made (their
                                                                temporaries, their parts' C values): box_value */
  int ndisplays;
  struct { const char *name; double literal; } literal_results[8]; /* the last results of calls to kernels
                                                                     that return a float literal: box_value */
  int nliteral_results;
  const struct region *reg; /* a region kernel's region: every local, parameters too, is a
                               C local, and its continuations end where the region ends */
  bool effectful;  /* the instance makes opaque calls: deoptimisation after one raises */
  bool calls_logging; /* it calls a kernel directly that may log writes (callee_report_start) */
  int cur_line;    /* the Python line of the statement being emitted */
  expr *comp;      /* the comprehension whose items are being made (its own frame in
                      CPython's tracebacks), or NULL */
  stmt *comp_first; /* its first for clause, whose iterable the enclosing frame evaluates */
  const struct comp_frame *frames; /* the comprehensions being emitted, innermost first */
  const comp_cont *comp_cont; /* how that comprehension's clauses continue, or NULL */
  const number_fold *nfolds; /* the number folds being made, innermost first */
  int routed_comps; /* nested comprehensions being emitted whose failures go on through the enclosing
                       clause's restart point (no restart points of their own) */
  int effects_noted; /* note_effect's calls so far (a comprehension's clauses' are its statement's) */
  bool exported;   /* dynac export: plain C, failures fill the status (dynac_st) */
  unsigned ret_params; /* the parameters whose `return x` the glue returns as the caller's object
                          (kernel.c returned_number_params): each return reports (dynac__returned_param) */
  strbuf *helpers; /* C written before the kernel (fusion.c's loop functions) */
  int nfused;       /* loop functions so far */
  const char *fused_prefix; /* their names' part after dynac_fused_: the C name of the kernel (or region's) */
  const char *live_views[16]; /* views for loops iterate over (kept by a sweep of pins) */
  int nlive_views;
  int live_overflow; /* loops over views past live_views' room: no sweep inside them */
  bool *view_copy; /* [nlocals]: a view parameter whose fields are read from dv_x (view_field) */
  bool *fresh;     /* [nlocals]: a list local holding only lists this call made (fresh.c): its
                      appends are not logged; NULL in region kernels (their lists predate them) */
  struct hoisted *hoisted; /* positions enclosing loops proved in range (hoist_bounds) */
  int nhoisted;
  const char *proven;  /* the okN flag known true here: the checked-free copy of a loop */
  const bool *unlogged; /* [nparams]: views that copy saved and that are writable, there */
  const expr *finite_by_parent; /* a numpy float operation whose inf/nan test a later one makes */
  const char *finite_note;      /* which (the next statement's), else the enclosing operation */
  const char *finite_later;     /* the operation being emitted is that one: a C comment */
  bool np_exit;        /* numpy float arithmetic: an underflow is looked for on the way out */
  int spec;            /* N: emitting loop N's speculative copy (speculate.c): a failure goes to
                          dynac_spec_fail_N, numpy's inf/nan tests to the flag dynac__nonfinite_N */
  const struct spec_item *promoted; /* there: the array items kept in C locals */
  const bool *accumulators; /* there, [nlocals]: float locals the loop changes by + - * only (a
                               numpy float's inf/nan tested once, after it) */
  bool *accumulated;        /* [nlocals]: a Python float accumulator an operation's test was left to */
  int npromoted;
  const shape_nest *nest;   /* the untested copy of a loop (shapes.c): the loops over lists in
                               it whose items' shape the test before it proved */
  bool no_nest;             /* the tested copy: no versioning again */
  const shape_plan *shaped; /* in the body of such a loop over a list: what was proved */
  bool shaped_target;       /* assigning its target: its [x, y, z] unpackings are proven */
  bool conts;               /* deoptimisation after an effect continues in the interpreter */
  restart rp;               /* the current restart point (conts) */
  cont_loop cloops[96];     /* the for loops (and with statements) around it, outermost first */
  int ncloops;
  const int *versions;      /* the top-level statement's version of each base name */
  const expr *returned;     /* the value of the return statement being emitted */
  bool returned_op;         /* emitting that value's own operation (checked()) */
  const expr *assigned;     /* the value of `local = a OP b` being emitted */
  int assigned_local;
  bool assigned_op;         /* emitting its operation, or the one of `local op= v` */
  pending vstack[VSTACK_CAP]; /* the operands pending in the statements being emitted */
  int nvstack;
  const expr *given;   /* an expression already evaluated, as C value given_v (a polymorphic call's receiver) */
  const char *given_v;
  const char *held_callee;   /* the module function being called, as read before its arguments ran (calls.c: hold_callee) */
  int call_base;            /* where the arguments of the call being emitted start */
  route *route;             /* the handlers of the try statement around the code being
                               emitted (where DYNAC_LEAVE sends exceptions), or NULL */
  exit_scope exits[EXIT_SCOPES_CAP]; /* the finally blocks and handled exceptions around it */
  int nexits;
  struct rec_checks *recr;  /* the statement's reads of struct fields checked once (records.c), or NULL */
  layout_run layouts;       /* the run of statements being emitted whose reads share layouts (layouts.c) */
  int nkslots;              /* the module-level values it and its direct callees read, which
                               it checks again after Python code ran (recheck.c): dynac__kslots */
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

/* The int64 positions of an item access: one, or two for a[i, j] of a 2-D
 * ndarray. in_range[d], when not NULL, is a C condition under which
 * position d is known to be in [0, len) already: a loop's bound tested
 * before it (bounds.c), or the loop's own index. */
typedef struct positions {
  const char *at[2];
  const char *in_range[2];
} positions;

/* Tuple types the emitted code uses (writer.c note_type); module.c writes their structs. */
extern const type **used_tuples; /* growable; its elements' tuples come first */
extern int n_used_tuples;
/* dynac.h's checked helper for an arithmetic operator, per binop (failure.c; NULL:
 * plain C, or not defined for that kind). */
extern const char *const int_helper[9];
extern const char *const float_helper[7];

/* writer.c */
void note_type(const type *t);
void line(em *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *tmpvar(em *E, const type *t);
void scope_statement(em *E, size_t start);
const char *tmp_init(em *E, const type *t, const char *v);
bool owned_list_local(const inst *in, int i);
const char *local_name(em *E, int i);
const char *basename_of(const char *p);
void source_comment(em *E, srcpos pos);
const char *float_literal(em *E, double f);
const char *c_double(module *m, double f);
const char *slot_ref(em *E, slot *s);
const char *keep(em *E, const char *v, const type *t);
const char *keep_always(em *E, const char *v, const type *t);
const char *c_string(module *m, const char *s);

/* stmt.c */
bool *bound_save(em *E);
void bound_restore(em *E, const bool *b);
void bound_intersect(em *E, const bool *b);
const char *return_none(inst *in);
void assign_target(em *E, target *t, const char *v, const type *vt);
void emit_stmt(em *E, stmt *s);
void emit_block(em *E, stmt *s);

/* exceptions.c */
void emit_try(em *E, stmt *s);
void emit_with(em *E, stmt *s);
void declare_undo_log(em *E); /* kernel.c */
/* functions.c */
bool *captured_locals(arena *a, func *f);
const char *emit_make_function(em *E, expr *e);
const char *emit_load_build_class(em *E, expr *e);
const char *cell_of(em *E, int i);
bool is_own_cell(em *E, int i);
void emit_own_cells(em *E);
const char *emit_free_variable(em *E, expr *e);
/* imports.c */
void emit_import(em *E, stmt *s);
bool leaves_finally(em *E, bool loop_only);
void unwind_scopes(em *E, bool loop_only);

/* failure.c */
const char *export_fail(em *E, const char *code, const char *detail);
void note_effect(em *E);
void deopt_if(em *E, const char *code, const char *why, const char *cond_fmt, ...) __attribute__((format(printf, 4, 5)));
const char *checked(em *E, const type *rt, const char *helper, const char *a, const char *b);
void fail_if(em *E, const char *code, const char *why, const char *cond, const char *slow);
const char *where(em *E);
expr *enclosing_comp(const em *E, const expr *comp); /* its frame's caller, or NULL */
void unbound_check(em *E, int loc);

/* continue.c */
void push_operand(em *E, const expr *e, const char *v, bool boxed);
void push_pending(em *E, const expr *e, const char *v);
void walrus_pending(em *E, const stmt *s);
void push_typed(em *E, const expr *e, const char *v, const type *t);
void push_barrier(em *E);
void push_quiet(em *E, const expr *e, const char *v);
void push_formatted(em *E, const expr *e, const char *v);
void push_held(em *E, const expr *e, const char *v);
void push_prefix(em *E, const expr *e, const char *v);
bool may_continue(const inst *in);
bool may_log(const inst *in);
const char *mid_action(em *E);
const comp_cont *comp_enter(em *E, const expr *e);
bool deopt_if_exact(em *E, const char *why, const char *cond); /* failure.c */
bool warn_in_interpreter_if(em *E, const char *why, const char *cond); /* failure.c */
restart restart_open(em *E, const stmt *s, bool header);
/* recheck.c */
void declare_globals_recheck(em *E);
void recheck_globals(em *E, const stmt *s);
void recheck_globals_mid(em *E, const expr *e);
void restart_close(em *E, restart outer);

/* values.c */
bool is_scalar(const type *t);
const char *as_double(em *E, const char *v, const type *t);
const char *as_int(em *E, const char *v, const type *t);
const char *as_num(em *E, const char *v, const type *t);
const char *as_obj(em *E, const char *v, const type *t);
const char *convert(em *E, const char *v, const type *from, const type *to);
const char *copied_view(em *E, const char *v);
bool view_unlogged(em *E, const char *v);
const char *view_field(em *E, const char *v, const char *f);
const char *view_frozen(em *E, const char *v);
const char *len_of(em *E, const char *obj, const type *t);
const char *truth(em *E, const char *v, const type *t);
const char *truth_unless_known(em *E, const char *v, const type *t, const char *known);
const char *box_value(em *E, const char *v, const type *t);
/* values.c: E->keeps_object for the kernel being emitted; the object a kept read
 * of argument a holds (borrowed), else NULL. */
bool *attrs_boxed_again(em *E);
const char *kept_attr_object(em *E, const expr *a);
const char *param_argument_object(em *E, const char *v, const type *t);
void note_literal_result(em *E, const char *v, const inst *callee);
void decide_entry_args(module *m, inst *in);
const char *no_entry_args(const inst *callee, bool exported);
const char *entry_args_of_call(em *E, const inst *callee, expr *const *args, const char *const *defaults);
void report_returned_param(em *E, const expr *v);
const char *passed_object(em *E, int p);
enum { KEEP_BOX = 1, KEEP_BOX_USED = 2, KEEP_ARG = 3 }; /* em.kept_box */
/* box_value on a path that runs once if ever (a deoptimisation's live
 * values): no parameter's box kept for later uses. */
const char *box_value_cold(em *E, const char *v, const type *t);
const char *item_ctype(char fmt);
char view_kind(const type *t);
const char *elem_fn(module *m, const type *t);
const char *box_fn(module *m, const type *t);

/* arrays.c */
void declare_pins(em *E);
const char *emit_made_array(em *E, expr *e, const char *o, const char *other);
const char *emit_array_view(em *E, expr *e, const char *obj);
const char *view_key(em *E, expr *e);
void sweep_pins(em *E, stmt *s);
void declare_made_array_copies(em *E, stmt *body);
void copy_made_array(em *E, const stmt *s);

/* fusion.c */
const char *emit_fused(em *E, expr *e);
const char *emit_fused_sum_value(em *E, expr *e);
bool emit_fused_store(em *E, stmt *s);
const char *emit_fused_inplace(em *E, expr *e, expr *sub);
const char *emit_pinned_result(em *E, const char *o, const type *t);
const char *emit_builtin_sum(em *E, expr *a);

/* numpy.c */
bool finite_operands_pass(em *E, const expr *e);
const char *emit_aug_value(em *E, const stmt *s, const type *xt);
bool np_shared_caches(em *E, const expr *e, const char **gc, const char **uc);
void spec_np_test(em *E, const expr *e, int n);
bool finite_left_to_accumulator(em *E, const stmt *s);
bool quiet(em *E, const expr *e);
bool proven_position(em *E, const expr *p);
/* speculate.c */
int emit_speculation(em *E, stmt *s, const char *startv, const char *stopv, const char *stepv);
bool emit_promoted_augassign(em *E, stmt *s);
void route_failures_to(em *E, const char *define);
const char *nd_item_place(em *E, const char *obj, const type *ot, const positions *idx);
const char *emit_np_binop(em *E, binop op, const char *l, const type *lt, const char *r,
                                 const type *rt, const type *res);
const char *emit_np_unary(em *E, unop op, const char *a, const type *t);
/* np.tanh(x), np.maximum(x, y) of numbers (np_ufunc_row): numpy's float64
 * loop on one item; a numpy.float64 (C double). */
const char *emit_np_ufunc(em *E, expr *e);
const char *emit_global_borrowed(em *E, const char *name, const char *cache);
const char *emit_global_cached(em *E, const char *name, const char *cache);
bool uses_np_float(em *E, stmt *b);
void np_exit_check(em *E);
bool finite_left_to_next(em *E, const stmt *s);

/* expr.c */
const char *emit_binop_values(em *E, binop op, const char *l, const type *lt,
                                     const char *r, const type *rt, const type *res);
const char *cmp_values(em *E, cmpop op, const char *l, const type *lt, const char *r,
                              const type *rt);
const char *emit_expr(em *E, expr *e);
/* records.c: instances kept as their fields (scalar replacement) */
const char *emit_expr_rec(em *E, expr *e); /* expr.c: an expression typed rec, as its struct */
bool borrowed_param(const inst *in, int i);          /* writer.c */
const char *rec_ctype(module *m, const klass *k);
bool is_rec_value(const char *v);
const char *rec_addr(em *E, const char *v);
const char *rec_box(em *E, const char *v, const klass *k);
const char *rec_tmp(em *E, const klass *k);
const char *rec_result(em *E, const expr *e, const klass *k);
const char *rec_of_object(em *E, const char *v, const klass *k);
const char *emit_rec_field(em *E, const expr *e, const char *v, const klass *k, int i);
struct rec_checks *rec_checks_open(em *E, const stmt *s);
void emit_rec_store(em *E, const char *v, const klass *k, int i, const char *val);
void emit_rec_structs(module *m, strbuf *out);
/* heap.c: heapq's comparisons through the module's compiled __lt__ */
bool heap_call(em *E, const expr *e);
void emit_heap_less(module *m, strbuf *protos, strbuf *out);
const char *emit_rec_construction(em *E, expr *e, inst *init);
const char *kernel_arg(em *E, const char *v, const type *pt);
const char *emit_operand_for(em *E, expr *x, const type *pt);
const char *emit_call_arg(em *E, expr *e, int i, const type *pt); /* calls.c: for a parameter of type pt */
int func_index(const module *m, const func *f);     /* calls.c */
void emit_init_status(em *E);                        /* calls.c: after an __init__ kernel's `int st` */
void emit_init_interpreted(em *E, expr *e, const char *const *vals, const char *tp, const char *obj);
void emit_class_call(em *E, expr *e, const char *const *vals, const char *dest); /* calls.c */
const char *unbox_into(em *E, const type *t, const char *o, const char *res); /* calls.c */
void emit_class_fresh(em *E, int ks, const char *tested);                 /* calls.c */

/* objects.c */
const char *interned_name(em *E, const char *name);
int interned_index(em *E, const char *name);
const char *float_literal_place(module *m, double f);
const char *emit_instance_attr(em *E, const char *obj, const char *name, const type *t);
const char *emit_instance_attr_kept(em *E, const char *obj, const expr *e);
void end_attr_read(em *E);
/* A special method of an instance called directly (calls.c: emit_special_call):
 * the operands pending above vstack depth `depth` until it is called. */
const char *emit_operator_call(em *E, expr *e, const char *l, const char *r, int depth);
const char *emit_unary_call(em *E, expr *e, const char *a, int depth);
const char *emit_compare_call(em *E, expr *e, const char *l, const char *r, int depth);
const char *emit_getitem_call(em *E, expr *e, const char *o, const char *i, int depth);
const char *emit_property_call(em *E, expr *e, const char *o);
void emit_setter_call(em *E, expr *sub, const char *o, const char *v, const type *vt);
const char *emit_constant(em *E, const char *literal);
const char *emit_global_name(em *E, const char *name);
const char *emit_fstring(em *E, expr *e);
const char *emit_display_object(em *E, expr *e);
/* obj[lo:hi:step] through the C API, and its slice object (new references). */
const char *emit_object_slice(em *E, expr *e);
const char *emit_slice_object(em *E, expr *e);
const char *emit_attr_cache(em *E, const char *what);
const char *emit_object_attr(em *E, const char *obj, const char *name);
void emit_object_store(em *E, expr *sub, const char *v, const type *vt);
void emit_object_delete(em *E, expr *sub);
void emit_object_unpack(em *E, target *t, const char *v);
void emit_object_augassign(em *E, stmt *s);
void emit_array_inplace(em *E, binop op, const char *a, const type *at, const char *b, const type *bt);
const char *emit_inplace_values(em *E, binop op, const char *l, const type *lt, const char *r,
                                const type *rt);

/* calls.c */
const char *unbox_call_result(em *E, expr *e, const char *o);
/* The action giving call e's value (in dynac__boxed_result) to the interpreter, which goes on
 * from there in the statement (its pending operands kept), or NULL where it cannot. */
const char *boxed_call_action(em *E, const expr *call);
const type *init_param_type(const expr *e, const inst *init, int i);
const char *construction_args(em *E, expr *e, const inst *init, const char *tp, const char *self,
                              const char *const *vals, strbuf *args, const char **objs);
const char *synthesised_init_ok(em *E, const inst *init, const char *tp);
const char *emit_call(em *E, expr *e);

/* containers.c */
const char *elem_unbox_cond(em *E, const type *t, const char *o, const char *res);
const char *checked_index(em *E, const type *t, bool store, const char *len, const char *idx,
                                 const char *in_range, const char *slow);
const char *elem_read(em *E, const char *obj, const type *ot, const positions *idxs,
                             expr *idx_expr, const char **checked);
void elem_store(em *E, const char *obj, const type *ot, const positions *idxs, const char *v,
                       const type *vt, bool old_plain);
const char *shaped_position(em *E, const expr *sub);
const char *shaped_item(em *E, const char *list, const char *c);
const positions *emit_index(em *E, expr *sub);
const char *emit_subscript(em *E, expr *e);
const char *emit_list_display(em *E, expr *e);
const char *emit_list_binop(em *E, expr *e, const char *l, const char *r);
void emit_list_extend(em *E, const char *l, const char *v, const type *vt);
void emit_logged_list_write(em *E, const char *v, const type *vt, const char *call);
const char *emit_slice(em *E, expr *e);
const char *emit_list_comprehension(em *E, expr *e);
const char *emit_fold_item(em *E, const expr *comp, const char *boxed);
const char *emit_number_fold(em *E, expr *call);
const char *emit_number_fold_item(em *E, const number_fold *f, const char *x);
const number_fold *number_fold_of(const em *E, const expr *comp);

/* loops.c */
const char **hoist_bounds(em *E, stmt *loop, const char *start, const char *stop, const char *step);
void restore_bounds(em *E, int nhoisted, const char **saved);
void loop_tick(em *E);
void emit_loop_rest(em *E, stmt *body, bool *before, bool has_else, stmt *orelse, int label);
bool kernel_always_inlined(const module *m, inst *in);      /* kernel.c */
bool kernel_call_is_flat(const module *m, inst *callee);
bool is_own_first_param(const em *E, const char *v);
void report_effects(em *E);
void callee_report_start(em *E, const inst *callee);
void callee_report_take(em *E, const inst *callee, const char *first, bool made);
const char *versioned_condition(em *E, const stmt *s, const char *ok);
void count_unlogged_writes(em *E, const stmt *s, const char *start, const char *stop, const char *step);
void emit_range_loop(em *E, stmt *s, int label, const char *startv, const char *stopv,
                            const char *stepv);
void emit_for_iter(em *E, stmt *s);
bool emit_shape_versioned(em *E, stmt *s);

/* kernel.c */
const char *params_of(module *m, inst *in, bool exported);
const char *signature_of(module *m, inst *in);
void declare_kernel_locals(em *E, stmt *body);
bool emit_kernel(module *m, inst *in, const char *tpl, bool line_directives, bool exported,
                        strbuf *out);
void emit_unbox_arg(module *m, const type *t, int i, const char *src, bool guarded,
                           const char *fail, strbuf *unbox, strbuf *release);
bool emit_entry(module *m, inst *in, const char *gtpl, const char *utpl, strbuf *out);
/* layouts.c: one class test for a run's attribute reads of an instance */
bool layouts_before(em *E, const stmt *s);
void layouts_after(em *E, const stmt *s);
void layouts_end(em *E);
void layouts_off(em *E);
unsigned layouts_tested(const em *E);
void layouts_set_tested(em *E, unsigned m);
const char *emit_layout_attr(em *E, const char *obj, const expr *e);
bool layout_store_open(em *E, const char *obj, const expr *place, const char *v);
void layout_store_close(em *E);
bool typed_number_update(em *E, stmt *s);
extern const char *const entered_report;
void emit_tuple_type(module *m, const type *t, strbuf *types, const type **done, int *ndone);

/* regions.c */
const char *region_spec(em *E);
bool emit_region_kernel(module *m, inst *in, region *r, int ri, const char *tpl,
                               strbuf *types, strbuf *protos, strbuf *out);
void emit_region_wrapper(module *m, func *f, region *r, int ri, strbuf *out, strbuf *methods);

/* loops.c (statements) */
void emit_for_range(em *E, stmt *s);

/* tidy.c */
/* Drops from a kernel's locals and body the flags, locals, view copies and
 * labels nothing uses, and marks parameters and assign-only locals read
 * ((void)x): so the C compiles clean under -Wall -Wextra. `end` (the
 * template's end hole) and `params` (its parameter list) are read only. */
void tidy_kernel(strbuf *locals, strbuf *body, const char *end, const char *params);

#endif
