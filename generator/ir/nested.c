/* nested.c: defs, lambdas and class statements inside a function, made as
 * the interpreter makes them (MAKE_FUNCTION: EX_FUNCTION; LOAD_BUILD_CLASS)
 * from the interpreter's own code object, which the runtime finds in the
 * parent's co_consts when the artifact is attached (dynac_code_desc); a
 * nested function is compiled as a function of its own, its kernel reading
 * its free variables from the closure of the function it serves (EX_FREE).
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
  for (uint32_t i = 0; i < node_named_count(n); i++) pattern_names(L, node_named(n, i), hit, ctx);
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
    for (uint32_t i = 0; i < node_named_count(n); i++) {
      TSNode ch = node_named(n, i);
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
    for (uint32_t i = 0; i < node_named_count(n); i++) {
      TSNode it = node_named(n, i);
      if (ts_node_eq(it, mod)) continue;
      TSNode alias = child_by_field(it, "alias");
      TSNode bound = ts_node_is_null(alias) ? node_named(it, 0) : alias;
      if (!ts_node_is_null(bound)) hit(ctx, text(L, bound));
    }
    return;
  }
  for (uint32_t i = 0; i < node_named_count(n); i++)
    each_binding(L, node_named(n, i), over, hit, ctx);
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
  for (uint32_t i = 0; i < node_named_count(body); i++) {
    TSNode st = node_named(body, i);
    if (!bindings_of(L, st, true, name)) continue;
    bool simple = node_is(st, "expression_statement") || node_is(st, "import_statement") ||
                  node_is(st, "import_from_statement") || node_is(st, "function_definition") ||
                  node_is(st, "decorated_definition");
    return simple && ts_node_end_byte(st) <= at;
  }
  return false; /* bound inside a compound statement */
}

/* ---- free variables: the closure a kernel reads ----------------------------
 * CPython's symtable rules, on the syntax tree: a name a scope uses and
 * does not bind is free in it when an enclosing function binds it (class
 * scopes are skipped, except that they give `__class__` to the functions
 * in them that use `super` or `__class__`); a function passes on the free
 * names of the scopes nested in it that it does not bind itself. */

typedef struct name_set {
  arena *a;
  const char **v;
  int n, cap;
} name_set;

static bool set_has(const name_set *S, const char *name) {
  for (int i = 0; name && i < S->n; i++) if (!strcmp(S->v[i], name)) return true;
  return false;
}
static void set_add(void *ctx, const char *name) {
  name_set *S = ctx;
  if (!name || set_has(S, name)) return;
  if (S->n == S->cap) {
    S->cap = S->cap ? 2 * S->cap : 16;
    const char **v = arena_alloc(S->a, sizeof(char *) * (size_t)S->cap);
    if (S->n) memcpy(v, S->v, sizeof(char *) * (size_t)S->n);
    S->v = v;
  }
  S->v[S->n++] = name;
}

static bool is_scope(TSNode n) {
  const char *t = ts_node_type(n);
  return !strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
         (!strcmp(t, "lambda") && ts_node_is_named(n)) || strstr(t, "comprehension") ||
         !strcmp(t, "generator_expression");
}

static void free_of_scope(lower *L, TSNode scope, name_set *out);

/* The names code `n` of a scope uses (`used`), the free names of the scopes
 * nested in it (`inner`), and its `global` / `nonlocal` declarations. */
typedef struct scope_uses { name_set used, inner, globals, nonlocals; } scope_uses;

static void uses_in(lower *L, TSNode n, scope_uses *U);
static void uses_children(lower *L, TSNode n, scope_uses *U) {
  for (uint32_t i = 0; i < node_named_count(n); i++) uses_in(L, node_named(n, i), U);
}

/* A nested scope: the parts its enclosing scope evaluates (decorators are
 * the decorated_definition's; defaults, annotations, bases, a
 * comprehension's first iterable), then its free names. */
