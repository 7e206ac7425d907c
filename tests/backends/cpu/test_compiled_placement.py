"""Movement steps as strided copies inside runs of native calls (placement.py), the runs'
scratch arrays and their grouped per-call addresses (native_chain.py). Every result is
compared bit for bit with the reference evaluator's, over several calls, sizes and
argument layouts; the structure checks say the copies did join (so the comparisons test
them, not the Python steps they replace).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import native_routines, placement, steps
from dynhlo.hlo.opcodes import Opcode

F32 = np.float32


def _bits(value) -> bytes:
    value = np.ascontiguousarray(np.asarray(value))
    return value.dtype.str.encode() + str(value.shape).encode() + value.tobytes()


def _same(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert [_bits(g) for g in got] == [_bits(w) for w in want]


def _fast(exe):
    program = exe.program
    pool = program.evaluator._local.pools[id(program.info)]
    return list(pool.fast.values())[-1]


def _placed_calls(exe) -> int:
    """How many strided-copy calls into a placed array the spec's runs make."""
    routines = native_routines._routines()
    places = {routines[f"place{size}"] for size in (1, 2, 4, 8)}
    count = 0
    for op in _fast(exe).ops:
        if op[0] == steps._CHAIN:
            entries = op[8][0]
            count += sum(1 for k in range(0, len(entries), 2) if entries[k] in places)
    return count


def _pair(text: str):
    module = dynhlo.parse_hlo(text)
    return (dynhlo.compile(module, backend="cpu", reference=False),
            dynhlo.compile(module, backend="cpu", reference=True))


# rotate-half between products: slices of a product's buffer, a negated half, their
# concatenate, a gather of a box in another layout; every value but the root only read
# inside the run (scratch arrays)
ROTATE = """
HloModule rotate
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,16] parameter(1)
  v = f32[16,8] parameter(2)
  d1 = f32[<=8,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  lo = f32[<=8,8] slice(d1), slice={[0:8], [0:8]}
  hi = f32[<=8,8] slice(d1), slice={[0:8], [8:16]}
  nh = f32[<=8,8] negate(hi)
  c = f32[<=8,16] concatenate(nh, lo), dimensions={1}
  m = f32[<=8,16] multiply(c, d1)
  d2 = f32[<=8,8] dot(m, v), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = f32[<=8,8] tanh(d2)
}
"""


def _args(n: int, seed: int, dtype=F32) -> tuple:
    r = np.random.default_rng(seed)
    return (r.standard_normal((n, 16)).astype(dtype), r.standard_normal((16, 16)).astype(dtype),
            r.standard_normal((16, 8)).astype(dtype))


def test_a_concatenate_between_products_is_copies_in_the_run():
    on, ref = _pair(ROTATE)
    for k, n in enumerate([3, 3, 3, 8, 8, 1, 1, 5, 3]):
        args = _args(n, k)
        _same(on(*args), ref(*args))
        if k in (2, 4, 6):
            assert _placed_calls(on) >= 2   # the concatenate: one copy per operand
            assert sum(op[0] == steps._CHAIN for op in _fast(on).ops) >= 1


def test_the_same_weights_again_and_written_in_place_between_calls():
    """A parameter's group skips its addresses when the same array comes again; the
    values are read at each call (written in place between calls: the new values)."""
    on, ref = _pair(ROTATE)
    x, w, v = _args(4, 1)
    for k in range(6):
        _same(on(x, w, v), ref(x, w, v))
        w *= F32(1.5)   # the same array, new contents
        v[k % 16] = F32(k)
    other = np.asfortranarray(w)   # another array, another layout, the same values
    _same(on(x, other, v), ref(x, other, v))
    _same(on(x, w, v), ref(x, w, v))


def test_an_array_at_the_same_address_in_another_layout_or_object():
    """A group skips its addresses when a value is at the same address, shape and strides
    as at the last call (read-only views of a parameter are new objects per call); the
    same memory read at other strides (a square weight and its transpose) is written."""
    on, ref = _pair(ROTATE)
    x, w, v = _args(4, 2)
    views = [w, w.T, w, w.T.copy(), w.view(), w]
    for other in views:
        for _ in range(2):
            _same(on(x, other, v), ref(x, other, v))


