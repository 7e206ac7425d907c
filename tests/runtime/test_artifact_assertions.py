"""JAX's shape assertions (n >= 1) survive artifacts, bounds, buckets and the JIT's disk cache.

A jax.export module refuses n = 0 (JAX's own message; jax.export refuses it the same way);
before format version 2 a saved and loaded executable, one compiled with bounds= and a JIT
disk entry ran it silently. Stored assertions are untrusted: every malformed form is an
ArtifactError, never an exception of another kind, and nothing stored is run as code.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import dynhlo
from tests.support.common import run_cli
from tests.support.deadline import deadline
from dynhlo.hlo.text.printer import print_module
from dynhlo.runtime import stored_assertions
from tests.runtime.test_artifact import resection, resign
from tests.runtime.test_fuzz_artifacts import WEIRD, mutate_json, nested_dumps
from tests.frontends.test_files import DATA, center

pytest.importorskip("jax")   # parse_stablehlo reads MLIR with jaxlib's bindings

# jax.export of `lambda x: jnp.sin(x).sum(axis=1)` at f32[n, 4] with no bound on n (jax
# 0.10.2, locations dropped): its one assertion is JAX's n >= 1.
SIN_SUM = """module @jit__lambda attributes {jax.uses_shape_polymorphism = true,
    mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x4xf32>) -> (tensor<?xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message =
      "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'n'. Obtained dimension variables: 'n' = {0}.",
      has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0)
      : (tensor<i32>, tensor<?x4xf32>) -> tensor<?xf32>
    return %2 : tensor<?xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "n"},
      %arg1: tensor<?x4xf32>) -> (tensor<?xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.sine %arg1 : tensor<?x4xf32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1]
      : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
    return %1 : tensor<?xf32>
  }
}
"""

EMPTY = np.zeros((0, 4), np.float32)
N_GE_1 = "Expected value >= 1 for dimension variable 'n'"


def refusal(exe) -> str:
    """The message of the ArgumentError `exe` raises for n = 0 (it must raise one)."""
    with pytest.raises(dynhlo.ArgumentError, match=N_GE_1) as info:
        exe(EMPTY)
    return str(info.value)


@pytest.fixture(scope="module")
def center_exe():
    return dynhlo.compile(dynhlo.parse_stablehlo((DATA / "center.mlir").read_text()))


@pytest.fixture(scope="module")
def sin_sum():
    return dynhlo.parse_stablehlo(SIN_SUM)


def test_a_saved_and_loaded_executable_refuses_n_0_as_before(center_exe, tmp_path):
    before = refusal(center_exe)
    assert "'n' = 0 from specification" in before and before.endswith("(JAX shape assertion)")
    center_exe.save(tmp_path / "c.dynhlo")
    loaded = dynhlo.load(tmp_path / "c.dynhlo")
    assert refusal(loaded) == before
    assert loaded.module.shape_assertions == center_exe.module.shape_assertions
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_allclose(loaded(x), center(x), rtol=1e-6)
    # the constraint n <= 64 is an assertion too; the bound refuses first, in dynhlo's words
    with pytest.raises(dynhlo.ArgumentError, match="size 65 > bound 64"):
        loaded(np.zeros((65, 4), np.float32))


@pytest.mark.parametrize("options", [{"buckets": [4, 8]}, {"bounds": {0: {0: 8}}}],
                         ids=["buckets", "bounds"])
def test_bucketed_and_bounded_executables_keep_the_assertions(sin_sum, options):
    """compile(..., bounds=) lost them before saving too (the bounded copy of the module
    dropped them); buckets kept them in memory and lost them in the artifact."""
    exe = dynhlo.compile(sin_sum, **options)
    before = refusal(exe)
    loaded = dynhlo.deserialize(exe.serialize())
    assert type(loaded) is type(exe)
    assert refusal(loaded) == before
    for n in (1, 3, 8):
        x = np.linspace(-2, 2, 4 * n, dtype=np.float32).reshape(n, 4)
        np.testing.assert_allclose(loaded(x), np.sin(x).sum(axis=1), rtol=1e-5, atol=1e-6)


def test_the_cli_compiled_artifact_refuses_n_0(tmp_path):
    out = tmp_path / "c.dynhlo"
    np.save(tmp_path / "empty.npy", EMPTY)
    assert run_cli("compile", str(DATA / "center.mlir"), "-o", str(out)).returncode == 0
    done = run_cli("run", str(out), str(tmp_path / "empty.npy"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("dynhlo: error: Input shapes do not match the polymorphic")
    assert N_GE_1 in done.stderr
    inspected = run_cli("inspect", str(out))
    assert "shape assertions: 2 (" in inspected.stdout, inspected.stdout


def test_a_jit_disk_entry_keeps_the_assertions(sin_sum, tmp_path):
    first = dynhlo.jit(sin_sum, cache_dir=tmp_path)
    before = refusal(first)
    x = np.ones((3, 4), np.float32)
    np.testing.assert_allclose(first(x), np.full(3, 4 * np.sin(1.0)), rtol=1e-6)
    again = dynhlo.jit(sin_sum, cache_dir=tmp_path)
    assert refusal(again) == before
    np.testing.assert_allclose(again(x), np.full(3, 4 * np.sin(1.0)), rtol=1e-6)
    assert (again.compilations, again.disk_loads) == (0, 1)
    # the same HLO without JAX's assertions is another entry: it runs n = 0 (an empty result)
    bare = dynhlo.parse_hlo(print_module(sin_sum))
    bare.attrs.pop("frontend_attributes")   # where its printed text keeps them
    plain = dynhlo.jit(bare, cache_dir=tmp_path)
    assert plain(EMPTY).shape == (0,)
    assert (plain.compilations, plain.disk_loads) == (1, 0)


def test_the_stored_form_round_trips(center_exe, sin_sum):
    """Infinite ends of a range (an unbounded n) are stored as null: JSON has no infinity."""
    for module in (center_exe.module, sin_sum):
        data = stored_assertions.to_data(module.shape_assertions)
        assert json.loads(json.dumps(data, allow_nan=False)) == data
        assert stored_assertions.from_data(data, module) == module.shape_assertions
    assert stored_assertions.to_data(sin_sum.shape_assertions)[0]["pred"] == \
        ["cmpGE", ["dim", 0, 0, 0, None], ["c", 1]]


def test_a_version_1_artifact_has_no_assertions_and_still_loads(center_exe):
    """Format version 1 did not store them: such a file loads as it always did."""
    def as_v1(header):
        del header["shape_assertions"]
    blob = resign(center_exe.serialize(), version=1, edit=as_v1)
    loaded = dynhlo.deserialize(blob)
    assert loaded.module.shape_assertions == []
    assert loaded(EMPTY).shape == (0, 4)
    with pytest.raises(dynhlo.ArtifactError, match="field 'shape_assertions' is missing"):
        dynhlo.deserialize(resign(center_exe.serialize(), edit=as_v1))


def _with_assertions(blob: bytes, data) -> bytes:
    """`blob` with its stored assertions replaced by `data` (a hand-made, re-signed file)."""
    def edit(header, sections):
        header["shape_assertions"] = data
    return resection(blob, edit)


def _good(pred=None, **changes) -> list:
    one = {"pred": ["cmpGE", ["dim", 0, 0, 0, 64], ["c", 1]] if pred is None else pred,
           "message": "n is {0}", "args": [["dim", 0, 0, 0, 64]]}
    return [{**one, **changes}]


def _nested(depth: int) -> list:
    expr = ["c", 1]
    for _ in range(depth):
        expr = ["neg", expr]
    return expr


def _products(depth: int, leaf: list) -> list:
    """A balanced tree of products of 2**depth `leaf`s."""
    return leaf if depth == 0 else ["mul", _products(depth - 1, leaf),
                                    _products(depth - 1, leaf)]


MALFORMED = {
    "not-a-list": ({"pred": 1}, "not a list"),
    "not-an-object": ([["cmpGE"]], "exactly the keys"),
    "extra-key": (_good(code="__import__('os')"), "exactly the keys"),
    "message-not-str": (_good(message=7), "the message is not a string"),
    "message-huge": (_good(message="x" * 70000), "the message is not a string"),
    "args-not-list": (_good(args="{0}"), "args is not a list"),
    "args-many": (_good(args=[["c", 1]] * 65), "args is not a list"),
    "unknown-op": (_good(["pow", ["c", 2], ["c", 99999]]), "unknown operation 'pow'"),
    "python-code": (_good(["__import__('os').system('echo pwned')"]), "unknown operation"),
    "arity": (_good(["add", ["c", 1]]), "'add' takes 2 operands, got 1"),
    "arity-select": (_good(["select", ["c", 1], ["c", 2]]), "'select' takes 3 operands"),
    "empty-expr": (_good([]), "is not \\[kind, ...\\]"),
    "kind-not-str": (_good([1, 2]), "is not \\[kind, ...\\]"),
    "const-float": (_good(["c", 1.5]), "integer"),
    "const-bool": (_good(["c", True]), "integer"),
    "const-huge": (_good(["c", 2**63]), "integer"),
    "const-two": (_good(["c", 1, 2]), "integer"),
    # products of constants past i64 loaded, and one of 4,800 digits was a ValueError from
    # str() when the message was formatted
    "const-product": (_good(["cmpGE", ["mul", ["c", 2**62], ["c", 4]], ["c", 1]]),
                      "operation 'mul' of constants gives 18446744073709551616, past the i64"),
    "const-products": (_good(args=[_products(8, ["c", 2**62])]), "of constants gives"),
    "param-out-of-range": (_good(["dim", 1, 0, 0, 64]), "reads parameter 1; the module has 1"),
    "param-negative": (_good(["dim", -1, 0, 0, 64]), "reads parameter -1"),
    "dim-out-of-range": (_good(["dim", 0, 2, 0, 64]), "reads dimension 2 of parameter 0"),
    "dim-negative": (_good(["dim", 0, -1, 0, 64]), "negative dimension"),
    "dim-short": (_good(["dim", 0, 0]), "is not \\['dim', param, dim, lo, hi\\]"),
    "empty-range": (_good(["dim", 0, 0, 64, 0]), "empty range"),
    "range-string": (_good(["dim", 0, 0, "0", 64]), "integer"),
    "size-name": (_good(["size", 7, 0, 0, 64]), "names no intermediate"),
    "deep": (_good(_nested(200)), "nested over 64 levels"),
    "too-many": (_good() * 4097, "4097 assertions, over the limit"),
    "too-many-nodes": (_good(["add", _nested(40), _nested(40)]) * 900, "expression nodes"),
}


@pytest.mark.parametrize("data,message", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_stored_assertions_are_artifact_errors(center_exe, data, message):
    blob = _with_assertions(center_exe.serialize(), data)
    with pytest.raises(dynhlo.ArtifactError, match=message):
        dynhlo.deserialize(blob)


def test_a_well_formed_hand_made_assertion_is_checked_as_written(center_exe):
    """The reader takes what to_data writes, nothing more: a stored n >= 3 refuses n = 2."""
    blob = _with_assertions(center_exe.serialize(),
                            _good(["cmpGE", ["dim", 0, 0, 0, None], ["c", 3]]))
    loaded = dynhlo.deserialize(blob)
    with pytest.raises(dynhlo.ArgumentError, match=r"^n is 2 \(JAX shape assertion\)$"):
        loaded(np.zeros((2, 4), np.float32))
    x = np.ones((3, 4), np.float32)
    np.testing.assert_allclose(loaded(x), center(x), rtol=1e-6)


def test_products_of_sizes_past_i64_wrap_as_stablehlo_computes_them(center_exe):
    """A product of sizes is computed in i64 as StableHLO does: (2 * 2**62)**256 at n = 2
    wraps to 0 (it was a 4,855-digit Python int, a ValueError when printed)."""
    product = _products(8, ["mul", ["dim", 0, 0, 0, 64], ["c", 2**62]])
    loaded = dynhlo.deserialize(_with_assertions(
        center_exe.serialize(), _good(["cmpGE", ["dim", 0, 0, 0, 64], ["c", 3]],
                                      args=[product, ["mul", ["dim", 0, 0, 0, 64],
                                                      ["c", 2**62 + 1]]],
                                      message="{0} {1}")))
    # 2 * (2**62 + 1) = 2**63 + 2 wraps to -2**63 + 2
    with pytest.raises(dynhlo.ArgumentError, match=rf"^0 {2 - 2**63} \(JAX shape"):
        loaded(np.zeros((2, 4), np.float32))


def test_fuzzed_stored_assertions_load_and_check_or_are_artifact_errors(center_exe, sin_sum):
    """Seeded mutations (WEIRD values, deletions, deep nesting) of the stored assertions: a
    load is an ArtifactError or an executable whose calls raise only ArgumentError."""
    blobs = [center_exe.serialize(), dynhlo.compile(sin_sum, buckets=[4]).serialize()]
    rng = random.Random(20261202)
    outcomes = {"refused": 0, "loaded": 0}
    for trial in range(300):
        seed = rng.randrange(2**32)
        blob = blobs[trial % 2]
        one = random.Random(seed)
        data = _stored(blob)
        mutated = mutate_json(one, data) if one.random() < 0.8 else one.choice(WEIRD)
        try:
            with deadline(10, f"stored assertions (seed {seed})"):
                exe = dynhlo.deserialize(_with_raw(blob, nested_dumps(mutated)))
        except dynhlo.ArtifactError:
            outcomes["refused"] += 1
            continue
        outcomes["loaded"] += 1
        for n in (0, 3):
            try:
                exe(np.ones((n, 4), np.float32))
            except dynhlo.ArgumentError:
                pass
    assert outcomes["refused"] > 50 and outcomes["loaded"] > 0, outcomes


def _stored(blob: bytes) -> list:
    found = []
    resection(blob, lambda header, sections: found.append(header["shape_assertions"]))
    return found[0]


def _with_raw(blob: bytes, text: str) -> bytes:
    """`blob` with the stored assertions' JSON text replaced by `text` verbatim."""
    marker = "__ASSERTIONS__"
    signed = _with_assertions(blob, marker)
    return resign_raw(signed, f'"{marker}"', text)


