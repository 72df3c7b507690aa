"""The Python functions that fastnorm.c serves with its own C kernels.

    make && python3 demo.py
"""
import math


def norm(x, y):
    """Euclidean length of (x, y)."""
    return math.sqrt(x * x + y * y)


def total_norm(points):
    """Sum of the lengths of (x, y) pairs: norm() dispatches inside."""
    return sum(norm(x, y) for x, y in points)
