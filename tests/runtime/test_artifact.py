"""AOT artifacts: round trips of the corpus through a fresh process, and every corruption case.

Expected values come from the corpus (JAX at the actual sizes) or from NumPy by hand; "loading
compiles nothing" is read off dynhlo.stats, in this process and in a fresh one.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
import sys

import numpy as np
import pytest

import dynhlo
from dynhlo import stats
from dynhlo.runtime import artifact
from tests.support.common import MODELS, REPO

MODEL_DIRS = sorted(p for p in MODELS.iterdir() if p.is_dir())

SOFTMAX_UNBOUNDED = """HloModule softmax_unbounded
max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[?,8]{1,0} parameter(0)
  ninf = f32[] constant(-inf)
  rmax = f32[?]{0} reduce(x, ninf), dimensions={1}, to_apply=max_f32
  bmax = f32[?,8]{1,0} broadcast(rmax), dimensions={0}
  sub = f32[?,8]{1,0} subtract(x, bmax)
  e = f32[?,8]{1,0} exponential(sub)
  zero = f32[] constant(0)
  rsum = f32[?]{0} reduce(e, zero), dimensions={1}, to_apply=add_f32
  bsum = f32[?,8]{1,0} broadcast(rsum), dimensions={0}
  ROOT out = f32[?,8]{1,0} divide(e, bsum)
}
"""

SMALL = """HloModule small
ENTRY main {
  a = f32[<=5,3]{1,0} parameter(0)
  ROOT b = f32[<=5,3]{0,1} negate(a)
}
"""

# Loads every artifact named on the command line, runs every case of its model and prints
# whether all matched, with the compilation counters after loading.
FRESH_PROCESS = r"""
import json, sys
import numpy as np
import dynhlo
from dynhlo import stats
results = {}
for path, model in zip(sys.argv[1::2], sys.argv[2::2], strict=True):
    exe = dynhlo.load(path)
    meta = json.load(open(model + "/cases.json"))
    arrays = np.load(model + "/cases.npz")
    ok = []
    for case in meta["cases"]:
        out = exe(*[arrays[a["npz_key"]] for a in case["args"]])
        outs = out if isinstance(out, tuple) else (out,)
        ok.append(all(o.shape == arrays[e["npz_key"]].shape and np.allclose(
            o, arrays[e["npz_key"]], rtol=case["rtol"], atol=case["atol"])
            for o, e in zip(outs, case["outputs"], strict=True)))
    results[model] = ok