static void uses_of_nested(lower *L, TSNode n, scope_uses *U) {
  if (node_is(n, "function_definition") || node_is(n, "lambda")) {
    TSNode params = child_by_field(n, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(params) && i < node_named_count(params); i++) {
      TSNode p = node_named(params, i);
      TSNode v = child_by_field(p, "value"), ty = child_by_field(p, "type");
      if (!ts_node_is_null(v)) uses_in(L, v, U);
      if (!ts_node_is_null(ty)) uses_in(L, ty, U);
    }
    TSNode ret = child_by_field(n, "return_type");
    if (!ts_node_is_null(ret)) uses_in(L, ret, U);
  } else if (node_is(n, "class_definition")) {
    TSNode bases = child_by_field(n, "superclasses");
    if (!ts_node_is_null(bases)) uses_in(L, bases, U);
  } else {
    for (uint32_t i = 0; i < node_named_count(n); i++) {
      TSNode c = node_named(n, i);
      if (node_is(c, "for_in_clause")) { uses_in(L, child_by_field(c, "right"), U); break; }
    }
  }
  free_of_scope(L, n, &U->inner);
}

static void uses_in(lower *L, TSNode n, scope_uses *U) {
  const char *t = ts_node_type(n);
  if (is_scope(n)) { uses_of_nested(L, n, U); return; }
  if (!strcmp(t, "identifier")) {
    const char *name = text(L, n);
    set_add(&U->used, name);
    if (!strcmp(name, "super")) set_add(&U->used, "__class__"); /* the symtable's implicit use */
    return;
  }
  if (!strcmp(t, "global_statement") || !strcmp(t, "nonlocal_statement")) {
    for (uint32_t i = 0; i < node_named_count(n); i++)
      set_add(*t == 'g' ? &U->globals : &U->nonlocals, text(L, node_named(n, i)));
    return;
  }
  if (!strcmp(t, "attribute")) { uses_in(L, child_by_field(n, "object"), U); return; }
  if (!strcmp(t, "keyword_argument")) { uses_in(L, child_by_field(n, "value"), U); return; }
  if (!strcmp(t, "import_statement") || !strcmp(t, "import_from_statement")) return; /* bindings only */
  uses_children(L, n, U);
}

/* The names scope node `scope` binds (parameters, targets, imports,
 * def/class names; not its global/nonlocal ones). */
static void bound_in_scope(lower *L, TSNode scope, name_set *out) {
  TSNode params = child_by_field(scope, "parameters");
  for (uint32_t i = 0; !ts_node_is_null(params) && i < node_named_count(params); i++) {
    TSNode p = node_named(params, i);
    TSNode id = node_is(p, "identifier") ? p : node_named(p, 0);
    if (!ts_node_is_null(id) && !node_is(id, "identifier")) id = node_named(id, 0);
    if (!ts_node_is_null(id) && node_is(id, "identifier")) set_add(out, text(L, id));
  }
  if (node_is(scope, "function_definition") || node_is(scope, "lambda") || node_is(scope, "class_definition")) {
    each_binding(L, child_by_field(scope, "body"), false, set_add, out);
    return;
  }
  for (uint32_t i = 0; i < node_named_count(scope); i++) { /* a comprehension's targets */
    TSNode c = node_named(scope, i);
    if (node_is(c, "for_in_clause")) pattern_names(L, child_by_field(c, "left"), set_add, out);
  }
}

/* The free names of scope node `scope` (unresolved: free in it, whether an
 * enclosing function binds them or they are globals) added to `out`. */
static void free_of_scope(lower *L, TSNode scope, name_set *out) {
  arena *a = L->m->a;
  scope_uses U = {{.a = a}, {.a = a}, {.a = a}, {.a = a}};
  name_set bound = {.a = a};
  bool cls = node_is(scope, "class_definition");
  if (node_is(scope, "function_definition") || node_is(scope, "lambda") || cls) {
    uses_in(L, child_by_field(scope, "body"), &U);
  } else { /* a comprehension: all but its first iterable */
    bool first = true;
    for (uint32_t i = 0; i < node_named_count(scope); i++) {
      TSNode c = node_named(scope, i);
      if (node_is(c, "for_in_clause")) {
        uses_in(L, child_by_field(c, "left"), &U);
        if (!first) uses_in(L, child_by_field(c, "right"), &U);
        first = false;
      } else {
        uses_in(L, c, &U);
      }
    }
  }
  bound_in_scope(L, scope, &bound);
  for (int i = 0; i < U.used.n; i++) {
    const char *x = U.used.v[i];
    if (!set_has(&bound, x) && !set_has(&U.globals, x)) set_add(out, x);
  }
  for (int i = 0; i < U.inner.n; i++) { /* passed on, unless bound here (a class: only __class__) */
    const char *x = U.inner.v[i];
    if (cls ? strcmp(x, "__class__") != 0 : !set_has(&bound, x) && !set_has(&U.globals, x)) set_add(out, x);
  }
  for (int i = 0; i < U.nonlocals.n; i++) set_add(out, U.nonlocals.v[i]);
}

