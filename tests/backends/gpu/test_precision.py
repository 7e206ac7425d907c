"""The `precision` compile option (dynhlo/backends/gpu/precision.py): TF32 only where XLA allows.

"highest" (the default) keeps every f32 product in IEEE f32; "default" follows XLA's GPU
rule per dot: TF32 where its operand_precision is DEFAULT or HIGH (or absent) or its
algorithm= is dot_tf32_tf32_f32. Checked on the kernel text (graph path: Triton matmuls and
the fused attention), on torch's fp32 precision seen by each cuBLAS call (plain path), on
results against the CPU backend within a tolerance a real TF32 product meets (Triton's
interpreter computes exactly; the tolerance is checked against TF32 emulated in NumPy), and
through an artifact's save and load.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, INTERPRET, gpu, torch  # noqa: F401
from dynhlo import compiler
from dynhlo.options import check_precision
from dynhlo.backends.gpu import aot, precision
from dynhlo.backends.gpu.compile import cubins
from dynhlo.backends.gpu.graph import plan
from dynhlo.backends.gpu.library import reduce as library_dot
from tests.runtime.test_artifact import resection
from tests.backends.gpu.graph.test_attention import DV, M, N, P, args_at, attention_text

K = 64   # contraction length of the tolerance check (brief: rel ~1e-2 for K = 64)
HIGHEST = ", operand_precision={highest,highest}"


def mlp_text(first: str = "", second: str = "") -> str:
    """relu(x @ w1) @ w2: two f32 products, `first`/`second` appended to each dot."""
    return f"""HloModule mlp
ENTRY main {{
  x = f32[<=48,{K}] parameter(0)
  w1 = f32[{K},{K}] parameter(1)
  w2 = f32[{K},16] parameter(2)
  h = f32[<=48,{K}] dot(x, w1), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}{first}
  z = f32[] constant(0)
  zb = f32[<=48,{K}] broadcast(z), dimensions={{}}
  r = f32[<=48,{K}] maximum(h, zb)
  ROOT y = f32[<=48,16] dot(r, w2), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}{second}
}}
"""


def mlp_args(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s, dtype=np.float32) for s in ((n, K), (K, K), (K, 16))]


def graph_sources(exe) -> list[str]:
    assert exe.program.graph is not None, exe.program.graph_refusal
    return [step.kernel.source for step in exe.program.graph.prog.steps]


def dot_precisions(source: str) -> list[str]:
    """The input_precision of each tl.dot in a kernel's text, in order."""
    import re
    return re.findall(r'tl\.dot\([^\n]*input_precision="(\w+)"', source)


# -- the option's values -----------------------------------------------------------------


@pytest.mark.parametrize("bad", ["fast", "high", "tf32", "bfloat16", "", 1, True])
@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_an_unknown_precision_is_an_error_naming_the_option_and_its_values(bad, backend):
    options = GPU if backend == "gpu" else {}
    with pytest.raises(dynhlo.UnsupportedError) as err:
        dynhlo.compile(mlp_text(), **options, precision=bad)
    assert "precision=" in str(err.value) and "'highest'" in str(err.value) \
        and "'default'" in str(err.value)
    with pytest.raises(dynhlo.UnsupportedError, match="precision="):
        dynhlo.jit(mlp_text(), **options, precision=bad)   # at once, not on the first call


@pytest.mark.parametrize("given,canonical", [
    ("HIGHEST", "highest"), ("Default", "default"), ("float32", "highest"),
    ("tensorfloat32", "default"), ("jax:HIGHEST", "highest"), ("jax:DEFAULT", "default")])
def test_a_jax_users_spelling_of_the_precision_is_taken(given, canonical):
    """Any case, jax.lax.Precision's members and JAX's matmul precision names: the program,
    the options an artifact stores and a JIT's cache key see the canonical name; HIGH (three
    bf16 products on XLA's GPU) stays an error (above)."""
    if given.startswith("jax:"):
        lax = pytest.importorskip("jax.lax")
        given = getattr(lax.Precision, given[4:])
        with pytest.raises(dynhlo.UnsupportedError, match="precision="):
            dynhlo.compile(mlp_text(), **GPU, precision=lax.Precision.HIGH)
    exe = dynhlo.compile(mlp_text(), **GPU, precision=given)
    assert exe.program.precision == canonical and exe.options["precision"] == canonical
    assert dynhlo.jit(mlp_text(), **GPU, precision=given).options["precision"] == canonical


