"""dynhlo's environment variables: every `DYNHLO_*` variable the package reads is read here.

Each is read when its function is called, never at import, so a variable set after
`import dynhlo` (a test's monkeypatch.setenv, a user's os.environ) counts from the next call.
An empty value counts as unset.

    DYNHLO_CACHE_DIR     the directory of dynhlo's disk caches (the JIT cache's entries, the GPU
                         backend's cubins). Default: $XDG_CACHE_HOME/dynhlo, else
                         ~/.cache/dynhlo. (cache_root)
    DYNHLO_CPU_COMPILED  0: the CPU backend runs the NumPy reference evaluator where a call
                         leaves `reference` to the default. Default: unset, empty or any other
                         value, fused groups compiled to machine code. (cpu_compiled)
    DYNHLO_GPU_GRAPH     1 or 0: the GPU backend's graph runner on or off, where a call leaves
                         `graph` to the default. Default: unset, the backend decides; any other
                         value counts as unset. (gpu_graph)
    DYNHLO_TRACEBACK     set (any value): an internal error in the `dynhlo` command raises with
                         its traceback instead of one `internal error` line, and a distributed
                         rank prints the traceback of its failure. Default: unset. (traceback)

The test suite reads its own (DYNHLO_FUZZ_SEED, DYNHLO_SHAPE_POLY_FULL, DYNHLO_TEST_MARK) in
tests/; the package never reads those.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """$DYNHLO_CACHE_DIR, else $XDG_CACHE_HOME/dynhlo, else ~/.cache/dynhlo (not created)."""
    if os.environ.get("DYNHLO_CACHE_DIR"):
        return Path(os.environ["DYNHLO_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "dynhlo"


def cpu_compiled() -> bool:
    """False when DYNHLO_CPU_COMPILED is "0" (the CPU backend's reference evaluator), else
    True: the compiled path is the default."""
    return os.environ.get("DYNHLO_CPU_COMPILED", "") != "0"


def gpu_graph() -> bool | None:
    """DYNHLO_GPU_GRAPH as the GPU backend's `graph` default: "1" True, "0" False, else None
    (unset, empty or any other value: the backend decides)."""
    return {"1": True, "0": False}.get(os.environ.get("DYNHLO_GPU_GRAPH", ""))


def traceback() -> bool:
    """True when DYNHLO_TRACEBACK is set to a non-empty value: show internal errors'
    tracebacks."""
    return bool(os.environ.get("DYNHLO_TRACEBACK"))
