"""Runs a computation as its plan's steps: compiled kernels and reference lowerings.

The plan (backends/plan/fusion.py with the CPU's rules) is made once per computation
invocation, and `prepare` compiles the kernels of a module and of every computation it calls
in one batch (one compiled function per canonical form, machine.kernels); each call binds
the parameters, then walks its precomputed steps: a kernel (its result at the actual sizes,
addresses, sizes and strides packed in one array, one native call), a matrix product
(`np.matmul` on the operands' views), any other f32/f64 dot (the reference's NumPy calls,
batch_dot.py), a transcendental ufunc (NumPy's, with `out=`), a reshape (a NumPy view at its
planned sizes), a convolution (of floats: im2col and one matrix product, conv.py) or any
other instruction through the reference lowering, exactly as the reference evaluator runs
it. Kernel, dot and ufunc results go into buffers reused across steps and calls
(plan_buffers: backends/plan/buffers.py's assignment), per thread.
When every size of a computation is a function of the entry arguments' shapes, the first
call at a shape also makes `Fast`: the steps specialized to it (sizes and memory checks
settled, output views over the buffers, each kernel's argument array filled but for the
addresses of parameters and new arrays); later calls at that shape run it, writing only
those addresses (a small LRU per thread, dropped when a buffer grows). A spec also holds
the values fixed for its key (folding.py: their steps are skipped), the views of its buffers
(a reshape or transpose of a kernel's or dot's result: the same array at every call, set
before the first step instead of run as one), and runs lowerings of settled shapes as
special.py's NumPy calls. A step a spec cannot run as recorded hands the rest of the call
to the ordinary steps from the one after the last it ran (views set before then that read a
value it replaced are made again). A computation whose sizes read its own values
(a loop body's state, a loop's result) gets specs keyed by its arguments' shapes too, with
a guard after each step those sizes read (a mismatch: the rest of the call step by step).
Called computations (call, while, conditional bodies) run the same way, through
EvalContext.call back into this evaluator; scalar computations applied to whole arrays
(reducers) stay the reference's.
"""

from __future__ import annotations

import ctypes
import math
import threading
from array import array
from types import SimpleNamespace

import numpy as np

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ....hlo.types import to_numpy_dtype
from ....shapes.schedule import leaf_dims, schedule, tree_deps
from ....shapes.sizes import SizeEnv
from ....shapes.trees import check_sizes
from ...common import memory
from ...plan import buffers
from ...plan.fusion import dims_equal, kernels_of, plan_computation
from ..evaluator import EvalContext, Evaluator
from ..lowering import LOWERINGS
from . import conv, machine
from .batch_dot import BatchDot
from .folding import folded, size_reads
from .kernels import generate
from .loops import compiled_while, pinned_elements, pinned_values
from .memo import memoized
from .special import specialize
from .rules import rules

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
        local = dict(values)
        lowerings = ctx.evaluator.lowerings
        for inst in self.members:
            ctx.inst = inst
            # a size operand the plan does not run (size_only) is None: the host knows it
            local[inst] = lowerings[inst.opcode](ctx, inst, [local.get(o) for o in inst.operands])
        ctx.inst = self.root
        return local[self.root]


def _fold_transposes(info, steps: list) -> list:
    """`steps` with each matrix product reading a 2-d transpose step's operand itself,
    transposed as a view (the layout the transpose step would give it), and the transposes
    no other step, size or the root reads left out (attention's `q @ transpose(k)`)."""
    made = {step[1]: step for step in steps}
    folded = {}
    for k, (kind, inst, what, sized) in enumerate(steps):
        if kind != _DOT:
            continue
        sides = []
        for operand, flag in ((what.lhs, what.lhs_t), (what.rhs, what.rhs_t)):
            step = made.get(operand)
            if step is not None and step[0] == _LOWERING and step[2] is LOWERINGS.get(
                    Opcode.TRANSPOSE) and operand.opcode is Opcode.TRANSPOSE and \
                    tuple(attrs.ints(operand, "dimensions")) == (1, 0) and \
                    operand.operands[0].shape.element_type == operand.shape.element_type:
                operand, flag = operand.operands[0], not flag
            sides.append((operand, flag))
        if sides != [(what.lhs, what.lhs_t), (what.rhs, what.rhs_t)]:
            folded[k] = MatmulDot.reading(inst, *sides[0], *sides[1])
    if not folded:
        return steps
    steps = [(kind, inst, folded.get(k, what), sized)
             for k, (kind, inst, what, sized) in enumerate(steps)]
    read = {info.computation.root}
    memo: dict = {}
    for kind, inst, what, _ in steps:
        read.update(what.leaves if kind == _KERNEL else (what.lhs, what.rhs) if kind == _DOT
                    else inst.operands)
        read.update(tree_deps(info.dims.get(inst, ()), memo))
    return [step for step in steps if step[1].opcode is not Opcode.TRANSPOSE or
            step[0] != _LOWERING or step[1] in read]


def signature(value):
    """A value's shape as a key: an array's shape, a tuple's leaves' signatures, else
    its type."""
    if value.__class__ is np.ndarray:
        return value.shape
    if isinstance(value, tuple):   # (a loop's state: its arrays' shapes read inline)
        return tuple([v.shape if v.__class__ is np.ndarray else signature(v) for v in value])
    return np.shape(value) if isinstance(value, np.generic) else value.__class__


def _same_value(value, recorded: np.ndarray) -> bool:
    """Whether a value read as sizes equals the one a spec recorded (np.array_equal; an
    integer array of the recorded shape and type compared as Python ints, exactly)."""
    if value.__class__ is np.ndarray and value.dtype == recorded.dtype and \
            value.shape == recorded.shape and value.dtype.kind in "iub" and value.size < 64:
        return value.tolist() == recorded.tolist()
    return np.array_equal(value, recorded)


