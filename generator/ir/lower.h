/* lower.h: what the files of ir/ share (the phase's interface is gen.h):
 * the lowering context of one function and the lowering functions the
 * files call across. */
#ifndef DYNAC_LOWER_H
#define DYNAC_LOWER_H

#include "../gen.h"

typedef struct lower {
  module *m;
  func *f;
  int depth;       /* 0: the function's top-level block (straight-line code) */
  int *current;    /* per base local: the local index of its current version */
  int *nversions;  /* per base local: versions made so far (new_version) */
  int *snapshot;   /* `current` as the last top-level statement's cur_after, NULL once
                      a version was made since (statements share it until then) */
  bool *seen;      /* per base local: bound (or a parameter) earlier in the code */
  int ncurrent;
  int dynamic[256]; /* versions bound by interpreted statements */
  const type *hint[256]; /* their type when the statement says it (or NULL) */
  int ndynamic;
  int loops;        /* enclosing while/for loops (emit/ keeps at most 64) */
  int tries;        /* enclosing try statements (emit/ keeps their exit scopes: at most 64) */
  TSNode statement_call; /* the expression statement's call being lowered, if any */
  struct { const char *name; int local; } comp_names[32]; /* names a comprehension binds:
                       they shadow the function's while its clauses are lowered */
  int ncomp_names;
  int ncomps;       /* comprehensions lowered: numbers their hidden locals */
  struct walrus_state {
    TSNode node;    /* the `(name := value)` the statement being lowered evaluates first
                       (first_walrus), until lowered; then null */
    TSNode stmt;    /* that statement (an elif clause's for its test) */
    struct stmt *hoisted; /* its assignment, lowered (lower_walrus), to go before the statement */
    expr *read;     /* the read of its name standing for it in the statement */
  } walrus;         /* (ir/stmt.c walrus_open, walrus_close) */
  bool split;       /* the block being lowered is split: broken statements run in the
                       interpreter, the rest compiles (the top-level block, and the blocks
                       of interpreted compound statements) */
} lower;

/* lower.c */
void gb(lower *L, TSNode n, const char *type, const char *reason);
char *text(lower *L, TSNode n);
int count_breaks(lower *L);
int find_local(func *f, const char *name);
int append_local(lower *L, const char *name, const char *cname);
void add_local(lower *L, const char *name);
int current_version(lower *L, int base);
int resolve_local(lower *L, const char *name);
int new_version(lower *L, int base);
void collect_locals(lower *L, TSNode n);
bool declared_global(lower *L, const char *name);
void collect_global_declarations(lower *L, TSNode n);

/* expr.c */
expr *new_expr(lower *L, exkind k, TSNode n);
int binop_from_text(const char *s);
expr *lower_element(lower *L, TSNode n);
const char *unique_cname(lower *L, const char *want);
expr *lower_expr(lower *L, TSNode n);
expr *lower_walrus(lower *L, TSNode n);
expr *lower_name(lower *L, TSNode n, const char *name);

/* stmt.c */
stmt *new_stmt(lower *L, stkind k, TSNode n);
target *lower_target(lower *L, TSNode n); /* a binding target: a local, a declared global, obj[i], obj.a */
expr *lower_list_comprehension(lower *L, TSNode n);
expr *lower_comprehension(lower *L, TSNode n, char consumer);
stmt *lower_stmt(lower *L, TSNode n);

/* nested.c */
expr *lower_lambda(lower *L, TSNode n);
expr *lower_genexpr(lower *L, TSNode n);
expr *lower_generic_call(lower *L, TSNode n, const char *name, expr *callee, expr *const *pre, int npre,
                         TSNode args);
stmt *lower_nested_def(lower *L, TSNode n);
void collect_freevars(lower *L);
int find_freevar(func *f, const char *name);
stmt *lower_lambda_body(lower *L, TSNode body);

/* split.c */
stmt *lower_block(lower *L, TSNode block);

#endif
