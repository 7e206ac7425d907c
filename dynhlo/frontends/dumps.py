"""dynhlo.bound_from_dumps (`dynhlo bound A.hlo B.hlo --bound N`): one program's HLO dumped at
two sizes (jax.jit(f).lower(...).as_text(dialect="hlo"), XLA's --xla_dump_to, tf2xla), made
one module with the size `<=N`.

Marking a dump `<=N` by hand keeps every number the producer folded from the size: a mean's
divisor, a slice limit `x[:-1]` wrote as 63, log(n). Two dumps tell them apart. The entry
parameter dimensions that differ between them are the size n (the first one that moves;
the others follow it); every other number that moves must move with n as from_tf's
comparison of lowerings allows (lowering_diff.py, whose rules are used as they are):

- a dimension of a shape, affine in n (n, 2n, n - 1, n / 2 where whole): written at N and
  marked `<=N`; dynamic dimension inference derives the actual size from the data flow,
  and a marked dimension that nothing computes (a broadcast of a constant to n rows, an
  iota of n) is refused;
- a scalar constant n + c (a mean's divisor over one axis, `f32[] constant(n)`): read from
  the parameter's size at run time (frontends.tf.sizes.read_sizes);
- a slice limit m - k of a dimension m that follows n (`x[:-1]`), the start of a slice of
  its last rows (`x[-2:]`): cut at run time (lowering_diff.cut_slices);
- a cumulative window of the whole dimension, a gather or dynamic-slice of all of it.

A strided window over n padded as SAME pads it at both sizes is refused too: SAME's padding
depends on n mod the stride, which two dumps of one residue do not show.
Anything else that moves (a product n * 8 as a mean's divisor over two axes, a float 1/n,
log(n) folded by Python, a pad amount) is refused with its line and column in the dump of
the larger size: the program at another size would be silently wrong. Instruction names
may differ between the dumps, one for one; any other difference in structure is refused
naming the first line that differs.

The dumps are first written at N by extrapolating each integer that moves (affine in n
through the two dumps: it must be a whole number at N), then compared with each dump as
from_tf compares its lowering at the bound with smaller ones.
"""

from __future__ import annotations

import difflib
import re
from fractions import Fraction

from ..errors import HloParseError, UnsupportedError
from ..hlo import attrs
from ..hlo.ir import HloModule
from ..hlo.opcodes import Opcode
from ..hlo.text.parser import parse_hlo
from ..shapes.dynamic import infer_module
from ..shapes.windows import conv_labels
from .lowering_diff import (cut_slices, first_changed, full_windows, mark_bounded,
                            moving_tokens, tokens)
from .tf import _by_name, _instructions_at, _unsized, _without_metadata
from .tf.sizes import read_sizes

SIZE = "n"   # the size's name in messages


