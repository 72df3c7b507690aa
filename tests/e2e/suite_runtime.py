"""The runtime: guards under mutation, stale artifacts, the cache limit, the
frame hook (`dynac run`), logs, deoptimisation, recursion, threads, signals,
and reference counts over 10 million calls."""
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import types
import traceback
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import case, check, done, dynac_cmd, load_module, same  # noqa: E402

import dynac  # noqa: E402

TMP = tempfile.mkdtemp(prefix="dynac-rt-")
_n = 0


def build_module(source, name=None, build=True):
    """Writes `source` as a fresh module, builds it, imports it."""
    global _n
    _n += 1
    name = name or "m%d" % _n
    d = os.path.join(TMP, name)
    os.makedirs(d)
    path = os.path.join(d, name + ".py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(source))
    if build:
        r = dynac_cmd("build", path)
        if r.returncode:
            raise AssertionError(r.stderr)
    return load_module(path, name), path


def served(mod, fn):
    return dynac.stats().get("%s.%s" % (mod.__name__, fn), {}).get("kernel_calls", 0)


@case
def no_build_returns_the_function():
    mod, _ = build_module("""
        import dynac
        def plain(x: float) -> float:
            return x
        @dynac.compile
        def f(x: float) -> float:
            return x * 2.0
        """, build=False)
    return type(mod.f).__name__ == "function" and mod.f(2.0) == 4.0


@case
def compiled_function_looks_like_the_function():
    mod, _ = build_module('''
        import dynac
        @dynac.compile
        def f(x: float) -> float:
            """doc"""
            return x * 2.0
        ''')
    f = mod.f
    return (isinstance(f, dynac.CompiledFunction) and f.__name__ == "f" and f.__doc__ == "doc"
            and f.__wrapped__.__name__ == "f" and f.__defaults__ is None and f(x=3.0) == 6.0
            and f.__module__ == mod.__name__)


@case
def stale_artifact_never_runs():
    src = """
        import dynac
        @dynac.compile
        def f(x: int) -> int:
            return x + %d
        """
    mod, path = build_module(src % 1)
    with open(path, "w") as fh:  # edit after the build: the artifact is stale
        fh.write(textwrap.dedent(src % 2))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        mod2 = load_module(path, mod.__name__ + "_again")
    warned = any("built from a different version" in str(x.message) for x in w)
    return (mod2.f(1) == 3 and type(mod2.f).__name__ == "function" and warned,
            "f(1)=%r warnings=%r" % (mod2.f(1), [str(x.message) for x in w]))


@case
def same_size_edit_with_mtime_restored_is_stale():
    """An edit that keeps the file's size and mtime (cp -p, rsync -t, git),
    then importlib.reload: the bytes reloaded are hashed, not the stat."""
    import importlib
    src = """
        import dynac
        @dynac.compile
        def f(x: int) -> int:
            return x + %d
        """
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # no .pyc: the reload compiles the edited bytes
    try:
        mod, path = build_module(src % 1)
        sys.path.insert(0, os.path.dirname(path))  # reload finds the module again
        sys.modules[mod.__name__] = mod
        first = mod.f(1)
        st = os.stat(path)
        with open(path, "w") as fh:
            fh.write(textwrap.dedent(src % 2))
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mod = importlib.reload(mod)
        warned = any("built from a different version" in str(x.message) for x in w)
        return (first == 2 and mod.f(1) == 3 and warned and os.stat(path).st_size == st.st_size,
                "f(1)=%r warnings=%r" % (mod.f(1), [str(x.message) for x in w]))
    finally:
        sys.dont_write_bytecode = saved
        sys.modules.pop(mod.__name__, None)
        sys.path.remove(os.path.dirname(path))


@case
def guards_follow_globals_builtins_and_code():
    mod, _ = build_module("""
        import dynac
        SCALE = 2.0
        def helper(x):
            return x + 1.0
        @dynac.compile
        def f(x: float) -> float:
            return helper(x) * SCALE + max(x, 0.0)
        """)
    results = [mod.f(1.0)]                      # 2*2 + 1 = 5
    mod.SCALE = 10.0
    results.append(mod.f(1.0))                  # 2*10 + 1 = 21
    mod.SCALE = 3                               # an int now: guard fails, interpreter
    results.append(mod.f(1.0))                  # 2*3 + 1 = 7.0
    mod.SCALE = 2.0
    mod.helper = lambda x: x - 1.0
    results.append(mod.f(1.0))                  # 0*2 + 1 = 1.0
    del mod.helper
    def helper(x):
        return x * 100.0
    mod.helper = helper
    results.append(mod.f(1.0))                  # 200 + 1 = 201
    mod.max = lambda a, b: -5.0                 # shadow the builtin
    results.append(mod.f(1.0))                  # 200 - 5 = 195
    del mod.max
    helper.__code__ = (lambda x: x * 0.5).__code__
    results.append(mod.f(1.0))                  # 1 + 1 = 2
    expected = [5.0, 21.0, 7.0, 1.0, 201.0, 195.0, 2.0]
    return results == expected and served(mod, "f") >= 2, "got %r" % results


@case
def callee_defaults_are_guarded():
    mod, _ = build_module("""
        import dynac
        def step(x, h=0.5):
            return x + h
        @dynac.compile
        def f(x: float) -> float:
            return step(x) + step(x, h=2.0)
        """)
    results = [mod.f(1.0)]                       # 1.5 + 3.0
    mod.step.__defaults__ = (10.0,)
    results.append(mod.f(1.0))                   # 11 + 3
    mod.step.__defaults__ = (1,)                 # an int default: guard fails, interpreter
    results.append(mod.f(1.0))                   # 2.0 + 3.0
    return results == [4.5, 14.0, 5.0] and served(mod, "f") >= 2, "got %r" % results


REBIND_SOURCE = """
    import math
    import dynac
    SCALE = 2.0
    LIMIT = 6
    def helper(x, h=1.0):
        return x + h
    def other(x, h=1.0):
        return x - h
    def poke(cb, i):
        cb(i)
    @dynac.compile
    def f(n: int, cb: object) -> float:
        t = 0.0
        for i in range(n):
            poke(cb, i)
            t += helper(float(i)) * SCALE + max(float(i), 0.5) + math.sqrt(float(i))
        return t
    def nudge(cb, i):
        cb(i)
        return 1.0
    @dynac.compile
    def h(n: int, cb: object) -> float:
        t = 0.0
        for i in range(n):
            t += nudge(cb, i) * SCALE + max(float(i), 0.5)
        return t
    @dynac.compile
    def g(cb: object) -> int:
        k = 0
        while k < LIMIT:
            cb(k)
            k += 1
        return k
    @dynac.compile(signatures=["(object, int)"])
    def d(xs, n):
        t = 0.0
        for i in range(n):
            xs[i] = 1.0
            t += SCALE
        return t
    """


@case
def globals_rebound_mid_call_are_seen():
    """Python code a kernel calls (here through a compiled callee) rebinds
    what the kernel reads: a module function it calls directly, a scalar
    global (its value, then its type), a builtin (shadowed), math.sqrt, the
    callee's __defaults__ and __code__, and a while loop's bound; in h,
    within the statement that reads them after the call that changed them.
    The rest of the call sees each change, as the interpreter's LOAD_GLOBAL
    does (the kernel goes on in the interpreter from the next statement
    that reads one, or around the operands the statement had evaluated);
    the same calls run uncompiled give the expected values."""
    import math
    mod, _ = build_module(REBIND_SOURCE)
    ref, _ = build_module(REBIND_SOURCE, build=False)
    sqrt = math.sqrt

    def changes(m):
        helper = m.helper
        yield lambda: setattr(m, "helper", m.other)
        yield lambda: setattr(m, "SCALE", 5.0)
        yield lambda: setattr(m, "SCALE", 7)
        yield lambda: setattr(m, "max", lambda a, b: -1.0)
        yield lambda: setattr(math, "sqrt", lambda x: 100.0)
        yield lambda: setattr(helper, "__defaults__", (10.0,))
        yield lambda: setattr(helper, "__code__", m.other.__code__)

    def restore(m, helper, code):
        m.helper, m.SCALE = helper, 2.0
        m.__dict__.pop("max", None)
        math.sqrt = sqrt
        helper.__defaults__, helper.__code__ = (1.0,), code

    got, want = [], []
    for m, out in ((mod, got), (ref, want)):
        helper, code = m.helper, m.helper.__code__
        for change in changes(m):
            try:
                out.append(m.f(8, lambda i, change=change: change() if i == 3 else None))
            finally:
                restore(m, helper, code)
        for change in (lambda: setattr(m, "SCALE", 5.0), lambda: setattr(m, "SCALE", 7),
                       lambda: setattr(m, "max", lambda a, b: -1.0)):  # within the statement, after nudge()
            try:
                out.append(m.h(8, lambda i, change=change: change() if i == 3 else None))
            finally:
                restore(m, helper, code)
        m.LIMIT = 6
        out.append(m.g(lambda k: setattr(m, "LIMIT", 2) if k == 1 else None))
        m.LIMIT = 6
        out.append(m.f(8, lambda i: None))
    return got == want and served(mod, "f") >= 8 and served(mod, "g") >= 1 and served(mod, "h") >= 3, \
        "compiled %r, interpreted %r, served f %d g %d h %d" % (got, want, served(mod, "f"), served(mod, "g"),
                                                                served(mod, "h"))


@case
def globals_rebound_by_a_released_item_are_seen():
    """An item a kernel replaces (xs[i] = 1.0) was the last reference to an
    object whose __del__ rebinds SCALE: the rest of the call reads the new
    value, as the interpreter does. A list's float or int item released
    runs no Python code (runtime/objects.h: dynac_obj_setitem), an object
    item may."""
    mod, _ = build_module(REBIND_SOURCE)
    ref, _ = build_module(REBIND_SOURCE, build=False)
    got, want = [], []
    for m, out in ((mod, got), (ref, want)):
        class Rebinds:
            def __del__(self):
                m.SCALE = 5.0
        try:
            out.append(m.d([0.5, 2, Rebinds(), 3.0, 4.0], 5))
            out.append(m.d([0.5, 2, 3.0], 3))
        finally:
            m.SCALE = 2.0
    return got == want and served(mod, "d") >= 2, \
        "compiled %r, interpreted %r, served d %d" % (got, want, served(mod, "d"))


HEAP_SOURCE = """
    import heapq
    import dynac
    SCALE = 2.0
    class Item:
        def __init__(self, k, cb):
            self.k = k
            self.cb = cb
        def __lt__(self, o):
            self.cb(self.k)
            return self.k < o.k
    @dynac.compile(signatures=["(object)"])
    def drain(heap):
        t = 0.0
        while heap:
            it = heapq.heappop(heap)
            t += it.k * SCALE
        return t
    @dynac.compile(signatures=["(object, object)"])
    def fill(heap, items):
        t = 0.0
        for it in items:
            heapq.heappush(heap, it)
            t += SCALE
        return t
    """
HEAP_DRIVER = """
import heapq
import {0} as m
for _ in range(3):
    h = [m.Item(k, abs) for k in (5, 1, 4)]
    heapq.heapify(h)
    m.drain(h)
    m.fill([], [m.Item(k, abs) for k in (5, 1, 4)])
"""


@case
def globals_rebound_in_heap_comparisons_are_seen():
    """heapq's compiled heappop and heappush compare with Item.__lt__'s
    kernel (built from a profile: a kernel per pair of classes), whose
    callback rebinds SCALE mid-call: the rest of the call reads the new
    value, as the interpreter does."""
    import heapq
    ref, path = build_module(HEAP_SOURCE, build=False)
    name = ref.__name__ + "c"
    d = os.path.join(TMP, name)
    os.makedirs(d)
    src = os.path.join(d, name + ".py")
    with open(path) as f, open(src, "w") as g:
        g.write(f.read())
    with open(os.path.join(d, "drive.py"), "w") as f:
        f.write(HEAP_DRIVER.format(name))
    prof = os.path.join(d, "p.json")
    steps = [dynac_cmd("record", "-o", prof, "drive.py", cwd=d),
             dynac_cmd("build", "--all", "--profile", prof, src, cwd=d)]
    bad = [r for r in steps if r.returncode]
    if bad:
        return False, bad[0].stderr
    mod = load_module(src, name)
    got, want = [], []
    for m, out in ((mod, got), (ref, want)):
        def cb(k, m=m):
            if k == 3:
                m.SCALE = 5.0
        try:
            h = [m.Item(k, cb) for k in (5, 1, 4, 2, 3, 6, 0)]
            heapq.heapify(h)
            out.append(m.drain(h))
            m.SCALE = 2.0
            out.append(m.fill([], [m.Item(k, cb) for k in (5, 1, 4, 2, 3, 6, 0)]))
        finally:
            m.SCALE = 2.0
    lt = dynac.stats().get(name + ".Item.__lt__", {}).get("direct_calls", 0)
    return got == want and served(mod, "drain") >= 1 and served(mod, "fill") >= 1 and lt > 0, \
        "compiled %r, interpreted %r, Item.__lt__ kernel calls %d" % (got, want, lt)


CALLEE_SOURCE = """
    import dynac
    def helper(x, h=1):
        return x + h
    def plain(x):
        return x + 1
    def minus(x):
        return x - 1
    def recode(i):
        plain.__code__ = minus.__code__
        return i
    def redefault(i):
        helper.__defaults__ = (10,)
        return i
    def rebind(i):
        global plain
        plain = minus
        return i
    def other_helper(x, h=100):
        return x - h
    def rebind_helper(i):
        global helper
        helper = other_helper
        return i
    def sq(x):
        return x * x
    def boom(x):
        raise ValueError("boom %d" % x)
    def recode_boom(i):
        plain.__code__ = boom.__code__
        return i
    @dynac.compile
    def code_in_args(n: int) -> int:
        return plain(recode(n)) * 2
    @dynac.compile
    def defaults_in_args(n: int) -> int:
        return helper(redefault(n)) * 2
    @dynac.compile
    def rebound_in_args(n: int) -> int:
        return plain(rebind(n)) * 2
    @dynac.compile
    def quiet_args(n: int, k: int) -> int:
        return helper(n * k + 1)
    @dynac.compile
    def raises_in_args(n: int) -> int:
        t = n + 1
        return plain(recode_boom(t)) * 2
    @dynac.compile
    def default_rebound_in_args(n: int) -> int:
        return helper(rebind_helper(n)) * 2
    @dynac.compile
    def keyword_after_rebinding(n: int) -> int:
        return helper(rebind_helper(n), h=sq(n)) * 2
    @dynac.compile
    def keyword_rebinding(n: int) -> int:
        return helper(n, h=rebind_helper(sq(n))) + helper(n)
    """


@case
def callee_changed_by_its_arguments():
    """helper(recode(n)): CPython's LOAD_GLOBAL reads helper before its
    argument runs, so the function called is the one read then, with
    whatever __code__ and defaults it has when called: an assignment to
    them by the argument's code counts (the new code runs), a rebinding of
    the name does not (the old function runs, with its own defaults, also
    where the statement goes on in the interpreter: a later argument reads
    a module function, checked again). Compared with the same module
    uncompiled (an exception the new code raises: its message and
    traceback lines); each compiled function served by its kernel."""
    mod, _ = build_module(CALLEE_SOURCE)
    ref, _ = build_module(CALLEE_SOURCE, build=False)
    got, want = [], []
    fns = ("code_in_args", "defaults_in_args", "rebound_in_args", "raises_in_args", "default_rebound_in_args",
           "keyword_after_rebinding", "keyword_rebinding")
    for m, out in ((mod, got), (ref, want)):
        helper = m.helper
        for fn in fns:
            plain, code = m.plain, m.plain.__code__
            try:
                out.append(getattr(m, fn)(10))
            except ValueError as e:  # the new code's exception, raised from its line
                tb = traceback.extract_tb(e.__traceback__)
                out.append((str(e), [(f.name, f.lineno) for f in tb[1:]]))
            finally:
                m.plain, plain.__code__, m.helper, helper.__defaults__ = plain, code, helper, (1,)
        out.append(m.quiet_args(3, 4))
    calls = [served(mod, fn) for fn in fns + ("quiet_args",)]
    return got == want and min(calls) >= 1, "compiled %r, interpreted %r, served %r" % (got, want, calls)


@case
def cache_size_limit_warns_once():
    sigs = ", ".join('"(%s)"' % ", ".join(t) for t in
                     [(a, b) for a in ("int", "float", "bool") for b in ("int", "float", "bool")])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        mod, _ = build_module("""
            import dynac
            @dynac.compile(signatures=[%s])
            def f(a, b):
                return a + b
            """ % sigs)
    msgs = [str(x.message) for x in w if "cache_size_limit" in str(x.message)]
    ok = len(msgs) == 1 and same(mod.f(True, True), 2) and same(mod.f(1.5, 2), 3.5)
    return ok, "warnings: %r" % msgs


@case
def deopt_gives_cpython_exception_and_traceback():
    mod, path = build_module("""
        import dynac
        @dynac.compile
        def f(a: int, b: int) -> int:
            c = a * 2
            return c // b
        """)
    try:
        mod.f(1, 0)
    except ZeroDivisionError as e:
        tb = traceback.extract_tb(e.__traceback__)[-1]
        ok = tb.filename == path and tb.lineno == 6 and str(e) == "integer division or modulo by zero"
        return ok, "%s:%s %s" % (tb.filename, tb.lineno, e)
    return False, "no exception"


@case
def int_overflow_gives_exact_results():
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def f(a: int, n: int) -> int:
            r = 1
            for i in range(n):
                r = r * a + i
            return r
        """)
    return all(mod.f(a, n) == mod.f.__wrapped__(a, n)
               for a in (3, -7, 2**31, 10) for n in (0, 5, 40, 80))


@case
def recursion_matches_cpython():
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def depth(n: int) -> int:
            if n == 0:
                return 0
            return depth(n - 1) + 1
        """)
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(5000)
        ok1 = mod.depth(3000) == 3000
        try:
            mod.depth(100000)
            ok2 = False
        except RecursionError:
            ok2 = True
    finally:
        sys.setrecursionlimit(old)
    return ok1 and ok2 and served(mod, "depth") > 0


