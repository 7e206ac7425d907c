"""Side by side on one GPU: dynhlo against XLA (JAX), torch eager and torch.compile (issue 10).

For each workload (bench/workloads.py) and each n in its sizes, the median time of
one whole call with inputs already on the device (`triton.testing.do_bench`; JAX calls end
in block_until_ready, so their events bracket the device work too):

    dynhlo      the module compiled once for the bound, called at n
    xla_bound   XLA compiled at the bound B, inputs padded to B (fp32 "highest")
    xla_n       XLA compiled at n (fp32 "highest"): a compile per new size
    xla_n_tf32  the same at JAX's default precision (TF32 dots on this GPU)
    dynhlo_tf32 dynhlo compiled with precision="default" (TF32 where the module's dots allow
                it, XLA's rule): the peer of xla_n_tf32, not of the fp32 columns
    eager       torch eager at n (TF32 off)
    inductor    torch.compile(dynamic=True) at n (TF32 off)
    dynhlo_plain  dynhlo with graph=False (a launch per kernel and product), for reference

plus the floor (bytes each read and written once over the copy bandwidth measured in this
run), a serving stream per system (100 requests of random n in [1, B], NumPy in and out,
weights resident on the device, compiles included; XLA also with power-of-two buckets;
dynhlo also as an AOT artifact built before the stream, its load included),
and first-call times (compile + first call on an empty cache) of the 48-layer transformer.

    python bench/compare.py [--workloads transformer_48,softmax_rows] [--quick]
                            [--requests 100] [--out bench/results/compare.json] [--merge]
    python bench/compare.py --plot-only      # compare.png from compare.json
    python bench/compare.py --markdown-only  # the tables of compare.json (a run cut short)

Writes compare.json (schema in issue 10) and compare.png beside it, and prints the table.
--merge keeps the other workloads' rows of an existing compare.json (runs in parts; with
--no-streams, the chosen workloads' streams and first calls too; with --no-kernels, all
kernel rows). The streams share one process and take the requests in turn (run_streams
says why).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
# Empty caches for this run, before Triton, torch or JAX read them: first calls are cold.
_CACHE = tempfile.mkdtemp(prefix="dynhlo-compare-")
for _var in ("TRITON_CACHE_DIR", "DYNHLO_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR"):
    os.environ.setdefault(_var, os.path.join(_CACHE, _var.lower()))
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # torch shares the GPU

import numpy as np  # noqa: E402

import report  # noqa: E402
from workloads import workloads  # noqa: E402

SYSTEMS = ("dynhlo", "xla_bound", "xla_n", "xla_n_tf32", "dynhlo_tf32", "eager", "inductor",
           "dynhlo_plain")
# The fp32 peers dynhlo's ratio is taken against (TF32 columns are compared with each other).
FP32_PEERS = ("xla_bound", "xla_n", "eager", "inductor")
NAN = float("nan")
ROUNDS = 2  # rounds of the kernel rows' measurements (each system keeps its best median)
STREAMS = ("dynhlo", "dynhlo_aot", "xla_bound", "xla_pow2", "inductor", "eager")


def bench_us(fn, quick: bool) -> float:
    """Median microseconds of fn() (CUDA events, do_bench's warm-up and repeats); NaN, with
    the error printed, when a system fails (the other columns still get measured)."""
    from triton.testing import do_bench
    try:
        return 1e3 * do_bench(fn, warmup=10 if quick else 25, rep=40 if quick else 100,
                              return_mode="median")
    except Exception as exc:  # noqa: BLE001  (a peer's failure is a result, not a crash)
        print(f"  failed: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
        return float("nan")


def copy_bandwidth() -> float:
    """Bytes per second of a 1 GiB device-to-device copy (read + write counted)."""
    import torch
    a = torch.empty(1 << 28, device="cuda")
    b = torch.empty_like(a)
    us = bench_us(lambda: b.copy_(a), quick=False)
    return 2 * a.numel() * 4 / (us * 1e-6)


class Peers:
    """Callables per system for one workload; compiled objects kept for the kernel rows."""

    def __init__(self, w):
        import jax
        import torch
        self.w, self.jax, self.torch = w, jax, torch
        self.exe = None
        self.inductor = None
        self.jit_high = jax.jit(w.jax_fn)
        self.jit_default = jax.jit(w.jax_fn)

    def weights(self, gen):
        torch = self.torch
        shapes = self.w.shapes(1)[self.w.dynamic:]
        return [torch.randn(s, device="cuda", generator=gen) * _scale(s) for s in shapes]

    def dynamic_inputs(self, n, gen):
        return [self.torch.randn(s, device="cuda", generator=gen)
                for s in self.w.shapes(n)[:self.w.dynamic]]


def _scale(shape) -> float:
    """Weights ~ N(0, 1/fan_in) (vectors 0.1): 48 layers stay finite."""
    return 1 / np.sqrt(shape[0]) if len(shape) == 2 else 0.1


def check(names) -> None:
    """The JAX function of each workload against dynhlo's CPU backend at n = 5 (here, no
    GPU needed): the parameter orders and the math of the peers are the module's."""
    import dynhlo
    rng = np.random.default_rng(0)
    for name in names:
        w = workloads()[name]
        args = [(rng.standard_normal(s) * _scale(s) if k >= w.dynamic
                 else rng.standard_normal(s)).astype(np.float32)
                for k, s in enumerate(w.shapes(5))]
        got = dynhlo.compile(w.hlo)(*args)
        want = np.asarray(w.jax_fn(*args))
        err = np.abs(got - want).max() / np.abs(want).max()
        print(f"check {name}: max rel err vs JAX {err:.1e}")
        assert err < 1e-4, name


