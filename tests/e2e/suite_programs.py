"""The class- and container-heavy programs in examples/programs/, as a user
runs them: eagerly (`python3 prog.py`), then `dynac record`, `dynac build
--all --profile`, `dynac run`. The outputs must be identical, and every
function and method a program names in HOT must be served whole by its
kernel (with DYNAC_GENERIC_KERNELS=1, so that generic-only kernels serve
too, and DYNAC_PARK=0: the frame hook's speed governor may leave rarely
served calls to the interpreter): kernel calls, no interpreter call, no
resume function."""
import ast
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import ROOT, check, done, dynac_cmd  # noqa: E402


def hot_names(path):
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "HOT" for t in node.targets):
            return ast.literal_eval(node.value)
    return []


def one(prog, tmp):
    name = os.path.basename(prog)[:-3]
    work = os.path.join(tmp, name)
    os.makedirs(work)
    src = os.path.join(work, name + ".py")
    shutil.copy(prog, src)
    prof, out, st = (os.path.join(work, n) for n in ("profile.json", "out", "stats.json"))
    eager = subprocess.run([sys.executable, src], capture_output=True, text=True, cwd=work)
    steps = [dynac_cmd("record", "-o", prof, src, cwd=work, check_rc=False),
             dynac_cmd("build", "--all", "--profile", prof, src, "-o", out, cwd=work, check_rc=False),
             dynac_cmd("run", "--path", out, "--stats", st, src, cwd=work, check_rc=False,
                       env={"DYNAC_GENERIC_KERNELS": "1", "DYNAC_PARK": "0"}),
             dynac_cmd("run", "--path", out, src, cwd=work, check_rc=False)]
    failed = [r for r in steps if r.returncode != 0]
    if not check("program %s: record, build --all --profile, run" % name,
                 eager.returncode == 0 and not failed and "warning" not in steps[1].stderr,
                 eager.stderr[-800:] + "".join(r.stderr[-1500:] for r in steps)):
        return
    for r, how in ((steps[2], "DYNAC_GENERIC_KERNELS=1 dynac run"), (steps[3], "dynac run")):
        check("program %s: %s prints what python3 prints" % (name, how), r.stdout == eager.stdout,
              "eager:\n%s\n%s:\n%s" % (eager.stdout[-600:], how, r.stdout[-600:]))
    stats = json.load(open(st)) if os.path.exists(st) else {}
    bad = {}
    for fn in hot_names(src):
        s = stats.get("__main__." + fn, {})
        served = s.get("kernel_calls", 0) + s.get("direct_calls", 0)
        if not served or s.get("interpreter_calls", 0) or s.get("resume_calls", 0):
            bad[fn] = {k: s.get(k) for k in ("kernel_calls", "direct_calls", "interpreter_calls",
                                              "resume_calls", "guard_failures")}
    check("program %s: every hot function and method served whole (%s)"
          % (name, ", ".join(hot_names(src))), not bad, json.dumps(bad, indent=1)[:2000])


def main():
    tmp = tempfile.mkdtemp(prefix="dynac-programs-")
    try:
        for prog in sorted(glob.glob(os.path.join(ROOT, "examples", "programs", "*.py"))):
            one(prog, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
