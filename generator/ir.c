/* ir.c: phase 4, syntax -> IR.
 *
 * Lowers one function's body to the kernel language's IR (gen.h): tagged
 * unions of statements and expressions with names resolved to locals, guard
 * slots (module globals, builtins, math) and callees. Anything outside the
 * kernel language becomes a graph break with an entry of the registry below;
 * in this slice a function with a break runs wholly in the interpreter.
 */
#include "gen.h"

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
    {"GB0005", "nested-scope", "nested function, lambda, comprehension or class",
     "move the nested definition to module level"},
    {"GB0006", "scope-declaration", "'global' or 'nonlocal' declaration",
     "return the value instead of assigning a global"},
    {"GB0007", "attribute-access", "attribute access on an arbitrary object",
     "only math.NAME is read inside kernels"},
    {"GB0008", "big-int-literal", "integer literal outside the int64 range",
     "kernels keep ints in int64 with overflow checks; big literals stay in the interpreter"},
    {"GB0009", "keyword-arguments", "call with keyword, *args or **kwargs arguments",
     "pass the arguments positionally"},
    {"GB0010", "exception-handling", "try/raise/assert/with",
     "keep error handling outside the hot function"},
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

typedef struct lower {
  module *m;
  func *f;
  int depth;       /* 0: the function's top-level block (straight-line code) */
  int *current;    /* per base local: the local index of its current version */
  int *nversions;  /* per base local: versions made so far (new_version) */
  int *snapshot;   /* `current` as the last top-level statement's cur_after, NULL once
                      a version was made since (statements share it until then) */
  bool *seen;      /* per base local: bound (or a parameter) earlier in the code */
  int ncurrent;
  int dynamic[256]; /* versions bound by interpreted statements */
  const type *hint[256]; /* their type when the statement says it (or NULL) */
  int ndynamic;
  int loops;        /* enclosing while/for loops (emit/ keeps at most 64) */
  TSNode statement_call; /* the expression statement's call being lowered, if any */
  struct { const char *name; int local; } comp_names[32]; /* names a comprehension binds:
                       they shadow the function's while its clauses are lowered */
  int ncomp_names;
  int ncomps;       /* comprehensions lowered: numbers their hidden locals */
  bool split;       /* the block being lowered is split: broken statements run in the
                       interpreter, the rest compiles (the top-level block, and the blocks
                       of interpreted compound statements) */
} lower;

static void gb(lower *L, TSNode n, const char *type, const char *reason) {
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

static char *text(lower *L, TSNode n) { return node_text(L->m->a, &L->m->p, n); }

static int count_breaks(lower *L) {
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
  *s = (slot){kind, name, attr, ty, fn, module_slot, m->nslots};
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
static int find_local(func *f, const char *name) {
  return f->name_cap ? *name_slot(f, name) : -1;
}

/* Appends a local; the name arrays grow by doubling (amortised O(1): a
 * long function has a version per rebinding). */
static int append_local(lower *L, const char *name, const char *cname) {
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

static void add_local(lower *L, const char *name) {
  if (find_local(L->f, name) >= 0) return;
  append_local(L, name, name);
}

/* The local a read or write of base local `base` refers to here. */
static int current_version(lower *L, int base) {
  return base >= 0 && base < L->ncurrent ? L->current[base] : base;
}

/* The local a name refers to here: a comprehension's own name, else the
 * current version of the function's local; -1 if it is not a local. */
static int resolve_local(lower *L, const char *name) {
  for (int i = L->ncomp_names - 1; i >= 0; i--)
    if (!strcmp(L->comp_names[i].name, name)) return L->comp_names[i].local;
  int base = find_local(L->f, name);
  return base < 0 ? -1 : current_version(L, base);
}

/* A rebinding in straight-line top-level code starts a new version of the
 * name (its own C variable and type): reads after it see the new value,
 * reads before it the old one, exactly as in CPython. */
static int new_version(lower *L, int base) {
  int k = ++L->nversions[base]; /* x_1, x_2, ...: the count of x's versions so far */
  int v = append_local(L, L->f->locals[base],
                       arena_printf(L->m->a, "%s_%d", L->f->locals[base], k));
  L->current[base] = v;
  L->snapshot = NULL; /* the next statement's cur_after is a new one */
  return v;
}

static void collect_target_names(lower *L, TSNode n) {
  if (node_is(n, "identifier")) { add_local(L, text(L, n)); return; }
  if (node_is(n, "attribute") || node_is(n, "subscript")) return;
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c; i++) collect_target_names(L, ts_node_named_child(n, i));
}

/* Every name the function binds is local (Python's compile-time rule). */
static void collect_locals(lower *L, TSNode n) {
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
  if (!strcmp(t, "import_statement") || !strcmp(t, "import_from_statement")) {
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
      TSNode it = ts_node_named_child(n, i);
      TSNode alias = child_by_field(it, "alias");
      char *nm = text(L, ts_node_is_null(alias) ? it : alias);
      char *dot = strchr(nm, '.');
      if (dot) *dot = 0;
      add_local(L, nm);
    }
  }
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c; i++) collect_locals(L, ts_node_named_child(n, i));
}

/* ---- expressions ------------------------------------------------------- */
static expr *lower_expr(lower *L, TSNode n);

static expr *lower_list_comprehension(lower *L, TSNode n);
static bool bind_comp_names(lower *L, TSNode n);

static expr *new_expr(lower *L, exkind k, TSNode n) {
  expr *e = arena_alloc(L->m->a, sizeof *e);
  e->kind = k;
  e->pos = node_pos(n);
  e->id = L->f->nexprs++;
  return e;
}

/* integer: 123, 1_000, 0x1F, 0o17, 0b101 */
static expr *lower_integer(lower *L, TSNode n) {
  char *s = text(L, n), *d = s;
  for (char *p = s; *p; p++) if (*p != '_') *d++ = *p;
  *d = 0;
  if (strchr("jJ", s[strlen(s) - 1])) {
    gb(L, n, "unsupported-expression", "complex literal");
    return NULL;
  }
  int base = 10;
  const char *digits = s;
  if (s[0] == '0' && s[1]) {
    char b = s[1] | 0x20;
    base = b == 'x' ? 16 : b == 'o' ? 8 : b == 'b' ? 2 : 10;
    if (base != 10) digits = s + 2;
  }
  errno = 0;
  char *end;
  unsigned long long v = strtoull(digits, &end, base);
  if (errno || *end || v > (unsigned long long)INT64_MAX) {
    gb(L, n, "big-int-literal", arena_printf(L->m->a, "integer literal %s", s));
    return NULL;
  }
  expr *e = new_expr(L, EX_INT, n);
  e->u.i = (int64_t)v;
  return e;
}

/* float: 1.5, 1e9, 1_0.5; the C library's strtod rounds as CPython does. */
static expr *lower_float(lower *L, TSNode n) {
  char *s = text(L, n), *d = s;
  for (char *p = s; *p; p++) if (*p != '_') *d++ = *p;
  *d = 0;
  if (strchr("jJ", s[strlen(s) - 1])) {
    gb(L, n, "unsupported-expression", "complex literal");
    return NULL;
  }
  expr *e = new_expr(L, EX_FLOAT, n);
  e->u.f = strtod(s, NULL);
  return e;
}

/* Does `name` here mean a builtin of the operation table (no local or
 * module global hides it)? */
static bool is_builtin_call(lower *L, const char *name) {
  if (resolve_local(L, name) >= 0 || scope_is_global(L->m, name)) return false;
  return ops_find(OPS_BUILTIN, name, -1) != NULL;
}

/* identifier: a local, a module constant, or a value from math. */
static expr *lower_identifier(lower *L, TSNode n) {
  char *name = text(L, n);
  int loc = resolve_local(L, name);
  if (loc >= 0) {
    expr *e = new_expr(L, EX_LOCAL, n);
    e->u.local = loc;
    return e;
  }
  const modconst *c = scope_find_const(L->m, name);
  if (c && c->ty->kind != TY_CONFLICT) {
    expr *e = new_expr(L, EX_GLOBAL, n);
    e->u.global = ir_slot(L->m, SLOT_GLOBAL_SCALAR, name, NULL, c->ty, NULL, -1);
    return e;
  }
  const char *attr = scope_math_from(L->m, name);
  if (attr && ops_is_math_const(attr)) {
    expr *e = new_expr(L, EX_GLOBAL, n);
    e->u.global = ir_slot(L->m, SLOT_MATH_ATTR, name, attr, &ty_float, NULL, -1);
    return e;
  }
  if (scope_find_func(L->m, name))
    gb(L, n, "unsupported-expression", arena_printf(L->m->a, "function '%s' used as a value", name));
  else if (scope_is_global(L->m, name))
    gb(L, n, "unsupported-expression",
       arena_printf(L->m->a, "global '%s' is not a constant number", name));
  else
    gb(L, n, "unsupported-expression", arena_printf(L->m->a, "name '%s' is not a local, a "
       "numeric module constant or a math value", name));
  return NULL;
}

static const char *const binop_text[] = {"+", "-", "*", "/", "//", "%", "**",
                                         "<<", ">>", "&", "|", "^", NULL};

static int binop_from_text(const char *s) {
  for (int i = 0; binop_text[i]; i++) if (!strcmp(binop_text[i], s)) return i;
  return -1;
}

/* binary_operator: left operator right */
static expr *lower_binary(lower *L, TSNode n) {
  char *op = text(L, child_by_field(n, "operator"));
  int k = binop_from_text(op);
  if (k < 0) {
    gb(L, n, "unsupported-operator", arena_printf(L->m->a, "operator '%s'", op));
    return NULL;
  }
  expr *l = lower_expr(L, child_by_field(n, "left"));
  expr *r = lower_expr(L, child_by_field(n, "right"));
  if (!l || !r) return NULL;
  expr *e = new_expr(L, EX_BINOP, n);
  e->u.bin.op = (binop)k;
  e->u.bin.l = l;
  e->u.bin.r = r;
  return e;
}

/* unary_operator: operator argument */
static expr *lower_unary(lower *L, TSNode n) {
  char *op = text(L, child_by_field(n, "operator"));
  expr *a = lower_expr(L, child_by_field(n, "argument"));
  if (!a) return NULL;
  expr *e = new_expr(L, EX_UNARY, n);
  e->u.un.op = !strcmp(op, "-") ? UN_NEG : !strcmp(op, "+") ? UN_POS : UN_INVERT;
  e->u.un.a = a;
  return e;
}

