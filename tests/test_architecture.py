"""The package's structure, checked: imports flow one way (CONTRIBUTING.md, "Layers").

Two checks. First, no import cycle among dynhlo's modules, counting every import: those at
the top of a file and those inside functions (a deferred import that goes back up a layer is
a cycle hidden from Python, not from the reader), and those under `if TYPE_CHECKING:` (a
reader follows them too). Second, import-linter's contracts (`[tool.importlinter]` in
pyproject.toml): the layers cli > runtime > compiler > backends > passes > shapes > hlo >
errors/stats/version/files > config, the two backends independent of each other, and the
command's files (cli/files.py) independent of its bench timing (cli/bench.py).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import importlinter  # noqa: F401  (the `test` extra installs it: missing is a failure)

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dynhlo"

# Cycles the test tolerates: none since the GPU restructuring (branch arch-gpu, issue 9)
# removed the GPU's three; the whole package, GPU included, is held to zero cycles.
KNOWN_GPU_CYCLES: set[frozenset[str]] = set()


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _import_nodes(tree: ast.AST):
    """Every Import/ImportFrom in a parsed file, at any depth."""
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]


def _within(name: str, modules) -> str | None:
    """`name` or its nearest enclosing package that is a dynhlo module."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, path: Path, modules) -> set[str]:
    """The dynhlo modules that module `name` imports, anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _import_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from pkg import mod` imports the module pkg.mod; `from mod import name`, mod.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                       for a in node.names]
        found.update(t for t in (_within(t, modules) for t in targets) if t and t != name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components of more than one module (iterative: no recursion limit)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start), on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt), on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def cycle_path(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """One cycle through the component, as a path that starts and ends at the same module."""
    start = min(component)
    parents, frontier = {start: None}, [start]
    while frontier:  # breadth first from start, back to start
        nxt = []
        for node in frontier:
            for target in sorted(graph[node] & component):
                if target == start:
                    path = [node]
                    while parents[path[-1]] is not None:
                        path.append(parents[path[-1]])
                    return [start] + path[::-1][1:] + [start] if len(path) > 1 \
                        else [start, start]
                if target not in parents:
                    parents[target] = node
                    nxt.append(target)
        frontier = nxt
    return sorted(component)


def _path_text(path: list[str]) -> str:
    return " -> ".join(path)


def test_import_graph_reads_deferred_imports():
    graph = import_graph()
    # compiler.py imports the backend registry at the top, cli/__init__.py imports the runtime
    # inside its functions: both must be edges, or the cycle check sees too little.
    assert "dynhlo.backends" in graph["dynhlo.compiler"]
    assert "dynhlo.runtime.executable" in graph["dynhlo.cli"]


def test_no_import_cycles():
    graph = import_graph()
    cycles = strongly_connected(graph)
    known = [c for c in cycles if frozenset(c) in KNOWN_GPU_CYCLES]
    for component in known:
        print("known GPU cycle (removed by the GPU restructuring):",
              _path_text(cycle_path(graph, component)))
    new = [c for c in cycles if frozenset(c) not in KNOWN_GPU_CYCLES]
    assert not new, "import cycles:\n" + "\n".join(
        _path_text(cycle_path(graph, c)) for c in new)
    gone = KNOWN_GPU_CYCLES - {frozenset(c) for c in cycles}
    assert not gone, f"listed GPU cycles that no longer exist (remove them): {gone}"


def test_import_linter_contracts_hold():
    # In a child whose path starts with the checkout (`-c` puts the working directory
    # first), so the contracts are held against this tree even where dynhlo is installed.
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(no_cache=True, no_logo=True))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout
