"""reduce-window and select-and-scatter as torch ops on tensors at their actual sizes.

Both follow the CPU backend's algorithm (dynhlo/backends/cpu/ops_window.py) step for step,
so results agree bit for bit where the CPU's are sequential: the window is walked one tap
(one offset inside the window) at a time, vectorized over every output position on the
device; a tap reads the operand where it lands on a real element and is skipped where it
lands on padding or on a hole of base dilation. Only taps that land on an element for some
output position are walked, so the work follows the actual size even when a window spans the
bound. A running reduction (`jnp.cumsum`, cummax: a stride-1 window of at least the actual
size, padded on one side) takes torch.cumsum / cumprod / cummax / cummin instead.

On the device: reduce-window with one operand whose to_apply is add, multiply, maximum,
minimum, and, or (low-precision floats reduce in f32, as on the CPU); select-and-scatter
whose `select` is one compare of its two parameters (GE for max-pool gradients) and whose
`scatter` is one of those binary ops; and variadic reduce-window (argmax pooling) or any
to_apply / select / scatter computation that apply.py runs, applied per tap
(scatter: in rounds) exactly as the CPU backend does. Taken by the host fallback: called
computations beyond those ops (a transcendental, a nested call).
Semantics: XLA operation semantics, ReduceWindow and SelectAndScatter.
"""

from __future__ import annotations

import itertools

import torch

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ....shapes.windows import running_axis, useful_taps, window_dims, window_output_size
from ..tensors import torch_dtype
from ..kernels.reductions import computation_reducer
from .apply import applicable, apply, apply_in_rounds
from .indexing import combine_updates
from .minmax import cumulative, maximum, minimum

_OPS = {"sum": torch.add, "prod": torch.mul, "max": maximum, "min": minimum}


def _op(kind: str, dtype: torch.dtype):
    if dtype == torch.bool:
        return {"sum": torch.logical_or, "or": torch.logical_or, "max": torch.logical_or,
                "prod": torch.logical_and, "and": torch.logical_and,
                "min": torch.logical_and}[kind]
    if kind in _OPS:
        return _OPS[kind]
    return torch.bitwise_and if kind == "and" else torch.bitwise_or