/* comparison_operator: operand (op operand)+, where op may be two tokens */
static expr *lower_compare(lower *L, TSNode n) {
  uint32_t c = ts_node_child_count(n);
  expr *operands[64];
  cmpop ops[64];
  int no = 0, nops = 0;
  char optext[16] = "";
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = ts_node_child(n, i);
    if (ts_node_is_named(ch) && !node_is(ch, "comment")) {
      if (no) {
        int k = -1;
        for (int j = 0; j <= CMP_IS_NOT; j++) if (!strcmp(optext, cmpop_spelling[j])) k = j;
        if (k < 0) {
          gb(L, n, "unsupported-operator", arena_printf(L->m->a, "comparison '%s'", optext));
          return NULL;
        }
        if (nops == 63) { gb(L, n, "unsupported-expression", "comparison chain too long"); return NULL; }
        ops[nops++] = (cmpop)k;
        optext[0] = 0;
      }
      if (no == 64) return NULL;
      operands[no] = lower_expr(L, ch);
      if (!operands[no]) return NULL;
      no++;
    } else if (!ts_node_is_named(ch)) {
      const char *tok = ts_node_type(ch);
      if (optext[0] && strlen(optext) + strlen(tok) + 2 < sizeof optext) strcat(optext, " ");
      if (strlen(optext) + strlen(tok) + 1 < sizeof optext) strcat(optext, tok);
    }
  }
  for (int i = 0; i < nops; i++)
    if ((ops[i] == CMP_IS || ops[i] == CMP_IS_NOT) && operands[i]->kind != EX_NONE &&
        operands[i + 1]->kind != EX_NONE) {
      gb(L, n, "unsupported-operator", arena_printf(L->m->a, "'%s' with an operand other than None",
         cmpop_spelling[ops[i]]));
      return NULL;
    }
  expr *e = new_expr(L, EX_COMPARE, n);
  e->u.cmp.n = no;
  e->u.cmp.operands = arena_alloc(L->m->a, sizeof(expr *) * (size_t)no);
  memcpy(e->u.cmp.operands, operands, sizeof(expr *) * (size_t)no);
  e->u.cmp.ops = arena_alloc(L->m->a, sizeof(cmpop) * (size_t)(nops ? nops : 1));
  memcpy(e->u.cmp.ops, ops, sizeof(cmpop) * (size_t)nops);
  return e;
}

/* tuple / expression_list: (a, b, ...); list: [a, b, ...] (kind EX_LIST) */
static expr *lower_elements(lower *L, TSNode n, exkind kind) {
  uint32_t c = ts_node_named_child_count(n);
  expr *e = new_expr(L, kind, n);
  e->u.tuple.elts = arena_alloc(L->m->a, sizeof(expr *) * (c ? c : 1));
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = ts_node_named_child(n, i);
    if (node_is(ch, "comment")) continue;
    if (node_is(ch, "list_splat") || node_is(ch, "parenthesized_list_splat")) {
      gb(L, ch, "unsupported-expression", kind == EX_LIST ? "starred expression in a list display"
                                                           : "starred expression in a tuple");
      return NULL;
    }
    expr *x = lower_expr(L, ch);
    if (!x) return NULL;
    e->u.tuple.elts[e->u.tuple.n++] = x;
  }
  return e;
}

static bool is_name(lower *L, TSNode fnode, const char *dotted) {
  return !strcmp(text(L, fnode), dotted);
}

/* A call to a function of this module: positional and keyword arguments are
 * matched to the callee's parameters here; a missing one takes the callee's
 * default, read from its __defaults__ by the guard like a global. */
static expr *lower_module_call(lower *L, TSNode n, TSNode fnode, TSNode args, func *callee) {
  char *fname = text(L, fnode);
  if (!callee->params_ok || callee->nparams > 64) {
    gb(L, n, "unknown-call", arena_printf(L->m->a, "call to %s(), which has *args or **kwargs "
       "parameters", fname));
    return NULL;
  }
  expr *byparam[64] = {0};
  int npos = 0;
  bool seen_kw = false;
  uint32_t c = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < c; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (node_is(a, "comment")) continue;
    if (node_is(a, "list_splat") || node_is(a, "dictionary_splat")) {
      gb(L, a, "keyword-arguments", arena_printf(L->m->a, "call to %s with starred arguments", fname));
      return NULL;
    }
    int k;
    TSNode value = a;
    if (node_is(a, "keyword_argument")) {
      seen_kw = true;
      char *kw = text(L, child_by_field(a, "name"));
      value = child_by_field(a, "value");
      for (k = 0; k < callee->nparams; k++) if (!strcmp(callee->params[k], kw)) break;
      if (k == callee->nparams || byparam[k]) { /* TypeError in CPython */
        gb(L, a, "unknown-call", arena_printf(L->m->a, "call to %s() with an unknown or repeated "
           "keyword '%s'", fname, kw));
        return NULL;
      }
    } else {
      if (seen_kw || npos >= callee->nposparams) { /* keyword-only ones by keyword */
        gb(L, a, "unknown-call", arena_printf(L->m->a, "call to %s() with too many arguments", fname));
        return NULL;
      }
      k = npos++;
    }
    byparam[k] = lower_expr(L, value);
    if (!byparam[k]) return NULL;
  }
  slot *fslot = ir_slot(L->m, SLOT_GLOBAL_FUNC, fname, NULL, NULL, callee, -1);
  for (int k = 0; k < callee->nparams; k++) {
    if (byparam[k]) continue;
    const type *dt = callee->param_default[k];
    if (!dt || dt->kind == TY_CONFLICT) { /* TY_NONE: specialised on like an argument */
      gb(L, n, "unknown-call", arena_printf(L->m->a, dt ? "call to %s() relies on the default of "
         "'%s', which is not a number literal" : "call to %s() without argument '%s'", fname,
         callee->params[k]));
      return NULL;
    }
    expr *d = new_expr(L, EX_GLOBAL, n);
    d->u.global = ir_slot(L->m, SLOT_DEFAULT, fname, callee->params[k], dt, callee,
                          k < callee->nposparams /* index into __defaults__; -1: __kwdefaults__ */
                          ? k - (callee->nposparams - callee->nposdefaults) : -1);
    d->u.global->fn = callee;
    byparam[k] = d;
  }
  expr *e = new_expr(L, EX_CALL, n);
  e->u.call.kind = CALLEE_MODULE_FN;
  e->u.call.fn = callee;
  e->u.call.name = callee->name;
  e->u.call.callee_slot = fslot;
  e->u.call.n = callee->nparams;
  e->u.call.args = arena_alloc(L->m->a, sizeof(expr *) * (size_t)(callee->nparams + 1));
  memcpy(e->u.call.args, byparam, sizeof(expr *) * (size_t)callee->nparams);
  return e;
}

/* float("inf"), float("-nan"), ...: constants (the builtin float is guarded). */
static expr *lower_float_of_string(lower *L, TSNode n, TSNode str) {
  char *t = text(L, str);
  size_t len = strlen(t);
  char q = t[len - 1];
  char *open = strchr(t, q);
  char *body = arena_strndup(L->m->a, open + 1, (size_t)(t + len - 1 - open - 1));
  char *s = body;
  while (*s == ' ' || *s == '\t' || *s == '\n') s++;
  size_t bl = strlen(s);
  while (bl && (s[bl - 1] == ' ' || s[bl - 1] == '\t' || s[bl - 1] == '\n')) s[--bl] = 0;
  double sign = 1.0;
  if (*s == '+' || *s == '-') { sign = *s == '-' ? -1.0 : 1.0; s++; }
  double v;
  if (!strcasecmp(s, "inf") || !strcasecmp(s, "infinity")) v = sign * HUGE_VAL;
  else if (!strcasecmp(s, "nan")) v = copysign(NAN, sign);
  else {
    gb(L, n, "unsupported-expression", "float() of a string other than 'inf' or 'nan'");
    return NULL;
  }
  if (open > t && strpbrk(arena_strndup(L->m->a, t, (size_t)(open - t)), "bBfF")) {
    gb(L, n, "unsupported-expression", "float() of a bytes or f-string");
    return NULL;
  }
  expr *e = new_expr(L, EX_FLOAT, n);
  e->u.f = v;
  e->guard = ir_slot(L->m, SLOT_BUILTIN, "float", NULL, NULL, NULL, -1);
  return e;
}

/* An allow_in_graph callee: called from the kernel through the C API with
 * boxed positional arguments; the result is typed by its return annotation. */
static expr *lower_positional_call(lower *L, TSNode n, TSNode fnode, TSNode args);

static expr *lower_opaque_call(lower *L, TSNode n, TSNode fnode, TSNode args, const type *ret) {
  char *fname = text(L, fnode);
  if ((!ret || ret->kind == TY_NONE) && !ts_node_eq(n, L->statement_call)) {
    gb(L, n, "opaque-call", arena_printf(L->m->a, "the result of allow_in_graph %s() is used, "
       "but its type is not declared", fname));
    return NULL;
  }
  expr *e = lower_positional_call(L, n, fnode, args);
  if (!e) return NULL;
  e->u.call.kind = CALLEE_OPAQUE;
  e->u.call.name = fname;
  e->u.call.ret = ret && ret->kind != TY_NONE ? ret : NULL;
  e->u.call.callee_slot = ir_slot(L->m, SLOT_OPAQUE, fname, NULL, NULL, NULL, -1);
  return e;
}

/* A call to an assume_constant_result function: a guarded constant. */
static expr *lower_constant_result(lower *L, TSNode n, TSNode args, func *callee) {
  if (ts_node_named_child_count(args) != 0 || !callee->ret_ann ||
      !ty_is_number(callee->ret_ann) || callee->ret_ann->kind == TY_NUM) {
    gb(L, n, "constant-result", arena_printf(L->m->a, "%s() is assume_constant_result but %s",
       callee->name, ts_node_named_child_count(args) ? "is called with arguments"
                     : "has no int, float or bool return annotation"));
    return NULL;
  }
  expr *e = new_expr(L, EX_GLOBAL, n);
  e->u.global = ir_slot(L->m, SLOT_CONST_RESULT, callee->name, NULL, callee->ret_ann, NULL, -1);
  return e;
}