def test_the_cli_refuses_an_unknown_precision(capsys):
    from dynhlo.cli import main
    with pytest.raises(SystemExit) as code:
        main(["run", "-", "--precision", "fast"])
    assert code.value.code == 2
    assert "--precision: invalid choice: 'fast'" in capsys.readouterr().err


def test_the_cli_compiles_with_a_precision_and_an_artifact_keeps_it(tmp_path, capsys):
    from dynhlo.cli import main
    module, out = tmp_path / "mlp.hlo", tmp_path / "mlp.dynhlo"
    module.write_text(mlp_text())
    assert main(["compile", str(module), "-o", str(out), "--precision", "default"]) == 0
    assert dynhlo.load(out).options["precision"] == "default"
    assert main(["inspect", str(out)]) == 0
    assert '"precision": "default"' in capsys.readouterr().out
    args = [f"f32[1,{K}] {{{{{', '.join(['1'] * K)}}}}}"]
    assert main(["run", str(out), *args, "--precision", "highest"]) == 1
    assert "compiled with --precision default" in capsys.readouterr().err


def test_the_cpu_backend_takes_the_option_and_computes_as_before():
    args = mlp_args(7)
    plain = dynhlo.compile(mlp_text())(*args)
    for value in ("highest", "default"):
        np.testing.assert_array_equal(dynhlo.compile(mlp_text(), precision=value)(*args), plain)
    assert check_precision(None) == "highest"


# -- XLA's rule, per instruction ---------------------------------------------------------


@pytest.mark.parametrize("attrs,tf32", [
    ("", True),                                                   # absent: DEFAULT
    (", operand_precision={default,default}", True),
    (", operand_precision={high,default}", True),                 # HIGH: cuBLAS TF32
    (", operand_precision={highest,default}", False),
    (HIGHEST, False),
    (", algorithm=dot_tf32_tf32_f32", True),
    (", operand_precision={highest,highest}, algorithm=dot_tf32_tf32_f32", True),
    (", algorithm=dot_f32_f32_f32", False),
    (", algorithm=dot_tf32_tf32_f32_x3", False),                  # ~f32 accuracy: IEEE
    (", algorithm=dot_bf16_bf16_f32", False),
])
def test_xla_gpu_rule_for_a_dot(attrs, tf32):
    root = dynhlo.parse_hlo(mlp_text(second=attrs)).entry.root
    assert precision.module_allows_tf32(root) is tf32
    assert precision.allows_tf32(root, "default") is tf32
    assert precision.allows_tf32(root, "highest") is False


def test_only_f32_products_and_convolutions_may_use_tf32():
    f16 = dynhlo.parse_hlo("""HloModule h
ENTRY e {
  a = f16[4,4] parameter(0)
  ROOT d = f16[4,4] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
""").entry.root
    conv = dynhlo.parse_hlo("""HloModule c
ENTRY e {
  x = f32[1,8,2] parameter(0)
  w = f32[3,2,4] parameter(1)
  ROOT y = f32[1,6,4] convolution(x, w), window={size=3}, dim_labels=b0f_0io->b0f, operand_precision={high,high}
}
""").entry.root
    assert not precision.module_allows_tf32(f16)
    assert precision.module_allows_tf32(conv)
    assert not precision.module_allows_tf32(conv.operands[0])


# -- kernel text (graph path) ------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"precision": "highest"}])
def test_highest_keeps_every_product_ieee(options):
    for text in (mlp_text(), attention_text(project="kn")):
        exe = dynhlo.compile(text, **GPU, graph=True, **options)
        sources = graph_sources(exe) + [k.source for k in exe.program.kernels]
        assert all("tf32" not in s for s in sources)
        assert sum(len(dot_precisions(s)) for s in sources) >= 2
        assert all(p == "ieee" for s in sources for p in dot_precisions(s))


def test_default_uses_tf32_only_for_dots_that_allow_it():
    allowed = dynhlo.compile(mlp_text(), **GPU, graph=True, precision="default")
    mixed = dynhlo.compile(mlp_text(second=HIGHEST), **GPU, graph=True, precision="default")
    assert [dot_precisions(s) for s in graph_sources(allowed)] == [["tf32"], ["tf32"]]
    assert [dot_precisions(s) for s in graph_sources(mixed)] == [["tf32"], ["ieee"]]
    # The plain path's generated kernels hold no product (its dots are cuBLAS calls).
    assert all("tl.dot" not in k.source for k in mixed.program.kernels)