def window_taps(shape, wins, out_shape, device):
    """Per tap: (broadcast index tensors, validity mask), both over output positions."""
    per_dim = []
    for d, (n, w, m) in enumerate(zip(shape, wins, out_shape, strict=True)):
        o = torch.arange(m, device=device)
        view = [-1 if k == d else 1 for k in range(len(out_shape))]
        taps = []
        for k in useful_taps(n, w, m):
            p = o * w.stride + (k * w.window_dilation - w.lo)
            valid = (p >= 0) & (p % w.base_dilation == 0) & (p // w.base_dilation < n)
            taps.append((torch.where(valid, p // w.base_dilation, 0).reshape(view),
                         valid.reshape(view)))
        per_dim.append(taps)
    for combo in itertools.product(*per_dim):
        mask = torch.ones(out_shape, dtype=torch.bool, device=device)
        for _, valid in combo:
            mask = mask & valid
        yield tuple(c[0] for c in combo), mask


def _work_dtype(dtype: torch.dtype) -> torch.dtype:
    return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


def _fit(arrays):
    """Operands cut to their shared actual shape (a static one meets a dynamic one)."""
    shape = [min(a.shape[d] for a in arrays) for d in range(arrays[0].dim())]
    return [a[tuple(slice(0, s) for s in shape)] for a in arrays]


def reduce_window(ctx, inst, args):
    (comp,) = inst.called["to_apply"]
    kind = computation_reducer(comp) if len(args) == 2 else None
    if kind is None:
        return _general_reduce_window(ctx, inst, comp, args)
    (x,) = _fit(args[:1])
    init = args[1]
    wins = window_dims(inst, x.dim())
    out_shape = tuple(window_output_size(n, w) for n, w in zip(x.shape, wins, strict=True))
    out_dtype = torch_dtype(inst.shape.element_type)
    work = _work_dtype(x.dtype)
    xw, init = x.to(work), init.reshape(()).to(work)
    op = _op(kind, work)
    running = _running_axis(x, wins, kind, work)
    if running is not None:
        return _accumulate(kind, op, xw, init, *running).to(out_dtype)
    acc = init.expand(out_shape)
    for index, mask in window_taps(x.shape, wins, out_shape, x.device):
        acc = torch.where(mask, op(acc, xw[index]), acc)
    return acc.to(out_dtype).contiguous()


def _general_reduce_window(ctx, inst, comp, args):
    """Variadic or general to_apply, one tap at a time: accs = comp(accs, taps)."""
    if not applicable(comp):
        return NotImplemented
    n = len(args) // 2
    arrays, inits = _fit(args[:n]), args[n:]
    wins = window_dims(inst, arrays[0].dim())
    out_shape = tuple(window_output_size(m, w) for m, w in zip(arrays[0].shape, wins, strict=True))
    dtypes = [torch_dtype(s.element_type) for s in
              (inst.shape.elements if inst.shape.is_tuple else [inst.shape])]
    accs = [init.reshape(()).to(dt).expand(out_shape) for init, dt in zip(inits, dtypes,
                                                                          strict=True)]
    for index, mask in window_taps(arrays[0].shape, wins, out_shape, arrays[0].device):
        result = apply(comp, accs + [a[index] for a in arrays], arrays[0].device)
        result = result if isinstance(result, tuple) else (result,)
        accs = [torch.where(mask, r, a).to(a.dtype) for r, a in zip(result, accs, strict=True)]
    accs = [a.contiguous() for a in accs]
    return accs[0] if n == 1 else tuple(accs)


_ORDER_FREE = {"max", "min", "and", "or"}


def _running_axis(x, wins, kind, work):
    """(axis, reverse) when the window is a running reduction along one axis (cumsum)."""
    found = running_axis(x.shape, wins, kind in _ORDER_FREE or not work.is_floating_point)
    if found is not None and kind in ("and", "or") and work != torch.bool:
        return None  # bitwise: no torch scan; the tap walk handles it
    return found


def _accumulate(kind, op, x, init, axis, reverse):
    """init, x0, x1, ... folded left to right, every prefix kept (the CPU's order)."""
    if reverse:
        x = x.flip(axis)
    head = init.expand(x.shape[:axis] + (1,) + x.shape[axis + 1:])
    seq = torch.cat([head, x], dim=axis)
    if x.dtype == torch.bool:
        seq = seq.to(torch.uint8)
        kind = {"or": "max", "sum": "max", "max": "max"}.get(kind, "min")
    if kind == "sum":
        out = torch.cumsum(seq, dim=axis, dtype=seq.dtype)
    elif kind == "prod":
        out = torch.cumprod(seq, dim=axis, dtype=seq.dtype)
    else:  # max or min
        out = cumulative(kind, seq, axis)
    out = out.narrow(axis, 1, x.shape[axis]).to(x.dtype)
    return out.flip(axis) if reverse else out


_COMPARE = {"GE": torch.ge, "GT": torch.gt, "LE": torch.le, "LT": torch.lt,
            "EQ": torch.eq, "NE": torch.ne}


def _select_compare(comp):
    """The torch comparison select(a, b) is, when it is one compare of its two parameters."""
    root = comp.root
    if len(comp.instructions) != 3 or root.opcode is not Opcode.COMPARE:
        return None
    lhs, rhs = root.operands
    if lhs.opcode is not Opcode.PARAMETER or rhs.opcode is not Opcode.PARAMETER or lhs is rhs:
        return None
    if attrs.string(root, "type") == "TOTALORDER":
        return None
    fn = _COMPARE.get(attrs.string(root, "direction"))
    if fn is None:
        return None
    if lhs.parameter_number == 0:
        return fn
    return lambda a, b: fn(b, a)


def select_and_scatter(ctx, inst, args):
    """Scatter `source` onto the element `select` picks in each window of `operand`.

    Per window, the first real element (row-major window order) is the first pick; a later
    element replaces it where select(pick, element) is false. Windows of padding only pick
    nothing. Each pick gets out[pick] = scatter(out[pick], source value).
    """
    operand, source, init = args
    select_comp, scatter_comp = inst.called["select"][0], inst.called["scatter"][0]
    select = _select_compare(select_comp)
    kind = computation_reducer(scatter_comp)
    if select is None and applicable(select_comp):
        def select(a, b, comp=select_comp):
            return apply(comp, [a, b], a.device).to(torch.bool)
    if select is None or (kind is None and not applicable(scatter_comp)):
        return NotImplemented
    wins = window_dims(inst, operand.dim())
    out_shape = tuple(window_output_size(n, w) for n, w in zip(operand.shape, wins, strict=True))
    if tuple(source.shape) != out_shape:
        raise ctx.error(f"source has size {list(source.shape)} but the windows over the "
                        f"operand of size {list(operand.shape)} give {list(out_shape)}")
    dtype = torch_dtype(inst.shape.element_type)
    out = init.reshape(()).to(dtype).expand(tuple(operand.shape)).contiguous()
    picked, have = _select(select, operand, wins, out_shape)
    if out.numel() == 0 or source.numel() == 0:
        return out
    targets, values = picked[have], source[have].to(dtype)
    if kind is None:
        apply_in_rounds(scatter_comp, [out], targets, [values], out.device)
        return out
    combine_updates(out, kind, targets, values)
    return out


def _select(select, operand, wins, out_shape):
    """Flat operand index of each window's pick, and whether the window picked anything."""
    device = operand.device
    best = torch.zeros(out_shape, dtype=operand.dtype, device=device)
    picked = torch.zeros(out_shape, dtype=torch.int64, device=device)
    have = torch.zeros(out_shape, dtype=torch.bool, device=device)
    strides = [1] * operand.dim()
    for d in range(operand.dim() - 2, -1, -1):
        strides[d] = strides[d + 1] * operand.shape[d + 1]
    for index, mask in window_taps(operand.shape, wins, out_shape, device):
        value = operand[index]
        keep = select(best, value)
        take = mask & (~have | ~keep)
        best = torch.where(take, value, best)
        flat = sum(i * s for i, s in zip(index, strides, strict=True))
        picked = torch.where(take, flat, picked)
        have = have | mask
    return picked, have
