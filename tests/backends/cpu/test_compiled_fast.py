"""The compiled CPU path's warm call: steps specialized to the dynamic arguments' shapes
(fast.Fast), parameters passed as they are where no lowering reads them, and the argument
signature an executable remembers. Every result is compared with the reference evaluator's,
bit for bit; every bad argument after good ones must still be refused, naming the place.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import fast, steps
from tests.backends.cpu.test_compiled import LOOP_COMPUTATIONS

# A kernel reading a parameter, a matrix product of it with a weight, exp into a reused
# buffer, a size-changing reshape and a second kernel: every kind of specialized step.
MIXED = """
HloModule mixed
ENTRY main {
  x = f32[<=12,6] parameter(0)
  w = f32[6,4] parameter(1)
  b = f32[4] parameter(2)
  two = f32[] constant(2)
  tb = f32[<=12,6] broadcast(two), dimensions={}
  m = f32[<=12,6] multiply(x, tb)
  d = f32[<=12,4] dot(m, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f32[<=12,4] exponential(d)
  bb = f32[<=12,4] broadcast(b), dimensions={1}
  s = f32[<=12,4] subtract(e, bb)
  f = f32[<=48] reshape(s)
  g = f32[<=48] negate(f)
  ROOT r = (f32[<=12,4], f32[<=48]) tuple(s, g)
}
"""

# Parameters read by a reference lowering (dynamic-update-slice), one the root returns and
# one only a kernel reads.
LOWERED = """
HloModule lowered
ENTRY main {
  a = f32[<=6,4] parameter(0)
  u = f32[1,4] parameter(1)
  i = s32[] parameter(2)
  k = f32[<=6,4] parameter(3)
  v = f32[<=6,4] parameter(4)
  z = s32[] constant(0)
  d = f32[<=6,4] dynamic-update-slice(a, u, i, z)
  n = f32[<=6,4] negate(v)
  ROOT t = (f32[<=6,4], f32[<=6,4], f32[<=6,4]) tuple(d, k, n)
}
"""


def _pair(text):
    return dynhlo.compile(text, backend="cpu", reference=False), \
        dynhlo.compile(text, backend="cpu", reference=True)


def _same(got, want):
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def _mixed_args(n: int, layout: str, seed: int):
    gen = np.random.default_rng(seed)
    x = gen.standard_normal((n, 6)).astype(np.float32)
    w = (gen.standard_normal((6, 4)) * 0.3).astype(np.float32)
    b = gen.standard_normal(4).astype(np.float32)
    if layout == "fortran":
        x, w = np.asfortranarray(x), np.asfortranarray(w)
    elif layout == "strided":
        wide = np.zeros((n, 12), np.float32)
        wide[:, ::2] = x
        x = wide[:, ::2]
        b = np.repeat(b, 3)[::3]
    elif layout == "read-only":
        for a in (x, w, b):
            a.flags.writeable = False
    return x, w, b


def _fast_keys(exe) -> list:
    program = exe.program
    pool = program.evaluator._local.pools[id(program.info)]
    assert all(fast.gen == pool.gen for fast in pool.fast.values())
    return list(pool.fast)


def test_repeated_shapes_run_specialized_steps_bit_for_bit():
    """Sizes that come back, after larger ones grew the buffers (the specialized steps
    made before are stale then), with arguments of other layouts (a kernel reading a
    Fortran-ordered or strided parameter takes the general steps for the rest of the
    call): every result is the reference's, and earlier results are not overwritten."""
    exe, ref = _pair(MIXED)
    calls = [(5, "c"), (5, "c"), (2, "c"), (5, "c"), (12, "c"), (5, "c"), (5, "fortran"),
             (5, "strided"), (5, "read-only"), (0, "c"), (0, "c"), (5, "c"), (1, "strided")]
    got = [(exe(*_mixed_args(n, layout, k)), k) for k, (n, layout) in enumerate(calls)]
    # n = 12 grew the buffers: the steps made for 2 (and 5, made again) were dropped
    assert sorted(_fast_keys(exe)) == [((0, 6),), ((1, 6),), ((5, 6),), ((12, 6),)]
    for (out, k), (n, layout) in zip(got, calls, strict=True):
        _same(out, ref(*_mixed_args(n, layout, k)))


def test_the_specialized_steps_keep_the_latest_shapes_only():
    """At most eight shapes are kept per thread; shapes beyond run as before."""
    exe, ref = _pair(MIXED)
    for n in [*range(1, 13), *range(12, 0, -1)]:
        args = _mixed_args(n, "c", n)
        _same(exe(*args), ref(*args))
    assert len(_fast_keys(exe)) == 8


def test_only_parameters_a_lowering_reads_are_read_only_views():
    """The compiled path wraps in read-only views only the parameters a reference lowering
    reads or the root returns; the others reach kernels and matmul as they are. The
    caller's arrays are never written and a returned parameter is a copy."""
    mixed, _ = _pair(MIXED)
    assert mixed.program._guarded == []
    exe, ref = _pair(LOWERED)
    assert exe.program._guarded == [0, 1, 2, 3]
    for _ in range(2):
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        k = np.ones((2, 4), np.float32)
        args = (a, np.full((1, 4), 9, np.float32), np.int32(1), k, a[::-1].copy())
        got = exe(*args)
        _same(got, ref(*args))
        np.testing.assert_array_equal(a, np.arange(12, dtype=np.float32).reshape(3, 4))
        got[1][...] = 5
        np.testing.assert_array_equal(k, 1)


@pytest.mark.parametrize("reference", [False, True])
def test_bad_arguments_after_good_ones_are_still_refused(reference):
    """The signature of accepted arguments lets equal ones skip the checks; anything else
    is checked again: the wrong dtype, rank, a size past its bound, a static size that
    differs, a missing argument, a Python number for an array."""
    exe = dynhlo.compile(MIXED, backend="cpu", reference=reference)
    good = _mixed_args(3, "c", 0)
    exe(*good)
    x, w, b = good
    bad = [((x.astype(np.float64), w, b), 0), ((x[None], w, b), 0),
           ((np.zeros((13, 6), np.float32), w, b), 0), ((x, w[:5], b), 1),
           ((x, w, b.astype(">f4")), None), ((x, w, 1.5), 2)]
    for args, parameter in bad:
        if parameter is None:    # another byte order of f32 is converted, not refused
            _same(exe(*args), exe(*good))
            continue
        with pytest.raises(dynhlo.ArgumentError) as err:
            exe(*args)
        assert err.value.parameter == parameter
        assert f"parameter {parameter} " in str(err.value)
    with pytest.raises(dynhlo.ArgumentError, match="expected 3 argument"):
        exe(x, w)
    _same(exe(*good), dynhlo.compile(MIXED, backend="cpu", reference=True)(*good))


CALLED = "HloModule called\n" + LOOP_COMPUTATIONS + """
scale {
  a = f32[<=8,4] parameter(0)
  k = f32[] constant(3)
  kb = f32[<=8,4] broadcast(k), dimensions={}
  s = f32[<=8,4] multiply(a, kb)
  ROOT e = f32[<=8,4] exponential(s)
}
ENTRY main {
  x = f32[<=8,4] parameter(0)
  w = f32[4,4] parameter(1)
  zero = s32[] constant(0)
  t = (s32[], f32[<=8,4], f32[4,4]) tuple(zero, x, w)
  l = (s32[], f32[<=8,4], f32[4,4]) while(t), condition=cond, body=body
  r = f32[<=8,4] get-tuple-element(l), index=1
  c = f32[<=8,4] call(r), to_apply=scale
  ROOT out = (f32[<=8,4], f32[<=8,4]) tuple(r, c)
}
"""


def test_called_computations_run_specialized_steps_bit_for_bit():
    """A called computation whose sizes are the entry arguments' shapes is specialized as
    the entry is (its own arguments checked each call): sizes coming back after others,
    results the reference's and not overwritten by later calls."""
    exe, ref = _pair(CALLED)
    gen = np.random.default_rng(3)
    calls = [(gen.standard_normal((n, 4)).astype(np.float32),
              (gen.standard_normal((4, 4)) * 0.5).astype(np.float32))
             for n in (8, 3, 8, 3, 0, 3, 1, 8)]
    got = [exe(*args) for args in calls]
    for out, args in zip(got, calls, strict=True):
        _same(out, ref(*args))
    program = exe.program
    pools = program.evaluator._local.pools
    specialized = [info.computation.name for info in _infos(program.info)
                   if id(info) in pools and pools[id(info)].fast]
    assert "scale" in specialized, specialized


def _infos(info):
    yield info
    for callee in info.calls.values():
        yield from _infos(callee)


@pytest.mark.parametrize("layout", ["negative", "column-negative", "every-other", "broadcast"])
def test_matrix_products_of_strided_operands_equal_the_reference_bit_for_bit(layout):
    # A one-row product whose weight has negative, gapped or zero strides: NumPy's matmul
    # takes another loop for such an operand than for the reference's copy of it.
    compiled, reference = _pair(MIXED)
    gen = np.random.default_rng(11)
    x = gen.standard_normal((1, 6)).astype(np.float32)
    w = gen.standard_normal((6, 4)).astype(np.float32)
    b = gen.standard_normal(4).astype(np.float32)
    if layout == "negative":
        w = w[::-1, ::-1].copy()[::-1, ::-1]
    elif layout == "column-negative":
        w = w[:, ::-1].copy()[:, ::-1]
    elif layout == "every-other":
        wide = np.zeros((12, 8), np.float32)
        wide[::2, ::2] = w
        w = wide[::2, ::2]
    else:
        w = np.broadcast_to(w[:, :1], (6, 4))
    want = reference(x, w, b)
    for _ in range(3):    # the ordinary steps, then the specialized ones
        _same(compiled(x, w, b), want)


def _refusing_at(position: int, seen: list, refused: list):
    """Fast.of whose `position`-th kernel step (counted over the specialized steps) refuses:
    its native function returns 1, as a kernel does when an index would leave an input."""
    make = fast.Fast.of

    def refuse(_, pointer):
        refused.append(pointer)
        return 1

    def of(*args, **kwargs):
        fast = make(*args, **kwargs)
        kernels = [k for k, op in enumerate(fast.ops)
                   if op[0] in (steps._KERNEL, steps._KERNEL_IN_PLACE)]
        seen.append(len(kernels))
        if position < len(kernels):
            k = kernels[position]
            fast.ops[k] = fast.ops[k][:2] + (refuse,) + fast.ops[k][3:]
        return fast
    return of


@pytest.mark.parametrize("position", range(3))
def test_a_kernel_refusing_in_the_specialized_steps_hands_the_call_back(monkeypatch, position):
    """A specialized kernel step that refuses (a kernel with a parameter to patch, or one
    whose inputs all sit in buffers) gives its group's reference value, and the rest of the
    call runs the general steps: the result is the reference's bit for bit, at the shapes
    whose steps were specialized and after them."""
    seen: list = []
    refused: list = []
    # one op per kernel (runs of native calls refusing: test_compiled_native_chain.py)
    monkeypatch.setattr(fast, "_CHAINING", False)
    monkeypatch.setattr(fast.Fast, "of", staticmethod(_refusing_at(position, seen, refused)))
    exe, ref = _pair(MIXED)
    for k, n in enumerate((5, 5, 5, 3, 3)):
        args = _mixed_args(n, "c", k)
        _same(exe(*args), ref(*args))
    assert seen == [3, 3]   # specialized at n = 5 and 3; m, s and g: three kernels
    assert len(refused) == 3   # the second and third call at 5, the second at 3
