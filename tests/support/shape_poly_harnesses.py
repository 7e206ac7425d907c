"""JAX's shape-polymorphism harnesses (jax tests/shape_poly_test.py, `_POLY_SHAPE_TEST_HARNESSES`),
rebuilt as a table for dynhlo.from_jax: each entry is a function, its example arguments, the
polymorphic spec of each argument (jax.export.symbolic_args_specs's strings), the constraints,
and the jax config flags it runs under. The functions are JAX's (they are what is tested); the
table, the sizes they run at and the runner (tests/frontends/test_jax_shape_poly_harness.py) are
dynhlo's.

Left out: the harnesses JAX builds from its internal primitive harnesses by vmap (they need
JAX's internal test utilities and absl), float64/complex128 variants (JAX runs without x64 by
default, where they are float32/complex64 again), and the harnesses JAX expects jax.export
itself to refuse (nothing reaches dynhlo).
"""

from __future__ import annotations

import os

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax, ops
from jax._src.lax import lax as lax_internal   # _delta: JAX's own harness uses it

f32, i32 = np.float32, np.int32


@dataclass(frozen=True)
class R:
    """A random argument of `shape` and `dtype` (regenerated at every size)."""
    shape: tuple
    dtype: Any = f32


@dataclass
class Harness:
    """One harness: `fn(*args)` with `poly[i]` the polymorphic spec of args[i] (None: static).
    `args` entries are R (random) or NumPy arrays (resized to each size); JAX's static
    arguments are bound into fn."""
    name: str
    fn: Callable
    args: list
    poly: list
    constraints: list = field(default_factory=list)
    flags: dict = field(default_factory=dict)
    tol: float | None = None
    # result index -> "cols" or "rows": singular/eigen vectors, each defined up to its sign
    # (phase), compared after taking the sign that makes its largest entry positive
    vectors: dict = field(default_factory=dict)


HARNESSES: list[Harness] = []


def h(name, fn, args, poly, constraints=(), flags=None, tol=None, vectors=None):
    HARNESSES.append(Harness(name, fn, list(args), list(poly), list(constraints),
                             dict(flags or {}), tol, dict(vectors or {})))


# --- elementwise, broadcasting, arange, indexing --------------------------------------------

h("add", lambda x, y: jnp.add(jnp.expand_dims(x, axis=0), y), [R((3, 4)), R((2, 3, 4))],
  ["b, _", "_, b, _"])
h("add_transpose", jax.grad(lambda x: jnp.sum(
    jnp.expand_dims(jnp.sum(x, axis=0, keepdims=False), axis=0) + jnp.sin(x))),
  [R((3, 4))], ["b, ..."])

for n in (8, "n"):
    for k in (4, "k"):
        h(f"approx_max_k_n_{n}_k_{k}_agg=True",
          lambda x, x_k: lax.approx_max_k(x, k=x_k.shape[0], reduction_dimension=1,
                                          aggregate_to_topk=True),
          [R((3, 8, 32)), R((4,))], [f"b, {n}, 32", f"{k},"], [f"{k} <= {n}"])
h("approx_max_k_n_8_k_4_agg=False",
  lambda x, x_k: lax.approx_max_k(x, k=x_k.shape[0], reduction_dimension=1,
                                  aggregate_to_topk=False),
  [R((3, 8, 32)), R((4,))], ["b, 8, 32", "4,"], ["4 <= 8"])

_ARANGE = {
    "b": lambda x: jnp.arange(x.shape[0], None, None, None),
    "0_b+1": lambda x: jnp.arange(0, x.shape[0] + 1, None, None),
    "0_5b_2": lambda x: jnp.arange(0, 5 * x.shape[0], 2, None),
    "0_5b+1_2": lambda x: jnp.arange(0, 5 * x.shape[0] + 1, 2, None),
    "b_5b+2_2": lambda x: jnp.arange(x.shape[0], 5 * x.shape[0] + 2, 2, None),
    "0_b-1_2": lambda x: jnp.arange(0, x.shape[0] - 1, 2, None),
    "0_b-2_2": lambda x: jnp.arange(0, x.shape[0] - 2, 2, None),
    "0_-b_2": lambda x: jnp.arange(0, -x.shape[0], 2, None),
    "0_1-b_2": lambda x: jnp.arange(0, 1 - x.shape[0], 2, None),
    "0_b-3_2": lambda x: jnp.arange(0, x.shape[0] - 3, 2, None),
    "b_0_-1": lambda x: jnp.arange(x.shape[0], 0, -1, None),
    "b_1_-2": lambda x: jnp.arange(x.shape[0], 1, -2, None),
    "b_-1_-1": lambda x: jnp.arange(x.shape[0], -1, -1, None),
    "5b+1_0_-2": lambda x: jnp.arange(5 * x.shape[0] + 1, 0, -2, None),
    "5b+2_0_-2": lambda x: jnp.arange(5 * x.shape[0] + 2, 0, -2, None),
    "b-3_0_-2": lambda x: jnp.arange(x.shape[0] - 3, 0, -2, None),
    "0_10_b": lambda x: jnp.arange(0, 10, x.shape[0]),
    "0_0_b": lambda x: jnp.arange(0, 0, x.shape[0]),
    "10_0_-b": lambda x: jnp.arange(10, 0, -x.shape[0]),
    "b_1_-b": lambda x: jnp.arange(x.shape[0], 1, -x.shape[0]),
    "0_b_1_f32": lambda x: jnp.arange(0, x.shape[0], 1, np.float32),
}
for _name, _fn in _ARANGE.items():
    h(f"arange_{_name}", _fn, [R((6,))], ["b"])

h("indexing_op=static_idx=poly", lambda a, i: a[i], [R((3, 4)), np.array([2, 2], i32)],
  [None, "b0, ..."])
h("indexing_op=poly_idx=const", lambda a: a[1], [R((3, 4))], ["b, ..."])
h("indexing_op=poly_idx=poly", lambda a, i: a[i], [R((3, 4)), np.array([1, 2, 0], i32)],
  ["b, ...", "b, ..."])

