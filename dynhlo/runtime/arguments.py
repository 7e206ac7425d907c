"""Checking and converting the arguments of an executable against its entry parameters.

Torch tensors and NumPy arrays take a fast path: one whose type, dtype, rank and sizes fit
its parameter is passed on as it is after a few comparisons against a per-parameter summary
made once (`_tensor_spec`, `_array_spec`, memoized on the parameter instruction). Anything that does not fit, and
every other kind of argument, goes through `check_argument`, which converts it or raises
the ArgumentError that names the place.
"""

from __future__ import annotations

import operator

import numpy as np

from ..errors import ArgumentError, SizeRequirementError
from ..hlo.ir import Instruction
from ..hlo.shape import UNBOUNDED
from ..hlo.size_requirements import SizeRequirement
from ..hlo.types import (ARRAY_TYPES, COMPLEX_TYPES, FLOAT_TYPES, INTEGRAL_TYPES,
                         from_numpy_dtype, to_numpy_dtype)


def check_arguments(params: list[Instruction], args: tuple) -> list[np.ndarray]:
    """NumPy arrays for `args`, each checked against its parameter (tensors pass as they are).

    Raises:
        ArgumentError: wrong count, dtype, rank, a static dimension that differs, or a dynamic
            dimension over its bound; names the parameter (index and name), the dimension,
            the size and the bound.
    """
    if len(args) != len(params):
        names = ", ".join(f"{p.parameter_number} '{p.name}' {p.shape}" for p in params)
        raise ArgumentError(f"expected {len(params)} argument(s) ({names}), got {len(args)}")
    out = list(args)
    for k, param in enumerate(params):
        arg = args[k]
        if arg.__class__ is np.ndarray:     # the same fast path for a NumPy array
            spec = param.decoded(_array_spec, _array_spec)
            if spec is not None and arg.dtype == spec[0] and arg.ndim == len(spec[1]):
                for size, bound, dynamic in zip(arg.shape, spec[1], spec[2], strict=True):
                    if (size > bound) if dynamic else (size != bound):
                        break
                else:
                    continue
        elif arg.__class__ in _TENSOR_TYPES:  # the fast path; see the module doc
            element, rank, dims = param.decoded(_tensor_spec, _tensor_spec)
            shape = arg.shape
            if _ELEMENT_OF_TORCH.get(arg.dtype) == element and len(shape) == rank:
                for d, bound, dynamic in dims:
                    size = shape[d]
                    if (size > bound) if dynamic else (size != bound):
                        break
                else:
                    continue
        out[k] = check_argument(param, arg)
    return out


_SIGNATURE = operator.attrgetter("__class__", "dtype", "shape")


def signature(args: tuple) -> list | None:
    """(type, dtype, shape) of each argument, None when one has no dtype or shape (a Python
    number): arguments with the signature of ones check_arguments passed as they are pass
    the same way (a type's dtype and shape are all its fast path reads)."""
    try:
        return list(map(_SIGNATURE, args))
    except AttributeError:
        return None


_TENSOR_TYPES: set = set()          # torch tensor classes seen by check_argument
_ELEMENT_OF_TORCH: dict = {}        # torch dtype -> XLA element type, filled on first sight
_NO_BOUND = float("inf")


def _tensor_spec(param: Instruction):
    """(element type, rank, ((dimension, bound, dynamic), ...)) of an array parameter."""
    shape = param.shape
    if shape.is_tuple or shape.element_type == "token":
        return None, -1, ()
    dims = tuple((d, _NO_BOUND if dynamic and bound == UNBOUNDED else bound, dynamic)
                 for d, (bound, dynamic) in enumerate(zip(shape.dims, shape.dynamic, strict=True)))
    return shape.element_type, shape.rank, dims


def _array_spec(param: Instruction):
    """(NumPy dtype, bounds, dynamic flags) of an array parameter: a NumPy array of that
    dtype (native byte order: dtype equality says so), rank and sizes is passed as it is,
    as check_argument would return it; None for a tuple or token parameter."""
    shape = param.shape
    if shape.is_tuple or shape.element_type not in ARRAY_TYPES:
        return None
    bounds = tuple(_NO_BOUND if dynamic and bound == UNBOUNDED else bound
                   for bound, dynamic in zip(shape.dims, shape.dynamic, strict=True))
    return to_numpy_dtype(shape.element_type), bounds, tuple(shape.dynamic)


