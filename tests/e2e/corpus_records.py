"""Instances kernels keep as their fields (scalar replacement: a plain
class whose __init__ sets float, int and bool attributes; emit/records.c,
runtime/records.h). suite_records.py runs each function eagerly and
compiled on the same fresh inputs and compares results, exceptions (type,
message, traceback lines), the log and the instances' state afterwards;
identity, __dict__ order, weak references, a class patched or an
instance's __class__ assigned while a kernel holds one, values of other
types stored into fields, and reference counts."""
import math
import weakref

import dynac

LOG = []


class Vec:
    x: float
    y: float
    z: float

    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y, self.z - o.z)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k, self.z * k)

    def __neg__(self):
        return Vec(-self.x, -self.y, -self.z)

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z

    def norm(self):
        return math.sqrt(self.dot(self))

    def unit(self):
        return self * (1.0 / self.norm())

    def me(self):
        return self

    def told(self):
        log_value(self.x)
        return self.x

    def moved(self, d):
        self.x = self.x + d
        return self.x

    def __repr__(self):
        return "Vec(%r, %r, %r)" % (self.x, self.y, self.z)


class Other:
    """What an instance's __class__ becomes (no x: reads raise)."""

    def __repr__(self):
        return "Other()"


class Counter:
    """int and bool fields; bump() changes a field of the instance."""
    n: int
    on: bool

    def __init__(self, n, on):
        self.n = n
        self.on = on

    def bump(self, k):
        self.n += k
        return self.n


class CNames:
    """Fields named as the struct's head (h) and as C keywords: the struct's
    members are f_<name>, so that each is a field like any other."""
    h: float
    int: int
    double: float

    def __init__(self, h, n, d):
        self.h = h
        self.int = n
        self.double = d

    def grown(self, k):
        return CNames(self.h * k, self.int + 1, self.double - k)


class Early:
    """__init__ reads a field before it sets it: AttributeError."""
    a: float
    b: float

    def __init__(self, a):
        self.a = a
        self.b = self.a + self.b


class Noisy:
    """A __del__: never kept as fields, its instances die when CPython's do."""
    v: float

    def __init__(self, v):
        self.v = v

    def __del__(self):
        LOG.append(("del", self.v))


class P:
    """With Q: a statement reading fields of two structs checks each once."""
    x: float
    y: float

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Q:
    a: float
    b: float

    def __init__(self, a, b):
        self.a = a
        self.b = b


class Spy:
    """A data descriptor for P.y whose read gives Q a property `b` (Python
    code run between two reads of a statement changes the other's class)."""

    def __get__(self, obj, tp=None):
        if obj is None:
            return self
        LOG.append(("spy", obj.__dict__["y"]))
        Q.b = property(lambda q: q.__dict__["b"] * 100.0)
        return obj.__dict__["y"]

    def __set__(self, obj, v):
        obj.__dict__["y"] = v


# ---- helpers the interpreter runs (no annotations: not compiled) ----------
def install_spy():
    P.y = Spy()


def remove_spy():
    for cls, name in ((P, "y"), (Q, "b")):
        if name in cls.__dict__:
            delattr(cls, name)


def keep_in_log(v):
    LOG.append(("kept", type(v).__name__))
    v.x = v.x * 2.0


def mutate(v):
    LOG.append(("mutate", type(v).__name__))
    v.x = 99.5


def mutate_str(v):
    v.x = "s"


def log_value(v):
    LOG.append(("saw", repr(v)))


def add_property():
    Vec.x = property(lambda self: -1.0)


def drop_property():
    del Vec.x


def patch_dot():
    Vec.dot = lambda self, o: 7.0


def unpatch_dot():
    del Vec.dot
    Vec.dot = ORIGINAL_DOT


ORIGINAL_DOT = Vec.dot


# ---- compiled (annotated) -------------------------------------------------
@dynac.compile
def chain(a: Vec, b: Vec, k: float) -> float:
    return ((a - b) * k + a).norm()


@dynac.compile
def unit_parts(a: Vec) -> float:
    u = a.unit()
    return u.x + u.y * 2.0 + u.z * 3.0


