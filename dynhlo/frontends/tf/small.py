"""The cross-check of from_tf's program at the small sizes 1 and 2: where TensorFlow folds a
size differently only when it is small (a branch on it, in Python, `if x.shape[0] > 2`, or
tf.cond on tf.shape, which TensorFlow folds at each static size), the program made from the
lowerings at the bound and at larger sizes takes the bound's branch at n = 1 and 2, silently.

At 1 and 2 TensorFlow's texts often differ from the bound's in ways that are no branch (a
window of 1 has no padding, a dimension of 1 is reshaped away, a literal of one value is
written otherwise), so they are compared by value, not token by token: TensorFlow's own
program at that size (a static module) and from_tf's program, each run on the same inputs
(seeded normals; small non-negative integers, that index within any dimension; random
booleans), must give the same outputs (shapes, and values to float rounding). Otherwise
from_tf refuses, quoting the first line where the texts differ and the Python line that
wrote it (source.py). A size TensorFlow refuses to lower (least.py) is not checked;
one where from_tf's program raises (a read past the size) is not an answer, and passes.
"""

from __future__ import annotations

import numpy as np

from ...errors import ArgumentError, DynHloError, UnsupportedError
from ...hlo.text.parser import parse_hlo
from ...hlo.types import to_numpy_dtype
from ...runtime.executable import compile as compile_module
from .literal_proto import reference_elided_constants
from ..lowering_diff import first_changed, line_at
from .least import LoweringRefused
from .source import python_place

SMALL = (1, 2)


def check_small_sizes(module, lower, parsed: list, bounds: dict, sizes: dict, raw: str,
                      strip, strict: bool = False, weights: tuple = ()) -> None:
    """UnsupportedError where `module` (from_tf's) and TensorFlow's program at a small size
    (`lower(sizes)`, for each name and each size of `sizes`: name -> those to check) give
    other outputs (see the module doc); `raw` is the lowering at the bounds and `strip`
    takes metadata out of a text. `strict`: where from_tf's program refuses a size that
    TensorFlow's program takes (a read past the size), that is an error too. `weights`
    are passed after the arguments (captures made parameters)."""
    if not any(sizes.values()):
        return
    exe = compile_module(module, "cpu")
    for name, small in sizes.items():
        for size in small:
            at = {**bounds, name: size}
            try:
                text, constants = lower(at)
            except LoweringRefused:   # only where TensorFlow's own program runs (__init__.py)
                text = None   # XLA's refuses no rows of a loop, or folds them away
            static = text and compile_module(parse_hlo(*reference_elided_constants(
                strip(text), constants)), "cpu")
            for sign in _SIGNS:
                args = _inputs(parsed, at, seed=size, sign=sign)
                try:
                    got = exe(*args, *weights)
                except DynHloError as exc:
                    if strict:
                        raise UnsupportedError(
                            f"at {name} = {size} TensorFlow's program gives an answer, but "
                            f"the one lowered with '{name}' dynamic refuses it: "
                            f"{str(exc)[:300]}") from None
                    break   # not an answer: from_tf's program refuses the size itself
                if static is None:
                    break   # nothing to compare with: that it runs is the check
                try:
                    want = static(*args)
                except ArgumentError:
                    break   # TensorFlow folded an argument away (no rows: it is known)
                why = _differ(_flat(got), _flat(want))
                if why:
                    raise _baked(name, size, bounds[name], why, raw, text, strip, strict)


def _baked(name: str, size: int, bound: int, why: str, raw: str, text: str,
           strip, dynamic: bool) -> UnsupportedError:
    """The refusal of a program (lowered with `name` dynamic, or compared at the bound)
    that differs from TensorFlow's at `size` (`text`'s), quoting the first line where
    TensorFlow's texts at the bound and at `size` differ."""
    which = f"with '{name}' dynamic" if dynamic else f"at {bound}"
    changed = first_changed(strip(raw), strip(text))
    line = line_at(strip(raw) if changed is None or changed[0] else strip(text),
                   _offset(strip(raw) if changed is None or changed[0]
                           else strip(text), changed))
    return UnsupportedError(
        f"size '{name}' is baked into the program: at {name} = {size} TensorFlow's program "
        f"gives other outputs than the one lowered {which} ({why}), first different "
        f"in: {line[:300]}{python_place(raw, text, changed)}")


def _offset(text: str, changed) -> int:
    """The offset of line `changed[1]` of `text` (0 where None)."""
    if changed is None:
        return 0
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:min(changed[1], len(lines) - 1)])


# the inputs each size is checked with: values of both signs, then of one sign (a mask of
# all true, as `x > 0` of them gives, takes paths of Where a mixed one may not)
_SIGNS = (0, 1, -1)


def _inputs(parsed: list, sizes: dict, seed: int, sign: int = 0) -> list:
    """Seeded inputs at these sizes: normals (their absolute values times `sign` where that
    is not 0), integers 0 or 1 (within any dimension they index; all 1 for sign 1, all 0
    for sign -1), booleans (all true for sign 1, all false for -1)."""
    rng = np.random.default_rng(seed)
    out = []
    for element, dims in parsed:
        shape = [sizes[d] if isinstance(d, str) else d for d in dims]
        dtype = np.dtype(to_numpy_dtype(element))
        if dtype == np.bool_ or np.issubdtype(dtype, np.integer):
            bits = rng.random(shape) < 0.5 if sign == 0 else np.full(shape, sign > 0)
            out.append(bits.astype(dtype))
        elif np.issubdtype(dtype, np.complexfloating):
            out.append((rng.standard_normal(shape) + 1j * rng.standard_normal(shape))
                       .astype(dtype))
        else:
            normals = rng.standard_normal(shape)
            out.append((normals if sign == 0 else sign * np.abs(normals)).astype(dtype))
    return out


def _flat(result) -> list:
    return [np.asarray(r) for r in (result if isinstance(result, tuple) else (result,))]


def _differ(got: list, want: list) -> str | None:
    """What differs between two lists of outputs, or None."""
    if len(got) != len(want):
        return f"{len(want)} outputs, not {len(got)}"
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        if g.shape != w.shape:
            return f"output {k} has shape {list(w.shape)}, not {list(g.shape)}"
        a, b = g.astype(np.float64) if g.dtype.kind != "c" else g, \
            w.astype(np.float64) if w.dtype.kind != "c" else w
        if not np.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True):
            return f"output {k} differs by up to {np.nanmax(np.abs(a - b)):.3g}"
    return None