# x[start:stop:step] over the second axis "b" (8) of f32[c, b]: each of start, stop, step a
# function of b
_STARTS = {"None": lambda b: None, "0": lambda b: 0, "2": lambda b: 2, "b": lambda b: b,
           "2b2": lambda b: 2 * b + 2, "-2": lambda b: -2, "-b": lambda b: -b,
           "-2b2": lambda b: -2 * b - 2}
_STOPS = {"None": lambda b: None, "0": lambda b: 0, "b": lambda b: b,
          "2b2": lambda b: 2 * b + 2, "4": lambda b: 4, "-4": lambda b: -4,
          "-b": lambda b: -b, "-2b2": lambda b: -2 * b - 2}
_STEPS = {"None": lambda b: None, "1": lambda b: 1, "2": lambda b: 2, "b": lambda b: b,
          "-1": lambda b: -1, "-2": lambda b: -2, "-b": lambda b: -b}


def _slicer(start, stop, step, x):
    b = x.shape[1]
    return x[slice(start(b), stop(b), step(b))]


# JAX's grid is every start x stop x step (448 harnesses, minutes of the suite); by default
# each (start, stop) pair takes one step, rotating, so that every start and every stop meets
# every step: DYNHLO_SHAPE_POLY_FULL=1 runs the whole grid.
_FULL_GRID = os.environ.get("DYNHLO_SHAPE_POLY_FULL", "") not in ("", "0")
for _i, (_a, _start) in enumerate(_STARTS.items()):
    for _j, (_o, _stop) in enumerate(_STOPS.items()):
        for _k, (_s, _step) in enumerate(_STEPS.items()):
            if _FULL_GRID or _k == (_i + _j) % len(_STEPS):
                h(f"indexing_start_{_a}_stop_{_o}_step_{_s}",
                  partial(_slicer, _start, _stop, _step), [R((16, 8))], ["c, b"])

# --- reductions, broadcasts, concatenation, convolution -------------------------------------

h("argmax_0", lambda op: lax.argmax(op, axis=0, index_dtype=np.int32), [R((3, 4, 5))],
  ["b, ..."])
h("argmax_1", lambda op: lax.argmax(op, axis=1, index_dtype=np.int32), [R((3, 4, 5))],
  ["b, ..."])
h("jnp.argsort", jnp.argsort, [R((3, 4, 5))], ["b, ..."])
for _axis in (None, 0, 1):
    h(f"average_axis={_axis}_weights=None",
      partial(lambda axis, x: jnp.average(x, axis=axis, returned=False), _axis),
      [R((7, 8, 4))], ["b, ..."])
    h(f"average_axis={_axis}_weights=Some",
      partial(lambda axis, x, w: jnp.average(x, axis=axis, returned=False, weights=w), _axis),
      [R((7, 8, 4)), R((7, 8, 4))], ["b, ...", "b, ..."])
h("jnp.bincount_length=constant", lambda x: jnp.bincount(x % 2, length=4), [R((12,), i32)],
  ["b, ..."])
h("jnp.bincount_length=poly", lambda x: jnp.bincount(x % 4, length=x.shape[0]),
  [R((12,), i32)], ["b, ..."])
h("broadcast_to", lambda x: jnp.broadcast_to(x, [x.shape[0], x.shape[0], 4]), [R((3, 4))],
  ["b, ..."])
h("broadcast_in_dim_0", lambda x: lax.broadcast_in_dim(x, [x.shape[0], 4, 5, 6], (0, 2, 3)),
  [R((3, 1, 6))], ["b, ..."])
h("broadcast_in_dim_poly",
  lambda x: lax.broadcast_in_dim(x, [x.shape[0], x.shape[0] + x.shape[0], 4], (0, 1, 2)),
  [R((3, 1, 4))], ["b, ..."])
h("broadcast_in_dim_poly2",
  lambda x: lax.broadcast_in_dim(x, [x.shape[0], 5, 6, x.shape[2], 4], (0, 2, 3)),
  [R((3, 1, 4))], ["b1, _, b2"])
h("broadcast_in_dim_transpose", jax.grad(lambda x: jnp.sum(
    lax.broadcast_in_dim(jnp.sin(x), [2, x.shape[0], 5, x.shape[2], 4], (1, 2, 3)))),
  [R((3, 1, 4))], ["b1, _, b2"])
h("clamp", lax.clamp, [R((3, 4, 5))] * 3, ["b, ..."] * 3)
h("collapse", lambda x: lax.collapse(x, 1, 4), [R((3, 4, 5, 6, 7))], ["b0, b1, _, b3, ..."])
h("concatenate", lambda x: jnp.concatenate([x, x], axis=0), [R((3, 4, 5))], ["b0, b1, _"])
h("concatenate_grad", jax.grad(lambda x: jnp.sum(jnp.concatenate([x, jnp.sin(x)], axis=0))),
  [R((3, 4, 5))], ["b0, b1, _"])

_NWC = lax.ConvDimensionNumbers(lhs_spec=(0, 2, 1), rhs_spec=(2, 1, 0), out_spec=(0, 2, 1))


def _conv1d(stride, padding, lhs, rhs):
    return lax.conv_general_dilated(lhs, rhs, window_strides=(stride,), padding=padding,
                                    dimension_numbers=_NWC)


h("conv_general_dilated_1d_stride=1", partial(_conv1d, 1, "SAME"),
  [R((1, 12, 16)), R((4, 16, 16))], ["_, b, _", None])
h("conv_general_dilated_1d_stride=2_even", partial(_conv1d, 2, "SAME"),
  [R((1, 12, 16)), R((4, 16, 16))], ["_, b, _", None])
h("conv_general_dilated_1d_stride=2_odd", partial(_conv1d, 2, "SAME"),
  [R((1, 13, 16)), R((4, 16, 16))], ["_, b, _", None])
h("conv_general_dilated_1d_stride=2_zero_output",
  lambda lhs, rhs: _conv1d(2, "VALID", lhs, rhs).shape[1],
  [R((1, 4, 16)), R((8, 16, 16))], ["_, b, _", None])
