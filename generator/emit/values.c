/* values.c: C types and conversions between them: int/float/bool/num,
 * boxing and unboxing, truth, len, the fields of buffer views.
 */
#include "emit.h"

/* A number or bool: a C value whose truth and boxing run no Python code. */
bool is_scalar(const type *t) {
  return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || t->kind == TY_NUM;
}

const char *as_double(em *E, const char *v, const type *t) {
  if (t->kind == TY_NUM) return arena_printf(E->m->a, "dynac_num_to_double(%s)", v);
  if (t->kind == TY_NP && t->fmt == 'd') return v;
  return t->kind == TY_FLOAT ? v : arena_printf(E->m->a, "(double)%s", v);
}
/* An int-only use; a number that is a float at run time raises TypeError. */
const char *as_int(em *E, const char *v, const type *t) {
  if (t->kind == TY_NUM) return checked(E, &ty_int, "dynac_num_as_int", v, NULL);
  return t->kind == TY_BOOL || (t->kind == TY_NP && t->fmt == '?')
             ? arena_printf(E->m->a, "(int64_t)%s", v) : v;
}
const char *as_num(em *E, const char *v, const type *t) {
  switch (t->kind) {
  case TY_NUM: return v;
  case TY_FLOAT: return arena_printf(E->m->a, "dynac_num_f(%s)", v);
  case TY_BOOL: return arena_printf(E->m->a, "dynac_num_i((int64_t)%s)", v);
  case TY_NP: /* a numpy.float64 or numpy.int64 (ty_num_np) */
    return arena_printf(E->m->a, t->fmt == 'd' ? "dynac_num_npf(%s)" : "dynac_num_npi(%s)", v);
  default: return arena_printf(E->m->a, "dynac_num_i(%s)", v);
  }
}
/* Is v a C literal of an int or float (as emit_expr spells EX_INT and
 * EX_FLOAT: INT64_C(n), 2.5, HUGE_VAL, NAN and their negations)? */
static bool number_literal(const char *v, const type *t) {
  if (t->kind == TY_INT) {
    if (strncmp(v, "INT64_C(", 8)) return false;
    const char *p = v + 8 + (v[8] == '-');
    while (isdigit((unsigned char)*p)) p++;
    return p > v + 8 && !strcmp(p, ")");
  }
  if (t->kind != TY_FLOAT) return false;
  if (!strcmp(v, "HUGE_VAL") || !strcmp(v, "(-HUGE_VAL)") || !strcmp(v, "NAN") || !strcmp(v, "(-NAN)")) return true;
  char *end;
  strtod(v, &end);
  return end != v && !*end;
}

/* A value as an object: itself, or boxed into an owned temporary. A
 * number literal is boxed once per site, as the compiler keeps it among a
 * code object's constants (borrowed, kept for the process: `constN`). */
