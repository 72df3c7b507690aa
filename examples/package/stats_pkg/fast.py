"""Running statistics over lists of floats, compiled when the package is built."""
import math

import dynac


@dynac.compile
def mean_and_std(xs: list[float]) -> tuple[float, float]:
    """Welford's one-pass mean and (population) standard deviation."""
    n = 0
    mean = 0.0
    m2 = 0.0
    for x in xs:
        n += 1
        d = x - mean
        mean += d / n
        m2 += d * (x - mean)
    if n == 0:
        return 0.0, 0.0
    return mean, math.sqrt(m2 / n)


@dynac.compile
def ewma(xs: list[float], alpha: float) -> float:
    """The exponentially weighted moving average of xs."""
    s = xs[0]
    for i in range(1, len(xs)):
        s = alpha * xs[i] + (1.0 - alpha) * s
    return s