h("conv_general_dilated_1d_2",
  lambda lhs, rhs: lax.conv_transpose(lhs, rhs, strides=(2,), padding="SAME"),
  [R((5, 12, 16)), R((4, 16, 16))], ["b, _, _", None], tol=5e-5)
h("conv_general_dilated_1d_3",
  lambda lhs, rhs: lax.conv_transpose(lhs, rhs, strides=(2,), padding="SAME"),
  [R((5, 12, 16)), R((4, 16, 16))], ["_, b, _", None], tol=5e-5)
h("conv_general_dilated",
  lambda lhs, rhs: lax.conv_general_dilated(
      lhs, rhs, window_strides=(2, 3), padding=((0, 0), (0, 0)), lhs_dilation=(1, 1),
      rhs_dilation=(1, 2), dimension_numbers=("NCHW", "OIHW", "NCHW")),
  [R((7, 3, 9, 10)), R((3, 3, 4, 5))], ["b, ...", None])

for _cum in ("cumlogsumexp", "cummax", "cummin", "cumsum", "cumprod"):
    _f = getattr(lax, _cum)
    h(f"{_cum}_reduce_axis_poly", partial(lambda f, x: f(x, axis=0), _f), [R((3, 5))],
      ["b, ..."])
    h(f"{_cum}_reduce_axis_static", partial(lambda f, x: f(x, axis=1), _f), [R((3, 5))],
      ["b, ..."])

h("delta_0", lambda x: lax_internal._delta(f32, x.shape, axes=(0, 1)) + x, [R((3, 1))],
  ["b, ..."])
h("dot_general", lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))),
  [R((3, 4, 4)), R((3, 4))], ["b, ...", "b, ..."])
h("dynamic_slice_idx=tuple_int", lambda x: lax.dynamic_slice(x, (0, 1), (x.shape[0], 2)),
  [R((3, 4))], ["b, ..."])
h("dynamic_slice_idx=tuple_arg",
  lambda x, i0: lax.dynamic_slice(x, (i0, np.int32(1)), (x.shape[0], 2)),
  [R((3, 4)), np.array(-2, i32)], ["b, ...", None])
h("dynamic_slice_idx=array", lambda x, idx: lax.dynamic_slice(x, idx, (x.shape[0], 2)),
  [R((3, 4)), np.array([-2, -1], i32)], ["b, ...", None])
h("dynamic_slice_idx=tuple_int_start_oob_large",
  lambda x: lax.dynamic_slice(x, (1, 1), (x.shape[0], 2)), [R((3, 4))], ["b, ..."])
h("dynamic_slice_idx=tuple_int_start_oob_small",
  lambda x: lax.dynamic_slice(x, (-1, 1), (x.shape[0] - 1, 2)), [R((3, 4))], ["b, ..."])
h("dynamic_slice_in_dim_idx=0", lambda x: lax.dynamic_slice_in_dim(x, 0, x.shape[0], axis=0),
  [R((3, 4))], ["b, ..."])
h("dynamic_update_slice_idx=tuple_int", lambda x: lax.dynamic_update_slice(x, x, (0, 0)),
  [R((3, 4))], ["b, ..."])
h("dynamic_update_slice_idx=tuple_arg",
  lambda x, i0: lax.dynamic_update_slice(x, x, (i0, np.int32(0))),
  [R((3, 4)), np.array(-2, i32)], ["b, ...", None])
h("dynamic_update_slice_idx=array", lambda x, idx: lax.dynamic_update_slice(x, x, idx),
  [R((3, 4)), np.array([-2, -1], i32)], ["b, _", None])

for _dtype in (np.float32, np.complex64):
    for _poly in ("b, ...", "b, w, w"):
        for _left, _right in (((True, True), (True, False), (False, True), (False, False))
                              if _dtype == np.float32 else ((True, False),)):
            h(f"eig_{np.dtype(_dtype).name}_poly={_poly}_left={_left}_right={_right}",
              partial(lambda l, r, x: lax.linalg.eig(x, compute_left_eigenvectors=l,
                                                     compute_right_eigenvectors=r),
                      _left, _right),
              [R((3, 5, 5), _dtype)], [_poly])

_EINSUM = [
    ("0", lambda x: jnp.einsum("...i->...", x), [R((3, 4))], ["b, ..."]),
    ("0_alt", lambda x: jnp.einsum(x, (..., 1), [...]), [R((3, 4))], ["b, ..."]),
    ("1", lambda x, y: jnp.einsum("...ij,...jk->...ik", x, y), [R((3, 4, 5)), R((3, 5, 6))],
     ["b, ...", "b, ..."]),
    ("1_alt", lambda x, y: jnp.einsum(x, [..., 0, 1], y, (..., 1, 2), [..., 0, 2]),
     [R((3, 4, 5)), R((3, 5, 6))], ["b, ...", "b, ..."]),
    ("2", lambda x, y: jnp.einsum("...ij,jk->...ik", x, y), [R((3, 4, 5)), R((5, 6))],
     ["b, ...", None]),
    ("2_alt", lambda x, y: jnp.einsum(x, [..., 0, 1], y, [1, 2], [..., 0, 2]),
     [R((3, 4, 5)), R((5, 6))], ["b, ...", None]),
    ("3", lambda x, y: jnp.einsum("ij,jk->ik", x, y), [R((3, 4)), R((4, 5))],
     ["_, b", "b, ..."]),
    ("3_alt", lambda x, y: jnp.einsum(x, [0, 1], y, [1, 2], [0, 2]), [R((3, 4)), R((4, 5))],
     ["_, b", "b, ..."]),
    ("4", lambda x, y: jnp.einsum("ij,jk->ik", jnp.concatenate([x, x], axis=1),
                                  jnp.concatenate([y, y], axis=0)),
     [R((3, 4)), R((4, 5))], ["_, b", "b, ..."]),
    ("4_alt", lambda x, y: jnp.einsum(jnp.concatenate([x, x], axis=1), [0, 1],
                                      jnp.concatenate([y, y], axis=0), [1, 2], [0, 2]),
     [R((3, 4)), R((4, 5))], ["_, b", "b, ..."]),
    ("multiple_contractions", lambda x, y, z: jnp.einsum("ab,bc,cd->ad", x, y, z),
     [R((3, 2)), R((2, 3)), R((3, 4))], ["b, ...", None, None]),
]
for _name, _fn, _args, _poly in _EINSUM:
    h(f"einsum_{_name}", _fn, _args, _poly)

