/* export.c: `dynac export`, the kernels of one module as a plain C library.
 *
 * For the chosen functions (default: every compile root) it checks that each
 * specialisation can run without Python (no graph break, no list, no opaque
 * or C-API call, module globals that are literals), then fills
 * templates/export.h and templates/export.c: one public C function per
 * specialisation, the kernels emit/ writes in export mode, and dynac.h's
 * plain-C number helpers copied verbatim, so exported code computes what
 * compiled code computes. Failures are reported through a status struct
 * (the Python exception, CPython's message, file, function, line) instead of
 * deoptimising. Output is deterministic: same input, same bytes.
 */
#include "gen.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct xctx {
  module *m;
  func *fn;              /* the function being checked, for diagnostics */
  const inst *in;        /* its specialisation whose types are checked */
  const char **slot_value; /* [nslots]: C initialiser of each constant a kernel reads */
  int folds;             /* number folds being checked: their items' appends make no list */
  bool ok;
} xctx;

/* ---- refusals ------------------------------------------------------------ */
static void refuse(xctx *X, srcpos pos, const char *why, const char *hint) {
  if (!X->ok) return; /* one reason per function is enough */
  diag_error(&X->m->p.src, pos, "cannot export %s(): %s", X->fn->qualname, why);
  if (hint) diag_note(&X->m->p.src, pos, "%s", hint);
  X->ok = false;
}

/* A Python numeric literal (with an optional sign) as a C literal of type
 * `t`; NULL when `n` is not one. */
static const char *literal_value(module *m, TSNode n, const type *t) {
  bool neg = false;
  while (node_is(n, "unary_operator") || node_is(n, "parenthesized_expression")) {
    if (node_is(n, "unary_operator")) {
      char *op = node_text(m->a, &m->p, child_by_field(n, "operator"));
      if (!strcmp(op, "-")) neg = !neg;
      else if (strcmp(op, "+")) return NULL;
      n = child_by_field(n, "argument");
    } else {
      n = node_named(n, 0);
    }
  }
  if (node_is(n, "true") || node_is(n, "false"))
    return t->kind == TY_BOOL ? (node_is(n, "true") ? "1" : "0") : NULL;
  if (!node_is(n, "integer") && !node_is(n, "float")) return NULL;
  char *txt = node_text(m->a, &m->p, n), *d = txt;
  for (char *s = txt; *s; s++) if (*s != '_') *d++ = *s; /* 1_000 */
  *d = 0;
  if (t->kind == TY_FLOAT) {
    double v = strtod(txt, NULL);
    return arena_printf(m->a, "%.17g", neg ? -v : v);
  }
  if (t->kind != TY_INT || !node_is(n, "integer")) return NULL;
  int base = 10;
  const char *digits = txt;
  if (txt[0] == '0' && (txt[1] == 'x' || txt[1] == 'X')) base = 16, digits = txt + 2;
  else if (txt[0] == '0' && (txt[1] == 'o' || txt[1] == 'O')) base = 8, digits = txt + 2;
  else if (txt[0] == '0' && (txt[1] == 'b' || txt[1] == 'B')) base = 2, digits = txt + 2;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(digits, &end, base);
  if (errno || *end || v > (neg ? 9223372036854775808ULL : 9223372036854775807ULL)) return NULL;
  if (neg && v == 9223372036854775808ULL) return "INT64_MIN";
  return arena_printf(m->a, "INT64_C(%s%llu)", neg ? "-" : "", v);
}

/* math module constants, as CPython defines them. */
static const char *math_constant(const char *attr) {
  if (!strcmp(attr, "pi")) return "3.141592653589793";
  if (!strcmp(attr, "e")) return "2.718281828459045";
  if (!strcmp(attr, "tau")) return "6.283185307179586";
  if (!strcmp(attr, "inf")) return "HUGE_VAL";
  if (!strcmp(attr, "nan")) return "NAN";
  return NULL;
}

