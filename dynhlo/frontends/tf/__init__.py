"""dynhlo.from_tf: a TensorFlow function as a dynhlo executable with bounded sizes.

First route (dynamic_module): the function lowered once with its sizes marked dynamic
(dynamic.py: tf2xla computes every size), checked by value against TensorFlow's program
at 0, 1, 2, a middle size and the bound (small.py, strict). Where that fails, the
comparison of lowerings below (module_from_lowerings), as before:

TensorFlow lowers a function to HLO only at static shapes (`tf.function(fn, jit_compile=True)
.experimental_get_compiler_ir(*args)(stage="hlo")`). from_tf lowers it at the bounds and again
with each named size changed, and compares the texts number by number (lowering_diff.py): a
dimension that moves with a size becomes `<=B`, a scalar n + c (a mean's divisor, the size
cast to a float, a loop's trip count in its condition) reads the size at run time
(sizes.py), a slice that stops k short of the size (`x[:-1]`) is cut to n-k at run time,
one of the last k rows (`x[-1]`, a mirror pad's `[n-3:n-1]`) reads them from n-k, a
cumulative window of the size (tf.cumsum) and a gather of whole columns keep the bound's, a
dynamic-slice of n rows (tf.roll) reads n rows at run time, and a literal whose values at
smaller sizes are the first of the bound's (tf.range(n), folded) is one literal of `<=B`
values (folded.py); anything else that moves means the size is baked into the program:
from_tf refuses and quotes that line, since running it at another size would be silently
wrong. The fixed rows a MirrorPad reflects must exist at run time, as TensorFlow requires
(rewrites.py), and the least size is checked before each call (requirements.py), as
is that of a range TensorFlow folded (tf.range(1, n) needs n >= 1, where TensorFlow's Range
refuses a start past the limit). A
dimension that follows a size but that nothing in the program computes (a shape TensorFlow
folded into a broadcast of a constant: tf.ones_like, or that literal) is set to a length
computed from its argument dimension's size (n, n + 1, ceil(n / 2): lengths.py, which
may lower at a few sizes more to tell); Philox random numbers of such a shape are drawn at
the bound and cut (random.py), ThreeFry's per the dimension XLA pairs their words along
at the actual size (threefry.py), others refused (TensorFlow draws them at the actual
shape), and so is a large constant (elided `{...}` in TF's text, compared as arrays from the
module's proto) whose values move. tf2xla's own bounded dims (tf.where, tf.unique,
boolean_mask) already read `<=N` and stay as they are.

The texts are compared token by token at bound - 1 and bound // 2 + 1. Where TensorFlow
refuses a smaller size (top_k's k, a VALID window's extent), the least size it lowers at is
a requirement checked before each call, a DynamicSizeError naming the op (least.py). At
1, 2 and that least size the program is checked by value against TensorFlow's own program
at that size (small.py): a branch on the size that TensorFlow folds (`if x.shape[0] > 2`,
or tf.cond on tf.shape) is refused there, naming the Python line (source.py). A branch
that flips only between 3 and bound // 2 + 1 is still not seen.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import UnsupportedError
from ...hlo.ir import HloModule
from ...hlo.opcodes import OP_SPECS, Trait
from ...hlo.text.parser import parse_hlo
from ...hlo.types import to_numpy_dtype
from ...runtime.executable import compile as compile_module
from ...runtime.module_text import keep_in_text
from ...shapes.dynamic import infer_module
from ...shapes.sizes import Sym
from ..jax import named_bounds, parse_symbolic_shape
from .literal_proto import elided_constants, reference_elided_constants
from ..lowering_diff import (cut_slices, entry_parameters, first_changed, full_windows,
                             line_at,
                             mark_bounded, moving_tokens, tokens)
from .captures import capture_values, check_inputs, freeze_captures
from .dynamic import lower_marked, reason_of
from .executable import TFExecutable
from .inputs import held
from .folded import align_prefix_literals, is_prefix
from .least import LoweringRefused, least_size, lowering_requirements
from .lengths import fit_length, length_lines
from .random import drawn_as_prefix, pairs_refusal, slice_pairs
from .requirements import mirror_pad_requirements, range_requirements
from .where import round_where_blocks
from .rewrites import check_rows, mirror_pad_slices, size_rows, size_windows, strict_slices
from .sizes import read_sizes
from .small import SMALL, check_small_sizes
from .source import python_place, user_sources, user_frames
from .threefry import bits_size, draw_three_fry_at_size


def lower_tf(fn, shapes: list, sizes: dict) -> tuple[str, list]:
    """HLO text of `fn` at these sizes (zeros of each argument's shape and dtype), with large
    constants elided (`{...}`), and the elided constants' (name, shape, values) in the order
    of the text (literal_proto.elided_constants)."""
    import tensorflow as tf
    args = [np.zeros([sizes[d] if isinstance(d, str) else d for d in dims],
                     to_numpy_dtype(element)) for element, dims in shapes]
    compiled = tf.function(fn, jit_compile=True)
    try:
        lowered = compiled.experimental_get_compiler_ir(*args)
        concrete = compiled.get_concrete_function(*args)
        text = user_sources(lowered(stage="hlo"), user_frames(concrete.graph))
        # large constants elided: their values are in the proto
        constants = elided_constants(text, lowered(stage="hlo_serialized"), _hlo_pb2()) \
            if "{...}" in text else []
        # captured variables and tensors: constants of their values now (captures.py)
        values = capture_values(concrete)
        check_inputs(text, len(args) + len(values), sizes)
        return freeze_captures(text, constants, len(args), values)
    except UnsupportedError:
        raise
    except Exception as exc:  # noqa: BLE001 - TF's refusals (ops XLA cannot compile, ...)
        reason = reason_of(exc)
        raise LoweringRefused(f"tensorflow cannot lower this function to HLO at sizes "
                              f"{sizes}: {type(exc).__name__}: {reason[:300]}", reason) from exc


def runs_tf(fn, parsed: list, sizes: dict) -> str | None:
    """The reason TensorFlow's own program (tf.function's graph, not XLA's) refuses `fn`
    on zeros at these sizes, or None where it runs."""
    import tensorflow as tf
    args = [np.zeros([sizes[d] if isinstance(d, str) else d for d in dims],
                     to_numpy_dtype(element)) for element, dims in parsed]
    try:
        tf.function(lambda *a: fn(*a))(*args)
    except Exception as exc:  # noqa: BLE001 - TF's refusals at run time
        return reason_of(exc)   # with the op, named on a later line of the error
    return None


def _hlo_pb2():
    from tensorflow.compiler.xla.service import hlo_pb2
    return hlo_pb2


def tf_module(fn, shapes: tuple, bounds, weights: str = "constants") -> tuple:
    """(the HloModule of `fn` with each named dimension `<=bound` (see the module doc), the
    Held program (inputs.py: names, output structure), the captures' (names, values)
    where they are parameters)."""
    try:
        import tensorflow  # noqa: F401
    except ImportError as exc:
        raise UnsupportedError(f"from_tf needs tensorflow ({exc}); pip install "
                               "\"dynhlo[tf]\"") from None
    if weights not in ("constants", "parameters"):
        raise UnsupportedError(f"weights={weights!r}: \"constants\" (the default: the "
                               "captures frozen at their values now) or \"parameters\"")
    program = held(fn, tuple(shapes), bounds)
    parsed = [parse_symbolic_shape(s) for s in program.shapes]
    lower = _remembered(lambda sizes: lower_tf(lambda *a: program(*a), parsed, sizes))
    captures: dict = {}

    def marked(known: bool):
        text, constants, captures["weights"] = lower_marked(
            lambda *a: program(*a), parsed, program.bounds, known, freeze=weights == "constants")
        return text, constants, captures["weights"]
    try:
        module = dynamic_module(marked, lower, program.shapes, program.bounds, program.names,
                                lambda sizes: runs_tf(program, parsed, sizes))
        keep_in_text(module)   # its text, printed for the CLI, keeps the least sizes
        return module, program, captures["weights"]
    except UnsupportedError as dynamic:
        if weights == "parameters":
            raise UnsupportedError(f"{dynamic} (weights=\"parameters\" takes only "
                                   "TensorFlow's own dynamic sizes; the default, weights "
                                   "frozen, also compares lowerings at static sizes)") from None
        try:
            module = module_from_lowerings(lower, program.shapes, program.bounds,
                                           program.names)
        except UnsupportedError as compared:
            raise UnsupportedError(f"{dynamic}; compared at static sizes instead: "
                                   f"{compared}") from None
        keep_in_text(module)
        return module, program, ([], [])


def dynamic_module(lower_marked_at, lower, shapes: list[str], bounds: dict,
                   arguments: list[str] | None = None, runs=None) -> HloModule:
    """The HloModule of the function that `lower_marked_at(known)` lowers once with its
    sizes marked dynamic (dynamic.lower_marked: text, elided constants, captures), the
    marked dimensions' static shape unknown to TensorFlow's Python (known False) or, where
    TensorFlow refuses that, the bound (known True). Cross-checked by value against
    TensorFlow's own program at static sizes (`lower(sizes)`, as lower_tf) at 1, 2, a middle
    size and the bound (small.check_small_sizes, strict: a read past the size counts);
    the least size TensorFlow lowers at is a requirement checked before each call
    (least.py); where that is 1, `runs(sizes)` (TensorFlow's own program run on zeros:
    the reason it refuses, else None) tells whether no rows are refused too (tf.range(1, n)
    is; XLA's lowering refuses a loop over no rows that TensorFlow runs). Captures made
    parameters (lower_marked_at's third: names, values) are
    passed after the arguments in the cross-check."""
    bounds = named_bounds(bounds, low=2)
    parsed = [parse_symbolic_shape(s) for s in shapes]
    names = list(dict.fromkeys(d for _, dims in parsed for d in dims if isinstance(d, str)))
    missing = [n for n in names if n not in bounds]
    if missing or sorted(set(bounds) - set(names)):
        raise UnsupportedError(f"from_tf needs one bound per size name: names {names}, "
                               f"bounds {sorted(bounds)}")
    try:
        raw, constants, (_, weights) = lower_marked_at(False)
    except LoweringRefused:   # Python that needs a static size (`x.shape[0] + 1`)
        raw, constants, (_, weights) = lower_marked_at(True)
    raw = round_where_blocks(raw)
    module = parse_hlo(*reference_elided_constants(_without_metadata(raw), constants))
    module.sizes_checked = True   # its sizes are tf2xla's own: no BakedSizeWarning
    places = {n: next((p, d) for p, (_, shape) in enumerate(parsed)
                      for d, dim in enumerate(shape) if dim == n) for n in names}
    least = {n: least_size(lower, bounds, n, _checked(bounds[n])[::-1][1:]) for n in names}
    if runs is not None:   # TensorFlow's own program may refuse a size its lowering takes
        least = {n: _least_run(runs, bounds, n, least[n]) for n in names}
    zero = {n: least[n] == (1, None) and runs is not None and runs({**bounds, n: 0})
            for n in names}   # where it runs from 1: TensorFlow's reason at no rows, if any
    least.update({n: (1, reason) for n, reason in zero.items() if reason})
    module.shape_assertions = lowering_requirements(least, places, arguments)
    checked = {n: sorted({s for s in _checked(bounds[n]) if s >= least[n][0]} | {least[n][0]}
                         | ({0} if zero[n] is None else set())) for n in names}
    check_small_sizes(module, lower, parsed, bounds, checked, lower(bounds)[0],
                      _without_metadata, strict=True, weights=weights)
    return module


def _least_run(runs, bounds: dict, name: str, least: tuple) -> tuple[int, str | None]:
    """`least` (least_size's: the least size TensorFlow lowers at, its reason) raised to the
    least size TensorFlow's own program runs at (`runs(sizes)`: its reason, or None), where
    that refuses the least size it lowers at: tf.gather of a column past the size, which
    TensorFlow's kernel refuses and XLA's gather clamps. Where it refuses the bound too,
    it refuses the zeros it runs on (a singular matrix), not the size: `least` stays."""
    if runs({**bounds, name: least[0]}) is None or runs(bounds) is not None:
        return least

    def ran(sizes: dict):
        reason = runs(sizes)
        if reason is not None:
            raise LoweringRefused(reason, reason)
    larger = {s for s in _checked(bounds[name]) if least[0] < s < bounds[name]}
    return least_size(ran, bounds, name, sorted(larger | {least[0]}, reverse=True))


def _checked(bound: int) -> list[int]:
    """The sizes the dynamic lowering is checked at: 1, 2, a middle size and the bound (and
    no rows where TensorFlow lowers at 0: tf2xla's x[1:] of none is -1 rows)."""
    return sorted({1, 2, (bound + 1) // 2 + 1 if bound > 4 else bound - 1, bound} - {0})


def module_from_lowerings(lower, shapes: list[str], bounds: dict,
                          arguments: list[str] | None = None) -> HloModule:
    """The HloModule of a function that `lower(sizes)` lowers at static sizes (name -> size),
    giving (HLO text, elided constants) as lower_tf does, with each named dimension of
    `shapes` `<=bound`: tf_module's work, with TensorFlow's lowering passed in (tests give
    texts TensorFlow wrote once). `arguments` names the function's arguments in messages.
    The module's `shape_assertions` are the least sizes TensorFlow requires (a MirrorPad's
    rows, a folded range's start: requirements.py), checked by the executable before
    each call."""
    bounds = named_bounds(bounds, low=2)  # each is compared with a smaller size
    lower = _remembered(_with_pairs_sliced(lower))   # a folded length may look one up again
    parsed = [parse_symbolic_shape(s) for s in shapes]
    names = list(dict.fromkeys(d for _, dims in parsed for d in dims if isinstance(d, str)))
    missing = [n for n in names if n not in bounds]
    if missing or sorted(set(bounds) - set(names)):
        raise UnsupportedError(f"from_tf needs one bound per size name: names {names}, "
                               f"bounds {sorted(bounds)}")
    raw, constants = lower(bounds)
    base = _without_metadata(raw)
    # the least size TensorFlow lowers at (top_k's k: least.py); only sizes from it on
    # are compared
    least = {n: least_size(lower, bounds, n, sorted(set(_compared(bounds[n])) | set(SMALL),
                                                    reverse=True)) for n in names}
    dims, sizes, cuts, windows, rows = _compare(lower, parsed, bounds, names, raw,
                                                constants, least)
    refusal = pairs_refusal(base, dims, bounds)
    if refusal:
        raise UnsupportedError(f"from_tf cannot take these random normals: {refusal}")
    places = {n: next((p, d) for p, (_, shape) in enumerate(parsed)
                      for d, dim in enumerate(shape) if dim == n) for n in names}
    marked = cut_slices(mark_bounded(base, dims), base, cuts)
    marked = strict_slices(size_windows(marked, base, windows), mirror_pad_slices(raw))
    marked = size_rows(marked, base, rows)
    # after the steps that count lines of `base`: this one adds lines
    marked = read_sizes(marked, _by_name(base, sizes), places, bounds)
    marked, arrays = reference_elided_constants(marked, constants)   # weights as arrays
    marked = draw_three_fry_at_size(marked, bits_size(base, dims, places), arrays)
    module = parse_hlo(marked, arrays)
    if len(module.entry.parameters) != len(parsed):
        raise UnsupportedError(f"TensorFlow's program has {len(module.entry.parameters)} "
                               f"parameters for the function's {len(parsed)} arguments: "
                               "each argument must be one parameter (an argument TensorFlow "
                               "never reads it leaves out; a capture it reads is one more)")
    unsized = _unsized_in_entry(module, _instructions_at(base, dims))
    lengths: list = []   # (instruction, size name, c) of each folded length n + c, s
    if unsized:   # a shape TensorFlow folded: sized from the argument dimension it follows
        fit = _length_fitter(lower, base, constants, bounds, least)
        module = parse_hlo(_size_from_arguments(marked, base, unsized, dims, parsed, fit,
                                                lengths), arrays)
    _check_sized(module, _instructions_at(base, dims), names)
    required = mirror_pad_requirements(raw, base, dims, cuts, bounds, places, arguments) + \
        range_requirements(lengths, places, arguments)
    covered = {r.name: r.least for r in required}   # the more telling message of the two
    module.shape_assertions = required + [
        r for r in lowering_requirements(least, places, arguments)
        if covered.get(r.name, 0) < r.least]
    module.sizes_checked = True   # each size compared: no BakedSizeWarning
    small = {n: sorted({s for s in (*SMALL, least[n][0]) if least[n][0] <= s < bounds[n]}
                       - set(_compared(bounds[n], least[n][0]))) for n in names}
    check_small_sizes(module, lower, parsed, bounds, small, raw, _without_metadata)
    return module


def _compare(lower, parsed: list, bounds: dict, names: list, raw: str, constants: list,
             least: dict) -> tuple[dict, dict, dict, dict, dict]:
    """(dimensions -> the name they follow, size constants -> (name, c): n + c, slice
    bounds that follow a size -> (kind, shift) as moving_tokens gives them, dynamic-slice
    windows that are a size -> (parameter, dimension), slice limits that are a size ->
    (parameter, dimension)): the tokens of `base` that move with each name, from lowerings
    at smaller sizes from each name's least (`least`: name -> (size, reason), least.py),
    lowering_diff.py. A structure that changes is refused naming the Python line of its
    first op (source.py): a branch on a static size, `if x.shape[0] > 2`."""
    base = _without_metadata(raw)
    dims: dict[int, str] = {}
    sizes: dict[int, tuple[int, int]] = {}
    cuts: dict[int, tuple[str, int]] = {}
    windows: dict[int, tuple[int, int]] = {}
    rows: dict[int, tuple[int, int]] = {}
    row_names: dict[int, str] = {}
    for n in names:
        seen = []
        where = next((p, d) for p, (_, shape) in enumerate(parsed)
                     for d, dim in enumerate(shape) if dim == n)
        for size in _compared(bounds[n], least[n][0]):
            other_raw, others = lower({**bounds, n: size})
            other, others = align_prefix_literals(base, _without_metadata(other_raw),
                                                  constants, others)
            try:
                moved, counts, short = moving_tokens(base, other, n, bounds[n], size)
            except UnsupportedError as exc:
                changed = first_changed(base, _without_metadata(other_raw))
                raise UnsupportedError(f"{exc}{python_place(raw, other_raw, changed)}") \
                    from None
            _same_constants(constants, others, n, bounds[n], size)
            for i in moved:
                dims.setdefault(i, n)
            seen.append(counts)
            for i, shift in short.items():   # n-k at every size, for one name only
                if shift[0] == "rows":
                    row_names[i] = n
                    if rows.setdefault(i, where) != where:
                        raise UnsupportedError(f"a slice of the first rows follows two sizes, "
                                               f"in: {line_at(base, tokens(base)[i][1])[:300]}")
                elif shift[0] == "window":
                    if windows.setdefault(i, where) != where:
                        raise UnsupportedError(f"a dynamic-slice window follows two sizes, "
                                               f"in: {line_at(base, tokens(base)[i][1])[:300]}")
                elif cuts.setdefault(i, shift) != shift:
                    raise UnsupportedError(f"size '{n}' is baked into the program: a slice "
                                           "bound that moves by another amount, in: "
                                           f"{line_at(base, tokens(base)[i][1])[:300]}")
        for i in set().union(*seen):   # n + c at every size, and follows no other name
            if i in sizes or not all(i in counts for counts in seen):
                raise UnsupportedError(f"size '{n}' is baked into the program: a constant "
                                       f"that follows it only at some sizes, in: "
                                       f"{line_at(base, tokens(base)[i][1])[:300]}")
            sizes[i] = (n, seen[0][i])
    check_rows(base, dims, row_names, bounds)
    return dims, sizes, cuts, windows, rows


def _with_pairs_sliced(lower):
    """`lower` whose texts slice random normals drawn in pairs at every size
    (random.slice_pairs: TensorFlow writes the slice at odd sizes only) and write each
    window's padding (lowering_diff.full_windows: XLA's printer leaves out zeros)."""
    def sliced(sizes: dict):
        text, constants = lower(sizes)
        return full_windows(slice_pairs(text)), constants
    return sliced


def _remembered(lower):
    """`lower` that lowers at each sizes once."""
    done: dict = {}

    def again(sizes: dict):
        key = tuple(sorted(sizes.items()))
        if key not in done:
            done[key] = lower(sizes)
        return done[key]
    return again


def _length_fitter(lower, base: str, constants: list, bounds: dict, least: dict):
    """fit(token, name): the (s, c) of the length of `base`'s dimension token that follows
    size `name` (lengths.fit_length), from that token in the lowerings at the compared
    sizes and, where they do not tell, at others; (1, 0) where it was the size at each."""
    base_tokens = tokens(base)

    def look_up(i: int, name: str, size: int) -> int | None:
        try:
            text, others = lower({**bounds, name: size})
        except (UnsupportedError, OSError):
            return None   # TensorFlow refuses that size (or a test stored no lowering)
        other, _ = align_prefix_literals(base, _without_metadata(text), constants, others)
        toks = tokens(other)
        return int(toks[i][0]) if len(toks) == len(base_tokens) and \
            toks[i][0].isdigit() else None

    def fit(i: int, name: str) -> tuple[int, int] | None:
        bound = bounds[name]
        seen = {size: look_up(i, name, size) for size in _compared(bound, least[name][0])}
        seen[bound] = int(base_tokens[i][0])
        if any(v is None for v in seen.values()):
            return None
        if all(v == size for size, v in seen.items()):
            return (1, 0)   # the size at every lowering (tf.ones_like's shape)
        return fit_length(seen, bound, lambda size: look_up(i, name, size))
    return fit


def _compared(bound: int, least: int = 1) -> tuple[int, ...]:
    """The smaller sizes each lowering at the bound is compared with token by token: bound
    - 1 and a middle size, none below the least size TensorFlow lowers at (least.py).
    (At 1, 2 and the least size the texts differ in ways that are no size baked in, a
    window of 1 without padding, a Fill of 0: those are compared by value, small.py.)"""
    sizes = (bound - 1, bound // 2 + 1 if bound > 3 else bound - 1)
    return tuple(sorted({s for s in sizes if least <= s < bound}, reverse=True))


def _by_name(base: str, sizes: dict) -> dict[str, tuple[str, int]]:
    """The size constants (token of `base` -> (size name, c)) by instruction name."""
    out = {}
    for i, value in sizes.items():
        (inst,) = _instructions_at(base, {i})
        out[inst] = value
    return out


def _same_constants(base: list, other: list, name: str, bound: int, size: int) -> None:
    """UnsupportedError when an elided constant's values differ between two lowerings (the
    texts match token by token, so the k-th elided constants are the same instruction):
    compared as arrays, not as text, so a constant of millions of values costs no tokens."""
    if len(base) != len(other):
        raise UnsupportedError(f"size '{name}' is baked into the program: TensorFlow's text "
                               f"elides {len(base)} constants at {bound}, {len(other)} at "
                               f"{size}")
    for (inst, shape, a), (_, _, b) in zip(base, other, strict=True):
        if not is_prefix(a, b):   # the same values, or the first of them (folded.py)
            raise UnsupportedError(f"size '{name}' is baked into the program: the values of "
                                   f"constant '{inst}' ({shape}) change when '{name}' goes "
                                   f"from {bound} to {size}")


# metadata={op_type=... source_file=...}: TensorFlow writes it differently from one lowering
# to the next (a source file on one line here, not there), and it means nothing to run
_METADATA = re.compile(r', metadata=\{(?:"(?:[^"\\]|\\.)*"|[^{}"])*\}')
_DEFINED = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=")


def _without_metadata(text: str) -> str:
    return _METADATA.sub("", text)


def _instructions_at(text: str, indices: set[int]) -> set[str]:
    """Names of the instructions on whose lines the tokens at `indices` sit."""
    out = set()
    for i, (_, pos) in enumerate(tokens(text)):
        if i in indices:
            m = _DEFINED.match(line_at(text, pos))
            if m:
                out.add(m.group(1))
    return out


def _check_sized(module: HloModule, marked: set[str], names: list) -> None:
    """UnsupportedError where a dimension that moved with a size has nothing in the program
    that computes it (TensorFlow folded a shape into a constant: a broadcast of a constant,
    a random number generator's shape, whose numbers differ at each shape), so it would run
    at the bound whatever the size."""
    stack = [infer_module(module)]
    while stack:
        info = stack.pop()
        stack.extend(info.calls.values())
        for inst, tree in info.dims.items():
            if inst.name in marked and Trait.RANDOM in OP_SPECS[inst.opcode].traits:
                why = drawn_as_prefix(inst, module.entry) if inst in module.entry.instructions \
                    else "it is not in the entry computation"
                if why is None:
                    continue   # drawn at the bound, its bits cut to the size (random.py)
                raise UnsupportedError(
                    f"size {' or '.join(map(repr, names))} is the shape of the random numbers "
                    f"of TensorFlow's op '{_op_of(inst.name)}' (instruction '{inst.name}', "
                    f"{inst.shape}): TensorFlow draws them at the actual size, and the "
                    f"bound's cannot stand for them: {why}")
            if inst.name in marked and any(_unsized(tree, inst.shape)):
                raise UnsupportedError(
                    f"size {' or '.join(map(repr, names))} is baked into the program: "
                    f"instruction '{inst.name}' ({inst.shape}) has a dimension that follows "
                    "it, but nothing in the program computes that size (TensorFlow folded "
                    "it into a constant shape), so it would run at the bound")


def _op_of(name: str) -> str:
    """TensorFlow's op of an instruction tf2xla named `<op>.<counter>`."""
    return name.rsplit(".", 1)[0] if name.rsplit(".", 1)[-1].isdigit() else name


def _unsized_in_entry(module: HloModule, marked: set[str]) -> dict[str, list[int]]:
    """Instruction name -> its dimensions that follow a size but that nothing computes, in
    the entry computation (a broadcast of a constant to a shape TensorFlow folded), where no
    operand is such an instruction too; random numbers of such a shape are left to
    _check_sized, which refuses them."""
    out = {}
    for inst, tree in infer_module(module).dims.items():
        if inst.name in marked and Trait.RANDOM not in OP_SPECS[inst.opcode].traits and \
                not inst.shape.is_tuple:
            dims = [d for d, (t, dynamic) in enumerate(zip(tree, inst.shape.dynamic, strict=True))
                    if dynamic and not (isinstance(t, Sym) and t.root().expr is not None)]
            if dims:
                out[inst.name] = (inst, dims)
    # the sources only: an add of two unsized broadcasts is sized once they are
    return {name: dims for name, (inst, dims) in out.items()
            if not any(op.name in out for op in inst.operands)}


def _size_from_arguments(text: str, base: str, unsized: dict, dims: dict, parsed: list,
                         fit, lengths: list) -> str:
    """`text` with each instruction of `unsized` (name -> dimensions) followed by a
    set-dimension-size to a length computed from the argument dimension its size follows:
    `fit(token, size name)` gives the (s, c) of that length, max(0, ceil((n + c) / s))
    (lengths.py: n itself where the dimension was the size at every lowering), so the
    program TensorFlow wrote at n has it; the instruction's name now names the sized value.
    Each length's (instruction, size name, c) is appended to `lengths`.
    UnsupportedError for a dimension of no such length."""
    toks = tokens(base)
    params = entry_parameters(text)
    lines = text.split("\n")
    for name, where in unsized.items():
        shape_dims = _shape_dim_tokens(toks, name)
        number = next((k for k, line in enumerate(lines) if _defines(line, name)), None)
        if shape_dims is None or number is None:
            raise UnsupportedError(f"instruction '{name}' of a folded shape is not found")
        m = _LINE.match(lines[number])
        indent, root, defined, shape = m["indent"], m["root"] or "", m["name"], m["shape"]
        new = [f"{indent}{defined}.dynhlo_unsized = {shape} {m['rest']}"]
        value = f"{defined}.dynhlo_unsized"
        for k, d in enumerate(where):
            size_name = dims.get(shape_dims[d])
            form = fit(shape_dims[d], size_name) if size_name else None
            if form is None:
                raise UnsupportedError(
                    f"a size is baked into the program: instruction '{name}' has dimension "
                    f"{d} of {toks[shape_dims[d]][0]}, which follows "
                    f"{repr(size_name) if size_name else 'a size'} but is no one range's "
                    "length of it (max(0, ceil((n + c) / s))), and nothing in the program "
                    "computes it (TensorFlow folded it into a constant shape)")
            p, pd = next((p, i) for p, (_, shp) in enumerate(parsed)
                         for i, dim in enumerate(shp) if dim == size_name)
            lengths.append((name, size_name, form[1]))
            last = k == len(where) - 1
            target = defined if last else f"{defined}.dynhlo_sized{k}"
            new += length_lines(indent, f"{defined}.dynhlo_size{k}", params[p], pd, *form)
            new.append(f"{indent}{root if last else ''}{target} = {shape} set-dimension-size("
                       f"{shape} {value}, s32[] {defined}.dynhlo_size{k}), dimensions={{{d}}}")
            value = target
        lines[number:number + 1] = new
    return "\n".join(lines)


_LINE = re.compile(r"^(?P<indent>\s*)(?P<root>ROOT\s+)?(?P<name>%?[\w.\-]+)\s*=\s*"
                   r"(?P<shape>\S+)\s+(?P<rest>.*)$")


def _defines(line: str, name: str) -> bool:
    m = _LINE.match(line)
    return m is not None and m["name"].lstrip("%") == name


def _shape_dim_tokens(toks, name: str) -> list[int] | None:
    """Token indices of the dimensions of instruction `name`'s array shape where it is
    defined (`%name = f32[8,3]{1,0} ...`)."""
    for k in range(len(toks) - 3):
        if toks[k][0].lstrip("%") == name and toks[k + 1][0] == "=" and toks[k + 3][0] == "[":
            out, j = [], k + 4
            while j < len(toks) and toks[j][0] != "]":
                if toks[j][0][0].isdigit():
                    out.append(j)
                j += 1
            return out
    return None


def _unsized(tree, shape):
    """The dimensions declared dynamic that inference gives no size: a Sym computed from
    nothing, or a static size (a random number generator's shape is static in XLA)."""
    if isinstance(tree, list):
        for t, s in zip(tree, shape.elements, strict=True):
            yield from _unsized(t, s)
        return
    yield from (d for d, dynamic in zip(tree, shape.dynamic, strict=True)
                if dynamic and not (isinstance(d, Sym) and d.root().expr is not None))


def from_tf(fn, *shapes, bounds, weights: str = "constants", backend: str = "cpu",
            **compile_options):
    """Compile a TensorFlow program for every size within bounds.

    Args:
        fn: what a TensorFlow user holds (inputs.py): a function of tf tensors or a
            tf.function (a tf.Module's method), a ConcreteFunction, a restored SavedModel's
            function or serving signature, a Keras model or layer (its call in inference
            mode, `training=False`).
        shapes: one per tensor argument: an HLO shape string whose dimensions may be names
            (`"f32[n,16]"`; a name shared by arguments is one size) or a tf.TensorSpec
            (a `None` dimension is a size named `<argument>_<dimension>`); none where fn
            has an input signature (input_signature=, a ConcreteFunction's). Arguments
            after them keep their defaults.
        bounds: name -> upper bound (>= 2), one per name; a `None` dimension's also by
            (argument index, dimension), or one number for every `None` dimension.
        weights: "constants" (the default: what fn captures, tf.Variables, a model's
            weights, eager tensors, frozen at their values now) or "parameters" (entry
            parameters after the arguments, in `captured_inputs` order: `exe.weight_names`,
            replaceable in `exe.weights`).
        backend, compile_options: as for dynhlo.compile.

    Returns:
        A TFExecutable (executable.py): NumPy or tf.Tensor in, the same out at actual
        sizes, in fn's output structure; `.module` is the HLO, `.save` an AOT artifact.

    Raises:
        UnsupportedError: tensorflow missing (`pip install "dynhlo[tf]"`), a name without a
            bound, or a size baked into the program (the message quotes the HLO line).
        ArgumentError: at call time, a size below the least TensorFlow accepts (a MirrorPad
            longer than the rows it reflects, a range whose start passes its limit, top_k
            of fewer than k values, a VALID window longer than the input), naming the op,
            the argument and both sizes; a saved artifact keeps the check. It is a
            SizeRequirementError, a DynamicSizeError too.
    """
    module, program, (names, values) = tf_module(fn, shapes, bounds, weights)
    exe = compile_module(module, backend, **compile_options)
    return TFExecutable(exe, program.names, program.structure, names, values)
