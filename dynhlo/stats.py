"""Process-wide counters that tests and benchmarks read (e.g. to prove a load compiled nothing).

Keys:
    compile: modules compiled by dynhlo.compile (any backend).
    kernel_compile: GPU kernels compiled (Triton), whether JIT or AOT.
"""

from __future__ import annotations

from collections import Counter

COUNTERS: Counter = Counter()


def count(key: str, n: int = 1) -> None:
    COUNTERS[key] += n


def snapshot() -> dict[str, int]:
    return dict(COUNTERS)