DEEP_PROG = """
import sys
sys.path.insert(0, %r)
import %s as mod
sys.setrecursionlimit(10**6)
print(mod.depth(20000), mod.depth(200000))
try:
    mod.depth(2 * 10**6)
    print("no error")
except RecursionError:
    print("RecursionError")
"""


@case
def raised_recursion_limit_never_crashes():
    """sys.setrecursionlimit(10**6): deep compiled recursion gives eager's
    answers (it segfaulted at 20,000), and past the limit CPython's
    RecursionError, never a crash (run in a child process)."""
    mod, path = build_module("""
        import dynac
        @dynac.compile
        def depth(n: int) -> int:
            if n == 0:
                return 0
            return depth(n - 1) + 1
        """)
    r = subprocess.run([sys.executable, "-c", DEEP_PROG % (os.path.dirname(path), mod.__name__)],
                       capture_output=True, text=True, timeout=300)
    return (r.returncode == 0 and r.stdout == "20000 200000\nRecursionError\n",
            "rc %d: %s %s" % (r.returncode, r.stdout, r.stderr[-1500:]))


@case
def long_kernel_lets_other_threads_run():
    """A kernel loop honours the eval breaker: a ticker thread keeps running
    while a compiled loop holds the interpreter (it ran once in 8 s before)."""
    import time
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def spin(n: int) -> int:
            s = 0
            for i in range(n):
                s = (s + i * 7) % 1000003
            return s
        """)
    mod.spin(10)
    ticks = [0]
    stop = [False]

    def ticker():
        while not stop[0]:
            ticks[0] += 1
            time.sleep(0.001)

    th = threading.Thread(target=ticker)
    th.start()
    time.sleep(0.05)
    before = ticks[0]
    t0 = time.perf_counter()
    n = 1
    while time.perf_counter() - t0 < 0.5:  # a call of at least 0.3 s
        n *= 4
        t0 = time.perf_counter()
        before = ticks[0]
        mod.spin(n)
    during = ticks[0] - before
    elapsed = time.perf_counter() - t0
    stop[0] = True
    th.join()
    # the interpreter switches every 5 ms: a 0.5 s call gives the ticker
    # ~100 turns; a loop that never lets go gives it at most one
    return during >= 10 and served(mod, "spin") > 0, "%d ticks in %.2f s" % (during, elapsed)


@case
def threads_share_kernels_safely():
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def f(n: int) -> int:
            s = 0
            for i in range(n):
                s += i % 7
            return s
        """)
    results, expected = [], mod.f.__wrapped__(20000)

    def work():
        results.append(all(mod.f(20000) == expected for _ in range(200)))

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return results == [True] * 4


