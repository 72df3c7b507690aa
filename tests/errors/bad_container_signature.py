# expect: 9:28: error: bad signature: type 'list[float)' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray, ndarray[d], ndarray[d, 2], numpy.float64, ...)
# expect: 14:28: error: bad signature: type 'list[array[d]]' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray, ndarray[d], ndarray[d, 2], numpy.float64, ...)
# expect: 19:28: error: bad signature: type 'memoryview[d, sideways]' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray, ndarray[d], ndarray[d, 2], numpy.float64, ...)
# expect: 24:28: error: bad signature: type 'ndarray[d, 3]' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray, ndarray[d], ndarray[d, 2], numpy.float64, ...)
# expect: 29:28: error: bad signature: type 'ndarray[Q]' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray, ndarray[d], ndarray[d, 2], numpy.float64, ...)
import dynac


@dynac.compile(signatures=["(list[float)"])
def f(a):
    return a[0]


@dynac.compile(signatures=["(list[array[d]])"])
def g(a):
    return a[0]


@dynac.compile(signatures=["(memoryview[d, sideways])"])
def h(a):
    return a[0]


@dynac.compile(signatures=["(ndarray[d, 3])"])
def nd3(a):
    return a[0]


@dynac.compile(signatures=["(ndarray[Q])"])
def ndq(a):
    return a[0]
