"""Golden: graph breaks of every kind, and what still compiles around them."""
import math
import dynac

counter = []


@dynac.compile
def prints(x: float) -> float:
    print(x)
    return x


@dynac.compile
def tries(x: int) -> int:
    try:
        return x // 0
    except* ZeroDivisionError:  # exception groups are not compiled (try/except is)
        return 0


@dynac.compile
def gen(n: int):
    for i in range(n):
        yield i


@dynac.compile
def attr(x: float) -> float:
    return x.real


@dynac.compile
def listy(n: int):
    return {i for i in range(n)}


@dynac.compile
def strings(x: int):
    return "x" * x


@dynac.compile
def loops_over_list(x: int) -> int:
    for y in counter:
        x += y
    return x


@dynac.compile
def explicit(x: int) -> int:
    dynac.graph_break()
    return x


@dynac.compile
def keywords(x: float) -> float:
    return round(x, ndigits=2)


@dynac.compile
def big_literal(x: int) -> int:
    return x + 123456789012345678901234567890


@dynac.compile
def widening(n: int):
    s = 0
    for i in range(n):
        s += 0.5
    return s


@dynac.compile
def mixed_max(a: int, b: float):
    return max(a, b)


@dynac.compile
def fine(a: float, b: float) -> float:
    return math.hypot(a, b) + abs(a - b)


def caller_of_broken(x: float) -> float:
    return prints(x) + 1.0


@dynac.compile
def calls_broken(x: float) -> float:
    return caller_of_broken(x)


@dynac.compile
def no_types(x, y):
    return x + y


@dynac.disable
def disabled(x: int) -> int:
    return x


@dynac.compile
def bool_or_int(n: int):
    r = False
    for i in range(n):
        r = i
    return r


@dynac.allow_in_graph
def untyped_hook(x):
    counter.append(x)


@dynac.compile
def uses_untyped_hook(x: float):
    untyped_hook(x)
    y = untyped_hook(x)
    return x * 2.0


@dynac.compile(signatures=["(ndarray[d], ndarray[d, 2])"])
def ndarray_truth(a, m):
    if a:
        return 1.0
    return m[0, 0]


@dynac.compile(signatures=["(list[object], object)"])
def object_chain(a, x):
    return a[0] < x < a[1]


@dynac.compile(signatures=["(list[object])"])
def object_augassign(a):
    s = a[0]
    s += a[1]
    return s


class Oops(Exception):
    pass


@dynac.compile
def raise_forms(x: int):
    if x == 0:
        raise Oops("a module's own class: raised generically")
    if x == 1:
        raise ValueError("escapes such as \n are a str constant")
    if x is x:
        return 1
    raise ValueError("the message", x) from None


@dynac.compile(signatures=["(int, None)", "(list[int], object)"])
def none_forms(a, b):
    if b is None:
        return a + 1
    return a + b


@dynac.compile(signatures=["(list[float], int)"])
def mixed_display(a, n):
    return [1, 2.5] + a


@dynac.compile(signatures=["(list[float], int)"])
def extend_in_place(a, n):
    a += [1]  # a list of ints into a list of floats
    return n


@dynac.compile(signatures=["(int)"])
def empty_argument(n):
    return len_of([]) + n


@dynac.compile(signatures=["(list[tuple[list[float], float]])"])
def tuple_of_lists_kept(ps):
    out = []
    for p in ps:
        out.append(p[1])
    return out


@dynac.compile(signatures=["(list[float])"])
def len_of(a):
    return len(a)


@dynac.compile(signatures=["(object, int)"])
def deletes(o, k):
    del o.x, o[k], o[1:k]
    t = k * 2
    del t
    return k


def gathers(*a, **k):
    return a


@dynac.compile(signatures=["(object, object)"])
def starred_calls(a, k):
    return gathers(1, *a, x=2, **k), gathers(a), max(*a)


@dynac.compile(signatures=["(object, object)"])
def star_after_keyword(a, k):
    return gathers(x=1, *a)
