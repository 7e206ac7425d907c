"""The call graph of a StableHLO module, checked before anything inlines it.

The importer inlines every `func.call` (MLIR's inliner, then dynhlo's converter for what is
left), so a call graph is only importable when inlining ends and stays small: HLO has no
recursion (a cycle would inline forever), a function called twice by each of 30 nested
functions inlines to 2**30 copies (a few hundred bytes of text that would hang MLIR's inliner,
which cannot be interrupted), and a chain of calls nested thousands deep overflows the
converter's stack. Each is refused here with an UnsupportedError that names the functions.
"""

from __future__ import annotations

from ...errors import UnsupportedError

MAX_INLINED_OPS = 1_000_000  # ops the entry would hold once every call is inlined
MAX_CALL_DEPTH = 100  # functions nested in one chain of calls


def callees(func) -> list[str]:
    """The functions `func` calls (func.call callees, stablehlo.composite decompositions),
    once per call, nested regions included."""
    out: list[str] = []
    stack = [func]
    while stack:
        op = stack.pop()
        name = op.operation.name
        key = {"func.call": "callee", "stablehlo.composite": "decomposition"}.get(name)
        if key is not None and key in op.attributes:
            out.append(str(op.attributes[key]).lstrip("@").strip('"'))
        for region in op.operation.regions:
            for block in region.blocks:
                stack.extend(block.operations)
    return out


def op_count(func) -> int:
    """The ops of a function, nested regions included."""
    count, stack = 0, [func]
    while stack:
        op = stack.pop()
        count += 1
        for region in op.operation.regions:
            for block in region.blocks:
                stack.extend(block.operations)
    return count


def check_call_graph(functions: dict, entry: str) -> None:
    """UnsupportedError for a call graph under `entry` (functions: name -> func.func) that is
    recursive, nested more than MAX_CALL_DEPTH deep, or that would inline to more than
    MAX_INLINED_OPS ops. Iterative, so any graph is checked without deep Python recursion."""
    calls = {name: callees(f) for name, f in functions.items()}
    size: dict[str, int] = {}  # ops once inlined, for each function finished
    depth: dict[str, int] = {}  # the longest chain of calls below it, itself included
    path: list[str] = [entry]  # the chain being walked, entry first
    pending = [iter(calls.get(entry, ()))]
    while pending:
        callee = next(pending[-1], None)
        if callee is None:  # every callee of path[-1] is done
            done = path.pop()
            pending.pop()
            below = [c for c in calls.get(done, ()) if c in functions]
            size[done] = op_count(functions[done]) + sum(size[c] for c in below)
            depth[done] = 1 + max((depth[c] for c in below), default=0)
            if size[done] > MAX_INLINED_OPS:
                raise UnsupportedError(
                    f"inlining the calls of @{done} would make {size[done]} ops (at most "
                    f"{MAX_INLINED_OPS}): the same functions are called along too many paths")
            if depth[done] > MAX_CALL_DEPTH:
                raise UnsupportedError(f"calls nested more than {MAX_CALL_DEPTH} deep below "
                                       f"@{done}")
            continue
        if callee in path:  # HLO has no recursion: inlining it would never end
            cycle = " -> ".join(f"@{f}" for f in path[path.index(callee):] + [callee])
            raise UnsupportedError(f"recursive call {cycle}: HLO cannot express recursion")
        if callee in size or callee not in functions:  # done, or the converter names it
            continue
        if len(path) > MAX_CALL_DEPTH:
            raise UnsupportedError(f"calls nested more than {MAX_CALL_DEPTH} deep: "
                                   f"@{path[0]} -> ... -> @{callee}")
        path.append(callee)
        pending.append(iter(calls[callee]))
