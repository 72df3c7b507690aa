/* runtime/records.h: instances kernels keep as their fields. A part of single_include/dynac.h (make single_include). */
/* ---- records: instances kept as fields (scalar replacement) --------------
 * `p = Vec(x, y, z)` of a plain class whose __init__ only sets float, int
 * or bool attributes (generator/classes.c: classes_recordable) need not
 * allocate the instance while only kernels look at it: a kernel keeps it
 * as a C struct (one per class, emitted with the kernels: a dynac_rec_head,
 * then the fields in the order __init__ sets them), passes it to other
 * kernels by address and reads its fields directly. The instance is made
 * (dynac_rec_force) the first time anything else needs it: generic code, a
 * container, the interpreter going on with the kernel's locals. From then
 * on the object is the value: every read and write goes through it, so
 * the instance keeps one identity however many kernels share the struct.
 * The idea is PyPy's virtual objects (allocation removal, "forced" when
 * they escape) and the escape analysis of JIT compilers; the guard that
 * keeps it exact is the class's version tag, as CPython 3.11's
 * specialised LOAD_ATTR keeps its caches: a struct's fields are read as
 * fields only while its class has the version tag it had when the struct
 * was made (no property, __setattr__ or class attribute of a field's name
 * added since; dynac_rec_ok checked there was none then). */
typedef struct dynac_rec_head {
  PyObject *obj;        /* the instance once made (owned), else NULL */
  PyTypeObject *tp;     /* its class (owned); NULL: no value */
  unsigned int version; /* tp's version tag when the struct was made */
  uint32_t set;         /* bit i: field i holds a value (__init__ sets them in order); 0 once obj is made */
  PyObject **kept;      /* NULL, or [32] by field: the object a field's nan came from (owned; dynac_rec_keep) */
} dynac_rec_head;

/* One field of a class's struct: its attribute name, kind ('f' float,
 * 'i' int64, 'b' bool) and offset in the struct. */
typedef struct dynac_rec_field {
  const char *name;
  char kind;
  size_t offset;
} dynac_rec_field;

/* A class's struct as the runtime sees it (one per class, emitted). */
typedef struct dynac_rec_desc {
  int nfields;
  const dynac_rec_field *fields;
  PyObject *names[32];      /* the fields' names, interned once */
  dynac_attr_cache stores[32]; /* where instances keep each field (dynac_rec_force's stores) */
  unsigned int ok_version;  /* dynac_rec_ok's last yes (a version tag), 0: none */
  int frozen;               /* a frozen dataclass: __init__ stores as object.__setattr__ does
                               (DYNAC_STORE_GENERIC), any other store goes through the instance,
                               whose __setattr__ raises FrozenInstanceError */
} dynac_rec_desc;

/* Releases the objects the struct keeps for its fields (dynac_rec_keep). */
DYNAC_COLD void dynac__rec_drop_kept(dynac_rec_head *h) {
  PyObject **kept = h->kept;
  h->kept = NULL;
  for (int i = 0; i < 32; i++) Py_XDECREF(kept[i]);
  PyMem_Free(kept);
}

/* Releases what the struct holds (its instance, its class, the objects
 * it keeps): it holds no value after. */
static inline void dynac_rec_release(dynac_rec_head *h) {
  Py_CLEAR(h->obj);
  Py_CLEAR(h->tp);
  h->set = 0;
  if (DYNAC_UNLIKELY(h->kept != NULL)) {
    dynac__rec_drop_kept(h);
    h->kept = NULL; /* (said again here: the compiler then knows a new struct keeps none) */
  }
}

/* After a store of float v into field i of the struct: the field keeps o
 * (borrowed; NULL: none), the object v came from (its caller's argument, a
 * default), when v is a nan, so that the instance made later holds it, as
 * CPython's `self.x = x` stores it: `DV(x, y) == DV(x, y)` of a nan x is
 * True in CPython (the two instances share x, and the tuples dataclass's
 * __eq__ compares test identity first), and so it is here. Another value
 * keeps nothing (an object kept for the field before is released): a
 * float's identity CPython does not promise, and keeping every one cost
 * ~4% of raytrace's time. The generated store calls this only for a nan
 * given as an object or while the struct keeps objects (h->kept). */
DYNAC_COLD void dynac_rec_keep(dynac_rec_head *h, int i, PyObject *o, double v) {
  if (h->kept) Py_CLEAR(h->kept[i]);
  if (!o || !isnan(v)) return;
  if (!h->kept && !(h->kept = (PyObject **)PyMem_Calloc(32, sizeof(PyObject *)))) return; /* (no memory: a new box later) */
  h->kept[i] = Py_NewRef(o);
}

/* Starts a struct for a new instance of tp, no field set yet (tp borrowed). */
static inline void dynac_rec_begin(dynac_rec_head *h, PyTypeObject *tp) {
  dynac_rec_release(h);
  h->tp = (PyTypeObject *)Py_NewRef((PyObject *)tp);
  h->version = tp->tp_version_tag;
}

