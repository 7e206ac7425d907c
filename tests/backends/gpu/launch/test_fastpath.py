"""The GPU backend's lean call path: per-shape launch plans, the direct launch, tensor checks.

In CI (no GPU) kernels run in Triton's interpreter on CPU tensors; the direct C launch is
then off, so a test stands in for it with a function that maps the pointers it is given
back to their tensors and launches the kernel in the interpreter. Expected values come
from the CPU backend.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, torch  # skips without torch/triton; picks interpreter mode
from tests.support.common import MODELS

needs_models = pytest.mark.skipif(not MODELS.is_dir(), reason="needs the shared corpus")
interpreter_only = pytest.mark.skipif(torch.cuda.is_available(),
                                      reason="stands in for the C launcher in the interpreter")

ADD = """HloModule m
ENTRY main {
  a = f32[<=8,4] parameter(0)
  b = f32[<=8,4] parameter(1)
  ROOT c = f32[<=8,4] add(a, b)
}
"""


def _device():
    return "cuda" if torch.cuda.is_available() else "cpu"


def _close(got, want, tol=1e-5):
    np.testing.assert_allclose(np.asarray(got.cpu()), np.asarray(want), rtol=tol, atol=tol)


@needs_models
def test_each_shape_is_planned_once_and_sizes_do_not_leak_between_plans():
    text = (MODELS / "softmax_rows" / "module.hlo").read_text()
    exe, ref = dynhlo.compile(text, **GPU, graph=False), \
        dynhlo.compile(text, backend="cpu")  # the per-launch fast path under test
    rng = np.random.default_rng(3)
    for n in (5, 3, 5, 0, 3, 100, 1):
        x = rng.standard_normal((n, 37)).astype(np.float32)
        _close(exe(torch.from_numpy(x).to(_device())), ref(x))
    assert len(exe.program.fast.specialized) == 5  # 5, 3, 0, 100, 1


def test_sizes_that_differ_follow_xla_on_every_call_not_only_the_first():
    """XLA's elementwise rule: the smaller size wins, a size of 1 broadcasts."""
    exe = dynhlo.compile(ADD, **GPU)
    a3, a4 = torch.ones(3, 4, device=_device()), torch.ones(4, 4, device=_device())
    a1 = torch.full((1, 4), 5.0, device=_device())
    _close(exe(a3, a3), np.full((3, 4), 2, np.float32))
    for _ in range(2):
        _close(exe(a3, a4), np.full((3, 4), 2, np.float32))
        _close(exe(a1, a4), np.full((4, 4), 6, np.float32))
    _close(exe(a4, a4), np.full((4, 4), 2, np.float32))


@pytest.mark.parametrize("bad, message", [
    (lambda d: torch.ones(3, 4, dtype=torch.float64, device=d), "expects f32"),
    (lambda d: torch.ones(9, 4, device=d), "size 9 > bound 8"),
    (lambda d: torch.ones(3, 5, device=d), "dimension 1 is static 4"),
    (lambda d: torch.ones(3, 4, 1, device=d), "expects rank 2"),
])
def test_tensors_that_do_not_fit_are_argument_errors_after_tensors_that_did(bad, message):
    exe = dynhlo.compile(ADD, **GPU)
    good = torch.ones(3, 4, device=_device())
    exe(good, good)  # the fast check has seen f32 tensors of this class
    with pytest.raises(dynhlo.ArgumentError, match=message):
        exe(good, bad(_device()))


def test_non_contiguous_tensor_arguments_are_read_as_their_logical_values():
    exe = dynhlo.compile(ADD, **GPU)
    a = torch.arange(32, dtype=torch.float32, device=_device()).reshape(4, 8).T[:6]  # strided
    b = torch.ones(6, 4, device=_device())
    for _ in range(2):  # the first call plans, the second runs the plan
        _close(exe(a, b), a.cpu().numpy() + 1)


