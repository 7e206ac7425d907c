"""What most tests share: where the corpus and examples are, running the `dynhlo` command, and
small helpers for modules written inline (`hlo_module`, `assert_verify_error`).

The corpus is in the repository (`tests/data/models`, `tests/data/large`): a fresh clone runs
the whole suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import dynhlo

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
DATA = TESTS / "data"  # the corpus, copied from the project's shared/ folder
MODELS = DATA / "models"
LARGE = DATA / "large"
FILECHECK = TESTS / "filecheck"
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


def hlo_module(body: str) -> str:
    """An HLO module named `t` around `body` (its computations)."""
    return "HloModule t\n" + body


def assert_verify_error(text: str, instruction: str, *fragments: str) -> None:
    """Compiling `text` is an HloVerifyError naming `instruction`, with every fragment."""
    with pytest.raises(dynhlo.HloVerifyError) as info:
        dynhlo.compile(text)
    assert info.value.instruction == instruction
    for fragment in fragments:
        assert fragment in str(info.value)
