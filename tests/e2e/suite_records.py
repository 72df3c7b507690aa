"""Eager vs compiled for instances kept as their fields (corpus_records.py):
scalar replacement must be invisible. Each case builds fresh inputs twice
(one set per run) and compares the result (floats by their bits), or the
exception's type, message and traceback frames in the corpus; the log;
the inputs' state afterwards. Then: the functions are served by kernels
that keep instances as fields (their C has the struct), and the class's
reference count is the same after many compiled calls."""
import os
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import build_corpus, check, compare_corpus, done, float_bits  # noqa: E402

import dynac  # noqa: E402

INF, NAN = float("inf"), float("nan")


def canon(v, depth=0):
    if depth > 6:
        return ("deep",)
    if isinstance(v, float):
        return ("f", float_bits(v))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [canon(x, depth + 1) for x in v])
    if isinstance(v, (int, str, bool, type(None))):
        return (type(v).__name__, v)
    if hasattr(v, "__dict__"):
        return (type(v).__name__, [(k, canon(x, depth + 1)) for k, x in vars(v).items()])
    return (type(v).__name__,)


def frames(e):
    return [(f.name, f.lineno) for f in traceback.extract_tb(e.__traceback__)
            if os.path.basename(f.filename) == "corpus_records.py"]


def make_runner(mod_of):
    def run(fn, make):
        mod = mod_of(fn)
        mod.LOG.clear()
        args = make(mod)
        try:
            r = ("ok", canon(fn(*args)))
        except Exception as e:  # noqa: BLE001 - the comparison is the point
            r = ("raise", type(e).__name__, str(e), frames(e))
        return r, canon(args), canon(list(mod.LOG))
    return run


def vecs():
    vals = [(1.0, 2.0, 3.0), (0.0, -0.0, 0.0), (-1.5, 1e300, 2.5), (INF, 1.0, -INF), (NAN, 0.5, 1.0),
            (3.0, 4.0, 0.0)]
    return [(lambda m, v=v: m.Vec(*v)) for v in vals]


