"""Shape rules of StableHLO's dynamic-shape ops kept as custom calls: their result sizes are
the values of size operands, followed as size expressions.

- `stablehlo.dynamic_top_k(x, k)` -> (values, s32 indices), each x's dims with the last
  one k (chlo.top_k once k is known; StableHLO's shape refinement makes it that).
- `stablehlo.dynamic_rng_bit_generator(state, shape)` -> (new state, bits of `shape`)
  (rng_bit_generator at the shape the operand holds).
- `stablehlo.dynamic_pad(x, value, lo, hi, interior)`: dimension d of the result is
  lo[d] + hi[d] + n + max(n - 1, 0) * interior[d] (XLA's Pad; StableHLO spec, dynamic_pad).

A size operand computed from the argument sizes gives its expressions (values.vector), so a
result size is one object with the same size written elsewhere; one read from data is read
off the result. The lowerings (backends/cpu/ops_dynamic_shape.py) read the same operands at
each call. Semantics: StableHLO spec (dynamic_pad), stablehlo's shape refinement
(dynamic_top_k, dynamic_rng_bit_generator), XLA operation semantics (Pad, TopK,
RngBitGenerator).
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.shape import UNBOUNDED
from . import algebra
from .algebra import Size
from .algebra_eval import largest
from .rules import CUSTOM_CALL_RULES
from .sizes import Sym, bound_of, derive, result_dim, size_of
from .trees import observed_tree
from .values import vector

DYNAMIC_TOP_K = "stablehlo.dynamic_top_k"
DYNAMIC_RNG_BIT_GENERATOR = "stablehlo.dynamic_rng_bit_generator"
DYNAMIC_PAD = "stablehlo.dynamic_pad"
TARGETS = (DYNAMIC_TOP_K, DYNAMIC_RNG_BIT_GENERATOR, DYNAMIC_PAD)

_INTEGER = ("s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64")


def _values(ctx, inst, index: int, count: int, what: str) -> list[Size] | None:
    """Operand `index`'s `count` values as expressions; None where they are not followed."""
    operand = inst.operands[index]
    if operand.shape.is_tuple or operand.shape.element_type not in _INTEGER \
            or operand.shape.rank > 1:
        raise ctx.error(f"{what} (operand {index} '{operand.name}') must be an integer "
                        f"scalar or vector, got {operand.shape}")
    found = vector(ctx.info, operand)
    if found is not None and len(found) != count:
        raise ctx.error(f"{what} (operand {index} '{operand.name}') has {len(found)} values "
                        f"where {count} are needed")
    return found


def _sized(inst, path: tuple, d: int, declared: int, dynamic: bool, value: Size | None):
    """Result dimension d (declared size or bound `declared`) whose size is `value`."""
    if not dynamic:
        return declared
    if value is None or value.data:
        return result_dim(inst, path, d, declared)
    return Sym(declared, algebra.clamp(value, 0, None if declared == UNBOUNDED else declared))


def _check_count(ctx, inst, n: int) -> None:
    if len(inst.operands) != n:
        raise ctx.error(f"{attrs.string(inst, 'custom_call_target')} takes {n} operands, "
                        f"got {len(inst.operands)}")


def _dynamic_top_k(ctx, inst, operands):
    _check_count(ctx, inst, 2)
    x = operands[0]
    if isinstance(x, list) or not x:
        raise ctx.error("stablehlo.dynamic_top_k needs an array of rank >= 1")
    if not inst.shape.is_tuple or len(inst.shape.elements) != 2:
        raise ctx.error("stablehlo.dynamic_top_k's shape is (values, s32 indices)")
    (k,) = _values(ctx, inst, 1, 1, "k") or (None,)
    declared = inst.shape.elements[0]
    last = _sized(inst, (0,), declared.rank - 1, declared.dims[-1], declared.dynamic[-1], k)
    if isinstance(last, int) and bound_of(x[-1]) != UNBOUNDED and last > bound_of(x[-1]):
        raise ctx.error(f"k={last} exceeds the last dimension's bound {bound_of(x[-1])}")
    out = tuple(x[:-1]) + (last,)
    return [out, out]


def _dynamic_rng_bit_generator(ctx, inst, operands):
    _check_count(ctx, inst, 2)
    if not inst.shape.is_tuple or len(inst.shape.elements) != 2:
        raise ctx.error("stablehlo.dynamic_rng_bit_generator's shape is (new state, bits)")
    bits = inst.shape.elements[1]
    found = _values(ctx, inst, 1, bits.rank, "output shape") or [None] * bits.rank
    dims = tuple(_sized(inst, (1,), d, bits.dims[d], bits.dynamic[d], found[d])
                 for d in range(bits.rank))
    return [operands[0], dims]


def pad_size(n: Size, lo: Size, hi: Size, interior: Size) -> Size:
    """lo + hi + n + max(n - 1, 0) * interior: a padded dimension's size (XLA Pad)."""
    gaps = algebra.maximum(algebra.sub(n, algebra.const(1)), algebra.const(0))
    return algebra.add(lo, hi, n, algebra.mul(gaps, interior))


def _most(size: Size) -> int:
    """The bound of a size the import left `?`: exact over one argument size, else the
    canonical expression's interval (UNBOUNDED where that has no end)."""
    exact = largest(size)
    if exact is not None:
        return max(exact, 0)
    return UNBOUNDED if size.hi == algebra.INF else max(int(size.hi), 0)


def _dynamic_pad(ctx, inst, operands):
    _check_count(ctx, inst, 5)
    x = operands[0]
    if isinstance(x, list):
        raise ctx.error("stablehlo.dynamic_pad pads an array, not a tuple")
    rank = len(x)
    found = [_values(ctx, inst, 2 + i, rank, what)
             for i, what in enumerate(("edge_padding_low", "edge_padding_high",
                                       "interior_padding"))]
    if any(f is None or any(v.data for v in f) for f in found):
        return observed_tree(inst)   # amounts read from data: sizes read off the result
    lo, hi, interior = found
    low = [int(v.value) for v in interior if v.is_const and v.value < 0]
    if low:
        raise ctx.error(f"stablehlo.dynamic_pad: interior_padding has the constant {low[0]}; "
                        "each must be >= 0")
    out = []
    for d, dim in enumerate(x):
        declared = inst.shape.dims[d]
        built = pad_size(size_of(dim), lo[d], hi[d], interior[d])
        if built.is_const:
            out.append(int(built.value))
        elif isinstance(dim, int) or declared == UNBOUNDED:
            bound = declared if declared != UNBOUNDED else _most(built)
            out.append(Sym(bound, algebra.clamp(built, 0, None if bound == UNBOUNDED
                                                else bound)))
        else:
            out.append(derive(lambda n, d=d: algebra.clamp(
                pad_size(n, lo[d], hi[d], interior[d]), 0, declared), (dim,), declared))
    return tuple(out)


CUSTOM_CALL_RULES.update({
    DYNAMIC_TOP_K: _dynamic_top_k,
    DYNAMIC_RNG_BIT_GENERATOR: _dynamic_rng_bit_generator,
    DYNAMIC_PAD: _dynamic_pad,
})
