"""make sanitize: the runtime and the generated modules under
AddressSanitizer and UndefinedBehaviorSanitizer.

Run by the Makefile with the sanitized runtime first on PYTHONPATH,
CFLAGS carrying -fsanitize=... (so `dynac build` compiles every generated
module with it) and the sanitizers' runtimes preloaded (CPython itself is
not built with them). Runs the examples' differential suite, the
containers', resume, classes' and objects' suites (undo log, regions,
attribute caches, unpacking, constructions), and a fuzz
sample; a sanitizer report aborts the process, which the suites count as a
failure. As in `make test` (tests/run.py), the suites run with compiling
on first call off (DYNAC_JIT=0): they check what their builds serve. Ends
with one line `N passed, N failed`."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITES = [["tests/e2e/suite_examples.py"], ["tests/e2e/suite_containers.py"],
          ["tests/e2e/suite_resume.py"], ["tests/e2e/suite_differential.py"],
          ["tests/e2e/suite_classes.py"], ["tests/e2e/suite_objects.py"],
          ["tests/fuzz.py", "--seed", "7", "--modules", "20", "--calls", "20"]]


def selected(names):
    """The suites to run: all of SUITES, or those whose script name contains one of
    `names` (`make sanitize SANITIZE_ONLY=classes` runs suite_classes alone)."""
    if not names:
        return SUITES
    chosen = [s for s in SUITES if any(n in os.path.basename(s[0]) for n in names)]
    if not chosen:
        sys.exit("sanitize: no suite matches %s (suites: %s)"
                 % (" ".join(names), ", ".join(os.path.basename(s[0]) for s in SUITES)))
    return chosen


def main():
    passed = failed = 0
    for suite in selected(sys.argv[1:]):
        p = subprocess.run([sys.executable] + [os.path.join(ROOT, suite[0])] + suite[1:],
                           capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, DYNAC_JIT="0"))
        out = p.stdout + p.stderr
        reports = [l for l in out.splitlines() if "ERROR: AddressSanitizer" in l or "runtime error:" in l]
        fails = [l for l in p.stdout.splitlines() if l.startswith(("FAIL", "FINDING"))]
        ok = p.returncode == 0 and not reports and not fails
        print("%-36s %s" % (" ".join(suite), "clean" if ok else "FAILED (exit %d)" % p.returncode),
              flush=True)
        if not ok:
            print("\n".join((reports + fails)[:10]) or out[-3000:])
        passed, failed = passed + ok, failed + (not ok)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main())
