/* runtime/impl_options.h: the implementation's includes and options. A part of single_include/dynac.h (make single_include). */
/* ======================================================================
 * Implementation
 * ==================================================================== */
#ifdef DYNAC_IMPLEMENTATION
#ifndef DYNAC_IMPLEMENTATION_DONE
#define DYNAC_IMPLEMENTATION_DONE

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <structmember.h>

#ifndef DYNAC_MALLOC
#define DYNAC_MALLOC(n) PyMem_RawMalloc(n)
#define DYNAC_FREE(p) PyMem_RawFree(p)
#endif
#ifndef DYNAC_ASSERT
#include <assert.h>
#define DYNAC_ASSERT(x) assert(x)
#endif
#ifndef DYNAC_CACHE_LIMIT
#define DYNAC_CACHE_LIMIT 8 /* Dynamo's cache_size_limit */
#endif

