"""Acceptance: the interpreter's own, unmodified Lib/colorsys.py, recorded with
`python3 -m dynac record -m test test_colorsys`, built into a separate
directory, then `python3 -m dynac run --path DIR -m test test_colorsys`:
every test passes, and the dispatch counters show kernels (not the
interpreter) served the module's functions."""
import colorsys
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import check, done, dynac_cmd  # noqa: E402

FUNCS = ["rgb_to_yiq", "yiq_to_rgb", "rgb_to_hls", "hls_to_rgb", "_v", "rgb_to_hsv", "hsv_to_rgb"]


def main():
    tmp = tempfile.mkdtemp(prefix="dynac-colorsys-")
    try:
        prof, out, stats = (os.path.join(tmp, n) for n in ("profile.json", "out", "stats.json"))
        r = dynac_cmd("record", "-o", prof, "-m", "test", "test_colorsys", cwd=tmp)
        check("record -m test test_colorsys", r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:])
        r = dynac_cmd("build", colorsys.__file__, "--profile", prof, "-o", out, cwd=tmp)
        check("build colorsys.py from the profile", r.returncode == 0 and "7 of 7 functions compiled"
              in r.stderr, r.stderr)
        check("the stdlib tree is untouched", not os.path.exists(
            os.path.join(os.path.dirname(colorsys.__file__), "__dynac__")))
        r = dynac_cmd("run", "--path", out, "--stats", stats, "-m", "test", "test_colorsys", cwd=tmp)
        check("run: test_colorsys passes", r.returncode == 0 and "SUCCESS" in r.stdout
              and "1 test OK." in r.stdout, r.stdout[-2000:] + r.stderr[-2000:])
        s = json.load(open(stats)) if os.path.exists(stats) else {}
        for fn in FUNCS:
            c = s.get("colorsys." + fn, {})
            by_kernel = c.get("kernel_calls", 0) + c.get("direct_calls", 0)
            check("kernels served colorsys.%s" % fn,
                  by_kernel > 100 and by_kernel > 10 * c.get("interpreter_calls", 0),
                  "counters: %r" % (c,))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
done()
