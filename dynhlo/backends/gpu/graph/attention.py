"""Attention as one kernel: a product, the softmax of its rows, and a product by it.

JAX and XLA write attention as three steps of the graph path: `s = dot(q, kᵀ)` ([m, n]
scores), one row kernel for `softmax(s / c)` over the key axis, and `dot(p, v)`. At a
sequence length of 2048 the [m, n] scores go through memory twice and the second product
has K = n with only m/BM·dv/BN tiles to spread it over (issue 10: three quarters of a
48-layer transformer's time at n = 2048). plan._fuse_attention replaces the three by a kernel
of the online softmax (FlashAttention: Dao et al., 2022, "FlashAttention: Fast and
Memory-Efficient Exact Attention with IO-Awareness", algorithm 1): each program holds BM
query rows, streams the keys and values in blocks of BN, and keeps the running row maximum
and sum, rescaling its accumulator when the maximum grows. The scores never reach memory,
and the key length is read from the size buffer like every other size of the graph. When
the bound's query blocks are too few to fill the GPU, each block's keys are split into
shares over several programs and a second launch combines them (FlashDecoding).

The softmax row kernel is recognised on its HLO (the fused group), not its text:

    t = s | s / c | s * c | c * s           (c > 0 a scalar constant: the 1/sqrt(d) scale)
    mx = reduce(t, -inf), max over dim 1    (optionally maximum(mx, -inf), as jax.nn.softmax)
    e = exp(t - broadcast(mx))
    p = e / broadcast(reduce(e, 0), add over dim 1)

with the per-row values reaching [m, n] through reshapes to [m, 1] and broadcasts along the
rows only. The result is the same softmax in another order of rounding (f32 throughout, the
products in TF32 only where the precision option and their dots allow it; the
scale and log2(e) folded into one factor before exp2, as Triton's exp computes it): within
f32 tolerance of the three-step form, not bit-identical.
"""

from __future__ import annotations

import math

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ..kernels.reductions import reducer_of
from .kernels import GraphKernel

# Tiles and key shares, from bench/attention_tiles.py on the H200 (2026-12-01, d = dv = 64,
# f32 products on the FMA units): 32 query rows x 64 keys per step and 4 warps, the keys of
# each query block split so that the bound's programs number about 4 per multiprocessor
# (their serial softmax steps overlap). At n = 512/1024/2048: 19/36/108 us, against 37/69/133
# unsplit in 16-row blocks.
BLOCK_M = 32
BLOCK_N = 64
NUM_WARPS = 4
TARGET_PROGRAMS = 512
MAX_SPLITS = 8
COMBINE_ROWS = 32
LOG2E = 1.4426950408889634
MAX_HEAD = 256    # head widths (d, dv) held whole in registers
# The q·kᵀ product over the head in chunks of this many columns, q re-read (from L1) per
# key block, or 0: q held whole across the key loop. Triton's FMA dot holds a thread's rows
# and columns of both operands for the whole contraction: at d = 64 the 32x64 tile takes
# 255 registers, and 64-row tiles spill (bench/kernel_asm.py for sm_90); in chunks of 16,
# 163 registers and no spills up to 128x64 on 8 warps.
HEAD_CHUNK = 0
# Long query axes: past LONG_ROWS query rows a second kernel takes over, with 128-row tiles
# on 8 warps and the head in chunks of 16 (H200, 2026-12-01, d = 64, 8 key shares; us at
# n = 128/512/1024/2048): 32x64 tiles 24.9/18.5/35.9/108.1, 128x64 in chunks
# 32.2/26.2/40.0/67.5. Both kernels are in the graph and each reads m from the size buffer:
# the one whose range m is not in exits at once. They write the same partial sums, so one
# combine launch serves both; the graph orders the second writer after the first and the
# readers after both (runner._dependencies: the combine once followed the last writer only,
# ran beside the first and read its sums half written).
LONG_ROWS = 1024
LONG_TILE = (128, 64, 8, 16)   # BM, BN, warps, head chunk


