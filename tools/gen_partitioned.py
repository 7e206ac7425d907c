"""Generate tests/data/partitioned/: modules partitioned by JAX over N host devices, with
JAX's inputs and outputs, for tests/runtime/test_distributed.py.

    XLA_FLAGS is set here: /work/venv/bin/python tools/gen_partitioned.py [--bench]

Each case NAME_nN_sS is `jax.jit(f, in_shardings, out_shardings).lower(...).compile()
.as_text()` (the per-device module XLA runs, with its collectives) at size S on N devices,
saved as NAME_nN_sS.hlo, plus NAME_nN_sS.npz with the full inputs (in0, in1, ...) and JAX's
full outputs (out0, ...). XLA does not print the ROOT's sharding in the compiled module, so
this script adds the output sharding there (`sharding=` on the ROOT), which is how dynhlo's
launcher assembles the pieces.

--bench writes bench/data/transformer_tp_nN.hlo (N = 1, 2, 4) instead: one tensor-parallel
transformer layer (1024 tokens, d_model 2048, 16 heads, MLP 8192) for
bench/distributed_scaling.py.
"""

from __future__ import annotations

import os
import re
import sys

N_MAX = 4
os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={N_MAX}"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

try:
    from jax import shard_map
except ImportError:  # older JAX
    from jax.experimental.shard_map import shard_map

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "partitioned")


def mlp_grad(w1, w2, x):
    """Data parallel: the gradient of a 2-layer MLP's loss, the batch split over devices."""
    def loss(w1, w2):
        return jnp.sum(jnp.tanh(x @ w1) @ w2 ** 2)
    return jax.grad(loss, argnums=(0, 1))(w1, w2)


def tp_matmul(x, w):
    """Tensor parallel: x split by columns, w by rows; the partial products all-reduced."""
    return jnp.tanh(x @ w)


def rs_ag(n):
    """A reduce-scatter / all-gather pair (and partition-id), written with shard_map."""
    def body(x, w):
        y = jax.lax.psum_scatter(x @ w, "x", scatter_dimension=0, tiled=True)
        y = jnp.tanh(y) + jax.lax.axis_index("x").astype(jnp.float32)
        return jax.lax.all_gather(y, "x", axis=0, tiled=True)
    return body


def a2a_permute(n):
    """all-to-all and collective-permute (a ring shift), written with shard_map."""
    def body(x):
        y = jax.lax.all_to_all(x, "x", 0, 0, tiled=True)
        perm = [(i, (i + 1) % n) for i in range(n)]
        return jax.lax.ppermute(y * 2.0, "x", perm) + jax.lax.pmax(x, "x")
    return body


