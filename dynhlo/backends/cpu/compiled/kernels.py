"""One fused group as one LLVM loop nest over the group's actual sizes.

The kernel is `i32 kernel(void* unused, i64* args)`: args holds the result's address
(dense, row-major at the root's actual sizes), the domain's sizes, then per input its
address, actual dims and strides in bytes (NumPy's, so views need no copy): one array the
runner fills in one pass. Nothing of a size is baked in: one kernel serves every size up
to the bound. It returns 1 without writing when an input is smaller than what it must read
(the runner then runs the group's reference lowerings, which name the fault), else 0.

Every value is reached through an index map from the domain: per dimension, `(axis, scale,
offset)` (index = offset + scale * i[axis]). A broadcast, transpose or slice rewrites the
map of its operand; an elementwise operation passes its own on, and so does a
set-dimension-size of a size the host knows (its size operand is not read). An input
dimension of actual size 1 is read with stride 0 (XLA's implicit broadcast of a dynamic
size 1). A reshape that only inserts or deletes dimensions of size 1 maps those to index 0.

A group with reductions (a row group) iterates over its reductions' operand shape, the
reduced dimensions trailing: per row (the kept indices), one loop over the reduced ones per
reduction, in dependency order, accumulating from the reduce's init in the row's order
(emit.combine: float sums and products may be reassociated into vector lanes, so they
agree with NumPy's pairwise sums within rounding, not bit for bit); then the root, either
at the row (shaped like the reductions) or over the reduced indices again (domain-shaped:
softmax's `exp(x - max) / sum` as one kernel).
Semantics: XLA operation semantics for each opcode, as the reference (ops_elementwise.py).
"""

from __future__ import annotations

import functools

from llvmlite import ir

from ....hlo import attrs, patterns
from ....hlo.opcodes import Opcode
from ...plan.fusion import FusionError, Group, dims_equal, kernel_operands
from .emit import FLOATS, INTS, combine, constant_exponent, emit, ir_type

I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)
UNIT = (0, 0, 0)     # the map of a dimension of size 1: index 0
# set-dimension-size: only of a size the host knows, of an operand holding that many
# elements (the planner asks shapes/host_sizes.py data_free): the operand at the same index
VIEWS = frozenset({Opcode.BROADCAST, Opcode.TRANSPOSE, Opcode.SLICE,
                   Opcode.SET_DIMENSION_SIZE, Opcode.RESHAPE})
# a reduction inside a kernel: one accumulator per row, combined in the row's order
REDUCERS = frozenset({Opcode.ADD, Opcode.MULTIPLY, Opcode.MAXIMUM, Opcode.MINIMUM,
                      Opcode.AND, Opcode.OR})
# what emit passes its one operand's value on for (its operand map differs, its value not)
_PASSED_ON = VIEWS | {Opcode.COPY}
# the opcodes whose operands are read through maps of their own (_operand_maps_of)
_OWN_MAPS = VIEWS | {Opcode.CONSTANT, Opcode.REDUCE}


def reducer(inst) -> Opcode | None:
    """The combining opcode of a reduce a kernel computes (REDUCERS), else None."""
    if len(inst.operands) != 2 or inst.shape.is_tuple:
        return None
    op = patterns.binary_reducer(inst.called["to_apply"][0])
    return op if op in REDUCERS else None


def degenerate_reshape(inst) -> bool:
    """A reshape that only inserts or deletes dimensions of static size 1 (`f32[<=n,1]` to
    `f32[<=n]`): its operand's index map is the result's with those dimensions dropped or
    read at 0. Judged from the declared shapes: the dimensions above 1 pair up in order
    with equal bounds and at most one dynamic (so equal element counts make them equal);
    the writer checks inference's sizes too."""
    out, operand = inst.shape, inst.operands[0].shape
    if out.is_tuple or operand.is_tuple:
        return False
    a, b = _non_unit(out), _non_unit(operand)
    return a == b and sum(dynamic for _, dynamic in a) <= 1


def _non_unit(shape) -> list:
    return [(d, dyn) for d, dyn in zip(shape.dims, shape.dynamic, strict=True)
            if dyn or d != 1]


