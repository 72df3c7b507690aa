"""Benchmark kernels (built by tests/bench.py)."""
import dynac


@dynac.compile
def axpy1(a: float, x: float, y: float) -> float:
    return a * x + y


def axpy1_hooked(a: float, x: float, y: float) -> float:
    return a * x + y


@dynac.compile
def mandel(width: int, height: int, maxiter: int) -> int:
    """Sum of the escape counts of the Mandelbrot set over a grid."""
    total = 0
    for py in range(height):
        y0 = py * 2.0 / height - 1.0
        for px in range(width):
            x0 = px * 3.0 / width - 2.0
            x = 0.0
            y = 0.0
            i = 0
            while i < maxiter and x * x + y * y <= 4.0:
                x, y = x * x - y * y + x0, 2.0 * x * y + y0
                i += 1
            total += i
    return total


@dynac.compile
def count_words(words: object, counts: object):
    """try/except in a loop: a KeyError on each word's first sighting."""
    for w in words:
        try:
            counts[w] += 1
        except KeyError:
            counts[w] = 1
    return counts


@dynac.compile
def locked_sum(lock: object, xs: object):
    """A with statement per item."""
    t = 0
    for x in xs:
        with lock:
            t += x
    return t


@dynac.compile
def parse_items(items: object):
    """try/except/finally in a loop, a third of the items raising ValueError."""
    out = 0
    for s in items:
        try:
            out += int(s)
        except ValueError:
            out -= 1
        finally:
            out += 1
    return out


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


class SlotPoint:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class SubPoint(Point):
    """A third class at the same sites (each site keeps one way per class)."""


def mixed_points(n):
    """Points of three classes in turn (a polymorphic attribute site)."""
    kinds = (Point, SlotPoint, SubPoint)
    return [kinds[i % 3](float(i), 2.0 * i) for i in range(n)]


@dynac.compile
def centre_and_scale(points: object, k: float):
    """Attribute reads and writes of objects in a loop (the sites' caches)."""
    sx = 0.0
    sy = 0.0
    for p in points:
        sx += p.x
        sy += p.y
        p.x = p.x * k
    return sx / len(points), sy / len(points)


class Vec3:
    """Instances kernels keep as their fields (records.c) until they escape."""
    x: float
    y: float
    z: float

    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def __sub__(self, o):
        return Vec3(self.x - o.x, self.y - o.y, self.z - o.z)

    def __mul__(self, k):
        return Vec3(self.x * k, self.y * k, self.z * k)

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z


@dynac.compile
def temporaries(a: Vec3, n: int, k: float):
    """Temporary instances that never escape: no object made."""
    s = 0.0
    for i in range(n):
        b = Vec3(float(i), k, 0.5)
        c = (a - b) * k
        s += c.x * a.x + c.y * a.y + c.z * a.z
    return s


@dynac.compile
def by_keyword(a: Vec3, n: int, k: float):
    """temporaries' loop with its instances made and its method called by keyword
    (Vec3(x=..., y=..., z=...), c.dot(o=a)): in the parameters' order, as fast as by position."""
    s = 0.0
    for i in range(n):
        b = Vec3(x=float(i), y=k, z=0.5)
        c = (a - b) * k
        s += c.dot(o=a)
    return s


class KwPoint:
    """Keyword-only parameters (after `*`), which calls may leave to their defaults."""
    x: float
    y: float
    z: float

    def __init__(self, x, *, y=0.0, z=0.5):
        self.x = x
        self.y = y
        self.z = z

    def dot(self, o, *, w=1.0):
        return (self.x * o.x + self.y * o.y + self.z * o.z) * w


@dynac.compile
def keyword_only(a: Vec3, n: int, k: float):
    """KwPoint(x, y=k) leaving z to its keyword-only default, b.dot(a) leaving w to its: each
    default read from __kwdefaults__ per call, the calls kernel to kernel."""
    s = 0.0
    for i in range(n):
        b = KwPoint(float(i), y=k)
        s += b.dot(a) + b.dot(a, w=k)
    return s


@dynac.compile
def kept(a: Vec3, n: int, k: float):
    """Instances that escape at once (into a list): each made as an object."""
    out = []
    for i in range(n):
        out.append(Vec3(float(i), k, a.z) * k)
    return len(out), out[-1].x


@dynac.compile
def folds(xs: list[float], n: int):
    """Generators consumed by sum() and max(): folded as their items are made."""
    return sum(i * i for i in range(n)), max(x * 2.0 for x in xs), sum(x * x for x in xs if x > 0.5)


@dynac.compile
def keyed(ks: list[int]):
    """A loop variable boxed again: the dict's keys and the tuples' items are the list's ints."""
    return {k: k * 2 for k in ks}, [(k, k + 1) for k in ks]
