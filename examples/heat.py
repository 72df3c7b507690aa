"""Heat diffusion on a plate: an explicit 5-point stencil over a 2-D numpy
array, hot along the top edge, with a temperature gradient down the left.
Each step writes the next grid into a second array, then they swap.

Items of a float64 ndarray are numpy.float64 scalars: kernels follow
numpy's rules and hand the rare differing case (overflow to inf, which
numpy answers with a RuntimeWarning) back to the interpreter.

    /usr/bin/python3 -m dynac build examples/heat.py && /usr/bin/python3 examples/heat.py
"""
import numpy as np

import dynac

REQUIRES = ("numpy",)  # the test suite and make bench skip this example without it


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2], float)"])
def diffuse(u, out, alpha):
    """One step: out[i, j] = u[i, j] + alpha * (discrete Laplacian of u at
    i, j) inside the plate; the edges are held at their temperatures."""
    n, m = u.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            lap = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]
            out[i, j] = u[i, j] + alpha * lap


def run(n=40, m=60, steps=50):
    u = np.zeros((n, m))
    u[0, :] = 100.0
    u[:, 0] = np.linspace(0.0, 50.0, n)
    out = u.copy()
    for _ in range(steps):
        diffuse(u, out, 0.2)
        u, out = out, u
    return float(u.sum()), u.tobytes()


TEST_ARGS, BENCH_ARGS = (12, 16, 20), (200, 200, 100)

if __name__ == "__main__":
    print(run()[0])
