/* scope.c: phase 2, module-level names.
 *
 * Collects the module's functions (top-level defs and the methods of its
 * classes), its constants (NAME = constant
 * expression, assigned once, with a statically known number type), the names
 * bound to the math module or to its members, and every other module-level
 * binding. Names inside functions are resolved by ir/ against this table:
 * local if assigned in the function, else module global, else builtin.
 */
#include "gen.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void add_name(arena *a, const char ***arr, int *n, const char *name) {
  for (int i = 0; i < *n; i++) if (!strcmp((*arr)[i], name)) return;
  const char **na = arena_alloc(a, sizeof(char *) * (size_t)(*n + 1));
  if (*n) memcpy(na, *arr, sizeof(char *) * (size_t)*n);
  na[(*n)++] = name;
  *arr = na;
}

func *scope_find_func(module *m, const char *name) { /* a module-level def, by its global name */
  for (int i = m->nfuncs - 1; i >= 0; i--)
    if (!m->funcs[i]->method && !m->funcs[i]->nested && !strcmp(m->funcs[i]->name, name)) return m->funcs[i];
  return NULL;
}

const modconst *scope_find_const(module *m, const char *name) {
  for (int i = 0; i < m->nconsts; i++)
    if (!strcmp(m->consts[i].name, name)) return &m->consts[i];
  return NULL;
}

const char *scope_math_from(module *m, const char *name) {
  for (int i = 0; i < m->nmath_from; i++)
    if (!strcmp(m->math_from_names[i], name)) return m->math_from_attrs[i];
  return NULL;
}

bool scope_is_math_module(module *m, const char *name) {
  for (int i = 0; i < m->nmath_module_names; i++)
    if (!strcmp(m->math_module_names[i], name)) return true;
  return false;
}

static void note_import(module *m, const char *bound, const char *target) {
  int k = m->nimports;
  for (int i = 0; i < k; i++)
    if (!strcmp(m->import_names[i], bound)) { m->import_targets[i] = target; return; }
  const char **names = arena_alloc(m->a, sizeof(char *) * (size_t)(k + 1));
  const char **targets = arena_alloc(m->a, sizeof(char *) * (size_t)(k + 1));
  if (k) { memcpy(names, m->import_names, sizeof(char *) * (size_t)k);
           memcpy(targets, m->import_targets, sizeof(char *) * (size_t)k); }
  names[k] = bound; targets[k] = target;
  m->import_names = names; m->import_targets = targets; m->nimports = k + 1;
}

const char *scope_import_target(const module *m, const char *name) {
  for (int i = 0; i < m->nimports; i++)
    if (!strcmp(m->import_names[i], name)) return m->import_targets[i];
  return NULL;
}

const char *scope_canonical_names(module *m, const char *text) {
  strbuf b = {0};
  for (const char *p = text; *p;) {
    bool head = p == text || p[-1] != '.';
    if ((isalpha((unsigned char)*p) || *p == '_') && head) {
      const char *s = p;
      while (isalnum((unsigned char)*p) || *p == '_') p++;
      char *word = arena_strndup(m->a, s, (size_t)(p - s));
      const char *target = scope_import_target(m, word);
      sb_puts(&b, target ? target : word);
    } else if (isalnum((unsigned char)*p) || *p == '_') { /* an attribute: as written */
      while (isalnum((unsigned char)*p) || *p == '_') sb_putn(&b, p++, 1);
    } else sb_putn(&b, p++, 1);
  }
  const char *r = arena_strdup(m->a, b.data ? b.data : "");
  sb_free(&b);
  return r;
}

bool scope_is_global(module *m, const char *name) {
  if (scope_find_func(m, name) || scope_find_const(m, name) || scope_math_from(m, name) ||
      scope_is_math_module(m, name))
    return true;
  for (int i = 0; i < m->nother_globals; i++)
    if (!strcmp(m->other_globals[i], name)) return true;
  return false;
}

