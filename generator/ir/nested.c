/* nested.c: defs and lambdas inside a function, made as the interpreter
 * makes them (MAKE_FUNCTION: EX_FUNCTION) from the interpreter's own code
 * object, which the runtime finds in the parent's co_consts when the
 * artifact is attached (dynac_code_desc). The nested function itself runs
 * as the interpreter runs it.
 *
 * Closures: a local the nested code may read (a free variable of it) gets
 * a cell that every closure of the call shares, made when the first of them
 * is. That is CPython's cell semantics only if the local never changes once
 * a closure exists, so a capture is compiled when the local is a parameter
 * the function never rebinds, or is bound exactly once, by a statement of
 * the function's top-level block that ends before the def or lambda starts;
 * any other capture (a loop variable, a name rebound later, `nonlocal`) is
 * a graph break.
 */
#include "lower.h"

#include <string.h>

/* ---- bindings ---------------------------------------------------------- */

/* Calls hit(ctx, id) for each identifier a binding target pattern binds
 * (a, (b, c), [d, *e]; not x.y or x[i]). */
static void pattern_names(lower *L, TSNode n, void (*hit)(void *, const char *), void *ctx) {
  if (node_is(n, "identifier")) { hit(ctx, text(L, n)); return; }
  if (node_is(n, "attribute") || node_is(n, "subscript")) return;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) pattern_names(L, ts_node_named_child(n, i), hit, ctx);
}

/* Calls hit for every name the code in `n` binds in the scope `n` belongs
 * to (assignments, for/with/except targets, imports, def/class names, del,
 * :=). over: also inside comprehensions (their targets are their own, so
 * this over-counts: a safe bound for "bound once"); else not (an
 * under-approximation of a scope's own locals). A def's or lambda's body,
 * and a class body, are other scopes; their defaults and decorators are not. */
static void each_binding(lower *L, TSNode n, bool over, void (*hit)(void *, const char *), void *ctx) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")) {
    hit(ctx, text(L, child_by_field(n, "name")));
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode ch = ts_node_named_child(n, i);
      if (!ts_node_eq(ch, child_by_field(n, "body"))) each_binding(L, ch, over, hit, ctx);
    }
    return;
  }
  if (!strcmp(t, "lambda")) {
    TSNode params = child_by_field(n, "parameters");
    if (!ts_node_is_null(params)) each_binding(L, params, over, hit, ctx); /* defaults */
    return;
  }
  if (!over && (strstr(t, "comprehension") || !strcmp(t, "generator_expression"))) return;
  if (!strcmp(t, "match_statement")) { hit(ctx, NULL); hit(ctx, NULL); } /* patterns: never "once" */
  if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment") || !strcmp(t, "for_statement") ||
      !strcmp(t, "for_in_clause"))
    pattern_names(L, child_by_field(n, "left"), hit, ctx);
  else if (!strcmp(t, "named_expression")) hit(ctx, text(L, child_by_field(n, "name")));
  else if (!strcmp(t, "as_pattern_target") || !strcmp(t, "delete_statement")) pattern_names(L, n, hit, ctx);
  else if (!strcmp(t, "except_clause") && !ts_node_is_null(child_by_field(n, "alias")))
    pattern_names(L, child_by_field(n, "alias"), hit, ctx);
  else if (!strcmp(t, "import_statement") || !strcmp(t, "import_from_statement")) {
    TSNode mod = child_by_field(n, "module_name");
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode it = ts_node_named_child(n, i);
      if (ts_node_eq(it, mod)) continue;
      TSNode alias = child_by_field(it, "alias");
      TSNode bound = ts_node_is_null(alias) ? ts_node_named_child(it, 0) : alias;
      if (!ts_node_is_null(bound)) hit(ctx, text(L, bound));
    }
    return;
  }
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
    each_binding(L, ts_node_named_child(n, i), over, hit, ctx);
}

typedef struct binding_count { const char *name; int n; } binding_count;
static void count_hit(void *ctx, const char *name) {
  binding_count *b = ctx;
  if (!name || !strcmp(name, b->name)) b->n++;
}
static int bindings_of(lower *L, TSNode n, bool over, const char *name) {
  binding_count b = {name, 0};
  each_binding(L, n, over, count_hit, &b);
  return b.n;
}

/* Is capturing local `name` in a closure made at byte `at` safe with one
 * cell made when the first closure is: a parameter never rebound, or a
 * name bound once, by a top-level statement ending before `at`? */
