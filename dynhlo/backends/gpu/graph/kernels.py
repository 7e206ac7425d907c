"""Kernels of the graph path: sizes read from device memory, a fixed grid that strides.

A CUDA graph fixes every launch's arguments and grid when it is captured, so a kernel that
one graph runs at every size cannot take its sizes as scalar arguments nor its grid from
them. `strided(kernel)` is a generated kernel (codegen.Kernel) in codegen's BUFFER launch
form: it takes one pointer `sz` instead of its size arguments and loads `s0, s1, ...` from
it (the executable writes the actual sizes there before each replay), and loops its
program index over the blocks of the actual size, so a grid fixed at capture (at most the
bound's blocks) does work proportional to the actual size and programs past it exit at once.
`matmul(...)` is the Triton matrix product of the graph path: M, N and K read from `sz`,
tiles strided the same way, f32 in IEEE arithmetic (`input_precision="ieee"`) unless TF32
is allowed; with an epilogue (codegen.epilogue: an elementwise group written on the
product's tile) it stores that group's result instead of the product.

Each gives a GraphKernel: source, name, pointer arguments, constexprs (block) and warps,
which is what launch/launcher.py and the compile service (compile/cubins.py) take. Sources
do not depend on names, constants' spelling or where sizes live, so equal structure is equal
text (one compile each).

A launch's `form` names its kernel in an artifact (`form_of`): a generated kernel's BUFFER
form by its plan kernel's root instruction, an epilogue by that root and the product, and a
kernel written from a fixed template (products, attention, size values) by its source's
hash. An artifact stores one cubin per form used; loading rebuilds the graph program from
the stored plan with `StoredForms`, which gives the launch facts of the generated forms from
the plan's kernels (no source is generated) and fuses an epilogue where the artifact has its
form, as the compile did.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from ..kernels import codegen
from ..kernels.group import Epilogue
from ..rules import EMITTERS


@dataclass
class GraphKernel:
    """A kernel of the graph path (see module doc). `pointers`: its pointer arguments in
    order, the size buffer `sz` last (empty for a kernel loaded from an artifact)."""

    name: str
    source: str
    block: dict = field(default_factory=dict)
    num_warps: int = 4
    nsizes: int = 0            # int32 values it reads from `sz`
    per_program: int = 1       # elements (or rows) one loop iteration covers
    maxnreg: int | None = None  # the generated kernel's register cap
    pointers: list = field(default_factory=list)
    form: list | None = None   # its name in an artifact (form_of); None: by its source


def form_of(kernel: GraphKernel) -> list:
    """The JSON name of a launch's kernel in an artifact (see module doc)."""
    if kernel.form is not None:
        return kernel.form
    return ["source", hashlib.sha256(kernel.source.encode()).hexdigest()]


def form_id(kernel: GraphKernel, types: list) -> str:
    """The key of a launch's cubin among an artifact's forms: its form and the element
    types of its buffers (inputs, then output), as JSON text."""
    return json.dumps([form_of(kernel), list(types)])


def _root(kernel) -> str:
    return kernel.group.root.name


class NotStrided(Exception):
    """The kernel has no BUFFER form (one loaded from an artifact keeps the plain path)."""


def strided(kernel) -> GraphKernel:
    """The graph-path form of a generated kernel (see module doc); NotStrided for a kernel
    without a body to write it from (loaded from an artifact)."""
    body = kernel.body
    if body is None:
        raise NotStrided("a kernel loaded from an artifact has no source to write")
    return GraphKernel("kernel", codegen.render(body, codegen.BUFFER), dict(kernel.block),
                       kernel.num_warps, len(body.sizes), kernel.grid_block, kernel.maxnreg,
                       body.pointers + ["sz"], form=["strided", _root(kernel)])


def epilogue(kernel, info, product_input: int) -> Epilogue | None:
    """The epilogue form of an elementwise generated kernel (codegen.Kernel, of a group of
    `info`) whose input `product_input` is a product of its own shape, read at the flat
    index; None when it is not of that form (64-bit indexing, the product read elsewhere or
    twice, another kernel shape)."""
    if kernel.kind != "elementwise" or info is None:
        return None
    epi = codegen.epilogue(kernel.group, info, EMITTERS, product_input)
    if epi is None or len(epi.size_syms) != len(kernel.size_syms):
        return None
    return epi


_TL_TYPES = {"f32": "tl.float32", "f16": "tl.float16", "bf16": "tl.bfloat16"}
MATMUL_TYPES = frozenset(_TL_TYPES)


# 32x32 output tiles: f32 IEEE products run on the FMA units, where a 64x64 tile leaves
# too few programs for a 128-row product and too much serial work per program.
MATMUL_TILE = {"BM": 32, "BN": 32, "BK": 32}


