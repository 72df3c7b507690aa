"""The inputs main.c builds, built the same way in Python, and the lines
main.c prints, printed by CPython running model.py: `python3 inputs.py`
prints what `./build/main` must print, byte for byte."""
import math
import os
import sys
from array import array

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402

N_IN, N_HID, N_OUT, SAMPLES = 8, 16, 4, 6


def value(k, scale):
    """Item k of a deterministic pseudo-random sequence in [-scale, scale]
    (exact integer arithmetic, one correctly rounded division: the same
    double in C and Python)."""
    return (((k * 7919 + 13) % 2001) - 1000) / 1000.0 * scale


def vec(n, offset, scale):
    return array("d", [value(offset + k, scale) for k in range(n)])


def fmt(x):
    return "%.17g" % x


def failure(e):
    tb = e.__traceback__
    while tb.tb_next:
        tb = tb.tb_next
    return "error %s: %s (%s:%d in %s)" % (type(e).__name__, e, os.path.basename(
        tb.tb_frame.f_code.co_filename), tb.tb_lineno, tb.tb_frame.f_code.co_name)


def main():
    w1, b1 = vec(N_HID * N_IN, 0, 1 / math.sqrt(N_IN)), vec(N_HID, 5000, 0.1)
    w2, b2 = vec(N_OUT * N_HID, 9000, 1 / math.sqrt(N_HID)), vec(N_OUT, 12000, 0.1)
    hidden, out = array("d", [0.0]) * N_HID, array("d", [0.0]) * N_OUT
    for s in range(SAMPLES):
        x = vec(N_IN, 20000 + 100 * s, 3.0)
        top = model.forward(x, w1, b1, w2, b2, hidden, out)
        print("sample %d: class %d, p = %s" % (s, top, " ".join(fmt(p) for p in out)))
    mean, std = model.mean_std(w1)
    print("w1: mean %s, std %s" % (fmt(mean), fmt(std)))
    try:
        model.mean_std(array("d"))
    except ZeroDivisionError as e:
        print(failure(e))
    print("w2: crest factor %s" % fmt(model.crest(w2)))
    try:
        model.crest(array("d"))
    except ValueError as e:
        print(failure(e))


if __name__ == "__main__":
    main()
