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


@dynac.compile
def first_row_over(rows: int, cols: int, limit: int) -> int:
    """A short inner loop ticks as one block charged to the outer loop's
    budget; break leaves both of its C loops, continue only the item."""
    for i in range(rows):
        s = 0
        for j in range(cols):
            if j == i:
                continue
            s += i * j
            if s > limit:
                break
        if s > limit:
            return i
    return -1
