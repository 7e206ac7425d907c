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
from dynhlo.runtime import stats  # noqa: E402


def main() -> None:
    failures = 0
    for d in sorted((REPO / "tests" / "data" / "models").iterdir()):
        if not (d / "cases.json").exists():
            continue
        for module in ("module.hlo", "module_params_only.hlo"):
            exe = dynhlo.compile((d / module).read_text(), backend="gpu")
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
    print("FAILURES", failures)


if __name__ == "__main__":
    main()
