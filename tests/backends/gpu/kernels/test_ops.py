"""Representative ops through the GPU backend's generated kernels, against the CPU backend.

One table of small modules with a bounded dynamic dimension, each run at several sizes
(0 and 1 among them) on backend="gpu" (Triton's interpreter without a GPU) and on
backend="cpu" (the reference). `fused` says the op must run inside a generated kernel
(not the host fallback): the test checks the plan.
"""

from __future__ import annotations


import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import F32_REDUCERS, GPU, torch  # skips without torch or triton

ADD = F32_REDUCERS + """add_s {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT c = s32[] add(a, b)
}
mul_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] multiply(a, b)
}
"""


def module(body: str, params: str) -> str:
    return f"HloModule t\n{ADD}\nENTRY main {{\n{params}\n{body}\n}}\n"


X = "  x = f32[<=24,5] parameter(0)"
XY = X + "\n  y = f32[<=24,5] parameter(1)"

CASES = {
    # name: (module text, argument makers (n -> array), fused)
    "unary_chain": (module("""  e = f32[<=24,5] exponential(x)
  t = f32[<=24,5] tanh(e)
  l = f32[<=24,5] log-plus-one(t)
  s = f32[<=24,5] sqrt(l)
  ROOT r = f32[<=24,5] negate(s)""", X), ["f"], True),
    "binary_compare_select": (module("""  d = f32[<=24,5] divide(x, y)
  m = f32[<=24,5] maximum(d, y)
  p = pred[<=24,5] compare(x, y), direction=LT
  ROOT r = f32[<=24,5] select(p, m, x)""", XY), ["f", "f"], True),
    "convert_to_s32_and_back": (module("""  c = s32[<=24,5] convert(x)
  one = s32[] constant(3)
  b = s32[<=24,5] broadcast(one), dimensions={}
  a = s32[<=24,5] multiply(c, b)
  ROOT r = f32[<=24,5] convert(a)""", X), ["f"], False),
    "transpose_reshape": (module("""  t = f32[5,<=24] transpose(x), dimensions={1,0}
  e = f32[5,<=24] exponential(t)
  ROOT r = f32[5,<=24,1] reshape(e)""", X), ["f"], True),
    "broadcast_rows_and_iota": (module("""  v = f32[5] parameter(1)
  b = f32[<=24,5] broadcast(v), dimensions={1}
  i = s32[<=24,5] iota(), iota_dimension=0
  f = f32[<=24,5] convert(i)
  a = f32[<=24,5] add(x, b)
  ROOT r = f32[<=24,5] multiply(a, f)""", X), ["f", "v5"], True),
    "row_reduce_max": (module("""  z = f32[] constant(-inf)
  ROOT r = f32[<=24] reduce(x, z), dimensions={1}, to_apply=max_f""", X), ["f"], True),
    "column_reduce_sum": (module("""  z = f32[] constant(0)
  e = f32[<=24,5] exponential(x)
  ROOT r = f32[5] reduce(e, z), dimensions={0}, to_apply=add_f""", X), ["f"], True),
    "reduce_all_product": (module("""  z = f32[] constant(1)
  ROOT r = f32[] reduce(x, z), dimensions={0,1}, to_apply=mul_f""", X), ["f"], True),
    "int_sum": (module("""  x = s32[<=24,5] parameter(0)
  z = s32[] constant(7)
  ROOT r = s32[<=24] reduce(x, z), dimensions={1}, to_apply=add_s""", ""), ["i"], True),
    "slice_static": (module("""  ROOT r = f32[<=24,2] slice(x), slice={[0:24], [1:5:2]}""", X), ["f"], True),
    "dot_batched": (module("""  a = f32[<=24,3,4] parameter(0)
  b = f32[<=24,4,2] parameter(1)
  ROOT r = f32[<=24,3,2] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}""",
                            ""), ["a3", "b3"], False),
    "gather_rows": (module("""  t = f32[10,5] parameter(0)
  i = s32[<=24,1] parameter(1)
  g = f32[<=24,5] gather(t, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,5}
  ROOT r = f32[<=24,5] multiply(g, g)""", ""), ["t10", "idx"], True),
    "host_fallback_sort": (module("""  ROOT r = f32[<=24,5] sort(x), dimensions={1}, to_apply=lt
}
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT""", X), ["f"], False),
}


