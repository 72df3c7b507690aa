"""Golden: a partially compiled function: regions around a graph break."""
import dynac


@dynac.compile
def partial(n: int) -> int:
    t = 0
    for i in range(n):
        t += i * i
    tag = str(t)
    for i in range(n):
        t -= i
    return t + len(tag)
