"""Triton source generation for one fused group (see plan/fusion.py for what a group is).

Every value of a group is computed as a function of an index: `value(inst, idx)` emits the
Triton expression of `inst` at the index tuple `idx` (one expression per dimension), using
the emitter of inst's opcode (the kernel tier of rules.py, passed in as `emitters`). Broadcasts, transposes, reshapes, slices and
gathers only rewrite the index; loads of external inputs compute their offset from the
input's actual sizes. So a group has no intermediate buffers, and padding is never read.

Two kernel shapes:
- elementwise: a 1-D grid over the output's elements (`x` in [0, numel)), masked by numel.
- row: a grid over the kept ("row") elements of the group's reductions, BM rows a program;
  the reduced ("column") elements are walked in BN-wide tiles: one pass per reduction (in
  dependency order), then a pass that stores the domain-shaped output. When the reduced
  extent's bound fits one tile the tile is loaded once ("persistent": no loop).

The writer produces one program's work at its program index `pid` (a KernelBody); `render`
puts it in either launch form, so every form is written here and none is made by editing
another's text:

- ARGS: every dynamic size is a scalar argument (`s0`, `s1`, ...), excluded from Triton's
  specialization (`do_not_specialize`), so one compiled kernel serves every size up to the
  bound; the grid comes from the actual sizes at launch (the plain and specialized runners).
- BUFFER: the kernel takes one pointer `sz` instead of its size arguments and loads `s0, s1,
  ...` from it, and loops its program index over the blocks of the actual size (`for pid in
  range(program_id, nblocks, num_programs)`): a CUDA graph fixes a launch's arguments and
  grid at capture, so the graph runner writes the sizes to the buffer before each replay,
  and a grid fixed at capture (at most the bound's blocks) does work proportional to the
  actual size. Everything else (masks, offsets from actual sizes) is the ARGS form's.

`epilogue(group, info, emitters, j)` writes an elementwise group as the epilogue of a matrix
product (graph/kernels.py's matmul): the group's input j is the product's accumulator tile
`acc`, its flat index `x` and mask `xmask` are the tile's, its other inputs are e0, e1, ...
"""

from __future__ import annotations

import math
import re
from typing import Callable

import numpy as np

from ....hlo import attrs
from ....hlo.ir import Instruction
from ....hlo.opcodes import Opcode
from ....hlo.types import to_numpy_dtype
from ....shapes.sizes import bound_of, is_meet, size_key
from . import reductions as lw
from .group import Epilogue, FusionError, Group, Kernel, KernelBody, canonical_dim, dims_equal
from .types import cast, triton_type

_NAME = re.compile(r"\b[a-z_][a-z_0-9]*\b")   # names in the writer's own expressions (deps_of)

# The launch forms `render` writes (module doc).
ARGS = "args"        # sizes as scalar arguments, a grid from the actual sizes
BUFFER = "buffer"    # sizes from the int32 buffer `sz`, a fixed grid striding over the work
FORMS = (ARGS, BUFFER)

_IMPORTS = ["import triton", "import triton.language as tl",
            "from dynhlo.backends.gpu.kernels import kmath as M", "", ""]
_INT32_LIMIT = 2 ** 31 - 1
PERSISTENT_MAX = 2048    # reduced extents up to this bound are held in one tile
ELEMENTWISE_BLOCK = 1024
# Row-kernel tiling, from runs on the H200 (bench/work_follows_size.py, 2026-11-30): with
# 4096-element tiles layernorm 65536x512 runs at 0.071 ms (floor 0.063) and 8192 rows at
# 0.012 ms (1024-element tiles: same at the bound, 0.017 ms at 8192 rows); attention's
# looped softmax over 16384 columns ran 8% faster with 1024-wide column tiles than 512.
ROW_TILE = 4096          # elements of one row-kernel tile (BM x BN)
LOOP_BN = 1024           # column tile of looped (non-persistent) reductions
ROW_WARPS = 4
# Narrow rows (BN <= 64) take smaller tiles on 2 warps. Softmax over 37 columns, 262144
# rows on the H200 (bench/narrow_rows.py, 2026-12-01): 16x64 tiles on 2 warps 47.6 us,
# 64x64 on 4 warps (the rule above) 85.7 us, 32x64 on 4 warps 54.5 us; a copy with the same
# access pattern 25 us.
NARROW_BN = 64
NARROW_TILE = 1024
NARROW_WARPS = 2
# A row kernel whose one reduced dimension is the minor one and narrow is "staged": its
# program's rows are one contiguous chunk of each full-shape input and of a full-shape
# output, loaded and stored as such (coalesced, vectors). The reductions see the chunk
# moved through shared memory by tl.gather into a [BN, BM] tile with a whole row per lane
# (reduced along axis 0 without shuffles, into [BM] vectors that the tile and the gather
# back both read); the root is computed on the chunk itself, each row's reduced values
# gathered back by row; the body is written twice, for whole chunks and for the last one
# (_split_last_chunk). Softmax over 37 columns, 262144 rows on the H200
# (bench/narrow_gather.py, 2026-12-02, session 8): 64 rows on 4 warps 26.3 us, on 2 warps
# 32.6, 128 rows on 8 warps 27.6, on 4 33.0; the result gathered back to the chunk through
# shared memory (two trips) 31.5 us; a copy of the same bytes 23.0 us, torch.softmax
# 40.1 us, floor 19.9 us.
# Staged only where the bound holds many rows: a 48-layer transformer's layernorms over 64
# features at <= 2048 rows ran 1.2x slower staged (fewer, longer programs; compare.py,
# 2026-12-02), and its first call passed 10 s.
STAGED_WARPS = 4
STAGED_ROWS = 64
# Registers per thread of a staged kernel: its last-chunk branch (scalar loads and stores)
# takes 127 unbounded, its whole-chunk branch 56, and the larger count would set every
# program's occupancy; at 72 neither spills (sm_90, bench/kernel_asm.py).
STAGED_MAX_REGISTERS = 72
STAGED_MIN_ROWS = 32768           # rows at the bound


