"""from_jax on real JAX programs of each family, against jax.jit at the same static sizes.

Every function goes through jax.export with symbolic sizes and dynhlo's StableHLO import, and
runs at sizes 1, 7 and the bound; the expected values are jax.jit's at those static shapes.
"""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

import dynhlo  # noqa: E402
from dynhlo.frontends.jax import from_jax  # noqa: E402
from dynhlo.hlo import print_module  # noqa: E402
from dynhlo.shapes.slice_windows import OPERAND_SIZED  # noqa: E402

BOUND = 16


def _args(shapes, sizes, rng):
    out = []
    for text in shapes:
        element, dims = text.split("[")
        dims = [sizes.get(d.strip(), None) or int(d) for d in dims.rstrip("]").split(",")]
        if element == "f32":
            out.append(rng.standard_normal(dims).astype(np.float32))
        elif element == "u32":
            out.append(rng.integers(0, 2**31, dims).astype(np.uint32))
        else:
            out.append(rng.integers(-50, 50, dims).astype(np.int32))
    return out


def _close(got, want):
    assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want)
    got, want = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    for g, w in zip(got, want, strict=True):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5)
        else:
            np.testing.assert_array_equal(g, w)


def _stacked(x):
    """Loops whose stacked outputs have the dynamic length: a reversed scan with a tuple of
    stacked outputs, fori_loops with symbolic trip counts writing rows (`.at[i].set`, and
    dynamic_update_slice at 2i for (n+1)//2 trips), and a while_loop doing the same."""
    n = x.shape[0]

    def scan_step(c, row):
        c = c * 0.5 + row
        return c, (c, jnp.sum(row))

    def cumprod(i, carry):
        acc, out = carry
        acc = acc * x[i]
        return acc, out.at[i].set(acc)

    def even_rows(i, out):
        return lax.dynamic_update_slice(out, x[i][None] + i, (2 * i, 0))

    def while_body(carry):
        i, out = carry
        return i + 1, out.at[i].set(jnp.cumsum(x[i]))

    return (lax.scan(scan_step, jnp.zeros(3), x, reverse=True),
            lax.fori_loop(0, n, cumprod, (jnp.ones(3), jnp.zeros_like(x)))[1],
            lax.fori_loop(0, (n + 1) // 2, even_rows, jnp.zeros_like(x)),
            lax.while_loop(lambda c: c[0] < n, while_body, (0, jnp.zeros_like(x)))[1])


FAMILIES = {
    "mean_var": (lambda x: (x.mean(0), x.var(0), x - x.mean(0)), ["f32[n,6]"]),
    "layernorm": (lambda x: (x - x.mean(-1, keepdims=True))
                  / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5), ["f32[n,8]"]),
    "attention": (lambda q, k, v: jax.nn.softmax(q @ k.T / 8.0, axis=-1) @ v,
                  ["f32[n,8]", "f32[n,8]", "f32[n,8]"]),
    "two_sizes": (lambda a, b: (a @ b.T, a.sum(0) * b.mean(0), jnp.concatenate([a, b], 0)),
                  ["f32[n,4]", "f32[m,4]"]),
    "cumsum_sort": (lambda x: (jnp.cumsum(x, 0), jnp.sort(x, 0), jnp.argsort(x[:, 0]),
                               jnp.cumprod(x[:, 1]), lax.cummax(x, 0)), ["f32[n,3]"]),
    "argmax": (lambda x: (jnp.argmax(x, 0), jnp.max(x, 1), jnp.argmin(x[:, 0])), ["f32[n,5]"]),
    "scan": (lambda x: lax.scan(lambda c, r: (c + r, c * 2 + r), jnp.zeros(3), x),
             ["f32[n,3]"]),
    "stacked": (lambda x: _stacked(x), ["f32[n,3]"]),
    "integer": (lambda x: (x // 3, x % 5, x >> 1, x & 7, jnp.abs(x), jnp.clip(x, -2, 2),
                           x.sum(), jnp.cumsum(x)), ["s32[n]"]),
    "slices": (lambda x: (x[1:], x[:-1], x[::2], jnp.flip(x), jnp.roll(x, 1),
                          x + jnp.arange(x.shape[0])), ["f32[n]"]),
    "reshape_pad": (lambda x: (x.reshape(-1), x.reshape(x.shape[0] * 2, 3), jnp.pad(
        x, ((1, 2), (0, 0))), jnp.concatenate([x, x], 0), x.T @ x), ["f32[n,6]"]),
    "where_take": (lambda x, i: (jnp.where(x > 0, x, 0.0).max(0), x[i], jnp.tril(x @ x.T)),
                   ["f32[n,4]", "s32[m]"]),
    "elementwise": (lambda x: (jnp.tanh(x), jax.nn.gelu(x), jnp.log1p(jnp.abs(x)),
                               jnp.sinh(x), jax.scipy.special.erf(x), jax.nn.relu(x)),
                    ["f32[n]"]),
}

