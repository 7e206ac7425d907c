"""Run a partitioned module on N local processes, one per device (`dynhlo run --nproc N`).

Each process joins one torch.distributed process group (gloo for the cpu backend, NCCL for
the gpu, one GPU per process), compiles the module with distributed=True and runs it on its
shard of each argument: the parent cuts every full argument by its entry parameter's
`sharding=` (dynhlo.hlo.sharding; a parameter without one is given whole to every device),
and partition p of every replica gets tile p. The ranks' results come back to the parent,
which assembles them by the ROOT's `sharding=`; without one, the ranks must agree (a
replicated result) or the run fails saying so.

The module is verified first, so a malformed `sharding=` is an HloVerifyError before any
process starts; the launcher also needs every sharding it cuts or assembles by to name each
partition of the module (XLA checks that only when num_partitions is above 1).

Ranks on the CPU are forked from a forkserver, never from the parent: a rank forked from a
parent that has used torch's intra-op thread pool deadlocks in its first parallel op (the
fork copies the pool's locks, not its threads). CUDA ranks are spawned (CUDA cannot be
forked once initialised). Each rank gets the parent's environment at launch.

Nothing hangs: the process group has a timeout, the parent waits with a deadline (none with
timeout=None or 0), and the first rank that fails ends the run (the others are terminated)
with a one-line DistributedError naming the rank. Ranks ignore SIGINT: Ctrl-C interrupts the
parent (KeyboardInterrupt), which ends every rank before it returns.
"""

from __future__ import annotations

import datetime
import math
import os
import queue
import signal
import tempfile
import time
import traceback

import numpy as np

from .. import config
from ..errors import DynHloError, HloVerifyError, UnsupportedError
from ..hlo.collectives import Devices
from ..hlo.ir import HloModule, Instruction
from ..hlo.sharding import WHOLE, AnySharding, check_sharding, parse_sharding
from ..hlo.verify import verify_module
from .executable import as_module
from .executable import compile as compile_module

DEFAULT_TIMEOUT = 120.0
"""Seconds a run may take unless the caller says otherwise (`--timeout`)."""

# The process group's timeout without a deadline: a year (a larger timedelta overflows
# torch's nanosecond clock).
_NO_DEADLINE = datetime.timedelta(days=365)

# What a forkserver imports once, before it forks any rank: a rank then starts in
# milliseconds, not the ~2 s of importing torch and dynhlo.
_PRELOAD = ["dynhlo.runtime.launch", "dynhlo.backends.cpu", "torch.distributed"]


class DistributedError(DynHloError):
    """A distributed run failed: a rank raised or died, or the run passed its deadline."""


def run_distributed(module: HloModule | str, args: list, nproc: int, backend: str = "cpu",
                    timeout: float | None = DEFAULT_TIMEOUT, **options):
    """Run `module` on `nproc` local processes and return the assembled result (a NumPy
    array, or a tuple for a tuple root), as `Executable.__call__` would on one device.
    Ranks start as spawned processes do, importing the main module: a script that calls
    this keeps its top level under `if __name__ == "__main__":`.

    Args:
        module: a partitioned module (per-device shapes; replica_count x num_partitions must
            be `nproc`) or its text.
        args: the full (unsharded) arguments, one per entry parameter.
        nproc: the number of processes (devices).
        backend: "cpu" (gloo, processes forked from a forkserver) or "gpu" (NCCL, spawned,
            one GPU each).
        timeout: seconds for the whole run, and for any one collective; None or 0: no
            deadline (Ctrl-C still ends every rank).
        options: compile() keywords for every rank (interpret=True for the gpu backend in
            Triton's interpreter with gloo, max_while_iterations, ...).

    Raises:
        DistributedError: a rank failed (its one-line error), died, or the run timed out;
            a sharding that does not name each of the module's partitions once.
        HloVerifyError: the module is malformed (a sharding of the wrong rank, ...).
        UnsupportedError: nproc does not match the module's devices, or a sharding or size
            dynhlo cannot cut.
    """
    seconds = _seconds(timeout)
    module = _checked(as_module(module, "run_distributed"), nproc)
    devices = Devices.of(module)
    params = module.entry.parameters
    if len(args) != len(params):
        raise DistributedError(f"module '{module.name}' takes {len(params)} arguments, "
                               f"got {len(args)}")
    cuts = [_sharding(p, devices, _where(p)) for p in params]
    _sharding(module.entry.root, devices, f"the ROOT '{module.entry.root.name}'")
    shards = [[_piece(p, s, a, devices.partition_id(rank))
               for p, s, a in zip(params, cuts, args, strict=True)] for rank in range(nproc)]
    results = _launch(module.to_text(), shards, nproc, backend, seconds, options)
    return assemble(module, [results[r] for r in range(devices.num_partitions)], results)