@case
def ctrl_c_interrupts_a_kernel_loop():
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def spin(n: int) -> int:
            i = 0
            while i >= 0:
                i = (i + n) % 1000003
            return i
        """)
    def handler(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        mod.spin(1)
        return False, "returned"
    except KeyboardInterrupt:
        return True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@case
def ctrl_c_interrupts_every_shape_of_range_loop():
    """Range loops tick by blocks (DYNAC_LOOP_BLOCK): an innermost loop
    charges its iterations before it runs them, a short one nested in a
    loop only charges them, and the enclosing loop's tick runs the eval
    breaker. Each shape must still be interrupted: a long innermost loop,
    short inner loops under a long outer one, a long inner loop under a
    short outer one, a comprehension inside an innermost loop, and loops
    left by break and continue."""
    import time
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def top(n: int) -> int:
            s = 0
            for i in range(n):
                s = (s + i) % 1000003
            return s
        @dynac.compile
        def short_inner(n: int, d: int) -> int:
            s = 0
            for i in range(n):
                for k in range(d):
                    s = (s + k) % 1000003
            return s
        @dynac.compile
        def long_inner(n: int) -> int:
            s = 0
            for i in range(1):
                for k in range(n):
                    s = (s + k) % 1000003
            return s
        @dynac.compile
        def comprehension_inside(n: int, d: int) -> int:
            s = 0
            for i in range(n):
                s = (s + sum([k for k in range(d)])) % 1000003
            return s
        @dynac.compile
        def breaks_and_continues(n: int, d: int) -> int:
            s = 0
            for i in range(n):
                for k in range(d):
                    if k == 2:
                        continue
                    if k == 5:
                        break
                    s = (s + k) % 1000003
            return s
        """)
    # Seconds of work each when nothing ticks (then the signal's exception
    # comes only once the call is over, from the interpreter); the alarm
    # comes after 0.05 s. Fewer than 65536 outer iterations: only the
    # inner loops' charges can spend the budget.
    calls = {"top": (3 * 10**9,), "short_inner": (60000, 65536), "long_inner": (3 * 10**9,),
             "comprehension_inside": (60000, 200000), "breaks_and_continues": (10**9, 9)}

    def handler(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, handler)
    try:
        bad = []
        for name, args in calls.items():
            small = tuple(a if a < 100 else 50 for a in args)
            if getattr(mod, name)(*small) != getattr(mod, name).__wrapped__(*small):
                bad.append(name + ": differs")
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            t0 = time.perf_counter()
            try:
                getattr(mod, name)(*args)
                bad.append(name + ": returned")
            except KeyboardInterrupt:
                late = time.perf_counter() - t0
                if late > 1.0:
                    bad.append("%s: interrupted only after %.1f s" % (name, late))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if served(mod, name) == 0:
                bad.append(name + ": not served")
        return not bad, "; ".join(bad)
    finally:
        signal.signal(signal.SIGALRM, old)


