"""One function's HLO text lowered at several static sizes, compared number by number
(from_tf's method: TensorFlow lowers only at static shapes).

A number that moves with a size `n` between the lowering at the bound B and one at a smaller
size must be one of:
- a dimension of a shape, equal to the size or computed from it (it becomes `<=B`; dynamic
  dimension inference derives the actual size from the data flow);
- the limit of a slice `[s:m]` of a `<=B` dimension of m rows (XLA's dynamic slice rule
  gives it the size the lowering at n wrote);
- the limit of a slice `[0:n]` of a dimension of at least n rows that is not n + c (the
  normals tf.random.stateless_normal draws in pairs, 2 ceil(n / 2) of them): the slice reads
  the first n rows, n the argument's size at run time (frontends.tf.rewrites.size_rows);
- the window and padding of a reduce-window along a dimension of size n, when the window is
  n and the padding n-1 or n on one side (a cumulative sum: `_cumulative_window`);
- the slice size of a gather that is the whole of an operand dimension that follows the size
  (`_whole_gather_slices`);
- a scalar `s32[] constant(n + c)` (a mean's divisor, a sort's count, a loop's trip count
  or its last index n - 1), or one of another integer or real type (`f32[] constant(n)`:
  the size cast to a float): from_tf reads it from the size at run time (tf/sizes.py);
- the limit of a slice `[s:m-k]` (`x[:-1]`) of a dimension m that follows the size, stride
  1: the slice keeps the limit it has at the bound and its result is cut to m-k-s at run
  time (`cut_slices`: XLA's slice of a dynamic dimension that stops short of its bound keeps
  the operand's size);
- the start (and limit) of a slice `[m-k:m-j]`, k >= j >= 0 (`x[-1]`, `x[-2:]`, a mirror
  pad's `[m-3:m-1]`, `[m:m]`), stride 1: it becomes a dynamic-slice of k-j rows from m-k,
  of the operand cut to m-j rows where j > 0 (`cut_slices`);
- the window of a dynamic-slice that is the whole of an operand dimension that follows the
  size (XLA's rule keeps the operand's size), or, in the entry computation, the size itself
  (n rows of a larger dimension: tf.roll's; frontends.tf.rewrites.size_windows reads it at run
  time);
Anything else that moves (a pad amount, `0.015625` = 1/64, a window size) means the size is
baked into the program and is refused, quoting its line: running it at another size would
be silently wrong. So does a word that moves (`true` -> `false`: a folded `n > 5`; `0.25` ->
`inf`); instruction and computation names may differ, one for one.
"""

from __future__ import annotations

import difflib
import re

