"""The fine-grained tracing API at run time (corpus_annotations.py): which
frames run compiled under disable / disable(recursive=False) (the documented
examples of seeds 002 and 004), allow_in_graph, disallow_in_graph and its
reversal, assume_constant_result, backend="eager", reset(), and "non-roots
run compiled only inside a root's call". Results carry a mark per compiled
frame; the eager results (marks are 0 there) are checked too."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import ROOT, case, check, done, dynac_cmd, load_module  # noqa: E402

import dynac  # noqa: E402

# The seeds' examples put a statement or two around each graph break: their regions are small,
# which the interpreter runs by default (suite_resume checks that); here their kernels run, so
# that each frame's marks say what the seeds' semantics compile.
os.environ["DYNAC_SMALL_REGIONS"] = "1"

SRC = os.path.join(ROOT, "tests", "e2e", "corpus_annotations.py")
TMP = tempfile.mkdtemp(prefix="dynac-annotations-")


def load_copy(sub, built):
    """A copy of the corpus in TMP/sub, built with `dynac build` or not (eager)."""
    d = os.path.join(TMP, sub)
    os.makedirs(d)
    shutil.copy(SRC, d)
    path = os.path.join(d, "corpus_annotations.py")
    if built:
        r = dynac_cmd("build", path)
        assert r.returncode == 0, r.stderr
    return load_module(path, "corpus_annotations_" + sub)


def close(a, b):
    return abs(a - b) < 1e-9


def counters(mod, name):
    return dynac.stats().get("%s.%s" % (mod.__name__, name), {})


C = load_copy("c", built=True)
E = load_copy("eager", built=False)


@case
def seed_004_disable_recursive():
    """outer1 (disabled) and inner1 inside it: not traced; f's last line traced."""
    dynac.reset_stats()
    r = C.f(1.0)
    s = counters(C, "f")
    return close(r, 108.0) and E.f(1.0) == 8.0 and s["region_kernel_calls"] == 1, (r, s)


@case
def seed_004_disable_non_recursive():
    """outer2 (recursive=False) not traced, but inner2 it calls is: 4.01 + 104."""
    dynac.reset_stats()
    r = C.g(1.0)
    s = counters(C, "inner2")
    return close(r, 108.01) and E.g(1.0) == 8.0 and s["resume_calls"] == 1, (r, s)


@case
def seed_002_call_stack():
    """fn compiled; a_fn disabled, so aa_fn/ab_fn run in the interpreter inside
    it although they have kernels; b_fn compiled (a kernel-to-kernel call)."""
    dynac.reset_stats()
    r = C.fn(1.0)
    aa, b = counters(C, "aa_fn"), counters(C, "b_fn")
    want = (2.0 + 0.0) + (1.5 + 0.1) + 100.0
    ok = close(r, want) and aa["kernel_calls"] == 0 and aa["direct_calls"] == 0
    ok = ok and b["direct_calls"] == 1 and E.fn(1.0) == 3.5
    r2 = C.calls_aa_ab(1.0)  # the same callees, compiled, from another root
    return ok and close(r2, 2.003), (r, r2, aa, b)


@case
def non_root_runs_compiled_only_inside_a_root():
    dynac.reset_stats()
    direct = C.inner1(1.0)  # plain call: interpreter
    through_root = C.uses_inner1(1.0)  # root kernel -> inner1 kernel
    s = counters(C, "inner1")
    return (direct == 2.0 and close(through_root, 2.01) and s["kernel_calls"] == 0
            and s["direct_calls"] == 1), (direct, through_root, s)


@case
def disable_returns_a_new_function():
    d = dynac.disable(C.uses_inner1)
    dn = dynac.disable(C.uses_inner1, recursive=False)
    ok = d(1.0) == 2.0 and close(dn(1.0), 2.01) and close(C.uses_inner1(1.0), 2.01)
    return ok and d.__name__ == "uses_inner1" and isinstance(C.uses_inner1, dynac.CompiledFunction)


@case
def disable_as_a_with_block():
    with dynac.disable():
        inside = C.f(1.0)
    return inside == 8.0 and close(C.f(1.0), 108.0), inside


