"""Captured segments: an entry plan that is not one graph, split around its host steps.

`plan.build` refuses a whole module at its first item a graph cannot hold: a while or a
conditional (the host reads a device value to go on), a library step other than the
products, a host fallback, a size read from a value at run time. `split(schedule, n)` keeps
the rest captured: the items of the entry's launch list (plan/schedule.py) become maximal
runs that plan.Builder can add ("segments", each a GraphProgram of its own) and the items
between them ("host steps", which the interpreted Runner runs). walk.py runs them in
order, per call.

A segment's parameters are the values it reads that were made before it (entry
parameters, host step results, earlier segments' results); its root is the tuple of its
values read later (by a host step, a later segment, the entry root, or a size read from
a value). Its sizes come from the actual shapes of values made before it: a dynamic size
that is a dimension of such a value is read off that value's shape, which is what lets
the segment after a set-dimension-size of a run-time value (or after a loop) serve every
size the host step makes. A value read only for its shape is a segment's `source`: its
shape follows the parameters' shapes, its data is never read.

A host step that reads nothing the open run made (a get-tuple-element of a loop's result,
say) runs before that run instead of cutting it: the plan's order is one topological
order, not the only one. Runs of fewer than `n` launches, and runs whose program cannot
be made (a result that is a transposed view), stay on the plain path.

Assumes a schedule of a plan as plan/fusion.py makes it (calls inlined or planned,
parameters first or anywhere: they are run first here).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ....hlo.opcodes import Opcode
from ....shapes.schedule import leaf_dims, sym_deps
from ....shapes.sizes import Sym, size_key
from ..plan.schedule import Schedule, lower
from ..precision import HIGHEST
from .plan import GraphProgram, GraphRefusal, Builder, getters, finish


@dataclass
class Segment:
    """A captured run of schedule items: `prog` reads `inputs` (parameter slot k is
    inputs[k]) and the shapes of `sources` (getter index len(inputs) + k), and returns one
    value per `exports` entry; `shapes[k]` are getters of export k's shape when its data
    is another value's (a reshape kept as a view), else None."""

    prog: GraphProgram
    steps: list
    inputs: list
    sources: list
    exports: list
    shapes: list


@dataclass
class HostSteps:
    """Schedule items the interpreted Runner runs; `why[inst]`: why a step needs the host ("" for
    the entry root's tuple; steps of a run too short to capture have none)."""

    steps: list = field(default_factory=list)
    why: dict = field(default_factory=dict)


@dataclass
class Segmented:
    """An entry schedule as segments and host steps, in the order they run."""

    items: list
    schedule: Schedule = None

    @property
    def segments(self) -> list:
        return [item for item in self.items if isinstance(item, Segment)]


def split(source, min_launches: int, precision: str = HIGHEST) -> Segmented:
    """The segments and host steps of an entry Schedule (a fusion Plan is lowered to one
    first; see module doc); the segments' products as the `precision` option says."""
    schedule = source if isinstance(source, Schedule) else lower(source)
    plan = schedule.plan
    known: dict = {}    # size_key -> (instruction, dimension) made before
    items = _partition(schedule, known)
    later = _read_later(plan, items)
    out: list = []
    for k, item in enumerate(items):
        if isinstance(item, list):
            try:
                item = _segment(schedule, item, known, later[k], precision)
            except GraphRefusal:
                item = None
            if item is None or len(item.prog.steps) < min_launches:
                item = HostSteps(items[k])
        if isinstance(item, HostSteps) and out and isinstance(out[-1], HostSteps):
            out[-1].steps += item.steps
            out[-1].why.update(item.why)
        else:
            out.append(item)
    return Segmented(out, schedule)


# --- the runs -------------------------------------------------------------------------------

def _partition(schedule: Schedule, known: dict) -> list:
    """HostSteps and runs (lists of schedule items a Builder added), in order; fills
    `known` with the sizes readable from parameters and host step results."""
    plan = schedule.plan
    info = plan.info
    params = [item for item in schedule.items if item.kind == "param"]
    for item in params:
        _register(known, info, item.inst)
    items: list = [HostSteps(list(params))]
    run: list = []
    made: set = set()
    builder = slots = None
    for item in schedule.items:
        if item.kind == "param":
            continue
        inst = item.inst
        why = _cannot(plan, inst)
        if why is None:
            if builder is None:
                builder, slots = _trial(schedule, known)
            mark, nslots = builder.mark(), len(slots)
            try:
                builder.step(item, slots)
                run.append(item)
                made.add(inst)
                continue
            except GraphRefusal as exc:
                builder.rollback(mark)
                for extra in list(slots)[nslots:]:
                    del slots[extra]
                why = str(exc)
        if run and made.intersection(_reads(item)):
            items += [run, HostSteps()]
            run, made, builder = [], set(), None
        host = items[-1]   # before the open run, when it reads nothing the run made
        host.steps.append(item)
        host.why[inst] = why
        _register(known, info, inst)
    if run:
        items.append(run)
    return items


def _cannot(plan, inst) -> str | None:
    """Why a step stays on the host before a builder is asked ("": bookkeeping that
    splits nothing: the entry root's tuple), else None."""
    if inst is plan.info.computation.root and inst.opcode is Opcode.TUPLE:
        return ""
    return None


