"""from_jax on real code: pytrees of arguments and results, ShapeDtypeStruct specs with
symbolic sizes, jax.export constraints, NumPy dtype names, static arguments, and errors that
name the argument's path. Expected values are jax.jit's at the same static shapes."""

import dataclasses

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax
export = jax.export

import dynhlo  # noqa: E402
from dynhlo.frontends.jax import from_jax  # noqa: E402


def _close(got, want):
    assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want)
    for g, w in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want),
                    strict=True):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5)


def mlp(variables, x):
    """A two-layer MLP over flax linen's variables tree, returning a dict."""
    p = variables["params"]
    h = jax.nn.gelu(x @ p["Dense_0"]["kernel"] + p["Dense_0"]["bias"])
    y = h @ p["Dense_1"]["kernel"] + p["Dense_1"]["bias"]
    return {"logits": y, "probs": jax.nn.softmax(y, axis=-1), "mean": y.mean()}


MLP_SPEC = {"params": {"Dense_0": {"kernel": "f32[16,32]", "bias": "f32[32]"},
                       "Dense_1": {"kernel": "f32[32,4]", "bias": "f32[4]"}}}


def _variables(rng):
    shapes = {"Dense_0": (16, 32), "Dense_1": (32, 4)}
    return {"params": {k: {"kernel": rng.standard_normal(s).astype(np.float32) / 4,
                           "bias": rng.standard_normal(s[1]).astype(np.float32)}
                       for k, s in shapes.items()}}


@pytest.fixture(scope="module")
def mlp_exe():
    return from_jax(mlp, MLP_SPEC, "f32[b,16]", bounds={"b": 16})


def test_an_mlp_over_a_flax_params_tree_matches_jit(mlp_exe):
    rng = np.random.default_rng(0)
    variables = _variables(rng)
    for b in (1, 7, 16):
        x = rng.standard_normal((b, 16)).astype(np.float32)
        got = mlp_exe(variables, x)
        assert set(got) == {"logits", "probs", "mean"}
        _close(got, jax.jit(mlp)(variables, x))


def test_the_params_themselves_give_their_specs():
    """`from_jax(model, variables, ...)` with the initialised params: arrays (NumPy or JAX)
    are specs of their own static shape and dtype."""
    rng = np.random.default_rng(8)
    variables = jax.tree_util.tree_map(jnp.asarray, _variables(rng))
    exe = from_jax(mlp, variables, "f32[b,16]", bounds={"b": 4})
    assert [p.shape.dims for p in exe.module.entry.parameters][:2] == [(32,), (16, 32)]
    x = rng.standard_normal((3, 16)).astype(np.float32)
    _close(exe(variables, x), jax.jit(mlp)(variables, x))


def test_errors_name_the_argument_path(mlp_exe):
    variables, x = _variables(np.random.default_rng(1)), np.ones((3, 16), np.float32)
    dense1 = variables["params"]["Dense_1"]

    def call(**dense_1):
        tree = {"params": {**variables["params"], "Dense_1": dense_1}}
        with pytest.raises(dynhlo.ArgumentError) as info:
            mlp_exe(tree, x)
        return info.value

    err = call(kernel=np.ones((33, 4), np.float32), bias=dense1["bias"])
    assert str(err) == ("variables['params']['Dense_1']['kernel'] dimension 0 is static 32 "
                        "in f32[32,4], got size 33")
    assert (err.name, err.dimension, err.size, err.bound) == (
        "variables['params']['Dense_1']['kernel']", 0, 33, 32)
    err = call(kernel=dense1["kernel"].astype(np.float64), bias=dense1["bias"])
    assert str(err).startswith("variables['params']['Dense_1']['kernel'] expects f32")
    err = call(kernel=dense1["kernel"])
    assert str(err) == "variables['params']['Dense_1']['bias'] is missing from the call's " \
                       "arguments"
    err = call(kernel=dense1["kernel"], bias=dense1["bias"], scale=dense1["bias"])
    assert str(err) == "variables['params']['Dense_1']['scale'] is not in the arguments " \
                       "from_jax was given"
    with pytest.raises(dynhlo.ArgumentError) as info:
        mlp_exe(variables, np.ones((17, 16), np.float32))
    assert str(info.value) == ("x dimension 0 has size 17 > bound 16 of size 'b' in "
                               "f32[b,16]; pass at most 16")
    assert (info.value.dimension, info.value.size, info.value.bound) == (0, 17, 16)
    with pytest.raises(dynhlo.ArgumentError, match=r"x expects rank 2 \(f32\[b,16\]\), got "
                                                   r"shape \[16\]"):
        mlp_exe(variables, np.ones(16, np.float32))
    with pytest.raises(dynhlo.ArgumentError, match=r"given 2 positional argument\(s\) "
                                                   r"\(variables, x\), the call passes 1"):
        mlp_exe(x)