/* The number type of a module-level constant expression, or NULL. */
static const type *const_type(module *m, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "integer")) return &ty_int;
  if (!strcmp(t, "float")) return &ty_float;
  if (!strcmp(t, "true") || !strcmp(t, "false")) return &ty_bool;
  if (!strcmp(t, "parenthesized_expression"))
    return const_type(m, node_named(n, 0));
  if (!strcmp(t, "identifier")) {
    char *name = node_text(m->a, &m->p, n);
    const modconst *c = scope_find_const(m, name);
    return c && c->ty->kind != TY_CONFLICT ? c->ty : NULL;
  }
  if (!strcmp(t, "attribute")) {
    TSNode obj = child_by_field(n, "object");
    char *attr = node_text(m->a, &m->p, child_by_field(n, "attribute"));
    if (node_is(obj, "identifier") && scope_is_math_module(m, node_text(m->a, &m->p, obj)) &&
        ops_is_math_const(attr))
      return &ty_float;
    return NULL;
  }
  if (!strcmp(t, "unary_operator")) {
    const type *a = const_type(m, child_by_field(n, "argument"));
    if (!a) return NULL;
    return a->kind == TY_BOOL ? &ty_int : a;
  }
  if (!strcmp(t, "binary_operator")) {
    const type *l = const_type(m, child_by_field(n, "left"));
    const type *r = const_type(m, child_by_field(n, "right"));
    char *op = node_text(m->a, &m->p, child_by_field(n, "operator"));
    if (!l || !r) return NULL;
    if (!strcmp(op, "/")) return &ty_float;
    if (l->kind == TY_FLOAT || r->kind == TY_FLOAT) {
      if (!strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "//") ||
          !strcmp(op, "%"))
        return &ty_float;
      return NULL;
    }
    if (!strcmp(op, "**")) return NULL; /* int ** int may be a float */
    return &ty_int;
  }
  return NULL;
}

static void note_binding(module *m, const char *name) {
  add_name(m->a, &m->other_globals, &m->nother_globals, name);
}

/* Every identifier bound by a target pattern (a, (b, c), x.y is not). */
static void bind_targets(module *m, TSNode n) {
  if (node_is(n, "identifier")) { note_binding(m, node_text(m->a, &m->p, n)); return; }
  if (node_is(n, "attribute") || node_is(n, "subscript")) return;
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) bind_targets(m, node_named(n, i));
}

static void scope_import(module *m, TSNode n) {
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) {
    TSNode item = node_named(n, i);
    char *modname, *bound;
    if (node_is(item, "aliased_import")) {
      modname = node_text(m->a, &m->p, child_by_field(item, "name"));
      bound = node_text(m->a, &m->p, child_by_field(item, "alias"));
      note_import(m, bound, modname);
    } else {
      modname = node_text(m->a, &m->p, item);
      bound = arena_strdup(m->a, modname);
      char *dot = strchr(bound, '.');
      if (dot) *dot = 0;
      note_import(m, bound, bound); /* `import numpy.typing` binds numpy */
    }
    if (!strcmp(modname, "math"))
      add_name(m->a, &m->math_module_names, &m->nmath_module_names, bound);
    else note_binding(m, bound);
    if (!strcmp(bound, "dynac")) m->imports_dynac = true;
    if (!strcmp(bound, "torch")) m->imports_torch = true;
  }
}

static void scope_import_from(module *m, TSNode n) {
  TSNode mod = child_by_field(n, "module_name");
  char *modname = node_text(m->a, &m->p, mod);
  bool is_math = !strcmp(modname, "math");
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) {
    TSNode item = node_named(n, i);
    if (ts_node_eq(item, mod)) continue;
    char *attr, *bound;
    if (node_is(item, "aliased_import")) {
      attr = node_text(m->a, &m->p, child_by_field(item, "name"));
      bound = node_text(m->a, &m->p, child_by_field(item, "alias"));
    } else if (node_is(item, "dotted_name")) {
      attr = bound = node_text(m->a, &m->p, item);
    } else {
      continue; /* wildcard: names unknown; reads of them resolve as builtins/globals */
    }
    if (!node_is(mod, "relative_import"))
      note_import(m, bound, arena_printf(m->a, "%s.%s", modname, attr));
    if (is_math && ops_find(OPS_MATH, attr, -1)) {
      int k = m->nmath_from;
      const char **names = arena_alloc(m->a, sizeof(char *) * (size_t)(k + 1));
      const char **attrs = arena_alloc(m->a, sizeof(char *) * (size_t)(k + 1));
      if (k) { memcpy(names, m->math_from_names, sizeof(char *) * (size_t)k);
               memcpy(attrs, m->math_from_attrs, sizeof(char *) * (size_t)k); }
      names[k] = bound; attrs[k] = attr;
      m->math_from_names = names; m->math_from_attrs = attrs; m->nmath_from = k + 1;
    } else {
      note_binding(m, bound);
    }
  }
}

