"""StableHLO shape computations of many dimensions: a shape tensor has one element per result
dimension, and the importer follows up to shape_exprs.MAX_TRACKED_ELEMENTS of them.

Regression: the limit was 16, and a 17-dimensional dynamic broadcast (jnp.ones(x.shape) with
17 symbolic sizes) was refused as "the output shape is computed from data".
"""

import numpy as np
import pytest

pytest.importorskip("jax")

import dynhlo  # noqa: E402
from dynhlo.frontends.stablehlo import shape_exprs  # noqa: E402


def _broadcast_module(rank: int) -> str:
    """x + broadcast(1.0, shape of x) on a rank-`rank` argument whose dims are all `?`,
    the shape tensor assembled from get_dimension_size as JAX writes it."""
    q = "x".join(["?"] * rank)
    lines = []
    for d in range(rank):
        lines.append(f"    %g{d} = stablehlo.get_dimension_size %a, dim = {d} : "
                     f"(tensor<{q}xf32>) -> tensor<i32>")
        lines.append(f"    %r{d} = stablehlo.reshape %g{d} : (tensor<i32>) -> tensor<1xi32>")
    pieces = ", ".join(f"%r{d}" for d in range(rank))
    types = ", ".join(["tensor<1xi32>"] * rank)
    lines += [f"    %s = stablehlo.concatenate {pieces}, dim = 0 : ({types}) -> "
              f"tensor<{rank}xi32>",
              "    %c = stablehlo.constant dense<1.0> : tensor<f32>",
              f"    %b = stablehlo.dynamic_broadcast_in_dim %c, %s, dims = [] : "
              f"(tensor<f32>, tensor<{rank}xi32>) -> tensor<{q}xf32>",
              f"    %o = stablehlo.add %a, %b : tensor<{q}xf32>",
              f"    return %o : tensor<{q}xf32>"]
    return (f"module {{\n  func.func @main(%a: tensor<{q}xf32>) -> tensor<{q}xf32> {{\n"
            + "\n".join(lines) + "\n  }\n}\n")


def test_seventeen_dynamic_dimensions_are_followed():
    rank = 17
    module = dynhlo.parse_stablehlo(_broadcast_module(rank),
                                    bounds={0: {d: 2 for d in range(rank)}})
    exe = dynhlo.compile(module)
    shape = (2, 1) * 8 + (2,)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    np.testing.assert_array_equal(exe(x), x + 1)


def test_a_shape_tensor_past_the_limit_names_the_limit():
    rank = shape_exprs.MAX_TRACKED_ELEMENTS + 1
    with pytest.raises(dynhlo.UnsupportedError,
                       match=rf"the output shape has {rank} elements \(s32\[{rank}\]\); dynhlo "
                             rf"follows size computations of at most {rank - 1} elements"):
        dynhlo.parse_stablehlo(_broadcast_module(rank))


def test_jnp_ones_of_seventeen_symbolic_sizes():
    import jax.numpy as jnp
    names = [f"d{i}" for i in range(17)]
    exe = dynhlo.from_jax(lambda x: x + jnp.ones(x.shape), "f32[" + ",".join(names) + "]",
                          bounds={n: 2 for n in names})
    x = np.full((1, 2) * 8 + (1,), 3, np.float32)
    np.testing.assert_array_equal(exe(x), np.full(x.shape, 4, np.float32))