/* The value a kernel reads from `s`, which exported C must bake in. */
static void check_slot(xctx *X, slot *s, srcpos pos) {
  if (X->slot_value[s->index]) return;
  const char *v = NULL;
  if (s->kind == SLOT_GLOBAL_SCALAR) {
    const modconst *c = scope_find_const(X->m, s->name);
    if (c && c->assignments == 1) v = literal_value(X->m, c->value, s->ty);
    if (!v) {
      refuse(X, pos, arena_printf(X->m->a, "it reads the module global '%s', whose value is "
             "not one numeric literal", s->name), "pass it as a parameter, or assign it once "
             "with a literal (`G = 6.674e-11`): the literal is baked into the C");
      return;
    }
  } else if (s->kind == SLOT_MATH_ATTR) {
    v = math_constant(s->attr);
  } else if (s->kind == SLOT_DEFAULT) {
    for (int k = 0; k < s->fn->nparams; k++)
      if (!strcmp(s->fn->params[k], s->attr) && s->fn->param_default[k])
        v = literal_value(X->m, s->fn->param_default_node[k], s->ty);
    if (!v) {
      refuse(X, pos, arena_printf(X->m->a, "the default of %s(%s=) is not a numeric literal",
             s->name, s->attr), "pass the argument explicitly");
      return;
    }
  }
  if (!v) {
    refuse(X, pos, arena_printf(X->m->a, "'%s' is only known when the module runs", s->name),
           "pass it as a parameter");
    return;
  }
  X->slot_value[s->index] = v;
}

static void check_type(xctx *X, const type *t, srcpos pos, const char *what) {
  if (t->kind == TY_LIST)
    refuse(X, pos, arena_printf(X->m->a, "%s is a %s: lists are Python objects", what,
           ty_python_name(X->m->a, t)), "use array('d') (or another typed array): exported C "
           "takes it as a view");
  else if ((t->kind == TY_BUF && t->buf_kind == 'n') || t->kind == TY_NP)
    refuse(X, pos, arena_printf(X->m->a, "%s is a %s: numpy's semantics (warnings, wrapping) are "
           "kept by running such cases in the interpreter, which exported C does not have",
           what, ty_python_name(X->m->a, t)), "pass a memoryview of the array (Python floats and "
           "ints), or an array('d')");
  else if (t->kind == TY_OBJ)
    refuse(X, pos, arena_printf(X->m->a, "%s is an object: its operations go through the "
           "CPython C API", what), "give it a number type (int, float, bool)");
  else if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->n; i++) check_type(X, t->elts[i], pos, what);
}

static void check_expr(xctx *X, expr *e);
static void check_sub(void *X, expr *e) { check_expr(X, e); }
static void check_block(xctx *X, stmt *s);
static void check_expr(xctx *X, expr *e) {
  if (!e || !X->ok) return;
  if (e->kind == EX_CALL && e->u.call.own_list && X->folds) { /* an item of the fold: a C value */
    check_expr(X, e->u.call.args[1]);
    return;
  }
  check_type(X, ty_of(X->in, e), e->pos, "this value"); /* new lists are refused as lists */
  if (e->kind == EX_CALL && e->u.call.n == 1 && folds_numbers(X->in, e->u.call.args[0])) {
    X->folds++; /* sum(x * x for x in ...): its clauses, folded into C values (emit_number_fold) */
    check_block(X, e->u.call.args[0]->u.comp.loop);
    X->folds--;
    return;
  }
  if (e->kind == EX_GLOBAL) check_slot(X, e->u.global, e->pos);
  if (e->kind == EX_CALL) {
    const char *name = e->u.call.name ? e->u.call.name : "?";
    if (e->u.call.kind == CALLEE_OPAQUE)
      refuse(X, e->pos, arena_printf(X->m->a, "it calls %s(), an allow_in_graph function that runs "
             "in Python", name), "compute its result before the call and pass it in");
    else if (e->u.call.kind == CALLEE_METHOD)
      refuse(X, e->pos, arena_printf(X->m->a, "list.%s() needs Python lists", name), NULL);
    else if (e->u.call.op && !e->u.call.op->native) /* the operation table says */
      refuse(X, e->pos, arena_printf(X->m->a, "%s() with these arguments runs through the "
             "Python C API", name), NULL);
  }
  ir_each_subexpr(e, check_sub, X);
}

