"""A while loop's body run once per iteration with the per-loop work done once (`BodyRuns`).

CompiledEvaluator.run, called per iteration, would look up the body's steps, take its
buffers (Pool) from the thread's pools and put them back, build the key of its specs
(fast.Fast) from the caller's argument shapes, the state's shapes and its pinned elements'
values (loops.pinned_elements), hash it and look the spec up. Within one loop most of that
cannot change between iterations:

- the steps, the parameters' analysis and the pool (held by the loop, as each iteration
  held it; a body never runs inside itself: HLO has no recursion);
- the caller's argument shapes (the size environment the loop runs in);
- the pinned elements' values: the body's root returns each of them as its own
  get-tuple-element of the parameter, so every iteration's state holds the first one's.

What may change is the state's shapes (a body whose sizes read values: its key holds its
argument's signature) and the spec's validity (a buffer grown by a step: `Pool.gen`; the
memory limit). So each iteration computes the state's signature only, makes the key again
only when it differs from the last one's, and runs the spec it names when the spec is
still valid; anything else (no spec yet, one made over replaced buffers, a computation
without specs) goes through CompiledEvaluator._walk as `run` would, which makes and keeps
the spec, found again on the next iteration. Results are those of `run` exactly: the same
spec, or the same steps, runs on the same values.

A counted loop (a counter condition on a counter element of a counted body) whose every
iteration ran through a spec also gets a plan of its iterations from that first state
(native_loop.LoopPlan): later calls from the same counter values run them as one list of
native calls, or through the specs where the plan does not apply. A long one (counter
values past _COUNTED) or one of a large body (loops.small_body) gets specs per counter value
for its first iterations only, and a plan extrapolated from them where its counter is
affine over the trips (native_loop_template.py, counter_affine.py); else its iterations
run through the body's one spec.
"""

from __future__ import annotations

from contextlib import contextmanager

from ...common.limits import count_iteration
from .counter_affine import affine_counter
from .fast import _FAST_KEYS
from .loops import _COUNTED, counter_values, pinned_values
from .native_loop import LoopPlan
from .native_loop_template import _SAMPLED, template_plan
from .steps import Pool, signature

_PLANS = 8   # plans a body's pool keeps (the oldest dropped)
_WARM = 2   # loop calls from one first key before its steps key specs by the counters
_COUNTED_KEYS = 4   # first keys a body's pool counts (BodyRuns._counting)
# the specs a counted body's pool keeps: those of its uncounted keys, and one per counter
# value of each first key it counts
_COUNTED_SPECS = _FAST_KEYS + _COUNTED * _COUNTED_KEYS
_SEEN = 256   # first keys whose calls a pool counts (then it starts over)
_MISSING = object()