@pytest.mark.parametrize("layout", ["c", "f", "strided", "reversed"])
def test_a_parameter_copied_in_another_layout_than_recorded(layout):
    """The copies read a parameter directly: a call passing it in another layout writes
    the copies' source strides (the same elements at the same indices)."""
    text = """
HloModule moved
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,16] parameter(1)
  t = f32[16,<=8] transpose(x), dimensions={1,0}
  c = f32[16,<=16] concatenate(t, t), dimensions={1}
  e = f32[16,<=16] exponential(c)
  ROOT d = f32[16,<=16] dot(w, e), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""
    on, ref = _pair(text)
    r = np.random.default_rng(3)
    for k in range(4):
        n = 5 if k < 3 else 2
        base = r.standard_normal((n, 16)).astype(F32)
        w = r.standard_normal((16, 16)).astype(F32)
        x = base if k == 0 else {
            "c": base, "f": np.asfortranarray(base),
            "strided": np.repeat(base, 2, axis=1)[:, ::2],
            "reversed": base[::-1].copy()[::-1]}[layout]
        _same(on(x, w), ref(x, w))


def test_integer_concatenates_and_transposes_in_a_run():
    on, ref = _pair("""
HloModule ints
ENTRY main {
  a = s32[<=8,4] parameter(0)
  b = s32[<=8,4] parameter(1)
  s = s32[<=8,4] add(a, b)
  p = s32[<=8,4] multiply(a, b)
  c = s32[<=8,12] concatenate(s, p, s), dimensions={1}
  r = s32[12,<=8] transpose(c), dimensions={1,0}
  ROOT x = s32[12,<=8] subtract(r, r)
}
""")
    r = np.random.default_rng(5)
    for n in (3, 3, 3, 7, 1, 0, 3):
        a = r.integers(-1000, 1000, (n, 4)).astype(np.int32)
        b = r.integers(-1000, 1000, (n, 4)).astype(np.int32)
        _same(on(a, b), ref(a, b))


NARROW = """
HloModule narrow
ENTRY main {
  a = TY[<=8,4] parameter(0)
  b = TY[<=8,4] parameter(1)
  s = TY[<=8,4] OP(a, b)
  c = TY[<=8,12] concatenate(s, a, b), dimensions={1}
  r = TY[12,<=8] transpose(c), dimensions={1,0}
  n = s32[] get-dimension-size(a), dimensions={0}
  w = TY[12,<=16] pad(r, z), padding=0_0x0_8
  z = TY[] constant(0)
  ROOT x = TY[12,<=16] OP(w, w)
}
"""


@pytest.mark.parametrize("ty, op, dtype", [("pred", "and", np.bool_), ("u8", "add", np.uint8),
                                          ("s16", "multiply", np.int16)])
def test_one_and_two_byte_elements_are_copies_in_a_run(ty, op, dtype):
    """A mask's and small integers' concatenate, transpose and zero pad: the copy routines
    of 1- and 2-byte elements (probed with 4-byte positions), bit for bit."""
    on, ref = _pair(NARROW.replace("TY", ty).replace("OP", op))
    r = np.random.default_rng(6)
    for n in (0, 1, 7, 3, 3, 3):   # (the last spec made, 3's, is looked at)
        a = r.integers(0, 2 if ty == "pred" else 100, (n, 4)).astype(dtype)
        b = r.integers(0, 2 if ty == "pred" else 100, (n, 4)).astype(dtype)
        _same(on(a, b), ref(a, b))
    assert _placed_calls(on) >= 3


def test_a_concatenate_of_more_operands_than_copies_is_a_step():
    parts = ", ".join(f"p{k}" for k in range(10))
    lines = "\n".join(f"  p{k} = f32[<=8,2] multiply(x, x)" if k % 2 else
                      f"  p{k} = f32[<=8,2] add(x, x)" for k in range(10))
    text = f"""
