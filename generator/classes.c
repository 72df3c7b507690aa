/* classes.c: the module's class statements, as kernels specialise on their
 * instances. An argument recorded as "__main__.Vec" (or "mod.Vec") of a
 * class statement `class Vec:` of the module is typed "an instance of Vec":
 * its guard checks the exact type and that the class still is the one built
 * from this source (its version tag, PEP 509-style: CPython's
 * tp_version_tag, as the specialising interpreter's LOAD_ATTR and
 * LOAD_METHOD caches check it). Then
 *   - its attributes read as the types `dynac record` saw in instances
 *     (a float attribute is a C double, checked at each read), and
 *   - its methods, found through the class and its module bases at build
 *     time, are called kernel to kernel (no bound method, no argument tuple).
 * Only classes whose attribute and method lookup is the plain one qualify:
 * no metaclass or class keywords, no decorator, bases that are `object` or
 * one class of the module; the runtime checks the rest when it validates the
 * class (descriptors.h: DYNAC_SLOT_CLASS).
 */
#include "gen.h"

#include <string.h>

/* The class_definition node of module-level statement `st`, or a null node;
 * *decorated: it has decorators. */
static TSNode class_node(TSNode st, bool *decorated) {
  *decorated = node_is(st, "decorated_definition");
  TSNode def = *decorated ? child_by_field(st, "definition") : st;
  return node_is(def, "class_definition") ? def : (TSNode){0};
}

/* Is every decorator of class statement `st` dataclasses.dataclass (bare,
 * dotted or called with keywords)? It adds methods (__init__, __eq__, ...)
 * that have no source here: they run as CPython's (its __init__ as a
 * kernel synthesised from the fields, classes_dataclass_inits), the rest
 * is specialised as usual. slots=True makes another class, with a
 * __slots__ member per field and the same functions (their __class__
 * cells fixed): what the name is bound to is that class, which the class
 * guard validates as it validates any (its qualname, its methods' code).
 * 0: no; 1: yes, with the __init__ dataclass generates by default (no
 * init= other than its default; frozen=True sets *frozen: that __init__
 * stores through object.__setattr__; kw_only=True sets *kw_only: the
 * class's own fields are keyword-only parameters); 2: yes, another. */
static char dataclass_decorators(module *m, TSNode st, bool *frozen, bool *slots, bool *kw_only) {
  char kind = 1;
  for (uint32_t i = 0; i < node_named_count(st); i++) {
    TSNode d = node_named(st, i);
    if (!node_is(d, "decorator")) continue;
    TSNode x = node_named(d, 0), args = {0};
    if (node_is(x, "call")) {
      args = child_by_field(x, "arguments");
      x = child_by_field(x, "function");
    }
    const char *name = node_text(m->a, &m->p, x);
    if (strcmp(name, "dataclass") && strcmp(name, "dataclasses.dataclass")) return 0;
    for (uint32_t j = 0; !ts_node_is_null(args) && j < node_named_count(args); j++) {
      TSNode a = node_named(args, j);
      if (!node_is(a, "keyword_argument")) return 0;
      const char *kw = node_text(m->a, &m->p, child_by_field(a, "name"));
      const char *v = node_text(m->a, &m->p, child_by_field(a, "value"));
      if (!strcmp(kw, "frozen") && (!strcmp(v, "True") || !strcmp(v, "False"))) {
        *frozen = !strcmp(v, "True");
        continue;
      }
      if (!strcmp(kw, "slots")) *slots = !strcmp(v, "True"); /* (any other value: not known here) */
      if (!strcmp(kw, "kw_only") && (!strcmp(v, "True") || !strcmp(v, "False"))) {
        *kw_only = !strcmp(v, "True"); /* its fields keyword-only: dataclass_init.c synthesises that */
        continue;
      }
      bool default_init = strcmp(kw, "init") ? strcmp(kw, "frozen") && strcmp(kw, "kw_only") ? true
                                                                      : !strcmp(v, "False")
                                             : !strcmp(v, "True");
      if (!default_init) kind = 2;
    }
  }
  return kind;
}

