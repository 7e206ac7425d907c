"""Kernels of the graph path: sizes read from device memory, a fixed grid that strides.

A CUDA graph fixes every launch's arguments and grid when it is captured, so a kernel that
one graph runs at every size cannot take its sizes as scalar arguments nor its grid from
them. `strided(kernel)` rewrites a generated kernel (codegen.Kernel) so that it

- takes one pointer `sz` instead of its size arguments and loads `s0, s1, ...` from it
  (the executable writes the actual sizes there before each replay), and
- loops its program index over the blocks of the actual size (`for pid in range(
  program_id, nblocks, num_programs)`): a grid fixed at capture (at most the bound's
  blocks) does work proportional to the actual size, and programs past it exit at once.

Everything else of the kernel (masks, offsets from actual sizes) is unchanged, so its
results are the kernel's own. `matmul(...)` is the Triton matrix product of the graph path:
M, N and K read from `sz`, tiles strided the same way, f32 in IEEE arithmetic
(`input_precision="ieee"`) unless TF32 is allowed.

Both give a GraphKernel: source, name, constexprs (block) and warps, which is what
launch/launcher.py and the compile service (compile/cubins.py) take. Sources do not depend on names, constants'
spelling or where sizes live, so equal structure is equal text (one compile each).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADER = re.compile(r"^@triton\.jit\(do_not_specialize=\[[^\]]*\]\)$", re.M)
_DEF = re.compile(r"^def kernel\((?P<args>[^)]*)\):$", re.M)
_WORK = re.compile(r"^    (?:x|r) = pid \* (?P<block>BLOCK|BM) \+ .*$", re.M)
_MASK = re.compile(r"^    (?:xmask = x|rmask = r) < (?P<numel>.+)$", re.M)


@dataclass
class GraphKernel:
    """A kernel of the graph path (see module doc)."""

    name: str
    source: str
    block: dict = field(default_factory=dict)
    num_warps: int = 4
    nsizes: int = 0            # int32 values it reads from `sz`
    per_program: int = 1       # elements (or rows) one loop iteration covers
    maxnreg: int | None = None  # the generated kernel's register cap


class NotStrided(Exception):
    """The kernel text is not of the form `strided` rewrites (left to the plain path)."""


def strided(kernel) -> GraphKernel:
    """The graph-path form of a generated kernel (see module doc); NotStrided if its text
    is not the form codegen writes."""
    src = kernel.source
    nsizes = len(kernel.size_syms)
    sizes = [f"s{k}" for k in range(nsizes)]
    mdef, mask = _DEF.search(src), _MASK.search(src)
    if not _HEADER.search(src) or mdef is None or mask is None:
        raise NotStrided(f"kernel text not recognized:\n{src}")
    args = [a.strip() for a in mdef.group("args").split(",")]
    if args[len(args) - nsizes - len(kernel.block):len(args) - len(kernel.block)] != sizes:
        raise NotStrided("size arguments not where expected")
    args = [a for a in args if a not in sizes]
    args.insert(len(args) - len(kernel.block), "sz")
    head, body = src[:mdef.start()], src[mdef.end() + 1:]
    lines = body.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("    pid = "))
    wide = lines[start].endswith(".to(tl.int64)")
    block = "BLOCK" if kernel.kind == "elementwise" else "BM"
    out = [f"def kernel({', '.join(args)}):"]
    out += [f"    s{k} = tl.load(sz + {k})" for k in range(nsizes)]
    out += lines[:start]  # widening of the sizes to 64 bits, when the bound needs it
    out.append(f"    nblocks = tl.cdiv({mask.group('numel')}, {block})")
    # 64-bit offsets: the loop index is 64-bit from its start (Triton promotes the bounds
    # to one type; the interpreter's index is a Python int, which has no .to()).
    first = "tl.program_id(0).to(tl.int64)" if wide else "tl.program_id(0)"
    out.append(f"    for pid in range({first}, nblocks, tl.num_programs(0)):")
    out += ["    " + line if line else line for line in lines[start + 1:]]
    head = _HEADER.sub("@triton.jit", head)
    return GraphKernel("kernel", head + "\n".join(out) + "\n", dict(kernel.block),
                       kernel.num_warps, nsizes, kernel.grid_block, kernel.maxnreg)


_TL_TYPES = {"f32": "tl.float32", "f16": "tl.float16", "bf16": "tl.bfloat16"}
MATMUL_TYPES = frozenset(_TL_TYPES)


# 32x32 output tiles: f32 IEEE products run on the FMA units, where a 64x64 tile leaves
# too few programs for a 128-row product and too much serial work per program.
MATMUL_TILE = {"BM": 32, "BN": 32, "BK": 32}


@dataclass
class Epilogue:
    """An elementwise kernel computed on a product's tile before it is stored.

    `lines`: the kernel's body between its mask and its store, reading the product as
    `acc` and its other inputs as e0, e1, ...; `store`: its store line; `inputs`: how many
    e-inputs; `nsizes`: its size values, read from `sz[3:]`.
    """

    lines: list
    store: str
    inputs: int
    nsizes: int


_LOAD_FLAT = "tl.load({} + x, mask=xmask, other=0)"
_IN = re.compile(r"\bin(\d+)\b")


def epilogue(kernel, product_input: int) -> "Epilogue | None":
    """The epilogue form of an elementwise generated kernel whose input `product_input` is
    a product of its own shape, read at the flat index; None when it is not of that form
    (64-bit indexing, the product read elsewhere or twice, another kernel shape)."""
    src = kernel.source
    if kernel.kind != "elementwise" or ".to(tl.int64)" in src:
        return None
    mdef, mask = _DEF.search(src), _MASK.search(src)
    if mdef is None or mask is None:
        return None
    lines = src[mask.end() + 1:].rstrip("\n").splitlines()
    store = lines.pop()
    if not store.startswith("    tl.store(out + x, ") or any("tl.store" in x for x in lines):
        return None
    name = f"in{product_input}"
    load = _LOAD_FLAT.format(name)
    body = "\n".join(lines)
    if body.count(load) != 1 or len(re.findall(rf"\b{name}\b", body)) != 1:
        return None
    body = body.replace(load, "acc.to({OUT_TYPE})")
    renumber = {k: j for j, k in enumerate(
        k for k in range(len(kernel.group.inputs)) if k != product_input)}
    body = _IN.sub(lambda m: f"e{renumber[int(m.group(1))]}", body)
    return Epilogue(body.splitlines(), store, len(renumber), len(kernel.size_syms))


def matmul(element_type: str, a_km: bool, b_nk: bool, tf32: bool = False,
           epi: "Epilogue | None" = None) -> GraphKernel:
    """C[M,N] = A[M,K] @ B[K,N], all dense row-major at their actual sizes.

    `a_km`: A is stored as [K, M] (XLA lhs_contracting_dims={0}, or a transposed view);
    `b_nk`: B is stored as [N, K]. M, N, K are `sz[0:3]`. f16/bf16 accumulate in f32; f32
    multiplies in IEEE f32 unless `tf32` (XLA's DEFAULT precision may use TF32 on GPU).
    With `epi`, the elementwise kernel that reads the product is computed on each tile
    and stored instead (its inputs after `b`, its sizes at `sz[3:]`).
    """
    out_type = _TL_TYPES[element_type]
    precision = "tf32" if tf32 or element_type != "f32" else "ieee"
    a_off = "rk[None, :] * mm + rm[:, None]" if a_km else "rm[:, None] * kk + rk[None, :]"
    b_off = "rn[None, :] * kk + rk[:, None]" if b_nk else "rk[:, None] * nn + rn[None, :]"
    extra = [f"e{k}" for k in range(epi.inputs)] if epi else []
    sizes = [f"    s{k} = tl.load(sz + {3 + k})" for k in range(epi.nsizes)] if epi else []
    if epi:
        tail = ["        x = rm[:, None] * nn + rn[None, :]",
                "        xmask = (rm[:, None] < mm) & (rn[None, :] < nn)"]
        tail += ["    " + line.replace("{OUT_TYPE}", out_type) for line in epi.lines]
        tail.append("    " + epi.store)
    else:
        tail = [f"        tl.store(out + rm[:, None] * nn + rn[None, :], acc.to({out_type}),",
                "                 mask=(rm[:, None] < mm) & (rn[None, :] < nn))"]
    args = ", ".join(["a", "b"] + extra + ["out", "sz"])
    source = f"""import triton
import triton.language as tl
from dynhlo.backends.gpu.kernels import kmath as M


@triton.jit
def kernel({args}, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    mm = tl.load(sz + 0)
    nn = tl.load(sz + 1)
    kk = tl.load(sz + 2)
""" + "".join(line + "\n" for line in sizes) + f"""    tiles_n = tl.cdiv(nn, BN)
    tiles = tl.cdiv(mm, BM) * tiles_n
    for t in range(tl.program_id(0), tiles, tl.num_programs(0)):
        rm = (t // tiles_n) * BM + tl.arange(0, BM)
        rn = (t % tiles_n) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), tl.float32)
        for k0 in range(0, kk, BK):
            rk = k0 + tl.arange(0, BK)
            av = tl.load(a + {a_off}, mask=(rm[:, None] < mm) & (rk[None, :] < kk), other=0)
            bv = tl.load(b + {b_off}, mask=(rk[:, None] < kk) & (rn[None, :] < nn), other=0)
            acc = tl.dot(av, bv, acc, input_precision="{precision}")
""" + "\n".join(tail) + "\n"
    return GraphKernel("kernel", source, dict(MATMUL_TILE), 4, 3 + (epi.nsizes if epi else 0),
                       1)


_SIZE_SOURCE = """import triton
import triton.language as tl


@triton.jit
def kernel(out, sz):
    one = tl.arange(0, 1)
    tl.store(out + one, tl.load(sz + one))
"""


def size_value() -> GraphKernel:
    """out[] (s32) = the one size the step reads from `sz`: XLA's get-dimension-size, whose
    value the graph's size buffer already holds (the host writes it before each replay)."""
    return GraphKernel("kernel", _SIZE_SOURCE, {}, 1, 1, 1)
