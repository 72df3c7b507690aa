"""Lists, tuples and buffers in kernels: each function is run eagerly and
compiled on the same fresh inputs by suite_containers.py, which compares
results, exceptions (type, message, traceback line) and the containers'
contents afterwards (side effects, aliasing)."""
from array import array  # noqa: F401  (the inputs use it)

import heapq
import math

import dynac


# ---- reads ------------------------------------------------------------------
@dynac.compile
def index_read(a: list[float], i: int) -> float:
    return a[i]


@dynac.compile
def index_read_int(a: list[int], i: int) -> int:
    return a[i] * 2


@dynac.compile
def nested_read(m: list[list[float]], i: int, j: int) -> float:
    return m[i][j] + m[j][i]


@dynac.compile
def lengths(a: list[float], m: list[list[int]]) -> int:
    n = len(a)
    for row in m:
        n += len(row)
    return n


@dynac.compile
def dot(a: list[float], b: list[float]) -> float:
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


@dynac.compile
def sums(a: list[float], b: list[int]):
    return sum(a), sum(b)


@dynac.compile
def long_writes_then_overflow(xs: list[float], k: int) -> int:
    """More writes than the undo log's 65,536 entries, then an int64
    overflow: the writes are undone (the list saved whole once) and the
    interpreter gives the big int (it raised RuntimeError)."""
    n = len(xs)
    for i in range(70000):
        xs[i % n] = xs[i % n] + 1.0
    return k * k


@dynac.compile
def long_writes_then_domain_error(xs: list[float], x: float) -> float:
    n = len(xs)
    for i in range(70000):
        xs[i % n] = i * 0.5
    return math.sqrt(x)


@dynac.compile
def long_appends_then_zero_division(xs: list[int], n: int, z: int) -> int:
    for i in range(n):
        xs.append(i)
        xs.insert(0, -i)
        xs.pop()
    return 1 // z


@dynac.compile
def enumerate_from_local(xs: list[float]) -> int:
    """enumerate() reads its start once and counts on its own: the loop's
    rebinding of the start's variable changes neither."""
    s = 0
    for j, x in enumerate(xs, s):
        s += j
    return s


@dynac.compile
def iterate_forms(a: list[float], b: list[float]) -> float:
    t = 0.0
    for x in a:
        t = t * 0.5 + x
    for i, x in enumerate(a, 1):
        t += i * x
    for x, y in zip(a, b):
        t -= x * y
    for x in reversed(b):
        t = t * 0.25 + x
    return t


@dynac.compile
def loop_else(a: list[int], stop: int) -> int:
    n = 0
    for x in a:
        if x == stop:
            break
        if x < 0:
            continue
        n += x
    else:
        n = -n
    return n


@dynac.compile
def tuple_pairs(ps: list[tuple[list[float], float]]) -> float:
    t = 0.0
    for ([x, y], w) in ps:
        t += (x - y) * w
    return t


@dynac.compile
def tuple_index(t: tuple[float, int, float]) -> float:
    return t[0] * t[1] - t[-1]


# ---- writes -----------------------------------------------------------------
@dynac.compile
def index_write(a: list[float], i: int, v: float):
    a[i] = v


@dynac.compile
def aug_write(a: list[float], i: int, v: float) -> float:
    a[i] += v
    a[i] *= v
    return a[i]


@dynac.compile
def int_write(a: list[int], i: int, v: int) -> int:
    a[i] = v
    a[0] -= 1
    return a[i]


@dynac.compile
def scale(a: list[float], k: float):
    for i in range(len(a)):
        a[i] *= k


@dynac.compile
def matmul_into(a: list[list[float]], b: list[list[float]], out: list[list[float]]):
    n = len(a)
    m = len(b[0])
    for i in range(n):
        row = out[i]
        for j in range(m):
            s = 0.0
            for k in range(len(b)):
                s += a[i][k] * b[k][j]
            row[j] = s