# More programs, one per converter family: control flow, windows, scatter, linalg, random, AD.
MORE = {
    "xent": (lambda logits, y: -(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 5))
             .sum(-1).mean(), ["f32[n,5]", "s32[n]"]),
    "conv": (lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME"),
             ["f32[1,2,n]", "f32[3,2,3]"]),
    "maxpool_grad": (lambda x: jax.grad(lambda v: lax.reduce_window(
        v, -jnp.inf, lax.max, (1, 2), (1, 2), "VALID").sum())(x), ["f32[n,8]"]),
    "control": (lambda x: (lax.fori_loop(0, x.shape[0], lambda i, c: c + x[i], 0.0),
                           lax.cond(x.sum() > 0, lambda v: v * 2, lambda v: -v, x)), ["f32[n]"]),
    "topk_median": (lambda x: (lax.top_k(x, 2), jnp.median(x, 1)), ["f32[n,6]"]),
    "segment_scatter": (lambda x, ids: (jax.ops.segment_sum(x, ids, num_segments=4),
                                        x.at[0].set(5.0)), ["f32[n]", "s32[n]"]),
    "linalg": (lambda a, b: jax.scipy.linalg.solve_triangular(
        jnp.linalg.cholesky(a @ a.T + 4 * jnp.eye(3)), b, lower=True), ["f32[3,3]", "f32[3,n]"]),
    "fft_grad": (lambda x, w: (jnp.fft.rfft(x, axis=1).real,
                               jax.grad(lambda w: (jnp.tanh(x @ w) ** 2).mean())(w)),
                 ["f32[n,4]", "f32[4,3]"]),
    "special": (lambda x: (lax.lgamma(x * x + 1), lax.digamma(x * x + 1),
                           lax.erf_inv(jnp.tanh(x)), jnp.cosh(x), jnp.arcsinh(x)), ["f32[n]"]),
    "trig_complex_bf16": (lambda x: (jnp.arctan(x), jnp.arccos(x / 4), jnp.angle(x + 1j),
                                     # XLA keeps excess precision in bf16 arithmetic
                                     # (jax.jit elides roundings): compare bf16 data only
                                     jnp.full_like(x, 1.5, jnp.bfloat16), x.astype(
                                         jnp.bfloat16)), ["f32[n]"]),
    "random": (lambda k, x: x + jax.random.normal(jax.random.wrap_key_data(k), x.shape),
               ["u32[2]", "f32[n]"]),
    # x[n-1:n] is a real_dynamic_slice of static result 1 whose size (n - (n-1)) does not
    # fold; copysign's signbit bitcasts a scalar
    # a dynamic_slice at the loop index over a dimension of symbolic size: its limit is
    # start + sizes, the start data
    "map_over_rows": (lambda x: lax.map(lambda r: r.sum(), x), ["f32[5,n]"]),
    "edge_pad_copysign": (lambda x: (jnp.pad(x, ((2, 2), (0, 0)), mode="edge"),
                                     jnp.copysign(x, -1.0)), ["f32[n,3]"]),
}


