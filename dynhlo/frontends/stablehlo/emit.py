"""HLO text under construction: values, computations, and MLIR types as HLO shapes.

The StableHLO importer writes HLO text (one instruction per line) and hands it to
dynhlo.parse_hlo, so the module it returns is checked exactly as any parsed module is.
A `Val` is one emitted instruction: its name, its shape (bounds filled where the importer
knows them, `?` where dynamic dimension inference will derive them), and for small integer
tensors the size expressions of its elements (dynhlo.frontends.stablehlo.shape_exprs).
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from ...errors import UnsupportedError
from ...hlo.literal import format_literal
from ...hlo.opcodes import Opcode
from ...hlo.shape import UNBOUNDED, Shape, TupleShape
from ...hlo.types import ARRAY_TYPES, to_numpy_dtype

_INT = re.compile(r"^(u?i)(\d+)$")
_FLOATS = {"f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64", "f8E4M3FN": "f8e4m3fn",
           "f8E5M2": "f8e5m2", "f8E4M3FNUZ": "f8e4m3fnuz", "f8E5M2FNUZ": "f8e5m2fnuz",
           "f8E4M3B11FNUZ": "f8e4m3b11fnuz", "f8E4M3": "f8e4m3", "f8E3M4": "f8e3m4",
           "f4E2M1FN": "f4e2m1fn", "f8E8M0FNU": "f8e8m0fnu",
           "complex<f32>": "c64", "complex<f64>": "c128"}


def element_type(mlir_type) -> str:
    """XLA's name for an MLIR element type (`i32` -> `s32`, `i1` -> `pred`)."""
    text = str(mlir_type)
    if text == "i1":
        return "pred"
    m = _INT.match(text)
    if m and ("u" if m.group(1) == "ui" else "s") + m.group(2) in ARRAY_TYPES:
        return ("u" if m.group(1) == "ui" else "s") + m.group(2)
    if text in _FLOATS:
        return _FLOATS[text]
    if "token" in text:
        return "token"
    raise UnsupportedError(f"StableHLO element type {text} has no HLO equivalent in dynhlo")


def shape_of(mlir_type, bounds=None):
    """The HLO shape of an MLIR type; `?` dims take `bounds[d]` (else the type's
    `#stablehlo.bounds`, else UNBOUNDED)."""
    from jaxlib.mlir import ir
    if is_type(mlir_type, ir.TupleType):
        tup = ir.TupleType(mlir_type)
        return TupleShape(tuple(shape_of(tup.get_type(i)) for i in range(tup.num_types)))
    if not is_type(mlir_type, ir.RankedTensorType):
        if "token" in str(mlir_type):
            return Shape("token")
        raise UnsupportedError(f"StableHLO type {mlir_type} is not supported (unranked?)")
    t = ir.RankedTensorType(mlir_type)
    encoded = _encoded_bounds(t)
    dims, dynamic = [], []
    for d, size in enumerate(t.shape):
        if ir.ShapedType.is_dynamic_size(size):
            b = bounds[d] if bounds is not None and bounds[d] is not None else encoded[d]
            dims.append(UNBOUNDED if b is None else int(b))
            dynamic.append(True)
        else:
            dims.append(size)
            dynamic.append(False)
        if dims[-1] != UNBOUNDED and not 0 <= dims[-1] <= MAX_SIZE:
            raise UnsupportedError(f"dimension {d} of {mlir_type} has size or bound "
                                   f"{dims[-1]}, more than HLO's largest, {MAX_SIZE}")
    return Shape(element_type(t.element_type), tuple(dims), tuple(dynamic))


MAX_SIZE = 10**18 - 1  # the largest size HLO text writes (18 digits)


def is_type(mlir_type, cls) -> bool:
    """True when `mlir_type` is an instance of the MLIR type class `cls`."""
    try:
        cls(mlir_type)
    except (ValueError, TypeError):
        return False
    return True


def _encoded_bounds(t) -> list:
    """`tensor<?x4xf32, #stablehlo.bounds<64, ?>>`: torch_xla's and MHLO's bounded dims."""
    text = str(t.encoding) if t.encoding is not None else ""
    m = re.search(r"bounds<([^>]*)>", text)
    if not m:
        return [None] * t.rank
    return [None if b.strip() == "?" else int(b) for b in m.group(1).split(",")]


INLINE_ELEMENTS = 64  # larger constants skip the text round trip (ModuleBuilder.large_constants)


