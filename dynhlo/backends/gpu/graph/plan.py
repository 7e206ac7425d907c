"""The graph path's program: steps over value slots, sizes as slots of one int32 buffer.

`build(schedule, precision)` turns the launch list (plan/schedule.py, `call`s inlined by its
`inline`) into steps the graph path can capture: generated kernels (in their strided form,
kernels.strided), matrix products (kernels.matmul, TF32 per dot as the `precision`
option allows: gpu/precision.py) and get-dimension-sizes (kernels.size_value: the size
buffer holds the value), over values that are parameters, constants or step outputs.
Products are 2-D, or batched over the leading dimension of rank-3 operands. Transposes and
reshapes that only feed products are views: a reshape of a dense value is the value
itself, a 2-D transpose (or a batched one of the two minor dimensions) flips the product's
operand layout. Every size a step needs must be static, an entry parameter's dimension
or computed from those (sizes.py: evaluated on the host per call); each step reads its
sizes from its own 16-byte slot range of the size buffer, filled per call from the
arguments' shapes with one gather (`size_index`).

Anything else (host fallbacks, other library ops, while/conditional, data-dependent sizes)
makes `build` return a GraphRefusal naming the instruction and why it needs the host: the
module keeps the plain path, or with graph=True runs as captured segments around such steps
(segments.py adds items one at a time through Builder.step, with sizes read from the
shapes of values made before each segment).

An artifact stores the fusion plan, not this program: loading builds it again from the
stored plan with `stored` (kernels.StoredForms), the same steps in the same order, each
generated kernel's launch facts taken from its plan kernel instead of generated text, and
each launch later given the cubin of its form (aot.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ....hlo import attrs
from ....shapes.sizes import Sym, bound_of
from ....shapes.schedule import sym_deps
from ..plan.schedule import Schedule, inline, lower, refusal, size_getter
from ..precision import HIGHEST, allows_tf32
from ..rules import rule_of
from .attention import attention_chains, attention_launches
from .kernels import (MATMUL_TYPES, NotStrided, epilogue, epilogue_form, matmul, size_value,
                      strided)
from .sizes import getter_of


class GraphRefusal(Exception):
    """Why a module cannot run as one captured graph (its plain path runs instead)."""


@dataclass
class Step:
    """One launch: kernel, input slots (+ output slot), size getters, grid at the bound."""

    kernel: object                 # kernels.GraphKernel
    inputs: list                   # slots read
    out: int                       # slot written
    sizes: list                    # getters (sizes.py): int, (parameter, dim) or SizeExpr
    bound_work: int                # blocks of work at the bound (before the grid cap)
    size_offset: int = 0           # first int32 of this step's sizes in the size buffer
    origin: object = None          # kernel steps: the codegen.Kernel it was made from
    info: object = None            # kernel steps: the ComputationInfo of its group
    dot: tuple = ()                # product steps: (element type, a_km, b_nk, tf32[, True:
                                   # batched])
    key: str = ""                  # cubin key, when loaded from an artifact (aot.py)


@dataclass
class GraphProgram:
    """Slots: 0..nparams-1 are the entry parameters; `values[slot]` describes the others."""

    nparams: int
    steps: list = field(default_factory=list)
    dtypes: dict = field(default_factory=dict)       # slot -> element type
    bound_numel: dict = field(default_factory=dict)  # slot -> elements at the bound
    dims: dict = field(default_factory=dict)         # slot -> getters of its actual shape
    constants: dict = field(default_factory=dict)    # slot -> constant instruction
    root: object = None                              # slot, or tuple of slots
    equal: list = field(default_factory=list)        # (getter, getter, what): same size
    size_index: list = field(default_factory=list)   # getter per int32 of the size buffer


def getters(dims, inst, getter=size_getter) -> list:
    """Each dimension's getter (sizes.getter_of over `getter(dim)`: an int, (input,
    dimension), or a size computed from those, sizes.SizeExpr); GraphRefusal naming `inst`
    when one has none."""
    out = [getter_of(d, getter) for d in dims]
    for d, g in zip(dims, out, strict=True):
        if g is None:
            how = "a size read from a value at run time" if sym_deps(d) else \
                "a size of a value the graph does not read"
            raise GraphRefusal(f"instruction '{inst.name}': {how}")
    return out


def build(source, info=None, precision: str = HIGHEST, stored=None) -> GraphProgram:
    """The graph program of an entry Schedule (plan/schedule.py; a fusion Plan is lowered
    to one first; `info` is the plan's own, kept for callers that pass it) (see module
    doc); GraphRefusal if it has none. `precision`: the compile option; each product's
    TF32 use is decided on its own dot (gpu/precision.py). `stored`: an artifact's
    kernels.StoredForms, for a plan read from it (its kernels have no source)."""
    schedule = source if isinstance(source, Schedule) else lower(source)
    info = schedule.plan.info
    items, root, _ = inline(schedule)
    prog = GraphProgram(schedule.nparams)
    for item in items:
        if item.kind != "param":
            continue
        p = item.inst
        slot = p.parameter_number
        prog.dtypes[slot] = p.shape.element_type
        prog.bound_numel[slot] = math.prod(p.shape.dims)
        prog.dims[slot] = getters(info.dims[p], p)
        for d, (dim, g) in enumerate(zip(info.dims[p], prog.dims[slot], strict=True)):
            if isinstance(dim, Sym) and g != (slot, d):
                prog.equal.append(((slot, d), g, f"instruction '{p.name}': dimension {d}"))
    slots = {k: k for k in range(schedule.nparams)}
    builder = Builder(prog, precision, free=schedule.nslots, stored=stored)
    for item in items:
        if item.kind != "param":
            builder.step(item, slots)
    prog.root = slots[root]
    finish(prog, stored)
    return prog


def finish(prog: GraphProgram, stored=None) -> None:
    """The fusions over a built program's launches, then its size buffer's layout
    (`stored`: as for build)."""
    _fuse_attention(prog)
    _fuse_epilogues(prog, stored)
    _lay_out_sizes(prog)


class Builder:
    """Adds Schedule items to a GraphProgram, its products as the `precision` option says.
    `slots` map a schedule slot to the program's slot (or ("T", slot): a transposed 2-D
    view; a tuple of slots: the entry root's tuple). `getter(dim)` says where a size is
    read (default: an entry parameter's dimension); graph/segments.py gives one of its
    own. `free`: the first schedule slot no item of the entry uses (a call's inlined items
    take slots from there). `stored`: an artifact's kernels.StoredForms (see build)."""

    def __init__(self, prog: GraphProgram, precision: str = HIGHEST, getter=size_getter,
                 free: int = 0, stored=None):
        self.prog, self.precision = prog, precision
        self.next = prog.nparams
        self.getter = getter
        self.free = free
        self.stored = stored

    def slot(self, inst, dims, element_type: str) -> int:
        slot, self.next = self.next, self.next + 1
        self.prog.dtypes[slot] = element_type
        self.prog.bound_numel[slot] = math.prod(max(bound_of(d), 0) for d in dims)
        self.prog.dims[slot] = getters(dims, inst, self.getter)
        return slot

    def step(self, item, slots: dict) -> None:
        """Add one non-parameter item; slots[item.out] is set to its value."""
        kind, inst = item.kind, item.inst
        if kind == "call":
            items, root, self.free = inline(item.calls[0], item.inputs, self.free)
            for sub in items:
                self.step(sub, slots)
            slots[item.out] = slots[root]
        elif kind == "kernel":
            slots[item.out] = self._kernel(item, slots)
        elif kind in ("library", "host"):
            slots[item.out] = self._library(item, slots)
        else:
            raise GraphRefusal(f"instruction '{inst.name}' ({kind}): "
                               f"{item.why or 'needs the host'}")

    def mark(self) -> tuple:
        """The builder's state, for `rollback` after a step that was refused."""
        return len(self.prog.steps), self.next, len(self.prog.equal)

    def rollback(self, mark: tuple) -> None:
        nsteps, nxt, nequal = mark
        prog = self.prog
        del prog.steps[nsteps:], prog.equal[nequal:]
        for slot in range(nxt, self.next):
            for table in (prog.dtypes, prog.bound_numel, prog.dims, prog.constants):
                table.pop(slot, None)
        self.next = nxt

    def _kernel(self, item, slots) -> int:
        kernel, inst = item.kernel, item.inst
        try:
            gk = strided(kernel) if self.stored is None else self.stored.strided(kernel)
        except NotStrided as exc:
            raise GraphRefusal(f"kernel of '{inst.name}': {exc}") from None
        inputs = [self.dense(slots[s], i) for s, i in zip(item.inputs, kernel.group.inputs,
                                                           strict=True)]
        out = self.slot(inst, item.dims, inst.shape.element_type)
        work = math.prod(max(bound_of(d), 0) for d in item.grid)
        self.prog.steps.append(Step(gk, inputs, out, self.size_getters(item.sizes, inst),
                                    -(-work // gk.per_program), origin=kernel,
                                    info=item.plan.info))
        return out

    def dense(self, value, inst) -> int:
        if isinstance(value, tuple):
            raise GraphRefusal(f"'{inst.name}': a transposed view read by a kernel")
        return value

    def _library(self, item, slots):
        """A library or host item as the rule table's `capture` column says (rules.py);
        GraphRefusal when it has no capture form or its form does not fit it."""
        inst = item.inst

        def operand(k: int):   # read only where used: a segment takes what it reads
            return slots[item.inputs[k]]
        form = rule_of(inst.opcode).capture
        value = getattr(self, f"_capture_{form}")(item, operand) if form else None
        if value is not None:
            return value
        raise GraphRefusal(f"instruction '{inst.name}' ({inst.opcode.value}): "
                           f"{item.why or refusal(item)}")

    # --- capture forms (rules.py's `capture` column); None: this item does not fit ------

    def _capture_view(self, item, operand):
        src = operand(0)
        return None if isinstance(src, tuple) else src   # row-major data is its own reshape

    def _capture_transpose(self, item, operand):
        """A 2-D transpose, or a batched one that swaps the two minor dimensions: a
        product's operand read in the other layout (a kernel refuses to read the view)."""
        inst = item.inst
        if tuple(attrs.ints(inst, "dimensions")) not in ((1, 0), (0, 2, 1)):
            return None
        src = operand(0)
        return src[1] if isinstance(src, tuple) else ("T", src)

    def _capture_root_tuple(self, item, operand):
        inst = item.inst
        if inst is not item.plan.info.computation.root:
            return None
        return tuple(self.dense(operand(k), o) for k, o in enumerate(inst.operands))

    def _capture_size_value(self, item, operand):
        inst, info = item.inst, item.plan.info
        (d,) = attrs.ints(inst, "dimensions")
        out = self.slot(inst, (), inst.shape.element_type)
        dim = info.dims[inst.operands[0]][d]
        self.prog.steps.append(Step(size_value(), [], out, self.size_getters([dim], inst), 1))
        return out

    def _capture_constant(self, item, operand):
        inst = item.inst
        if inst.shape.is_tuple or not inst.shape.is_static:
            return None
        slot = self.slot(inst, item.dims, inst.shape.element_type)
        self.prog.constants[slot] = inst
        return slot

    def _capture_matmul(self, item, operand):
        return self._dot(item.inst, item.plan.info, operand)

    def size_getters(self, dims, inst) -> list:
        return getters(dims, inst, self.getter)

    def _dot(self, inst, info, operand) -> int:
        lhs, rhs = inst.operands
        etype = inst.shape.element_type
        lc = attrs.ints(inst, "lhs_contracting_dims", ())
        rc = attrs.ints(inst, "rhs_contracting_dims", ())
        if _batched(inst):
            return self._batched_dot(inst, info, operand)
        if attrs.ints(inst, "lhs_batch_dims", ()) or len(lc) != 1 or len(rc) != 1 or \
                lhs.shape.rank != 2 or rhs.shape.rank != 2 or etype not in MATMUL_TYPES or \
                lhs.shape.element_type != etype or rhs.shape.element_type != etype:
            raise GraphRefusal(f"dot '{inst.name}' is not a 2-D product of one float type, "
                               "nor one batched over a leading dimension")
        a_km, a = _layout(operand(0), lc[0] == 0)
        b_nk, b = _layout(operand(1), rc[0] == 1)
        ld, rd = info.dims[lhs], info.dims[rhs]
        m, k, n = ld[1 - lc[0]], ld[lc[0]], rd[1 - rc[0]]
        ka, kb = self.size_getters((k, rd[rc[0]]), inst)
        if ka != kb:
            self.prog.equal.append((ka, kb, f"instruction '{inst.name}': the contracting "
                                    "dimensions"))
        out = self.slot(inst, info.dims[inst], etype)
        dot = (etype, a_km, b_nk, allows_tf32(inst, self.precision))
        gk = matmul(*dot)
        tiles = math.prod(-(-max(bound_of(d), 0) // gk.block[b]) for d, b in
                          ((m, "BM"), (n, "BN")))
        self.prog.steps.append(Step(gk, [a, b], out, self.size_getters((m, n, k), inst),
                                    tiles, dot=dot))
        return out

    def _batched_dot(self, inst, info, operand) -> int:
        """A product batched over the leading dimension of both operands (matmul's
        `batched` form): [B, M, K] or [B, K, M] by [B, K, N] or [B, N, K]."""
        lhs, rhs = inst.operands
        etype = inst.shape.element_type
        (lc,), (rc,) = attrs.ints(inst, "lhs_contracting_dims"), \
            attrs.ints(inst, "rhs_contracting_dims")
        a_km, a = _layout(operand(0), lc == 1)
        b_nk, b = _layout(operand(1), rc == 2)
        ld, rd = info.dims[lhs], info.dims[rhs]
        m, k, n = ld[3 - lc], ld[lc], rd[3 - rc]
        ka, kb, ba, bb = self.size_getters((k, rd[rc], ld[0], rd[0]), inst)
        for x, y, what in ((ka, kb, "contracting"), (ba, bb, "batch")):
            if x != y:
                self.prog.equal.append((x, y, f"instruction '{inst.name}': the {what} "
                                        "dimensions"))
        out = self.slot(inst, info.dims[inst], etype)
        if max(self.prog.bound_numel[s] for s in (a, b, out)) >= 2**31:
            raise GraphRefusal(f"dot '{inst.name}': a batched product past 32-bit offsets")
        dot = (etype, a_km, b_nk, allows_tf32(inst, self.precision), True)
        gk = matmul(*dot)
        tiles = math.prod(-(-max(bound_of(d), 0) // gk.block[blk]) for d, blk in
                          ((m, "BM"), (n, "BN"))) * max(bound_of(ld[0]), 0)
        self.prog.steps.append(Step(gk, [a, b], out,
                                    self.size_getters((m, n, k, ld[0]), inst), max(tiles, 1),
                                    dot=dot))
        return out


def _batched(inst) -> bool:
    """A dot of two rank-3 operands of one float type batched over their leading
    dimension, each contracting one of the other two."""
    etype = inst.shape.element_type
    lhs, rhs = inst.operands
    return attrs.ints(inst, "lhs_batch_dims", ()) == (0,) and \
        attrs.ints(inst, "rhs_batch_dims", ()) == (0,) and \
        lhs.shape.rank == 3 and rhs.shape.rank == 3 and \
        attrs.ints(inst, "lhs_contracting_dims", ()) in ((1,), (2,)) and \
        attrs.ints(inst, "rhs_contracting_dims", ()) in ((1,), (2,)) and \
        etype in MATMUL_TYPES and lhs.shape.element_type == etype and \
        rhs.shape.element_type == etype


def _layout(value, transposed: bool) -> tuple[bool, int]:
    """(stored transposed, slot) of a product operand that is a slot or a ("T", slot) view."""
    if isinstance(value, tuple):
        return not transposed, value[1]
    return transposed, value


def _fuse_attention(prog: GraphProgram) -> None:
    """Each q·kᵀ product, softmax and product by v that nothing else reads as one or two
    launches (attention.py), where the product by v was."""
    def scratch(numel: int) -> int:
        slot = max(prog.dtypes) + 1
        prog.dtypes[slot], prog.bound_numel[slot], prog.dims[slot] = "f32", numel, [numel]
        return slot

    replace, drop = {}, set()
    for scores, soft, values, scale in attention_chains(prog, _sole_readers(prog)):
        replace[id(values)] = [Step(kernel, inputs, out, sizes, work) for kernel, inputs, out,
                               sizes, work in attention_launches(prog, scores, values, scale,
                                                                 scratch)]
        drop.update((id(scores), id(soft)))
    if replace:
        prog.steps = [new for s in prog.steps if id(s) not in drop
                      for new in replace.get(id(s), [s])]


def _fuse_epilogues(prog: GraphProgram, stored=None) -> None:
    """An elementwise kernel that is the only reader of a product of its own shape runs
    on the product's tiles (bias, activation, residual add): one launch and one round trip
    through memory fewer. The fused launch takes the elementwise kernel's place, after
    every value it reads (its other inputs may be made after the product). With `stored`
    (an artifact's kernels.StoredForms) a pair is fused where the artifact has its form."""
    sole = _sole_readers(prog)
    made = {step.out: step for step in prog.steps if step.dot and len(step.dot) == 4}
    fused: dict = {}   # elementwise step -> the product step with it as epilogue
    drop = set()       # the products fused
    for step in prog.steps:
        if step.origin is None:
            continue
        for j, slot in enumerate(step.inputs):
            dot = made.get(slot)
            if dot is None or sole.get(slot) is not step or \
                    prog.dims[slot] != prog.dims[step.out]:
                continue
            others = [s for k, s in enumerate(step.inputs) if k != j]
            if stored is None:
                epi = epilogue(step.origin, step.info, j)
                if epi is None:
                    continue
                kernel = matmul(*dot.dot, epi=epi)
                kernel.form = epilogue_form(dot.dot, step.origin, j)
            else:
                types = [prog.dtypes[s] for s in dot.inputs + others + [step.out]]
                kernel = stored.epilogue(dot.dot, step.origin, j, types)
                if kernel is None:
                    continue
            fused[id(step)] = Step(kernel, dot.inputs + others, step.out,
                                   dot.sizes + step.sizes, dot.bound_work, dot=dot.dot)
            drop.add(id(dot))
            break
    prog.steps = [fused.get(id(s), s) for s in prog.steps if id(s) not in drop]


def _sole_readers(prog: GraphProgram) -> dict:
    """slot -> the step that is its only reader, for values read once and not a result:
    what a fusion may keep in registers instead of memory."""
    count: dict = {}
    reader: dict = {}
    for step in prog.steps:
        for slot in step.inputs:
            count[slot] = count.get(slot, 0) + 1
            reader[slot] = step
    roots = set(prog.root) if isinstance(prog.root, tuple) else {prog.root}
    return {slot: reader[slot] for slot, n in count.items() if n == 1 and slot not in roots}


def _lay_out_sizes(prog: GraphProgram) -> None:
    """Each step's sizes at a 16-byte-aligned offset of the size buffer."""
    index: list = []
    for step in prog.steps:
        step.size_offset = len(index)
        index += step.sizes
        index += [0] * (-len(index) % 4)
    prog.size_index = index or [0, 0, 0, 0]
