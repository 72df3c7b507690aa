"""Continuations: the rest of a compiled call, run by the interpreter.

A kernel that must leave its typed code (int64 overflow, an element of
another type, ...) after an effect the interpreter must not repeat (an
allow_in_graph call, Python code run by an object operation, list writes
the undo log no longer holds) continues the call here instead of running it
again: from the start of the statement it was running (which had no effect
yet), with the function's locals as the kernel had them and each enclosing
for loop's iterator at its next item (dynac.h, dynac_continue).

The continuation is the function's own AST from that statement on, so
every statement keeps its line and column for tracebacks. A try statement
around it (the statement in its body) is kept around the rest of its body,
with the same handlers, else and finally. Inside an except clause the
exception is still being handled (the kernel handles it as the call
goes on): the rest of the clause runs in a try whose finally unbinds the
clause's name and restores the exception handled before, as the clause's
end does, then the try's finally. A with statement around it has
entered its manager already: the rest of its body runs in a try statement
that calls the manager's bound __exit__ (passed in with the iterators) on
every way out, as the with statement would. For `for` and `while` loops
around the statement, the rest of the current iteration runs
inside a one-pass loop whose `else` runs the remaining iterations:

    for _dynac_once in (0,):            # continue ends this pass, break leaves both
        <rest of the loop body>
    else:
        for v in _dynac_its[k]:         # the loop's own iterator, at its next item
            <loop body>
        else:
            <the loop's else>
    <the statements after the loop>

This is deoptimisation at statement granularity, as PyPy's and HotSpot's
rebuild an interpreter frame from compiled code's state; TorchDynamo builds
its resume functions from bytecode the same way.
"""
import ast
import copy
import hashlib
import re
import types

from . import _resume, _runtime

_cache = {}
_LOOPS = (ast.For, ast.While)


def _its_taken(s, field):
    """The values the kernel passes in _dynac_its for a statement around
    the one it continues at (in its block `field`): a for loop's iterator,
    each with item's __exit__, an except clause's exception handled before."""
    if isinstance(s, ast.For) and field == "body":
        return 1
    if isinstance(s, ast.With):
        return len(s.items)
    return 1 if isinstance(s, ast.Try) and isinstance(field, tuple) else 0


def _path(stmts, line, col):
    """[(block, index, field), ..., (block, index, None)] down to the
    statement starting at line:col, through if/for/while/with blocks and
    the body, except clauses (field ("handler", j)) and else of try
    statements; None if it is not there (a statement in a finally block:
    the way out it was on is not rebuilt)."""
    for i, s in enumerate(stmts):
        if (s.lineno, s.col_offset) == (line, col):
            return [(stmts, i, None)]
        if not isinstance(s, (ast.If, ast.Try, ast.With) + _LOOPS) or not s.lineno <= line <= s.end_lineno:
            continue
        blocks = [(field, getattr(s, field, [])) for field in ("body", "orelse")]
        blocks += [(("handler", j), h.body) for j, h in enumerate(getattr(s, "handlers", []))]
        for field, block in blocks:
            inner = _path(block, line, col)
            if inner is not None:
                return [(stmts, i, field)] + inner
    return None


def _iterators(k):
    return ast.Subscript(value=ast.Name(id="_dynac_its", ctx=ast.Load()), slice=ast.Constant(k),
                         ctx=ast.Load())


_EXIT_AROUND = """
_dynac_exit{k} = _dynac_its[{k}]
_dynac_through{k} = True
try:
    pass
except BaseException as _dynac_exc{k}:
    _dynac_through{k} = False
    if not _dynac_exit{k}(type(_dynac_exc{k}), _dynac_exc{k}, _dynac_exc{k}.__traceback__):
        raise
finally:
    if _dynac_through{k}:
        _dynac_exit{k}(None, None, None)
"""


def _exit_around(rest, k, with_node):
    """The rest of a with statement's body, its manager entered: __exit__
    (_dynac_its[k], bound) called as the with statement calls it, with the
    exception on the way out of one (a true result suppresses it), with
    None three times on any other way out. At the with statement's line."""
    stmts = ast.parse(_EXIT_AROUND.format(k=k)).body
    stmts[2].body = rest or [ast.Pass()]
    for node in stmts[:2] + [stmts[2]] + stmts[2].handlers + stmts[2].finalbody:
        for sub in ast.walk(node) if node is not stmts[2] else [node]:
            ast.copy_location(sub, with_node)
    return stmts


def _clause_end_around(rest, k, clause):
    """The rest of an except clause, then its end on every way out: the
    name it bound unbound (`name = None; del name`, as CPython compiles
    it) and the exception handled before it restored (POP_EXCEPT:
    _dynac_its[k], through _runtime.set_handled_exception)."""
    unbind = "%s = None\n    del %s\n    " % (clause.name, clause.name) if clause.name else ""
    src = "try:\n    pass\nfinally:\n    %s_dynac_set_handled(_dynac_its[%d])\n" % (unbind, k)
    kept = ast.parse(src).body[0]
    kept.body = rest or [ast.Pass()]
    for node in [kept] + kept.finalbody:
        for sub in ast.walk(node) if node is not kept else [node]:
            ast.copy_location(sub, clause)
    return [kept]


