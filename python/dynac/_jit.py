"""Compile on first call: no separate build step.

A `@dynac.compile` root whose module has no current artifact is compiled
when it is called: the types of that call (with the annotations and
`signatures=` the generator reads itself) make a specialisation; the
generator and the C compiler run as `dynac build --profile` does; the new
artifact is loaded and serves this very call. A later call that no cache
entry accepts compiles another specialisation (torch.compile's recompile on
a guard miss), up to `config.cache_size_limit` per function. This is
Numba's lazy compilation with `cache=True`, per module rather than per
function: one artifact holds every specialisation of every function of a
source file.

The disk cache: `__dynac__/NAME__dynac<EXT>` beside the source (the same
file `dynac build` writes), or `$XDG_CACHE_HOME/dynac/<dir hash>/` when that
folder cannot be written. Beside it, `NAME__dynac.jit.json` is a profile of
every signature compiled for (by any process), keyed by the source's SHA-256
and the generator's identity; a rebuild includes them all, so processes
calling with different types converge on one artifact. A file lock
serialises the builds of one module; artifacts are renamed into place, so
a process that loads one never sees half a file. The artifact records the
SHA-256 of its source: an edited source is rebuilt, never run stale.

Failures never break the program (torch's suppress_errors): no C compiler,
a generator error, or no specialisation for the types -> the function runs
in the interpreter, with one warning naming the cause; `fullgraph=True`
raises CompileError instead. `DYNAC_JIT=0` or `dynac.config.jit = False`
turns compiling off (artifacts already built are still used).
`DYNAC_LOGS=recompiles` says what is compiled, why (the guard that failed)
and how long it took.
"""
import os
import sys
import time

from . import _runtime
from ._loader import EXT_SUFFIX, module_stem, source_sha256, sha256_of_file, adopt_artifact
from ._profile import type_name, write_profile

SIDECAR = "__dynac.jit.json"
_FRUITLESS_LIMIT = 16  # misses a compile cannot help before a root stops asking


class CompileError(RuntimeError):
    """A `fullgraph=True` root could not be compiled on its first call (or
    on a guard miss): the generator's error, or no specialisation for the
    call's types. Without fullgraph the function runs in the interpreter."""


CompileError.__module__ = "dynac"


def enabled():
    from . import config
    return config.jit and os.environ.get("DYNAC_JIT", "1") != "0"


def compilable(fn):
    """Can fn's module be compiled on a call: its code came from a .py file."""
    path = fn.__code__.co_filename
    return path.endswith(".py") and os.path.isfile(path)


def _log(msg):
    if "recompiles" in os.environ.get("DYNAC_LOGS", ""):
        print("[dynac recompiles] " + msg, file=sys.stderr)


def generator_key():
    """What else an artifact depends on: dynac's version, the runtime ABI and
    the generator binary (its size and modification time)."""
    from . import _config
    st = os.stat(_config.GENERATOR)
    return "%s abi %d generator %d:%d" % (getattr(_config, "VERSION", "?"), _runtime.ABI_VERSION,
                                           st.st_size, st.st_mtime_ns)


def sidecar_of(artifact_path):
    return artifact_path[: -len(EXT_SUFFIX)] + ".jit.json"


def _read_sidecar(path, sha):
    """{(file, qualname, firstlineno): {signature: calls}} of a sidecar made
    for this source and generator ({} otherwise)."""
    import json
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return {}
    if doc.get("source_sha256") != sha or doc.get("dynac") != generator_key():
        return {}
    seen = {}
    for fn in doc.get("functions", []):
        key = (fn["file"], fn["qualname"], fn["firstlineno"])
        seen[key] = {tuple(s["args"]): s.get("calls", 1) for s in fn["signatures"]}
    return seen


def usable(artifact):
    """An artifact found at decoration: one the JIT made for another
    generator (an upgrade) is rebuilt instead; `dynac build`'s have no sidecar.
    Decided once per artifact (every decorated function of a module asks)."""
    ok = _usable.get(artifact)
    if ok is None:
        side = sidecar_of(artifact.__file__)
        ok = _usable[artifact] = (not os.path.exists(side)
                                  or bool(_read_sidecar(side, artifact.__dynac_source_sha256__)))
    return ok


_usable = {}  # artifact module -> usable()


def user_cache_root():
    """$XDG_CACHE_HOME/dynac (~/.cache/dynac when unset): user_cache_dir's parent."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dynac")


def user_cache_dir(source):
    """$XDG_CACHE_HOME/dynac/<hash of the source's folder> (~/.cache when unset)."""
    from ._loader import sha256_hex
    folder = os.path.dirname(os.path.realpath(source))
    return os.path.join(user_cache_root(), sha256_hex(folder.encode("utf-8", "surrogateescape"))[:16])


