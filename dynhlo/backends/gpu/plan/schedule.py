"""THE launch list: a fusion Plan lowered once into items over value slots.

Every way of running a GPU program reads this list: the interpreted runner
(launch/runner.py: item by item, control flow, the host tier), the specialized runner
(launch/fastpath.py: every size an entry parameter's dimension, steps as closures per
argument shapes) and the graph runner (graph/: maximal capturable runs as CUDA graphs).
None of them walks a Plan's steps itself.

`lower(plan)` gives a Schedule: one Item per step of the plan (fused instructions have
none), in the plan's order. An item's kind is

    param        an entry or callee parameter (slot = its parameter number)
    kernel       a generated kernel (`kernel`: codegen.Kernel) over the slots `inputs`
    library      the rule table's library tier (rules.library_for): a torch call
    host         the host tier: the CPU backend's lowering on host copies
    call         `calls[0]`, the callee's Schedule, on the operands' slots
    while        `calls` = the plans by shapes.rules_control CONDITION / BODY index
    conditional  `calls` = one Schedule per branch

`inputs` are the slots an item reads (a kernel's group inputs, else the operands), `out`
the slot it writes. Sizes are kept two ways: `dims`, `sizes` and `grid` as inference gives
them (symbols; a consumer with other sources of sizes, graph/segments.py, reads them with
its own getter), and `out_getters`, `size_getters`, `grid_getters` as entry-parameter
getters (`size_getter`: an int, or (parameter number, dimension); None where a size is not
one). `why` says, where it is known without trying, why an item cannot be captured in a
CUDA graph (the host reads a device value; a library or host step without a capture form
in rules.py, as a library step, the host tier or a size read at run time); None when it
may be (the graph builder still refuses products and kernels that do not fit their form).

`inline(schedule)` is the one flattening: the items with every `call` replaced by its
callee's items on fresh slots, so a consumer that runs straight-line code (the specialized
and graph runners) never recurses.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ....shapes import algebra
from ....shapes.schedule import leaf_dims, sym_deps
from ....shapes.sizes import Sym, size_key
from ..rules import library_for, rule_of
from .fusion import Plan

# Why control flow needs the host: it reads a device value to go on.
HOST_READS = {"while": "the host reads its predicate",
              "conditional": "the host reads its branch index"}


def size_getter(dim):
    """An int, or (parameter number, dimension) to read the size from; None if neither."""
    key = size_key(dim)
    if isinstance(key, int):
        return key
    atom = algebra.atom_of(key) if isinstance(key, algebra.Size) else None
    if atom is not None and atom.op == "param":
        return atom.args[:2]
    return None


@dataclass(eq=False)
class Item:
    """One step of a Schedule (see module doc for the kinds and fields)."""

    kind: str
    inst: object                         # hlo.ir.Instruction
    plan: Plan                           # the plan the step is from (its info, options)
    inputs: list                         # slots read
    out: int                             # slot written
    kernel: object = None                # kernel items: codegen.Kernel
    calls: list = field(default_factory=list)   # call / while / conditional: Schedules
    why: str | None = None               # why it cannot be captured, where known

    @property
    def dims(self):
        """The result's dimensions as inference gives them (a tree for tuples)."""
        return self.plan.info.dims[self.inst]

    @property
    def sizes(self) -> tuple:
        """A kernel's size arguments (symbols), in launch order."""
        return tuple(self.kernel.size_syms) if self.kernel is not None else ()

    @property
    def grid(self):
        """A kernel's grid dimensions: its rows for a row kernel, else its result's."""
        if self.kernel is not None and self.kernel.kind == "row":
            return self.kernel.grid_dims
        return self.dims

    @property
    def out_getters(self) -> list | None:
        """Entry-parameter getters of the result's dimensions; None for a tuple result."""
        dims = self.dims
        return None if not isinstance(dims, tuple) or self.inst.shape.is_tuple else \
            [size_getter(d) for d in dims]

    @property
    def size_getters(self) -> list:
        return [size_getter(s) for s in self.sizes]

    @property
    def grid_getters(self) -> list:
        return [size_getter(d) for d in self.grid]


