/* runtime/stats.h: counters. A part of single_include/dynac.h (make single_include). */
/* ---- counters ------------------------------------------------------------ */
static int dynac__add_count(PyObject *d, const char *key, int64_t v) {
  PyObject *old = PyDict_GetItemString(d, key); /* borrowed */
  long long base = old ? PyLong_AsLongLong(old) : 0;
  PyObject *n = PyLong_FromLongLong(base + v);
  if (!n) return -1;
  int r = PyDict_SetItemString(d, key, n);
  Py_DECREF(n);
  return r;
}

DYNAC_API PyObject *dynac_stats(void) {
  PyObject *out = PyDict_New();
  if (!out) return NULL;
  for (dynac__cache *c = dynac__caches; c; c = c->next) {
    PyObject *d = PyDict_GetItemString(out, c->name); /* borrowed */
    if (!d) {
      d = PyDict_New();
      if (!d || PyDict_SetItemString(out, c->name, d) < 0) { Py_XDECREF(d); goto error; }
      Py_DECREF(d);
      PyObject *entries = PyList_New(0);
      if (!entries || PyDict_SetItemString(d, "entries", entries) < 0) { Py_XDECREF(entries); goto error; }
      Py_DECREF(entries);
      if (dynac__add_count(d, "direct_calls", c->retired_direct +
                           (c->fd->direct_calls ? *c->fd->direct_calls : 0)) < 0 ||
          dynac__add_count(d, "region_kernel_calls", c->retired_region +
                           (c->fd->region_calls ? *c->fd->region_calls : 0)) < 0)
        goto error;
    }
    int64_t hits = c->retired_hits;
    PyObject *entries = PyDict_GetItemString(d, "entries");
    for (int i = 0; i < c->n; i++) {
      hits += c->e[i].hits;
      PyObject *e = Py_BuildValue("{s:s,s:L,s:L,s:s}", "signature", c->e[i].d->signature,
                                  "hits", (long long)c->e[i].hits, "guard_failures",
                                  (long long)c->e[i].misses, "last_failed_guard",
                                  c->e[i].last_fail ? c->e[i].last_fail : "");
      if (!e || PyList_Append(entries, e) < 0) { Py_XDECREF(e); goto error; }
      Py_DECREF(e);
    }
    if (dynac__add_count(d, "kernel_calls", hits) < 0 ||
        dynac__add_count(d, "guard_failures", c->unguarded) < 0 ||
        dynac__add_count(d, "interpreter_calls", c->interpreter) < 0 ||
        dynac__add_count(d, "deopts", c->deopts) < 0 ||
        dynac__add_count(d, "resume_calls", c->resume_calls) < 0 ||
        dynac__add_count(d, "outside_root_calls", c->outside_root) < 0)
      goto error;
    PyObject *flags = Py_BuildValue("{s:O,s:O,s:O}", "root",
                                    (c->fd->flags & DYNAC_FUNC_ROOT) ? Py_True : Py_False, "eager",
                                    (c->fd->flags & DYNAC_FUNC_EAGER) ? Py_True : Py_False,
                                    "disallowed", c->disallowed ? Py_True : Py_False);
    if (!flags || PyDict_Update(d, flags) < 0) { Py_XDECREF(flags); goto error; }
    Py_DECREF(flags);
  }
  return out;
error:
  Py_DECREF(out);
  return NULL;
}

DYNAC_API void dynac_stats_reset(void) {
  for (dynac__cache *c = dynac__caches; c; c = c->next) {
    c->interpreter = c->deopts = c->resume_calls = c->outside_root = c->unguarded = 0;
    c->retired_hits = c->retired_direct = c->retired_region = 0;
    if (c->fd->direct_calls) *c->fd->direct_calls = 0;
    if (c->fd->region_calls) *c->fd->region_calls = 0;
    for (int i = 0; i < c->n; i++) c->e[i].hits = c->e[i].misses = 0;
  }
}

