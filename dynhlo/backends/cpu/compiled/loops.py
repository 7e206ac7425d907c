"""A while loop on the compiled path: what it reads off the loop's computations, and the
WHILE lowering that uses it (`compiled_while`).

XLA operation semantics (While): `while(condition, body, init)` carries one value (here a
tuple) through `body` as long as `condition` of it gives true; the body's result is the
next iteration's state. Two shapes of computation are common enough to run differently:

- *Pinned elements.* A body whose root is a tuple returning element k of its parameter
  unchanged (`get-tuple-element(param), index=k` as operand k of the root) carries that
  element with the same value through every iteration (JAX passes the dimension variables
  and weights a loop captures this way). An integer scalar such element that the body's
  sizes are computed from joins the key of the body's specialized steps (fast.Fast) with
  its value, so what is computed from it alone (the shape vectors of `b`, the index arrays
  of slices at those sizes) is folded once per value instead of being computed per
  iteration.
- *Counter conditions.* A condition that is one `compare` of an integer scalar element of
  its parameter with an integer constant (`i < 12`) is evaluated on the element's value
  directly, without running the computation.

Both are decided from the computations' instructions alone; `None` or empty means "run the
computation as it is". The body runs through the evaluator (its specs, fast.Fast) at
every iteration, as the reference's lowering runs it, the lookups that cannot change
between iterations done once per loop (loop_body.py).
"""

from __future__ import annotations

from ....hlo.loop_counter import INTEGERS, counter_condition, single_tuple_parameter, \
    tuple_element
from ....hlo.opcodes import Opcode
from ....hlo.shape import UNBOUNDED
from ....shapes.rules_control_flow import BODY, CONDITION
from ....shapes.schedule import leaf_dims
from ...common.memory import nbytes
from .folding import IMPURE, size_reads

def carried_update(computation, inst) -> bool:
    """Whether dynamic-update-slice `inst` of loop body `computation` may write into its
    operand's array from the second iteration of a loop call on: its operand is state element
    k, which nothing else in the body reads (every get-tuple-element of k has `inst` as its
    only reader, and only get-tuple-elements read the state), and `inst` is read only by the
    root tuple, once, as element k. The old
    element is then dead once `inst` has read it, and the new one reaches nothing but the
    next iteration's element k (no view of it, no second element holding it): XLA's in-place
    dynamic-update-slice of a loop's carried buffer (a scan's stacked outputs)."""
    param = single_tuple_parameter(computation)
    root = computation.root
    if param is None or root.opcode is not Opcode.TUPLE or \
            inst.opcode is not Opcode.DYNAMIC_UPDATE_SLICE:
        return False
    k = tuple_element(inst.operands[0], param)
    if k is None or root.operands.count(inst) != 1 or root.operands.index(inst) != k or \
            any(tuple_element(o, param) == k for o in inst.operands[1:]):
        return False
    for other in computation.instructions:
        if other is not root and any(o is inst for o in other.operands):
            return False
        if other is not inst and any(tuple_element(o, param) == k for o in other.operands):
            return False
        # (the whole state read otherwise, an opt-barrier, call or tuple of it: element k
        # may be read through it)
        if other.opcode is not Opcode.GET_TUPLE_ELEMENT and \
                any(o is param for o in other.operands):
            return False
    return True


def pinned_elements(computation, sized) -> tuple:
    """((k, instruction), ...): the integer scalar elements k of the computation's one tuple
    parameter that its root tuple returns unchanged and that the values its sizes read
    (`sized`: instructions) are computed from, each with the get-tuple-element of it those
    read (the first one in instruction order); () when there are none. (An element no size
    reads stays out of the key: a loop bound passed through and compared only by the
    condition would make a spec per bound.)"""
    param = single_tuple_parameter(computation)
    root = computation.root
    if param is None or root.opcode is not Opcode.TUPLE or not sized:
        return ()
    ancestors, stack = set(), list(sized)
    while stack:
        inst = stack.pop()
        if inst not in ancestors:
            ancestors.add(inst)
            stack.extend(inst.operands)
    elements = param.shape.elements
    through = {k for k, operand in enumerate(root.operands)
               if tuple_element(operand, param) == k and k < len(elements)
               and not elements[k].is_tuple and elements[k].rank == 0
               and elements[k].element_type in INTEGERS}
    readers = {}
    for inst in computation.instructions:
        k = tuple_element(inst, param)
        if k in through and k not in readers and inst in ancestors:
            readers[k] = inst
    return tuple(sorted(readers.items()))


# Counted loop bodies: a counter's values up to this join the key of the body's specs
_COUNTED = 64
# ... where the body's values at their bounds take at most this many bytes (each counter
# value's spec holds its own scratch arrays)
_COUNTED_BYTES = 1 << 20


def counter_elements(computation, pinned: tuple) -> tuple:
    """((k, instruction), ...): the integer scalar elements k of a loop body's one tuple
    parameter, not pinned, that the body reads (its first get-tuple-element of each).

    A *counted* body's specs are keyed by these elements' values as well (counter_values):
    what is made of them (JAX's clamped start vectors and index arrays of the row a scan
    reads or writes at its counter) is folded, so the row's gather or dynamic-update-slice
    becomes a copy of fixed boxes (placement.py) inside a run of native calls. A spec per
    counter value of every iteration is made only for a small body (small_body); a long
    loop or a larger body gets specs for its first iterations only
    (native_loop_template.py)."""
    param = single_tuple_parameter(computation)
    if param is None:
        return ()
    elements = param.shape.elements
    skip = {k for k, _ in pinned}
    found = {}
    for inst in computation.instructions:
        k = tuple_element(inst, param)
        if k is not None and k not in skip and k not in found and k < len(elements) and \
                not elements[k].is_tuple and elements[k].rank == 0 and \
                elements[k].element_type in INTEGERS:
            found[k] = inst
    return tuple(sorted(found.items()))


