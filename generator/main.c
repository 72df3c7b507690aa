/* main.c: the `dynac` command line.
 *
 *   dynac build FILE.py... [-o DIR] [--profile FILE] [--all] [--emit-only]
 *                          [--line-directives]
 *   dynac explain FILE.py... [--profile FILE] [--all] [--json] [--lines]
 *   dynac export FILE.py [--function NAME]... [--prefix P] -o DIR [--profile FILE]
 *   dynac ir FILE.py... [--function NAME]... [--profile FILE] [--all]
 *
 * Configuration (defaults baked in by the Makefile): DYNAC_TEMPLATES,
 * DYNAC_INCLUDE (the directory of dynac.h), DYNAC_PYTHON_INCLUDE,
 * DYNAC_EXT_SUFFIX, CC.
 */
#include "gen.h"
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DYNAC_VERSION "0.1.0"

/* The usage text; the commands are spelled as the user typed them:
 * $DYNAC_PROG ("python3 -m dynac" when the Python CLI runs us), else "dynac". */
static void usage(FILE *to) {
  const char *prog = getenv("DYNAC_PROG") ? getenv("DYNAC_PROG") : "dynac";
  int w = (int)strlen(prog);
  fprintf(to, "usage: %s build FILE.py... [-o DIR] [--profile FILE] [--all] [--emit-only]\n"
          "       %*s       [--line-directives] [--trusted-syntax] [--suppress-errors] [--times]\n"
          "       %s explain FILE.py... [--profile FILE] [--all] [--json] [--lines]\n"
          "       %s export FILE.py [--function NAME]... [--prefix P] -o DIR [--profile FILE]\n"
          "       %s ir FILE.py... [--function NAME]... [--profile FILE] [--all]\n"
          "       %s --version\n", prog, w, "", prog, prog, prog, prog);
  fputs("build   writes DIR/NAME__dynac.c per module and compiles it into an extension\n"
        "        module (default DIR: __dynac__ beside the source)\n"
        "export  writes DIR/P.h, DIR/P.c and DIR/Makefile (-> libP.a): the kernels of the\n"
        "        compile roots (or of each --function) as plain C, no Python needed;\n"
        "        P is the module name unless --prefix\n"
        "ir      prints each function's IR, typed per specialisation (S-expressions, one\n"
        "        statement per line with its Python line)\n"
        "explain prints, per function: compiled or not, specialisations, guards and\n"
        "        graph breaks with file:line:col and reason; --lines: and each line of\n"
        "        each function marked T typed, G generic (through the C API, with why) or\n"
        "        I interpreted (a graph break, or not compiled)\n"
        "--suppress-errors (or DYNAC_SUPPRESS_ERRORS=1): a function whose generated code does\n"
        "  not compile (a dynac bug) runs in the interpreter, with a warning, instead of\n"
        "  failing the build\n"
        "--all: every function is a compile root; --all-objects: and a parameter with no\n"
        "        annotation, signature or profile is an object (everything compiles, generically)\n"
        "--times: print each file's phase times (parse, scope, annotations, ir, infer, emit,\n"
        "        cc; ms) on stderr\n"
        "--trusted-syntax: the files are known to compile with CPython; a construct the\n"
        "        Tree-sitter grammar cannot parse is then a graph break, not an error\n",
        to);
}

int main(int argc, char **argv) {
  if (argc < 2) { usage(stderr); return 2; }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--version")) { puts("dynac " DYNAC_VERSION); return 0; }
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) { usage(stdout); return 0; }
  if (strcmp(cmd, "build") && strcmp(cmd, "explain") && strcmp(cmd, "export") && strcmp(cmd, "ir")) {
    fprintf(stderr, "dynac: error: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
  }
  options o = {0};
  o.files = calloc((size_t)argc, sizeof(char *));
  o.functions = calloc((size_t)argc, sizeof(char *));
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if ((!strcmp(a, "-o") || !strcmp(a, "--profile") || !strcmp(a, "--function") ||
         !strcmp(a, "--prefix")) && i + 1 >= argc) {
      fprintf(stderr, "dynac: error: %s needs an argument\n", a);
      return 2;
    }
    if (!strcmp(a, "-o")) o.outdir = argv[++i];
    else if (!strcmp(a, "--profile")) o.profile_path = argv[++i];
    else if (!strcmp(a, "--function")) o.functions[o.nfunctions++] = argv[++i];
    else if (!strcmp(a, "--prefix")) o.prefix = argv[++i];
    else if (!strcmp(a, "--all")) o.all = o.all ? o.all : 1;
    else if (!strcmp(a, "--all-objects")) o.all = 2;
    else if (!strcmp(a, "--emit-only")) o.emit_only = true;
    else if (!strcmp(a, "--json")) o.json = true;
    else if (!strcmp(a, "--lines")) o.lines = true;
    else if (!strcmp(a, "--line-directives")) o.line_directives = true;
    else if (!strcmp(a, "--trusted-syntax")) o.trusted_syntax = true;
    else if (!strcmp(a, "--suppress-errors")) o.suppress_errors = true;
    else if (!strcmp(a, "--times")) o.times = true;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
    else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "dynac: error: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    } else o.files[o.nfiles++] = a;
  }
  if (!o.nfiles) { fprintf(stderr, "dynac: error: no input files\n"); usage(stderr); return 2; }
  profile prof;
  arena *pa = arena_new();
  const profile *pp = NULL;
  if (o.profile_path) {
    if (!profile_load(pa, o.profile_path, &prof)) { arena_free(pa); return 1; }
    pp = &prof;
  }
  int rc = !strcmp(cmd, "build") ? cmd_build(&o, pp) : !strcmp(cmd, "export") ? cmd_export(&o, pp)
           : !strcmp(cmd, "ir") ? cmd_ir(&o, pp) : cmd_explain(&o, pp);
  arena_free(pa);
  free(o.files);
  free(o.functions);
  return rc;
}
