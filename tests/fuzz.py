"""dynac's differential fuzzer: random modules inside the kernel language,
each function called eagerly (CPython) and compiled on the same fresh
inputs, comparing results (floats bit for bit), exceptions (type, message,
traceback line), printed output and the lists afterwards, and counting the
compared calls a kernel of the called function served (a call another
fuzz function makes is not counted: the share is at most 100%).

    python3 tests/fuzz.py [--seed S] [--modules N] [--budget SECONDS] [--keep DIR]

Prints one line per finding and a summary; exits 1 if anything differed
or failed to build. A finding's module is written to --keep (default
build/fuzz-findings) with the inputs that differ, ready to become a
regression test. Csmith and CPython's own fuzzers work this way: generate
programs that are valid by construction, and let the reference
implementation be the oracle.
"""
import argparse
import contextlib
import io
import os
import random
import re
import shutil
import signal
import struct
import sys
import tempfile
import time
import traceback
import warnings

try:
    import numpy as np  # a0, a float64 ndarray argument, when numpy is importable
except ImportError:
    np = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, dynac_cmd, load_module, strict_cflags  # noqa: E402

import dynac  # noqa: E402

# The eager copy's @dynac.compile must not compile on its first call (the
# JIT is on by default): it is the oracle, CPython itself.
dynac.config.jit = False

INTS = [0, 1, -1, 2, -2, 3, 7, -7, 10, 255, 2**31 - 1, -2**31, 2**53 + 1, 2**62, -2**62,
        2**63 - 1, -2**63]
FLOATS = [0.0, -0.0, 0.5, -1.5, 1.0, 2.5, 1e-300, 5e-324, 1e300, -1e300, 1e16,
          float("inf"), float("-inf"), float("nan")]
SMALL = [0, 1, 2, 3, 5]