/* Does `n` (at any depth) declare `name` nonlocal? */
static bool declares_nonlocal(lower *L, TSNode n, const char *name) {
  if (node_is(n, "nonlocal_statement"))
    for (uint32_t i = 0; i < node_named_count(n); i++)
      if (!strcmp(text(L, node_named(n, i)), name)) return true;
  for (uint32_t i = 0; i < node_named_count(n); i++)
    if (declares_nonlocal(L, node_named(n, i), name)) return true;
  return false;
}

/* The names of `n` (part of the function's body) that a nested scope
 * captures and that the function binds again after making it (a loop
 * variable, a name bound twice or after the def; parameters aside): such a
 * name lives in a cell of the function's own for the whole call (CPython's
 * cell variable, MAKE_CELL), read and written through it, so that every
 * closure sees its current value. Comprehensions are the function's own code
 * here (they are inlined). */
static void own_cells_in(lower *L, TSNode n, const name_set *freevars, name_set *own) {
  if (is_scope(n) && !strstr(ts_node_type(n), "comprehension")) {
    name_set free = {.a = L->m->a};
    free_of_scope(L, n, &free);
    for (int i = 0; i < free.n; i++) {
      const char *v = free.v[i];
      if (set_has(freevars, v) || set_has(own, v) || declared_global(L, v) || find_local(L->f, v) >= 0)
        continue; /* a free variable passed on, a global, a parameter */
      name_set bound = {.a = L->m->a};
      bound_in_scope(L, L->f->node, &bound);
      if (set_has(&bound, v) && (declares_nonlocal(L, n, v) || !captures_once(L, v, ts_node_start_byte(n))))
        set_add(own, v);
    }
    return;
  }
  for (uint32_t i = 0; i < node_named_count(n); i++) own_cells_in(L, node_named(n, i), freevars, own);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* f's co_freevars as CPython 3.11 orders them (sorted: compile.c's
 * dictbytype): the free names an enclosing scope resolves. A kernel reads
 * them from the closure of the function it serves (EX_FREE). */
void collect_freevars(lower *L) {
  arena *a = L->m->a;
  name_set all = {.a = a}, freevars = {.a = a};
  free_of_scope(L, L->f->node, &all);
  char *decided = arena_alloc(a, (size_t)all.n + 1); /* 0 open, 1 free, 2 a global */
  /* outwards: a function binding the name (or declaring it nonlocal) resolves it, one
     declaring it global or the module does not; class scopes only give __class__ */
  for (TSNode u = ts_node_parent(L->f->node); all.n && !ts_node_is_null(u); u = ts_node_parent(u)) {
    if (!is_scope(u)) continue;
    bool cls = node_is(u, "class_definition");
    scope_uses U = {{.a = a}, {.a = a}, {.a = a}, {.a = a}};
    name_set bound = {.a = a};
    if (!cls) {
      if (node_is(u, "function_definition") || node_is(u, "lambda")) uses_in(L, child_by_field(u, "body"), &U);
      bound_in_scope(L, u, &bound);
    }
    for (int i = 0; i < all.n; i++) {
      const char *x = all.v[i];
      if (decided[i]) continue;
      if (cls) decided[i] = strcmp(x, "__class__") ? 0 : 1;
      else if (set_has(&U.globals, x)) decided[i] = 2;
      else if (set_has(&bound, x) || set_has(&U.nonlocals, x)) decided[i] = 1;
    }
  }
  for (int i = 0; i < all.n; i++) if (decided[i] == 1) set_add(&freevars, all.v[i]);
  if (freevars.n) qsort(freevars.v, (size_t)freevars.n, sizeof(char *), by_name);
  L->f->nfreevars = freevars.n;
  name_set own = {.a = a};
  own_cells_in(L, child_by_field(L->f->node, "body"), &freevars, &own);
  for (int i = 0; i < own.n; i++) set_add(&freevars, own.v[i]);
  L->f->freevars = freevars.v;
  L->f->nowncells = own.n;
}

/* The index in f's closure of free variable `name` (at nfreevars and after:
 * one of its own cells), or -1. */
