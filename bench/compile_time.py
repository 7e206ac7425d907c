"""Compile time: parsing, from_jax at depth, and the 48-layer transformer's compile (no GPU).

    python bench/compile_time.py [parse] [depth] [transformer]     # default: all three
        [--runs 15] [--file tests/data/large/transformer_48_layers.hlo]
        [--depths 6,12,24,48] [--width 64] [--bound 256] [--target sm_90]

parse: dynhlo's HLO text parser against XLA's own C++ parser (when jax imports) on the
  48-layer transformer's text, in instructions per second: the median of --runs runs, each
  parsing the whole text once (garbage collected before each run and the parsed module freed
  after the clock stops, so neither parser pays for the other's garbage). XLA's parser is
  reached through jaxlib (`xla_client.hlo.hlo_module_from_text`; older jaxlibs expose it as
  `xla_client._xla.hlo_module_from_text`).
depth: `x = x + gelu(layernorm(x) @ W)` repeated L times over f32[n, width], n <= bound,
  through `dynhlo.from_jax` (jax.export, the StableHLO import, dynamic-size inference,
  compile for the CPU backend), one fresh process per depth: jax.export's time alone,
  from_jax's, from_jax's peak traced Python memory (tracemalloc), the process's peak resident
  memory, and the error of one call at the bound against jax.jit.
transformer: `dynhlo.compile` of tests/data/large/transformer_48_layers_bounded.hlo (x <= 2048
  rows) for the CPU backend, and for the GPU backend cross-compiled for --target (Triton
  needs no GPU to compile) and saved as an artifact, each in a fresh process with empty
  dynhlo and Triton caches, after `import dynhlo` (not timed).

Writes bench/results/compile_time.json (and compile_time.png, from_jax's time by depth, when
matplotlib is importable).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import report  # noqa: E402

LARGE = REPO / "tests" / "data" / "large"
PARTS = ("parse", "depth", "transformer")


def median_seconds(parse, text: str, runs: int) -> float:
    """Median wall time of `parse(text)` over `runs` runs, after one warm-up run."""
    parse(text)
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = parse(text)
        times.append(time.perf_counter() - start)
        del result
    return statistics.median(times)


def xla_parser():
    """XLA's C++ HLO text parser as a function of the text, or None and why not."""
    try:
        from jax._src.lib import xla_client
    except ImportError:
        return None, "jax is not importable"
    for owner, name in ((getattr(xla_client, "hlo", None), "hlo_module_from_text"),
                        (getattr(xla_client, "_xla", None), "hlo_module_from_text")):
        if owner is not None and hasattr(owner, name):
            import jax
            return getattr(owner, name), f"jax {jax.__version__}"
    return None, "this jaxlib has no hlo_module_from_text"


def parse_speed(path: Path, runs: int) -> dict:
    """Instructions per second of dynhlo's parser and of XLA's, on one module text."""
    from dynhlo.hlo import parse_hlo
    text = path.read_text()
    count = sum(1 for _ in parse_hlo(text).instructions())
    result = {"file": os.path.relpath(path, REPO), "instructions": count, "bytes": len(text),
              "runs": runs, "dynhlo_per_s": count / median_seconds(parse_hlo, text, runs)}
    print(f"parse {path.name}: {count} instructions; dynhlo "
          f"{result['dynhlo_per_s']:,.0f}/s", flush=True)
    parse_xla, what = xla_parser()
    result["xla"] = what
    if parse_xla is not None:
        result["xla_per_s"] = count / median_seconds(parse_xla, text, runs)
        result["ratio"] = result["dynhlo_per_s"] / result["xla_per_s"]
        print(f"parse: XLA {result['xla_per_s']:,.0f}/s ({what}); dynhlo / XLA "
              f"{result['ratio']:.2f}", flush=True)
    else:
        print(f"parse: XLA skipped ({what})")
    return result