def attention_chains(prog, sole: dict) -> list:
    """The (q·kᵀ product, softmax row kernel, product by v, scale) steps of `prog` that one
    attention launch can replace: the scores and the softmax each have one reader and are
    not results (`sole`: slot -> its only reader, plan._sole_readers). The caller makes the
    launches (attention_launches) and drops the three."""
    producer = {step.out: step for step in prog.steps}
    chains = []
    for soft in prog.steps:
        found = _chain(soft, producer, sole)
        if found is not None and _fits_int32(prog, found):
            scores, values, scale = found
            chains.append((scores, soft, values, scale))
    return chains


def _fits_int32(prog, found) -> bool:
    """The kernels index q, k, v, the result and the key shares with 32-bit offsets."""
    scores, values, _ = found
    slots = scores.inputs + values.inputs[1:] + [values.out]
    return max(prog.bound_numel[s] for s in slots) * (MAX_SPLITS + 1) < 2 ** 31


def _chain(soft, producer, sole):
    """(scores step, values step, scale) when `soft` is the middle of an attention chain."""
    if soft.origin is None or soft.origin.kind != "row" or len(soft.inputs) != 1:
        return None
    s_slot, p_slot = soft.inputs[0], soft.out
    scores, values = producer.get(s_slot), sole.get(p_slot)
    if scores is None or values is None or not scores.dot or not values.dot or \
            sole.get(s_slot) is not soft or values.inputs[0] != p_slot:
        return None
    if len(scores.dot) != 4 or len(values.dot) != 4:
        return None   # batched products (plan.Builder._batched_dot) stay products
    if scores.dot[0] != "f32" or values.dot[0] != "f32" or scores.dot[1] or values.dot[1]:
        return None   # f32 only; q and p as stored [rows, contracted]
    m, n, d = scores.sizes
    m2, dv, n2 = values.sizes
    if m != m2 or n != n2 or not isinstance(d, int) or not isinstance(dv, int) or \
            not 0 < d <= MAX_HEAD or not 0 < dv <= MAX_HEAD:
        return None
    scale = softmax_scale(soft.origin.group)
    return None if scale is None else (scores, values, scale)


def softmax_scale(group):
    """(op, c) when the row kernel's group is the softmax of `op(s, c)` over dim 1 of its
    one input s (op: None, "div", "mul"); None for any other group."""
    if len(group.inputs) != 1 or group.root.shape.rank != 2:
        return None
    source = group.inputs[0]
    root = group.root
    if root.opcode is not Opcode.DIVIDE:
        return None
    e, total = root.operands[0], _per_row(root.operands[1])
    if e.opcode is not Opcode.EXP or not _reduce_of(total, "sum") or \
            total.operands[0] is not e or not _is_constant(total.operands[1], 0.0):
        return None
    diff = e.operands[0]
    if diff.opcode is not Opcode.SUBTRACT:
        return None
    t, mx = diff.operands[0], _per_row(diff.operands[1])
    if mx is not None and mx.opcode is Opcode.MAXIMUM and \
            _is_constant(_splat(mx.operands[1]), float("-inf")):
        mx = mx.operands[0]
    if not _reduce_of(mx, "max") or mx.operands[0] is not t or \
            not _is_constant(mx.operands[1], float("-inf")):
        return None
    if t is source:
        return (None, 1.0)
    if t.opcode not in (Opcode.DIVIDE, Opcode.MULTIPLY):
        return None
    a, b = t.operands
    if t.opcode is Opcode.MULTIPLY and b is source:
        a, b = b, a
    c = _scalar(_splat(b))
    if a is not source or c is None or not math.isfinite(c) or c <= 0:
        return None
    return ("div" if t.opcode is Opcode.DIVIDE else "mul", c)


def _reduce_of(inst, kind: str) -> bool:
    return inst is not None and inst.opcode is Opcode.REDUCE and \
        tuple(attrs.ints(inst, "dimensions")) == (1,) and reducer_of(inst) == kind and \
        inst.operands[0].shape.rank == 2