class BodyRuns:
    """One loop's runs of its body `info` (a computation of one tuple parameter) in the
    size environment `parent` (the while's caller's): `step(state) -> state` as
    `evaluator.run(info, [state], parent)` computes it; `loop(state, test, inst)` the
    whole loop. Holds the body's pool until `close()`."""

    def __init__(self, evaluator, info, parent):
        self.evaluator, self.info, self.parent = evaluator, info, parent
        self.steps = evaluator._steps_of(info)
        _, _, numbers, guards = evaluator._params[id(info)]
        self.pinned = evaluator._pinned[id(info)]
        self.counters = evaluator._counters[id(info)]
        self.small = evaluator._small[id(info)]
        local = evaluator._local.__dict__
        pools = self.pools = local.get("pools")
        if pools is None:
            pools = self.pools = local["pools"] = {}
        pool = pools.pop(id(info), None)
        self.pool = pool if pool is not None else Pool(evaluator._buffers[id(info)])
        # the key as CompiledEvaluator._walk makes it for a called computation: its caller's
        # argument shapes, its own argument's signature where its sizes read its values (a
        # guarded body), the pinned elements' values where there are any
        self.base = (None, *parent.args_shapes)
        self.by_state = numbers is None and guards is not None
        self.tail = None   # (the pinned values,) or (): from the first state
        self.key = None if numbers is None and guards is None else self.base
        self.sig = self.fast = None
        self.used = None   # the spec the last step ran through, or None
        self.counted = None   # the counter values of the last step's state
        # whether a step keys its spec by the counters (loop()): a large body's only
        # for the first iterations of a long loop
        self.counting = self.small

    def close(self) -> None:
        self.pools[id(self.info)] = self.pool

    def _first(self, state) -> None:
        self.tail = (pinned_values(state, self.pinned),) if self.pinned else ()
        if not self.by_state:
            self.key = (*self.base, *self.tail)
            self.fast = self.pool.fast.get(self.key)

    def step(self, state):
        info, pool, evaluator = self.info, self.pool, self.evaluator
        self.used = None
        if self.key is None:   # sizes read off other values: no spec, the steps as run's
            return evaluator._walk(info, self.steps, pool, [state], self.parent, None)
        if self.tail is None:
            self._first(state)
        if self.by_state:
            now = signature(state)
            if now != self.sig:   # (the first iteration, or the state's shapes changed)
                self.sig, self.key = now, (*self.base, now, *self.tail)
                self.fast = pool.fast.get(self.key)
        counted = None
        if self.counters:   # (a counted body: a spec per counter value)
            counted = self.counted = counter_values(state, self.counters) \
                if self.counting else None
            self.fast = pool.fast.get(self.key if counted is None else (*self.key, counted))
        fast = self.fast
        if fast is not None and fast.gen == pool.gen and fast.limit == evaluator.memory_limit:
            self.used = fast
            return evaluator._run_fast(info, fast, self.steps, pool, [state], None,
                                       self.parent)
        value = evaluator._walk(info, self.steps, pool, [state], self.parent, None,
                                counted)   # (makes the spec)
        self.fast = pool.fast.get(self.key)
        return value

    def loop(self, state, test, inst, unread=frozenset(), planned: bool = True):
        """The loop's final state from `state` (XLA operation semantics, While): `test` a
        counter condition (hlo.loop_counter.counter_condition), the max_while_iterations
        limit counted as the reference counts it. Through a plan of its iterations where
        there is one (see the module docstring), else step by step (making the plan). `unread`: the
        indices of the elements the loop's caller never reads (loops.unread_elements),
        which a plan returns without copying them out. `planned` False: a plan this call
        would run is not tried (its caller's was, and declined)."""
        evaluator, pool = self.evaluator, self.pool
        limit = evaluator.while_limit
        if planned and pool.loops:   # (a plan made earlier runs without the counting's work)
            identity = self._identity(state) if self.counters else None
            at = None if identity is None else self._plan_key(state, test, identity)
            plan = pool.loops.get(at) if at is not None else None
            if _usable(plan, pool, evaluator):
                out = plan.run(state, self.by_state)   # (by_state: the key has its signature)
                if out is not None:
                    return out
        identity = self._counting(state)
        at = None if identity is None else self._plan_key(state, test, identity)
        if at is not None:
            plan = pool.loops.get(at, _MISSING)
            if plan is not _MISSING and (plan is None or plan.gen == pool.gen):
                at = None   # (refused, or valid but not for this call: not made again)
        # a long loop's (or a large body's): (trips, step) where its first iterations'
        # specs are extrapolated (native_loop_template.py)
        long = None if at is None else self._long(state, test)
        if long is None and not self.small:
            at, self.counting = None, False
        first, specs, keyed, done = state, [], [], 0
        pool.carrying = object()   # (this call's: special._update_slice)
        try:
            while test(state):
                done = count_iteration(inst, done, limit)
                if long is not None:
                    self.counting = done <= _SAMPLED + 1
                state = self.step(state)
                if at is not None and self.counting:
                    specs.append(self.used)
                    keyed.append(self.counted)
                    if long is not None and done == _SAMPLED + 1:
                        keyed.append(counter_values(state, self.counters))
        finally:
            pool.carrying = None
        if at is not None and None not in specs:
            if long is None:
                keyed.append(counter_values(state, self.counters))
            plans = {k: p for k, p in pool.loops.items() if k != at}
            while len(plans) >= _PLANS:
                del plans[next(iter(plans))]
            made = (self.info, specs, first, self.counters, keyed, pool.gen,
                    evaluator.memory_limit, unread)
            if long is None:
                plans[at] = LoopPlan.of(*made)
            else:   # (its counter's last value: the guard's, where the trips ran out)
                trips, step = long
                plans[at] = template_plan(*made, trips, test.element, int(
                    first[test.element]) + trips * step) if done == trips else None
            pool.loops = plans
        return state

    def _long(self, state, test):
        """(trips, step) of this loop from `state` where a plan extrapolated from its first
        _SAMPLED + 1 iterations serves it (native_loop_template.py): its counter's values
        affine over the trips, every other counter element passed through
        (counter_affine.affine_counter), the sampled iterations' counter values keys of
        specs (counter_values), and more trips than a spec per counter value serves (a
        small body's iterations all of values below _COUNTED); else None."""
        element = getattr(test, "element", None)
        found = affine_counter(self.info.computation, element, state, test,
                               tuple(k for k, _ in self.counters if k != element))
        if found is None:
            return None
        trips, step = found
        c = int(state[element])
        if trips <= _SAMPLED + 1 or not 0 <= c + (_SAMPLED + 1) * step < _COUNTED or \
                self.small and 0 <= c + (trips - 1) * step < _COUNTED:
            return None
        return found

    def _identity(self, state):
        """The key of the first iteration's spec but for the counters (None: no spec)."""
        if self.key is None:
            return None
        if self.tail is None:
            self._first(state)
        return (*self.base, signature(state), *self.tail) if self.by_state else self.key

    def _counting(self, state):
        """The first iteration's key but for the counters where this call's steps key
        their specs by the counters (self.counting), else None: a
        spec per counter value costs a spec made per iteration (a walk, the placements'
        probes: tens of ms for an LSTM cell), paid back over later calls from the same
        first key only: so from the third call from one (a size seen twice) on, and for
        at most _COUNTED_KEYS of them a body (sizes that keep changing would make them
        again and again)."""
        if not self.counters:
            self.counting = False
            return None
        identity = self._identity(state)
        seen, counting = self.pool.seen, self.pool.counting
        calls = seen.get(identity, 0) + 1
        if len(seen) >= _SEEN:
            seen.clear()
        seen[identity] = calls
        self.counting = identity is not None and calls > _WARM and (
            identity in counting or len(counting) < _COUNTED_KEYS)
        if not self.counting:
            return None
        counting.add(identity)
        return identity

    def _plan_key(self, state, test, identity):
        """The key of the plans of this loop from `state` (`identity`: the first
        iteration's key but for the counters): that and the counter values, where the
        iterations follow from them (a counted body, the condition on a counter); else
        None. (A plan holds no guard: each spec of one reads no size off a value,
        LoopPlan.of.)"""
        if getattr(test, "element", None) not in self.evaluator._follows[id(self.info)]:
            return None
        counted = counter_values(state, self.counters)
        return None if counted is None else (identity, counted)