@needs_models
@interpreter_only
@pytest.mark.parametrize("name, shapes", [
    ("layernorm_residual", [(7, 512), (512,), (512,)]),
    ("mlp", None),
])
def test_direct_launch_gets_pointers_sizes_and_constexprs_in_kernel_order(name, shapes,
                                                                           monkeypatch):
    from dynhlo.backends.gpu.launch import fastpath
    text = (MODELS / name / "module.hlo").read_text()
    exe, ref = dynhlo.compile(text, **GPU), dynhlo.compile(text, backend="cpu")
    assert exe.program.fast is not None and exe.program.kernels
    tensors: dict[int, torch.Tensor] = {}

    def empty(*args, **kwargs):  # kernel outputs: remember them by their pointer
        out = torch.empty_strided(*args, **kwargs)
        tensors[out.data_ptr()] = out
        return out
    monkeypatch.setattr(fastpath, "torch", _TorchWith(empty))
    for step in exe.program.fast.steps:  # dot results and views: remember them too
        if isinstance(step, fastpath._LibraryStep):
            step.fn = _remembering(step.fn, tensors)
    for launcher in exe.program.runner.launchers.values():
        launcher.direct = _interpreting_stand_in(launcher, tensors)
    rng = np.random.default_rng(4)
    if shapes is None:
        shapes = [tuple(5 if d else s
                        for d, s in zip(p.shape.dynamic, p.shape.dims, strict=True))
                  for p in exe.parameters]
    args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    targs = [torch.from_numpy(a) for a in args]
    for t in targs:
        tensors[t.data_ptr()] = t
    _close(exe(*targs), ref(*args))
    _close(exe(*targs), ref(*args))  # the same plan again


def _interpreting_stand_in(launcher, tensors: dict):
    """A direct launch (launch/launcher.py: `fire(grid0, stream, pointers, sizes)`) that maps
    pointers back to tensors and interprets the kernel."""
    count = sum(1 for a in launcher.fn.arg_names if a == "out" or a.startswith("in"))

    def fire(grid0, stream, pointers, sizes):
        assert len(pointers) == count
        launcher.fn[(grid0,)](*[tensors[p] for p in pointers], *sizes, **launcher.kernel.block)
    return fire


def test_the_one_direct_launch_passes_grid_stream_head_pointers_sizes_constexprs_in_order():
    """Triton 3.6's C launcher signature: (grid0, 1, 1, stream, function, cooperative, pdl,
    None, None, packed metadata, None, None, None, *args)."""
    from dynhlo.backends.gpu.launch.launcher import direct_launch
    calls = []

    class Run:
        launch_cooperative_grid, launch_pdl = "coop", "pdl"
        global_scratch_size = profile_scratch_size = 0

        def launch(self, *args):
            calls.append(args)

    class Compiled:
        run, function, packed_metadata = Run(), "fn", "meta"

    fire = direct_launch(Compiled(), (1024,))
    fire(7, 99, [1000, 2000], (5, 6))
    assert calls == [(7, 1, 1, 99, "fn", "coop", "pdl", None, None, "meta", None, None, None,
                      1000, 2000, 5, 6, 1024)]


def _remembering(fn, tensors: dict):
    def run(*args):
        out = fn(*args)
        tensors[out.data_ptr()] = out
        return out
    return run


class _TorchWith:
    """torch with empty_strided replaced (seen by fastpath closures made while patched)."""

    def __init__(self, empty):
        self.empty_strided = empty

    def __getattr__(self, name):
        return getattr(torch, name)


# --- real GPU ------------------------------------------------------------------------------

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


@pytest.mark.gpu
@needs_cuda
def test_gpu_plans_and_checks_on_the_device():
    test_each_shape_is_planned_once_and_sizes_do_not_leak_between_plans()
    test_sizes_that_differ_follow_xla_on_every_call_not_only_the_first()
    test_non_contiguous_tensor_arguments_are_read_as_their_logical_values()
    test_tensors_that_do_not_fit_are_argument_errors_after_tensors_that_did(
        lambda d: torch.ones(9, 4, device=d), "size 9 > bound 8")


@pytest.mark.gpu
@needs_cuda
@needs_models
@pytest.mark.parametrize("name", ["mlp", "attention", "layernorm_residual", "softmax_rows"])
def test_gpu_direct_launches_match_the_cpu_backend_at_every_size(name):
    """After the first call every kernel launches through Triton's C launcher directly."""
    text = (MODELS / name / "module.hlo").read_text()
    exe, ref = dynhlo.compile(text, **GPU), dynhlo.compile(text, backend="cpu")
    rng = np.random.default_rng(6)
    bound = next(d for p in exe.parameters
                 for d, dyn in zip(p.shape.dims, p.shape.dynamic, strict=True)
                 if dyn)
    for n in (bound, 1, 0, bound // 3 + 1, bound, 1):
        args = [rng.standard_normal([n if dyn else s for s, dyn in
                                     zip(p.shape.dims, p.shape.dynamic, strict=True)]
                                    ).astype(np.float32)
                for p in exe.parameters]
        _close(exe(*[torch.from_numpy(a).to(_device()) for a in args]), ref(*args), 1e-4)
    launchers = exe.program.runner.launchers.values()
    assert launchers and all(launcher.direct is not None for launcher in launchers)
