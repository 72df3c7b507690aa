/* annotations.c: phase 3, which functions compile and for which types.
 *
 * Recognised statically, by name (DESIGN.md's annotation table):
 *   @dynac.compile / @torch.compile [ (fullgraph=, signatures=, backend=) ]
 *   @dynac.disable / @torch.compiler.disable / @torch._dynamo.disable
 * Specialisations come from PEP 484 parameter annotations (int, float, bool),
 * from signatures=["(float, int) -> float", ...], or from a recorded profile.
 */
#include "gen.h"
#include "../runtime/artifact.h" /* dynac_compile_options */

#include <ctype.h>
#include <string.h>

static const char *const compile_names[] = {"dynac.compile", "torch.compile", NULL};
static const char *const disable_names[] = {
    "dynac.disable", "torch.compiler.disable", "torch._dynamo.disable", NULL};
static const char *const allow_names[] = {
    "dynac.allow_in_graph", "torch.compiler.allow_in_graph", "torch._dynamo.allow_in_graph", NULL};
static const char *const disallow_names[] = {
    "dynac.disallow_in_graph", "torch._dynamo.disallow_in_graph", NULL};
static const char *const constant_names[] = {
    "dynac.assume_constant_result", "torch._dynamo.assume_constant_result",
    "torch.compiler.assume_constant_result", NULL};
static const char *const disable_options[] = {"recursive", "reason", "wrapping", NULL};

static bool in_list(const char *const *list, const char *s) {
  for (; *list; list++) if (!strcmp(*list, s)) return true;
  return false;
}

bool spec_append(module *m, spec **list, int nparams, const type **args, const char *origin) {
  spec **tail = list;
  for (; *tail; tail = &(*tail)->next) {
    bool same = true;
    for (int i = 0; i < nparams; i++) if ((*tail)->args[i] != args[i]) same = false;
    if (same) return false;
  }
  spec *s = arena_alloc(m->a, sizeof *s);
  *s = (spec){.args = args, .origin = origin};
  *tail = s;
  return true;
}

void annotations_add_spec(module *m, func *f, const type **args, const char *origin) {
  spec_append(m, &f->specs, f->nparams, args, origin);
}

/* "(float, int) -> float": argument types; the return type is checked by
 * infer.c against what it infers. */
bool parse_signature(module *m, const char *text, const type ***args, int *n,
                     const char **err) {
  arena *a = m->a;
  const char *p = text;
  while (isspace((unsigned char)*p)) p++;
  if (*p != '(') { *err = "a signature starts with '('"; return false; }
  p++;
  const type *buf[64];
  int k = 0;
  for (;;) {
    while (isspace((unsigned char)*p)) p++;
    if (*p == ')') { p++; break; }
    const char *s = p;
    int depth = 0; /* a type ends at a ',' or ')' outside brackets */
    while (*p && !(depth == 0 && (*p == ',' || *p == ')'))) {
      if (*p == '[') depth++;
      if (*p == ']') depth--;
      p++;
    }
    size_t len = (size_t)(p - s);
    while (len && isspace((unsigned char)s[len - 1])) len--;
    if (len == 0) { *err = "expected a type (int, float, bool, list[float], ...)"; return false; }
    char *name = arena_strndup(a, s, len);
    const type *t = ty_from_name_in(m, name);
    if (!t) {
      *err = arena_printf(a, "type '%s' is not a kernel type (int, float, bool, tuple[...], "
                          "list[...], array[d], memoryview[d], bytes, bytearray, ndarray[d], ndarray[d, 2], "
                          "numpy.float64, ...)", name);
      return false;
    }
    if (k == 64) { *err = "too many parameters"; return false; }
    buf[k++] = t;
    while (isspace((unsigned char)*p)) p++;
    if (*p == ',') { p++; continue; }
    if (*p == ')') { p++; break; }
    *err = "expected ',' or ')'";
    return false;
  }
  while (isspace((unsigned char)*p)) p++;
  if (p[0] == '-' && p[1] == '>') {
    p += 2;
    while (isspace((unsigned char)*p)) p++;
    while (*p && *p != ' ') p++; /* return type: informative */
    while (isspace((unsigned char)*p)) p++;
  }
  if (*p) { *err = "unexpected text after the signature"; return false; }
  *args = arena_alloc(a, sizeof(type *) * (size_t)(k ? k : 1));
  memcpy(*args, buf, sizeof(type *) * (size_t)k);
  *n = k;
  return true;
}

