/* fusion.c: whole-array expressions of float64 ndarrays computed in one
 * loop with no temporary arrays. numpy computes `a + k * (b - c)` as three
 * ufunc calls, each into a new array; here the leaves (arrays, views,
 * scalars) are evaluated first, then one loop writes each item of a new
 * C-contiguous array, every operation rounded to a double as numpy's own
 * loop rounds it, so the items are bit-identical. Where numpy would warn
 * (the FPU's divide-by-zero, overflow or invalid flag after the loop; an
 * underflow numpy's mode reports), or the arrays' shapes or layouts are not
 * the plain case (broadcasting, a Fortran-ordered operand), the kernel
 * drops the loop's result and runs numpy's own operations on the same
 * leaves, which give numpy's answer and warning.
 */
#include "emit.h"

#include <ctype.h>

#define FUSE_MAX_LEAVES 24
#define FUSE_MAX_STAGES 8

typedef struct fuse_plan {
  const expr *leaves[FUSE_MAX_LEAVES]; /* in evaluation order */
  int nleaves, ndim;
  bool arrays;      /* some leaf is an array */
  int ops_done;     /* operations the interpreter completes before the next leaf */
  const expr *stages[FUSE_MAX_STAGES]; /* calls of numpy's own loops, in post-order */
  int nstages;
} fuse_plan;

/* np.NAME(x) or np.NAME(x, y) of the numpy module that a loop computes: the
 * name (sqrt, absolute, floor: in C, as numpy computes them; the other
 * ufuncs of ops.c's table by numpy's own float64 loop, a block of items at
 * a time: staged, since numpy's SIMD exp or log differ from libm in the
 * last bit), or NULL. */
static const char *fused_ufunc(em *E, const expr *e) {
  if (e->kind != EX_CALL || e->u.call.kind != CALLEE_METHOD || e->u.call.nkw) return NULL;
  const char *n = numpy_callee(E->m, e); /* np.NAME (the module, then its attribute) */
  if (!n) return NULL;
  if (e->u.call.n == 4 && !strcmp(n, "where")) { /* np.where(a OP b, x, y): numpy's function, not a ufunc */
    const expr *c = e->u.call.args[1];
    return c->kind == EX_COMPARE && c->u.cmp.n == 2 && c->u.cmp.ops[0] <= CMP_NE && TY(c)->kind == TY_OBJ ? n : NULL;
  }
  if (e->u.call.n == 2 && (!strcmp(n, "sqrt") || !strcmp(n, "floor"))) return n;
  if (e->u.call.n == 2 && (!strcmp(n, "abs") || !strcmp(n, "absolute"))) return "absolute";
  return ops_find(OPS_NP_UFUNC, n, e->u.call.n - 1) ? n : NULL;
}
static const char *operator_ufunc(const expr *e);
static bool staged(em *E, const expr *e) {
  if (operator_ufunc(e)) return true;
  const char *u = fused_ufunc(E, e);
  return u && strcmp(u, "sqrt") && strcmp(u, "floor") && strcmp(u, "absolute") && strcmp(u, "where");
}
static bool is_where(em *E, const expr *e) {
  const char *u = fused_ufunc(E, e);
  return u && !strcmp(u, "where");
}
/* The operands of call e a loop computes: the arguments, a where's
 * condition's two operands in its place. */
static int call_operands(em *E, const expr *e, const expr **out) {
  int n = 0;
  for (int i = 1; i < e->u.call.n; i++) {
    const expr *a = e->u.call.args[i];
    if (i == 1 && is_where(E, e)) out[n++] = a->u.cmp.operands[0], out[n++] = a->u.cmp.operands[1];
    else out[n++] = a;
  }
  return n;
}

/* x ** c with a literal exponent numpy's power computes by a shortcut for
 * an array (fast_scalar_power): 2 squares (x * x), 0.5 is a square root,
 * -1 a reciprocal (1.0 / x), 1 a copy: its letter ('2', 'h', 'r', '1'), or 0. */
static char power_shortcut(const expr *e) {
  if (e->kind != EX_BINOP || e->u.bin.op != OP_POW) return 0;
  const expr *c = e->u.bin.r;
  bool neg = c->kind == EX_UNARY && c->u.un.op == UN_NEG;
  if (neg) c = c->u.un.a;
  double v = c->kind == EX_INT ? (double)c->u.i : c->kind == EX_FLOAT ? c->u.f : 0.0;
  if (c->kind != EX_INT && c->kind != EX_FLOAT) return 0;
  if (neg) v = -v;
  return v == 2.0 ? '2' : v == 0.5 ? 'h' : v == -1.0 ? 'r' : v == 1.0 ? '1' : 0;
}

/* x ** c with such a literal: the literal is no operand of the loop. */
static bool literal_power(const expr *e) {
  return power_shortcut(e) != 0;
}
/* a // b, a % b, a ** b (no shortcut): numpy's own float64 loop of the
 * ufunc ndarray's operator calls (floor_divide, remainder, power), staged
 * as np.exp is; its name, or NULL. */
static const char *operator_ufunc(const expr *e) {
  if (e->kind != EX_BINOP || e->u.bin.inplace) return NULL;
  if (e->u.bin.op == OP_FLOORDIV) return "floor_divide";
  if (e->u.bin.op == OP_MOD) return "remainder";
  return e->u.bin.op == OP_POW && !literal_power(e) ? "power" : NULL;
}
/* The operands of stage e (a call of a ufunc, or an operator): 1 or 2. */
static int stage_operands(const expr *e, const expr **a, const expr **b) {
  if (e->kind == EX_BINOP) {
    *a = e->u.bin.l, *b = e->u.bin.r;
    return 2;
  }
  *a = e->u.call.args[1], *b = e->u.call.n == 3 ? e->u.call.args[2] : NULL;
  return e->u.call.n - 1;
}
static const char *stage_name(const expr *e) {
  return e->kind == EX_BINOP ? operator_ufunc(e) : e->u.call.name;
}

/* Is e `a op v` of a op= v with + - * /, typed as a float64 ndarray `a`
 * (infer/arrays.c inplace_array_type: numpy writes a and gives it back)? */
static bool is_inplace(em *E, const expr *e) {
  return e->kind == EX_BINOP && e->u.bin.inplace && ty_is_ndarray(TY(e)) && TY(e)->fmt == 'd' &&
         e->u.bin.op <= OP_TRUEDIV;
}

/* Is e an operation of the loop: + - * / of float64 arrays and numbers,
 * ** 2, ** 0.5, ** -1, ** 1 (numpy's shortcuts), // % and other ** (staged:
 * operator_ufunc), unary -, np.sqrt, np.abs, np.floor, staged ufuncs? */
static bool fused_op(em *E, const expr *e) {
  if (is_inplace(E, e)) return true; /* the root of a op= v (fusible_inplace) */
  if (TY(e)->kind != TY_OBJ || E->in->types.callee[e->id]) return false;
  if (e->kind == EX_BINOP) {
    binop op = e->u.bin.op;
    return !e->u.bin.inplace && (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_TRUEDIV ||
                                 power_shortcut(e) || operator_ufunc(e));
  }
  if (e->kind == EX_UNARY) return e->u.un.op == UN_NEG;
  return fused_ufunc(E, e) != NULL;
}

/* A view numpy's slicing gives without fail (every index part a slice or
 * a new axis: x[:, np.newaxis]). */
static bool slice_view(em *E, const expr *e) {
  if (!ty_is_ndarray(TY(e))) return false;
  if (e->kind == EX_SLICE) return e->u.slice.obj != NULL;
  if (e->kind != EX_SUBSCRIPT || e->u.sub.index->kind != EX_TUPLE) return false;
  const expr *ix = e->u.sub.index;
  for (int i = 0; i < ix->u.tuple.n; i++)
    if (ix->u.tuple.elts[i]->kind != EX_SLICE && !is_newaxis(E->m, ix->u.tuple.elts[i])) return false;
  return true;
}

/* A row a[i] (or another view numpy's indexing may refuse with an
 * IndexError), or an array numpy's function makes (np.dot(A, x),
 * np.cumsum(a): typed, infer/arrays.c), evaluated before any operation of
 * the tree completes, so it fails where the interpreter would: (A[i] -
 * B[j]) ** 2, np.dot(A, x) * 2.0 - y. */
static bool early_view(const expr *e, const fuse_plan *p) {
  return p->ops_done == 0 && (e->kind == EX_SUBSCRIPT || e->kind == EX_SLICE || e->kind == EX_CALL);
}

