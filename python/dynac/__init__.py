"""dynac: ahead-of-time compilation of plain Python numeric code to C.

Annotations (recognised statically by `dynac build`; at run time they make
annotated code run unchanged, with or without a build):

    @dynac.compile                      a compile root (torch.compile spelling too)
    @dynac.compile(signatures=["(float, int) -> float"], fullgraph=True)
    @dynac.disable                      never compiled
    dynac.graph_break()                 an explicit graph break
    dynac.is_compiling()                True inside kernels, False here

Once `dynac build` has written __dynac__/NAME__dynac*.so beside a module,
`@dynac.compile` returns a CompiledFunction that runs the kernels when their
guards pass and the original function otherwise. `python3 -m dynac run`
serves every function of every built module through the frame hook.
"""
import os as _os

from . import _runtime
from ._loader import artifact_for, attach_function

__all__ = ["compile", "disable", "allow_in_graph", "disallow_in_graph", "graph_break",
           "assume_constant_result", "is_compiling", "stats", "reset_stats",
           "list_backends", "config", "CompiledFunction"]

CompiledFunction = _runtime.CompiledFunction


class _Config:
    """Run-time settings. `artifact_path`: extra directories searched for
    built modules (also $DYNAC_PATH, colon-separated)."""

    def __init__(self):
        env = _os.environ.get("DYNAC_PATH", "")
        self.artifact_path = [p for p in env.split(":") if p]
        self.suppress_errors = _os.environ.get("DYNAC_SUPPRESS_ERRORS") == "1"


config = _Config()

_COMPILE_OPTIONS = {"fullgraph", "signatures", "backend", "dynamic", "mode", "options"}


def compile(fn=None, **options):
    """Marks `fn` as a compile root (decorator, with or without options).

    Options are read by `dynac build` (fullgraph, signatures, backend); an
    unknown one raises TypeError here as it is an error there. Returns a
    CompiledFunction when a current build of fn's module exists, else fn
    itself, unchanged.
    """
    unknown = set(options) - _COMPILE_OPTIONS
    if unknown:
        raise TypeError("dynac.compile() got unknown option(s) %s; known: %s"
                        % (", ".join(sorted(unknown)), ", ".join(sorted(_COMPILE_OPTIONS))))
    if fn is None:
        return lambda f: compile(f, **options)
    if options.get("backend") == "eager" or not hasattr(fn, "__code__"):
        return fn
    artifact = artifact_for(fn.__code__.co_filename, config.artifact_path)
    if artifact is None:
        return fn
    served = attach_function(fn, artifact)
    _attach_callees(artifact, fn)
    if not served:
        return fn
    compiled = _runtime.compiled_function(fn)
    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        try:
            setattr(compiled, attr, getattr(fn, attr))
        except AttributeError:
            pass
    return compiled


def _attach_callees(artifact, fn):
    """Callee-only functions already defined in fn's module get their (empty)
    cache too, so their kernel-to-kernel calls show in stats()."""
    g = getattr(fn, "__globals__", {})
    for qualname, line, entries in _runtime.describe(artifact):
        f = g.get(qualname)
        if not entries and type(f).__name__ == "function" and f.__code__.co_firstlineno == line:
            _runtime.attach_function(f, artifact, getattr(f, "__module__", "") or "")


def disable(fn=None, recursive=True, **_ignored):
    """Marks `fn` to run in the interpreter. The static build honours it;
    the function object is returned unchanged."""
    if fn is None:
        return lambda f: f
    return fn


def allow_in_graph(fn):
    """Marks `fn` as an opaque call inside graphs (honoured by the build)."""
    return fn


def disallow_in_graph(fn):
    """Marks calls to `fn` as graph breaks (honoured by the build)."""
    return fn


def assume_constant_result(fn):
    """Marks `fn`'s result as a constant (honoured by the build)."""
    return fn


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
    """The backends `backend=` accepts."""
    return ["c", "eager"]
