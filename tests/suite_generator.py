"""The generator on its own: diagnostics, golden explain output, determinism,
valid templates, and a header that compiles warning-free."""
import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, case, check, done, generator  # noqa: E402

GEN = generator()
PY_INCLUDE = sysconfig.get_paths()["include"]
UPDATE = "--update" in sys.argv


def gen(*args, cwd=None):
    return subprocess.run([GEN] + list(args), capture_output=True, text=True, cwd=cwd)


def error_cases():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "errors", "*.py"))):
        name = os.path.basename(path)
        expects = re.findall(r"^# expect: (\d+):(\d+): (.*)$", open(path).read(), re.M)
        with tempfile.TemporaryDirectory() as tmp:
            r = gen("build", name, "-o", tmp, "--emit-only", cwd=os.path.dirname(path))
        missing = []
        for line, col, text in expects:
            head = "%s:%s:%s: %s" % (name, line, col, text)
            if head not in r.stderr:
                missing.append(head)
            src_line = open(path).read().splitlines()[int(line) - 1]
            if src_line.strip() and src_line.strip() not in r.stderr:
                missing.append("the source line %r" % src_line)
        check("error %s: exit status" % name, r.returncode == 1, "rc=%d" % r.returncode)
        check("error %s: file:line:col, source line, caret" % name,
              not missing and "^" in r.stderr and "Segmentation" not in r.stderr,
              "missing %s in:\n%s" % (missing, r.stderr))


@case
def deep_nesting_is_a_diagnostic():
    """7,000 terms of x + x + ..., 10,000 nots: a file:line:col error from the
    generator and from `python3 -m dynac build`, never a crash (the generator
    segfaulted) or a Python traceback."""
    from harness import dynac_cmd
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, expr in [("sum_chain", " + ".join(["x"] * 7000)), ("nots", "not " * 10000 + "x")]:
            path = os.path.join(tmp, name + ".py")
            open(path, "w").write("def f(x):\n    return %s\n" % expr)
            for cmd in ("build", "explain"):
                r = gen(cmd, "--all", path, "-o", tmp)
                if r.returncode != 1 or "%s.py:2:" % name not in r.stderr or \
                        "nested too deeply" not in r.stderr:
                    bad.append("%s %s: rc %d %s" % (cmd, name, r.returncode, r.stderr[-500:]))
            r = dynac_cmd("build", "--all", path, "-o", tmp)
            if r.returncode == 0 or "Traceback" in r.stderr or "error" not in r.stderr:
                bad.append("python -m dynac build %s: rc %d %s" % (name, r.returncode, r.stderr[-800:]))
    return not bad, "\n".join(bad)


