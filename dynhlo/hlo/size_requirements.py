"""Least sizes a module's producer requires of its arguments: TensorFlow refuses some ops at
small sizes where XLA's program would run and give rows TensorFlow never gives, so
dynhlo.from_tf states the least size and the executable checks it before each call.

Two kinds, each with its own message (TensorFlow's rule, which op, which argument):
- `mirror_pad`: a MirrorPad (tf.pad, mode REFLECT or SYMMETRIC) longer than the rows it
  reflects: TensorFlow requires each REFLECT pad < n and each SYMMETRIC pad <= n.
- `range_length`: a length TensorFlow folded from the size, ceil((n + c) / s) with c < 0
  (tf.range(1, n), tf.range(0, n - 2, 2), tf.ones(n - 1)): TensorFlow's Range requires
  start <= limit for a positive delta ("Requires start <= limit when delta > 0") and Fill
  a size >= 0, so n + c must be >= 0.
- `lowering`: a size below the least at which TensorFlow lowers the function at all: an op
  whose shape function refuses smaller inputs (top_k needs k values, a VALID convolution or
  pool its window's extent, a strided slice its rows), as its kernel would at run time.
  from_tf finds it by lowering at smaller sizes (dynhlo.frontends.tf), and names the op
  from TensorFlow's message.

A requirement is data (kind, op, parameter, dimension, size name, least size, argument name),
so artifacts store it (dynhlo.runtime.stored_requirements) and a loaded executable refuses a
short argument with the same message. It sits in hlo/ beside ShapeAssertion because a module
carries it into every layer.
"""

from __future__ import annotations

KINDS = ("mirror_pad", "range_length", "lowering")


class SizeRequirement:
    """Dimension `where` = (parameter, dimension) of the arguments, of size `name`, must be at
    least `least` for TensorFlow's op `op` (a name from TensorFlow's program), of `kind`
    (KINDS); `argument` is the argument's name in the function, or None."""

    def __init__(self, kind: str, op: str, where: tuple[int, int], name: str, least: int,
                 argument: str | None):
        if kind not in KINDS:
            raise ValueError(f"size requirement kind {kind!r} is not one of {KINDS}")
        self.kind, self.op, self.where, self.name, self.least = kind, op, tuple(where), \
            name, least
        self.argument = argument

    def failure(self, sizes: dict) -> str | None:
        """The message when the argument sizes ((parameter, dimension) -> size) break the
        requirement, else None."""
        size = sizes.get(self.where)
        if size is None or size >= self.least:
            return None
        p, d = self.where
        arg = f"argument {p}" + (f" '{self.argument}'" if self.argument else "")
        if self.kind == "mirror_pad":
            return (f"TensorFlow's MirrorPad '{self.op}' (tf.pad, mode REFLECT or SYMMETRIC) "
                    f"reflects rows of dimension {d} of {arg} (size '{self.name}'), which has "
                    f"{size}: it needs at least {self.least} (TensorFlow refuses this pad at "
                    f"{self.name} = {size}: a REFLECT pad must be less than the size, a "
                    f"SYMMETRIC pad at most the size)")
        if self.kind == "lowering":
            return (f"TensorFlow's op '{self.op}' refuses dimension {d} of {arg} (size "
                    f"'{self.name}') of {size}: it needs at least {self.least} (TensorFlow "
                    f"lowers the function only at {self.name} >= {self.least}; below, the op's "
                    f"shape check fails, as its kernel's would at run time)")
        return (f"TensorFlow's range or shape '{self.op}' has a length it computed from "
                f"size '{self.name}', of dimension {d} of {arg}, which has {size}: it needs "
                f"at least {self.least} (below, the length is negative and TensorFlow refuses "
                f"it: Range requires start <= limit when delta > 0, Fill a size >= 0)")

    def _key(self) -> tuple:
        return (self.kind, self.op, self.where, self.name, self.least, self.argument)

    def __eq__(self, other) -> bool:
        return isinstance(other, SizeRequirement) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"SizeRequirement{self._key()!r}"


__all__ = ["KINDS", "SizeRequirement"]
