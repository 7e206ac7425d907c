"""Rewrites of TensorFlow's HLO that from_tf makes once the lowerings are compared (__init__.py),
where XLA's dynamic rules alone would not give TensorFlow's answer at every size:

- a dynamic-slice whose window is the size n itself, n rows of a larger dimension
  (tf.roll concatenates x with itself and takes n rows from n - shift): at the bound it
  reads B rows, past the 2n valid rows of a smaller input (XLA's answer would be padding).
  The operand is extended to its bound (set-dimension-size: the rows past 2n read as
  zero), B rows are read from the start clamped as TensorFlow's lowering at n clamps it,
  to [0, rows - n], and the result is cut to n rows;
- the slices of a MirrorPad (tf.pad REFLECT or SYMMETRIC) that read fixed rows of a
  dimension that follows the size (the first k of the reversed input): XLA's slice of a
  dynamic dimension keeps what rows exist (min(k, n - start)), but TensorFlow refuses a pad
  longer than the rows it reflects. Such a slice becomes a dynamic-slice of the same rows,
  whose read past the size is a DynamicSizeError at run time;
- a slice `[0:n]` of the first n rows of a dimension of more rows that is not n + c
  (the 2 ceil(n / 2) normals tf.random.stateless_normal draws in pairs): XLA's slice of a
  dynamic dimension would keep all of them. Its operand's dimension is set to n, read
  from the argument (set-dimension-size: n is at most its rows in TensorFlow's program at
  n), and the slice keeps the bound's limit.
May assume: `text` is `base` marked and cut (lowering_diff.py): the same instructions, with
`<=` bounds, named as in `base`.
"""

from __future__ import annotations

import re

from ...errors import UnsupportedError
from ...hlo.values import parse_shape
from ..lowering_diff import (SLICE_LINE, baked, dynamic_starts, entry_parameters, line_at,
                             sliced_dim, tokens)

_DEFINED = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=")
_DYNAMIC_SLICE_LINE = re.compile(
    r"^(?P<indent>\s*)(?P<root>ROOT\s+)?(?P<name>%?[\w.\-]+)\s*=\s*(?P<shape>\S+)\s+"
    r"dynamic-slice\((?P<args>[^)]*)\),\s*dynamic_slice_sizes=\{(?P<sizes>[^}]*)\}")
# one operand of an instruction: an optional type (`f32[<=8,3]{1,0}`, `s32[]`), then a name
_OPERAND = re.compile(r"(?:[a-z][a-z0-9]*\[[^\]]*\](?:\{[^}]*\})?\s+)?%?[\w.\-]+")
_MIRROR_PAD_SLICE = re.compile(r'^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*\S+\s+slice\(.*'
                               r'\bmetadata=\{[^\n]*\bop_type="MirrorPad"', re.M)


def size_windows(text: str, base: str, windows: dict[int, tuple[int, int]]) -> str:
    """`text` with each dynamic-slice of `windows` (token of `base` in its
    dynamic_slice_sizes -> the argument dimension (parameter, dimension) whose size the
    window is) rewritten as the module doc says."""
    toks = tokens(base)
    per_inst: dict[str, dict[int, tuple[int, int]]] = {}
    for i, where in windows.items():
        line, pos = line_at(base, toks[i][1]), toks[i][1]
        defined = _DEFINED.match(line)
        if defined is None:
            raise UnsupportedError(f"a dynamic-slice whose window is a size is not written as "
                                   f"expected: {line[:300]}")
        entry = base[base.rindex("dynamic_slice_sizes={", 0, pos):pos].count(",")
        per_inst.setdefault(defined.group(1), {})[entry] = where
    params = entry_parameters(text)
    lines = text.split("\n")
    for name, dims in per_inst.items():
        number = next((k for k, line in enumerate(lines) if (m := _DYNAMIC_SLICE_LINE.match(
            line)) and m["name"].lstrip("%") == name), None)
        if number is None:
            raise UnsupportedError(f"the dynamic-slice '{name}' whose window is a size is not "
                                   "written as expected")
        lines[number:number + 1] = _window(_DYNAMIC_SLICE_LINE.match(lines[number]), dims,
                                           params)
    return "\n".join(lines)


def _window(m, dims: dict[int, tuple[int, int]], params: dict[int, str]) -> list[str]:
    """The lines that replace dynamic-slice `m` (a _DYNAMIC_SLICE_LINE match) whose windows
    along `dims` (dimension -> the argument dimension whose size it is) are the size."""
    ind, name = m["indent"], m["name"]
    operand, *starts = _OPERAND.findall(m["args"])
    typed = operand.rsplit(None, 1)
    if len(typed) != 2 or len(starts) != len(m["sizes"].split(",")):
        raise UnsupportedError(f"a dynamic-slice whose window is a size needs its operand's "
                               f"type and one start per dimension: {m.group(0)[:300]}")
    bounds = parse_shape(typed[0]).dims
    new, value = [], operand
    for d, (p, pd) in sorted(dims.items()):
        at = f"{name}.dynhlo_window{d}"
        new += _clamped_start(ind, at, operand, d, starts[d], (params[p], pd))
        new += [f"{ind}{at}.bound = s32[] constant({bounds[d]})",
                f"{ind}{at}.full = {typed[0]} set-dimension-size({value}, s32[] {at}.bound), "
                f"dimensions={{{d}}}"]
        value, starts[d] = f"{typed[0]} {at}.full", f"s32[] {at}.start"
    shape = parse_shape(m["shape"])
    window = f"{name}.dynhlo_window"
    static = _dynamic_at(shape, lambda d: d not in dims)
    new.append(f"{ind}{window} = {static} dynamic-slice({value}, {', '.join(starts)}), "
               f"dynamic_slice_sizes={{{m['sizes']}}}")
    value = f"{static} {window}"
    for k, d in enumerate(sorted(dims)):   # cut to n rows, one dimension at a time
        last = k == len(dims) - 1
        target = name if last else f"{window}.cut{d}"
        out = _dynamic_at(shape, lambda e, d=d: e not in dims or e <= d)
        new.append(f"{ind}{(m['root'] or '') if last else ''}{target} = {out} "
                   f"set-dimension-size({value}, s32[] {name}.dynhlo_window{d}.n), "
                   f"dimensions={{{d}}}")
        value = f"{out} {target}"
    return new


