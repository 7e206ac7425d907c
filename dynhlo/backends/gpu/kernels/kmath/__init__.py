"""`M` in generated kernels: libdevice-backed helpers on the GPU, plain-tl ones in the interpreter.

Kernel source is the same in both modes (so an AOT payload made in interpreter mode matches
the kernels planned on the GPU); which implementation `M.tanh` is depends on the mode Triton
was imported in. Helpers the same in both modes are in common.py, converts in casts.py.
"""

from triton import knobs

from .common import *  # noqa: F401,F403

if knobs.runtime.interpret:
    from .interp import *  # noqa: F401,F403
else:
    from .device import *  # noqa: F401,F403

from .casts import *  # noqa: E402,F401,F403