def test_one_size_in_two_leaves_must_agree():
    exe = from_jax(lambda t: t["a"] + t["b"][0], {"a": "f32[n]", "b": ["f32[n]"]},
                   bounds={"n": 8})
    with pytest.raises(dynhlo.ArgumentError, match=r"^t\['b'\]\[0\] dimension 0 has size 4, "
                                                   r"but size 'n' is 3 in t\['a'\] dimension 0$"):
        exe({"a": np.ones(3, np.float32), "b": [np.ones(4, np.float32)]})


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Linear:
    w: object
    b: object


def test_lists_tuples_none_and_a_registered_dataclass():
    def fn(layer, xs, extra):
        y = xs[0] @ layer.w + layer.b
        return [y, (xs[1] * 2, None)], {"sum": y.sum() + extra[0].sum()}

    exe = from_jax(fn, Linear("f32[4,3]", "f32[3]"), ("f32[n,4]", "s32[n]"), ("f32[m]", None),
                   bounds={"n": 6, "m": 5})
    rng = np.random.default_rng(2)
    layer = Linear(rng.standard_normal((4, 3)).astype(np.float32),
                   rng.standard_normal(3).astype(np.float32))
    for n, m in ((1, 1), (4, 2), (6, 5)):
        args = (layer, (rng.standard_normal((n, 4)).astype(np.float32),
                        np.arange(n, dtype=np.int32)),
                (rng.standard_normal(m).astype(np.float32), None))
        got, want = exe(*args), jax.jit(fn)(*args)
        assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want)
        for g, w in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want),
                        strict=True):
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5)
    with pytest.raises(dynhlo.ArgumentError, match=r"^layer\.w dimension 1 is static 3"):
        exe(Linear(np.ones((4, 2), np.float32), layer.b), *args[1:])


def test_shape_dtype_structs_with_symbolic_sizes():
    """Sizes from jax.export.symbolic_shape, with its own constraint as the bound (`n <= 8`:
    no bounds= needed) and an expression dim `2*n` bounded by it (16)."""
    n, = export.symbolic_shape("n", constraints=["n <= 8"])

    def fn(a, b):
        return a.reshape(2, -1).sum(0) * b

    exe = from_jax(fn, jax.ShapeDtypeStruct((2 * n,), jnp.float32),
                   jax.ShapeDtypeStruct((n,), jnp.float32))
    assert exe.bounds == {"n": 8}
    assert exe.module.entry.parameters[0].shape.dims[0] == 16
    rng = np.random.default_rng(3)
    for size in (1, 5, 8):
        a = rng.standard_normal(2 * size).astype(np.float32)
        b = rng.standard_normal(size).astype(np.float32)
        _close(exe(a, b), jax.jit(fn)(a, b))
    with pytest.raises(dynhlo.ArgumentError, match=r"^b dimension 0 has size 9 > bound 8 of "
                                                   r"size 'n'"):
        exe(np.ones(18, np.float32), np.ones(9, np.float32))


def test_symbolic_sizes_mixed_with_shape_strings_share_one_size():
    b, = export.symbolic_shape("b")
    exe = from_jax(lambda x, y: x + y, jax.ShapeDtypeStruct((b, 3), jnp.float32), "f32[b,3]",
                   bounds={"b": 4})
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(exe(x, x), x + x)
    with pytest.raises(dynhlo.ArgumentError, match="but size 'b' is 2"):
        exe(x, np.ones((3, 3), np.float32))


