"""The GPU backend without a GPU, and hostile input on the GPU backend (issue 8).

Without a CUDA device, backend="gpu" is an UnsupportedError that says how to ask for Triton's
interpreter (it used to run the interpreter silently: seconds per call) and the JIT never
builds cubins it could not load here; a cross-compile for a named target keeps working.
Expected values come from NumPy by hand or the CPU backend.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

import dynhlo
from dynhlo.cli import main
from tests.support.gpucheck import CLI_GPU, GPU, INTERPRET, gpu, torch  # skips without torch/triton
from tests.runtime.test_loop_limits_and_odd_inputs import (COUNT_UP, FOREVER, REDUCE_USES,
                                                            REDUCE_X, REDUCERS, reducer_expected,
                                                            reducer_module)

SEED = """HloModule seed
ENTRY main {
  a = f32[<=5,5] parameter(0)
  ROOT b = f32[<=5,5] exponential(a)
}
"""
X = np.arange(10, dtype=np.float32).reshape(2, 5) / 10


@pytest.fixture
def no_device(monkeypatch):
    """This process as if it had no CUDA device (it has none in CI)."""
    monkeypatch.setattr(gpu.mode, "cuda_present", lambda: False)


def test_gpu_backend_without_a_device_says_how_to_ask_for_the_interpreter(no_device):
    for make in (lambda: dynhlo.compile(SEED, backend="gpu"),
                 lambda: dynhlo.jit(SEED, backend="gpu", cache_dir=False)(X)):
        with pytest.raises(dynhlo.UnsupportedError, match="needs a CUDA device") as info:
            make()
        assert "interpret=True" in str(info.value) and "--interpret" in str(info.value)
    with pytest.raises(dynhlo.UnsupportedError, match="needs a CUDA device"):
        dynhlo.compile(SEED, backend="gpu", interpret=False)


@pytest.mark.skipif(not INTERPRET, reason="this process runs real kernels")
def test_asking_for_the_interpreter_and_cross_compiling_keep_working(no_device):
    np.testing.assert_allclose(dynhlo.compile(SEED, backend="gpu", interpret=True)(X),
                               np.exp(X), rtol=1e-6)
    exe = dynhlo.compile(SEED, backend="gpu", target="sm_90")  # a cross-compile: no device
    assert exe.target == "sm_90"


@pytest.mark.skipif(not INTERPRET, reason="this process runs real kernels")
def test_a_gpu_artifact_without_a_device_says_how_to_run_its_module(no_device, tmp_path):
    """Before: only "loading a gpu artifact needs a CUDA device", with no way forward."""
    path = tmp_path / "seed.dynhlo"
    dynhlo.compile(SEED, backend="gpu", target="sm_90").save(path)
    with pytest.raises(dynhlo.ArtifactError) as info:
        dynhlo.load(path)
    message = str(info.value)
    assert "needs a CUDA device (its kernels are sm_90 cubins)" in message
    assert "--backend gpu --interpret" in message and "interpret=True" in message
    # ... and the advice works
    np.testing.assert_allclose(dynhlo.compile(SEED, backend="gpu", interpret=True)(X),
                               np.exp(X), rtol=1e-6)


@pytest.mark.skipif(not INTERPRET, reason="this process runs real kernels")
def test_cli_gpu_without_a_device_needs_interpret(no_device, tmp_path, capsys):
    module = tmp_path / "seed.hlo"
    module.write_text(SEED)
    assert main(["run", str(module), "--backend", "gpu", "-q"]) == 1
    assert "--interpret" in capsys.readouterr().err
    assert main(["run", str(module), "--backend", "gpu", "--interpret",
                 "f32[1,5] {{0,0,0,0,0}}"]) == 0
    assert capsys.readouterr().out.strip() == "f32[1,5] { {1, 1, 1, 1, 1} }"
    assert main(["run", str(module), "--interpret", "f32[1,5] {{0,0,0,0,0}}"]) == 1
    assert "--interpret is for the gpu backend" in capsys.readouterr().err


@pytest.mark.skipif(not INTERPRET, reason="this process runs real kernels")
@pytest.mark.parametrize("options", [{"interpret": True}, {"target": "sm_90"}])
def test_jit_without_a_device_never_builds_cubins(no_device, tmp_path, options):
    from dynhlo import stats
    before = stats.snapshot().get("kernel_compile", 0)
    f = dynhlo.jit(SEED, backend="gpu", cache_dir=tmp_path / "cache", **options)
    np.testing.assert_allclose(f(X), np.exp(X), rtol=1e-6)
    assert f.cache_dir is None and not (tmp_path / "cache").exists()
    assert stats.snapshot().get("kernel_compile", 0) == before


def test_without_torch_the_error_names_the_install_command(monkeypatch):
    import dynhlo.backends
    monkeypatch.setitem(sys.modules, "dynhlo.backends.gpu", None)  # import fails
    monkeypatch.delattr(dynhlo.backends, "gpu", raising=False)
    with pytest.raises(dynhlo.UnsupportedError, match=r'pip install "dynhlo\[gpu\]"'):
        dynhlo.compile(SEED, backend="gpu")


def test_meta_and_sparse_tensors_are_refused_before_any_kernel_runs():
    exe = dynhlo.compile(SEED, **GPU)
    assert exe.program.fast is not None  # the lean path must check them too
    for bad, kind in [(torch.ones(2, 5, device="meta"), "meta"),
                      (torch.ones(2, 5).to_sparse(), "sparse")]:
        with pytest.raises(dynhlo.ArgumentError, match=f"is a {kind}"):
            exe(bad)


def test_max_while_iterations_on_the_gpu():
    with pytest.raises(dynhlo.IterationLimitError, match="max_while_iterations=20"):
        dynhlo.compile(FOREVER, **GPU, max_while_iterations=20)(np.int32(10))
    out = dynhlo.compile(COUNT_UP, **GPU, max_while_iterations=10)(np.int32(0))
    assert int(np.asarray(out.cpu() if hasattr(out, "cpu") else out)) == 10


@pytest.mark.parametrize("use", sorted(REDUCE_USES))
@pytest.mark.parametrize("name", sorted(REDUCERS))
def test_reducers_that_are_not_elementwise_inside_on_the_gpu(name, use):
    out = dynhlo.compile(reducer_module(name, use), **GPU)(REDUCE_X)
    np.testing.assert_array_equal(np.asarray(out), reducer_expected(name, use))


def test_cli_gpu_flags_run_a_module(tmp_path, capsys):
    module = tmp_path / "seed.hlo"
    module.write_text(SEED)
    assert main(["run", str(module), *CLI_GPU, "f32[1,5] {{0,0,0,0,0}}"]) == 0
    assert capsys.readouterr().out.strip() == "f32[1,5] { {1, 1, 1, 1, 1} }"


@pytest.mark.skipif(not INTERPRET, reason="this process runs real kernels")
def test_the_recompile_warning_points_at_the_callers_line(no_device, tmp_path):
    """Before: at dynhlo/runtime/loader.py (a fixed stacklevel, one frame short for load)."""
    path = tmp_path / "seed.dynhlo"
    dynhlo.compile(SEED, backend="gpu", interpret=True).save(path)
    for load in (lambda: dynhlo.load(path, recompile=True),
                 lambda: dynhlo.deserialize(path.read_bytes(), recompile=True)):
        with pytest.warns(RuntimeWarning, match="recompiling the artifact's program") as rec:
            exe = load()
        assert [r.filename for r in rec] == [__file__]
        np.testing.assert_allclose(exe(X), np.exp(X), rtol=1e-6)


NO_PARAMETERS = """HloModule consts
ENTRY e {
  i = f32[6] iota(), iota_dimension=0
  x = f32[6] multiply(i, i)
  n = s32[] constant(7)
  ROOT r = (f32[6], s32[]) tuple(x, n)
}
"""


@pytest.mark.parametrize("options", [{}, {"graph": True}], ids=["plain", "graph"])
def test_a_module_without_parameters_returns_numpy_as_the_cpu_backend_does(options):
    """No argument is a torch tensor, so the results are NumPy arrays, as from every call
    without tensors (they were torch tensors on the GPU backend alone)."""
    want = dynhlo.compile(NO_PARAMETERS, backend="cpu")()
    got = dynhlo.compile(NO_PARAMETERS, **GPU, **options)()
    assert [type(v) for v in got] == [np.ndarray, np.ndarray]
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-6)
    np.testing.assert_array_equal(want[0], np.arange(6, dtype=np.float32) ** 2)


def test_gpu_compile_refuses_an_element_type_torch_cannot_hold():
    """An s4 iota (no parameter carries the type) is an UnsupportedError at compile time,
    naming the instruction, not a raw TypeError when the run moves the result."""
    text = "HloModule i\nENTRY main {\n  ROOT r = s4[20] iota(), iota_dimension=0\n}"
    with pytest.raises(dynhlo.UnsupportedError, match="'r'.*s4"):
        dynhlo.compile(text, **GPU)
