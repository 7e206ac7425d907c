"""The compiled CPU path (backends/cpu/compiled/) against the reference evaluator.

Fused groups are LLVM loop nests of correctly rounded operations, so every result here must
equal the reference's bit for bit (NaN payloads aside: compared as NaN), at sizes 0, 1 and
in between, for views (broadcast, transpose, slice), integer division's XLA cases,
saturating conversions, the signed zeros of maximum/minimum and XLA's rule for operands of
different sizes. The kernels must really be there (steps counted), and the object cache
must keep only whole, matching entries.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import machine
from dynhlo.backends.cpu.compiled.runner import CompiledKernel

CHAIN = """
HloModule chain
ENTRY main {
  x = f32[<=16,8] parameter(0)
  b = f32[8] parameter(1)
  t = f32[8,<=16] parameter(2)
  bb = f32[<=16,8] broadcast(b), dimensions={1}
  tt = f32[<=16,8] transpose(t), dimensions={1,0}
  c = f32[] constant(-0)
  cb = f32[<=16,8] broadcast(c), dimensions={}
  m = f32[<=16,8] maximum(x, cb)
  n = f32[<=16,8] minimum(m, bb)
  s = f32[<=16,8] multiply(n, tt)
  d = f32[<=16,8] divide(s, x)
  f = f32[<=16,8] floor(d)
  r = f32[<=16,8] round-nearest-afz(d)
  q = f32[<=16,8] sqrt(x)
  a = f32[<=16,8] add(f, r)
  ROOT o = f32[<=16,8] subtract(a, q)
}
"""

INTS = """
HloModule ints
ENTRY main {
  x = s32[<=12] parameter(0)
  y = s32[<=12] parameter(1)
  f = f32[<=12] parameter(2)
  d = s32[<=12] divide(x, y)
  i = s32[<=12] convert(f)
  u = u8[<=12] convert(f)
  w = u8[<=12] convert(d)
  p = pred[<=12] compare(x, y), direction=LT
  s = s32[<=12] select(p, d, i)
  n = s32[<=12] negate(s)
  g = s64[<=12] convert(n)
  ROOT out = (s64[<=12], u8[<=12], u8[<=12], pred[<=12]) tuple(g, u, w, p)
}
"""

SLICED = """
HloModule sliced
ENTRY main {
  x = f64[<=20,6] parameter(0)
  s = f64[<=20,3] slice(x), slice={[0:20], [1:6:2]}
  c = f64[] constant(0.5)
  cb = f64[<=20,3] broadcast(c), dimensions={}
  ROOT m = f64[<=20,3] multiply(s, cb)
}
"""


def _pair(text):
    return dynhlo.compile(text, backend="cpu", reference=False), \
        dynhlo.compile(text, backend="cpu", reference=True)


def _same(got, want):
    got, want = (got, want) if isinstance(got, tuple) else ((got,), (want,))
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
        if g.dtype.kind == "f":  # signed zeros too: -0 and +0 compare equal
            np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


def _kernels(exe) -> int:
    return sum(isinstance(step[2], CompiledKernel)
               for steps in exe.program.evaluator._steps.values() for step in steps)


SPECIAL = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.5, -2.5, 0.5, -0.5, 3e38, 1e-45,
                    7.0, -7.0, 2.5, 1e10, -1e10], np.float32)


@pytest.mark.parametrize("n", [0, 1, 5, 16])
def test_fused_chain_is_the_reference_bit_for_bit(n):
    exe, ref = _pair(CHAIN)
    gen = np.random.default_rng(n)
    x = np.resize(SPECIAL, n * 8).reshape(n, 8)
    b = gen.standard_normal(8).astype(np.float32)
    t = gen.standard_normal((8, n)).astype(np.float32)
    _same(exe(x, b, t), ref(x, b, t))
    assert _kernels(exe) >= 1


@pytest.mark.parametrize("n", [0, 1, 12])
def test_integer_division_and_conversions_follow_xla(n):
    exe, ref = _pair(INTS)
    x = np.resize(np.array([7, -7, -2**31, 5, 0, 9], np.int32), n)
    y = np.resize(np.array([0, 2, -1, -3, 0, 4], np.int32), n)
    f = np.resize(SPECIAL[[2, 3, 4, 5, 6, 10, 14, 15]], n)
    _same(exe(x, y, f), ref(x, y, f))
    assert _kernels(exe) >= 1


def test_strided_slice_of_a_dynamic_operand():
    exe, ref = _pair(SLICED)
    for n in (0, 1, 20):
        x = np.arange(n * 6, dtype=np.float64).reshape(n, 6)
        _same(exe(x), ref(x))


def test_operands_of_different_sizes_meet_as_xla_says():
    # XLA's rule for an elementwise op whose operands' sizes differ: a size 1 broadcasts,
    # else the smaller size (the kernel reads the bigger operand's front only)
    text = """