def check_argument(param: Instruction, arg) -> np.ndarray:
    where = f"parameter {param.parameter_number} '{param.name}'"
    shape = param.shape
    if not shape.is_tuple and shape.element_type == "token":
        # JAX's ordered effects give ENTRY a token[] parameter; a token carries no data.
        if arg is not None and not (isinstance(arg, np.ndarray) and arg.shape == ()
                                    and arg.dtype == np.bool_):
            raise ArgumentError(f"{where} is a token[]; pass None", param.parameter_number,
                                param.name)
        return np.zeros((), np.bool_)  # the CPU backend's token value
    try:
        array = _TensorView(arg) if _is_torch(arg) else np.asarray(arg)
    except Exception as exc:  # noqa: BLE001 - anything NumPy cannot take is an argument error
        raise ArgumentError(f"{where}: cannot be read as an array ({exc})",
                            param.parameter_number, param.name) from None
    if shape.element_type in ARRAY_TYPES and _is_python_value(arg):
        array = _from_python(param, where, array)
    if isinstance(array, np.ndarray) and not array.dtype.isnative:
        # '>f4' (a .npy written on a big-endian machine) is f32 in another byte order.
        array = array.astype(array.dtype.newbyteorder("="))
    given = from_numpy_dtype(array.dtype)
    if given != shape.element_type:
        raise ArgumentError(f"{where} expects {shape.element_type} ({shape}), got "
                            f"{_describe(arg, array, shape.element_type, given)}",
                            param.parameter_number, param.name)
    if array.ndim != shape.rank:
        raise ArgumentError(f"{where} expects rank {shape.rank} ({shape}), got shape "
                            f"{list(array.shape)}", param.parameter_number, param.name)
    for d, (size, bound, dynamic) in enumerate(zip(array.shape, shape.dims, shape.dynamic,
                                                   strict=True)):
        if not dynamic and size != bound:
            raise ArgumentError(f"{where} dimension {d} is static {bound} in {shape}, got size "
                                f"{size}", param.parameter_number, param.name, d, size, bound)
        if dynamic and bound != UNBOUNDED and size > bound:
            raise ArgumentError(f"{where} dimension {d} has size {size} > bound {bound} in "
                                f"{shape}; pass at most {bound}", param.parameter_number,
                                param.name, d, size, bound)
    if isinstance(array, _TensorView):
        if type(arg).__module__.startswith("torch"):  # it passed: fast path from now on
            _ELEMENT_OF_TORCH[arg.dtype] = given
            _TENSOR_TYPES.add(type(arg))
        return arg
    return array


def _describe(arg, array, element_type: str, given: str | None) -> str:
    """What was passed instead of `element_type`, and the conversion when there is one.

    NumPy reads None and other objects as dtype object and a str as '<U3': name the Python
    type then, not NumPy's code for it, and suggest no astype that cannot work.
    """
    name = to_numpy_dtype(element_type).name
    convert = (f"; convert with .to(torch.{name})" if type(arg).__module__.startswith("torch")
               else f"; convert with .astype({name!r})")
    if given is not None:
        return given + convert
    if arg is None:
        return "None"
    if isinstance(arg, np.ndarray):
        return f"an array of NumPy dtype {array.dtype}" + (
            convert if array.dtype.kind in "biufc" else "")
    return f"a Python {type(arg).__name__} (read as NumPy dtype {array.dtype})"


# Which kinds of Python values an element type takes, as JAX's weak types do: an int fits
# any integer, float or complex type; a float any float or complex type; bool only pred.
_TAKES = {"b": ("pred",), "i": (INTEGRAL_TYPES | FLOAT_TYPES | COMPLEX_TYPES),
          "f": (FLOAT_TYPES | COMPLEX_TYPES), "c": COMPLEX_TYPES}


def _is_python_value(arg) -> bool:
    """A Python bool/int/float/complex, or a (nested) list or tuple of them (not NumPy's)."""
    if isinstance(arg, np.generic):
        return False
    if isinstance(arg, (bool, int, float, complex)):
        return True
    return isinstance(arg, (list, tuple)) and all(_is_python_value(a) for a in arg)


def _from_python(param: Instruction, where: str, array: np.ndarray) -> np.ndarray:
    """Python numbers as the parameter's element type, when every value fits.

    `exe(x, 3)` for an `s32[]` parameter: NumPy reads 3 as int64, which is not the
    parameter's type, but the value is exactly an s32. A value that does not fit (2**40 for
    s32, 1.5 for s32, 1e300 for f32) is an ArgumentError.
    """
    element_type = param.shape.element_type
    target = to_numpy_dtype(element_type)
    if array.size == 0:
        return array.astype(target)
    kind = _python_kind(array)
    if element_type not in _TAKES.get(kind, ()):
        # 2.5 for an s32, True for an f32: an astype would change the value, so no hint of one
        value = next(v for v in array.ravel() if _python_kind(np.asarray(v)) == kind)
        value = value.item() if isinstance(value, np.generic) else value
        raise ArgumentError(f"{where} expects {element_type} ({param.shape}), got a Python "
                            f"{type(value).__name__} ({value!r}), not a value of type "
                            f"{element_type}", param.parameter_number, param.name)
    if array.dtype == object or array.dtype.kind == "u":  # ints past int64: as Python ints
        return _from_python_objects(param, where, array.astype(object), target)
    with np.errstate(all="ignore"):
        converted = array.astype(target)
        back = converted.astype(array.dtype)
    exact = element_type in FLOAT_TYPES | COMPLEX_TYPES and array.dtype.kind in "fc"
    lost = (~np.isfinite(back) & np.isfinite(array)) if exact else (back != array)
    if np.any(lost):
        bad = (array[lost].ravel()[0] if array.ndim else array[()]).item()
        raise ArgumentError(f"{where}: the value {bad!r} does not fit in "
                            f"{element_type} ({param.shape})", param.parameter_number,
                            param.name)
    return converted


