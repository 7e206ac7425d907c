"""What a TensorFlow user holds, as from_tf takes it: one function of flat tensors, a shape
string per tensor, and the output structure.

- a Python function or `tf.function` (shapes given; or, where it has an `input_signature`,
  taken from it), a `tf.Module`'s method;
- a `ConcreteFunction` (its `structured_input_signature`), a restored SavedModel's function
  (one traced signature) or serving signature (`loaded.signatures["serving_default"]`,
  whose arguments are keyword-only: called by name);
- a Keras model or layer: its call in inference mode (`training=False`).

A shape is a string (`"f32[n,16]"`, names shared across arguments are one size) or a
`tf.TensorSpec`; a `None` dimension of a spec is a size of its own, named
`<argument>_<dimension>` (`x_0`), whose bound is `bounds[that name]`, or `bounds[(argument
index, dimension)]`, or `bounds` itself where it is a number (every `None` dimension).
Arguments with defaults that no shape is given for keep their defaults. Outputs are
flattened in `tf.nest` order (dict keys sorted) and the structure kept (`pack` rebuilds it
without TensorFlow: dicts, lists, tuples).
"""

from __future__ import annotations

import inspect

import numpy as np

from ...errors import UnsupportedError
from ..jax_specs import element_type


class Held:
    """A TensorFlow program as from_tf lowers it: `call(*tensors)` gives the flat outputs,
    `shapes` one HLO shape string per tensor, `bounds` size name -> bound, `names` the
    arguments' names (for messages), `structure` the outputs' structure once traced."""

    def __init__(self, call, shapes: list[str], bounds: dict, names: list[str]):
        self.shapes, self.bounds, self.names = shapes, bounds, names
        self.structure = None
        self._call = call

    def __call__(self, *tensors):
        import tensorflow as tf
        out = self._call(*tensors)
        self.structure = _structure(out, iter(range(len(tf.nest.flatten(out)))))
        return tuple(tf.nest.flatten(out)) if self.structure != 0 else out


def held(fn, shapes: tuple, bounds) -> Held:
    """The Held of `fn` (see the module doc) with `shapes` (strings or TensorSpecs; none:
    the function's own signature) and `bounds` (a dict, or a number for `None` dims)."""
    import tensorflow as tf
    if hasattr(fn, "call") and hasattr(fn, "trainable_weights"):   # a Keras model or layer
        model = fn
        positional, keywords = _parameters(model.call), []
        call = lambda *args: model(*args, training=False)   # noqa: E731 - inference
    else:
        concrete = _concrete(fn)
        if concrete is not None and not shapes:
            args, kwargs = concrete.structured_input_signature
            # a Python value (a default) is bound in the ConcreteFunction: not an argument
            args = [s for s in args if isinstance(s, tf.TensorSpec)]
            positional = [getattr(s, "name", None) or f"arg{k}" for k, s in enumerate(args)]
            keywords = sorted(kwargs)
            shapes = tuple(args) + tuple(kwargs[k] for k in keywords)
        else:
            positional, keywords = _parameters(fn), []
            signature = getattr(fn, "input_signature", None)
            if not shapes and signature:
                shapes = tuple(tf.nest.flatten(signature))
        target = concrete if concrete is not None and not isinstance(
            fn, tf.types.experimental.PolymorphicFunction) else fn
        count = len(shapes) - len(keywords)

        def call(*tensors):
            return target(*tensors[:count], **dict(zip(keywords, tensors[count:], strict=True)))
        if not shapes:
            raise UnsupportedError("from_tf needs a shape per argument (\"f32[n,16]\" or a "
                                   "tf.TensorSpec), or a function with an input_signature")
    names = (positional + keywords)[:len(shapes)] if len(positional) + len(keywords) >= \
        len(shapes) else [f"arg{k}" for k in range(len(shapes))]
    strings, bounds = _shape_strings(list(shapes), names, bounds)
    return Held(call, strings, bounds, names)


def _concrete(fn):
    """The ConcreteFunction that `fn` is or stands for (a serving signature; a restored or
    input_signature function of one traced signature), else None."""
    import tensorflow as tf
    if isinstance(fn, tf.types.experimental.ConcreteFunction):
        return fn
    if isinstance(fn, tf.types.experimental.PolymorphicFunction):
        if getattr(fn, "input_signature", None) is None:
            traced = list(getattr(fn, "_list_all_concrete_functions_for_serialization",
                                  lambda: [])())
            if len(traced) == 1 and type(fn).__name__ == "RestoredFunction":
                return traced[0]
    return None


def _parameters(fn) -> list[str]:
    """The names of fn's positional parameters ([] where it has no signature)."""
    try:
        return [p.name for p in inspect.signature(fn).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return []


def _shape_strings(shapes: list, names: list[str], bounds) -> tuple[list[str], dict]:
    """(an HLO shape string per shape, the bounds by size name)."""
    given = dict(bounds) if isinstance(bounds, dict) else {}
    out_bounds = {k: v for k, v in given.items() if isinstance(k, str)}
    strings = []
    for p, shape in enumerate(shapes):
        if isinstance(shape, str):
            strings.append(shape)
            continue
        if not hasattr(shape, "dtype") or not hasattr(shape, "shape"):
            raise UnsupportedError(f"argument {p} ({names[p]}): a shape is a string "
                                   f"(\"f32[n,16]\") or a tf.TensorSpec, got {shape!r:.80}")
        if shape.shape.rank is None:
            raise UnsupportedError(f"argument {p} ({names[p]}): a TensorSpec of unknown rank "
                                   "has no bound; give its shape")
        element = element_type(np.dtype(shape.dtype.as_numpy_dtype).name)
        dims = []
        for d, dim in enumerate(shape.shape.as_list()):
            if dim is not None:
                dims.append(str(dim))
                continue
            name = f"{names[p]}_{d}"
            bound = given.get(name, given.get((p, d), bounds if not isinstance(
                bounds, dict) else None))
            if bound is None:
                raise UnsupportedError(f"argument {p} ({names[p]}) dimension {d} is None: "
                                       f"give its bound, bounds={{'{name}': B}} (or "
                                       f"{{({p}, {d}): B}}, or one number for every None)")
            out_bounds[name] = bound
            dims.append(name)
        strings.append(f"{element}[{','.join(dims)}]")
    return strings, out_bounds


def _structure(out, counter):
    """The outputs' structure: leaf indices in dicts (keys sorted, as tf.nest), lists and
    tuples; a single output is 0."""
    if isinstance(out, dict):
        return {k: _structure(out[k], counter) for k in sorted(out)}
    if isinstance(out, (list, tuple)):
        return type(out)(_structure(o, counter) for o in out) \
            if not hasattr(out, "_fields") else tuple(_structure(o, counter) for o in out)
    return next(counter)


def pack(structure, flat: list):
    """The outputs `flat` in `structure` (from Held)."""
    if isinstance(structure, dict):
        return {k: pack(v, flat) for k, v in structure.items()}
    if isinstance(structure, (list, tuple)):
        return type(structure)(pack(s, flat) for s in structure)
    return flat[structure]