HloModule meet
ENTRY main {
  a = f32[<=8] parameter(0)
  b = f32[<=8] parameter(1)
  ROOT c = f32[<=8] add(a, b)
}
"""
    exe, ref = _pair(text)
    a = np.arange(5, dtype=np.float32)
    for b in (np.ones(3, np.float32), np.full(1, 2, np.float32), np.ones(8, np.float32)):
        _same(exe(a, b), ref(a, b))
        _same(exe(b, a), ref(b, a))


def test_the_compiled_path_is_the_default_and_the_environment_selects_the_reference(
        monkeypatch):
    monkeypatch.delenv("DYNHLO_CPU_COMPILED", raising=False)
    assert not dynhlo.compile(SLICED, backend="cpu").program.reference
    monkeypatch.setenv("DYNHLO_CPU_COMPILED", "0")
    assert dynhlo.compile(SLICED, backend="cpu").program.reference
    assert not dynhlo.compile(SLICED, backend="cpu", reference=False).program.reference


def test_object_cache_keeps_whole_entries_only(tmp_path, monkeypatch):
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    cache = tmp_path / "cpu_objects"
    text = "define i32 @\"kernel\"(i8** %p, i64* %s) {\nentry:\n  ret i32 7\n}\n"
    key, obj = _entry(text, cache)
    assert (cache.stat().st_mode & 0o777) == 0o700
    assert machine._read(cache, key) == obj
    (cache / f"{key}.o").write_bytes(obj[:-1] + bytes([obj[-1] ^ 1]))  # not what was written
    assert machine._read(cache, key) is None
    (cache / f"{key}.o").unlink()
    (cache / f"{key}.o").symlink_to(tmp_path / "elsewhere.o")
    assert machine._read(cache, key) is None


class _Source:
    """A kernel form as machine.kernels takes it: a canonical key and its IR."""

    def __init__(self, text):
        self.key, self.text = text, text

    def ir(self):
        return self.text


def _entry(text, cache):
    monkey_state = dict(machine._state)
    machine._state.clear()
    try:
        (fn,) = machine.kernels([_Source(text)])
        assert fn(None, None) == 7
        (json_file,) = cache.glob("*.json")
        key = json_file.stem
        return key, (cache / f"{key}.o").read_bytes()
    finally:
        machine._state.clear()
        machine._state.update(monkey_state)


LAYERS = """
HloModule layers
ENTRY main {
  x = f32[<=16,8] parameter(0)
  y = f32[<=16,8] parameter(1)
  b = f32[8] parameter(2)
  c = f32[] constant(0.5)
  cb = f32[<=16,8] broadcast(c), dimensions={}
  bb = f32[<=16,8] broadcast(b), dimensions={1}
  a1 = f32[<=16,8] multiply(x, cb)
  s1 = f32[<=16,8] add(a1, bb)
  e1 = f32[<=16,8] exponential(s1)
  a2 = f32[<=16,8] multiply(y, cb)
  s2 = f32[<=16,8] add(a2, bb)
  e2 = f32[<=16,8] exponential(s2)
  d = f32[] constant(0.25)
  db = f32[<=16,8] broadcast(d), dimensions={}
  a3 = f32[<=16,8] multiply(e1, db)
  s3 = f32[<=16,8] add(a3, bb)
  e3 = f32[<=16,8] exponential(s3)
  ROOT out = (f32[<=16,8], f32[<=16,8], f32[<=16,8]) tuple(e1, e2, e3)
}
"""


def test_repeated_layers_share_one_compiled_kernel():
    """Groups of one canonical form (two layers alike) run one compiled function; another
    constant is another form. Results stay the reference's bit for bit."""
    compiled, reference = _pair(LAYERS)
    kernels = [step[2] for steps in compiled.program.evaluator._steps.values()
               for step in steps if isinstance(step[2], CompiledKernel)]
    assert len(kernels) == 3
    addresses = {ctypes_address(k.fn) for k in kernels}
    assert len(addresses) == 2   # (x*0.5 + b) twice, (e1*0.25 + b) once
    gen = np.random.default_rng(3)
    for n in (0, 1, 7, 16):
        args = [gen.standard_normal((n, 8)).astype(np.float32),
                gen.standard_normal((n, 8)).astype(np.float32),
                gen.standard_normal(8).astype(np.float32)]
        _same(compiled(*args), reference(*args))