class Gen:
    """One random module. Names: n* ints, x* floats, xs a list of floats,
    ks a list of ints; each function returns a tuple (int, float)."""

    def __init__(self, rng):
        self.rng = rng
        self.funcs = []  # (name, params)

    def lit_int(self):
        return repr(self.rng.choice(INTS + SMALL))

    def lit_float(self):
        v = self.rng.choice(FLOATS)
        return {"inf": "math.inf", "-inf": "-math.inf", "nan": "math.nan"}.get(repr(v), repr(v))

    def int_expr(self, env, d, in_loop):
        r = self.rng.random()
        if d <= 0 or r < 0.25:
            ints = sorted(v for v in env if v[0] == "n")
            return self.rng.choice(ints) if ints and self.rng.random() < 0.7 else self.lit_int()
        a, b = self.int_expr(env, d - 1, in_loop), self.int_expr(env, d - 1, in_loop)
        ops = ["+", "-", "//", "%"] + ([] if in_loop else ["*"])
        k = self.rng.randrange(9)
        if k < 4:
            return "(%s %s %s)" % (a, self.rng.choice(ops), b)
        if k == 4:
            return "%s(%s, %s)" % (self.rng.choice(["min", "max"]), a, b)
        if k == 5:
            return "abs(%s)" % a
        if k == 6 and "xs" in env:
            return "len(xs)"
        if k == 7 and "ks" in env:
            return "ks[%s %% 3]" % a
        return "int(%s)" % self.float_expr(env, d - 1, in_loop)

    def float_expr(self, env, d, in_loop):
        r = self.rng.random()
        if d <= 0 or r < 0.25:
            fl = sorted(v for v in env if v[0] == "x" and v != "xs")
            return self.rng.choice(fl) if fl and self.rng.random() < 0.7 else self.lit_float()
        a, b = self.float_expr(env, d - 1, in_loop), self.float_expr(env, d - 1, in_loop)
        k = self.rng.randrange(10)
        if k < 4:
            return "(%s %s %s)" % (a, self.rng.choice(["+", "-", "*", "/"]), b)
        if k == 4:
            return "(%s ** %s)" % (a, self.rng.choice(["2", "3", "-1", "0.5", "2.0", "-2"]))
        if k == 5:
            return "math.%s(%s)" % (self.rng.choice(["sqrt", "exp", "log", "sin", "atan", "fabs",
                                                      "floor", "trunc"]), a)
        if k == 6:
            return "math.%s(%s, %s)" % (self.rng.choice(["atan2", "copysign", "fmod", "pow"]), a, b)
        if k == 7 and "xs" in env:
            return "xs[%s]" % self.int_expr(env, d - 1, in_loop)
        if k == 8:
            return "(%s %s %s)" % (self.int_expr(env, d - 1, in_loop), self.rng.choice(["+", "*", "/"]), a)
        if "p0" in env and self.rng.random() < 0.6:
            return self.rng.choice([
                "p0.a", "p0.s", "p0.m0(%s)" % a, "(p0 + p0).b", "(-p0).a", "(%s + p0).a" % a,
                "P.st(%s)" % a, "p0.st(%s)" % a, "float(len(p0))", "p0[%s]" % a,
                "(1.0 if p0 < -p0 else %s)" % a,
                # instances made in the kernel (kept as fields: emit/records.c)
                "P(%s, %s).m0(%s)" % (a, b, a), "(P(%s, -0.0) + p0).s" % a, "(-P(%s, %s))[%s]" % (a, b, a),
                "(%s + P(%s, 2.5)).b" % (b, a), "(1.0 if P(%s, 1.0) < p0 else -%s)" % (a, b),
                "P(%s, %s).a" % (a, b),
                # *args methods called kernel to kernel (the extra values packed at the call)
                "p0.pk(%s)" % a, "p0.pk(%s, %s, p0)" % (a, b), "P.sk(%s, %s)" % (a, b), "p0.sk()",
                "p0.sp(P, %s, %s)" % (a, b), "p0.sp(Q, %s, %s)" % (b, a), "p0.sp(P, %s)" % a,
                # parameters left to their defaults (read from __defaults__ at the call)
                "p0.md(%s)" % a, "p0.md(%s, %s)" % (a, b), "p0.md(%s, 0.5, 3)" % a,
                # keyword-only parameters, keywords skipping defaulted ones, out of order
                "p0.kw(%s)" % a, "p0.kw(%s, s=%s)" % (a, b), "p0.kw(x=%s, c=%s)" % (a, b),
                "p0.kw(%s, %s, s=%s, c=0.25)" % (a, b, a), "p0.kw(%s, c=%s, s=2.0)" % (a, b),
                "poly_kw(p0, %s, %s)" % (a, b),
                "P.sd(%s)" % a, "p0.sd(%s, w=%s)" % (a, b), "P.cd(%s)" % a, "p0.cd(%s, scale=%s)" % (a, b),
                "P(%s, %s).md(%s, -1.5)" % (a, b, b),
                # heapq's comparisons through P.__lt__'s kernel
                "heap_min(p0, %s, %s)" % (a, b),
                # o.m0(x) of objects of P and Q: each class's kernel (a polymorphic call site)
                "poly_m0(p0, %s, %s)" % (a, b),
                # kind(x, y, *extra) of the class a parameter holds: P's or Q's __init__ kernel run on
                # an instance made as object.__new__ makes it (a polymorphic construction site)
                "made_as(P, %s, %s, (%s,))" % (a, b, a), "made_as(Q, %s, %s, (%s,))" % (b, a, b),
                "made_as(Q, %s, %s, ())" % (a, b), "made_as(P, %s, %s, (%s, 1.0))" % (a, b, b)])
        if self.rng.random() < 0.15:  # the dataclass D: its generated __init__ a kernel, b's default on the class
            return self.rng.choice([
                "D(%s, %s).a" % (a, b), "D(%s).b" % a, "(D(%s, %s) + D(%s)).m0(%s)" % (a, b, b, a),
                "dc_walk(%s, %s)" % (a, b), "float(len([D(%s), D(%s, %s)]))" % (a, b, a)])
        if self.rng.random() < 0.1:  # the frozen dataclass F: __init__ stores past __setattr__, others raise
            return self.rng.choice([
                "F(%s, %s).b" % (a, b), "(F(%s) - F(%s, %s)).a" % (a, b, a), "fz_walk(%s, %s)" % (a, b),
                "(F(%s, %s) - F(%s)).b" % (a, b, b), "F(%s).moved(%s)" % (a, b)])
        if self.rng.random() < 0.1:  # the dataclass K: keyword-only fields
            return self.rng.choice([
                "K(%s, b=%s).t()" % (a, b), "K(%s).t()" % a, "K(%s, n=3).t()" % a,
                "K(a=%s, n=1, b=%s).t()" % (a, b)])
        if self.rng.random() < 0.1:  # the dataclass G: a default factory (a closure cell) and an InitVar
            return self.rng.choice([
                "G(%s).total()" % a, "G(%s, [%s], %s).total()" % (a, b, a), "gf_walk(%s, %s)" % (a, b)])
        return "float(%s)" % self.int_expr(env, d - 1, in_loop)

    def cond(self, env, d, in_loop):
        k = self.rng.randrange(4)
        if k == 0:
            return "%s %s %s" % (self.float_expr(env, d, in_loop), self.rng.choice(["<", "<=", "==", "!="]),
                                 self.float_expr(env, d, in_loop))
        if k == 1:
            return "%s %s %s" % (self.int_expr(env, d, in_loop), self.rng.choice([">", ">=", "==", "!="]),
                                 self.int_expr(env, d, in_loop))
        if k == 2:
            return "%s < %s" % (self.int_expr(env, d, in_loop), self.float_expr(env, d, in_loop))
        return "not (%s and %s)" % (self.cond(env, d - 1, in_loop) if d > 0 else "True",
                                    self.int_expr(env, 0, in_loop))

    def arr_expr(self, env, d, in_loop):
        """A whole-array expression of a0's length: a0, its reverse, numbers
        (names and literals), + - * /, unary -, np.sqrt, np.abs, np.floor,
        ** 2, ** 0.5, ** -1, // % and other powers (numpy's loops, staged),
        fused into one loop where kernels can."""
        if d <= 0 or self.rng.random() < 0.3:
            return self.rng.choice(["a0", "a0[::-1]", "a0", "(a0 * 0.0 + %s)" % self.float_expr(env, 0, in_loop)])
        a = self.arr_expr(env, d - 1, in_loop)
        k = self.rng.randrange(7)
        if k < 3:
            b = self.arr_expr(env, d - 1, in_loop) if self.rng.random() < 0.5 else self.float_expr(env, 0, in_loop)
            op = self.rng.choice(["+", "-", "*", "/", "+", "-", "*", "/", "//", "%"])
            return "(%s %s %s)" % ((a, op, b) if self.rng.random() < 0.7 else (b, op, a))
        if k == 3:
            return "(-%s)" % a
        if k == 4:
            if self.rng.random() < 0.5:
                return "np.%s(%s)" % (self.rng.choice(["sqrt", "abs", "floor"]), a)
            # numpy's own loops inside a fused loop (staged), np.where of a comparison
            b = self.arr_expr(env, d - 1, in_loop) if self.rng.random() < 0.5 else self.float_expr(env, 0, in_loop)
            return self.rng.choice(["np.%s(%s)" % (self.rng.choice(["exp", "log", "sin", "cos", "tanh", "arctan",
                                                                    "log1p", "cbrt"]), a),
                                    "np.%s(%s, %s)" % (self.rng.choice(["arctan2", "hypot", "maximum", "minimum"]), a, b),
                                    "np.where(%s %s %s, %s, %s)" % (a, self.rng.choice(["<", ">=", "!="]), b, a, b)])
        return "(%s ** %s)" % (a, self.rng.choice(["2", "0.5", "-1", "2.0", "3", "1.5",
                                                  self.float_expr(env, 0, in_loop)]))

    def array_stmt(self, env, ind, in_loop):
        """Statements on a0 (a float64 ndarray argument): sums of whole-array
        expressions, items read and stored, slices stored, a copy."""
        k = self.rng.randrange(10)
        e = self.arr_expr(env, 2, in_loop)
        if k >= 6:
            return self.array_scalar_stmt(env, ind, in_loop, k)
        if k == 0:  # numpy's pairwise sum, or the builtin's sum in order (0 of no items)
            env.add("x2")
            return [ind + "x2 = float(%s)" % self.rng.choice(["np.sum(%s)" % e, "sum(%s)" % e, "sum(a0)"])]
        if k == 1:
            return [ind + "if len(a0):", ind + "    a0[%s %% len(a0)] = %s" % (self.int_expr(env, 1, in_loop),
                                                                           self.float_expr(env, 1, in_loop))]
        if k == 2:
            env.add("x1")
            return [ind + "x1 = float(a0[%s %% len(a0)]) if len(a0) else 0.5" % self.int_expr(env, 1, in_loop)]
        if k == 3:
            return [ind + "a0[1:] = %s" % self.rng.choice(["a0[:-1] * %s" % self.float_expr(env, 0, in_loop),
                                                         "(a0[1:] + a0[:-1]) / 2.0", "np.sqrt(a0[:-1] ** 2)"])]
        if k == 4 and self.rng.random() < 0.3:  # 2-D broadcasting: (n, 1) against (1, n), keepdims
            env.add("x2")
            f = self.float_expr(env, 0, in_loop)
            g = self.rng.choice(["a0[:, np.newaxis] - a0[np.newaxis, :] * %s" % f,
                                 "np.where(a0[:, None] > a0[None, :], a0[:, None] %% 2.0, %s)" % f,
                                 "(a0[None, :] * a0[:, None]) ** %s" % self.rng.choice(["2", "1.5", "3"])])
            red = self.rng.choice(["b0.sum(axis=0)", "b0 - b0.mean(axis=1, keepdims=True)", "b0"])
            return [ind + "b0 = %s" % g, ind + "b0 = %s" % red,
                    ind + "x2 = float(b0.flat[0]) if b0.size else -0.5"]
        if k == 4:
            env.add("x2")
            return [ind + "b0 = %s" % e, ind + "x2 = float(b0[0]) if len(b0) else -0.5"]
        # in-place operators (one loop into scratch, then the array; numpy's own on long arrays)
        op = self.rng.choice(["+=", "-=", "*=", "/="])
        copy = [ind + "a0 = a0.copy()"] if self.rng.random() < 0.3 else []
        return copy + [ind + self.rng.choice(["a0 %s %s" % (op, self.float_expr(env, 0, in_loop)),
                                              "a0 %s %s" % (op, e),
                                              "a0[1:] %s a0[:-1] * %s" % (op, self.float_expr(env, 0, in_loop)),
                                              "a0[::-1] %s %s" % (op, e)])]

    def array_scalar_stmt(self, env, ind, in_loop, k):
        """a0's items as numpy scalars in number locals: a float (or int)
        that becomes a numpy.float64 as it runs (int | float |
        numpy.float64), ufuncs of items, numpy's reductions."""
        # an index of names and literals: no int64 overflow after len(a0) of an object ran (an
        # effect), which cannot go on in the interpreter mid-statement (a known limit)
        ints = sorted(v for v in env if v[0] == "n" and len(v) == 2)
        i = "%s %% len(a0)" % (self.rng.choice(ints) if ints else self.lit_int())
        f = self.float_expr(env, 0, in_loop)
        env.add("x2")
        if k in (6, 9) and self.rng.random() < 0.5:  # item arithmetic into an accumulator: a speculative loop
            py = self.rng.random() < 0.5  # x2 a float (v through float()) or a numpy.float64
            item = "a0[jj] %s %s" % (self.rng.choice("+-*"), self.rng.choice([f, "a0[jj]", "np.sqrt(a0[jj])"]))
            return [ind + "x2 = %s" % (self.rng.choice(["0.0", f]) if py else "a0[%s] * 0.0" % i),
                    ind + "for jj in range(len(a0)):",
                    ind + "    v = %s" % ("float(%s)" % item if py else item),
                    ind + "    x2 %s= v * %s" % (self.rng.choice("+-*"), f)]
        if k == 6:
            start = self.rng.choice(["0.0", "0", "-np.inf", f])
            return [ind + "x2 = %s" % start, ind + "for v in a0:",
                    ind + "    x2 %s= v * %s" % (self.rng.choice("+-*"), f),
                    ind + "    if v > x2:", ind + "        x2 = v"]
        if k == 7:
            fn = self.rng.choice(["sqrt", "exp", "log", "tanh", "arctan", "floor", "abs"])
            return [ind + "x2 = np.%s(a0[%s]) if len(a0) else %s" % (fn, i, f)]
        if k == 8:
            red = self.rng.choice(["a0.max()", "a0.min()", "a0.sum()", "np.max(a0)", "np.sum(a0 * %s)" % f,
                                   "np.mean(np.exp(a0))", "a0.mean()"])
            return [ind + "x2 = %s if len(a0) else %s" % (red, f)]
        return [ind + "x2 = np.%s(a0[%s], %s) if len(a0) else %s" % (
            self.rng.choice(["arctan2", "hypot", "maximum", "minimum"]), i, f, f)]

    def block(self, env, ind, depth, in_loop, n):
        out = []
        for _ in range(n):
            out += self.stmt(env, ind, depth, in_loop)
        return out or [ind + "pass"]

    def object_stmt(self, env, ind, in_loop):
        """Objects made of the numbers (boxed joins, chains, starred and **
        displays, closures of a rebound loop variable), folded into n2. Its
        operands are names and literals: no int64 overflow inside it (a
        statement that overflows after Python code ran raises RuntimeError:
        see the closing note of the issue that added this)."""
        ints = sorted(v for v in env if v[0] == "n" and len(v) == 2)
        fls = sorted(v for v in env if v[0] == "x" and v != "xs")
        i = self.rng.choice(ints) if ints and self.rng.random() < 0.8 else self.lit_int()
        f = self.rng.choice(fls) if fls and self.rng.random() < 0.8 else self.lit_float()
        k = self.rng.randrange(10)
        cond = self.cond(env, 0, in_loop)
        env.add("n2")  # bound by what follows (not read by it)
        if k == 6:  # UNPACK_EX of a tuple display and of a list
            xs = "xs" if "xs" in env else "[%s]" % f
            return [ind + "o0, *r0 = (%s, %s, %s)" % (i, f, i), ind + "*r1, o1 = %s or [%s]" % (xs, f),
                    ind + "n2 = len(r0) + len(r1) + (1 if o0 == o1 else 0)"]
        if k == 7:  # list.extend / += of a typed list, the list kept
            return [ind + "r0 = [%s]" % f, ind + "r0 += [%s, %s]" % (f, f), ind + "r0.extend((%s,))" % f,
                    ind + "n2 = len(r0) + (1 if r0[0] == r0[-1] else 0)"]
        if k == 8:  # two generator expressions on one line, a lambda in a comprehension
            return [ind + "n2 = len(list(zip((q for q in (%s, %s)), (-q for q in (%s,)))))" % (f, f, f),
                    ind + "n2 += len([(lambda: %s)() for q in range(2) if (lambda: q)() is not None])" % i]
        if k == 9:  # a namedtuple made from a kernel, its fields read
            return [ind + "t0 = FuzzPair(%s, %s)" % (i, f), ind + "n2 = 1 if t0.a == t0.b else len(t0)"]
        if k == 0:
            return [ind + "o0 = %s or None" % i, ind + "n2 = 1 if o0 is None else len([o0, None, %s])" % f]
        if k == 1:
            star = "*ks, " if "ks" in env else ""
            return [ind + "n2 = len([%s%s, *(%s, None)]) + len((*(%s, %s), %s))" % (star, f, i, i, f, f)]
        if k == 2:
            return [ind + "n2 = len({**{%s: 1}, %s: 2, **{}})" % (i, f)]
        if k == 3:
            return [ind + "n2 = 1 if (%s or None, %s) < (%s, 1) <= (%s, 0) else 2" % (i, i, i, i)]
        if k == 4:
            return [ind + "o0 = %s if %s else (%s, None)" % (f, cond, i),
                    ind + "n2 = 3 if o0 == (%s, None) else 4" % i]
        return [ind + "c0 = %s" % i, ind + "fs = []", ind + "for k in range(3):",
                ind + "    fs.append(lambda: k * c0)", ind + "n2 = 5 if fs[0]() == fs[2]() else 6"]

    def optional_stmt(self, env, ind, in_loop):
        """A local holding p0 or None ("P | None"), read where a test proves
        it not None (typed as the instance: analysis/narrow.c) and where it
        does not (bound again first)."""
        cond, f = self.cond(env, 0, in_loop), self.float_expr(env, 0, in_loop)
        env.add("x2")
        k = self.rng.randrange(4)
        if k == 3:  # a truth test: P has __len__ (3), so an instance is true
            return [ind + "q0 = p0 if %s else None" % cond, ind + "if not q0:", ind + "    q0 = -p0",
                    ind + "x2 = q0.a * 2.0 if q0 else %s" % f]
        if k == 0:
            return [ind + "q0 = p0 if %s else None" % cond,
                    ind + "x2 = q0.a + q0.m0(%s) if q0 is not None else %s" % (f, f)]
        if k == 1:
            return [ind + "q0 = None if %s else p0" % cond, ind + "if q0 is None:",
                    ind + "    q0 = -p0", ind + "x2 = q0.s + (q0 + p0).b"]
        return [ind + "q0 = p0 if %s else None" % cond,
                ind + "while q0 is not None and q0.a > %s:" % f,
                ind + "    x2 = q0.b + float(len(q0))", ind + "    q0 = -q0 if q0.a > 0.0 and q0.b < %s else None" % f,
                ind + "x2 = 0.0 if q0 is None else q0[%s]" % f]

    def mid_stmt(self, env, ind, in_loop):
        """A statement whose operand p0.a is an int for some instances
        (instance_recipe) after tk() ran Python code: the kernel goes on in
        the interpreter around the operands it had evaluated (emit/continue.c
        mid_action, _continue.py), in each shape a continuation addresses:
        arithmetic, a chain, list, dict and set displays, an f-string, an
        augmented attribute or list item, a for loop's iterable, a while test, a keyword
        argument, an assert, a raise."""
        f, g = self.float_expr(env, 0, in_loop), self.float_expr(env, 1, in_loop)
        env.add("x3")
        if "xs" in env and self.rng.random() < 0.6:  # a list item's read kept, at a computed index
            i = self.int_expr(env, 1, in_loop)
            return [ind + "x3 = 0.5", ind + "if xs:", ind + "    xs[(%s) %% len(xs)] += tk(%s) + p0.a" % (i, f),
                    ind + "    x3 = xs[0]"]
        return self.rng.choice([
            [ind + "x3 = tk(%s) * 2.0 + p0.a" % f],
            [ind + "x3 = 1.0 if tk(%s) < p0.a <= %s else 2.0" % (f, g)],
            [ind + "x3 = 1.0", ind + "if not tk(%s) < p0.a * %s:" % (f, g), ind + "    x3 = 2.0"],
            [ind + "x3 = float(len([tk(%s), p0.a * %s, tk(p0.b)]))" % (f, g)],
            [ind + "p0.b += tk(%s) + p0.a" % f, ind + "x3 = p0.b"],
            [ind + "x3 = 0.0", ind + "for v in (tk(%s), p0.a * %s):" % (f, g), ind + "    x3 += v"],
            [ind + "x3 = 0.0", ind + "while tk(x3) < p0.a + %s and x3 < 3.0:" % f, ind + "    x3 += 1.0"],
            [ind + "x3 = p0.md(tk(%s), c=p0.a * %s)" % (f, g)],
            [ind + "assert tk(%s) != p0.a * %s, 'fuzz'" % (f, g), ind + "x3 = 1.5"],
            [ind + "x3 = {'a': tk(%s), 1.5: p0.a * %s}[1.5]" % (f, g)],
            [ind + "x3 = float(len({tk(%s), p0.a * %s}))" % (f, g)],
            [ind + "x3 = float(len(f'{tk(%s)}|{p0.a * %s:.3e}'))" % (f, g)],
            [ind + "x3 = %s" % f, ind + "if x3 > 1.0:", ind + "    raise ValueError(tk(x3) + p0.a)"],
            # an object's truth (T's __bool__ prints) tested once, also in (t and y) or z (boolop_object)
            [ind + "x3 = p0.a * %s if T(%s > 0.5) else %s" % (f, g, f)],
            [ind + "x3 = float((T(%s > 0.5) and p0.a * %s) or 2.5)" % (g, f)],
            [ind + "x3 = float((T(%s > 0.5) or tk(%s)) and p0.b - p0.a)" % (g, f)],
            [ind + "x3 = 1.0", ind + "if T(%s < 0.5) and p0.a * %s > 0.0:" % (g, f), ind + "    x3 = 2.0"]])

    def comp_stmt(self, env, ind, in_loop):
        """A list, set or dict comprehension (or a generator consumed as its
        items' list: sum, str.join, max, dict; or by any(), all()) whose element, condition or
        iterable may overflow int64 (ks's items times an int) or meet p0.a an
        int where a float was recorded, after tk() ran Python code in it: the
        interpreter goes on from that item (_continue.py _comprehension_rest),
        nothing printed twice."""
        i, j = self.int_expr(env, 1, in_loop), self.int_expr(env, 1, in_loop)
        f, g = self.float_expr(env, 1, in_loop), self.float_expr(env, 1, in_loop)
        shapes = [("n2", "len([tk(j) + j * %s for j in range(abs(%s) %% 5)])" % (i, j)),
                  ("n2", "len([tk(j) for j in range(%s * %s %% 7, 9, 2)])" % (i, j))]
        if "ks" in env:
            shapes += [("n2", "len([k * %s + tk(k) for k in ks if k %% 7 != %s])" % (i, j)),
                       ("n2", "sum([k * %s - tk(k) for k in ks]) %% 1000003" % i),
                       ("n2", "len({tk(k) - k * %s for k in ks})" % i),
                       ("n2", "len({k: tk(k) * %s for k in ks if tk(k) %% 3})" % i),
                       ("n2", "len([j * k + tk(j) for j in range(3) if tk(j) != %s for k in ks if k != j])" % i),
                       ("n2", "sum(k * %s + tk(k) for k in ks if k != %s) %% 1000003" % (i, j)),
                       ("n2", "len(','.join(str(tk(k) * %s) for k in ks))" % i),
                       ("n2", "max(tk(k) - k * %s for k in ks) %% 1000003" % i),
                       ("n2", "len(dict((k, tk(k) * %s) for k in ks))" % i),
                       ("n2", "int(any(tk(k) * %s > %s for k in ks if k != 7))" % (i, j)),
                       ("n2", "int(all(k * %s - tk(k) < %s for k in ks))" % (i, j))]
        if "xs" in env:
            shapes.append(("x3", "float(len([tk(q) * %s for q in xs if q < %s]))" % (f, g)))
            shapes.append(("x3", "float(sum(q * %s for q in xs if tk(q) < %s))" % (f, g)))
            shapes.append(("x3", "min(q * %s for q in xs if tk(q) != %s) if len(xs) > 1 else %s" % (f, g, g)))
        if "p0" in env:
            shapes.append(("x3", "float(len([tk(%s) + p0.a * q for q in (1.0, %s)]))" % (f, g)))
        name, e = self.rng.choice(shapes)
        env.add(name)
        return [ind + "%s = %s" % (name, e)]

    def walrus_cond(self, env, in_loop):
        """`(name := value) op rhs`: the assignment runs before the if (ir/stmt.c lower_walrus).
        The value may read name itself and call tk() (Python code ran: a deoptimisation after it,
        an int64 overflow in the value or in the rest of the test, goes on in the interpreter
        with name's value, tk's print not repeated)."""
        if self.rng.random() < 0.5:
            name = "n%d" % self.rng.randrange(3)
            value = self.int_expr(env, 2, in_loop)
            if self.rng.random() < 0.4:
                value = "tk(%s) * %s" % (value, self.int_expr(env, 1, in_loop))
            if in_loop:
                value = "(%s) %% 1000003" % value  # loops never grow ints without bound
            env.add(name)
            return "(%s := %s) * %s %s %s" % (name, value, self.int_expr(env, 1, in_loop),
                                             self.rng.choice([">", ">=", "==", "!="]), self.int_expr(env, 1, in_loop))
        name = "x%d" % self.rng.randrange(3)
        value = self.float_expr(env, 2, in_loop)
        if self.rng.random() < 0.4:
            value = "tk(%s) + %s" % (value, self.float_expr(env, 1, in_loop))
        env.add(name)
        return "(%s := %s) %s %s" % (name, value, self.rng.choice(["<", "<=", "==", "!="]),
                                     self.float_expr(env, 1, in_loop))

    def stmt(self, env, ind, depth, in_loop):
        k = self.rng.randrange(14)
        if k >= 12:
            return self.object_stmt(env, ind, in_loop)
        if "a0" in env and self.rng.random() < 0.3:
            return self.array_stmt(env, ind, in_loop)
        if "p0" in env and self.rng.random() < 0.15:
            # an instance's attribute store, a rebinding, p0.b op= v (a float operation in v that
            # deoptimises, x ** 0.5 of a negative x, after Python code ran goes on in the
            # interpreter with p0.b's value read before v: _continue.py _resumed_statements)
            if self.rng.random() < 0.4:
                return self.optional_stmt(env, ind, in_loop)
            if self.rng.random() < 0.4:
                return self.mid_stmt(env, ind, in_loop)
            return [ind + self.rng.choice(["p0.a = %s" % self.float_expr(env, 1, in_loop), "p0 = -p0",
                                           "p0 += p0", "p0.b += %s" % self.float_expr(env, 1, in_loop)])]
        if self.rng.random() < 0.08:
            return self.comp_stmt(env, ind, in_loop)
        d = 2
        if k < 3 or depth <= 0:
            name = self.rng.choice(["n%d" % self.rng.randrange(3), "x%d" % self.rng.randrange(3)])
            if name[0] == "n":
                e = self.int_expr(env, d, in_loop)
                if in_loop:
                    e = "(%s) %% 1000003" % e  # loops never grow ints without bound
            else:
                e = self.float_expr(env, d, in_loop)
            env.add(name)
            return [ind + "%s = %s" % (name, e)]
        if k == 3:
            fl = sorted(v for v in env if v[0] == "x" and v != "xs")
            if fl:
                return [ind + "%s %s= %s" % (self.rng.choice(fl), self.rng.choice("+-*"),
                                             self.float_expr(env, d, in_loop))]
            return []
        if k == 4:
            cond = self.cond(env, 1, in_loop)
            if self.rng.random() < 0.5:
                cond = self.walrus_cond(env, in_loop)
            then_env, else_env = set(env), set(env)
            lines = [ind + "if %s:" % cond]
            lines += self.block(then_env, ind + "    ", depth - 1, in_loop, 2)
            lines += [ind + "else:"] + self.block(else_env, ind + "    ", depth - 1, in_loop, 2)
            env |= then_env & else_env
            return lines
        if k == 5 and self.rng.random() < 0.5:  # a while loop whose test assigns: `while True: n = v; ...`
            c = "n_w%d" % depth
            env.add(c)
            cond = self.walrus_cond(env, True)
            body_env = set(env)
            lines = [ind + "%s = 0" % c, ind + "while %s and %s < 4:" % (cond, c), ind + "    %s += 1" % c]
            return lines + self.block(body_env, ind + "    ", depth - 1, True, 2)
        if k == 5:
            v = "i%d" % depth
            body_env = set(env) | {"n_" + v}
            lines = [ind + "for %s in range(min(%s, 40)):" % (v, self.int_expr(env, 1, True))]
            body = self.block(body_env, ind + "    ", depth - 1, True, 2)
            lines += [ind + "    n_%s = %s" % (v, v)] + body
            return lines
        if k == 6 and "xs" in env:
            return [ind + "xs[%s] = %s" % (self.int_expr(env, 1, in_loop), self.float_expr(env, d, in_loop))]
        if k == 7 and "xs" in env:
            return [ind + "for q in xs:", ind + "    x2 = q * %s" % self.float_expr(env, 1, True)]
        if k == 8 and self.funcs:
            name, params = self.rng.choice(self.funcs)
            args = []
            for p in params:
                args.append("xs" if p == "xs" and "xs" in env else "ks" if p == "ks" and "ks" in env
                        else "p0" if p == "p0" and "p0" in env else None if p == "p0"
                        else "a0" if p == "a0" and "a0" in env else None if p == "a0"
                            else self.int_expr(env, 1, in_loop) if p[0] == "n"
                            else self.float_expr(env, 1, in_loop) if p[0] == "x" else None)
            if None in args:
                return []
            env.add("n1")
            env.add("x1")
            if self.rng.random() < 0.3:  # by keyword, in another order: evaluated in source order still
                given = [("%s=%s" % (p, a)) for p, a in zip(params, args)]
                self.rng.shuffle(given)
                return [ind + "n1, x1 = %s(%s)" % (name, ", ".join(given))]
            return [ind + "n1, x1 = %s(%s)" % (name, ", ".join(args))]
        if k == 9:
            cond = self.walrus_cond(env, in_loop) if self.rng.random() < 0.4 else self.cond(env, 1, in_loop)
            return [ind + "if %s:" % cond,
                    ind + "    raise ValueError('fuzz %d')" % self.rng.randrange(100)]
        if k == 10 and "xs" in env and not in_loop:
            return [ind + "xs.append(%s)" % self.float_expr(env, 1, in_loop)]
        return [ind + "x0 = x0 + %s" % self.float_expr(env, d, in_loop)] if "x0" in env else []

    def function(self, idx):
        rng = self.rng
        params = ["n0", "x0"] + rng.sample(["n1", "x1", "xs", "ks", "p0"] + (["a0"] * 3 if np else []),
                                           rng.randrange(3))
        params = list(dict.fromkeys(params))
        # p0 an object now and then: its attributes are read as the numbers P declares (a guess
        # checked per read: Q, an int attribute, a missing one), its operators through the C API
        ann = {"n": "int", "x": "float", "p": "object" if rng.random() < 0.3 else "P", "a": "ndarray[d]"}
        types = ["list[float]" if p == "xs" else "list[int]" if p == "ks" else ann[p[0]] for p in params]
        sig = ", ".join("%s: %s" % (p, t) if p != "a0" else p for p, t in zip(params, types))
        env = set(params)
        body = self.block(env, "    ", 3, False, rng.randrange(2, 7))
        ints = sorted(v for v in env if v[0] == "n" and v in env)
        fls = sorted(v for v in env if v[0] == "x" and v != "xs")
        ret = "    return %s, %s" % (self.rng.choice(ints) if ints else "0",
                                     self.rng.choice(fls) if fls else "0.0")
        name = "f%d" % idx
        deco = "@dynac.compile" if "a0" not in params else \
            '@dynac.compile(signatures=["(%s)"])' % ", ".join(types)  # the array's dimensions: a signature
        src = [deco, "def %s(%s) -> tuple[int, float]:" % (name, sig)] + body + [ret]
        self.funcs.append((name, params))
        return name, params, "\n".join(src)

    def classes(self):
        """P (declared float attributes; a method, operators, a property, a
        staticmethod, len and an item) and its subclass Q (super(), P.m0):
        instances of exactly P are what kernels specialise on; and the
        dataclass D (its generated __init__, a default), the frozen F, G (a
        default factory, an InitVar) and K (keyword-only fields)."""
        e = self.float_expr({"x0", "x1", "x2"}, 2, False)
        e = re.sub(r"\bx0\b", "self.a", re.sub(r"\bx1\b", "self.b", re.sub(r"\bx2\b", "x", e)))
        return CLASSES % e

    def module(self, nfuncs):
        parts = ['"""A module made by tests/fuzz.py."""', "import dataclasses", "import heapq", "import math",
                 "import numpy as np" if np else "", "import dynac", "",
                 self.classes()]
        funcs = []
        for i in range(nfuncs):
            name, params, src = self.function(i)
            parts += ["", src, ""]
            funcs.append((name, params))
        return "\n".join(parts) + "\n", funcs


