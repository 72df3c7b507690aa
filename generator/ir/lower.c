/* lower.c: phase 4, syntax -> IR (this folder); this file holds what every
 * part of the lowering uses: the graph-break registry, the context of one
 * function, its locals (with versions where an interpreted statement may
 * rebind a name) and the guard slots of module-level values.
 *
 * The IR (gen.h) is tagged unions of statements and expressions with names
 * resolved to locals, guard slots (module globals, builtins, math) and
 * callees; expr.c, stmt.c and split.c lower the syntax. Anything outside
 * the kernel language becomes a graph break with an entry of the registry
 * below; a statement with one runs in the interpreter (split.c).
 */
#include "lower.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The graph-break registry: stable ids, a short type, what it means, and
 * what the user can do (after Dynamo's graph-break registry). */
const struct gb_registry gb_registry[] = {
    {"GB0001", "unsupported-statement", "this statement is not in the kernel language",
     "move it out of the hot function, or accept that the function runs in the interpreter"},
    {"GB0002", "unsupported-expression", "this expression is not in the kernel language",
     "kernels take int, float and bool values, tuples, and lists and buffers passed as arguments"},
    {"GB0003", "unknown-call", "call to a function that dynac cannot see into",
     "call a function of this module, a math function or a supported builtin; or mark the "
     "callee @dynac.allow_in_graph (an opaque call inside the graph)"},
    {"GB0004", "unsupported-operator", "operator not in the kernel language",
     "use arithmetic, comparison and boolean operators on numbers"},
    {"GB0005", "nested-scope", "a nested scope kernels do not make: a class body, a set/dict/generator "
     "comprehension kernels do not inline, a def or lambda inside a comprehension, or a closure "
     "capturing a name the function binds more than once or after the def",
     "bind a captured name once before the def, or pass it in as a default (lambda i=i: ...); "
     "move classes to module level"},
    {"GB0006", "scope-declaration", "'nonlocal' in a nested function (it assigns the enclosing "
     "function's local)", "return the value instead of assigning the enclosing function's local"},
    {"GB0007", "attribute-access", "attribute access on an arbitrary object",
     "only math.NAME is read inside kernels"},
    {"GB0008", "big-int-literal", "integer literal outside the int64 range (no longer a break: "
     "such a literal is a Python int made once, its operations through the C API)", ""},
    {"GB0009", "keyword-arguments", "call with keyword, *args or **kwargs arguments",
     "pass the arguments positionally"},
    {"GB0010", "exception-handling", "try with finally, except*, with, or a raise/assert form "
     "kernels do not take (try/except/else, raise and assert compile)",
     "move the finally/with block into a helper function the hot function calls"},
    {"GB0011", "generator", "yield or await: generators and coroutines are not compiled",
     "return values instead of yielding them"},
    {"GB0012", "explicit-graph-break", "dynac.graph_break() / torch._dynamo.graph_break()",
     "remove the call to compile the whole function"},
    {"GB0013", "call-to-uncompiled", "call to a function of this module that has no kernel",
     "see the callee's own graph breaks"},
    {"GB0014", "unsupported-loop", "for loop over something other than range(...), a list, a tuple or a buffer",
     "iterate over range(...), or a list or buffer (with enumerate, zip or reversed)"},
    {"GB0016", "parser-limitation", "Tree-sitter could not parse this function (CPython can)",
     "report the construct; the function runs in the interpreter meanwhile"},
    {"GB0015", "type-error", "the types at this point are not supported by the kernel",
     "see the reason; values of mixed types (int and float in one variable) stay in the "
     "interpreter"},
    {"GB0017", "disabled-callee", "call to a function marked disable",
     "the disabled function runs in the interpreter; remove disable to compile through the call"},
    {"GB0018", "disallowed-call", "call to a function marked disallow_in_graph",
     "allow_in_graph(fn) reverses disallow_in_graph(fn)"},
    {"GB0019", "opaque-call", "the result of an allow_in_graph call is used but its type is "
     "not declared", "annotate the callee's return type (-> float, int or bool), or call it "
     "as a statement"},
    {"GB0020", "constant-result", "an assume_constant_result call the kernel cannot fold",
     "call it without arguments and annotate its return type (-> float, int or bool)"},
    {NULL, NULL, NULL, NULL}};

const struct gb_registry *gb_lookup(const char *type) {
  for (const struct gb_registry *r = gb_registry; r->id; r++)
    if (!strcmp(r->type, type)) return r;
  return &gb_registry[0];
}

void gb(lower *L, TSNode n, const char *type, const char *reason) {
  const struct gb_registry *r = gb_lookup(type);
  gbreak *b = arena_alloc(L->m->a, sizeof *b);
  b->pos = node_pos(n);
  b->id = r->id;
  b->type = r->type;
  b->reason = reason;
  b->hint = r->hint;
  gbreak **tail = &L->f->breaks;
  while (*tail) tail = &(*tail)->next;
  *tail = b;
}

char *text(lower *L, TSNode n) { return node_text(L->m->a, &L->m->p, n); }

int count_breaks(lower *L) {
  int n = 0;
  for (gbreak *b = L->f->breaks; b; b = b->next) n++;
  return n;
}

slot *ir_slot(module *m, slotkind kind, const char *name, const char *attr,
              const type *ty, func *fn, int module_slot) {
  for (int i = 0; i < m->nslots; i++) {
    slot *s = m->slots[i];
    if (s->kind == kind && !strcmp(s->name, name) && s->module_slot == module_slot &&
        (!attr || (s->attr && !strcmp(s->attr, attr))))
      return s;
  }
  slot *s = arena_alloc(m->a, sizeof *s);
  *s = (slot){.kind = kind, .name = name, .attr = attr, .ty = ty, .fn = fn,
              .module_slot = module_slot, .index = m->nslots};
  slot **ns = arena_alloc(m->a, sizeof(slot *) * (size_t)(m->nslots + 1));
  if (m->nslots) memcpy(ns, m->slots, sizeof(slot *) * (size_t)m->nslots);
  ns[m->nslots++] = s;
  m->slots = ns;
  return s;
}

/* ---- locals -------------------------------------------------------------- */
/* Base names are found through a hash table (open addressing, FNV-1a) on
 * the function: a lookup per name read or written, so a linear scan would
 * make a function with many names quadratic. */
static uint32_t name_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}
static int *name_slot(func *f, const char *name) {
  uint32_t mask = (uint32_t)f->name_cap - 1;
  for (uint32_t i = name_hash(name) & mask;; i = (i + 1) & mask)
    if (f->name_index[i] < 0 || !strcmp(f->locals[f->name_index[i]], name)) return &f->name_index[i];
}
static void index_name(lower *L, int local) {
  func *f = L->f;
  if (2 * (f->name_count + 1) > f->name_cap) { /* grow: keep it at most half full */
    int old_cap = f->name_cap, *old = f->name_index;
    f->name_cap = old_cap ? 2 * old_cap : 64;
    f->name_index = arena_alloc(L->m->a, sizeof(int) * (size_t)f->name_cap);
    for (int i = 0; i < f->name_cap; i++) f->name_index[i] = -1;
    for (int i = 0; i < old_cap; i++) if (old[i] >= 0) *name_slot(f, f->locals[old[i]]) = old[i];
  }
  int *slot = name_slot(f, f->locals[local]);
  if (*slot < 0) { *slot = local; f->name_count++; }
}

