"""`dynac export`: plain C with no Python, checked against CPython.

- the corpus (tests/export/corpus.py) is exported, a C driver calls each
  function on the inputs of CALLS, and every result (float bits), exception,
  message, line and array content equals CPython's, except the REPORTED
  calls, where CPython returns what the C types cannot hold and C reports it;
- examples/export builds with plain cc and prints what CPython prints;
- the output includes no Python header, links without libpython, is
  deterministic, and its header compiles as C11 and C++;
- what cannot be exported is refused with file:line:col and the reason."""
import importlib.util
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from array import array

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, case, check, done, generator  # noqa: E402

GEN = generator()
CORPUS = os.path.join(ROOT, "tests", "export", "corpus.py")
CFLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"]


def load(path):
    spec = importlib.util.spec_from_file_location("corpus_export", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def export(src, out, *extra):
    return subprocess.run([GEN, "export", src, "-o", out] + list(extra), capture_output=True,
                          text=True)


# ---- the Python side: the same line format the C driver prints ------------
def bits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


def show(v):
    if isinstance(v, tuple):
        return "(" + " ".join(show(x) for x in v) + ")"
    if isinstance(v, bool):
        return "b%d" % v
    if isinstance(v, int):
        return "i%d" % v
    if isinstance(v, float):
        return "f" + bits(v)
    return "None" if v is None else "?" + repr(v)


def make_arg(a):
    if not isinstance(a, tuple):
        return a
    kind, items = a
    if kind == "mv":
        return memoryview(array("d", [x for v in items for x in (v, -1.0)]))[::2]
    if kind == "Y":
        return bytearray(items)
    return array(kind, items)


def show_array(a):
    if isinstance(a, bytearray):
        return "[" + " ".join("i%d" % x for x in a) + "]"
    return "[" + " ".join(show(x) for x in a) + "]"


def python_line(mod, name, args):
    made = [make_arg(a) for a in args]
    try:
        r = "ok " + show(getattr(mod, name)(*made))
    except Exception as e:
        tb = e.__traceback__
        while tb.tb_next:
            tb = tb.tb_next
        r = "error %s|%s|%d" % (type(e).__name__, e, tb.tb_lineno)
    for a in made:
        if isinstance(a, (array, bytearray, memoryview)):
            r += " " + show_array(a)
    return r


# ---- the C side -------------------------------------------------------------
def c_ret_decl(ret):
    """(declaration, printer) of a result of Python type text `ret`."""
    if ret.startswith("tuple["):
        parts = [p.strip() for p in ret[6:-1].split(",")]
        code = "T%d" % len(parts) + "".join({"float": "f", "int": "i", "bool": "b"}[p] for p in parts)
        fields = ' printf(" "); '.join(c_show("r.v%d" % i, p) for i, p in enumerate(parts))
        return "corpus_%s r;" % code, 'printf("ok ("); ' + fields + ' printf(")");'
    return {"float": "double r;", "int": "int64_t r;", "bool": "bool r;"}[ret], \
        'printf("ok "); ' + c_show("r", ret)


def c_show(v, t):
    if t == "float":
        return '{ uint64_t u; memcpy(&u, &%s, 8); printf("f%%016llx", (unsigned long long)u); }' % v
    if t == "int":
        return 'printf("i%%lld", (long long)%s);' % v
    return 'printf("b%%d", (int)%s);' % v


def c_call(k, name, args, params, ret):
    out = ["  { /* %s%r */" % (name, args), "    corpus_status st;"]
    cargs, after = [], []
    for j, (a, (pname, ptype)) in enumerate(zip(args, params)):
        if isinstance(a, tuple):
            kind, items = a
            if kind == "mv":
                vals = [x for v in items for x in (v, -1.0)]
                ctype, n, stride, n_items = "double", len(items), 16, len(vals)
            elif kind == "Y":
                vals, ctype, n, stride, n_items = list(items), "unsigned char", len(items), 1, len(items)
            else:
                ctype = {"d": "double", "b": "signed char"}[kind]
                vals, n, stride, n_items = items, len(items), "sizeof(%s)" % ctype, len(items)
            init = ", ".join(float_c(v) if ctype == "double" else str(v) for v in vals) or "0"
            out.append("    %s a%d[%d] = {%s};" % (ctype, j, max(n_items, 1), init))
            out.append("    corpus_view v%d = {(char *)a%d, %d, (int64_t)%s, 0};" % (j, j, n, stride))
            cargs.append("&v%d" % j)
            show_item = c_show("a%d[q]" % j, "float") if ctype == "double" else \
                'printf("i%%d", (int)a%d[q]);' % j
            step = 2 if kind == "mv" else 1
            after.append('    printf(" ["); for (int q = 0; q < %d; q += %d) { if (q) printf(" "); %s } '
                         'printf("]");' % (n_items, step, show_item))
        else:
            cargs.append(float_c(a) if isinstance(a, float) else "INT64_C(%d)" % a
                         if a != -2 ** 63 else "INT64_MIN")
    has_ret = ret != "None"
    if has_ret:
        decl, printer = c_ret_decl(ret)
        out.append("    " + decl)
        cargs.append("&r")
    cargs.append("&st")
    out.append("    if (corpus_%s(%s) == CORPUS_OK) { %s }" % (
        name, ", ".join(cargs), printer if has_ret else 'printf("ok None");'))
    out.append('    else printf("error %s|%s|%d", st.exception, st.message, st.line);')
    out += after
    out.append('    printf("\\n");\n  }')
    return "\n".join(out)


def float_c(v):
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "HUGE_VAL" if v > 0 else "(-HUGE_VAL)"
    return repr(v)


def signatures(src):
    """{name: ([(param, type)], return type)} from the annotations."""
    sigs = {}
    for m in re.finditer(r"^def (\w+)\((.*?)\) -> (.*?):$", open(src).read(), re.M | re.S):
        params = [tuple(x.strip() for x in p.split(":", 1)) for p in
                  re.split(r",\s*(?![^\[]*\])", m.group(2)) if p.strip()]
        sigs[m.group(1)] = (params, m.group(3))
    return sigs


@case
def corpus_against_cpython():
    mod = load(CORPUS)
    sigs = signatures(CORPUS)
    with tempfile.TemporaryDirectory() as tmp:
        r = export(CORPUS, tmp)
        if r.returncode:
            return False, r.stderr
        body = "\n".join(c_call(k, name, args, *sigs[name]) for k, (name, args) in enumerate(mod.CALLS))
        driver = os.path.join(tmp, "driver.c")
        open(driver, "w").write('#include <math.h>\n#include <stdio.h>\n#include <string.h>\n'
                                '#include "corpus.h"\nint main(void) {\n%s\n  return 0;\n}\n' % body)
        b = subprocess.run(["cc"] + CFLAGS + ["-I", tmp, driver, os.path.join(tmp, "corpus.c"),
                            "-lm", "-o", os.path.join(tmp, "driver")], capture_output=True, text=True)
        if b.returncode:
            return False, b.stderr[-3000:]
        c_lines = subprocess.run([os.path.join(tmp, "driver")], capture_output=True,
                                 text=True).stdout.splitlines()
    seen = {}
    bad = []
    for (name, args), c_line in zip(mod.CALLS, c_lines):
        k = seen[name] = seen.get(name, -1) + 1
        py_line = python_line(mod, name, args)
        want = mod.REPORTED.get((name, k))
        if want:
            ok = c_line.startswith("error %s|" % want) and py_line.startswith("ok ")
        elif name == "store_small" and py_line.startswith("error"):  # message: see the header
            ok = c_line.split("|")[0] == py_line.split("|")[0] and c_line[-5:] == py_line[-5:]
        else:
            ok = c_line == py_line
        if not ok:
            bad.append("%s%r:\n  C:      %s\n  Python: %s" % (name, args, c_line, py_line))
    ok = not bad and len(c_lines) == len(mod.CALLS)
    return ok, "%d of %d calls differ\n%s" % (len(bad), len(mod.CALLS), "\n".join(bad[:12]))


@case
def example_model_matches_cpython():
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["make", "-s", "-C", os.path.join(ROOT, "examples", "export"), "check",
                            "BUILD=" + tmp, "DYNAC=" + GEN, "PYTHON=" + sys.executable],
                           capture_output=True, text=True)
        out = open(os.path.join(tmp, "c.txt")).read() if os.path.exists(os.path.join(tmp, "c.txt")) else ""
    ok = r.returncode == 0 and "identical: C and CPython" in r.stdout and "class" in out \
        and "ZeroDivisionError: float division by zero (model.py:" in out
    return ok, r.stdout[-2000:] + r.stderr[-2000:]


