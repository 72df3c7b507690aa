/* records.c: instances kernels keep as their fields (scalar replacement;
 * runtime/records.h). A value typed `rec` (infer: a recordable class's
 * instance a call made) is a C struct dynac_R<n><Class>: a dynac_rec_head,
 * then the fields in the order __init__ sets them. Its C spelling tells
 * it apart from an object's: a local rl_x, a parameter (*rp_x) (the
 * caller's struct, by address), a temporary rtN. emit_expr gives every
 * other expression the instance itself (dynac_rec_box: made on first
 * need); the places written here take the struct: reading and writing a
 * field, a kernel's argument, Cls(...) running the __init__ kernel on it.
 */
#include "emit.h"

/* The class's struct type. */
const char *rec_ctype(module *m, const klass *k) { return arena_printf(m->a, "dynac_%s", k->rec.code); }

/* The class's dynac_rec_desc (its address). */
static const char *rec_desc(module *m, const klass *k) {
  return arena_printf(m->a, "&dynac__rdesc_%s", k->rec.code);
}

/* Field i's member in the class's struct: f_<name>, so that no field name
 * meets the head's `h` or a C keyword (`self.h`, `self.int` are fields too). */
static const char *rec_member(module *m, const klass *k, int i) {
  return arena_printf(m->a, "f_%s", k->field_names[i]);
}

/* Is C value v a struct (a rec local, parameter or temporary) rather than an object? */
static bool all_name_chars(const char *p, const char *end) {
  for (; p < end; p++) if (!isalnum((unsigned char)*p) && *p != '_') return false;
  return true;
}
bool is_rec_value(const char *v) {
  size_t n = strlen(v);
  if (!strcmp(v, "(*dynac_out)")) return true;
  if (!strncmp(v, "rl_", 3)) return all_name_chars(v + 3, v + n);             /* rl_x, not rl_x.f */
  if (!strncmp(v, "(*rp_", 5)) return v[n - 1] == ')' && all_name_chars(v + 5, v + n - 1);
  if (v[0] != 'r' || v[1] != 't' || !v[2]) return false;
  for (const char *p = v + 2; *p; p++) if (!isdigit((unsigned char)*p)) return false;
  return true;
}

/* The struct's address, as a kernel's parameter takes it. */
const char *rec_addr(em *E, const char *v) {
  if (!strncmp(v, "(*rp_", 5) || !strcmp(v, "(*dynac_out)")) return arena_strndup(E->m->a, v + 2, strlen(v) - 3);
  return arena_printf(E->m->a, "&%s", v);
}

/* Its head's address. */
static const char *rec_head(em *E, const char *v) { return arena_printf(E->m->a, "&%s.h", v); }

/* The instance the struct stands for, as a new reference (NULL with an exception). */
const char *rec_box(em *E, const char *v, const klass *k) {
  return arena_printf(E->m->a, "dynac_rec_box(%s, %s)", rec_head(E, v), rec_desc(E->m, k));
}

/* A new struct temporary holding no value yet (released leaving the block). */
const char *rec_tmp(em *E, const klass *k) {
  const char *name = arena_printf(E->m->a, "rt%d", ++E->tmp);
  line(E, "DYNAC_REC_%s %s = {0}; /* a %s kept as its fields */", k->rec.code, name, k->name);
  return name;
}

/* Where expression e (typed rec, class k) makes its struct: the caller's
 * when e is the value a kernel returns (E->rec_dest: no copy after), else
 * a new temporary. */
const char *rec_result(em *E, const expr *e, const klass *k) {
  if (E->rec_dest_for != e) return rec_tmp(E, k);
  E->rec_dest_for = NULL;
  line(E, "/* made in the caller's struct */");
  return E->rec_dest;
}

/* v, an object (a new reference's owner keeps it), as the struct of
 * class k it is typed: the instance itself when it is one of exactly k,
 * else the kernel goes on in the interpreter (the object is of another
 * class: a global rebound, a __class__ assigned). */
const char *rec_of_object(em *E, const char *v, const klass *k) {
  const char *r = rec_tmp(E, k);
  deopt_if(E, "DYNAC_FAIL_NOT_INT", "not an instance of the class", "dynac_rec_from(%s, dynac__slots[%d].obj, %s)",
           v, k->slot->index, rec_head(E, r));
  return r;
}