static func *scope_function(module *m, TSNode def, int firstlineno) {
  func *f = arena_alloc(m->a, sizeof *f);
  f->node = def;
  f->name = node_is(def, "lambda") ? "<lambda>" : node_text(m->a, &m->p, child_by_field(def, "name"));
  f->qualname = f->name;
  f->pos = node_pos(def);
  f->firstlineno = firstlineno ? firstlineno : f->pos.line;
  func **nf = arena_alloc(m->a, sizeof(func *) * (size_t)(m->nfuncs + 1));
  if (m->nfuncs) memcpy(nf, m->funcs, sizeof(func *) * (size_t)m->nfuncs);
  nf[m->nfuncs++] = f;
  m->funcs = nf;
  return f;
}

/* Is node `n` (a statement's parent) in the body of the nearest scope, a
 * node of type `scope` ("class_definition"; "module"), directly or in its
 * if/for/while/try/with blocks? A def there is made when the scope's code
 * runs, with the scope's qualname prefix. */
static bool in_scope_body(TSNode n, const char *scope) {
  for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
    const char *t = ts_node_type(n);
    if (!strcmp(t, scope)) return true;
    if (!strcmp(t, "function_definition") || !strcmp(t, "lambda") || !strcmp(t, "class_definition") ||
        !strcmp(t, "module") || strstr(t, "comprehension") || !strcmp(t, "generator_expression") ||
        !strcmp(t, "parameters") || !strcmp(t, "lambda_parameters")) /* a default's: its def's scope */
      return false;
  }
  return false;
}

/* Lambdas of one qualname starting on one line as the new one f: none is
 * compiled (code objects are matched by qualname and first line). */
static void refuse_lambdas_on_one_line(module *m, func *f) {
  for (int i = 0; i < m->nfuncs - 1; i++)
    if (m->funcs[i]->nested && !strcmp(m->funcs[i]->qualname, f->qualname) && m->funcs[i]->firstlineno == f->firstlineno)
      m->funcs[i]->not_compiled = f->not_compiled = "another lambda starts on the same line (code objects "
                                                    "are told apart by qualname and first line)";
}

/* A def or lambda the module's code or a class body's makes as it runs (in
 * an if/try/for/with block, a module-level or class-level lambda): compiled
 * as its own function like a nested one (no direct calls: which def a name
 * holds is known when it runs). */
static bool scope_made_by_block(module *m, TSNode n, const char *qualname) {
  bool lam = node_is(n, "lambda");
  TSNode decorated = ts_node_parent(n);
  bool dec = !lam && node_is(decorated, "decorated_definition");
  TSNode up = dec ? ts_node_parent(decorated) : ts_node_parent(n);
  if (!in_scope_body(up, "module") && !in_scope_body(up, "class_definition")) return false;
  func *f = scope_function(m, n, dec ? node_pos(decorated).line : 0);
  f->qualname = qualname;
  f->nested = true;
  if (lam) refuse_lambdas_on_one_line(m, f);
  return true;
}

/* A def in the body of a class (not inside a function): a method, a
 * classmethod or a staticmethod by its decorators, with CPython's qualname
 * ("Class.name", "Outer.Inner.name"). */
static bool scope_method(module *m, TSNode def, const char *qualname) {
  TSNode up = ts_node_parent(def);
  TSNode decorated = node_is(up, "decorated_definition") ? up : (TSNode){0};
  if (!ts_node_is_null(decorated)) up = ts_node_parent(up);
  if (!in_scope_body(up, "class_definition")) return false;
  func *f = scope_function(m, def, ts_node_is_null(decorated) ? 0 : node_pos(decorated).line);
  f->qualname = qualname;
  f->method = 'm';
  uint32_t c = ts_node_is_null(decorated) ? 0 : node_named_count(decorated);
  for (uint32_t i = 0; i < c; i++) {
    TSNode d = node_named(decorated, i);
    if (!node_is(d, "decorator")) continue;
    const char *name = node_text(m->a, &m->p, node_named(d, 0));
    if (!strcmp(name, "staticmethod")) f->method = 's';
    if (!strcmp(name, "classmethod")) f->method = 'c';
  }
  return true;
}

