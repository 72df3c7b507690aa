"""C unit tests of the runtime's number helpers (runtime/plain_c.h).

tests/c/number_cases.py asks the running CPython for the answer of every
case (int and float operators on edge values, int/float comparison, int()
and round() of floats); tests/c/test_numbers.c runs each helper on them,
built as C11 with -Wall -Wextra -Werror at -O0 and -O2 (the helpers must
not depend on the optimiser), and prints its mismatches."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, check, done  # noqa: E402

C_DIR = os.path.join(ROOT, "tests", "c")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        cases = os.path.join(tmp, "number_cases.h")
        subprocess.run([sys.executable, os.path.join(C_DIR, "number_cases.py"), cases], check=True)
        for opt in ("-O0", "-O2"):
            exe = os.path.join(tmp, "test_numbers" + opt)
            r = subprocess.run(["cc", "-std=c11", opt, "-Wall", "-Wextra", "-Werror",
                                "-I" + os.path.join(ROOT, "runtime"), "-I" + tmp, "-o", exe,
                                os.path.join(C_DIR, "test_numbers.c"), "-lm"],
                               capture_output=True, text=True)
            if not check("number helpers build (%s)" % opt, r.returncode == 0, r.stderr):
                continue
            r = subprocess.run([exe], capture_output=True, text=True)
            last = (r.stdout.strip().splitlines() or [""])[-1]
            check("number helpers agree with CPython (%s): %s" % (opt, last), r.returncode == 0,
                  r.stdout[-3000:])


if __name__ == "__main__":
    main()
    done()
