/*@ banner @*/
/* The functions of /*@ source @*/ exported as plain C: no Python header, no
 * libpython. Each computes what CPython computes for the same arguments,
 * bit for bit; where CPython raises, or returns what the C types cannot hold
 * (an int beyond int64, a complex), the function returns the Python
 * exception's code and fills a /*@ P @*/_status instead. Build: `make` in this
 * directory gives lib/*@ P @*/.a; C11 and the C math library (-lm). */
#ifndef /*@ PU @*/_H
#define /*@ PU @*/_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A 1-D array (a Python array.array, memoryview, bytes or bytearray as
 * exported C takes it): `len` items, item k at buf + k * stride bytes, of
 * the item type each parameter documents. A parameter documented
 * "contiguous" needs stride == sizeof item. With `readonly` set, a write is
 * reported (TypeError) instead of made, as for bytes. Borrowed: the caller
 * owns the memory, which must stay valid during the call. */
typedef struct /*@ P @*/_view {
  char *buf;
  int64_t len;
  int64_t stride;
  int readonly;
} /*@ P @*/_view;

/* What an exported function returns: /*@ PU @*/_OK, or the Python exception its
 * failure stands for. */
enum {
  /*@ PU @*/_OK = 0,
  /*@ PU @*/_OVERFLOW_ERROR = 1,      /* also: an int result beyond int64 */
  /*@ PU @*/_ZERO_DIVISION_ERROR = 2,
  /*@ PU @*/_VALUE_ERROR = 3,         /* also: an argument not of its documented shape */
  /*@ PU @*/_INDEX_ERROR = 4,
  /*@ PU @*/_TYPE_ERROR = 5,          /* also: a result Python gives as another type */
  /*@ PU @*/_RECURSION_ERROR = 6,
  /*@ PU @*/_UNBOUND_LOCAL_ERROR = 7
};

/* Where and why a call failed. Every string is static: never freed. Writes
 * the function made before failing stay made, as in CPython. */
typedef struct /*@ P @*/_status {
  int error;             /* /*@ PU @*/_OK or a /*@ PU @*/_*_ERROR, as returned */
  const char *exception; /* "ZeroDivisionError", ...; NULL when OK */
  const char *message;   /* CPython's message ("float division by zero"); "" when OK */
  const char *file;      /* the Python source: "/*@ source @*/" */
  const char *function;  /* the Python function that failed (a callee, maybe) */
  int line;              /* its line in `file` */
  int code;              /* the precise cause: a DYNAC_FAIL_* code of dynac.h */
} /*@ P @*/_status;

/* Tuples: field vK is element K. */
/*@ tuple_types @*/

/*@ declarations @*/
#ifdef __cplusplus
}
#endif
#endif
