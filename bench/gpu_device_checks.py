"""GPU backend checks that need the device (and one step that must run without it).

    python bench/gpu_device_checks.py aot-build DIR   # here, no GPU: artifacts for sm_90
    python bench/gpu_device_checks.py aot-check DIR   # on the GPU: load, run every case,
                                                      # count Triton compilations (must be 0)
    python bench/gpu_device_checks.py sanitize        # seed + every model at sizes 1, middle,
                                                      # bound (run under compute-sanitizer)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
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
        for got, want in zip(outs, wants, strict=True):
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


def profile() -> None:
    """Where a small module's host time goes (cProfile over many calls)."""
    import cProfile
    import pstats
    import torch
    exe = dynhlo.compile((MODELS / "layernorm_residual" / "module.hlo").read_text(),
                         backend="gpu")
    x = [torch.randn(3, 512, device="cuda"), torch.randn(512, device="cuda"),
         torch.randn(512, device="cuda")]
    for _ in range(50):
        exe(*x)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(2000):
        exe(*x)
    torch.cuda.synchronize()
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "aot-build":
        aot_build(Path(sys.argv[2]))
    elif cmd == "aot-check":
        aot_check(Path(sys.argv[2]))
    elif cmd == "sanitize":
        sanitize()
    elif cmd == "profile":
        profile()
    else:
        raise SystemExit(__doc__)
