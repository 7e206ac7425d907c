"""dynhlo: compile and run XLA HLO modules with bounded dynamic shapes.

    import dynhlo
    exe = dynhlo.compile(hlo_text)          # backend="cpu" (default) or "gpu"
    out = exe(x)                            # NumPy in, NumPy out, at actual sizes
    exe.save("m.dynhlo"); exe = dynhlo.load("m.dynhlo")   # AOT: loading compiles nothing
    f = dynhlo.jit(hlo_text)                # compiles per size bucket on first call, cached
"""

from .errors import (ArgumentError, ArtifactError, DynamicSizeError, DynHloError,
                     HloParseError, HloVerifyError, UnsupportedError)
from .hlo import HloModule, parse_hlo
from .runtime.loader import deserialize, load
from .runtime.buckets import BucketedExecutable
from .runtime.executable import Executable, compile
from .runtime.jit import jit
from .version import __version__

__all__ = ["ArgumentError", "ArtifactError", "DynamicSizeError", "DynHloError",
           "HloParseError", "HloVerifyError", "UnsupportedError", "HloModule", "parse_hlo",
           "Executable", "compile", "__version__", "BucketedExecutable", "deserialize", "load",
           "jit"]