/* The base local named `name`, or -1 (versions repeat their base's name
 * after it; only base names are indexed). */
int find_local(func *f, const char *name) {
  return f->name_cap ? *name_slot(f, name) : -1;
}

/* Appends a local; the name arrays grow by doubling (amortised O(1): a
 * long function has a version per rebinding). */
int append_local(lower *L, const char *name, const char *cname) {
  func *f = L->f;
  if (f->nlocals == f->locals_cap) {
    int cap = f->locals_cap ? 2 * f->locals_cap : 16;
    const char **nl = arena_alloc(L->m->a, sizeof(char *) * (size_t)cap);
    const char **nc = arena_alloc(L->m->a, sizeof(char *) * (size_t)cap);
    if (f->nlocals) {
      memcpy(nl, f->locals, sizeof(char *) * (size_t)f->nlocals);
      memcpy(nc, f->local_cnames, sizeof(char *) * (size_t)f->nlocals);
    }
    f->locals = nl;
    f->local_cnames = nc;
    f->locals_cap = cap;
  }
  f->locals[f->nlocals] = name;
  f->local_cnames[f->nlocals] = cname;
  if (!f->nbase) index_name(L, f->nlocals); /* a base name: before lowering fixes them */
  return f->nlocals++;
}

/* Is `name` declared `global` in the function being lowered? */
bool declared_global(lower *L, const char *name) {
  for (int i = 0; i < L->f->ndeclared_globals; i++)
    if (!strcmp(L->f->declared_globals[i], name)) return true;
  return false;
}

