# expect: 7:5: error: f() has fullgraph=True but breaks the graph here [GB0003 unknown-call]: call to print
import dynac


@dynac.compile(fullgraph=True)
def f(x: float) -> float:
    print(x)
    return x * 2.0