def run_ranks(module: HloModule | str, rank_args: list[list], backend: str = "cpu",
              timeout: float | None = DEFAULT_TIMEOUT, **options) -> list:
    """Run `module` on one process per entry of `rank_args` (rank r gets `rank_args[r]`, its
    own per-device arguments, as torchrun would) and return every rank's result, by rank.
    `timeout` as run_distributed's.

    Raises DistributedError (a rank failed or died, the deadline passed, or the number of
    ranks is not the module's replica_count x num_partitions), HloVerifyError (a malformed
    module).
    """
    seconds = _seconds(timeout)
    module = _checked(as_module(module, "run_ranks"), len(rank_args))
    return _launch(module.to_text(), rank_args, len(rank_args), backend, seconds, options)


def _checked(module: HloModule, nproc: int) -> HloModule:
    """The module, verified, if it runs on `nproc` devices; else DistributedError."""
    verify_module(module)
    devices = Devices.of(module)
    if nproc != devices.world_size:
        raise DistributedError(
            f"--nproc {nproc}: module '{module.name}' runs on replica_count="
            f"{devices.replica_count} x num_partitions={devices.num_partitions} = "
            f"{devices.world_size} devices")
    return module


def _seconds(timeout) -> float | None:
    """The deadline in seconds, or None for none (timeout None, 0 or infinite)."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout >= 0:
        raise DistributedError(f"timeout={timeout!r}: give seconds > 0, or None (or 0) for no "
                               "deadline")
    return None if timeout == 0 or math.isinf(timeout) else float(timeout)


def _where(param: Instruction) -> str:
    return f"parameter {param.parameter_number} ('{param.name}')"


def _sharding(inst: Instruction, devices: Devices, where: str) -> AnySharding | None:
    """`inst`'s sharding (None without one), checked as the launcher needs it: each of the
    module's partitions named once (also when num_partitions is 1, which XLA leaves
    unchecked), and a kind the launcher can cut and assemble by."""
    text = inst.attrs.get("sharding")
    if text is None:
        return None
    sharding = parse_sharding(text)
    try:
        check_sharding(sharding, inst.shape, devices.num_partitions)
    except HloVerifyError as exc:
        raise DistributedError(f"{where}: sharding={text}: {exc.message}") from None
    for one in sharding if isinstance(sharding, tuple) else (sharding,):
        if one.kind not in ("replicated", "maximal", "tiled") or \
                set(one.subgroups) - {"replicated"}:
            this = (f"a {one.kind} one" if one.kind != "tiled" else
                    f"one with {', '.join(one.subgroups)} subgroups")
            raise UnsupportedError(f"{where}: sharding={text}: the launcher cuts and assembles "
                                   "replicated, maximal and tiled shardings (with replicated "
                                   f"subgroups), not {this}")
    return sharding


def _piece(param: Instruction, sharding: AnySharding | None, value, partition: int):
    """Partition `partition`'s piece of the full argument `value` of `param`; a piece whose
    shape cannot be the parameter's is refused here, before any process starts."""
    where = _where(param)
    text = param.attrs.get("sharding")
    sharding = WHOLE if sharding is None else sharding
    if isinstance(sharding, tuple) or not isinstance(value, np.ndarray):
        return value  # tuple parameters and Python scalars go whole
    piece = sharding.piece(value, partition, where)
    shape = param.shape
    if not shape.is_tuple and (piece.ndim != len(shape.dims) or any(
            (n > d >= 0) or (n != d and not dyn)
            for n, d, dyn in zip(piece.shape, shape.dims, shape.dynamic or
                                 (False,) * len(shape.dims), strict=True))):
        cut = f"cut by sharding={text}" if text else "given whole (no sharding=)"
        raise DistributedError(
            f"{where}: the argument of shape {list(value.shape)}, {cut}, gives partition "
            f"{partition} a piece of shape {list(piece.shape)}, but the module takes {shape} "
            "on each device; pass the full (unsharded) array")
    return piece


