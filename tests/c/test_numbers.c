/* test_numbers.c: C unit tests of runtime/plain_c.h, the number helpers
 * kernels and exported C compute with. Each helper runs on a grid of edge
 * values and is compared with CPython's own answer, computed by
 * number_cases.py into number_cases.h (tests/suite_c.py builds and runs
 * this): the same value (floats bit for bit, any NaN for a NaN), or a
 * failure where CPython raises or gives a value int64 cannot hold.
 * Prints each mismatch and a last line `N passed, N failed`. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "plain_c.h"

enum { I_ADD, I_SUB, I_MUL, I_FLOORDIV, I_MOD, I_POW, I_LSHIFT, I_RSHIFT };
enum { F_DIV, F_MOD, F_FLOORDIV, F_POW };
enum { C_INT, C_ROUND };
typedef struct { int op; int64_t a, b; int fails; int64_t r; } int_case;
typedef struct { int op; uint64_t a, b; int fails; uint64_t r; } float_case;
typedef struct { int64_t i; uint64_t f; int r; } cmp_case;
typedef struct { int op; uint64_t x; int fails; int64_t r; } conv_case;

#include "number_cases.h"

static double from_bits(uint64_t u) { double d; memcpy(&d, &u, sizeof d); return d; }
static uint64_t to_bits(double d) { uint64_t u; memcpy(&u, &d, sizeof u); return u; }

static int int_op(int op, int64_t a, int64_t b, int64_t *r) {
  switch (op) {
  case I_ADD: return dynac_int_add(a, b, r);
  case I_SUB: return dynac_int_sub(a, b, r);
  case I_MUL: return dynac_int_mul(a, b, r);
  case I_FLOORDIV: return dynac_int_floordiv(a, b, r);
  case I_MOD: return dynac_int_mod(a, b, r);
  case I_POW: return dynac_int_pow(a, b, r);
  case I_LSHIFT: return dynac_int_lshift(a, b, r);
  default: return dynac_int_rshift(a, b, r);
  }
}

static int float_op(int op, double a, double b, double *r) {
  switch (op) {
  case F_DIV: return dynac_float_div(a, b, r);
  case F_MOD: return dynac_float_mod(a, b, r);
  case F_FLOORDIV: return dynac_float_floordiv(a, b, r);
  default: return dynac_float_pow(a, b, r);
  }
}

int main(void) {
  int passed = 0, failed = 0;
  static const char *const int_names[] = {"+", "-", "*", "//", "%", "**", "<<", ">>"};
  static const char *const float_names[] = {"/", "%", "//", "**"};
  for (size_t k = 0; k < sizeof INT_CASES / sizeof *INT_CASES; k++) {
    const int_case *c = &INT_CASES[k];
    int64_t r = 0;
    int f = int_op(c->op, c->a, c->b, &r) != 0;
    bool ok = f == c->fails && (f || r == c->r);
    if (ok) { passed++; continue; }
    failed++;
    printf("FAIL %" PRId64 " %s %" PRId64 ": got %s%" PRId64 ", CPython %s%" PRId64 "\n", c->a,
           int_names[c->op], c->b, f ? "failure " : "", r, c->fails ? "failure " : "", c->r);
  }
  for (size_t k = 0; k < sizeof FLOAT_CASES / sizeof *FLOAT_CASES; k++) {
    const float_case *c = &FLOAT_CASES[k];
    double r = 0.0, want = from_bits(c->r);
    int f = float_op(c->op, from_bits(c->a), from_bits(c->b), &r) != 0;
    bool ok = f == c->fails && (f || to_bits(r) == c->r || (isnan(r) && isnan(want)));
    if (ok) { passed++; continue; }
    failed++;
    printf("FAIL %.17g %s %.17g: got %s%.17g, CPython %s%.17g\n", from_bits(c->a),
           float_names[c->op], from_bits(c->b), f ? "failure " : "", r, c->fails ? "failure " : "",
           want);
  }
  for (size_t k = 0; k < sizeof CMP_CASES / sizeof *CMP_CASES; k++) {
    const cmp_case *c = &CMP_CASES[k];
    int r = dynac_cmp_int_float(c->i, from_bits(c->f));
    if (r == c->r) { passed++; continue; }
    failed++;
    printf("FAIL cmp(%" PRId64 ", %.17g): got %d, CPython %d\n", c->i, from_bits(c->f), r, c->r);
  }
  for (size_t k = 0; k < sizeof CONV_CASES / sizeof *CONV_CASES; k++) {
    const conv_case *c = &CONV_CASES[k];
    int64_t r = 0;
    double x = from_bits(c->x);
    int f = (c->op == C_INT ? dynac_float_to_int(x, &r) : dynac_float_round(x, &r)) != 0;
    if (f == c->fails && (f || r == c->r)) { passed++; continue; }
    failed++;
    printf("FAIL %s(%.17g): got %s%" PRId64 ", CPython %s%" PRId64 "\n", c->op == C_INT ? "int" : "round",
           x, f ? "failure " : "", r, c->fails ? "failure " : "", c->r);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
