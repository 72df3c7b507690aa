/* tidy.c: dead declarations and stores removed from one kernel's C before
 * it is written, so that the generated C compiles clean under -Wall
 * -Wextra with no warning turned off.
 *
 * The emitters declare every local, bound? flag and view copy up front and
 * write labels where a loop or statement might be left, before they know
 * whether anything will use them (a flag is read only where a read may find
 * its local unbound, which definite assignment decides statement by
 * statement). This pass counts the uses of the names the generator itself
 * makes (l_X locals, b_X flags, dv_X view copies, labels) over the
 * kernel's text and drops:
 *   - a b_X flag no test reads, with its `b_X = true;` stores, and a loop's
 *     item pointer (liN) no boxing reads, with its stores;
 *   - an l_X local or dv_X copy nothing mentions;
 *   - a `label:;` nothing jumps to.
 * A local or parameter that is only ever assigned, and a parameter nothing
 * reads, are marked read (`(void)x;`), as C asks. Counting is over identifiers,
 * comments included: a name in a comment only keeps its declaration,
 * never removes a use, so the pass can only leave code in, not cut it.
 * Dead-store elimination of this kind is what every C compiler does
 * anyway; doing it here is about the C a reader sees.
 */
#include "emit.h"

#include <regex.h>

/* Identifier counts: a small open-addressing table. */
typedef struct name_count { const char *s; size_t n; int uses, stores; } name_count;
typedef struct name_table { name_count *slots; size_t cap, len; } name_table;

static size_t hash_name(const char *s, size_t n) {
  size_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

static name_count *table_get(name_table *T, const char *s, size_t n, bool add) {
  if (add && 2 * (T->len + 1) > T->cap) {
    name_table bigger = {calloc(T->cap ? 2 * T->cap : 256, sizeof(name_count)), T->cap ? 2 * T->cap : 256, 0};
    for (size_t i = 0; i < T->cap; i++)
      if (T->slots[i].s) *table_get(&bigger, T->slots[i].s, T->slots[i].n, true) = T->slots[i];
    free(T->slots);
    *T = bigger;
  }
  if (!T->cap) return NULL;
  for (size_t i = hash_name(s, n) & (T->cap - 1);; i = (i + 1) & (T->cap - 1)) {
    name_count *c = &T->slots[i];
    if (!c->s) {
      if (!add) return NULL;
      *c = (name_count){s, n, 0, 0};
      T->len++;
      return c;
    }
    if (c->n == n && !memcmp(c->s, s, n)) return c;
  }
}

/* (UTF-8 bytes of a non-ASCII Python name, kept in C names, count as letters) */
static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80; }

/* What a line of kernel C declares or stores, for the pass. */
typedef enum line_kind {
  L_OTHER,
  L_DECL,      /* TYPE NAME [= init]; (pure: the initialiser has no effect) */
  L_FLAG_SET,  /* a store with no effect: b_NAME = true; or NAME = PyList_GET_ITEM(list, k);
                  (loops.c: loop_item) */
  L_VOID,      /* (void)NAME; : marks NAME used, is not a use itself */
  L_LABEL      /* NAME:; */
} line_kind;
typedef struct kline {
  const char *text; size_t len;   /* without the newline */
  line_kind kind;
  const char *name; size_t nlen;  /* the name it declares, stores, marks or defines */
  bool pure;                      /* L_DECL: dropping it drops no effect */
  bool drop;
  bool mark_after;                /* L_DECL of a name only assigned: (void)NAME; follows */
  bool owned;                     /* text is malloc'd (merge_first_stores) */
} kline;

