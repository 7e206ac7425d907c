"""The iteration limit of while loops, one rule for every backend.

`max_while_iterations` (a compile option, kept in artifacts) is each program's `while_limit`;
a loop that would run past it ends with an IterationLimitError naming it instead of running
forever (XLA has no limit: None, the default, keeps that).
"""

from __future__ import annotations

from ...errors import IterationLimitError


def count_iteration(inst, done: int, limit: int | None) -> int:
    """`done + 1`, or IterationLimitError naming the loop when that is past `limit` (the
    max_while_iterations compile option; None: no limit, as XLA)."""
    if limit is not None and done >= limit:
        raise IterationLimitError(
            f"instruction '{inst.name}': while loop did not end within max_while_iterations="
            f"{limit} iterations; its condition may never become false (raise the limit if "
            "the loop is meant to run longer)")
    return done + 1
