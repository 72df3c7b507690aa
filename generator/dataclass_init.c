/* dataclass_init.c: the __init__ a @dataclass generates, synthesised as a
 * def, so that `V(x, y)` in a kernel runs it as a kernel (and a V
 * temporary may be kept as its fields) rather than as CPython's frame.
 *
 * dataclasses makes __init__ by exec() of a text (CPython 3.11's
 * Lib/dataclasses.py, _init_fn): with the default options, a parameter
 * per field (the fields of its dataclass bases first; a field defined
 * again keeps its place), a field's default as its parameter's default
 * (__defaults__, read when a call leaves it out), and a body of
 * `self.NAME=NAME` per field, in order. When the source declares every
 * field (`x: float`, `y: float = 0.0`), that text is known here: it is
 * appended to the module's source (past its end; parse_appended), and its
 * def compiles as the method V.__init__ (never a compile root: only the
 * kernels constructing a V call it, no super().__init__). Each such
 * construction checks that the class's __init__ is that generated function
 * (emit/calls.c synthesised_init_ok; runtime: dynac_dataclass_init_ok, its
 * code and the class's __dataclass_fields__ and options, once per version
 * tag), else CPython's call makes the instance there; a traceback entry of
 * the kernel is the generated code's (File "<string>": emit/failure.c where).
 * frozen=True: dataclasses' text stores each field by
 * `__dataclass_builtins_object__.__setattr__(self,'f',f)` (object's own,
 * past the class's __setattr__, which raises FrozenInstanceError); the
 * synthesised `self.f = f` stores the same way (the kernel's stores carry
 * DYNAC_STORE_GENERIC: emit/objects.c store_owner, emit/records.c), on
 * the same lines.
 * A class with __post_init__ (its own or a base's): the text ends with
 * `self.__post_init__()`, as _init_fn writes it when no field is an
 * InitVar (the construction check tests the class has one).
 * Not synthesised (CPython's __init__ runs, as before): a field(...)
 * default, InitVar, KW_ONLY, an explicit __init__, the init=/kw_only=
 * options, a field named self, a default spanning lines.
 */
#include "gen.h"

#include <string.h>

typedef struct dc_field {
  const char *name;
  const char *dflt; /* the default's source text, or NULL */
} dc_field;

enum { DC_MAX_FIELDS = 64 };

static bool starts_with(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* Adds field `name` to fs (n of them), or gives it its new default in its
 * place (a field defined again). false when there is no room. */
static bool add_field(dc_field *fs, int *n, const char *name, const char *dflt) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(fs[i].name, name)) { fs[i].dflt = dflt; return true; }
  if (*n == DC_MAX_FIELDS) return false;
  fs[(*n)++] = (dc_field){name, dflt};
  return true;
}

/* The fields of dataclass k, as dataclasses collects them: its nearest
 * dataclass base's (inherited __dataclass_fields__), then its body's
 * annotated names that are not ClassVars. false where the generated
 * __init__ is not `self.f=f` per field (see the top of the file). */
static bool fields_of(module *m, const klass *k, dc_field *fs, int *n) {
  *n = 0;
  for (const klass *b = k->base; b; b = b->base)
    if (b->dataclass) { /* (dataclasses refuses a frozen one over another: TypeError) */
      if (b->dataclass != 1 || b->frozen != k->frozen || !fields_of(m, b, fs, n)) return false;
      break;
    }
  TSNode body = child_by_field(classes_def(m, k), "body");
  for (uint32_t i = 0; i < node_named_count(body); i++) {
    TSNode st = node_named(body, i), a = node_named(st, 0);
    if (!node_is(st, "expression_statement") || !node_is(a, "assignment")) continue;
    TSNode left = child_by_field(a, "left"), ann = child_by_field(a, "type"), right = child_by_field(a, "right");
    if (ts_node_is_null(ann) || !node_is(left, "identifier")) continue;
    const char *at = node_text(m->a, &m->p, ann);
    if (*at == '"' || *at == '\'') at++; /* a string annotation: dataclasses matches its text */
    if (starts_with(at, "ClassVar") || starts_with(at, "typing.ClassVar")) continue;
    if (strstr(at, "InitVar") || strstr(at, "KW_ONLY")) return false;
    const char *dflt = ts_node_is_null(right) ? NULL : node_text(m->a, &m->p, right);
    if (dflt && (strchr(dflt, '\n') || (node_is(right, "call") &&
                 strstr(node_text(m->a, &m->p, child_by_field(right, "function")), "field"))))
      return false;
    if (!add_field(fs, n, node_text(m->a, &m->p, left), dflt)) return false;
  }
  return true;
}

