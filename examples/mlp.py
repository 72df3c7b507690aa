"""A dense two-layer perceptron's forward pass over array('d'): hidden =
relu(W1 x + b1), out = tanh(W2 hidden + b2). W1 is n_hid x n_in and W2
n_out x n_hid, row-major.

    python3 -m dynac build examples/mlp.py && python3 examples/mlp.py
"""
import math
import random
from array import array

import dynac


@dynac.compile(signatures=["(array[d], array[d], array[d], array[d], array[d], array[d], array[d])"])
def forward(x, w1, b1, w2, b2, hidden, out):
    n_in = len(x)
    n_hid = len(b1)
    n_out = len(b2)
    for j in range(n_hid):
        s = b1[j]
        for i in range(n_in):
            s += w1[j * n_in + i] * x[i]
        hidden[j] = s if s > 0.0 else 0.0
    for k in range(n_out):
        s = b2[k]
        for j in range(n_hid):
            s += w2[k * n_hid + j] * hidden[j]
        out[k] = math.tanh(s)


def model(n_in, n_hid, n_out, seed=7):
    rng = random.Random(seed)
    def vec(n, scale):
        return array("d", [rng.uniform(-scale, scale) for _ in range(n)])
    return (vec(n_hid * n_in, 1 / math.sqrt(n_in)), vec(n_hid, 0.1),
            vec(n_out * n_hid, 1 / math.sqrt(n_hid)), vec(n_out, 0.1))


def run(n_in=64, n_hid=128, n_out=10, batches=20):
    w1, b1, w2, b2 = model(n_in, n_hid, n_out)
    rng = random.Random(11)
    hidden, out = array("d", [0.0]) * n_hid, array("d", [0.0]) * n_out
    total = []
    for _ in range(batches):
        x = array("d", [rng.uniform(-1, 1) for _ in range(n_in)])
        forward(x, w1, b1, w2, b2, hidden, out)
        total.extend(out)
    return tuple(total)


TEST_ARGS, BENCH_ARGS = (16, 32, 4, 5), (256, 512, 10, 40)

if __name__ == "__main__":
    print(run()[:4])
