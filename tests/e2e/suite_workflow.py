"""The workflow without a build step. Compile on first call
(python/dynac/_jit.py): each case runs a fresh program with no `dynac
build`, once with DYNAC_JIT=0 (the interpreter: the reference) and once or
more compiled on first call, and compares what the programs print (results,
exceptions, warnings) and what the caches say. `dynac record`: sampled
types, threads, a profile written when the program is stopped by a signal."""
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import case, read_png  # noqa: E402

TMP = tempfile.mkdtemp(prefix="dynac-jit-")
_n = 0

PRELUDE = """
import json, sys, warnings
import dynac
warnings.simplefilter("always")
def report(*values):
    print(json.dumps([repr(v) for v in values]))
def served(name, entries=False):
    # prints '# N' (kernel calls of __main__.NAME, or its cache entries): not
    # compared with the interpreter run's, checked by the case
    s = dynac.stats().get("__main__." + name, {})
    print("# %d" % (len(s.get("entries", ())) if entries else s.get("kernel_calls", 0)))
"""


def program(*parts, name=None):
    """Writes PRELUDE and the parts (each dedented) as NAME.py in a fresh
    folder; returns its path."""
    global _n
    _n += 1
    d = os.path.join(TMP, "p%d" % _n)
    os.makedirs(d)
    path = os.path.join(d, (name or "prog") + ".py")
    with open(path, "w") as f:
        f.write(PRELUDE + "".join(textwrap.dedent(p) for p in parts))
    return path


def run(path, jit=True, logs=False, env=None, args=()):
    e = dict(os.environ)
    e.pop("DYNAC_JIT", None)
    if not jit:
        e["DYNAC_JIT"] = "0"
    if logs:
        e["DYNAC_LOGS"] = "recompiles"
    e.pop("CFLAGS", None)  # the user's build flags: none
    e.update(env or {})
    return subprocess.run([sys.executable, path] + list(args), capture_output=True, text=True,
                          env=e, cwd=os.path.dirname(path), timeout=120)


def outputs(p):
    """The lines the program printed with report()."""
    return [ln for ln in p.stdout.splitlines() if ln.startswith("[")]


def counts(p):
    """The numbers the program printed with served()."""
    return [int(ln[2:]) for ln in p.stdout.splitlines() if ln.startswith("# ")]


def agree(path, **kw):
    """Runs eager and compiled; (ok, detail, compiled run)."""
    ref, got = run(path, jit=False), run(path, **kw)
    ok = ref.returncode == got.returncode == 0 and outputs(ref) == outputs(got) and outputs(ref)
    return ok, "eager:\n%s%s\ncompiled:\n%s%s" % (ref.stdout, ref.stderr, got.stdout, got.stderr), got


def artifact_dir(path):
    return os.path.join(os.path.dirname(path), "__dynac__")


LOOP = """
@dynac.compile
def total(x, n):
    s = 0.0
    for i in range(n):
        s += x * i
    return s
"""


@case
def first_call_compiles_and_serves():
    path = program(LOOP, """
        report(total(1.5, 10)); served("total")
        report(total(0.25, 1000)); served("total")
        """)
    ok, detail, got = agree(path)
    built = os.listdir(artifact_dir(path))
    return (ok and counts(got) == [1, 2] and "prog__dynac.jit.json" in built
            and any(f.endswith(".so") for f in built)), detail + repr(built)


@case
def deopts_are_not_misses():
    """Calls whose kernel deoptimises (an int64 overflow before any effect)
    run in the interpreter and are not cache misses: before, each asked the
    JIT to compile for types it already had a kernel for (a module
    rebuilt, "no specialisation ... could be compiled" when the artifact
    came from `dynac build`), and after 16 such calls the root stopped
    compiling at all, so sq(2.5) stayed in the interpreter."""
    path = program("""
        @dynac.compile
        def sq(x):
            return x * x + 1
        """, """
        report(sq(3)); served("sq")
        for _ in range(20):
            sq(2 ** 40)
        report(sq(2 ** 40)); served("sq")
        report(sq(2.5)); served("sq")
        """)
    ok, detail, got = agree(path)
    return ok and counts(got) == [1, 1, 2] and "Warning" not in got.stderr, detail + repr(counts(got))