/* The type of a literal default (1, -2.5, True), or &ty_conflict. */
static const type *constant_type(module *m, TSNode n) {
  if (node_is(n, "unary_operator")) {
    const char *op = node_text(m->a, &m->p, child_by_field(n, "operator"));
    const type *t = constant_type(m, child_by_field(n, "argument"));
    return (!strcmp(op, "-") || !strcmp(op, "+")) && (t == &ty_int || t == &ty_float) ? t : &ty_conflict;
  }
  if (node_is(n, "integer")) {
    const char *s = node_text(m->a, &m->p, n);
    return strpbrk(s, "jJ") ? &ty_conflict : &ty_int;
  }
  if (node_is(n, "float")) return strpbrk(node_text(m->a, &m->p, n), "jJ") ? &ty_conflict : &ty_float;
  if (node_is(n, "true") || node_is(n, "false")) return &ty_bool;
  if (node_is(n, "none")) return &ty_none;
  return &ty_conflict;
}

/* np.ndarray, numpy.ndarray, npt.NDArray[np.float64], NDArray[np.int64]
 * (spelled through any import alias; `canon` is the annotation with the
 * aliases resolved, scope_canonical_names): is it a numpy array annotation?
 * If so `*err` is NULL when kernels can take it (what it leaves open, the
 * number of dimensions and the layout, comes from a profile, signatures=
 * or the first call; its dtype is checked by the guard), else says why not. */
static bool numpy_array_annotation(const char *canon, const char **err) {
  *err = NULL;
  if (!strcmp(canon, "numpy.ndarray")) return true;
  const char *nd = "numpy.typing.NDArray[";
  if (strncmp(canon, nd, strlen(nd))) {
    if (!strncmp(canon, "numpy.ndarray[", 14))
      *err = "numpy.ndarray[shape, dtype] is not read: write npt.NDArray[np.float64] (or np.ndarray)";
    return *err != NULL;
  }
  const char *d = canon + strlen(nd);
  static const char *const dtypes[] = {"numpy.float64", "numpy.float32", "numpy.int64", "numpy.int32",
                                       "numpy.int16", "numpy.int8", "numpy.uint8", "numpy.bool_",
                                       "float", "int", "bool", NULL};
  for (int i = 0; dtypes[i]; i++) {
    size_t n = strlen(dtypes[i]);
    if (!strncmp(d, dtypes[i], n) && !strcmp(d + n, "]")) return true;
  }
  *err = "kernels take ndarrays of float64, float32, int64, int32, int16, int8, uint8 and bool_ "
         "items (another dtype, or Any, is not read)";
  return true;
}

/* Parameter annotation `ann` of parameter k of f: its type, NULL when it
 * leaves the type to a profile (a numpy array: f->array_param). */
static const type *param_annotation(module *m, func *f, int k, TSNode ann) {
  const char *text = node_text(m->a, &m->p, ann);
  const char *canon = scope_canonical_names(m, text);
  const char *err;
  if (numpy_array_annotation(canon, &err)) {
    if (!err) {
      if (!f->array_param) f->array_param = f->params[k];
      return NULL;
    }
    diag_note(&m->p.src, node_pos(ann), "annotation '%s' of %s() is taken as an object: %s", text,
              f->name, err);
    return &ty_obj;
  }
  if (!strncmp(canon, "numpy.", 6)) return ty_from_name_in(m, canon); /* np.float64: a numpy scalar */
  return ty_from_name_in(m, text); /* a class of the module too */
}