int find_freevar(func *f, const char *name) {
  for (int i = 0; i < f->nfreevars + f->nowncells; i++) if (!strcmp(f->freevars[i], name)) return i;
  return -1;
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
  for (uint32_t i = 0; !ts_node_is_null(params) && i < node_named_count(params); i++) {
    TSNode p = node_named(params, i);
    const char *t = ts_node_type(p);
    if (!strcmp(t, "positional_separator")) na_posonly = na;
    if (!strcmp(t, "positional_separator")) continue;
    if (!strcmp(t, "keyword_separator") || !strcmp(t, "list_splat_pattern")) { kwonly = true; continue; }
    if (!strcmp(t, "dictionary_splat_pattern") || !strcmp(t, "identifier")) continue;
    if (!strcmp(t, "typed_parameter")) {
      TSNode id = node_named(p, 0);
      if (node_is(id, "list_splat_pattern")) kwonly = true;
      if (na == 64) goto too_many;
      annnames[na] = text(L, node_is(id, "identifier") ? id : node_named(id, 0));
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
    if (node_is(a, "type") && node_named_count(a) == 1) a = node_named(a, 0);
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
 * qualname and first line: the lambdas of the function's own scope on that
 * line that CPython 3.11's compiler adds to the constants before `lam` (defs:
 * always 0). Its order is not the source's: a lambda's defaults come before
 * it (compiler_lambda), an `if ... else`'s test before its value
 * (compiler_ifexp), an assignment's value before its targets; of a
 * comprehension only the first iterable is the function's. 1 once `lam` is
 * reached. */
static int lambda_rank(TSNode n, TSNode lam, int line, int *rank) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "lambda") && ts_node_is_named(n)) {
    TSNode params = child_by_field(n, "parameters");
    if (!ts_node_is_null(params) && lambda_rank(params, lam, line, rank)) return 1;
    if (ts_node_eq(n, lam)) return 1;
    if ((int)ts_node_start_point(n).row + 1 == line) (*rank)++;
    return 0;
  }
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")) {
    for (uint32_t i = 0; i < node_named_count(n); i++) {
      TSNode ch = node_named(n, i);
      if (!ts_node_eq(ch, child_by_field(n, "body")) && lambda_rank(ch, lam, line, rank)) return 1;
    }
    return 0;
  }
  if (strstr(t, "comprehension") || !strcmp(t, "generator_expression")) {
    for (uint32_t i = 0; i < node_named_count(n); i++)
      if (node_is(node_named(n, i), "for_in_clause"))
        return lambda_rank(child_by_field(node_named(n, i), "right"), lam, line, rank);
    return 0;
  }
  if (!strcmp(t, "conditional_expression") && node_named_count(n) == 3) /* then if cond else orelse */
    return lambda_rank(node_named(n, 1), lam, line, rank) ||
           lambda_rank(node_named(n, 0), lam, line, rank) ||
           lambda_rank(node_named(n, 2), lam, line, rank);
  if (!strcmp(t, "assignment")) { /* a = b = value: value, then a, then b (its annotation is not run) */
    TSNode last = n;
    while (node_is(child_by_field(last, "right"), "assignment")) last = child_by_field(last, "right");
    TSNode value = child_by_field(last, "right");
    if (!ts_node_is_null(value) && lambda_rank(value, lam, line, rank)) return 1;
    for (TSNode a = n;; a = child_by_field(a, "right")) {
      if (lambda_rank(child_by_field(a, "left"), lam, line, rank)) return 1;
      if (ts_node_eq(a, last)) return 0;
    }
  }
  for (uint32_t i = 0; i < node_named_count(n); i++)
    if (lambda_rank(node_named(n, i), lam, line, rank)) return 1;
  return 0;
}

/* lambda_rank inside comprehension `comp`'s own code: its clauses in order
 * (its first iterable aside: the enclosing scope evaluates it), then its
 * element, which compiler_comprehension compiles last. */
static int comprehension_rank(TSNode comp, TSNode lam, int line, int *rank) {
  TSNode body = child_by_field(comp, "body");
  bool first = true;
  for (uint32_t i = 0; i < node_named_count(comp); i++) {
    TSNode c = node_named(comp, i);
    if (ts_node_eq(c, body)) continue;
    if (node_is(c, "for_in_clause")) {
      if (!first && lambda_rank(child_by_field(c, "right"), lam, line, rank)) return 1;
      first = false;
      if (lambda_rank(child_by_field(c, "left"), lam, line, rank)) return 1;
    } else if (lambda_rank(c, lam, line, rank)) {
      return 1;
    }
  }
  return lambda_rank(body, lam, line, rank);
}

