"""numpy code as people write it, unchanged: the idioms that kept small
third-party numpy programs in the interpreter.

- a running sum that starts as a float and becomes a numpy.float64
  (`s = 0.0; s += x[i] * y[i]`), a running max from `-np.inf`;
- numpy ufuncs of items (`np.sqrt(r2)` of a numpy.float64): numpy's own
  float64 loop on one item, so numpy's bits;
- `x.min()`, `x.max()` feeding typed arithmetic (a histogram);
- rows of 2-D arrays in a sum (`np.sqrt(np.sum((A[i] - B[j]) ** 2))`): one
  loop, no temporary array;
- whole-array expressions with np.sin/np.cos/np.arctan2 (numpy's SIMD bits,
  a block of items at a time through numpy's own loop);
- an in-place stencil whose target overlaps its operands.

    /usr/bin/python3 -m dynac build examples/numpy_idioms.py && /usr/bin/python3 examples/numpy_idioms.py
"""
import numpy as np

import dynac

REQUIRES = ("numpy",)  # the test suite and make bench skip this example without it


@dynac.compile(signatures=["(ndarray[d], ndarray[d])"])
def dot_and_peak(x, y):
    s = 0.0
    m = -np.inf
    for i in range(len(x)):
        s += x[i] * y[i]
        if x[i] > m:
            m = x[i]
    return s, m


@dynac.compile(signatures=["(ndarray[d], int)"])
def histogram(x, nbins):
    lo = x.min()
    hi = x.max()
    counts = np.zeros(nbins, dtype=np.int64)
    width = (hi - lo) / nbins
    for v in x:
        k = int((v - lo) / width)
        if k == nbins:
            k -= 1
        counts[k] += 1
    return counts


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2], float)"])
def gravity(pos, vel, dt):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        for j in range(n):
            if i != j:
                dx = pos[j, 0] - pos[i, 0]
                dy = pos[j, 1] - pos[i, 1]
                r2 = dx * dx + dy * dy + 0.01
                inv = 1.0 / (r2 * np.sqrt(r2))
                acc[i, 0] += dx * inv
                acc[i, 1] += dy * inv
    vel += acc * dt
    pos += vel * dt
    return pos


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2])"])
def row_distances(A, B):
    D = np.empty((A.shape[0], B.shape[0]))
    for i in range(A.shape[0]):
        for j in range(B.shape[0]):
            D[i, j] = np.sqrt(np.sum((A[i] - B[j]) ** 2))
    return D


@dynac.compile(signatures=["(ndarray[d], ndarray[d], ndarray[d], ndarray[d])"])
def arc_distance(theta_1, phi_1, theta_2, phi_2):
    temp = np.sin((theta_2 - theta_1) / 2) ** 2 + np.cos(theta_1) * np.cos(theta_2) * np.sin((phi_2 - phi_1) / 2) ** 2
    return 2 * np.arctan2(np.sqrt(temp), np.sqrt(1 - temp))


@dynac.compile(signatures=["(ndarray[d, 2], int)"])
def diffusion(u, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                                               - 4 * u[1:-1, 1:-1])
    return u


def run(n=2000, reps=3):
    """A checksum of every function's results (a float)."""
    t = np.linspace(0.0, 40.0, n)
    x, y = np.sin(t) * 3.0, np.cos(1.3 * t)
    pts = np.column_stack((np.cos(0.01 * np.arange(n // 20)), np.sin(0.013 * np.arange(n // 20))))
    grid = np.outer(np.sin(np.linspace(0, 3, 60)), np.cos(np.linspace(0, 2, 50)))
    total = 0.0
    for r in range(reps):
        s, m = dot_and_peak(x, y)
        total += float(s) + float(m)
        total += float(histogram(x + r, 17)[3])
        total += float(gravity(pts.copy(), np.zeros_like(pts), 0.01).sum())
        total += float(row_distances(pts[: n // 40], pts).sum())
        total += float(arc_distance(x, y, y + 0.1 * r, x).sum())
        total += float(diffusion(grid.copy(), 10 + r).sum())
    return total


TEST_ARGS, BENCH_ARGS = (200, 2), (4000, 3)

if __name__ == "__main__":
    print(run())
