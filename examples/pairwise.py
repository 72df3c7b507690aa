"""Pairwise Euclidean distances between n points in d dimensions, as
explicit loops over a result array the function makes itself
(np.empty((n, n))): the kind of loop code Numba users write.

The array comes from numpy (a real ndarray owning its memory, returned as
it is); its items are written as C doubles. float() makes the sum a Python
float from the start, as CPython keeps it.

    /usr/bin/python3 -m dynac build examples/pairwise.py && /usr/bin/python3 examples/pairwise.py
"""
import math

import numpy as np

import dynac

REQUIRES = ("numpy",)  # the test suite and make bench skip this example without it


@dynac.compile(signatures=["(ndarray[d, 2])"])
def pairwise(X):
    n, d = X.shape
    D = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = float(X[i, k] - X[j, k])
                s += t * t
            D[i, j] = math.sqrt(s)
    return D


def points(n, d):
    """Deterministic points (no random state): a Lissajous-like cloud."""
    X = np.empty((n, d))
    for i in range(n):
        for k in range(d):
            X[i, k] = math.sin(0.7 * i + 1.3 * k) * (1.0 + 0.01 * i)
    return X


def run(n=100, d=3):
    D = pairwise(points(n, d))
    return float(D.sum()), D.tobytes()


TEST_ARGS, BENCH_ARGS = (20, 3), (1000, 3)

if __name__ == "__main__":
    print(run()[0])
