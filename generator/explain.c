/* explain.c: what `dynac explain` prints, as text or JSON (--json, which
 * dynac.explain() and dynac.compile_times() read): per function its status,
 * specialisations, guards, graph breaks with file:line:col, and the phase
 * times. */
#include "gen.h"
#include "driver.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_caret(module *m, srcpos pos, const char *indent) {
  int len;
  const char *s = source_line(&m->p.src, pos.line, &len);
  printf("%s%5d | %.*s\n%s      | ", indent, pos.line, len, s, indent);
  for (int i = 1; i < pos.col && i <= len; i++) putchar(s[i - 1] == '\t' ? '\t' : ' ');
  puts("^");
}

const char *spec_text(module *m, inst *in) {
  strbuf b = {0};
  sb_puts(&b, "(");
  for (int i = 0; i < in->fn->nparams; i++) {
    if (i) sb_puts(&b, ", ");
    sb_puts(&b, ty_python_name(m->a, in->args[i]));
  }
  sb_puts(&b, ")");
  if (in->ok) {
    sb_printf(&b, " -> %s", ty_python_name(m->a, in->ret));
    if (in->ret_may_be_none && in->ret->kind != TY_UNKNOWN) sb_puts(&b, " | None");
  }
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

/* Graphs of f: one per kernel (a specialisation of the whole function, or of
 * one region of a graph-broken function). */
static int graph_count(module *m, func *f) {
  if (!is_compiled(m, f)) return 0;
  int nspec = 0, *ops;
  for (inst *in = f->insts; in; in = in->next_root) if (in->ok) nspec++;
  return nspec * graph_ops_count(m, f, &ops);
}

static void print_ops(module *m, func *f) {
  int *ops;
  int n = graph_ops_count(m, f, &ops);
  printf("  graphs: %d; ops per graph:", graph_count(m, f));
  for (int i = 0; i < n; i++) printf("%s %d", i ? "," : "", ops[i]);
  puts(f->partial ? " (per region, in each specialisation)" : "");
}

/* The small regions of rs (region.small): where, their operations, and
 * why the interpreter runs them. */
static const char *small_regions(module *m, const region *rs, int nreg) {
  strbuf b = {0};
  int n = 0;
  for (int r = 0; r < nreg; r++) n += rs[r].small;
  sb_printf(&b, "%d small region%s (lines", n, n == 1 ? "" : "s");
  for (int r = 0, k = 0; r < nreg; r++)
    if (rs[r].small) sb_printf(&b, "%s %d-%d: %d op%s", k++ ? "," : "", rs[r].s_first->pos.line,
                               rs[r].s_last->end.line, rs[r].ops, rs[r].ops == 1 ? "" : "s");
  sb_printf(&b, ") run%s in the interpreter: a kernel's call would cost more than %s work (no loop, fewer "
            "than %d operations and %d per live-out; DYNAC_SMALL_REGIONS=1 runs %s as kernels)", n == 1 ? "s" : "",
            n == 1 ? "its" : "their", REGION_MIN_OPS, REGION_OPS_PER_OUT, n == 1 ? "it" : "them");
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

/* What explain says of f after its name: compiled, partially, or why not
 * (one text for the text and the JSON output). */
static const char *func_status(module *m, func *f) {
  bool compiled = is_compiled(m, f);
  bool callee_kernel = false;
  for (inst *in = m->insts; in; in = in->next_all) if (in->fn == f && in->ok) callee_kernel = true;
  region *rs = NULL;
  int nreg = f->partial && callee_kernel ? regions_find(m, f, &rs) : 0, nsmall = 0;
  for (int r = 0; r < nreg; r++) nsmall += rs[r].small;
  if (compiled && f->partial) {
    strbuf b = {0};
    sb_printf(&b, "partially compiled: %d region%s run%s as kernels (lines", nreg - nsmall,
              nreg - nsmall == 1 ? "" : "s", nreg - nsmall == 1 ? "s" : "");
    for (int r = 0, k = 0; r < nreg; r++)
      if (!rs[r].small) sb_printf(&b, "%s %d-%d", k++ ? "," : "", rs[r].s_first->pos.line, rs[r].s_last->end.line);
    sb_puts(&b, ")");
    if (nsmall) sb_printf(&b, "; %s", small_regions(m, rs, nreg));
    sb_printf(&b, "; the graph breaks below run in the interpreter, in a resume function%s",
              f->is_root ? "" : " (not a root: only inside a root's call)");
    char *r = arena_strdup(m->a, b.data);
    sb_free(&b);
    return r;
  }
  if (f->partial && !compiled && nsmall)
    return arena_printf(m->a, "not compiled: graph break at line %d: %s; %s", f->breaks->pos.line,
                        f->breaks->reason, small_regions(m, rs, nreg));
  if (f->partial && !compiled)
    return arena_printf(m->a, "not compiled: graph break at line %d: %s (no statement around the "
                        "breaks compiles)", f->breaks->pos.line, f->breaks->reason);
  if (compiled && !f->is_root) return "compiled (not a root: its kernels run only inside a root's call)";
  if (compiled) return "compiled";
  if (callee_kernel) return "compiled only as a callee of other kernels (not a root)";
  if (f->disabled) return "not compiled: disabled by @disable (runs in the interpreter)";
  if (!f->is_root) return "not compiled: not a compile root (decorate it with @dynac.compile, "
                          "record a profile, or build with --all)";
  return arena_printf(m->a, "not compiled: %s", f->not_compiled ? f->not_compiled
                                                                : "no specialisation compiled");
}

/* ---- the per-line view (explain --lines) ----------------------------------
 * Each line of a function's body marked as it runs: T typed (unboxed C
 * values only), G generic (some operation goes through the C API: the
 * reason names the first such value), I interpreted (a graph break, or a
 * function that is not compiled), so a user sees what to annotate. */
typedef struct line_view {
  const inst *in;    /* the specialisation whose types are shown */
  int first, n;      /* lines first .. first + n - 1 */
  char *mark;        /* per line: 0 (no code), 'T', 'G' or 'I' */
  const char **why;  /* per line: the reason of a G or I mark */
  arena *a;
  module *m;
} line_view;

/* Why a value of type object is handled through the C API. */
static const char *generic_reason(const expr *e) {
  switch (e->kind) {
  case EX_ATTR: return "attribute of an object of unknown class";
  case EX_CALL:
    return e->u.call.kind == CALLEE_METHOD ? "method call on an object"
           : e->u.call.kind == CALLEE_VALUE ? "call through the C API (a class, or a callable not compiled "
                                              "into this kernel)"
           : "builtin called with an object";
  case EX_NAME: return "a global that is not a number (read as LOAD_GLOBAL reads it)";
  case EX_FUNCTION: return "a function made by a nested def or lambda";
  case EX_FREE: return "a variable of an enclosing function (its closure cell)";
  case EX_BUILD_CLASS: return "a class made by a class statement (__build_class__)";
  case EX_CONST: return "a str, bytes, complex, big int or Ellipsis constant";
  case EX_FSTRING: return "a str value";
  case EX_DICT: case EX_SET: return "a dict or set";
  case EX_UNPACKED: return "a display with starred items (a list, tuple or set object)";
  case EX_SUBSCRIPT: return "item of an object";
  case EX_LOCAL: return "a value of no known type (annotate it, or record a profile)";
  case EX_LISTCOMP: return e->u.comp.kind == 'l' ? "a list of objects" : "a set or dict";
  case EX_BINOP: case EX_UNARY: case EX_COMPARE: return "an operator on objects";
  default: return NULL; /* a tuple, an if-expression...: its parts say why */
  }
}

/* An instance of a class of the module that `e` gives with no generic
 * operation: a kernel called directly (a constructor, a devirtualised method,
 * a special method), or an attribute or element read and checked. */
static bool instance_made_typed(const inst *in, const expr *e) {
  if (!ty_of(in, e)->cls) return false;
  return in->types.callee[e->id] || e->kind == EX_ATTR || e->kind == EX_SUBSCRIPT;
}

static void line_mark(line_view *V, int line, char mark, const char *why) {
  int i = line - V->first;
  if (i < 0 || i >= V->n) return;
  static const char rank[] = "TGI"; /* the worst mark of a line wins */
  if (!V->mark[i] || strchr(rank, mark) > strchr(rank, V->mark[i])) {
    V->mark[i] = mark;
    V->why[i] = why;
  } else if (mark == V->mark[i] && !V->why[i]) {
    V->why[i] = why; /* the first value that says why */
  }
}

static void view_expr(void *ctx, expr *e);
static void view_block(void *ctx, stmt *b);

static void view_sub(void *ctx, expr *e) { view_expr(ctx, e); }

static void view_expr(void *ctx, expr *e) {
  line_view *V = ctx;
  if (V->in && whole_array_expr(V->m, V->in, e)) { /* (its numpy globals and leaves say nothing more) */
    line_mark(V, e->pos.line, 'G', "a whole-array expression of float64 arrays: one loop in C where the "
              "shapes match, numpy's operations otherwise");
    return;
  }
  if (e->kind == EX_CALL && e->u.call.kind == CALLEE_VALUE && instance_made_typed(V->in, e) &&
      e->u.call.n && e->u.call.args[0]->kind == EX_NAME) { /* Cls(...): the class guarded, __init__ direct */
    for (int i = 1; i < e->u.call.n; i++) view_expr(ctx, e->u.call.args[i]);
    line_mark(V, e->pos.line, 'T', NULL);
    return;
  }
  if (e->kind == EX_CALL && e->u.call.via_api) { /* a module function: why it is CPython's call */
    line_mark(V, e->pos.line, 'G', arena_printf(V->a, "%s() called through the C API: %s", e->u.call.name,
                                           e->u.call.via_api));
    for (int i = 1; i < e->u.call.n; i++) view_expr(ctx, e->u.call.args[i]);
    return;
  }
  ir_each_subexpr(e, view_sub, ctx); /* first: the innermost value says why */
  const type *t = ty_of(V->in, e);
  bool generic = t && t->kind == TY_OBJ && e->kind != EX_LOCAL && e->kind != EX_NONE &&
                 !instance_made_typed(V->in, e);
  const char *why = generic ? generic_reason(e) : NULL;
  if (generic && e->kind == EX_ATTR && ty_of(V->in, e->u.sub.obj)->cls)
    why = "an attribute holding objects (recorded as neither float, int within int64, bool nor an instance of a "
          "class of the module)";
  line_mark(V, e->pos.line, generic ? 'G' : 'T', why);
  if (e->kind == EX_LISTCOMP) view_block(ctx, e->u.comp.loop);
}

static void view_target(void *ctx, target *t) {
  line_view *V = ctx;
  const type *ot = t->sub && t->sub->kind == EX_ATTR ? ty_of(V->in, t->sub->u.sub.obj) : NULL;
  if (ot && ot->kind == TY_OBJ)
    line_mark(V, t->pos.line, 'G', ot->cls ? "attribute store: the value is boxed into its place in "
              "the instance (a slot or its inline values)" : "attribute store on an object of unknown class");
  if (t->sub) ir_each_subexpr(t->sub, view_sub, ctx);
  for (int i = 0; t->is_tuple && i < t->n; i++) view_target(ctx, t->elts[i]);
}

/* Marks the statements first .. last (NULL: to the block's end). */
static void view_stmts(line_view *V, stmt *first, const stmt *last) {
  static const ir_parts parts = {view_expr, view_target, view_block, true};
  for (stmt *s = first; s; s = s == last ? NULL : s->next) {
    if (s->kind == ST_INTERP) {
      int last = s->end.col > 1 ? s->end.line : s->end.line - 1;
      const char *why = arena_printf(V->a, "interpreted: part of the statement of line %d, a graph break",
                                     s->pos.line);
      for (int l = s->pos.line; l <= last; l++) line_mark(V, l, 'I', why);
    } else if (s->kind == ST_WITH) {
      line_mark(V, s->pos.line, 'G', "a context manager: __enter__ and __exit__ through the C API");
    } else if (s->kind == ST_IMPORT) {
      line_mark(V, s->pos.line, 'G', "an import: __import__, as the interpreter calls it");
    } else {
      line_mark(V, s->pos.line, 'T', NULL);
    }
    ir_each_part(s, &parts, V);
  }
}

static void view_block(void *ctx, stmt *b) { view_stmts(ctx, b, NULL); }

/* f's lines marked: V's mark and why per line of f (the def line is index 0). */
static line_view line_view_of(module *m, func *f, bool *compiled_out) {
  const inst *in = NULL;
  for (inst *i = f->insts; i && !in; i = i->next_root) if (i->ok) in = i;
  int last = f->pos.line;
  for (stmt *s = f->body; s; s = s->next) last = s->end.col > 1 ? s->end.line : s->end.line - 1;
  line_view V = {in, f->pos.line, last - f->pos.line + 1, NULL, NULL, m->a, m};
  V.mark = arena_alloc(m->a, (size_t)V.n);
  V.why = arena_alloc(m->a, sizeof(char *) * (size_t)V.n);
  memset(V.mark, 0, (size_t)V.n);
  memset(V.why, 0, sizeof(char *) * (size_t)V.n);
  bool compiled = in && is_compiled(m, f);
  for (gbreak *b = f->breaks; b; b = b->next) /* first: a break's own line says why */
    line_mark(&V, b->pos.line, 'I', arena_printf(m->a, "graph break %s: %s", b->id, b->reason));
  if (compiled && f->partial) { /* only the regions are kernels: the rest is the resume function */
    region *rs;
    int nreg = regions_find(m, f, &rs);
    for (int r = 0; r < nreg; r++)
      if (!rs[r].small) view_stmts(&V, rs[r].s_first, rs[r].s_last);
      else
        for (int l = rs[r].s_first->pos.line; l <= rs[r].s_last->end.line; l++)
          line_mark(&V, l, 'I', "interpreted: a small region (a kernel's call would cost more than its work)");
  } else if (compiled) {
    view_block(&V, f->body);
  }
  *compiled_out = compiled;
  return V;
}

/* Line i of view V as shown: its mark (T, G, I; 0: no code) and why (or
 * NULL); *src, *len: its source text. */
static char line_verdict(module *m, func *f, const line_view *V, bool compiled, int i,
                         const char **why, const char **src, int *len) {
  *src = source_line(&m->p.src, V->first + i, len);
  bool code = *len && strspn(*src, " \t") < (size_t)*len && (*src)[strspn(*src, " \t")] != '#';
  char mk = V->mark[i] ? V->mark[i] : code && (!compiled || f->partial) ? 'I' : 0;
  *why = V->mark[i] ? V->why[i]
         : !compiled  ? (i == 1 ? "the function is not compiled" : NULL)
         : f->partial ? "interpreted: outside the compiled regions (in the resume function)"
                      : NULL;
  if (mk == 'G' && !*why) *why = "an operation on objects";
  if (mk == 'I' && !*why) *why = !compiled ? "the function is not compiled" : NULL;
  return mk;
}

/* Prints f's lines with their marks (after explain's other lines for f). */
static void print_line_view(module *m, func *f) {
  bool compiled;
  line_view V = line_view_of(m, f, &compiled);
  printf("  lines%s (T typed, G generic: through the C API, I interpreted):\n",
         f->synth_first ? " of the text dataclasses generates (File \"<string>\")" : "");
  for (int i = 1; i < V.n; i++) { /* the def line itself is not shown */
    const char *why, *src;
    int len;
    char mk = line_verdict(m, f, &V, compiled, i, &why, &src, &len);
    if (mk == 'I' && !V.mark[i] && !compiled && i != 1) why = NULL; /* said once, on the first line */
    printf("  %5d %c | %.*s%s%s\n", f->synth_first ? V.first + i - f->synth_first + 2 : V.first + i, /* <string> */
           mk ? mk : ' ', len, src, why && mk != 'T' ? "   # " : "",
           why && mk != 'T' ? why : "");
  }
}

/* explain --json --lines: f's lines as [{"line", "mark", "why"}] (lines
 * with code only; why only for G and I). */
static void json_line_view(module *m, func *f, cJSON *jf) {
  bool compiled;
  line_view V = line_view_of(m, f, &compiled);
  cJSON *jl = cJSON_AddArrayToObject(jf, "lines");
  for (int i = 1; i < V.n; i++) {
    const char *why, *src;
    int len;
    char mk = line_verdict(m, f, &V, compiled, i, &why, &src, &len);
    if (!mk) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "line", V.first + i);
    char s[2] = {mk, 0};
    cJSON_AddStringToObject(x, "mark", s);
    if (why && mk != 'T') cJSON_AddStringToObject(x, "why", why);
    cJSON_AddItemToArray(jl, x);
  }
}

/* Does specialisation `in` take or give an instance kept as its fields (records.c)? */
static bool keeps_fields(const inst *in) {
  if (in->ret->rec) return true;
  for (int i = 0; i < in->fn->nparams; i++) if (in->args[i]->rec) return true;
  return false;
}

static bool is_root(const func *f, const inst *in) {
  for (const inst *r = f->insts; r; r = r->next_root) if (r == in) return true;
  return false;
}

/* The specialisations other kernels call with instances kept as their
 * fields (scalar replacement): no root has them, so no guard either (the
 * caller's guard and the class's version tag cover them). */
static void print_field_callees(module *m, const func *f) {
  for (const inst *in = m->insts; in; in = in->next_all) {
    if (in->fn != f || !in->ok || !keeps_fields(in) || is_root(f, in)) continue;
    printf("  specialisation %s [kernels' callee]: kernel, instances kept as fields\n", spec_text(m, (inst *)in));
  }
}

/* A method's receivers: the types of self its compiled specialisations
 * take (an instance of exactly one class each, or any object). */
static void print_receivers(module *m, const func *f) {
  strbuf b = {0};
  int n = 0;
  bool instances = false; /* else the guards say it: self is any object */
  for (const inst *in = f->insts; in; in = in->next_root)
    if (in->ok && f->nparams && in->args[0]->cls) instances = true;
  for (const inst *in = f->insts; instances && in; in = in->next_root) {
    if (!in->ok || !f->nparams) continue;
    const char *name = ty_python_name(m->a, in->args[0]);
    bool seen = false;
    for (const inst *o = f->insts; o != in; o = o->next_root)
      if (o->ok && !strcmp(ty_python_name(m->a, o->args[0]), name)) seen = true;
    if (!seen) sb_printf(&b, "%s%s", n++ ? ", " : "", in->args[0]->kind == TY_OBJ && !in->args[0]->cls
                         ? "any other object (through the C API)" : name);
  }
  if (n) printf("  receivers: %s\n", b.data);
  sb_free(&b);
}

/* A def whose kernels take its *args as the caller's values (analysis/star_args.c). */
static void print_spread_args(const func *f) {
  for (const inst *in = f->insts; f->star_args && in; in = in->next_root)
    if (in->ok && spread_param(in, f->nparams - 1)) {
      printf("  *%s: only spread, so no tuple: its kernels take the caller's values (the tuple is made if the "
             "call goes on in the interpreter)\n", f->params[f->nparams - 1]);
      return;
    }
}

/* Does a synthesised __init__'s field list (dataclass_init.c's marks) have
 * a parameter with a default factory ("f()", not init=False's "f!()")? */
static bool param_factory(const char *fields) {
  for (const char *p = strstr(fields, "()"); p; p = strstr(p + 2, "()"))
    if (p == fields || p[-1] != '!') return true;
  return false;
}

/* A specialisation's polymorphic call sites (gen.h: poly_site), one line each. */
typedef struct poly_scan { const inst *in; } poly_scan;
static void poly_expr(void *ctx, expr *e);
static void poly_target(void *ctx, target *t) {
  if (t->sub) ir_each_subexpr(t->sub, poly_expr, ctx);
  for (int i = 0; t->is_tuple && i < t->n; i++) poly_target(ctx, t->elts[i]);
}
static void poly_block(void *ctx, stmt *b) {
  static const ir_parts parts = {poly_expr, poly_target, poly_block, false};
  for (; b; b = b->next) ir_each_part(b, &parts, ctx);
}
static void poly_expr(void *ctx, expr *e) {
  const poly_scan *S = ctx;
  const poly_site *ps = S->in->types.poly[e->id];
  if (ps) {
    bool made = e->u.call.kind == CALLEE_VALUE; /* cls(args) of a class in a local */
    if (made) printf("    polymorphic construction, line %d: %s(...) of exactly", e->pos.line, e->u.call.name);
    else printf("    polymorphic call, line %d: .%s() of an instance of exactly", e->pos.line, e->u.call.name);
    for (int i = 0, n = 0; i < ps->n; i++)
      if (ps->callee[i]->ok) printf("%s %s (%s)", n++ ? "," : "", ps->k[i]->name, ps->callee[i]->fn->qualname);
    printf(made ? ": the instance made as object.__new__ makes it, that __init__'s kernel run on it; another "
                  "callee: CPython's call\n"
                : ": that kernel directly; another class: CPython's lookup and call\n");
  }
  if (e->kind == EX_CALL && S->in->types.interpreted[e->id]) {
    const func *f = e->u.call.fn;
    printf("    interpreted call, line %d: %s() runs in the interpreter (%s): called through the C API\n",
           e->pos.line, f->name, f->breaks ? f->breaks->reason : f->not_compiled ? f->not_compiled
           : !f->params_ok ? "unsupported parameters" : "no specialisation for these arguments");
  }
  if (e->kind == EX_LISTCOMP) poly_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, poly_expr, ctx);
}

