/* parse.c: phase 1, source text -> Tree-sitter tree.
 *
 * Reads the file, hashes it (SHA-256, libmd: the artifact's source guard),
 * parses it with the Python grammar and reports every ERROR / MISSING node
 * as a `file:line:col` diagnostic. Grammar symbols and fields are looked up
 * by name, never by the numbers the grammar generator assigned.
 */
#include "gen.h"

#include <errno.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const TSLanguage *tree_sitter_python(void);

const TSLanguage *parse_language(void) { return tree_sitter_python(); }

TSSymbol sym(const char *name) {
  return ts_language_symbol_for_name(parse_language(), name, (uint32_t)strlen(name), true);
}

TSFieldId field(const char *name) {
  return ts_language_field_id_for_name(parse_language(), name, (uint32_t)strlen(name));
}

TSNode child_by_field(TSNode n, const char *fname) {
  return ts_node_child_by_field_name(n, fname, (uint32_t)strlen(fname));
}

/* One walk of n's children: the number of its named children that are
 * extras, comments and backslash line continuations, which the grammar
 * lets stand between any two tokens (`f(a, \` NEWLINE `b)`, `x if c \`
 * NEWLINE `else y`); and its named child `want` not counting them (a null
 * node past the last). */
static TSNode walk_named(TSNode n, uint32_t want, uint32_t *extras) {
  TSNode found = {0};
  *extras = 0;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c))
    do {
      TSNode ch = ts_tree_cursor_current_node(&c);
      if (!ts_node_is_named(ch)) continue;
      if (ts_node_is_extra(ch)) ++*extras;
      else if (want-- == 0) found = ch;
    } while (ts_tree_cursor_goto_next_sibling(&c));
  ts_tree_cursor_delete(&c);
  return found;
}

/* walk_named's count, remembered per node in a small direct-mapped memo
 * (a node is looked at child by child). */
typedef struct extras_memo {
  const void *id;
  const TSTree *tree;
  uint32_t start, end, extras;
} extras_memo;
static uint32_t named_extras(TSNode n) {
  static extras_memo memo[256];
  extras_memo *e = &memo[((uintptr_t)n.id >> 4) % 256];
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  if (e->id == n.id && e->tree == n.tree && e->start == start && e->end == end) return e->extras;
  uint32_t k;
  walk_named(n, UINT32_MAX, &k);
  *e = (extras_memo){n.id, n.tree, start, end, k};
  return k;
}

uint32_t node_named_count(TSNode n) { return ts_node_named_child_count(n) - named_extras(n); }

TSNode node_named(TSNode n, uint32_t i) {
  uint32_t k;
  return named_extras(n) ? walk_named(n, i, &k) : ts_node_named_child(n, i);
}