@case
def no_python_and_deterministic():
    model = os.path.join(ROOT, "examples", "export", "model.py")
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        ra, rb = export(model, a), export(model, b)
        same = all(open(os.path.join(a, f), "rb").read() == open(os.path.join(b, f), "rb").read()
                   for f in ("model.h", "model.c", "Makefile"))
        text = open(os.path.join(a, "model.c")).read() + open(os.path.join(a, "model.h")).read()
        env = {k: v for k, v in os.environ.items() if k != "CFLAGS"}  # the Makefile's own flags
        mk = subprocess.run(["make", "-s", "-C", a], capture_output=True, text=True, env=env)
        nm = subprocess.run(["nm", os.path.join(a, "libmodel.a")], capture_output=True, text=True).stdout
        undefined = sorted(set(re.findall(r"^\s+U (\S+)$", nm, re.M)) - {"_GLOBAL_OFFSET_TABLE_"})
        exported = sorted(set(re.findall(r" T (\S+)$", nm, re.M)))
        cxx = subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                              "-x", "c++", os.path.join(a, "model.h")], capture_output=True, text=True)
    ok = (ra.returncode == rb.returncode == 0 and same and "Python.h" not in text and "Py" not in
          " ".join(undefined) and mk.returncode == 0 and set(undefined) <= {"exp", "sqrt"} and
          exported == ["model_crest", "model_dense", "model_forward", "model_leaky_relu", "model_mean_std"] and
          cxx.returncode == 0)
    return ok, "same=%s undefined=%s exported=%s\n%s%s%s" % (same, undefined, exported, mk.stderr,
                                                             cxx.stderr, ra.stderr)