def matmul(element_type: str, a_km: bool, b_nk: bool, tf32: bool = False,
           batched: bool = False, epi: Epilogue | None = None) -> GraphKernel:
    """C[M,N] = A[M,K] @ B[K,N], all dense row-major at their actual sizes.

    `a_km`: A is stored as [K, M] (XLA lhs_contracting_dims={0}, or a transposed view);
    `b_nk`: B is stored as [N, K]. M, N, K are `sz[0:3]`. f16/bf16 accumulate in f32; f32
    multiplies in IEEE f32 unless `tf32` (XLA's DEFAULT precision may use TF32 on GPU).
    With `epi`, the elementwise kernel that reads the product is computed on each tile
    and stored instead (its inputs after `b`, its sizes at `sz[3:]`). `batched`: C[B,M,N]
    = A[B,M,K] @ B[B,K,N] (batch leading in all three, B at `sz[3]`; layouts per batch as
    above), the tiles of every batch strided over one grid; no epilogue.
    """
    if batched:
        if epi is not None:
            raise ValueError("a batched product takes no epilogue")
        return _batched_matmul(element_type, a_km, b_nk, tf32)
    out_type = _TL_TYPES[element_type]
    precision = "tf32" if tf32 or element_type != "f32" else "ieee"
    a_off = "rk[None, :] * mm + rm[:, None]" if a_km else "rm[:, None] * kk + rk[None, :]"
    b_off = "rn[None, :] * kk + rk[:, None]" if b_nk else "rk[:, None] * nn + rn[None, :]"
    extra = [f"e{k}" for k in range(epi.inputs)] if epi else []
    nsizes = len(epi.size_syms) if epi else 0
    sizes = [f"    s{k} = tl.load(sz + {3 + k})" for k in range(nsizes)]
    if epi:
        tail = ["        x = rm[:, None] * nn + rn[None, :]",
                "        xmask = (rm[:, None] < mm) & (rn[None, :] < nn)"]
        tail += ["        " + line for line in epi.lines]
    else:
        tail = [f"        tl.store(out + rm[:, None] * nn + rn[None, :], acc.to({out_type}),",
                "                 mask=(rm[:, None] < mm) & (rn[None, :] < nn))"]
    pointers = ["a", "b"] + extra + ["out", "sz"]
    args = ", ".join(pointers)
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
    return GraphKernel("kernel", source, dict(MATMUL_TILE), 4, 3 + nsizes, 1,
                       pointers=pointers)


def _batched_matmul(element_type: str, a_km: bool, b_nk: bool, tf32: bool) -> GraphKernel:
    """matmul's batched form: tile t of the grid's stride loop is tile t % tiles of batch
    t // tiles; each batch's A, B and C dense after the previous one's."""
    out_type = _TL_TYPES[element_type]
    precision = "tf32" if tf32 or element_type != "f32" else "ieee"
    a_off = "rk[None, :] * mm + rm[:, None]" if a_km else "rm[:, None] * kk + rk[None, :]"
    b_off = "rn[None, :] * kk + rk[:, None]" if b_nk else "rk[:, None] * nn + rn[None, :]"
    source = f"""import triton
import triton.language as tl


@triton.jit
def kernel(a, b, out, sz, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    mm = tl.load(sz + 0)
    nn = tl.load(sz + 1)
    kk = tl.load(sz + 2)
    bb = tl.load(sz + 3)
    tiles_n = tl.cdiv(nn, BN)
    tiles = tl.cdiv(mm, BM) * tiles_n
    for t in range(tl.program_id(0), tiles * bb, tl.num_programs(0)):
        bi = t // tiles
        r = t % tiles
        ab = a + bi * mm * kk
        bb_ = b + bi * kk * nn
        ob = out + bi * mm * nn
        rm = (r // tiles_n) * BM + tl.arange(0, BM)
        rn = (r % tiles_n) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), tl.float32)
        for k0 in range(0, kk, BK):
            rk = k0 + tl.arange(0, BK)
            av = tl.load(ab + {a_off}, mask=(rm[:, None] < mm) & (rk[None, :] < kk), other=0)
            bv = tl.load(bb_ + {b_off}, mask=(rk[:, None] < kk) & (rn[None, :] < nn), other=0)
            acc = tl.dot(av, bv, acc, input_precision="{precision}")
        tl.store(ob + rm[:, None] * nn + rn[None, :], acc.to({out_type}),
                 mask=(rm[:, None] < mm) & (rn[None, :] < nn))
"""
    return GraphKernel("kernel", source, dict(MATMUL_TILE), 4, 4, 1,
                       pointers=["a", "b", "out", "sz"])


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
    return GraphKernel("kernel", _SIZE_SOURCE, {}, 1, 1, 1, pointers=["out", "sz"])


def epilogue_form(dot: tuple, kernel, product_input: int) -> list:
    """The form of the product `dot` (matmul's arguments) with the elementwise plan kernel
    `kernel` as its epilogue, reading the product as its input `product_input`."""
    return ["epilogue", _root(kernel), product_input, *dot]


class StoredForms:
    """The kernel forms of an artifact's graph program (`form_id`s it has cubins for), for
    rebuilding that program from its stored plan (graph/plan.py's build with `stored`):
    a plan kernel's BUFFER form and a product's epilogue get their launch facts from the
    plan kernel, which has no source, instead of from code generation."""

    def __init__(self, ids):
        self.ids = frozenset(ids)

    def strided(self, kernel) -> GraphKernel:
        """The BUFFER form's launch facts: the plan kernel's blocks and warps, its sizes
        read from the size buffer, its grid's elements per program."""
        return GraphKernel("kernel", "", dict(kernel.block), kernel.num_warps,
                           len(kernel.size_syms), kernel.grid_block,
                           form=["strided", _root(kernel)])

    def epilogue(self, dot: tuple, kernel, product_input: int, types: list
                 ) -> GraphKernel | None:
        """The product `dot` with `kernel` as epilogue (facts as matmul's with `epi`: the
        kernel's other inputs and its sizes after M, N, K), when the artifact has that form
        for these buffer `types`; None: the compile did not fuse it."""
        if kernel.kind != "elementwise":
            return None
        fused = GraphKernel("kernel", "", dict(MATMUL_TILE), 4, 3 + len(kernel.size_syms), 1,
                            form=epilogue_form(dot, kernel, product_input))
        return fused if form_id(fused, types) in self.ids else None
