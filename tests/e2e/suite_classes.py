"""Kernels specialised on instances of the module's classes (issue 21:
generator/classes.c, descriptors.h's DYNAC_SLOT_CLASS): a program records
its types (`dynac record`: argument classes and the instances' attribute
types), is built from that profile, and then runs its checks, eagerly and
under `dynac run`; the two outputs must be identical line for line, and the
hot functions must have been served by their instance specialisations.

The checks are what could differ: attributes of another type than recorded
(the read deoptimises), a missing attribute (CPython's AttributeError and
traceback line), a method patched onto the class after the build and
during a kernel's loop, a method shadowed by an instance attribute, a
subclass (another type: its own guard), the class name rebound, a
materialised __dict__, __slots__, reference counts, __del__ order of
instances a kernel makes."""
import re
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import check, done, dynac_cmd  # noqa: E402

PROGRAM = r'''
import sys
import math
import heapq
import dataclasses
from dataclasses import dataclass, field, InitVar, KW_ONLY
from typing import NamedTuple

LOG = []
LAST = [None]


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def dot(self, o):
        return self.x * o.x + self.y * o.y

    def norm(self):
        return math.sqrt(self.dot(self))

    def scaled(self, k):
        return Vec(self.x * k, self.y * k)

    def shift(self, d):
        self.x += d
        self.y -= d * 2.0
        self.x /= 2.0
        return self.x + self.y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)


class Maybe:
    def __init__(self, v):
        self.v = v

    def __add__(self, o):
        if self.v < 0.0:
            return NotImplemented
        return self.v + o.v


class Num:
    def __init__(self, v):
        self.v = v

    def __neg__(self):
        return Num(-self.v)

    @staticmethod
    def half(x):
        return x * 0.5

    def __abs__(self):
        return Num(abs(self.v))

    def __lt__(self, o):
        return self.v < o.v

    def __eq__(self, o):
        return self.v == o.v

    def __gt__(self, k):
        return self.v > k

    def __radd__(self, k):
        return Num(k + self.v)

    def __rmul__(self, k):
        return Num(k * self.v)

    def __iadd__(self, k):
        self.v += k
        return self

    def __len__(self):
        return int(self.v)

    def __getitem__(self, i):
        if i > 10.0:
            raise IndexError("index %r too far" % i)
        return self.v * i


class Cmp:
    def __init__(self, v):
        self.v = v

    def __lt__(self, o):
        if self.v < 0.0:
            return NotImplemented
        return self.v < o.v


class Deep:
    def __init__(self, n):
        self.n = n

    def __add__(self, k):
        if self.n <= 0:
            return k
        return Deep(self.n - 1) + (k + 1)


class Shape:
    def __init__(self, w):
        self.w = w

    def area(self, k):
        return self.w * k

    @staticmethod
    def twice(v):
        return 2.0 * v

    @property
    def double(self):
        if self.w < 0.0:
            raise AttributeError("negative width")
        return self.w * 2.0


class Box:
    def __init__(self, w):
        self._w = w
        self.sets = 0

    @property
    def w(self):
        return self._w

    @w.setter
    def w(self, v):
        if v < 0.0:
            raise ValueError("negative width %r" % v)
        self._w = v * 1.0
        self.sets += 1

    @property
    def positive(self):
        return self._w > 0.0

    @positive.setter
    def positive(self, v):
        self._w = v


class Rect(Shape):
    def __init__(self, w, h):
        super().__init__(w)
        self.h = h

    def area(self, k):
        return super().area(k) * self.h + Shape.area(self, k)

    def more(self):
        return self.double + self.twice(self.w) + Shape.twice(1.5)


class Square(Rect):
    def __init__(self, s):
        super().__init__(s, s)


@dataclass
class Point:
    x: float
    y: float = 0.0

    def dist2(self, o):
        return (self.x - o.x) ** 2 + (self.y - o.y) ** 2

    @classmethod
    def origin(cls, y):
        return cls(0.0, y)


@dataclasses.dataclass(frozen=True)
class Frozen:
    v: float

    def bumped(self):
        return self.v + 1.0

    def bump(self):
        self.v = self.v + 1.0
        return self.v


@dataclass
class DV:
    """A @dataclass value type: the __init__ dataclasses generates runs as a kernel synthesised
    from its fields (its temporaries kept as fields in C)."""
    x: float
    y: float
    z: float = 0.5

    def __add__(self, o):
        return DV(self.x + o.x, self.y + o.y, self.z + o.z)

    def scaled(self, k):
        return DV(self.x * k, self.y * k)  # z left out: its default, from __init__.__defaults__

    def norm2(self):
        return self.x * self.x + self.y * self.y + self.z * self.z


@dataclass
class DW(DV):
    """A dataclass's dataclass subclass: the base's fields first, z defined again keeps its
    place (with its new default), w after."""
    w: float = 2.0
    z: float = 1.5
    n: "ClassVar[int]" = 7  # a ClassVar: no field


@dataclass(slots=True, eq=False)
class DS:
    a: float
    b: int = 3


@dataclass
class DN:
    """No fields: its __init__ is `pass`."""

    def one(self):
        return 1.0


@dataclass
class DP:
    """__post_init__: dataclasses' __init__ calls it (CPython's __init__ runs)."""
    a: float

    def __post_init__(self):
        LOG.append(("post", self.a))


@dataclass(frozen=True)
class DF:
    """frozen: its __init__ stores through object.__setattr__ (CPython's __init__ runs)."""
    a: float


@dataclass
class DL:
    """Its own __setattr__: the generated __init__ stores through it (a nan raises)."""
    a: float
    b: float

    def __setattr__(self, name, v):
        if v != v:
            raise ValueError("nan for " + name)
        LOG.append(("set", name))
        object.__setattr__(self, name, v)


@dataclass
class DR:
    """__post_init__ derives an attribute and validates: the generated __init__'s text ends
    calling it (no InitVar), and so does the kernel synthesised from the fields."""
    x: float
    y: float = 2.0

    def __post_init__(self):
        if self.y < 0.0:
            raise ValueError("negative y: %r" % self.y)
        self.r = self.x * self.x + self.y * self.y

    def grown(self, k):
        return DR(self.x * k, self.y)


def dr_walk(n, y):
    t = 0.0
    for i in range(n):
        d = DR(0.5 * i, y).grown(2.0)
        t += d.r
    return t, DR(1.5, y)


def made_trail():
    LOG.append("trail made")
    return [0.0]


@dataclass
class DT:
    """Fields with a default factory (and field(default=...)): the generated __init__ calls the
    factory, a closure cell of its own, where the call leaves the field out; the kernel
    synthesised from the fields reads the same cells."""
    x: float
    trail: list = field(default_factory=made_trail)
    tags: dict = dataclasses.field(default_factory=dict, repr=False)
    w: float = field(default=0.5, compare=False)

    def step(self, dt):
        self.x += self.w * dt
        self.trail.append(self.x)
        return self


def dt_walk(n, given):
    out = []
    for i in range(n):
        a = DT(0.5 * i).step(0.25)
        b = DT(1.0, given).step(0.5)
        c = DT(2.0, given, {"k": i}, 3.0).step(1.0)
        out.append((a, b.x, c.tags, a.trail is b.trail, b.trail is given, c.trail is given))
    return out, len(given), [len(t[0].trail) for t in out]


@dataclass
class DTPlain:
    """DT's fields without factories: its generated __init__ (no closure) stands in for DT's."""
    x: float
    trail: list = None
    tags: dict = None
    w: float = 0.5


@dataclass
class DI:
    """InitVar fields: parameters of the generated __init__ with no store, passed on to
    __post_init__ in order."""
    x: float
    scale: dataclasses.InitVar[float] = 2.0
    y: float = 0.5
    shift: InitVar[float] = 0.0

    def __post_init__(self, scale, shift):
        if scale < 0.0:
            raise ValueError("negative scale %r" % scale)
        self.x = self.x * scale + shift
        self.y = self.y * scale


@dataclass
class DJ:
    """An InitVar and no __post_init__: the value is dropped."""
    x: float
    junk: InitVar[int] = 0


def di_walk(n, scale):
    t = 0.0
    for i in range(n):
        d = DI(0.5 * i, scale, 1.0, -0.25)
        e = DI(1.0)
        t += d.x + d.y + e.x + DJ(d.y, i).x
    return t, DI(2.0, scale), vars(DI(1.0)), DJ(scale), vars(DJ(1.0, 3))


@dataclass
class DU(DT):
    """A subclass adding a field with a factory: its fields after the base's."""
    more: list = field(default_factory=list)


def du_make(x):
    return DU(x), DU(x, [1.0], {}, 2.0, [x])


@dataclass
class DZ:
    """field(init=False): no parameter of the generated __init__; a default stays the class's (no
    store), a factory's value is stored, and one with neither is left to __post_init__."""
    x: float
    hits: int = field(default=0, init=False)
    log: list = field(default_factory=made_trail, init=False, repr=False)
    y: float = 0.5
    total: float = field(init=False)

    def __post_init__(self):
        self.total = self.x + self.y


@dataclass(slots=True)
class DZS:
    """init=False with a default in a slots=True class: no class attribute holds it, so the
    generated __init__ stores it (from its closure, as a factory's value)."""
    a: float
    n: int = field(default=3, init=False)
    seen: list = field(default_factory=list, init=False)

    def __post_init__(self):
        self.seen.append(-self.a)


@dataclass(frozen=True)
class DZF:
    """frozen, an init=False field left to the class: no store."""
    a: float
    k: float = field(default=2.0, init=False)

    def __post_init__(self):
        LOG.append(("dzf", self.a, self.k))


@dataclass
class DKW:
    """field(kw_only=True): a keyword-only parameter of the generated __init__, after `*`."""
    x: float
    w: float = field(default=2.0, kw_only=True)
    y: float = 0.5

    def __post_init__(self):
        self.total = self.x * self.w + self.y


@dataclass
class DKO:
    """The fields after `_: KW_ONLY` are keyword-only: required ones, defaults, a factory."""
    a: float
    _: KW_ONLY
    b: float
    trail: list = field(default_factory=made_trail)
    c: int = 3

    def __post_init__(self):
        self.trail.append(self.a + self.b)


@dataclass(kw_only=True)
class DKC:
    """kw_only=True: every field keyword-only (so a required one may follow one with a default)."""
    p: float = 1.0
    q: float

    def __post_init__(self):
        LOG.append(("dkc", self.p, self.q))


@dataclass
class DKS(DKW):
    """A base's keyword-only field stays after `*`; the subclass's own come before it."""
    z: float = 4.0

    def __post_init__(self):
        self.total = self.x + self.y + self.z + self.w


def dk_walk(n, v):
    out = []
    t = 0.0
    for i in range(n):
        a = DKW(0.5 * i, w=v)
        b = DKW(0.5 * i, v)  # y by position, w its default
        c = DKO(i * 1.0, b=v)
        d = DKO(1.0, c=i, b=v, trail=[i])  # out of the parameters' order: CPython's call
        e = DKC(q=v)
        f = DKS(1.0, 2.0, 3.0, w=v)
        t += a.total + b.total + c.b + c.c + d.c + e.p + e.q + f.total
        out.append((a, b, c, d, e, f))
    return t, out


def dk_missing(v):
    return DKO(v)  # b is required (keyword-only, no default): TypeError


def dk_positional(v):
    return DKW(v, 1.0, 2.0)  # w is keyword-only: too many positional arguments, TypeError


def dz_walk(n, y):
    out = []
    t = 0.0
    for i in range(n):
        d = DZ(0.5 * i, y)
        d.log.append(i)
        d.hits += 1
        e = DZS(1.0 * i)
        e.seen.append(e.n)
        f = DZF(i * 0.25)
        t += d.total + d.hits + e.n + f.k + f.a
        out.append((d.log, sorted(vars(d).items()), e.seen, e.n, e.a, f))
    a, b = DZ(2.0, y), DZ(2.0, y)
    return t, out, DZ(1.5), a.log is b.log, a == b, DZS(0.5) == DZS(0.5), DZF(1.0)


def dz_many(x):
    return DZ(x, 1.0, 2.0)  # too many: dataclasses' __init__ takes x and y only


def dz_kw(x):
    return DZ(x, hits=3)  # an init=False field is no parameter: TypeError


@dataclass(frozen=True)
class FV:
    """A frozen value type: dataclasses' __init__ stores through object.__setattr__ (the class's
    own __setattr__ raises FrozenInstanceError); the kernel synthesised from its fields stores
    the same way, and its temporaries are kept as fields."""
    x: float
    y: float = 0.25

    def __add__(self, o):
        return FV(self.x + o.x, self.y + o.y)

    def scaled(self, k):
        return FV(self.x * k)

    def moved(self, d):
        q = FV(self.x + d, self.y)
        q.y = d  # a frozen instance: FrozenInstanceError from its __setattr__
        return q


@dataclass(frozen=True)
class FW(FV):
    w: float = 1.5


@dataclass(frozen=True, slots=True)
class FS:
    a: float
    b: int = 2


def fv_walk(n):
    p = FV(0.0, 0.0)
    d = FV(0.5, -0.125)
    t = 0.0
    for i in range(n):
        p = p + d.scaled(0.1 * i)
        t += p.x * p.y
    return t, p, hash(p) == hash(FV(p.x, p.y))


def fv_store(x):
    return FV(x).moved(2.0)


def fv_make(x, y):
    a = FV(x, y)
    b = FV(x, y)
    w = FW(x, y)
    s = FS(x)
    t = 0.0
    for i in range(8):  # typed work: the kernel serves calls (not a generic only one)
        t += x * i - t * 0.5
    return t, a == b, a, b, w, s, w.w + s.b


def fv_same(x, y):
    """fv_make's instances compared by the interpreter (a list comparison tests identity first)."""
    t, eq, a, b, w, s, total = fv_make(x, y)
    return t, eq, [a.x] == [b.x], [a.y] == [b.y], a, w, s, total


def fv_obj(x, o):
    """o recorded as a float and a str: an object, which __init__'s kernel stores through the
    instance made from its fields (object.__setattr__'s store still)."""
    v = FV(x, o)
    w = FW(x, o, x)
    t = 0.0
    for i in range(8):  # typed work: the kernel serves calls (not a generic only one)
        t += x * i - t * 0.5
    return t, v, w


def fv_set(v, x):
    v.x = x  # through the instance's __setattr__
    return v.x


@dataclass
class DQ:
    """Its __init__ replaced as the module runs, before any kernel looks at the class: the class
    guard sees it is not the one dataclasses generated (CPython's call runs it)."""
    a: float
    b: float


def _dq_init(self, a, b):
    self.a = a * 2.0
    self.b = b


DQ.__init__ = _dq_init


def dq_make(a, b):
    return DQ(a, b)


DK_Y = 0.25


@dataclass
class DH:
    """A field annotated in a nested block of the body: dataclasses sees it, the source's own
    fields miss it, so the class guard finds another __init__ (CPython's call)."""
    a: float
    if DK_Y > 0.0:
        hidden: float = 3.0


@dataclass
class DK:
    a: float
    k: "ClassVar[int]" = 5
    y: float = DK_Y
    z: float = -1.0
    xs: list = None


class DMid(DK):
    """Not a dataclass: it inherits DK's generated __init__ (and its fields)."""


@dataclass
class DC3(DMid):
    c: float = 1.0


def dc_chain(x):
    a = DH(x)
    b = DMid(x, 2.0, 3.0, None)
    c = DC3(x, 0.5, 0.75, None, 9.0)
    e = DC3(x)
    t = 0.0
    for i in range(8):  # typed work: the kernel serves calls (not a generic only one)
        t += x * i - t * 0.5
    return t, a, b, c, e, a.hidden + b.y + c.c + e.z


class PDef:
    def __init__(self, x, y=0.25, n=3):
        self.x = x
        self.y = y
        self.n = n


def made_defaults(x, y):
    """Constructions leaving parameters to their defaults: each read from __init__.__defaults__
    when the call runs (a default of another type than the build's: CPython's call)."""
    a = DV(x, y)
    b = PDef(x)
    c = PDef(x, y)
    t = 0.0
    for i in range(8):  # typed work: the kernel serves calls (not a generic only one)
        t += x * i - t * 0.5
    return t, a.z + b.y + b.n + c.n, a, (b.x, b.y, b.n), (c.y, c.n)


class PV2:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def pv_make(x, y):
    v = PV2(x, y)
    w = DV(x, y, 0.5)
    return v.x + 1.0, w.x + 1.0, (v.y, w.y)


def kw_make(a, b):
    """Keyword constructions: in __init__'s parameter order, right after the positional ones,
    they bind as those do (the direct path: the instance made, __init__'s kernel run, or kept
    as its fields); out of that order CPython's call binds them by name."""
    v = PV2(x=a, y=b)
    w = PV2(a, y=b)
    d = DV(x=a, y=b)
    e = DV(a, y=b, z=a * b)
    f = DV(y=b, x=a)  # out of order: CPython's call
    g = DZ(a, y=b)  # init=False fields are no parameters
    return v.x + w.y, (v.y, w.x), d.norm2(), (e.x, e.z), (f.x, f.y), g.total, DW(a, b, w=2.5).w


def kw_logged(tag, v):
    LOG.append(("kw", tag))
    return v


def kw_order(a, b):
    """Keyword arguments of a construction are evaluated in source order, before __init__."""
    del LOG[:]
    d = DV(kw_logged("x", a), y=kw_logged("y", b), z=kw_logged("z", a))
    e = DV(y=kw_logged("y2", b), x=kw_logged("x2", a))
    return d.x + d.y + d.z + e.x, list(LOG)


class KM:
    """Methods called with keywords: in the parameters' order, right after the positional
    ones, they bind as positional ones do (the devirtualised call); else CPython's call."""

    def __init__(self, x):
        self.x = x

    def move(self, dx, scale=1.0):
        self.x = self.x * scale + dx
        return self.x

    @staticmethod
    def mix(a, b=0.5):
        return a * b

    @classmethod
    def made(cls, x, k=2.0):
        return cls(x * k)


class KM2(KM):
    def move(self, dx, scale=1.0):
        return super().move(dx=dx, scale=scale * 2.0)


def km_calls(a, b):
    o = KM(a)
    r = o.move(dx=b) + o.move(b, scale=a) + o.move(dx=1.0, scale=0.5)
    r += KM.mix(a=a, b=b) + o.mix(a, b=2.0) + KM.made(x=b).x + o.made(b, k=a).x
    r += KM.move(o, dx=b)
    r += o.move(scale=2.0, dx=b)  # out of order: CPython's call
    p = KM2(b)
    r += p.move(dx=a)
    return r, o.x, p.x


def km_bad(a):
    return KM(a).move(dy=a)  # no parameter dy: CPython's TypeError


def km_on(o, b):
    return o.move(dx=b) + o.move(b, scale=0.5)


def km_patch(a):
    """KM.move replaced inside a kernel by one whose parameters are in another order: the
    devirtualised keyword calls of a kernel it calls bind by name (CPython's lookup)."""
    o = KM(a)
    saved = KM.move

    def swapped(self, scale=3.0, dx=0.0):
        LOG.append(("swapped move", scale, dx))
        return saved(self, dx, scale)

    KM.move = swapped
    t = 0.0
    for i in range(8):  # typed work: the kernel serves calls (not a generic only one)
        t += a * i - t * 0.5
    try:
        del LOG[:]
        return km_on(o, 2.0), o.x, list(LOG), t
    finally:
        KM.move = saved


def kw_bad(a):
    return PV2(x=a, z=a)  # no parameter z: CPython's TypeError


def kw_twice(a):
    return PV2(a, x=a)  # x given twice: CPython's TypeError


def kw_patch_and_make(x):
    """__init__ replaced inside a kernel by one whose parameters are in another order: the
    keyword constructions a kernel it calls makes bind by name (CPython's call)."""
    saved = PV2.__init__

    def swapped(self, y, x):
        LOG.append(("swapped", x, y))
        saved(self, x * 10.0, y)

    PV2.__init__ = swapped
    t = 0.0
    for i in range(8):  # typed work: the kernel serves calls (not a generic only one)
        t += x * i - t * 0.5
    try:
        del LOG[:]
        return kw_make(x, 2.0), list(LOG), t
    finally:
        PV2.__init__ = saved


class KO:
    """Keyword-only parameters, and keywords that leave parameters between them to their
    defaults: bound by name at build time, in the parameters' order (the direct call passes
    them by parameter, each one left out read from __defaults__ or __kwdefaults__ when the
    call runs); out of that order, CPython's call."""

    def __init__(self, x, *, y=0.5, scale=2.0):
        self.x = x * scale
        self.y = y

    def move(self, dx, dy=0.0, *, scale=1.0, clamp=100.0):
        self.x = min(self.x * scale + dx, clamp)
        self.y = self.y + dy
        return self.x + self.y

    def reset(self, *, to):
        self.x = to
        return to

    def less(self, a, /, b=1.0):
        return a - b

    @staticmethod
    def blend(a, b=0.25, *, w=2.0):
        return a * w + b

    @classmethod
    def unit(cls, x=1.0, *, scale=0.5):
        return cls(x, scale=scale)


def ko_calls(a, b):
    o = KO(a)
    p = KO(a, scale=b)  # y between: its default
    q = KO(b, y=a, scale=0.5)
    r = o.move(b) + o.move(b, scale=0.5) + o.move(dx=a, clamp=b * 10.0) + o.move(a, b, clamp=1e300)
    r += p.move(b, dy=a, scale=2.0, clamp=5.0) + q.reset(to=a) + o.less(a, b=b) + o.less(b)
    r += o.move(clamp=50.0, dx=1.0)  # out of order: CPython's call
    return r, (o.x, o.y), (p.x, p.y), (q.x, q.y)


def ko_static(a, b):
    """A staticmethod's and a classmethod's calls leaving parameters to their defaults: read
    from the def each wraps when the call runs (its __defaults__ and __kwdefaults__)."""
    o = KO(a)
    r = KO.blend(a) + KO.blend(a, b) + o.blend(b, w=a) + KO.blend(a=b)
    p, q, s = KO.unit(), o.unit(b), KO.unit(scale=a)
    return r, (p.x, p.y), (q.x, q.y), (s.x, s.y)


def ko_make(a):
    o, p = KO(a), KO(a, scale=0.5)
    return (o.x, o.y), (p.x, p.y)


def ko_moved(o, a):
    return o.move(a), o.move(a, scale=0.5), (o.x, o.y)


def ko_missing(a):
    return KO(a).reset()  # a keyword-only parameter without a default left out: TypeError


def ko_positional(a):
    return KO(a, 1.0)  # a keyword-only parameter given by position: TypeError


def ko_posonly(a):
    return KO(a).less(a=a)  # a positional-only parameter by keyword: TypeError


def ko_order(a, b):
    """Keyword arguments evaluated in source order; the ones out of the parameters' order too."""
    del LOG[:]
    o = KO(kw_logged("x", a), scale=kw_logged("scale", b))
    p = KO(kw_logged("x2", a), scale=kw_logged("scale2", b), y=kw_logged("y2", a))  # out of order
    return o.x + p.y, o.move(kw_logged("dx", a), clamp=kw_logged("clamp", b)), list(LOG)


def patch_and_make(x):
    """Classes' __init__ patched inside a kernel, then made by a kernel it calls directly:
    CPython's call makes them, and the interpreter goes on with them (no dynac error)."""
    saved, saved_dv = PV2.__init__, DV.__init__
    PV2.__init__ = lambda self, x, y: LOG.append(("pv patched", x)) or saved(self, -x, y)
    DV.__init__ = lambda self, x, y, z: LOG.append(("dv patched", x)) or saved_dv(self, -x, y, z)
    t = 0.0
    for i in range(8):  # typed work: the kernel serves calls (not a generic only one)
        t += x * i - t * 0.5
    try:
        del LOG[:]
        return pv_make(x, 2.0), list(LOG), t
    finally:
        PV2.__init__, DV.__init__ = saved, saved_dv


def dc_walk(n):
    p = DV(0.0, 0.0)
    d = DV(0.5, 0.25, -0.125)
    t = 0.0
    for i in range(n):
        p = p + d.scaled(0.1 * i)
        t += p.norm2()
    return t, p


def dc_make(x, y):
    v = DV(x, y, 0.5)
    w = DW(x, y)
    s = DS(x)
    return v, w, s, v == DV(x, y, 0.5), w.w, DN().one(), DN() == DN()


def dc_other(x):
    del LOG[:]
    p = DP(x)
    f = DF(x)
    l = DL(x, 2.0)
    return p, f, l, list(LOG)


def dc_short(x):
    return DV(x)


def dc_ids(x, y):
    """DV, whose field z has a default (dataclasses leaves it on the class; each instance's own
    value hides it), kept as its fields: the instances made from them hold the objects CPython's
    __init__ stores (the caller's x and y, z's default), so that the tuples dataclass's __eq__
    compares are identical for a nan; a field stored again holds its new value."""
    a = DV(x, y)
    b = DV(x, y)
    c = DV(x, y, -0.0)
    c.x = c.x * 2.0
    t = 0.0
    for i in range(8):  # typed work: the kernel serves calls (not a generic only one)
        t += x * i - t * 0.5
    return t, a == b, a, b, c


def same_objects(x, y):
    """dc_ids' instances compared by the interpreter: a list comparison tests identity first, so
    a nan field equals another only where both hold one object. x and y are objects the
    interpreter made: a float a kernel computes has no object until it is boxed, and two boxes
    of it are two objects (README: float identity)."""
    t, eq, a, b, c = dc_ids(x, y)
    return t, eq, a == b, [a.x] == [b.x], [a.y] == [b.y], [a.z] == [b.z], [c.x] == [a.x], [c.y] == [a.y], a, c


class Holder:
    def __init__(self, items):
        self.items = items


class Strict:
    def __init__(self, v):
        if v < 0.0:
            raise ValueError("negative: %r" % v)
        self.v = v


class Body:
    __slots__ = ("pos", "mass", "hits")

    def __init__(self, pos, mass):
        self.pos = pos
        self.mass = mass
        self.hits = 0

    def energy(self, v):
        self.hits += 1
        return 0.5 * self.mass * v.dot(v)


class Pt(NamedTuple):
    x: float
    y: float

    def norm2(self):
        return self.x * self.x + self.y * self.y

    def scaled(self, k):
        return Pt(self.x * k, self.y * k)


@dataclass(slots=True)
class Cell:
    v: float
    w: float = 1.0

    def grow(self, k):
        self.v += k * self.w
        return self.v


class Bag:
    def __init__(self, v, n):
        self.v = v
        self.n = n

    def __len__(self):
        return self.n


class Sack(Bag):
    """A Bag whose v is always a float (Bag's holds ints and strings too in
    the training run: its v is recorded as an object)."""


class Star:
    def __init__(self, x, m):
        self.x = x
        self.m = m


class BigStar(Star):
    pass


class Cluster:
    """Its stars: an attribute recorded as a list[Star], read as that list
    (checked to be one per read, its elements per read)."""
    def __init__(self, stars):
        self.stars = stars

    def pull(self, soft):
        f = [0.0] * len(self.stars)
        for i, a in enumerate(self.stars):
            for j in range(i + 1, len(self.stars)):
                b = self.stars[j]
                d = b.x - a.x
                w = a.m * b.m / (d * d + soft)
                f[i] += d * w
                f[j] -= d * w
        return f

    def shed(self, k):
        t = 0.0
        for i, a in enumerate(self.stars):
            if i == k:
                self.stars = []  # rebound: the loop goes on over the list it holds
            t += a.x * i
        return t + len(self.stars)

    def drop_light(self):
        t = 0.0
        for i, a in enumerate(self.stars, 1):
            if a.m < 0:
                self.stars.pop()  # the list shrinks under the loop
            t += a.x * i
        return t, len(self.stars)

    def last_is(self):
        a = self.stars[-1]
        for b in self.stars:
            a = b
        return a is self.stars[-1], a.x


class Loose:
    """__init__ takes **kw: it runs in the interpreter, the instance made by dynac (dynac__construct)."""
    def __init__(self, a, **kw):
        self.a = a
        self.kw = kw


def made_loose(k):
    t = 0
    for i in range(k):
        t += i
    return Loose(t, tag=k)


def inline_values(o):
    """Does o keep CPython 3.11's inline attribute values (no __dict__ made)? Its values pointer, four words
    before the object, is set (object_new's _PyObject_InitializeDict); tp_alloc alone leaves it NULL."""
    import ctypes
    return ctypes.c_void_p.from_address(id(o) - 4 * ctypes.sizeof(ctypes.c_void_p)).value is not None


def share_params(a, b, w):
    """A parameter boxed for the C API is one object, as the caller's is in the interpreter."""
    d = {}
    d[(a, b)] = w
    d[(b, a)] = w
    ks = list(d)
    return d[(a, b)] is d[(b, a)], ks[0][0] is ks[1][1], ks[0][1] is ks[1][0], len(d)


def share_loop(n):
    r = share_params(999, 1999, 0.125)
    for i in range(n):
        r = share_params(1000 + i, 2000 + 2 * i, i * 0.5 + 0.25)
    return r


def shade(x):
    """A float kernel whose code returns literals: a caller boxing its result stores the one
    constant, as CPython does (a list of them holds one object, not one per element)."""
    if x < 0.0:
        return 0.1
    if x > 10.0:
        return -0.0
    return x * 0.5


def shades(xs):
    out = [shade(x) for x in xs]
    out.append(shade(-1.0))
    return out


def shade_ids(xs):
    out = shades(xs)
    ids = {id(v) for v in out if v == 0.1}
    signs = [math.copysign(1.0, v) for v in out]
    return out, len(ids), signs, shade(-5.0) is shade(-6.0)


def keep_caller(d, k, w, n):
    """Called from the interpreter, a kernel's parameter boxes are the caller's own objects, as the
    frame's are: the float and the int it stores are the caller's (not new boxes of their values)."""
    d[k] = w
    d[k + 1] = w
    d[k + 2] = n
    d[k + 3] = n
    return len(d)


def caller_ids(w, n):
    d = {}
    size = keep_caller(d, 1, w, n)
    return size, [v is w for v in list(d.values())[:2]], [v is n for v in list(d.values())[2:]], d


class Pin:
    """Its __init__ stores each parameter once: the caller's objects, as CPython's STORE_ATTR stores the
    frame's (not new boxes of their values)."""
    __slots__ = ("x", "n")

    def __init__(self, x, n):
        self.x = x
        self.n = n


class Spot:
    def __init__(self, x, y):
        self.x = x
        self.y = y


class SubPin(Pin):
    """Its parameters passed on unchanged to Pin.__init__ (a direct call): what that stores is still the
    interpreter caller's objects."""
    __slots__ = ()

    def __init__(self, x, n):
        super().__init__(x, n)


def store_once(d, k, w):
    d[k] = w


def pins(n):
    """Float literals passed kernel to kernel are one object each, as CPython passes the code object's
    constant: every Spot's y is the same float, and so is every value store_once stored."""
    out = []
    for i in range(n):
        out.append(Spot(i * 0.5, 2.5))
        out.append(Spot(i * 0.5, -1.0))
    d = {}
    for i in range(n):
        store_once(d, i, 0.25)
    return out, d


def once_ids(w, n):
    p, s = Pin(w, n), Spot(w, 0.5)
    d = {}
    store_once(d, 1, w)
    out, d2 = pins(4)
    return ([p.x is w, p.n is n, s.x is w, d[1] is w], [o.y for o in out], sorted(d2.items()),
            len({id(o.y) for o in out[0::2]}), len({id(o.y) for o in out[1::2]}), len({id(v) for v in d2.values()}))


def sub_pin(w, n):
    return SubPin(w, n)


def clamp(x, lo, hi):
    """Its result is one of its parameters: called from the interpreter it is the caller's object."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def ident(n):
    return n



class Stamp:
    """A time and a sequence number, as the scheduler's events hold them."""
    __slots__ = ("time", "seq")

    def __init__(self, time, seq):
        self.time = time
        self.seq = seq


def note_pair(out, a, b):
    out.append(a)
    out.append(b)


class Clock:
    """Its number attributes read and passed on (an argument, a display's item): CPython passes the
    attribute's object itself, so a Stamp, the log's tuples, note_pair's list and a list display hold
    that object, not an equal new one; a read made before a call changes the attribute keeps the old."""

    def __init__(self, now, seq):
        self.now = now
        self.seq = seq
        self.log = []
        self.seen = []

    def stamp(self):
        self.seq += 1
        return Stamp(self.now, self.seq)

    def note(self):
        self.log.append((self.seq, self.now))
        note_pair(self.seen, self.seq, self.now)
        return [self.now, self.seq]

    def bump(self):
        self.now = self.now + 1.0
        return 0

    def stamp_bumped(self):
        return Stamp(self.now, self.bump())


def clock_run(now, seq, n):
    c = Clock(now, seq)
    stamps = [c.stamp() for _ in range(n)]
    return c, stamps, c.note()


def clock_bumped(c):
    return c.stamp_bumped()


def clock_ids(now, seq, n):
    """clock_run's objects compared by the interpreter (a kernel does not compile `is` of numbers, and
    a float it reads into a local is boxed anew: README, float identity)."""
    c, stamps, shown = clock_run(now, seq, n)
    old = c.now
    b = clock_bumped(c)
    return ([s.time is old for s in stamps], [s.seq for s in stamps], stamps[-1].seq is c.seq if stamps else None,
            [(a is c.seq, t is old) for a, t in c.log], [c.seen[0] is c.seq, c.seen[1] is old],
            [shown[0] is old, shown[1] is c.seq], b.time is old, b.seq, c.now, c.seq, c.log)


FREED = []


class DelTok:
    def __init__(self, k):
        self.k = k

    def __del__(self):
        FREED.append(self.k)


class Seen:
    def __init__(self):
        self.seen = 0


def take_tok(q):
    t = q.pop()  # the popped DelTok dies as this returns (its last reference): its __del__ runs then
    return t.k


def drain_toks(box, q, marks):
    """After an effect no deoptimisation undoes a callee's writes: the undo log lets the popped
    objects go as the callee returns, not when this (outermost) call does."""
    n = 0
    while q:
        box.seen = len(FREED)  # an effect: another object's attribute
        marks.append(len(FREED))
        n += take_tok(q)
    marks.append(len(FREED))
    return n


def run_drain(k):
    del FREED[:]
    marks = []
    n = drain_toks(Seen(), [DelTok(i) for i in range(k)], marks)
    return n, marks, list(FREED)


def zip_words(xs, ys):
    """zip / enumerate of lists of objects, unpacked: the loop's own (no tuple made)."""
    n = 0
    for a, b in zip(xs, ys):
        n += len(a) * len(b)
    for i, w in enumerate(xs, 10):
        n += i * len(w)
    for pair in enumerate(ys):  # not unpacked: the builtin's tuples
        n += pair[0]
    return n


class Tally:
    def __init__(self):
        self.n = 0
        self.total = 0
        self.state = 12345

    def bump(self, k):
        self.n += 1
        self.total += k * 3
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % 18446744073709551616
        return self.n * 2 + self.total


class Noisy:
    def __init__(self, tag):
        self.tag = tag

    def __del__(self):
        LOG.append("del %s" % self.tag)


class Ev:
    """A heap's events of several subclasses: heapq compares them (C calls __lt__); more class
    pairs than the profile keeps apart, so __lt__'s specialisation takes objects, whose
    attributes are numbers as every class of the module that has them records them."""
    __slots__ = ("time", "seq")

    def __init__(self, time, seq):
        self.time = time
        self.seq = seq

    def __lt__(self, other):
        if self.time != other.time:
            return self.time < other.time
        return self.seq < other.seq

    def fire(self, log):
        log.append(("ev", self.seq))


class EvA(Ev):
    __slots__ = ("who",)

    def __init__(self, time, seq, who):
        Ev.__init__(self, time, seq)
        self.who = who

    def fire(self, log):
        log.append(("a", self.who, self.time))


class EvB(Ev):
    __slots__ = ()

    def fire(self, log):
        log.append(("b", self.seq))


class EvC(Ev):
    __slots__ = ()


class EvD(Ev):
    __slots__ = ()


def drain(events):
    heap = []
    for e in events:
        heapq.heappush(heap, e)
    log = []
    while heap:
        e = heapq.heappop(heap)
        e.fire(log)  # through the C API: the fire() methods' kernels serve it
    return log


def stamp(a, b):
    return (a.time - b.time) * 2.0 + (a.seq - b.seq)


class EvN(Ev):
    """Its own __lt__: NotImplemented against what is not an Ev (then the other's reflected
    __gt__ answers, else TypeError). Compared with many classes: its __lt__ takes objects."""
    __slots__ = ()

    def __lt__(self, other):
        if not isinstance(other, Ev):
            return NotImplemented
        return self.seq < other.seq


class EvR(EvB):
    """A proper subclass of EvB with a reflected __gt__: EvB < EvR asks it first."""
    __slots__ = ()

    def __gt__(self, other):
        LOG.append("EvR.__gt__")
        return self.seq > other.seq


class EvM(Ev):
    """Its comparisons grow the heap being sifted: RuntimeError, as _heapq raises it."""
    __slots__ = ()

    def __lt__(self, other):
        if len(GROWN) < 3:
            GROWN.append(EvB(9.0, 99))
        return self.seq < other.seq


class Nest(Ev):
    """Its comparison pushes onto a heap of its own while NEST lasts: comparisons inside
    comparisons (heapq in a kernel calling that kernel again, through C only); without end,
    RecursionError as CPython raises it (dynac: never a crash)."""
    __slots__ = ()

    def __lt__(self, other):
        if NEST[0] > 0:
            NEST[0] -= 1
            heapq.heappush([Nest(0.0, 0)], Nest(self.time, self.seq + 1))
        return self.seq < other.seq


NEST = [0]


def nest_push(depth):
    NEST[0] = depth
    heap = [Nest(0.5, 1)]
    heapq.heappush(heap, Nest(0.25, 2))
    return len(heap), heap[0].seq, NEST[0]


def nest_limit(depth):
    try:
        return nest_push(depth)
    except RecursionError:
        return "RecursionError", NEST[0] > 0


class Later:
    """Not an Ev: an EvN's __lt__ gives NotImplemented, then Later's reflected __gt__."""
    def __init__(self, seq):
        self.seq = seq

    def __gt__(self, other):
        return True

    def __lt__(self, other):
        return False


class Plain:
    """No ordering at all: TypeError."""
    seq = -1


GROWN = []


def heap_run(heap, items, pops):
    """heapq.heappush / heappop in a kernel: their comparisons call the compiled __lt__s."""
    for e in items:
        heapq.heappush(heap, e)
    out = []
    for _ in range(pops):
        e = heapq.heappop(heap)
        out.append((type(e).__name__, e.seq))
    return tuple(out), len(heap)


def heap_mix(k):
    kinds = [lambda t, s: EvA(t, s, "w"), EvB, EvC, EvD, Ev, EvN, EvR]
    return [kinds[i % 7]((i * 5 + k) % 4 * 0.5, i) for i in range(14)]


def whole_parts(e):
    return e.time.real + e.time.imag  # a number attribute used as no number is: typed as objects


class Queue:
    """A method with *args called kernel to kernel: the call's extra values make its tuple."""
    def __init__(self):
        self.items = []
        self.n = 0

    def put(self, kind, *extra):
        self.n += 1
        self.items.append((kind, self.n) + extra)
        return len(extra)

    @staticmethod
    def count(*xs):
        return len(xs)

    def xs(self, *vs):
        t = 0.0
        for v in vs:
            t += v.x
        return t


class LoudQueue(Queue):
    def put(self, kind, *extra):
        LOG.append(("loud", kind, extra))
        return -1


class Parts:
    """*args in a constructor and an operator: CPython's calls (no packing there)."""
    def __init__(self, *parts):
        self.parts = parts
        self.n = len(parts)

    def __add__(self, *others):
        return Parts(*(self.parts + others[0].parts))


def parts_sum(k):
    p = Parts(k, 2.5) + Parts(k)
    return p.n, p.parts


class Tk:
    """An event made through a kind held in a parameter (Spreader.make)."""
    __slots__ = ("t", "who")

    def __init__(self, t, who=None):
        self.t = t
        self.who = who


class Tw(Tk):
    __slots__ = ("w",)

    def __init__(self, t, who, w):
        Tk.__init__(self, t, who)
        self.w = w


def gather(*xs):
    """The values its *xs got (its kernel returns the tuple: it keeps one)."""
    return xs


def boom(*xs):
    raise ValueError("boom %d" % len(xs))


class Spreader:
    """Methods whose *extra only spreads (analysis/star_args.c): their kernels take the caller's
    values, no tuple, from a kernel (a C array) and from the interpreter (the tuple's items)."""
    def __init__(self):
        self.now = 0.5
        self.made = []

    def make(self, kind, delay, *extra):
        self.made.append(kind(self.now + delay, *extra))
        return len(self.made)

    def via(self, g, *extra):
        return g(self.now, *extra)

    def twice(self, g, *extra):
        return g(*extra), g(1, *extra)

    def mid(self, v, *extra):
        self.made.append(v)
        return gather(v.x + 1.0, *extra)

    def built(self, *extra):
        return Tw(self.now, *extra)


def spread_run(n):
    s = Spreader()
    t = 0
    for i in range(n):
        t += s.make(Tk, 1.0, i)
        t += s.make(Tw, 2.0, "a", i)
        t += s.make(Tk, 0.5)
    many = s.via(gather, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)  # 17 values: a tuple
    return (t, [(type(e).__name__, e.t, e.who, getattr(e, "w", None)) for e in s.made],
            s.via(gather, 1, 2.5, "x"), s.twice(gather, 3, 4), s.twice(gather), many, fields_of(s.built("b", n)))


def spread_wrong(n):
    return Spreader().make(Tw, 1.0, n)  # a value short: Tw.__init__'s TypeError


def fields_of(e):
    return type(e).__name__, e.t, e.who, e.w


def spread_built(*extra):
    return fields_of(Spreader().built(*extra))


def spread_mid(v, k):
    s = Spreader()
    return s.mid(v, k, "z"), len(s.made)


def spread_raise(k):
    return Spreader().via(boom, k, 2)


def spread_same(o):
    r = Spreader().via(gather, o, o)
    return r[1] is o and r[2] is o, len(r)


def fill(q, k):
    t = 0
    t += q.put(1)
    t += q.put(2, k)
    t += q.put(3, k, 2.5, -1)
    t += q.put(4, *[k, k])  # a starred argument: CPython's call
    t += Queue.count(k, k, k) + q.count() + q.count(q)
    t += q.xs(Vec(1.5, 2.0) * 2.0, Vec(0.25, 1.0) - Vec(1.0, 0.5))  # instances kept as fields, packed: made
    return t, q.items, q.n


def mixed_events(k):
    kinds = [lambda t, s: EvA(t, s, "w%d" % s), EvB, EvC, EvD, Ev]
    return [kinds[i % 5]((i * 7 + k) % 5 * 0.5, i) for i in range(12)]


def total_norm(vs):
    t = 0.0
    for v in vs:
        t += v.norm()
    return t


def energies(bodies, v):
    e = 0.0
    for b in bodies:
        e += b.energy(v) + b.pos.x
    return e


def grow(v, n):
    out = []
    for i in range(n):
        out.append(v.scaled(1.0 + i))
    return out


def pair_dot(a, b):
    return a.dot(b) + a.x - b.y


def chain(a, b, k):
    c = (a - b) * k + a
    return c.dot(b) + c.x


def add_maybe(a, b):
    return a + b


def strict_sum(vs):
    t = 0.0
    for v in vs:
        t += Strict(v).v
    return t


def num_ops(a, b, k):
    d = abs(-a)
    s = 2.0 * (k + d)
    t = a
    t += k
    return (d.v, s.v, a < b, a == b, k < a, len(a), a[k], t.v, t is a)


def num_len(a):
    return len(a) + 1


def num_item(a, i):
    return a[i]


def accumulate(vs):
    acc = Vec(0.0, 0.0)
    for v in vs:
        acc += v
    return (acc.x, acc.y)


def cmp_maybe(a, b):
    return a < b


def deep_add(n):
    return Deep(n) + 0


def shapes(s, k):
    return (s.area(k), s.more(), s.double)


def make_rect(w, h):
    r = Rect(w, h)
    return (r.w, r.h)


def make_square(w):
    q = Square(w)
    return (q.w, q.h, q.area(1.0))


def point_ops(a, b):
    c = Point(a.x + 1.0, b.y)
    return (a.dist2(b), c.dist2(a), c == Point(a.x + 1.0, b.y), repr(c), Point.origin(b.y).dist2(a),
            repr(a.origin(1.0)))


def frozen_ops(f):
    return (f.bumped(), f.bump())


def add_to(holder, i):
    s = 0.0
    for k in range(20):  # typed work: the kernel serves calls (not generic only)
        s += k * 0.5
    holder.items.append(holder.items[i])
    return s + len(holder.items)


def neg_v(n, k):
    return k + (-n).v


def neg_half(n, k):
    return k + Num.half((-n).v)


def box_flag(b, k):
    b.positive += k  # a bool getter, a float stored: CPython's in-place result goes to the setter
    return b._w


def box_grow(b, k):
    for i in range(3):
        b.w = b.w * k + 1.0
    return (b.w, b.sets)


def make_noisy(n):
    keep = Noisy(-1)
    for i in range(n):
        Noisy(i)
        LOG.append("made %d" % i)
    return keep


def nearest_x(vs, lim):
    best = None
    for v in vs:
        if v.x < lim and (best is None or v.x > best.x):
            best = v
    if best is None:
        return -1.0
    return best.dot(best) + best.y


def walk_optional(vs, k):
    cur = None
    total = 0.0
    for i in range(k):
        cur = vs[i % len(vs)] if i % 3 else None
        if cur is not None and cur.x > 0.5:
            total += cur.x
        if cur is None:
            continue
        total += cur.norm()
        cur = None if total > 6.0 else cur
        total += 0.0 if cur is None else cur.y
    while cur is not None:
        total += cur.x
        cur = None
    return total


def opt_rebound(vs):
    best = None
    for v in vs:
        if best is None or v.x > best.x:
            best = v
    if best is None:
        return 0.0
    for v in vs:
        best = v if v.x > 0 else None
    d = best - vs[0]
    return d.x + best.x


def tuple_ops(ps, k):
    s = 0.0
    for p in ps:
        q = p.scaled(k)
        s += q.norm2() + q[0] + len(q) + p.y
    return s


def cell_ops(cs, k):
    s = 0.0
    for c in cs:
        s += c.grow(k) + c.w
    return s


def first_full(bags):
    hit = None
    for b in bags:
        if not hit:
            hit = b
    if not hit:
        return -1.0
    total = hit.v * 2.0
    while hit:
        total += hit.v
        hit = None
    return total


def truth_in_expr(bags, k):
    c0 = k
    fs = [lambda: c0]  # a cell it rebinds: the call cannot go on in the interpreter mid-statement
    c0 = k * 2.0
    q = None
    for b in bags:
        q = b
    return (q.v * 2.0 if q else -1.0) + fs[0]()


class MixedV(Bag):
    """v a property: the loop's attribute site meets another kind of place."""
    def __init__(self, n):
        self.n = n

    @property
    def v(self):
        return self.n * 10


class S1:
    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x


class S2:
    __slots__ = ("pad", "x")

    def __init__(self, x):
        self.pad, self.x = None, x


class S3(S2):
    __slots__ = ("more",)

    def __init__(self, x):
        S2.__init__(self, x)
        self.more = 1


class D1:
    def __init__(self, x):
        self.x = x


class D2:
    def __init__(self, x):
        self.w, self.x = 0, x


class P1:
    @property
    def x(self):
        return 7


def slotted_at(k):
    """A class keeping x in __slots__ after k other members: its offset differs per k."""
    def __init__(self, x):
        for i in range(k):
            setattr(self, "p%d" % i, -1000.0)  # a float: read at the wrong offset, it would be summed
        self.x = x
    return type("Sl%d" % k, (), {"__slots__": tuple("p%d" % i for i in range(k)) + ("x",), "__init__": __init__})


SLOTTED = [slotted_at(k) for k in range(6)]  # six classes, four home ways: two share one


def layouts_sum(objs, reps):
    """One site reading .x of six classes (slots at two offsets, inline values at two indices, a
    property), more than its ways hold: each class's way 0 or home way, else the C API."""
    total = 0.0
    for _ in range(reps):
        for o in objs:
            total = total + o.x
    return total


def mixed_sum(bags):
    # a loop reading attributes of any type (the profile saw ints and floats): the site's
    # caches read them; the kernel serves (not generic only)
    total = 0
    for b in bags:
        total = total + b.v * b.n
    return total


def tally(t, m):
    s = 0
    for i in range(m):
        s += t.bump(i)
    return s, t.n, t.total


def made_by(kind, a, b, *extra):
    """A class held in a value, called with and without *extra, and by keyword:
    constructed directly when its __init__ is a plain Python function
    (runtime/objects.h dynac_call_object), else as CPython calls it."""
    p = kind(a, b)
    q = kind(b, a, *extra)
    r = kind(a, y=b)
    return type(p).__name__, p.x + q.y, r.y, type(p)(1.0, 2.0).x, p is not q


def made_from(kind, a, rest):
    """cls(a, *rest) of a class in a local: per class the profile saw made with a float first,
    its __init__'s kernel run on an instance made as object.__new__ makes it, while rest is an
    exact tuple of the items that __init__ still takes (emit/calls.c emit_polymorphic_construction)."""
    p = kind(a, *rest)
    return type(p).__name__, p.x, p.y, getattr(p, "z", None)


def made_pair(kind, a, b):
    """kind(a, b) of a class in a local, no *args: per recorded class its __init__'s kernel; any
    other callable through dynac_call_object, given the slot before its arguments."""
    p = kind(a, b)
    return type(p).__name__, p.x, p.y


def made_mid(kind, v):
    """A polymorphic construction whose second value is of another type than recorded: the
    statement goes on in the interpreter with the callee and the first value already evaluated."""
    p = kind(v.x + 1.0, v.y)
    return type(p).__name__, p.x, p.y


class Slotted(Vec):
    """__init__ writes into a list it is given: a write the undo log keeps (the float it replaced
    held until the caller's glue commits the call)."""
    def __init__(self, x, y, into):
        into[0] = x
        Vec.__init__(self, x, y)


def made_into(kind, a, b, into):
    """A polymorphic construction whose __init__ logs a list write: this kernel writes nothing
    itself, yet its glue commits what the __init__ kernel logged (emit/kernel.c text_uses_undo_log)."""
    p = kind(a, b, into)
    return type(p).__name__, p.x


def ticked(x):
    LOG.append(("ticked", x))
    return x * 2.0


def triple(a, b, c=None, *more):
    return a, b, c, more


def star_mid(g, v, rest):
    """f(a, b, *t) whose second value is of another type than recorded after the first ran
    Python code: the statement goes on in the interpreter with the first value kept (it is not
    evaluated again), as emit/calls.c positional_star_call makes its values pending."""
    return g(ticked(v.x), v.y, *rest)


def star_kw_mid(g, v, rest):
    """The same through CALL_FUNCTION_EX's general form (emit_starred_call): *rest, then a
    keyword whose value is of another type than recorded."""
    return g(ticked(v.x), *rest, c=v.y)


class LoggedMap:
    """A mapping (keys() and __getitem__, not a dict) whose calls are logged."""
    def __init__(self, d):
        self.d = d

    def keys(self):
        LOG.append("keys")
        return list(self.d)

    def __getitem__(self, k):
        LOG.append(("getitem", k))
        return self.d[k]


def dstar_mid(g, v, m):
    """f(a, **m, c=value) whose keyword's value is of another type than recorded after the first
    ran Python code: what m gave is kept (emit/calls.c merge_pending), so a mapping's keys() and
    __getitem__ run once, as in CPython."""
    return g(ticked(v.x), **m, c=v.y * 2.0)


def kw_mid(g, v):
    """A call with keywords and no * whose keyword's value is of another type than recorded
    after the first value ran Python code (_continue.py _call_argument: keywords in source order)."""
    return g(ticked(v.x), 1.5, c=v.y)


def chain_mid(v, hi):
    """A chained comparison whose second operand is of another type than recorded after the
    first ran Python code: the chain goes on in the interpreter with the first operand kept
    (emit/expr.c: the operands a chain evaluated are pending; comparing them again runs no code)."""
    return ticked(v.x) < v.y * 2.0 < hi


def chain_mid3(v):
    """The same failing at a chain's fourth operand, three operands kept."""
    return 0.0 < ticked(v.x) <= 4.0 < v.y * 2.0


def list_mid(v):
    """A list display whose second element is of another type than recorded after the first
    ran Python code: the display goes on in the interpreter with the first element kept."""
    xs = [ticked(v.x), v.y * 2.0, ticked(v.x)]
    return len(xs), xs[1]


def dict_mid(v):
    """A dict display whose second value is of another type than recorded after the first ran
    Python code: made again in the interpreter around the kept keys and value (keys whose hash
    runs no Python code only: emit/objects.c hashed_quietly)."""
    d = {"a": ticked(v.x), 1.5: v.y * 2.0, "c": ticked(v.x)}
    return d[1.5], len(d)


def set_mid(v):
    """The same for a set display of numbers."""
    s = {ticked(v.x), v.y * 2.0}
    return len(s)


def set_obj_mid(v, o):
    """A set display whose first element is an object (a str or an int here) and whose third
    fails after the second ran Python code: a continuation hashes the object again, which it does
    when the object turns out a number or a str (runtime: dynac_quiet_value); the same object in
    an f-string is formatted again."""
    s = {o, ticked(v.x), v.y * 2.0}
    return len(s), f"{o}:{ticked(v.x)}:{v.y * 2.0}"


def fstring_mid(v):
    """An f-string whose second field is of another type than recorded after the first ran
    Python code: formatted in the interpreter, the first field's number kept."""
    return f"<{ticked(v.x):.3f}|{v.y * 2.0!r}|{v.x}>"


def raise_mid(v):
    """raise E(value) whose value fails after Python code ran: the exception is made in the
    interpreter (the call's argument kept)."""
    if v.x >= 0.0:
        raise ValueError(ticked(v.x) + v.y * 2.0)
    return 0


def for_mid(v):
    """A for loop's iterable failing after Python code ran: the loop starts in the interpreter
    over the iterable made from the kept operand (it is evaluated once, before the first pass)."""
    s = 0.0
    for x in (ticked(v.x), v.y * 2.0):
        s += x
    return s


def first_of(*xs):
    return xs[0]  # an object to its callers (an item of *xs)


def for_obj_mid(v):
    """The same with a tuple display holding objects (a tuple object made element by element):
    the first element kept, ticked not run again."""
    o = first_of(v.x)
    s = 0.0
    for x in (ticked(o), v.y * o):
        s += x
    return s


def chain_obj_mid(v):
    """A chain of objects whose second operand is of another type than recorded after the first
    ran Python code: the first operand kept, ticked not run again."""
    o = first_of(v.x)
    return 1.0 if ticked(o) < v.y * 2.0 <= first_of(9.0) else 2.0


def chain_obj_mid3(v):
    """The same failing in the third operand, after the first comparison ran: both operands kept
    and compared again in the interpreter (numbers: no Python code runs)."""
    o = first_of(v.x)
    return 1.0 if first_of(o) < ticked(o) < v.y * 2.0 else 2.0


def assert_mid(v):
    """An assert's test failing after Python code ran (lowered as `if not test: raise`, resumed
    as the assert itself: its message and AssertionError as CPython's)."""
    assert ticked(v.x) < v.y * 2.0, "not below"
    return 1


def bump(o, x):
    """Changes o.x between an augmented assignment's read and its store."""
    LOG.append(("bump", x))
    o.x = 100.0
    return x


def bump_key(d, x):
    """The same for d["k"]."""
    LOG.append(("bump_key", x))
    d["k"] = 100.0
    return x


def bump_item(xs, x):
    """The same for xs[0]."""
    LOG.append(("bump_item", x))
    xs[0] = 100.0
    return x


def aug_attr_mid(o, v):
    """obj.name op= value failing in the value after Python code ran: the interpreter goes on
    with the value obj.name held before it (read first, as CPython does; bump changed it since),
    then stores into the same obj (_continue.py _resumed_statements)."""
    o.x += bump(o, v.x) + v.y * 2.0
    return o.x


def rec_aug_mid(v):
    """The same for an instance kept as fields (emit/records.c: w is made in the kernel): the
    continuation takes the instance, made then, and the field's value read before the value."""
    w = v + v
    w.x += ticked(v.x) + v.y * 2.0
    return w.x, w.y


def aug_item_mid(xs, v, i):
    """The same for a list of floats' item at a local index and at a literal one."""
    xs[i] += bump_item(xs, v.x) + v.y * 2.0
    xs[0] -= bump_item(xs, v.x) * v.y
    return tuple(xs)  # (show() reads a list's items as Vecs)


def aug_index_mid(xs, v, i):
    """The same at a computed index: its value is kept (the interpreter would compute it again)."""
    xs[i - 0 * i] *= bump_item(xs, v.x) + v.y
    return tuple(xs)


def aug_other_mid(holder, v):
    """The same where the target's object is an expression (kept, not evaluated again) and for a
    dict's item (its key kept)."""
    holder[0].x *= bump(holder[0], v.x) + v.y * 2.0
    holder[1]["k"] += bump_key(holder[1], v.x) + v.y * 2.0
    return holder[0].x, holder[1]["k"]


def while_mid(vs, n):
    """A while test whose second operand is of another type than recorded after the first ran
    Python code, on its first or a later pass: the loop goes on in the interpreter, the kept
    operand serving that pass's test only (_continue.py _resumed_statements); break and else as ever."""
    k = 0
    while ticked(vs[k].x) < vs[k].y * 2.0:
        k += 1
        if k == n:
            break
    else:
        LOG.append(("else", k))
    return k


class Checked(Vec):
    """__init__ raises for a negative x (its traceback line), returns a value for x == 13."""
    def __init__(self, x, y):
        if x < 0:
            raise ValueError("negative x")
        super().__init__(x, y)
        if x == 13:
            return 13


class Fresh(Vec):
    """object.__new__ is not its __new__."""
    def __new__(cls, x, y):
        LOG.append("Fresh.__new__")
        return super().__new__(cls)


class Counting(type):
    """A metaclass whose __call__ runs first."""
    def __call__(cls, *args, **kw):
        LOG.append("Counting.__call__")
        return super().__call__(*args, **kw)


class Metered(Vec, metaclass=Counting):
    pass


class Vanishing(Vec):
    """__init__ removes itself from the class while it runs: the call keeps it alive."""
    def __init__(self, x, y):
        del Vanishing.__init__
        Vec.__init__(self, x, y)


class Listed(list):
    """list's own __new__ (not object's): constructed as CPython does."""
    def __init__(self, x, y):
        super().__init__([x, y])
        self.x, self.y = x, y


class Pending(Vec):
    """An abstract class (as abc.ABCMeta marks one, below): cannot be instantiated."""


Pending.__abstractmethods__ = frozenset({"todo"})


class Third(Vec):
    def __init__(self, x, y, z=0.5):
        super().__init__(x, y)
        self.z = z


class PA:
    """Receivers of it.val(k) on objects (a polymorphic call site): each class's kernel is called
    for an instance of exactly that class (emit/calls.c emit_polymorphic_call)."""
    def __init__(self, v):
        self.v = v

    def val(self, k):
        return self.v * k


class PB(PA):
    def val(self, k):
        return int(self.v) + k


class PC(PA):
    def val(self, k):
        if k < 0:
            raise ValueError("negative k")
        LOG.append(("PC.val", self.v))


class PD(PB):
    """PB.val, found through the MRO."""


class PF(PA):
    """Not recorded as a receiver: CPython's call; it patches PA.val while the loop runs."""
    def val(self, k):
        PA.val = lambda self, k: ("patched", self.v)
        return "PF"


class PK:
    """Keyword calls of it.scaled(...) on objects of several classes: bound per class (each def's
    own parameter order and defaults); for a class whose order differs, CPython's call."""
    def __init__(self, v):
        self.v = v

    def scaled(self, k, *, by=2.0, off=0.0):
        return self.v * k * by + off


class PK2(PK):
    def scaled(self, k, off=1.0, *, by=0.5):
        return self.v - k * by + off


class PK3(PK):
    def scaled(self, k, *, off=0.0, by=1.0):  # off before by: `by=..., off=...` is out of its order
        return (self.v, k, by, off)


def poly_kw(items, k):
    out = []
    for it in items:
        out.append((it.scaled(k, by=3.0), it.scaled(k, off=k), it.scaled(k, by=k, off=0.25)))
    return out


def poly_sum(items, k):
    out = []
    for it in items:
        out.append(it.val(k))
    return tuple(out)


class Logged(list):
    """A list whose item reads log: a polymorphic call's receiver is read once."""
    def __getitem__(self, i):
        LOG.append(("getitem", i))
        return list.__getitem__(self, i)


class Carrier:
    """Its item a property that logs: a polymorphic call's receiver is read once."""
    def __init__(self, item):
        self._item = item

    @property
    def item(self):
        LOG.append(("item", type(self._item).__name__))
        return self._item


def poly_index(items, k):
    """items[i].val(k): the receiver an element, evaluated once, then its class tested."""
    out = []
    for i in range(len(items)):
        out.append(items[i].val(k))
    return tuple(out)


def poly_attr(holders, k):
    """h.item.val(k): the receiver an attribute."""
    out = []
    for h in holders:
        out.append(h.item.val(k))
    return tuple(out)


class Acc:
    """A method called with parameters left to their defaults: called kernel to kernel, the
    defaults read from the function when the call runs (runtime dynac_method_default)."""
    def __init__(self, v):
        self.v = v

    def add(self, x, scale=2.0, tag=None, n=3):
        if tag is not None:
            LOG.append(("tag", tag))
        return self.v + x * scale + n


class Acc2(Acc):
    def add(self, x, scale=10.0, tag=None, n=0):
        return ("Acc2", self.v + x * scale + n, tag)


class Acc3(Acc):
    """super().m(x) and Base.m(self, x) leaving parameters to their defaults: the base's
    function found from the base class gives them."""
    def add(self, x, scale=1.0, tag=None, n=0):
        return super().add(x) + Acc.add(self, x, 0.5) + x * scale + n


def use_defaults(a, x):
    return a.add(x), a.add(x, 0.5), a.add(x, 0.5, "t"), a.add(x, 0.5, None, 7)


class Gap:
    """__slots__ read in runs of statements: one test of the class serves each instance's reads there
    (generator/emit/layouts.c)."""
    __slots__ = ("x", "y", "w")

    def __init__(self, x, y, w):
        self.x = x
        self.y = y
        self.w = w


class GapB(Gap):
    """A Gap whose y is a property: what Probe's __getattr__ turns an instance into."""
    __slots__ = ()

    @property
    def y(self):
        return 100.0


SWITCH = []


class Probe:
    """v becomes a property after the build (checks): its Python code may turn an instance of Gap
    into a GapB in the middle of a run that tested that instance's class."""
    def __init__(self):
        self.v = 0.5


def probe_v(self):
    if SWITCH:
        SWITCH.pop().__class__ = GapB
    return 0.25


def gap(a, b):
    dx = a.x - b.x
    dy = a.y - b.y
    d2 = dx * dx + dy * dy + a.w * b.w
    return d2


def gaps(ps):
    s = 0.0
    for p in ps:
        for q in ps:
            s += gap(p, q)
    return s


def gap_mix(b, c):
    return b.x + c.v + b.y + b.w


class Pm:
    """Floats stored in runs (layouts): the float there takes the new value when nothing else holds it."""
    __slots__ = ("vx", "vy", "m")

    def __init__(self, vx, vy, m):
        self.vx = vx
        self.vy = vy
        self.m = m

    def push(self, fx, fy, dt):
        self.vx += fx / self.m * dt
        self.vy += fy / self.m * dt
        if self.vx > 10.0:
            self.vx = 10.0
        return self.vx + self.vy


def logged_setattr(self, name, v):
    LOG.append(("set", name))
    object.__setattr__(self, name, v)


class Pd:
    def __init__(self, vx, vy, m):
        self.vx = vx
        self.vy = vy
        self.m = m

    def push(self, fx, fy, dt):
        self.vx += fx / self.m * dt
        self.vy += fy / self.m * dt
        if self.vx > 10.0:
            self.vx = 10.0
        return self.vx + self.vy


class Pl(Pd):
    """Stores through a __setattr__ of its own: never into the float in place."""
    __setattr__ = logged_setattr


def pushes(ps, k):
    t = 0.0
    for p in ps:
        t += p.push(1.0 * k, -0.5, 0.25)
    return t


def gap_pick(a, b, k):
    if k > 0:
        d = a.x - b.x
    else:
        d = a.y - b.y
    return d + a.w * b.w


def gap_branch(b, c):
    if b.x > 0.0:
        t = c.v + b.y
    else:
        t = b.w
    return t + b.y


class Census:
    """A class attribute counts the instances (type(self).made += 1): each construction gives the
    class a new version tag, after which its guard looks up that one class's methods again (not
    every global); a method patched in after such a change is seen."""
    made = 0

    def __init__(self, v):
        self.v = v
        type(self).made += 1

    def worth(self):
        return self.v * 2.0


def census_run(n):
    s = 0.0
    for i in range(n):
        c = Census(i * 0.5)
        s += c.worth()
    return s, Census.made


class Relay:
    """__getattr__ (CPython's slot_tp_getattr_hook, no generic lookup to guard): its instances
    are objects to kernels, and relay_sum, which makes one, is served (its class guard failed at
    every call before)."""

    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        return getattr(self._target, name)


def relay_sum(n):
    r = Relay(Census(1.5))
    s = 0.0
    for i in range(n):
        s += r.v * i
    return s, r.worth()


class Meter:
    """A method's __code__ assigned after the build, or mid-loop by code a kernel calls (hook), and
    put back: the assignment leaves the class's version tag as it was, so the runtime, told of it,
    gives the class a new tag; its direct calls (a method, an operator, a construction's __init__,
    heapq's __lt__) then look at it again and find the def's code changed, or put back."""

    def __init__(self, v):
        self.v = v

    def read(self, k):
        return self.v * k

    def __add__(self, other):
        return Meter(self.v + other.v)

    def __lt__(self, other):
        return self.v < other.v


def _meter_read(self, k):
    return -self.v * k - 1.0


def _meter_init(self, v):
    self.v = v * 10.0


def _meter_add(self, other):
    return Meter(self.v - other.v)


def _meter_lt(self, other):
    return self.v > other.v


def meter_run(m, n, hook):
    s = 0.0
    for i in range(n):
        if i == 2:
            hook()
        s += m.read(i * 1.5)
    return s


def meter_ops(n, hook):
    heap = []
    acc = Meter(0.5)
    for i in range(n):
        if i == 2:
            hook()
        acc = acc + Meter(i * 1.0)
        heapq.heappush(heap, Meter(float((i * 7) % 5)))
    out = []
    while heap:
        out.append(heapq.heappop(heap).v)
    return acc.v, out


def meter_swap(name, code):
    """Meter's method `name` runs `code` from now on; the code it had is returned."""
    f = getattr(Meter, name)
    saved, f.__code__ = f.__code__, code
    return saved


def meter_checks():
    noop = lambda: None
    show("meter", meter_run, Meter(1.5), 5, noop)
    show("meter ops", meter_ops, 6, noop)
    for name, fn in (("read", _meter_read), ("__init__", _meter_init), ("__add__", _meter_add),
                     ("__lt__", _meter_lt)):
        saved = meter_swap(name, fn.__code__)
        show("meter %s's code swapped" % name, meter_run, Meter(1.5), 5, noop)
        show("meter ops, %s's code swapped" % name, meter_ops, 6, noop)
        meter_swap(name, saved)
        show("meter %s's code restored" % name, meter_run, Meter(-2.0), 4, noop)
        show("meter ops, %s's code restored" % name, meter_ops, 5, noop)
        hook = lambda: meter_swap(name, fn.__code__)
        show("meter %s's code swapped mid-loop" % name, meter_run, Meter(1.5), 5, hook)
        meter_swap(name, saved)
        show("meter ops, %s's code swapped mid-loop" % name, meter_ops, 6, hook)
        meter_swap(name, saved)
        show("meter ops, %s's code restored again" % name, meter_ops, 5, noop)


class Ledger:
    """Methods taking ints, called from the interpreter: their specialisations take int64 ints
    (the receiver, an instance of a module class, does not make them objects); an int64
    overflow after the method's writes (self.log, self.n) goes on in the interpreter exactly."""

    def __init__(self):
        self.log = []
        self.n = 0

    def charge(self, k):
        for i in range(3):
            self.log.append(k + i)
        self.n = k
        return k * k * k * k

    def spread(self, k, step):
        t = 0
        for i in range(k % 50):
            t += (i * step) % 13
        self.n = t
        return t * step * step

    def guarded(self, k):
        try:
            self.log.append(k)
            for i in range(2):
                k = k * k
            return k
        finally:
            for i in range(2):
                self.log.append(k * k * k)


def train():
    for _ in range(5):
        c = Cluster([Star(0.5 * k, 1.0 + k) for k in range(6)])
        c.pull(0.01)
        c.last_is()
        c.shed(2)
        c.pull(0.01)  # its stars now an empty list: still recorded as a list[Star]
        Cluster([Star(0.5 * k, 1.0) for k in range(6)]).drop_light()
        zip_words(["a", "bc"], ["d", "ef", "g"])
        made_loose(4)
        share_loop(3)
        run_drain(4)
        shades([-1.0, 2.0, 20.0, 0.5])
        caller_ids(1.5, 7)
        once_ids(1.5, 7)
        sub_pin(1.5, 7)
        for x in (0.5, -3.0, 9.0):
            clamp(x, 0.0, 1.0)
        ident(5)
        clock_bumped(clock_run(0.5, 7, 3)[0])
    for _ in range(20):
        meter_run(Meter(0.5), 4, lambda: None)
        meter_ops(4, lambda: None)
        census_run(4)
        relay_sum(3)
        lg = Ledger()
        lg.charge(3)
        lg.spread(7, 2)
        lg.guarded(3)
    vs = [Vec(1.0 * i, 2.0) for i in range(20)]
    bodies = [Body(Vec(0.5, 1.5), 2.0) for _ in range(5)]
    for _ in range(30):
        total_norm(vs)
        energies(bodies, vs[3])
        grow(vs[2], 4)
        pair_dot(vs[1], vs[2])
        gaps([Gap(1.0 * i, 2.0, 0.5) for i in range(4)])
        gap_mix(Gap(1.0, 2.0, 3.0), Probe())
        gap_pick(Gap(1.0, 2.0, 3.0), Gap(0.5, 0.25, 2.0), 1)
        gap_pick(Gap(1.0, 2.0, 3.0), Gap(0.5, 0.25, 2.0), -1)
        gap_branch(Gap(1.0, 2.0, 3.0), Probe())
        gap_branch(Gap(-1.0, 2.0, 3.0), Probe())
        pushes([Pm(0.5, 1.0, 2.0), Pm(1.5, -1.0, 0.5)], 3)
        pushes([Pd(0.5, 1.0, 2.0), Pd(1.5, -1.0, 0.5)], 3)
        pushes([Pl(0.5, 1.0, 2.0)], 3)
    make_noisy(3)
    for _ in range(30):
        chain(vs[1], vs[2], 0.5)
        add_maybe(Maybe(1.0), Maybe(2.0))
        strict_sum([1.0, 2.0, 3.0])
        Vec(1.0, 2.0).shift(0.5)
        num_ops(Num(1.5), Num(2.5), 0.5)
        num_len(Num(3.0))
        num_item(Num(3.0), 2.0)
        accumulate([Vec(1.0, 2.0), Vec(3.0, 4.0)])
        cmp_maybe(Cmp(1.0), Cmp(2.0))
        deep_add(5)
        shapes(Rect(1.0, 2.0), 0.5)
        make_rect(1.0, 2.0)
        rebound_mid(0.5)
        make_square(3.0)
        point_ops(Point(1.0, 2.0), Point(0.5))
        Frozen(1.0).bumped()
        box_grow(Box(1.0), 2.0)
        box_flag(Box(1.0), 0.5)
        add_to(Holder([1.0, 2.0]), 0)
        neg_v(Num(2.0), 0.5)
        neg_half(Num(2.0), 0.5)
        nearest_x(vs, 3.5)
        walk_optional(vs[:4], 7)
        opt_rebound(vs[1:3])
        tuple_ops([Pt(1.0, 2.0), Pt(0.5, -1.5)], 0.5)
        cell_ops([Cell(1.0), Cell(2.0, 0.5)], 0.25)
        tally(Tally(), 20)
        first_full([Sack(1.0, 0), Sack(2.0, 1)])
        truth_in_expr([Bag(1.0, 1)], 0.5)
        mixed_sum([Bag(1, 2), Bag(2.5, 3), MixedV(2)])
        fill(Queue(), 3)
        parts_sum(1.5)
        spread_run(3)
        spread_mid(Vec(1.0, 2.0), 3)
        try:
            spread_raise(1)
        except ValueError:
            pass
        spread_same(1.5)
        spread_built("a", 1)
        evs = mixed_events(1)
        drain(evs)
        for a in evs:
            for b in evs[:5]:
                stamp(a, b)
            whole_parts(a)
        heap_run([], heap_mix(1), 14)
        nest_push(20)
        dc_walk(5)
        dc_make(1.0, 2.0)
        dc_ids(1.0, 2.0)
        dc_other(1.0)
        dq_make(1.0, 2.0)
        pv_make(1.0, 2.0)
        made_defaults(1.0, 2.0)
        dc_chain(1.0)
        fv_walk(5)
        dr_walk(3, 2.0)
        dt_walk(3, [9.0])
        di_walk(3, 2.0)
        du_make(1.5)
        dz_walk(3, 2.0)
        dk_walk(3, 2.0)
        kw_make(1.5, 2.0)
        kw_order(1.5, 2.0)
        km_calls(1.5, 2.0)
        km_on(KM(1.5), 2.0)
        ko_calls(1.5, 2.0)
        ko_make(1.5)
        ko_moved(KO(1.5), 2.0)
        ko_order(1.5, 2.0)
        ko_static(1.5, 2.0)
        fv_make(1.0, 2.0)
        fv_obj(1.0, 2.0)
        fv_obj(1.0, "s")
        for f, a in ((fv_store, (1.0,)), (fv_set, (FV(1.0), 2.0))):
            try:
                f(*a)
            except dataclasses.FrozenInstanceError:
                pass
        patch_and_make(1.0)
        for f in (kw_patch_and_make, km_patch):
            try:
                f(1.0)
            except TypeError:  # PV2(a, y=b) with y first now: "got multiple values for argument 'y'"
                pass
        heap_run([], [EvN(0.5, 1), Later(3), EvN(0.2, 2), Later(4), EvN(0.1, 5)], 5)
        made_by(Vec, 1.0, 2.0)
        poly_sum([PA(1.5), PB(2.0), PC(0.5), PD(3.0)], 2)
        poly_sum([PA(1.5), PB(2.0)], 0.5)
        poly_kw([PK(1.5), PK2(2.0), PK3(0.5)], 2.0)
        poly_index([PA(1.5), PB(2.0), PC(0.5), PD(3.0)], 2)
        poly_attr([Carrier(PA(1.5)), Carrier(PB(2.0)), Carrier(PD(3.0))], 2)
        use_defaults(Acc(1.0), 2.0)
        use_defaults(Acc3(1.0), 2.0)
        made_by(Third, 1.0, 2.0, 3.0)
        made_by(Checked, 2.0, 1.0)
        made_from(Vec, 1.0, (2.0,))
        made_from(Third, 1.0, (2.0, 3.0))
        made_from(Checked, 1.0, (2.0,))
        made_pair(Vec, 1.0, 2.0)
        made_pair(Checked, 1.0, 2.0)
        made_mid(Vec, Vec(1.0, 2.0))
        made_into(Slotted, 1.0, 2.0, [0.5, 1.5])
        star_mid(triple, Vec(1.0, 2.0), (3.0,))
        star_kw_mid(triple, Vec(1.0, 2.0), (3.0,))
        star_kw_mid(triple, Vec(1.0, 2.0), iter([3.0]))
        kw_mid(triple, Vec(1.0, 2.0))
        dstar_mid(triple, Vec(1.0, 2.0), {"b": 1.5})
        dstar_mid(triple, Vec(1.0, 2.0), LoggedMap({"b": 1.5}))
        chain_mid(Vec(1.0, 2.0), 9.0)
        aug_attr_mid(Vec(1.0, 2.0), Vec(1.0, 2.0))
        rec_aug_mid(Vec(1.0, 2.0))
        aug_item_mid([1.0, 2.0], Vec(1.0, 2.0), 1)
        aug_index_mid([1.0, 2.0], Vec(1.0, 2.0), 1)
        aug_other_mid([Vec(1.0, 2.0), {"k": 1.0}], Vec(1.0, 2.0))
        list_mid(Vec(1.0, 2.0))
        dict_mid(Vec(1.0, 2.0))
        set_mid(Vec(1.0, 2.0))
        set_obj_mid(Vec(1.0, 2.0), "o")
        set_obj_mid(Vec(1.0, 2.0), 7)
        fstring_mid(Vec(1.0, 2.0))
        try:
            raise_mid(Vec(1.0, 2.0))
        except ValueError:
            pass
        for_mid(Vec(1.0, 2.0))
        for_obj_mid(Vec(1.0, 2.0))
        chain_obj_mid(Vec(1.0, 2.0))
        chain_obj_mid3(Vec(1.0, 2.0))
        assert_mid(Vec(1.0, 2.0))
        chain_mid3(Vec(1.0, 3.0))
        while_mid([Vec(1.0, 2.0), Vec(1.0, 2.0), Vec(1.0, 0.5)], 5)
        layouts_sum([S1(1.0), S2(2.0), D1(0.5), D2(0.25)], 2)


def show(label, f, *args):
    try:
        r = f(*args)
        if isinstance(r, list) and r and hasattr(r[0], "y"):
            r = [(v.x, v.y) for v in r]
        print(label, repr(r))
    except Exception as e:
        tb = e.__traceback__
        while tb.tb_next:
            tb = tb.tb_next
        print(label, type(e).__name__, str(e), "line", tb.tb_lineno)


def frames(label, f, *args):
    """show(), with every traceback entry's file, line and function."""
    try:
        print(label, repr(f(*args)))
    except Exception as e:
        out, tb = [], e.__traceback__
        while tb:
            code = tb.tb_frame.f_code
            out.append((code.co_filename.rsplit("/", 1)[-1], tb.tb_lineno, code.co_name))
            tb = tb.tb_next
        print(label, type(e).__name__, str(e), out[1:])


def rebind(old):
    global Vec
    if old is not None:
        Vec = old
        return old
    old = Vec
    class Vec(old):
        pass
    return old


def rebound_mid(x):
    """The class's global rebound between two constructions in one call: the second makes the new class."""
    a = Vec(x, 1.0)
    old = rebind(None)
    try:
        b = Vec(x, 2.0)
        return type(a) is old, type(b) is old, type(b).__name__, a.x + b.y
    finally:
        rebind(old)


def spread_checks():
    """*args that only spreads, taken as the caller's values (analysis/star_args.c)."""
    show("spread_run", spread_run, 3)
    show("spread_run none", spread_run, 0)
    show("spread wrong count", spread_wrong, 1)
    frames("spread built short", spread_built, "b")
    frames("spread built long", spread_built, "b", 1, 2)
    show("spread built", spread_built, "b", -0.0)
    show("spread mid", spread_mid, Vec(1.0, 2.0), 3)
    show("spread mid int", spread_mid, Vec(1, 2), 3)  # goes on in the interpreter: *extra as a tuple
    show("spread mid nan", spread_mid, Vec(float("nan"), 2.0), 2 ** 70)
    frames("spread raise", spread_raise, 1)
    show("spread same", spread_same, object())
    show("spread same int", spread_same, 10 ** 20)
    s = Spreader()  # called from the interpreter: the glue passes the tuple's items
    show("spread glue", s.make, Tk, 1.0, 7)
    show("spread glue none", s.make, Tk, 1.0)
    show("spread glue many", lambda: s.via(gather, *range(20)))
    show("spread glue generic", s.via, lambda *a: sum(a), 1, 2.5, True)
    show("spread glue made", lambda: [(type(e).__name__, e.t, e.who) for e in s.made])
    o = object()
    before = sys.getrefcount(o)
    for _ in range(30):
        spread_same(o)
        Spreader().make(Tk, 1.0, o)
        Spreader().via(gather, o)
    print("spread refcount delta", sys.getrefcount(o) - before)


def star_checks():
    def stars():
        return [Star(0.5, 2.0), Star(-1.5, 1.0), Star(2.25, 0.5), Star(4.0, 3.0)]
    show("pull", Cluster(stars()).pull, 0.01)
    show("pull empty", Cluster([]).pull, 0.01)
    show("pull nan inf", Cluster([Star(float("nan"), 1.0), Star(float("inf"), 2.0), Star(-0.0, 1.0)]).pull, 0.0)
    show("pull zero soft", Cluster([Star(1.0, 1.0), Star(1.0, 1.0)]).pull, 0.0)
    show("pull int attr", Cluster([Star(1.0, 1.0), Star(2, 1.0)]).pull, 0.5)
    show("pull subclass", Cluster([Star(1.0, 1.0), BigStar(2.0, 1.0), Star(3.0, 1.0)]).pull, 0.5)
    show("pull str elem", Cluster([Star(1.0, 1.0), "s"]).pull, 0.5)
    show("pull tuple attr", Cluster(tuple(stars())).pull, 0.5)
    gone = Cluster(stars())
    del gone.stars
    show("pull missing attr", gone.pull, 0.5)
    show("shed", Cluster(stars()).shed, 1)
    show("shed never", Cluster(stars()).shed, 9)
    show("drop_light", Cluster(stars() + [Star(1.0, -1.0), Star(8.0, 1.0)]).drop_light)
    show("drop_light all", Cluster([Star(1.0, -1.0)] * 3).drop_light)
    show("last_is", Cluster(stars()).last_is)
    show("last_is empty", Cluster([]).last_is)
    show("zip_words", zip_words, ["a", "bc", "def"], ["xy", "z"])
    show("zip_words empty", zip_words, [], ["q"])
    show("zip_words bad", zip_words, ["a", 3], ["b", "c"])
    show("loose inline values", lambda: inline_values(made_loose(3)))
    show("share_loop", share_loop, 3)
    show("share_loop none", share_loop, 0)
    show("shade literals", shade_ids, [-1.0, 3.0, -2.0, 11.0, 0.0, -0.0, 12.5, float("nan"), float("-inf"),
                                       float("inf"), 1e308, -1e-300])
    show("shade none", shade_ids, [])
    show("caller's objects", caller_ids, 123456.25, 10 ** 12)
    show("caller's objects, edge values", caller_ids, -0.0, -(2 ** 63))
    show("caller's objects, nan", lambda: caller_ids(float("nan"), 0)[:3])
    show("stored once", once_ids, 123456.25, 10 ** 12)
    show("stored once, edge values", once_ids, -0.0, -(2 ** 63))
    show("stored once, nan", lambda: once_ids(float("nan"), 0)[0])
    show("attributes' objects passed on", clock_ids, 123456.25, 10 ** 12, 3)
    show("attributes' objects passed on, edge values", clock_ids, -0.0, -(2 ** 63), 2)
    show("attributes' objects passed on, nan", lambda: clock_ids(float("nan"), 0, 2)[:8])
    show("attributes' objects passed on, inf", clock_ids, float("inf"), 2 ** 62, 1)
    show("attributes' objects passed on, none made", clock_ids, 1.5, 7, 0)
    show("attributes' objects passed on, int64 overflow", clock_ids, 2.5, 2 ** 63 - 2, 3)
    show("attributes' objects passed on, big int", clock_ids, 2.5, 10 ** 20, 2)
    show("attributes' objects passed on, an int time", clock_ids, 3, 7, 2)
    show("attributes' objects passed on, a bool seq", clock_ids, 1.5, True, 2)
    for w, n in ((123456.25, 10 ** 12), (-0.0, -(2 ** 63)), (float("nan"), 2 ** 63 - 1)):
        show("passed on %r" % w, lambda: (lambda sp: [sp.x is w, sp.n is n, sp.x])(sub_pin(w, n)))
    for x in (0.5, -3.0, 9.0, -0.0, 0.0, 1.0, float("nan"), float("inf"), float("-inf")):
        lo, hi = 0.0, 1.0
        show("returned params %r" % x, lambda: (lambda r: (r, [r is x, r is lo, r is hi]))(clamp(x, lo, hi)))
    show("returned params, signed zeros", lambda: [clamp(z, lo, hi) is z for z, lo, hi in
                                                   ((-0.0, 0.0, 1.0), (0.0, -0.0, 1.0), (0.0, 0.0, 0.0))])
    show("returned params, int", lambda: [(lambda n: ident(n) is n)(n) for n in (10 ** 12, -(2 ** 63), 2 ** 63 - 1)])
    show("drain __del__ order", run_drain, 5)
    show("drain empty", run_drain, 0)


def checks():
    star_checks()
    show("census", census_run, 5)
    show("census none", census_run, 0)
    show("relay", relay_sum, 4)
    show("relay missing", lambda: Relay(Census(1.0)).nothing)
    saved = Census.worth
    Census.worth = lambda self: -self.v
    show("census patched", census_run, 3)
    Census.worth = saved
    show("census restored", census_run, 3)
    saved = Census.worth.__code__  # the same function, another def's code: the class's lookups give
    Census.worth.__code__ = (lambda self: -self.v * 3.0).__code__  # the same object, which is not enough
    show("census code swapped", census_run, 3)
    Census.worth.__code__ = saved
    show("census code restored", census_run, 3)
    meter_checks()
    for k in (0, 1, -1, 7, 2 ** 15, 2 ** 20, -2 ** 31, 2 ** 62, 2 ** 63 - 1, -2 ** 63, 2 ** 70, True):
        lg = Ledger()
        show("ledger charge %r" % k, lambda: (lg.charge(k), lg.log, lg.n))
        show("ledger spread %r" % k, lambda: (lg.spread(k, k), lg.n))
        show("ledger spread step %r" % k, lambda: (lg.spread(45, k), lg.n))
        show("ledger guarded %r" % k, lambda: (lg.guarded(k), lg.log))
    show("ledger float", lambda: Ledger().charge(1.5))
    show("ledger str", lambda: Ledger().charge("ab"))
    spread_checks()
    # layouts: one test of the class for a run's reads of an instance
    g = [Gap(0.5 * i, -0.0 if i else float("inf"), 2.0) for i in range(4)]
    show("layouts", gaps, g)
    show("layouts same", gap, g[1], g[1])
    show("layouts nan", gap, Gap(float("nan"), 1.0, 1.0), g[2])
    show("layouts int", gap, Gap(3, 4.0, 1.0), g[2])
    show("layouts big int", gap, g[2], Gap(1.0, 2 ** 70, 1.0))
    show("layouts str", gap, g[2], Gap(1.0, 2.0, "w"))
    e = Gap(1.0, 2.0, 3.0)
    del e.y
    show("layouts empty slot", gap, g[1], e)
    f = Gap(1.0, 2.0, 3.0)
    f.__class__ = GapB
    show("layouts subclass", gap, g[1], f)
    b, c = Gap(1.0, 2.0, 3.0), Probe()
    show("layouts probe", gap_mix, b, c)
    Probe.v = property(probe_v)  # a data descriptor: c's own v is not read
    show("layouts probe property", gap_mix, b, c)
    SWITCH.append(b)
    show("layouts switched mid-run", gap_mix, b, c)
    print("layouts switched class", type(b).__name__, SWITCH)
    for k in (1, 0, -1):
        show("layouts in branches", gap_pick, g[1], g[2], k)
        show("layouts in branches, one missing", gap_pick, g[1], e, k)
    b = Gap(1.0, 2.0, 3.0)
    show("layouts branch probe", gap_branch, b, c)
    SWITCH.append(b)
    show("layouts branch switched", gap_branch, b, c)
    b = Gap(-1.0, 2.0, 3.0)
    SWITCH.append(b)
    show("layouts other branch", gap_branch, b, c)
    SWITCH.clear()
    # floats stored in runs: in place only when nothing else holds the float
    for cls in (Pm, Pd):
        ps = [cls(0.5, 1.0, 2.0), cls(1.5, -1.0, 0.5), cls(9.5, 0.0, 0.25)]
        show("layouts stores " + cls.__name__, pushes, ps, 3)
        print("  after", [(p.vx, p.vy) for p in ps])
        f = 1.25
        shared = cls(f, f, 2.0)
        held = shared.vy
        show("layouts stores shared " + cls.__name__, pushes, [shared, shared], 2)
        print("  after", f, held, shared.vx, shared.vy, shared.vx is f, held is shared.vy)
        show("layouts stores int mass " + cls.__name__, pushes, [cls(0.5, 1.0, 2)], 1)
        show("layouts stores str " + cls.__name__, pushes, [cls(0.5, "s", 2.0)], 1)
        e = cls(0.5, 1.0, 2.0)
        del e.vy
        show("layouts stores missing " + cls.__name__, pushes, [cls(0.5, 1.0, 2.0), e], 1)
    d = Pd(0.5, 1.0, 2.0)
    d.__dict__["extra"] = 1
    show("layouts stores dict", pushes, [d, Pd(1.0, 1.0, 1.0)], 1)
    print("  after", d.vx, d.vy)
    del LOG[:]
    q = Pl(0.5, 1.0, 2.0)
    show("layouts stores own __setattr__", pushes, [q, q, Pl(20.0, 1.0, 2.0)], 1)  # q's floats: its own
    print("  log", LOG[:])
    del LOG[:]
    Pd.__setattr__ = logged_setattr  # stores through Python code from now on
    show("layouts stores __setattr__", pushes, [Pd(0.5, 1.0, 2.0), Pd(20.0, 1.0, 2.0)], 1)
    print("  log", LOG[:])
    del Pd.__setattr__
    vs = [Vec(1.0 * i, 2.0) for i in range(6)]
    show("plain", total_norm, vs)
    show("grow", grow, Vec(0.25, -1.5), 3)
    show("pair", pair_dot, Vec(3.0, 4.0), Vec(-0.0, float("inf")))
    show("nan", pair_dot, Vec(float("nan"), 1.0), Vec(2.0, 2.0))
    # an attribute of another type than recorded: an int, a big int, a str
    show("int attr", pair_dot, Vec(3, 4), Vec(1.5, 2.5))
    show("big int attr", pair_dot, Vec(2 ** 70, 1.0), Vec(1.0, 1.0))
    show("str attr", pair_dot, Vec("a", 1.0), Vec(2, 1.0))
    # a missing attribute
    w = Vec(1.0, 2.0)
    del w.y
    show("missing", pair_dot, Vec(1.0, 1.0), w)
    # a materialised __dict__
    d = Vec(5.0, 6.0)
    d.__dict__["extra"] = 1
    show("dict", pair_dot, d, Vec(1.0, 1.0))
    # slots, and an attribute holding an instance
    bodies = [Body(Vec(0.5, 1.5), 2.0) for _ in range(3)]
    show("slots", energies, bodies, Vec(1.0, 2.0))
    print("hits", [b.hits for b in bodies])
    bodies[1].pos = (1, 2)
    show("slot of another type", energies, bodies, Vec(1.0, 2.0))
    print("hits", [b.hits for b in bodies])
    # a subclass: another type
    class Vec3(Vec):
        def dot(self, o):
            return -1.0
    show("subclass", total_norm, [Vec3(3.0, 4.0), Vec(3.0, 4.0)])
    # a local holding an instance or None: reads known not None are typed (narrow.c)
    show("optional", nearest_x, vs, 3.5)
    show("optional none", nearest_x, vs, -1.0)
    show("optional empty", nearest_x, [], 1.0)
    show("optional subclass", nearest_x, [Vec(1.0, 2.0), Vec3(2.0, 3.0)], 5.0)
    show("optional walk", walk_optional, vs[:4], 9)
    show("optional walk nan", walk_optional, [Vec(float("nan"), 1.0), Vec(2.0, -0.0)], 5)
    show("optional rebound", opt_rebound, [Vec(2.0, 1.0)])
    show("optional rebound None", opt_rebound, [Vec(-2.0, 1.0)])
    # a typing.NamedTuple (fields read as tuple items) and a dataclass with slots=True
    pts = [Pt(1.0, 2.0), Pt(-0.0, float("inf")), Pt(float("nan"), 3.5)]
    show("namedtuple", tuple_ops, pts, 0.5)
    show("namedtuple int field", tuple_ops, [Pt(3, 4), Pt(1.0, 2.0)], 2.0)
    show("namedtuple short", tuple_ops, [Pt(1.0, 2.0), tuple.__new__(Pt, (1.0,))], 2.0)
    show("namedtuple subclass", tuple_ops, [type("Pt2", (Pt,), {})(1.0, 2.0)], 2.0)
    saved_n = Pt.norm2
    Pt.norm2 = lambda self: -1.0
    show("namedtuple patched", tuple_ops, pts[:1], 0.5)
    Pt.norm2 = saved_n
    show("namedtuple restored", tuple_ops, pts[:1], 0.5)
    cells = [Cell(1.0), Cell(2.0, 0.5), Cell(-0.0, float("nan"))]
    show("slots dataclass", cell_ops, cells, 0.25)
    print("cells", [(c.v, c.w) for c in cells])
    gone = Cell(1.0)
    del gone.w
    show("slots dataclass missing", cell_ops, [Cell(1.0), gone], 0.25)
    show("slots dataclass int", cell_ops, [Cell(1, 2)], 3)
    # truth tests narrow a "Bag | None" local too (a false instance is not None either)
    show("truthy", first_full, [Sack(1.0, 0), Sack(2.5, 2), Sack(4.0, 1)])
    show("truthy none", first_full, [Sack(1.0, 0), Sack(-0.0, 0)])
    show("truthy empty", first_full, [])
    show("truthy bad len", first_full, [Sack(1.0, -1)])
    show("truthy int attr", first_full, [Sack(3, 1)])
    show("mixed_sum", mixed_sum, [Bag(1, 2), Bag(2.5, 3), Bag(2**70, 2), Bag(-0.0, 1), Bag("ab", 2)])
    show("mixed_sum empty", mixed_sum, [])
    six = [S1(1.0), S2(2.0), S3(4.0), D1(0.5), D2(0.25), P1(), S1(8.0), D2(16.0)]
    show("layouts_sum", layouts_sum, six, 3)
    show("layouts_sum reversed", layouts_sum, six[::-1], 2)
    offsets = [c(float(2 ** k)) for k, c in enumerate(SLOTTED)]
    show("layouts_sum offsets", layouts_sum, offsets, 3)
    show("layouts_sum offsets mixed", layouts_sum, [o for pair in zip(offsets, six) for o in pair][::-1], 3)
    show("layouts_sum interleaved", layouts_sum, [o for pair in zip(six, six[::-1]) for o in pair], 2)
    d = D2(1.0)
    d.__dict__  # materialised: the generic path
    del d.x
    show("layouts_sum missing", layouts_sum, [S1(1.0), D1(2.0), d], 1)
    s3 = S3(3.0)
    del s3.x
    show("layouts_sum empty slot", layouts_sum, [S2(1.0), S3(2.0), s3], 1)
    show("mixed_sum property", mixed_sum, [Bag(1, 2), MixedV(3), Bag(0.5, 1), MixedV(1)])
    show("mixed_sum error", mixed_sum, [Bag(1, 2), Bag(None, 1)])
    # bool(q) runs Python code (__len__): a read it guards in the same expression stays generic
    show("truth in expr", truth_in_expr, [Bag(3, 1)], 0.5)
    show("truth in expr false", truth_in_expr, [Bag(3.0, 0)], 0.5)
    # int attributes: int64 values in C (an overflow, a big int, a float or a bool: CPython's)
    show("int attrs", tally, Tally(), 100)
    t = Tally()
    t.total = 2 ** 63 - 10
    show("int attr overflow", tally, t, 5)
    show("int attr big", tally, t, 2)
    t.n = 1.5
    show("int attr float", tally, t, 2)
    t.n = True
    show("int attr bool", tally, t, 2)
    del t.n
    show("int attr missing", tally, t, 2)
    # objects of several classes: heapq's comparisons and fire() served by kernels whose
    # attribute reads are the numbers the classes recorded, checked per read
    show("drain", drain, mixed_events(2))
    show("drain int time", drain, mixed_events(3) + [EvB(1, 99), EvC(True, 98), EvD(2 ** 70, 97)])
    show("drain nan", drain, [EvB(float("nan"), 1), EvB(-0.0, 2), EvC(0.0, 3), EvD(float("inf"), 4)])
    show("drain big seq", drain, [EvB(1.0, 2 ** 70), EvC(1.0, -2 ** 70), EvD(1.0, 5)])
    show("drain str time", drain, [EvB(1.0, 1), EvC("soon", 2)])
    class Foreign:  # not a class of the module: its attributes are whatever they hold
        def __init__(self, time, seq):
            self.time, self.seq = time, seq
    show("stamp", stamp, EvA(2.5, 3, "x"), EvB(-0.0, 1))
    show("stamp foreign", stamp, Foreign(1.5, 2), EvC(0.5, 1))
    show("stamp foreign ints", stamp, Foreign(7, 2), Foreign(5, 2 ** 63))
    show("stamp foreign str", stamp, Foreign("a", 2), EvC(0.5, 1))
    show("stamp missing", stamp, EvC.__new__(EvC), EvC(0.5, 1))
    # heapq in a kernel: each comparison through the compiled __lt__ of the left item's class,
    # CPython's where it would call something else first (a subclass's reflected __gt__)
    for k in range(3):
        show("heap mix", heap_run, [], heap_mix(k), 14)
    show("heap later", heap_run, [], heap_mix(1) + [Later(50), EvN(0.5, 60), Later(51)], 17)
    show("heap plain", heap_run, [], [EvN(1.0, 1), EvN(0.5, 2), Plain()], 3)
    show("heap plain ev", heap_run, [], [EvB(1.0, 1), EvC(0.5, 2), Plain()], 3)
    show("heap nan", heap_run, [], [EvB(float("nan"), 1), EvC(0.5, 2), EvD(float("nan"), 3), EvA(-0.0, 4, "z")], 4)
    show("heap str time", heap_run, [], [EvB(1.0, 1), EvC("soon", 2)], 2)
    # EvA < EvC through the kernel compiled for that pair: an int time (it deoptimises), then
    # EvC changed after the build (a property over the slot: its version tag, then CPython's)
    show("heap int time", heap_run, [], [EvC(2, 2), EvA(1.0, 1, "w"), EvA(2, 3, "v"), EvC(-0.0, 4)], 4)
    items = [EvC(2.0, 2), EvA(1.0, 1, "w"), EvC(0.5, 4), EvA(0.1, 3, "v"), EvA(0.3, 5, "u")]
    EvC.time = property(lambda self: 0.25)
    show("heap right patched", heap_run, [], items, 5)
    del EvC.time
    show("heap right restored", heap_run, [], [EvC(2.0, 2), EvA(1.0, 1, "w"), EvC(0.5, 4)], 3)
    del LOG[:]
    show("heap reflected", heap_run, [], [EvB(1.0, 5), EvR(1.0, 2), EvB(1.0, 3), EvR(0.5, 1)], 4)
    print("log", LOG.count("EvR.__gt__"))
    show("heap not a list", heap_run, (), [EvB(1.0, 1)], 0)
    show("heap empty pop", heap_run, [], [], 1)
    show("heap partial", heap_run, [EvC(0.0, 7)], [EvB(1.0, 1), EvD(0.5, 2)], 2)
    show("heap nested comparisons", nest_push, 40)
    show("heap nested comparisons past the recursion limit", nest_limit, 10 ** 6)
    class Heap(list):
        pass
    show("heap subclass", heap_run, Heap(), heap_mix(0), 5)
    del GROWN[:]
    show("heap grown", heap_run, GROWN, [EvM(1.0, 1), EvM(0.5, 2), EvM(0.2, 3)], 1)
    saved_push = heapq.heappush
    heapq.heappush = lambda h, x: h.insert(0, x)  # patched after the build: called as it is
    show("heap push patched", heap_run, [], heap_mix(1)[:4], 4)
    heapq.heappush = saved_push
    saved_lt = Ev.__lt__
    Ev.__lt__ = lambda self, other: self.seq > other.seq  # the class changed: CPython's comparison
    show("heap lt patched", heap_run, [], heap_mix(2)[:6], 6)
    Ev.__lt__ = saved_lt
    show("heap lt restored", heap_run, [], heap_mix(2)[:6], 6)
    # a method call on objects of several recorded classes: each class's kernel, else CPython's call
    items = [PA(1.5), PB(2.0), PC(0.5), PD(3.0), PA(-0.0), PB(-7.5)]
    for k in [2, 0.5, -0.0, float("nan"), float("inf"), 2 ** 70, True, -1, "s", None]:
        del LOG[:]
        show("poly %r" % (k,), poly_sum, items, k)
        print("log", LOG)
    for k in [2, float("nan"), "s"]:
        del LOG[:]
        show("poly index %r" % (k,), poly_index, items, k)
        show("poly attr %r" % (k,), poly_attr, [Carrier(it) for it in items], k)
        show("poly index logged %r" % (k,), poly_index, Logged(items), k)
        print("log", LOG)
    own = PA(1.0)
    own.val = lambda k: ("own", k)  # an instance attribute shadows the class's method
    show("poly own", poly_sum, [own, PB(1.0), own], 2)
    class PE(PA):  # a subclass the profile never saw
        def val(self, k):
            return ("PE", k)
    show("poly unrecorded", poly_sum, [PE(1.0), PA(1.0), PE(2.0), PD(1.0)], 2)
    show("poly index unrecorded", poly_index, [PE(1.0), PA(1.0), own], 2)
    show("poly attr unrecorded", poly_attr, [Carrier(PE(1.0)), Carrier(own), Carrier(PB(1.0))], 2)
    saved_val = PB.val
    PB.val = lambda self, k: ("patched PB", k)
    show("poly patched", poly_sum, items, 2)
    PB.val = saved_val
    saved_val = PA.val
    show("poly patched mid-loop", poly_sum, [PA(1.0), PF(1.0), PA(2.0), PD(1.0)], 2)
    PA.val = saved_val
    show("poly restored", poly_sum, items, 2)
    del PB.val  # PB and PD now find PA.val
    show("poly deleted", poly_sum, items, 2)
    PB.val = saved_pb = lambda self, k: int(self.v) + k
    show("poly readded", poly_sum, items, 2)
    kitems = [PK(1.5), PK2(2.0), PK3(0.5), PK(-0.0)]
    for k in [2.0, -0.0, float("nan"), 2 ** 70, "s"]:
        show("poly keywords %r" % (k,), poly_kw, kitems, k)
    saved_kwd = PK2.scaled.__kwdefaults__
    PK2.scaled.__kwdefaults__ = {"by": 9.0}
    show("poly keywords, new __kwdefaults__", poly_kw, kitems, 2.0)
    PK2.scaled.__kwdefaults__ = saved_kwd
    show("poly keywords restored", poly_kw, kitems, 2.0)
    # parameters left to their defaults, read when the call runs
    del LOG[:]
    for x in [2.0, -0.0, float("nan"), 3, 2 ** 70, "s"]:
        show("defaults %r" % (x,), use_defaults, Acc(1.5), x)
    show("defaults subclass", use_defaults, Acc2(1.5), 2.0)
    show("defaults super", use_defaults, Acc3(1.5), 2.0)
    show("defaults super nan", use_defaults, Acc3(float("nan")), -0.0)
    saved_defaults = Acc.add.__defaults__
    for d in [(3, None, 4), (1.5, "tagged", 1), (2.0, None, 2 ** 70), (0.5, None), (2.0,), None]:
        Acc.add.__defaults__ = d
        show("defaults %r" % (d,), use_defaults, Acc(1.5), 2.0)
        show("defaults super %r" % (d,), use_defaults, Acc3(1.5), 2.0)
    Acc.add.__defaults__ = saved_defaults
    print("log", LOG)
    saved_add = Acc.add
    Acc.add = lambda self, x, scale=-1.0, tag=None, n=0: ("patched", x, scale, tag, n)
    show("defaults patched", use_defaults, Acc(1.5), 2.0)
    Acc.add = saved_add
    a = Acc(1.5)
    a.add = lambda x, scale=5.0, tag=None, n=1: ("own", x, scale, tag, n)
    show("defaults own", use_defaults, a, 2.0)
    show("defaults restored", use_defaults, Acc(1.5), 2.0)
    # a class held in a value: constructed directly (a plain __init__), or as CPython does
    for kind, a in [(Vec, 1.5), (Third, -0.0), (Checked, 2.0), (Checked, -1.0), (Checked, 13),
                    (Fresh, 1.0), (Metered, 2.0), (Listed, 3.0), (Pending, 1.0), (Vanishing, 4.0),
                    (Vanishing, 5.0), (Point, 1.0), (Pt, 1.0), (int, 2), (dict, 1.0), (Vec.dot, 1.0)]:
        show("made_by %s" % getattr(kind, "__name__", kind), made_by, kind, a, 2.0)
        show("made_by %s extra" % getattr(kind, "__name__", kind), made_by, kind, a, 2.0, 7.0)
        show("made_by %s two extra" % getattr(kind, "__name__", kind), made_by, kind, a, 2.0, 7.0, 8.0)
    print("log", LOG.count("Fresh.__new__"), LOG.count("Counting.__call__"))
    saved_init = Vec.__init__
    Vec.__init__ = lambda self, x, y=0.0: setattr(self, "x", x * 10) or setattr(self, "y", y)
    show("made_by patched", made_by, Vec, 1.0, 2.0)
    Vec.__init__ = lambda self, x, y=0.0: 5
    show("made_by returns", made_by, Vec, 1.0, 2.0)
    Vec.__init__ = saved_init
    show("made_by restored", made_by, Vec, 1.0, 2.0)
    class Tup(tuple):
        pass
    for kind, a, rest in [(Vec, 1.0, (2.0,)), (Third, 1.0, (2.0, 3.0)), (Third, 1.0, (2.0,)), (Vec, 1.0, ()),
                          (Vec, 1.0, [2.0]), (Vec, 1.0, Tup((2.0,))), (Vec, 1.0, (2.0, 3.0)), (Checked, -1.0, (2.0,)),
                          (Checked, 13, (2.0,)), (Checked, 2.0, (-0.0,)), (Fresh, 1.0, (2.0,)), (Metered, 1.0, (2.0,)),
                          (Pending, 1.0, (2.0,)), (Vanishing, 6.0, (2.0,)), (Vec, 2 ** 70, ("s",)), (Vec, 1.0, iter([5]))]:
        show("made_from %s %s %s" % (kind.__name__, type(rest).__name__, getattr(rest, "__len__", list)()),
             made_from, kind, a, rest)
    for kind in [Vec, Checked, Third, Fresh, Metered, Pending, lambda a, b: Vec(b, a)]:
        show("made_pair %s" % kind.__name__, made_pair, kind, 1.0, 2.0)
    for v in [Vec(1.0, 2.0), Vec(1.0, "s"), Vec(-0.0, None), Vec("t", 2.0)]:
        show("made_mid %r %r" % (v.x, v.y), made_mid, Vec, v)
    show("made_mid Third", made_mid, Third, Vec(1.0, 2.0))
    for v in [Vec(1.0, 2.0), Vec(1.5, "s"), Vec(-0.0, None), Vec(2.0, 2 ** 70), Vec(2.0, 3)]:
        del LOG[:]
        show("star_mid %r" % (v.y,), star_mid, triple, v, (3.0,))
        show("star_mid two %r" % (v.y,), star_mid, triple, v, (3.0, 4.0))
        show("star_kw_mid %r" % (v.y,), star_kw_mid, triple, v, (3.0,))
        show("star_kw_mid iterator %r" % (v.y,), star_kw_mid, triple, v, iter([3.0]))  # spent once spread
        show("kw_mid %r" % (v.y,), kw_mid, triple, v)
        show("dstar_mid %r" % (v.y,), dstar_mid, triple, v, {"b": 1.5})
        show("dstar_mid mapping %r" % (v.y,), dstar_mid, triple, v, LoggedMap({"b": 1.5}))
        show("dstar_mid twice %r" % (v.y,), dstar_mid, triple, v, LoggedMap({"b": 1.5, "c": 0.5}))
        show("chain_mid %r" % (v.y,), chain_mid, v, 9.0)
        show("chain_mid low %r" % (v.y,), chain_mid, v, 0.0)
        show("chain_mid3 %r" % (v.y,), chain_mid3, v)
        show("list_mid %r" % (v.y,), list_mid, v)
        show("dict_mid %r" % (v.y,), dict_mid, v)
        show("set_mid %r" % (v.y,), set_mid, v)
        show("set_obj_mid str %r" % (v.y,), set_obj_mid, v, "o")
        show("set_obj_mid int %r" % (v.y,), set_obj_mid, v, 2 ** 70)
        show("fstring_mid %r" % (v.y,), fstring_mid, v)
        show("raise_mid %r" % (v.y,), raise_mid, v)
        show("aug_attr_mid %r" % (v.y,), aug_attr_mid, Vec(1.5, 0.0), v)
        show("rec_aug_mid %r" % (v.y,), rec_aug_mid, v)
        for i in (0, 1, -1, 2):
            show("aug_item_mid %r %d" % (v.y, i), aug_item_mid, [1.5, 2.5], v, i)
            show("aug_index_mid %r %d" % (v.y, i), aug_index_mid, [1.5, 2.5], v, i)
        show("aug_other_mid %r" % (v.y,), aug_other_mid, [Vec(1.5, 0.0), {"k": 0.5}], v)
        show("aug_other_mid no key %r" % (v.y,), aug_other_mid, [Vec(1.5, 0.0), {}], v)
        show("for_mid %r" % (v.y,), for_mid, v)
        show("for_obj_mid %r" % (v.y,), for_obj_mid, v)
        show("chain_obj_mid %r" % (v.y,), chain_obj_mid, v)
        show("chain_obj_mid3 %r" % (v.y,), chain_obj_mid3, v)
        show("assert_mid %r" % (v.y,), assert_mid, v)
        show("assert_mid low %r" % (v.y,), assert_mid, Vec(9.0, v.y))
        print("log", LOG)
    for late in [0.5, 3.0, 0, 2 ** 70, -2 ** 70, "s", None, True]:
        for pass_ in range(3):
            for n in (2, 5):
                del LOG[:]
                vs = [Vec(1.0, 2.0) for _ in range(pass_)] + [Vec(1.0, late)]
                show("while_mid %r pass %d n %d" % (late, pass_, n), while_mid, vs, n)
                print("log", LOG)
    for n in range(3):  # the float a logged write replaced: released as the call ends
        old = float("1e%d" % (300 + n)) * 1.5
        into = [old, 2.0]
        before = sys.getrefcount(old)
        show("made_into", made_into, Slotted, 5.0 + n, 1.0, into)
        print("made_into", into, sys.getrefcount(old) - before)
    saved_init = Third.__init__
    Third.__init__ = lambda self, x, y, z=-1.0: Vec.__init__(self, -x, y)
    show("made_from patched", made_from, Third, 1.0, (2.0, 3.0))
    Third.__init__ = saved_init
    show("made_from restored", made_from, Third, 1.0, (2.0, 3.0))
    for k in [3, 0, -0.0, 2 ** 70, float("nan"), "s", None, (1, 2)]:
        show("fill", fill, Queue(), k)
    for k in [1.5, -0.0, 7, "s"]:
        show("parts", parts_sum, k)
    show("fill subclass", fill, LoudQueue(), 3)
    print("log", LOG[-4:])
    q = Queue()
    q.put = lambda kind, *extra: len(extra) + 100  # shadowed by the instance
    show("fill shadowed", fill, q, 3)
    saved_put = Queue.put
    Queue.put = lambda self, *extra: len(extra) * 10  # patched after the build
    show("fill patched", fill, Queue(), 3)
    Queue.put = saved_put
    show("fill restored", fill, Queue(), 4)
    show("whole_parts", whole_parts, EvB(2.5, 1))
    show("whole_parts int", whole_parts, EvB(3, 1))
    saved_lt = Ev.__lt__
    Ev.__lt__ = lambda self, other: self.seq > other.seq  # patched after the build
    show("drain patched", drain, mixed_events(4))
    Ev.__lt__ = saved_lt
    evs, c3 = mixed_events(5), EvC(1.0, 3)
    EvC.time = property(lambda self: 100.0 + self.seq)  # a subclass's property shadows the slot
    show("drain property", drain, evs)
    show("stamp property", stamp, c3, EvB(1.0, 3))
    del EvC.time
    show("drain restored", drain, mixed_events(6))
    # a method shadowed by an instance attribute
    s = Vec(3.0, 4.0)
    s.dot = lambda o: 100.0
    show("shadowed", total_norm, [Vec(3.0, 4.0), s])
    # a method patched onto the class after the build, then restored
    saved = Vec.dot
    Vec.dot = lambda self, o: 4.0
    show("patched", total_norm, vs)
    Vec.dot = saved
    show("restored", total_norm, vs)
    # patched while a kernel loops: its next call sees the new method
    class Patcher:
        def __init__(self):
            self.x, self.y, self.n = 0.0, 0.0, 0
    calls = []
    def patch_dot(self, o):
        calls.append(1)
        if len(calls) == 3:
            Vec.norm = lambda self: 1000.0
        return self.x * o.x + self.y * o.y
    Vec.dot = patch_dot
    saved_norm = Vec.norm
    show("patched mid-loop", total_norm, vs)
    Vec.dot, Vec.norm = saved, saved_norm
    show("restored again", total_norm, vs)
    # the class name rebound in the module
    Old = rebind(None)
    show("rebound grow", grow, Old(1.0, 2.0), 2)
    rebind(Old)
    show("rebound back", grow, Old(1.0, 2.0), 2)
    show("rebound mid-call", rebound_mid, 1.5)
    show("rebound mid-call again", rebound_mid, -0.0)
    # operators of instances (their dunders called directly), and construction
    show("chain", chain, Vec(1.0, 2.0), Vec(0.5, -3.0), 2.0)
    show("chain int k", chain, Vec(1.0, 2.0), Vec(0.5, -3.0), 3)
    show("chain inf", chain, Vec(float("inf"), 2.0), Vec(0.5, -0.0), -1.0)
    show("maybe", add_maybe, Maybe(1.0), Maybe(2.5))
    show("maybe NotImplemented", add_maybe, Maybe(-1.0), Maybe(2.5))
    w = Vec(1.0, 2.0)
    w.__add__ = lambda o: "instance attribute"  # special methods are looked up on the type
    show("dunder on instance", chain, w, Vec(0.5, -3.0), 2.0)
    saved_add, saved_init = Vec.__add__, Vec.__init__
    Vec.__add__ = lambda self, o: Vec(100.0, 100.0)
    show("patched __add__", chain, Vec(1.0, 2.0), Vec(0.5, -3.0), 2.0)
    Vec.__add__ = saved_add
    def init3(self, x, y):
        self.x, self.y = x * 3, y * 3
    Vec.__init__ = init3
    show("patched __init__", chain, Vec(1.0, 2.0), Vec(0.5, -3.0), 2.0)
    Vec.__init__ = saved_init
    show("restored ops", chain, Vec(1.0, 2.0), Vec(0.5, -3.0), 2.0)
    # augmented stores of float attributes: unboxed, checked reads
    show("shift", Vec(1.0, 2.0).shift, 0.25)
    show("shift int", Vec(1.0, 2.0).shift, 3)
    show("shift nan", Vec(1.0, 2.0).shift, float("nan"))
    show("shift int attr", Vec(1, 2).shift, 0.5)
    show("shift str attr", Vec("a", 2.0).shift, 0.5)
    u = Vec(1.0, 2.0)
    del u.y
    show("shift missing", u.shift, 0.5)
    print("after missing", u.x)
    show("strict", strict_sum, [1.0, 2.5])
    show("strict raises", strict_sum, [1.0, -2.5])
    show("strict int", strict_sum, [1, 2])
    # special methods of Num: unary, abs, reflected, comparisons (reflected
    # too), in-place, len, item; patched after the build; errors
    show("num ops", num_ops, Num(1.5), Num(2.5), 0.5)
    show("num ops nan", num_ops, Num(float("nan")), Num(2.5), -0.0)
    show("num ops int", num_ops, Num(3), Num(3.0), 2)
    show("num ops -0.0", num_ops, Num(-0.0), Num(0.0), 0.0)
    show("len", num_len, Num(7.9))
    show("len negative", num_len, Num(-3.0))
    show("len huge", num_len, Num(1e30))
    show("len nan", num_len, Num(float("nan")))
    show("item", num_item, Num(3.0), 4.0)
    show("item raises", num_item, Num(3.0), 11.0)
    saved_abs, saved_lt, saved_iadd = Num.__abs__, Num.__lt__, Num.__iadd__
    Num.__abs__ = lambda self: Num(99.0)
    Num.__lt__ = lambda self, o: "patched lt"
    show("patched abs lt", num_ops, Num(1.5), Num(2.5), 0.5)
    Num.__abs__, Num.__lt__ = saved_abs, saved_lt
    del Num.__iadd__
    show("no __iadd__", num_ops, Num(1.5), Num(2.5), 0.5)
    Num.__iadd__ = lambda self, k: Num(self.v - k)
    show("new __iadd__", num_ops, Num(1.5), Num(2.5), 0.5)
    Num.__iadd__ = saved_iadd
    show("restored __iadd__", num_ops, Num(1.5), Num(2.5), 0.5)
    show("accumulate", accumulate, [Vec(1.0, 2.0), Vec(0.5, -0.0)])
    Vec.__iadd__ = lambda self, o: Vec(-1.0, -1.0)
    show("patched __iadd__", accumulate, [Vec(1.0, 2.0), Vec(0.5, -0.0)])
    del Vec.__iadd__
    show("removed __iadd__", accumulate, [Vec(1.0, 2.0), Vec(0.5, -0.0)])
    show("cmp", cmp_maybe, Cmp(1.0), Cmp(2.0))
    show("cmp NotImplemented", cmp_maybe, Cmp(-1.0), Cmp(2.0))
    # super().m(), Base.m(self), staticmethods and properties
    show("shapes", shapes, Rect(1.5, 2.0), 0.5)
    show("shapes nan", shapes, Rect(float("nan"), -0.0), float("inf"))
    show("shapes raising property", shapes, Rect(-1.0, 2.0), 0.5)
    show("make rect", make_rect, 2.5, 3.0)
    show("make rect int", make_rect, 2.5, 3)
    show("make square", make_square, 4.0)
    r = Rect(1.5, 2.0)
    r.__dict__["double"] = "instance"  # a property is a data descriptor: it wins
    r.twice = lambda v: -100.0  # a staticmethod is not: the instance's wins
    show("shadowed static", shapes, r, 0.5)
    saved_area, saved_twice, saved_double = Shape.area, Shape.__dict__["twice"], Shape.__dict__["double"]
    Shape.area = lambda self, k: -1.0
    show("patched base area", shapes, Rect(1.5, 2.0), 0.5)
    show("patched base area square", make_square, 4.0)
    Shape.area = saved_area
    Shape.twice = staticmethod(lambda v: 1000.0)
    Shape.double = property(lambda self: 7.0)
    show("patched static property", shapes, Rect(1.5, 2.0), 0.5)
    Shape.twice, Shape.double = saved_twice, saved_double
    show("restored shapes", shapes, Rect(1.5, 2.0), 0.5)
    saved_init = Shape.__init__
    Shape.__init__ = lambda self, w: setattr(self, "w", -w)
    show("patched base init", make_square, 4.0)
    Shape.__init__ = saved_init
    show("restored init", make_square, 4.0)
    # super().__init__(w) made without a super object while the builtin is it: a global
    # `super` shadowing it, the __class__ cell rebound, a subclass nobody recorded
    import builtins
    builtins_super = builtins.super
    globals()["super"] = lambda: (LOG.append("super()"), builtins_super(Rect, LAST[0]))[1]
    LAST[:] = [Square.__new__(Square)]
    show("shadowed super", lambda: (Rect.__init__(LAST[0], 2.0, 3.0), LAST[0].w, LAST[0].h, LOG[-1])[1:])
    del globals()["super"]
    show("unshadowed super", make_square, 4.0)
    cell = Rect.__init__.__closure__[0]
    cell.cell_contents = Shape
    show("rebound class cell", make_square, 4.0)
    cell.cell_contents = Rect
    show("restored class cell", make_square, 4.0)
    class Square3(Rect):
        pass
    show("unrecorded subclass", lambda: (lambda q: (q.w, q.h, type(q).__name__))(Square3(2.0, 5.0)))
    # a property with a setter: both kernels called directly; the setter raising; patched
    show("box", box_grow, Box(1.0), 2.0)
    show("box nan", box_grow, Box(float("nan")), -0.0)
    show("box raises", box_grow, Box(1.0), -2.0)
    show("box flag", box_flag, Box(1.0), 0.5)
    show("box flag false", box_flag, Box(-1.0), -0.0)
    bx = Box(1.0)
    bx.__dict__["w"] = "instance"  # a property is a data descriptor: it wins for stores too
    show("box shadowed", box_grow, bx, 2.0)
    saved_w = Box.__dict__["w"]
    Box.w = property(saved_w.fget, lambda self, v: setattr(self, "_w", -v))
    show("box patched setter", box_grow, Box(1.0), 2.0)
    Box.w = saved_w
    show("box restored", box_grow, Box(1.0), 2.0)
    # dataclasses: their generated __init__/__eq__/__repr__ are CPython's
    show("point", point_ops, Point(1.0, 2.0), Point(0.5))
    show("point int", point_ops, Point(1, 2), Point(0.5, -0.0))
    saved_dist2 = Point.dist2
    Point.dist2 = lambda self, o: -1.0
    show("point patched", point_ops, Point(1.0, 2.0), Point(0.5))
    Point.dist2 = saved_dist2
    saved_origin = Point.__dict__["origin"]
    Point.origin = classmethod(lambda cls, y: cls(5.0, -y))
    show("point patched classmethod", point_ops, Point(1.0, 2.0), Point(0.5))
    Point.origin = saved_origin
    show("point restored", point_ops, Point(1.0, 2.0), Point(0.5))
    show("frozen", frozen_ops, Frozen(1.0))
    # a dataclass's generated __init__: a kernel synthesised from the fields, while the class's
    # __init__ is the one dataclasses generated for them (else CPython's call)
    show("dataclass walk", dc_walk, 40)
    show("dataclass make", dc_make, 1.5, -0.0)
    show("dataclass make nan inf", dc_make, float("nan"), float("-inf"))
    show("dataclass make int str", dc_make, 10 ** 20, "s")
    show("dataclass other", dc_other, 2.5)
    show("dataclass other nan", dc_other, float("nan"))
    frames("dataclass other nan frames", dc_other, float("nan"))
    show("dataclass short", dc_short, 1.0)
    for x, y in ((float("nan"), 2.0), (1.5, -0.0), (float("inf"), float("nan")), (10 ** 20, 2.0), (3, 4)):
        show("dataclass ids %r %r" % (x, y), same_objects, x, y)
    show("dataclass chain", dc_chain, 1.5)
    show("dataclass chain nan", dc_chain, float("nan"))
    show("dataclass chain str", dc_chain, "s")
    show("made with defaults", made_defaults, 1.5, -0.0)
    saved_defaults = PDef.__init__.__defaults__
    PDef.__init__.__defaults__ = (1.5, 4)
    show("made with new defaults", made_defaults, 1.5, 2.0)
    PDef.__init__.__defaults__ = ("s", 2 ** 70)
    show("made with defaults of other types", made_defaults, 1.5, 2.0)
    PDef.__init__.__defaults__ = saved_defaults
    show("made with defaults restored", made_defaults, 1.5, 2.0)
    # keyword constructions: in parameter order they bind as positional ones
    for a, b in ((1.5, 2.0), (-0.0, float("nan")), (float("inf"), 10 ** 20), (3, "s")):
        show("keyword constructions %r %r" % (a, b), kw_make, a, b)
    show("keyword constructions in order", kw_order, 1.5, 2.0)
    frames("keyword construction, unknown keyword", kw_bad, 1.5)
    frames("keyword construction, a keyword given twice", kw_twice, 1.5)
    show("keyword constructions, __init__ replaced inside a kernel", kw_patch_and_make, 1.5)
    show("keyword constructions after the patch", kw_make, 1.5, 2.0)
    for a, b in ((1.5, 2.0), (-0.0, float("nan")), (float("inf"), 10 ** 20), (3, 2)):
        show("keyword method calls %r %r" % (a, b), km_calls, a, b)
    frames("keyword method call, unknown keyword", km_bad, 1.5)
    show("keyword method calls, the method replaced inside a kernel", km_patch, 1.5)
    show("keyword method calls after the patch", km_calls, 1.5, 2.0)
    for a, b in ((1.5, 2.0), (-0.0, float("nan")), (float("inf"), 10 ** 20), (3, 2)):
        show("keyword-only calls %r %r" % (a, b), ko_calls, a, b)
    show("keyword-only calls in source order", ko_order, 1.5, 2.0)
    frames("keyword-only parameter left out", ko_missing, 1.5)
    frames("keyword-only parameter given by position", ko_positional, 1.5)
    frames("positional-only parameter given by keyword", ko_posonly, 1.5)
    saved_kw, saved_move_kw = KO.__init__.__kwdefaults__, KO.move.__kwdefaults__
    KO.__init__.__kwdefaults__ = {"y": 7.0, "scale": 3.0}
    KO.move.__kwdefaults__ = {"scale": 0.25, "clamp": 1.0}
    show("keyword-only calls, new __kwdefaults__", ko_calls, 1.5, 2.0)
    show("keyword-only defaults, new __kwdefaults__", ko_moved, KO(1.5), 2.0)
    KO.__init__.__kwdefaults__ = {"y": "s", "scale": 2 ** 70}
    KO.move.__kwdefaults__ = {"scale": 2 ** 70, "clamp": float("nan")}
    show("keyword-only defaults of other types", ko_make, 1.5)
    show("keyword-only defaults of other types, a method", ko_moved, KO(1.5, y=0.0, scale=1.0), 2.0)
    KO.__init__.__kwdefaults__ = {"y": 1.0}
    KO.move.__kwdefaults__ = None
    frames("keyword-only default gone", ko_make, 1.5)
    frames("keyword-only defaults gone, a method", ko_moved, KO(1.5, scale=1.0), 2.0)
    KO.__init__.__kwdefaults__, KO.move.__kwdefaults__ = saved_kw, saved_move_kw
    saved_move_defaults = KO.move.__defaults__
    KO.move.__defaults__ = (4.0,)
    show("keyword-only calls, new __defaults__", ko_calls, 1.5, 2.0)
    KO.move.__defaults__ = saved_move_defaults
    show("keyword-only calls, defaults restored", ko_calls, 1.5, 2.0)
    for a, b in ((1.5, 2.0), (-0.0, float("nan")), (float("inf"), 10 ** 20), (3, 2)):
        show("staticmethod and classmethod defaults %r %r" % (a, b), ko_static, a, b)
    blend, unit = KO.blend, KO.unit.__func__
    saved_static = blend.__defaults__, blend.__kwdefaults__, unit.__defaults__, unit.__kwdefaults__
    blend.__defaults__, blend.__kwdefaults__ = (-3.0,), {"w": 0.5}
    unit.__defaults__, unit.__kwdefaults__ = (8.0,), {"scale": 4.0}
    show("staticmethod and classmethod, new defaults", ko_static, 1.5, 2.0)
    blend.__defaults__, blend.__kwdefaults__ = ("s",), {"w": 2 ** 70}
    unit.__defaults__, unit.__kwdefaults__ = (2 ** 70,), {"scale": float("nan")}
    show("staticmethod and classmethod, defaults of other types", ko_static, 1.5, 2.0)
    blend.__defaults__, blend.__kwdefaults__, unit.__defaults__, unit.__kwdefaults__ = saved_static
    blend.__defaults__ = None
    frames("staticmethod default gone", ko_static, 1.5, 2.0)
    blend.__defaults__, unit.__kwdefaults__ = saved_static[0], None
    frames("classmethod keyword-only default gone", ko_static, 1.5, 2.0)
    unit.__kwdefaults__ = saved_static[3]
    KO.blend = staticmethod(lambda a, b=9.0, *, w=1.0: a - b * w)
    show("staticmethod replaced", ko_static, 1.5, 2.0)
    KO.blend = staticmethod(blend)
    show("staticmethod and classmethod defaults restored", ko_static, 1.5, 2.0)
    show("patched inside a kernel", patch_and_make, 1.5)
    show("patched inside a kernel, restored", pv_make, 1.5, 2.0)
    show("dataclass replaced init", lambda: (lambda q: (q.a, q.b))(dq_make(1.5, 2.0)))
    saved_init = DV.__init__
    DV.__init__ = lambda self, x, y, z=0.5: LOG.append(("patched", x)) or saved_init(self, -x, y, z)
    show("dataclass patched", dc_make, 1.5, 2.0)
    globals()["DC_BUMP"] = [0]  # the module's globals change: their guards look at the class again
    show("dataclass patched, globals changed", dc_make, 1.5, 2.0)
    DV.__init__ = saved_init
    show("dataclass restored", dc_make, 1.5, 2.0)
    saved_defaults = DV.__init__.__defaults__
    DV.__init__.__defaults__ = (9.0,)
    show("dataclass new default", dc_walk, 3)
    DV.__init__.__defaults__ = ("s",)
    show("dataclass str default", dc_walk, 3)
    DV.__init__.__defaults__ = (float("nan"),)
    show("dataclass nan default", same_objects, float("nan"), 2.0)
    show("dataclass nan default walk", dc_walk, 3)
    DV.__init__.__defaults__ = saved_defaults
    show("dataclass default restored", dc_walk, 3)
    DV.x = 7.0  # a class attribute named like a field: each instance's own value hides it
    show("dataclass class attribute x", same_objects, float("nan"), 2.0)
    show("dataclass walk, class attribute x", dc_walk, 5)
    del DV.x
    DV.z = property(lambda self: 42.0)  # a data descriptor: __init__'s store raises, as CPython's
    show("dataclass property z", dc_walk, 3)
    show("dataclass property z ids", same_objects, 1.0, 2.0)
    DV.z = 0.5
    show("dataclass z restored", same_objects, float("nan"), 2.0)
    show("dataclass walk, z restored", dc_walk, 5)
    # __post_init__: the generated __init__ (and its kernel) ends calling it
    show("post_init walk", dr_walk, 10, 2.0)
    show("post_init walk nan", dr_walk, 3, float("nan"))
    frames("post_init raises", dr_walk, 3, -1.0)
    saved_post = DR.__post_init__
    DR.__post_init__ = lambda self: LOG.append(("patched post", self.x))
    del LOG[:]
    show("post_init patched", lambda: dr_walk(2, 2.0)[1].x)
    print("log", LOG)
    del DR.__post_init__  # CPython's __init__ still calls it: AttributeError
    frames("post_init deleted", dr_walk, 2, 2.0)
    DR.__post_init__ = saved_post
    show("post_init restored", dr_walk, 10, 2.0)
    # default_factory: the factory runs where the call leaves the field out (a closure cell of __init__)
    del LOG[:]
    show("factory walk", dt_walk, 4, [9.0])
    print("log", LOG)
    show("factory walk none", dt_walk, 0, [])
    show("factory subclass", du_make, -0.0)
    show("factory subclass nan", lambda: du_make(float("nan"))[1].more)
    cells = dict(zip(DT.__init__.__code__.co_freevars, DT.__init__.__closure__))
    saved_factory = cells["_dflt_trail"].cell_contents
    cells["_dflt_trail"].cell_contents = lambda: ["patched"]  # the kernel reads the cell at each call
    show("factory patched", dt_walk, 2, [9.0])
    cells["_dflt_trail"].cell_contents = lambda: 1 / 0
    frames("factory raises", dt_walk, 2, [9.0])
    cells["_dflt_trail"].cell_contents = saved_factory
    show("factory restored", dt_walk, 3, [9.0])
    saved_init = DT.__init__
    DT.__init__ = lambda self, x, trail=None, tags=None, w=0.5: object.__setattr__(self, "x", -x) or \
        object.__setattr__(self, "trail", ["other"]) or object.__setattr__(self, "tags", {}) or \
        object.__setattr__(self, "w", w)
    show("factory init replaced", dt_walk, 2, [9.0])
    DT.__init__ = DTPlain.__init__  # dataclasses' text for the same names, no factory cells: CPython's call
    frames("factory init of another dataclass", dt_walk, 2, [9.0])
    DT.__init__ = saved_init
    show("factory init restored", dt_walk, 2, [9.0])
    # InitVar: a parameter with no store, __post_init__'s argument
    show("initvar walk", di_walk, 10, 3.0)
    show("initvar walk edge", di_walk, 3, -0.0)
    show("initvar walk nan", lambda: di_walk(3, float("nan"))[0])
    show("initvar walk none", di_walk, 0, 1.0)
    frames("initvar raises", di_walk, 3, -1.0)
    # field(init=False): no parameter; stored only with a factory (or a slots class's default)
    del LOG[:]
    show("init=False walk", dz_walk, 6, 2.0)
    print("log", LOG)
    for y in (-0.0, float("nan"), float("inf"), 10 ** 20, "s"):
        show("init=False walk %r" % (y,), dz_walk, 2, y)
    show("init=False walk none", dz_walk, 0, 1.0)
    frames("init=False too many arguments", dz_many, 1.0)
    frames("init=False field as a keyword", dz_kw, 1.0)
    zcells = dict(zip(DZ.__init__.__code__.co_freevars, DZ.__init__.__closure__))
    saved_zlog = zcells["_dflt_log"].cell_contents
    zcells["_dflt_log"].cell_contents = lambda: ["patched"]  # the kernel reads the cell at each call
    show("init=False factory patched", dz_walk, 2, 1.0)
    zcells["_dflt_log"].cell_contents = lambda: 1 / 0
    frames("init=False factory raises", dz_walk, 2, 1.0)
    zcells["_dflt_log"].cell_contents = saved_zlog
    scells = dict(zip(DZS.__init__.__code__.co_freevars, DZS.__init__.__closure__))
    scells["_dflt_n"].cell_contents = 2 ** 70  # a slots class's default, read from the cell at each call
    show("init=False slots default patched", dz_walk, 2, 1.0)
    scells["_dflt_n"].cell_contents = 3
    DZ.hits = 10  # the class attribute an init=False default is: instances see the new one
    show("init=False class default changed", dz_walk, 2, 1.0)
    DZ.hits = 0
    saved_zinit = DZ.__init__
    DZ.__init__ = DT.__init__  # dataclasses' text for other fields: CPython's call
    frames("init=False init of another dataclass", dz_walk, 2, 1.0)
    DZ.__init__ = saved_zinit
    show("init=False restored", dz_walk, 3, 2.0)
    for v in (2.0, -0.0, float("nan"), 10 ** 20):
        show("keyword-only fields %r" % (v,), dk_walk, 3, v)
    show("keyword-only fields none", dk_walk, 0, 1.0)
    frames("keyword-only field left out", dk_missing, 1.5)
    frames("keyword-only field by position", dk_positional, 1.5)
    saved_dk = DKW.__init__.__kwdefaults__
    DKW.__init__.__kwdefaults__ = {"w": 5.0}
    show("keyword-only field, new __kwdefaults__", dk_walk, 2, 1.0)
    DKW.__init__.__kwdefaults__ = {"w": "s"}
    frames("keyword-only field, a default of another type", dk_walk, 2, 1.0)
    DKW.__init__.__kwdefaults__ = saved_dk
    saved_dkc = DKC.__init__
    DKC.__init__ = DKO.__init__  # dataclasses' text for other fields: CPython's call
    frames("keyword-only fields, init of another dataclass", dk_walk, 2, 1.0)
    DKC.__init__ = saved_dkc
    show("keyword-only fields restored", dk_walk, 3, 2.0)
    # frozen=True: __init__ stores as object.__setattr__ does, any other store raises
    show("frozen walk", fv_walk, 40)
    for o in (2.0, "s", None, float("nan")):
        show("frozen object field %r" % (o,), fv_obj, 1.5, o)
    frames("frozen store", fv_store, 1.5)
    frames("frozen set", fv_set, FV(1.0), 2.0)
    for x, y in ((float("nan"), float("inf")), (1.5, -0.0), (10 ** 20, 2.0), ("s", 1.0)):
        show("frozen make %r %r" % (x, y), fv_same, x, y)
    saved_setattr = FV.__dict__["__setattr__"]
    FV.__setattr__ = lambda self, n, v: LOG.append(("fset", n)) or object.__setattr__(self, n, v)
    del LOG[:]
    show("frozen store, __setattr__ patched", fv_store, 1.5)
    show("frozen walk, __setattr__ patched", fv_walk, 5)
    print("log", LOG)
    FV.__setattr__ = saved_setattr
    frames("frozen store, __setattr__ restored", fv_store, 1.5)
    # a method looked up before its arguments are evaluated (LOAD_METHOD): AttributeError first
    show("add_to", add_to, Holder([1.0, 2.0]), 1)
    show("add_to float", add_to, Holder(3.5), 0)
    show("add_to short", add_to, Holder([]), 0)
    # a typed attribute read of another type after Python code ran in the statement: the
    # interpreter goes on from the instance read (not dynac's RuntimeError)
    show("neg_v", neg_v, Num(2.0), 0.5)
    show("neg_v int", neg_v, Num(3), 0.5)
    # the same inside a method call's arguments (Num.half(...): the interpreter goes on with the
    # class already read; found by the fuzzer, seed 12)
    show("neg_half", neg_half, Num(2.0), 0.5)
    show("neg_half int", neg_half, Num(3), 0.5)
    # an operator recursing through its own special method: CPython's RecursionError
    show("deep add", deep_add, 200)
    show("deep add too deep", deep_add, 100000)
    # reference counts balanced
    v = Vec(1.0, 1.0)
    before = sys.getrefcount(v)
    for _ in range(50):
        pair_dot(v, v)
        total_norm([v, v])
        chain(v, v, 1.0)
        accumulate([v, v])
    n = Num(2.0)
    before_n = sys.getrefcount(n)
    for _ in range(50):
        num_ops(n, n, 0.0)
        num_item(n, 1.0)
    print("refcount delta Num", sys.getrefcount(n) - before_n)
    print("refcount delta", sys.getrefcount(v) - before)
    # instances the kernel makes and drops: __del__ where CPython runs it
    del LOG[:]
    keep = make_noisy(3)
    print("log", LOG, keep.tag)


if __name__ == "__main__":
    if sys.argv[1:] == ["train"]:
        train()
    else:
        checks()
'''

