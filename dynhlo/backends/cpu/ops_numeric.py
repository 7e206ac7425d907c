"""Numerics on the CPU: reduce-precision, stochastic-convert, batch norm, rng.

Values are at their actual sizes, so batch-norm statistics cover the valid region only.

- reduce-precision: XLA's bit algorithm on the operand's own encoding (f16, bf16, f32, f64;
  other float types go through f32): round the mantissa to nearest, ties to even; then values
  above the reduced exponent range become +-inf and values at or below its smallest normal
  exponent become +-0 (the reduced format's subnormals flush to zero); NaN stays NaN.
- stochastic-convert(x, random) float -> integer: |x| truncated, plus one when
  `random < frac(|x|) * 2**bits(random)`; the sign put back; NaN -> 0; saturating at the
  integer type's range.
- batch-norm-training/inference/grad: XLA's formulas (operation semantics), statistics as
  population mean and variance over every dimension but feature_index, computed in f32 for
  16-bit floats.
- rng (rng_uniform on [a, b), rng_normal(mu, sigma)) and rng-get-and-update-state are
  deterministic but NOT bit-exact with XLA: rng draws from one NumPy Philox stream per compiled
  program (successive calls get new numbers, as XLA's stateful rng does).
- rng-bit-generator IS bit-exact with XLA (bits and new state): XLA's Threefry-2x32 and
  Philox-4x32 generators as its RngBitGeneratorExpander uses them (rng_bits.py); states
  u64[2] (rng_three_fry) or u64[2]/u64[3] (rng_philox, rng_default = Philox as on XLA's CPU
  and GPU); 8- to 64-bit integer and float results (floats are the bits reinterpreted).

JAX's LAPACK custom calls (potrf, getrf, syevd, geqrf, orgqr, trsm): ops_lapack.py.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from ...hlo import attrs
from ...hlo.opcodes import Opcode
from ...hlo.types import FLOAT_TYPES, INTEGRAL_TYPES, bit_width, is_ml_dtype, to_numpy_dtype
from . import rng_bits
from .lowering import lowering

# --- reduce-precision ------------------------------------------------------------------------

# dtype -> (exponent bits, mantissa bits, unsigned integer type of the same width)
_FLOAT_LAYOUT = {np.dtype(np.float16): (5, 10, np.uint16),
                 np.dtype(np.float32): (8, 23, np.uint32),
                 np.dtype(np.float64): (11, 52, np.uint64)}
_BF16_LAYOUT = (8, 7, np.uint16)   # ml_dtypes' bfloat16, not imported for the others


def reduce_precision(x: np.ndarray, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """x rounded to a float format of `exponent_bits` and `mantissa_bits`, kept in x's dtype."""
    layout = _FLOAT_LAYOUT.get(x.dtype) or (_BF16_LAYOUT if is_ml_dtype(x.dtype, "bf16")
                                            else None)
    if layout is None:
        return reduce_precision(x.astype(np.float32), exponent_bits,
                                mantissa_bits).astype(x.dtype)
    src_exp, src_man, utype = layout
    u = utype
    bits = np.asarray(x, order="C").view(utype).copy()
    if mantissa_bits < src_man:
        shift = u(src_man - mantissa_bits)
        last = u(1) << shift
        # Adding half an ulp minus one, plus the kept lowest bit, rounds ties to even.
        bias = ((bits & last) >> shift) + ((last >> u(1)) - u(1))
        bits = (bits + bias) & ~(last - u(1))
    if exponent_bits < src_exp:
        bits = _clamp_exponent(bits, utype, src_exp, src_man, exponent_bits)
    out = bits.view(x.dtype)
    return np.where(np.isnan(x), x, out)


def _clamp_exponent(bits, utype, src_exp, src_man, exponent_bits):
    u = utype
    width = np.dtype(utype).itemsize * 8
    sign_mask = u(1) << u(width - 1)
    exp_mask = u((1 << src_exp) - 1) << u(src_man)
    src_bias = (1 << (src_exp - 1)) - 1
    reduced_bias = (1 << (exponent_bits - 1)) - 1
    exponent = bits & exp_mask
    overflow = exponent > (u(src_bias + reduced_bias) << u(src_man))
    underflow = exponent <= (u(src_bias - reduced_bias) << u(src_man))
    signed_zero = bits & sign_mask
    return np.where(overflow, signed_zero | exp_mask, np.where(underflow, signed_zero, bits))