@case
def eager_reference_is_the_interpreter():
    path = program(LOOP, "report(total(1.5, 10), type(total).__name__); served('total')\n")
    ref = run(path, jit=False)
    return (ref.returncode == 0 and outputs(ref) == ['["67.5", "\'function\'"]'] and counts(ref) == [0]
            and not os.path.exists(artifact_dir(path))), ref.stdout + ref.stderr


@case
def second_process_loads_the_cached_artifact():
    path = program(LOOP, "report(total(1.5, 10)); served('total')\n")
    first, second = run(path, logs=True), run(path, logs=True)
    return (first.returncode == second.returncode == 0 and "compiling" in first.stderr
            and "compiling" not in second.stderr and "built" not in second.stderr
            and counts(first) == counts(second) == [1]
            and outputs(second) == outputs(first) == ['["67.5"]']), first.stderr + second.stderr


@case
def guard_miss_compiles_another_specialisation():
    path = program(LOOP, """
        report(total(1.5, 10)); served("total")
        report(total(3, 10)); served("total")
        report(total(1.5, 10), total(3, 10)); served("total"); served("total", entries=True)
        """)
    ok, detail, got = agree(path, logs=True)
    return (ok and counts(got) == [1, 2, 4, 2]
            and "guard 'type(x) is float' failed" in got.stderr), detail


@case
def signatures_accumulate_across_processes():
    """A process calling with other types rebuilds with both: the first
    process's specialisation stays (the sidecar profile)."""
    path = program(LOOP, """
        x = float(sys.argv[1]) if sys.argv[1] == "1.5" else int(sys.argv[1])
        report(total(x, 10)); served("total"); served("total", entries=True)
        """)
    a = run(path, args=["1.5"])
    b = run(path, args=["3"])
    c = run(path, args=["1.5"], logs=True)
    return (outputs(a) == outputs(c) == ['["67.5"]'] and outputs(b) == ['["135.0"]']
            and counts(a) == [1, 1] and counts(b) == [1, 2] and counts(c) == [1, 2]
            and "compiling" not in c.stderr), a.stdout + b.stdout + c.stdout + c.stderr


@case
def an_edited_source_rebuilds_itself():
    path = program(LOOP, "report(total(1.5, 10)); served('total')\n")
    first = run(path)
    with open(path) as f:
        src = f.read()
    with open(path, "w") as f:
        f.write(src.replace("s += x * i", "s += x * i * 2"))
    second = run(path, logs=True)
    return (outputs(first) == ['["67.5"]'] and outputs(second) == ['["135.0"]']
            and counts(first) == counts(second) == [1]
            and "compiling" in second.stderr and "RuntimeWarning" not in second.stderr), \
        first.stdout + second.stdout + second.stderr


