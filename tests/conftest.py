"""Shared test fixtures (the helpers themselves are in tests/support/common.py).

Tests import their helpers by the package path from the repository root (`from
tests.support import opcheck`): every folder of tests/ is a package, so pytest puts the
repository root on sys.path and two test files may share a name in different folders.
"""

from __future__ import annotations

import os

import pytest

# JAX is these tests' CPU reference. On a GPU machine its CUDA client would take 75% of the
# device's memory in each test worker, and dynhlo's GPU tests would run out of it.
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from tests.support.common import run_cli  # noqa: E402


@pytest.fixture
def cli():
    """The run_cli function: `cli("run", "m.hlo", "f32[] 1")`."""
    return run_cli
