"""usage: python3 -m dynac COMMAND [OPTIONS]    (python3 -m dynac COMMAND --help: its options)

  run [--jit] [--path DIR]... [--stats FILE] (SCRIPT | -m MODULE | -c CODE) [ARGS]
          run a program with its built modules served by kernels (decorated
          roots compile on their first call; --jit: hot functions too, from
          the types they were seen with); `import torch` finds a stand-in
          for the compile API when PyTorch is not installed
  record [-o PROFILE] (SCRIPT | -m MODULE | -c CODE) [ARGS]
          run a program and record the argument types of its functions
          (default PROFILE: dynac-profile.json), for build --profile
  build FILE.py... [-o DIR] [--profile PROFILE] [--all] ...
          compile ahead of time: __dynac__/NAME__dynac.{c,so} beside each file
  explain FILE.py... [--lines] [--json] ...
          what compiles, its guards and graph breaks, and why
  annotate FILE.py [-o FILE.html] [--profile PROFILE] [--all]
          an HTML page of the source, each line marked typed / generic /
          interpreted, with its reason and generated C (like cython -a)
  export FILE.py -o DIR ...
          the kernels as a plain C library (no Python needed)
"""
import atexit
import importlib.machinery
import os
import sys
import types

from . import _runtime
from ._loader import artifact_for, attach_code, candidate_paths
from ._profile import note_instance, type_name, write_profile

USAGE = __doc__
RUN_USAGE = """usage: python3 -m dynac run [--jit] [--path DIR]... [--stats FILE] (SCRIPT | -m MODULE | -c CODE) [ARGS]

Runs the program as python3 would, with every module that has a current
artifact (built by `python3 -m dynac build`, or compiled on first call)
served by its kernels through the frame hook.
  --jit          also compile undecorated functions that get hot, from the types
                 they were seen with (a sampling profiler; no record step)
  --path DIR     also look for artifacts in DIR (as $DYNAC_PATH does)
  --stats FILE   write dynac.stats() to FILE as JSON at exit
DYNAC_LOGS=dispatch,guards,recompiles,graph_breaks logs what ran compiled and why not."""
RECORD_USAGE = """usage: python3 -m dynac record [-o PROFILE] (SCRIPT | -m MODULE | -c CODE) [ARGS]

Runs the program as python3 would and writes the argument types its
functions were called with to PROFILE (default dynac-profile.json): at
exit, when stopped by SIGTERM or SIGHUP, and every 2 s while it runs (a
SIGKILL loses at most the last 2 s); then
`python3 -m dynac build FILE.py --profile PROFILE` compiles them. Calls are
sampled: the first 16 of each function, one in 64 after, and every call
with argument types not seen before. Nothing is compiled while recording."""

def _split_target(args, cmd):
    """-m MODULE [ARGS] | -c CODE [ARGS] | SCRIPT [ARGS] -> (kind, target, argv)."""
    if not args:
        raise SystemExit("python3 -m dynac %s: name a script, -m MODULE or -c CODE\n\n%s"
                         % (cmd, RUN_USAGE if cmd == "run" else RECORD_USAGE))
    if args[0] in ("-m", "-c"):
        if len(args) < 2:
            raise SystemExit("python3 -m dynac %s: %s needs %s" % (
                cmd, args[0], "a module name" if args[0] == "-m" else "the code to run"))
        if args[0] == "-c":
            return "code", args[1], ["-c"] + args[2:]
        return "module", args[1], args[1:]
    if args[0].startswith("-"):
        raise SystemExit("python3 -m dynac %s: unknown option %r\n\n%s" % (
            cmd, args[0], RUN_USAGE if cmd == "run" else RECORD_USAGE))
    return "script", args[0], args


def _run_target(kind, target, argv, prepare_code=None):
    """Runs the program as `python3 [-m] target args` would, in this process."""
    sys.argv = list(argv)
    if kind == "module":
        sys.path.insert(0, os.getcwd())
        import runpy  # here: the `dynac` command's start-up need not import it (~4 ms)
        runpy.run_module(target, run_name="__main__", alter_sys=True)
        return
    if kind == "code":
        path, source = "<string>", target
    else:
        path = os.path.abspath(target)
        with open(path, "rb") as f:
            source = f.read()
    code = compile(source, path, "exec")
    main = types.ModuleType("__main__")
    if kind != "code":
        main.__file__ = path
    main.__builtins__ = __builtins__
    if prepare_code:
        prepare_code(code, path, main.__dict__)
    sys.modules["__main__"] = main
    sys.path.insert(0, os.path.dirname(path) if kind != "code" else "")
    exec(code, main.__dict__)