/* The comprehensions whose code holds node `n` of the function (all of a
 * comprehension but its first iterable, which its enclosing scope
 * evaluates), as CPython 3.11 names them in a qualname, outermost first
 * (".<dictcomp>.<listcomp>"; "" for none), and the innermost in *comp
 * (null for none). */
static const char *comprehension_path(lower *L, TSNode n, TSNode *comp) {
  const char *path = "";
  *comp = (TSNode){0};
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, L->f->node); p = ts_node_parent(p)) {
    const char *t = ts_node_type(p);
    if (!strstr(t, "comprehension") && strcmp(t, "generator_expression")) continue;
    TSNode first = {0};
    for (uint32_t i = 0; i < node_named_count(p) && ts_node_is_null(first); i++)
      if (node_is(node_named(p, i), "for_in_clause")) first = child_by_field(node_named(p, i), "right");
    if (!ts_node_is_null(first) && ts_node_start_byte(first) <= ts_node_start_byte(n) &&
        ts_node_end_byte(n) <= ts_node_end_byte(first))
      continue;
    const char *code = !strcmp(t, "generator_expression") ? "<genexpr>" : !strcmp(t, "set_comprehension") ? "<setcomp>"
                       : !strcmp(t, "dictionary_comprehension") ? "<dictcomp>" : "<listcomp>";
    path = arena_printf(L->m->a, ".%s%s", code, path);
    if (ts_node_is_null(*comp)) *comp = p;
  }
  return path;
}

/* Is `name` a variable of a comprehension being lowered (its own scope's)? */
static bool comprehension_binds(lower *L, const char *name) {
  for (int i = 0; i < L->ncomp_names; i++)
    if (!strcmp(L->comp_names[i].name, name)) return true;
  return false;
}

static int code_index(module *m, const char *qualname, int firstlineno, int rank, int col) {
  for (int i = 0; i < m->ncodes; i++)
    if (!strcmp(m->codes[i].qualname, qualname) && m->codes[i].firstlineno == firstlineno &&
        m->codes[i].rank == rank && m->codes[i].col == col)
      return i;
  struct nested_code *grown = arena_alloc(m->a, sizeof *grown * (size_t)(m->ncodes + 1));
  if (m->ncodes) memcpy(grown, m->codes, sizeof *grown * (size_t)m->ncodes);
  grown[m->ncodes] = (struct nested_code){qualname, firstlineno, rank, col};
  m->codes = grown;
  return m->ncodes++;
}

/* MAKE_FUNCTION for def/lambda node `n` (its scope's body `body`, its
 * parameters, its return annotation), named `name`, whose code starts at
 * `firstlineno`; or, for a class statement `n`, of its body's code. Its
 * closure: a cell per local of the function free in it, and the function's
 * own cells of its free variables that it passes on. NULL after a graph
 * break. */