static const char *skip_spaces(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

static bool starts(const char *p, const char *end, const char *prefix) {
  size_t n = strlen(prefix);
  return (size_t)(end - p) >= n && !memcmp(p, prefix, n);
}

/* The identifier at p (its length; 0: none). */
static size_t ident_at(const char *p, const char *end) {
  if (p >= end || !ident_start(*p)) return 0;
  const char *q = p;
  while (q < end && ident_char(*q)) q++;
  return (size_t)(q - p);
}

/* A declaration as the emitters write them: [static ][const ]TYPE[ *][const ]
 * NAME[ = INIT];[ comment]. Initialisers without an effect: constants and
 * copies (*l_x). dynac__u (dynac_undo_here()) is never dropped: runtime
 * macros (DYNAC_UNDO_INTACT) read it without naming it here. */
/* Are [p, end) identifiers, commas and spaces, then `close`? (a macro's
 * arguments with no effect) */
static bool names_only(const char *p, const char *end, const char *close) {
  size_t c = strlen(close);
  if ((size_t)(end - p) < c || memcmp(end - c, close, c)) return false;
  for (; p < end - c; p++)
    if (!ident_char(*p) && *p != ',' && *p != ' ') return false;
  return true;
}

static regex_t decl_re;
static bool decl_re_ready;

static void classify(kline *L) {
  const char *end = L->text + L->len, *p = skip_spaces(L->text, end);
  size_t n;
  if (starts(p, end, "b_") && (n = ident_at(p, end)) && starts(p + n, end, " = true;") &&
      p + n + 8 == end) {
    L->kind = L_FLAG_SET, L->name = p, L->nlen = n;
    return;
  }
  if ((n = ident_at(p, end)) && starts(p + n, end, " = PyList_GET_ITEM(") && names_only(p + n + 19, end, ");")) {
    L->kind = L_FLAG_SET, L->name = p, L->nlen = n;
    return;
  }
  if (starts(p, end, "(void)") && (n = ident_at(p + 6, end)) && p + 6 + n + 1 == end && p[6 + n] == ';') {
    L->kind = L_VOID, L->name = p + 6, L->nlen = n;
    return;
  }
  if ((n = ident_at(p, end)) && p + n + 2 == end && !memcmp(p + n, ":;", 2)) {
    L->kind = L_LABEL, L->name = p, L->nlen = n;
    return;
  }
  if (!decl_re_ready) {
    regcomp(&decl_re, "^(static )?(const )?(unsigned char|unsigned|int|int64_t|double|float|bool|char|"
            "Py_ssize_t|size_t|DYNAC_OBJ|PyObject|dynac_[A-Za-z0-9_]+)( \\*| \\*const)? "
            "([A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*)( = ([^;]*))?;( /\\*.*\\*/)?$", /* UTF-8 names too */
            REG_EXTENDED);
    decl_re_ready = true;
  }
  char buf[512];
  size_t len = (size_t)(end - p);
  if (len >= sizeof buf) return;
  memcpy(buf, p, len);
  buf[len] = 0;
  regmatch_t m[9];
  if (regexec(&decl_re, buf, 9, m, 0)) return;
  L->kind = L_DECL, L->name = p + m[5].rm_so, L->nlen = (size_t)(m[5].rm_eo - m[5].rm_so);
  if (m[7].rm_so < 0) { L->pure = true; return; }
  const char *init = buf + m[7].rm_so;
  size_t ilen = (size_t)(m[7].rm_eo - m[7].rm_so);
  if (init[0] == '*' && ident_at(init + 1, init + ilen) == ilen - 1) { L->pure = true; return; } /* a copy */
  static const char *const pure_inits[] = {"0", "{0}", "NULL", "false", "true", "DYNAC_TICK_BUDGET"};
  for (size_t i = 0; i < sizeof pure_inits / sizeof *pure_inits; i++)
    if (strlen(pure_inits[i]) == ilen && !memcmp(init, pure_inits[i], ilen)) L->pure = true;
}

/* Splits buffer b into lines appended to *ls. */
static void split_lines(const strbuf *b, kline **ls, int *n, int *cap) {
  if (!b->data) return;
  for (const char *p = b->data; *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (*n == *cap) *ls = realloc(*ls, sizeof(kline) * (size_t)(*cap = *cap ? 2 * *cap : 256));
    (*ls)[*n] = (kline){p, len, L_OTHER, NULL, 0, false, false, false, false};
    classify(&(*ls)[(*n)++]);
    p += len + (e ? 1 : 0);
  }
}

/* Past a comment or a string or character literal starting at p (p itself
 * when none starts there): their words are not identifiers (a source
 * comment quoting `b_x = ...` is no use of the flag b_x). */
static const char *skip_non_code(const char *p, const char *end) {
  if (p + 1 < end && p[0] == '/' && p[1] == '*') {
    for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++) {}
    return p + 1 < end ? p + 2 : end;
  }
  if (*p != '"' && *p != '\'') return p;
  char q = *p++;
  for (; p < end && *p != q; p++) if (*p == '\\' && p + 1 < end) p++;
  return p < end ? p + 1 : end;
}