# ---- record -------------------------------------------------------------------
def record(args):
    if args[:1] in (["-h"], ["--help"]):
        print(RECORD_USAGE)
        return 0
    out = "dynac-profile.json"
    if args[:1] == ["-o"]:
        if len(args) < 2:
            raise SystemExit("python3 -m dynac record: -o needs a file name")
        out, args = args[1], args[2:]
    kind, target, argv = _split_target(args, "record")
    from . import config
    config.jit = False  # compiled calls have no frame for the profiler to see
    from . import _torch
    _torch.install()
    seen, classes = {}, {}
    ours = os.path.dirname(os.path.abspath(__file__)) + os.sep  # dynac's own code is not recorded
    import sysconfig
    libs = tuple(sorted({os.path.join(sysconfig.get_paths()[k], "") for k in ("stdlib", "platstdlib", "purelib",
                                                                          "platlib")}))

    def sample(co, args, weight):
        """A sampled call (runtime: record_start): its argument types."""
        if co.co_filename.startswith(("<", ours)):
            return
        nvar = bool(co.co_flags & 0x4) + bool(co.co_flags & 0x8)  # *args, **kwargs: objects
        sig = tuple(type_name(v) for v in args[:len(args) - nvar]) + ("object",) * nvar
        d = seen.setdefault((co.co_filename, co.co_qualname, co.co_firstlineno), {})
        d[sig] = d.get(sig, 0) + weight
        if not co.co_filename.startswith(libs):  # the program's own calls: its instances' attribute types
            for v in args:
                note_instance(classes, v)

    def write(final=True):
        tmp = "%s.%d.tmp" % (out, os.getpid())
        snapshot = {k: dict(v) for k, v in list(seen.items())}  # other threads go on sampling
        write_profile(tmp, snapshot, {k: dict(v) for k, v in list(classes.items())})
        os.replace(tmp, out)  # atomic: a profile is whole or absent
        if final:
            print("dynac: recorded %d functions in %s" % (len(snapshot), out), file=sys.stderr)

    import threading
    done = threading.Event()

    def write_every(seconds):  # a SIGKILL cannot be caught: it loses at most this much
        told = False
        while not done.wait(seconds):
            try:
                write(final=False)
            except Exception as e:  # a failed write (a full disk, ...): the next one may succeed
                if not told:
                    print("dynac: record: writing %s failed (%s: %s); retrying every %g s"
                          % (out, type(e).__name__, e, seconds), file=sys.stderr)
                    told = True

    def on_signal(signum, frame):  # SIGTERM, SIGHUP: unwind, so the profile is written below
        raise SystemExit(128 + signum)

    import signal
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:
            signal.signal(sig, on_signal)
    _runtime.record_start(sample)  # a frame hook: every thread
    threading.Thread(target=write_every, args=(2.0,), name="dynac-record-writer", daemon=True).start()
    try:
        _run_target(kind, target, argv)
    finally:
        done.set()
        _runtime.record_stop()
        write()
    return 0


# ---- run ------------------------------------------------------------------------
class _DynacSourceLoader(importlib.machinery.SourceFileLoader):
    """A source loader that attaches a built artifact's kernels to the
    module's code objects before the module body runs."""

    def __init__(self, name, path, artifact):
        super().__init__(name, path)
        self._dynac_artifact = artifact

    def exec_module(self, module):
        code = self.get_code(module.__name__)
        attach_code(code, self._dynac_artifact, module.__name__, module.__dict__)
        exec(code, module.__dict__)


class _DynacFinder:
    """sys.meta_path entry: claims source modules that have a current artifact."""

    def __init__(self, dirs):
        self.dirs = dirs

    def find_spec(self, name, path=None, target=None):
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        artifact = artifact_for(spec.origin, self.dirs)
        if artifact is None:
            return None
        spec.loader = _DynacSourceLoader(name, spec.origin, artifact)
        return spec

    def invalidate_caches(self):
        pass


def _attach_loaded(dirs):
    """Modules imported before the finder was installed: attach by function.
    Only a module with an artifact file where one may be is looked at closely
    (each folder listed once: ~70 modules are loaded when `dynac run` starts)."""
    listings = {}

    def exists(path):
        folder, name = os.path.split(path)
        if folder not in listings:
            try:
                listings[folder] = frozenset(os.listdir(folder))
            except OSError:
                listings[folder] = frozenset()
        return name in listings[folder]

    for name, mod in list(sys.modules.items()):
        filename = getattr(mod, "__file__", None)
        if not filename or not filename.endswith(".py"):
            continue
        if not any(exists(path) for path in candidate_paths(filename, dirs)):
            continue
        artifact = artifact_for(filename, dirs)
        if artifact is None:
            continue
        for v in list(vars(mod).values()):
            if isinstance(v, types.FunctionType):
                _runtime.attach_function(v, artifact, name)


def _print_summary():
    for name, s in sorted(_runtime.stats().items()):
        print("[dynac dispatch] summary %s: kernel_calls=%d direct_calls=%d interpreter_calls=%d "
              "guard_failures=%d deopts=%d" % (name, s["kernel_calls"], s["direct_calls"],
                                                s["interpreter_calls"], s["guard_failures"],
                                                s["deopts"]), file=sys.stderr)