def make_arg(kind: str, n: int, rng):
    if kind == "f":
        return rng.standard_normal((n, 5)).astype(np.float32)
    if kind == "i":
        return rng.integers(-50, 50, (n, 5)).astype(np.int32)
    if kind == "v5":
        return rng.standard_normal(5).astype(np.float32)
    if kind == "a3":
        return rng.standard_normal((n, 3, 4)).astype(np.float32)
    if kind == "b3":
        return rng.standard_normal((n, 4, 2)).astype(np.float32)
    if kind == "t10":
        return rng.standard_normal((10, 5)).astype(np.float32)
    if kind == "idx":
        return rng.integers(-3, 13, (n, 1)).astype(np.int32)  # out of range: clamped
    raise AssertionError(kind)


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_matches_cpu_backend(name):
    text, kinds, fused = CASES[name]
    on_gpu = dynhlo.compile(text, **GPU)
    on_cpu = dynhlo.compile(text, backend="cpu")
    if fused:
        assert on_gpu.program.kernels, "expected a generated kernel"
        assert all(kind != "library" for _, kind in on_gpu.program.plan.steps)
    rng = np.random.default_rng(7)
    for n in (0, 1, 9, 24):
        args = [make_arg(k, n, rng) for k in kinds]
        got, want = on_gpu(*args), np.asarray(on_cpu(*args))
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6)


def test_generated_kernel_masks_with_sizes_and_grids_follow_them():
    text, kinds, _ = CASES["unary_chain"]
    exe = dynhlo.compile(text, **GPU)
    (kernel,) = exe.program.kernels
    assert "xmask = x < (s0) * (5)" in kernel.source
    assert "do_not_specialize=['s0']" in kernel.source


SET_SIZE = """HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY main {
  x = f32[10,4] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=10,4] set-dimension-size(x, n), dimensions={0}
  e = f32[<=10,4] exponential(d)
  z = f32[] constant(0)
  s = f32[4] reduce(e, z), dimensions={0}, to_apply=add
  g = s32[] get-dimension-size(d), dimensions={0}
  ROOT r = (f32[<=10,4], f32[4], s32[]) tuple(e, s, g)
}
"""


def test_data_dependent_size_from_a_device_value():
    """set-dimension-size's size is a computed scalar: read from the device, then used."""
    on_gpu = dynhlo.compile(SET_SIZE, **GPU)
    x = np.random.default_rng(3).random((10, 4), dtype=np.float32)
    for n in (0, 1, 7, 10):
        e, s, g = on_gpu(x, np.int32(n))
        np.testing.assert_allclose(e, np.exp(x[:n]), rtol=1e-6)
        np.testing.assert_allclose(s, np.exp(x[:n]).sum(axis=0), rtol=1e-5)
        assert int(g) == n
    with pytest.raises(dynhlo.DynamicSizeError, match="outside"):
        on_gpu(x, np.int32(11))


def test_aot_payload_cross_compiles_without_a_gpu(tmp_path, monkeypatch):
    """Cubins for sm_90 and JSON metadata, made here (Triton cross-compiles; no pickle);
    a second payload of the same kernels compiles nothing (the cubin cache)."""
    import json
    from dynhlo import stats
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    text, _, _ = CASES["row_reduce_max"]
    program = dynhlo.compile(text, **GPU, target="sm_90").program
    before = stats.snapshot().get("kernel_compile", 0)
    payload = program.to_payload()
    assert stats.snapshot().get("kernel_compile", 0) == before + len(program.kernels)
    meta = json.loads(payload["gpu_program.json"])
    assert meta["target"] == "sm_90" and len(meta["kernels"]) == len(program.kernels) == 1
    assert meta["kernels"][0]["signature"]["s0"] == "i32"
    cubin = payload[f"cubin_{meta['kernels'][0]['cubin']}.cubin"]
    assert cubin[:4] == b"\x7fELF" and len(cubin) > 1000
    assert program.to_payload() == payload
    assert stats.snapshot().get("kernel_compile", 0) == before + len(program.kernels)


class _DlpackArray:
    """A foreign array that only speaks DLPack (as CuPy or JAX arrays do)."""

    def __init__(self, tensor):
        self._t = tensor
        self.shape = tuple(tensor.shape)
        self.dtype = np.dtype(str(tensor.dtype).removeprefix("torch."))

    def __dlpack__(self, **kwargs):
        return self._t.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()