/* class NAME(BASES): why instances are not specialised on, or NULL; sets
 * k->base. */
static const char *check_bases(module *m, klass *k, TSNode def) {
  TSNode sup = child_by_field(def, "superclasses");
  if (ts_node_is_null(sup)) return NULL;
  uint32_t n = node_named_count(sup);
  if (n > 1) return "several base classes or class keywords";
  if (n == 0) return NULL;
  TSNode b = node_named(sup, 0);
  const char *bn = node_text(m->a, &m->p, b);
  if ((node_is(b, "identifier") || node_is(b, "attribute")) &&
      !strcmp(scope_canonical_names(m, bn), "typing.NamedTuple")) {
    k->named_tuple = k->defines_new = true; /* namedtuple's own __new__ makes them */
    return NULL;
  }
  if (!node_is(b, "identifier")) return "a base class that is not a plain name";
  if (!strcmp(bn, "object")) return NULL;
  for (int i = 0; i < m->nclasses; i++)
    if (!strcmp(m->classes[i]->name, bn)) {
      k->base = m->classes[i];
      return k->base->why_not ? arena_printf(m->a, "its base %s: %s", bn, k->base->why_not) : NULL;
    }
  return arena_printf(m->a, "base class %s is not a class of this module", bn);
}

/* What the class body defines that changes attribute lookup. */
static const char *check_body(module *m, klass *k, TSNode def) {
  TSNode body = child_by_field(def, "body");
  uint32_t n = node_named_count(body);
  for (uint32_t i = 0; i < n; i++) {
    TSNode st = node_named(body, i);
    if (node_is(st, "decorated_definition")) st = child_by_field(st, "definition");
    if (node_is(st, "function_definition")) {
      const char *fn = node_text(m->a, &m->p, child_by_field(st, "name"));
      if (!strcmp(fn, "__getattribute__")) return "it defines __getattribute__";
      if (!strcmp(fn, "__getattr__")) /* CPython's slot_tp_getattr_hook then: no generic lookup to guard */
        return "it defines __getattr__";
      if (!strcmp(fn, "__new__")) k->defines_new = true;
    } else if (node_is(st, "expression_statement") && node_is(node_named(st, 0), "assignment")) {
      TSNode left = child_by_field(node_named(st, 0), "left");
      if (node_is(left, "identifier") && !strcmp(node_text(m->a, &m->p, left), "__slots__")) k->slots = true;
    }
  }
  return NULL;
}

/* The class_definition node of class k. */
TSNode classes_def(const module *m, const klass *k) {
  return class_node(node_named(m->p.root, k->stmt_index), &(bool){false});
}

/* The instance attributes class k declares in its body, `x: float` or
 * `x: float = 0.0` (a dataclass's fields), typed as the annotation says
 * when dynac reads it (a ClassVar is the class's own: not one). */
static void declared_attributes(module *m, klass *k) {
  TSNode def = classes_def(m, k);
  TSNode body = child_by_field(def, "body");
  uint32_t n = node_named_count(body);
  k->ann_names = arena_alloc(m->a, sizeof(char *) * (size_t)(n + 1));
  k->ann_types = arena_alloc(m->a, sizeof(type *) * (size_t)(n + 1));
  for (uint32_t i = 0; i < n; i++) {
    TSNode st = node_named(body, i), a = node_named(st, 0);
    if (!node_is(st, "expression_statement") || !node_is(a, "assignment")) continue;
    TSNode left = child_by_field(a, "left"), ann = child_by_field(a, "type");
    if (ts_node_is_null(ann) || !node_is(left, "identifier")) continue;
    const type *t = ty_from_name_in(m, node_text(m->a, &m->p, ann));
    if (!t) continue;
    k->ann_names[k->nanns] = node_text(m->a, &m->p, left);
    k->ann_types[k->nanns++] = t;
  }
}

