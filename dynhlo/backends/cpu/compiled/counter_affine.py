"""Whether a counted loop body does the same thing at every iteration but for rows that
move by a fixed stride (`affine_counter`): the guard of native_loop_template.py, which
runs a long loop from the specs of its first few iterations.

A counted body's specs fold what is made of the counter (loops.counter_elements): JAX's
clamped start vectors and index arrays of the row a scan reads or writes. Extrapolating
from a few iterations is right only where each such value is affine in the iteration
number over the whole trip range and reaches the data only as start indices whose clamp
never binds (XLA operation semantics, DynamicSlice, DynamicUpdateSlice, Gather: a start
is clamped to [0, dim - size], so a body reading row i + 1 reads row T - 1 twice), or is
the same at every iteration. This is decided on the HLO with the loop's actual first
state: the integer instructions made of the counter (constants, other integer elements
the body passes through unchanged, elementwise integer arithmetic, compare, select,
convert, reshape, broadcast, slice, concatenate, iota) are evaluated for every counter
value of the range at once (a leading axis of the trips), and each value read by anything
else checked: the same at every iteration, or a start index (of a dynamic-slice,
dynamic-update-slice or gather, along a static dimension) inside its clamp's range at
every iteration, or the counter's next value (c0 + (j + 1) * step at iteration j).
Anything else (a varying value read by a data compare or select, an opcode not listed, a
value past its type's range) refuses.
"""

from __future__ import annotations

import numpy as np

from ....hlo import attrs
from ....hlo.loop_counter import INTEGERS, single_tuple_parameter, tuple_element
from ....hlo.opcodes import Opcode

_TRIPS = 1 << 20   # the longest loop extrapolated
_ELEMENTS = 1 << 22   # the most integer elements evaluated (all values, all iterations)
# each integer type's values (those past int64's: not followed)
_RANGE = {t: (int(np.iinfo(n).min), min(int(np.iinfo(n).max), (1 << 63) - 1))
          for t, n in ((t, ("int" if t[0] == "s" else "uint") + t[1:]) for t in INTEGERS)}
_TYPES = INTEGERS | {"pred"}   # the element types evaluated
_BINARY = {Opcode.ADD: np.add, Opcode.SUBTRACT: np.subtract, Opcode.MULTIPLY: np.multiply,
           Opcode.MAXIMUM: np.maximum, Opcode.MINIMUM: np.minimum, Opcode.AND: np.bitwise_and,
           Opcode.OR: np.bitwise_or}
# the opcodes evaluated (of operands evaluated first)
_HANDLED = frozenset({*_BINARY, Opcode.DIVIDE, Opcode.REMAINDER, Opcode.NEGATE, Opcode.NOT,
                      Opcode.CLAMP, Opcode.COMPARE, Opcode.SELECT, Opcode.CONVERT,
                      Opcode.RESHAPE, Opcode.BITCAST, Opcode.SLICE, Opcode.CONCATENATE,
                      Opcode.BROADCAST})
_ELEMENTWISE = frozenset({*_BINARY, Opcode.DIVIDE, Opcode.REMAINDER, Opcode.CLAMP,
                          Opcode.COMPARE, Opcode.SELECT})
_COMPARE = {"LT": np.less, "LE": np.less_equal, "GT": np.greater, "GE": np.greater_equal,
            "EQ": np.equal, "NE": np.not_equal}


class _Refused(Exception):
    """A value not evaluated, or a use not proven affine."""


# what ends an evaluation with a refusal: the loop then runs as it would without a plan
# (NumPy's errors included: shapes or values this evaluation does not follow)
_NOT_FOLLOWED = (_Refused, ArithmeticError, ValueError, IndexError, TypeError, MemoryError)


