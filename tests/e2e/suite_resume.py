"""Graph breaks with resume functions: eager vs compiled on corpus_breaks.py,
comparing results, exceptions and their traceback lines, printed output and
side effects, and checking that compiled regions ran."""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import ROOT, check, done, dynac_cmd, load_module as load, same  # noqa: E402

import dynac  # noqa: E402

# The corpus's regions are small on purpose (a statement or two around each break): their
# kernels run only so (_resume.kept); small_regions_stay_interpreted checks the default.
os.environ["DYNAC_SMALL_REGIONS"] = "1"

INF, NAN = float("inf"), float("nan")
INPUTS = {
    "print_between": [(2.0, 3), (-1.5, 5), (0.0, 0), (2, 3), (NAN, 2), (INF, 1), (2.0, -1)],
    "try_in_the_middle": [(0.0,), (2.0,), (-0.0,), (INF,), (NAN,), (2,)],
    "interp_rebinds": [(1.5,), (-0.0,), (1e300,), (3,)],
    "returns_from_regions": [(-5,), (0,), (3,), (11,), (2**62,), (2.5,)],
    "loop_with_print": [(0,), (1,), (7,), (2**3,), (True,)],
    "region_raises": [(1.0, 2.0), (1.0, 0.0), (NAN, 0.0), (2, 1.0)],
    "maybe_unbound": [(1,), (0,), (-3,)],
    "live_out_unbound": [(1,), (3,), (0,)],
    "with_block": [(1.5,), (0.0,)],
    "recursive_partial": [(1,), (5,), (12,), (25,)],
    "recursive_default": [(0,), (1,), (5, True), (-3, False)],
    "live_out_refs": [(0,), (1,), (5,)],
    "range_value": [(0,), (1,), (7,), (-2,)],
    "keyword_called": [(1.5, 2.0), (2.0, 0.5), (-1.0, 0.5)],
    "caller_of_keyword": [(1.5,), (3.0,)],
    "generator_is_never_partial": [(3,)],
    "parser_limited": [(3,), (2**63,)],
    "nested_loop_control": [(0,), (1,), (4,), (7,), (9,), (30,), (-2,)],
    "while_with_try": [(2.0, 4), (0.0, 3), (2.5, 5), (1, 3), (0, 0), (NAN, 2), (-1.0, 2),
                       (2**62, 2)],
    "over_list": [(1.0,), (0.0,), (-2.5,), (INF,), (NAN,), (1e308,)],
    "nested_branches": [(0,), (2,), (3,), (6,), (-7,), (2**62,)],
    "walrus_regions": [(0,), (1,), (5,), (-4,), (2**61,), (2**62,), (2**63 - 1,)],
    "small_in_loop": [(0,), (3,), (40,)],
    "big_in_loop": [(0,), (3,), (40,)],
}


def run(mod, name, args):
    """(outcome, printed text, side-effect log, traceback lines in the module)"""
    del mod.log[:]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        try:
            r = getattr(mod, name)(*args)
            if name == "generator_is_never_partial":
                r = tuple(r)
            out = ("ok", r)
            lines = []
        except Exception as e:  # noqa: BLE001
            out = ("raise", type(e).__name__, str(e))
            lines = [(f.name, f.lineno) for f in traceback.extract_tb(e.__traceback__)
                     if f.filename.endswith("corpus_breaks.py")]
    return out, buf.getvalue(), list(mod.log), lines


def same_run(a, b):
    (oa, pa, la, ta), (ob, pb, lb, tb) = a, b
    if oa[0] != ob[0] or pa != pb or ta != tb or len(la) != len(lb):
        return False
    if not all(same(x, y) for x, y in zip(la, lb)):
        return False
    return same(oa[1], ob[1]) if oa[0] == "ok" else oa[1:] == ob[1:]