def bound_from_dumps(text_a: str, text_b: str, bound: int) -> HloModule:
    """The module that `text_a` and `text_b` (one program's HLO text at two sizes) are at
    every size up to `bound`: its moving entry-parameter dimensions `<=bound`, the shapes
    that follow them written at the bound, sizes folded into constants and slices read at
    run time (see the module doc).

    Raises:
        HloParseError: a dump that is no HLO text (`dump`: 0 for text_a, 1 for text_b).
        UnsupportedError: no entry-parameter dimension moves, a bound below the sizes
            dumped, a structure that differs, or a number that moves with the size in a way
            no shape derived from it does; `line` and `column` (1-based, in the dump of the
            larger size; also the message's `LINE:COLUMN:` prefix) and `dump` (0 for
            text_a, 1 for text_b) say where.
    """
    modules = [_parsed(text, k) for k, text in enumerate((text_a, text_b))]
    (p, d, name, size_a, size_b), *_ = _moving_parameter_dims(*modules)
    larger = 0 if size_a > size_b else 1
    n_big, n_small = max(size_a, size_b), min(size_a, size_b)
    where = f"parameter {p} '{name}' dimension {d}"
    if not isinstance(bound, int) or isinstance(bound, bool) or bound < n_big:
        raise UnsupportedError(f"bound {bound!r}: at least the larger size dumped, {n_big} "
                               f"({where})")
    # operands typed and zero pads written, as tf2xla's text has them (the rules read an
    # operand's dimensions, a slice's, a reduce-window's; XLA's printer leaves out a window's
    # padding of zeros), metadata left out as from_tf does (read_sizes reads a line whole)
    texts = (text_a, text_b)
    big, small = (full_windows(_without_metadata(typed_operands(texts[k], modules[k])))
                  for k in (larger, 1 - larger))
    at = _Locator(texts[larger], big, larger)
    toks_big, toks_small = tokens(big), tokens(small)
    if len(toks_big) != len(toks_small):
        in_big, number = first_changed(big, small) or (True, 0)
        place = at if in_big else _Locator(texts[1 - larger], small, 1 - larger)
        raise place(UnsupportedError(f"the program's structure differs between the dumps at "
                                     f"{n_big} and {n_small} ({where}), from this line on"),
                    line=number + 1)
    at_bound = _at_bound(big, toks_big, toks_small, (n_big, n_small), bound, where, at)
    dims, constants, cuts = set(), {}, {}
    for other, size in ((big, n_big), (small, n_small)):
        if size == bound:
            continue   # the bound's own dump: nothing moves
        try:
            moved, counts, short = moving_tokens(at_bound, other, SIZE, bound, size)
        except UnsupportedError as exc:
            i = getattr(exc, "token", None)
            if i is None:
                raise
            ta, tb = toks_big[i][0], toks_small[i][0]
            why = (f"'{ta}' at n = {n_big} is '{tb}' at n = {n_small}: it moves with the "
                   "size but is no shape derived from it, nor n + c (which is read at run "
                   "time), so the program is right at one size only" if ta != tb else str(exc))
            raise at(UnsupportedError(f"size n ({where}) is baked into the program: {why}"),
                     toks_big[i][1]) from None
        for i, (kind, _) in short.items():
            if kind in ("rows", "window"):   # from_tf's rewrites of tf.roll and the like
                raise at(UnsupportedError(
                    f"size n ({where}): a slice of the first n rows of a larger dimension, "
                    "or a dynamic-slice window of n, is not taken from dumps"), toks_big[i][1])
        dims |= moved
        cuts.update(short)
        constants.update(counts)   # n + c in both, c the same: both agree with at_bound
    marked = cut_slices(mark_bounded(at_bound, dims), at_bound, cuts)
    marked = read_sizes(marked, _by_name(at_bound, {i: (SIZE, c) for i, c in
                                                    constants.items()}),
                        {SIZE: (p, d)}, {SIZE: bound})
    for i in constants:   # each read at run time (read_sizes takes the lines it knows)
        if f"{_instruction_of(at_bound, i)}.dynhlo_n " not in marked:
            raise at(UnsupportedError(f"size n ({where}): a constant n + c not written as "
                                      "expected"), toks_big[i][1])
    module = parse_hlo(marked)
    _check_computed(module, _instructions_at(at_bound, dims), at, where)
    _check_strided_windows(module, (n_big, n_small), at, where)
    return module


def _instruction_of(text: str, i: int) -> str:
    """The name of the instruction on whose line token i of `text` sits."""
    (name,) = _instructions_at(text, {i})
    return name


def _parsed(text: str, dump: int) -> HloModule:
    """parse_hlo(text); its HloParseError with `dump` = which of the two it is."""
    try:
        return parse_hlo(text)
    except HloParseError as exc:
        exc.dump = dump
        raise


def _moving_parameter_dims(a: HloModule, b: HloModule) -> list[tuple]:
    """(parameter, dimension, its name, size in a, size in b) of each entry parameter
    dimension that differs between the dumps; UnsupportedError where none does or the
    parameters differ in number or rank."""
    pa, pb = a.entry.parameters, b.entry.parameters
    if len(pa) != len(pb):
        raise UnsupportedError(f"the dumps have {len(pa)} and {len(pb)} entry parameters: "
                               "not one program")
    out = []
    for k, (x, y) in enumerate(zip(pa, pb, strict=True)):
        if x.shape.is_tuple or y.shape.is_tuple or len(x.shape.dims) != len(y.shape.dims):
            if str(x.shape) != str(y.shape):
                raise UnsupportedError(f"entry parameter {k} '{x.name}' is {x.shape} in one "
                                       f"dump and {y.shape} in the other: not one program")
            continue
        out += [(k, d, x.name, da, db) for d, (da, db) in
                enumerate(zip(x.shape.dims, y.shape.dims, strict=True)) if da != db]
    if not out:
        raise UnsupportedError("no entry-parameter dimension differs between the dumps: "
                               "dump the program at two sizes")
    return out


