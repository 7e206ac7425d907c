"""`dynhlo compile`, and `run` / `inspect` on artifact files.

Outputs are checked against the corpus (JAX at the actual sizes) and NumPy; most tests call
dynhlo.cli.main in-process, one goes through `python -m dynhlo` for the real exit status.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dynhlo import cli
from dynhlo.runtime.artifact import FORMAT_VERSION
from tests.support.common import MODELS, assert_one_line_error, run_cli
from tests.shapes.test_unbounded import SOFTMAX, softmax

MODEL = MODELS / "softmax_rows"


@pytest.fixture
def unbounded(tmp_path):
    path = tmp_path / "softmax.hlo"
    path.write_text(SOFTMAX)
    return path


def corpus_case(index: int = 2):
    meta = json.loads((MODEL / "cases.json").read_text())
    arrays = np.load(MODEL / "cases.npz")
    case = meta["cases"][index]
    return arrays[case["args"][0]["npz_key"]], arrays[case["outputs"][0]["npz_key"]]


def test_compile_then_run_the_artifact(tmp_path, capsys):
    out = tmp_path / "m.dynhlo"
    assert cli.main(["compile", str(MODEL / "module.hlo"), "-o", str(out)]) == 0
    assert capsys.readouterr().out == (f"wrote {out}: backend cpu, target numpy, buckets one "
                                       "program\n")
    x, want = corpus_case()
    np.save(tmp_path / "x.npy", x)
    assert cli.main(["run", str(out), str(tmp_path / "x.npy"), "-q", "-o",
                     str(tmp_path / "out.npz")]) == 0
    np.testing.assert_allclose(np.load(tmp_path / "out.npz")["out0"], want, rtol=1e-4,
                               atol=1e-4)


def test_buckets_serve_up_to_the_largest_and_refuse_more(tmp_path, unbounded, capsys):
    out = tmp_path / "u.dynhlo"
    assert cli.main(["compile", str(unbounded), "-o", str(out), "--buckets", "128,1024"]) == 0
    assert "buckets [128, 1024]" in capsys.readouterr().out
    x = np.random.default_rng(3).normal(size=(1024, 64)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    assert cli.main(["run", str(out), str(tmp_path / "x.npy"), "-q", "-o",
                     str(tmp_path / "o.npz")]) == 0
    np.testing.assert_allclose(np.load(tmp_path / "o.npz")["out0"], softmax(x), rtol=1e-5,
                               atol=1e-7)
    np.save(tmp_path / "big.npy", np.zeros((1025, 64), np.float32))
    proc = run_cli("run", str(out), str(tmp_path / "big.npy"))
    assert_one_line_error(proc, "parameter 0 'x.1' dimension 0 has size 1025 > the largest "
                                "bucket 1024")


def test_compile_an_unbounded_module_needs_bounds(tmp_path, unbounded):
    proc = run_cli("compile", str(unbounded), "-o", str(tmp_path / "u.dynhlo"))
    assert_one_line_error(proc, "parameter 0 'x.1' (f32[?,64]{1,0}) is unbounded",
                          "--bound x.1:0=1024", "--buckets 128,1024")  # its own name
    assert not (tmp_path / "u.dynhlo").exists()


def test_bound_option_and_inspect_show_what_was_compiled(tmp_path, unbounded, capsys):
    out = tmp_path / "b.dynhlo"
    assert cli.main(["compile", str(unbounded), "-o", str(out), "--bound", "x:0=16"]) == 0
    capsys.readouterr()
    assert cli.main(["inspect", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"artifact: format version {FORMAT_VERSION}, written by dynhlo" in text
    assert "backend: cpu  target: numpy" in text
    assert 'options: {"backend": "cpu", "bounds": {"x.1": {"0": 16}}}' in text
    assert "buckets: one program" in text
    assert "f32[<=16,64]{1,0}" in text


def test_inspect_a_bucketed_artifact(tmp_path, unbounded, capsys):
    out = tmp_path / "u.dynhlo"
    assert cli.main(["compile", str(unbounded), "-o", str(out), "--buckets", "8,2"]) == 0
    capsys.readouterr()
    assert cli.main(["inspect", str(out)]) == 0
    text = capsys.readouterr().out
    assert "buckets: 2, 8 (bound parameter 0 dimension 0;" in text
    assert "f32[?,64]{1,0}" in text


@pytest.mark.parametrize("argv, fragment", [
    (["--target", "sm_90"], "--target sm_90 is for the gpu backend"),
    (["--bound", "x:=16"], "--bound 'x:=16': expected NAME:DIM=BOUND"),
    # NAME=BOUND is a StableHLO file's dimension variable: on HLO text, say which form to use
    (["--bound", "x=16"], "--bound x=16: NAME=BOUND names a JAX dimension variable"),
    (["--bound", "nope:0=16"], "bounds key 'nope' names no parameter"),
    (["--bound", "x:1=16"], "dimension 1, which is not unbounded"),
    (["--buckets", "8,big"], "--buckets '8,big': expected sizes separated by commas"),
    (["--buckets", "0"], "buckets must be a non-empty list of sizes >= 1"),
])
def test_compile_option_errors(tmp_path, unbounded, capsys, argv, fragment):
    assert cli.main(["compile", str(unbounded), "-o", str(tmp_path / "u.dynhlo"), *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dynhlo: error: ") and fragment in err, err


def test_run_refuses_corrupted_or_mismatched_artifacts(tmp_path, capsys):
    out = tmp_path / "m.dynhlo"
    assert cli.main(["compile", str(MODEL / "module.hlo"), "-o", str(out)]) == 0
    assert cli.main(["run", str(out), "--backend", "gpu", "f32[1,37] {{0}}"]) == 1
    assert "artifact is for backend 'cpu', asked for 'gpu'" in capsys.readouterr().err
    data = bytearray(out.read_bytes())
    data[-5] ^= 0x01
    out.write_bytes(bytes(data))
    assert cli.main(["run", str(out), "f32[1,37] {{0}}"]) == 1
    assert "payload checksum does not match" in capsys.readouterr().err
    out.write_bytes(bytes(data[:40]))
    assert cli.main(["inspect", str(out)]) == 1
    assert "truncated artifact" in capsys.readouterr().err


def test_compile_help():
    proc = run_cli("compile", "--help")
    assert proc.returncode == 0
    for flag in ("-o ARTIFACT", "--backend", "--target", "--bound NAME:DIM=BOUND",
                 "--buckets B1,B2,..."):
        assert flag in proc.stdout
