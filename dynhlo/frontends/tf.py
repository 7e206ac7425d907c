"""dynhlo.from_tf: a TensorFlow function as a dynhlo executable with bounded sizes.

TensorFlow lowers a function to HLO only at static shapes (`tf.function(fn, jit_compile=True)
.experimental_get_compiler_ir(*args)(stage="hlo")`). from_tf lowers it at the bounds and again
with each named size changed, and compares the texts number by number: a number that moves
must be a dimension of a shape and equal to the size, and it becomes `<=B`. Anything else that
moves (a mean's divisor `constant(64)`, a pad amount, `0.015625` = 1/64) means the size is
baked into the program: from_tf refuses and quotes that line, since running it at another size
would be silently wrong. So does a word that moves (`true` -> `false`, `0.25` -> `inf`), a
slice limit that moves where the dim it cuts does not, and a large constant (elided `{...}` in
TF's text, compared as arrays from the module's proto) whose values move. Instruction names
may differ, one for one. tf2xla's own bounded dims (tf.where, tf.unique, boolean_mask) already
read `<=N` and stay as they are.

Only the sizes bound - 1 and bound // 2 + 1 are compared: a function that TensorFlow folds
differently only at smaller sizes (`n > 2` folded to a constant) is not caught.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import UnsupportedError
from ..hlo.ir import HloModule
from ..hlo.opcodes import Opcode
from ..hlo.parser import parse_hlo
from ..hlo.types import ELEMENT_TYPES, to_numpy_dtype
from ..runtime.executable import compile as compile_module
from ..shapes.dynamic import infer_module
from ..shapes.sizes import Sym
from .jax import named_bounds, parse_symbolic_shape
from .literal_proto import elided_constants, fill_elided_constants

# a string, a name or word, a number, or one character; `_` and `x` between digits are
# characters of their own, so that the numbers of a pad (`padding=0_1x0_0`) and a window
# (`size=3x3 pad=0_0x1_1`) are numbers, compared as the rest (as part of a word, a pad that
# moved with a size passed for a counter in a name)
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|(?<=\d)[_x](?=\d)|[A-Za-z_%][\w.\-]*'
                    r'|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\S')


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
        text = lowered(stage="hlo")
        if "{...}" not in text:
            return text, []
        # large constants elided: their values are in the proto
        return text, elided_constants(text, lowered(stage="hlo_serialized"), _hlo_pb2())
    except UnsupportedError:
        raise
    except Exception as exc:  # noqa: BLE001 - TF's refusals (ops XLA cannot compile, ...)
        raise UnsupportedError(f"tensorflow cannot lower this function to HLO at sizes "
                               f"{sizes}: {type(exc).__name__}: {_reason(exc)[:300]}") from exc


def _reason(exc: Exception) -> str:
    """The line of TensorFlow's error that says what failed: its first, or its last where
    autograph wraps it (`in user code:`, the traceback of the function, then the error)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()] \
        or [type(exc).__name__]
    return lines[-1] if lines[0] == "in user code:" else lines[0]


def _hlo_pb2():
    from tensorflow.compiler.xla.service import hlo_pb2
    return hlo_pb2


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(m.group(0), m.start()) for m in _TOKEN.finditer(text)]


def _is_number(tok: str) -> bool:
    return tok[0].isdigit()


def _in_shape(tokens, i: int) -> bool:
    """True when token i is a dimension inside `type[...]`."""
    j = i - 1
    while j >= 0 and (tokens[j][0] in (",", "<", "=") or _is_number(tokens[j][0])):
        j -= 1
    return j >= 1 and tokens[j][0] == "[" and tokens[j - 1][0] in ELEMENT_TYPES