from ..errors import UnsupportedError
from ..hlo.types import ELEMENT_TYPES
from ..shapes.slice_windows import STRICT

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
                  size: int) -> tuple[set[int], dict[int, int], dict[int, tuple[str, int]]]:
    """(dimensions, size constants -> c where they are the size + c, slice bounds that follow
    the size -> ("limit", k) for a limit k < 0 short of it, ("start", k) for a start k < 0
    before a limit at it, ("rows", 0) for a limit that is the size itself, of more rows,
    ("window", 0) for a dynamic-slice window that is the size): token
    indices of `base` (lowered at the bound) that move to `other` (lowered with `name` at
    `size`) as the module doc allows; an UnsupportedError quoting the line where anything
    else moves (its `token`: the index of the token that moved, at_token)."""
    a, b = tokens(base), tokens(other)
    if len(a) != len(b):
        raise UnsupportedError(f"the program's structure changes with '{name}' ({bound} -> "
                               f"{size}): TensorFlow lowers it differently per size"
                               f"{_random_op(base, _first_changed_line(base, other))}")
    entry = entry_span(base)
    dims, constants, names, cuts = set(), {}, _Names(), {}
    for i, ((ta, pos), (tb, _)) in enumerate(zip(a, b, strict=True)):
        same = names.same(ta, tb)
        if same is None:
            raise at_token(UnsupportedError(
                f"the program's structure changes with '{name}' ({bound} -> {size}): '{ta}' "
                f"stands for two instructions, in: {line_at(base, pos)[:300]}"), i)
        if same or _eigh_sweeps(a, i, tb, line_at(base, pos)):
            continue
        if _is_number(ta) and _is_number(tb) and _in_shape(a, i) and int(ta) > int(tb):
            dims.add(i)
            continue
        if _is_number(ta) and _is_number(tb) and is_slice_limit(a, i):
            cut = sliced_dim(a, i)
            if cut is not None and (a[cut][0], b[cut][0]) == (ta, tb):
                continue  # to the end of a dimension that moves (n + c rows, or ceil(n / 2)
                # rows of pairs: tf.random.stateless_normal's), read whole at every size
            if cuts.get(i - 2, ("",))[0] == "start":
                continue  # the end of a window of the last rows: its start says how it moves
        if ta.isdigit() and tb.isdigit() and int(ta) - bound == int(tb) - size and \
                _is_scalar_size_constant(a, i):
            constants[i] = int(ta) - bound   # n + c, in any computation (a loop's condition)
            continue
        shift = _short_limit(a, b, i, bound, size)
        if shift is not None:
            cuts[i] = ("limit", shift)
            continue
        shift = _tail_start(a, b, i, bound, size)
        if shift is not None:
            cuts[i] = ("start", shift)
            continue
        if _size_rows(a, b, i, bound, size) and entry[0] <= pos < entry[1]:
            cuts[i] = ("rows", 0)   # the first n rows of more: sized from an argument
            continue
        if _cumulative_window(line_at(base, pos), line_at(other, b[i][1]), bound, size):
            continue
        if _in_slice_sizes(a, i) is not None and _whole_gather_slices(
                line_at(base, pos), line_at(other, b[i][1]), bound, size):
            continue
        window = _dynamic_slice_window(a, i, line_at(base, pos), line_at(other, b[i][1]),
                                       bound, size)
        if window == "size" and entry[0] <= pos < entry[1]:   # sized from an argument
            cuts[i] = ("window", 0)
            continue
        if window == "whole":
            continue
        raise at_token(baked(name, ta, tb, bound, size, line_at(base, pos)), i)
    return dims, constants, cuts


def at_token(exc: UnsupportedError, i: int) -> UnsupportedError:
    """`exc` with `token` = i, the index of the token it is about (tokens(base)), so that a
    caller whose texts are the user's own (dynhlo bound's dumps) can name its line and
    column."""
    exc.token = i
    return exc


_WINDOW_FIELDS = re.compile(r"\bwindow=\{(?P<fields>[^}]*)\}")


def full_windows(text: str) -> str:
    """`text` with every `window={size=...}` that has no `pad=` given XLA's default one
    (`pad=0_0x0_0`): XLA's printer leaves out a padding of zeros, so a cumulative window
    padded by n - 1 rows reads `pad=7_0` at 8 rows and nothing at 1, and the texts would
    differ in their tokens, not only in the numbers that move."""
    def full(m):
        fields = m["fields"].split()
        size = next((f[5:] for f in fields if f.startswith("size=")), None)
        if size is None or any(f.startswith("pad=") for f in fields):
            return m.group(0)
        pad = "x".join("0_0" for _ in size.split("x"))
        return f"window={{{m['fields']} pad={pad}}}"
    return _WINDOW_FIELDS.sub(full, text)


def _first_changed_line(base: str, other: str) -> str:
    """The first line of `base` (or of `other`, where it has one more) that the other text
    has no counterpart of, numbers aside (first_changed)."""
    changed = first_changed(base, other)
    if changed is None:
        return "?"
    in_base, number = changed
    return (base if in_base else other).split("\n")[number].strip()


def first_changed(base: str, other: str) -> tuple[bool, int] | None:
    """(True, its number) for the first line of `base`, or (False, its number) where `other`
    has a line more, that the other text has no counterpart of, numbers aside (difflib over
    the lines with their numbers blanked: instruction counters and dimensions differ on
    every line); None where none."""
    a, b = ([_DIGITS.sub("#", line) for line in text.split("\n")] for text in (base, other))
    for tag, i1, _, j1, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            return (True, i1) if tag != "insert" else (False, j1)
    return None