@case
def long_functions_cost_linear_memory():
    """A function of 20,000 statements (rebinding one name; or 20,000 names):
    the generator's peak memory stays far below what quadratic growth took
    (3.3 GB for the first before: a copy of the locals per rebinding)."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, body in [("rebinds", ["    s = s + %d * n" % (i % 7) for i in range(20000)]),
                           ("names", ["    a%d = n * %d" % (i, i % 7) for i in range(20000)])]:
            path = os.path.join(tmp, name + ".py")
            open(path, "w").write("\n".join(["def f(n: int) -> int:", "    s = 0", "    a19999 = 0"]
                                            + body + ["    return s + a19999"]) + "\n")
            probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], "
                     "capture_output=True); print(r.returncode, "
                     "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
            r = subprocess.run([sys.executable, "-c", probe, GEN, "build", "--all", path, "-o", tmp,
                                "--emit-only"], capture_output=True, text=True)
            rc, kb = (r.stdout.split() + ["?", "0"])[:2]
            out.append((name, rc, int(kb) // 1024))
    return all(rc == "0" and mb < 400 for _, rc, mb in out), "(name, rc, peak MB): %r" % out


@case
def hostile_inputs_sample():
    """A few mutants of tests/stress.py (make stress runs 200 under ASan)."""
    import contextlib
    import io
    import stress
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = stress.main(["--seed", "3", "--mutants", "10"])
    return rc == 0, out.getvalue()[-3000:]


@case
def unreadable_inputs():
    with tempfile.TemporaryDirectory() as tmp:
        r1 = gen("build", os.path.join(tmp, "missing.py"), "-o", tmp)
        r2 = gen("build", tmp, "-o", tmp)  # a directory cannot be read as a file
        ok = (r1.returncode == 1 and "missing.py:1:1: error: cannot read this file" in r1.stderr
              and "No such file" in r1.stderr
              and r2.returncode == 1 and "cannot read this file" in r2.stderr)
        return ok, r1.stderr + r2.stderr


@case
def bad_profile():
    with tempfile.TemporaryDirectory() as tmp:
        prof = os.path.join(tmp, "p.json")
        open(prof, "w").write("{not json")
        src = os.path.join(ROOT, "tests", "golden", "breaks.py")
        r = gen("build", src, "--profile", prof, "-o", tmp)
        return r.returncode == 1 and "not a dynac profile" in r.stderr, r.stderr


@case
def usage_errors():
    r1 = gen("frobnicate")
    r2 = gen("build", "--bogus", "x.py")
    r3 = gen("--version")
    return (r1.returncode == 2 and "unknown command" in r1.stderr and r2.returncode == 2
            and "unknown option '--bogus'" in r2.stderr and r3.stdout.startswith("dynac ")), r1.stderr + r2.stderr


def golden_check(what, expected_path, out, ok):
    """Compares out with the expected file (written first, or by --update)."""
    if UPDATE or not os.path.exists(expected_path):
        open(expected_path, "w").write(out)
    expected = open(expected_path).read()
    check(what, ok and out == expected, "diff against %s:\n%s" % (expected_path, "".join(
        "%s\n" % l for l in __import__("difflib").unified_diff(
            expected.splitlines(), out.splitlines(), lineterm=""))[:3000]))


def golden_cases():
    """Each tests/golden/NAME.py with its expected explain output (NAME.explain),
    typed IR (NAME.ir) and generated C (NAME.expected.c), compared exactly;
    the expected C also compiles under -Wall -Wextra -Werror."""
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "*.py"))):
        name = os.path.basename(path)
        r = gen("explain", "--trusted-syntax", name, cwd=os.path.dirname(path))
        out = "\n".join(l for l in r.stdout.splitlines() if not l.startswith("compile times")) + "\n"
        golden_check("golden explain %s" % name, path[:-3] + ".explain", out, r.returncode == 0)
        r = gen("ir", "--trusted-syntax", "--all", name, cwd=os.path.dirname(path))
        golden_check("golden ir %s" % name, path[:-3] + ".ir", r.stdout, r.returncode == 0)
        with tempfile.TemporaryDirectory() as tmp:
            r = gen("build", "--trusted-syntax", "--all", "--emit-only", name, "-o", tmp,
                    cwd=os.path.dirname(path))
            c_path = os.path.join(tmp, name[:-3] + "__dynac.c")
            c = open(c_path).read() if os.path.exists(c_path) else ""
            cc = subprocess.run(["cc", "-std=gnu11", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
                                 "-I" + os.path.join(ROOT, "single_include"), "-I" + PY_INCLUDE] +
                                [c_path], capture_output=True, text=True)
        golden_check("golden C %s" % name, path[:-3] + ".expected.c", c, r.returncode == 0)
        check("golden C %s compiles clean" % name, cc.returncode == 0, cc.stderr[:3000])


@case
def explain_json_agrees_with_text():
    """--json lists the functions the text does, each compiled or with the
    text's reason (a reason was missing where the text gave one)."""
    import json
    src = os.path.join(ROOT, "tests", "golden", "every_function.py")
    text = gen("explain", src).stdout
    data = json.loads(gen("explain", src, "--json").stdout)[0]["functions"]
    bad = [f["qualname"] for f in data
           if "\n%s (%s:%d): %s" % (f["qualname"], src, f["line"], f["status"]) not in text
           or (not f["compiled"] and not f.get("reason"))]
    header = "%s: %d functions" % (src, len(data))
    return not bad and header in text and len(data) == 7, (bad, header, text[:300])