def _guards(info, params: list, steps: list, checked: list) -> frozenset | None:
    """For a computation whose sizes read values (not a function of the entry arguments'
    shapes alone): the reads of its sizes, {(how, instruction)} (folding.size_reads), when
    each is a dimension size of its own parameter (its arguments' shapes then join the
    spec's key) or a shape or value of one of its own steps (guarded in the spec: compared
    after the step, the rest of the call run step by step on a mismatch); None when a
    size reads a parameter's value or another computation's values (no spec)."""
    memo: dict = {}
    reads: set = set()
    for _, inst, what, _, _ in steps:
        reads |= size_reads((*leaf_dims(info.dims.get(inst, ())), *(
            what.domain or () if isinstance(what, CompiledKernel) else ())), memo)
    for inst in checked:
        reads |= size_reads(leaf_dims(info.dims[inst]), memo)
    own = {inst for inst, _ in params}
    made = {step[1] for step in steps}
    guards = set()
    for how, inst in reads:
        if inst in own and how == "result":
            continue
        if inst not in made:
            return None
        guards.add((how, inst))
    return frozenset(guards)


class Pool(list):
    """One computation's buffers (entries as `pooled` keeps them), `gen`: bumped whenever a
    buffer is replaced by a larger one (addresses recorded before it are stale), and
    `fast`: the steps specialized to an argument-shape key over these buffers (Fast)."""

    __slots__ = ("gen", "fast")

    def __init__(self, count: int):
        super().__init__([None] * count)
        self.gen = 0
        self.fast: dict = {}


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


def _bound_bytes(shape) -> int:
    """Bytes of an array shape at its bounds (an unbounded dimension counts as 2**20)."""
    count = 1
    for d in shape.dims:
        count *= 1 << 20 if d < 0 else d
    return count * to_numpy_dtype(shape.element_type).itemsize


def _guarded(info, params: list, steps: list) -> list[int]:
    """Evaluator.guarded: the parameters whose values (or views of them) reach a reference
    lowering's operands or the root. A kernel, matrix product or ufunc makes a new array
    (its reference fallback included); a reshape is a view of its operand; a lowering's
    value may be a view of any operand."""
    views: dict = {inst: frozenset((inst,)) for inst, _ in params}
    reached: set = set()
    for kind, inst, what, _, _ in steps:
        if kind in (_KERNEL, _DOT, _UFUNC, _BATCH_DOT):
            continue
        if kind == _RESHAPE:
            views[inst] = views.get(what[0], frozenset())
            continue
        read = frozenset().union(*(views.get(o, ()) for o in inst.operands))
        reached |= read
        views[inst] = read
    reached |= views.get(info.computation.root, frozenset())
    return sorted(number for inst, number in params if inst in reached)


def plan_buffers(info, steps: list) -> tuple[list, int]:
    """`steps` with the buffer each float kernel, matrix product or ufunc writes (the 5th field,
    -1: a new array), and the number of buffers: backends/plan/buffers.py's assignment
    (reuse after the last reader), where a value read through a view (a reshape, a
    transpose, anything a lowering may return of its operands) is live as long as the view.
    Values the root may alias (the results the caller keeps) and values a size is read from
    get new arrays."""
    alias: dict = {}
    reads: list = []
    for kind, inst, what, _ in steps:
        if kind == _KERNEL:
            operands = what.leaves
        elif kind in (_DOT, _BATCH_DOT):
            operands = (what.lhs, what.rhs)
        elif kind in (_RESHAPE, _UFUNC):
            operands = (what[-1] if kind == _UFUNC else what[0],)
        elif kind == _PARAM:
            operands = ()
        else:
            operands = inst.operands
        read = frozenset().union(*(alias.get(o, ()) for o in operands))
        reads.append(read)
        if kind in (_KERNEL, _DOT, _UFUNC, _BATCH_DOT) and not inst.shape.is_tuple and \
                inst.shape.element_type in ("f32", "f64"):
            alias[inst] = frozenset((inst,))
        else:
            alias[inst] = read    # may be (a view of) any operand
    keep = set(alias.get(info.computation.root, ()))
    memo: dict = {}
    for inst in alias:
        for dep in tree_deps(info.dims.get(inst, ()), memo):
            keep |= alias.get(dep, frozenset())
    nbytes, order, pooled_outs = {}, [], set()
    for k, (_, inst, _, _) in enumerate(steps):
        if alias[inst] == frozenset((inst,)) and inst not in keep:
            out = inst
            pooled_outs.add(inst)
            nbytes[out] = _bound_bytes(inst.shape)
        else:
            out = nbytes_key = ("new", k)
            nbytes[nbytes_key] = 0
        order.append(SimpleNamespace(inputs=[r for r in reads[k] if r not in keep], out=out))
    where, sizes, _ = buffers.assign(order, nbytes, set())
    return [(*step, where[step[1]] if step[1] in pooled_outs else -1) for step in steps], \
        len(sizes)


