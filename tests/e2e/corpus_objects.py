"""Objects in kernels: methods, attributes, method calls, globals of any
type, str and bytes constants, iteration over any iterable, generic calls
and in-place operators. suite_objects.py runs each function eagerly and
compiled on the same fresh inputs and compares results, exceptions (type,
message, traceback lines) and side effects (a log the inputs' special
methods write, and the inputs' state afterwards)."""
import contextlib
import functools
import math
import os
import sys
import traceback

import dynac

LOG = []
SCALE = [1.0, 2.0]     # a module global that is a list
NAMES = {"a": 1}       # ... a dict
UNIT = "m"             # ... a str


def helper(x):
    LOG.append(("helper", x))
    return x * 2


alias = helper         # a function bound to another name


class Vec:
    """Plain instances: attributes in the instance dict."""
    count = 0

    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y
        Vec.count += 1

    def dot(self, o: object):
        return self.x * o.x + self.y * o.y

    @dynac.compile
    def norm(self) -> float:
        return math.sqrt(self.dot(self))

    @staticmethod
    def twice(k: float) -> float:
        return 2 * k

    @classmethod
    def unit(cls, k: float):
        return cls(k, 0.0)

    @property
    def size(self):
        return self.norm()

    def __repr__(self):
        return "Vec(%r, %r)" % (self.x, self.y)


class Slotted:
    __slots__ = ("a", "__hidden")

    def __init__(self, a):
        self.a = a
        self.__hidden = -a

    @dynac.compile
    def peek(self):
        return self.a + self.__hidden


class Logged:
    """Attribute access and operators that log what runs, in order."""
    def __init__(self, v):
        object.__setattr__(self, "v", v)

    def __getattr__(self, name):
        LOG.append(("getattr", name))
        if name == "missing":
            raise AttributeError("no %s here" % name)
        return len(name)

    def __setattr__(self, name, value):
        LOG.append(("setattr", name, repr(value)))
        object.__setattr__(self, name, value)

    def __iadd__(self, o):
        LOG.append(("iadd", repr(o)))
        return Logged(self.v + o)

    def __add__(self, o):
        LOG.append(("add", repr(o)))
        return Logged(self.v + o)

    def __getitem__(self, k):
        LOG.append(("getitem", repr(k)))
        return k

    def __setitem__(self, k, v):
        LOG.append(("setitem", repr(k), repr(v)))

    def __delitem__(self, k):
        LOG.append(("delitem", repr(k)))
        if k == "missing":
            raise KeyError(k)

    def __repr__(self):
        return "Logged(%r)" % (self.v,)


@dynac.compile
def norm_of(v: object) -> float:
    return math.sqrt(v.x * v.x + v.y * v.y)


@dynac.compile
def scale(v: object, k: float):
    v.x = v.x * k
    v.y *= k
    return v


@dynac.compile
def total(items: object):
    s = 0.0
    for it in items:
        s += it.x * it.y
    return s


@dynac.compile
def upper_keys(d: object):
    out = []
    for k in d:
        out.append(k.upper())
    return out


@dynac.compile
def count_into(d: object, k: object, n: int):
    for i in range(n):
        d[k] += i
    d["last"] = n
    return d


@dynac.compile
def logged_ops(o: object):
    a = o.width
    o.v = a
    o.w += 5
    o["k"] = o[1]
    o[2] += 3
    return o.missing


@dynac.compile
def make_and_use(k: float):
    v = Vec(k, 2.0)
    u = Vec.unit(k)
    return v.dot(u) + Vec.twice(k) + v.size + Vec.count * 0


@dynac.compile
def globals_of_any_type(i: int):
    SCALE.append(i)
    NAMES["n"] = len(SCALE)
    return alias(i) + NAMES["a"], UNIT + "s", b"x" b"y"


@dynac.compile
def builtins_generic(x: object, y: object):
    return abs(x), min(x, y), max(x, y), round(x), math.floor(x), int(x), float(y)


@dynac.compile
def number_op(x: object, y: object, op: int):
    """Exact ints and floats take C arithmetic in kernels (128-bit for ints)."""
    if op == 0:
        return x + y
    elif op == 1:
        return x - y
    elif op == 2:
        return x * y
    elif op == 3:
        return x / y
    elif op == 4:
        return x // y
    elif op == 5:
        return x % y
    elif op == 6:
        return x << y
    elif op == 7:
        return x >> y
    elif op == 8:
        return x & y
    elif op == 9:
        return x | y
    elif op == 10:
        return x ^ y
    return x ** y


@dynac.compile
def int_chain(x: object, k: int):
    """Operators with number literals on the right, chained: ints in 128-bit arithmetic, then
    floats, one result made (an LCG's step, its float); else, step by step, CPython's results
    and exceptions."""
    if k == 5:
        return ((x >> 11) + 0.5) / 9007199254740992.0
    elif k == 6:
        return (x * 2.5 - 1) / 3 * 1e308
    elif k == 7:
        return x / 7 + 1 - 0.0
    elif k == 8:
        return (x + 0.5) // 2.0 % 3
    elif k == 9:
        return x * 3 / 0.0
    elif k == 0:
        return (x * 6364136223846793005 + 1442695040888963407) % 18446744073709551616
    elif k == 1:
        return ((x >> 11) ^ 0x5DEECE66D) & 281474976710655
    elif k == 2:
        return (x - 7) // 3 % 5 << 70
    elif k == 3:
        return (x * 3 + 1) % 0 - 1
    elif k == 11:  # ring chains (+ - * then % 2**k, k <= 64): wrapping 64-bit arithmetic
        return (x * -3 + 5) % 4294967296
    elif k == 12:
        return (x - 9) * 7 % 2
    elif k == 13:  # % 2**65: not a ring chain (128-bit arithmetic)
        return (x * 3 + 1) % 36893488147419103232
    elif k == 14:
        return (x * 18446744073709551615 - 18446744073709551617) % 18446744073709551616
    elif k == 10:  # powers of two: a shift and a mask, floor semantics for negatives
        return (x * 3 - 7) // 8 * 1000 + (x - 1) % 1024 - (x << 70) // 2**100 % 2**65
    return x * 1_000_000_007 * 1_000_000_009 * 1_000_000_021 * 1_000_000_033 - 1


@dynac.compile
def number_op_inplace(x: object, y: object, op: int):
    if op == 0:
        x += y
    elif op == 1:
        x -= y
    elif op == 2:
        x *= y
    elif op == 3:
        x /= y
    elif op == 4:
        x //= y
    elif op == 5:
        x %= y
    elif op == 7:
        x >>= y
    else:
        x <<= y
    return x


class Floaty:
    """A number by __float__ that counts its conversions (Python code a math call runs)."""

    def __init__(self, v):
        self.v = v
        self.n = 0

    def __float__(self):
        self.n += 1
        return self.v


class FloatSub(float):
    pass


@dynac.compile
def math_of_object(x: object, f: int):
    """math.f(x) of an object: an exact float's result computed in C where it is CPython's;
    typed float (math's function returns one or raises), used in arithmetic as a C double."""
    if f == 7:
        v = -2.5 * math.log(x) * math.sqrt(x)
        return v + 1.0, getattr(x, "n", -1)
    if f == 0:
        return math.sqrt(x)
    elif f == 1:
        return math.log(x)
    elif f == 2:
        return math.exp(x)
    elif f == 3:
        return math.sin(x)
    elif f == 4:
        return math.log10(x)
    elif f == 5:
        return math.cosh(x)
    elif f == 6:
        return math.atan(x)
    return math.fabs(x) + math.log2(x)


@dynac.compile
def str_methods(s: object):
    parts = s.split(",")
    n = 0
    for p in parts:
        n += len(p.strip())
    return n, "-".join(parts), s.replace("a", "b")


@dynac.compile
def slotted_peek(s: object):
    s.a = s.a + 1
    return s.peek()


@dynac.compile
def name_error(k: int):
    return undefined_name + k  # noqa: F821 - NameError is the point


@dynac.compile
def attr_error(v: object):
    v.x = 1.0
    return v.nothing


@dynac.compile
def in_place_list(xs: object, ys: object):
    zs = xs
    zs += ys
    return zs is xs, xs


@dynac.compile
def displays(k: object, v: object):
    d = {k: v, "n": 1}
    s = {k, v}
    return d, len(s), k in d, v not in s, "n" in d, (k, None), ()


@dynac.compile
def keywords(xs: object, s: object):
    return sorted(xs, reverse=True), round(2.675, ndigits=2), s.split(sep=",", maxsplit=1), max(xs, default=-1)


@dynac.compile
def comp_after_call(xs: list[int], k: int):
    """A list comprehension after Python code ran (helper): an int64
    overflow or an element of another type in it goes on in the
    interpreter from that element, with the items made so far (not
    dynac's RuntimeError); the function's own x is not the comprehension's."""
    x = helper(k)
    ys = [x * k for x in xs]
    return ys, x