FRAME_SRC = """import dynac

@dynac.compile
def uses_locals(k: int):
    x = k * 2
    return sorted(locals()), x

@dynac.compile
def uses_globals(k: int):
    return "uses_globals" in globals(), k

@dynac.compile
def uses_eval(k: int):
    return eval("k + 1")

@dynac.compile
def uses_exec(k: int):
    exec("print(k)")
    return k

@dynac.compile
def uses_vars(k: int):
    return vars()["k"]

@dynac.compile
def explicit_namespace(k: int):
    return eval("k + 1", {"k": k})
"""


@case
def frame_reading_builtins_break():
    """locals(), globals(), eval()/exec() without a namespace, vars()/dir()/super() without
    arguments read the frame that calls them: a kernel has none of its own (it would read
    its caller's), and a resume function's frame holds other locals, so such a function
    runs in the interpreter whole; eval() given its globals compiles."""
    import json
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "frames.py")
        open(src, "w").write(FRAME_SRC)
        data = {f["qualname"]: f for f in json.loads(gen("explain", src, "--json").stdout)[0]["functions"]}
    bad = [q for q, f in data.items() if q != "explicit_namespace" and
           (f["compiled"] or f["partial"] or not f["graph_breaks"] or
            "reads the calling frame" not in f["graph_breaks"][0]["reason"])]
    return not bad and len(data) == 6 and data["explicit_namespace"]["compiled"], (bad, data)


CLASS_SRC = """
def once(k: object):
    class C:
        v = k
    return C


def loop(n: int):
    out = []
    for i in range(n):
        class C:
            v = i  # the body reads a loop variable: a cell of the kernel's own
        out.append(C)
    return out


def param_rebound(k: object):
    def g():
        return k
    k = 2  # a parameter captured and rebound: its cell would change under the closure
    return g


def two_genexprs(xs: object):
    return zip((x for x in xs), (-x for x in xs))  # one line: code objects told apart by column
"""


COMPREHENSION_LAMBDAS_SRC = """
KEYS = [lambda: i for i in range(3)]


def rows_of(rows, k):
    a = [sorted(r, key=lambda v: -v) for r in rows if (lambda: k)()]
    b = {x: [(lambda: k)() for y in (lambda: rows)()] for x in range(2)}
    return a, b, sum((lambda: k)() for _ in rows), {(lambda: 1) for _ in (lambda: rows)()}


class Table:
    order = [lambda: 0 for _ in range(1)]

    def cells(self, rows):
        return [[lambda c=c: c for c in row] for row in rows]
"""


@case
def explain_names_lambdas_in_comprehensions():
    """explain names every lambda inside a comprehension by CPython's qualname (the comprehension's
    code between: <listcomp>, <dictcomp>, <genexpr>; its first iterable is the enclosing scope's)."""
    import json
    import types
    def qualnames(code):
        for c in code.co_consts:
            if isinstance(c, types.CodeType):
                if c.co_name == "<lambda>":
                    yield c.co_qualname, c.co_firstlineno
                yield from qualnames(c)
    expected = sorted(qualnames(compile(COMPREHENSION_LAMBDAS_SRC, "lams.py", "exec")))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "lams.py")
        open(src, "w").write(COMPREHENSION_LAMBDAS_SRC)
        data = json.loads(gen("explain", src, "--json").stdout)[0]["functions"]
    got = sorted((f["qualname"], f["line"]) for f in data if f["qualname"].endswith("<lambda>"))
    return got == expected, "explain %r\nCPython %r" % (got, expected)


CELLS_SRC = """
def outer():
    x = 0
    def bump():
        nonlocal x
        x = x + 1  # a store into a cell, in a kernel with no typed island
        return x.real
    for k in range(3):
        def g():
            return k  # k: a cell of outer's own
    ks = [k for k in range(2)]  # the comprehension's own k, not the cell
    return bump, g, ks
"""


@case
def cells_beside_other_names():
    """Stores into cells in generic-only kernels and a comprehension variable named as a cell
    variable of the function (regressions: both crashed the generator)."""
    import json
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "cells.py")
        open(src, "w").write(CELLS_SRC)
        r = gen("explain", src, "--json", "--all-objects")
    if r.returncode not in (0, 1):
        return False, r.returncode, r.stderr
    data = {f["qualname"]: f for f in json.loads(r.stdout)[0]["functions"]}
    return all(data[q]["compiled"] and not data[q]["graph_breaks"]
               for q in ["outer", "outer.<locals>.bump", "outer.<locals>.g"]), data


