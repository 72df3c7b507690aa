"""Runs every test suite and prints one closing line: `N passed, N failed`.

suite_install runs first, alone (it runs `make install` in the tree). Then
the other interpreter-independent suites (generator, C, export) run once,
under the first interpreter, beside the Python suites, which run under every
interpreter given with --python (each with its own build directory, `make`
builds one per interpreter): --jobs at a time (default: DYNAC_TEST_JOBS,
else the machine's cores, at most 2: each suite works in its own temporary
directories, and the longest start first, so the short ones fill in around
them). Exit status: 0 only when nothing failed.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import threading
import time

from harness import strict_cflags

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE_TIMEOUT = 600  # seconds: a hang is a failure, not a stuck CI (the slowest, suite_classes, takes
#                     ~220 s on a 2.1 GHz 2-core machine beside another suite)
ALONE = ["tests/suite_install.py"]  # `make install` in the tree: nothing else runs meanwhile
ONCE = ["tests/suite_generator.py", "tests/suite_c.py", "tests/suite_export.py"]
PER_PYTHON = ["tests/e2e/suite_differential.py", "tests/e2e/suite_resume.py",
              "tests/e2e/suite_runtime.py", "tests/e2e/suite_annotations.py",
              "tests/e2e/suite_stdlib.py", "tests/e2e/suite_containers.py",
              "tests/e2e/suite_objects.py", "tests/e2e/suite_programs.py", "tests/e2e/suite_classes.py",
              "tests/e2e/suite_records.py",
              "tests/e2e/suite_examples.py", "tests/e2e/suite_extension.py",
              "tests/e2e/suite_numpy.py", "tests/e2e/suite_fuzz.py", "tests/e2e/suite_workflow.py"]
# The longest suites (~90-220 s each on a 2.1 GHz 2-core machine), started first, longest
# first, so that the short ones fill in around them.
LONGEST = ["tests/e2e/suite_classes.py", "tests/suite_generator.py", "tests/e2e/suite_objects.py",
           "tests/e2e/suite_fuzz.py", "tests/e2e/suite_numpy.py", "tests/e2e/suite_programs.py",
           "tests/e2e/suite_workflow.py"]
# Suites that compile on first call; the others build explicitly and compare
# with the interpreter, so their decorated functions must not compile by themselves.
JIT_SUITES = {"tests/e2e/suite_workflow.py"}

# Suites run under CPython's debug allocator (PYTHONMALLOC=debug): freed
# memory is overwritten with a pattern, so a kernel that reads a list after
# its last reference went away crashes instead of reading stale data.
DEBUG_MALLOC = {"tests/e2e/suite_containers.py", "tests/e2e/suite_objects.py", "tests/e2e/suite_records.py"}


def run_suite(python, build, suite, label):
    env = dict(os.environ)
    if suite in DEBUG_MALLOC:
        env["PYTHONMALLOC"] = "debug"
    env["PYTHONPATH"] = os.path.join(ROOT, build) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DYNAC_LOGS", None)
    if suite not in JIT_SUITES:
        env["DYNAC_JIT"] = "0"
    env["CFLAGS"] = strict_cflags(env)  # every module a suite builds compiles clean
    t0 = time.time()
    try:
        p = subprocess.run([python, os.path.join(ROOT, suite)], capture_output=True, text=True,
                           env=env, cwd=ROOT, timeout=SUITE_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        p = subprocess.CompletedProcess(e.cmd, -1, out + "\nFAIL %s: timed out after %ds\n"
                                        % (suite, SUITE_TIMEOUT), "")
    passed = failed = 0
    report = []  # printed at once: suites running side by side do not interleave their lines
    for line in p.stdout.splitlines():
        if line.startswith("PASS "):
            passed += 1
        elif line.startswith("FAIL "):
            failed += 1
            report.append("  [%s] %s" % (label, line))
        elif line.startswith("     ") and failed:
            report.append("  [%s] %s" % (label, line))
    if p.returncode != 0 and failed == 0:
        failed += 1
        report.append("  [%s] FAIL %s exited with %d\n%s" % (label, suite, p.returncode, p.stderr[-3000:]))
    report.append("%-34s %-28s %4d passed, %d failed (%.1fs)" % (suite, label, passed, failed,
                                                               time.time() - t0))
    with PRINTING:
        print("\n".join(report), flush=True)
    return passed, failed


PRINTING = threading.Lock()


def default_jobs():
    env = os.environ.get("DYNAC_TEST_JOBS", "")
    return int(env) if env.isdigit() and int(env) > 0 else max(1, min(2, os.cpu_count() or 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", action="append", nargs=2, metavar=("EXE", "BUILD_DIR"),
                    help="an interpreter and its build/python-TAG directory")
    ap.add_argument("--jobs", type=int, default=default_jobs(),
                    help="per-interpreter suites run at a time (default: %(default)s)")
    args = ap.parse_args()
    pythons = args.python or [[sys.executable, "build/python-unknown"]]
    total_p = total_f = 0
    for suite in ALONE:
        p, f = run_suite(pythons[0][0], pythons[0][1], suite, "once")
        total_p, total_f = total_p + p, total_f + f
    runs = [(pythons[0][0], pythons[0][1], suite, "once") for suite in ONCE]
    for exe, build in pythons:
        version = subprocess.run([exe, "-c", "import sys; print(sys.version.split()[0])"],
                                 capture_output=True, text=True).stdout.strip()
        runs += [(exe, build, suite, "%s (%s)" % (exe, version)) for suite in PER_PYTHON]
    runs.sort(key=lambda r: LONGEST.index(r[2]) if r[2] in LONGEST else len(LONGEST))  # stable
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for p, f in pool.map(lambda r: run_suite(*r), runs):
            total_p, total_f = total_p + p, total_f + f
    print("%d passed, %d failed" % (total_p, total_f))
    return 1 if total_f else 0


sys.exit(main())