def ctypes_address(fn) -> int:
    import ctypes
    return ctypes.cast(fn, ctypes.c_void_p).value


def test_independent_fusion_failures_are_fixed_in_one_planning_round():
    """30 groups that each fail (a transpose alone is a view, not a kernel) and 30 that
    compile: planning fixes every failure in one round and generates each group at most
    twice (60 calls; one round per failure made 495)."""
    from dynhlo.backends.cpu.compiled.kernels import generate
    from dynhlo.backends.cpu.compiled.rules import rules
    from dynhlo.backends.plan.fusion import plan_computation
    from dynhlo.shapes.schedule import schedule

    lines = ["HloModule views", "ENTRY main {"]
    outs = []
    for k in range(30):
        lines += [f"  p{k} = f32[<=8,4] parameter({k})",
                  f"  t{k} = f32[4,<=8] transpose(p{k}), dimensions={{1,0}}",
                  f"  n{k} = f32[<=8,4] negate(p{k})"]
        outs += [f"t{k}", f"n{k}"]
    types = ", ".join(["f32[4,<=8]", "f32[<=8,4]"] * 30)
    lines += [f"  ROOT out = ({types}) tuple({', '.join(outs)})", "}"]
    text = "\n".join(lines)
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    info = exe.program.info
    position = {inst: k for k, inst in enumerate(schedule(info))}
    calls = []

    def counting(group, info):
        calls.append(group.root.name)
        return generate(group, info, position)

    plan = plan_computation(info, rules(counting))
    assert sorted(i.name for i in plan.kernels) == sorted(f"n{k}" for k in range(30))
    assert len(calls) <= 2 * 60, len(calls)
    gen = np.random.default_rng(5)
    args = [gen.standard_normal((k % 9, 4)).astype(np.float32) for k in range(30)]
    _same(exe(*args), dynhlo.compile(text, backend="cpu", reference=True)(*args))


ROWS = """
HloModule rows
add_f { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
max_f { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT m = f32[] maximum(a, b) }
ENTRY main {
  x = f32[<=16,12] parameter(0)
  g = f32[12] parameter(1)
  zero = f32[] constant(0)
  ninf = f32[] constant(-inf)
  s = f32[<=16] reduce(x, zero), dimensions={1}, to_apply=add_f
  s1 = f32[<=16,1] reshape(s)
  sb = f32[<=16,1] broadcast(s1), dimensions={0,1}
  sr = f32[<=16] reshape(sb)
  mean = f32[<=16,12] broadcast(sr), dimensions={0}
  d = f32[<=16,12] subtract(x, mean)
  sq = f32[<=16,12] multiply(d, d)
  v = f32[<=16] reduce(sq, zero), dimensions={1}, to_apply=add_f
  vb = f32[<=16,12] broadcast(v), dimensions={0}
  g1 = f32[1,12] reshape(g)
  gr = f32[12] reshape(g1)
  gb = f32[<=16,12] broadcast(gr), dimensions={1}
  y = f32[<=16,12] multiply(d, vb)
  out = f32[<=16,12] add(y, gb)
  m = f32[<=16] reduce(x, ninf), dimensions={1}, to_apply=max_f
  mm = f32[<=16] maximum(m, s)
  ROOT r = (f32[<=16,12], f32[<=16], f32[<=16]) tuple(out, m, mm)
}
"""