/* The text of V.__init__ for fields fs (n) after the source, or NULL when
 * dataclasses would refuse them (a field without a default after one with)
 * or name self `__dataclass_self__` (a field named self). */
static const char *init_text(module *m, const klass *k, const dc_field *fs, int n, bool post_init, int *ndefaults) {
  strbuf b = {0};
  sb_printf(&b, "\n\nclass %s:\n    def __init__(self", k->name);
  *ndefaults = 0;
  bool ok = true;
  for (int i = 0; i < n; i++) {
    if (!strcmp(fs[i].name, "self") || (*ndefaults && !fs[i].dflt)) ok = false;
    if (fs[i].dflt) ++*ndefaults;
    sb_printf(&b, ", %s%s%s", fs[i].name, fs[i].dflt ? "=" : "", fs[i].dflt ? fs[i].dflt : "");
  }
  sb_puts(&b, "):\n");
  for (int i = 0; i < n; i++) sb_printf(&b, "        self.%s = %s\n", fs[i].name, fs[i].name);
  if (post_init) sb_puts(&b, "        self.__post_init__()\n");
  if (!n && !post_init) sb_puts(&b, "        pass\n");
  const char *r = ok ? arena_strdup(m->a, b.data) : NULL;
  sb_free(&b);
  return r;
}

void classes_dataclass_inits(module *m) {
  strbuf text = {0};
  klass **made = arena_alloc(m->a, sizeof(klass *) * (size_t)(m->nclasses + 1));
  const char **fields = arena_alloc(m->a, sizeof(char *) * (size_t)(m->nclasses + 1));
  int *ndefaults = arena_alloc(m->a, sizeof(int) * (size_t)(m->nclasses + 1));
  bool *post_inits = arena_alloc(m->a, sizeof(bool) * (size_t)(m->nclasses + 1));
  int nmade = 0;
  for (int i = 0; i < m->nclasses; i++) {
    klass *k = m->classes[i];
    dc_field fs[DC_MAX_FIELDS];
    int n = 0;
    if (k->dataclass != 1 || k->why_not || k->named_tuple || k->defines_new ||
        classes_defines(m, &(klass){.name = k->name}, "__init__") || /* its own body's */
        !fields_of(m, k, fs, &n))
      continue;
    post_inits[nmade] = classes_defines(m, k, "__post_init__");
    const char *t = init_text(m, k, fs, n, post_inits[nmade], &ndefaults[nmade]);
    if (!t) continue;
    strbuf names = {0};
    for (int f = 0; f < n; f++) sb_printf(&names, "%s%s", f ? "," : "", fs[f].name);
    fields[nmade] = arena_strdup(m->a, names.data ? names.data : "");
    sb_free(&names);
    sb_puts(&text, t);
    made[nmade++] = k;
  }
  if (!nmade) { sb_free(&text); return; }
  uint32_t own = node_named_count(m->p.root);
  TSNode root = parse_appended(m->a, &m->p, text.data);
  sb_free(&text);
  if (ts_node_is_null(root) || node_named_count(root) != own + (uint32_t)nmade) return;
  for (int i = 0; i < nmade; i++) {
    TSNode body = child_by_field(node_named(root, own + (uint32_t)i), "body");
    TSNode def = node_named(body, 0);
    func *f = scope_synthesised_method(m, def, arena_printf(m->a, "%s.__init__", made[i]->name));
    f->synth_first = node_pos(def).line;
    f->synth_of = made[i];
    f->synth_fields = fields[i];
    f->synth_defaults = ndefaults[i];
    f->synth_post_init = post_inits[i];
  }
}
