"""A counted while loop run as one list of native calls (`LoopPlan`).

A counted loop body (loops.counter_elements) has a spec per counter value; where each is
one run of native calls between the state's unpacking and the next state's tuple (JAX's
scan of an LSTM cell: the row read at the counter, the cell, the row written back), an
iteration still cost the spec's Python: the run's new arrays made, the state's addresses
compared and written (tens of microseconds for a few microseconds of native work). The
iterations a call runs are known before it starts: the condition compares a counter with a
constant, and each spec folds the next counter value (made of its own), so the specs
follow from the first counter values alone. `LoopPlan` links them once: copies of each
run's argument arrays, each iteration's new arrays made once and their addresses written
where the next iteration reads them, so a call writes only the addresses of the loop's
arguments (the first state; none for an array at the same address again), runs every
iteration's native calls in one call and copies the final state's arrays out (the
caller's).

A plan is made from a call whose iterations all ran through their specs (loop_body.py),
checked: each spec of that form (the state's elements bound, one run, the next state), each
state element an iteration reads either an argument, an array an earlier iteration made, or
a value its spec holds, at the strides the spec recorded, and each counter's next value
held by the spec as the next spec's key. A call
whose arguments differ from the recorded shapes or strides, or a native call that declines,
runs the loop through its specs instead (nothing the plan wrote is read by anyone else: the
arguments are never written). Results are the specs' exactly: the same native calls on the
same values.
"""

from __future__ import annotations

from array import array

import numpy as np

from ....hlo.opcodes import Opcode
from .loops import carried_update
from .native_routines import _routines
from .placement import _DIMS, new_array
from .steps import _CHAIN, _ELEMENT, _TUPLE, _UNPACK, data_address, signature

_ARGUMENT, _HELD, _OWNED = range(3)   # where a state element's value comes from