def _per_row(inst):
    """The [m] value that `inst` ([m, n]) repeats along its rows, through reshapes to and
    from [m, 1] and broadcasts along dim 1; None when it is not of that form."""
    if inst.shape.rank != 2 or inst.opcode is not Opcode.BROADCAST:
        return None
    while inst.opcode in (Opcode.BROADCAST, Opcode.RESHAPE):
        src = inst.operands[0]
        if inst.opcode is Opcode.BROADCAST:
            dims = tuple(attrs.ints(inst, "dimensions"))
            if not (dims == (0,) and src.shape.rank == 1 or
                    dims == (0, 1) and src.shape.rank == 2 and src.shape.dims[1] == 1):
                return None
        elif not (src.shape.rank, inst.shape.rank) in ((1, 2), (2, 1)) or \
                (inst.shape.rank == 2 and inst.shape.dims[1] != 1) or \
                (src.shape.rank == 2 and src.shape.dims[1] != 1):
            return None
        inst = src
    return inst if inst.shape.rank == 1 else None


def _splat(inst):
    """The scalar a broadcast repeats (or `inst` itself)."""
    while inst.opcode is Opcode.BROADCAST and not attrs.ints(inst, "dimensions"):
        inst = inst.operands[0]
    return inst


def _scalar(inst) -> float | None:
    if inst.opcode is not Opcode.CONSTANT or inst.shape.rank != 0 or \
            inst.shape.element_type != "f32":
        return None
    return float(inst.literal.reshape(-1)[0])


def _is_constant(inst, value: float) -> bool:
    c = _scalar(inst)
    return c is not None and c == value


