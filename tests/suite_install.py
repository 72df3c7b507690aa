"""`make install PREFIX=...` and build integration: the installed generator,
header, templates, pkg-config file and Python package work outside the
source tree, and examples/codegen's dynac.mk regenerates only what changed,
under make -j."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, case, check, done  # noqa: E402

TMP = tempfile.mkdtemp(prefix="dynac-install-")
PREFIX = os.path.join(TMP, "prefix")
INSTALL = subprocess.run(["make", "-s", "-C", ROOT, "install", "PREFIX=" + PREFIX,
                          "PYTHON=" + sys.executable], capture_output=True, text=True)
check("make install", INSTALL.returncode == 0, INSTALL.stdout[-2000:] + INSTALL.stderr[-2000:])
SITE = subprocess.run([sys.executable, "-c", "import sysconfig; print(sysconfig.get_path('purelib', "
                       "'posix_prefix', vars={'base': %r, 'platbase': %r}))" % (PREFIX, PREFIX)],
                      capture_output=True, text=True).stdout.strip()
GEN = os.path.join(PREFIX, "bin", "dynac")
ENV = dict(os.environ, PATH=os.path.join(PREFIX, "bin") + os.pathsep + os.environ["PATH"],
           PYTHONPATH=SITE, PKG_CONFIG_PATH=os.path.join(PREFIX, "lib", "pkgconfig"))


def run(cmd, cwd=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, cwd=cwd)


@case
def installed_files():
    want = ["bin/dynac", "include/dynac.h", "share/dynac/templates/module.c",
            "share/dynac/templates/export.h", "lib/pkgconfig/dynac.pc"]
    missing = [w for w in want if not os.path.exists(os.path.join(PREFIX, w))]
    pkg = os.path.join(SITE, "dynac")
    missing += [f for f in ("__init__.py", "_config.py") if not os.path.exists(os.path.join(pkg, f))]
    missing += [] if any(f.startswith("_runtime") for f in os.listdir(pkg)) else ["_runtime"]
    return not missing, "missing: %r" % missing


@case
def bytecode_compiled():
    """The package's modules are byte-compiled when installed (as pip does) and
    in `make`'s build dir, so `dynac run` under PYTHONDONTWRITEBYTECODE does not
    compile them from source at each start (~5 ms)."""
    import importlib.util
    import dynac
    missing = [os.path.join(pkg, f)
               for pkg in (os.path.join(SITE, "dynac"), os.path.dirname(dynac.__file__))
               for f in sorted(os.listdir(pkg))
               if f.endswith(".py") and not os.path.exists(importlib.util.cache_from_source(os.path.join(pkg, f)))]
    return not missing, "no .pyc for: %r" % missing


@case
def pkg_config_compiles_against_the_header():
    flags = run(["pkg-config", "--cflags", "dynac"])
    src = os.path.join(TMP, "use.c")
    open(src, "w").write('#include "dynac.h"\nint main(void) { int64_t r; '
                         'return dynac_int_add(1, 2, &r); }\n')
    cc = run(["cc", "-std=c11", "-Wall", "-Werror", "-c", src, "-o", os.path.join(TMP, "use.o")]
             + flags.stdout.split())
    ok = flags.returncode == 0 and "-I%s/include" % PREFIX in flags.stdout and cc.returncode == 0
    return ok, flags.stdout + flags.stderr + cc.stderr


@case
def codegen_snippet_parallel_and_incremental():
    proj = os.path.join(TMP, "codegen")
    shutil.copytree(os.path.join(ROOT, "examples", "codegen"), proj,
                    ignore=shutil.ignore_patterns("__dynac__", "__pycache__"))
    args = ["make", "-j4", "DYNAC=" + GEN, "PYTHON=" + sys.executable]
    first = run(args, cwd=proj)
    built = sorted(os.listdir(os.path.join(proj, "app", "__dynac__")))
    app = run([sys.executable, os.path.join(proj, "app", "main.py")])
    which = run([sys.executable, "-c", "import dynac; print(dynac.__file__)"])
    again = run(args + ["-n"], cwd=proj)
    os.utime(os.path.join(proj, "app", "pricing.py"))
    touched = run(args + ["-n"], cwd=proj)
    rebuilt = re.findall(r"dynac build (\S+)", touched.stdout)
    served = "'primes.count_primes': 1, 'pricing.compound': 1, 'kinematics.flight': 1" in app.stdout
    ok = (first.returncode == 0 and len([b for b in built if b.endswith(".so")]) == 3 and served
          and which.stdout.startswith(PREFIX) and "dynac build" not in again.stdout
          and rebuilt == ["app/pricing.py"])
    return ok, "built=%r rebuilt=%r\n%s%s%s%s" % (built, rebuilt, first.stderr[-1500:], app.stdout,
                                                 app.stderr[-1500:], which.stdout)


@case
def installed_export_finds_its_templates():
    out = os.path.join(TMP, "export")
    r = run([GEN, "export", os.path.join(ROOT, "examples", "export", "model.py"), "-o", out], cwd=TMP)
    return r.returncode == 0 and os.path.exists(os.path.join(out, "model.c")), r.stderr


@case
def a_second_prefix_bakes_its_own_paths():
    """A second `make install` to another PREFIX (no source changed) installs
    a generator that reads that prefix's templates, not the first's."""
    prefix2 = os.path.join(TMP, "prefix2")
    r = subprocess.run(["make", "-s", "-C", ROOT, "install", "PREFIX=" + prefix2, "PYTHON=" + sys.executable],
                       capture_output=True, text=True)
    if r.returncode:
        return False, r.stderr[-2000:]
    shutil.rmtree(os.path.join(PREFIX, "share"))  # the first prefix's templates are gone
    out = os.path.join(TMP, "export2")
    e = run([os.path.join(prefix2, "bin", "dynac"), "export", os.path.join(ROOT, "examples", "export", "model.py"),
             "-o", out], cwd=TMP)
    return e.returncode == 0 and os.path.exists(os.path.join(out, "model.c")), e.stderr


DEBIAN_PYTHON = "/usr/bin/python3"  # has Debian's pip, setuptools and wheel: an offline build
FIRST_CALL = """
import dynac
@dynac.compile
def total(x, n):
    s = 0.0
    for i in range(n):
        s += x * i
    return s
