/* expr.c: expressions lowered from syntax: literals, names (locals, module
 * constants, math), operators, comparisons, calls (module functions,
 * builtins and math from the operation table, methods, allow_in_graph),
 * attributes, subscripts and slices; the IR visitors.
 */
#include "lower.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static expr *lower_positional_call(lower *L, TSNode n, TSNode fnode, TSNode args);

/* How a call consumes a generator expression that is its only argument
 * (expr.u.comp.consumer), or 0 when it is not compiled: builtins any, all,
 * sum, min, max, list, tuple, sorted (not shadowed) and any object's join
 * (str.join takes every item before it uses one). */
static char genexpr_consumer(lower *L, TSNode fnode) {
  if (node_is(fnode, "attribute"))
    return !strcmp(text(L, child_by_field(fnode, "attribute")), "join") ? 'v' : 0;
  if (!node_is(fnode, "identifier")) return 0;
  const char *name = text(L, fnode);
  if (resolve_local(L, name) >= 0 || scope_is_global(L->m, name)) return 0;
  static const char *const names[] = {"any", "all", "sum", "min", "max", "list", "tuple", "sorted",
                                      "set", "frozenset", "dict"};
  static const char kinds[] = {'a', 'A', 'n', 'n', 'n', 'v', 'v', 'v', 's', 's', 'd'};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(name, names[i])) return kinds[i];
  return 0;
}

/* ---- expressions ------------------------------------------------------- */

expr *new_expr(lower *L, exkind k, TSNode n) {
  expr *e = arena_alloc(L->m->a, sizeof *e);
  e->kind = k;
  e->pos = node_pos(n);
  e->id = L->f->nexprs++;
  return e;
}

/* A constant object made once from its source text (EX_CONST): a str or
 * bytes literal, an imaginary literal (2j, 1.5e3J), an int literal beyond
 * int64, the Ellipsis (...). */
static expr *lower_literal_object(lower *L, TSNode n) {
  expr *e = new_expr(L, EX_CONST, n);
  e->u.literal = text(L, n);
  return e;
}

/* integer: 123, 1_000, 0x1F, 0o17, 0b101 */
static expr *lower_integer(lower *L, TSNode n) {
  char *s = text(L, n), *d = s;
  for (char *p = s; *p; p++) if (*p != '_') *d++ = *p;
  *d = 0;
  if (strchr("jJ", s[strlen(s) - 1])) return lower_literal_object(L, n); /* 2j: a complex */
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
  if (errno || *end || v > (unsigned long long)INT64_MAX) /* beyond int64: a Python int, made once */
    return lower_literal_object(L, n);
  expr *e = new_expr(L, EX_INT, n);
  e->u.i = (int64_t)v;
  return e;
}

