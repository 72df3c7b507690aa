/* objects.c: attributes and stores of objects through the C API: obj.name,
 * obj.name = v, obj[key] = v and their augmented forms, each the call the
 * interpreter makes for the same bytecode (LOAD_ATTR, STORE_ATTR,
 * STORE_SUBSCR, BINARY_OP in place), so results, exceptions and side
 * effects are CPython's (runtime/objects.h).
 */
#include "emit.h"

/* The interned str of `name`: an entry of the module's table of names,
 * made when the module is imported (as a code object's co_names is made
 * with it; module.c writes the table), so a site reads it with no test.
 * A borrowed C expression. */
const char *interned_name(em *E, const char *name) {
  return arena_printf(E->m->a, "dynac__names[%d]", interned_index(E, name)); /* the site's comment names it */
}

/* Its index in the table (dynac__names), added if new. */
int interned_index(em *E, const char *name) {
  module *m = E->m;
  int k = 0;
  while (k < m->nnames && strcmp(m->names[k], name)) k++;
  if (k == m->nnames) {
    if (m->nnames == m->capnames) {
      m->capnames = m->capnames ? 2 * m->capnames : 32;
      const char **grown = arena_alloc(m->a, sizeof *grown * (size_t)m->capnames);
      if (m->nnames) memcpy(grown, m->names, sizeof *grown * (size_t)m->nnames);
      m->names = grown;
    }
    m->names[m->nnames++] = arena_strdup(m->a, name);
  }
  return k;
}

/* Where the one object of float literal f, returned by some kernel or
 * passed to one that keeps it, is kept for the module (a `PyObject **` C
 * expression; made at its first use by dynac_box_float_literal or
 * dynac_float_literal_object, module.c declares the table): every site that
 * boxes the literal shares it, as CPython's code object holds one constant. */
const char *float_literal_place(module *m, double f) {
  int k = 0;
  while (k < m->nfloat_literals && memcmp(&m->float_literals[k], &f, sizeof f)) k++;
  if (k == m->nfloat_literals) {
    if (m->nfloat_literals == m->capfloat_literals) {
      m->capfloat_literals = m->capfloat_literals ? 2 * m->capfloat_literals : 8;
      double *grown = arena_alloc(m->a, sizeof *grown * (size_t)m->capfloat_literals);
      if (m->nfloat_literals) memcpy(grown, m->float_literals, sizeof *grown * (size_t)m->nfloat_literals);
      m->float_literals = grown;
    }
    m->float_literals[m->nfloat_literals++] = f;
  }
  return arena_printf(m->a, "&dynac__floats[%d]", k);
}

/* A str or bytes literal: its value made once per site from the source
 * text, as the compiler makes a code object's constant (a borrowed
 * reference the site keeps for the process). */
const char *emit_constant(em *E, const char *literal) {
  const char *var = arena_printf(E->m->a, "const%d", ++E->tmp);
  line(E, "static PyObject *%s; /* made once */", var);
  line(E, "if (!%s && !(%s = dynac_literal(%s))) DYNAC_LEAVE(dynac_traceback_here(%s));", var, var,
       c_string(E->m, literal), where(E));
  return var;
}

/* A global or builtin read as LOAD_GLOBAL reads it: the module's dict, then
 * its builtins (a new reference; NameError when neither binds it). Borrowed
 * (a PyObject * the dict holds): for a value only compared before any
 * Python code can run (np in np.sqrt(x): its ufunc cache compares it), no
 * reference count written per iteration. */
static const char *global_read(em *E, const char *name, bool borrowed, const char *cache) {
  const char *nm = interned_name(E, name);
  const char *o = borrowed ? arena_printf(E->m->a, "g%d", ++E->tmp) : tmpvar(E, &ty_obj);
  if (!cache) {
    cache = arena_printf(E->m->a, "gc%d", E->tmp);
    line(E, "static dynac_global_cache %s; /* LOAD_GLOBAL's cache */", cache);
  }
  const klass *k = borrowed || strchr(name, '.') ? NULL : classes_find(E->m, name);
  if (k && k->slot && !k->why_not) /* a class of the module: its slot says where it is */
    line(E, "%s = dynac_load_global_slot(&dynac__G, &dynac__slots[%d], %s, &%s); /* global %s */", o,
         k->slot->index, nm, cache, name);
  else
    line(E, "%s%s = dynac_load_global_%s(&dynac__G, %s, &%s); /* global %s */", borrowed ? "PyObject *" : "",
         o, borrowed ? "borrowed" : "cached", nm, cache, name);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}