def first_two(x):
    """A window of 2 rows: jax.export needs b >= 2 to know it fits."""
    return lax.dynamic_slice_in_dim(x, 0, 2).sum(0) + x.mean(0)


def test_a_constraint_that_jax_export_needs():
    with pytest.raises(dynhlo.UnsupportedError, match="inconclusive"):
        from_jax(first_two, "f32[b,3]", bounds={"b": 9})
    exe = from_jax(first_two, "f32[b,3]", bounds={"b": 9}, constraints=["b >= 2"])
    rng = np.random.default_rng(4)
    for b in (2, 5, 9):
        x = rng.standard_normal((b, 3)).astype(np.float32)
        _close(exe(x), jax.jit(first_two)(x))
    with pytest.raises(dynhlo.DynamicSizeError) as info:   # an ArgumentError too
        exe(np.ones((1, 3), np.float32))
    assert isinstance(info.value, dynhlo.ArgumentError)
    assert (info.value.name, info.value.dimension, info.value.size) == ("x", 0, 1)
    assert str(info.value).startswith("x dimension 0 has size 1 < 2, the least size 'b' "
                                      "takes under constraint b >= 2 (constraints "
                                      "['b >= 2', 'b <= 9'])")


def test_a_bound_derived_from_a_constraint_between_sizes():
    """`k <= n` with n's bound 6 bounds k at 6: the module is whole (savable) with no bucket,
    and k > n is JAX's own refusal."""
    def fn(x, y):
        return x.sum(0) + y.sum(), y[:, ::-1]

    exe = from_jax(fn, "f32[n,2]", "f32[k,k]", bounds={"n": 6}, constraints=["k <= n"])
    assert exe.bounds == {"n": 6, "k": 6}
    assert exe.module.entry.parameters[1].shape.dims == (6, 6)
    rng = np.random.default_rng(5)
    for n, k in ((1, 1), (4, 3), (6, 6)):
        x = rng.standard_normal((n, 2)).astype(np.float32)
        y = rng.standard_normal((k, k)).astype(np.float32)
        _close(exe(x, y), jax.jit(fn)(x, y))
    with pytest.raises(dynhlo.ArgumentError, match="constraint k <= n"):
        exe(np.ones((2, 2), np.float32), np.ones((3, 3), np.float32))


def test_an_equality_constraint_gives_the_bound():
    exe = from_jax(lambda a, b: a[::2] + b, "f32[m]", "f32[n]", bounds={"n": 4},
                   constraints=["m == 2*n"])
    assert exe.bounds == {"m": 8, "n": 4}
    a, b = np.arange(6, dtype=np.float32), np.ones(3, np.float32)
    np.testing.assert_array_equal(exe(a, b), a[::2] + b)


def test_numpy_dtype_names_spell_the_same_shapes():
    def fn(x, i, h):
        return x[i] * 2, h.astype(jnp.float32).sum()

    exe = from_jax(fn, "float32[n,3]", "int32[k]", "bfloat16[n]", bounds={"n": 5, "k": 4})
    assert [p.shape.element_type for p in exe.module.entry.parameters] == ["f32", "s32", "bf16"]
    rng = np.random.default_rng(6)
    for n, k in ((1, 1), (3, 2), (5, 4)):
        x = rng.standard_normal((n, 3)).astype(np.float32)
        i = rng.integers(0, n, k).astype(np.int32)
        h = rng.standard_normal(n).astype(jnp.bfloat16)
        _close(exe(x, i, h), jax.jit(fn)(x, i, h))
    for bad in ("float[n]", "f4[n]", "floaty32[n]"):
        with pytest.raises(dynhlo.UnsupportedError, match="unknown element type"):
            from_jax(lambda x: x, bad, bounds={"n": 4})


