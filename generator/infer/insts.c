/* insts.c: the phase's entry (infer_module): specialisations of every
 * compile root and the callee instances their calls create, typed to a
 * fixpoint, widened or dropped where another subsumes them; the side
 * tables each keeps (inst.types), callee lists and transitive flags.
 */
#include "infer.h"

#include <string.h>

static void collect_callees_block(inst *in, stmt *s, inst **out, int *n, int cap);
static void collect_callees_expr(inst *in, expr *e, inst **out, int *n, int cap);

static void type_inst(module *m, inst *in) {
  ctx c = {m, in, false, -1, NULL};
  in->typing = true;
  int ntop = in->fn->nsplit;
  in->ntop = ntop;
  in->top_fail = arena_alloc(m->a, sizeof(char *) * (size_t)(ntop + 1));
  for (int pass = 0; pass < 20; pass++) {
    in->pass_changed = 0;
    type_body(&c);
    if (!in->pass_changed) break;
  }
  c.strict = true;
  type_body(&c);
  if (falls_through(in, in->fn->body)) in->ret_may_be_none = true;
  for (int i = 0; i < in->fn->nlocals; i++) {
    if (in->local_ty[i]->kind == TY_CONFLICT) type_fail(&c, in->fn->pos, "a local has no single type");
    if (ty_is_container(in->local_ty[i])) in->containers = true;
  }
  if (in->builds_lists) { /* a tuple value borrows its lists: a rebinding could free them */
    for (int i = 0; i < in->fn->nlocals; i++)
      if (in->local_ty[i]->kind == TY_TUPLE && holds_nested_container(in->local_ty[i]))
        type_fail(&c, in->fn->pos, arena_printf(m->a, "local '%s' holds a %s in a function that builds "
             "new lists (unpack the tuple instead)", in->fn->locals[i],
             ty_python_name(m->a, in->local_ty[i])));
    if (in->ret->kind == TY_TUPLE && holds_nested_container(in->ret))
      in->ret = &ty_obj; /* boxed by the kernel, whose references to the lists end with it */
  }
  if (in->pins) /* a sweep of the arrays it holds looks at its array locals only */
    for (int i = 0; i < in->fn->nlocals; i++)
      if (in->local_ty[i]->kind == TY_TUPLE && ty_is_container(in->local_ty[i]))
        type_fail(&c, in->fn->pos, arena_printf(m->a, "local '%s' holds a %s in a function that makes or "
             "slices arrays (unpack the tuple instead)", in->fn->locals[i], ty_python_name(m->a, in->local_ty[i])));
  if (in->containers && in->opaque_calls) /* the callee could free what the kernel borrows */
    type_fail(&c, in->fn->pos, "allow_in_graph calls in a function that holds lists or buffers");
  if (in->generic) { /* Python code may run: it must not free a list the kernel borrows */
    in->effectful = true;
    for (int i = 0; i < in->fn->nlocals; i++)
      if (holds_nested_container(in->local_ty[i])) {
        in->nested_refused = true;
        type_fail(&c, in->fn->pos, arena_printf(m->a, "operations on objects (which may run Python "
             "code) in a function that holds the %s '%s' (its inner lists are borrowed)",
             ty_python_name(m->a, in->local_ty[i]), in->fn->locals[i]));
      }
  }
  in->typing = false;
}

