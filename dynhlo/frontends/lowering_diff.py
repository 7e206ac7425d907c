"""One function's HLO text lowered at several static sizes, compared number by number
(from_tf's method: TensorFlow lowers only at static shapes).

A number that moves with a size `n` between the lowering at the bound B and one at a smaller
size must be one of:
- a dimension of a shape, equal to the size or computed from it (it becomes `<=B`; dynamic
  dimension inference derives the actual size from the data flow);
- the limit of a slice `[s:n]` of a `<=B` dimension (XLA's dynamic slice rule gives it the
  size the lowering at n wrote);
- a scalar `s32[] constant(n)` of the entry computation (a mean's divisor, a sort's count):
  it becomes `get-dimension-size` of the argument dimension named `n`, the size at run time.
Anything else that moves (a pad amount, `0.015625` = 1/64, a window size) means the size is
baked into the program and is refused, quoting its line: running it at another size would
be silently wrong. So does a word that moves (`true` -> `false`: a folded `n > 5`; `0.25` ->
`inf`); instruction and computation names may differ, one for one.
"""

from __future__ import annotations

import re

from ..errors import UnsupportedError
from ..hlo.types import ELEMENT_TYPES

# a string, a name or word, a number, or one character; `_` and `x` between digits are
# characters of their own, so that the numbers of a pad (`padding=0_1x0_0`) and a window
# (`size=3x3 pad=0_0x1_1`) are numbers, compared as the rest (as part of a word, a pad that
# moved with a size passed for a counter in a name)
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|(?<=\d)[_x](?=\d)|[A-Za-z_%][\w.\-]*'
                    r'|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\S')


def tokens(text: str) -> list[tuple[str, int]]:
    """(token, offset) pairs of an HLO text: names, numbers, quoted strings, punctuation."""
    return [(m.group(0), m.start()) for m in _TOKEN.finditer(text)]