@dynac.compile
def identity(a: Vec, b: Vec):
    c = a + b
    d = c
    return d is c, c.me() is c, d.x


@dynac.compile
def into_list(a: Vec, b: Vec):
    c = a + b
    out = [c, c]
    return out[0] is out[1], out


@dynac.compile
def returned_local(a: Vec, b: Vec):
    c = a - b
    return c


@dynac.compile
def returned_fresh(a: Vec, k: float):
    return a * k


@dynac.compile
def seen_by_python(a: Vec, k: float):
    c = a * k
    log_value(c)
    return c.x + c.y


@dynac.compile
def mutated_by_python(a: Vec, k: float):
    c = a * k
    mutate(c)
    return c.x, c.y


@dynac.compile
def mutated_to_str(a: Vec):
    c = a * 2.0
    mutate_str(c)
    return c.x


@dynac.compile
def property_added(a: Vec, k: float):
    c = a * k
    add_property()
    try:
        return c.x, c.y
    finally:
        drop_property()


@dynac.compile
def method_patched(a: Vec, b: Vec):
    c = a + b
    patch_dot()
    try:
        return c.dot(b)
    finally:
        unpatch_dot()


@dynac.compile
def class_assigned(a: Vec, cls: object):
    c = a + a
    c.__class__ = cls
    return repr(c), c.x


@dynac.compile
def dict_order(a: Vec, k: float):
    c = a * k
    return list(vars(c)), c.z


@dynac.compile
def ints_in_float_fields(n: int):
    c = Vec(n, 2, 3.5)
    return c.x, type(c.x).__name__, c.z


@dynac.compile
def missing_attribute(a: Vec):
    c = a + a
    return c.w


@dynac.compile
def read_before_set(x: float):
    e = Early(x)
    return e.b


@dynac.compile
def weak_ref(a: Vec):
    c = a + a
    r = weakref.ref(c)
    return r() is c, r().x


@dynac.compile
def conditional(a: Vec, b: Vec, flag: bool):
    c = (a + b) if flag else (a - b)
    d = c if flag else a
    return c.x, d is c


@dynac.compile
def rebound_in_loop(a: Vec, n: int):
    c = a + a
    for i in range(n):
        c = c + a * float(i)
    return c.x, c.y, c.z


@dynac.compile
def negated(a: Vec):
    return (-(-a)).dot(a)


@dynac.compile
def divided(a: Vec, d: float):
    c = a * 2.0
    return c.x / d


@dynac.compile
def counter_ops(n: int, on: bool, k: int):
    c = Counter(n, on)
    r = c.bump(k)
    return r, c.n, c.on


@dynac.compile
def c_names(h: float, n: int, d: float):
    c = CNames(h, n, d).grown(2.0)
    c.h = c.h + c.double
    return c.h, c.int, c.double


@dynac.compile
def field_store(a: Vec, d: float):
    c = a * 1.0
    r = c.moved(d)
    return r, c.x, c.me() is c


@dynac.compile
def field_store_int(a: Vec, d: int):
    c = a * 1.0
    c.y = d
    return c.y, c.x


@dynac.compile
def noisy(x: float):
    n = Noisy(x)
    LOG.append("made")
    n = None
    LOG.append("dropped")
    return n


@dynac.compile
def tuple_of(a: Vec, b: Vec):
    t = (a + b, a - b)
    return t[0].x, t[1].x, t


@dynac.compile
def in_generic_compare(a: Vec, b: Vec):
    c = a + b
    return c == c, c != a, str(c)


@dynac.compile
def made_and_kept(a: Vec, b: Vec):
    c = a - b
    LOG.append(c)
    return c


@dynac.compile
def kept_identity(a: Vec, b: Vec):
    d = made_and_kept(a, b)
    e = made_and_kept(d, a)
    return d is LOG[0], e is LOG[1], d.x, e.y


def grow(v, o):
    """A callee kernel (typed for a struct by the callers below) whose read
    of o.x, recorded float, meets an int: it goes on in the interpreter
    with the caller's instance, which it changes."""
    v.x = v.x + 1.0
    t = o.x * 2.0
    LOG.append(("grow", t))
    v.y = t
    return v.x + t


