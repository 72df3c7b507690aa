"""Uses the three modules; prints which calls compiled kernels served."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dynac  # noqa: E402
import kinematics  # noqa: E402
import pricing  # noqa: E402
import primes  # noqa: E402

print(kinematics.flight(30.0, 0.6), pricing.compound(1000.0, 0.05, 10), primes.count_primes(2000))
served = {k: v["kernel_calls"] for k, v in dynac.stats().items()}
print("kernel calls:", served)