h("eye_N=poly_M=None", lambda x: jnp.eye(x.shape[0], dtype=f32) + x, [R((3, 1))], ["b, ..."])
h("eye_N=poly_M=poly", lambda x: jnp.eye(x.shape[0], M=x.shape[0] + 2, dtype=f32) + x,
  [R((3, 1))], ["b, ..."])
for _fft in (lax.FftType.FFT, lax.FftType.IFFT, lax.FftType.RFFT, lax.FftType.IRFFT):
    for _nr in (1, 2):
        h(f"fft_{_fft.name}_{_nr}",
          partial(lambda t, nr, x: lax.fft_p.bind(x, fft_type=t, fft_lengths=tuple(
              x.shape[-nr:] if t != lax.FftType.IRFFT else [(x.shape[-1] - 1) * 2])),
              _fft, _nr),
          [R((3, 4, 5, 6), np.float32 if _fft == lax.FftType.RFFT else np.complex64)],
          ["b0, b1, b2, ..."], tol=1e-4)
h("full", lambda x: lax.full((x.shape[0], 2), 3.) + x, [R((3, 1))], ["b, ..."])
h("gather_1d",
  lambda operand, start_indices, x: lax.gather(
      operand, start_indices,
      dimension_numbers=lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(),
                                                   start_index_map=(0,)),
      slice_sizes=x.shape, mode="promise_in_bounds"),
  [R((10,)), np.array([[0], [0], [0]], i32), np.zeros((10,), i32)],
  ["(t, )", "(3, 1)", "(t)"])
h("image_resize_linear_0", lambda x: jax.image.resize(
    x, (x.shape[0], 2 * x.shape[1], 2 * x.shape[2], x.shape[3]), method="linear"),
  [R((3, 16, 32, 3))], ["_, b1, b2, ..."])
h("image_resize_linear_to_fixed_dim", lambda x: jax.image.resize(
    x, (x.shape[0], 64, 64, x.shape[3]), method="linear"),
  [R((3, 16, 32, 3))], ["_, b1, b2, ..."])
h("image_resize_nearest_0", lambda x: jax.image.resize(
    x, (x.shape[0], 2 * x.shape[1], 2 * x.shape[2], x.shape[3]), method="nearest"),
  [R((3, 5, 7, 3))], ["_, b1, b2, ..."])
h("index_in_dim_0", lambda x: lax.index_in_dim(x, -1, axis=0, keepdims=False), [R((3, 4))],
  ["b, ..."])
h("index_in_dim_idx=neg", lambda x: lax.index_in_dim(x, -1, axis=0, keepdims=False),
  [R((3, 4))], ["b, ..."])
h("index_in_dim_idx=last",
  lambda x: lax.index_in_dim(x, x.shape[0] - 1, axis=0, keepdims=False), [R((3, 4))],
  ["b, ..."])
h("iota", lambda x: x + lax.iota(f32, x.shape[0]), [R((3,))], ["b, ..."])
h("linspace", lambda x: jnp.linspace(0, x.shape[0], 4), [R((30,))], ["b, ..."])
h("linspace_num_poly", lambda x: jnp.linspace(0, 100, x.shape[0]), [R((30,))], ["b, ..."],
  ["b >= 2"])
h("matmul_0", jnp.matmul, [R((7, 8, 4)), R((7, 4, 5))], ["b, ...", "b, ..."], tol=1e-5)
h("matmul_1", jnp.matmul, [R((7, 8, 4)), R((4, 5))], ["b, ...", None], tol=1e-5)
for _keep in (False, True):
    for _axis in (None, (0,), (0, 1), (1,)):
        for _op in ("mean", "var"):
            _f = getattr(jnp, _op)
            h(f"{_op}_axis={_axis}_keepdims={_keep}_where=None",
              partial(lambda f, a, kd, x: f(x, axis=a, keepdims=kd), _f, _axis, _keep),
              [R((7, 8, 4))], ["b, ..."])
            h(f"{_op}_axis={_axis}_keepdims={_keep}_where=Some",
              partial(lambda f, a, kd, x, w: f(x, axis=a, keepdims=kd, where=w), _f, _axis,
                      _keep),
              [R((7, 8, 4)), R((7, 8, 4), np.bool_)], ["b, ...", "b, ..."])
h("one_hot_poly_num_classes", lambda x, y: jax.nn.one_hot(x, y.shape[0]),
  [np.arange(16, dtype=i32), R((16,))], [None, "b0, ..."])
h("one_hot_all_poly", lambda x, y: jax.nn.one_hot(x, y.shape[0]),
  [np.arange(16, dtype=i32), R((16,))], ["b, ...", "b, ..."])
h("ones", lambda x: jnp.ones(x.shape, dtype=f32) + x, [R((3, 2, 4))], ["b, ..."])

# --- padding --------------------------------------------------------------------------------

h("pad", lambda x, v: lax.pad(x, v, ((0, 0, 0), (0, 0, 0), (1, 1, 1))),
  [R((3, 2, 5)), np.float32(5.)], ["b, ...", None])
h("pad_poly_padding_config",
  lambda x: lax.pad(x, f32(0.), ((x.shape[0], x.shape[1], x.shape[0]), (0, 0, 0))),
  [R((3, 2))], ["b, ..."])
