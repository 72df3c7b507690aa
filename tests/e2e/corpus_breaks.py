"""Differential corpus for graph breaks: functions with statements that run in
the interpreter (prints, side effects, try, with, loops over lists) between
compiled regions. suite_resume.py compares them with eager CPython: results,
exceptions (and their traceback lines), printed output and side effects."""
import math
import sys
import dynac

log = []


class Box:
    def __init__(self):
        self.v = 0.0


@dynac.compile(signatures=["(float, int)", "(int, int)"])
def print_between(x, n):
    s = 0.0
    for i in range(n):
        s += math.sqrt(abs(x) + i)
    show("partial sum", s)
    t = s * 2.0 + x
    note(t)
    return t / n


@dynac.compile(signatures=["(float)"])
def try_in_the_middle(x):
    a = x * 3.0
    try:
        b = 1.0 / (x - 2.0)
    except* ZeroDivisionError:  # a graph break (try/except compiles; exception groups do not)
        b = -1.0
    c = a + b
    return c, a


@dynac.compile(signatures=["(float)"])
def interp_rebinds(x):
    y = x + 1.0
    y = text(y)
    z = len(y) * 2
    return y, z


@dynac.compile(signatures=["(int)"])
def returns_from_regions(n):
    if n < 0:
        return -1
    show("non-negative", n)
    if n > 10:
        return n * 2
    k = n * n
    note(k)
    return k


@dynac.compile(signatures=["(int)"])
def loop_with_print(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            show("tick", i)
        s += i
    t = s * 2
    return t


@dynac.compile(signatures=["(float, float)"])
def region_raises(a, b):
    c = a * 2.0
    note(c)
    d = c / b
    return d


@dynac.compile(signatures=["(int)"])
def maybe_unbound(n):
    if n > 0:
        y = n
    show("checked", n)
    return y + 1


@dynac.compile(signatures=["(int)"])
def live_out_unbound(n):
    note(n)
    if n > 2:
        w = n * 2
    note(-n)
    return w


@dynac.compile(signatures=["(float)"])
def with_block(x):
    y = x * x
    b = Box()
    with open(__file__) as f:
        dynac.graph_break()  # a graph break: the with statement is interpreted
        first = f.readline().strip()
    b.v = y
    return y + len(first), b.v


@dynac.compile(signatures=["(int)"])
def recursive_partial(n):
    if n <= 1:
        return 1
    note(n)
    return n * recursive_partial(n - 1)


@dynac.compile(signatures=["(int)"])
def range_value(n):
    """A loop over a range object held in a local (a graph break) still
    compiles its body: the inner loop is a region."""
    range_it = a_range(n)
    t = 0.0
    for _ in range_it:
        for i in range(10):
            t += i * 0.5
    return t


@dynac.compile(signatures=["(int)"])
def live_out_refs(n):
    """A region's list live-out holds one reference, as the frame's local
    does: every list but the last is referenced by `kept` alone at the end
    (a leak of one reference per region entry showed in the counts)."""
    kept = []
    words = [0]
    for k in range(n):
        new_words = [k] * 3
        tag = text(k)              # a graph break
        put(kept, tag)
        words = new_words         # a region with a list live-out
        kept.append(words)
    return refcounts(kept), words[0]


@dynac.compile(signatures=["(int, bool)"])
def recursive_default(x, flag=False):
    """The resume function's own calls of the function reach the function
    (its defaults bound), not the resume function."""
    note(object() is None)  # a graph break
    if x < 2:
        return recursive_default(x + 1)
    return x, flag


@dynac.compile(signatures=["(float, float)"])
def keyword_called(x, y=2.0):
    z = x ** y
    show("z", z)
    return z - x


def caller_of_keyword(x):
    return keyword_called(y=3.0, x=x) + keyword_called(x)


@dynac.compile(signatures=["(int)"])
def generator_is_never_partial(n):
    a = n * 2
    yield a
    yield a + 1


@dynac.compile(signatures=["(int)"])
def parser_limited(x):
    def never_called():
        (bar.
    baz)
    return x * 2


# Expected to run compiled regions (the others fall back, with reasons).
@dynac.compile(signatures=["(int)"])
def nested_loop_control(n):
    s = 0
    t = 0.5
    for i in range(n):
        t = t * 1.5 + i
        if i % 3 == 0:
            show("skip", i)
            continue
        s += i * 2
        if s > 40:
            note(s)
            break
        if i == 7:
            return s, t
    else:
        show("no break", s)
    note(t)
    return s, t


@dynac.compile(signatures=["(float, int)", "(int, int)"])
def while_with_try(x, n):
    k = 0
    acc = 0.0
    while k < n:
        try:
            acc += 1.0 / (x - k)
        except ZeroDivisionError:
            acc = -acc
            show("hit zero at", k)
        k += 1
        if acc > 1e300:
            raise OverflowError("too big")
    return acc


@dynac.compile(signatures=["(float)"])
def over_list(x):
    total = 0.0
    for v in [1.0, 2.5, -3.0]:
        total += v * x
        total = total * 0.5 + 1.0
        note(total)
    return total


@dynac.compile(signatures=["(int)"])
def nested_branches(n):
    r = 1
    if n > 2:
        show("big")
        r = r * n + 1
        if n > 5:
            r = -r
    else:
        r = r - n
        note(r)
    return r * 2


@dynac.compile(signatures=["(int)"])
def walrus_regions(n):
    if (m := n * 3) > 5:  # the assignment `m = n * 3` and its if: in one region, or neither
        m += 1
    show("m", m)
    t = 0
    for i in range(3):
        show("i", i)  # the loop runs in the interpreter; its body's statements still compile
        if (k := m * i - n) > 0:
            t += k
    return m, t, k


@dynac.compile(signatures=["(int)"])
def small_in_loop(n):
    t = 0
    for i in range(n):
        note(i)  # the loop runs in the interpreter
        t += i * 2  # a small region: the interpreter runs it unless DYNAC_SMALL_REGIONS=1
    return t


@dynac.compile(signatures=["(int)"])
def big_in_loop(n):
    t = 0
    for i in range(n):
        note(i)
        for j in range(i % 5):  # a region with a loop: always its kernel
            t += i * j + 1
    return t


# Graph breaks made on purpose: calls of functions marked disable run in the
# interpreter (print, str, a list's append and a range object would compile).
@dynac.disable
def show(*args):
    print(*args)


@dynac.disable
def note(x):
    log.append(x)


@dynac.disable
def text(x):
    return str(x)


@dynac.disable
def put(xs, x):
    xs.append(x)


@dynac.disable
def refcounts(xs):
    return [sys.getrefcount(x) for x in xs]


@dynac.disable
def a_range(n):
    return range(n)


EXPECT_REGIONS = {"walrus_regions", "nested_loop_control", "while_with_try", "over_list", "nested_branches",
"print_between", "try_in_the_middle", "interp_rebinds", "returns_from_regions",
                  "loop_with_print", "region_raises", "live_out_unbound", "with_block",
                  "recursive_partial", "keyword_called", "recursive_default",
                  "live_out_refs", "range_value"}
