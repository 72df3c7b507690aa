"""numpy arrays and scalars in kernels: each function runs eagerly and
compiled on the same fresh inputs (suite_numpy.py), which compares results
(numpy scalar types and bits), exceptions, warnings, and the arrays
afterwards. numpy's rules hold: items are numpy scalars, numpy promotes
(int8 + int -> int64, float32 * int -> float64), wraps, and answers 1/0
with inf and a RuntimeWarning; kernels deoptimise wherever that differs
from plain C, so the interpreter gives numpy's own answer."""
import math
from numpy import sqrt

import numpy as np

import dynac



@dynac.compile(signatures=["(ndarray[d], int)", "(ndarray[l], int)", "(ndarray[f], int)",
                           "(ndarray[b], int)", "(ndarray[B], int)", "(ndarray[?], int)",
                           "(ndarray[d, strided], int)"])
def read1(a, i):
    return a[i]


@dynac.compile(signatures=["(ndarray[d, 2], int, int)", "(ndarray[h, 2], int, int)",
                           "(ndarray[d, 2, strided], int, int)"])
def read2(a, i, j):
    return a[i, j]


@dynac.compile(signatures=["(ndarray[d], int, float)", "(ndarray[f], int, float)",
                           "(ndarray[l], int, float)", "(ndarray[b], int, float)",
                           "(ndarray[?], int, float)"])
def store1(a, i, v):
    a[i] = v
    return a[i]


@dynac.compile(signatures=["(ndarray[d], int, int)", "(ndarray[i], int, int)", "(ndarray[b], int, int)",
                           "(ndarray[B], int, int)", "(ndarray[?], int, int)", "(ndarray[f], int, int)"])
def store1i(a, i, v):
    a[i] = v
    return a[i]


@dynac.compile(signatures=["(ndarray[d, 2], int, int, float)", "(ndarray[d, 2, strided], int, int, float)"])
def store2(a, i, j, v):
    a[i, j] = v
    a[i, j] += 1.0


@dynac.compile(signatures=["(ndarray[d], ndarray[d])", "(ndarray[l], ndarray[l])",
                           "(ndarray[f], ndarray[f])", "(ndarray[b], ndarray[B])",
                           "(ndarray[l], ndarray[d])", "(ndarray[i], ndarray[h])"])
def arith(a, b):
    x = a[0]
    y = b[0]
    return x + y, x - y, x * y, x / y


@dynac.compile(signatures=["(ndarray[d], ndarray[d])", "(ndarray[l], ndarray[l])", "(ndarray[b], ndarray[b])"])
def divmods(a, b):
    x = a[0]
    y = b[0]
    return x // y, x % y, x ** y


@dynac.compile(signatures=["(ndarray[b], int, float)", "(ndarray[f], int, float)",
                           "(ndarray[l], int, float)", "(ndarray[B], int, float)"])
def with_python(a, k, f):
    x = a[0]
    return x + k, x * f, k - x, x / k, x + True


@dynac.compile(signatures=["(ndarray[l], ndarray[b])", "(ndarray[B], ndarray[B])"])
def bits(a, b):
    x = a[0]
    y = b[0]
    return x & y, x | y, x ^ y, x << 2, x >> 1, ~x


@dynac.compile(signatures=["(ndarray[d], float)", "(ndarray[l], float)", "(ndarray[l], int)",
                           "(ndarray[f], float)"])
def compare(a, v):
    x = a[0]
    lt = x < v
    eq = x == v
    n = 0
    if x >= v:
        n += 1
    if not eq:
        n += 2
    return lt, eq, n, bool(x), x != 0 and x < 1e300


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[l])", "(ndarray[b])", "(ndarray[f])", "(ndarray[B])"])
def unary(a):
    x = a[0]
    return -x if a[0] == a[0] else +x


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[l])", "(ndarray[b])", "(ndarray[f])"])
def builtins(a):
    x = a[0]
    y = a[len(a) - 1]
    return abs(x), int(x), float(x), bool(y), max(x, y), min(x, y)


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[l])", "(ndarray[f])"])
def maths(a):
    x = a[0]
    return math.sqrt(x), math.floor(x), math.ceil(x), math.isnan(x), math.atan2(x, 2.0)


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[d, 2])", "(ndarray[b, 2, strided])"])
def shape(a):
    return a.shape, a.ndim, a.size, len(a)


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[l])", "(ndarray[f])", "(ndarray[d, strided])"])
def total(a):
    s = a[0] * 0
    for x in a:
        s += x
    return s


@dynac.compile(signatures=["(ndarray[d], ndarray[d])", "(ndarray[l], ndarray[d, strided])"])
def loops(a, b):
    t = a[0] * 0.0
    for i, x in enumerate(a):
        t += i * x
    for p, q in zip(a, b):
        t -= p * q
    for y in reversed(b):
        t = t * 0.5 + y
    return t


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[f], ndarray[f], float)",
                           "(ndarray[d], ndarray[d, strided], float)"])
