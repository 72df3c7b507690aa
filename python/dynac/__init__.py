"""dynac: ahead-of-time compilation of plain Python numeric code to C.

Annotations (recognised statically by `dynac build`; at run time they make
annotated code run unchanged, with or without a build):

    @dynac.compile                      a compile root (torch.compile spelling too)
    @dynac.compile(signatures=["(float, int) -> float"], fullgraph=True)
    @dynac.disable                      never compiled; recursive=False: only its own frame
    @dynac.allow_in_graph / dynac.disallow_in_graph(fn)
    @dynac.assume_constant_result       called once, a constant in kernels
    dynac.graph_break()                 an explicit graph break
    dynac.is_compiling()                True inside kernels, False here

`@dynac.compile` returns a CompiledFunction that runs the kernels when their
guards pass and the original function otherwise. Its module is compiled on
its first call when no current artifact exists (_jit.py; `dynac build`
writes the same __dynac__/NAME__dynac*.so ahead of time). `python3 -m dynac run`
serves every function of every built module through the frame hook.
"""
import os as _os

from . import _jit, _runtime
from ._explain import ExplainOutput, compile_times, explain
from ._jit import CompileError
from ._loader import artifact_for, attach_function

__all__ = ["compile", "disable", "allow_in_graph", "disallow_in_graph", "graph_break",
           "assume_constant_result", "is_compiling", "stats", "reset_stats",
           "list_backends", "config", "CompiledFunction", "reset", "explain",
           "compile_times", "ExplainOutput", "CompileError"]

CompiledFunction = _runtime.CompiledFunction


class _Config:
    """Run-time settings. `artifact_path`: extra directories searched for
    built modules (also $DYNAC_PATH, colon-separated). `suppress_errors`
    (also $DYNAC_SUPPRESS_ERRORS=1; off by default): a failure to attach a
    function's kernels leaves it to the interpreter with a warning instead of
    raising; `dynac build --suppress-errors` does the same for the generator.
    `jit` (also $DYNAC_JIT=0 to turn off): compile roots on first call.
    `cache_size_limit`: specialisations compiled on calls per function (8,
    also the runtime's cache size)."""

    def __init__(self):
        env = _os.environ.get("DYNAC_PATH", "")
        self.artifact_path = [p for p in env.split(":") if p]
        self.suppress_errors = _os.environ.get("DYNAC_SUPPRESS_ERRORS") == "1"
        self.jit = _os.environ.get("DYNAC_JIT", "1") != "0"
        self.cache_size_limit = 8


config = _Config()

_COMPILE_OPTIONS = frozenset(_runtime.COMPILE_OPTIONS)  # runtime/artifact.h: the generator's list too


def compile(fn=None, **options):
    """Marks `fn` as a compile root (decorator, with or without options).

    Options are read by the generator (fullgraph, signatures, backend); an
    unknown one raises TypeError here as it is an error there. Returns a
    CompiledFunction: served by a current build of fn's module, or compiled
    on its first call (and again on a guard miss, up to
    config.cache_size_limit); with compiling off (DYNAC_JIT=0, config.jit)
    and no current build, fn itself, unchanged. A fullgraph root that
    cannot be compiled raises CompileError at that call.
    """
    unknown = set(options) - _COMPILE_OPTIONS
    if unknown:
        raise TypeError("dynac.compile() got unknown option(s) %s; known: %s"
                        % (", ".join(sorted(unknown)), ", ".join(sorted(_COMPILE_OPTIONS))))
    if fn is None:
        return lambda f: compile(f, **options)
    if not hasattr(fn, "__code__"):
        return fn
    jit = _jit.enabled() and _jit.compilable(fn)
    artifact = artifact_for(fn.__code__.co_filename, config.artifact_path, warn_stale=not jit)
    if jit and artifact is not None and not _jit.usable(artifact):
        artifact = None  # compiled on first call by another generator: rebuilt
    served = 0
    if artifact is not None:
        try:
            served = attach_function(fn, artifact)
            _attach_module(artifact, fn)
        except Exception as e:  # noqa: BLE001 - suppress_errors decides
            if not (jit or config.suppress_errors):
                raise
            if not jit:
                import warnings
                warnings.warn("dynac: %s runs in the interpreter: attaching its kernels failed (%s: "
                              "%s; suppress_errors is set)" % (fn.__qualname__, type(e).__name__, e),
                              RuntimeWarning, stacklevel=2)
                return fn
            _jit._log("%s: the artifact found cannot be attached (%s: %s); compiled anew on first "
                      "call" % (fn.__qualname__, type(e).__name__, e))
            artifact = None  # e.g. built for another runtime ABI
    if not served and not jit:
        return fn
    first_call = (lambda: _attach_module(artifact, fn)) if artifact is not None else None
    on_miss = None
    if jit:
        root = _jit.Root(fn, options)
        root.module.artifact = root.module.artifact or artifact
        on_miss = root.on_miss
    compiled = _runtime.compiled_function(fn, first_call, on_miss)
    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        try:
            setattr(compiled, attr, getattr(fn, attr))
        except AttributeError:
            pass
    return compiled


