"""Golden: module-level numbers and their guards."""
import dynac

SCALE = 2.5
LIMIT = 10
FLAG = True


@dynac.compile
def scaled(x: float) -> float:
    if FLAG and x < LIMIT:
        return x * SCALE
    return x
