"""The graph path on the corpus at every case size, against the expected outputs (and
sizes 0 and 1 replaying one graph). Device check for issue 10; prints one line per model.

    python bench/graph_check.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import torch

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import dynhlo  # noqa: E402
from dynhlo import stats  # noqa: E402


def main() -> None:
    failures = 0
    for d in sorted((REPO / "tests" / "data" / "models").iterdir()):
        if not (d / "cases.json").exists():
            continue
        for module in ("module.hlo", "module_params_only.hlo"):
            exe = dynhlo.compile((d / module).read_text(), backend="gpu", graph=True)
            graph = exe.program.graph
            cases = json.loads((d / "cases.json").read_text())["cases"]
            npz = np.load(d / "cases.npz")
            before = stats.snapshot().get("kernel_compile", 0)
            results = []
            for rep in range(2):
                for case in cases:
                    args = [torch.from_numpy(npz[a["npz_key"]]).cuda() for a in case["args"]]
                    want = npz[case["outputs"][0]["npz_key"]]
                    got = exe(*args)
                    got = got[0] if isinstance(got, tuple) else got
                    ok = np.allclose(got.cpu().numpy(), want, rtol=case.get("rtol", 1e-5),
                                     atol=case.get("atol", 1e-5))
                    results.append(ok)
                    failures += not ok
                if rep == 0:
                    before = stats.snapshot().get("kernel_compile", 0)
            graphs = len(graph.graphs) if graph else 0
            print(f"{d.name:20s} {module:24s} graph={'on' if graph else 'off (' + exe.program.graph_refusal + ')'}"
                  f" graphs={graphs} ok={sum(results)}/{len(results)} "
                  f"compiles after first round={stats.snapshot().get('kernel_compile', 0) - before}")
    failures += transformer()
    if len(sys.argv) > 1:
        failures += aot(sys.argv[1])
    print("FAILURES", failures)


def aot(path: str) -> int:
    """An artifact made on a CPU machine (`dynhlo compile ... --target sm_90`) loads and
    runs the transformer through its graph with zero compilations, as the JIT does."""
    sys.path.insert(0, str(REPO / "bench"))
    from workloads import workloads
    w = workloads()["transformer_48"]
    before = stats.snapshot().get("kernel_compile", 0)
    exe = dynhlo.load(path)
    jit = dynhlo.compile(w.hlo, backend="gpu")
    gen = torch.Generator(device="cuda").manual_seed(1)
    weights = [torch.randn(s, device="cuda", generator=gen) / (s[0] ** 0.5 if len(s) == 2
               else 10) for s in w.shapes(1)[1:]]
    failures = 0
    for n in (0, 1, 100, 2048):
        x = torch.randn(n, 64, device="cuda", generator=gen)
        loaded_compiles = stats.snapshot().get("kernel_compile", 0)
        got = exe(x, *weights)
        loaded_compiles = stats.snapshot().get("kernel_compile", 0) - loaded_compiles
        want = jit(x, *weights)
        err = ((got - want).abs().max() / want.abs().max().clamp_min(1e-30)).item() if n \
            else 0.0
        ok = got.shape == want.shape and err < 1e-6 and loaded_compiles == 0
        failures += not ok
        print(f"aot transformer_48 n={n:5d} rel diff to the JIT {err:.1e}; "
              f"compilations in the loaded call: {loaded_compiles}")
    graph = exe.program.graph
    print(f"aot graph={'on' if graph else exe.program.graph_refusal}; load+calls compiled "
          f"{stats.snapshot().get('kernel_compile', 0) - before} (the JIT's included)")
    return failures


def transformer() -> int:
    """The 48-layer transformer (default options: the graph path) at sizes 0, 1 and up to
    the bound, against torch in float64: one graph, no compilation after the first size."""
    sys.path.insert(0, str(REPO / "bench"))
    from workloads import workloads
    w = workloads()["transformer_48"]
    exe = dynhlo.compile(w.hlo, backend="gpu")
    gen = torch.Generator(device="cuda").manual_seed(0)
    weights = [torch.randn(s, device="cuda", generator=gen) / (s[0] ** 0.5 if len(s) == 2
               else 10) for s in w.shapes(1)[1:]]
    failures, before = 0, None
    for n in (0, 1, 7, 128, 1000, 2048):
        x = torch.randn(n, 64, device="cuda", generator=gen)
        got = exe(x, *weights)
        if before is None:
            before = stats.snapshot().get("kernel_compile", 0)
        err = 0.0
        if n:  # (torch's amax refuses an empty row)
            ref = w.torch_fn(x.double(), *[t.double() for t in weights])
            err = ((got.double() - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()
        ok = tuple(got.shape) == (n, 64) and err < 1e-5
        failures += not ok
        print(f"transformer_48 n={n:5d} rel err vs float64 {err:.1e} ok={ok}")
    graph = exe.program.graph
    print(f"transformer_48 graph={'on' if graph else exe.program.graph_refusal} graphs="
          f"{len(graph.graphs) if graph else 0} launches={len(graph.prog.steps) if graph else 0}"
          f" compiles after first size={stats.snapshot().get('kernel_compile', 0) - before}")
    return failures


if __name__ == "__main__":
    main()
