"""fannkuch-redux: the maximum number of pancake flips over all
permutations of 0..n-1, and the alternating checksum of flip counts.
Written with index loops over lists of ints (the kernel gets its scratch
lists from the caller).

    python3 -m dynac build examples/fannkuch.py && python3 examples/fannkuch.py
"""
import dynac


@dynac.compile
def fannkuch(n: int, perm1: list[int], perm: list[int], count: list[int]):
    for i in range(n):
        perm1[i] = i
    max_flips = 0
    checksum = 0
    perm_count = 0
    r = n
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        for i in range(n):
            perm[i] = perm1[i]
        flips = 0
        k = perm[0]
        while k != 0:
            i = 0
            j = k
            while i < j:
                t = perm[i]
                perm[i] = perm[j]
                perm[j] = t
                i += 1
                j -= 1
            flips += 1
            k = perm[0]
        if flips > max_flips:
            max_flips = flips
        checksum += flips if perm_count % 2 == 0 else -flips
        while True:
            if r == n:
                return checksum, max_flips
            perm0 = perm1[0]
            for i in range(r):
                perm1[i] = perm1[i + 1]
            perm1[r] = perm0
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
        perm_count += 1


def run(n=7):
    return fannkuch(n, [0] * n, [0] * n, [0] * n)


TEST_ARGS, BENCH_ARGS = (7,), (9,)

if __name__ == "__main__":
    print("%d\nPfannkuchen(%d) = %d" % (run()[0], 7, run()[1]))