def affine_counter(computation, element: int, state: tuple, test,
                   others: tuple = ()) -> tuple | None:
    """(trips, step) of a loop of body `computation` from first state `state` (a tuple)
    under counter condition `test` on counter element `element`, where every value made
    of the counter is affine over the trips (see the module docstring); else None.
    `others`: elements whose values key the body's specs too, refused unless the body
    passes them through unchanged (the same at every iteration)."""
    param = single_tuple_parameter(computation)
    root = computation.root
    if param is None or root.opcode is not Opcode.TUPLE or element >= len(root.operands) \
            or any(k >= len(root.operands) or tuple_element(root.operands[k], param) != k
                   for k in others):
        return None
    # (the state read whole, by a call or tuple: its counter read where not followed)
    if any(o is param and inst.opcode is not Opcode.GET_TUPLE_ELEMENT
           for inst in computation.instructions for o in inst.operands):
        return None
    kind = param.shape.elements[element]
    if kind.is_tuple or kind.rank or kind.element_type not in INTEGERS:
        return None
    lo, hi = _RANGE[kind.element_type]
    first = int(state[element])
    try:
        step = int(_Values(computation, param, element, np.array([first]), state)
                   .of(root.operands[element])[0]) - first
    except _NOT_FOLLOWED:
        return None
    if step == 0:
        return None
    trips, c = 0, first
    while test({element: c}):
        trips += 1
        c += step
        if trips > _TRIPS or not lo <= c <= hi:
            return None
    if trips < 2:
        return None
    counter = first + step * np.arange(trips, dtype=np.int64)
    values = _Values(computation, param, element, counter, state)
    try:
        if not np.array_equal(values.of(root.operands[element]), counter + step):
            return None
        _check_uses(computation, values, element)
    except _NOT_FOLLOWED:
        return None
    return trips, step


def _check_uses(computation, values, element: int) -> None:
    """Raises _Refused unless each value made of the counter (values.made) is read, where
    it varies, only as the counter's next value or an unclamped start index."""
    root = computation.root
    for inst in computation.instructions:
        for q, operand in enumerate(inst.operands):
            if operand not in values.made or inst in values.made:
                continue
            value = values.of(operand)
            if not (value[1:] != value[:1]).any():   # (the same at every iteration)
                continue
            steps = np.arange(len(value)).reshape((-1, *[1] * (value.ndim - 1)))
            if value.dtype.kind == "b" or \
                    not np.array_equal(value, value[:1] + steps * (value[1:2] - value[:1])):
                raise _Refused   # (not affine in the iteration)
            if inst is root:
                if q != element:
                    raise _Refused
            elif value.ndim != 1 and inst.opcode is not Opcode.GATHER:
                raise _Refused   # (a start vector: the old form of the two below)
            elif inst.opcode is Opcode.DYNAMIC_SLICE and q >= 1:
                _within(value, inst.operands[0].shape, q - 1, inst.shape.dims[q - 1],
                        not inst.shape.dynamic[q - 1])
            elif inst.opcode is Opcode.DYNAMIC_UPDATE_SLICE and q >= 2:
                update = inst.operands[1].shape
                _within(value, inst.operands[0].shape, q - 2, update.dims[q - 2],
                        not update.dynamic[q - 2])
            elif inst.opcode is Opcode.GATHER and q == 1:
                _gather_within(inst, value)
            else:
                raise _Refused


def _within(value, shape, d: int, size: int, static: bool) -> None:
    """Raises _Refused unless start `value` of dimension d is in [0, dim - size] (dim
    and size static) at every iteration."""
    if not static or shape.dynamic[d] or not ((value >= 0) & (value <= shape.dims[d] -
                                                               size)).all():
        raise _Refused


def _gather_within(inst, value) -> None:
    """_within for each component of a gather's start indices that varies."""
    indices = inst.operands[1].shape
    dims = attrs.gather_dims(inst, indices.rank)
    if dims.operand_batching_dims:
        raise _Refused
    if dims.index_vector_dim == indices.rank:
        value = value[..., None]
    else:
        value = np.moveaxis(value, 1 + dims.index_vector_dim, -1)
    operand = inst.operands[0].shape
    for c, d in enumerate(dims.start_index_map):
        part = value[..., c]
        if (part[1:] != part[:1]).any():
            _within(part, operand, d, dims.slice_sizes[d], True)