/* A call with positional arguments only (its callee kind is set by the
 * caller); keyword or starred arguments break the graph. */
static expr *lower_positional_call(lower *L, TSNode n, TSNode fnode, TSNode args) {
  expr *e = new_expr(L, EX_CALL, n);
  uint32_t c = ts_node_named_child_count(args);
  e->u.call.args = arena_alloc(L->m->a, sizeof(expr *) * (c ? c : 1));
  for (uint32_t i = 0; i < c; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (node_is(a, "comment")) continue;
    if (node_is(a, "keyword_argument") || node_is(a, "list_splat") ||
        node_is(a, "dictionary_splat")) {
      gb(L, a, "keyword-arguments", arena_printf(L->m->a, "call to %s with keyword or "
         "starred arguments", text(L, fnode)));
      return NULL;
    }
    expr *x = lower_expr(L, a);
    if (!x) return NULL;
    e->u.call.args[e->u.call.n++] = x;
  }
  return e;
}

/* obj.append(v) / obj.pop([i]) / obj.insert(i, v): list methods, typed by
 * infer.c (a list, or an object whose method is called through the C API;
 * anything else is a type failure there). The receiver becomes args[0]. */
static expr *lower_method_call(lower *L, TSNode obj, expr *e, const char *attr) {
  expr *recv = lower_expr(L, obj);
  if (!recv) return NULL;
  expr **args = arena_alloc(L->m->a, sizeof(expr *) * (size_t)(e->u.call.n + 1));
  args[0] = recv;
  for (int i = 0; i < e->u.call.n; i++) args[i + 1] = e->u.call.args[i];
  e->u.call.args = args;
  e->u.call.n++;
  e->u.call.kind = CALLEE_METHOD;
  e->u.call.name = attr;
  return e;
}

/* call: function argument_list */
static expr *lower_call(lower *L, TSNode n) {
  TSNode fnode = child_by_field(n, "function");
  TSNode args = child_by_field(n, "arguments");
  if (is_name(L, fnode, "dynac.is_compiling") || is_name(L, fnode, "torch.compiler.is_compiling")) {
    expr *e = new_expr(L, EX_BOOL, n); /* folded: True inside kernels */
    e->u.b = true;
    return e;
  }
  if (is_name(L, fnode, "dynac.graph_break") || is_name(L, fnode, "torch._dynamo.graph_break")) {
    gb(L, n, "explicit-graph-break", "explicit graph_break()");
    return NULL;
  }
  if (!node_is(args, "argument_list")) {
    gb(L, n, "unsupported-expression", "call with a generator expression argument");
    return NULL;
  }
  if (node_is(fnode, "identifier") && !strcmp(text(L, fnode), "float") &&
      is_builtin_call(L, "float") && ts_node_named_child_count(args) == 1 &&
      node_is(ts_node_named_child(args, 0), "string"))
    return lower_float_of_string(L, n, ts_node_named_child(args, 0));
  if (node_is(fnode, "identifier") && !strcmp(text(L, fnode), "pow") && is_builtin_call(L, "pow") &&
      ts_node_named_child_count(args) == 2 &&
      !node_is(ts_node_named_child(args, 0), "keyword_argument") &&
      !node_is(ts_node_named_child(args, 1), "keyword_argument")) {
    expr *a = lower_expr(L, ts_node_named_child(args, 0));
    expr *b = lower_expr(L, ts_node_named_child(args, 1));
    if (!a || !b) return NULL;
    expr *e = new_expr(L, EX_BINOP, n); /* pow(a, b) is a ** b */
    e->u.bin.op = OP_POW;
    e->u.bin.l = a;
    e->u.bin.r = b;
    e->guard = ir_slot(L->m, SLOT_BUILTIN, "pow", NULL, NULL, NULL, -1);
    return e;
  }
  char *fname0 = text(L, fnode);
  bool global_name = node_is(fnode, "identifier") && resolve_local(L, fname0) < 0;
  func *target_fn = global_name ? scope_find_func(L->m, fname0) : NULL;
  if (target_fn) {
    if (target_fn->disabled) {
      gb(L, n, "disabled-callee", arena_printf(L->m->a, "call to %s(), marked disable%s", fname0,
         target_fn->disable_recursive ? "" : "(recursive=False)"));
      return NULL;
    }
    if (target_fn->disallowed) {
      gb(L, n, "disallowed-call", arena_printf(L->m->a, "call to %s(), marked disallow_in_graph",
         fname0));
      return NULL;
    }
    if (target_fn->constant_result) return lower_constant_result(L, n, args, target_fn);
    if (target_fn->allowed) return lower_opaque_call(L, n, fnode, args, target_fn->ret_ann);
    return lower_module_call(L, n, fnode, args, target_fn);
  }
  for (int k = 0; global_name && k < L->m->nopaque; k++) {
    if (strcmp(L->m->opaque_names[k], fname0)) continue;
    if (L->m->opaque_allowed[k]) return lower_opaque_call(L, n, fnode, args, NULL);
    gb(L, n, "disallowed-call", arena_printf(L->m->a, "call to %s(), marked disallow_in_graph",
       fname0));
    return NULL;
  }
  expr *e = lower_positional_call(L, n, fnode, args);
  if (!e) return NULL;
  char *fname = text(L, fnode);
  if (node_is(fnode, "identifier")) {
    const char *mattr = resolve_local(L, fname) < 0 ? scope_math_from(L->m, fname) : NULL;
    if (mattr && ops_is_math_function(mattr)) {
      e->u.call.kind = CALLEE_MATH;
      e->u.call.name = mattr;
      e->u.call.op = ops_find(OPS_MATH, mattr, e->u.call.n);
      e->u.call.callee_slot = ir_slot(L->m, SLOT_MATH_ATTR, fname, mattr, NULL, NULL, -1);
      return e;
    }
    if (is_builtin_call(L, fname)) {
      e->u.call.kind = CALLEE_BUILTIN;
      e->u.call.name = fname;
      e->u.call.op = ops_find(OPS_BUILTIN, fname, e->u.call.n);
      e->u.call.callee_slot = ir_slot(L->m, SLOT_BUILTIN, fname, NULL, NULL, NULL, -1);
      return e;
    }
  } else if (node_is(fnode, "attribute")) {
    TSNode obj = child_by_field(fnode, "object");
    char *oname = text(L, obj);
    char *attr = text(L, child_by_field(fnode, "attribute"));
    if (node_is(obj, "identifier") && resolve_local(L, oname) < 0 &&
        scope_is_math_module(L->m, oname) && ops_is_math_function(attr)) {
      slot *ms = ir_slot(L->m, SLOT_MATH_MODULE, oname, NULL, NULL, NULL, -1);
      e->u.call.kind = CALLEE_MATH;
      e->u.call.name = attr;
      e->u.call.op = ops_find(OPS_MATH, attr, e->u.call.n);
      e->u.call.callee_slot = ir_slot(L->m, SLOT_MATH_ATTR, oname, attr, NULL, NULL, ms->index);
      return e;
    }
    const op_row *method = ops_find(OPS_METHOD, attr, e->u.call.n);
    if (method) {
      e->u.call.op = method;
      return lower_method_call(L, obj, e, attr);
    }
  }
  if (node_is(fnode, "identifier") && resolve_local(L, fname) >= 0) { /* key(x): a local's value */
    e = lower_method_call(L, fnode, e, fname);
    if (e) e->u.call.kind = CALLEE_VALUE;
    return e;
  }
  gb(L, n, "unknown-call", arena_printf(L->m->a, "call to %s", fname));
  return NULL;
}

/* attribute: object . attribute (math.NAME constants, and a local's
 * .shape, .ndim or .size, typed by infer.c) */
static expr *lower_attribute(lower *L, TSNode n) {
  TSNode obj = child_by_field(n, "object");
  char *oname = text(L, obj);
  char *attr = text(L, child_by_field(n, "attribute"));
  if (node_is(obj, "identifier") && resolve_local(L, oname) >= 0 &&
      (!strcmp(attr, "shape") || !strcmp(attr, "ndim") || !strcmp(attr, "size"))) {
    expr *o = lower_expr(L, obj);
    if (!o) return NULL;
    expr *e = new_expr(L, EX_ATTR, n);
    e->u.sub.obj = o;
    e->u.sub.attr = attr;
    return e;
  }
  if (node_is(obj, "identifier") && resolve_local(L, oname) < 0 &&
      scope_is_math_module(L->m, oname)) {
    if (ops_is_math_const(attr)) {
      slot *ms = ir_slot(L->m, SLOT_MATH_MODULE, oname, NULL, NULL, NULL, -1);
      expr *e = new_expr(L, EX_GLOBAL, n);
      e->u.global = ir_slot(L->m, SLOT_MATH_ATTR, oname, attr, &ty_float, NULL, ms->index);
      return e;
    }
  }
  gb(L, n, "attribute-access", arena_printf(L->m->a, "attribute '%s.%s'", oname, attr));
  return NULL;
}

/* slice: start? : stop? (: step?)? as the index of obj[...]: the parts are
 * told apart by the colons before them. */
static expr *lower_slice(lower *L, TSNode n, TSNode value, TSNode sl) {
  expr *e = new_expr(L, EX_SLICE, n);
  if (!(e->u.slice.obj = lower_expr(L, value))) return NULL;
  expr **parts[3] = {&e->u.slice.lo, &e->u.slice.hi, &e->u.slice.step};
  int colons = 0;
  for (uint32_t i = 0; i < ts_node_child_count(sl); i++) {
    TSNode c = ts_node_child(sl, i);
    if (!ts_node_is_named(c)) { colons += !strcmp(ts_node_type(c), ":"); continue; }
    if (node_is(c, "comment") || colons > 2) continue;
    if (!(*parts[colons] = lower_expr(L, c))) return NULL;
  }
  return e;
}

/* subscript: value [ subscript ]: a[i], a[i][j], a[lo:hi:step]; a[i, j] is
 * a[(i, j)], which only a 2-D ndarray accepts (infer.c) */
