/*@ banner @*/
#include "/*@ header @*/"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- CPython's number semantics: dynac.h, section 1 (plain C), verbatim ---- */
/*@ plain_c @*/

/* ---- this module ------------------------------------------------------------ */
#define DYNAC_SOURCE_NAME "/*@ source @*/"
/* The kernels name types as compiled kernels do. */
typedef /*@ P @*/_view dynac_view;
typedef /*@ P @*/_status dynac_x_status;
/*@ tuple_aliases @*/
typedef struct dynac_x_slot { union { double f; int64_t i; } v; } dynac_x_slot;

_Static_assert((int)/*@ PU @*/_OVERFLOW_ERROR == (int)DYNAC_EXC_OVERFLOW &&
               (int)/*@ PU @*/_ZERO_DIVISION_ERROR == (int)DYNAC_EXC_ZERO_DIVISION &&
               (int)/*@ PU @*/_VALUE_ERROR == (int)DYNAC_EXC_VALUE &&
               (int)/*@ PU @*/_INDEX_ERROR == (int)DYNAC_EXC_INDEX &&
               (int)/*@ PU @*/_TYPE_ERROR == (int)DYNAC_EXC_TYPE &&
               (int)/*@ PU @*/_RECURSION_ERROR == (int)DYNAC_EXC_RECURSION &&
               (int)/*@ PU @*/_UNBOUND_LOCAL_ERROR == (int)DYNAC_EXC_UNBOUND_LOCAL,
               "the header's error codes are dynac.h's DYNAC_EXC_*");

/* Kernel calls nested deeper than this report RecursionError (CPython's
 * default recursion limit). */
#define DYNAC_MAX_KERNEL_DEPTH 1000
static _Thread_local int dynac__depth __attribute__((unused));

/* Fills the status for failure `code` (DYNAC_FAIL_*) in `function` at
 * `line`; detail replaces the code's message when not NULL. Returns
 * DYNAC_ERROR, which every kernel on the way out returns in turn. */
static int dynac_x_fail(dynac_x_status *st, int code, const char *detail, const char *function,
                        int line) {
  dynac_fail_info info = dynac_fail_describe(code);
  st->error = info.exc;
  st->exception = dynac_exc_name(info.exc);
  st->message = detail ? detail : info.message;
  st->file = DYNAC_SOURCE_NAME;
  st->function = function;
  st->line = line;
  st->code = code;
  return DYNAC_ERROR;
}

/* An array argument must be a view with its items where it says; `problem`
 * (a static string naming the argument) is the message otherwise. */
static inline int dynac_x_check_view(const dynac_view *v, int64_t itemsize, int contiguous,
                                     const char *problem, const char *function,
                                     dynac_x_status *st) {
  if (v && v->len >= 0 && (v->len == 0 || v->buf) &&
      (!contiguous || v->len < 2 || v->stride == itemsize))
    return 0;
  dynac_x_fail(st, DYNAC_FAIL_ARGUMENT, problem, function, 0);
  return 1;
}

/*@ slots @*/
/* ---- kernels ----------------------------------------------------------------- */
/*@ prototypes @*/

/*@ kernels @*/
/* ---- the exported functions (see /*@ header @*/) ------------------------------ */
/*@ definitions @*/