def test_each_attention_product_follows_its_own_dot():
    """The fused attention's q·kᵀ and p·v: TF32 each only where its own dot allows it;
    the output projection after it (with its residual epilogue) by its own rule too."""
    text = attention_text(project="kn")
    scores = "rhs_contracting_dims={0}\n  c = f32[] constant(8)"
    assert scores in text
    strict_scores = text.replace(scores, scores.replace("={0}\n", "={0}" + HIGHEST + "\n"))
    cases = [(text, "default", ["tf32", "tf32"]), (strict_scores, "default", ["ieee", "tf32"]),
             (text, "highest", ["ieee", "ieee"])]
    for module, value, want in cases:
        exe = dynhlo.compile(module, **GPU, graph=True, precision=value)
        sources = graph_sources(exe)
        (attn,) = [s for s in sources if "tl.dot(p, vt" in s]
        assert dot_precisions(attn) == want
        (proj,) = [s for s in sources if "tl.dot(av, bv" in s]
        assert dot_precisions(proj) == ["tf32" if value == "default" else "ieee"]


@pytest.mark.parametrize("chunk", [None, 16])
def test_the_attention_kernel_writes_each_flag_into_its_own_product(chunk):
    """Both forms of q·kᵀ (whole head, or its contraction in chunks) take tf32_qk."""
    from dynhlo.backends.gpu.graph.attention import attention_kernel
    for qk, pv in ((False, False), (True, False), (False, True), (True, True)):
        source = attention_kernel(64, 64, True, False, 0.18, chunk=chunk, tf32_qk=qk,
                                  tf32_pv=pv).source
        want = ["tf32" if qk else "ieee", "tf32" if pv else "ieee"]
        assert dot_precisions(source) == want


def test_kernels_of_another_precision_are_cached_apart():
    """Different text, so different cubin keys: a cache or artifact never mixes them."""
    exe = dynhlo.compile(mlp_text(), **GPU, graph=True)
    keys = {}
    for value in ("highest", "default"):
        prog = plan.build(exe.program.plan, exe.program.info, value)
        keys[value] = [cubins.spec_key(s, 90) for s in cubins.step_specs(prog)]
    assert not set(keys["highest"]) & set(keys["default"])


# -- results -----------------------------------------------------------------------------


def rounded(x: np.ndarray, bits: int = 10) -> np.ndarray:
    """f32 values rounded to `bits` mantissa bits, to nearest (ties away from zero, as the
    tensor cores' cvt.rna.tf32.f32): 10 is what a TF32 product multiplies, 7 bf16."""
    drop = 23 - bits
    raw = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    mask = np.uint32((0xFFFFFFFF << drop) & 0xFFFFFFFF)
    return ((raw + np.uint32(1 << (drop - 1))) & mask).view(np.float32)


def assert_tf32_close(got, want):
    """Within what a TF32 product of K = 64 random normal terms meets: rel 1e-2, and an
    absolute 2e-3 of the largest output for outputs near zero (a TF32 product's error is
    ~1e-3 of its terms' scale; measured below on emulated TF32)."""
    want = np.asarray(want)
    scale = float(np.abs(want).max()) if want.size else 0.0
    np.testing.assert_allclose(got, want, rtol=1e-2, atol=2e-3 * scale)


def _mlp_rounded(x, w1, w2, bits: int):
    """The MLP with each product's operands rounded to `bits` mantissa bits, summed in f64."""
    h = np.maximum(rounded(x, bits).astype(np.float64) @ rounded(w1, bits), 0)
    return rounded(h.astype(np.float32), bits).astype(np.float64) @ rounded(w2, bits)


def test_tf32_tolerance_is_one_a_tf32_product_meets():
    """The check above passes the MLP computed from TF32-rounded operands (NumPy), and fails
    it from bf16-rounded ones (3 mantissa bits fewer): it tells TF32 from worse."""
    x, w1, w2 = mlp_args(48, seed=5)
    exact = np.maximum(x.astype(np.float64) @ w1, 0) @ w2
    emulated = _mlp_rounded(x, w1, w2, 10)
    assert np.abs(emulated - exact).max() > 1e-3   # TF32 is not f32 here
    assert_tf32_close(emulated, exact)
    with pytest.raises(AssertionError):
        assert_tf32_close(_mlp_rounded(x, w1, w2, 7), exact)


@pytest.mark.parametrize("graph", [True, False])
def test_default_results_are_within_tf32_tolerance_of_the_cpu(graph):
    exe = dynhlo.compile(mlp_text(), **GPU, graph=graph, precision="default")
    cpu = dynhlo.compile(mlp_text())
    for n in (0, 1, 33, 48):
        args = mlp_args(n, seed=n)
        got, want = exe(*args), cpu(*args)
        assert got.shape == want.shape == (n, 16)
        assert_tf32_close(got, want)