@case
def allow_in_graph_is_an_opaque_call():
    """The kernel calls record() once per iteration, in order, and is not split."""
    del C.log[:], E.log[:]
    dynac.reset_stats()
    r, e = C.with_opaque(1.0, 3), E.with_opaque(1.0, 3)
    s = counters(C, "with_opaque")
    return (r == 1003.0 and e == 3.0 and C.log == E.log == [1.0, 2.0, 3.0]
            and s["kernel_calls"] == 1 and s["resume_calls"] == 0), (r, C.log, s)


def raising_lines(mod):
    import traceback
    orig = mod.record
    mod.record = lambda x: 1 / 0
    try:
        mod.with_opaque(1.0, 2)
    except ZeroDivisionError as e:
        return [(f.name, f.lineno) for f in traceback.extract_tb(e.__traceback__)]
    finally:
        mod.record = orig


@case
def opaque_call_exception_propagates_with_the_line():
    c, e = raising_lines(C), raising_lines(E)
    return c[-2:] == e[-2:] and c[-2][0] == "with_opaque", (c, e)


@case
def no_replay_after_an_opaque_call():
    """A ZeroDivisionError after record() ran: the kernel redoes the division
    through the C API and raises CPython's own exception, with the line; record
    ran exactly once."""
    import traceback
    del C.log[:]
    try:
        C.opaque_then_divide(4.0, 0.0)
        return False, "no exception"
    except ZeroDivisionError as e:
        line = [i for i, t in enumerate(open(SRC), 1) if "return y / d" in t][0]
        tb = [(f.name, f.lineno) for f in traceback.extract_tb(e.__traceback__)]
        return (C.log == [4.0] and str(e) == "float division by zero"
                and tb[-1] == ("opaque_then_divide", line)), (C.log, str(e), tb)


@case
def int_overflow_after_an_opaque_call_gives_the_big_int():
    """int64 overflow in `return n * n` after record() ran: the kernel
    computes the product through the C API (CPython's big int) instead of
    running the call again; record ran exactly once."""
    del C.log[:]
    r = C.opaque_then_overflow(4.0, 2**40)
    return r == 2**80 and type(r) is int and C.log == [4.0], (r, C.log)


def outcome(f, *args):
    """(result or exception type, message, last traceback entry) and the calls record() saw."""
    import traceback
    del C.log[:]
    del E.log[:]
    try:
        out = ("ok", f(*args))
    except Exception as e:  # noqa: BLE001 - the comparison is the point
        last = traceback.extract_tb(e.__traceback__)[-1]
        out = ("raise", type(e).__name__, str(e), last.name, last.lineno)
    return out, list(C.log if f.__module__ == C.__name__ else E.log)


@case
def deoptimisation_after_an_opaque_call_goes_on_in_the_interpreter():
    """Overflow in nested loops, an unbound local, a division by zero, each
    after record() ran: results, exceptions (type, message, line) and the
    record() calls are eager's, and the kernels served the calls."""
    inputs = [("opaque_in_loops", (n, m)) for n in [0, 1, 3, 40] for m in [0, 2, 5, 30]]
    inputs += [("opaque_then_unbound", (1.5, flag)) for flag in [True, False]]
    inputs += [("opaque_then_divide_late", (1.0, d)) for d in [2.0, 0.0, -0.0]]
    dynac.reset_stats()
    bad = [(name, args, outcome(getattr(C, name), *args), outcome(getattr(E, name), *args))
           for name, args in inputs]
    bad = [b for b in bad if b[2] != b[3]]
    served = [counters(C, n)["kernel_calls"] for n in
              ("opaque_in_loops", "opaque_then_unbound", "opaque_then_divide_late")]
    return not bad and all(served), (bad[:3], served)


@case
def deoptimisation_in_a_region_after_an_opaque_call_goes_on_in_the_interpreter():
    """The same in the region kernels of functions with graph breaks: the
    region's rest runs in the interpreter and hands the function its return
    value or its live-outs; the region kernels served the calls."""
    inf = float("inf")
    inputs = [("opaque_in_region", (n, m, lim)) for n in [0, 1, 3, 40] for m in [0, 2, 5, 30]
              for lim in [1e30, 1e300, inf]]
    inputs += [("opaque_mid_region", (k,)) for k in [0, 3, 2**31, 2**40, -2**61]]
    inputs += [("opaque_region_in_loop", (n, k)) for n in [0, 1, 5] for k in [3, 2**31, 2**40]]
    dynac.reset_stats()
    bad = [(name, args, outcome(getattr(C, name), *args), outcome(getattr(E, name), *args))
           for name, args in inputs]
    bad = [b for b in bad if b[2] != b[3]]
    served = [counters(C, n)["region_kernel_calls"] for n in
              ("opaque_in_region", "opaque_mid_region", "opaque_region_in_loop")]
    return not bad and all(served), (bad[:3], served)