def _clamped_start(ind: str, at: str, operand: str, d: int, start: str,
                   size_of: tuple[str, int]) -> list[str]:
    """Lines that compute `at.n`, the size of `size_of` (parameter name, dimension), and
    `at.start`: `start` clamped to [0, max(rows - n, 0)], rows `operand`'s dimension d at run
    time, where TensorFlow's lowering at n clamps it (XLA clamps a start against the static
    shape)."""
    return [f"{ind}{at}.n = s32[] get-dimension-size({size_of[0]}), dimensions={{{size_of[1]}}}",
            f"{ind}{at}.rows = s32[] get-dimension-size({operand}), dimensions={{{d}}}",
            f"{ind}{at}.room = s32[] subtract(s32[] {at}.rows, s32[] {at}.n)",
            f"{ind}{at}.zero = s32[] constant(0)",
            f"{ind}{at}.last = s32[] maximum(s32[] {at}.room, s32[] {at}.zero)",
            f"{ind}{at}.start = s32[] clamp(s32[] {at}.zero, {start}, s32[] {at}.last)"]


def _dynamic_at(shape, keep) -> str:
    """`shape` with only the dynamic dimensions d where keep(d) left dynamic."""
    return str(shape.with_dims(shape.dims, tuple(dyn and keep(d) for d, dyn in enumerate(
        shape.dynamic)), shape.layout))


def mirror_pad_slices(raw: str) -> set[str]:
    """Names of the slice instructions of TensorFlow's MirrorPad in `raw`, TensorFlow's text
    with its metadata (`op_type="MirrorPad"`)."""
    return set(_MIRROR_PAD_SLICE.findall(raw))


def strict_slices(text: str, names: set[str]) -> str:
    """`text` with each slice of `names` whose operand has a bounded dimension written as a
    dynamic-slice of the same rows (from constant starts), so that rows past the size are a
    DynamicSizeError at run time rather than fewer rows (see the module doc)."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        m = SLICE_LINE.match(line)
        if m and m["name"].lstrip("%") in names and "<=" in (m["typed"] or ""):
            lines[k:k + 1] = dynamic_starts(line, m, [])
    return "\n".join(lines)


def size_rows(text: str, base: str, rows: dict[int, tuple[int, int]]) -> str:
    """`text` with each slice of `rows` (token of `base`: the limit of a `[0:n]` entry ->
    the argument dimension (parameter, dimension) whose size n is) reading the first n rows
    of its operand, as the module doc says."""
    toks = tokens(base)
    params = entry_parameters(text)
    lines = text.split("\n")
    for i, (p, pd) in sorted(rows.items()):
        pos = toks[i][1]
        defined = _DEFINED.match(line_at(base, pos))
        entry = base[base.rindex("slice={", 0, pos):pos].count("[") - 1
        number = next((k for k, line in enumerate(lines) if defined and (m := SLICE_LINE.match(
            line)) and m["name"].lstrip("%") == defined.group(1)), None)
        m = SLICE_LINE.match(lines[number]) if number is not None else None
        if m is None or not m["typed"]:
            raise UnsupportedError(f"a slice of the first rows is not written as expected: "
                                   f"{line_at(base, pos)[:300]}")
        typed = parse_shape(m["typed"].strip())
        sized = typed.with_dims(typed.dims, tuple(d == entry or dyn for d, dyn in
                                                  enumerate(typed.dynamic)), typed.layout)
        at = f"{m['name'].lstrip('%')}.dynhlo_rows"
        start, end = m.span("typed")[0], m.span("operand")[1]
        lines[number:number + 1] = [
            f"{m['indent']}{at}.n = s32[] get-dimension-size({params[p]}), "
            f"dimensions={{{pd}}}",
            f"{m['indent']}{at} = {sized} set-dimension-size({m['typed'].strip()} "
            f"{m['operand']}, s32[] {at}.n), dimensions={{{entry}}}",
            lines[number][:start] + f"{sized} {at}" + lines[number][end:]]
    return "\n".join(lines)


def check_rows(base: str, dims: dict, row_names: dict, bounds: dict) -> None:
    """UnsupportedError for a slice of the first n rows (`row_names`: token -> the name of
    n) of a dimension that does not follow n itself: y[:n] of y's m rows gives min(n, m)
    rows in TensorFlow, and n rows of y would read past m."""
    toks = tokens(base)
    for i, name in row_names.items():
        if dims.get(sliced_dim(toks, i)) != name:
            raise baked(name, toks[i][0], str(bounds[name] - 1), bounds[name],
                        bounds[name] - 1, line_at(base, toks[i][1]))
