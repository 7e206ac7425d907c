"""Host time of one kernel launch: dynhlo's cubin launcher against Triton's C launcher.

On a GPU the plain path launches each generated kernel through CubinLauncher.direct (ctypes
into cuLaunchKernel, launch/cubin.py) since the tenth session; before, through Triton's C
launcher (launch/direct.py). This times both on the same kernel and arguments, in one
process, alternating rounds so that drift in the machine's speed hits both alike:

- launch: `direct(grid0, stream, pointers, sizes)` alone, N back to back, host clock / N;
- call: a whole executable call (torch tensor in, tensor out) of the same module with each
  launcher, N back to back.

    python bench/launch_overhead.py [--module tests/filecheck/softmax_rows.hlo] [--rows 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def executables(text: str):
    """{label: executable} of the module, with cubin launchers and with Triton's."""
    import dynhlo
    from dynhlo.backends import gpu
    from dynhlo.backends.gpu.launch.jit import JitLauncher
    cubin = dynhlo.compile(text, backend="gpu", graph=False)
    real = gpu._launchers
    gpu._launchers = lambda kernels, interpret, fast: {
        id(k): JitLauncher(k, interpret, fast) for k in kernels}
    try:
        triton = dynhlo.compile(text, backend="gpu", graph=False)
    finally:
        gpu._launchers = real
    return {"cubin (ctypes)": cubin, "triton C launcher": triton}


def per_call_us(fn, n: int) -> float:
    import torch
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    torch.cuda.synchronize()
    return 1e6 * (time.perf_counter() - start) / n


def main() -> None:
    import torch
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", default=str(REPO / "tests/filecheck/softmax_rows.hlo"))
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=15)
    opts = parser.parse_args()
    exes = executables(Path(opts.module).read_text())
    first = next(iter(exes.values()))
    shape = [opts.rows if dyn else size for size, dyn in
             zip(first.parameters[0].shape.dims, first.parameters[0].shape.dynamic, strict=True)]
    x = torch.randn(*shape, device="cuda")
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


if __name__ == "__main__":
    main()