/* Is e a number computed in C from numbers, locals, numpy's constants and
 * numpy's ufuncs of numbers (`np.sqrt(2 * np.pi) * sigma`): no Python code
 * runs (an exception or a deoptimisation may leave, before any array is
 * written)? */
static bool pure_number(em *E, const expr *e) {
  const type *t = TY(e);
  if (t->kind != TY_FLOAT && t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_NP && t->kind != TY_NUM)
    return false;
  switch (e->kind) {
  case EX_INT: case EX_FLOAT: case EX_BOOL: return true;
  case EX_LOCAL: return E->bound[e->u.local];
  case EX_ATTR: return names_numpy(E->m, e->u.sub.obj); /* np.pi */
  case EX_UNARY: return pure_number(E, e->u.un.a);
  case EX_BINOP: return !E->in->types.callee[e->id] && pure_number(E, e->u.bin.l) && pure_number(E, e->u.bin.r);
  case EX_CALL:
    if (!np_ufunc_row(E->m, e)) return false;
    for (int i = 1; i < e->u.call.n; i++)
      if (!pure_number(E, e->u.call.args[i])) return false;
    return true;
  default: return false;
  }
}

/* A leaf: a float64 array (a local or a slice of one) or a number that
 * evaluates without running code (evaluated before the loop). */
static bool fused_leaf(em *E, const expr *e, fuse_plan *p) {
  const type *t = TY(e);
  bool array = ty_is_ndarray(t) && t->fmt == 'd' && (e->kind == EX_LOCAL || slice_view(E, e) || early_view(e, p));
  bool number = (t->kind == TY_FLOAT || t->kind == TY_INT || t->kind == TY_NUM ||
                 (t->kind == TY_NP && t->fmt == 'd')) && (quiet(E, e) || pure_number(E, e));
  if (!array && !number) return false;
  if (array) p->arrays = true, p->ndim = t->ndim > p->ndim ? t->ndim : p->ndim; /* a 1-D leaf of a 2-D loop: a row
                                                                                  for every row (broadcast) */
  if (p->nleaves == FUSE_MAX_LEAVES) return false;
  p->leaves[p->nleaves++] = e;
  return true;
}

static bool plan_tree(em *E, const expr *e, fuse_plan *p) {
  if (!fused_op(E, e)) return fused_leaf(E, e, p);
  bool ok;
  switch (e->kind) {
  case EX_BINOP:
    ok = plan_tree(E, e->u.bin.l, p) && (literal_power(e) || plan_tree(E, e->u.bin.r, p));
    if (ok && staged(E, e)) {
      if (p->nstages == FUSE_MAX_STAGES) return false;
      p->stages[p->nstages++] = e;
    }
    break;
  case EX_UNARY: ok = plan_tree(E, e->u.un.a, p); break;
  default: {
    const expr *ops[4];
    int n = call_operands(E, e, ops);
    ok = true;
    for (int i = 0; ok && i < n; i++) {
      ok = plan_tree(E, ops[i], p);
      if (i == 1 && is_where(E, e)) p->ops_done++; /* the comparison */
    }
    if (ok && staged(E, e)) {
      if (p->nstages == FUSE_MAX_STAGES) return false;
      p->stages[p->nstages++] = e;
    }
    break;
  }
  }
  p->ops_done++;
  return ok;
}

/* Can e be computed by one loop (the root of such a tree, of float64
 * arrays)? */
static bool fusible(em *E, const expr *e, fuse_plan *p) {
  *p = (fuse_plan){0};
  return !E->exported && !is_inplace(E, e) && fused_op(E, e) && plan_tree(E, e, p) && p->arrays;
}
/* Can a op= v (e: `a op v`) be computed by one loop: `a` a float64 array
 * (a local, a slice or row of one: the first leaf), v a tree of the loop's
 * operations or a leaf? */
static bool fusible_inplace(em *E, const expr *e, fuse_plan *p) {
  *p = (fuse_plan){0};
  return !E->exported && is_inplace(E, e) && plan_tree(E, e, p) && p->nleaves > 0 && p->leaves[0] == e->u.bin.l &&
         TY(e->u.bin.l)->ndim == p->ndim; /* (a 1-D a cannot take a 2-D value: numpy's error) */
}

/* Item (i, j) of tree e as statements of the loop's body, one per node
 * (`const double vN = ...;`, so a square's operand is computed once); its
 * C name. `vals`: the leaves' C values (an array leaf k is read as xk, a
 * number is sk). */
static const char *item_value(em *E, const expr *e, const fuse_plan *p, strbuf *body, int *n) {
  for (int k = 0; k < p->nleaves; k++)
    if (p->leaves[k] == e) return arena_printf(E->m->a, ty_is_ndarray(TY(e)) ? "x%d" : "s%d", k);
  const char *v = arena_printf(E->m->a, "v%d", ++*n);
  if (staged(E, e)) { /* numpy's loop gave the block's items */
    int k = 0;
    while (p->stages[k] != e) k++;
    sb_printf(body, "const double %s = u%d[j];\n", v, k);
  } else if (literal_power(e)) { /* numpy's shortcuts */
    const char *a = item_value(E, e->u.bin.l, p, body, n);
    char k = power_shortcut(e);
    sb_printf(body, k == '2' ? "const double %s = %s * %s;\n" : k == 'h' ? "const double %s = dynac_sqrt(%s);\n"
                    : k == 'r' ? "const double %s = 1.0 / %s;\n" : "const double %s = %s;\n", v, a, a);
  } else if (e->kind == EX_BINOP) {
    const char *a = item_value(E, e->u.bin.l, p, body, n);
    const char *b = item_value(E, e->u.bin.r, p, body, n);
    sb_printf(body, "const double %s = %s %s %s;\n", v, a, binop_spelling[e->u.bin.op], b);
  } else if (e->kind == EX_UNARY) {
    sb_printf(body, "const double %s = -%s;\n", v, item_value(E, e->u.un.a, p, body, n));
  } else if (is_where(E, e)) { /* np.where(a OP b, x, y): both chosen values computed, as numpy does */
    const expr *c = e->u.call.args[1];
    static const char *const quiet_cmp[] = {"isless", "islessequal", "isgreater", "isgreaterequal"};
    const char *a = item_value(E, c->u.cmp.operands[0], p, body, n);
    const char *b = item_value(E, c->u.cmp.operands[1], p, body, n);
    const char *x = item_value(E, e->u.call.args[2], p, body, n);
    const char *y = item_value(E, e->u.call.args[3], p, body, n);
    cmpop op = c->u.cmp.ops[0];
    if (op <= CMP_GE) /* a quiet comparison: nan sets no flag, as numpy's compares none */
      sb_printf(body, "const double %s = %s(%s, %s) ? %s : %s;\n", v, quiet_cmp[op], a, b, x, y);
    else sb_printf(body, "const double %s = %s %s %s ? %s : %s;\n", v, a, cmpop_spelling[op], b, x, y);
  } else {
    const char *a = item_value(E, e->u.call.args[1], p, body, n);
    const char *u = fused_ufunc(E, e);
    sb_printf(body, "const double %s = %s(%s);\n", v, !strcmp(u, "absolute") ? "fabs" : u, a);
  }
  return v;
}

/* The loop function's parameters (its leaves, then each stage's loop) and
 * the test that every inner stride is a double's. */
static void loop_params(em *E, const fuse_plan *p, strbuf *params, strbuf *unit) {
  sb_puts(params, "Py_ssize_t n0, Py_ssize_t n1, char *o, Py_ssize_t os, Py_ssize_t ou");
  sb_puts(unit, "ou == (Py_ssize_t)sizeof(double)");
  for (int k = 0; k < p->nleaves; k++) {
    if (ty_is_ndarray(TY(p->leaves[k]))) {
      sb_printf(params, ", const char *b%d, Py_ssize_t st%d, Py_ssize_t su%d", k, k, k);
      sb_printf(unit, " && su%d == (Py_ssize_t)sizeof(double)", k);
    } else sb_printf(params, ", double s%d", k);
  }
  for (int k = 0; k < p->nstages; k++) sb_printf(params, ", dynac_ufunc_loop lf%d, void *ld%d", k, k);
}

/* Writes `code` (lines) into h, each line indented by `ind`. */
static void put_lines(strbuf *h, const char *code, const char *ind) {
  for (const char *l = code, *nl; l && *l; l = nl + 1) {
    nl = strchr(l, '\n');
    sb_printf(h, "%s%.*s\n", ind, (int)(nl - l), l);
  }
}