@case
def ctrl_c_interrupts_a_speculative_loop():
    """A speculative inner loop charges its iterations to the budget before
    it and leaves the eval breaker to the enclosing loop's next tick: a
    signal still interrupts the call within the next outer iteration."""
    try:
        import numpy as np
    except ImportError:
        return True  # (Debian's python3 has numpy: make test runs this there)
    mod, _ = build_module("""
        import dynac
        @dynac.compile(signatures=["(ndarray[d, 2], int)"])
        def spin(X, n):
            s = 0.0
            for i in range(n):
                for k in range(X.shape[1]):
                    t = float(X[0, k] - X[1, k])
                    s += t * t
            return s
        """)
    X = np.ones((2, 60000))
    X[1] = 0.5
    small = mod.spin(X, 3) == mod.spin.__wrapped__(X, 3)

    def handler(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        t0 = time.perf_counter()
        try:
            mod.spin(X, 10**6)  # about a minute of work
            return False, "returned"
        except KeyboardInterrupt:
            late = time.perf_counter() - t0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return small and late < 1.0 and served(mod, "spin") >= 2, "same %s, interrupted after %.2f s" % (small, late)


@case
def numpy_functions_patched_after_the_build():
    """np.sqrt of an item, np.sum of a whole-array expression and a staged
    np.minimum are cached per call site while numpy's module dict keeps its
    version: replacing them after the build (and putting them back) gives
    what the interpreter gives, each time. g's loop is speculative: its
    np.sqrt is tested once before the loop, from the caches its checked copy
    fills; np.sqrt replaced, or the module's global np, must show."""
    try:
        import numpy as np
    except ImportError:
        return True  # (Debian's python3 has numpy: make test runs this there)
    mod, _ = build_module("""
        import numpy as np
        import dynac
        @dynac.compile(signatures=["(ndarray[d], ndarray[d])"])
        def f(x, y):
            s = 0.0
            for i in range(len(x)):
                s += np.sqrt(x[i] * x[i] + 1.0)
            t = np.sum((x - y) * 2.0)
            m = np.minimum(x * 0.5, y)
            return s, t, m
        @dynac.compile(signatures=["(ndarray[d], float)"])
        def g(x, w):
            s = x[0] * 0.0
            for i in range(len(x)):
                s += np.sqrt(x[i] * x[i] + w)
            return s
        """)
    x, y = np.array([3.0, -4.0, 0.5]), np.array([1.0, 2.0, -8.0])

    def same():
        a, b = (mod.f(x, y), mod.g(x, 0.5)), (mod.f.__wrapped__(x, y), mod.g.__wrapped__(x, 0.5))
        return repr(a) == repr(b), (a, b)

    results = [same()]
    real = (np.sqrt, np.sum, np.minimum)
    try:
        np.sqrt = lambda v: -1.5
        np.sum = lambda a: "summed"
        np.minimum = lambda a, b: ("min", len(a))
        results.append(same())
    finally:
        np.sqrt, np.sum, np.minimum = real
    results.append(same())
    mod.np = types.SimpleNamespace(sqrt=lambda v: v * 10.0, sum=np.sum, minimum=np.minimum)  # the global np
    results.append(same())
    mod.np = np
    results.append(same())
    bad = [r[1] for r in results if not r[0]]
    return not bad and served(mod, "f") >= 2 and served(mod, "g") >= 3, repr((bad, dynac.stats().get(mod.__name__ + ".g")))


@case
def ten_million_calls_do_not_leak():
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def f(x: float, y: float):
            return x * y, x + y
        """)
    x, y = 1.25, 2.5
    rx, ry = sys.getrefcount(x), sys.getrefcount(y)
    f = mod.f
    for _ in range(100000):
        f(x, y)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(10_000_000):
        f(x, y)
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    ok = sys.getrefcount(x) == rx and sys.getrefcount(y) == ry and rss1 - rss0 < 8 * 1024
    return ok and served(mod, "f") >= 10_000_000, "rss growth %d KiB, refcounts %d->%d %d->%d" % (
        rss1 - rss0, rx, sys.getrefcount(x), ry, sys.getrefcount(y))


RUN_SCRIPT = """
import asyncio
import sys

def hot(x, y):
    return x * y + 1.0

def counter(n):
    for i in range(n):
        yield hot(float(i), 2.0)

async def co(x):
    return hot(x, 3.0)

def main():
    total = 0.0
    for i in range(1000):
        total += hot(float(i), 0.5)
        total += hot(y=1.0, x=float(i))   # keywords: bound by the frame, then dispatched
    total += sum(counter(10))
    total += asyncio.run(co(2.0))
    print("total", total)

main()
if "unseen" in sys.argv:  # module code: the frame hook dispatches the call
    print("unseen", hot(1.0, 2))  # (float, int) was never recorded: interpreter
"""


@case
def frame_hook_serves_a_recorded_program():
    d = os.path.join(TMP, "runprog")
    os.makedirs(d)
    script = os.path.join(d, "prog.py")
    open(script, "w").write(RUN_SCRIPT)
    prof, out, stats = (os.path.join(d, n) for n in ("p.json", "out", "stats.json"))
    r1 = dynac_cmd("record", "-o", prof, script)
    r2 = dynac_cmd("build", script, "--profile", prof, "-o", out)
    eager = subprocess.run([sys.executable, script, "unseen"], capture_output=True, text=True)
    r3 = dynac_cmd("run", "--path", out, "--stats", stats, script, "unseen",
                   env={"DYNAC_LOGS": "dispatch,guards"})
    if r1.returncode or r2.returncode or r3.returncode:
        return False, r1.stderr + r2.stderr + r3.stderr
    s = json.load(open(stats))["__main__.hot"]
    ok = (r3.stdout == eager.stdout and s["kernel_calls"] + s["direct_calls"] >= 2000
          and s["interpreter_calls"] >= 1
          and "[dynac dispatch] __main__.hot: kernel (float, float) -> float served the call" in r3.stderr
          and "[dynac guards] __main__.hot: entry (float, float) -> float rejected: guard 'type(y) is float' failed" in r3.stderr
          and "[dynac dispatch] __main__.hot: interpreter" in r3.stderr)
    return ok, "stdout %r vs %r; stats %r; stderr %s" % (r3.stdout, eager.stdout, s, r3.stderr[-2000:])


@case
def artifact_of_a_non_ascii_file_name_is_found():
    """café-2d.py: the generator and the loader name the artifact with one
    piece of code (runtime/artifact.h), a UTF-8 byte becoming one '_'
    (caf___2d); the loader's own copy of the rule used to look for caf__2d."""
    mod, path = build_module("""
        import dynac
        @dynac.compile
        def f(x: float) -> float:
            return x * 2.0
    """, name="caf\u00e9-2d")
    art = [n for n in os.listdir(os.path.join(os.path.dirname(path), "__dynac__")) if n.endswith(".so")]
    return (mod.f(2.0) == 4.0 and served(mod, "f") == 1 and art and art[0].startswith("caf___2d__dynac"),
            (art, dynac.stats()))


@case
def long_type_names_are_never_cut():
    """A tuple annotation nested 77 deep: its C names (hundreds of
    characters) are declared and used whole."""
    ann = "int"
    for _ in range(77):
        ann = "tuple[%s, int]" % ann
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def depth(x: %s) -> int:
            inner, k = x
            return k + 76
    """ % ann)
    v = 1
    for _ in range(77):
        v = (v, 1)
    return mod.depth(v) == 77 and served(mod, "depth") == 1, dynac.stats().get(mod.__name__ + ".depth")


@case
def object_parameter_keeps_int_parameters_usable():
    """An `object` parameter beside `n: int`: n stays an int where it must
    (range(n) was refused as "range() of a object"), and the kernel serves."""
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def total(n: int, tag: object) -> int:
            t = 0
            for i in range(n):
                t += i
            return t
    """)
    r = [mod.total(10, "x"), mod.total(0, None), mod.total(-3, 1.5)]
    return r == [45, 0, 0] and served(mod, "total") == 3, (r, dynac.stats().get(mod.__name__ + ".total"))