class CompiledEvaluator(Evaluator):
    """The reference evaluator with each computation's fused groups compiled."""

    def __init__(self, inference, lowerings: dict | None = None, comm=None):
        super().__init__(inference, lowerings, comm)
        self._steps: dict[int, list] = {}
        self._planned: dict[int, object] = {}
        self._rules = rules(self._generate)
        self._position: dict = {}
        self._compiled: dict = {}     # KernelSource (kept alive: ids are reused) -> kernel
        self._buffers: dict = {}      # id(info) -> how many buffers its steps use
        # id(info) -> ([(parameter, number)], those checked, the dynamic ones' numbers when
        # every size is a function of the arguments' shapes, else None)
        self._params: dict = {}
        self._guarded: dict = {}      # id(info) -> parameters a lowering may read (guarded)
        # id(info) -> the integer scalar elements its root passes through (loops.py): their
        # values join its specs' keys, what is made of them alone is folded
        self._pinned: dict = {}
        self._local = threading.local()   # per thread: id(info) -> its buffers
        if self.lowerings[Opcode.WHILE] is LOWERINGS[Opcode.WHILE]:
            self.lowerings = {**self.lowerings, Opcode.WHILE: compiled_while(
                self, self.lowerings[Opcode.WHILE])}

    def _generate(self, group, info):
        position = self._position.get(id(info))
        if position is None:
            position = self._position[id(info)] = {i: k for k, i in enumerate(schedule(info))}
        return generate(group, info, position)

    def prepare(self, info) -> None:
        """Plan and compile `info` and every computation it calls (at compile time): all
        their kernels in one batch (machine.kernels)."""
        plan = self.plan_of(info)
        sources = kernels_of(plan)
        fns = self.compile_kernels(sources)
        self._compiled.update({s: CompiledKernel(s, fn, s.info)
                               for s, fn in zip(sources, fns, strict=True)})
        self._planned[id(info)] = plan
        self._steps_of(info)

    def plan_of(self, info):
        """The plan of `info` and its calls (fusion.plan_computation); an artifact's
        loader (aot.py) overrides it to take a stored plan, checked."""
        return plan_computation(info, self._rules)

    def _steps_of(self, info) -> list:
        steps = self._steps.get(id(info))
        if steps is not None:
            return steps
        plan = self._planned.pop(id(info), None) or plan_computation(info, self._rules)
        for inst, subs in plan.calls.items():
            for k, sub in enumerate(subs):
                self._planned.setdefault(id(info.calls[(inst, k)]), sub)
        sized = self._sized.setdefault(id(info), memory.to_size(info.computation,
                                                                self.memory_limit))
        steps = []
        for inst, kind in plan.steps:
            if kind == "param":
                steps.append((_PARAM, inst, inst.parameter_number, False))
            elif kind == "kernel":
                steps.append((_KERNEL, inst, self._kernel(plan.kernels[inst]), inst in sized))
            elif inst.opcode is Opcode.DOT and \
                    self.lowerings[Opcode.DOT] is LOWERINGS[Opcode.DOT] and \
                    (matmul := MatmulDot.of(inst)) is not None:
                steps.append((_DOT, inst, matmul, inst in sized))
            elif inst.opcode is Opcode.DOT and \
                    self.lowerings[Opcode.DOT] is LOWERINGS[Opcode.DOT] and \
                    (batched := BatchDot.of(inst)) is not None:
                steps.append((_BATCH_DOT, inst, batched, inst in sized))
            elif inst.opcode in _UFUNCS and inst.shape.element_type in _MATMUL_TYPES and \
                    inst.operands[0].shape.element_type == inst.shape.element_type and \
                    self.lowerings[inst.opcode] is LOWERINGS[inst.opcode]:
                steps.append((_UFUNC, inst, (_UFUNCS[inst.opcode], inst.operands[0]),
                              inst in sized))
            elif inst.opcode is Opcode.RESHAPE and \
                    self.lowerings[Opcode.RESHAPE] is LOWERINGS[Opcode.RESHAPE] and \
                    info.dims[inst.operands[0]].__class__ is not list:
                steps.append((_RESHAPE, inst, (inst.operands[0], info.dims[inst]),
                              inst in sized))
            elif inst.opcode is Opcode.CONVOLUTION and \
                    self.lowerings[Opcode.CONVOLUTION] is LOWERINGS[Opcode.CONVOLUTION]:
                steps.append((_LOWERING, inst, conv.lowering, inst in sized))
            else:
                steps.append((_LOWERING, inst, self.lowerings[inst.opcode], inst in sized))
        steps = _fold_transposes(info, steps)
        steps, self._buffers[id(info)] = plan_buffers(info, steps)
        # the parameters first, as the run's values: only dynamic ones need a size check
        # (check_arguments saw the static ones' sizes, the caller's own computations too)
        params = [(inst, what) for kind, inst, what, _, _ in steps if kind == _PARAM]
        checked = [inst for inst, _ in params
                   if any(not isinstance(d, int) for d in leaf_dims(info.dims[inst]))]
        steps = [step for step in steps if step[0] != _PARAM]
        # a call's sizes are all functions of the arguments' shapes (no size read off a
        # value): its steps can be specialized to the dynamic arguments' shapes (Fast)
        memo: dict = {}
        keyed = not any(tree_deps(info.dims.get(inst, ()), memo) or (
            isinstance(what, CompiledKernel) and tree_deps(tuple(what.domain or ()), memo))
            for _, inst, what, _, _ in steps) \
            and not any(tree_deps(info.dims[inst], memo) for inst in checked)
        numbers = [number for inst, number in params if inst in checked]
        guards = None if keyed else _guards(info, params, steps, checked)
        self._params[id(info)] = (params, checked, numbers if keyed else None, guards)
        self._guarded[id(info)] = _guarded(info, params, steps)
        self._pinned[id(info)] = pinned_elements(
            info.computation, [inst for how, inst in guards or () if how == "value"])
        self._steps[id(info)] = steps
        return steps

    def guarded(self, info) -> list[int]:
        """The numbers of `info`'s parameters that a reference lowering may read (directly or
        through views) or the root may return: those the caller passes as read-only views
        (CpuProgram.run); kernels, matrix products, ufuncs and reshapes only read theirs."""
        self._steps_of(info)
        return self._guarded[id(info)]

    def _kernel(self, source) -> CompiledKernel:
        compiled = self._compiled.get(source)
        if compiled is None:   # a computation planned after prepare (none today)
            compiled = self._compiled[source] = CompiledKernel(
                source, self.compile_kernels([source])[0], source.info)
        return compiled

    def compile_kernels(self, sources: list) -> list:
        """The native functions of kernel sources (machine.kernels); an artifact's loader
        (aot.py) overrides it to hand over stored object code."""
        return machine.kernels(sources)

    def run(self, info, args: list, parent: SizeEnv | None = None,
            args_shapes: list | None = None, vectorized: bool = False):
        if vectorized:
            return super().run(info, args, parent, args_shapes, vectorized)
        steps = self._steps_of(info)
        local = self._local.__dict__
        pools = local.get("pools")
        if pools is None:
            pools = local["pools"] = {}
        pool = pools.pop(id(info), None)   # held by this invocation until it returns
        if pool is None:
            pool = Pool(self._buffers[id(info)])
        try:
            return self._walk(info, steps, pool, args, parent, args_shapes)
        finally:
            pools[id(info)] = pool

    def _walk(self, info, steps: list, pool: Pool, args: list, parent, args_shapes):
        params, checked, numbers, guards = self._params[id(info)]
        key = None
        if numbers is not None:   # sizes from the entry arguments' shapes alone
            # the entry: its dynamic arguments' shapes; a called computation: the entry
            # arguments' shapes its sizes are made of (its own arguments are checked)
            key = tuple([args_shapes[k] for k in numbers]) if parent is None else \
                (None, *parent.args_shapes)
        elif guards is not None:   # sizes also read off its own values (guarded)
            key = (None, *args_shapes) if parent is None else \
                (None, *parent.args_shapes, *map(signature, args))
        pinned = self._pinned[id(info)]
        if pinned and key is not None:
            key = (*key, pinned_values(args[0], pinned))
        if key is not None:
            fast = pool.fast.get(key)
            if fast is not None and fast.gen == pool.gen and fast.limit == self.memory_limit:
                return self._run_fast(info, fast, steps, pool, args, args_shapes, parent)
        values: dict = {inst: args[number] for inst, number in params}
        env = SizeEnv(args_shapes, values.__getitem__, parent, xla_rules=True)
        ctx = EvalContext(self, info, env, False)
        dims = info.dims
        for inst in checked:
            ctx.inst = inst
            check_sizes(env, inst, values[inst], dims[inst])
        self._run_steps(ctx, values, pool, steps, 0, {})
        if key is not None:
            fast = Fast.of(ctx, params, steps, pool, values, self.memory_limit, checked, guards,
                           frozenset(inst for _, inst in pinned))
            if fast is not None:
                # specs over buffers since replaced hold the old buffers: dropped
                kept = {k: f for k, f in pool.fast.items() if f.gen == fast.gen and k != key}
                while len(kept) >= _FAST_KEYS:
                    del kept[next(iter(kept))]   # the oldest key
                kept[key] = fast
                pool.fast = kept
        return values[info.computation.root]

    def _run_steps(self, ctx, values: dict, pool: Pool, steps: list, start: int,
                   addresses: dict) -> None:
        """Steps `start`.. of a call into `values`, each on its own (sizes evaluated,
        checked). `addresses`: data addresses of the values in buffers (may be empty)."""
        env, dims, limit = ctx.env, ctx.info.dims, self.memory_limit
        for index in range(start, len(steps)):
            kind, inst, what, sized, buf = steps[index]
            ctx.inst = inst
            if sized:
                memory.check_fits(inst, ctx.out_shape(inst), limit, "cpu")
            try:
                if kind == _KERNEL:   # written at the planned sizes: nothing to check
                    values[inst] = what.run(ctx, values, pool, buf, addresses)
                    continue
                if kind == _DOT:      # (m, k) x (k, n): its sizes are its operands'
                    a, b = values[what.lhs], values[what.rhs]
                    if what.lhs_t:
                        a = a.T
                    if what.rhs_t:
                        b = b.T
                    if a.__class__ is np.ndarray and b.__class__ is np.ndarray and \
                            a.shape[1] == b.shape[0]:
                        a, b = blas_layout(a), blas_layout(b)
                        if buf < 0:
                            values[inst] = np.matmul(a, b)
                        else:
                            out, addresses[inst] = pooled(pool, buf, (a.shape[0], b.shape[1]),
                                                          a.dtype)
                            values[inst] = np.matmul(a, b, out=out)
                        continue
                    what = self.lowerings[Opcode.DOT]
                elif kind == _BATCH_DOT:   # the reference's NumPy calls, into its buffer
                    a, b = values[what.lhs], values[what.rhs]
                    made = what.shapes(a.shape, b.shape) if a.__class__ is np.ndarray and \
                        b.__class__ is np.ndarray and a.dtype == b.dtype == what.dtype else None
                    if made is not None:
                        out = None
                        if buf >= 0:
                            out, addresses[inst] = pooled(pool, buf, made[2], what.dtype)
                        values[inst] = what.fn(a.shape, b.shape, out)(a, b)
                        continue
                    what = self.lowerings[Opcode.DOT]
                elif kind == _UFUNC:     # dense, at the result's sizes: into its buffer
                    x = values[what[1]]
                    shape = env.sizes(dims[inst])
                    if x.__class__ is np.ndarray and x.shape == shape and \
                            x.flags.c_contiguous:
                        with np.errstate(all="ignore"):
                            if buf < 0:
                                values[inst] = what[0](x)
                            else:
                                out, addresses[inst] = pooled(pool, buf, shape, x.dtype)
                                values[inst] = what[0](x, out=out)
                        continue
                    what = self.lowerings[inst.opcode]
                elif kind == _RESHAPE:   # a NumPy view at its sizes, or the error
                    x = values[what[0]]
                    shape = env.sizes(what[1])
                    if x.__class__ is np.ndarray and x.size == math.prod(shape):
                        values[inst] = x.reshape(shape)
                        continue
                    what = self.lowerings[Opcode.RESHAPE]
                value = what(ctx, inst, [values[o] for o in inst.operands])
            except MemoryError:
                raise memory.too_big(inst, None, None, "cpu") from None
            values[inst] = value
            check_sizes(env, inst, value, dims[inst])

    def _run_fast(self, info, fast: "Fast", steps: list, pool: Pool, args: list,
                  args_shapes: list | None, parent: SizeEnv | None):
        """A call through the steps specialized to its arguments' shapes: sizes, memory
        checks and the buffers' addresses were settled when `fast` was made; what a step
        finds other than it expects (a value of another type or layout, a kernel that
        refuses) hands the rest of the call to _run_steps."""
        values = dict(fast.start)
        if fast.params is not None:
            values.update(zip(fast.params, args, strict=True))
        else:
            values.update((inst, args[number]) for inst, number in self._params[id(info)][0])
        env = SizeEnv(args_shapes, values.__getitem__, parent, xla_rules=True)
        ctx = EvalContext(self, info, env, False)
        if parent is not None:   # a called computation's arguments: its caller's values
            # (their sizes are settled for the key: the recorded shapes pass, as they did)
            for inst, recorded in fast.checked:
                if signature(values[inst]) != recorded:
                    ctx.inst = inst
                    check_sizes(env, inst, values[inst], info.dims[inst])
        ndarray, matmul, address = np.ndarray, np.matmul, data_address
        where = fast.where
        position = 0   # of the op running; where[position]: its step's index
        inst = None
        remembered = key = None   # the memo's values for this call's counters (memo.py)
        # (NumPy's floating-point warnings are off: CpuProgram.run's errstate)
        try:
            for op in fast.ops:
                kind, inst = op[0], op[1]
                if _MEMO_LOAD <= kind <= _UNPACK:
                    if kind == _UNPACK:   # (a loop's state: its elements' shapes are keyed)
                        state = values[op[2]]
                        for element, k in op[3]:
                            values[element] = state[k]
                        position += 1
                        continue
                    if kind == _MEMOIZED:
                        if remembered is not None:   # its value is the memo's
                            position += 1
                            continue
                        op = op[2]   # run as it is (below)
                        kind = op[0]
                    elif kind == _MEMO_LOAD:
                        key = tuple([int(values[c]) for c in op[3]])
                        remembered = op[2].get(key)
                        if remembered is not None:
                            values.update(remembered)
                        position += 1
                        continue
                    else:   # _MEMO_STORE
                        if remembered is None:
                            op[2].keep(key, {i: values[i] for i in op[3]})
                        position += 1
                        continue
                if kind == _KERNEL_IN_PLACE:
                    if op[2](None, op[3]):   # refused: the reference's value or error
                        ctx.inst = inst
                        values[inst] = np.array(op[5].reference(ctx, values))
                        position += 1   # its readers expect it in its buffer
                        break
                    values[inst] = op[4]
                    position += 1
                    continue
                if kind == _ELEMENT or kind == _TUPLE:   # (a loop's state, unpacked, packed)
                    value = values[op[2]][op[3]] if kind == _ELEMENT else \
                        tuple([values[o] for o in op[2]])
                    values[inst] = value
                    if (value.shape if value.__class__ is ndarray else signature(value)) != \
                            op[4]:   # not the recorded shape (where the sizes fit): checked
                        ctx.inst = inst
                        check_sizes(env, inst, value, info.dims[inst])
                    position += 1
                    continue
                if kind == _GUARD:   # the shape or value later sizes were settled with
                    value = values[inst]
                    if signature(value) != op[3] if op[2] == "result" else \
                            not _same_value(value, op[3]):
                        break
                    position += 1
                    continue
                if kind == _SPECIAL_ONE:
                    x = values[op[3]]
                    if x.__class__ is not ndarray and isinstance(x, np.generic):
                        x = np.asarray(x)   # (a loop's NumPy scalar: its 0-d array)
                    value = op[2](x) if x.__class__ is ndarray and x.shape == op[4] else None
                    if value is not None:
                        values[inst] = value
                    else:   # another type or shape than recorded, or declined: the lowering
                        self._run_steps(ctx, values, pool, [steps[where[position]]], 0, {})
                    position += 1
                    continue
                if kind == _SPECIAL_TWO:
                    x, y = values[op[3]], values[op[4]]
                    if x.__class__ is not ndarray and isinstance(x, np.generic):
                        x = np.asarray(x)   # (a loop's NumPy scalar: its 0-d array)
                    if y.__class__ is not ndarray and isinstance(y, np.generic):
                        y = np.asarray(y)
                    value = op[2](x, y) if x.__class__ is ndarray and x.shape == op[5] and \
                        y.__class__ is ndarray and y.shape == op[6] else None
                    if value is not None:
                        values[inst] = value
                    else:   # another type or shape than recorded, or declined: the lowering
                        self._run_steps(ctx, values, pool, [steps[where[position]]], 0, {})
                    position += 1
                    continue
                if kind == _SPECIAL:
                    parts = [values[source] for source in op[3]]
                    shapes = [p.shape if p.__class__ is ndarray else None for p in parts]
                    if shapes != op[4]:   # a loop's NumPy scalar stands for its 0-d array
                        parts = [np.asarray(p) if isinstance(p, np.generic) else p
                                 for p in parts]
                        shapes = [p.shape if p.__class__ is ndarray else None for p in parts]
                    value = op[2](*parts) if shapes == op[4] else None
                    if value is not None:
                        values[inst] = value
                    else:   # another type or shape than recorded, or declined: the lowering
                        self._run_steps(ctx, values, pool, [steps[where[position]]], 0, {})
                    position += 1
                    continue
                if kind == _KERNEL:
                    _, _, fn, packed, pointer, patches, out, shape, what = op
                    if out is None:
                        out = np.empty(shape, what.dtype)
                        packed[0] = address(out)
                    for slot, leaf, strides in patches:
                        value = values[leaf]
                        if value.__class__ is not ndarray:   # a NumPy scalar (a loop's)
                            value = values[leaf] = np.asarray(value)
                        if value.strides != strides:
                            break
                        packed[slot] = address(value)
                    else:
                        if fn(None, pointer):   # refused: the reference's value or error
                            ctx.inst = inst
                            values[inst] = np.array(what.reference(ctx, values))
                            position += 1   # its readers expect it in its buffer
                            break
                        values[inst] = out
                        position += 1
                        continue
                    # an input of another type or layout than recorded: this kernel on its
                    # own, into its buffer (the one the spec's readers read)
                    ctx.inst = inst
                    buf = steps[where[position]][4]
                    value = what.run(ctx, values, pool, buf, None)
                    values[inst] = value
                    position += 1
                    if out is not None and address(value) != address(out):
                        break   # refused (a new array) or moved: the rest step by step
                    continue
                if kind == _BATCH_DOT:
                    x, y = values[op[2]], values[op[3]]
                    if x.__class__ is not ndarray or x.shape != op[4] or \
                            y.__class__ is not ndarray or y.shape != op[5]:
                        break
                    values[inst] = op[6](x, y)
                    position += 1
                    continue
                if kind == _DOT:
                    _, _, lhs, rhs, lhs_t, rhs_t, a, b, out = op
                    if a is None:
                        a = values[lhs]
                        if a.__class__ is not ndarray:
                            break
                        a = blas_layout(a.T if lhs_t else a)
                    if b is None:
                        b = values[rhs]
                        if b.__class__ is not ndarray:
                            break
                        b = blas_layout(b.T if rhs_t else b)
                    values[inst] = matmul(a, b) if out is None else matmul(a, b, out=out)
                elif kind == _UFUNC:
                    # fixed: True (a folded operand), False (dense, into `out`), or the
                    # shape of an operand of another layout (a new array, as the lowering)
                    _, _, fn, source, fixed, out = op
                    x = values[source]
                    if fixed is not True and (x.__class__ is not ndarray or (
                            not x.flags.c_contiguous if fixed is False else
                            x.shape != fixed)):
                        break
                    values[inst] = fn(x) if out is None else fn(x, out=out)
                elif kind == _RESHAPE:
                    _, _, source, shape, view = op
                    if view is None:
                        x = values[source]
                        if isinstance(x, np.generic) and math.prod(shape) == 1:
                            x = np.asarray(x)   # (a loop's NumPy scalar): as x.reshape
                        if x.__class__ is not ndarray:   # on its own
                            self._run_steps(ctx, values, pool, [steps[where[position]]], 0,
                                            {})
                            position += 1
                            continue
                        view = x.reshape(shape)
                    values[inst] = view
                else:   # a step on its own, as _run_steps runs it
                    kind, inst, what, _, _ = step = steps[where[position]]
                    ctx.inst = inst
                    if kind == _LOWERING:
                        value = what(ctx, inst, [values[o] for o in inst.operands])
                        values[inst] = value
                        if signature(value) != op[2]:   # (the recorded shape: it fit)
                            check_sizes(env, inst, value, info.dims[inst])
                    else:
                        self._run_steps(ctx, values, pool, [step], 0, {})
                position += 1
            else:
                return values[info.computation.root]
        except MemoryError:
            raise memory.too_big(inst, None, None, "cpu") from None
        self._run_steps(ctx, values, pool, steps, fast.done[position - 1] if position else 0,
                        {})
        return values[info.computation.root]