/* Does `code` read array leaf k (its item xk)? */
static bool reads_leaf(const char *code, int k) {
  char tok[16];
  snprintf(tok, sizeof tok, "x%d", k);
  for (const char *q = strstr(code, tok); q; q = strstr(q + 1, tok))
    if ((q == code || !isalnum((unsigned char)q[-1])) && !isdigit((unsigned char)q[strlen(tok)])) return true;
  return false;
}
/* One pass over items j0 .. j0 + m of a row: the array leaves' items the
 * code reads (unit inner strides or any), then `code`. */
static void put_item_loop(strbuf *h, const fuse_plan *p, em *E, bool any, const char *code) {
  sb_puts(h, "        for (Py_ssize_t j = 0; j < m; j++) {\n");
  for (int k = 0; k < p->nleaves; k++)
    if (ty_is_ndarray(TY(p->leaves[k])) && reads_leaf(code, k))
      sb_printf(h, any ? "          const double x%d = *(const double *)(r%d + (j0 + j) * su%d);\n"
                       : "          const double x%d = r%d[j0 + j];\n", k, k, k);
  put_lines(h, code, "          ");
  sb_puts(h, "        }\n");
}

/* Tree e with calls of numpy's own loops (np.exp, np.maximum, ...): each
 * row goes by blocks of DYNAC_FUSE_BLOCK items; per block, each stage (in
 * post-order) computes its arguments item by item into a buffer and calls
 * numpy's loop on the block (inputs and output apart, contiguous: numpy's
 * SIMD path, so its bits), then the rest of the tree reads the stages'
 * results. */
static const char *staged_loop_function(em *E, const expr *e, const fuse_plan *p, const char *name) {
  strbuf params = {0}, unit = {0}, h = {0};
  loop_params(E, p, &params, &unit);
  int n = 0;
  sb_printf(&h, "/* line %d: the whole-array expression's items, by blocks, numpy's loops between (fusion.c) */\n",
            e->pos.line);
  sb_printf(&h, "DYNAC_FUSED_LOOP static void %s(%s) {\n", name, params.data);
  for (int k = 0; k < p->nstages; k++) { /* apart: numpy's SIMD loops take libm's path where they touch */
    const expr *a, *b;
    bool two = stage_operands(p->stages[k], &a, &b) == 2;
    sb_printf(&h, "  double sb%d[3 * DYNAC_FUSE_BLOCK + 16];\n", k);
    sb_printf(&h, "  double *const ua%d = sb%d, *const u%d = sb%d + 2 * DYNAC_FUSE_BLOCK + 16;\n", k, k, k, k);
    if (two) sb_printf(&h, "  double *const ub%d = sb%d + DYNAC_FUSE_BLOCK + 8;\n", k, k);
  }
  for (int pass = 0; pass < 2; pass++) {
    sb_puts(&h, pass ? "  } else {\n" : "");
    if (!pass) sb_printf(&h, "  if (%s) {\n", unit.data);
    sb_puts(&h, "    for (Py_ssize_t i = 0; i < n0; i++) {\n");
    sb_puts(&h, "      char *row = o + i * os;\n");
    for (int k = 0; k < p->nleaves; k++)
      if (ty_is_ndarray(TY(p->leaves[k])))
        sb_printf(&h, pass ? "      const char *r%d = b%d + i * st%d;\n"
                           : "      const double *r%d = (const double *)(b%d + i * st%d);\n", k, k, k);
    sb_puts(&h, "      for (Py_ssize_t j0 = 0; j0 < n1; j0 += DYNAC_FUSE_BLOCK) {\n");
    sb_puts(&h, "        const Py_ssize_t m = n1 - j0 < DYNAC_FUSE_BLOCK ? n1 - j0 : DYNAC_FUSE_BLOCK;\n");
    for (int k = 0; k < p->nstages; k++) {
      const expr *c = p->stages[k], *x, *y;
      bool two = stage_operands(c, &x, &y) == 2;
      strbuf code = {0};
      const char *a = item_value(E, x, p, &code, &n);
      sb_printf(&code, "ua%d[j] = %s;\n", k, a);
      if (two) sb_printf(&code, "ub%d[j] = %s;\n", k, item_value(E, y, p, &code, &n));
      put_item_loop(&h, p, E, pass, code.data);
      sb_free(&code);
      sb_printf(&h, "        { /* np.%s on the block */\n", stage_name(c));
      sb_printf(&h, "          char *args[3] = {(char *)ua%d, (char *)%s%d, (char *)u%d};\n", k,
                two ? "ub" : "u", k, k);
      sb_puts(&h, "          const Py_ssize_t dims[1] = {m}, steps[3] = {sizeof(double), sizeof(double), sizeof(double)};\n");
      sb_printf(&h, "          const int fl = dynac_fpe_flags(); /* numpy's loop may clear them */\n");
      sb_printf(&h, "          lf%d(args, dims, steps, ld%d);\n", k, k);
      sb_printf(&h, "          dynac_fpe_add(fl);\n        }\n");
    }
    strbuf code = {0};
    const char *v = item_value(E, e, p, &code, &n);
    sb_printf(&code, pass ? "*(double *)(row + (j0 + j) * ou) = %s;\n" : "((double *)row)[j0 + j] = %s;\n", v);
    put_item_loop(&h, p, E, pass, code.data);
    sb_free(&code);
    sb_puts(&h, "      }\n    }\n");
  }
  sb_puts(&h, "  }\n}\n\n");
  sb_puts(E->helpers, h.data);
  sb_free(&params), sb_free(&unit), sb_free(&h);
  return name;
}

/* The items of tree e as a function of their own, written before the
 * kernel: rows i < n0 of n1 items, item (i, j) of array leaf k at
 * bk + i * stk + j * suk, stored at o + i * os + j * ou (bytes). A 1-D
 * expression is one row. Where every inner stride is a double's (rows of
 * C-ordered arrays), the loop indexes double pointers, which the compiler
 * vectorises (dynac.h's DYNAC_FUSED_LOOP: clones for AVX-512 and AVX2 where
 * the compiler makes them); element-wise operations vectorised round each
 * item as the scalar ones do. Returns the function's name. */
static const char *loop_function(em *E, const expr *e, const fuse_plan *p) {
  const char *name = arena_printf(E->m->a, "dynac_fused_%s_%d", E->fused_prefix, ++E->nfused);
  if (p->nstages) return staged_loop_function(E, e, p, name);
  strbuf body = {0}, params = {0}, unit = {0}, h = {0};
  int n = 0;
  const char *v = item_value(E, e, p, &body, &n);
  loop_params(E, p, &params, &unit);
  sb_printf(&h, "/* line %d: the whole-array expression's items, one loop (fusion.c) */\n", e->pos.line);
  sb_printf(&h, "DYNAC_FUSED_LOOP static void %s(%s) {\n", name, params.data);
  for (int pass = 0; pass < 2; pass++) { /* unit inner strides, then any */
    if (pass) sb_puts(&h, "  } else {\n");
    else sb_printf(&h, "  if (%s) {\n", unit.data);
    sb_puts(&h, "    for (Py_ssize_t i = 0; i < n0; i++) {\n");
    sb_puts(&h, pass ? "      char *row = o + i * os;\n" : "      double *restrict row = (double *)(o + i * os);\n");
    for (int k = 0; k < p->nleaves; k++)
      if (ty_is_ndarray(TY(p->leaves[k])))
        sb_printf(&h, pass ? "      const char *r%d = b%d + i * st%d;\n"
                           : "      const double *restrict r%d = (const double *)(b%d + i * st%d);\n", k, k, k);
    sb_puts(&h, "      for (Py_ssize_t j = 0; j < n1; j++) {\n");
    for (int k = 0; k < p->nleaves; k++)
      if (ty_is_ndarray(TY(p->leaves[k]))) {
        if (pass) sb_printf(&h, "        const double x%d = *(const double *)(r%d + j * su%d);\n", k, k, k);
        else sb_printf(&h, "        const double x%d = r%d[j];\n", k, k);
      }
    for (char *l = body.data, *nl; l && *l; l = nl + 1) {
      nl = strchr(l, '\n');
      sb_printf(&h, "        %.*s\n", (int)(nl - l), l);
    }
    sb_printf(&h, pass ? "        *(double *)(row + j * ou) = %s;\n" : "        row[j] = %s;\n", v);
    sb_puts(&h, "      }\n    }\n");
  }
  sb_puts(&h, "  }\n}\n\n");
  sb_puts(E->helpers, h.data);
  sb_free(&body), sb_free(&params), sb_free(&unit), sb_free(&h);
  return name;
}

/* Is leaf k of plan p a 1-D array in a 2-D loop (numpy broadcasts it: the
 * same row for every row)? */
