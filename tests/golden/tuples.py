"""Golden: tuple values, unpacking and tuple returns."""
import dynac


@dynac.compile
def pairs(a: tuple[int, float], n: int) -> tuple[float, int]:
    i, x = a
    t = (x, i + n)
    u, v = t
    return u * 2.0, v
