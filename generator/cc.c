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

bool cc_build(const char *c_path, const char *so_path, const cc_opts *o) {
  char tmp[4096], inc1[4200], inc2[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", so_path, (long)getpid());
  snprintf(inc1, sizeof inc1, "-I%s", o->dynac_include);
  snprintf(inc2, sizeof inc2, "-I%s", o->python_include);
  /* -ffp-contract=off: a * b + c rounds twice, as CPython and numpy compute it (never one FMA,
     whatever -march CFLAGS asks for) */
  const char *fixed[] = {o->cc, "-std=gnu11", "-O2", "-fPIC", "-shared", "-fno-strict-aliasing",
                         "-ffp-contract=off", "-Wall", "-Wextra",
                         /* a value of one C type where another is meant is a generator bug: fail loudly */
                         "-Werror=incompatible-pointer-types", "-Werror=int-conversion", inc1, inc2};
  enum { CAP = 256 };
  char *argv[CAP];
  int n = 0;
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) argv[n++] = (char *)fixed[i];
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