def one_depth(depth: int, width: int, bound: int) -> dict:
    """from_jax of `depth` residual blocks, measured in this process."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import export

    import dynhlo

    rng = np.random.default_rng(depth)
    weights = [rng.standard_normal((width, width)).astype(np.float32) / 8 for _ in range(depth)]

    def layernorm(x):
        mean = x.mean(-1, keepdims=True)
        return (x - mean) / jnp.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5)

    def fn(x):
        for w in weights:
            x = x + jax.nn.gelu(layernorm(x) @ w)
        return x

    (n,) = export.symbolic_shape("n", constraints=[f"n <= {bound}"])
    start = time.perf_counter()
    export.export(jax.jit(fn), platforms=("cpu",))(jax.ShapeDtypeStruct((n, width), jnp.float32))
    export_s = time.perf_counter() - start
    tracemalloc.start()
    start = time.perf_counter()
    exe = dynhlo.from_jax(fn, f"f32[n,{width}]", bounds={"n": bound})
    from_jax_s = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    x = rng.standard_normal((bound, width)).astype(np.float32)
    error = float(np.max(np.abs(exe(x) - np.asarray(jax.jit(fn)(x)))))
    return {"depth": depth, "instructions": sum(1 for _ in exe.module.instructions()),
            "export_s": export_s, "from_jax_s": from_jax_s, "traced_peak_mb": peak / 2**20,
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "max_error": error}


def one_compile(backend: str, target: str | None) -> dict:
    """dynhlo.compile of the bounded transformer (and its artifact saved), in this process."""
    import dynhlo
    text = (LARGE / "transformer_48_layers_bounded.hlo").read_text()
    options = {"target": target} if target else {}
    start = time.perf_counter()
    exe = dynhlo.compile(text, backend=backend, **options)
    compile_s = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.dynhlo"
        start = time.perf_counter()
        exe.save(path)
        save_s = time.perf_counter() - start
        size = path.stat().st_size
    return {"backend": backend, "target": target, "compile_s": compile_s, "save_s": save_s,
            "artifact_bytes": size}


def _child(args: list[str]) -> dict:
    """Run this script's --child mode in a fresh process with empty caches; its JSON line."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DYNHLO_CACHE_DIR=os.path.join(tmp, "dynhlo"),
                   TRITON_CACHE_DIR=os.path.join(tmp, "triton"),
                   PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
        out = subprocess.run([sys.executable, __file__, "--child", *args], env=env,
                             capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def depths(opts) -> list[dict]:
    """from_jax at each depth of --depths, a fresh process each; prints the table."""
    rows = []
    print("| blocks | HLO instructions | jax.export s | from_jax s | from_jax traced peak MB "
          "| process peak RSS MB | max abs error vs jax.jit |\n"
          "|---:|---:|---:|---:|---:|---:|---:|")
    for depth in (int(d) for d in opts.depths.split(",")):
        r = _child(["depth", str(depth), str(opts.width), str(opts.bound)])
        rows.append(r)
        print(f"| {r['depth']} | {r['instructions']} | {r['export_s']:.2f} | "
              f"{r['from_jax_s']:.2f} | {r['traced_peak_mb']:.1f} | {r['max_rss_mb']:.0f} | "
              f"{r['max_error']:.1e} |", flush=True)
    return rows


def transformer(opts) -> list[dict]:
    """The bounded transformer compiled for the CPU and cross-compiled for --target."""
    rows = []
    for backend, target in (("cpu", ""), ("gpu", opts.target)):
        r = _child(["compile", backend, target])
        rows.append(r)
        print(f"transformer_48 bounded, {backend}{' ' + target if target else ''}: compile "
              f"{r['compile_s']:.2f} s, save {r['save_s']:.2f} s, artifact "
              f"{r['artifact_bytes']:,} bytes", flush=True)
    return rows


def plot(data: dict, path: Path) -> None:
    """from_jax's and jax.export's time by depth."""
    import matplotlib.pyplot as plt
    rows = data.get("depth") or []
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.plot([r["depth"] for r in rows], [r["from_jax_s"] for r in rows], "o-", label="from_jax")
    ax.plot([r["depth"] for r in rows], [r["export_s"] for r in rows], "o-",
            label="jax.export alone")
    ax.set(xlabel="residual blocks", ylabel="s", title="from_jax at depth (CPU backend)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    if argv is None and sys.argv[1:2] == ["--child"]:
        kind, *rest = sys.argv[2:]
        if kind == "depth":
            print(json.dumps(one_depth(*map(int, rest))))
        else:
            print(json.dumps(one_compile(rest[0], rest[1] or None)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help=f"any of {', '.join(PARTS)} (default: all)")
    parser.add_argument("--runs", type=int, default=15, help="parse: timed runs (median)")
    parser.add_argument("--file", type=Path, default=LARGE / "transformer_48_layers.hlo")
    parser.add_argument("--depths", default="6,12,24,48")
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--bound", type=int, default=256)
    parser.add_argument("--target", default="sm_90", help="the GPU cross-compile's target")
    parser.add_argument("--out", help="default: bench/results/compile_time.json")
    opts = parser.parse_args(argv)
    parts = opts.parts or list(PARTS)
    for part in parts:
        if part not in PARTS:
            parser.error(f"unknown part {part!r}: choose from {', '.join(PARTS)}")
    data: dict = {}
    if "parse" in parts:
        data["parse"] = parse_speed(opts.file, opts.runs)
    if "depth" in parts:
        data["depth"] = depths(opts)
    if "transformer" in parts:
        data["transformer"] = transformer(opts)
    report.save("compile_time", data, plot=plot if "depth" in data else None, out=opts.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
