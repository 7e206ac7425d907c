"""A kernel group's analysis reused for another group of the same structure (one plan check).

An artifact's stored plan is checked by analysing every kernel group again (kernels._Writer
.analyse: its leaves, the maps they are read through, its key). A model's repeated layers
give groups that differ only in which instructions they hold: the 48-layer transformer has
384 groups of 6 forms. `Forms` keeps, per group *structure*, what the analysis found, by
position, and hands it to the next group of that structure, its leaves remapped to that
group's inputs.

The structure (`signature`) is everything the analysis reads, by position, never by name:

  - the group: its rank, reduced axes, domain sizes, which member is the root, which are
    its reductions; per input (in `group.inputs` order, a repeated one by its first place)
    its element type, declared dims and inferred sizes;
  - per member in schedule order: opcode, element type, declared dims, inferred sizes,
    each operand as a member or input position (an operand that is neither: no signature,
    the group is analysed on its own), and what the walk reads of it: a constant's bytes,
    `dimensions` of a broadcast, transpose or reduce, `slice` of a slice, `direction` of a
    compare (as written: equal text decodes alike), a reduce's combining opcode, a power's
    constant exponent (emit reads it through the graph, maybe outside the group).

Sizes enter as shapes.sizes.size_key objects, compared by identity (Sym and interned Size
define no equality of their own): the analysis compares sizes only with `same_size`, which
is `size_key(a) is size_key(b)` for two Syms and `==` for ints (an int never equals a Sym or
its key), and asks of a size only whether it is the int 1. So two groups whose signatures
are equal, position for position, get the same answers to every question the walk asks:
the walk is one function of the structure, and its result for one group is the other's
with each instruction replaced by the one at its position. Only analyses that succeeded are
kept (a group that fails is analysed itself and names its own instruction).

A `Forms` lives for one computation's plan check: the sizes (union-find roots and their
keys) do not change while it lives, and it holds the key objects (no reused ids).
"""

from __future__ import annotations

import numpy as np

from ....hlo.opcodes import Opcode
from ....shapes.sizes import size_key
from .emit import constant_exponent
from .kernels import KernelSource, _Writer, generate, reducer

# the attribute each opcode's analysis reads (kernels._Writer._walk, _operand_maps_of,
# _check_reduce)
_READ = {Opcode.BROADCAST: "dimensions", Opcode.TRANSPOSE: "dimensions",
         Opcode.REDUCE: "dimensions", Opcode.SLICE: "slice", Opcode.COMPARE: "direction"}


class Forms:
    """Analyses of one computation's kernel groups, by signature."""

    __slots__ = ("done", "_keys", "hits")

    def __init__(self):
        self.done: dict = {}     # signature -> (root_kept, leaf input positions, loads, key)
        # Sym -> its size_key, and a tuple of dims -> theirs (many values share them)
        self._keys: dict = {}
        self.hits = 0

    def _sizes(self, dims) -> tuple | None:
        if dims.__class__ is list:   # a tuple-shaped value: the walk never reads one
            return None
        keys = self._keys
        done = keys.get(dims)        # a tuple of sizes (equal: the same ints and Syms)
        if done is not None:
            return done
        out = []
        for d in dims:
            if d.__class__ is int:
                out.append(d)
            else:
                k = keys.get(d)
                if k is None:
                    k = keys[d] = size_key(d)
                out.append(k)
        out = keys[dims] = tuple(out)
        return out

    def signature(self, group, info, members: list) -> tuple | None:
        """The structure of `group` (members: its members in schedule order) as the
        analysis reads it, or None when it has a part this does not describe."""
        dims = info.dims
        index = {m: k for k, m in enumerate(members)}
        first: dict = {}
        ins = []
        for j, x in enumerate(group.inputs):
            if x in index:
                return None
            k = first.setdefault(x, j)
            if k != j:
                ins.append(k)
                continue
            sizes = self._sizes(dims[x])
            if sizes is None:
                return None
            ins.append((x.shape.element_type, x.shape.dims, sizes))
        rows = []
        for m in members:
            refs = []
            for o in m.operands:
                k = index.get(o)
                if k is None:
                    k = first.get(o)
                    if k is None:
                        return None
                    k = -1 - k
                refs.append(k)
            sizes = self._sizes(dims[m])
            if sizes is None:
                return None
            op = m.opcode
            if op is Opcode.CONSTANT:
                if not isinstance(m.literal, np.ndarray):
                    return None
                read = m.literal.tobytes()
            elif op is Opcode.REDUCE:
                read = (m.attrs.get("dimensions"), reducer(m))
            elif op is Opcode.POWER:   # (its exponent's constant, perhaps not a member)
                read = constant_exponent(m)
            else:
                name = _READ.get(op)
                read = m.attrs.get(name) if name is not None else None
            rows.append((op, m.shape.element_type, m.shape.dims, sizes, tuple(refs), read))
        root = index.get(group.root)
        reduces = tuple(index.get(r) for r in group.reduces)
        domain = self._sizes(group.domain)
        if root is None or None in reduces or domain is None:
            return None
        return (group.reduced, domain, root, reduces, tuple(ins), tuple(rows))


def generate_in(forms: Forms, group, info, position: dict) -> KernelSource:
    """kernels.generate of `group` (FusionError as it raises), taking the analysis of a group
    of the same structure that `forms` holds; a new structure is analysed and kept."""
    members = group.members
    if members is None:
        return generate(group, info, position)
    ordered = sorted(members, key=position.__getitem__)
    form = forms.signature(group, info, ordered)
    done = forms.done.get(form) if form is not None else None
    if done is None:
        source = generate(group, info, position)
        if form is not None:
            writer, inputs = source._writer, group.inputs
            forms.done[form] = (writer.root_kept, tuple([inputs.index(x) for x in source.leaves]),
                                tuple(writer.loads), source.key)
        return source
    # generate's check of a group of views only: a group of this structure passed it
    forms.hits += 1
    root_kept, leaves, loads, key = done
    writer = _Writer(group, info)       # what write() reads, as analyse() and forget() leave it
    writer.root_kept, writer.loads = root_kept, list(loads)
    writer.leaves = [group.inputs[k] for k in leaves]
    writer._ids = writer._parts = writer._leaf = writer._loaded = None
    source = KernelSource.__new__(KernelSource)
    source._writer, source.group, source.info = writer, group, info
    source.leaves, source.members, source.key = writer.leaves, ordered, key
    return source
