"""The programs in examples/: each built with dynac, then run compiled and
eagerly (a copy with no artifact) on the same inputs; results must be
bit-identical (floats compared by repr of their bits), and the compiled
roots must have served calls."""
import glob
import math
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import ROOT, check, done, dynac_cmd, float_bits, load_module as load, missing_requirements  # noqa: E402

import dynac  # noqa: E402


def bits(v):
    if isinstance(v, float):
        return float_bits(v)
    if isinstance(v, (tuple, list)):
        return [bits(x) for x in v]
    return v


def main():
    tmp = tempfile.mkdtemp(prefix="dynac-examples-")
    try:
        names = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "examples", "*.py")))
        for d in ("c", "e"):
            os.makedirs(os.path.join(tmp, d))
            for n in names:
                shutil.copy(os.path.join(ROOT, "examples", n + ".py"), os.path.join(tmp, d))
        r = dynac_cmd("build", *[os.path.join(tmp, "c", n + ".py") for n in names])
        if not check("build examples (%d)" % len(names), r.returncode == 0 and "warning" not in r.stderr,
                     r.stderr + r.stdout):
            return
        dynac.reset_stats()
        for n in names:
            missing = missing_requirements(os.path.join(tmp, "e", n + ".py"))
            if missing:
                print("SKIP example %s: %s not importable under %s" % (n, ", ".join(missing), sys.executable))
                continue
            sys.path.insert(0, os.path.join(tmp, "c"))  # cross-example imports see the built copy
            try:
                c = load(os.path.join(tmp, "c", n + ".py"), n)
                e = load(os.path.join(tmp, "e", n + ".py"), n + "_eager")
                rc, re_ = c.run(*c.TEST_ARGS), e.run(*e.TEST_ARGS)
            finally:
                sys.path.pop(0)
            check("example %s: compiled == eager, bit for bit" % n, bits(rc) == bits(re_),
                  "compiled %r\neager    %r" % (str(rc)[:300], str(re_)[:300]))
            roots = [k for k, v in vars(c).items() if isinstance(v, dynac.CompiledFunction)]
            st = dynac.stats()
            unserved = [k for k in roots if st.get("%s.%s" % (n, k), {}).get("kernel_calls", 0) == 0
                        and st.get("%s.%s" % (n, k), {}).get("direct_calls", 0) == 0]
            check("example %s: kernels served every root (%s)" % (n, ", ".join(sorted(roots))),
                  roots and not unserved, "unserved: %r" % unserved)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
done()
