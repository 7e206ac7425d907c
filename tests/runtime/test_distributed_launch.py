"""The launcher (`dynhlo run --nproc N`, dynhlo.runtime.launch): the shardings it cuts and
assembles by, how it starts ranks, its deadline and Ctrl-C.

Expected values are NumPy's by hand; the sharding rules are XLA's (HloSharding::Validate).
"""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

from dynhlo.cli import EXIT_INTERRUPTED, main
from dynhlo.errors import HloVerifyError, UnsupportedError
from dynhlo.runtime import launch
from dynhlo.runtime.launch import DistributedError, run_distributed, run_ranks

torch = pytest.importorskip("torch")
pytest.importorskip("torch.distributed")


def _copy(sharding_in: str, sharding_out: str, shape: str = "f32[2]",
          partitions: int = 2) -> str:
    return (f"HloModule m, num_partitions={partitions}\nENTRY e {{\n"
            f"  x = {shape} parameter(0), sharding={sharding_in}\n"
            f"  ROOT r = {shape} copy(x), sharding={sharding_out}\n}}\n")


def test_a_sharded_copy_comes_back_whole():
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(
        run_distributed(_copy("{devices=[2]<=[2]}", "{devices=[2]<=[2]}"), [x], 2), x)


# Each of these was cut and assembled into a wrong result (the first: an f32[2,2] for the
# f32[4]); now each is refused before any process starts.
@pytest.mark.parametrize("root,fragment", [
    ("{devices=[2,1]<=[2]}", "tiles 2 dimension(s), but f32[2] has rank 1"),
    ("{{devices=[2]<=[2]}}", "a tuple sharding (1 elements) on the array f32[2]"),
    ("{devices=[2]0,0}", "device 0 is named twice"),
])
def test_an_ill_formed_root_sharding_is_refused_before_launch(root, fragment, monkeypatch):
    monkeypatch.setattr(launch, "_launch", _no_launch)
    with pytest.raises(HloVerifyError, match="instruction 'r'") as info:
        run_distributed(_copy("{devices=[2]<=[2]}", root), [np.arange(4, dtype=np.float32)],
                        2)
    assert fragment in str(info.value)


def _no_launch(*args):
    raise AssertionError("a process was started")


# Malformed text the launcher once met as a raw AxisError / ValueError, or read as
# something else ({devices=[2]<=[2]T(x)} as an untransposed iota)
@pytest.mark.parametrize("sharding,fragment", [
    ("{devices=[2]<=[2]T(1)}", "T a permutation"),
    ("{devices=[2]<=[2,2]T(0,0)}", "T a permutation"),
    ("{devices=[2]<=[2]T(x)}", "expected an integer (a transpose dim), found 'x'"),
    ("{devices=[2,]<=[2]}", "expected an integer (the tile assignment dims), found ']'"),
    ("{maximal}", "a maximal sharding names exactly one device"),
])
def test_a_malformed_parameter_sharding_is_a_verify_error(sharding, fragment, monkeypatch):
    monkeypatch.setattr(launch, "_launch", _no_launch)
    with pytest.raises(HloVerifyError, match="instruction 'x'") as info:
        run_distributed(_copy(sharding, "{replicated}"), [np.arange(4, dtype=np.float32)], 2)
    assert fragment in str(info.value)


def test_a_sharding_that_misses_a_partition_is_refused_by_the_launcher(monkeypatch):
    # num_partitions=1: XLA leaves the device count unchecked, but one process holds only
    # device 0's piece; the second half of the result had nowhere to come from
    monkeypatch.setattr(launch, "_launch", _no_launch)
    text = _copy("{devices=[2]0,1}", "{devices=[2]0,1}", partitions=1)
    with pytest.raises(DistributedError, match=r"parameter 0 \('x'\): sharding=\{devices=\[2\]"
                                               r"0,1\}: device 1 is not a device of the "
                                               r"module \(num_partitions=1"):
        run_distributed(text, [np.arange(4, dtype=np.float32)], 1)


def test_an_iota_of_three_billion_devices_is_refused_before_it_is_made(monkeypatch):
    monkeypatch.setattr(launch, "_launch", _no_launch)
    text = _copy("{devices=[3000000000]<=[3000000000]}", "{replicated}",
                 shape="f32[3000000000]", partitions=1)
    with pytest.raises(DistributedError, match="names 3000000000 devices; the module has 1"):
        run_distributed(text, [np.zeros(4, np.float32)], 1)


