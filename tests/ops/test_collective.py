"""Single-device forms of collectives and structure ops on the CPU backend, from tables.

One device is replica 0 of partition 0 in replica groups of one: a collective's value is its
operand (a reduction or gather over one participant), collective-permute copies with a {0,0}
pair and gives zeros otherwise, replica-id and partition-id are 0, async wrappers run their
computation. Each record runs at a static shape and at dynamic sizes 0, 1 and below the bound,
with padding-sensitive reductions after the op so a wrong size would change the answer.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.types import to_numpy_dtype
from tests.support.opcheck import SIZES, OpCase, dim, run_hlo

TYPES = ["f32", "s32", "bf16"]


def _module(t: str, d: str, body: str) -> str:
    """`body` computes `y` (same shape as `x`) from `x = t[d,4]`; the root is (y, sum of y)."""
    return f"""HloModule t

add {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT s = {t}[] add(a, b)
}}

wrapped {{
  p = {t}[{d},4] parameter(0)
  ROOT n = {t}[{d},4] negate(p)
}}

ENTRY main {{
  x = {t}[{d},4] parameter(0)
{body}
  zero = {t}[] constant(0)
  total = {t}[] reduce(y, zero), dimensions={{0,1}}, to_apply=add
  ROOT out = ({t}[{d},4], {t}[]) tuple(y, total)
}}"""


# name, body (T: element type, D: the dynamic dim text), expected y from x
RECORDS = [
    ("all-reduce", "  y = T[D,4] all-reduce(x), replica_groups={}, to_apply=add", "same"),
    ("all-reduce-groups-of-one",
     "  y = T[D,4] all-reduce(x), channel_id=1, replica_groups={{0}}, use_global_device_ids=true, to_apply=add",
     "same"),
    ("all-reduce-iota-groups", "  y = T[D,4] all-reduce(x), replica_groups=[1,1]<=[1], to_apply=add",
     "same"),
    ("all-reduce-start-done", "  s = T[D,4] all-reduce-start(x), replica_groups={}, to_apply=add\n"
                              "  y = T[D,4] all-reduce-done(s)", "same"),
    ("all-gather", "  y = T[D,4] all-gather(x), replica_groups={{0}}, dimensions={0}", "same"),
    ("all-gather-start-done",
     "  s = (T[D,4], T[D,4]) all-gather-start(x), replica_groups={{0}}, dimensions={1}\n"
     "  y = T[D,4] all-gather-done(s)", "same"),
    ("reduce-scatter",
     "  y = T[D,4] reduce-scatter(x), replica_groups={{0}}, dimensions={0}, to_apply=add", "same"),
    ("all-to-all", "  y = T[D,4] all-to-all(x), replica_groups={{0}}, dimensions={0}", "same"),
    ("collective-broadcast", "  y = T[D,4] collective-broadcast(x), replica_groups={{0}}", "same"),
    ("collective-permute-self", "  y = T[D,4] collective-permute(x), source_target_pairs={{0,0}}",
     "same"),
    ("collective-permute-ring",
     "  y = T[D,4] collective-permute(x), source_target_pairs={{0,1},{1,0}}", "zeros"),
    ("collective-permute-start-done",
     "  s = (T[D,4], T[D,4], u32[], u32[]) collective-permute-start(x), source_target_pairs={{0,0}}\n"
     "  y = T[D,4] collective-permute-done(s)", "same"),
    ("async-start-done",
     "  s = ((T[D,4]), T[D,4], s32[]) async-start(x), calls=wrapped\n"
     "  u = ((T[D,4]), T[D,4], s32[]) async-update(s), calls=wrapped\n"
     "  y = T[D,4] async-done(u), calls=wrapped", "negate"),
    ("add-dependency", "  tok = token[] after-all()\n  y = T[D,4] add-dependency(x, tok)", "same"),
    ("opt-barrier", "  id = u32[] replica-id()\n  tp = (T[D,4], u32[]) tuple(x, id)\n"
                    "  ob = (T[D,4], u32[]) opt-barrier(tp)\n"
                    "  y = T[D,4] get-tuple-element(ob), index=0", "same"),
    ("domain", "  y = T[D,4] domain(x), domain={kind=\"sharding\", entry={maximal device=0}, "
               "exit={replicated}}", "same"),
]
RECORDS += [(f"custom-call {target}",
             f'  y = T[D,4] custom-call(x), custom_call_target="{target}", sharding={{replicated}}',
             "same")
            for target in ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
                           "annotate_device_placement", "MoveToHost", "MoveToDevice")]


def _expected(kind, x):
    if kind == "same":
        return x
    if kind == "zeros":
        return np.zeros_like(x)
    return -x


@pytest.mark.parametrize("label,bound,n", SIZES)
@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("name,body,kind", RECORDS, ids=[r[0] for r in RECORDS])
def test_single_device_form(name, body, kind, t, label, bound, n):
    d = dim(bound, n)
    text = _module(t, d, body.replace("T[", f"{t}[").replace("D,", f"{d},"))
    x = (np.arange(n * 4).reshape(n, 4) - 7).astype(to_numpy_dtype(t))
    y, total = run_hlo(text, x)
    want = _expected(kind, x)
    assert y.shape == (n, 4) and y.dtype == x.dtype
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(total, want.astype(np.float64).sum().astype(x.dtype))


def _case(name: str, body: str, kind: str) -> OpCase:
    """A record as an op-table row in f32 at bound 8 (the GPU backend runs these too)."""
    text = _module("f32", "<=8", body.replace("T[", "f32[").replace("D,", "<=8,"))

    def expect(x):
        want = _expected(kind, x)
        return want, np.float32(want.astype(np.float64).sum())
    return OpCase(name, text, lambda n, rng: [(np.arange(n * 4).reshape(n, 4) - 7).astype(
        np.float32)], expect, sizes=(8, 0, 1, 5))


# The records as this family's op table, for the backends' cross-check
# (tests/backends/gpu/test_optables.py); the CPU runs them above, in three element types.
CASES = [_case(*record) for record in RECORDS]


def test_collective_keeps_a_size_set_inside_the_module():
    """all-reduce of a set-dimension-size value: padding rows (1e30) never enter the sum."""
    text = """HloModule t
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  p = f32[8] parameter(0)
  n = s32[] parameter(1)
  x = f32[<=8] set-dimension-size(p, n), dimensions={0}
  y = f32[<=8] all-reduce(x), replica_groups={}, to_apply=add
  z = f32[] constant(0)
  ROOT total = f32[] reduce(y, z), dimensions={0}, to_apply=add
}"""
    padded = np.full(8, 1e30, np.float32)
    padded[:3] = [1, 2, 3]
    assert float(run_hlo(text, padded, np.int32(3))) == 6.0
    assert float(run_hlo(text, padded, np.int32(0))) == 0.0


@pytest.mark.parametrize("op", ["replica-id", "partition-id"])
def test_device_ids_are_zero(op):
    text = f"""HloModule t
