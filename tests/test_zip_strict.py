"""Every zip() call in the package, its tests and tools says `strict=` (ruff's B905, selected
in pyproject.toml; checked here so that it holds where ruff is not installed).

`strict=True` where the sequences must have one length (a missing output fails instead of
being skipped), `strict=False` where they may differ on purpose.
"""

from __future__ import annotations

import ast

import pytest

from tests.support.common import REPO

FOLDERS = ("dynhlo", "tests", "tools")


def zip_calls_without_strict(source: str) -> list[int]:
    """Line numbers of the `zip(...)` calls in `source` that do not pass `strict=`."""
    return sorted(node.lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id == "zip" and not any(k.arg == "strict" for k in node.keywords))


def test_the_check_finds_a_zip_without_strict():
    source = "pairs = zip(a, b)\nok = zip(a, b, strict=True)\nalso = zip(*rows, strict=False)\n"
    assert zip_calls_without_strict(source) == [1]


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_zip_says_strict(folder):
    files = sorted((REPO / folder).rglob("*.py"))
    assert files, folder
    missing = [f"{path.relative_to(REPO)}:{line}" for path in files
               for line in zip_calls_without_strict(path.read_text(encoding="utf-8"))]
    assert not missing, "zip() without strict= (ruff B905): " + ", ".join(missing)