const char *emit_global_name(em *E, const char *name) { return global_read(E, name, false, NULL); }
/* a new reference; cache: a static dynac_global_cache's name (NULL: one of its own) */
const char *emit_global_cached(em *E, const char *name, const char *cache) {
  return global_read(E, name, false, cache);
}
/* borrowed; cache: a static dynac_global_cache's name (NULL: one of its own) */
const char *emit_global_borrowed(em *E, const char *name, const char *cache) {
  return global_read(E, name, true, cache);
}

/* f"...": each replacement field formatted as it comes, as FORMAT_VALUE
 * does (its value made, converted, then format(value, spec)), the parts
 * joined at the end as BUILD_STRING joins them (a new reference). */
const char *emit_fstring(em *E, expr *e) {
  int n = e->u.tuple.n;
  const char **piece = arena_alloc(E->m->a, sizeof(char *) * (size_t)(n ? n : 1));
  int depth = E->nvstack;
  for (int i = 0; i < n; i++) {
    expr *x = e->u.tuple.elts[i];
    char conv = e->u.tuple.fconv[i];
    if (conv == 'L') { piece[i] = emit_constant(E, x->u.literal); continue; }
    const char *raw = emit_expr(E, x);
    /* a continuation formats a pending number again (its format runs no Python code); it takes an object's
       formatted str for the whole field */
    bool object = TY(x)->kind == TY_OBJ;
    if (is_scalar(TY(x))) push_pending(E, x, raw = keep(E, raw, TY(x)));
    else if (!object) push_barrier(E);
    const char *v = as_obj(E, raw, TY(x));
    const char *spec = e->u.tuple.fspec[i] ? emit_constant(E, arena_printf(E->m->a, strchr(e->u.tuple.fspec[i],
                       '"') ? "'%s'" : "\"%s\"", e->u.tuple.fspec[i])) : "NULL";
    piece[i] = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_format_value(%s, %s, %s, &dynac__effects); /* {%s%s%s%s} */", piece[i], v,
         conv ? arena_printf(E->m->a, "'%c'", conv) : "0", spec, conv ? "!" : "",
         conv ? arena_printf(E->m->a, "%c", conv) : "", e->u.tuple.fspec[i] ? ":" : "",
         e->u.tuple.fspec[i] ? e->u.tuple.fspec[i] : "");
    note_effect(E);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", piece[i], where(E));
    if (object) push_formatted(E, x, piece[i]);
  }
  E->nvstack = depth;
  strbuf all = {0};
  for (int i = 0; i < n; i++) sb_printf(&all, "%s%s", i ? ", " : "", piece[i]);
  const char *res = tmpvar(E, &ty_obj);
  line(E, "{");
  line(E, "  PyObject *parts[%d] = {%s};", n ? n : 1, n ? all.data : "NULL");
  line(E, "  %s = dynac_build_string(parts, %d);", res, n);
  line(E, "}");
  sb_free(&all);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", res, where(E));
  return res;
}

/* Is element i of display e a starred one (*x, **m)? */
static bool starred_at(const expr *e, int i) { return e->u.tuple.splat && e->u.tuple.splat[i]; }

/* Is x's hash computed without Python code (a number, a str or bytes
 * literal)? A dict or set display that a continuation makes again hashes
 * it again. */
static bool hashed_quietly(em *E, const expr *x) {
  return is_scalar(TY(x)) || x->kind == EX_CONST || x->kind == EX_NONE;
}

/* Display element or key x, boxed as v, pending for a continuation that
 * hashes it again: a number or a str literal as it is, an object when it
 * turns out a number or a str (push_quiet), anything else a barrier. */
static void push_hashed(em *E, const expr *x, const char *v) {
  if (hashed_quietly(E, x)) push_typed(E, x, v, &ty_obj);
  else if (TY(x)->kind == TY_OBJ) push_quiet(E, x, v);
  else push_barrier(E);
}

/* CPython 3.11 builds a display whose items fit its stack guideline
 * (compile.c: STACK_USE_GUIDELINE, 30 values) from the evaluated items at
 * once (BUILD_SET n, BUILD_MAP n): every item is evaluated before the
 * first __hash__ runs. A bigger one adds each item as it is evaluated
 * (SET_ADD, MAP_ADD). */
