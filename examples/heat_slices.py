"""Heat diffusion written as numpy users write it: whole-array slices of
the grid, two buffers made inside the function (a copy of the start and
np.zeros_like), swapped after each step. examples/heat.py is the same
stencil as loops over items.

dynac runs numpy's slicing and array creation as numpy does, and computes
each step's expression in one loop into a new array (no temporary array per
operation), bit-identical to numpy's; the slice store is numpy's.

    /usr/bin/python3 -m dynac build examples/heat_slices.py && /usr/bin/python3 examples/heat_slices.py
"""
import numpy as np
import numpy.typing as npt

import dynac

REQUIRES = ("numpy",)  # the test suite and make bench skip this example without it


@dynac.compile(signatures=["(ndarray[d, 2], int, float)"])
def diffuse(u0: npt.NDArray[np.float64], steps: int, alpha: float):
    """`steps` explicit steps of the 5-point stencil; the edges keep their
    temperatures. Returns the last grid (a new array)."""
    u = u0.copy()
    v = np.zeros_like(u)
    v[0, :] = u[0, :]
    v[-1, :] = u[-1, :]
    v[:, 0] = u[:, 0]
    v[:, -1] = u[:, -1]
    for _ in range(steps):
        v[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                                                 - 4.0 * u[1:-1, 1:-1])
        u, v = v, u
    return u


def run(n=40, m=60, steps=50):
    u = np.zeros((n, m))
    u[0, :] = 100.0
    u[:, 0] = np.linspace(0.0, 50.0, n)
    r = diffuse(u, steps, 0.2)
    return float(r.sum()), r.tobytes()


TEST_ARGS, BENCH_ARGS = (12, 16, 20), (400, 400, 100)

if __name__ == "__main__":
    print(run()[0])
