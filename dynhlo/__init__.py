"""dynhlo: compile and run XLA HLO modules with bounded dynamic shapes.

    import dynhlo
    exe = dynhlo.compile(hlo_text)          # backend="cpu" (default) or "gpu"
    out = exe(x)                            # NumPy in, NumPy out, at actual sizes
"""

from .errors import (ArgumentError, ArtifactError, DynamicSizeError, DynHloError,
                     HloParseError, HloVerifyError, UnsupportedError)
from .hlo import HloModule, parse_hlo
from .runtime.executable import Executable, compile

__version__ = "0.1.0"

__all__ = ["ArgumentError", "ArtifactError", "DynamicSizeError", "DynHloError",
           "HloParseError", "HloVerifyError", "UnsupportedError", "HloModule", "parse_hlo",
           "Executable", "compile", "__version__"]