ENTRY main {{
  ROOT i = u32[] {op}()
}}"""
    got = run_hlo(text)
    assert got.dtype == np.uint32 and got.shape == () and int(got) == 0


def test_after_all_token_passes_through_tuples():
    text = """HloModule t
ENTRY main {
  x = f32[<=4] parameter(0)
  a = token[] after-all()
  b = token[] after-all(a, a)
  ROOT t = (f32[<=4], token[]) tuple(x, b)
}"""
    y, _ = run_hlo(text, np.float32([1, 2]))
    np.testing.assert_array_equal(y, [1, 2])


def test_variadic_all_reduce_gives_a_tuple():
    text = """HloModule t
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=4] parameter(0)
  y = f32[3] parameter(1)
  ROOT r = (f32[<=4], f32[3]) all-reduce(x, y), replica_groups={}, to_apply=add
}"""
    a, b = run_hlo(text, np.float32([1, 2]), np.float32([3, 4, 5]))
    np.testing.assert_array_equal(a, [1, 2])
    np.testing.assert_array_equal(b, [3, 4, 5])


# Each result shape is the one XLA's verifier derives from f32[4] and the group size
# (all-gather multiplies dimension 0 by it, reduce-scatter divides it).
MULTI_DEVICE = [
    ("all-reduce(x), replica_groups={{0,1}}, to_apply=add", "f32[4]"),
    ("all-reduce(x), replica_groups=[1,2]<=[2], to_apply=add", "f32[4]"),
    ("all-gather(x), replica_groups={{0,1}}, dimensions={0}", "f32[8]"),
    ("reduce-scatter(x), replica_groups={{0,1,2,3}}, dimensions={0}, to_apply=add", "f32[1]"),
    ("all-to-all(x), replica_groups={{0,1}}, dimensions={0}", "f32[4]"),
]


@pytest.mark.parametrize("call,shape", MULTI_DEVICE + [
    ("all-gather(x), replica_groups={}, dimensions={0}", "f32[8]"),
    ("reduce-scatter(x), replica_groups={}, dimensions={0}, to_apply=add", "f32[2]")])
def test_groups_of_several_devices_are_unsupported(call, shape):
    text = f"""HloModule t
add {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}}
ENTRY main {{
  x = f32[4] parameter(0)
  ROOT y = {shape} {call}
}}"""
    with pytest.raises(dynhlo.UnsupportedError, match=r"instruction 'y'.*devices"):
        dynhlo.compile(text)


def test_unknown_custom_call_names_the_target():
    text = """HloModule t
ENTRY main {
  x = f32[4] parameter(0)
  ROOT y = f32[4] custom-call(x), custom_call_target="my_kernel"
}"""
    with pytest.raises(dynhlo.UnsupportedError, match="my_kernel.*'y'"):
        dynhlo.compile(text)
