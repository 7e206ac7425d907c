"""StableHLO and HloModuleProto files: parse_stablehlo, parse_hlo_proto(_text), and the CLI.

tests/data/frontends/ holds a jax.export module (x - mean(x, 0) + cumsum(x, 0), n <= 64) as
MLIR text and as a portable artifact, and a TensorFlow boolean_mask module as HloModuleProto
(binary and text). Expected values are NumPy by hand; tools/make_frontend_*data.py regenerate
the files.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo import cli
from tests.support.common import TESTS, run_cli

DATA = TESTS / "data" / "frontends"
SIZES = (1, 7, 64)


def center(x):
    return x - x.mean(0) + np.cumsum(x, 0)


@pytest.mark.parametrize("name", ["center.mlir", "center.mlirbc"])
def test_stablehlo_file_runs_at_every_size(name):
    pytest.importorskip("jax")
    module = dynhlo.parse_stablehlo((DATA / name).read_bytes())
    # the bound comes from the module's own constraint (n <= 64): no bounds= needed
    assert str(module.entry.parameters[0].shape).startswith("f32[<=64,4]")
    exe = dynhlo.compile(module)
    rng = np.random.default_rng(1)
    for n in SIZES:
        x = rng.standard_normal((n, 4)).astype(np.float32)
        np.testing.assert_allclose(exe(x), center(x), rtol=1e-5, atol=1e-5)


def test_stablehlo_text_bounds_by_name_and_by_index():
    pytest.importorskip("jax")
    text = (DATA / "center.mlir").read_text()
    assert str(dynhlo.parse_stablehlo(text, bounds={"n": 9}).entry.parameters[0].shape) \
        .startswith("f32[<=9,4]")
    assert str(dynhlo.parse_stablehlo(text, bounds={0: {0: 5}}).entry.parameters[0].shape) \
        .startswith("f32[<=5,4]")
    with pytest.raises(dynhlo.UnsupportedError, match="'m' is not a dimension variable"):
        dynhlo.parse_stablehlo(text, bounds={"m": 9})


def test_stablehlo_shape_assertions_are_kept():
    pytest.importorskip("jax")
    module = dynhlo.parse_stablehlo((DATA / "center.mlir").read_text())
    failures = [a.failure({(0, 0): 0}) for a in module.shape_assertions]
    assert any(f and "Expected value >= 1 for dimension variable 'n'" in f for f in failures)
    assert all(a.failure({(0, 0): 5}) is None for a in module.shape_assertions)


def test_an_executable_checks_the_modules_shape_assertions():
    """dynhlo.compile of a parsed jax.export module refuses n = 0 as JAX does (n >= 1); the
    CLI and from_jax did, the Python API ran it."""
    pytest.importorskip("jax")
    exe = dynhlo.compile(dynhlo.parse_stablehlo((DATA / "center.mlir").read_text()))
    with pytest.raises(dynhlo.ArgumentError,
                       match=r"Expected value >= 1 for dimension variable 'n'.*JAX shape"):
        exe(np.zeros((0, 4), np.float32))
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_allclose(exe(x), center(x), rtol=1e-6)


def test_stablehlo_bad_input_is_a_parse_error():
    pytest.importorskip("jax")
    with pytest.raises(dynhlo.HloParseError, match="not a StableHLO module"):
        dynhlo.parse_stablehlo("module { this is not mlir")


def test_stablehlo_unsupported_op_is_named():
    pytest.importorskip("jax")
    text = """
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = stablehlo.custom_call @my_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }"""
    with pytest.raises(dynhlo.UnsupportedError, match="custom call target 'my_kernel'"):
        dynhlo.parse_stablehlo(text)


def test_stablehlo_without_jax_names_the_extra(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_jax(name, *args, **kwargs):
        if name.startswith(("jax", "jaxlib")):
            raise ImportError(f"No module named '{name}'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_jax)
    with pytest.raises(dynhlo.UnsupportedError, match=r'pip install "dynhlo\[jax\]"'):
        dynhlo.parse_stablehlo("module {}")
    with pytest.raises(dynhlo.UnsupportedError, match=r'pip install "dynhlo\[jax\]"'):
        dynhlo.from_jax(lambda x: x, "f32[n]", bounds={"n": 4})


def test_cli_runs_a_mlir_file(tmp_path, capsys):
    pytest.importorskip("jax")
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.save(tmp_path / "x.npy", x)
    assert cli.main(["run", str(DATA / "center.mlir"), str(tmp_path / "x.npy"),
                     "-o", str(tmp_path / "out.npz")]) == 0
    np.testing.assert_allclose(np.load(tmp_path / "out.npz")["out0"], center(x), rtol=1e-6)
    assert cli.main(["inspect", str(DATA / "center.mlirbc")]) == 0
    assert "set-dimension-size" in capsys.readouterr().out


def _masked_sum(x):
    kept = x[x > 0]
    return np.float32(kept.sum() * 2), kept


def test_hlo_proto_binary_keeps_tf_bounded_dims():
    pytest.importorskip("jaxlib")
    module = dynhlo.parse_hlo_proto((DATA / "masked_sum.pb").read_bytes())
    assert "f32[<=8]" in str(module.entry.root.shape)
    exe = dynhlo.compile(module)
    x = np.array([1, -2, 3, -4, 5, 0, 0, -1], np.float32)
    total, kept = exe(x)
    want_total, want_kept = _masked_sum(x)
    assert total == want_total
    np.testing.assert_array_equal(kept, want_kept)


def test_hlo_proto_text_form():
    pytest.importorskip("jaxlib")
    pytest.importorskip("google.protobuf")
    try:
        module = dynhlo.parse_hlo_proto_text((DATA / "masked_sum.pbtxt").read_text())
    except dynhlo.UnsupportedError as exc:  # protobuf without XLA's hlo_pb2 (no tensorflow)
        pytest.skip(str(exc))
    x = np.array([-1, 2, 0.5, -3, 0, 0, 7, 1], np.float32)
    total, kept = dynhlo.compile(module)(x)
    np.testing.assert_array_equal(kept, _masked_sum(x)[1])


def test_hlo_proto_with_a_large_constant_keeps_its_values():
    # XLA's printer writes a constant of more than a few elements as `{...}` by default
    jax = pytest.importorskip("jax")
    weights = np.arange(30, dtype=np.float32).reshape(6, 5) / 7
    lowered = jax.jit(lambda x: x @ weights.T).lower(np.ones((2, 5), np.float32))
    proto = lowered.compiler_ir("hlo").as_serialized_hlo_module_proto()
    x = np.random.default_rng(0).standard_normal((2, 5)).astype(np.float32)
    got = dynhlo.compile(dynhlo.parse_hlo_proto(proto))(x)
    np.testing.assert_allclose(got, x @ weights.T, rtol=1e-6)


def test_hlo_proto_garbage_is_a_parse_error():
    pytest.importorskip("jaxlib")
    with pytest.raises(dynhlo.HloParseError, match="not an HloModuleProto"):
        dynhlo.parse_hlo_proto(b"\x01\x02garbage")


def test_cli_runs_a_pb_file(capsys):
    pytest.importorskip("jaxlib")
    assert cli.main(["run", str(DATA / "masked_sum.pb"), "f32[8] {1,-2,3,-4,5,0,0,-1}"]) == 0
    out = capsys.readouterr().out
    assert out == "(f32[], f32[3]) (18, {1, 3, 5})\n"


BOUNDED = """func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %n: tensor<i32>)
    -> (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<i32>) {
  %0 = stablehlo.add %x, %x : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  %1 = stablehlo.set_dimension_size %0, %n, dim = 0
    : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<i32>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  %2 = stablehlo.get_dimension_size %1, dim = 0 : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<i32>
  return %1, %2 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<i32>
}"""


def test_stablehlo_bounded_types_and_set_dimension_size():
    """torch_xla's and MHLO's bounded dims (`#stablehlo.bounds<8, ?>`) are `<=8`."""
    pytest.importorskip("jax")
    module = dynhlo.parse_stablehlo(BOUNDED)
    assert str(module.entry.parameters[0].shape) == "f32[<=8,4]"
    x = np.arange(20, dtype=np.float32).reshape(5, 4)
    cut, size = dynhlo.compile(module)(x, 3)
    np.testing.assert_array_equal(cut, 2 * x[:3])
    assert size == 3


BATCH_NORM = """func.func @main(%x: tensor<?x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>,
                 %m: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<?x3xf32>, tensor<2x?x3xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v)
    {epsilon = 0.001 : f32, feature_index = 1 : i64}
    : (tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
    -> tensor<?x3xf32>
  %1 = "stablehlo.broadcast"(%x) {broadcast_sizes = array<i64: 2>}
    : (tensor<?x3xf32>) -> tensor<2x?x3xf32>
  return %0, %1 : tensor<?x3xf32>, tensor<2x?x3xf32>
}"""


def test_stablehlo_batch_norm_and_broadcast():
    pytest.importorskip("jax")
    module = dynhlo.parse_stablehlo(BATCH_NORM, bounds={0: {0: 6}})
    rng = np.random.default_rng(2)
    x = rng.random((4, 3), np.float32)
    scale, offset, mean, var = (rng.random(3, np.float32) for _ in range(4))
    y, b = dynhlo.compile(module)(x, scale, offset, mean, var)
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(var + 0.001) * scale + offset,
                               rtol=1e-5)
    np.testing.assert_array_equal(b, np.broadcast_to(x, (2, 4, 3)))


def test_cli_checks_jax_shape_assertions(tmp_path):
    pytest.importorskip("jax")
    np.save(tmp_path / "empty.npy", np.zeros((0, 4), np.float32))
    done = run_cli("run", str(DATA / "center.mlir"), str(tmp_path / "empty.npy"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("dynhlo: error: Input shapes do not match the polymorphic shapes")
    # over the bound: dynhlo's message, which names the place (was JAX's constraint text,
    # "Expected '- n + 64' to be greater or equal to 0, but found -1")
    np.save(tmp_path / "big.npy", np.zeros((65, 4), np.float32))
    done = run_cli("run", str(DATA / "center.mlir"), str(tmp_path / "big.npy"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("dynhlo: error: parameter 0 ") and \
        "dimension 0 has size 65 > bound 64 in f32[<=64,4]" in done.stderr, done.stderr


PAD_CONV = """func.func @main(%x: tensor<?xf32>, %x3: tensor<1x1x?xf32>, %w: tensor<1x1x3xf32>)
    -> (tensor<?xf32>, tensor<1x1x?xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %lo = stablehlo.constant dense<[1]> : tensor<1xi32>
  %hi = stablehlo.constant dense<[2]> : tensor<1xi32>
  %in = stablehlo.constant dense<[0]> : tensor<1xi32>
  %0 = stablehlo.dynamic_pad %x, %z, %lo, %hi, %in : (tensor<?xf32>, tensor<f32>,
    tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  %pad = stablehlo.constant dense<[[1, 1]]> : tensor<1x2xi32>
  %1 = "stablehlo.dynamic_conv"(%x3, %w, %pad) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64}
    : (tensor<1x1x?xf32>, tensor<1x1x3xf32>, tensor<1x2xi32>) -> tensor<1x1x?xf32>
  return %0, %1 : tensor<?xf32>, tensor<1x1x?xf32>
}"""


def test_stablehlo_dynamic_pad_and_conv():
    pytest.importorskip("jax")
    module = dynhlo.parse_stablehlo(PAD_CONV, bounds={0: {0: 8}, 1: {2: 8}})
    x = np.arange(1, 6, dtype=np.float32)
    w = np.array([1, 2, 3], np.float32)
    padded, conv = dynhlo.compile(module)(x, x.reshape(1, 1, -1), w.reshape(1, 1, 3))
    np.testing.assert_array_equal(padded, np.pad(x, (1, 2)))
    np.testing.assert_array_equal(conv[0, 0], np.convolve(np.pad(x, 1), w[::-1], "valid"))


def test_stablehlo_type_error_has_its_line():
    pytest.importorskip("jax")
    bad = PAD_CONV.replace("%x3: tensor<1x1x?xf32>", "%x3: tensor<1x1x?xi32>")
    with pytest.raises(dynhlo.HloParseError) as info:
        dynhlo.parse_stablehlo(bad)
    assert info.value.line > 1
