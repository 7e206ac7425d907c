"""Rewrite README.md's opcode table from dynhlo.support (the opcode and lowering tables).

    python tools/opcode_table.py            # rewrite the section between the markers
    python tools/opcode_table.py --check    # exit 1 if README.md's table is out of date

The section is delimited by the lines `<!-- opcode-table:start -->` and
`<!-- opcode-table:end -->`; everything outside them is left as it is.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dynhlo import support  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("readme", nargs="?", default=str(ROOT / "README.md"),
                        help="the README to update (default: the repository's README.md)")
    parser.add_argument("--check", action="store_true",
                        help="only check that the table is current; exit 1 if not")
    args = parser.parse_args(argv)
    path = Path(args.readme)
    if not path.exists():
        print(f"{path}: no such file", file=sys.stderr)
        return 2
    text = path.read_text(encoding="utf-8")
    table = support.render_markdown()
    try:
        updated = support.splice_readme(text, table)
    except ValueError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if updated != text:
            print(f"{path}: the opcode table is out of date; run python tools/opcode_table.py",
                  file=sys.stderr)
            return 1
        return 0
    if updated != text:
        path.write_text(updated, encoding="utf-8")
        print(f"{path}: opcode table updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
