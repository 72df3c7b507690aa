"""make sweep: the generator over every .py file of the interpreter's stdlib.

`dynac build --all-objects --emit-only --trusted-syntax` per file (tests included:
every function a root, what is not typed an object),
then `cc -fsyntax-only -Wall -Wextra -Werror` on each emitted C file. Counts crashes, hangs,
C that does not compile, functions, compiled functions, graph breaks, and
the most common break reasons. Exit status 1 on any crash, hang or C error.
"""
import collections
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, generator  # noqa: E402

GEN = generator()
INCLUDES = ["-I" + os.path.join(ROOT, "single_include"), "-I" + sysconfig.get_paths()["include"]]


def one(path, outdir):
    r = {"file": path, "crash": None, "c_error": None, "functions": 0, "compiled": 0, "whole": 0,
         "methods": 0, "methods_whole": 0, "breaks": []}
    try:
        b = subprocess.run([GEN, "build", "--all-objects", "--emit-only", "--trusted-syntax", path, "-o", outdir],
                           capture_output=True, text=True, timeout=60)
        if b.returncode < 0 or b.returncode > 1:
            r["crash"] = "exit %d: %s" % (b.returncode, b.stderr[-300:])
            return r
        e = subprocess.run([GEN, "explain", "--all-objects", "--json", "--trusted-syntax", path],
                           capture_output=True, text=True, timeout=60)
        if e.returncode < 0 or e.returncode > 1:
            r["crash"] = "explain exit %d" % e.returncode
            return r
    except subprocess.TimeoutExpired:
        r["crash"] = "timeout"
        return r
    for f in json.loads(e.stdout or "[]"):
        for fn in f["functions"]:
            method = "." in fn["qualname"] and "<locals>" not in fn["qualname"]
            whole = fn["compiled"] and not fn["partial"]
            r["functions"] += 1
            r["compiled"] += fn["compiled"]
            r["whole"] += whole
            r["methods"] += method
            r["methods_whole"] += method and whole
            r["breaks"] += ["%s %s" % (x["id"], x["type"]) for x in fn["graph_breaks"]]
    for c in os.listdir(outdir):
        if c.endswith(".c"):
            cc = subprocess.run(["cc", "-std=gnu11", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"] + INCLUDES + [os.path.join(outdir, c)],
                                capture_output=True, text=True)
            if cc.returncode:
                r["c_error"] = cc.stderr[-500:]
    return r


def main():
    stdlib = sysconfig.get_paths()["stdlib"]
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(stdlib) if "site-packages" not in d
                   for f in fs if f.endswith(".py"))
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        futs = [ex.submit(one, f, os.path.join(tmp, str(i))) for i, f in enumerate(files)]
        results = [f.result() for f in futs]
    crashes = [r for r in results if r["crash"]]
    c_errors = [r for r in results if r["c_error"]]
    reasons = collections.Counter(b for r in results for b in r["breaks"])
    fns = sum(r["functions"] for r in results)
    compiled = sum(r["compiled"] for r in results)
    whole = sum(r["whole"] for r in results)
    methods = sum(r["methods"] for r in results)
    methods_whole = sum(r["methods_whole"] for r in results)
    print("stdlib sweep of %s: %d files in %.0fs" % (stdlib, len(files), time.time() - t0))
    print("  crashes or hangs: %d, emitted C that does not compile: %d" % (len(crashes), len(c_errors)))
    print("  functions and methods: %d (methods %d); with --all-objects (what is not typed is an "
          "object):" % (fns, methods))
    print("    compiled whole: %d (%.1f%%; methods %d of %d), partially (graph breaks): %d"
          % (whole, 100.0 * whole / max(fns, 1), methods_whole, methods, compiled - whole))
    print("  graph breaks: %d (functions may have several)" % sum(reasons.values()))
    for reason, n in reasons.most_common(10):
        print("    %6d  %s" % (n, reason))
    for r in (crashes + c_errors)[:10]:
        print("  FAIL %s: %s" % (r["file"], r["crash"] or r["c_error"]))
    return 1 if crashes or c_errors else 0


sys.exit(main())
