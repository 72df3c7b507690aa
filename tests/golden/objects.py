"""Golden: object operations through the C API."""
import dynac


@dynac.compile(signatures=["(object, int)"])
def generic(o, k):
    n = len(o) * k
    if o == k:
        n += 1
    return o[k] + n
