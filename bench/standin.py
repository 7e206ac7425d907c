"""A stand-in driver: time dynhlo's host work per call on a machine without a GPU.

`launching_nothing()` makes every GPU program compiled inside it (in Triton's interpreter,
interpret=True) launch its kernels through a launcher that returns at once: the call still
checks its arguments, picks its runner, allocates its outputs on the CPU, gathers pointers
and size arguments and calls the launcher's `direct` form, as on the device, but no kernel
runs, so the time is the host's part alone (results are not computed: their values are
whatever the allocator left). Used by host_overhead.py and launch_overhead.py with
`--device cpu` to compare two checkouts' per-call host cost (`--impl`); not a measure of
a GPU.
"""

from __future__ import annotations

import contextlib


def _nothing(*args) -> None:
    return None


class StandInLauncher:
    """A launcher (launch/launcher.py's protocol: `__call__(grid, tensors, sizes)` and
    `direct(grid0, stream, pointers, sizes)`) that launches nothing."""

    direct = staticmethod(_nothing)

    def __call__(self, grid, tensors, sizes) -> None:
        return None


@contextlib.contextmanager
def launching_nothing():
    """Within: GPU programs compiled get StandInLauncher for every kernel."""
    from dynhlo.backends import gpu
    real = gpu._launchers
    gpu._launchers = lambda kernels, interpret, fast: {id(k): StandInLauncher()
                                                       for k in kernels}
    try:
        yield
    finally:
        gpu._launchers = real