class KernelSource:
    """A group's kernel before compilation: what it reads and computes, and its form.

    `info` is the computation invocation's inference; `key` is canonical: two groups with
    one key (the same layer of a model, repeated) have the same IR, so one compiled kernel
    serves both; `leaves` are the input instructions, pointers[1:] in this order; `members`
    the group's instructions in schedule order (the reference path). `ir()` writes the LLVM
    IR text (only for a form not compiled yet).
    """

    __slots__ = ("group", "info", "leaves", "members", "key", "_writer")

    def __init__(self, writer, members: list):
        self._writer = writer
        self.group = writer.group
        self.info = writer.info
        self.leaves = writer.leaves
        self.members = members
        self.key = writer.key()
        writer.forget()

    def ir(self) -> str:
        """The LLVM IR text of the kernel (function `kernel`)."""
        return self._writer.write()


def generate(group: Group, info, position: dict) -> KernelSource:
    """The loop nest of `group`, analysed (FusionError names an instruction to compute on
    its own); the IR is written on demand."""
    members = group.members if group.members is not None else _members(group)
    if all(m.opcode in VIEWS or m.opcode in (Opcode.COPY, Opcode.CONSTANT) for m in members):
        raise FusionError("a group of views only: the reference's NumPy views cost nothing")
    writer = _Writer(group, info)
    writer.analyse()
    return KernelSource(writer, sorted(members, key=position.__getitem__))


def _members(group: Group) -> set:
    out, stack = {group.root}, [group.root]
    inputs = set(group.inputs)
    while stack:
        for op in kernel_operands(stack.pop()):
            if op not in out and op not in inputs:
                out.add(op)
                stack.append(op)
    return out


def _storage(element_type: str) -> ir.Type:
    return I8 if element_type == "pred" else ir_type(element_type)