@dynac.compile
def comp_calls(xs: list[int], k: int):
    """Python code in an element and a condition, two for clauses: the
    interpreter goes on from the failing element, condition or item, in a
    <listcomp> frame of its own (10 // 0 raises there), and no element or
    condition runs twice."""
    return [helper(x) + 10 // (x * k - 6) for i in range(3) if helper(i) != 2 for x in xs if x * k != 8]


@dynac.compile
def comp_pending(xs: list[int], k: int):
    """The statement's operands evaluated before the comprehension (the
    list and its method, helper's result) are kept, not evaluated again; a
    set and a dict comprehension go on the same way."""
    out = []
    for n in range(3):
        out.append(helper(n) + len({x * k for x in xs if helper(x)}))
    d = {helper(x): x * k for x in xs}
    return out, d


@dynac.compile
def comp_range(n: int, k: int):
    """The first for clause's range() is the function's own call (its
    ValueError has no <listcomp> frame); its bounds overflowing after
    helper ran go on from there, the range made by the function."""
    helper(n)
    return [x + helper(x) for x in range(max(n * k - 13835058055282163707, 0), 12, k % 5)]


@dynac.compile
def range_bounds_mid(n: int, x: float):
    """Python code (helper) ran in range()'s bounds before int(x)
    overflows int64: the interpreter goes on with helper's value, in a
    comprehension's first range() and in a for loop's."""
    ys = [helper(j) for j in range(helper(n) * int(x) % 7, 9, 2)]
    t = 0
    for j in range(helper(n + 1) * int(x) % 5, 7):
        t += j
    return ys, t


@dynac.compile
def logged_int(v: int) -> int:
    LOG.append(("logged", v))
    return v


@dynac.compile
def comp_then_sum(xs: list[int], k: int):
    """The comprehension ran Python code (logged_int) before sum()
    overflows int64: its list goes on to the interpreter's sum(), the
    comprehension not run again."""
    return sum([x * k - logged_int(x) for x in xs]) % 1000003


@dynac.compile
def gen_dict_pairs(xs: list[int], k: int):
    """dict() of a generator of (key, value) pairs whose value overflows
    int64 or meets another type after logged_int ran: the interpreter goes
    on from that item (its pair's place: the site's receiver)."""
    return dict((x, logged_int(x) * k) for x in xs)


@dynac.compile
def cell_then_gen(xs: list[int], k: int):
    """n is a cell (the generator reads it and n is bound again); `n = k`
    is seen by no closure yet, so a failure in the generator hands the call
    back whole (not dynac's RuntimeError)."""
    n = k
    n = sum(x * n for x in xs if x != 3)
    return n


@dynac.compile
def merged_then_starred(k: int, x: float, rows: list[list[int]]):
    """A dict display merging exact dicts of numbers runs no Python code: a
    failure after it in the statement that no continuation takes (in a
    starred display) hands the call back whole (not dynac's RuntimeError)."""
    return len({**{k: 1}, x: 2, **{}}), [*rows, k * k]


@dynac.compile
def gen_consumers(xs: list[int], k: int):
    """Generators consumed as their items' list (sum, str.join, set(),
    dict(), max()) after Python code ran: an item overflowing int64 or of
    another type goes on in the interpreter from that item, in a <genexpr>
    frame of its own (10 // 0 raises there, max() of none its ValueError)."""
    helper(k)
    a = sum(x * k + logged_int(x) for x in xs if x)
    b = ",".join(str(x * k) for x in xs)
    c = sorted(set(logged_int(x) * k for x in xs))
    d = dict((x, logged_int(x) * k) for x in xs)
    return a, b, c, d, max(10 // (x * k - 8) for x in xs)


@dynac.compile
def gen_any_all(xs: list[int], k: int):
    """any() and all() of generators after Python code ran: an item
    overflowing int64 or of another type goes on with the interpreter's
    any() or all() of the rest of the items, which still stops at the
    deciding one (logged_int is not called past it)."""
    helper(k)
    return any(logged_int(x) * k > 5 for x in xs if x != 3), all(logged_int(x) * k < 100 for x in xs)


@dynac.compile
def fresh_then_overflow(xs: list[int], k: int) -> int:
    """Appends to a list the call made are not logged for undo: when the
    product overflows int64 the call is rolled back (xs.append undone) and
    runs again in the interpreter, which computes the big int."""
    out = []
    for x in xs:
        out.append(x * 2)
    xs.append(len(out))
    return out[0] * k


class Made:
    """An __init__ that sets new attributes of the instance and calls a
    method on it that sets another; operators that make instances."""

    def __init__(self, a: float, tag: object):
        self.a = a
        self.tag = tag
        self.setup()

    def setup(self):
        self.b = self.a * 2.0

    def __neg__(self):
        return Made(-self.a, self.tag)

    def __lt__(self, o: object):
        return self.a < o.a


class Replaced:
    """An __init__ that replaces an attribute's value: the old one's
    __del__ writes the log."""

    def __init__(self, a: float):
        self.v = Dying()
        self.v = a


class Dying:
    def __del__(self):
        LOG.append("Dying.__del__")


class Indexed(list):
    """A list whose subscripts are its own."""

    def __getitem__(self, k):
        return ("got", k)

    def __setitem__(self, k, v):
        LOG.append(("set", k, v))


@dynac.compile
def object_items(xs: object, i: object, v: object):
    """o[i] and o[i] = v of objects: an exact list or tuple with a one-digit int index read and
    written in the kernel (counted from the end when negative), else CPython's subscript (its
    IndexError and TypeError, a subclass's own __getitem__, the replaced value's __del__)."""
    a = xs[i]
    b = xs[-1]
    xs[i] = v
    xs[-2] = b
    return a, b, xs[i], xs[0], len(LOG)


class OwnList(list):
    """A list whose append and pop are its own."""

    def append(self, v):
        LOG.append(("append", v))

    def pop(self, *i):
        return ("pop", i)


class Stack:
    def __init__(self, *xs):
        self.xs = list(xs)

    def append(self, v):
        self.xs.append(v)

    def pop(self, i=-1):
        return self.xs.pop(i) if self.xs else "empty"


@dynac.compile
def list_methods_of(xs: object, i: object, v: object):
    """.append(v) and .pop([i]) of objects: an exact list's in C (CPython 3.11's
    PRECALL_NO_KW_LIST_APPEND), else the method as LOAD_METHOD finds it (a subclass's own,
    another class's; pop's IndexError and TypeError)."""
    xs.append(v)
    a = xs.pop()
    xs.append([v])
    b = xs.pop(i)
    xs.append(a)
    return a, b, xs.pop(0), len(LOG)


@dynac.compile
def made_then_overflow(x: float, a: float):
    """math.floor(x) overflows int64 after instances were made (their
    __init__ wrote only the new instances): the call is handed back to the
    interpreter, which gives the big int (not dynac's RuntimeError)."""
    p = Made(a, "t")
    q = Made(-a, p.tag)
    return x + (1.0 if p.b < q.b else math.floor(x)), p.b, q.a


@dynac.compile
def replaced_then_overflow(x: float, a: float):
    """Replacing the attribute ran Dying.__del__ (Python code): the call
    must not run again from its start (the log would have it twice)."""
    r = Replaced(a)
    n = math.floor(x)
    return n, r.v


class AppError(Exception):
    """A user exception with its own __init__ (raising the bare class fails)."""
    def __init__(self, what, n=0):
        super().__init__(what, n)
        self.n = n


class NotAnException(Exception):
    """Calling the class returns something that is not an exception."""
    def __new__(cls):
        return 42


class Truthy:
    """An assert's test runs __bool__ (logged)."""
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        LOG.append(("bool", self.v))
        return self.v

    def __repr__(self):
        return "Truthy(%r)" % (self.v,)


TESTS = [Truthy(True), Truthy(False), Truthy(2), [0], "", None, 2.5]


def pick(i):
    return TESTS[i]


@dynac.compile
def ifexp_object(i: int, x: int, k: int):
    """A conditional expression testing an object (Truthy's __bool__ logs)
    whose branch then overflows int64 or calls Python code first: the
    interpreter goes on with the test's truth in its place, __bool__ not
    run again (not dynac's RuntimeError)."""
    t = pick(i)
    y = x * k if t else x - k
    z = (helper(x) * k if t else k * k) + 1
    return y, z


@dynac.compile
def boolop_object(i: int, x: int, k: int):
    """and/or testing an object (Truthy's __bool__ logs): its truth tested
    once, as CPython does, when the right operand then overflows int64 or
    calls Python code (the interpreter gets the truth in its place), and in
    `(t and y) or z`, where CPython 3.11's jump threading tests t once."""
    t = pick(i)
    a = 0
    if t and x * k > 5:
        a = 1
    b = (t and x * k) or 0
    c = (t or helper(x) * k) and x * k + 1
    d = (t and k) and (t or x * k)
    while t and x * k > 5:
        x = 0
    return a, b, c, d, x


@dynac.compile
def not_boolop_object(i: int, j: int, x: int):
    """`not` of an and/or testing objects (Truthy's __bool__ logs). By value
    CPython 3.11's UNARY_NOT tests the and/or's value again (a true t twice);
    in a condition its jumps test t once."""
    t = pick(i)
    u = pick(j)
    c = not (t or u)
    d = not ((t and u) or x > 0)
    e = not (x > 0 or t)
    f = 0
    if not (t or u):
        f = 1
    g = not not (t and u)
    return c, d, e, f, g


def logged(x):
    LOG.append(("logged", x))
    return x


@dynac.compile
def display_order(xs: list[int], k: int):
    """Set and dict displays hash their items once all are evaluated
    (CPython 3.11's BUILD_SET n, BUILD_MAP n): an item's call logs before
    the first __hash__, and an item overflowing int64 after Python code ran
    goes on in the interpreter with nothing hashed yet. A pair after **m is
    a dict of its own, merged (DICT_UPDATE); after *xs, each item is added
    as it comes; *xs of a typed list is iterated again by a continuation."""
    a, b, c = KEYS[0], KEYS[1], KEYS[2]  # Hashed: __hash__ and __eq__ log
    LOG.append("start")
    s = {a, logged(k), b, xs[0] * k}
    d = {a: logged(k), b: xs[0] * k, c: 0}
    m = {a: 1, **{b: 2}, c: logged(k), 3: xs[0] * k}
    t = [*xs, xs[0] * k]
    u = {k, *xs, xs[-1] * k, a}
    return s, d, m, t, u


@dynac.compile
def big_dict_display(k: int):
    """A dict display of more pairs than compile.c's stack guideline: cut
    into dicts of 17 pairs, each merged into the first (DICT_UPDATE), as
    CPython 3.11 builds it: keys whose hashes collide (hash(-1) == hash(-2))
    in different parts meet in each part and again in the merge."""
    p, q, r = Hashed(-1), Hashed(-2), Hashed(-1)
    d = {p: k, 1: 1, 2: 2, 3: 3, 4: 4, 5: k, 6: 6, 7: 7, 8: 8, 9: 9, 10: k, 11: 11, 12: 12, 13: 13,
         14: 14, 15: k, 16: 16, q: 17, r: 18, 19: 19, 20: k, 21: 21, 22: 22, 23: 23, 24: 24, 25: k,
         26: 26, 27: 27, 28: 28, 29: 29, 30: k, 31: 31, 32: 32, 33: 33, 34: 34, 35: k}
    return d


class Shown:
    """An f-string field whose __format__ and __repr__ log."""
    def __init__(self, v):
        self.v = v

    def __format__(self, spec):
        LOG.append(("format", spec))
        return format(self.v, spec) if spec else "S%d" % self.v

    def __repr__(self):
        LOG.append("repr")
        return "Shown(%d)" % self.v


SHOWN = [Shown(7)]


@dynac.compile
def fstring_fields(xs: list[int], k: int):
    """An f-string formats each field as it comes (FORMAT_VALUE): when a
    later field overflows int64 after an object's __format__ or __repr__
    ran, the interpreter goes on with the str that field made, its
    conversion and spec applied, not formatting the object again."""
    o = SHOWN[0]
    a = f"{o} {xs[0] * k}"
    b = f"<{o!r:>12}|{o:>5}|{xs[-1] * k:x}>"
    return a, b


class Ranked:
    """min() and max() items whose comparisons log (an int compares by value)."""
    def __init__(self, v):
        self.v = v

    def __lt__(self, o):
        LOG.append(("lt", self.v))
        return self.v < getattr(o, "v", o)

    def __gt__(self, o):
        LOG.append(("gt", self.v))
        return self.v > getattr(o, "v", o)

    def __repr__(self):
        return "Ranked(%r)" % (self.v,)


class Summed:
    """sum() items whose + logs (0 + s through __radd__)."""
    def __init__(self, v):
        self.v = v

    def __add__(self, o):
        LOG.append(("add", self.v))
        return Summed(self.v + getattr(o, "v", o))

    def __radd__(self, o):
        LOG.append(("radd", self.v))
        return Summed(self.v + getattr(o, "v", o))

    def __repr__(self):
        return "Summed(%r)" % (self.v,)


FOLDED = [[Summed(1), Summed(2), Summed(3)], [Ranked(1), Ranked(3), Ranked(2)]]


@dynac.compile
def fold_objects(xs: list[int], k: int):
    """sum(), min() and max() of a generator of objects fold each item as it
    comes: an item overflowing int64 after Python code ran goes on in the
    interpreter with the fold so far (sum()'s start; min()'s or max()'s item
    so far, or none yet) and a generator of the rest of the items."""
    ns, os = FOLDED[0], FOLDED[1]
    LOG.append("start")
    a = sum(ns[i] if i < 3 else xs[0] * k for i in range(4))
    b = min(os[i % 3] if i != 1 else xs[-1] * k for i in range(3))
    c = max(xs[0] * k if i == 0 else os[i] for i in range(3) if i != 5)
    return a, b, c


class Linked(Ranked):
    """Comparisons whose result is a Truthy (its __bool__ logged)."""
    def __lt__(self, o):
        LOG.append(("lt", self.v))
        return Truthy(self.v < getattr(o, "v", o))


@dynac.compile
def held_chain_value(xs: list[int], k: int):
    """A chain of objects whose later operand fails (an int64 overflow)
    after the earlier links ran __lt__ and held: the interpreter goes on
    with the chain from the last operand compared, no link made again."""
    r = Ranked(xs[0]) < Ranked(k) < Ranked(xs[0] * k)
    return r


@dynac.compile
def held_chain_test(xs: list[int], k: int):
    """held_chain_value as an if's test, four operands, failing at the last."""
    if Ranked(xs[0]) < Ranked(k) < Ranked(2 * k) < Ranked(xs[0] * k):
        return "taken"
    return "not taken"


@dynac.compile
def held_chain_truthy(xs: list[int], k: int):
    """Links whose results are objects: each one's __bool__ runs once."""
    r = Linked(xs[0]) < Linked(k) < Linked(xs[0] * k)
    return r


class Bag:
    """An iterable whose __iter__ is Python code (logged)."""
    def __init__(self, *v):
        self.v = v

    def __iter__(self):
        LOG.append(("iter", self.v))
        return iter(self.v)


BAGS = [Bag(7, 8), Bag()]


@dynac.compile
def starred_then_fail(xs: list[int], k: int):
    """A list display whose later item fails (an int64 overflow) after a
    starred object's __iter__ ran: the interpreter goes on with the list
    made so far as one starred item, nothing iterated again."""
    b = BAGS[k % 2]
    return [*b, xs[0] * k]


@dynac.compile
def starred_tuple_then_fail(xs: list[int], k: int):
    """starred_then_fail in a tuple, with items before, between and after."""
    b = BAGS[0]
    return (xs[0], *b, 5, xs[-1] * k, *b)


@dynac.compile
def starred_many_then_fail(xs: list[int], k: int):
    """Several starred parts, a typed list among them, then the failure."""
    b = BAGS[0]
    r = [1, *b, *xs, *b, xs[0] * k, 2]
    return r


@dynac.compile(signatures=["(list[float], None, None)", "(list[float], float, None)",
                            "(list[float], None, float)"])
def clipped_optional(xs, lo=None, hi=None):
    """`lo is not None and x < lo` with lo None: the right operand never
    runs, so it is neither typed nor compiled (a comparison with None would
    be), as a branch `if lo is None:` rules out; so is a conditional
    expression's branch that never runs."""
    out = []
    low = lo is not None and lo > 0.0
    for x in xs:
        if lo is not None and x < lo:
            x = lo
        if hi is not None and x > hi or x != x:
            x = -1.0
        if not (hi is None or x < hi) and lo is None:
            LOG.append(("above", x))
        out.append(x + (hi if hi is not None else 0.25) if lo is None else x)
    return out, low, lo is None or lo < 0.0


@dynac.compile
def running_best(xs: list[float]):
    """Locals holding None or a float ("float | None"): the number boxed in
    the local, unboxed where a test proves it is not None (`is not None`,
    `is None or`, truth, `if ... is None: continue`); any other read is the
    object itself (a call's argument, a tuple's item, the result)."""
    top = None
    prev = None
    low = None
    rough = 0.0
    for x in xs:
        if top is None or x > top:
            top = x
        if prev is not None:
            rough += (x - prev) * (x - prev)
        if prev:
            LOG.append(("truthy", repr(prev), repr(-prev)))
        prev = x
        if low is not None and not x < low:
            continue
        low = x
        LOG.append(("low", repr(low)))
    if low is None:
        return top, prev, rough, "empty"
    return top, prev, low - 1.0, rough, str(top)


@dynac.compile
def running_best_int(xs: list[int], k: int):
    """"int | None": the same for ints, where the narrowed number's
    arithmetic may overflow int64 (the interpreter goes on from there)."""
    best_i = None
    best_v = None
    for i in range(len(xs)):
        v = xs[i] * k
        if best_v is None or v < best_v:
            best_v = v
            best_i = i
        LOG.append(best_i)
    if best_v is not None:
        return best_i, best_v * k - 1
    return best_i, best_v


def _halves(n):
    """A generator: it runs in the interpreter, and kernels call it through
    the C API."""
    for i in range(n):
        LOG.append(("half", i))
        if i == 3 and n > 10:
            raise ValueError("too many halves: %d" % n)
        yield i * 0.5


def _kw_scaled(x, **kw):
    """A def with **kw, which kernels do not take."""
    LOG.append(("kw", sorted(kw)))
    return x * kw.get("k", 2.0) + 1.0


def _two_kinds(k):
    """No specialisation: it returns a list or an int."""
    if k > 0:
        return [k]
    return k


@dynac.compile
def calls_interpreted(xs: list[float], n: int):
    """Module functions that run in the interpreter (a generator, a def
    with **kw, one with no specialisation) called from a kernel through the
    C API, as CPython calls them: arguments boxed, keywords by name, their
    exceptions with this frame's line."""
    t = 0.0
    for x in xs:
        t += _kw_scaled(x) - _kw_scaled(x, k=-1.0)
    s = 0.0
    for v in _halves(n):
        s += v * v
    return t, s, list(_halves(2)), _two_kinds(n), _two_kinds(-n)


@dynac.compile
def extremes(xs: list[float], ns: list[int]):
    """min(xs) and max(xs) of lists of numbers, and of a generator of
    numbers, as CPython's loop: the first of equal extremes, a NaN first
    stays, -0.0 against 0.0; an empty list raises ValueError (here after an
    effect: the interpreter goes on from the statement)."""
    LOG.append("start")
    lo, hi = min(xs), max(xs)
    sq = max(x * x for x in xs)
    return lo, hi, sq, min(ns), max(ns), max([n > 0 for n in ns]), min(n * 3 for n in ns)


@dynac.compile
def grid_and_words(n: int, text: object):
    """A list of lists made by a comprehension in a function whose generic
    operations (str methods) have it hold its inner lists as objects."""
    g = [[(i * j) % 5 for j in range(n)] for i in range(n)]
    rows = [[w.upper() for w in text.split()] for _ in range(2)]
    g[0].append(len(rows))
    return g, rows, len([[i] for i in range(n)])


@dynac.compile
def buckets(xs: list[int], n: int):
    """A list of empty lists (`[[] for _ in range(n)]`): nothing here says
    what they will hold, so they are held as objects and filled through
    list.append; x % 0 raises ZeroDivisionError once they are made."""
    rows = [[] for _ in range(n)]
    for x in xs:
        rows[x % n].append(x)
    return rows, [len(r) for r in rows], rows[0] is not rows[-1] if n > 1 else None


@dynac.compile
def running_best(xs: list[float], k: float):
    """A "float | None" local updated in place where it is known not None
    (narrow.c: the else of `if best is None`): `best += x` runs on its
    number, the result boxed back into the local; `best /= k` raises
    ZeroDivisionError on its line for k == 0."""
    best = None
    for x in xs:
        if best is None:
            best = x
        else:
            best += x
            best /= k
    return best


@dynac.compile
def running_product(xs: list[int], k: int):
    """The same for an "int | None" local: a product past int64 goes on in
    the interpreter (a big int), `//=` by 0 raises; `-=` after an
    `is not None` test."""
    total = None
    for x in xs:
        if total is not None:
            total *= x
            total //= k
            total -= 1
        else:
            total = x
    return total


@dynac.compile
def nested_comp_errors(text: object, k: object):
    """Comprehensions inside comprehensions: an exception raised making an
    innermost item has every comprehension's frame in its traceback, and
    one raised by an inner comprehension's first iterable the frames up to
    the comprehension that evaluates it."""
    LOG.append("start")
    rows = [[[w.upper() + k for w in text.split()] for _ in range(2)]
            for _ in range(2)]
    return rows, [[w + k for w in text.split()] for _ in range(1)]


@dynac.compile
def nested_comps(xs: list[int], k: int):
    """A comprehension in another's element or if clause that runs no
    Python code: a failure in it (an int64 overflow, an item of another
    type) after Python code ran goes on in the interpreter from the outer
    clause's start, the inner list made again there."""
    LOG.append("start")
    a = [sum([x * k for x in xs]) for y in xs]
    b = [y for y in xs if len([x for x in xs if x * k > y]) > 0]
    c = [sum([x * k + y for x in xs]) for y in range(2)]
    return a, b, c


@dynac.compile
def nested_comp_shadowing(xs: list[int], k: int):
    """nested_comps where the inner comprehension binds the outer one's name."""
    LOG.append("start")
    return [sum([y * k for y in xs]) + y for y in xs]


@dynac.compile
def raises_any(kind: int, v: object):
    LOG.append(("before", kind))
    if kind == 0:
        raise AppError("bad", kind)
    if kind == 1:
        raise AppError
    if kind == 2:
        raise v
    if kind == 3:
        raise AppError("chained") from v
    if kind == 4:
        raise ValueError("with a cause") from AppError
    if kind == 5:
        raise NotAnException
    if kind == 6:
        raise KeyError(v) from None
    return kind


@dynac.compile
def asserts(x: object, msg: object):
    assert x, msg
    assert x != 3
    LOG.append(("after", type(x).__name__))
    assert len(LOG) < 100, "never"
    return x


@dynac.compile
def reraise_handled(k: int):
    LOG.append(("reraise", k))
    if k:
        raise
    return k


def under_handler(k):
    """Interpreted: a compiled function's bare raise re-raises the exception
    this frame is handling (its traceback keeps this frame's lines)."""
    try:
        raise KeyError(k)
    except KeyError:
        return reraise_handled(k)


@dynac.compile
def gen_numbers(v: list[float], k: list[int]):
    """Generator expressions consumed on the spot by sum, any, all (typed loops)."""
    return (math.sqrt(sum(x * x for x in v)), any(x < 0.0 for x in v if x == x),
            all(i > 0 for i in k), sum(i * 3 for i in k), sum(x for x in v))


@dynac.compile
def gen_extremes(v: list[float]):
    return max(abs(x) for x in v), min(x * 2.0 for x in v if x != 0.0)


@dynac.compile
def number_folds(v: list[float], k: list[int], d: int):
    """sum() of generators of numbers, folded in C as they are made (no list):
    floats (no item: the int 0), ints past int64 (the sum so far goes on in
    the interpreter), bools, two for clauses and an if, a fold per item of a
    comprehension, and an element that raises."""
    a = sum(x * x for x in v)
    b = sum(i * d for i in k)
    c = sum(x > 0.0 for x in v)
    e = sum(i + j for i in k if i % 3 for j in range(d % 4))
    f = [sum(x * i for x in v) for i in k]
    return a, b, c, e, f, sum(100 // i for i in k)


@dynac.compile
def number_extremes(v: list[float], k: list[int], d: int):
    """min() and max() of generators of numbers, folded in C: the first of
    equal items and a NaN first stay, an element past int64 hands the item
    kept on to the interpreter, no item is 3.11's ValueError."""
    lo = min(x for x in v) if v else None
    hi = max(-x for x in v if x == x) if v else None
    top = max(i * d for i in k) if k else None
    return lo, hi, top, min(i // d for i in k if i)


@dynac.compile
def fold_after_effect(k: list[int], d: int):
    """A fold that overflows after Python code ran (logged_int, an
    interpreted function: nothing to take back): the interpreter goes on
    with the sum (the item kept) so far, once."""
    n = logged_int(len(k))
    s = sum(i * d for i in k)
    return n, s, min(i * d * d for i in k if i), logged_int(-1)


@dynac.compile
def loop_items(ks: list[int], xs: list[float]):
    """A for loop's variable boxed again (a dict key, a tuple's item, an
    append) is the list's item, as CPython's loop variable is; rebound, a
    new object."""
    d = {k: k * 2 for k in ks}
    pairs = [(x, x * 0.5) for x in xs]
    seen = []
    for k in ks:
        seen.append(k)
        if k > 5:
            k = k - 1
        seen.append(k)
    back = []
    for x in reversed(xs):
        back.append(x)
    return d, pairs, seen, back


@dynac.compile
def loop_else(ks: list[int], xs: list[float]):
    """The loop variable boxed in the loop's else (the last item; unbound
    when the list is empty) and after the loop."""
    out = {}
    for k in ks:
        out[k] = 1
    else:
        out[k] = 2
    for x in xs:
        if x > 2.0:
            break
    else:
        return out, (x, 0)
    return out, (x, 1)


@dynac.compile
def list_taker(n: int, x: float, xs: list[float]) -> tuple[int, float]:
    for q in xs:
        half = q * 0.5
    xs.append(float(n))
    return n, x


@dynac.compile
def passes_a_float(n: int, x: float):
    """Calls list_taker with a float where it takes a list: that
    specialisation runs in the interpreter (TypeError: not iterable), a pass
    of the typer after one that had typed the call as a kernel's (fuzz seed
    20261307: the call's C took the object as the tuple, and the module's C
    failed to compile)."""
    y = x / (x ** 3)
    m, y = list_taker(2147483647, math.sin(x), math.atan2(y, y))
    return m, y


@dynac.compile
def gen_objects(ws: object):
    """... and by str.join, sorted, tuple, list, any and all of objects."""
    return (", ".join(str(w) for w in ws), sorted(len(str(w)) for w in ws), tuple(w for w in ws if w),
            list(w for w in ws), any(w for w in ws), all(w for w in ws))


class Formatted:
    """__format__, __str__ and __repr__ that log, in the order they run."""
    def __init__(self, v):
        self.v = v

    def __format__(self, spec):
        LOG.append(("format", spec))
        return "F<%s|%s>" % (self.v, spec)

    def __str__(self):
        LOG.append(("str", self.v))
        return "S<%s>" % (self.v,)

    def __repr__(self):
        LOG.append(("repr", self.v))
        return "R<%s>" % (self.v,)


class Name(str):
    """A str subclass: formatted through its __format__, not taken as is."""
    def __format__(self, spec):
        return "name:" + str.__format__(self, spec)


@dynac.compile
def fstrings(x: object, y: float, n: int):
    return (f"x={x!r} y={y:.3f} n={n:>5} {{braces}} " "plain" f'{x}' rf"\d{n}",
            f"{y=}", f"{x = !s:>6}", f"{n:,}|{y:e}|{x!a}", f"[{y:+.2%}]")


@dynac.compile
def fstring_spec(x: object, spec: object):
    LOG.append(("before", repr(spec)))
    return f"<{x:08.3f}>{x!s}"


@dynac.compile
def object_slices(s: object, i: object, j: object):
    return s[i:j], s[::-1], s[1:], s[:j:2], s[i::j], s[-1:i]


@dynac.compile
def slice_stores(s: object, v: object, i: int):
    s[1:i] = v
    s[::i] = v
    s[:] += v
    return s


@dynac.compile
def list_slice_store(n: int, k: int):
    xs = [1.0, 2.0, 3.0, 4.0]
    xs[1:n] = [0.5] * k
    t = 0.0
    for x in xs:
        t += x
    return t, xs[n:], xs[k:n:-1]


@dynac.compile
def param_slice_store(xs: list[float], n: int):
    xs[n:] = [2.5, -0.0]
    t = 0.0
    for x in xs:
        t += x
    xs[:n] = []
    return t


@dynac.compile
def deletes(s: object, k: object):
    del s[k]
    del s[1:k], s[::2]
    return s


@dynac.compile
def delete_attrs(o: object, d: object):
    del o.v, d["missing"]
    return o


class Hashed:
    """A key whose hash and equality log (the order of inserts shows)."""
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        LOG.append(("hash", self.v))
        if self.v is None:
            raise TypeError("no hash for None")
        return hash(self.v)

    def __eq__(self, o):
        LOG.append(("eq", self.v))
        return isinstance(o, Hashed) and self.v == o.v

    def __repr__(self):
        return "Hashed(%r)" % (self.v,)


KEYS = [Hashed(1), Hashed(2), Hashed(1)]  # display_order's


def tag(x):
    LOG.append(("tag", repr(x)))
    return x


@dynac.compile
def set_dict_comps(s: object, n: int):
    a = {tag(x) for x in s}
    b = {tag(x): tag(i) for i in range(n) for x in s if i != 1}
    c = set(tag(x) for x in s)
    d = frozenset(x for x in s)
    e = dict((tag(x), n) for x in s)
    return a, b, c, d, e, {x: 1 for x in ()}


class Idx:
    """An int-like object (range() takes it through __index__)."""
    def __init__(self, v):
        self.v = v

    def __index__(self):
        LOG.append(("index", self.v))
        return self.v


@dynac.compile
def range_of_objects(s: object, n: int):
    t = 0
    for i in range(n, n + 3):
        t += i
    for j in range(s):
        t += j
    for k in range(0, s, n):
        t -= k
    return t


def takes(*a, **k):
    def shown(x):  # no object addresses: they differ between the two runs
        return repr(x) if isinstance(x, (int, float, str, bytes, tuple, list, dict, type(None))) else type(x).__name__
    LOG.append(("takes", [shown(x) for x in a], [(n, shown(x)) for n, x in sorted(k.items())]))
    return a, k


class Keys:
    """A mapping that is not a dict: ** takes it through keys() and []."""
    def __init__(self, d):
        self.d = d

    def keys(self):
        LOG.append(("keys",))
        return list(self.d)

    def __getitem__(self, k):
        LOG.append(("item", k))
        return self.d[k]


@dynac.compile
def star_positional(a: object):
    return takes(*a), takes(1, *a, 2, *a)


class Pair:
    """Made from a star call: f(x, *t) passes an exact tuple's items from a C array
    (runtime/objects.h: dynac_call_star), anything else gathered as CPython gathers it."""
    def __init__(self, x, y=0, *rest):
        self.x, self.y, self.rest = x, y, rest

    def __repr__(self):
        return "Pair(%r, %r, %r)" % (self.x, self.y, self.rest)


@dynac.compile
def star_one(kind: object, a: object):
    return kind(1, *a), kind(*a), takes(tag(0), 2.5, *a)


@dynac.compile
def star_keywords(a: object, k: object):
    return takes(*a, x=1, **k), takes(**k, y=tag(2), z=tag(3)), takes(tag(0), *a, **k)


@dynac.compile
def star_callees(a: object, o: object):
    return max(*a), o.count(*a), (tag)(*a)


@dynac.compile
def varargs_callee(a: object):
    return takes(a, a, k=a), takes()


@dynac.compile
def unpack_objects(p: object, d: object):
    a, b = p
    out = []
    for k, v in d.items():
        out.append((k, v))
    for i, (x, y) in enumerate(out, 1):
        out.append(i)
    for u, w in zip(p, d):
        out.append(u)
    for r in reversed(p):
        out.append(r)
    return a, b, out


@dynac.compile
def chained_assign(p: object):
    a = b = p
    x, y = z = a
    return a, b, x, y, z


class NotACatchable:
    """A class an except clause may name, which catches nothing: naming it
    raises TypeError once an exception reaches the clause."""


def tb_lines(e):
    """The frames of e's traceback in this file, (function, line), as a handler sees them."""
    return [(f.name, f.lineno) for f in traceback.extract_tb(e.__traceback__)
            if os.path.basename(f.filename) == "corpus_objects.py"]


def risky(kind, v):
    """Interpreted: raises by kind (a frame of its own in the tracebacks)."""
    if kind == 1:
        raise KeyError(v)
    if kind == 2:
        raise ValueError(v)
    if kind == 3:
        return 1 / v
    if kind == 4:
        raise AppError("app", v)
    if kind == 5:
        raise KeyboardInterrupt(v)
    return v


@dynac.compile
def try_except(kind: int, v: object, d: object):
    LOG.append(("start", kind, sys.exception() is None))
    try:
        x = risky(kind, v)
        y = d[v]
        LOG.append(("body done", x))
    except KeyError as e:
        LOG.append(("key", str(e), tb_lines(e), type(sys.exception()).__name__))
        if v == "boom":
            raise ValueError("raised in the handler")
        y = "missing"
    except (ValueError, ZeroDivisionError) as e:
        LOG.append(("value", repr(e), tb_lines(e), sys.exception() is e))
        return ("value", kind, tb_lines(e))
    except AppError:
        LOG.append(("app", sys.exception().args))
        raise
    except NotACatchable:
        LOG.append(("never",))
    else:
        LOG.append(("else", y))
        y = (y, x)
    LOG.append(("after", sys.exception() is None))
    try:
        return e  # unbound once a clause that bound it ends (never bound without one)
    except NameError as u:
        LOG.append(("unbound", type(u).__name__, str(u)))
    return y


@dynac.compile
def try_in_loop(xs: object):
    out = []
    for x in xs:
        try:
            if x is None:
                continue
            if x == "stop":
                break
            out.append(10 // x)
        except ZeroDivisionError:
            out.append("div0")
            continue
        except TypeError as e:
            try:
                out.append(int(x))
            except ValueError:
                out.append(("bad", str(e), sys.exception() is not None))
                break
        out.append(sys.exception())
    return out


@dynac.compile
def try_typed(a: list[float], i: int):
    t = 0.0
    try:
        t = a[i] * 2.0
        t = t / a[i + 1]
    except (IndexError, ZeroDivisionError):
        t = -1.0
    else:
        t += 0.5
    return t


@dynac.compile
def try_continues(k: int, d: int):
    LOG.append(("k", k))  # an effect: a deoptimisation after it goes on in the interpreter
    try:
        y = k * k * k  # int64 overflow for a big k: the body goes on in the interpreter, still in the try
        z = y // d
    except ZeroDivisionError as e:
        LOG.append(("div", str(e), tb_lines(e)))
        z = -1
    return z


@dynac.compile
def try_nested(a: object, b: object):
    try:
        try:
            r = a + b
        except TypeError:
            LOG.append(("inner", sys.exception().args))
            r = a * b
        else:
            r = r / b
    except (TypeError, ZeroDivisionError) as e:
        LOG.append(("outer", type(e).__name__, type(e.__context__).__name__, tb_lines(e)))
        r = None
    return r


@dynac.compile
def try_finally(kind: int, v: object):
    out = []
    for i in range(3):
        try:
            try:
                if kind == 0:
                    out.append(("early", i))
                    return out
                if kind == 1:
                    break
                if kind == 2 and i == 0:
                    continue
                out.append(risky(kind, v))
            except KeyError as e:
                out.append(("key", str(e)))
                if v == "again":
                    raise
                out.append("from handler")
                return out
            finally:
                out.append(("inner finally", i, type(sys.exception()).__name__))
                LOG.append(("inner", i))
        finally:
            out.append(("outer finally", i))
            if v == "swallow":
                out.append("swallowed")
                return out  # drops a pending exception, or the value being returned
            if v == "stop":
                break
    return out


@dynac.compile
def finally_keeps_value(x: object):
    try:
        return x
    finally:
        x = "changed"
        LOG.append(("finally", x))


@dynac.compile
def finally_typed(a: list[float], i: int):
    t = 0.0
    try:
        t = a[i] * 2.0
        return t
    finally:
        a.append(t)


class Manager:
    """A context manager that logs its calls and may suppress, or fail."""
    def __init__(self, name, suppress=False, fail_enter=False, fail_exit=False):
        self.name, self.suppress, self.fail_enter, self.fail_exit = name, suppress, fail_enter, fail_exit

    def __enter__(self):
        LOG.append(("enter", self.name, type(sys.exception()).__name__))
        if self.fail_enter:
            raise RuntimeError("enter failed")
        return self.name.upper()

    def __exit__(self, t, v, tb):
        LOG.append(("exit", self.name, t.__name__ if t else None, repr(v),
                    tb_lines(v) if v is not None else tb, type(sys.exception()).__name__))
        if self.fail_exit:
            raise OSError("exit failed")
        return self.suppress


class EnterOnly:
    def __enter__(self):
        return self


@contextlib.contextmanager
def generated(name):
    LOG.append(("gen enter", name))
    try:
        yield name
    except ZeroDivisionError as e:
        LOG.append(("gen caught", str(e)))
    finally:
        LOG.append(("gen exit", name))


@dynac.compile
def with_managers(m: object, n: object, kind: int):
    out = []
    with m as a, n:
        out.append(a)
        if kind == 1:
            raise KeyError("in body")
        if kind == 2:
            return out
        if kind == 3:
            out.append(1 // 0)
    out.append("after")
    return out


@dynac.compile
def with_in_loop(ms: object):
    out = []
    for m in ms:
        with m as a:
            if a == "B":
                continue
            if a == "S":
                break
            out.append(a)
        out.append(sys.exception())
    return out


@dynac.compile
def with_and_finally(m: object, k: int):
    try:
        with m:
            if k == 1:
                return "returned"
            if k == 2:
                raise ValueError("body")
            LOG.append(("body",))
    finally:
        LOG.append(("finally", type(sys.exception()).__name__))
    return "end"


@dynac.compile
def handler_divides(k: int, d: int):
    try:
        LOG.append(("try", k))
        raise KeyError(k)
    except KeyError:
        LOG.append(("handler", k))  # an effect: a failure after it is raised through the C API here
        q = k // d
    finally:
        LOG.append(("finally", k // (d + 1)))
    return q


@dynac.compile
def handler_continues(k: int, d: object):
    try:
        LOG.append(("try", k))
        return d[k]
    except (KeyError, IndexError) as e:
        LOG.append(("handler", k, type(sys.exception()).__name__))  # an effect
        big = k * k * k  # int64 overflow for a big k: the clause goes on in the interpreter
        LOG.append(("still handling", type(sys.exception()).__name__, str(e)))
        if d == "reraise":
            raise
        r = big // 2
    finally:
        LOG.append(("finally", type(sys.exception()).__name__))
    LOG.append(("after", sys.exception()))
    try:
        return e
    except NameError as u:
        LOG.append(("unbound", str(u)))
    return r


def import_hook(name, globals=None, locals=None, fromlist=(), level=0):
    """A replacement for builtins.__import__: logs how it is called."""
    LOG.append(("__import__", name, fromlist, level, locals is None, globals is not None))
    return ORIGINAL_IMPORT(name, globals, locals, fromlist, level)


ORIGINAL_IMPORT = __import__


@dynac.compile
def imports_inside(k: int):
    import os.path
    import collections.abc as cabc, json
    from os import sep as separator, path
    from json import decoder
    LOG.append(("imported", os.path.basename("/a/b"), cabc.Mapping.__name__, json.__name__))
    if k == 1:
        from os import no_such_name_here
    if k == 2:
        import no_such_module_for_dynac
    if k == 3:
        from . import sibling
    if k == 4:
        from json.no_such import x
    return separator, path.__name__, decoder.__name__, k


@dynac.compile
def imports_hooked(hook: object, k: int):
    import builtins
    saved = builtins.__import__
    builtins.__import__ = hook
    try:
        import json.decoder
        from os import sep, path
        import os.path as p
        if k:
            del builtins.__import__  # IMPORT_NAME's ImportError: __import__ not found
            import json
    finally:
        builtins.__import__ = saved
    return json.__name__, sep, path.__name__, p.__name__


@dynac.compile
def import_in_loop(n: int) -> float:
    s = 0.0
    for i in range(n):
        from math import sqrt
        s += sqrt(float(i))
    return s


RUNS = 0     # module constants that a function rebinds (`global`): read at each use
RATE = 1.5


@dynac.compile
def global_counter(k: int):
    global RUNS, RATE, LAST
    RUNS += k
    RATE = RATE * 2
    LAST = (RUNS, RATE)
    for RATE in [RATE, RATE + 1]:  # a global as the loop's target
        LOG.append(("rate", RATE))
    if k == 2:
        del LAST
        del LAST  # NameError: LAST is unbound now
    if k == 3:
        global UNSET_GLOBAL_FOR_DYNAC
        return UNSET_GLOBAL_FOR_DYNAC
    return reads_runs(), LAST


@dynac.compile
def reads_runs():
    return RUNS * 2, RATE


@dynac.compile
def nested_sort(d: object):
    return sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))


@dynac.compile
def nested_closure(k: object, xs: object):
    scale = k * 2

    def f(v, off=1.0, *, sign=1):
        """doc of f"""
        return sign * scale * v + off

    def g():
        return f(k), scale  # shares scale's cell with f

    same = f.__closure__[0] is g.__closure__[1]  # one cell per captured name
    return ([f(x) for x in xs], f(2, sign=-1), g(), f.__name__, f.__qualname__, f.__doc__,
            f.__defaults__, f.__kwdefaults__, f.__code__.co_freevars, g.__code__.co_freevars, same)


@dynac.compile
def nested_decorated(xs: object, n: int):
    size = len(xs)

    def log_calls(fn):
        LOG.append(("decorating", fn.__name__))

        def wrapper(*a):
            LOG.append(("call", a))
            return fn(*a)
        return wrapper

    @log_calls
    @functools.lru_cache(maxsize=None)
    def g(i: int) -> int:
        return xs[i % size] * 2

    def h(a: int, b: "str" = UNIT, *rest: float, c=len(xs), **kw: object) -> float:
        return 0.0
    return g(n), g(n), h.__annotations__, h.__defaults__, h.__kwdefaults__, h.__qualname__


@dynac.compile
def nested_lambdas(n: int):
    m = n * 3  # a typed local, captured: boxed into its cell
    pair = (lambda: m + 1)(), (lambda: m + 2)()  # two lambdas on one line: two code objects

    def outer_fn(p=lambda q: q * 2):
        def inner():
            return m, p(m)
        return inner()
    return pair, outer_fn(), (lambda x, y=m: x - y)(10)


@dynac.compile
def nested_raises(xs: object):
    return sorted(xs, key=lambda x: 10 // x)


@dynac.compile
def def_of_a_global(k: int):
    global MADE_BY_DEF
    def MADE_BY_DEF(x):  # a def binds its name: here the module global (STORE_GLOBAL)
        return x + k
    return MADE_BY_DEF(1), MADE_BY_DEF.__qualname__, MADE_BY_DEF is def_of_a_global.__globals__["MADE_BY_DEF"]



class Registry:
    """A base whose __init_subclass__ takes the class statement's keywords."""
    made = []

    def __init_subclass__(cls, tag=None, **kw):
        super().__init_subclass__(**kw)
        LOG.append(("subclass", cls.__name__, tag))


@dynac.compile
def class_in_function(k: object, bases: object, kw: object):
    def tagged(c):
        LOG.append(("decorated", c.__qualname__))
        c.tagged = 1 / (k != 0)  # ZeroDivisionError for k == 0: at the decorator's line
        return c

    @tagged
    class Local(*bases, **kw):
        """a class made by a kernel"""
        scale = k  # the body reads the function's local through its cell

        def __init__(self, x):
            self.x = x * k  # ... so does a method

        def who(self):
            return __class__.__name__, type(self).__qualname__  # the body's own __class__ cell

    p = Local(3)
    return (p.x, p.who(), Local.scale, Local.__doc__, Local.__qualname__, Local.__module__, Local.tagged,
            [c.__name__ for c in Local.__mro__])


@dynac.compile
def class_of_a_global(n: int):
    global MADE_BY_CLASS

    class MADE_BY_CLASS:  # the module global, qualified by its name alone
        size = n
    return MADE_BY_CLASS.size, MADE_BY_CLASS.__qualname__


@dynac.compile
def complex_and_ellipsis(z: object, k: int):
    w = z * 2j + 1.5e1J - 3  # imaginary literals: complex constants
    e = ...
    return w, abs(w), e is ..., Ellipsis is ..., (z + 1_0j).conjugate(), k * 1j, -2J


def closure_cells(k):
    """Interpreted (no compile root), so its locals are real cells; the
    functions it makes are compiled and their kernels read those cells."""
    @dynac.compile
    def reads(v: object):
        return v * scale + k, str(v)

    @dynac.compile
    def unbound(v: object):
        return later + v  # NameError until `later` is bound below

    @dynac.compile
    def makes(v: object):
        def inner():  # passes on the cells of k and scale it was given
            return k, scale, v
        return inner()

    @dynac.compile
    def grows(n: int):
        LOG.append(("grows", n))
        m = n * n  # int64 overflow after an effect: the call continues in the interpreter
        return m, k, scale  # ... which reads the same cells

    @dynac.compile
    def counts(v: object):
        nonlocal total  # STORE_DEREF: the enclosing function's variable
        total += v
        total = [total, v][0]
        return total

    @dynac.compile
    def drops():
        nonlocal gone
        del gone  # DELETE_DEREF (NameError the second time)
        return "dropped"

    total, gone = 0, 1
    out = []
    for step in [k, k]:
        try:
            out.append((counts(step), total, drops()))
        except Exception as e:  # noqa: BLE001 - compared with the interpreter's
            out.append((type(e).__name__, str(e), total))
    for scale in [1, 2]:  # the cell changes under the closures
        out.append((reads(scale), makes(scale), grows(3), grows(2**40)))
    try:
        unbound(1)
    except NameError as e:
        out.append((str(e), e.name))
    later = k
    out.append(unbound(k))
    return out


class Shape:
    def describe(self, tag):
        LOG.append(("Shape.describe", tag))
        return "shape %s" % (tag,)

    def area(self):
        return 0.0


class Square(Shape):
    def __init__(self, s):
        self.s = s

    @dynac.compile
    def describe(self, tag: object):
        base = super().describe(tag)  # zero-argument super(): the __class__ cell and self
        return base + " square", __class__.__name__, super().area(), type(self).__name__


class Cube(Square):
    def area(self):
        return 6.0


class Counter(Shape):
    @dynac.compile
    def bump(self, n: int):
        LOG.append(("bump", n))
        m = n * n  # int64 overflow after an effect: the continuation calls super() too
        return m, super().describe(n), __class__.__name__


@dynac.compile
def continues_with_cells(n: int):
    return Counter().bump(n)


@dynac.compile
def super_calls(s: object, tag: object):
    return Square(s).describe(tag), Cube(s).describe(tag), Square.describe(s, tag)


def labelled(x, label="n", *, sep=": "):
    LOG.append(("labelled", x))
    return label + sep + str(x)


@dynac.compile
def calls_with_defaults(k: int):
    a = labelled(k)  # str defaults: a call through the C API, not a direct kernel call
    b = labelled(k, sep="=")
    c = labelled(k, "m", sep="-")
    if k > 5:
        return labelled(k, colour="red")  # CPython's TypeError
    return a, b, c


@dynac.compile
def genexprs(xs: object, k: object):
    g = (x * k for x in xs if x)  # a generator object: its code runs in the interpreter
    first = next(g, None)
    rest = list(g)
    top = max((x for x in xs), default=-1)
    kept = list(filter(None, (y for y in xs)))
    return first, rest, top, kept, g.__name__, g.__qualname__, any(v == k for v in xs)


@dynac.compile
def genexprs_on_one_line(xs: object, k: object):
    # several generator objects start on each line; CPython compiles `a if b else c`'s b first, so its
    # constants are not in source order: each code object is found by its column
    pairs = list(zip((x for x in xs), (x * k for x in xs), ((y, -y) for y in xs)))
    picked = list((x for x in xs) if any(x == k for x in xs) else (k + x for x in xs))
    lo, hi = min((x for x in xs), default=k), max((x * k for x in xs), default=-k)
    nested = [list(g) for g in ((x for _ in xs) for x in xs)]
    return pairs, picked, lo, hi, nested, [list(g) for g in [(x for x in xs), (k for _ in xs)]]


@dynac.compile
def lambdas_in_compile_order(c: object, k: int):
    # lambdas on one line are found by their rank in CPython's constants, which follow its compile order:
    # an `if`'s test before its value, a lambda's defaults before it, an assignment's value before its target
    g = (lambda: "body") if (lambda: c)() else (lambda: "else")
    h = lambda x=(lambda: "default"): (x(), "outer")
    fs = [f() for f in (lambda: "first", lambda: k)]
    d = {}
    d[(lambda: "key")()] = (lambda: "stored")
    a = b = (lambda: "value")
    return g(), h(), fs, d["key"](), a(), b is a, [k * 2 for _ in (lambda: [0, 1])()]


@dynac.compile
def starred_targets(v: object, k: int):
    # a, *rest = v (UNPACK_EX): the items before and after, the rest a new list (CPython's allocation too)
    first, *rest = v
    *init, last = v
    a, *mid, b = v
    out = [first, rest, init, last, a, mid, b, sys.getsizeof(init), sys.getsizeof(mid)]
    for x, *ys in [(k, k + 1, k + 2), [k]]:
        out.append((x, ys))
    out.append([tail for _, *tail in [(1, 2), (3,)]])
    [p, *q] = range(k, k + 3)
    out.extend([p, q])
    *front, y, z = v
    return out + [front, y, z]


@dynac.compile
def starred_typed(xs: list[float], k: int):
    h, *t = xs
    pair = (k, 2.5)
    a, *b = pair
    return h, t, a, b

@dynac.compile
def list_extends(xs: list[float], ys: list[float], k: int):
    # l.extend(v) and l += v of typed lists (list_extend: the same list, every alias sees it)
    out = []
    out.extend(ys)
    for x in xs:
        out.append(x * 2.0)
    alias = out
    out += xs
    out += (1.5, 2.5)
    out.extend(out)
    ints = [k]
    for i in range(3):
        ints += [i * k]
    ints.extend((k, k))
    ints += []
    return out, alias is out, len(out), ints, sum(out)


@dynac.compile
def extend_then_overflow(xs: list[int], k: int):
    # the extensions are taken back when the int64 overflow sends the call to the interpreter
    xs.extend([k, k])
    xs += [1]
    xs += (2, 3)
    return k * 4, len(xs)

class Const:
    """Class constants and defaults read through instances (a cached place: the class's value unless the
    instance has its own, as _PyObject_GenericGetAttrWithDict finds it)."""
    G = 6.5
    mass = 1.0  # a default an instance's own value shadows (a dataclass field's default is one)
    scale = math.sqrt  # a class attribute without __get__: the value itself, not a bound method

    def __init__(self, mass):
        if mass is not None:
            self.mass = mass

    @dynac.compile
    def pull(self, other: object):
        return self.G * self.mass * other.mass + self.scale(4.0)


class SlottedConst:
    __slots__ = ("mass",)
    G = 2.0

    def __init__(self, mass):
        self.mass = mass


@dynac.compile
def class_constants(objs: object, patch: int):
    out = [a.pull(b) for a in objs for b in objs]
    if patch == 1:
        Const.G = 0.5  # the class changes: its version tag, and every cached place, with it
    elif patch == 2:
        objs[0].G = -1.0  # the instance's own value shadows the class's
    elif patch == 3:
        del Const.mass  # the default is gone: instances without their own raise AttributeError
    out += [a.pull(b) for a in objs for b in objs[:1]]
    out.append(SlottedConst(3.0).G * SlottedConst(4.0).mass)
    return out

import typing as _typing


class NPoint(_typing.NamedTuple):
    x: float
    y: float = 0.0


Pair2 = __import__("collections").namedtuple("Pair2", "a b")
PAIR2_NEW = Pair2.__dict__["__new__"].__func__  # (suite_objects restores it after the patches)


class Pair3(Pair2):
    __slots__ = ()


class Swapped(Pair2):
    def __new__(cls, a, b):
        return super().__new__(cls, b, a)


def kw_target(a, b, c=0.5, d=0.25):
    LOG.append(("kw_target", a, b, c, d))
    return a * 2.0 - b + c * d


def kw_logged(tag, v):
    LOG.append(("arg", tag))
    if v != v:
        raise ValueError("nan for " + tag)
    return v


@dynac.compile
def keyword_order(x: float, y: float):
    # a module function called with keywords out of its parameters' order: CPython evaluates the
    # arguments in source order (the log shows it; a nan raises from the first one evaluated)
    r = kw_target(b=kw_logged("b", x), a=kw_logged("a", y))
    r += kw_target(1.0, d=kw_logged("d", y), c=kw_logged("c", x), b=2.0)
    r += kw_target(b=x, a=kw_logged("a only", y))  # one loud argument: any order is CPython's
    r += kw_target(d=-1.0, c=2.5, b=y, a=x)  # all quiet
    return r


def posonly_target(a, /, b=0.5):
    return a * 2.0 - b


@dynac.compile
def keyword_posonly(x: float, y: float):
    # a positional-only parameter named by a keyword: CPython's TypeError (no direct call binds it)
    r = posonly_target(x, b=y) + posonly_target(y)
    try:
        r += posonly_target(a=x)
    except TypeError as e:
        return r, str(e)
    return r, None


class NegLogged:
    def __init__(self, v):
        self.v = v

    def __neg__(self):
        LOG.append(("neg", self.v))
        return -self.v


@dynac.compile
def keyword_order_neg(o: object, y: float):
    # -o may run __neg__: not a quiet argument, so with the loud one beside it the call keeps
    # source order (-o first)
    return kw_target(b=-o, a=kw_logged("a", y)) + kw_target(b=-2.5, a=kw_logged("a2", y))


@dynac.compile
def namedtuples_made(x: object, y: object, patch: int):
    # a namedtuple class called from a kernel: made as its own __new__ makes it (tuple.__new__), unless
    # that __new__ changed or the call is not its plain positional one
    before = Pair2(x, y)
    if patch == 1:
        Pair2.__new__ = staticmethod(lambda cls, a, b: tuple.__new__(cls, (b, a)))
    elif patch == 2:
        Pair2.__new__.__globals__["_tuple_new"] = lambda cls, it: tuple.__new__(cls, tuple(it)[::-1])
    made = [NPoint(x, y), NPoint(x), Pair2(x, y), Pair3(x, y), Swapped(x, y), NPoint(y=x, x=y)]
    out = [(type(m).__name__, tuple(m)) for m in made]
    for bad in [lambda: Pair2(x), lambda: NPoint(x, y, x), lambda: Pair2(x, b=y, a=x)]:
        try:
            bad()
        except TypeError as e:
            out.append(str(e))
    return out, made[0].x, made[2].b, before

def counted(k):
    LOG.append(("counted", k))
    return k


@dynac.compile
def sum_after_effect_overflows(n: int, ks: list[int]):
    # the item's Python code ran, then the sum so far overflows int64: the interpreter goes on with that
    # item, its code not run again (fuzz seed 20261317)
    return sum(k * (n * n) + counted(k) for k in ks if k != n) % 1000003, sum(counted(k) for k in ks)

@dynac.compile
def lambdas_in_comprehensions(rows: object, k: int):
    # a lambda's (a generator's) code in a comprehension is a constant of the comprehension's code, ranked
    # in its compile order (clauses, then the element); the first iterable's is the function's
    a = [sorted(r, key=lambda v: -v) for r in rows if (lambda: k)() is not None]
    b = {x: [(lambda: k)() for y in (lambda: rows)()] for x in range(2)}
    c = [f() for f in [lambda i=i: i * k for i in range(3)]]
    d = [next((x for x in r if x > k), None) for r in rows]
    e = sum((lambda: k)() for _ in rows)
    names = [(lambda: 0).__qualname__ for _ in range(1)] + [next(g for g in [(y for y in r)]).__qualname__
                                                             for r in rows[:1]]
    return a, b, c, d, e, names


@dynac.compile
def continued_makes_functions(xs: list[int], k: int):
    # an int64 overflow after Python code ran goes on in the interpreter, mid-comprehension too: the
    # functions it makes there are qualified as CPython qualifies them
    made = []
    ys = [logged(x) + (lambda: 1)() + k * x + len(made.append(lambda i=x: i * k) or "") for x in xs]
    z = logged(0) + k * 2
    f = lambda: k

    def g():
        return [lambda: z for _ in range(1)]
    return (ys, [m() for m in made], [m.__qualname__ for m in made], z, f.__qualname__, f(), g.__qualname__,
            g()[0].__qualname__)


class Noisy:
    def __init__(self, tag):
        self.tag = tag

    def __del__(self):
        LOG.append(("del", self.tag))


@dynac.compile
def deletes_locals(k: int):
    a = Noisy(k)
    n = k * 2
    del a  # its __del__ runs here, before the next statement
    LOG.append("after del")
    del n
    if k > 1:
        return n  # UnboundLocalError
    a = [k]
    del a
    a = "rebound"
    return a


class Truth:
    """A value whose truth and comparisons log what runs, in order; its
    comparisons give another Truth (rich comparisons may give any object)."""
    def __init__(self, v, tag="t"):
        self.v, self.tag = v, tag

    def __bool__(self):
        LOG.append(("bool", self.tag))
        if self.v == "raise":
            raise ValueError("truth of " + self.tag)
        return bool(self.v)

    def __lt__(self, o):
        LOG.append(("lt", self.tag, repr(getattr(o, "tag", o))))
        return Truth(self.v < getattr(o, "v", o), self.tag + "<")

    def __le__(self, o):
        LOG.append(("le", self.tag, repr(getattr(o, "tag", o))))
        return Truth(self.v <= getattr(o, "v", o), self.tag + "<=")

    def __repr__(self):
        return "Truth(%r, %r)" % (self.v, self.tag)


def truth_tags(v):
    return getattr(v, "tag", v)


@dynac.compile
def values_of_either(a: object, b: object, n: int):
    """and/or and conditional expressions whose operands are of different
    types: each value boxed, each truth tested once, in order."""
    x = a or b
    y = a and n
    z = (b or None) if n > 0 else n * 2
    w = a if a is not None else (n, 2.5)
    u = n or a  # an int or an object
    v = not a or b
    return truth_tags(x), truth_tags(y), truth_tags(z), truth_tags(w), truth_tags(u), truth_tags(v)


@dynac.compile
def chains_of_objects(a: object, b: object, c: object, n: int):
    """Comparison chains of objects, and with is / in: each operand evaluated
    once, later comparisons only while earlier ones hold."""
    r = a < b < c
    s = a <= b < n
    if a < b <= c:
        LOG.append("if taken")
    pair = (1, 2)
    t = n in pair is not b
    u = a is True, b is not False, 1 <= n < 2 < 3
    k = -1 < n in [n, 2] != a
    return truth_tags(r), truth_tags(s), t, u, k


@dynac.compile
def star_params(a: object, *rest, scale: object = 2, **named):
    """*args and **kwargs parameters: the tuple and the dict the interpreter
    binds, read and rebound like any local."""
    LOG.append(("star", repr(a), len(rest), scale, sorted(named)))
    total = a * scale
    for r in rest:
        total = total + r
    if "boom" in named:
        raise KeyError(named["boom"])
    tag = named.pop("tag", None)
    rest = rest + (tag,)
    return total, rest, tag, sorted(named.items()), type(named).__name__


@dynac.compile
def calls_star_params(k: object):
    """Calls of a function with *args / **kwargs (generic calls: CPython binds
    them), of every shape, and a lambda and a method taking them."""
    pack = lambda *xs, **kw: (xs, sorted(kw))  # noqa: E731
    r = [star_params(k), star_params(k, 1, 2), star_params(k, scale=3, tag="t"),
         star_params(*[k, k], **{"tag": k, "z": 0}), pack(), pack(k, y=k), Vec(1.0, 2.0).weighted(k, w=2)]
    if k == 0:
        r.append(star_params(k, boom="b"))
    if k == 1:
        r.append(star_params())  # CPython's TypeError: a missing argument
    return r


class Weighted:
    @dynac.compile
    def weighted(self, *vals, w: object = 1, **extra):
        return sum(vals) * w, extra


Vec.weighted = Weighted.weighted


if sys.platform:  # defs the module's code makes in its blocks: compiled like nested ones
    @dynac.compile
    def block_made(a: object, b: object):
        return a + b, "if branch"
else:
    @dynac.compile
    def block_made(a: object, b: object):
        return a - b, "else branch"

try:
    @dynac.compile
    def made_in_try(x: object):
        return [x, x * 2]
except ImportError:  # pragma: no cover - never taken
    made_in_try = None

by_rank = dynac.compile(lambda kv: (-kv[1], kv[0]))  # a module-level lambda


class Modes:
    if sys.platform:  # a method its class body makes in a block
        @dynac.compile
        def pick(self, v: object):
            return ("pick", v, type(self).__name__)
    scale = dynac.compile(lambda self, x: x * 3)  # a class-level lambda


def local_class(k):
    """Interpreted: the class statement runs here; its methods' kernels read
    the closure (k) and __class__."""
    class Local(Modes):
        @dynac.compile
        def get(self, d: object):
            return k + d

        @dynac.compile
        def named(self):
            return super().pick(k)
    return Local()


@dynac.compile
def uses_block_made(x: object):
    obj = local_class(x)
    return (block_made(x, x), made_in_try(x), sorted([("a", x), ("b", 2), ("c", x)], key=by_rank),
            Modes().pick(x), Modes().scale(x), obj.get(x), obj.named())


@dynac.compile
def boxed_values(x: object, n: int):
    """Values boxed where objects go: lists holding None and mixed types,
    tuples compared, searched, passed, iterated and joined with objects."""
    r = [x, None, n, 2.5]
    r.append(None)
    nums = [n, 0.5, -0.0]
    y = x
    if n > 1:
        y = (n, None)
    total = 0
    for k in (1, n, 3):
        total = total + k * x if x is not None else total + k
    return (r, [None] * n, nums, x in (1, 2), x == (1, 2), (x, n) < (1, 2), str((n, 2)), y,
            max((1, n), (n, 3)), total)


@dynac.compile
def cells_rebound(n: int):
    """Locals that closures capture and the function rebinds live in cells
    of the kernel's own: late binding in a loop, a name bound after the def,
    deleted, read unbound; a continuation (int64 overflow) shares the cells."""
    fs = []
    for i in range(3):
        fs.append(lambda: (i, tag))
    try:
        fs[0]()
    except NameError as e:
        LOG.append((type(e).__name__, str(e)))
    tag = "late"
    LOG.append(fs[2]())
    del tag
    try:
        fs[1]()
    except NameError as e:
        LOG.append((type(e).__name__, str(e)))
    try:
        LOG.append(tag)
    except NameError as e:
        LOG.append((type(e).__name__, str(e)))
    tag = "again"
    total = n
    for k in range(3):
        total = total * n  # overflows int64 for a big n: the interpreter goes on, with the cells
    LOG.append(fs[0]())
    tag = total
    return [f() for f in fs], total


@dynac.compile
def nonlocal_counter(n: int):
    """Nested functions that assign the function's local (nonlocal): it
    lives in a cell of the kernel's own, which they write."""
    count = 0

    def bump(k):
        nonlocal count
        count += k
        return count

    def reset():
        nonlocal count
        del count

    for i in range(n):
        bump(i)
    LOG.append(count)
    reset()
    try:
        LOG.append(count)
    except NameError as e:
        LOG.append((type(e).__name__, str(e)))
    try:
        bump(1)
    except NameError as e:
        LOG.append((type(e).__name__, str(e)))
    count = "s"
    return bump("!"), count


@dynac.compile
def starred_displays(a: object, b: object):
    """[*a, b], (*a, *b), {*a, b}: each element in order, the starred ones'
    items; a value that is not iterable raises CPython's TypeError."""
    LOG.append("start")
    lst = [*a, b, *a]
    tup = (b, *a)
    st = {*a, *a}
    return lst, tup, sorted(st, key=repr), len([*b])


@dynac.compile
def dict_unpacking(m: object, k: object):
    """{**m, k: v}: the pairs and mappings merged in order (later keys win);
    a value that is not a mapping raises CPython's TypeError."""
    d = {"a": 1, **m, k: "k", **{"z": 0}}
    return d, list(d), {**m}


def twice(x):  # redefined below: this def is compiled too, called only before the rebinding
    return ("first", x)


early_twice = twice


def twice(x):
    return ("second", x)


class Temp:
    """A property's getter and setter share a qualname: both compile."""
    def __init__(self, c):
        self._c = c

    @dynac.compile
    @property
    def celsius(self):
        return self._c

    @dynac.compile
    @celsius.setter
    def celsius(self, v: object):
        if v < -273.15:
            raise ValueError("below absolute zero: %r" % (v,))
        self._c = v


@dynac.compile
def uses_redefined(x: object):
    t = Temp(x)
    t.celsius = x * 2
    return twice(x), early_twice(x), t.celsius


class Amount:
    """Folded by sum(), min() and max() of generators: its +, < and > log
    what runs, in order, between the items being made."""
    def __init__(self, v, tag):
        self.v, self.tag = v, tag

    def __add__(self, o):
        LOG.append(("add", self.tag, getattr(o, "tag", o)))
        return Amount(self.v + getattr(o, "v", o), self.tag + "+")

    def __radd__(self, o):
        LOG.append(("radd", self.tag, o))
        if self.v == "raise":
            raise TypeError("cannot add " + self.tag)
        return Amount(o + self.v, "r" + self.tag)

    def __lt__(self, o):
        LOG.append(("lt", self.tag, o.tag))
        return self.v < o.v

    def __gt__(self, o):
        LOG.append(("gt", self.tag, o.tag))
        return self.v > o.v

    def __repr__(self):
        return "Amount(%r, %r)" % (self.v, self.tag)


def made(x):
    LOG.append(("made", getattr(x, "tag", x)))
    return x


@dynac.compile
def folds_of_objects(xs: object, start: int):
    total = sum(made(x) for x in xs)
    low = min(made(x) for x in xs if x is not None)
    high = max(made(x)
               for x in xs)
    pairs = sum(k * v for k, v in zip(range(start, start + 3), xs))
    return total, low, high, pairs


@dynac.compile
def big_literals(x: object, n: int):
    m = 18446744073709551616
    return ((x * 6364136223846793005 + 1442695040888963407) % m, n + 0xFFFF_FFFF_FFFF_FFFF_F,
            -9223372036854775808, n < 2**64, m)


@dynac.compile
def empty_lists_in_tuples(n: int, seed: int):
    texts, x = [], seed  # each list typed by what is appended to it later
    for i in range(n):
        x = (x * 3 + 1) % 1000
        texts.append("v%d" % x)
    a, b = [], []
    a.append(1.5)
    return texts, x, a, b, ([], n)  # lists nothing is stored in, in tuple objects


@dynac.compile
def literal_objects(k: int):
    plain = ('plain', "dq", '', """""", '''tri
ple''', 'é ü', "it's", 'say "hi"')
    made = ("""x"y""", 'a' 'b', b'by', r'\d', '\u00e9\n', f'{k}', rb'\x00', u'u')
    big = (0x_FFFF_FFFF_FFFF_FFFF_FF, 0o7777777777777777777777777, 0b1_0000000000_0000000000_0000000000_0000000000_0000000000_0000000000_000,
           1_000_000_000_000_000_000_000, 9223372036854775808)
    return plain[k % 8], made[k % 8], big[k % 5], plain, made, big


class Plain:
    def __init__(self, a):
        self.a = a
        self.b = a * 2


class SlotPair:
    __slots__ = ("a", "b")

    def __init__(self, a):
        self.a = a  # b stays unset: AttributeError


class Hooked:
    def __init__(self, a):
        self.a = a

    def __getattr__(self, name):
        LOG.append(("getattr", name))
        return name * 2


def objects_of(kind):
    """Instances whose attributes live at different places; a fresh class
    each time, so that a patch stays with it."""
    P = type("P", (Plain,), {})
    S = type("S", (SlotPair,), {"__slots__": ()})
    if kind == 0:
        return [P(1), P(2), P(3)]
    if kind == 1:
        return [S(1), S(2)]
    if kind == 2:
        p = P(1)
        p.__dict__["c"] = 0  # the instance's __dict__ made: no inline values
        return [p, P(2)]
    if kind == 3:
        return [Hooked(1), Hooked(2)]
    if kind == 4:
        return [P(1), S(2), type("Q", (P,), {})(3), P(4), S(5)]
    if kind == 5:
        p = P(1)
        for i in range(40):  # more attributes than the shared keys hold
            setattr(p, "x%d" % i, i)
        return [p, P(2)]
    if kind == 6:
        return []
    return [P(1), 5]


def patch_class(cls):
    """A class change after the sites cached places: the class gets a new version tag."""
    cls.b = property(lambda self: ("property", self.a))


@dynac.compile
def attribute_places(objs: object, patch: int):
    out = []
    for o in objs:
        o.a = o.a + 1
        out.append(o.a)
        try:
            out.append(o.b)
        except AttributeError as e:
            out.append(str(e))
    if patch and objs:
        patch_class(type(objs[0]))
        for o in objs:
            try:
                out.append(o.b)
                o.b = 7
            except AttributeError as e:
                out.append(str(e))
            out.append(o.a)
    return out


def logged(k):
    """Not compiled: Python code with an effect (LOG) the interpreter must
    not run twice."""
    LOG.append(("logged", k))
    return k * 0.5


@dynac.compile
def store_big_index(xs: list, k: int):
    """The value of `xs[i] = v` has an effect (logged); then i leaves int64
    (fuzz seeds 113, 117, 135): the call goes on in the interpreter in the
    middle of the statement, with v as the kernel had it (logged is not
    called again) and i evaluated from its operands (a big int)."""
    xs[(k * 4611686018427387904) % len(xs)] = logged(k)
    xs[k % len(xs)] = logged(-k)
    return xs


# ---- polymorphic attribute and method sites (runtime's dynac_attr_cache ways) ----
import collections as _collections
import types as _types

plug = _types.ModuleType("plug")  # a module whose globals kernels read and call (LOAD_ATTR_MODULE)


def _plug_reset():
    plug.f = abs
    plug.k = 2
    for name in ("g", "__getattr__"):
        plug.__dict__.pop(name, None)


class PSlots:
    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t

    def area(self):
        return ("slots", self.t)


class PDict:
    def __init__(self, t):
        self.t = t

    def area(self):
        return ("dict", self.t)


class PSub(PDict):
    def area(self):
        return ("sub", self.t)


class PProp:
    @property
    def t(self):
        LOG.append(("PProp.t",))
        return "prop"

    def area(self):
        return ("prop",)


class PGetattr:
    def __getattr__(self, name):
        LOG.append(("PGetattr", name))
        if name == "area":
            return lambda: ("getattr",)
        return "ga-" + name


PTuple = _collections.namedtuple("PTuple", "t area")


def poly_objects():
    """Eight kinds of receivers, more than a site's ways: slots, dict,
    a subclass, a property, __getattr__, a namedtuple, a module, a dict
    instance whose own attribute shadows its class's method."""
    shadowed = PDict(5)
    shadowed.area = lambda: ("own",)
    _plug_reset()
    plug.t = "module"
    plug.area = lambda: ("module",)
    return [PSlots(1), PDict(2), PSub(3), PProp(), PGetattr(), PTuple(4, lambda: ("field",)), plug, shadowed]


@dynac.compile
def poly_reads(objs: object, rounds: int):
    """o.t and o.area() at one site each over many classes, in turns."""
    out = []
    for r in range(rounds):
        for o in objs:
            out.append(o.t)
            out.append(o.area())
    return out


@dynac.compile
def module_patched(k: int):
    """plug.f(...) and plug.k cached, then the module changes under the
    kernel: a global rebound, deleted (AttributeError), answered by a module
    __getattr__, defined again."""
    _plug_reset()
    out = []
    for i in range(k):
        try:
            out.append((plug.f(-i), plug.k))
        except AttributeError as e:
            out.append(str(e))
        if i == 1:
            plug.f = str
        if i == 2:
            plug.k = 2.5
        if i == 3:
            del plug.f
        if i == 4:
            plug.__getattr__ = lambda name: (lambda x: ("getattr", name, x))
        if i == 5:
            plug.f = abs
    return out


@dynac.compile
def method_patched(k: int):
    """o.area() cached as PDict's function, then an instance attribute
    shadows it, is deleted, the class's method is replaced, a subclass
    instance comes: each call is the method CPython finds then."""
    saved = PDict.area
    o, out = PDict(1), []
    try:
        for i in range(k):
            out.append(o.area())
            if i == 1:
                o.area = lambda: ("own",)
            if i == 2:
                del o.area
            if i == 3:
                PDict.area = lambda self: ("patched", self.t)
            if i == 4:
                o = PSub(2)
            if i == 5:
                o.__class__ = PDict
    finally:
        PDict.area = saved
    return out


class PLazy:
    """Sets t in __init__ only when asked: the class's shared keys have t,
    an instance may not (its first store adds it to the instance's order)."""
    def __init__(self, set_it):
        if set_it:
            self.t = 0
        self.u = 1


class PLazyB:
    """Keys in the other order (t at index 1)."""
    def __init__(self):
        self.u = 1
        self.t = 0


@dynac.compile
def slot_stores_poly(objs: object, v: object):
    """o.t = v at one site over a slots class, a dict class and a subclass,
    in turns (a write way per class), then read back."""
    for o in objs:
        o.t = v
    return [o.t for o in objs], [list(vars(o)) for o in objs if hasattr(o, "__dict__")]


@dynac.compile
def compare_objects(a: object, b: object):
    """The six comparisons of two objects (exact floats and one-digit ints
    are answered without the C API's dispatch; the rest through it)."""
    return a < b, a <= b, a == b, a != b, a > b, a >= b


class Releasing:
    """Its __del__ runs relay_puts, a kernel entered from the interpreter that calls another kernel
    directly, while the kernel that held the instance releases its locals."""

    def __del__(self):
        relay_puts([])


@dynac.compile
def puts_one(xs: list[int], v: int):
    xs.append(v)
    return 0


@dynac.compile
def relay_puts(xs: list[int]):
    return puts_one(xs, 1)


@dynac.compile
def effect_then_release(k: int):
    t = Releasing()
    counted(k)  # Python code ran; then t's __del__ runs kernels as this kernel returns
    return 1 if t else 0


@dynac.compile
def read_after_release(k: int, xs: list[int]):
    # effect_then_release's Python code ran, and kernels ran as it released its local: an element of
    # another type then goes on in the interpreter from here, effect_then_release not run again
    r = effect_then_release(k)
    return r + xs[0] * k


# ---- assignment expressions: `(name := value)` evaluated first in its statement runs as an
# assignment just before it; a deoptimisation after Python code ran goes on in the interpreter
# with name's value in the statement, the value never computed twice

def produce(v):
    LOG.append(("produce", v))  # Python code ran: an effect the interpreter must not repeat
    return v


@dynac.compile
def walrus_tests(xs: list[int], lim: int):
    t = 0
    for x in xs:
        if (y := x * 2) > lim:
            t += y
        elif (z := x - lim) < -3:  # assigned only when the first test failed
            t -= z
        else:
            LOG.append(("neither", x, y))
    return t


@dynac.compile
def walrus_effects(k: int, n: int):
    # produce() runs, then `* n` or the test's `* n` may overflow int64: the statement goes on in
    # the interpreter around produce()'s value, or y's, produce() not called again
    if (y := produce(k) * n) * n > 0:
        LOG.append(("positive", y))
    return y


@dynac.compile
def walrus_reads_itself(n: int, k: int):
    LOG.append(("start", n, k))
    # the value reads n: going on from the statement's start would subtract twice
    if (n := n - 1) * k > 0:
        LOG.append(("after", n))
    return n


@dynac.compile
def walrus_versions(x: float, k: int):
    y = x * 2.0  # a float
    if (y := k * 3) > 5:  # an int now: a new version of y, as `y = k * 3` would make
        y += 1
    w = (v := produce(k) + 1) * v  # an assignment's value; v read again after it
    (u := produce(y))  # an expression statement
    c = produce(k) if (h := k * k * k) > 8 else -h  # a conditional expression's test (int64 overflow)
    return y, type(y).__name__, w, u, c


@dynac.compile
def walrus_elif_top(x: float, k: int):
    y = x
    if k > 10:
        r = 1
    elif (y := k * 2) > 4:  # at the top level, assigned only when the if's test failed
        r = 2
    else:
        r = 3
    return r, y


@dynac.compile
def walrus_objects(d: object, key: object, k: int):
    if (m := d.get(key)) is not None and m > 2:
        LOG.append(("found", m))
    if (v := Vec(k, 2.0)).x > 1:  # an attribute of the value: read after the assignment
        LOG.append(("vec", v.x))
    s = (q := 10 // k) + q  # ZeroDivisionError for k == 0: its frame at this line
    a, b = (r := produce(s)), r * s  # a tuple's first item
    return m, v.y, s, a, b


@dynac.compile
def walrus_return(k: int):
    return (r := produce(k) * 3) + r * k


@dynac.compile
def walrus_while(n: int, k: int):
    # `while True: m = n // 2 ...; if not test: break`: the assignment at each pass; produce() runs
    # before a test that may overflow int64, which goes on in the interpreter from the test's pass
    t = 0
    passes = 0
    while (n := n // 2 - produce(passes)) * k > 1:
        passes += 1
        if passes > 6:
            break
        if n % 3 == 0:
            continue
        t += n
    return t, n, passes


@dynac.compile
def walrus_while_items(xs: list[int], stop: int):
    it = iter(xs)
    out = []
    while (x := next(it, None)) is not None:  # an object: the assignment, then `is not None`
        if x == stop:
            break
        out.append(x * 2)
    return out, x


@dynac.compile
def walrus_not_first(xs: list[int]):
    # after another operand, in the test of a while loop with an else block and in a comprehension:
    # graph breaks, the interpreter runs these statements
    n = len(xs)
    t = 0
    for x in xs:  # a region with a loop: its kernel runs (small ones stay the interpreter's)
        t += x
    if n > 0 and (h := xs[0]) > 1:
        t += h
    i = 0
    while (j := i) < n:
        t += xs[j]
        i += 1
    else:
        t += 1
    return t, [c for x in xs if (c := x * 2) > 2], c if xs else None