def assemble(module: HloModule, pieces: list, results: list):
    """The full result from partition p's result `pieces[p]` (replica 0), by the ROOT's
    sharding; without one, every rank's result (`results`) must be the same."""
    root = module.entry.root
    sharding = _sharding(root, Devices.of(module), f"the ROOT '{root.name}'")
    if sharding is None:
        first = _flat(results[0])
        for rank, other in enumerate(results[1:], 1):
            if any(a.shape != b.shape or not np.array_equal(a, b, equal_nan=True)
                   for a, b in zip(first, _flat(other), strict=True)):
                raise DistributedError(
                    f"the ranks' results differ (rank 0 and rank {rank}) and the ROOT "
                    f"'{root.name}' has no sharding= saying how they form one array; add "
                    "sharding={devices=[...]...} to the ROOT")
        return results[0]
    if not root.shape.is_tuple:
        return sharding.assemble(pieces, "the result")
    flat = [_flat(p) for p in pieces]
    # a single sharding on a tuple is each leaf's (XLA's parser normalises it so)
    leaves = sharding if isinstance(sharding, tuple) else (sharding,) * len(flat[0])
    return _rebuild(results[0], iter([s.assemble([f[i] for f in flat], f"output {i}")
                                      for i, s in enumerate(leaves)]))


def _flat(value) -> list[np.ndarray]:
    if isinstance(value, tuple):
        return [a for v in value for a in _flat(v)]
    return [np.asarray(value)]


def _rebuild(like, leaves):
    """`like`'s (nested) tuple structure with its leaves taken in order from `leaves`."""
    if isinstance(like, tuple):
        return tuple(_rebuild(v, leaves) for v in like)
    return next(leaves)


def _launch(text: str, shards: list, nproc: int, backend: str, timeout: float | None,
            options: dict) -> list:
    import torch
    cuda = backend == "gpu" and torch.cuda.is_available() and not options.get("interpret")
    if cuda and nproc > torch.cuda.device_count():
        raise DistributedError(f"--nproc {nproc} needs {nproc} GPUs (one per process, as "
                               f"NCCL requires); this host has {torch.cuda.device_count()}")
    ctx = _context(cuda)
    messages = ctx.Queue()
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="dynhlo-dist-") as tmp:
        store = os.path.join(tmp, "store")  # a FileStore: no port to pick, none to collide
        procs = [ctx.Process(target=_rank_main, daemon=True,
                             args=(rank, nproc, text, shards[rank], backend, cuda, store,
                                   timeout, options, messages, env))
                 for rank in range(nproc)]
        try:
            for p in procs:
                p.start()
            return _collect(procs, messages, nproc, timeout)
        finally:
            _end(procs)


