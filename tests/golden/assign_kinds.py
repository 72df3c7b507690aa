"""Golden: assignment forms: versions, tuples, augmented, subscripts."""
import dynac


@dynac.compile
def assigns(n: int, xs: list[float]) -> float:
    a, b = n, 2.5
    a = a + 1
    a += n
    xs[0] = b
    xs[1] += b * a
    c = d = a - 1
    return xs[0] + c + d


@dynac.compile(signatures=["(object)"])
def version_names(p):
    uid_1, uid_2 = p
    uid = uid_1
    uid = uid_2
    a = b = uid
    return uid, a, b