@dynac.compile
def push_pop(a: list[int], n: int) -> int:
    for i in range(n):
        a.append(i * 3)
    x = a.pop()
    y = a.pop(0)
    return x - y + len(a)


@dynac.compile
def pop_index(a: list[float], i: int) -> float:
    return a.pop(i)


@dynac.compile
def drain(a: list[float], k: int) -> float:
    """pop() and pop(0) until k items are left, and heappop: the list keeps or shrinks its
    allocation as list_resize would (the suite compares sys.getsizeof)."""
    t = 0.0
    while len(a) > k:
        t += a.pop()
        if len(a) > k:
            t -= a.pop(0)
    while len(a) > k // 2:
        t += heapq.heappop(a)
    return t


@dynac.compile
def append_while_iterating(a: list[int]) -> int:
    n = 0
    for x in a:
        if x > 0 and len(a) < 20:
            a.append(x - 1)
        n += 1
    return n


# ---- aliasing -----------------------------------------------------------------
@dynac.compile
def alias_write(a: list[float], b: list[float]) -> float:
    a[0] = 7.0
    b[0] += 1.0
    return a[0]


@dynac.compile
def alias_rows(m: list[list[float]]) -> float:
    m[0][0] = 3.0
    return m[1][0]


# ---- n-body style: list of tuples of lists, nested unpacking ------------------
@dynac.compile
def advance(bodies: list[tuple[list[float], list[float], float]], dt: float, steps: int):
    n = len(bodies)
    for s in range(steps):
        for i in range(n):
            ([x1, y1, z1], v1, m1) = bodies[i]
            for j in range(i + 1, n):
                ([x2, y2, z2], v2, m2) = bodies[j]
                dx = x1 - x2
                dy = y1 - y2
                dz = z1 - z2
                mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
                b1m = m1 * mag
                b2m = m2 * mag
                v1[0] -= dx * b2m
                v1[1] -= dy * b2m
                v1[2] -= dz * b2m
                v2[0] += dx * b1m
                v2[1] += dy * b1m
                v2[2] += dz * b1m
        for (r, [vx, vy, vz], m) in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz


@dynac.compile
def drift(pairs: list[tuple[list[float], list[float], float]], dt: float, steps: int) -> float:
    """A loop over a list inside a loop is versioned on its items' shape: one
    test before the outer loop, then no type tests (shapes.c). Odd items (an
    int, a float subclass, a short or long list, a list for a tuple) make
    the test fail: the tested copy gives CPython's answer."""
    total = 0.0
    for s in range(steps):
        for ([x, y], v, m) in pairs:
            v[0] += dt * x * m
            v[1] -= dt * y
            total += v[0] + v[1] + v[2]
    return total


@dynac.compile
def drift_reset(pairs: list[tuple[list[float], list[float], float]], steps: int, reset: int) -> float:
    """A method call could break the shape the test proved (v.pop() makes
    v[2] an IndexError at the next step): such a loop is not versioned."""
    total = 0.0
    for s in range(steps):
        for ([x, y], v, m) in pairs:
            total += v[0] * m + x + v[2]
            if s == reset:
                v.pop()
    return total


# ---- buffers --------------------------------------------------------------------
@dynac.compile(signatures=["(list[int], array[d], bytes)"])
def container_truth(a, b, c):
    """A list or buffer is true when it is not empty."""
    n = 0
    if a:
        n += 1
    while b and n < 5:
        n += 2
    return n + (10 if not c else 20) + (100 if a and c else 0)


@dynac.compile(signatures=["(array[d])", "(array[f])", "(array[i])", "(array[B])",
                           "(bytes)", "(bytearray)", "(memoryview[d, strided])"])
def buf_sum(a):
    t = 0
    for x in a:
        t += x
    return t


@dynac.compile(signatures=["(array[d], int)", "(bytes, int)", "(memoryview[d, strided], int)"])
def buf_read(a, i):
    return a[i] + a[-1]