def _context(cuda: bool):
    """spawn for CUDA ranks; else a forkserver that has imported torch and dynhlo (_PRELOAD)
    and nothing else has run in, so no thread pool's locks are forked. (The forkserver is
    one per process: its preload list is set here, before its first use.)"""
    import torch.multiprocessing as mp
    if cuda:
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(_PRELOAD)
    return ctx


def _end(procs) -> None:
    """End every started rank: SIGTERM, then SIGKILL for one still there 5 s later or when a
    second Ctrl-C cuts the wait short. No rank outlives the run."""
    started = [p for p in procs if p.pid is not None]
    for p in started:
        if p.is_alive():
            p.terminate()
    try:
        give_up = time.monotonic() + 5
        for p in started:
            p.join(max(0.0, give_up - time.monotonic()))
    finally:
        for p in started:
            if p.is_alive():
                p.kill()
                p.join()


def _collect(procs, messages, nproc: int, timeout: float | None) -> list:
    results: dict[int, object] = {}
    deadline = None if timeout is None else time.monotonic() + timeout
    silent: set[int] = set()  # ranks seen ended with code 0 and no result yet
    while len(results) < nproc:
        try:
            kind, rank, payload = messages.get(timeout=0.2)
        except queue.Empty:
            for rank, p in enumerate(procs):
                if rank in results or p.exitcode is None:
                    continue
                if p.exitcode != 0:
                    raise DistributedError(f"rank {rank} died (exit code {p.exitcode})"
                                           ) from None
                # a rank's result is in the queue before it exits: one more empty wait
                # after its exit means it ended without one (else the wait never ends)
                if rank in silent:
                    raise DistributedError(f"rank {rank} ended (exit code 0) without a "
                                           "result") from None
                silent.add(rank)
            if deadline is not None and time.monotonic() > deadline:
                missing = sorted(set(range(nproc)) - set(results))
                raise DistributedError(f"ranks {missing} did not finish within {timeout:g} s"
                                       ) from None
            continue
        if kind == "error":
            raise DistributedError(f"rank {rank}: {payload}")
        results[rank] = payload
    return [results[r] for r in range(nproc)]


def _rank_main(rank, nproc, text, args, backend, cuda, store, timeout, options, messages,
               env):
    """One device's process: join the group, compile distributed, run, report. With CUDA,
    rank r runs on GPU r (of this host) and the group is NCCL's; else gloo's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it ends the ranks
    os.environ.clear()  # the parent's at launch, not the forkserver's at its start
    os.environ.update(env)
    try:
        import torch.distributed as dist
        device = None
        if cuda:
            import torch
            device = torch.device("cuda", rank)
            torch.cuda.set_device(device)
        # device_id: NCCL's communicator is made now, by every rank together, so a first
        # collective-permute (point to point, not every rank sends) does not have to.
        dist.init_process_group("nccl" if cuda else "gloo",
                                init_method=f"file://{store}", rank=rank, world_size=nproc,
                                timeout=_NO_DEADLINE if timeout is None else
                                datetime.timedelta(seconds=timeout),
                                device_id=device)
        try:
            # Every rank finishes joining before any may leave: a rank that ran a module
            # without collectives and destroyed its group while another was still connecting
            # failed that one ("Gloo connectFullMesh failed ... Connection closed by peer").
            dist.barrier()
            exe = compile_module(text, backend=backend, distributed=True, **options)
            messages.put(("ok", rank, exe(*args)))
        finally:
            dist.destroy_process_group()
    except DynHloError as exc:
        messages.put(("error", rank, _first_line(exc)))
    except BaseException as exc:  # noqa: BLE001 - any failure must reach the parent
        if config.traceback():
            traceback.print_exc()
        messages.put(("error", rank, f"{type(exc).__name__}: {_first_line(exc)}"))


def _first_line(exc: BaseException) -> str:
    lines = str(exc).splitlines()
    return lines[0] if lines else type(exc).__name__


__all__ = ["DEFAULT_TIMEOUT", "DistributedError", "assemble", "run_distributed", "run_ranks"]