def run(args):
    if args[:1] in (["-h"], ["--help"]):
        print(RUN_USAGE)
        return 0
    dirs, stats_file, jit = [], None, False
    while args and args[0] in ("--path", "--stats", "--jit"):
        if args[0] == "--jit":
            jit, args = True, args[1:]
            continue
        if len(args) < 2:
            raise SystemExit("python3 -m dynac run: %s needs an argument" % args[0])
        if args[0] == "--path":
            dirs.append(os.path.abspath(args[1]))
        else:
            stats_file = args[1]
        args = args[2:]
    kind, target, argv = _split_target(args, "run")
    from . import config
    config.artifact_path[:0] = dirs
    from . import _torch
    _torch.install()
    sys.meta_path.insert(0, _DynacFinder(config.artifact_path))
    _attach_loaded(config.artifact_path)

    def prepare(code, path, namespace):
        artifact = artifact_for(path, config.artifact_path)
        if artifact is not None:
            attach_code(code, artifact, "__main__", namespace)

    def finish():
        if stats_file:
            import json
            with open(stats_file, "w") as f:
                json.dump(_runtime.stats(), f, indent=1, sort_keys=True)
        if "dispatch" in os.environ.get("DYNAC_LOGS", ""):
            _print_summary()

    atexit.register(finish)
    _runtime.hook_acquire_deferred()  # installed once something has a cache
    sampler = None
    if jit and config.jit:
        from . import _hot
        sampler = _hot.start()
    try:
        _run_target(kind, target, argv, prepare)
    finally:
        if sampler:
            sampler.stop()
        _runtime.hook_release_deferred()
    return 0


# ---- build / explain: the generator --------------------------------------------
_VALUE_OPTIONS = {"-o", "--profile"}


def _syntax_errors(args):
    """CPython's own parser is the reference for syntax errors: report them
    exactly (file:line:col, line, caret) and drop those files."""
    keep, bad, skip = [], 0, False
    for a in args:
        if skip or a.startswith("-") or not a.endswith(".py"):
            skip = a in _VALUE_OPTIONS
            keep.append(a)
            continue
        try:
            with open(a, "rb") as f:
                compile(f.read(), a, "exec", dont_inherit=True)
        except SyntaxError as e:
            bad += 1
            line = (e.text or "").rstrip("\n")
            print("%s:%s:%s: error: SyntaxError: %s" % (a, e.lineno, e.offset, e.msg), file=sys.stderr)
            if line:
                print("%5d | %s\n      | %s^" % (e.lineno, line, " " * max((e.offset or 1) - 1, 0)),
                      file=sys.stderr)
            continue
        except (RecursionError, MemoryError) as e:
            bad += 1  # CPython cannot compile it either: nesting deeper than its compiler takes
            print("%s:1:1: error: CPython cannot compile this file (%s: nested too deeply); "
                  "split the deepest expression or block" % (a, type(e).__name__), file=sys.stderr)
            continue
        except (OSError, ValueError):
            pass  # the generator reports unreadable files
        keep.append(a)
    return keep, bad


def generator_env():
    """The environment the generator runs in for this interpreter."""
    import sysconfig
    from . import _config
    env = dict(os.environ)
    env.setdefault("DYNAC_TEMPLATES", _config.TEMPLATES)
    env.setdefault("DYNAC_INCLUDE", _config.INCLUDE)
    env.setdefault("DYNAC_PYTHON_INCLUDE", sysconfig.get_paths()["include"])
    env.setdefault("DYNAC_EXT_SUFFIX", sysconfig.get_config_var("EXT_SUFFIX"))
    env.setdefault("DYNAC_PROG", "python3 -m dynac")  # its usage names the commands so
    return env


def generator(cmd, args):
    from . import _config
    import subprocess
    env = generator_env()
    args, bad = _syntax_errors(list(args))
    rc = 0
    if any(a.endswith(".py") for a in args) or not bad:
        rc = subprocess.call([_config.GENERATOR, cmd, "--trusted-syntax"] + args, env=env)
    return rc or (1 if bad else 0)


def main(argv):
    if argv[:1] == ["help"] and len(argv) > 1:  # help COMMAND
        argv = [argv[1], "--help"]
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "record":
        return record(rest)
    if cmd == "run":
        return run(rest)
    if cmd == "annotate":
        from ._annotate import annotate
        return annotate(rest)
    if cmd in ("build", "explain", "export", "ir"):
        return generator(cmd, rest)
    if cmd == "--version":
        return generator(cmd, [])
    print("python3 -m dynac: unknown command %r\n\n%s" % (cmd, USAGE), file=sys.stderr)
    return 2


def entry():
    """The `dynac` console script (pip install): python3 -m dynac's commands."""
    sys.exit(main(sys.argv[1:]))
