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
 * `self.__post_init__()`, as _init_fn writes it, its InitVars the
 * arguments (the construction check tests the class has one).
 * `field(default=v)` is a default as `= v` is; `field(default_factory=f)`
 * (the usual `= field(default_factory=list)`): _init_fn's text takes the
 * parameter with the default `_HAS_DEFAULT_FACTORY` (a sentinel) and stores
 * `_dflt_f() if f is _HAS_DEFAULT_FACTORY else f`, both names free
 * variables of __init__ (cells of _create_fn's __create_fn__, which holds
 * the factory). The synthesised text nests the class in such a function,
 * so the def has the same co_freevars (sorted, as CPython orders them) and
 * its kernel reads them from the closure of the class's __init__; the
 * construction check tests those names and that each field has a factory
 * exactly where the source gave one (its name marked "()").
 * An InitVar field (`scale: InitVar[float]`) is a parameter with no store,
 * passed on as `self.__post_init__(scale)` (marked ":InitVar" for the check).
 * field(init=False) is no parameter (_init_fn's std_fields leave it out,
 * and so does the rule that a field without a default may not follow one
 * with); _field_init stores it only where it cannot be left to the class:
 * `self.f = _dflt_f()` with a factory (marked "!()"), `self.f = _dflt_f`
 * with a default in a slots=True class (no class attribute holds it there;
 * marked "!="), else nothing (marked "!"); _dflt_f is then a free variable
 * as a factory's is.
 * A keyword-only field (field(kw_only=True), a field after `_: KW_ONLY`,
 * or any of a @dataclass(kw_only=True)'s own fields) is a parameter after
 * `*`, as _init_fn puts them: the others first, in order, then `*` and the
 * keyword-only ones in order (marked "*", "*()" with a factory); the rule
 * that a field without a default may not follow one with counts only the
 * others. The body stores every field in the fields' order.
 * Not synthesised (CPython's __init__ runs, as before): field(...) with a
 * positional argument, a keyword-only field with init=False or an InitVar
 * one, an explicit __init__, the init= option, a frozen class with a
 * factory or a stored init=False field (its text's
 * __dataclass_builtins_object__ is one more free variable), an InitVar
 * with init=False, a field named self, a default spanning lines.
 */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

typedef struct dc_field {
  const char *name;
  const char *dflt; /* the default's source text (a factory's: _HAS_DEFAULT_FACTORY), or NULL */
  bool factory;     /* field(default_factory=...) */
  bool initvar;     /* an InitVar: a parameter only, passed on to __post_init__ */
  bool noinit;      /* field(init=False): no parameter */
  int kw_only;      /* a keyword-only parameter: 1, 0, or -1 (field()'s kw_only not given: the class's) */
} dc_field;

/* Is f a parameter of __init__? A keyword-only one? */
static bool is_param(const dc_field *f) { return !f->noinit; }
static bool is_kw_param(const dc_field *f) { return !f->noinit && f->kw_only == 1; }
/* Does _field_init store f from a free variable _dflt_f: its factory's call,
 * or (init=False, a slots=True class) its default? */
static bool stores_cell(const klass *k, const dc_field *f) {
  return f->factory || (f->noinit && f->dflt && k->dc_slots);
}
/* Does _field_init write a line for f? */
static bool stored(const klass *k, const dc_field *f) { return !f->initvar && (!f->noinit || stores_cell(k, f)); }

enum { DC_MAX_FIELDS = 64 };

static bool starts_with(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* Adds field f to fs (n of them), or puts it in the place of the field of
 * its name (a field defined again). false when there is no room. */
static bool add_field(dc_field *fs, int *n, dc_field f) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(fs[i].name, f.name)) { fs[i] = f; return true; }
  if (*n == DC_MAX_FIELDS) return false;
  fs[(*n)++] = f;
  return true;
}

/* Keywords of field(...) that leave _init_fn's text as it is. */
static bool text_neutral_keyword(const char *k) {
  return !strcmp(k, "repr") || !strcmp(k, "hash") || !strcmp(k, "compare") || !strcmp(k, "metadata");
}
/* A field's default `right` when it is a call of field (`field(...)`,
 * `dataclasses.field(...)`): *f's default (NULL: none), factory and init=
 * as _init_fn reads them; false where its text differs otherwise
 * (a positional argument, both a default and a factory). */
static bool field_call_default(module *m, TSNode right, dc_field *f) {
  const char *fn = node_text(m->a, &m->p, child_by_field(right, "function"));
  if (strcmp(fn, "field") && strcmp(fn, "dataclasses.field")) return false;
  TSNode args = child_by_field(right, "arguments");
  f->dflt = NULL;
  for (uint32_t i = 0; i < node_named_count(args); i++) {
    TSNode a = node_named(args, i);
    if (!node_is(a, "keyword_argument")) return false;
    const char *k = node_text(m->a, &m->p, child_by_field(a, "name"));
    const char *v = node_text(m->a, &m->p, child_by_field(a, "value"));
    if (text_neutral_keyword(k)) continue;
    if (!strcmp(k, "init") && (!strcmp(v, "True") || !strcmp(v, "False"))) {
      f->noinit = !strcmp(v, "False");
      continue;
    }
    if (!strcmp(k, "kw_only") && (!strcmp(v, "True") || !strcmp(v, "False"))) {
      f->kw_only = !strcmp(v, "True");
      continue;
    }
    if ((strcmp(k, "default") && strcmp(k, "default_factory")) || f->dflt || strchr(v, '\n')) return false;
    f->factory = !strcmp(k, "default_factory");
    f->dflt = f->factory ? "_HAS_DEFAULT_FACTORY" : v;
  }
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
  bool kw_only = k->dc_kw_only; /* the class's fields' kw_only, until a `_: KW_ONLY` sets it */
  for (uint32_t i = 0; i < node_named_count(body); i++) {
    TSNode st = node_named(body, i), a = node_named(st, 0);
    if (!node_is(st, "expression_statement") || !node_is(a, "assignment")) continue;
    TSNode left = child_by_field(a, "left"), ann = child_by_field(a, "type"), right = child_by_field(a, "right");
    if (ts_node_is_null(ann) || !node_is(left, "identifier")) continue;
    const char *at = node_text(m->a, &m->p, ann);
    if (*at == '"' || *at == '\'') at++; /* a string annotation: dataclasses matches its text */
    if (starts_with(at, "ClassVar") || starts_with(at, "typing.ClassVar")) continue;
    bool initvar = starts_with(at, "InitVar") || starts_with(at, "dataclasses.InitVar");
    if (!strcmp(at, "KW_ONLY") || !strcmp(at, "dataclasses.KW_ONLY")) { /* no field: the ones after are */
      if (!ts_node_is_null(right)) return false;
      kw_only = true;
      continue;
    }
    if ((!initvar && strstr(at, "InitVar")) || strstr(at, "KW_ONLY")) return false;
    dc_field f = {node_text(m->a, &m->p, left), ts_node_is_null(right) ? NULL : node_text(m->a, &m->p, right), false,
                  initvar, false, -1};
    bool field_call = f.dflt && node_is(right, "call") &&
                      strstr(node_text(m->a, &m->p, child_by_field(right, "function")), "field");
    if (field_call ? !field_call_default(m, right, &f) : f.dflt && strchr(f.dflt, '\n')) return false;
    if (f.kw_only < 0) f.kw_only = kw_only;
    if ((f.factory && f.initvar) || (f.noinit && f.initvar) || (f.kw_only && (f.noinit || f.initvar)) ||
        !add_field(fs, n, f))
      return false;
  }
  return true;
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The free variables of _init_fn's text for fields fs (n) of class k,
 * sorted as CPython orders co_freevars: _dflt_NAME per field stored from
 * one (stores_cell), and _HAS_DEFAULT_FACTORY where a parameter has a
 * factory; none without such fields. Their count in *nfree. */
static const char **cell_names(module *m, const klass *k, const dc_field *fs, int n, int *nfree) {
  const char **v = arena_alloc(m->a, sizeof(char *) * (size_t)(n + 1));
  bool sentinel = false;
  *nfree = 0;
  for (int i = 0; i < n; i++) {
    if (stores_cell(k, &fs[i])) v[(*nfree)++] = arena_printf(m->a, "_dflt_%s", fs[i].name);
    sentinel |= fs[i].factory && is_param(&fs[i]);
  }
  if (sentinel) v[(*nfree)++] = "_HAS_DEFAULT_FACTORY";
  qsort(v, (size_t)*nfree, sizeof *v, by_text);
  return v;
}

/* The text of V.__init__ for fields fs (n) after the source, or NULL when
 * dataclasses would refuse them (a field without a default after one with)
 * or name self `__dataclass_self__` (a field named self). With a factory,
 * the class is nested in a function whose parameters are the free
 * variables (as _create_fn's __create_fn__). The keyword-only ones after
 * `*` (_init_fn's kw_only_fields); *ndefaults: the others' defaults. */
static const char *init_text(module *m, const klass *k, const dc_field *fs, int n, bool post_init, int *ndefaults) {
  strbuf b = {0};
  int nfree = 0;
  const char **cells = cell_names(m, k, fs, n, &nfree);
  const char *in = nfree ? "    " : ""; /* the class's indentation */
  if (nfree) {
    sb_puts(&b, "\n\ndef __create_fn__(");
    for (int i = 0; i < nfree; i++) sb_printf(&b, "%s%s", i ? ", " : "", cells[i]);
    sb_puts(&b, "):");
  }
  sb_printf(&b, "\n\n%sclass %s:\n%s    def __init__(self", in, k->name, in);
  *ndefaults = 0;
  bool ok = true;
  for (int i = 0; i < n; i++) {
    if (!strcmp(fs[i].name, "self") || (k->frozen && stores_cell(k, &fs[i]))) ok = false;
    if (!is_param(&fs[i]) || is_kw_param(&fs[i])) continue;
    if (*ndefaults && !fs[i].dflt) ok = false; /* dataclasses' TypeError: non-default argument follows default */
    if (fs[i].dflt) ++*ndefaults;
    sb_printf(&b, ", %s%s%s", fs[i].name, fs[i].dflt ? "=" : "", fs[i].dflt ? fs[i].dflt : "");
  }
  for (int i = 0, star = 0; i < n; i++)
    if (is_kw_param(&fs[i]))
      sb_printf(&b, "%s, %s%s%s", star++ ? "" : ", *", fs[i].name, fs[i].dflt ? "=" : "", fs[i].dflt ? fs[i].dflt : "");
  sb_puts(&b, "):\n");
  int nstored = 0;
  for (int i = 0; i < n; i++) {
    const char *f = fs[i].name;
    if (!stored(k, &fs[i])) continue; /* an InitVar: __post_init__'s argument; init=False: the class's */
    nstored++;
    if (fs[i].factory && fs[i].noinit) sb_printf(&b, "%s        self.%s = _dflt_%s()\n", in, f, f);
    else if (fs[i].factory) sb_printf(&b, "%s        self.%s = _dflt_%s() if %s is _HAS_DEFAULT_FACTORY else %s\n", in, f, f, f, f);
    else if (fs[i].noinit) sb_printf(&b, "%s        self.%s = _dflt_%s\n", in, f, f);
    else sb_printf(&b, "%s        self.%s = %s\n", in, f, f);
  }
  if (post_init) {
    sb_printf(&b, "%s        self.__post_init__(", in);
    for (int i = 0, k = 0; i < n; i++)
      if (fs[i].initvar) sb_printf(&b, "%s%s", k++ ? ", " : "", fs[i].name);
    sb_puts(&b, ")\n");
  }
  if (!nstored && !post_init) sb_printf(&b, "%s        pass\n", in);
  const char *r = ok ? arena_strdup(m->a, b.data) : NULL;
  sb_free(&b);
  return r;
}

/* The def of the __init__ text init_text appended (root's named child i):
 * in the class, or in the class in __create_fn__. */
static TSNode appended_def(TSNode root, uint32_t i) {
  TSNode top = node_named(root, i);
  if (node_is(top, "function_definition")) top = node_named(child_by_field(top, "body"), 0);
  return node_named(child_by_field(top, "body"), 0);
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
    for (int f = 0; f < n; f++)
      sb_printf(&names, "%s%s%s%s", f ? "," : "", fs[f].name,
                fs[f].noinit ? stored(k, &fs[f]) && !fs[f].factory ? "!=" : "!" : is_kw_param(&fs[f]) ? "*" : "",
                fs[f].factory ? "()" : fs[f].initvar ? ":InitVar" : "");
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
    TSNode def = appended_def(root, own + (uint32_t)i);
    func *f = scope_synthesised_method(m, def, arena_printf(m->a, "%s.__init__", made[i]->name));
    f->synth_first = node_pos(def).line;
    f->synth_of = made[i];
    f->synth_fields = fields[i];
    f->synth_defaults = ndefaults[i];
    f->synth_post_init = post_inits[i];
  }
}
