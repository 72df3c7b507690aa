# expect: 6:28: error: bad signature: type 'str' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray, ndarray[d], ndarray[d, 2], numpy.float64, ...)
# expect: 11:28: error: signature has 1 types but g() has 2 parameters
import dynac


@dynac.compile(signatures=["(str) -> int"])
def f(x):
    return x


@dynac.compile(signatures=["(int)"])
def g(x, y):
    return x
