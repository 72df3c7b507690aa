"""Profiles: the argument types a run observed per function, in the spelling
the generator reads (`dynac build --profile`; gen.h's ty_from_name).

A profile is JSON: {"version": 1, "functions": [{"file", "qualname",
"firstlineno", "signatures": [{"args": [TYPE, ...], "calls": N}, ...]}],
"classes": [{"file", "name": "module.Class", "attributes": {NAME: TYPE}}]}.
`dynac record` writes one for a whole program; compile on first call
(_jit.py) writes one per module for the calls it compiled for."""
import os
import sys

SAMPLE = 64  # elements of a list looked at when typing it


def _join(a, b):
    if a == b or b is None:
        return a
    if a is None:
        return b
    return "?"  # mixed element types: not a kernel type


def type_name(v, depth=0):
    """The kernel type spelling of a value, or "module.Class" when it has
    none (an object specialisation). Lists are sampled (SAMPLE elements): a
    kernel still checks every element it reads, so a wrong guess
    deoptimises, never misreads."""
    t = type(v)
    if t in (int, float, bool):
        return t.__name__
    if depth < 4 and t is tuple:
        return "tuple[%s]" % ", ".join(type_name(x, depth + 1) for x in v) if v else "tuple"
    if depth < 4 and t is list:
        elt = None
        for x in (v if len(v) <= SAMPLE else v[:SAMPLE // 2] + v[-SAMPLE // 2:]):
            elt = _join(elt, type_name(x, depth + 1))
        return "list[%s]" % elt if elt and elt != "?" else "list"
    if t in (bytes, bytearray):
        return t.__name__
    if t.__name__ == "array" and t.__module__ == "array":
        return "array[%s]" % v.typecode
    if t.__name__ == "ndarray" and t.__module__ == "numpy" and v.ndim in (1, 2) and v.dtype.isnative:
        return "ndarray[%s%s%s]" % (v.dtype.char, ", 2" if v.ndim == 2 else "",
                                    "" if v.flags.c_contiguous else ", strided")
    if t is memoryview and v.ndim == 1:
        return "memoryview[%s%s]" % (v.format.lstrip("@="), "" if v.c_contiguous else ", strided")
    return "%s.%s" % (t.__module__, t.__qualname__)


HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class statement's class, not a builtin or extension type
_MISSING = object()


_EMPTY_LIST = "list[]"  # an attribute seen only as an empty list so far: its elements' type is not known


def _join_attribute(seen, tn):
    """The type of an attribute seen as `seen` (None: not yet) and now as
    `tn`: one type, else an object; an empty list (self.queue = [] before
    it fills) takes the type of the lists seen with elements."""
    if seen is None or seen == tn or seen == _EMPTY_LIST and tn.startswith("list"):
        return tn
    if tn == _EMPTY_LIST and seen.startswith("list"):
        return seen
    return "object"


def note_instance(classes, v, depth=0):
    """Records the types of instance v's attributes (its __dict__ and
    __slots__) into classes: {(module, qualname, file): {attribute: type
    name}}; an attribute seen with two types, or with an int beyond int64,
    is an object. Instances held in attributes, and in lists (a few of
    their elements), are looked at too (two levels)."""
    t = type(v)
    if t is list and depth < 3:  # a list of instances (System.bodies): a sample of its elements
        for x in (v if len(v) <= 4 else (v[0], v[1], v[-2], v[-1])):
            note_instance(classes, x, depth + 1)
        return
    if not t.__flags__ & HEAPTYPE or issubclass(t, BaseException):
        return
    file = getattr(sys.modules.get(t.__module__), "__file__", None)
    attrs = classes.setdefault((t.__module__, t.__qualname__, file), {})
    values = dict(getattr(v, "__dict__", None) or {})
    for k in t.__mro__:
        slots = k.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            x = getattr(v, name, _MISSING) if name not in values else _MISSING
            if x is not _MISSING:
                values[name] = x
    for name, x in values.items():
        tn = _EMPTY_LIST if type(x) is list and not x else type_name(x)
        if tn == "int" and not -2 ** 63 <= x < 2 ** 63:
            tn = "object"  # kernels read an int attribute as an int64: a big one is an object
        attrs[name] = _join_attribute(attrs.get(name), tn)
        if depth < 2 and type(x) is not t:
            note_instance(classes, x, depth + 1)


def profile_classes(classes):
    """classes (see note_instance) -> the profile's "classes" list."""
    out = []
    for (mod, qual, file), attrs in sorted(classes.items(), key=lambda kv: kv[0][:2]):
        if file:
            out.append({"file": os.path.realpath(file), "name": "%s.%s" % (mod, qual),
                        "attributes": {k: "list" if t == _EMPTY_LIST else t for k, t in sorted(attrs.items())}})
    return out


def profile_functions(seen):
    """seen: {(filename, qualname, firstlineno): {signature tuple: calls}} ->
    the profile's "functions" list (files by real path, sorted)."""
    fns = []
    for (filename, qualname, line), sigs in sorted(seen.items()):
        fns.append({"file": os.path.realpath(filename), "qualname": qualname, "firstlineno": line,
                    "signatures": [{"args": list(s), "calls": c} for s, c in sorted(sigs.items())]})
    return fns


def write_profile(path, seen, classes=None, **extra):
    """Writes `seen` (see profile_functions) and `classes` (see
    note_instance) as a profile to `path`; `extra` keys go beside
    "functions" (the compile cache's own keys)."""
    import json  # imported when used: `dynac run` starts quicker
    doc = {"version": 1}
    doc.update(extra)
    doc["functions"] = profile_functions(seen)
    if classes:
        doc["classes"] = profile_classes(classes)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