class _Writer:
    def __init__(self, group: Group, info):
        self.group, self.info = group, info
        self.inputs = set(group.inputs)
        self.leaves: list = []
        self.loads: list = []          # (leaf index, map): checked before the loops
        self.rank = len(group.domain)
        # a row group: the kept (leading) domain axes, then the reduced (trailing) ones
        self.kept = self.rank - len(group.reduced)
        self.root_kept = False         # the root has the kept axes' shape (a reduction's)
        self._maps: dict = {}          # (inst, map) -> _operand_maps's

    def analyse(self) -> None:
        """The leaves and the maps they are read through (FusionError: not one kernel)."""
        group = self.group
        if group.reduced:
            if tuple(group.reduced) != tuple(range(self.kept, self.rank)):
                raise FusionError("a reduction over other than the trailing dimensions",
                                  group.reduces[0])
            self.root_kept = self._root_is_kept()
        self._ids: dict = {}
        self._parts: list = []
        self._leaf: dict = {}          # leaf -> its index in `leaves`
        self._loaded: set = set()      # the entries of `loads`
        self._walk(group.root, self._root_map())

    def _root_is_kept(self) -> bool:
        dims = self.info.dims[self.group.root]
        for shape, kept in ((self.group.domain[:self.kept], True), (self.group.domain, False)):
            if len(dims) == len(shape) and all(dims_equal(a, b)
                                               for a, b in zip(dims, shape, strict=True)):
                return kept
        raise FusionError(f"'{self.group.root.name}' has neither the rows' nor the domain's "
                          "shape")

    def forget(self) -> None:
        """Drop what only analyse and key needed (the walk's values and the form's parts):
        a kernel source lives as long as its program, and write() makes its maps again."""
        self._maps = {}
        self._ids = self._parts = self._leaf = self._loaded = None

    def _root_map(self) -> tuple:
        return self._identity()[:self.kept] if self.root_kept else self._identity()

    def key(self) -> str:
        """The kernel's canonical form: everything write() reads, no instruction names."""
        leaves = tuple([(x.shape.element_type, len(x.shape.dims)) for x in self.leaves])
        return _form_text((self.rank, self.kept, self.root_kept,
                           self.group.root.shape.element_type, leaves, tuple(self.loads),
                           tuple(self._parts)))

    def _walk(self, inst, imap: tuple) -> int:
        """Collect what the value (inst, imap) reads (leaves, the maps they are read through;
        FusionError: not one kernel) and describe it for the key: the index in `_parts` of
        its description, its operands' first. A value used twice is walked once."""
        value = (inst, imap)
        ids = self._ids
        at = ids.get(value)
        if at is not None:
            return at
        op = inst.opcode
        if inst in self.inputs:
            leaf = self._leaf.get(inst)
            if leaf is None:
                leaf = self._leaf[inst] = len(self.leaves)
                self.leaves.append(inst)
            entry = (leaf, imap)
            if entry not in self._loaded:   # each (leaf, map) is walked once: new here
                self._loaded.add(entry)
                self.loads.append(entry)
            desc = ("load", leaf, imap)
        elif op is Opcode.CONSTANT:
            desc = ("constant", inst.shape.element_type, inst.literal.tobytes().hex())
        else:
            if op is Opcode.REDUCE:
                self._check_reduce(inst, imap)
            # a value is walked once (ids), so its maps are made once here; write() makes
            # them again into _maps (forget() drops the walk's state after the key)
            maps = self._operand_maps_of(inst, imap)
            walk = self._walk
            if op in _PASSED_ON:     # emit passes its operand's value on
                (operand, operand_map), = maps
                at = ids[value] = walk(operand, operand_map)
                return at
            args = tuple([walk(o, m) for o, m in maps])
            desc = (op.value, inst.shape.element_type,
                    tuple([o.shape.element_type for o in inst.operands]),
                    attrs.string(inst, "direction", "") if op is Opcode.COMPARE else
                    reducer(inst).value if op is Opcode.REDUCE else
                    # emit reads the exponent's constant through the graph, which may be
                    # outside the group (an input here): two powers differ only by it
                    constant_exponent(inst) if op is Opcode.POWER else "", args)
        at = ids[value] = len(self._parts)
        self._parts.append(desc)
        return at

    # --- the function: checks, then the loop nest -----------------------------------------
    def write(self) -> str:
        self.module = ir.Module(name="dynhlo_cpu")
        self.module.triple = ""
        fn = ir.Function(self.module, ir.FunctionType(I32, [I8.as_pointer().as_pointer(),
                                                           I64.as_pointer()]), "kernel")
        self.fn = fn
        self.sizes = fn.args[1]      # the first argument is not read (the same array)
        entry = fn.append_basic_block("entry")
        self.b = b = ir.IRBuilder(entry)
        self.domain = [self._size(1 + k) for k in range(self.rank)]
        self.fail = fn.append_basic_block("fail")
        self.leaf_info = [self._leaf_info(k, leaf) for k, leaf in enumerate(self.leaves)]
        # one accumulator per reduction (promoted to registers by LLVM)
        self.slots = {red: b.alloca(ir_type(red.shape.element_type))
                      for red in self.group.reduces}
        empty = ir.Constant(I1, 0)
        for size in self.domain[:self.kept]:   # an empty reduced extent still stores inits
            empty = b.or_(empty, b.icmp_signed("<=", size, ir.Constant(I64, 0)))
        done = fn.append_basic_block("done")
        work = fn.append_basic_block("check")
        b.cbranch(empty, done, work)
        b.position_at_end(work)
        for k, imap in self.loads:
            self._check(k, imap)
        out_type = self.group.root.shape.element_type
        out = b.inttoptr(self._size(0), _storage(out_type).as_pointer())
        self.cache: dict = {}
        if self.group.reduced:
            self.index = [None] * self.rank
            self._nest(list(range(self.kept)), lambda: self._row(out, out_type))
            b.branch(done)
        else:
            self._loops(0, [], ir.Constant(I64, 0), out, out_type, done)
        b.position_at_end(done)
        b.ret(ir.Constant(I32, 0))
        b.position_at_end(self.fail)
        b.ret(ir.Constant(I32, 1))
        return str(self.module)

    def _identity(self) -> tuple:
        return tuple((k, 1, 0) for k in range(self.rank))

    # --- row groups: per row, one pass per reduction, then the root -----------------------
    def _nest(self, axes: list, body) -> None:
        """Loops over the domain's `axes` (outermost first), each entered only when its
        size is above 0, with `body()` innermost; the builder ends after the nest. Values
        made inside a loop are forgotten after it (they do not dominate what follows)."""
        if not axes:
            body()
            return
        b, axis = self.b, axes[0]
        outer = dict(self.cache)
        head = b.block
        loop = self.fn.append_basic_block(f"row{axis}")
        after = self.fn.append_basic_block(f"row{axis}_end")
        b.cbranch(b.icmp_signed(">", self.domain[axis], ir.Constant(I64, 0)), loop, after)
        b.position_at_end(loop)
        i = b.phi(I64)
        i.add_incoming(ir.Constant(I64, 0), head)
        self.index[axis] = i
        self._nest(axes[1:], body)
        nxt = b.add(i, ir.Constant(I64, 1))
        i.add_incoming(nxt, b.block)
        b.cbranch(b.icmp_signed("<", nxt, self.domain[axis]), loop, after)
        b.position_at_end(after)
        self.cache = outer

    def _flat(self, axes) -> ir.Value:
        """The row-major offset of the current index over the domain's `axes`."""
        flat = ir.Constant(I64, 0)
        for axis in axes:
            flat = self.b.add(self.b.mul(flat, self.domain[axis]), self.index[axis])
        return flat

    def _row(self, out, out_type: str) -> None:
        """One row: each reduction's accumulator over the reduced axes (in dependency
        order), then the root at the row (kept-shaped) or over the reduced axes again."""
        b = self.b
        reduced = list(range(self.kept, self.rank))
        self.acc: dict = {}
        for red in self.group.reduces:
            slot = self.slots[red]
            b.store(self._value(red.operands[1], ()), slot)
            kind = reducer(red)
            element_type = red.shape.element_type

            def step(red=red, slot=slot, kind=kind, element_type=element_type):
                value = self._value(red.operands[0], self._identity())
                b.store(combine(b, self.module, kind, b.load(slot), value, element_type),
                        slot)

            self._nest(reduced, step)
            self.acc[red] = b.load(slot)
        root = self.group.root
        if self.root_kept:
            self._store(out, out_type, self._value(root, self._root_map()),
                        self._flat(range(self.kept)))
            return
        self._nest(reduced, lambda: self._store(out, out_type,
                                                self._value(root, self._identity()),
                                                self._flat(range(self.rank))))

    def _store(self, out, out_type: str, value, flat) -> None:
        if out_type == "pred":
            value = self.b.zext(value, I8)
        self.b.store(value, self.b.gep(out, [flat]))

    def _size(self, k: int):
        return self.b.load(self.b.gep(self.sizes, [ir.Constant(I64, k)]))

    def _leaf_info(self, k: int, leaf):
        """(pointer, dims, strides in elements) of input k, given as its address, dims and
        strides in bytes (NumPy's); a stride of a size-1 dimension is 0."""
        b, rank = self.b, len(leaf.shape.dims)
        base = 1 + self.rank + sum(1 + 2 * len(x.shape.dims) for x in self.leaves[:k])
        storage = _storage(leaf.shape.element_type)
        shift = ir.Constant(I64, {8: 0, 16: 1, 32: 2, 64: 3}[storage.width
                                                              if isinstance(storage, ir.IntType)
                                                              else _float_bits(storage)])
        dims = [self._size(base + 1 + d) for d in range(rank)]
        strides = []
        for d in range(rank):
            stride = b.ashr(self._size(base + 1 + rank + d), shift)   # exact: a multiple
            one = b.icmp_signed("==", dims[d], ir.Constant(I64, 1))
            strides.append(b.select(one, ir.Constant(I64, 0), stride))
        ptr = b.inttoptr(self._size(base), storage.as_pointer())
        return ptr, dims, strides

    def _check(self, k: int, imap: tuple) -> None:
        """Every index the map reaches is inside input k (or its dimension has size 1)."""
        b = self.b
        _, dims, _ = self.leaf_info[k]
        for d, (axis, scale, offset) in enumerate(imap):
            last = ir.Constant(I64, offset) if scale == 0 else \
                b.add(ir.Constant(I64, offset),
                      b.mul(ir.Constant(I64, scale), b.sub(self.domain[axis], ir.Constant(I64, 1))))
            inside = b.icmp_signed("<", last, dims[d])
            one = b.and_(b.icmp_signed("==", dims[d], ir.Constant(I64, 1)),
                         ir.Constant(I1, offset == 0))
            ok = b.or_(inside, one)
            next_block = self.fn.append_basic_block("checked")
            b.cbranch(ok, next_block, self.fail)
            b.position_at_end(next_block)

    def _loops(self, axis: int, index: list, flat, out, out_type, done) -> None:
        b = self.b
        if axis == self.rank:
            self.index = index
            self.cache = {}
            value = self._value(self.group.root, self._identity())
            if out_type == "pred":
                value = b.zext(value, I8)
            b.store(value, b.gep(out, [flat]))
            if axis == 0:
                b.branch(done)
            return
        head = b.block
        loop = self.fn.append_basic_block(f"loop{axis}")
        after = self.fn.append_basic_block(f"after{axis}")
        b.branch(loop)
        b.position_at_end(loop)
        i = b.phi(I64)
        i.add_incoming(ir.Constant(I64, 0), head)
        inner_flat = b.add(b.mul(flat, self.domain[axis]), i)
        self._loops(axis + 1, index + [i], inner_flat, out, out_type, after)
        nxt = b.add(i, ir.Constant(I64, 1))
        i.add_incoming(nxt, b.block)
        b.cbranch(b.icmp_signed("<", nxt, self.domain[axis]), loop, after)
        b.position_at_end(after)
        if axis == 0:
            b.branch(done)

    # --- what the group reads: inputs and the maps they are read through -----------------
    def _check_reduce(self, inst, imap: tuple) -> None:
        """A reduction computed in this group: it reduces the group's trailing axes of an
        operand of the domain's shape, and is read at its own row."""
        if inst not in self.group.reduces or \
                tuple(sorted(attrs.ints(inst, "dimensions"))) != tuple(self.group.reduced):
            raise FusionError(f"reduction '{inst.name}' reduces other dimensions", inst)
        dims = self.info.dims[inst.operands[0]]
        if len(dims) != self.rank or not all(
                dims_equal(a, b) for a, b in zip(dims, self.group.domain, strict=True)):
            raise FusionError(f"reduction '{inst.name}' reduces another shape", inst)
        kept = self.info.dims[inst]
        if len(imap) != self.kept or any(
                m != (k, 1, 0) and not (m == UNIT and _is_one(kept[k]))
                for k, m in enumerate(imap)):
            raise FusionError(f"reduction '{inst.name}' is read at another row", inst)

    def _reshape_map(self, inst, imap: tuple) -> tuple:
        """The operand's map of a reshape that inserts or deletes size-1 dimensions."""
        out_dims, in_dims = self.info.dims[inst], self.info.dims[inst.operands[0]]
        # `d != 1`: not _is_one(d) for a dim (an int, or a Sym, which equals only itself)
        out_big = [k for k, d in enumerate(out_dims) if d != 1]
        in_big = [k for k, d in enumerate(in_dims) if d != 1]
        if len(out_big) != len(in_big) or not all(
                out_dims[a] is in_dims[b] or dims_equal(out_dims[a], in_dims[b])
                for a, b in zip(out_big, in_big, strict=True)):
            raise FusionError(f"reshape '{inst.name}' moves elements between dimensions",
                              inst)
        out = [UNIT] * len(in_dims)
        for a, b in zip(out_big, in_big, strict=True):
            out[b] = imap[a]
        return tuple(out)

    def _operand_maps(self, inst, imap: tuple) -> list:
        """(operand, the map it is read through) of `inst` read through `imap`, made once
        per value while write() computes values (it reaches one value from several users)."""
        maps = self._maps.get((inst, imap))
        if maps is None:
            maps = self._maps[(inst, imap)] = self._operand_maps_of(inst, imap)
        return maps

    def _operand_maps_of(self, inst, imap: tuple) -> list:
        op = inst.opcode
        if op not in _OWN_MAPS:   # elementwise: every operand read at the result's index
            return self._elementwise_maps(inst, imap)
        if op is Opcode.CONSTANT:
            return []
        if op is Opcode.BROADCAST:
            dims = attrs.ints(inst, "dimensions")
            return [(inst.operands[0], tuple(imap[d] for d in dims))]
        if op is Opcode.TRANSPOSE:
            perm = attrs.ints(inst, "dimensions")
            out = [None] * len(perm)
            for k, p in enumerate(perm):
                out[p] = imap[k]
            return [(inst.operands[0], tuple(out))]
        if op is Opcode.SET_DIMENSION_SIZE:
            return [(inst.operands[0], imap)]
        if op is Opcode.RESHAPE:
            return [(inst.operands[0], self._reshape_map(inst, imap))]
        if op is Opcode.REDUCE:
            return [(inst.operands[0], self._identity()), (inst.operands[1], ())]
        if op is Opcode.SLICE:
            return [(inst.operands[0], tuple(
                (axis, scale * stride, start + stride * offset)
                for (axis, scale, offset), (start, _, stride) in zip(imap, attrs.slices(inst),
                                                                       strict=True)))]
        return self._elementwise_maps(inst, imap)

    def _elementwise_maps(self, inst, imap: tuple) -> list:
        maps = []
        dims = None
        inputs, info_dims = self.inputs, self.info.dims
        for operand in inst.operands:
            if not operand.shape.dims:
                maps.append((operand, ()))
                continue
            if operand not in inputs:
                if dims is None:
                    dims = info_dims[inst]
                operand_dims = info_dims[operand]
                # tuples equal element by element are one size each (a Sym equals only
                # itself): the per-dimension rule is for those that differ
                if operand_dims != dims and not all(
                        a is b or _same_or_cut(a, b)
                        for a, b in zip(operand_dims, dims, strict=True)):
                    raise FusionError(f"'{operand.name}' may broadcast a size 1 implicitly",
                                      operand)
            maps.append((operand, imap))
        return maps

    # --- values ---------------------------------------------------------------------------
    def _value(self, inst, imap: tuple):
        key = (inst, imap)
        if key not in self.cache:
            self.cache[key] = self._compute(inst, imap)
        return self.cache[key]

    def _compute(self, inst, imap: tuple):
        if inst in self.inputs:
            return self._load(inst, imap)
        if inst.opcode is Opcode.CONSTANT:
            return _constant(inst)
        if inst.opcode is Opcode.REDUCE:    # computed at the start of the row
            return self.acc[inst]
        args = [self._value(op, m) for op, m in self._operand_maps(inst, imap)]
        return emit(self.b, self.module, inst, args)

    def _load(self, inst, imap: tuple):
        b = self.b
        ptr, _, strides = self.leaf_info[self.leaves.index(inst)]
        offset = ir.Constant(I64, 0)
        for (axis, scale, start), stride in zip(imap, strides, strict=True):
            at = ir.Constant(I64, start) if scale == 0 else \
                b.add(ir.Constant(I64, start), b.mul(ir.Constant(I64, scale), self.index[axis]))
            offset = b.add(offset, b.mul(at, stride))
        value = b.load(b.gep(ptr, [offset]))
        return b.icmp_unsigned("!=", value, ir.Constant(I8, 0)) \
            if inst.shape.element_type == "pred" else value