def _trial(schedule: Schedule, known: dict):
    """A builder for a new run whose parameters are made as its items read them."""
    order: dict = {}   # instruction -> its number in this trial's getters

    def getter(dim):
        dim = size_key(dim)
        if isinstance(dim, int):
            return dim
        where = known.get(dim)
        if where is None:
            return None
        return (order.setdefault(where[0], len(order)), where[1])

    builder = Builder(GraphProgram(0), getter=getter, free=schedule.nslots)
    return builder, _Inputs(builder, schedule)


class _Inputs(dict):
    """schedule slot -> program slot, where a value made before the run gets a parameter
    slot when an item first reads it."""

    def __init__(self, builder, schedule: Schedule):
        super().__init__()
        self.builder, self.info = builder, schedule.plan.info
        self.inst_of = {slot: inst for inst, slot in schedule.slot_of.items()}

    def __missing__(self, key: int):
        inst = self.inst_of[key]
        if inst.shape.is_tuple:
            raise GraphRefusal(f"instruction '{inst.name}': a tuple read by a captured step")
        slot = self[key] = self.builder.slot(inst, self.info.dims[inst],
                                              inst.shape.element_type)
        return slot


def _register(known: dict, info, inst) -> None:
    """Sizes readable from the shape of `inst`'s value (the first source of each wins)."""
    dims = info.dims.get(inst)
    if inst.shape.is_tuple or not isinstance(dims, tuple):
        return
    for d, dim in enumerate(dims):
        if isinstance(dim, Sym):
            known.setdefault(size_key(dim), (inst, d))


def _reads(item) -> set:
    """The instructions an item reads: operands (a kernel's inputs), and the values its
    sizes (and those of the schedules it calls) are read from."""
    kernel = item.kernel
    dims = list(leaf_dims(item.plan.info.dims.get(item.inst, ())))
    if kernel is not None:
        dims += list(kernel.size_syms) + list(kernel.grid_dims or ())
    out = set(_reads_data(item))
    out.update(d for dim in dims for d in sym_deps(dim))
    for sub in item.calls:
        out |= _size_deps(sub.plan)
    return out


def _size_deps(plan) -> set:
    """Every value a size anywhere in `plan` (and the plans it calls) is read from."""
    out = {d for dims in plan.info.dims.values() for dim in leaf_dims(dims)
           for d in sym_deps(dim)}
    for subs in plan.calls.values():
        for sub in subs:
            out |= _size_deps(sub)
    return out


def _read_later(plan, items: list) -> list:
    """Per item, the values read after it: by later items, the entry root, or a size."""
    always = _size_deps(plan) | {plan.info.computation.root}
    out = [set() for _ in items]
    seen = set(always)
    for k in range(len(items) - 1, -1, -1):
        out[k] = set(seen)
        steps = items[k].steps if isinstance(items[k], HostSteps) else items[k]
        for item in steps:
            seen |= _reads(item)
    return out


# --- one segment's program ------------------------------------------------------------------

def _segment(schedule: Schedule, steps: list, known: dict, later: set, precision: str
             ) -> Segment:
    """The GraphProgram of one run; GraphRefusal when it cannot be made."""
    info = schedule.plan.info
    slot_of = schedule.slot_of
    made = {item.inst for item in steps}
    inputs = list(dict.fromkeys(i for item in steps for i in _reads_data(item)
                                if i not in made))
    exports = [item.inst for item in steps if item.inst in later]
    prog = GraphProgram(len(inputs))
    own: dict = {}        # size_key -> getter from an input's own shape
    for k, inst in enumerate(inputs):
        for d, dim in enumerate(info.dims[inst]):
            own.setdefault(size_key(dim), (k, d))
    sources: list = []

    def getter(dim):
        dim = size_key(dim)
        if isinstance(dim, int):
            return dim
        if dim in own:
            return own[dim]
        where = known.get(dim)
        if where is None:
            return None
        if where[0] not in sources:
            sources.append(where[0])
        return (len(inputs) + sources.index(where[0]), where[1])

    for k, inst in enumerate(inputs):
        prog.dtypes[k] = inst.shape.element_type
        prog.bound_numel[k] = _numel(inst)
        prog.dims[k] = getters(info.dims[inst], inst, getter)
    builder = Builder(prog, precision, getter, free=schedule.nslots)
    slots = {slot_of[inst]: k for k, inst in enumerate(inputs)}
    for item in steps:
        builder.step(item, slots)
    roots = [builder.dense(slots[slot_of[e]], e) for e in exports]
    shapes = []
    for slot, inst in zip(roots, exports, strict=True):
        want = getters(info.dims[inst], inst, getter)
        shapes.append(None if want == prog.dims[slot] else want)   # a view: reshaped
    prog.root = tuple(roots)
    finish(prog)
    return Segment(prog, steps, inputs, sources, exports, shapes)


def _reads_data(item) -> list:
    """The values an item reads the data of (a kernel's inputs, else its operands)."""
    return item.kernel.group.inputs if item.kernel is not None else list(item.inst.operands)


def _numel(inst) -> int:
    """Elements of a parameter's static buffer: its shape's bound."""
    n = 1
    for d in inst.shape.dims:
        if d < 0:
            raise GraphRefusal(f"instruction '{inst.name}': an unbounded dimension")
        n *= d
    return n