_DIGITS = re.compile(r"\d+")
_OP_OF_LINE = re.compile(r"^(?:ROOT\s+)?%?([A-Za-z][\w\-]*)\.\d+(?:\.dynhlo_\w+)?\s*=")


def _random_op(base: str, line: str) -> str:
    """`, first in: <line>`, and where that line is of a TensorFlow op (the name before the
    instruction counter) that draws random numbers in `base`, that it does: the numbers
    drawn at each shape differ (TensorFlow draws them at the actual size)."""
    m = _OP_OF_LINE.match(line)
    drawn = m is not None and re.search(rf"^\s*%?{re.escape(m.group(1))}\.\d+\s*=[^\n]*? "
                                        r"rng(?:-bit-generator)?\(", base, re.M)
    return f", first in: {line[:300]}" + (
        f" (TensorFlow's op '{m.group(1)}' draws random numbers of a shape that follows the "
        "size: they differ at each shape, so no one program gives them at every size)"
        if drawn else "")


_WINDOW = re.compile(r"\breduce-window\((?P<type>[a-z][a-z0-9]*)\[(?P<dims>[^\]]*)\].*?"
                     r"\bwindow=\{(?P<window>[^}]*)\}")


def _cumulative_window(line_a: str, line_b: str, bound: int, size: int) -> bool:
    """True when the lines are one reduce-window whose window moves with the size only
    along dimensions of a size m that follows it (n, or n + c: a padded or sliced input),
    each with a window of m and padding m-1 or m on one side (TensorFlow's cumsum, cumprod,
    cumulative_logsumexp: inclusive or exclusive, forward or reverse). At the bound B the
    same window reads B + c and B + c - 1 (or B + c); at any n <= B it then covers what n
    did, for XLA pads the region past the actual size with the init value (the dynamic
    padder's rule, which dynhlo's reduce-window follows on both backends)."""
    ma, mb = _WINDOW.search(line_a), _WINDOW.search(line_b)
    if ma is None or mb is None:
        return False
    wa, wb = _window_fields(ma["window"]), _window_fields(mb["window"])
    da, db = ma["dims"].split(","), mb["dims"].split(",")
    if wa is None or wb is None or set(wa) != set(wb) or len(da) != len(db):
        return False
    moving = False
    for d in range(len(da)):
        field = {k: (v[d] if d < len(v) else None, wb[k][d] if d < len(wb[k]) else None)
                 for k, v in wa.items()}
        if all(x == y for x, y in field.values()):
            continue
        (sa, sb), (pa, pb) = field.get("size", (None, None)), field.get("pad", ("0_0", "0_0"))
        lo_a, hi_a = (int(p) for p in pa.split("_"))
        lo_b, hi_b = (int(p) for p in pb.split("_"))
        others_fixed = all(x == y in (None, "1") for k, (x, y) in field.items()
                           if k not in ("size", "pad"))
        one_side = min(lo_a, hi_a) == 0 == min(lo_b, hi_b)
        dim_a, dim_b = da[d].strip(), db[d].strip()
        if not (others_fixed and one_side and dim_a.isdigit() and dim_b.isdigit()
                and (dim_a, dim_b) == (sa, sb) and int(dim_a) - bound == int(dim_b) - size
                and (lo_a + hi_a - int(dim_a), lo_a == 0) == (lo_b + hi_b - int(dim_b),
                                                            lo_b == 0)
                and lo_a + hi_a - int(dim_a) in (-1, 0)):
            return False
        moving = True
    return moving


_GATHER = re.compile(r"\bgather\((?P<type>[a-z][a-z0-9]*)\[(?P<dims>[^\]]*)\].*?"
                     r"\bslice_sizes=\{(?P<sizes>[^}]*)\}")


