/* infer.h: what the files of infer/ share (the phase's interface is gen.h):
 * the typing context of one specialisation and the functions the files
 * call across. Types go to the side tables of the instance typed (inst.types). */
#ifndef DYNAC_INFER_H
#define DYNAC_INFER_H

#include "../gen.h"

/* Reads of the side tables of the instance being typed (c->in). */
#define TY(e) ty_of(c->in, (e))

/* The typing of one specialisation (a pass over its function). */
typedef struct ctx {
  module *m;
  inst *in;
  bool strict;   /* final pass: an unknown type is a failure */
  int top;       /* partial functions: split_id of the split-block statement being typed */
  expr *unpacked; /* a tuple display assigned straight to unpacking targets (a, b = b, a):
                     the only tuple that may hold objects (owned by temporaries) */
} ctx;

/* Slot k used by a global's name (a read, a store, a call of a global
 * function or class): the kernel depends on what the name is bound to,
 * not only on a class's layout as an instance's type does. */
static inline void use_named_slot(ctx *c, int k) {
  c->in->slots_used[k] = true;
  c->in->slots_named[k] = true;
}

/* expr.c */
void type_fail(ctx *c, srcpos pos, const char *msg);
const type *binop_type(ctx *c, expr *e, binop op, const type *l, const type *r);
bool storable(ctx *c, srcpos pos, const type *ct, const type *vt);
/* l.extend(v), l += v of a list of type lt: v a list or tuple of lt's own element type (its items
   added without Python code running, and none of another type into the typed list)? Else a failure
   (`what`: ".extend()", "'+='"). */
bool extendable(ctx *c, srcpos pos, const type *lt, const type *vt, const char *what);
/* The element type of an empty list that `.extend(v)` fills first, or NULL. */
const type *extends_empty_with(const type *vt);
bool is_np_int(const type *t);
const type *generic_op(ctx *c);
/* A value the C API operates on: an object, a Python number (boxed), a list. */
bool generic_operand(const type *t);
const type *type_expr(ctx *c, expr *e, bool truth);
void bind_target(ctx *c, target *tg, const type *t, srcpos pos);
void type_delete(ctx *c, expr *place);

/* arrays.c */
const type *type_made_array(ctx *c, expr *e, const type **at);
/* np.tanh(x), np.maximum(x, y) of numbers: numpy.float64 (numpy's float64
 * loop), or NULL when not such a call. */
const type *type_np_ufunc(ctx *c, expr *e, const type **at);
const type *type_array_method(ctx *c, expr *e, const type **at);
const type *type_array_view(ctx *c, expr *e, const type *ot);
/* x = v with v a float64 whole-array expression (an object) whose array
 * leaves are C-ordered and of one number of dimensions: the new C-ordered
 * float64 ndarray numpy (or the fused loop) makes, as the local holds it
 * (pinned when stored: emit/stmt.c); NULL when v is not such. */
const type *array_result_type(ctx *c, const expr *v);
const type *type_expr_method(ctx *c, const expr *e);

/* stmt.c */
void type_block(ctx *c, stmt *s);
void type_body(ctx *c);
bool holds_nested_container(const type *t);
/* The guards of the classes whose instances type t holds (an instance,
 * a list or tuple of them): their checks and element reads need them. */
void use_class_guards(ctx *c, const type *t);

/* insts.c */
inst *get_inst(module *m, func *f, const type **args);

#endif