enum { DISPLAY_STACK_GUIDELINE = 30 };
/* compiler_dict cuts a run of pairs into dicts of 17 pairs (its count
 * passing the guideline), each merged into the first by DICT_UPDATE, and
 * builds the rest the same way. */
enum { DICT_CHUNK_PAIRS = DISPLAY_STACK_GUIDELINE / 2 + 2 };

/* Items from..to-1 of display e evaluated, each boxed, kept and pending
 * (a continuation makes the display from them: nothing hashed yet). */
static const char **evaluate_items(em *E, expr *e, int from, int to) {
  const char **v = arena_alloc(E->m->a, sizeof(char *) * (size_t)(to - from + 1));
  for (int i = from; i < to; i++) {
    expr *x = e->u.tuple.elts[i];
    v[i - from] = keep(E, as_obj(E, emit_expr(E, x), TY(x)), &ty_obj);
    push_typed(E, x, v[i - from], &ty_obj);
  }
  return v;
}

/* A display's starred item *x or **m, evaluated and pending: a
 * continuation iterates it again, which runs no Python code when it is a
 * typed list (of numbers: their hashes run none either); else a barrier. */
static const char *evaluate_starred(em *E, expr *x) {
  const char *v = as_obj(E, emit_expr(E, x), TY(x));
  if (TY(x)->kind == TY_LIST && is_scalar(TY(x)->elts[0])) push_typed(E, x, v = keep(E, v, &ty_obj), &ty_obj);
  else push_barrier(E);
  return v;
}

/* Pairs from..to-1 (element indices, key then value) of dict display e
 * into dict d: all evaluated, then inserted (BUILD_MAP n); a run of more
 * pairs than the guideline takes, each inserted as it is evaluated
 * (MAP_ADD). */
static void fill_dict_run(em *E, expr *e, int from, int to, const char *d) {
  if (to - from <= DISPLAY_STACK_GUIDELINE) {
    const char **v = evaluate_items(E, e, from, to);
    for (int i = 0; i < to - from; i += 2) {
      line(E, "if (dynac_display_setitem(%s, %s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));",
           d, v[i], v[i + 1], where(E));
      note_effect(E);
    }
    return;
  }
  for (int i = from; i < to; i += 2) {
    expr *x = e->u.tuple.elts[i], *y = e->u.tuple.elts[i + 1];
    const char *k = keep(E, as_obj(E, emit_expr(E, x), TY(x)), &ty_obj);
    push_hashed(E, x, k); /* a continuation makes the dict again */
    const char *w = keep(E, as_obj(E, emit_expr(E, y), TY(y)), &ty_obj);
    push_typed(E, y, w, &ty_obj);
    line(E, "if (dynac_display_setitem(%s, %s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));",
         d, k, w, where(E));
    note_effect(E);
  }
}

/* {k: v, **m, ...} as compile.c's compiler_dict makes it: each run of
 * pairs (cut every DICT_CHUNK_PAIRS) a dict of its own (fill_dict_run),
 * the first one the result, a later one merged into it (DICT_UPDATE) as
 * each **m is. */
static void fill_dict_display(em *E, expr *e, const char *res) {
  int depth = E->nvstack;
  bool have_dict = false;
  for (int i = 0; i < e->u.tuple.n;) {
    if (starred_at(e, i)) {
      const char *m = evaluate_starred(E, e->u.tuple.elts[i++]);
      line(E, "if (dynac_dict_update(%s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", res, m,
           where(E));
      note_effect(E);
      have_dict = true;
      continue;
    }
    int to = i;
    while (to < e->u.tuple.n && !starred_at(e, to) && to - i < 2 * DICT_CHUNK_PAIRS) to += 2;
    if (!have_dict) fill_dict_run(E, e, i, to, res);
    else {
      const char *sub = tmpvar(E, &ty_obj);
      line(E, "%s = PyDict_New();", sub);
      line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", sub, where(E));
      fill_dict_run(E, e, i, to, sub);
      line(E, "if (dynac_dict_update(%s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", res, sub,
           where(E));
      note_effect(E);
    }
    have_dict = true;
    i = to;
  }
  E->nvstack = depth;
}

/* [a, *b], (a, *b), {a, *b} as compile.c's starunpack_helper makes them:
 * the items before the first starred one evaluated, then added (BUILD_SET
 * n, BUILD_LIST n), unless there are more than the guideline; each later
 * one added as it is evaluated (SET_ADD, LIST_APPEND; SET_UPDATE,
 * LIST_EXTEND of a starred one). From then on a list's items so far are
 * pending as one (push_prefix). */
