"""The cross-compiler child of aot.compile_parallel: kernel specs in, cubins out.

A child needs Triton, the kernel-source loader and the `M` helpers the generated source
imports, and nothing else of dynhlo. `command` starts it without running the package
initializers of `dynhlo`, `dynhlo.backends` and `dynhlo.backends.gpu` (they import torch,
JAX's MLIR bindings and ml_dtypes): a child was ready in 3.2 s, now in about 0.3 s (2-core
machine), and the first call of a model waits for its slowest child.
"""

from __future__ import annotations

import base64
import json
import os
import sys

# The packages whose initializers a child skips: plain namespaces over their folders.
_SKIPPED = ("dynhlo", "dynhlo.backends", "dynhlo.backends.gpu")


def command(cc: int) -> list[str]:
    """The argv of a child that compiles for sm_<cc> with exactly this process's dynhlo.

    Isolated mode (-I) keeps the working directory, the script's directory, PYTHON*
    variables and the user site off the child's path, so a `./dynhlo/` (or `./triton/`)
    beside the user cannot run in its place; the child's path is this process's own, with
    the folder holding this dynhlo package first and no relative or working-directory entry.
    """
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    cwd = os.getcwd()
    paths = [root] + [p for p in sys.path
                      if p and os.path.isabs(p) and p != root and p != cwd]
    script = ("import json, os, sys, types\n"
              "sys.path[:] = json.loads(sys.argv[1])\n"
              "for name in json.loads(sys.argv[2]):\n"
              "    pkg = types.ModuleType(name)\n"
              "    pkg.__path__ = [os.path.join(sys.path[0], *name.split('.'))]\n"
              "    sys.modules[name] = pkg\n"
              "from dynhlo.backends.gpu.compile_worker import main\n"
              "main(int(sys.argv[3]))\n")
    return [sys.executable, "-I", "-c", script, json.dumps(paths), json.dumps(_SKIPPED),
            str(cc)]


def compile_one(spec: dict, cc: int) -> tuple[bytes, dict]:
    """(cubin, launch info) of one kernel spec (aot._spec) for sm_<cc>; needs no GPU."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from .launch.kernel_cache import load_kernel
    fn = load_kernel(spec["source"], "kernel", interpret=False)
    names = list(spec["signature"])
    attrs = {(names.index(p),): [["tt.divisibility", 16]] for p in spec["pointers"]}
    src = ASTSource(fn, spec["signature"], spec["constexprs"], attrs)
    compiled = triton.compile(src, target=GPUTarget("cuda", cc, 32),
                              options={k: spec[k] for k in ("num_warps", "maxnreg")
                                       if k in spec})
    md = compiled.metadata
    info = {"name": md.name, "shared": md.shared, "num_warps": md.num_warps,
            "global_scratch_size": getattr(md, "global_scratch_size", 0),
            "profile_scratch_size": getattr(md, "profile_scratch_size", 0)}
    return compiled.asm["cubin"], info


def main(cc: int) -> None:
    """The child: compile the JSON specs on stdin for sm_<cc>; JSON on stdout."""
    specs = json.loads(sys.stdin.read())
    out = [(base64.b64encode(c).decode(), info) for c, info in
           (compile_one(s, cc) for s in specs)]
    sys.stdout.write(json.dumps(out))