def _remaining(loop, k):
    """The rest of loop `loop`: a for loop over iterator k, or the while loop itself."""
    if isinstance(loop, ast.While):
        return loop
    rest = ast.For(target=loop.target, iter=_iterators(k), body=loop.body, orelse=loop.orelse,
                   type_comment=None)
    return ast.copy_location(rest, loop)


# Where in the statement: at a for loop's item, after it, again around the
# operands it had evaluated (else: at its start).
HEAD, AFTER, MID = 1, 2, 3
_VALUE_FIELD = {ast.Assign: "value", ast.AnnAssign: "value", ast.AugAssign: "value",
                ast.Return: "value", ast.Expr: "value", ast.If: "test", ast.While: "test",
                ast.Assert: "test", ast.For: "iter", ast.Raise: "exc"}


def _call_argument(call, k):
    """Where argument k of `call` is, counted in source order over its
    positional, starred and keyword arguments (as the generator numbers
    them: `f(a, *t, b, k=v, **m)` has a, t, b, v, m): (parent, name), a
    starred or keyword argument's value; (None, None) past the last."""
    items = sorted(call.args + call.keywords, key=lambda a: (a.lineno, a.col_offset))
    if k >= len(items):
        return None, None
    item = items[k]
    if isinstance(item, (ast.Starred, ast.keyword)):
        return item, "value"
    return call.args, next(i for i, a in enumerate(call.args) if a is item)


def _substituted(stmt, subst, first=0):
    """A copy of `stmt` with each operand the kernel had evaluated replaced
    by its value, _dynac_v0, _dynac_v1, ... (subst: `path@line:col` items,
    `;`-separated). A path goes down from the statement's value (through
    an augmented assignment's operator first): binary (L, R) and unary (U)
    operators, an attribute's object (O), a subscript's object and index
    (S0, S1), tuple, list and set elements (T0, T1, ...; a starred one's
    value; P0, P1, ...: the list a display made up to item i, which then
    stands as one starred item for items 0 to i), a dict display's
    keys and values (K0, V0, ...), an f-string's replacement fields' values
    (J0, J1, ...) or whole fields (W0, W1, ...: the str a field made), the
    operands of a
    comparison (C0, C1, ... in a chain; D1, D2, ...: operand i of a chain
    whose links before it held, which then goes on from it) or of
    `and`/`or` (B0, B1), a conditional
    expression's test and branches (I0, I1, I2), a call's arguments (A0,
    A1, ...: _call_argument), its function (F) or a method call's receiver (M),
    an assignment expression's value (N: `(name := value)`, whose assignment
    the kernel hoisted out of the statement and had not finished); a path
    starting with G goes down from the target of `obj[i] = v`,
    `obj.name = v`, `obj[i] op= v` or `obj.name op= v` instead (evaluated
    before or after the value); X is the value such a target held, which
    `op=` read before the value (_resumed_statements makes the rest). None
    when an operand is not where the kernel had it: the continuation must
    not guess. The values are numbered from `first`."""
    field = _VALUE_FIELD.get(type(stmt))
    if field is None:
        return None
    stmt = copy.deepcopy(stmt)
    place = isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, (ast.Subscript, ast.Attribute))
    for k, item in enumerate(subst.split(";") if subst else [], first):
        path, _, where = item.partition("@")
        if place and path == "X":  # the target's value, read before the value
            if f"{stmt.target.lineno}:{stmt.target.col_offset}" != where:
                return None
            stmt._dynac_read = f"_dynac_v{k}"
            continue
        if isinstance(stmt, ast.AugAssign) and not path.startswith("G"):
            if not path.startswith("R"):
                return None
            path = path[1:]
        parent, name = stmt, field
        if path.startswith("G"):  # obj[i] = v, obj[i] op= v: an operand of the target
            if place:
                parent, name, path = stmt, "target", path[1:]
            elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], (ast.Subscript, ast.Attribute))):
                parent, name, path = stmt.targets, 0, path[1:]
            else:
                return None
        for step in re.findall(r"[LRUOFMN]|[TPCDBASIKVJW]\d+|.", path):
            node = parent[name] if isinstance(parent, list) else getattr(parent, name)
            if step in ("L", "R") and isinstance(node, ast.BinOp):
                parent, name = node, "left" if step == "L" else "right"
            elif step == "U" and isinstance(node, ast.UnaryOp):
                parent, name = node, "operand"
            elif step == "O" and isinstance(node, ast.Attribute):
                parent, name = node, "value"
            elif step == "N" and isinstance(node, ast.NamedExpr):
                parent, name = node, "value"
            elif step == "F" and isinstance(node, ast.Call):
                parent, name = node, "func"
            elif step == "M" and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                parent, name = node.func, "value"
            elif step in ("S0", "S1") and isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
                parent, name = node, "value" if step == "S0" else "slice"
            elif step[0] == "T" and isinstance(node, (ast.Tuple, ast.List, ast.Set)) and int(step[1:]) < len(node.elts):
                parent, name = node.elts, int(step[1:])
                if isinstance(node.elts[name], ast.Starred):  # *x: its value
                    parent, name = node.elts[name], "value"
            elif step[0] == "P" and isinstance(node, (ast.Tuple, ast.List)) and int(step[1:]) < len(node.elts):
                parent, name = node.elts, int(step[1:])
                node._dynac_prefix = (name + 1, f"_dynac_v{k}")
                if isinstance(node.elts[name], ast.Starred):
                    parent, name = node.elts[name], "value"
            elif step[0] == "J" and isinstance(node, ast.JoinedStr) and int(step[1:]) < len(
                    fields := [v for v in node.values if isinstance(v, ast.FormattedValue)]):
                parent, name = fields[int(step[1:])], "value"
            elif step[0] == "W" and isinstance(node, ast.JoinedStr) and int(step[1:]) < len(
                    fields := [v for v in node.values if isinstance(v, ast.FormattedValue)]):
                parent, name = node.values, node.values.index(fields[int(step[1:])])
            elif step[0] in "KV" and isinstance(node, ast.Dict) and int(step[1:]) < len(node.keys):
                parent, name = node.keys if step[0] == "K" else node.values, int(step[1:])
            elif step[0] == "C" and isinstance(node, ast.Compare) and int(step[1:]) <= len(node.ops):
                parent, name = (node, "left") if step == "C0" else (node.comparators, int(step[1:]) - 1)
            elif step[0] == "D" and isinstance(node, ast.Compare) and 0 < int(step[1:]) < len(node.ops):
                parent, name = node.comparators, int(step[1:]) - 1
                node._dynac_held = max(getattr(node, "_dynac_held", 0), int(step[1:]))
            elif step in ("B0", "B1") and isinstance(node, ast.BoolOp) and len(node.values) == 2:
                parent, name = node.values, int(step[1])
            elif step in ("I0", "I1", "I2") and isinstance(node, ast.IfExp):
                parent, name = node, ("test", "body", "orelse")[int(step[1])]
            elif step[0] == "A" and isinstance(node, ast.Call):
                parent, name = _call_argument(node, int(step[1:]))
                if parent is None:
                    return None
            else:
                return None
        node = parent[name] if isinstance(parent, list) else getattr(parent, name)
        whole = isinstance(node, ast.FormattedValue)  # W<k>: the whole field, its value where it is
        at = node.value if whole else node
        if at is None or f"{at.lineno}:{at.col_offset}" != where:
            return None
        value = ast.copy_location(ast.Name(id=f"_dynac_v{k}", ctx=ast.Load()), at)
        if whole:  # the str the field made: formatted again as it is
            value = ast.copy_location(ast.FormattedValue(value=value, conversion=-1, format_spec=None), node)
        if isinstance(parent, list):
            parent[name] = value
        else:
            setattr(parent, name, value)
    return _made_parts_cut(stmt)


