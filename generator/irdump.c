/* irdump.c: `dynac ir FILE.py [--function NAME]...`: the IR of each function,
 * typed per specialisation, as S-expressions one statement per line with its
 * Python line: what infer saw, before emit. Stable (no addresses, no
 * timings), so tests can compare it exactly.
 *
 *   f (m.py:3) specialisation (int) -> int [annotations]
 *     4  assign n_1 = (mul:int (local n:int) (int 2:int))
 *     5  return (local n_1:int)
 */
#include "gen.h"
#include "driver.h"

#include <stdio.h>
#include <string.h>

static const char *const binop_names[] = {"add", "sub", "mul", "truediv", "floordiv", "mod",
                                          "pow", "lshift", "rshift", "bitand", "bitor", "bitxor"};
static const char *const unop_names[] = {"neg", "pos", "invert"};
static const char *const cmp_names[] = {
    [CMP_LT] = "lt", [CMP_LE] = "le", [CMP_GT] = "gt", [CMP_GE] = "ge", [CMP_EQ] = "eq", [CMP_NE] = "ne",
    [CMP_IS] = "is", [CMP_IS_NOT] = "is_not", [CMP_IN] = "in", [CMP_NOT_IN] = "not_in",
    [CMP_ID] = "is", [CMP_NOT_ID] = "is_not"};

typedef struct dumper {
  module *m;
  func *f;
  FILE *out;
  const inst *in; /* the specialisation whose types are printed (NULL: untyped IR) */
} dumper;

static void dump_expr(dumper *D, const expr *e);

static void dump_type(dumper *D, const expr *e) {
  const type *t = D->in ? ty_of(D->in, e) : NULL;
  if (t && t->kind != TY_UNKNOWN) fprintf(D->out, ":%s", ty_python_name(D->m->a, t));
  /* unknown: code this specialisation never reaches (after `if b is None: return`) */
}

static const char *local_name(dumper *D, int v) {
  return v >= 0 && v < D->f->nlocals ? D->f->local_cnames[v] : "?";
}

static void dump_list(dumper *D, expr *const *es, int n) {
  for (int i = 0; i < n; i++) {
    fputc(' ', D->out);
    dump_expr(D, es[i]);
  }
}