def to_jax(t):
    import jax
    return jax.device_put(t.detach().cpu().numpy())


def pad(x: np.ndarray, rows: int) -> np.ndarray:
    out = np.zeros((rows,) + x.shape[1:], x.dtype)
    out[:x.shape[0]] = x
    return out


def jax_call(fn, args, high: bool):
    import jax
    if high:
        with jax.default_matmul_precision("highest"):
            return fn(*args).block_until_ready()
    return fn(*args).block_until_ready()


def pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


# --- streams ----------------------------------------------------------------------------

def run_streams(w, peers, weights, requests: list, first: dict) -> dict:
    """Seconds for each system to serve the requests (compiles included), NumPy in and out.

    The systems share one process and take the requests in turn: request k goes to every
    system, starting with the k-th (mod the number of systems), and each system's time is
    the sum of its requests' times. Run one system after another, the later ones were
    faster (2026-12-02: eager served softmax in 0.79 s when first and 0.56 s when last, with
    the same requests); in turn, each meets the process in the same state on average."""
    import dynhlo
    import jax
    import torch
    rng = np.random.default_rng(1)
    inputs = [[rng.standard_normal(s).astype(np.float32) for s in w.shapes(n)[:w.dynamic]]
              for n in requests]
    jw = [to_jax(t) for t in weights]

    def serve_dynhlo(xs, state={}):
        if "exe" not in state:
            state["exe"] = peers.exe = dynhlo.compile(w.hlo, backend="gpu")
        y = state["exe"](*[torch.from_numpy(x).cuda() for x in xs], *weights)
        np.asarray(y.cpu())

    # The AOT deployment: the artifact is built before the stream (that is what ahead of
    # time means), the stream includes loading it. It is built as a user would, with
    # `dynhlo compile` in a process of its own whose caches the other streams do not see
    # (the JIT stream's compiles stay cold).
    tmp = Path(tempfile.mkdtemp(prefix="dynhlo-aot-"))
    artifact = tmp / "w.dynhlo"

    def build_artifact():
        (tmp / "w.hlo").write_text(w.hlo)
        env = dict(os.environ, PYTHONPATH=str(REPO), DYNHLO_CACHE_DIR=str(tmp / "dynhlo"),
                   TRITON_CACHE_DIR=str(tmp / "triton"))
        done = subprocess.run([sys.executable, "-m", "dynhlo", "compile", str(tmp / "w.hlo"),
                               "--backend", "gpu", "-o", str(artifact)],
                              env=env, capture_output=True, text=True, check=False)
        if done.returncode:   # reported; the AOT stream then fails as a result
            print(f"  artifact not saved: {done.stderr.strip()[-300:]}")

    def serve_aot(xs, state={}):
        if "exe" not in state:
            state["exe"] = dynhlo.load(artifact)
        y = state["exe"](*[torch.from_numpy(x).cuda() for x in xs], *weights)
        np.asarray(y.cpu())

    fb, fp = jax.jit(w.jax_fn), jax.jit(w.jax_fn)

    def serve_bound(xs):
        n = xs[0].shape[0]
        y = jax_call(fb, [jax.device_put(pad(x, w.bound)) for x in xs] + jw, True)
        np.asarray(y)[:n]

    def serve_pow2(xs):
        n = xs[0].shape[0]
        y = jax_call(fp, [jax.device_put(pad(x, pow2(n))) for x in xs] + jw, True)
        np.asarray(y)[:n]

    def new_inductor():
        torch._dynamo.reset()
        peers.inductor = torch.compile(w.torch_fn, dynamic=True)

    serves = {
        "dynhlo": serve_dynhlo,
        "dynhlo_aot": serve_aot,
        "xla_bound": serve_bound,
        "xla_pow2": serve_pow2,
        "inductor": lambda xs: peers.inductor(
            *[torch.from_numpy(x).cuda() for x in xs], *weights).cpu().numpy(),
        "eager": lambda xs: w.torch_fn(
            *[torch.from_numpy(x).cuda() for x in xs], *weights).cpu().numpy(),
    }
    build_artifact()   # before the clock: ahead of time
    new_inductor()
    spent = dict.fromkeys(STREAMS, 0.0)
    for k, xs in enumerate(inputs):
        for name in STREAMS[k % len(STREAMS):] + STREAMS[:k % len(STREAMS)]:
            if spent[name] != spent[name]:   # NaN: this system failed
                continue
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            try:
                serves[name](xs)
                torch.cuda.synchronize()
            except Exception as exc:  # noqa: BLE001  (a peer's failure is a result)
                print(f"  stream {name} failed: {type(exc).__name__}: {str(exc)[:300]}")
                spent[name] = first[name] = NAN
                continue
            spent[name] += time.perf_counter() - t0
            if k == 0:
                first[name] = spent[name]
    return spent