static void explain_text(module *m, const phase_times *pt, bool lines) {
  int nk, nc = count_compiled(m, &nk);
  int nbreaks = 0, ngraphs = 0;
  for (int i = 0; i < m->nfuncs; i++) for (gbreak *b = m->funcs[i]->breaks; b; b = b->next) nbreaks++;
  for (int i = 0; i < m->nfuncs; i++) ngraphs += graph_count(m, m->funcs[i]);
  printf("%s: %d functions, %d compiled (%d specialisations), %d graphs, %d graph breaks\n",
         m->path, m->nfuncs + m->nothers, nc, nk, ngraphs, nbreaks);
  if (heap_less_text(m))
    printf("heapq.heappush / heappop in kernels compare through the compiled __lt__ of: %s "
           "(other classes: CPython's comparison)\n", heap_less_text(m));
  if (ts_node_has_error(m->p.root))
    printf("note: the Tree-sitter grammar could not parse parts of this file (CPython can); "
           "functions there are not compiled\n");
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    bool compiled = is_compiled(m, f);
    if (f->synth_first) {
      printf("\n%s (%s:%d, generated by @dataclass%s; its kernel made from the fields %s): %s\n", f->qualname,
             m->path, f->synth_of->firstlineno, f->synth_of->frozen ? "(frozen=True): fields stored as "
             "object.__setattr__ stores them" : "", f->synth_fields, func_status(m, f));
      if (param_factory(f->synth_fields))
        printf("  f(): a field with a default factory, called where the construction leaves f out (the factory "
               "read from the class's __init__'s closure)\n");
      if (strstr(f->synth_fields, ":InitVar")) printf("  f:InitVar: a parameter only, passed on to __post_init__\n");
      if (strchr(f->synth_fields, '!'))
        printf("  f!: init=False, not a parameter: f!() stores its factory's value, f!= its default (a slots "
               "class's: no class attribute holds it), f! nothing (the class's default, if any)\n");
      if (strchr(f->synth_fields, '*'))
        printf("  f*: a keyword-only parameter (kw_only=True, after KW_ONLY, or the class's kw_only=True), after "
               "`*` as dataclasses puts them\n");
      if (f->synth_post_init) printf("  ends calling self.__post_init__(), as the text dataclasses generates\n");
    } else
      printf("\n%s (%s:%d): %s\n", f->qualname, m->path, f->pos.line, func_status(m, f));
    if (compiled) print_ops(m, f);
    if (compiled && f->method == 'm') print_receivers(m, f);
    if (compiled) print_spread_args(f);
    for (inst *in = f->insts; in; in = in->next_root) {
      if (f->partial && !compiled) continue;
      printf("  specialisation %s [%s]: %s\n", spec_text(m, in), in->origin,
             !in->ok ? "interpreter" : f->partial ? "region kernels" : generic_only(m, in)
             ? "kernel, generic only (its typed islands weigh less than its attribute lookups: it "
               "serves calls from the interpreter only with DYNAC_GENERIC_KERNELS=1)" : "kernel");
      if (!in->ok) {
        printf("    reason: %s\n", in->fail);
        if (in->fail_pos.line) print_caret(m, in->fail_pos, "    ");
        continue;
      }
      const char **g;
      int ng = emit_guard_list(m, in, &g);
      for (int k = 0; k < ng; k++) printf("    guard: %s\n", g[k]);
      poly_scan S = {in};
      poly_block(&S, f->body);
    }
    print_field_callees(m, f);
    for (gbreak *b = f->breaks; b; b = b->next) {
      printf("  graph break %s (%s) at %s:%d:%d: %s\n", b->id, b->type, m->path, b->pos.line,
             b->pos.col, b->reason);
      print_caret(m, b->pos, "    ");
      printf("    hint: %s\n", b->hint);
    }
    if (lines) print_line_view(m, f);
  }
  for (int i = 0; i < m->nothers; i++)
    printf("\n%s (%s:%d): not compiled: %s\n", m->others[i].qualname, m->path, m->others[i].pos.line,
           m->others[i].reason);
  printf("\n");
  print_phase_times(stdout, NULL, pt);
}