CLASSES = """
class P:
    a: float
    b: float

    def __init__(self, a, b):
        self.a = a
        self.b = b

    def m0(self, x):
        return %s

    def __add__(self, o):
        return P(self.a + o.a, self.b - o.b)

    def __radd__(self, k):
        return P(k + self.a, self.b)

    def __neg__(self):
        return P(-self.a, self.b)

    def __lt__(self, o: object):  # an (object, object) entry: heapq's comparisons call it (heap_min)
        return self.a < o.a

    def __len__(self):
        return 3

    def __getitem__(self, i):
        return self.a * i

    @property
    def s(self):
        return self.a * self.b

    @staticmethod
    def st(x):
        return x * 2.0 - 1.0

    def pk(self, x, *rest):
        return x * len(rest) + self.a

    def sp(self, kind, x, *rest):
        # *rest only spread: its kernel takes the caller's values, no tuple (analysis/star_args.c)
        return kind(x, *rest).a + self.a

    def md(self, x, k=2.0, n=1, c=None):
        return x * k + self.a * n if c is None else -x

    @staticmethod
    def sk(*xs):
        return xs[0] - xs[-1] * 0.5 if xs else 0.25

    def kw(self, x, k=2.0, *, s=1.0, c=0.5):
        # keyword-only parameters: a call's keywords bind by name at build time, the ones it
        # leaves out read from __defaults__ / __kwdefaults__ when it runs
        return x * k * s + self.a * c

    @staticmethod
    def sd(x, k=0.5, *, w=2.0):
        # a staticmethod's and a classmethod's defaults: read from the def each wraps
        return x * w - k

    @classmethod
    def cd(cls, x, b=1.5, *, scale=1.0):
        return cls(x * scale, b).a


FuzzPair = __import__("collections").namedtuple("FuzzPair", "a b")  # made in C from kernels


@dataclasses.dataclass
class D:
    # a dataclass: the __init__ it generates runs as a kernel made from the fields (its
    # temporaries kept as fields: emit/records.c), b's default left on the class
    a: float
    b: float = 0.5

    def __add__(self, o):
        return D(self.a + o.a, self.b * o.b)

    def m0(self, x):
        return self.a * x - self.b


def dc_walk(x, y):
    # D's temporaries in a loop, one escaping into a list (made as an instance there)
    t = D(0.0)
    kept = []
    for i in range(3):
        t = t + D(x * i, y)
        if i == 1:
            kept.append(t)
    return t.a + t.b + kept[0].m0(x)


@dataclasses.dataclass(frozen=True)
class F:
    # frozen: the __init__ dataclasses generates stores through object.__setattr__ (so does its
    # kernel), any other store raises FrozenInstanceError; temporaries kept as fields
    a: float
    b: float = 0.25

    def __post_init__(self):
        # called at the end of the generated __init__ (its kernel's too)
        object.__setattr__(self, "s", self.a + self.b)

    def __sub__(self, o):
        return F(self.a - o.a, self.b + o.s)

    def moved(self, x):
        q = F(self.a + x, self.b)
        try:
            q.b = x
        except dataclasses.FrozenInstanceError:
            return q.a - q.b
        return q.b


def fz_walk(x, y):
    # F's temporaries in a loop, one escaping into a list
    t = F(x)
    kept = []
    for i in range(3):
        t = t - F(y * i, x)
        if i == 1:
            kept.append(t)
    return t.a * t.b + kept[0].a


@dataclasses.dataclass
class G:
    # a default factory and an InitVar: the generated __init__ (and the kernel made from the
    # fields) calls the factory, a closure cell of its own, where the call leaves hist out, and
    # passes k on to __post_init__; init=False fields are no parameters: seen's default stays
    # the class's, made's factory is called every time
    a: float
    hist: list = dataclasses.field(default_factory=list)
    seen: int = dataclasses.field(default=0, init=False)
    k: dataclasses.InitVar[float] = 1.0
    made: list = dataclasses.field(default_factory=list, init=False)

    def __post_init__(self, k):
        self.hist.append(self.a * k)
        self.made.append(k)

    def total(self):
        return sum(self.hist) + self.a + self.seen + len(self.made)


def gf_walk(x, y):
    # G's constructions in a loop: the factory's list, or a given one each makes longer
    shared = [y]
    t = 0.0
    for i in range(3):
        g = G(x * i) if i != 1 else G(x, shared, y)
        t += g.total()
    return t + len(shared)

class T:
    # a truth that prints: and/or and conditional expressions test it once (mid_stmt)
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        print("bool", self.v)
        return self.v


def tk(x):
    # Python code run before an operand of another type than recorded (p0.a an int): the
    # statement goes on in the interpreter mid-expression, tk's print not repeated (mid_stmt)
    print("tk", x)
    return x


def heap_min(p, x, y):
    # heapq in a kernel: its comparisons call P.__lt__'s kernel (emit/heap.c) or CPython's
    h = []
    heapq.heappush(h, P(x, y))
    heapq.heappush(h, p)
    heapq.heappush(h, Q(y, x))
    heapq.heappush(h, P(-x, 0.5))
    first = heapq.heappop(h)
    second = heapq.heappop(h)
    return first.a - second.b * 0.5 + len(h)


def poly_m0(p, x, y):
    # an object's method, per receiver class the profile names (P.m0, Q.m0: emit_polymorphic_call)
    t = 0.0
    for o in [p, Q(x, y), P(y, x), p]:
        t += o.m0(x)
    return t


def made_as(kind, x, y, rest):
    # a class held in a parameter, per class its callers pass (P, Q: emit_polymorphic_construction)
    o = kind(x, *rest) if y < 0.0 else kind(x, y)
    return o.a - o.b * 0.5


class Q(P):
    def __init__(self, a, b):
        super().__init__(a, b * 2.0)

    def m0(self, x):
        return super().m0(x) + P.m0(self, x)

    def pk(self, x, *rest):
        return super().pk(x, *rest) - len(rest)

    def md(self, x, k=-1.0, n=0, c=None):
        return super().md(x, k, n, c) - 0.5

    def kw(self, x, k=-2.0, *, c=0.25, s=3.0):
        # c before s: `o.kw(x, s=.., c=..)` binds in order for P's def only (Q's: CPython's call)
        return super().kw(x, k, s=s, c=c) - 1.0


def poly_kw(p, x, y):
    # keyword calls of an object's method, per receiver class (P.kw, Q.kw)
    t = 0.0
    for o in [p, Q(x, y), P(y, x), p]:
        t += o.kw(x, c=y) + o.kw(y, s=x, c=0.5)
    return t


@dataclasses.dataclass
class K:
    # keyword-only fields (after KW_ONLY): the synthesised __init__ takes them after `*`
    a: float
    _: dataclasses.KW_ONLY
    b: float = 0.5
    n: int = 2

    def t(self):
        return self.a * self.n + self.b
"""