@pytest.mark.parametrize("sharding,this", [
    ("{manual}", "not a manual one"),
    ("{devices=[2,2]<=[4] last_tile_dims={manual}}", "not one with manual subgroups")])
def test_a_sharding_the_launcher_cannot_cut_is_refused(sharding, this, monkeypatch):
    monkeypatch.setattr(launch, "_launch", _no_launch)
    with pytest.raises(UnsupportedError, match=r"parameter 0 \('x'\).*" + this):
        run_distributed(_copy(sharding, "{replicated}", partitions=4),
                        [np.arange(2, dtype=np.float32)], 4)


def test_a_single_sharding_on_a_tuple_root_assembles_each_leaf():
    text = """HloModule m, num_partitions=2
ENTRY e {
  x = f32[2] parameter(0), sharding={devices=[2]<=[2]}
  y = f32[2] negate(x)
  ROOT r = (f32[2], f32[2]) tuple(x, y), sharding={devices=[2]<=[2]}
}"""
    x = np.arange(4, dtype=np.float32)
    got = run_distributed(text, [x], 2)
    assert len(got) == 2
    np.testing.assert_array_equal(got[0], x)
    np.testing.assert_array_equal(got[1], -x)


def test_a_maximal_root_is_its_device_s_result():
    text = """HloModule m, num_partitions=2
ENTRY e {
  p = u32[] partition-id(), sharding={maximal device=1}
  ROOT r = u32[] copy(p), sharding={maximal device=1}
}"""
    assert run_distributed(text, [], 2) == 1


# --- how ranks start ----------------------------------------------------------------------

MATMUL = """HloModule mm, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[256,256] parameter(0)
  y = f32[256,256] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = f32[256,256] all-reduce(y), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}"""


def test_ranks_start_cleanly_after_the_parent_used_torch_threads():
    # A rank forked from a parent whose intra-op thread pool has run deadlocked in its first
    # parallel op (the pool's locks came along, its threads did not) until the deadline.
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        a = torch.ones(512, 512)
        assert float((a @ a).sum()) == 512.0 ** 3
        x = np.ones((256, 256), np.float32)
        got = run_ranks(MATMUL, [[x], [x]], timeout=60)
    finally:
        torch.set_num_threads(threads)
    for result in got:
        np.testing.assert_array_equal(result, np.full((256, 256), 512, np.float32))


def _reports_its_environment(rank, nproc, text, args, backend, cuda, store, timeout, options,
                             messages, env):
    os.environ.clear()
    os.environ.update(env)
    messages.put(("ok", rank, os.environ.get("DYNHLO_TEST_MARK")))


def test_a_rank_sees_the_parent_s_environment_at_launch(monkeypatch):
    monkeypatch.setattr(launch, "_rank_main", _reports_its_environment)
    for mark in ("first", "second"):  # the forkserver's own is fixed at its start
        monkeypatch.setenv("DYNHLO_TEST_MARK", mark)
        assert run_ranks(_copy("{replicated}", "{replicated}"), [[0], [0]], timeout=60) == \
            [mark, mark]


# --- the deadline and Ctrl-C --------------------------------------------------------------

def _writes_pid_and_sleeps(rank, nproc, text, args, *rest):
    with open(os.path.join(args[0], f"rank{rank}"), "w") as f:
        f.write(str(os.getpid()))
    time.sleep(600)


@pytest.fixture(autouse=True)
def _sigint():
    """Each test leaves the process's SIGINT disposition as it found it."""
    before = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, before)


