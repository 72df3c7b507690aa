"""Golden: valid Python the Tree-sitter grammar cannot parse (CPython can)."""
import dynac


@dynac.compile
def fine(x: float) -> float:
    return x * 2.0


@dynac.compile
def weird(x: int) -> int:
    def f():
        (bar.
    baz)
    return x
