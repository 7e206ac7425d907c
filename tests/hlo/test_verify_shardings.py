"""`sharding=` attributes against their instruction's shape, as XLA reads and checks them
(xla/hlo/parser/hlo_parser.cc ParseSingleSharding; xla/hlo/ir/hlo_sharding.cc
HloSharding::Validate, which xla/service/hlo_verifier.cc runs on every instruction with a
sharding, checking devices against num_partitions when that is above 1). Each refusal is an
HloVerifyError naming the instruction and the sharding; none is a raw exception."""

from __future__ import annotations

import random
import tracemalloc

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import HloVerifyError, UnsupportedError
from dynhlo.hlo import parse_hlo
from dynhlo.hlo.sharding import parse_sharding
from dynhlo.hlo.verify import verify_module


def _module(shape: str, sharding: str, partitions: int = 4) -> str:
    return (f"HloModule m, num_partitions={partitions}\nENTRY e {{\n"
            f"  ROOT p = {shape} parameter(0), sharding={sharding}\n}}\n")


def _refusal(shape: str, sharding: str, partitions: int = 4) -> str:
    with pytest.raises(HloVerifyError) as info:
        verify_module(parse_hlo(_module(shape, sharding, partitions)))
    assert info.value.instruction == "p" and info.value.line == 3
    assert f"sharding={sharding}" in str(info.value)
    return info.value.message


