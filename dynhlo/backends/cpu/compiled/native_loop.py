"""A counted while loop run as one list of native calls (`LoopPlan`).

A counted loop body (loops.counter_elements) has a spec per counter value; where each is
one run of native calls between the state's unpacking and the next state's tuple (JAX's
scan of an LSTM cell: the row read at the counter, the cell, the row written back), an
iteration still cost the spec's Python: the run's new arrays made, the state's addresses
compared and written (tens of microseconds for a few microseconds of native work). The
iterations a call runs are known before it starts: the condition compares a counter with a
constant, and each spec folds the next counter value (made of its own), so the specs
follow from the first counter values alone. `LoopPlan` links them once: copies of each
run's argument arrays, iteration k's new arrays made once and their addresses written
where iteration k + 1 reads them, so a call writes only the addresses of the loop's
arguments (the first state) and of the last iteration's new arrays (the results, the
caller's), then runs every iteration's native calls in one call.

A plan is made from a call whose iterations all ran through their specs (loop_body.py),
checked: each spec of that form, each state element an iteration reads either an argument,
an array an earlier iteration made, or a value its spec holds, at the strides the spec
recorded, and each counter's next value held by the spec as the next spec's key. A call
whose arguments differ from the recorded shapes or strides, or a native call that declines,
runs the loop through its specs instead (nothing the plan wrote is read by anyone else: the
arguments are never written). Results are the specs' exactly: the same native calls on the
same values.
"""

from __future__ import annotations

from array import array

import numpy as np

from .native_routines import _routines
from .steps import _CHAIN, _TUPLE, _UNPACK, data_address, signature

_ARGUMENT, _HELD, _OWNED, _LAST = range(4)   # where a state element's value comes from


