"""Eager vs compiled on the same inputs, for every construct of corpus.py.

Builds corpus.py into a temporary directory, imports it twice (compiled,
through the artifact; eager, from a copy with no artifact), and compares
results, exception types and messages, and printed output, on a grid of
edge values: 0, -0.0, +-inf, NaN, ints around 2**31, 2**53, 2**63 and beyond.
"""
import contextlib
import io
import itertools
import json
import os
import random
import struct
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import ROOT, check, done, dynac_cmd, load_module as load, outcome, same_outcome  # noqa: E402

import dynac  # noqa: E402

INF, NAN = float("inf"), float("nan")
INTS = [0, 1, -1, 2, -2, 3, -3, 5, 7, -7, 10, 2**31, -2**31, 2**53 + 1, 2**62, -2**62,
        2**63 - 1, -2**63, 2**63, 10**20]
FLOATS = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, 2.5, -2.5, 3.0, 0.1, 1e-300, 5e-324, 1e300,
          -1e300, 1e16, 2.0**53, INF, -INF, NAN, -NAN,
          -2.0121713814212754, 0.49999999999999994]  # libm pow differs from x*x and 1/x here
BOOLS = [True, False]
ALL = INTS + FLOATS + BOOLS
SMALL = list(range(-3, 25))

CUSTOM = {
    "fib": [(n,) for n in range(-2, 23)] + [(True,), (2.0,)],
    "big_int_growth": [(n,) for n in range(0, 80, 3)],
    "loop_while": [(n,) for n in [-5, 0, 1, 6, 7, 50, 999, 1000, 1001, 5000]] + [(2.5,)],
    "loop_range": [t for t in itertools.product([-10, -1, 0, 1, 3, 2**62, -2**63, 2**63 - 1],
                                                [-7, 0, 5, 2**63 - 1, -2**63],
                                                [-2**63, -3, -1, 0, 1, 2, 2**62])],
    "loop_reversed_range": [t for t in itertools.product([-10, 0, 3, 2**62, -2**63, 2**63 - 1],
                                                         [-7, 0, 5, 2**63 - 1, -2**63],
                                                         [-2**63, -3, -1, 0, 1, 2, 2**62])],
    "range_forms": [(n,) for n in SMALL],
    "for_else": [(n,) for n in SMALL],
    "loop_var_after": [(n,) for n in SMALL] + [(True,)],
    "nested_loops": [(n,) for n in [0, 1, 2, 5, 17, 40, 60]],
    "unbound_local": [(n,) for n in [-1, 0, 1, 5]],
    "num_ops": list(itertools.product(ALL, [0, 1, -1, 2, 3, 7, -7, 2**62, 0.5, -0.0, 1e300, NAN, INF, True])),
    "rebinding_keeps_loop_types": [(n,) for n in SMALL] + [(True,), (2.5,)],
    # CPython itself cannot hold 10**20 ** 2**62 or 1 << 2**62: bounded exponents
    "power": list(itertools.product(ALL, [0, 1, 2, 3, 7, 62, 63, 64, -1, -2, True, False, 0.5,
                                          -0.5, 2.0, -3.0, 1e300, INF, -INF, NAN, -0.0])),
    "round_digits": list(itertools.product(ALL, [-400, -20, -2, -1, 0, 1, 2, 3, 17, 400, True])),
    "shifts": list(itertools.product(INTS, [-1, 0, 1, 5, 31, 62, 63, 64, 100])),
}


def inputs_for(name, arity, rng):
    if name in CUSTOM:
        return CUSTOM[name]
    if arity == 1:
        return [(v,) for v in ALL]
    if arity == 2:
        return list(itertools.product(ALL, ALL))
    return [tuple(rng.choice(ALL) for _ in range(arity)) for _ in range(1500)]


def random_value(rng, kind):
    """Ints of every magnitude up to the int64 edges; floats from random bit
    patterns (NaN payloads, subnormals, infinities) and from ordinary ranges."""
    if kind == "int":
        bits = rng.choice([3, 8, 31, 53, 62, 63, 64])
        return rng.randint(-2**bits, 2**bits - 1)
    if kind == "float":
        if rng.random() < 0.5:
            return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        return rng.uniform(-1e3, 1e3) * rng.choice([1e-300, 1e-5, 1, 1e5, 1e300])
    return rng.random() < 0.5


