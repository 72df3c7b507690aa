"""Golden: for over lists, enumerate, zip and reversed."""
import dynac


@dynac.compile
def walk(xs: list[float], ys: list[float]) -> float:
    s = 0.0
    for x in xs:
        s += x
    for i, x in enumerate(xs, 1):
        s += i * x
    for x, y in zip(xs, ys):
        s -= x * y
    for x in reversed(ys):
        s *= x
    for k in reversed(range(3)):
        s += k
    return s
