"""Whole-array numerical functions: the Rosenbrock function and a Gaussian
log-likelihood, each an np.sum of an expression over arrays and slices.

Each expression is computed in one loop (no temporary array per
operation), each item rounded as numpy rounds it; np.sum is numpy's own
(its pairwise summation), so the results are bit-identical to numpy's.
Where numpy would warn (an overflow, a division by zero), numpy's own
operations run and warn.

    /usr/bin/python3 -m dynac build examples/whole_array.py && /usr/bin/python3 examples/whole_array.py
"""
import math

import numpy as np

import dynac

REQUIRES = ("numpy",)  # the test suite and make bench skip this example without it


@dynac.compile(signatures=["(ndarray[d])"])
def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


@dynac.compile(signatures=["(ndarray[d], float, float)"])
def gauss_loglik(x, mu, sigma):
    n = len(x)
    return -0.5 * np.sum(((x - mu) / sigma) ** 2) - n * math.log(sigma) - 0.5 * n * math.log(2.0 * math.pi)


def run(n=1000, reps=10):
    x = np.linspace(-1.5, 2.5, n)
    total = 0.0
    for r in range(reps):
        total += float(rosenbrock(x))
        total += float(gauss_loglik(x, 0.1 * r, 1.5))
    return total


TEST_ARGS, BENCH_ARGS = (50, 3), (1000000, 10)

if __name__ == "__main__":
    print(run())