static bool captures_once(lower *L, const char *name, uint32_t at) {
  TSNode body = child_by_field(L->f->node, "body");
  bool param = false;
  for (int i = 0; i < L->f->nparams; i++) if (!strcmp(L->f->params[i], name)) param = true;
  int total = bindings_of(L, body, true, name);
  if (param) return total == 0;
  if (total != 1) return false;
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode st = ts_node_named_child(body, i);
    if (!bindings_of(L, st, true, name)) continue;
    bool simple = node_is(st, "expression_statement") || node_is(st, "import_statement") ||
                  node_is(st, "import_from_statement") || node_is(st, "function_definition") ||
                  node_is(st, "decorated_definition");
    return simple && ts_node_end_byte(st) <= at;
  }
  return false; /* bound inside a compound statement */
}

/* ---- what a nested function may capture --------------------------------- */

typedef struct captures {
  lower *L;
  const char *names[256];
  int n;
  bool too_many;
} captures;

static bool seen_name(captures *C, const char *name) {
  for (int i = 0; i < C->n; i++) if (!strcmp(C->names[i], name)) return true;
  return false;
}

/* Calls hit(ctx, id) for every identifier of `n` (nested scopes too) that
 * may name a variable: attribute names and keyword argument names aside. */
static void each_name(TSNode n, void (*hit)(void *, TSNode), void *ctx) {
  if (node_is(n, "identifier")) { hit(ctx, n); return; }
  if (node_is(n, "attribute")) { each_name(child_by_field(n, "object"), hit, ctx); return; }
  if (node_is(n, "keyword_argument")) { each_name(child_by_field(n, "value"), hit, ctx); return; }
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) each_name(ts_node_named_child(n, i), hit, ctx);
}

/* Each identifier that is a local of the function being lowered: a
 * superset of the free variables a nested code takes from it. */
static void collect_read(void *ctx, TSNode id) {
  captures *C = ctx;
  const char *name = text(C->L, id);
  if (find_local(C->L->f, name) < 0 || declared_global(C->L, name) || seen_name(C, name)) return;
  if (C->n == 256) { C->too_many = true; return; }
  C->names[C->n++] = name;
}
static void collect_reads(captures *C, TSNode n) { each_name(n, collect_read, C); }

/* Is `name` a parameter in parameter list `params` (a def's or lambda's)? */
static bool is_parameter(lower *L, TSNode params, const char *name) {
  for (uint32_t k = 0; !ts_node_is_null(params) && k < ts_node_named_child_count(params); k++) {
    TSNode p = ts_node_named_child(params, k);
    TSNode id = node_is(p, "identifier") ? p : ts_node_named_child(p, 0);
    if (!ts_node_is_null(id) && !node_is(id, "identifier")) id = ts_node_named_child(id, 0);
    if (!ts_node_is_null(id) && node_is(id, "identifier") && !strcmp(text(L, id), name)) return true;
  }
  return false;
}

static bool contains(TSNode n, const char *type) {
  if (node_is(n, type)) return true;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
    if (contains(ts_node_named_child(n, i), type)) return true;
  return false;
}

/* ---- parameters: defaults and annotations -------------------------------- */

typedef struct fn_parts {
  expr *defaults[64], *kwdefaults[64], *annotations[64];
  const char *kwnames[64], *annnames[64];
  int nd, nkw, nann;
} fn_parts;

/* The defaults (positional ones, then keyword-only ones: after `*` or
 * *args) and annotations of a parameter list, lowered in the order
 * CPython 3.11 evaluates them; false after a graph break. */
