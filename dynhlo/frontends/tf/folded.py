"""Constants TensorFlow folds from a size: tf.range(n) and what is computed from it alone
(`tf.cast(tf.range(n), tf.float32)`, `tf.range(n)[:, None] < tf.range(n)`) are known at
every static size, so TensorFlow's HLO holds them as literals of n values.

A literal that is, in the lowering at a smaller size m, the first m values of the bound's
literal along each dimension that shrank (a prefix: 0..m-1 of 0..B-1) is one literal whose
length follows the size: the text at m is given the bound's literal, so that lowering_diff
compares only its shape (which becomes `<=B`), and from_tf sizes it from the argument
dimension its shape follows (__init__.py). A literal whose values move otherwise (tf.range(n) /
n, a reversed range) stays different and is refused as a size baked in. Like every
comparison of from_tf's, the prefix is seen at two sizes below the bound only.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import DynHloError
from ...hlo.values import parse_literal_text

_CONSTANT = re.compile(r"^(?P<head>\s*(?:ROOT\s+)?%?(?P<name>[\w.\-]+)\s*=\s*)(?P<shape>\S+)\s+"
                       r"constant\((?P<literal>.*)\)(?P<rest>(?:,\s*[\w.]+=[^()]*)?)$")


def is_prefix(big: np.ndarray, small: np.ndarray) -> bool:
    """True when `small` is `big`'s first values along every dimension (same rank and dtype,
    no dimension longer), compared bit for bit (NaNs and -0.0 as they are)."""
    if big.dtype != small.dtype or big.ndim != small.ndim or \
            any(s > b for s, b in zip(small.shape, big.shape, strict=True)):
        return False
    head = big[tuple(slice(0, s) for s in small.shape)]
    return np.ascontiguousarray(head).tobytes() == np.ascontiguousarray(small).tobytes()


def align_prefix_literals(base: str, other: str, base_constants: list,
                          other_constants: list) -> tuple[str, list]:
    """(`other`, its elided constants) with each constant of `other` (a lowering at a smaller
    size, line for line `base`'s) whose literal is a prefix of `base`'s (is_prefix) given
    `base`'s literal text, or `{...}` where `base` elides it (XLA's printer elides long
    literals: the bound's, not always the smaller one's) and its values join the elided
    constants, in the order of the text (literal_proto.elided_constants). Other lines stay as
    they are (lowering_diff compares them, and refuses what differs)."""
    base_lines, other_lines = base.split("\n"), other.split("\n")
    if len(base_lines) != len(other_lines):
        return other, other_constants
    elided = {name: value for name, _, value in base_constants}
    given = iter(other_constants)
    lines, constants = [], []
    for a, b in zip(base_lines, other_lines, strict=True):
        ma, mb = (_CONSTANT.match(a), _CONSTANT.match(b)) if a != b else (None, None)
        small = _literal(mb) if ma and mb and ma["literal"] != mb["literal"] else None
        big = elided.get(ma["name"]) if small is not None and ma["literal"] == "{...}" \
            else _literal(ma) if small is not None else None
        if big is not None and big.shape != small.shape and is_prefix(big, small):
            b = f"{mb['head']}{mb['shape']} constant({ma['literal']}){mb['rest']}"
            if ma["literal"] == "{...}":
                constants.append((mb["name"], mb["shape"], small))
        elif _ELIDED.search(b):
            constants.append(next(given))
        lines.append(b)
    return "\n".join(lines), constants


_ELIDED = re.compile(r"\bconstant\(\{\.\.\.\}\)")


def _literal(m) -> np.ndarray | None:
    """The array of a constant line's literal; None for one this does not read (elided, a
    tuple)."""
    if m["literal"] == "{...}":
        return None
    try:
        value = parse_literal_text(f"{m['shape']} {m['literal']}")
    except DynHloError:
        return None   # compared as text
    return value if isinstance(value, np.ndarray) else None
