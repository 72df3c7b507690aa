"""Golden: math functions and constants, builtins with typed forms."""
import math
import dynac


@dynac.compile
def geometry(x: float, y: float, n: int) -> float:
    r = math.hypot(x, y) + math.atan2(y, x) * math.pi
    r += math.floor(x) + abs(n) + min(x, y) + max(n, 3)
    return r + float(int(y)) + round(x) + math.sqrt(abs(x))