/* `*args` / `**kw` (typed or not): its name, or NULL for another parameter. */
static TSNode var_param_name(TSNode p) {
  TSNode none = {0};
  if (node_is(p, "typed_parameter")) p = node_named(p, 0);
  if (!node_is(p, "list_splat_pattern") && !node_is(p, "dictionary_splat_pattern")) return none;
  TSNode name = node_named(p, 0);
  return node_is(name, "identifier") ? name : none;
}

/* Parameters: names, PEP 484 annotations, defaults. *args and **kw come
 * last, in that order, as co_varnames has them: a tuple and a dict, objects
 * whatever their annotation (which types their items). */
static void scan_params(module *m, func *f) {
  TSNode params = child_by_field(f->node, "parameters"); /* null: a lambda without parameters */
  uint32_t c = ts_node_is_null(params) ? 0 : node_named_count(params);
  f->params = arena_alloc(m->a, sizeof(char *) * (c + 1));
  f->param_ann = arena_alloc(m->a, sizeof(type *) * (c + 1));
  f->param_default = arena_alloc(m->a, sizeof(type *) * (c + 1));
  f->param_default_node = arena_alloc(m->a, sizeof(TSNode) * (c + 1));
  f->params_ok = true;
  f->nposparams = -1;
  TSNode var_names[2]; /* *args, **kw */
  memset(var_names, 0, sizeof var_names);
  for (uint32_t i = 0; i < c; i++) {
    TSNode p = node_named(params, i);
    const char *t = ts_node_type(p);
    TSNode name = {0}, ann = {0};
    TSNode var = var_param_name(p);
    if (!ts_node_is_null(var)) {
      bool star = node_is(node_is(p, "typed_parameter") ? node_named(p, 0) : p, "list_splat_pattern");
      var_names[star ? 0 : 1] = var;
      if (star && f->nposparams < 0) f->nposparams = f->nparams; /* the ones after are keyword-only */
      continue;
    }
    if (!strcmp(t, "identifier")) name = p;
    else if (!strcmp(t, "typed_parameter")) {
      name = node_named(p, 0);
      ann = child_by_field(p, "type");
      if (!node_is(name, "identifier")) { f->params_ok = false; continue; }
    } else if (!strcmp(t, "default_parameter")) {
      name = child_by_field(p, "name");
      if (!node_is(name, "identifier")) { f->params_ok = false; continue; }
    } else if (!strcmp(t, "typed_default_parameter")) {
      name = child_by_field(p, "name");
      ann = child_by_field(p, "type");
    } else if (!strcmp(t, "positional_separator")) { /* `/`: the ones before are positional-only */
      f->nposonly = f->nparams;
      continue;
    } else if (!strcmp(t, "keyword_separator")) { /* `*`: the ones after are keyword-only */
      f->nposparams = f->nparams;
      continue;
    } else {
      f->params_ok = false; /* a pattern CPython does not take */
      continue;
    }
    TSNode dflt = child_by_field(p, "value");
    if (!ts_node_is_null(dflt)) {
      f->param_default[f->nparams] = f->synth_first && !strcmp(node_text(m->a, &m->p, dflt), "_HAS_DEFAULT_FACTORY")
          ? &ty_obj /* a @dataclass field's default_factory: dataclasses' sentinel (dataclass_init.c) */
          : constant_type(m, dflt);
      f->param_default_node[f->nparams] = dflt;
      f->ndefaults++;
      if (f->nposparams < 0) f->nposdefaults++;
    }
    f->params[f->nparams] = node_text(m->a, &m->p, name);
    f->param_ann[f->nparams] = ts_node_is_null(ann) ? NULL : param_annotation(m, f, f->nparams, ann);
    f->nparams++;
  }
  if (f->nposparams < 0) f->nposparams = f->nparams;
  for (int k = 0; k < 2; k++)
    if (!ts_node_is_null(var_names[k])) {
      f->params[f->nparams] = node_text(m->a, &m->p, var_names[k]);
      f->param_ann[f->nparams++] = &ty_obj;
      f->nvarparams++;
      if (k == 0) f->star_args = true;
    }
}

