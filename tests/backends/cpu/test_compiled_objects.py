"""The compiled CPU path's object code can be placed anywhere in a large process.

LLVM's JIT loader maps a kernel's code and its constants separately; in a process with
gigabytes mapped they can lie more than 2 GiB apart. A 32-bit relocation between them (the
small code model's PC-relative constant loads) then overflows, and the loader aborted the
process (seen in the test suite after the GPU tests had mapped much memory). Every
relocation in a kernel's object must therefore be an absolute 64-bit one (the large code
model with static relocations: machine._target_machine; its GOT-relative form gave wrong
values). Checked on the ELF objects of x86-64 Linux, read here with `struct` (independent
of LLVM).
"""

from __future__ import annotations

import platform
import struct

import numpy as np
import pytest

import dynhlo

pytestmark = pytest.mark.skipif(
    platform.system() != "Linux" or platform.machine() != "x86_64",
    reason="the relocation check reads x86-64 ELF objects")

# x86-64 psABI relocation types: R_X86_64_NONE and R_X86_64_64 (an absolute address).
WIDE = {0, 1}
SHT_RELA, SHT_REL = 4, 9

KERNELS = """
HloModule constants
ENTRY main {
  p = f32[<=8,3] parameter(0)
  q = f64[<=8,3] parameter(1)
  c = f32[] constant(1.25)
  cb = f32[<=8,3] broadcast(c), dimensions={}
  t = f32[<=8,3] tanh(p)
  e = f32[<=8,3] exponential(t)
  r = f32[<=8,3] multiply(e, cb)
  l = f64[<=8,3] log-plus-one(q)
  s = f64[<=8,3] sine(l)
  z = f32[] constant(-inf)
  m = f32[<=8] reduce(r, z), dimensions={1}, to_apply=max
  ROOT o = (f32[<=8,3], f64[<=8,3], f32[<=8]) tuple(r, s, m)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
"""


def relocation_types(obj: bytes) -> set[int]:
    """The relocation types of an ELF64 little-endian object (every REL/RELA section)."""
    assert obj[:4] == b"\x7fELF" and obj[4] == 2 and obj[5] == 1, "not ELF64 LSB"
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    types = set()
    for k in range(shnum):
        sh_type, = struct.unpack_from("<I", obj, shoff + k * shentsize + 4)
        if sh_type not in (SHT_RELA, SHT_REL):
            continue
        offset, size, _, _, _, entsize = struct.unpack_from(
            "<QQIIQQ", obj, shoff + k * shentsize + 0x18)
        for at in range(offset, offset + size, entsize):
            info, = struct.unpack_from("<Q", obj, at + 8)
            types.add(info & 0xFFFFFFFF)
    return types


def test_every_relocation_of_a_kernel_is_an_absolute_64_bit_address(tmp_path, monkeypatch):
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))   # compiled here, not from a cache
    exe = dynhlo.compile(KERNELS, backend="cpu", reference=False)
    ref = dynhlo.compile(KERNELS, backend="cpu", reference=True)
    args = (np.linspace(-2, 2, 15, dtype=np.float32).reshape(5, 3),
            np.linspace(0, 3, 15).reshape(5, 3))
    for got, want in zip(exe(*args), ref(*args), strict=True):
        np.testing.assert_array_equal(got, want)
    from dynhlo.backends.cpu.compiled import machine
    objects = list(machine._state["objects"].values())
    assert objects
    for obj in objects:
        assert relocation_types(obj) <= WIDE
