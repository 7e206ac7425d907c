"""Cyclic garbage collection paused while a module is parsed, lowered and compiled.

Compiling a large module (a 48-layer transformer: 12,000 instructions) makes millions of
small objects that all live until the program is built. CPython's collector is triggered by
allocation counts, so it walks the growing heap again and again during the compile, to free
nothing: that was a quarter to a third of the transformer's compile time on the CPU. Paused,
the garbage of the compile is collected once, by the first collection after it.

The pause is process-wide (CPython has no other): when several threads compile at once the
first to finish turns collection back on, and the others run unpaused, which changes their
speed, not their results. A caller that turned collection off keeps it off.
"""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def gc_paused():
    """Context manager (and decorator): collection off inside, back on after if it was on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
