/* heap.c: heapq.heappush / heappop in kernels, their comparisons through
 * the module's compiled __lt__ (runtime/heapq.h). A class of the module
 * whose __lt__ is a def with an entry taking (object, object) gets it
 * called directly by heapq's comparisons: dynac__heap_less picks the
 * kernel by a's class (its slot valid, its version tag unchanged, the
 * class guard checking that its __lt__ is that def), else CPython's
 * comparison. A __lt__ recorded comparing more class pairs than cache
 * entries take (profile.c) also has a specialisation per pair, picked by
 * b's class too: each of its attribute sites sees one class (the one
 * taking objects has them alternate in its polymorphic caches), and no
 * guard is asked. The call sites pass dynac__heap_less to
 * dynac_heapq_call, which runs _heapq's algorithm only when the callable
 * is _heapq's own.
 */
#include "emit.h"

typedef struct heap_less {
  const klass *k;
  const inst *lt;     /* the root specialisation of k's __lt__ taking two objects */
  const inst **pairs; /* its direct specialisations (func.direct_insts) taking an instance of
                         exactly k first and of exactly another class of the module second */
  int npairs;
} heap_less;

/* The root specialisation of f taking two objects (any objects first, else
 * instances of classes its guard checks) with a result the comparison can
 * take (a number, a bool, an object), or NULL. */
static const inst *object_pair_inst(const func *f) {
  if (f->nparams != 2 || f->nfreevars || f->partial) return NULL;
  const inst *best = NULL;
  for (const inst *in = f->insts; in; in = in->next_root) {
    tykind r = in->ret->kind;
    if (!in->ok || in->args[0]->kind != TY_OBJ || in->args[1]->kind != TY_OBJ ||
        (r != TY_BOOL && r != TY_INT && r != TY_FLOAT && r != TY_OBJ))
      continue;
    if (!in->args[0]->cls && !in->args[1]->cls) return in;
    if (!best) best = in;
  }
  return best;
}

/* Which classes' comparisons call their __lt__'s kernel; their class
 * guards check that __lt__ is still that def. Before the slots are written. */
void heap_plan(module *m) {
  m->nheap_less = 0;
  m->heap_less = arena_alloc(m->a, sizeof(heap_less) * (size_t)(m->nclasses + 1));
  for (int i = 0; i < m->nclasses; i++) {
    klass *k = m->classes[i];
    func *f = k->slot && !k->why_not ? classes_method(m, k, "__lt__") : NULL;
    const inst *lt = f ? object_pair_inst(f) : NULL;
    if (!lt) continue;
    classes_use_method(m, k, f);
    heap_less h = {k, lt, arena_alloc(m->a, sizeof(inst *) * (size_t)(f->ndirect_insts + 1)), 0};
    for (int d = 0; d < f->ndirect_insts; d++) {
      inst *p = f->direct_insts[d];
      const klass *b = p->args[1]->cls;
      tykind r = p->ret->kind;
      if (p->args[0]->cls != k || !b || !b->slot || b->why_not ||
          (r != TY_BOOL && r != TY_INT && r != TY_FLOAT && r != TY_OBJ))
        continue;
      p->heap_direct = true;
      h.pairs[h.npairs++] = p;
    }
    m->heap_less[m->nheap_less++] = h;
  }
}

bool heapq_call_shape(const expr *e) {
  if (e->kind != EX_CALL || e->u.call.kind != CALLEE_METHOD || e->u.call.nkw || e->u.call.argform ||
      !e->u.call.name)
    return false;
  return (!strcmp(e->u.call.name, "heappush") && e->u.call.n == 3) ||
         (!strcmp(e->u.call.name, "heappop") && e->u.call.n == 2);
}

/* Does call e go through dynac_heapq_call (a module with compiled __lt__s)? */
bool heap_call(em *E, const expr *e) { return E->m->nheap_less && !E->exported && heapq_call_shape(e); }

/* The globals brought up to date before a comparison's kernel runs, when it
 * uses any (Python code may have run since the calling kernel's guard). A
 * direct specialisation's operands' classes are checked by
 * dynac__heap_less (identity and version tag): where it uses no other
 * global, nor those by their names (infer.h use_named_slot), nothing is
 * left to check. */