@pytest.mark.parametrize("family", sorted(MORE))
def test_from_jax_more_programs(family):
    fn, shapes = MORE[family]
    exe = from_jax(fn, *shapes, bounds={"n": BOUND})
    rng = np.random.default_rng(1)
    for n in (1, 7, BOUND):
        args = _args(shapes, {"n": n}, rng)
        if family == "segment_scatter":
            args[1] = rng.integers(0, 4, n).astype(np.int32)
        _close(exe(*args), jax.jit(fn)(*args))


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_from_jax_matches_jit(family):
    fn, shapes = FAMILIES[family]
    exe = from_jax(fn, *shapes, bounds={"n": BOUND, "m": 9} if "m" in str(shapes)
                   else {"n": BOUND})
    rng = np.random.default_rng(0)
    for n in (1, 7, BOUND):
        sizes = {"n": n, "m": min(n, 9)}
        args = _args(shapes, sizes, rng)
        if family == "where_take":
            args[1] = rng.integers(0, n, args[1].shape).astype(np.int32)
        _close(exe(*args), jax.jit(fn)(*args))


def test_jax_arrays_in_jax_arrays_out():
    exe = from_jax(lambda x: (x * 2, x.sum(0)), "f32[n,3]", bounds={"n": 8})
    x = jnp.arange(15, dtype=jnp.float32).reshape(5, 3)
    doubled, total = exe(x)
    assert isinstance(doubled, jax.Array) and isinstance(total, jax.Array)
    np.testing.assert_array_equal(np.asarray(doubled), np.asarray(x) * 2)
    out = exe(np.asarray(x))  # numpy in, numpy out
    assert isinstance(out[0], np.ndarray)
    named = from_jax(lambda x: {"double": x * 2, "pair": (x, x.sum())}, "f32[n]",
                     bounds={"n": 4})(np.ones(3, np.float32))
    assert sorted(named) == ["double", "pair"] and named["pair"][1] == 3


def test_unbounded_name_compiles_per_bucket(tmp_path):
    def centre(x):
        return x - x.mean(0)
    exe = from_jax(centre, "f32[n,2]")
    assert exe.module is None
    assert repr(exe) == "<dynhlo.from_jax centre bounds={} backend=cpu>"  # was AttributeError
    rng = np.random.default_rng(3)
    for n in (1, 3, 100):
        x = rng.standard_normal((n, 2)).astype(np.float32)
        np.testing.assert_allclose(exe(x), x - x.mean(0), rtol=1e-5, atol=1e-6)
    assert str(exe.module.entry.parameters[0].shape).startswith("f32[<=128,2]")
    # Before: after a call, save wrote the last bucket's program (bound 128 here) as if n
    # were bounded there.
    with pytest.raises(dynhlo.UnsupportedError, match=r"\['n'\] has none.*bounds=\{'n': N\}"):
        exe.save(tmp_path / "m.dynhlo")
    assert not (tmp_path / "m.dynhlo").exists()


def test_shape_assertion_and_bound_are_argument_errors():
    exe = from_jax(lambda x, y: x + y, "f32[n]", "f32[n]", bounds={"n": 8})
    with pytest.raises(dynhlo.ArgumentError, match="x dimension 0 has size 0 < 1, the least "
                       "size 'n'"):
        exe(np.ones(0, np.float32), np.ones(0, np.float32))  # JAX's sizes start at 1
    with pytest.raises(dynhlo.ArgumentError, match="> bound 8"):
        exe(np.ones(9, np.float32), np.ones(9, np.float32))
    with pytest.raises(dynhlo.ArgumentError, match="y dimension 0 has size 4, but size 'n' "
                       "is 3 in x dimension 0"):
        exe(np.ones(3, np.float32), np.ones(4, np.float32))  # one name, two sizes