def instance_recipe(rng):
    """An argument for a P parameter, made in each module by materialise:
    mostly an instance of exactly P; else one of Q, one with an int
    attribute, or one lacking b."""
    k = rng.randrange(10)
    a, b = (rng.choice(FLOATS) if rng.random() < 0.3 else rng.uniform(-10, 10) for _ in range(2))
    return ("instance", "Q" if k == 7 else "P", rng.choice(SMALL) if k == 8 else a, b, k == 9)


def materialise(mod, v):
    """An argument as the function gets it: a list copied, an instance made
    from its recipe by module mod's own class."""
    if isinstance(v, list):
        return list(v)
    if isinstance(v, tuple) and v and v[0] == "array":  # a float64 array (strided: every other item)
        return np.repeat(np.array(v[1], dtype=float), 2)[::2] if v[2] else np.array(v[1], dtype=float)
    if isinstance(v, tuple) and v and v[0] == "instance":
        o = getattr(mod, v[1])(v[2], v[3])
        if v[4]:
            del o.b
        return o
    return v


def random_args(rng, params):
    out = []
    for p in params:
        if p == "p0":
            out.append(instance_recipe(rng))
        elif p == "xs":
            out.append([rng.choice(FLOATS + [rng.uniform(-5, 5)]) for _ in range(rng.randrange(5))])
        elif p == "ks":
            out.append([rng.choice(INTS + SMALL) for _ in range(3)])
        elif p == "a0":
            out.append(("array", [rng.choice(FLOATS) if rng.random() < 0.3 else rng.uniform(-10, 10)
                                  for _ in range(rng.choice([0, 1, 2, 3, 5, 9, 20]))], rng.random() < 0.2))
        elif p[0] == "n":
            out.append(rng.choice(INTS + SMALL + [rng.randrange(-1000, 1000)]))
        else:
            out.append(rng.choice(FLOATS) if rng.random() < 0.5 else
                       struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
                       if rng.random() < 0.2 else rng.uniform(-100, 100))
    return out


