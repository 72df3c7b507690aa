"""Golden: conditional expressions, chained comparisons, not, is None."""
import dynac


@dynac.compile
def pick(x: float, y: float, z: None) -> float:
    a = x if x < y else y
    if 0.0 <= a < 1.0 and not (x == y):
        a = -a
    if z is None:
        a += 1.0
    return a


@dynac.compile(signatures=["(float, None, float)"])
def clip(x, lo=None, hi=None):
    """`lo is not None and x < lo` with lo None: the right operand never
    runs, so it is neither typed (a float compared with None) nor compiled;
    nor is the branch of a conditional expression that never runs."""
    if lo is not None and x < lo:
        x = lo
    if hi is not None and x > hi:
        x = hi
    x += lo if lo is not None else 0.5
    return x, lo is None or x < lo


@dynac.compile
def roughness(xs: list[float]):
    """A local holding None or a float ("float | None"): the float boxed in
    it, read unboxed where a test proves it is not None, as the object
    elsewhere."""
    prev = None
    acc = 0.0
    for x in xs:
        if prev is not None:
            acc += (x - prev) ** 2
        prev = x
    return acc, prev