class LoopPlan:
    """The native calls of a counted loop's iterations from one first state (see the
    module docstring). `run(state)` gives the final state, or None (the specs' way)."""

    __slots__ = ("body", "gen", "limit", "trips", "signature", "entries", "count",
                 "arguments", "last_new", "last_views", "last_reads", "final", "keep")

    @staticmethod
    def of(body, specs: list, state: tuple, counters: tuple, keyed: list, gen: int,
           limit: int):
        """The plan of a call that ran `specs` in order from first state `state` (a tuple),
        or None where one is not of the form. `body`: the body's analysis (its info);
        `counters`: its counter elements
        ((k, inst), ...), whose next values are made of the counters and pinned elements
        alone (loops.counters_follow); `keyed`: each iteration's counter values (the key
        of its spec, then the values the condition found false)."""
        if not specs or len({id(f) for f in specs}) != len(specs) or \
                not isinstance(state, tuple):
            return None
        plan = LoopPlan()
        plan.body, plan.gen, plan.limit, plan.trips = body, gen, limit, len(specs)
        plan.signature = signature(state)
        keep: list = []
        entries = array("q")
        # per argument element: [expected strides, expected shape or None, slots]
        arguments: dict = {}
        source = [(_ARGUMENT, e) for e in range(len(state))]   # the state's elements
        last = len(specs) - 1
        plan.last_new, plan.last_views, plan.last_reads = [], [], []
        for k, fast in enumerate(specs):
            ops = fast.ops
            if [op[0] for op in ops] != [_UNPACK, _CHAIN, _TUPLE] or fast.gen != gen:
                return None
            unpack, chain, tup = ops
            elements = {inst: e for inst, e in unpack[3]}
            copies: dict = {}   # id(argument array) -> its copy

            def copy(packed):
                found = copies.get(id(packed))
                if found is None:
                    found = copies[id(packed)] = array("q", packed)
                    keep.append(found)
                return found
            for member in chain[8][1]:
                for fn, packed, *_ in member[0]:
                    entries.append(fn)
                    entries.append(copy(packed).buffer_info()[0])
            values: dict = {}
            for inst, shape, dtype, targets, axes, make in chain[9]:   # the new arrays
                slots = tuple((copy(p), slot, offset) for p, slot, offset in targets)
                if k == last:   # (made per call: the results)
                    plan.last_new.append((inst, shape, dtype, slots, axes, make))
                    continue
                made = make(shape, dtype)
                keep.append(made)
                values[inst] = made if axes is None else made.transpose(axes)
                at = data_address(made)
                for p, slot, offset in slots:
                    p[slot] = at + offset
            for view, fn, of in chain[11]:
                if k == last:
                    plan.last_views.append((view, fn, of))
                else:
                    values[view] = fn(values[of])
            made_last = {n[0] for n in plan.last_new} | {v[0] for v in plan.last_views} \
                if k == last else ()
            for group in chain[6]:   # the values read: state elements, views
                slots = [(copy(p), slot, offset) for p, slot, offset in group[3]]
                e = elements.get(group[0])
                if e is not None:
                    kind, what = source[e]
                elif group[0] in values:
                    kind, what = _OWNED, values[group[0]]
                elif group[0] in made_last:
                    plan.last_reads.append((group[0], group[2], group[1], tuple(slots)))
                    continue
                elif group[0] in fast.start:   # (a view of a buffer, held by the spec)
                    kind, what = _HELD, fast.start[group[0]]
                else:
                    return None
                if kind == _ARGUMENT:
                    known = arguments.setdefault(what, [group[2], group[1], []])
                    if known[0] != group[2] or group[1] is not None and known[1] not in \
                            (None, group[1]):
                        return None
                    known[1] = known[1] or group[1]
                    known[2] += slots
                    continue
                if what.__class__ is not np.ndarray or what.strides != group[2] or \
                        group[1] is not None and what.shape != group[1]:
                    return None
                at = data_address(what)
                for p, slot, offset in slots:
                    p[slot] = at + offset
            # the next state: each root operand's value
            following = []
            for operand in tup[2]:
                if operand in elements:
                    following.append(source[elements[operand]])
                elif operand in values:
                    following.append((_OWNED, values[operand]))
                elif k == last and (any(operand is n[0] for n in plan.last_new) or
                                    any(operand is v[0] for v in plan.last_views)):
                    following.append((_LAST, operand))
                else:
                    try:
                        held = fast.start[operand]
                    except KeyError:   # (a buffer's view, a scratch array: not a value)
                        return None
                    following.append((_HELD, held))
            source = following
            # each counter's next value the next spec's key (or the condition's end): held
            # by the spec, or made per call of the counters alone (loops.counters_follow)
            for n, (e, _) in enumerate(counters):
                kind, what = source[e]
                if kind == _HELD and int(what) != keyed[k + 1][n] or kind == _ARGUMENT:
                    return None
        plan.final = source
        plan.entries, plan.count = entries, len(entries) // 2
        plan.arguments = tuple((e, strides, shape, tuple(slots))
                               for e, (strides, shape, slots) in arguments.items())
        plan.keep = (keep, specs)
        return plan

    def run(self, state: tuple):
        """The final state from first state `state`, or None where the plan does not apply
        (another signature or layout of an argument, a native call declining)."""
        if signature(state) != self.signature:
            return None
        for e, strides, shape, slots in self.arguments:
            value = state[e]
            if value.__class__ is not np.ndarray:
                value = np.asarray(value)
            if value.strides != strides or shape is not None and value.shape != shape:
                return None
            at = data_address(value)
            for packed, slot, offset in slots:
                packed[slot] = at + offset
        made = {}
        for inst, shape, dtype, slots, axes, make in self.last_new:
            value = make(shape, dtype)
            made[inst] = value if axes is None else value.transpose(axes)
            at = data_address(value)
            for packed, slot, offset in slots:
                packed[slot] = at + offset
        for view, fn, of in self.last_views:
            made[view] = fn(made[of])
        for inst, strides, shape, slots in self.last_reads:   # (views of the new arrays)
            value = made[inst]
            if value.strides != strides or shape is not None and value.shape != shape:
                return None
            at = data_address(value)
            for packed, slot, offset in slots:
                packed[slot] = at + offset
        if _routines()["run"](self.entries.buffer_info()[0], self.count) != self.count:
            return None
        out = []
        for kind, what in self.final:
            if kind == _ARGUMENT:
                out.append(state[what])
            elif kind == _LAST:
                out.append(made[what])
            elif kind == _OWNED:   # (the plan's own array: read again by the next call)
                out.append(np.array(what, copy=True))
            else:
                out.append(what)
        return tuple(out)