def _unpacked(ops: list, where: list, params: set) -> tuple[list, list]:
    """(ops, where) with the get-tuple-elements of parameters (_ELEMENT ops) made one
    _UNPACK op at the first one's place, for a spec whose key holds its arguments' shapes
    (a guarded one: CompiledEvaluator._walk), so the elements' shapes need no comparing.
    Taken early: an element depends on its parameter alone, and a step by step rest finds
    them made."""
    found = [n for n, op in enumerate(ops) if op[0] == _ELEMENT and op[2] in params]
    if len(found) < 2 or len({ops[n][2] for n in found}) != 1:
        return ops, where
    first, taken = found[0], frozenset(found)
    unpack = (_UNPACK, ops[first][1], ops[first][2], tuple((ops[n][1], ops[n][3]) for n in found))
    out_ops, out_where = [], []
    for n, op in enumerate(ops):
        if n == first:
            out_ops.append(unpack)
            out_where.append(where[n])
        elif n not in taken:
            out_ops.append(op)
            out_where.append(where[n])
    return out_ops, out_where


_FAST_KEYS = 8   # argument-shape keys whose specialized steps a pool keeps
_PLUMBING = frozenset({Opcode.GET_TUPLE_ELEMENT, Opcode.TUPLE})
# memo.memoized's view of the op kinds: what each op it may keep reads per call
_MEMO_KINDS = {"element": _ELEMENT, "load": _MEMO_LOAD, "store": _MEMO_STORE,
               "memoized": _MEMOIZED,
               "reads": {_KERNEL: lambda op: op[8].leaves, _KERNEL_IN_PLACE: lambda op: op[5].leaves,
                         _SPECIAL: lambda op: op[3], _SPECIAL_ONE: lambda op: (op[3],),
                         _SPECIAL_TWO: lambda op: (op[3], op[4]),
                         _RESHAPE: lambda op: (op[2],)}}
