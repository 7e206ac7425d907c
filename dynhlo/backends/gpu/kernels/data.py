"""Fused lowerings that move data: they rewrite the index and read the operand there.

broadcast, transpose, reshape/bitcast, slice, concatenate, reverse, gather, iota, scalar
constants,
set-dimension-size of a size the host knows, and reduce (computed by codegen's reduction
passes; listed so fusion sees it).
Reshape follows XLA: row-major linearization of the actual sizes (size-1 dimensions are
dropped or inserted without index arithmetic). Gather clamps each start index to
[0, operand actual size - slice size], as XLA does. Semantics: XLA operation semantics.
"""

from __future__ import annotations

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ....shapes.rules_indexing import physical_order
from .group import canonical_dim, dims_equal
from .reductions import reducer_of
from .types import cast


def broadcast(k, inst, idx):
    mapped = attrs.ints(inst, "dimensions", ())
    return k.value(inst.operands[0], tuple(idx[d] for d in mapped))


def transpose(k, inst, idx):
    perm = attrs.ints(inst, "dimensions")
    operand_idx = [None] * len(perm)
    for i, p in enumerate(perm):
        operand_idx[p] = idx[i]
    return k.value(inst.operands[0], tuple(operand_idx))


def _non_unit(k, dims):
    return [(pos, d) for pos, d in enumerate(dims) if k.size(d) != "1"]


def _same_dims(k, a, b) -> bool:
    return len(a) == len(b) and all(dims_equal(x, y) for (_, x), (_, y) in zip(a, b, strict=True))


def reshape_ok(inst) -> bool:
    """A bitcast is a logical reshape only with the same element type and row-major layouts."""
    if inst.opcode is Opcode.BITCAST:
        shapes = (inst.shape, inst.operands[0].shape)
        return shapes[0].element_type == shapes[1].element_type and all(
            physical_order(s) == list(range(s.rank)) for s in shapes)
    return True


def reshape(k, inst, idx):
    operand = inst.operands[0]
    out_dims, in_dims = k.dims(inst), k.dims(operand)
    out_nu, in_nu = _non_unit(k, out_dims), _non_unit(k, in_dims)
    operand_idx = ["0"] * len(in_dims)
    if _same_dims(k, out_nu, in_nu):
        for (po, _), (pi, _) in zip(out_nu, in_nu, strict=True):
            operand_idx[pi] = idx[po]
        return k.value(operand, tuple(operand_idx))
    flat = k.let(k.offset(out_dims, idx)) if idx else "0"
    stride = "1"
    for pos in reversed(range(len(in_dims))):
        size = k.size(in_dims[pos])
        if size == "1":
            continue
        expr = flat if stride == "1" else f"({flat} // ({stride}))"
        if any(k.size(d) != "1" for d in in_dims[:pos]):
            expr = f"{expr} % ({size})"
        operand_idx[pos] = k.let(expr)
        stride = size if stride == "1" else f"{stride} * {size}"
    return k.value(operand, tuple(operand_idx))