@case
def concurrent_first_calls_build_once():
    path = program(LOOP, "report(total(1.5, 10)); served('total')\n")
    e = dict(os.environ, DYNAC_LOGS="recompiles")
    e.pop("DYNAC_JIT", None)
    e.pop("CFLAGS", None)
    procs = [subprocess.Popen([sys.executable, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=e) for _ in range(3)]
    res = [p.communicate(timeout=120) for p in procs]
    builds = sum(err.count("] %s: built" % path) for _, err in res)
    ok = all(p.returncode == 0 for p in procs) and all(out.split() == ['["67.5"]', "#", "1"]
                                                       for out, _ in res)
    leftovers = [f for f in os.listdir(artifact_dir(path)) if f.startswith((".build-", ".load-"))]
    return ok and builds == 1 and not leftovers, repr(res) + repr(leftovers)


@case
def no_c_compiler_runs_in_the_interpreter_with_one_warning():
    path = program(LOOP, """
        report(total(1.5, 10)); served("total")
        report(total(2.5, 10)); served("total")
        """)
    ref = run(path, jit=False)
    got = run(path, env={"CC": "/nonexistent/cc"})
    return (got.returncode == 0 and outputs(got) == outputs(ref) and counts(got) == [0, 0]
            and got.stderr.count("RuntimeWarning") == 1
            and "cannot run the C compiler '/nonexistent/cc'" in got.stderr
            and "prog.py:" in got.stderr), got.stdout + got.stderr


@case
def fullgraph_raises_compile_error_at_the_call():
    path = program("""
        @dynac.compile(fullgraph=True)
        def g(x):
            dynac.graph_break()
            return x + 1
        try:
            g(1)
        except dynac.CompileError as e:
            import traceback
            tb = traceback.extract_tb(e.__traceback__)
            report(type(e).__name__, [f.name for f in tb], "GB0012" in str(e), "prog.py:" in str(e))
        """)
    got = run(path)
    return outputs(got) == ['["\'CompileError\'", "[\'<module>\']", "True", "True"]'], got.stdout + got.stderr


@case
def jit_off_leaves_the_function_alone():
    path = program(LOOP, """
        dynac.config.jit = False
        @dynac.compile
        def late(x):
            return x + 1
        report(late(1), type(late).__name__)
        """)
    got = run(path)  # DYNAC_JIT unset: total is compiled on its first call, late is not
    return (outputs(got) == ['["2", "\'function\'"]']
            and not os.path.exists(artifact_dir(path))), got.stdout + got.stderr


@case
def cache_size_limit_bounds_the_specialisations():
    path = program("""
        dynac.config.cache_size_limit = 2
        @dynac.compile
        def twice(x):
            return x + x
        report(twice(1), twice(1.5), twice((1, 2)), twice(2), twice((3, 4)))
        served("twice", entries=True)
        """)
    ok, detail, got = agree(path)
    return ok and got.stderr.count("cache_size_limit (2) reached") == 1 and counts(got) == [2], detail


@case
def unwritable_dynac_folder_uses_the_user_cache():
    path = program(LOOP, "report(total(1.5, 10)); served('total')\n")
    with open(artifact_dir(path), "w") as f:  # a file where the folder would be
        f.write("not a folder")
    cache = os.path.join(TMP, "xdg%d" % _n)
    first = run(path, env={"XDG_CACHE_HOME": cache})
    second = run(path, env={"XDG_CACHE_HOME": cache}, logs=True)
    found = [f for _, _, fs in os.walk(cache) for f in fs]
    return (outputs(first) == outputs(second) == ['["67.5"]'] and counts(second) == [1]
            and "compiling" not in second.stderr
            and any(f.endswith(".so") for f in found)), first.stderr + second.stderr + repr(found)


@case
def keyword_and_default_arguments_on_the_first_call():
    path = program("""
        @dynac.compile
        def scaled(x, k=2.0, *, bias=0.5):
            return x * k + bias
        report(scaled(1.5)); served("scaled")
        report(scaled(1.5, 3.0, bias=1.0)); served("scaled")
        report(scaled(x=2.0, k=1.0)); served("scaled")
        """)
    ok, detail, got = agree(path)
    return ok and counts(got) == [1, 2, 3], detail


@case
def what_cannot_compile_runs_in_the_interpreter_with_one_warning():
    """A generator function is not compiled (its frames outlive the call):
    the build has no specialisation for it."""
    path = program("""
        @dynac.compile
        def evens(n):
            for i in range(n):
                if i % 2 == 0:
                    yield i * 0.5
        report(list(evens(7)), list(evens(3)), sum(evens(100)))
        served("evens")
        """)
    ok, detail, got = agree(path)
    return (ok and counts(got) == [0] and got.stderr.count("RuntimeWarning") == 1
            and "no specialisation for (int) could be compiled" in got.stderr), detail


@case
def types_the_generator_handles_generically_still_compile():
    path = program(LOOP, """
        report(total(1.5, 3)); served("total")
        try:
            total("ab", 3)
        except TypeError as e:
            report("TypeError", str(e))
        report(total([1.0], 0))
        report(total(2.5, 3)); served("total")
        """)
    ok, detail, got = agree(path)
    return ok and counts(got) == [1, 4] and "RuntimeWarning" not in got.stderr, detail


@case
def exceptions_match_the_interpreter():
    path = program("""
        @dynac.compile
        def ratio(a, b):
            s = 0.0
            for i in range(b):
                s += a / (b - i - 1)
            return s
        import traceback
        for args in [(1.0, 3), (2.0, 0), (1.0, 3)]:
            try:
                report(ratio(*args))
            except ZeroDivisionError as e:
                report(type(e).__name__, str(e), traceback.extract_tb(e.__traceback__)[-1].lineno)
        served("ratio")
        """)
    ok, detail, got = agree(path)
    return ok and counts(got)[0] > 0, detail


@case
def methods_compile_on_first_call():
    path = program("""
        class Acc:
            def __init__(self):
                self.total = 0.0
            @dynac.compile
            def add_squares(self, n):
                s = 0.0
                for i in range(n):
                    s += i * i
                self.total += s
                return s
        a = Acc()
        report(a.add_squares(10), a.add_squares(100), a.total)
        served("Acc.add_squares")
        """)
    ok, detail, got = agree(path)
    return ok and counts(got) == [2], detail


@case
def functions_the_root_calls_compile_with_it():
    path = program("""
        def leaf(x, i):
            return x * i + 1.0
        @dynac.compile
        def outer(x, n):
            s = 0.0
            for i in range(n):
                s += leaf(x, i)
            return s
        report(outer(0.5, 100)); served("outer")
        """)
    ok, detail, got = agree(path)
    return ok and counts(got) == [1] and "leaf" in open(
        os.path.join(artifact_dir(path), "prog__dynac.c")).read(), detail


@case
def record_does_not_compile():
    """`dynac record` never compiles: its profiler sees interpreted frames only."""
    path = program(LOOP, "report(total(1.5, 10))\n")
    prof = os.path.join(os.path.dirname(path), "p.json")
    e = dict(os.environ)
    e.pop("DYNAC_JIT", None)
    r = subprocess.run([sys.executable, "-m", "dynac", "record", "-o", prof, path], capture_output=True,
                       text=True, env=e, timeout=120)
    import json
    with open(prof) as f:
        fns = {fn["qualname"]: fn for fn in json.load(f)["functions"]}
    return (r.returncode == 0 and "total" in fns and not os.path.exists(artifact_dir(path))
            and fns["total"]["signatures"][0]["args"] == ["float", "int"]), r.stderr


def record(path, out, **popen):
    e = dict(os.environ)
    e.pop("DYNAC_JIT", None)
    return subprocess.Popen([sys.executable, "-m", "dynac", "record", "-o", out, path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e, **popen)


def profile_signatures(out):
    import json
    with open(out) as f:
        return {fn["qualname"]: sorted(tuple(s["args"]) for s in fn["signatures"])
                for fn in json.load(f)["functions"]}


@case
def record_samples_rare_late_types_and_threads():
    """After its first calls a function is sampled one call in 64, and at
    every argument shape it has not shown before: a type seen once, late,
    is recorded; so are functions run only by other threads."""
    path = program("""
        import threading
        def step(x, k):
            return x * k
        def worker(n):
            return sum(step(float(i), 2) for i in range(n))
        for i in range(10000):
            step(i, 3)
        step(1.5, 3)                       # once, after 10000 int calls
        step([1.0, 2.0], 2)                # a list: its element type too
        t = threading.Thread(target=worker, args=(100,))
        t.start(); t.join()
        report("done")
        """)
    out = os.path.join(os.path.dirname(path), "p.json")
    p = record(path, out)
    stdout, stderr = p.communicate(timeout=120)
    sigs = profile_signatures(out)
    return (p.returncode == 0 and sigs.get("step") == [("float", "int"), ("int", "int"),
                                                      ("list[float]", "int")]
            and sigs.get("worker") == [("int",)]), stderr + repr(sigs)


SPINNING = """
    def spin(x, n):
        s = 0.0
        for i in range(n):
            s += x
        return s
    spin(1.0, 10)
    print("ready", flush=True)
    while True:
        spin(0.5, 1000)
    """


def record_stopped_by(signum, after=0.0):
    """Records a program that never ends, stops it with signum `after`
    seconds after it started: (return code, profile signatures or {},
    temporary files left beside the profile)."""
    import time
    path = program(SPINNING)
    out = os.path.join(os.path.dirname(path), "p.json")
    p = record(path, out)
    ready = p.stdout.readline()
    time.sleep(after)
    p.send_signal(signum)
    _, stderr = p.communicate(timeout=60)
    leftovers = [f for f in os.listdir(os.path.dirname(out)) if f.endswith(".tmp")]
    sigs = profile_signatures(out) if os.path.exists(out) else {"stderr": stderr[-1500:]}
    return (p.returncode if ready.strip() == "ready" else "not ready"), sigs, leftovers


@case
def record_leaves_a_profile_when_killed():
    """SIGKILL cannot be caught: the profile written every 2 s is there."""
    import signal
    rc, sigs, _ = record_stopped_by(signal.SIGKILL, after=6.5)  # a write it cut leaves a .tmp
    return rc == -signal.SIGKILL and sigs.get("spin") == [("float", "int")] and "write_every" not in sigs, \
        "rc %s %r" % (rc, sigs)


@case
def record_writes_the_profile_when_terminated():
    import signal
    rc, sigs, leftovers = record_stopped_by(signal.SIGTERM)
    return (rc == 128 + signal.SIGTERM and sigs.get("spin") == [("float", "int")] and not leftovers), \
        "rc %s %r %r" % (rc, sigs, leftovers)


@case
def compile_times_include_emit_and_the_c_compiler():
    path = program(LOOP, """
        report(total(1.5, 10))
        t = dynac.compile_times(repr="dict")["prog__dynac" + __import__("sysconfig").get_config_var("EXT_SUFFIX")]
        report(all(t.get(p, 0) > 0 for p in ("parse", "emit", "cc", "attach")), t["cc"] > t["emit"])
        report("cc" in dynac.compile_times().splitlines()[0])
        """)
    got = run(path)
    return outputs(got) == ['["67.5"]', '["True", "True"]', '["True"]'], got.stdout + got.stderr


def dynac(*args, cwd=None, env=None):
    e = dict(os.environ)
    e.pop("DYNAC_JIT", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "dynac"] + list(args), capture_output=True, text=True,
                          env=e, cwd=cwd, timeout=120)


TORCH_PROGRAM = """
    import torch
    @torch.compile
    def f(x, n):
        s = 0.0
        for i in range(n):
            s += x * i
        return s
    @torch.compiler.disable
    def g(x):
        return x + 1
    @torch.compile(fullgraph=True, backend="inductor", dynamic=False, mode="max-autotune")
    def h(x):
        return x * 2.0
    @torch._dynamo.disable(recursive=False)
    def k(x):
        return torch._dynamo.is_compiling()
    torch._dynamo.config.suppress_errors = True
    torch._dynamo.config.verbose = True            # kept, no effect
    import dynac
    report(f(1.5, 10), g(1), h(2.0), k(1), dynac.config.suppress_errors,
           torch._dynamo.config.cache_size_limit, torch.compiler.is_compiling(),
           torch._dynamo.list_backends())
    served("f"); served("h")
    try:
        torch.tensor([1])
    except AttributeError as e:
        report("AttributeError", "install PyTorch" in str(e))
    """


@case
def torch_spellings_run_without_torch():
    path = program(TORCH_PROGRAM)
    r = dynac("run", path, cwd=os.path.dirname(path))
    plain = run(path)
    return (r.returncode == 0 and outputs(r) == [
        '["67.5", "2", "4.0", "False", "True", "8", "False", "[\'c\', \'eager\']"]',
        '["\'AttributeError\'", "True"]'] and counts(r) == [1, 1]
        and "No module named 'torch'" in plain.stderr), r.stdout + r.stderr


@case
def dynac_compiler_mirrors_torch_compiler():
    path = program("""
        from dynac import compiler
        @compiler.compile(backend="inductor")
        def f(x, n):
            s = 0
            for i in range(n):
                s += x * i
            return s
        @compiler.compile(disable=True)
        def plain(x):
            return x
        report(f(3, 10), type(plain).__name__, compiler.is_dynamo_compiling(), compiler.list_backends())
        served("f")
        """)
    ok, detail, got = agree(path)
    return ok and counts(got) == [1], detail


@case
def every_command_has_help_and_names_itself():
    helps = [dynac(cmd, "--help") for cmd in ("run", "record", "build", "explain", "export")]
    top = dynac("--help")
    bad = dynac("run", "--bogus", "x")
    empty = dynac("run")
    ok = all(h.returncode == 0 and h.stdout.startswith("usage: python3 -m dynac ") for h in helps)
    named = ("python3 -m dynac run: unknown option '--bogus'" in bad.stderr and bad.returncode != 0
             and "python3 -m dynac run: name a script" in empty.stderr
             and top.returncode == 0 and "python3 -m dynac COMMAND" in top.stdout)
    return ok and named, "".join(h.stdout[:200] + h.stderr for h in helps) + bad.stderr + empty.stderr


@case
def run_and_record_take_dash_c():
    code = "import sys\ndef f(x):\n    return x * 2\nprint(f(21), sys.argv)"
    r = dynac("run", "-c", code, "a", "b", cwd=TMP)
    out = os.path.join(TMP, "c.json")
    rec = dynac("record", "-o", out, "-c", code, cwd=TMP)
    return (r.returncode == 0 and r.stdout.strip() == "42 ['-c', 'a', 'b']" and rec.returncode == 0
            and rec.stdout.strip() == "42 ['-c']"), r.stdout + r.stderr + rec.stderr


@case
def run_jit_compiles_hot_undecorated_functions():
    """`dynac run --jit`: a hot function nobody decorated or recorded is
    compiled from the types it was seen with and its later calls are served;
    every result is the interpreter's."""
    path = program("""
        import time
        def kernel(xs, k):
            s = 0.0
            for x in xs:
                s += x * k
            return s
        def drive():
            xs = [float(i) for i in range(500)]
            results, t0 = [kernel(xs, 0.5 + j) for j in range(50)], time.perf_counter()
            while time.perf_counter() - t0 < (60 if sys.argv[1:] == ["jit"] else 0):
                for j in range(50):
                    results.append(kernel(xs, 0.5 + j))
                if dynac.stats().get("__main__.kernel", {}).get("kernel_calls", 0) > 2000:
                    break
            report(sorted(set(results)))
            served("kernel")
        drive()
        """)
    e = dict(os.environ)
    e.pop("DYNAC_JIT", None)
    got = subprocess.run([sys.executable, "-m", "dynac", "run", "--jit", path, "jit"], capture_output=True, text=True,
                         env=dict(e, DYNAC_LOGS="recompiles"), timeout=120)
    ref = run(path, jit=False)
    return (got.returncode == 0 and outputs(got) == outputs(ref) and counts(got)[0] > 2000
            and "kernel is hot" in got.stderr), got.stdout[-500:] + got.stderr[-2000:]


ANNOTATED = """
class P:
    def __init__(self, x):
        self.x = x

@dynac.compile
def mix(xs: list[float], p: object, n: int) -> float:
    s = 0.0
    for i in range(n):
        s += xs[i] * 2.0
    s += p.x
    print("side")
    dynac.graph_break()
    return s
"""
ANNOTATE_COLOURS = {"T": (0xc8, 0xf0, 0xc8), "G": (0xff, 0xe9, 0x8a), "I": (0xf5, 0xb0, 0xb0),
                    "C": (0x23, 0x26, 0x2e)}  # _annotate.CSS: the marks and the generated C's block


def screenshot(page, png):
    chromium = shutil.which("chromium")
    r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--force-color-profile=srgb", "--window-size=1000,900", "--screenshot=" + png, page],
                       capture_output=True, text=True, timeout=120)
    return r