@case
def guard_failures_count_unserved_calls():
    """guard_failures counts the calls no entry accepted, not the misses of
    earlier entries before a later one served the call."""
    mod, _ = build_module("""
        import dynac
        @dynac.compile(signatures=["(int)", "(float)"])
        def f(x):
            return x + 1
    """)
    dynac.reset_stats()
    for i in range(10):
        mod.f(i + 0.5)
    mod.f("a" if False else 2)
    mod.f(True)
    s = dynac.stats()[mod.__name__ + ".f"]
    per_entry = {e["signature"]: e["guard_failures"] for e in s["entries"]}
    return (s["kernel_calls"] == 11 and s["guard_failures"] == 1 and s["interpreter_calls"] == 1
            and sum(per_entry.values()) > 1), repr(s)


@case
def first_entry_deopting_hands_the_call_to_the_next():
    """The entry that served last is tried first (the dispatch's fast path);
    when its kernel deoptimises (an int64 overflow), the next entry serves
    the call, and the kernel that deoptimised does not run twice."""
    mod, _ = build_module("""
        import dynac
        LOG = []
        @dynac.compile(signatures=["(int)", "(object)"])
        def f(x):
            y = x * x + 1  # overflows int64 before any effect: the int kernel deoptimises
            LOG.append(x)
            return y
    """)
    dynac.reset_stats()
    got = [mod.f(3), mod.f(2 ** 40), mod.f(-5), mod.f(2 ** 40)]
    want = [10, 2 ** 80 + 1, 26, 2 ** 80 + 1]
    s = dynac.stats()[mod.__name__ + ".f"]
    hits = {e["signature"].split(")")[0] + ")": e["hits"] for e in s["entries"]}
    return (got == want and mod.LOG == [3, 2 ** 40, -5, 2 ** 40] and s["kernel_calls"] == 4 and
            s["deopts"] == 2 and s["interpreter_calls"] == 0 and hits == {"(int)": 2, "(object)": 2}), \
        repr((got, mod.LOG, s))


