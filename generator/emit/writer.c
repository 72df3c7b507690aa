/* writer.c: the C writer every emit file shares: templates and their holes,
 * lines at the current indentation, temporaries, C names, string and float
 * literals, the comment that heads each statement with its Python line.
 */
#include "emit.h"

/* ---- templates ------------------------------------------------------------ */
char *read_template(const emit_opts *o, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", o->templates_dir, name);
  char *text = read_text_file(path);
  if (!text) diag_plain("cannot read template %s; is DYNAC_TEMPLATES right?", path);
  return text;
}

/* Copies `tpl` to `out`, replacing each hole with its value; the value's
 * later lines get the hole's indentation. Text between the template-only
 * markers (slash-star-at-[ ... slash-star-at-]) is left out: what keeps a
 * template valid C on its own (templates_are_valid_c) is not written. */
bool fill(const char *tpl, const hole *holes, int nholes, strbuf *out) {
  const char *p = tpl;
  while (*p) {
    const char *h = strstr(p, "/*@ ");
    const char *only = strstr(p, "/*@[*/"); /* template-only text: up to the end marker, dropped */
    if (only && (!h || only < h)) {
      const char *close = strstr(only, "/*@]*/");
      if (!close) { diag_plain("template: a /*@[*/ without its /*@]*/"); return false; }
      sb_putn(out, p, (size_t)(only - p));
      p = close + 6;
      continue;
    }
    if (!h) { sb_puts(out, p); break; }
    const char *e = strstr(h, " @*/");
    if (!e) { sb_puts(out, p); break; }
    sb_putn(out, p, (size_t)(h - p));
    const char *ls = h;
    while (ls > tpl && ls[-1] != '\n') ls--;
    size_t indent = 0;
    while (ls + indent < h && (ls[indent] == ' ' || ls[indent] == '\t')) indent++;
    bool found = false;
    for (int i = 0; i < nholes; i++) {
      if (strlen(holes[i].name) == (size_t)(e - h - 4) && !strncmp(holes[i].name, h + 4, (size_t)(e - h - 4))) {
        found = true;
        for (const char *v = holes[i].value; *v; v++) {
          sb_putn(out, v, 1);
          if (*v == '\n' && v[1] && v[1] != '\n') sb_putn(out, ls, indent);
        }
      }
    }
    if (!found) { diag_plain("template hole '%.*s' has no value", (int)(e - h - 4), h + 4); return false; }
    p = e + 4;
  }
  return true;
}

/* ---- C names and types ---------------------------------------------------- */
const char *c_type(const type *t) {
  switch (t->kind) {
  case TY_INT: return "int64_t";
  case TY_FLOAT: return "double";
  case TY_BOOL: return "bool";
  case TY_NONE: return "bool"; /* None: no value to hold (always false) */
  case TY_NUM: return "dynac_num";
  case TY_LIST: case TY_OBJ: return "PyObject *";
  case TY_BUF: return "const dynac_view *";
  case TY_NP: return t->fmt == 'd' ? "double" : t->fmt == 'f' ? "float" : t->fmt == '?' ? "bool"
                                                                          : "int64_t";
  case TY_TUPLE: return t->cname;
  default: return "void";
  }
}

/* Tuple types used by the emitted code; their structs go before the kernels. */
const type **used_tuples;
int n_used_tuples;
static int cap_used_tuples;
void note_type(const type *t) {
  if (t->kind == TY_LIST) { note_type(t->elts[0]); return; }
  if (t->kind != TY_TUPLE) return;
  for (int i = 0; i < n_used_tuples; i++) if (used_tuples[i] == t) return;
  for (int i = 0; i < t->n; i++) note_type(t->elts[i]);
  if (n_used_tuples == cap_used_tuples) {
    cap_used_tuples = cap_used_tuples ? 2 * cap_used_tuples : 64;
    used_tuples = realloc(used_tuples, sizeof *used_tuples * (size_t)cap_used_tuples);
    if (!used_tuples) abort();
  }
  used_tuples[n_used_tuples++] = t;
}