/* Counts every identifier of the line but the one it declares or stores. */
static void count_line(name_table *T, const kline *L) {
  const char *end = L->text + L->len;
  const char *first = skip_spaces(L->text, end);
  for (const char *p = L->text; p < end;) {
    const char *q = skip_non_code(p, end);
    if (q != p) { p = q; continue; }
    size_t n = ident_at(p, end);
    if (!n) { p++; continue; }
    if (p > L->text && ident_char(p[-1])) { p += n; continue; } /* inside a number like 1e5 */
    if (p != L->name) {
      name_count *c = table_get(T, p, n, true);
      c->uses++;
      if (p == first && starts(p + n, end, " = ") ) c->stores++; /* `l_x = ...;` */
    }
    p += n;
  }
}

/* The first `needle` in [p, end) (a line: the buffer goes on past it), or NULL. */
static const char *find_in_line(const char *p, const char *end, const char *needle) {
  size_t n = strlen(needle);
  for (; p + n <= end; p++) if (!memcmp(p, needle, n)) return p;
  return NULL;
}

/* `T t = 0;` followed by `t = v;` (the same block, v not reading t): one
 * line, `T t = v;`. The merged text is malloc'd (kline.owned). */
static void merge_first_stores(kline *ls, int n) {
  for (int i = 0; i < n; i++) {
    kline *d = &ls[i];
    if (d->kind != L_DECL || d->drop || !d->pure || d->mark_after) continue;
    const char *dend = d->text + d->len, *dp = skip_spaces(d->text, dend);
    if (starts(dp, dend, "static ") || starts(dp, dend, "const ")) continue;
    int j = i + 1;
    while (j < n && ls[j].drop) j++;
    if (j == n || ls[j].kind != L_OTHER) continue;
    kline *u = &ls[j];
    const char *uend = u->text + u->len, *up = skip_spaces(u->text, uend);
    if (up - u->text != dp - d->text || (size_t)(uend - up) <= d->nlen + 3 ||
        memcmp(up, d->name, d->nlen) || !starts(up + d->nlen, uend, " = "))
      continue;
    const char *rhs = up + d->nlen + 3, *semi = NULL;
    int depth = 0, semis = 0;
    bool reads_itself = false, in_str = false;
    for (const char *q = rhs; q < uend; q++) { /* one statement, balanced, not reading itself */
      if (*q == '"' && q[-1] != '\\') in_str = !in_str;
      if (in_str) continue;
      if (*q == '/' && q + 1 < uend && q[1] == '*') break; /* the trailing comment */
      if (*q == '(' || *q == '[') depth++;
      if (*q == ')' || *q == ']') depth--;
      if (*q == '{' || *q == '}') semis = 2;
      if (*q == ';') { semis++; semi = q; }
      size_t k = ident_at(q, uend);
      if (k && !ident_char(q[-1])) {
        if (k == d->nlen && !memcmp(q, d->name, k)) reads_itself = true;
        q += k - 1;
      }
    }
    if (semis != 1 || depth || reads_itself || !semi) continue;
    const char *eq = find_in_line(dp, dend, " = "); /* the declaration's own initialiser */
    if (!eq) continue;
    strbuf m = {0};
    sb_putn(&m, d->text, (size_t)(eq - d->text)); /* indentation, type and name */
    sb_puts(&m, " = ");
    sb_putn(&m, rhs, (size_t)(uend - rhs));
    const char *c = find_in_line(dp, dend, "/*");
    if (c && !find_in_line(rhs, uend, "/*")) { /* keep the declaration's comment */
      sb_puts(&m, " ");
      sb_putn(&m, c, (size_t)(dend - c));
    }
    d->drop = true;
    u->text = m.data, u->len = m.len, u->owned = true;
  }
}

