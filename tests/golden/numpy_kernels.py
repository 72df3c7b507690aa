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


@dynac.compile(signatures=["(ndarray[d], float)"])
def gaps(x, L):
    """Broadcasting: an (n, 1) and a (1, n) view of x give an (n, n) loop
    (dynac_broadcast2); np.where's result is typed, so the next line is one
    loop too; dead arrays are swept before a line that makes one."""
    d = x[:, np.newaxis] - x[None, :]
    d = np.where(d > L / 2, d - L, d)
    return np.sqrt(d * d + 1.0)


@dynac.compile(signatures=["(ndarray[d, 2], int)"])
def row_gap(X, r):
    """Speculation: the k loop's numpy inf/nan tests become one flag
    (dynac__nonfinite_N), tested after it; where set, its locals go back
    and the checked copy runs it again."""
    s = 0.0
    for k in range(X.shape[1]):
        t = X[0, k] - X[r, k]
        s += float(t * t)
    return s