def axpy(x, y, alpha):
    for i in range(len(x)):
        y[i] += alpha * x[i]
    return len(y)


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2], float)",
                           "(ndarray[d, 2, strided], ndarray[d, 2], float)"])
def heat_step(u, out, alpha):
    n, m = u.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            lap = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]
            out[i, j] = u[i, j] + alpha * lap
    return out[n // 2, m // 2]


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2], int, int)",
                           "(ndarray[d, 2, strided], ndarray[d, 2], int, int)"])
def shifted_copy(u, out, di, dj):
    """Range-derived bounds checks in two dimensions: windows of u that fit,
    wrap (u[i - di] with i < di) or leave it part way (an IndexError after
    writes to out)."""
    n, m = out.shape
    for i in range(n):
        for j in range(m):
            out[i, j] = u[i + di, j + dj] - u[i - di, 2 * j]
    return n * m


@dynac.compile(signatures=["(ndarray[d], ndarray[l], int)"])
def gather(a, idx, k):
    return a[idx[k]] * 2


@dynac.compile(signatures=["(ndarray[d], int)"])
def write_then_fail(a, k):
    a[0] = 5.0
    return a[1] / a[k]


@dynac.compile(signatures=["(ndarray[d], ndarray[d], int, float)"])
def fill_then_fail(a, b, n, v):
    for i in range(n):
        a[i] += v * i
        b[len(b) - 1 - i] -= a[i]
    return a[0] / (v - 1.0)


@dynac.compile(signatures=["(ndarray[d], ndarray[d])", "(ndarray[f], ndarray[f])"])
def chains(a, out):
    """numpy float + - * chains test inf/nan once, at the top (an operand's
    inf or nan reaches it); a division hides an overflow under it (x / inf
    is 0), so its operand keeps its own test."""
    for i in range(1, len(a) - 1):
        s = a[i - 1] * a[i + 1] - 2.0 * a[i] + a[i - 1] * 4.0
        out[i] = s + 1.0 / (a[i] * a[i] * a[i]) - a[i]
    return out[len(out) // 2]


@dynac.compile(signatures=["(ndarray[d, 2], int, int)"])
def rows_then_exit(u, stop, skip):
    """Loops whose positions are proved in range run a copy without bounds
    checks (loop versioning): break, continue and an out-of-range position
    (the checked copy) behave as in CPython."""
    total = 0.0
    for i in range(len(u)):
        for j in range(1, stop):
            if j == skip:
                continue
            if u[i, j - 1] < 0.0:
                break
            total = total + float(u[i, j - 1] * u[i, j])
    return total


@dynac.compile(signatures=["(ndarray[d], ndarray[d])"])
def two_statements(a, out):
    """A local's inf/nan test waits for the next statement's when that one
    passes it on (s * 0.5 + ...); not when it does not use it, nor through
    a division (1.0 / s is 0 for an infinite s, and numpy warned at s)."""
    w = 0.5
    for i in range(len(a)):
        s = a[i] * a[i]
        t = s * 0.5 + a[i]
        out[i] = t - a[i]
        s = a[i] * a[i] * a[i] * a[i]
        out[i] = 1.0 / s + a[i]
        s = a[i] * 1e300
        out[i] = a[i] * w + 1.0
    return out[0]


@dynac.compile(signatures=["(ndarray[d], ndarray[d])", "(ndarray[f], ndarray[f])"])
def tiny_products(a, out):
    """numpy ignores underflow unless np.seterr / np.errstate says 'warn' or
    'raise'; then the kernel hands the call to the interpreter, which warns
    or raises at the product, after the stores before it."""
    for i in range(len(a)):
        out[i] = a[i] * a[i]
    return out[0] * a[0]


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2], float)",
                           "(ndarray[d, 2, strided], ndarray[d, 2, strided], float)"])
def smooth_into(u, out, w):
    """out is only stored to: a deoptimised call's run again rewrites it, so
    its stores need no undo entry (replay.c); unless out shares memory with
    u, which the call reads (the same array, or overlapping views)."""
    n, m = out.shape
    for i in range(1, len(u) - 1):
        for j in range(m):
            out[i, j] = w * u[i, j] + (1.0 - w) * (u[i - 1, j] + u[i + 1, j])
    return n


@dynac.compile(signatures=["(ndarray[d], ndarray[d])"])
def decay_into(x, out):
    """out's items are read before they are written (not only stored to):
    a deoptimisation after writes must take them back."""
    for i in range(len(x)):
        out[i] = 0.5 * out[i] + x[i] * x[i]
    return len(out)


def scale_into(out, x, s):
    for i in range(len(x)):
        out[i] = x[i] * s


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)"])
def keep_first(out, x, s):
    """scale_into only stores to out, but its caller read out first: a
    callee's stores are taken back at a deoptimisation, since the run again
    is its caller's."""
    first = out[0]
    scale_into(out, x, s)
    return first


