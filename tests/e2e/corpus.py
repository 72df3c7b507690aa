"""Differential corpus: every construct of the scalar kernel language.

Each function is a compile root with explicit signatures; tests/e2e/
suite_differential.py calls it eagerly (this source, no artifact) and
compiled (through the built artifact) on a grid of edge values and requires
identical results (type, value, sign of zero, NaN) or identical exceptions.
"""
import math
from math import sqrt, pi, floor

import dynac

LIMIT = 10
RATE = 0.25
FLAG = True

NUM2 = ["(int, int)", "(float, float)", "(int, float)", "(float, int)", "(bool, bool)", "(bool, int)"]
NUM1 = ["(int)", "(float)", "(bool)"]


@dynac.compile(signatures=NUM2)
def add(a, b):
    return a + b


@dynac.compile(signatures=NUM2)
def sub(a, b):
    return a - b


@dynac.compile(signatures=NUM1)
def zero_minus(a):
    """0.0 - n is +0.0 for n == 0; GCC folds 0.0 - (double)n into
    -(double)n (fuzz seed 205), a constant zero on the left or not."""
    z = 0.0
    return 0.0 - a, z - a, a * (float(0) - float(a)), 0 - a


@dynac.compile(signatures=NUM2)
def mul(a, b):
    return a * b


@dynac.compile(signatures=NUM2)
def truediv(a, b):
    return a / b


@dynac.compile(signatures=NUM2)
def floordiv(a, b):
    return a // b


@dynac.compile(signatures=NUM2)
def mod(a, b):
    return a % b


@dynac.compile(signatures=NUM2)
def power(a, b):
    return a ** b


@dynac.compile(signatures=["(int, int)", "(bool, bool)", "(bool, int)"])
def bits(a, b):
    return (a & b, a | b, a ^ b, ~a)


@dynac.compile(signatures=["(int, int)"])
def shifts(a, b):
    return (a << b, a >> b)


@dynac.compile(signatures=NUM1)
def unary(a):
    return (-a, +a, not a, abs(a))


@dynac.compile(signatures=NUM2)
def compare(a, b):
    return (a < b, a <= b, a > b, a >= b, a == b, a != b)


@dynac.compile(signatures=["(int, float, int)", "(float, float, float)", "(int, int, int)"])
def chain(a, b, c):
    return a < b < c, a == b == c, a <= b > c


@dynac.compile(signatures=NUM2)
def boolops(a, b):
    return bool(a and b), bool(a or b), not (a and b), (1 if a or b else 2)


@dynac.compile(signatures=["(int, int)", "(float, float)"])
def same_type_or(a, b):
    return a or b, a and b


@dynac.compile(signatures=NUM2)
def ternary(a, b):
    return a if a > b else b


@dynac.compile(signatures=["(int)", "(float)"])
def branches(x):
    if x < 0:
        r = -1
    elif x == 0:
        r = 0
    elif x < 10:
        r = 1
    else:
        r = 2
    return r


@dynac.compile(signatures=["(int)"])
def loop_while(n):
    i = 0
    total = 0
    while i < n:
        i += 1
        if i % 7 == 0:
            continue
        if i > 1000:
            break
        total += i * i
    else:
        total = -total
    return total, i


@dynac.compile(signatures=["(int, int, int)"])
def loop_reversed_range(start, stop, step):
    """reversed(range(...)): the same elements, last first."""
    total = 0
    count = 0
    for i in reversed(range(start, stop, step)):
        total = total * 3 + i
        count += 1
        if count > 1000:
            break
    for j in reversed(range(stop)):
        total -= j
        count += 1
        if count > 2000:
            break
    return total, count


@dynac.compile(signatures=["(int, int, int)"])
def loop_range(start, stop, step):
    total = 0
    count = 0
    for i in range(start, stop, step):
        total += i
        count += 1
        if count > 100000:
            break
    return total, count


@dynac.compile(signatures=["(int)"])
def range_forms(n):
    a = 0
    for i in range(n):
        a += i
    for j in range(2, n):
        a -= j
    for k in range(n, -n, -3):
        a += k
    return a


@dynac.compile(signatures=["(int)"])
def for_else(n):
    found = -1
    for i in range(n):
        if i * i > 50:
            found = i
            break
    else:
        found = -2
    return found


@dynac.compile(signatures=["(int)"])
def loop_var_after(n):
    i = -1
    for i in range(n):
        pass
    return i