static bool row_broadcast(em *E, const fuse_plan *p, int k) {
  const type *t = TY(p->leaves[k]);
  return ty_is_ndarray(t) && t->ndim < p->ndim;
}

/* The call of tree e's loop function: rows and items per row of the
 * first array leaf `a` (1-D: one row), output base and strides, the
 * leaves' views and numbers. `lo`: the first item (a fused sum's block),
 * or NULL. */
static void emit_item_loop(em *E, const expr *e, const fuse_plan *p, const char *const *vals,
                           const char *const *loops, const char *a, const char *to) {
  const char *fn = loop_function(E, e, p);
  strbuf args = {0};
  bool blk = to && !strcmp(to, "blk");
  if (p->ndim == 2) sb_printf(&args, "%s->len, %s->len1", a, a);
  else sb_printf(&args, "1, %s", blk ? "m" : arena_printf(E->m->a, "%s->len", a));
  if (blk) sb_puts(&args, ", (char *)blk, 0, (Py_ssize_t)sizeof(double)");
  else if (!to) sb_printf(&args, ", (char *)out, %s, (Py_ssize_t)sizeof(double)",
                          p->ndim == 2 ? arena_printf(E->m->a, "%s->len1 * (Py_ssize_t)sizeof(double)", a) : "0");
  else if (p->ndim == 2) sb_printf(&args, ", %s.buf, %s.stride, %s.stride1", to, to, to);
  else sb_printf(&args, ", %s.buf, 0, %s.stride", to, to);
  for (int k = 0; k < p->nleaves; k++) {
    const char *v = vals[k];
    if (!ty_is_ndarray(TY(p->leaves[k]))) sb_printf(&args, ", s%d", k);
    else if (row_broadcast(E, p, k)) /* each row: the same */
      sb_printf(&args, ", %s->buf, 0, DYNAC_BSTRIDE(%s->len, %s->stride)", v, v, v);
    else if (p->ndim == 2) /* an axis of length 1 broadcast: stride 0 */
      sb_printf(&args, ", %s->buf, DYNAC_BSTRIDE(%s->len, %s->stride), DYNAC_BSTRIDE(%s->len1, %s->stride1)", v, v,
                v, v, v);
    else if (blk) sb_printf(&args, ", %s->buf + lo * %s->stride, 0, %s->stride", v, v, v);
    else sb_printf(&args, ", %s->buf, 0, %s->stride", v, v);
  }
  for (int k = 0; k < p->nstages; k++) {
    const char *c = loops[p->stages[k]->id];
    sb_printf(&args, ", %s.loop, %s.data", c, c);
  }
  line(E, "%s(%s);", fn, args.data);
  sb_free(&args);
}

static bool is_leaf(const expr *e, const fuse_plan *p) {
  for (int k = 0; k < p->nleaves; k++)
    if (p->leaves[k] == e) return true;
  return false;
}

/* numpy's own operations of tree e on the leaves' values (boxed): the
 * result object, a new reference. `ufuncs`: the functions the calls named
 * (looked up before their arguments, as the interpreter does). Each
 * operation's result is a temporary the next consumes and releases at
 * once, numpy computing into it where it may (its temporary elision), as
 * in the interpreter. */
static const char *generic_tree(em *E, const expr *e, const fuse_plan *p, const char *const *vals,
                                const char *const *ufuncs, const char *const *objs) {
  for (int k = 0; k < p->nleaves; k++)
    if (p->leaves[k] == e && objs[k]) { /* a row read in place: numpy's view, as the interpreter has it */
      const char *o = tmpvar(E, &ty_obj);
      line(E, "%s = %s;", o, objs[k]);
      line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
      return o;
    } else if (p->leaves[k] == e) return keep(E, as_obj(E, vals[k], TY(e)), &ty_obj);
  const char *o = tmpvar(E, &ty_obj);
  const char *consumed[2] = {NULL, NULL};
  if (e->kind == EX_BINOP) {
    bool pow = literal_power(e);
    const char *l = generic_tree(E, e->u.bin.l, p, vals, ufuncs, objs);
    const char *r = pow ? as_obj(E, emit_expr(E, e->u.bin.r), TY(e->u.bin.r)) /* the literal */
                        : generic_tree(E, e->u.bin.r, p, vals, ufuncs, objs);
    bool lt = !is_leaf(e->u.bin.l, p), rt = !pow && !is_leaf(e->u.bin.r, p);
    line(E, "%s = dynac_obj_binop_temps(%s, %s, %d, %d, %d, &dynac__effects); /* %s */", o, l, r,
         (int)e->u.bin.op, lt, rt, binop_spelling[e->u.bin.op]);
    consumed[0] = lt ? l : NULL, consumed[1] = rt ? r : NULL;
  } else if (e->kind == EX_UNARY) {
    const char *a = generic_tree(E, e->u.un.a, p, vals, ufuncs, objs);
    line(E, "%s = dynac_obj_unary(%s, %d, &dynac__effects); /* - */", o, a, (int)UN_NEG);
    consumed[0] = is_leaf(e->u.un.a, p) ? NULL : a;
  } else if (is_where(E, e)) { /* the comparison (numpy's), then numpy's where */
    const expr *c = e->u.call.args[1];
    static const char *const rich[] = {"Py_LT", "Py_LE", "Py_GT", "Py_GE", "Py_EQ", "Py_NE"};
    const char *a = generic_tree(E, c->u.cmp.operands[0], p, vals, ufuncs, objs);
    const char *b = generic_tree(E, c->u.cmp.operands[1], p, vals, ufuncs, objs);
    const char *m = tmpvar(E, &ty_obj);
    line(E, "%s = PyObject_RichCompare(%s, %s, %s); /* %s */", m, a, b, rich[c->u.cmp.ops[0]],
         cmpop_spelling[c->u.cmp.ops[0]]);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", m, where(E));
    const char *x = generic_tree(E, e->u.call.args[2], p, vals, ufuncs, objs);
    const char *y = generic_tree(E, e->u.call.args[3], p, vals, ufuncs, objs);
    line(E, "%s = PyObject_CallFunctionObjArgs(%s, %s, %s, %s, NULL); /* np.where */", o, ufuncs[e->id], m, x, y);
    line(E, "Py_CLEAR(%s); /* consumed */", m);
    consumed[0] = is_leaf(e->u.call.args[2], p) ? NULL : x;
    consumed[1] = is_leaf(e->u.call.args[3], p) ? NULL : y;
  } else {
    const char *f = ufuncs[e->id];
    const char *a = generic_tree(E, e->u.call.args[1], p, vals, ufuncs, objs);
    const char *b = e->u.call.n == 3 ? generic_tree(E, e->u.call.args[2], p, vals, ufuncs, objs) : NULL;
    line(E, "%s = PyObject_CallFunctionObjArgs(%s, %s, %s%sNULL); /* np.%s */", o, f, a, b ? b : "", b ? ", " : "",
         e->u.call.name);
    consumed[0] = is_leaf(e->u.call.args[1], p) ? NULL : a;
    consumed[1] = !b || is_leaf(e->u.call.args[2], p) ? NULL : b;
  }
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  for (int i = 0; i < 2; i++)
    if (consumed[i]) line(E, "Py_CLEAR(%s); /* consumed */", consumed[i]);
  return o;
}

/* Leaf a[i] of a 2-D float64 array: the row read in place (a view of no
 * object: no numpy view made), *obj the C expression that makes numpy's
 * view where the generic path needs it; numpy's IndexError when i is out
 * of range. The row's C value, or NULL when e is no such row. */
