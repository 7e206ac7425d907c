"""dynhlo.from_torch live: torch.export with Dims, torchax and dynhlo's import, against eager
PyTorch at sizes 1, a middle size and the bound; the argument checks and refusals. Skips where
torchax is not installed (tests/frontends/test_torch_data.py runs the stored modules)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("jax")
if importlib.util.find_spec("torchax") is None:
    pytest.skip("from_torch needs torchax", allow_module_level=True)

import dynhlo  # noqa: E402
from tests.support import torch_models as tm  # noqa: E402
from torch.export import Dim  # noqa: E402
from torch.utils import _pytree  # noqa: E402


@pytest.mark.parametrize("name,structure", [("bert", dict), ("gpt2", torch.Tensor),
                                            ("llama", tuple)])
def test_from_torch_reference_models_match_eager_pytorch(name, structure):
    model = tm.build(name)
    exe = dynhlo.from_torch(model, *tm.example(name, 2, 8),
                            dynamic_shapes=tm.dynamic_shapes(name, batch_bound=4))
    assert exe.bounds == {"B": 4, "T": tm.BOUND}
    for batch, length in ((1, 1), (3, 23), (4, tm.BOUND)):
        args = tm.example(name, batch, length)
        got = exe(*args)
        with torch.no_grad():
            want = model(*args)
        assert isinstance(got, structure)
        assert _pytree.tree_structure(got) == _pytree.tree_structure(want)
        for g, w in zip(_pytree.tree_leaves(got), _pytree.tree_leaves(want), strict=True):
            assert isinstance(g, torch.Tensor) and g.dtype == w.dtype
            torch.testing.assert_close(g, w, rtol=1e-5, atol=5e-5)


class _Scaled(torch.nn.Module):
    """A parameter, a buffer and an int64 result: the weights' order and dtypes."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4, 3))
        self.register_buffer("shift", torch.arange(3.0))

    def forward(self, x):
        y = x @ self.w + self.shift
        return y, y.argmax(-1)