static void dump_expr(dumper *D, const expr *e) {
  FILE *o = D->out;
  if (!e) { fputs("-", o); return; }
  switch (e->kind) {
  case EX_INT: fprintf(o, "(int %lld", (long long)e->u.i); break;
  case EX_FLOAT: { /* repr-like: 2.0, not 2 */
    char b[40];
    snprintf(b, sizeof b, "%.17g", e->u.f);
    fprintf(o, "(float %s%s", b, strpbrk(b, ".eni") ? "" : ".0");
    break;
  }
  case EX_BOOL: fprintf(o, "(bool %s", e->u.b ? "True" : "False"); break;
  case EX_NONE: fputs("(None", o); break;
  case EX_LOCAL: fprintf(o, "(local %s", local_name(D, e->u.local)); break;
  case EX_GLOBAL:
    fprintf(o, "(global %s%s%s", e->u.global->name, e->u.global->attr ? "." : "",
            e->u.global->attr ? e->u.global->attr : "");
    break;
  case EX_BINOP:
    fprintf(o, "(%s%s", binop_names[e->u.bin.op], e->u.bin.inplace ? "=" : "");
    dump_type(D, e);
    fputc(' ', o);
    dump_expr(D, e->u.bin.l);
    fputc(' ', o);
    dump_expr(D, e->u.bin.r);
    fputc(')', o);
    return;
  case EX_UNARY:
    fprintf(o, "(%s", unop_names[e->u.un.op]);
    dump_type(D, e);
    fputc(' ', o);
    dump_expr(D, e->u.un.a);
    fputc(')', o);
    return;
  case EX_NOT: fputs("(not ", o); dump_expr(D, e->u.not_arg); fputc(')', o); return;
  case EX_COMPARE:
    fputs("(compare", o);
    for (int i = 0; i < e->u.cmp.n; i++) {
      if (i) fprintf(o, " %s", cmp_names[e->u.cmp.ops[i - 1]]);
      fputc(' ', o);
      dump_expr(D, e->u.cmp.operands[i]);
    }
    fputc(')', o);
    return;
  case EX_BOOLOP:
    fprintf(o, "(%s", e->u.boolop.is_and ? "and" : "or");
    dump_type(D, e);
    fputc(' ', o);
    dump_expr(D, e->u.boolop.l);
    fputc(' ', o);
    dump_expr(D, e->u.boolop.r);
    fputc(')', o);
    return;
  case EX_IFEXP:
    fputs("(ifexp", o);
    dump_type(D, e);
    fputc(' ', o);
    dump_expr(D, e->u.ifexp.cond);
    fputc(' ', o);
    dump_expr(D, e->u.ifexp.then);
    fputc(' ', o);
    dump_expr(D, e->u.ifexp.orelse);
    fputc(')', o);
    return;
  case EX_TUPLE: case EX_LIST: case EX_DICT: case EX_SET: case EX_FSTRING:
    fputs(e->kind == EX_TUPLE ? "(tuple" : e->kind == EX_LIST ? "(list" : e->kind == EX_DICT ? "(dict"
          : e->kind == EX_SET ? "(set" : "(fstring", o);
    dump_type(D, e);
    dump_list(D, e->u.tuple.elts, e->u.tuple.n);
    fputc(')', o);
    return;
  case EX_UNPACKED:
    fprintf(o, "(%s-unpacked", e->u.tuple.display == 'l' ? "list" : e->u.tuple.display == 't' ? "tuple"
            : e->u.tuple.display == 's' ? "set" : "dict");
    dump_type(D, e);
    for (int i = 0; i < e->u.tuple.n; i++) {
      fputs(!e->u.tuple.splat[i] ? " " : e->u.tuple.display == 'd' ? " **" : " *", o);
      dump_expr(D, e->u.tuple.elts[i]);
    }
    fputc(')', o);
    return;
  case EX_CALL: {
    static const char *const kinds[] = {"?", "module", "builtin", "math", "opaque", "method", "value"};
    const char *name = e->u.call.kind == CALLEE_MODULE_FN && e->u.call.fn ? e->u.call.fn->name
                       : e->u.call.name ? e->u.call.name : "";
    fprintf(o, "(call-%s %s", kinds[e->u.call.kind], name);
    dump_type(D, e);
    if (e->u.call.argform) { /* f(a, *it, k=v, **m): each argument marked */
      for (int i = 0, k = 0; i < e->u.call.n; i++) {
        char f = e->u.call.argform[i];
        fprintf(o, " %s%s", f == '*' ? "*" : f == 'd' ? "**" : "", f == 'k' ? e->u.call.kwnames[k++] : "");
        if (f == 'k') fputc('=', o);
        dump_expr(D, e->u.call.args[i]);
      }
    } else {
      dump_list(D, e->u.call.args, e->u.call.n);
    }
    fputc(')', o);
    return;
  }
  case EX_SUBSCRIPT:
    fputs("(subscript", o);
    dump_type(D, e);
    fputc(' ', o);
    dump_expr(D, e->u.sub.obj);
    fputc(' ', o);
    dump_expr(D, e->u.sub.index);
    fputc(')', o);
    return;
  case EX_NAME:
    fprintf(o, "(name %s", e->u.global->name);
    dump_type(D, e);
    fputc(')', o);
    return;
  case EX_FUNCTION: {
    fprintf(o, "(function %s", e->u.mkfn.qualname);
    dump_type(D, e);
    int n = e->u.mkfn.ndefaults + e->u.mkfn.nkwdefaults + e->u.mkfn.nannotations + e->u.mkfn.ncells;
    for (int i = 0; i < n; i++) {
      fprintf(o, " %s=", e->u.mkfn.names[i] ? e->u.mkfn.names[i] : "default");
      dump_expr(D, e->u.mkfn.args[i]);
    }
    if (e->u.mkfn.iterable) {
      fputs(" iterable=", o);
      dump_expr(D, e->u.mkfn.iterable);
    }
    fputc(')', o);
    return;
  }
  case EX_FREE:
    fprintf(o, "(free %s", D->f->freevars[e->u.local]);
    dump_type(D, e);
    fputc(')', o);
    return;
  case EX_BUILD_CLASS:
    fputs("(build_class", o);
    dump_type(D, e);
    fputc(')', o);
    return;
  case EX_CONST:
    fprintf(o, "(const %s", e->u.literal);
    dump_type(D, e);
    fputc(')', o);
    return;
  case EX_ATTR:
    fprintf(o, "(attr %s", e->u.sub.attr);
    dump_type(D, e);
    fputc(' ', o);
    dump_expr(D, e->u.sub.obj);
    fputc(')', o);
    return;
  case EX_SLICE:
    fputs("(slice", o);
    dump_type(D, e);
    fputc(' ', o);
    dump_expr(D, e->u.slice.obj);
    fputc(' ', o);
    dump_expr(D, e->u.slice.lo);
    fputc(' ', o);
    dump_expr(D, e->u.slice.hi);
    fputc(' ', o);
    dump_expr(D, e->u.slice.step);
    fputc(')', o);
    return;
  case EX_LISTCOMP: fprintf(o, "(listcomp into %s", local_name(D, e->u.comp.result)); break;
  }
  dump_type(D, e);
  fputc(')', o);
}

