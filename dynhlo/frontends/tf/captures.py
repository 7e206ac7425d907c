"""What a TensorFlow function captures (a tf.Variable, a Keras layer's weights, an eager
tensor) frozen into constants of the lowered program.

TensorFlow passes the captures to XLA as parameters after the function's own arguments, in
the order of the ConcreteFunction's `captured_inputs` (experimental_get_compiler_ir's
`args + captured_inputs`), a variable as its value. freeze_captures makes each of them a
constant of the value the capture has when from_tf lowers: its literal joins the elided
constants (`{...}`, literal_proto.py), written out once the comparison of lowerings is done,
so a model of millions of weights costs the comparison no tokens.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import UnsupportedError
from ...hlo.values import parse_shape

_PARAMETER = re.compile(r"^(?P<head>\s*%?(?P<name>[\w.\-]+)\s*=\s*(?P<shape>\S+)\s+)"
                        r"parameter\((?P<index>\d+)\)(?P<rest>.*)$")
_ELIDED = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*\S+\s+constant\(\{\.\.\.\}\)")


def capture_values(concrete) -> list[np.ndarray]:
    """The values of a ConcreteFunction's captured inputs, in their order (a variable's
    handle read through the variable)."""
    variables = {id(v.handle): v for v in concrete.variables}
    out = []
    for captured in concrete.captured_inputs:
        source = variables.get(id(captured))
        try:
            out.append(np.asarray((source if source is not None else captured).numpy()))
        except (AttributeError, TypeError, ValueError) as exc:
            raise UnsupportedError(f"from_tf cannot read the value of a captured input "
                                   f"{captured!r:.120}: {exc}") from None
    return out


def freeze_captures(text: str, constants: list, arguments: int,
                    values: list[np.ndarray]) -> tuple[str, list]:
    """(`text` with entry parameters `arguments`.. made elided constants of `values`, the
    elided constants in the order of the text); `constants` are those TensorFlow elided.
    May assume: TensorFlow's program has a parameter per input (check_inputs)."""
    if not values:
        return text, constants
    entry = text.find("\nENTRY ")
    head, body = text[:entry], text[entry:]
    lines = body.split("\n")
    given = {name: (shape, value) for name, shape, value in constants}
    end = next((k for k, line in enumerate(lines) if line.startswith("}")), len(lines))
    for k, line in enumerate(lines[:end]):   # the entry's own (computations may follow it)
        m = _PARAMETER.match(line)
        if m is None or int(m["index"]) < arguments:
            continue
        index = int(m["index"]) - arguments
        if index >= len(values):
            raise UnsupportedError(f"TensorFlow's program has parameter {m['index']} but the "
                                   f"function has {arguments} arguments and {len(values)} "
                                   "captured inputs")
        shape = parse_shape(m["shape"])
        value = values[index]
        if list(value.shape) != list(shape.dims):
            raise UnsupportedError(f"captured input {index} has shape {list(value.shape)}, "
                                   f"TensorFlow's parameter {m['index']} {m['shape']}")
        lines[k] = f"{m['head']}constant({{...}})"
        given[m["name"]] = (shape, value.astype(value.dtype.newbyteorder("=")))
    lines[1] = _entry_signature(lines[1], arguments)
    text = _without_layout(head) + "\n".join(lines)
    order = [m.group(1) for line in text.split("\n") if (m := _ELIDED.match(line))]
    return text, [(name, *given[name]) for name in order]


def _entry_signature(line: str, arguments: int) -> str:
    """`ENTRY %f (a: f32[8], w: f32[4,3]) -> ...` keeping the first `arguments` entries."""
    open_at = line.index("(")
    depth, parts, start = 0, [], open_at + 1
    for i in range(open_at, len(line)):
        c = line[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                parts.append(line[start:i])
                return line[:open_at + 1] + ",".join(parts[:arguments]).strip() + line[i:]
        elif c == "," and depth == 1:
            parts.append(line[start:i])
            start = i + 1
    return line


def _without_layout(head: str) -> str:
    """The module's header without `entry_computation_layout={...}` (which lists the
    parameters that are constants now; XLA's parser takes the entry's own)."""
    at = head.find(", entry_computation_layout={")
    if at < 0:
        return head
    depth, i = 0, head.index("{", at)
    for i in range(i, len(head)):
        depth += head[i] == "{"
        depth -= head[i] == "}"
        if depth == 0:
            break
    return head[:at] + head[i + 1:]


def check_inputs(text: str, inputs: int, sizes: dict) -> None:
    """LoweringRefused unless the entry of TensorFlow's program has `inputs` parameters:
    tf2xla leaves out an input it never reads (at no rows, a matmul's weights and the empty
    argument itself) and numbers the rest anew, so which is which is lost."""
    from .least import LoweringRefused
    entry = text[text.find("\nENTRY "):]
    found = sum(1 for line in entry[:entry.find("\n}")].split("\n") if _PARAMETER.match(line))
    if found != inputs:
        reason = (f"TensorFlow's program has {found} parameters for the function's {inputs} "
                  "inputs (arguments, then captures): it leaves out those it never reads, "
                  "folded into what it computes")
        raise LoweringRefused(f"{reason} (at sizes {sizes})", reason)


def capture_names(concrete) -> list[str]:
    """A name per captured input of a ConcreteFunction, in their order: a variable's
    (`dense/kernel`, without `:0`), else `capture_<k>` (an eager tensor); `_<k>` added to
    a name met before (unnamed tf.Variables are all `Variable`)."""
    variables = {id(v.handle): v for v in concrete.variables}
    names = []
    for k, captured in enumerate(concrete.captured_inputs):
        source = variables.get(id(captured))
        name = getattr(source, "path", None) or getattr(source, "name", None) \
            if source is not None else None
        name = name.split(":")[0] if name else f"capture_{k}"
        names.append(name if name not in names else f"{name}_{k}")   # tf.Variable()s
    return names