@case
def disallow_in_graph_at_module_level_breaks():
    dynac.reset_stats()
    r = C.calls_banned(1.0)
    s = counters(C, "banned")
    return r == 1000.0 and s["kernel_calls"] == 0, (r, s)


@case
def disallow_in_graph_at_run_time_and_back():
    before = C.calls_helper(1.0)
    dynac.disallow_in_graph(C.helper)
    try:
        during = C.calls_helper(1.0)  # the kernel's guard on helper fails; all interpreted
    finally:
        dynac.allow_in_graph(C.helper)
    after = C.calls_helper(1.0)
    return (before, during, after) == (1004.5, 4.0, 1004.5), (before, during, after)


@case
def assume_constant_result_called_once():
    del C.SCALE_CALLS[:]
    dynac.reset()
    r1, r2 = C.scaled(2.0), C.scaled(4.0)
    once = len(C.SCALE_CALLS)
    dynac.reset()  # forgets the constant: called again
    r3 = C.scaled(2.0)
    return (r1, r2, r3) == (1005.0, 1010.0, 1005.0) and once == 1 and len(C.SCALE_CALLS) == 2, \
        (r1, r2, r3, C.SCALE_CALLS)


@case
def backend_eager_runs_guards_then_the_interpreter():
    dynac.reset_stats()
    r = C.eager_root(1.0)
    s = counters(C, "eager_root")
    return r == 3.0 and s["kernel_calls"] == 1 and s["eager"], (r, s)


@case
def reset_clears_and_recompiles():
    C.calls_helper(1.0)
    dynac.reset()
    s0 = counters(C, "calls_helper")
    r = C.calls_helper(1.0)
    s1 = counters(C, "calls_helper")
    return s0["kernel_calls"] == 0 and r == 1004.5 and s1["kernel_calls"] == 1, (s0, s1)


RUN_PROG = """
import json, dynac, corpus_annotations as m
print(m.f(1.0), m.g(1.0), m.fn(1.0), m.inner1(1.0), m.uses_inner1(1.0))
print(json.dumps(dynac.stats()["corpus_annotations.inner1"]))
"""


def run_prog(sub, *build_flags):
    d = os.path.join(TMP, sub)
    if not os.path.exists(d):
        os.makedirs(d)
        shutil.copy(SRC, d)
        r = dynac_cmd("build", os.path.join(d, "corpus_annotations.py"), *build_flags)
        assert r.returncode == 0, r.stderr
    prog = os.path.join(d, "prog.py")
    with open(prog, "w") as f:
        f.write(RUN_PROG)
    r = dynac_cmd("run", prog, cwd=d, env={"PYTHONPATH": d})
    lines = r.stdout.splitlines()
    return r, lines[0] if lines else "", __import__("json").loads(lines[1]) if len(lines) > 1 else {}


@case
def frame_hook_path_gives_the_same_frames():
    """dynac run: the same frames compiled; inner1 called from plain code is not
    a root, so it runs in the interpreter (counted as outside a root)."""
    r, out, s = run_prog("c")
    want = "%r %r %r %r %r" % (C.f(1.0), C.g(1.0), C.fn(1.0), 2.0, C.uses_inner1(1.0))
    return (r.returncode == 0 and out == want and s.get("outside_root_calls") == 1), \
        (out, want, s, r.stderr[-2000:])


@case
def build_all_makes_every_function_a_root():
    r, out, s = run_prog("all", "--all")
    want = "%r %r %r %r %r" % (C.f(1.0), C.g(1.0), C.fn(1.0), 2.01, C.uses_inner1(1.0))
    return r.returncode == 0 and out == want and s.get("root"), (out, want, s, r.stderr[-2000:])


@case
def logs_graph_breaks_and_recompiles():
    d = os.path.join(TMP, "c")
    prog = os.path.join(d, "prog2.py")
    with open(prog, "w") as f:
        f.write("import corpus_annotations as m\nm.f(1.0)\nm.scaled(1.0)\nm.scaled(1)\n")
    r = subprocess.run([sys.executable, prog], cwd=d, capture_output=True, text=True,
                       env=dict(os.environ, DYNAC_LOGS="graph_breaks,recompiles"))
    return (r.returncode == 0 and "[dynac graph_breaks] corpus_annotations.f" in r.stderr
            and "[dynac recompiles] corpus_annotations.scaled: now served by the interpreter"
            in r.stderr), r.stderr


