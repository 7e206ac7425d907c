"""The least sizes TensorFlow requires of an argument, checked before each call: a MirrorPad's
rows, and a folded range's start (range_requirements).

TensorFlow refuses a MirrorPad (tf.pad, mode REFLECT or SYMMETRIC) longer than the rows it
reflects: REFLECT needs each pad < n, SYMMETRIC <= n. tf2xla writes the pad as slices of
fixed rows ([1:3]) or of the last rows ([m-3:m-1]) of the padded dimension m (n + c), so the
least m is the most rows one of its slices reads. from_tf keeps the slices strict (a read
past the size is a DynamicSizeError at run time, rewrites.py), and states the least n
here, as a requirement on the argument dimension whose size n is: the executable checks it
from the argument shapes before running (as it checks jax.export's shape assertions,
runtime.arguments.check_assertions), and its ArgumentError names TensorFlow's op, the
argument, the size and the least size. The requirement itself (dynhlo.hlo.size_requirements)
is data: an AOT artifact stores it, and a loaded executable refuses the same way.

May assume: `base` is TensorFlow's text without metadata and `raw` the same text with it
(__init__.py), `dims` and `cuts` lowering_diff.moving_tokens' results over `base`.
"""

from __future__ import annotations

import re

from ...hlo.size_requirements import SizeRequirement
from ..lowering_diff import is_slice_limit, line_at, sliced_dim, tokens

_DEFINED = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=")
_MIRROR_PAD_OP = re.compile(r'^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*\S+\s+slice\(.*'
                            r'\bmetadata=\{[^\n]*\bop_type="MirrorPad"[^\n]*?'
                            r'\bop_name="((?:[^"\\]|\\.)*)"', re.M)


def mirror_pad_requirements(raw: str, base: str, dims: dict, cuts: dict, bounds: dict,
                            places: dict, arguments: list | None) -> list[SizeRequirement]:
    """One SizeRequirement per MirrorPad of `raw` and size name that its slices need rows of
    (see the module doc); `places` maps a size name to its first (parameter, dimension),
    `arguments` are the function's argument names (or None)."""
    ops = {m.group(1): m.group(2) for m in _MIRROR_PAD_OP.finditer(raw)}
    if not ops:
        return []
    toks = tokens(base)
    least: dict[tuple[str, str], int] = {}
    for i, (tok, pos) in enumerate(toks):
        defined = _DEFINED.match(line_at(base, pos)) if is_slice_limit(toks, i) else None
        cut = sliced_dim(toks, i) if defined and defined.group(1) in ops else None
        if cut is None or cut not in dims:
            continue
        name, rows = dims[cut], int(toks[cut][0])
        start, limit = int(toks[i - 2][0]), int(tok)
        if cuts.get(i - 2, ("",))[0] == "start":
            needed = rows - start           # the last rows, [m-k:m-j]: k of them
        elif cuts.get(i, ("",))[0] == "limit" or limit == rows:
            needed = start                  # up to the end, or k short of it
        else:
            needed = limit                  # fixed rows, [s:l]
        key = (ops[defined.group(1)], name)
        least[key] = max(least.get(key, 0), needed - (rows - bounds[name]))
    return [SizeRequirement("mirror_pad", op, places[name], name, n,
                            arguments[places[name][0]] if arguments else None)
            for (op, name), n in sorted(least.items()) if n > 0]


def range_requirements(lengths: list, places: dict,
                       arguments: list | None) -> list[SizeRequirement]:
    """One SizeRequirement per size name that a folded length max(0, ceil((n + c) / s)) with
    c < 0 follows (`lengths`: (instruction, size name, c), __init__.py): TensorFlow refuses the
    range below n = -c (Range: start <= limit when delta > 0; Fill: a size >= 0), where the
    folded program would give an empty one. The largest least size per name, naming the
    first instruction that needs it. (A shape of a stride s > 1, tf.ones((n - 2) // 2),
    TensorFlow still takes down to n + c > -s: the check refuses those few sizes too, as
    the program cannot tell a range from a shape.)"""
    least: dict[str, tuple[int, str]] = {}
    for inst, name, c in lengths:
        if c < 0 and -c > least.get(name, (0, ""))[0]:
            least[name] = (-c, inst)
    return [SizeRequirement("range_length", inst, places[name], name, n,
                            arguments[places[name][0]] if arguments else None)
            for name, (n, inst) in sorted(least.items())]
