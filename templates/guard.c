/*@ comment @*/
static int dynac_guard_/*@ name @*/(PyObject *const *args, PyObject *globals, const char **failed)
{
  (void)args;
  (void)globals;
  (void)failed;
  /*@ checks @*/
  return 1;
}