def small_body(computation) -> bool:
    """Whether a loop body's values at their bounds take at most _COUNTED_BYTES (a spec
    per counter value of each iteration then holds little)."""
    size = 0
    for inst in computation.instructions:
        shape = inst.shape
        if not shape.is_tuple and shape.element_type not in ("token", "opaque"):
            if UNBOUNDED in shape.dims:
                return False
            size += nbytes(shape.element_type, shape.dims)
    return size <= _COUNTED_BYTES


def counters_follow(computation, counters: tuple, pinned: tuple) -> bool:
    """Whether each counter element's next value (the root tuple's operand) is made only
    of the counters, the pinned elements, constants and sizes through pure opcodes (no
    other element's value): the counter values of every iteration then follow from the
    first ones (native_loop.LoopPlan)."""
    param = single_tuple_parameter(computation)
    root = computation.root
    if param is None or root.opcode is not Opcode.TUPLE:
        return False
    allowed = {k for k, _ in counters} | {k for k, _ in pinned}
    seen: set = set()
    stack = [root.operands[k] for k, _ in counters if k < len(root.operands)]
    while stack:
        inst = stack.pop()
        if inst in seen:
            continue
        seen.add(inst)
        k = tuple_element(inst, param)
        if k is not None:
            if k not in allowed:
                return False
            continue
        if inst.opcode in IMPURE or inst.opcode is Opcode.PARAMETER:
            return False
        stack.extend(inst.operands)
    return True


def counter_values(state, counters: tuple):
    """The Python ints of the counter elements of `state`, when each is in [0, _COUNTED);
    else None (a spec keyed so folds nothing made of them)."""
    out = tuple(int(state[k]) for k, _ in counters)
    for v in out:
        if not 0 <= v < _COUNTED:
            return None
    return out


def pinned_values(state, pinned: tuple) -> tuple:
    """The Python ints of the pinned elements of `state` (a tuple value), in order."""
    return tuple(int(state[k]) for k, _ in pinned)


def unread_elements(computation, loop) -> frozenset:
    """The indices of the while `loop`'s result elements that nothing in `computation` (its
    caller) reads: every reader of the loop is a get-tuple-element (of other indices), and
    the loop is not the root; empty where anything else reads the whole result."""
    if computation.root is loop:
        return frozenset()
    read = set()
    for inst in computation.instructions:
        if any(o is loop for o in inst.operands):
            k = tuple_element(inst, loop)
            if k is None:
                return frozenset()
            read.add(k)
    return frozenset(range(len(loop.shape.elements))) - read


def self_sized(info, param) -> bool:
    """Whether every size of `param`'s dims tree (in `info`) is read off its own value (the
    check of its sizes then always passes: a condition run without its steps skips none)."""
    memo: dict = {}
    return size_reads(leaf_dims(info.dims[param]), memo) <= {("result", param)}


def compiled_while(evaluator, reference):
    """The compiled path's WHILE lowering (XLA operation semantics, While): as `reference`
    (ops_control_flow.while_: the condition of the state, then the body, until false; the
    max_while_iterations limit counted the same), with a counter condition
    (counter_condition, its parameter's sizes its own) compared on the state directly.
    Anything else (a vectorized map's loop, a callee not analysed) is `reference`'s."""
    tests: dict = {}
    unread_of: dict = {}   # (the instruction is kept with its elements: its id stays its own)

    def test_of(ctx, inst):
        """The loop's counter condition, or None (the reference's way)."""
        cond_info = ctx.info.calls.get((inst, CONDITION))
        if ctx.vectorized or cond_info is None or (inst, BODY) not in ctx.info.calls:
            return None
        known = tests.get(id(cond_info))
        if known is None:   # (the info is kept with its test: its id stays its own)
            comp = cond_info.computation
            test = counter_condition(comp)
            if test is not None and not self_sized(cond_info, comp.parameters[0]):
                test = None
            known = tests[id(cond_info)] = (cond_info, test)
        return known[1]

    def unread_of_loop(ctx, inst) -> frozenset:
        unread = unread_of.get(id(inst))
        if unread is None:
            unread = unread_of[id(inst)] = (inst, unread_elements(ctx.info.computation, inst))
        return unread[1]

    def while_(ctx, inst, args):
        test = test_of(ctx, inst)
        if test is None:
            return reference(ctx, inst, args)
        (state,) = args
        # (EvalContext.call's run of the body, its per-loop work done once: loop_body.py)
        return evaluator.run_loop(ctx.info.calls[(inst, BODY)], ctx.env, state, test, inst,
                                  unread_of_loop(ctx, inst))

    def planned(ctx, inst, shapes):
        """A spec's run of loop `inst` (loop_body.PlannedLoop, for a spec made in `ctx`
        whose loop gave a result of signature `shapes`), or None where its iterations do
        not follow from its first state."""
        test = test_of(ctx, inst)
        return None if test is None else evaluator.planned_loop(
            ctx.info.calls[(inst, BODY)], ctx.env, test, inst, unread_of_loop(ctx, inst),
            shapes)
    while_.planned = planned
    return while_