def _writable_dir(source):
    """__dynac__ beside the source if it can be written there, else the user cache."""
    for d in (os.path.join(os.path.dirname(os.path.abspath(source)), "__dynac__"), user_cache_dir(source)):
        try:
            os.makedirs(d, exist_ok=True)
        except OSError:
            continue
        if os.access(d, os.W_OK | os.X_OK):
            return d
    raise _BuildFailed("no folder to write the artifact to (neither __dynac__ beside the source "
                       "nor %s can be written)" % user_cache_dir(source))


class _BuildFailed(Exception):
    pass


class _FileLock:
    """An exclusive flock on `path` for the with-block: one build per module
    at a time across processes (released if the process dies)."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        import fcntl
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        os.close(self.fd)  # releases the lock


class _Module:
    """One source file's compile state in this process: its JIT roots and
    the newest artifact built or loaded for it."""

    def __init__(self, source, module_globals=None):
        self.source = os.path.abspath(source)
        self.stem = module_stem(source)
        self.roots = []
        self.observed = {}    # (file, qualname, line) -> {signature: 1}: hot functions (_hot.py)
        self.globals = module_globals
        self.artifact = None  # the artifact attached last (at decoration or by a build)

    def signatures(self):
        """{(file, qualname, firstlineno): {signature: 1}} of every root's calls compiled for."""
        seen = {k: dict(v) for k, v in self.observed.items()}
        for r in self.roots:
            co = r.fn.__code__
            key = (os.path.realpath(co.co_filename), co.co_qualname, co.co_firstlineno)
            for sig in r.compiled:
                seen.setdefault(key, {})[sig] = 1
        return seen

    def build(self):
        """The module's artifact for every signature compiled for, in this
        process and before (the sidecar): loaded from the disk cache when a
        process built it already, else built. Raises _BuildFailed."""
        sha = source_sha256(self.source)
        if sha256_of_file(self.source) != sha:
            raise _BuildFailed("%s was edited since it was imported (the running code is not the "
                               "file's); it is compiled when the program next starts" % self.source)
        folder = _writable_dir(self.source)
        target = os.path.join(folder, self.stem + "__dynac" + EXT_SUFFIX)
        with _FileLock(os.path.join(folder, "." + self.stem + "__dynac.lock")):
            seen = _read_sidecar(sidecar_of(target), sha)
            wanted = self.signatures()
            covered = all(sig in seen.get(k, {}) for k, sigs in wanted.items() for sig in sigs)
            if covered and os.path.exists(target):
                artifact = adopt_artifact(target, fresh=True)
                if artifact is not None and artifact.__dynac_source_sha256__ == sha:
                    _log("%s: loaded %s (built by another process)" % (self.source, target))
                    return artifact
            for k, sigs in wanted.items():
                seen.setdefault(k, {}).update(sigs)
            return self._compile(folder, target, seen, sha)

    def _compile(self, folder, target, seen, sha):
        import shutil
        import subprocess
        import tempfile
        from . import _config
        from ._cli import generator_env
        tmp = tempfile.mkdtemp(prefix=".build-", dir=folder)
        try:
            profile = os.path.join(tmp, "profile.json")
            write_profile(profile, seen)
            t0 = time.perf_counter()
            log = os.path.join(tmp, "build.log")
            try:  # output to a file, not pipes: waiting takes no GIL (other threads run meanwhile)
                with open(log, "w") as out:
                    proc = subprocess.run([_config.GENERATOR, "build", "--trusted-syntax", "--times",
                                           self.source, "--profile", profile, "-o", tmp],
                                          env=generator_env(), stdout=out, stderr=subprocess.STDOUT)
                with open(log) as f:
                    proc.stderr = f.read()
            except OSError as e:
                raise _BuildFailed("cannot run the generator %s (%s)" % (_config.GENERATOR, e))
            built = os.path.join(tmp, self.stem + "__dynac" + EXT_SUFFIX)
            if proc.returncode or not os.path.exists(built):
                lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
                errors = [ln for ln in lines if "error:" in ln] or lines
                raise _BuildFailed("the build failed: %s" % ("\n  ".join(errors[:6]) or
                                                              "exit status %d" % proc.returncode))
            artifact = adopt_artifact(built, fresh=True, canonical=target)
            if artifact is None:
                raise _BuildFailed("the built artifact %s does not load" % built)
            os.replace(built, target)  # atomic: another process sees the old file or this one
            from ._explain import note_build
            note_build(target, proc.stderr)
            c_file = built[: -len(EXT_SUFFIX)] + ".c"
            if os.path.exists(c_file):
                os.replace(c_file, target[: -len(EXT_SUFFIX)] + ".c")
            side = os.path.join(tmp, "sidecar.json")
            write_profile(side, seen, source_sha256=sha, dynac=generator_key())
            os.replace(side, sidecar_of(target))
            _log("%s: built %s in %.2f s" % (self.source, target, time.perf_counter() - t0))
            return artifact
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def attach(self, artifact):
        """Attaches the artifact to every function of the module it compiled
        (roots and the functions they call), superseding earlier artifacts."""
        from . import _functions_named
        from ._explain import note_load
        from ._loader import attach_resumes
        t0 = time.perf_counter()
        g = self.roots[0].fn.__globals__ if self.roots else self.globals
        modname = (self.roots[0].fn.__module__ if self.roots else g.get("__name__")) or self.stem
        codes = []
        for qualname, line, entries in _runtime.describe(artifact):
            for f in _functions_named(g, qualname):
                if f.__code__.co_firstlineno == line:
                    _runtime.attach_function(f, artifact, modname, True)
                    codes.append(f.__code__)
        for r in self.roots:  # a root not reachable by name (a nested def, a rebinding)
            if r.fn.__code__ not in codes:
                _runtime.attach_function(r.fn, artifact, modname, True)
                codes.append(r.fn.__code__)
        attach_resumes(codes, artifact, g, self.source)
        note_load(artifact.__file__, (time.perf_counter() - t0) * 1000.0)


