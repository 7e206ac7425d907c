"""Compiled CPU artifact load, base tree against this one, in one process, loads alternating.

    python bench/aot_load_ab.py BASE_TREE [--runs N] [--keep DIR]

On a shared machine two processes timed one after the other differ by more than a change
does (the 2-core machine here: 210 or 310 ms for one load, by what else runs). This imports
BASE_TREE's dynhlo under the package name `base` (its cpu backend pointed at that copy) next
to this tree's, compiles the 48-layer transformer (tests/data/large, bounded) with each into
an artifact of its own (kernels from each tree's writer, so each links its stored code), then
times, per stage, one call of each in turn (after a full collection, so that neither
collects the other's garbage), the order swapped every round: parse, verify,
inference (shapes.dynamic.infer_module), the stored plan's check (aot.rebuild_plan) and the
whole dynhlo.load. Reported per stage: median and minimum of each, and the median of the
per-round ratios (this / base), which other load hits alike. A load that compiles (a warning
that the stored code is not used) fails the benchmark. Writes
bench/results/aot_load_ab.json.

BASE_TREE: a checkout of another commit (`git archive COMMIT | tar -x -C DIR`), not this one.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import importlib
import importlib.util
import json
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import dynhlo  # noqa: E402
import report  # noqa: E402

BOUNDED = ROOT / "tests" / "data" / "large" / "transformer_48_layers_bounded.hlo"


def import_as(name: str, tree: Path):
    """The dynhlo package of `tree` imported as `name` (its cpu backend resolved there)."""
    spec = importlib.util.spec_from_file_location(
        name, tree / "dynhlo" / "__init__.py", submodule_search_locations=[str(tree / "dynhlo")])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    backends = sys.modules[f"{name}.backends"]
    backends.BACKENDS["cpu"] = dataclasses.replace(backends.BACKENDS["cpu"],
                                                   package=f"{name}.backends.cpu")
    return module


def stages(pkg: str, path: Path) -> dict:
    """name -> a call of that stage of loading `path` with package `pkg`."""
    def part(name):
        return importlib.import_module(f"{pkg}.{name}")
    art = part("runtime.artifact").read_artifact(path.read_bytes())
    constants = part("runtime.loader")._stored_constants(art)
    text = art.sections[art.header["module"]].decode()
    module = part("hlo.text.parser").parse_hlo(text, constants)
    lowered, info = part("compiler").lower(module, part("backends").get("cpu"))
    aot = part("backends.cpu.compiled.aot")
    evaluator = aot.ArtifactEvaluator(part("shapes.dynamic").Inference(lowered))
    plan = json.loads(art.sections["bucket0.program"])["plan"]
    load = importlib.import_module(pkg).load
    return {"parse": lambda: part("hlo.text.parser").parse_hlo(text, constants),
            "verify": lambda: part("hlo.verify").verify_module(module),
            "inference": lambda: part("shapes.dynamic").infer_module(module),
            "plan_check": lambda: aot.rebuild_plan(plan, info, evaluator),
            "load": lambda: load(path)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("--runs", type=int, default=15)
    opts = parser.parse_args()
    base = import_as("base", opts.base.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, pkg in (("base", base), ("this", dynhlo)):
            paths[name] = Path(tmp) / f"{name}.dynhlo"
            pkg.compile(BOUNDED.read_text(), backend="cpu", reference=False).save(paths[name])
            with warnings.catch_warnings():
                warnings.simplefilter("error")   # a recompile warns: the code must link
                pkg.load(paths[name])
        calls = {"base": stages("base", paths["base"]), "this": stages("dynhlo", paths["this"])}
        rows = {}
        for stage in calls["base"]:
            times: dict = {"base": [], "this": []}
            for k in range(opts.runs):
                for name in ("base", "this") if k % 2 == 0 else ("this", "base"):
                    gc.collect()   # the other's garbage is not this call's to collect
                    start = time.perf_counter()
                    calls[name][stage]()
                    times[name].append((time.perf_counter() - start) * 1e3)
            ratio = statistics.median(b / a for a, b in zip(times["base"], times["this"]))
            rows[stage] = {f"{name}_{what}": fn(times[name]) for name in times
                           for what, fn in (("median_ms", statistics.median), ("min_ms", min))}
            rows[stage]["ratio"] = ratio
            print(f"{stage:11s} base {rows[stage]['base_median_ms']:6.1f} (min "
                  f"{rows[stage]['base_min_ms']:6.1f}) ms, this {rows[stage]['this_median_ms']:6.1f}"
                  f" (min {rows[stage]['this_min_ms']:6.1f}) ms, this/base {ratio:.3f}")
    report.save("aot_load_ab", {"base": str(opts.base), "runs": opts.runs, "stages": rows})


if __name__ == "__main__":
    main()
