"""Golden: raise of builtin exceptions."""
import dynac


@dynac.compile
def checked(x: float) -> float:
    if x < 0.0:
        raise ValueError("negative")
    if x > 1e300:
        raise OverflowError
    return x
