"""Golden: a local holding an instance of a class of the module or None
("Vec | None"), and its reads known not None (analysis/narrow.c), typed as
the instance: after `if x is None: return`, inside `if x is not None:` and
`while x is not None:`, `if x:`, `while x:`, right of `x is not None and`,
after `if not x: return`, until x is bound again."""
import dynac


class Vec:
    x: float
    y: float

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def dot(self, o):
        return self.x * o.x + self.y * o.y


@dynac.compile(signatures=["(list[Vec], float)"])
def nearest(vs, lim):
    best = None
    for v in vs:
        if v.x < lim and (best is None or v.x > best.x):
            best = v
    if best is None:
        return -1.0
    return best.dot(best) + best.y


@dynac.compile(signatures=["(list[Vec], int)"])
def walk(vs, k):
    cur = None
    total = 0.0
    for i in range(k):
        cur = vs[i] if i % 2 else None
        if cur is not None:
            total += cur.x
        total += 0.0 if cur is None else cur.y
    while cur is not None:
        total += cur.x
        cur = None
    return total


@dynac.compile(signatures=["(list[Vec])"])
def rebound(vs):
    best = None
    for v in vs:
        if best is None or v.x > best.x:
            best = v
    if best is None:
        return 0.0
    for v in vs:
        best = v if v.x > 0 else None
    return best.x


@dynac.compile(signatures=["(list[Vec])"])
def truthy(vs):
    best = None
    for v in vs:
        if not best or v.x > best.x:
            best = v
    if not best:
        return 0.0
    total = best.y
    cur = best if best.x > 0.0 else None
    while cur:
        total += cur.x
        cur = None
    return total + (best.x if best else 0.0)