def picture(v):
    """Comparable: floats by their bits (the sign of zero), containers and
    complex numbers part by part. A NaN is any NaN here: when two NaNs meet
    in one operation (nan + -nan, inside a function), which one x86 passes
    on is the operand order, which the C compiler chooses (+ and * commute).
    The suites check NaN signs where one NaN flows (tests/e2e)."""
    if np is not None and isinstance(v, np.generic):  # numpy.float64 is a float: its type counts
        return ("np", type(v).__name__, picture(v.item()))
    if isinstance(v, float):
        return ("f", "nan" if v != v else struct.pack("<d", v).hex())
    if isinstance(v, complex):
        return ("complex", picture(v.real), picture(v.imag))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [picture(x) for x in v])
    if np is not None and isinstance(v, np.ndarray):
        return ("ndarray", v.dtype.str, v.shape, [picture(float(x)) for x in v.flat])
    if type(v).__name__ in ("P", "Q"):  # an instance of the module's classes: its attributes
        return (type(v).__name__, sorted((k, picture(x)) for k, x in vars(v).items()))
    return (type(v).__name__, v)


def one_nan(args):
    """Two NaNs of different bits as operands: which one an operation passes
    on is the hardware's operand order, which C compilers may swap."""
    flat = [a for a in args if isinstance(a, float)] + \
           [x for a in args if isinstance(a, (list, tuple)) for x in a if isinstance(x, float)]
    return len({struct.pack("<d", a) for a in flat if a != a}) <= 1