def _made_parts_cut(stmt):
    """`stmt` with what the kernel had made in place of the parts that
    made it: a comparison chain that a D<i> step went through cut to its
    part from operand i on (its links before held: the kernel made them and
    tested their truth, so the chain's value is the rest's); a display that
    a P<i> step went through with items 0 to i as one starred item, the
    list the kernel made of them."""
    for node in list(ast.walk(stmt)):
        i = getattr(node, "_dynac_held", 0)
        if i:
            node.left, node.ops, node.comparators = node.comparators[i - 1], node.ops[i:], node.comparators[i:]
        made = getattr(node, "_dynac_prefix", None)
        if made:
            n, name = made
            first = node.elts[0]
            made = ast.copy_location(ast.Starred(value=ast.copy_location(ast.Name(id=name, ctx=ast.Load()), first),
                                                 ctx=ast.Load()), first)
            node.elts = [made] + node.elts[n:]
    return stmt


def _resumed_statements(stmt, again):
    """What runs statement `stmt` on from where the kernel left it, given
    `again`, stmt with the operands the kernel had evaluated substituted
    (_substituted); None when that cannot be exact. `obj.name op= v` and
    `obj[i] op= v` read their target before v: its value is kept too, the
    operator applied to it, and the target (its operands kept or locals)
    stored into:

        _dynac_aug = <the value read>
        _dynac_aug op= <substituted value>
        obj.name = _dynac_aug

    A while loop's test runs again each pass: the substituted test serves
    its first pass only:

        _dynac_first = 1
        while (((_dynac_first := 0) or <substituted test>) if _dynac_first else <test>):
    """
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, (ast.Subscript, ast.Attribute)):
        read = getattr(again, "_dynac_read", None)
        if read is None or any(isinstance(n, ast.NamedExpr) for n in ast.walk(stmt)):
            return None  # (a := ...) could rebind a name the target reads again
        parts = [again.target.value] + ([again.target.slice] if isinstance(again.target, ast.Subscript) else [])
        if not all(isinstance(x, (ast.Name, ast.Constant)) for x in parts):
            return None  # evaluated again after the value: only kept operands and locals
        def aug(ctx):
            return ast.copy_location(ast.Name(id="_dynac_aug", ctx=ctx), stmt.target)
        take = ast.Assign(targets=[aug(ast.Store())], value=ast.Name(id=read, ctx=ast.Load()))
        apply = ast.AugAssign(target=aug(ast.Store()), op=stmt.op, value=again.value)
        again.target.ctx = ast.Store()
        store = ast.Assign(targets=[again.target], value=aug(ast.Load()))
        return [ast.fix_missing_locations(ast.copy_location(x, stmt)) for x in (take, apply, store)]
    if not isinstance(stmt, ast.While):
        return [again]
    def flag(ctx):
        return ast.copy_location(ast.Name(id="_dynac_first", ctx=ctx), stmt.test)
    first = ast.copy_location(ast.BoolOp(op=ast.Or(), values=[
        ast.copy_location(ast.NamedExpr(target=flag(ast.Store()), value=ast.Constant(0)), stmt.test),
        again.test]), stmt.test)
    again.test = ast.copy_location(ast.IfExp(test=flag(ast.Load()), body=first,
                                             orelse=copy.deepcopy(stmt.test)), stmt.test)
    start = ast.copy_location(ast.Assign(targets=[flag(ast.Store())], value=ast.Constant(1)), stmt)
    return [start, again]


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr, ast.Await,
           ast.Yield, ast.YieldFrom)
