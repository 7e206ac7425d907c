"""How many files of dynhlo/ name each non-elementwise opcode: how far one opcode's facts spread.

    python tools/opcode_spread.py              # the median, and the opcodes above it
    python tools/opcode_spread.py --all        # every opcode with its count and files
    python tools/opcode_spread.py --opcode pad # one opcode's files
    python tools/opcode_spread.py --root ../other-checkout   # count another checkout's files
    python tools/opcode_spread.py --without frontends         # not counting dynhlo/frontends/

A file names an opcode when its source holds `Opcode.NAME`, the string literal of the opcode's
spelling ("reduce-window"), or the spelling as a word of a string that the file splits into a
table (`"sort topk".split()`). Names in a class's `__slots__` are attribute names, not
opcodes (a `domain` slot names no `domain` instruction). Non-elementwise: every opcode whose OpSpec group is not
elementwise unary, binary or ternary. The median is taken over the supported ones (the CPU
backend lowers them: dynhlo.support), as CONTRIBUTING's "Adding an opcode" is about those;
`--every` takes it over all of them.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dynhlo import support  # noqa: E402
from dynhlo.hlo.opcodes import OP_SPECS, Group, Opcode  # noqa: E402

_ELEMENTWISE = (Group.UNARY, Group.BINARY, Group.TERNARY)


def _split_words(tree: ast.AST) -> set[str]:
    """Words of string constants the file splits (`"a b c".split()`)."""
    words: set[str] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "split" and not node.args):
            for part in ast.walk(node.func.value):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    words.update(part.value.split())
    return words


def names_in(path: Path) -> set[Opcode]:
    """The opcodes the Python file at `path` names (see the module docstring)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    strings: set[str] = set()
    members: set[str] = set()
    slots = {id(part) for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)
             for part in ast.walk(node.value)}
    for node in ast.walk(tree):
        if id(node) in slots:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.add(node.value)
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == "Opcode"):
            members.add(node.attr)
    strings |= _split_words(tree)
    return {op for op in Opcode if op.name in members or op.value in strings}


def spread(root: Path) -> dict[Opcode, list[str]]:
    """Opcode -> the files under root/dynhlo that name it (paths relative to root)."""
    files: dict[Opcode, list[str]] = {op: [] for op in Opcode}
    for path in sorted((root / "dynhlo").rglob("*.py")):
        for op in names_in(path):
            files[op].append(str(path.relative_to(root)))
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="list every opcode and its files")
    parser.add_argument("--every", action="store_true",
                        help="the median over every non-elementwise opcode, supported or not")
    parser.add_argument("--opcode", help="list the files naming this opcode (its spelling)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose dynhlo/ is counted (default: this one)")
    parser.add_argument("--without", action="append", default=[], metavar="DIR",
                        help="leave out files under dynhlo/DIR (repeatable)")
    args = parser.parse_args(argv)
    left_out = tuple(f"dynhlo/{d.strip('/')}/" for d in args.without)
    files = {op: [f for f in names if not f.startswith(left_out)]
             for op, names in spread(args.root).items()}
    if args.opcode:
        for name in files[Opcode(args.opcode)]:
            print(name)
        return 0
    ops = [op for op, spec in OP_SPECS.items() if spec.group not in _ELEMENTWISE
           and (args.every or support.status_of(op) != support.UNSUPPORTED)]
    counts = {op: len(files[op]) for op in ops}
    median = statistics.median(counts.values())
    for op in sorted(ops, key=lambda o: (-counts[o], o.value)):
        if args.all or counts[op] > median:
            where = " ".join(f.removeprefix("dynhlo/") for f in files[op]) if args.all else ""
            print(f"{counts[op]:3d}  {op.value:28s} {where}")
    print(f"{len(ops)} non-elementwise opcodes; files naming one: median {median}, "
          f"max {max(counts.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
