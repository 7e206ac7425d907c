"""The GPU backend's layers import one way, counting imports inside functions.

Bottom to top (dynhlo/backends/gpu/__init__.py says what each holds): mode, kernels,
compile (the kernel -> cubin service, below every runner), tensors, precision, library,
rules, plan, launch, graph, aot, program, the package itself. A module may import its own layer and the layers below, never one above;
kernels/ (HLO group -> Triton text) never imports torch. Read from the source text, so a
deferred import that goes back up is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GPU = Path(__file__).resolve().parents[3] / "dynhlo" / "backends" / "gpu"
LAYERS = ["mode", "kernels", "compile", "tensors", "precision", "library", "rules", "plan",
          "launch", "graph", "aot", "program", "__init__"]


def _layer(path: Path) -> int:
    part = path.relative_to(GPU).parts[0].removesuffix(".py")
    return LAYERS.index(part)


def _imports(path: Path):
    """(line, dotted target inside dynhlo.backends.gpu or a top-level name) per import."""
    package = list(path.relative_to(GPU).parent.parts)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, None, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield node.lineno, None, node.module or ""
                continue
            up = node.level - 1
            if up > len(package):
                continue  # outside the gpu package (dynhlo's lower layers)
            base = package[:len(package) - up] if up else package
            parts = base + (node.module.split(".") if node.module else [])
            if not parts:  # `from . import mode`
                parts = [alias.name for alias in node.names][:1]
            yield node.lineno, parts, None


MODULES = sorted(GPU.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(GPU)))
def test_imports_go_down_the_layers(path):
    own = _layer(path)
    for line, parts, absolute in _imports(path):
        if parts is not None:
            target = LAYERS.index(parts[0].removesuffix(".py"))
            assert target <= own, (f"{path.relative_to(GPU)}:{line} imports "
                                   f"{'.'.join(parts)}, a layer above it")
        elif path.relative_to(GPU).parts[0] == "kernels":
            assert absolute.split(".")[0] != "torch", \
                f"{path.relative_to(GPU)}:{line}: kernels/ generates text and needs no torch"