def main():
    tmp = tempfile.mkdtemp(prefix="dynac-resume-")
    try:
        for d in ("built", "eager"):
            os.makedirs(os.path.join(tmp, d))
            shutil.copy(os.path.join(ROOT, "tests", "e2e", "corpus_breaks.py"), os.path.join(tmp, d))
        built = os.path.join(tmp, "built", "corpus_breaks.py")
        r = dynac_cmd("build", built)
        if not check("build corpus_breaks.py", r.returncode == 0, r.stderr):
            return
        compiled = load(built, "corpus_breaks")
        eager = load(os.path.join(tmp, "eager", "corpus_breaks.py"), "corpus_breaks_eager")
        dynac.reset_stats()
        for name, cases in sorted(INPUTS.items()):
            bad = []
            for args in cases:
                e, c = run(eager, name, args), run(compiled, name, args)
                if not same_run(e, c):
                    bad.append("%s%r:\n  eager    %r\n  compiled %r" % (name, args, e, c))
            check("resume differential %s (%d inputs)" % (name, len(cases)), not bad, "\n".join(bad[:3]))
        stats = dynac.stats()
        for name in sorted(compiled.EXPECT_REGIONS):
            s = stats.get("corpus_breaks." + name, {})
            check("compiled regions ran in %s" % name,
                  s.get("region_kernel_calls", 0) > 0 and s.get("resume_calls", 0) > 0, repr(s))
        check("small regions run in the interpreter by default, regions with a loop as kernels",
              *small_regions_stay_interpreted(tmp, eager))
        check("a generator is never split", not isinstance(compiled.generator_is_never_partial,
                                                           dynac.CompiledFunction))
        check("a function the grammar cannot parse is never compiled",
              not isinstance(compiled.parser_limited, dynac.CompiledFunction))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


SMALL_PROG = """
import json, sys
sys.path.insert(0, sys.argv[1])
import dynac
import corpus_breaks as m
r = [m.small_in_loop(40), m.big_in_loop(40)]
s = dynac.stats()
print(json.dumps([r, s["corpus_breaks.small_in_loop"], s["corpus_breaks.big_in_loop"]]))
"""


def small_regions_stay_interpreted(tmp, eager):
    """Built and run without DYNAC_SMALL_REGIONS, small_in_loop's regions
    (`t = 0`, and `t += i * 2` inside an interpreted loop) are left to the
    interpreter: no resume function, the interpreter's code object runs;
    big_in_loop's region holds a loop and runs as its kernel. Results as
    eager CPython's; explain says which."""
    env = {k: v for k, v in os.environ.items() if k != "DYNAC_SMALL_REGIONS"}
    built_dir = os.path.join(tmp, "default")
    os.makedirs(built_dir)
    shutil.copy(os.path.join(ROOT, "tests", "e2e", "corpus_breaks.py"), built_dir)
    b = subprocess.run([sys.executable, "-m", "dynac", "build", os.path.join(built_dir, "corpus_breaks.py")],
                       capture_output=True, text=True, env=env)
    if b.returncode:
        return False, b.stderr[-2000:]
    r = subprocess.run([sys.executable, "-c", SMALL_PROG, built_dir], capture_output=True, text=True, env=env)
    if r.returncode:
        return False, r.stderr[-2000:]
    res, small, big = json.loads(r.stdout)
    ex = subprocess.run([sys.executable, "-m", "dynac", "explain", os.path.join(built_dir, "corpus_breaks.py")],
                        capture_output=True, text=True, env=env)
    said = [ln for ln in ex.stdout.splitlines() if ln.startswith(("small_in_loop", "big_in_loop"))]
    ok = (res == [eager.small_in_loop(40), eager.big_in_loop(40)]
          and small.get("resume_calls") == 0 and small.get("region_kernel_calls") == 0
          and big.get("resume_calls") == 1 and big.get("region_kernel_calls", 0) > 0
          and len(said) == 2 and "small regions (lines" in said[0] and "run in the interpreter" in said[0]
          and said[1].startswith("big_in_loop") and "1 region runs as kernels" in said[1])
    return ok, repr((res, small, big, said))


PROG = """
import math
import dynac


@dynac.disable
def show(*args):               # print, in the interpreter: a graph break
    print(*args)


def work(x, n):
    s = 0.0
    for i in range(n):
        s += math.sqrt(x + i)
    show("s", s)
    return s * 2.0

total = 0.0
for k in range(20):
    total += work(float(k), 50)
print("total", total)
"""


