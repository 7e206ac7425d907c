"""What the compiled CPU path's steps are made of: the step kinds, a fused group's compiled
kernel (CompiledKernel), a matrix product (MatmulDot), the per-thread buffers steps write
(Pool, pooled) and the argument-shape signature specs are keyed by. runner.py plans and
walks the steps, fast.py specializes them to one key.
"""

from __future__ import annotations

import ctypes
import math
from array import array

import numpy as np

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ....hlo.types import to_numpy_dtype
from ...plan import buffers
from ...plan.fusion import dims_equal

_PARAM, _KERNEL, _LOWERING, _RESHAPE, _DOT, _UFUNC = 0, 1, 2, 3, 4, 5
_KERNEL_IN_PLACE = 6   # a specialized kernel step with nothing to write per call (Fast)
_SPECIAL = 7   # a lowering specialized to the key's sizes and folded values (special.py)
_GUARD = 8     # after a step whose shape or value later sizes read: compared with the spec's
_ELEMENT = 9   # a get-tuple-element (Fast): the element, its shape compared with the spec's
_TUPLE = 10    # a tuple (Fast): its operands' values, their shapes compared with the spec's
_SPECIAL_ONE = 11   # a _SPECIAL of one value read per call (its shape compared inline)
_MEMO_LOAD, _MEMOIZED, _MEMO_STORE = 12, 13, 14   # values kept per counter (memo.py)
_UNPACK = 15   # every get-tuple-element of a parameter whose shapes are the key's, at once
_SPECIAL_TWO = 16   # a _SPECIAL of two values read per call (dots, binary functions)
_BATCH_DOT = 17   # any other f32/f64 dot, as the reference computes it (batch_dot.py)
_CHAIN = 18   # a run of native calls with arguments known at its start, one call (native_chain.py)
_LOOP = 19   # a counted while loop through the plan of its iterations (loop_body.PlannedLoop)
_MATMUL_TYPES = frozenset({"f32", "f64"})
# Transcendental functions stay NumPy's ufuncs (the reference's own results, SIMD): on a
# dense f32/f64 operand the compiled path calls the same ufunc with `out=` a reused buffer
# (the reference's lowering, ops_elementwise.UNARY, applies exactly these to such arrays).
_UFUNCS = {Opcode.EXP: np.exp, Opcode.EXPM1: np.expm1, Opcode.LOG: np.log,
           Opcode.LOG1P: np.log1p, Opcode.TANH: np.tanh, Opcode.SINE: np.sin,
           Opcode.COSINE: np.cos, Opcode.TAN: np.tan, Opcode.ATAN: np.arctan,
           Opcode.SINH: np.sinh, Opcode.COSH: np.cosh, Opcode.ASINH: np.arcsinh,
           Opcode.ACOSH: np.arccosh, Opcode.ATANH: np.arctanh, Opcode.ASIN: np.arcsin,
           Opcode.ACOS: np.arccos}


def _probe_address():
    """The fastest reading of an exact ndarray's data address this interpreter allows: the
    `data` field of NumPy's array struct, right after the object header (a plain load,
    ~6x cheaper than `.ctypes.data`), when probing shows it is there; else `.ctypes.data`."""
    offset = object.__basicsize__
    base = np.arange(12.0).reshape(3, 4)
    probes = [base, base[1:, ::2], base.T, np.empty(0, np.int8), np.zeros((), np.float32)]
    read_only = base[1:].view()
    read_only.flags.writeable = False
    probes.append(read_only)
    load = ctypes.c_void_p.from_address
    try:
        if all((load(id(a) + offset).value or 0) == a.ctypes.data for a in probes):
            return lambda a: load(id(a) + offset).value or 0
    except (OSError, ValueError):   # pragma: no cover - a layout this probe cannot read
        pass
    return lambda a: a.ctypes.data   # pragma: no cover


# The data address of an exact np.ndarray (never another type: the struct is NumPy's).
data_address = _probe_address()


