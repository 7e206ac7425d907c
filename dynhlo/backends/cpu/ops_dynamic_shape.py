"""CPU lowerings of StableHLO's dynamic-shape ops kept as custom calls (shape rules:
shapes/rules_dynamic_shape.py): dynamic_pad, dynamic_rng_bit_generator and dynamic_top_k,
each reading its size operands at the call and running the static op of its family (Pad in
ops_data, RngBitGenerator in ops_numeric, TopK in ops_sort) at those sizes.
Semantics: StableHLO spec (dynamic_pad), stablehlo's shape refinement (dynamic_top_k,
dynamic_rng_bit_generator), XLA operation semantics (Pad, TopK, RngBitGenerator).
"""

from __future__ import annotations

import numpy as np

from ...errors import DynamicSizeError
from ...hlo import attrs
from ...shapes.rules_dynamic_shape import DYNAMIC_PAD, DYNAMIC_RNG_BIT_GENERATOR, DYNAMIC_TOP_K
from .lowering import custom_call
from .ops_data import _pad
from .ops_numeric import _rng_bits
from .ops_sort import _top


@custom_call(DYNAMIC_PAD)
def dynamic_pad(ctx, inst, args):
    """StableHLO's dynamic_pad(x, value, lo, hi, interior): Pad with the amounts the three
    vectors hold at this call (StableHLO spec, dynamic_pad; XLA Pad). An interior padding
    below 0, or a result size below 0 or past its bound, is a DynamicSizeError."""
    x, value, *amounts = args
    lo, hi, interior = ([int(v) for v in np.asarray(a).reshape(-1)] for a in amounts)
    config = list(zip(lo, hi, interior, strict=True))
    shape = []
    for d, (a, b, c) in enumerate(config):
        size = a + b + x.shape[d] + max(x.shape[d] - 1, 0) * c
        bound = inst.shape.dims[d]
        if c < 0 or size < 0 or (bound >= 0 and size > bound):
            raise ctx.error(f"dynamic_pad of dimension {d} (size {x.shape[d]}) by low {a}, "
                            f"high {b}, interior {c} gives size {size}; the interior padding "
                            f"and the size must be >= 0 and the size at most the bound "
                            f"{bound}")
        shape.append(size)
    return _pad(x, value, config, tuple(shape))


@custom_call(DYNAMIC_RNG_BIT_GENERATOR)
def dynamic_rng_bit_generator(ctx, inst, args):
    """StableHLO's dynamic_rng_bit_generator(state, shape): rng-bit-generator at the shape
    operand holds at this call, which is what XLA runs once stablehlo's shape refinement
    makes the shape static: the bits and the new state depend on the whole shape (the
    count of blocks, Threefry's split dimension), so they are made at that shape, never
    cut from the bound's. The algorithm is the backend_config (rng_default, rng_three_fry,
    rng_philox: the spellings of rng-bit-generator's algorithm=). A size below 0 or past its
    bound is a DynamicSizeError."""
    state, shape = args
    dims = tuple(int(v) for v in np.asarray(shape).reshape(-1))
    bits = inst.shape.elements[1]
    for d, (n, bound) in enumerate(zip(dims, bits.dims, strict=True)):
        if n < 0 or (bound >= 0 and n > bound) or (not bits.dynamic[d] and n != bound):
            raise ctx.error(f"dynamic_rng_bit_generator's output shape {list(dims)} does not "
                            f"fit {bits} (dimension {d})")
    return _rng_bits(ctx, inst, attrs.string(inst, "backend_config", "rng_default"), state,
                     dims)


@custom_call(DYNAMIC_TOP_K)
def dynamic_top_k(ctx, inst, args):
    """StableHLO's dynamic_top_k(x, k): the topk of the largest k, k read at this call
    (what stablehlo's shape refinement makes of it: chlo.top_k). k below 0 or above the
    last dimension's actual size is a DynamicSizeError (top-k of fewer than k elements is
    not defined)."""
    x, k = args
    k = int(np.asarray(k).reshape(-1)[0])
    if not 0 <= k <= x.shape[-1]:
        raise DynamicSizeError(
            f"instruction '{inst.name}': dynamic_top_k of k={k} over a last dimension of "
            f"actual size {x.shape[-1]} (bound {inst.operands[0].shape.dims[-1]}): k must be "
            "in [0, size]")
    return _top(x, k, True)