static void fill_item_display(em *E, expr *e, const char *res, bool set) {
  int depth = E->nvstack;
  int first = 0; /* the items added at once */
  while (first < e->u.tuple.n && !starred_at(e, first)) first++;
  if (e->u.tuple.n > DISPLAY_STACK_GUIDELINE) first = 0; /* counting the starred ones */
  const char **v = evaluate_items(E, e, 0, first);
  for (int i = 0; i < first; i++) {
    if (!set) { /* a new list: nothing runs */
      line(E, "if (PyList_Append(%s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", res, v[i], where(E));
      continue;
    }
    line(E, "if (dynac_set_add(%s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", res, v[i],
         where(E));
    note_effect(E);
  }
  for (int i = first; i < e->u.tuple.n; i++) {
    expr *x = e->u.tuple.elts[i];
    bool splat = starred_at(e, i);
    const char *w;
    /* a continuation makes the display again: an item it takes as a value must not have run Python code
       (a set element's __hash__) */
    if (splat) w = evaluate_starred(E, x);
    else if (set) push_hashed(E, x, w = keep(E, as_obj(E, emit_expr(E, x), TY(x)), &ty_obj));
    else push_typed(E, x, w = keep(E, as_obj(E, emit_expr(E, x), TY(x)), &ty_obj), &ty_obj);
    if (!splat && !set)
      line(E, "if (PyList_Append(%s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", res, w, where(E));
    else {
      const char *op = splat ? (set ? "dynac_set_update" : "dynac_list_extend") : "dynac_set_add";
      line(E, "if (%s(%s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", op, res, w, where(E));
      note_effect(E);
    }
    if (!set) { /* a list's items so far stand for those before the next (a set's order would depend on its growth) */
      E->nvstack = depth;
      push_prefix(E, x, res);
    }
  }
  E->nvstack = depth;
}

/* A dict or set display, or one with starred parts (EX_UNPACKED): a new
 * dict, set, list or tuple (a new reference; a tuple is the list made one,
 * LIST_TO_TUPLE). Only the keys' __hash__ and __eq__, the starred values'
 * __iter__ and a mapping's keys() may run Python code: the helpers mark
 * those effects, so a failure before them still deoptimises. */
const char *emit_display_object(em *E, expr *e) {
  char kind = e->kind == EX_DICT ? 'd' : e->kind == EX_SET ? 's' : e->u.tuple.display;
  const char *res = tmpvar(E, &ty_obj);
  line(E, "%s = %s;", res, kind == 'd' ? "PyDict_New()" : kind == 's' ? "PySet_New(NULL)" : "PyList_New(0)");
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", res, where(E));
  if (kind == 'd') fill_dict_display(E, e, res);
  else fill_item_display(E, e, res, kind == 's');
  if (kind != 't') return res;
  const char *t = tmpvar(E, &ty_obj);
  line(E, "%s = PyList_AsTuple(%s); /* LIST_TO_TUPLE */", t, res);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", t, where(E));
  return t;
}

/* A read, write or method site's cache of where the attribute lives
 * (runtime's dynac_attr_cache, CPython 3.11's LOAD_ATTR / STORE_ATTR /
 * LOAD_METHOD inline caches): its C name. */
const char *emit_attr_cache(em *E, const char *what) {
  const char *c = arena_printf(E->m->a, "ac%d", ++E->tmp);
  line(E, "static dynac_attr_cache %s; /* %s */", c, what);
  return c;
}

/* obj.name of an object: a new reference (an owned temporary). */
const char *emit_object_attr(em *E, const char *obj, const char *name) {
  const char *nm = interned_name(E, name);
  const char *c = emit_attr_cache(E, "where instances keep it");
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_obj_getattr_cached(%s, %s, &%s, &dynac__effects); /* .%s */", o, obj, nm, c, name);
  note_effect(E);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* obj.name of an instance of a module class whose recorded attribute type
 * t is float, bool, another class's instance or a list (classes.c): read through the
 * site's cache, checked; a value of another type deoptimises. kept (or
 * NULL): the read, an int or float one, whose value the kernel boxes again
 * (E->keeps_object): it keeps the object read too, an owned temporary that
 * box_value gives back (values.c kept_attr_box). */
