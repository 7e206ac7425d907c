"""A text report of a module's dynamic sizes: what `dynhlo inspect` prints.

For every instruction of the entry computation, and of every computation it calls (once per
call site, since one computation called with different sizes has different dims), the report
gives the declared shape and the inferred dims from dynamic dimension inference
(dynhlo.shapes.dynamic.infer_module): `5` is static, `a.0` is the size of dimension 0 of the
argument for parameter `a`, `value(n)` the run-time value of the scalar `n`, `<=8` a dimension
with nothing that sets its size (it runs at its bound). A closing "sizes" section says where
each dynamic size comes from. The report is for people; nothing parses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hlo.ir import HloModule, Instruction
from .hlo.literal import format_literal
from .hlo.opcodes import Opcode
from .hlo.shape import UNBOUNDED
from .hlo.verify import verify_module
from .shapes.dynamic import ComputationInfo, infer_module, is_dynamic_tree, tree_text
from .shapes import algebra
from .shapes.sizes import Sym, dim_text, size_key


@dataclass(frozen=True)
class Row:
    """One instruction of the report: `dims` is the inferred dims tree as text."""

    name: str
    shape: str
    opcode: str
    dims: str
    is_root: bool
    dynamic: bool
    became_dynamic: bool  # declared static, made dynamic by its operands (params-only HLO)


def instruction_rows(info: ComputationInfo) -> list[Row]:
    """The rows of one computation invocation, in the order the instructions were written."""
    rows = []
    comp = info.computation
    for inst in comp.instructions:
        tree = info.dims.get(inst)
        if tree is None:  # not reached from the root: inference skipped it
            continue
        dynamic = is_dynamic_tree(tree)
        rows.append(Row(inst.name, str(inst.shape), _opcode_text(inst), tree_text(tree),
                        inst is comp.root, dynamic, dynamic and inst.shape.is_static))
    return rows


def _opcode_text(inst: Instruction) -> str:
    """`subtract(x.1, sub.6)`: the opcode and its operands, as HLO text writes them, so the
    data flow can be followed; `constant(-inf)` for scalar constants."""
    if inst.opcode is Opcode.PARAMETER:
        return f"parameter({inst.parameter_number})"
    if inst.opcode is Opcode.CONSTANT:
        if not inst.shape.is_tuple and inst.shape.rank == 0:
            return f"constant({format_literal(inst.literal, inst.shape)})"
        return "constant"
    names = [o.name for o in inst.operands]
    operands = ", ".join(names)
    if len(operands) > _MAX_OPERANDS_TEXT:
        operands = f"{names[0]}, ... {len(names)} operands"
    text = f"{inst.opcode.value}({operands})"
    if inst.opcode is Opcode.CUSTOM_CALL:
        text += " " + inst.attrs.get("custom_call_target", "").strip('"')
    return text


_MAX_OPERANDS_TEXT = 48  # past this, name the first operand and count the rest
_MAX_COLUMN = 40  # a longer cell (a wide tuple shape) overflows its own line only


def invocations(info: ComputationInfo, site: str = "ENTRY") -> list[tuple[str, ComputationInfo]]:
    """Every analyzed invocation under `info`, depth first: (how it is reached, its info)."""
    out = [(site, info)]
    for (inst, index), callee in info.calls.items():
        out.extend(invocations(callee, f"called by '{inst.name}'{_role(inst, callee, index)}"))
    return out


def _role(inst: Instruction, callee: ComputationInfo, index: int) -> str:
    """` as body`: the attribute that names the callee (`to_apply`, `body`, branch N, ...)."""
    for key, comps in inst.called.items():
        if callee.computation in comps:
            if len(comps) == 1:
                return f" as {key}"
            return f" as {key}[{comps.index(callee.computation)}]"
    return f" (call {index})" if index else ""


def size_sources(infos: list[ComputationInfo]) -> list[tuple[str, str, str]]:
    """(size text, `<= bound` or `unbounded`, where it comes from) per distinct dynamic size."""
    seen: dict = {}
    for info in infos:
        for tree in info.dims.values():
            for dim in _leaves(tree):
                if isinstance(dim, Sym) and size_key(dim) not in seen:
                    root = dim.root()
                    bound = "unbounded" if root.bound == UNBOUNDED else f"<= {root.bound}"
                    seen[size_key(dim)] = (dim_text(dim), bound, describe_source(root))
    return list(seen.values())


def describe_source(root: Sym) -> str:
    """Where the run-time size of a (root) Sym comes from, in words."""
    if root.expr is None:
        return "nothing sets it: runs at its bound"
    atom = algebra.atom_of(root.expr)
    kind, args = (atom.op, atom.args) if atom is not None else ("", ())
    if kind == "param":
        number, dim, _, param = args
        return f"size of dimension {dim} of argument {number} ('{param.name}')"
    if kind == "value":
        user = atom.note[0]
        return (f"run-time value of '{args[0].name}' (set-dimension-size "
                f"'{user.name}'), checked against the bound")
    if kind == "result":
        return f"read off the computed result of '{args[0].name}'"
    if kind == "meet":
        return "where two sizes meet: a 1 broadcasts, else the smaller (XLA's rule)"
    return "computed from the sizes it names"


def _leaves(tree):
    if isinstance(tree, list):
        for t in tree:
            yield from _leaves(t)
    else:
        yield from tree


def _table(rows: list[Row]) -> list[str]:
    names = [("ROOT " if r.is_root else "") + r.name for r in rows]
    widths = [min(_MAX_COLUMN, max((len(x) for x in col), default=0)) for col in
              (names, [r.shape for r in rows], [r.opcode for r in rows])]
    lines = []
    for name, r in zip(names, rows, strict=True):
        note = "   (declared static, dynamic from its operands)" if r.became_dynamic else ""
        lines.append(f"  {name:<{widths[0]}}  {r.shape:<{widths[1]}}  {r.opcode:<{widths[2]}}"
                     f"  {r.dims}{note}".rstrip())
    return lines


def inspect_module(module: HloModule) -> str:
    """The report for a module, as text ending in a newline.

    Raises:
        HloVerifyError: operands or calls that form a cycle, a called computation with the
            wrong signature, or shapes that are inconsistent (dynamic dimension inference).
    """
    verify_module(module)  # cycles and bad call signatures, named, before inference
    entry = infer_module(module)
    sites = invocations(entry)
    lines = [f"HloModule {module.name}: dynamic size of every instruction",
             "  columns: instruction, declared shape, opcode(operands), inferred dims "
             "(a number is static)"]
    for site, info in sites:
        rows = instruction_rows(info)
        dynamic = sum(r.dynamic for r in rows)
        lines += ["", f"{info.computation.name}  [{site}; {dynamic} of {len(rows)} "
                  "instructions dynamic]"]
        lines += _table(rows)
    sources = size_sources([info for _, info in sites])
    lines += ["", "sizes" if sources else "sizes: none (every dimension is static)"]
    width = max((len(s[0]) for s in sources), default=0)
    bwidth = max((len(s[1]) for s in sources), default=0)
    for text, bound, where in sources:
        lines.append(f"  {text:<{width}}  {bound:<{bwidth}}  {where}")
    return "\n".join(lines) + "\n"
