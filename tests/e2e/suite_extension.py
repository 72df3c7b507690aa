"""examples/extension: a hand-written extension (fastnorm.c) that includes
dynac.h with DYNAC_SHARED and serves vectors.norm with its own kernel and
guard. Both paths give CPython's answers bit for bit: the kernel when the
guard passes, the interpreter when not; the runtime's counters, logs,
disable and reset cover the function."""
import atexit
import decimal
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import ROOT, case, check, done  # noqa: E402

EXAMPLE = os.path.join(ROOT, "examples", "extension")
TMP = tempfile.mkdtemp(prefix="dynac-ext-")
atexit.register(shutil.rmtree, TMP, True)
BUILD = subprocess.run(["make", "-s", "-C", EXAMPLE, "BUILD=" + TMP, "PYTHON=" + sys.executable],
                       capture_output=True, text=True)
check("extension builds with -Wall -Wextra -Werror", BUILD.returncode == 0, BUILD.stderr[-3000:])
sys.path[:0] = [TMP, EXAMPLE]
import dynac  # noqa: E402
import fastnorm  # noqa: E402
import vectors  # noqa: E402

norm = fastnorm.serve(vectors.norm)


def bits(v):
    return struct.pack("<d", v) if isinstance(v, float) else repr(v)


def outcome(fn, *args):
    try:
        return "ok", bits(fn(*args)), type(fn(*args))
    except Exception as e:
        return "error", type(e), str(e)


FLOATS = [(3.0, 4.0), (0.0, -0.0), (-0.0, -0.0), (math.inf, 1.0), (math.nan, 2.0),
          (1e308, 1e308), (5e-324, 5e-324), (-1.5, 2.25)]
OTHERS = [(3, 4), (True, 2.0), (2.0, 3), (decimal.Decimal(2), decimal.Decimal(3)),
          (2 ** 600, 1.0), ("a", 1.0), (None, None)]


@case
def kernel_path_matches_cpython():
    before = fastnorm.kernel_calls()
    bad = [a for a in FLOATS if outcome(norm, *a) != outcome(vectors.norm, *a)]
    served = fastnorm.kernel_calls() - before
    return not bad and served == 2 * len(FLOATS), "differ: %r, kernel calls %d" % (bad, served)


@case
def interpreter_path_when_guards_fail():
    before = fastnorm.kernel_calls()
    bad = [a for a in OTHERS if outcome(norm, *a) != outcome(vectors.norm, *a)]
    return not bad and fastnorm.kernel_calls() == before, "differ: %r" % bad


@case
def counters_and_last_failed_guard():
    dynac.reset_stats()
    norm(1.0, 2.0)
    norm(1, 2.0)
    norm(1.0, 2)
    s = dynac.stats()["vectors.norm"]
    e = s["entries"][0]
    ok = (s["kernel_calls"] == 1 and s["interpreter_calls"] == 2 and e["hits"] == 1 and
          e["last_failed_guard"] == "y is a float" and s["root"])
    return ok, repr(s)


@case
def disable_runs_the_interpreter():
    before = fastnorm.kernel_calls()
    r = dynac.disable(lambda: norm(3.0, 4.0))()
    return r == 5.0 and fastnorm.kernel_calls() == before, "kernel ran under disable"


@case
def reset_reattaches():
    dynac.reset()
    before = fastnorm.kernel_calls()
    r = norm(6.0, 8.0)
    return r == 10.0 and fastnorm.kernel_calls() == before + 1, "not served after reset"


@case
def guard_log():
    code = ("import sys; sys.path[:0] = %r; import fastnorm, vectors; "
            "n = fastnorm.serve(vectors.norm); n(1.0, 2.0); n(1, 2.0)" % [TMP, EXAMPLE])
    env = dict(os.environ, DYNAC_LOGS="guards,dispatch")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    return r.returncode == 0 and "x is a float" in r.stderr, r.stderr[-2000:]


done()
