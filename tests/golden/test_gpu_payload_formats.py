"""GPU artifacts written by earlier GPU payload formats keep loading and running.

tests/data/golden_v4_gpu_payload3_mlp.artifact was saved (container format 4, GPU payload
format 3, target sm_90) from golden_v4_gpu_payload3_mlp.hlo by the dynhlo of that payload
format and is never rewritten. Format 3 stores the graph path's program as data beside the
fusion plan; later formats derive it from the plan, and a format-3 file must still load with
its stored program. The module: 16 layers h = tanh(h @ w + b) over x: f32[<=16, 8] (each a
product with its bias and tanh as epilogue), then (h @ w, the rows' maxima of h, the actual
row count): 19 graph launches.

Without a GPU the cubins cannot launch: the device check is stood in for and each stored cubin
launches the interpreter's kernel of the same launch (a fresh interpreted compile of the module,
paired launch by launch after checking that both programs agree on buffers and sizes).
Expected values are NumPy by hand.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import INTERPRET, gpu, torch  # skips without torch/triton
from dynhlo.backends.gpu import aot
from dynhlo.backends.gpu.launch.launcher import jit_launcher
from dynhlo.runtime import artifact
from tests.support.common import DATA

GOLDEN = DATA / "golden_v4_gpu_payload3_mlp.artifact"
TEXT = DATA / "golden_v4_gpu_payload3_mlp.hlo"
PROGRAM = "bucket0.gpu_program.json"


def _expected(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> tuple:
    h = x.astype(np.float64)
    for _ in range(16):
        h = np.tanh(h @ w + b)
    return h @ w, h.max(axis=1) if len(h) else np.zeros(0), np.int32(len(x))


def _stored(blob: bytes) -> dict:
    return json.loads(artifact.read_artifact(blob).sections[PROGRAM])


def _stand_ins(meta: dict, payload_of) -> dict:
    """cubin bytes -> an interpreter launcher of the same kernel: the plan's kernels by
    position, the stored graph program's launches by position in a fresh interpreted
    compile's graph program (which must have the same buffers and sizes)."""
    fresh = dynhlo.compile(TEXT.read_text(), backend="gpu", interpret=True, graph=True).program
    assert fresh.mode == "graph", fresh.graph_refusal
    launches = fresh.graph.prog.steps
    stored = meta["graph_program"]["steps"]
    assert [(s["inputs"], s["out"], s["nsizes"]) for s in stored] == \
        [(s.inputs, s.out, s.kernel.nsizes) for s in launches]
    found = {payload_of(s["key"]): jit_launcher(step.kernel, True)
             for s, step in zip(stored, launches, strict=True)}
    found.update({payload_of(entry["cubin"]): fresh.runner.launchers[id(k)]
                  for entry, k in zip(meta["kernels"], fresh.kernels, strict=True)})
    return found


def test_the_golden_file_is_gpu_payload_format_3():
    blob = GOLDEN.read_bytes()
    stored = artifact.read_artifact(blob)
    assert (stored.format_version, stored.backend, stored.target) == (4, "gpu", "sm_90")
    meta = _stored(blob)
    assert meta["format"] == 3
    assert len(meta["graph_program"]["steps"]) == 19


@pytest.mark.skipif(not INTERPRET, reason="stands interpreter launchers in for the cubins")
def test_golden_gpu_payload_format_3_keeps_loading_and_running(monkeypatch):
    blob = GOLDEN.read_bytes()
    sections = artifact.read_artifact(blob).sections
    meta = json.loads(sections[PROGRAM])
    by_cubin = _stand_ins(meta, lambda key: sections[f"bucket0.cubin_{key}.cubin"])
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, info: by_cubin[cubin])
    monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    exe = dynhlo.load(GOLDEN)
    assert exe.program.mode == "graph", exe.program.graph_refusal
    assert len(exe.program.graph.prog.steps) == 19
    _check_runs(exe)


@pytest.mark.skipif(INTERPRET, reason="needs a CUDA device")
def test_golden_gpu_payload_format_3_runs_on_an_sm_90_device():
    major, minor = torch.cuda.get_device_capability()
    if (major, minor) != (9, 0):
        pytest.skip("the golden file's cubins are for sm_90")
    exe = dynhlo.load(GOLDEN)
    assert exe.program.mode == "graph", exe.program.graph_refusal
    _check_runs(exe)


def _check_runs(exe) -> None:
    rng = np.random.default_rng(28)
    w = (rng.standard_normal((8, 8)) / 3).astype(np.float32)
    b = (rng.standard_normal(8) / 4).astype(np.float32)
    for n in (0, 1, 16):
        x = rng.standard_normal((n, 8)).astype(np.float32)
        got = exe(x, w, b)
        want = _expected(x, w, b)
        np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(np.asarray(got[1]), want[1], rtol=1e-5, atol=1e-6)
        assert int(np.asarray(got[2])) == n


def test_the_tests_format_3_writer_writes_what_format_3_wrote():
    """tests/support/gpu_payload3.py (the format-3 payloads of the reader's tamper and fuzz
    tests) against the golden file: the same plan and graph program (cubin keys aside: they
    hash the Triton version and kernel helpers of the dynhlo that compiled them)."""
    from tests.support.gpu_payload3 import format_3_meta
    exe = dynhlo.compile(TEXT.read_text(), backend="gpu", target="sm_90")
    meta = json.loads(exe.program.to_payload()["gpu_program.json"])
    written = json.loads(json.dumps(format_3_meta(exe.program, meta)))
    golden = _stored(GOLDEN.read_bytes())

    def keyless(program: dict) -> dict:
        return dict(program, steps=[dict(s, key=None) for s in program["steps"]])
    assert written["format"] == golden["format"] == 3
    assert written["plan"] == golden["plan"]
    assert keyless(written["graph_program"]) == keyless(golden["graph_program"])
    assert set(written) == set(golden)
