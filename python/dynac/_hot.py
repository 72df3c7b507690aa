"""`python3 -m dynac run --jit`: undecorated functions that get hot are
compiled from the types they were observed with, with no record step.

A sampling profiler (PyPy and the JVMs find hot code by counting; CPython's
own tools sample): a daemon thread looks at the main thread's stack every
INTERVAL seconds (sys._current_frames), and counts the running function
(the innermost TOP frames): a function's own time, so a driver loop whose
callees are hot is not compiled for their sake. A function of the program's own source files (not the standard
library's, not site-packages', not dynac's) seen HOT times is hot: the types
of its arguments in the sampled frame are its signature, its module is
rebuilt with every hot function so far as a profiled root (compile on first
call's builder: _jit.py, its disk cache and sidecar included), and the new
artifact is attached. Calls that start after that run the kernels; a call
already running finishes in the interpreter. A build that fails is reported
once (DYNAC_LOGS=recompiles) and the program goes on interpreted.
"""
import os
import sys
import sysconfig
import threading
import time

INTERVAL = 0.005  # seconds between samples
TOP = 1           # frames counted per sample: the running function (its own time)
HOT = 20          # samples that make a function hot (~100 ms of its time)


def _excluded_dirs():
    paths = sysconfig.get_paths()
    dirs = {paths.get("stdlib"), paths.get("platstdlib"), paths.get("purelib"), paths.get("platlib"),
            os.path.dirname(os.path.abspath(__file__))}
    return tuple(os.path.realpath(d) + os.sep for d in dirs if d)


class HotSampler:
    """Samples the main thread's stack; compiles hot functions."""

    def __init__(self):
        self.counts = {}      # code -> samples
        self.hot = set()      # codes compiled (or tried)
        self.stopped = threading.Event()
        self.excluded = _excluded_dirs()
        self._eligible = {}   # code -> bool
        self.thread = threading.Thread(target=self._loop, name="dynac-jit-sampler", daemon=True)

    def start(self):
        self.thread.start()

    def stop(self):
        self.stopped.set()

    def eligible(self, co):
        ok = self._eligible.get(co)
        if ok is None:
            from ._runtime import SKIP_FLAGS
            path = co.co_filename
            ok = (bool(co.co_flags & 0x1) and not co.co_flags & SKIP_FLAGS and path.endswith(".py")
                  and not path.startswith("<") and os.path.isfile(path)
                  and not os.path.realpath(path).startswith(self.excluded))
            self._eligible[co] = ok
        return ok

    def _loop(self):
        main = threading.main_thread().ident
        while not self.stopped.wait(INTERVAL):
            frame = sys._current_frames().get(main)
            for _ in range(TOP):
                if frame is None:
                    break
                co = frame.f_code
                if co not in self.hot and self.eligible(co):
                    n = self.counts[co] = self.counts.get(co, 0) + 1
                    if n >= HOT:
                        self.hot.add(co)
                        self._compile(co, frame)
                frame = frame.f_back

    def _compile(self, co, frame):
        from . import _jit
        from ._profile import type_name
        n = co.co_argcount + co.co_kwonlyargcount
        nvar = bool(co.co_flags & 0x4) + bool(co.co_flags & 0x8)
        loc = frame.f_locals
        sig = tuple(type_name(loc.get(name)) for name in co.co_varnames[:n]) + ("object",) * nvar
        module = _jit.module_for(co.co_filename, frame.f_globals)
        module.observed[(os.path.realpath(co.co_filename), co.co_qualname, co.co_firstlineno)] = {sig: 1}
        _jit._log("%s.%s is hot (%d samples): compiling a specialisation for (%s)" % (
            frame.f_globals.get("__name__", "?"), co.co_qualname, self.counts[co], ", ".join(sig)))
        try:
            artifact = module.build()
            module.attach(artifact)
            module.artifact = artifact
        except _jit._BuildFailed as e:
            _jit._log("%s: not compiled: %s" % (co.co_qualname, e))
        except Exception as e:  # noqa: BLE001 - the program must go on whatever happened here
            _jit._log("%s: not compiled: %s: %s" % (co.co_qualname, type(e).__name__, e))


def start():
    """Starts the sampler (dynac run --jit); returns it."""
    s = HotSampler()
    s.start()
    return s