/* NAME = [ ... ] at module level: the list a `signatures=NAME` refers to. */
static TSNode module_level_list(module *m, const char *name) {
  TSNode none = {0};
  uint32_t c = node_named_count(m->p.root);
  for (uint32_t i = 0; i < c; i++) {
    TSNode st = node_named(m->p.root, i);
    TSNode e = node_named(st, 0);
    if (!node_is(st, "expression_statement") || !node_is(e, "assignment")) continue;
    TSNode left = child_by_field(e, "left"), right = child_by_field(e, "right");
    if (node_is(left, "identifier") && !strcmp(node_text(m->a, &m->p, left), name) &&
        (node_is(right, "list") || node_is(right, "tuple")))
      none = right; /* the last assignment wins, as at run time */
  }
  return none;
}

/* signatures=[ "...", ... ]  |  signatures=NAME (a module-level list) */
static void read_signatures(module *m, func *f, TSNode list) {
  if (node_is(list, "identifier")) {
    TSNode target = module_level_list(m, node_text(m->a, &m->p, list));
    if (!ts_node_is_null(target)) list = target;
  }
  if (!node_is(list, "list") && !node_is(list, "tuple")) {
    diag_error(&m->p.src, node_pos(list), "signatures= takes a list of strings such as "
               "[\"(float, int) -> float\"], or the name of a module-level list of them");
    return;
  }
  uint32_t c = node_named_count(list);
  for (uint32_t i = 0; i < c; i++) {
    TSNode s = node_named(list, i);
    if (!node_is(s, "string")) {
      diag_error(&m->p.src, node_pos(s), "each signature is a string such as \"(float, int) -> float\"");
      continue;
    }
    char *txt = node_text(m->a, &m->p, s);
    size_t len = strlen(txt);
    if (len < 2) continue;
    char q = txt[len - 1];
    char *open = strchr(txt, q);
    char *body = arena_strndup(m->a, open + 1, (size_t)(txt + len - 1 - open - 1));
    const type **args;
    int n;
    const char *err;
    if (!parse_signature(m, body, &args, &n, &err)) {
      diag_error(&m->p.src, node_pos(s), "bad signature: %s", err);
      continue;
    }
    if (n != f->nparams) {
      diag_error(&m->p.src, node_pos(s), "signature has %d types but %s() has %d parameters",
                 n, f->name, f->nparams);
      continue;
    }
    annotations_add_spec(m, f, args, "signatures=");
  }
}

/* decorator: @NAME or @NAME(args); only dynac's and torch's names matter. */
static void read_annotation_call(module *m, func *f, TSNode e, TSNode args, TSNode fn_arg);

static void read_decorator(module *m, func *f, TSNode dec) {
  TSNode e = node_named(dec, 0);
  TSNode args = {0};
  if (node_is(e, "call")) { args = child_by_field(e, "arguments"); e = child_by_field(e, "function"); }
  read_annotation_call(m, f, e, args, (TSNode){0});
}

/* dynac.compile(lambda ...: ..., fullgraph=...) (torch.compile, ...): the
 * lambda is compiled as a decorated def is. */
static void read_compile_call(module *m, func *f) {
  TSNode args = ts_node_parent(f->node);
  TSNode call = ts_node_parent(args);
  if (!node_is(f->node, "lambda") || !node_is(args, "argument_list") || !node_is(call, "call")) return;
  TSNode fn = child_by_field(call, "function");
  if (!ts_node_eq(node_named(args, 0), f->node) || !in_list(compile_names, node_text(m->a, &m->p, fn)))
    return;
  read_annotation_call(m, f, fn, args, f->node);
}

/* The annotation named by expression `e` (dynac.compile, torch.compile,
 * disable, allow_in_graph, ...) applied to f, with the call's arguments
 * `args` (a null node: none) but for `fn_arg`, the function itself. */
