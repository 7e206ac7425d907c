"""Hostile inputs that were raw exceptions (issue 8): hand-made artifact headers, an artifact
whose module section is not UTF-8 under `dynhlo inspect`, lone surrogates in module text, a
torch tensor the CPU backend could not read, and while loops that never end.

Every one is now a DynHloError that names the place. Expected values are NumPy by hand.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest

import dynhlo
from dynhlo.cli import main
from tests.runtime.test_artifact import resection, resign

NEG = """HloModule neg
ENTRY e {
  a = f32[<=4] parameter(0)
  ROOT r = f32[<=4] negate(a)
}
"""


@pytest.mark.parametrize("buckets", [[None], [1], ["x"], [[]]])
def test_hand_made_bucket_entries_are_artifact_errors(buckets):
    blob = resign(dynhlo.compile(NEG).serialize(), edit=lambda h: h.update(buckets=buckets))
    with pytest.raises(dynhlo.ArtifactError, match="malformed artifact header"):
        dynhlo.deserialize(blob)


def _with_module_section(blob: bytes, module: bytes) -> bytes:
    """The artifact with its module section replaced and every checksum made to match."""
    def edit(header, sections):
        sections["module"] = module
        header["fingerprint"] = hashlib.sha256(module).hexdigest()
    return resection(blob, edit)


def test_inspect_of_a_module_section_that_is_not_utf8(tmp_path, capsys):
    path = tmp_path / "m.dynhlo"
    path.write_bytes(_with_module_section(dynhlo.compile(NEG).serialize(), b"HloModule \xff"))
    assert main(["inspect", str(path)]) == 1
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "m.dynhlo" in err and "internal error" not in err


SURROGATE = NEG.replace("parameter(0)", 'parameter(0), metadata={op_name="x\ud800"}')


@pytest.mark.parametrize("entry", ["parse_hlo", "compile", "jit"])
def test_lone_surrogates_are_a_parse_error_at_their_place(entry):
    with pytest.raises(dynhlo.HloParseError, match="U\\+D800 is a lone surrogate") as info:
        getattr(dynhlo, entry)(SURROGATE)
    column = SURROGATE.splitlines()[2].index("\ud800") + 1
    assert (info.value.line, info.value.column) == (3, column)
    str(info.value).encode("utf-8")  # the message itself can be printed


def test_cpu_backend_reads_tensors_that_require_grad_or_lack_a_numpy_dtype():
    torch = pytest.importorskip("torch")
    x = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)
    np.testing.assert_array_equal(dynhlo.compile(NEG)(x), np.float32([-1.5, 2.0, -3.0]))
    bf16 = dynhlo.compile(NEG.replace("f32", "bf16"))
    out = bf16(torch.tensor([1.5, -2.0], dtype=torch.bfloat16))
    np.testing.assert_array_equal(np.asarray(out, np.float32), np.float32([-1.5, 2.0]))


COUNT_UP = """HloModule loop
cond {
  p = s32[] parameter(0)
  n = s32[] constant(10)
  ROOT lt = pred[] compare(p, n), direction=LT
}
body {
  p = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT next = s32[] add(p, one)
}
ENTRY e {
  a = s32[] parameter(0)
  ROOT w = s32[] while(a), condition=cond, body=body
}
"""
FOREVER = COUNT_UP.replace("direction=LT", "direction=GE")  # from 10 up: never false


def test_a_constant_true_condition_is_refused_at_compile_time():
    text = COUNT_UP.replace("ROOT lt = pred[] compare(p, n), direction=LT",
                            "ROOT t = pred[] constant(true)")
    with pytest.raises(dynhlo.HloVerifyError, match="constant true: the loop never ends") as e:
        dynhlo.compile(text)
    assert e.value.instruction == "w"


def test_max_while_iterations_ends_a_runaway_loop(tmp_path):
    exe = dynhlo.compile(FOREVER, max_while_iterations=50)
    with pytest.raises(dynhlo.IterationLimitError, match="'w'.*max_while_iterations=50"):
        exe(np.int32(10))
    assert dynhlo.compile(COUNT_UP, max_while_iterations=10)(np.int32(0)) == 10
    exe.save(tmp_path / "m.dynhlo")  # the limit is part of the artifact
    with pytest.raises(dynhlo.IterationLimitError):
        dynhlo.load(tmp_path / "m.dynhlo")(np.int32(10))
    with pytest.raises(dynhlo.IterationLimitError):
        dynhlo.jit(FOREVER, cache_dir=False, max_while_iterations=5)(np.int32(10))


@pytest.mark.parametrize("limit", [0, -1, 2.5, True, "10"])
def test_max_while_iterations_must_be_a_positive_int(limit):
    with pytest.raises(dynhlo.UnsupportedError, match="max_while_iterations"):
        dynhlo.compile(COUNT_UP, max_while_iterations=limit)


# -- reducers that are valid HLO but not elementwise inside ------------------------------

# name -> (reducer computations named `r`, what the fold adds per element, from NumPy)
REDUCERS = {
    "dot_of_scalars": ("""r {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  two = f32[] constant(2)
  d = f32[] dot(b, two), lhs_contracting_dims={}, rhs_contracting_dims={}
  ROOT s = f32[] add(a, d)
}""", lambda b: 2 * b),
    "broadcast_then_reduce": ("""add2 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT z = f32[] add(x, y)
}
r {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  bb = f32[3] broadcast(b), dimensions={}
  z = f32[] constant(0)
  s3 = f32[] reduce(bb, z), dimensions={0}, to_apply=add2
  ROOT s = f32[] add(a, s3)
}""", lambda b: 3 * b),
    "scalar_pad": ("""r {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  z = f32[] constant(0)
  p = f32[] pad(b, z)
  ROOT s = f32[] add(a, p)
}""", lambda b: b),
    "conditional": ("""neg {
  x = f32[] parameter(0)
  ROOT y = f32[] negate(x)
}
same {
  x = f32[] parameter(0)
  ROOT y = f32[] copy(x)
}
r {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  z = f32[] constant(0)
  lt = pred[] compare(b, z), direction=LT
  c = f32[] conditional(lt, b, b), true_computation=neg, false_computation=same
  ROOT s = f32[] add(a, c)
}""", np.abs),
    "data_dependent_while": ("""wc {
  p = (f32[], f32[]) parameter(0)
  x = f32[] get-tuple-element(p), index=0
  lim = f32[] get-tuple-element(p), index=1
  ROOT lt = pred[] compare(x, lim), direction=LT
}
wb {
  p = (f32[], f32[]) parameter(0)
  x = f32[] get-tuple-element(p), index=0
  lim = f32[] get-tuple-element(p), index=1
  one = f32[] constant(1)
  y = f32[] add(x, one)
  ROOT t = (f32[], f32[]) tuple(y, lim)
}
r {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  z = f32[] constant(0)
  t = (f32[], f32[]) tuple(z, b)
  w = (f32[], f32[]) while(t), condition=wc, body=wb
  x = f32[] get-tuple-element(w), index=0
  ROOT s = f32[] add(a, x)
}""", lambda b: np.maximum(np.ceil(b), 0)),  # counts up from 0 past b
}
REDUCE_USES = {
    "reduce": ("f32[3] reduce(a, z), dimensions={1}, to_apply=r",
               lambda g: g.sum(axis=1)),
    "reduce-window": ("f32[3,3] reduce-window(a, z), window={size=1x2}, to_apply=r",
                      lambda g: g[:, :-1] + g[:, 1:]),
}
REDUCE_X = np.float32([[-2.5, 1, 3, -0.5], [4, -1, 0, 2], [1.5, 2.5, -3, 5]])


def reducer_module(name: str, use: str) -> str:
    return (f"HloModule m\n{REDUCERS[name][0]}\nENTRY e {{\n  a = f32[3,4] parameter(0)\n"
            f"  z = f32[] constant(0)\n  ROOT s = {REDUCE_USES[use][0]}\n}}\n")


def reducer_expected(name: str, use: str) -> np.ndarray:
    return REDUCE_USES[use][1](REDUCERS[name][1](REDUCE_X))


@pytest.mark.parametrize("use", sorted(REDUCE_USES))
@pytest.mark.parametrize("name", sorted(REDUCERS))
def test_reducers_that_are_not_elementwise_inside_fold_per_element(name, use):
    out = dynhlo.compile(reducer_module(name, use))(REDUCE_X)
    np.testing.assert_array_equal(out, reducer_expected(name, use))


# -- shapes nothing can size, custom calls of the wrong form ----------------------------


@pytest.mark.parametrize("body, fragment", [
    ("ROOT s = f32[?] iota(), iota_dimension=0", "nothing gives it a size"),
    ("c = f32[] constant(1)\n ROOT s = f32[?,2] broadcast(c), dimensions={}",
     "nothing gives it a size"),
    ("a = f32[4] parameter(0)\n ROOT s = f32[?,0] reshape(a)", "cannot size its `?`"),
])
def test_unsizable_unbounded_dimensions_are_refused_at_compile_time(body, fragment):
    with pytest.raises(dynhlo.UnsupportedError, match=fragment):
        dynhlo.compile("HloModule m\nENTRY e {\n " + body + "\n}\n")


@pytest.mark.parametrize("body, fragment", [
    ('a = f32[<=4] parameter(0)\n ROOT p = (f32[4], s32[]) custom-call(a, a), '
     'custom_call_target="PadToStatic"', "takes one array"),
    ('a = f32[<=4] parameter(0)\n ROOT p = (f32[4], f32[]) custom-call(a), '
     'custom_call_target="PadToStatic"', "declared (f32[4], f32[])"),
    ('a = f32[<=4] parameter(0)\n t = (f32[<=4]) tuple(a)\n ROOT p = (f32[4], s32[]) '
     'custom-call(t), custom_call_target="PadToStatic"', "it takes arrays"),
    ('a = f32[4] parameter(0)\n ROOT p = f32[<=4] custom-call(a), '
     'custom_call_target="SliceToDynamic"', "takes 1 s32[] sizes"),
    ('a = f32[4] parameter(0)\n n = f32[] constant(2)\n ROOT p = f32[<=4] custom-call(a, n), '
     'custom_call_target="SliceToDynamic"', "got (f32[])"),
    ('a = f32[4] parameter(0)\n n = s32[2] constant({2,2})\n ROOT p = f32[<=4] '
     'custom-call(a, n), custom_call_target="SliceToDynamic"', "got (s32[2])"),
    ('a = f32[4] parameter(0)\n n = s32[] constant(2)\n ROOT p = s32[<=4] '
     'custom-call(a, n), custom_call_target="SliceToDynamic"', "same element type"),
    ('a = f32[<=4] parameter(0)\n ROOT p = (f32[4], s32[]) custom-call(), '
     'custom_call_target="PadToStatic"', "PadToStatic takes one array, got 0 operands"),
    ('a = f32[4] parameter(0)\n ROOT p = f32[<=4] custom-call(), '
     'custom_call_target="SliceToDynamic"', "SliceToDynamic gives an array from an array and "
                                            "its sizes, declared f32[<=4]"),
    # it compiled, and the run padded to the declared -1: NumPy's ValueError
    ('a = f32[?] parameter(0)\n ROOT p = (f32[?], s32[]) custom-call(a), '
     'custom_call_target="PadToStatic"', "PadToStatic pads its operand to its bound, and "
                                         "dimension 0 of operand 0 'a' (f32[?]) has none"),
])
def test_malformed_pad_to_static_and_slice_to_dynamic_are_verify_errors(body, fragment):
    with pytest.raises(dynhlo.HloVerifyError, match=re.escape(fragment)):
        dynhlo.compile("HloModule m\nENTRY e {\n " + body + "\n}\n")


BOUNDED = "tensor<?xf32, #stablehlo.bounds<4>>"


PAD_TO_UNDECLARED = """HloModule m
ENTRY e {
  a = f32[<=5,2] parameter(0)
  ROOT p = (f32[?,?], s32[], s32[]) custom-call(a), custom_call_target="PadToStatic"
}
"""


def test_pad_to_static_declared_unbounded_pads_to_its_operands_bound():
    """XLA's PadToStatic gives the operand at its bound; a result declared `?` (inferred, as
    on any instruction) was padded to the declared -1: a raw ValueError."""
    exe = dynhlo.compile(PAD_TO_UNDECLARED)
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    padded, rows, cols = exe(x)
    np.testing.assert_array_equal(padded, [[0, 1], [2, 3], [4, 5], [0, 0], [0, 0]])
    assert (rows, cols) == (3, 2)
    padded, rows, cols = exe(x[:0])
    np.testing.assert_array_equal(padded, np.zeros((5, 2)))
    assert (rows, cols) == (0, 2)


@pytest.mark.parametrize("call, fragment", [
    ("%r:2 = stablehlo.custom_call @PadToStatic() : () -> (tensor<4xf32>, tensor<i32>)\n"
     "    return %r#0 : tensor<4xf32>", "PadToStatic takes one array, got 0 operands"),
    (f"%r:2 = stablehlo.custom_call @PadToStatic(%a, %a) : ({BOUNDED}, {BOUNDED}) -> "
     "(tensor<4xf32>, tensor<i32>)\n    return %r#0 : tensor<4xf32>",
     "PadToStatic takes one array, got 2 operands"),
    (f"%r = stablehlo.custom_call @SliceToDynamic(%a) : ({BOUNDED}) -> tensor<4xf32>\n"
     "    return %r : tensor<4xf32>", "SliceToDynamic to rank 1 takes 1 s32[] sizes"),
])
def test_dynamic_padder_calls_of_the_wrong_arity_from_stablehlo_are_verify_errors(call,
                                                                                   fragment):
    # the StableHLO import passes these calls through as HLO custom-calls: the verifier, not
    # MLIR (a custom call's operands are free), is what refuses them
    pytest.importorskip("jax")
    text = (f"module {{\n  func.func @main(%a: {BOUNDED}) -> tensor<4xf32> {{\n    {call}\n"
            "  }\n}\n")
    with pytest.raises(dynhlo.HloVerifyError, match=re.escape(fragment)) as info:
        dynhlo.compile(dynhlo.parse_stablehlo(text))
    assert info.value.instruction.startswith("custom_call")


# A child that compiles the endless loop, says so, then runs it until interrupted.
# (Python's own Ctrl-C handler installed first: a test run started in the background by a
# non-interactive shell, as CI starts one of its two, inherits SIGINT ignored)
CTRL_C_CHILD = r"""
import signal
import sys
import numpy as np
import dynhlo
signal.signal(signal.SIGINT, signal.default_int_handler)
options = {}
if sys.argv[2] == "gpu":
    sys.path.insert(0, sys.argv[3])
    from tests.support import gpucheck
    options = gpucheck.GPU
exe = dynhlo.compile(open(sys.argv[1]).read(), **options)
print("ready", flush=True)
try:
    exe(np.int32(10))
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
"""


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_ctrl_c_ends_a_loop_without_a_limit(tmp_path, backend):
    """A loop with no limit still ends on Ctrl-C (KeyboardInterrupt reaches the caller)."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from tests.support.common import REPO
    if backend == "gpu":
        pytest.importorskip("tests.support.gpucheck")
    module = tmp_path / "forever.hlo"
    module.write_text(FOREVER)
    proc = subprocess.Popen([sys.executable, "-c", CTRL_C_CHILD, str(module), backend,
                             str(REPO)], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        assert proc.stdout.readline() == b"ready\n", proc.stderr.read().decode()
        time.sleep(1)  # inside the loop
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130 and out == b"interrupted\n", err.decode()[-2000:]


def test_cli_file_name_that_no_file_can_have_is_a_usage_error(capsys):
    """Found by the attack pass: main() given a lone surrogate (or a NUL) as a path."""
    for name in ("\ud800.hlo", "a\x00.hlo"):
        assert main(["run", name]) == 1
        err = capsys.readouterr().err
        assert "not a file name" in err and "internal error" not in err
