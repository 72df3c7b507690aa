"""A minimal test harness shared by the suites (no pytest: the pyenv
interpreter has none). A suite is a script; each check prints one line,
PASS or FAIL, which tests/run.py counts."""
import ast
import importlib.util
import math
import os
import struct
import subprocess
import sys
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_failures = 0

# What the suites and the fuzzer add to CFLAGS for every module they build: the generator's
# -Wall -Wextra as errors, and two warnings the generated C must never need (GCC's): a
# variable initialised from itself and a local shadowing another of its type (fuzz seed
# 7805 #29: `int64_t k3 = k3;` in a loop counting k3 compiled silently, and read garbage)
STRICT_CFLAGS = "-Werror -Winit-self -Wshadow=compatible-local"


def strict_cflags(env):
    """env's CFLAGS with STRICT_CFLAGS added once (a new string; env is not changed)."""
    cflags = env.get("CFLAGS", "")
    return cflags if STRICT_CFLAGS in cflags else (cflags + " " + STRICT_CFLAGS).strip()


def check(name, ok, detail=""):
    global _failures
    if ok:
        print("PASS %s" % name, flush=True)
    else:
        _failures += 1
        print("FAIL %s%s" % (name, (": " + detail.replace("\n", "\n     ")) if detail else ""), flush=True)
    return ok


def case(fn):
    """Decorator: run fn() as one check; an exception is a failure."""
    try:
        r = fn()
        if r is None:
            r = True
        if isinstance(r, tuple):
            check(fn.__name__, r[0], r[1] if isinstance(r[1], str) else repr(r[1]))
        else:
            check(fn.__name__, bool(r))
    except Exception:
        check(fn.__name__, False, traceback.format_exc())
    return fn


def same(a, b):
    """CPython-identical results: same type, same value; floats bit for bit
    (the sign of a zero, the sign and payload of a NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    return a == b


def float_bits(v):
    """A float's picture for comparisons: its hex value (the sign of zero
    included); any NaN is "nan". Which NaN comes out where two NaNs meet
    in one operation (inf - inf, then + nan) is the operand order x86 sees,
    which the C compiler chooses; suite_differential checks NaN signs where
    a single NaN flows (same() compares bits, on inputs with one NaN)."""
    return "nan" if math.isnan(v) else v.hex()


def outcome(fn, args):
    """('ok', result) or ('raise', type name, message)."""
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the comparison is the point
        return ("raise", type(e).__name__, str(e))


def same_outcome(x, y):
    if x[0] != y[0]:
        return False
    if x[0] == "ok":
        return same(x[1], y[1])
    return x[1:] == y[1:]


def dynac_cmd(*args, env=None, check_rc=True, cwd=None):
    """Runs `python -m dynac ARGS` with this interpreter; returns CompletedProcess."""
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run([sys.executable, "-m", "dynac"] + list(args), capture_output=True,
                          text=True, env=e, cwd=cwd)


def read_png(path):
    """(width, height, pixels) of an 8-bit RGB or RGBA PNG (a Chromium
    screenshot): pixels is a list of rows of (r, g, b) tuples. Only what the
    browser tests need: no palettes, no interlacing."""
    import zlib
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, "unsupported PNG"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def load_module(path, name):
    """Imports the file at `path` as module `name` (not put in sys.modules)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def missing_requirements(path):
    """Modules an example lists in REQUIRES = (...) that this interpreter
    cannot import (numpy: Debian's python3 has it, pyenv's does not)."""
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "REQUIRES" for t in node.targets):
            return [m for m in ast.literal_eval(node.value) if importlib.util.find_spec(m) is None]
    return []


def build_corpus(tmp, corpus):
    """Copies tests/e2e/CORPUS.py into tmp/c and tmp/e, builds the first with
    dynac (one check: no error, no C warning) and loads both: returns
    (compiled module, eager module, path of the built copy), or None when
    the build failed."""
    import shutil
    for d in ("c", "e"):
        os.makedirs(os.path.join(tmp, d))
        shutil.copy(os.path.join(ROOT, "tests", "e2e", corpus + ".py"), os.path.join(tmp, d))
    built = os.path.join(tmp, "c", corpus + ".py")
    r = dynac_cmd("build", built)
    if not check("build %s.py (no C warnings)" % corpus, r.returncode == 0 and "warning" not in r.stderr,
                 r.stderr + r.stdout):
        return None
    return load_module(built, corpus), load_module(os.path.join(tmp, "e", corpus + ".py"), corpus), built


def compare_corpus(C, E, cases, run, label, reported=None):
    """One check per function of cases ({name: [make, ...]}): run(fn, make)
    on the eager module E and the compiled module C must give equal
    pictures. reported: {(name, k): verdict(compiled picture) -> error or
    None} for the cases where the compiled side is expected to differ."""
    reported = reported or {}
    for name, makers in sorted(cases.items()):
        bad = []
        for k, make in enumerate(makers):
            e = run(getattr(E, name), make)
            c = run(getattr(C, name), make)
            if (name, k) in reported:
                err = reported[(name, k)](c)
                if err:
                    bad.append("case %d: %s" % (k, err))
            elif e != c:
                inputs = make(E) if make.__code__.co_argcount - len(make.__defaults__ or ()) else make()
                bad.append("case %d %r:\n  eager    %r\n  compiled %r" % (k, inputs, e, c))
        check("%s %s (%d inputs)" % (label, name, len(makers)), not bad, "\n".join(bad[:4]))


def generator():
    """The generator binary: $DYNAC_GENERATOR (make stress's sanitized one), else the build's."""
    from dynac import _config
    return os.environ.get("DYNAC_GENERATOR") or _config.GENERATOR


def done():
    sys.exit(1 if _failures else 0)