static const char *typed_attr_read(em *E, const char *obj, const char *name, const type *t, const expr *kept) {
  layouts_off(E);
  const char *nm = interned_name(E, name);
  const char *c = emit_attr_cache(E, "where instances keep it");
  const char *o = tmpvar(E, t->kind == TY_LIST ? &ty_obj : t); /* a list: held (infer: list_attr_typed) */
  const char *box = kept ? tmpvar(E, &ty_obj) : NULL;
  const char *number = t->kind == TY_FLOAT ? "float" : t->kind == TY_INT ? "int" : "bool";
  const char *call = t->kind == TY_OBJ
      ? arena_printf(E->m->a, "dynac_attr_instance(%s, %s, &%s, &dynac__effects, dynac__slots[%d].obj, &%s)",
                     obj, nm, c, t->cls->slot->index, o)
      : t->kind == TY_LIST ? arena_printf(E->m->a, "dynac_attr_list(%s, %s, &%s, &dynac__effects, &%s)", obj, nm, c, o)
      : box ? arena_printf(E->m->a, "dynac_attr_%s_kept(%s, %s, &%s, &dynac__effects, &%s, &%s)", number, obj, nm, c,
                           o, box)
      : arena_printf(E->m->a, "dynac_attr_%s(%s, %s, &%s, &dynac__effects, &%s)", number, obj, nm, c, o);
  line(E, "{");
  E->indent++;
  line(E, "int st = %s; /* .%s: a %s%s */", call, name, ty_python_name(E->m->a, t), box ? ", its object kept" : "");
  end_attr_read(E);
  if (box) {
    int cap = (int)(sizeof E->kept_attrs / sizeof *E->kept_attrs);
    E->kept_attrs[E->nkept_attrs++ % cap] = (typeof(E->kept_attrs[0])){o, box, kept->id};
  }
  return o;
}
const char *emit_instance_attr(em *E, const char *obj, const char *name, const type *t) {
  return typed_attr_read(E, obj, name, t, NULL);
}
const char *emit_instance_attr_kept(em *E, const char *obj, const expr *e) {
  return typed_attr_read(E, obj, e->u.sub.attr, TY(e), e);
}

/* The end of a typed read's block (emit_instance_attr, layouts.c): its
 * status st, -1 CPython's exception, 1 a value of another type than
 * recorded (the kernel deoptimises or goes on in the interpreter). */