static expr *lower_subscript(lower *L, TSNode n) {
  TSNode value = child_by_field(n, "value");
  TSNode idx_nodes[2];
  uint32_t nidx = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_eq(c, value) || node_is(c, "comment")) continue;
    if (nidx < 2) idx_nodes[nidx] = c;
    nidx++;
  }
  if (nidx < 1 || nidx > 2) {
    gb(L, n, "unsupported-expression", "index with more than two subscripts (a[i, j, k])");
    return NULL;
  }
  if (nidx == 1 && node_is(idx_nodes[0], "slice")) return lower_slice(L, n, value, idx_nodes[0]);
  for (uint32_t i = 0; i < nidx; i++)
    if (node_is(idx_nodes[i], "slice")) {
      gb(L, n, "unsupported-expression", "slice in a multi-dimensional index (a[i:j, k])");
      return NULL;
    }
  expr *obj = lower_expr(L, value);
  expr *idx = obj ? lower_expr(L, idx_nodes[0]) : NULL;
  if (idx && nidx == 2) {
    expr *j = lower_expr(L, idx_nodes[1]);
    if (!j) return NULL;
    expr *t = new_expr(L, EX_TUPLE, n);
    t->u.tuple.n = 2;
    t->u.tuple.elts = arena_alloc(L->m->a, 2 * sizeof(expr *));
    t->u.tuple.elts[0] = idx;
    t->u.tuple.elts[1] = j;
    idx = t;
  }
  if (!idx) return NULL;
  expr *e = new_expr(L, EX_SUBSCRIPT, n);
  e->u.sub.obj = obj;
  e->u.sub.index = idx;
  return e;
}

/* A subscript stored to (obj[index] = v, obj[index] op= v): an element,
 * not a slice. */
static expr *lower_element(lower *L, TSNode n) {
  expr *e = lower_subscript(L, n);
  if (e && e->kind == EX_SLICE) {
    gb(L, n, "unsupported-statement", "assignment to a slice (a[i:j] = ...)");
    return NULL;
  }
  return e;
}

static expr *lower_expr(lower *L, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "subscript")) return lower_subscript(L, n);
  if (!strcmp(t, "integer")) return lower_integer(L, n);
  if (!strcmp(t, "float")) return lower_float(L, n);
  if (!strcmp(t, "true") || !strcmp(t, "false")) {
    expr *e = new_expr(L, EX_BOOL, n);
    e->u.b = !strcmp(t, "true");
    return e;
  }
  if (!strcmp(t, "none")) return new_expr(L, EX_NONE, n);
  if (!strcmp(t, "identifier")) return lower_identifier(L, n);
  if (!strcmp(t, "parenthesized_expression")) {
    TSNode inner = ts_node_named_child(n, 0);
    if (node_is(inner, "yield")) { gb(L, n, "generator", "yield expression"); return NULL; }
    return lower_expr(L, inner);
  }
  if (!strcmp(t, "binary_operator")) return lower_binary(L, n);
  if (!strcmp(t, "unary_operator")) return lower_unary(L, n);
  if (!strcmp(t, "not_operator")) {
    expr *a = lower_expr(L, child_by_field(n, "argument"));
    if (!a) return NULL;
    expr *e = new_expr(L, EX_NOT, n);
    e->u.not_arg = a;
    return e;
  }
  if (!strcmp(t, "boolean_operator")) {
    expr *l = lower_expr(L, child_by_field(n, "left"));
    expr *r = lower_expr(L, child_by_field(n, "right"));
    if (!l || !r) return NULL;
    expr *e = new_expr(L, EX_BOOLOP, n);
    e->u.boolop.is_and = !strcmp(text(L, child_by_field(n, "operator")), "and");
    e->u.boolop.l = l;
    e->u.boolop.r = r;
    return e;
  }
  if (!strcmp(t, "comparison_operator")) return lower_compare(L, n);
  if (!strcmp(t, "conditional_expression")) { /* then if cond else orelse */
    expr *a = lower_expr(L, ts_node_named_child(n, 0));
    expr *c = lower_expr(L, ts_node_named_child(n, 1));
    expr *b = lower_expr(L, ts_node_named_child(n, 2));
    if (!a || !b || !c) return NULL;
    expr *e = new_expr(L, EX_IFEXP, n);
    e->u.ifexp.cond = c;
    e->u.ifexp.then = a;
    e->u.ifexp.orelse = b;
    return e;
  }
  if (!strcmp(t, "tuple") || !strcmp(t, "expression_list")) return lower_elements(L, n, EX_TUPLE);
  if (!strcmp(t, "list")) return lower_elements(L, n, EX_LIST);
  if (!strcmp(t, "list_comprehension")) return lower_list_comprehension(L, n);
  if (!strcmp(t, "call")) return lower_call(L, n);
  if (!strcmp(t, "attribute")) return lower_attribute(L, n);
  if (!strcmp(t, "lambda") || strstr(t, "comprehension") || !strcmp(t, "generator_expression")) {
    /* set, dict and generator expressions: a list comprehension is lowered above */
    gb(L, n, "nested-scope", arena_printf(L->m->a, "%s", t));
    return NULL;
  }
  if (!strcmp(t, "await") || !strcmp(t, "yield")) {
    gb(L, n, "generator", arena_printf(L->m->a, "'%s' expression", t));
    return NULL;
  }
  static const char *const what[][2] = {
      {"string", "string literal (str is not a kernel type)"},
      {"concatenated_string", "string literal (str is not a kernel type)"},
      {"dictionary", "dict display"}, {"set", "set display"},
      {"named_expression", "assignment expression (:=)"},
      {"list_splat", "starred expression"}};
  for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
    if (!strcmp(t, what[i][0])) { gb(L, n, "unsupported-expression", what[i][1]); return NULL; }
  gb(L, n, "unsupported-expression", arena_printf(L->m->a, "%s", t));
  return NULL;
}

void ir_each_subexpr(expr *e, void (*visit)(void *ctx, expr *sub), void *ctx) {
  expr *parts[4] = {NULL, NULL, NULL, NULL};
  expr **many = NULL;
  int n = 0;
  switch (e->kind) {
  case EX_BINOP: parts[0] = e->u.bin.l; parts[1] = e->u.bin.r; break;
  case EX_UNARY: parts[0] = e->u.un.a; break;
  case EX_NOT: parts[0] = e->u.not_arg; break;
  case EX_COMPARE: many = e->u.cmp.operands; n = e->u.cmp.n; break;
  case EX_BOOLOP: parts[0] = e->u.boolop.l; parts[1] = e->u.boolop.r; break;
  case EX_IFEXP: parts[0] = e->u.ifexp.cond; parts[1] = e->u.ifexp.then; parts[2] = e->u.ifexp.orelse; break;
  case EX_TUPLE: case EX_LIST: many = e->u.tuple.elts; n = e->u.tuple.n; break;
  case EX_CALL: many = e->u.call.args; n = e->u.call.n; break;
  case EX_SUBSCRIPT: parts[0] = e->u.sub.obj; parts[1] = e->u.sub.index; break;
  case EX_ATTR: parts[0] = e->u.sub.obj; break;
  case EX_SLICE:
    parts[0] = e->u.slice.obj; parts[1] = e->u.slice.lo; parts[2] = e->u.slice.hi;
    parts[3] = e->u.slice.step;
    break;
  default: break;
  }
  for (int i = 0; i < n; i++) visit(ctx, many[i]);
  for (int i = 0; i < 4; i++) if (parts[i]) visit(ctx, parts[i]);
}

static void part_expr(const ir_parts *v, void *ctx, expr *e) { if (e) v->expr(ctx, e); }

void ir_each_part(stmt *s, const ir_parts *v, void *ctx) {
  switch (s->kind) {
  case ST_ASSIGN:
    part_expr(v, ctx, s->u.assign.value);
    for (int i = 0; i < s->u.assign.ntargets; i++) v->target(ctx, s->u.assign.targets[i]);
    break;
  case ST_AUGASSIGN: part_expr(v, ctx, s->u.aug.sub); part_expr(v, ctx, s->u.aug.value); break;
  case ST_RETURN: part_expr(v, ctx, s->u.ret); break;
  case ST_IF:
    part_expr(v, ctx, s->u.if_.cond);
    v->block(ctx, s->u.if_.then);
    v->block(ctx, s->u.if_.orelse);
    break;
  case ST_WHILE:
    part_expr(v, ctx, s->u.while_.cond);
    v->block(ctx, s->u.while_.body);
    v->block(ctx, s->u.while_.orelse);
    break;
  case ST_FOR_RANGE: case ST_FOR_ITER:
    for (int i = 0; i < s->u.for_.niters; i++) part_expr(v, ctx, s->u.for_.iters[i]);
    part_expr(v, ctx, s->u.for_.start);
    part_expr(v, ctx, s->u.for_.stop);
    part_expr(v, ctx, s->u.for_.step);
    v->target(ctx, s->u.for_.tgt);
    v->block(ctx, s->u.for_.body);
    v->block(ctx, s->u.for_.orelse);
    break;
  case ST_EXPR: part_expr(v, ctx, s->u.expr); break;
  case ST_RAISE: part_expr(v, ctx, s->u.raise_.arg); break;
  case ST_INTERP:
    for (int i = 0; v->interp_blocks && i < s->nblocks; i++) v->block(ctx, s->blocks[i]);
    break;
  default: break;
  }
}

/* ---- statements -------------------------------------------------------- */
static stmt *lower_block(lower *L, TSNode block);

/* One more loop would nest deeper than emit/ keeps (64): a graph break. */
static bool too_deep(lower *L, TSNode n) {
  if (L->loops < 60) return false;
  gb(L, n, "unsupported-statement", "loops nested more than 60 deep");
  return true;
}

/* A block inside if/while/for: not straight-line top-level code. */
static stmt *lower_nested(lower *L, TSNode block) {
  L->depth++;
  stmt *s = lower_block(L, block);
  L->depth--;
  return s;
}

static stmt *new_stmt(lower *L, stkind k, TSNode n) {
  stmt *s = arena_alloc(L->m->a, sizeof *s);
  s->kind = k;
  s->pos = node_pos(n);
  TSPoint e = ts_node_end_point(n);
  s->end = (srcpos){(int)e.row + 1, (int)e.column + 1};
  return s;
}