_OPERANDS_OPEN = re.compile(r"\s(?P<opcode>[a-z][\w\-]*)\(")
_BARE_NAME = re.compile(r"%?[A-Za-z_][\w.\-]*")


def typed_operands(text: str, module: HloModule) -> str:
    """`text` (parsed as `module`) with each operand written by name alone (`slice(x.1)`, as
    jax's HLO text has it) given its type (`slice(f32[64,8]{1,0} x.1)`, as XLA's dumps and
    tf2xla write it); nothing else changes."""
    inserts = []
    for comp in module.computations:
        for inst in comp.instructions:
            if not inst.operands or inst.offset < 0:
                continue
            end = text.find("\n", inst.offset)
            line_end = len(text) if end < 0 else end
            m = next((m for m in _OPERANDS_OPEN.finditer(text, inst.offset, line_end)
                      if m["opcode"] == inst.opcode.value), None)
            if m is None:
                continue
            for (start, item), operand in zip(_items(text, m.end(), line_end), inst.operands,
                                              strict=False):
                if _BARE_NAME.fullmatch(item.strip()) and \
                        item.strip().lstrip("%") == operand.name:
                    inserts.append((start + len(item) - len(item.lstrip()),
                                    f"{operand.shape} "))
    pieces, last = [], 0
    for pos, typed in sorted(inserts):
        pieces += [text[last:pos], typed]
        last = pos
    return "".join(pieces) + text[last:]