static void check_target(xctx *X, target *t) {
  if (t->sub) check_expr(X, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) check_target(X, t->elts[i]);
}

static void check_block(xctx *X, stmt *s) {
  for (; s && X->ok; s = s->next) {
    switch (s->kind) {
    case ST_ASSIGN:
      check_expr(X, s->u.assign.value);
      for (int i = 0; i < s->u.assign.ntargets; i++) check_target(X, s->u.assign.targets[i]);
      break;
    case ST_AUGASSIGN: check_expr(X, s->u.aug.value); check_expr(X, s->u.aug.sub); break;
    case ST_RETURN: check_expr(X, s->u.ret); break;
    case ST_IF:
      check_expr(X, s->u.if_.cond); check_block(X, s->u.if_.then); check_block(X, s->u.if_.orelse);
      break;
    case ST_WHILE:
      check_expr(X, s->u.while_.cond); check_block(X, s->u.while_.body);
      check_block(X, s->u.while_.orelse);
      break;
    case ST_FOR_RANGE: case ST_FOR_ITER:
      check_expr(X, s->u.for_.start); check_expr(X, s->u.for_.stop); check_expr(X, s->u.for_.step);
      for (int i = 0; s->kind == ST_FOR_ITER && i < s->u.for_.niters; i++)
        check_expr(X, s->u.for_.iters[i]);
      check_target(X, s->u.for_.tgt);
      check_block(X, s->u.for_.body); check_block(X, s->u.for_.orelse);
      break;
    case ST_EXPR: check_expr(X, s->u.expr); break;
    case ST_INTERP: refuse(X, s->pos, "this statement runs in the interpreter", NULL); break;
    case ST_RAISE:
      refuse(X, s->pos, "it raises a Python exception", "return an error value instead");
      break;
    case ST_DEL: refuse(X, s->pos, "del goes through the C API", NULL); break;
    case ST_TRY: refuse(X, s->pos, "try/except handles Python exceptions", NULL); break;
    case ST_WITH: refuse(X, s->pos, "with calls a context manager's methods", NULL); break;
    case ST_IMPORT: refuse(X, s->pos, "import runs the import system", NULL); break;
    default: break;
    }
  }
}

/* Can `in` and every kernel it calls run without Python? Marks them in `need`. */
static bool check_inst(xctx *X, inst *in, bool *need, inst **all, int nall) {
  int idx = -1;
  for (int i = 0; i < nall; i++) if (all[i] == in) idx = i;
  if (idx < 0 || need[idx]) return true;
  need[idx] = true;
  func *saved = X->fn;
  X->fn = in->fn;
  func *f = in->fn;
  if (f->breaks) {
    gbreak *b = f->breaks;
    refuse(X, b->pos, arena_printf(X->m->a, "graph break %s (%s): %s", b->id, b->type, b->reason),
           b->hint);
  } else if (!in->ok) {
    refuse(X, in->fail_pos, in->fail ? in->fail : "it has no kernel", NULL);
  } else if (in->ret->kind != TY_UNKNOWN && in->ret_may_be_none) {
    refuse(X, f->pos, arena_printf(X->m->a, "it returns a %s or None", ty_python_name(X->m->a, in->ret)),
           "return a value on every path");
  } else if (in->ret->kind == TY_NUM || (in->ret->kind == TY_TUPLE && ty_is_container(in->ret))) {
    refuse(X, f->pos, "its result is an int on some paths and a float on others",
           "convert it with float() where it is returned");
  }
  for (int i = 0; X->ok && i < f->nparams; i++)
    check_type(X, in->args[i], f->pos, arena_printf(X->m->a, "parameter '%s'", f->params[i]));
  check_type(X, in->ret, f->pos, "the result");
  if (X->ok) {
    const inst *outer = X->in;
    X->in = in;
    check_block(X, f->body);
    X->in = outer;
  }
  for (int i = 0; X->ok && i < in->ncallees; i++) check_inst(X, in->callees[i], need, all, nall);
  X->fn = saved;
  return X->ok;
}

