"""Golden: allow_in_graph calls inside a kernel."""
import dynac


@dynac.allow_in_graph
def note(x: float) -> float:
    return x


@dynac.compile
def noted(x: float) -> float:
    y = note(x) * 2.0
    return note(y) + 1.0