def _attach_module(artifact, fn):
    """The other functions of fn's module the artifact compiled get their
    caches too (again at the first call, for those defined after fn). As in
    Dynamo, those that are not roots dispatch only inside a root's call."""
    from ._loader import attach_resumes
    g = getattr(fn, "__globals__", {})
    modname = getattr(fn, "__module__", "") or ""
    codes = []
    for qualname, line, entries in _runtime.describe(artifact):
        for f in _functions_named(g, qualname):
            if (f.__code__.co_firstlineno == line and f is not fn
                    and f.__code__ not in _attached):
                _runtime.attach_function(f, artifact, modname)
                _attached.add(f.__code__)
                codes.append(f.__code__)
    attach_resumes(codes, artifact, g, fn.__code__.co_filename)


def _functions_named(g, qualname):
    """The plain functions `qualname` names in module globals g: a function
    ("f"), or one in a class ("Class.m", "Outer.Inner.m") as the class holds
    it (a function, staticmethod, classmethod, or a property's fget, fset,
    fdel), unwrapped from a CompiledFunction."""
    *classes, name = qualname.split(".")
    scope = g
    for c in classes:
        cls = scope.get(c) if isinstance(scope, dict) else None
        if not isinstance(cls, type):
            return []
        scope = vars(cls)
    v = scope.get(name) if hasattr(scope, "get") else None
    if isinstance(v, (staticmethod, classmethod)):
        v = v.__func__
    found = [v] if not isinstance(v, property) else [v.fget, v.fset, v.fdel]
    found = [getattr(f, "__wrapped__", f) if isinstance(f, CompiledFunction) else f for f in found]
    return [f for f in found if type(f).__name__ == "function"]


_attached = set()  # code objects _attach_module has attached


class _Disable:
    """What `disable()` without a function returns: a decorator, and a `with`
    block whose body runs in the interpreter (recursive: everything it calls
    too; see disable)."""

    def __init__(self, recursive):
        self.recursive = recursive

    def __call__(self, fn):
        return disable(fn, recursive=self.recursive)

    def __enter__(self):
        if self.recursive:
            _runtime.disable_enter()
        return self

    def __exit__(self, *exc):
        if self.recursive:
            _runtime.disable_exit()
        return False


def disable(fn=None, recursive=True, reason=None, wrapping=True):
    """Runs `fn` in the interpreter (after torch.compiler.disable).

    recursive=True: fn's frame and every frame it calls run in the
    interpreter, compiled callees included. recursive=False: only fn's own
    frame; the functions it calls still dispatch to their kernels. The
    build treats a call to a disabled function as a graph break.

    Returns a new function; fn itself is not changed, so other callers of the
    original keep their kernels. Without fn: a decorator, or a `with` block.
    """
    if fn is None:
        return _Disable(recursive)
    if recursive:
        def disabled(*args, **kwargs):
            _runtime.disable_enter()
            try:
                return fn(*args, **kwargs)
            finally:
                _runtime.disable_exit()
    else:
        def disabled(*args, **kwargs):
            return _runtime.call_interpreted(fn, *args, **kwargs)
    import functools  # here: `import dynac` need not import it (~2 ms with collections)
    functools.update_wrapper(disabled, fn)
    return disabled


def allow_in_graph(fn):
    """Marks `fn` as an opaque call inside graphs: the build calls it from the
    kernel instead of breaking the graph (its own frame may still run
    compiled). At run time this reverses disallow_in_graph(fn). Returns fn."""
    _runtime.set_disallowed(fn, False)
    return fn


def disallow_in_graph(fn):
    """Calls to `fn` break the graph and fn runs in the interpreter: a global
    setting, honoured by the build when written at module level and by the
    runtime for kernels already built (their guards fail, so their frames
    run in the interpreter). allow_in_graph(fn) reverses it. Returns fn."""
    _runtime.set_disallowed(fn, True)
    return fn


def assume_constant_result(fn):
    """Marks `fn`'s result as a constant: the build needs its return
    annotation (int, float or bool); compiled code calls fn once per process
    (guarded by fn's identity) and uses the result. Returns fn unchanged."""
    return fn


def reset():
    """Clears every cache (Dynamo's reset()): entries, counters and the results
    of assume_constant_result functions. Caches re-add their entries from the
    artifact on their next call (DYNAC_LOGS=recompiles shows it)."""
    _runtime.reset()


def graph_break():
    """An explicit graph break; a no-op in the interpreter."""


def is_compiling():
    """True inside compiled kernels (folded at build time), False here."""
    return False


def stats():
    """Dispatch counters: {"module.qualname": {"kernel_calls", "direct_calls",
    "interpreter_calls", "guard_failures", "deopts", "entries": [...]}}."""
    return _runtime.stats()


def reset_stats():
    """Sets every dispatch counter to zero."""
    _runtime.reset_stats()


def list_backends():
    """The backends `backend=` accepts: "c" (kernels) and "eager" (guards and
    dispatch run, then the interpreter: for debugging a miscompile)."""
    return ["c", "eager"]
