"""Shapes: arrays with static, bounded (`<=N`) and unbounded (`?`) dimensions, layouts, tuples.

Follows XLA's Shape: `dims` holds each dimension's size when static or its bound when
dynamic, `dynamic` marks the dynamic ones, and an unbounded dimension has size
`UNBOUNDED` (XLA's kUnboundedSize, printed `?`). Shapes are immutable and hashable.
"""

from __future__ import annotations

from dataclasses import dataclass

UNBOUNDED = -1


@dataclass(frozen=True, slots=True)
class Layout:
    """Physical order of an array's dimensions, minor to major, as XLA prints it.

    `tail` keeps whatever XLA prints after the colon (tiles `T(8,128)`, element size `E(4)`,
    memory space `S(1)`, ...) verbatim: dynhlo keeps it but logical values never depend on it.
    """

    minor_to_major: tuple[int, ...]
    tail: str = ""

    def __str__(self) -> str:
        body = ",".join(map(str, self.minor_to_major))
        return "{" + body + (":" + self.tail if self.tail else "") + "}"


@dataclass(frozen=True, slots=True)
class Shape:
    """An array shape, e.g. `f32[<=128,64]{1,0}`.

    Attributes:
        element_type: XLA type name (`f32`, `s32`, `pred`, `token`, ...).
        dims: size (static) or bound (dynamic) of each dimension; UNBOUNDED for `?`.
        dynamic: per dimension, True if its size is known only at run time.
        layout: minor-to-major layout, or None when the text gave none.
    """

    element_type: str
    dims: tuple[int, ...] = ()
    dynamic: tuple[bool, ...] = ()
    layout: Layout | None = None

    is_tuple = False

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def is_static(self) -> bool:
        return not any(self.dynamic)

    @property
    def is_unbounded(self) -> bool:
        return UNBOUNDED in self.dims

    def with_dims(self, dims: tuple[int, ...], dynamic: tuple[bool, ...] | None = None,
                  layout: Layout | None = None) -> "Shape":
        """A shape of the same element type with other dimensions (and default layout)."""
        return Shape(self.element_type, tuple(dims),
                     tuple(dynamic) if dynamic is not None else (False,) * len(dims), layout)

    def with_element_type(self, element_type: str) -> "Shape":
        return Shape(element_type, self.dims, self.dynamic, self.layout)

    def dim_str(self, i: int) -> str:
        if self.dims[i] == UNBOUNDED:
            return "?"
        return ("<=" if self.dynamic[i] else "") + str(self.dims[i])

    def __str__(self) -> str:
        text = self.element_type + "[" + ",".join(self.dim_str(i) for i in range(self.rank)) + "]"
        if self.layout is not None and self.rank:
            text += str(self.layout)
        return text


@dataclass(frozen=True, slots=True)
class TupleShape:
    """A tuple of shapes, e.g. `(f32[2]{0}, s32[])`."""

    elements: tuple["Shape | TupleShape", ...]

    is_tuple = True
    element_type = "tuple"

    @property
    def is_static(self) -> bool:
        return all(e.is_static for e in self.elements)

    @property
    def is_unbounded(self) -> bool:
        return any(e.is_unbounded for e in self.elements)

    def __str__(self) -> str:
        return "(" + ", ".join(map(str, self.elements)) + ")"


AnyShape = Shape | TupleShape


def scalar(element_type: str) -> Shape:
    """The rank-0 shape of an element type, e.g. `s32[]`."""
    return Shape(element_type)


def same_ignoring_layout(a: AnyShape, b: AnyShape) -> bool:
    """Equal element types, dimensions and dynamism; layouts may differ."""
    if a.is_tuple or b.is_tuple:
        return (a.is_tuple and b.is_tuple and len(a.elements) == len(b.elements)
                and all(same_ignoring_layout(x, y) for x, y in zip(a.elements, b.elements,
                                                                   strict=True)))
    return a.element_type == b.element_type and a.dims == b.dims and a.dynamic == b.dynamic


def leaf_shapes(shape: AnyShape) -> list[Shape]:
    """The array shapes of a (possibly nested) tuple shape, in order."""
    if not shape.is_tuple:
        return [shape]
    out: list[Shape] = []
    for element in shape.elements:
        out.extend(leaf_shapes(element))
    return out