def test_bad_shapes_and_bounds():
    with pytest.raises(dynhlo.UnsupportedError, match="not an HLO shape"):
        from_jax(lambda x: x, "n,4")
    with pytest.raises(dynhlo.UnsupportedError, match="unknown element type 'f33'"):
        from_jax(lambda x: x, "f33[n]")
    with pytest.raises(dynhlo.UnsupportedError, match="no shape uses"):
        from_jax(lambda x: x, "f32[n]", bounds={"m": 3})
    with pytest.raises(dynhlo.UnsupportedError, match="no shapes were given: pass one shape"):
        from_jax(lambda x: x, bounds={"n": 3})  # was "no shape uses (names: [])"
    # what jax.export itself refuses: a comparison of a symbolic size
    with pytest.raises(dynhlo.UnsupportedError, match="jax.export cannot export.*inconclusive"):
        from_jax(lambda x: x * jnp.linspace(0, 1, x.shape[0]), "f32[n]", bounds={"n": 8})


def test_module_prints_and_compiles_ahead_of_time(tmp_path):
    exe = from_jax(lambda x: jnp.cumsum(x) / x.shape[0], "f32[n]", bounds={"n": 32})
    text = exe.module.to_text()
    assert "f32[<=32]" in text and dynhlo.parse_hlo(text) == exe.module
    exe.save(tmp_path / "m.dynhlo")
    loaded = dynhlo.load(tmp_path / "m.dynhlo")
    x = np.arange(1, 6, dtype=np.float32)
    np.testing.assert_allclose(loaded(x), np.cumsum(x) / 5, rtol=1e-6)


def test_large_captured_constant_keeps_its_values():
    """A weight the function closes over (64x80: written outside the HLO text) is exact."""
    w = np.random.default_rng(4).standard_normal((64, 80)).astype(np.float32)
    exe = from_jax(lambda x: jnp.tanh(x @ w), "f32[n,64]", bounds={"n": 8})
    x = np.random.default_rng(5).standard_normal((3, 64)).astype(np.float32)
    _close(exe(x), jax.jit(lambda x: jnp.tanh(x @ w))(x))
    assert np.array_equal(next(i.literal for i in exe.module.instructions()
                               if i.literal is not None and i.literal.shape == (64, 80)), w)


def test_a_scan_whose_length_is_a_size_without_xs_is_refused_by_jax():
    """`lax.scan(f, init, None, length=n)` with n symbolic: jax.export itself refuses it
    (InconclusiveDimensionOperation: the length must be a constant); from_jax says so."""
    def fn(x):
        return lax.scan(lambda c, _: (c + 1.0, c * c), 0.5, None, length=x.shape[0])
    with pytest.raises(dynhlo.UnsupportedError, match="InconclusiveDimensionOperation: "
                       "Symbolic dimension 'n' used in a context that requires a constant"):
        from_jax(fn, "f32[n,3]", bounds={"n": 8})


@pytest.mark.parametrize("order", ["gathered_first", "carried_first"])
def test_a_loop_joining_a_carried_row_and_an_indexed_one_runs_in_either_order(order):
    """In a loop body, x[i] (a gather whose size JAX computes from its dimension variable,
    carried in the loop state) concatenated with a carried [b, 2] value: the two sizes are
    one, and the one kept is the carried value's, which is there before the body computes
    anything. Keeping the gathered one made the body's parameter wait on its own result
    ("the size of this instruction depends on its own result") when x[i] came first."""
    def fn(x):
        def body(i, h):
            parts = [x[i], h] if order == "gathered_first" else [h, x[i]]
            return jnp.concatenate(parts, axis=1)[:, 1:3]
        return lax.fori_loop(0, 3, body, jnp.zeros((x.shape[1], 2)))
    exe = from_jax(fn, "f32[3,b,2]", bounds={"b": 16})
    rng = np.random.default_rng(0)
    for b in (1, 5, 16):
        x = rng.standard_normal((3, b, 2)).astype(np.float32)
        _close(exe(x), jax.jit(fn)(x))