def _in_slice_sizes(toks, i: int, attribute: str = "slice_sizes") -> int | None:
    """The entry number of token i in an `attribute={...}` list (gather's slice_sizes),
    else None."""
    j = i
    while j > 0 and toks[j][0] not in ("{", "}", "(", ")", "="):
        j -= 1
    if j >= 2 and toks[j][0] == "{" and toks[j - 1][0] == "=" and toks[j - 2][0] == attribute:
        return sum(t == "," for t, _ in toks[j:i])
    return None


_DYNAMIC_SLICE = re.compile(r"\bdynamic-slice\([a-z][a-z0-9]*\[(?P<dims>[^\]]*)\].*?"
                            r"\bdynamic_slice_sizes=\{(?P<sizes>[^}]*)\}")


def _dynamic_slice_window(toks, i: int, line_a: str, line_b: str, bound: int,
                          size: int) -> str | None:
    """How the dynamic-slice window size at token i moves with the size: "whole" where it
    is the whole of an operand dimension that follows the size (the result keeps the
    operand's size: XLA's rule), "size" where it is the size itself, n rows of a larger
    dimension (tf.roll's n rows of the doubled input), else None."""
    entry = _in_slice_sizes(toks, i, "dynamic_slice_sizes")
    ma, mb = _DYNAMIC_SLICE.search(line_a), _DYNAMIC_SLICE.search(line_b)
    if entry is None or ma is None or mb is None:
        return None
    da, db = ma["dims"].split(","), mb["dims"].split(",")
    sa, sb = ma["sizes"].split(","), mb["sizes"].split(",")
    if not entry < len(da) == len(db) == len(sa) == len(sb):
        return None
    (dim_a, dim_b), (size_a, size_b) = ((x[entry].strip().lstrip("<=") for x in pair)
                                        for pair in ((da, db), (sa, sb)))
    if not all(v.isdigit() for v in (dim_a, dim_b, size_a, size_b)):
        return None
    if (dim_a, dim_b) == (size_a, size_b) and int(dim_a) - bound == int(dim_b) - size:
        return "whole"
    return "size" if (size_a, size_b) == (str(bound), str(size)) else None


def _whole_gather_slices(line_a: str, line_b: str, bound: int, size: int) -> bool:
    """True when the lines are one gather whose slice sizes move only where they are the
    whole of an operand dimension that follows the size (`tf.gather(x, cols, axis=1)`
    takes every row): at the bound the slice is the whole dimension too, and the gather
    keeps the operand's size there (XLA's dynamic dimension rule for gather)."""
    ma, mb = _GATHER.search(line_a), _GATHER.search(line_b)
    if ma is None or mb is None:
        return False
    da, db = ma["dims"].split(","), mb["dims"].split(",")
    sa, sb = ma["sizes"].split(","), mb["sizes"].split(",")
    if not len(da) == len(db) == len(sa) == len(sb):
        return False
    moving = False
    for dim_a, dim_b, slice_a, slice_b in zip(da, db, sa, sb, strict=True):
        if slice_a.strip() == slice_b.strip():
            continue
        if not (dim_a.strip() == slice_a.strip() and dim_b.strip() == slice_b.strip()
                and dim_a.strip().isdigit() and dim_b.strip().isdigit()
                and int(dim_a) - bound == int(dim_b) - size):
            return False
        moving = True
    return moving


def _window_fields(window: str) -> dict[str, list[str]] | None:
    """`size=8x1 pad=7_0x0_0` -> {"size": ["8", "1"], "pad": ["7_0", "0_0"]}."""
    fields = {}
    for part in window.split():
        key, eq, value = part.partition("=")
        if not eq:
            return None
        fields[key] = value.split("x")
    return fields


def _short_limit(a, b, i: int, bound: int, size: int) -> int | None:
    """k < 0 when token i is the limit of a stride-1 slice entry that reads `[s:m+k]` of a
    dimension m that follows the size (`n + j` in both lowerings: `x[:-1]`, or a slice of
    such a slice), else None."""
    ta, tb = a[i][0], b[i][0]
    if not (_is_number(ta) and _is_number(tb) and is_slice_limit(a, i)):
        return None
    cut = sliced_dim(a, i)
    if cut is None or not _stride_one(a, i):
        return None
    dim_a, dim_b = int(a[cut][0]), int(b[cut][0])
    shift = int(ta) - dim_a
    if dim_a - bound != dim_b - size or int(tb) - dim_b != shift or shift >= 0:
        return None
    return shift


