/* util.c: arena, string buffer, diagnostics and the type lattice. */
#include "gen.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena: a chain of blocks, freed at once ---------------------------- */
typedef struct block { struct block *next; size_t used, cap; char data[]; } block;
struct arena { block *head; };

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) { fputs("dynac: out of memory\n", stderr); exit(70); }
  return p;
}

arena *arena_new(void) {
  arena *a = xmalloc(sizeof *a);
  a->head = NULL;
  return a;
}

void arena_free(arena *a) {
  if (!a) return;
  for (block *b = a->head, *n; b; b = n) { n = b->next; free(b); }
  free(a);
}

void *arena_alloc(arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (!a->head || a->head->cap - a->head->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    block *b = xmalloc(sizeof *b + cap);
    b->next = a->head; b->used = 0; b->cap = cap;
    a->head = b;
  }
  void *p = a->head->data + a->head->used;
  a->head->used += n;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *d = arena_alloc(a, n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(arena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *d = arena_alloc(a, (size_t)n + 1);
  vsnprintf(d, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return d;
}

/* ---- strbuf ------------------------------------------------------------- */
void sb_putn(strbuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) { fputs("dynac: out of memory\n", stderr); exit(70); }
    b->data = d; b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void sb_puts(strbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_vprintf(strbuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  char *tmp = xmalloc((size_t)n + 1);
  vsnprintf(tmp, (size_t)n + 1, fmt, ap);
  sb_putn(b, tmp, (size_t)n);
  free(tmp);
}

void sb_printf(strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

void sb_free(strbuf *b) { free(b->data); b->data = NULL; b->len = b->cap = 0; }

/* ---- diagnostics -------------------------------------------------------- */
static int n_errors;

const char *source_line(const source *src, int line, int *len) {
  if (!src || !src->lines || line < 1 || line > src->nlines) { *len = 0; return ""; }
  const char *s = src->lines[line - 1];
  const char *e = s;
  while (e < src->text + src->len && *e != '\n' && *e != '\r') e++;
  *len = (int)(e - s);
  return s;
}

static void diag_v(const char *kind, const source *src, srcpos pos,
                   const char *fmt, va_list ap) {
  fprintf(stderr, "%s:%d:%d: %s: ", src ? src->path : "dynac", pos.line, pos.col, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  int len;
  const char *line = source_line(src, pos.line, &len);
  if (len > 0) {
    fprintf(stderr, "%5d | %.*s\n      | ", pos.line, len, line);
    for (int i = 1; i < pos.col && i <= len; i++) fputc(line[i - 1] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
  }
}

void diag_error(const source *src, srcpos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_v("error", src, pos, fmt, ap);
  va_end(ap);
  n_errors++;
}

void diag_note(const source *src, srcpos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_v("note", src, pos, fmt, ap);
  va_end(ap);
}

void diag_plain(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("dynac: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  n_errors++;
}

int diag_error_count(void) { return n_errors; }

/* ---- type lattice ------------------------------------------------------- */
const type ty_unknown = {.kind = TY_UNKNOWN, .code = "Z"};
const type ty_int = {.kind = TY_INT, .code = "i"};
const type ty_float = {.kind = TY_FLOAT, .code = "f"};
const type ty_bool = {.kind = TY_BOOL, .code = "b"};
const type ty_none = {.kind = TY_NONE, .code = "n"};
const type ty_conflict = {.kind = TY_CONFLICT, .code = "!"};
const type ty_num = {.kind = TY_NUM, .code = "u"};
const type ty_num_np = {.kind = TY_NUM, .code = "U", .fmt = 'd'};
const type ty_obj = {.kind = TY_OBJ, .code = "O"};
const type ty_float_or_none = {.kind = TY_OBJ, .code = "Nf", .num_or_none = &ty_float};
const type ty_int_or_none = {.kind = TY_OBJ, .code = "Ni", .num_or_none = &ty_int};

typedef struct type_node { const type *t; struct type_node *next; } type_node;
static type_node *interned; /* process-wide; types outlive one module */

/* The interned type spelled `code`, or a new one made from `proto`. */
static const type *intern(const type *proto, const char *code) {
  for (type_node *t = interned; t; t = t->next)
    if (!strcmp(t->t->code, code)) return t->t;
  type *t = xmalloc(sizeof *t);
  *t = *proto;
  const type **e = xmalloc(sizeof(*e) * (size_t)(proto->n ? proto->n : 1));
  if (proto->n) memcpy(e, proto->elts, sizeof(*e) * (size_t)proto->n);
  t->elts = e;
  t->code = strcpy(xmalloc(strlen(code) + 1), code);
  char *cname = xmalloc(strlen(code) + sizeof "dynac_");
  sprintf(cname, "dynac_%s", code);
  t->cname = cname;
  type_node *node = xmalloc(sizeof *node);
  node->t = t; node->next = interned; interned = node;
  return t;
}

const type *ty_unrec(const type *t) { return t->rec ? &t->cls->inst : t; }

const type *ty_tuple(arena *a, int n, const type **elts) {
  for (int i = 0; i < n; i++)
    if (elts[i]->rec) { /* a tuple holds the instance itself */
      const type **u = arena_alloc(a, sizeof(type *) * (size_t)n);
      for (int j = 0; j < n; j++) u[j] = ty_unrec(elts[j]);
      elts = u;
      break;
    }
  strbuf code = {0};
  sb_printf(&code, "T%d", n);
  for (int i = 0; i < n; i++) sb_puts(&code, elts[i]->code);
  type proto = {.kind = TY_TUPLE, .n = n, .elts = elts};
  const type *t = intern(&proto, code.data);
  sb_free(&code);
  return t;
}

const type *ty_list(const type *elt) {
  elt = ty_unrec(elt); /* a list holds the instance itself */
  strbuf code = {0};
  sb_printf(&code, "L%s", elt->code);
  const type *el[1] = {elt};
  type proto = {.kind = TY_LIST, .n = 1, .elts = el};
  const type *t = intern(&proto, code.data);
  sb_free(&code);
  return t;
}

/* Buffer item formats a kernel reads natively (struct module letters). */
static const char buf_formats[] = "dfqQlLiIhHbB?";
/* numpy dtypes kernels compute with, as struct letters (int64 is 'l' on LP64). */
static const char np_formats[] = "dflihbB?";

/* A type code is part of C identifiers (kernel names, tuple structs): '?'
 * (bool items) is spelled 'o' there. */
static char code_letter(char fmt) { return fmt == '?' ? 'o' : fmt; }

const type *ty_buf(char buf_kind, char fmt, bool strided) {
  if (!fmt || !strchr(buf_formats, fmt) || !strchr("amyY", buf_kind)) return NULL;
  if ((buf_kind == 'y' || buf_kind == 'Y') && fmt != 'B') return NULL;
  if (fmt == '?' && buf_kind != 'm') return NULL;
  char code[8];
  snprintf(code, sizeof code, "A%c%c%s", buf_kind, code_letter(fmt), strided ? "s" : "");
  type proto = {.kind = TY_BUF, .buf_kind = buf_kind, .fmt = fmt, .strided = strided, .ndim = 1};
  return intern(&proto, code);
}

const type *ty_ndarray(char fmt, int ndim, bool strided) {
  if (!fmt || !strchr(np_formats, fmt) || ndim < 1 || ndim > 2) return NULL;
  char code[8];
  snprintf(code, sizeof code, "A%c%c%s", ndim == 1 ? 'n' : 'N', code_letter(fmt), strided ? "s" : "");
  type proto = {.kind = TY_BUF, .buf_kind = 'n', .fmt = fmt, .strided = strided, .ndim = ndim};
  return intern(&proto, code);
}

const type *ty_np(char fmt) {
  if (!fmt || !strchr(np_formats, fmt)) return NULL;
  char code[4] = {'N', code_letter(fmt), 0};
  type proto = {.kind = TY_NP, .fmt = fmt};
  return intern(&proto, code);
}

bool np_is_float(char fmt) { return fmt == 'd' || fmt == 'f'; }

const char *np_name(char fmt) {
  switch (fmt) {
  case 'd': return "float64";
  case 'f': return "float32";
  case 'l': return "int64";
  case 'i': return "int32";
  case 'h': return "int16";
  case 'b': return "int8";
  case 'B': return "uint8";
  default: return "bool_";
  }
}

char np_dtype_of(const type *t) {
  switch (t->kind) {
  case TY_NP: return t->fmt;
  case TY_INT: return 'l';
  case TY_FLOAT: return 'd';
  case TY_BOOL: return '?';
  default: return 0;
  }
}

/* Bits of an integer dtype, signed or not. */
static int np_int_bits(char f) { return f == 'l' ? 64 : f == 'i' ? 32 : f == 'h' ? 16 : 8; }
static char np_signed_of_bits(int bits) {
  return bits >= 64 ? 'l' : bits >= 32 ? 'i' : bits >= 16 ? 'h' : 'b';
}

/* numpy's promote_types over the dtypes kernels handle: bool < ints <
 * floats; an int and a float give the smallest float holding the int
 * exactly enough (int8/uint8/int16 with float32 stay float32). */
char np_promote(char a, char b) {
  if (!a || !b) return 0;
  if (a == '?') return b;
  if (b == '?') return a;
  if (np_is_float(a) || np_is_float(b)) {
    if (a == 'd' || b == 'd') return 'd';
    char other = np_is_float(a) ? b : a; /* float32 with `other` */
    if (np_is_float(other)) return 'f';
    return np_int_bits(other) <= 16 ? 'f' : 'd';
  }
  bool ua = a == 'B', ub = b == 'B'; /* the only unsigned dtype handled */
  if (ua == ub) return np_int_bits(a) >= np_int_bits(b) ? a : b;
  char s = ua ? b : a;                /* signed with uint8: int16 at least */
  return np_signed_of_bits(np_int_bits(s) > 8 ? np_int_bits(s) : 16);
}

const type *ty_elem(const type *t) {
  if (t->kind == TY_LIST) return t->elts[0];
  if (t->kind != TY_BUF) return &ty_conflict;
  if (t->buf_kind == 'n') return ty_np(t->fmt); /* numpy.float64, ...: numpy's semantics */
  if (t->fmt == 'd' || t->fmt == 'f') return &ty_float;
  return t->fmt == '?' ? &ty_bool : &ty_int;
}

bool ty_is_ndarray(const type *t) { return t->kind == TY_BUF && t->buf_kind == 'n'; }

bool ty_is_container(const type *t) {
  if (t->kind == TY_LIST || t->kind == TY_BUF) return true;
  if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->n; i++) if (ty_is_container(t->elts[i])) return true;
  return false;
}

/* int and float join to the run-time tagged number; bool stays apart (a
 * variable holding True or 1 would box to different types). */
/* A value an object local holds boxed: a number, None, a list, or a tuple
 * of numbers, None and objects (a tuple value borrows its lists). */
static bool boxes_as_object(const type *t) {
  if (ty_is_number(t) || t->kind == TY_NONE || t->kind == TY_LIST) return true;
  if (t->kind != TY_TUPLE) return false;
  for (int i = 0; i < t->n; i++)
    if (t->elts[i]->kind != TY_OBJ && (t->elts[i]->kind == TY_LIST || !boxes_as_object(t->elts[i]))) return false;
  return true;
}

/* May a list element of type t be held boxed in a list[object]? */
static bool boxes_in_list(const type *t) { return t->kind == TY_OBJ || boxes_as_object(t); }

/* `prev = None` ... `prev = x`: the join of None and a float or an int, or
 * of such a join and its number, is "float | None" or "int | None"; NULL
 * for any other pair. */
static const type *number_or_none(const type *x, const type *y) {
  const type *n = x->kind == TY_NONE ? y : y->kind == TY_NONE ? x : NULL;
  if (n == &ty_float) return &ty_float_or_none;
  if (n == &ty_int) return &ty_int_or_none;
  if (n && n->num_or_none) return n;
  if (x->num_or_none && x->num_or_none == y) return x;
  if (y->num_or_none && y->num_or_none == x) return y;
  return NULL;
}

const type *ty_join(const type *x, const type *y) {
  if (x->kind == TY_UNKNOWN) return y;
  if (y->kind == TY_UNKNOWN) return x;
  if (x == y) return x;
  if (x->rec || y->rec) return ty_join(ty_unrec(x), ty_unrec(y)); /* one as fields, one made: the instance */
  bool xn = x->kind == TY_INT || x->kind == TY_FLOAT || x->kind == TY_NUM;
  bool yn = y->kind == TY_INT || y->kind == TY_FLOAT || y->kind == TY_NUM;
  bool xnp = x->kind == TY_NP && (x->fmt == 'd' || x->fmt == 'l');
  bool ynp = y->kind == TY_NP && (y->fmt == 'd' || y->fmt == 'l');
  if ((xn || xnp) && (yn || ynp)) /* `s = 0.0` then `s += a[i]`: numpy.float64 / int64 join them */
    return xnp || ynp || ty_may_be_np(x) || ty_may_be_np(y) ? &ty_num_np : &ty_num;
  if (x->kind == TY_NONE && (y->cls || y->or_none)) /* `best = None` ... `best = s`: "Cls | None" */
    return y->or_none ? y : &y->cls->inst_or_none;
  if (y->kind == TY_NONE && (x->cls || x->or_none)) return x->or_none ? x : &x->cls->inst_or_none;
  if ((x->or_none && x->or_none == y->cls) || (y->or_none && y->or_none == x->cls))
    return x->or_none ? x : y;
  const type *n = number_or_none(x, y);
  if (n) return n;
  if ((x->kind == TY_NONE && y->kind != TY_NUM && boxes_as_object(y)) ||
      (y->kind == TY_NONE && x->kind != TY_NUM && boxes_as_object(x)))
    return &ty_obj; /* `r = None` ... `r = [...]`: an object (a list or tuple boxed) */
  if (x->kind == TY_LIST && y->kind == TY_LIST) { /* [] joins any list: its appends decide */
    if (x->elts[0]->kind == TY_UNKNOWN) return y;
    if (y->elts[0]->kind == TY_UNKNOWN) return x;
    if (boxes_in_list(x->elts[0]) && boxes_in_list(y->elts[0]))
      return ty_list(&ty_obj); /* `out.append(1.0)` then `out.append("s")`: each element boxed as what it is */
  }
  /* an object local can hold a number, None, a list or a tuple of such too */
  if (x->kind == TY_OBJ && y->kind == TY_OBJ) return &ty_obj;
  if ((x->kind == TY_OBJ && boxes_as_object(y)) || (y->kind == TY_OBJ && boxes_as_object(x)))
    return &ty_obj; /* two classes' instances, an instance and any object: an object */
  return &ty_conflict;
}

const char *ty_python_name(arena *a, const type *t) {
  switch (t->kind) {
  case TY_INT: return "int";
  case TY_FLOAT: return "float";
  case TY_BOOL: return "bool";
  case TY_NONE: return "None";
  case TY_UNKNOWN: return "None";
  case TY_CONFLICT: return "<conflict>";
  case TY_NUM: return t->fmt ? "int | float | numpy.float64 | numpy.int64" : "int | float";
  case TY_OBJ:
    if (t->or_none) return arena_printf(a, "%s | None", t->or_none->name);
    if (t->num_or_none) return t->num_or_none == &ty_float ? "float | None" : "int | None";
    if (t->rec) return arena_printf(a, "%s (as fields)", t->cls->name);
    return t->cls ? t->cls->name : "object";
  case TY_TUPLE: {
    strbuf b = {0};
    sb_puts(&b, "tuple[");
    for (int i = 0; i < t->n; i++) {
      if (i) sb_puts(&b, ", ");
      sb_puts(&b, ty_python_name(a, t->elts[i]));
    }
    sb_puts(&b, "]");
    char *r = arena_strdup(a, b.data);
    sb_free(&b);
    return r;
  }
  case TY_LIST: return arena_printf(a, "list[%s]", ty_python_name(a, t->elts[0]));
  case TY_NP: return arena_printf(a, "numpy.%s", np_name(t->fmt));
  case TY_BUF:
    if (t->buf_kind == 'n')
      return arena_printf(a, "ndarray[%c%s%s]", t->fmt, t->ndim == 2 ? ", 2" : "",
                          t->strided ? ", strided" : "");
    if (t->buf_kind == 'y') return "bytes";
    if (t->buf_kind == 'Y') return "bytearray";
    return arena_printf(a, "%s[%c%s]", t->buf_kind == 'a' ? "array" : "memoryview", t->fmt,
                        t->strided ? ", strided" : "");
  }
  return "?";
}

/* Buffers are acquired per argument by the glue: never inside a list or tuple. */
static bool holds_buffer(const type *t) {
  if (t->kind == TY_BUF) return true;
  for (int i = 0; i < t->n; i++) if (holds_buffer(t->elts[i])) return true;
  return false;
}

/* type := NAME | NAME '[' args ']', recursive descent over the spelling. */
static const type *parse_type(const struct module *m, const char **pp) {
  const char *p = *pp;
  while (isspace((unsigned char)*p)) p++;
  const char *s = p;
  /* dotted class names, qualified as recorded: mod.f.<locals>.C */
  while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '<' || *p == '>') p++;
  size_t len = (size_t)(p - s);
  char name[256];
  if (!len || len >= sizeof name) return NULL;
  memcpy(name, s, len);
  name[len] = 0;
  while (isspace((unsigned char)*p)) p++;
  const type *t = NULL;
  if (!strcmp(name, "int")) t = &ty_int;
  else if (!strcmp(name, "float")) t = &ty_float;
  else if (!strcmp(name, "bool")) t = &ty_bool;
  else if (!strcmp(name, "None") || !strcmp(name, "NoneType") || !strcmp(name, "builtins.NoneType"))
    t = &ty_none; /* specialised on: `x is None` folds, code for the other case is not typed */
  else if (!strcmp(name, "bytes")) t = ty_buf('y', 'B', false);
  else if (!strcmp(name, "bytearray")) t = ty_buf('Y', 'B', false);
  else if (!strncmp(name, "numpy.", 6)) {
    for (const char *f = np_formats; *f && !t; f++)
      if (!strcmp(name + 6, np_name(*f))) t = ty_np(*f);
  }
  if (!t && *p != '[') { /* objects: every other class, and a list of them */
    klass *k = m ? classes_find(m, name) : NULL;
    if (k && !k->why_not) {
      k->named = true;
      t = &k->inst;
    } else if (k) t = &ty_obj; /* a class of the module kernels do not specialise on */
    else if (!strcmp(name, "list")) t = ty_list(&ty_obj);
    else if (!strcmp(name, "object") || strchr(name, '.')) t = &ty_obj;
  }
  if (t) { *pp = p; return t; }
  if (*p++ != '[') return NULL;
  if (!strcmp(name, "list")) {
    const type *e = parse_type(m, &p);
    while (isspace((unsigned char)*p)) p++;
    if (!e || holds_buffer(e) || *p++ != ']') return NULL;
    t = ty_list(e);
  } else if (!strcmp(name, "tuple")) {
    const type *el[64];
    int n = 0;
    for (;;) {
      if (n == 64 || !(el[n] = parse_type(m, &p)) || holds_buffer(el[n])) return NULL;
      n++;
      while (isspace((unsigned char)*p)) p++;
      if (*p == ',') { p++; continue; }
      if (*p++ != ']') return NULL;
      break;
    }
    t = ty_tuple(NULL, n, el);
  } else if (!strcmp(name, "array") || !strcmp(name, "array.array") ||
             !strcmp(name, "memoryview") || !strcmp(name, "ndarray") ||
             !strcmp(name, "numpy.ndarray")) {
    while (isspace((unsigned char)*p)) p++;
    char fmt = *p ? *p++ : 0;
    while (isspace((unsigned char)*p)) p++;
    bool strided = false, nd = strstr(name, "ndarray") != NULL;
    int ndim = 1;
    if (nd && *p == ',') { /* ndarray[d, 2]: the number of dimensions */
      const char *q = p + 1;
      while (isspace((unsigned char)*q)) q++;
      if (isdigit((unsigned char)*q)) {
        ndim = *q - '0';
        for (p = q + 1; isspace((unsigned char)*p); p++) {}
      }
    }
    if (*p == ',') {
      p++;
      while (isspace((unsigned char)*p)) p++;
      if (strncmp(p, "strided", 7)) return NULL;
      p += 7;
      strided = true;
      while (isspace((unsigned char)*p)) p++;
    }
    if (*p++ != ']') return NULL;
    t = nd ? ty_ndarray(fmt, ndim, strided) : ty_buf(name[0] == 'a' ? 'a' : 'm', fmt, strided);
  }
  if (t) *pp = p;
  return t;
}

const type *ty_from_name_in(const module *m, const char *name) {
  const char *p = name;
  const type *t = parse_type(m, &p);
  while (t && isspace((unsigned char)*p)) p++;
  return t && !*p ? t : NULL;
}

const type *ty_from_name(const char *name) { return ty_from_name_in(NULL, name); }

bool ty_is_number(const type *t) {
  return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || t->kind == TY_NUM;
}

bool ty_is_scalar(const type *t) { return ty_is_number(t) || t->kind == TY_NP; }
bool ty_may_be_np(const type *t) { return t == &ty_num_np; }

bool ty_holds_object(const type *t) {
  if (t->kind == TY_OBJ) return true;
  if (t->kind != TY_TUPLE && t->kind != TY_LIST) return false;
  for (int i = 0; i < t->n; i++) if (ty_holds_object(t->elts[i])) return true;
  return false;
}

const char *const binop_spelling[] = {"+", "-", "*", "/", "//", "%", "**",
                                      "<<", ">>", "&", "|", "^", "@"};
const char *const cmpop_spelling[] = {"<", "<=", ">", ">=", "==", "!=", "is", "is not", "in",
                                      "not in", "is", "is not"};

/* ---- paths ------------------------------------------------------------------ */
char *read_text_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  strbuf b = {0};
  char buf[8192];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_putn(&b, buf, n);
  fclose(f);
  if (!b.data) sb_puts(&b, ""); /* an empty file is an empty string, not NULL */
  return b.data;
}

const char *path_basename(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

bool mkdirs(const char *dir) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
    *p = '/';
  }
  return mkdir(buf, 0777) == 0 || errno == EEXIST;
}