static const char *inst_cname(module *m, func *f, const type **args) {
  strbuf b = {0};
  sb_printf(&b, "%s__", f->cname);
  for (int i = 0; i < f->nparams; i++) sb_puts(&b, args[i]->code);
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

/* How an instance is typed again after a typing failed (new_inst). */
enum { RETYPE_NESTED_AS_OBJECTS = 1, RETYPE_ATTRS_AS_OBJECTS = 2, RETYPE_LIST_ATTRS_AS_OBJECTS = 4 };
static inst *new_inst(module *m, func *f, const type **args, unsigned retype);
static unsigned retype_of(const inst *in) {
  return (in->nested_as_objects ? RETYPE_NESTED_AS_OBJECTS : 0) |
         (in->attrs_as_objects ? RETYPE_ATTRS_AS_OBJECTS : 0) |
         (in->list_attrs_as_objects ? RETYPE_LIST_ATTRS_AS_OBJECTS : 0);
}
static void unlist_inst(module *m, inst *in);

/* Must parameter i of f take the instance itself rather than a caller's
 * struct (records.c)? When f rebinds it, a cell may hold it, or f runs
 * partly in the interpreter. */
static bool param_takes_instance(const func *f, int i) {
  return f->partial || f->nowncells || block_binds(f->body, i);
}

inst *get_inst(module *m, func *f, const type **args) {
  int count = 0;
  for (int i = 0; i < f->nparams; i++)
    if (args[i]->rec && param_takes_instance(f, i)) {
      const type **w = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
      for (int j = 0; j < f->nparams; j++)
        w[j] = args[j]->rec && param_takes_instance(f, j) ? ty_unrec(args[j]) : args[j];
      args = w;
      break;
    }
  for (int i = 0; i < f->nparams; i++)
    if (args[i]->or_none) { /* "Cls | None" is a local's type: a parameter takes any object */
      const type **w = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
      for (int j = 0; j < f->nparams; j++) w[j] = args[j]->or_none ? &ty_obj : args[j];
      args = w;
      break;
    }
  for (inst *in = m->insts; in; in = in->next_all) {
    if (in->fn != f) continue;
    count++;
    bool same = true;
    for (int i = 0; i < f->nparams; i++) if (in->args[i] != args[i]) same = false;
    if (same) return in;
  }
  if (count >= 16) return NULL;
  inst *in = new_inst(m, f, args, 0);
  /* Generic operations and a list of lists it builds: typed again with the
   * inner lists held as objects (references of their own), in its place. */
  if (!in->ok && in->nested_refused) {
    unlist_inst(m, in);
    in = new_inst(m, f, args, RETYPE_NESTED_AS_OBJECTS);
  }
  /* An instance's attribute recorded as a list, then used as a typed list
   * cannot be (stored into a tuple, ...): typed again with it an object. */
  if (!in->ok && in->list_attrs_typed) {
    unlist_inst(m, in);
    in = new_inst(m, f, args, retype_of(in) | RETYPE_LIST_ATTRS_AS_OBJECTS);
  }
  /* An object's attribute guessed a number, then used as no number is
   * (`o.time.real`): typed again with objects' attributes as objects. */
  if (!in->ok && in->attrs_guessed) {
    unlist_inst(m, in);
    in = new_inst(m, f, args, retype_of(in) | RETYPE_ATTRS_AS_OBJECTS);
  }
  return in;
}

/* Takes a failed instance out of m->insts (typed again in its place). */
static void unlist_inst(module *m, inst *in) {
  inst **p = &m->insts;
  while (*p != in) p = &(*p)->next_all;
  *p = in->next_all;
}

/* A new instance of f for args, listed in m->insts (so that recursive calls
 * find it while it is typed), then typed. */
static inst *new_inst(module *m, func *f, const type **args, unsigned retype) {
  inst *in = arena_alloc(m->a, sizeof *in);
  in->nested_as_objects = retype & RETYPE_NESTED_AS_OBJECTS;
  in->attrs_as_objects = retype & RETYPE_ATTRS_AS_OBJECTS;
  in->list_attrs_as_objects = retype & RETYPE_LIST_ATTRS_AS_OBJECTS;
  in->fn = f;
  if (!f->not_none) f->not_none = narrow_not_none_reads(m->a, f, false);
  if (!f->not_none_numbers) f->not_none_numbers = narrow_not_none_reads(m->a, f, true);
  in->args = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
  memcpy(in->args, args, sizeof(type *) * (size_t)f->nparams);
  in->local_ty = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < f->nlocals; i++) in->local_ty[i] = i < f->nparams ? args[i] : &ty_unknown;
  in->types.ty = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nexprs + 1));
  for (int i = 0; i < f->nexprs; i++) in->types.ty[i] = &ty_unknown;
  in->types.folded = arena_alloc(m->a, (size_t)(f->nexprs + 1));
  in->types.callee = arena_alloc(m->a, sizeof(inst *) * (size_t)(f->nexprs + 1));
  in->types.poly = arena_alloc(m->a, sizeof(poly_site *) * (size_t)(f->nexprs + 1));
  in->types.interpreted = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nexprs + 1));
  in->ret = &ty_unknown;
  in->ok = true;
  in->cname = inst_cname(m, f, args);
  in->slots_used = arena_alloc(m->a, sizeof(bool) * (size_t)(m->nslots + 1));
  in->slots_named = arena_alloc(m->a, sizeof(bool) * (size_t)(m->nslots + 1));
  inst **tail = &m->insts;
  while (*tail) tail = &(*tail)->next_all;
  *tail = in;
  type_inst(m, in);
  return in;
}