@case
def class_statement_in_function():
    """A class statement inside a function compiles (__build_class__ as a call), also one whose
    body reads a local the function rebinds (a cell of the kernel's own); a closure of a parameter
    the function rebinds is a break that names it. Two generator expressions on one line compile
    (the runtime finds their code objects by line and column)."""
    import json
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "classes.py")
        open(src, "w").write(CLASS_SRC)
        data = {f["qualname"]: f for f in json.loads(gen("explain", src, "--json").stdout)[0]["functions"]}
    once, loop, two, param = data["once"], data["loop"], data["two_genexprs"], data["param_rebound"]
    return (once["compiled"] and not once["graph_breaks"] and loop["compiled"] and not loop["graph_breaks"] and
            param["graph_breaks"] and "a nested function capturing 'k'" in param["graph_breaks"][0]["reason"] and
            two["compiled"] and not two["graph_breaks"]), data


@case
def explain_json():
    import json
    src = os.path.join(ROOT, "tests", "golden", "breaks.py")
    r = gen("explain", src, "--json")
    data = json.loads(r.stdout)[0]
    breaks = [b for f in data["functions"] for b in f["graph_breaks"]]
    ok = (data["graph_break_count"] == len(breaks) and breaks
          and all({"id", "type", "line", "col", "source", "reason", "hint"} <= set(b) for b in breaks)
          and set(data["compile_times_ms"]) >= {"parse", "scope", "annotations", "infer"})
    return ok, r.stdout[:2000]


LINES_SRC = """import dynac

@dynac.compile
def mixed(s: object, n: int) -> float:
    t = 0.0
    for i in range(n):
        t += i * 0.5
    s.a = s.a + 1
    return t + s.a

@dynac.compile
def broken(n: int) -> float:
    t = 0.0
    for i in range(n):
        t += i
    dynac.graph_break()
    # a comment
    for i in range(n):
        t -= i
    return t

def plain(x):
    return x + 1

def kw_target(a, b, c=0.5):
    return a * 2.0 - b + c

def kw_loud(v):
    return v

@dynac.compile
def kw_calls(x: float, y: float) -> float:
    r = kw_target(b=kw_loud(x), a=kw_loud(y))
    return r + kw_target(x, b=y)
"""


@case
def explain_lines():
    """explain --lines marks each line T (typed), G (through the C API,
    saying why: for a module function called so, why it is not called
    directly) or I (interpreted: a break, outside the regions of a
    partially compiled function, or a function not compiled)."""
    import re
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "lines.py")
        with open(src, "w") as f:
            f.write(LINES_SRC)
        r = gen("explain", src, "--lines")
    marks = {int(m.group(1)): (m.group(2), m.group(3)) for m in
             re.finditer(r"^ +(\d+) ([TGI ]) \| .*?(?:   # (.*))?$", r.stdout, re.M)}
    want = {5: "T", 6: "T", 7: "T", 8: "G", 9: "G", 13: "T", 14: "T", 15: "T", 16: "I", 17: " ",
            18: "T", 19: "T", 20: "T", 23: "I", 33: "G"}
    got = {line: marks.get(line, ("?",))[0] for line in want}
    why = {line: marks.get(line, (None, None))[1] or "" for line in (8, 16, 23, 33)}
    ok = (r.returncode == 0 and got == want and "object of unknown class" in why[8]
          and "graph break GB" in why[16] and "not compiled" in why[23] and
          "kw_target() called through the C API: keywords out of its parameters' order" in why[33])
    return ok, (got, why, r.stdout[-2500:])


@case
def deterministic_output():
    src = os.path.join(ROOT, "tests", "e2e", "corpus.py")
    outs = []
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("a", "b"):
            r = gen("build", src, "-o", os.path.join(tmp, d))
            if r.returncode:
                return False, r.stderr
            files = sorted(os.listdir(os.path.join(tmp, d)))
            outs.append({f: open(os.path.join(tmp, d, f), "rb").read() for f in files})
    return outs[0] == outs[1] and len(outs[0]) == 2, "outputs differ: %s" % [
        f for f in outs[0] if outs[0][f] != outs[1].get(f)]