# (shape, sharding, a fragment of the refusal): XLA's ValidateNonTuple rank rule counts the
# tile dims less the subgroup dims (last_tile_dim_replicate: 1, last_tile_dims: one each)
WRONG_RANK = [
    ("f32[4]", "{devices=[2,2]<=[4]}", "tiles 2 dimension(s), but f32[4] has rank 1"),
    ("f32[4,4]", "{devices=[4]<=[4]}", "tiles 1 dimension(s), but f32[4,4] has rank 2"),
    ("f32[4]", "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "tiles 2 dimension(s)"),
    ("f32[4,4]", "{devices=[2,2]<=[4] last_tile_dims={manual}}", "after 1 subgroup dim(s) "
                                                               "(manual)"),
    ("f32[]", "{devices=[2,2]0,1,2,3}", "has rank 0"),
]


@pytest.mark.parametrize("shape,sharding,fragment", WRONG_RANK)
def test_a_tile_assignment_of_another_rank_is_refused(shape, sharding, fragment):
    assert fragment in _refusal(shape, sharding)


@pytest.mark.parametrize("shape,sharding", [
    ("f32[4,3]", "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"),
    ("f32[4]", "{devices=[2,2]<=[4] last_tile_dims={manual}}"),
    ("f32[4]", "{devices=[2,1,2]<=[4] last_tile_dims={manual, replicated}}"),
    ("f32[<=8,3]", "{devices=[4,1]3,2,1,0}"),
    ("(f32[4], f32[8])", "{devices=[4]<=[4]}"),  # a single sharding is each leaf's
    ("(f32[4], (f32[2,2]), s32[])", "{{devices=[4]<=[4]}, {devices=[2,2]<=[2,2]T(1,0)}, "
                                    "{maximal device=3}}"),
    ("()", "{}"),
    ("token[]", "{devices=[2,2]<=[4]}"),  # XLA validates no sharding of a token
    ("f32[4]", '{replicated metadata={op_name="a}b" source_line=3}}'),
    ("f32[4]", "{devices=[4]<=[4] shard_as 1}"),
    ("f32[4]", "{manual}"),
    ("f32[4]", "{unknown}"),
])
def test_shardings_xla_accepts_pass(shape, sharding):
    verify_module(parse_hlo(_module(shape, sharding)))


@pytest.mark.parametrize("shape,sharding,fragment", [
    ("f32[4]", "{{replicated}}", "a tuple sharding (1 elements) on the array f32[4]"),
    ("f32[4]", "{}", "a tuple sharding (0 elements) on the array"),
    ("(f32[4], f32[4])", "{{replicated}}", "1 elements for (f32[4], f32[4]), which has 2"),
    ("(f32[4], (f32[4], f32[4]))", "{{replicated}, {replicated}}", "which has 3 arrays"),
    ("(f32[4], f32[4,4])", "{{replicated}, {devices=[4]<=[4]}}",
     "tuple element 1: the tile assignment [4] tiles 1"),
    ("(f32[4], f32[4,4])", "{devices=[4]<=[4]}", "but f32[4,4] has rank 2"),
])
def test_a_tuple_sharding_must_match_the_tuple(shape, sharding, fragment):
    assert fragment in _refusal(shape, sharding)


@pytest.mark.parametrize("sharding,partitions,fragment", [
    ("{devices=[4]0,1,1,2}", 4, "device 1 is named twice"),
    ("{devices=[2]0,1}", 4, "names 2 devices but not device 2"),
    ("{devices=[4]0,1,2,7}", 4, "device 7 is not a device of the module (num_partitions=4"),
    ("{devices=[2]-1,0}", 4, "device -1 is negative"),
    ("{devices=[2]<=[2]}", 4, "names 2 devices; the module has 4"),
    ("{maximal device=4}", 4, "device 4 is not a device"),
    ("{devices=[2]0,0}", 1, "device 0 is named twice"),  # checked for any device count
    ("{devices=[2]0,1}", 10 ** 12, "names 2 devices but not device 2"),  # no set of 10**12
])
def test_each_partition_is_named_once(sharding, partitions, fragment):
    assert fragment in _refusal("f32[4]", sharding, partitions)


def test_one_partition_leaves_the_device_count_unchecked_as_xla_does():
    # XLA's verifier passes num_devices only for num_partitions > 1: a module sharded for 8
    # devices still compiles for one (the launcher is stricter: tests/runtime/test_distributed.py)
    text = _module("f32[4]", "{devices=[2]<=[2]}", 1).replace(", num_partitions=1", "")
    np.testing.assert_array_equal(dynhlo.compile(text)(np.arange(4, dtype=np.float32)),
                                  np.arange(4, dtype=np.float32))


# XLA's parser refuses each of these (the message names what is wrong)
MALFORMED = [
    ("{devices=[2]<=[3]}", "iota tile assignment has 3 devices but its dims [2] hold 2"),
    ("{devices=[2,2]0,1,2}", "3 devices listed for tile assignment dims [2, 2]"),
    ("{devices=[2]<=[2,2]T(0,0)}", "T a permutation"),
    ("{devices=[4]<=[2,2]T(2,0)}", "T a permutation"),
    ("{devices=[0]<=[0]}", "each must be >= 1"),
    ("{devices=[2,]<=[2]}", "expected an integer (the tile assignment dims), found ']'"),
    ("{devices=}", "expected '[' to start the tile assignment dims"),
    ("{devices=[2]}", "expected an integer (a device)"),
    ("{devices=[1]0}", "a tile assignment of one device"),
    ("{maximal}", "a maximal sharding names exactly one device"),
    ("{replicated device=0}", "a replicated sharding names no devices"),
    ("{tiled}", "unexpected 'tiled'"),
    ("{devices=[4]<=[4] last_tile_dims={sideways}}", "unknown type 'sideways'"),
    ("{devices=[4]<=[4] last_tile_dims={manual, replicated}}", "2 subgroup dims for a tile "
                                                               "assignment of 1 dims"),
    ("{devices=[2,2]<=[4] last_tile_dim_replicate last_tile_dims={manual}}", "together"),
    ("{devices=[4]<=[4] shard_as x}", "expected an integer (shard_as's group)"),
    ("{devices=[99999999999999999999]<=[4]}", "expected an integer"),
    ("{devices=[4]<=[4]} {x}", "after the sharding's '}'"),
    ("{devices=[4]0,1,2,3 metadata=x}", "expected '{' to start the value"),
    ("{{replicated} {replicated}}", "expected ',' between tuple elements"),
    ("{{replicated}, replicated}", "expected '{' to start a tuple element"),
]


@pytest.mark.parametrize("sharding,fragment", MALFORMED)
def test_malformed_sharding_text_is_a_verify_error(sharding, fragment):
    assert fragment in _refusal("f32[4]", sharding)


def test_an_iota_of_three_billion_devices_is_refused_without_materialising_it():
    tracemalloc.start()
    try:
        assert "has 3000000000 devices but its dims [2] hold 2" in _refusal(
            "f32[4]", "{devices=[2]<=[3000000000]}")
        assert "names 3000000000 devices; the module has 4" in _refusal(
            "f32[4]", "{devices=[3000000000]<=[3000000000]}")
        with pytest.raises(UnsupportedError, match="3000000000 devices"):
            parse_sharding("{devices=[3000000000]<=[3000000000]}").tiles
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, f"{peak} bytes"  # the assignment would be 24 GB


# Valid shardings of every form, mutated at random: each result is a Sharding or a refusal
SEEDS_TEXT = ["{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "{devices=[2,2]<=[2,2]T(1,0)}",
              "{{replicated}, {maximal device=1}, {devices=[4]3,2,1,0 metadata={op_name=\"x\"}}}",
              "{devices=[2,1,2]0,1,2,3 last_tile_dims={manual, replicated}}", "{manual shard_as 2}"]
PIECES = list("{}[](),<=T 0123456789-\"x") + ["devices=", "device=", "maximal", "replicated",
                                              "last_tile_dims=", "metadata=", "manual"]
SHAPES = ["f32[4]", "f32[4,4]", "f32[4,4,4]", "(f32[4], f32[4,4])", "()"]


@pytest.mark.parametrize("seed", range(4))
def test_mutated_shardings_never_raise_a_raw_exception(seed):
    rng = random.Random(seed)
    for case in range(300):
        text = list(rng.choice(SEEDS_TEXT))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.5 and at < len(text):
                del text[at]
            else:
                text.insert(at, rng.choice(PIECES))
        sharding = "".join(text)
        for shape in SHAPES:
            try:
                verify_module(parse_hlo(_module(shape, sharding)))
            except dynhlo.DynHloError:
                pass
            except Exception as exc:  # noqa: BLE001 - the finding: a raw exception
                pytest.fail(f"seed {seed} case {case}: sharding={sharding} on {shape}: "
                            f"{type(exc).__name__}: {exc}")