_DENSE_BYTES = 1 << 22   # the largest dense copy of a folded broadcast a spec holds
# folding.folded's view of the step kinds: the operands of those that make new arrays
_FOLD_KINDS = {"lowering": _LOWERING, "reshape": _RESHAPE,
               "new": {_KERNEL: lambda what: what.leaves,
                       _DOT: lambda what: (what.lhs, what.rhs),
                       _BATCH_DOT: lambda what: (what.lhs, what.rhs),
                       _UFUNC: lambda what: (what[1],)}}


class Fast:
    """A computation's steps specialized to one key of argument shapes (when every size is
    a function of the entry arguments' shapes: the entry's dynamic parameters' shapes, or
    for a called computation all the entry arguments' shapes; CompiledEvaluator._walk):
    per step its sizes, its output view over its pool buffer, and for a kernel its argument
    array filled but for the addresses of values not in the spec's buffers (parameters,
    new arrays), written per call. Valid while the pool's buffers stay where they were
    (`gen`) and the memory limit is the one its sizes were checked against (`limit`)."""

    __slots__ = ("gen", "limit", "ops", "where", "done", "params", "folded", "start",
                 "dense", "checked")

    @staticmethod
    def of(ctx, params: list, steps: list, pool: Pool, values: dict, limit: int,
           checked: list, guards: frozenset | None = None,
           pinned: frozenset = frozenset()):
        """The spec made from a call that just ran every step (its values and sizes; `ctx`
        its context). `guards`: the (how, instruction) reads of sizes off values of this
        computation's steps (_guards): each not folded is compared after its step with
        what it was here (its shape for "result", its value for "value"). `pinned`: steps
        whose values the key holds (loops.pinned_elements): what is made of them is folded."""
        info, env = ctx.info, ctx.env
        fast = Fast()
        fast.gen, fast.limit = pool.gen, limit
        numbered = {number: inst for inst, number in params}
        # the dynamic parameters' shapes here (a called computation's are checked per call,
        # unless its key holds its arguments' shapes: a guarded one's, CompiledEvaluator._walk)
        fast.checked = [] if guards is not None else \
            [(inst, signature(values[inst])) for inst in checked]
        # the parameters in argument order when every argument has one
        fast.params = [numbered[k] for k in range(len(numbered))] \
            if set(numbered) == set(range(len(params))) else None
        dims = info.dims
        # values the same at every call of this key: held by the spec, their steps skipped
        fast.folded = folded(info, steps, values, _FOLD_KINDS, pinned)
        # values the spec's steps hold (their buffers' views, the folded arrays)
        fixed: dict = {inst: value for inst, value in fast.folded.items()
                       if value.__class__ is np.ndarray}
        # what a kernel reads of a folded value: a dense copy of a broadcast view (the same
        # elements; a zero stride keeps LLVM's loops from their vector forms: a causal mask
        # made from iotas ran 8x slower)
        dense = fast.dense = {   # held by the spec: its kernels' arguments hold addresses
            inst: np.ascontiguousarray(value) for inst, value in fixed.items()
            if 0 in value.strides and 1 < value.size and value.nbytes <= _DENSE_BYTES}

        def view(buf: int, shape: tuple, dtype):
            entry = pool[buf]
            if entry is None or entry[0].nbytes < math.prod(shape) * dtype.itemsize:
                return None
            return np.ndarray(shape, dtype, entry[0])

        # values a specialized step may hold: the folded ones, and those later sizes read
        # (guarded: equal to these whenever the steps after their guards run)
        settled = dict(fast.folded)
        settled.update((read, values[read]) for how, read in guards or ()
                       if how == "value" and read in values)
        # views of held values (a reshape or transpose of a kernel's or matrix product's
        # buffer): the same array at every call, set before the first step (no step runs)
        views: dict = {}
        sized_by = {r for _, r in guards or ()}   # values later sizes read: kept as steps
        root = info.computation.root
        ops, where = [], []
        for index, (kind, inst, what, _, buf) in enumerate(steps):
            if inst in fast.folded:
                continue
            op = None
            value = values.get(inst)
            if kind == _LOWERING and inst.opcode in _PLUMBING and \
                    what is LOWERINGS[inst.opcode]:
                op = (_ELEMENT, inst, inst.operands[0], attrs.integer(inst, "index"),
                      signature(value)) if inst.opcode is Opcode.GET_TUPLE_ELEMENT else \
                    (_TUPLE, inst, inst.operands, None, signature(value))
            elif dims.get(inst).__class__ is list or value.__class__ is not np.ndarray:
                pass
            elif kind == _KERNEL:
                shape = what.shape or env.sizes(what.dims)
                out = view(buf, shape, what.dtype) if buf >= 0 else None
                if buf < 0 or out is not None:
                    args = [0 if out is None else data_address(out)]
                    args += shape if what.domain is None else env.sizes(what.domain)
                    patches = []
                    for leaf in what.leaves:
                        known = dense.get(leaf)
                        if known is None:
                            known = fixed.get(leaf)
                        leaf_value = values[leaf] if known is None else known
                        if leaf_value.__class__ is not np.ndarray:
                            break
                        if known is None:
                            patches.append((len(args), leaf, leaf_value.strides))
                        args.append(0 if known is None else data_address(known))
                        args += leaf_value.shape
                        args += leaf_value.strides
                    else:
                        packed = array("q", args)
                        op = (_KERNEL, inst, what.fn, packed, packed.buffer_info()[0],
                              tuple(patches), out, shape, what) if patches or out is None \
                            else (_KERNEL_IN_PLACE, inst, what.fn, packed.buffer_info()[0],
                                  out, what, packed)
                        if out is not None:
                            fixed[inst] = out
            elif kind == _DOT:
                a, b = values[what.lhs], values[what.rhs]
                if a.__class__ is np.ndarray and b.__class__ is np.ndarray:
                    a = a.T if what.lhs_t else a
                    b = b.T if what.rhs_t else b
                    out = view(buf, value.shape, value.dtype) if buf >= 0 else None
                    if (buf < 0 or out is not None) and a.shape[1] == b.shape[0]:
                        fa, fb = fixed.get(what.lhs), fixed.get(what.rhs)
                        # (a folded operand may be a broadcast view: the layout the
                        # reference hands matmul, made once)
                        op = (_DOT, inst, what.lhs, what.rhs, what.lhs_t, what.rhs_t,
                              _held_operand(what.lhs, fa, what.lhs_t, settled),
                              _held_operand(what.rhs, fb, what.rhs_t, settled), out)
                        if out is not None:
                            fixed[inst] = out
            elif kind == _BATCH_DOT:
                a, b = values[what.lhs], values[what.rhs]
                out = view(buf, value.shape, value.dtype) if buf >= 0 else None
                if (buf < 0 or out is not None) and a.__class__ is np.ndarray and \
                        b.__class__ is np.ndarray and a.dtype == b.dtype == what.dtype:
                    fn = what.fn(a.shape, b.shape, out)
                    if fn is not None:
                        op = (_BATCH_DOT, inst, what.lhs, what.rhs, a.shape, b.shape, fn)
                        if out is not None:
                            fixed[inst] = out
            elif kind == _UFUNC:
                x = values[what[1]]
                out = view(buf, value.shape, value.dtype) if buf >= 0 else None
                if (buf < 0 or out is not None) and x.__class__ is np.ndarray and \
                        x.flags.c_contiguous:
                    op = (_UFUNC, inst, what[0], what[1], what[1] in fixed, out)
                    if out is not None:
                        fixed[inst] = out
                elif x.__class__ is np.ndarray and x.shape == value.shape and \
                        x.dtype == value.dtype:
                    # (a transposed gather's value): the ufunc on it, a new array in its
                    # layout, as the reference's lowering (ops_elementwise.unary) calls it
                    op = (_UFUNC, inst, what[0], what[1], x.shape, None)
            elif kind == _LOWERING and (what is LOWERINGS.get(inst.opcode) or
                                        what is conv.lowering):
                special = specialize(ctx, inst, what, values, settled)
                if special is not None:
                    fn, sources, shapes = special
                    held = None if inst in sized_by or inst is root else \
                        _held_view(inst, fn, sources, fixed, settled)
                    if held is not None:
                        fixed[inst] = views[inst] = held
                        continue
                    op = (_SPECIAL_ONE, inst, fn, sources[0], shapes[0]) if len(sources) == 1 \
                        else (_SPECIAL_TWO, inst, fn, *sources, *shapes) if len(sources) == 2 \
                        else (_SPECIAL, inst, fn, sources, list(shapes))
            elif kind == _RESHAPE:
                source = fixed.get(what[0])
                shape = value.shape
                reshaped = None
                if source is not None:
                    reshaped = source.reshape(shape)
                    if not np.shares_memory(reshaped, source):   # pragma: no cover
                        reshaped = None
                if reshaped is not None:
                    fixed[inst] = reshaped
                    if inst not in sized_by and inst is not root:
                        views[inst] = reshaped
                        continue
                op = (_RESHAPE, inst, what[0], shape, reshaped)
            # a step run as it is: its sizes are settled for the key, so the shape it had
            # here passes the size check (another is checked)
            ops.append(op or (_LOWERING, inst, signature(value)))
            where.append(index)
            for how, read in guards or ():
                if read is inst and inst not in pinned:   # (a pinned value is the key's)
                    # a mismatch reruns the steps after this one
                    ops.append((_GUARD, inst, how, signature(value) if how == "result"
                                else np.array(value, copy=True)))
                    where.append(index + 1)
        root = values.get(info.computation.root)
        ops, where = memoized(ops, where, values, fast.folded, pinned, [
            a for a in (root if isinstance(root, tuple) else (root,))
            if isinstance(a, np.ndarray)], _MEMO_KINDS)
        if guards is not None:   # (after memoized: it finds the counters among the elements)
            ops, where = _unpacked(ops, where, {inst for inst, _ in params})
        fast.ops, fast.where = ops, where
        # per op: the steps before this index are done once it has run (a step handed to
        # _run_steps after it resumes there: the views set before the first step that
        # read a value it replaced are made again)
        # (a guard's, a memo's load's and store's index is the next step's already)
        fast.done = [k if op[0] in _NO_STEP else k + 1 for op, k in zip(ops, where, strict=True)]
        fast.start = {**fast.folded, **views}
        return fast