/* pattern: identifier | pattern_list | tuple_pattern | (pattern) */
static target *lower_target(lower *L, TSNode n) {
  target *t = arena_alloc(L->m->a, sizeof *t);
  t->pos = node_pos(n);
  if (node_is(n, "identifier")) {
    const char *name = text(L, n);
    int base = find_local(L->f, name);
    t->local = resolve_local(L, name);
    if (t->local == current_version(L, base) && base >= 0 && base < L->ncurrent) L->seen[base] = true;
    return t;
  }
  if (node_is(n, "pattern_list") || node_is(n, "tuple_pattern") ||
      node_is(n, "list_pattern") || node_is(n, "parenthesized_expression") ||
      node_is(n, "expression_list") || node_is(n, "tuple")) {
    uint32_t c = ts_node_named_child_count(n);
    if (node_is(n, "parenthesized_expression") && c == 1)
      return lower_target(L, ts_node_named_child(n, 0));
    t->is_tuple = true;
    t->elts = arena_alloc(L->m->a, sizeof(target *) * (c ? c : 1));
    for (uint32_t i = 0; i < c; i++) {
      TSNode ch = ts_node_named_child(n, i);
      if (node_is(ch, "comment")) continue;
      target *x = lower_target(L, ch);
      if (!x) return NULL;
      t->elts[t->n++] = x;
    }
    return t;
  }
  if (node_is(n, "subscript")) {
    t->sub = lower_element(L, n);
    return t->sub ? t : NULL;
  }
  if (node_is(n, "list_splat_pattern"))
    gb(L, n, "unsupported-statement", "starred assignment target");
  else
    gb(L, n, "unsupported-statement",
       arena_printf(L->m->a, "assignment to %s", ts_node_type(n)));
  return NULL;
}

/* NAME = value in straight-line top-level code, NAME bound before: a new
 * version of NAME. Returns NULL when the form does not apply. */
static stmt *lower_versioned_assignment(lower *L, TSNode n, TSNode left, TSNode value_node,
                                        binop *aug) {
  if (L->depth != 0 || !node_is(left, "identifier")) return NULL;
  int base = find_local(L->f, text(L, left));
  if (base < 0 || base >= L->ncurrent || !L->seen[base]) return NULL;
  if (node_is(value_node, "assignment") || node_is(value_node, "yield") ||
      node_is(value_node, "augmented_assignment") || node_is(value_node, "pattern_list"))
    return NULL;
  expr *v = lower_expr(L, value_node);
  if (!v) return NULL;
  if (aug) { /* x op= v is x = x op v for numbers */
    expr *old = new_expr(L, EX_LOCAL, left);
    old->u.local = current_version(L, base);
    expr *b = new_expr(L, EX_BINOP, n);
    b->u.bin.op = *aug;
    b->u.bin.l = old;
    b->u.bin.r = v;
    b->u.bin.inplace = true;
    v = b;
  }
  target *t = arena_alloc(L->m->a, sizeof *t);
  t->pos = node_pos(left);
  t->local = new_version(L, base);
  stmt *s = new_stmt(L, ST_ASSIGN, n);
  s->u.assign.ntargets = 1;
  s->u.assign.targets = arena_alloc(L->m->a, sizeof(target *));
  s->u.assign.targets[0] = t;
  s->u.assign.value = v;
  return s;
}

/* assignment: left = right  |  left : type = right  |  a = b = right */
static stmt *lower_assignment(lower *L, TSNode n) {
  TSNode r0 = child_by_field(n, "right");
  if (!ts_node_is_null(r0)) {
    int before = count_breaks(L);
    stmt *vs = lower_versioned_assignment(L, n, child_by_field(n, "left"), r0, NULL);
    if (vs) return vs;
    if (count_breaks(L) != before) return NULL; /* the value broke the graph */
  }
  target *targets[32];
  int nt = 0;
  TSNode cur = n;
  for (;;) {
    TSNode right = child_by_field(cur, "right");
    if (ts_node_is_null(right)) return new_stmt(L, ST_PASS, n); /* `x: int` declares only */
    target *t = lower_target(L, child_by_field(cur, "left"));
    if (!t) return NULL;
    if (nt == 32) { gb(L, n, "unsupported-statement", "assignment chain too long"); return NULL; }
    targets[nt++] = t;
    if (node_is(right, "assignment")) { cur = right; continue; }
    if (node_is(right, "yield")) { gb(L, right, "generator", "yield expression"); return NULL; }
    if (node_is(right, "augmented_assignment") || node_is(right, "pattern_list")) {
      gb(L, right, "unsupported-statement", "unusual assignment form");
      return NULL;
    }
    expr *v = lower_expr(L, right);
    if (!v) return NULL;
    stmt *s = new_stmt(L, ST_ASSIGN, n);
    s->u.assign.ntargets = nt;
    s->u.assign.targets = arena_alloc(L->m->a, sizeof(target *) * (size_t)nt);
    /* Python assigns the leftmost target first. */
    memcpy(s->u.assign.targets, targets, sizeof(target *) * (size_t)nt);
    s->u.assign.value = v;
    return s;
  }
}

/* augmented_assignment: NAME op= right */
static stmt *lower_augassign(lower *L, TSNode n) {
  TSNode left = child_by_field(n, "left");
  if (!node_is(left, "identifier") && !node_is(left, "subscript")) {
    gb(L, n, "unsupported-statement", "augmented assignment to a non-name target");
    return NULL;
  }
  char *op = text(L, child_by_field(n, "operator"));
  op[strlen(op) - 1] = 0; /* "+=" -> "+" */
  int k = binop_from_text(op);
  if (k < 0) {
    gb(L, n, "unsupported-operator", arena_printf(L->m->a, "operator '%s='", op));
    return NULL;
  }
  binop opk = (binop)k;
  if (node_is(left, "subscript")) { /* obj[index] op= value: an element read, then a store */
    expr *sub = lower_element(L, left);
    expr *v = sub ? lower_expr(L, child_by_field(n, "right")) : NULL;
    if (!v) return NULL;
    stmt *s = new_stmt(L, ST_AUGASSIGN, n);
    s->u.aug.local = -1;
    s->u.aug.sub = sub;
    s->u.aug.op = opk;
    s->u.aug.value = v;
    return s;
  }
  int before = count_breaks(L);
  stmt *vs = lower_versioned_assignment(L, n, left, child_by_field(n, "right"), &opk);
  if (vs) return vs;
  if (count_breaks(L) != before) return NULL;
  expr *v = lower_expr(L, child_by_field(n, "right"));
  if (!v) return NULL;
  stmt *s = new_stmt(L, ST_AUGASSIGN, n);
  int base = find_local(L->f, text(L, left));
  s->u.aug.local = current_version(L, base);
  if (base >= 0 && base < L->ncurrent) L->seen[base] = true;
  s->u.aug.op = (binop)k;
  s->u.aug.value = v;
  return s;
}

/* The only named statement of a block (comments aside), or a null node. */
static TSNode single_statement(TSNode block) {
  TSNode one = {0};
  uint32_t c = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = ts_node_named_child(block, i);
    if (node_is(ch, "comment")) continue;
    if (!ts_node_is_null(one)) return (TSNode){0};
    one = ch;
  }
  return one;
}

/* `if NAME is None: NAME = value` in straight-line top-level code (the
 * default-argument idiom): NAME gets a new version bound on both paths
 * (value, or the old NAME), so its type after the `if` is value's when the
 * instance's NAME is None and NAME's own otherwise; infer.c folds the test.
 * *applies: the form applies (else nothing is lowered); NULL then: a graph break. */
static stmt *lower_none_default(lower *L, TSNode n, bool *applies) {
  *applies = false;
  TSNode cond = child_by_field(n, "condition");
  TSNode asg = single_statement(child_by_field(n, "consequence"));
  if (L->depth != 0 || ts_node_named_child_count(n) != 2 || !node_is(cond, "comparison_operator") ||
      ts_node_child_count(cond) != 3 || ts_node_is_null(asg) || !node_is(asg, "expression_statement") ||
      ts_node_named_child_count(asg) != 1)
    return NULL;
  TSNode name = ts_node_child(cond, 0), op = ts_node_child(cond, 1), none = ts_node_child(cond, 2);
  asg = ts_node_named_child(asg, 0);
  if (!node_is(name, "identifier") || strcmp(ts_node_type(op), "is") || !node_is(none, "none") ||
      !node_is(asg, "assignment") || !node_is(child_by_field(asg, "left"), "identifier") ||
      strcmp(text(L, child_by_field(asg, "left")), text(L, name)))
    return NULL;
  TSNode right = child_by_field(asg, "right");
  int base = find_local(L->f, text(L, name));
  if (base < 0 || base >= L->ncurrent || !L->seen[base] || ts_node_is_null(right) ||
      node_is(right, "assignment") || node_is(right, "yield") ||
      node_is(right, "augmented_assignment") || node_is(right, "pattern_list") ||
      !ts_node_is_null(child_by_field(asg, "type")))
    return NULL;
  *applies = true;
  stmt *s = new_stmt(L, ST_IF, n);
  s->u.if_.cond = lower_expr(L, cond);
  L->depth++;
  expr *v = s->u.if_.cond ? lower_expr(L, right) : NULL;
  L->depth--;
  if (!v) return NULL;
  expr *old = new_expr(L, EX_LOCAL, name);
  old->u.local = current_version(L, base);
  int nv = new_version(L, base);
  stmt *branch[2] = {new_stmt(L, ST_ASSIGN, asg), new_stmt(L, ST_ASSIGN, n)};
  expr *value[2] = {v, old};
  for (int i = 0; i < 2; i++) {
    target *t = arena_alloc(L->m->a, sizeof *t);
    t->pos = node_pos(name);
    t->local = nv;
    branch[i]->u.assign.ntargets = 1;
    branch[i]->u.assign.targets = arena_alloc(L->m->a, sizeof(target *));
    branch[i]->u.assign.targets[0] = t;
    branch[i]->u.assign.value = value[i];
  }
  s->u.if_.then = branch[0];
  s->u.if_.orelse = branch[1]; /* else: NAME = NAME (the new version takes the old value) */
  return s;
}