bool node_is(TSNode n, const char *type) {
  return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

srcpos node_pos(TSNode n) {
  TSPoint p = ts_node_start_point(n);
  return (srcpos){(int)p.row + 1, (int)p.column + 1};
}

char *node_text(arena *a, const parsed *p, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return arena_strndup(a, p->src.text + s, e - s);
}

static char *read_whole_file(const char *path, size_t *len, const char **err) {
  FILE *f = fopen(path, "rb");
  if (!f) { *err = strerror(errno); return NULL; }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (n + 1 >= cap) { cap *= 2; buf = realloc(buf, cap); }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  if (ferror(f)) { *err = strerror(errno ? errno : EIO); fclose(f); free(buf); return NULL; }
  fclose(f);
  buf[n] = 0;
  *len = n;
  return buf;
}

static void index_lines(arena *a, source *s) {
  int n = 1;
  for (size_t i = 0; i < s->len; i++) if (s->text[i] == '\n') n++;
  s->lines = arena_alloc(a, sizeof(char *) * (size_t)n);
  s->lines[0] = s->text;
  int k = 1;
  for (size_t i = 0; i < s->len; i++)
    if (s->text[i] == '\n') s->lines[k++] = s->text + i + 1;
  s->nlines = n;
}

/* Reports the syntax errors under `root` (at most `budget`), walking the
 * tree with a cursor: no recursion, whatever the nesting. */
static int report_syntax_errors(const parsed *p, TSNode root, int budget) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  int found = 0;
  for (bool down = true; found < budget;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool descend = false;
    if (!down || !ts_node_has_error(n)) {
    } else if (ts_node_is_missing(n)) {
      diag_error(&p->src, node_pos(n), "syntax error: missing '%s'; fix the source so that "
                 "'python3 -m py_compile' accepts it", ts_node_type(n));
      found++;
    } else if (!strcmp(ts_node_type(n), "ERROR")) {
      diag_error(&p->src, node_pos(n), "syntax error in the statement starting here; "
                 "'python3 -m py_compile %s' shows the exact place (if CPython accepts the "
                 "file, the Tree-sitter grammar cannot parse it: build with "
                 "'python3 -m dynac build' or --trusted-syntax)", p->src.path);
      found++;
    } else descend = true;
    if (descend && ts_tree_cursor_goto_first_child(&c)) { down = true; continue; }
    if (ts_tree_cursor_goto_next_sibling(&c)) { down = true; continue; }
    down = false; /* back up: the parent's siblings next */
    if (!ts_tree_cursor_goto_parent(&c)) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}

/* The first node nested more than DYNAC_MAX_NESTING levels deep (a null
 * node if none). The generator's phases recurse over the syntax tree; this
 * iterative walk bounds their depth before any of them runs. */
static TSNode first_too_deep(TSNode root) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  TSNode found = {0};
  int depth = 0;
  for (;;) {
    if (depth > DYNAC_MAX_NESTING) { found = ts_tree_cursor_current_node(&c); break; }
    if (ts_tree_cursor_goto_first_child(&c)) { depth++; continue; }
    bool more = false;
    while (!(more = ts_tree_cursor_goto_next_sibling(&c)) && ts_tree_cursor_goto_parent(&c)) depth--;
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}

bool parse_file(arena *a, const char *path, bool trusted_syntax, parsed *out) {
  memset(out, 0, sizeof *out);
  out->src.path = arena_strdup(a, path);
  const char *err = NULL;
  size_t len = 0;
  char *text = read_whole_file(path, &len, &err);
  if (!text) {
    diag_error(&out->src, (srcpos){1, 1}, "cannot read this file (%s); check the path "
               "and its permissions", err);
    return false;
  }
  out->src.text = arena_strndup(a, text, len);
  out->src.len = len;
  free(text);
  index_lines(a, &out->src);
  SHA256Data((const uint8_t *)out->src.text, len, out->sha256);
  if (memchr(out->src.text, 0, len)) {
    diag_error(&out->src, (srcpos){1, 1}, "source contains a NUL byte; this is not a "
               "Python source file");
    return false;
  }
  out->parser = ts_parser_new();
  if (!ts_parser_set_language(out->parser, parse_language())) {
    diag_plain("the Python grammar's ABI does not match libtree-sitter; rebuild with 'make'");
    return false;
  }
  out->tree = ts_parser_parse_string(out->parser, NULL, out->src.text, (uint32_t)len);
  if (!out->tree) { diag_plain("%s: Tree-sitter failed to parse", path); return false; }
  out->root = ts_tree_root_node(out->tree);
  if (ts_node_has_error(out->root) && !trusted_syntax) {
    report_syntax_errors(out, out->root, 5);
    return false;
  }
  TSNode deep = first_too_deep(out->root);
  if (!ts_node_is_null(deep)) {
    diag_error(&out->src, node_pos(deep), "nested too deeply for dynac (more than %d levels of "
               "syntax; a chain like x + x + ... counts one level per operator): split the "
               "expression or block, e.g. into partial sums", DYNAC_MAX_NESTING);
    return false;
  }
  return true;
}

/* Appends `text` (whole statements) to p's source, past its end, and
 * parses the whole into p->synth_tree: the root of that tree, whose
 * statements after the source's own are text's. p->root and its nodes (of
 * the source alone) stay as they are; node_text and source_line read either
 * tree's nodes from the one buffer. A null node if it does not parse. */
TSNode parse_appended(arena *a, parsed *p, const char *text) {
  size_t n = strlen(text);
  char *all = arena_alloc(a, p->src.len + n + 1);
  memcpy(all, p->src.text, p->src.len);
  memcpy(all + p->src.len, text, n + 1);
  p->src.text = all;
  p->src.len += n;
  index_lines(a, &p->src);
  p->synth_tree = ts_parser_parse_string(p->parser, NULL, all, (uint32_t)p->src.len);
  TSNode root = p->synth_tree ? ts_tree_root_node(p->synth_tree) : (TSNode){0};
  return ts_node_is_null(root) || ts_node_has_error(root) ? (TSNode){0} : root;
}

void parse_release(parsed *p) {
  if (p->synth_tree) ts_tree_delete(p->synth_tree);
  p->synth_tree = NULL;
  if (p->tree) ts_tree_delete(p->tree);
  if (p->parser) ts_parser_delete(p->parser);
  p->tree = NULL;
  p->parser = NULL;
}