/* Moves the value of struct src (of `size` bytes) into dst, releasing
 * dst's; src holds none after (a call's result into a local). */
static inline void dynac_rec_move(void *dst, void *src, size_t size) {
  dynac_rec_release((dynac_rec_head *)dst);
  memcpy(dst, src, size);
  memset(src, 0, sizeof(dynac_rec_head)); /* (its fields are not read again: no value) */
}

/* Is field i of the struct read and written as a field now: no instance
 * made, the field set, the class unchanged since the struct was made? */
static inline int dynac_rec_plain(const dynac_rec_head *h, int i) {
  return ((h->set >> i) & 1u) && h->tp->tp_version_tag == h->version; /* set is 0 once made */
}
/* Are all the fields in `mask` plain (dynac_rec_plain of each)? A
 * statement that reads several fields of one struct and runs no Python
 * code between the reads (generator/emit/records.c: rec_checks) asks
 * this once, before its first read, and keeps the answer in a flag that
 * a read through the instance clears. */
static inline int dynac_rec_plain_mask(const dynac_rec_head *h, uint32_t mask) {
  return (h->set & mask) == mask && h->tp->tp_version_tag == h->version;
}
/* May field stores go into the struct (no instance made, class unchanged)? */
static inline int dynac_rec_unmade(const dynac_rec_head *h) {
  return !h->obj && h->tp->tp_version_tag == h->version;
}

/* The interned name of field i (borrowed; NULL with MemoryError). */
static inline PyObject *dynac_rec_name(dynac_rec_desc *d, int i) {
  if (!d->names[i]) d->names[i] = PyUnicode_InternFromString(d->fields[i].name);
  return d->names[i];
}

/* May instances of tp (the class the kernel's guard checked) be kept as
 * fields: is setting a field in __init__ a plain store into the
 * instance's values, and making it object.__new__'s? As
 * classes_recordable decided from the source, checked on the live class
 * once per version tag: generic getattr and setattr (any setattr for a
 * frozen dataclass, whose __init__ stores past it), object's __new__, no
 * finalizer, managed inline values, and no data descriptor named like a
 * field (a property, a slot). A class attribute that is no data
 * descriptor (a dataclass field's default, a method) is fine: the
 * instance's own value hides it, as PyObject_GenericGetAttr looks. 1 or 0. */
static inline int dynac_rec_ok(dynac_rec_desc *d, PyTypeObject *tp) {
  if (DYNAC_LIKELY(tp->tp_version_tag && d->ok_version == tp->tp_version_tag)) return 1;
  if ((!d->frozen && tp->tp_setattro != PyObject_GenericSetAttr) || tp->tp_getattro != PyObject_GenericGetAttr ||
      tp->tp_new != PyBaseObject_Type.tp_new || tp->tp_finalize || tp->tp_del ||
      !(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT))
    return 0;
  for (int i = 0; i < d->nfields; i++) {
    PyObject *name = dynac_rec_name(d, i);
    if (!name) { PyErr_Clear(); return 0; }
    PyObject *attr = _PyType_Lookup(tp, name); /* (which also gives tp a version tag) */
    if (attr && Py_TYPE(attr)->tp_descr_set) return 0;
  }
  if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
  d->ok_version = tp->tp_version_tag;
  return 1;
}

/* The struct's field i as an object (a new reference, NULL with
 * MemoryError): the object it keeps (dynac_rec_keep), else boxed. */
static inline PyObject *dynac__rec_box_field(dynac_rec_head *h, const dynac_rec_field *f, int i) {
  if (h->kept && h->kept[i]) return Py_NewRef(h->kept[i]);
  const char *p = (const char *)h + f->offset;
  if (f->kind == 'f') return PyFloat_FromDouble(*(const double *)p);
  if (f->kind == 'i') return PyLong_FromLongLong(*(const int64_t *)p);
  return Py_NewRef(*(const bool *)p ? Py_True : Py_False);
}

/* The instance the struct stands for (borrowed; NULL with an exception):
 * made now if it was not, as object.__new__(tp) then __init__'s stores
 * made it, its set fields stored in order. While the class is unchanged,
 * each is the store __init__ made (into the instance's values, in
 * insertion order, through a cache per field); a class changed since may have a
 * descriptor of that name now, which the store made earlier never met:
 * the value goes into the instance's __dict__ itself. */