/* if_statement: if cond: block (elif_clause)* (else_clause)? */
static stmt *lower_if(lower *L, TSNode n) {
  bool none_default;
  stmt *nd = lower_none_default(L, n, &none_default);
  if (none_default) return nd;
  stmt *s = new_stmt(L, ST_IF, n);
  s->u.if_.cond = lower_expr(L, child_by_field(n, "condition"));
  s->u.if_.then = lower_nested(L, child_by_field(n, "consequence"));
  stmt **orelse = &s->u.if_.orelse;
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = ts_node_named_child(n, i);
    if (node_is(ch, "elif_clause")) {
      stmt *e = new_stmt(L, ST_IF, ch);
      e->u.if_.cond = lower_expr(L, child_by_field(ch, "condition"));
      e->u.if_.then = lower_nested(L, child_by_field(ch, "consequence"));
      *orelse = e;
      orelse = &e->u.if_.orelse;
    } else if (node_is(ch, "else_clause")) {
      *orelse = lower_nested(L, child_by_field(ch, "body"));
    }
  }
  return s->u.if_.cond ? s : NULL;
}

/* A loop's body (one loop deeper) and its else clause: while and for. */
static void lower_loop_blocks(lower *L, TSNode n, stmt **body, stmt **orelse, bool *has_else) {
  L->loops++;
  *body = lower_nested(L, child_by_field(n, "body"));
  L->loops--;
  TSNode alt = child_by_field(n, "alternative");
  if (!ts_node_is_null(alt)) {
    *has_else = true;
    *orelse = lower_nested(L, child_by_field(alt, "body"));
  }
}

/* while_statement: while cond: block (else: block)? */
static stmt *lower_while(lower *L, TSNode n) {
  stmt *s = new_stmt(L, ST_WHILE, n);
  if (too_deep(L, n)) return NULL;
  s->u.while_.cond = lower_expr(L, child_by_field(n, "condition"));
  lower_loop_blocks(L, n, &s->u.while_.body, &s->u.while_.orelse, &s->u.while_.has_else);
  return s->u.while_.cond ? s : NULL;
}

/* Is `fnode` the builtin NAME (not shadowed by a local or a global)? */
static bool is_builtin_name(lower *L, TSNode fnode, const char *name) {
  return node_is(fnode, "identifier") && !strcmp(text(L, fnode), name) &&
         resolve_local(L, name) < 0 && !scope_is_global(L->m, name);
}

/* The positional arguments of a call (at most cap), or -1 if there are
 * keyword or starred ones. */
static int call_args(lower *L, TSNode args, expr **out, int cap) {
  int na = 0;
  uint32_t c = node_is(args, "argument_list") ? ts_node_named_child_count(args) : 0;
  if (!node_is(args, "argument_list")) return -1;
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = ts_node_named_child(args, i);
    if (node_is(ch, "comment")) continue;
    if (na == cap || node_is(ch, "keyword_argument") || node_is(ch, "list_splat") ||
        node_is(ch, "dictionary_splat"))
      return -1;
    if (!(out[na] = lower_expr(L, ch))) return -2;
    na++;
  }
  return na;
}

/* The loop body and else clause of a for statement. */
static bool lower_for_body(lower *L, TSNode n, stmt *s) {
  if (too_deep(L, n)) return false;
  lower_loop_blocks(L, n, &s->u.for_.body, &s->u.for_.orelse, &s->u.for_.has_else);
  return true;
}

/* Is local version v bound by an interpreted statement that says nothing
 * of its type (range_it = range(n), a value dynac does not model)? */
static bool bound_by_interpreter(lower *L, int v) {
  for (int i = 0; i < L->ndynamic; i++) if (L->dynamic[i] == v) return L->hint[i] == NULL;
  return false;
}

/* for target in c | enumerate(c[, start]) | zip(c1, c2, ...) | reversed(c):
 * c a list, tuple or buffer (checked by infer.c). */
static stmt *lower_for_iter(lower *L, TSNode n, TSNode right, bool clause) {
  stmt *s = new_stmt(L, ST_FOR_ITER, n);
  expr *a[8];
  int na = 1;
  s->u.for_.how = 'i';
  TSNode fnode = child_by_field(right, "function");
  const char *how = NULL;
  if (node_is(right, "call")) {
    if (is_builtin_name(L, fnode, "enumerate")) how = "e";
    else if (is_builtin_name(L, fnode, "zip")) how = "z";
    else if (is_builtin_name(L, fnode, "reversed")) how = "r";
  }
  if (how) {
    na = call_args(L, child_by_field(right, "arguments"), a, 8);
    if (na == -2) return NULL;
    if (na < 1 || (*how == 'e' && na > 2) || (*how == 'r' && na != 1)) {
      gb(L, right, "unsupported-loop", arena_printf(L->m->a, "%s() with these arguments",
         text(L, fnode)));
      return NULL;
    }
    s->u.for_.how = *how;
    if (*how == 'e' && na == 2) { s->u.for_.start = a[1]; na = 1; }
  } else if (!(a[0] = lower_expr(L, right))) {
    return NULL;
  } else if (a[0]->kind == EX_LOCAL && bound_by_interpreter(L, a[0]->u.local)) {
    /* its header runs in the interpreter; its body is split into regions */
    gb(L, right, "unsupported-loop", arena_printf(L->m->a, "for loop over '%s', bound by "
       "interpreted code (its type is not known here)", text(L, right)));
    return NULL;
  }
  s->u.for_.niters = na;
  s->u.for_.iters = arena_alloc(L->m->a, sizeof(expr *) * (size_t)na);
  memcpy(s->u.for_.iters, a, sizeof(expr *) * (size_t)na);
  if (clause && !bind_comp_names(L, child_by_field(n, "left"))) return NULL;
  s->u.for_.tgt = lower_target(L, child_by_field(n, "left"));
  if (!s->u.for_.tgt || (!clause && !lower_for_body(L, n, s))) return NULL;
  return s;
}

/* for_statement: for target in range(args): block (else: block)?, or over
 * a container (lower_for_iter). clause: a comprehension's for_in_clause
 * (for target in iterable): its names are the comprehension's own, and the
 * caller puts the loop's body in. */
static stmt *lower_for(lower *L, TSNode n, bool clause) {
  TSNode right = child_by_field(n, "right");
  TSNode fnode = child_by_field(right, "function");
  bool rev = false; /* reversed(range(...)): the same range, last element first */
  if (node_is(right, "call") && is_builtin_name(L, fnode, "reversed")) {
    TSNode args = child_by_field(right, "arguments");
    TSNode inner = ts_node_named_child_count(args) == 1 ? ts_node_named_child(args, 0) : args;
    if (node_is(inner, "call") && is_builtin_name(L, child_by_field(inner, "function"), "range")) {
      right = inner;
      fnode = child_by_field(right, "function");
      rev = true;
    }
  }
  if (!node_is(right, "call") || !is_builtin_name(L, fnode, "range"))
    return lower_for_iter(L, n, right, clause);
  expr *a[3];
  int na = call_args(L, child_by_field(right, "arguments"), a, 3);
  if (na == -2) return NULL;
  if (na < 0) { gb(L, right, "unsupported-loop", "range() with unusual arguments"); return NULL; }
  if (na == 0) { gb(L, right, "unsupported-loop", "range() without arguments"); return NULL; }
  if (clause && !bind_comp_names(L, child_by_field(n, "left"))) return NULL;
  target *t = lower_target(L, child_by_field(n, "left"));
  if (!t) return NULL;
  if (t->is_tuple) { gb(L, n, "unsupported-loop", "unpacking a range element"); return NULL; }
  stmt *s = new_stmt(L, ST_FOR_RANGE, n);
  s->u.for_.tgt = t;
  s->u.for_.start = na >= 2 ? a[0] : NULL;
  s->u.for_.stop = na >= 2 ? a[1] : a[0];
  s->u.for_.step = na == 3 ? a[2] : NULL;
  s->u.for_.how = rev ? 'r' : 'i';
  return clause || lower_for_body(L, n, s) ? s : NULL;
}

/* ---- list comprehensions ------------------------------------------------
 * [elt for x in it if cond for y in it2] is lowered as CPython 3.11 runs
 * it: a new list, then the clauses as nested loops and ifs around
 * list.append(elt). The names the clauses bind are the comprehension's own
 * (hidden locals, invisible outside it), and the first iterable is
 * evaluated where the comprehension stands. */

/* A C name for a hidden local no other local has. */
static const char *unique_cname(lower *L, const char *want) {
  const char *c = want;
  for (int k = 1;; k++) {
    bool taken = false;
    for (int i = 0; i < L->f->nlocals; i++) if (!strcmp(L->f->local_cnames[i], c)) taken = true;
    if (!taken) return c;
    c = arena_printf(L->m->a, "%s_%d", want, k);
  }
}

/* The names of a for clause's target become hidden locals of the
 * comprehension (shadowing the function's while it is lowered). */
static bool bind_comp_names(lower *L, TSNode n) {
  if (node_is(n, "identifier")) {
    if (L->ncomp_names == 32) {
      gb(L, n, "unsupported-expression", "comprehensions binding more than 32 names");
      return false;
    }
    const char *name = text(L, n);
    int loc = append_local(L, arena_printf(L->m->a, "%s (in a comprehension)", name),
                           unique_cname(L, arena_printf(L->m->a, "lc%d_%s", L->ncomps, name)));
    L->comp_names[L->ncomp_names].name = name;
    L->comp_names[L->ncomp_names++].local = loc;
    return true;
  }
  if (!node_is(n, "pattern_list") && !node_is(n, "tuple_pattern") && !node_is(n, "list_pattern") &&
      !node_is(n, "parenthesized_expression") && !node_is(n, "tuple") && !node_is(n, "comment")) {
    gb(L, n, "unsupported-expression", arena_printf(L->m->a, "comprehension target %s",
                                                   ts_node_type(n)));
    return false;
  }
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c; i++)
    if (!bind_comp_names(L, ts_node_named_child(n, i))) return false;
  return true;
}

/* for_in_clause: for left in right (one iterable; `in a, b` is a tuple) */
static stmt *lower_for_clause(lower *L, TSNode n) {
  uint32_t rights = 0;
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    const char *f = ts_node_field_name_for_child(n, i);
    if (f && !strcmp(f, "right")) rights++;
  }
  if (ts_node_has_error(n)) {
    gb(L, n, "parser-limitation", "the grammar could not parse this comprehension clause");
    return NULL;
  }
  if (rights != 1) {
    gb(L, n, "unsupported-loop", "a comprehension over a tuple display (for x in a, b)");
    return NULL;
  }
  if (too_deep(L, n)) return NULL;
  return lower_for(L, n, true);
}

