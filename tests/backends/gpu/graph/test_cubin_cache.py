"""The cubin cache (compile/cubins.py) is untrusted input, as the JIT cache's entries are.

An entry is read only from regular files, never through a link, and within a size bound;
it names its key and the sha256 of its cubin, so an entry moved under another key is a
miss (compiled again and rewritten), never another kernel's code launched; its directory
is made 0700, and one another user can write is not used. The compiler is a stand-in (the
real one needs Triton's: test_code_execution.py runs it) whose "cubin" names the kernel
source it was compiled from, so every answer can be checked against its kernel.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading

import pytest

import dynhlo
from tests.support.gpucheck import GPU, gpu  # noqa: F401  (skips without torch or triton)
from dynhlo.backends.gpu.compile import cubins, worker
from tests.backends.gpu.aot.test_aot import SOFTMAX

EXP = """HloModule exp
ENTRY e {
  a = f32[<=5,5] parameter(0)
  ROOT r = f32[<=5,5] exponential(a)
}
"""
NEG = EXP.replace("exponential", "negate")   # another kernel of the same launch facts


@pytest.fixture
def compiled(tmp_path, monkeypatch) -> list:
    """The cache in tmp_path/cache; the stand-in compiler's calls (kernel sources)."""
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path / "cache"))
    calls: list = []

    def compile_one(spec, cc):
        calls.append(spec["source"])
        return _cubin_of(spec["source"]), {"name": "kernel", "shared": 0,
                                           "num_warps": spec["num_warps"]}
    monkeypatch.setattr(worker, "compile_one", compile_one)
    return calls


def _cubin_of(source: str) -> bytes:
    return b"\x7fELF " + source.encode()


def _kernel(text: str):
    return dynhlo.compile(text, **GPU).program.kernels[0]


def _entry(kernel, tmp_path):
    """(cubin path, json path) of a kernel's cache entry."""
    key = cubins.spec_key(cubins.kernel_spec(kernel), 90)
    base = tmp_path / "cache" / "cubins" / key
    return base.with_suffix(".cubin"), base.with_suffix(".json")


def _in_thread(call):
    """call()'s result; one still running after a minute blocked (a FIFO read)."""
    out: dict = {}
    worker = threading.Thread(target=lambda: out.setdefault("result", call()), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "reading the cubin cache blocked"
    return out["result"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("which", ["json", "cubin"])
def test_a_fifo_in_the_cubin_cache_is_a_miss_not_a_hang(tmp_path, compiled, which):
    kernel = _kernel(SOFTMAX)
    cubins.jit_cubin(kernel, 90)
    path = _entry(kernel, tmp_path)[which == "json"]
    path.unlink()
    os.mkfifo(path)
    assert _in_thread(lambda: cubins.jit_cubin(kernel, 90))[0] == _cubin_of(kernel.source)
    assert compiled == [kernel.source] * 2
    assert stat.S_ISREG(path.stat().st_mode)   # the entry rewritten as files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_serializing_with_a_fifo_in_the_cubin_cache_does_not_hang(tmp_path, compiled,
                                                                  monkeypatch):
    """`dynhlo compile --backend gpu` (serialize) reads the cache for every kernel."""
    monkeypatch.setattr(cubins, "compile_parallel", cubins.compile_here)   # the stand-in, here
    kernel = _kernel(SOFTMAX)
    cubin, info = _entry(kernel, tmp_path)
    info.parent.mkdir(parents=True)
    os.mkfifo(info)
    exe = dynhlo.compile(SOFTMAX, backend="gpu", target="sm_90")
    blob = _in_thread(exe.serialize)
    assert _cubin_of(kernel.source) in blob and compiled == [kernel.source]


def test_a_link_in_the_cubin_cache_is_a_miss(tmp_path, compiled):
    """Entries are written by rename, never as links: a link (to another entry's files,
    to /dev/zero) is not read."""
    ours, theirs = _kernel(NEG), _kernel(EXP)
    cubins.jit_cubin(ours, 90)
    cubins.jit_cubin(theirs, 90)
    for link, target in zip(_entry(ours, tmp_path), _entry(theirs, tmp_path), strict=True):
        link.unlink()
        link.symlink_to(target)
    assert cubins.jit_cubin(ours, 90)[0] == _cubin_of(ours.source)
    assert compiled == [ours.source, theirs.source, ours.source]


def test_a_cubin_over_the_size_bound_is_a_miss(tmp_path, compiled, monkeypatch):
    kernel = _kernel(SOFTMAX)
    cubins.jit_cubin(kernel, 90)
    monkeypatch.setattr(cubins, "CUBIN_MAX", len(_cubin_of(kernel.source)) - 1)
    assert cubins.jit_cubin(kernel, 90)[0] == _cubin_of(kernel.source)
    assert compiled == [kernel.source] * 2


@pytest.mark.parametrize("copied", ["entry", "cubin"])
def test_a_cubin_cache_entry_copied_under_another_key_is_a_miss(tmp_path, compiled,
                                                                copied):
    """The exponential's cubin (with its .json, or alone) copied under the negation's key:
    the negation is compiled again, and its own cubin is what launches and what the cache
    holds from then on."""
    ours, theirs = _kernel(NEG), _kernel(EXP)
    cubins.jit_cubin(ours, 90)
    cubins.jit_cubin(theirs, 90)
    pairs = list(zip(_entry(theirs, tmp_path), _entry(ours, tmp_path), strict=True))
    for source, target in pairs[:2 if copied == "entry" else 1]:
        shutil.copy(source, target)
    assert cubins.jit_cubin(ours, 90)[0] == _cubin_of(ours.source)
    assert cubins.jit_cubin(ours, 90)[0] == _cubin_of(ours.source)
    assert compiled == [ours.source, theirs.source, ours.source]


def test_the_cubin_cache_directory_is_made_private(tmp_path, compiled):
    cubins.jit_cubin(_kernel(SOFTMAX), 90)
    for folder in (tmp_path / "cache", tmp_path / "cache" / "cubins"):
        assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0, folder


@pytest.mark.parametrize("owner", ["others-can-write", "another-user"])
def test_a_cubin_cache_directory_of_other_users_is_not_used(tmp_path, compiled, monkeypatch,
                                                           owner):
    kernel = _kernel(SOFTMAX)
    folder = tmp_path / "cache" / "cubins"
    folder.mkdir(parents=True)
    if owner == "others-can-write":
        folder.chmod(0o777)
        why = "other users can write it"
    else:
        monkeypatch.setattr(os, "getuid", lambda: folder.stat().st_uid + 1)
        why = "it belongs to user .*, not this one"
    for _ in range(2):
        with pytest.warns(RuntimeWarning, match=f"cannot use kernel cache directory "
                                                f".*cubins \\({why}"):
            assert cubins.jit_cubin(kernel, 90)[0] == _cubin_of(kernel.source)
    assert compiled == [kernel.source] * 2 and list(folder.iterdir()) == []