/* float: 1.5, 1e9, 1_0.5; the C library's strtod rounds as CPython does. */
static expr *lower_float(lower *L, TSNode n) {
  char *s = text(L, n), *d = s;
  for (char *p = s; *p; p++) if (*p != '_') *d++ = *p;
  *d = 0;
  if (strchr("jJ", s[strlen(s) - 1])) return lower_literal_object(L, n); /* 1.5j: a complex */
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

/* A global or builtin of any other kind, read as LOAD_GLOBAL reads it (a
 * name declared `global` too: the function may rebind it). */
expr *lower_name(lower *L, TSNode n, const char *name) {
  expr *e = new_expr(L, EX_NAME, n);
  e->u.global = ir_slot(L->m, SLOT_NAME, name, NULL, NULL, NULL, -1);
  return e;
}

/* identifier: a local, a module constant, a value from math, or any other
 * global or builtin (an object). */
static expr *lower_identifier(lower *L, TSNode n) {
  char *name = text(L, n);
  if (declared_global(L, name)) return lower_name(L, n, name);
  int loc = resolve_local(L, name);
  if (loc >= 0) {
    expr *e = new_expr(L, EX_LOCAL, n);
    e->u.local = loc;
    return e;
  }
  int fv = find_freevar(L->f, name);
  if (fv >= 0) { /* a variable of an enclosing function: its closure cell's content */
    expr *e = new_expr(L, EX_FREE, n);
    e->u.local = fv;
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
  return lower_name(L, n, name);
}

static const char *const binop_text[] = {"+", "-", "*", "/", "//", "%", "**",
                                         "<<", ">>", "&", "|", "^", "@", NULL};

int binop_from_text(const char *s) {
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
    if (ts_node_is_named(ch) && !ts_node_is_extra(ch)) {
      if (no) {
        int k = -1;
        for (int j = 0; j <= CMP_NOT_IN; j++) if (!strcmp(optext, cmpop_spelling[j])) k = j;
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
  for (int i = 0; i < nops; i++) {
    if ((ops[i] == CMP_IS || ops[i] == CMP_IS_NOT) && operands[i]->kind != EX_NONE &&
        operands[i + 1]->kind != EX_NONE)
      ops[i] = ops[i] == CMP_IS ? CMP_ID : CMP_NOT_ID; /* identity of two objects */
  } /* a chain with is or in: compared as objects (infer: type_object_chain) */
  expr *e = new_expr(L, EX_COMPARE, n);
  e->u.cmp.n = no;
  e->u.cmp.operands = arena_alloc(L->m->a, sizeof(expr *) * (size_t)no);
  memcpy(e->u.cmp.operands, operands, sizeof(expr *) * (size_t)no);
  e->u.cmp.ops = arena_alloc(L->m->a, sizeof(cmpop) * (size_t)(nops ? nops : 1));
  memcpy(e->u.cmp.ops, ops, sizeof(cmpop) * (size_t)nops);
  return e;
}

/* dictionary: { pair (key: value), ... }; with a **mapping, an EX_UNPACKED
 * display 'd' whose elements are key, value pairs and single **mappings
 * (splat marks those). */
static expr *lower_dict(lower *L, TSNode n) {
  uint32_t c = node_named_count(n);
  expr *e = new_expr(L, EX_DICT, n);
  e->u.tuple.elts = arena_alloc(L->m->a, sizeof(expr *) * (2 * c + 1));
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = node_named(n, i);
    if (node_is(ch, "dictionary_splat")) { /* **m: an EX_UNPACKED dict display */
      expr *m = lower_expr(L, node_named(ch, 0));
      if (!m) return NULL;
      if (!e->u.tuple.splat) e->u.tuple.splat = arena_alloc(L->m->a, sizeof(bool) * (2 * c + 1));
      ((bool *)e->u.tuple.splat)[e->u.tuple.n] = true;
      e->u.tuple.elts[e->u.tuple.n++] = m;
      e->kind = EX_UNPACKED;
      e->u.tuple.display = 'd';
      continue;
    }
    if (!node_is(ch, "pair")) {
      gb(L, ch, "unsupported-expression", arena_printf(L->m->a, "%s in a dict display", ts_node_type(ch)));
      return NULL;
    }
    expr *k = lower_expr(L, child_by_field(ch, "key"));
    expr *v = k ? lower_expr(L, child_by_field(ch, "value")) : NULL;
    if (!v) return NULL;
    e->u.tuple.elts[e->u.tuple.n++] = k;
    e->u.tuple.elts[e->u.tuple.n++] = v;
  }
  return e;
}

/* tuple / expression_list: (a, b, ...); list: [a, b, ...] (kind EX_LIST); set: {a, b, ...} */
static expr *lower_elements(lower *L, TSNode n, exkind kind) {
  uint32_t c = node_named_count(n);
  expr *e = new_expr(L, kind, n);
  e->u.tuple.elts = arena_alloc(L->m->a, sizeof(expr *) * (c ? c : 1));
  bool *splat = arena_alloc(L->m->a, sizeof(bool) * (c ? c : 1));
  for (uint32_t i = 0; i < c; i++) {
    TSNode ch = node_named(n, i);
    if (node_is(ch, "parenthesized_list_splat")) {
      gb(L, ch, "unsupported-expression", "a parenthesized starred expression");
      return NULL;
    }
    bool star = node_is(ch, "list_splat"); /* *x: its items go in (an EX_UNPACKED display) */
    expr *x = lower_expr(L, star ? node_named(ch, 0) : ch);
    if (!x) return NULL;
    splat[e->u.tuple.n] = star;
    e->u.tuple.elts[e->u.tuple.n++] = x;
    if (star) {
      e->u.tuple.display = kind == EX_LIST ? 'l' : kind == EX_SET ? 's' : 't';
      e->kind = EX_UNPACKED;
    }
  }
  if (e->kind == EX_UNPACKED) e->u.tuple.splat = splat;
  return e;
}

static bool is_name(lower *L, TSNode fnode, const char *dotted) {
  return !strcmp(text(L, fnode), dotted);
}

static expr *lower_starred_call(lower *L, TSNode n, TSNode fnode, TSNode args);

/* Is argument `a` one whose evaluation can neither raise nor be seen: a
 * number, bool, None or plain string literal (or a signed number: not
 * `-x`, whose __neg__ may run, nor `~1.5`, a TypeError), or a read of one
 * of the function's parameters (always bound in a kernel)? */
static bool quiet_argument(lower *L, TSNode a) {
  if (node_is(a, "unary_operator")) {
    TSNode x = child_by_field(a, "argument");
    return node_is(x, "integer") || (node_is(x, "float") && strcmp(text(L, child_by_field(a, "operator")), "~"));
  }
  if (node_is(a, "integer") || node_is(a, "float") || node_is(a, "true") || node_is(a, "false") ||
      node_is(a, "none"))
    return true;
  if (node_is(a, "string")) {
    for (uint32_t i = 0; i < node_named_count(a); i++)
      if (node_is(node_named(a, i), "interpolation")) return false;
    return true;
  }
  if (!node_is(a, "identifier")) return false;
  int k = find_local(L->f, text(L, a));
  return k >= 0 && k < L->f->nparams; /* (a parameter cannot be declared global or nonlocal) */
}

/* Can argument list `args` be matched to module function callee's
 * parameters here, for a direct kernel call: no starred argument, known
 * keywords once each (none naming a positional-only parameter), no more
 * positional ones than it takes, a number (or None) default for each
 * parameter not given? And may the arguments be
 * evaluated in the parameters' order, as lower_module_call places them,
 * rather than in source order, as CPython evaluates them: the keywords
 * name parameters in increasing order, or all but one of them are quiet
 * (the one may raise or have effects: nothing else can be seen before or
 * after it)? `f(y=g(), x=h())` may not: g() runs first in CPython. NULL
 * when it may; else why not (explain's reason for CPython's call). */
static const char *direct_call_refused(lower *L, TSNode args, func *callee) {
  if (!callee->params_ok || callee->nvarparams || callee->nparams > 64 || !node_is(args, "argument_list"))
    return "it has *args or **kwargs parameters";
  bool given[64] = {0}, increasing = true;
  int npos = 0, last_kw = -1, loud = 0;
  for (uint32_t i = 0; i < node_named_count(args); i++) {
    TSNode a = node_named(args, i);
    if (node_is(a, "list_splat") || node_is(a, "dictionary_splat")) return "a starred argument";
    int k = npos;
    if (node_is(a, "keyword_argument")) {
      const char *kw = text(L, child_by_field(a, "name"));
      for (k = callee->nposonly; k < callee->nparams && strcmp(callee->params[k], kw); k++) {}
      increasing &= k > last_kw;
      last_kw = k;
      loud += !quiet_argument(L, child_by_field(a, "value"));
    } else if (npos++ >= callee->nposparams) {
      return "more positional arguments than it takes (a TypeError)";
    }
    if (k == callee->nparams || given[k]) return "an unknown or repeated keyword (a TypeError)";
    given[k] = true;
  }
  for (int k = 0; k < callee->nparams; k++)
    if (!given[k] && (!callee->param_default[k] || callee->param_default[k]->kind == TY_CONFLICT))
      return "a parameter left to a default that is not a number literal, or to none (a TypeError)";
  return increasing || loud <= 1 ? NULL
         : "keywords out of its parameters' order, two or more of them may raise or have effects (source "
           "order kept)";
}

/* A call to a function of this module: positional and keyword arguments are
 * matched to the callee's parameters here; a missing one takes the callee's
 * default, read from its __defaults__ by the guard like a global. A call
 * that does not match so (the callee has *args or **kwargs, a default is
 * not a number, a starred argument, keywords whose evaluation order could
 * be seen; or a call CPython refuses with a TypeError) is made through the
 * C API, as CALL_FUNCTION_EX makes it. */
static expr *lower_module_call(lower *L, TSNode n, TSNode fnode, TSNode args, func *callee) {
  char *fname = text(L, fnode);
  const char *refused = direct_call_refused(L, args, callee);
  if (refused && node_is(args, "argument_list")) {
    expr *e = lower_starred_call(L, n, fnode, args);
    if (e && e->kind == EX_CALL) e->u.call.via_api = refused;
    return e;
  }
  if (!callee->params_ok || callee->nparams > 64) {
    gb(L, n, "unknown-call", arena_printf(L->m->a, "call to %s(), which has *args or **kwargs "
       "parameters", fname));
    return NULL;
  }
  expr *byparam[64] = {0};
  int npos = 0, nkw = 0, kw_order[64];
  bool seen_kw = false;
  uint32_t c = node_named_count(args);
  for (uint32_t i = 0; i < c; i++) {
    TSNode a = node_named(args, i);
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
      for (k = callee->nposonly; k < callee->nparams; k++) if (!strcmp(callee->params[k], kw)) break;
      if (k == callee->nparams || byparam[k]) { /* TypeError in CPython */
        gb(L, a, "unknown-call", arena_printf(L->m->a, "call to %s() with an unknown or repeated "
           "keyword '%s'", fname, kw));
        return NULL;
      }
      kw_order[nkw++] = k;
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
  e->u.call.npos_given = npos;
  e->u.call.nkw_given = nkw;
  int *kw = arena_alloc(L->m->a, sizeof(int) * (size_t)(nkw + 1));
  memcpy(kw, kw_order, sizeof(int) * (size_t)nkw);
  e->u.call.kw_given = kw;
  e->u.call.callee_name = new_expr(L, EX_NAME, fnode);
  e->u.call.callee_name->u.global = fslot;
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

static expr *lower_opaque_call(lower *L, TSNode n, TSNode fnode, TSNode args, const type *ret) {
  char *fname = text(L, fnode);
  if ((!ret || ret->kind == TY_NONE) && !ts_node_eq(n, L->statement_call)) {
    gb(L, n, "opaque-call", arena_printf(L->m->a, "the result of allow_in_graph %s() is used, "
       "but its type is not declared", fname));
    return NULL;
  }
  expr *e = lower_positional_call(L, n, fnode, args);
  if (!e) return NULL;
  if (e->u.call.nkw) {
    gb(L, n, "keyword-arguments", arena_printf(L->m->a, "allow_in_graph call %s() with keyword "
       "arguments", fname));
    return NULL;
  }
  e->u.call.kind = CALLEE_OPAQUE;
  e->u.call.name = fname;
  e->u.call.ret = ret && ret->kind != TY_NONE ? ret : NULL;
  e->u.call.callee_slot = ir_slot(L->m, SLOT_OPAQUE, fname, NULL, NULL, NULL, -1);
  return e;
}

/* A call to an assume_constant_result function: a guarded constant. */
static expr *lower_constant_result(lower *L, TSNode n, TSNode args, func *callee) {
  if (node_named_count(args) != 0 || !callee->ret_ann ||
      !ty_is_number(callee->ret_ann) || callee->ret_ann->kind == TY_NUM) {
    gb(L, n, "constant-result", arena_printf(L->m->a, "%s() is assume_constant_result but %s",
       callee->name, node_named_count(args) ? "is called with arguments"
                     : "has no int, float or bool return annotation"));
    return NULL;
  }
  expr *e = new_expr(L, EX_GLOBAL, n);
  e->u.global = ir_slot(L->m, SLOT_CONST_RESULT, callee->name, NULL, callee->ret_ann, NULL, -1);
  return e;
}

/* A call with positional and keyword arguments (its callee kind is set by
 * the caller; infer.c takes keywords only in calls through the C API);
 * starred arguments break the graph. */
static expr *lower_positional_call(lower *L, TSNode n, TSNode fnode, TSNode args) {
  expr *e = new_expr(L, EX_CALL, n);
  if (node_is(args, "generator_expression")) { /* f(x for x in it): its items as a list */
    e->u.call.args = arena_alloc(L->m->a, sizeof(expr *));
    e->u.call.kwnames = arena_alloc(L->m->a, sizeof(char *));
    char consumer = genexpr_consumer(L, fnode);
    if (!(e->u.call.args[0] = lower_comprehension(L, args, consumer))) return NULL;
    if (consumer == 'n') e->u.call.args[0]->u.comp.reducer = text(L, fnode);
    e->u.call.n = 1;
    return e;
  }
  uint32_t c = node_named_count(args);
  e->u.call.args = arena_alloc(L->m->a, sizeof(expr *) * (c ? c : 1));
  e->u.call.kwnames = arena_alloc(L->m->a, sizeof(char *) * (c ? c : 1));
  for (uint32_t i = 0; i < c; i++) {
    TSNode a = node_named(args, i);
    if (node_is(a, "list_splat") || node_is(a, "dictionary_splat")) {
      gb(L, a, "keyword-arguments", arena_printf(L->m->a, "call to %s with starred arguments",
         text(L, fnode)));
      return NULL;
    }
    bool kw = node_is(a, "keyword_argument");
    expr *x = lower_expr(L, kw ? child_by_field(a, "value") : a);
    if (!x) return NULL;
    if (kw) e->u.call.kwnames[e->u.call.nkw++] = text(L, child_by_field(a, "name"));
    e->u.call.args[e->u.call.n++] = x; /* keywords come after the positional ones */
  }
  return e;
}

/* obj.name(args): a list method (append, pop, insert: a row of the
 * operation table) or any method of an object (called through the C API),
 * typed by infer.c; anything else is a type failure there. The receiver
 * becomes args[0]. */
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
  if (recv->kind == EX_NAME) classes_named_receiver(L->m, recv->u.global->name); /* Cls.m(...) */
  return e;
}

/* An attribute name as the compiler stores it: inside a class, __name (not
 * __name__) becomes _Class__name (private name mangling; the class name
 * without its leading underscores). */
static const char *mangled(lower *L, const char *attr) {
  size_t n = strlen(attr);
  if (!L->f->method || n < 3 || strncmp(attr, "__", 2) || !strcmp(attr + n - 2, "__")) return attr;
  const char *q = L->f->qualname, *last = strrchr(q, '.');
  if (!last) return attr;
  const char *cls = last; /* the component before the method's name */
  while (cls > q && cls[-1] != '.') cls--;
  size_t cl = (size_t)(last - cls);
  while (cl && *cls == '_') cls++, cl--;
  if (!cl) return attr;
  return arena_printf(L->m->a, "_%.*s%s", (int)cl, cls, attr);
}

/* callee(pre..., a, *it, k=v, **m) through the C API as CALL_FUNCTION_EX
 * makes it: the callee and the npre positional arguments `pre` already
 * lowered (evaluated first, in that order), then argument list `args` in
 * source order (argform; a null `args`: none). A *iterable after a keyword
 * argument, which CPython evaluates before the keywords, is a break. With
 * no *iterable and no **mapping, a plain call (no argform; nkw keywords
 * last), as CALL makes it: no list, tuple or dict per call. */
expr *lower_generic_call(lower *L, TSNode n, const char *name, expr *callee, expr *const *pre, int npre,
                         TSNode args) {
  uint32_t c = ts_node_is_null(args) ? 0 : node_named_count(args);
  expr *e = new_expr(L, EX_CALL, n);
  e->u.call.kind = CALLEE_VALUE;
  e->u.call.name = name;
  e->u.call.args = arena_alloc(L->m->a, sizeof(expr *) * (c + 1 + (uint32_t)npre));
  e->u.call.kwnames = arena_alloc(L->m->a, sizeof(char *) * (c + 1));
  char *form = arena_alloc(L->m->a, c + 2 + (uint32_t)npre);
  e->u.call.args[0] = callee;
  form[0] = 'f';
  e->u.call.n = 1;
  for (int i = 0; i < npre; i++) {
    form[e->u.call.n] = 'p';
    e->u.call.args[e->u.call.n++] = pre[i];
  }
  bool keywords = false;
  int nk = 0;
  for (uint32_t i = 0; i < c; i++) {
    TSNode a = node_named(args, i);
    char k = node_is(a, "list_splat") ? '*' : node_is(a, "dictionary_splat") ? 'd'
             : node_is(a, "keyword_argument") ? 'k' : 'p';
    if ((k == '*' || k == 'p') && keywords) {
      gb(L, a, "keyword-arguments", "a *iterable after a keyword argument (evaluated before the keywords)");
      return NULL;
    }
    keywords |= k == 'k' || k == 'd';
    TSNode v = k == 'k' ? child_by_field(a, "value") : k == 'p' ? a : node_named(a, 0);
    expr *x = lower_expr(L, v);
    if (!x) return NULL;
    if (k == 'k') e->u.call.kwnames[nk++] = text(L, child_by_field(a, "name"));
    form[e->u.call.n] = k;
    e->u.call.args[e->u.call.n++] = x;
  }
  form[e->u.call.n] = 0;
  if (!strpbrk(form, "*d")) { /* g(x, k=v) of a def g(x, **kw): no iterable, no mapping to spread */
    e->u.call.nkw = nk;     /* a vectorcall, as CALL makes it (keywords last, by name) */
    return e;
  }
  e->u.call.argform = form;
  return e;
}

/* f(a, *it, k=v, **m): the callee's value (as LOAD_ATTR or LOAD_GLOBAL
 * reads it) called as CALL_FUNCTION_EX calls it. */
static expr *lower_starred_call(lower *L, TSNode n, TSNode fnode, TSNode args) {
  expr *callee = lower_expr(L, fnode);
  return callee ? lower_generic_call(L, n, text(L, fnode), callee, NULL, 0, args) : NULL;
}

static bool has_splat(TSNode args) {
  for (uint32_t i = 0; node_is(args, "argument_list") && i < node_named_count(args); i++)
    if (node_is(node_named(args, i), "list_splat") ||
        node_is(node_named(args, i), "dictionary_splat"))
      return true;
  return false;
}

/* May super() without arguments compile here: the function has the
 * __class__ cell (a method, or a function in one, using super) and a first
 * positional parameter, which is what 3.11's super_init_without_args reads
 * from the frame? */
static bool zero_arg_super(lower *L) {
  return find_freevar(L->f, "__class__") >= 0 && L->f->nposparams > 0;
}

/* super() in a kernel: LOAD_GLOBAL super, called as the interpreter calls
 * it, with the __class__ cell and the first parameter's current value,
 * which it would read from the frame (runtime/objects.h's dynac_super). */
static expr *lower_zero_arg_super(lower *L, TSNode n, TSNode fnode) {
  expr *e = new_expr(L, EX_CALL, n);
  e->u.call.kind = CALLEE_VALUE;
  e->u.call.name = "super";
  e->u.call.n = 2;
  e->u.call.args = arena_alloc(L->m->a, sizeof(expr *) * 2);
  e->u.call.args[0] = lower_name(L, fnode, "super");
  e->u.call.args[1] = new_expr(L, EX_LOCAL, fnode);
  e->u.call.args[1]->u.local = resolve_local(L, L->f->params[0]);
  e->u.call.super_cell = find_freevar(L->f, "__class__") + 1;
  return e;
}

/* call: function argument_list */
/* A builtin that reads the frame calling it (its locals, globals or
 * __class__ cell): called from a kernel it would read its caller's. */
static bool reads_calling_frame(lower *L, TSNode fnode, TSNode args) {
  if (!node_is(fnode, "identifier") || !node_is(args, "argument_list")) return false;
  const char *name = text(L, fnode);
  if (resolve_local(L, name) >= 0 || scope_is_global(L->m, name) || declared_global(L, name)) return false;
  uint32_t n = node_named_count(args);
  return !strcmp(name, "globals") || !strcmp(name, "locals") ||
         ((!strcmp(name, "vars") || !strcmp(name, "dir") || (!strcmp(name, "super") && !zero_arg_super(L))) &&
          n == 0) ||
         ((!strcmp(name, "eval") || !strcmp(name, "exec")) && n < 2);
}

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
  if (node_is(fnode, "identifier") && !strcmp(text(L, fnode), "super") && node_is(args, "argument_list") &&
      !node_named_count(args) && resolve_local(L, "super") < 0 && find_freevar(L->f, "super") < 0 &&
      !scope_is_global(L->m, "super") && !declared_global(L, "super") && zero_arg_super(L))
    return lower_zero_arg_super(L, n, fnode);
  if (reads_calling_frame(L, fnode, args)) {
    L->f->reads_frame = true;
    gb(L, n, "unsupported-expression", arena_printf(L->m->a, "%s() reads the calling frame, which a kernel does not "
       "have", text(L, fnode)));
    return NULL;
  }
  if (node_is(args, "generator_expression")) {
    char consumer = genexpr_consumer(L, fnode);
    if (!consumer) { /* f(x for x in it): the generator object, passed as any argument is */
      expr *callee = lower_expr(L, fnode), *gen = callee ? lower_genexpr(L, args) : NULL;
      return gen ? lower_generic_call(L, n, text(L, fnode), callee, &gen, 1, (TSNode){0}) : NULL;
    }
    if (consumer == 'a' || consumer == 'A') { /* the loop is the call */
      expr *e = lower_comprehension(L, args, consumer);
      if (e) {
        e->guard = ir_slot(L->m, SLOT_BUILTIN, text(L, fnode), NULL, NULL, NULL, -1);
        e->u.comp.gen = e->pos;
        e->pos = node_pos(n); /* where the call's value stands (a continuation's operand) */
      }
      return e;
    }
  } else if (!node_is(args, "argument_list")) {
    gb(L, n, "unsupported-expression", "call with unusual arguments");
    return NULL;
  }
  if (node_is(fnode, "identifier") && !strcmp(text(L, fnode), "float") &&
      is_builtin_call(L, "float") && node_named_count(args) == 1 &&
      node_is(node_named(args, 0), "string"))
    return lower_float_of_string(L, n, node_named(args, 0));
  if (node_is(fnode, "identifier") && !strcmp(text(L, fnode), "pow") && is_builtin_call(L, "pow") &&
      node_named_count(args) == 2 &&
      !node_is(node_named(args, 0), "keyword_argument") &&
      !node_is(node_named(args, 1), "keyword_argument")) {
    expr *a = lower_expr(L, node_named(args, 0));
    expr *b = lower_expr(L, node_named(args, 1));
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
    if (has_splat(args)) return lower_starred_call(L, n, fnode, args);
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
  if (has_splat(args)) return lower_starred_call(L, n, fnode, args);
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
    const char *attr = mangled(L, text(L, child_by_field(fnode, "attribute")));
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
    e->u.call.op = method; /* NULL: any method of an object, through the C API */
    return lower_method_call(L, obj, e, attr);
  }
  if (node_is(fnode, "identifier") || node_is(fnode, "attribute") || node_is(fnode, "call") ||
      node_is(fnode, "subscript") || node_is(fnode, "parenthesized_expression")) {
    e = lower_method_call(L, fnode, e, fname); /* key(x), Class(x), f(a)(b): the callee's value */
    if (e) e->u.call.kind = CALLEE_VALUE;
    return e;
  }
  gb(L, n, "unknown-call", arena_printf(L->m->a, "call to %s", fname));
  return NULL;
}

/* Does this string node (or a part of a concatenation) interpolate (an f-string)? */
static bool is_fstring(lower *L, TSNode n) {
  if (node_is(n, "concatenated_string")) {
    for (uint32_t i = 0; i < node_named_count(n); i++)
      if (is_fstring(L, node_named(n, i))) return true;
    return false;
  }
  for (const char *p = text(L, n); *p && *p != '"' && *p != '\''; p++)
    if (*p == 'f' || *p == 'F') return true;
  return false;
}

/* ---- f-strings: literal parts as str constants, replacement fields as
 * CPython's FORMAT_VALUE (conversion, then format(value, spec)), the parts
 * joined as BUILD_STRING joins them. */
typedef struct fparts {
  int n, cap;
  expr **elts;
  char *conv;
  const char **spec;
} fparts;

static void fpart_add(lower *L, fparts *P, expr *e, char conv, const char *spec) {
  if (P->n == P->cap) {
    int cap = P->cap ? 2 * P->cap : 8;
    expr **elts = arena_alloc(L->m->a, sizeof(expr *) * (size_t)cap);
    char *conv2 = arena_alloc(L->m->a, (size_t)cap);
    const char **spec2 = arena_alloc(L->m->a, sizeof(char *) * (size_t)cap);
    for (int i = 0; i < P->n; i++) { elts[i] = P->elts[i]; conv2[i] = P->conv[i]; spec2[i] = P->spec[i]; }
    P->elts = elts, P->conv = conv2, P->spec = spec2, P->cap = cap;
  }
  P->elts[P->n] = e;
  P->conv[P->n] = conv;
  P->spec[P->n++] = spec;
}

/* A str constant part from Python literal source text. */
static void fpart_literal(lower *L, fparts *P, TSNode at, const char *literal) {
  expr *e = new_expr(L, EX_CONST, at);
  e->u.literal = literal;
  fpart_add(L, P, e, 'L', NULL);
}

/* The source text between two byte offsets. */
static char *source_between(lower *L, uint32_t from, uint32_t to) {
  return arena_strndup(L->m->a, L->m->p.src.text + from, to > from ? to - from : 0);
}

/* {expr[=][!conv][:spec]}: the value's part (and for `=`, the text before it). */
static bool fstring_field(lower *L, fparts *P, TSNode n, const char *quote) {
  TSNode x = child_by_field(n, "expression"), conv = child_by_field(n, "type_conversion");
  TSNode spec = child_by_field(n, "format_specifier");
  if (ts_node_is_null(x)) return false;
  if (node_is(x, "expression_list") || node_is(x, "pattern_list") || node_is(x, "yield")) {
    gb(L, n, "unsupported-expression", "a tuple or yield in an f-string's replacement field");
    return false;
  }
  bool debug = false;
  uint32_t debug_end = 0;
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c) && !strcmp(ts_node_type(c), "=")) debug = true;
    if (debug && !debug_end && (ts_node_eq(c, conv) || ts_node_eq(c, spec) ||
                                (!ts_node_is_named(c) && !strcmp(ts_node_type(c), "}"))))
      debug_end = ts_node_start_byte(c);
  }
  const char *spec_text = NULL;
  if (!ts_node_is_null(spec)) {
    if (node_named_count(spec)) {
      gb(L, spec, "unsupported-expression", "a replacement field inside an f-string's format spec");
      return false;
    }
    const char *t = text(L, spec);
    if (*t == ':') t++;
    if (strchr(t, '\\') || strchr(t, '\n') || (strchr(t, '"') && strchr(t, '\''))) {
      gb(L, spec, "unsupported-expression", "an f-string format spec with a backslash or both quotes");
      return false;
    }
    spec_text = t;
  }
  if (debug) /* f"{x = }": the text as written, then repr(x) unless a conversion or spec says */
    fpart_literal(L, P, n, arena_printf(L->m->a, "r%s%s%s", quote,
                  source_between(L, ts_node_start_byte(n) + 1, debug_end), quote));
  expr *v = lower_expr(L, x);
  if (!v) return false;
  char c = ts_node_is_null(conv) ? (debug && !spec_text ? 'r' : 0) : text(L, conv)[1];
  if (c && !strchr("sra", c)) {
    gb(L, conv, "unsupported-expression", "an unknown f-string conversion");
    return false;
  }
  fpart_add(L, P, v, c, spec_text);
  return true;
}