HloModule many
ENTRY main {{
  x = f32[<=8,2] parameter(0)
{lines}
  c = f32[<=8,20] concatenate({parts}), dimensions={{1}}
  ROOT e = f32[<=8,20] negate(c)
}}
"""
    on, ref = _pair(text)
    r = np.random.default_rng(7)
    for n in (2, 2, 2, 6, 1):
        x = r.standard_normal((n, 2)).astype(F32)
        _same(on(x), ref(x))


def _probe_of(fn, *xs, value=None):
    value = fn(*xs) if value is None else value
    return placement._probe(fn, list(xs), value)


def test_probe_finds_boxes_of_a_concatenate_and_steps_of_a_transpose():
    a = np.arange(12, dtype=F32).reshape(3, 4)
    b = np.arange(6, dtype=F32).reshape(3, 2)
    boxes = _probe_of(lambda x, y: np.concatenate([x, y, x], axis=1), a, b)
    assert [(start, sizes, k) for start, sizes, k, _, _ in boxes] == [
        ((0, 0), (3, 4), 0), ((0, 4), (3, 2), 1), ((0, 6), (3, 4), 0)]
    (start, sizes, k, first, steps_), = _probe_of(lambda x: x.T.copy(), a)
    assert (first, steps_) == ((0, 0), ((0, 1), (1, 0)))
    # a gather reading one row twice (a step of 0) is one box
    (_, _, _, first, steps_), = _probe_of(lambda x: x[[1, 1, 1]].copy(), a)
    assert (first, steps_) == ((1, 0), ((0, 0), (0, 1)))


def test_probe_refuses_what_is_no_placement():
    a = np.arange(12, dtype=F32).reshape(3, 4)
    assert _probe_of(lambda x: x * 2, a) is None   # arithmetic
    assert _probe_of(lambda x: x[::-1, :2], a) is None   # a view
    assert _probe_of(lambda x: np.pad(x, 1), a) is None   # padding: no operand's element
    # a permutation of every element: more boxes than copies
    b = np.arange(48, dtype=F32).reshape(6, 8)
    order = np.random.default_rng(0).permutation(48)
    assert _probe_of(lambda x: x.reshape(-1)[order].reshape(6, 8), b) is None


def test_only_movement_opcodes_of_their_own_operands_are_probed():
    """A specialized step of another opcode, or of a movement opcode reading only its
    indices (the table folded: the placement would follow the index values), is no
    member."""
    module = dynhlo.parse_hlo("""
HloModule table
ENTRY main {
  i = s32[3] parameter(0)
  t = s32[4,2] constant({{1,2},{3,4},{5,6},{7,8}})
  ROOT n = s32[3] negate(i)
}
""")
    i, n = module.entry.parameters[0], module.entry.root
    value = np.arange(3, dtype=np.int32)
    # a negate's specialized step: not a movement
    assert placement.placed((steps._SPECIAL_ONE, n, lambda x: -x, i, (3,)),
                            {i: value, n: -value}) is None
    # a gather of folded rows at indices read per call: its operand 0 is not the source
    gather = [inst for inst in module.entry.instructions if inst.opcode is Opcode.CONSTANT][0]
    fake = type("G", (), {"opcode": Opcode.GATHER, "operands": [gather, i]})()
    assert placement.placed((steps._SPECIAL_ONE, fake, lambda x: x.copy(), i, (3,)),
                            {i: value, fake: value.copy()}) is None


def test_a_set_dimension_size_past_its_operand_is_copies_over_zeros():
    """A set-dimension-size to more rows than its operand has: the rows read copied, zeros
    past them (ops_data._resize), in a new array made of zeros at each call."""
    on, ref = _pair("""
