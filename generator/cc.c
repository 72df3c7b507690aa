/* cc.c: phase 7, the system C compiler builds the extension module.
 *
 * Runs `$CC -O2 -shared -fPIC ...` on the emitted file, writing to a
 * temporary name and renaming it into place, so a failed or interrupted
 * build never leaves a half-written module that Python would import.
 */
#include "gen.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* $CFLAGS, split at blanks (no quoting), appended to argv from *n on:
 * `CFLAGS="-fsanitize=address,undefined -g" dynac build` (make sanitize). */
static void add_user_cflags(char **argv, int *n, int cap, char *copy) {
  for (char *tok = strtok(copy, " \t\n"); tok && *n < cap - 1; tok = strtok(NULL, " \t\n"))
    argv[(*n)++] = tok;
}

/* Whether the compiler `cc` is GCC (it defines __GNUC__ and not __clang__):
 * asked once per process, from its predefined macros. */
static bool cc_is_gcc(const char *cc) {
  static int known = -1;
  if (known >= 0) return known;
  known = 0;
  int fd[2];
  if (pipe(fd) != 0) return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  char *argv[] = {(char *)cc, "-dM", "-E", "-x", "c", "/dev/null", NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, cc, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  size_t cap = 1 << 16, used = 0; /* GCC 12 predefines ~400 macros, ~20 KB */
  char *out = malloc(cap + 1);
  char rest[4096]; /* read to the end past cap, so that the compiler never blocks writing */
  for (ssize_t got; rc == 0 && (got = out && used < cap ? read(fd[0], out + used, cap - used)
                                                        : read(fd[0], rest, sizeof rest)) > 0;)
    if (out && used < cap) used += (size_t)got;
  if (out) out[used] = 0;
  known = out && strstr(out, "#define __GNUC__ ") && !strstr(out, "#define __clang__ ");
  free(out);
  close(fd[0]);
  int status;
  if (rc == 0) waitpid(pid, &status, 0);
  return known;
}

/* GCC's inlining budgets, raised for a build with a profile (the code it
 * names is hot: the workflow's `build --profile` and the JIT's builds). A
 * kernel's cold paths (continuations in the interpreter, deoptimisation)
 * count in GCC's size estimate though they never run, so at -O2's default
 * (70) a method of three float reads and a construction is never inlined
 * into its caller; inline-unit-growth and large-function-growth let a
 * module and a caller of many grow enough to take them. Measured on
 * examples/programs/ (instructions, cachegrind): raytrace 9% and scheduler
 * 2.7% fewer, orders 2.8%, textstats 1.5%, particles the same; the first
 * alone makes scheduler 3.7% slower. The cost: GCC's time, +50-75% on a
 * module of a few hundred kernels (why a build without a profile keeps
 * -O2's budgets). */
static const char *const gcc_inlining[] = {"--param=max-inline-insns-single=1000",
                                           "--param=inline-unit-growth=200",
                                           "--param=large-function-growth=500"};

bool cc_build(const char *c_path, const char *so_path, const cc_opts *o) {
  char tmp[4096], inc1[4200], inc2[4200], prefix_map[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", so_path, (long)getpid());
  /* __FILE__ (an assert's message) names the C file without its directory: the same module
     built in two directories is the same bytes (reproducible builds' -ffile-prefix-map) */
  const char *slash = strrchr(c_path, '/');
  snprintf(prefix_map, sizeof prefix_map, "-ffile-prefix-map=%.*s=", slash ? (int)(slash - c_path + 1) : 0, c_path);
  snprintf(inc1, sizeof inc1, "-I%s", o->dynac_include);
  snprintf(inc2, sizeof inc2, "-I%s", o->python_include);
  /* -ffp-contract=off: a * b + c rounds twice, as CPython and numpy compute it (never one FMA,
     whatever -march CFLAGS asks for) */
  const char *fixed[] = {o->cc, "-std=gnu11", "-O2", "-fPIC", "-shared", "-fno-strict-aliasing",
                         "-ffp-contract=off", "-Wall", "-Wextra",
                         /* a value of one C type where another is meant is a generator bug: fail loudly */
                         "-Werror=incompatible-pointer-types", "-Werror=int-conversion", inc1, inc2, prefix_map};
  enum { CAP = 256 };
  char *argv[CAP];
  int n = 0;
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) argv[n++] = (char *)fixed[i];
  if (o->profiled && cc_is_gcc(o->cc))
    for (size_t i = 0; i < sizeof gcc_inlining / sizeof *gcc_inlining; i++) argv[n++] = (char *)gcc_inlining[i];
  const char *user = getenv("CFLAGS");
  char *copy = strdup(user ? user : "");
  add_user_cflags(argv, &n, CAP - 5, copy);
  argv[n++] = "-o";
  argv[n++] = tmp;
  argv[n++] = (char *)c_path;
  argv[n++] = "-lm";
  argv[n] = NULL;
  pid_t pid;
  int rc = posix_spawnp(&pid, o->cc, NULL, NULL, argv, environ);
  free(copy);
  if (rc != 0) {
    diag_plain("cannot run the C compiler '%s': %s; install gcc or set CC", o->cc, strerror(rc));
    return false;
  }
  int status;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    unlink(tmp);
    diag_plain("the C compiler failed on %s (an internal dynac error: please report it with "
               "the source file)", c_path);
    return false;
  }
  if (rename(tmp, so_path) != 0) {
    unlink(tmp);
    diag_plain("cannot write %s: %s", so_path, strerror(errno));
    return false;
  }
  return true;
}

/* The emitted file compiles (-fsyntax-only, diagnostics discarded): used by
 * --suppress-errors to find the functions whose code does not. */
bool cc_check(const char *c_path, const cc_opts *o) {
  char inc1[4200], inc2[4200];
  snprintf(inc1, sizeof inc1, "-I%s", o->dynac_include);
  snprintf(inc2, sizeof inc2, "-I%s", o->python_include);
  char *argv[] = {(char *)o->cc, "-std=gnu11", "-fsyntax-only", inc1, inc2, (char *)c_path, NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int rc = posix_spawnp(&pid, o->cc, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  int status;
  return rc == 0 && waitpid(pid, &status, 0) >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