@case
def explain_from_python():
    e = dynac.explain(C.f)
    reasons = [(b["id"], b["line"]) for b in e.break_reasons]
    whole = dynac.explain(SRC)
    return (e.graph_count == 1 and e.graph_break_count == 1 and reasons[0][0] == "GB0017"
            and e.ops_per_graph == [[3]] and "Graph Count: 1" in str(e)
            and set(e.compile_times) >= {"parse", "scope", "annotations", "infer"}
            and whole.graph_break_count >= 5 and whole.graph_count > e.graph_count), str(e)


@case
def compile_times_table():
    d = dynac.compile_times(repr="dict")
    t = dynac.compile_times()
    mine = [v for k, v in d.items() if k.startswith("corpus_annotations__dynac")]
    return (mine and all(v["attach"] > 0 and v["infer"] > 0 and v["ir"] > 0 and "analyses" in v
                         and v["emit"] > 0 and v["cc"] > 0 for v in mine)
            and "attach" in t.splitlines()[0]), t


@case
def suppress_errors_leaves_a_failing_function_to_the_interpreter():
    d = os.path.join(TMP, "suppress")
    os.makedirs(d)
    shutil.copy(SRC, d)
    path = os.path.join(d, "corpus_annotations.py")
    env = {"DYNAC_TEST_BREAK_EMIT": "helper"}
    failing = dynac_cmd("build", path, env=env)
    ok = dynac_cmd("build", path, env=dict(env, DYNAC_SUPPRESS_ERRORS="1"))
    flag = dynac_cmd("build", "--suppress-errors", path, env=env)
    mod = load_module(path, "corpus_annotations_suppressed")
    return (failing.returncode != 0 and ok.returncode == 0 and flag.returncode == 0
            and "helper(): the generator failed on it" in ok.stderr
            and mod.calls_helper(1.0) == 4.0 and mod.uses_inner1(1.0) == C.uses_inner1(1.0)), \
        (failing.returncode, ok.stderr[-1500:], flag.returncode)


@case
def suppress_errors_always_ends_in_a_working_build():
    """Functions that fail only together (no one of them fails alone) are
    suppressed too, and a build whose C compiler failed never claims to have
    compiled anything."""
    d = os.path.join(TMP, "suppress_pair")
    os.makedirs(d)
    shutil.copy(SRC, d)
    path = os.path.join(d, "corpus_annotations.py")
    env = {"DYNAC_TEST_BREAK_EMIT": "calls_helper+uses_inner1"}
    failing = dynac_cmd("build", path, env=env)
    ok = dynac_cmd("build", "--suppress-errors", path, env=env)
    mod = load_module(path, "corpus_annotations_pair")
    return (failing.returncode != 0 and "functions compiled" not in failing.stderr
            and "build failed; no module written" in failing.stderr
            and ok.returncode == 0 and "functions compiled" in ok.stderr
            and mod.calls_helper(1.0) == C.calls_helper(1.0) - 1000.5
            and mod.uses_inner1(1.0) == 2.0), (failing.stderr[-800:], ok.stderr[-1500:])


@case
def suppress_errors_config_at_run_time():
    saved = dynac.config.suppress_errors

    def broken():
        return 1.0

    broken.__code__ = broken.__code__.replace(co_filename=SRC)  # an artifact that cannot serve it
    import dynac._loader as L
    real = L._runtime.attach_function
    L._runtime.attach_function = lambda *a: 1 / 0
    try:
        dynac.config.suppress_errors = True
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = dynac.compile(C.scaled.__wrapped__)
        quiet = r is C.scaled.__wrapped__ and any("attaching its kernels failed" in str(x.message)
                                                  for x in w)
        dynac.config.suppress_errors = False
        try:
            dynac.compile(C.scaled.__wrapped__)
            loud = False
        except ZeroDivisionError:
            loud = True
    finally:
        L._runtime.attach_function = real
        dynac.config.suppress_errors = saved
    return quiet and loud


shutil.rmtree(TMP, ignore_errors=True)
done()