/* ---- emission -------------------------------------------------------------- */
static const char *upper(arena *a, const char *s) {
  char *u = arena_strdup(a, s);
  for (char *p = u; *p; p++) *p = (char)toupper((unsigned char)*p);
  return u;
}

/* dynac.h's plain-C part, runtime/plain_c.h, whole: the text between its
 * Begin and End banners (scripts/single_include.py writes them). */
static char *plain_c_block(const char *header_path) {
  static const char begin[] = "/* ==== Begin runtime/plain_c.h ==== */\n";
  static const char end[] = "/* ==== End runtime/plain_c.h ==== */";
  char *h = read_text_file(header_path);
  if (!h) { diag_plain("cannot read %s (the runtime header)", header_path); return NULL; }
  char *b = strstr(h, begin), *e = b ? strstr(b, end) : NULL;
  if (!e) { diag_plain("%s has no runtime/plain_c.h part", header_path); free(h); return NULL; }
  b += strlen(begin);
  char *r = strndup(b, (size_t)(e - b));
  free(h);
  return r;
}

/* The text of a comment: no comment terminators. */
static const char *comment_safe(arena *a, const char *s) {
  strbuf b = {0};
  for (; *s; s++) {
    if (s[0] == '*' && s[1] == '/') { sb_puts(&b, "* /"); s++; continue; }
    if (s[0] == '/' && s[1] == '*') { sb_puts(&b, "/ *"); s++; continue; }
    sb_putn(&b, s, 1);
  }
  char *r = arena_strdup(a, b.data ? b.data : "");
  sb_free(&b);
  return r;
}

/* The function's docstring (its first statement, a string), or NULL. */
static const char *docstring(module *m, func *f) {
  TSNode body = child_by_field(f->node, "body");
  if (ts_node_is_null(body) || !node_named_count(body)) return NULL;
  TSNode first = node_named(body, 0);
  if (!node_is(first, "expression_statement") || !node_named_count(first)) return NULL;
  TSNode str = node_named(first, 0);
  if (!node_is(str, "string")) return NULL;
  char *t = node_text(m->a, &m->p, str);
  size_t n = strlen(t);
  size_t q = (n >= 6 && (!strncmp(t, "\"\"\"", 3) || !strncmp(t, "'''", 3))) ? 3 : 1;
  if (n < 2 * q) return NULL;
  t[n - q] = 0;
  return comment_safe(m->a, t + q);
}

static const char *view_doc(module *m, const type *t) {
  return arena_printf(m->a, "%s items (%s)%s", c_item_type(t->fmt), ty_python_name(m->a, t),
                      t->strided ? ", any stride" : ", contiguous: stride == sizeof item");
}

/* The public C function of `in`: its documented declaration into `decl`, its
 * definition into `def`. */