def test_dlpack_arrays_pass_in_without_a_copy_and_tensors_come_out():
    text, _, _ = CASES["unary_chain"]
    exe = dynhlo.compile(text, **GPU)
    x = torch.randn(6, 5, device=exe.program.device)
    out = exe(_DlpackArray(x))
    assert isinstance(out, torch.Tensor)
    want = np.asarray(dynhlo.compile(text, backend="cpu")(x.cpu().numpy()))
    np.testing.assert_allclose(out.cpu().numpy(), want, rtol=2e-6, atol=1e-6)
    with pytest.raises(dynhlo.ArgumentError, match="size 25 > bound 24"):
        exe(_DlpackArray(torch.randn(25, 5, device=exe.program.device)))


def test_bounds_past_two_billion_elements_index_in_64_bits():
    text = """HloModule w
ENTRY main {
  x = f32[<=2100000,1024] parameter(0)
  ROOT y = f32[<=2100000,1024] exponential(x)
}
"""
    exe = dynhlo.compile(text, **GPU)
    (kernel,) = exe.program.kernels
    assert "s0 = s0.to(tl.int64)" in kernel.source and ".to(tl.int64)" in kernel.source
    x = np.random.default_rng(0).random((3, 1024), dtype=np.float32)
    np.testing.assert_allclose(exe(x), np.exp(x), rtol=1e-6)


LONG_ROWS = """HloModule long
max_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}
add_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=3,<=4100] parameter(0)
  ninf = f32[] constant(-inf)
  zero = f32[] constant(0)
  m = f32[<=3] reduce(x, ninf), dimensions={1}, to_apply=max_f
  mb = f32[<=3,<=4100] broadcast(m), dimensions={0}
  d = f32[<=3,<=4100] subtract(x, mb)
  e = f32[<=3,<=4100] exponential(d)
  s = f32[<=3] reduce(e, zero), dimensions={1}, to_apply=add_f
  sb = f32[<=3,<=4100] broadcast(s), dimensions={0}
  ROOT y = f32[<=3,<=4100] divide(e, sb)
}
"""


def test_softmax_over_rows_longer_than_one_tile_loops_over_column_tiles():
    """Reduced extents past codegen.PERSISTENT_MAX are walked in tiles, one pass each."""
    exe = dynhlo.compile(LONG_ROWS, **GPU)
    (kernel,) = exe.program.kernels
    assert kernel.kind == "row" and "for cstart in range(0, " in kernel.source
    rng = np.random.default_rng(11)
    for rows, cols in ((2, 0), (2, 1), (3, 1500), (2, 4100), (0, 7)):
        x = (rng.standard_normal((rows, cols)) * 4).astype(np.float32)
        want = np.exp(x - x.max(axis=1, keepdims=True)) if cols else x
        want = want / want.sum(axis=1, keepdims=True) if cols else x
        np.testing.assert_allclose(exe(x), want, rtol=1e-5, atol=1e-7)


WHILE = """HloModule loop
cond {
  s = (s32[], f32[<=16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[<=16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[<=16,4] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  t = f32[<=16,4] tanh(x)
  h = f32[] constant(0.5)
  hb = f32[<=16,4] broadcast(h), dimensions={}
  y = f32[<=16,4] add(t, hb)
  ROOT r = (s32[], f32[<=16,4]) tuple(j, y)
}
ENTRY main {
  x = f32[<=16,4] parameter(0)
  z = s32[] constant(0)
  s = (s32[], f32[<=16,4]) tuple(z, x)
  w = (s32[], f32[<=16,4]) while(s), condition=cond, body=body
  ROOT out = f32[<=16,4] get-tuple-element(w), index=1
}
"""


def test_while_runs_its_body_plan_on_the_device():
    """The body's ops are generated kernels; only the predicate is read back per iteration."""
    from dynhlo import stats
    exe = dynhlo.compile(WHILE, **GPU)
    assert ("while" in [kind for _, kind in exe.program.plan.steps])
    assert exe.program.kernels  # the body's tanh + add (and the condition's compare)
    rng = np.random.default_rng(4)
    before = stats.snapshot().get("gpu_host_fallback", 0)
    for n in (0, 1, 16):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        want = x
        for _ in range(3):
            want = np.tanh(want) + np.float32(0.5)
        np.testing.assert_allclose(exe(x), want, rtol=1e-5, atol=1e-6)
    assert stats.snapshot().get("gpu_host_fallback", 0) == before
