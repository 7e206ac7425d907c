"""What from_tf returns: the compiled program called as the TensorFlow function is.

Arguments are NumPy arrays or tf.Tensors (a tf.Tensor in gives tf.Tensors out, NumPy in gives
NumPy out), one per shape, and the outputs come back in the function's structure (a dict, a
list, a tuple; inputs.pack). With `weights="parameters"` the captures (a Keras model's
weights, a tf.Module's variables, captured tensors) are entry parameters after the
arguments, in the order of the ConcreteFunction's `captured_inputs`, named in
`exe.weight_names`; `exe.weights` holds the values each call passes (replace one to run
other weights of the same shape, no recompile).
"""

from __future__ import annotations

import numpy as np

from ...errors import ArgumentError
from .inputs import pack


class TFExecutable:
    """A dynhlo Executable (`exe.executable`, its HloModule `exe.module`) called as the
    TensorFlow function (see the module doc). `save`/`serialize` write the plain
    executable: NumPy in (the arguments, then the weights where they are parameters) and a
    flat tuple of the output leaves out, in tf.nest order."""

    def __init__(self, executable, names: list[str], structure, weight_names: list[str],
                 weight_values: list):
        self.executable, self.module = executable, executable.module
        self.names, self.structure = names, structure
        self.weight_names = list(weight_names)
        self.weights = {n: np.asarray(v) for n, v in zip(weight_names, weight_values,
                                                         strict=True)}

    def __call__(self, *args):
        if len(args) != len(self.names):
            raise ArgumentError(f"from_tf executable takes {len(self.names)} arguments "
                                f"({', '.join(self.names)}), got {len(args)}")
        tensors = any(_is_tensor(a) for a in args)
        arrays = [np.asarray(a.numpy()) if _is_tensor(a) else a for a in args]
        out = self.executable(*arrays, *(self.weights[n] for n in self.weight_names))
        flat = list(out) if isinstance(out, tuple) else [out]
        if tensors:
            import tensorflow as tf
            flat = [tf.constant(o) for o in flat]
        return pack(self.structure, flat) if self.structure is not None else out

    def save(self, path) -> None:
        """Write the plain executable as an AOT artifact (dynhlo.load reads it)."""
        self.executable.save(path)

    def serialize(self) -> bytes:
        """The plain executable's artifact bytes (dynhlo.deserialize reads them)."""
        return self.executable.serialize()

    def __getattr__(self, name):
        # the plain executable's other attributes (run, bounds, ...)
        if name == "executable":
            raise AttributeError(name)
        return getattr(self.executable, name)

    def __repr__(self) -> str:
        return f"<dynhlo.from_tf arguments={self.names} weights={len(self.weight_names)}>"


def _is_tensor(value) -> bool:
    """A tf.Tensor (eager), told without importing TensorFlow."""
    return type(value).__module__.startswith("tensorflow") and hasattr(value, "numpy")