/* ---- a statement's field reads, checked once per struct ------------------
 * `return self.x * o.x + self.y * o.y + self.z * o.z` reads three fields
 * of each struct; between the reads only C arithmetic runs, so nothing can
 * make an instance or change the class (no Python code, no allocation the
 * GC counts). The statement then checks each struct once
 * (dynac_rec_plain_mask over the fields it reads), keeps the answer in a
 * flag plN, and its reads test the flag. A read that goes through the
 * instance (a flag 0) may run Python code: it clears every flag, and the
 * next read checks again. Statements whose value is such arithmetic, or a
 * call whose arguments all are, qualify (the call runs after them). */
typedef struct rec_check { int local; uint32_t mask; int reads; const char *flag; } rec_check; /* one struct local */
typedef struct rec_checks {
  int n;
  rec_check s[8];
  int nids;
  int ids[64]; /* the EX_ATTR reads the flags cover */
} rec_checks;

static bool numeric(const type *t) { return t->kind == TY_FLOAT || t->kind == TY_INT || t->kind == TY_BOOL; }

/* Is e a field of a struct local (its read noted in c)? */
static bool checks_field(em *E, const expr *e, rec_checks *c) {
  const expr *o = e->u.sub.obj;
  if (E->exported || o->kind != EX_LOCAL || !TY(o)->rec || E->in->types.callee[e->id] || TY(e) == &ty_obj)
    return false;
  int f = classes_field(TY(o)->cls, e->u.sub.attr);
  if (f < 0 || c->nids == 64) return false;
  int j = 0;
  while (j < c->n && c->s[j].local != o->u.local) j++;
  if (j == 8) return false;
  if (j == c->n) c->s[c->n++] = (rec_check){.local = o->u.local};
  c->s[j].mask |= 1u << f;
  c->s[j].reads++;
  c->ids[c->nids++] = e->id;
  return true;
}

/* Is e computed in C from numbers, numeric locals and fields of struct
 * locals (math functions of them too), nothing else? Its field reads go in c. */
static bool checks_scan(em *E, const expr *e, rec_checks *c) {
  if (!numeric(TY(e))) return false;
  switch (e->kind) {
  case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_LOCAL: return true;
  case EX_ATTR: return !e->u.sub.index && checks_field(E, e, c);
  case EX_BINOP: return !e->u.bin.inplace && checks_scan(E, e->u.bin.l, c) && checks_scan(E, e->u.bin.r, c);
  case EX_UNARY: return checks_scan(E, e->u.un.a, c);
  case EX_NOT: return checks_scan(E, e->u.not_arg, c);
  case EX_BOOLOP: return checks_scan(E, e->u.boolop.l, c) && checks_scan(E, e->u.boolop.r, c);
  case EX_IFEXP:
    return checks_scan(E, e->u.ifexp.cond, c) && checks_scan(E, e->u.ifexp.then, c) &&
           checks_scan(E, e->u.ifexp.orelse, c);
  case EX_COMPARE:
    for (int i = 0; i < e->u.cmp.n; i++) if (!checks_scan(E, e->u.cmp.operands[i], c)) return false;
    return true;
  case EX_CALL:
    if (e->u.call.kind != CALLEE_MATH || e->u.call.nkw || e->u.call.argform) return false;
    for (int i = 0; i < e->u.call.n; i++) if (!checks_scan(E, e->u.call.args[i], c)) return false;
    return true;
  default: return false;
  }
}

/* The value of statement s, if it qualifies: such arithmetic, or a call of
 * such arguments (a method's receiver and a called value are read first). */
static bool checks_statement(em *E, const stmt *s, rec_checks *c) {
  const expr *v = s->kind == ST_ASSIGN ? s->u.assign.value : s->kind == ST_RETURN ? s->u.ret
                : s->kind == ST_EXPR ? s->u.expr : NULL;
  if (!v) return false;
  if (v->kind != EX_CALL || v->u.call.kind == CALLEE_MATH) return checks_scan(E, v, c);
  if (v->u.call.nkw || v->u.call.argform || v->u.call.kind == CALLEE_NONE) return false;
  int first = v->u.call.kind == CALLEE_METHOD || v->u.call.kind == CALLEE_VALUE;
  if (first && (!v->u.call.n || (v->u.call.args[0]->kind != EX_LOCAL && v->u.call.args[0]->kind != EX_NAME)))
    return false;
  for (int i = first; i < v->u.call.n; i++) if (!checks_scan(E, v->u.call.args[i], c)) return false;
  return true;
}

/* Statement s's checks: a flag per struct it reads two fields or more of
 * (declared here, before its code), or NULL. */
