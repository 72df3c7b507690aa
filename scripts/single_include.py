"""Assembles single_include/dynac.h from its parts in runtime/ (make single_include).

The runtime is written as parts, one file per concern (runtime/*.h), and
shipped as one header, stb style: this script concatenates the parts in
PARTS' order, each between Begin/End banners, and writes the result. With
--check it only compares: exit status 1 and a message when the committed
header is not what the parts make (the test suite runs this).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARTS = [
    "intro.h",
    "compat_cpython311.h",
    "options.h",
    "plain_c.h",
    "artifact.h",
    "boxing.h",
    "containers.h",
    "undo.h",
    "objects.h",
    "heapq.h",
    "exceptions.h",
    "numpy.h",
    "stores.h",
    "slow_paths.h",
    "continue.h",
    "descriptors.h",
    "records.h",
    "api.h",
    "impl_options.h",
    "cache.h",
    "dispatch.h",
    "hook.h",
    "stats.h",
    "compiled.h",
]
OUT = os.path.join(ROOT, "single_include", "dynac.h")


def banner(kind, name):
    """`/* ==== Begin runtime/NAME ==== */`, and End: dynac export finds a part by these."""
    return "/* ==== %s runtime/%s ==== */\n" % (kind, name)


def assemble():
    text = []
    for name in PARTS:
        with open(os.path.join(ROOT, "runtime", name), encoding="utf-8") as f:
            body = f.read()
        if not body.endswith("\n"):
            body += "\n"
        text.append(banner("Begin", name) + body + banner("End", name))
    return "".join(text)


def main(argv):
    text = assemble()
    if "--check" in argv:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print("single_include/dynac.h is not what runtime/*.h make: run `make single_include`")
                return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