static void read_annotation_call(module *m, func *f, TSNode e, TSNode args, TSNode fn_arg) {
  char *name = node_text(m->a, &m->p, e);
  bool is_compile = in_list(compile_names, name);
  bool is_disable = in_list(disable_names, name);
  if (in_list(allow_names, name)) { f->allowed = true; f->disallowed = false; return; }
  if (in_list(disallow_names, name)) { f->disallowed = true; f->allowed = false; return; }
  if (in_list(constant_names, name)) { f->constant_result = true; return; }
  if (!is_compile && !is_disable) return;
  if (is_compile) { f->decorated_compile = true; f->is_root = true; }
  if (is_disable) { f->disabled = true; f->disable_recursive = true; }
  if (ts_node_is_null(args)) return;
  uint32_t c = node_named_count(args);
  for (uint32_t i = 0; i < c; i++) {
    TSNode a = node_named(args, i);
    if (ts_node_eq(a, fn_arg)) continue;
    if (!node_is(a, "keyword_argument")) {
      diag_error(&m->p.src, node_pos(a), "@%s takes keyword arguments only here", name);
      continue;
    }
    char *kw = node_text(m->a, &m->p, child_by_field(a, "name"));
    TSNode v = child_by_field(a, "value");
    if (!in_list(is_compile ? dynac_compile_options : disable_options, kw)) {
      diag_error(&m->p.src, node_pos(a), "unknown argument '%s' to @%s; known: %s", kw, name,
                 is_compile ? "fullgraph, signatures, backend, dynamic, mode, options"
                            : "recursive, reason, wrapping");
      continue;
    }
    if (!strcmp(kw, "fullgraph")) f->fullgraph = node_is(v, "true");
    else if (!strcmp(kw, "recursive")) f->disable_recursive = !node_is(v, "false");
    else if (!strcmp(kw, "signatures")) read_signatures(m, f, v);
    else if (!strcmp(kw, "backend")) {
      char *b = node_text(m->a, &m->p, v);
      if (strcmp(b, "\"c\"") && strcmp(b, "'c'") && strcmp(b, "\"eager\"") &&
          strcmp(b, "'eager'") && strcmp(b, "\"inductor\"") && strcmp(b, "'inductor'"))
        diag_error(&m->p.src, node_pos(v), "unknown backend %s; known: \"c\", \"eager\" "
                   "(\"inductor\" is accepted as \"c\")", b);
      f->eager_backend = strstr(b, "eager") != NULL;
    }
  }
}

/* Module-level calls dynac.allow_in_graph(NAME) / dynac.disallow_in_graph(NAME),
 * in source order (the last one wins, as at run time). NAME is a def of this
 * module or any other global (an imported function). */
static void read_module_calls(module *m) {
  uint32_t c = node_named_count(m->p.root);
  for (uint32_t i = 0; i < c; i++) {
    TSNode st = node_named(m->p.root, i);
    TSNode e = node_named(st, 0);
    if (!node_is(st, "expression_statement") || !node_is(e, "call")) continue;
    char *fname = node_text(m->a, &m->p, child_by_field(e, "function"));
    bool allow = in_list(allow_names, fname), disallow = in_list(disallow_names, fname);
    if (!allow && !disallow) continue;
    TSNode args = child_by_field(e, "arguments");
    TSNode a = node_named(args, 0);
    if (node_named_count(args) != 1 || !node_is(a, "identifier")) {
      diag_error(&m->p.src, node_pos(e), "%s() takes one function, by name, here", fname);
      continue;
    }
    const char *name = node_text(m->a, &m->p, a);
    func *f = scope_find_func(m, name);
    if (f) { f->allowed = allow; f->disallowed = disallow; continue; }
    if (m->nopaque == 64) continue;
    int k;
    for (k = 0; k < m->nopaque; k++) if (!strcmp(m->opaque_names[k], name)) break;
    if (k == m->nopaque) m->opaque_names[m->nopaque++] = name;
    m->opaque_allowed[k] = allow;
  }
}

