"""Moved to dynhlo.stats (a lower layer every backend may import); kept importable here."""

from ..stats import COUNTERS, count, snapshot  # noqa: F401

__all__ = ["COUNTERS", "count", "snapshot"]