print(total(1.5, 10), dynac.stats()["__main__.total"]["kernel_calls"], dynac.__file__)
"""


def first_call_program(name):
    d = os.path.join(TMP, name)
    os.makedirs(d)
    with open(os.path.join(d, "prog.py"), "w") as f:
        f.write(FIRST_CALL)
    return os.path.join(d, "prog.py")


def clean_env():
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DYNAC_JIT", "CFLAGS")}
    return e


@case
def pip_install_builds_a_dynac_that_compiles_on_first_call():
    """`pip install --no-build-isolation --no-index --target DIR .`: the
    installed package carries its generator, header and templates; a program
    using only it compiles on first call; the `dynac` command works."""
    target = os.path.join(TMP, "pip-target")
    r = subprocess.run([DEBIAN_PYTHON, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index",
                        "--target", target, ROOT], capture_output=True, text=True, env=clean_env())
    if r.returncode:
        return False, r.stdout[-2000:] + r.stderr[-2000:]
    env = dict(clean_env(), PYTHONPATH=target)
    prog = first_call_program("pip-prog")
    p = subprocess.run([DEBIAN_PYTHON, prog], capture_output=True, text=True, env=env, cwd=TMP)
    h = subprocess.run([os.path.join(target, "bin", "dynac"), "build", "--help"], capture_output=True,
                       text=True, env=env)
    fields = p.stdout.split()
    return (p.returncode == 0 and fields[:2] == ["67.5", "1"] and fields[2].startswith(target)
            and h.returncode == 0 and h.stdout.startswith("usage:")
            and not os.path.exists(os.path.join(target, "dynac", "_runtime.c"))), p.stdout + p.stderr + h.stderr


@case
def a_package_built_with_dynac_extensions_runs_its_kernels():
    """examples/package (setup.py: dynac_extensions) built by pip: the wheel
    carries stats_pkg/__dynac__/fast__dynac.so, which serves calls with
    compiling on first call turned off; results are the interpreter's."""
    dyn = os.path.join(TMP, "dynac-for-package")
    proj = os.path.join(TMP, "package")
    shutil.copytree(os.path.join(ROOT, "examples", "package"), proj,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__dynac__", "__pycache__"))
    a = subprocess.run([DEBIAN_PYTHON, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index",
                        "--target", dyn, ROOT], capture_output=True, text=True, env=clean_env())
    pk = os.path.join(TMP, "package-target")
    b = subprocess.run([DEBIAN_PYTHON, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index",
                        "--no-deps", "--target", pk, proj], capture_output=True, text=True,
                       env=dict(clean_env(), PYTHONPATH=dyn))
    if a.returncode or b.returncode:
        return False, a.stderr[-1500:] + b.stdout[-1500:] + b.stderr[-1500:]
    code = ("import dynac, stats_pkg.fast as f\n"
            "xs = [0.1 * i for i in range(1000)] + [-0.0, 1e300]\n"
            "print(repr(f.mean_and_std(xs)), repr(f.mean_and_std([])), repr(f.ewma(xs, 0.25)))\n"
            "print(dynac.stats().get('stats_pkg.fast.mean_and_std', {}).get('kernel_calls', 0))")
    env = dict(clean_env(), PYTHONPATH=pk + os.pathsep + dyn, DYNAC_JIT="0")
    built = subprocess.run([DEBIAN_PYTHON, "-c", code], capture_output=True, text=True, env=env, cwd=TMP)
    eager = subprocess.run([DEBIAN_PYTHON, "-c", code], capture_output=True, text=True,
                           env=dict(env, PYTHONPATH=os.path.join(proj) + os.pathsep + dyn), cwd=TMP)
    so = os.path.join(pk, "stats_pkg", "__dynac__")
    return (built.returncode == 0 and eager.returncode == 0 and os.path.isdir(so)
            and built.stdout.splitlines()[0] == eager.stdout.splitlines()[0]
            and built.stdout.split()[-1] == "2" and eager.stdout.split()[-1] == "0"), \
        built.stdout + built.stderr + eager.stdout + eager.stderr


@case
def pip_install_editable_in_a_venv():
    venv = os.path.join(TMP, "venv")
    made = [os.path.join(ROOT, "python", "dynac", "_config.py"), os.path.join(ROOT, "python", "dynac.egg-info")]
    made += [os.path.join(ROOT, "python", "dynac", "_runtime" + EXT) for EXT in
             [subprocess.run([DEBIAN_PYTHON, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
                             capture_output=True, text=True).stdout.strip()]]
    existed = {m for m in made if os.path.exists(m)}  # a developer's own editable install stays
    try:
        v = subprocess.run([DEBIAN_PYTHON, "-m", "venv", "--system-site-packages", venv], capture_output=True,
                           text=True, env=clean_env())
        r = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--no-build-isolation",
                            "--no-index", "-e", ROOT], capture_output=True, text=True, env=clean_env())
        if v.returncode or r.returncode:
            return False, v.stderr[-1000:] + r.stdout[-2000:] + r.stderr[-2000:]
        prog = first_call_program("editable-prog")
        p = subprocess.run([os.path.join(venv, "bin", "python"), prog], capture_output=True, text=True,
                           env=clean_env(), cwd=TMP)
        fields = p.stdout.split()
        return (p.returncode == 0 and fields[:2] == ["67.5", "1"]
                and fields[2] == os.path.join(ROOT, "python", "dynac", "__init__.py")), p.stdout + p.stderr
    finally:
        for m in made:
            if m not in existed:
                shutil.rmtree(m, ignore_errors=True) if os.path.isdir(m) else (
                    os.path.exists(m) and os.remove(m))


shutil.rmtree(TMP, ignore_errors=True)
done()