HloModule grow
ENTRY main {
  x = f32[<=8,4] parameter(0)
  w = f32[4,4] parameter(1)
  k = f32[<=8,4] multiply(x, x)
  n = s32[] constant(6)
  s = f32[<=8,4] set-dimension-size(k, n), dimensions={0}
  e = f32[<=8,4] add(s, s)
  ROOT d = f32[<=8,4] dot(e, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
""")
    r = np.random.default_rng(11)
    w = r.standard_normal((4, 4)).astype(F32)
    for k, n in enumerate([3, 3, 3, 5, 6, 1, 3]):
        x = r.standard_normal((n, 4)).astype(F32)
        got = on(x, w)
        _same(got, ref(x, w))
        assert got.shape == (6, 4)
        if k == 2:
            assert _placed_calls(on) >= 1


def test_scalars_are_no_placement():
    """A movement step to or from a 0-d value (a loop's counter reshaped) stays a step."""
    module = dynhlo.parse_hlo("""
HloModule scalar
ENTRY main {
  a = f32[1] parameter(0)
  ROOT r = f32[] reshape(a)
}
""")
    a, r = module.entry.parameters[0], module.entry.root
    one = np.ones(1, F32)
    assert placement.placed((steps._SPECIAL_ONE, r, lambda x: x.reshape(()).copy(), a, (1,)),
                            {a: one, r: np.ones((), F32)}) is None


VIEWED = """
HloModule viewed
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,16] parameter(1)
  v = f32[8,8] parameter(2)
  d1 = f32[<=8,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  n = f32[<=8,16] negate(d1)
  c = f32[<=8,32] concatenate(d1, n), dimensions={1}
  r = f32[<=8,4,8] reshape(c)
  e = f32[<=8,4,8] exponential(r)
  ROOT d2 = f32[<=8,4,8] dot(e, v), lhs_contracting_dims={2}, rhs_contracting_dims={0}
}
"""


def test_a_view_of_a_new_array_made_in_a_run_joins_it():
    """A reshape that views the concatenate's new array: made per call after the run's new
    arrays, so the products before and after it stay one run."""
    on, ref = _pair(VIEWED)
    r = np.random.default_rng(13)
    v = r.standard_normal((8, 8)).astype(F32)
    for k, n in enumerate([3, 3, 3, 8, 1, 3]):
        x, w = r.standard_normal((n, 16)).astype(F32), r.standard_normal((16, 16)).astype(F32)
        got = on(x, w, v)
        _same(got, ref(x, w, v))
        if k == 2:
            chains = [op for op in _fast(on).ops if op[0] == steps._CHAIN]
            assert any(op[11] for op in chains), [op[1].name for op in _fast(on).ops]
    got2 = on(x, w, v)   # a result of an earlier call is not written by a later one
    keep = got2.copy()
    on(x * 2, w, v)
    _same(got2, keep)


def test_a_root_product_into_a_new_array_joins_the_run():
    """The root's matrix product (no buffer: a new array per call, as np.matmul's) is a
    call of the run writing into an array made before it; each call's result is its own."""
    on, ref = _pair("""
HloModule root_product
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,16] parameter(1)
  d1 = f32[<=8,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[<=8,16] tanh(d1)
  ROOT d2 = f32[<=8,16] dot(t, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
}
""")
    r = np.random.default_rng(17)
    w = r.standard_normal((16, 16)).astype(F32)
    results = []
    for k, n in enumerate([3, 3, 3, 8, 1, 3]):
        x = r.standard_normal((n, 16)).astype(F32)
        got = on(x, w)
        _same(got, ref(x, w))
        results.append((got, got.copy()))
        if k == 2:
            ops = _fast(on).ops
            assert [op[0] for op in ops] == [steps._CHAIN], ops
    for got, kept in results:   # (no later call wrote an earlier result)
        _same(got, kept)


def test_probe_splits_a_long_axis_by_its_operands_runs():
    """Along an axis longer than _SLABS the boxes are the runs of one operand, each checked
    whole (a 4,000-link chain of concatenates probed slab by slab did not finish)."""
    a = np.arange(3 * 500, dtype=F32).reshape(500, 3)
    b = np.arange(3 * 300, dtype=F32).reshape(300, 3)
    boxes = _probe_of(lambda x, y: np.concatenate([x, y, x]), a, b)
    assert [(start, sizes, k) for start, sizes, k, _, _ in boxes] == [
        ((0, 0), (500, 3), 0), ((500, 0), (300, 3), 1), ((800, 0), (500, 3), 0)]
    # a long run of one operand that is not one box: no placement
    order = np.r_[np.arange(250, 500), np.arange(250)]
    assert _probe_of(lambda x: x[order], a) is None
