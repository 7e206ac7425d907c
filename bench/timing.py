"""The warm-call measures the CPU benchmarks share (cpu_compare.py and its real-library rows,
from_jax_calls.py, cpu_layer_pieces.py, cpu_gemm_tile.py).

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


def paired_warm_ms(fns: list, budget_s: float, warmup: int = 5, block: int = 10) -> list:
    """Median milliseconds of calls to each of `fns`, measured in turns: blocks of `block`
    calls of each in rotation until `budget_s` per function has passed (at least 3 blocks,
    at most 200 calls each), after `warmup` calls of each not timed. A block keeps a
    function's code and data in the caches as back-to-back calls do; the turns make load
    from other processes on a shared machine fall on every function alike, so the ratio
    of two medians is not skewed by a burst that hit one of them only."""
    for fn in fns:
        for _ in range(warmup):
            fn()
    times: list[list[float]] = [[] for _ in fns]
    clock = time.perf_counter
    start, rounds = clock(), 0
    while rounds < 3 or (clock() - start < budget_s * len(fns) and
                         len(times[0]) < 200):
        for fn, bucket in zip(fns, times, strict=True):
            for _ in range(block):
                t = clock()
                fn()
                bucket.append(clock() - t)
        rounds += 1
    return [statistics.median(t) * 1e3 for t in times]


def best_us(fn, seconds: float, runs: int = 7) -> float:
    """The least mean microseconds per call of `fn` over `runs` runs of back-to-back calls,
    the calls per run sized so that all runs take about `seconds` (at least 5 each)."""
    fn()
    start = time.perf_counter()
    fn()
    count = max(5, int(seconds / runs / max(time.perf_counter() - start, 1e-6)))
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(count):
            fn()
        best = min(best, (time.perf_counter() - start) / count)
    return best * 1e6