/* Instances referenced by calls inside `s`, for the transitive slot set. */
typedef struct callees { inst *in, **out; int *n, cap; } callees;
static void collect_callees_sub(void *ctx, expr *e) {
  callees *C = ctx;
  collect_callees_expr(C->in, e, C->out, C->n, C->cap);
}
static void collect_callees_target(void *ctx, target *t) {
  if (t->sub) collect_callees_sub(ctx, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) collect_callees_target(ctx, t->elts[i]);
}
static void collect_callees_part_block(void *ctx, stmt *b) {
  callees *C = ctx;
  collect_callees_block(C->in, b, C->out, C->n, C->cap);
}
static void add_callee(inst *callee, inst **out, int *n, int cap) {
  if (!callee) return;
  for (int i = 0; i < *n; i++) if (out[i] == callee) return;
  if (*n < cap) out[(*n)++] = callee;
}
static void collect_callees_block(inst *in, stmt *s, inst **out, int *n, int cap) {
  static const ir_parts parts = {collect_callees_sub, collect_callees_target, collect_callees_part_block, true};
  callees C = {in, out, n, cap};
  for (; s; s = s->next) {
    ir_each_part(s, &parts, &C);
    if (s->kind == ST_AUGASSIGN && s->u.aug.op_expr) collect_callees_sub(&C, s->u.aug.op_expr);
  }
}
static void collect_callees_expr(inst *in, expr *e, inst **out, int *n, int cap) {
  callees C = {in, out, n, cap};
  ir_each_subexpr(e, collect_callees_sub, &C);
  if (e->kind == EX_LISTCOMP) collect_callees_block(in, e->u.comp.loop, out, n, cap);
  add_callee(in->types.callee[e->id], out, n, cap); /* a call, or an operator's special method */
  const poly_site *ps = in->types.poly[e->id]; /* obj.m(...): the receiver classes' kernels */
  for (int i = 0; ps && i < ps->n; i++)
    if (ps->callee[i]->ok) add_callee(ps->callee[i], out, n, cap);
}

int infer_region_callees(inst *in, stmt *first, stmt *last, inst **out, int cap) {
  static const ir_parts parts = {collect_callees_sub, collect_callees_target, collect_callees_part_block, true};
  int n = 0;
  callees C = {in, out, &n, cap};
  for (stmt *s = first; s; s = s->next) {
    ir_each_part(s, &parts, &C);
    if (s->kind == ST_AUGASSIGN && s->u.aug.op_expr) collect_callees_sub(&C, s->u.aug.op_expr);
    if (s == last) break;
  }
  return n;
}

/* The final typing of a compiled instance, once every instance's verdict
 * is known: its side tables (in->types) as every later phase reads them.
 * Only the tables change; the verdict stands. */
static void retype_final(module *m, inst *in) {
  ctx c = {m, in, true, -1, NULL};
  bool ok = in->ok;
  const char *f = in->fail;
  const char **saved = in->top_fail;
  in->top_fail = arena_alloc(m->a, sizeof(char *) * (size_t)(in->ntop + 1));
  type_body(&c);
  in->top_fail = saved;
  in->ok = ok;
  in->fail = f;
}

/* Does a value of type t accept any object (an instance of one class does not)? */
static bool any_object(const type *t) {
  if (t->kind == TY_OBJ) return !t->cls;
  if (t->kind != TY_TUPLE && t->kind != TY_LIST) return false;
  for (int i = 0; i < t->n; i++) if (any_object(t->elts[i])) return true;
  return false;
}

bool takes_objects(const inst *in) {
  for (int i = 0; i < in->fn->nparams; i++) if (any_object(in->args[i])) return true;
  return false;
}

/* A list method the operation table has no row for, which the list's own
 * method runs (through the C API) without storing an element of another
 * type into a typed list. */
static bool list_method_via_api(const type *lt, const expr *e) {
  static const char *const keeps_types[] = {"sort", "reverse", "count", "index", "copy", "clear", "remove"};
  if (e->u.call.op) return false;
  if (lt->elts[0]->kind == TY_OBJ) return true;
  for (size_t i = 0; i < sizeof keeps_types / sizeof *keeps_types; i++)
    if (!strcmp(e->u.call.name, keeps_types[i])) return true;
  return false;
}

