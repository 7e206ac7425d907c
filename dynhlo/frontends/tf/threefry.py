"""ThreeFry random bits of a shape that follows a size (`tf.random.stateless_uniform(
tf.shape(x), alg="threefry")`), drawn as TensorFlow's XLA program draws them at the actual
size.

XLA's ThreeFry (rng_three_fry; xla/hlo/builder/lib/prng.cc, as dynhlo's CPU generator
backends/cpu/rng_bits.py follows it) gives 32-bit outputs two per 64-bit block: it halves
the shape along one axis (SplitShapeIntoHalves: the first even dimension, else the longest,
the first of equal ones), numbers the blocks of the halved shape in row-major order from the
state's counter, and puts a block's two words at neighbouring positions of that axis. For a
shape [n, c...] whose size n is the most major dimension, the bits of split axis k at n rows
are the first n rows of the bits of split axis k at the bound's rows (a row's blocks do not
depend on n, for k = 0 too: row r is word r % 2 of block row r // 2). Which axis XLA splits
depends on n, though ([n, 3] splits 0 at n = 2 and 1 at n = 1). So the rng-bit-generator
drawn at the bound is replaced by one draw per axis that some n in 1..B splits (a 64-bit
draw of the halved bound shape whose words are interleaved along that axis: the same
blocks), and a select of the axis XLA splits at the actual n, from a table of n -> axis.
The drawn bits are the bound's rows, cut to n (set-dimension-size, n read from the argument).

64-bit outputs take one block per element in row-major order: the first n rows are the
bits of n rows, and random.drawn_as_prefix takes them as drawn. Anything else (a size
in another dimension, the new state used: it advances by the number of blocks, which differs
per size) is left as written, and random refuses it. Outputs of 8 or 16 bits are the low
bits of the u32 outputs, and signed or float ones the same bits reinterpreted (XLA's rule).

May assume: `text` is a marked HLO text whose dims that follow a size are `<=B` (__init__.py).
"""

from __future__ import annotations

import re

from ...backends.cpu.rng_bits import split_axis
from ...hlo import attrs
from ...hlo.opcodes import Opcode
from ...hlo.text.parser import parse_hlo
from ...hlo.types import bit_width
from ..lowering_diff import entry_parameters, tokens
from .random import state_used

_LINE = re.compile(r"^(?P<indent>\s*)(?P<root>ROOT\s+)?%?(?P<name>[\w.\-]+)\s*=\s*"
                   r"(?P<shape>\([^()]*\))\s+rng-bit-generator\(")


def draw_three_fry_at_size(text: str, where_of, buffers=None) -> str:
    """`text` with each ThreeFry rng-bit-generator of the entry computation whose bits (8 to
    32 each) follow a size in their most major dimension alone, and whose new state is
    unused, replaced as the module doc says; `where_of(name)` is the argument dimension
    (parameter, dimension) whose size the bits' dimension 0 follows, or None; `buffers`
    are the arrays of the constants `text` refers to (`constant(#k)`)."""
    if "rng_three_fry" not in text:
        return text
    entry = parse_hlo(text, buffers).entry
    params = entry_parameters(text)
    lines = text.split("\n")
    for inst in entry.instructions:
        where = where_of(inst.name) if _drawn_per_axis(inst, entry) else None
        if where is None:
            continue
        number = next(k for k, line in enumerate(lines)
                      if (m := _LINE.match(line)) and m["name"] == inst.name)
        m = _LINE.match(lines[number])
        lines[number:number + 1] = _draws(m["indent"], m["root"] or "", inst, m["shape"],
                                          params[where[0]], where[1])
    return "\n".join(lines)


def bits_size(base: str, dims: dict, places: dict):
    """where(name): the argument dimension (parameter, dimension) whose size dimension 0 of
    the bits of rng-bit-generator `name` of `base` follows (its tuple shape's second array),
    or None."""
    toks = tokens(base)

    def where(name: str):
        k = next((k for k in range(len(toks) - 1)
                  if toks[k][0].lstrip("%") == name and toks[k + 1][0] == "="), None)
        opened = [j for j in range(k + 2, min(k + 64, len(toks)))
                  if toks[j][0] == "["] if k is not None else []
        size = dims.get(opened[1] + 1) if len(opened) > 1 else None
        return places.get(size) if size else None
    return where



def _drawn_per_axis(inst, entry) -> bool:
    """True for a ThreeFry draw of 8 to 32 bits whose only dynamic dimension is dimension 0,
    the most major in its layout, and whose new state nothing uses."""
    if inst.opcode is not Opcode.RNG_BIT_GENERATOR or \
            attrs.string(inst, "algorithm", "rng_default") != "rng_three_fry":
        return False
    bits = inst.shape.elements[1]
    major = bits.layout.minor_to_major[-1] if bits.layout and bits.rank else 0
    dynamic = [d for d, dyn in enumerate(bits.dynamic) if dyn]
    return _width(bits.element_type) in (8, 16, 32) and dynamic == [0] and major == 0 and \
        not state_used(inst, entry)


def axes_by_size(dims: tuple[int, ...]) -> list[int]:
    """The axis XLA splits for 32-bit ThreeFry bits of shape dims with dims[0] = n, for each
    n in 0..dims[0] (at 0, nothing is drawn: the bound's axis)."""
    rest = tuple(dims[1:])
    return [split_axis((n or dims[0],) + rest) for n in range(dims[0] + 1)]


