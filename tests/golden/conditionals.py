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