def attention_launches(prog, scores, values, scale, scratch) -> list:
    """[(kernel, inputs, out slot, sizes, blocks of work at the bound)]: the launches that
    replace a chain of attention_chains. One launch, or, when the bound's query blocks are
    too few to fill the GPU, SPLITS programs per query block each over a share of the keys
    into a scratch value (`scratch(numel)` makes an f32 slot of that many elements) and a
    launch that combines them (FlashDecoding's split of the keys). A bound past LONG_ROWS
    query rows adds the long-axis kernel (LONG_TILE) for the sizes past LONG_ROWS."""
    m, n, d = scores.sizes
    q, k = scores.inputs
    v, dv = values.inputs[1], values.sizes[1]
    bound_m, bound_n = prog.bound_numel[q] // d, prog.bound_numel[k] // d
    long_m = LONG_TILE[0] if bound_m > LONG_ROWS else None
    blocks = max(1, -(-min(bound_m, LONG_ROWS) // BLOCK_M))
    splits = max(1, min(MAX_SPLITS, -(-bound_n // BLOCK_N),
                        TARGET_PROGRAMS // (-(-bound_m // long_m) if long_m else blocks)))
    layout = (scores.dot[2], values.dot[2], _log2_factor(scale))
    tf32 = {"tf32_qk": scores.dot[3], "tf32_pv": values.dot[3]}   # each product's own rule
    rows = max(bound_m, 1) if splits > 1 else 0
    out = values.out if splits == 1 else scratch(splits * rows * (dv + 2))
    kernels = [(attention_kernel(d, dv, *layout, splits, rows, **tf32,
                                 below=LONG_ROWS if long_m else None), blocks)]
    if long_m:
        bm, bn, warps, chunk = LONG_TILE
        kernels.append((attention_kernel(d, dv, *layout, splits, rows, bm, bn, warps, chunk,
                                         **tf32, above=LONG_ROWS), -(-bound_m // bm)))
    launches = [(kernel, [q, k, v], out, [m, n], work * splits) for kernel, work in kernels]
    if splits > 1:
        launches.append((combine_kernel(dv, splits, rows), [out], values.out, [m],
                         max(1, -(-bound_m // COMBINE_ROWS))))
    return launches


def _log2_factor(scale) -> float:
    """The factor taking scores to the exponent in base 2: op(s, c)·log2(e). The maximum
    and the exponential of the softmax work on those (exp(x - max) = 2^((x - max)·log2 e),
    as Triton's own exp computes it); c > 0, so the maximum is the same score's."""
    op, c = scale
    return LOG2E / c if op == "div" else LOG2E * c if op == "mul" else LOG2E


_PARTIAL_STORE = """        part = (j * ROWS + rm) * DV
        tl.store(out + part[:, None] + re[None, :], acc, mask=(rm[:, None] < mm) & (re[None, :] < DV))
        tl.store(out + SPLITS * ROWS * DV + j * ROWS + rm, top, mask=rm < mm)
        tl.store(out + SPLITS * ROWS * (DV + 1) + j * ROWS + rm, total, mask=rm < mm)
"""
_FINAL_STORE = """        res = tl.div_rn(acc, tl.where(total > 0, total, 1.0)[:, None])  # n = 0: acc is 0
        tl.store(out + rm[:, None] * DV + re[None, :], res, mask=(rm[:, None] < mm) & (re[None, :] < DV))
"""


def attention_kernel(d: int, dv: int, k_nd: bool, v_dn: bool, factor: float,
                     splits: int = 1, rows: int = 0, block_m: int = BLOCK_M,
                     block_n: int = BLOCK_N, num_warps: int = NUM_WARPS,
                     chunk: int | None = None, *, tf32_qk: bool = False,
                     tf32_pv: bool = False, below: int | None = None,
                     above: int | None = None) -> GraphKernel:
    """out[m, dv] = softmax(s) · v for scores s = q[m, d] · kᵀ scaled so that
    s·`factor` is the exponent in base 2 (_log2_factor); f32 in IEEE arithmetic, except
    the product q·kᵀ in TF32 with `tf32_qk` and p·v with `tf32_pv` (each as its own dot's
    operand_precision and the precision option allow: gpu/precision.py).

    `k_nd`: k stored [n, d] (else kᵀ stored [d, n]); `v_dn`: v stored [dv, n] (else
    [n, dv]). m and n are `sz[0:2]`; d and dv are static. A row past m is not stored; keys
    past n score -inf; with n = 0 the result is 0 (a product over an empty axis). With
    `splits` > 1, program (block, j) takes the j-th share of the keys and stores its
    unnormalised sum, maximum and total to `out` laid out for `rows` rows (combine_kernel
    finishes). Tiles default to the tuned ones (bench/attention_tiles.py); `chunk`
    (default HEAD_CHUNK) splits the q·kᵀ contraction, summed in the same order. With
    `below` (`above`) the kernel does the work only when m <= below (m > above) and
    otherwise exits: two kernels of different tiles share one graph (LONG_ROWS).
    """
    dp, dvp = (max(16, 1 << (x - 1).bit_length()) for x in (d, dv))
    chunk = HEAD_CHUNK if chunk is None else chunk
    chunk = dp if not chunk or chunk >= dp else max(16, 1 << (chunk - 1).bit_length())
    k_off = ("rn[None, :] * D + {c}[:, None]" if k_nd else
             "{c}[:, None] * nn + rn[None, :]")
    q_load = ("tl.load(q + rm[:, None] * D + {c}[None, :], "
              "mask=(rm[:, None] < mm) & ({c}[None, :] < D), other=0)")
    k_load = f"tl.load(k + {k_off}, mask=({{c}}[:, None] < D) & (rn[None, :] < stop), other=0)"
    qk, pv = _precision(tf32_qk), _precision(tf32_pv)
    if chunk == dp:
        q_whole = f"        qt = {q_load.format(c='rd')}\n"
        scores = f"""            kt = {k_load.format(c='rd')}
            s = tl.dot(qt, kt, input_precision="{qk}") * {factor!r}
"""
    else:
        q_whole = ""
        scores = f"""            s = tl.zeros([BM, BN], tl.float32)
            for d0 in tl.static_range(0, DP, {chunk}):
                rc = d0 + tl.arange(0, {chunk})
                s = tl.dot({q_load.format(c='rc')}, {k_load.format(c='rc')}, s, input_precision="{qk}")
            s = s * {factor!r}
"""
    v_off = "re[None, :] * nn + rn[:, None]" if v_dn else "rn[:, None] * DV + re[None, :]"
    blocks = "tl.cdiv(mm, BM)"
    if below is not None:
        blocks = f"tl.where(mm <= {below}, {blocks}, 0)"
    if above is not None:
        blocks = f"tl.where(mm > {above}, {blocks}, 0)"
    if splits == 1:
        head = f"""    for t in range(tl.program_id(0), {blocks}, tl.num_programs(0)):
        rm = t * BM + tl.arange(0, BM)
        start, stop = 0, nn
"""
    else:
        head = f"""    share = tl.cdiv(tl.cdiv(nn, SPLITS), BN) * BN
    for t in range(tl.program_id(0), {blocks} * SPLITS, tl.num_programs(0)):
        j = t % SPLITS
        rm = (t // SPLITS) * BM + tl.arange(0, BM)
        start = j * share
        stop = tl.minimum(nn, start + share)
"""
    source = f"""import triton
import triton.language as tl


@triton.jit
def kernel(q, k, v, out, sz, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, DV: tl.constexpr, DP: tl.constexpr, DVP: tl.constexpr, SPLITS: tl.constexpr, ROWS: tl.constexpr):
    mm = tl.load(sz + 0)
    nn = tl.load(sz + 1)
    rd = tl.arange(0, DP)
    re = tl.arange(0, DVP)
{head}{q_whole}        top = tl.full([BM], float("-inf"), tl.float32)
        total = tl.zeros([BM], tl.float32)
        acc = tl.zeros([BM, DVP], tl.float32)
        for n0 in range(start, stop, BN):
            rn = n0 + tl.arange(0, BN)
{scores}            s = tl.where(rn[None, :] < stop, s, float("-inf"))
            grown = tl.maximum(top, tl.max(s, axis=1))
            shrink = tl.exp2(top - grown)
            p = tl.exp2(s - grown[:, None])
            total = total * shrink + tl.sum(p, axis=1)
            vt = tl.load(v + {v_off}, mask=(rn[:, None] < stop) & (re[None, :] < DV), other=0)
            acc = acc * shrink[:, None] + tl.dot(p, vt, input_precision="{pv}")
            top = grown
{_FINAL_STORE if splits == 1 else _PARTIAL_STORE}"""
    return GraphKernel("kernel", source, {"BM": block_m, "BN": block_n, "D": d, "DV": dv,
                                          "DP": dp, "DVP": dvp, "SPLITS": splits,
                                          "ROWS": rows}, num_warps, 2, block_m,
                       pointers=["q", "k", "v", "out", "sz"])


def _precision(tf32: bool) -> str:
    return "tf32" if tf32 else "ieee"


def combine_kernel(dv: int, splits: int, rows: int) -> GraphKernel:
    """out[m, dv] from attention_kernel's `splits` partial results in `part` (laid out for
    `rows` rows): each share's sum weighted by 2^(its maximum - the row's), over the
    weighted totals. A share with no keys has maximum -inf and weight 0."""
    dvp = max(16, 1 << (dv - 1).bit_length())
    source = f"""import triton
import triton.language as tl


@triton.jit
def kernel(part, out, sz, BM: tl.constexpr, DV: tl.constexpr, DVP: tl.constexpr, SPLITS: tl.constexpr, ROWS: tl.constexpr):
    mm = tl.load(sz + 0)
    re = tl.arange(0, DVP)
    for t in range(tl.program_id(0), tl.cdiv(mm, BM), tl.num_programs(0)):
        rm = t * BM + tl.arange(0, BM)
        top = tl.full([BM], float("-inf"), tl.float32)
        for j in tl.static_range(SPLITS):
            top = tl.maximum(top, tl.load(part + SPLITS * ROWS * DV + j * ROWS + rm, mask=rm < mm, other=float("-inf")))
        total = tl.zeros([BM], tl.float32)
        acc = tl.zeros([BM, DVP], tl.float32)
        for j in tl.static_range(SPLITS):
            mj = tl.load(part + SPLITS * ROWS * DV + j * ROWS + rm, mask=rm < mm, other=float("-inf"))
            w = tl.where(mj == float("-inf"), 0.0, tl.exp2(mj - top))
            total += w * tl.load(part + SPLITS * ROWS * (DV + 1) + j * ROWS + rm, mask=rm < mm, other=0)
            pj = (j * ROWS + rm) * DV
            acc += w[:, None] * tl.load(part + pj[:, None] + re[None, :], mask=(rm[:, None] < mm) & (re[None, :] < DV), other=0)
{_FINAL_STORE}"""
    return GraphKernel("kernel", source, {"BM": COMBINE_ROWS, "DV": dv, "DVP": dvp,
                                          "SPLITS": splits, "ROWS": rows}, 4, 1,
                       COMBINE_ROWS, pointers=["part", "out", "sz"])
