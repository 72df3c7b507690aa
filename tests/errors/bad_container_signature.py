# expect: 7:28: error: bad signature: type 'list[float)' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray)
# expect: 12:28: error: bad signature: type 'list[array[d]]' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray)
# expect: 17:28: error: bad signature: type 'memoryview[d, sideways]' is not a kernel type (int, float, bool, tuple[...], list[...], array[d], memoryview[d], bytes, bytearray)
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