class _Values:
    """The integer values made of the counter, each an array of a leading axis of the
    iterations (of length 1 where it is the same at all): `of(inst)`; `made`: the
    instructions that read the counter, directly or not."""

    def __init__(self, computation, param, element: int, counter, state: tuple):
        self.param, self.element, self.counter, self.state = param, element, counter, state
        self.root = computation.root
        self.memo: dict = {}
        self.elements = 0   # evaluated so far (all values kept: their total is capped)
        made: set = set()
        for inst in computation.instructions:   # (in order: operands first)
            shape = inst.shape
            if not shape.is_tuple and shape.element_type in _TYPES and (
                    tuple_element(inst, param) == element or
                    inst.opcode is not Opcode.GET_TUPLE_ELEMENT and
                    any(o in made for o in inst.operands)):
                made.add(inst)
        self.made = made

    def of(self, inst):
        found = self.memo.get(inst)
        if found is None:
            found = self.memo[inst] = self._value(inst)
        return found

    def _value(self, inst):
        shape = inst.shape
        if shape.is_tuple or shape.element_type not in _TYPES:
            raise _Refused
        if inst.opcode is Opcode.SET_DIMENSION_SIZE:   # (the elements past it: unread)
            return self.of(inst.operands[0])
        self.elements += len(self.counter) * int(np.prod(shape.dims, dtype=np.int64))
        if any(shape.dynamic) or self.elements > _ELEMENTS:
            raise _Refused
        out = self._compute(inst, shape)
        if shape.element_type != "pred":
            lo, hi = _RANGE[shape.element_type]
            if out.size and (out.min() < lo or out.max() > hi):
                raise _Refused   # (XLA's wrap-around: not followed)
        return out

    def _compute(self, inst, shape):
        op, dims = inst.opcode, shape.dims
        k = tuple_element(inst, self.param)
        if k == self.element:
            return self.counter.copy()
        if k is not None:   # (an element passed through unchanged: its first value)
            if dims or tuple_element(self.root.operands[k], self.param) != k:
                raise _Refused
            return np.array([int(self.state[k])], dtype=np.int64)
        if op is Opcode.CONSTANT:
            return _wide(np.asarray(inst.literal).reshape((1, *dims)))
        if op is Opcode.IOTA:
            axis = attrs.integer(inst, "iota_dimension")
            line = np.arange(dims[axis], dtype=np.int64).reshape(
                [n if d == axis else 1 for d, n in enumerate(dims)])
            return np.broadcast_to(line, (1, *dims))
        if op not in _HANDLED or not inst.operands:
            raise _Refused
        xs = [self.of(o) for o in inst.operands]
        if op in _ELEMENTWISE and dims:
            # (a scalar operand, clamp's bounds or select's pred, meeting arrays: its value
            # per iteration along the iterations' axis, not NumPy's trailing one)
            xs = [x.reshape((len(x), *[1] * len(dims))) if x.ndim == 1 else x for x in xs]
        if op in _BINARY:
            return _BINARY[op](*xs)
        if op is Opcode.DIVIDE or op is Opcode.REMAINDER:
            a, b = xs
            if (b == 0).any():
                raise _Refused
            q = np.abs(a) // np.abs(b) * np.sign(a) * np.sign(b)   # (toward zero)
            return q if op is Opcode.DIVIDE else a - q * b
        if op is Opcode.NEGATE:
            return -xs[0]
        if op is Opcode.NOT and shape.element_type == "pred":
            return ~xs[0]
        if op is Opcode.CLAMP:
            return np.minimum(np.maximum(xs[1], xs[0]), xs[2])
        if op is Opcode.COMPARE:
            fn = _COMPARE.get(attrs.string(inst, "direction", ""))
            if fn is None:
                raise _Refused
            return fn(*xs)
        if op is Opcode.SELECT:
            return np.where(*xs)
        if op is Opcode.CONVERT:
            return xs[0] != 0 if shape.element_type == "pred" else xs[0].astype(np.int64)
        n = max(len(x) for x in xs)
        xs = [np.broadcast_to(x, (n, *x.shape[1:])) for x in xs]
        if op is Opcode.RESHAPE or op is Opcode.BITCAST:
            return xs[0].reshape((n, *dims))
        if op is Opcode.SLICE:
            return xs[0][(slice(None), *(slice(a, b, s) for a, b, s in attrs.slices(inst)))]
        if op is Opcode.CONCATENATE:
            return np.concatenate(xs, axis=1 + attrs.ints(inst, "dimensions")[0])
        if op is Opcode.BROADCAST:
            order, mapped = attrs.broadcast_axes(inst)
            x = xs[0] if order is None else xs[0].transpose(0, *(1 + a for a in order))
            view = [1] * len(dims)
            for axis, d in enumerate(mapped):
                view[d] = x.shape[1 + axis]
            return np.broadcast_to(x.reshape((n, *view)), (n, *dims))
        raise _Refused


def _wide(x: np.ndarray) -> np.ndarray:
    """An integer or pred literal as int64 (pred as bool)."""
    if x.dtype.kind == "b":
        return x
    if x.dtype.kind not in "iu":
        raise _Refused
    return x.astype(np.int64)
