"""Modules XLA's verifier refuses, refused by dynhlo's with an HloVerifyError naming the
instruction at its line:column: bitcasts that change the byte size, add-dependency without a
token, collectives whose replica groups or source-target pairs do not fit the module's
devices; and dot's message when its contracting dimensions are missing.

Facts from xla/service/hlo_verifier.cc (ShapeVerifier), each named in its test.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import HloVerifyError

ADD = """add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
"""


def _module(body: str, header: str = "HloModule m", param: str = "f32[8]") -> str:
    return f"{header}\n{ADD}ENTRY e {{\n  a = {param} parameter(0)\n  {body}\n}}\n"


def _refused(text: str, *fragments: str) -> HloVerifyError:
    with pytest.raises(HloVerifyError) as info:
        dynhlo.compile(text)
    exc = info.value
    lines = text.splitlines()
    at = next(i for i, t in enumerate(lines) if t.strip().startswith(
        f"{'ROOT ' if 'ROOT' in t else ''}{exc.instruction} ="))
    assert (exc.line, exc.column) == (at + 1, 3), str(exc)
    for fragment in fragments:
        assert fragment in str(exc), (fragment, str(exc))
    return exc


# -- bitcast ---------------------------------------------------------------------------------

@pytest.mark.parametrize("param, result, have, want", [
    ("f32[8]", "f32[4]", 32, 16),
    ("f32[<=8]", "f32[16]", 32, 64),   # a dynamic shape counts at its bounds (ByteSizeOf)
    ("f32[2,4]", "f32[<=4]", 32, 16),
])
def test_a_bitcast_that_changes_the_byte_size_is_refused(param, result, have, want):
    """ShapeVerifier::HandleBitcast: shape_size(result) != shape_size(operand) is an error;
    shape_size is ShapeUtil::ByteSizeOf, the bytes of the shape at its bounds. Only static
    shapes with trailing padding may differ, which dynhlo's layouts never have. (dynhlo said
    "reshape from 1 dims to [4]: element counts differ", naming no bitcast and no bytes.)"""
    text = _module(f"ROOT r = {result} bitcast(a)", param=param)
    exc = _refused(text, f"bitcast from {param}", f"({have} bytes at its bounds)",
                   f"to {result} ({want} bytes)")
    assert exc.instruction == "r"


def test_an_unused_bitcast_is_verified_too():
    """XLA verifies every instruction, used or not."""
    _refused(_module("junk = s32[4] bitcast(a)\n  ROOT r = f32[8] copy(a)"), "instruction 'junk'",
             "bitcast from f32[8] (32 bytes")


@pytest.mark.parametrize("param, result, x, want", [
    ("f32[<=8]", "f32[<=4,2]", np.arange(6, dtype=np.float32),
     np.arange(6, dtype=np.float32).reshape(3, 2)),
    ("f32[2,4]", "s32[8]", np.array([[1, 2, 0, -2], [0.5, 1, 1, 1]], np.float32),
     np.array([1, 2, 0, -2, 0.5, 1, 1, 1], np.float32).view(np.int32)),
])
def test_a_bitcast_of_one_byte_size_still_runs(param, result, x, want):
    out = dynhlo.compile(_module(f"ROOT r = {result} bitcast(a)", param=param))(x)
    np.testing.assert_array_equal(out, want)


# -- add-dependency --------------------------------------------------------------------------

def test_add_dependency_on_a_value_that_is_not_a_token_is_refused():
    """ShapeVerifier::HandleAddDependency: CheckIsTokenOperand(add_dependency, 1), i.e.
    operand 1 must be token[] (dynhlo passed operand 0 through whatever operand 1 was)."""
    _refused(_module("ROOT r = f32[8] add-dependency(a, a)"),
             "operand 1 'a' of add-dependency is f32[8]; it must be a token[]")


def test_add_dependency_on_a_token_gives_its_operand():
    text = _module("t = token[] after-all()\n  ROOT r = f32[8] add-dependency(a, t)")
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(dynhlo.compile(text)(x), x)


# -- collectives -----------------------------------------------------------------------------

@pytest.mark.parametrize("header, body, fragment", [
    # CheckReplicaGroups: no id named twice ("Replica %d is repeated")
    ("HloModule m", "ROOT r = f32[8] all-reduce(a), replica_groups={{0,0}}, to_apply=add",
     "names device 0 twice"),
    # ids are 0..n-1 ("Replica %d is not named"): on one device {{0},{5}} leaves out 1..4
    ("HloModule m", "ROOT r = f32[8] all-reduce(a), replica_groups={{0},{5}}, to_apply=add",
     "but not device 1"),
    ("HloModule m", "ROOT r = f32[8] all-gather(a), replica_groups={{3}}, dimensions={0}",
     "but not device 0"),
    ("HloModule m", "ROOT r = f32[8] all-to-all(a), replica_groups={{1}}, dimensions={0}",
     "but not device 0"),
    ("HloModule m", "ROOT r = f32[8] reduce-scatter(a), replica_groups={{2}}, dimensions={0}, "
                    "to_apply=add", "but not device 0"),
    # no empty group ("Instruction cannot have an empty replica group")
    ("HloModule m", "ROOT r = f32[8] all-reduce(a), replica_groups={{0},{}}, to_apply=add",
     "has an empty group"),
    # n must be the replica count unless it is 1 (cross-replica mode: no channel_id)
    ("HloModule m, replica_count=4",
     "ROOT r = f32[8] all-reduce(a), replica_groups={{0,1}}, to_apply=add",
     "names 2 device(s) in cross-replica mode; the module has 4 replicas"),
    # ... the partition count in cross-partition mode (channel_id, no use_global_device_ids)
    ("HloModule m, num_partitions=2", "ROOT r = f32[8] all-to-all(a), channel_id=1, "
     "replica_groups={{0,1,2}}, dimensions={0}", "the module has 2 partitions"),
    # groups of one size, except all-reduce's ("Replica groups expected to be of uniform size")
    ("HloModule m, replica_count=3", "ROOT r = f32[8] all-gather(a), "
     "replica_groups={{0},{1,2}}, dimensions={0}", "groups of different sizes"),
    # flattened ids need explicit groups ("Replica groups must be specified in flattened-id")
    ("HloModule m", "ROOT r = f32[8] all-reduce(a), channel_id=1, use_global_device_ids=true, "
     "replica_groups={}, to_apply=add", "needs explicit replica_groups"),
    # a brace list is a list of lists, as ParseInt64ListList reads it
    ("HloModule m", "ROOT r = f32[8] all-reduce(a), replica_groups={1,...,8}, to_apply=add",
     "is not a list of groups of device ids like {{0,1},{2,3}}"),
])
def test_replica_groups_xla_refuses_are_refused(header, body, fragment):
    """hlo_verifier.cc CheckReplicaGroups, run for all-reduce, all-gather, reduce-scatter and
    all-to-all; before, each of these compiled (on one device) or failed later with no
    reason given."""
    exc = _refused(_module(body, header), fragment)
    assert exc.instruction == "r"


@pytest.mark.parametrize("header, pairs, fragment", [
    # CheckDuplicatedSourceOrTarget: "Source %d appears more than once"
    ("HloModule m", "{{0,0},{0,0}}", "name 0 as a source twice"),
    ("HloModule m, replica_count=2", "{{0,1},{1,1}}", "name 1 as a target twice"),
    # "Target %d ... must be >= 0", and "< limit" where the limit (replica_count) is not 1
    ("HloModule m", "{{0,-1}}", "target -1 is not a device of the module"),
    ("HloModule m, replica_count=2", "{{0,5}}",
     "target 5 is not a device of the module (replica_count=2: ids 0..1)"),
])
def test_source_target_pairs_xla_refuses_are_refused(header, pairs, fragment):
    """hlo_verifier.cc CheckDuplicatedSourceOrTarget (collective-permute): ids >= 0, below
    the replica count (no channel_id) unless it is 1, each a source once and a target once."""
    _refused(_module(f"ROOT r = f32[8] collective-permute(a), source_target_pairs={pairs}",
                     header), fragment)


def test_collectives_xla_accepts_on_one_device_still_run():
    """Where the module's replica count is 1 XLA skips the count and range checks
    (`replica_count == 1 || n == replica_count`, `limit == 1 || p.second < limit`): groups
    {{0},{1}} and a pair {0,5} are valid. On one device every group holds device 0 alone
    (an all-reduce of one value is that value) and device 0 receives from no source (zeros)."""
    x = np.arange(8, dtype=np.float32)
    text = _module("s = f32[8] all-reduce(a), replica_groups={{0},{1}}, to_apply=add\n"
                   "  p = f32[8] collective-permute(a), source_target_pairs={{0,5}}\n"
                   "  ROOT t = (f32[8], f32[8]) tuple(s, p)")
    s, p = dynhlo.compile(text)(x)
    np.testing.assert_array_equal(s, x)
    np.testing.assert_array_equal(p, np.zeros(8, np.float32))


# -- dot ---------------------------------------------------------------------------------------

DOT = ("HloModule m\nENTRY e {\n  a = f32[4,3] parameter(0)\n  b = f32[3,5] parameter(1)\n"
       "  ROOT r = f32[4,5] dot(a, b){}\n}}\n")


@pytest.mark.parametrize("attrs, fragment", [
    ("", "a dot without contracting dimensions is the outer product, of rank 4"),
    (", lhs_contracting_dims={1}", "got lhs_batch_dims={} and rhs_batch_dims={}, "
                                   "lhs_contracting_dims={1} and rhs_contracting_dims={}"),
])
def test_dot_without_contracting_dims_names_the_attributes(attrs, fragment):
    """XLA's DotDimensionNumbers default to empty: a dot with none is an outer product, and
    lhs and rhs must name as many contracting dimensions (InferDotOpShape). The error said
    "declared f32[4,5] but the operands give [4,3,3,5]" with no word of the attributes."""
    exc = _refused(DOT.replace("{}", attrs, 1).replace("}}", "}"), fragment,
                   "lhs_contracting_dims= and rhs_contracting_dims=",
                   "lhs_contracting_dims={1}, rhs_contracting_dims={0}")
    assert exc.instruction == "r"