@dynac.compile
def odd_in_callee(a: Vec, o: Vec):
    c = a * 2.0
    r = grow(c, o)
    return r, c.x, c.y, c.me() is c


@dynac.compile
def odd_here(a: Vec, o: Vec):
    c = a + a
    t = o.x * 2.0  # an int there: the kernel goes on in the interpreter with c's instance
    d = c + a
    return c.x + t, d.x, c.me() is c


@dynac.compile
def caught(a: Vec, d: float):
    c = a * 2.0
    try:
        r = c.x / d
    except ZeroDivisionError:
        r = -c.y
    return r, c.z


@dynac.compile
def in_loop_escape(a: Vec, n: int):
    keep = []
    c = a + a
    for i in range(n):
        c = c + a
        if i % 2:
            keep.append(c)
    return [k.x for k in keep], c.x, len(keep) and keep[-1] is c


@dynac.compile
def updated_in_place(a: Vec, d: float):
    c = a * 1.0
    c.x += d
    c.y -= d * 2.0
    c.z *= d
    c.x /= d
    return c.x, c.y, c.z, c.me() is c


@dynac.compile
def param_updated(a: Vec, flag: bool):
    """a += a of a parameter (Vec has no __iadd__: __add__, whose kernel
    makes a struct): the parameter holds the instance (fuzz seed 4401 #305)."""
    x = (a + a).x
    if flag:
        a += a
    return x, a.x, a


@dynac.compile
def overflow_after_operators(a: Vec, x: float):
    """math.floor(x) overflows int64 after user operators made instances
    as fields (fuzz seed 603 #16): nothing anyone else sees was done (their
    __init__ wrote only the new instances), so the call is handed back to
    the interpreter, which gives the big int."""
    b = -a
    c = a + b
    return x + (1.0 if c.x < b.x else math.floor(x)), c.y, b.z


@dynac.compile
def moved_then_overflow(a: Vec, d: float, x: float):
    """The method wrote the parameter's field (its caller sees it): the
    overflow after must not run the call again (a.x moved twice)."""
    a.moved(d)
    n = math.floor(x)
    return n, a.x


@dynac.compile
def made_then_moved_then_overflow(a: Vec, d: float, x: float):
    """A method wrote the field of an instance this call made: nobody
    else sees it, the call may run again from the start."""
    c = a * 1.0
    c.moved(d)
    return math.floor(x) + c.x, a.x


@dynac.compile
def told_then_overflow(a: Vec, x: float):
    """The method ran Python code (log_value, interpreted): its kernel
    reports it, so the overflow after must not run the call again (the log
    would have the value twice)."""
    t = a.told()
    n = math.floor(x)
    return n + t


@dynac.compile
def told_in_test(a: Vec, b: Vec):
    """The test ran Python code (log_value), then b.x holds another type
    than recorded inside the branch: the interpreter runs the statement
    again with the test's value in its place (the log has the value once)."""
    r = (1.0 if a.told() < 0.0 else -b.x) * 2.0
    return r, b.y


@dynac.compile
def checked_once(x: float, y: float, spy: bool):
    """Each struct's fields are checked once in the return statement; with
    the spy, p's class changed (its reads go through the instance) and
    p.y's read changes Q: q.b must then be read as CPython reads it."""
    p = P(x, y)
    q = Q(y, x)
    if spy:
        install_spy()
    try:
        return p.x * q.a + p.y - q.b + p.x * p.y * q.a * q.b
    finally:
        remove_spy()


@dynac.compile
def checked_once_made(x: float, y: float):
    """p made an instance (Python changed it) before the statement: every read goes through it."""
    p = P(x, y)
    keep_in_log(p)
    return p.x + p.y * p.x - (p.y if p.x > p.y else -p.x)


@dynac.compile
def checked_once_ints(n: int, on: bool, k: int):
    """int and bool fields; an int overflow inside the statement."""
    c = Counter(n, on)
    return c.n * k + c.n if c.on else c.n - k


@dynac.compile
def checked_once_call(x: float, y: float):
    """The arguments of a constructor read the fields; the call runs after them."""
    p = P(x, y)
    q = Q(p.y - p.x, p.x * p.y)
    return q.a + q.b * q.a, Q(q.a, q.b).b