HOT = ["Clock.stamp", "Clock.note", "clock_run", "Clock.stamp_bumped", "total_norm", "energies", "grow", "pair_dot", "Vec.dot", "Vec.norm", "Body.energy", "Vec.scaled",
       "chain", "Vec.__add__", "Vec.__sub__", "Vec.__mul__", "Vec.__init__", "strict_sum", "Vec.shift",
       "num_ops", "Num.__neg__", "Num.__abs__", "Num.__lt__", "Num.__eq__", "Num.__gt__", "Num.__radd__",
       "Num.__rmul__", "Num.__iadd__", "Num.__len__", "Num.__getitem__", "num_len", "num_item", "accumulate",
       "deep_add", "Deep.__add__", "shapes", "Shape.area", "Shape.twice", "Shape.double", "Rect.area",
       "Rect.more", "Rect.__init__", "Shape.__init__", "Square.__init__", "make_rect", "make_square",
       "point_ops", "Point.dist2", "Point.origin", "Frozen.bumped", "box_grow", "Box.w", "box_flag",
       "add_to", "neg_v", "neg_half", "nearest_x", "walk_optional", "opt_rebound",
       "tuple_ops", "Pt.norm2", "Pt.scaled", "cell_ops", "Cell.grow", "tally", "Tally.bump", "first_full",
       "mixed_sum", "Ev.__lt__", "EvA.fire", "EvB.fire", "stamp", "fill", "Queue.put", "Queue.count", "Queue.xs", "Spreader.make", "Spreader.via", "Spreader.twice", "Spreader.built", "spread_run",
       "heap_run", "EvN.__lt__", "Nest.__lt__", "nest_push", "dc_walk", "dc_ids", "patch_and_make", "pv_make", "made_defaults", "dc_chain", "fv_walk", "fv_make", "dr_walk", "DR.grown", "dt_walk", "DT.step", "du_make", "dz_walk", "dk_walk", "kw_make", "kw_order", "km_calls", "km_on", "KM.move", "KM2.move", "kw_patch_and_make", "km_patch", "ko_calls", "ko_static", "ko_make", "ko_moved", "ko_order", "di_walk", "DI.__post_init__", "DR.__post_init__", "fv_obj", "FV.__add__", "FV.scaled", "made_by", "made_from", "made_pair", "made_mid", "made_into", "Slotted.__init__", "star_mid", "star_kw_mid", "kw_mid", "dstar_mid", "chain_mid", "chain_mid3", "dict_mid", "set_mid", "set_obj_mid", "fstring_mid", "raise_mid", "aug_attr_mid", "rec_aug_mid", "aug_item_mid", "aug_index_mid", "aug_other_mid", "bump", "bump_item", "bump_key", "list_mid", "for_mid", "for_obj_mid", "chain_obj_mid", "chain_obj_mid3", "assert_mid", "while_mid", "ticked", "layouts_sum", "poly_sum", "poly_kw", "poly_index", "poly_attr", "PA.val", "PB.val", "PC.val", "use_defaults", "Acc.add", "Acc3.add",
       "Cluster.pull", "Cluster.shed", "Cluster.drop_light", "zip_words", "made_loose", "share_loop",
       "share_params", "shade", "shades", "keep_caller", "drain_toks", "take_tok", "Pin.__init__", "Spot.__init__",
       "store_once", "pins", "clamp", "ident", "SubPin.__init__", "sub_pin", "gap", "gaps", "gap_mix", "gap_pick", "gap_branch", "pushes", "Pm.push", "Pd.push",
       "census_run", "Census.__init__", "Census.worth", "relay_sum", "Ledger.charge", "Ledger.spread",
       "Ledger.guarded", "meter_run", "meter_ops", "Meter.read", "Meter.__init__", "Meter.__add__", "Meter.__lt__"]