def test_static_arguments_are_fixed_at_export():
    def fn(x, scale, cfg, *, act):
        y = x * scale + cfg["shift"]
        return act(y) if cfg["on"] else y

    exe = from_jax(fn, "f32[n]", 3, {"shift": "f32[]", "on": True}, kwargs={"act": jnp.tanh},
                   static_argnums=1, static_argnames="act", bounds={"n": 4})
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    cfg = {"shift": np.float32(0.5), "on": True}
    # jax.jit would trace cfg['on']: from_jax keeps a Python scalar leaf as a static value
    want = jax.jit(lambda x, shift: fn(x, 3, {"shift": shift, "on": True}, act=jnp.tanh))(
        x, cfg["shift"])
    _close(exe(x, 3, cfg, act=jnp.tanh), want)
    with pytest.raises(dynhlo.ArgumentError, match=r"^scale is static: fn was exported with 3, "
                                                   r"got 4; call from_jax again"):
        exe(x, 4, cfg, act=jnp.tanh)
    with pytest.raises(dynhlo.ArgumentError, match=r"^cfg\['on'\] is static"):
        exe(x, 3, {**cfg, "on": False}, act=jnp.tanh)
    with pytest.raises(dynhlo.UnsupportedError, match=r"^act is a PjitFunction, not an array "
                                                      r"spec.*static_argnums/static_argnames"):
        from_jax(fn, "f32[n]", 3, cfg, kwargs={"act": jnp.tanh}, static_argnums=1)


def test_a_jitted_function_with_its_own_static_argument():
    f = jax.jit(lambda x, k: jnp.roll(x, k), static_argnums=1)
    exe = from_jax(f, "f32[n]", 2, static_argnums=1, bounds={"n": 8})
    x = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(exe(x, 2), np.asarray(f(x, 2)))


def test_an_unbounded_size_in_a_tree_compiles_per_bucket():
    exe = from_jax(lambda p, x: {"y": x @ p["w"]}, {"w": "f32[3,2]"}, "f32[n,3]")
    w = np.arange(6, dtype=np.float32).reshape(3, 2)
    for n in (1, 3, 9):
        x = np.ones((n, 3), np.float32)
        np.testing.assert_allclose(exe({"w": w}, x)["y"], x @ w)
        assert exe.module.entry.parameters[1].shape.dims[0] == max(1, 1 << (n - 1).bit_length())


def test_a_saved_tree_executable_takes_and_gives_flat_leaves(tmp_path, mlp_exe):
    """dynhlo.load of a from_jax artifact is a plain HLO executable: the array leaves in
    jax.tree_util's order in, fn's output leaves in the same order out (README, save)."""
    mlp_exe.save(tmp_path / "mlp.dynhlo")
    loaded = dynhlo.load(tmp_path / "mlp.dynhlo")
    rng = np.random.default_rng(7)
    variables, x = _variables(rng), rng.standard_normal((5, 16)).astype(np.float32)
    got = loaded(*jax.tree_util.tree_leaves(variables), x)
    want = jax.tree_util.tree_leaves(jax.jit(mlp)(variables, x))  # logits, mean, probs
    assert isinstance(got, tuple) and len(got) == 3
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5)


def test_bad_specs_are_refused_by_name():
    with pytest.raises(dynhlo.UnsupportedError, match=r"static_argnums \[2\] name no "
                                                      r"positional argument of the 1 given"):
        from_jax(lambda x: x, "f32[n]", static_argnums=2)
    with pytest.raises(dynhlo.UnsupportedError, match=r"static_argnames \['k'\]"):
        from_jax(lambda x, k=1: x, "f32[n]", static_argnames="k")
    with pytest.raises(dynhlo.UnsupportedError, match="constraints takes a list of strings"):
        from_jax(lambda x: x, "f32[n]", constraints="n >= 2")
    with pytest.raises(dynhlo.UnsupportedError, match=r"constraints \['n >> 2'\]"):
        from_jax(lambda x: x, "f32[n]", constraints=["n >> 2"])
    with pytest.raises(dynhlo.UnsupportedError, match=r"constraints \['n >= 6', 'n <= 4'\]"
                       r".*Unsatisfiable"):
        from_jax(lambda x: x, "f32[n]", bounds={"n": 4}, constraints=["n >= 6"])
    a, = export.symbolic_shape("a")
    b, = export.symbolic_shape("b")
    with pytest.raises(dynhlo.UnsupportedError, match="more than one"):
        from_jax(lambda x, y: x, jax.ShapeDtypeStruct((a,), jnp.float32),
                 jax.ShapeDtypeStruct((b,), jnp.float32))
