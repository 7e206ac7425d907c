"""The `precision` compile option on the GPU: which f32 products may use TF32.

TF32 multiplies f32 operands rounded to 10 mantissa bits (accumulating in f32) on the
tensor cores: several times the throughput of IEEE f32 products, with a relative error of
about 1e-3 per product instead of 1e-7. The option:

    "highest"  (the default) every f32 dot and convolution in IEEE f32, whatever the module
               says: results stay within f32 rounding of the CPU backend. As XLA with TF32
               execution off (`tsl::tensor_float_32_execution_enabled()` false), except that
               an explicit algorithm=dot_tf32_tf32_f32 also stays IEEE here.
    "default"  XLA's rule on GPU, per instruction (allows_tf32 below): TF32 where the
               module's operand_precision (or algorithm=) allows it. This is what JAX on a
               GPU does with its default matmul precision.

XLA's rule (its GPU backend, with TF32 execution on, its default):
- no algorithm=: TF32 when the largest operand_precision is at most HIGH (DEFAULT, HIGH, or
  the attribute absent, which means DEFAULT); HIGHEST keeps IEEE f32.
  xla/service/gpu/matmul_utils.cc: GemmConfig::For takes `compute_precision` as the largest
  operand precision, and RunGemm's `IsTf32Allowed(algorithm, compute_precision)` is
  `compute_precision <= 1` for ALG_UNSET (cuBLAS);
  xla/service/gpu/autotuning/conv_algorithm_picker.cc: `allow_tf32 = all operand_precision
  <= PrecisionConfig::HIGH` (cuDNN). XLA's own Triton GEMM emitter
  (xla/backends/gpu/codegen/triton/dot_algorithms.cc, IsTf32Allowed) is stricter (both
  operands DEFAULT); dynhlo's Triton matmuls stand where XLA calls cuBLAS, so they follow
  the cuBLAS rule: one rule for every product here.
- algorithm=dot_tf32_tf32_f32: TF32 (xla/service/algorithm_util.cc HasTf32InputType). Any other
  algorithm keeps IEEE f32 here, which is at least as precise as it asks:
  dot_tf32_tf32_f32_x3 (three TF32 passes, ~f32 accuracy; cuBLAS through torch has no such
  mode), dot_f32_f32_f32, and the bf16 algorithms on f32 operands.

Only products of f32 operands are affected (f16/bf16/f64 products are what they were). The
CPU backend accepts the option and changes nothing: NumPy has no TF32, as XLA's CPU backend
computes f32 dots in f32 whatever their precision.

Where it acts: the graph path's Triton matmuls and fused attention write
`input_precision="tf32"` or `"ieee"` per product into the kernel text (so a kernel's cubin
and cache key differ with it; a captured CUDA graph replays exactly those kernels), and the
library tier's cuBLAS dots and cuDNN convolutions run inside `Fp32Scope`, which sets torch's
fp32 precision for the one call and restores the caller's setting after it: the program
never leaves torch's global flags changed. torch puts the math mode on the cuBLAS handle
when the call is made, so the launch it enqueues keeps it (a CUDA graph capturing such a
call would too; the graph path captures only Triton kernels, graph/plan.py).
"""

from __future__ import annotations

import threading

import torch

from ...hlo import attrs
from ...hlo.opcodes import OP_SPECS, Group

HIGHEST, DEFAULT = "highest", "default"

# operand_precision values XLA's GPU backend may run in TF32 (PrecisionConfig <= HIGH).
_TF32_PRECISIONS = frozenset({"default", "high"})
# algorithm= values whose inputs are TF32 (algorithm_util::HasTf32InputType), as XLA
# spells them in HLO text, less dot_tf32_tf32_f32_x3 (see the module doc).
_TF32_ALGORITHMS = frozenset({"dot_tf32_tf32_f32"})


def module_allows_tf32(inst) -> bool:
    """Whether XLA on GPU may run this product (a dot or convolution: group CONTRACTION) in
    TF32 (see the module doc): its operands are f32 and its operand_precision / algorithm
    allow it. Decoded once per instruction."""
    return inst.decoded(("tf32",), _decide)


def _decide(inst) -> bool:
    if OP_SPECS[inst.opcode].group is not Group.CONTRACTION or \
            any(o.shape.element_type != "f32" for o in inst.operands):
        return False
    algorithm = attrs.string(inst, "algorithm")
    if algorithm is not None:
        return algorithm.strip().lower() in _TF32_ALGORITHMS
    text = inst.attrs.get("operand_precision")
    if text is None:
        return True   # absent: DEFAULT
    words = [w.strip().lower() for w in text.strip().strip("{}").split(",") if w.strip()]
    return all(w in _TF32_PRECISIONS for w in words)


def allows_tf32(inst, precision: str) -> bool:
    """Whether this product runs in TF32 under the compile option `precision`."""
    return precision == DEFAULT and module_allows_tf32(inst)


# torch's fp32 precision settings this module sets: (backend, op) as torch names them.
_MATMUL, _CONV = ("cuda", "matmul"), ("cuda", "conv")
try:   # the C functions behind torch.backends.cuda.matmul.fp32_precision (and cudnn.conv's):
    # a third of the attribute's cost, which is paid on every cuBLAS call of the plain path
    _get, _set = torch._C._get_fp32_precision_getter, torch._C._set_fp32_precision_setter
except AttributeError:  # pragma: no cover - another torch: the public attributes
    _OBJECTS = {_MATMUL: torch.backends.cuda.matmul, _CONV: torch.backends.cudnn.conv}

    def _get(backend: str, op: str) -> str:
        return _OBJECTS[backend, op].fp32_precision

    def _set(backend: str, op: str, value: str) -> None:
        _OBJECTS[backend, op].fp32_precision = value


class Fp32Scope:
    """`with Fp32Scope(tf32, conv):` torch's fp32 precision for cuBLAS (and, with `conv`,
    cuDNN convolutions) is "tf32" or "ieee" inside the block and the caller's after it.

    torch 2.13's `fp32_precision` settings (torch.backends.cuda.matmul.fp32_precision,
    torch.backends.cudnn.conv.fp32_precision), not the legacy `allow_tf32` flags: torch
    raises when one reads a legacy flag that the new API set to disagree with it, and
    reading the new one always works, so the caller's setting is read and put back through
    the new API (which keeps either API readable for the caller afterwards). Set only when
    it differs.

    torch's setting is one per process: scopes hold one lock, so dynhlo calls on several
    threads cannot run a product under another call's setting nor leave a wrong setting
    behind (torch work of other threads during a call sees the call's setting).
    """

    __slots__ = ("want", "flags", "before")
    _lock = threading.RLock()   # re-entrant: a scope inside a scope restores the outer one

    def __init__(self, tf32: bool, conv: bool = False):
        self.want = "tf32" if tf32 else "ieee"
        # A convolution torch does not give cuDNN (im2col + GEMM) runs through cuBLAS.
        self.flags = (_MATMUL, _CONV) if conv else (_MATMUL,)

    def __enter__(self):
        self._lock.acquire()
        self.before = []
        try:
            for flags in self.flags:
                self.before.append(_get(*flags))
                if self.before[-1] != self.want:
                    _set(*flags, self.want)
        except BaseException:
            self.__exit__()   # what was set goes back, and the lock is released
            raise
        return self

    def __exit__(self, *exc) -> None:
        try:
            for flags, before in zip(self.flags, self.before, strict=True):
                if before != self.want:
                    _set(*flags, before)
        finally:
            self._lock.release()


__all__ = ["DEFAULT", "HIGHEST", "Fp32Scope", "allows_tf32", "module_allows_tf32"]