def fill_large_constants(module, large: dict) -> None:
    """Set the values of the placeholders of `large` (name -> (the placeholder scalar a
    broadcast stood on, to drop, or None: the named instruction is that scalar; the value))."""
    if not large:
        return
    for comp in module.computations:
        scalars = set()
        for inst in comp.instructions:
            if inst.name in large:
                scalar, array = large[inst.name]
                inst.opcode, inst.operands, inst.attrs, inst.literal = \
                    Opcode.CONSTANT, [], {}, array
                if scalar is not None:
                    scalars.add(scalar)
        if scalars:
            comp.instructions = [i for i in comp.instructions if i.name not in scalars]


class Val:
    """One emitted HLO value: name, shape, the size expressions of a small integer tensor,
    and the literal when it is a constant (so regions can re-emit it)."""

    __slots__ = ("name", "shape", "exprs", "literal")

    def __init__(self, name: str, shape, exprs=None, literal=None):
        self.name, self.shape, self.exprs, self.literal = name, shape, exprs, literal

    def __repr__(self):
        return f"<{self.name} {self.shape}>"


class ModuleBuilder:
    """Computations in callee-first order and module-unique instruction names."""

    def __init__(self):
        self.computations: list[str] = []
        self._ids = itertools.count()
        self.large_constants: dict[str, tuple[str | None, np.ndarray]] = {}

    def fresh(self, hint: str) -> str:
        return f"{re.sub(r'[^A-Za-z0-9_]', '_', hint)}.{next(self._ids)}"

    def text(self, name: str) -> str:
        return f"HloModule {name}\n\n" + "\n".join(self.computations)


class Comp:
    """One HLO computation being written."""

    def __init__(self, module: ModuleBuilder, name: str):
        self.module, self.name = module, module.fresh(name)
        self.lines: list[str] = []
        self.params = 0

    def emit(self, shape, opcode: str, operands=(), attrs: str = "", hint: str | None = None,
             exprs=None) -> Val:
        name = self.module.fresh(hint or opcode)
        args = ", ".join(v.name for v in operands)
        self.lines.append(f"{name} = {shape} {opcode}({args}){', ' + attrs if attrs else ''}")
        return Val(name, shape, exprs)

    def parameter(self, shape, hint: str = "p") -> Val:
        name = self.module.fresh(hint)
        self.lines.append(f"{name} = {shape} parameter({self.params})")
        self.params += 1
        return Val(name, shape)

    def constant(self, array: np.ndarray, shape: Shape, exprs=None) -> Val:
        name = self.module.fresh("constant")
        if array.size > 1 and not any(array.strides):
            # a splat (a broadcast view, as dense_array gives): a scalar constant and a
            # broadcast, as XLA's prepare-for-export writes it, so it takes no memory before
            # a run reads it; the scalar is set after parsing too, keeping a NaN's payload
            scalar = self._placeholder(shape.element_type, array.dtype, "constant")
            self.lines.append(f"{name} = {shape} broadcast({scalar}), dimensions={{}}")
            self.module.large_constants[scalar] = (None, array.reshape(-1)[:1].reshape(()))
        elif array.size > INLINE_ELEMENTS:
            # written as a broadcast of a scalar and given its values after parsing: printing
            # and re-reading a million decimals would take seconds (dynhlo.frontends.stablehlo)
            scalar = self._placeholder(shape.element_type, array.dtype, "placeholder")
            self.lines.append(f"{name} = {shape} broadcast({scalar}), dimensions={{}}")
            self.module.large_constants[name] = (scalar, array)
        else:
            self.lines.append(f"{name} = {shape} constant({format_literal(array, shape)})")
        return Val(name, shape, exprs, array)

    def _placeholder(self, element_type: str, dtype, hint: str) -> str:
        """A scalar constant whose value fill_large_constants sets."""
        name = self.module.fresh(hint)
        zero = format_literal(np.zeros((), dtype), Shape(element_type))
        self.lines.append(f"{name} = {element_type}[] constant({zero})")
        return name

    def scalar(self, value: int, element: str = "s32") -> Val:
        return self.constant(np.array(value, to_numpy_dtype(element)), Shape(element))

    def finish(self, root: Val, entry: bool = False) -> None:
        body = []
        for line in self.lines:
            prefix = "ROOT " if line.startswith(root.name + " = ") else ""
            body.append("  " + prefix + line)
        head = ("ENTRY " if entry else "") + self.name + " {"
        self.module.computations.append("\n".join([head, *body, "}"]) + "\n")


def dims_text(values) -> str:
    return "{" + ",".join(str(int(v)) for v in values) + "}"