def _items(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """(offset, text) of the comma-separated items from `start` to the `)` that closes the
    list there (commas inside brackets, braces and parentheses are an item's own)."""
    items, depth, begin = [], 0, start
    for k in range(start, end):
        c = text[k]
        if c in "([{":
            depth += 1
        elif c in ")]}" and depth:
            depth -= 1
        elif c == ")" or (c == "," and depth == 0):
            items.append((begin, text[begin:k]))
            if c == ")":
                break
            begin = k + 1
    return items


def _at_bound(big: str, toks_big: list, toks_small: list, sizes: tuple[int, int],
              bound: int, where: str, at) -> str:
    """`big` with each integer that moves between the dumps (at `sizes`: big's, small's)
    written at `bound`, affine in the size through the two dumps; UnsupportedError where
    that is no whole number >= 0."""
    n_big, n_small = sizes
    pieces, last = [], 0
    for (ta, pos), (tb, _) in zip(toks_big, toks_small, strict=True):
        if ta == tb or not (ta.isdigit() and tb.isdigit()):
            continue   # a name, or a word or number left to moving_tokens to judge
        value = int(ta) + Fraction(int(ta) - int(tb), n_big - n_small) * (bound - n_big)
        if value.denominator != 1 or value < 0:
            raise at(UnsupportedError(
                f"size n ({where}) is baked into the program: '{ta}' at n = {n_big} is "
                f"'{tb}' at n = {n_small}, which at the bound {bound} would be "
                f"{float(value):g}: no size derived from n"), pos)
        pieces += [big[last:pos], str(value)]
        last = pos + len(ta)
    return "".join(pieces) + big[last:]


def _check_computed(module: HloModule, marked: set[str], at, where: str) -> None:
    """UnsupportedError where a dimension marked `<=N` has nothing in the program that
    computes its size (a broadcast of a constant to n rows, an iota of n): it would run at
    the bound whatever the size."""
    stack = [infer_module(module)]
    while stack:
        info = stack.pop()
        stack.extend(info.calls.values())
        for inst, tree in info.dims.items():
            if inst.name in marked and any(_unsized(tree, inst.shape)):
                raise at(UnsupportedError(
                    f"size n ({where}) is baked into the program: instruction '{inst.name}' "
                    f"({inst.shape}) has a dimension that follows n, but nothing in the "
                    "program computes it from the parameters (a shape folded into a "
                    "constant, an iota): it would run at the bound"),
                    at.definition(inst.name))


def _strided_window_dims(inst) -> list[tuple[int, int, int, int]]:
    """(operand dimension, stride, dilated window size, total padding) of each window
    dimension of a reduce-window, select-and-scatter or convolution (its input's spatial
    dimensions)."""
    window = attrs.window(inst)
    strides = window.get("stride") or []
    if inst.opcode is Opcode.CONVOLUTION:
        spatial = conv_labels(inst, inst.operands[0].shape.rank).lhs_spatial
    else:
        spatial = range(len(strides))
    out = []
    for k, (dim, stride) in enumerate(zip(spatial, strides, strict=False)):
        size = (window.get("size") or [1] * len(strides))[k]
        dilate = (window.get("rhs_dilate") or [1] * len(strides))[k]
        pad = (window.get("pad") or [(0, 0)] * len(strides))[k]
        out.append((dim, stride, (size - 1) * dilate + 1, sum(pad)))
    return out


def _same_padding(n: int, stride: int, size: int) -> int:
    """The total padding of SAME (JAX, TensorFlow, XLA's MakePadding) at size n."""
    return max((-(-n // stride) - 1) * stride + size - n, 0)


def _check_strided_windows(module: HloModule, sizes: tuple[int, int], at, where: str) -> None:
    """UnsupportedError for a window of stride s > 1 over a dimension that follows n whose
    padding in both dumps is SAME's padding there.

    SAME's padding of a strided window depends on n mod s (a max-pool or convolution of
    stride 2 and size 3 pads 0_1 at even n, 1_1 at odd n): two dumps at sizes where it is
    the same show no pad that moves, and the module would run the other residues with it,
    silently wrong. A padding that is not SAME's at one of the dumps' sizes is the
    program's own (VALID, an explicit pad) and holds at every size."""
    n_big, n_small = sizes
    for comp in module.computations:
        for inst in comp.instructions:
            if inst.opcode not in (Opcode.REDUCE_WINDOW, Opcode.SELECT_AND_SCATTER,
                                   Opcode.CONVOLUTION) or inst.operands[0].shape.is_tuple:
                continue
            shape = inst.operands[0].shape
            for dim, stride, size, pad in _strided_window_dims(inst):
                if stride <= 1 or size <= 1 or dim >= shape.rank or not shape.dynamic[dim]:
                    continue   # a window of one element: SAME pads nothing at any size
                if pad != _same_padding(n_big, stride, size) or \
                        pad != _same_padding(n_small, stride, size):
                    continue
                raise at(UnsupportedError(
                    f"size n ({where}): instruction '{inst.name}' has a window of stride "
                    f"{stride} over a dimension that follows n, padded as SAME pads it at "
                    f"{n_big} and {n_small}; SAME's padding depends on n mod {stride}, "
                    "which the dumps do not show: at other sizes the module would pad it "
                    "wrongly (dump at sizes of other residues, e.g. n and n + 1, or use "
                    "from_jax or from_tf)"), at.definition(inst.name))


class _Locator:
    """Places in the dump of the larger size: an offset of its normalized text (typed
    operands, written pads: only insertions, line for line) as LINE:COLUMN of the dump the
    user has."""

    def __init__(self, original: str, normalized: str, dump: int):
        self.original, self.normalized, self.dump = original, normalized, dump

    def __call__(self, exc: UnsupportedError, pos: int | None = None,
                 line: int | None = None) -> UnsupportedError:
        """`exc` with `line`, `column` (of offset `pos` in the normalized text, or `line`
        given) and `dump`, its message led by `LINE:COLUMN:`."""
        column = 1
        if pos is not None:
            line = self.normalized.count("\n", 0, pos) + 1
            start = self.normalized.rfind("\n", 0, pos) + 1
            column = _column_in(self.original.split("\n")[line - 1],
                                self.normalized.split("\n")[line - 1], pos - start) + 1
        exc.line, exc.column, exc.dump = line, column, self.dump
        exc.args = (f"{line}:{column}: {exc.args[0]}",)
        return exc

    def definition(self, name: str) -> int | None:
        """Offset (normalized) of the name that defines instruction `name`."""
        for tok, pos in tokens(self.normalized):
            if tok.lstrip("%") == name and \
                    self.normalized[pos + len(tok):].lstrip().startswith("="):
                return pos
        return None


def _column_in(original: str, normalized: str, k: int) -> int:
    """Column (0-based) in `original` of column k of `normalized`, `original` with text
    inserted."""
    for tag, i1, _, j1, j2 in difflib.SequenceMatcher(None, original, normalized,
                                                      autojunk=False).get_opcodes():
        if tag == "equal" and j1 <= k < j2:
            return i1 + k - j1
    return 0
