/* runtime/options.h: the header's include guard, its API macro and compiler
 * macros. A part of single_include/dynac.h (make single_include). */
#ifndef DYNAC_H
#define DYNAC_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef DYNAC_STATIC
#define DYNAC_API static
#else
#define DYNAC_API extern
#endif

#if defined(__GNUC__)
#define DYNAC_UNUSED __attribute__((unused)) /* a variable some kernels never read */
#define DYNAC_LIKELY(x) __builtin_expect(!!(x), 1)
#define DYNAC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define DYNAC_NOINLINE __attribute__((noinline, unused))
#define DYNAC_HOT_INLINE static inline __attribute__((always_inline, unused))
/* A small generated kernel (emit/kernel.c always_inlined): inlined into its callers */
#define DYNAC_ALWAYS_INLINE __attribute__((always_inline))
#else
#define DYNAC_ALWAYS_INLINE
#define DYNAC_UNUSED
#define DYNAC_LIKELY(x) (x)
#define DYNAC_UNLIKELY(x) (x)
#define DYNAC_NOINLINE
#define DYNAC_HOT_INLINE static inline
#endif
/* An error or deoptimisation path: never inlined into a kernel (its loops
 * keep their registers and layout), and calls to it are predicted not
 * taken (GCC's and Clang's cold attribute). */
#if defined(__GNUC__)
#define DYNAC_COLD static __attribute__((cold, noinline, unused))
#else
#define DYNAC_COLD static
#endif
/* A miss path that may still run often (a class whose version tag changes
 * with every instance made refills its sites' caches each time): out of
 * line, but not size-optimised as code reached only from cold paths is
 * (GCC copied a 64-byte cache way with `rep movs` there, half a refill's
 * time). */
#if defined(__GNUC__) && !defined(__clang__)
#define DYNAC_WARM static __attribute__((noinline, hot, unused))
#else
#define DYNAC_WARM static
#endif
/* After a label: the code from it on is rarely run (GCC's cold label
 * attribute: laid out apart from the hot path, which keeps its registers).
 * A speculative loop's way out only (emit/speculate.c): on the labels of
 * continuation blocks, which methods inlined into a caller's loop hold by
 * the dozen, it made GCC lay out and size-optimise those methods' whole
 * bodies as cold (scheduler 7% and raytrace 3% slower, calls to
 * Py_DECREF and other small inline functions left out of line there). */
#if defined(__GNUC__) && !defined(__clang__)
#define DYNAC_COLD_LABEL __attribute__((cold))
#else
#define DYNAC_COLD_LABEL
#endif

/* ======================================================================
 * 1. Status codes and kernel helpers
 * ==================================================================== */