def test_two_strided_convs_with_biases_match_jit_at_every_length():
    """conv(conv(x) + 1) + 1, VALID, stride 2 (keras' Conv1D(strides=2) twice): JAX writes
    the first conv's size as (l - 3) // 2 + 1 (at most 63 for l <= 128) and the bias add
    broadcasts to it. Bounding StableHLO's truncating division by rounding the corners
    outwards gave 64, so the second conv's size (bound 31 from 64 by XLA's rule) and JAX's
    for it (bound 32) had two bounds and the add was refused."""
    w = np.ones((3, 1, 1), np.float32)

    def fn(x):
        def conv(v):
            return lax.conv_general_dilated(v, w, (2,), "VALID",
                                            dimension_numbers=("NWC", "WIO", "NWC"))
        return conv(conv(x) + 1.0) + 1.0
    exe = from_jax(fn, "f32[1,l,1]", bounds={"l": 128})
    rng = np.random.default_rng(0)
    for n in (1, 7, 37, 128):
        x = rng.standard_normal((1, n, 1)).astype(np.float32)
        _close(exe(x), jax.jit(fn)(x))


def test_a_truncating_division_is_bounded_exactly():
    from dynhlo.frontends.stablehlo import shape_exprs as sx
    l_dim = ("dim", 0, 1, 0, 128)
    assert sx.interval(("div", ("add", l_dim, sx.const(-3)), sx.const(2))) == (-1, 62)
    assert sx.interval(("div", l_dim, sx.const(-2))) == (-64, 0)
    assert sx.interval(("div", ("dim", 0, 0, -7, 9), ("dim", 0, 1, 2, 4))) == (-3, 4)


def _cat(*arrays):
    return jnp.concatenate(arrays)


# StableHLO clamps a start against the actual shape; the HLO dynhlo writes clamps against the
# bounds as XLA does, so the import clamps first (and pads the operand of a dynamic update).
SLICES = {
    "index": lambda x, i: x[i],
    "slice": lambda x, i: lax.dynamic_slice(_cat(x, x), (i, 0), (2, 3)),
    "update": lambda x, i: lax.dynamic_update_slice(_cat(x, x), jnp.ones((2, 3)), (i, 0)),
    "dynamic_update": lambda x, i: lax.dynamic_update_slice(_cat(x, x, x), -x[:, :2], (i, i)),
    "whole_update": lambda x, i: lax.dynamic_update_slice(x, -x, (i, 0)),
    # a dynamic update at start 0 along its dynamic dimension: placed there without the
    # operand's padding, smaller than the operand (n of 2n rows) or its size (a scan's row)
    "rows_at_zero": lambda x, i: lax.dynamic_update_slice(
        jnp.zeros((4, 2 * x.shape[0], 3)), -x[None], (i, 0, 0)),
    "row_of_a_scan": lambda x, i: lax.dynamic_update_slice(
        jnp.ones((5,) + x.shape), x[None] * 2, (i, 0, 0)),
    # as large as the operand's bound (XLA's result would take the update's size): n rows
    # copied into a buffer of 8
    "into_a_buffer": lambda x, i: lax.dynamic_update_slice(jnp.zeros((8, 3)), -x, (0, 0)),
}


@pytest.mark.parametrize("name", sorted(SLICES))
def test_dynamic_slices_clamp_at_the_actual_size_as_jax_does(name):
    fn = SLICES[name]
    exe = from_jax(fn, "f32[n,3]", "s32[]", bounds={"n": 8})
    for n in (1, 2, 5, 8):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3) + 1
        for i in (-1, 0, 3, 6, 30):
            _close(exe(x, np.int32(i)), jax.jit(fn)(x, np.int32(i)))


