"""Size constants: a number TensorFlow folded from the size n, `s32[] constant(n + c)` at every
lowering (a mean's divisor, a sort's count, a loop's trip count, a reverse loop's first index
n - 1), or of another type (`f32[] constant(n)`: the size cast to a float), read from the
size at run time: get-dimension-size, plus c, converted to the constant's type.

In the entry computation the size is the argument dimension's. Another computation (a while
loop's condition compares its counter with n) cannot read the arguments: what it can read is
its parameter, the loop's state, which carries the arrays the loop reads and writes
(TensorFlow's TensorLists, x itself). An array of it whose dimension follows the size and is
the bound B at the bound's lowering (lowering_diff marked it `<=B`) has the size n at run
time, for XLA's while keeps the sizes of its state from one iteration to the next (dynamic
dimension inference checks it); the constant reads that dimension, through get-tuple-elements
of the parameter. A computation whose parameter holds no such array is refused, naming the
constant's line.

May assume: `text` is the marked text (dims `<=B`), whose instruction names are unique in the
module (XLA's printer makes them so).
"""

from __future__ import annotations

import re

from ...errors import UnsupportedError
from ...hlo.values import parse_shape
from ..lowering_diff import entry_parameters

_CONSTANT = re.compile(r"^(?P<indent>\s*)(?P<root>ROOT\s+)?(?P<name>%?[\w.\-]+)\s*=\s*"
                       r"(?P<type>[a-z][a-z0-9]*)\[\]\s+constant\((?P<value>[^)]*)\)\s*$")
_PARAMETER = re.compile(r"^\s*(?P<name>%?[\w.\-]+)\s*=\s*(?P<shape>.*?)\s+parameter\(0\)")


def read_sizes(text: str, constants: dict[str, tuple[str, int]], places: dict,
               bounds: dict) -> str:
    """`text` with each constant of `constants` (instruction name -> (the size name n, c):
    it is n + c) computed from the size at run time (see the module doc); `places` maps a
    size name to its (parameter, dimension) of the entry computation."""
    if not constants:
        return text
    out: list[str] = []
    params = entry_parameters(text)
    for comp in _computations(text.split("\n")):
        entry = any(line.startswith("ENTRY") for line in comp)
        parameter = next((m for line in comp if (m := _PARAMETER.match(line))), None)
        for line in comp:
            m = _CONSTANT.match(line)
            if m is None or m["name"].lstrip("%") not in constants:
                out.append(line)
                continue
            size, c = constants[m["name"].lstrip("%")]
            if entry:
                p, d = places[size]
                found = (params[p], [], d)
            else:
                found = _path_to_size(parameter, bounds, size) if parameter else None
            if found is None:
                raise UnsupportedError(
                    f"size '{size}' is baked into the program: a constant that follows it in "
                    "a computation whose parameter carries no array of that size (a loop's "
                    f"state would), in: {line.strip()[:300]}")
            out += _read_size(m, found, c)
    return "\n".join(out)


def _computations(lines: list[str]):
    """The lines of `text` in groups: each computation's, and what lies between them."""
    group: list[str] = []
    for line in lines:
        group.append(line)
        if line.startswith("}"):
            yield group
            group = []
    if group:
        yield group


def _path_to_size(parameter, bounds: dict, size: str) -> tuple[str, list, int] | None:
    """(the parameter's name, the tuple indices and element shapes down to an array, its
    dimension) of the parameter's first array dimension `<=B` that follows size `size` (B
    its bound, which no other size has), or None."""
    bound = bounds[size]
    if sum(b == bound for b in bounds.values()) > 1:
        return None   # `<=B` could follow another size of the same bound
    shape = parse_shape(parameter["shape"])

    def walk(shape, path):
        if shape.is_tuple:
            for k, element in enumerate(shape.elements):
                found = walk(element, path + [(k, element)])
                if found is not None:
                    return found
            return None
        d = next((d for d, (b, dyn) in enumerate(zip(shape.dims, shape.dynamic, strict=True))
                  if dyn and b == bound), None)
        return None if d is None else (parameter["name"], path, d)

    return walk(shape, [])


def _read_size(m, found: tuple[str, list, int], c: int) -> list[str]:
    """The lines that define constant `m` (a _CONSTANT match) as the size at `found` plus c,
    in the constant's type."""
    ind, name = m["indent"], m["name"]
    value, path, d = found
    lines = []
    for step, (k, shape) in enumerate(path):
        at = f"{name}.dynhlo_state{step}"
        lines.append(f"{ind}{at} = {shape} get-tuple-element({value}), index={k}")
        value = at
    n = f"{name}.dynhlo_n"
    lines.append(f"{ind}{n} = s32[] get-dimension-size({value}), dimensions={{{d}}}")
    if c:
        lines += [f"{ind}{name}.dynhlo_c = s32[] constant({c})",
                  f"{ind}{name}.dynhlo_plus = s32[] add(s32[] {n}, s32[] {name}.dynhlo_c)"]
        n = f"{name}.dynhlo_plus"
    # a convert even to s32 (the identity): the constant's name then names the value
    return lines + [f"{ind}{m['root'] or ''}{name} = {m['type']}[] convert(s32[] {n})"]
