/* gen.h: shared types of the dynac generator.
 *
 * Pipeline, a file or a folder per phase, run in this order by driver.c
 * (see DESIGN.md):
 *   parse.c        source -> Tree-sitter tree, syntax errors as diagnostics
 *   scope.c        module-level names: functions, constants, imports
 *   annotations.c  decorators: compile roots, signatures=, fullgraph=, disable
 *   ir/            syntax -> IR (statements/expressions), graph breaks recorded
 *   infer.c        types per specialisation, kernel instances, guards
 *   analysis/      regions, graph ops, bounds, replay, shapes
 *   emit/          IR + templates -> one readable C file per module
 *                  (emit/emit.h says what its files share)
 *   cc.c           the system C compiler builds the extension module
 * main.c is the command line, driver.c runs the phases, explain.c and
 * irdump.c print what they found; export.c writes `dynac export`'s library;
 * profile.c reads `dynac record` profiles.
 * Memory: one arena per module, freed at once.
 */
#ifndef DYNAC_GEN_H
#define DYNAC_GEN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

/* ---- arena and strings ------------------------------------------------ */
typedef struct arena arena;
arena *arena_new(void);
void arena_free(arena *a);
void *arena_alloc(arena *a, size_t n); /* zeroed; aborts on out-of-memory */
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_strdup(arena *a, const char *s);
char *arena_printf(arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

typedef struct strbuf { char *data; size_t len, cap; } strbuf;
void sb_putn(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
/* sb_printf with a va_list (consumed). */
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
void sb_printf(strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sb_free(strbuf *b);

/* ---- paths ---------------------------------------------------------- */
const char *path_basename(const char *p);  /* "a/b/c.py" -> "c.py" */
bool mkdirs(const char *dir);              /* mkdir -p; false with errno set */
char *read_text_file(const char *path);    /* whole file, malloc'd; NULL if unreadable */

/* ---- diagnostics: file:line:col: error: msg, source line, caret -------- */
typedef struct source {
  const char *path;     /* as given on the command line */
  const char *text;     /* whole file, NUL-terminated */
  size_t len;
  const char **lines;   /* lines[i] = start of line i+1 */
  int nlines;
} source;

typedef struct srcpos { int line, col; } srcpos; /* both 1-based */

void diag_error(const source *src, srcpos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_note(const source *src, srcpos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int diag_error_count(void);
/* The text of source line `line` without its newline, in a static buffer. */
const char *source_line(const source *src, int line, int *len);

/* ---- parse.c ------------------------------------------------------------ */
typedef struct parsed {
  source src;
  TSParser *parser;
  TSTree *tree;
  TSNode root;
  char sha256[65]; /* hex digest of the source bytes */
  TSTree *synth_tree; /* the source with synthesised defs appended (classes_dataclass_inits):
                         their nodes; the source's own are root's */
} parsed;
/* Syntax nested deeper than this is refused with file:line:col before any
 * phase runs (they recurse over the tree; the C stack must hold them). */
#define DYNAC_MAX_NESTING 1000

/* Reads and parses `path`; on failure reports diagnostics and returns false.
 * trusted_syntax: CPython already accepted the file, so a Tree-sitter ERROR
 * is a parser limitation: not reported here; the functions it touches get a
 * graph break (ir/). */
bool parse_file(arena *a, const char *path, bool trusted_syntax, parsed *out);
void parse_release(parsed *p);
TSNode parse_appended(arena *a, parsed *p, const char *text);
const TSLanguage *parse_language(void);
/* Grammar lookups by name (never by generated number). */
TSSymbol sym(const char *name);
TSFieldId field(const char *name);
TSNode child_by_field(TSNode n, const char *fname);
bool node_is(TSNode n, const char *type);
/* n's named children as CPython's parser sees them: without the extras
 * (comments, backslash line continuations), which no phase reads. Every
 * phase walks the tree through these, never ts_node_named_child. */
uint32_t node_named_count(TSNode n);
TSNode node_named(TSNode n, uint32_t i); /* a null node past the last */
srcpos node_pos(TSNode n);
char *node_text(arena *a, const parsed *p, TSNode n);

/* ---- types -------------------------------------------------------------- */
typedef enum tykind {
  TY_UNKNOWN = 0, TY_INT, TY_FLOAT, TY_BOOL, TY_NONE, TY_TUPLE, TY_CONFLICT,
  TY_NUM,  /* int or float, known at run time (dynac_num): the join of int and float */
  TY_LIST, /* a list object (borrowed PyObject *), elements of one type elts[0] */
  TY_BUF,  /* a buffer (array.array, memoryview, bytes, bytearray: 1-D; numpy.ndarray:
              1-D or 2-D): dynac_view * */
  TY_OBJ,  /* any Python object (an owned PyObject *): operations go through the C API
              (PyObject_RichCompare, ...) and may run Python code (an effect) */
  TY_NP    /* a numpy scalar (numpy.float64, numpy.int8, numpy.bool_, ...) of dtype `fmt`:
              numpy's promotion rules; every case where numpy and the kernel could differ
              (division by zero, wrapping, ...) deoptimises */
} tykind;
struct module;
struct klass;
typedef struct type {
  tykind kind;
  int n;                       /* TY_TUPLE: element count; TY_LIST: 1 */
  const struct type **elts;    /* TY_TUPLE: element types; TY_LIST: elts[0] */
  const char *code;            /* "i", "f", "b", "n", "T3fff", "Lf", "Aad": unique spelling */
  char buf_kind;               /* TY_BUF: 'a' array.array, 'm' memoryview, 'y' bytes,
                                  'Y' bytearray, 'n' numpy.ndarray */
  char fmt;                    /* TY_BUF: struct format of the items ('d', 'f', 'q', 'B', ...);
                                  TY_NP: the dtype as a struct format letter */
  bool strided;                /* TY_BUF: any stride (else C-contiguous) */
  int ndim;                    /* TY_BUF: dimensions (2 only for an ndarray) */
  const char *cname;           /* TY_TUPLE: its struct's C name, "dynac_" + code (never cut) */
  const struct klass *cls;     /* TY_OBJ: an instance of exactly this class of the module
                                  (classes.c), guarded by type and version tag; else NULL */
  const struct klass *or_none; /* TY_OBJ (cls NULL): such an instance or None (the join of
                                  the two): an object to every operation, but a read that
                                  narrow.c proves not None is an instance of it */
  const struct type *num_or_none; /* TY_OBJ: &ty_float or &ty_int, a local holding that number or
                                  None (`prev = None` ... `prev = x`): an object (the number
                                  boxed, None as itself), but a read that narrow.c proves not
                                  None is the C number, unboxed; arithmetic and comparison of
                                  any other read fail the specialisation (no generic path) */
  bool rec;                    /* TY_OBJ with cls: an instance a kernel made and keeps as its
                                  fields in C until something needs the object (scalar
                                  replacement, classes.c: classes_recordable); its C value is
                                  a struct dynac_rec_<class> (emit/records.c) */
} type;
extern const type ty_unknown, ty_int, ty_float, ty_bool, ty_none, ty_conflict, ty_num, ty_obj;
extern const type ty_float_or_none, ty_int_or_none; /* "float | None", "int | None": num_or_none */
/* int | float | numpy.float64 | numpy.int64, known at run time (a TY_NUM
 * whose dynac_num may have `np` set): the join of a number and a
 * numpy.float64 or numpy.int64 (`s = 0.0; s += a[i]`). Arithmetic on it is
 * numpy's where either operand is a numpy scalar. */
extern const type ty_num_np;
bool ty_may_be_np(const type *t); /* t is ty_num_np */
const type *ty_tuple(arena *a, int n, const type **elts); /* interned */
const type *ty_join(const type *x, const type *y);        /* lattice join */
const char *ty_python_name(arena *a, const type *t);       /* "tuple[float, int]" */
/* A type spelled as in annotations, signatures= and profiles: int, float,
 * bool, tuple[T, ...], list[T], array[d], memoryview[d], memoryview[d,
 * strided], bytes, bytearray; object, and any other class as `dynac record`
 * names it (builtins.str, module.Class): an object; a bare `list`:
 * list[object]. NULL if not a kernel type. */
const type *ty_from_name(const char *name);
/* The same, where "module.Class" naming a class statement of m (recorded as
 * __main__.Class or MODULE.Class) is an instance of it (classes.c). */
const type *ty_from_name_in(const struct module *m, const char *name);
const type *ty_list(const type *elt);                       /* interned */
const type *ty_buf(char buf_kind, char fmt, bool strided);  /* interned; NULL: bad format */
/* A numpy.ndarray of 1 or 2 dimensions, items of dtype `fmt` (native byte
 * order); NULL if kernels do not handle that dtype. */
const type *ty_ndarray(char fmt, int ndim, bool strided);
const type *ty_np(char fmt);  /* the numpy scalar of dtype fmt (interned); NULL: not handled */
/* numpy's result dtype for two scalars (numpy 1.x: a Python int is int64, a
 * float float64, a bool bool_); 0 when numpy has none that kernels handle. */
char np_promote(char a, char b);
char np_dtype_of(const type *t);  /* dtype letter of a number or numpy scalar type; 0: none */
bool np_is_float(char fmt);
const char *np_name(char fmt);    /* "float64", "int8", "bool_", ... */
/* The type of one element: list[T] -> T, a buffer -> int/float/bool by format. */
const type *ty_elem(const type *t);
bool ty_is_ndarray(const type *t);   /* a numpy.ndarray (TY_BUF of kind 'n') */
bool ty_is_container(const type *t);  /* list or buffer, or a tuple holding one */
bool ty_is_number(const type *t);   /* int, float, bool, int | float: Python numbers */
bool ty_is_scalar(const type *t);   /* a Python number or a numpy scalar */
bool ty_holds_object(const type *t); /* object, or a list or tuple holding one */

/* ops.c: the operation table (one row per builtin, math function or
 * constant, list method; per arity where arities differ in kind). */
typedef enum op_family { OPS_BUILTIN, OPS_MATH, OPS_METHOD, OPS_NP_UFUNC } op_family;
typedef enum op_id {
  OPI_ABS, OPI_MIN, OPI_MAX, OPI_INT, OPI_FLOAT, OPI_BOOL, OPI_ROUND, OPI_ROUND_DIGITS,
  OPI_DIVMOD, OPI_POW, OPI_LEN, OPI_SUM,
  OPI_MATH_CONST,    /* math.pi: a float value */
  OPI_MATH_LIBM,     /* helper: the libm function, behind dynac_libm_1/2 */
  OPI_MATH_LIBM_OVF, /* the same, and it can overflow (a range error) */
  OPI_MATH_CPYTHON,  /* helper: dynac.h's copy of CPython's own wrapper */
  OPI_MATH_SCALE,    /* x * helper (degrees, radians) */
  OPI_MATH_TO_INT,   /* floor/ceil/trunc: helper the rounding (NULL: none), then int */
  OPI_MATH_TEST,     /* isnan/isinf/isfinite: helper the C99 macro */
  OPI_MATH_API,      /* called through the C API: CPython's own algorithm */
  OPI_APPEND, OPI_POP, OPI_INSERT, OPI_EXTEND,
  OPI_NP_UFUNC,      /* np.NAME(x, ...) of numbers: numpy's float64 loop of the ufunc NAME */
  OPI_NP_UFUNC_INT,  /* the same for a ufunc with integer loops too (float64 only with a float) */
} op_id;
typedef struct op_row {
  op_family family;
  const char *name;
  op_id id;
  int min_args, max_args; /* max -2: any number; both -1: a constant */
  char result;            /* 'f' float, 'i' int, 'b' bool; 0: infer.c's rule for the id */
  bool native;            /* plain C; else the Python C API (dynac export refuses it) */
  const char *helper;     /* C name the id's emit rule uses (see op_id) */
} op_row;
/* The row of `name` in `family` taking nargs arguments (-1: any row of that
 * name, constants included), or NULL: not an operation of the kernel language. */
const op_row *ops_find(op_family family, const char *name, int nargs);
bool ops_is_math_const(const char *name);    /* math.pi, math.inf, ... */
bool ops_is_math_function(const char *name); /* math.sqrt, ... at some arity */
const type *ops_result_type(const op_row *r); /* NULL: infer.c's rule */

/* ---- IR ----------------------------------------------------------------- */
typedef enum binop {
  OP_ADD, OP_SUB, OP_MUL, OP_TRUEDIV, OP_FLOORDIV, OP_MOD, OP_POW,
  OP_LSHIFT, OP_RSHIFT, OP_BITAND, OP_BITOR, OP_BITXOR,
  OP_MATMUL /* @: objects only (numpy's matmul) */
} binop;
typedef enum unop { UN_NEG, UN_POS, UN_INVERT } unop;
typedef enum cmpop {
  CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE,
  CMP_IS, CMP_IS_NOT, /* `x is None` / `x is not None` only (ir/expr.c), never chained (infer.c) */
  CMP_IN, CMP_NOT_IN, /* x in c / x not in c (PySequence_Contains), never chained */
  CMP_ID, CMP_NOT_ID  /* x is y / x is not y of two other operands: the same object? never
                         chained */
} cmpop;
extern const char *const binop_spelling[];
extern const char *const cmpop_spelling[];

struct func;
/* A module-level value a kernel reads: checked by the guard at every call. */
typedef enum slotkind {
  SLOT_GLOBAL_SCALAR, /* module global holding an int/float/bool */
  SLOT_GLOBAL_FUNC,   /* module global bound to a def of this module */
  SLOT_BUILTIN,       /* a builtin (max, abs, ...) not shadowed by a global */
  SLOT_MATH_MODULE,   /* a module global bound by `import math` */
  SLOT_MATH_ATTR,     /* math.NAME (a function or a float constant) */
  SLOT_DEFAULT,       /* a default parameter value of a module function */
  SLOT_OPAQUE,        /* a global called opaquely (allow_in_graph) */
  SLOT_CONST_RESULT,  /* the result of an assume_constant_result function (ty) */
  SLOT_NAME,          /* a global or builtin of any type, read at each use as LOAD_GLOBAL
                         reads it (EX_NAME): no guard of its own */
  SLOT_CLASS,         /* a module global bound to a class statement of this module whose
                         instances kernels are specialised on (slot.cls) */
} slotkind;
typedef struct slot {
  slotkind kind;
  const char *name;        /* global/builtin name (the name the module binds) */
  const char *attr;        /* SLOT_MATH_ATTR: the math attribute */
  const type *ty;          /* SLOT_GLOBAL_SCALAR, float constants of math */
  struct func *fn;         /* SLOT_GLOBAL_FUNC */
  const struct klass *cls; /* SLOT_CLASS */
  int module_slot;         /* SLOT_MATH_ATTR read through `import math`: -1 if
                              bound by `from math import NAME`;
                              SLOT_DEFAULT: the index into __defaults__, or -1 for a
                              keyword-only parameter's (__kwdefaults__[attr]) */
  int index;
} slot;

typedef enum calleekind {
  CALLEE_NONE, CALLEE_MODULE_FN, CALLEE_BUILTIN, CALLEE_MATH,
  CALLEE_OPAQUE, /* allow_in_graph: called through the C API from the kernel */
  CALLEE_METHOD, /* list.append(v) / list.pop([i]) / list.insert(i, v), or any method of an
                    object (through the C API): args[0] is the receiver */
  CALLEE_VALUE   /* f(args) where f is a local holding an object: args[0] is f */
} calleekind;

typedef enum exkind {
  EX_INT, EX_FLOAT, EX_BOOL, EX_NONE, EX_LOCAL, EX_GLOBAL, EX_BINOP, EX_UNARY,
  EX_NOT, EX_COMPARE, EX_BOOLOP, EX_IFEXP, EX_TUPLE, EX_CALL,
  EX_SUBSCRIPT, /* obj[index]: a list, tuple or buffer element; a[i, j]: index is a tuple */
  EX_ATTR,      /* obj.shape / obj.ndim / obj.size of an ndarray, obj.name of an object
                   (u.sub: obj, attr; index NULL) */
  EX_LIST,      /* [a, b, ...]: a new list (u.tuple: the elements) */
  EX_LISTCOMP,  /* [elt for x in it if c ...]: a new list (u.comp) */
  EX_SLICE,     /* obj[lo:hi:step]: a new list (u.slice; absent parts NULL) */
  EX_DICT,      /* {k: v, ...}: a new dict (u.tuple: keys and values alternating) */
  EX_SET,       /* {a, b, ...}: a new set (u.tuple: the elements) */
  EX_NAME,      /* a global or builtin name of any other kind (a class, a function, a
                   module, a list...): an object read at each use as LOAD_GLOBAL reads it
                   (u.global: its SLOT_NAME); NameError when it is unbound */
  EX_CONST,     /* a str or bytes literal (implicit concatenation too, no f-string), an
                   imaginary literal, `...`: an object constant made once from its source
                   text (u.literal) */
  EX_FSTRING,   /* f"...{x!r:>8}...": a new str (u.tuple: the parts, literal ones EX_CONST;
                   fconv and fspec say how each is formatted) */
  EX_FUNCTION,  /* a def or lambda nested in the function: a new function object made as
                   MAKE_FUNCTION makes it (u.mkfn), of the interpreter's own code object; a
                   class statement's body function (the same, with no parameters) */
  EX_FREE,      /* LOAD_DEREF of free variable u.local (its index in func.freevars): the
                   content of that cell of the closure (NameError when empty); as a
                   MAKE_FUNCTION cell (u.mkfn.args), the cell itself, passed on */
  EX_BUILD_CLASS, /* LOAD_BUILD_CLASS: the builtins' __build_class__, which a class statement
                    inside the function calls (NameError when the builtins have none) */
  EX_UNPACKED   /* a list, tuple, set or dict display with starred parts ([*a, b], (*a, b),
                   {*a}, {**m, k: v}): u.tuple, .display 'l' / 't' / 's' / 'd', .splat marking
                   the *x (**m) elements (a dict's others are key, value pairs); an object built
                   as BUILD_LIST, LIST_APPEND, LIST_EXTEND (SET_ADD, SET_UPDATE; MAP_ADD,
                   DICT_UPDATE) build it */
} exkind;
typedef struct expr {
  exkind kind;
  srcpos pos;
  int id;         /* unique in its function (< func.nexprs): its index in each
                     specialisation's side tables (inst.types) */
  slot *guard;    /* a builtin this expression stands for (float("inf"), pow), or NULL */
  union {
    int64_t i;
    double f;
    bool b;
    int local;                  /* EX_LOCAL; EX_FREE: the index in func.freevars */
    const char *literal;        /* EX_CONST: the literal's source text (UTF-8) */
    slot *global;               /* EX_GLOBAL: scalar global or math constant; EX_NAME */
    struct { binop op; struct expr *l, *r; bool inplace; } bin; /* inplace: from x op= v */
    struct { unop op; struct expr *a; } un;
    struct expr *not_arg;
    struct { int n; struct expr **operands; cmpop *ops; } cmp; /* n operands */
    struct { bool is_and; struct expr *l, *r; } boolop;
    struct { struct expr *cond, *then, *orelse; } ifexp;
    struct {
      int n;
      struct expr **elts;
      const char *fconv;        /* EX_FSTRING, per part: 'L' a literal part, else the
                                   conversion: 0, 's', 'r' or 'a' */
      const char **fspec;       /* EX_FSTRING, per part: the format spec's text, or NULL */
      const bool *splat;        /* EX_UNPACKED, per element: is it *x (its items go in)? */
      char display;             /* EX_UNPACKED: 'l' a list, 't' a tuple, 's' a set, 'd' a dict */
    } tuple;
    struct { struct expr *obj, *index; const char *attr; } sub; /* EX_ATTR: index NULL */
    struct { struct expr *obj, *lo, *hi, *step; } slice;
    struct {
      const char *qualname;     /* the nested code's co_qualname */
      int code;                 /* its index in the module's table of nested code objects */
      int ndefaults, nkwdefaults, nannotations, ncells;
      struct expr **args;       /* in the order they are evaluated: the positional defaults,
                                   the keyword-only ones, the annotations, then the locals
                                   it may capture (EX_LOCAL: each one's value goes into a
                                   cell the call's closures share) */
      const char **names;       /* per arg: the parameter (keyword-only default or
                                   annotation, "return" for the return's) or the captured
                                   name; NULL for a positional default */
      struct expr *iterable;    /* a generator expression's: its first iterable, evaluated
                                   after MAKE_FUNCTION; the value is then the generator,
                                   the function called with iter(iterable); else NULL */
    } mkfn;
    struct {
      int result;               /* the hidden local the list is built in (any/all: the bool) */
      struct stmt *loop;        /* the for clauses as loops (if clauses as ifs) around
                                   result.append(elt), an append of the list's own (own_list);
                                   any/all: around `if [not] elt: result = True/False; break` */
      char consumer;            /* 0: [a list comprehension]; a generator expression consumed
                                   on the spot, as a list, by 'v' list/tuple/sorted/str.join
                                   (they take every item before using one) or 'n' sum/min/max
                                   (items that are numbers, whose + and < run no Python code);
                                   'a' any / 'A' all: an inline loop that stops early;
                                   's' set / frozenset, 'd' dict: the set or dict of kind */
      srcpos gen;               /* 'a', 'A': the generator's own place (pos: the call's) */
      const char *reducer;      /* 'n': "sum", "min" or "max"; items that are objects are
                                   folded into result one by one as the builtin folds them
                                   (comprehension_folds) */
      char kind;                /* what is built: 'l' a list, 's' a set ({x for ...}: SET_ADD
                                   as result.add(x)), 'd' a dict ({k: v for ...}: MAP_ADD as
                                   result.__setitem__(k, v), key first) */
    } comp;
    struct {
      calleekind kind;
      const char *name;         /* builtin or math function name */
      const op_row *op;         /* CALLEE_BUILTIN/MATH/METHOD: its row (NULL: a math
                                   function called with arguments no row takes, a method
                                   of an object no row names) */
      slot *callee_slot;        /* guard slot of the callee */
      struct func *fn;          /* CALLEE_MODULE_FN */
      const type *ret;          /* CALLEE_OPAQUE: the callee's return annotation, or NULL */
      bool own_list;            /* a comprehension's append to the list it builds: nothing
                                   else sees that list yet, so the write is not logged; its
                                   .add / .__setitem__ of the set or dict it builds: SET_ADD's
                                   PySet_Add, MAP_ADD's PyDict_SetItem */
      int n;
      struct expr **args;
      int nkw;                  /* keyword arguments: the last nkw of args (calls through the
                                   C API only), named by kwnames */
      const char **kwnames;
      int npos_given;           /* CALLEE_MODULE_FN: args[0..npos_given) were given by position;
                                   the others given were keywords, kw_given (indices into args)
                                   in the source's order; the rest are the callee's defaults */
      int nkw_given;
      const int *kw_given;
      struct expr *callee_name; /* CALLEE_MODULE_FN: the name called (EX_NAME, its slot the callee's),
                                   never evaluated: where a continuation puts the function held */
      int super_cell;           /* super() (CALLEE_VALUE: args super, the first parameter):
                                   1 + the index of __class__ in func.freevars; else 0 */
      const char *via_api;      /* a call of a module function made through the C API: why
                                   not directly (explain), else NULL */
      const char *argform;      /* a call with *args or **kwargs (CALLEE_VALUE, nkw 0), else
                                   NULL: per args[i], i >= 1, 'p' positional, '*' *iterable,
                                   'k' keyword (named by kwnames, in order), 'd' **mapping */
    } call;
  } u;
} expr;

/* Is store/del place `e` a name outside the frame's fast locals: a module
 * global (EX_NAME: STORE_GLOBAL) or a closure cell (EX_FREE, a `nonlocal`
 * name: STORE_DEREF)? Else it is an element, attribute or slice. */
static inline bool is_name_place(const expr *e) { return e->kind == EX_NAME || e->kind == EX_FREE; }

/* Does evaluating e run nothing that can raise or be seen (a local, a constant)? */
static inline bool expr_inert(const expr *e) {
  return e->kind == EX_LOCAL || e->kind == EX_INT || e->kind == EX_FLOAT || e->kind == EX_BOOL ||
         e->kind == EX_NONE || e->kind == EX_CONST;
}

typedef struct target {
  bool is_tuple;            /* a, b = ... / (a, b) / [a, b]: unpacking */
  srcpos pos;
  int local;                /* !is_tuple && !sub */
  int n;                    /* is_tuple */
  struct target **elts;
  bool star;                /* an element of a tuple target written *name: the list of the items
                               between the others (UNPACK_EX) */
  expr *sub;                /* obj[index] = ...: an EX_SUBSCRIPT (an element store);
                               obj.name = ...: an EX_ATTR (an attribute store);
                               NAME = ... of a name declared global: an EX_NAME */
} target;

/* Does target t unpack with a *name among its elements (UNPACK_EX)? */
static inline bool target_starred(const target *t) {
  for (int i = 0; t->is_tuple && i < t->n; i++)
    if (t->elts[i]->star) return true;
  return false;
}

typedef enum stkind {
  ST_ASSIGN, ST_AUGASSIGN, ST_RETURN, ST_IF, ST_WHILE, ST_FOR_RANGE,
  ST_FOR_ITER, /* for target in c / enumerate(c[, start]) / zip(c1, ...) / reversed(c) */
  ST_BREAK, ST_CONTINUE, ST_PASS, ST_EXPR,
  ST_RAISE,  /* raise E / E() / E('text') / E(value) (E a builtin exception class), raise OBJ,
                either with `from CAUSE`, or a bare raise */
  ST_DEL,    /* del obj.name, obj[key], obj[lo:hi], del NAME of a name declared global (EX_NAME)
                (several: left to right); del of a local is a break */
  ST_TRY,    /* try: body / except [E [as name]]: handler ... / else: orelse / finally: finalbody */
  ST_WITH,   /* with MGR [as TARGET]: body (several items: one ST_WITH in another, as CPython does) */
  ST_IMPORT, /* import a.b [as c], ... / from [.]a import b [as c], ... inside a function */
  ST_INTERP  /* a top-level statement that runs in the interpreter (a graph break) */
} stkind;
/* One `except [E [as name]]:` clause of a try statement. */
typedef struct handler {
  srcpos pos;
  expr *type;      /* E: any expression (a class, a tuple of classes), NULL for a bare except */
  struct target *name; /* `as name`: the local it binds (and unbinds at the clause's end), else NULL */
  struct stmt *body;
} handler;

typedef struct stmt {
  stkind kind;
  srcpos pos;
  struct stmt *next;
  union {
    struct { int ntargets; target **targets; expr *value; } assign;
    struct { int local; binop op; expr *value; expr *sub; /* sub: obj[index] op= value */
             expr *op_expr; } aug; /* NAME op= value: `NAME op value` as an in-place EX_BINOP (the
                                      local's read, value), typed and emitted only when NAME is an
                                      instance whose special method is called directly (infer) */
    expr *ret;                  /* NULL: return None */
    struct {
      expr *cond;
      struct stmt *then, *orelse;
      bool assert_;  /* `assert test, msg`: if not test: raise; skipped under python -O */
      bool loop_test; /* `while test:` with an assignment expression first in test, lowered
                         as `while True: name = value; if not test: break` (ir/stmt.c) */
    } if_;
    struct { expr *cond; struct stmt *body, *orelse; bool has_else; } while_;
    struct {
      target *tgt;
      expr *start, *stop, *step; /* start/step NULL when omitted */
      struct stmt *body, *orelse;
      bool has_else;
      /* ST_FOR_ITER */
      char how;                  /* 'i' plain, 'e' enumerate, 'z' zip, 'r' reversed (ST_FOR_RANGE:
                                    'r' for reversed(range(...)), else 'i') */
      int niters;
      expr **iters;              /* the containers iterated */
    } for_;
    expr *expr;
    struct {
      const char *exc;          /* the builtin's name: "ValueError" */
      const char *msg;          /* E('text'): the text (UTF-8), else NULL */
      expr *arg;                /* E(value): the value, else NULL */
      slot *guard;              /* the builtin E is not shadowed (NULL: an assert's, which
                                   CPython takes directly) */
      expr *obj;                /* exc NULL: `raise OBJ`, any exception class or instance */
      expr *cause;              /* `from CAUSE` (of either form), else NULL */
      bool reraise;             /* bare `raise`: the exception being handled, again */
    } raise_;
    struct { int n; expr **subs; } del; /* EX_ATTR, EX_SUBSCRIPT or EX_SLICE, in source order */
    struct {
      struct stmt *body, *orelse, *finalbody;
      int nhandlers;
      handler *handlers;
      bool has_finally;
    } try_;
    struct { expr *mgr; struct target *tgt; struct stmt *body; } with; /* tgt NULL: no `as` */
    struct {
      bool from;            /* from MODULE import ...: one IMPORT_NAME of `module` with the
                               names as fromlist, then an IMPORT_FROM per name; else an
                               IMPORT_NAME per item (fromlist None, level 0) */
      const char *module;   /* from: the dotted module name ("" in `from . import x`) */
      int level;            /* from: the leading dots of a relative import */
      int n;
      const char **names;   /* from: each imported name; else each item's dotted module */
      bool *chain;          /* plain import: `import a.b as c` binds a.b (IMPORT_FROM b after
                               IMPORT_NAME a.b); else the top package a is bound */
      struct target **tgts; /* the local each item binds */
      slot *import_fn;      /* builtins' __import__ (SLOT_NAME: read when it runs; its use
                               makes the guard keep the module's globals current) */
    } import_;
  } u;
  srcpos end;      /* end of the statement (exclusive), for region tables */
  int *cur_after;  /* top-level statements: local version of each base name after it */
  int split_id;    /* statements of split blocks (a partial function's top-level block and
                      the blocks of its interpreted compound statements): 0..nsplit-1 */
  int nblocks;     /* ST_INTERP of a compound statement: its blocks, split in turn */
  struct stmt **blocks;
  bool *binds_body; /* ST_INTERP of a for loop: per local version, bound by its target before
                      each pass of its first block (the body): a region there takes it as a
                      live-in (regions.c) */
  expr *walrus;    /* the statement evaluates `(name := value)` first: the read of name that
                      stands for it, its assignment the statement before (walrus_of) */
  struct stmt *walrus_of; /* an assignment hoisted out of that statement (ir/stmt.c lower_walrus):
                      at its position, a continuation in it goes on in the statement */
} stmt;

/* Graph breaks: a stable id, a short type, the reason and a hint. */
typedef struct gbreak {
  srcpos pos;
  const char *id;     /* e.g. "GB0003" (see ir/lower.c's registry) */
  const char *type;   /* short type, e.g. "unsupported-statement" */
  const char *reason; /* this occurrence, e.g. "'try' statement" */
  const char *hint;
  struct gbreak *next;
} gbreak;

typedef struct spec {   /* one specialisation: the argument types */
  const type **args;
  const char *origin;   /* "annotations", "signatures=", "profile" */
  struct spec *next;
} spec;

typedef struct func {
  const char *name, *qualname;
  const char *cname;       /* its C names' stem, unique in the module: the name, or a method's
                              qualname with "__" for each '.' (scope.c) */
  srcpos pos;            /* of the `def` keyword */
  int firstlineno;       /* co_firstlineno: first decorator line, else def */
  TSNode node;           /* function_definition */
  int nparams;
  const char **params;
  const type **param_ann;  /* PEP 484 annotation per parameter, or NULL */
  const char *array_param; /* a parameter annotated np.ndarray / NDArray[...]: its dtype and
                              dimensions come from a profile, signatures= or the first call */
  const type **param_default; /* type of a constant default, &ty_conflict for another
                                 default, NULL for none */
  TSNode *param_default_node; /* the default's expression (when param_default is set) */
  int ndefaults;
  int nposparams;          /* the parameters before a bare `*`; the rest are keyword-only
                              (kernels take all nparams, in co_varnames order) */
  int nposdefaults;        /* defaults among them (__defaults__); the others' are in
                              __kwdefaults__ */
  int nposonly;            /* the parameters before a `/`: never bound by keyword */
  bool params_ok;          /* parameters a kernel takes (not a tuple or dict pattern) */
  int nvarparams;          /* *args and **kw: the last 1 or 2 of nparams (objects, a tuple
                              and a dict, after the keyword-only ones as in co_varnames) */
  bool star_args;          /* one of them is *args (the first) */
  bool *local_dynamic;     /* [nlocals]: bound by interpreted code, type unknown */
  const type **local_hint; /* [nlocals]: for dynamic ones, the type the statement says */
  bool partial;            /* graph breaks: compiled regions + a resume function */
  int nsplit;              /* statements in split blocks (see stmt.split_id) */
  int nregions;            /* analysis/regions.c: regions found (when regions_done) */
  struct region *regions;  /* [nregions] */
  bool regions_done;
  int nlocals;             /* params first, then other assigned names, then versions and
                              the hidden locals of comprehensions */
  int nexprs;              /* expressions lowered (expr.id < nexprs) */
  bool *not_none;          /* [nexprs] analysis/narrow.c, made with its first specialisation */
  bool *not_none_numbers;  /* [nexprs] the same for "float | None" / "int | None" locals */
  int nbase;               /* locals [0, nbase): the function's own names (cur_after's
                              index) */
  int locals_cap;          /* ir/lower.c: room in locals/local_cnames */
  int *name_index;         /* ir/lower.c: hash table of base names -> local (-1: empty) */
  int name_cap, name_count;
  const char **locals;     /* Python names (a versioned name appears again) */
  const char **local_cnames; /* unique C names: "x", "x_1", ... */
  stmt *body;
  gbreak *breaks;          /* non-NULL: the function runs in the interpreter */
  char method;             /* scope.c: 0 a module-level def; a def in a class body: 'm' a
                              method (self first), 'c' a classmethod, 's' a staticmethod */
  TSNode enclosing;        /* a def or lambda nested in a function: that function's def or
                              lambda node; else null */
  const char **freevars;   /* co_freevars (ir/nested.c): the enclosing functions' variables it
                              reads, __class__ for super(); its kernels read them from the
                              closure of the function they serve (EX_FREE) */
  int nfreevars;
  int nowncells;           /* names after freevars[nfreevars]: locals closures capture and the
                              function rebinds, kept in a cell of the kernel's own (EX_FREE) */
  bool nested;             /* enclosing is set: never a module global (no direct calls) */
  int synth_first;         /* a @dataclass's __init__, synthesised from its fields (classes.c
                              classes_dataclass_inits): the line of its def in the text appended
                              to the source; 0 for a def of the source */
  const struct klass *synth_of; /* that dataclass */
  const char *synth_fields;     /* its fields, comma-separated; ... */
  int synth_defaults;           /* ... the last this many with a default */
  bool synth_post_init;         /* ... and it ends calling self.__post_init__() */
  bool reads_frame;        /* calls locals(), globals(), eval(), ...: never split (a resume
                              function's frame has other locals) */
  bool lowered;            /* ir/ has run */
  bool comprehensions;     /* its body holds list comprehensions (loops inside expressions) */
  const char **declared_globals; /* names of its `global` statements: module globals, not
                                    locals (reads as EX_NAME, stores and dels into the module) */
  int ndeclared_globals;
  /* annotations.c */
  bool is_root;            /* @dynac.compile, --all, or in the profile */
  bool decorated_compile;
  bool fullgraph;
  bool disabled;           /* @dynac.disable: never compiled; calls to it break graphs */
  bool disable_recursive;  /* disable(recursive=True), the default */
  bool eager_backend;      /* backend="eager": guards and dispatch without kernels */
  bool allowed;            /* allow_in_graph: an opaque call inside graphs */
  bool disallowed;         /* disallow_in_graph: calls to it break graphs */
  bool constant_result;    /* assume_constant_result: called once, a constant in kernels */
  const type *ret_ann;     /* PEP 484 return annotation (int, float, bool, None), or NULL */
  spec *specs;
  spec *direct_specs;      /* profile.c: a heap's __lt__ recorded with more class pairs than
                              cache entries take: each pair typed for heapq's comparisons only */
  struct inst **direct_insts; /* infer: those that compile (emit/heap.c calls them) */
  int ndirect_insts;
  const char *not_compiled; /* reason reported when no kernel is emitted */
  struct inst *insts;       /* root instances, one per specialisation */
} func;

/* A kernel instance: one function typed for one tuple of argument types. */
/* What infer found for one specialisation, per expression of its function
 * (indexed by expr.id): written by infer.c alone, read by every phase after
 * it (analyses, emit, export, explain, ir). Owned by the instance. */
typedef struct typing {
  const type **ty;      /* each expression's type (&ty_unknown: not typed) */
  signed char *folded;  /* `x is None`: -2 not yet known, -1 decided when it runs, 0, 1 */
  struct inst **callee; /* a call of a module function: the callee's instance */
  struct poly_site **poly; /* obj.m(...) of an object: the kernels per receiver class, or NULL */
  bool *interpreted;    /* a call of a module function that runs in the interpreter (a
                           generator, graph breaks, no specialisation for its arguments):
                           made through the C API (infer/expr.c: interpreted_call) */
} typing;

/* obj.m(args) of an object whose class the kernel does not know, where the
 * profile saw instances of some of the module's classes as receivers of the
 * def m resolves to in each (infer/expr.c: type_polymorphic): per class, the
 * specialisation called directly when the receiver is exactly an instance of
 * it (emit/calls.c: emit_polymorphic_call); any other receiver: CPython's
 * call. As a polymorphic inline cache, filled ahead of time from the profile. */
#define POLY_MAX 8
/* The same for cls(args) of a class in a local (type_polymorphic_construction):
 * per class, its __init__'s kernel run on an instance made as object.__new__
 * makes it (emit/calls.c: emit_polymorphic_construction). */
typedef struct poly_site {
  int n;
  const struct klass *k[POLY_MAX];
  struct inst *callee[POLY_MAX];
} poly_site;

typedef struct inst {
  func *fn;
  const type **args;
  const type **local_ty;
  typing types;            /* per expression (ty_of) */
  bool reachable;          /* emit/module.c: an entry or region runs it, or a kernel calls it */
  bool heap_direct;        /* emit/heap.c: heapq's comparisons call it (a direct specialisation) */
  const type *ret;         /* TY_UNKNOWN: never returns a value (None) */
  bool ret_may_be_none;
  bool takes_entry_args;   /* emit/kernel.c: its last parameter, dynac__args, is the caller's argument
                              objects (the glue's; a direct call's literals and passed-on parameters,
                              else NULL): its parameters' boxes (declare_param_boxes) */
  const char *keeps_box;   /* [fn->nparams] emit/kernel.c params_to_keep_boxed, or NULL */
  const char *reads_args;  /* [fn->nparams] once its kernel is emitted: 1 where it reads dynac__args[p]
                              (a call passes an object there only then), else NULL */
  signed char emit_state;  /* emit/module.c: 1 while its callees are emitted, 2 once it is */
  int kernel_index;        /* emit/module.c: its place in m->insts (its kernel's text) */
  bool returns_literal;     /* a `return` of a float literal (`return 0.1`, `return -1.0`): its callers
                              box that value to one object, as CPython returns the constant */
  double ret_literal;      /* the first such literal */
  unsigned ret_params;     /* bit p: a `return` of parameter p (infer/stmt.c note_returned_params) */
  bool ok;
  const char *fail;        /* why this specialisation has no kernel */
  srcpos fail_pos;
  const char *cname;       /* "rgb_to_hls__fff" */
  bool *slots_used;        /* [nslots] transitively, callees included */
  bool *slots_named;       /* [nslots] those used by a global's name (infer.h use_named_slot), not
                              only as an instance's class; transitively */
  struct inst **callees;
  int ncallees;
  bool typing;             /* in progress (recursion) */
  signed char inlined, chains; /* emit/kernel.c's always_inline verdicts: 0 not asked, 2 yes, 3 no */
  struct inst *next_all;   /* module's list of all instances */
  struct inst *next_root;  /* func's list of root instances */
  const char *origin;
  int pass_changed;        /* internal to infer.c */
  bool effectful;          /* makes opaque calls or writes to containers (itself or
                              through callees): cannot deoptimise once one ran */
  bool logs_nothing;       /* emit/kernel.c: its emitted kernel never touches the undo log (no
                              logged write, no callee that may log): its callers need no mark */
  bool opaque_calls;       /* makes allow_in_graph calls (itself or through callees) */
  bool containers;         /* holds lists or buffers (borrowed references) */
  bool pins;               /* makes or slices ndarrays (infer/arrays.c), held for the call
                              in its pins (runtime/containers.h) */
  bool builds_lists;       /* makes new lists (displays, comprehensions, slices, list
                              operators, calls returning lists): list locals hold owned
                              references, and no tuple value may hold a list */
  bool nested_as_objects;  /* typed again after its generic operations met a list of lists
                              it builds: the inner lists it stores are held as objects */
  bool nested_refused;     /* internal to infer: why the first typing failed */
  bool attrs_guessed;      /* typed an attribute of an object of no known class as a number
                              (classes_attr_type_any) */
  bool attrs_as_objects;   /* typed again after a typing with such guesses failed (`o.time.real`
                              of a float): every attribute of an object is an object */
  bool list_attrs_typed;   /* typed an instance's attribute recorded as a list as that list */
  bool list_attrs_as_objects; /* typed again after a typing with such lists failed: they are
                              objects */
  bool generic;            /* operates on objects through the C API (itself or through
                              callees): Python code may run, so no deoptimisation after */
  const char **top_fail;   /* partial functions: per top-level statement, why it is not
                              compiled (NULL: it is) */
  int ntop;
} inst;

/* The object a store, augmented store or del place changes (obj of obj[i],
 * obj.name, obj[lo:hi]); NULL for a name declared global (EX_NAME). */
static inline expr *place_obj(const expr *place) { /* a global or a cell: none */
  if (place->kind == EX_NAME || place->kind == EX_FREE) return NULL;
  return place->kind == EX_SLICE ? place->u.slice.obj : place->u.sub.obj;
}

/* Is obj[index] of an ndarray a place numpy's setitem takes whole (a
 * slice, a row, a mask)? (infer/arrays.c) */
bool array_object_place(const inst *in, const expr *sub);
/* The numpy function call e names (np.zeros(...), zeros(...) imported from
 * numpy; no *args or **kwargs), or NULL; args[0] is the module or the
 * callee (infer/arrays.c). */
const char *numpy_callee(struct module *m, const expr *e);
/* Is e a global bound by an import of numpy (np, numpy, any alias)? */
bool names_numpy(const struct module *m, const expr *e);
bool is_newaxis(struct module *m, const expr *p); /* None or np.newaxis in an index */
/* The ufunc row of call e when it is np.NAME(numbers) typed numpy.float64
 * (infer/expr.c type_np_ufunc), else NULL. */
const op_row *np_ufunc_row(struct module *m, const expr *e);
/* a.min(), a.max(), a.sum(), a.prod(), a.mean(), a.argmin(), a.argmax(), np.min(a), np.max(a), ...
 * of a float64 or int64 ndarray, no other argument: the numpy scalar numpy
 * gives (checked when it runs), else NULL (infer/arrays.c). */
const type *np_reduction_type(struct module *m, const inst *in, const expr *e);
/* Is e a float64 whole-array expression (an object): + - * / ** and unary
 * - of float64 arrays and numbers, numpy's ufuncs of such, or `p op v` of
 * p op= v on a float64 array (what fused loops compute; infer/arrays.c)? */
bool whole_array_expr(struct module *m, const inst *in, const expr *e);
/* Is `a` the argument of a builtin sum() that adds float64 items: a 1-D
 * float64 ndarray, or a whole-array expression of C-ordered 1-D float64
 * arrays (infer/arrays.c)? The sum is then computed in C (emit/calls.c). */
bool array_sum_arg(struct module *m, const inst *in, const expr *a);
/* a op= v of a float64 ndarray `a` typed `at` and a number, numpy scalar,
 * ndarray or float64 whole-array expression v: `at` (numpy's in-place ufunc
 * gives `a` back), else NULL (infer/arrays.c). */
const type *inplace_array_type(struct module *m, const inst *in, const type *a, const expr *v);
/* The type of expression e in specialisation `in` (infer.c's side table). */
static inline const type *ty_of(const inst *in, const expr *e) { return in->types.ty[e->id]; }
/* Is the slice e (EX_SLICE) of an object, or with an object bound: a slice
 * object and PyObject_GetItem rather than a typed list slice? */
bool slice_is_generic(const inst *in, const expr *e);
/* Is the for loop s (ST_FOR_ITER, typed) generic: over an object, or
 * enumerate/zip of objects or of lists of objects (the builtin's iterator,
 * PyIter_Next; its items objects)? */
bool for_iter_is_generic(const inst *in, const stmt *s);

typedef struct modconst {   /* module-level NAME = <constant expression> */
  const char *name;
  const type *ty;           /* TY_CONFLICT if assigned several types */
  int assignments;
  TSNode value;             /* the expression assigned (the only one when assignments == 1) */
} modconst;

/* A function dynac does not compile yet because of where it is defined: a
 * method, a function nested in another, a lambda (scope.c finds them so
 * that explain lists every function of the module). */
typedef struct other_func {
  const char *qualname;     /* CPython's __qualname__: C.m, f.<locals>.g, f.<locals>.<lambda> */
  srcpos pos;
  const char *reason;
} other_func;

/* A class attribute kernels rely on, which the class guard checks
 * (descriptors.h: dynac_method_desc): the class's lookup of `name` gives
 * the def f (kind 'f': a method called directly, 'p': the getter of a
 * property read directly, 'P': its setter, 's': a staticmethod's function,
 * 'c': a classmethod's function), or nothing
 * ('-': x += v runs __add__ while the class has no __iadd__). */
typedef struct class_member {
  const char *name;
  struct func *f;           /* NULL for '-' */
  char kind;
  int up;                   /* looked up from the class `up` bases above (super().m() in a
                               base's method: the instance's class, then each tp_base) */
} class_member;

/* A module-level class statement whose instances kernels may be specialised
 * on (classes.c): `Vec` of `class Vec:` / `class Vec(Base):` with Base a
 * class of the module or object. Attribute types come from the profile
 * (what `dynac record` saw in instances' __dict__ and __slots__). */
typedef struct klass {
  const char *name;         /* its __qualname__ (a module-level name) */
  srcpos pos;
  int firstlineno;          /* of the class statement (a decorator's line if decorated) */
  struct klass *base;       /* the base class when it is one of the module's, else NULL */
  const char *why_not;      /* why instances are not specialised on (a metaclass, a
                               __getattr__, ...), or NULL */
  bool slots;               /* defines __slots__ */
  bool defines_new;         /* defines __new__ (Cls(...) may return anything) */
  char dataclass;           /* decorated @dataclass: 1 with the __init__ it generates by default
                               (no init=, kw_only= other than theirs; frozen= either), 2 otherwise */
  bool frozen;              /* @dataclass(frozen=True): its __init__ stores as object.__setattr__
                               does (DYNAC_STORE_GENERIC), and no other store may succeed */
  bool dc_slots;            /* @dataclass(slots=True): instances keep the fields in __slots__ members */
  bool dc_kw_only;          /* @dataclass(kw_only=True): its own fields are keyword-only parameters */
  bool named_tuple;         /* class C(typing.NamedTuple): a tuple subclass; its fields are
                               read through their descriptors (CPython's lookup), typed as
                               the body declares them; namedtuple's __new__ makes them */
  int nattrs;
  const char **attr_names;  /* recorded instance attributes ... */
  const type **attr_types;  /* ... and their types (object when they varied) */
  int nanns;                /* attributes the class body declares (`x: float`) ... */
  const char **ann_names;
  const type **ann_types;   /* ... as their annotations say (recorded types come first) */
  uint32_t stmt_index;      /* its statement among the module's */
  type inst;                /* the instance type (TY_OBJ with cls = this) */
  type inst_or_none;        /* "Cls | None" (TY_OBJ with or_none = this) */
  type rec;                 /* an instance kept as its fields (TY_OBJ, cls = this, rec) */
  signed char recordable;   /* classes_recordable's verdict: -1 not yet asked, 0, 1 */
  int nfields;              /* recordable: the fields __init__ sets, in the order it sets them */
  const char **field_names;
  const type **field_types; /* float, int or bool */
  bool rec_used;            /* some kernel keeps instances as fields: emit the struct */
  bool named;               /* a specialisation's or an attribute's type names it */
  slot *slot;               /* its guard (SLOT_CLASS), made for named classes before the IR */
  int nmembers;             /* what kernels rely on, checked by the class guard */
  class_member *members;
} klass;

typedef struct module {
  arena *a;
  parsed p;
  const char *path;
  const char *modname;      /* file stem */
  func **funcs;
  int nfuncs;
  other_func *others;       /* methods, nested functions, lambdas, in source order */
  int nothers;
  struct nested_code { const char *qualname; int firstlineno, rank, col; } *codes; /* the code
                               objects kernels make functions of (EX_FUNCTION), as the
                               runtime finds them (dynac_code_desc) */
  int ncodes;
  const char **names;       /* the attribute and global names kernels use, interned at import
                               into dynac__names[] (a code object's co_names; objects.c) */
  int nnames, capnames;
  double *float_literals;  /* the float literals kernels return that a caller boxes, or pass to a
                              kernel that keeps them: one object each, made at its first use into
                              dynac__floats[] (a code object's co_consts) */
  int nfloat_literals, capfloat_literals;
  bool future_annotations;  /* `from __future__ import annotations`: annotations are strings */
  modconst *consts;
  int nconsts;
  const char **math_module_names; /* names bound by `import math [as m]` */
  int nmath_module_names;
  const char **math_from_names;   /* local name -> math attribute */
  const char **math_from_attrs;
  int nmath_from;
  const char **import_names;      /* names bound by import statements ... */
  const char **import_targets;    /* ... and what each names: "numpy", "numpy.typing.NDArray" */
  int nimports;
  const char **other_globals;     /* every other module-level binding */
  int nother_globals;
  bool imports_dynac, imports_torch;
  const char *opaque_names[64];   /* globals named by module-level allow/disallow_in_graph */
  bool opaque_allowed[64];        /* true: allow_in_graph (opaque call), false: disallowed */
  int nopaque;
  slot **slots;
  int nslots;
  klass **classes;          /* module-level class statements (classes.c) */
  int nclasses;
  inst *insts;              /* every typed instance, in creation order */
  /* options */
  int all;                  /* --all: 1; --all-objects: 2 (driver.h) */
  bool trusted_syntax;
  const char *const *suppressed; /* --suppress-errors: functions left to the interpreter */
  int nsuppressed;
  const struct profile *prof;
  const char *realpath; /* to match profile entries */
  struct heap_less *heap_less; /* emit/heap.c: the classes whose compiled __lt__ heapq's comparisons call */
  int nheap_less;
} module;

/* ---- phases ------------------------------------------------------------- */
bool scope_module(module *m);                  /* scope.c */
/* classes.c: the module's class statements and their instances */
void classes_scope(module *m);
void classes_dataclass_inits(module *m); /* after classes_scope: dataclass_init.c */
TSNode classes_def(const module *m, const klass *k); /* its class_definition node */
struct func *scope_synthesised_method(module *m, TSNode def, const char *qualname);  /* after scope_module: finds them, reads the profile's attributes */
/* The class a type name means in m ("Vec", "__main__.Vec", "pkg.mod.Vec"), or NULL. */
klass *classes_find(const module *m, const char *name);
/* The def `name` that instances of k find through k and its module bases: a
 * plain method (self first, no *args) of the module; NULL if it is anything else. */
struct func *classes_method(const module *m, const klass *k, const char *name);
/* The recorded type of instance attribute `name` of k, or NULL (not recorded). */
const type *classes_attr_type(const klass *k, const char *name);
/* obj.NAME of an object of no class the kernel knows: the number type (float,
 * int within int64, bool) every class of the module that records or declares
 * NAME gives it, when they agree; else NULL (an object). The read is checked
 * (a value of another type deoptimises), as a list element's; PyPy's JIT
 * guesses the same from the classes its trace saw. */
const type *classes_attr_type_any(const module *m, const char *name);
/* May kernels keep instances of k that they make as fields in C (scalar
 * replacement, as PyPy's virtuals and Cython's structs keep them): a plain
 * class of the module (no __slots__, __new__, __del__, __setattr__,
 * __getattribute__ or __getattr__; no base other than object) whose
 * __init__, a def of the module, sets attributes in its top-level
 * statements (`self.x = ...`), each recorded or declared float, int or
 * bool, none of them earlier in a nested block? Those are its fields, in
 * the order __init__ first sets them (k->field_names). Asked from infer
 * (the def's IR exists then). */
bool classes_recordable(module *m, klass *k);
/* The index of field `name` of recordable k, or -1. */
int classes_field(const klass *k, const char *name);
/* t as a value held elsewhere: an instance kept as fields is the instance. */
const type *ty_unrec(const type *t);
/* The guard slots of the classes types name (after annotations, before
 * the IR: instances' slot tables are sized then); a slot's check covers the
 * methods kernels call directly (noted with classes_use_method). */
void classes_make_slots(module *m);
void classes_use_method(module *m, klass *k, struct func *f);
/* k's attribute `name` found through k and its module bases at build time
 * as what a kernel may call directly: *kind 'f' a plain method def
 * (undecorated; keyword-only parameters too, not **kwargs, nor *args
 * with them), 's' a @staticmethod def,
 * 'c' a @classmethod def (the class first),
 * 'p' a @property getter (self only); NULL (and *kind 0) otherwise. */
struct func *classes_member(const module *m, const klass *k, const char *name, char *kind);
/* Global `name` is the receiver of a method call (Cls.m(...), lowered
 * now): when it names a class of the module, that class gets its guard
 * slot, for a direct call of m. */
void classes_named_receiver(module *m, const char *name);
/* super() in method f (of module class C) on an instance of exactly d (C or
 * a subclass): how many bases above d its lookup starts (C's base), or -1. */
int classes_super_up(const module *m, const struct func *f, const klass *d);
/* k's base `up` levels above (NULL past the module's classes). */
klass *classes_up(klass *k, int up);
/* The setter def of k's property `name` (`@name.setter` after `@property
 * def name`), found through k and its module bases, or NULL. */
struct func *classes_setter(const module *m, const klass *k, const char *name);
/* Kernels call f as k's member of `kind`, looked up `up` bases above k. */
void classes_use_member(module *m, klass *k, struct func *f, char kind, int up);
/* Does k or a module base define `name` (a def in the class body, decorated or not)? */
bool classes_defines(const module *m, const klass *k, const char *name);
/* Kernels rely on k's lookup of `name` finding nothing (checked by k's guard). */
void classes_use_absent(module *m, klass *k, const char *name);
func *scope_find_func(module *m, const char *name);
const modconst *scope_find_const(module *m, const char *name);
const char *scope_math_from(module *m, const char *name);
bool scope_is_math_module(module *m, const char *name);
/* The dotted name an import bound `name` to ("np" -> "numpy", "NDArray" ->
 * "numpy.typing.NDArray"), or NULL. The last import at module level wins. */
const char *scope_import_target(const module *m, const char *name);
/* `text` (an annotation) with each imported name at the head of a dotted
 * name spelled as its import's target: "npt.NDArray[np.float64]" ->
 * "numpy.typing.NDArray[numpy.float64]". Arena string. */
const char *scope_canonical_names(module *m, const char *text);
bool scope_is_global(module *m, const char *name);

bool annotations_module(module *m);            /* annotations.c */
bool parse_signature(struct module *m, const char *text, const type ***args, int *n,
                     const char **err);

void ir_lower_func(module *m, func *f);         /* ir/split.c */
void ir_lower_module(module *m);                /* ir/split.c: the IR phase, before infer_module */
/* Calls visit(ctx, sub) for each direct subexpression of `e` in the order
 * it is evaluated (NULL parts skipped). An EX_LISTCOMP has none: its
 * clauses are statements (e->u.comp.loop), which a walker enters itself. */
void ir_each_subexpr(expr *e, void (*visit)(void *ctx, expr *sub), void *ctx);
/* The statement-side counterpart: the direct parts of statement `s` in the
 * order they run, each expression (NULL ones skipped) through v->expr, each
 * assignment or loop target through v->target, each nested block through
 * v->block (the blocks of an interpreted compound statement only when
 * v->interp_blocks). An augmented assignment to a local has no target part:
 * the walker sees s->u.aug.local itself. */
typedef struct ir_parts {
  void (*expr)(void *ctx, expr *e);
  void (*target)(void *ctx, target *t);
  void (*block)(void *ctx, stmt *b);
  bool interp_blocks;
} ir_parts;
void ir_each_part(stmt *s, const ir_parts *v, void *ctx);
/* Does statement s hold a while or for loop (itself, or in its blocks)? */
bool stmt_has_loop(const stmt *s);
/* Does any statement of block s (s->next...) hold one? */
bool has_loop(const stmt *s);
slot *ir_slot(module *m, slotkind kind, const char *name, const char *attr,
              const type *ty, func *fn, int module_slot);
extern const struct gb_registry {
  const char *id, *type, *explanation, *hint;
} gb_registry[];
const struct gb_registry *gb_lookup(const char *type);

void infer_module(module *m);                   /* infer.c */
/* The instances the calls in statements first..last (one block) of `in`
 * reach (a region's callees), at most cap; returns how many. */
int infer_region_callees(inst *in, stmt *first, stmt *last, inst **out, int cap);
/* Does `in` take objects (an argument of type object, or a list or tuple
 * holding them; an instance of one class is typed)? Its cache entry accepts
 * any such argument: typed entries go first (DYNAC_ENTRY_GENERIC). */
bool takes_objects(const inst *in);
/* The truth of a condition as specialisation `in` types it: 1 or 0 when
 * its types decide it (`x is None`, `not ...`, True), -1 when it is decided
 * as it runs, -2 while a type is still unknown (typing only). */
int constant_truth(const inst *in, const expr *e);
bool boolop_right_dead(const inst *in, const expr *e);
bool is_object_chain(const inst *in, const expr *e); /* infer/expr.c */
/* Does control never pass the end of `s` (return, raise, or an `if` whose
 * live branches all end so, as `in` types them)? */
bool ends_flow(const inst *in, const stmt *s);
/* Can control reach the end of block `s`? (conservative: may say yes) */
bool falls_through(const inst *in, stmt *s);
/* Is `e` (an EX_CALL) the operation `id` of the table (ops.c)? */
bool ops_call_is(const expr *e, op_id id);
/* The positional values of call e, before a last *iterable if it has one
 * (*star set): f(a, b) or f(a, b, *t); -1 for any other form (infer/expr.c). */
int call_positional_star(const expr *e, bool *star);
/* Is `e` math.f(x) of one argument where f of a float is libm's function or
 * CPython's own C (a float result, math_1's: an exact float or an error,
 * whatever x is)? */
bool math_float_of_one(const expr *e);
/* Is this method call (CALLEE_METHOD, arguments typed) made through the C
 * API: on an object, or on a list with an object index (pop/insert)? */
bool method_via_api(const inst *in, const expr *e);
/* Is call e obj.m(...) of an instance whose m's kernel it calls directly
 * (infer/expr.c: type_devirtualised)? Its callee is types.callee[e->id]. */
bool method_devirtualised(const inst *in, const expr *e);
bool packs_star_args(const func *f, int n);
/* The parameter of f that value i of call e binds (infer/expr.c): i + delta
 * for a value given by position; for one of e's last nkw, the parameter its
 * keyword names (-1: f has none). */
int call_param(const expr *e, const func *f, int i, int delta);
/* Is this call of a builtin or math function (arguments typed) made
 * through the C API, the function object from its guard slot: it has
 * keyword arguments, or an argument is an object (len() and sum() aside:
 * typed forms of their own)? */
bool function_via_api(const inst *in, const expr *e);
bool min_max_of_list(const inst *in, const expr *e); /* min(xs) / max(xs) of a list of numbers */
bool comprehension_folds(const inst *in, const expr *e);
bool folds_numbers(const inst *in, const expr *e);
/* Result type of l OP r for number types (bool promoted), or &ty_conflict. */
const type *binop_result(binop op, const type *l, const type *r);

/* ---- analyses (analysis/): pure functions of the IR and its types ------- */

/* regions.c: a region of a partially compiled function: a maximal run of
 * statements of one split block that type in every specialisation. */
typedef struct region {
  stmt *s_first, *s_last;   /* in one split block */
  bool top;                 /* in the function's own block: names are versioned */
  const int *cur_before;    /* then each base name's version as it starts (NULL: itself) */
  int nin, nout;
  int *in, *out;            /* local versions: live-ins read, live-outs written */
  int ops;                  /* its operations (graph_ops_of) */
  bool small;               /* no loop and fewer operations than REGION_MIN_OPS and
                               REGION_OPS_PER_OUT per live-out: a call of its kernel costs more
                               than the interpreter running it (the loader leaves it to the
                               interpreter unless DYNAC_SMALL_REGIONS=1) */
} region;
/* The fewest operations a region without a loop needs to be worth its
 * kernel's call from the resume function: the call, its live-ins boxed and
 * a tuple of its live-outs take about what the interpreter takes for 8
 * operations, and storing each live-out back (a test and a store in the
 * resume function's bytecode) for 3 more (measured: a loop of 200,000
 * passes around a graph break, make bench's machine). */
#define REGION_MIN_OPS 8
#define REGION_OPS_PER_OUT 3
/* The regions of `f` in source order (*out: arena-owned), with live-ins
 * (read in the region, definitely bound at its entry: parameters,
 * assignments before it, `x = typed_fn()`) and live-outs (written in it). */
int regions_find(module *m, func *f, region **out);
/* The analyses phase: the regions of every graph-broken function, found
 * once (regions_find then returns them). */
void analyses_module(module *m);
/* The function's own name that local version v stands for (v itself for a
 * comprehension's hidden local: >= f->nbase, never versioned). */
int regions_base_local(func *f, int v);

/* graph_ops.c: the graphs of a compiled function (its regions, or the whole
 * body): their count, and the operations in each (*ops, arena-owned). */
int graph_ops_count(module *m, func *f, int **ops);
/* The operations of statements first..last of one block, as explain counts them. */
int graph_ops_of(stmt *first, stmt *last);
/* Does f run any region as a kernel by default (one that is not small)? */
bool regions_any_kept(module *m, func *f);

/* bounds.c: range-derived bounds-check elimination. A position `index` of
 * view parameter `container` (dimension `dim`) that is a * v + b or
 * a * v - b (neg) in the loop variable v, with b (NULL: 0) the same at every
 * iteration: an int constant, an int local, or one + - * of two such. */
typedef struct proven_index {
  expr *index;
  int container;
  int dim;
  int64_t a;
  expr *b;
  bool neg;
} proven_index;
/* The positions of such accesses in the body of `loop` (an ST_FOR_RANGE
 * whose variable the body never rebinds), up to `cap`: `views` marks the
 * view parameters never rebound, `bound` the locals definitely bound before
 * the loop. */
int find_affine_indices(const inst *in, const stmt *loop, const bool *views, const bool *bound,
                        proven_index *out, int cap);
/* Does a statement of the block, at any depth, bind local `loc`? (an
 * interpreted statement may bind anything) */
bool block_binds(const stmt *s, int loc);
bool block_deletes(const stmt *s, int loc); /* `del` of local loc in block s (nested blocks too) */
/* Does assignment or loop target `t` bind local `loc`? */
bool target_binds(const target *t, int loc);

/* star_args.c: does f only spread its *args (`g(a, *args)` its one use,
 * not in a statement the interpreter runs)? Where its kernel also holds
 * the parameter borrowed (emit: spread_param), it takes the caller's
 * values (PyObject *const *p_NAME, Py_ssize_t n_NAME) where CPython's
 * call makes a tuple. */
bool star_args_spread_only(const func *f);

/* islands.c: is `in` an undecorated function's kernel whose typed islands
 * (operations on unboxed values) weigh less than its attribute reads, writes
 * and method calls on objects (each counted 8 times inside loops)? Its entry
 * serves calls only when DYNAC_GENERIC_KERNELS=1. */
bool generic_only(const module *m, const inst *in);
/* Is call e `X.heappush(heap, item)` / `X.heappop(heap)` (positional
 * arguments only, through the C API)? emit/heap.c compiles its comparisons
 * when the module has compiled __lt__s (module.nheap_less). */
bool heapq_call_shape(const expr *e);
/* Which classes' __lt__ kernels heapq's comparisons call (module.heap_less);
 * adds __lt__ to their class guards. After infer; again before the slots are
 * written (idempotent). */
void heap_plan(module *m);
/* "Cls (Def.__lt__), ..." of the classes heap_plan chose (for explain), or NULL. */
const char *heap_less_text(module *m);

/* fresh.c: [nlocals] the list locals of `in` bound only to lists the call
 * itself makes (displays, comprehensions, slices, list + and *): writes to
 * them need no undo entry. */
bool *fresh_list_locals(arena *a, const inst *in);

/* narrow.c: [nexprs] the reads of locals (EX_LOCAL) that CPython's
 * semantics prove not None: after `if x is None: return` or `if not x:
 * return`, inside `if x is not None:`, `while x is not None:`, `if x:`,
 * `while x:`, right of `x is not None and`, until x is bound again. A
 * "Cls | None" local read there is an instance of Cls. numbers: the reads
 * of a "float | None" or "int | None" local, whose `x op= v` (typed as its
 * number's operation) leaves x not None where it was. */
bool *narrow_not_none_reads(arena *a, const func *f, bool numbers);

/* replay.c: [nparams] the view parameters of `in` that the function only
 * stores to, so that a deoptimised call's run again rewrites them as they
 * were written: their stores need no undo entry when the view shares no
 * memory with a view the call reads (tested when the call starts). All
 * false for a kernel another kernel calls, or one that runs Python code. */
bool *store_only_views(arena *a, const module *m, const inst *in);

/* shapes.c: a for loop over a list of tuples whose items' shape one test
 * before the loop proves (loop versioning on a type test). Each fact: the
 * list at `path` of the item (".v0.v1": field 1 of field 0) holds exactly
 * (exact) or at least `n` items, the first n of them floats; `local` names
 * that list in the body (-1: a [x, y, z] unpacking takes it apart). */
#define SHAPE_MAX_FACTS 32
typedef struct shape_fact { const char *path; int local; int n; bool exact; } shape_fact;
typedef struct shape_plan { shape_fact facts[SHAPE_MAX_FACTS]; int n; } shape_plan;
/* Can loop `s` be versioned so? (its body keeps every list's shape) */
bool shape_plan_for(arena *a, const inst *in, const stmt *s, shape_plan *plan);
/* The loops over a list local inside loop `outer` (whose whole body keeps
 * every shape) that one test before `outer` proves: false when none. */
#define SHAPE_MAX_LOOPS 8
typedef struct shape_nest {
  const stmt *loops[SHAPE_MAX_LOOPS];
  shape_plan *plans[SHAPE_MAX_LOOPS];
  int n;
} shape_nest;
bool shape_nest_for(arena *a, const inst *in, const stmt *outer, shape_nest *nest);
const shape_plan *shape_nest_plan(const shape_nest *nest, const stmt *loop); /* NULL: not one */
/* Are a tuple type's leaves floats and lists of floats? */
bool shape_tuple_plain(const type *t);

typedef struct emit_opts { const char *templates_dir; bool line_directives; } emit_opts;
bool emit_module(module *m, const emit_opts *o, strbuf *out); /* emit/module.c */
/* Templates: the text of templates/NAME (malloc'd; NULL after a diagnostic),
 * and a copy of it with each `/ *@ NAME @* /` hole replaced by its value. */
typedef struct hole { const char *name; const char *value; } hole;
char *read_template(const emit_opts *o, const char *name);
bool fill(const char *tpl, const hole *holes, int nholes, strbuf *out);
/* dynac export: the kernel of `in` as plain C (failures fill a
 * dynac_x_status *dynac_st, its last parameter); its prototype goes to protos. */
bool emit_export_kernel(module *m, inst *in, const char *tpl, bool line_directives,
                        strbuf *protos, strbuf *out);
/* export.c: `dynac export`, the kernels of FILE.py as a C library without Python. */
typedef struct export_opts {
  const char *outdir, *prefix, *plain_c_header; /* plain_c_header: dynac.h's path */
  const char *const *functions; /* --function NAMEs; none: every compile root */
  int nfunctions;
  bool line_directives;
} export_opts;
bool export_module(module *m, const emit_opts *eo, const export_opts *xo);
/* The guards of a root instance in check order, as the artifact records them. */
int emit_guard_list(module *m, inst *in, const char ***out);
/* emit/writer.c: is parameter i the *args kernels of `in` take as their caller's values
 * (PyObject *const *p_NAME, Py_ssize_t n_NAME: analysis/star_args.c)? */
bool spread_param(const inst *in, int i);
const char *c_type(const type *t);
const char *c_item_type(char fmt); /* C type of a buffer item of struct format fmt */

typedef struct cc_opts {                        /* cc.c */
  const char *cc, *python_include, *dynac_include, *ext_suffix;
  bool profiled; /* built with a profile: GCC's larger inlining budgets (cc.c gcc_inlining) */
} cc_opts;
bool cc_build(const char *c_path, const char *so_path, const cc_opts *o);
bool cc_check(const char *c_path, const cc_opts *o);

typedef struct profile_fn {                     /* profile.c */
  const char *file, *qualname;
  int nsigs;
  const char ***sigs;  /* per signature: nargs type names */
  int *sig_nargs;
} profile_fn;
typedef struct profile_class {                 /* the instance attributes record saw */
  const char *file, *name;  /* the class's module file; "module.Qualname" as type names spell it */
  int nattrs;
  const char **attr_names, **attr_types;
} profile_class;
typedef struct profile {
  profile_fn *fns;
  int nfns;
  profile_class *classes;
  int nclasses;
} profile;
/* Adds the specialisation `args` (arena-owned, one type per parameter) to
 * f unless f has it already; origin: "annotations", "signatures=", "profile". */
void annotations_add_spec(module *m, func *f, const type **args, const char *origin);
/* Appends a specialisation taking args (nparams of them) to *list unless it
 * holds one with the same types: true when it was added. */
bool spec_append(module *m, spec **list, int nparams, const type **args, const char *origin);
/* Adds the specialisations the profile recorded for f (one already there
 * is not added twice); true if the profile recorded any call of f. */
bool profile_specs(module *m, func *f);
bool profile_load(arena *a, const char *path, profile *out);

#endif