def _size_rows(a, b, i: int, bound: int, size: int) -> bool:
    """True when token i is the limit of a stride-1 slice entry `[0:n]` that reads the first
    n rows (n the size, in both lowerings) of a dimension of at least n rows that is not n
    + c (2 ceil(n / 2): the normals tf.random.stateless_normal draws in pairs)."""
    if not (is_slice_limit(a, i) and _stride_one(a, i) and a[i - 2][0] == b[i - 2][0] == "0"
            and (int(a[i][0]), int(b[i][0])) == (bound, size)):
        return False
    cut = sliced_dim(a, i)
    return cut is not None and _is_number(b[cut][0]) and int(a[cut][0]) >= bound and \
        int(b[cut][0]) >= size


def _tail_start(a, b, i: int, bound: int, size: int) -> int | None:
    """k <= 0 when token i is the start of a stride-1 slice entry `[m+k:m+j]`, k <= j <= 0,
    of a dimension m that follows the size, k and j the same in both lowerings (`x[-1]`,
    `x[-2:]`: the last -k rows; `[m-3:m-1]`: a reflecting pad's rows; `[m:m]`: none), else
    None."""
    if not (i >= 1 and a[i - 1][0] == "[" and [t for t, _ in a[i + 1:i + 2]] == [":"]
            and _is_number(a[i][0]) and _is_number(b[i][0]) and is_slice_limit(a, i + 2)):
        return None
    limit = i + 2
    cut = sliced_dim(a, limit)
    if cut is None or not _stride_one(a, limit) or not _is_number(b[limit][0]):
        return None
    dim_a, dim_b = int(a[cut][0]), int(b[cut][0])
    shift, end = int(a[i][0]) - dim_a, int(a[limit][0]) - dim_a
    if dim_a - bound != dim_b - size or int(b[limit][0]) - dim_b != end \
            or int(b[i][0]) - dim_b != shift or not shift <= end <= 0:
        return None
    return shift


def _stride_one(toks, limit: int) -> bool:
    """True when the slice entry whose limit is token `limit` has stride 1 (`[s:l]` or
    `[s:l:1]`)."""
    after = [t for t, _ in toks[limit + 1:limit + 4]]
    return after[:1] == ["]"] or after == [":", "1", "]"]


SLICE_LINE = re.compile(r"^(?P<indent>\s*)(?P<root>ROOT\s+)?(?P<name>%?[\w.\-]+)\s*=\s*"
                        r"(?P<shape>\S+)\s+slice\((?P<typed>\S+\s+)?(?P<operand>%?[\w.\-]+)\)")


def cut_slices(text: str, base: str, cuts: dict[int, tuple[str, int]]) -> str:
    """`text` (`base` marked: the same lines) with each slice of `cuts` (token of `base` ->
    ("limit", k) or ("start", k), moving_tokens' third result) made to follow the size m of
    its operand's dimension, read at run time:
    - a limit at m + k: the slice is followed by a set-dimension-size to max(m + k - start, 0)
      (its result then has the size the lowering at n wrote); the slice is renamed
      `<name>.dynhlo_uncut` and the cut takes its name (and ROOT);
    - a start at m + k before a limit at m + j (k <= j <= 0): the operand is cut to m + j
      rows (a set-dimension-size, where j < 0) and the slice becomes a dynamic-slice of its
      last j - k rows (its static result is the lowering's). Below -k rows the dynamic-slice
      reads past the size and below -j the cut is negative: a DynamicSizeError at run time
      either way (TensorFlow refuses a reflecting pad that long), never rows of another
      place."""
    toks = tokens(base)
    per_line: dict[int, list[tuple[int, str, int, int, int]]] = {}
    for i, (kind, shift) in cuts.items():
        entry = sum(1 for t, _ in toks[_entry_open(toks, i):i] if t == "[") - 1
        start = int(toks[i - 2][0]) if kind == "limit" else 0
        end = shift if kind == "limit" else \
            int(toks[i + 2][0]) - int(toks[sliced_dim(toks, i + 2)][0])
        per_line.setdefault(base.count("\n", 0, toks[i][1]), []).append(
            (entry, kind, start, shift, end))
    lines = text.split("\n")
    for number, entries in sorted(per_line.items(), reverse=True):
        m = SLICE_LINE.match(lines[number])
        kinds = {entry[1] for entry in entries}
        if m is None or len(kinds) > 1:
            raise UnsupportedError(f"a slice that follows a size is not written as expected: "
                                   f"{lines[number].strip()[:300]}")
        rewrite = _cut_limits if kinds == {"limit"} else dynamic_starts
        lines[number:number + 1] = rewrite(lines[number], m, sorted(entries))
    return "\n".join(lines)