def _python_kind(array: np.ndarray) -> str:
    """The kind of Python number NumPy read into `array`: 'b', 'i', 'f' or 'c'. Ints past
    int64 are read as uint64, and past 64 bits (10**20) as Python objects: both are ints."""
    if array.dtype != object:
        return "i" if array.dtype.kind == "u" else array.dtype.kind
    types = {type(v) for v in array.ravel()}
    return "c" if complex in types else "f" if float in types else "i"


def _from_python_objects(param: Instruction, where: str, array: np.ndarray,
                         target: np.dtype) -> np.ndarray:
    """Python numbers NumPy kept as objects (an int past 64 bits among them) converted one
    by one, by the rule of `_from_python`: an int exactly, a float or complex finite."""
    out = np.empty(array.shape, target)
    for index, value in np.ndenumerate(array):
        try:
            with np.errstate(all="ignore"):
                converted = np.array(value, target)
            fits = bool(np.isfinite(converted)) or not np.isfinite(complex(value))
            if isinstance(value, int):
                fits = fits and int(np.real(converted)) == value
        except (OverflowError, ValueError):  # past the type's range, or past f64's
            fits = False
        if not fits:
            raise ArgumentError(f"{where}: the value {value!r} does not fit in "
                                f"{param.shape.element_type} ({param.shape})",
                                param.parameter_number, param.name)
        out[index] = converted
    return out


def _is_torch(arg) -> bool:
    """A torch tensor, or another DLPack device array (CuPy, JAX): checked without a copy."""
    if type(arg).__module__.startswith("torch") and hasattr(arg, "data_ptr"):
        return True
    return hasattr(arg, "__dlpack__") and not isinstance(arg, (np.ndarray, np.generic)) \
        and hasattr(arg, "shape") and hasattr(arg, "dtype")


_TORCH_DTYPES: dict = {}  # torch dtype -> NumPy dtype, filled on first sight


class _TensorView:
    """dtype/ndim/shape of a torch tensor, read without copying it off its device."""

    def __init__(self, tensor):
        dtype = _TORCH_DTYPES.get(tensor.dtype)
        if dtype is None and not type(tensor).__module__.startswith("torch"):
            dtype = np.dtype(tensor.dtype)  # DLPack arrays of NumPy-typed libraries
        if dtype is None:
            import ml_dtypes
            name = str(tensor.dtype).removeprefix("torch.")
            special = {"bfloat16": ml_dtypes.bfloat16, "bool": np.bool_,
                       "float8_e4m3fn": ml_dtypes.float8_e4m3fn,
                       "float8_e5m2": ml_dtypes.float8_e5m2}
            dtype = _TORCH_DTYPES[tensor.dtype] = np.dtype(special.get(name, name))
        self.dtype = dtype
        self.shape = tuple(tensor.shape)
        self.ndim = len(self.shape)


def check_assertions(module, arrays) -> None:
    """Raise ArgumentError with the assertion's message when the arguments' shapes break one
    of the module's `shape_assertions` (objects whose `failure(sizes)` gives a message or
    None, sizes mapping (parameter, dimension) to a size): jax.export's checks on symbolic
    sizes (e.g. n >= 1), which parse_stablehlo keeps on the module, and the least sizes
    TensorFlow requires (a MirrorPad's rows, top_k's k), which from_tf keeps (other modules
    have none): those raise a SizeRequirementError, an ArgumentError and a DynamicSizeError.
    Every call of an executable makes them, after check_arguments (dynhlo's own message
    first)."""
    assertions = module.shape_assertions
    if not assertions:
        return
    sizes = {(p, d): int(s) for p, a in enumerate(arrays) for d, s in enumerate(np.shape(a))}
    for assertion in assertions:
        message = assertion.failure(sizes)
        if message is not None:
            # an op's least size (from_tf's) is a DynamicSizeError too
            raise (SizeRequirementError if isinstance(assertion, SizeRequirement)
                   else ArgumentError)(message)