def _line_at(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return text[start:end if end >= 0 else len(text)].strip()


def moving_dims(base: str, other: str, name: str, bound: int, size: int) -> set[int]:
    """Token indices of `base` (lowered at the bound) that are dimensions equal to the size
    `name`; UnsupportedError quoting the line where anything else moves."""
    a, b = _tokens(base), _tokens(other)
    if len(a) != len(b):
        raise UnsupportedError(f"the program's structure changes with '{name}' ({bound} -> "
                               f"{size}): TensorFlow lowers it differently per size")
    out, names = set(), _Names()
    for i, ((ta, pos), (tb, _)) in enumerate(zip(a, b)):
        same = names.same(ta, tb)
        if same is None:
            raise UnsupportedError(f"the program's structure changes with '{name}' ({bound} "
                                   f"-> {size}): '{ta}' stands for two instructions, in: "
                                   f"{_line_at(base, pos)[:300]}")
        if same:
            continue
        if _is_number(ta) and _is_number(tb) and _in_shape(a, i) and int(ta) > int(tb):
            out.add(i)  # the size or one computed from it (n+1 of a pad): inference
            continue    # derives the actual size from the data flow
        if ta == str(bound) and tb == str(size) and _is_slice_limit(a, i):
            cut = _sliced_dim(a, i)
            if cut is not None and (a[cut][0], b[cut][0]) == (ta, tb):
                continue  # slice [s:n] of a `<=B` dim at the bound: XLA's dynamic slice rule
                # gives it the size ceil((n - s)/stride), what TF wrote at each size; not
                # where the dim cut is another's (y[:n] of y [m, ...]: it gave m rows)
        raise UnsupportedError(f"size '{name}' is baked into the program: '{ta}' becomes "
                               f"'{tb}' when '{name}' goes from {bound} to {size}, in: "
                               f"{_line_at(base, pos)[:300]}")
    return out


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


def _is_slice_limit(tokens, i: int) -> bool:
    """True when token i is the limit of a `slice={[start:limit(:stride)], ...}` entry."""
    if i < 3 or tokens[i - 1][0] != ":" or tokens[i - 3][0] != "[":
        return False
    j = i - 3
    while j > 0 and tokens[j][0] != "{":
        j -= 1
    return j >= 2 and tokens[j - 1][0] == "=" and tokens[j - 2][0] == "slice"


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


def mark_bounded(text: str, indices: set[int]) -> str:
    """`text` with the tokens at `indices` (dimensions) written `<=N`; one that reads `<=N`
    already (a bound tf2xla wrote, which moves with the size) stays as it is."""
    pieces, last = [], 0
    for i, (tok, pos) in enumerate(_tokens(text)):
        if i in indices and text[max(pos - 2, 0):pos] != "<=":
            pieces += [text[last:pos], "<=" + tok]
            last = pos + len(tok)
    return "".join(pieces) + text[last:]


def tf_module(fn, shapes: list[str], bounds: dict) -> HloModule:
    """The HloModule of `fn` with each named dimension `<=bound` (see the module doc)."""
    try:
        import tensorflow  # noqa: F401
    except ImportError as exc:
        raise UnsupportedError(f"from_tf needs tensorflow ({exc}); pip install "
                               "\"dynhlo[tf]\"") from None
    bounds = named_bounds(bounds, low=2)  # each is compared with a smaller size
    parsed = [parse_symbolic_shape(s) for s in shapes]
    names = list(dict.fromkeys(d for _, dims in parsed for d in dims if isinstance(d, str)))
    missing = [n for n in names if n not in bounds]
    if missing or sorted(set(bounds) - set(names)):
        raise UnsupportedError(f"from_tf needs one bound per size name: names {names}, "
                               f"bounds {sorted(bounds)}")
    base, constants = lower_tf(fn, parsed, bounds)
    base = _without_metadata(base)
    marked: set[int] = set()
    for n in names:
        for size in (bounds[n] - 1, bounds[n] // 2 + 1 if bounds[n] > 3 else bounds[n] - 1):
            other, others = lower_tf(fn, parsed, {**bounds, n: size})
            marked |= moving_dims(base, _without_metadata(other), n, bounds[n], size)
            _same_constants(constants, others, n, bounds[n], size)
    module = parse_hlo(fill_elided_constants(mark_bounded(base, marked), constants))
    if len(module.entry.parameters) != len(parsed):
        raise UnsupportedError(f"TensorFlow's program takes {len(module.entry.parameters)} "
                               f"of the function's {len(parsed)} arguments: it folded the "
                               "others into constants (at zeros), so it cannot take them")
    _check_sized(module, _instructions_at(base, marked), names)
    return module


def _same_constants(base: list, other: list, name: str, bound: int, size: int) -> None:
    """UnsupportedError when an elided constant's values differ between two lowerings (the
    texts match token by token, so the k-th elided constants are the same instruction):
    compared as arrays, not as text, so a constant of millions of values costs no tokens."""
    for (inst, shape, a), (_, _, b) in zip(base, other, strict=True):
        if a.shape != b.shape or a.tobytes() != b.tobytes():
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
    for i, (_, pos) in enumerate(_tokens(text)):
        if i in indices:
            m = _DEFINED.match(_line_at(text, pos))
            if m:
                out.add(m.group(1))
    return out


_SHAPED_RANDOM = (Opcode.RNG_BIT_GENERATOR, Opcode.RNG)


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
            if inst.name in marked and inst.opcode in _SHAPED_RANDOM:
                raise UnsupportedError(
                    f"size {' or '.join(map(repr, names))} is the shape of the random numbers "
                    f"of instruction '{inst.name}' ({inst.shape}): they differ at each shape "
                    "(TensorFlow draws them at the actual size), so no one program gives "
                    "them at every size")
            if inst.name in marked and any(_unsized(tree, inst.shape)):
                raise UnsupportedError(
                    f"size {' or '.join(map(repr, names))} is baked into the program: "
                    f"instruction '{inst.name}' ({inst.shape}) has a dimension that follows "
                    "it, but nothing in the program computes that size (TensorFlow folded "
                    "it into a constant shape), so it would run at the bound")


def _unsized(tree, shape):
    """The dimensions declared dynamic that inference gives no size: a Sym computed from
    nothing, or a static size (a random number generator's shape is static in XLA)."""
    if isinstance(tree, list):
        for t, s in zip(tree, shape.elements):
            yield from _unsized(t, s)
        return
    yield from (d for d, dynamic in zip(tree, shape.dynamic)
                if dynamic and not (isinstance(d, Sym) and d.root().expr is not None))


def from_tf(fn, *shapes: str, bounds: dict, backend: str = "cpu", **compile_options):
    """Compile a TensorFlow function for every size within bounds.

    Args:
        fn: a function of tf tensors that `tf.function(fn, jit_compile=True)` can compile.
        shapes: one HLO shape string per argument, dimensions may be names (`"f32[n,16]"`).
        bounds: name -> upper bound (>= 2), one per name.
        backend, compile_options: as for dynhlo.compile.

    Returns:
        A dynhlo Executable (NumPy in, NumPy out at actual sizes); `.module` is the HLO.

    Raises:
        UnsupportedError: tensorflow missing (`pip install "dynhlo[tf]"`), a name without a
            bound, or a size baked into the program (the message quotes the HLO line).
    """
    return compile_module(tf_module(fn, list(shapes), dict(bounds)), backend, **compile_options)
