# expect: 5:16: error: unknown argument 'fullgrph' to @dynac.compile
import dynac


@dynac.compile(fullgrph=True)
def f(x: int) -> int:
    return x + 1