static bool lower_parameters(lower *L, TSNode params, TSNode returns, fn_parts *P) {
  bool kwonly = false;
  TSNode anns[66];
  const char *annnames[66];
  int na = 0, na_posonly = 0;
  for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params); i++) {
    TSNode p = ts_node_named_child(params, i);
    const char *t = ts_node_type(p);
    if (!strcmp(t, "positional_separator")) na_posonly = na;
    if (!strcmp(t, "positional_separator") || !strcmp(t, "comment")) continue;
    if (!strcmp(t, "keyword_separator") || !strcmp(t, "list_splat_pattern")) { kwonly = true; continue; }
    if (!strcmp(t, "dictionary_splat_pattern") || !strcmp(t, "identifier")) continue;
    if (!strcmp(t, "typed_parameter")) {
      TSNode id = ts_node_named_child(p, 0);
      if (node_is(id, "list_splat_pattern")) kwonly = true;
      if (na == 64) goto too_many;
      annnames[na] = text(L, node_is(id, "identifier") ? id : ts_node_named_child(id, 0));
      anns[na++] = child_by_field(p, "type");
      continue;
    }
    if (strcmp(t, "default_parameter") && strcmp(t, "typed_default_parameter")) {
      gb(L, p, "nested-scope", arena_printf(L->m->a, "a nested function's parameter %s", t));
      return false;
    }
    expr *v = lower_expr(L, child_by_field(p, "value"));
    if (!v) return false;
    if (P->nd == 64 || P->nkw == 64 || na == 64) goto too_many;
    if (kwonly) {
      P->kwnames[P->nkw] = text(L, child_by_field(p, "name"));
      P->kwdefaults[P->nkw++] = v;
    } else {
      P->defaults[P->nd++] = v;
    }
    if (!strcmp(t, "typed_default_parameter")) {
      annnames[na] = text(L, child_by_field(p, "name"));
      anns[na++] = child_by_field(p, "type");
    }
  }
  if (na_posonly) { /* 3.11 evaluates them after the other positional parameters' */
    gb(L, params, "nested-scope", "a nested function annotating positional-only parameters");
    return false;
  }
  if (!ts_node_is_null(returns)) { annnames[na] = "return"; anns[na++] = returns; }
  if (na && L->m->future_annotations) {
    gb(L, anns[0], "nested-scope", "an annotated nested function under `from __future__ import "
       "annotations` (its annotations are strings of the source)");
    return false;
  }
  /* defaults first (both kinds), then the annotations: the kernel evaluates them in that order */
  for (int i = 0; i < na; i++) {
    TSNode a = anns[i];
    if (node_is(a, "type") && ts_node_named_child_count(a) == 1) a = ts_node_named_child(a, 0);
    if (!(P->annotations[P->nann] = lower_expr(L, a))) return false;
    P->annnames[P->nann++] = annnames[i];
  }
  return true;
too_many:
  gb(L, params, "nested-scope", "a nested function with more than 64 defaults or annotations");
  return false;
}

/* ---- the function object ------------------------------------------------ */

/* The rank of the nested code among the parent's code constants of the same
 * qualname and first line: lambdas of the function's own scope on that
 * line before this one (defs: always 0). */
static int lambda_rank(TSNode n, TSNode lam, int line, int *rank) {
  if (ts_node_eq(n, lam)) return 1;
  const char *t = ts_node_type(n);
  if (!strcmp(t, "lambda") && ts_node_is_named(n)) {
    if ((int)ts_node_start_point(n).row + 1 == line) (*rank)++;
    TSNode params = child_by_field(n, "parameters");
    return !ts_node_is_null(params) && lambda_rank(params, lam, line, rank);
  }
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode ch = ts_node_named_child(n, i);
      if (!ts_node_eq(ch, child_by_field(n, "body")) && lambda_rank(ch, lam, line, rank)) return 1;
    }
    return 0;
  }
  if (strstr(t, "comprehension") || !strcmp(t, "generator_expression")) return 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
    if (lambda_rank(ts_node_named_child(n, i), lam, line, rank)) return 1;
  return 0;
}

static int code_index(module *m, const char *qualname, int firstlineno, int rank) {
  for (int i = 0; i < m->ncodes; i++)
    if (!strcmp(m->codes[i].qualname, qualname) && m->codes[i].firstlineno == firstlineno &&
        m->codes[i].rank == rank)
      return i;
  struct nested_code *grown = arena_alloc(m->a, sizeof *grown * (size_t)(m->ncodes + 1));
  if (m->ncodes) memcpy(grown, m->codes, sizeof *grown * (size_t)m->ncodes);
  grown[m->ncodes] = (struct nested_code){qualname, firstlineno, rank};
  m->codes = grown;
  return m->ncodes++;
}

/* MAKE_FUNCTION for def/lambda node `n` (its scope's body `body`, its
 * parameters, its return annotation), named `name`, whose code starts at
 * `firstlineno`; or, for a class statement `n`, of its body's code (a
 * name bound in a class body may still be free in it: every local of the
 * function the body or its methods read is offered a cell). NULL after a
 * graph break. */