def cases():
    c = {}
    V = vecs()
    ks = [2.0, -0.0, 0.5, INF, NAN, 1e-310]
    pairs = [(a, b) for a in V for b in V[:3]]
    c["chain"] = [(lambda m, a=a, b=b, k=k: (a(m), b(m), k)) for a, b in pairs for k in ks[:3]]
    c["unit_parts"] = [(lambda m, a=a: (a(m),)) for a in V]
    for name in ["identity", "into_list", "returned_local", "method_patched", "tuple_of", "in_generic_compare",
                 "made_and_kept", "kept_identity"]:
        c[name] = [(lambda m, a=a, b=b: (a(m), b(m))) for a, b in pairs[:8]]
    for name in ["returned_fresh", "seen_by_python", "mutated_by_python", "property_added", "dict_order"]:
        c[name] = [(lambda m, a=a, k=k: (a(m), k)) for a in V for k in ks[:4]]
    for name in ["mutated_to_str", "missing_attribute", "weak_ref", "negated"]:
        c[name] = [(lambda m, a=a: (a(m),)) for a in V]
    c["class_assigned"] = [(lambda m, a=a: (a(m), m.Other)) for a in V[:3]]
    c["ints_in_float_fields"] = [(lambda m, n=n: (n,)) for n in [0, -3, 2**62, 7]]
    c["read_before_set"] = [(lambda m, x=x: (x,)) for x in [1.0, NAN]]
    c["conditional"] = [(lambda m, a=a, b=b, f=f: (a(m), b(m), f)) for a, b in pairs[:6] for f in [True, False]]
    c["rebound_in_loop"] = [(lambda m, a=a, n=n: (a(m), n)) for a in V for n in [0, 1, 5]]
    c["divided"] = [(lambda m, a=a, d=d: (a(m), d)) for a in V[:3] for d in [2.0, 0.0, -0.0, INF]]
    c["counter_ops"] = [(lambda m, n=n, on=on, k=k: (n, on, k)) for n in [0, 5, 2**62, -2**63]
                        for on in [True, False] for k in [1, 2**62, -1]]
    c["c_names"] = [(lambda m, h=h, n=n, d=d: (h, n, d)) for h in [1.5, -0.0, INF, NAN] for n in [0, 2**63 - 1]
                    for d in [0.25, -2.5e300]]
    c["field_store"] = [(lambda m, a=a, d=d: (a(m), d)) for a in V[:4] for d in [1.0, -0.0, INF]]
    c["param_updated"] = [(lambda m, a=a, f=f: (a(m), f)) for a in V for f in [True, False]]
    c["updated_in_place"] = [(lambda m, a=a, d=d: (a(m), d)) for a in V for d in [2.0, -0.0, 0.0, INF, NAN, 1e-310]]
    c["field_store_int"] = [(lambda m, a=a, d=d: (a(m), d)) for a in V[:3] for d in [0, 2**62, -5]]
    c["noisy"] = [(lambda m, x=x: (x,)) for x in [1.0, -2.5]]
    odd = [lambda m: m.Vec(1.5, 2.0, 3.0), lambda m: m.Vec(3, 2.0, 3.0), lambda m: m.Vec(2**70, 1.0, 1.0),
           lambda m: m.Vec(True, 1.0, 1.0)]
    c["odd_in_callee"] = [(lambda m, a=a, o=o: (a(m), o(m))) for a in V[:3] for o in odd]
    c["told_in_test"] = [(lambda m, a=a, o=o: (a(m), o(m))) for a in V for o in odd]
    c["odd_here"] = [(lambda m, a=a, o=o: (a(m), o(m))) for a in V[:3] for o in odd]
    c["caught"] = [(lambda m, a=a, d=d: (a(m), d)) for a in V[:4] for d in [2.0, 0.0, -0.0, NAN]]
    xs = [1.5, -4.9e153, 1e300, -0.0, INF, NAN, 2.0**63, -2.0**63]
    c["overflow_after_operators"] = [(lambda m, a=a, x=x: (a(m), x)) for a in V[:3] for x in xs]
    c["told_then_overflow"] = [(lambda m, a=a, x=x: (a(m), x)) for a in V[:3] for x in xs]
    for name in ["moved_then_overflow", "made_then_moved_then_overflow"]:
        c[name] = [(lambda m, a=a, d=d, x=x: (a(m), d, x)) for a in V[:2] for d in [1.0, -0.0] for x in xs]
    fs = [1.5, -0.0, 0.0, INF, NAN, -2.5e300]
    c["checked_once"] = [(lambda m, x=x, y=y, s=s: (x, y, s)) for x in fs for y in fs[:4] for s in [False, True]]
    c["checked_once_made"] = [(lambda m, x=x, y=y: (x, y)) for x in fs for y in fs[:4]]
    c["checked_once_call"] = [(lambda m, x=x, y=y: (x, y)) for x in fs for y in fs[:4]]
    c["checked_once_ints"] = [(lambda m, n=n, on=on, k=k: (n, on, k)) for n in [0, 7, -2**62, 2**62]
                              for on in [True, False] for k in [1, 3, -2**63]]
    c["in_loop_escape"] = [(lambda m, a=a, n=n: (a(m), n)) for a in V[:3] for n in [0, 1, 2, 5]]
    return c


def refcount_steady(C):
    """Many compiled calls that make, pass, return and drop structs hold no
    reference to the class (each struct holds one while it lives)."""
    a, b = C.Vec(1.0, 2.0, 3.0), C.Vec(0.5, -1.0, 2.0)
    for _ in range(100):
        C.chain(a, b, 2.0), C.identity(a, b), C.returned_fresh(a, 2.0), C.rebound_in_loop(a, 3)
    before = sys.getrefcount(C.Vec)
    for _ in range(1000):
        C.chain(a, b, 2.0), C.identity(a, b), C.returned_fresh(a, 2.0), C.rebound_in_loop(a, 3)
    return sys.getrefcount(C.Vec) == before, "%d -> %d" % (before, sys.getrefcount(C.Vec))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        built = build_corpus(tmp, "corpus_records")
        if built is None:
            return done()
        C, E, path = built
        c_file = os.path.join(os.path.dirname(path), "__dynac__", "corpus_records__dynac.c")
        text = open(c_file).read() if os.path.exists(c_file) else ""
        check("records: Vec and Counter kept as fields, Noisy (a __del__) never",
              "typedef struct dynac_R3Vec" in text and "typedef struct dynac_R7Counter" in text and
              "typedef struct dynac_R6CNames" in text and
              "dynac_R5Noisy" not in text, c_file)

        def mod_of(fn):
            return C if any(v is fn for v in vars(C).values()) else E
        dynac.reset_stats()
        compare_corpus(C, E, cases(), make_runner(mod_of), "records")
        stats = dynac.stats()
        for name in sorted(cases()):
            counters = stats.get("corpus_records." + name) or {}
            check("records %s is served by its kernel" % name, counters.get("kernel_calls", 0) > 0, repr(counters))
        check("records: the class's reference count is steady", *refcount_steady(C))
        check("records: a statement checks each struct's fields once (a flag per struct)",
              text.count("dynac_rec_plain_mask(") >= 4, c_file)
    done()


if __name__ == "__main__":
    main()