def line_at(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return text[start:end if end >= 0 else len(text)].strip()


def moving_tokens(base: str, other: str, name: str, bound: int,
                  size: int) -> tuple[set[int], set[int]]:
    """(dimensions, size constants): token indices of `base` (lowered at the bound) that
    move to `other` (lowered with `name` at `size`) as the module doc allows; an
    UnsupportedError quoting the line where anything else moves."""
    a, b = tokens(base), tokens(other)
    if len(a) != len(b):
        raise UnsupportedError(f"the program's structure changes with '{name}' ({bound} -> "
                               f"{size}): TensorFlow lowers it differently per size")
    entry = _entry_span(base)
    dims, constants, names = set(), set(), _Names()
    for i, ((ta, pos), (tb, _)) in enumerate(zip(a, b)):
        same = names.same(ta, tb)
        if same is None:
            raise UnsupportedError(f"the program's structure changes with '{name}' ({bound} "
                                   f"-> {size}): '{ta}' stands for two instructions, in: "
                                   f"{line_at(base, pos)[:300]}")
        if same or _eigh_sweeps(a, i, tb, line_at(base, pos)):
            continue
        if _is_number(ta) and _is_number(tb) and _in_shape(a, i) and int(ta) > int(tb):
            dims.add(i)
            continue
        if ta == str(bound) and tb == str(size):
            if _is_slice_limit(a, i):
                cut = _sliced_dim(a, i)
                if cut is not None and (a[cut][0], b[cut][0]) == (ta, tb):
                    continue  # not where the dim cut is another's (y[:n] of y [m, ...]: it
                    # gave m rows)
            if _is_scalar_s32_constant(a, i) and entry[0] <= pos < entry[1]:
                constants.add(i)
                continue
        raise baked(name, ta, tb, bound, size, line_at(base, pos))
    return dims, constants


class _Names:
    """Checks that two lowerings' words agree. Instruction and computation names (`%add.12`)
    may differ, as long as each name of one stands for one name of the other (XLA's builder
    numbers and shares instructions differently per lowering); any other word is a value or
    an attribute, equal in both but for a counter in a name (`a_inference_fn_5__.1`): a
    `true` that becomes `false` (a folded `n > 5`) or a `0` that becomes `nan` is a size
    baked into the program."""

    def __init__(self):
        self.forward: dict[str, str] = {}
        self.backward: dict[str, str] = {}

    def same(self, a: str, b: str) -> bool | None:
        """True when the words agree; False when they differ; None for a name of one lowering
        that stands for two different names of the other (the structure changed)."""
        if a[0] == "%" and b[0] == "%":
            if self.forward.setdefault(a, b) != b or self.backward.setdefault(b, a) != a:
                return None
            return True
        if a == b:
            return True
        words = not (_is_number(a) or _is_number(b) or a[0] == '"' or b[0] == '"')
        return (words and a not in ELEMENT_TYPES and _COUNTER.search(a) is not None
                and _COUNTER.sub("#", a) == _COUNTER.sub("#", b))


_COUNTER = re.compile(r"\d+")


def _eigh_sweeps(toks, i: int, tb: str, line: str) -> bool:
    """True when token i is an Eigh call's backend_config "lower,sort,max_iter,tol" that
    differs from `tb` in max_iter alone: tf2xla sets the Jacobi sweeps by the size, and
    dynhlo's Eigh (LAPACK's, converged fully) does not read them."""
    ta = toks[i][0]
    if not (ta[0] == '"' == tb[0] and toks[i - 2][0] == "backend_config"
            and 'custom_call_target="Eigh"' in line):
        return False
    pa, pb = ta.split(","), tb.split(",")
    return len(pa) == len(pb) == 4 and pa[:2] + pa[3:] == pb[:2] + pb[3:]


def baked(name: str, ta: str, tb: str, bound: int, size: int, line: str) -> UnsupportedError:
    return UnsupportedError(f"size '{name}' is baked into the program: '{ta}' becomes '{tb}' "
                            f"when '{name}' goes from {bound} to {size}, in: {line[:300]}")


def mark_bounded(text: str, dims: set[int], sizes: dict[int, tuple[int, int]] | None = None
                 ) -> str:
    """`text` with the tokens at `dims` (dimensions) written `<=N` (one that reads `<=N`
    already stays as it is) and each size constant
    (token index -> (parameter number, dimension)) read from that argument dimension."""
    sizes = sizes or {}
    toks = tokens(text)
    params = _entry_parameters(text) if sizes else {}
    pieces, last = [], 0
    for i, (tok, pos) in enumerate(toks):
        if i in dims and text[max(pos - 2, 0):pos] == "<=":
            continue   # a bound tf2xla wrote (tf.where's rows), moving with the size
        if i in dims:
            pieces += [text[last:pos], "<=" + tok]
            last = pos + len(tok)
        elif i in sizes:   # `constant ( N )` -> `get-dimension-size(%param), dimensions={d}`
            p, d = sizes[i]
            pieces += [text[last:toks[i - 2][1]],
                       f"get-dimension-size({params[p]}), dimensions={{{d}}}"]
            last = toks[i + 1][1] + 1
    return "".join(pieces) + text[last:]


def _is_number(tok: str) -> bool:
    return tok[0].isdigit()


def _in_shape(toks, i: int) -> bool:
    """True when token i is a dimension inside `type[...]`."""
    j = i - 1
    while j >= 0 and (toks[j][0] in (",", "<", "=") or _is_number(toks[j][0])):
        j -= 1
    return j >= 1 and toks[j][0] == "[" and toks[j - 1][0] in ELEMENT_TYPES


def _is_slice_limit(toks, i: int) -> bool:
    """True when token i is the limit of a `slice={[start:limit(:stride)], ...}` entry."""
    if i < 3 or toks[i - 1][0] != ":" or toks[i - 3][0] != "[":
        return False
    j = i - 3
    while j > 0 and toks[j][0] != "{":
        j -= 1
    return j >= 2 and toks[j - 1][0] == "=" and toks[j - 2][0] == "slice"


def _sliced_dim(tokens, i: int) -> int | None:
    """Token index of the operand dimension that the slice entry holding token i cuts
    (`slice(f32[8,5]{1,0} %x), slice={[0:8], [0:5]}`: the k-th entry, the k-th dim)."""
    j, entry = i, -1
    while tokens[j][0] != "{":
        entry += tokens[j][0] == "["
        j -= 1
    while j > 0 and not (tokens[j][0] == "slice" and tokens[j + 1][0] == "("):
        j -= 1
    k, seen = j + 4, 0   # past `slice ( f32 [`
    while j > 0 and k < i and tokens[k][0] != "]":
        if _is_number(tokens[k][0]):
            if seen == entry:
                return k
            seen += 1
        k += 1
    return None


def _is_scalar_s32_constant(toks, i: int) -> bool:
    """True when token i is N of `s32[] constant(N)`."""
    return i >= 5 and i + 1 < len(toks) and \
        [t for t, _ in toks[i - 5:i + 2]] == ["s32", "[", "]", "constant", "(", toks[i][0], ")"]


def _entry_span(text: str) -> tuple[int, int]:
    """Offsets of the ENTRY computation's text (to its closing brace at column 0)."""
    start = text.find("\nENTRY ")
    if start < 0:
        return (0, 0)
    end = text.find("\n}", start)
    return start, len(text) if end < 0 else end


_PARAMETER = re.compile(r"^[^\S\n]*(%?[\w.\-]+)\s*=.*?\bparameter\((\d+)\)", re.M)


def _entry_parameters(text: str) -> dict[int, str]:
    """Parameter number -> its instruction's name (with its `%`) in the ENTRY computation."""
    start, end = _entry_span(text)
    return {int(m.group(2)): m.group(1) for m in _PARAMETER.finditer(text, start, end)}
