"""Golden: while with break, continue and else."""
import dynac


@dynac.compile
def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
            continue
        n = 3 * n + 1
        steps += 1
        if steps > 1000:
            break
    else:
        steps = -steps
    return steps