@case
def deopt_is_not_a_guard_failure():
    """A call whose only entry's guards pass but whose kernel deoptimises
    (an int64 overflow) on the dispatch's fast path is a deopt, not a guard
    failure: counted as one, and a JIT root is not asked to compile for
    types it has a kernel for (it rebuilt the module and warned "no
    specialisation ... could be compiled")."""
    mod, _ = build_module("""
        import dynac
        @dynac.compile
        def f(x: int) -> int:
            return x * x + 1
    """)
    dynac.reset_stats()
    got = [mod.f(3), mod.f(2 ** 40), mod.f(2 ** 40), mod.f(-5)]
    s = dynac.stats()[mod.__name__ + ".f"]
    return (got == [10, 2 ** 80 + 1, 2 ** 80 + 1, 26] and s["deopts"] == 2 and s["guard_failures"] == 0
            and s["interpreter_calls"] == 2 and s["kernel_calls"] == 2), repr((got, s))


ANNOTATED_SCRIPT = """
def hot(x: float,
        # a comment among the parameters is no *args
        y: float = 2.0) -> float:
    return x * y + 1.0

total = 0.0
for i in range(500):
    total += hot(float(i))
print("total", total)
"""


@case
def recorded_annotated_function_is_a_root():
    """A recorded function whose recorded types are its annotations is
    dispatched from interpreted callers (it was a callee-only kernel), and a
    comment among its parameters does not stop it compiling."""
    d = os.path.join(TMP, "annotated")
    os.makedirs(d)
    script = os.path.join(d, "prog.py")
    open(script, "w").write(ANNOTATED_SCRIPT)
    prof, out, stats = (os.path.join(d, n) for n in ("p.json", "out", "stats.json"))
    r1 = dynac_cmd("record", "-o", prof, script)
    r2 = dynac_cmd("build", script, "--profile", prof, "-o", out)
    r3 = dynac_cmd("run", "--path", out, "--stats", stats, script)
    if r1.returncode or r2.returncode or r3.returncode:
        return False, r1.stderr + r2.stderr + r3.stderr
    s = json.load(open(stats)).get("__main__.hot", {})
    # Built without the profile, hot is a callee-only kernel: the log says so.
    r4 = dynac_cmd("build", script, "-o", out + "2")
    r5 = dynac_cmd("run", "--path", out + "2", script, env={"DYNAC_LOGS": "dispatch"})
    said = "__main__.hot: interpreter (not a compile root" in r5.stderr
    return (s.get("kernel_calls", 0) == 500 and said and not r4.returncode,
            "stats %r; %s; %s" % (s, r2.stderr, r5.stderr))


