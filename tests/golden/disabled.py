"""Golden: disable and disallow_in_graph annotations."""
import dynac


@dynac.disable
def slow(x: float) -> float:
    return x


@dynac.compile
def calls_slow(x: float) -> float:
    return slow(x) + 1.0