def _steps(exe) -> list:
    """The steps that are not compiled kernels."""
    return [step for steps in exe.program.evaluator._steps.values() for step in steps
            if not isinstance(step[2], CompiledKernel)]


@pytest.mark.parametrize("n", [0, 1, 5, 16])
def test_row_reductions_and_unit_reshapes_run_inside_kernels(n):
    """Sums and maxima over the trailing dimension, read back through reshapes that only
    add or drop a size-1 dimension, are computed in the kernels: no reduce, reshape or
    broadcast step is left. A sum's order may differ from NumPy's pairwise one (within a
    few ulps of the row's magnitude); a maximum is exact, its signed zeros and NaN too."""
    exe, ref = _pair(ROWS)
    shape = (n, 12)
    opcodes = {step[1].opcode.value for step in _steps(exe)}
    assert opcodes <= {"parameter", "tuple"}, opcodes
    gen = np.random.default_rng(shape[0] * 31 + shape[1])
    x = gen.standard_normal(shape).astype(np.float32)
    if x.size:
        x.reshape(-1)[:4] = np.resize(np.array([np.nan, -0.0, np.inf, 0.0], np.float32),
                                      min(4, x.size))
    g = gen.standard_normal(shape[1]).astype(np.float32)
    got, want = exe(x, g), ref(x, g)
    _same(got[1], want[1])
    for g_, w_ in zip((got[0], got[2]), (want[0], want[2]), strict=True):
        assert g_.shape == w_.shape and g_.dtype == w_.dtype
        np.testing.assert_allclose(g_, w_, rtol=2e-6, atol=2e-6 * shape[1])


INT_ROWS = """
HloModule int_rows
add_i { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT s = s32[] add(a, b) }
mul_i { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT s = s32[] multiply(a, b) }
min_d { a = f64[] parameter(0)  b = f64[] parameter(1)  ROOT m = f64[] minimum(a, b) }
ENTRY main {
  x = s32[<=6,<=9,4] parameter(0)
  y = f64[<=6,<=9,4] parameter(1)
  i = s32[] parameter(2)
  one = s32[] constant(1)
  big = f64[] constant(inf)
  s = s32[<=6] reduce(x, i), dimensions={1,2}, to_apply=add_i
  p = s32[<=6,<=9] reduce(x, one), dimensions={2}, to_apply=mul_i
  m = f64[<=6] reduce(y, big), dimensions={2,1}, to_apply=min_d
  ROOT r = (s32[<=6], s32[<=6,<=9], f64[<=6]) tuple(s, p, m)
}
"""


@pytest.mark.parametrize("shape", [(0, 3), (2, 0), (1, 1), (6, 9)])
def test_integer_and_extreme_reductions_equal_the_reference_bit_for_bit(shape):
    """Wrapping integer sums and products (an init from a parameter) and an f64 minimum
    over two trailing dimensions: exact in any order, so equal to the reference's."""
    exe, ref = _pair(INT_ROWS)
    assert "reduce" not in {step[1].opcode.value for step in _steps(exe)}
    gen = np.random.default_rng(sum(shape))
    x = gen.integers(-2**31, 2**31, (*shape, 4), dtype=np.int32)
    y = gen.standard_normal((*shape, 4))
    if y.size:
        y.reshape(-1)[:2] = [-0.0, 0.0]
    i = np.int32(2**31 - 5)
    _same(exe(x, y, i), ref(x, y, i))