def test_default_attention_is_within_tf32_tolerance_of_the_cpu():
    text = attention_text(project="kn")
    exe = dynhlo.compile(text, **GPU, graph=True, precision="default")
    cpu = dynhlo.compile(text)
    rng = np.random.default_rng(2)
    w = rng.standard_normal((DV, P), dtype=np.float32)
    for m, n in ((1, 1), (7, 33), (M, N)):
        args = [*args_at(m, n, seed=m + n), w]
        got, want = exe(*args), cpu(*args)
        assert got.shape == want.shape == (m, P)
        assert_tf32_close(got, want)


# -- cuBLAS calls of the plain path: the setting each call sees, and the caller's kept ----


@pytest.fixture
def caller_matmul():
    """Sets torch's cuBLAS fp32 precision as a caller would; the test's own is put back
    after (monkeypatch cannot: the attribute lives in torch's __getattr__)."""
    flags = torch.backends.cuda.matmul
    before = flags.fp32_precision

    def set_to(value: str) -> None:
        flags.fp32_precision = value
    yield set_to
    flags.fp32_precision = before


def _record_matmul_precision(monkeypatch) -> list:
    seen = []
    matmul = torch.matmul

    def spy(*args, **kwargs):
        seen.append(torch.backends.cuda.matmul.fp32_precision)
        return matmul(*args, **kwargs)
    monkeypatch.setattr(library_dot.torch, "matmul", spy)
    return seen


@pytest.mark.parametrize("caller", ["none", "tf32", "ieee"])
def test_each_cublas_dot_sees_its_own_precision_and_the_callers_is_restored(
        caller, caller_matmul, monkeypatch):
    caller_matmul(caller)
    seen = _record_matmul_precision(monkeypatch)
    args = mlp_args(5)
    cases = [("default", mlp_text(second=HIGHEST), ["tf32", "ieee"]),
             ("highest", mlp_text(), ["ieee", "ieee"])]
    for value, text, want in cases:
        exe = dynhlo.compile(text, **GPU, graph=False, precision=value)
        for arrays in (args, [torch.from_numpy(a) for a in args]):  # host and device arrays
            seen.clear()
            exe(*arrays)
            assert seen == want
            assert torch.backends.cuda.matmul.fp32_precision == caller


def test_a_failing_call_restores_the_callers_precision(caller_matmul, monkeypatch):
    caller_matmul("none")

    def boom(*args, **kwargs):
        raise RuntimeError("cuBLAS failed")
    monkeypatch.setattr(library_dot.torch, "matmul", boom)
    exe = dynhlo.compile(mlp_text(), **GPU, graph=False, precision="default")
    with pytest.raises(RuntimeError, match="cuBLAS failed"):
        exe(*mlp_args(3))
    assert torch.backends.cuda.matmul.fp32_precision == "none"