/* result.append(elt) for the comprehension's own list `result`. */
static stmt *own_append(lower *L, TSNode n, int result, expr *elt) {
  expr *recv = new_expr(L, EX_LOCAL, n);
  recv->u.local = result;
  expr *call = new_expr(L, EX_CALL, n);
  call->u.call.kind = CALLEE_METHOD;
  call->u.call.name = "append";
  call->u.call.op = ops_find(OPS_METHOD, "append", 1);
  call->u.call.own_list = true;
  call->u.call.n = 2;
  call->u.call.args = arena_alloc(L->m->a, 2 * sizeof(expr *));
  call->u.call.args[0] = recv;
  call->u.call.args[1] = elt;
  stmt *s = new_stmt(L, ST_EXPR, n);
  s->u.expr = call;
  return s;
}

/* list_comprehension: [ body for_in_clause (for_in_clause | if_clause)* ] */
static expr *lower_list_comprehension(lower *L, TSNode n) {
  int saved_names = L->ncomp_names, saved_loops = L->loops;
  L->ncomps++;
  L->f->comprehensions = true;
  expr *e = new_expr(L, EX_LISTCOMP, n);
  e->u.comp.result = append_local(L, "<listcomp>", unique_cname(L, arena_printf(L->m->a, "lc%d",
                                  L->ncomps)));
  stmt **hole = &e->u.comp.loop; /* where the next clause goes */
  bool ok = true;
  TSNode body = child_by_field(n, "body");
  for (uint32_t i = 0; ok && i < ts_node_named_child_count(n); i++) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_eq(c, body) || node_is(c, "comment")) continue;
    stmt *s = NULL;
    if (node_is(c, "for_in_clause")) {
      if ((s = lower_for_clause(L, c))) { *hole = s; hole = &s->u.for_.body; L->loops++; }
    } else if (node_is(c, "if_clause")) {
      expr *cond = lower_expr(L, ts_node_named_child(c, 0));
      if (cond) {
        s = new_stmt(L, ST_IF, c);
        s->u.if_.cond = cond;
        *hole = s;
        hole = &s->u.if_.then;
      }
    } else {
      gb(L, c, "unsupported-expression", arena_printf(L->m->a, "%s in a comprehension",
                                                     ts_node_type(c)));
    }
    ok = s != NULL;
  }
  expr *elt = ok ? lower_expr(L, body) : NULL;
  if (elt) *hole = own_append(L, body, e->u.comp.result, elt);
  L->ncomp_names = saved_names;
  L->loops = saved_loops;
  return elt ? e : NULL;
}

/* expression_statement: expression | assignment | augmented_assignment */
static stmt *lower_expression_statement(lower *L, TSNode n) {
  TSNode e = ts_node_named_child(n, 0);
  if (node_is(e, "assignment")) return lower_assignment(L, e);
  if (node_is(e, "augmented_assignment")) return lower_augassign(L, e);
  if (node_is(e, "string")) return new_stmt(L, ST_PASS, n); /* docstring */
  if (node_is(e, "yield")) { gb(L, e, "generator", "yield statement"); return NULL; }
  if (ts_node_named_child_count(n) > 1) { /* a, b (a tuple display) */
    gb(L, n, "unsupported-statement", "tuple expression statement");
    return NULL;
  }
  L->statement_call = e; /* a call whose result is not used */
  expr *x = lower_expr(L, e);
  if (!x) return NULL;
  stmt *s = new_stmt(L, ST_EXPR, n);
  s->u.expr = x;
  return s;
}

/* Builtin exception classes a kernel raises (the guard checks the name still
 * means the builtin). */
static const char *const builtin_exceptions[] = {
    "ValueError", "TypeError", "IndexError", "KeyError", "LookupError", "ZeroDivisionError",
    "ArithmeticError", "OverflowError", "RuntimeError", "NotImplementedError", "AssertionError",
    "Exception", NULL};

/* A plain string literal's text (no prefix, escape or triple quote), or NULL. */
static const char *plain_string(lower *L, TSNode n) {
  if (!node_is(n, "string")) return NULL;
  char *t = text(L, n);
  size_t len = strlen(t);
  if (len < 2 || (t[0] != '\'' && t[0] != '"') || t[len - 1] != t[0] || strchr(t, '\\') ||
      (len >= 6 && t[1] == t[0] && t[2] == t[0]))
    return NULL;
  return arena_strndup(L->m->a, t + 1, len - 2);
}

/* raise_statement: raise E | raise E() | raise E('text') | raise E(value),
 * E a builtin exception class; other forms break the graph. */
static stmt *lower_raise(lower *L, TSNode n) {
  TSNode x = ts_node_named_child(n, 0);
  TSNode cls = node_is(x, "call") ? child_by_field(x, "function") : x;
  TSNode args = node_is(x, "call") ? child_by_field(x, "arguments") : (TSNode){0};
  uint32_t nargs = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  const char *name = !ts_node_is_null(cls) && node_is(cls, "identifier") ? text(L, cls) : "";
  bool builtin = find_local(L->f, name) < 0 && !scope_is_global(L->m, name);
  const char *const *b = builtin_exceptions;
  while (*b && strcmp(*b, name)) b++;
  TSNode a0 = nargs ? ts_node_named_child(args, 0) : (TSNode){0};
  if (ts_node_is_null(x) || ts_node_named_child_count(n) != 1 || !*b || !builtin ||
      (!ts_node_is_null(args) && !node_is(args, "argument_list")) || nargs > 1 ||
      (nargs && (node_is(a0, "keyword_argument") || node_is(a0, "list_splat") ||
                 node_is(a0, "dictionary_splat")))) {
    gb(L, n, "exception-handling", "'raise' of something other than a builtin exception class "
       "with at most one argument");
    return NULL;
  }
  stmt *s = new_stmt(L, ST_RAISE, n);
  s->u.raise_.exc = *b;
  s->u.raise_.guard = ir_slot(L->m, SLOT_BUILTIN, *b, NULL, NULL, NULL, -1);
  if (nargs) {
    s->u.raise_.msg = plain_string(L, a0);
    if (!s->u.raise_.msg && node_is(a0, "string")) {
      gb(L, a0, "exception-handling", "'raise' with a string that has escapes, a prefix or "
         "triple quotes (only plain literals are compiled)");
      return NULL;
    }
    if (!s->u.raise_.msg && !(s->u.raise_.arg = lower_expr(L, a0))) return NULL;
  }
  return s;
}

static stmt *lower_stmt(lower *L, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "expression_statement")) return lower_expression_statement(L, n);
  if (!strcmp(t, "return_statement")) {
    stmt *s = new_stmt(L, ST_RETURN, n);
    TSNode v = ts_node_named_child(n, 0);
    if (!ts_node_is_null(v) && !node_is(v, "comment") && !node_is(v, "none")) {
      s->u.ret = lower_expr(L, v);
      if (!s->u.ret) return NULL;
    }
    return s;
  }
  if (!strcmp(t, "if_statement")) return lower_if(L, n);
  if (!strcmp(t, "while_statement")) return lower_while(L, n);
  if (!strcmp(t, "for_statement")) {
    if (ts_node_child_count(n) && !strcmp(ts_node_type(ts_node_child(n, 0)), "async")) {
      gb(L, n, "generator", "async for");
      return NULL;
    }
    return lower_for(L, n, false);
  }
  if (!strcmp(t, "break_statement")) return new_stmt(L, ST_BREAK, n);
  if (!strcmp(t, "continue_statement")) return new_stmt(L, ST_CONTINUE, n);
  if (!strcmp(t, "pass_statement")) return new_stmt(L, ST_PASS, n);
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
      !strcmp(t, "decorated_definition")) {
    gb(L, n, "nested-scope", arena_printf(L->m->a, "nested %s", t));
    return NULL;
  }
  if (!strcmp(t, "global_statement") || !strcmp(t, "nonlocal_statement")) {
    gb(L, n, "scope-declaration", arena_printf(L->m->a, "%s", t));
    return NULL;
  }
  if (!strcmp(t, "raise_statement")) return lower_raise(L, n);
  if (!strcmp(t, "try_statement") ||
      !strcmp(t, "assert_statement") || !strcmp(t, "with_statement")) {
    gb(L, n, "exception-handling", arena_printf(L->m->a, "'%.*s' statement",
       (int)(strchr(t, '_') - t), t));
    return NULL;
  }
  gb(L, n, "unsupported-statement", arena_printf(L->m->a, "%s", t));
  return NULL;
}

static void hit_identifiers(lower *L, TSNode n, bool *hit) {
  if (node_is(n, "identifier")) {
    int base = find_local(L->f, text(L, n));
    if (base >= 0 && base < L->ncurrent) hit[base] = true;
    return;
  }
  if (node_is(n, "attribute") || node_is(n, "subscript")) return; /* binds no name */
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c; i++) hit_identifiers(L, ts_node_named_child(n, i), hit);
}

/* The local names an interpreted statement may bind (assignment, for and
 * with/except targets, :=, imports, def/class names, del). Nested scopes
 * bind nothing here. Each gets a new version whose type is unknown. */
static void mark_rebound(lower *L, TSNode n, bool *hit) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "lambda") || strstr(t, "comprehension") || !strcmp(t, "generator_expression"))
    return;
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")) {
    hit_identifiers(L, child_by_field(n, "name"), hit);
    return;
  }
  if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment") ||
      !strcmp(t, "for_statement"))
    hit_identifiers(L, child_by_field(n, "left"), hit);
  else if (!strcmp(t, "named_expression"))
    hit_identifiers(L, child_by_field(n, "name"), hit);
  else if (!strcmp(t, "as_pattern_target") || !strcmp(t, "delete_statement") ||
           !strcmp(t, "import_statement") || !strcmp(t, "import_from_statement") ||
           !strcmp(t, "aliased_import")) {
    hit_identifiers(L, n, hit);
    return;
  }
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c; i++) mark_rebound(L, ts_node_named_child(n, i), hit);
}

