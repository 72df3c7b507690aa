"""Functions exported to C by suite_export.py, which calls each on the
inputs of CALLS both in CPython and through the exported C, and compares
results (float bits), exceptions, messages, lines and array contents."""
from __future__ import annotations

import math

SCALE = 2.5
BIAS = -3


def div(a: float, b: float) -> float:
    return a / b


def idiv(a: int, b: int) -> int:
    return a // b


def imod(a: int, b: int) -> int:
    return a % b


def fmod_(a: float, b: float) -> float:
    return a % b


def ffloordiv(a: float, b: float) -> float:
    return a // b


def itruediv(a: int, b: int) -> float:
    return a / b


def root(x: float) -> float:
    return math.sqrt(x)


def logarithm(x: float) -> float:
    return math.log(x)


def grow(x: float) -> float:
    return math.exp(x)


def power(a: float, b: float) -> float:
    return a ** b


def ipow(a: int, b: int) -> int:
    return a ** b


def shift(a: int, n: int) -> int:
    return a << n


def to_int(x: float) -> int:
    return int(x)


def rounded(x: float) -> int:
    return round(x)


def mul(a: int, b: int) -> int:
    return a * b


def scaled(x: float, k: int) -> float:
    return x * SCALE + (k + BIAS)


def polar(x: float, y: float) -> tuple[float, float]:
    return math.sqrt(x * x + y * y), math.atan2(y, x)


def unbound(x: float) -> float:
    if x > 0.0:
        y = x
    return y


def get(a: array[d], i: int) -> float:
    return a[i]


def put(a: array[d], i: int, v: float) -> None:
    a[i] = v


def mget(a: memoryview[d, strided], i: int) -> float:
    return a[i]


def scale_all(a: array[d], k: float) -> float:
    total = 0.0
    for j in range(len(a)):
        a[j] = a[j] * k
        total += a[j]
    return total


def folds(a: array[d], n: int, k: int) -> tuple[float, int, float]:
    """sum(), min() and max() of generators, folded in C (no list)."""
    return (float(sum(x * x for x in a if x == x)), sum(i * k for i in range(n)),
            max(abs(x) for x in a) - min(x * 0.5 for x in a))


def clip_bytes(a: bytearray, hi: int) -> int:
    n = 0
    for j in range(len(a)):
        if a[j] > hi:
            a[j] = hi
            n += 1
    return n


def store_small(a: array[b], v: int) -> None:
    a[0] = v


def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def depth(n: int) -> int:
    return 0 if n == 0 else 1 + depth(n - 1)


INF, NAN = math.inf, math.nan
BIG = 2 ** 62
# (function, arguments): arrays are ("d", [...]) for array('d'), ("b", [...])
# for array('b'), ("mv", [...]) for a strided memoryview of every other item
# of an array('d'), ("Y", b"...") for a bytearray.
CALLS = [
    ("div", (1.0, 3.0)), ("div", (1.0, 0.0)), ("div", (-0.0, 5.0)), ("div", (INF, 2.0)),
    ("div", (NAN, 2.0)), ("div", (1e308, 1e-308)),
    ("idiv", (7, 2)), ("idiv", (-7, 2)), ("idiv", (7, 0)), ("idiv", (-2 ** 63, -1)),
    ("imod", (-7, 3)), ("imod", (7, -3)), ("imod", (7, 0)),
    ("fmod_", (-7.5, 2.0)), ("fmod_", (7.5, -0.0)), ("fmod_", (-0.0, 3.0)),
    ("ffloordiv", (7.5, 2.0)), ("ffloordiv", (7.5, 0.0)),
    ("itruediv", (1, 3)), ("itruediv", (1, 0)), ("itruediv", (2 ** 60 + 1, 3)),
    ("root", (2.0,)), ("root", (-1.0,)), ("root", (-0.0,)), ("root", (INF,)),
    ("logarithm", (0.0,)), ("logarithm", (-1.0,)), ("logarithm", (10.0,)),
    ("grow", (1.0,)), ("grow", (1000.0,)), ("grow", (-1000.0,)),
    ("power", (2.0, 0.5)), ("power", (0.0, -1.0)), ("power", (-8.0, 1.0 / 3)),
    ("power", (10.0, 400.0)), ("power", (NAN, 0.0)),
    ("ipow", (3, 4)), ("ipow", (2, 63)), ("ipow", (2, -1)),
    ("shift", (1, 62)), ("shift", (1, 63)), ("shift", (5, -1)),
    ("to_int", (2.7,)), ("to_int", (-2.7,)), ("to_int", (NAN,)), ("to_int", (INF,)),
    ("to_int", (1e19,)),
    ("rounded", (2.5,)), ("rounded", (3.5,)), ("rounded", (-0.5,)), ("rounded", (NAN,)),
    ("mul", (BIG, 2)), ("mul", (BIG, -2)), ("mul", (-BIG, -2)), ("mul", (-(2 ** 63), 1)),
    ("scaled", (1.5, 4)), ("scaled", (-0.0, 3)),
    ("polar", (3.0, 4.0)), ("polar", (-0.0, -0.0)), ("polar", (INF, NAN)),
    ("unbound", (1.0,)), ("unbound", (-1.0,)),
    ("get", (("d", [1.5, 2.5, 3.5]), 1)), ("get", (("d", [1.5, 2.5, 3.5]), -1)),
    ("get", (("d", [1.5]), 1)), ("get", (("d", []), 0)), ("get", (("d", [1.5]), -2)),
    ("put", (("d", [1.5, 2.5]), 0, -0.0)), ("put", (("d", [1.5, 2.5]), 2, 1.0)),
    ("mget", (("mv", [1.0, 2.0, 3.0, 4.0, 5.0]), 2)), ("mget", (("mv", [1.0, 2.0]), 1)),
    ("scale_all", (("d", [1.0, -2.0, 0.5]), 3.0)), ("scale_all", (("d", []), 3.0)),
    ("folds", (("d", [1.0, -2.0, 0.5]), 4, 3)), ("folds", (("d", [NAN, -0.0, INF]), 0, 1)),
    ("folds", (("d", [-0.0, 0.0]), 3, BIG)), ("folds", (("d", []), 2, 1)),
    ("clip_bytes", (("Y", b"\x01\xff\x80\x10"), 100)),
    ("store_small", (("b", [0]), 100)), ("store_small", (("b", [0]), 200)),
    ("collatz", (27,)), ("collatz", (1,)),
    ("depth", (100,)),
]
# Calls where CPython returns a value the exported C types cannot hold: the
# C reports this exception instead (documented in the header).
REPORTED = {
    ("idiv", 3): "OverflowError", ("itruediv", 2): "OverflowError", ("ipow", 1): "OverflowError",
    ("ipow", 2): "TypeError", ("shift", 1): "OverflowError", ("to_int", 4): "OverflowError",
    ("mul", 0): "OverflowError", ("mul", 2): "OverflowError", ("power", 2): "TypeError",
    ("folds", 2): "OverflowError",
}
