"""Generated kernel source to a @triton.jit function, compiled in memory once per text.

Generated kernel source is compiled in memory, never imported from a file (a cache any
process of the user can write would let a planted file run). One namespace per distinct
source text, shared by every program in the process; Triton's own cache keeps the compiled
kernels. Interpreter mode (TRITON_INTERPRET) is decided when a kernel is decorated, so it
is set around the exec only.
"""

from __future__ import annotations

import hashlib
import linecache
import os
import threading

_LOADED: dict[str, object] = {}
_LOCK = threading.Lock()


def load_kernel(source: str, name: str, interpret: bool):
    """The @triton.jit function `name` defined by `source` (compiled once per source).

    The source text dynhlo generated is compiled in memory; nothing is imported from a file,
    so no cache entry (a `.py` or a planted `__pycache__/*.pyc`) can ever run. Triton reads a
    kernel's source back with `inspect`, which finds it in `linecache` under a name that is
    no path on disk.
    """
    if interpret:
        _patch_interpreter_index()
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    key = f"{digest}-{int(interpret)}"
    with _LOCK:
        namespace = _LOADED.get(key)
        if namespace is None:
            namespace = _LOADED[key] = _exec_source(source, digest, interpret)
    return namespace[name]


def _exec_source(source: str, digest: str, interpret: bool) -> dict:
    filename = f"<dynhlo-kernel-{digest}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(source, filename, "exec", dont_inherit=True)
    namespace = {"__name__": f"dynhlo_kernel_{digest}", "__file__": filename}
    old = os.environ.get("TRITON_INTERPRET")
    os.environ["TRITON_INTERPRET"] = "1" if interpret else "0"
    try:
        exec(code, namespace)  # the text dynhlo's code generator wrote, never a file's
    finally:
        if old is None:
            os.environ.pop("TRITON_INTERPRET", None)
        else:
            os.environ["TRITON_INTERPRET"] = old
    return namespace


def _patch_interpreter_index() -> None:
    """Let Triton's interpreter use a scalar argument as a loop bound under NumPy 2.4.

    Triton 3.6's interpreter holds a scalar argument as a 1-element array and reads it for
    `range(0, s1, BN)` with `int(array)`, which NumPy 2.4 refuses for 1-d arrays; read the
    element instead. Only the interpreter is touched (it restores the attribute after each
    kernel); compiled kernels are unaffected.
    """
    from triton.runtime import interpreter
    original = interpreter._patch_lang_tensor
    if getattr(original, "_dynhlo", False):
        return

    def patched(tensor, scope):
        original(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))

    patched._dynhlo = True
    interpreter._patch_lang_tensor = patched
    _patch_interpreter_bf16_dot(interpreter)
    _patch_interpreter_compares(interpreter)


def _patch_interpreter_compares(interpreter) -> None:
    """Let a scalar comparison's result meet a tile in Triton's interpreter.

    Triton 3.6's interpreter labels a comparison's result (NumPy bools) with the type of
    its left operand, and splatting a scalar to a tile converts the data to that label's
    type: `(x < 2000.0) & tile`, x a loaded f32 scalar, became an f32 tile meeting a bool
    one, and NumPy's bitwise_and refused them (a raw InterpreterError in lax.igamma's loop).
    The result is labelled int1, what the kernel's types say it is; compiled kernels are
    unaffected.
    """
    import triton.language as tl
    builder = interpreter.InterpreterBuilder
    for name in [n for n in vars(builder) if n.startswith(("create_icmp", "create_fcmp"))]:
        original = getattr(builder, name)
        if getattr(original, "_dynhlo", False):
            continue

        def compare(self, lhs, rhs, original=original):
            out = original(self, lhs, rhs)
            return interpreter.TensorHandle(out.data, tl.int1)

        compare._dynhlo = True
        setattr(builder, name, compare)


def _patch_interpreter_bf16_dot(interpreter) -> None:
    """Let Triton's interpreter multiply bf16 tiles as numbers.

    Triton 3.6's interpreter holds bf16 data as its uint16 bit patterns (NumPy has no bf16)
    and its `create_dot` hands those to np.matmul, which multiplies the integers: a bf16
    product in the interpreter came out ~1e9 off, silently. The operands are widened to the
    f32 they exactly are (a bf16 is the top half of an f32) before the product; compiled
    kernels are unaffected.
    """
    import numpy as np
    import triton.language as tl
    builder = interpreter.InterpreterBuilder
    original = builder.create_dot
    if getattr(original, "_dynhlo", False):
        return

    def widened(value):
        if value.dtype.scalar != tl.bfloat16:
            return value
        bits = value.data.astype(np.uint32) << np.uint32(16)
        return interpreter.TensorHandle(bits.view(np.float32), tl.float32)

    def create_dot(self, a, b, d, input_precision, max_num_imprecise_acc):
        return original(self, widened(a), widened(b), d, input_precision,
                        max_num_imprecise_acc)

    create_dot._dynhlo = True
    builder.create_dot = create_dot

