"""Spectral norm of the infinite matrix A(i, j) = 1 / ((i+j)(i+j+1)/2 + i + 1),
by power iteration on A^T A over array('d') vectors of length n.

    python3 -m dynac build examples/spectral_norm.py && python3 examples/spectral_norm.py
"""
import math
from array import array

import dynac


def eval_A(i: int, j: int) -> float:
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


@dynac.compile(signatures=["(array[d], array[d])"])
def A_times_u(u, out):
    n = len(u)
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_A(i, j) * u[j]
        out[i] = s


@dynac.compile(signatures=["(array[d], array[d])"])
def At_times_u(u, out):
    n = len(u)
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_A(j, i) * u[j]
        out[i] = s


@dynac.compile(signatures=["(array[d], array[d], array[d])"])
def AtA_times_u(u, out, tmp):
    A_times_u(u, tmp)
    At_times_u(tmp, out)


@dynac.compile(signatures=["(array[d], array[d])"])
def dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


def run(n=100):
    u = array("d", [1.0]) * n
    v = array("d", [0.0]) * n
    tmp = array("d", [0.0]) * n
    for _ in range(10):
        AtA_times_u(u, v, tmp)
        AtA_times_u(v, u, tmp)
    return (math.sqrt(dot(u, v) / dot(v, v)),)


TEST_ARGS, BENCH_ARGS = (60,), (400,)

if __name__ == "__main__":
    print("%.9f" % run()[0])