def slice_(k, inst, idx):
    """XLA Slice. A length-1 slice of a dynamic dimension (static in XLA) may start past the
    actual size, in XLA's buffer padding: read with a load masked by the operand's actual
    sizes (zeros there; the plan keeps that operand in memory, plan/fusion.py)."""
    operand_idx = []
    padded = False
    for i, (start, limit, step), dim in zip(idx, attrs.slices(inst), k.dims(inst.operands[0]),
                                            strict=True):
        expr = i if step == 1 else f"{i} * {step}"
        operand_idx.append(expr if start == 0 else f"({expr} + {start})")
        padded |= -(-(limit - start) // step) == 1 and not isinstance(canonical_dim(dim), int)
    if padded:
        return k.padded(inst.operands[0], tuple(operand_idx))
    return k.value(inst.operands[0], tuple(operand_idx))


def concatenate(k, inst, idx):
    """XLA ConcatInDim along dimension d: output index i along d lies in operand j where
    off_j <= i < off_j + n_j, off_j the sum of the actual sizes n of the operands before j
    (dynamic sizes included: a dynamic operand is dense at its actual size, so operand j+1
    starts right after operand j's last element, not after its bound). Each operand is
    loaded at i - off_j, masked to its own range (a size-0 operand loads nothing), and a
    select keeps the one the index falls in. Off the axis an operand is read at the
    output's index with its own strides (the library step cuts operands to the result's
    actual sizes there: the same elements). The operands are kernel inputs (codegen's
    `padded`: the planner puts a fused operand in memory), so no lane computes an operand
    at an index outside it."""
    d = attrs.ints(inst, "dimensions")[0]
    i = idx[d]
    start, parts = "0", []
    for op in inst.operands:
        size = k.size(k.dims(op)[d])
        if size == "0":
            continue
        local = i if start == "0" else k.let(f"{i} - ({start})")
        within = (f"({local} < {size})",) if start == "0" else \
            (f"({local} >= 0)", f"({local} < {size})")
        start = size if start == "0" else f"{start} + {size}"
        parts.append((start, k.padded(op, idx[:d] + (local,) + idx[d + 1:], within)))
    if not parts:   # every operand is statically empty: so is the result (no lane runs)
        return k.const(0, inst.shape.element_type)
    out = parts[-1][1]
    for end, value in reversed(parts[:-1]):
        out = k.let(f"tl.where({i} < ({end}), {value}, {out})")
    return out


def set_dimension_size(k, inst, idx):
    """XLA SetDimensionSize of a size known on the host (shapes/host_sizes.py
    sizes_in_range: the planner fuses no other): the operand itself at the index, within
    the new size. Where the operand may hold fewer elements in that dimension (a size of
    its own, not the new one) it is read with loads masked by its actual sizes: zeros past
    them, as the library step extends it (codegen's `padded`: the operand in memory). The
    size operand is not read: the kernel's domain has the new size as an argument
    (plan/fusion.py kernel_operands)."""
    operand = inst.operands[0]
    d = attrs.ints(inst, "dimensions")[0]
    held, new = canonical_dim(k.dims(operand)[d]), k.dims(inst)[d]
    if isinstance(held, int) or held.expr is None or dims_equal(held, new):
        return k.value(operand, idx)
    return k.padded(operand, idx)


def reverse(k, inst, idx):
    flipped = set(attrs.ints(inst, "dimensions", ()))
    dims = k.dims(inst)
    operand_idx = tuple(f"({k.size(dims[d])} - 1 - {i})" if d in flipped else i
                        for d, i in enumerate(idx))
    return k.value(inst.operands[0], operand_idx)


def iota(k, inst, idx):
    i = idx[attrs.integer(inst, "iota_dimension")]
    t = k.ttype(inst.shape.element_type)
    if i == "0":
        return k.const(0, inst.shape.element_type)
    # an index can be an integer expression alone ((1 - 1 - 0): a reversed dimension of
    # size 1), which has no .to(): adding a zero makes it a tensor
    return k.let(cast(f"({i}) + tl.zeros([], tl.int32)", t))


def scalar_constant(inst) -> bool:
    return inst.literal is not None and not inst.shape.is_tuple and inst.literal.size == 1 \
        and inst.shape.rank == 0


def constant(k, inst, idx):
    value = inst.literal.reshape(()).item()
    return k.const(value, inst.shape.element_type)


def reduce(k, inst, idx):  # pragma: no cover - codegen computes reductions itself
    raise AssertionError("reductions are computed by codegen's reduction passes")


def reduce_fuses(inst) -> bool:
    """A reduce fuses when its to_apply is one binary op (reductions.reducer_of)."""
    return reducer_of(inst) is not None


def plain_gather(inst) -> bool:
    """A gather a kernel computes: no batching dims, a signed or small index type, and no
    start into an unbounded (`?`) operand dimension (no padded buffer to clamp to: the
    library step checks the window on the host). A start into a bounded dynamic dimension
    is clamped to the bound, as XLA does, and what lies past the actual size reads as zeros
    (masked loads; with padding_reads="error" the planner keeps the library step, which
    refuses such a read: plan/fusion.py may_read_padding)."""
    operand = inst.operands[0].shape
    if any(operand.dims[d] < 0 for d in attrs.ints(inst, "start_index_map", ())):
        return False
    return not attrs.ints(inst, "operand_batching_dims", ()) and \
        inst.operands[1].shape.element_type in ("s32", "s64", "s16", "s8", "u8", "u16")


def gather(k, inst, idx):
    """XLA Gather without batching dimensions. A start is clamped to [0, size - slice size]
    (a whole dynamic window dimension: its actual size); into a dynamic operand dimension
    to [0, bound - slice size] of XLA's padded buffer, the operand then read with loads
    masked by its actual sizes (zeros past them, as the library step reads them), which
    needs the operand in memory (codegen's `padded`)."""
    operand, indices = inst.operands
    offset_dims = attrs.ints(inst, "offset_dims", ())
    collapsed = set(attrs.ints(inst, "collapsed_slice_dims", ()))
    start_map = attrs.ints(inst, "start_index_map", ())
    ivd = attrs.integer(inst, "index_vector_dim", indices.shape.rank)
    slice_sizes = attrs.ints(inst, "slice_sizes")
    out_dims, op_dims = k.dims(inst), k.dims(operand)
    batch_idx = [i for d, i in enumerate(idx) if d not in offset_dims]
    offset_idx = [idx[d] for d in sorted(offset_dims)]
    window = [d for d in range(len(op_dims)) if d not in collapsed]
    slice_size = {d: str(slice_sizes[d]) for d in range(len(op_dims))}
    for j, d in enumerate(window):  # a whole dynamic dimension: its actual size
        slice_size[d] = k.size(out_dims[sorted(offset_dims)[j]])
    it = k.index_type()
    operand_idx, padded = [], False
    for d in range(len(op_dims)):
        start = "0"
        if d in start_map:
            vec = list(batch_idx)
            if ivd < indices.shape.rank:
                vec.insert(ivd, str(start_map.index(d)))
            raw = k.value(indices, tuple(vec))
            if isinstance(canonical_dim(op_dims[d]), int):
                high = f"{k.size(op_dims[d])} - {slice_size[d]}"
            else:   # XLA's padded buffer: its bound
                high = str(operand.shape.dims[d] - slice_sizes[d])
                padded = True
            start = k.let(f"tl.minimum(tl.maximum({raw}.to({it}), 0), {high})")
        off = offset_idx[window.index(d)] if d in window else "0"
        operand_idx.append(start if off == "0" else off if start == "0" else f"{start} + {off}")
    if padded:
        return k.padded(operand, tuple(operand_idx))
    return k.value(operand, tuple(operand_idx))
