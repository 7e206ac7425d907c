"""Entry dimensions a module's shape assertions require equal are one size.

jax.export writes one dimension variable used in two places (`q: f32[n,64]`, `k: f32[n,64]`,
or a square `f32[n,n]`) as two dynamic parameter dimensions and a `shape_assertion` that
they are equal. The runtime checks it before every call, so inference may take the two as
one size: `q @ k.T`'s rows and columns, the softmax of an `n x n` score matrix, are then
one kernel's domain instead of an implicit broadcast of either side (a library step that
copies a broadcast per row). Results are checked against NumPy; a call breaking the
equality gets JAX's own message, as before.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.shape_assertions import ShapeAssertion, equal_dims
from dynhlo.hlo.text.parser import copy_module
from dynhlo.shapes.dynamic import infer_module

jax = pytest.importorskip("jax")
jnp = jax.numpy


def _eq(p, d, q, e, lo=1, hi=64):
    return ShapeAssertion(("cmpEQ", ("dim", p, d, lo, hi), ("dim", q, e, lo, hi)), "", [])


def _softmax(x):
    m = x.max(-1, keepdims=True)
    e = jnp.exp(x - m)
    return e / e.sum(-1, keepdims=True)


def _np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_equal_dims_joins_chains_to_the_first():
    got = equal_dims([_eq(2, 0, 1, 0), _eq(1, 0, 0, 1),
                      ShapeAssertion(("cmpGE", ("dim", 0, 0, 1, 64), ("c", 1)), "", [])])
    assert got == {(1, 0): (0, 1), (2, 0): (0, 1)}


def test_equal_dims_leaves_other_ranges_and_forms_apart():
    assert equal_dims([_eq(1, 0, 0, 0, hi=64), ]) == {(1, 0): (0, 0)}
    assert equal_dims([ShapeAssertion(("cmpEQ", ("dim", 1, 0, 1, 32), ("dim", 0, 0, 1, 64)),
                                      "", [])]) == {}
    assert equal_dims([ShapeAssertion(("cmpEQ", ("dim", 1, 0, 1, 64), ("c", 8)), "", [])]) == {}
    assert equal_dims([ShapeAssertion(("cmpNE", ("dim", 1, 0, 1, 64), ("dim", 0, 0, 1, 64)),
                                      "", [])]) == {}


def test_a_square_parameter_is_one_size_and_its_softmax_one_kernel_each_side():
    exe = dynhlo.from_jax(_softmax, "f32[n,n]", bounds={"n": 256})
    info = infer_module(exe.module)
    (dims,) = [info.dims[p] for p in exe.module.entry.parameters]
    assert dims[0] is dims[1]
    # the module a pass copies keeps the checks, so the backend's inference sees them too
    assert copy_module(exe.module).shape_assertions == exe.module.shape_assertions
    gen = np.random.default_rng(0)
    for n in (1, 3, 100, 256):
        x = gen.standard_normal((n, n)).astype(np.float32)
        np.testing.assert_allclose(exe(x), _np_softmax(x), rtol=2e-6, atol=1e-7)
    with pytest.raises(dynhlo.ArgumentError, match="x dimension 1 has size 5, but size 'n' "
                       "is 4"):
        exe(np.zeros((4, 5), np.float32))


@pytest.mark.parametrize("reference", [False, True])
def test_attention_over_one_dimension_variable(reference):
    def attention(q, k, v):
        return _softmax(q @ k.T / 8.0) @ v
    exe = dynhlo.from_jax(attention, "f32[n,16]", "f32[n,16]", "f32[n,16]",
                          bounds={"n": 128}, reference=reference)
    info = infer_module(exe.module)
    q, k, v = (info.dims[p][0] for p in exe.module.entry.parameters)
    assert q is k is v
    gen = np.random.default_rng(1)
    for n in (1, 7, 128):
        args = [gen.standard_normal((n, 16)).astype(np.float32) for _ in range(3)]
        want = _np_softmax(args[0].astype(np.float64) @ args[1].T.astype(np.float64) / 8.0) \
            @ args[2].astype(np.float64)
        np.testing.assert_allclose(exe(*args), want, rtol=1e-4, atol=1e-5)
    with pytest.raises(dynhlo.ArgumentError, match="k dimension 0 has size 5, but size 'n' "
                       "is 4"):
        exe(*[np.zeros((n, 16), np.float32) for n in (4, 5, 4)])


def test_an_artifact_keeps_the_equal_sizes_and_their_check(tmp_path):
    compiled = dynhlo.from_jax(_softmax, "f32[n,n]", bounds={"n": 64})
    reference = dynhlo.from_jax(_softmax, "f32[n,n]", bounds={"n": 64}, reference=True)
    x = np.random.default_rng(2).standard_normal((40, 40)).astype(np.float32)
    got = compiled(x)
    # (the kernel sums a row in its own order: the reference's pairwise sum differs in
    # the last bits)
    np.testing.assert_allclose(got, reference(x), rtol=1e-6, atol=0)
    path = tmp_path / "softmax.dynhlo"
    compiled.save(path)
    loaded = dynhlo.load(path)
    np.testing.assert_array_equal(loaded(x), got)
    with pytest.raises(dynhlo.ArgumentError, match="JAX shape assertion"):
        loaded(np.zeros((4, 5), np.float32))


def test_inspect_shows_the_sizes_compile_infers(tmp_path):
    """`dynhlo inspect` of the module's text and of its artifact reads the size checks
    they carry, as compile and load do: k's rows are q's size there too."""
    from dynhlo.inspect import inspect_module
    from tests.support.common import run_cli
    exe = dynhlo.from_jax(lambda q, k: q @ k.T, "f32[n,8]", "f32[n,8]", bounds={"n": 64})
    text, artifact = tmp_path / "qk.hlo", tmp_path / "qk.dynhlo"
    text.write_text(exe.module.to_text())
    exe.save(artifact)

    def k_row(report: str) -> str:
        return next(line for line in report.splitlines()
                    if line.split()[:1] == [exe.module.entry.parameters[1].name])
    want = k_row(inspect_module(exe.module))
    q = exe.module.entry.parameters[0].name
    assert want.split()[-1] == f"[{q}.0,8]"
    for path in (text, artifact):
        shown = run_cli("inspect", str(path))
        assert shown.returncode == 0, shown.stderr
        assert k_row(shown.stdout) == want