static void emit_entry_point(module *m, inst *in, const char *P, const char *name, strbuf *decl,
                             strbuf *def) {
  func *f = in->fn;
  bool has_value = in->ret->kind != TY_UNKNOWN;
  strbuf params = {0}, doc = {0}, checks = {0}, args = {0};
  sb_printf(&doc, "/* %s:%d: def %s(", path_basename(m->path), f->pos.line, f->qualname);
  for (int i = 0; i < f->nparams; i++)
    sb_printf(&doc, "%s%s: %s", i ? ", " : "", f->params[i], ty_python_name(m->a, in->args[i]));
  sb_printf(&doc, ") -> %s\n", ty_python_name(m->a, in->ret));
  const char *ds = docstring(m, f);
  if (ds) { /* as inspect.cleandoc: later lines lose their common indentation */
    int common = -1;
    for (const char *p = strchr(ds, '\n'); p; p = strchr(p + 1, '\n')) {
      int ind = 0;
      while (p[1 + ind] == ' ') ind++;
      if (p[1 + ind] && p[1 + ind] != '\n' && (common < 0 || ind < common)) common = ind;
    }
    sb_puts(&doc, " *\n");
    bool first = true;
    for (const char *p = ds; *p;) {
      const char *e = strchr(p, '\n');
      size_t n = e ? (size_t)(e - p) : strlen(p);
      size_t skip = first || common < 0 ? 0 : (size_t)common < n ? (size_t)common : n;
      sb_puts(&doc, " *   ");
      sb_putn(&doc, p + skip, n - skip);
      sb_puts(&doc, "\n");
      p += n + (e ? 1 : 0);
      first = false;
    }
  }
  sb_puts(&doc, " *\n");
  for (int i = 0; i < f->nparams; i++) {
    const type *t = in->args[i];
    const char *ct = t->kind == TY_BUF ? arena_printf(m->a, "const %s_view *", P)
                     : t->kind == TY_TUPLE ? arena_printf(m->a, "%s_%s", P, t->code) : c_type(t);
    sb_printf(&params, "%s%s%s%s", i ? ", " : "", ct, ct[strlen(ct) - 1] == '*' ? "" : " ", f->params[i]);
    sb_printf(&args, "%s%s", i ? ", " : "", f->params[i]);
    sb_printf(&doc, " * %s: %s\n", f->params[i], t->kind == TY_BUF ? view_doc(m, t)
              : ty_python_name(m->a, t));
    if (t->kind == TY_BUF)
      sb_printf(&checks, "  if (dynac_x_check_view(%s, (int64_t)sizeof(%s), %d,\n"
                "                         \"argument '%s' is NULL, has a negative len or no buffer%s\",\n"
                "                         \"%s\", status))\n    return status->error;\n",
                f->params[i], c_item_type(t->fmt), !t->strided, f->params[i],
                t->strided ? "" : ", or is not contiguous (stride != sizeof item)", f->qualname);
  }
  const char *rt = has_value ? (in->ret->kind == TY_TUPLE ? arena_printf(m->a, "%s_%s", P, in->ret->code)
                                                        : c_type(in->ret)) : NULL;
  if (has_value) {
    sb_printf(&params, "%s%s *result", f->nparams ? ", " : "", rt);
    sb_printf(&doc, " * result: the returned %s (may be NULL)\n", ty_python_name(m->a, in->ret));
  }
  sb_printf(&params, "%s%s_status *status", f->nparams || has_value ? ", " : "", P);
  sb_printf(&doc, " * status: filled on failure (may be NULL)\n"
            " * Returns %s_OK (0), or the %s_*_ERROR standing for the Python exception. */\n",
            upper(m->a, P), upper(m->a, P));
  sb_printf(decl, "%sint %s(%s);\n\n", doc.data, name, params.data);
  sb_printf(def, "int %s(%s)\n{\n", name, params.data);
  sb_printf(def, "  %s_status ignored;\n  if (!status) status = &ignored;\n"
            "  memset(status, 0, sizeof *status);\n  status->message = \"\";\n", P);
  if (checks.data) sb_puts(def, checks.data);
  if (has_value) sb_printf(def, "  %s unused;\n  if (!result) result = &unused;\n", rt);
  sb_printf(def, "  int st = dynac_kernel_%s(%s%s%sstatus);\n", in->cname, args.data ? args.data : "",
            args.data ? ", " : "", has_value ? "result, " : "");
  sb_puts(def, "  return st == DYNAC_ERROR ? status->error : 0;\n}\n\n");
  sb_free(&params); sb_free(&doc); sb_free(&checks); sb_free(&args);
}

static void collect_tuple(const type *t, const type **seen, int *n) {
  if (t->kind != TY_TUPLE) return;
  for (int i = 0; i < t->n; i++) collect_tuple(t->elts[i], seen, n);
  for (int i = 0; i < *n; i++) if (seen[i] == t) return;
  if (*n < 256) seen[(*n)++] = t;
}