static void explain_json(module *m, cJSON *files, const phase_times *pt, bool lines) {
  cJSON *fo = cJSON_CreateObject();
  cJSON_AddStringToObject(fo, "file", m->path);
  cJSON_AddStringToObject(fo, "sha256", m->p.sha256);
  cJSON *fns = cJSON_AddArrayToObject(fo, "functions");
  int nbreaks = 0, ngraphs = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    cJSON *jf = cJSON_CreateObject();
    cJSON_AddStringToObject(jf, "qualname", f->qualname);
    cJSON_AddNumberToObject(jf, "line", f->synth_first ? f->synth_of->firstlineno : f->pos.line);
    if (f->synth_first) cJSON_AddStringToObject(jf, "generated_by", "@dataclass");
    bool compiled = is_compiled(m, f);
    region *rs = NULL;
    int nreg = f->partial ? regions_find(m, f, &rs) : 0;
    int ng = graph_count(m, f);
    ngraphs += ng;
    cJSON_AddNumberToObject(jf, "graph_count", ng);
    int *ops = NULL;
    int nops = compiled ? graph_ops_count(m, f, &ops) : 0;
    cJSON *jo = cJSON_AddArrayToObject(jf, "ops_per_graph");
    for (int k = 0; k < nops; k++) cJSON_AddItemToArray(jo, cJSON_CreateNumber(ops[k]));
    cJSON_AddBoolToObject(jf, "compiled", compiled);
    cJSON_AddBoolToObject(jf, "partial", f->partial && compiled);
    cJSON *jr = cJSON_AddArrayToObject(jf, "regions");
    for (int r = 0; compiled && r < nreg; r++) {
      cJSON *x = cJSON_CreateObject();
      cJSON_AddNumberToObject(x, "first_line", rs[r].s_first->pos.line);
      cJSON_AddNumberToObject(x, "last_line", rs[r].s_last->end.line);
      cJSON_AddNumberToObject(x, "ops", rs[r].ops);
      cJSON_AddBoolToObject(x, "small", rs[r].small); /* the interpreter runs it (region.small) */
      cJSON_AddItemToArray(jr, x);
    }
    cJSON_AddBoolToObject(jf, "root", f->is_root);
    const char *status = func_status(m, f);
    cJSON_AddStringToObject(jf, "status", status);
    if (!compiled) /* the text's reason, without its "not compiled: " */
      cJSON_AddStringToObject(jf, "reason", strncmp(status, "not compiled: ", 14) ? status : status + 14);
    cJSON *specs = cJSON_AddArrayToObject(jf, "specialisations");
    for (inst *in = f->insts; in; in = in->next_root) {
      cJSON *js = cJSON_CreateObject();
      cJSON_AddStringToObject(js, "signature", spec_text(m, in));
      cJSON_AddStringToObject(js, "origin", in->origin);
      cJSON_AddBoolToObject(js, "kernel", in->ok);
      cJSON_AddBoolToObject(js, "generic_only", in->ok && !f->partial && generic_only(m, in));
      if (!in->ok) {
        cJSON_AddStringToObject(js, "reason", in->fail);
        cJSON_AddNumberToObject(js, "line", in->fail_pos.line);
        cJSON_AddNumberToObject(js, "col", in->fail_pos.col);
      } else {
        const char **g;
        int ng = emit_guard_list(m, in, &g);
        cJSON *jg = cJSON_AddArrayToObject(js, "guards");
        for (int k = 0; k < ng; k++) cJSON_AddItemToArray(jg, cJSON_CreateString(g[k]));
      }
      cJSON_AddItemToArray(specs, js);
    }
    cJSON *jb = cJSON_AddArrayToObject(jf, "graph_breaks");
    for (gbreak *b = f->breaks; b; b = b->next) {
      nbreaks++;
      cJSON *x = cJSON_CreateObject();
      cJSON_AddStringToObject(x, "id", b->id);
      cJSON_AddStringToObject(x, "type", b->type);
      cJSON_AddNumberToObject(x, "line", b->pos.line);
      cJSON_AddNumberToObject(x, "col", b->pos.col);
      int len;
      const char *s = source_line(&m->p.src, b->pos.line, &len);
      char *src = arena_strndup(m->a, s, (size_t)len);
      cJSON_AddStringToObject(x, "source", src);
      cJSON_AddStringToObject(x, "reason", b->reason);
      cJSON_AddStringToObject(x, "hint", b->hint);
      cJSON_AddItemToArray(jb, x);
    }
    if (lines) json_line_view(m, f, jf);
    cJSON_AddItemToArray(fns, jf);
  }
  for (int i = 0; i < m->nothers; i++) {
    cJSON *jf = cJSON_CreateObject();
    cJSON_AddStringToObject(jf, "qualname", m->others[i].qualname);
    cJSON_AddNumberToObject(jf, "line", m->others[i].pos.line);
    cJSON_AddNumberToObject(jf, "graph_count", 0);
    cJSON_AddBoolToObject(jf, "compiled", false);
    cJSON_AddBoolToObject(jf, "partial", false);
    cJSON_AddBoolToObject(jf, "root", false);
    cJSON_AddStringToObject(jf, "status", arena_printf(m->a, "not compiled: %s", m->others[i].reason));
    cJSON_AddStringToObject(jf, "reason", m->others[i].reason);
    cJSON_AddArrayToObject(jf, "ops_per_graph");
    cJSON_AddArrayToObject(jf, "regions");
    cJSON_AddArrayToObject(jf, "specialisations");
    cJSON_AddArrayToObject(jf, "graph_breaks");
    cJSON_AddItemToArray(fns, jf);
  }
  cJSON_AddNumberToObject(fo, "graph_count", ngraphs);
  cJSON_AddNumberToObject(fo, "graph_break_count", nbreaks);
  cJSON *t = cJSON_AddObjectToObject(fo, "compile_times_ms");
  cJSON_AddNumberToObject(t, "parse", pt->parse);
  cJSON_AddNumberToObject(t, "scope", pt->scope);
  cJSON_AddNumberToObject(t, "annotations", pt->annotations);
  cJSON_AddNumberToObject(t, "ir", pt->ir);
  cJSON_AddNumberToObject(t, "infer", pt->infer);
  cJSON_AddNumberToObject(t, "analyses", pt->analyses);
  cJSON_AddItemToArray(files, fo);
}

int cmd_explain(options *o, const profile *prof) {
  cJSON *files = o->json ? cJSON_CreateArray() : NULL;
  for (int i = 0; i < o->nfiles; i++) {
    phase_times pt = {0};
    module *m = analyse(o->files[i], prof, o->all, o->trusted_syntax, &pt);
    if (!m) continue;
    if (o->json) explain_json(m, files, &pt, o->lines);
    else explain_text(m, &pt, o->lines);
    release(m);
  }
  if (o->json) {
    char *s = cJSON_Print(files);
    puts(s);
    free(s);
    cJSON_Delete(files);
  }
  return diag_error_count() ? 1 : 0;
}
