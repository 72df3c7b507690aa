"""Counting primes by trial division (compiled by the build, see ../Makefile)."""
import dynac


@dynac.compile
def count_primes(n: int) -> int:
    count = 0
    for k in range(2, n):
        d = 2
        while d * d <= k:
            if k % d == 0:
                break
            d += 1
        else:
            count += 1
    return count
