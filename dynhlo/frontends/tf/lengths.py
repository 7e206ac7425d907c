"""The length of a dimension that TensorFlow folded from a size n: tf.range(n + 1) is a
literal of n + 1 values, tf.range(0, n, 2) one of ceil(n / 2), tf.range(1, n) one of n - 1.
Nothing in the program computes such a length (the literal is the bound's, folded.py), so
from_tf computes it from the size at run time (__init__.py sets the dimension's size).

The lengths TensorFlow gives are those of a range, L(n) = max(0, ceil((n + c) / s)) for an
integer c and a stride s >= 1: every (s, c) that gives the lengths seen at the compared sizes
is a candidate. Where the candidates disagree at some size 0..B, the length is looked up at
the size that tells most of them apart (passing over a size TensorFlow does not lower as
the others; at most 6 lowerings more), and the candidates that miss it dropped. One
function of n left on 0..B is the length; none, or several after the look-ups, and the
dimension is refused as a size baked in.
"""

from __future__ import annotations

_LOOKUPS = 6   # sizes looked up at most, one at a time


def length(n: int, s: int, c: int) -> int:
    """max(0, ceil((n + c) / s))."""
    return max(0, -(-(n + c) // s))


def fit_length(seen: dict[int, int], bound: int, look_up) -> tuple[int, int] | None:
    """(s, c) of the one length function of n on 0..bound that gives the lengths `seen`
    (size -> length, the bound's among them) and those `look_up(size)` gives (a length, or
    None where it cannot tell: that size is passed over), else None."""
    seen, tried = dict(seen), set()
    while True:
        candidates = _candidates(seen, bound)
        if not candidates:
            return None
        spread = {n: len({length(n, s, c) for s, c in candidates}) for n in range(bound + 1)}
        if max(spread.values()) == 1:
            return min(candidates)   # one function on 0..bound: the smallest stride's form
        # the size that tells most candidates apart (the smallest of those)
        untried = sorted((n for n, k in spread.items() if k > 1 and n not in tried),
                         key=lambda n: (-spread[n], n))
        if not untried or len(tried) == _LOOKUPS:
            return None
        tried.add(untried[0])
        found = look_up(untried[0])
        if found is not None:
            seen[untried[0]] = found


def _candidates(seen: dict[int, int], bound: int) -> list[tuple[int, int]]:
    """Every (s, c), 1 <= s <= bound, that gives each length of `seen`; c is bounded by the
    bound's length L: ceil((B + c) / s) = L >= 1 puts B + c in ((L - 1) s, L s]."""
    top = seen[bound]
    if top < 1:
        return []
    out = []
    for s in range(1, bound + 1):
        for c in range((top - 1) * s - bound + 1, top * s - bound + 1):
            if all(length(n, s, c) == v for n, v in seen.items()):
                out.append((s, c))
    return out


def length_lines(ind: str, at: str, source: str, dim: int, s: int, c: int) -> list[str]:
    """Lines that compute `at` = s32[] max(0, ceil((n + c) / s)), n the size of dimension
    `dim` of `source`; (n + c + s - 1) / s truncates toward zero, which the max makes good
    where it is negative."""
    lines = [f"{ind}{at}.n = s32[] get-dimension-size({source}), dimensions={{{dim}}}"]
    value = f"{at}.n"
    if c + s - 1:
        lines += [f"{ind}{at}.c = s32[] constant({c + s - 1})",
                  f"{ind}{at}.plus = s32[] add(s32[] {value}, s32[] {at}.c)"]
        value = f"{at}.plus"
    if s > 1:
        lines += [f"{ind}{at}.s = s32[] constant({s})",
                  f"{ind}{at}.div = s32[] divide(s32[] {value}, s32[] {at}.s)"]
        value = f"{at}.div"
    if c < 0:
        lines += [f"{ind}{at}.zero = s32[] constant(0)",
                  f"{ind}{at}.max = s32[] maximum(s32[] {value}, s32[] {at}.zero)"]
        value = f"{at}.max"
    return lines + [f"{ind}{at} = s32[] copy(s32[] {value})"]
