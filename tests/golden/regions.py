"""Golden: a partially compiled function: regions around a graph break."""
import dynac


@dynac.compile
def partial(n: int) -> int:
    t = 0
    for i in range(n):
        t += i * i
    tag = text(t)
    for i in range(n):
        t -= i
    return t + len(tag)


@dynac.disable
def text(x):
    """str(x) in the interpreter: the call is a graph break."""
    return str(x)
