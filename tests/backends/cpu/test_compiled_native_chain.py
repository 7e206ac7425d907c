"""Runs of a spec's native calls made one native call (chain.py's _CHAIN op): fused kernels
and f32/f64 matrix products through NumPy's own BLAS function. Every result is compared bit
for bit with the reference evaluator's and with the same compiled path whose specs keep one
op per native call (fast._CHAINING off); refusals in the middle of a run (a kernel's native
call returning non-zero) resume the Python steps at that kernel.
"""

from __future__ import annotations

import ctypes
import threading
import warnings

import numpy as np
import pytest

import dynhlo
import tests.support.reallibs_data as rd
from dynhlo.backends.cpu.compiled import fast, machine, steps
from dynhlo.backends.cpu.compiled import matmul_dispatch, native_routines
from dynhlo.backends.cpu.compiled import native_chain as chain

F32, F64 = np.float32, np.float64


def _module(ty: str) -> str:
    """Kernels, ufuncs and matrix products in a row: the weights made by kernels from
    parameters (their products' operands sit in buffers), one product reading its operand
    transposed, a ufunc of a parameter (its address written per call) and one of a
    product."""
    return f"""
HloModule chain_{ty}
ENTRY main {{
  x = {ty}[<=8,16] parameter(0)
  w = {ty}[16,16] parameter(1)
  v = {ty}[16,8] parameter(2)
  ws = {ty}[16,16] multiply(w, w)
  ex = {ty}[<=8,16] exponential(x)
  xs = {ty}[<=8,16] add(ex, x)
  d1 = {ty}[<=8,16] dot(xs, ws), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  th = {ty}[<=8,16] tanh(d1)
  m1 = {ty}[<=8,16] maximum(th, xs)
  d2 = {ty}[<=8,16] dot(m1, ws), lhs_contracting_dims={{1}}, rhs_contracting_dims={{1}}
  e = {ty}[<=8,16] subtract(d2, m1)
  vs = {ty}[16,8] negate(v)
  d3 = {ty}[<=8,8] dot(e, vs), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  ROOT r = {ty}[<=8,8] multiply(d3, d3)
}}
"""


def _bits(value) -> bytes:
    value = np.ascontiguousarray(np.asarray(value))
    return value.dtype.str.encode() + str(value.shape).encode() + value.tobytes()


