"""dynac.explain() and dynac.compile_times(): the generator's own report
(`dynac explain --json`) and phase times, from Python (after Dynamo's
torch._dynamo.explain and torch._dynamo.utils.compile_times)."""
import os

_load_times = {}   # artifact path -> ms spent loading and attaching it (the runtime's phase)
_build_times = {}  # artifact path -> {phase: ms} of the build that made it in this process


def note_load(path, ms):
    _load_times[path] = _load_times.get(path, 0.0) + ms


def parse_phase_times(stderr):
    """{phase: ms} from the generator's `--times` line ("FILE: compile times
    (ms): parse 1.518, ..., emit 1.234, cc 342.227"); {} if there is none."""
    import re
    for line in stderr.splitlines():
        if "compile times (ms):" in line:
            tail = line.split("compile times (ms):", 1)[1]
            return {k: float(v) for k, v in re.findall(r"([a-z]+) ([0-9.]+)", tail)}
    return {}


def note_build(path, stderr):
    """Keeps the phase times of a build (compile on first call) of `path`."""
    times = parse_phase_times(stderr)
    if times:
        _build_times[path] = times


def _timed_build(src):
    """The phase times of building `src` again (front end, emit and the C
    compiler), into a temporary folder: {phase: ms}."""
    import shutil
    import subprocess
    import tempfile
    from . import _config
    from ._cli import generator_env
    tmp = tempfile.mkdtemp(prefix="dynac-times-")
    try:
        r = subprocess.run([_config.GENERATOR, "build", "--times", "--trusted-syntax", src, "-o", tmp],
                           capture_output=True, text=True, env=generator_env())
        return parse_phase_times(r.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _explain_json(path):
    import json  # imported when used: `import dynac` stays quick (dynac run's start-up)
    import subprocess
    from . import _config
    from ._cli import generator_env
    r = subprocess.run([_config.GENERATOR, "explain", "--json", "--trusted-syntax", path],
                       capture_output=True, text=True, env=generator_env())
    if r.returncode:
        raise RuntimeError("dynac explain %s failed:\n%s" % (path, r.stderr))
    return json.loads(r.stdout)[0]


class ExplainOutput:
    """What `dynac explain` reports for one function (or a whole module):
    graph_count, graph_break_count, break_reasons (dicts with id, type, line,
    col, source, reason, hint), ops_per_graph, guards (per specialisation),
    compile_times (generator phases, ms). str() gives a readable summary."""

    def __init__(self, report, functions):
        self.file = report["file"]
        self.functions = functions
        self.graph_count = sum(f["graph_count"] for f in functions)
        self.break_reasons = [b for f in functions for b in f["graph_breaks"]]
        self.graph_break_count = len(self.break_reasons)
        self.ops_per_graph = [f.get("ops_per_graph", []) for f in functions if f["compiled"]]
        self.guards = {f["qualname"]: {s["signature"]: s.get("guards", []) for s in
                                       f["specialisations"]} for f in functions}
        self.compile_times = report["compile_times_ms"]

    def __str__(self):
        out = ["Graph Count: %d" % self.graph_count,
               "Graph Break Count: %d" % self.graph_break_count,
               "Ops per Graph: %s" % self.ops_per_graph, "Break Reasons:"]
        for b in self.break_reasons:
            out.append("  %s (%s) at %s:%d:%d: %s\n    %s\n    hint: %s" % (
                b["id"], b["type"], self.file, b["line"], b["col"], b["reason"],
                b["source"].strip(), b["hint"]))
        out.append("Compile Times (ms): %s" % ", ".join(
            "%s %.3f" % kv for kv in self.compile_times.items()))
        return "\n".join(out)

    __repr__ = __str__


def explain(target):
    """ExplainOutput for a function (its module's report, narrowed to it) or
    for a .py path (the whole module)."""
    target = getattr(target, "__wrapped__", target)
    if isinstance(target, str):
        report = _explain_json(target)
        return ExplainOutput(report, report["functions"])
    code = target.__code__
    report = _explain_json(code.co_filename)
    fns = [f for f in report["functions"] if f["qualname"] == code.co_qualname]
    return ExplainOutput(report, fns)


def compile_times(repr="str"):
    """Phase times per artifact loaded so far (after torch._dynamo.utils.
    compile_times): the generator's (parse, scope, annotations, ir, infer,
    analyses, emit) and the C compiler's (cc), as measured when this process
    compiled it on first call, else measured by building its source again;
    and the runtime's load-and-attach time. repr="str": a table of
    milliseconds; "dict": {artifact file name: {phase: ms}}."""
    from ._loader import _loaded
    data = {}
    for path, mod in sorted(_loaded.items()):
        if mod is None:
            continue
        src = getattr(mod, "__dynac_source_path__", None)
        entry = {"attach": _load_times.get(path, 0.0) + _load_times.get(mod.__file__, 0.0)}
        if path in _build_times:
            entry.update(_build_times[path])
        elif src and os.path.exists(src):
            entry.update(_timed_build(src))
        data[os.path.basename(path)] = entry
    if repr == "dict":
        return data
    phases = ["parse", "scope", "annotations", "ir", "infer", "analyses", "emit", "cc", "attach"]
    rows = ["%-40s %s" % ("artifact", " ".join("%11s" % p for p in phases))]
    for name, e in data.items():
        rows.append("%-40s %s" % (name, " ".join("%11.3f" % e.get(p, 0.0) for p in phases)))
    return "\n".join(rows) + "\n(milliseconds)"
