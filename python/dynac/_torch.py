"""A stand-in for `torch` when PyTorch is not installed, under
`python3 -m dynac run` and `record`: code written for torch.compile imports
`torch` and finds the compile API mapped onto dynac's —
`torch.compile`, `torch.compiler.*` (dynac.compiler), `torch._dynamo.*`
(disable, allow_in_graph, disallow_in_graph, graph_break, assume_constant_result,
reset, list_backends, explain, is_compiling, config.suppress_errors,
config.cache_size_limit). Anything else (tensors, nn, ...) raises an
AttributeError saying PyTorch is needed for it. A real torch, when it can
be imported, always wins: the finder steps aside."""
import importlib.machinery
import sys
import types

import dynac

# No importlib.abc base classes: importing it pulls importlib.resources,
# pathlib and tempfile, ~20 ms of every `dynac run`; the import system needs
# only the methods.

STAND_IN = ("torch", "torch.compiler", "torch._dynamo", "torch._dynamo.config")


class _DynamoConfig(types.ModuleType):
    """torch._dynamo.config: suppress_errors and cache_size_limit are
    dynac.config's; other settings are kept and have no effect."""

    def __getattr__(self, name):
        if name in ("suppress_errors", "cache_size_limit"):
            return getattr(dynac.config, name)
        raise AttributeError("torch._dynamo.config (dynac's stand-in) has no setting %r" % name)

    def __setattr__(self, name, value):
        if name in ("suppress_errors", "cache_size_limit"):
            setattr(dynac.config, name, value)
        else:
            super().__setattr__(name, value)


def _missing(modname):
    def __getattr__(name):
        raise AttributeError(
            "module %r has no attribute %r: this is dynac's stand-in for PyTorch (not installed), "
            "which has only the compile API (torch.compile, torch.compiler.*, torch._dynamo.*); "
            "install PyTorch for the rest" % (modname, name))
    return __getattr__


def _build(name):
    from dynac import compiler as _compiler  # when torch is imported, not at `dynac run`'s start
    if name == "torch._dynamo.config":
        mod = _DynamoConfig(name)
        return mod
    mod = types.ModuleType(name)
    mod.__getattr__ = _missing(name)
    if name == "torch":
        mod.compile = _compiler.compile
        mod.__version__ = "0+dynac.stand.in"
    elif name == "torch.compiler":
        for k in _compiler.__all__:
            setattr(mod, k, getattr(_compiler, k))
    elif name == "torch._dynamo":
        for k in ("disable", "allow_in_graph", "disallow_in_graph", "graph_break",
                  "assume_constant_result", "reset", "list_backends", "explain", "is_compiling"):
            setattr(mod, k, getattr(dynac, k))
        mod.optimize = lambda backend="inductor", nopython=False, **kw: _compiler.compile(
            backend=backend, fullgraph=nopython)
    return mod


class _Loader:
    """Makes the stand-in modules (an importlib Loader)."""

    def create_module(self, spec):
        return _build(spec.name)

    def exec_module(self, module):
        parent, _, child = module.__name__.rpartition(".")
        if parent:  # `import torch.compiler` binds it on torch, as a package import does
            setattr(sys.modules[parent], child, module)
        if module.__name__ == "torch":
            import torch.compiler  # noqa: F401 - torch.compiler.disable without its own import
            import torch._dynamo  # noqa: F401
        if module.__name__ == "torch._dynamo":
            import torch._dynamo.config  # noqa: F401


class StandInFinder:
    """sys.meta_path entry (last): answers for torch only when no real one exists."""

    def find_spec(self, name, path=None, target=None):
        if name not in STAND_IN:
            return None
        if name == "torch" and importlib.machinery.PathFinder.find_spec("torch") is not None:
            return None  # PyTorch is installed
        if name != "torch" and not isinstance(sys.modules.get("torch"), types.ModuleType):
            return None
        if name != "torch" and getattr(sys.modules["torch"], "__version__", "") != "0+dynac.stand.in":
            return None  # a real torch's own submodules
        return importlib.machinery.ModuleSpec(name, _Loader(), is_package=name in ("torch", "torch._dynamo"))


def install():
    """Lets `import torch` find the stand-in when PyTorch is not installed."""
    if not any(isinstance(f, StandInFinder) for f in sys.meta_path):
        sys.meta_path.append(StandInFinder())
