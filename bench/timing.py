"""The warm-call measure the CPU benchmarks share (cpu_compare.py and its real-library rows).

A library of the benchmarks, not a benchmark."""

from __future__ import annotations

import statistics
import time


def warm_ms(fn, budget_s: float, warmup: int = 5) -> float:
    """Median milliseconds of calls to `fn` until `budget_s` has passed (at least 3 calls,
    at most 200), after `warmup` calls not timed (a counted loop's specs and plan are made
    by the third and fourth call at one shape: dynhlo/backends/cpu/compiled/loop_body.py)."""
    for _ in range(warmup):
        fn()
    times, start = [], time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < budget_s and len(times) < 200):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3