@dynac.compile(signatures=["(array[d], float)", "(array[f], float)"])
def buf_axpy(a, k):
    for i in range(len(a)):
        a[i] = a[i] * k + 1.0
    return a


@dynac.compile(signatures=["(array[i], int, int)", "(array[b], int, int)", "(bytearray, int, int)",
                           "(array[Q], int, int)"])
def buf_store_int(a, i, v):
    a[0] = a[0]
    a[i] = v
    return a[i]


@dynac.compile(signatures=["(memoryview[d], int, float)"])
def mv_store(m, i, v):
    m[i] = v


@dynac.compile(signatures=["(memoryview[f], float)"])
def mv_store_f(m, v):
    m[0] = 1.0
    m[1] = v


# ---- exceptions after a write: CPython's own ------------------------------------
@dynac.compile
def write_then_index(a: list[float], i: int) -> float:
    a[0] += 1.0
    return a[i]


@dynac.compile
def write_then_divide(a: list[float], d: float) -> float:
    a[0] = 2.0
    return a[0] / d


@dynac.compile
def write_then_unpack(a: list[float]) -> float:
    a[0] = 0.5
    x, y = a
    return x + y


@dynac.compile
def write_then_store(a: list[float], i: int) -> float:
    a[0] = 1.5
    a[i] = 2.5
    return a[0]


def safe_div(x: float, y: float) -> float:
    return x / y


@dynac.compile
def write_then_call(a: list[float], y: float) -> float:
    a[0] = 9.0
    return safe_div(a[0], y)


@dynac.compile
def write_then_int_mod(a: list[int], d: int) -> int:
    a.append(d)
    return a[0] % d


# ---- a value the kernel was not specialised for ------------------------------
@dynac.compile
def read_then_write(a: list[float], i: int) -> float:
    x = a[i]        # an int element here: deoptimises before any write
    a[0] = x * 2.0
    return x


@dynac.compile
def write_then_read(a: list[float], i: int) -> float:
    a[0] = 1.0
    return a[i] * 2.0  # an int element after the write: the write is undone, then the interpreter


# ---- more writes than the undo log holds (DYNAC_UNDO_MAX, 65536) ----------------
@dynac.compile
def many_writes_then_index(a: list[float], n: int, i: int) -> float:
    for k in range(n):
        a[0] = k * 0.5
    return a[i]  # IndexError: raised by the kernel, CPython's own


@dynac.compile
def many_writes_then_overflow(a: list[float], n: int, m: int) -> int:
    for k in range(n):
        a[0] = k * 0.5
    return m * m  # int64 overflow after 70,000 writes: undone (the list copied), CPython's big int


# ---- containers in the regions of a partially compiled function ----------------
@dynac.compile
def region_writes(a: list[float], k: float) -> float:
    t = 0.5
    dynac.graph_break()
    for i, x in enumerate(a):
        a[i] = x * k
    a[0] += t
    dynac.graph_break()
    return a[-1] + len(a)


@dynac.compile(signatures=["(array[d], int, float)"])
def buf_fill_then_divide(a, n, d):
    for i in range(n):
        a[i % len(a)] += 1.0
    return a[0] / d


# ---- range-derived bounds checks: positions a * i + b tested before the loop --
@dynac.compile(signatures=["(array[d], array[d], int, int, int)", "(array[i], array[i], int, int, int)"])
def stencil(a, out, lo, hi, step):
    """Neighbours at i - 1 and i + 1 (a[-1] at i = 0, as Python wraps it),
    a scaled position and a store, over any range."""
    for i in range(lo, hi, step):
        out[i] = a[i - 1] + a[i + 1] - a[2 * i + 1] + a[-3 + 1 * i]
    return out[0]