HOOK_PROBE = """
from dynac import _runtime
print("hook before", _runtime.hook_installed())
import later
print("hook after", _runtime.hook_installed(), later.hot(2.0))
"""


@case
def run_installs_the_hook_only_once_something_is_compiled():
    """`dynac run` of a program with nothing compiled runs without the
    frame hook (CPython 3.11 then inlines Python-to-Python calls); importing
    a module that has an artifact installs it, and its function is served."""
    d = os.path.join(TMP, "deferred_hook")
    os.makedirs(d)
    open(os.path.join(d, "later.py"), "w").write(
        "import dynac\n@dynac.compile\ndef hot(x: float) -> float:\n    return x * 2.0\n")
    script = os.path.join(d, "prog.py")
    open(script, "w").write(HOOK_PROBE)
    out, stats = os.path.join(d, "out"), os.path.join(d, "stats.json")
    r1 = dynac_cmd("build", os.path.join(d, "later.py"), "-o", out)
    r2 = dynac_cmd("run", "--path", out, "--stats", stats, script, cwd=d)
    if r1.returncode or r2.returncode:
        return False, r1.stderr + r2.stderr
    s = json.load(open(stats)).get("later.hot", {})
    return (r2.stdout == "hook before False\nhook after True 4.0\n" and s.get("kernel_calls") == 1,
            "%r %r" % (r2.stdout, s))