@lowering(Opcode.REDUCE_PRECISION, note="XLA's rounding: ties to even, overflow to inf, "
                                         "subnormals flushed, NaN kept")
def reduce_precision_(ctx, inst, args):
    (x,) = args
    exponent_bits = attrs.integer(inst, "exponent_bits")
    mantissa_bits = attrs.integer(inst, "mantissa_bits")
    if exponent_bits < 1 or mantissa_bits < 0:
        raise ctx.error(f"reduce-precision needs exponent_bits >= 1 and mantissa_bits >= 0, "
                        f"got {exponent_bits} and {mantissa_bits}")
    with np.errstate(all="ignore"):
        return reduce_precision(np.asarray(x), exponent_bits, mantissa_bits)


@lowering(Opcode.STOCHASTIC_CONVERT)
def stochastic_convert(ctx, inst, args):
    x, random = (np.asarray(a) for a in args)
    target = to_numpy_dtype(inst.shape.element_type)
    if target.kind not in "iu" or x.dtype.itemsize != random.dtype.itemsize:
        raise ctx.error(f"stochastic-convert takes a float and random bits of its width to an "
                        f"integer type, got {x.dtype}, {random.dtype} -> {target}")
    with np.errstate(all="ignore"):
        f = x.astype(np.float64)
        magnitude = np.abs(f)
        whole = np.floor(magnitude)
        threshold = (magnitude - whole) * float(2 ** (random.dtype.itemsize * 8))
        rounded = whole + (random.astype(np.float64) < threshold)
        signed = np.where(np.signbit(f), -rounded, rounded)
        info = np.iinfo(target)
        return np.where(np.isnan(f), 0, np.clip(signed, info.min, info.max)).astype(target)


# --- batch norm ---------------------------------------------------------------------------------

def _epsilon(ctx, inst) -> float:
    try:
        return float(inst.attrs.get("epsilon", "0"))
    except ValueError:
        raise ctx.error(f"epsilon={inst.attrs.get('epsilon')!r} is not a number") from None


def _work(x: np.ndarray) -> np.ndarray:
    """16-bit and smaller floats compute in f32, as XLA's CPU backend does."""
    return x.astype(np.float32) if x.dtype.itemsize < 4 else x


def _bn_setup(ctx, inst, x, vectors):
    f = attrs.integer(inst, "feature_index")
    axes = tuple(k for k in range(x.ndim) if k != f)
    shape = [-1 if k == f else 1 for k in range(x.ndim)]
    return axes, [_work(np.asarray(v)).reshape(shape) for v in vectors]


def _moments(x, axes):
    """Population mean and variance over `axes`; an empty region gives NaN, as 0/0 does."""
    count = math.prod(x.shape[k] for k in axes)
    mean = np.sum(x, axis=axes, keepdims=True) / np.float32(count)
    var = np.sum(np.square(x - mean), axis=axes, keepdims=True) / np.float32(count)
    return mean, var


@lowering(Opcode.BATCH_NORM_TRAINING)
def batch_norm_training(ctx, inst, args):
    x, scale, offset = args
    dtype = x.dtype
    axes, (scale, offset) = _bn_setup(ctx, inst, x, (scale, offset))
    w = _work(x)
    with np.errstate(all="ignore"):
        mean, var = _moments(w, axes)
        y = (w - mean) / np.sqrt(var + _epsilon(ctx, inst)) * scale + offset
    return (y.astype(dtype), mean.reshape(-1).astype(dtype), var.reshape(-1).astype(dtype))


@lowering(Opcode.BATCH_NORM_INFERENCE)
def batch_norm_inference(ctx, inst, args):
    x = args[0]
    axes, (scale, offset, mean, var) = _bn_setup(ctx, inst, x, args[1:])
    with np.errstate(all="ignore"):
        y = (_work(x) - mean) / np.sqrt(var + _epsilon(ctx, inst)) * scale + offset
    return y.astype(x.dtype)