MASK_ROWS = """
HloModule mask_rows
and_p { a = pred[] parameter(0)  b = pred[] parameter(1)  ROOT s = pred[] and(a, b) }
or_p { a = pred[] parameter(0)  b = pred[] parameter(1)  ROOT s = pred[] or(a, b) }
or_u { a = u8[] parameter(0)  b = u8[] parameter(1)  ROOT s = u8[] or(a, b) }
ENTRY main {
  ids = s32[2,<=9,3] parameter(0)
  bits = u8[2,<=9,3] parameter(1)
  lo = s32[] constant(0)
  hi = s32[] constant(7)
  lob = s32[2,<=9,3] broadcast(lo), dimensions={}
  n = s32[] get-dimension-size(ids), dimensions={1}
  lon = s32[2,<=9,3] set-dimension-size(lob, n), dimensions={1}
  hib = s32[2,<=9,3] broadcast(hi), dimensions={}
  hin = s32[2,<=9,3] set-dimension-size(hib, n), dimensions={1}
  ge = pred[2,<=9,3] compare(ids, lon), direction=GE
  le = pred[2,<=9,3] compare(ids, hin), direction=LE
  ok = pred[2,<=9,3] and(ge, le)
  t = pred[] constant(true)
  f = pred[] constant(false)
  all = pred[2,<=9] reduce(ok, t), dimensions={2}, to_apply=and_p
  any = pred[2] reduce(ok, f), dimensions={1,2}, to_apply=or_p
  z = u8[] constant(0)
  ored = u8[2,<=9] reduce(bits, z), dimensions={2}, to_apply=or_u
  ROOT r = (pred[2,<=9], pred[2], u8[2,<=9]) tuple(all, any, ored)
}
"""


@pytest.mark.parametrize("n", [0, 1, 5, 9])
def test_and_or_reductions_of_masks_run_inside_kernels(n):
    """A mask's "all indices in range" (and over the last dimension), an any (or over two)
    and an integer or: row loops inside the kernels, the reference's values exactly."""
    exe, ref = _pair(MASK_ROWS)
    assert "reduce" not in {step[1].opcode.value for step in _steps(exe)}
    gen = np.random.default_rng(n)
    ids = gen.integers(-2, 10, (2, n, 3), dtype=np.int32)
    bits = gen.integers(0, 256, (2, n, 3), dtype=np.uint8)
    for _ in range(2):
        _same(exe(ids, bits), ref(ids, bits))


COLUMNS = """
HloModule columns
add_f { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY main {
  x = f32[<=16,8] parameter(0)
  zero = f32[] constant(0)
  ROOT s = f32[8] reduce(x, zero), dimensions={0}, to_apply=add_f
}
"""


def test_a_reduction_over_leading_dimensions_stays_a_numpy_step():
    """A column sum would walk memory across rows inside a kernel: NumPy's reduce runs it,
    bit for bit the reference's."""
    exe, ref = _pair(COLUMNS)
    assert "reduce" in {step[1].opcode.value for step in _steps(exe)}
    x = np.random.default_rng(1).standard_normal((11, 8)).astype(np.float32)
    _same(exe(x), ref(x))


DOTS = """
HloModule dots
ENTRY main {
  a = f32[<=9,6] parameter(0)
  b = f32[6,<=9] parameter(1)
  c = f64[5,<=9] parameter(2)
  d = f64[<=9,5] parameter(3)
  ab = f32[<=9,<=9] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  at = f32[6,6] dot(a, a), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  bt = f32[<=9,<=9] dot(b, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  cd = f64[<=9,<=9] dot(c, d), lhs_contracting_dims={0}, rhs_contracting_dims={1}
  ROOT r = (f32[<=9,<=9], f32[6,6], f32[<=9,<=9], f64[<=9,<=9]) tuple(ab, at, bt, cd)
}
"""