# ---- arrays a kernel makes or slices (infer/arrays.c) ---------------------
@dynac.compile(signatures=["(int, float)"])
def made(n, x):
    """numpy's functions make them; the kernel writes them as any array."""
    a = np.zeros(n)
    b = np.ones((2, n), dtype=np.float32)
    c = np.empty(n, dtype=np.int64)
    d = np.full((n, 2), x)
    e = np.arange(n)
    f = np.arange(0.5, n, 0.5)
    g = np.linspace(0.0, x, n)
    h = np.array([x, 2.0 * x, -x])
    for i in range(n):
        a[i] = x * i
        c[i] = i * i
        b[1, i] = a[i] + 1
    return a, b, c, d, e, f, g, h, len(a), b.shape


@dynac.compile(signatures=["(ndarray[d], float)", "(ndarray[l], float)", "(ndarray[d, 2], float)",
                           "(ndarray[d, strided], float)", "(ndarray[f, 2, strided], float)"])
def likes(a, x):
    z = np.zeros_like(a)
    o = np.ones_like(a)
    e = np.empty_like(a, dtype=np.float64)
    f = np.full_like(a, x)
    c = a.copy()
    c2 = np.copy(a)
    c3 = np.array(a)
    return z, o, e.shape, e.dtype, f, c, c2, c3, c.flags.c_contiguous, z.strides == a.strides


@dynac.compile(signatures=["(ndarray[d], int, int)", "(ndarray[d, strided], int, int)",
                           "(ndarray[l], int, int)"])
def views1(a, i, j):
    """Views write through to the argument (taken back when the call
    deoptimises: numpy's overflow warning at v[k] * 2)."""
    v = a[i:j]
    w = a[::-1]
    z = a[i:j:2]
    for k in range(len(v)):
        v[k] = v[k] * 2
    return v, w, a[1:] - a[:-1], z, len(v), v.shape, a


@dynac.compile(signatures=["(ndarray[d, 2], int, int)", "(ndarray[d, 2, strided], int, int)"])
def views2(a, i, j):
    r = a[i]
    col = a[:, j]
    inner = a[1:-1, 1:-1]
    s = a[i, ::2]
    for k in range(len(col)):
        col[k] = k
    total = r[0] * 0
    for x in r:
        total += x
    return r.copy(), col, inner.shape, s, total, a


@dynac.compile(signatures=["(ndarray[d], ndarray[d, 2])", "(ndarray[l], ndarray[d, 2])"])
def slice_stores(a, b):
    """numpy's setitem: a[1:] = a[:-1] copies first where the two overlap."""
    a[1:] = a[:-1]
    b[:, 0] = 1.5
    b[1:-1, 1:] = b[:-2, 1:] + b[2:, :-1]
    b[0] = -1
    a[::2] += 1
    return a, b


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[d, strided])", "(ndarray[f])"])
def rosen(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[l], ndarray[d], float)"])
def whole(a, b, s):
    """Whole-array operations are numpy's (its warnings too)."""
    c = a + b * s
    d = -a
    e = a < b
    f = np.sqrt(np.abs(a)) / b
    m = a.max() if len(a) else s
    a += 1
    b /= s
    return c, d, e, f, m, a, b, a.T, a.sum()


@dynac.compile(signatures=["(ndarray[d, 2], int, float)"])
def heat(u0, steps, k):
    """Two buffers made in the kernel, swapped each step."""
    u = u0.copy()
    v = np.zeros_like(u)
    for _ in range(steps):
        v[1:-1, 1:-1] = u[1:-1, 1:-1] + k * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                                             - 4 * u[1:-1, 1:-1])
        u, v = v, u
    return u


@dynac.compile(signatures=["(ndarray[d, 2])", "(ndarray[f, 2, strided])"])
def pairwise(X):
    n = X.shape[0]
    D = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(X.shape[1]):
                t = float(X[i, k] - X[j, k])
                s += t * t
            D[i, j] = math.sqrt(s)
    return D


@dynac.compile(signatures=["(int, int)"])
def churn(n, m):
    """A new array each iteration, the last two kept: the ones no local
    holds are released as the loop goes (a sweep of the kernel's pins)."""
    prev = np.zeros(m)
    for i in range(n):
        cur = np.full(m, 1.0 * i)
        for k in range(m):
            cur[k] += prev[k]
        prev = cur
    return prev


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[d, strided])"])
def sums(x):
    """np.sum of a whole-array expression: no array made, numpy's pairwise
    summation in numpy's chunks (its buffer size), bit for bit."""
    return np.sum(x * x), np.sum((x - 1.0) / 3.0), np.sum(np.sqrt(np.abs(x)) + x[::-1])


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[d, 2])"])
def powers(x):
    """numpy's shortcuts of ** for a literal exponent (2, 0.5, -1, 1), np.floor."""
    return x ** 0.5 + np.floor(x * 3.0), x ** -1 - x ** 1, (x - 1.0) ** 2.0, np.abs(-x) ** 2