static expr *make_function(lower *L, TSNode n, TSNode body, TSNode params, TSNode returns, const char *name,
                           int firstlineno) {
  bool class_body = node_is(n, "class_definition");
  if (L->ncomp_names) {
    gb(L, n, "nested-scope", "a def or lambda inside a comprehension");
    return NULL;
  }
  if (contains(n, "nonlocal_statement")) {
    gb(L, n, "scope-declaration", "a nested function assigning the function's local (nonlocal)");
    return NULL;
  }
  captures C = {.L = L};
  collect_reads(&C, body);
  if (C.too_many) {
    gb(L, n, "nested-scope", "a nested function reading more than 256 of the function's locals");
    return NULL;
  }
  const char *cells[256];
  int ncells = 0;
  for (int i = 0; i < C.n; i++) {
    const char *v = C.names[i];
    if (!class_body && (bindings_of(L, body, false, v) || is_parameter(L, params, v)))
      continue; /* the nested function's own local: not free in it */
    if (!captures_once(L, v, ts_node_start_byte(n))) {
      gb(L, n, "nested-scope", arena_printf(L->m->a, "a nested %s capturing '%s', which the function "
         "binds more than once or after the %s (a closure cell of a changing name)",
         class_body ? "class" : "function", v, class_body ? "class statement" : "def"));
      return NULL;
    }
    cells[ncells++] = v;
  }
  fn_parts P = {0};
  if (!lower_parameters(L, params, returns, &P)) return NULL;
  expr *e = new_expr(L, EX_FUNCTION, n);
  bool global_def = strcmp(name, "<lambda>") && declared_global(L, name); /* qualified by its name alone
                                                                            (compiler_set_qualname) */
  e->guard = ir_slot(L->m, SLOT_NAME, "__name__", NULL, NULL, NULL, -1); /* the globals it is made in
                                                                           (its __module__) */
  e->u.mkfn.qualname = global_def ? name : arena_printf(L->m->a, "%s.<locals>.%s", L->f->qualname, name);
  int rank = 0;
  if (!strcmp(name, "<lambda>")) lambda_rank(child_by_field(L->f->node, "body"), n, firstlineno, &rank);
  e->u.mkfn.code = code_index(L->m, e->u.mkfn.qualname, firstlineno, rank);
  int total = P.nd + P.nkw + P.nann + ncells;
  e->u.mkfn.args = arena_alloc(L->m->a, sizeof(expr *) * (size_t)(total ? total : 1));
  e->u.mkfn.names = arena_alloc(L->m->a, sizeof(char *) * (size_t)(total ? total : 1));
  int k = 0;
  for (int i = 0; i < P.nd; i++) e->u.mkfn.args[k++] = P.defaults[i];
  for (int i = 0; i < P.nkw; i++, k++) e->u.mkfn.args[k] = P.kwdefaults[i], e->u.mkfn.names[k] = P.kwnames[i];
  for (int i = 0; i < P.nann; i++, k++)
    e->u.mkfn.args[k] = P.annotations[i], e->u.mkfn.names[k] = P.annnames[i];
  for (int i = 0; i < ncells; i++, k++) {
    expr *x = new_expr(L, EX_LOCAL, n);
    x->u.local = resolve_local(L, cells[i]);
    e->u.mkfn.args[k] = x;
    e->u.mkfn.names[k] = cells[i];
  }
  e->u.mkfn.ndefaults = P.nd;
  e->u.mkfn.nkwdefaults = P.nkw;
  e->u.mkfn.nannotations = P.nann;
  e->u.mkfn.ncells = ncells;
  return e;
}

expr *lower_lambda(lower *L, TSNode n) {
  return make_function(L, n, child_by_field(n, "body"), child_by_field(n, "parameters"), (TSNode){0},
                       "<lambda>", (int)ts_node_start_point(n).row + 1);
}

/* class NAME(bases, kw=v): body inside the function, as CPython 3.11's
 * compiler_class makes it: LOAD_BUILD_CLASS, the body's function
 * (MAKE_FUNCTION, with its closure), then __build_class__(body, 'NAME',
 * bases..., kw=v...) called as any call is (*bases and **kw too). The body
 * and its methods run in the interpreter; NULL after a graph break. */
static expr *build_class(lower *L, TSNode def, const char *name, int firstlineno) {
  expr *bc = new_expr(L, EX_BUILD_CLASS, def);
  bc->guard = ir_slot(L->m, SLOT_NAME, "__name__", NULL, NULL, NULL, -1); /* the builtins it reads */
  expr *pre[2];
  if (!(pre[0] = make_function(L, def, child_by_field(def, "body"), (TSNode){0}, (TSNode){0}, name, firstlineno)))
    return NULL;
  pre[1] = new_expr(L, EX_CONST, child_by_field(def, "name"));
  pre[1]->u.literal = arena_printf(L->m->a, "'%s'", name);
  return lower_generic_call(L, def, "__build_class__", bc, pre, 2, child_by_field(def, "superclasses"));
}