@dynac.compile(signatures=["(int)"])
def unbound_local(n):
    if n > 0:
        y = n * 2
    return y


@dynac.compile(signatures=["(int)"])
def nested_loops(n):
    c = 0
    for i in range(n):
        for j in range(i):
            if (i + j) % 3 == 0:
                continue
            c += 1
            if c > 500:
                break
    return c


@dynac.compile(signatures=["(float, float)", "(int, int)"])
def swap(a, b):
    a, b = b, a
    (c, d) = a, b
    e = f = c
    return a, b, c, d, e, f


@dynac.compile(signatures=["(float, float)", "(int, int)"])
def augmented(a, b):
    x = a
    x += b
    x -= 1
    x *= b
    x //= 3
    x %= 5
    return x


@dynac.compile(signatures=["(float)"])
def augmented_float(a):
    x = a
    x /= 4.0
    x **= 2
    return x


def helper(x, y):
    return x * y + 1


def maybe_none(x):
    if x > 0:
        return x
    return None


@dynac.compile(signatures=["(float, float)", "(int, int)"])
def calls(a, b):
    return helper(a, b) + helper(b, a)


@dynac.compile(signatures=["(int)", "(float)"])
def calls_optional(x):
    return maybe_none(x) + 1


@dynac.compile(signatures=["(int)"])
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def pair(a, b):
    return a + b, a - b


@dynac.compile(signatures=["(float, float)", "(int, int)"])
def unpack_call(a, b):
    s, d = pair(a, b)
    q, r = divmod(a, b)
    return s, d, q, r


@dynac.compile(signatures=["(float)", "(int)"])
def math_native(x):
    return (math.sqrt(x), math.exp(x), math.log(x), math.sin(x), math.atan2(x, 2.0),
            math.floor(x), math.ceil(x), math.trunc(x), math.fabs(x), math.isnan(x),
            math.isinf(x), math.degrees(x), math.copysign(3.0, x), math.fmod(x, 3.0),
            math.pow(x, 1.5), math.log10(x), math.tanh(x), math.acos(x))


@dynac.compile(signatures=["(float)"])
def pow_literals(x):
    """libm's pow for every exponent: never x*x or 1/x (the last bit differs)."""
    return x ** 2, x ** -1, x ** 3, x ** 0.5, x ** -2, math.pow(x, 2.0), math.pow(x, -1), 2.5 ** 2


@dynac.compile(signatures=["(float, float)", "(int, float)"])
def math_two(x, y):
    """The two-argument math functions with CPython's own NaN rules."""
    return (math.atan2(x, y), math.copysign(710.0, math.atan2(710.0, y)), math.copysign(x, y),
            math.fmod(x, y), math.pow(x, y), math.copysign(1.0, math.exp(y)), x ** y)


@dynac.compile(signatures=["(float)", "(int)"])
def math_api(x):
    return math.hypot(x, 3.0), math.gamma(x), math.log(x, 2.0), math.erf(x), math.expm1(x)


@dynac.compile(signatures=["(int, int)"])
def math_int(a, b):
    return math.gcd(a, b), math.isqrt(abs(a)), math.factorial(abs(b) % 25)


@dynac.compile(signatures=["(float)"])
def math_from_import(x):
    return sqrt(x) + pi + floor(x)


@dynac.compile(signatures=["(float)"])
def math_consts(x):
    return x * math.pi + math.e - math.tau, math.inf > x, math.isnan(math.nan)


@dynac.compile(signatures=["(int)", "(float)", "(bool)"])
def conversions(x):
    return int(x), float(x), bool(x), round(x), abs(x)


@dynac.compile(signatures=["(float, int)", "(int, int)"])
def round_digits(x, n):
    return round(x, n)


@dynac.compile(signatures=["(int, int, int)", "(float, float, float)"])
def minmax(a, b, c):
    return min(a, b, c), max(a, b, c), min(a, b), max(c, a)


@dynac.compile(signatures=["(int, int)", "(float, float)", "(int, float)"])
def divmods(a, b):
    return divmod(a, b)


@dynac.compile(signatures=["(float)", "(int)"])
def globals_read(x):
    if FLAG:
        return x * RATE + LIMIT
    return x


@dynac.compile(signatures=["(int)"])
def big_int_growth(n):
    x = 1
    for i in range(n):
        x = x * 3
    return x


