"""The cross-compiler child of cubins.compile_parallel: kernel specs in, cubins out.

A child needs Triton, the kernel-source loader (source.py) and the `M` helpers the generated
source imports, and nothing else of dynhlo. `command` starts it without running the package
initializers of `dynhlo`, `dynhlo.backends` and `dynhlo.backends.gpu` (they import torch,
JAX's MLIR bindings and ml_dtypes): a child was ready in 3.2 s, now in about 0.3 s (2-core
machine), and the first call of a model waits for its slowest child.
"""

from __future__ import annotations

import base64
import json
import os
import site
import sys
import sysconfig

# The packages whose initializers a child skips: plain namespaces over their folders.
_SKIPPED = ("dynhlo", "dynhlo.backends", "dynhlo.backends.gpu")


def command(cc: int) -> list[str]:
    """The argv of a child that compiles for sm_<cc> with exactly this process's dynhlo.

    Isolated mode (-I) keeps the working directory, the script's directory, PYTHON*
    variables and the user site off the child's path, so a `./dynhlo/` (or `./triton/`)
    beside the user cannot run in its place; the child's path is this process's own with
    no relative or working-directory entry, in the order: the standard library, the folder
    holding this dynhlo package, the rest. The standard library comes first as in any
    Python: that folder may be a site-packages, where a stale backport (`dataclasses` 0.6)
    would otherwise replace the standard module.
    """
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))))
    cwd = os.getcwd()
    rest = [p for p in sys.path if p and os.path.isabs(p) and p != root and p != cwd]
    stdlib = [p for p in rest if _in_stdlib(p)]
    paths = stdlib + [root] + [p for p in rest if p not in stdlib]
    script = ("import json, os, sys, types\n"
              "sys.path[:] = json.loads(sys.argv[1])\n"
              "for name in json.loads(sys.argv[2]):\n"
              "    pkg = types.ModuleType(name)\n"
              "    pkg.__path__ = [os.path.join(sys.argv[4], *name.split('.'))]\n"
              "    sys.modules[name] = pkg\n"
              "from dynhlo.backends.gpu.compile.worker import main\n"
              "main(int(sys.argv[3]))\n")
    return [sys.executable, "-I", "-c", script, json.dumps(paths), json.dumps(_SKIPPED),
            str(cc), root]


def _in_stdlib(path: str) -> bool:
    """A path entry of the standard library: its folder (lib-dynload inside it) or its zip
    beside it, and not a site-packages (which may lie inside the folder too)."""
    stdlib = sysconfig.get_path("stdlib")
    sites = set(getattr(site, "getsitepackages", list)()) | {site.getusersitepackages()}
    if path in sites:
        return False
    return path == stdlib or path.startswith(stdlib + os.sep) or (
        path.endswith(".zip") and os.path.dirname(path) == os.path.dirname(stdlib))


def compile_one(spec: dict, cc: int) -> tuple[bytes, dict]:
    """(cubin, launch info) of one kernel spec (cubins.kernel_spec, cubins.graph_spec) for
    sm_<cc>; needs no GPU."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from .source import load_kernel
    fn = load_kernel(spec["source"], "kernel", interpret=False)
    names = list(spec["signature"])
    attrs = {(names.index(p),): [["tt.divisibility", 16]] for p in spec["pointers"]}
    src = ASTSource(fn, spec["signature"], spec["constexprs"], attrs)
    compiled = triton.compile(src, target=GPUTarget("cuda", cc, 32),
                              options={k: spec[k] for k in ("num_warps", "maxnreg",
                                                              "enable_reflect_ftz")
                                       if k in spec})
    md = compiled.metadata
    info = {"name": md.name, "shared": md.shared, "num_warps": md.num_warps,
            "global_scratch_size": getattr(md, "global_scratch_size", 0),
            "profile_scratch_size": getattr(md, "profile_scratch_size", 0)}
    return compiled.asm["cubin"], info


# The line a child writes to stderr as it starts each kernel: the parent names the kernel
# that failed or ran too long by counting them (cubins._child_results).
PROGRESS = "dynhlo-compile-worker: kernel starts"


def main(cc: int) -> None:
    """The child: compile the JSON specs on stdin for sm_<cc>; JSON on stdout."""
    specs = json.loads(sys.stdin.read())
    out = []
    for spec in specs:
        sys.stderr.write(PROGRESS + "\n")
        sys.stderr.flush()
        cubin, info = compile_one(spec, cc)
        out.append((base64.b64encode(cubin).decode(), info))
    sys.stdout.write(json.dumps(out))
