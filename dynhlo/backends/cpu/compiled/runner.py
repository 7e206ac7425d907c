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

import math
import threading
import weakref
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
from ...plan.fusion import kernels_of, plan_computation
from ..evaluator import EvalContext, Evaluator
from ..lowering import LOWERINGS
from . import conv, machine
from .batch_dot import BatchDot
from .folding import size_reads
from .kernels import generate
from .loop_body import _COUNTED_SPECS, body_runs, planned_loop, run_loop
from .loops import (compiled_while, counter_elements, counters_follow,
                    pinned_elements, pinned_values, small_body)
from .native_chain import restrided
from .fast import _FAST_KEYS, Fast
from .rules import rules
from .steps import (_BATCH_DOT, _CHAIN, _DOT, _ELEMENT, _GUARD, _KERNEL, _KERNEL_IN_PLACE,
                    _LOOP, _LOWERING, _MATMUL_TYPES, _MEMO_LOAD, _MEMOIZED, _PARAM, _RESHAPE,
                    _SPECIAL, _SPECIAL_ONE, _SPECIAL_TWO, _TUPLE, _UFUNC, _UFUNCS, _UNPACK,
                    CompiledKernel, MatmulDot, Pool, _same_value, blas_layout, data_address,
                    pooled, signature)


class _Values(dict):
    """A call's values over a spec's held ones (Fast.start: hundreds of folded weights),
    which a key not set reads: no copy of them per call."""

    __slots__ = ("start",)

    def __missing__(self, inst):
        return self.start[inst]


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
        # id(info) -> a loop body's counter elements (loops.counter_elements), and their
        # indices where their next values follow from them (loops.counters_follow: plans
        # of its loops; else none)
        self._counters: dict = {}
        self._follows: dict = {}
        self._small: dict = {}   # id(info) -> whether a body is small (loops.small_body)
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
        counters = self._counters[id(info)] = counter_elements(info.computation,
                                                               self._pinned[id(info)])
        self._small[id(info)] = small_body(info.computation)
        self._follows[id(info)] = frozenset(k for k, _ in counters) if counters and \
            counters_follow(info.computation, counters, self._pinned[id(info)]) \
            else frozenset()
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

    def body_runs(self, info, parent: SizeEnv):
        """A context whose value runs one iteration of the loop body `info` in `parent`,
        `step(state) -> state`, as `run(info, [state], parent)` (loop_body.py)."""
        return body_runs(self, info, parent)

    def run_loop(self, info, parent: SizeEnv, state, test, inst, unread=frozenset()):
        """The final state of the while loop `inst` of body `info` from `state`, its
        condition the counter condition `test`; `unread`: the indices of the elements its
        caller never reads (loop_body.run_loop)."""
        return run_loop(self, info, parent, state, test, inst, unread)

    def planned_loop(self, info, parent: SizeEnv, test, inst, unread, shapes):
        """A spec's run of the counted loop `inst` of body `info` (loop_body.planned_loop),
        or None."""
        return planned_loop(self, info, parent, test, inst, unread, shapes)

    def _walk(self, info, steps: list, pool: Pool, args: list, parent, args_shapes,
              counted: tuple | None = None):
        """One call: through the spec of its key when there is a valid one, else every
        step, then the spec made of it (kept). `counted`: a counted loop body's counter
        values (loops.counter_values, from loop_body.py), joining the key and folded."""
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
        if counted is not None and key is not None:
            key = (*key, counted)
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
            # (the values the key holds: the pinned elements', the counters')
            held = frozenset(inst for _, inst in pinned)
            if counted is not None:
                held |= frozenset(inst for _, inst in self._counters[id(info)])
            fast = Fast.of(ctx, params, steps, pool, values, self.memory_limit, checked, guards,
                           held)
            if fast is not None:
                # specs over buffers since replaced hold the old buffers: dropped
                kept = {k: f for k, f in pool.fast.items() if f.gen == fast.gen and k != key}
                # (a counted body keeps a spec per counter value of each first key it
                # counts: loop_body._COUNTED_KEYS; fewer would make them again and again)
                while len(kept) >= (_FAST_KEYS if counted is None else _COUNTED_SPECS):
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
        values = _Values()   # (the spec's held values read through, not copied)
        values.start = fast.start
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
        ndarray, matmul, address, ref = np.ndarray, np.matmul, data_address, weakref.ref
        where = fast.where
        position = 0   # of the op running; where[position]: its step's index
        inst = None
        remembered = key = None   # the memo's values for this call's counters (memo.py)
        resume = None   # the step a refusal in a run of native calls resumes at
        # (NumPy's floating-point warnings are off: CpuProgram.run's errstate)
        try:
            for op in fast.ops:
                kind, inst = op[0], op[1]
                if kind == _CHAIN:   # native calls, one call (native_chain.py)
                    for new, shape, dtype, targets, axes, make in op[9]:   # new arrays
                        value = make(shape, dtype)
                        values[new] = value if axes is None else value.transpose(axes)
                        at = address(value)
                        for packed, slot, offset in targets:
                            packed[slot] = at + offset
                    for view, fn, source in op[11]:   # views of them (native_chain._view)
                        values[view] = fn(values[source])
                    for group in op[6]:   # the values read: (native_chain._grouped)
                        value = values[group[0]]   # (made before the run, or a parameter)
                        # the array whose addresses the last call wrote (a weight passed
                        # at every call): its data address cannot change, its strides
                        # (a deprecated setter) and shape are compared
                        last = group[6]
                        if last is not None and last() is value and \
                                value.strides == group[2] and \
                                (group[1] is None or value.shape == group[1]):
                            continue
                        if value.__class__ is not ndarray:   # a NumPy scalar (a loop's)
                            value = values[group[0]] = np.asarray(value)
                        if value.strides != group[2] or group[1] is not None and \
                                value.shape != group[1]:
                            if group[1] is not None and value.shape != group[1] or \
                                    not restrided(group, value):
                                resume = op[10]   # (before the steps a joined op stands for)
                                break
                        at = address(value)
                        group[6] = ref(value)
                        if at == group[5]:   # (its addresses written by the last call)
                            continue
                        for packed, slot, offset in group[3]:
                            packed[slot] = at + offset
                        group[5] = at
                    else:
                        stop = op[2](op[3], op[4])
                        if stop == op[4]:
                            values.update(op[5])
                            position += 1
                            continue
                        # member `stop` refused: those before it ran; its reference
                        # value or error, then the steps after it
                        inst, what, resume, ran = op[7][stop]
                        values.update(op[5][:ran])
                        if what is not None:   # (a product's: its own step again)
                            ctx.inst = inst
                            values[inst] = np.array(what.reference(ctx, values))
                    break   # (an input of another layout: the run's steps on their own)
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
                        # (a fused chain's: its steps, chains.py)
                        self._run_steps(ctx, values, pool, op[5] if len(op) > 5 else
                                        [steps[where[position]]], 0, {})
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
                        # (a fused chain's: its steps, chains.py)
                        self._run_steps(ctx, values, pool, op[5] if len(op) > 5 else
                                        [steps[where[position]]], 0, {})
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
                if kind == _LOOP:   # through its plan, else its body's specs (PlannedLoop)
                    loop, state = op[3], values[op[4]]
                    value = loop(state)
                    if value is None:
                        ctx.inst = inst
                        value = loop.stepped(env, state)
                        if signature(value) != op[2]:
                            check_sizes(env, inst, value, info.dims[inst])
                    values[inst] = value
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
                    _, _, fn, source, fixed, out, _ = op
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
        if resume is None:
            resume = fast.done[position - 1] if position else 0
        self._run_steps(ctx, values, pool, steps, resume, {})
        return values[info.computation.root]