/* One string of an f-string (or of a concatenation holding one): its parts. */
static bool fstring_piece(lower *L, fparts *P, TSNode s) {
  if (!is_fstring(L, s)) { /* a plain literal beside an f-string */
    fpart_literal(L, P, s, text(L, s));
    return true;
  }
  const char *start = "", *quote = "\"";
  for (uint32_t i = 0; i < node_named_count(s); i++) {
    TSNode c = node_named(s, i);
    if (node_is(c, "string_start")) {
      const char *t = text(L, c);
      char *prefix = arena_strdup(L->m->a, t), *d = prefix;
      const char *q = t;
      while (*q && *q != '"' && *q != '\'') q++;
      for (const char *p = t; p < q; p++) if (*p != 'f' && *p != 'F') *d++ = *p;
      *d = 0;
      start = arena_printf(L->m->a, "%s%s", prefix, q);
      quote = q;
    } else if (node_is(c, "string_content")) {
      const char *t = text(L, c);
      size_t len = strlen(t);
      char *lit = arena_alloc(L->m->a, len + 1), *d = lit;
      for (const char *p = t; *p; p++) { /* {{ and }} are one brace */
        *d++ = *p;
        if ((*p == '{' || *p == '}') && p[1] == *p) p++;
      }
      *d = 0;
      if (len && (t[len - 1] == '\\' || t[len - 1] == quote[0])) {
        gb(L, c, "unsupported-expression", "an f-string part ending in a backslash or a quote");
        return false;
      }
      fpart_literal(L, P, c, arena_printf(L->m->a, "%s%s%s", start, lit, quote));
    } else if (node_is(c, "interpolation")) {
      if (!fstring_field(L, P, c, quote)) return false;
    }
  }
  return true;
}