static const char *row_leaf(em *E, const expr *e, const char **obj) {
  if (e->kind != EX_SUBSCRIPT || e->u.sub.index->kind == EX_TUPLE) return NULL;
  const type *at = TY(e->u.sub.obj), *it = TY(e->u.sub.index);
  if (!ty_is_ndarray(at) || at->ndim != 2 || at->fmt != 'd' || (it->kind != TY_INT && !(it->kind == TY_NP && it->fmt != '?' &&
      !np_is_float(it->fmt))))
    return NULL;
  const char *a = keep(E, emit_expr(E, e->u.sub.obj), at);
  const char *i = keep(E, as_int(E, emit_expr(E, e->u.sub.index), it), &ty_int);
  int n = ++E->tmp;
  line(E, "dynac_view rv%d; /* a row, read in place */", n);
  *obj = arena_printf(E->m->a, "dynac_row_object(%s, %s)", a, i);
  line(E, "if (!dynac_row_view(%s, %s, &rv%d)) { /* numpy's IndexError */", a, i, n);
  line(E, "  PyObject *r = %s;", *obj);
  line(E, "  if (!r) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  line(E, "  Py_DECREF(r);");
  line(E, "  return DYNAC_DEOPT; /* (cannot happen) */");
  line(E, "}");
  return arena_printf(E->m->a, "(&rv%d)", n);
}

/* Evaluates the leaves of tree e in the interpreter's order (an ufunc's
 * function before its arguments), vals[k] the C value of leaf k; the
 * function objects go to ufuncs[call id], a stage's loop cache to
 * loops[call id]. */
static void eval_leaves(em *E, const expr *e, const fuse_plan *p, const char **vals, const char **ufuncs,
                        const char **loops, const char **objs) {
  for (int k = 0; k < p->nleaves; k++)
    if (p->leaves[k] == e) {
      objs[k] = NULL;
      vals[k] = row_leaf(E, e, &objs[k]);
      if (vals[k]) return; /* (no object: the interpreter would index it again) */
      vals[k] = keep(E, emit_expr(E, (expr *)e), TY(e));
      push_pending(E, e, vals[k]);
      return;
    }
  if (e->kind == EX_BINOP) {
    eval_leaves(E, e->u.bin.l, p, vals, ufuncs, loops, objs);
    if (!literal_power(e)) eval_leaves(E, e->u.bin.r, p, vals, ufuncs, loops, objs);
    if (operator_ufunc(e)) { /* the operator's ufunc: numpy's own (ndarray's number protocol calls it) */
      int t = ++E->tmp;
      line(E, "static PyObject *op%d; /* numpy's %s ufunc */", t, operator_ufunc(e));
      ufuncs[e->id] = arena_printf(E->m->a, "(op%d ? op%d : dynac_np_operator_ufunc(\"%s\", &op%d))", t, t,
                                   operator_ufunc(e), t);
      loops[e->id] = arena_printf(E->m->a, "uc%d", ++E->tmp);
      line(E, "static dynac_ufunc_cache %s; /* numpy's %s float64 loop */", loops[e->id], operator_ufunc(e));
    }
  } else if (e->kind == EX_UNARY) {
    eval_leaves(E, e->u.un.a, p, vals, ufuncs, loops, objs);
  } else { /* np.sqrt: LOAD_GLOBAL np, LOAD_METHOD sqrt, then the arguments */
    const char *mod = keep(E, emit_expr(E, e->u.call.args[0]), &ty_obj);
    const char *f = tmpvar(E, &ty_obj);
    line(E, "%s = PyObject_GetAttr(%s, %s);", f, mod, interned_name(E, e->u.call.name));
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", f, where(E));
    ufuncs[e->id] = f;
    if (staged(E, e)) {
      loops[e->id] = arena_printf(E->m->a, "uc%d", ++E->tmp);
      line(E, "static dynac_ufunc_cache %s; /* np.%s's float64 loop */", loops[e->id], e->u.call.name);
    }
    const expr *ops[4];
    int n = call_operands(E, e, ops);
    for (int i = 0; i < n; i++) eval_leaves(E, ops[i], p, vals, ufuncs, loops, objs);
  }
}

/* The calls' functions are numpy's ufuncs of their names (not replaced). */
static void ufuncs_checked(em *E, const expr *e, const fuse_plan *p, const char *const *vals,
                           const char *const *ufuncs, const char *const *loops, strbuf *cond) {
  for (int k = 0; k < p->nleaves; k++)
    if (p->leaves[k] == e) return;
  if (e->kind == EX_BINOP) {
    ufuncs_checked(E, e->u.bin.l, p, vals, ufuncs, loops, cond);
    if (!literal_power(e)) ufuncs_checked(E, e->u.bin.r, p, vals, ufuncs, loops, cond);
    if (operator_ufunc(e))
      sb_printf(cond, " && dynac_np_ufunc_loop(&%s, %s, 2)", loops[e->id], ufuncs[e->id]);
    if (operator_ufunc(e) && e->u.bin.op == OP_POW && !ty_is_ndarray(TY(e->u.bin.r)) && is_leaf(e->u.bin.r, p)) {
      int k = 0; /* array ** number: numpy takes its shortcut for 2, 0.5, -1, 1, 0 (fast_scalar_power) */
      while (p->leaves[k] != e->u.bin.r) k++;
      sb_printf(cond, " && !dynac_np_power_shortcut(%s)", as_double(E, vals[k], TY(e->u.bin.r)));
    }
  } else if (e->kind == EX_UNARY) {
    ufuncs_checked(E, e->u.un.a, p, vals, ufuncs, loops, cond);
  } else {
    if (staged(E, e)) /* whichever numpy ufunc the name holds: its float64 loop */
      sb_printf(cond, " && dynac_np_ufunc_loop(&%s, %s, %d)", loops[e->id], ufuncs[e->id], e->u.call.n - 1);
    else if (is_where(E, e)) sb_printf(cond, " && dynac_np_is_own(%s, \"where\")", ufuncs[e->id]);
    else sb_printf(cond, " && dynac_np_is_ufunc(%s, \"%s\")", ufuncs[e->id], fused_ufunc(E, e));
    const expr *ops[4];
    int n = call_operands(E, e, ops);
    for (int i = 0; i < n; i++) ufuncs_checked(E, ops[i], p, vals, ufuncs, loops, cond);
  }
}

/* The loop's condition: the arrays have one shape (1-D), or 2-D operands
 * broadcast as numpy broadcasts them (dynac_broadcast2: a 1-D one as a
 * row, an axis of length 1 against any; rows that numpy's iterator orders
 * laid out as C orders them: numpy's result is then C-contiguous, as this
 * one), and the ufuncs are numpy's. *shape: the view whose len (and len1)
 * are the loop's shape: the first array leaf (1-D) or the broadcast's. */
static const char *loop_condition(em *E, const expr *e, const fuse_plan *p, const char *const *vals,
                                  const char *const *ufuncs, const char *const *loops, const char **shape) {
  strbuf c = {0};
  if (p->ndim == 2) {
    strbuf vs = {0}, rows = {0};
    int n = 0;
    for (int k = 0; k < p->nleaves; k++)
      if (ty_is_ndarray(TY(p->leaves[k]))) {
        sb_printf(&vs, "%s%s", n++ ? ", " : "", vals[k]);
        sb_printf(&rows, "%d", TY(p->leaves[k])->ndim);
      }
    int t = ++E->tmp;
    line(E, "dynac_view bs%d; /* the operands' broadcast shape */", t);
    sb_printf(&c, "dynac_broadcast2((const dynac_view *const[]){%s}, \"%s\", %d, &bs%d)", vs.data, rows.data, n, t);
    *shape = arena_printf(E->m->a, "(&bs%d)", t);
    sb_free(&vs), sb_free(&rows);
  } else {
    *shape = NULL;
    for (int k = 0; k < p->nleaves; k++) {
      if (!ty_is_ndarray(TY(p->leaves[k]))) continue;
      if (!*shape) *shape = vals[k];
      else sb_printf(&c, "%s%s->len == %s->len", c.data ? " && " : "", vals[k], *shape);
    }
  }
  ufuncs_checked(E, e, p, vals, ufuncs, loops, &c);
  const char *r = arena_strdup(E->m->a, c.data ? (c.data[0] == ' ' ? c.data + 4 : c.data) : "1");
  sb_free(&c);
  return r;
}

/* The leaves of fusible tree e evaluated, and what the loop needs. */
typedef struct fused {
  fuse_plan p;
  const char *vals[FUSE_MAX_LEAVES];
  const char **ufuncs;  /* by call id: the function np.NAME named */
  const char **loops;   /* by call id: a stage's dynac_ufunc_cache */
  const char *objs[FUSE_MAX_LEAVES]; /* a row read in place: how to make numpy's view of it */
  const char *cond;     /* the loop may run */
  const char *a;        /* a view of the loop's shape (the first array leaf, or the broadcast's) */
} fused;

static bool fuse_begin(em *E, expr *e, fused *f) {
  if (!(is_inplace(E, e) ? fusible_inplace(E, e, &f->p) : fusible(E, e, &f->p))) return false;
  f->ufuncs = arena_alloc(E->m->a, sizeof(char *) * (size_t)(E->in->fn->nexprs + 1));
  f->loops = arena_alloc(E->m->a, sizeof(char *) * (size_t)(E->in->fn->nexprs + 1));
  int depth = E->nvstack;
  eval_leaves(E, e, &f->p, f->vals, f->ufuncs, f->loops, f->objs);
  E->nvstack = depth;
  f->cond = loop_condition(E, e, &f->p, f->vals, f->ufuncs, f->loops, &f->a);
  return true;
}

/* The numbers as doubles, the FPU's flags cleared (flags), the loop (into
 * `to`, a view, or the new array's `out`), and `warns` set where numpy
 * would warn (flags: else the caller tests them around more than this loop). */
static void fuse_loop(em *E, expr *e, const fused *f, const char *to, bool flags) {
  for (int k = 0; k < f->p.nleaves; k++)
    if (!ty_is_ndarray(TY(f->p.leaves[k])))
      line(E, "const double s%d = %s;", k, as_double(E, f->vals[k], TY(f->p.leaves[k])));
  if (flags) line(E, "const int fpe = dynac_fpe_begin();");
  emit_item_loop(E, e, &f->p, f->vals, f->loops, f->a, to);
  if (flags) line(E, "const bool warns = dynac_fpe_end(fpe);");
}

/* Where numpy would warn (`cond`): the interpreter runs the statement
 * again from its start (or around the operands an earlier effect left
 * pending), so numpy gives its answer and its warning at this line.
 * Returns false where the interpreter may not go on exactly (an effect
 * before, no continuation): it runs the call again only if no effect
 * happened, else the caller runs numpy's own operations in the kernel,
 * which give numpy's answer and warning (naming the caller's line). */
static bool warns_in_interpreter(em *E, const char *cond) {
  const char *why = "numpy would warn: the interpreter runs this statement, and numpy warns at its line";
  if (warn_in_interpreter_if(E, why, cond) || deopt_if_exact(E, why, cond)) return true;
  line(E, "if (%s && !dynac__effects && DYNAC_UNDO_INTACT()) return DYNAC_DEOPT; /* numpy would warn: the "
          "interpreter runs the call (else numpy's own operations below) */", cond);
  return false;
}

static const char *emit_fused_sum(em *E, expr *e, bool unboxed);

/* np.sum(<whole-array expression>) typed numpy.float64, as a C double: the
 * loop's sum needs no numpy.float64 object; numpy's own call's result (the
 * other way) is unboxed. NULL when e is no such sum. */
const char *emit_fused_sum_value(em *E, expr *e) {
  return emit_fused_sum(E, e, true);
}

const char *emit_fused(em *E, expr *e) {
  const char *sum = emit_fused_sum(E, e, false);
  if (sum) return sum;
  fused f;
  if (!fuse_begin(E, e, &f)) return NULL;
  const char *o = tmpvar(E, &ty_obj);
  line(E, "/* line %d: one loop for the whole-array expression, no temporary arrays */", e->pos.line);
  line(E, "if (%s) {", f.cond);
  E->indent++;
  line(E, "double *out = NULL;");
  line(E, "%s = dynac_np_empty(%d, %s->len, %s->len1, &out);", o, f.p.ndim, f.a, f.a);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  fuse_loop(E, e, &f, NULL, true);
  if (!warns_in_interpreter(E, "warns")) line(E, "if (warns) Py_CLEAR(%s); /* numpy's own operations below */", o);
  E->indent--;
  line(E, "}");
  line(E, "if (!%s) { /* broadcasting, another layout: numpy's operations, one by one */", o);
  E->indent++;
  line(E, "%s = Py_NewRef(%s);", o, generic_tree(E, e, &f.p, f.vals, f.ufuncs, f.objs));
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects);");
  E->indent--;
  line(E, "}");
  note_effect(E);
  return o;
}

