"""How many CPUs a CPU benchmark process may use: one, pinned, or all of them.

A library of the benchmarks (cpu_compare.py), not a benchmark. It imports only `os` and
`sys`, because everything it sets must be in place before NumPy, OpenBLAS, numba/llvmlite or
jaxlib are imported: their thread pools are sized when they load.

- `one`: the process is pinned to one CPU (`os.sched_setaffinity(0, {cpu})`; every thread it
  or its children start runs there), OMP/OpenBLAS/MKL threads = 1 and XLA's CPU flags for one
  thread (`--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1`). The flags alone
  are not enough: jax 0.10.2's CPU dot still ran a 512x1024x1024 f32 product on both cores of a
  2-core machine at ~225 GFLOP/s against ~92 under `taskset -c 0`; the affinity is what holds
  every way (dynhlo compiled, reference, XLA) to one core.
- `all`: no pinning (the process keeps the CPUs it was given), OMP/OpenBLAS/MKL threads =
  the number of those CPUs, and XLA_FLAGS without the one-thread flags.

    setup = plan("one", cpu=None)   # {"threads", "cpus", "env", "xla_flags"}; changes nothing
    apply(setup)                    # pins and sets the environment; call before the imports
    setup = from_argv(sys.argv)     # plan + apply for `--threads one|all [--cpu N]`, else None
    argv_of(setup)                  # ["--threads", "one", "--cpu", "0"]: the same in a child
"""

from __future__ import annotations

import os
import sys

MODES = ("one", "all")
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
ONE_THREAD_XLA = ("--xla_cpu_multi_thread_eigen=false", "intra_op_parallelism_threads=1")


def allowed_cpus() -> list[int]:
    """The CPUs this process may run on (its affinity; all of os.cpu_count() where the OS has
    no affinity call)."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def plan(mode: str, cpu: int | None = None) -> dict:
    """The setup of `mode` ('one' or 'all') for this process, as a JSON-able dict:
    threads (the mode), cpus (the CPU set the process will run on), env (the thread-count
    variables to set) and xla_flags (XLA_FLAGS to set). `cpu` picks the one CPU of mode
    'one' (default: the first allowed CPU). Raises ValueError for another mode, for a `cpu`
    given with mode 'all', or for a `cpu` outside the allowed set."""
    if mode not in MODES:
        raise ValueError(f"cpu_threads.plan: threads must be one of {MODES}, not {mode!r}")
    cpus = allowed_cpus()
    flags = [f for f in os.environ.get("XLA_FLAGS", "").split() if f not in ONE_THREAD_XLA]
    if mode == "one":
        if cpu is None:
            cpu = cpus[0]
        if cpu not in cpus:
            raise ValueError(f"cpu_threads.plan: cpu {cpu} is not one of this process's "
                             f"CPUs {cpus}")
        return {"threads": "one", "cpus": [cpu], "env": {v: "1" for v in THREAD_VARS},
                "xla_flags": " ".join(flags + list(ONE_THREAD_XLA))}
    if cpu is not None:
        raise ValueError("cpu_threads.plan: --cpu is for --threads one (all: no pinning)")
    count = str(len(cpus))
    return {"threads": "all", "cpus": cpus, "env": {v: count for v in THREAD_VARS},
            "xla_flags": " ".join(flags)}


def apply(setup: dict) -> dict:
    """Pin this process to setup['cpus'] (mode 'one') and set its environment; returns
    `setup` with `pinned_to` (the affinity read back). Raises RuntimeError when a library
    whose threads are sized at import is already imported (the setup would not reach it)."""
    loaded = [m for m in ("numpy", "jax", "jaxlib", "numba", "llvmlite", "scipy", "torch")
              if m in sys.modules]
    if loaded:
        raise RuntimeError(f"cpu_threads.apply: {', '.join(loaded)} already imported; the "
                           "thread setup must come before them")
    if setup["threads"] == "one" and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(setup["cpus"]))
    os.environ.update(setup["env"])
    if setup["xla_flags"]:
        os.environ["XLA_FLAGS"] = setup["xla_flags"]
    else:
        os.environ.pop("XLA_FLAGS", None)
    return {**setup, "pinned_to": allowed_cpus()}


def parse_argv(argv: list[str]) -> tuple[str | None, int | None]:
    """(`--threads` value, `--cpu` value) of a command line, in either `--x v` or `--x=v`
    form; None where absent. Read before argparse runs, since the setup must precede the
    imports."""
    found: dict[str, str] = {}
    for k, arg in enumerate(argv):
        for name in ("--threads", "--cpu"):
            if arg == name and k + 1 < len(argv):
                found[name] = argv[k + 1]
            elif arg.startswith(name + "="):
                found[name] = arg.split("=", 1)[1]
    cpu = found.get("--cpu")
    return found.get("--threads"), (int(cpu) if cpu is not None else None)


def from_argv(argv: list[str]) -> dict | None:
    """plan + apply for a command line with `--threads one` or `--threads all` (and an
    optional `--cpu N`); None (nothing changed) for any other `--threads` or none."""
    mode, cpu = parse_argv(argv)
    if mode not in MODES:
        return None
    return apply(plan(mode, cpu))


def argv_of(setup: dict) -> list[str]:
    """The command-line arguments that give a child process the same setup (`--threads`, and
    `--cpu` for mode 'one')."""
    if setup["threads"] == "one":
        return ["--threads", "one", "--cpu", str(setup["cpus"][0])]
    return ["--threads", "all"]
