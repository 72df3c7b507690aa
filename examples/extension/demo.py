"""Both paths of fastnorm: the C kernel for floats, the interpreter for the
rest, with dynac's counters. `make` first."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dynac  # noqa: E402
import fastnorm  # noqa: E402
import vectors  # noqa: E402

norm = fastnorm.serve(vectors.norm)
print(norm(3.0, 4.0), "(the C kernel)")
print(norm(3, 4), "(ints: the guard fails, the interpreter runs it)")
print("kernel calls:", fastnorm.kernel_calls())
print("dynac.stats():", dynac.stats()["vectors.norm"])
