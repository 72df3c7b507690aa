"""Dense matrix multiply over lists of lists of floats: out = a @ b.

    python3 -m dynac build examples/matmul.py && python3 examples/matmul.py
"""
import random

import dynac


@dynac.compile
def matmul(a: list[list[float]], b: list[list[float]], out: list[list[float]]):
    n = len(a)
    m = len(b[0])
    p = len(b)
    for i in range(n):
        ai = a[i]
        oi = out[i]
        for j in range(m):
            s = 0.0
            for k in range(p):
                s += ai[k] * b[k][j]
            oi[j] = s


def run(n=40):
    rng = random.Random(3)
    a = [[rng.uniform(-1, 1) for _ in range(n)] for _ in range(n)]
    b = [[rng.uniform(-1, 1) for _ in range(n)] for _ in range(n)]
    out = [[0.0] * n for _ in range(n)]
    matmul(a, b, out)
    return tuple(x for row in out for x in row)


TEST_ARGS, BENCH_ARGS = (30,), (150,)

if __name__ == "__main__":
    print(sum(run()))
