"""Golden: array.array and memoryview parameters."""
from array import array
import dynac


@dynac.compile(signatures=["(array[d], array[d], float)"])
def axpy(xs, ys, a):
    for i in range(len(xs)):
        ys[i] = a * xs[i] + ys[i]
