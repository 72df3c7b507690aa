"""The fine-grained tracing API, exercised as the PyTorch documents describe
it (../shared/seeds/002 and 004). Every function adds a mark only when it runs
compiled (`is_compiling()` is folded to True in kernels), so a result tells
exactly which frames ran compiled. suite_annotations.py checks the documented
pattern, and compares with eager CPython after removing the marks."""
import dynac

log = []


# ---- seed 004: disable (recursive=True) --------------------------------------
def inner1(x: float) -> float:
    return x + 1.0 + (0.01 if dynac.is_compiling() else 0.0)  # not traced: inside outer1


@dynac.disable
def outer1(x: float) -> float:
    x = x + 2.0 + (0.1 if dynac.is_compiling() else 0.0)  # not traced
    dynac.graph_break()  # not traced
    return inner1(x)


@dynac.compile
def f(x: float) -> float:
    x = outer1(x)
    return x + 4.0 + (100.0 if dynac.is_compiling() else 0.0)  # traced


@dynac.compile
def uses_inner1(x: float) -> float:
    return inner1(x)  # inner1 is compiled as this root's callee


# ---- seed 004: disable(recursive=False) --------------------------------------
def inner2(x: float) -> float:
    dynac.graph_break()  # traced (inner2 is split: the break runs in the interpreter)
    return x + 1.0 + (0.01 if dynac.is_compiling() else 0.0)  # traced


@dynac.disable(recursive=False)
def outer2(x: float) -> float:
    x = x + 2.0 + (0.1 if dynac.is_compiling() else 0.0)  # not traced
    dynac.graph_break()  # not traced
    return inner2(x)


@dynac.compile
def g(x: float) -> float:
    x = outer2(x)
    return x + 4.0 + (100.0 if dynac.is_compiling() else 0.0)  # traced


# ---- seed 002: fn calls a_fn and b_fn; a_fn calls aa_fn and ab_fn -------------
def aa_fn(x: float) -> float:
    return x * 2.0 + (0.001 if dynac.is_compiling() else 0.0)


def ab_fn(x: float) -> float:
    return x - 1.0 + (0.002 if dynac.is_compiling() else 0.0)


@dynac.disable
def a_fn(x: float) -> float:
    return aa_fn(x) + ab_fn(x) + (0.01 if dynac.is_compiling() else 0.0)


def b_fn(x: float) -> float:
    return x + 0.5 + (0.1 if dynac.is_compiling() else 0.0)


@dynac.compile
def fn(x: float) -> float:
    y = a_fn(x)
    return y + b_fn(x) + (100.0 if dynac.is_compiling() else 0.0)


@dynac.compile
def calls_aa_ab(x: float) -> float:
    return aa_fn(x) + ab_fn(x)  # so aa_fn and ab_fn have kernels of their own


# ---- allow_in_graph / disallow_in_graph -----------------------------------------
@dynac.allow_in_graph
def record(x: float) -> float:
    """An opaque call: a side effect the kernel must perform exactly once."""
    log.append(x)
    return x * 0.5


@dynac.compile
def with_opaque(x: float, n: int) -> float:
    s = 0.0
    for i in range(n):
        s += record(x + i)
    return s + (1000.0 if dynac.is_compiling() else 0.0)


@dynac.compile
def opaque_then_divide(x: float, d: float) -> float:
    y = record(x)
    return y / d  # d == 0.0 after the call: cannot re-run; CPython's exception is raised


@dynac.compile
def opaque_then_overflow(x: float, n: int) -> int:
    y = record(x)
    return n * n  # int64 overflow after the call: cannot re-run; the big int, through the C API


def helper(x: float) -> float:
    return x * 3.0 + (0.5 if dynac.is_compiling() else 0.0)


@dynac.compile
def calls_helper(x: float) -> float:
    return helper(x) + 1.0 + (1000.0 if dynac.is_compiling() else 0.0)


def banned(x: float) -> float:
    return x - 1.0


dynac.disallow_in_graph(banned)


@dynac.compile
def calls_banned(x: float) -> float:
    y = banned(x)
    return y * 2.0 + (1000.0 if dynac.is_compiling() else 0.0)


# ---- assume_constant_result ---------------------------------------------------
SCALE_CALLS = []


@dynac.assume_constant_result
def scale() -> float:
    SCALE_CALLS.append(1)
    return 2.5


@dynac.compile
def scaled(x: float) -> float:
    return x * scale() + (1000.0 if dynac.is_compiling() else 0.0)


# ---- backend="eager": guards and dispatch, no kernels ---------------------------
@dynac.compile(backend="eager")
def eager_root(x: float) -> float:
    return helper(x) + (1000.0 if dynac.is_compiling() else 0.0)


# ---- after an opaque call, a deoptimisation goes on in the interpreter --------
@dynac.compile
def opaque_in_loops(n: int, m: int) -> int:
    """record() runs in every pass of the while loop; the product overflows
    int64 inside the inner loops: the call goes on from that statement, with
    each loop's iterator at its next item (continue, break and else kept)."""
    t = 1
    i = 0
    while i < n:
        record(1.0)
        for j in reversed(range(m)):
            if j == 1:
                continue
            t = t * (j + 2)
            if t < 0:
                break
        else:
            t = t + i
        for k in range(0, m, 3):
            t = t - k
        i += 1
    return t


@dynac.compile
def opaque_then_unbound(x: float, flag: bool) -> float:
    record(x)
    if flag:
        z = x
    return z * 2.0


@dynac.compile
def opaque_then_divide_late(x: float, d: float) -> float:
    record(x)
    y = x / d  # ZeroDivisionError from the interpreter, the line kept
    return y + 1.0


# ---- the same inside the compiled regions of a function with graph breaks --
@dynac.disable
def text(x):
    """str(x), in the interpreter: calling it breaks the graph."""
    return str(x)


@dynac.disable
def a_range(n):
    return range(n)


@dynac.compile
def opaque_in_region(n: int, m: int, limit: float) -> int:
    """text() breaks the graph: the loops are a region kernel that calls
    record(); when the product overflows int64 the region goes on in the
    interpreter and gives the function its return value or its live-outs
    (t, i, j; i and j unbound when a loop never ran)."""
    tag = text(n)
    t = 1
    for i in range(n):
        record(1.0)
        for j in range(m):
            if j == 1:
                continue
            t = t * (j + 2) + n
            if t > limit:
                return t - 1
        else:
            t = t + i
    word = text(t % 1000)
    return len(word) + t + i + j


@dynac.compile
def opaque_mid_region(k: int) -> int:
    """The product overflows after record() ran in the same statement of a
    region: the statement goes on in the interpreter around record()'s value."""
    tag = text(k)
    n = int(record(2.0)) * k * k + 1
    m = n - k
    return m + len(tag)


@dynac.compile
def opaque_region_in_loop(n: int, k: int) -> int:
    """A region in the body of an interpreted loop: its sum overflows after
    record() ran; the value is the big int and the loop goes on."""
    items = a_range(n)
    total = 0
    for _ in items:
        total = total + k * int(record(2.0)) * k
    return total % 1000003
