"""Acceptance: the interpreter's own, unmodified stdlib modules (Lib/colorsys.py,
and Lib/heapq.py and Lib/bisect.py with their C accelerators blocked the way
test_heapq and test_bisect block them), each recorded with `python3 -m dynac record -m test test_NAME`, built
into a separate directory, then `python3 -m dynac run --path DIR -m test
test_NAME`: every test passes, and the dispatch counters show kernels (not
the interpreter) served the module's functions. heapq's heaps hold ints,
floats, tuples, lists, strings and test classes: its kernels take them as
objects (the C API compares them). bisect's functions take keyword-only key
functions, hi=None, ranges, UserLists and test classes with Python-level
__len__/__getitem__/insert, and raise ValueError."""
import bisect
import colorsys
import heapq
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import check, done, dynac_cmd  # noqa: E402

# module, its functions the kernels must serve, the least calls they serve each, the build's count.
# The tests run with a fixed seed (-r --randseed: test_heapq draws its data at random), so the
# profile and the counts are the same every run; under it _heappop_max gets only 2 calls, so
# each heapq function needs one served call and the module as a whole 99% served by kernels.
SEED = ["-r", "--randseed", "1234"]
MODULES = [
    (colorsys, ["rgb_to_yiq", "yiq_to_rgb", "rgb_to_hls", "hls_to_rgb", "_v", "rgb_to_hsv",
                "hsv_to_rgb"], 100, "7 of 7 functions compiled"),
    (heapq, ["heappush", "heappop", "heapify", "heapreplace", "heappushpop", "_heappop_max",
             "_heapreplace_max", "_heapify_max", "_siftdown", "_siftup", "_siftdown_max",
             "_siftup_max"], 1, "14 of 15 functions compiled"),
    (bisect, ["bisect_left", "bisect_right", "insort_left", "insort_right"], 100,
     "4 of 4 functions compiled"),
]


def acceptance(mod, funcs, least, compiled):
    name = mod.__name__
    tmp = tempfile.mkdtemp(prefix="dynac-%s-" % name)
    try:
        prof, out, stats = (os.path.join(tmp, n) for n in ("profile.json", "out", "stats.json"))
        test = "test_" + name
        r = dynac_cmd("record", "-o", prof, "-m", "test", *SEED, test, cwd=tmp)
        check("record -m test %s" % test, r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:])
        r = dynac_cmd("build", mod.__file__, "--profile", prof, "-o", out, cwd=tmp)
        check("build %s.py from the profile (%s)" % (name, compiled),
              r.returncode == 0 and compiled in r.stderr, r.stderr)
        check("the stdlib tree is untouched", not os.path.exists(
            os.path.join(os.path.dirname(mod.__file__), "__dynac__")))
        # DYNAC_PARK=0: the frame hook stays installed, so that the kernels serve every call of the
        # stdlib's own tests (parked, the hook would leave unittest's many frames alone, and with them
        # calls of rarely tested functions: a speed decision this acceptance test must not depend on)
        r = dynac_cmd("run", "--path", out, "--stats", stats, "-m", "test", *SEED, test, cwd=tmp,
                      env={"DYNAC_PARK": "0"})
        check("run: %s passes" % test, r.returncode == 0 and "SUCCESS" in r.stdout
              and "1 test OK." in r.stdout, r.stdout[-2000:] + r.stderr[-2000:])
        s = json.load(open(stats)) if os.path.exists(stats) else {}
        counters = [s.get("%s.%s" % (name, fn), {}) for fn in funcs]
        served = sum(c.get("kernel_calls", 0) + c.get("direct_calls", 0) for c in counters)
        interpreted = sum(c.get("interpreter_calls", 0) for c in counters)
        check("kernels served 99%% of the calls of %s's functions (%d of %d)" % (
              name, served, served + interpreted), served > 0 and served >= 99 * interpreted)
        for fn in funcs:
            c = s.get("%s.%s" % (name, fn), {})
            by_kernel = c.get("kernel_calls", 0) + c.get("direct_calls", 0)
            check("kernels served %s.%s" % (name, fn),
                  by_kernel >= least and by_kernel > 10 * c.get("interpreter_calls", 0),
                  "counters: %r" % (c,))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


for m in MODULES:
    acceptance(*m)
done()
