/* imports.c: import statements inside a function, run as the interpreter
 * runs their bytecode: IMPORT_NAME through the builtins' __import__, one
 * IMPORT_FROM per imported name or per component after the first of
 * `import a.b.c as d` (runtime/objects.h), each name bound to a local.
 */
#include "emit.h"

/* The fromlist of a from import: a tuple of the names, made once per site
 * as the compiler makes the constant (borrowed). */
static const char *fromlist(em *E, stmt *s) {
  const char *var = arena_printf(E->m->a, "fromlist%d", ++E->tmp);
  strbuf fmt = {0}, args = {0};
  for (int i = 0; i < s->u.import_.n; i++) {
    sb_puts(&fmt, "s");
    sb_printf(&args, ", %s", c_string(E->m, s->u.import_.names[i]));
  }
  line(E, "static PyObject *%s; /* made once */", var);
  line(E, "if (!%s && !(%s = Py_BuildValue(\"(%s)\"%s))) DYNAC_LEAVE(dynac_traceback_here(%s));", var, var,
       fmt.data, args.data, where(E));
  sb_free(&fmt);
  sb_free(&args);
  return var;
}

/* IMPORT_NAME of `module` (a new reference in an owned temporary). */
static const char *import_name(em *E, const char *module, const char *from, int level) {
  const char *nm = interned_name(E, module);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_import_name(dynac__G.globals, dynac__G.builtins, %s, %s, %d); /* import %.*s%s */", o, nm,
       from, level, level, "..........", module);
  line(E, "DYNAC_PYTHON_RUNS(dynac__effects); /* the module's code may run */");
  note_effect(E);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

/* IMPORT_FROM `name` of module object `mod` (a new reference in an owned
 * temporary). */
static const char *import_from(em *E, const char *mod, const char *name) {
  const char *nm = interned_name(E, name);
  const char *o = tmpvar(E, &ty_obj);
  line(E, "%s = dynac_import_from(%s, %s); /* .%s */", o, mod, nm, name);
  line(E, "if (!%s) DYNAC_LEAVE(dynac_traceback_here(%s));", o, where(E));
  return o;
}

void emit_import(em *E, stmt *s) {
  line(E, "{");
  E->indent++;
  if (s->u.import_.from) {
    const char *mod = import_name(E, s->u.import_.module, fromlist(E, s), s->u.import_.level);
    for (int i = 0; i < s->u.import_.n; i++)
      assign_target(E, s->u.import_.tgts[i], import_from(E, mod, s->u.import_.names[i]), &ty_obj);
  } else {
    for (int i = 0; i < s->u.import_.n; i++) {
      const char *name = s->u.import_.names[i];
      const char *v = import_name(E, name, "Py_None", 0);
      for (const char *dot = strchr(name, '.'); s->u.import_.chain[i] && dot; dot = strchr(dot + 1, '.')) {
        const char *end = strchr(dot + 1, '.');
        v = import_from(E, v, end ? arena_strndup(E->m->a, dot + 1, (size_t)(end - dot - 1)) : dot + 1);
      }
      assign_target(E, s->u.import_.tgts[i], v, &ty_obj);
    }
  }
  E->indent--;
  line(E, "}");
}
