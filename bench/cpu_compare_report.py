"""cpu_compare.py's results: merging a run into the results file, the Markdown tables, the plots.

A library of cpu_compare.py, not a benchmark; needs no NumPy (the tables and merging are
plain Python; the plots need matplotlib, through report.bars).

The results file holds three sections of rows, each row with its `threads` ('one': pinned
to one CPU, one thread everywhere; 'all': every CPU): `rows` (the workloads' warm and first
calls), `stream` (the serving stream) and `reallibs` (the real-library programs), with
`threads` (the setup of each mode: CPU set, environment, XLA flags, load average) and
`reallibs_summary` (median compiled/XLA ratio per mode). A section and mode not run keeps the
earlier file's rows, and `kept` says from which run; rows of a file written before the modes
(no `threads` key: one thread by environment variables only, not pinned) are not kept.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import report

MODES = ("one", "all")
SECTIONS = {"warm": "rows", "stream": "stream", "reallibs": "reallibs"}
LABEL = {"one": "one CPU", "all": "all CPUs"}


def run_of(data: dict) -> dict:
    """Where an earlier file's section was measured: its run's date and commit."""
    run = data.get("run") or {}
    return {"date": run.get("date", data.get("date")),
            "commit": run.get("commit", data.get("commit"))}


def merge(earlier: dict, measured: dict, parts: list[str]) -> dict:
    """The results: `measured` (mode -> {setup, and a list per section run}) over `earlier`
    (the existing file, or {})."""
    data: dict = {"device": "CPU", "threads": {}, "kept": {}}
    for mode in MODES:
        if mode in measured:
            data["threads"][mode] = measured[mode]["setup"]
        elif mode in (earlier.get("threads") or {}):
            data["threads"][mode] = earlier["threads"][mode]
    for part, section in SECTIONS.items():
        rows = []
        for mode in MODES:
            if mode in measured and part in parts:
                rows += measured[mode][section]
                continue
            kept = [r for r in earlier.get(section, []) if r.get("threads") == mode]
            if kept:
                rows += kept
                data["kept"][f"{section}/{mode}"] = (earlier.get("kept", {})
                                                     .get(f"{section}/{mode}")
                                                     or run_of(earlier))
        data[section] = rows
    data["reallibs_summary"] = summarize(data["reallibs"])
    return data


def summarize(rows: list[dict]) -> dict:
    """Per mode: median and largest compiled/XLA ratio over rows where both were right."""
    out = {}
    for mode in MODES:
        ratios = [r["compiled_vs_xla"] for r in rows if r.get("threads") == mode
                  and "compiled_vs_xla" in r and not r.get("compiled_error")
                  and not r.get("xla_error")]
        if ratios:
            out[mode] = {"median_compiled_vs_xla": statistics.median(ratios),
                         "max_compiled_vs_xla": max(ratios), "rows": len(ratios)}
    return out


def _ms(v) -> str:
    if v is None:
        return "-"
    return f"{v:.3g}" if v < 100 else f"{v:,.0f}"


def _ratio(v, wrong: str | None = None) -> str:
    if wrong:
        return "WRONG"
    return "-" if v is None else f"{v:.2f}"


def _by(rows: list[dict], keys: tuple) -> dict:
    """{key tuple: {mode: row}}, in first-seen order."""
    out: dict = {}
    for r in rows:
        out.setdefault(tuple(r.get(k) for k in keys), {})[r.get("threads")] = r
    return out


def markdown(data: dict) -> str:
    """The warm-call table (one CPU and all CPUs side by side), the real-library table with
    its medians, and the stream table."""
    modes = [m for m in MODES if m in data.get("threads", {})]
    out = []
    setups = [f"{LABEL[m]}: CPUs {data['threads'][m].get('cpus')}, "
              f"load {_load(data['threads'][m])}" for m in modes]
    out.append("Threads: " + "; ".join(setups) + "\n")
    if data.get("rows"):
        head = ["workload", "n"]
        for m in modes:
            head += [f"compiled ms ({LABEL[m]})", f"reference ms ({LABEL[m]})",
                     f"jax.jit ms ({LABEL[m]})", f"compiled / jax.jit ({LABEL[m]})"]
        out += [_row(head), _rule(head, 2)]
        for (name, n), per in _by(data["rows"], ("workload", "n")).items():
            cells = [name, str(n)]
            for m in modes:
                r = per.get(m, {})
                cells += [_ms(r.get("compiled_warm_ms")), _ms(r.get("reference_warm_ms")),
                          _ms(r.get("jax_warm_ms")), _ratio(r.get("compiled_vs_jax"))]
            out.append(_row(cells))
        out.append("")
    if data.get("reallibs"):
        head = ["program", "size"]
        for m in modes:
            head += [f"compiled ms ({LABEL[m]})", f"reference ms ({LABEL[m]})",
                     f"XLA ms ({LABEL[m]})", f"compiled / XLA ({LABEL[m]})"]
        head.append("max abs err compiled / reference / XLA")
        out += [_row(head), _rule(head, 2)]
        for (name, size), per in _by(data["reallibs"], ("program", "size")).items():
            cells = [name, "-" if size is None else str(size)]
            errs = "-"
            for m in modes:
                r = per.get(m, {})
                if "refused" in r:
                    cells += ["refused: " + r["refused"][:80], "-", "-", "-"]
                    continue
                cells += [_ms(r.get("compiled_warm_ms")), _ms(r.get("reference_warm_ms")),
                          _ms(r.get("xla_warm_ms")),
                          _ratio(r.get("compiled_vs_xla"),
                                 r.get("compiled_error") or r.get("xla_error"))]
                if r:
                    errs = " / ".join(_err(r, w) for w in ("compiled", "reference", "xla"))
            out.append(_row(cells + [errs]))
        for m, s in data.get("reallibs_summary", {}).items():
            out.append(f"\n{LABEL[m]}: median compiled / XLA {s['median_compiled_vs_xla']:.2f}, "
                       f"largest {s['max_compiled_vs_xla']:.2f}, over {s['rows']} rows")
        out.append("")
    if data.get("stream"):
        head = ["workload", "threads", "dynhlo s", "jax.jit per size s", "jax.jit buckets s",
                "dynhlo / per size", "dynhlo / buckets"]
        out += [_row(head), _rule(head, 2)]
        for r in data["stream"]:
            out.append(_row([r["workload"], LABEL.get(r.get("threads"), "?"),
                             f"{r['dynhlo_total_s']:.2f}", f"{r['jax_per_size_total_s']:.2f}",
                             f"{r['jax_buckets_total_s']:.2f}",
                             f"{r['dynhlo_vs_jax_per_size']:.2f}",
                             f"{r['dynhlo_vs_jax_buckets']:.2f}"]))
    return "\n".join(out)


def _err(r: dict, way: str) -> str:
    if r.get(f"{way}_error"):
        return "WRONG"
    v = r.get(f"{way}_max_abs_err")
    return "-" if v is None else f"{v:.1e}"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _rule(head: list[str], left: int) -> str:
    return "|" + "|".join("---" if k < left else "---:" for k in range(len(head))) + "|"


def plot(data: dict, path: Path) -> None:
    """Warm-call time per workload and n, each way in each mode (cpu_compare.png); the
    real-library compiled/XLA ratio per program and size (cpu_compare_reallibs.png); the
    serving stream's totals (cpu_compare_stream.png)."""
    modes = [m for m in MODES if m in data.get("threads", {})]
    groups = _by(data.get("rows", []), ("workload", "n"))
    if groups:
        series = {}
        for m in modes:
            for way, label in (("compiled", "dynhlo compiled"), ("reference", "dynhlo reference"),
                               ("jax", "jax.jit")):
                series[f"{label} ({LABEL[m]})"] = [per.get(m, {}).get(f"{way}_warm_ms")
                                                   for per in groups.values()]
        report.bars(path, "CPU backend against jax.jit, warm call",
                    [f"{w} n={n}" for w, n in groups], series, "ms per call", log=True)
    groups = _by([r for r in data.get("reallibs", []) if "size" in r], ("program", "size"))
    if groups:
        report.bars(path.with_name(path.stem + "_reallibs.png"),
                    "real-library programs: dynhlo compiled / XLA, warm call",
                    [f"{p} {s}" for p, s in groups],
                    {f"compiled / XLA ({LABEL[m]})": [_right_ratio(per.get(m, {}))
                                                      for per in groups.values()]
                     for m in modes}, "ratio (below 1: dynhlo faster)", log=True)
    stream = data.get("stream") or []
    if stream:
        report.bars(path.with_name(path.stem + "_stream.png"),
                    "serving stream of random sizes, compiles included",
                    [f"{r['workload']} ({LABEL.get(r.get('threads'), '?')})" for r in stream],
                    {"dynhlo compiled": [r["dynhlo_total_s"] for r in stream],
                     "jax.jit per size": [r["jax_per_size_total_s"] for r in stream],
                     "jax.jit, power-of-two buckets": [r["jax_buckets_total_s"]
                                                       for r in stream]},
                    "seconds for the stream", log=True)


def _load(setup: dict) -> str:
    """The load average (1 minute) before and after a mode's run."""
    got = [setup.get(k) for k in ("load_before", "load_after")]
    return " -> ".join(f"{v:.2f}" for v in got if v is not None) or "?"


def _right_ratio(row: dict) -> float | None:
    """A row's compiled/XLA ratio, None where either output missed the tolerance."""
    if row.get("compiled_error") or row.get("xla_error"):
        return None
    return row.get("compiled_vs_xla")