void classes_scope(module *m) {
  uint32_t c = node_named_count(m->p.root);
  for (uint32_t i = 0; i < c; i++) {
    TSNode st = node_named(m->p.root, i);
    bool decorated;
    TSNode def = class_node(st, &decorated);
    if (ts_node_is_null(def)) continue;
    klass *k = arena_alloc(m->a, sizeof *k);
    k->name = node_text(m->a, &m->p, child_by_field(def, "name"));
    k->pos = node_pos(def);
    k->firstlineno = node_pos(st).line;
    k->stmt_index = i;
    k->inst = (type){.kind = TY_OBJ, .code = arena_printf(m->a, "V%zu%s", strlen(k->name), k->name),
                     .cls = k};
    k->inst_or_none = (type){.kind = TY_OBJ, .code = arena_printf(m->a, "N%zu%s", strlen(k->name), k->name),
                             .or_none = k};
    k->rec = (type){.kind = TY_OBJ, .code = arena_printf(m->a, "R%zu%s", strlen(k->name), k->name), .cls = k,
                    .rec = true};
    k->recordable = -1;
    k->dataclass = decorated ? dataclass_decorators(m, st, &k->frozen, &k->dc_slots, &k->dc_kw_only) : 0;
    k->why_not = decorated && !k->dataclass ? "a class decorator other than @dataclass"
                 : check_bases(m, k, def);
    if (!k->why_not) k->why_not = check_body(m, k, def);
    for (int j = 0; j < m->nclasses; j++)
      if (!strcmp(m->classes[j]->name, k->name))
        k->why_not = m->classes[j]->why_not = "two class statements of that name";
    klass **nk = arena_alloc(m->a, sizeof(klass *) * (size_t)(m->nclasses + 1));
    if (m->nclasses) memcpy(nk, m->classes, sizeof(klass *) * (size_t)m->nclasses);
    nk[m->nclasses++] = k;
    m->classes = nk;
  }
  for (int i = 0; i < m->nclasses; i++)
    for (int j = 0; j < m->nfuncs; j++)
      if (!m->funcs[j]->method && !m->funcs[j]->nested && !strcmp(m->funcs[j]->name, m->classes[i]->name))
        m->classes[i]->why_not = "a def of the same name";
  for (int i = 0; i < m->nclasses; i++) /* after every class is known, as the profile's */
    if (!m->classes[i]->why_not) declared_attributes(m, m->classes[i]);
  /* the recorded attributes (after every class is known: an attribute may
     hold another class's instance) */
  const profile *p = m->prof;
  for (int i = 0; p && i < p->nclasses; i++) {
    const profile_class *pc = &p->classes[i];
    klass *k = strcmp(pc->file, m->realpath) ? NULL : classes_find(m, pc->name);
    if (!k || k->why_not) continue;
    k->attr_names = arena_alloc(m->a, sizeof(char *) * (size_t)(pc->nattrs + 1));
    k->attr_types = arena_alloc(m->a, sizeof(type *) * (size_t)(pc->nattrs + 1));
    for (int a = 0; a < pc->nattrs; a++) {
      const type *t = ty_from_name_in(m, pc->attr_types[a]);
      k->attr_names[k->nattrs] = pc->attr_names[a];
      k->attr_types[k->nattrs++] = t ? t : &ty_obj;
    }
  }
}

klass *classes_find(const module *m, const char *name) {
  const char *dot = strrchr(name, '.');
  const char *qual = dot ? dot + 1 : name;
  if (dot) { /* __main__.Vec, mod.Vec, pkg.mod.Vec: the module's own name */
    size_t pre = (size_t)(dot - name), ml = strlen(m->modname);
    bool main = pre == 8 && !strncmp(name, "__main__", 8);
    bool own = pre >= ml && !strncmp(dot - ml, m->modname, ml) && (pre == ml || dot[-(long)ml - 1] == '.');
    if (!main && !own) return NULL;
  }
  for (int i = 0; i < m->nclasses; i++)
    if (!strcmp(m->classes[i]->name, qual)) return m->classes[i];
  return NULL;
}

