"""Adversarial tests of the runtime side: AOT artifacts (save/load), the JIT cache, the CLI's
compile options, and the GPU backend's calls in Triton's interpreter mode.

Each test is a problem found by attacking these paths; it fails without its fix. Expected
values come from NumPy by hand or the CPU backend.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

# The root is the parameter twice, then a view of it, then a cached constant: results that
# alias arguments or constants would let writing a result corrupt the caller's data.
ALIAS_HLO = """HloModule alias
ENTRY e {
  a = f32[<=5,5] parameter(0)
  t = (f32[<=5,5]) tuple(a)
  g = f32[<=5,5] get-tuple-element(t), index=0
  c = f32[2] constant({1, 2})
  ROOT r = (f32[<=5,5], f32[<=5,5], f32[<=5,5], f32[2]) tuple(a, a, g, c)
}
"""


@pytest.fixture(scope="module")
def torch():
    """torch, with the GPU backend imported in Triton's interpreter mode (see gpucheck)."""
    from tests.support import gpucheck  # skips when torch or triton is missing
    return gpucheck.torch


def gpu_options() -> dict:
    """compile() keywords for the gpu backend here: the interpreter without a GPU."""
    from tests.support import gpucheck
    return gpucheck.GPU


def _storage(value, torch):
    if isinstance(value, torch.Tensor):
        return value.untyped_storage().data_ptr()
    return np.asarray(value).__array_interface__["data"][0]


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_gpu_results_never_alias_arguments_constants_or_each_other(torch, kind):
    exe = dynhlo.compile(ALIAS_HLO, **gpu_options())
    x = np.arange(15, dtype=np.float32).reshape(3, 5)
    arg = torch.from_numpy(x.copy()) if kind == "torch" else x.copy()
    results = exe(arg)
    pointers = [_storage(r, torch) for r in results] + [_storage(arg, torch)]
    assert len(set(pointers)) == len(pointers)
    for r in results:
        r[0] = 99  # writing a result must change nothing the caller or the module holds
    np.testing.assert_array_equal(_host(arg, torch), x)
    again = exe(arg)
    np.testing.assert_array_equal(_host(again[0], torch), x)
    np.testing.assert_array_equal(_host(again[3], torch), np.array([1, 2], np.float32))


def _host(value, torch) -> np.ndarray:
    """A NumPy copy of a result: a tensor may be on the GPU, where np.asarray cannot read."""
    return value.cpu().numpy() if isinstance(value, torch.Tensor) else np.asarray(value)


UNBOUNDED_HLO = """HloModule unb
ENTRY e {
  x = f32[?,4] parameter(0)
  ROOT y = f32[?,4] add(x, x)
}
"""


@pytest.mark.parametrize("bounds", [
    {"x": {0: "abc"}}, {"x": {"abc": 4}}, {"x": 4}, {"x": {0: 2.5}}, {"x": {0: True}},
    {"x": {0: None}}, [1], {"x": {0: 10**30}}])
def test_malformed_bounds_are_unsupported_errors_naming_the_place(bounds):
    with pytest.raises(dynhlo.UnsupportedError, match=r"bound"):
        dynhlo.compile(UNBOUNDED_HLO, bounds=bounds)


def test_bounds_take_numpy_integers_and_json_digit_keys():
    for bounds in ({0: {np.int32(0): np.int64(4)}}, {"x": {"0": 4}}):
        exe = dynhlo.compile(UNBOUNDED_HLO, bounds=bounds)
        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        np.testing.assert_array_equal(exe(x), x + x)
        with pytest.raises(dynhlo.ArgumentError):
            exe(np.ones((5, 4), np.float32))


def test_cli_bound_or_bucket_too_large_for_hlo_text_is_refused_before_writing(tmp_path):
    from dynhlo.cli import main
    module = tmp_path / "unb.hlo"
    module.write_text(UNBOUNDED_HLO)
    out = tmp_path / "unb.dynhlo"
    # 20 digits: compiled, the artifact's module could never be parsed back by load.
    assert main(["compile", str(module), "-o", str(out), "--bound",
                 "x:0=99999999999999999999"]) == 1
    assert main(["compile", str(module), "-o", str(out),
                 "--buckets", "99999999999999999999"]) == 1
    assert not out.exists()
    assert main(["compile", str(module), "-o", str(out), "--buckets", "8"]) == 0
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(dynhlo.load(out)(x), x + x)


SEED_HLO = """HloModule seed
ENTRY main {
  a = f32[<=5,5] parameter(0)
  ROOT b = f32[<=5,5] copy(a)
}
"""


def test_save_never_overwrites_hlo_text(tmp_path):
    module = tmp_path / "seed.hlo"
    module.write_text("\n  " + SEED_HLO)
    exe = dynhlo.compile(module.read_text())
    with pytest.raises(dynhlo.ArtifactError, match="refusing to overwrite .*seed.hlo"):
        exe.save(module)
    assert module.read_text() == "\n  " + SEED_HLO  # the user's module is intact
    out = tmp_path / "seed.dynhlo"
    exe.save(out)
    exe.save(out)  # an artifact may be replaced
    (tmp_path / "empty").write_bytes(b"")
    exe.save(tmp_path / "empty")  # so may an empty file (mkstemp)
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    np.testing.assert_array_equal(dynhlo.load(tmp_path / "empty")(x), x)