def _interrupt_when_ranks_run(folder: str, nproc: int, done: threading.Event):
    """SIGINT to this process once every rank has written its pid (as Ctrl-C would), unless
    the call under test has returned (`done`): a stray SIGINT would end the whole session.
    Python's own SIGINT handler is put back first: a test process started in the background
    of a non-interactive shell inherits SIGINT ignored (the caller restores it: _sigint)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    def wait_then_interrupt():
        give_up = time.monotonic() + 60
        while len(os.listdir(folder)) < nproc and time.monotonic() < give_up:
            time.sleep(0.05)
        time.sleep(0.3)  # let the parent settle into its wait
        if not done.is_set():
            os.kill(os.getpid(), signal.SIGINT)
    thread = threading.Thread(target=wait_then_interrupt, daemon=True)
    thread.start()
    return thread


def _ended(pid: int) -> bool:
    """Whether process `pid` is gone (or a zombie awaiting its reaper)."""
    give_up = time.monotonic() + 10
    while time.monotonic() < give_up:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def _pids(folder: str, nproc: int) -> list[int]:
    pids = []
    for rank in range(nproc):
        with open(os.path.join(folder, f"rank{rank}")) as f:
            pids.append(int(f.read()))
    return pids


def test_no_deadline_waits_and_ctrl_c_ends_every_rank(tmp_path, monkeypatch):
    monkeypatch.setattr(launch, "_rank_main", _writes_pid_and_sleeps)
    done = threading.Event()
    thread = _interrupt_when_ranks_run(str(tmp_path), 2, done)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_ranks(_copy("{replicated}", "{replicated}"), [[str(tmp_path)]] * 2,
                      timeout=None)
    finally:
        done.set()
    thread.join()
    assert all(_ended(pid) for pid in _pids(str(tmp_path), 2))


def test_run_timeout_0_waits_until_ctrl_c(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(launch, "_rank_main", _writes_pid_and_sleeps)
    module = tmp_path / "m.hlo"
    module.write_text(_copy("{replicated}", "{replicated}", shape="s32[]"))
    folder = tmp_path / "pids"
    folder.mkdir()
    monkeypatch.setattr(launch, "_piece", lambda *args: str(folder))  # each rank's argument
    done = threading.Event()
    thread = _interrupt_when_ranks_run(str(folder), 2, done)
    try:
        status = main(["run", "--nproc", "2", "--timeout", "0", str(module), "1"])
    finally:
        done.set()
    thread.join()
    assert status == EXIT_INTERRUPTED
    assert "interrupted" in capsys.readouterr().err
    assert all(_ended(pid) for pid in _pids(str(folder), 2))


def test_run_timeout_sets_the_deadline(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(launch, "_rank_main", _writes_pid_and_sleeps)
    module = tmp_path / "m.hlo"
    module.write_text(_copy("{replicated}", "{replicated}", shape="s32[]"))
    monkeypatch.setattr(launch, "_piece", lambda *args: str(tmp_path))
    assert main(["run", "--nproc", "2", "--timeout", "0.5", str(module), "1"]) != 0
    assert "ranks [0, 1] did not finish within 0.5 s" in capsys.readouterr().err


@pytest.mark.parametrize("value,fragment", [
    ("-1", "'-1': give a finite number of seconds >= 0"),
    ("inf", "'inf': give a finite number of seconds >= 0"),
    ("soon", "invalid number of seconds: 'soon'")])
def test_run_timeout_that_is_not_seconds_is_a_usage_error(value, fragment, tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["run", "--nproc", "2", "--timeout", value, str(tmp_path / "m.hlo")])
    assert info.value.code == 2
    assert f"argument --timeout: {fragment}" in capsys.readouterr().err


def test_run_timeout_without_nproc_is_refused(tmp_path, capsys):
    module = tmp_path / "m.hlo"
    module.write_text(_copy("{replicated}", "{replicated}", shape="s32[]"))
    assert main(["run", str(module), "1", "--timeout", "5"]) != 0
    assert "--timeout is the deadline of a run on several processes (add --nproc N)" in \
        capsys.readouterr().err


@pytest.mark.parametrize("timeout", [-1, float("nan"), "10", True])
def test_a_timeout_that_is_not_seconds_is_refused(timeout, monkeypatch):
    monkeypatch.setattr(launch, "_launch", _no_launch)
    with pytest.raises(DistributedError, match="give seconds > 0, or None"):
        run_ranks(_copy("{replicated}", "{replicated}"), [[0], [0]], timeout=timeout)


def _ends_without_reporting(*args):
    """A rank that returns normally (exit code 0) and never puts a result."""


def test_a_rank_that_ends_without_a_result_is_an_error_not_a_wait(monkeypatch):
    monkeypatch.setattr(launch, "_rank_main", _ends_without_reporting)
    with pytest.raises(DistributedError, match="without a result"):
        run_ranks(_copy("{replicated}", "{replicated}"), [[]] * 2, timeout=None)