/* The decorators of def f: 0 when it has none; 1 with *only set to the
 * single one's text ("property", "size.setter"); 2 otherwise. */
static int decorators_of(const module *m, const func *f, const char **only) {
  TSNode up = ts_node_parent(f->node);
  if (!node_is(up, "decorated_definition")) return 0;
  int n = 0;
  for (uint32_t i = 0; i < node_named_count(up); i++) {
    TSNode d = node_named(up, i);
    if (!node_is(d, "decorator")) continue;
    n++;
    TSNode name = node_named(d, 0);
    *only = node_is(name, "identifier") || node_is(name, "attribute") ? node_text(m->a, &m->p, name) : "";
  }
  return n == 1 ? 1 : 2;
}

/* Is def f (of a class body) `@NAME.setter def NAME(self, v)`? */
static bool is_setter(const module *m, const func *f, const char *name) {
  const char *deco = "";
  return decorators_of(m, f, &deco) == 1 && !strncmp(deco, name, strlen(name)) &&
         !strcmp(deco + strlen(name), ".setter") && f->method == 'm' && f->params_ok && f->nparams == 2 &&
         f->nposparams == 2 && !f->nvarparams;
}

/* The defs of `name` in class k's body: the last one (it wins) and, when
 * it is a property's setter, the @property def before it (*getter). */
static func *last_def(const module *m, const klass *k, const char *name, func **getter) {
  const char *q = arena_printf(m->a, "%s.%s", k->name, name);
  func *found = NULL;
  *getter = NULL;
  for (int i = 0; i < m->nfuncs; i++)
    if (!strcmp(m->funcs[i]->qualname, q)) {
      const char *deco = "";
      if (found && decorators_of(m, found, &deco) == 1 && !strcmp(deco, "property") && is_setter(m, m->funcs[i], name))
        *getter = found;
      else if (found)
        *getter = NULL;
      found = m->funcs[i];
    }
  if (found && !is_setter(m, found, name)) *getter = NULL;
  return found;
}

func *classes_setter(const module *m, const klass *k, const char *name) {
  for (; k; k = k->base) {
    func *getter, *found = last_def(m, k, name, &getter);
    if (found) return getter ? found : NULL;
  }
  return NULL;
}

func *classes_member(const module *m, const klass *k, const char *name, char *kind) {
  *kind = 0;
  for (; k; k = k->base) {
    func *getter, *found = last_def(m, k, name, &getter);
    if (!found) continue;
    if (getter) found = getter; /* a property with a setter: its getter */
    const char *deco = "";
    int nd = decorators_of(m, found, &deco);
    if (!found->params_ok || (found->nvarparams && !packs_star_args(found, found->nparams - 1)))
      return NULL; /* **kwargs, *args with keyword-only parameters */
    if (nd == 0 && found->method == 'm' && found->nparams >= 1) *kind = 'f';
    else if (nd == 1 && found->method == 's' && !strcmp(deco, "staticmethod")) *kind = 's';
    else if (nd == 1 && found->method == 'c' && !strcmp(deco, "classmethod") && found->nparams >= 1) *kind = 'c';
    else if (nd == 1 && found->method == 'm' && !strcmp(deco, "property") && found->nparams == 1) *kind = 'p';
    return *kind ? found : NULL;
  }
  return NULL;
}

func *classes_method(const module *m, const klass *k, const char *name) {
  char kind;
  func *f = classes_member(m, k, name, &kind);
  return kind == 'f' && !f->nvarparams ? f : NULL; /* *args: only obj.m(...) packs them (packs_star_args) */
}

klass *classes_up(klass *k, int up) {
  while (k && up-- > 0) k = k->base;
  return k;
}

int classes_super_up(const module *m, const func *f, const klass *d) {
  const char *dot = strchr(f->qualname, '.');
  if (!dot || strchr(dot + 1, '.') || f->method != 'm') return -1; /* a method of a module-level class */
  const klass *cls = classes_find(m, arena_strndup(m->a, f->qualname, (size_t)(dot - f->qualname)));
  int up = 1;
  for (const klass *k = d; k; k = k->base, up++)
    if (k == cls) return k->base ? up : -1;
  return -1;
}