static expr *make_function(lower *L, TSNode n, TSNode body, TSNode params, TSNode returns, const char *name,
                           int firstlineno) {
  bool class_body = node_is(n, "class_definition");
  TSNode comp; /* the comprehension whose code holds a lambda's, or null: the function's */
  const char *comp_path = comprehension_path(L, n, &comp);
  name_set free = {.a = L->m->a};
  free_of_scope(L, n, &free);
  for (int i = 0; i < free.n; i++)
    if (comprehension_binds(L, free.v[i])) {
      gb(L, n, "nested-scope", !strcmp(name, "<lambda>")
         ? arena_printf(L->m->a, "a lambda capturing the comprehension's variable '%s' (a closure cell the "
                        "comprehension rebinds; a default, lambda %s=%s: ..., binds each value)",
                        free.v[i], free.v[i], free.v[i])
         : arena_printf(L->m->a, "a generator expression capturing the comprehension's variable '%s' (a "
                        "closure cell the comprehension rebinds)", free.v[i]));
      return NULL;
    }
  for (int i = 0; i < free.n; i++) /* a nonlocal one is a cell of the function's (own_cells_in) */
    if (find_local(L->f, free.v[i]) >= 0 && declares_nonlocal(L, n, free.v[i])) {
      gb(L, n, "scope-declaration", arena_printf(L->m->a, "a nested function assigning the function's "
         "parameter '%s' (nonlocal)", free.v[i]));
      return NULL;
    }
  const char **cells = arena_alloc(L->m->a, sizeof(char *) * (size_t)(free.n + 1));
  bool *passed_on = arena_alloc(L->m->a, sizeof(bool) * (size_t)(free.n + 1));
  int ncells = 0;
  for (int i = 0; i < free.n; i++) {
    const char *v = free.v[i];
    if (declared_global(L, v)) continue;
    if (find_local(L->f, v) < 0) { /* a cell of the function's own closure, or a global */
      if (find_freevar(L->f, v) >= 0) passed_on[ncells] = true, cells[ncells++] = v;
      continue;
    }
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
  e->u.mkfn.qualname = global_def ? name : arena_printf(L->m->a, "%s.<locals>%s.%s", L->f->qualname, comp_path, name);
  int rank = 0;
  if (!strcmp(name, "<lambda>") && ts_node_is_null(comp))
    lambda_rank(child_by_field(L->f->node, "body"), n, firstlineno, &rank);
  else if (!strcmp(name, "<lambda>"))
    comprehension_rank(comp, n, firstlineno, &rank);
  /* a generator expression's code is told apart by where it starts: its node's column is its code's
     (CPython's GeneratorExp col_offset, bytes as Tree-sitter counts them), so any number share a line */
  int col = !strcmp(name, "<genexpr>") ? (int)ts_node_start_point(n).column : -1;
  e->u.mkfn.code = code_index(L->m, e->u.mkfn.qualname, firstlineno, rank, col);
  int total = P.nd + P.nkw + P.nann + ncells;
  e->u.mkfn.args = arena_alloc(L->m->a, sizeof(expr *) * (size_t)(total ? total : 1));
  e->u.mkfn.names = arena_alloc(L->m->a, sizeof(char *) * (size_t)(total ? total : 1));
  int k = 0;
  for (int i = 0; i < P.nd; i++) e->u.mkfn.args[k++] = P.defaults[i];
  for (int i = 0; i < P.nkw; i++, k++) e->u.mkfn.args[k] = P.kwdefaults[i], e->u.mkfn.names[k] = P.kwnames[i];
  for (int i = 0; i < P.nann; i++, k++)
    e->u.mkfn.args[k] = P.annotations[i], e->u.mkfn.names[k] = P.annnames[i];
  for (int i = 0; i < ncells; i++, k++) {
    expr *x = new_expr(L, passed_on[i] ? EX_FREE : EX_LOCAL, n); /* EX_FREE: the cell itself */
    x->u.local = passed_on[i] ? find_freevar(L->f, cells[i]) : resolve_local(L, cells[i]);
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

/* (elt for x in it ...) as a value, as CPython 3.11 makes it: MAKE_FUNCTION
 * of its code object (`<genexpr>`, its cells those of a nested def), then
 * GET_ITER of its first iterable, evaluated in the function, and the
 * function called with that iterator: a generator object, which the
 * interpreter runs as it is consumed. NULL after a graph break. */
expr *lower_genexpr(lower *L, TSNode n) {
  int line = (int)ts_node_start_point(n).row + 1;
  TSNode first = {0};
  for (uint32_t i = 0; i < node_named_count(n) && ts_node_is_null(first); i++)
    if (node_is(node_named(n, i), "for_in_clause")) first = node_named(n, i);
  if (ts_node_is_null(first) || (ts_node_child_count(first) && !strcmp(ts_node_type(ts_node_child(first, 0)), "async"))) {
    gb(L, n, "generator", "an asynchronous generator expression");
    return NULL;
  }
  expr *e = make_function(L, n, (TSNode){0}, (TSNode){0}, (TSNode){0}, "<genexpr>", line);
  if (!e) return NULL;
  if (!(e->u.mkfn.iterable = lower_expr(L, child_by_field(first, "right")))) return NULL;
  return e;
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
    for (uint32_t i = 0; i < node_named_count(n); i++) {
      TSNode d = node_named(n, i);
      if (!node_is(d, "decorator")) continue;
      if (ndec == 64) { gb(L, n, "nested-scope", "more than 64 decorators"); return NULL; }
      decorators[ndec++] = node_named(d, 0);
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

/* A lambda's body: `return EXPR`. */
stmt *lower_lambda_body(lower *L, TSNode body) {
  expr *v = lower_expr(L, body);
  if (!v) return NULL;
  stmt *s = new_stmt(L, ST_RETURN, body);
  s->u.ret = v;
  return s;
}
