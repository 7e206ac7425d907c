"""dynhlo: compile and run XLA HLO modules with bounded dynamic shapes.

    import dynhlo
    exe = dynhlo.compile(hlo_text)          # backend="cpu" (default) or "gpu"
    out = exe(x)                            # NumPy in, NumPy out, at actual sizes
    exe.save("m.dynhlo"); exe = dynhlo.load("m.dynhlo")   # AOT: loading compiles nothing
    f = dynhlo.jit(hlo_text)                # compiles per size bucket on first call, cached
    exe = dynhlo.from_jax(fn, "f32[n,16]", bounds={"n": 64})   # a JAX function, sizes symbolic
    exe = dynhlo.from_torch(model, ids, dynamic_shapes={"ids": {1: Dim("T", max=512)}})
    module = dynhlo.parse_stablehlo(mlir_text_or_bytecode)     # StableHLO -> HloModule
    module = dynhlo.bound_from_dumps(hlo_at_64, hlo_at_48, bound=1024)  # dumps -> <=1024
"""

from .errors import (ArgumentError, ArtifactError, DynamicSizeError, DynHloError,
                     HloParseError, HloVerifyError, IterationLimitError,
                     ResourceExhaustedError, UnsupportedError)
from .frontends.jax import from_jax
from .frontends.torch import from_torch
from .frontends.proto import parse_hlo_proto, parse_hlo_proto_text
from .frontends.stablehlo import parse_stablehlo
from .frontends.tf import from_tf
from .frontends.dumps import bound_from_dumps
from .hlo import HloModule, parse_hlo
from .hlo.baked_sizes import BakedSizeWarning, DynHloWarning
from .runtime.loader import deserialize, load
from .runtime.buckets import BucketedExecutable
from .runtime.executable import Executable, compile
from .runtime.jit import jit
from .version import __version__

__all__ = ["ArgumentError", "ArtifactError", "DynamicSizeError", "DynHloError",
           "HloParseError", "HloVerifyError", "IterationLimitError", "ResourceExhaustedError",
           "UnsupportedError", "HloModule", "parse_hlo",
           "Executable", "compile", "__version__", "BucketedExecutable", "deserialize", "load",
           "jit", "from_jax", "from_torch", "from_tf", "parse_stablehlo", "parse_hlo_proto",
           "parse_hlo_proto_text", "bound_from_dumps", "BakedSizeWarning", "DynHloWarning"]