static void scope_assignment(module *m, TSNode asg) {
  TSNode left = child_by_field(asg, "left");
  TSNode right = child_by_field(asg, "right");
  if (node_is(right, "assignment")) scope_assignment(m, right); /* a = b = 1 */
  if (!node_is(left, "identifier")) { bind_targets(m, left); return; }
  char *name = node_text(m->a, &m->p, left);
  const type *t = ts_node_is_null(right) ? NULL : const_type(m, node_is(right, "assignment") ?
                                                   child_by_field(right, "right") : right);
  for (int i = 0; i < m->nconsts; i++) {
    if (!strcmp(m->consts[i].name, name)) {
      m->consts[i].assignments++;
      if (!t || t != m->consts[i].ty) m->consts[i].ty = &ty_conflict;
      return;
    }
  }
  if (!t) { note_binding(m, name); return; }
  modconst *nc = arena_alloc(m->a, sizeof(modconst) * (size_t)(m->nconsts + 1));
  if (m->nconsts) memcpy(nc, m->consts, sizeof(modconst) * (size_t)m->nconsts);
  TSNode value = node_is(right, "assignment") ? child_by_field(right, "right") : right;
  nc[m->nconsts++] = (modconst){name, t, 1, value};
  m->consts = nc;
}

/* Bindings inside module-level compound statements (if/for/try/class...). */
static void scope_nested_bindings(module *m, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")) {
    note_binding(m, node_text(m->a, &m->p, child_by_field(n, "name")));
    return;
  }
  if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment")) {
    bind_targets(m, child_by_field(n, "left"));
  } else if (!strcmp(t, "for_statement")) {
    bind_targets(m, child_by_field(n, "left"));
  } else if (!strcmp(t, "import_statement") || !strcmp(t, "import_from_statement")) {
    uint32_t c = node_named_count(n);
    for (uint32_t i = 0; i < c; i++) {
      TSNode it = node_named(n, i);
      TSNode alias = child_by_field(it, "alias");
      char *nm = node_text(m->a, &m->p, ts_node_is_null(alias) ? it : alias);
      char *dot = strchr(nm, '.');
      if (dot) *dot = 0;
      note_binding(m, nm);
    }
  }
  uint32_t c = node_named_count(n);
  for (uint32_t i = 0; i < c; i++) scope_nested_bindings(m, node_named(n, i));
}

/* The def or lambda whose body holds `n` directly (no class body or
 * comprehension between them, whose scopes have other qualnames), or a
 * null node. */
static TSNode enclosing_function(TSNode n) {
  for (TSNode prev = n, up = ts_node_parent(n); !ts_node_is_null(up); prev = up, up = ts_node_parent(up)) {
    const char *t = ts_node_type(up);
    if (!strcmp(t, "function_definition") || !strcmp(t, "lambda")) /* its body's, not its defaults' */
      return ts_node_eq(prev, child_by_field(up, "body")) ? up : (TSNode){0};
    if (!strcmp(t, "class_definition") || strstr(t, "comprehension") || !strcmp(t, "generator_expression"))
      break;
  }
  return (TSNode){0};
}

/* Does block `n` (a function's body; nested scopes aside) declare `name`
 * global? */
static bool declares_global(module *m, TSNode n, const char *name) {
  if (ts_node_is_null(n) || node_is(n, "function_definition") || node_is(n, "class_definition") ||
      node_is(n, "lambda"))
    return false;
  for (uint32_t i = 0; i < node_named_count(n); i++) {
    TSNode ch = node_named(n, i);
    if (node_is(n, "global_statement") && !strcmp(node_text(m->a, &m->p, ch), name)) return true;
    if (declares_global(m, ch, name)) return true;
  }
  return false;
}

/* A def or lambda nested in a function: compiled as its own function
 * (its code object is a constant of its parent's), unless another lambda
 * of the same qualname starts on the same line (code objects are matched
 * by qualname and first line). */
static bool scope_nested(module *m, TSNode n, const char *qualname) {
  TSNode up = enclosing_function(n);
  if (ts_node_is_null(up)) return false;
  bool lam = node_is(n, "lambda");
  TSNode decorated = ts_node_parent(n);
  int first = !lam && node_is(decorated, "decorated_definition") ? node_pos(decorated).line : 0;
  func *f = scope_function(m, n, first);
  f->qualname = qualname;
  f->enclosing = up;
  f->nested = true;
  if (lam) refuse_lambdas_on_one_line(m, f);
  return true;
}

/* The name CPython 3.11 gives the code of a comprehension of node type t
 * ("<listcomp>"), or NULL. */
static const char *comprehension_code(const char *t) {
  return !strcmp(t, "list_comprehension") ? "<listcomp>" : !strcmp(t, "set_comprehension") ? "<setcomp>"
         : !strcmp(t, "dictionary_comprehension") ? "<dictcomp>" : !strcmp(t, "generator_expression") ? "<genexpr>"
         : NULL;
}