_ADD = {"l": "append", "s": "add", "d": "__setitem__"}
_FRAMES = {ast.ListComp: "listcomp", ast.SetComp: "setcomp", ast.DictComp: "dictcomp", ast.GeneratorExp: "genexpr"}
_COMPREHENSION_FUNCTION = "_dynac_comp_"
# Kinds whose builtin takes the rest of the items from a generator: any(), all(), and the folds of
# objects, sum() (the fold so far its start), min() and max() (the item so far, a tuple of 0 or 1, first)
_YIELDS = "aASmM"


class _Renamed(ast.NodeTransformer):
    """A comprehension's own names as the continuation's locals: _dynac_c_NAME."""
    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        if node.id in self.names:
            node.id = "_dynac_c_" + node.id
        return node

    def visit_Lambda(self, node):
        """Only its defaults: its body sees none of the names (_sees_comprehension_names)."""
        node.args = self.visit(node.args)
        return node


def _sees_comprehension_names(lam, names):
    """Does lambda `lam`'s body read one of a comprehension's own names (its
    closure would hold the comprehension's cell)? Its parameters aside."""
    a = lam.args
    params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if p}
    return any(isinstance(n, ast.Name) and n.id in names and n.id not in params for n in ast.walk(lam.body))


def _comprehension_spec(subst):
    """A comprehension clause's continuation spec (the generator's
    `Q<part>@<line>:<col><kind>|<statement's paths>|<clause's paths>`,
    continue.c: cont_site_fields) as (part, clause, cond, line, col, outer,
    inner, kind), or None when subst is not one."""
    m = re.fullmatch(r"Q(?:([HF])(\d+)|C(\d+)\.(\d+)|E)@(\d+):(\d+)([lsdaASmM])\|([^|]*)\|([^|]*)", subst or "")
    if m is None:
        return None
    hf, hf_clause, c_clause, cond, line, col, kind, outer, inner = m.groups()
    part = hf or ("C" if c_clause is not None else "E")
    clause = int(hf_clause if hf else c_clause if c_clause is not None else -1)
    return part, clause, int(cond or 0), int(line), int(col), outer, inner, kind


def _comprehension_in(stmt, spec):
    """The comprehension at spec's line and column in stmt, or None."""
    found = [n for n in ast.walk(stmt) if isinstance(n, _COMPREHENSIONS) and (n.lineno, n.col_offset) == spec[3:5]]
    return found[0] if len(found) == 1 else None


def _comprehension_taken(stmt, spec):
    """The iterators of the comprehension's for clauses the kernel passes
    (after its enclosing loops'): the clauses entered, the current one
    unless it is at its start (F); None when stmt holds no such
    comprehension."""
    comp = _comprehension_in(stmt, spec)
    if comp is None:
        return None
    part, clause = spec[0], spec[1]
    return len(comp.generators) if part == "E" else clause if part == "F" else clause + 1


class _Replaced(ast.NodeTransformer):
    """Node `node` (a comprehension) as `instead`, or the name of its
    result, _dynac_cr."""
    def __init__(self, node, instead=None):
        self.node, self.instead = node, instead

    def visit(self, node):
        if node is self.node:
            return self.instead or ast.copy_location(ast.Name(id="_dynac_cr", ctx=ast.Load()), node)
        return super().visit(node)


def _comprehension_statement(stmt, spec, first_it):
    """The rest of the comprehension in stmt (_comprehension_rest), then
    stmt again with the operands it had evaluated before the comprehension
    in their places (_substituted) and the comprehension's result in its
    own (_resumed_statements makes the rest of an `op=` or a while test)."""
    again = _substituted(stmt, spec[5])
    if again is None:
        return None
    made = _comprehension_rest(again, spec, first_it)
    comp = _comprehension_in(again, spec)
    if made is None or comp is None:
        return None
    rest, instead = made
    again = _Replaced(comp, instead).visit(again)
    if spec[7] == "S":  # sum(): the rest of the items from the fold so far, its start
        calls = [n for n in ast.walk(again) if isinstance(n, ast.Call) and n.args == [instead] and not n.keywords]
        if len(calls) != 1:
            return None
        calls[0].args.append(_located(ast.Name(id="_dynac_cr", ctx=ast.Load()), instead))
    resumed = _resumed_statements(stmt, again)
    return None if resumed is None else rest + resumed


def _located(node, where):
    """node, its parts without a place given where's (new nodes for a continuation)."""
    for sub in ast.walk(node):
        if not hasattr(sub, "lineno") or isinstance(sub, ast.stmt):
            ast.copy_location(sub, where)
    return node