bool method_devirtualised(const inst *in, const expr *e) {
  return e->kind == EX_CALL && e->u.call.kind == CALLEE_METHOD && in->types.callee[e->id];
}

bool method_via_api(const inst *in, const expr *e) {
  if (method_devirtualised(in, e)) return false;
  const expr *const *a = (const expr *const *)e->u.call.args;
  const type *rt = ty_of(in, a[0]);
  return rt->kind == TY_OBJ || ty_is_ndarray(rt) ||
         (rt->kind == TY_LIST && e->u.call.n >= 2 && ty_of(in, a[1])->kind == TY_OBJ &&
          !ops_call_is(e, OPI_APPEND)) ||
         (rt->kind == TY_LIST && list_method_via_api(rt, e));
}

/* Does sum() have a typed form for this argument: a list or buffer of numbers? */
static bool typed_sum(const type *t) {
  if (t->kind != TY_LIST && (t->kind != TY_BUF || t->buf_kind == 'n')) return false;
  const type *el = ty_elem(t);
  return el->kind == TY_INT || el->kind == TY_BOOL || el->kind == TY_FLOAT;
}

/* Is `e` sum(), min() or max() of a generator of objects (not numbers)? Its
 * items are folded one by one as they are made (sum: PyNumber_Add from 0;
 * min/max: PyObject_RichCompareBool with < / >), Python code running between
 * them in CPython's order; the call's value is the fold's. */
bool comprehension_folds(const inst *in, const expr *e) {
  if (e->kind != EX_LISTCOMP || e->u.comp.consumer != 'n') return false;
  const type *t = ty_of(in, e);
  return t->kind == TY_LIST && t->elts[0]->kind != TY_UNKNOWN && !ty_is_number(t->elts[0]);
}

/* Is `e` sum(), min() or max() of a generator of ints, bools or floats? Its
 * items are folded into C values as they are made (emit/containers.c:
 * emit_number_fold), where CPython streams them too: no list is built. */
bool folds_numbers(const inst *in, const expr *e) {
  if (e->kind != EX_LISTCOMP || e->u.comp.consumer != 'n' || e->u.comp.kind != 'l') return false;
  const type *t = ty_of(in, e);
  return t->kind == TY_LIST &&
         (t->elts[0]->kind == TY_INT || t->elts[0]->kind == TY_BOOL || t->elts[0]->kind == TY_FLOAT);
}

/* min(xs) or max(xs) (a generator of numbers too: its items' list) of a
 * list of ints, floats or bools: a loop in C (emit/calls.c:
 * emit_min_max_of_list), whose result is the element type. */
bool min_max_of_list(const inst *in, const expr *e) {
  if (e->kind != EX_CALL || e->u.call.kind != CALLEE_BUILTIN || e->u.call.n != 1 || e->u.call.nkw ||
      (!ops_call_is(e, OPI_MIN) && !ops_call_is(e, OPI_MAX)))
    return false;
  const type *t = ty_of(in, e->u.call.args[0]);
  return t->kind == TY_LIST && (t->elts[0]->kind == TY_FLOAT || t->elts[0]->kind == TY_INT ||
                                t->elts[0]->kind == TY_BOOL);
}

bool function_via_api(const inst *in, const expr *e) {
  if (e->u.call.kind == CALLEE_MODULE_FN) return in->types.interpreted[e->id];
  if (e->u.call.kind != CALLEE_BUILTIN && e->u.call.kind != CALLEE_MATH) return false;
  if (!e->u.call.callee_slot) return false;
  if (e->u.call.nkw) return true; /* round(x, ndigits=2), sorted(xs, key=f), print(x, end="") */
  if (ops_call_is(e, OPI_LEN)) return false;
  if (ops_call_is(e, OPI_SUM)) /* sum(objects), sum(xs, start): the builtin */
    return e->u.call.n != 1 || (!typed_sum(ty_of(in, e->u.call.args[0])) &&
                                ty_of(in, e) != &ty_num_np); /* (float64 items: infer/arrays.c array_sum_arg) */
  if (min_max_of_list(in, e)) return false; /* max(xs), max(x * x for x in xs): in C */
  if (e->u.call.n == 1 && e->u.call.args[0]->kind == EX_LISTCOMP && e->u.call.args[0]->u.comp.consumer)
    return true; /* max(x for x in v), tuple(...), sorted(...): the builtin takes the items' list */
  for (int i = 0; i < e->u.call.n; i++) {
    const type *t = ty_of(in, e->u.call.args[i]);
    if (t->kind == TY_OBJ || (t->kind == TY_LIST && !ty_is_number(t->elts[0]))) return true;
  }
  return false;
}

