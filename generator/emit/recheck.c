/* recheck.c: module-level values checked again in the middle of a call.
 *
 * A kernel's guard checks the module-level values it reads (its slots:
 * scalar globals, the functions it calls directly, builtins, math) as the
 * call starts. Python code the kernel runs (a callback, an object's
 * method or property, a callee's) may rebind one: `g = other`,
 * `math.sqrt = mock`, `LIMIT = 3` from another module. CPython sees that
 * at the next LOAD_GLOBAL; so must the kernel. Whatever may run Python
 * code in a module's kernels bumps its dynac__py_serial (dynac.h:
 * dynac_python_may_run, DYNAC_PYTHON_RUNS); a statement that reads
 * module-level values first compares it with what the kernel last saw
 * (DYNAC_GLOBALS_CHANGED), checks them again when it moved, and goes on in
 * the interpreter from its start when one changed. Typed code runs no
 * Python code: the compare always holds. Method calls and operators of
 * instances are not checked at the call: the method's kernel checks what
 * it reads at its own statements.
 *
 * Inside a statement, after something that may have run Python code
 * (`f() + K`, f rebinding K), the read is checked again too, and a
 * failure goes on in the interpreter around the operands the statement
 * had evaluated (continue.c: mid_action), or, where that cannot be exact,
 * raises dynac's RuntimeError rather than use the old value.
 *
 * Left as before: code a __del__ runs as a release frees an object.
 */
#include "emit.h"

/* In a kernel whose code (or a direct callee's) reads guarded
 * module-level values: the list of those values' slots, and what it last
 * found of them. Not its classes': where a kernel uses a class (a method
 * called directly, an instance made) it checks the class's version tag
 * itself (DYNAC_CLASS_FRESH, dynac_load_global_slot), and a class patched
 * mid-call must not send the rest of the call to the interpreter. */
void declare_globals_recheck(em *E) {
  const module *m = E->m;
  strbuf ks = {0};
  int n = 0;
  for (int k = 0; k < m->nslots; k++)
    if (E->in->slots_used[k] && m->slots[k]->kind != SLOT_NAME && m->slots[k]->kind != SLOT_CLASS)
      sb_printf(&ks, "%s%d", n++ ? ", " : "", k);
  if (n && !E->exported) {
    line(E, "static const int dynac__kslots[] = {%s}; /* the module-level values it and its callees read */",
         ks.data);
    line(E, "static dynac_kslots_seen dynac__kslots_seen; /* when they were last found valid */");
    line(E, "(void)dynac__kslots;\n(void)dynac__kslots_seen;");
    E->nkslots = n;
  }
  sb_free(&ks);
}

/* Does e itself read a guarded module-level value (not its operands)? */
static bool reads_itself(const expr *e) {
  return e->guard || e->kind == EX_GLOBAL ||
         (e->kind == EX_CALL && e->u.call.kind != CALLEE_METHOD && e->u.call.kind != CALLEE_VALUE);
}

typedef struct reads_walk { bool reads; } reads_walk;

/* Does expression e (its comprehensions' clauses aside: they are
 * statements) read a guarded module-level value itself: a scalar global,
 * a builtin or math function, a module function called directly, a
 * class constructed? */
static void expr_reads(void *ctx, expr *e) {
  reads_walk *W = ctx;
  if (W->reads || !e) return;
  if (reads_itself(e)) {
    W->reads = true;
    return;
  }
  ir_each_subexpr(e, expr_reads, W);
}

static void no_target(void *ctx, target *t) { (void)ctx, (void)t; }
static void no_block(void *ctx, stmt *b) { (void)ctx, (void)b; }

/* Before expression e, in the middle of a statement that already did
 * something (an effect: maybe Python code): where e reads a module-level
 * value, it is checked again (recheck_globals checked at the statement's
 * start). */
void recheck_globals_mid(em *E, const expr *e) {
  if (!E->nkslots || E->spec || E->exported || !E->rp.s || !E->rp.effect || !reads_itself(e)) return;
  deopt_if(E, NULL, "the module-level value read here, checked again if Python code ran since",
           "DYNAC_GLOBALS_CHANGED(&dynac__G, dynac__kslots, %d, &dynac__kslots_seen)", E->nkslots);
}

/* Before statement s's own code (or a while loop's condition, run again):
 * where its own parts read module-level values, they are checked again if
 * Python code ran since the kernel last looked (a failure continues in
 * the interpreter from s's start). */
void recheck_globals(em *E, const stmt *s) {
  if (!E->nkslots || E->spec || E->exported) return;
  reads_walk W = {0};
  ir_each_part((stmt *)s, &(ir_parts){expr_reads, no_target, no_block, false}, &W);
  if (!W.reads) return;
  deopt_if(E, NULL, "the module-level values the line reads, checked again if Python code ran since",
           "DYNAC_GLOBALS_CHANGED(&dynac__G, dynac__kslots, %d, &dynac__kslots_seen)",
           E->nkslots);
}