/* An f-string, alone or concatenated with other string literals. */
static expr *lower_fstring(lower *L, TSNode n) {
  fparts P = {0};
  if (node_is(n, "concatenated_string")) {
    for (uint32_t i = 0; i < node_named_count(n); i++) {
      TSNode c = node_named(n, i);
      if (!fstring_piece(L, &P, c)) return NULL;
    }
  } else if (!fstring_piece(L, &P, n)) {
    return NULL;
  }
  expr *e = new_expr(L, EX_FSTRING, n);
  e->u.tuple.n = P.n;
  e->u.tuple.elts = P.elts;
  e->u.tuple.fconv = P.conv;
  e->u.tuple.fspec = P.spec;
  return e;
}

/* string | concatenated_string: a str or bytes constant, its value made by
 * the runtime from the source text as the compiler would (dynac_literal). */
static expr *lower_string(lower *L, TSNode n) {
  return is_fstring(L, n) ? lower_fstring(L, n) : lower_literal_object(L, n);
}

/* attribute: object . attribute (math.NAME constants; otherwise the
 * attribute of a value: an ndarray's .shape, .ndim or .size, any attribute
 * of an object, of a global module or class too, typed by infer.c) */
static expr *lower_attribute(lower *L, TSNode n) {
  TSNode obj = child_by_field(n, "object");
  char *oname = text(L, obj);
  const char *attr = mangled(L, text(L, child_by_field(n, "attribute")));
  if (node_is(obj, "identifier") && resolve_local(L, oname) < 0 &&
      scope_is_math_module(L->m, oname) && ops_is_math_const(attr)) {
    slot *ms = ir_slot(L->m, SLOT_MATH_MODULE, oname, NULL, NULL, NULL, -1);
    expr *e = new_expr(L, EX_GLOBAL, n);
    e->u.global = ir_slot(L->m, SLOT_MATH_ATTR, oname, attr, &ty_float, NULL, ms->index);
    return e;
  }
  expr *o = lower_expr(L, obj);
  if (!o) return NULL;
  expr *e = new_expr(L, EX_ATTR, n);
  e->u.sub.obj = o;
  e->u.sub.attr = attr;
  return e;
}