void end_attr_read(em *E) {
  line(E, "if (st < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  deopt_if(E, "DYNAC_FAIL_NOT_INT", "the attribute holds another type than recorded", "st");
  E->indent--;
  line(E, "}");
  note_effect(E);
}

/* slice(lo, hi, step) of obj[lo:hi:step] (BUILD_SLICE): each bound
 * evaluated and boxed in order, an omitted one None; a new reference. */
const char *emit_slice_object(em *E, expr *e) {
  expr *parts[3] = {e->u.slice.lo, e->u.slice.hi, e->u.slice.step};
  const char *b[3];
  for (int i = 0; i < 3; i++)
    b[i] = !parts[i] ? "NULL" : keep(E, as_obj(E, emit_expr(E, parts[i]), TY(parts[i])), &ty_obj);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = PySlice_New(%s, %s, %s);", o, b[0], b[1], b[2]);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* obj[lo:hi:step] through the C API (BINARY_SUBSCR of a slice object). */
const char *emit_object_slice(em *E, expr *e) {
  const char *obj = keep(E, as_obj(E, emit_expr(E, e->u.slice.obj), TY(e->u.slice.obj)), &ty_obj);
  const char *key = emit_slice_object(E, e);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_obj_getitem(%s, %s, &dynac__effects); /* a slice */", o, obj, key);
  note_effect(E);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* The stored object and, for obj[key], its key, evaluated in the
 * interpreter's order (obj, then key) and kept while the value is made. */
typedef struct object_place { const char *obj, *key; } object_place;

static object_place place_of(em *E, expr *sub) {
  if (is_name_place(sub)) return (object_place){NULL, NULL}; /* a global or a cell: no operands */
  object_place p = {keep(E, as_obj(E, emit_expr(E, sub->u.sub.obj), TY(sub->u.sub.obj)), &ty_obj), NULL};
  if (sub->kind == EX_SLICE) p.key = emit_slice_object(E, sub);
  else if (sub->kind == EX_SUBSCRIPT)
    p.key = keep(E, as_obj(E, emit_expr(E, sub->u.sub.index), TY(sub->u.sub.index)), &ty_obj);
  return p;
}

/* Does the store obj.name = v (sub; v of type vt) call a property's setter
 * kernel (infer: bind_object_store)? Not when v comes as another type than
 * the kernel takes (obj.p += k stores CPython's in-place result, an object). */
static bool setter_called(em *E, const expr *sub, const type *vt) {
  const inst *callee = E->in->types.callee[sub->id];
  const type *ot = TY(sub->u.sub.obj);
  return callee && !E->exported && ot->cls && callee->fn == classes_setter(E->m, ot->cls, sub->u.sub.attr) &&
         callee->args[1] == vt;
}

/* Whose attribute a store writes (runtime/objects.h): the kernel's own
 * first parameter's (DYNAC_STORE_SELF), or another object's; stored as
 * object.__setattr__ stores it (DYNAC_STORE_GENERIC) by the __init__ of a
 * frozen dataclass (dataclass_init.c: its every store is `self.f = f`,
 * also where self is a struct boxed for a value of another type). */
static const char *store_owner(const em *E, const char *obj) {
  const char *whose = is_own_first_param(E, obj) ? "DYNAC_STORE_SELF" : "DYNAC_STORE_OTHER";
  const klass *dc = E->in->fn->synth_of;
  return dc && dc->frozen ? arena_printf(E->m->a, "%s | DYNAC_STORE_GENERIC", whose) : whose;
}

/* A write to cell v is an effect when someone else may see it: always a
 * nonlocal's (the enclosing function's frame), and this call's own cell
 * once a closure holds it (its reference count: an inlined generator or
 * comprehension reading it takes none), so that `n = 1` before a
 * generator reading n does not keep the call from running again. */
static void cell_write_effect(em *E, int v) {
  if (is_own_cell(E, v))
    line(E, "if (Py_REFCNT(%s) > 1) dynac__effects = 1; /* a write the closures holding the cell see */",
         cell_of(E, v));
  else
    line(E, "dynac__effects = 1; /* a write every closure of the cell sees */");
}

static void store_into(em *E, expr *sub, object_place p, const char *v, const type *vt) {
  if (sub->kind == EX_ATTR && !p.key && vt->kind == TY_FLOAT && !setter_called(E, sub, vt)) {
    const char *given = param_argument_object(E, v, vt); /* `self.x = x`: the caller's float */
    bool laid = !given && layout_store_open(E, p.obj, sub, v); /* a run's store (layouts.c): the site's below */
    if (!laid) layouts_off(E); /* the old value's release may run Python code */
    const char *nm = interned_name(E, sub->u.sub.attr); /* its float reused in place */
    const char *c = emit_attr_cache(E, "where instances keep it");
    if (given)
      line(E, "if (dynac_obj_setattr_param_float_cached(%s, %s, %s, %s, &%s, &dynac__effects, %s) < 0) "
           "DYNAC_LEAVE(dynac_traceback_here(%s)); /* .%s = */", p.obj, nm, v, given, c, store_owner(E, p.obj),
           where(E), sub->u.sub.attr);
    else
      line(E, "if (dynac_obj_setattr_float_cached(%s, %s, %s, &%s, &dynac__effects, %s) < 0) "
           "DYNAC_LEAVE(dynac_traceback_here(%s)); /* .%s = */", p.obj, nm, v, c, store_owner(E, p.obj),
           where(E), sub->u.sub.attr);
    if (laid) layout_store_close(E);
    note_effect(E);
    return;
  }
  layouts_off(E); /* a store may run Python code */
  const char *b = as_obj(E, v, vt);
  if (sub->kind == EX_NAME) {
    const char *nm = interned_name(E, sub->u.global->name);
    line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* a write every reader of the module sees: its kernels check what they read again */");
    line(E, "if (dynac_store_global(&dynac__G, %s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* global %s = */",
         nm, b, where(E), sub->u.global->name);
  } else if (sub->kind == EX_FREE) {
    cell_write_effect(E, sub->u.local);
    line(E, "dynac_cell_store(%s, %s); /* %s%s = */", cell_of(E, sub->u.local), b,
         is_own_cell(E, sub->u.local) ? "" : "nonlocal ", E->in->fn->freevars[sub->u.local]);
  } else if (p.key)
    line(E, "if (dynac_obj_setitem(%s, %s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));",
         p.obj, p.key, b, where(E));
  else if (setter_called(E, sub, vt)) /* a property's setter, kernel to kernel */
    emit_setter_call(E, sub, p.obj, v, vt);
  else {
    const char *nm = interned_name(E, sub->u.sub.attr);
    const char *c = emit_attr_cache(E, "where instances keep it");
    line(E, "if (dynac_obj_setattr_cached(%s, %s, %s, &%s, &dynac__effects, %s) < 0) "
         "DYNAC_LEAVE(dynac_traceback_here(%s)); /* .%s = */", p.obj, nm, b, c, store_owner(E, p.obj),
         where(E), sub->u.sub.attr);
  }
  note_effect(E);
}

/* a, b, ... = v of an object (UNPACK_SEQUENCE, dynac_unpack; a, *b, c = v:
 * UNPACK_EX, dynac_unpack_ex, *b a new list): its items as owned
 * temporaries, then each stored into its target, left to right. */
void emit_object_unpack(em *E, target *t, const char *v) {
  const char **items = arena_alloc(E->m->a, sizeof(char *) * (size_t)t->n);
  int star = -1;
  for (int i = 0; i < t->n; i++) {
    items[i] = tmpvar(E, &ty_obj);
    if (t->elts[i]->star) star = i;
  }
  line(E, "{");
  E->indent++;
  line(E, "PyObject *u[%d];", t->n);
  if (star >= 0)
    line(E, "if (dynac_unpack_ex(%s, %d, %d, u, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); "
         "/* unpack, *%s */", v, star, t->n - star - 1, where(E), t->elts[star]->sub ? "..." : E->in->fn->locals[t->elts[star]->local]);
  else
    line(E, "if (dynac_unpack(%s, %d, u, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* unpack */",
         v, t->n, where(E));
  for (int i = 0; i < t->n; i++) line(E, "%s = u[%d];", items[i], i);
  E->indent--;
  line(E, "}");
  note_effect(E);
  for (int i = 0; i < t->n; i++) assign_target(E, t->elts[i], items[i], &ty_obj);
}

/* del obj.name / del obj[key] / del obj[lo:hi] (DELETE_ATTR, DELETE_SUBSCR). */
void emit_object_delete(em *E, expr *sub) {
  object_place p = place_of(E, sub);
  if (sub->kind == EX_NAME) {
    const char *nm = interned_name(E, sub->u.global->name);
    line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* a write every reader of the module sees: its kernels check what they read again */");
    line(E, "if (dynac_delete_global(&dynac__G, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* del global %s */",
         nm, where(E), sub->u.global->name);
  } else if (sub->kind == EX_FREE) {
    const char *name = E->in->fn->freevars[sub->u.local];
    cell_write_effect(E, sub->u.local);
    bool own = is_own_cell(E, sub->u.local);
    line(E, "if (%s(%s, %s) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* del %s%s */",
         own ? "dynac_cellvar_delete" : "dynac_cell_delete", cell_of(E, sub->u.local), c_string(E->m, name),
         where(E), own ? "" : "nonlocal ", name);
  } else if (p.key)
    line(E, "if (dynac_obj_delitem(%s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));",
         p.obj, p.key, where(E));
  else
    line(E, "if (dynac_obj_delattr(%s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s)); /* del .%s */",
         p.obj, interned_name(E, sub->u.sub.attr), where(E), sub->u.sub.attr);
  note_effect(E);
}

/* obj.name = v / obj[key] = v into an object: after the value, obj then key. */
void emit_object_store(em *E, expr *sub, const char *v, const type *vt) {
  object_place p = place_of(E, sub);
  store_into(E, sub, p, v, vt);
}

/* obj.name op= v where obj.name reads as a float or an int (an instance's
 * recorded attribute, checked) and v is an int, float or bool, with + - *
 * (and / of a float): float and int have no in-place methods, so LOAD_ATTR,
 * BINARY_OP, STORE_ATTR are the read, a C operation (an int's overflow
 * checked as every int operation's) and one boxed store. */
bool typed_number_update(em *E, stmt *s) {
  const type *at = TY(s->u.aug.sub), *vt = TY(s->u.aug.value);
  binop op = s->u.aug.op;
  return (at->kind == TY_FLOAT || at->kind == TY_INT) && TY(s->u.aug.sub->u.sub.obj)->cls &&
         (vt->kind == TY_FLOAT || vt->kind == TY_INT || vt->kind == TY_BOOL) &&
         (op == OP_ADD || op == OP_SUB || op == OP_MUL || (op == OP_TRUEDIV && at->kind == TY_FLOAT));
}

/* obj.f op= v of an instance kept as fields (records.c), f a field whose
 * type the result keeps: read, computed and stored in the struct. */
static bool rec_field_update(em *E, stmt *s) {
  expr *sub = s->u.aug.sub;
  if (sub->kind != EX_ATTR || E->exported || !TY(sub->u.sub.obj)->rec || !typed_number_update(E, s)) return false;
  const klass *k = TY(sub->u.sub.obj)->cls;
  int i = classes_field(k, sub->u.sub.attr);
  const type *at = TY(sub), *vt = TY(s->u.aug.value), *rt = binop_result(s->u.aug.op, at, vt);
  if (i < 0 || rt != k->field_types[i] || at != k->field_types[i]) return false;
  int depth = E->nvstack;
  const char *o = emit_expr_rec(E, sub->u.sub.obj);
  push_pending(E, sub->u.sub.obj, o); /* for a continuation: the instance, made if it was not */
  const char *x = emit_rec_field(E, NULL, o, k, i);
  push_pending(E, sub, x); /* the read, before the value */
  const char *r = emit_expr(E, s->u.aug.value);
  const char *v = emit_binop_values(E, s->u.aug.op, x, at, r, vt, rt);
  E->nvstack = depth;
  emit_rec_store(E, o, k, i, v);
  return true;
}

/* obj.name op= v / obj[key] op= v: obj, key, the read, v, the in-place
 * operator (PyNumber_InPlaceAdd, ...), the store. */
void emit_object_augassign(em *E, stmt *s) {
  if (rec_field_update(E, s)) return;
  expr *sub = s->u.aug.sub;
  int depth = E->nvstack;
  object_place p = place_of(E, sub);
  if (p.obj) push_typed(E, sub->u.sub.obj, p.obj, &ty_obj); /* kept for a continuation (continue.c mid_action) */
  if (p.key && sub->kind == EX_SUBSCRIPT) push_typed(E, sub->u.sub.index, p.key, &ty_obj);
  const char *old;
  if (sub->kind == EX_NAME) {
    old = emit_global_name(E, sub->u.global->name);
  } else if (sub->kind == EX_FREE) {
    old = emit_free_variable(E, sub);
  } else if (p.key) {
    old = tmpvar(E, &ty_obj);
    line(E, "%s = dynac_obj_getitem(%s, %s, &dynac__effects);", old, p.obj, p.key);
    note_effect(E);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", old, where(E));
  } else if (typed_number_update(E, s)) { /* an instance's float or int attribute: unboxed, one box */
    const type *at = TY(sub), *vt = TY(s->u.aug.value);
    const type *rt = binop_result(s->u.aug.op, at, vt);
    const char *x = emit_layout_attr(E, p.obj, sub); /* a run's read (layouts.c) */
    if (!x) x = emit_instance_attr(E, p.obj, sub->u.sub.attr, at);
    push_pending(E, sub, x);
    const char *r = emit_expr(E, s->u.aug.value);
    const char *v = emit_binop_values(E, s->u.aug.op, x, at, r, vt, rt);
    E->nvstack = depth;
    store_into(E, sub, p, v, rt);
    return;
  } else {
    old = emit_object_attr(E, p.obj, sub->u.sub.attr);
  }
  if (p.obj) push_typed(E, sub, old, &ty_obj); /* the read, before the value */
  const char *r = emit_expr(E, s->u.aug.value);
  const char *v = emit_inplace_values(E, s->u.aug.op, old, &ty_obj, r, TY(s->u.aug.value));
  E->nvstack = depth;
  store_into(E, sub, p, v, &ty_obj);
}

/* a op= b of an ndarray view `a` (its type `at`): numpy's in-place operator
 * writes the array and gives it back (checked: never another object for an
 * exact ndarray). */
void emit_array_inplace(em *E, binop op, const char *a, const type *at, const char *b, const type *bt) {
  const char *v = emit_inplace_values(E, op, a, at, b, bt);
  deopt_if(E, NULL, "not the array itself (never for an exact ndarray)", "%s != %s->obj", v, a);
}

/* a op= b with an object operand: PyNumber_InPlaceAdd, ... (a new reference). */
const char *emit_inplace_values(em *E, binop op, const char *l, const type *lt, const char *r,
                                const type *rt) {
  const char *a = as_obj(E, l, lt), *b = as_obj(E, r, rt);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_obj_inplace(%s, %s, %d, &dynac__effects); /* %s= */", o, a, b, (int)op,
       binop_spelling[op]);
  note_effect(E);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}