/* Is n a comprehension's first for clause? */
static bool first_for_clause(TSNode n) {
  TSNode comp = ts_node_parent(n);
  if (!node_is(n, "for_in_clause") || ts_node_is_null(comp) || !comprehension_code(ts_node_type(comp))) return false;
  for (uint32_t i = 0; i < node_named_count(comp); i++)
    if (node_is(node_named(comp, i), "for_in_clause")) return ts_node_eq(node_named(comp, i), n);
  return false;
}

/* Every function of the module that is not a module-level def: methods
 * (in classes), nested functions and lambdas, with CPython's qualname. An
 * iterative walk (the tree's depth is bounded by parse.c, the name stack
 * by the same bound). */
static void scope_other_functions(module *m) {
  TSTreeCursor c = ts_tree_cursor_new(m->p.root);
  const char **prefix = arena_alloc(m->a, sizeof(char *) * (DYNAC_MAX_NESTING + 2));
  prefix[0] = ""; /* prefix[d]: the qualname prefix inside the node at depth d */
  int depth = 0, cap = 0;
  for (bool down = true;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    const char *t = ts_node_type(n);
    const char *inner = prefix[depth];
    if (down) {
      bool def = !strcmp(t, "function_definition"), cls = !strcmp(t, "class_definition");
      bool lam = !strcmp(t, "lambda") && ts_node_is_named(n); /* not the keyword's token */
      const char *name = def || cls ? node_text(m->a, &m->p, child_by_field(n, "name")) : "<lambda>";
      bool nested = *prefix[depth] != 0;
      bool top_def = def && !nested && (depth == 1 || (depth == 2 && node_is(ts_node_parent(n),
                                                                              "decorated_definition")));
      bool method = def && nested && scope_method(m, n, arena_printf(m->a, "%s%s", prefix[depth], name));
      /* a def whose name its function declares global is qualified by its name alone (CPython's
         compiler_set_qualname) */
      const char *qual = def && !ts_node_is_null(enclosing_function(n)) &&
                         declares_global(m, child_by_field(enclosing_function(n), "body"), name)
                         ? name : arena_printf(m->a, "%s%s", prefix[depth], name);
      if (((def && !top_def) || lam) && !method && nested && scope_nested(m, n, qual)) {
        /* compiled as its own function */
      } else if (((def && !top_def) || lam) && !method && scope_made_by_block(m, n, qual)) {
        /* compiled as its own function */
      } else if (((def && !top_def) || lam) && !method) {
        const char *reason = lam ? "a lambda outside a function's body (a default value, a decorator, "
                               "a class body, a comprehension or module level: not compiled yet)"
                             : !nested ? "defined inside a module-level if/for/try/with block "
                               "(not compiled yet: define it at the top level)"
                             : strstr(prefix[depth], "<locals>") ? "a def in a class or a comprehension "
                               "inside a function (not compiled yet)"
                             : "defined in a class body's nested block (not compiled yet)";
        if (m->nothers == cap) {
          cap = cap ? 2 * cap : 16;
          other_func *o = arena_alloc(m->a, sizeof(other_func) * (size_t)cap);
          if (m->nothers) memcpy(o, m->others, sizeof(other_func) * (size_t)m->nothers);
          m->others = o;
        }
        m->others[m->nothers++] = (other_func){qual, node_pos(n), reason};
      }
      if (def || lam) inner = arena_printf(m->a, "%s.<locals>.", qual);
      else if (cls) inner = arena_printf(m->a, "%s%s.", prefix[depth], name);
      else if (comprehension_code(t)) inner = arena_printf(m->a, "%s%s.", prefix[depth], comprehension_code(t));
      else if (first_for_clause(n)) inner = prefix[depth - 1]; /* its iterable is the enclosing scope's */
      if (depth <= DYNAC_MAX_NESTING && ts_tree_cursor_goto_first_child(&c)) {
        prefix[++depth] = inner;
        continue;
      }
    }
    if (ts_tree_cursor_goto_next_sibling(&c)) { down = true; continue; }
    down = false;
    if (!ts_tree_cursor_goto_parent(&c)) break;
    depth--;
  }
  ts_tree_cursor_delete(&c);
}