REFUSALS = '''\
from __future__ import annotations
import dynac


def uses_list(xs: list[float]) -> float:
    return xs[0]


def breaks(x: float) -> float:
    dynac.graph_break()  # a graph break
    table = {}
    return x
    # (as many lines as before: the cases below keep their line numbers)


@dynac.allow_in_graph
def log_it(x: float) -> None:
    print(x)


def opaque(x: float) -> float:
    log_it(x)
    return x


table = {}
RATE = 0.5 * 2


def reads_rate(x: float) -> float:
    return x * RATE


def maybe_none(x: float) -> float:
    if x > 0.0:
        return x


def plain(x) -> float:
    return 1.0


@dynac.compile(signatures=["(ndarray[d], int)"])
def numpy_item(a, i):
    return a[i]
'''
EXPECT = [("uses_list", "5:1: error: cannot export uses_list(): parameter 'xs' is a list[float]"),
          ("breaks", "10:5: error: cannot export breaks(): graph break GB"),
          ("opaque", "22:5: error: cannot export opaque(): it calls log_it(), an allow_in_graph"),
          ("reads_rate", "31:16: error: cannot export reads_rate(): it reads the module global 'RATE'"),
          ("maybe_none", "34:1: error: cannot export maybe_none(): it returns a float or None"),
          ("plain", "39:1: error: cannot export plain(): "),
          ("numpy_item", "44:1: error: cannot export numpy_item(): parameter 'a' is a ndarray[d]: numpy's"),
          ("missing", "no function 'missing' to export")]


@case
def refusals_have_file_line_col():
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "refuse.py")
        open(src, "w").write(REFUSALS)
        for name, want in EXPECT:
            r = export(src, os.path.join(tmp, "out"), "--function", name)
            if r.returncode != 1 or want not in r.stderr or (":" in want[:4] and "^" not in r.stderr):
                bad.append("%s: rc=%d, want %r in:\n%s" % (name, r.returncode, want, r.stderr))
        r = export(src, os.path.join(tmp, "out2"), "--prefix", "not-c")
        if r.returncode != 2 or "not a C identifier" not in r.stderr:
            bad.append("--prefix: " + r.stderr)
    return not bad, "\n".join(bad)


if __name__ == "__main__":
    done()
