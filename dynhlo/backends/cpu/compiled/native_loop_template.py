"""A long counted loop run as one list of native calls extrapolated from its first
iterations (`template_plan`).

native_loop.LoopPlan links a spec per counter value, so it serves loops of a few dozen
iterations: making a spec costs a walk and the placements' probes. A JAX scan of hundreds
of steps does the same native calls at every iteration but for the rows it reads and
writes (xs's row, the stacked outputs' row) and the arrays it makes (the next carry, its
scratch). So the plan of its first _SAMPLED + 1 iterations is made as LoopPlan makes it
(iteration 0 copies the carried buffers, later ones write their rows into them), and the
argument slots of every native call of iterations 2.. are read off iterations
2.._SAMPLED: each slot either the same at every one, or a row of an argument or a carried
array moving by a fixed stride (affine in the iteration), or an address in an array an
iteration makes (read by that iteration or the next one only: the arrays of iterations
of one parity made once, used alternately), or in the spec's scratch (the iteration's
own: iteration 2's for all). Anything else gives no plan. The extrapolation is right only
where the counter's values reach the data as affine unclamped starts at every iteration
of the range (counter_affine.affine_counter, the caller's guard): the same native calls
on the same values as the specs' iterations, so the results are theirs exactly.
"""

from __future__ import annotations

import numpy as np

from .native_loop import _HELD, _OWNED, LoopPlan, _routines
from .steps import _CHAIN, data_address

_SAMPLED = 5   # iterations after the first whose specs are made (2.. read for the slots)
_TABLE_BYTES = 1 << 26   # the largest table of argument arrays (a longer loop: no plan)
_RUN_CALLS = 1 << 12   # native calls a plan runs between returns to Python


class TemplatePlan(LoopPlan):
    """A LoopPlan of `trips` iterations whose iterations 2.. are one table of argument
    arrays (`table`: a row per iteration) and the entries that name them."""

    __slots__ = ("table", "spread")

    def _calls(self, state: tuple) -> bool:
        flat = self.table.reshape(-1)
        for spread in self.spread:   # (the arguments' rows of iterations 2..)
            e, where, offsets, written = spread
            at = data_address(np.asarray(state[e]))
            if at != written:
                flat[where] = offsets + at
                spread[3] = at
        # (in runs of _RUN_CALLS native calls: Ctrl-C is Python's between them, and a loop of
        # many trips cannot hold it off until its end)
        run, at, count = _routines()["run"], self.entries.ctypes.data, self.count
        for first in range(0, count, _RUN_CALLS):
            calls = min(_RUN_CALLS, count - first)
            if run(at + 16 * first, calls) != calls:
                return False
        return True


def template_plan(body, specs: list, state: tuple, counters: tuple, keyed: list, gen: int,
                  limit: int, unread: frozenset, trips: int, element: int, last: int):
    """The TemplatePlan of a loop of `trips` iterations from first state `state` whose
    first len(specs) == _SAMPLED + 1 iterations ran `specs` (LoopPlan.of's arguments),
    or None where its slots do not follow the forms above. `element`: the counter the
    condition reads; `last`: its value after the last iteration (where a spec holds it)."""
    record: list = []
    sample = LoopPlan.of(body, specs, state, counters, keyed, gen, limit, unread, record)
    if sample is None or len(record) != _SAMPLED + 1 or trips <= _SAMPLED + 1:
        return None
    try:
        columns, spread = _columns(record, sample.entries, state, trips)
        final = _final(record, trips, element, last)
    except _Declined:
        return None
    plan = TemplatePlan()
    plan.body, plan.gen, plan.limit, plan.trips = body, gen, limit, trips
    plan.signature, plan.arguments = sample.signature, sample.arguments
    # the table: iteration j's row (evens[c] or odds[c]) + slopes[c] * j
    evens, odds, slopes, widths, fns = columns
    if (trips - 2) * (len(evens) + 2 * len(fns)) * 8 > _TABLE_BYTES:
        return None
    j = np.arange(2, trips, dtype=np.int64)[:, None]
    table = np.where(j % 2 == 0, evens, odds) + slopes * j
    plan.table = table
    starts = np.cumsum([0, *widths[:-1]], dtype=np.int64) * 8
    rows = data_address(table) + np.arange(trips - 2, dtype=np.int64)[:, None] * \
        table.strides[0] + starts
    head = np.frombuffer(sample.entries, dtype=np.int64)[:2 * record[2]["at"]]
    tail = np.empty((trips - 2, len(fns), 2), dtype=np.int64)
    tail[:, :, 0] = fns
    tail[:, :, 1] = rows
    plan.entries = np.concatenate([head, tail.reshape(-1)])
    plan.count = len(plan.entries) // 2
    plan.spread = [[e, ((j - 2) * table.shape[1] + where).reshape(-1),
                    (base + slope * j).reshape(-1), None] for e, where, base, slope in spread]
    plan.finish(final, unread)
    plan.keep = (sample, record, specs)
    return plan