def blas_layout(a: np.ndarray) -> np.ndarray:
    """`a` (a 2-d operand of a matrix product) when it is one dense block of positive
    strides, else the copy the reference's dot passes np.matmul (ops_reduce.dot's `astype`:
    same element order, positive strides): NumPy's matmul computes a negative-, zero- or
    gapped-stride operand by another loop (a 1-row product differs in the last bits), so
    the compiled path hands it what the reference hands it."""
    flags = a.flags
    if (flags.c_contiguous or flags.f_contiguous) and min(a.strides) > 0:
        return a
    return a.astype(a.dtype)


class MatmulDot:
    """A dot that is one matrix product of two matrices (no batch dimensions, one
    contracting dimension each, f32 or f64 in and out): `np.matmul` of the operands, each
    transposed as a view where its contracting dimension says so.

    The reference (ops_reduce.dot) passes NumPy's matmul the same layouts (its transposes
    are views too, its astype keeps them), so the result is the reference's bit for bit;
    what this saves is the attribute parsing, reshapes and copies of every call. Operands
    whose contracting sizes differ go to the reference lowering, which names them.
    """

    __slots__ = ("lhs", "rhs", "lhs_t", "rhs_t")

    def __init__(self, inst, lhs_t: bool, rhs_t: bool):
        self.lhs, self.rhs = inst.operands
        self.lhs_t, self.rhs_t = lhs_t, rhs_t

    @staticmethod
    def of(inst):
        """The MatmulDot of `inst`, or None when it is not one matrix product."""
        lhs, rhs = inst.operands
        lb, rb, lc, rc = attrs.dot_dims(inst)
        if lb or rb or len(lc) != 1 or len(rc) != 1 or lhs.shape.rank != 2 or \
                rhs.shape.rank != 2 or inst.shape.element_type not in _MATMUL_TYPES or \
                lhs.shape.element_type != inst.shape.element_type or \
                rhs.shape.element_type != inst.shape.element_type:
            return None
        return MatmulDot(inst, lc[0] == 0, rc[0] == 1)

    @staticmethod
    def reading(inst, lhs, lhs_t: bool, rhs, rhs_t: bool):
        """The product of `inst` reading other operands: a transpose's operand, flipped."""
        dot = MatmulDot(inst, lhs_t, rhs_t)
        dot.lhs, dot.rhs = lhs, rhs
        return dot


class CompiledKernel:
    """A group's native loop nest and what a call needs to feed it."""

    __slots__ = ("fn", "root", "dims", "shape", "domain", "leaves", "members", "dtype")

    def __init__(self, source, fn, info):
        self.fn = fn
        self.root = source.group.root
        self.dims = info.dims[self.root]
        # the result's sizes when they are all static, else None (evaluated per call)
        self.shape = tuple(self.dims) if all(isinstance(d, int) for d in self.dims) else None
        # a row group's domain is its reductions' operand shape; None: the root's own
        domain = source.group.domain
        self.domain = None if len(domain) == len(self.dims) and all(
            dims_equal(a, b) for a, b in zip(domain, self.dims, strict=True)) else domain
        self.leaves = source.leaves
        self.members = source.members
        self.dtype = to_numpy_dtype(self.root.shape.element_type)

    def run(self, ctx, values: dict, pool=None, buf: int = -1, addresses=None):
        """The group's value: its result at the root's actual sizes (in buffer `buf` of
        `pool` when given, else a new array), written by one native call (or the
        reference's value or error when the kernel refuses). `addresses`: the data
        addresses of values in buffers (this result's is added), read instead of asking
        NumPy."""
        env = ctx.env
        shape = self.shape or env.sizes(self.dims)
        if buf < 0:
            out = np.empty(shape, self.dtype)
            address = data_address(out)
        else:
            out, address = pooled(pool, buf, shape, self.dtype)
        args = [address]
        args += shape if self.domain is None else env.sizes(self.domain)
        for leaf in self.leaves:
            value = values[leaf]
            at = addresses.get(leaf) if addresses is not None else None
            if at is None:
                if value.__class__ is not np.ndarray:
                    value = values[leaf] = np.asarray(value)
                at = data_address(value)
            args.append(at)
            args += value.shape
            args += value.strides
        packed = array("q", args)   # kept alive through the call
        if self.fn(None, packed.buffer_info()[0]):
            # a new array: the buffer plan counts on a kernel's value sharing no memory,
            # and a reference lowering may return a view of an input
            return np.array(self.reference(ctx, values))
        if buf >= 0 and addresses is not None:
            addresses[self.root] = address
        return out

    def reference(self, ctx, values: dict):
        """The group through the reference lowerings: its error, or its value."""
        # (a call's values read a spec's held ones through (runner._Values), which a
        # copy of the dict alone would lose: a leaf held by the spec read as None)
        local = dict(getattr(values, "start", ()))
        local.update(values)
        lowerings = ctx.evaluator.lowerings
        for inst in self.members:
            ctx.inst = inst
            # a size operand the plan does not run (size_only) is None: the host knows it
            local[inst] = lowerings[inst.opcode](ctx, inst, [local.get(o) for o in inst.operands])
        ctx.inst = self.root
        return local[self.root]