@dynac.compile(signatures=["(array[d], int, int, int, int)"])
def strided_sum(a, n, k, w, off):
    """b from locals: k * w + i and i * 3 - off; an int64 overflow in b
    (k * w) or in a * i only disables the shortcut."""
    s = 0.0
    for i in range(n):
        s += a[k * w + i] + a[i * 3 - off] + a[off + 2 * i]
    return s


@dynac.compile(signatures=["(array[d], int)"])
def rebinds(a, n):
    """The loop variable and an offset rebound in the body: their positions
    are not a * i + b with b fixed, and keep their per-item checks."""
    off = 0
    s = 0.0
    for i in range(n):
        s += a[i + off]
        off += 1
        i = i * 2
        s += a[i]
    return s


@dynac.compile(signatures=["(array[d], array[d], int)"])
def nested_rows(a, out, w):
    """Rows of width w in a flat array: the inner flag includes the outer
    one; a for-else reads with the last i; a write before an IndexError is
    undone or kept as CPython keeps it."""
    h = len(out) // w
    for r in range(h):
        for c in range(w - 1, -1, -1):
            out[r * w + c] = a[r * w + c] * 2.0 + a[w * r + c + 1]
        else:
            out[r * w] += a[r]
    return out[0]


# ---- objects: elements of any type, through the C API ------------------------
@dynac.compile(signatures=["(list[object], int, int)"])
def sift_down(heap, startpos, pos):
    """heapq._siftdown: compares and moves elements of any type."""
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def sift_up(heap, pos):
    """heapq._siftup, typed by its callers."""
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    sift_down(heap, startpos, pos)


@dynac.compile(signatures=["(list[object], object)", "(list[object], int)"])
def heap_push_pop(heap, item):
    """heapq.heappushpop: a swap through a tuple, a direct call, an object result."""
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
        sift_up(heap, 0)
    return item