class Overran(BaseException):
    """A call ran past CALL_SECONDS (SIGALRM): not an Exception, so that the
    function's own handlers let it through."""


CALL_SECONDS = 10.0  # an eager call this long is the generator's doing (seed 163: an int squared 40 times)


def on_alarm(signum, frame):
    raise Overran()


def timed_call(fn, args, filename):
    """call() under a timer: None if it overran."""
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        return call(fn, args, filename)
    except Overran:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def call(fn, args, filename):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = ("ok", picture(fn(*args)))
        except Exception as e:  # noqa: BLE001 - the comparison is the point
            lines = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == filename]
            r = ("raise", type(e).__name__, str(e), lines[-1:] if lines else None)
    # numpy's warnings, in order (their line: numpy's own operations in a kernel name the caller's)
    warned = [(x.category.__name__, str(x.message)) for x in w]
    return r, buf.getvalue(), picture(args), warned


def receivers_profile(src, built, tmp):
    """A profile naming P and Q as receivers of their m0 and __init__ (as
    `dynac record` would), so that o.m0(x) of objects is a polymorphic call
    site and made_as's kind(x, y, *extra) a polymorphic construction; and
    P.__lt__ compared with more class combinations than cache entries take
    (P and Q both ways, and a float), so that heap_min's comparisons call a
    kernel per pair of classes (emit/heap.c). Its path."""
    import ast
    import json
    lines = {"%s.%s" % (c.name, f.name): f.lineno for c in ast.parse(src).body if isinstance(c, ast.ClassDef)
             for f in c.body if isinstance(f, ast.FunctionDef) and f.name in ("m0", "__init__", "__lt__")}
    def signatures(q):
        if q.endswith("__lt__"):
            return [{"args": [a, b], "calls": 1} for a in ("fz.P", "fz.Q") for b in ("fz.P", "fz.Q", "float")]
        return [{"args": ["fz.%s" % q.split(".")[0], "float"] + ["float"] * q.endswith("__init__"), "calls": 1}]
    fns = [{"file": os.path.realpath(built), "qualname": q, "firstlineno": n, "signatures": signatures(q)}
           for q, n in sorted(lines.items())]
    path = os.path.join(tmp, "fz.json")
    with open(path, "w") as f:
        json.dump({"version": 1, "functions": fns}, f)
    return path


