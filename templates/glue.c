/*@ comment @*/
static int dynac_glue_/*@ name @*/(PyObject *const *args, PyObject *closure, PyObject **result)
{
  int st;
  (void)args;
  (void)closure;
  *result = NULL;
  /*@ unbox @*/
  /*@ call @*/
  if (st == DYNAC_OK_BOXED) { /* finished in the interpreter (dynac_continue) */
    *result = dynac__boxed_result;
    dynac__boxed_result = NULL;
    return DYNAC_OK;
  }
  if (st == DYNAC_OK_NONE) {
    Py_INCREF(Py_None);
    *result = Py_None;
    return DYNAC_OK;
  }
  if (st != DYNAC_OK) return st;
  /*@ box @*/
  return *result ? DYNAC_OK : DYNAC_ERROR;
}
