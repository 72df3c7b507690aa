"""A short fixed-seed run of the differential fuzzer (tests/fuzz.py): every
module builds, every compared call agrees, and kernels serve most calls.
`make fuzz` runs the long version."""
import contextlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import check, done  # noqa: E402
import fuzz  # noqa: E402

MODULES = 25
SEED = 20261124


def main():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = fuzz.main(["--seed", str(SEED), "--modules", str(MODULES), "--calls", "30"])
    text = out.getvalue()
    findings = [line for line in text.splitlines() if line.startswith("FINDING")]
    summary = text.strip().splitlines()[-1] if text.strip() else ""
    check("fuzz seed %d, %d modules: no finding" % (SEED, MODULES), rc == 0 and not findings,
          "\n".join(text.splitlines()[:40]))
    served = float(summary.split("calls, ")[1].split("%")[0]) if "% served" in summary else 0.0
    check("fuzz: kernels served at least 30%% of the calls (%s)" % summary, served >= 30.0, summary)


main()
done()