/* def NAME(...): ... (with its decorators) inside the function: NAME =
 * dec1(dec2(MAKE_FUNCTION)), the decorators evaluated first, applied
 * innermost first (CPython's order). */
stmt *lower_nested_def(lower *L, TSNode n) {
  TSNode def = n, decorators[64];
  int ndec = 0;
  if (node_is(n, "decorated_definition")) {
    def = child_by_field(n, "definition");
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode d = ts_node_named_child(n, i);
      if (!node_is(d, "decorator")) continue;
      if (ndec == 64) { gb(L, n, "nested-scope", "more than 64 decorators"); return NULL; }
      decorators[ndec++] = ts_node_named_child(d, 0);
    }
  }
  if (ts_node_child_count(def) && !strcmp(ts_node_type(ts_node_child(def, 0)), "async")) {
    gb(L, n, "generator", "a nested async def");
    return NULL;
  }
  expr *decs[64];
  for (int i = 0; i < ndec; i++) if (!(decs[i] = lower_expr(L, decorators[i]))) return NULL;
  TSNode name = child_by_field(def, "name");
  int firstlineno = (int)ts_node_start_point(n).row + 1; /* the first decorator's, as CPython's */
  expr *v = node_is(def, "class_definition")
            ? build_class(L, def, text(L, name), firstlineno)
            : make_function(L, def, child_by_field(def, "body"), child_by_field(def, "parameters"),
                            child_by_field(def, "return_type"), text(L, name), firstlineno);
  if (!v) return NULL;
  for (int i = ndec - 1; i >= 0; i--) {
    expr *call = new_expr(L, EX_CALL, decorators[i]);
    call->u.call.kind = CALLEE_VALUE;
    call->u.call.name = text(L, decorators[i]);
    call->u.call.n = 2;
    call->u.call.args = arena_alloc(L->m->a, sizeof(expr *) * 2);
    call->u.call.args[0] = decs[i];
    call->u.call.args[1] = v;
    v = call;
  }
  stmt *s = new_stmt(L, ST_ASSIGN, n);
  s->u.assign.ntargets = 1;
  s->u.assign.targets = arena_alloc(L->m->a, sizeof(target *));
  if (!(s->u.assign.targets[0] = lower_target(L, name))) return NULL; /* a local, or STORE_GLOBAL */
  s->u.assign.value = v;
  return s;
}

/* ---- a nested function compiled as its own kernel ------------------------ */

typedef struct free_scan {
  lower *L;
  TSNode body, params;       /* the nested function's own */
  TSNode outer[64];          /* the enclosing defs and lambdas, innermost first */
  int nouter;
  bool found;
} free_scan;

/* Does enclosing def or lambda `u` have a variable `name` (a parameter, or
 * bound anywhere in its body: an over-approximation)? */
static bool encloses_name(lower *L, TSNode u, const char *name) {
  return is_parameter(L, child_by_field(u, "parameters"), name) ||
         bindings_of(L, child_by_field(u, "body"), true, name) > 0;
}

static void free_read(void *ctx, TSNode id) {
  free_scan *S = ctx;
  if (S->found) return;
  const char *name = text(S->L, id);
  if (bindings_of(S->L, S->body, false, name) || is_parameter(S->L, S->params, name)) return;
  for (int i = 0; i < S->nouter; i++)
    if (encloses_name(S->L, S->outer[i], name)) {
      gb(S->L, id, "nested-scope", arena_printf(S->L->m->a, "reads '%s' of the enclosing function (a free "
         "variable: kernels of closures are not compiled yet)", name));
      S->found = true;
      return;
    }
}

/* A nested function's kernel reads its globals from the module: a read of
 * a variable of an enclosing function (a free variable, from a closure
 * cell) is a graph break. */
void check_free_reads(lower *L) {
  free_scan S = {.L = L, .body = child_by_field(L->f->node, "body"),
                 .params = child_by_field(L->f->node, "parameters")};
  for (TSNode u = L->f->enclosing; !ts_node_is_null(u) && S.nouter < 64; u = ts_node_parent(u))
    if (node_is(u, "function_definition") || (node_is(u, "lambda") && ts_node_is_named(u))) S.outer[S.nouter++] = u;
  each_name(S.body, free_read, &S);
}

/* A lambda's body: `return EXPR`. */
stmt *lower_lambda_body(lower *L, TSNode body) {
  expr *v = lower_expr(L, body);
  if (!v) return NULL;
  stmt *s = new_stmt(L, ST_RETURN, body);
  s->u.ret = v;
  return s;
}
