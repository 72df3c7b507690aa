# expect: 5:24: error: unknown backend "gpu"
import dynac


@dynac.compile(backend="gpu")
def f(x: int) -> int:
    return x