def _draws(ind: str, root: str, inst, shape: str, param: str, pd: int) -> list[str]:
    """The lines that compute `inst`'s (state, bits) tuple by the module doc."""
    name, bits = inst.name, inst.shape.elements[1]
    dims = tuple(bits.dims)
    state = inst.operands[0]
    table = axes_by_size(dims)
    axes = sorted(set(table))
    out, values = [], []
    for k in axes:
        lines, value = _draw_split(ind, f"{name}.dynhlo_axis{k}", state, dims, k)
        out += lines
        values.append(value)
    chosen = values[-1]
    at = f"{name}.dynhlo_axis"
    out.append(f"{ind}{at}.n = s32[] get-dimension-size({param}), dimensions={{{pd}}}")
    if len(axes) > 1:
        out += [f"{ind}{at}.table = s32[{len(table)}] constant({{{', '.join(map(str, table))}}})",
                f"{ind}{at}.one = s32[1] dynamic-slice(s32[{len(table)}] {at}.table, s32[] "
                f"{at}.n), dynamic_slice_sizes={{1}}",
                f"{ind}{at} = s32[] reshape(s32[1] {at}.one)"]
        whole = _shape("u32", dims)
        for k, value in zip(axes[:-1], values[:-1], strict=True):
            at_k = f"{at}.is{k}"
            out += [f"{ind}{at_k}.k = s32[] constant({k})",
                    f"{ind}{at_k} = pred[] compare(s32[] {at}, s32[] {at_k}.k), direction=EQ",
                    f"{ind}{at_k}.all = {_shape('pred', dims)} broadcast(pred[] {at_k}), "
                    "dimensions={}",
                    f"{ind}{at_k}.bits = {whole} select({_shape('pred', dims)} {at_k}.all, "
                    f"{whole} {value}, {whole} {chosen})"]
            chosen = f"{at_k}.bits"
    first = f"{name}.dynhlo_axis{axes[0]}"
    state_shape = str(state.shape)
    element = bits.element_type
    if element != "u32":   # the low bits of the u32 outputs, reinterpreted (XLA's rule)
        width = _width(element)
        unsigned = f"u{width}"
        if width < 32:
            out.append(f"{ind}{at}.low = {_shape(unsigned, dims)} convert("
                       f"{_shape('u32', dims)} {chosen})")
            chosen = f"{at}.low"
        if element != unsigned:
            out.append(f"{ind}{at}.typed = {_shape(element, dims)} bitcast-convert("
                       f"{_shape(unsigned, dims)} {chosen})")
            chosen = f"{at}.typed"
    sized = str(bits.with_dims(dims, (True,) + (False,) * (len(dims) - 1)))
    out += [f"{ind}{name}.dynhlo_state = {state_shape} get-tuple-element({first}.draw), "
            "index=0",
            f"{ind}{name}.dynhlo_bits = {sized} set-dimension-size({_shape(element, dims)} "
            f"{chosen}, s32[] {at}.n), dimensions={{0}}",
            f"{ind}{root}{name} = {shape} tuple({state_shape} {name}.dynhlo_state, "
            f"{sized} {name}.dynhlo_bits)"]
    return out


def _draw_split(ind: str, at: str, state, dims: tuple[int, ...], k: int):
    """Lines of u32 bits of shape dims split along axis k, and the name of the result: the
    u64 blocks of the halved shape, their low and high words side by side along k."""
    half = dims[:k] + (-(-dims[k] // 2),) + dims[k + 1:]
    paired = half[:k + 1] + (2,) + half[k + 1:]
    joined = half[:k] + (2 * half[k],) + half[k + 1:]
    u64, u32 = _shape("u64", half), _shape("u32", half)
    one = _shape("u32", half[:k + 1] + (1,) + half[k + 1:])
    limits = ", ".join(f"[0:{d}]" for d in dims)
    return [
        f"{ind}{at}.draw = ({state.shape}, {u64}) rng-bit-generator({state.shape} "
        f"%{state.name}), algorithm=rng_three_fry",
        f"{ind}{at}.blocks = {u64} get-tuple-element({at}.draw), index=1",
        f"{ind}{at}.low = {u32} convert({u64} {at}.blocks)",
        f"{ind}{at}.c32 = u64[] constant(32)",
        f"{ind}{at}.c32s = {u64} broadcast(u64[] {at}.c32), dimensions={{}}",
        f"{ind}{at}.shifted = {u64} shift-right-logical({u64} {at}.blocks, {u64} {at}.c32s)",
        f"{ind}{at}.high = {u32} convert({u64} {at}.shifted)",
        f"{ind}{at}.low1 = {one} reshape({u32} {at}.low)",
        f"{ind}{at}.high1 = {one} reshape({u32} {at}.high)",
        f"{ind}{at}.pair = {_shape('u32', paired)} concatenate({one} {at}.low1, {one} "
        f"{at}.high1), dimensions={{{k + 1}}}",
        f"{ind}{at}.joined = {_shape('u32', joined)} reshape({_shape('u32', paired)} "
        f"{at}.pair)",
        f"{ind}{at} = {_shape('u32', dims)} slice({_shape('u32', joined)} {at}.joined), "
        f"slice={{{limits}}}",
    ], at


def _width(element: str) -> int | None:
    """Bits per element of random bits' type (pred is no such type)."""
    return None if element == "pred" else bit_width(element)


def _shape(element: str, dims) -> str:
    return f"{element}[{','.join(map(str, dims))}]"


__all__ = ["axes_by_size", "bits_size", "draw_three_fry_at_size"]