@functools.lru_cache(maxsize=4096)
def _form_text(form: tuple) -> str:
    """repr(form): the groups of one form (a model's repeated layers) share one text, made
    once (a tuple's hash is a fraction of its repr's cost). A form holds ints, strings and
    tuples of them, one bool (root_kept) always a bool, and a power's exponent always a
    float or None, so two forms equal as tuples print alike (no 1 where another has True,
    nor 2 where another has 2.0)."""
    return repr(form)


def _float_bits(t) -> int:
    return 32 if isinstance(t, ir.FloatType) else 64


def _is_one(dim) -> bool:
    return isinstance(dim, int) and dim == 1


def _same_or_cut(operand_dim, dim) -> bool:
    """Whether an operand computed inside the kernel may be read at the user's indices: it
    is the same size, or a static one above 1 (XLA cuts it to the user's smaller size: a
    constant broadcast declared at the bound). A dynamic size that may be 1 where the
    user's is not (an implicit broadcast) is stored first instead."""
    return dims_equal(operand_dim, dim) or (isinstance(operand_dim, int) and operand_dim > 1)


def _constant(inst):
    element_type = inst.shape.element_type
    value = inst.literal.reshape(()).item()
    if element_type in FLOATS:
        return ir.Constant(FLOATS[element_type], float(value))
    if element_type == "pred":
        return ir.Constant(I1, int(bool(value)))
    bits = INTS[element_type]
    return ir.Constant(ir.IntType(bits), int(value) & ((1 << bits) - 1))