DYNAC_COLD PyObject *dynac_rec_force(dynac_rec_head *h, dynac_rec_desc *d) {
  if (h->obj) return h->obj;
  PyObject *o = dynac_object_new(h->tp);
  if (!o) return NULL;
  int same = h->tp->tp_version_tag == h->version;
  for (int i = 0; i < d->nfields; i++) {
    if (!((h->set >> i) & 1u)) continue;
    PyObject *name = dynac_rec_name(d, i), *v = name ? dynac__rec_box_field(h, &d->fields[i], i) : NULL;
    PyObject *dict = v && !same ? PyObject_GenericGetDict(o, NULL) : NULL;
    int effects = 0;
    int owner = DYNAC_STORE_OTHER | (d->frozen ? DYNAC_STORE_GENERIC : 0); /* as __init__ stored it */
    int rc = !v ? -1 : same ? dynac_obj_setattr_cached(o, name, v, &d->stores[i], &effects, owner)
                            : dict ? PyDict_SetItem(dict, name, v) : -1;
    Py_XDECREF(dict);
    Py_XDECREF(v);
    if (rc < 0) { Py_DECREF(o); return NULL; }
  }
  h->obj = o;
  h->set = 0; /* the fields are the instance's now: dynac_rec_plain needs no test of obj */
  if (h->kept) dynac__rec_drop_kept(h);
  return o;
}
/* The instance as a new reference (dynac_rec_force), NULL with an exception. */
static inline PyObject *dynac_rec_box(dynac_rec_head *h, dynac_rec_desc *d) {
  PyObject *o = h->obj ? h->obj : dynac_rec_force(h, d);
  return o ? Py_NewRef(o) : NULL;
}

/* An object where a struct of class cls (borrowed) is typed (a call
 * CPython made, a continuation's result): kept as that instance when it is
 * one of exactly cls (0; o borrowed), else 1 (nothing changed). */
static inline int dynac_rec_from(PyObject *o, PyObject *cls, dynac_rec_head *h) {
  if ((PyObject *)Py_TYPE(o) != cls) return 1;
  dynac_rec_begin(h, Py_TYPE(o));
  h->obj = Py_NewRef(o);
  return 0;
}

/* Field i of kind float / int / bool through the instance (the struct's
 * field is not plain: dynac_rec_plain), as dynac_attr_float reads an
 * attribute: 0 with *out, 1 when it holds another type, -1 with an
 * exception (AttributeError for a field not set yet). */
DYNAC_COLD int dynac_rec_attr_float(dynac_rec_head *h, dynac_rec_desc *d, int i, dynac_attr_cache *c,
                                    int *effects, double *out) {
  PyObject *o = dynac_rec_force(h, d), *name = dynac_rec_name(d, i);
  return o && name ? dynac_attr_float(o, name, c, effects, out) : -1;
}
DYNAC_COLD int dynac_rec_attr_int(dynac_rec_head *h, dynac_rec_desc *d, int i, dynac_attr_cache *c,
                                  int *effects, int64_t *out) {
  PyObject *o = dynac_rec_force(h, d), *name = dynac_rec_name(d, i);
  return o && name ? dynac_attr_int(o, name, c, effects, out) : -1;
}
DYNAC_COLD int dynac_rec_attr_bool(dynac_rec_head *h, dynac_rec_desc *d, int i, dynac_attr_cache *c,
                                   int *effects, bool *out) {
  PyObject *o = dynac_rec_force(h, d), *name = dynac_rec_name(d, i);
  return o && name ? dynac_attr_bool(o, name, c, effects, out) : -1;
}
/* Field i = v (v a new reference, NULL: a failed box) through the
 * instance, as STORE_ATTR stores it (owner: DYNAC_STORE_OTHER), or as
 * object.__setattr__ does (| DYNAC_STORE_GENERIC: a frozen dataclass's
 * __init__). 0, or -1 with an exception. */
DYNAC_COLD int dynac_rec_setattr(dynac_rec_head *h, dynac_rec_desc *d, int i, PyObject *v, dynac_attr_cache *c,
                                 int *effects, int owner) {
  PyObject *o = v ? dynac_rec_force(h, d) : NULL, *name = o ? dynac_rec_name(d, i) : NULL;
  int rc = name ? dynac_obj_setattr_cached(o, name, v, c, effects, owner) : -1;
  Py_XDECREF(v);
  return rc;
}

/* The class whose guard covers a call on the struct's instance: the
 * instance's own type once made (__class__ may have been assigned). */
static inline PyTypeObject *dynac_rec_type(const dynac_rec_head *h) {
  return h->obj ? Py_TYPE(h->obj) : h->tp;
}
/* May r.m(...) call the kernel of the def class slot `cls` checked (as
 * dynac_method_current asks of an object)? A struct with no instance has
 * no attributes of its own to shadow m. */
static inline int dynac_rec_method_current(dynac_rec_head *h, const dynac_slot *cls, PyObject *name,
                                           dynac_method_site *site) {
  if (h->obj) return dynac_method_current(h->obj, cls, name, site);
  return cls->valid && (PyObject *)h->tp == cls->obj && h->tp->tp_version_tag == (unsigned int)cls->v.i;
}
