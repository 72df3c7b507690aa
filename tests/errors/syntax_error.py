# expect: 4:1: error: syntax error in the statement starting here
import dynac

@dynac.compile
def f(x: int:
    return x