/* `NAME = fn(...)` where fn is a def of this module annotated `-> int`,
 * `-> float` or `-> bool`: NAME's type after the interpreted statement (the
 * regions that read it check it on entry, like every live-in). */
static const type *interp_result_hint(lower *L, TSNode n, const char **name) {
  TSNode e = ts_node_named_child(n, 0);
  if (!node_is(n, "expression_statement") || !node_is(e, "assignment")) return NULL;
  TSNode left = child_by_field(e, "left"), right = child_by_field(e, "right");
  if (!node_is(left, "identifier") || !node_is(right, "call")) return NULL;
  TSNode fn = child_by_field(right, "function");
  if (!node_is(fn, "identifier") || find_local(L->f, text(L, fn)) >= 0) return NULL;
  func *callee = scope_find_func(L->m, text(L, fn));
  if (!callee || !callee->ret_ann || !ty_is_number(callee->ret_ann) ||
      callee->ret_ann->kind == TY_NUM)
    return NULL;
  *name = text(L, left);
  return callee->ret_ann;
}

/* Names in `hit` are bound by the interpreter here: at the top level each
 * gets a new version; inside an interpreted compound statement (no versions:
 * code may run again) the current version is marked. */
static void bind_dynamic(lower *L, const bool *hit, const char *hinted, const type *hint) {
  for (int base = 0; base < L->ncurrent; base++) {
    if (!hit[base]) continue;
    bool hinted_here = hinted && !strcmp(L->f->locals[base], hinted);
    /* Nested, the local keeps the type its compiled assignments give it: a
     * region reading it checks the interpreter's value on entry. */
    if (L->depth > 0 && !hinted_here) continue;
    int v = L->depth == 0 ? new_version(L, base) : L->current[base];
    L->seen[base] = true;
    if (L->ndynamic == 256) continue;
    L->hint[L->ndynamic] = hinted_here ? hint : NULL;
    L->dynamic[L->ndynamic++] = v;
  }
}

static bool is_clause(TSNode n) {
  return node_is(n, "elif_clause") || node_is(n, "else_clause") || node_is(n, "except_clause") ||
         node_is(n, "except_group_clause") || node_is(n, "finally_clause");
}

/* The header of an interpreted compound statement binds: for targets (an int
 * for range(...)), with/except `as` names, := in conditions. */
static void bind_header(lower *L, TSNode n) {
  bool *hit = arena_alloc(L->m->a, sizeof(bool) * (size_t)(L->ncurrent + 1));
  const char *hinted = NULL;
  const type *hint = NULL;
  if (node_is(n, "for_statement")) {
    TSNode left = child_by_field(n, "left"), right = child_by_field(n, "right");
    hit_identifiers(L, left, hit);
    TSNode fn = node_is(right, "call") ? child_by_field(right, "function") : right;
    if (node_is(left, "identifier") && node_is(right, "call") && node_is(fn, "identifier") &&
        !strcmp(text(L, fn), "range") && find_local(L->f, "range") < 0 &&
        !scope_is_global(L->m, "range")) {
      hinted = text(L, left);
      hint = &ty_int;
    }
  }
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = ts_node_named_child(n, i);
    if (node_is(ch, "block")) continue;
    if (node_is(n, "for_statement") && (ts_node_eq(ch, child_by_field(n, "left")))) continue;
    if (is_clause(ch)) {
      uint32_t cc = ts_node_named_child_count(ch);
      for (uint32_t k = 0; k < cc; k++)
        if (!node_is(ts_node_named_child(ch, k), "block")) mark_rebound(L, ts_node_named_child(ch, k), hit);
      continue;
    }
    mark_rebound(L, ch, hit);
  }
  bind_dynamic(L, hit, hinted, hint);
}

static stmt *lower_block(lower *L, TSNode block);

/* A compound statement whose blocks are split when it runs in the interpreter. */
static bool splittable(TSNode n) {
  if (!node_is(n, "if_statement") && !node_is(n, "while_statement") &&
      !node_is(n, "for_statement") && !node_is(n, "with_statement") && !node_is(n, "try_statement"))
    return false;
  return !(ts_node_child_count(n) && !strcmp(ts_node_type(ts_node_child(n, 0)), "async"));
}

/* An interpreted compound statement keeps its blocks: they are split in
 * turn, so the statements in them that compile still run as kernels. */
static void split_blocks(lower *L, stmt *s, TSNode n) {
  TSNode blocks[64];
  int nb = 0;
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c && nb < 64; i++) {
    TSNode ch = ts_node_named_child(n, i);
    if (node_is(ch, "block")) blocks[nb++] = ch;
    else if (is_clause(ch))
      for (uint32_t k = 0; k < ts_node_named_child_count(ch) && nb < 64; k++)
        if (node_is(ts_node_named_child(ch, k), "block")) blocks[nb++] = ts_node_named_child(ch, k);
  }
  bind_header(L, n);
  s->blocks = arena_alloc(L->m->a, sizeof(stmt *) * (size_t)(nb + 1));
  L->depth++;
  for (int i = 0; i < nb; i++) {
    L->split = true;
    s->blocks[i] = lower_block(L, blocks[i]);
  }
  L->depth--;
  s->nblocks = nb;
}

/* Keeps the first `keep` graph breaks of the function, then `tail`;
 * returns the breaks that followed them. */
static gbreak *splice_breaks(lower *L, int keep, gbreak *tail) {
  gbreak **p = &L->f->breaks;
  for (int i = 0; i < keep && *p; i++) p = &(*p)->next;
  gbreak *old = *p;
  *p = tail;
  return old;
}

static stmt *interp_stmt(lower *L, TSNode n) {
  stmt *s = new_stmt(L, ST_INTERP, n);
  bool split = splittable(n);
  if (L->depth > 0 && split) {
    split_blocks(L, s, n); /* nested: its blocks bind their own names */
    return s;
  }
  bool *hit = arena_alloc(L->m->a, sizeof(bool) * (size_t)(L->ncurrent + 1));
  const char *hinted = NULL;
  const type *hint = interp_result_hint(L, n, &hinted);
  mark_rebound(L, n, hit);
  if (L->depth == 0 && split) split_blocks(L, s, n); /* its blocks bind at the current versions... */
  bind_dynamic(L, hit, hinted, hint);                  /* ...and later code sees new ones */
  return s;
}

/* block: statement+ ; returns the linked statement list. In the function's
 * top-level block, a statement with a graph break becomes ST_INTERP: it runs
 * in the interpreter and the statements around it still compile. */
static stmt *lower_block(lower *L, TSNode block) {
  stmt *head = NULL, **tail = &head;
  bool split = L->split || L->depth == 0;
  L->split = false; /* blocks inside a compiled statement are not split */
  uint32_t c = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = ts_node_named_child(block, i);
    if (node_is(ch, "comment")) continue;
    int before = count_breaks(L);
    stmt *s = lower_stmt(L, ch);
    if (split && (count_breaks(L) != before || !s)) {
      gbreak *found = splice_breaks(L, before, NULL); /* as first found: the ones reported */
      s = interp_stmt(L, ch); /* re-lowering its blocks finds them again: drop those */
      splice_breaks(L, before, found);
      L->f->partial = true;
    }
    if (!s) continue; /* the break is recorded; keep lowering to find all */
    if (split) s->split_id = L->f->nsplit++;
    if (L->depth == 0) { /* shared while no name gets a new version: linear in the length */
      if (!L->snapshot) {
        L->snapshot = arena_alloc(L->m->a, sizeof(int) * (size_t)(L->ncurrent + 1));
        memcpy(L->snapshot, L->current, sizeof(int) * (size_t)L->ncurrent);
      }
      s->cur_after = L->snapshot;
    }
    *tail = s;
    tail = &s->next;
  }
  return head;
}

static bool any_compiled_stmt(stmt *b) {
  for (stmt *s = b; s; s = s->next) {
    if (s->kind != ST_INTERP) return true;
    for (int i = 0; i < s->nblocks; i++) if (any_compiled_stmt(s->blocks[i])) return true;
  }
  return false;
}

/* The IR phase: every function of the module lowered from its syntax tree
 * (graph breaks recorded, the module's guard slots fixed), before infer. */
void ir_lower_module(module *m) {
  for (int i = 0; i < m->nfuncs; i++) ir_lower_func(m, m->funcs[i]);
}

void ir_lower_func(module *m, func *f) {
  if (f->lowered) return;
  f->lowered = true;
  lower L = {.m = m, .f = f};
  for (int i = 0; i < f->nparams; i++) add_local(&L, f->params[i]);
  TSNode body = child_by_field(f->node, "body");
  if (ts_node_has_error(f->node) || ts_node_is_null(body)) { /* never compile a guess */
    gb(&L, f->node, "parser-limitation", "the parser could not read this function");
    return;
  }
  /* `async def`: a coroutine is never a kernel */
  if (ts_node_child_count(f->node) && !strcmp(ts_node_type(ts_node_child(f->node, 0)), "async"))
    gb(&L, f->node, "generator", "async def");
  collect_locals(&L, body);
  L.ncurrent = f->nbase = f->nlocals;
  L.current = arena_alloc(m->a, sizeof(int) * (size_t)(f->nlocals + 1));
  L.seen = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
  L.nversions = arena_alloc(m->a, sizeof(int) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < f->nlocals; i++) {
    L.current[i] = i;
    L.seen[i] = i < f->nparams;
  }
  f->body = lower_block(&L, body);
  f->local_dynamic = arena_alloc(m->a, sizeof(bool) * (size_t)(f->nlocals + 1));
  f->local_hint = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nlocals + 1));
  for (int i = 0; i < L.ndynamic; i++) {
    f->local_dynamic[L.dynamic[i]] = true;
    f->local_hint[L.dynamic[i]] = L.hint[i];
  }
  /* Never partial: generators, global/nonlocal (names change scope), and
   * functions where nothing but interpreted statements remain. */
  bool any_compiled = any_compiled_stmt(f->body);
  for (gbreak *b = f->breaks; b; b = b->next)
    if (!strcmp(b->type, "generator") || !strcmp(b->type, "scope-declaration") ||
        !strcmp(b->type, "parser-limitation"))
      f->partial = false, any_compiled = false;
  if (!any_compiled) f->partial = false;
}