def colour_counts(png):
    w, h, rows = read_png(png)
    counts = dict.fromkeys(ANNOTATE_COLOURS, 0)
    for row in rows:
        for px in row:
            for k, c in ANNOTATE_COLOURS.items():
                if all(abs(a - b) <= 3 for a, b in zip(px, c)):
                    counts[k] += 1
    return counts


@case
def annotate_renders_marks_and_generated_c_in_chromium():
    """annotate's page in headless Chromium: the three marks' colours are
    on screen, and opening a typed line (what a click does; here its #L link)
    shows the C generated for it."""
    path = program(ANNOTATED)
    out = os.path.join(os.path.dirname(path), "prog.html")
    r = dynac("annotate", path, "-o", out)
    page = open(out).read() if r.returncode == 0 else ""
    text_ok = ("class='T'" in page and "class='G'" in page and "class='I'" in page
               and "GB0012" in page and "s += xs[i] * 2.0 */" in page and "dynac_elem_float" in page)
    closed, opened = (os.path.join(TMP, n) for n in ("closed.png", "opened.png"))
    a = screenshot("file://" + out, closed)
    line = [ln.strip() for ln in open(path)].index("s += xs[i] * 2.0") + 1
    b = screenshot("file://%s#L%d" % (out, line), opened)
    if a.returncode or b.returncode:
        return False, a.stderr[-1000:] + b.stderr[-1000:]
    c1, c2 = colour_counts(closed), colour_counts(opened)
    return (text_ok and all(c1[k] > 500 for k in "TGI") and c1["C"] == 0 and c2["C"] > 5000), \
        "%r %r %s %s" % (c1, c2, r.stderr, page[:300])


shutil.rmtree(TMP, ignore_errors=True)
