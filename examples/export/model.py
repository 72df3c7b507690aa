"""A small classifier, exported to plain C by `dynac export` (see README.md
beside this file): a two-layer perceptron with leaky-ReLU hidden units and
a softmax output. Plain Python: no dynac import; the annotations give the
types (`from __future__ import annotations` keeps Python from evaluating
them).

Shapes: x has n_in items; w1 is n_hid x n_in and w2 n_out x n_hid, both
row-major; b1 and hidden have n_hid items; b2 and out have n_out.
"""
from __future__ import annotations

import math

LEAK = 0.01  # slope of the hidden units for negative inputs


def leaky_relu(s: float) -> float:
    return s if s > 0.0 else LEAK * s


def dense(x: array[d], w: array[d], b: array[d], y: array[d]) -> None:
    """y = w x + b; w has len(y) rows of len(x) items, row-major."""
    n = len(x)
    for j in range(len(y)):
        s = b[j]
        for i in range(n):
            s += w[j * n + i] * x[i]
        y[j] = s


def forward(x: array[d], w1: array[d], b1: array[d], w2: array[d], b2: array[d],
            hidden: array[d], out: array[d]) -> int:
    """Class probabilities for input x into out (a softmax); returns the
    most likely class. hidden is scratch space of n_hid items."""
    dense(x, w1, b1, hidden)
    for j in range(len(hidden)):
        hidden[j] = leaky_relu(hidden[j])
    dense(hidden, w2, b2, out)
    top = 0
    for k in range(len(out)):
        if out[k] > out[top]:
            top = k
    peak = out[top]
    total = 0.0
    for k in range(len(out)):
        out[k] = math.exp(out[k] - peak)
        total += out[k]
    for k in range(len(out)):
        out[k] /= total
    return top


def crest(a: array[d]) -> float:
    """The crest factor of a: its largest magnitude over its root mean
    square (generators folded as they run: no list; ValueError when a is
    empty, as max() raises it)."""
    peak = max(abs(v) for v in a)
    return peak / math.sqrt(float(sum(v * v for v in a)) / len(a))


def mean_std(a: array[d]) -> tuple[float, float]:
    """Mean and population standard deviation of a (ZeroDivisionError when
    a is empty)."""
    n = len(a)
    s = 0.0
    for v in a:
        s += v
    mean = s / n
    q = 0.0
    for v in a:
        q += (v - mean) * (v - mean)
    return mean, math.sqrt(q / n)