_NO_STEP = frozenset({_GUARD, _MEMO_LOAD, _MEMO_STORE})   # ops that run no step of their own
# the specialized lowerings whose value is a view of their operands' (special.py)
_VIEWS = frozenset({Opcode.DYNAMIC_RESHAPE, Opcode.TRANSPOSE, Opcode.SLICE, Opcode.BROADCAST,
                    Opcode.GATHER, Opcode.DYNAMIC_SLICE})


def _held_view(inst, fn, sources: tuple, fixed: dict, settled: dict):
    """The value of a specialized view step (_VIEWS) whose operands are all held by the spec,
    at least one in a buffer: `fn` of them, when it is a view of one (never a copy, which
    would not see the buffer's later contents); else None."""
    if inst.opcode not in _VIEWS or not sources or any(s not in fixed for s in sources) or \
            all(s in settled for s in sources):
        return None
    value = fn(*[fixed[s] for s in sources])
    if value.__class__ is not np.ndarray or \
            not any(np.may_share_memory(value, fixed[s]) for s in sources):
        return None
    return value


def _held_operand(inst, value, transposed: bool, settled: dict):
    """What np.matmul reads of a matrix product's operand the spec holds (`value`, None:
    read per call): blas_layout's, made once, when that is the held array itself or a copy
    of a value fixed for the key (a folded broadcast); a copy of a buffer's view would miss
    its later contents."""
    if value is None:
        return None
    a = value.T if transposed else value
    laid = blas_layout(a)
    return laid if laid is a or inst in settled else None