def _same(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert [_bits(g) for g in got] == [_bits(w) for w in want]


def _fast(exe) -> "fast.Fast":
    program = exe.program
    pool = program.evaluator._local.pools[id(program.info)]
    return list(pool.fast.values())[-1]


def _chains(exe) -> list:
    return [op for op in _fast(exe).ops if op[0] == steps._CHAIN]


def _args(n: int, dtype, seed: int) -> tuple:
    r = np.random.default_rng(seed)
    return (r.standard_normal((n, 16)).astype(dtype), r.standard_normal((16, 16)).astype(dtype),
            r.standard_normal((16, 8)).astype(dtype))


def _three(text: str, monkeypatch):
    """(chained compiled, unchained compiled, reference) executables of `text`."""
    monkeypatch.setattr(fast, "_CHAINING", True)
    on = dynhlo.compile(text, backend="cpu", reference=False)
    off = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    return on, off, ref


def _call(exe, chaining: bool, monkeypatch, args):
    monkeypatch.setattr(fast, "_CHAINING", chaining)   # (read when a spec is made)
    return exe(*args)


@pytest.mark.parametrize("dtype", [F32, F64])
def test_runs_of_kernels_and_products_are_one_call_and_the_references(monkeypatch, dtype):
    text = _module("f32" if dtype is F32 else "f64")
    on, off, ref = _three(text, monkeypatch)
    for k, n in enumerate((5, 5, 5, 8, 8, 8, 1, 1, 1, 2, 2, 2, 5, 5)):
        args = _args(n, dtype, k)
        got = _call(on, True, monkeypatch, args)
        _same(got, _call(off, False, monkeypatch, args))
        _same(got, ref(*args))
        if n == 5 and k >= 1:   # specialized: the kernels and products in runs
            runs = _chains(on)
            assert runs, [op[0] for op in _fast(on).ops]
            joined = {i.name for op in runs for i, _ in op[5]}
            assert {"d1", "d2", "d3", "ex", "th"} <= joined, joined
            assert len(_fast(on).ops) < len(_fast(off).ops)
        if n == 1 and k >= 7:   # (1, 16) products: NumPy's vector case, by gemv
            joined = {i.name for op in _chains(on) for i, _ in op[5]}
            assert {"d1", "d2", "d3"} <= joined, joined


def test_inputs_of_another_layout_run_the_steps_on_their_own(monkeypatch):
    """A parameter a run reads, of other strides than the spec's: a kernel's leaf has its
    strides written into the kernel's arguments, a product's operand sends the rest of the
    call step by step (the reference's results either way), and the spec runs again at the
    next dense call."""
    on, off, ref = _three(_module("f32"), monkeypatch)
    for k in range(3):
        args = _args(4, F32, 10 + k)
        _same(_call(on, True, monkeypatch, args), ref(*args))
    x, w, v = _args(4, F32, 20)
    wt = np.asfortranarray(w)
    for args in ((x, wt, v), (x, w, v), (x, w[:, ::-1].copy()[:, ::-1], v)):
        _same(_call(on, True, monkeypatch, args), ref(*args))
        _same(_call(on, True, monkeypatch, args), _call(off, False, monkeypatch, args))


def _refusing():
    """A native function of a kernel's signature that refuses (returns 1), and its calls."""
    calls = []

    def refuse(_, pointer):
        calls.append(pointer)
        return 1
    fn = machine.KERNEL(refuse)
    return fn, ctypes.cast(fn, ctypes.c_void_p).value, calls


@pytest.mark.parametrize("dtype", [F32, F64])
def test_a_refusal_in_the_middle_of_a_run_resumes_at_that_kernel(monkeypatch, dtype):
    """Each kernel of each run refusing in turn (its native function returns 1 inside the
    one call): the members before it ran, its value is the reference's, the steps after it
    run on their own; the result is the reference's bit for bit, call after call."""
    text = _module("f32" if dtype is F32 else "f64")
    on, _, ref = _three(text, monkeypatch)
    for k in range(3):
        args = _args(6, dtype, 30 + k)
        _same(on(*args), ref(*args))
    runs = _chains(on)
    assert runs and max(op[4] for op in runs) >= 3
    tried = 0
    for op in runs:
        entries = op[8][0]
        for at, (_, what, _, _) in enumerate(op[7]):
            if what is None:   # a matrix product never refuses
                continue
            fn, address, calls = _refusing()
            saved = entries[2 * at]
            entries[2 * at] = address
            try:
                for k in range(2):
                    args = _args(6, dtype, 40 + k + 3 * tried)
                    _same(on(*args), ref(*args))
                assert len(calls) == 2
            finally:
                entries[2 * at] = saved
                del fn
            tried += 1
    assert tried >= 3
    args = _args(6, dtype, 99)
    _same(on(*args), ref(*args))


def test_a_size_over_the_bound_is_refused_as_the_reference_does(monkeypatch):
    on, _, ref = _three(_module("f32"), monkeypatch)
    for k in range(3):
        args = _args(7, F32, 50 + k)
        _same(on(*args), ref(*args))
    x, w, v = _args(9, F32, 60)
    with pytest.raises(dynhlo.DynHloError) as got:
        on(x, w, v)
    with pytest.raises(dynhlo.DynHloError) as want:
        ref(x, w, v)
    assert type(got.value) is type(want.value)
    args = _args(7, F32, 61)
    _same(on(*args), ref(*args))


def test_threads_run_specs_of_their_own(monkeypatch):
    """Specs (and their runs' argument lists) are per thread: four threads calling one
    executable at once at several sizes each get the reference's results."""
    on, _, ref = _three(_module("f32"), monkeypatch)
    calls = [_args(2 + k % 7, F32, 70 + k) for k in range(14)]
    want = [ref(*args) for args in calls]
    errors: list = []

    def work(start):
        try:
            for _ in range(15):
                for k in range(start, len(calls), 4):
                    _same(on(*calls[k]), want[k])
        except Exception as exc:  # noqa: BLE001 - reported by the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


LAYOUTS = ("c", "f", "gapped-rows", "gapped-columns", "every-other")


def _laid(a: np.ndarray, how: str) -> np.ndarray:
    if how == "c":
        return np.ascontiguousarray(a)
    if how == "f":
        return np.asfortranarray(a)
    if how == "every-other":   # not blasable: NumPy copies it, or its loop reads it
        wide = np.zeros((a.shape[0], 2 * a.shape[1]), a.dtype)
        wide[:, ::2] = a
        return wide[:, ::2]
    if how == "gapped-rows":   # C-blasable with a leading dimension beyond the row
        wide = np.zeros((a.shape[0], a.shape[1] + 3), a.dtype)
        wide[:, :a.shape[1]] = a
        return wide[:, :a.shape[1]]
    wide = np.zeros((a.shape[1], a.shape[0] + 2), a.dtype).T   # F-blasable, gapped
    wide[:a.shape[0]] = a
    return wide[:a.shape[0]]


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("shape", [(2, 3, 4), (5, 16, 7), (33, 65, 17), (64, 64, 64),
                                   (1, 8, 8), (8, 1, 8), (8, 8, 1), (3, 3, 3), (1, 40, 1),
                                   (1, 1, 1), (1, 1, 6), (1, 33, 7), (9, 33, 1), (7, 1, 5),
                                   (6, 1, 1)])
def test_the_product_wrappers_are_numpys_matmul_bit_for_bit(dtype, shape):
    """matmul_call and its wrappers (gemm, gemv, dot, the loop without BLAS): NumPy's
    matmul into `out` bit for bit, for every layout; the cases it does not take (a matrix
    times its own transpose, an output overlapping an operand) are declined."""
    routines = native_routines._routines()
    if "sgemm" not in routines:
        pytest.skip("NumPy's BLAS is not scipy-openblas ILP64 here")
    m, k, n = shape
    r = np.random.default_rng(sum(shape))
    blas = routines["sgemm" if dtype is F32 else "dgemm"]
    for la in LAYOUTS:
        for lb in LAYOUTS:
            a = _laid((r.standard_normal((m, k)) * 3).astype(dtype), la)
            b = _laid((r.standard_normal((k, n)) * 3).astype(dtype), lb)
            want = np.matmul(a, b, out=np.empty((m, n), dtype))
            out = np.full((m, n), np.nan, dtype)
            made = matmul_dispatch.matmul_call(a, b, out, routines)
            if k == 1 and not m == n == 1:   # NumPy's loop without BLAS
                assert made is not None and made[0] == native_routines._routines()[
                    "noblas_f32" if dtype is F32 else "noblas_f64"], (la, lb)
            if 1 not in shape and "every-other" not in (la, lb):
                assert made is not None, (la, lb)
                assert made[1][1:] == matmul_dispatch.gemm_args(a, b, out, blas)[1:]
            if made is None:
                continue
            fn, args, slots = made
            assert (args[slots[0]], args[slots[1]]) == (a.ctypes.data, b.ctypes.data)
            packed = np.array(args, np.int64)
            assert machine.KERNEL(fn)(None, packed.ctypes.data) == 0
            assert out.tobytes() == want.tobytes(), (la, lb)
    if 1 not in shape and m == n:
        a = r.standard_normal((m, k)).astype(dtype)
        assert matmul_dispatch.gemm_args(a, a.T, np.empty((m, m), dtype), blas) is None   # syrk
    if 1 not in shape:   # an output overlapping an operand: the ufunc computes a copy
        base = np.zeros((m, k + n), dtype)
        assert matmul_dispatch.gemm_args(base[:, :k], np.ones((k, n), dtype), base[:, k - 1:k - 1 + n],
                               blas) is None


# Programs whose float sums read a value laid out otherwise in a run than step by step:
# wav2vec2's group norm (its loop of one trip written in the entry) sums rows of a
# dynamic-reshape that the run reads as the convolution's column-major view and the
# unchained step as a row-major copy, so the row kernels add in another order: within the
# program's tolerance of each other, not bit for bit.
_SUMS_LAID_OUT_OTHERWISE = frozenset({"hf_wav2vec2_features"})


@pytest.mark.parametrize("name", list(rd.MANIFEST))
def test_real_library_programs_agree_with_the_unchained_path(monkeypatch, name):
    """The stored real-library programs at each of their sizes: the chained specs' results
    are the unchained ones' bit for bit (but _SUMS_LAID_OUT_OTHERWISE: within tolerance),
    call after call, and within the programs' tolerances of the stored references."""
    text = dynhlo.parse_stablehlo(rd.module_text(name))
    monkeypatch.setattr(fast, "_CHAINING", True)
    on = dynhlo.compile(text, backend="cpu", reference=False)
    off = dynhlo.compile(text, backend="cpu", reference=False)
    for size in rd.MANIFEST[name]["sizes"]:
        args, outs = rd.case(name, size)
        for _ in range(3):
            got = _call(on, True, monkeypatch, args)
            unchained = _call(off, False, monkeypatch, args)
            if name in _SUMS_LAID_OUT_OTHERWISE:
                rd.check_outputs(name, [unchained], [np.asarray(got)])
            else:
                _same(got, unchained)
        rd.check_outputs(name, list(got) if isinstance(got, tuple) else [got], outs)


def test_values_laid_out_otherwise_than_when_the_spec_was_made_stay_in_the_run(monkeypatch):
    """JAX's 12-layer transformer at one token: the spec is made from a call run step by
    step, whose head split (gathers, a dynamic-reshape, a transpose) leaves its value in the
    reference lowering's layout; the spec's own steps leave it C-ordered. The kernels and
    the batched products' copies reading it take its strides per call, so every later call
    runs the spec through (no step-by-step rest: it once ran 30x slower), with the
    unchained path's results bit for bit."""
    name = "jax_transformer_12"
    text = dynhlo.parse_stablehlo(rd.module_text(name))
    monkeypatch.setattr(fast, "_CHAINING", True)
    on = dynhlo.compile(text, backend="cpu", reference=False)
    off = dynhlo.compile(text, backend="cpu", reference=False)
    rest = []
    from dynhlo.backends.cpu.compiled import runner
    steps_of = runner.CompiledEvaluator._run_steps
    monkeypatch.setattr(runner.CompiledEvaluator, "_run_steps",
                        lambda self, *a, **k: rest.append(1) or steps_of(self, *a, **k))
    for size in (1, 23, 1):
        args, outs = rd.case(name, size)
        for call in range(3):
            rest.clear()
            got = _call(on, True, monkeypatch, args)
            assert call == 0 or not rest, (size, call)
            _same(got, _call(off, False, monkeypatch, args))
        rd.check_outputs(name, list(got) if isinstance(got, tuple) else [got], outs)


# Products with batch_dot's layout (a 3-d operand) whose weights are parameters: their
# addresses written into the run's argument arrays per call.
BATCHED = """
HloModule chain_batched
ENTRY main {
  x = f32[<=8,2,16] parameter(0)
  w = f32[16,2,8] parameter(1)
  u = f32[16,16] parameter(2)
  xs = f32[<=8,2,16] multiply(x, x)
  q = f32[<=8,2,2,8] dot(xs, w), lhs_contracting_dims={2}, rhs_contracting_dims={0}
  qr = f32[<=8,2,16] reshape(q)
  t = f32[<=8,2,16] dot(xs, u), lhs_contracting_dims={2}, rhs_contracting_dims={0}
  ROOT r = f32[<=8,2,16] add(qr, t)
}
"""


def _batched_args(n: int, seed: int, layout: str = "c") -> tuple:
    r = np.random.default_rng(seed)
    x = r.standard_normal((n, 2, 16)).astype(F32)
    w = r.standard_normal((16, 2, 8)).astype(F32)
    u = r.standard_normal((16, 16)).astype(F32)
    if layout == "f":
        w, u = np.asfortranarray(w), np.asfortranarray(u)
    elif layout == "strided":
        u = np.repeat(u, 2, axis=1)[:, ::2]
    return x, w, u


def test_products_of_parameters_join_with_their_addresses_written_per_call(monkeypatch):
    on, off, ref = _three(BATCHED, monkeypatch)
    for k, (n, layout) in enumerate([(3, "c")] * 3 + [(3, "f"), (3, "c"), (3, "strided"),
                                                       (5, "c"), (5, "c"), (5, "c"),
                                                       (5, "f"), (5, "c"), (1, "c")] * 1):
        args = _batched_args(n, 80 + k, layout)
        got = _call(on, True, monkeypatch, args)
        _same(got, _call(off, False, monkeypatch, args))
        _same(got, ref(*args))
        if k in (2, 4, 8):
            joined = {i.name for op in _chains(on) for i, _ in op[5]}
            assert {"xs", "q", "t"} <= joined, joined
            patched = {group[0].name for op in _chains(on) for group in op[6]}
            assert {"x", "w", "u"} <= patched, patched


def test_the_product_wrapper_declines_an_output_overlapping_an_operand():
    """An operand read per call that overlaps the product's buffer, or one array as both
    operands in syrk's layout: the wrapper returns 1 (the Python step's np.matmul)."""
    routines = native_routines._routines()
    if "sgemm" not in routines:
        pytest.skip("NumPy's BLAS is not scipy-openblas ILP64 here")
    wrapper = machine.KERNEL(routines["gemm_f32"])
    a = np.ones((4, 6), F32)
    b = np.ones((6, 5), F32)
    out = np.zeros((4, 5), F32)
    args = np.array(matmul_dispatch.gemm_args(a, b, out, routines["sgemm"]), np.int64)
    assert wrapper(None, args.ctypes.data) == 0 and (out == 6).all()
    base = np.zeros((4, 11), F32)
    moved = args.copy()
    moved[10] = base.ctypes.data   # the output over a (4, 6) block holding A
    moved[6] = base.ctypes.data + 4 * 5
    assert wrapper(None, moved.ctypes.data) == 1
    sq = np.ones((4, 4), F32)
    t = matmul_dispatch.gemm_args(sq, np.ones((4, 4), F32).T, np.zeros((4, 4), F32), routines["sgemm"])
    t = np.array(t, np.int64)
    assert t[15] == 1   # syrk's layout, were A and B one array
    t[8] = t[6]
    assert wrapper(None, t.ctypes.data) == 1


@pytest.mark.parametrize("dtype", [F32, F64])
def test_numpys_ufunc_loops_are_the_ufuncs_bit_for_bit(dtype):
    """ufunc_loops.loop: for each ufunc a spec's step calls, NumPy's inner loop on dense
    arrays (in place too) gives the ufunc's bits, through the run's wrapper."""
    from dynhlo.backends.cpu.compiled import ufunc_loops
    wrapper = machine.KERNEL(native_routines._routines()["ufunc"])
    r = np.random.default_rng(5)
    for fn in steps._UFUNCS.values():
        found = ufunc_loops.loop(fn, dtype)
        assert found is not None, fn
        for n in (1, 6, 19, 128, 4099):
            x = (r.standard_normal(n) * 4).astype(dtype)
            x[:3] = np.array([np.nan, -0.0, np.inf], dtype)[:min(3, n)]
            with np.errstate(all="ignore"):
                want = fn(x)
            for in_place in (False, True):
                y = x.copy()
                out = y if in_place else np.empty_like(y)
                size = y.itemsize
                args = np.array([*found, y.ctypes.data, out.ctypes.data, n, size, size,
                                 n * size, n * size], np.int64)
                with np.errstate(all="ignore"):
                    assert wrapper(None, args.ctypes.data) == 0
                assert out.tobytes() == want.tobytes(), (fn, n, in_place)
        y = np.zeros(8, dtype)   # a partial overlap: declined (NumPy would copy)
        args = np.array([*found, y.ctypes.data, y.ctypes.data + size, 7, size, size,
                         7 * size, 7 * size], np.int64)
        assert wrapper(None, args.ctypes.data) == 1
    assert ufunc_loops.loop(np.add, dtype) is None and ufunc_loops.loop(np.exp, np.int32) is None


# A product of a folded broadcast: the layout NumPy is handed is a copy only its op holds.
FOLDED = """
HloModule chain_folded
ENTRY main {
  x = f32[<=8,16] parameter(0)
  c = f32[16] constant({0.5, -1.25, 2, 3.5, -0.75, 1, 0.25, -2,
                        1.5, -3, 0.125, 4, -0.5, 2.5, -1, 0.75})
  w = f32[16,16] broadcast(c), dimensions={1}
  xs = f32[<=8,16] multiply(x, x)
  d = f32[<=8,16] dot(xs, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = f32[<=8,16] add(d, xs)
}
"""


def test_arrays_only_a_runs_members_held_stay_alive(monkeypatch):
    """The copy of a folded broadcast a product reads lives as long as the run that
    addresses it: results stay the reference's while other arrays come and go."""
    import gc
    on, _, ref = _three(FOLDED, monkeypatch)
    r = np.random.default_rng(3)
    for k in range(12):
        x = r.standard_normal((6, 16)).astype(F32)
        _same(on(x), ref(x))
        gc.collect()
        junk = [np.full((16, 16), np.nan, F32) for _ in range(50)]
        del junk
    assert _chains(on)


def test_the_routines_object_comes_from_the_disk_cache_as_a_kernels_does(tmp_path,
                                                                           monkeypatch):
    """The runs' routines are compiled once and then read from the kernels' disk cache
    (a new process compiles nothing); an entry whose object was changed, or that does not
    name the routine, is a miss and compiled again."""
    machine._machine()
    monkeypatch.setitem(machine._state, "cache", tmp_path)
    made = machine.module_object(native_routines._IR, "dynhlo_chain_run")
    assert made and b"dynhlo_chain_run" in made
    compile_ = machine._compile

    def refuse(*_):
        raise AssertionError("compiled")
    monkeypatch.setattr(machine, "_compile", refuse)
    assert machine.module_object(native_routines._IR, "dynhlo_chain_run") == made
    (obj,) = tmp_path.glob("*.o")
    obj.write_bytes(obj.read_bytes()[:-1] + b"x")
    with pytest.raises(AssertionError, match="compiled"):
        machine.module_object(native_routines._IR, "dynhlo_chain_run")
    with pytest.raises(AssertionError, match="compiled"):   # (a whole entry, another name)
        machine.module_object(native_routines._IR, "dynhlo_chain_elsewhere")
    monkeypatch.setattr(machine, "_compile", compile_)
    assert machine.module_object(native_routines._IR, "dynhlo_chain_run") == made


@pytest.mark.parametrize("dtype", [F32, F64, np.int32, np.int64])
def test_the_copy_routine_is_reshapes_copy(dtype):
    """copy4 / copy8: a strided array's elements in C order into a dense array, as
    `x.reshape(shape)` copies them (up to 6 dimensions of more than one element)."""
    r = np.random.default_rng(11)
    fn = machine.KERNEL(native_routines._routines()[f"copy{np.dtype(dtype).itemsize}"])
    for shape, axes in [((3, 4), (1, 0)), ((2, 3, 5), (2, 0, 1)), ((4, 1, 3, 2), (3, 1, 0, 2)),
                        ((2, 2, 3, 2, 2, 3), (5, 4, 3, 2, 1, 0)), ((7,), (0,))]:
        base = (r.standard_normal(tuple(2 * n for n in shape)) * 100).astype(dtype)
        x = base[tuple(slice(None, None, 2) for _ in shape)].transpose(axes)
        want = x.reshape(-1)
        out = np.full(x.size, -1, dtype)
        dims = [(n, s) for n, s in zip(x.shape, x.strides, strict=True) if n != 1]
        dims = [(1, 0)] * (6 - len(dims)) + dims
        args = np.array([out.ctypes.data, x.ctypes.data, *[n for n, _ in dims],
                         *[s for _, s in dims]], np.int64)
        assert fn(None, args.ctypes.data) == 0
        assert out.tobytes() == want.tobytes(), shape


def _six(x: np.ndarray) -> list:
    """x's sizes and byte strides as the routines take them: six of each, leading ones of
    one element first."""
    dims = list(zip(x.shape, x.strides, strict=True))
    dims = [(1, 0)] * (6 - len(dims)) + dims
    return [n for n, _ in dims] + [s for _, s in dims]


@pytest.mark.parametrize("dtype", [np.int8, np.float16, F32, F64])
def test_the_copy_routines_move_dense_rows_of_strided_arrays(dtype):
    """copy{1,2,4,8} / place{1,2,4,8} where the innermost stride is the element's (a row
    moves as one block): rows of an array strided in its outer dimensions, into a dense one
    (copy) and into a strided one (place), every element moved once and nothing else
    written; rows of 0, 1 and 37 elements."""
    r = np.random.default_rng(5)
    size = np.dtype(dtype).itemsize
    routines = native_routines._routines()
    copy, place = (machine.KERNEL(routines[f"{kind}{size}"]) for kind in ("copy", "place"))
    for shape in [(3, 4), (2, 3, 37), (2, 1, 3, 1), (4, 0), (2, 2, 2, 2, 2, 5)]:
        base = (r.standard_normal((2 * shape[0], *shape[1:-1], shape[-1] + 3)) * 100)
        x = base.astype(dtype)[::2, ..., 1:shape[-1] + 1]          # outer strides, dense rows
        out = np.full(x.size, -1, dtype)
        args = np.array([out.ctypes.data, x.ctypes.data, *_six(x)], np.int64)
        assert copy(None, args.ctypes.data) == 0
        assert out.tobytes() == x.reshape(-1).tobytes(), shape
        # into every other outer row of a wider array: the rest stays as it was
        into = np.full((2 * shape[0], *shape[1:-1], shape[-1] + 2), -1, dtype)
        target = into[::2, ..., 2:]
        before = into.copy()
        args = np.array([target.ctypes.data, x.ctypes.data, *_six(x),
                         *_six(target)[6:]], np.int64)
        assert place(None, args.ctypes.data) == 0
        assert target.tobytes() == x.tobytes(), shape
        before[::2, ..., 2:] = x
        assert into.tobytes() == before.tobytes(), shape
# Attention's products: batch dimensions in the middle, so batch_dot's NumPy calls copy
# an operand (reshape's copy in C order, or astype's in the view's own order).
ATTENTION = """
HloModule chain_attention
ENTRY main {
  q = f32[2,<=8,4,8] parameter(0)
  k = f32[2,<=8,4,8] parameter(1)
  qs = f32[2,<=8,4,8] multiply(q, q)
  s = f32[2,4,<=8,<=8] dot(qs, k), lhs_batch_dims={0,2}, rhs_batch_dims={0,2},
      lhs_contracting_dims={3}, rhs_contracting_dims={3}
  t = f32[2,4,<=8,<=8] negate(s)
  o = f32[2,4,<=8,8] dot(t, qs), lhs_batch_dims={0,1}, rhs_batch_dims={0,2},
      lhs_contracting_dims={3}, rhs_contracting_dims={1}
  v = f32[2,4,<=8,8] parameter(2)
  w = f32[2,4,<=8,<=8] dot(o, v), lhs_batch_dims={0,1}, rhs_batch_dims={0,1},
      lhs_contracting_dims={3}, rhs_contracting_dims={3}
  ROOT r = f32[2,4,<=8,<=8] add(w, w)
}
"""


def test_batch_products_whose_operands_numpy_copies_join(monkeypatch):
    on, off, ref = _three(ATTENTION, monkeypatch)
    r = np.random.default_rng(12)
    for k, n in enumerate((5, 5, 5, 1, 1, 1, 8, 8, 8, 3, 3)):
        args = (r.standard_normal((2, n, 4, 8)).astype(F32),
                r.standard_normal((2, n, 4, 8)).astype(F32),
                r.standard_normal((2, 4, n, 8)).astype(F32))
        got = _call(on, True, monkeypatch, args)
        _same(got, _call(off, False, monkeypatch, args))
        _same(got, ref(*args))
        if k in (2, 8):
            joined = {i.name for op in _chains(on) for i, _ in op[5]}
            assert {"s", "o", "w"} <= joined, joined


def test_a_reshape_step_joins_only_where_it_places_elements_as_reshape_does():
    """_is_reshape: a step's function is taken for x.reshape's copy only where it puts
    distinct values where reshape puts them (a transposing or padding step is not)."""
    x = np.arange(24, dtype=F32).reshape(2, 3, 4).transpose(0, 2, 1)
    assert chain._is_reshape(lambda v: v.reshape(8, 3), x, (8, 3))
    assert not chain._is_reshape(lambda v: v.transpose(0, 2, 1).reshape(8, 3), x, (8, 3))
    assert not chain._is_reshape(lambda v: np.pad(v.reshape(-1)[1:], (0, 1)).reshape(8, 3),
                                 x, (8, 3))
    assert not chain._is_reshape(lambda v: None, x, (8, 3))


def test_the_same_argument_array_again_is_read_at_its_contents_and_strides(monkeypatch):
    """The arrays passed at every call (weights) are not read again when they are the same
    objects as at the last call: their data addresses cannot change, but their contents
    can, and their strides can (NumPy's deprecated setter): each call is the reference's."""
    text = _module("f32")
    on, _, ref = _three(text, monkeypatch)
    x, w, v = _args(5, F32, 3)
    for _ in range(4):
        _same(_call(on, True, monkeypatch, (x, w, v)), ref(x, w, v))
    w[...] = np.random.default_rng(4).standard_normal(w.shape)   # new contents, same array
    v *= 2
    _same(_call(on, True, monkeypatch, (x, w, v)), ref(x, w, v))
    with warnings.catch_warnings():   # the same memory read transposed, same object
        warnings.simplefilter("ignore", DeprecationWarning)
        w.strides = (w.itemsize, w.shape[1] * w.itemsize)
    assert not w.flags.c_contiguous
    for _ in range(2):
        _same(_call(on, True, monkeypatch, (x, w, v)), ref(x, w, v))


# An LSTM's gates: column blocks of one product, two of them through transcendental ufuncs
# straight from the block (rows of 16 dense elements, 64 apart), two through kernels.
GATES = """
HloModule chain_gates
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,64] parameter(1)
  g = f32[<=8,64] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  a = f32[<=8,16] slice(g), slice={[0:8], [0:16]}
  b = f32[<=8,16] slice(g), slice={[0:8], [16:32]}
  c = f32[<=8,16] slice(g), slice={[0:8], [32:48]}
  d = f32[<=8,16] slice(g), slice={[0:8], [48:64]}
  ta = f32[<=8,16] tanh(a)
  eb = f32[<=8,16] exponential(b)
  cd = f32[<=8,16] multiply(c, d)
  s = f32[<=8,16] add(ta, eb)
  ROOT r = f32[<=8,16] add(s, cd)
}
"""


def test_a_ufunc_of_a_column_block_runs_row_by_row_in_the_run(monkeypatch):
    """tanh and exp of column blocks of a product join the run (the ufunc's inner loop per
    row, as NumPy's iterator calls it), bit for bit the reference's, at every size."""
    on, off, ref = _three(GATES, monkeypatch)
    rows = native_routines._routines()["ufunc_rows"]
    r = np.random.default_rng(3)
    for n in (5, 5, 5, 8, 8, 1, 1, 1, 3):
        args = ((r.standard_normal((n, 16)) * 2).astype(F32),
                r.standard_normal((16, 64)).astype(F32))
        got = _call(on, True, monkeypatch, args)
        _same(got, _call(off, False, monkeypatch, args))
        _same(got, ref(*args))
    joined = {member[1].name for op in _chains(on) for member in op[8][2]}
    assert {"g", "ta", "eb"} <= joined, joined
    calls = [fn for op in _chains(on) for member in op[8][1] for fn, *_ in member[0]]
    assert calls.count(rows) == 2


@pytest.mark.parametrize("dtype", [F32, F64])
def test_the_row_ufunc_wrapper_is_the_ufunc_on_a_column_block_bit_for_bit(dtype):
    """ufunc_rows: the inner loop once per row of a strided block gives the ufunc's bits on
    that view; an output overlapping the block is declined."""
    from dynhlo.backends.cpu.compiled import ufunc_loops
    wrapper = machine.KERNEL(native_routines._routines()["ufunc_rows"])
    r = np.random.default_rng(7)
    for fn in (np.exp, np.tanh, np.log1p):
        found = ufunc_loops.loop(fn, dtype)
        for rows, width, at in ((1, 16, 0), (5, 16, 16), (7, 3, 5)):
            wide = (r.standard_normal((rows, 64)) * 3).astype(dtype)
            block = wide[:, at:at + width]
            with np.errstate(all="ignore"):
                want = fn(block)
            out = np.empty((rows, width), dtype)
            size = wide.itemsize
            args = np.array([*found, block.ctypes.data, out.ctypes.data, width, size, size,
                             (rows - 1) * wide.strides[0] + width * size, out.nbytes, rows,
                             wide.strides[0], width * size], np.int64)
            with np.errstate(all="ignore"):
                assert wrapper(None, args.ctypes.data) == 0
            assert out.tobytes() == want.tobytes(), (fn, rows, width)
        args[3] = block.ctypes.data + size   # (the output one element into the block)
        assert wrapper(None, args.ctypes.data) == 1


# A size set to the one its operand has (a loop's output row at the carried batch size:
# the operand a new array per call, returned too), through an order-keeping broadcast, and
# through a transposing one (other elements in C order: a copy).
SIZED = """
HloModule chain_sized
ENTRY main {
  x = f32[<=8,8] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  k = f32[<=8,8] add(x, x)
  b = f32[1,<=8,8] broadcast(k), dimensions={1,2}
  s = f32[1,<=8,8] set-dimension-size(b, n), dimensions={1}
  t = f32[8,<=8] broadcast(k), dimensions={1,0}
  u = f32[8,<=8] set-dimension-size(t, n), dimensions={1}
  e = f32[1,<=8,8] exponential(s)
  ue = f32[8,<=8] exponential(u)
  r = f32[1,<=8,8] multiply(e, s)
  q = f32[8,<=8] multiply(ue, u)
  ROOT o = (f32[1,<=8,8], f32[8,<=8], f32[<=8,8]) tuple(r, q, k)
}
"""


def test_a_size_set_to_the_operands_own_is_its_elements_in_place(monkeypatch):
    """`s` is `k`'s elements in C order: a view in the run, no copy; `u` (transposed by
    its broadcast) keeps its copy. Bit for bit the reference's at every size (8 x 8: the
    transposed value has as many elements as k, in another order)."""
    on, off, ref = _three(SIZED, monkeypatch)
    r = np.random.default_rng(4)
    for n in (8, 8, 8, 3, 3, 3, 1, 8):
        args = ((r.standard_normal((n, 8))).astype(F32),)
        got = _call(on, True, monkeypatch, args)
        _same(got, _call(off, False, monkeypatch, args))
        _same(got, ref(*args))
    members = {o[1].name: member for op in _chains(on)
               for member, o in zip(op[8][1], op[8][2], strict=True)}
    assert members["s"][0] == [] and members["u"][0] != []


def _sums_module(ty: str, init: str) -> str:
    """A mean over the middle axis between kernels (keras' pooling over a sequence)."""
    return f"""
HloModule chain_sums_{ty}
add {{
  a = {ty}[] parameter(0)
  b = {ty}[] parameter(1)
  ROOT s = {ty}[] add(a, b)
}}
ENTRY main {{
  x = {ty}[2,<=9,5] parameter(0)
  t = {ty}[2,<=9,5] tanh(x)
  y = {ty}[2,<=9,5] multiply(t, x)
  i = {ty}[] constant({init})
  s = {ty}[2,5] reduce(y, i), dimensions={{1}}, to_apply=add
  c = {ty}[] constant(3)
  cb = {ty}[2,5] broadcast(c), dimensions={{}}
  ROOT r = {ty}[2,5] divide(s, cb)
}}
"""


@pytest.mark.parametrize("dtype,init", [(F32, "0"), (F32, "-0"), (F64, "0"), (F32, "1.5")])
def test_a_sum_over_the_middle_axis_joins_the_run_in_numpys_order(monkeypatch, dtype,
                                                                 init):
    """np.add.reduce over a middle axis adds in order from +0: the sums routine gives its
    bits (then the init), and declines a call whose sums hold a zero (x all -0 or 0 in a
    column: XLA's -0 sums, the Python step's), bit for bit the reference's."""
    on, off, ref = _three(_sums_module("f32" if dtype is F32 else "f64", init), monkeypatch)
    r = np.random.default_rng(9)
    routine = native_routines._routines()["sums_f32" if dtype is F32 else "sums_f64"]
    for n in (9, 9, 9, 4, 4, 4, 1, 1, 1, 9):
        x = (r.standard_normal((2, n, 5)) * 10.0 ** r.integers(-3, 3, (2, n, 5))).astype(dtype)
        for zero in (None, 0.0, -0.0):
            if zero is not None:
                x[1, :, 2] = zero   # (a sum that is a zero: declined, the step's)
            got = _call(on, True, monkeypatch, (x,))
            _same(got, _call(off, False, monkeypatch, (x,)))
            _same(got, ref(x))
    calls = [fn for op in _chains(on) for member in op[8][1] for fn, *_ in member[0]]
    assert routine in calls


# A sum over an axis of size 1 whose array NumPy gives a stride of 0 there (a broadcast
# adding it), and a set-dimension-size of a broadcast that repeats a row: the first is
# summed at C order's own strides, the second is no view of its operand.
EDGES = """
HloModule chain_edges
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[3,5] parameter(0)
  v = f32[2] parameter(1)
  t = f32[3,5] tanh(x)
  b = f32[3,1,5] broadcast(t), dimensions={0,2}
  h = f32[] constant(0.5)
  s = f32[3,5] reduce(b, h), dimensions={1}, to_apply=add
  c = f32[] constant(3)
  cb = f32[3,5] broadcast(c), dimensions={}
  r = f32[3,5] divide(s, cb)
  k = f32[2] add(v, v)
  w = f32[2,2] broadcast(k), dimensions={0}
  one = s32[] constant(1)
  z = f32[<=2,2] set-dimension-size(w, one), dimensions={0}
  e = f32[<=2,2] exponential(z)
  q = f32[<=2,2] multiply(e, z)
  ROOT o = (f32[3,5], f32[<=2,2], f32[2]) tuple(r, q, k)
}
"""


def test_a_sum_over_a_unit_axis_and_a_repeating_broadcast_are_the_references(monkeypatch):
    on, off, ref = _three(EDGES, monkeypatch)
    r = np.random.default_rng(12)
    for _ in range(4):
        args = (r.standard_normal((3, 5)).astype(F32), r.standard_normal(2).astype(F32))
        got = _call(on, True, monkeypatch, args)
        _same(got, _call(off, False, monkeypatch, args))
        _same(got, ref(*args))
        k = args[1] + args[1]
        np.testing.assert_array_equal(got[1], np.exp(k[[0]])[:, None] * k[0] * [[1, 1]])


def test_a_sum_that_is_a_nan_is_declined():
    """Which of two NaNs a sum keeps is NumPy's loop's choice: the routine declines."""
    from array import array as packed_array
    from dynhlo.backends.cpu.compiled.sums_member import _bits
    routine = machine.KERNEL(native_routines._routines()["sums_f32"])
    x = np.ones((1, 2, 4), F32)
    out = np.empty((1, 4), F32)
    args = packed_array("q", [x.ctypes.data, out.ctypes.data, 1, 2, 4, 32, 16, _bits(0.0)])
    assert routine(None, args.buffer_info()[0]) == 0 and (out == 2).all()
    x[0, 0, 1], x[0, 1, 1] = np.nan, -np.nan
    assert routine(None, args.buffer_info()[0]) == 1