def test_an_update_bounded_past_the_operand_at_start_zero_stays_padded():
    """An update whose bound is past the operand's (the constraints hold its size within
    it): HLO refuses such an update unpadded, so it keeps the import's padding."""
    def fn(x, u, w):
        return lax.dynamic_update_slice(x, u[: u.shape[0] - w.shape[0]], (0,))
    exe = from_jax(fn, "f32[n]", "f32[a]", "f32[b]", bounds={"n": 4, "a": 8, "b": 8},
                   constraints=["b <= a - 1", "a - b <= 4", "n >= 4"])
    x, u, w = np.arange(4, dtype=np.float32), -np.arange(1, 6, dtype=np.float32), \
        np.zeros(2, np.float32)
    _close(exe(x, u, w), jax.jit(fn)(x, u, w))


@pytest.mark.parametrize("name", ["rows_at_zero", "row_of_a_scan", "into_a_buffer"])
def test_an_update_at_start_zero_of_its_dynamic_dimension_pads_nothing(name):
    """A dynamic update at start 0 along its dynamic dimension (a scan's stacked row, a
    dynamic array copied into a buffer): the imported dynamic-update-slice writes into the
    operand itself, no padded copy of it to write into and cut back (three copies of the
    whole operand); one as large as the operand's bound there is marked to keep the
    operand's size (XLA's result would take the update's). The values: the test above."""
    text = print_module(from_jax(SLICES[name], "f32[n,3]", "s32[]", bounds={"n": 8}).module)
    assert " pad(" not in text and "dynamic-update-slice(" in text
    assert (OPERAND_SIZED in text) == (name != "rows_at_zero")


# A gather's starts clamp against the actual shape too (StableHLO's gather): `mode="clip"`,
# `mode="fill"` (its mask comes after a clamped read) and indexing past the end.
GATHERS = {
    "take_clip": (lambda x, i: jnp.take(x, i, axis=0, mode="clip"), "f32[n,3]"),
    "take_fill": (lambda x, i: jnp.take(x, i, axis=0, mode="fill", fill_value=-1.0),
                  "f32[n,3]"),
    "index_pairs": (lambda x, i: x[i, i + 1], "f32[n,n]"),
    "take_minor": (lambda x, i: jnp.take(x, i.astype(jnp.uint8), axis=1, mode="clip"),
                   "f32[3,n]"),
}


@pytest.mark.parametrize("name", sorted(GATHERS))
def test_gathers_clamp_at_the_actual_size_as_jax_does(name):
    fn, shape = GATHERS[name]
    exe = from_jax(fn, shape, "s32[2]", bounds={"n": 8})
    for n in (1, 2, 5, 8):
        dims = tuple(n if d == "n" else int(d) for d in shape[4:-1].split(","))
        x = np.arange(np.prod(dims), dtype=np.float32).reshape(dims) + 1
        for i in ((0, 5), (7, 1), (2, 30)):
            _close(exe(x, np.int32(i)), jax.jit(fn)(x, np.int32(i)))


def test_an_update_as_large_as_the_operands_bound_lands_where_jax_puts_it():
    """y (m <= n, both bounded by 8) into x: XLA would place y by its bound (start 0, the
    result y's size); JAX writes y's m rows at clamp(i, 0, n - m) and keeps n rows."""
    n, m = jax.export.symbolic_shape("n, m", constraints=["n <= 8", "m <= n"])
    fn = lambda x, y, i: lax.dynamic_update_slice(x, y, (i, 0))  # noqa: E731
    exported = jax.export.export(jax.jit(fn))(
        jax.ShapeDtypeStruct((n, 3), np.float32), jax.ShapeDtypeStruct((m, 3), np.float32),
        jax.ShapeDtypeStruct((), np.int32))
    exe = dynhlo.compile(dynhlo.parse_stablehlo(exported.mlir_module_serialized))
    for rows, cut, i in ((8, 1, 5), (8, 3, 9), (3, 1, 2), (3, 3, 1), (1, 1, 0)):
        x = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3) + 1
        y = -np.arange(cut * 3, dtype=np.float32).reshape(cut, 3) - 1
        _close(exe(x, y, np.int32(i)), jax.jit(fn)(x, y, np.int32(i)))