class LoopPlan:
    """The native calls of a counted loop's iterations from one first state (see the
    module docstring). `run(state)` gives the final state, or None (the specs' way)."""

    __slots__ = ("body", "gen", "limit", "trips", "signature", "shapes", "entries", "count",
                 "arguments", "final", "keep")

    @staticmethod
    def of(body, specs: list, state: tuple, counters: tuple, keyed: list, gen: int,
           limit: int, unread: frozenset = frozenset(), record: list | None = None):
        """The plan of a call that ran `specs` in order from first state `state` (a tuple),
        or None where one is not of the form. `body`: the body's analysis (its info);
        `counters`: its counter elements ((k, inst), ...), whose next values are made of
        the counters and pinned elements alone (loops.counters_follow); `keyed`: each
        iteration's counter values (the key of its spec, then the values the condition
        found false); `gen`, `limit`: the pool's generation and the memory limit the
        specs were made for; `unread`: indices of the elements the loop's caller never
        reads (loops.unread_elements), returned as the plan's own arrays, not copied.
        `record`: a list given one dict per iteration, of what native_loop_template.py
        extrapolates from: "at" (the iteration's first entry), "fast" (its spec), "packs"
        (its entries' argument arrays), "made" ((instruction, array, value) of each array
        it makes), "reused" (the carried arrays it writes into), "args" ((argument array,
        slot, offset, element) of the state's arguments it reads) and "source" (the
        next state's (kind, value) per element)."""
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
        copies: dict = {}   # id(a spec's argument array) -> the plan's copy
        # a carried dynamic-update-slice (loops.carried_update) -> (its value, the array it
        # is made in) at its first iteration: later ones write their update into it
        carried: dict = {}
        carries: dict = {}   # instruction -> whether it is one (asked once)

        def copy(packed):
            found = copies.get(id(packed))
            if found is None:
                found = copies[id(packed)] = array("q", packed)
                keep.append(found)
            return found
        now: dict = {}
        for k, fast in enumerate(specs):
            if record is not None:
                now = {"at": len(entries) // 2, "fast": fast, "packs": [], "made": [],
                       "args": []}
                record.append(now)
            ops = fast.ops
            elements = _elements(ops[:-2])
            if elements is None or len(ops) < 3 or ops[-2][0] != _CHAIN or \
                    ops[-1][0] != _TUPLE or fast.gen != gen:
                return None
            chain, tup = ops[-2:]
            reused, skipped = _in_place(chain, elements, source, carried, carries,
                                        body.computation)
            for member in chain[8][1]:
                for fn, packed, *_ in member[0]:
                    if id(packed) not in skipped:
                        entries.append(fn)
                        entries.append(copy(packed).buffer_info()[0])
                        if record is not None:
                            now["packs"].append(copies[id(packed)])
            values: dict = {}
            for inst, shape, dtype, targets, axes, make in chain[9]:   # the new arrays
                if inst in reused:   # (the same value: the next iteration finds it)
                    values[inst], made = reused[inst]
                else:
                    made = make(shape, dtype)
                    keep.append(made)
                    values[inst] = made if axes is None else made.transpose(axes)
                    if record is not None:
                        now["made"].append((inst, made, values[inst]))
                    if carries.get(inst) and inst not in carried:
                        carried[inst] = (values[inst], made)
                at = data_address(made)
                for p, slot, offset in targets:
                    copy(p)[slot] = at + offset
            for view, fn, of in chain[11]:   # (views of new arrays, of state elements)
                base = values.get(of)
                if base is None and of in elements:
                    kind, base = source[elements[of]]
                    if kind == _ARGUMENT:   # (a view of an argument: made per call)
                        return None
                if base.__class__ is not np.ndarray:
                    return None
                values[view] = fn(base)
            for group in chain[6]:   # the values read: state elements, views
                slots = [(copy(p), slot, offset) for p, slot, offset in group[3]]
                e = elements.get(group[0])
                if e is not None:
                    kind, what = source[e]
                elif group[0] in values:
                    kind, what = _OWNED, values[group[0]]
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
                    if record is not None:
                        now["args"] += [(*slot, what) for slot in slots]
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
                else:
                    try:
                        held = fast.start[operand]
                    except KeyError:   # (a buffer's view, a scratch array: not a value)
                        return None
                    following.append((_HELD, held))
            source = following
            if record is not None:
                now["source"], now["reused"] = source, reused
            # each counter's next value the next spec's key (or the condition's end): held
            # by the spec, or made per call of the counters alone (loops.counters_follow)
            for n, (e, _) in enumerate(counters):
                kind, what = source[e]
                if kind == _HELD and int(what) != keyed[k + 1][n] or kind == _ARGUMENT:
                    return None
        # (the plan's own arrays are read again by the next call: the results are copies,
        # of the strides the specs would give, size-1 axes' too: placement.new_array)
        # (an element the caller never reads is the plan's own array: nobody sees it)
        plan.finish(source, unread)
        plan.entries, plan.count = entries, len(entries) // 2
        # (an argument remembers the address written by the last call: one at the same
        # address, of the recorded strides and shape, has its addresses written already)
        plan.arguments = tuple([e, strides, shape, tuple(slots), None]
                               for e, (strides, shape, slots) in arguments.items())
        plan.keep = (keep, specs)
        return plan

    def finish(self, source: list, unread: frozenset) -> None:
        """Sets the final state's elements from the last iteration's next state `source`
        ((kind, value) per element; `unread`: see `of`) and their signature."""
        self.final = [(kind, what) if kind != _OWNED else
                      (_HELD, what) if e in unread else
                      (kind, (what, new_array(what, np.empty)))
                      for e, (kind, what) in enumerate(source)]
        # (the result's signature: what an argument element passes on is the state's)
        self.shapes = tuple([self.signature[what] if kind == _ARGUMENT else
                             what[0].shape if kind == _OWNED else signature(what)
                             for kind, what in self.final])

    def run(self, state: tuple, keyed: bool = False):
        """The final state from first state `state`, or None where the plan does not apply
        (another signature or layout of an argument, a native call declining). `keyed`:
        the plan was found by a key holding the state's signature (checked there)."""
        if not keyed and signature(state) != self.signature:
            return None
        for argument in self.arguments:
            e, strides, shape, slots, written = argument
            value = state[e]
            if value.__class__ is not np.ndarray:
                value = np.asarray(value)
            if value.strides != strides or shape is not None and value.shape != shape:
                return None
            at = data_address(value)
            if at != written:
                for packed, slot, offset in slots:
                    packed[slot] = at + offset
                argument[4] = at
        if not self._calls(state):
            return None
        return tuple([state[what] if kind == _ARGUMENT else
                      _copied(*what) if kind == _OWNED else what
                      for kind, what in self.final])

    def _calls(self, state: tuple) -> bool:
        """Runs the plan's native calls (their arguments written); False where one
        declined."""
        return _routines()["run"](self.entries.buffer_info()[0], self.count) == self.count