def kernel_calls(module, fname):
    """How many calls of module.fname its kernels have run (dynac's stats)."""
    return dynac.stats().get("%s.%s" % (module, fname), {}).get("kernel_calls", 0)


def run_module(src, funcs, rng, calls, tmp, keep, tag):
    """Builds and compares one module. Returns (calls, served, findings)."""
    for d in ("c", "e"):
        os.makedirs(os.path.join(tmp, d), exist_ok=True)
        with open(os.path.join(tmp, d, "fz.py"), "w") as f:
            f.write(src)
    built = os.path.join(tmp, "c", "fz.py")
    r = dynac_cmd("build", built, "--profile", receivers_profile(src, built, tmp))
    findings = []
    if r.returncode != 0 or "Traceback" in r.stderr or "internal" in r.stderr:
        findings.append("build failed: %s" % r.stderr[-1500:])
        save(keep, tag, src, findings)
        return 0, 0, findings
    name = "fz_%s" % tag
    C = load_module(built, name)
    E = load_module(os.path.join(tmp, "e", "fz.py"), name)
    dynac.reset_stats()
    ncalls = served = 0
    for fname, params in funcs:
        for _ in range(calls):
            args = random_args(rng, params)
            if not one_nan(args):
                continue
            a1 = [materialise(E, a) for a in args]
            a2 = [materialise(C, a) for a in args]
            e = timed_call(getattr(E, fname), a1, os.path.join(tmp, "e", "fz.py"))
            if e is None:  # CPython itself takes too long on these arguments
                break
            before = kernel_calls(name, fname)
            c = timed_call(getattr(C, fname), a2, built)
            served += kernel_calls(name, fname) > before
            if c is None:
                c = "ran past %g s where CPython finished" % CALL_SECONDS
            ncalls += 1
            if e != c:
                findings.append("%s%r:\n    eager    %r\n    compiled %r" % (fname, tuple(args), e, c))
                break
    if findings:
        save(keep, tag, src, findings)
    return ncalls, served, findings