def _cut_limits(line: str, m, entries: list) -> list[str]:
    ind, name, shape = m["indent"], m["name"], m["shape"]
    operand = f"{m['typed'] or ''}{m['operand']}"
    uncut = f"{name}.dynhlo_uncut"
    new = [ind + line[m.end("root") if m["root"] else len(ind):].replace(name, uncut, 1)]
    value = uncut
    for k, (dim, _, start, shift, _) in enumerate(entries):
        at = f"{name}.dynhlo_cut{k}"
        new += _minus_size(ind, at, operand, dim, start - shift, f"{at}.less")
        new += [f"{ind}{at}.zero = s32[] constant(0)",
                f"{ind}{at}.kept = s32[] maximum(s32[] {at}.less, s32[] {at}.zero)"]
        last = k == len(entries) - 1
        target = name if last else f"{at}.value"
        root = (m["root"] or "") if last else ""
        new.append(f"{ind}{root}{target} = {shape} set-dimension-size({shape} {value}, "
                   f"s32[] {at}.kept), dimensions={{{dim}}}")
        value = target
    return new


_SLICE_ENTRIES = re.compile(r"\bslice=\{([^}]*)\}")


def dynamic_starts(line: str, m, entries: list) -> list[str]:
    """The lines that replace slice `line` (`m`: its SLICE_LINE match) by a dynamic-slice of
    the same widths: from m + k of the operand (cut to m + j rows where j < 0) along the
    dimensions of `entries` (cut_slices' (dim, "start", 0, k, j)), from the slice's own
    start along the others. With no entries, the same rows from constant starts: a read
    past a dimension's actual size is then a DynamicSizeError (XLA's slice would keep fewer
    rows)."""
    ind, name, shape = m["indent"], m["name"], m["shape"]
    operand = f"{m['typed'] or ''}{m['operand']}"
    spans = [e.strip().strip("[]").split(":") for e in
             _SLICE_ENTRIES.search(line).group(1).split(",")]
    if any(len(span) == 3 and span[2] != "1" for span in spans):
        raise UnsupportedError(f"a strided slice of a size's last rows is not supported: "
                               f"{line.strip()[:300]}")
    ends = {dim: end for dim, _, _, _, end in entries}
    new, starts, sizes, value = [], [], [], operand
    for dim, end in sorted(ends.items()):   # cut to m + j rows where the window ends short
        if end < 0:
            if not m["typed"]:
                raise UnsupportedError(f"a slice of a size's last rows needs its operand's "
                                       f"type written: {line.strip()[:300]}")
            at = f"{name}.dynhlo_end{dim}"
            new += _minus_size(ind, at, value, dim, -end, f"{at}.rows")
            new.append(f"{ind}{at} = {m['typed'].strip()} set-dimension-size({value}, "
                       f"s32[] {at}.rows), dimensions={{{dim}}}")
            value = f"{m['typed'].strip()} {at}"
    for dim, span in enumerate(spans):
        at = f"{name}.dynhlo_start{dim}"
        starts.append(f"s32[] {at}")
        width = int(span[1]) - int(span[0])
        if dim in ends:   # the last `width` rows of the (cut) operand
            new += _minus_size(ind, at, value, dim, width, at)
        else:
            new.append(f"{ind}{at} = s32[] constant({span[0]})")
        sizes.append(str(width))
    # strict whatever padding_reads says: TensorFlow keeps fewer rows (or refuses) there
    new.append(f"{ind}{m['root'] or ''}{name} = {shape} dynamic-slice({value}, "
               f"{', '.join(starts)}), dynamic_slice_sizes={{{','.join(sizes)}}}, "
               f"frontend_attributes={{{STRICT}}}")
    return new


