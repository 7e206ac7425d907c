"""Random bits of a shape that follows a size (`tf.random.stateless_uniform(tf.shape(x))`):
when may the bits drawn at the bound stand for the bits drawn at the size?

XLA's Philox (rng_philox, and rng_default, which XLA expands to Philox) numbers its output
elements in row-major order and draws element k from counter k // 4 (k // 2 for 64-bit
bits), whatever the shape: the bits of [n, c...] are the first n rows of the bits of
[B, c...]. So an rng-bit-generator whose one dynamic dimension is its most major one (in
its layout) may draw at the bound and be cut to n rows (from_tf sets the size, __init__.py),
provided the new state it returns is not used: it advances by the number of bits drawn,
which differs per size. ThreeFry (rng_three_fry) numbers 64-bit outputs one block each in
row-major order (a prefix too), but puts the two words of a block of 32-bit outputs at
neighbouring positions of a dimension that the shape picks (its first even one): a smaller
shape may pair other elements. threefry.py draws those per dimension (before this module
sees them); the ones it leaves are refused, and so is XLA's older `rng` op.

tf.random.stateless_normal (its default algorithm) draws Philox bits of [ceil(n/2), 2, c...]
and pairs them (Box-Muller): a reshape to [2 ceil(n/2), c...], which TensorFlow slices to n
rows at odd sizes only. slice_pairs writes the slice at even sizes too (of all the rows), so
that the lowerings compare number by number; the first n of the bound's pairs are the pairs
at n, since the bits are.

May assume: `inst` is an instruction of a parsed module whose dims were marked `<=` where
they follow a size (__init__.py).
"""

from __future__ import annotations

import re

from ...backends.cpu.rng_bits import split_axis
from ...hlo import attrs
from ...hlo.opcodes import Opcode
from ..lowering_diff import tokens

_PREFIX_ALGORITHMS = ("rng_philox", "rng_default")
_WIDE = ("u64", "s64", "f64")   # one ThreeFry block per element, in row-major order


def drawn_as_prefix(inst, computation) -> str | None:
    """None when rng-bit-generator `inst` of `computation` draws at its bound bits whose
    first rows are the bits drawn at each smaller size (see the module doc); else why not
    (a phrase for an error message)."""
    if inst.opcode is not Opcode.RNG_BIT_GENERATOR:
        return f"XLA's {inst.opcode.value} draws no bits in a row-major order"
    algorithm = attrs.string(inst, "algorithm", "rng_default")
    bits = inst.shape.elements[1]
    if algorithm == "rng_three_fry" and bits.element_type not in _WIDE:
        return (f"algorithm={algorithm} pairs {bits.element_type} bits along a dimension that "
                "the shape picks; dynhlo draws them per dimension only where the size is "
                "the most major dimension alone and the new state is unused (threefry.py)")
    if algorithm not in _PREFIX_ALGORITHMS + ("rng_three_fry",):
        return (f"algorithm={algorithm} does not draw the bits of a smaller shape as the first "
                "rows of the bound's")
    dynamic = [d for d, dyn in enumerate(bits.dynamic) if dyn]
    major = bits.layout.minor_to_major[-1] if bits.layout and bits.rank else 0
    if dynamic != [major]:
        return (f"its bits {bits} follow the size in dimensions {dynamic}, not in the most "
                f"major dimension ({major}) alone: the bits at a smaller size are not the "
                "first rows of the bound's")
    if state_used(inst, computation):
        return ("the new state it returns is used, and it advances by the number of bits "
                "drawn, which differs per size")
    return None


def state_used(inst, computation) -> bool:
    """True when the root of `computation` depends on tuple element 0 (the new state) of
    `inst`: through any user but a get-tuple-element of index 1."""
    live, stack = set(), [computation.root]
    while stack:
        node = stack.pop()
        if id(node) in live:
            continue
        live.add(id(node))
        if node.opcode is Opcode.GET_TUPLE_ELEMENT and node.operands[0] is inst and \
                attrs.integer(node, "index") == 1:
            continue   # the bits alone
        if node is inst:
            return True
        stack.extend(node.operands)
    return False


# `%a = f32[8,3]{1,0} reshape(f32[4,2,3]{2,1,0} %b)`: pairs along a new dimension 1 made rows
_PAIRS = re.compile(r"^(?P<indent>\s*)%?(?P<name>(?P<op>[A-Za-z][\w\-]*)\.\d+)\s*=\s*"
                    r"(?P<type>[a-z][a-z0-9]*)\[(?P<rows>\d+)(?P<rest>(?:,\d+)*)\]"
                    r"(?P<layout>\{[^}]*\})?\s+reshape\((?P=type)\[(?P<half>\d+),2"
                    r"(?P=rest)\](?:\{[^}]*\})?\s+%?[\w.\-]+\)", re.M)


def slice_pairs(text: str) -> str:
    """`text` where each reshape of pairs of a TensorFlow op that draws random numbers
    (`T[2k, c...] reshape(T[k, 2, c...])`) that nothing slices is followed by a slice of all
    its rows, which its users read instead (see the module doc)."""
    for m in reversed(list(_PAIRS.finditer(text))):
        name, rows = m["name"], int(m["rows"])
        drawn = re.search(rf"^\s*%?{re.escape(m['op'])}\.\d+\s*=[^\n]*? rng-bit-generator\(",
                          text, re.M)
        use = re.compile(rf"%{re.escape(name)}(?![\w.\-])")
        if rows != 2 * int(m["half"]) or not drawn or \
                re.search(rf" slice\([^()]*%{re.escape(name)}\)", text):
            continue
        shape = f"{m['type']}[{rows}{m['rest']}]{m['layout'] or ''}"
        dims = [rows] + [int(d) for d in m["rest"].split(",") if d]
        limits = ", ".join(f"[0:{d}]" for d in dims)
        line = (f"\n{m['indent']}%{name}.dynhlo_pairs = {shape} slice({shape} %{name}), "
                f"slice={{{limits}}}")
        end = text.index("\n", m.end()) if "\n" in text[m.end():] else len(text)
        text = text[:end] + use.sub(f"%{name}.dynhlo_pairs", text[end:])
        text = text[:end] + line + text[end:]
    return text


def pairs_refusal(base: str, dims: dict, bounds: dict) -> str | None:
    """Why the normals drawn in pairs in `base` (the lowering at the bounds) cannot be its
    first rows at some size, or None: XLA pairs them along the dimension SplitShapeIntoHalves
    picks at the actual shape (the first even one, else the longest), and only pairs of rows
    are the bound's first rows. `dims` maps tokens of `base` to the size names they follow,
    `bounds` names to bounds."""
    bound_of = _bound_at(base, dims, bounds)
    for m in _PAIRS.finditer(base):
        bound = bound_of(m.start("rows"))
        rest = tuple(int(d) for d in m["rest"].split(",") if d)
        if bound is None:
            continue
        other = [n for n in range(1, bound + 1) if split_axis((n,) + rest) != 0]
        if other:
            return (f"XLA pairs the normals of {m['op']} (a Box-Muller transform of [n{m['rest']}]"
                    f") along another dimension than the rows at n in {other} (the first even "
                    "dimension, else the longest), where the bound's pairs of rows cannot stand "
                    "for them")
    return None


def _bound_at(base: str, dims: dict, bounds: dict):
    """bound_of(offset): the bound of the size that the number at that offset of `base`
    follows, or None."""
    at = {pos: i for i, (_, pos) in enumerate(tokens(base))}

    def bound_of(offset: int):
        name = dims.get(at.get(offset))
        return bounds[name] if name else None
    return bound_of
