"""Shared test fixtures: where the corpus and examples are, and running the `dynhlo` command.

The read-only corpus lives beside the repository (`../shared/models`), locally and in CI.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
MODELS = SHARED / "models"
EXAMPLES = REPO / "examples"


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 120
            ) -> subprocess.CompletedProcess:
    """`python -m dynhlo ARGS...` in a subprocess on this checkout; text stdout/stderr."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + ([env["PYTHONPATH"]]
                                                        if env.get("PYTHONPATH") else []))
    env.pop("DYNHLO_TRACEBACK", None)
    return subprocess.run([sys.executable, "-m", "dynhlo", *args], cwd=cwd or REPO, env=env,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture
def cli():
    """The run_cli function: `cli("run", "m.hlo", "f32[] 1")`."""
    return run_cli


def assert_one_line_error(proc: subprocess.CompletedProcess, *fragments: str,
                          status: int = 1) -> str:
    """`proc` failed with `status` and one `dynhlo: error: ...` line holding every fragment."""
    assert proc.returncode == status, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("dynhlo: error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]