/* A root specialisation that takes an object takes its int arguments as
 * objects too. Python code may run in it (a __lt__, __len__, a key
 * function), after which the kernel cannot deoptimise; int64 arithmetic on
 * its arguments (bisect's (lo + hi) // 2 near sys.maxsize) could overflow,
 * and Python ints do not. An instance of a module class (every method's
 * self) does not count: a method called from the interpreter takes its ints
 * as int64, and an overflow after its writes or Python code goes on in the
 * interpreter from the statement (emit/continue.c), as in its direct
 * specialisations, which never had this rule. (Measured: a grid's methods
 * called from an interpreted loop, 1.25x CPython with object ints, 3.3x
 * without; tests/e2e/suite_classes.py Ledger.) */
static const type **object_ints(module *m, func *f, const type **args) {
  bool any = false; /* an argument that is an object itself (a list of them: heapq's code
                       indexes it with ints, which stay int64) */
  for (int i = 0; i < f->nparams; i++) if (args[i]->kind == TY_OBJ && !args[i]->cls) any = true;
  if (!any || f->partial) return args; /* regions around graph breaks take no objects */
  const type **w = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
  for (int i = 0; i < f->nparams; i++) w[i] = args[i]->kind == TY_INT ? &ty_obj : args[i];
  return w;
}

/* t with the elements of its lists, and its tuples, held as objects
 * (list[tuple[int, int]] -> list[object], tuple[...] -> object); numbers stay. */
static const type *widen(const type *t) {
  if (t->kind == TY_TUPLE) return &ty_obj;
  if (t->kind == TY_LIST && !ty_is_scalar(t->elts[0])) return ty_list(&ty_obj);
  return t;
}

/* A specialisation that did not compile, typed again with its containers'
 * elements as objects (code that only compares and moves elements, like
 * heapq's, then compiles for any element type); the original one when that
 * changes nothing or does not compile either. */
static inst *widened_inst(module *m, func *f, inst *in) {
  inst *wi = in;
  for (int level = 0; level < 2 && !wi->ok; level++) { /* then the other parameters too */
    const type **w = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
    bool changed = false;
    for (int i = 0; i < f->nparams; i++) {
      const type *t = in->args[i]; /* level 1: numbers and tuples too; buffers stay */
      w[i] = level == 0 || t->kind == TY_LIST || t->kind == TY_BUF ? widen(t) : &ty_obj;
    }
    w = object_ints(m, f, w);
    for (int i = 0; i < f->nparams; i++) if (w[i] != in->args[i]) changed = true;
    inst *next = changed ? get_inst(m, f, w) : NULL;
    if (next) wi = next;
  }
  return wi->ok ? wi : in;
}

/* Does `b` accept every call `a` does (the same type, or object where `a`
 * has another)? */
static bool subsumes(const inst *b, const inst *a) {
  for (int i = 0; i < a->fn->nparams; i++)
    if (b->args[i] != a->args[i] && (b->args[i]->kind != TY_OBJ || b->args[i]->cls || a->args[i]->kind == TY_BUF))
      return false;
  return true;
}

/* Root instances taking objects that another one taking objects accepts
 * every call of are dropped: they would only be slightly faster (a list
 * read directly, `x is None` folded) and the cache holds few entries
 * (cache_size_limit). Typed ones stay, ahead of them. */
static void drop_subsumed(func *f) {
  for (inst **p = &f->insts; *p;) {
    inst *a = *p;
    bool dropped = false;
    for (inst *b = f->insts; b && a->ok && takes_objects(a) && !dropped; b = b->next_root)
      dropped = b != a && b->ok && takes_objects(b) && subsumes(b, a);
    if (dropped) *p = a->next_root;
    else p = &a->next_root;
  }
}

/* f's direct specialisations (func.direct_specs): typed as callees are,
 * never cache entries; those that compile are kept, each instance once
 * (get_inst gives an instance kept as fields and a plain one the same). */
