/* driver.h: what main.c, driver.c and explain.c share: the command line's
 * options, the phase times, the analysis of one file, the commands. */
#ifndef DYNAC_DRIVER_H
#define DYNAC_DRIVER_H
#include "gen.h"

#include <stdio.h>

typedef struct options {
  const char *outdir;
  const char *profile_path;
  int all; /* 0; 1: --all (every function a root); 2: --all-objects (and parameters with no
              annotation, signature or profile taken as objects) */
  bool emit_only, json, line_directives, trusted_syntax, suppress_errors;
  bool lines; /* explain --lines: the per-line view */
  bool times;             /* build --times: each file's phase times on stderr */
  const char **files;
  int nfiles;
  const char **functions; /* export --function */
  int nfunctions;
  const char *prefix;     /* export --prefix */
} options;

/* Milliseconds each phase took on one file (0: not run). */
typedef struct phase_times { double parse, scope, annotations, ir, infer, analyses, emit, cc; } phase_times;
void print_phase_times(FILE *to, const char *path, const phase_times *pt);

/* parse -> scope -> annotations -> ir -> infer on one file, each timed into
 * *pt (may be NULL); NULL after reporting errors. release() frees it. */
module *analyse(const char *path, const profile *prof, int all, bool trusted, phase_times *pt);
void release(module *m);
bool is_compiled(module *m, func *f);
/* Functions compiled whole or in part; *nkernels gets their specialisations. */
int count_compiled(module *m, int *nkernels);
/* "(int, float) -> float [annotations]": a specialisation as explain shows it. */
const char *spec_text(module *m, inst *in);

/* The commands: 0 on success, 1 when a diagnostic was an error. */
int cmd_build(options *o, const profile *prof);
int cmd_export(options *o, const profile *prof);
int cmd_explain(options *o, const profile *prof);
int cmd_ir(options *o, const profile *prof);     /* irdump.c */
#endif