rec_checks *rec_checks_open(em *E, const stmt *s) {
  rec_checks c = {0};
  if (!checks_statement(E, s, &c)) return NULL;
  rec_checks *r = NULL;
  for (int j = 0; j < c.n; j++) {
    if (c.s[j].reads < 2) continue;
    if (!r) r = arena_alloc(E->m->a, sizeof *r), *r = c;
    r->s[j].flag = arena_printf(E->m->a, "pl%d", ++E->tmp);
    line(E, "int %s = 0; /* %s's fields: plain? (checked once below) */", r->s[j].flag,
         E->in->fn->locals[c.s[j].local]);
  }
  return r;
}

/* The flag read e (an EX_ATTR) tests, or NULL: checked at the read. */
static const char *checks_flag(em *E, const expr *e) {
  rec_checks *c = E->recr;
  if (!c || !e) return NULL;
  bool listed = false;
  for (int i = 0; i < c->nids && !listed; i++) listed = c->ids[i] == e->id;
  for (int j = 0; listed && j < c->n; j++)
    if (c->s[j].local == e->u.sub.obj->u.local) return c->s[j].flag;
  return NULL;
}

/* Field i of struct v (class k): read in C while it is a plain field
 * (dynac_rec_plain; a statement's flag, see rec_checks), else through the
 * instance, checked as an instance's attribute is (another type
 * deoptimises). e: the EX_ATTR read, or NULL. */