@dynac.compile(signatures=["(int)"])
def returns_bool_or_none(n):
    if n > 3:
        return True
    if n < -3:
        return False


@dynac.compile(signatures=["(float)"])
def is_compiling_folded(x):
    if dynac.is_compiling():
        return x
    return x


@dynac.compile(signatures=["(float)"])
def graph_break_print(x):
    dynac.graph_break()
    print("side effect", x)
    return x * 2.0


@dynac.compile(signatures=["(float)"])
def print_compiles(x):
    print("side effect", x)  # a builtin called through the C API, inside the kernel
    return x * 2.0


@dynac.compile(signatures=["(int)"])
def pass_and_docstring(n):
    """A docstring is not a statement of the kernel."""
    pass
    return n


# Functions expected to get kernels (others must fall back with a reason).
EXPECT_INTERPRETER = {"graph_break_print"}


@dynac.compile(signatures=["(int, float)", "(float, float)", "(bool, int)"])
def rebinding(hue, x):
    hue = hue % 1.0
    y = x
    y = y > 0.5
    hue += y
    if hue > 0.5:
        x = -x
    return hue, x, y


@dynac.compile(signatures=["(int)"])
def rebinding_keeps_loop_types(n):
    s = 0
    for i in range(n):
        s += i
    s = s * 0.5
    t = s
    t //= 2.0
    return s, t


def scaled(x, factor=2.0, offset=-1, clamp=True):
    y = x * factor + offset
    if clamp and y < 0:
        return 0.0
    return y


@dynac.compile(signatures=["(float)", "(int)"])
def keywords_and_defaults(x):
    return (scaled(x), scaled(x, 3.0), scaled(x, offset=5), scaled(factor=0.5, x=x),
            scaled(x, clamp=False, factor=-1.0))


@dynac.compile(signatures=["(int)", "(float)", "(bool)"])
def accumulate(n):
    total = 0
    for i in range(10):
        total += n * 0.5 if i % 3 == 0 else i
    return total


@dynac.compile(signatures=NUM2)
def mixed_minmax(a, b):
    return max(a, b), min(a, b, 0.5), max(1, a), min(b, -0.0, 0)


@dynac.compile(signatures=["(int, float)", "(float, int)", "(int, int)"])
def mixed_return(a, b):
    if a > b:
        return a
    return b


@dynac.compile(signatures=["(int, int)", "(int, float)"])
def num_ops(a, b):
    x = a if a > 0 else 0.5
    d = b or 1
    return (x + b, x - b, x * b, x / d, x // d, x % d, x ** 2, x ** (a % 3 - 1), -x, +x,
            abs(x), int(x), round(x), x < b, x == b, x != 2, bool(x), not x, math.floor(x),
            math.ceil(x), math.trunc(x), float(x), divmod(x, 3), math.sqrt(abs(x)), x or b)


@dynac.compile(signatures=["(int)"])
def num_int_only_ops(a):
    x = a if a > 5 else 2.5
    return x & 1, x << 1, ~x


@dynac.compile(signatures=["(float, float)", "(int, int)", "(int, float)"])
def special_floats_and_pow(a, b):
    lo = float("-inf")
    hi = float(" Infinity ")
    m = float("nan")
    return max(lo, a), min(hi, b), m != m, pow(a, 2), pow(b, a % 3 if a == a else 1)


@dynac.compile(signatures=NUM2)
def continued_lines(a, b):
    """Backslash continuations and comments inside expressions: the grammar keeps them as
    extras, which may stand between any two tokens (parse.c: node_named skips them), so they
    are no graph breaks: a conditional's else, a call's and a comprehension's parts, a
    parenthesised operand, a subscript, a comparison chain."""
    c = a if a > b \
        else b
    d = max(a, \
            b)
    e = [x * 2 for x in (a, b) \
         if x == x]
    f = (  # a comment before the first operand
        a - b)
    g = min(  # a comment before the first argument
        a, b)
    h = [a, b][ \
        0]
    i = a < \
        b <= \
        c
    return c, d, len(e), f, g, h, i


@dynac.compile(signatures=NUM2)
def continued_statements(a, b):
    # a comment first in the body
    s = 0.0
    for k in \
            range(3):  # a comment after the header
        s += a * k \
            - 1
    if a > b and \
       b > 0:
        s = -s
    return s, \
        a
