"""from_jax's modules on a real GPU, where jax is not installed (the device machine).

    python tools/frontend_gpu_check.py export DIR   # here, with jax: HLO + inputs + jax.jit's outputs
    python tools/frontend_gpu_check.py check DIR    # on the GPU machine: dynhlo only

`export` converts every family of tests/frontends/test_jax.py (FAMILIES and MORE) with
dynhlo.from_jax at bound 16 and writes, per family, the HLO module text and an .npz with the
arguments and jax.jit's outputs at sizes 1, 7 and 16. `check` compiles each module for the gpu
backend and compares its outputs with JAX's, printing one line per family and size.
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

SIZES = (1, 7, 16)


def export(out: pathlib.Path) -> None:
    import jax
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    from tests.frontends.test_jax import BOUND, FAMILIES, MORE, _args
    from dynhlo.frontends.jax import from_jax
    out.mkdir(parents=True, exist_ok=True)
    for name, (fn, shapes) in {**FAMILIES, **MORE}.items():
        bounds = {"n": BOUND, "m": 9} if "m" in str(shapes) else {"n": BOUND}
        exe = from_jax(fn, *shapes, bounds=bounds)
        (out / f"{name}.hlo").write_text(exe.module.to_text())
        rng = np.random.default_rng(0)
        arrays = {}
        for n in SIZES:
            args = _args(shapes, {"n": n, "m": min(n, 9)}, rng)
            if name in ("where_take", "segment_scatter"):
                args[1] = rng.integers(0, min(n, 4), args[1].shape).astype(np.int32)
            want = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
            arrays.update({f"n{n}_arg{i}": a for i, a in enumerate(args)})
            arrays.update({f"n{n}_out{i}": np.asarray(w) for i, w in enumerate(want)})
        np.savez(out / f"{name}.npz", **arrays)
        print("exported", name)


def _typed(array: np.ndarray) -> np.ndarray:
    """NumPy saves a bfloat16 array as 2-byte voids: read it back as bfloat16."""
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:
        import ml_dtypes
        return array.view(ml_dtypes.bfloat16)
    return array


def check(src: pathlib.Path) -> int:
    import dynhlo
    failures = 0
    for hlo in sorted(src.glob("*.hlo")):
        raw = np.load(hlo.with_suffix(".npz"))
        data = {k: _typed(raw[k]) for k in raw.files}
        exe = dynhlo.compile(hlo.read_text(), backend="gpu")
        for n in SIZES:
            args = [data[k] for k in sorted((k for k in data if k.startswith(f"n{n}_arg")),
                                            key=lambda k: int(k.split("arg")[1]))]
            want = [data[k] for k in sorted((k for k in data if k.startswith(f"n{n}_out")),
                                            key=lambda k: int(k.split("out")[1]))]
            got = exe(*args)
            got = list(got) if isinstance(got, tuple) else [got]
            worst = 0.0
            for g, w in zip(got, want, strict=True):
                g = g.cpu().numpy() if hasattr(g, "cpu") else np.asarray(g)
                if g.shape != w.shape:
                    worst = np.inf
                elif w.size:
                    wide = np.complex128 if np.iscomplexobj(w) else np.float64
                    worst = max(worst, float(np.max(np.abs(g.astype(wide) - w.astype(wide)))))
            ok = worst <= 1e-4
            failures += not ok
            print(f"{hlo.stem:20s} n={n:2d} {'ok' if ok else 'FAIL'} max |err| {worst:.2e}")
    return 1 if failures else 0


if __name__ == "__main__":
    command, where = sys.argv[1], pathlib.Path(sys.argv[2])
    sys.exit(export(where) if command == "export" else check(where))