def test_lowered_for_the_cpu_platform_on_every_machine(monkeypatch):
    """JAX lowers linear algebra to cuSOLVER's custom calls on a GPU machine; from_jax
    asks for the CPU platform, whose LAPACK calls both backends run. The machine's default
    is made cuda here (what a GPU machine reports) to show it is not used."""
    from jax._src import xla_bridge
    monkeypatch.setattr(xla_bridge, "default_backend", lambda: "cuda")
    exe = from_jax(lambda a: jnp.linalg.cholesky(a @ a.T + 4 * jnp.eye(a.shape[0])),
                   "f32[4,4]")
    assert exe.exported.platforms == ("cpu",)
    a = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)
    np.testing.assert_allclose(exe(a), np.linalg.cholesky(a @ a.T + 4 * np.eye(4)),
                               rtol=1e-4, atol=1e-5)
    assert "lapack_spotrf_ffi" in str(exe.module)


@pytest.mark.parametrize("name", ["det", "slogdet", "diagonal"])
def test_a_batch_of_matrices_of_run_time_count(name):
    """jnp.linalg.det and slogdet of a batch of b matrices: JAX's vmap of the LU's diagonal
    is a dynamic_gather of four windows, each taking the batch whole (b at run time), at
    b = 1, a middle size and the bound, against JAX (JAX's export asks b >= 1)."""
    fn = {"det": jnp.linalg.det, "slogdet": lambda a: jnp.linalg.slogdet(a)[1],
          "diagonal": lambda a: jax.vmap(jnp.diagonal)(a * 2)}[name]
    exe = from_jax(fn, "f32[b,4,4]", bounds={"b": 8})
    rng = np.random.default_rng(7)
    for b in (1, 3, 8):
        a = rng.standard_normal((b, 4, 4)).astype(np.float32)
        _close(exe(a), jax.jit(fn)(a))
    with pytest.raises(dynhlo.ArgumentError, match="a dimension 0 has size 0 < 1"):
        exe(np.zeros((0, 4, 4), np.float32))


def test_each_products_precision_reaches_the_hlo():
    """JAX's precision_config and dot algorithm become XLA's operand_precision= and
    algorithm= (the GPU's precision="default" reads them), values unchanged."""
    def fn(x, w, k):
        y = jnp.dot(x, w, precision="highest") + jnp.dot(x, w, precision=("high", "default"))
        y = y + jnp.dot(x, w) + lax.dot(x, w, precision=lax.DotAlgorithmPreset.F32_F32_F32)
        z = lax.conv_general_dilated(y[None], k, (1,), "SAME", precision="highest")
        return y, z

    exe = from_jax(fn, "f32[n,8]", "f32[8,8]", "f32[2,n,3]", bounds={"n": BOUND})
    products = [i for c in exe.module.computations for i in c.instructions
                if i.opcode.value in ("dot", "convolution")]
    assert [(i.attrs.get("operand_precision"), i.attrs.get("algorithm"))
            for i in products] == [("{highest,highest}", None), ("{high,default}", None),
                                   (None, None), (None, "dot_f32_f32_f32"),
                                   ("{highest,highest}", None)]
    rng = np.random.default_rng(4)
    args = _args(["f32[n,8]", "f32[8,8]", "f32[2,n,3]"], {"n": 7}, rng)
    _close(exe(*args), jax.jit(fn)(*args))


def test_a_bad_precision_is_refused_at_once_with_or_without_bounds():
    """from_jax checks the precision option when called, as dynhlo.jit does, also for an
    unbounded name (whose buckets compile at call time), and takes JAX's spellings."""
    for bounds in ({"n": 8}, None):
        with pytest.raises(dynhlo.UnsupportedError, match="precision='bogus'"):
            from_jax(lambda x: x @ x.T, "f32[n,4]", bounds=bounds, precision="bogus")
    exe = from_jax(lambda x: x @ x.T, "f32[n,4]", precision=jax.lax.Precision.HIGHEST)
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(exe(x), x @ x.T)
    assert exe.executable.options["precision"] == "highest"