@dynac.compile(signatures=["(ndarray[f], ndarray[f])", "(ndarray[l], ndarray[l])", "(ndarray[f, 2], ndarray[f, 2])"])
def chain(x, y):
    """Not fused (float32, int64): numpy's operations; a result only the
    kernel holds takes the next operation in place, as numpy's temporary
    elision does in the interpreter (arrays of 256 KiB and more)."""
    return (x * y + 1) * 2 - y // (x + 1), 3 * (x - y) ** 2


@dynac.compile(signatures=["(int, int)"])
def fill_made(n, k):
    """An array made once, then filled in a loop: its positions are proved in
    range before the loop (as a view argument's are), else checked per
    store (numpy's IndexError at the first one out of range)."""
    D = np.zeros((n, 2))
    for i in range(k):
        D[i, 1] = i * 0.5
        D[i, 0] = D[i, 1] + 1.0
    return D


@dynac.compile(signatures=["(ndarray[d])"])
def means(x):
    """np.mean of a whole-array expression: numpy's sum over the count."""
    return np.mean(x * 2.0 - 1.0), np.mean(np.abs(x[::-1]))


@dynac.compile(signatures=["(ndarray[d, 2])", "(ndarray[d, 2, strided])"])
def misc(a):
    """numpy's own operations inside the kernel: methods with keywords,
    masks, a mask store, np.dot, @ (matmul; numpy 1.x raises TypeError for @=)."""
    s0 = a.sum(axis=0)
    r = a.reshape(-1)
    t = a.T
    m = a[a > 2.0]
    a[a < 1.0] = 0.5
    p = a @ t
    p = p @ np.eye(len(p))
    return s0, r, t.shape, m, a.mean(), np.dot(r, r), p


@dynac.compile(signatures=["(ndarray[d], ndarray[d])", "(ndarray[d, strided], ndarray[d])"])
def dot_loop(a, b):
    """`s = 0.0` then `s += a[i] * b[i]`: a float until the first item, a
    numpy.float64 after (int | float | numpy.float64 at run time)."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@dynac.compile(signatures=["(ndarray[d], int)"])
def count_then_sum(a, k):
    """An int that becomes a numpy.float64: Python's int arithmetic until
    then (k * k may leave int64), numpy's after."""
    t = k * k
    for x in a:
        t += x
    t = t / 2
    return t, -t, abs(t), float(t), int(t) if math.isfinite(t) else 0, round(t) if math.isfinite(t) else 0


@dynac.compile(signatures=["(ndarray[d, 2])", "(ndarray[d, 2, strided])"])
def row_extremes(a):
    """np.inf read as a float; a running max that is a float or an item;
    max() of a float and an item keeps the winner's own type."""
    out = np.empty(a.shape[0])
    lo = np.inf
    for i in range(a.shape[0]):
        m = -np.inf
        for j in range(a.shape[1]):
            if a[i, j] > m:
                m = a[i, j]
            lo = min(lo, a[i, j])
        out[i] = m
    return out, lo, np.pi * 2.0, np.e


@dynac.compile(signatures=["(ndarray[d], float)"])
def scaled_total(a, d):
    """A numpy.float64 or float divided by a float: numpy's inf and warning
    for a zero divisor once it is a numpy.float64, Python's
    ZeroDivisionError while it is a float; compared in conditions only."""
    s = 0.0
    for i in range(len(a)):
        if a[i] > s:
            s = s + a[i] * 0.5
        elif s != 0.0 and a[i] < -s:
            s -= 1.0
    s = s / d
    s **= 2
    s = s // 0.5 + s % 0.25
    return s


@dynac.compile(signatures=["(ndarray[d], int)", "(ndarray[d, strided], int)"])
def scalar_ufuncs(a, k):
    """numpy ufuncs of numbers: numpy's own float64 loop on one item (the
    same bits, also where numpy's SIMD exp/log differ from libm)."""
    out = []
    for x in a:
        out.append(np.sqrt(x))
        out.append(np.exp(x))
        out.append(np.log(x))
        out.append(np.sin(x) + np.tanh(x))
        out.append(np.arctan2(x, 2.0))
        out.append(np.hypot(x, k))
        out.append(np.maximum(x, 0.5) * np.minimum(k, x))
        out.append(np.abs(x) - np.floor(x))
        out.append(np.power(x, 2.0) + np.sign(x))
        out.append(sqrt(x * 2.0))
        out.append(np.log1p(k * 1.0) + np.cos(1.0))
    return out


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[l])", "(ndarray[d, 2])", "(ndarray[d, strided])"])
def reductions(a):
    """a.min(), np.max(a), ...: numpy's own, the numpy scalar it gives used
    as a C value (histogram-style loops over it)."""
    lo = a.min()
    hi = np.max(a)
    width = (hi - lo) / 4
    n = 0
    for v in a.flat:
        if width > 0 and (v - lo) / width < 2:
            n += 1
    return lo, hi, a.sum(), a.prod(), a.mean(), np.amin(a), n


