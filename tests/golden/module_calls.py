"""Golden: calls between module functions, defaults and recursion."""
import dynac


def scale(x: float, k: float = 2.0) -> float:
    return x * k


@dynac.compile
def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@dynac.compile
def uses(x: float) -> float:
    return scale(x) + scale(x, 3.0)