def test_calls_on_two_threads_each_see_their_own_precision(caller_matmul, monkeypatch):
    """torch's setting is per process: concurrent calls of programs of the two precisions
    must not run a product under the other's setting nor leave it behind."""
    import threading
    caller_matmul("none")
    seen = _record_matmul_precision(monkeypatch)
    exes = {value: dynhlo.compile(mlp_text(), **GPU, graph=False, precision=value)
            for value in ("highest", "default")}
    args = [torch.from_numpy(a) for a in mlp_args(2)]

    errors = []

    def serve(value):
        try:
            for _ in range(40):
                exes[value](*args)
        except Exception as exc:  # noqa: BLE001  (reported below, not lost in the thread)
            errors.append(exc)
    threads = [threading.Thread(target=serve, args=(v,)) for v in exes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    # 80 products each; a product run under the other thread's setting shifts the counts
    assert (seen.count("tf32"), seen.count("ieee")) == (80, 80)
    assert torch.backends.cuda.matmul.fp32_precision == "none"


def test_a_convolution_runs_in_the_scope_of_its_own_rule(monkeypatch):
    from dynhlo.backends.gpu.library import linalg
    seen = []
    conv = linalg._CONV[1]

    def spy(*args, **kwargs):
        seen.append((torch.backends.cuda.matmul.fp32_precision,
                     torch.backends.cudnn.conv.fp32_precision))
        return conv(*args, **kwargs)
    monkeypatch.setitem(linalg._CONV, 1, spy)
    before = torch.backends.cudnn.conv.fp32_precision
    text = """HloModule c
ENTRY e {
  x = f32[1,8,2] parameter(0)
  w = f32[3,2,4] parameter(1)
  ROOT y = f32[1,6,4] convolution(x, w), window={size=3}, dim_labels=b0f_0io->b0f%s
}
"""
    rng = np.random.default_rng(1)
    args = [rng.standard_normal((1, 8, 2), dtype=np.float32),
            rng.standard_normal((3, 2, 4), dtype=np.float32)]
    want = dynhlo.compile(text % "")(*args)
    for attrs, value, mode in (("", "default", "tf32"), (HIGHEST, "default", "ieee"),
                               ("", "highest", "ieee")):
        seen.clear()
        got = dynhlo.compile(text % attrs, **GPU, precision=value)(*args)
        assert seen == [(mode, mode)]
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        assert torch.backends.cudnn.conv.fp32_precision == before


def test_from_jax_keeps_each_dots_precision(monkeypatch):
    """jnp.dot(..., precision="highest") stays IEEE under precision="default" (JAX's
    precision_config reaches the HLO as operand_precision; the StableHLO import dropped it,
    so a HIGHEST product ran in TF32), while the default-precision dot may use TF32."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def fn(x, w):
        return jnp.dot(jnp.dot(x, w, precision="highest"), w)

    exe = dynhlo.from_jax(fn, "f32[n,8]", "f32[8,8]", bounds={"n": 16}, **GPU, graph=False,
                          precision="default")
    seen = _record_matmul_precision(monkeypatch)
    gen = np.random.default_rng(2)
    x, w = (gen.standard_normal(s, dtype=np.float32) for s in ((5, 8), (8, 8)))
    want = np.asarray(jax.jit(fn)(x, w))   # on JAX's CPU: both products in f32
    # the second product in TF32 on a device (10 mantissa bits: about 1e-3 of the scale)
    tol = 1e-5 if INTERPRET else 4e-3 * np.abs(want).max()
    np.testing.assert_allclose(exe(x, w), want, rtol=0, atol=tol)
    assert seen == ["ieee", "tf32"]


# -- artifacts ---------------------------------------------------------------------------

# Two dots (the second with `%s` appended): a module of cuBLAS steps only, whose artifact
# loads here with the CPU standing in for the device.
DOTS_ONLY = """HloModule two
ENTRY main {
  x = f32[<=8,4] parameter(0)
  w = f32[4,4] parameter(1)
  a = f32[<=8,4] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT b = f32[<=8,4] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}%s
}
"""


@pytest.mark.skipif(not INTERPRET, reason="stands the compiled program's launchers in for "
                    "the cubins; on a device, bench/device_checks.py graph loads real artifacts")
def test_the_option_survives_save_and_load(monkeypatch, tmp_path):
    """A dots-only module (cuBLAS steps, no kernel to cross-compile): the header keeps the
    option, the payload too, and the loaded program's cuBLAS calls follow it."""
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    text = DOTS_ONLY % HIGHEST
    exe = dynhlo.compile(text, backend="gpu", target="sm_90", precision="default")
    path = tmp_path / "two.dynhlo"
    exe.save(path)
    assert json.loads(exe.program.to_payload()["gpu_program.json"])["precision"] == "default"
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    loaded = dynhlo.load(path)
    assert loaded.options["precision"] == "default"
    assert loaded.program.precision == "default"
    seen = _record_matmul_precision(monkeypatch)
    args = [np.ones((3, 4), np.float32), np.eye(4, dtype=np.float32)]
    np.testing.assert_array_equal(loaded(*args), np.ones((3, 4), np.float32))
    assert seen == ["tf32", "ieee"]


def _edited(blob: bytes, header=None, meta=None) -> bytes:
    """The artifact with its header options and/or its gpu_program.json edited by `header`
    / `meta` (callables on the decoded JSON), every checksum made again: a hand-made file."""
    def edit(head, sections):
        if meta is not None:
            name = head["buckets"][0]["program"]["gpu_program.json"]
            data = json.loads(sections[name])
            meta(data)
            sections[name] = json.dumps(data).encode()
        if header is not None:
            header(head["options"])
    return resection(blob, edit)