/* np.sum(<whole-array expression>) (or np.mean) of 1-D float64 arrays: the items are
 * made block by block (at most 128 at a time, on the stack) and summed as
 * numpy's pairwise summation sums them (dynac.h's dynac_pw_*), so no array
 * is made and the sum is numpy's bit for bit; a numpy.float64. Where numpy
 * would warn, or np.sum is not numpy's, numpy's operations and the call
 * give the answer. */
static const char *emit_fused_sum(em *E, expr *e, bool unboxed) {
  if (e->kind != EX_CALL || e->u.call.kind != CALLEE_METHOD || e->u.call.n > 2 || e->u.call.nkw ||
      e->u.call.argform || (strcmp(e->u.call.name, "sum") && strcmp(e->u.call.name, "mean")))
    return NULL;
  bool mean = !strcmp(e->u.call.name, "mean");
  bool method = e->u.call.n == 1; /* (x * y).sum(): numpy's ndarray.sum, np.sum's own reduction */
  fuse_plan probe;
  expr *arg = e->u.call.args[method ? 0 : 1];
  if ((!method && !numpy_callee(E->m, e)) || !fusible(E, arg, &probe) || probe.ndim != 1) return NULL;
  const char *fn = NULL;
  if (!method) {
    const char *m = keep(E, emit_expr(E, e->u.call.args[0]), &ty_obj); /* LOAD_GLOBAL np, LOAD_METHOD sum */
    fn = tmpvar(E, &ty_obj);
    int t = ++E->tmp;
    line(E, "static dynac_module_attr_cache ma%d; /* np.%s, while numpy's dict is unchanged */", t, e->u.call.name);
    line(E, "%s = dynac_module_attr(&ma%d, %s, %s);", fn, t, m, interned_name(E, e->u.call.name));
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", fn, where(E));
  }
  fused f;
  fuse_begin(E, arg, &f);
  const char *o = tmpvar(E, &ty_obj);
  const char *sv = unboxed ? tmpvar(E, TY(e)) : NULL; /* numpy.float64 */
  const char *got = unboxed ? arena_printf(E->m->a, "got%d", ++E->tmp) : NULL;
  if (unboxed) line(E, "bool %s = false; /* %s: the loop's sum */", got, sv);
  line(E, "/* line %d: np.sum of the whole-array expression, block by block (numpy's pairwise sum) */",
       e->pos.line);
  if (mean) /* the mean of nothing: numpy warns; the interpreter, where it can go on from here (else
                numpy's own call below) */
    deopt_if_exact(E, "the mean of nothing: numpy warns, at this line",
                   arena_printf(E->m->a, "%s && %s->len == 0", f.cond, f.a));
  /* the method of the ndarray numpy would make (a builtin type's: not replaceable) */
  line(E, "if (%s && %s%s) {", f.cond, method ? "1" : arena_printf(E->m->a, "dynac_np_is_own(%s, \"%s\")", fn,
       e->u.call.name), mean ? arena_printf(E->m->a, " && %s->len > 0", f.a) : ""); /* (the mean of nothing warns) */
  E->indent++;
  line(E, "const Py_ssize_t n = %s->len, bs = n <= DYNAC_NP_MIN_BUFSIZE ? DYNAC_NP_MIN_BUFSIZE : dynac_np_bufsize();"
       " /* np.sum's chunks (one when n is at most numpy's smallest buffer) */", f.a);
  line(E, "if (!bs) DYNAC_LEAVE(dynac_traceback_here(%s));", where(E));
  line(E, "const Py_ssize_t nb = dynac_pw_blocks(n < bs ? n : bs, NULL);");
  line(E, "Py_ssize_t lens_here[64]; /* numpy's default buffer: 64 blocks of 128 */");
  line(E, "double sums_here[64];");
  line(E, "Py_ssize_t *lens = nb <= 64 ? lens_here : PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)nb);");
  line(E, "double *sums = nb <= 64 ? sums_here : PyMem_Malloc(sizeof(double) * (size_t)nb);");
  line(E, "if (!lens || !sums) { if (nb > 64) PyMem_Free(lens), PyMem_Free(sums); PyErr_NoMemory(); "
          "DYNAC_LEAVE(dynac_traceback_here(%s)); }", where(E));
  line(E, "double blk[DYNAC_PW_BLOCK];");
  line(E, "double total = 0.0; /* np.add.reduce starts from 0.0 */");
  line(E, "const int fpe = dynac_fpe_begin();");
  line(E, "for (Py_ssize_t c0 = 0; c0 < n; c0 += bs) {");
  E->indent++;
  line(E, "const Py_ssize_t cn = n - c0 < bs ? n - c0 : bs, cb = dynac_pw_blocks(cn, lens);");
  line(E, "Py_ssize_t lo = c0;");
  line(E, "for (Py_ssize_t b = 0; b < cb; lo += lens[b], b++) {");
  E->indent++;
  line(E, "const Py_ssize_t m = lens[b];");
  line(E, "{");
  E->indent++;
  fuse_loop(E, arg, &f, "blk", false);
  E->indent--;
  line(E, "}");
  line(E, "sums[b] = dynac_pw_block(blk, m);");
  E->indent--;
  line(E, "}");
  line(E, "total += dynac_pw_combine(cn, sums);");
  E->indent--;
  line(E, "}");
  line(E, "DYNAC_FP_DONE(total); /* computed before the flags are read */");
  line(E, "const bool warns = dynac_fpe_end(fpe);");
  line(E, "if (nb > 64) PyMem_Free(lens), PyMem_Free(sums);");
  warns_in_interpreter(E, "warns"); /* (else numpy's own operations below) */
  line(E, "if (!warns) {");
  const char *value = mean ? "total / (double)n" : "total"; /* np.mean: the sum's float64 over the count */
  if (unboxed) line(E, "  %s = %s;\n  %s = true;", sv, value, got);
  else {
    line(E, "  %s = dynac_box_np_float64(%s);", o, value);
    line(E, "  if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  }
  line(E, "}");
  E->indent--;
  line(E, "}");
  line(E, "if (!%s) { /* numpy's operations, then its np.sum */", unboxed ? got : o);
  E->indent++;
  const char *v = generic_tree(E, arg, &f.p, f.vals, f.ufuncs, f.objs);
  if (method) line(E, "%s = PyObject_CallMethodNoArgs(%s, %s);", o, v, interned_name(E, e->u.call.name));
  else line(E, "%s = PyObject_CallOneArg(%s, %s);", o, fn, v);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects);");
  if (unboxed) line(E, "%s = %s;", sv, unbox_call_result(E, e, o));
  E->indent--;
  line(E, "}");
  note_effect(E);
  return unboxed ? sv : o;
}

/* Is `sub` (a store's place) a slice of a float64 array of `ndim`
 * dimensions, every index part a slice (a view of as many)? */
static bool slice_target(em *E, const expr *sub, int ndim) {
  const expr *obj = sub->kind == EX_SLICE ? sub->u.slice.obj : sub->u.sub.obj;
  const type *t = TY(obj);
  if (!ty_is_ndarray(t) || t->fmt != 'd' || t->ndim != ndim) return false;
  if (sub->kind == EX_SLICE) return ndim == 1;
  const expr *ix = sub->u.sub.index;
  if (ix->kind != EX_TUPLE || ix->u.tuple.n != ndim) return false;
  for (int i = 0; i < ix->u.tuple.n; i++)
    if (ix->u.tuple.elts[i]->kind != EX_SLICE) return false;
  return true;
}

/* The loop into scratch shaped as the target `to` (a view's C pointer),
 * then, where numpy would not warn (`warns`, which the caller reads), the
 * scratch stored into the target and done<n> set; `release`: statements a
 * failing allocation runs first; `why`: the store's comment. */
static void loop_via_scratch(em *E, expr *e, const fused *f, const char *to, int n, const char *release,
                             const char *why) {
  line(E, "dynac_view sv%d;", n);
  line(E, "if (!dynac_scratch_like(%s, %d, &sv%d)) { %sDYNAC_LEAVE(dynac_traceback_here(%s)); }", to, f->p.ndim, n,
       release, where(E));
  fuse_loop(E, e, f, arena_printf(E->m->a, "sv%d", n), true);
  line(E, "if (!warns) {");
  line(E, "  dynac__effects = 1; /* %s */", why);
  line(E, "  dynac_scratch_store(%s, &sv%d, %d);", to, n, f->p.ndim);
  line(E, "  done%d = true;", n);
  line(E, "}");
  line(E, "dynac_scratch_free(&sv%d);", n);
}

/* a[1:-1, 1:-1] = <whole-array expression>: the loop writes the target's
 * items directly (no new array, no copy) when the target has the
 * expression's shape, is writable and shares no memory with its operands
 * (numpy computes the whole value first); else, or where numpy would warn,
 * the value is numpy's and numpy's setitem stores it. The interpreter's
 * order: the value's leaves, the target array, its index. */
bool emit_fused_store(em *E, stmt *s) {
  target *t = s->u.assign.targets[0];
  expr *sub = t->sub, *e = s->u.assign.value;
  fused f;
  if (s->u.assign.ntargets != 1 || t->is_tuple || !sub || !array_object_place(E->in, sub)) return false;
  fuse_plan probe;
  if (!fusible(E, e, &probe) || !slice_target(E, sub, probe.ndim) || !fuse_begin(E, e, &f)) return false;
  expr *oe = sub->kind == EX_SLICE ? sub->u.slice.obj : sub->u.sub.obj;
  const char *obj = keep(E, emit_expr(E, oe), TY(oe));
  const char *key = view_key(E, sub);
  const char *view = tmpvar(E, &ty_obj);
  line(E, "%s = PyObject_GetItem(%s->obj, %s); /* numpy's view of the target */", view, obj, key);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", view, where(E));
  int n = ++E->tmp;
  line(E, "/* line %d: one loop for the whole-array expression, into the target */", e->pos.line);
  line(E, "Py_buffer tb%d;", n);
  line(E, "dynac_view tv%d;", n);
  line(E, "bool done%d = false, warns%d = false;", n, n);
  line(E, "if (dynac_view_acquire(%s, '%c', 'd', 1, &tb%d, &tv%d)) {", view, f.p.ndim == 2 ? 'N' : 'n', n, n);
  E->indent++;
  strbuf c = {0}, apart = {0};
  sb_printf(&c, "%s && !tv%d.readonly && tv%d.len == %s->len", f.cond, n, n, f.a);
  if (f.p.ndim == 2) sb_printf(&c, " && tv%d.len1 == %s->len1", n, f.a);
  for (int k = 0; k < f.p.nleaves; k++)
    if (ty_is_ndarray(TY(f.p.leaves[k])))
      sb_printf(&apart, "%sdynac_view_disjoint(&tv%d, %s)", apart.data ? " && " : "", n, f.vals[k]);
  line(E, "if (%s) {", c.data);
  E->indent++;
  line(E, "if (%s) { /* the target shares no memory with an operand: the loop writes it */", apart.data);
  E->indent++;
  line(E, "dynac__effects = 1; /* the target's items change, as numpy's setitem changes them */");
  line(E, "done%d = true;", n);
  fuse_loop(E, e, &f, arena_printf(E->m->a, "tv%d", n), true);
  line(E, "warns%d = warns;", n);
  E->indent--;
  line(E, "} else { /* u[1:-1] = u[2:] + u[:-2]: the value first (as numpy makes it), then the store */");
  E->indent++;
  loop_via_scratch(E, e, &f, arena_printf(E->m->a, "(&tv%d)", n), n,
                   arena_printf(E->m->a, "PyBuffer_Release(&tb%d); ", n),
                   "the target's items change, as numpy's setitem changes them");
  line(E, "warns%d = warns;", n);
  E->indent--;
  line(E, "}");
  E->indent--;
  line(E, "}");
  sb_free(&c);
  sb_free(&apart);
  line(E, "PyBuffer_Release(&tb%d);", n);
  E->indent--;
  line(E, "}");
  if (!warns_in_interpreter(E, arena_printf(E->m->a, "warns%d", n)))
    line(E, "if (warns%d) done%d = false; /* numpy's own operations below */", n, n);
  line(E, "if (!done%d) { /* numpy's operations, then numpy's setitem */", n);
  E->indent++;
  const char *v = generic_tree(E, e, &f.p, f.vals, f.ufuncs, f.objs);
  line(E, "if (dynac_obj_setitem(%s->obj, %s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));",
       obj, key, v, where(E));
  E->indent--;
  line(E, "}");
  note_effect(E);
  return true;
}

/* Can the place `sub` (a slice or row of an array local, parts literals
 * or locals) be evaluated again without anyone seeing it? */
static bool plain_place(em *E, const expr *sub) {
  const expr *parts[8];
  int n = 0;
  const expr *obj = sub->kind == EX_SLICE ? sub->u.slice.obj : sub->u.sub.obj;
  const expr *ix = sub->kind == EX_SLICE ? sub : sub->u.sub.index;
  const expr *dims[2] = {ix, NULL};
  int nd = 1;
  if (ix->kind == EX_TUPLE && ix->u.tuple.n == 2) dims[0] = ix->u.tuple.elts[0], dims[1] = ix->u.tuple.elts[1], nd = 2;
  else if (ix->kind == EX_TUPLE) return false;
  for (int d = 0; d < nd; d++) {
    const expr *x = dims[d];
    if (x->kind == EX_SLICE) parts[n++] = x->u.slice.lo, parts[n++] = x->u.slice.hi, parts[n++] = x->u.slice.step;
    else parts[n++] = x;
  }
  if (obj->kind != EX_LOCAL || !E->bound[obj->u.local]) return false;
  for (int i = 0; i < n; i++) {
    const expr *x = parts[i];
    if (x && x->kind == EX_UNARY && x->u.un.op == UN_NEG) x = x->u.un.a;
    if (x && x->kind != EX_INT && !(x->kind == EX_LOCAL && E->bound[x->u.local] && TY(x)->kind == TY_INT))
      return false;
  }
  return true;
}

/* a op= v with `a` a float64 array local, or a slice or row of one (`sub`),
 * and v an expression of the loop's or a leaf (`vel += acc * dt`,
 * `pdfs /= s`, `u[1:-1, 1:-1] += 0.25 * v[1:-1, 1:-1]`); e is `a op v`.
 * The items of `a op v` are computed by one loop into scratch, then
 * stored into a: numpy computes v whole before its in-place ufunc writes
 * a, so an operand overlapping a reads a's old items here too, and where
 * numpy would warn nothing is written yet: the interpreter runs the
 * statement (numpy warns at its line, a written once). Other shapes
 * (broadcasting), layouts or a read-only a: numpy's in-place operator on
 * the same leaves (then, for a place, numpy's setitem, as the interpreter
 * does). Returns a's view (the value of `a op v`), or NULL when it is not
 * such. */
const char *emit_fused_inplace(em *E, expr *e, expr *sub) {
  fused f;
  if (!is_inplace(E, e) || (sub && !plain_place(E, sub)) || !fuse_begin(E, e, &f)) return NULL;
  const char *t = f.vals[0]; /* the target a, first leaf */
  int n = ++E->tmp;
  line(E, "/* line %d: one loop for `%s=`, into scratch, then into the array */", e->pos.line,
       binop_spelling[e->u.bin.op]);
  line(E, "bool done%d = false;", n);
  /* v of two operations or more (numpy's temporaries), 2-D (numpy's iterator per row): the loop; else
     numpy's one pass on long arrays */
  const char *alone = f.p.ops_done > 2 || f.p.ndim == 2 ? ""
      : arena_printf(E->m->a, " && %s->len <= DYNAC_INPLACE_SHORT_MAX", t);
  const char *same = f.p.ndim == 2 ? arena_printf(E->m->a, " && %s->len == %s->len && %s->len1 == %s->len1", t, f.a,
                                                  t, f.a) : ""; /* a takes the broadcast's shape */
  line(E, "if (%s%s && !%s%s) {", f.cond, same, view_frozen(E, t), alone);
  E->indent++;
  loop_via_scratch(E, e, &f, t, n, "", "a's items change, as numpy's in-place ufunc changes them");
  warns_in_interpreter(E, "warns"); /* (else numpy's in-place operator below) */
  E->indent--;
  line(E, "}");
  line(E, "if (!done%d) { /* broadcasting, another layout, a read-only or long array: numpy's in-place operator */",
       n);
  E->indent++;
  const char *a = f.objs[0] ? tmpvar(E, &ty_obj) : arena_printf(E->m->a, "%s->obj", t);
  if (f.objs[0]) { /* a row read in place: numpy's view of it */
    line(E, "%s = %s;", a, f.objs[0]);
    line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", a, where(E));
  }
  const char *v = generic_tree(E, e->u.bin.r, &f.p, f.vals, f.ufuncs, f.objs);
  const char *r = emit_inplace_values(E, e->u.bin.op, a, &ty_obj, v, &ty_obj);
  if (sub) { /* obj[key] = the result, as the interpreter stores it back */
    expr *oe = sub->kind == EX_SLICE ? sub->u.slice.obj : sub->u.sub.obj;
    const char *obj = keep(E, emit_expr(E, oe), TY(oe));
    line(E, "if (dynac_obj_setitem(%s->obj, %s, %s, &dynac__effects) < 0) DYNAC_LEAVE(dynac_traceback_here(%s));",
         obj, view_key(E, sub), r, where(E));
  } else {
    deopt_if(E, NULL, "not the array itself (never for an exact ndarray)", "%s != %s->obj", r, t);
  }
  E->indent--;
  line(E, "}");
  note_effect(E);
  return t;
}

/* The additions of builtin sum() over float64 items `item` (C, of `j`):
 * in order from 0.0 into `acc`, as CPython's sum adds numpy.float64 items
 * (0 + x0 is x0, but -0.0 becomes 0.0 as there). */
static void add_in_order(em *E, const char *n, const char *item) {
  line(E, "for (Py_ssize_t j = 0; j < %s; j++) acc += %s;", n, item);
}

/* r (a dynac_num) = builtins.sum(items) (an object): numpy's additions
 * and warnings, in the kernel; a result that is no number deoptimises. */
static void builtin_sum_into(em *E, const char *items, const char *r) {
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_builtin_sum(%s);", o, items);
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects);");
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  deopt_if(E, NULL, "sum() gave something else than a number", "dynac_elem_num_np(%s, &%s)", o, r);
}