@dataclass(eq=False)
class Schedule:
    """The items of one plan; slots 0..nparams-1 are its parameters, by number."""

    plan: Plan
    items: list
    nparams: int
    nslots: int
    root: int                            # the slot of the computation's root
    slot_of: dict = field(default_factory=dict)   # instruction -> slot

    @property
    def equal(self) -> list:
        """(parameter, dimension, dim, getter) for each parameter dimension that inference
        unified with another parameter's: the one check a call's shapes can fail before
        anything runs (getter None: a size that is no parameter's dimension)."""
        out = []
        for item in self.items:
            if item.kind != "param":
                continue
            p = item.inst
            for d, dim in enumerate(self.plan.info.dims[p]):
                if isinstance(dim, Sym):
                    source = size_getter(dim)
                    if source != (p.parameter_number, d):
                        out.append((p, d, dim, source))
        return out


def lower(plan: Plan) -> Schedule:
    """The Schedule of a plan and of the plans its call, while and conditional steps run."""
    slot_of: dict = {}
    params = sum(1 for _, kind in plan.steps if kind == "param")
    nxt = params
    items = []
    for inst, kind in plan.steps:
        if kind == "param":
            slot = inst.parameter_number
        else:
            slot, nxt = nxt, nxt + 1
        kernel = plan.kernels.get(inst) if kind == "kernel" else None
        reads = kernel.group.inputs if kernel is not None else inst.operands
        if kind == "library" and library_for(inst) is None:
            kind = "host"
        calls = [lower(sub) for sub in plan.calls.get(inst, ())] if kind in (
            "call", "while", "conditional") else []
        item = Item(kind, inst, plan, [slot_of[i] for i in reads] if kind != "param" else [],
                    slot, kernel, calls)
        item.why = _why(item)
        slot_of[inst] = slot
        items.append(item)
    return Schedule(plan, items, params, nxt, slot_of[plan.info.computation.root], slot_of)


def _why(item: Item) -> str | None:
    """Why an item needs the host, where that is known without trying to capture it:
    control flow, and a library or host step whose opcode has no capture form (rules.py's
    `capture` column)."""
    if item.kind in HOST_READS:
        return HOST_READS[item.kind]
    if item.kind in ("library", "host") and rule_of(item.inst.opcode).capture is None:
        return refusal(item)
    return None


def refusal(item: Item) -> str:
    """Why a library or host item is not captured: its result has a size read from a value
    its operands' sizes do not already read (set-dimension-size of a run-time value), it
    runs on the host, or it is a library step."""
    info = item.plan.info
    own = {d for dim in leaf_dims(item.dims) for d in sym_deps(dim)}
    given = {d for o in item.inst.operands for dim in leaf_dims(info.dims[o])
             for d in sym_deps(dim)} if own else set()
    if own - given:
        return "a size read from a value at run time"
    return "a host fallback" if item.kind == "host" else "a library step"


def inline(schedule: Schedule, arg_slots: list | None = None, first_free: int | None = None
           ) -> tuple[list, object, int]:
    """(items, root slot, next free slot) of `schedule` with every call inlined.

    The entry's own items keep their slots (arg_slots None); a callee's parameters take
    its caller's operand slots and its other values fresh slots from `first_free` (default:
    after the schedule's own). Items of inlined calls, and items reading a call's result,
    are copies with their slots renamed; param items of callees are dropped (their slots
    are the caller's)."""
    free = schedule.nslots if first_free is None else first_free
    rename: dict = {}
    out: list = []
    for item in schedule.items:
        if arg_slots is not None:
            if item.kind == "param":
                rename[item.out] = arg_slots[item.inst.parameter_number]
                continue
            rename[item.out], free = free, free + 1
        mapped = [rename.get(s, s) for s in item.inputs]
        if item.kind == "call":
            sub, root, free = inline(item.calls[0], mapped, free)
            out += sub
            rename[item.out] = root
            continue
        if arg_slots is None and mapped == item.inputs:
            out.append(item)
        else:   # a callee's item, or one reading an inlined call's result
            out.append(dataclasses.replace(item, inputs=mapped,
                                           out=rename.get(item.out, item.out)))
    return out, rename.get(schedule.root, schedule.root), free