/* -> int | float | bool | None, or NULL */
static const type *return_annotation(module *m, func *f) {
  TSNode r = child_by_field(f->node, "return_type");
  if (ts_node_is_null(r)) return NULL;
  const char *t = node_text(m->a, &m->p, r);
  if (!strcmp(t, "None")) return &ty_none;
  return ty_from_name_in(m, t);
}

/* A def or lambda nested in a compile root is a root too, as Dynamo traces
 * into the functions a compiled one makes: its parameters' types are not
 * known before it runs, so what is not annotated is an object (the
 * enclosing function comes first in m->funcs, source order). */
static void nested_in_root(module *m, func *f, int index) {
  func *g = NULL;
  for (int k = 0; k < index; k++) if (ts_node_eq(m->funcs[k]->node, f->enclosing)) g = m->funcs[k];
  if (!g || !g->is_root || f->is_root) return;
  f->is_root = true;
  if (f->specs || !f->params_ok) return;
  const type **args = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
  for (int k = 0; k < f->nparams; k++) args[k] = f->param_ann[k] ? f->param_ann[k] : &ty_obj;
  annotations_add_spec(m, f, args, "annotations");
}

bool annotations_module(module *m) {
  int before = diag_error_count();
  for (int i = 0; i < m->nfuncs; i++) {
    func *f = m->funcs[i];
    scan_params(m, f);
    if ((f->method == 'm' || f->method == 'c') && f->nparams && !f->param_ann[0])
      f->param_ann[0] = &ty_obj; /* self / cls: an object (its class is not specialised) */
    f->ret_ann = return_annotation(m, f);
    read_compile_call(m, f);
    TSNode parent = ts_node_parent(f->node);
    if (node_is(parent, "decorated_definition")) {
      uint32_t c = node_named_count(parent);
      for (uint32_t k = 0; k < c; k++) {
        TSNode d = node_named(parent, k);
        if (node_is(d, "decorator")) read_decorator(m, f, d);
      }
    }
    if (f->decorated_compile && node_is(f->node, "lambda")) /* a lambda cannot be annotated: objects */
      for (int k = 0; k < f->nparams; k++) if (!f->param_ann[k]) f->param_ann[k] = &ty_obj;
    bool all_annotated = true;
    for (int k = 0; k < f->nparams; k++) if (!f->param_ann[k]) all_annotated = false;
    if (!all_annotated && m->all == 2 && !m->prof && !f->specs && f->params_ok && !f->synth_first) {
      /* --all-objects: what is not typed is an object (every function compiles, generically) */
      for (int k = 0; k < f->nparams; k++) if (!f->param_ann[k]) f->param_ann[k] = &ty_obj;
      all_annotated = true;
    }
    if (all_annotated && !f->synth_first) { /* a synthesised def: only its callers' calls type it */
      const type **args = arena_alloc(m->a, sizeof(type *) * (size_t)(f->nparams + 1));
      for (int k = 0; k < f->nparams; k++) args[k] = f->param_ann[k];
      annotations_add_spec(m, f, args, "annotations");
    }
    /* A recorded function is a root (dispatched from interpreted callers),
     * also when its recorded types are those of its annotations. */
    bool profiled = m->prof && profile_specs(m, f);
    if ((m->all || profiled) && !f->synth_first) f->is_root = true; /* a synthesised one: a callee only */
    if (f->disabled) { f->is_root = false; f->not_compiled = "disabled by @disable"; }
    for (int k = 0; k < m->nsuppressed; k++)
      if (!strcmp(m->suppressed[k], f->qualname)) {
        f->disabled = f->disable_recursive = true;
        f->is_root = false;
        f->not_compiled = "suppressed: the generator failed on it (--suppress-errors)";
      }
    if (!f->params_ok && !f->not_compiled)
      f->not_compiled = "has a parameter that is not a name (not in the kernel language)";
    if (f->nested && !f->disabled) nested_in_root(m, f, i);
  }
  read_module_calls(m);
  return diag_error_count() == before;
}
