"""What a kernel compiles to for a GPU target, on any machine (no GPU needed).

Compiles kernels with `triton.compile(..., target=GPUTarget("cuda", cc, 32))`, as
`dynhlo compile --target` does, and prints for each: its registers per thread and stack
(spilled registers; from the cubin, by the cuobjdump Triton ships), shared memory, the
layout of its first blocked tensors (Triton's TTGIR) and a count of the PTX instructions that decide a
memory-bound or FMA-bound kernel's speed (global loads and stores, shuffles, barriers,
divides, exponentials, FMAs). A guide for tuning when no device is at hand; speed itself is
measured on the device (bench/attention_tiles.py, bench/narrow_rows.py).

    python bench/kernel_asm.py attention [--tiles 32x64x4,64x64x8] [--stages 3] [--splits 8]
    python bench/kernel_asm.py module FILE.hlo [--block BM=128] [--warps 4]

`module` prints the generated kernels of a module's plan (the plain path's form);
`--block` overrides constexprs (e.g. a row kernel's rows per program; a column tile
narrower than the row is right only for the looped form).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

_COUNTED = ("ld.global", "st.global", "ld.shared", "st.shared", "shfl.sync", "bar.sync",
            "div.rn", "rcp", "ex2.approx", "fma.rn")


def compile_report(name: str, source: str, signature: dict, constexprs: dict,
                   pointers: list, warps: int, stages: int | None, cc: int,
                   maxnreg: int | None = None) -> str:
    """One line of registers/spills/shared, the first layouts and instruction counts."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from dynhlo.backends.gpu.launch.kernel_cache import load_kernel
    fn = load_kernel(source, "kernel", interpret=False)
    names = list(signature)
    attrs = {(names.index(p),): [["tt.divisibility", 16]] for p in pointers}
    options = {"num_warps": warps, **({"maxnreg": maxnreg} if maxnreg else {})}
    if stages is not None:
        options["num_stages"] = stages
    compiled = triton.compile(ASTSource(fn, signature, constexprs, attrs),
                              target=GPUTarget("cuda", cc, 32), options=options)
    ptx = compiled.asm["ptx"]
    counts = Counter()
    for op in _COUNTED:
        counts[op] = len(re.findall(rf"\b{re.escape(op)}\b", ptx))
    layouts = re.findall(r"^#blocked\d* = #ttg\.blocked<\{(.*)\}>", compiled.asm["ttgir"],
                         re.M)
    usage = _resource_usage(compiled.asm["cubin"])
    lines = [f"{name}: {usage}, shared {compiled.metadata.shared} B"]
    lines += [f"    layout {text}" for text in layouts[:3]]
    lines.append("    ptx " + ", ".join(f"{op} {n}" for op, n in counts.items() if n))
    return "\n".join(lines)


def _resource_usage(cubin: bytes) -> str:
    import triton
    tool = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(cubin)
    try:
        out = subprocess.run([str(tool), "--dump-resource-usage", f.name],
                             capture_output=True, text=True, check=False).stdout
    finally:
        os.unlink(f.name)
    found = re.search(r"REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)", out)
    if found is None:
        return "resource usage unknown"
    reg, stack, _, _ = found.groups()
    return f"{reg} registers, {stack} B of stack (registers spilled when not 0)"


def attention(opts) -> None:
    from dynhlo.backends.gpu.graph.attention import _log2_factor, attention_kernel
    factor = _log2_factor(("div", 8.0))
    sig = {"q": "*fp32", "k": "*fp32", "v": "*fp32", "out": "*fp32", "sz": "*i32"}
    for tile in opts.tiles.split(","):
        bm, bn, warps = (int(x) for x in tile.split("x"))
        kernel = attention_kernel(64, 64, True, False, factor, opts.splits,
                                  2048 if opts.splits > 1 else 0, bm, bn, warps)
        print(compile_report(f"attention {tile} shares {opts.splits}", kernel.source,
                             {**sig, **{k: "constexpr" for k in kernel.block}}, kernel.block,
                             list(sig)[:5], warps, opts.stages, opts.cc))


def module(opts) -> None:
    # The plan is made in Triton's interpreter (no GPU here), the kernels compiled for the
    # target in a child process: the interpreter, once imported, patches triton.language.
    code = ("import json, sys, dynhlo\n"
            "from dynhlo.backends.gpu.aot import _spec\n"
            "from dynhlo.backends.gpu.plan.fusion import kernels_of\n"
            "exe = dynhlo.compile(open(sys.argv[1]).read(), backend='gpu', interpret=True)\n"
            "print(json.dumps([_spec(k) for k in kernels_of(exe.program.plan)]))\n")
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", code, opts.file], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        sys.exit(done.stderr.strip().splitlines()[-1])
    override = dict(kv.split("=") for kv in opts.block.split(",")) if opts.block else {}
    for k, spec in enumerate(json.loads(done.stdout.strip().splitlines()[-1])):
        consts = {**spec["constexprs"],
                  **{key: int(v) for key, v in override.items() if key in spec["constexprs"]}}
        print(compile_report(f"kernel {k} {consts}", spec["source"], spec["signature"],
                             consts, spec["pointers"], opts.warps or spec["num_warps"],
                             opts.stages, opts.cc, spec.get("maxnreg")))


def main() -> None:
    # Triton compiles for real only when imported before dynhlo, which picks Triton's
    # interpreter on a machine without a GPU.
    import triton
    del triton
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cc", type=int, default=90, help="compute capability (90: H200)")
    parser.add_argument("--stages", type=int, default=None)
    sub = parser.add_subparsers(dest="what", required=True)
    att = sub.add_parser("attention")
    att.add_argument("--tiles", default="32x64x4,64x64x4,64x64x8,128x64x8")
    att.add_argument("--splits", type=int, default=1)
    mod = sub.add_parser("module")
    mod.add_argument("file")
    mod.add_argument("--block", default="")
    mod.add_argument("--warps", type=int, default=0)
    opts = parser.parse_args()
    attention(opts) if opts.what == "attention" else module(opts)


if __name__ == "__main__":
    main()
