"""IEEE arithmetic for one call: NumPy's floating-point error handling set to "ignore" while
the CPU backend computes (inf - inf is a NaN, as in XLA, not a NumPy warning or error),
and the caller's own setting back afterwards.

`with np.errstate(all="ignore")` does this, but builds NumPy's error-handling object anew
each time (1.1-2.1 us here; set and reset alone: 0.45 us). The object made from one current
setting is the same every time, so the last one made is kept with the setting it was made
from; entering is then one set of NumPy's context variable and leaving one reset, which is
what `np.errstate` itself does (numpy/_core/_ufunc_config.py: `errstate.__enter__` sets
`_extobj_contextvar` to `_make_extobj(all=...)`, `__exit__` resets it). Where NumPy lacks
those names, `np.errstate` is used as it is.
"""

from __future__ import annotations

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
except ImportError:   # pragma: no cover - another NumPy: its public context manager
    _extobj_contextvar = _make_extobj = None

# (the last current setting, kept so that `is` compares it; its "ignore" form): a thread
# of another setting makes its own again, as np.errstate would
_last: tuple = (None, None)


def ignore():
    """Set NumPy's floating-point error handling to "ignore" in this context (thread);
    returns what `restore` takes to put the previous setting back."""
    global _last
    if _extobj_contextvar is None:   # pragma: no cover - another NumPy
        manager = np.errstate(all="ignore")
        manager.__enter__()
        return manager
    current = _extobj_contextvar.get()
    last = _last
    if last[0] is not current:
        last = _last = (current, _make_extobj(all="ignore"))
    return _extobj_contextvar.set(last[1])


def restore(token) -> None:
    """Put back the setting `ignore` replaced (`token`: what it returned)."""
    if _extobj_contextvar is None:   # pragma: no cover - another NumPy
        token.__exit__(None, None, None)
        return
    _extobj_contextvar.reset(token)