const type *classes_attr_type(const klass *k, const char *name) {
  for (int i = 0; i < k->nattrs; i++)
    if (!strcmp(k->attr_names[i], name)) return k->attr_types[i];
  for (; k; k = k->base) /* declared: `x: float` in the class body or a base's */
    for (int i = 0; i < k->nanns; i++)
      if (!strcmp(k->ann_names[i], name)) return k->ann_types[i];
  return NULL;
}

const type *classes_attr_type_any(const module *m, const char *name) {
  const type *t = NULL;
  for (int i = 0; i < m->nclasses; i++) {
    const klass *k = m->classes[i];
    const type *at = k->why_not ? NULL : classes_attr_type(k, name);
    if (!at) continue;
    if (t && at != t) return NULL; /* two classes disagree: an object */
    t = at;
  }
  return t && (t->kind == TY_FLOAT || t->kind == TY_INT || t->kind == TY_BOOL) ? t : NULL;
}

/* `self.NAME = value` (a single target) in a method whose first parameter is self? NAME, or NULL. */
static const char *self_store(const stmt *s) {
  if (s->kind != ST_ASSIGN || s->u.assign.ntargets != 1) return NULL;
  const target *t = s->u.assign.targets[0];
  if (t->is_tuple || !t->sub || t->sub->kind != EX_ATTR) return NULL;
  const expr *o = t->sub->u.sub.obj;
  return o->kind == EX_LOCAL && o->u.local == 0 ? t->sub->u.sub.attr : NULL;
}

/* Does any statement of block b (nested blocks too) store NAME into self? */
static bool block_stores_self(const stmt *b, const char *name) {
  for (const stmt *s = b; s; s = s->next) {
    const char *n = self_store(s);
    if (n && !strcmp(n, name)) return true;
    const stmt *kids[4] = {NULL};
    switch (s->kind) {
    case ST_IF: kids[0] = s->u.if_.then, kids[1] = s->u.if_.orelse; break;
    case ST_WHILE: kids[0] = s->u.while_.body, kids[1] = s->u.while_.orelse; break;
    case ST_FOR_RANGE: case ST_FOR_ITER: kids[0] = s->u.for_.body, kids[1] = s->u.for_.orelse; break;
    default: if (s->kind != ST_ASSIGN && s->kind != ST_EXPR && s->kind != ST_RETURN && s->kind != ST_PASS &&
                 s->kind != ST_AUGASSIGN)
               return true; /* try, with, ...: not looked into */
    }
    for (int i = 0; i < 2; i++) if (kids[i] && block_stores_self(kids[i], name)) return true;
  }
  return false;
}