@case
def generated_c_is_readable_and_clean():
    """Each statement is headed by its source line; the C compiles with -Werror."""
    src = os.path.join(ROOT, "tests", "e2e", "corpus.py")
    with tempfile.TemporaryDirectory() as tmp:
        r = gen("build", src, "-o", tmp, "--emit-only")
        c = open(os.path.join(tmp, "corpus__dynac.c")).read()
        cc = subprocess.run(["cc", "-std=gnu11", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
                             "-I" + os.path.join(ROOT, "single_include"), "-I" + PY_INCLUDE,
                             os.path.join(tmp, "corpus__dynac.c")], capture_output=True, text=True)
    lines = open(src).read().splitlines()
    ln = lines.index("    return a + b") + 1
    ok = (r.returncode == 0 and "/* corpus.py:%d: return a + b */" % ln in c
          and c.startswith("/* Generated by dynac from corpus.py") and cc.returncode == 0)
    return ok, r.stderr + cc.stderr[:3000]


INLINING_SRC = """
def leaf(a: float) -> float:
    return a * 2.0


def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def even(n: int) -> bool:
    return True if n == 0 else odd(n - 1)


def odd(n: int) -> bool:
    return False if n == 0 else even(n - 1)


def once(a: float) -> float:
    b = a + 1.0
    if b > 3.0:
        b = b * b
    return b + leaf(b)


def twice(a: float) -> float:
    b = a + 1.0
    c = b * b
    d = c - a
    return d


def three(a: float) -> float:
    b = a + 1.0
    c = b * b
    return c


def user(a: float) -> float:
    t = 0.0
    for i in range(3):
        t += once(a) + twice(a) + three(a)
    return t


def other(a: float) -> float:
    return twice(a) - three(a)
"""


@case
def small_kernels_always_inlined():
    """A one-statement kernel, a leaf of three, or a few statements with one
    caller is always inlined; a recursive one (fib, even/odd) never (GCC
    would refuse the attribute); four statements with two callers stay a
    call. The module builds at -O2."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "inl.py")
        open(src, "w").write(INLINING_SRC)
        r = gen("build", src, "--all", "-o", tmp, "--emit-only")
        c = open(os.path.join(tmp, "inl__dynac.c")).read() if r.returncode == 0 else ""
        built = gen("build", src, "--all", "-o", tmp)
    marked = set(re.findall(r"DYNAC_ALWAYS_INLINE int dynac_kernel_([a-z]+)__", c))
    ok = marked == {"leaf", "once", "three"} and built.returncode == 0
    return ok, "always inlined: %s\n%s%s" % (sorted(marked), r.stderr, built.stderr[:2000])


@case
def templates_are_valid_c():
    errs = []
    # export.c is filled into identifiers (/*@ P @*/_view): suite_export compiles its output
    for t in sorted(glob.glob(os.path.join(ROOT, "templates", "*.c"))):
        if os.path.basename(t).startswith("export"):
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".c") as f:
            f.write('#include "dynac.h"\n' + open(t).read())
            f.flush()
            r = subprocess.run(["cc", "-std=gnu11", "-fsyntax-only", "-I" + os.path.join(ROOT, "single_include"),
                                "-I" + PY_INCLUDE, f.name], capture_output=True, text=True)
            if r.returncode:
                errs.append("%s: %s" % (t, r.stderr))
    return not errs, "\n".join(errs)


@case
def build_times_every_phase():
    """dynac build --times: one line per file with each phase the driver ran, in order
    (emit-only: no cc); the ir phase is timed apart from infer, the analyses apart from emit."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.py")
        open(path, "w").write("def f(n: int) -> int:\n    return n * 2\n")
        r = subprocess.run([generator(), "build", "--all", "--emit-only", "--times", path, "-o", tmp],
                           capture_output=True, text=True)
    line = next((l for l in r.stderr.splitlines() if "compile times (ms):" in l), "")
    names = re.findall(r"(\w+) [0-9.]+", line.split("(ms):")[-1])
    return r.returncode == 0 and names == ["parse", "scope", "annotations", "ir", "infer", "analyses", "emit"], r.stderr