# --- kernel rows --------------------------------------------------------------------------

def kernel_rows(w, peers, weights, gen, bandwidth: float, quick: bool) -> list:
    import dynhlo
    import jax
    import torch
    if peers.exe is None:
        peers.exe = dynhlo.compile(w.hlo, backend="gpu")
    plain = dynhlo.compile(w.hlo, backend="gpu", graph=False)  # the per-launch path
    tf32 = dynhlo.compile(w.hlo, backend="gpu", precision="default")  # XLA's TF32 rule
    if peers.inductor is None:
        peers.inductor = torch.compile(w.torch_fn, dynamic=True)
    jw = [to_jax(t) for t in weights]
    bound_in = [jax.device_put(np.random.default_rng(2).standard_normal(s).astype(np.float32))
                for s in w.shapes(w.bound)[:w.dynamic]]
    rows = []
    for n in (w.sizes[:2] if quick else w.sizes):
        xs = peers.dynamic_inputs(n, gen)
        args = xs + weights
        jargs = [to_jax(t) for t in xs] + jw
        ref = w.torch_fn(*args)
        err, err_tf32 = (_rel_err(exe, args, ref) for exe in (peers.exe, tf32))
        calls = {
            "dynhlo": lambda: peers.exe(*args),
            "xla_bound": lambda: jax_call(peers.jit_high, bound_in + jw, True),
            "xla_n": lambda: jax_call(peers.jit_high, jargs, True),
            "xla_n_tf32": lambda: jax_call(peers.jit_default, jargs, False),
            "dynhlo_tf32": lambda: tf32(*args),
            "eager": lambda: w.torch_fn(*args),
            "inductor": lambda: peers.inductor(*args),
            "dynhlo_plain": lambda: plain(*args),
        }
        # Whole calls of a few µs are host-bound, and one system's median can catch a slow
        # spell of the host (2026-12-02: attention at n=512 took 3x its usual time in every
        # column measured first). Each system is measured in ROUNDS rounds, the systems in
        # turn, and keeps its best median.
        us = {name: NAN for name in calls}
        for _ in range(1 if quick else ROUNDS):
            gc.collect()
            for name, call in calls.items():
                us[name] = float(np.fmin(us[name], bench_us(call, quick)))
        half = torch.empty(w.bytes(n) // 8, device="cuda")   # reads + writes w.bytes(n)
        copy = torch.empty_like(half)
        rows.append({"workload": w.name, "bound": w.bound, "n": n,
                     "floor_us": w.bytes(n) / bandwidth * 1e6,
                     "copy_us": bench_us(lambda: copy.copy_(half), quick),
                     "compute_floor_us": w.flops(n) / 67e12 * 1e6,
                     "dynhlo_rel_err": err, "dynhlo_tf32_rel_err": err_tf32, "us": us})
        print(_row_text(rows[-1]), flush=True)
    return rows


def _rel_err(exe, args, ref) -> float:
    """max |exe(args) - ref| / max |ref|; NaN, with the error printed, when exe fails."""
    try:
        got = exe(*args)
        return ((got - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()
    except Exception as exc:  # noqa: BLE001
        print(f"  dynhlo failed: {type(exc).__name__}: {str(exc)[:300]}")
        return NAN


# Relative errors past these make a row's time meaningless (a wrong result, not a speed).
MAX_REL_ERR = {"dynhlo_rel_err": 1e-4, "dynhlo_tf32_rel_err": 1e-2}


def wrong(r, keys=tuple(MAX_REL_ERR)) -> str:
    """'' for a row whose results (of `keys`) were right, else what was wrong (NaN: dynhlo
    failed). A key the row lacks was not measured (rows of older runs), not wrong."""
    bad = [f"{k} {r[k]:.1e}" for k in keys if k in r and not r[k] <= MAX_REL_ERR[k]]
    return f"WRONG ({', '.join(bad)})" if bad else ""


def _row_text(r) -> str:
    us = r["us"]
    cells = " ".join(f"{us.get(s, NAN):10.1f}" for s in SYSTEMS)
    return (f"{r['workload']:18s} {r['bound']:7d} {r['n']:7d} {r['floor_us']:8.1f} {cells} "
            f"{r['dynhlo_rel_err']:8.1e} {r.get('dynhlo_tf32_rel_err', NAN):8.1e} {wrong(r)}")


def _ratio(r, key: str, ratio: float) -> str:
    """A speed ratio's cell: the ratio, or WRONG with the error when that column's results
    were wrong (each ratio by its own column's error)."""
    return wrong(r, (key,)) or f"{ratio:.2f}"


def markdown(result: dict) -> str:
    """The kernel, stream and first-call tables as Markdown (for bench/RESULTS.md)."""
    lines = ["| workload | B | n | floor µs | copy µs | " + " | ".join(SYSTEMS)
             + " | dynhlo/best fp32 peer | dynhlo_tf32/xla_n_tf32 |",
             "|---|---:|---:|---:|---:|" + "---:|" * (len(SYSTEMS) + 2)]
    for r in result["kernels"]:
        us = {s: r["us"].get(s, NAN) for s in SYSTEMS}   # rows of older runs lack columns
        best = min(us[s] for s in FP32_PEERS)
        lines.append(f"| {r['workload']} | {r['bound']} | {r['n']} | {r['floor_us']:.1f} | "
                     + f"{r.get('copy_us', NAN):.1f} | "
                     + " | ".join(f"{us[s]:.1f}" for s in SYSTEMS)
                     + f" | {_ratio(r, 'dynhlo_rel_err', us['dynhlo'] / best)} | "
                     + _ratio(r, "dynhlo_tf32_rel_err", us["dynhlo_tf32"] / us["xla_n_tf32"])
                     + " |")
    lines += ["", "| stream (s) | requests | " + " | ".join(STREAMS) + " |",
              "|---|---:|" + "---:|" * len(STREAMS)]
    for s in result["streams"]:
        lines.append(f"| {s['workload']} | {s['requests']} | "
                     + " | ".join(f"{s['s'].get(k, float('nan')):.2f}" for k in STREAMS) + " |")
    for name, first in result.get("first_call_s", {}).items():
        lines.append(f"\nfirst call {name}: " + ", ".join(f"{k} {v:.2f} s"
                                                          for k, v in first.items()))
    return "\n".join(lines)


def plot(result: dict, path: Path) -> None:
    """Time against n, a line per system, a panel per workload."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(dict.fromkeys(r["workload"] for r in result["kernels"]))
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.8), squeeze=False)
    for ax, name in zip(axes[0], names, strict=True):
        rows = [r for r in result["kernels"] if r["workload"] == name]
        ns = [r["n"] for r in rows]
        for s in SYSTEMS:
            ax.plot(ns, [r["us"].get(s, NAN) for r in rows], marker="o", label=s,
                    linewidth=2.5 if s == "dynhlo" else 1.2,
                    linestyle=":" if "tf32" in s else "-")   # TF32 columns dotted
        ax.plot(ns, [r["floor_us"] for r in rows], "k--", label="memory floor")
        ax.set(xscale="log", yscale="log", title=f"{name} (B={rows[0]['bound']})",
               xlabel="n", ylabel="µs per call")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"{result['device']}, {result['date']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def versions() -> dict:
    import jax
    import torch
    import triton
    return {"torch": torch.__version__, "triton": triton.__version__, "jax": jax.__version__,
            "python": sys.version.split()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", default=",".join(workloads()))
    parser.add_argument("--quick", action="store_true", help="two sizes, shorter timing")
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--no-streams", action="store_true")
    parser.add_argument("--no-kernels", action="store_true", help="the streams only")
    parser.add_argument("--out", default=str(REPO / "bench" / "results" / "compare.json"))
    parser.add_argument("--merge", action="store_true")
    parser.add_argument("--plot-only", action="store_true")
    parser.add_argument("--markdown-only", action="store_true")
    parser.add_argument("--check", action="store_true",
                        help="only check the peers' math against dynhlo's CPU backend")
    opts = parser.parse_args()
    out = Path(opts.out)
    if opts.check:
        check(opts.workloads.split(","))
        return
    if opts.markdown_only:
        print(markdown(json.loads(out.read_text())))
        return
    if opts.plot_only:
        plot(json.loads(out.read_text()), out.with_suffix(".png"))
        return
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    result = {"run": report.run_facts(),
              "date": datetime.date.today().isoformat(), "device": torch.cuda.get_device_name(),
              "versions": versions(), "kernels": [], "streams": [], "first_call_s": {}}
    if opts.merge and out.exists():
        old = json.loads(out.read_text())
        chosen = set(opts.workloads.split(","))
        # --no-kernels re-measures only the streams: the kernel rows stay the old run's
        result["kernels"] = [r for r in old["kernels"]
                             if opts.no_kernels or r["workload"] not in chosen]
        # --no-streams re-measures only the kernel rows: the streams stay the old run's
        again = set() if opts.no_streams else chosen
        result["streams"] = [r for r in old["streams"] if r["workload"] not in again]
        result["first_call_s"] = {k: v for k, v in old.get("first_call_s", {}).items()
                                  if k not in again}
    bandwidth = copy_bandwidth()
    result["copy_bandwidth_Bps"] = bandwidth
    print(f"copy bandwidth {bandwidth / 1e12:.2f} TB/s; caches in {_CACHE}", flush=True)
    print(f"{'workload':18s} {'B':>7s} {'n':>7s} {'floor':>8s} "
          + " ".join(f"{s:>10s}" for s in SYSTEMS) + "   relerr  tf32err", flush=True)
    all_w = workloads()
    for name in opts.workloads.split(","):
        w = all_w[name]
        gen = torch.Generator(device="cuda").manual_seed(0)
        peers = Peers(w)
        weights = peers.weights(gen)
        if not opts.no_streams:
            rng = np.random.default_rng(0)
            requests = [w.sizes[0]] + list(rng.integers(1, w.bound + 1, opts.requests - 1))
            first: dict = {}
            secs = run_streams(w, peers, weights, [int(n) for n in requests], first)
            result["streams"].append({"workload": name, "requests": len(requests), "s": secs})
            print(f"stream {name}: " + ", ".join(f"{k} {v:.2f} s" for k, v in secs.items()),
                  flush=True)
            if name == "transformer_48":
                result["first_call_s"][name] = {"dynhlo": first["dynhlo"],
                                                "xla_n": first["xla_pow2"],
                                                "inductor": first["inductor"]}
        if not opts.no_kernels:
            result["kernels"] += kernel_rows(w, peers, weights, gen, bandwidth, opts.quick)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1))  # after each workload: runs in parts
    print(markdown(result))
    try:
        plot(result, out.with_suffix(".png"))
    except ImportError:
        print("matplotlib is not importable: no plot (compare.png not written)")


if __name__ == "__main__":
    main()
