# expect: 12:5: error: f() has fullgraph=True but breaks the graph here [GB0017 disabled-callee]: call to show(), marked disable
import dynac


@dynac.disable
def show(x):
    print(x)


@dynac.compile(fullgraph=True)
def f(x: float) -> float:
    show(x)
    return x * 2.0