class _Declined(Exception):
    """A slot or element of a form not extrapolated."""


def _regions(arrays) -> list:
    """[(first byte, end), ...] of each array's memory."""
    out = []
    for x in arrays:
        low, high = np.lib.array_utils.byte_bounds(x)
        out.append((low, max(high, low + 1)))
    return out


def _find(regions: list, at: int):
    """(index, offset) of the region holding address `at`, or None."""
    for n, (low, high) in enumerate(regions):
        if low <= at < high:
            return n, at - low
    return None


def _scratch(fast) -> list:
    """[(array, whether the spec holds its value), ...]: the arrays spec `fast`'s run of
    native calls writes (its buffers, its scratch arrays: written before they are read,
    an iteration's own) and the values it holds (read only)."""
    chain = fast.ops[-2]
    if chain[0] != _CHAIN:
        raise _Declined
    found = [(view, False) for _, view in chain[5]]
    found += [(m[2], False) for m in chain[8][1] if m[2].__class__ is np.ndarray]
    found += [(v, True) for v in fast.start.values() if v.__class__ is np.ndarray]
    return found


def _columns(record: list, entries, state: tuple, trips: int):
    """((evens, odds, slopes, widths, fns), spread) of iterations 2.. (see TemplatePlan):
    per slot of an iteration's argument arrays laid end to end, its value at even and odd
    iterations less slope * j; `fns` the entries' routines; spread: (element, slots,
    offsets less slope * j, slopes) of the state's arguments read there. `entries`: the
    sampled plan's."""
    later = record[2:]
    widths = [len(p) for p in later[0]["packs"]]
    start = np.cumsum([0, *widths[:-1]], dtype=np.int64)
    made = [[m for _, m, _ in r["made"]] for r in record]
    kinds = [[i for i, _, _ in r["made"]] for r in record[1:]]
    if any(k != kinds[0] for k in kinds) or any(
            [m.shape for m in ms] != [m.shape for m in made[1]] for ms in made[1:]):
        raise _Declined
    made_at = [_regions(ms) for ms in made]
    carried = _regions([m for _, m in later[0]["reused"].values()])
    owns = [_scratch(r["fast"]) for r in record]
    if any([(x.shape, x.dtype) for x, _ in o] != [(x.shape, x.dtype) for x, _ in owns[2]]
           for o in owns[2:]):
        raise _Declined
    own = [_regions(x for x, _ in o) for o in owns]
    values, args, fns = [], [], []
    for r in later:
        if [len(p) for p in r["packs"]] != widths:
            raise _Declined
        at = {id(p): n for n, p in enumerate(r["packs"])}
        values.append(np.concatenate([np.frombuffer(p, dtype=np.int64)
                                      for p in r["packs"]]))
        fns.append(list(entries[2 * r["at"]:2 * (r["at"] + len(widths)):2]))
        slots = {}
        for packed, slot, offset, e in r["args"]:
            n = at.get(id(packed))
            if n is not None:
                slots[int(start[n]) + slot] = (e, offset)
        args.append(slots)
    if any(f != fns[0] for f in fns) or any(set(a) != set(args[0]) for a in args):
        raise _Declined
    for r in record[1:]:   # (a next state holds arrays of its own iteration only)
        for kind, what in r["source"]:
            if kind == _OWNED and not any(what is v for _, _, v in r["made"]) and \
                    not any(what is v for v, _ in r["reused"].values()):
                raise _Declined
    width = sum(widths)
    evens = np.zeros(width, dtype=np.int64)
    odds = np.zeros(width, dtype=np.int64)
    slopes = np.zeros(width, dtype=np.int64)
    spread: dict = {}
    ks = np.arange(2, 2 + len(later), dtype=np.int64)
    for c in range(width):
        if c not in args[0]:
            column = np.array([v[c] for v in values], dtype=np.int64)
            evens[c], odds[c], slopes[c] = _column(column, ks, made_at, carried, own, owns,
                                                   trips)
            continue
        es = {a[c][0] for a in args}
        slope = _slope(np.array([a[c][1] for a in args], dtype=np.int64), ks)
        if len(es) != 1 or slope is None:
            raise _Declined
        (e,) = es
        base = args[0][c][1] - slope * 2
        ends = (base + slope * 2, base + slope * (trips - 1))
        if min(ends) < 0 or max(ends) >= np.asarray(state[e]).nbytes:
            raise _Declined
        spread.setdefault(e, []).append((c, base, slope))
    out = [(e, *(np.array(x, dtype=np.int64) for x in zip(*cs, strict=True)))
           for e, cs in spread.items()]
    return (evens, odds, slopes, widths, np.array(fns[0], dtype=np.int64)), out