bool classes_recordable(module *m, klass *k) {
  if (k->recordable >= 0) return k->recordable;
  k->recordable = 0;
  if (k->why_not || !k->slot || k->slots || k->defines_new || k->named_tuple || k->base) return false;
  static const char *const hooks[] = {"__del__", "__setattr__", "__delattr__", "__getattr__", "__getattribute__",
                                      "__init_subclass__", "__set_name__"};
  for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++)
    if (classes_defines(m, k, hooks[i])) return false;
  func *init = classes_method(m, k, "__init__");
  if (!init || !init->lowered || init->breaks || init->partial || init->nfreevars || init->nvarparams ||
      init->nparams < 1 || init->method != 'm')
    return false;
  enum { MAX_FIELDS = 16 };
  const char **names = arena_alloc(m->a, sizeof(char *) * MAX_FIELDS);
  const type **types = arena_alloc(m->a, sizeof(type *) * MAX_FIELDS);
  int n = 0;
  for (const stmt *s = init->body; s; s = s->next) { /* first stores, top level, in order */
    const char *f = self_store(s);
    if (!f) continue;
    bool seen = false;
    for (int i = 0; i < n; i++) if (!strcmp(names[i], f)) seen = true;
    if (seen) continue;
    const type *t = classes_attr_type(k, f); /* as recorded, or declared in the class body */
    if (!t || (t->kind != TY_FLOAT && t->kind != TY_INT && t->kind != TY_BOOL) || n == MAX_FIELDS) return false;
    names[n] = f;
    types[n++] = t;
  }
  if (!n) return false;
  for (int i = 0; i < n; i++) { /* set elsewhere in __init__ (a branch, a loop): not its first store's place */
    const stmt *first = NULL;
    for (const stmt *s = init->body; s && !first; s = s->next) {
      const char *f = self_store(s);
      if (f && !strcmp(f, names[i])) first = s;
    }
    for (const stmt *s = init->body; s; s = s->next) {
      if (s == first) break; /* stores after the first keep the order */
      const stmt *kids[2] = {NULL};
      if (s->kind == ST_IF) kids[0] = s->u.if_.then, kids[1] = s->u.if_.orelse;
      else if (s->kind == ST_WHILE) kids[0] = s->u.while_.body, kids[1] = s->u.while_.orelse;
      else if (s->kind == ST_FOR_RANGE || s->kind == ST_FOR_ITER) kids[0] = s->u.for_.body, kids[1] = s->u.for_.orelse;
      else if (s->kind != ST_ASSIGN && s->kind != ST_EXPR && s->kind != ST_AUGASSIGN && s->kind != ST_PASS)
        return false; /* a try or with before it: not looked into */
      for (int j = 0; j < 2; j++) if (kids[j] && block_stores_self(kids[j], names[i])) return false;
    }
  }
  k->nfields = n;
  k->field_names = names;
  k->field_types = types;
  k->recordable = 1;
  return true;
}

int classes_field(const klass *k, const char *name) {
  for (int i = 0; i < k->nfields; i++) if (!strcmp(k->field_names[i], name)) return i;
  return -1;
}

void classes_make_slots(module *m) {
  for (int i = 0; i < m->nclasses; i++) {
    klass *k = m->classes[i];
    if (!k->named || k->why_not || k->slot) continue;
    k->slot = ir_slot(m, SLOT_CLASS, k->name, NULL, NULL, NULL, -1);
    k->slot->cls = k;
  }
}

/* Adds what kernels rely on to k's guard (once). */
static void use_member(module *m, klass *k, const char *name, func *f, char kind, int up) {
  if (f && f->synth_first) return; /* a @dataclass's generated __init__: each construction checks it
                                       (emit/calls.c synthesised_init_ok), not the class guard */
  for (int i = 0; i < k->nmembers; i++)
    if (!strcmp(k->members[i].name, name) && k->members[i].f == f && k->members[i].kind == kind &&
        k->members[i].up == up)
      return;
  class_member *nm = arena_alloc(m->a, sizeof(class_member) * (size_t)(k->nmembers + 1));
  if (k->nmembers) memcpy(nm, k->members, sizeof(class_member) * (size_t)k->nmembers);
  nm[k->nmembers++] = (class_member){name, f, kind, up};
  k->members = nm;
}

void classes_named_receiver(module *m, const char *name) {
  klass *k = classes_find(m, name);
  if (!k || k->why_not || k->slot || strchr(name, '.')) return;
  k->named = true;
  classes_make_slots(m);
}

void classes_use_member(module *m, klass *k, func *f, char kind, int up) { use_member(m, k, f->name, f, kind, up); }

void classes_use_method(module *m, klass *k, func *f) { use_member(m, k, f->name, f, 'f', 0); }

void classes_use_absent(module *m, klass *k, const char *name) { use_member(m, k, name, NULL, '-', 0); }

bool classes_defines(const module *m, const klass *k, const char *name) {
  for (; k; k = k->base) {
    const char *q = arena_printf(m->a, "%s.%s", k->name, name);
    for (int i = 0; i < m->nfuncs; i++)
      if (!strcmp(m->funcs[i]->qualname, q)) return true;
  }
  return false;
}