const char *emit_rec_field(em *E, const expr *e, const char *v, const klass *k, int i) {
  const type *t = k->field_types[i];
  const char *o = tmpvar(E, t);
  const char *f = k->field_names[i], *mb = rec_member(E->m, k, i);
  const char *flag = checks_flag(E, e);
  if (flag) {
    uint32_t mask = 0;
    for (int j = 0; j < E->recr->n; j++) if (E->recr->s[j].flag == flag) mask = E->recr->s[j].mask;
    line(E, "if (DYNAC_LIKELY(%s || (%s = dynac_rec_plain_mask(%s, 0x%xu)))) %s = %s.%s; /* .%s: a field */", flag,
         flag, rec_head(E, v), (unsigned)mask, o, v, mb, f);
  } else {
    line(E, "if (DYNAC_LIKELY(dynac_rec_plain(%s, %d))) %s = %s.%s; /* .%s: a field */", rec_head(E, v), i, o, v, mb, f);
  }
  line(E, "else {");
  E->indent++;
  const char *c = emit_attr_cache(E, "where instances keep it");
  /* read into a local of this block: o's address never escapes, so that GCC keeps o in a
   * register and reuses the struct's loads across the other fields' reads */
  line(E, "%s got = 0;", c_type(t));
  line(E, "int st = dynac_rec_attr_%s(%s, %s, %d, &%s, &dynac__effects, &got); /* .%s of the instance */",
       t->kind == TY_FLOAT ? "float" : t->kind == TY_INT ? "int" : "bool", rec_head(E, v), rec_desc(E->m, k), i,
       c, f);
  line(E, "if (st < 0) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  line(E, "%s = got;", o);
  deopt_if(E, "DYNAC_FAIL_NOT_INT", "the attribute holds another type than recorded", "st");
  if (flag) { /* Python code may have run: every struct is checked again */
    strbuf cl = {0};
    for (int j = 0; j < E->recr->n; j++) if (E->recr->s[j].flag) sb_printf(&cl, "%s = ", E->recr->s[j].flag);
    line(E, "%s0;", cl.data);
    sb_free(&cl);
  }
  E->indent--;
  line(E, "}");
  note_effect(E);
  return o;
}

/* Struct v's field i = val through the instance (made if it was not),
 * stored as `owner` says (runtime/records.h dynac_rec_setattr); `why`
 * ends the line's comment. */
static void rec_store_through_instance(em *E, const char *v, const klass *k, int i, const char *val,
                                       const char *owner, const char *why) {
  const char *c = emit_attr_cache(E, "where instances keep it");
  line(E, "if (dynac_rec_setattr(%s, %s, %d, %s, &%s, &dynac__effects, %s) < 0) "
       "DYNAC_LEAVE(dynac_traceback_here(%s)); /* .%s = %s*/", rec_head(E, v), rec_desc(E->m, k), i,
       box_value(E, val, k->field_types[i]), c, owner, where(E), k->field_names[i], why);
}

/* Struct v's field i = val (of the field's type): into the struct while no
 * instance was made and its class is unchanged, else a store into the
 * instance (STORE_ATTR's). A write the caller of a kernel that takes the
 * struct may see: an effect. A frozen dataclass's struct takes stores
 * only from its __init__ (as object.__setattr__); any other goes through
 * the instance, whose __setattr__ raises FrozenInstanceError. */
void emit_rec_store(em *E, const char *v, const klass *k, int i, const char *val) {
  const char *f = k->field_names[i], *mb = rec_member(E->m, k, i);
  if (is_own_first_param(E, v)) line(E, "dynac__effects |= 2; /* a write to its first parameter's fields */");
  else line(E, "dynac__effects = 1; /* a write its holders see */");
  bool init = E->in->fn->synth_of == k && is_own_first_param(E, v);
  if (k->frozen && !init) {
    rec_store_through_instance(E, v, k, i, val, "DYNAC_STORE_OTHER", "of a frozen dataclass: its __setattr__ ");
    note_effect(E);
    return;
  }
  const char *given = k->field_types[i]->kind == TY_FLOAT ? param_argument_object(E, val, k->field_types[i]) : NULL;
  const char *keep = k->field_types[i]->kind != TY_FLOAT ? ""
      : given ? arena_printf(E->m->a, " if (DYNAC_UNLIKELY((%s && isnan(%s)) || %s.h.kept)) dynac_rec_keep(%s, %d, "
                             "%s, %s);", given, val, v, rec_head(E, v), i, given, val)
      : arena_printf(E->m->a, " if (DYNAC_UNLIKELY(%s.h.kept != NULL)) dynac_rec_keep(%s, %d, NULL, 0.0);", v,
                     rec_head(E, v), i);
  line(E, "if (DYNAC_LIKELY(dynac_rec_unmade(%s))) { %s.%s = %s; %s.h.set |= 1u << %d;%s } /* .%s = : a field */",
       rec_head(E, v), v, mb, val, v, i, keep, f);
  line(E, "else {");
  E->indent++;
  rec_store_through_instance(E, v, k, i, val, k->frozen ? "DYNAC_STORE_OTHER | DYNAC_STORE_GENERIC" : "DYNAC_STORE_OTHER",
                             "");
  E->indent--;
  line(E, "}");
  note_effect(E);
}

/* The struct of each class whose instances kernels keep as fields, and
 * the runtime's description of it (before the kernels). */
void emit_rec_structs(module *m, strbuf *out) {
  for (int c = 0; c < m->nclasses; c++) {
    const klass *k = m->classes[c];
    if (!k->rec_used) continue;
    const char *st = rec_ctype(m, k), *code = k->rec.code;
    sb_printf(out, "/* an instance of %s a kernel made and keeps as its fields (runtime/records.h) */\n", k->name);
    sb_printf(out, "typedef struct %s {\n  dynac_rec_head h;\n", st);
    for (int i = 0; i < k->nfields; i++)
      sb_printf(out, "  %s %s; /* .%s */\n", c_type(k->field_types[i]), rec_member(m, k, i), k->field_names[i]);
    sb_printf(out, "} %s;\n", st);
    sb_printf(out, "static const dynac_rec_field dynac__rfields_%s[] = {\n", code);
    for (int i = 0; i < k->nfields; i++) {
      tykind kd = k->field_types[i]->kind;
      sb_printf(out, "    {\"%s\", '%c', offsetof(%s, %s)},\n", k->field_names[i],
                kd == TY_FLOAT ? 'f' : kd == TY_INT ? 'i' : 'b', st, rec_member(m, k, i));
    }
    sb_printf(out, "};\n");
    sb_printf(out, "static dynac_rec_desc dynac__rdesc_%s __attribute__((unused)) = {.nfields = %d, .fields = "
              "dynac__rfields_%s%s};\n", code, k->nfields, code, k->frozen ? ", .frozen = 1" : "");
    sb_printf(out, "static inline void dynac__release_%s(%s *r) { dynac_rec_release(&r->h); }\n", code, st);
    sb_printf(out, "#define DYNAC_REC_%s __attribute__((cleanup(dynac__release_%s))) %s\n\n", code, code, st);
  }
}

/* Cls(args) of a class kept as fields (infer: constructed_init): while
 * the global names the class its guard saw, unchanged, and the class
 * still makes plain instances (dynac_rec_ok), a struct is started and the
 * __init__ kernel sets its fields; an __init__ that hands the call back
 * before doing anything runs in the interpreter on the instance made from
 * the struct. Otherwise CPython's call, its instance kept as the struct
 * (of another class: the kernel goes on in the interpreter). The struct.
 * The __init__ kernel is given the objects of its caller's unchanged
 * parameters and of the defaults, which a field keeps when its value is a
 * nan (dynac_rec_keep), not the literals' (a literal is never a nan). */
const char *emit_rec_construction(em *E, expr *e, inst *init) {
  const klass *k = TY(e)->cls;
  int n = e->u.call.n, ks = k->slot->index;
  const char *vals[64];
  for (int i = 0; i < n; i++) vals[i] = emit_call_arg(E, e, i, i ? init_param_type(e, init, i) : NULL);
  const char *r = rec_result(E, e, k);
  const char *tp = arena_printf(E->m->a, "((PyTypeObject *)%s)", vals[0]);
  strbuf args = {0};
  const char *dobjs[64] = {NULL};
  const char *defaults = construction_args(E, e, init, tp, rec_addr(E, r), vals, &args, dobjs);
  const char *synth = synthesised_init_ok(E, init, tp);
  note_effect(E);
  const char *other = arena_printf(E->m->a, "other%d", ++E->tmp);
  line(E, "int %s = 0; /* CPython's call made an instance of another class */", other);
  emit_class_fresh(E, ks, vals[0]);
  line(E, "if (%s == dynac__slots[%d].obj && %s->tp_version_tag == (unsigned int)dynac__slots[%d].v.i && "
       "dynac_rec_ok(%s, %s)%s%s) {", vals[0], ks, tp, ks, rec_desc(E->m, k), tp, synth, defaults);
  E->indent++;
  line(E, "dynac_rec_begin(%s, %s);", rec_head(E, r), tp);
  bool leaf = kernel_call_is_flat(E->m, init);
  line(E, "dynac__direct_calls[%d]++;", func_index(E->m, init->fn));
  if (!leaf) line(E, "dynac__depth++;");
  callee_report_start(E, init);
  expr *byparam[64] = {NULL}; /* self, then Cls(...)'s arguments that are objects the kernel was given */
  for (int i = 1; i < n && i < 64; i++) {
    int p = call_param(e, init->fn, i, 0);
    if (p >= 0 && p < 64) byparam[p] = e->u.call.args[i]->kind == EX_LOCAL ? e->u.call.args[i] : NULL;
  }
  line(E, "int st = dynac_kernel_%s(%s%s); /* %s.__init__ on its fields */", init->cname, args.data,
       entry_args_of_call(E, init, byparam, dobjs), k->name);
  if (!leaf) line(E, "dynac__depth--;");
  callee_report_take(E, init, NULL, true);
  line(E, "if (st == DYNAC_DEOPT) { /* nothing done: __init__ in the interpreter, on the instance */");
  E->indent++;
  line(E, "PyObject *o = dynac_rec_force(%s, %s);", rec_head(E, r), rec_desc(E->m, k));
  emit_init_interpreted(E, e, vals, tp, "o");
  E->indent--;
  line(E, "}");
  emit_init_status(E);
  E->indent--;
  line(E, "} else { /* the global names another object now, or the class changed: CPython's call */");
  E->indent++;
  line(E, "PyObject *made = NULL;");
  emit_class_call(E, e, vals, "made");
  line(E, "%s = dynac_rec_from(made, dynac__slots[%d].obj, %s);", other, ks, rec_head(E, r));
  const char *mid = boxed_call_action(E, e);
  if (mid) /* (__init__ ran: the interpreter must not make the instance again) */
    line(E, "if (%s) dynac__boxed_result = made; /* the call's value, for the interpreter */\n"
         "%*selse Py_DECREF(made);", other, 2 * E->indent, "");
  else
    line(E, "Py_DECREF(made);");
  E->indent--;
  line(E, "}");
  sb_free(&args);
  if (mid) /* made by another class (the global rebound) or by the class changed since its guard */
    line(E, "if (%s) { /* the interpreter goes on with the instance as the call's value */ %s }", other, mid);
  else
    deopt_if(E, "DYNAC_FAIL_NOT_INT", "the global no longer names the class", "%s", other);
  return r;
}

/* The argument a kernel's parameter of type `pt` takes from value v: a
 * struct by address (an object v kept as its instance's struct); else v. */
const char *kernel_arg(em *E, const char *v, const type *pt) {
  if (!pt || !pt->rec) return v;
  if (!is_rec_value(v)) v = rec_of_object(E, v, pt->cls); /* an object: the instance itself, as the struct */
  return rec_addr(E, v);
}

/* Expression x as the value of a kernel parameter of type pt: a struct
 * (by value here, rec_addr passes it) when pt keeps one, else as
 * emit_expr gives it. */
const char *emit_operand_for(em *E, expr *x, const type *pt) {
  return pt && pt->rec && TY(x)->rec ? emit_expr_rec(E, x) : emit_expr(E, x);
}