def signature(value):
    """A value's shape as a key: an array's shape, a tuple's leaves' signatures, else
    its type."""
    if value.__class__ is np.ndarray:
        return value.shape
    if isinstance(value, tuple):   # (a loop's state: its arrays' shapes read inline)
        return tuple([v.shape if v.__class__ is np.ndarray or isinstance(v, np.generic)
                      else signature(v) for v in value])
    return value.shape if isinstance(value, np.generic) else value.__class__   # (its ())


def _same_value(value, recorded: np.ndarray) -> bool:
    """Whether a value read as sizes equals the one a spec recorded (np.array_equal; an
    integer array of the recorded shape and type compared as Python ints, exactly)."""
    if value.__class__ is np.ndarray and value.dtype == recorded.dtype and \
            value.shape == recorded.shape and value.dtype.kind in "iub" and value.size < 64:
        return value.tolist() == recorded.tolist()
    return np.array_equal(value, recorded)


class Pool(list):
    """One computation's buffers (entries as `pooled` keeps them), `gen`: bumped whenever a
    buffer is replaced by a larger one (addresses recorded before it are stale), and
    `fast`: the steps specialized to an argument-shape key over these buffers (Fast)."""

    __slots__ = ("gen", "fast", "loops", "seen", "counting", "carrying")

    def __init__(self, count: int):
        super().__init__([None] * count)
        self.gen = 0
        self.fast: dict = {}
        # a counted loop body's plans (native_loop.LoopPlan), its loop calls per first
        # key and the first keys whose specs are keyed by the counters (loop_body.py)
        self.loops: dict = {}
        self.seen: dict = {}
        self.counting: set = set()
        # a token of the loop call running this body, None between calls: an update of a
        # carried buffer writes in place only into the array it made in the same call
        # (loops.carried_update, special._update_slice)
        self.carrying = None


def pooled(pool: Pool, buf: int, shape: tuple, dtype) -> tuple:
    """(an array of `shape` over buffer `buf` of `pool`, its data address); the buffer
    grows to the largest size asked of it and is kept for the next call, with the last
    view made of it (a buffer is asked for again only when its last value is dead)."""
    entry = pool[buf]
    if entry is not None and entry[2] == shape and entry[3] == dtype:
        return entry[4], entry[1]   # the same view as last time (its value is dead)
    need = math.prod(shape) * dtype.itemsize
    if entry is None or entry[0].nbytes < need:
        store = np.empty(max(need, buffers.ALIGN), np.uint8)
        entry = (store, data_address(store))
        pool.gen += 1
    view = np.ndarray(shape, dtype, entry[0])
    pool[buf] = (entry[0], entry[1], shape, dtype, view)
    return view, entry[1]