def _slope(xs: np.ndarray, ks: np.ndarray):
    """d where xs == xs[0] + d * (ks - ks[0]), else None."""
    d = int(xs[1] - xs[0])
    return d if np.array_equal(xs, xs[0] + d * (ks - ks[0])) else None


def _column(xs: np.ndarray, ks: np.ndarray, made_at: list, carried: list, own: list,
            owns: list, trips: int) -> tuple:
    """(even, odd, slope) of one slot over iterations ks (see _columns), or _Declined."""
    kinds = set()
    for x, k in zip(xs.tolist(), ks.tolist(), strict=True):
        where = None
        for lag in (0, 1):
            found = _find(made_at[k - lag], x)
            if found is not None:
                where = ("made", lag, *found)
        inside = _find(carried, x) is not None
        for k2, regions in enumerate(made_at):   # (an older iteration's: not extrapolated)
            if k2 not in (k, k - 1) and not inside and _find(regions, x) is not None:
                raise _Declined
        if where is None:
            found = _find(own[k], x)
            if found is not None:
                where = ("own", *found)
            elif any(_find(o, x) is not None for o in own):
                raise _Declined
        kinds.add(where if where is not None else ("plain",))
    if len(kinds) != 1:
        raise _Declined
    (kind,) = kinds
    if kind[0] == "made":   # (iteration 1's arrays at odd iterations, 2's at even)
        _, lag, n, offset = kind
        return made_at[1 + (lag == 0)][n][0] + offset, made_at[2 - (lag == 0)][n][0] + \
            offset, 0
    if kind[0] == "own":   # (iteration 2's scratch for every iteration)
        _, n, offset = kind
        if owns[2][n][1] and any(not np.array_equal(owns[k][n][0], owns[2][n][0])
                                 for k in ks.tolist()):
            raise _Declined   # (a value a spec holds: the same at every iteration only)
        at = own[2][n][0] + offset
        return at, at, 0
    slope = _slope(xs, ks)
    if slope is None:
        raise _Declined
    base = int(xs[0]) - slope * int(ks[0])
    if slope:   # (a row of a carried array, inside it at every iteration)
        inside = [_find(carried, base + slope * k) for k in (2, trips - 1)]
        if None in inside or inside[0][0] != inside[1][0]:
            raise _Declined
    return base, base, slope


def _final(record: list, trips: int, element: int, last: int) -> list:
    """The final state's (kind, value) per element after `trips` iterations: the last
    sampled iteration's next state with its arrays those of the table's last row's
    parity, counter `element`'s held value `last`, other held values the same at every
    sampled iteration."""
    r = record[-1]
    parity = record[1] if (trips - 1) % 2 else record[2]
    out = []
    for e, (kind, what) in enumerate(r["source"]):
        if kind == _OWNED:
            n = next((n for n, (_, _, v) in enumerate(r["made"]) if v is what), None)
            if n is not None:
                what = parity["made"][n][2]
        elif kind == _HELD and e == element:
            what = np.asarray(last, dtype=np.asarray(what).dtype)[()] \
                if what.__class__ is not np.ndarray else \
                np.asarray(last, dtype=what.dtype).reshape(what.shape)
        elif kind == _HELD:   # (the same at every sampled iteration)
            if any(not np.array_equal(np.asarray(s["source"][e][1]), np.asarray(what))
                   for s in record[2:]):
                raise _Declined
        out.append((kind, what))
    return out
