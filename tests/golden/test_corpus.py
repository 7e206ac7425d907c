"""Acceptance tests of issue 2 on real input.

- Every model of tests/data/models (module.hlo and module_params_only.hlo) at every case of its
  cases.json gives JAX's outputs (computed statically at the actual sizes) within the corpus's
  tolerance rule: |got - want| <= atol + rtol * |want|, integer outputs exact, shapes equal.
- parse -> print -> parse gives the same module for every corpus module.
- The two seed modules of issue 2 behave as stated, through the API and through `dynhlo run`.
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.values import parse_literal_text
from tests.support.common import EXAMPLES, MODELS, assert_one_line_error, run_cli

VARIANTS = ("module.hlo", "module_params_only.hlo")


def _model_names() -> list[str]:
    index = MODELS / "index.json"
    return sorted(json.loads(index.read_text())["models"]) if index.exists() else []


MODEL_NAMES = _model_names()


@functools.lru_cache(maxsize=None)
def _cases(model: str) -> dict:
    return json.loads((MODELS / model / "cases.json").read_text())


@functools.lru_cache(maxsize=None)
def _arrays(model: str) -> dict:
    with np.load(MODELS / model / "cases.npz", allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files}


@functools.lru_cache(maxsize=None)
def _executable(model: str, variant: str) -> dynhlo.Executable:
    return dynhlo.compile((MODELS / model / variant).read_text())


def _corpus_cases():
    for model in MODEL_NAMES:
        for case in _cases(model)["cases"]:
            for variant in VARIANTS:
                yield pytest.param(model, variant, case["id"],
                                   id=f"{model}-{variant.split('.')[0]}-{case['id']}")


def test_corpus_is_there():
    # Without this, a missing tests/data/models would make every corpus test vanish silently.
    assert MODELS.is_dir(), f"corpus not found at {MODELS}"
    folders = sorted(p.name for p in MODELS.iterdir() if p.is_dir())
    assert folders == MODEL_NAMES and len(MODEL_NAMES) >= 6


@pytest.mark.parametrize("model,variant,case_id", list(_corpus_cases()))
def test_model_matches_jax(model, variant, case_id):
    case = _cases(model)["cases"][case_id]
    arrays = _arrays(model)
    args = [arrays[a["npz_key"]] for a in case["args"]]
    for arg, spec in zip(args, case["args"], strict=True):
        assert list(arg.shape) == spec["shape"]
    result = _executable(model, variant)(*args)
    outputs = result if isinstance(result, tuple) else (result,)
    assert isinstance(result, tuple) == _cases(model)["root_is_tuple"]
    assert len(outputs) == len(case["outputs"])
    for got, spec in zip(outputs, case["outputs"], strict=True):
        want = arrays[spec["npz_key"]]
        _assert_close(got, want, case["rtol"], case["atol"], f"output {spec['index']}")


def _assert_close(got, want, rtol, atol, what):
    got = np.asarray(got)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, expected {want.dtype}"
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    g, w = got.astype(np.float64), want.astype(np.float64)
    bad = ~(np.abs(g - w) <= atol + rtol * np.abs(w))
    assert not bad.any(), (f"{what}: {bad.sum()} of {bad.size} elements off, worst "
                           f"|got-want| = {np.nanmax(np.abs(g - w))}")


@pytest.mark.parametrize("model", MODEL_NAMES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_round_trip(model, variant):
    module = dynhlo.parse_hlo((MODELS / model / variant).read_text())
    printed = module.to_text()
    again = dynhlo.parse_hlo(printed)
    assert again == module
    assert again.to_text() == printed
    assert len(list(again.instructions())) == len(list(module.instructions())) > 0


# -- the seed modules of issue 2 ----------------------------------------------------------

SEED = (EXAMPLES / "seed.hlo").read_text()
SEED_SDS = (EXAMPLES / "seed_set_dimension_size.hlo").read_text()
X5 = np.arange(25, dtype=np.float32).reshape(5, 5) * 1.5 - 7


def _literal(array: np.ndarray) -> str:
    rows = ", ".join("{" + ", ".join(repr(float(v)) for v in row) + "}" for row in array)
    return f"f32[{array.shape[0]},{array.shape[1]}] {{{rows}}}"


def test_seed_api_full_and_smaller():
    exe = dynhlo.compile(SEED)
    out = exe(X5)
    assert out.shape == (5, 5) and out.dtype == np.float32
    np.testing.assert_array_equal(out, X5)
    out3 = exe(X5[:3])
    assert out3.shape == (3, 5)
    np.testing.assert_array_equal(out3, X5[:3])
    assert exe(X5[:0]).shape == (0, 5)


def test_seed_api_over_bound_names_everything():
    exe = dynhlo.compile(SEED)
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(np.zeros((6, 5), np.float32))
    err = info.value
    assert (err.parameter, err.name, err.dimension, err.size, err.bound) == (0, "a", 0, 6, 5)
    message = str(err)
    for fragment in ("parameter 0", "'a'", "dimension 0", "6", "bound 5"):
        assert fragment in message


def test_seed_set_dimension_size_api():
    exe = dynhlo.compile(SEED_SDS)
    out = exe(X5, np.int32(3))
    assert out.shape == (3, 5)
    np.testing.assert_array_equal(out, X5[:3])
    np.testing.assert_array_equal(exe(X5, np.int32(5)), X5)
    with pytest.raises(dynhlo.DynamicSizeError) as info:
        exe(X5, np.int32(6))
    message = str(info.value)
    assert "a_sized" in message and "6" in message and "5" in message
    with pytest.raises(dynhlo.DynamicSizeError):
        exe(X5, np.int32(-1))


def test_seed_set_dimension_size_past_the_operand_reads_zero():
    # DESIGN.md §1: data past the operand's actual size reads as zero.
    out = dynhlo.compile(SEED_SDS)(X5[:2], np.int32(4))
    np.testing.assert_array_equal(out, np.concatenate([X5[:2], np.zeros((2, 5), np.float32)]))


def test_seed_cli_smaller_input_comes_back(tmp_path):
    proc = run_cli("run", "examples/seed.hlo", _literal(X5[:3]), "-o", str(tmp_path / "o.npz"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("f32[3,5] {")
    np.testing.assert_array_equal(parse_literal_text(proc.stdout), X5[:3])
    with np.load(tmp_path / "o.npz") as saved:
        assert saved.files == ["out0"]
        np.testing.assert_array_equal(saved["out0"], X5[:3])


def test_seed_cli_npy_argument(tmp_path):
    np.save(tmp_path / "x.npy", X5)
    proc = run_cli("run", str(EXAMPLES / "seed.hlo"), str(tmp_path / "x.npy"))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(parse_literal_text(proc.stdout), X5)


def test_seed_cli_over_bound():
    proc = run_cli("run", "examples/seed.hlo", _literal(np.ones((6, 5), np.float32)))
    assert_one_line_error(proc, "parameter 0 'a'", "dimension 0", "size 6", "bound 5")
    assert proc.stdout == ""


def test_seed_set_dimension_size_cli():
    proc = run_cli("run", "examples/seed_set_dimension_size.hlo", _literal(X5), "s32[] 3")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(parse_literal_text(proc.stdout), X5[:3])
    proc = run_cli("run", "examples/seed_set_dimension_size.hlo", _literal(X5), "s32[] 6")
    assert_one_line_error(proc, "a_sized", "6")