/* The parts of slice node `sl` (start? : stop? (: step?)?) into e's
 * bounds, told apart by the colons before them. */
static bool lower_slice_parts(lower *L, expr *e, TSNode sl) {
  expr **parts[3] = {&e->u.slice.lo, &e->u.slice.hi, &e->u.slice.step};
  int colons = 0;
  for (uint32_t i = 0; i < ts_node_child_count(sl); i++) {
    TSNode c = ts_node_child(sl, i);
    if (!ts_node_is_named(c)) { colons += !strcmp(ts_node_type(c), ":"); continue; }
    if (ts_node_is_extra(c) || colons > 2) continue;
    if (!(*parts[colons] = lower_expr(L, c))) return false;
  }
  return true;
}

/* obj[lo:hi:step] */
static expr *lower_slice(lower *L, TSNode n, TSNode value, TSNode sl) {
  expr *e = new_expr(L, EX_SLICE, n);
  if (!(e->u.slice.obj = lower_expr(L, value))) return NULL;
  return lower_slice_parts(L, e, sl) ? e : NULL;
}

/* A part of a multi-dimensional index: an expression, or lo:hi:step, the
 * slice object BUILD_SLICE makes (an EX_SLICE with no object). */
static expr *lower_index_part(lower *L, TSNode part) {
  if (!node_is(part, "slice")) return lower_expr(L, part);
  expr *e = new_expr(L, EX_SLICE, part);
  return lower_slice_parts(L, e, part) ? e : NULL;
}