_modules = {}  # abspath -> _Module


def module_for(source, module_globals):
    """The compile state of the module `source` whose globals are module_globals."""
    m = _modules.setdefault(os.path.abspath(source), _Module(source, module_globals))
    if m.globals is None:
        m.globals = module_globals
    return m


def signature_of(fn, args, kwargs):
    """The kernel type spelling of each parameter for the call fn(*args,
    **kwargs), in co_varnames order as kernels take them (`dynac record`'s
    profile spelling); *args and **kwargs are objects. Raises TypeError
    when the call does not bind (the interpreter reports it)."""
    co = fn.__code__
    n = co.co_argcount + co.co_kwonlyargcount
    nvar = bool(co.co_flags & 0x4) + bool(co.co_flags & 0x8)
    if not kwargs and len(args) == co.co_argcount and n == co.co_argcount and not nvar:
        values = args
    else:
        import inspect
        bound = inspect.signature(fn).bind(*args, **(kwargs or {}))
        bound.apply_defaults()
        values = [bound.arguments[name] for name in co.co_varnames[:n]]
    return tuple(type_name(v) for v in values) + ("object",) * nvar


class Root:
    """A compile root's on-miss handler (runtime/compiled.h calls it as
    on_miss(args, kwargs, reason) for a call no cache entry accepted):
    True: a specialisation was compiled and attached, retry the cache;
    False: the interpreter runs this call; None: and never ask again."""

    def __init__(self, fn, options):
        self.fn = fn
        self.fullgraph = bool(options.get("fullgraph"))
        self.compiled = set()   # signatures compiled for
        self.fruitless = 0      # misses no compile could help
        self.module = module_for(fn.__code__.co_filename, fn.__globals__)
        self.module.roots.append(self)

    def on_miss(self, args, kwargs, reason):
        from . import config
        try:
            sig = signature_of(self.fn, args, kwargs)
        except TypeError:
            return False  # the interpreter raises the call's own TypeError
        name = "%s.%s" % (self.fn.__module__, self.fn.__qualname__)
        if sig in self.compiled:
            self.fruitless += 1
            return None if self.fruitless >= _FRUITLESS_LIMIT else False
        if len(self.compiled) >= config.cache_size_limit:
            return self._give_up("cache_size_limit (%d) reached: calls of new types run in the "
                                 "interpreter; raise dynac.config.cache_size_limit"
                                 % config.cache_size_limit)
        self.compiled.add(sig)
        _log("%s: compiling a specialisation for (%s) (%s)" % (
            name, ", ".join(sig), "first call" if reason is None else "no cache entry accepted the "
            "call: " + reason))
        before = self._entries(self.module.artifact)
        try:
            artifact = self.module.build()
            self.module.attach(artifact)
        except _BuildFailed as e:
            return self._give_up(str(e))
        self.module.artifact = artifact
        if self._entries(artifact) <= before:
            failed = self._give_up("no specialisation for (%s) could be compiled; 'python3 -m dynac "
                                   "explain %s' says why" % (", ".join(sig), self.fn.__code__.co_filename),
                                   final=False)
            if failed is not None:
                return failed
        return True

    def _entries(self, artifact):
        """How many specialisations of fn the artifact (or None) has."""
        if artifact is None:
            return 0
        co = self.fn.__code__
        return sum(len(e) for q, line, e in _runtime.describe(artifact)
                   if q == co.co_qualname and line == co.co_firstlineno)

    def _give_up(self, why, final=True):
        """A warning (the interpreter runs the call; None when final: stop
        asking), or for a fullgraph root the CompileError the call raises."""
        if self.fullgraph:
            return CompileError("dynac: %s (fullgraph=True) cannot be compiled: %s"
                                % (self.fn.__qualname__, why))
        import warnings
        warnings.warn("dynac: %s runs in the interpreter%s: %s" % (
            self.fn.__qualname__, "" if final else " for these argument types", why),
            RuntimeWarning, stacklevel=3)  # the caller's line
        return None if final else False