def test_from_torch_numpy_in_numpy_out_and_int64_kept():
    model = _Scaled().eval()
    exe = dynhlo.from_torch(model, torch.randn(5, 4), dynamic_shapes=({0: Dim("n", max=8)},))
    x = np.random.default_rng(0).standard_normal((7, 4)).astype(np.float32)
    y, idx = exe(x)
    want_y, want_idx = model(torch.from_numpy(x))
    assert isinstance(y, np.ndarray) and idx.dtype == np.int64
    np.testing.assert_allclose(y, want_y.detach().numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(idx, want_idx.numpy())


def test_from_torch_weights_as_parameters_in_documented_order():
    model = _Scaled().eval()
    exe = dynhlo.from_torch(model, torch.randn(5, 4), dynamic_shapes=({0: Dim("n", max=8)},),
                            weights="parameters")
    assert exe.weight_names == ["w", "shift"]      # parameters, then buffers
    params = exe.module.entry.parameters
    assert [str(p.shape) for p in params] == ["f32[4,3]", "f32[3]", "f32[<=8,4]"]
    new_w = np.ones((4, 3), np.float32)
    exe.weights["w"] = new_w                        # other weights, no recompile
    x = torch.randn(2, 4)
    got, _ = exe(x)
    torch.testing.assert_close(got, x @ torch.from_numpy(new_w) + torch.arange(3.0))


def test_from_torch_bounds_give_a_dim_its_max():
    def f(x):
        return torch.cumsum(x, 0) * x.shape[0]
    exe = dynhlo.from_torch(f, torch.randn(4, 2), dynamic_shapes=({0: Dim("n", max=8)},),
                            bounds={"n": 16})
    assert exe.bounds == {"n": 16}
    x = torch.randn(16, 2)
    torch.testing.assert_close(exe(x), f(x))
    with pytest.raises(dynhlo.ArgumentError, match=r"argument 'x' dimension 0 \(Dim 'n'\) "
                                                   r"has size 17, outside 1\.\.16"):
        exe(torch.randn(17, 2))


def test_from_torch_call_errors_name_argument_dimension_and_dim():
    def f(a, b):
        return a + b
    t = Dim("t", max=8)
    exe = dynhlo.from_torch(f, torch.randn(3, 2), torch.randn(3, 2),
                            dynamic_shapes=({0: t}, {0: t}))
    with pytest.raises(dynhlo.ArgumentError, match="argument 'b' dimension 0 has size 4 but "
                                                   "argument 'a' dimension 0 has 3"):
        exe(torch.randn(3, 2), torch.randn(4, 2))
    with pytest.raises(dynhlo.ArgumentError, match="argument 'a' dimension 1 has size 3; it "
                                                   "was exported static at 2"):
        exe(torch.randn(3, 3), torch.randn(3, 3))
    with pytest.raises(dynhlo.ArgumentError, match="argument 'a' has dtype torch.float64"):
        exe(torch.randn(3, 2, dtype=torch.float64), torch.randn(3, 2))
    with pytest.raises(dynhlo.ArgumentError, match="argument 'b' has rank 1"):
        exe(torch.randn(3, 2), torch.randn(3))


def test_from_torch_refuses_a_dim_without_max_naming_it():
    with pytest.raises(dynhlo.UnsupportedError, match=r"argument 'x' dimension 0 \(Dim 'n'\) "
                                                      r"has no upper bound"):
        dynhlo.from_torch(lambda x: x * 2, torch.randn(4, 2),
                          dynamic_shapes=({0: Dim("n", min=1)},))


def test_from_torch_refuses_bounds_for_no_dim():
    with pytest.raises(dynhlo.UnsupportedError, match=r"bounds name \['m'\].*Dims: \['n'\]"):
        dynhlo.from_torch(lambda x: x * 2, torch.randn(4, 2),
                          dynamic_shapes=({0: Dim("n", max=8)},), bounds={"m": 4})


def test_from_torch_passes_on_torch_exports_refusal():
    def f(x):
        return x * 2 if x.sum() > 0 else x     # data-dependent control flow
    with pytest.raises(dynhlo.UnsupportedError, match="torch.export cannot export"):
        dynhlo.from_torch(f, torch.randn(4, 2), dynamic_shapes=({0: Dim("n", max=8)},))


def test_importing_torchax_keeps_torchs_mha_fast_path():
    # torchax turns the fast path off as it imports; from_torch puts the caller's setting back
    from dynhlo.frontends.torch_export import import_torchax
    import_torchax()
    assert torch.backends.mha.get_fastpath_enabled()


def test_from_torch_names_dims_given_by_argument_name_in_any_order():
    def f(a, b):
        return a.sum(0) + b.sum(0)
    exe = dynhlo.from_torch(f, torch.randn(3, 2), torch.randn(5, 2),
                            dynamic_shapes={"b": {0: Dim("rows_b", max=6)},
                                            "a": {0: Dim("rows_a", max=4)}})
    assert exe.bounds == {"rows_a": 4, "rows_b": 6}
    with pytest.raises(dynhlo.ArgumentError, match=r"argument 'b' dimension 0 \(Dim 'rows_b'\) "
                                                   r"has size 7, outside 1\.\.6"):
        exe(torch.randn(2, 2), torch.randn(7, 2))


class _Reductions(torch.nn.Module):
    def forward(self, x):
        return x.sum(), x.float().mean().to(torch.bfloat16), x * 2


def test_from_torch_scalar_results_stay_scalars_with_torch_arguments():
    model = _Reductions()
    exe = dynhlo.from_torch(model, torch.arange(4), dynamic_shapes=({0: Dim("n", max=8)},))
    for n in (1, 3, 8):
        x = torch.arange(n) - 2
        got, want = exe(x), model(x)
        for g, w in zip(got, want, strict=True):
            assert isinstance(g, torch.Tensor) and g.shape == w.shape and g.dtype == w.dtype
            torch.testing.assert_close(g, w)
        assert [np.shape(g) for g in exe(x.numpy())] == [(), (), (n,)]


class _Fmod(torch.nn.Module):
    def forward(self, x, y, i):
        return torch.fmod(x, y), torch.fmod(x, 2.5), torch.fmod(i, 3), torch.fmod(i, 2.5)


def test_from_torch_fmod_is_eagers_exact_remainder():
    # the quotient x / y is not exact in f32 for these: fmod must not round it
    x = torch.tensor([1e10, -1e10, 3.3, 100.0, 0.5, -2.5, -0.0, 7.5])
    y = torch.tensor([7.0, 3.0, 1.1, 0.3, float("inf"), float("-inf"), -4.0, -2.0])
    i = torch.tensor([7, -7, 5, -2**31, 0, 9, -1, 100], dtype=torch.int32)
    model = _Fmod()
    exe = dynhlo.from_torch(model, x[:4], y[:4], i[:4],
                            dynamic_shapes=({0: Dim("n", max=8)},) * 3)
    for n in (1, 5, 8):
        args = (x[:n], y[:n], i[:n])
        for g, w in zip(exe(*args), model(*args), strict=True):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g.numpy(), w.numpy())
            np.testing.assert_array_equal(np.signbit(g.numpy()), np.signbit(w.numpy()))