@pytest.mark.skipif(not INTERPRET, reason="stands the CPU in for the device (as above)")
@pytest.mark.parametrize("header, meta, message", [
    (None, lambda m: m.update(precision="highest"), "built with precision 'highest', the "
     "header says 'default'"),
    (None, lambda m: m.pop("precision"), "built with precision 'highest', the header says "
     "'default'"),
    (None, lambda m: m.update(precision="HIGHEST"), "payload precision 'HIGHEST' is not one"),
    (lambda o: o.update(precision="highest"), None, "built with precision 'default', the "
     "header says 'highest'"),
    (lambda o: o.pop("precision"), None, "built with precision 'default', the header says "
     "'highest'"),
    (lambda o: o.update(precision=1), None, "option precision 1 is not one of"),
])
def test_a_hand_edited_precision_is_an_artifact_error(header, meta, message, monkeypatch,
                                                      tmp_path):
    """The header's precision (what `run --precision` checks and `inspect` shows) and the
    payload's (what the loaded program runs) must agree: an edited one is refused, never
    run under a precision the header does not say."""
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    text = DOTS_ONLY % ""   # cuBLAS steps only: no kernel's cubin to launch here
    blob = dynhlo.compile(text, backend="gpu", target="sm_90",
                          precision="default").serialize()
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    loaded = dynhlo.deserialize(_edited(blob))   # the re-signing alone changes nothing
    assert loaded.options["precision"] == loaded.program.precision == "default"
    gen = np.random.default_rng(3)
    args = [gen.standard_normal(s, dtype=np.float32) for s in ((5, 4), (4, 4))]
    np.testing.assert_allclose(loaded(*args), args[0] @ args[1] @ args[1], rtol=1e-5,
                               atol=1e-5)
    with pytest.raises(dynhlo.ArtifactError, match=message):
        dynhlo.deserialize(_edited(blob, header, meta))


@pytest.mark.skipif(not INTERPRET, reason="stands interpreter launchers in for the cubins")
def test_an_artifacts_graph_launches_the_tf32_cubin_only_for_allowed_dots(monkeypatch,
                                                                          tmp_path):
    """The graph program built on load gives each launch the cubin of its own precision."""
    from tests.backends.gpu.graph.test_graph import _chain
    from dynhlo.backends.gpu.graph import MIN_LAUNCHES
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    lines = _chain(MIN_LAUNCHES).splitlines()
    strict = [k for k, line in enumerate(lines) if " dot(" in line][::2]
    for k in strict:
        lines[k] += HIGHEST
    text = "\n".join(lines) + "\n"
    compiled = dynhlo.compile(text, backend="gpu", target="sm_90", precision="default").program
    meta = json.loads(compiled.to_payload()["gpu_program.json"])
    prog = plan.build(compiled.plan, compiled.info, "default")
    keys = [cubins.spec_key(s, 90) for s in cubins.step_specs(prog)]
    assert {f["cubin"] for f in meta["graph_forms"]} == set(keys)
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, info: object())
    monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    loaded = compiler.load_program(compiler.checked(text), "gpu", compiled.to_payload(),
                                   "sm_90")
    assert [s.key for s in loaded.graph.prog.steps] == keys
    assert len(set(keys)) == 2
    assert [dot_precisions(s.kernel.source) for s in prog.steps] == \
        [["ieee"] if k % 2 == 0 else ["tf32"] for k in range(MIN_LAUNCHES)]


@pytest.mark.skipif(INTERPRET, reason="Triton's interpreter and CPU torch compute f32 "
                    "products exactly: TF32 exists only on the device")
@pytest.mark.parametrize("graph", [True, False])
def test_on_the_device_default_really_runs_tf32_and_highest_does_not(graph):
    """On an Ampere-or-later GPU: "highest" stays within f32 rounding of the CPU, "default"
    differs from it by TF32's rounding (so the tensor cores were asked for TF32), the dot
    marked HIGHEST excepted."""
    cpu = dynhlo.compile(mlp_text())
    args = mlp_args(48, seed=11)
    want = cpu(*args)
    scale = np.abs(want).max()
    highest = dynhlo.compile(mlp_text(), **GPU, graph=graph)(*args)
    np.testing.assert_allclose(highest, want, rtol=1e-4, atol=1e-5 * scale)
    default = dynhlo.compile(mlp_text(), **GPU, graph=graph, precision="default")(*args)
    assert_tf32_close(default, want)
    assert np.abs(default - want).max() > 1e-4 * scale   # TF32's rounding shows
    strict = dynhlo.compile(mlp_text(HIGHEST, HIGHEST), **GPU, graph=graph,
                            precision="default")(*args)
    np.testing.assert_allclose(strict, want, rtol=1e-4, atol=1e-5 * scale)
