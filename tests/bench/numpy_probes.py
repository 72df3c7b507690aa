"""Small numpy functions of the shapes third-party numpy programs have
(the numpy-benchmarks kind: loops over items, whole-array expressions,
reductions, stencils), written as their authors write them. make bench
runs each eagerly (CPython + numpy) and built, on the same inputs, checks
the results are bit-identical and prints the ratio (tests/bench.py,
bench_numpy_probes). Functions dynac cannot speed up must not be slower.
"""
import numpy as np

import dynac

REQUIRES = ("numpy",)

@dynac.compile(signatures=["(ndarray[d], ndarray[d], ndarray[d], ndarray[d])"])
def arc_distance(theta_1, phi_1, theta_2, phi_2):
    temp = np.sin((theta_2 - theta_1) / 2)**2 + np.cos(theta_1) * np.cos(theta_2) * np.sin((phi_2 - phi_1) / 2)**2
    distance_matrix = 2 * (np.arctan2(np.sqrt(temp), np.sqrt(1 - temp)))
    return distance_matrix

@dynac.compile(signatures=["(ndarray[d, 2])"])
def go_fast(a):
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace

@dynac.compile(signatures=["(ndarray[d, 2])"])
def softmax(x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum

@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2], float, float)"])
def nbody_step(pos, vel, dt, G):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        for j in range(n):
            if i != j:
                dx = pos[j, 0] - pos[i, 0]
                dy = pos[j, 1] - pos[i, 1]
                r2 = dx * dx + dy * dy + 0.01
                inv = G / (r2 * np.sqrt(r2))
                acc[i, 0] += dx * inv
                acc[i, 1] += dy * inv
    vel += acc * dt
    pos += vel * dt
    return pos, vel

@dynac.compile(signatures=["(ndarray[d], int)"])
def histogram(x, nbins):
    lo = x.min()
    hi = x.max()
    counts = np.zeros(nbins, dtype=np.int64)
    width = (hi - lo) / nbins
    for v in x:
        k = int((v - lo) / width)
        if k == nbins:
            k -= 1
        counts[k] += 1
    return counts

@dynac.compile(signatures=["(ndarray[d], float)"])
def ewma(x, alpha):
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out

@dynac.compile(signatures=["(ndarray[d], ndarray[d])"])
def l2(a, b):
    d = a - b
    return np.sqrt(np.sum(d * d))

@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d])"])
def matvec(A, x):
    m, n = A.shape
    y = np.zeros(m)
    for i in range(m):
        acc = 0.0
        for j in range(n):
            acc += A[i, j] * x[j]
        y[i] = acc
    return y

@dynac.compile(signatures=["(ndarray[d], ndarray[d])"])
def clip_norm(a, lim):
    b = np.where(a > lim, lim, a)
    c = np.minimum(np.maximum(b, -lim), lim)
    return c.mean(), c.std()

@dynac.compile(signatures=["(int)"])
def mandel(n):
    out = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            cr = -2.0 + 3.0 * j / n
            ci = -1.5 + 3.0 * i / n
            zr = 0.0
            zi = 0.0
            k = 0
            while k < 50 and zr * zr + zi * zi < 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[i, j] = k
    return out

@dynac.compile(signatures=["(ndarray[d], int)"])
def moving_avg(x, w):
    c = np.cumsum(x)
    out = (c[w:] - c[:-w]) / w
    return out

@dynac.compile(signatures=["(ndarray[d, 2])"])
def col_norm(a):
    norms = np.sqrt((a ** 2).sum(axis=0))
    return a / norms[np.newaxis, :]

@dynac.compile(signatures=["(ndarray[d], ndarray[d])"])
def lstsqr(x, y):
    x_avg = sum(x) / len(x)
    y_avg = sum(y) / len(y)
    var_x = sum((x - x_avg) ** 2)
    cov_xy = sum((x - x_avg) * (y - y_avg))
    slope = cov_xy / var_x
    y_interc = y_avg - slope * x_avg
    return (slope, y_interc)

@dynac.compile(signatures=["(ndarray[d], float, float)"])
def log_likelihood(data, mean, sigma):
    s = (data - mean) ** 2 / (2 * (sigma ** 2))
    pdfs = np.exp(- s)
    pdfs /= np.sqrt(2 * np.pi) * sigma
    return np.log(pdfs).sum()

@dynac.compile(signatures=["(ndarray[d, 2], int)"])
def diffusion(u, n):
    for _ in range(n):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])
    return u