print(json.dumps({"results": results, "stats": stats.snapshot()}))
"""


def python_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    return env


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def small_blob() -> bytes:
    return dynhlo.compile(SMALL).serialize()


@pytest.fixture(scope="module")
def bucketed_blob() -> bytes:
    return dynhlo.compile(SOFTMAX_UNBOUNDED, buckets=[2, 4]).serialize()


@pytest.mark.parametrize("variant", ["module.hlo", "module_params_only.hlo"])
def test_corpus_round_trips_through_a_fresh_process(tmp_path, variant):
    argv = []
    for model in MODEL_DIRS:
        path = tmp_path / f"{model.name}.dynhlo"
        dynhlo.compile((model / variant).read_text()).save(path)
        argv += [str(path), str(model)]
    proc = subprocess.run([sys.executable, "-c", FRESH_PROCESS, *argv], env=python_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["stats"].get("compile", 0) == 0
    assert report["stats"].get("kernel_compile", 0) == 0
    assert set(report["results"]) == {str(m) for m in MODEL_DIRS}
    for model, ok in report["results"].items():
        assert ok and all(ok), (model, ok)


def test_loading_compiles_nothing_in_process(tmp_path):
    exe = dynhlo.compile(SOFTMAX_UNBOUNDED, buckets=[4, 16])
    exe.save(tmp_path / "s.dynhlo")
    before = stats.snapshot()
    loaded = dynhlo.load(tmp_path / "s.dynhlo")
    x = np.random.default_rng(0).normal(size=(11, 8)).astype(np.float32)
    np.testing.assert_allclose(loaded(x), softmax(x), rtol=1e-6)
    assert stats.snapshot() == before


def test_serialize_is_deterministic_and_keeps_what_was_compiled(small_blob):
    exe = dynhlo.compile(SMALL)
    assert exe.serialize() == small_blob
    loaded = dynhlo.deserialize(small_blob, backend="cpu", target="numpy")
    assert loaded.module == exe.module
    assert (loaded.backend, loaded.target, loaded.options) == ("cpu", "numpy", {"backend": "cpu"})
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(loaded(a), -a)


def test_buckets_survive_a_round_trip(bucketed_blob):
    loaded = dynhlo.deserialize(bucketed_blob)
    assert isinstance(loaded, dynhlo.BucketedExecutable)
    assert list(loaded.executables) == [2, 4]
    assert loaded.options == {"backend": "cpu", "buckets": [2, 4]}
    assert str(loaded.executables[4].parameters[0].shape) == "f32[<=4,8]{1,0}"
    x = np.random.default_rng(1).normal(size=(3, 8)).astype(np.float32)
    np.testing.assert_allclose(loaded(x), softmax(x), rtol=1e-6)
    with pytest.raises(dynhlo.ArgumentError, match="size 5 > the largest bucket 4"):
        loaded(np.zeros((5, 8), np.float32))


def test_unbounded_module_needs_bounds_to_serialize():
    with pytest.raises(dynhlo.UnsupportedError, match=r"bounds=\{'x': \{0: 1024\}\}"):
        dynhlo.compile(SOFTMAX_UNBOUNDED).serialize()


def test_every_truncation_is_refused(bucketed_blob):
    for n in range(len(bucketed_blob)):
        with pytest.raises(dynhlo.ArtifactError):
            dynhlo.deserialize(bucketed_blob[:n])
    with pytest.raises(dynhlo.ArtifactError, match="truncated artifact: the sections end"):
        dynhlo.deserialize(bucketed_blob[:-1])


@pytest.mark.parametrize("mask", [0xFF, 0x01, 0x80])
def test_every_flipped_byte_is_refused(small_blob, mask):
    """Every byte matters: magic, version, header length and checksum, header, sections."""
    for i in range(len(small_blob)):
        corrupt = bytearray(small_blob)
        corrupt[i] ^= mask
        with pytest.raises(dynhlo.ArtifactError):
            dynhlo.deserialize(bytes(corrupt))


def test_flipped_bytes_in_a_bucketed_artifact_are_refused(bucketed_blob):
    for i in range(len(bucketed_blob)):
        corrupt = bytearray(bucketed_blob)
        corrupt[i] ^= 0x20
        with pytest.raises(dynhlo.ArtifactError):
            dynhlo.deserialize(bytes(corrupt))


def test_each_check_says_which(small_blob):
    header_end = 52 + struct.unpack_from("<Q", small_blob, 12)[0]
    cases = {
        b"\x89DYNHLX\n" + small_blob[8:]: "wrong magic",
        b"": "wrong magic",
        small_blob[:30]: "truncated artifact",
        small_blob + b"\0": "1 unexpected bytes after the last section",
        small_blob[:60] + bytes([small_blob[60] ^ 1]) + small_blob[61:]: "header checksum",
        small_blob[:-3] + bytes([small_blob[-3] ^ 1]) + small_blob[-2:]: "payload checksum",
    }
    assert header_end < len(small_blob) - 3
    for data, message in cases.items():
        with pytest.raises(dynhlo.ArtifactError, match=message):
            dynhlo.deserialize(data)


def resign(blob: bytes, version: int | None = None, edit=None) -> bytes:
    """The artifact with its header edited (and re-checksummed) or another format version:
    what a future dynhlo or a hand-made file would look like."""
    length = struct.unpack_from("<Q", blob, 12)[0]
    header = json.loads(blob[52:52 + length])
    payload = blob[52 + length:]
    if edit is not None:
        edit(header)
    body = json.dumps(header).encode()
    version = artifact.FORMAT_VERSION if version is None else version
    prelude = struct.pack("<IQ", version, len(body))
    return blob[:8] + prelude + hashlib.sha256(prelude + body).digest() + body + payload


def resection(blob: bytes, edit) -> bytes:
    """The artifact after `edit(header, sections)` (the decoded header and its sections by
    name, in order, both edited in place), every checksum made again: a hand-made file."""
    length = struct.unpack_from("<Q", blob, 12)[0]
    header = json.loads(blob[52:52 + length])
    sections, offset = {}, 52 + length
    for s in header["sections"]:
        sections[s["name"]] = blob[offset:offset + s["length"]]
        offset += s["length"]
    edit(header, sections)
    header["sections"] = [{"name": n, "length": len(b)} for n, b in sections.items()]
    payload = b"".join(sections.values())
    header["payload_sha256"] = hashlib.sha256(payload).hexdigest()
    return resign(blob[:52 + length], edit=lambda h: h.update(header)) + payload


def test_a_newer_format_version_is_refused(small_blob):
    assert dynhlo.deserialize(resign(small_blob)).module.name == "small"
    newer = artifact.FORMAT_VERSION + 1
    with pytest.raises(dynhlo.ArtifactError, match=f"format version {newer} is newer"):
        dynhlo.deserialize(resign(small_blob, version=newer))
    with pytest.raises(dynhlo.ArtifactError, match="unknown artifact format version 0"):
        dynhlo.deserialize(resign(small_blob, version=0))


def test_another_backend_or_target_is_refused(small_blob, tmp_path):
    with pytest.raises(dynhlo.ArtifactError, match="artifact is for backend 'cpu', asked for "
                                                   "'gpu'"):
        dynhlo.deserialize(small_blob, backend="gpu")
    with pytest.raises(dynhlo.ArtifactError, match="target 'numpy', asked for 'sm_90'; the "
                                                   "cpu backend has the one target"):
        dynhlo.deserialize(small_blob, target="sm_90", recompile=True)
    other_target = resign(small_blob, edit=lambda h: h.update(target="sm_80"))
    (tmp_path / "m.dynhlo").write_bytes(other_target)
    with pytest.raises(dynhlo.ArtifactError, match="cpu backend cannot load target 'sm_80'"):
        dynhlo.load(tmp_path / "m.dynhlo")


def test_recompile_on_request_when_the_backend_refuses_the_program(small_blob):
    """What a GPU artifact on a GPU of another architecture does with recompile=True."""
    other_target = resign(small_blob, edit=lambda h: h.update(target="sm_80"))
    before = stats.snapshot().get("compile", 0)
    with pytest.warns(RuntimeWarning, match="recompiling the artifact's program: .*sm_80"):
        exe = dynhlo.deserialize(other_target, recompile=True)
    assert stats.snapshot().get("compile", 0) == before + 1
    assert exe.target == "numpy"
    a = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(exe(a), -a)


@pytest.mark.parametrize("edit, message", [
    (lambda h: h.pop("backend"), "field 'backend' is missing"),
    (lambda h: h.update(backend="tpu"), "backend 'tpu', which this dynhlo does not have"),
    (lambda h: h.update(sections=h["sections"] + [{"name": "x", "length": -1}]),
     "bad section entry"),
    (lambda h: h["buckets"][0].update(module="nowhere"), "names sections that are not"),
    (lambda h: h.update(bucket_dims=[[0, 0]]), "bucket bounds .* do not fit"),
    (lambda h: h["buckets"][0]["program"].update(program="module"), "cpu backend cannot load"),
    (lambda h: h.update(fingerprint="0" * 64), "does not match its fingerprint"),
    (lambda h: h["options"].update(precision="fast"), "option precision 'fast' is not one of"),
])
def test_hand_made_headers_are_refused(small_blob, edit, message):
    with pytest.raises(dynhlo.ArtifactError, match=message):
        dynhlo.deserialize(resign(small_blob, edit=edit))


def test_a_section_that_is_not_hlo_is_refused(small_blob):
    def edit(header, sections):
        sections["module"] = b"HloModule broken\nENTRY {"
        header["fingerprint"] = hashlib.sha256(sections["module"]).hexdigest()
    blob = resection(small_blob, edit)
    with pytest.raises(dynhlo.ArtifactError, match="section 'module' does not hold a valid HLO"):
        dynhlo.deserialize(blob)


def test_file_errors_are_artifact_errors(tmp_path, small_blob):
    with pytest.raises(dynhlo.ArtifactError, match="cannot read artifact"):
        dynhlo.load(tmp_path / "missing.dynhlo")
    with pytest.raises(dynhlo.ArtifactError, match="cannot write artifact"):
        dynhlo.compile(SMALL).save(tmp_path / "no" / "such" / "dir.dynhlo")


def test_save_replaces_atomically_and_leaves_no_temporary_files(tmp_path):
    path = tmp_path / "m.dynhlo"
    path.write_bytes(artifact.MAGIC + b"an older, truncated artifact")
    dynhlo.compile(SMALL).save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.dynhlo"]
    assert dynhlo.load(path).module.name == "small"


def cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


# In a fresh process on the GPU: the bucketed artifact and the JIT's disk entries load and run
# with no compilation at all (dynhlo's nor Triton's).
FRESH_GPU = r"""
import json, sys
import numpy as np
import dynhlo
from dynhlo import stats
path, cache = sys.argv[1:3]
def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
exe = dynhlo.load(path, backend="gpu")
f = dynhlo.jit(open(path + ".hlo").read(), backend="gpu", cache_dir=cache)
ok = []
for n in (0, 1, 128, 129, 1024):
    x = np.random.default_rng(n).normal(size=(n, 8)).astype(np.float32)
    ok += [bool(np.allclose(exe(x), softmax(x), rtol=1e-5, atol=1e-6)),
           bool(np.allclose(f(x), softmax(x), rtol=1e-5, atol=1e-6))]