def _in_place(chain, elements: dict, source: list, carried: dict, carries: dict,
              computation) -> tuple[dict, set]:
    """({dynamic-update-slice: (its value, the array) it writes into}, ids of the argument
    arrays of native calls to leave out) for one iteration's run `chain`: a carried update
    (loops.carried_update) whose operand is the array it made at its first iteration in the
    plan writes its update rows into that array; its copies of the operand's other rows,
    each to the same place of the same array, are left out. XLA's in-place
    dynamic-update-slice of a loop's carried buffer: a scan's stacked outputs cost a row
    per iteration, not the whole buffer (the first iteration still copies the loop's
    argument, the caller's)."""
    reused: dict = {}
    skipped: set = set()
    for member, op in zip(chain[8][1], chain[8][2], strict=True):
        inst = op[1]
        if inst.opcode is not Opcode.DYNAMIC_UPDATE_SLICE:
            continue
        if inst not in carries:
            carries[inst] = carried_update(computation, inst)
        first = carried.get(inst)
        e = elements.get(inst.operands[0])
        if first is None or e is None or source[e][0] != _OWNED or \
                source[e][1] is not first[0] or member[4] is None:
            continue
        new = member[4]
        if new[0] != first[1].shape:
            continue
        targets = {id(packed): offset for packed, _, offset in new[2]}
        calls = {id(packed) for _, packed, *_ in member[0]}
        # (the copies reading the operand: a patch each, its source address per call)
        own = [p for p in member[1] if id(p[0]) in calls and p[2] is inst.operands[0]]
        # (each a copy of a box of the operand to the same offset at the same strides)
        if any(targets.get(id(p[0])) != p[4] or p[0][2 + _DIMS:2 + 2 * _DIMS] !=
               p[0][2 + 2 * _DIMS:2 + 3 * _DIMS] for p in own):
            continue
        reused[inst] = first
        skipped.update(id(p[0]) for p in own)
    return reused, skipped


def _elements(ops: list) -> dict | None:
    """{get-tuple-element: its index} of the ops that bind a body's state elements (one
    _UNPACK where the key holds the state's shapes, else an _ELEMENT each), or None where
    another op is among them."""
    elements: dict = {}
    for op in ops:
        if op[0] == _UNPACK:
            elements.update((inst, e) for inst, e in op[3])
        elif op[0] == _ELEMENT and op[2].opcode is Opcode.PARAMETER:
            elements[op[1]] = op[3]
        else:
            return None
    return elements


def _copied(value: np.ndarray, layout) -> np.ndarray:
    """A new array of `value`'s elements and strides (`layout`: placement.new_array's)."""
    outer, back, make = layout
    out = make(outer, value.dtype)
    if back is not None:
        out = out.transpose(back)
    np.copyto(out, value)
    return out

