"""dynac.compiler: torch.compiler's names on dynac (PyTorch's public
compiler API: compile, disable, allow_in_graph, assume_constant_result,
reset, list_backends, is_compiling, is_dynamo_compiling), so code written
against `torch.compiler` runs with `from dynac import compiler`.

torch.compiler.compile takes torch.compile's keywords; dynac reads
fullgraph, backend ("inductor" is "c") and its own signatures=; dynamic,
mode and options are accepted and do nothing (dynac specialises on exact
types, never on shapes); disable=True returns the function unchanged.
"""
import dynac as _dynac

__all__ = ["compile", "disable", "allow_in_graph", "assume_constant_result", "reset",
           "list_backends", "is_compiling", "is_dynamo_compiling", "cudagraph_mark_step_begin"]


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, disable=False, signatures=None):
    """torch.compile's signature on dynac.compile: a CompiledFunction (or a
    decorator without `model`), compiled on first call or from a build."""
    if disable:
        return model if model is not None else (lambda fn: fn)
    opts = {"fullgraph": fullgraph} if fullgraph else {}
    if backend not in ("inductor", None):
        opts["backend"] = backend
    if signatures is not None:
        opts["signatures"] = signatures
    return _dynac.compile(model, **opts) if model is not None else _dynac.compile(**opts)


disable = _dynac.disable
allow_in_graph = _dynac.allow_in_graph
assume_constant_result = _dynac.assume_constant_result
reset = _dynac.reset
list_backends = _dynac.list_backends
is_compiling = _dynac.is_compiling
is_dynamo_compiling = _dynac.is_compiling


def cudagraph_mark_step_begin():
    """No CUDA graphs here: a no-op, as in torch without CUDA."""