@case
def header_is_assembled_from_runtime_parts():
    """single_include/dynac.h is exactly what runtime/*.h make (scripts/single_include.py):
    an edit to the committed header alone, or to a part without `make single_include`, fails."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "single_include.py"), "--check"],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


@case
def header_plain_c_block_needs_no_python():
    """dynac.h's plain-C part (runtime/plain_c.h, copied by `dynac export`)
    compiles with the C library alone, as C11 and C++17, warning-free."""
    h = open(os.path.join(ROOT, "single_include", "dynac.h")).read()
    block = h[h.index("/* ==== Begin runtime/plain_c.h ==== */"):h.index("/* ==== End runtime/plain_c.h ==== */")]
    errs = []
    with tempfile.TemporaryDirectory() as tmp:
        for lang, cc, std in (("c", "cc", "-std=c11"), ("c++", "g++", "-std=c++17")):
            src = os.path.join(tmp, "plain." + ("c" if lang == "c" else "cpp"))
            open(src, "w").write("#include <float.h>\n#include <math.h>\n#include <stdbool.h>\n"
                                 "#include <stdint.h>\n#include <string.h>\n" + block +
                                 "\nint main(void) { int64_t r; return dynac_int_add(1, 2, &r) + "
                                 "dynac_fail_describe(DYNAC_FAIL_INDEX).exc; }\n")
            r = subprocess.run([cc, std, "-Wall", "-Wextra", "-Werror", "-o", os.path.join(tmp, "p"),
                                src, "-lm"], capture_output=True, text=True)
            if r.returncode:
                errs.append(lang + ": " + r.stderr)
    return not errs and "Py" not in block.replace("Python", ""), "\n".join(errs)


@case
def header_two_translation_units():
    """-Wall -Wextra -Werror as C11 and as C++17; only one TU defines DYNAC_IMPLEMENTATION."""
    with tempfile.TemporaryDirectory() as tmp:
        open(os.path.join(tmp, "a.c"), "w").write(
            '#define DYNAC_IMPLEMENTATION\n#include "dynac.h"\nint use_b(void);\n'
            'int use_a(void) { return dynac_init() + use_b(); }\n')
        open(os.path.join(tmp, "b.c"), "w").write(
            '#include "dynac.h"\nint use_b(void) { int64_t r; return dynac_int_add(1, 2, &r) + '
            'dynac_hook_acquire(); }\n')
        # a third TU of an extension using the package's runtime through its API table
        open(os.path.join(tmp, "c.c"), "w").write(
            '#define DYNAC_SHARED\n#include "dynac.h"\nint use_c(void) { return dynac_import() '
            '|| dynac_hook_acquire(); }\n')
        r = subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared",
                            "-I" + os.path.join(ROOT, "single_include"), "-I" + PY_INCLUDE,
                            os.path.join(tmp, "a.c"), os.path.join(tmp, "b.c"),
                            os.path.join(tmp, "c.c"),
                            "-o", os.path.join(tmp, "t.so")], capture_output=True, text=True)
        for f in ("a", "b", "c"):  # the same program as C++
            shutil.copy(os.path.join(tmp, f + ".c"), os.path.join(tmp, f + ".cpp"))
        rpp = subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared",
                              "-I" + os.path.join(ROOT, "single_include"), "-I" + PY_INCLUDE,
                              os.path.join(tmp, "a.cpp"), os.path.join(tmp, "b.cpp"),
                              os.path.join(tmp, "c.cpp"),
                              "-o", os.path.join(tmp, "tpp.so")], capture_output=True, text=True)
        # a private runtime: DYNAC_STATIC + DYNAC_IMPLEMENTATION in one extension
        open(os.path.join(tmp, "s.c"), "w").write(
            '#define DYNAC_STATIC\n#define DYNAC_IMPLEMENTATION\n#include "dynac.h"\n'
            'int use_s(void) { return dynac_init(); }\n')
        rs = subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-fPIC", "-c",
                             "-I" + os.path.join(ROOT, "single_include"), "-I" + PY_INCLUDE,
                             os.path.join(tmp, "s.c"), "-o", os.path.join(tmp, "s.o")],
                            capture_output=True, text=True)
    return r.returncode == rpp.returncode == rs.returncode == 0, (r.stderr + rpp.stderr + rs.stderr)[:3000]


error_cases()
golden_cases()
done()