@pytest.mark.parametrize("name", ["column", "whole_rows"])
def test_a_batch_of_windows_whole_on_an_indexed_dimension(name):
    """vmap of a dynamic slice whose window takes a run-time dimension whole while the
    indices address it (JAX writes a start there; XLA clamps it to 0): a column per matrix
    (dynamic_index_in_dim), and whole rows from a start that is clamped, at n = 1, a middle
    size and the bound, against JAX."""
    fn = {"column": lambda r, j: jax.lax.dynamic_index_in_dim(r, j, axis=1, keepdims=False),
          "whole_rows": lambda r, j: jax.lax.dynamic_slice(r, (j, j), (r.shape[0], 2))}[name]
    batched = jax.vmap(fn)
    exe = from_jax(batched, "f32[b,n,5]", "s32[b]", bounds={"b": 4, "n": 6})
    rng = np.random.default_rng(3)
    for b, n in ((1, 1), (3, 4), (4, 6)):
        a = rng.standard_normal((b, n, 5)).astype(np.float32)
        j = np.array([2, 0, 9, -1][:b], np.int32)   # past the ends: clamped as XLA does
        _close(exe(a, j), jax.jit(batched)(a, j))


@pytest.mark.parametrize("tall", [True, False])
@pytest.mark.parametrize("mode", ["values", "reduced", "full"])
def test_an_svd_of_run_time_rows(mode, tall):
    """jnp.linalg.svd of an n x 4 (or 4 x n) matrix, n on both sides of 4: s has min(n, 4)
    values (JAX's shape operands), u and vt the mode's sizes; s as JAX's, u diag(s) vt = x."""
    fn = {"values": lambda x: jnp.linalg.svd(x, compute_uv=False),
          "reduced": lambda x: jnp.linalg.svd(x, full_matrices=False),
          "full": jnp.linalg.svd}[mode]
    exe = from_jax(fn, "f32[n,4]" if tall else "f32[4,n]", bounds={"n": 7})
    rng = np.random.default_rng(3)
    for n in (1, 3, 4, 7):
        x = rng.standard_normal((n, 4) if tall else (4, n)).astype(np.float32)
        got, want = exe(x), jax.jit(fn)(x)
        if mode == "values":
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
            continue
        u, s, vt = got
        assert [a.shape for a in got] == [a.shape for a in want]
        np.testing.assert_allclose(s, want[1], rtol=1e-5, atol=1e-5)
        k = len(s)
        np.testing.assert_allclose((u[:, :k] * s) @ vt[:k], x, atol=1e-5)


def test_a_window_of_constant_start_and_size_in_a_static_dimension_is_a_slice():
    """The column blocks of a polymorphic x (an LSTM's gates: jnp.split) are
    real_dynamic_slices (their row limit is n); their columns are fixed and inside x, so
    where elementwise ops read them the import writes slices (views a kernel reads in
    place), not gathers at arange indices (a copy each). A block the result returns as it
    is (or a reshape moves) keeps the gather's dense copy."""
    def fn(x):
        a, b, c, d = jnp.split(x, 4, axis=1)
        return a * b + jnp.tanh(c), d * 2, x[:, 5:9]
    exe = from_jax(fn, "f32[n,64]", bounds={"n": 8})
    text = print_module(exe.module)
    assert text.count(" slice(arg0.1)") == 4 and text.count(" gather(") == 2, text
    rng = np.random.default_rng(2)
    for n in (1, 2, 5, 8):
        x = rng.standard_normal((n, 64)).astype(np.float32)
        _close(exe(x), jax.jit(fn)(x))
