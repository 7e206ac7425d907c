"""The graph path's fused attention (dynhlo/backends/gpu/graph/attention.py).

A q·kᵀ product, the softmax of its rows and the product by v become one launch of the
online softmax. These modules write attention in the forms JAX and XLA emit (the scale as a
divide, a multiply or absent; k and v stored either way round; queries and keys of
different dynamic lengths) and check, in Triton's interpreter here and on the GPU with
`pytest tests/backends/gpu/graph/test_attention.py` there, that the chain became one launch and that
its result is the CPU backend's at sizes 0, 1, across a key block and at the bound.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, torch  # noqa: F401  (skips without torch/triton)
from dynhlo.backends.gpu.graph import attention

D, DV, M, N = 16, 32, 40, 80   # N > one key block (64): the stream of keys is exercised
P = 24                         # columns of an output projection (not a power of two)

REGIONS = """
max_r {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

add_r {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
"""


def attention_text(scale="div", k_nd=True, v_nd=True, softmax_dim=1, scores_root=False,
                   project=None):
    """HLO of softmax(op(q kᵀ, c)) v as JAX lowers it (see the transformer's module).

    k_nd: k is a [n, d] parameter transposed (else kᵀ is the [d, n] parameter); v_nd: v is
    [n, dv] (else [dv, n], contracted on its dim 1). project: "kn" / "nk", the result is
    then `o · w + r` for w [DV, P] (or [P, DV], contracted on its dim 1) and r the row
    sums of q repeated P times: an output projection and a residual add, as a transformer
    block writes them."""
    k_param = f"f32[<=N,{D}]" if k_nd else f"f32[{D},<=N]"
    v_param = f"f32[<=N,{DV}]" if v_nd else f"f32[{DV},<=N]"
    lines = [f"  q = f32[<=M,{D}] parameter(0)", f"  k = {k_param} parameter(1)",
             f"  v = {v_param} parameter(2)"]
    if k_nd:
        lines.append(f"  kt = f32[{D},<=N]{{0,1}} transpose(k), dimensions={{1,0}}")
    kt = "kt" if k_nd else "k"
    lines.append(f"  s = f32[<=M,<=N] dot(q, {kt}), lhs_contracting_dims={{1}}, "
                 "rhs_contracting_dims={0}")
    if scale is None:
        t = "s"
    else:
        value, op = ("8", "divide") if scale == "div" else ("0.125", "multiply")
        lines += [f"  c = f32[] constant({value})",
                  "  cb = f32[<=M,<=N] broadcast(c), dimensions={}",
                  f"  t = f32[<=M,<=N] {op}(s, cb)"]
        t = "t"
    rows, other = ("M", "N") if softmax_dim == 1 else ("N", "M")
    keep = 0 if softmax_dim == 1 else 1
    lines += ["  ninf = f32[] constant(-inf)", "  zero = f32[] constant(0)",
              f"  mx = f32[<={rows}] reduce({t}, ninf), dimensions={{{softmax_dim}}}, "
              "to_apply=max_r",
              f"  mx1 = f32[<={rows},1] reshape(mx)",
              f"  mxb1 = f32[<={rows},1] broadcast(mx1), dimensions={{0,1}}",
              f"  mxr = f32[<={rows}] reshape(mxb1)",
              f"  mxb = f32[<=M,<=N] broadcast(mxr), dimensions={{{keep}}}",
              f"  d = f32[<=M,<=N] subtract({t}, mxb)",
              "  e = f32[<=M,<=N] exponential(d)",
              f"  sm = f32[<={rows}] reduce(e, zero), dimensions={{{softmax_dim}}}, "
              "to_apply=add_r",
              f"  smb = f32[<=M,<=N] broadcast(sm), dimensions={{{keep}}}",
              "  p = f32[<=M,<=N] divide(e, smb)"]
    contract = 0 if v_nd else 1
    lines.append(f"  o = f32[<=M,{DV}] dot(p, v), lhs_contracting_dims={{1}}, "
                 f"rhs_contracting_dims={{{contract}}}")
    if project:
        w = f"f32[{DV},{P}]" if project == "kn" else f"f32[{P},{DV}]"
        # the residual made after the product: the fused launch must wait for it
        lines += [f"  w = {w} parameter(3)",
                  f"  o2 = f32[<=M,{P}] dot(o, w), lhs_contracting_dims={{1}}, "
                  f"rhs_contracting_dims={{{0 if project == 'kn' else 1}}}",
                  "  qsum = f32[<=M] reduce(q, zero), dimensions={1}, to_apply=add_r",
                  f"  res = f32[<=M,{P}] broadcast(qsum), dimensions={{0}}",
                  f"  ROOT r = f32[<=M,{P}] add(o2, res)"]
    else:
        lines.append("  ROOT r = (f32[<=M,<=N], f32[<=M,32]) tuple(s, o)" if scores_root
                     else "  ROOT r = f32[<=M,32] copy(o)")
    body = "\n".join(lines).replace("<=M", f"<={M}").replace("<=N", f"<={N}")
    return f"HloModule attention\n{REGIONS}\nENTRY main {{\n{body}\n}}\n"


def args_at(m, n, k_nd=True, v_nd=True, seed=0):
    gen = np.random.default_rng(seed)
    q = gen.standard_normal((m, D), dtype=np.float32)
    k = gen.standard_normal((n, D) if k_nd else (D, n), dtype=np.float32)
    v = gen.standard_normal((n, DV) if v_nd else (DV, n), dtype=np.float32)
    return q, k, v


def attention_launches(exe) -> int:
    """Launches of attention.py's kernels (the only ones with a DV block)."""
    return sum("DV" in step.kernel.block for step in exe.program.graph.prog.steps)


SIZES = [(0, 0), (1, 1), (0, 5), (5, 0), (7, 33), (M, 64), (M, 65), (M, N)]


@pytest.mark.parametrize("target,launches", [(attention.TARGET_PROGRAMS, 2), (1, 1)])
@pytest.mark.parametrize("scale,k_nd,v_nd", [("div", True, True), ("mul", False, True),
                                             (None, True, False)])
def test_attention_is_one_kernel_with_the_cpu_backends_values(scale, k_nd, v_nd, target,
                                                               launches, monkeypatch):
    """At this bound the keys are split in two shares (a launch for the shares and one to
    combine them); with a target of one program per query block, one launch."""
    monkeypatch.setattr(attention, "TARGET_PROGRAMS", target)
    text = attention_text(scale, k_nd, v_nd)
    exe, cpu = dynhlo.compile(text, **GPU, graph=True), dynhlo.compile(text)
    assert exe.program.graph is not None, exe.program.graph_refusal
    assert attention_launches(exe) == launches
    for m, n in SIZES:
        args = args_at(m, n, k_nd, v_nd, seed=m * 100 + n)
        got, want = exe(*args), cpu(*args)
        assert got.shape == want.shape == (m, DV)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("target", [attention.TARGET_PROGRAMS, 1])
def test_long_query_axes_switch_kernels_at_long_rows(target, monkeypatch):
    """A bound past LONG_ROWS query rows plans two attention kernels (the long one in
    LONG_TILE's tiles and head chunks) and, with key shares, one combine: the sizes on both
    sides of LONG_ROWS, and LONG_ROWS itself, give the CPU's values."""
    monkeypatch.setattr(attention, "TARGET_PROGRAMS", target)
    monkeypatch.setattr(attention, "LONG_ROWS", 16)
    monkeypatch.setattr(attention, "LONG_TILE", (16, 32, 4, 16))
    text = attention_text("div", True, True).replace(f",{D}]", ",24]").replace(
        f"[{D},", "[24,")   # a head of 24, padded to 32: two chunks of 16
    exe, cpu = dynhlo.compile(text, **GPU, graph=True), dynhlo.compile(text)
    assert exe.program.graph is not None, exe.program.graph_refusal
    assert attention_launches(exe) == (3 if target > 1 else 2)
    tiles = [(s.kernel.block["BM"], s.kernel.block["BN"], s.kernel.num_warps)
             for s in exe.program.graph.prog.steps if "D" in s.kernel.block]
    assert tiles == [(attention.BLOCK_M, attention.BLOCK_N, attention.NUM_WARPS), (16, 32, 4)]
    for m, n in SIZES + [(16, 70), (17, 70)]:
        gen = np.random.default_rng(m * 100 + n)
        q, k, v = (gen.standard_normal(s, dtype=np.float32) for s in ((m, 24), (n, 24),
                                                                      (n, DV)))
        got, want = exe(q, k, v), cpu(q, k, v)
        assert got.shape == want.shape == (m, DV)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6, err_msg=f"{m}x{n}")


@pytest.mark.parametrize("k_nd", [True, False])
def test_scores_in_head_chunks_are_the_cpu_backends(k_nd, monkeypatch):
    """The q·kᵀ contraction in chunks (HEAD_CHUNK; D = 16 pads to 16: chunks of 16 are the
    whole head, so the head is widened here to 24, padded to 32, two chunks of 16)."""
    monkeypatch.setattr(attention, "HEAD_CHUNK", 16)
    text = attention_text("div", k_nd, True).replace(f",{D}]", ",24]").replace(
        f"[{D},", "[24,")
    exe, cpu = dynhlo.compile(text, **GPU, graph=True), dynhlo.compile(text)
    assert attention_launches(exe) >= 1
    assert any("tl.static_range(0, DP, 16)" in step.kernel.source
               for step in exe.program.graph.prog.steps)
    gen = np.random.default_rng(5)
    for m, n in [(0, 0), (1, 1), (7, 33), (M, N)]:
        q = gen.standard_normal((m, 24), dtype=np.float32)
        k = gen.standard_normal((n, 24) if k_nd else (24, n), dtype=np.float32)
        v = gen.standard_normal((n, DV), dtype=np.float32)
        np.testing.assert_allclose(exe(q, k, v), cpu(q, k, v), rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("target", [attention.TARGET_PROGRAMS, 1])
@pytest.mark.parametrize("project", ["kn", "nk"])
def test_output_projection_and_residual_after_the_attention(project, target, monkeypatch):
    """`o · w + r` after the attention, as a transformer block writes it: the product with
    the residual add as its epilogue reads the attention's result (a product fused into
    the attention's last launch measured ~100 us slower on the H200: not done)."""
    monkeypatch.setattr(attention, "TARGET_PROGRAMS", target)
    text = attention_text(project=project)
    exe, cpu = dynhlo.compile(text, **GPU, graph=True), dynhlo.compile(text)
    steps = exe.program.graph.prog.steps
    assert attention_launches(exe) == (2 if target > 1 else 1)
    assert len(steps) == attention_launches(exe) + 2   # the row sums; o · w + r
    gen = np.random.default_rng(3)
    w = gen.standard_normal((DV, P) if project == "kn" else (P, DV), dtype=np.float32)
    for m, n in SIZES:
        q, k, v = args_at(m, n, seed=m + n)
        got, want = exe(q, k, v, w), cpu(q, k, v, w)
        assert got.shape == want.shape == (m, P)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_large_scores_do_not_overflow():
    """The online maximum keeps exp() finite where a naive exp(s) overflows f32."""
    text = attention_text("mul")
    exe, cpu = dynhlo.compile(text, **GPU, graph=True), dynhlo.compile(text)
    q, k, v = args_at(M, N)
    q *= 60.0
    got, want = exe(q, k, v), cpu(q, k, v)
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("variant", [{"softmax_dim": 0}, {"scores_root": True}])
def test_other_forms_keep_three_launches(variant):
    """A softmax over the query axis is not attention; scores that are also a result must
    be stored. Both keep the three launches, with the right values."""
    text = attention_text(**variant)
    exe, cpu = dynhlo.compile(text, **GPU, graph=True), dynhlo.compile(text)
    assert exe.program.graph is not None, exe.program.graph_refusal
    assert attention_launches(exe) == 0
    args = args_at(7, 33)
    got, want = exe(*args), cpu(*args)
    for g, w in zip(got if isinstance(got, tuple) else [got],
                    want if isinstance(want, tuple) else [want], strict=True):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6)
