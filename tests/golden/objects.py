"""Golden: object operations through the C API."""
import dynac


@dynac.compile(signatures=["(object, int)"])
def generic(o, k):
    n = len(o) * k
    if o == k:
        n += 1
    return o[k] + n


@dynac.compile
def forget(o: object):
    o.a = o.b = None  # None stored twice: no temporary kept for it