@dynac.compile(signatures=["(ndarray[d], list[float])"])
def with_objects(a, xs):
    """A numpy scalar meets objects: numpy's own operation (boxed)."""
    o = xs[0] if xs else None
    t = a[0] + float(len(xs))
    return t * np.float64(2.0), (a[0], o), str(a[0])


@dynac.compile(signatures=["(ndarray[l], int)", "(ndarray[l, strided], int)"])
def int_total(a, k):
    """`t = 0` then `t += v` of an int64 array: an int, then a numpy.int64
    (numpy wraps where Python's int grows: it warns, so the interpreter runs)."""
    t = 0
    for v in a:
        t += v
        if t > k:
            t = t // 2 - k
    return t, t * 3, t % 7 if k else t, -t, abs(t), t / 4, t + 0.5, float(t)


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2])", "(ndarray[d, 2], ndarray[l, 2])"])
def pair_dists(A, B):
    """An object stored into an item (np.sqrt of numpy's np.sum): a float or
    numpy.float64 as a C value, anything else numpy's own setitem."""
    n = A.shape[0]
    m = B.shape[0]
    D = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            D[i, j] = np.sqrt(np.sum((A[i] - B[j]) ** 2))
    S = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            S[i, j] = np.sum(B[j])  # a numpy.int64 for int64 rows: numpy's setitem
    return D, S


@dynac.compile(signatures=["(ndarray[d, 2], int)", "(ndarray[d, 2, strided], int)"])
def stencil_in_place(u, n):
    """A target that overlaps its operands: the value is computed first (into
    scratch, as numpy makes a new array), then stored; 1-D too."""
    for _ in range(n):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                                               - 4 * u[1:-1, 1:-1])
    r = u[0]
    r[1:] = r[1:] + r[:-1]
    r[::-1][1:] = r[:-1] * 0.5
    return u


@dynac.compile(signatures=["(ndarray[d, 2])"])
def scaled_rows(A):
    """A numpy scalar from numpy's call (np.sum, a.max()), then arithmetic
    numpy warns about, after stores: the interpreter goes on from the
    middle of the statement with the values so far."""
    n = A.shape[0]
    D = np.empty((n, 2))
    for i in range(n):
        D[i, 0] = np.sum(A[i] * 2.0) * 1e300
        D[i, 1] = A[i].max() * 1e300 + np.sqrt(A[i, 0])
    return D


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[d, strided], ndarray[d], float)"])
def staged(x, y, mu):
    """ufuncs numpy computes with its own loops (SIMD exp/log/sin differ from
    libm) inside a fused loop: a block at a time through numpy's float64 loop,
    so the bits are numpy's; np.sum of such an expression; a target that
    overlaps its operands."""
    a = np.exp(-(x - mu) ** 2 / 2.0) / np.sqrt(2.0 * np.pi)
    b = np.sin((y - x) / 2) ** 2 + np.cos(x) * np.cos(y) * np.sin(y / 2) ** 2
    c = np.arctan2(np.sqrt(np.abs(b)), np.sqrt(1.0 - b)) + np.hypot(x, y) * np.maximum(x, mu) - np.minimum(y, 0.0)
    d = np.log(np.abs(x) + 1.0) + np.tanh(y * mu) - np.log1p(np.abs(y))
    s = np.sum(np.log(a + 1.0) * np.cos(y))
    x[1:] = np.exp(x[:-1] * 0.5) + x[1:]
    return a, b, c, d, s, x


@dynac.compile(signatures=["(ndarray[d, 2])", "(ndarray[d, 2, strided])"])
def staged2(u):
    """2-D: rows through the blocks."""
    return np.exp(-u * u) + np.fmax(u, 0.25) * np.arctan(u)


@dynac.compile(signatures=["(ndarray[d, 2], int, int)", "(ndarray[d, 2, strided], int, int)"])
def row_sums(A, i, j):
    """Rows read in place as a fused sum's leaves: numpy's IndexError for a
    row out of range, negative rows, numpy's own operations where they
    differ in shape."""
    return np.sum((A[i] - A[j]) ** 2), np.mean(np.exp(A[i]) * A[j])


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[d, strided], ndarray[d], float)"])
def where_fused(x, y, t):
    """np.where(a OP b, u, v) in a loop: both values computed for every item
    (as numpy computes both arrays), a quiet comparison (nan compares false
    and sets no flag, as numpy's)."""
    a = np.where(x > t, x - t, y * 2.0)
    b = np.where(x <= y, np.exp(x), 0.0) + np.where(y != 0.0, x / 2.0, -x)
    s = np.sum(np.where(x >= 0.0, x, -x))
    return a, b, s


@dynac.compile(signatures=["(ndarray[d], ndarray[d])", "(ndarray[d, strided], ndarray[d])"])
def method_sums(x, y):
    """(expr).sum() and (expr).mean(): ndarray's own reductions of the value
    the loop makes block by block (no array), numpy's pairwise sum."""
    return (np.log(np.abs(x) + 1.0) * y).sum(), (x * 2.0 - y).mean(), (x + y).sum() + 1.0


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[d, strided], ndarray[d], float)",
                           "(ndarray[l], ndarray[d], float)"])