static void dump_target(dumper *D, const target *t) {
  if (t->sub) { dump_expr(D, t->sub); return; }
  if (!t->is_tuple) { fputs(local_name(D, t->local), D->out); return; }
  fputc('(', D->out);
  for (int i = 0; i < t->n; i++) {
    if (i) fputs(", ", D->out);
    dump_target(D, t->elts[i]);
  }
  fputc(')', D->out);
}

static void dump_block(dumper *D, const stmt *s, int depth);

static void dump_stmt(dumper *D, const stmt *s, int depth) {
  FILE *o = D->out;
  fprintf(o, "  %4d%*s  ", s->pos.line, 2 * depth, "");
  switch (s->kind) {
  case ST_ASSIGN:
    fputs("assign ", o);
    for (int i = 0; i < s->u.assign.ntargets; i++) {
      dump_target(D, s->u.assign.targets[i]);
      fputs(s->walrus_of ? " := " : " = ", o); /* hoisted out of the next statement's first operand */
    }
    dump_expr(D, s->u.assign.value);
    break;
  case ST_AUGASSIGN:
    fprintf(o, "augassign %s ", binop_names[s->u.aug.op]);
    if (s->u.aug.sub) dump_expr(D, s->u.aug.sub);
    else fputs(local_name(D, s->u.aug.local), o);
    fputc(' ', o);
    dump_expr(D, s->u.aug.value);
    break;
  case ST_RETURN: fputs("return ", o); dump_expr(D, s->u.ret); break;
  case ST_EXPR: fputs("expr ", o); dump_expr(D, s->u.expr); break;
  case ST_BREAK: fputs("break", o); break;
  case ST_CONTINUE: fputs("continue", o); break;
  case ST_PASS: fputs("pass", o); break;
  case ST_RAISE:
    fprintf(o, "raise%s%s", s->u.raise_.exc ? " " : "", s->u.raise_.exc ? s->u.raise_.exc : "");
    if (s->u.raise_.msg) fprintf(o, " \"%s\"", s->u.raise_.msg);
    if (s->u.raise_.arg) { fputc(' ', o); dump_expr(D, s->u.raise_.arg); }
    if (s->u.raise_.obj) { fputc(' ', o); dump_expr(D, s->u.raise_.obj); }
    if (s->u.raise_.cause) { fputs(" from ", o); dump_expr(D, s->u.raise_.cause); }
    break;
  case ST_DEL:
    fputs("del", o);
    for (int i = 0; i < s->u.del.n; i++) { fputc(' ', o); dump_expr(D, s->u.del.subs[i]); }
    break;
  case ST_INTERP: fputs("interpreted (a graph break)", o); break;
  case ST_IMPORT:
    if (s->u.import_.from) fprintf(o, "from %.*s%s import", s->u.import_.level, "..........", s->u.import_.module);
    else fputs("import", o);
    for (int i = 0; i < s->u.import_.n; i++) {
      fprintf(o, "%s %s%s -> ", i ? "," : "", s->u.import_.names[i], s->u.import_.chain[i] ? " (as)" : "");
      dump_target(D, s->u.import_.tgts[i]);
    }
    break;
  case ST_TRY:
    fputs("try\n", o);
    dump_block(D, s->u.try_.body, depth + 1);
    for (int i = 0; i < s->u.try_.nhandlers; i++) {
      handler *h = &s->u.try_.handlers[i];
      fprintf(o, "  %4d%*s  except", h->pos.line, 2 * depth, "");
      if (h->type) { fputc(' ', o); dump_expr(D, h->type); }
      if (h->name) { fputs(" as ", o); dump_target(D, h->name); }
      fputc('\n', o);
      dump_block(D, h->body, depth + 1);
    }
    if (s->u.try_.orelse) {
      fprintf(o, "  %4s%*s  else\n", "", 2 * depth, "");
      dump_block(D, s->u.try_.orelse, depth + 1);
    }
    if (s->u.try_.has_finally) {
      fprintf(o, "  %4s%*s  finally\n", "", 2 * depth, "");
      dump_block(D, s->u.try_.finalbody, depth + 1);
    }
    return;
  case ST_WITH:
    fputs("with ", o);
    dump_expr(D, s->u.with.mgr);
    if (s->u.with.tgt) { fputs(" as ", o); dump_target(D, s->u.with.tgt); }
    fputc('\n', o);
    dump_block(D, s->u.with.body, depth + 1);
    return;
  case ST_IF:
    fputs(s->u.if_.assert_ ? "if (asserts on) " : s->u.if_.loop_test ? "if (the while test) " : "if ", o);
    dump_expr(D, s->u.if_.cond);
    fputc('\n', o);
    dump_block(D, s->u.if_.then, depth + 1);
    if (s->u.if_.orelse) {
      fprintf(o, "  %4s%*s  else\n", "", 2 * depth, "");
      dump_block(D, s->u.if_.orelse, depth + 1);
    }
    return;
  case ST_WHILE:
    fputs("while ", o);
    dump_expr(D, s->u.while_.cond);
    fputc('\n', o);
    dump_block(D, s->u.while_.body, depth + 1);
    if (s->u.while_.has_else) {
      fprintf(o, "  %4s%*s  else\n", "", 2 * depth, "");
      dump_block(D, s->u.while_.orelse, depth + 1);
    }
    return;
  case ST_FOR_RANGE: case ST_FOR_ITER:
    fputs(s->kind == ST_FOR_RANGE ? "for-range " : "for-iter ", o);
    dump_target(D, s->u.for_.tgt);
    if (s->u.for_.how != 'i') fprintf(o, " how=%c", s->u.for_.how);
    if (s->kind == ST_FOR_RANGE) {
      fputs(" in ", o);
      dump_expr(D, s->u.for_.start);
      fputc(' ', o);
      dump_expr(D, s->u.for_.stop);
      fputc(' ', o);
      dump_expr(D, s->u.for_.step);
    } else {
      fputs(" in", o);
      dump_list(D, s->u.for_.iters, s->u.for_.niters);
    }
    fputc('\n', o);
    dump_block(D, s->u.for_.body, depth + 1);
    if (s->u.for_.has_else) {
      fprintf(o, "  %4s%*s  else\n", "", 2 * depth, "");
      dump_block(D, s->u.for_.orelse, depth + 1);
    }
    return;
  }
  fputc('\n', o);
}

