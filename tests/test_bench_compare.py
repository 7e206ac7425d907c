"""bench/compare.py's tables mark the speed ratios of wrong results, column by column.

compare.py sets cache directories for its run when imported, so it is imported in a child
process here; the rows are written as compare.json holds them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
