"""Golden: new lists: displays, repetition, comprehensions, slices, methods."""
import dynac


@dynac.compile
def build(n: int, xs: list[float]) -> list[float]:
    ys = [0.0] * n
    zs = [x * 2.0 for x in xs if x > 0.0]
    ws = xs[1:-1]
    ws.append(1.0)
    v = ws.pop()
    ys.insert(0, v)
    return ys + zs + [len(ws) * 1.0]


@dynac.compile
def consumed(xs: list[float]) -> bool:
    """Generator expressions consumed on the spot: an inline loop that stops
    early (any) and the items as a list (sum of numbers)."""
    return any(x < 0.0 for x in xs) or sum(x * x for x in xs) > 1.0
