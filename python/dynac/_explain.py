"""dynac.explain() and dynac.compile_times(): the generator's own report
(`dynac explain --json`) and phase times, from Python (after Dynamo's
torch._dynamo.explain and torch._dynamo.utils.compile_times)."""
import os

_load_times = {}  # artifact path -> ms spent loading and attaching it (the runtime's phase)


def note_load(path, ms):
    _load_times[path] = _load_times.get(path, 0.0) + ms


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
    """Phase times: the generator's (parse, scope, annotations, infer), timed
    again on the source of every artifact loaded so far, and the runtime's
    load-and-attach time per artifact. repr="str": a table; "dict": the data."""
    from ._loader import _loaded
    data = {}
    for path, mod in sorted(_loaded.items()):
        if mod is None:
            continue
        src = getattr(mod, "__dynac_source_path__", None)
        entry = {"attach": _load_times.get(path, 0.0)}
        if src and os.path.exists(src):
            entry.update(_explain_json(src)["compile_times_ms"])
        data[os.path.basename(path)] = entry
    if repr == "dict":
        return data
    phases = ["parse", "scope", "annotations", "ir", "infer", "analyses", "attach"]
    rows = ["%-40s %s" % ("artifact", " ".join("%11s" % p for p in phases))]
    for name, e in data.items():
        rows.append("%-40s %s" % (name, " ".join("%11.3f" % e.get(p, 0.0) for p in phases)))
    return "\n".join(rows) + "\n(milliseconds)"
