"""Device time of the staged softmax kernel's generated forms (issue 10, session 9).

The generated staged kernel (codegen.py, STAGED_*) ran the softmax over 37 columns at
262144 rows in 30.4 us of kernel time where the hand-written form of the same algorithm
(bench/narrow_flat.py `softmax_stats`) ran 23.6 us. This times, in one process, the forms
codegen wrote on the way (their sources: bench/data/staged_softmax_forms.json), the form
today's codegen writes, and text variants of it:

- `no tail`: the current form without its last-chunk branch (wrong when the rows end
  inside a vector; shows what the branch costs);
- `s0 specialized`: Triton told the row count's divisibility (what a hand-written launch
  with n = 262144 gets), the hand-written kernel with and without it.

Kernel time is torch.profiler's device time per launch, 20 launches after an L2 flush
each; `do_bench` the median of whole launches from Python.

    python bench/staged_forms.py          # on the GPU
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

ROWS = 262144


def current_form() -> dict:
    """Today's codegen's staged softmax kernel (source, constexprs, warps)."""
    import dynhlo
    from dynhlo.backends.gpu.plan.fusion import kernels_of
    from narrow_gather import softmax_hlo
    kernel = kernels_of(dynhlo.compile(softmax_hlo(ROWS), backend="gpu").program.plan)[0]
    return {"source": kernel.source, "constexprs": kernel.block, "num_warps": kernel.num_warps,
            "maxnreg": kernel.maxnreg}


def device_us(fn, flush) -> float:
    """torch.profiler's device time of one call of `fn` (its kernels), L2 flushed before."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(20):
            flush.zero_()
            fn()
        torch.cuda.synchronize()
    events = [e for e in prof.key_averages() if e.device_time_total > 0 and not any(
        w in e.key for w in ("elementwise", "fill", "zero"))]
    return sum(e.device_time_total / e.count for e in events)


def main() -> None:
    import torch
    import triton
    import narrow_flat
    from dynhlo.backends.gpu.launch.kernel_cache import load_kernel
    forms = json.loads((REPO / "bench/data/staged_softmax_forms.json").read_text())
    now = current_form()
    forms["today's codegen"] = now
    src = now["source"]
    whole = src.split("    else:   # the last chunk")[0]
    forms["today's codegen, no tail (wrong at a partial chunk)"] = {
        **now, "source": whole.replace("    if (pid + 1) * BM <= (s0):   # a whole chunk\n", "")
        .replace("\n        ", "\n    ")}
    for tag in list(forms):
        if tag.startswith("today") or "tail repeated" in tag:
            forms[tag + ", s0 specialized"] = {**forms[tag], "source": forms[tag]["source"]
                                               .replace("@triton.jit(do_not_specialize=['s0'])",
                                                        "@triton.jit")}
    x = torch.randn(ROWS, 37, device="cuda")
    out = torch.empty_like(x)
    want = torch.softmax(x, -1)
    runs = {}
    for tag, form in forms.items():
        fn = load_kernel(form["source"], "kernel", False)
        runs[tag] = (lambda fn=fn, form=form: fn[(ROWS // 64,)](
            x, out, ROWS, **form["constexprs"], num_warps=form["num_warps"],
            **({"maxnreg": form["maxnreg"]} if form.get("maxnreg") else {})))
    stats_free = triton.jit(do_not_specialize=["n"])(narrow_flat.softmax_stats.fn)
    runs["hand-written (narrow_flat.softmax_stats R=64 w4)"] = lambda: narrow_flat.launch_stats(
        x, out, 64, 4, True)
    runs["hand-written, n not specialized"] = lambda: stats_free[(ROWS // 64,)](
        x, out, ROWS, C=37, CP=64, R=64, FLAT=4096, NAN=True, num_warps=4)
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    print(f"{'form':84s} {'kernel us':>9s} {'do_bench us':>11s}  max error")
    for tag, fn in runs.items():
        out.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        err = (out - want).abs().max().item()
        bench = 1e3 * triton.testing.do_bench(fn, return_mode="median")
        print(f"{tag:84s} {device_us(fn, flush):9.1f} {bench:11.1f}  {err:.1e}", flush=True)


if __name__ == "__main__":
    main()
