"""Partitioned modules on several processes through torch.distributed (gloo on the CPU).

The modules and expected values are JAX's (tools/gen_partitioned.py: jax.jit with
in/out shardings over N host devices, compiled; the outputs JAX computed on those devices).
Each run starts N processes (dynhlo.runtime.launch), so the cases are few and small.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import dynhlo
from dynhlo.cli import main
from dynhlo.hlo import collectives
from dynhlo.hlo.text.parser import parse_hlo
from dynhlo.hlo.sharding import parse_sharding
from dynhlo.runtime.launch import DistributedError, run_distributed, run_ranks
from tests.support.common import TESTS

pytest.importorskip("torch.distributed")

DATA = str(TESTS / "data" / "partitioned")

# Every family at 2 and 4 processes, and a second size for some (the sizes are JAX's).
CASES = ["mlp_n2_s1", "mlp_n4_s3", "tp_n2_s3", "tp_n4_s1", "rsag_n2_s1", "rsag_n2_s3",
         "rsag_n4_s3", "a2a_n2_s3", "a2a_n4_s1", "dptp_n4_s2"]


def _case(name):
    with open(os.path.join(DATA, f"{name}.hlo")) as f:
        text = f.read()
    data = np.load(os.path.join(DATA, f"{name}.npz"))
    inputs = [data[f"in{i}"] for i in range(sum(k.startswith("in") for k in data))]
    outputs = [data[f"out{i}"] for i in range(sum(k.startswith("out") for k in data))]
    return text, inputs, outputs


@pytest.mark.parametrize("name", CASES)
def test_partitioned_module_matches_jax(name):
    text, inputs, expected = _case(name)
    nproc = int(name.split("_n")[1].split("_")[0])
    result = run_distributed(text, inputs, nproc, timeout=60)
    result = result if isinstance(result, tuple) else (result,)
    for got, want in zip(result, expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_run_nproc_prints_the_gathered_result(tmp_path, capsys):
    text, (x, w), (want,) = _case("tp_n2_s1")
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)
    assert main(["run", "--nproc", "2", os.path.join(DATA, "tp_n2_s1.hlo"),
                 str(tmp_path / "x.npy"), str(tmp_path / "w.npy"), "-o",
                 str(tmp_path / "out.npz"), "-q"]) == 0
    np.testing.assert_allclose(np.load(tmp_path / "out.npz")["out0"], want, rtol=1e-5,
                               atol=1e-5)


def test_run_nproc_that_does_not_match_the_module(capsys):
    status = main(["run", "--nproc", "4", os.path.join(DATA, "tp_n2_s1.hlo"), "1", "2"])
    assert status != 0
    assert "num_partitions=2 = 2 devices" in capsys.readouterr().err


DYNAMIC = """HloModule dyn, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=8] parameter(0)
  ROOT r = f32[<=8] all-reduce(x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}"""


def test_all_reduce_of_a_dynamic_operand_at_its_actual_size():
    x = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(run_distributed(DYNAMIC, [x], 2, timeout=60), 2 * x)


def test_participants_that_disagree_on_a_dynamic_size_fail_on_every_rank():
    # Each partition cuts its operand to partition-id + 1 elements.
    text = DYNAMIC.replace("""  ROOT r = f32[<=8] all-reduce(x)""", """  p = u32[] partition-id()
  n = s32[] convert(p)
  one = s32[] constant(1)
  m = s32[] add(n, one)
  y = f32[<=8] set-dimension-size(x, m), dimensions={0}
  ROOT r = f32[<=8] all-reduce(y)""")
    with pytest.raises(DistributedError, match=r"rank \d: instruction 'r'.*different actual "
                                               r"sizes.*rank 0: \(1,\), rank 1: \(2,\)"):
        run_distributed(text, [np.ones(4, np.float32)], 2, timeout=60)


def test_all_gather_along_a_dynamic_dimension_is_refused():
    text = """HloModule g, num_partitions=2