def save(keep, tag, src, findings):
    os.makedirs(keep, exist_ok=True)
    path = os.path.join(keep, "fz_%s.py" % tag)
    with open(path, "w") as f:
        f.write(src + "\n# findings:\n" + "".join("# " + line + "\n"
                                                for x in findings for line in x.splitlines()))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--modules", type=int, default=300)
    ap.add_argument("--budget", type=float, default=1200.0, help="seconds; stops early when spent")
    ap.add_argument("--functions", type=int, default=4, help="functions per module")
    ap.add_argument("--calls", type=int, default=40, help="calls per function")
    ap.add_argument("--keep", default=os.path.join(ROOT, "build", "fuzz-findings"))
    ap.add_argument("--summary-only", action="store_true")
    a = ap.parse_args(argv)
    os.environ["CFLAGS"] = strict_cflags(os.environ)  # a warning in a module is a build failure: a finding
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="dynac-fuzz-")
    modules = calls = served = bad = 0
    try:
        for m in range(a.modules):
            if time.time() - t0 > a.budget:
                break
            rng = random.Random(a.seed * 1000003 + m)
            src, funcs = Gen(rng).module(a.functions)
            tag = "%d_%d" % (a.seed, m)
            d = os.path.join(tmp, tag)
            n, s, findings = run_module(src, funcs, rng, a.calls, d, a.keep, tag)
            shutil.rmtree(d, ignore_errors=True)
            modules += 1
            calls += n
            served += s
            for f in findings:
                bad += 1
                print("FINDING module seed %d #%d (%s): %s" % (a.seed, m, os.path.join(a.keep, "fz_%s.py" % tag), f),
                      flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    share = 100.0 * served / calls if calls else 0.0
    print("fuzz: seed %d: %d modules, %d compared calls, %.1f%% served by kernels, %d findings (%.0f s)"
          % (a.seed, modules, calls, share, bad, time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