void line(em *E, const char *fmt, ...) {
  strbuf text = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&text, fmt, ap); /* never cut: names can be long (nested tuple types) */
  va_end(ap);
  if (E->route && text.data && text.data[0] != '#' && /* a failure site, not DYNAC_LEAVE's #define */
      (strstr(text.data, "DYNAC_LEAVE(") || strstr(text.data, "DYNAC_DEOPT_OR_SLOW(")))
    E->route->uses++;
  for (const char *p = text.data ? text.data : ""; ; p++) { /* each line of it indented */
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    for (int i = 0; i < E->indent; i++) sb_puts(E->b, "  ");
    sb_putn(E->b, p, n);
    sb_puts(E->b, "\n");
    if (!nl) break;
    p = nl;
  }
  sb_free(&text);
}

/* The statement written since byte `start` of the buffer, if it declared
 * owned temporaries (DYNAC_OBJ), goes into a C block of its own: they are
 * released when the statement ends, as the interpreter's stack values are,
 * so that a __del__ runs where CPython runs it (after `x = f()`, only x
 * holds the object; `del x` frees it). */
void scope_statement(em *E, size_t start) {
  strbuf *b = E->b;
  if (!b->data || b->len <= start || !strstr(b->data + start, "DYNAC_OBJ t")) return;
  char *code = arena_strdup(E->m->a, b->data + start);
  b->len = start;
  b->data[start] = 0;
  line(E, "{");
  for (char *p = code; *p;) {
    char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (n) sb_puts(b, "  ");
    sb_putn(b, p, n);
    sb_puts(b, "\n");
    p += n + (nl != NULL);
  }
  line(E, "}");
}

const char *tmpvar(em *E, const type *t) {
  note_type(t);
  const char *name = arena_printf(E->m->a, "t%d", ++E->tmp);
  if (t->kind == TY_OBJ) line(E, "DYNAC_OBJ %s = NULL; /* owned, released leaving the block */", name);
  else if (t->kind == TY_TUPLE || t->kind == TY_NUM) line(E, "%s %s = {0};", c_type(t), name);
  else line(E, "%s %s = 0;", c_type(t), name); /* set before use; 0 keeps -Wmaybe-uninitialized quiet */
  return name;
}

/* A new temporary of type t holding value v (an object: a reference it owns). */
const char *tmp_init(em *E, const type *t, const char *v) {
  note_type(t);
  const char *name = arena_printf(E->m->a, "t%d", ++E->tmp);
  line(E, "%s %s = %s;%s", t->kind == TY_OBJ ? "DYNAC_OBJ" : c_type(t), name, v,
       t->kind == TY_OBJ ? " /* owned, released leaving the block */" : "");
  return name;
}

/* Is object parameter i used as the caller passed it (borrowed: the
 * caller's reference lasts the call), the function never rebinding or
 * deleting it? Else the kernel takes a reference of its own (l_x). */
bool borrowed_param(const inst *in, int i) {
  const func *f = in->fn;
  return i < f->nparams && in->args[i]->kind == TY_OBJ && !in->args[i]->rec && !f->nowncells && !f->partial &&
         !block_binds(f->body, i) && !block_deletes(f->body, i);
}

/* (gen.h) A parameter the kernel holds borrowed, the *args the def only spreads. */
bool spread_param(const inst *in, int i) {
  return i == in->fn->nparams - 1 && borrowed_param(in, i) && star_args_spread_only(in->fn);
}

/* Does list local i hold a reference of its own? In an instance that
 * builds lists a rebinding may release a list's last reference, so its
 * list locals own theirs (DYNAC_OBJ), except parameters it never rebinds
 * (the caller holds those). */
bool owned_list_local(const inst *in, int i) {
  return in->builds_lists && in->local_ty[i]->kind == TY_LIST &&
         (i >= in->fn->nparams || block_binds(in->fn->body, i));
}