def _usable(plan, pool: Pool, evaluator) -> bool:
    """Whether `plan` (a pool's entry, or None) is a plan that may run now: made over the
    pool's buffers as they are, for the memory limit, within the max_while_iterations
    limit (a longer loop runs step by step, which counts and stops it)."""
    limit = evaluator.while_limit
    return isinstance(plan, LoopPlan) and plan.gen == pool.gen and \
        plan.limit == evaluator.memory_limit and (limit is None or plan.trips <= limit)


class PlannedLoop:
    """A counted loop run by its caller's spec (fast.Fast) through the plan of its
    iterations that BodyRuns.loop made, without the lowering's per-call work (the body's
    runs set up, the plan's key made from the loop's key and the state, the result's
    signature compared): the body's key but for the state is fixed for the spec (the
    caller's argument shapes are the spec's key), so a call makes the plan's key from the
    state alone. Called with the state, it gives the final state, or None where no usable
    plan is kept for the state, its result's signature is not the one the spec recorded,
    or the plan declines: `stepped` runs the loop then, through the body's specs without
    trying the plan again. The results are the plan's, or the specs', exactly."""

    __slots__ = ("evaluator", "info", "base", "by_state", "pinned", "counters", "shapes",
                 "test", "inst", "unread")

    def __call__(self, state):
        pools = self.evaluator._local.__dict__.get("pools")
        pool = pools.get(id(self.info)) if pools is not None else None
        if pool is None or not pool.loops:   # (none made yet, or the body is running)
            return None
        counted = counter_values(state, self.counters)
        if counted is None:
            return None
        tail = (pinned_values(state, self.pinned),) if self.pinned else ()
        identity = (*self.base, signature(state), *tail) if self.by_state else \
            (*self.base, *tail)
        plan = pool.loops.get((identity, counted))
        if not _usable(plan, pool, self.evaluator) or plan.shapes != self.shapes:
            return None
        return plan.run(state, self.by_state)

    def stepped(self, parent, state):
        """The loop's final state from `state` in the size environment `parent` (the
        spec's call's), iteration by iteration (BodyRuns.loop without its plans)."""
        runs = BodyRuns(self.evaluator, self.info, parent)
        try:
            return runs.loop(state, self.test, self.inst, self.unread, planned=False)
        finally:
            runs.close()


def planned_loop(evaluator, info, parent, test, inst, unread: frozenset, shapes):
    """The PlannedLoop of the while loop `inst` of body `info` run in `parent` (a spec's
    size environment) with counter condition `test`, its result of signature `shapes`;
    `unread` as BodyRuns.loop's. None where the loop's iterations do not follow from its
    first state (BodyRuns._plan_key)."""
    _, _, numbers, guards = evaluator._params[id(info)]
    counters = evaluator._counters[id(info)]
    if numbers is None and guards is None or not counters or \
            getattr(test, "element", None) not in evaluator._follows[id(info)]:
        return None
    loop = PlannedLoop()
    loop.evaluator, loop.info, loop.shapes = evaluator, info, shapes
    loop.test, loop.inst, loop.unread = test, inst, unread
    loop.base = (None, *parent.args_shapes)
    loop.by_state = numbers is None
    loop.pinned, loop.counters = evaluator._pinned[id(info)], counters
    return loop


@contextmanager
def body_runs(evaluator, info, parent):
    """Yields `step(state) -> state`: one iteration of the loop body `info` in the size
    environment `parent` (BodyRuns.step). The body's pool is the loop's until the block
    exits (errors included: the pool goes back as `run` puts it back)."""
    runs = BodyRuns(evaluator, info, parent)
    try:
        yield runs.step
    finally:
        runs.close()


def run_loop(evaluator, info, parent, state, test, inst, unread=frozenset()):
    """The final state of a while loop of body `info` from `state` (BodyRuns.loop)."""
    runs = BodyRuns(evaluator, info, parent)
    try:
        return runs.loop(state, test, inst, unread)
    finally:
        runs.close()
