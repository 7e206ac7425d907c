"""The real-library programs on the GPU: each stored program of tests/data/reallibs (flax,
equinox, haiku, keras 3, optax, plain JAX, HuggingFace through from_torch) at each stored
size, dynhlo's GPU backend against XLA's GPU compile of the same stored module.

    python bench/gpu_reallibs.py [--budget 0.5] [--out FILE.json] [NAME ...]   # one GPU

Per program: the stored StableHLO text through `dynhlo.parse_stablehlo` and
`dynhlo.compile(backend="gpu")` once (the module is bounded: one executable serves every
size), its runner (`graph`, `segments` or the plain per-launch path) and, when not the graph,
why. Per size:

- exactness: dynhlo's GPU outputs against the stored reference outputs (jax.jit's at export
  time, or eager PyTorch's), with the tolerance tests/frontends/test_real_libraries.py uses,
  and max |gpu - cpu| / max |cpu| against dynhlo's CPU backend on the same arguments;
- speed: the median wall time of one warm call, results ready (torch.cuda.synchronize) with
  the arguments already on the GPU, for dynhlo and for XLA (bench/xla_stored.py with
  platform "cuda": the module made static at that size, what jax.jit compiles for it).

Writes bench/results/gpu_reallibs.json and a plot when matplotlib is importable.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # torch shares the GPU

import numpy as np  # noqa: E402

import report  # noqa: E402
from real_programs import leaves as _leaves, rel as _rel  # noqa: E402
from timing import warm_ms  # noqa: E402


def program_rows(name: str, budget: float) -> list[dict]:
    """One row per stored size of program `name`; a refused program gives one row."""
    import torch

    import dynhlo
    from tests.support.reallibs_data import MANIFEST, case, check_outputs, module_text
    from xla_stored import XlaProgram
    entry = MANIFEST[name]
    text = module_text(name)
    base = {"program": name, "library": entry["library"], "dim": entry["dim"],
            "bound": entry["bound"]}
    try:
        module = dynhlo.parse_stablehlo(text)
        gpu = dynhlo.compile(module, backend="gpu")
        cpu = dynhlo.compile(module)
    except dynhlo.DynHloError as exc:
        return [{**base, "refused": f"{type(exc).__name__}: {str(exc).splitlines()[0]}"}]
    base["runner"] = gpu.program.mode
    base["not_graph_because"] = None if gpu.program.mode == "graph" else gpu.program.graph_refusal
    rows = []
    for size in entry["sizes"]:
        args, expected = case(name, size)
        row = {**base, "size": size}
        # (np.array, not np.ascontiguousarray: a 0-d argument stays 0-d)
        targs = [torch.from_numpy(np.array(a, order="C")).cuda() for a in args]

        def call_gpu():
            out = gpu(*targs)
            torch.cuda.synchronize()
            return out
        try:
            got = [t.cpu().numpy() for t in _leaves(call_gpu())]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                ref = [np.asarray(o) for o in _leaves(cpu(*args))]
            row["gpu_vs_cpu"] = max(_rel(g, c) for g, c in zip(got, ref, strict=True))
            try:
                row["max_abs_err"] = check_outputs(name, got, expected)
            except AssertionError as exc:
                row["error"] = (str(exc).strip().splitlines() or ["mismatch"])[0][:200]
            row["dynhlo_ms"] = warm_ms(call_gpu, budget)
        except Exception as exc:  # noqa: BLE001  (a failure is a result)
            row["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            rows.append(row)
            continue
        try:
            xla = XlaProgram(text, args, expected, platform="cuda")
            row["xla_compile_s"] = xla.compile_s
            row["xla_ms"] = warm_ms(xla.run, budget)
            row["dynhlo_vs_xla"] = row["dynhlo_ms"] / row["xla_ms"]
        except Exception as exc:  # noqa: BLE001  (XLA refusing a size is a result)
            row["xla_error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
        rows.append(row)
    return rows


def markdown(rows: list[dict]) -> str:
    lines = ["| program | size | runner | max abs err | gpu vs cpu | dynhlo ms | XLA ms | "
             "dynhlo / XLA |", "|---|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        if "refused" in r:
            lines.append(f"| {r['program']} | - | refused: {r['refused']} | | | | | |")
            continue
        err = r.get("error") or f"{r.get('max_abs_err', float('nan')):.1e}"

        def num(key, fmt):
            return format(r[key], fmt) if key in r else "-"
        lines.append(f"| {r['program']} | {r['size']} | {r['runner']} | {err} | "
                     f"{num('gpu_vs_cpu', '.1e')} | {num('dynhlo_ms', '.3f')} | "
                     f"{num('xla_ms', '.3f')} | {num('dynhlo_vs_xla', '.1f')} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds of warm calls")
    parser.add_argument("--out")
    opts = parser.parse_args()
    from tests.support import gpucheck  # noqa: F401  (a GPU, or say why not)
    import torch

    from tests.support.reallibs_data import MANIFEST
    rows = []
    for name in [n for n in MANIFEST if not opts.names or n in opts.names]:
        try:
            got = program_rows(name, opts.budget)
        except Exception as exc:  # noqa: BLE001
            got = [{"program": name, "refused": f"{type(exc).__name__}: {exc}"[:300]}]
        rows += got
        print(markdown(got).splitlines()[-1] if len(got) == 1 else
              "\n".join(markdown(got).splitlines()[2:]), flush=True)
        by = got[0].get("not_graph_because")
        if by:
            print(f"  {name}: {got[0]['runner']}: {by[:200]}", flush=True)
    print(markdown(rows))
    report.save("gpu_reallibs", {"device": torch.cuda.get_device_name(), "rows": rows},
                plot=_plot, out=opts.out)


def _plot(data: dict, path: Path) -> None:
    """ms per warm call at each program and size: dynhlo on the GPU against XLA's."""
    rows = [r for r in data["rows"] if "dynhlo_ms" in r]
    report.bars(path, f"real-library programs ({data['device']})",
                [f"{r['program']} {r['size']}" for r in rows],
                {"dynhlo GPU": [r["dynhlo_ms"] for r in rows],
                 "XLA GPU": [r.get("xla_ms") for r in rows]}, "ms per call", log=True)


if __name__ == "__main__":
    main()
