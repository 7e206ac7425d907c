"""TensorFlow's own dynamic sizes: the function lowered once, each variable dimension of its
arguments padded to its bound and marked by tf2xla's XlaSetDynamicDimensionSize (TensorFlow's
`xla.set_dynamic_dimension_size(x, dim, n)`, the way it serves bounded inputs on TPUs).

tf2xla then computes every size itself, as it does for a TPU program of bounded inputs:
`tf.shape` is a get-dimension-size, a mean divides by it, a `tf.cond` on it is a conditional
on the run-time value, Where/boolean_mask/unique write their own `<=N` bounds, a range of the
size is an iota cut to it. Its program takes, after the function's arguments (at the bound),
one `s32[]` size per marked dimension, and the captures (captures.py) after those;
each argument passes through an identity reshape into a set-dimension-size to that size.

dynamic_entry turns that into dynhlo's form: the marked argument's entry parameter is
`f32[<=B,...]`, and each size parameter is a get-dimension-size of the dimension it marks,
so that the caller's actual size is the size tf2xla's program reads. What such a program
cannot see (a Python branch on a static shape, folded at the bound) the cross-check of
small.py catches, comparing it by value with TensorFlow's own program at other sizes.

May assume: `text` is TensorFlow's HLO text (experimental_get_compiler_ir, stage "hlo"), whose
entry parameters are written `%name = <shape> parameter(k)`.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import UnsupportedError
from ...hlo.types import to_numpy_dtype
from ...hlo.values import parse_shape

_PARAMETER = re.compile(r"^(?P<indent>\s*)%?(?P<name>[\w.\-]+)\s*=\s*(?P<shape>\S+)\s+"
                        r"parameter\((?P<index>\d+)\)(?P<rest>.*)$")
_RESHAPE = re.compile(r"^(?P<indent>\s*)%?(?P<name>[\w.\-]+)\s*=\s*(?P<shape>\S+)\s+"
                      r"reshape\((?P<operand_shape>\S+)\s+%?(?P<operand>[\w.\-]+)\)(?P<rest>.*)$")


def marked_dimensions(parsed: list) -> list[tuple[int, int, str]]:
    """(argument, dimension, size name) of each named dimension of the parsed shapes, in
    order: the order of the size parameters of TensorFlow's program."""
    return [(p, d, dim) for p, (_, dims) in enumerate(parsed)
            for d, dim in enumerate(dims) if isinstance(dim, str)]


def marking(fn, count: int, marks: list, shapes: list):
    """The function that TensorFlow lowers: fn of its first `count` arguments, each
    dimension of `marks` set to the size argument after them, in order; `shapes` are the
    static shapes TensorFlow's Python sees of the marked arguments (tf2xla's op gives them
    none, not even a rank)."""
    from tensorflow.compiler.tf2xla.python import xla

    def marked(*args):
        values, sizes = list(args[:count]), args[count:]
        for (p, d, _), n in zip(marks, sizes, strict=True):
            values[p] = xla.set_dynamic_dimension_size(values[p], d, n)
        for p in {p for p, _, _ in marks}:
            values[p].set_shape(shapes[p])
        return fn(*values)
    return marked


def dynamic_entry(text: str, arguments: int, marks: list, bounds: dict) -> str:
    """`text` (TensorFlow's program of `marking`, at the bounds, a parameter per input:
    captures.check_inputs) with each marked entry parameter `<=B` in its marked
    dimensions and each size parameter (`arguments`.. in the order of `marks`) a
    get-dimension-size of the dimension it marks; the parameters after them (captures)
    numbered from `arguments` on."""
    entry = text.find("\nENTRY ")
    if entry < 0:
        raise UnsupportedError("TensorFlow's program has no ENTRY computation")
    head, lines = text[:entry], text[entry:].split("\n")
    end = next((k for k, line in enumerate(lines) if line.startswith("}")), len(lines))
    # the entry's own parameters (computations may follow it)
    by_index = {int(m["index"]): (k, m) for k, line in enumerate(lines[:end])
                if (m := _PARAMETER.match(line))}
    dynamic = {}   # argument -> its shape text with `<=` bounds
    for p, d, name in marks:
        shape = dynamic.get(p) or by_index[p][1]["shape"]
        dynamic[p] = _bounded(shape, d, bounds[name])
    renamed = {}   # name of an argument's value -> its dynamic shape text
    for p, shape in dynamic.items():
        k, m = by_index[p]
        lines[k] = f"{m['indent']}%{m['name']} = {shape} parameter({p}){m['rest']}"
        renamed[m["name"]] = (m["shape"], shape)
    # tf2xla reads each argument through an identity reshape: it is the argument's shape
    for k, line in enumerate(lines[:end]):
        m = _RESHAPE.match(line)
        if m and m["operand"] in renamed and m["shape"] == m["operand_shape"]:
            shape = renamed[m["operand"]][1]
            lines[k] = (f"{m['indent']}%{m['name']} = {shape} reshape({shape} "
                        f"%{m['operand']}){m['rest']}")
            renamed[m["name"]] = (m["shape"], shape)
    for j, (p, d, _) in enumerate(marks):
        k, m = by_index[arguments + j]
        source = by_index[p]
        lines[k] = (f"{m['indent']}%{m['name']} = s32[] get-dimension-size({dynamic[p]} "
                    f"%{source[1]['name']}), dimensions={{{d}}}")
    for index, (k, m) in by_index.items():   # the captures: after the arguments now
        if index >= arguments + len(marks):
            lines[k] = (f"{m['indent']}%{m['name']} = {m['shape']} parameter("
                        f"{index - len(marks)}){m['rest']}")
    body = _retyped("\n".join(lines), renamed)
    return head + _entry_signature(body, by_index, dynamic, arguments, len(marks))