/* sum(a) of a 1-D float64 ndarray, or of a whole-array expression of such
 * (`sum((x - x_avg) ** 2)`): CPython's builtin adds the items one by one
 * from the int 0 (numpy.float64 additions: the first gives a
 * numpy.float64), so the sum is computed in C in that order, each
 * expression's items made 128 at a time (no array); its value, a
 * dynac_num: numpy.float64, or the int 0 of no items. Where numpy would
 * warn (overflow, an invalid value), the interpreter runs the statement
 * (else numpy's operations and the builtin, in the kernel); where the
 * expression's operands differ in shape, numpy's operations and the
 * builtin. */
const char *emit_builtin_sum(em *E, expr *a) {
  const char *r = tmpvar(E, &ty_num_np);
  int n = ++E->tmp;
  line(E, "/* line %d: sum() of float64 items, added in order (as CPython's sum adds numpy.float64s) */",
       a->pos.line);
  if (ty_is_ndarray(TY(a))) {
    const char *v = keep(E, emit_expr(E, a), TY(a));
    line(E, "{");
    E->indent++;
    line(E, "double acc = 0.0;");
    line(E, "const int fpe = dynac_fpe_begin();");
    add_in_order(E, arena_printf(E->m->a, "%s->len", v),
                 arena_printf(E->m->a, "*(const double *)(%s->buf + j * %s->stride)", v, v));
    line(E, "DYNAC_FP_DONE(acc); /* computed before the flags are read */");
    line(E, "const bool warns = dynac_fpe_end(fpe);");
    warns_in_interpreter(E, "warns");
    line(E, "%s = %s->len ? dynac_num_npf(acc) : dynac_num_i(0);", r, v);
    line(E, "if (warns) { /* the builtin, here: numpy's additions and warning */");
    E->indent++;
    builtin_sum_into(E, arena_printf(E->m->a, "%s->obj", v), r);
    E->indent--;
    line(E, "}");
    E->indent--;
    line(E, "}");
    note_effect(E);
    return r;
  }
  fused f;
  if (!fuse_begin(E, a, &f)) { /* sum(x * f(y)): a leaf the loop cannot take: the value, then the builtin */
    builtin_sum_into(E, emit_expr(E, a), r);
    note_effect(E);
    return r;
  }
  line(E, "bool done%d = false;", n);
  line(E, "if (%s) {", f.cond);
  E->indent++;
  line(E, "const Py_ssize_t n = %s->len;", f.a);
  line(E, "double blk[DYNAC_FUSE_BLOCK], acc = 0.0;");
  line(E, "const int fpe = dynac_fpe_begin();");
  line(E, "for (Py_ssize_t lo = 0; lo < n; lo += DYNAC_FUSE_BLOCK) {");
  E->indent++;
  line(E, "const Py_ssize_t m = n - lo < DYNAC_FUSE_BLOCK ? n - lo : DYNAC_FUSE_BLOCK;");
  line(E, "{");
  E->indent++;
  fuse_loop(E, a, &f, "blk", false);
  E->indent--;
  line(E, "}");
  add_in_order(E, "m", "blk[j]");
  E->indent--;
  line(E, "}");
  line(E, "DYNAC_FP_DONE(acc); /* computed before the flags are read */");
  line(E, "const bool warns = dynac_fpe_end(fpe);");
  warns_in_interpreter(E, "warns"); /* (else numpy's operations below) */
  line(E, "if (!warns) %s = n ? dynac_num_npf(acc) : dynac_num_i(0), done%d = true;", r, n);
  E->indent--;
  line(E, "}");
  line(E, "if (!done%d) { /* numpy's operations, then the builtin */", n);
  E->indent++;
  const char *v = generic_tree(E, a, &f.p, f.vals, f.ufuncs, f.objs);
  builtin_sum_into(E, v, r);
  E->indent--;
  line(E, "}");
  note_effect(E);
  return r;
}
