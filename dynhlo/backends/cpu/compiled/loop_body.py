"""A while loop's body run once per iteration with the per-loop work done once (`body_runs`).

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
"""

from __future__ import annotations

from contextlib import contextmanager

from .loops import counter_values, pinned_values
from .steps import Pool, signature


@contextmanager
def body_runs(evaluator, info, parent):
    """Yields `step(state) -> state`: one iteration of the loop body `info` (a computation
    of one tuple parameter) in the size environment `parent` (the while's caller's), as
    `evaluator.run(info, [state], parent)` computes it. The body's pool is the loop's until
    the block exits (errors included: the pool goes back as `run` puts it back)."""
    steps = evaluator._steps_of(info)
    _, _, numbers, guards = evaluator._params[id(info)]
    pinned = evaluator._pinned[id(info)]
    counters = evaluator._counters[id(info)]
    local = evaluator._local.__dict__
    pools = local.get("pools")
    if pools is None:
        pools = local["pools"] = {}
    pool = pools.pop(id(info), None)
    if pool is None:
        pool = Pool(evaluator._buffers[id(info)])
    run_fast, walk = evaluator._run_fast, evaluator._walk
    # the key as CompiledEvaluator._walk makes it for a called computation: its caller's
    # argument shapes, its own argument's signature where its sizes read its values (a
    # guarded body), the pinned elements' values where there are any
    base = (None, *parent.args_shapes)
    by_state = numbers is None and guards is not None
    tail = None   # (the pinned values,) or (): from the first state
    key = None if numbers is None and guards is None else base
    sig = fast = None

    def step(state):
        nonlocal tail, key, sig, fast
        if key is None:   # sizes read off other values: no spec, the steps as run's
            return walk(info, steps, pool, [state], parent, None)
        if tail is None:
            tail = (pinned_values(state, pinned),) if pinned else ()
            if not by_state:
                key = (*base, *tail)
                fast = pool.fast.get(key)
        if by_state:
            now = signature(state)
            if now != sig:   # (the first iteration, or the state's shapes changed)
                sig, key = now, (*base, now, *tail)
                fast = pool.fast.get(key)
        counted = None
        if counters:   # (a counted body: a spec per counter value)
            counted = counter_values(state, counters)
            fast = pool.fast.get(key if counted is None else (*key, counted))
        if fast is not None and fast.gen == pool.gen and fast.limit == evaluator.memory_limit:
            return run_fast(info, fast, steps, pool, [state], None, parent)
        value = walk(info, steps, pool, [state], parent, None, counted)   # makes the spec
        fast = pool.fast.get(key)
        return value

    try:
        yield step
    finally:
        pools[id(info)] = pool
