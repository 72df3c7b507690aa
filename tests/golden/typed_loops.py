import math
import dynac

@dynac.compile
def f(n: int, xs: list[float]) -> float:
    s = 0.0
    for i in range(n):
        if xs[i] > 0.5 and i % 2 == 0:
            s += math.sqrt(xs[i]) * -2.0
        else:
            s = s - (i, 1.5)[1]
    return s
