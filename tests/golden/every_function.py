"""explain lists every function of a module: module-level ones and methods
with their status, and the nested functions and lambdas dynac does not
compile yet, with why (their counts are in the header)."""
import dynac


class Vec:
    def __init__(self, x):
        self.x = x

    def norm(self):
        return abs(self.x)


def outer(n: int) -> int:
    def inner(k):
        return k + 1
    key = lambda kv: -kv
    return inner(n) + key(n)


if True:
    def cond_def(x: int) -> int:
        return x


@dynac.compile
def top(x: float) -> float:
    return x * 2.0