static void emit_less_globals(module *m, const inst *in, bool direct, strbuf *out) {
  bool update = false;
  for (int k = 0; k < m->nslots; k++) {
    bool operand_class = direct && (k == in->args[0]->cls->slot->index || k == in->args[1]->cls->slot->index);
    update |= in->slots_used[k] && (!operand_class || in->slots_named[k]);
  }
  if (update) sb_puts(out, "  if (dynac_globals_update(&dynac__G, dynac__G.globals) < 0) return -1;\n");
}

/* Does source node n hold a call (any call: of a kernel, of heapq, ...)? */
static bool holds_call(TSNode n) {
  if (node_is(n, "call")) return true;
  for (uint32_t i = 0; i < node_named_count(n); i++)
    if (holds_call(node_named(n, i))) return true;
  return false;
}

/* Does kernel `in` call nothing (no call in its def, no kernel)? Then its
 * comparison needs no recursion check of its own (CPython's do_richcompare
 * counts one level, " in comparison"): it cannot come back to a comparison
 * by itself, and whatever Python code it may run (an operator's dunder, a
 * property met by a site's cache, a deoptimisation's or a continuation's
 * interpreter) runs through CPython's calls, which check the depth. A
 * kernel with a heapq call is not such a kernel: its comparisons would
 * call it again through C alone. */
static bool calls_nothing(const inst *in) { return !in->ncallees && !in->opaque_calls && !holds_call(in->fn->node); }

/* a < b through one __lt__ kernel, as its entry runs it: the globals
 * brought up to date (emit_less_globals) and, for the one taking
 * (object, object), its guard asked (else CPython's comparison); a direct
 * specialisation's classes were checked by its caller. The writes of one
 * that logs any undone if it deoptimises (then CPython's comparison runs
 * the call), its result taken by its truth. */
static void emit_less_through(module *m, const inst *in, bool direct, strbuf *out) {
  const char *ct = in->ret->kind == TY_BOOL ? "bool" : in->ret->kind == TY_INT ? "int64_t"
                 : in->ret->kind == TY_FLOAT ? "double" : "DYNAC_OBJ";
  if (direct)
    sb_printf(out, "/* a < b through %s's kernel (%s, %s): dynac__heap_less checked both classes */\n",
              in->fn->qualname, in->args[0]->cls->name, in->args[1]->cls->name);
  else
    sb_printf(out, "/* a < b through %s's kernel (object, object), as its entry runs it */\n", in->fn->qualname);
  sb_printf(out, "static int dynac__less_%s(PyObject *a, PyObject *b) {\n", in->cname);
  emit_less_globals(m, in, direct, out);
  if (!direct) {
    sb_puts(out, "  PyObject *args[2] = {a, b};\n  const char *failed = NULL;\n");
    sb_printf(out, "  int ok = dynac_guard_%s(args, dynac__G.globals, &failed);\n", in->cname);
    sb_puts(out, "  if (ok <= 0) return ok < 0 ? -1 : dynac_rich_less(a, b);\n");
  }
  bool leaf = calls_nothing(in);
  if (!leaf) sb_puts(out, "  if (Py_EnterRecursiveCall(\" in comparison\")) return -1;\n");
  sb_printf(out, "  %s r = 0;\n  dynac__direct_calls[%d]++;\n", ct, func_index(m, in->fn));
  bool logs = may_log(in);
  if (logs) sb_puts(out, "  size_t mark = dynac_undo_mark();\n");
  sb_printf(out, "  int st = dynac_kernel_%s(a, b, &r%s);\n", in->cname, no_entry_args(in, false));
  if (logs) sb_puts(out, "  if (st == DYNAC_DEOPT) dynac_undo_rollback(mark);\n  else dynac_undo_commit(mark);\n");
  if (!leaf) sb_puts(out, "  Py_LeaveRecursiveCall();\n");
  if (in->ret->kind == TY_OBJ)
    sb_puts(out, "  if (st == DYNAC_OK) { PyObject *res = r; r = NULL; return dynac_less_result(a, b, res); }\n");
  else
    sb_printf(out, "  if (st == DYNAC_OK) return r != 0; /* %s's truth */\n",
              in->ret->kind == TY_FLOAT ? "a float's (nan is true)" : in->ret->kind == TY_INT ? "an int" : "a bool");
  sb_puts(out, "  if (st == DYNAC_OK_NONE) return 0;\n"
               "  if (st == DYNAC_OK_BOXED) { /* a value of another type */\n"
               "    PyObject *res = dynac__boxed_result;\n    dynac__boxed_result = NULL;\n"
               "    return dynac_less_result(a, b, res);\n  }\n"
               "  if (st == DYNAC_DEOPT) return dynac_rich_less(a, b); /* untouched */\n"
               "  return -1;\n}\n");
}