def inplace_fused(x, v, dt):
    """a op= <expr>: one loop into scratch, then into the array (numpy
    computes <expr> whole first: an overlapping operand reads old items);
    where numpy would warn, the interpreter runs the statement, the array
    written once. The array stays typed after (x[0], a fused sum)."""
    x += v * dt
    x /= 2.5 * dt
    for k in range(2):
        v -= x * 0.5 + k
    x[1:] += x[:-1] * 2.0
    x[::-1] *= v - 1.0
    return x[0], np.sum(x * x), x, v


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)"])
def inplace_in_region(x, v, dt):
    """In-place whole-array expressions in a compiled region of a function
    with a graph break (`match`): their loop functions are written before
    the region's kernel, as before a whole function's (a region had none:
    the generator crashed, fuzz seed 20261501), named by the region (the
    second region's took the first's name: fuzz seed 20261503)."""
    x -= dt
    x += dt * v
    match len(x):
        case 1:
            dt = 0.5
    x *= 2.0
    v *= x - dt
    return x[0], x, v


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2], int)", "(ndarray[d, 2, strided], ndarray[d, 2], int)"])
def inplace_places(u, w, i):
    """Slices and rows of 2-D arrays as targets (get, in-place ufunc, set
    back: numpy's own where the loop does not apply: broadcasting, a
    read-only array)."""
    u[1:-1, 1:-1] += 0.25 * (w[2:, 1:-1] + w[:-2, 1:-1])
    u[i] -= w[0] / 3.0
    u[:, 1:] *= u[:, :-1]
    return u, w


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d], float)"])
def inplace_numpy(w, x, s):
    """After an effect in the statement (np.pi's read) or where shapes
    differ (broadcasting), numpy's own in-place ufunc in the kernel."""
    x /= np.sqrt(2 * np.pi) * s
    w += w[0]
    w -= x
    return w, x


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[d, strided], ndarray[d], float)"])
def chained(x, y, s):
    """A local bound to a whole-array expression holds the new array typed:
    a leaf of the next statement's loop, indexed in C, rebound in a loop."""
    t = x * s - y
    u = np.exp(-t * t)
    u /= np.sqrt(2 * np.pi) * s
    w = np.log(u + 1.0) * t
    for k in range(3):
        t = t * 0.5 + w
    first = t[0] if len(t) else -1.0
    z = w * 2.0
    if s < 0:
        z = None
    return first, np.sum(t * u), u, w, t, z


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2], int)"])
def chained2(A, B, n):
    """2-D: each step's value is the next one's leaf."""
    C = A * 0.5
    for _ in range(n):
        C = C * A + B
        C[0, 0] = -C[0, 0]
    return C, C[1:, 1:] * 2.0


@dynac.compile(signatures=["(ndarray[d], ndarray[d])", "(ndarray[d, strided], ndarray[d])"])
def builtin_sums(x, y):
    """sum() (the builtin) of float64 items: added in order from 0, each a
    numpy.float64 addition; of a whole-array expression too (lstsqr's
    sum((x - x_avg) ** 2)); 0 (an int) of no items."""
    x_avg = sum(x) / len(x) if len(x) else 0.5
    var_x = sum((x - x_avg) ** 2)
    cov = sum((x - x_avg) * (y - 1.0))
    return sum(x), x_avg, var_x, cov, sum(y * 0.0)


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d])", "(ndarray[d, 2, strided], ndarray[d])"])
def broadcast_rows(A, x):
    """A 1-D array with a 2-D one: numpy broadcasts it as a row for every
    row; the loop reads the same row each time (a new array, in place, a
    slice store)."""
    B = A - x
    C = np.exp(-(A * x) ** 2) + B / 3.0
    A[1:, :] += x * 0.5
    B[:-1] = B[1:] * x
    return B, C, A


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d], int)"])
def axis_results(A, x, k):
    """numpy's reductions along an axis and cumsum give arrays the kernel
    holds typed (numpy's call, its result checked): leaves of the next
    loop, items read in C."""
    c = np.cumsum(x)
    m = (c[1:] - c[:-1]) / 2.0
    r = np.sum(A, axis=k)
    s = np.sum(A * A, axis=1) + np.mean(A, axis=1)
    hi = np.max(A, 0) - np.min(A, axis=0)
    rows = np.cumsum(A, axis=1)
    return m, r, s, hi, rows, r[0] if len(r) else 0.0


