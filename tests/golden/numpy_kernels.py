"""Golden: ndarray parameters, 1-D and 2-D indexing, numpy scalars."""
import numpy as np
import dynac


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d])"])
def rowsum(a, out):
    n = a.shape[0]
    for i in range(n):
        out[i] = 0.0
        for j in range(a.shape[1]):
            out[i] += a[i, j] * 0.5
