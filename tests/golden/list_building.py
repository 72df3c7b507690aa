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
