"""Parse speed: dynhlo's HLO text parser, and XLA's own C++ parser side by side when jax is there.

    python bench/parse.py [--file PATH] [--runs N]

Reports instructions per second, the median of N runs (each run parses the whole text once;
garbage is collected before each run and the parsed module is freed after the clock stops, so
neither parser pays for the other's garbage). XLA's parser is reached through jaxlib
(`jax._src.lib.xla_client.hlo.hlo_module_from_text` in jax 0.10; older jaxlibs expose it as
`xla_client._xla.hlo_module_from_text`).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from dynhlo.hlo import parse_hlo  # noqa: E402

DEFAULT_FILE = os.path.join(ROOT, "..", "shared", "large", "transformer_48_layers.hlo")


def median_seconds(parse, text: str, runs: int) -> float:
    """Median wall time of `parse(text)` over `runs` runs, after one warm-up run."""
    parse(text)
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = parse(text)
        times.append(time.perf_counter() - start)
        del result
    return statistics.median(times)


def xla_parser():
    """XLA's C++ HLO text parser as a function of the text, or None without jax."""
    try:
        from jax._src.lib import xla_client
    except ImportError:
        return None, "jax is not importable"
    for owner, name in ((getattr(xla_client, "hlo", None), "hlo_module_from_text"),
                        (getattr(xla_client, "_xla", None), "hlo_module_from_text")):
        if owner is not None and hasattr(owner, name):
            import jax
            return getattr(owner, name), f"jax {jax.__version__}"
    return None, "this jaxlib has no hlo_module_from_text"


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print one line per parser."""
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--file", default=DEFAULT_FILE, help="HLO module text to parse")
    args.add_argument("--runs", type=int, default=15, help="timed runs per parser (median)")
    opts = args.parse_args(argv)
    with open(opts.file) as f:
        text = f.read()
    count = sum(1 for _ in parse_hlo(text).instructions())
    print(f"{os.path.basename(opts.file)}: {count} instructions, {len(text)} bytes; "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs, median of {opts.runs}")
    ours = count / median_seconds(parse_hlo, text, opts.runs)
    print(f"dynhlo  {ours:12,.0f} instructions/s")
    parse_xla, what = xla_parser()
    if parse_xla is None:
        print(f"XLA     skipped: {what}")
        return
    theirs = count / median_seconds(parse_xla, text, opts.runs)
    print(f"XLA     {theirs:12,.0f} instructions/s  ({what}, C++ parser)")
    print(f"ratio   dynhlo / XLA = {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
