"""The generator under hostile input: stdlib files mutated (lines deleted
or duplicated, truncated, invalid UTF-8, NUL bytes, a very long line,
deep nesting, a 100,000-line file) through `dynac build --all` and
`dynac explain --all`: no signal, no hang, no internal error; a refusal
is a file:line:col diagnostic with exit status 1.

    python3 tests/stress.py [--seed S] [--mutants N]   (make stress; a few run in make test)
"""
import argparse
import os
import random
import re
import subprocess
import sys
import sysconfig
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import generator  # noqa: E402

GEN = generator()
STDLIB = sysconfig.get_paths()["stdlib"]
FILES = ["colorsys.py", "heapq.py", "bisect.py", "statistics.py", "fractions.py", "random.py",
         "textwrap.py", "json/decoder.py", "difflib.py", "calendar.py"]


def mutate(rng, text):
    """One mutant of `text` (bytes) and what was done to it."""
    lines = text.split(b"\n")
    k = rng.randrange(9)
    if k == 0:
        for _ in range(rng.randrange(1, 20)):
            if lines:
                del lines[rng.randrange(len(lines))]
        return b"\n".join(lines), "deleted lines"
    if k == 1:
        for _ in range(rng.randrange(1, 20)):
            i = rng.randrange(len(lines))
            lines.insert(i, lines[rng.randrange(len(lines))])
        return b"\n".join(lines), "duplicated lines"
    if k == 2:
        return text[:rng.randrange(len(text))], "truncated"
    if k == 3:
        i = rng.randrange(len(text))
        return text[:i] + bytes([0xff, 0xfe, 0xc3]) + text[i:], "invalid UTF-8"
    if k == 4:
        i = rng.randrange(len(text))
        return text[:i] + b"\0" + text[i:], "a NUL byte"
    if k == 5:
        long = b"x = " + b" + ".join(b"1" for _ in range(rng.choice([10, 800, 50000]))) + b"\n"
        return text + b"\n" + long, "a very long line"
    if k == 6:
        depth = rng.choice([50, 500, 5000])
        body = b"".join(b"    " * i + b"if x:\n" for i in range(depth)) + b"    " * depth + b"pass\n"
        return text + b"\ndef deep(x):\n" + b"\n".join(b"    " + l for l in body.split(b"\n")), \
            "%d nested blocks" % depth
    if k == 7:
        reps = 100000 // max(1, len(lines)) + 1
        return b"\n".join(lines * reps), "%d lines" % (len(lines) * reps)
    i = rng.randrange(len(text))
    return text[:i] + b"(" * rng.choice([3, 300, 3000]) + text[i:], "unbalanced parentheses"


def run(args, timeout):
    try:
        return subprocess.run([GEN] + args, capture_output=True, text=True, errors="replace",
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def own_lines(stderr):
    """The generator's own lines in stderr, without the source lines and
    carets its diagnostics quote (a quoted comment may say "internal")."""
    return "\n".join(line for line in stderr.splitlines() if not re.match(r"\s*\d*\s*\|", line))


def check_one(path, tmp, what):
    """The problems running the generator on `path` showed (empty: none)."""
    problems = []
    for args in (["build", "--all", "--emit-only", path, "-o", tmp], ["explain", "--all", path]):
        r = run(args, 120)
        if r is None:
            problems.append("%s: hang (over 120 s) on %s" % (args[0], what))
        elif r.returncode < 0 or r.returncode > 1:
            problems.append("%s: exit %d on %s: %s" % (args[0], r.returncode, what, r.stderr[-400:]))
        elif "internal" in own_lines(r.stderr).lower():
            problems.append("%s: internal error on %s: %s" % (args[0], what, r.stderr[-400:]))
        elif r.returncode == 1 and ": error: " not in r.stderr:
            problems.append("%s: exit 1 without a file:line:col error on %s: %s"
                            % (args[0], what, r.stderr[-400:]))
    return problems


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mutants", type=int, default=200)
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    sources = [open(os.path.join(STDLIB, f), "rb").read() for f in FILES
               if os.path.exists(os.path.join(STDLIB, f))]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(a.mutants):
            text, what = mutate(rng, rng.choice(sources))
            path = os.path.join(tmp, "mutant%d.py" % n)
            with open(path, "wb") as f:
                f.write(text)
            for p in check_one(path, tmp, what):
                bad += 1
                print("PROBLEM mutant %d (seed %d): %s" % (n, a.seed, p), flush=True)
            os.unlink(path)
    print("stress: seed %d: %d mutants, %d problems" % (a.seed, a.mutants, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