/* subscript: value [ subscript ]: a[i], a[i][j], a[lo:hi:step]; a[i, j] is
 * a[(i, j)], which only a 2-D ndarray accepts (infer.c) */
static expr *lower_subscript(lower *L, TSNode n) {
  TSNode value = child_by_field(n, "value");
  TSNode idx_nodes[2];
  uint32_t nidx = 0;
  for (uint32_t i = 0; i < node_named_count(n); i++) {
    TSNode c = node_named(n, i);
    if (ts_node_eq(c, value)) continue;
    if (nidx < 2) idx_nodes[nidx] = c;
    nidx++;
  }
  if (nidx < 1 || nidx > 2) {
    gb(L, n, "unsupported-expression", "index with more than two subscripts (a[i, j, k])");
    return NULL;
  }
  if (nidx == 1 && node_is(idx_nodes[0], "slice")) return lower_slice(L, n, value, idx_nodes[0]);
  expr *obj = lower_expr(L, value);
  expr *idx = obj ? lower_index_part(L, idx_nodes[0]) : NULL;
  if (idx && nidx == 2) {
    expr *j = lower_index_part(L, idx_nodes[1]);
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

/* A subscript stored to (obj[index] = v, obj[index] op= v, obj[lo:hi] = v). */
expr *lower_element(lower *L, TSNode n) { return lower_subscript(L, n); }

expr *lower_expr(lower *L, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "subscript")) return lower_subscript(L, n);
  if (!strcmp(t, "integer")) return lower_integer(L, n);
  if (!strcmp(t, "float")) return lower_float(L, n);
  if (!strcmp(t, "ellipsis")) return lower_literal_object(L, n);
  if (!strcmp(t, "true") || !strcmp(t, "false")) {
    expr *e = new_expr(L, EX_BOOL, n);
    e->u.b = !strcmp(t, "true");
    return e;
  }
  if (!strcmp(t, "none")) return new_expr(L, EX_NONE, n);
  if (!strcmp(t, "identifier")) return lower_identifier(L, n);
  if (!strcmp(t, "parenthesized_expression")) {
    TSNode inner = node_named(n, 0);
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
    expr *a = lower_expr(L, node_named(n, 0));
    expr *c = lower_expr(L, node_named(n, 1));
    expr *b = lower_expr(L, node_named(n, 2));
    if (!a || !b || !c) return NULL;
    expr *e = new_expr(L, EX_IFEXP, n);
    e->u.ifexp.cond = c;
    e->u.ifexp.then = a;
    e->u.ifexp.orelse = b;
    return e;
  }
  if (!strcmp(t, "tuple") || !strcmp(t, "expression_list")) return lower_elements(L, n, EX_TUPLE);
  if (!strcmp(t, "list")) return lower_elements(L, n, EX_LIST);
  if (!strcmp(t, "set")) return lower_elements(L, n, EX_SET);
  if (!strcmp(t, "dictionary")) return lower_dict(L, n);
  if (!strcmp(t, "list_comprehension") || !strcmp(t, "set_comprehension") ||
      !strcmp(t, "dictionary_comprehension"))
    return lower_list_comprehension(L, n);
  if (!strcmp(t, "call")) return lower_call(L, n);
  if (!strcmp(t, "attribute")) return lower_attribute(L, n);
  if (!strcmp(t, "lambda")) return lower_lambda(L, n);
  if (!strcmp(t, "generator_expression")) return lower_genexpr(L, n);
  if (strstr(t, "comprehension")) { /* async ones: a list, set or dict comprehension is lowered above */
    gb(L, n, "nested-scope", arena_printf(L->m->a, "%s", t));
    return NULL;
  }
  if (!strcmp(t, "await") || !strcmp(t, "yield")) {
    gb(L, n, "generator", arena_printf(L->m->a, "'%s' expression", t));
    return NULL;
  }
  if (!strcmp(t, "string") || !strcmp(t, "concatenated_string")) return lower_string(L, n);
  if (!strcmp(t, "named_expression")) return lower_walrus(L, n);
  static const char *const what[][2] = {{"list_splat", "starred expression"}};
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
  case EX_TUPLE: case EX_LIST: case EX_DICT: case EX_SET: case EX_FSTRING: case EX_UNPACKED:
    many = e->u.tuple.elts;
    n = e->u.tuple.n;
    break;
  case EX_CALL: many = e->u.call.args; n = e->u.call.n; break;
  case EX_FUNCTION:
    many = e->u.mkfn.args;
    n = e->u.mkfn.ndefaults + e->u.mkfn.nkwdefaults + e->u.mkfn.nannotations + e->u.mkfn.ncells;
    parts[0] = e->u.mkfn.iterable;
    break;
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

/* Does statement s hold a loop (a while or for loop, itself or in its
 * blocks, at any depth)? A kernel without one is marked `inline` (emit/
 * kernel.c): small leaves (eval_A in spectral_norm) then cost no call,
 * guard or counter in their callers' loops. A loop whose body holds none is
 * innermost: it is versioned. A region with one is worth its kernel's call
 * (analysis/regions.c). */
bool stmt_has_loop(const stmt *s) {
  if (s->kind == ST_WHILE || s->kind == ST_FOR_RANGE || s->kind == ST_FOR_ITER) return true;
  if (s->kind == ST_IF) return has_loop(s->u.if_.then) || has_loop(s->u.if_.orelse);
  if (s->kind == ST_WITH) return has_loop(s->u.with.body);
  if (s->kind != ST_TRY) return false;
  for (int i = 0; i < s->u.try_.nhandlers; i++)
    if (has_loop(s->u.try_.handlers[i].body)) return true;
  return has_loop(s->u.try_.body) || has_loop(s->u.try_.orelse) || has_loop(s->u.try_.finalbody);
}

/* Does the block hold a loop (stmt_has_loop)? */
bool has_loop(const stmt *s) {
  for (; s; s = s->next)
    if (stmt_has_loop(s)) return true;
  return false;
}

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
  case ST_RAISE:
    part_expr(v, ctx, s->u.raise_.arg);
    part_expr(v, ctx, s->u.raise_.obj);
    part_expr(v, ctx, s->u.raise_.cause);
    break;
  case ST_DEL: for (int i = 0; i < s->u.del.n; i++) part_expr(v, ctx, s->u.del.subs[i]); break;
  case ST_TRY:
    v->block(ctx, s->u.try_.body);
    for (int i = 0; i < s->u.try_.nhandlers; i++) {
      handler *h = &s->u.try_.handlers[i];
      part_expr(v, ctx, h->type);
      if (h->name) v->target(ctx, h->name);
      v->block(ctx, h->body);
    }
    v->block(ctx, s->u.try_.orelse);
    v->block(ctx, s->u.try_.finalbody);
    break;
  case ST_WITH:
    part_expr(v, ctx, s->u.with.mgr);
    if (s->u.with.tgt) v->target(ctx, s->u.with.tgt);
    v->block(ctx, s->u.with.body);
    break;
  case ST_IMPORT:
    for (int i = 0; i < s->u.import_.n; i++) v->target(ctx, s->u.import_.tgts[i]);
    break;
  case ST_INTERP:
    for (int i = 0; v->interp_blocks && i < s->nblocks; i++) v->block(ctx, s->blocks[i]);
    break;
  default: break;
  }
}