_PADS = [
    ("constant", lambda x: jnp.pad(x, [[x.shape[0], 0], [x.shape[1], 1]], mode="constant"),
     ()),
    ("constant_bminus1", lambda x: jnp.pad(
        lax.dynamic_slice_in_dim(x, 1, x.shape[0] - 1, axis=0),
        [[x.shape[0], 0], [x.shape[1], 1]], mode="constant"), ()),
    ("edge", lambda x: jnp.pad(x, [[x.shape[0], 0], [x.shape[1], 1]], mode="edge"), ()),
    ("maximum", lambda x: jnp.pad(x, [[x.shape[0], 0], [x.shape[1], 1]], mode="maximum"), ()),
    ("maximum_stat_length=b", lambda x: jnp.pad(
        x, [[x.shape[0], 0], [x.shape[1], 1]], mode="maximum",
        stat_length=((x.shape[0] // 2, 2), (2, 2))), ["b >= 2"]),
    ("linear_ramp", lambda x: jnp.pad(x, [[x.shape[0], 0], [x.shape[1], 1]],
                                      mode="linear_ramp"), ["b >= 2"]),
    ("reflect_odd", lambda x: jnp.pad(x, [[x.shape[0] - 1, 0], [x.shape[1], 1]],
                                      mode="reflect", reflect_type="odd"), ["b >= 2"]),
    ("reflect_even", lambda x: jnp.pad(x, [[x.shape[0] - 1, 0], [x.shape[1], 1]],
                                       mode="reflect", reflect_type="even"), ["b >= 2"]),
    ("symmetric_odd", lambda x: jnp.pad(x, [[x.shape[0], 0], [x.shape[1], 1]],
                                        mode="symmetric", reflect_type="odd"), ["b >= 2"]),
    ("symmetric_even", lambda x: jnp.pad(x, [[x.shape[0], 0], [x.shape[1], 1]],
                                         mode="symmetric", reflect_type="even"), ["b >= 2"]),
    ("wrap", lambda x: jnp.pad(x, [[x.shape[0], 0], [x.shape[1], 1]], mode="wrap"), ()),
]
for _name, _fn, _cons in _PADS:
    h(f"jnp.pad_mode={_name}", _fn, [R((3, 5))], ["b, ..."], _cons)

h("percentile_axis=None", lambda x: jnp.percentile(x, 50, axis=None), [R((3, 5))], ["b, ..."])
h("nanquantile_axis=None", lambda x: jnp.nanquantile(x, .5, axis=None), [R((3, 5))],
  ["b, ..."])
h("percentile_axis=0", lambda x: jnp.percentile(x, 50, axis=0), [R((3, 5))], ["b, ..."])
h("nanquantile_axis=0", lambda x: jnp.nanquantile(x, .5, axis=0), [R((3, 5))], ["b, ..."])

# --- linear algebra (float32 and complex64) -------------------------------------------------

h("inv", lambda x: jnp.linalg.inv(jnp.eye(x.shape[0])), [R((3, 3))], ["b, b, ..."])
for _dtype in (np.float32, np.complex64):
    _dn = np.dtype(_dtype).name
    for _shape, _poly, _full, _cons in [
            ((2, 3, 4, 4), "b1, b2, ...", False, ()), ((2, 3, 4, 4), "b1, b2, ...", True, ()),
            ((2, 3, 4, 5), "b1, b2, ...", False, ()), ((2, 3, 4, 5), "b1, b2, ...", True, ()),
            ((2, 3, 8, 4), "b1, b2, ...", False, ()), ((2, 3, 8, 4), "b1, b2, ...", True, ()),
            ((2, 3, 4, 4), "b1, b2, m, m", False, ()), ((2, 3, 4, 4), "b1, b2, m, m", True, ()),
            ((2, 3, 4, 5), "b1, b2, m, n", False, ["m + 1 <= n"]),
            ((2, 3, 4, 5), "b1, b2, m, n", True, ["m + 1 <= n"]),
            ((2, 3, 8, 4), "b1, b2, m, n", False, ["n <= m"]),
            ((2, 3, 8, 4), "b1, b2, m, n", True, ["n <= m"])]:
        h(f"qr_{_dn}{list(_shape)}_poly={_poly}_full={_full}",
          partial(lambda full, x: lax.linalg.qr(x, full_matrices=full), _full),
          [R(_shape, _dtype)], [_poly], _cons)
    for _shape, _poly in [((5, 4), "m, n"), ((2, 3, 4, 4), "b1, b2, ..."),
                          ((2, 3, 4, 5), "b1, b2, ..."), ((2, 3, 8, 4), "b1, b2, ..."),
                          ((2, 3, 4, 5), "b1, b2, m, n")]:
        h(f"lu_{_dn}{list(_shape)}_poly={_poly}", lax.linalg.lu, [R(_shape, _dtype)], [_poly])
    for _lower in (True, False):
        for _shape, _poly in [((4, 4), "n, n"), ((2, 3, 4, 4), "b1, b2, ..."),
                              ((2, 3, 4, 4), "b1, b2, n, n")]:
            h(f"eigh_{_dn}{list(_shape)}_poly={_poly}_lower={_lower}",
              partial(lambda lower, x: lax.linalg.eigh(x, lower=lower), _lower),
              [R(_shape, _dtype)], [_poly], vectors={0: "cols"})
    for _uv in (True, False):
        for _full in ((True, False) if _uv else (True,)):
            for _shape, _poly, _cons in [
                    ((2, 3, 4, 4), "b1, b2, ...", ()), ((2, 3, 4, 5), "b1, b2, ...", ()),
                    ((2, 3, 8, 4), "b1, b2, ...", ()),
                    ((5, 4), "m, n", ["n <= m", "m <= 32", "n <= 32"]),
                    ((2, 3, 4, 5), "b1, b2, m, n", ["m <= n", "m <= 32", "n <= 32"])]:
                h(f"svd_{_dn}{list(_shape)}_poly={_poly}_full={_full}_uv={_uv}",
                  partial(lambda full, uv, x: lax.linalg.svd(x, full_matrices=full,
                                                             compute_uv=uv), _full, _uv),
                  [R(_shape, _dtype)], [_poly], _cons,
                  vectors={0: "cols", 2: "rows"} if _uv else None)
    for _vectors in (True, False):
        for _shape, _poly in [((3, 3), "w, w"), ((3, 4, 4), "b, w, w")]:
            h(f"schur_{_dn}{list(_shape)}_poly={_poly}_vectors={_vectors}",
              partial(lambda v, a: lax.linalg.schur(a, compute_schur_vectors=v), _vectors),
              [R(_shape, _dtype)], [_poly])
    for _left, _a, _b, _ap, _bp in [
            (True, (3, 4, 4), (3, 4, 5), "b, ...", "b, ..."),
            (True, (3, 4, 4), (3, 4, 5), "b, k, k", "b, k, m"),
            (False, (3, 4, 4), (3, 5, 4), "b, ...", "b, ..."),
            (False, (3, 4, 4), (3, 5, 4), "b, k, k", "b, m, k"),
            (True, (4, 4), (4, 5), "k, k", "k, m"),
            (False, (4, 4), (5, 4), "k, k", "m, k")]:
        h(f"triangular_solve_{_dn}{list(_a)}_left={_left}_a={_ap}_b={_bp}",
          partial(lambda left, a, b: lax.linalg.triangular_solve(
              jnp.tril(a) + 5 * jnp.eye(a.shape[-1], dtype=a.dtype), b, left_side=left,
              lower=True), _left),
          [R(_a, _dtype), R(_b, _dtype)], [_ap, _bp])

for _shape, _poly, _size, _cons in [((4,), None, 8, ()), ((2, 3, 4), "b1, b2, ...", 8, ()),
                                    ((4,), "b", 8, ["b <= 8"]),
                                    ((2, 3, 4), "b1, b2, b3", 8, ["b3 <= 8"])]:
    h(f"lu_pivots_to_permutation{list(_shape)}_poly={_poly}",
      partial(lambda size, p: lax.linalg.lu_pivots_to_permutation(p, size), _size),
      [np.resize(np.array([3, 1, 2, 3], i32), _shape)], [_poly], _cons)

_RAGGED = {
    1: (([1], [1]), ([], []), [0], [0]), 2: (([1], [0]), ([], []), [1], []),
    3: (([2], [1]), ([0], [0]), [0], []),
}


def _ragged(mode, lhs, rhs, group_sizes, preferred=None):
    contract, batch, lhs_ragged, rhs_group = _RAGGED[mode]
    return lax.ragged_dot_general(lhs, rhs, group_sizes, lax.RaggedDotDimensionNumbers(
        dot_dimension_numbers=(contract, batch), lhs_ragged_dimensions=lhs_ragged,
        rhs_group_dimensions=rhs_group), preferred_element_type=preferred)


h("ragged_dot_mode_1_non_contracting", partial(_ragged, 1),
  [R((11, 5)), R((3, 5, 7)), np.array([4, 4, 3], i32)], ["m, k", "_, k, n", "_"])
h("ragged_dot_mode_1_non_contracting_f16_f32",
  lambda a, b, g: _ragged(1, a, b, g, jnp.float32),
  [R((11, 5), np.float16), R((3, 5, 7), np.float16), np.array([4, 4, 3], i32)],
  ["m, k", "_, k, n", "_"])
h("ragged_dot_mode_2_contracting", partial(_ragged, 2),
  [R((11, 5)), R((5, 7)), np.array([2, 3], i32)], ["m, k", "k, n", "_"])
h("ragged_dot_mode_3_batch", partial(_ragged, 3),
  [R((5, 11, 6)), R((5, 6, 7)), np.array([2, 3], i32)], ["b, m, k", "b, k, n", "g"])

# --- random numbers: threefry (partitionable or not) and unsafe_rbg ------------------------

_PRNGS = [
    (2, "threefry_non_partitionable",
     dict(jax_default_prng_impl="threefry2x32", jax_threefry_partitionable=False)),
    (2, "threefry_partitionable",
     dict(jax_default_prng_impl="threefry2x32", jax_threefry_partitionable=True)),
    (4, "unsafe_rbg", dict(jax_default_prng_impl="unsafe_rbg")),
]


def _key(data):
    return jax.random.wrap_key_data(data)


def _choice(replace, use_p, key, a, res_shape):
    p = jnp.full((a.shape[1],), 0.1, dtype=f32) if use_p else None
    return jax.random.choice(_key(key), a, shape=res_shape.shape, p=p, axis=1,
                             replace=replace)


for _ks, _flags_name, _flags in _PRNGS:
    _K = (_ks,)
    h(f"random_gamma_{_flags_name}", lambda key, a: jax.vmap(jax.random.gamma)(_key(key), a),
      [R((3, _ks), np.uint32), R((3, 4, 5))], ["b, ...", "b, w, ..."], flags=_flags, tol=1e-5)
    h(f"random_categorical_axis=0_{_flags_name}",
      lambda key, a: jax.random.categorical(_key(key), a, axis=0),
      [R(_K, np.uint32), R((3, 8))], [None, "b0, b1"], flags=_flags)
    h(f"random_categorical_axis=1_{_flags_name}",
      lambda key, a: jax.random.categorical(_key(key), a, axis=1),
      [R(_K, np.uint32), R((3, 5, 8))], [None, "b0, b1, b2"], flags=_flags)
    h(f"random_categorical_axis=1_then_reshape_{_flags_name}",
      lambda key, a: jax.random.categorical(_key(key), a, axis=1).reshape(-1),
      [R(_K, np.uint32), R((3, 5, 8))], [None, "b0, b1, b2"], flags=_flags)
    for _arr_poly in (True, False):
        for _shape_poly in (True, False):
            for _replace in (True, False):
                for _use_p in (True, False):
                    if _arr_poly and not _use_p:
                        continue   # jax.export refuses: a permutation of a symbolic size
                    _cons = [c for c, on in (("b1 >= 12", _arr_poly),
                                             ("b1 >= b3*b4", _arr_poly and _shape_poly),
                                             ("12 >= b3*b4", _shape_poly)) if on]
                    h(f"random_choice_{_flags_name}_arr_poly={_arr_poly}_shape_poly="
                      f"{_shape_poly}_replace={_replace}_use_p={_use_p}",
                      partial(_choice, _replace, _use_p),
                      [R(_K, np.uint32), R((64, 12, 4)), R((3, 4))],
                      [None, "b0, b1, b2" if _arr_poly else None,
                       "b3, b4" if _shape_poly else None], _cons, flags=_flags)
    h(f"random_split_{_flags_name}", lambda key, a: jax.random.key_data(
        jax.random.split(_key(key), 2 * a.shape[0])),
      [R(_K, np.uint32), R((3, 4))], [None, "b0, ..."], flags=_flags)
    h(f"random_uniform_even_1_{_flags_name}",
      lambda key, a: jax.random.uniform(_key(key), a.shape, dtype=f32),
      [R(_K, np.uint32), R((3, 4, 5))], [None, "b0, 4, 5"], flags=_flags)
    h(f"random_uniform_even_2_{_flags_name}",
      lambda key, a: jax.random.uniform(_key(key), a.shape, dtype=f32),
      [R(_K, np.uint32), R((3, 4))], [None, "b0, 2*b1"], flags=_flags)
    h(f"random_uniform_error_unknown_evenness_{_flags_name}",
      lambda key, a: jax.random.uniform(_key(key), a.shape, dtype=f32),
      [R(_K, np.uint32), R((3, 5))], [None, "b0, b1"], flags=_flags)

# --- windows, reductions, reshapes, scatters, segments, slices, sorts ----------------------


def _rw(op, init, window, x):
    return lax.reduce_window(x, np.array(init, f32), op, window(x), (1, 1), "VALID")


for _size, _window in (("static", lambda x: (2, 2)), ("dynamic", lambda x: (2, x.shape[0]))):
    h(f"reduce_window_min_window_size={_size}", partial(_rw, lax.min, 1., _window),
      [R((3, 8))], ["b, ..."])
    h(f"reduce_window_min_plus_max_window_size={_size}",
      partial(lambda w, x: _rw(lax.min, 1., w, x) + _rw(lax.max, 1., w, x), _window),
      [R((3, 8))], ["b, ..."])
    h(f"reduce_window_add_monoid_base_window_size={_size}", partial(_rw, lax.add, 0., _window),
      [R((3, 8))], ["b, ..."])
    h(f"reduce_window_variadic_generic_window_size={_size}",
      partial(lambda w, x, y: lax.reduce_window(
          (x, y), (np.array(1., f32), np.array(2, i32)),
          lambda a, b: (lax.add(a[0], b[0]), lax.sub(a[1], b[1])), w(x), (1, 1), "VALID"),
          _window),
      [R((3, 8)), R((3, 8), i32)], ["b, ...", "b, ..."])
for _name, _init in (("add_monoid_strides", 0.), ("add_generic", 1.)):
    h(f"reduce_window_{_name}_window_size=static",
      partial(lambda init, x: lax.reduce_window(jnp.reshape(x, (1, -1, 1)),
                                                np.array(init, f32), lax.add, (1, 4, 1),
                                                (1, 2, 1), "SAME"), _init),
      [R((1, 128, 16))], ["_, b1, ..."])
for _red in (jnp.all, jnp.any, jnp.max, jnp.min, jnp.prod, jnp.sum):
    h(f"reduce_{_red.__name__}", partial(lambda r, x: r(x, axis=-1, keepdims=True), _red),
      [R((3, 5))], ["b, ..."])
h("repeat_repeats=int_axis=0", lambda x: jnp.repeat(x, repeats=3, axis=0), [R((3, 2))],
  ["b, ..."])
h("repeat_repeats=poly_axis=0", lambda x: jnp.repeat(x, repeats=x.shape[0], axis=0),
  [R((3, 2))], ["b, ..."])
h("repeat_repeats=poly_axis=None", lambda x: jnp.repeat(x, repeats=x.shape[0], axis=None),
  [R((3, 2))], ["b, ..."])
h("repeat_repeats=poly_axis=None_scalar", lambda x, y: jnp.expand_dims(
    jnp.repeat(x, repeats=y.shape[0], axis=None), axis=1) + y,
  [R(()), R((3, 1))], [None, "b0, ..."])
h("reshape_0", lambda x: x.reshape([x.shape[0], -1]), [R((3, 2, 3))], ["b, ..."])
h("reshape_1", lambda x: x.reshape([x.shape[0], -1]), [R((3, 2, 3))], ["b0, b1, ..."])
h("reshape_2", lambda x: x.reshape([x.shape[0], -1, x.shape[3], x.shape[2]]),
  [R((3, 4, 5, 6, 7))], ["b0, _, b2, b3, ..."])
h("reshape_3", lambda x: jnp.reshape(x, [2, -1]), [R((3, 4, 5, 6, 7))], ["b0, _, b2, ..."])
h("reshape_issue_9975", lambda x: jnp.reshape(x, x.shape[0] * x.shape[1]), [R((3, 4))],
  ["b, ..."])
h("roll_axis=0", lambda x: jnp.roll(x, 2, axis=0), [R((3, 4))], ["b, ..."])
h("roll_axis=None", lambda x: jnp.roll(x, 2), [R((3, 4))], ["b, ..."])

_SCATTER_1 = lax.ScatterDimensionNumbers((0,), (1,), (1,))
_SCATTER_2 = lax.ScatterDimensionNumbers((1,), (0,), (0, 1))
_IDX_B2 = np.array([[1, 2], [-2, 0], [6, 4], [7, -1], [1, 0], [3, 0], [0, 5]], i32)
h("scatter_add", lambda x, i, u: lax.scatter_add(x, i, u, _SCATTER_1, unique_indices=True),
  [R((7, 4)), np.array([[1], [2]], i32), R((7, 2))], ["b, ...", None, "b, ..."])
h("scatter_add_clip0", lambda x, i, u: lax.scatter_add(
    x, i, u, _SCATTER_1, unique_indices=True, mode=lax.GatherScatterMode.CLIP),
  [R((7, 4)), np.array([[1], [2]], i32), R((7, 2))], ["b, ...", None, "b, ..."])
h("scatter_add_clip1", lambda x, i, u: lax.scatter_add(
    x, i, u, _SCATTER_2, unique_indices=True, mode=lax.GatherScatterMode.CLIP),
  [R((7, 4)), _IDX_B2, R((7, 1))], ["b, ...", "b, ...", "b, ..."])


def _scatter_grad(dn, x, i, u):
    return jax.grad(lambda x, u: jnp.sum(lax.scatter(x, i, u, dn)), argnums=(0, 1))(x, u)


h("scatter_grad", partial(_scatter_grad, _SCATTER_1),
  [R((7, 4)), np.array([[1], [2]], i32), R((7, 2))], ["b, ...", None, "b, ..."])
h("scatter_grad_poly_indices", partial(_scatter_grad, _SCATTER_2),
  [R((7, 4)), _IDX_B2, R((7, 1))], ["b, ...", "b, ...", "b, ..."])
for _name, _op in (("max", ops.segment_max), ("min", ops.segment_min),
                   ("sum", ops.segment_sum), ("prod", ops.segment_prod)):
    for _bucket in (None, 2, "poly"):
        h(f"segment_{_name}_bucket_size_{_bucket}",
          partial(lambda op, bucket, x, ids: op(
              x, ids, num_segments=x.shape[1],
              bucket_size=x.shape[2] if bucket == "poly" else bucket), _op, _bucket),
          [R((8, 5, 2)), np.array([0, 0, 0, 1, 1, 3, 3, 3], i32)], ["b, s, buckets", "b"])
h("select_0", lambda x: lax.select(x > 5., x, x), [R((7, 3))], ["b, ..."])
h("select_1", jax.vmap(lambda x, y: lax.select(x > 5., x, y), in_axes=[0, None]),
  [R((7, 3)), R((3,))], ["b, ...", None])
h("slice_entire_axis", lambda x: lax.slice(x, (0, 1), (x.shape[0], 3)), [R((7, 3))],
  ["b, ..."])
h("slice_in_dim_entire_axis", lambda x: lax.slice_in_dim(x, 0, x.shape[0], 1, 0), [R((3, 4))],
  ["b, ..."])
h("slice_in_dim_start=neg", lambda x: lax.slice_in_dim(x, -1, x.shape[0], 1, 0), [R((3, 4))],
  ["b, ..."])
h("slice_in_dim_limit=neg", lambda x: lax.slice_in_dim(x, 0, -1, 1, 0), [R((3, 4))],
  ["b, ..."])
h("slice_in_dim_stride=2_even", lambda x: lax.slice_in_dim(x, 0, x.shape[0], 2, 0),
  [R((12, 4))], ["b, ..."])
h("slice_in_dim_stride=2_odd", lambda x: lax.slice_in_dim(x, 0, x.shape[0], 2, 0),
  [R((13, 4))], ["b, ..."])
h("slice_in_dim_stride_sym",
  lambda x: lax.slice_in_dim(x, 0, x.shape[0], 1 + x.shape[0] // 4, 0), [R((13, 4))],
  ["b, ..."])
h("sort", lax.sort, [R((16,))], ["b"])
h("jvp_sort", lambda a: jax.jvp(lax.sort, (a,), (a,)), [R((16,))], ["b"])
h("jnp_split_idx_tuple_ct", lambda a: jnp.split(a, (2,)), [R((16,))], ["b + 4"])
h("jnp_split_idx_tuple_poly", lambda a: jnp.split(a, (a.shape[0] - 2,), axis=0), [R((16,))],
  ["b + 4"])
h("jnp_split_idx_ct", lambda a: jnp.split(a, 2, axis=0), [R((16,))], ["2*b + 4"])
h("squeeze_axis=empty", lambda x: jnp.squeeze(x, ()), [R((5,))], ["b, ..."])
h("squeeze_axis=1", lambda x: jnp.squeeze(x, (1,)), [R((4, 1))], ["b, ..."])
h("squeeze_axis=1_2", lambda x: jnp.squeeze(x, (1, 2)), [R((4, 1, 1))], ["b, ..."])
h("take", lambda a, i: jnp.take(a, i, axis=1), [R((3, 4, 5)), np.array([1, 2], i32)],
  ["b, ...", None])
h("take_along_axis_0", lambda x, y: jnp.take_along_axis(x, y, axis=0),
  [R((5, 2)), np.array([[1], [4], [0], [2], [3]], i32)], ["b, ...", "b, ..."])
h("take_along_axis_1", lambda x, y: jnp.take_along_axis(x, y, axis=1),
  [R((5, 2)), np.array([[1], [0], [0], [1], [1]], i32)], ["b, ...", "b, ..."])
h("tile_0", lambda x: jnp.tile(x, (1, 2)), [R((4, 3))], ["b, ..."])
h("tile_1", lambda x: jnp.tile(x, (1, x.shape[0])), [R((4, 2))], ["b, ..."])
h("lax_top_k", lambda x: lax.top_k(x, x.shape[-1] - 1), [R((16,))], ["b, ..."])
h("tri_N=poly_M=None", lambda x: jnp.tri(x.shape[0]) + x, [R((3, 1))], ["b, ..."])
h("tri_N=poly_M=poly", lambda x: jnp.tri(x.shape[0], M=x.shape[0] + 2) + x, [R((3, 1))],
  ["b, ..."])
h("tril", lambda x: jnp.tril(jnp.ones((x.shape[0], x.shape[0] + x.shape[1]), dtype=f32),
                             k=x.shape[1]), [R((3, 4))], ["m, n"])
for _k in (True, False):
    for _m in (True, False):
        for _fn in (jnp.tril_indices, jnp.triu_indices):
            h(f"{_fn.__name__}_has_k={_k}_has_m={_m}",
              partial(lambda f, k, m, x: f(x.shape[0], k=x.shape[0] - 1 if k else 0,
                                           m=x.shape[1] if m else None), _fn, _k, _m),
              [R((3, 4))], ["n, m"])
h("where", jnp.where, [R((2,), np.bool_), R(()), R((2,))], ["b, ...", None, "b, ..."])
