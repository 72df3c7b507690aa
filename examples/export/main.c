/* Calls the classifier exported from model.py (build/model.h) from plain C:
 * no Python anywhere. Prints what `python3 inputs.py` prints. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"

enum { N_IN = 8, N_HID = 16, N_OUT = 4, SAMPLES = 6 };

/* inputs.py's value(): the same double in C and in Python. */
static double value(long k, double scale) {
  return (double)(((k * 7919 + 13) % 2001) - 1000) / 1000.0 * scale;
}

static void fill(double *v, int n, long offset, double scale) {
  for (int k = 0; k < n; k++) v[k] = value(offset + k, scale);
}

static model_view view(double *items, int n) {
  model_view v = {(char *)items, n, (int64_t)sizeof(double), 0};
  return v;
}

static void print_failure(const model_status *st) {
  printf("error %s: %s (%s:%d in %s)\n", st->exception, st->message, st->file, st->line,
         st->function);
}

int main(void) {
  static double w1[N_HID * N_IN], b1[N_HID], w2[N_OUT * N_HID], b2[N_OUT], hidden[N_HID],
      out[N_OUT], x[N_IN];
  fill(w1, N_HID * N_IN, 0, 1 / sqrt(N_IN));
  fill(b1, N_HID, 5000, 0.1);
  fill(w2, N_OUT * N_HID, 9000, 1 / sqrt(N_HID));
  fill(b2, N_OUT, 12000, 0.1);
  model_view vw1 = view(w1, N_HID * N_IN), vb1 = view(b1, N_HID), vw2 = view(w2, N_OUT * N_HID),
             vb2 = view(b2, N_OUT), vhidden = view(hidden, N_HID), vout = view(out, N_OUT),
             vx = view(x, N_IN);
  model_status st;
  for (int s = 0; s < SAMPLES; s++) {
    fill(x, N_IN, 20000 + 100 * s, 3.0);
    int64_t top;
    if (model_forward(&vx, &vw1, &vb1, &vw2, &vb2, &vhidden, &vout, &top, &st) != MODEL_OK) {
      print_failure(&st);
      return 1;
    }
    printf("sample %d: class %lld, p =", s, (long long)top);
    for (int k = 0; k < N_OUT; k++) printf(" %.17g", out[k]);
    printf("\n");
  }
  model_T2ff ms;
  if (model_mean_std(&vw1, &ms, &st) != MODEL_OK) { print_failure(&st); return 1; }
  printf("w1: mean %.17g, std %.17g\n", ms.v0, ms.v1);
  model_view empty = {NULL, 0, (int64_t)sizeof(double), 0};
  if (model_mean_std(&empty, &ms, &st) == MODEL_ZERO_DIVISION_ERROR) print_failure(&st);
  else return 1;
  double c;
  if (model_crest(&vw2, &c, &st) != MODEL_OK) { print_failure(&st); return 1; }
  printf("w2: crest factor %.17g\n", c);
  if (model_crest(&empty, &c, &st) == MODEL_VALUE_ERROR) print_failure(&st);
  else return 1;
  return 0;
}