const char *heap_less_text(module *m) {
  if (!m->nheap_less) return NULL;
  strbuf b = {0};
  for (int i = 0; i < m->nheap_less; i++) {
    const heap_less *h = &m->heap_less[i];
    sb_printf(&b, "%s%s (%s", i ? ", " : "", h->k->name, h->lt->fn->qualname);
    for (int p = 0; p < h->npairs; p++)
      sb_printf(&b, "%s%s", p ? ", " : "; a kernel each against ", h->pairs[p]->args[1]->cls->name);
    sb_puts(&b, ")");
  }
  const char *r = arena_strdup(m->a, b.data);
  sb_free(&b);
  return r;
}

/* dynac__heap_less (after the entries: it asks their guards) and its prototype. */
void emit_heap_less(module *m, strbuf *protos, strbuf *out) {
  if (!m->nheap_less) return;
  sb_puts(protos, "static DYNAC_UNUSED int dynac__heap_less(PyObject *a, PyObject *b);\n");
  for (int i = 0; i < m->nheap_less; i++) {
    bool seen = false;
    for (int j = 0; j < i; j++) seen |= m->heap_less[j].lt == m->heap_less[i].lt;
    if (!seen) emit_less_through(m, m->heap_less[i].lt, false, out);
    for (int p = 0; p < m->heap_less[i].npairs; p++) emit_less_through(m, m->heap_less[i].pairs[p], true, out);
  }
  sb_puts(out, "/* The `less` for heapq's a < b by a's and b's classes: the compiled __lt__ of a's class\n"
               " * when CPython's comparison calls it (b's class not a proper subclass of a's, whose\n"
               " * reflected __gt__ would go first), else CPython's comparison */\n"
               "static dynac_less_fn dynac__heap_less_pick(PyTypeObject *ta, PyTypeObject *tb) {\n"
               "  if (!dynac_reflected_first(ta, tb)) {\n");
  for (int i = 0; i < m->nheap_less; i++) {
    const heap_less *h = &m->heap_less[i];
    int s = h->k->slot->index;
    sb_printf(out, "    if (dynac__slots[%d].valid && (PyObject *)ta == dynac__slots[%d].obj &&\n"
                   "        ta->tp_version_tag == (unsigned int)dynac__slots[%d].v.i) {\n", s, s, s);
    for (int p = 0; p < h->npairs; p++) {
      const klass *b = h->pairs[p]->args[1]->cls;
      int sb = b->slot->index;
      sb_printf(out, "      if (dynac__slots[%d].valid && (PyObject *)tb == dynac__slots[%d].obj &&\n"
                     "          tb->tp_version_tag == (unsigned int)dynac__slots[%d].v.i)\n"
                     "        return dynac__less_%s; /* %s < %s */\n",
                sb, sb, sb, h->pairs[p]->cname, h->k->name, b->name);
    }
    sb_printf(out, "      return dynac__less_%s; /* %s: %s */\n    }\n", h->lt->cname, h->k->name, h->lt->fn->qualname);
  }
  sb_puts(out, "  }\n  return dynac_rich_less;\n}\n");
  sb_puts(out, "/* heapq's a < b (runtime/heapq.h), through the `less` picked for the pair of classes\n"
               " * (remembered while their version tags and the module's slots are unchanged) */\n"
               "static DYNAC_UNUSED int dynac__heap_less(PyObject *a, PyObject *b) {\n"
               "  static dynac_less_picks picks;\n"
               "  return dynac_less_through(&picks, dynac__G.refreshes, dynac__heap_less_pick, a, b);\n}\n");
}
