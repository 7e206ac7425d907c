"""Where every benchmark writes its results: bench/results/<name>.json, and a plot beside it
when matplotlib is importable (it is optional: without it the plot is skipped with a message).

A library of the benchmarks, not a benchmark. Each JSON file holds the run's facts (`run`:
date, commit, command, machine) next to the benchmark's own data, so that bench/RESULTS.md can
say where each table came from.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"


def commit() -> str | None:
    """The checkout's short commit, or .dev/commit (written by `h200_run.sh prep` for a copy
    without git), or None."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                             capture_output=True, text=True, timeout=10)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    saved = REPO / ".dev" / "commit"
    return saved.read_text().strip() if saved.exists() else None


def machine() -> dict:
    """The machine: OS, processor, CPU count, Python; the GPU when torch is already imported
    and sees one (importing torch here would cost a CPU-only benchmark seconds)."""
    facts = {"platform": platform.platform(), "processor": platform.processor() or
             platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()}
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        facts["gpu"] = torch.cuda.get_device_name()
    return facts


def run_facts() -> dict:
    """date (UTC), commit, command line and machine of this run."""
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": commit(),
            "command": " ".join(["python", os.path.relpath(sys.argv[0], REPO)] + sys.argv[1:]),
            "machine": machine()}


def save(name: str, data: dict, plot: Callable[[dict, Path], None] | None = None,
         out: str | Path | None = None) -> Path:
    """Write `data` with the run's facts under the key `run` to `out` (default
    bench/results/<name>.json); with `plot`, call plot(data, path) for the .png beside it
    when matplotlib imports, else print why there is no plot. Returns the JSON path."""
    path = Path(out) if out else RESULTS / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"run": run_facts(), **{k: v for k, v in data.items() if k != "run"}}
    path.write_text(json.dumps(data, indent=1, default=str) + "\n")
    print(f"results: {path}")
    if plot is not None:
        try:
            import matplotlib
        except ImportError:
            print(f"matplotlib is not importable: no plot ({path.with_suffix('.png').name} "
                  "not written)")
        else:
            matplotlib.use("Agg")
            plot(data, path.with_suffix(".png"))
            print(f"plot: {path.with_suffix('.png')}")
    return path


def bars(path: Path, title: str, labels: list[str], series: dict[str, list[float]],
         ylabel: str, log: bool = False) -> None:
    """A grouped bar chart: one group per label, one bar per series (None: no bar)."""
    import matplotlib.pyplot as plt
    width = 0.8 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(labels) * max(1, len(series)) / 2),
                                    4.0))
    for k, (name, values) in enumerate(series.items()):
        xs = [i + k * width for i, v in enumerate(values) if v is not None]
        ax.bar(xs, [v for v in values if v is not None], width, label=name)
    ax.set_xticks([i + width * (len(series) - 1) / 2 for i in range(len(labels))])
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set(title=title, ylabel=ylabel, yscale="log" if log else "linear")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