def resign_raw(blob: bytes, old: str, new: str) -> bytes:
    """The header text with `old` replaced by `new` (possibly deeply nested JSON), re-signed."""
    import hashlib
    import struct
    length = struct.unpack_from("<Q", blob, 12)[0]
    body = blob[52:52 + length].decode().replace(old, new, 1).encode()
    prelude = struct.pack("<IQ", struct.unpack_from("<I", blob, 8)[0], len(body))
    return blob[:8] + prelude + hashlib.sha256(prelude + body).digest() + body + \
        blob[52 + length:]


def test_a_saved_from_jax_executable_refuses_n_0_as_jax_does(tmp_path):
    import jax.numpy as jnp
    f = dynhlo.from_jax(lambda x: jnp.sin(x).sum(axis=1), "f32[n,4]", bounds={"n": 16})
    with pytest.raises(dynhlo.ArgumentError, match="x dimension 0 has size 0 < 1"):
        f(EMPTY)  # from_jax's own check names the argument first
    before = refusal(f.executable)
    f.save(tmp_path / "f.dynhlo")
    loaded = dynhlo.load(tmp_path / "f.dynhlo")
    assert refusal(loaded) == before
    x = np.linspace(-2, 2, 8, dtype=np.float32).reshape(2, 4)
    np.testing.assert_allclose(loaded(x), np.sin(x).sum(axis=1), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("reference", [False, True])
def test_arguments_of_accepted_shapes_skip_the_assertions_others_are_refused(reference):
    """An executable remembers the shapes of the last arguments that passed the checks and
    the shape assertions (functions of the shapes alone); a refused shape is never
    remembered, however often it comes."""
    exe = dynhlo.compile(dynhlo.parse_stablehlo(SIN_SUM), backend="cpu", reference=reference)
    for _ in range(2):
        assert refusal(exe)
    x = np.ones((3, 4), np.float32)
    for _ in range(3):
        np.testing.assert_allclose(exe(x), np.full(3, 4 * np.sin(1.0)), rtol=1e-6)
    assert refusal(exe)
    np.testing.assert_allclose(exe(x), np.full(3, 4 * np.sin(1.0)), rtol=1e-6)