@pytest.mark.parametrize("path, message", [
    (None, "takes a file path"), (3, "takes a file path"), ("", "empty"),
    (".", "is a directory"), ("nodir/m.dynhlo", "directory 'nodir' does not exist")])
def test_save_and_load_bad_paths_are_artifact_errors(tmp_path, monkeypatch, path, message):
    monkeypatch.chdir(tmp_path)
    exe = dynhlo.compile(SEED_HLO)
    with pytest.raises(dynhlo.ArtifactError, match=message):
        exe.save(path)
    with pytest.raises(dynhlo.ArtifactError):
        dynhlo.load(path)
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind


def test_write_error_names_the_artifact_not_a_temporary_file(tmp_path):
    exe = dynhlo.compile(SEED_HLO)
    with pytest.raises(dynhlo.ArtifactError) as info:
        exe.save("/proc/m.dynhlo")  # a directory nothing can be created in, even as root
    assert "/proc/m.dynhlo" in str(info.value) and ".tmp" not in str(info.value)


def test_cli_compile_of_an_artifact_or_into_a_directory_says_what_to_do(tmp_path, capsys):
    from dynhlo.cli import main
    module = tmp_path / "seed.hlo"
    module.write_text(SEED_HLO)
    artifact = tmp_path / "seed.dynhlo"
    assert main(["compile", str(module), "-o", str(artifact)]) == 0
    capsys.readouterr()
    assert main(["compile", str(artifact), "-o", str(tmp_path / "again.dynhlo")]) == 1
    assert "already a compiled artifact" in capsys.readouterr().err  # was "not UTF-8 text"
    assert main(["compile", str(module), "-o", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "is a directory" in err and ".npz" not in err
    assert not (tmp_path / "again.dynhlo").exists()


@pytest.mark.parametrize("make", ["meta", "sparse"])
def test_gpu_tensor_without_dense_data_is_an_argument_error(torch, make):
    exe = dynhlo.compile(SEED_HLO, **gpu_options())
    x = torch.ones(3, 5, device="meta") if make == "meta" else torch.ones(3, 5).to_sparse()
    with pytest.raises(dynhlo.ArgumentError, match=f"parameter 0 'a' is a {make}") as info:
        exe(x)
    assert info.value.parameter == 0
    dense = torch.arange(15, dtype=torch.float32).reshape(3, 5)
    np.testing.assert_array_equal(_host(exe(dense), torch), dense.numpy())  # still usable


def test_jit_cache_dir_that_is_not_a_path_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for bad in ("", 3, True):
        with pytest.raises(dynhlo.UnsupportedError, match="cache_dir"):
            dynhlo.jit(SEED_HLO, cache_dir=bad)
    assert list(tmp_path.iterdir()) == []  # "" used to fill the working directory
    f = dynhlo.jit(SEED_HLO, cache_dir=tmp_path / "cache")
    x = np.ones((2, 5), np.float32)
    np.testing.assert_array_equal(f(x), x)


def test_gpu_interpreter_calls_from_several_threads(torch):
    import threading
    if not gpu_options()["interpret"]:
        pytest.skip("a process with a GPU runs real kernels; Triton's interpreter is for CI")
    f = dynhlo.jit(UNBOUNDED_HLO, backend="gpu", interpret=True)
    errors = []

    def work(k):
        try:
            for n in range(1, 40, 7):
                x = torch.arange(n * 4, dtype=torch.float32).reshape(n, 4) + k
                np.testing.assert_array_equal(f(x).numpy(), (x + x).numpy())
        except Exception as exc:  # noqa: BLE001 - reported below, with its thread
            errors.append((k, repr(exc)))
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_cli_gpu_cross_compile_failure_says_why_on_its_one_line(torch, tmp_path, capsys):
    from dynhlo.cli import main
    module = tmp_path / "seed.hlo"
    module.write_text(SEED_HLO)
    out = tmp_path / "seed.dynhlo"
    status = main(["compile", str(module), "-o", str(out), "--backend", "gpu",
                   "--target", "sm_9999"])
    err = capsys.readouterr().err
    assert status == 1 and not out.exists()
    # The line used to end at "failed:", the reason lost in the traceback below it.
    reason = err.split("failed:", 1)[1].strip()
    assert err.count("\n") == 1 and "sm_9999" in err and reason
    if gpu_options()["interpret"]:  # compiled by ptxas in a child, which names the target
        assert "sm_9999" in reason


def test_cli_empty_target_is_refused_not_taken_as_the_default(tmp_path, capsys):
    from dynhlo.cli import main
    module = tmp_path / "seed.hlo"
    module.write_text(SEED_HLO)
    out = tmp_path / "seed.dynhlo"
    # `--target "$ARCH"` with ARCH unset compiled for the default target (sm_90) silently.
    assert main(["compile", str(module), "-o", str(out), "--backend", "gpu",
                 "--target", ""]) == 1
    assert "--target is empty" in capsys.readouterr().err and not out.exists()