@pytest.mark.parametrize("n", [0, 1, 4, 9])
def test_matrix_products_are_the_reference_bit_for_bit(n):
    """Dots that are one matrix product, with either operand contracted along its first
    or second dimension, call NumPy's matmul on the same layouts as the reference."""
    from dynhlo.backends.cpu.compiled.runner import MatmulDot
    exe, ref = _pair(DOTS)
    assert sum(isinstance(step[2], MatmulDot) for step in _steps(exe)) == 4
    gen = np.random.default_rng(n)
    args = [gen.standard_normal((n, 6)).astype(np.float32),
            gen.standard_normal((6, n)).astype(np.float32),
            gen.standard_normal((5, n)), gen.standard_normal((n, 5))]
    _same(exe(*args), ref(*args))


def test_a_matrix_product_of_unequal_sizes_is_refused_as_the_reference_does():
    text = """
HloModule unequal
ENTRY main {
  x = f32[4,<=8] parameter(0)
  y = f32[<=8,3] parameter(1)
  ROOT d = f32[4,3] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""
    exe, ref = _pair(text)
    args = [np.ones((4, 5), np.float32), np.ones((6, 3), np.float32)]
    with pytest.raises(dynhlo.DynHloError) as want:
        ref(*args)
    with pytest.raises(type(want.value)) as got:
        exe(*args)
    assert str(got.value) == str(want.value)


UFUNCS = """
HloModule ufuncs
ENTRY main {
  x = f32[<=9,7] parameter(0)
  y = f64[7,<=9] parameter(1)
  e = f32[<=9,7] exponential(x)
  t = f32[<=9,7] tanh(e)
  yt = f64[<=9,7] transpose(y), dimensions={1,0}
  l = f64[<=9,7] log(yt)
  s = f64[<=9,7] sine(l)
  ROOT r = (f32[<=9,7], f64[<=9,7]) tuple(t, s)
}
"""


@pytest.mark.parametrize("n", [0, 1, 9])
def test_transcendental_steps_are_numpy_ufuncs_bit_for_bit(n):
    """exp, tanh, log, sin run as NumPy's ufuncs (into reused buffers for dense operands;
    a transposed operand takes the reference's lowering): the reference's results, with
    its NaN, inf and signed zeros."""
    exe, ref = _pair(UFUNCS)
    assert [step[4] >= 0 for step in _steps(exe) if step[1].name in ("e", "t", "l", "s")] == \
        [True, False, True, False]   # e, l in buffers; the results t, s new arrays
    gen = np.random.default_rng(n)
    x = np.resize(SPECIAL, n * 7).reshape(n, 7) * np.float32(0.01)
    y = gen.standard_normal((7, n))
    if y.size:
        y[0, :] = [np.nan, -0.0, 0.0, np.inf, -1.0, 1e-300, 3.0, -np.inf, 2.0][:n]
    for _ in range(2):   # the second call writes into the buffers the first one made
        _same(exe(x, y), ref(x, y))


ATTENTION_SCORES = """
HloModule scores
ENTRY main {
  q = f32[<=9,6] parameter(0)
  k = f32[<=9,6] parameter(1)
  kt = f32[6,<=9] transpose(k), dimensions={1,0}
  s = f32[<=9,<=9] dot(q, kt), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  qt = f32[6,<=9] transpose(q), dimensions={1,0}
  g = f32[6,6] dot(qt, k), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = (f32[<=9,<=9], f32[6,6], f32[6,<=9]) tuple(s, g, qt)
}
"""


@pytest.mark.parametrize("n", [0, 1, 9])
def test_a_transpose_read_only_by_matrix_products_is_a_view_of_its_operand(n):
    """`q @ transpose(k)`: the product reads k transposed in place and the transpose step
    is gone; a transpose the root returns stays. Bit for bit the reference's."""
    exe, ref = _pair(ATTENTION_SCORES)
    assert [step[1].name for step in _steps(exe) if step[1].opcode.value == "transpose"] \
        == ["qt"]
    gen = np.random.default_rng(n)
    q, k = (gen.standard_normal((n, 6)).astype(np.float32) for _ in range(2))
    _same(exe(q, k), ref(q, k))