@dynac.compile(signatures=["(ndarray[d])", "(ndarray[l])", "(ndarray[d, strided])"])
def arg_extremes(a):
    """a.argmax(), np.argmin(a): numpy's, its numpy.int64 used as a C
    integer (an index; numpy's ValueError for no items, nan first)."""
    i = a.argmax()
    j = np.argmin(a)
    return i, j, a[i] - a[j], i * 2 + j


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d])", "(ndarray[d, 2, strided], ndarray[d])"])
def products(A, x):
    """A @ x, np.dot(A, x), A @ A.T...: numpy's products (BLAS), their new
    arrays held typed: items read in C, leaves of the next loop."""
    y = A @ x
    z = np.dot(A, x) * 2.0 - y
    total = 0.0
    for i in range(len(y)):
        total += y[i] * z[i]
    return y, z, total


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[d, strided], ndarray[d], float)"])
def dot_1d(x, y, s):
    """np.dot(x, y), x.dot(y) of two 1-D float64 arrays: numpy's dot (BLAS:
    its own order of additions), a numpy.float64 used in C."""
    d = np.dot(x, y)
    e = x.dot(x)
    return d * s + e, d - s, e > d


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d], int)", "(ndarray[d, 2, strided], ndarray[d], int)"])
def axis_methods(A, x, k):
    """A.sum(axis=k), A.mean(k), A.max(axis=1), x.cumsum(), A.cumsum(axis=k):
    numpy's methods, their new arrays typed (leaves of the next loop, items
    read in C)."""
    m = A.sum(axis=k) * 2.0 - A.mean(k)
    top = A.max(axis=1)
    c = x.cumsum() * 0.5
    r = A.cumsum(axis=k)
    return m, top, c, r, (m[0] if len(m) else -1.0) + (c[-1] if len(c) else 0.0)


def _scale(v):
    return v * 0.5


@dynac.compile(signatures=["(object, float, object, ndarray[d])"])
def sum_unused(n0, x0, p0, a0):
    """sum() whose value is never used (fuzz seed 102): numpy still warns
    when its additions give nan or overflow, so the kernel must add them
    before it reads the flags (DYNAC_FP_DONE: a dead sum was dropped)."""
    x0 -= float(n0) / float(len(p0))  # Python code ran: the statement below goes on in the interpreter
    if not (not (True and n0) and n0):
        x2 = float(sum(a0))
        x0 = x0 + float((n0 + -2))
    else:
        x0 = x0 + -1e308
    return n0, x0


@dynac.compile(signatures=["(ndarray[d], float)"])
def sum_of_called(x, v):
    """sum() of an expression with a leaf the loop cannot take (a call):
    numpy's operations, then the builtin, in the kernel."""
    return sum(x * _scale(v)), sum(x)


@dynac.compile(signatures=["(int, bool)"])
def array_or_none(n, flag):
    """A local holding a made array or None (or another object) is an
    object local: the array boxed, its items through numpy."""
    z = np.zeros(n)
    w = z * 2.0 + 1.0
    if flag:
        z = None
        w = "none"
    return z, w


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[d, strided], ndarray[d], float)"])
def periodic_gaps(x, y, L):
    """Broadcasting against new axes: x[:, np.newaxis] - x[np.newaxis, :]
    is an (n, n) loop over two views of x (numpy's strides 0 where it
    broadcasts), np.where of it typed, the result's shape numpy's."""
    dx = x[:, np.newaxis] - x[np.newaxis, :]
    dx = np.where(dx > L / 2, dx - L, dx)
    dy = y[:, None] - y[None, :]
    dy = np.where(dy > L / 2, dy - L, dy)
    return np.sqrt(dx ** 2 + dy ** 2)


@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d], ndarray[d])", "(ndarray[d, 2, strided], ndarray[d], ndarray[d])"])
def broadcast_rows_cols(A, r, c):
    """A row (1, m) and a column (n, 1) against an (n, m) array: made by
    new axes, by keepdims=True, by an axis method of an expression; in
    place too (A's shape must be the broadcast's: else numpy's error)."""
    norms = np.sqrt((A ** 2).sum(axis=0))
    B = A / norms[np.newaxis, :]
    C = A - A.mean(axis=1, keepdims=True) + c[:, np.newaxis] * r[np.newaxis, :]
    D = A.copy()
    D += r[None, :]
    D -= c[:, None]
    return B, C, D


@dynac.compile(signatures=["(ndarray[d, 2], int)"])
def softmax_axis(X, k):
    """Softmax with keepdims=True reductions (numpy's (n, 1) or (1, m)
    arrays) broadcast back against X."""
    top = np.max(X, axis=k, keepdims=True)
    e = np.exp(X - top)
    return e / np.sum(e, axis=k, keepdims=True)


@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)", "(ndarray[d, strided], ndarray[d], int)"])
def floor_mod_pow(x, y, k):
    """//, % and ** of arrays in one loop: numpy's floor_divide, remainder
    and power float64 loops a block at a time (numpy's bits), the rest in C;
    array ** k for k numpy takes a shortcut for (2, 0.5, -1, 1, 0): numpy's
    operator."""
    a = x // y + x % 3.0
    b = (x * 0.5) ** k
    c = np.abs(x) ** 1.5 + 2.0 ** y - (x % y) // 0.5
    return a, b, b - y ** 3, c