RANDOM_FUNCS = ["pow_literals", "math_two", "add", "sub", "mul", "truediv", "floordiv", "mod", "compare", "divmods",
                "mixed_minmax", "ternary", "same_type_or"]


def random_cases(rng, arity, n=3000):
    if arity == 1:
        return [(random_value(rng, "float"),) for _ in range(n)]
    kinds = [("int", "int"), ("float", "float"), ("int", "float"), ("float", "int"), ("bool", "int")]
    return [tuple(random_value(rng, k) for k in rng.choice(kinds)) for _ in range(n)]


def one_nan(args):
    """Inputs whose NaNs are all alike. Which NaN an operation passes on when
    both operands are NaNs is the operand order the hardware sees (x86 keeps
    the first), and C compilers may swap the operands of + and *: two
    different NaNs in one call are not compared."""
    nans = {struct.pack("<d", a) for a in args if isinstance(a, float) and a != a}
    return len(nans) <= 1


def run_one(fn, args):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = outcome(fn, args)
    return r, buf.getvalue()


def main():
    tmp = tempfile.mkdtemp(prefix="dynac-diff-")
    try:
        os.makedirs(os.path.join(tmp, "built"))
        os.makedirs(os.path.join(tmp, "eager"))
        src = os.path.join(ROOT, "tests", "e2e", "corpus.py")
        built = os.path.join(tmp, "built", "corpus.py")
        shutil.copy(src, built)
        shutil.copy(src, os.path.join(tmp, "eager", "corpus.py"))
        r = dynac_cmd("build", built)
        if not check("build corpus.py", r.returncode == 0, r.stderr):
            return
        x = dynac_cmd("explain", "--json", built)
        doc = json.loads(x.stdout) if x.returncode == 0 else []
        breaks = {f["qualname"]: f["graph_breaks"] for d in doc for f in d["functions"]
                  if f["qualname"].startswith("continued_")}
        check("backslash continuations and comments inside expressions are no graph breaks",
              len(breaks) == 2 and not any(breaks.values()), x.stderr[-500:] + json.dumps(breaks)[:1500])
        compiled = load(built, "corpus")
        eager = load(os.path.join(tmp, "eager", "corpus.py"), "corpus_eager")
        rng = random.Random(1234)
        names = [n for n, v in vars(eager).items()
                 if callable(v) and getattr(v, "__module__", None) == "corpus_eager"
                 and hasattr(v, "__code__") and isinstance(getattr(compiled, n), dynac.CompiledFunction)]
        check("corpus has compiled roots", len(names) > 40, "only %d: %s" % (len(names), names))
        dynac.reset_stats()
        for name in sorted(names):
            e_fn, c_fn = getattr(eager, name), getattr(compiled, name)
            arity = e_fn.__code__.co_argcount
            bad = []
            cases = [a for a in inputs_for(name, arity, rng) if one_nan(a)]
            for args in cases:
                e_out, e_print = run_one(e_fn, args)
                c_out, c_print = run_one(c_fn, args)
                if not same_outcome(e_out, c_out) or e_print != c_print:
                    bad.append("%s%r: eager %r, compiled %r" % (name, args, e_out, c_out))
            check("differential %s (%d inputs)" % (name, len(cases)), not bad,
                  "\n".join(bad[:5]) + ("\n... %d more" % (len(bad) - 5) if len(bad) > 5 else ""))
        rrng = random.Random(20261121)
        for name in RANDOM_FUNCS:
            e_fn, c_fn = getattr(eager, name), getattr(compiled, name)
            bad = []
            cases = [a for a in random_cases(rrng, e_fn.__code__.co_argcount) if one_nan(a)]
            for args in cases:
                e_out, _ = run_one(e_fn, args)
                c_out, _ = run_one(c_fn, args)
                if not same_outcome(e_out, c_out):
                    bad.append("%s%r: eager %r, compiled %r" % (name, args, e_out, c_out))
            check("random differential %s (%d inputs)" % (name, len(cases)), not bad, "\n".join(bad[:5]))
        stats = dynac.stats()
        for name in sorted(names):
            s = stats.get("corpus." + name, {})
            served = s.get("kernel_calls", 0)
            if name in compiled.EXPECT_INTERPRETER:
                check("interpreter only: %s" % name, served == 0, "kernel_calls=%d" % served)
            else:
                check("kernels served %s" % name, served > 0, "stats: %r" % (s,))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
done()
