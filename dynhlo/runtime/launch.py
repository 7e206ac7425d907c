"""Run a partitioned module on N local processes, one per device (`dynhlo run --nproc N`).

Each process joins one torch.distributed process group (gloo for the cpu backend, NCCL for
the gpu, one GPU per process), compiles the module with distributed=True and runs it on its
shard of each argument: the parent cuts every full argument by its entry parameter's
`sharding=` (dynhlo.hlo.sharding; a parameter without one is given whole to every device),
and partition p of every replica gets tile p. The ranks' results come back to the parent,
which assembles them by the ROOT's `sharding=`; without one, the ranks must agree (a
replicated result) or the run fails saying so.

Nothing hangs: the process group has a timeout, the parent waits with a deadline, and the
first rank that fails ends the run (the others are terminated) with a one-line
DistributedError naming the rank.
"""

from __future__ import annotations

import datetime
import os
import queue
import tempfile
import time
import traceback

import numpy as np

from ..errors import DynHloError
from ..hlo.collectives import Devices
from ..hlo.ir import HloModule
from ..hlo.sharding import WHOLE, parse_sharding
from .executable import as_module
from .executable import compile as compile_module


class DistributedError(DynHloError):
    """A distributed run failed: a rank raised or died, or the run passed its deadline."""


def run_distributed(module: HloModule | str, args: list, nproc: int, backend: str = "cpu",
                    timeout: float = 120.0):
    """Run `module` on `nproc` local processes and return the assembled result (a NumPy
    array, or a tuple for a tuple root), as `Executable.__call__` would on one device.

    Args:
        module: a partitioned module (per-device shapes; replica_count x num_partitions must
            be `nproc`) or its text.
        args: the full (unsharded) arguments, one per entry parameter.
        nproc: the number of processes (devices).
        backend: "cpu" (gloo, forked processes) or "gpu" (NCCL, spawned, one GPU each).
        timeout: seconds for the whole run, and for any one collective.

    Raises:
        DistributedError: a rank failed (its one-line error), died, or the run timed out.
        UnsupportedError: nproc does not match the module's devices, or a sharding or size
            dynhlo cannot cut.
    """
    module = as_module(module, "run_distributed")
    devices = Devices.of(module)
    if nproc != devices.world_size:
        raise DistributedError(
            f"--nproc {nproc}: module '{module.name}' runs on replica_count="
            f"{devices.replica_count} x num_partitions={devices.num_partitions} = "
            f"{devices.world_size} devices")
    params = module.entry.parameters
    if len(args) != len(params):
        raise DistributedError(f"module '{module.name}' takes {len(params)} arguments, "
                               f"got {len(args)}")
    shards = [[_piece(p, a, devices.partition_id(rank)) for p, a in zip(params, args)]
              for rank in range(nproc)]
    results = run_ranks(module, shards, backend, timeout)
    return assemble(module, [results[r] for r in range(devices.num_partitions)], results)


def run_ranks(module: HloModule | str, rank_args: list[list], backend: str = "cpu",
              timeout: float = 120.0) -> list:
    """Run `module` on one process per entry of `rank_args` (rank r gets `rank_args[r]`, its
    own per-device arguments, as torchrun would) and return every rank's result, by rank.

    Raises DistributedError (a rank failed or died, the deadline passed, or the number of
    ranks is not the module's replica_count x num_partitions).
    """
    module = as_module(module, "run_ranks")
    devices = Devices.of(module)
    if len(rank_args) != devices.world_size:
        raise DistributedError(
            f"--nproc {len(rank_args)}: module '{module.name}' runs on replica_count="
            f"{devices.replica_count} x num_partitions={devices.num_partitions} = "
            f"{devices.world_size} devices")
    return _launch(module.to_text(), rank_args, len(rank_args), backend, timeout)