/* The names of the function's `global` statements (nested scopes aside:
 * their declarations are their own), wherever they are in its body:
 * Python's compile-time rule. */
void collect_global_declarations(lower *L, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") || !strcmp(t, "lambda"))
    return;
  if (!strcmp(t, "global_statement")) {
    func *f = L->f;
    for (uint32_t i = 0; i < node_named_count(n); i++) {
      TSNode id = node_named(n, i);
      if (!node_is(id, "identifier") || declared_global(L, text(L, id))) continue;
      const char **grown = arena_alloc(L->m->a, sizeof(char *) * (size_t)(f->ndeclared_globals + 1));
      if (f->ndeclared_globals) memcpy(grown, f->declared_globals, sizeof(char *) * (size_t)f->ndeclared_globals);
      grown[f->ndeclared_globals++] = text(L, id);
      f->declared_globals = grown;
    }
    return;
  }
  for (uint32_t i = 0; i < node_named_count(n); i++)
    collect_global_declarations(L, node_named(n, i));
}

void add_local(lower *L, const char *name) {
  if (find_local(L->f, name) >= 0 || declared_global(L, name) || find_freevar(L->f, name) >= 0) return;
  append_local(L, name, name);
}

/* The local a read or write of base local `base` refers to here. */
int current_version(lower *L, int base) {
  return base >= 0 && base < L->ncurrent ? L->current[base] : base;
}

/* The local a name refers to here: a comprehension's own name, else the
 * current version of the function's local; -1 if it is not a local. */
int resolve_local(lower *L, const char *name) {
  for (int i = L->ncomp_names - 1; i >= 0; i--)
    if (!strcmp(L->comp_names[i].name, name)) return L->comp_names[i].local;
  int base = find_local(L->f, name);
  return base < 0 ? -1 : current_version(L, base);
}

/* A C name for a hidden local or a version no other local has (a user's
 * own `uid_1` beside the second version of `uid`). */
const char *unique_cname(lower *L, const char *want) {
  const char *c = want;
  for (int k = 1;; k++) {
    bool taken = false;
    for (int i = 0; i < L->f->nlocals; i++) if (!strcmp(L->f->local_cnames[i], c)) taken = true;
    if (!taken) return c;
    c = arena_printf(L->m->a, "%s_%d", want, k);
  }
}

/* A rebinding in straight-line top-level code starts a new version of the
 * name (its own C variable and type): reads after it see the new value,
 * reads before it the old one, exactly as in CPython. */
int new_version(lower *L, int base) {
  int k = ++L->nversions[base]; /* x_1, x_2, ...: the count of x's versions so far */
  int v = append_local(L, L->f->locals[base],
                       unique_cname(L, arena_printf(L->m->a, "%s_%d", L->f->locals[base], k)));
  L->current[base] = v;
  L->snapshot = NULL; /* the next statement's cur_after is a new one */
  return v;
}

static void collect_target_names(lower *L, TSNode n) {
  if (node_is(n, "identifier")) { add_local(L, text(L, n)); return; }
  if (node_is(n, "attribute") || node_is(n, "subscript")) return;
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) collect_target_names(L, node_named(n, i));
}

/* Every name the function binds is local (Python's compile-time rule). */
void collect_locals(lower *L, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")) {
    add_local(L, text(L, child_by_field(n, "name")));
    return;
  }
  if (!strcmp(t, "lambda") || !strcmp(t, "list_comprehension") ||
      !strcmp(t, "set_comprehension") || !strcmp(t, "dictionary_comprehension") ||
      !strcmp(t, "generator_expression"))
    return;
  if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment") ||
      !strcmp(t, "for_statement"))
    collect_target_names(L, child_by_field(n, "left"));
  if (!strcmp(t, "named_expression")) add_local(L, text(L, child_by_field(n, "name")));
  if (!strcmp(t, "as_pattern_target")) collect_target_names(L, n);
  if (!strcmp(t, "except_clause") && !ts_node_is_null(child_by_field(n, "alias")))
    collect_target_names(L, child_by_field(n, "alias")); /* except E as name */
  if (!strcmp(t, "import_statement") || !strcmp(t, "import_from_statement")) {
    uint32_t c = node_named_count(n);
    for (uint32_t i = 0; i < c; i++) {
      TSNode it = node_named(n, i);
      TSNode alias = child_by_field(it, "alias");
      char *nm = text(L, ts_node_is_null(alias) ? it : alias);
      char *dot = strchr(nm, '.');
      if (dot) *dot = 0;
      add_local(L, nm);
    }
  }
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) collect_locals(L, node_named(n, i));
}