def _minus_size(ind: str, at: str, value: str, dim: int, k: int, result: str) -> list[str]:
    """Lines that compute `result = s32[] (dimension dim of value's size) - k`."""
    return [f"{ind}{at}.size = s32[] get-dimension-size({value}), dimensions={{{dim}}}",
            f"{ind}{at}.minus = s32[] constant({k})",
            f"{ind}{result} = s32[] subtract(s32[] {at}.size, s32[] {at}.minus)"]


def _entry_open(toks, i: int) -> int:
    """Index of the `{` that opens the slice={...} list holding token i."""
    j = i
    while toks[j][0] != "{":
        j -= 1
    return j


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


def mark_bounded(text: str, dims: set[int]) -> str:
    """`text` with the tokens at `dims` (dimensions) written `<=N` (one that reads `<=N`
    already stays as it is)."""
    toks = tokens(text)
    pieces, last = [], 0
    for i, (tok, pos) in enumerate(toks):
        if i in dims and text[max(pos - 2, 0):pos] == "<=":
            continue   # a bound tf2xla wrote (tf.where's rows), moving with the size
        if i in dims:
            pieces += [text[last:pos], "<=" + tok]
            last = pos + len(tok)
    return "".join(pieces) + text[last:]


def _is_number(tok: str) -> bool:
    return tok[0].isdigit()


def _in_shape(toks, i: int) -> bool:
    """True when token i is a dimension inside `type[...]`."""
    j = i - 1
    while j >= 0 and (toks[j][0] in (",", "<", "=") or _is_number(toks[j][0])):
        j -= 1
    return j >= 1 and toks[j][0] == "[" and toks[j - 1][0] in ELEMENT_TYPES


def is_slice_limit(toks, i: int) -> bool:
    """True when token i is the limit of a `slice={[start:limit(:stride)], ...}` entry."""
    if i < 3 or toks[i - 1][0] != ":" or toks[i - 3][0] != "[":
        return False
    j = i - 3
    while j > 0 and toks[j][0] != "{":
        j -= 1
    return j >= 2 and toks[j - 1][0] == "=" and toks[j - 2][0] == "slice"


def sliced_dim(tokens, i: int) -> int | None:
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


def _is_scalar_size_constant(toks, i: int) -> bool:
    """True when token i is N of `T[] constant(N)`, T an integer or real type (`s32[]`: a
    mean's divisor, a sort's count; `f32[]`: `tf.cast(tf.shape(x)[0], tf.float32)`)."""
    return i >= 5 and i + 1 < len(toks) and toks[i - 5][0] in _SIZE_TYPES and \
        [t for t, _ in toks[i - 4:i + 2]] == ["[", "]", "constant", "(", toks[i][0], ")"]


_SIZE_TYPES = frozenset(t for t in ELEMENT_TYPES if t[0] in "suf" or t == "bf16")


def entry_span(text: str) -> tuple[int, int]:
    """Offsets of the ENTRY computation's text (to its closing brace at column 0)."""
    start = text.find("\nENTRY ")
    if start < 0:
        return (0, 0)
    end = text.find("\n}", start)
    return start, len(text) if end < 0 else end


_PARAMETER = re.compile(r"^[^\S\n]*(%?[\w.\-]+)\s*=.*?\bparameter\((\d+)\)", re.M)


def entry_parameters(text: str) -> dict[int, str]:
    """Parameter number -> its instruction's name (with its `%`) in the ENTRY computation."""
    start, end = entry_span(text)
    return {int(m.group(2)): m.group(1) for m in _PARAMETER.finditer(text, start, end)}