def _renamed_comprehension(comp, kind):
    """A copy of comprehension `comp` whose own names are _dynac_c_NAME
    everywhere but in its first iterable (the function's scope evaluates
    it), or None when it cannot be rebuilt: an async one, one holding a
    lambda whose body reads its names (the lambda's closure would hold the
    comprehension's cell; a lambda's defaults are renamed) or `:=` (it binds
    in the function's scope), or
    dict() of a generator whose items are not (key, value) displays."""
    gens = comp.generators
    inside = ([comp.key, comp.value] if isinstance(comp, ast.DictComp) else [comp.elt])
    inside += [g.target for g in gens] + [c for g in gens for c in g.ifs] + [g.iter for g in gens[1:]]
    names = {n.id for g in gens for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    # a comprehension inside is renamed through: one name for one name in every scope keeps what binds what
    opaque = tuple(k for k in _SCOPES if k not in _COMPREHENSIONS + (ast.Lambda,))
    if any(g.is_async for g in gens) or any(isinstance(n, opaque) or (isinstance(n, _COMPREHENSIONS) and any(
            g.is_async for g in n.generators)) or (isinstance(n, ast.Lambda) and _sees_comprehension_names(n, names))
            for x in inside for n in ast.walk(x)):
        return None
    if kind == "d" and not isinstance(comp, ast.DictComp) and not (
            isinstance(comp.elt, ast.Tuple) and len(comp.elt.elts) == 2
            and not any(isinstance(x, ast.Starred) for x in comp.elt.elts)):
        return None
    renamed = copy.deepcopy(comp)
    for node in [renamed.key, renamed.value] if isinstance(comp, ast.DictComp) else [renamed.elt]:
        _Renamed(names).visit(node)
    for k, g in enumerate(renamed.generators):
        for node in [g.target] + g.ifs + ([g.iter] if k else []):
            _Renamed(names).visit(node)
    return renamed


class _Clauses:
    """A renamed comprehension's clauses as statements: loops and ifs around
    `_dynac_cr.append(elt)` (set: .add, dict: .__setitem__(k, v): SET_ADD's
    and MAP_ADD's order; any(), all(): `yield elt`), a for clause's items
    from its iterator _dynac_its[first_it + clause] or its iterable."""
    def __init__(self, comp, kind, first_it):
        self.comp, self.gens, self.kind, self.first_it = comp, comp.generators, kind, first_it

    def add(self):
        comp = self.comp
        if self.kind in _YIELDS:  # the item, for the builtin to take
            return ast.copy_location(ast.Expr(value=_located(ast.Yield(value=copy.deepcopy(comp.elt)), comp.elt)),
                                     comp.elt)
        pair = self.kind == "d" and not isinstance(comp, ast.DictComp)  # dict()'s (k, v) items
        args = [comp.key, comp.value] if isinstance(comp, ast.DictComp) else list(comp.elt.elts) if pair else [comp.elt]
        method = ast.Attribute(value=ast.Name(id="_dynac_cr", ctx=ast.Load()), attr=_ADD[self.kind],
                               ctx=ast.Load())
        # where the generator puts the receiver (path M): the (k, v) tuple's place, else the first argument's
        call = ast.Call(func=_located(method, comp.elt if pair else args[0]), args=copy.deepcopy(args), keywords=[])
        return ast.copy_location(ast.Expr(value=ast.copy_location(call, args[0])), args[0])

    def conditions(self, k, j):
        """Clause k's target bound: its conditions from the j-th, then what they guard."""
        gens = self.gens
        body = [self.loop(k + 1, copy.deepcopy(gens[k + 1].iter))] if k + 1 < len(gens) else [self.add()]
        for c in reversed(gens[k].ifs[j:]):
            body = [ast.copy_location(ast.If(test=copy.deepcopy(c), body=body, orelse=[]), c)]
        return body

    def loop(self, k, it):
        node = ast.For(target=copy.deepcopy(self.gens[k].target), iter=it, body=self.conditions(k, 0), orelse=[],
                       type_comment=None)
        return ast.copy_location(node, self.gens[k].target)

    def iterator(self, k):
        return _located(_iterators(self.first_it + k), self.gens[k].target)

    def first(self, part, clause, cond):
        """The statements at the clause point: a for clause's loop over its
        iterator (H) or its iterable (F), a clause's conditions from one
        (C), or the element (E)."""
        if part == "H":
            return [self.loop(clause, self.iterator(clause))]
        if part == "F":
            return [self.loop(clause, copy.deepcopy(self.gens[clause].iter))]
        return self.conditions(clause, cond) if part == "C" else [self.add()]


def _clause_operands(first, part, kind, inner, numbered):
    """The first statement at the clause point with the clause's operands
    already evaluated in their places (_substituted, numbered from
    `numbered`), or None. any()'s test is the item, all()'s `not item`, a
    fold's the append of the item: their paths go from the item."""
    yields = part == "E" and kind in _YIELDS
    if kind == "A" and yields:
        inner = ";".join(item[1:] if item.startswith("U") else "?" for item in inner.split(";"))
    if kind in "SmM" and yields:  # a fold's paths go from the item its append took
        inner = ";".join(item[2:] if item.startswith("A0") else "?" for item in inner.split(";"))
    again = _substituted(ast.Expr(value=first.value.value) if yields else first, inner, first=numbered)
    if again is None or not yields:
        return again
    return ast.copy_location(ast.Expr(value=ast.Yield(value=again.value)), first)


def _comprehension_rest(stmt, spec, first_it):
    """What finishes the comprehension in statement `stmt` from the clause
    point `spec` (_comprehension_spec), and what then stands in its place:
    (statements, None: its result _dynac_cr) or, for any() and all(),
    ([the generator function], its call: the rest of the items); None when
    that cannot be exact.

    The partial result arrives as _dynac_cr and the comprehension's names
    as _dynac_c_NAME (_renamed_comprehension). At the clause point first
    (_Clauses.first, with the clause's operands already evaluated in their
    places), then the remaining items of each enclosing for clause,
    innermost first, all in a function of its own, as CPython runs a
    comprehension (its frame in tracebacks: _build names it <listcomp>),
    given the names bound so far."""
    part, clause, cond, _, _, outer, inner, kind = spec
    comp = _comprehension_in(stmt, spec)
    renamed = _renamed_comprehension(comp, kind) if comp is not None else None
    if renamed is None or clause >= len(comp.generators) or (
            part == "C" and cond >= len(comp.generators[clause].ifs)):
        return None
    clauses = _Clauses(renamed, kind, first_it)
    clause = len(comp.generators) - 1 if part == "E" else clause
    first = clauses.first(part, clause, cond)
    if inner:
        first[0] = _clause_operands(first[0], part, kind, inner, len(outer.split(";")) if outer else 0)
        if first[0] is None:
            return None
    remaining = clause - 1 if part in ("H", "F") else clause  # the innermost for clause with items left
    body = first + [clauses.loop(k, clauses.iterator(k)) for k in range(remaining, -1, -1)]
    bound = sorted({n.id for g in renamed.generators[:remaining + 1] for n in ast.walk(g.target)
                    if isinstance(n, ast.Name)})
    args = [ast.Name(id=n, ctx=ast.Load()) for n in bound]
    if part == "F" and clause == 0:  # the first iterable: the function's scope evaluates it, as CPython does
        bound, args = ["_dynac_first"], [body[0].iter]
        body[0].iter = ast.copy_location(ast.Name(id="_dynac_first", ctx=ast.Load()), args[0])
    if kind in "mM":  # min()'s or max()'s item so far first
        bound, args = bound + ["_dynac_cr"], args + [ast.Name(id="_dynac_cr", ctx=ast.Load())]
        body.insert(0, _located(ast.Expr(value=ast.YieldFrom(value=ast.Name(id="_dynac_cr", ctx=ast.Load()))), comp))
    params = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in bound], kwonlyargs=[], kw_defaults=[],
                           defaults=[])
    name = _COMPREHENSION_FUNCTION + _FRAMES[type(comp)]
    fn = ast.FunctionDef(name=name, args=params, body=body, decorator_list=[], returns=None, type_comment=None)
    call = _located(ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=args, keywords=[]), comp)
    if kind in _YIELDS:  # a generator of the rest of the items, in the comprehension's place
        return [_located(fn, comp)], call
    return [_located(fn, comp), ast.copy_location(ast.Expr(value=call), comp)], None


