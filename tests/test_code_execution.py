"""Nothing dynhlo reads from disk or finds beside the user runs as code.

Two paths once did: kernel modules imported from a user-writable source cache (where
Python prefers a planted `__pycache__/*.pyc` over the checked `.py`), and the compiler child
process started with `python -m`, which puts the working directory first on the import
path. Each test plants the file and checks that nothing ran and the answer is right.
"""

from __future__ import annotations

import importlib.util
import py_compile
import sys

import numpy as np
import pytest

import dynhlo

SEED_HLO = """HloModule seed
ENTRY e {
  a = f32[<=5,5] parameter(0)
  ROOT r = f32[<=5,5] exponential(a)
}
"""


@pytest.fixture(scope="module")
def launcher():
    from tests.support import gpucheck  # noqa: F401  (skips without torch/triton; interpreter mode)
    from dynhlo.backends.gpu.compile import source
    return source


def gpu_options() -> dict:
    """compile() keywords for the gpu backend here: the interpreter without a GPU."""
    from tests.support import gpucheck
    return gpucheck.GPU


def _payload(marker) -> str:
    return f"open({str(marker)!r}, 'w').write('ran')\n"


def _run_seed_on_gpu():
    x = np.arange(10, dtype=np.float32).reshape(2, 5) / 10
    np.testing.assert_allclose(dynhlo.compile(SEED_HLO, **gpu_options())(x), np.exp(x),
                               rtol=1e-6)


def _plant_cached_kernel(folder, module_name, source, marker):
    """A `.py` holding the genuine kernel text and, beside it, bytecode that runs `marker`'s
    payload; unchecked-hash bytecode is what Python's import prefers without a look at the
    source."""
    folder.mkdir(parents=True, exist_ok=True)
    py = folder / f"{module_name}.py"
    py.write_text(_payload(marker))
    py_compile.compile(str(py), cfile=importlib.util.cache_from_source(str(py)),
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    py.write_text(source)


def test_planted_kernel_bytecode_in_the_cache_never_runs(launcher, tmp_path, monkeypatch):
    import hashlib
    sources = []
    real = launcher.load_kernel
    monkeypatch.setattr(launcher, "load_kernel",
                        lambda src, *a, **k: (sources.append(src), real(src, *a, **k))[1])
    monkeypatch.setattr(launcher, "_LOADED", {})
    # an empty cubin cache: on a GPU a cached cubin would load no kernel source at all
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path / "first"))
    _run_seed_on_gpu()
    assert sources
    cache = tmp_path / "cache"
    marker = tmp_path / "ran"
    for source in sources:  # where the old source cache imported each kernel from
        digest = hashlib.sha256(source.encode()).hexdigest()[:24]
        _plant_cached_kernel(cache / "triton_src", f"dynhlo_k_{digest}", source, marker)
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(cache))
    monkeypatch.setattr(launcher, "_LOADED", {})
    _run_seed_on_gpu()
    assert not marker.exists()


def test_gpu_kernels_write_no_source_files(launcher, tmp_path, monkeypatch):
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(launcher, "_LOADED", {})
    _run_seed_on_gpu()
    assert not any(p.suffix in (".py", ".pyc") for p in tmp_path.rglob("*"))


def test_compiler_child_imports_this_dynhlo_not_the_working_directorys(
        launcher, tmp_path, monkeypatch):
    """A `./dynhlo/` and a `./triton/` in the working directory, and PYTHONPATH pointing at
    them: the cross-compiler child must import neither (it compiles a real kernel)."""
    marker = tmp_path / "ran"
    for name in ("dynhlo", "triton"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(_payload(marker))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path / "cache"))  # compiled, not cached
    monkeypatch.syspath_prepend(str(tmp_path / "elsewhere"))
    import json
    from dynhlo.backends.gpu import mode
    from dynhlo.backends.gpu.compile import worker
    if not gpu_options()["interpret"]:
        pytest.skip("with a GPU the kernels cross-compile in this process: no child to isolate")
    monkeypatch.setattr(mode, "interpreter_active", lambda: True)
    exe = dynhlo.compile(SEED_HLO, backend="gpu", target="sm_90")
    payload = exe.program.to_payload()
    assert not marker.exists()
    meta = json.loads(payload["gpu_program.json"])
    cubin = payload[f"cubin_{meta['kernels'][0]['cubin']}.cubin"]
    assert meta["target"] == "sm_90" and cubin[:4] == b"\x7fELF"
    assert sys.modules["dynhlo"].__file__ != str(tmp_path / "dynhlo" / "__init__.py")
    assert worker.command(90)[1] == "-I"


def test_compiler_child_imports_the_standard_library_before_site_packages(
        launcher, tmp_path, monkeypatch):
    """A stale backport beside the packages (`dataclasses` 0.6 in a site-packages that
    comes before the standard library on the child's path) must not replace the standard
    module in the cross-compiler child, which imports it through Triton: the child's path
    starts with the standard library, as every Python's does (it compiles a real kernel)."""
    marker = tmp_path / "ran"
    stale = tmp_path / "site-packages"
    stale.mkdir()
    (stale / "dataclasses.py").write_text(_payload(marker) + "raise ImportError('stale')\n")
    monkeypatch.syspath_prepend(str(stale))
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path / "cache"))  # compiled, not cached
    from dynhlo.backends.gpu import mode
    if not gpu_options()["interpret"]:
        pytest.skip("with a GPU the kernels cross-compile in this process: no child")
    monkeypatch.setattr(mode, "interpreter_active", lambda: True)
    payload = dynhlo.compile(SEED_HLO, backend="gpu", target="sm_90").program.to_payload()
    assert not marker.exists()
    assert b"\x7fELF" in b"".join(v for k, v in payload.items() if k.endswith(".cubin"))