@dynac.compile(signatures=["(ndarray[d])"])
def reverse_cumsum(x):
    return np.cumsum(x[::-1])[::-1]

@dynac.compile(signatures=["(ndarray[d, 2])"])
def multiple_sum(a):
    r = np.sum(a, axis=1)
    s = np.sum(a * a, axis=1)
    return r + s

@dynac.compile(signatures=["(ndarray[d], ndarray[d], float)"])
def periodic_dist(x, y, L):
    dx = x[:, np.newaxis] - x[np.newaxis, :]
    dx = np.where(dx > L / 2, dx - L, dx)
    dy = y[:, np.newaxis] - y[np.newaxis, :]
    dy = np.where(dy > L / 2, dy - L, dy)
    return np.sqrt(dx ** 2 + dy ** 2)

@dynac.compile(signatures=["(ndarray[d])"])
def cronbach(items):
    items_sum = 0.0
    n = len(items)
    for i in range(n):
        items_sum += items[i]
    mean = items_sum / n
    var = 0.0
    for i in range(n):
        var += (items[i] - mean) ** 2
    return var / (n - 1)

@dynac.compile(signatures=["(ndarray[l])"])
def int_total(a):
    t = 0
    for v in a:
        t += v
    return t

@dynac.compile(signatures=["(ndarray[d, 2], ndarray[d, 2])"])
def wdist(A, B):
    n = A.shape[0]
    m = B.shape[0]
    D = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            D[i, j] = np.sqrt(np.sum((A[i] - B[j]) ** 2))
    return D

@dynac.compile(signatures=["(ndarray[d, 2])"])
def local_max(a):
    out = np.zeros(a.shape, dtype=np.bool_)
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            out[i, j] = a[i, j] == a[i - 1:i + 2, j - 1:j + 2].max()
    return out

@dynac.compile(signatures=["(int, float)"])
def julia(n, cr):
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            z = complex(-1.5 + 3.0 * i / n, -1.5 + 3.0 * j / n)
            c = complex(cr, 0.6)
            k = 0
            while abs(z) < 2.0 and k < 50:
                z = z * z + c
                k += 1
            out[i, j] = k
    return out

@dynac.compile(signatures=["(ndarray[d])"])
def smoothing(x):
    for i in range(1, len(x)):
        x[i] = (x[i] + x[i - 1]) * 0.5
    return x

@dynac.compile(signatures=["(ndarray[d], ndarray[d])"])
def vibr_energy(harmonic, zero_point):
    return np.sum(np.exp(-harmonic) / (1.0 - np.exp(-zero_point)), axis=0)


def inputs(rng):
    """name -> a function making fresh arguments."""
    n = 200
    return {
        'arc_distance': lambda: tuple(rng.random(n) for _ in range(4)),
        'go_fast': lambda: (rng.random((n, n)),),
        'softmax': lambda: (rng.random((50, 40)),),
        'nbody_step': lambda: (rng.random((60, 2)), rng.random((60, 2)), 0.01, 1.0),
        'histogram': lambda: (rng.random(20000), 17),
        'ewma': lambda: (rng.random(20000), 0.3),
        'l2': lambda: (rng.random(1000), rng.random(1000)),
        'matvec': lambda: (rng.random((200, 200)), rng.random(200)),
        'clip_norm': lambda: (rng.standard_normal(1000), np.full(1000, 0.5)),
        'mandel': lambda: (60,),
        'moving_avg': lambda: (rng.random(1000), 7),
        'col_norm': lambda: (rng.random((100, 50)),),
        'lstsqr': lambda: (rng.random(1000), rng.random(1000)),
        'log_likelihood': lambda: (rng.random(10000), 0.5, 0.2),
        'diffusion': lambda: (rng.random((100, 100)), 20),
        'reverse_cumsum': lambda: (rng.random(10000),),
        'multiple_sum': lambda: (rng.random((100, 100)),),
        'periodic_dist': lambda: (rng.random(100), rng.random(100), 1.0),
        'cronbach': lambda: (rng.random(10000),),
        'int_total': lambda: (rng.integers(0, 1000, 10000),),
        'wdist': lambda: (rng.random((50, 3)), rng.random((60, 3))),
        'local_max': lambda: (rng.random((40, 40)),),
        'julia': lambda: (40, -0.4),
        'smoothing': lambda: (rng.random(10000),),
        'vibr_energy': lambda: (rng.random(1000), rng.random(1000)),
    }
