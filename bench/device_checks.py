"""GPU backend checks on a real device (correctness, not speed), and the artifacts they load.

    python bench/device_checks.py graph [ARTIFACT]   # on the GPU: the graph path on the corpus
                                                     # at every case (twice: no compilation in
                                                     # the second round), the 48-layer
                                                     # transformer against float64 at n = 0 to
                                                     # 2048, and an artifact made on a CPU
                                                     # machine (`dynhlo compile
                                                     # tests/data/large/transformer_48_layers_
                                                     # bounded.hlo --backend gpu --target sm_90
                                                     # -o ARTIFACT`)
                                                     # against the JIT, with 0 compilations
    python bench/device_checks.py aot-build DIR      # here, no GPU: corpus artifacts for sm_90
    python bench/device_checks.py aot-check DIR      # on the GPU: load, run every case, count
                                                     # Triton compilations (must be 0)
    python bench/device_checks.py sanitize           # seed + every model at sizes 1, middle,
                                                     # bound (run under compute-sanitizer)

Each prints one line per model or size; `graph` ends with "FAILURES n".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
MODELS = REPO / "tests" / "data" / "models"
if not MODELS.is_dir():
    MODELS = REPO / "shared" / "models"

import dynhlo  # noqa: E402
from dynhlo.backends import gpu  # noqa: E402,F401
from dynhlo import stats  # noqa: E402

SEED = """HloModule Test
ENTRY main {
  a = f32[<=5, 5]{1,0} parameter(0)
  ROOT b = f32[<=5, 5]{0,1} copy(a)
}
"""


def names():
    return sorted(p.name for p in MODELS.iterdir() if p.is_dir())


def cases(name):
    meta = json.loads((MODELS / name / "cases.json").read_text())
    arrays = np.load(MODELS / name / "cases.npz")
    for case in meta["cases"]:
        yield ([arrays[a["npz_key"]] for a in case["args"]],
               [arrays[o["npz_key"]] for o in case["outputs"]], case)


def check(exe, name) -> int:
    n = 0
    for args, wants, case in cases(name):
        out = exe(*args)
        outs = out if isinstance(out, tuple) else (out,)
        for got, want in zip(outs, wants):
            np.testing.assert_allclose(np.asarray(got, np.float64), want.astype(np.float64),
                                       rtol=case["rtol"], atol=case["atol"])
        n += 1
    return n


def aot_build(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names():
        for fname in ("module.hlo", "module_params_only.hlo"):
            exe = dynhlo.compile((MODELS / name / fname).read_text(), backend="gpu",
                                 target="sm_90")
            exe.save(str(folder / f"{name}.{fname}.dynhlo"))
    dynhlo.compile(SEED, backend="gpu", target="sm_90").save(str(folder / "seed.dynhlo"))
    print("built", len(list(folder.glob("*.dynhlo"))), "artifacts;", stats.snapshot())


def aot_check(folder: Path) -> None:
    before = stats.snapshot().get("kernel_compile", 0)
    total = 0
    for name in names():
        for fname in ("module.hlo", "module_params_only.hlo"):
            exe = dynhlo.load(str(folder / f"{name}.{fname}.dynhlo"))
            total += check(exe, name)
    seed = dynhlo.load(str(folder / "seed.dynhlo"))
    for n in (5, 3):
        a = np.random.default_rng(n).standard_normal((n, 5)).astype(np.float32)
        np.testing.assert_array_equal(seed(a), a)
    try:
        seed(np.zeros((6, 5), np.float32))
        raise SystemExit("size 6 was not refused")
    except dynhlo.ArgumentError as exc:
        print("seed size 6:", exc)
    compiles = stats.snapshot().get("kernel_compile", 0) - before
    print(f"AOT: {total} corpus cases passed from artifacts; kernel compilations: {compiles}")
    if compiles:
        raise SystemExit("AOT load compiled kernels")


def sanitize() -> None:
    seed = dynhlo.compile(SEED, backend="gpu")
    for n in (1, 3, 5):
        a = np.arange(n * 5, dtype=np.float32).reshape(n, 5)
        np.testing.assert_array_equal(seed(a), a)
    runs = 3
    for name in names():
        meta = json.loads((MODELS / name / "cases.json").read_text())
        bound = next(iter(meta["dims"].values()))["bound"]
        text = (MODELS / name / "module.hlo").read_text()
        # attention also through the graph path: its fused kernel and key shares
        exes = [dynhlo.compile(text, backend="gpu")] + \
            ([dynhlo.compile(text, backend="gpu", graph=True)] if name == "attention" else [])
        ref = dynhlo.compile(text, backend="cpu")
        rng = np.random.default_rng(0)
        for exe, n in [(e, n) for e in exes for n in (1, bound // 2 + 1, bound)]:
            args = []
            for p in meta["params"]:
                shape = [n if str(d) in p["dynamic_dims"] else int(str(s).lstrip("<="))
                         for d, s in enumerate(p["bounded_shape"])]
                if p["dtype"] == "s32":
                    args.append(rng.integers(-1000, 1000, shape).astype(np.int32))
                else:
                    args.append(rng.standard_normal(shape).astype(np.float32))
            np.testing.assert_allclose(exe(*args), ref(*args), rtol=1e-4, atol=1e-4)
            runs += 1
    runs += _sanitize_staged()
    print(f"sanitize driver: {runs} runs matched the cpu backend")


def _sanitize_staged() -> int:
    """The softmax with its row bound raised to 40000 (a staged row kernel, codegen.py
    STAGED_*), plain and graph path, at whole and partial last chunks of 64 rows."""
    text = (MODELS / "softmax_rows" / "module.hlo").read_text().replace("<=100", "<=40000")
    ref = dynhlo.compile(text, backend="cpu")
    rng = np.random.default_rng(1)
    runs = 0
    for exe in (dynhlo.compile(text, backend="gpu"),
                dynhlo.compile(text, backend="gpu", graph=True)):
        for n in (1, 63, 64, 65, 39999, 40000):
            x = rng.standard_normal((n, 37)).astype(np.float32)
            np.testing.assert_allclose(exe(x), ref(x), rtol=1e-5, atol=1e-6)
            runs += 1
    return runs


def graph(artifact: str | None) -> None:
    """The corpus through the graph path at every case, twice; the transformer; an artifact."""
    import torch
    failures = 0
    for d in sorted(MODELS.iterdir()):
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
            state = "on" if graph else f"off ({exe.program.graph_refusal})"
            after = stats.snapshot().get("kernel_compile", 0) - before
            print(f"{d.name:20s} {module:24s} graph={state} graphs={graphs} "
                  f"ok={sum(results)}/{len(results)} compiles after first round={after}")
    failures += transformer()
    if artifact:
        failures += aot(artifact)
    print("FAILURES", failures)


def aot(path: str) -> int:
    """An artifact made on a CPU machine (`dynhlo compile ... --target sm_90`) loads and
    runs the transformer through its graph with zero compilations, as the JIT does."""
    import torch
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
    import torch
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


def main(argv: list[str]) -> None:
    cmd = argv[0] if argv else ""
    if cmd == "graph":
        graph(argv[1] if len(argv) > 1 else None)
    elif cmd == "aot-build":
        aot_build(Path(argv[1]))
    elif cmd == "aot-check":
        aot_check(Path(argv[1]))
    elif cmd == "sanitize":
        sanitize()
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