def c_lines(c_text, *needles):
    """The generated C's lines holding any of `needles` (a failed check's detail)."""
    return "\n".join(l for l in c_text.splitlines() if any(w in l for w in needles))[:1500]


def main():
    tmp = tempfile.mkdtemp(prefix="dynac-classes-")
    try:
        src = os.path.join(tmp, "shapes.py")
        open(src, "w").write(PROGRAM)
        prof, out, st = (os.path.join(tmp, n) for n in ("p.json", "out", "stats.json"))
        rec = dynac_cmd("record", "-o", prof, src, "train", cwd=tmp, check_rc=False)
        doc = json.load(open(prof)) if os.path.exists(prof) else {}
        attrs = {c["name"]: c["attributes"] for c in doc.get("classes", [])}
        check("record: instances' attribute types", rec.returncode == 0 and
              attrs.get("__main__.Vec") == {"x": "float", "y": "float"} and
              attrs.get("__main__.Body") == {"hits": "int", "mass": "float", "pos": "__main__.Vec"} and
              attrs.get("__main__.Tally") == {"n": "int", "state": "object", "total": "int"},
              rec.stderr[-1500:] + json.dumps(attrs))
        check("record: a list attribute's element type, an empty list's joining it, and the attributes of "
              "instances only ever held in lists", attrs.get("__main__.Cluster") == {"stars": "list[__main__.Star]"}
              and attrs.get("__main__.Star") == {"m": "float", "x": "float"}, json.dumps(attrs))
        b = dynac_cmd("build", "--all", "--profile", prof, src, "-o", out, cwd=tmp, check_rc=False)
        ir = dynac_cmd("explain", "--profile", prof, src, cwd=tmp, check_rc=False)
        check("build from the profile", b.returncode == 0 and "warning" not in b.stderr, b.stderr[-2000:])
        area = ir.stdout.split("\nShape.area (", 1)[-1].split("\n\n", 1)[0]
        check("explain lists a method's receivers and its member guards",
              "receivers: Rect, Square" in area and "Shape.area (super())" in area and
              "property Shape.double" in area and "staticmethod Shape.twice" in area, area)
        lines = dynac_cmd("explain", "--profile", prof, "--lines", src, cwd=tmp, check_rc=False).stdout
        direct = [l for l in lines.splitlines() if "c = (a - b) * k + a" in l or "return Vec(self.x * k" in l]
        check("explain --lines: instance operators and constructors called directly are typed",
              len(direct) == 3 and all(l.split("|")[0].split()[-1] == "T" for l in direct), "\n".join(direct))
        check("explain --lines: an attribute store into an instance names its boxing",
              "self.x = x   # attribute store: the value is boxed into its place in the instance" in lines,
              lines[:1500])
        mixed = ir.stdout.split("\nmixed_sum (", 1)[-1].split("\n\n", 1)[0]
        check("explain: a loop reading attributes through the sites' caches is a kernel that serves",
              "[profile]: kernel" in mixed and "generic only" not in mixed, mixed)
        check("explain names the classes whose compiled __lt__ heapq's comparisons call",
              "compare through the compiled __lt__ of: " in ir.stdout and "EvB (Ev.__lt__)" in ir.stdout and
              "EvN (EvN.__lt__" in ir.stdout, ir.stdout[:1500])
        check("explain names the right operands' classes a __lt__ has a kernel each against (too many pairs"
              " for cache entries)", "EvA (Ev.__lt__; a kernel each against Ev, EvA, EvB, EvC" in ir.stdout,
              ir.stdout[:1500])
        for name in ["Cluster.pull", "Cluster.shed", "zip_words"]:
            site = ir.stdout.split("\n%s (" % name, 1)[-1].split("\n\n", 1)[0]
            check("explain: %s, reading a list attribute / enumerating objects, is a kernel that serves" % name,
                  "[profile]: kernel" in site and "generic only" not in site, site)
        pulled = [l for l in lines.splitlines() if "w = a.m * b.m / (d * d + soft)" in l or "b = self.stars[j]" in l]
        check("explain --lines: a list attribute's elements and their attributes are typed",
              len(pulled) == 2 and all(l.split("|")[0].split()[-1] == "T" for l in pulled), "\n".join(pulled))
        poly = ir.stdout.split("\npoly_sum (", 1)[-1].split("\n\n", 1)[0]
        check("explain lists a polymorphic call site's classes and kernels",
              "polymorphic call, line" in poly and "PA (PA.val), PB (PB.val), PC (PC.val), PD (PB.val)" in poly
              and "generic only" not in poly, poly)
        for name in ["poly_index", "poly_attr"]:
            site = ir.stdout.split("\n%s (" % name, 1)[-1].split("\n\n", 1)[0]
            check("explain: %s's receiver, not a local, is tested for its class too" % name,
                  "polymorphic call, line" in site and "PA (PA.val)" in site and "generic only" not in site, site)
        made = ir.stdout.split("\nmade_from (", 1)[-1].split("\n\n", 1)[0]
        check("explain lists a polymorphic construction's classes and __init__ kernels",
              "polymorphic construction, line" in made and "exactly Vec (Vec.__init__), Third (Third.__init__):"
              in made and "generic only" not in made, made)  # (Checked.__init__ may return 13: CPython's call)
        dcs = {c: ir.stdout.split("\n%s.__init__ (" % c, 1)[-1].split("\n\n", 1)[0] if "\n%s.__init__ (" % c in
               ir.stdout else "" for c in ("DV", "DW", "DS", "DL", "DP", "DF", "FW", "DT", "DU", "DI", "DJ",
                                           "DZ", "DZS", "DZF", "DKW", "DKO", "DKC", "DKS")}
        check("explain: a @dataclass's generated __init__ is a kernel made from its fields (a base's first, "
              "one defined again in its place, no ClassVar, frozen or not, ending with __post_init__, default "
              "factories marked (), InitVars :InitVar)",
              "generated by @dataclass; its kernel made from the fields x,y,z)" in dcs["DV"] and
              "kernel" in dcs["DV"] and "fields x,y,z,w)" in dcs["DW"] and "fields a,b)" in dcs["DS"] and
              "fields a,b)" in dcs["DL"] and "fields a)" in dcs["DP"] and "fields a)" in dcs["DF"] and
              "fields x,y,w)" in dcs["FW"] and "fields x,trail(),tags(),w)" in dcs["DT"] and
              "fields x,trail(),tags(),w,more())" in dcs["DU"] and
              "fields x,scale:InitVar,y,shift:InitVar)" in dcs["DI"] and "fields x,junk:InitVar)" in dcs["DJ"] and
              "f(): a field with a default factory, called where" in dcs["DT"] and
              "f:InitVar: a parameter only, passed on to __post_init__" in dcs["DI"] and
              "fields a,y,z,xs,c)" in ir.stdout.split("\nDC3.__init__ (", 1)[-1].split("\n", 1)[0], json.dumps(dcs))
        check("explain: init=False fields are marked ! (no parameter), !() (a factory's value stored), != (a "
              "slots class's default stored)",
              "its kernel made from the fields x,hits!,log!(),y,total!)" in dcs["DZ"] and
              "fields a,n!=,seen!())" in dcs["DZS"] and "fields a,k!)" in dcs["DZF"] and
              "f!: init=False, not a parameter" in dcs["DZ"] and "kernel" in dcs["DZS"], json.dumps(dcs))
        check("explain: keyword-only fields are marked * (after `*` in __init__): kw_only=True, after KW_ONLY, "
              "the class's kw_only=True, a base's staying after the subclass's own",
              "its kernel made from the fields x,w*,y)" in dcs["DKW"] and "fields a,b*,trail*(),c*)" in dcs["DKO"]
              and "fields p*,q*)" in dcs["DKC"] and "fields x,w*,y,z)" in dcs["DKS"] and
              "f*: a keyword-only parameter" in dcs["DKW"] and "kernel" in dcs["DKO"], json.dumps(dcs))
        check("explain says a generated __init__ is a frozen dataclass's, or ends calling __post_init__",
              "generated by @dataclass(frozen=True): fields stored as object.__setattr__ stores them" in dcs["DF"]
              and "ends calling self.__post_init__()" in dcs["DP"] and "__post_init__" not in dcs["DV"],
              json.dumps(dcs))
        lt = ir.stdout.split("\nEv.__lt__ (", 1)[-1].split("\n\n", 1)[0]
        check("explain: a special method's generic kernel serves (C calls it: no generic only)",
              "specialisation (object, object) -> bool [profile]: kernel" in lt and "generic only" not in lt, lt)
        fire = ir.stdout.split("\nEvB.fire (", 1)[-1].split("\n\n", 1)[0]
        check("explain: a method a kernel calls through the C API serves", "[profile]: kernel" in fire and
              "generic only" not in fire, fire)
        typed = [l for l in lines.splitlines() if "if self.time != other.time:" in l or
                 "return (a.time - b.time) * 2.0" in l]
        check("explain --lines: attributes of objects read as the numbers the module's classes record",
              len(typed) == 2 and all(l.split("|")[0].split()[-1] == "T" for l in typed), "\n".join(typed))
        packed = [l for l in lines.splitlines() if "t += q.put(3, k, 2.5, -1)" in l]
        check("explain --lines: methods with *args called kernel to kernel (the values packed) are typed",
              len(packed) == 1 and all(l.split("|")[0].split()[-1] == "T" for l in packed), "\n".join(packed))
        parts = ir.stdout.split("\nwhole_parts (", 1)[-1].split("\n\n", 1)[0]
        check("explain: a guessed number attribute used as an object is typed again as objects",
              parts.splitlines()[0].endswith("): compiled"), parts)
        ledger = {m: ir.stdout.split("\nLedger.%s (" % m, 1)[-1].split("\n\n", 1)[0] for m in
                  ("charge", "spread", "guarded")}
        check("explain: methods called from the interpreter take their int arguments as int64 (the receiver "
              "does not make them objects)", "specialisation (Ledger, int) -> int [profile]: kernel" in
              ledger["charge"] and "specialisation (Ledger, int, int) -> int [profile]: kernel" in
              ledger["spread"] and "specialisation (Ledger, int) -> int [profile]: kernel" in ledger["guarded"],
              json.dumps(ledger))
        check("explain names the instance guards", "type(v) is Vec (exactly" in ir.stdout and
              "global Vec is the class defined at shapes.py:" in ir.stdout, ir.stdout[-3000:] + ir.stderr[-500:])
        eager = subprocess.run([sys.executable, src], capture_output=True, text=True, cwd=tmp)
        run = dynac_cmd("run", "--path", out, "--stats", st, src, cwd=tmp, check_rc=False,
                        env={"DYNAC_PARK": "0"})  # served even where the frame hook would park
        check("checks run eagerly and under dynac run", eager.returncode == 0 and run.returncode == 0,
              eager.stderr[-1500:] + run.stderr[-1500:])
        e_lines, r_lines = eager.stdout.splitlines(), run.stdout.splitlines()
        for i, line in enumerate(e_lines):
            got = r_lines[i] if i < len(r_lines) else "<missing>"
            check("compiled = eager: %s" % line.split(" ")[0] + (" " + line.split(" ")[1] if " " in line else ""),
                  got == line, "eager:    %s\ncompiled: %s" % (line, got))
        check("no extra output", len(r_lines) == len(e_lines), run.stdout[-1000:])
        c_text = open(os.path.join(out, "shapes__dynac.c")).read() if os.path.exists(
            os.path.join(out, "shapes__dynac.c")) else ""
        check("heapq's comparisons call Ev.__lt__'s and EvN.__lt__'s kernels (dynac__heap_less)",
              "dynac_heapq_call(" in c_text and "return dynac__less_Ev____lt____OO; /* EvA: Ev.__lt__ */"
              in c_text and "return dynac__less_EvN____lt____OO; /* EvN: EvN.__lt__ */" in c_text,
              c_lines(c_text, "dynac__less_"))
        check("a @dataclass's __init__: its kernel called directly where the class's __init__ is the one "
              "dataclasses generated for the fields (checked per construction site and version tag)",
              "dynac_dataclass_init_ok(((PyTypeObject *)" in c_text and ", \"x,y,z\", 1, 0)" in c_text and
              "DV.__init__ on its fields */" in c_text and "/* <string>:3 (@dataclass): self.x = x */" in c_text,
              c_lines(c_text, "DV.__init__", "dataclass_init_ok"))
        check("a dataclass whose field has a default (on the class) is kept as its fields, each field keeping "
              "the object its nan came from (the caller's, the default's) for the instance made later",
              "dynac_rec_ok(&dynac__rdesc_R2DV, " in c_text and "if (DYNAC_UNLIKELY(((dynac__args ? dynac__args[1] : NULL) && "
              "isnan(l_x)) || (*rp_self).h.kept)) dynac_rec_keep(&(*rp_self).h, 0, (dynac__args ? dynac__args[1] : "
              "NULL), l_x);" in c_text,
              c_lines(c_text, "R2DV"))
        check("a dataclass with __post_init__: its __init__ kernel calls it (the construction checks the class "
              "has one)", ", \"x,y\", 1, DYNAC_DC_POST_INIT)" in c_text and
              "/* <string>:5 (@dataclass): self.__post_init__() */" in c_text, c_lines(c_text, "DR.__init__", "R2DR"))
        check("a dataclass with default factories: its __init__ kernel reads the factories from the closure "
              "(the construction checks its cells)", ", \"x,trail(),tags(),w\", 3, 0)" in c_text and
              "/* <string>:4 (@dataclass): self.trail = _dflt_trail() if trail is _HAS_DEFAULT_FACTORY else trail */"
              in c_text and "\"_dflt_trail\"); /* free variable _dflt_trail */" in c_text,
              c_lines(c_text, "DT.__init__", "_dflt_"))
        check("a dataclass with init=False fields: its __init__ kernel stores a factory's value and a slots "
              "class's default from the closure, on the lines of dataclasses' text, and nothing for the others",
              ", \"x,hits!,log!(),y,total!\", 1, DYNAC_DC_POST_INIT)" in c_text and
              "/* <string>:4 (@dataclass): self.log = _dflt_log() */" in c_text and
              "/* <string>:6 (@dataclass): self.__post_init__() */" in c_text and
              "/* <string>:4 (@dataclass): self.n = _dflt_n */" in c_text and
              "/* <string>:5 (@dataclass): self.seen = _dflt_seen() */" in c_text and
              ", \"a,n!=,seen!()\", 0, DYNAC_DC_POST_INIT)" in c_text and
              ", \"a,k!\", 0, DYNAC_DC_FROZEN | DYNAC_DC_POST_INIT)" in c_text,
              c_lines(c_text, "DZ", "_dflt_n", "_dflt_log"))
        kwm = max((b for b in c_text.split("\nstatic ") if "int dynac_kernel_kw_make__" in b.split("(", 1)[0]),
                  key=len, default="")  # its definition (the longest: not its prototype)
        check("keyword constructions in __init__'s parameter order run its kernel directly (a DV kept as its "
              "fields); CPython's call, where the class changed, passes the keywords by name",
              "/* PV2.__init__, run directly */" in kwm and "/* DV.__init__ on its fields */" in kwm and
              "dynac_kwnames(&" in kwm and "(const char *const[]){\"x\", \"y\"})" in kwm and
              re.search(r"PyObject_Vectorcall\(argv\[0\], argv \+ 1, 1, kw\d+\)", kwm) is not None,
              c_lines(kwm, "run directly", "on its fields", "Vectorcall(argv[0]"))
        kmc = max((b for b in c_text.split("\nstatic ") if "int dynac_kernel_km_calls__" in b.split("(", 1)[0]),
                  key=len, default="")
        check("method calls with keywords in the parameters' order are devirtualised (a def, a staticmethod, a "
              "classmethod, Cls.m(o, ...), super().m(...)); CPython's lookup, where the class changed, passes "
              "the keywords by name",
              kmc.count("KM.move, devirtualised */") >= 4 and "KM.mix, devirtualised */" in kmc and
              "KM.made, devirtualised */" in kmc and
              re.search(r"PyObject_VectorcallMethod\([^;]*, argv, 1, kw\d+\); /\* \.move\(\)", kmc) is not None,
              c_lines(kmc, "devirtualised", "VectorcallMethod"))
        pkw = max((b for b in c_text.split("\nstatic ") if "int dynac_kernel_poly_kw__" in b.split("(", 1)[0]),
                  key=len, default="")
        check("keyword calls at a polymorphic call site: each class's kernel where its def binds them in order",
              pkw.count("/* .scaled() of a PK */") == 3 and pkw.count("/* .scaled() of a PK2 */") == 2 and
              pkw.count("/* .scaled() of a PK3 */") == 2 and "dynac_method_kwdefault(" in pkw,
              c_lines(pkw, ".scaled() of a", "kwdefault"))
        koc = max((b for b in c_text.split("\nstatic ") if "int dynac_kernel_ko_calls__" in b.split("(", 1)[0]),
                  key=len, default="")
        check("keyword-only parameters and keywords leaving parameters between them out: constructions run "
              "__init__'s kernel and method calls are devirtualised, the defaults read when they run",
              koc.count("/* KO.__init__, run directly */") + koc.count("/* KO.__init__ on its fields */") == 3 and
              koc.count("KO.move, devirtualised */") == 5 and "KO.reset, devirtualised */" in koc and
              koc.count("KO.less, devirtualised */") == 2 and "dynac_method_kwdefault(" in koc and
              "dynac_method_default(" in koc, c_lines(koc, "KO.", "kwdefault"))
        kos = max((b for b in c_text.split("\nstatic ") if "int dynac_kernel_ko_static__" in b.split("(", 1)[0]),
                  key=len, default="")
        check("a staticmethod's and a classmethod's calls leaving parameters to their defaults are devirtualised, "
              "the defaults read from the def each wraps when the call runs",
              kos.count("KO.blend, devirtualised */") == 4 and kos.count("KO.unit, devirtualised */") == 3 and
              "dynac_method_kwdefault(" in kos and "dynac_method_default(" in kos,
              c_lines(kos, "KO.", "default("))
        check("a dataclass with InitVars: its __init__ kernel passes them to __post_init__",
              "/* <string>:5 (@dataclass): self.__post_init__(scale, shift) */" in c_text and
              ", \"x,scale:InitVar,y,shift:InitVar\", 3, DYNAC_DC_POST_INIT)" in c_text, c_lines(c_text, "DI.__init__"))
        check("a frozen dataclass is kept as its fields: its __init__'s stores are object.__setattr__'s, "
              "any other store goes through the instance",
              "dynac_rec_ok(&dynac__rdesc_R2FV, " in c_text and ", \"x,y\", 1, DYNAC_DC_FROZEN)" in c_text and
              "dynac__rfields_R2FV, .frozen = 1}" in c_text and "DYNAC_STORE_OTHER | DYNAC_STORE_GENERIC" in c_text
              and "/* .y = of a frozen dataclass: its __setattr__ */" in c_text, c_lines(c_text, "R2FV", "GENERIC"))
        check("a construction leaving parameters to their defaults reads them from __init__.__defaults__ "
              "and runs the __init__ kernel directly",
              "PyObject *d" in c_text and "/* the default of 'n' */" in c_text and
              "dynac_method_default(((PyTypeObject *)" in c_text and "PDef.__init__" in c_text,
              c_lines(c_text, "the default of", "PDef.__init__"))
        check("number attributes passed on keep the object read: an argument, a display's item",
              "dynac_attr_int_kept(l_self, " in c_text and "dynac_attr_float_kept(l_self, " in c_text and
              "dynac_box_int_kept(" in c_text and "dynac_box_float_kept(" in c_text,
              c_lines(c_text, "_kept("))
        calls = [l for l in c_text.splitlines() if "dynac_call_object(" in l]
        check("every call through dynac_call_object gives it the slot before the arguments "
              "(PY_VECTORCALL_ARGUMENTS_OFFSET: it writes there)", len(calls) >= 2 and
              all("PY_VECTORCALL_ARGUMENTS_OFFSET" in l for l in calls), "\n".join(calls)[:1500])
        check("heapq's comparisons of a recorded pair of classes call that pair's kernel, no guard asked",
              "return dynac__less_Ev____lt____V3EvAV3EvC; /* EvA < EvC */" in c_text and
              "dynac_guard_Ev____lt____V3EvAV3EvC" not in c_text,
              c_lines(c_text, "dynac__less_"))
        spreads = {name: ir.stdout.split("\n%s (" % name, 1)[-1].split("\n\n", 1)[0] for name in ("Spreader.make", "Queue.put")}
        check("explain says a *args only spread takes the caller's values (no tuple), and not for one that reads it",
              "*extra: only spread, so no tuple: its kernels take the caller's values" in spreads["Spreader.make"]
              and "only spread" not in spreads["Queue.put"], json.dumps(spreads))
        sigs = {name: next((l for l in c_text.splitlines() if l.startswith("static int dynac_kernel_" + name)), "")
                for name in ("Spreader__make__", "Spreader__via__", "Queue__put__")}
        check("a method whose *extra only spreads takes the caller's values (no tuple); one that reads it "
              "takes the tuple", "PyObject *const *p_extra, Py_ssize_t n_extra" in sigs["Spreader__make__"] and
              "PyObject *const *p_extra, Py_ssize_t n_extra" in sigs["Spreader__via__"] and
              "PyObject * p_extra" in sigs["Queue__put__"] and "n_extra" not in sigs["Queue__put__"],
              json.dumps(sigs))
        check("a kernel calling it passes its values from a C array; the construction and the call it spreads "
              "them into take them from there",
              re.search(r"dynac_kernel_Spreader__make__\w*\(l_s, [^;]*\(PyObject \*const\[\]\)\{", c_text) is not None
              and "dynac_call_vector(" in c_text and "n_extra == 1" in c_text and
              "dynac_tuple_of(p_extra, n_extra)" in c_text,
              c_lines(c_text, "n_extra", "Spreader__make__"))
        stats = json.load(open(st)) if os.path.exists(st) else {}
        served = {fn: stats.get("__main__." + fn, {}).get("kernel_calls", 0) +
                  stats.get("__main__." + fn, {}).get("direct_calls", 0) for fn in HOT}
        check("hot functions served by kernels", all(served.values()), json.dumps(served))
        census = stats.get("__main__.Census.worth", {})
        check("a class counter (type(self).made += 1 in __init__, a new version tag per instance) leaves the "
              "c.worth() calls in census_run's loop direct calls of its kernel (the class looked at again, not "
              "left to CPython's lookup)", census.get("direct_calls", 0) >= 8, json.dumps(census))
        meter = stats.get("__main__.meter_run", {})
        check("a method's code put back after a swap: the class matches again and meter_run's kernel serves "
              "the runs after it (9 of its 13 runs: not the 4 begun while a def ran other code)",
              meter.get("kernel_calls", 0) == 9, json.dumps(meter))
        statics = {m: stats.get("__main__.KO." + m, {}).get("direct_calls", 0) for m in ("blend", "unit")}
        check("a staticmethod's and a classmethod's kernels ran, called directly with the defaults read from "
              "the def each wraps (direct_calls counts the calls whose kernel ran)", all(statics.values()),
              json.dumps(statics))
        posts = {c: stats.get("__main__.%s.__post_init__" % c, {}).get("direct_calls", 0) for c in ("DZ", "DZS", "DZF")}
        check("dataclasses with init=False fields: the __init__ kernels synthesised from their fields ran "
              "(they call __post_init__ directly)", all(posts.values()), json.dumps(posts))
        posts = {c: stats.get("__main__.%s.__post_init__" % c, {}).get("direct_calls", 0)
                 for c in ("DKW", "DKO", "DKC", "DKS")}
        check("dataclasses with keyword-only fields: the __init__ kernels synthesised from their fields ran "
              "(they call __post_init__ directly)", all(posts.values()), json.dumps(posts))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