@dynac.compile(signatures=["(list[object])"])
def heapify_all(x):
    """heapq.heapify: reversed(range(...))."""
    n = len(x)
    for i in reversed(range(n // 2)):
        sift_up(x, i)


@dynac.compile(signatures=["(list[int])", "(list[object])"])
def running_total(a):
    """Arithmetic on objects (the first element's type decides); a list of
    ints that overflows int64 deoptimises to the object entry."""
    if not a:
        return None
    total = a[0]
    for x in a:
        total = total + x * 2
    return total


@dynac.compile(signatures=["(object, int)", "(object, object)"])
def pick(o, k):
    return o[k]


@dynac.compile(signatures=["(list[object], object)"])
def drain_until(a, stop):
    """pop and append of objects; == with an object."""
    n = 0
    while a:
        x = a.pop()
        if x == stop:
            a.append(x)
            return n
        n += 1
    return n


@dynac.compile(signatures=["(list[object], object)"])
def objects_around_break(a, x):
    """A graph break: statements with objects run in the interpreter, the
    region around them still compiles."""
    n = len(a)
    dynac.graph_break()
    best = x
    for y in a:
        if best < y:
            best = y
    return best, n


# ---- keyword-only parameters, None, raise, calls of objects -----------------
@dynac.compile(signatures=["(list[int], int, int, None, None)", "(list[int], float, int, int, None)",
                           "(list[object], object, int, None, object)",
                           "(object, object, int, None, None)", "(object, object, int, int, None)"])
def bisect_like(a, x, lo=0, hi=None, *, key=None):
    """Lib/bisect.py's bisect_right: a keyword-only key, `is None` tests,
    raise, len() of an object, a call of the key function."""
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < a[mid]:
                hi = mid
            else:
                lo = mid + 1
    else:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < key(a[mid]):
                hi = mid
            else:
                lo = mid + 1
    return lo


@dynac.compile(signatures=["(list[int], int, int, None, None)", "(list[object], object, int, None, object)",
                           "(object, object, int, None, None)"])
def insort_like(a, x, lo=0, hi=None, *, key=None):
    """Lib/bisect.py's insort_right: a keyword argument at the call, and
    list.insert (or the object's own insert)."""
    if key is None:
        lo = bisect_like(a, x, lo, hi)
    else:
        lo = bisect_like(a, key(x), lo, hi, key=key)
    a.insert(lo, x)


@dynac.compile(signatures=["(list[int], int, int, int)"])
def insert_then_fail(a, i, v, m):
    """An insert, then int64 overflow: the insert is undone, the
    interpreter runs the call again."""
    a.insert(i, v)
    return v * m


@dynac.compile(signatures=["(float, None)", "(float, float)", "(int, None)", "(int, object)"])
def scaled(x, scale=None):
    if scale is None:
        scale = 2
    if scale is not None and x < 0:
        return -x * scale
    return x * scale


@dynac.compile(signatures=["(int, float)", "(float, float)"])
def raises(n, x):
    if n == 0:
        raise ValueError("n must not be zero: é")
    if n == 1:
        raise TypeError
    if n == 2:
        raise IndexError()
    if n == 3:
        raise KeyError(x)
    if n < 0:
        raise ArithmeticError(n * x)
    return n * x


@dynac.compile(signatures=["(object, list[int])", "(object, list[object])"])
def apply_key(key, a):
    total = 0
    for v in a:
        total = total + key(v)
    return total


@dynac.compile(signatures=["(object)"])
def length_of(o):
    return len(o) * 2


@dynac.compile(signatures=["(object, object)"])
def append_to(o, v):
    """A method of an object, called through the C API."""
    o.append(v)
    return len(o)


# ---- new lists: displays, comprehensions, slices, + and *, results ------------
@dynac.compile(signatures=["(float, float, int)", "(int, int, int)"])
def displays(x, y, n):
    """Displays, repetition and concatenation; the result is a new list."""
    a = [x, y, x * y]
    b = [x - y] * n if n > 1 else []
    c = a + [y] * 2
    return c + b * 2 + n * [x]


@dynac.compile(signatures=["(list[float], int)", "(list[int], int)"])
def squares(a, k):
    """Comprehensions over a list, a range, enumerate and zip, with ifs."""
    s = [x * x for x in a]
    t = [a[i] * k for i in range(len(a)) if i % 2 == 0]
    u = [x + i for i, x in enumerate(a) if x > 0 if i < k]
    v = [x - y for x, y in zip(a, s)]
    return s + t + u + v



def seen(x, log):
    """x, noted in log (a call the kernel makes: the items' order and count are compared)."""
    log.append(x)
    return x


@dynac.compile
def filtered_items_in_order(n: int, x: float, xs: list[float], log: list[float]) -> tuple[int, float]:
    """Each item of a filtered comprehension read once, in order (fuzz seed 7805 #29: a checked
    index's temporary had the loop counter's name and number, `int64_t k3 = k3;`, so the second
    item read as the first; the suites now compile with -Winit-self -Wshadow=compatible-local)."""
    x *= (x * float(n))
    made = float(len([seen(q, log) * (x + x) for q in xs if q < (math.inf + x)]))
    return n, made

@dynac.compile(signatures=["(list[list[float]], list[list[float]])"])
def matmul_new(a, b):
    """A new matrix (list of lists) built by nested comprehensions."""
    n, m = len(a), len(b[0]) if b else 0
    return [[sum([a[i][k] * b[k][j] for k in range(len(b))]) for j in range(m)] for i in range(n)]


@dynac.compile(signatures=["(list[float], int, int, int)", "(list[int], int, int, int)"])
def slices(a, i, j, k):
    """Every form of slice, with CPython's clamping and step rules."""
    return [a[i:j], a[:j], a[i:], a[:], a[::k], a[i:j:k], a[j:i:-1], a[-i:], a[::-1]]


def _call_with(f, v):
    f(v)


@dynac.compile
def bound_append(a: list[float], n: int):
    """A local list's bound method as a value (push = log.append, passed on): whatever calls it
    may store anything, so the list holds objects; floats and an int appended here too."""
    log = []
    push = log.append
    for x in a:
        push(x * 2.0)
    log.append(n)
    _call_with(log.append, "s")
    total = 0.0
    for v in log:
        if type(v) is float:
            total += v
    return log, len(log), total


@dynac.compile
def mixed_appends(a: list[float], n: int):
    """A local list that gets floats, then a str, an int, None and a tuple
    (a list[object], each element boxed as what it is), and a local that is
    None until a list is bound to it (an object)."""
    out = []
    for x in a:
        out.append(x * 2.0)
    out.append("n=%d" % n)
    out.insert(0, n)
    out.append(None)
    out.append((n, 1.5))
    found = None
    for i in range(n):
        if i == 3:
            found = [i, i * 0.5]
    total = 0.0
    for v in out:
        if type(v) is float:
            total += v
    return out, found, total, out[0] + 1, out[-3], len(out)


@dynac.compile(signatures=["(list[float], int)"])
def build_append(a, n):
    """r = [] grown by appends and pops, rebound in a loop (the old lists
    released), then written: the writes to a new list are logged too."""
    r = []
    for x in a:
        r.append(x * 2.0)
    rows = []
    for i in range(n):
        row = [float(i)] * 3
        row[1] = row[0] + 0.5
        rows.append(row)
    if rows:
        rows[0][2] = -1.0
        rows.pop()
    total = 0.0
    for row in rows:
        total += row[1] + row[2]
    return r, total


@dynac.compile(signatures=["(list[float], int)"])
def alias_new(a, i):
    """Two names for one new list, and a new list stored into another: a
    write through one name is seen through the other."""
    b = a[:]
    c = b
    c[i] = -0.0
    grid = [b, c, a]
    grid[2][0] = 9.0
    return b, grid, b[i] + c[i]


@dynac.compile(signatures=["(list[float], int)"])
def write_new_then_fail(a, m):
    """Writes to a new list and to the argument, then int64 overflow: the
    writes are undone and the interpreter runs the call again."""
    b = [x for x in a]
    b.append(1.0)
    a.append(2.0)
    b = [0.0]
    b[0] = 5.0
    return len(b) * m * m


@dynac.compile(signatures=["(list[float])"])
def via_callee(a):
    """A callee that returns a new list; its result rebound in a loop."""
    out = a
    for _ in range(3):
        out = doubled(out)
    return out


@dynac.compile(signatures=["(list[float])"])
def doubled(a):
    return [x * 2.0 for x in a]


@dynac.compile(signatures=["(list[int], int)"])
def comp_scope(a, x):
    """The comprehension's names are its own: x outside is untouched."""
    b = [x for x in a if x != 0]
    c = [[x, y] for x in b for y in range(x)]
    return x, b, c


@dynac.compile(signatures=["(list[float], list[int], float)"])
def comp_raises(a, idx, d):
    """Exceptions inside comprehensions: IndexError from a read,
    ZeroDivisionError from /, raised from the comprehension's line."""
    picked = [a[i] for i in idx]
    return [x / d for x in picked if x == x]


@dynac.compile(signatures=["(list[float], int)"])
def grow_in_loop(a, n):
    """A new list per iteration, stored into the argument and written
    after: the writes and the stores are undone by a later deopt."""
    for i in range(n):
        row = [x * i for x in a]
        a.append(row[0] if row else 0.0)
        row[0:0]
        if i == 3:
            a[0] = a[0] + 1.0
    return len(a) * 2**60 * n


@dynac.compile(signatures=["(list[float], int)"])
def aug_then_shrink(a, i):
    """a[i] op= v reads a[i], evaluates v, then stores a[i] again: a call
    in v that shrinks the list makes the store raise (or land elsewhere)."""
    a[i] += shrink(a)
    a[0] *= 2.0
    return a


@dynac.compile(signatures=["(list[float])"])
def shrink(a):
    a.pop()
    return 0.5


@dynac.compile(signatures=["(list[tuple[list[float], float]])"])
def tuple_of_lists_kept(ps):
    """A tuple of lists kept in a local of a function that builds a list:
    typed, it is refused; the retry holds the tuples as objects."""
    out = []
    for p in ps:
        out.append(p[1])
        p[0].append(p[1])
    return out


@dynac.compile(signatures=["(list[tuple[object, int]])"])
def object_pairs(pairs):
    """Tuples holding objects, unpacked: their fields are borrowed from the
    tuple (a kernel took a reference per field and never gave it back)."""
    n = 0
    for (o, k) in pairs:
        if o is None:
            n += k
        last = o
    return n


# ---- continuation in the interpreter after an effect --------------------------
# len(o) runs Python code (a logged __len__): a later deoptimisation cannot run
# the call again, so it goes on in the interpreter from the statement (or the
# loop's item) where the kernel stopped; __len__ is not called twice.
@dynac.compile(signatures=["(object, list[float])"])
def weigh_items(o, xs):
    n = len(o)
    t = 0.0
    k = 1
    for j, x in enumerate(xs, n):
        if x < 0:
            continue
        t += x * j
        k = k * n
        if k > 10**40:
            break
    else:
        t -= 1.0
    return t, k


@dynac.compile(signatures=["(object, list[int], list[int])"])
def pair_products(o, a, b):
    m = len(o)
    p = 1
    i = 0
    while i < m:
        for u, v in zip(a, b):
            p = p * (u + v)
        for w in reversed(a):
            if w == 0:
                break
            p -= w
        i += 1
    return p


@dynac.compile(signatures=["(object, int)"])
def late_local(o, n):
    m = len(o)
    for i in range(m, 0, -2):
        if i < n:
            late = i * n
    return late + m


@dynac.compile
def made_list_writes_then_overflow(k: int) -> int:
    """More writes than the undo log holds to a list the kernel made, then an
    int64 overflow outside a return: the interpreter goes on from `m = k * k`."""
    zs = []
    for i in range(70000):
        zs.append(1.0)
    m = k * k
    return m + len(zs)


@dynac.compile(signatures=["(object, int)"])
def length_then_scale(o, k):
    """The product overflows after __len__ ran in the same statement: it
    cannot restart, so the product is taken exactly (a big int) and the
    interpreter goes on after the statement, in a loop too."""
    n = len(o) * k
    total = n
    for i in range(4):
        total = (k * i) * len(o)
        total -= i
    return total - n


@dynac.compile(signatures=["(object, int)"])
def length_inside_sums(o, k):
    """An operation that fails after __len__ ran, with more of the
    statement around it: the interpreter runs the statement again with the
    operands it had evaluated (len(o) is not called twice) and goes on."""
    n = len(o) * k + 1
    m = k - len(o) * k * 2
    if -(len(o) * k) < 5:
        m += 1
    for i in range(3):
        n += (len(o) + i) * k - i
    return n + m, 3 * len(o) // (k - 3) + 1


@dynac.compile(signatures=["(object, int)"])
def length_compared(o, k):
    """An operation failing after __len__ ran, inside a comparison: an if's
    test and a value; the left operand is not evaluated again."""
    r = 0
    if len(o) > 1 and k + len(o) * k > k:
        r = 1
    elif -(len(o) * k) < 5:
        r = 2
    b = len(o) < k * k
    return r, b


def scaled_length(o, k):
    return len(o) * k * 4


@dynac.compile(signatures=["(object, int)"])
def length_in_calls(o, k):
    """Failures after __len__ ran inside a call's arguments, and a callee
    that finished in the interpreter with a big int: the statement goes on
    in the interpreter with what was evaluated (the callee is not called
    twice); math.sqrt's domain error is CPython's, from its line."""
    a = abs(len(o) * k)
    b = min(len(o), k * k, 7)
    d = scaled_length(o, k) + 1
    return a, b, d, math.sqrt(len(o) - k)
