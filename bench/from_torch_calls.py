"""A PyTorch user's warm call: `dynhlo.from_torch(model, ...)` called as the model is,
against the plain executable of the same module and eager PyTorch, on one pinned CPU, one
thread each.

    python bench/from_torch_calls.py --threads one [--cpu N] [--out FILE]

What from_torch adds to a call (the arguments flattened as torch.export's input spec,
each checked: dtype, rank, static sizes, each Dim's range, one size per Dim; the results
turned back into tensors in the forward's output structure) is measured on small modules,
where it is most of the call, with tensors and with NumPy arrays in. Each dynhlo way is
timed in turns with eager PyTorch (timing.paired_warm_ms; eager's figure is from the turns
with from_torch); each row gives the largest difference from eager's result.

Writes bench/results/from_torch_calls.json (or --out) and prints a markdown table.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cpu_threads  # noqa: E402

SETUP = cpu_threads.from_argv(sys.argv)

import argparse  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402

import report  # noqa: E402
from timing import paired_warm_ms  # noqa: E402


def cases() -> list:
    """(name, module, example arguments, dynamic_shapes, the call's arguments)."""
    import torch
    from torch.export import Dim
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.Tanh(),
                              torch.nn.Linear(32, 4)).eval()
    block = torch.nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0,
                                             batch_first=True).eval()
    b, t = Dim("b", max=64), Dim("t", max=256)
    x, seq = torch.randn(4, 16), torch.randn(1, 100, 64)
    return [
        ("mlp [4,16], tensor in", mlp, (x,), ({0: b},), (x,)),
        ("mlp [4,16], NumPy in", mlp, (x,), ({0: b},), (x.numpy(),)),
        ("encoder layer [1,100,64], tensor in", block, (seq,), ({1: t},), (seq,)),
    ]


def rows(budget: float) -> list:
    import torch

    import dynhlo
    out = []
    with torch.no_grad():
        for name, module, example, shapes, args in cases():
            exe = dynhlo.from_torch(module, *example, dynamic_shapes=shapes)
            plain = exe.executable
            flat = [np.asarray(exe.weights[n]) for n in exe.weight_names] + \
                [a.numpy() if isinstance(a, torch.Tensor) else a for a in args]
            eager_args = [torch.as_tensor(a) for a in args]
            want = module(*eager_args).numpy()
            got = np.asarray(exe(*args))

            def eager():
                return module(*eager_args)
            ours, theirs = paired_warm_ms([lambda: exe(*args), eager], budget)
            plain_ms, _ = paired_warm_ms([lambda: plain(*flat), eager], budget)
            out.append({"case": name, "from_torch_us": ours * 1e3,
                        "executable_us": plain_ms * 1e3, "eager_us": theirs * 1e3,
                        "from_torch_vs_eager": ours / theirs,
                        "max_abs_diff": float(np.abs(got - want).max())})
            print(json.dumps(out[-1]), flush=True)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", choices=cpu_threads.MODES, default="one")
    p.add_argument("--cpu", type=int)
    p.add_argument("--budget", type=float, default=2.0, help="seconds per function and row")
    p.add_argument("--out", help="default: bench/results/from_torch_calls.json")
    opts = p.parse_args()
    if SETUP is None:
        sys.exit("run with --threads one (pinned, one thread per side)")
    import torch
    torch.set_num_threads(1)
    data = {"setup": SETUP, "rows": rows(opts.budget)}
    print("| case | from_torch us | its executable us | eager us | from_torch / eager | "
          "max abs diff |\n|---|---:|---:|---:|---:|---:|")
    for r in data["rows"]:
        print(f"| {r['case']} | {r['from_torch_us']:.1f} | {r['executable_us']:.1f} | "
              f"{r['eager_us']:.1f} | {r['from_torch_vs_eager']:.2f} | "
              f"{r['max_abs_diff']:.1e} |")
    report.save("from_torch_calls", data, out=opts.out)


if __name__ == "__main__":
    main()