def _bounded(shape: str, d: int, bound: int) -> str:
    """`shape` text (`f32[8,3]{1,0}`) with dimension d written `<=bound`."""
    parsed = parse_shape(shape)
    if d >= len(parsed.dims) or parsed.dims[d] != bound:
        raise UnsupportedError(f"TensorFlow's parameter {shape} has no dimension {d} of the "
                               f"bound {bound}")
    open_at, close_at = shape.index("["), shape.index("]")
    dims = shape[open_at + 1:close_at].split(",")
    dims[d] = f"<={bound}"
    return shape[:open_at + 1] + ",".join(dims) + shape[close_at:]


def _retyped(body: str, renamed: dict) -> str:
    """`body` with each operand `<static shape> %name` of a renamed value given its dynamic
    shape."""
    for name, (static, shape) in renamed.items():
        body = re.sub(re.escape(static) + r"(\s+%" + re.escape(name) + r")(?![\w.\-])",
                      lambda m, s=shape: s + m.group(1), body)
    return body


def _entry_signature(body: str, by_index: dict, dynamic: dict, arguments: int,
                     sizes: int) -> str:
    """`body` with its ENTRY line's parameter list written anew: the arguments (dynamic
    where marked) and the captures, without the sizes."""
    lines = body.split("\n")
    line = lines[1]
    open_at = line.index("(")
    close_at = line.index(") ->")
    parts = []
    for index in sorted(by_index):
        if arguments <= index < arguments + sizes:
            continue
        m = by_index[index][1]
        shape = dynamic.get(index, m["shape"])
        parts.append(f"{m['name']}: {re.sub(r'{[^}]*}$', '', shape)}")
    lines[1] = line[:open_at + 1] + ", ".join(parts) + line[close_at:]
    return "\n".join(lines)


def lower_marked(fn, parsed: list, bounds: dict, known: bool, freeze: bool = True):
    """(TensorFlow's HLO text of `fn` lowered once at the bounds with its named dimensions
    marked dynamic, in dynhlo's form (dynamic_entry), the elided constants, the captures'
    (names, values)). `known`: the marked dimensions keep their bound as the static shape
    TensorFlow's Python sees (for code that needs one: `x.shape[0] + 1`); else that is None,
    and each size TensorFlow computes is computed at run time. `freeze`: the captures are
    constants of their values (captures.py), else parameters after the arguments."""
    import tensorflow as tf
    from tensorflow.compiler.xla.service import hlo_pb2

    from .literal_proto import elided_constants
    from .captures import capture_names, capture_values, check_inputs, freeze_captures
    from .least import LoweringRefused
    from .source import user_frames, user_sources
    marks = marked_dimensions(parsed)
    args = [np.zeros([bounds[d] if isinstance(d, str) else d for d in dims],
                     to_numpy_dtype(element)) for element, dims in parsed]
    shapes = [tf.TensorShape([None if isinstance(d, str) and not known else
                              bounds.get(d, d) for d in dims]) for _, dims in parsed]
    sizes = [np.int32(bounds[n]) for _, _, n in marks]
    compiled = tf.function(marking(fn, len(args), marks, shapes), jit_compile=True)
    try:
        lowered = compiled.experimental_get_compiler_ir(*args, *sizes)
        concrete = compiled.get_concrete_function(*args, *sizes)
        text = user_sources(lowered(stage="hlo"), user_frames(concrete.graph))
        constants = elided_constants(text, lowered(stage="hlo_serialized"), hlo_pb2) \
            if "{...}" in text else []
    except UnsupportedError:
        raise
    except Exception as exc:  # noqa: BLE001 - TF's refusals (ops XLA cannot compile, ...)
        reason = reason_of(exc)
        raise LoweringRefused(f"tensorflow cannot lower this function with its sizes "
                              f"marked dynamic (bounds {bounds}): {type(exc).__name__}: "
                              f"{reason[:300]}", reason) from exc
    values = capture_values(concrete)
    check_inputs(text, len(args) + len(marks) + len(values), bounds)
    text = dynamic_entry(text, len(args), marks, bounds)
    if freeze:
        text, constants = freeze_captures(text, constants, len(args), values)
        return text, constants, ([], [])
    return text, constants, (capture_names(concrete), values)


def reason_of(exc: Exception) -> str:
    """The line of TensorFlow's error that says what failed: its first, or its last where
    autograph wraps it (`in user code:`, the traceback of the function, then the error),
    with the graph node that failed where a later line names it (`{{node ...}}`: the op a
    size requirement names)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()] \
        or [type(exc).__name__]
    line = lines[-1] if lines[0] == "in user code:" else lines[0]
    line = line.removeprefix("Failed getting HLO text: '")
    node = _GRAPH_NODE.search(str(exc))
    return line if node is None or node.group(0) in line else f"{line} {node.group(0)}"


_GRAPH_NODE = re.compile(r"\{\{node [^}]+\}\}")
