"""Host time of one kernel launch: dynhlo's cubin launcher against Triton's C launcher.

On a GPU the plain path launches each generated kernel through a cubin launcher's `direct`
(ctypes into cuLaunchKernel, launch/launcher.py); before 2026-12-02, through Triton's C
launcher (launch/launcher.py's direct_launch). This times both on the same kernel and arguments, in one
process, alternating rounds so that drift in the machine's speed hits both alike:

- launch: `direct(grid0, stream, pointers, sizes)` alone, N back to back, host clock / N;
- call: a whole executable call (torch tensor in, tensor out) of the same module with each
  launcher, N back to back.

    python bench/launch_overhead.py [--module tests/filecheck/softmax_rows.hlo] [--rows 3]

`--device cpu` (no GPU): the call alone, in Triton's interpreter with a stand-in driver that
launches nothing (standin.py), i.e. the host's part of a call; with `--impl DIR` from
another checkout, to compare two versions' per-call host cost on one machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import report  # noqa: E402


def executables(text: str):
    """{label: executable} of the module, with cubin launchers and with Triton's."""
    import dynhlo
    from dynhlo.backends import gpu
    from dynhlo.backends.gpu.launch.launcher import jit_launcher
    cubin = dynhlo.compile(text, backend="gpu", graph=False)
    real = gpu._launchers
    gpu._launchers = lambda kernels, interpret, fast: {
        id(k): jit_launcher(k, interpret, fast) for k in kernels}
    try:
        triton = dynhlo.compile(text, backend="gpu", graph=False)
    finally:
        gpu._launchers = real
    return {"cubin (ctypes)": cubin, "triton C launcher": triton}


def stand_in_executables(text: str):
    """{label: executable} of the module in the interpreter, launching nothing."""
    import dynhlo
    sys.path.insert(0, str(REPO / "bench"))
    from standin import launching_nothing
    with launching_nothing():
        return {"stand-in driver": dynhlo.compile(text, backend="gpu", interpret=True,
                                                  graph=False)}


def per_call_us(fn, n: int, wait=None) -> float:
    import torch
    wait = wait or torch.cuda.synchronize
    wait()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    wait()
    return 1e6 * (time.perf_counter() - start) / n


def main() -> None:
    import torch
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", default=str(REPO / "tests/filecheck/softmax_rows.hlo"))
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--device", default="cuda",
                        help="cpu: the call's host part alone, with a stand-in driver")
    parser.add_argument("--impl", help="import dynhlo from this folder (default: this repo)")
    parser.add_argument("--out", help="default: bench/results/launch_overhead.json")
    opts = parser.parse_args()
    sys.path.insert(0, str(Path(opts.impl).resolve() if opts.impl else REPO))
    if opts.device == "cpu":
        stand_in(opts, torch)
        return
    exes = executables(Path(opts.module).read_text())
    first = next(iter(exes.values()))
    x = torch.randn(*_shape(first, opts.rows), device="cuda")
    want = first(x)
    launches, calls = {}, {}
    for label, exe in exes.items():
        torch.testing.assert_close(exe(x), want, rtol=0, atol=0)
        launcher = next(iter(exe.program.runner.launchers.values()))
        assert launcher.direct is not None, label
        out = torch.empty_like(want)
        stream = torch.cuda.current_stream().cuda_stream
        pointers, sizes = [x.data_ptr(), out.data_ptr()], [opts.rows]
        launches[label] = (lambda d=launcher.direct, p=pointers, s=sizes:
                           d(1, stream, p, s))
        calls[label] = lambda exe=exe: exe(x)
    results = {label: {"launch": [], "call": []} for label in exes}
    for _ in range(opts.rounds):
        for label in exes:
            results[label]["launch"].append(per_call_us(launches[label], opts.calls))
            results[label]["call"].append(per_call_us(calls[label], opts.calls))
    print(f"{torch.cuda.get_device_name()}; {opts.module} at {opts.rows} rows; medians of "
          f"{opts.rounds} rounds of {opts.calls}, us per launch / call (host clock)")
    for label, r in results.items():
        print(f"{label:20s} launch {statistics.median(r['launch']):6.2f}   "
              f"call {statistics.median(r['call']):6.2f}")
    rows = [{"launcher": label, "launch_us": statistics.median(r["launch"]),
             "call_us": statistics.median(r["call"])} for label, r in results.items()]
    report.save("launch_overhead", {"device": torch.cuda.get_device_name(),
                                    "module": opts.module, "rows": opts.rows,
                                    "rounds": opts.rounds, "calls": opts.calls,
                                    "launchers": rows}, plot=_plot, out=opts.out)


def _plot(data: dict, path: Path) -> None:
    """Host µs of one launch and of one whole call, per launcher."""
    rows = data["launchers"]
    report.bars(path, f"launch overhead ({data['device']})", ["launch", "whole call"],
                {r["launcher"]: [r["launch_us"], r["call_us"]] for r in rows},
                "µs (host clock)")


def _shape(exe, rows: int) -> list:
    param = exe.parameters[0].shape
    return [rows if dyn else size for size, dyn in zip(param.dims, param.dynamic, strict=True)]


def stand_in(opts, torch) -> None:
    """The call alone on the CPU: host work with a driver that launches nothing."""
    import dynhlo
    exes = stand_in_executables(Path(opts.module).read_text())
    x = torch.randn(*_shape(next(iter(exes.values())), opts.rows))
    calls = {label: [] for label in exes}
    for _ in range(opts.rounds):
        for label, exe in exes.items():
            calls[label].append(per_call_us(lambda exe=exe: exe(x), opts.calls, lambda: None))
    print(f"cpu, dynhlo from {Path(dynhlo.__file__).parent}; {opts.module} at {opts.rows} "
          f"rows; {opts.rounds} rounds of {opts.calls}, us per call (host clock; on a shared "
          "machine the minimum is the steadier measure)")
    for label, r in calls.items():
        print(f"{label:20s} call min {min(r):6.2f}  median {statistics.median(r):6.2f}")


if __name__ == "__main__":
    main()
