"""Mandelbrot escape counts over a w x h grid of [-2, 1] x [-1.5, 1.5],
written into an array('i') row by row.

    python3 -m dynac build examples/mandelbrot.py && python3 examples/mandelbrot.py
"""
from array import array

import dynac


@dynac.compile(signatures=["(int, int, int, array[i])"])
def mandel(w, h, maxiter, out):
    for y in range(h):
        ci = -1.5 + 3.0 * y / h
        for x in range(w):
            cr = -2.0 + 3.0 * x / w
            zr = 0.0
            zi = 0.0
            k = 0
            while k < maxiter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[y * w + x] = k


def run(w=120, h=80, maxiter=200):
    out = array("i", [0]) * (w * h)
    mandel(w, h, maxiter, out)
    return (sum(out), out.tobytes())


TEST_ARGS, BENCH_ARGS = (60, 40, 100), (300, 200, 200)

if __name__ == "__main__":
    print(run()[0])