@lowering(Opcode.BATCH_NORM_GRAD)
def batch_norm_grad(ctx, inst, args):
    x, scale, mean, var, dy = args
    dtype = x.dtype
    axes, (scale, mean, var) = _bn_setup(ctx, inst, x, (scale, mean, var))
    w, dy = _work(x), _work(dy)
    count = np.float32(math.prod(x.shape[k] for k in axes))
    with np.errstate(all="ignore"):
        centered = w - mean
        inv_std = 1 / np.sqrt(var + _epsilon(ctx, inst))
        grad_offset = np.sum(dy, axis=axes, keepdims=True)
        grad_scale = np.sum(dy * centered, axis=axes, keepdims=True) * inv_std
        c = np.sum(dy * centered, axis=axes, keepdims=True) / count * inv_std * inv_std
        dx = scale * inv_std * (dy - grad_offset / count - c * centered)
    return (dx.astype(dtype), grad_scale.reshape(-1).astype(dtype),
            grad_offset.reshape(-1).astype(dtype))


# --- rng ------------------------------------------------------------------------------------

_STREAMS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _stream(ctx) -> dict:
    """The rng state of one compiled program (its evaluator): a generator and a counter."""
    state = _STREAMS.get(ctx.evaluator)
    if state is None:
        state = _STREAMS[ctx.evaluator] = {"gen": np.random.Generator(np.random.Philox(0)),
                                           "counter": 0}
    return state


@lowering(Opcode.RNG, note="values from a NumPy Philox stream per program, not bit-exact "
                            "with XLA")
def rng(ctx, inst, args):
    a, b = (np.asarray(v) for v in args)
    shape = ctx.out_shape()
    dtype = to_numpy_dtype(inst.shape.element_type)
    gen = _stream(ctx)["gen"]
    distribution = attrs.string(inst, "distribution")
    if distribution == "rng_uniform":
        if dtype.kind in "iu":
            high = max(int(b), int(a) + 1)
            return gen.integers(int(a), high, size=shape, dtype=dtype)
        lo, hi = float(a), float(b)
        return (lo + (hi - lo) * gen.random(shape)).astype(dtype)
    if distribution == "rng_normal":
        return (float(a) + float(b) * gen.standard_normal(shape)).astype(dtype)
    raise ctx.error(f"rng distribution={distribution} is not rng_uniform or rng_normal")


@lowering(Opcode.RNG_GET_AND_UPDATE_STATE, note="a per-program counter, not XLA's state")
def rng_get_and_update_state(ctx, inst, args):
    state = _stream(ctx)
    value = np.array([0, state["counter"]], dtype=np.uint64)
    state["counter"] += attrs.integer(inst, "delta", 1)
    return value.astype(to_numpy_dtype(inst.shape.element_type)).reshape(inst.shape.dims)


# The u64 state sizes XLA's RngBitGeneratorExpander accepts per algorithm.
_STATE_SIZES = {"rng_default": (2, 3), "rng_three_fry": (2,), "rng_philox": (2, 3)}


@lowering(Opcode.RNG_BIT_GENERATOR,
          note="bits and new state bit-exact with XLA (Threefry-2x32; Philox-4x32 for "
               "rng_philox/rng_default); 8- to 64-bit int and float results")
def rng_bit_generator(ctx, inst, args):
    """(new state, bits) of XLA's RngBitGenerator at the result's actual shape (rng_bits)."""
    return _rng_bits(ctx, inst, attrs.string(inst, "algorithm", "rng_default"), args[0],
                     tuple(ctx.env.sizes(ctx.dims(inst)[1])))


def _rng_bits(ctx, inst, algorithm: str, state, shape: tuple):
    state = np.asarray(state).astype(np.uint64).reshape(-1)
    if state.size not in _STATE_SIZES.get(algorithm, ()):
        raise ctx.error(f"rng-bit-generator algorithm={algorithm} with a u64[{state.size}] "
                        "state; expected rng_three_fry with u64[2], or rng_philox/rng_default "
                        "with u64[2] or u64[3]")
    bits_type = inst.shape.elements[1].element_type
    if bits_type not in INTEGRAL_TYPES | FLOAT_TYPES or bit_width(bits_type) < 8:
        raise ctx.error(f"rng-bit-generator makes 8-, 16-, 32- or 64-bit integer or float "
                        f"bits, not {bits_type}")
    new_state, bits = rng_bits.generate(algorithm, state, shape, to_numpy_dtype(bits_type))
    return (new_state.astype(to_numpy_dtype(inst.shape.elements[0].element_type)), bits)