def test_arguments_given_as_strided_views_are_read_in_place():
    """A kernel reads its inputs through NumPy's strides (in bytes, negative ones too):
    reversed, every-other-column and transposed views give the reference's results."""
    exe, ref = _pair(CHAIN)
    gen = np.random.default_rng(11)
    big = gen.standard_normal((10, 16)).astype(np.float32)
    x = big[::-1, ::2]                      # (10, 8), negative and doubled strides
    b = big[3, 1::2]                        # (8,), stride 8 bytes
    t = big[:, :8][::-1].T                  # (8, 10), transposed and reversed
    _same(exe(x, b, t), ref(x, b, t))


# A while loop of three iterations: a matrix product, a kernel and tanh in its body.
LOOP_COMPUTATIONS = """
cond {
  p = (s32[], f32[<=8,4], f32[4,4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  three = s32[] constant(3)
  ROOT c = pred[] compare(i, three), direction=LT
}
body {
  p = (s32[], f32[<=8,4], f32[4,4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[<=8,4] get-tuple-element(p), index=1
  w = f32[4,4] get-tuple-element(p), index=2
  d = f32[<=8,4] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  h = f32[] constant(0.5)
  hb = f32[<=8,4] broadcast(h), dimensions={}
  m = f32[<=8,4] multiply(d, hb)
  e = f32[<=8,4] tanh(m)
  y = f32[<=8,4] add(e, x)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[<=8,4], f32[4,4]) tuple(j, y, w)
}
"""

LOOP = "HloModule loop\n" + LOOP_COMPUTATIONS + """ENTRY main {
  x = f32[<=8,4] parameter(0)
  w = f32[4,4] parameter(1)
  zero = s32[] constant(0)
  t = (s32[], f32[<=8,4], f32[4,4]) tuple(zero, x, w)
  l = (s32[], f32[<=8,4], f32[4,4]) while(t), condition=cond, body=body
  r = f32[<=8,4] get-tuple-element(l), index=1
  s = f32[<=8,4] multiply(r, r)
  ROOT out = (f32[<=8,4], f32[<=8,4]) tuple(r, s)
}
"""


def test_results_never_share_the_reused_buffers():
    """A loop body's matrix product, kernel and tanh write into buffers reused from
    iteration to iteration and call to call; the results handed back are arrays of their
    own: an earlier call's results stay as they were, bit for bit the reference's."""
    exe, ref = _pair(LOOP)
    gen = np.random.default_rng(2)
    calls = [(gen.standard_normal((n, 4)).astype(np.float32),
              gen.standard_normal((4, 4)).astype(np.float32)) for n in (8, 3, 8, 0, 5)]
    got = [exe(*args) for args in calls]
    in_buffers = {step[1].name for steps in exe.program.evaluator._steps.values()
                  for step in steps if step[4] >= 0}
    assert in_buffers == {"d", "m", "e"}, in_buffers   # the body's; y, r, s are results
    for g, args in zip(got, calls, strict=True):
        _same(g, ref(*args))


def test_threads_calling_one_executable_use_buffers_of_their_own():
    """Buffers are per thread: four threads calling one executable at once get each its
    own results (the reference's)."""
    import threading

    exe, ref = _pair(LOOP)
    gen = np.random.default_rng(4)
    calls = [(gen.standard_normal((1 + k % 8, 4)).astype(np.float32),
              gen.standard_normal((4, 4)).astype(np.float32)) for k in range(16)]
    want = [ref(*args) for args in calls]
    got: dict = {}
    errors: list = []

    def work(start):
        try:
            for _ in range(20):
                for k in range(start, len(calls), 4):
                    got[k] = exe(*calls[k])
                    _same(got[k], want[k])
        except Exception as exc:  # noqa: BLE001 - reported by the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for k, w in enumerate(want):
        _same(got[k], w)