const char *local_name(em *E, int i) {
  const char *c = E->in->fn->local_cnames[i];
  if (E->in->local_ty[i]->rec) /* kept as fields: its struct, a parameter's the caller's (records.c) */
    return arena_printf(E->m->a, i < E->in->fn->nparams ? "(*rp_%s)" : "rl_%s", c);
  return arena_printf(E->m->a, "l_%s", c);
}

/* The source line for a comment: no comment terminators, trimmed. */
static const char *comment_text(module *m, int ln) {
  int len;
  const char *s = source_line(&m->p.src, ln, &len);
  while (len > 0 && (*s == ' ' || *s == '\t')) { s++; len--; }
  strbuf b = {0};
  char last = 0;
  for (int i = 0; i < len; i++) { /* a space between a star and a slash that touch */
    if ((s[i] == '/' && last == '*') || (s[i] == '*' && last == '/')) sb_puts(&b, " ");
    sb_putn(&b, s + i, 1);
    last = s[i];
  }
  char *r = arena_strdup(m->a, b.data ? b.data : "");
  sb_free(&b);
  return r;
}

const char *basename_of(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

void source_comment(em *E, srcpos pos) {
  E->cur_line = pos.line;
  const func *f = E->in ? E->in->fn : NULL;
  if (f && f->synth_first) { /* dataclasses' text: "<string>", its def on line 2 */
    line(E, "/* <string>:%d (@dataclass): %s */", pos.line - f->synth_first + 2, comment_text(E->m, pos.line));
    return;
  }
  line(E, "/* %s:%d: %s */", basename_of(E->m->path), pos.line, comment_text(E->m, pos.line));
  if (E->line_directives) sb_printf(E->b, "#line %d \"%s\"\n", pos.line, E->m->path);
}

const char *float_literal(em *E, double f) { return c_double(E->m, f); }
/* The C spelling of double f: the shortest that round-trips, HUGE_VAL, NAN. */
const char *c_double(module *m, double f) {
  if (isinf(f)) return f > 0 ? "HUGE_VAL" : "(-HUGE_VAL)";
  if (isnan(f)) return signbit(f) ? "(-NAN)" : "NAN";
  char buf[64];
  for (int prec = 15; prec <= 17; prec++) { /* the shortest spelling that round-trips */
    snprintf(buf, sizeof buf, "%.*g", prec, f);
    if (strtod(buf, NULL) == f) break;
  }
  if (!strpbrk(buf, ".en")) strcat(buf, ".0");
  return arena_strdup(m->a, buf);
}

const char *slot_ref(em *E, slot *s) {
  return arena_printf(E->m->a, "dynac__slots[%d]", s->index);
}

/* A value kept in a temporary, so it is evaluated once (a local or a
 * temporary is used as it is: nothing between evaluation and use rebinds it). */
const char *keep(em *E, const char *v, const type *t) {
  bool name = (v[0] == 'l' && v[1] == '_') || v[0] == 't' || !strncmp(v, "const", 5); /* constN: made once */
  for (const char *p = v + 1; name && *p; p++) name = isalnum((unsigned char)*p) || *p == '_';
  return name ? v : keep_always(E, v, t);
}
const char *keep_always(em *E, const char *v, const type *t) {
  return tmp_init(E, t, t->kind == TY_OBJ ? arena_printf(E->m->a, "Py_NewRef(%s)", v) : v);
}

const char *c_string(module *m, const char *s) {
  strbuf b = {0};
  sb_puts(&b, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') sb_printf(&b, "\\%c", *s);
    else if (*s == '?' && s[1] == '?') sb_puts(&b, "?\\"); /* ?? would start a trigraph */
    else if ((unsigned char)*s < 32) sb_printf(&b, "\\%03o", (unsigned char)*s);
    else sb_putn(&b, s, 1);
  }
  sb_puts(&b, "\"");
  char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}
