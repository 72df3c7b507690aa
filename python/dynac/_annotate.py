"""`python3 -m dynac annotate FILE.py [-o FILE.html]`: the source as HTML
with each line of each function marked typed (T, green: unboxed C values),
generic (G, yellow: through the C API, with the first value that makes it
so) or interpreted (I, red: a graph break, or a function not compiled);
clicking a line shows its reason and the C generated for it (every
specialisation), hovering shows the reason. A summary per function heads the
page. The idea is Cython's `cython -a`. The marks are `explain --json
--lines`; the C is `build --emit-only`, cut at its `/* FILE:LINE: */` comments.
"""
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile

USAGE = """usage: python3 -m dynac annotate FILE.py [-o FILE.html] [--profile PROFILE] [--all]

Writes FILE.html (default: beside FILE.py): every line of every function
marked T typed, G generic or I interpreted, with the reason and the
generated C of each line (click a line; hover for the reason), and a summary
per function. --profile and --all are build's."""

CSS = """
body { font: 14px/1.45 monospace; margin: 1.5em; color: #1b1b1b; }
h1 { font-size: 18px; } table { border-collapse: collapse; margin-bottom: 1.5em; }
td, th { border: 1px solid #bbb; padding: 2px 8px; text-align: left; vertical-align: top; }
.legend span { padding: 1px 8px; margin-right: 6px; }
.T { background: #c8f0c8; } .G { background: #ffe98a; } .I { background: #f5b0b0; }
.line { white-space: pre; } .no { color: #777; display: inline-block; width: 4em; }
details > summary { list-style: none; cursor: pointer; white-space: pre; }
details > summary::-webkit-details-marker { display: none; }
.why { margin: 2px 0 2px 4em; font-style: italic; }
pre.c { margin: 2px 0 6px 4em; padding: 6px; background: #23262e; color: #e8e8e8; }
"""
SCRIPT = """
function openTarget() {
  var d = location.hash && document.getElementById(location.hash.slice(1));
  if (d && d.tagName === 'DETAILS') { d.open = true; d.scrollIntoView(); }
}
window.addEventListener('hashchange', openTarget); openTarget();
"""


def _generator(cmd, path, extra):
    from . import _config
    from ._cli import generator_env
    return subprocess.run([_config.GENERATOR, cmd, "--trusted-syntax", path] + extra,
                          capture_output=True, text=True, env=generator_env())


def c_by_line(c_source, basename):
    """{python line: [C text, ...]}: the generated C cut at its
    `/* NAME.py:LINE: ... */` comments (one chunk per comment)."""
    marker = re.compile(r"^\s*/\* %s:(\d+): " % re.escape(basename))
    out, cur, chunk = {}, None, []
    for line in c_source.splitlines():
        m = marker.match(line)
        if m:
            if cur is not None:
                out.setdefault(cur, []).append("\n".join(chunk).rstrip())
            cur, chunk = int(m.group(1)), [line]
        elif cur is not None:
            if line.startswith("}") or line.startswith("static ") or line.startswith("#"):
                out.setdefault(cur, []).append("\n".join(chunk + [line]).rstrip())
                cur, chunk = None, []
            else:
                chunk.append(line)
    if cur is not None:
        out.setdefault(cur, []).append("\n".join(chunk).rstrip())
    return out


def render(path, report, c_lines):
    """The HTML page for `path` from explain's report and c_by_line."""
    with open(path, encoding="utf-8", errors="replace") as f:
        src = f.read().splitlines()
    marks = {}
    for fn in report["functions"]:
        for ln in fn.get("lines", []):
            marks[ln["line"]] = (ln["mark"], ln.get("why", ""))
    esc = html.escape
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>dynac: %s</title><style>%s</style>"
           "</head><body>" % (esc(os.path.basename(path)), CSS),
           "<h1>%s</h1>" % esc(path),
           "<p class='legend'><span class='T'>T typed</span><span class='G'>G generic (C API)</span>"
           "<span class='I'>I interpreted</span> click a line for its reason and generated C</p>",
           "<table><tr><th>function</th><th>line</th><th>status</th><th>specialisations</th>"
           "<th>graph breaks</th><th>lines T/G/I</th></tr>"]
    for fn in report["functions"]:
        counts = {k: sum(1 for x in fn.get("lines", []) if x["mark"] == k) for k in "TGI"}
        specs = ", ".join(s["signature"] for s in fn.get("specialisations", []) if "signature" in s)
        breaks = "<br>".join("%s line %d: %s" % (esc(b["id"]), b["line"], esc(b["reason"]))
                             for b in fn.get("graph_breaks", []))
        out.append("<tr><td><a href='#L%d'>%s</a></td><td>%d</td><td>%s</td><td>%s</td><td>%s</td>"
                   "<td>%d / %d / %d</td></tr>" % (fn["line"], esc(fn["qualname"]), fn["line"],
                                                   esc(fn["status"]), esc(specs), breaks,
                                                   counts["T"], counts["G"], counts["I"]))
    out.append("</table><div class='source'>")
    for i, text in enumerate(src, 1):
        mark, why = marks.get(i, (None, ""))
        num = "<span class='no'>%d</span>" % i
        code = c_lines.get(i, [])
        if not mark and not code:
            out.append("<div class='line' id='L%d'>%s%s</div>" % (i, num, esc(text) or " "))
            continue
        body = ("<div class='why'>%s</div>" % esc(why) if why else "") + "".join(
            "<pre class='c'>%s</pre>" % esc(c) for c in code)
        out.append("<details id='L%d' class='%s'><summary title='%s'>%s%s</summary>%s</details>" % (
            i, mark or "", esc(why or "", quote=True), num, esc(text) or " ",
            body or "<div class='why'>no C for this line</div>"))
    out.append("</div><script>%s</script></body></html>" % SCRIPT)
    return "\n".join(out)


def annotate(args):
    """The `annotate` command. Returns an exit status."""
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    path, out, extra = None, None, []
    it = iter(args)
    for a in it:
        if a == "-o":
            out = next(it, None)
        elif a == "--profile":
            extra += ["--profile", next(it, "")]
        elif a == "--all":
            extra.append("--all")
        elif a.startswith("-") or path:
            print("python3 -m dynac annotate: unexpected %r\n\n%s" % (a, USAGE), file=sys.stderr)
            return 2
        else:
            path = a
    if not path or not out and out is not None:
        print(USAGE, file=sys.stderr)
        return 2
    out = out or os.path.splitext(path)[0] + ".html"
    import json
    r = _generator("explain", path, ["--json", "--lines"] + extra)
    if r.returncode:
        sys.stderr.write(r.stderr)
        return 1
    report = json.loads(r.stdout)[0]
    tmp = tempfile.mkdtemp(prefix="dynac-annotate-")
    try:
        b = _generator("build", path, ["--emit-only", "-o", tmp] + extra)
        cs = [f for f in os.listdir(tmp) if f.endswith(".c")]
        c_source = open(os.path.join(tmp, cs[0])).read() if cs and not b.returncode else ""
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write(render(path, report, c_by_line(c_source, os.path.basename(path))))
    print("dynac: wrote %s" % out, file=sys.stderr)
    return 0