const char *as_obj(em *E, const char *v, const type *t) {
  if ((t->kind == TY_OBJ && !is_rec_value(v)) || t->kind == TY_LIST) return v; /* a list: borrowed, held by the caller */
  if (number_literal(v, t)) {
    const char *c = arena_printf(E->m->a, "const%d", ++E->tmp);
    line(E, "static PyObject *%s; /* made once */", c);
    line(E, "if (!%s && !(%s = %s(%s))) DYNAC_LEAVE(dynac_traceback_here(%s));", c, c, box_fn(E->m, t), v, where(E));
    return c;
  }
  note_type(t); /* a tuple's boxing function */
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = %s;", o, box_value(E, v, t));
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* `v` of type `from` where a `to` is declared (a local, a return, a branch). */
const char *convert(em *E, const char *v, const type *from, const type *to) {
  if (from == to || to->kind == TY_UNKNOWN) return v;
  if (to->kind == TY_OBJ) return as_obj(E, v, from);
  if (to->kind == TY_NUM) return as_num(E, v, from);
  if (to->kind == TY_FLOAT) return as_double(E, v, from);
  if (to->kind == TY_BOOL && from->kind == TY_BOOL) return v;
  return v;
}
/* Field `f` of the view `v` (a `const dynac_view *` expression). A view
 * parameter the kernel never rebinds has its fields copied to a local,
 * dv_x, at entry (they do not change during a call): the kernels are built
 * with -fno-strict-aliasing, so after a store through an item pointer the
 * compiler would reload l_x->buf, ->len... from memory; it keeps a local
 * whose address is never taken in registers. Logging a write still takes
 * the view itself (l_x), whose `snapped` and `logged` do change. */
const char *copied_view(em *E, const char *v) { /* its C name, or NULL */
  for (int i = 0; E->view_copy && i < E->in->fn->nlocals; i++)
    if (E->view_copy[i] && v[0] == 'l' && v[1] == '_' && !strcmp(v + 2, E->in->fn->local_cnames[i]))
      return E->in->fn->local_cnames[i];
  return NULL;
}
/* Is view `v` one whose stores need neither an undo entry nor the
 * read-only test here? (the unchecked copy of a loop, see versioned_condition) */
bool view_unlogged(em *E, const char *v) {
  const char *c = copied_view(E, v);
  for (int i = 0; c && E->unlogged && i < E->in->fn->nparams; i++)
    if (E->unlogged[i] && !strcmp(c, E->in->fn->local_cnames[i])) return true;
  return false;
}
const char *view_field(em *E, const char *v, const char *f) {
  const char *c = copied_view(E, v);
  return c ? arena_printf(E->m->a, "dv_%s.%s", c, f) : arena_printf(E->m->a, "%s->%s", v, f);
}
/* Is view v read-only now (a C condition: its live flags, dynac_frozen)? */
const char *view_frozen(em *E, const char *v) {
  return arena_printf(E->m->a, "dynac_frozen(%s)", view_field(E, v, "live_flags"));
}

/* Length of a list or buffer value (a Py_ssize_t expression). */
const char *len_of(em *E, const char *obj, const type *t) {
  return t->kind == TY_LIST ? arena_printf(E->m->a, "PyList_GET_SIZE(%s)", obj)
                            : view_field(E, obj, "len");
}
const char *truth(em *E, const char *v, const type *t) { return truth_unless_known(E, v, t, NULL); }
/* The same, unless C int `known` (an and/or's, see boolop_object in expr.c) is
 * 0 or 1 at run time: the truth already tested, not tested again. */
const char *truth_unless_known(em *E, const char *v, const type *t, const char *known) {
  if (t->kind == TY_OBJ) { /* __bool__ or __len__ may run */
    const char *r = arena_printf(E->m->a, "t%d", ++E->tmp);
    if (known) line(E, "int %s = %s >= 0 ? %s : dynac_obj_truth(%s, &dynac__effects);", r, known, known, v);
    else line(E, "int %s = dynac_obj_truth(%s, &dynac__effects);", r, v);
    note_effect(E);
    line(E, "if (%s < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", r, where(E));
    return r;
  }
  if (t->kind == TY_NUM) return arena_printf(E->m->a, "dynac_num_truth(%s)", v);
  if (t->kind == TY_BOOL || (t->kind == TY_NP && t->fmt == '?')) return v;
  if (t->kind == TY_FLOAT) return arena_printf(E->m->a, "(%s != 0.0)", v);
  if (t->kind == TY_LIST || t->kind == TY_BUF) /* a container is true when not empty */
    return arena_printf(E->m->a, "(%s != 0)", len_of(E, v, t));
  return arena_printf(E->m->a, "(%s != 0)", v);
}

/* The float or int parameter whose C value `v` is, if the function never
 * rebinds or deletes it (its value is the call's), else -1. */
static int unchanged_number_param(em *E, const char *v, const type *t) {
  const func *f = E->in->fn;
  if (!E->kept_box || strncmp(v, "l_", 2)) return -1;
  for (int i = 0; i < f->nparams; i++)
    if (!strcmp(v + 2, f->local_cnames[i])) return E->kept_box[i] && E->in->args[i] == t ? i : -1;
  return -1;
}

/* The object the caller passed for `v` when it is a float or int parameter
 * the function never rebinds (a C expression of a borrowed reference, NULL
 * at run time when it passed none: kernel.c entry_args_of_call), else NULL. */
const char *param_argument_object(em *E, const char *v, const type *t) {
  int p = unchanged_number_param(E, v, t);
  return p < 0 ? NULL : passed_object(E, p);
}

/* `v` boxed as the item of the list it was read from (a for loop's
 * variable, emit_for_iter_loop: E->loop_items), or NULL: not such a
 * variable, or of another type. */
static const char *loop_item_box(em *E, const char *v, const type *t) {
  if (t->kind != TY_INT && t->kind != TY_FLOAT) return NULL;
  for (int i = E->nloop_items - 1; i >= 0; i--)
    if (!strcmp(E->loop_items[i].local, v))
      return arena_printf(E->m->a, "dynac_box_%s_item(%s, %s, %s, %s)", t->kind == TY_INT ? "int" : "float", v,
                          E->loop_items[i].item, E->loop_items[i].list, E->loop_items[i].index);
  return NULL;
}

/* `v` boxed as the object its attribute read kept (emit_instance_attr_kept),
 * or NULL: not such a read's value. */
static const char *kept_attr_box(em *E, const char *v, const type *t) {
  if (t->kind != TY_INT && t->kind != TY_FLOAT) return NULL;
  int cap = (int)(sizeof E->kept_attrs / sizeof *E->kept_attrs);
  for (int k = 0; k < E->nkept_attrs && k < cap; k++)
    if (!strcmp(E->kept_attrs[k].value, v))
      return arena_printf(E->m->a, "dynac_box_%s_kept(%s, %s)", t->kind == TY_INT ? "int" : "float", v,
                          E->kept_attrs[k].obj);
  return NULL;
}
/* The object the kept read of argument a holds (borrowed: the kernel's
 * temporary, NULL at run time when it has none), else NULL. */
const char *kept_attr_object(em *E, const expr *a) {
  int cap = (int)(sizeof E->kept_attrs / sizeof *E->kept_attrs);
  for (int k = E->nkept_attrs - 1; a && k >= 0 && k >= E->nkept_attrs - cap; k--) /* the latest emission of a */
    if (E->kept_attrs[k % cap].id == a->id) return E->kept_attrs[k % cap].obj;
  return NULL;
}

/* Marks read a (attrs_boxed_again) when it is obj.name of an instance read
 * as an int or a float (expr.c emit_attr's typed read, no property). */
static void mark_number_attr(em *E, bool *marks, const expr *a) {
  if (a->kind != EX_ATTR || a->u.sub.index || (TY(a)->kind != TY_INT && TY(a)->kind != TY_FLOAT)) return;
  const type *ot = TY(a->u.sub.obj);
  marks[a->id] = ot->kind == TY_OBJ && !ot->rec && !E->in->types.callee[a->id];
}
typedef struct boxed_again { em *E; bool *marks; } boxed_again;
static void mark_boxed_parts(void *ctx, expr *e);
static void mark_boxed_target(void *ctx, target *t) {
  if (t->sub) mark_boxed_parts(ctx, t->sub);
  for (int i = 0; t->is_tuple && i < t->n; i++) mark_boxed_target(ctx, t->elts[i]);
}
static void mark_boxed_block(void *ctx, stmt *s) {
  static const ir_parts parts = {mark_boxed_parts, mark_boxed_target, mark_boxed_block, false};
  for (; s; s = s->next) ir_each_part(s, &parts, ctx);
}
static void mark_boxed_parts(void *ctx, expr *e) {
  boxed_again *B = ctx;
  if (e->kind == EX_CALL && e->u.call.kind != CALLEE_BUILTIN && e->u.call.kind != CALLEE_MATH) {
    int first = e->u.call.kind == CALLEE_METHOD || e->u.call.kind == CALLEE_VALUE; /* past the receiver */
    for (int i = first; i < e->u.call.n; i++) mark_number_attr(B->E, B->marks, e->u.call.args[i]);
  }
  if (e->kind == EX_TUPLE || e->kind == EX_LIST || e->kind == EX_SET)
    for (int i = 0; i < e->u.tuple.n; i++) mark_number_attr(B->E, B->marks, e->u.tuple.elts[i]);
  if (e->kind == EX_LISTCOMP) mark_boxed_block(ctx, e->u.comp.loop);
  ir_each_subexpr(e, mark_boxed_parts, ctx);
}
/* The int and float attribute reads of the kernel being emitted whose
 * value it boxes again, as an argument of a call that is not a builtin's
 * or math's C code, or as an item of a display: CPython passes or stores
 * the attribute's object itself, so such a read keeps it (one reference
 * more, rather than a new int or float per use). [nexprs] */
bool *attrs_boxed_again(em *E) {
  const func *f = E->in->fn;
  boxed_again B = {E, arena_alloc(E->m->a, sizeof(bool) * (size_t)(f->nexprs + 1))};
  memset(B.marks, 0, sizeof(bool) * (size_t)(f->nexprs + 1));
  mark_boxed_block(&B, f->body);
  return B.marks;
}

/* Is part `v` of a tuple display one box_value gives an object that exists
 * already (a parameter's, a list item's)? */
static bool shares_box(em *E, const char *v, const type *t) {
  return unchanged_number_param(E, v, t) >= 0 || loop_item_box(E, v, t) || kept_attr_box(E, v, t);
}

/* A tuple display of numbers `v` (emit_tuple) holding such a parameter or
 * loop variable: the tuple of its items boxed one by one (the parameter's
 * shared box, the list's item, the others from the display's fields),
 * else NULL. */
static const char *box_display_of_params(em *E, const char *v, const type *t) {
  int cap = (int)(sizeof E->displays / sizeof *E->displays);
  for (int k = 0; k < E->ndisplays && k < cap; k++) {
    if (strcmp(E->displays[k].name, v)) continue;
    bool shares = false;
    for (int i = 0; i < t->n; i++) shares = shares || shares_box(E, E->displays[k].parts[i], t->elts[i]);
    if (!shares) return NULL;
    line(E, "(void)%s; /* boxed from its parts */", v);
    strbuf b = {0};
    sb_printf(&b, "dynac_tuple_steal(%d, (PyObject *[]){", t->n);
    for (int i = 0; i < t->n; i++) {
      const char *part = E->displays[k].parts[i];
      if (!shares_box(E, part, t->elts[i])) part = arena_printf(E->m->a, "%s.v%d", v, i);
      sb_printf(&b, "%s%s", i ? ", " : "", box_value(E, part, t->elts[i]));
    }
    sb_puts(&b, "})");
    const char *r = arena_strdup(E->m->a, b.data);
    sb_free(&b);
    return r;
  }
  return NULL;
}

/* `v`, the C double a call to `callee` returned, may be the float literal
 * its code returns (inst.ret_literal): remembered for box_value. */
void note_literal_result(em *E, const char *v, const inst *callee) {
  int k = E->nliteral_results++ % (int)(sizeof E->literal_results / sizeof *E->literal_results);
  E->literal_results[k].name = v, E->literal_results[k].literal = callee->ret_literal;
}

/* Such a call's result: boxed to the literal's one object when it has the
 * literal's value (dynac_box_float_literal), as CPython returns the
 * constant, else NULL (box it anew). */
static const char *box_as_literal(em *E, const char *v, const type *t) {
  if (t->kind != TY_FLOAT) return NULL;
  int cap = (int)(sizeof E->literal_results / sizeof *E->literal_results);
  for (int k = 0; k < E->nliteral_results && k < cap; k++)
    if (!strcmp(E->literal_results[k].name, v)) {
      double f = E->literal_results[k].literal;
      return arena_printf(E->m->a, "dynac_box_float_literal(%s, %s, %s)", v, float_literal(E, f),
                          float_literal_place(E->m, f));
    }
  return NULL;
}

/* Boxes a kernel value for a call through the C API (new reference). A
 * parameter the function never rebinds is the caller's object when it
 * passed one (the glue's argument, a literal: kernel.c entry_args_of_call),
 * else boxed once per call, its object shared by every use (as the caller's
 * one object is in the interpreter: `d[a] = w; d[b] = w` stores one float,
 * not two), tuple displays holding it (`d[(a, b)] = w`) too. A call's
 * result that is the float literal its callee returns boxes to that
 * literal's one object. */
const char *box_value(em *E, const char *v, const type *t) {
  note_type(t); /* a tuple's boxing function */
  int p = unchanged_number_param(E, v, t);
  const char *kind = t->kind == TY_FLOAT ? "float" : "int";
  if (p >= 0) E->args_read[p] = 1;
  if (p >= 0 && E->kept_box[p] == KEEP_ARG)
    return arena_printf(E->m->a, "dynac_box_param_once_%s(%s, dynac__args, %d)", kind, v, p);
  if (p >= 0) {
    E->kept_box[p] = KEEP_BOX_USED;
    return arena_printf(E->m->a, "dynac_box_param_%s(&bx_%s, %s, dynac__args, %d)", kind,
                        E->in->fn->local_cnames[p], v, p);
  }
  const char *item = loop_item_box(E, v, t);
  if (!item) item = kept_attr_box(E, v, t);
  if (item) return item;
  const char *display = t->kind == TY_TUPLE && (E->kept_box || E->nloop_items || E->nkept_attrs) ? box_display_of_params(E, v, t) : NULL;
  if (display) return display;
  const char *literal = box_as_literal(E, v, t);
  if (literal) return literal;
  if (t->rec && is_rec_value(v)) return rec_box(E, v, t->cls); /* the instance, made if it was not */
  switch (t->kind) {
  case TY_INT: return arena_printf(E->m->a, "dynac_box_int(%s)", v);
  case TY_FLOAT: return arena_printf(E->m->a, "dynac_box_float(%s)", v);
  case TY_NUM: return arena_printf(E->m->a, "dynac_box_num(%s)", v);
  case TY_LIST: case TY_OBJ: return arena_printf(E->m->a, "Py_NewRef(%s)", v);
  case TY_NONE: return "Py_NewRef(Py_None)";
  case TY_BUF: return arena_printf(E->m->a, "Py_NewRef(%s->obj)", v);
  case TY_TUPLE: return arena_printf(E->m->a, "dynac_box_%s(&%s)", t->code, v);
  case TY_NP: return arena_printf(E->m->a, "dynac_box_np_%s(%s)", np_name(t->fmt), v);
  default: return arena_printf(E->m->a, "dynac_box_bool(%s)", v);
  }
}

const char *box_value_cold(em *E, const char *v, const type *t) {
  char *kept = E->kept_box;
  E->kept_box = NULL;
  const char *r = box_value(E, v, t);
  E->kept_box = kept;
  return r;
}

/* C type of a buffer item of format `fmt`. */
const char *item_ctype(char fmt) {
  switch (fmt) {
  case 'd': return "double";
  case 'f': return "float";
  case 'q': return "long long";
  case 'Q': return "unsigned long long";
  case 'l': return "long";
  case 'L': return "unsigned long";
  case 'i': return "int";
  case 'I': return "unsigned int";
  case 'h': return "short";
  case 'H': return "unsigned short";
  case 'b': return "signed char";
  case 'B': return "unsigned char";
  default: return "bool";
  }
}

const char *c_item_type(char fmt) { return item_ctype(fmt); }

/* dynac_view_acquire's kind letter: the buffer kind, 'N' for a 2-D ndarray. */
char view_kind(const type *t) { return t->ndim == 2 ? 'N' : t->buf_kind; }

/* The function that unboxes a borrowed element of type t into `out`, nonzero
 * when the object is not one (see dynac.h's dynac_elem_*). */
const char *elem_fn(module *m, const type *t) {
  switch (t->kind) {
  case TY_FLOAT: return "dynac_elem_float";
  case TY_INT: return "dynac_elem_int";
  case TY_BOOL: return "dynac_elem_bool";
  case TY_NUM: return ty_may_be_np(t) ? "dynac_elem_num_np" : "dynac_elem_num";
  case TY_LIST: return "dynac_elem_list";
  case TY_OBJ: return t->cls ? arena_printf(m->a, "dynac_elem_%s", t->code) : "dynac_elem_obj";
  case TY_TUPLE: return arena_printf(m->a, "dynac_unbox_%s", t->code);
  case TY_NP: return arena_printf(m->a, "dynac_elem_np_%s", np_name(t->fmt));
  case TY_NONE: return "dynac_elem_none";
  case TY_BUF: return "dynac_elem_view";
  default: return NULL;
  }
}

const char *box_fn(module *m, const type *t) {
  switch (t->kind) {
  case TY_NP: return arena_printf(m->a, "dynac_box_np_%s", np_name(t->fmt));
  case TY_LIST: case TY_OBJ: return "Py_NewRef";
  case TY_INT: return "dynac_box_int";
  case TY_FLOAT: return "dynac_box_float";
  case TY_NUM: return "dynac_box_num";
  case TY_BOOL: return "dynac_box_bool";
  case TY_NONE: return "dynac_box_none";
  case TY_BUF: return "dynac_box_view";
  default: return NULL;
  }
}