def _qualified(code, qualname, name=None):
    """Code `code` named `qualname` (and `name`), the code objects nested in
    it qualified from it as CPython's compiler_set_qualname qualifies them
    (a function's, lambda's or comprehension's made in a continuation would
    carry _dynac_continue's qualname otherwise), _comprehension_rest's
    functions named as CPython names a comprehension's code (<listcomp>,
    <setcomp>, <dictcomp>): no `<locals>` follows those, as none follows a
    comprehension's scope."""
    compiled, consts = code.co_qualname, []
    comprehension = code.co_name.startswith(_COMPREHENSION_FUNCTION)
    for c in code.co_consts:
        if isinstance(c, types.CodeType) and c.co_qualname.startswith(compiled + "."):  # not a `global` def's
            rest, cname = c.co_qualname[len(compiled) + 1:], None
            if comprehension and rest.startswith("<locals>."):
                rest = rest[len("<locals>."):]
            if c.co_name.startswith(_COMPREHENSION_FUNCTION):
                cname = "<%s>" % c.co_name[len(_COMPREHENSION_FUNCTION):]
                rest = rest[:len(rest) - len(c.co_name)] + cname
            c = _qualified(c, qualname + "." + rest, cname)
        consts.append(c)
    return code.replace(co_name=name or code.co_name, co_qualname=qualname, co_consts=tuple(consts))