class _IntegerDivisions(torch.nn.Module):
    def forward(self, x, y, z):
        return (x // y, torch.div(x, y, rounding_mode="trunc"), x // 3,
                torch.div(z, 7, rounding_mode="trunc"), z // y, x.cumsum(0), x.cumprod(0),
                (x > 0).cumsum(0), z.cumsum(0), torch.topk(x, 1))


def test_from_torch_integer_division_and_cumsum_keep_eagers_dtypes_and_values():
    # int32 // int32 is int32; an int64 past 2**53 divides exactly; an int32 cumsum is int64;
    # topk's indices are int64
    x = torch.tensor([-7, 7, 2**30, 5, 100, -100, 1, 3], dtype=torch.int32)
    y = torch.tensor([2, -3, 3, 5, 7, -7, 3, -4], dtype=torch.int32)
    z = torch.tensor([2**60 + 1, -2**60 - 3, 5, -5, 7, 2**62, 3, 9])
    model = _IntegerDivisions()
    exe = dynhlo.from_torch(model, x[:4], y[:4], z[:4],
                            dynamic_shapes=({0: Dim("n", max=8)},) * 3)
    for n in (1, 3, 8):
        args = (x[:n], y[:n], z[:n])
        got, want = exe(*args), model(*args)
        got, want = (*got[:-1], *got[-1]), (*want[:-1], *want[-1])
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype
            torch.testing.assert_close(g, w, rtol=0, atol=0)


class _Kinds(torch.nn.Module):
    def forward(self, x, i):
        return x.t(), x > 0, i * 3, (x * 2).sum(dim=1)


def test_from_torch_results_of_each_kind_match_eager_call_after_call():
    """Positional tensors or arrays are the call's leaves as torch's flattening gives them;
    results come back as eager's (a transposed root, bool, int64), the checks stay."""
    model = _Kinds()
    n = Dim("n", max=16)
    exe = dynhlo.from_torch(model, torch.randn(3, 4), torch.arange(3),
                            dynamic_shapes=({0: n}, {0: n}))
    gen = torch.Generator().manual_seed(0)
    for size in (1, 5, 16, 5):
        x, i = torch.randn(size, 4, generator=gen), torch.arange(size) - 2
        got, want = exe(x, i), model(x, i)
        for g, w in zip(got, want, strict=True):
            assert isinstance(g, torch.Tensor) and g.dtype == w.dtype
            torch.testing.assert_close(g, w)
        for g, w in zip(exe(x.numpy(), i.numpy()), want, strict=True):
            assert isinstance(g, np.ndarray)
            np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-6)
    for _ in range(2):   # (the dtype a NumPy argument must have, found once)
        with pytest.raises(dynhlo.ArgumentError, match="argument 'i' has dtype int32"):
            exe(np.zeros((2, 4), np.float32), np.zeros(2, np.int32))
    with pytest.raises(dynhlo.ArgumentError, match="structured as"):
        exe(torch.randn(2, 4), [torch.arange(2)])
    with pytest.raises(dynhlo.ArgumentError, match="structured as"):
        exe(torch.randn(2, 4))
