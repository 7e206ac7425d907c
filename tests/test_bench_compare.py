"""bench/compare.py's tables mark the speed ratios of wrong results, column by column; and
bench/cpu_compare.py's thread setup, command line, merging of modes and one real-library row.

compare.py sets cache directories for its run when imported, and cpu_compare.py sets up
threads from its command line, so both are imported in child processes here; the rows are
written as their JSON holds them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
US = {"dynhlo": 10.0, "xla_bound": 40.0, "xla_n": 20.0, "xla_n_tf32": 16.0,
      "dynhlo_tf32": 8.0, "eager": 30.0, "inductor": 25.0, "dynhlo_plain": 12.0}


def _row(n, **errors):
    return {"workload": "w", "bound": 64, "n": n, "floor_us": 1.0, "us": US, **errors}


def _markdown(rows: list) -> list[str]:
    result = {"kernels": rows, "streams": []}
    code = ("import json, sys; sys.path.insert(0, 'bench'); import compare; "
            "print(compare.markdown(json.loads(sys.stdin.read())))")
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(result), cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line.startswith("| w |")]


def test_each_ratio_is_marked_by_its_own_columns_error():
    ok, fp32_bad, tf32_bad, failed, old = _markdown([
        _row(1, dynhlo_rel_err=1e-7, dynhlo_tf32_rel_err=1e-3),
        _row(2, dynhlo_rel_err=0.2, dynhlo_tf32_rel_err=1e-3),
        _row(3, dynhlo_rel_err=1e-7, dynhlo_tf32_rel_err=0.05),
        _row(4, dynhlo_rel_err=float("nan"), dynhlo_tf32_rel_err=1e-3),
        _row(5, dynhlo_rel_err=1e-7)])   # an older run: no TF32 columns measured
    cells = [line.split(" | ")[-2:] for line in (ok, fp32_bad, tf32_bad, failed, old)]
    # dynhlo 10 µs against the best fp32 peer's 20; dynhlo_tf32 8 against xla_n_tf32's 16
    assert cells[0] == ["0.50", "0.50 |"]
    assert cells[1] == ["WRONG (dynhlo_rel_err 2.0e-01)", "0.50 |"]
    assert cells[2] == ["0.50", "WRONG (dynhlo_tf32_rel_err 5.0e-02) |"]
    assert cells[3] == ["WRONG (dynhlo_rel_err nan)", "0.50 |"]   # dynhlo failed
    assert cells[4] == ["0.50", "0.50 |"]   # not measured is not wrong


# --- cpu_compare.py: the thread setup, its command line, merging modes, real-library rows ---

BENCH = str(REPO / "bench")


def _bench_module(name: str):
    """A library of the benchmarks that imports nothing heavy (cpu_threads,
    cpu_compare_report), loaded from bench/ without leaving bench/ on sys.path."""
    import importlib.util
    sys.path.insert(0, BENCH)
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}",
                                                      REPO / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(BENCH)


def _bench_child(code: str) -> str:
    """Run `code` in a fresh Python with bench/ and the repository importable; its stdout."""
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path[:0] = [{BENCH!r}, "
                           f"{str(REPO)!r}]\n" + code], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=120).stdout


def test_thread_plans_pin_one_cpu_or_use_all():
    import os
    threads = _bench_module("cpu_threads")
    allowed = sorted(os.sched_getaffinity(0))
    one = threads.plan("one")
    assert one["cpus"] == allowed[:1]
    assert one["env"] == {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                          "MKL_NUM_THREADS": "1"}
    assert "--xla_cpu_multi_thread_eigen=false" in one["xla_flags"].split()
    assert "intra_op_parallelism_threads=1" in one["xla_flags"].split()
    every = threads.plan("all")
    assert every["cpus"] == allowed
    assert set(every["env"].values()) == {str(len(allowed))}
    assert "multi_thread_eigen" not in every["xla_flags"]
    assert threads.plan("one", cpu=allowed[-1])["cpus"] == [allowed[-1]]
    for bad in (lambda: threads.plan("two"), lambda: threads.plan("one", cpu=max(allowed) + 1),
                lambda: threads.plan("all", cpu=allowed[0])):
        with pytest.raises(ValueError, match="cpu_threads.plan"):
            bad()
    # numpy is imported in this process: a setup now would not reach its BLAS
    with pytest.raises(RuntimeError, match="numpy"):
        threads.apply(one)
    assert threads.parse_argv(["x", "--threads", "one", "--cpu=1"]) == ("one", 1)
    assert threads.parse_argv(["x", "--threads=all"]) == ("all", None)
    assert threads.argv_of({**one, "cpus": [1]}) == ["--threads", "one", "--cpu", "1"]


def test_thread_setup_pins_the_process_before_numpy():
    import os
    cpu = sorted(os.sched_getaffinity(0))[-1]
    out = json.loads(_bench_child(
        "import os, json, cpu_threads\n"
        f"setup = cpu_threads.from_argv(['x', '--threads', 'one', '--cpu', '{cpu}'])\n"
        "import numpy\n"
        "print(json.dumps([setup['pinned_to'], sorted(os.sched_getaffinity(0)),\n"
        "                  os.environ['OPENBLAS_NUM_THREADS'], os.environ['XLA_FLAGS']]))"))
    assert out[0] == out[1] == [cpu]
    assert out[2] == "1" and "intra_op_parallelism_threads=1" in out[3]


def test_cpu_compare_command_line_and_child_arguments():
    out = json.loads(_bench_child(
        "import json, cpu_compare\n"
        "opts = cpu_compare.parser().parse_args(['--quick', '--only', 'mlp', '--parts',\n"
        "                                        'reallibs', '--cpu', '1'])\n"
        "print(json.dumps([opts.threads, opts.parts, cpu_compare.SETUP,\n"
        "                  cpu_compare.child_args(opts, 'one'),\n"
        "                  cpu_compare.child_args(opts, 'all')]))"))
    threads, parts, setup, one, every = out
    assert (threads, parts, setup) == ("both", ["reallibs"], None)   # the parent: no setup
    assert one == ["--threads", "one", "--parts", "reallibs", "--requests", "100", "--quick",
                   "--only", "mlp", "--cpu", "1"]
    assert every == ["--threads", "all"] + one[2:-2]   # no --cpu: all is not pinned


def test_merge_keeps_other_modes_and_drops_unpinned_rows():
    rep = _bench_module("cpu_compare_report")
    earlier = {"run": {"date": "d0", "commit": "c0"},
               "threads": {"all": {"cpus": [0, 1]}},
               "rows": [{"workload": "w", "n": 16, "compiled_vs_jax": 9.0},   # unpinned
                        {"workload": "w", "n": 16, "threads": "all", "compiled_vs_jax": 2.0}],
               "reallibs": [{"program": "p", "size": 1, "threads": "one",
                             "compiled_vs_xla": 5.0, "compiled_error": None,
                             "xla_error": None}]}
    new = {"program": "p", "threads": "one", "compiled_error": None, "xla_error": None}
    measured = {"one": {"setup": {"cpus": [0]},
                        "rows": [{"workload": "w", "n": 16, "threads": "one",
                                  "compiled_vs_jax": 1.0}],
                        "reallibs": [{**new, "size": 1, "compiled_vs_xla": 1.0},
                                     {**new, "size": 2, "compiled_vs_xla": 3.0},
                                     {**new, "size": 3, "compiled_vs_xla": 0.1,
                                      "compiled_error": "out0 mismatch"}]}}
    data = rep.merge(earlier, measured, ["warm", "reallibs"])
    assert [(r["threads"], r["compiled_vs_jax"]) for r in data["rows"]] == \
        [("one", 1.0), ("all", 2.0)]
    assert data["kept"] == {"rows/all": {"date": "d0", "commit": "c0"}}
    assert data["threads"] == {"one": {"cpus": [0]}, "all": {"cpus": [0, 1]}}
    # the wrong row's ratio is not a speed: median over sizes 1 and 2 only
    assert data["reallibs_summary"] == {"one": {"median_compiled_vs_xla": 2.0,
                                                "max_compiled_vs_xla": 3.0, "rows": 2}}
    table = rep.markdown(data)
    assert "| w | 16 | - | - | - | 1.00 | - | - | - | 2.00 |" in table
    assert "| p | 3 | - | - | - | WRONG |" in table
    drawn = {}
    rep.report.bars = lambda path, title, labels, series, *a, **k: drawn.update(
        {path.name: (labels, series)})
    rep.plot(data, Path("/nonexistent/cpu_compare.png"))
    assert drawn["cpu_compare.png"][0] == ["w n=16"]
    assert drawn["cpu_compare.png"][1]["jax.jit (all CPUs)"] == [None]
    assert drawn["cpu_compare_reallibs.png"][1]["compiled / XLA (one CPU)"] == [1.0, 3.0, None]


def test_one_real_library_row_against_xla():
    """haiku_mlp at its middle size: dynhlo compiled, reference and XLA's compile of the
    stored module all within the program's tolerance of the stored jax.jit outputs (XLA's
    exactly: the same compiler and shapes as at export)."""
    pytest.importorskip("jax")
    rows = json.loads(_bench_child(
        "import json, cpu_reallibs\n"
        "import tests.support.reallibs_data as data\n"
        "data.MANIFEST['haiku_mlp'] = {**data.MANIFEST['haiku_mlp'], 'sizes': [13]}\n"
        "print(json.dumps(cpu_reallibs.program_rows('haiku_mlp', 0.0, 'one')))"
        ).splitlines()[-1])
    (row,) = rows
    assert (row["program"], row["size"], row["threads"]) == ("haiku_mlp", 13, "one")
    assert row["compiled_error"] is row["reference_error"] is row["xla_error"] is None
    assert row["xla_max_abs_err"] == 0.0
    assert row["compiled_max_abs_err"] < 5e-6 and row["reference_max_abs_err"] < 5e-6
    assert row["compiled_vs_xla"] == row["compiled_warm_ms"] / row["xla_warm_ms"] > 0