static void dump_block(dumper *D, const stmt *s, int depth) {
  for (; s; s = s->next) dump_stmt(D, s, depth);
}

static bool selected(const options *o, const func *f) {
  if (!o->nfunctions) return true;
  for (int i = 0; i < o->nfunctions; i++)
    if (!strcmp(o->functions[i], f->qualname) || !strcmp(o->functions[i], f->name)) return true;
  return false;
}

int cmd_ir(options *o, const profile *prof) {
  for (int i = 0; i < o->nfiles; i++) {
    module *m = analyse(o->files[i], prof, o->all, o->trusted_syntax, NULL);
    if (!m) continue;
    for (int k = 0; k < m->nfuncs; k++) {
      func *f = m->funcs[k];
      if (!selected(o, f)) continue;
      dumper D = {.m = m, .f = f, .out = stdout};
      int n = 0;
      for (inst *in = f->insts; in; in = in->next_root) {
        if (!in->ok) continue;
        D.in = in;
        printf("%s (%s:%d) specialisation %s\n", f->qualname, m->path, f->firstlineno,
               spec_text(m, in));
        dump_block(&D, f->body, 0);
        n++;
      }
      if (!n) { /* no typed instance: the IR as lowered, without types */
        printf("%s (%s:%d) untyped: %s\n", f->qualname, m->path, f->firstlineno,
               f->not_compiled ? f->not_compiled : "no specialisation compiles");
        D.in = NULL;
        dump_block(&D, f->body, 0);
      }
    }
    release(m);
  }
  return diag_error_count() ? 1 : 0;
}