/* Source order (methods are found before the module-level defs). */
static int by_position(const void *a, const void *b) {
  const func *x = *(func *const *)a, *y = *(func *const *)b;
  return x->pos.line != y->pos.line ? (x->pos.line > y->pos.line) - (x->pos.line < y->pos.line)
                                    : (x->pos.col > y->pos.col) - (x->pos.col < y->pos.col);
}
static void sort_by_position(func **fs, int n) {
  if (n > 1) qsort(fs, (size_t)n, sizeof *fs, by_position);
}

/* Function i's C stem: its name, a method's qualname with "__" for each
 * '.'; one that an earlier function's stem already took gets "_<index>". */
static void name_in_c(module *m, int i) {
  func *f = m->funcs[i];
  strbuf b = {0};
  for (const char *p = f->qualname; *p; p++)
    if (*p != '<' && *p != '>') sb_puts(&b, *p == '.' ? "__" : (char[]){*p, 0}); /* <locals>: locals */
  f->cname = arena_strdup(m->a, b.data);
  sb_free(&b);
  for (int j = 0; j < i; j++)
    if (!strcmp(m->funcs[j]->cname, f->cname)) {
      f->cname = arena_printf(m->a, "%s_%d", f->cname, i);
      break;
    }
}

/* A method the module's source does not hold (a @dataclass's __init__,
 * dataclass_init.c): `def` of the appended text, named `qualname`, after
 * the source's functions. */
func *scope_synthesised_method(module *m, TSNode def, const char *qualname) {
  func *f = scope_function(m, def, 0);
  f->qualname = qualname;
  f->method = 'm';
  name_in_c(m, m->nfuncs - 1);
  return f;
}

/* Names some function declares `global`: the function may rebind them, so
 * they are no module constants. */
static void scope_global_declarations(module *m, TSNode n) {
  if (node_is(n, "global_statement")) {
    for (uint32_t i = 0; i < node_named_count(n); i++)
      if (node_is(node_named(n, i), "identifier"))
        note_binding(m, node_text(m->a, &m->p, node_named(n, i)));
    return;
  }
  for (uint32_t i = 0; i < node_named_count(n); i++)
    scope_global_declarations(m, node_named(n, i));
}

bool scope_module(module *m) {
  scope_other_functions(m);
  scope_global_declarations(m, m->p.root);
  TSNode root = m->p.root;
  uint32_t c = node_named_count(root);
  for (uint32_t i = 0; i < c; i++) {
    TSNode st = node_named(root, i);
    const char *t = ts_node_type(st);
    if (!strcmp(t, "function_definition")) {
      scope_function(m, st, 0);
    } else if (!strcmp(t, "decorated_definition")) {
      TSNode def = child_by_field(st, "definition");
      if (node_is(def, "function_definition")) scope_function(m, def, node_pos(st).line);
      else note_binding(m, node_text(m->a, &m->p, child_by_field(def, "name")));
    } else if (!strcmp(t, "expression_statement")) {
      TSNode e = node_named(st, 0);
      if (node_is(e, "assignment")) scope_assignment(m, e);
      else if (node_is(e, "augmented_assignment")) scope_nested_bindings(m, e);
    } else if (!strcmp(t, "import_statement")) {
      scope_import(m, st);
    } else if (!strcmp(t, "import_from_statement")) {
      scope_import_from(m, st);
    } else if (!strcmp(t, "future_import_statement")) {
      for (uint32_t k = 0; k < node_named_count(st); k++)
        if (!strcmp(node_text(m->a, &m->p, node_named(st, k)), "annotations")) m->future_annotations = true;
    } else {
      scope_nested_bindings(m, st);
    }
  }
  /* A name bound both as a constant and elsewhere is not a constant. */
  for (int i = 0; i < m->nconsts; i++)
    for (int j = 0; j < m->nother_globals; j++)
      if (!strcmp(m->consts[i].name, m->other_globals[j])) m->consts[i].ty = &ty_conflict;
  sort_by_position(m->funcs, m->nfuncs);
  for (int i = 0; i < m->nfuncs; i++) name_in_c(m, i);
  /* Two defs of one name (a property's getter and setter, a function
   * redefined): only the last one is reachable by name, for direct calls;
   * the earlier ones compile as nested ones do, told apart by their first
   * line (their code objects' key) and called through the C API. */
  for (int i = 0; i < m->nfuncs; i++)
    for (int j = i + 1; j < m->nfuncs; j++)
      if (!strcmp(m->funcs[i]->qualname, m->funcs[j]->qualname)) m->funcs[i]->nested = true;
  return true;
}