static bool write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) { diag_plain("cannot write %s: %s", path, strerror(errno)); return false; }
  fputs(text, f);
  return fclose(f) == 0;
}

static bool selected(const export_opts *xo, func *f) {
  if (!xo->nfunctions) return f->is_root || f->insts; /* roots and annotated functions */
  for (int i = 0; i < xo->nfunctions; i++) if (!strcmp(xo->functions[i], f->qualname)) return true;
  return false;
}

bool export_module(module *m, const emit_opts *eo, const export_opts *xo) {
  const char *P = xo->prefix ? xo->prefix : m->modname;
  int nall = 0;
  for (inst *in = m->insts; in; in = in->next_all) nall++;
  inst **all = arena_alloc(m->a, sizeof(inst *) * (size_t)(nall + 1));
  int k = 0;
  for (inst *in = m->insts; in; in = in->next_all) all[k++] = in;
  bool *need = arena_alloc(m->a, (size_t)nall + 1);
  xctx X = {.m = m, .slot_value = arena_alloc(m->a, sizeof(char *) * (size_t)(m->nslots + 1)),
            .ok = true};
  bool ok = true;
  for (int i = 0; i < xo->nfunctions; i++)
    if (!scope_find_func(m, xo->functions[i])) {
      diag_plain("%s: no function '%s' to export", m->path, xo->functions[i]);
      ok = false;
    }
  int nexported = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    if (!selected(xo, f)) continue;
    X.fn = f;
    X.ok = true;
    if (f->breaks)
      refuse(&X, f->breaks->pos, arena_printf(m->a, "graph break %s (%s): %s", f->breaks->id,
             f->breaks->type, f->breaks->reason), f->breaks->hint);
    else if (!f->insts)
      refuse(&X, f->pos, f->not_compiled ? f->not_compiled : "it has no specialisation",
             "annotate its parameters (x: float, a: array[d]) or give "
             "@dynac.compile(signatures=[...])");
    for (inst *in = f->insts; in && X.ok; in = in->next_root) {
      check_inst(&X, in, need, all, nall);
      nexported++;
    }
    ok &= X.ok;
  }
  if (ok && !nexported) {
    diag_plain("%s: nothing to export: no function is annotated or a compile root; annotate "
               "one or name it with --function", m->path);
    ok = false;
  }
  if (!ok) return false;

  char *tk = read_template(eo, "kernel.c"), *th = read_template(eo, "export.h"),
       *tc = read_template(eo, "export.c");
  char *plain = plain_c_block(xo->plain_c_header);
  if (!tk || !th || !tc || !plain) { free(tk); free(th); free(tc); free(plain); return false; }
  strbuf protos = {0}, kernels = {0}, decls = {0}, defs = {0}, tuples = {0}, aliases = {0},
         slots = {0};
  const type *tup[256];
  int ntup = 0;
  for (int i = 0; i < nall; i++) {
    if (!need[i]) continue;
    for (int a = 0; a < all[i]->fn->nparams; a++) collect_tuple(all[i]->args[a], tup, &ntup);
    collect_tuple(all[i]->ret, tup, &ntup);
    for (int l = 0; l < all[i]->fn->nlocals; l++)
      if (all[i]->local_ty[l]) collect_tuple(all[i]->local_ty[l], tup, &ntup);
  }
  for (int i = 0; i < ntup; i++) {
    sb_printf(&tuples, "/* %s */\ntypedef struct %s_%s {", ty_python_name(m->a, tup[i]), P, tup[i]->code);
    for (int e = 0; e < tup[i]->n; e++) {
      const type *et = tup[i]->elts[e];
      sb_printf(&tuples, " %s v%d;", et->kind == TY_TUPLE ? arena_printf(m->a, "%s_%s", P, et->code)
                : c_type(et), e);
    }
    sb_printf(&tuples, " } %s_%s;\n", P, tup[i]->code);
    sb_printf(&aliases, "typedef %s_%s dynac_%s;\n", P, tup[i]->code, tup[i]->code);
  }
  bool any_slot = false;
  for (int i = 0; i < m->nslots; i++) any_slot |= X.slot_value[i] != NULL;
  if (any_slot) {
    sb_printf(&slots, "/* Module-level constants the kernels read, baked in from %s. */\n"
              "static const dynac_x_slot dynac__slots[%d] = {\n", path_basename(m->path), m->nslots);
    for (int i = 0; i < m->nslots; i++) {
      slot *s = m->slots[i];
      if (!X.slot_value[i]) continue;
      sb_printf(&slots, "    [%d] = {{.%s = %s}}, /* %s%s%s */\n", i, s->ty->kind == TY_FLOAT ? "f" : "i",
                X.slot_value[i], s->name, s->attr ? "." : "", s->attr ? s->attr : "");
    }
    sb_puts(&slots, "};\n");
  }
  bool ok_emit = true;
  for (int i = 0; i < nall; i++)
    if (need[i]) ok_emit &= emit_export_kernel(m, all[i], tk, xo->line_directives, &protos, &kernels);
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    if (!selected(xo, f)) continue;
    bool several = f->insts && f->insts->next_root;
    for (inst *in = f->insts; in; in = in->next_root)
      emit_entry_point(m, in, P, several ? arena_printf(m->a, "%s_%s", P, in->cname)
                       : arena_printf(m->a, "%s_%s", P, f->qualname), &decls, &defs);
  }
  const char *PU = upper(m->a, P);
  const char *banner = arena_printf(m->a, "/* Generated by dynac export from %s (sha256 %.16s...).\n"
                                    " * Do not edit: change the Python and export again. */",
                                    path_basename(m->path), m->p.sha256);
  const char *header_name = arena_printf(m->a, "%s.h", P);
  hole hh[] = {{"banner", banner}, {"P", P}, {"PU", PU}, {"source", path_basename(m->path)},
               {"tuple_types", tuples.data ? tuples.data : ""},
               {"declarations", decls.data ? decls.data : ""}};
  hole hc[] = {{"banner", banner}, {"P", P}, {"PU", PU}, {"header", header_name},
               {"source", path_basename(m->path)}, {"plain_c", plain},
               {"tuple_aliases", aliases.data ? aliases.data : ""},
               {"slots", slots.data ? slots.data : ""},
               {"prototypes", protos.data ? protos.data : ""},
               {"kernels", kernels.data ? kernels.data : ""},
               {"definitions", defs.data ? defs.data : ""}};
  strbuf h = {0}, c = {0};
  ok_emit &= fill(th, hh, 6, &h) && fill(tc, hc, 11, &c);
  if (ok_emit && !mkdirs(xo->outdir)) {
    diag_plain("cannot create %s: %s", xo->outdir, strerror(errno));
    ok_emit = false;
  }
  if (ok_emit) {
    const char *mk = arena_printf(m->a,
        "# Generated by dynac export: `make` builds lib%s.a from %s.c (no Python needed).\n"
        "CC ?= cc\nCFLAGS ?= -O2\nAR ?= ar\n\nlib%s.a: %s.o\n\t$(AR) rcs $@ $^\n"
        "%s.o: %s.c %s.h\n\t$(CC) -std=c11 $(CFLAGS) -c %s.c -o $@\n\n"
        "clean:\n\trm -f lib%s.a %s.o\n.PHONY: clean\n", P, P, P, P, P, P, P, P, P, P);
    ok_emit = write_text(arena_printf(m->a, "%s/%s.h", xo->outdir, P), h.data) &&
              write_text(arena_printf(m->a, "%s/%s.c", xo->outdir, P), c.data) &&
              write_text(arena_printf(m->a, "%s/Makefile", xo->outdir), mk);
  }
  sb_free(&protos); sb_free(&kernels); sb_free(&decls); sb_free(&defs); sb_free(&tuples);
  sb_free(&aliases); sb_free(&slots); sb_free(&h); sb_free(&c);
  free(tk); free(th); free(tc); free(plain);
  return ok_emit;
}
