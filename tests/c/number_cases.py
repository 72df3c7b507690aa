"""Writes the cases tests/c/test_numbers.c checks: each helper of
runtime/plain_c.h on a grid of edge values, with CPython's own answer
computed here by the running interpreter (so the expectations are never
typed by hand). Usage: number_cases.py OUT.h"""
import itertools
import math
import struct
import sys

I64 = (-2**63, 2**63 - 1)
INTS = [0, 1, -1, 2, -2, 3, -3, 7, -7, 62, 63, 64, 2**31, -2**31, 2**32 + 1, 3037000499,
        3037000500, -3037000500, 2**62, -2**62, 2**63 - 1, -2**63, -2**63 + 1, 10**18]
FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, 1.5, -2.5, 1e308, -1e308, 5e-324,
          -5e-324, 1e-300, 0.1, 7.0, -7.0, 2.0**53, -(2.0**53) - 2.0, 9.2233720368547758e18,
          -9.2233720368547758e18, math.inf, -math.inf, math.nan,
          -2.0121713814212754, 0.49999999999999994]


def fits(v):
    return isinstance(v, int) and I64[0] <= v <= I64[1]


def int_case(op, fn, a, b):
    try:
        v = fn(a, b)
    except (ZeroDivisionError, ValueError, OverflowError):
        return "{%s, %s, %s, 1, 0}" % (op, lit(a), lit(b))
    ok = fits(v)
    return "{%s, %s, %s, %d, %s}" % (op, lit(a), lit(b), 0 if ok else 1, lit(v) if ok else "0")


def lit(v):
    return "INT64_MIN" if v == -2**63 else "%dLL" % v


def bits(x):
    return "0x%016xULL" % struct.unpack("<Q", struct.pack("<d", x))[0]


def float_case(op, fn, a, b):
    try:
        v = fn(a, b)
    except (ZeroDivisionError, ValueError, OverflowError):
        return "{%s, %s, %s, 1, 0}" % (op, bits(a), bits(b))
    if not isinstance(v, float):  # a complex number (negative ** fraction)
        return "{%s, %s, %s, 1, 0}" % (op, bits(a), bits(b))
    return "{%s, %s, %s, 0, %s}" % (op, bits(a), bits(b), bits(v))


def main(out):
    ints = [(a, b) for a, b in itertools.product(INTS, INTS)]
    int_ops = [("I_ADD", lambda a, b: a + b), ("I_SUB", lambda a, b: a - b),
               ("I_MUL", lambda a, b: a * b), ("I_FLOORDIV", lambda a, b: a // b),
               ("I_MOD", lambda a, b: a % b),
               ("I_POW", lambda a, b: a ** b if b >= 0 and (abs(a) < 2 or b < 64) else
                (a ** b if b < 0 else (1 << 64))),  # big powers only need "does not fit"
               ("I_LSHIFT", lambda a, b: a << b if b < 64 or a == 0 else (1 << 64) * (1 if a > 0 else -1)),
               ("I_RSHIFT", lambda a, b: a >> b)]
    rows = [int_case(op, fn, a, b) for op, fn in int_ops for a, b in ints]
    floats = list(itertools.product(FLOATS, FLOATS))
    float_ops = [("F_DIV", lambda a, b: a / b), ("F_MOD", lambda a, b: a % b),
                 ("F_FLOORDIV", lambda a, b: a // b), ("F_POW", lambda a, b: a ** b)]
    frows = [float_case(op, fn, a, b) for op, fn in float_ops for a, b in floats]
    cmp_rows = []
    for i in INTS:
        for f in FLOATS:
            c = 2 if f != f else (-1 if i < f else 1 if i > f else 0)
            cmp_rows.append("{%s, %s, %d}" % (lit(i), bits(f), c))
    conv_rows = []
    for f in FLOATS + [0.5, 1.5, 2.5, -0.5, -1.5, 1e18 + 0.5, 9.2233720368547748e18]:
        for op, fn in (("C_INT", int), ("C_ROUND", round)):
            try:
                v = fn(f)
                ok = fits(v)
            except (ValueError, OverflowError):
                v, ok = 0, False
            conv_rows.append("{%s, %s, %d, %s}" % (op, bits(f), 0 if ok else 1, lit(v) if ok else "0"))
    with open(out, "w") as h:
        h.write("/* Written by tests/c/number_cases.py from CPython %s: do not edit. */\n"
                % sys.version.split()[0])
        h.write("static const int_case INT_CASES[] = {\n  %s};\n" % ",\n  ".join(rows))
        h.write("static const float_case FLOAT_CASES[] = {\n  %s};\n" % ",\n  ".join(frows))
        h.write("static const cmp_case CMP_CASES[] = {\n  %s};\n" % ",\n  ".join(cmp_rows))
        h.write("static const conv_case CONV_CASES[] = {\n  %s};\n" % ",\n  ".join(conv_rows))


if __name__ == "__main__":
    main(sys.argv[1])