@dynac.compile(signatures=["(ndarray[d], float)"])
def min_after_invalid(a, x):
    """-inf * 0.0 sets the FPU's invalid flag before numpy's minimum loop
    runs on the block, and that loop clears the flags on its way out
    (fuzz seed 111): the fused loop keeps them, so numpy's warning comes."""
    b = np.minimum(-(a * 0.0 + 0.5), x)
    return float(b[0]) if len(b) else -0.5, b


ROWS_SEEN = []


def row_seen(i):
    """Not compiled: a call of Python code the kernel cannot take back, so a
    deoptimisation after it continues the call in the interpreter (with the
    kernel's locals) instead of running it again."""
    ROWS_SEEN.append(i)


@dynac.compile(signatures=["(ndarray[d, 2], int, float)"])
def row_dots(X, r, start):
    """numpy float64 locals the k loop changes only by += -= *= (g, h): the
    speculative copy tests them once, after the loop (inf or nan stays so
    under + - *), and the products' tests wait for the sums'. g may start
    as inf or nan (start), pass through inf and come back under the
    `if` (h), or overflow; the checked copy then gives numpy's warnings."""
    dots = []
    halves = []
    for i in range(X.shape[0]):
        g = X[i, 0] * start
        h = X[i, 0] - X[i, 0]
        for k in range(X.shape[1]):
            g += X[i, k] * X[r, k]
            if g > 1e300:
                h -= X[r, k]
            h *= 0.5
        dots.append(float(g))
        halves.append(float(h))
    return dots, halves


@dynac.compile(signatures=["(ndarray[d, 2], int)"])
def row_norms(X, r):
    """pairwise's k loop: t = float(X[i, k] - X[r, k]); s += t * t. In the
    speculative copy the subtraction's inf/nan test is left to s's after
    the loop (t * t carries an inf or nan into s, and s keeps it); s, a
    Python float, may also overflow on its own (no warning): the checked
    copy then runs the loop again and gives the same inf."""
    norms = []
    for i in range(X.shape[0]):
        s = 0.0
        for k in range(X.shape[1]):
            t = float(X[i, k] - X[r, k])
            s += t * t
        norms.append(s)
    return norms


@dynac.compile(signatures=["(ndarray[d], float)"])
def shift_twice(a, x):
    """Reads no module-level name, yet may go on in the interpreter: when
    numpy would warn in the second statement (inf - inf), after the first
    wrote a's items, the rest of the call is built from the module's
    globals, which its guard takes (fuzz seed 191: SystemError, globals
    never taken)."""
    a[1:] += a[:-1] * x
    a[1:] -= a[:-1] * x
    return x


def freeze(a):
    """Not compiled: Python code that makes `a` read-only in the middle of a call."""
    a.setflags(write=False)


@dynac.compile(signatures=["(ndarray[d], int, int)"])
def fill_flagged(a, at, thaw):
    """a[i] = ... for each i: each store tests a's WRITEABLE flag as it is
    now, not as it was when the kernel took a (numpy lets Python code change
    it while the kernel holds the array): freeze() makes a read-only at
    i == at (numpy's ValueError at that store, the items before it
    written); with thaw, a arrives read-only and is made writable first
    (every store succeeds)."""
    if thaw:
        a.setflags(write=True)
    for i in range(a.shape[0]):
        if i == at:
            freeze(a)
        a[i] = i * 0.5
    return a


@dynac.compile(signatures=["(ndarray[d, 2], int)"])
def row_gaps(X, r):
    """Squared gaps between row r and every row: the k loop's numpy scalar
    arithmetic runs first with its inf/nan tests as one flag after the loop
    (speculation); where the flag is set, s, t and k go back to their values
    before the loop and the checked copy runs it again, so the interpreter
    warns at the first such item, with the loop's locals as they were
    (s sums the row's items: an overflowing gap does not make it inf, so a
    rerun that did not start it from 0.0 again would show)."""
    sums, gaps = [], []
    for i in range(X.shape[0]):
        row_seen(i)
        s = 0.0
        g = 0.0
        for k in range(X.shape[1]):
            t = X[i, k] - X[r, k]
            s += float(X[i, k])
            g += float(t * t)
        sums.append(s)
        gaps.append(g)
    return sums, gaps, t, k


@dynac.compile(signatures=["(ndarray[d, 2], int, int)"])
def pull(pos, i, how):
    """acc[i, 0] and acc[i, 1] kept in C locals through the j loop and
    written back after it (speculation's scalar promotion), unless acc's
    item is one pos can read (how 1: acc is pos), acc is read-only (3) or
    i is out of range: then the checked copy runs the
    loop. After row_seen's call a failure continues in the interpreter
    (no undo of the kernel's writes): a write-back before the inf/nan test
    would show as sums counted twice."""
    row_seen(i)
    acc = np.zeros((pos.shape[0], 2))
    if how == 1:
        acc = pos
    elif how == 3:
        acc.setflags(write=False)
    for j in range(pos.shape[0]):
        if i != j:
            dx = pos[j, 0] - pos[i, 0]
            acc[i, 0] += dx * 0.5
            acc[i, 1] -= pos[j, 1] * dx
    return acc
