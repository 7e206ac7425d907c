"""Shape rules of control flow: call, fusion, while, conditional, map, copy-start/copy-done.

A while loop's carried value may change a dynamic size from one iteration to the next (a
set-dimension-size in the body), so the body and the condition never see the operand's Syms:
each dynamic dimension of their parameter is read off the actual value at every invocation
(sizes.result_dim of the parameter, evaluated in that invocation's SizeEnv). Which dimensions are
dynamic is a fixed point: dynamic in the operand, declared dynamic, or made dynamic by the body.
A conditional's branches may give different sizes; a dimension on which they disagree is read
off the computed result, and so is a size that a callee computes inside itself. Semantics: XLA
operation semantics (While, Conditional, Map) and DynamicDimensionInference.
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.loop_counter import INTEGERS as _INTEGERS, tuple_element
from ..hlo.opcodes import Opcode
from . import values
from .rules import elementwise, rule
from .sizes import Sym, bound_of, deps, result_dim, same_size, size_of, unify

CONDITION, BODY = 0, 1  # call-site indices of a while's computations (the lowering uses them)


def exported(inst, comp, tree, path=()):
    """A callee root's dims as the caller sees them.

    A size computed inside the callee (a set-dimension-size there) cannot be evaluated in the
    caller's SizeEnv, so such a dim is read off the calling instruction's result instead.
    """
    if isinstance(tree, list):
        return [exported(inst, comp, t, path + (i,)) for i, t in enumerate(tree)]
    inside = set(map(id, comp.instructions))
    out = []
    for d, dim in enumerate(tree):
        expr = dim.root().expr if isinstance(dim, Sym) else None
        if expr is not None and any(id(dep) in inside for dep in deps(expr)):
            dim = result_dim(inst, path, d, bound_of(dim))
        out.append(dim)
    return tuple(out)


@rule(Opcode.CALL, Opcode.FUSION)
def _call(ctx, inst, operands):
    key = "to_apply" if inst.opcode is Opcode.CALL else "calls"
    (comp,) = inst.called.get(key) or [None]
    if comp is None:
        raise ctx.error(f"{inst.opcode.value} needs {key}=")
    return exported(inst, comp, ctx.call(comp, operands).dims[comp.root])


def _mask(tree, shape):
    """Per leaf dimension: is it dynamic in `tree` or declared dynamic in `shape`?"""
    if isinstance(tree, list):
        if shape is None or not shape.is_tuple or len(shape.elements) != len(tree):
            return [_mask(t, None) for t in tree]
        return [_mask(t, s) for t, s in zip(tree, shape.elements, strict=True)]
    declared = shape.dynamic if shape is not None and not shape.is_tuple and \
        shape.rank == len(tree) else (False,) * len(tree)
    return tuple(isinstance(d, Sym) or bool(flag) for d, flag in zip(tree, declared, strict=True))


def _merge(a, b):
    if isinstance(a, list):
        return [_merge(x, y) for x, y in zip(a, b, strict=True)]
    return tuple(x or y for x, y in zip(a, b, strict=True))


def _read_off(inst, mask, bounds, static_like=None, path=()):
    """A tree whose masked dims are read off `inst`'s value (sizes.result_dim) at run time;
    `static_like` marks those XLA holds static (Sym.static_like)."""
    if isinstance(mask, list):
        like = static_like or [None] * len(mask)
        return [_read_off(inst, m, b, s, path + (i,))
                for i, (m, b, s) in enumerate(zip(mask, bounds, like, strict=True))]
    like = static_like or (False,) * len(mask)
    return tuple(result_dim(inst, path, d, bound_of(b), s) if m else b
                 for d, (m, b, s) in enumerate(zip(mask, bounds, like, strict=True)))


def _constant_dims(tree):
    """Per leaf dimension: a broadcast of a constant carried into the loop (its Sym has no
    size of its own; XLA holds it static). Inside the loop it meets sizes as a static
    dimension: igamma's loops mix such constants with x-sized values, and at size 1 they
    are not a size 1 to broadcast."""
    if isinstance(tree, list):
        return [_constant_dims(t) for t in tree]
    return tuple(isinstance(d, Sym) and d.expr is None for d in tree)


def _bounds(tree):
    if isinstance(tree, list):
        return [_bounds(t) for t in tree]
    return tuple(bound_of(d) for d in tree)


@rule(Opcode.WHILE)
def _while(ctx, inst, operands):
    (state,) = operands
    (cond,) = inst.called.get("condition") or [None]
    (body,) = inst.called.get("body") or [None]
    if cond is None or body is None:
        raise ctx.error("while needs condition= and body=")
    bounds = _bounds(state)
    mask = _merge(_mask(state, inst.shape), _mask(state, body.parameters[0].shape))
    carried = _constant_dims(state)
    ties = _ties(ctx, inst, state, body, mask)
    # Each pass adds dynamic dims or drops tied ones (the sizes the body does not keep), so
    # this ends within (number of dims + 1) passes; one where nothing changes
    while True:
        tree, known = _tied(body.parameters[0], mask, bounds, carried, ties)
        info = ctx.call(body, [tree], BODY, known)
        root = info.dims[body.root]
        if _bounds(root) != bounds:
            raise ctx.error(f"while body '{body.name}' returns bounds "
                            f"{_bounds(root)}, the loop carries {bounds}")
        grown = _merge(mask, _mask(root, None))
        kept = {j: held for j, tied in ties.items()
                if (held := [(i, d) for i, d in tied if same_size(root[i][d], tree[i][d])])}
        if grown == mask and kept == ties:
            break
        mask, ties = grown, kept
    tree, known = _tied(cond.parameters[0], mask, bounds, carried, ties)
    cond_info = ctx.call(cond, [tree], CONDITION, known)
    if cond_info.dims[cond.root] != ():
        raise ctx.error(f"while condition '{cond.name}' must return pred[]")
    param = info.dims[body.parameters[0]]
    result = _keep_invariant(state, param, info.dims[body.root], _read_off(inst, mask, bounds))
    for tied in ties.values():   # (a tied size is the operand's at every iteration)
        for i, d in tied:
            result[i] = result[i][:d] + (state[i][d],) + result[i][d + 1:]
    return result


def _ties(ctx, inst, state, body, mask) -> dict:
    """{j: [(i, d), ...]}: the dynamic dimensions d of state elements i whose size is, in
    the operand, the value of the integer scalar element j that the body returns
    unchanged, all of one bound. Then every iteration's sizes are that value (XLA's dynamic
    dimension inference carries a loop's sizes as such elements): the body sees one size,
    not one read off each element, and the values made of j are that size, so they meet as
    one. A hypothesis until the body is seen to keep it (_while)."""
    root, param, init = body.root, body.parameters[0], inst.operands[0]
    if root.opcode is not Opcode.TUPLE or init.opcode is not Opcode.TUPLE or \
            not isinstance(state, list) or len(init.operands) != len(state):
        return {}
    scalars = {}   # the operand's value of each scalar the body passes through -> j
    for j, op in enumerate(root.operands):
        shape = op.shape
        if tuple_element(op, param) == j and not shape.is_tuple and shape.rank == 0 and \
                shape.element_type in _INTEGERS:
            size = values.scalar(ctx.info, init.operands[j])
            if not size.data:
                scalars.setdefault(size, j)
    ties: dict = {}
    bound = {}
    for i, (tree, flags) in enumerate(zip(state, mask, strict=True)):
        if isinstance(tree, list):
            continue
        for d, (dim, dynamic) in enumerate(zip(tree, flags, strict=True)):
            if dynamic and isinstance(dim, Sym) and dim.root().expr is not None:
                j = scalars.get(size_of(dim))
                if j is not None and bound.setdefault(j, bound_of(dim)) == bound_of(dim):
                    ties.setdefault(j, []).append((i, d))   # (one Sym holds one bound)
    return ties


def _tied(param, mask, bounds, carried, ties: dict) -> tuple:
    """(_read_off of a loop computation's parameter with each tie's dimensions one Sym,
    read off the first of them; ComputationInfo.param_values: element j's value is that
    Sym's size)."""
    tree = _read_off(param, mask, bounds, carried)
    known = {}
    for j, tied in ties.items():
        i0, d0 = tied[0]
        sym = tree[i0][d0]
        for i, d in tied:
            tree[i] = tree[i][:d] + (sym,) + tree[i][d + 1:]
        known[(0, j)] = size_of(sym)
    return tree, known


def _keep_invariant(state, param, root, result):
    """A size the body passes through unchanged is the operand's size: the result keeps the
    operand's dim (as XLA does), so it meets the loop's input without a run-time read."""
    if isinstance(result, list):
        return [_keep_invariant(*parts) for parts in zip(state, param, root, result, strict=True)]
    return tuple(s if isinstance(p, Sym) and isinstance(r, Sym) and p.root() is r.root()
                 else out for s, p, r, out in zip(state, param, root, result, strict=True))


def _same_dim(dims) -> bool:
    first = dims[0]
    if isinstance(first, int):
        return all(isinstance(d, int) and d == first for d in dims)
    return all(isinstance(d, Sym) and d.root() is first.root() for d in dims)


def _join_branches(inst, trees, path=()):
    """One tree for every branch: a dim the branches agree on, else read off the result."""
    if isinstance(trees[0], list):
        return [_join_branches(inst, [t[i] for t in trees], path + (i,))
                for i in range(len(trees[0]))]
    out = []
    for d in range(len(trees[0])):
        dims = [t[d] for t in trees]
        if _same_dim(dims):
            out.append(dims[0])
        else:
            bound = max(bound_of(x) for x in dims)
            out.append(result_dim(inst, path, d, bound))
    return tuple(out)


def branches(inst):
    """The branch computations of a conditional, in index order (true is branch 0)."""
    if "branch_computations" in inst.called:
        return list(inst.called["branch_computations"])
    return list(inst.called.get("true_computation", [])) + \
        list(inst.called.get("false_computation", []))


@rule(Opcode.CONDITIONAL)
def _conditional(ctx, inst, operands):
    comps = branches(inst)
    if not comps or len(operands) != len(comps) + 1:
        raise ctx.error(f"conditional has {len(comps)} branch computation(s) and "
                        f"{len(operands) - 1} branch operand(s); they must match")
    if operands[0] != ():
        raise ctx.error("the branch selector (operand 0) must be a scalar")
    roots = []
    for k, (comp, tree) in enumerate(zip(comps, operands[1:], strict=True)):
        roots.append(exported(inst, comp, ctx.call(comp, [tree], k).dims[comp.root]))
    shapes = {str(_bounds(r)) for r in roots}
    if len(shapes) != 1:
        raise ctx.error(f"branches return different shapes: {sorted(shapes)}")
    return _join_branches(inst, roots)


@rule(Opcode.MAP)
def _map(ctx, inst, operands):
    (comp,) = inst.called.get("to_apply") or [None]
    if comp is None or not operands:
        raise ctx.error("map needs operands and to_apply=")
    if len(comp.parameters) != len(operands):
        raise ctx.error(f"map has {len(operands)} operands but to_apply '{comp.name}' takes "
                        f"{len(comp.parameters)} parameters")
    mapped = attrs.ints(inst, "dimensions", tuple(range(len(operands[0]))))
    if sorted(mapped) != list(range(len(operands[0]))):
        raise ctx.error(f"dimensions={list(mapped)} must list every operand dimension")
    return elementwise(ctx, operands, join=unify)



@rule(Opcode.COPY_START)
def _copy_start(ctx, inst, operands):
    """XLA: copy-start gives (destination, source, u32[] context)."""
    (operand,) = operands
    if isinstance(operand, list):
        raise ctx.error("copy-start of a tuple is not supported; copy its elements")
    return [operand, operand, ()]


@rule(Opcode.COPY_DONE)
def _copy_done(ctx, inst, operands):
    (operand,) = operands
    if not isinstance(operand, list) or len(operand) < 2:
        raise ctx.error("copy-done takes the (destination, source, context) of a copy-start")
    return operand[0]