ENTRY main {
  x = f32[<=4,64] parameter(0)
  ROOT r = f32[<=8,64] all-gather(x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, dimensions={0}
}"""
    with pytest.raises(dynhlo.UnsupportedError, match=r"instruction 'r'.*dimension 0.*dynamic"):
        dynhlo.compile(text, distributed=True)


def test_a_reduction_torch_cannot_do_fails_the_run_in_one_line():
    text = DYNAMIC.replace("ROOT s = f32[] add(a, b)", "ROOT s = f32[] subtract(a, b)")
    with pytest.raises(DistributedError) as info:
        run_distributed(text, [np.ones(3, np.float32)], 2, timeout=60)
    message = str(info.value)
    assert message.startswith("rank ") and "to_apply=add" in message
    assert "\n" not in message


def test_distributed_outside_a_process_group_is_refused():
    text, _, _ = _case("tp_n2_s1")
    with pytest.raises(dynhlo.UnsupportedError, match="init_process_group"):
        dynhlo.compile(text, distributed=True)


# --- who takes part: XLA's group modes (facts from collective_ops_utils / op semantics) ----

def _inst(attrs: str, op: str = "all-reduce(x)", module_attrs: str = ""):
    if op.startswith("all-reduce"):
        attrs = ", to_apply=add" + attrs
    text = f"""HloModule t{module_attrs}
add {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}}
ENTRY main {{
  x = f32[4] parameter(0)
  ROOT y = f32[4] {op}{attrs}
}}"""
    return parse_hlo(text).entry.root


@pytest.mark.parametrize("attrs,devices,want", [
    # no channel_id: cross-replica, the same groups in each partition
    (", replica_groups={{0,1}}", (2, 2), [[0, 2], [1, 3]]),
    # channel_id, use_global_device_ids=false: replicas, each with all its partitions
    (", channel_id=1, replica_groups={{0,1}}", (2, 2), [[0, 1, 2, 3]]),
    # channel_id, use_global_device_ids=true: flattened ids as written
    (", channel_id=1, replica_groups={{0,2},{1,3}}, use_global_device_ids=true", (1, 4),
     [[0, 2], [1, 3]]),
    # iota groups, transposed: [2,2]<=[2,2]T(1,0) is {{0,2},{1,3}}
    (", channel_id=1, replica_groups=[2,2]<=[2,2]T(1,0), use_global_device_ids=true",
     (1, 4), [[0, 2], [1, 3]]),
    # mesh groups: devices that differ along 'b' only
    (", channel_id=1, replica_groups=mesh['a'=2,'b'=2] {'b'}, use_global_device_ids=true",
     (1, 4), [[0, 1], [2, 3]]),
    (", channel_id=1, replica_groups=mesh['a'=2,'b'=2] {'a'}, use_global_device_ids=true",
     (1, 4), [[0, 2], [1, 3]]),
    # empty groups without a channel: all replicas
    ("", (2, 1), [[0, 1]]),
])
def test_participants_follow_xla_group_modes(attrs, devices, want):
    inst = _inst(attrs)
    assert collectives.participants(inst, collectives.Devices(*devices)) == want


def test_cross_partition_all_to_all_groups_partitions_per_replica():
    inst = _inst(", channel_id=1, replica_groups={{0,1}}, dimensions={0}",
                 op="all-to-all(x)")
    assert collectives.group_mode(inst) == collectives.CROSS_PARTITION
    assert collectives.participants(inst, collectives.Devices(2, 2)) == [[0, 1], [2, 3]]


def test_groups_that_miss_a_device_are_refused():
    inst = _inst(", channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true")
    with pytest.raises(dynhlo.UnsupportedError, match="'y'.*once each"):
        collectives.participants(inst, collectives.Devices(1, 4))


def test_permute_pairs_without_a_source_get_nothing():
    inst = _inst(", channel_id=1, source_target_pairs={{0,1},{1,2}}",
                 op="collective-permute(x)")
    devices = collectives.Devices(1, 3)
    assert collectives.permute_pairs(inst, devices, 0) == ([1], None)
    assert collectives.permute_pairs(inst, devices, 2) == ([], 1)


# --- the launcher never hangs -------------------------------------------------------------

def _sleeper(rank, *args):
    import time
    time.sleep(60)


def _dies_on_rank_1(rank, *args):
    if rank == 1:
        os._exit(3)
    _sleeper(rank)


def test_a_rank_that_dies_ends_the_run(monkeypatch):
    from dynhlo.runtime import launch
    monkeypatch.setattr(launch, "_rank_main", _dies_on_rank_1)
    with pytest.raises(DistributedError, match=r"^rank 1 died \(exit code 3\)$"):
        run_distributed(DYNAMIC, [np.ones(2, np.float32)], 2, timeout=30)


def test_a_run_past_its_deadline_ends(monkeypatch):
    from dynhlo.runtime import launch
    monkeypatch.setattr(launch, "_rank_main", _sleeper)
    with pytest.raises(DistributedError, match=r"ranks \[0, 1\] did not finish within 1 s"):
        run_distributed(DYNAMIC, [np.ones(2, np.float32)], 2, timeout=1)


# --- shardings: XLA's tile assignments ----------------------------------------------------

def test_iota_sharding_with_a_replicated_last_tile_dim():
    # devices=[2,1,2]<=[4] last_tile_dim_replicate: partitions 0,1 hold rows 0:2, 2,3 rows 2:4
    sharding = parse_sharding("{devices=[2,1,2]<=[4] last_tile_dim_replicate}")
    full = np.arange(12).reshape(4, 3)
    pieces = [sharding.piece(full, p, "p") for p in range(4)]
    for p, rows in enumerate([(0, 2), (0, 2), (2, 4), (2, 4)]):
        np.testing.assert_array_equal(pieces[p], full[rows[0]:rows[1]])
    np.testing.assert_array_equal(sharding.assemble(pieces, "r"), full)


def test_listed_and_transposed_tile_assignments():
    full = np.arange(16).reshape(4, 4)
    listed = parse_sharding("{devices=[1,2]1,0}")  # partition 1 holds columns 0:2
    np.testing.assert_array_equal(listed.piece(full, 1, "p"), full[:, :2])
    moved = parse_sharding("{devices=[2,2]<=[2,2]T(1,0)}")  # tiles [[0,2],[1,3]]
    np.testing.assert_array_equal(moved.piece(full, 1, "p"), full[2:, :2])
    np.testing.assert_array_equal(
        moved.assemble([moved.piece(full, p, "p") for p in range(4)], "r"), full)


def test_a_size_that_does_not_split_is_refused():
    sharding = parse_sharding("{devices=[2]<=[2]}")
    with pytest.raises(dynhlo.UnsupportedError, match=r"parameter 0 \('x'\): dimension 0 of "
                                                      r"size 5 does not split into 2"):
        sharding.piece(np.zeros(5), 0, "parameter 0 ('x')")


def test_a_piece_that_cannot_be_the_parameter_is_refused_before_launch():
    text, (x, w), _ = _case("tp_n2_s1")
    with pytest.raises(DistributedError, match=r"parameter 0 \('param'\).*pass the full"):
        run_distributed(text, [w, w], 2, timeout=30)


# --- replicas and partitions: every group mode on 2 replicas x 2 partitions ---------------

MODES = """HloModule modes, replica_count=2, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY main {
  x = f32[2] parameter(0)
  replicas = f32[2] all-reduce(x), replica_groups={{0,1}}, to_apply=add
  everyone = f32[2] all-reduce(x), channel_id=1, replica_groups={{0,1}}, to_apply=add
  gathered = f32[8] all-gather(x), channel_id=2, replica_groups={{0,1}}, dimensions={0}
  pairs = f32[4] all-gather(x), channel_id=3, replica_groups={{3,0},{1,2}}, use_global_device_ids=true, dimensions={0}
  shifted = f32[2] collective-permute(x), source_target_pairs={{0,1}}
  swapped = f32[2] all-to-all(x), channel_id=4, replica_groups={{0,1}}, dimensions={0}
  scattered = f32[1] reduce-scatter(x), channel_id=5, replica_groups={{0,1},{2,3}}, use_global_device_ids=true, dimensions={0}, to_apply=max
  r = u32[] replica-id()
  p = u32[] partition-id()
  ROOT out = (f32[2], f32[2], f32[8], f32[4], f32[2], f32[2], f32[1], u32[], u32[]) tuple(replicas, everyone, gathered, pairs, shifted, swapped, scattered, r, p)
}"""


def test_every_group_mode_on_replicas_and_partitions():
    # rank = replica * 2 + partition; rank r holds x_r = [r, 10 + r]
    args = modes_args()
    xs = [a[0] for a in args]
    results = run_ranks(MODES, args, timeout=60)
    for rank, got in enumerate(results):
        replica, partition = divmod(rank, 2)
        other_replica = (1 - replica) * 2 + partition
        row = replica * 2  # the ranks of this replica: row, row + 1
        want = [
            xs[rank] + xs[other_replica],  # cross-replica: replicas of this partition
            sum(xs),  # cross-replica-and-partition over replicas {0,1}: all four
            np.concatenate(xs),  # replica-major, then partition: ranks 0, 1, 2, 3
            np.concatenate([xs[3], xs[0]] if rank in (0, 3) else [xs[1], xs[2]]),
            xs[partition] if replica == 1 else np.zeros(2, np.float32),  # replica 0 -> 1
            np.array([xs[row][partition], xs[row + 1][partition]]),  # within the replica
            np.maximum(xs[row], xs[row + 1])[partition:partition + 1],  # piece = position
            np.uint32(replica), np.uint32(partition)]
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)



# --- reductions, async halves, dynamic sizes that agree -----------------------------------

KINDS = """HloModule kinds, num_partitions=2
mul {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] multiply(a, b)
}
min {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] minimum(a, b)
}
and {
  a = pred[] parameter(0)
  b = pred[] parameter(1)
  ROOT m = pred[] and(a, b)
}
or {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] or(a, b)
}
ENTRY main {
  x = f32[3] parameter(0)
  i = s32[3] parameter(1)
  b = pred[3] parameter(2)
  d = f32[<=4,2] parameter(3)
  product = f32[3] all-reduce(x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=mul
  least = s32[3] all-reduce(i), channel_id=2, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=min
  both = pred[3] all-reduce(b), channel_id=3, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=and
  bits = s32[3] all-reduce(i), channel_id=4, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=or
  start = f32[3] all-reduce-start(x), channel_id=5, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=mul
  done = f32[3] all-reduce-done(start)
  gs = (f32[3], f32[6]) all-gather-start(x), channel_id=6, replica_groups={{0,1}}, use_global_device_ids=true, dimensions={0}
  gd = f32[6] all-gather-done(gs)
  ps = (f32[3], f32[3], u32[], u32[]) collective-permute-start(x), channel_id=7, source_target_pairs={{0,1},{1,0}}
  pd = f32[3] collective-permute-done(ps)
  wide = f32[<=4,4] all-gather(d), channel_id=8, replica_groups={{0,1}}, use_global_device_ids=true, dimensions={1}
  ROOT out = (f32[3], s32[3], pred[3], s32[3], f32[3], f32[6], f32[3], f32[<=4,4]) tuple(product, least, both, bits, done, gd, pd, wide)
}"""


def kinds_args() -> list[list[np.ndarray]]:
    """Each rank's arguments of KINDS: (x, i, b, d), d with 3 of its <=4 rows on both."""
    x = [np.array([1, 2, 3], np.float32), np.array([4, -5, 0.5], np.float32)]
    i = [np.array([1, 6, -3], np.int32), np.array([2, 5, 8], np.int32)]
    b = [np.array([True, True, False]), np.array([True, False, False])]
    d = [np.full((3, 2), r + 1, np.float32) for r in range(2)]
    return [[x[r], i[r], b[r], d[r]] for r in range(2)]


def modes_args() -> list[list[np.ndarray]]:
    """Each rank's argument of MODES: rank r holds [r, 10 + r]."""
    return [[np.array([r, 10 + r], np.float32)] for r in range(4)]


def test_reductions_async_halves_and_agreeing_dynamic_sizes():
    args = kinds_args()
    x, i, b, d = ([a[k] for a in args] for k in range(4))
    results = run_ranks(KINDS, args, timeout=60)
    for rank, got in enumerate(results):
        want = [x[0] * x[1], np.minimum(i[0], i[1]), b[0] & b[1], i[0] | i[1], x[0] * x[1],
                np.concatenate(x), x[1 - rank], np.concatenate(d, axis=1)]
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