try:
    exe(np.zeros((1025, 8), np.float32))
    ok.append(False)
except dynhlo.ArgumentError:
    pass
print(json.dumps({"ok": ok, "compilations": f.compilations, "stats": stats.snapshot()}))
"""


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="needs a CUDA device")
def test_gpu_buckets_and_jit_entries_load_in_a_fresh_process_compiling_nothing(tmp_path):
    path = tmp_path / "softmax.dynhlo"
    dynhlo.compile(SOFTMAX_UNBOUNDED, backend="gpu", buckets=[128, 1024]).save(path)
    (tmp_path / "softmax.dynhlo.hlo").write_text(SOFTMAX_UNBOUNDED)
    f = dynhlo.jit(SOFTMAX_UNBOUNDED, backend="gpu", cache_dir=tmp_path / "cache")
    for n in (0, 1, 128, 129, 1024):
        f(np.zeros((n, 8), np.float32))
    assert f.compilations == 4  # buckets 1, 1, 128, 256, 1024: four distinct
    proc = subprocess.run([sys.executable, "-c", FRESH_GPU, str(path), str(tmp_path / "cache")],
                          env=python_env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] and all(report["ok"]), report
    assert report["compilations"] == 0
    assert report["stats"].get("compile", 0) == 0
    assert report["stats"].get("kernel_compile", 0) == 0