PARK_LIB = """
import dynac


def leaf(x: float) -> float:
    return x * 2.0 + 1.0


@dynac.compile
def drive(f: object, n: int) -> float:
    t = 0.0
    for i in range(n):
        t += f(i)
    return t
"""

PARK_PROG = """
import time

import lib


def idle(k):
    return k


def calls_leaf(n):
    t = 0.0
    for i in range(n):
        t += lib.leaf(float(i))
    return t


def cb(i):
    return float(idle(i)) if i < 5000 else lib.leaf(float(i))


t = calls_leaf(100)      # served through the frame hook
for k in range(140000):
    idle(k)              # two windows of 65536 frames, the second serving nothing: the hook parks
t += calls_leaf(100)     # parked: the interpreter runs leaf
t += sum(map(lib.leaf, [1.0, 2.0]))  # called from C: served through the patched vectorcall; its
                         # return does not reinstall the hook
t += calls_leaf(100)     # still parked: the interpreter runs leaf
time.sleep(0.5)          # the timer reinstalls the hook (after 50 ms)
t += calls_leaf(100)     # served again
t += lib.drive(cb, 5100)  # in the kernel, 10000 frames that serve nothing park the hook: the last
                         # 100 calls of leaf run in the interpreter
t += calls_leaf(100)     # the kernel returned: served again
print(t)
"""


@case
def frame_hook_parks_where_it_serves_nothing():
    """CPython 3.11 inlines no Python-to-Python call while a frame hook is
    installed: the hook parks when the calls it served took under a fifth of
    the time of its last 65536 frames (after 4096 frames in a row it did not
    serve while a kernel runs); a kernel's return, or a timer, reinstalls it.
    Results stay exact; only the calls made while it is parked run in the
    interpreter."""
    d = os.path.join(TMP, "parking")
    os.makedirs(d)
    open(os.path.join(d, "lib.py"), "w").write(PARK_LIB)
    script = os.path.join(d, "prog.py")
    open(script, "w").write(PARK_PROG)
    out, stats = os.path.join(d, "out"), os.path.join(d, "stats.json")
    eager = subprocess.run([sys.executable, script], capture_output=True, text=True, cwd=d)
    r1 = dynac_cmd("build", "--all", os.path.join(d, "lib.py"), "-o", out)
    r2 = dynac_cmd("run", "--path", out, "--stats", stats, script, cwd=d, env={"DYNAC_LOGS": "dispatch"})
    if r1.returncode or r2.returncode:
        return False, r1.stderr + r2.stderr
    st = json.load(open(stats))
    leaf, drive = st.get("lib.leaf", {}), st.get("lib.drive", {})
    parks = r2.stderr.count("[dynac dispatch] frame hook parked")
    return (r2.stdout == eager.stdout and leaf.get("kernel_calls") == 302 and drive.get("kernel_calls") == 1
            and parks == 2
            and "of the last 65536 frames it met, those it served took under a fifth" in r2.stderr
            and "it met 4096 frames in a row while a kernel ran and served none" in r2.stderr,
            "%r %r %r %r %s" % (r2.stdout, eager.stdout, leaf, drive, r2.stderr[-1500:]))


shutil.rmtree(TMP, ignore_errors=True)
done()