def transformer_layer(heads):
    """One pre-norm transformer layer, Megatron-style tensor parallel: q/k/v and the first
    MLP matrix split by columns (heads), the output projections by rows; two all-reduces."""
    def rms(x, g):
        return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g

    def layer(x, g1, wq, wk, wv, wo, g2, w1, w2):
        t, d = x.shape
        h = rms(x, g1)
        q, k, v = ((h @ w).reshape(t, heads, d // heads) for w in (wq, wk, wv))
        s = jnp.einsum("thd,shd->hts", q, k) / np.sqrt(d // heads).astype(np.float32)
        a = jnp.einsum("hts,shd->thd", jax.nn.softmax(s, axis=-1), v).reshape(t, d)
        x = x + a @ wo
        return x + jax.nn.gelu(rms(x, g2) @ w1) @ w2
    return layer


def save_transformer(n, tokens, d, heads, ffn, out_dir):
    """bench/data/transformer_tp_nN.hlo: the layer on N devices (shapes only, no data)."""
    mesh = Mesh(np.array(jax.devices()[:n]), ("x",))
    named = lambda spec: NamedSharding(mesh, spec)  # noqa: E731
    col, row, rep = P(None, "x"), P("x", None), P()
    specs = (rep, rep, col, col, col, row, rep, col, row)
    shapes = [(tokens, d), (d,), (d, d), (d, d), (d, d), (d, d), (d,), (d, ffn), (ffn, d)]
    args = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
    jitted = jax.jit(transformer_layer(heads), in_shardings=tuple(named(s) for s in specs),
                     out_shardings=named(rep))
    text = _with_root_sharding(jitted.lower(*args).compile().as_text(), "{replicated}")
    path = os.path.join(out_dir, f"transformer_tp_n{n}.hlo")
    with open(path, "w") as f:
        f.write(text)
    print(path, text.count("all-reduce("), "all-reduces")


def save(name, fn, in_specs, out_specs, inputs, mesh):
    named = lambda spec: NamedSharding(mesh, spec)  # noqa: E731
    outs = out_specs if isinstance(out_specs, tuple) else (out_specs,)
    jitted = jax.jit(fn, in_shardings=tuple(named(s) for s in in_specs),
                     out_shardings=tuple(named(s) for s in outs) if isinstance(
                         out_specs, tuple) else named(out_specs))
    compiled = jitted.lower(*inputs).compile()
    expected = jitted(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    text = compiled.as_text()
    shardings = [str(named(s)._to_xla_hlo_sharding(np.ndim(e)))
                 for s, e in zip(outs, expected, strict=True)]
    root = shardings[0] if not isinstance(out_specs, tuple) else \
        "{" + ", ".join(shardings) + "}"
    text = _with_root_sharding(text, root)
    with open(os.path.join(OUT, f"{name}.hlo"), "w") as f:
        f.write(text)
    np.savez(os.path.join(OUT, f"{name}.npz"),
             **{f"in{i}": np.asarray(a) for i, a in enumerate(inputs)},
             **{f"out{i}": np.asarray(e) for i, e in enumerate(expected)})
    print(name, [np.shape(e) for e in expected])


def _with_root_sharding(text: str, sharding: str) -> str:
    """The ENTRY's ROOT line with `, sharding=...` after its operands (before metadata)."""
    entry = text.index("\nENTRY ")
    head, body = text[:entry], text[entry:]
    match = re.search(r"\n(\s*ROOT [^\n]*)", body)
    line = match.group(1)
    if "sharding=" not in line:
        cut = line.find(", metadata=")
        new = (line[:cut] + f", sharding={sharding}" + line[cut:]) if cut >= 0 else \
            line + f", sharding={sharding}"
        body = body.replace(line, new, 1)
    return head + body


def main():
    if "--bench" in sys.argv:  # the layer bench/distributed_scaling.py times
        out_dir = os.path.join(os.path.dirname(__file__), "..", "bench", "data")
        os.makedirs(out_dir, exist_ok=True)
        for n in (1, 2, 4):
            save_transformer(n, tokens=1024, d=2048, heads=16, ffn=8192, out_dir=out_dir)
        return
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    for n in (2, 4):
        mesh = Mesh(np.array(jax.devices()[:n]), ("x",))
        for s in (1, 3):
            save(f"mlp_n{n}_s{s}", mlp_grad, (P(), P(), P("x")), (P(), P()),
                 (f32(8, 16), f32(16, 4), f32(n * s, 8)), mesh)
            save(f"tp_n{n}_s{s}", tp_matmul, (P(None, "x"), P("x", None)), P(),
                 (f32(s + 2, 4 * n), f32(4 * n, 6)), mesh)
            body = shard_map(rs_ag(n), mesh=mesh, in_specs=(P(None, "x"), P("x", None)),
                             out_specs=P(), check_vma=False)
            save(f"rsag_n{n}_s{s}", body, (P(None, "x"), P("x", None)), P(),
                 (f32(n * s, 2 * n), f32(2 * n, 5)), mesh)
            body = shard_map(a2a_permute(n), mesh=mesh, in_specs=(P("x"),), out_specs=P("x"))
            save(f"a2a_n{n}_s{s}", body, (P("x"),), P("x"), (f32(n * n * s, 3),), mesh)
    mesh = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("dp", "tp"))
    for s in (1, 2):  # 2-d mesh: data parallel x tensor parallel, groups along each axis
        save(f"dptp_n4_s{s}", tp_matmul, (P("dp", "tp"), P("tp", None)), P("dp", None),
             (f32(2 * s, 8), f32(8, 3)), mesh)


if __name__ == "__main__":
    sys.exit(main())