# Bits of each float type a NaN constant is built from (codegen's const).
_NAN_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}

def row_tile(col_bound: int) -> tuple[int, int, int]:
    """(BM, BN, warps) of a row kernel whose reduced extents hold `col_bound` elements at
    the bound: persistent rows (<= PERSISTENT_MAX) in one power-of-two column tile, longer
    ones looped over LOOP_BN columns."""
    if col_bound > PERSISTENT_MAX:
        return max(1, ROW_TILE // LOOP_BN), LOOP_BN, ROW_WARPS
    bn = max(16, 1 << (col_bound - 1).bit_length())
    if bn <= NARROW_BN:
        return NARROW_TILE // bn, bn, NARROW_WARPS
    return max(1, min(64, ROW_TILE // bn)), bn, ROW_WARPS


class KernelWriter:
    """Builds one kernel's source; lowerings call back into value/let/size/load."""

    def __init__(self, group: Group, info, emitters: dict[Opcode, Callable],
                 product: int | None = None):
        """`product`: write the epilogue form (module doc) with input `product` the
        accumulator."""
        self.group = group
        self.info = info
        self.emitters = emitters
        self.lines: list[str] = []   # one program's work at `pid`, indented from depth 0
        self.indent = 0
        self.sfx = ""        # appended to every name the writer assigns (_split_last_chunk)
        self.warps = ROW_WARPS
        self.memo: dict = {}
        self.op_index: dict = {}
        self.deps: dict[str, frozenset] = {}
        self.counter = 0
        self.sizes: dict = {}   # size_key -> (argument name, a Sym of that size)
        self.inputs = {inst: f"in{k}" for k, inst in enumerate(group.inputs)}
        self.product = None if product is None else group.inputs[product]
        if self.product is not None:   # the others are the epilogue's inputs e0, e1, ...
            others = (i for i in group.inputs if i is not self.product)
            self.inputs = {inst: f"e{j}" for j, inst in enumerate(others)}
            self.inputs[self.product] = "acc"
        self.acc: dict[Instruction, tuple[tuple[str, ...], str]] = {}
        self.masks = {"x": "xmask", "r": "rmask", "c": "cmask"}
        self.wide = self._needs_int64()
        self.canonical: tuple | None = None
        self.flat: str | None = None
        self.staged: str | None = None   # the row length of a staged row kernel
        self.chunks: dict[Instruction, str] = {}   # staged: each whole input's flat chunk
        self.chunk_index: tuple | None = None      # staged: the domain index of the chunk
        self.work: str | None = None   # elements (rows) the grid covers, in blocks of `unit`
        self.unit = "BLOCK"

    # --- helpers lowerings use -------------------------------------------------------------

    def dims(self, inst: Instruction) -> tuple:
        return self.info.dims[inst]

    def size(self, dim) -> str:
        """The size of a dimension as a kernel expression: a literal or a size argument."""
        if isinstance(dim, int):
            return str(dim)
        root = canonical_dim(dim)
        if isinstance(root, int):
            return str(root)
        key = size_key(root)
        entry = self.sizes.get(key)
        if entry is None:
            entry = self.sizes[key] = (f"s{len(self.sizes)}", root)
        return entry[0]

    def let(self, expr: str) -> str:
        """Assign `expr` to a fresh variable (its index dependencies recorded)."""
        if _NAME.fullmatch(expr) and expr in self.deps:
            return expr
        name = f"v{self.counter}{self.sfx}"
        self.counter += 1
        self.deps[name] = self.deps_of(expr)
        self.emit(f"{name} = {expr}")
        return name

    def deps_of(self, expr: str) -> frozenset:
        out = frozenset()
        for n in _NAME.findall(expr):
            out |= self.deps.get(n, frozenset())
        return out

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def ttype(self, element_type: str) -> str:
        t = triton_type(element_type)
        if t is None:
            raise FusionError(f"element type {element_type} has no Triton type")
        return t

    def const(self, value, element_type: str) -> str:
        if isinstance(value, float) and value == 0 and math.copysign(1.0, value) < 0:
            # tl.full (scalar_constant) makes any value == 0 the type's null value, +0:
            # -0 is +0 times -1, made in f32 (exact in every float type) and cast
            wide = "tl.float64" if element_type == "f64" else "tl.float32"
            return f"(tl.full([], 0.0, {wide}) * -1.0).to({self.ttype(element_type)})"
        if isinstance(value, float) and math.isnan(value) and element_type in _NAN_BITS:
            # a NaN literal is +NaN (and the GPU's arithmetic canonicalizes): the value's
            # own bits, sign and payload, reinterpreted
            width = _NAN_BITS[element_type]
            bits = int(np.array(value, np.float64).astype(to_numpy_dtype(element_type))
                       .view(f"i{width // 8}"))
            return (f"tl.full([], {bits}, tl.int{width})"
                    f".to({self.ttype(element_type)}, bitcast=True)")
        # Triton's interpreter makes no bf16 scalar; a bf16 value is exact in f32
        if element_type == "bf16":
            return f"tl.full([], {lw.literal(value, element_type)}, tl.float32).to(tl.bfloat16)"
        return f"tl.full([], {lw.literal(value, element_type)}, {self.ttype(element_type)})"

    def index_type(self) -> str:
        return "tl.int64" if self.wide else "tl.int32"

    def value(self, inst: Instruction, idx: tuple[str, ...]) -> str:
        """The variable holding `inst` at index `idx` (emitting it once per index).

        Operands read at the same index (elementwise emitters, marked `same_index`) are
        emitted first, deepest first, from an explicit stack: a chain of thousands of
        elementwise ops needs no Python recursion (emitters then find them memoized).
        """
        var = self.memo.get((inst, idx))
        if var is not None:
            return var
        self._emit_operands_first(inst, idx)
        return self._value_one(inst, idx)

    def _emit_operands_first(self, inst: Instruction, idx: tuple[str, ...]) -> None:
        stack, seen = [(inst, idx, False)], set()
        while stack:
            node, at, ready = stack.pop()
            key = (node, at)
            if ready:
                if key not in self.memo and (node, at) != (inst, idx):
                    self._value_one(node, at)
                continue
            if key in self.memo or key in seen:
                continue
            seen.add(key)
            stack.append((node, at, True))
            if node in self.inputs or not getattr(self.emitters.get(node.opcode),
                                                  "same_index", False):
                continue
            for op in reversed(node.operands):
                stack.append((op, self.operand_index(node, op, at), False))

    def operand_index(self, inst: Instruction, op: Instruction, idx: tuple) -> tuple:
        """Where a same-index emitter reads operand `op` of `inst` at the result's `idx`:
        the same index (rank 0: the empty one), except where operands of different dynamic
        sizes meet (sizes.is_meet, XLA's elementwise rule): the result has the smaller
        size, so the index is in range, but an operand of size 1 broadcasts (index 0)."""
        if op.shape.rank != len(idx):
            return ()
        key = (inst, op, idx)
        out = self.op_index.get(key)
        if out is None:
            out = list(idx)
            for d, (dim, odim) in enumerate(zip(self.dims(inst), self.dims(op), strict=True)):
                if idx[d] != "0" and is_meet(dim) and not dims_equal(dim, odim):
                    out[d] = self.let(f"tl.where({self.size(odim)} == 1, 0, {idx[d]})")
            out = self.op_index[key] = tuple(out)
        return out

    def _value_one(self, inst: Instruction, idx: tuple[str, ...]) -> str:
        key = (inst, idx)
        var = self.memo.get(key)
        if var is not None:
            return var
        if inst in self.inputs:
            var = self.load(inst, idx)
        elif inst.opcode is Opcode.REDUCE:
            var = self._reduced_value(inst, idx)
        else:
            fn = self.emitters.get(inst.opcode)
            if fn is None:
                raise FusionError(f"no fused lowering for {inst.opcode.value}")
            var = fn(self, inst, idx)
        self.memo[key] = var
        return var

    def offset(self, dims: tuple, idx: tuple[str, ...]) -> str:
        """Row-major offset of `idx` in a contiguous array of actual sizes `dims`."""
        terms, stride = [], "1"
        for dim, i in reversed(list(zip(dims, idx, strict=True))):
            if not _NAME.fullmatch(i) and not i.isdigit():
                i = f"({i})"
            if i != "0":
                terms.append(i if stride == "1" else f"{i} * {stride}")
            size = self.size(dim)
            stride = size if stride == "1" else (
                str(int(stride) * int(size)) if stride.isdigit() and size.isdigit()
                else f"{stride} * {size}")
        return " + ".join(reversed(terms)) or "0"

    def mask_for(self, expr: str) -> str | None:
        deps = self.deps_of(expr)
        parts = [self.masks[a] for a in ("x", "r", "c") if a in deps]
        return " & ".join(parts) if parts else None

    def load(self, inst: Instruction, idx: tuple[str, ...]) -> str:
        ptr = self.inputs[inst]
        dims = self.dims(inst)
        domain_shaped = len(dims) == len(self.group.domain) and all(
            dims_equal(a, b) for a, b in zip(dims, self.group.domain, strict=True))
        whole = domain_shaped and idx == self.canonical
        if inst is self.product:   # the epilogue's accumulator, read where it was computed
            if not (whole and self.flat is not None):
                raise _NotEpilogue(f"the product '{inst.name}' is read at another index")
            return self.let(f"acc.to({self.ttype(inst.shape.element_type)})")
        if self.staged is not None and domain_shaped and idx in (self.canonical,
                                                                 self.chunk_index):
            chunk = self.chunks.get(inst)
            if chunk is None:
                chunk = self.chunks[inst] = self.let(
                    f"tl.load({ptr} + pid * BM * {self.staged} + f, mask=f < lim{self.sfx}, "
                    "other=0)")
            if idx == self.chunk_index:
                return chunk
            return self.let(f"tl.reshape(tl.gather({chunk}, gat, 0), [BN, BM])")
        if whole and self.flat is not None:
            off = self.flat
        else:
            off = self.offset(dims, idx)
        mask = self.mask_for(off)
        if mask is None:
            return self.let(f"tl.load({ptr} + {off})")
        return self.let(f"tl.load({ptr} + {off}, mask={mask}, other=0)")

    def padded(self, inst: Instruction, idx: tuple[str, ...], within: tuple = ()) -> str:
        """`inst` (a kernel input) at `idx`, zero where `idx` lies at or past its actual
        size in a dynamic dimension: XLA reads its buffer's padding there, and dynhlo's
        padding reads as zeros. A load masked by the actual sizes, never by what memory
        holds: values are dense at their actual sizes (past a row's end lies the next
        row), and a reused buffer (graph/buffers.py) holds stale data. `within`: more
        conditions (kernel expressions) the load is masked by (a concatenate's operand
        range). FusionError naming `inst` when it is no input: the planner puts it in
        memory and tries again."""
        if inst not in self.inputs:
            raise FusionError(f"'{inst.name}' is read past its actual size inside a kernel",
                              inst)
        if inst is self.product:
            raise _NotEpilogue(f"the product '{inst.name}' is read past its actual size")
        key = (inst, idx, "padded", within)
        var = self.memo.get(key)
        if var is not None:
            return var
        checks = [f"({i} < {self.size(dim)})" for dim, i in zip(self.dims(inst), idx, strict=True)
                  if not isinstance(canonical_dim(dim), int)] + list(within)
        off = self.offset(self.dims(inst), idx)
        mask = " & ".join(filter(None, [self.mask_for(off)] + checks))
        var = self.memo[key] = self.let(
            f"tl.load({self.inputs[inst]} + {off}, mask={mask}, other=0)" if mask
            else f"tl.load({self.inputs[inst]} + {off})")
        return var

    # --- reductions --------------------------------------------------------------------------

    def _reduced_value(self, inst: Instruction, idx: tuple[str, ...]) -> str:
        entry = self.acc.get(inst)
        if entry is None:
            raise FusionError(f"reduction '{inst.name}' is used before it is computed", inst)
        canonical, var = entry
        if self.chunk_index is not None and idx == self.chunk_index[:-1]:
            # a row's value read in the chunk's flat layout: gathered by row
            return self.let(f"tl.gather({var}, crow{self.sfx}, 0)")
        if idx != canonical:
            raise FusionError(f"reduction '{inst.name}' is read at another index", inst)
        if self.staged is not None:   # a [BM] vector, read in the [BN, BM] tile
            return self.let(f"{var}[None, :]")
        return var

    # --- whole kernels ---------------------------------------------------------------------

    def _needs_int64(self) -> bool:
        values = [self.group.root] + list(self.group.inputs)
        for inst in values:
            tree = self.info.dims[inst]
            if math.prod(max(bound_of(d), 1) for d in tree) > _INT32_LIMIT // 2:
                return True
        return math.prod(max(bound_of(d), 1) for d in self.group.domain) > _INT32_LIMIT // 2

    def _split(self, dims: tuple, flat: str, axis: str, prefix: str,
               nonzero: bool = False) -> list[str]:
        """Per-dimension index variables of the row-major flat index `flat` over `dims`;
        `nonzero`: divide by dynamic sizes of at least 1 (for lanes that a size of 0 masks
        but that still compute: an integer division by 0 is undefined in LLVM IR)."""
        out, stride = [None] * len(dims), "1"

        def divisor(expr: str) -> str:
            return f"tl.maximum({expr}, 1)" if nonzero and not expr.isdigit() else f"({expr})"

        for k in reversed(range(len(dims))):
            size = self.size(dims[k])
            if size == "1":
                out[k] = "0"
                continue
            expr = flat if stride == "1" else f"({flat} // {divisor(stride)})"
            if k > 0 and any(self.size(d) != "1" for d in dims[:k]):
                expr = f"{expr} % {divisor(size)}"
            name = f"{prefix}{k}{self.sfx}"
            self.deps[name] = frozenset(axis)
            self.emit(f"{name} = {expr}")
            out[k] = name
            stride = size if stride == "1" else f"{stride} * {size}"
        return out

    def numel(self, dims) -> str:
        parts = [self.size(d) for d in dims if self.size(d) != "1"]
        return " * ".join(f"({p})" for p in parts) or "1"

    def write(self) -> Kernel:
        group = self.group
        if group.reduced:
            kind, body = "row", self._row_body
        else:
            kind, body = "elementwise", self._elementwise_body
        block = body()
        return self._finish(kind, block)

    def write_epilogue(self) -> list[str]:
        """The epilogue form's lines (module doc), its store last; _NotEpilogue when the
        group is not of that form."""
        group = self.group
        if group.reduced or self.wide:
            raise _NotEpilogue("a row kernel or 64-bit offsets")
        self.deps["x"] = frozenset("x")
        self.numel(group.domain)   # the sizes in the order of the kernel's own
        self.flat = "x"
        self.canonical = tuple(self._split(group.domain, "x", "x", "x"))
        val = self.value(group.root, self.canonical)
        self._store(val, "x", "xmask")
        return self.lines

    def _elementwise_body(self) -> dict:
        group = self.group
        self.emit("x = pid * BLOCK + tl.arange(0, BLOCK)")
        self.deps["x"] = frozenset("x")
        numel = self.work = self.numel(group.domain)
        self.emit(f"xmask = x < {numel}")
        self.flat = "x"
        self.canonical = tuple(self._split(group.domain, "x", "x", "x"))
        val = self.value(group.root, self.canonical)
        self._store(val, "x", "xmask")
        return {"BLOCK": ELEMENTWISE_BLOCK}

    def _row_body(self) -> dict:
        group = self.group
        kept = [d for k, d in enumerate(group.domain) if k not in group.reduced]
        cols = [group.domain[k] for k in group.reduced]
        col_bound = math.prod(max(bound_of(d), 1) for d in cols)
        persistent = col_bound <= PERSISTENT_MAX
        bm, bn, self.warps = row_tile(col_bound)
        rows_bound = math.prod(max(bound_of(d), 1) for d in kept)
        staged = bn <= NARROW_BN and group.reduced == (len(group.domain) - 1,) and \
            rows_bound >= STAGED_MIN_ROWS
        # a staged kernel's tile is [BN, BM]: its gathered rows lie along the lanes
        self.emit("r = pid * BM + tl.arange(0, BM)" + ("[None, :]" if staged else "[:, None]"))
        self.deps["r"] = frozenset("r")
        self.unit = "BM"
        nrows, ncols = self.numel(kept), self.numel(cols)
        self.work = nrows
        self.emit(f"rmask = r < {nrows}")
        block = {"BM": bm, "BN": bn}
        if staged:
            block = self._stage_rows(nrows, ncols, bn)
            self._split_last_chunk(lambda: self._rows(kept, cols, ncols, persistent), nrows)
        else:
            self._rows(kept, cols, ncols, persistent)
        return block

    def _rows(self, kept: list, cols: list, ncols: str, persistent: bool) -> None:
        """A row kernel's work after its row index `r`: the reductions, then the output."""
        group = self.group
        rvars = self._split(tuple(kept), "r", "r", "r")
        self.flat = None
        self.row_canonical = tuple(rvars)
        canonical = []
        rit = iter(rvars)
        for k in range(len(group.domain)):
            canonical.append(None if k in group.reduced else next(rit))
        self.canonical_slots = canonical
        root_kept = self._is_kept_shaped(group.root, kept)
        if persistent:
            self._col_tile("0", cols, ncols)
            for red in group.reduces:
                self._reduce_pass(red, cols, ncols, loop=False)
            self._final(root_kept, cols, ncols)
        else:
            for red in group.reduces:
                self._reduce_pass(red, cols, ncols, loop=True)
            self._final(root_kept, cols, ncols, loop=True)

    def _stage_rows(self, nrows: str, ncols: str, bn: int) -> dict:
        """Index vectors of a staged row kernel (see STAGED_WARPS): `f` over the program's
        contiguous chunk of BM rows, `gat` from chunk to [BN, BM] tile (a row per lane)."""
        self.staged = ncols   # numel: parenthesized
        n = self.staged
        self.warps = STAGED_WARPS
        self.emit("f = tl.arange(0, FLAT)")
        self.emit("tc = tl.arange(0, BN)[:, None]")
        self.emit(f"gat = tl.reshape(tl.where(tc < {n}, tl.arange(0, BM)[None, :] * {n} + tc, "
                  "0), [BN * BM])")
        return {"BM": STAGED_ROWS, "BN": bn,
                "FLAT": 1 << (STAGED_ROWS * max(bound_of(self.group.domain[-1]), 1) - 1
                              ).bit_length()}

    def _is_kept_shaped(self, inst: Instruction, kept) -> bool:
        dims = self.dims(inst)
        if len(dims) == len(kept) and all(dims_equal(a, b) for a, b in zip(dims, kept,
                                                                           strict=True)):
            return True
        if len(dims) == len(self.group.domain) and all(
                dims_equal(a, b) for a, b in zip(dims, self.group.domain, strict=True)):
            return False
        raise FusionError(f"output '{inst.name}' has neither the rows' nor the domain's shape")

    def _col_tile(self, start: str, cols, ncols: str) -> None:
        across = "[:, None]" if self.staged is not None else "[None, :]"
        c, cmask = "c" + self.sfx, "cmask" + self.sfx
        self.masks["c"] = cmask
        self.emit(f"{c} = {start} + tl.arange(0, BN){across}")
        self.deps[c] = frozenset("c")
        self.emit(f"{cmask} = {c} < {ncols}")
        cvars = iter(self._split(tuple(cols), c, "c", "c"))
        slots = list(self.canonical_slots)
        for k in range(len(slots)):
            if slots[k] is None:
                slots[k] = next(cvars)
        self.canonical = tuple(slots)

    def _reduce_pass(self, red: Instruction, cols, ncols: str, loop: bool) -> None:
        operand, init = red.operands
        kind, acc_type = lw.reducer_kind(red)
        floating = acc_type.startswith("tl.float")
        kept_idx = self.row_canonical
        init_var = self.value(init, ())
        acc = f"acc{len(self.acc)}{self.sfx}"
        # a staged kernel's rows are reduced into [BM] vectors (along axis 0 of its
        # [BN, BM] tile), which the gather back to the chunk reads as they are
        axis, column = (0, "[BM]") if self.staged is not None else (1, "[BM, 1]")
        # the init broadcast as it is: 0 + init would make an init of -0 +0 (-0 + init is
        # init for every float init; tl.full makes any zero +0, so -0 is 0 * -1)
        base = f"tl.full({column}, 0, {acc_type})" + (" * -1.0" if floating else "")
        self.emit(f"{acc} = {base} + {cast(init_var, acc_type)}")
        saved, saved_index = dict(self.memo), dict(self.op_index)
        if loop:
            self.emit(f"for cstart in range(0, {ncols}, BN):")
            self.indent += 1
            self._col_tile("cstart", cols, ncols)
        full_idx = self._operand_index(red, kept_idx)
        val = self.value(operand, full_idx)
        ident = lw.identity(kind, red.operands[0].shape.element_type)
        if floating and kind == "sum":  # -0: a Triton literal 0 of either sign is +0
            filler = f"tl.full([], 0, {acc_type}) * -1.0"
        else:
            filler = lw.literal(ident, red.operands[0].shape.element_type)
        part = self.let(f"tl.where(rmask & {self.masks['c']}, {cast(val, acc_type)}, {filler})")
        # the loop-carried accumulator keeps its type: a tile reduction may promote (tl.max
        # of a small int gives int32), and compiled Triton refuses a loop variable whose
        # type changes (the interpreter does not check)
        reduced = lw.tile_reduce(kind, part, floating, axis, keep_dims=axis == 1)
        self.emit(f"{acc} = ({lw.combine(kind, acc, reduced, floating)}).to({acc_type})")
        if loop:
            self.indent -= 1
            self.memo, self.op_index = saved, saved_index
        out_type = self.ttype(red.shape.element_type)
        var = self.let(cast(acc, out_type))
        self.deps[var] = frozenset("r")
        self.acc[red] = (kept_idx, var)

    def _operand_index(self, red: Instruction, kept_idx) -> tuple[str, ...]:
        """The domain index of a reduction's operand: kept dims from the rows, reduced from c."""
        axes = tuple(sorted(attrs.ints(red, "dimensions")))
        if axes != tuple(sorted(self.group.reduced)):
            raise FusionError(f"reduction '{red.name}' reduces other dimensions", red)
        dims = self.dims(red.operands[0])
        if len(dims) != len(self.group.domain) or not all(
                dims_equal(a, b) for a, b in zip(dims, self.group.domain, strict=True)):
            raise FusionError(f"reduction '{red.name}' reduces another shape", red)
        return self.canonical

    def _final(self, root_kept: bool, cols, ncols: str, loop: bool = False) -> None:
        root = self.group.root
        if root_kept:
            val = self.value(root, self.row_canonical)
            off = self.offset(self.dims(root), self.row_canonical)
            self._store(val, off, "rmask")
            return
        if loop:
            self.emit(f"for cstart in range(0, {ncols}, BN):")
            self.indent += 1
            self._col_tile("cstart", cols, ncols)
        if self.staged is not None:
            self._staged_final()
            return
        val = self.value(root, self.canonical)
        off = self.offset(self.dims(root), self.canonical)
        self._store(val, off, f"rmask & {self.masks['c']}")
        if loop:
            self.indent -= 1

    def _staged_final(self) -> None:
        """The root of a staged row kernel, computed in the chunk's flat layout: whole
        inputs are their chunks as loaded, and each reduction's row value is gathered back
        by row. One trip through shared memory (the reductions' gather) instead of two:
        softmax over 37 columns, 262144 rows on the H200 (bench/narrow_gather.py,
        2026-12-02) 26.3 us with 64 rows on 4 warps, against 32.3 us with the result
        gathered back to the chunk (floor 19.9 us, a copy of the same bytes 23.0 us)."""
        root = self.group.root
        n = self.staged
        g, lim = "g" + self.sfx, "lim" + self.sfx
        self.masks["x"] = "xmask" + self.sfx
        self.emit(f"{g} = pid * BM * {n} + f   # the domain's flat index")
        self.emit(f"{self.masks['x']} = f < {lim}")
        # a dynamic row length may be 0: every lane is masked then, but still divides
        per_row = n if n.strip("()").isdigit() else f"tl.maximum({n}, 1)"
        self.emit(f"crow{self.sfx} = tl.where(f < BM * {n}, f // {per_row}, 0)   "
                  "# the row within the chunk")
        self.deps[g] = frozenset("x")
        self.chunk_index = tuple(self._split(self.group.domain, g, "x", "g", nonzero=True))
        val = self.value(root, self.chunk_index)
        t = self.ttype(root.shape.element_type)
        flat = self.let(f"tl.broadcast_to({cast(val, t)}, (FLAT,))")
        self.emit(f"tl.store(out + pid * BM * {n} + f, {flat}, mask=f < {lim})")

    def _split_last_chunk(self, body: Callable[[], None], nrows: str) -> None:
        """The staged body written twice: for whole chunks, whose end `lim` is a multiple
        of BM rows (Triton then knows masks at `lim` hold for 4 elements at a time: vector
        loads and stores), and for the last chunk, which may end inside a vector. The last
        chunk's copy names its values apart (every name it assigns ends in `_t`): Triton
        carries a name assigned in both branches out of the `if` (a merge of every value,
        which also needs one type in both), and that merge costs what the split saves.
        Softmax over 37 columns at 262144 rows, kernel time on the H200
        (bench/staged_forms.py, 2026-12-02): the last chunk's loads and stores repeated
        under `if lim4 < lim` 30.5 us, the body split with shared names 31.0 us, without any
        last-chunk code 21.9 us."""
        n = self.staged
        state = self._state()
        self.emit(f"if (pid + 1) * BM <= {nrows}:   # a whole chunk")
        self.indent += 1
        self.emit(f"lim = BM * {n}")
        body()
        self.indent -= 1
        self._restore(state)
        self.sfx = "_t"
        self.emit("else:   # the last chunk")
        self.indent += 1
        self.emit(f"lim_t = ({nrows} - pid * BM) * {n}")
        body()
        self.indent -= 1
        self.sfx = ""

    # what one pass of a body changes (sizes are kept: both passes name the same)
    _PASS_STATE = ("memo", "op_index", "deps", "counter", "acc", "masks", "canonical", "flat",
                   "chunks", "chunk_index")

    def _state(self) -> dict:
        return {name: (value.copy() if isinstance(value, dict) else value)
                for name in self._PASS_STATE for value in [getattr(self, name)]}

    def _restore(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value.copy() if isinstance(value, dict) else value)

    def _store(self, val: str, off: str, mask: str) -> None:
        root = self.group.root
        t = self.ttype(root.shape.element_type)
        # the pointer takes every axis of its mask: a scalar output (one lane per program
        # stores), or a root whose reduced extent is 1 (rows of one column: its offset has
        # no `c`, and Triton refuses a [BM, BN] mask on a [BM, 1] pointer)
        deps = self.deps_of(off)
        for axis in [a for a in ("x", "r", "c") if self.masks[a] in mask.split(" & ")]:
            if axis not in deps:
                off = f"{off} + 0 * {axis}"
        self.emit(f"tl.store(out + {off}, {cast(val, t)}, mask={mask})")

    def _finish(self, kind: str, block: dict) -> Kernel:
        syms = sorted(self.sizes.values(), key=lambda e: int(e[0][1:]))
        body = KernelBody(pointers=list(self.inputs.values()) + ["out"],
                          sizes=[name for name, _ in syms], constexprs=list(block),
                          lines=self.lines, work=self.work, unit=self.unit, wide=self.wide)
        return Kernel(name="kernel", source=render(body, ARGS), group=self.group,
                      size_syms=[sym for _, sym in syms], kind=kind, block=block,
                      num_warps=4 if kind == "elementwise" else self.warps,
                      maxnreg=STAGED_MAX_REGISTERS if self.staged is not None else None,
                      body=body)


class _NotEpilogue(Exception):
    """The group is not of the epilogue form (KernelWriter.write_epilogue)."""


def render(body: KernelBody, form: str = ARGS) -> str:
    """The source of a generated kernel in launch form `form` (ARGS or BUFFER, module doc).

    Both forms declare the pointers, then the sizes (ARGS: as i32 arguments; BUFFER: loaded
    from `sz`), then the block constexprs; the program's work is the body's lines at `pid`
    (BUFFER: inside the loop over the work's blocks)."""
    if form not in FORMS:
        raise ValueError(f"launch form {form!r} is not one of {FORMS}")
    consts = [f"{k}: tl.constexpr" for k in body.constexprs]
    # Sizes arrive as i32; products of them (numel, strides) must not wrap in i32 when
    # the bound's element count needs 64-bit offsets.
    widen = [f"    {n} = {n}.to(tl.int64)" for n in body.sizes] if body.wide else []
    first = "tl.program_id(0)" + (".to(tl.int64)" if body.wide else "")
    if form == ARGS:
        head = [f"@triton.jit(do_not_specialize={body.sizes!r})",
                f"def kernel({', '.join(body.pointers + body.sizes + consts)}):"]
        head += widen + [f"    pid = {first}"]
        pad = "    "
    else:
        head = ["@triton.jit", f"def kernel({', '.join(body.pointers + ['sz'] + consts)}):"]
        head += [f"    {n} = tl.load(sz + {k})" for k, n in enumerate(body.sizes)] + widen
        # 64-bit offsets: the loop index is 64-bit from its start (Triton promotes the
        # bounds to one type; the interpreter's index is a Python int, which has no .to()).
        head += [f"    nblocks = tl.cdiv({body.work}, {body.unit})",
                 f"    for pid in range({first}, nblocks, tl.num_programs(0)):"]
        pad = "        "
    return "\n".join(_IMPORTS + head + [pad + line for line in body.lines]) + "\n"


def generate(group: Group, info, emitters: dict[Opcode, Callable]) -> Kernel:
    """Triton source for a group; FusionError when the group cannot be one kernel.

    `emitters[opcode](writer, inst, idx) -> var` emits one instruction (the kernel tier of
    the GPU rule table, rules.py).
    """
    return KernelWriter(group, info, emitters).write()


def epilogue(group: Group, info, emitters: dict[Opcode, Callable], product: int
             ) -> Epilogue | None:
    """The epilogue form (module doc) of an elementwise group whose input `product` is a
    matrix product of the group's own shape, read once at the flat index; None when the
    group is not of that form (a row kernel, 64-bit offsets, the product read elsewhere)."""
    writer = KernelWriter(group, info, emitters, product)
    try:
        lines = writer.write_epilogue()
    except _NotEpilogue:
        return None
    syms = sorted(writer.sizes.values(), key=lambda e: int(e[0][1:]))
    return Epilogue(lines, len(group.inputs) - 1, [sym for _, sym in syms])