/* Lines [from, to) of ls that stay, as a buffer. */
static void keep_lines(strbuf *out, const kline *ls, int from, int to) {
  for (int i = from; i < to; i++) {
    if (ls[i].drop) continue;
    sb_putn(out, ls[i].text, ls[i].len);
    sb_puts(out, "\n");
    if (ls[i].mark_after) {
      const char *p = skip_spaces(ls[i].text, ls[i].text + ls[i].len);
      sb_printf(out, "%.*s(void)%.*s; /* assigned, never read */\n", (int)(p - ls[i].text), ls[i].text,
                (int)ls[i].nlen, ls[i].name);
    }
  }
}

void tidy_kernel(strbuf *locals, strbuf *body, const char *end, const char *params) {
  kline *ls = NULL;
  int n = 0, cap = 0;
  split_lines(locals, &ls, &n, &cap);
  int nlocals = n;
  split_lines(body, &ls, &n, &cap);
  name_table T = {0};
  for (int i = 0; i < n; i++) count_line(&T, &ls[i]);
  strbuf end_text = {0};
  sb_puts(&end_text, end);
  kline *es = NULL;
  int ne = 0, ecap = 0;
  split_lines(&end_text, &es, &ne, &ecap);
  for (int i = 0; i < ne; i++) count_line(&T, &es[i]);
  /* A name nothing reads: its declaration (if its initialiser does nothing),
     flag stores and (void) marks go. Read: its marks go. Only assigned:
     one mark stays (or is added after the declaration), as C asks. */
  for (int i = 0; i < n; i++) {
    if (ls[i].kind != L_DECL && ls[i].kind != L_LABEL) continue;
    name_count *c = table_get(&T, ls[i].name, ls[i].nlen, false);
    int uses = c ? c->uses : 0, stores = c ? c->stores : 0;
    if (ls[i].kind == L_LABEL) { ls[i].drop = !uses; continue; }
    if (!uses && !ls[i].pure) continue; /* its initialiser does something: it stays, marked */
    bool set_only = uses && uses == stores, marked = false;
    for (int j = 0; j < n; j++) {
      if ((ls[j].kind != L_VOID && ls[j].kind != L_FLAG_SET) || ls[j].nlen != ls[i].nlen ||
          memcmp(ls[j].name, ls[i].name, ls[i].nlen))
        continue;
      if (!uses) ls[j].drop = true;
      else if (ls[j].kind == L_VOID) {
        if (set_only && !marked) marked = true;
        else ls[j].drop = true;
      }
    }
    if (!uses) ls[i].drop = true;
    else if (set_only && !marked) ls[i].mark_after = true;
  }
  merge_first_stores(ls, n);
  strbuf param_voids = {0};
  for (const char *p = params; *p;) { /* each parameter's name: the last identifier of its part */
    const char *comma = strchr(p, ',');
    const char *stop = comma ? comma : p + strlen(p), *name = NULL;
    size_t nlen = 0;
    for (const char *q = p; q < stop; q++) {
      size_t k = ident_at(q, stop);
      if (k && (q == p || !ident_char(q[-1]))) { name = q, nlen = k; q += k - 1; }
    }
    bool is_void = nlen == 4 && !memcmp(name, "void", 4);
    name_count *c = name && !is_void ? table_get(&T, name, nlen, false) : NULL;
    if (name && !is_void && (!c || c->uses == c->stores)) /* unused, or only assigned */
      sb_printf(&param_voids, "(void)%.*s; /* not read */\n", (int)nlen, name);
    p = comma ? comma + 1 : stop;
  }
  strbuf new_locals = {0}, new_body = {0};
  if (param_voids.data) sb_puts(&new_locals, param_voids.data);
  keep_lines(&new_locals, ls, 0, nlocals);
  keep_lines(&new_body, ls, nlocals, n);
  sb_free(locals);
  *locals = new_locals;
  sb_free(body);
  *body = new_body;
  sb_free(&param_voids);
  sb_free(&end_text);
  for (int i = 0; i < n; i++) if (ls[i].owned) free((char *)ls[i].text);
  free(ls);
  free(es);
  free(T.slots);
}