def run_path():
    """`dynac run` (the frame hook) serves a recorded, undecorated split function."""
    import json
    import subprocess
    tmp = tempfile.mkdtemp(prefix="dynac-resume-run-")
    try:
        prog = os.path.join(tmp, "prog.py")
        open(prog, "w").write(PROG)
        prof, out, st = (os.path.join(tmp, n) for n in ("p.json", "out", "st.json"))
        r1 = dynac_cmd("record", "-o", prof, prog)
        r2 = dynac_cmd("build", prog, "--profile", prof, "-o", out)
        eager = subprocess.run([sys.executable, prog], capture_output=True, text=True)
        r3 = dynac_cmd("run", "--path", out, "--stats", st, prog)
        s = json.load(open(st))["__main__.work"] if os.path.exists(st) else {}
        check("dynac run serves a split function through the frame hook",
              r1.returncode == r2.returncode == r3.returncode == 0 and r3.stdout == eager.stdout
              and s.get("resume_calls") == 20 and s.get("region_kernel_calls") == 40,
              "stats %r\n%s%s" % (s, r2.stderr, r3.stderr[-1500:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


REGIONS_PROG = """
import array
import dynac

G = [0.5]          # a global of no number type: read through the C API


@dynac.disable
def show(*args):               # print, in the interpreter: a graph break
    print(*args)


@dynac.disable
def text(x):
    return str(x)


def tup(move):                 # a tuple live-in
    a, b = move
    show(a, b)
    return a + b


def arr_global(a):             # an array('d') live-in, a non-constant global
    s = 0.0
    for v in a:
        s += v
    show(s)
    return max(G[0], 0.5) + s


def none_pair(node):           # a tuple holding None
    l, r = node
    show(l)
    return r is None


def tuple_out(n):              # a region returning a tuple
    perm = list(range(n))
    s = text(n)
    checksum = 0
    max_flips = 0
    while True:
        checksum += 1
        max_flips += 2
        if checksum > n:
            return (checksum, max_flips)


def run_plain():
    for k in range(3):
        print(tup((k, 2)), tup((1.5, -0.0)), arr_global(array.array('d', [1.0, 2.0 * k])),
              none_pair((None, None)), none_pair((None, 1)), tuple_out(k + 4))


def mean(x):                   # an ndarray live-in
    n = len(x)
    show(n)
    return x.sum() / n


def swap(u, v):                # ndarray parameters swapped
    for k in range(3):
        u, v = v, u
    dynac.graph_break()
    return u[0] - v[0]


def after_break(u):            # an ndarray parameter and a graph break
    dynac.graph_break()
    return u[0] * 2.0


run_plain()
try:
    import numpy as np
except ImportError:
    np = None
if np is not None:
    for k in range(3):
        a = np.arange(4.0) + k
        print(mean(a), swap(a, np.ones(3)), after_break(a))
"""


def recorded_regions():
    """record -> build -> run on functions whose regions read tuples,
    arrays, ndarrays and None, or return tuples (the generator emitted C
    that did not compile for each): same output as eager, regions ran."""
    import json
    import subprocess
    tmp = tempfile.mkdtemp(prefix="dynac-regions-")
    try:
        prog = os.path.join(tmp, "prog.py")
        open(prog, "w").write(REGIONS_PROG)
        prof, out, st = (os.path.join(tmp, n) for n in ("p.json", "out", "st.json"))
        r1 = dynac_cmd("record", "-o", prof, prog)
        r2 = dynac_cmd("build", prog, "--profile", prof, "-o", out)
        eager = subprocess.run([sys.executable, prog], capture_output=True, text=True)
        r3 = dynac_cmd("run", "--path", out, "--stats", st, prog)
        stats = json.load(open(st)) if os.path.exists(st) else {}
        names = ["tup", "arr_global", "none_pair", "tuple_out"]
        if "numpy" not in eager.stderr and subprocess.run(
                [sys.executable, "-c", "import numpy"], capture_output=True).returncode == 0:
            names += ["mean", "swap", "after_break"]
        ran = {n: stats.get("__main__." + n, {}).get("region_kernel_calls", 0) for n in names}
        check("regions over tuple, array, ndarray and None live-ins compile and run (%d functions)"
              % len(names),
              r1.returncode == r2.returncode == r3.returncode == 0 and r3.stdout == eager.stdout
              and all(ran.values()) and "internal" not in r2.stderr,
              "regions ran %r\n%s%s\n%r vs %r" % (ran, r2.stderr[-3000:], r3.stderr[-1500:],
                                                   r3.stdout, eager.stdout))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
run_path()
recorded_regions()
done()