def _piece(param, value, partition: int):
    """Partition `partition`'s piece of the full argument `value` of `param`; a piece whose
    shape cannot be the parameter's is refused here, before any process starts."""
    where = f"parameter {param.parameter_number} ('{param.name}')"
    text = param.attrs.get("sharding")
    sharding = parse_sharding(text, where)
    if isinstance(sharding, list) or not isinstance(value, np.ndarray):
        return value  # tuple parameters and Python scalars go whole
    piece = sharding.piece(value, partition, where)
    shape = param.shape
    if not shape.is_tuple and (piece.ndim != len(shape.dims) or any(
            (n > d >= 0) or (n != d and not dyn)
            for n, d, dyn in zip(piece.shape, shape.dims, shape.dynamic or
                                 (False,) * len(shape.dims)))):
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
    sharding = parse_sharding(root.attrs.get("sharding"), f"the ROOT '{root.name}'")
    if "sharding" not in root.attrs:
        first = _flat(results[0])
        for rank, other in enumerate(results[1:], 1):
            if any(a.shape != b.shape or not np.array_equal(a, b, equal_nan=True)
                   for a, b in zip(first, _flat(other), strict=True)):
                raise DistributedError(
                    f"the ranks' results differ (rank 0 and rank {rank}) and the ROOT "
                    f"'{root.name}' has no sharding= saying how they form one array; add "
                    "sharding={devices=[...]...} to the ROOT")
        return results[0]
    if isinstance(sharding, list):
        return tuple(s.assemble([p[i] for p in pieces], f"output {i}")
                     for i, s in enumerate(sharding))
    if sharding is WHOLE:
        return pieces[0]
    return sharding.assemble(pieces, "the result")


def _flat(value) -> list[np.ndarray]:
    if isinstance(value, tuple):
        return [a for v in value for a in _flat(v)]
    return [np.asarray(value)]


def _launch(text: str, shards: list, nproc: int, backend: str, timeout: float) -> list:
    import torch
    import torch.multiprocessing as mp
    # fork: the parent's imports come along (a spawned process pays for torch's again);
    # CUDA cannot be forked once initialised, so CUDA GPUs spawn (the interpreter forks).
    cuda = backend == "gpu" and torch.cuda.is_available()
    if cuda and nproc > torch.cuda.device_count():
        raise DistributedError(f"--nproc {nproc} needs {nproc} GPUs (one per process, as "
                               f"NCCL requires); this host has {torch.cuda.device_count()}")
    ctx = mp.get_context("spawn" if cuda else "fork")
    messages = ctx.Queue()
    with tempfile.TemporaryDirectory(prefix="dynhlo-dist-") as tmp:
        store = os.path.join(tmp, "store")  # a FileStore: no port to pick, none to collide
        procs = [ctx.Process(target=_rank_main, daemon=True,
                             args=(rank, nproc, text, shards[rank], backend, cuda, store,
                                   timeout, messages))
                 for rank in range(nproc)]
        for p in procs:
            p.start()
        try:
            return _collect(procs, messages, nproc, timeout)
        finally:
            for p in procs:
                if p.is_alive():
                    p.terminate()
            for p in procs:
                p.join(5)
                if p.is_alive():
                    p.kill()
                    p.join()


def _collect(procs, messages, nproc: int, timeout: float) -> list:
    results: dict[int, object] = {}
    deadline = time.monotonic() + timeout
    while len(results) < nproc:
        try:
            kind, rank, payload = messages.get(timeout=0.2)
        except queue.Empty:
            for rank, p in enumerate(procs):
                if rank not in results and p.exitcode not in (None, 0):
                    raise DistributedError(f"rank {rank} died (exit code {p.exitcode})"
                                           ) from None
            if time.monotonic() > deadline:
                missing = sorted(set(range(nproc)) - set(results))
                raise DistributedError(f"ranks {missing} did not finish within {timeout:g} s"
                                       ) from None
            continue
        if kind == "error":
            raise DistributedError(f"rank {rank}: {payload}")
        results[rank] = payload
    return [results[r] for r in range(nproc)]


def _rank_main(rank, nproc, text, args, backend, cuda, store, timeout, messages):
    """One device's process: join the group, compile distributed, run, report. With CUDA,
    rank r runs on GPU r (of this host) and the group is NCCL's; else gloo's."""
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
                                timeout=datetime.timedelta(seconds=timeout),
                                device_id=device)
        try:
            exe = compile_module(text, backend=backend, distributed=True)
            messages.put(("ok", rank, exe(*args)))
        finally:
            dist.destroy_process_group()
    except DynHloError as exc:
        messages.put(("error", rank, _first_line(exc)))
    except BaseException as exc:  # noqa: BLE001 - any failure must reach the parent
        if os.environ.get("DYNHLO_TRACEBACK"):
            traceback.print_exc()
        messages.put(("error", rank, f"{type(exc).__name__}: {_first_line(exc)}"))


def _first_line(exc: BaseException) -> str:
    lines = str(exc).splitlines()
    return lines[0] if lines else type(exc).__name__


__all__ = ["DistributedError", "assemble", "run_distributed", "run_ranks"]