def _continuation(path, mode, nits, subst=None, stop=None):
    """The statements that finish the call from the path's last statement
    (stop: in the outermost block, the index of the last one to run)."""
    def after(level, block, i):  # what follows block[i] in its block
        return block[i + 1:stop + 1 if stop is not None and level == 0 else None]

    fors = sum(_its_taken(block[i], field) for block, i, field in path)
    block, i, _ = path[-1]
    comp = _comprehension_spec(subst)
    if comp is not None:  # in a comprehension's clauses: through the statement holding it
        taken = _comprehension_taken(block[i], comp)
        if taken is None or fors + taken != nits:
            return None
        nits = fors
    if mode == HEAD and comp is None:
        fors += 1
    if fors != nits:
        return None
    k = nits
    if comp is not None:
        rest = _comprehension_statement(block[i], comp, k)
        if rest is None:
            return None
        rest = rest + after(len(path) - 1, block, i)
    elif mode == HEAD:
        if not isinstance(block[i], ast.For):
            return None
        k -= 1
        rest = [_remaining(block[i], k)] + after(len(path) - 1, block, i)
    elif mode == AFTER:
        rest = after(len(path) - 1, block, i)
    elif mode == MID:
        again = _substituted(block[i], subst or "")
        if again is None:
            return None
        again = _resumed_statements(block[i], again)
        if again is None:
            return None
        rest = again + after(len(path) - 1, block, i)
    else:
        rest = [block[i]] + after(len(path) - 1, block, i)
    for level, (block, i, field) in reversed(list(enumerate(path[:-1]))):
        outer = block[i]
        if isinstance(outer, _LOOPS) and field == "body":
            if isinstance(outer, ast.For):
                k -= 1
            once = ast.For(target=ast.Name(id="_dynac_once", ctx=ast.Store()),
                           iter=ast.Tuple(elts=[ast.Constant(0)], ctx=ast.Load()),
                           body=rest or [ast.Pass()], orelse=[_remaining(outer, k)], type_comment=None)
            rest = [ast.copy_location(once, outer)]
        if isinstance(outer, ast.Try) and isinstance(field, tuple):  # the rest of an except clause
            k -= 1
            rest = _clause_end_around(rest, k, outer.handlers[field[1]])
            if outer.finalbody:
                rest = [ast.copy_location(ast.Try(body=rest, handlers=[], orelse=[], finalbody=outer.finalbody),
                                          outer)]
        for _ in range(_its_taken(outer, field) if isinstance(outer, ast.With) else 0):  # innermost item first
            k -= 1
            rest = _exit_around(rest, k, outer)
        if isinstance(outer, ast.Try) and field == "body":  # the rest of the body, still protected
            kept = ast.Try(body=rest or [ast.Pass()], handlers=outer.handlers, orelse=outer.orelse,
                           finalbody=outer.finalbody)
            rest = [ast.copy_location(kept, outer)]
        elif isinstance(outer, ast.Try) and field == "orelse" and outer.finalbody:  # the finally runs after it
            kept = ast.Try(body=rest or [ast.Pass()], handlers=[], orelse=[], finalbody=outer.finalbody)
            rest = [ast.copy_location(kept, outer)]
        rest = rest + after(level, block, i)
    return rest


def _block_of(fdef, line, col):
    """The statement list (of any compound statement) holding the statement
    at line:col, and its index there; (None, None) if none does."""
    for node in ast.walk(fdef):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, s in enumerate(block):
                if isinstance(s, ast.stmt) and (s.lineno, s.col_offset) == (line, col):
                    return block, i
    return None, None


class _RegionReturns(ast.NodeTransformer):
    """`return v` of a region's statements as its entry gives it: (1, v).
    Statements can be reached twice (a loop's body is both the rest of
    its current pass and its remaining iterations): each is tagged once."""
    def visit_Return(self, node):
        if getattr(node, "_dynac_tagged", False):
            return node
        value = node.value if node.value is not None else ast.Constant(None)
        tagged = ast.copy_location(ast.Return(value=ast.Tuple(elts=[ast.Constant(1), value],
                                                              ctx=ast.Load())), node)
        tagged._dynac_tagged = True
        return tagged

    def visit_FunctionDef(self, node):  # its own returns are not the region's
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef


def _region_continuation(fdef, line, col, mode, nits, subst, region):
    """The rest of a compiled region from the statement at line:col, as its
    entry's value: (1, value) where the function returns, else (0, None,
    live-outs...) with Ellipsis for a name left unbound (region:
    `line:col:outs` of its last statement; _resume.py reads the tuple)."""
    last_line, last_col, outs = region.split(":", 2)
    block, stop = _block_of(fdef, int(last_line), int(last_col))
    if block is None:
        return None
    path = _path(block, line, col)
    if path is None or path[0][1] > stop:
        return None
    body = _continuation(path, mode, nits, subst, stop)
    if body is None:
        return None
    body = [_RegionReturns().visit(s) for s in body]
    names = [n for n in outs.split(",") if n]
    values = "".join(f"_dynac_l.get({n!r}, ...), " for n in names)
    end = ast.parse(f"_dynac_l = locals()\nreturn (0, None, {values})").body
    for node in end:
        for sub in ast.walk(node):
            ast.copy_location(sub, block[stop])
    return body + end


class _ExplicitSuper(ast.NodeTransformer):
    """super() with no arguments reads the frame's first local, which in a
    continuation is _dynac_its: it becomes super(__class__, first), the
    function's first parameter (the __class__ cell is the function's own)."""
    def __init__(self, first):
        self.first = first

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args and not node.keywords:
            node.args = [ast.copy_location(ast.Name(id="__class__", ctx=ast.Load()), node),
                         ast.copy_location(ast.Name(id=self.first, ctx=ast.Load()), node)]
        return node

    def visit_FunctionDef(self, node):  # a nested scope's super() is its own
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef


def _with_cells(cont, fdef, freevars):
    """The module holding the continuation; with free variables, inside a
    function binding them, so that its code reads them from cells (the
    closure the kernel's function has is given to it)."""
    if not freevars:
        return ast.Module(body=[cont], type_ignores=[])
    positional = fdef.args.posonlyargs + fdef.args.args
    if positional:
        cont.body = [_ExplicitSuper(positional[0].arg).visit(s) for s in cont.body]
    # Its stores go to the cells too: a nonlocal name's, or a cell variable
    # of the kernel's own (a local closures capture).
    declare = ast.Nonlocal(names=list(freevars))
    ast.copy_location(declare, fdef)
    cont.body = [declare] + cont.body
    binds = [ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store())], value=ast.Constant(None)) for n in freevars]
    cells = ast.FunctionDef(name="_dynac_cells", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                                                      kw_defaults=[], defaults=[]),
                            body=binds + [cont], decorator_list=[], returns=None, type_comment=None)
    ast.copy_location(cells, fdef)
    _resume._fix_locations(cells, fdef)
    return ast.Module(body=[cells], type_ignores=[])


def _build(source, filename, qualname, firstlineno, line, col, mode, names, nits, freevars=(),
           subst=None, region=None):
    """The continuation's code object (see function), or None."""
    tree = ast.parse(source, filename)
    fdef = _resume._find_def(tree, qualname, firstlineno)
    if fdef is None:
        return None
    if region:
        body = _region_continuation(fdef, line, col, mode, nits, subst, region)
    else:
        path = _path(fdef.body, line, col)
        body = _continuation(path, mode, nits, subst) if path is not None else None
    if body is None:
        return None
    # An unbound local arrives as the iterators' tuple (no value of the
    # user's is that object) and is deleted: reading it raises
    # UnboundLocalError, as in the function.
    unbind = [ast.If(test=ast.Compare(left=ast.Name(id=n, ctx=ast.Load()), ops=[ast.Is()],
                                      comparators=[ast.Name(id="_dynac_its", ctx=ast.Load())]),
                     body=[ast.Delete(targets=[ast.Name(id=n, ctx=ast.Del())])], orelse=[])
              for n in names]
    for node in unbind:
        for sub in ast.walk(node):
            ast.copy_location(sub, fdef)
    # The locals arrive in a list the continuation empties: its frame then
    # holds the only references the call has (a `del` frees at once).
    take = ast.parse("(%s) = _dynac_vals\n_dynac_vals.clear()" % "".join(n + ", " for n in names)).body if names else []
    for node in take:
        for sub in ast.walk(node):
            ast.copy_location(sub, fdef)
    params = ast.arguments(posonlyargs=[], args=[ast.arg(arg="_dynac_its"), ast.arg(arg="_dynac_vals")],
                           kwonlyargs=[ast.arg(arg="_dynac_set_handled")], kw_defaults=[None], defaults=[])
    cont = ast.FunctionDef(name="_dynac_continue", args=params, body=take + unbind + body or [ast.Pass()],
                           decorator_list=[],
                           returns=None, type_comment=None)
    ast.copy_location(cont, fdef)
    _resume._fix_locations(cont, fdef)
    code = compile(_with_cells(cont, fdef, freevars), filename, "exec", dont_inherit=True)
    while code.co_name != "_dynac_continue":
        code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    return _qualified(code, qualname, fdef.name)


def _function(fcode, module_globals, freevars, closure):
    """The continuation function of code `fcode`, its free variables' cells
    taken from `closure` (the cells of `freevars`, in that order), or None
    when the closure does not hold them."""
    cells = dict(zip(freevars, closure or ()))
    if any(n not in cells for n in fcode.co_freevars):
        return None
    fn = types.FunctionType(fcode, module_globals, fcode.co_name, None,
                            tuple(cells[n] for n in fcode.co_freevars) or None)
    fn.__kwdefaults__ = {"_dynac_set_handled": _runtime.set_handled_exception}
    return fn


def function(module_globals, filename, sha256, qualname, firstlineno, line, col, mode, names, nits,
             subst=None, region=None, closure=None, freevars=None):
    """The continuation function from one statement of a compiled function
    (mode: its start, HEAD of a for loop taking its item, AFTER it, or MID:
    the statement again with the operands in `subst` as evaluated), or
    None when there is none (the source is not the one compiled, or the
    statement is not inside if/for/while blocks only). For a region kernel
    (`region`: see _region_continuation) it ends with the region and
    returns its entry's tuple. It takes (its, locals): the iterators' tuple
    and a list of the locals' values, which it empties. A function with free variables (`freevars`,
    comma-separated: its co_freevars) gives its closure's cells, which the
    continuation reads. Called by dynac.h's dynac_continue."""
    names = tuple(n for n in names.split(",") if n)
    freevars = tuple(n for n in (freevars or "").split(",") if n)
    key = (filename, sha256, qualname, firstlineno, line, col, mode, names, nits, subst, region, freevars)
    fcode = _cache.get(key)
    if fcode is None:
        try:
            with open(filename, "rb") as f:
                source = f.read()
            if hashlib.sha256(source).hexdigest() != sha256:
                return None
            fcode = _build(source, filename, qualname, firstlineno, line, col, mode, names, nits, freevars,
                           subst, region)
        except (OSError, SyntaxError, ValueError):
            return None
        if fcode is None:
            return None
        _cache[key] = fcode
    return _function(fcode, module_globals, freevars, closure)