static void type_direct_insts(module *m, func *f) {
  int n = 0;
  for (spec *s = f->direct_specs; s; s = s->next) n++;
  f->direct_insts = arena_alloc(m->a, sizeof(inst *) * (size_t)(n ? n : 1));
  for (spec *s = f->direct_specs; s; s = s->next) {
    inst *in = get_inst(m, f, s->args);
    bool kept = false;
    for (int k = 0; k < f->ndirect_insts; k++) kept |= f->direct_insts[k] == in;
    if (in && in->ok && !kept) f->direct_insts[f->ndirect_insts++] = in;
  }
}

void infer_module(module *m) {
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    /* Non-roots with declared types compile too: a root may reach them at
     * run time through interpreted code (disable(recursive=False), a graph
     * break), and their kernels dispatch only inside a root's call. */
    if (!f->is_root && (!f->specs || f->disabled)) continue;
    if (f->breaks && !f->partial && !f->not_compiled)
      f->not_compiled = arena_printf(m->a, "graph break at line %d: %s", f->breaks->pos.line,
                                     f->breaks->reason);
    if (f->not_compiled) continue;
    if (!f->specs && f->array_param) {
      f->not_compiled = arena_printf(m->a, "no specialisation yet: parameter '%s' is a numpy array "
                                     "whose dtype and number of dimensions come from a profile (dynac "
                                     "record), signatures=[\"(ndarray[d, 2], ...)\"] or its first call "
                                     "(dynac run)", f->array_param);
      continue;
    }
    if (!f->specs) continue; /* no root kernel; said below (it may still be others' callee) */
    /* typed specialisations first: the cache checks entries in order, and
     * one taking objects accepts any argument */
    for (int objects = 0; objects < 2; objects++)
      for (spec *s = f->specs; s; s = s->next) {
        const type **oargs = object_ints(m, f, s->args);
        inst *in = get_inst(m, f, oargs);
        if (in && !in->ok) in = widened_inst(m, f, in);
        if (in && !in->ok && oargs != s->args) { /* ints as objects do not compile (range(n)): */
          inst *typed = get_inst(m, f, s->args);  /* they stay the int64 ints they were declared */
          if (typed && typed->ok) in = typed;
        }
        if (!in || takes_objects(in) != objects) continue;
        bool listed = false;
        inst **tail = &f->insts;
        for (; *tail; tail = &(*tail)->next_root) if (*tail == in) listed = true;
        if (listed) continue;
        in->origin = s->origin;
        *tail = in;
      }
    drop_subsumed(f);
    type_direct_insts(m, f);
  }
  /* Transitive slot sets and callee lists (fixpoint over the call graph). */
  for (inst *in = m->insts; in; in = in->next_all) {
    if (!in->ok) continue;
    retype_final(m, in);
    inst *buf[256];
    int n = 0;
    collect_callees_block(in, in->fn->body, buf, &n, 256);
    in->callees = arena_alloc(m->a, sizeof(inst *) * (size_t)(n ? n : 1));
    memcpy(in->callees, buf, sizeof(inst *) * (size_t)n);
    in->ncallees = n;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (inst *in = m->insts; in; in = in->next_all) {
      if (!in->ok) continue;
      for (int k = 0; k < in->ncallees; k++) {
        inst *cal = in->callees[k];
        if (!cal->ok && in->ok) {
          in->ok = false;
          in->fail = arena_printf(m->a, "calls %s(), which is not compiled: %s", cal->fn->name,
                                  cal->fail);
          changed = true;
        }
        for (int s = 0; s < m->nslots; s++) {
          if (cal->slots_used[s] && !in->slots_used[s]) { in->slots_used[s] = true; changed = true; }
          if (cal->slots_named[s] && !in->slots_named[s]) { in->slots_named[s] = true; changed = true; }
        }
      }
    }
  }
  /* A root with no specialisation, said once everything is typed: kernels
   * typed after it in the module may still call it (a method of a class
   * `--all` makes a root, called from an annotated function). */
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    bool called = false;
    for (inst *in = m->insts; in && !called; in = in->next_all) called = in->fn == f && in->ok;
    if (f->is_root && !f->specs && !f->not_compiled && !f->array_param && !called)
      f->not_compiled = "no specialisation: annotate the parameters (int, float, bool), give "
                        "signatures=[...], or record a profile with 'python3 -m dynac record'";
  }
}
