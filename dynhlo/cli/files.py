"""The `dynhlo` command's files: reading its inputs (modules, artifacts, arguments) and
writing its results, each problem one CliError line that names the file or argument.

Modules are read by `load_module` and compiled or loaded by `load_executable`, the one
place that learns to read AOT artifact files. Nothing read is ever executed as code: .npy
arguments are read with allow_pickle=False, artifacts by runtime/loader.py.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import zipfile
from pathlib import Path

import numpy as np

from ..errors import ArgumentError, DynHloError, HloParseError

# An argument that starts like `f32[` or `(f32[` is literal text; anything else is a file.
_LITERAL_START = re.compile(r"\s*(?:\(\s*)?[a-z][a-z0-9]*\[")  # one way through blanks
_NPY_MAGIC = b"\x93NUMPY"
_ZIP_MAGIC = b"PK\x03\x04"  # a .npz archive


class CliError(DynHloError):
    """A problem with the command line's inputs: a file that cannot be read, a bad argument."""


# -- reading inputs -----------------------------------------------------------------------


_READ: dict[str, bytes] = {}  # path -> contents: a pipe (`<(...)`, /dev/stdin) reads once


def read_bytes(path: str) -> bytes:
    """The contents of a file (`-`: standard input), read once per path; CliError (one line)
    when it cannot be read."""
    if path in _READ:
        return _READ[path]
    try:
        if path != "-" and _is_device(path):
            # /dev/zero or /dev/urandom would be read until memory runs out; pipes (`<(...)`)
            # and regular files are what a module comes in
            raise CliError(f"{path}: is a device, expected a module file (or - for stdin)")
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a directory, expected an HLO text file") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL or a lone surrogate (main() called from Python)
        raise CliError(f"{path!r}: not a file name ({exc})") from None
    _READ[path] = data
    return data


def _is_device(path: str) -> bool:
    mode = os.stat(path).st_mode
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def read_text(path: str) -> str:
    """The text of a file (`-`: standard input); CliError (one line) when it cannot be read."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        kind = "npy" if data.startswith(_NPY_MAGIC) else "npz" if data.startswith(_ZIP_MAGIC) \
            else None
        if kind:  # `dynhlo run x.npy m.hlo`: the arguments before the module
            raise CliError(f"{path}: a NumPy .{kind} file, not a module; give the MODULE "
                           "first: dynhlo run MODULE.hlo ARG...") from None
        raise CliError(f"{path}: not UTF-8 text (byte {exc.start}); expected an HLO text "
                       "file") from None


def load_module(path: str, bounds: dict | None = None):
    """Parse an HLO text file (or StableHLO .mlir/.mlirbc, HloModuleProto .pb/.pbtxt); a parse
    error becomes one line, `PATH:LINE:COLUMN: ...`. `bounds` go to a StableHLO file's import
    (parse_stablehlo's `bounds`)."""
    from ..frontends.files import load_module_file
    from ..hlo.text.parser import parse_hlo
    try:
        module = load_module_file(path, read_bytes(path), bounds)
    except HloParseError as exc:
        raise CliError(f"{path}:{exc.line}:{exc.column}: {_message(exc)}") from None
    except (CliError, ArgumentError):  # already name their file, or the parameter
        raise
    except DynHloError as exc:  # a StableHLO or HloModuleProto import's refusal: which file
        raise CliError(f"{path}: {first_line(exc)}") from None
    if module is not None:
        return module
    text = read_text(path)
    try:
        return parse_hlo(text)
    except HloParseError as exc:
        raise CliError(f"{path}:{exc.line}:{exc.column}: {_message(exc)}") from None


def module_and_options(path: str, options: dict) -> tuple:
    """The module of `path` and the compile options left for it. --bound's bounds go to a
    StableHLO file's import (a jax.export module's `?` dims must be bounded to import at
    all, and are bounded after it), to compile() for HLO text and HloModuleProto files."""
    from ..frontends.files import kind_of
    bounds = options.get("bounds")
    if bounds and kind_of(path, read_bytes(path)) == "stablehlo":
        rest = {k: v for k, v in options.items() if k != "bounds"}
        return load_module(path, bounds), rest
    for name, bound in (bounds or {}).items():
        if not isinstance(bound, dict):
            raise CliError(f"--bound {name}={bound}: NAME=BOUND names a JAX dimension variable "
                           "of a StableHLO file; for this module give NAME:DIM=BOUND (the "
                           "parameter's name or number and its dimension), e.g. x:0=1024")
    return load_module(path), options


def load_executable(path: str, backend: str | None, options: dict | None = None):
    """The executable of `path`: an artifact loaded as is (it names its backend; `backend`,
    when given, must match), or an HLO module compiled for `backend` (default cpu) with
    `options` (compile keywords)."""
    if is_artifact(path) and (options or {}).get("bounds"):
        raise CliError(f"--bound: {path} is already compiled, with its bounds; give --bound "
                       "to `dynhlo compile` instead")
    if is_artifact(path) and (options or {}).get("reference"):
        raise CliError(f"--reference: {path} is already compiled and runs as it was; give the "
                       "module itself (or compile it with `dynhlo compile --reference`)")
    if is_artifact(path):
        from ..errors import ArtifactError
        from ..runtime.loader import deserialize
        try:
            exe = deserialize(read_bytes(path), backend=backend)
        except ArtifactError as exc:
            raise ArtifactError(f"{path}: {exc}") from None
        stored = exe.options.get("precision") or "highest"
        if (options or {}).get("precision", stored) != stored:
            raise CliError(f"{path}: the artifact was compiled with --precision {stored}; "
                           "recompile it with `dynhlo compile --precision "
                           f"{options['precision']}` to change it")
        stored = exe.options.get("padding_reads") or "zeros"
        if (options or {}).get("padding_reads", stored) != stored:
            raise CliError(f"{path}: the artifact was compiled with --padding-reads {stored}; "
                           "recompile it with `dynhlo compile --padding-reads "
                           f"{options['padding_reads']}` to change it")
        return exe
    from ..runtime.executable import compile as compile_module
    module, options = module_and_options(path, options or {})
    return compile_module(module, backend=backend or "cpu", **options)


def is_artifact(path: str) -> bool:
    """True when the file starts with the artifact magic bytes (else it is read as HLO text)."""
    from ..runtime.artifact import MAGIC
    try:
        return read_bytes(path)[:len(MAGIC)] == MAGIC
    except CliError:
        return False  # read_text reports the problem in HLO terms


def is_literal(text: str) -> bool:
    """Whether a `run` argument is HLO literal text (`f32[...`, `(f32[...`), not a file."""
    return _LITERAL_START.match(text) is not None


def forget_reads() -> None:
    """Let the next command read its files afresh (read_bytes reads each path once)."""
    _READ.clear()


def read_argument(index: int, text: str):
    """One `run` argument: a .npy file or HLO literal text such as `f32[2,2] {{1,2},{3,4}}`."""
    if is_literal(text):
        from ..hlo.values import parse_literal_text
        try:
            value = parse_literal_text(text)
        except HloParseError as exc:
            hint = ""
            if re.search(r"<=|\?", text.split("{")[0]):
                hint = " (write the literal at its actual shape, e.g. f32[3,5], not its bound)"
            raise CliError(f"argument {index} {text!r}: column {exc.column}: "
                           f"{_message(exc)}{hint}") from None
        if isinstance(value, tuple):
            raise CliError(f"argument {index} {text!r} is a tuple; entry parameters are arrays, "
                           "so pass each element as its own argument")
        return value
    number = _bare_number(text)
    if number is not None and not os.path.exists(text):
        return number  # a Python number takes the parameter's type when it fits (`3` for s32)
    return _read_npy(index, text)


def _bare_number(text: str):
    """`3` -> 3, `-2.5e3` -> -2500.0, `inf`/`nan` -> float; None for anything else."""
    text = text.strip()
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if re.fullmatch(r"[+-]?(\d+(\.\d*)?([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|nan)", text):
        return float(text)
    return None


def _read_npy(index: int, path: str) -> np.ndarray:
    where = f"argument {index} ({path})"
    try:
        with open(path, "rb") as f:
            magic = f.read(len(_NPY_MAGIC))
            if magic.startswith(_ZIP_MAGIC):  # a zip: np.savez's .npz (-o writes them)
                raise CliError(f"{where}: a .npz archive, not one array; pass each array as "
                               "its own .npy file (np.save), e.g. np.load(npz)['out0']")
            if magic != _NPY_MAGIC:
                raise CliError(f"{where}: not a .npy file (no NumPy header); an argument is a "
                               ".npy file or an HLO literal like \"f32[2] {1, 2}\"")
            f.seek(0)
            # allow_pickle=False: reading an argument must never run code from the file.
            return np.load(f, allow_pickle=False)
    except FileNotFoundError:
        raise CliError(f"{where}: no such file; an argument is a .npy file or an HLO literal "
                       "like \"f32[2] {1, 2}\"") from None
    except (OSError, ValueError, EOFError) as exc:
        raise CliError(f"{where}: cannot read as a .npy array: {first_line(exc)}") from None


# -- results ------------------------------------------------------------------------------


def flatten(result) -> list[np.ndarray]:
    """The arrays of a result in order (nested tuples flattened)."""
    if isinstance(result, tuple):
        return [a for r in result for a in flatten(r)]
    return [np.asarray(result)]


def actual_shape(result):
    """The static shape of a result at its actual sizes (a TupleShape for tuples)."""
    from ..hlo.shape import Shape, TupleShape
    from ..hlo.types import from_numpy_dtype
    if isinstance(result, tuple):
        return TupleShape(tuple(actual_shape(r) for r in result))
    array = np.asarray(result)
    return Shape(from_numpy_dtype(array.dtype), array.shape, (False,) * array.ndim)


def format_result(result) -> str:
    """`f32[3,5] {...}`: the result as HLO literal text that parse_literal_text reads back."""
    from ..hlo.literal import format_literal
    shape = actual_shape(result)
    return f"{shape} {format_literal(result, shape)}"


def check_output_path(path: str, inputs: list[str], example: str = "out.npz") -> None:
    """Refuse an output path that is a directory or one of the command's input files.

    `-o` overwrites an existing file (as numpy.savez does), but never the module or an
    argument the command reads: that would destroy the user's input.
    """
    if os.path.isdir(path):
        raise CliError(f"-o {path}: is a directory; give a file name, e.g. "
                       f"{os.path.join(path, example)}")
    for source in inputs:
        try:
            same = os.path.samefile(path, source)
        except OSError:  # one of them does not exist: not the same file
            same = False
        if same:
            raise CliError(f"-o {path}: is the input file {source}; refusing to overwrite "
                           "it (choose another output name)")


_RESULT_ENTRY = re.compile(r"out\d+\.npy")  # what save_outputs writes: out0.npy, out1.npy, ...


def check_results_replaceable(path: str) -> None:
    """Refuse `run -o PATH` where PATH holds anything but an earlier run's results.

    Only a missing or empty file, or an .npz archive of out0, out1, ... (what save_outputs
    writes), is replaced: a module, an artifact, an argument or any other file the user has
    is never lost to the results (as `compile -o` replaces only an artifact).
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CliError(f"-o {path}: {exc.strerror or exc}") from None
    if stat.S_ISREG(info.st_mode) and (info.st_size == 0 or _holds_results(path)):
        return
    what = "is not a regular file" if not stat.S_ISREG(info.st_mode) else \
        "exists and is not the results of an earlier `dynhlo run -o` (an .npz of out0, out1, ...)"
    other = os.path.splitext(path)[0] + ".npz"
    raise CliError(f"-o {path}: {what}; refusing to replace it (choose another name"
                   + (f", e.g. {other})" if other != path else ")"))


def _holds_results(path: str) -> bool:
    """True when `path` is a zip archive whose entries are all out<N>.npy."""
    try:
        with zipfile.ZipFile(path) as archive:
            return all(_RESULT_ENTRY.fullmatch(name) for name in archive.namelist())
    except (OSError, zipfile.BadZipFile, ValueError):  # ValueError: a corrupt directory
        return False


def save_outputs(path: str, outputs: list[np.ndarray]) -> None:
    """Write OUT.npz (keys out0, out1, ...) through a temporary file, so that a failed write
    never leaves a truncated file where an old one was."""
    directory, name = os.path.split(os.path.abspath(path))
    temp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")  # open() keeps the umask
    try:
        with open(temp, "xb") as f:  # a file object: np.savez must not append ".npz"
            np.savez(f, **{f"out{i}": a for i, a in enumerate(outputs)})
        os.replace(temp, path)
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def first_line(exc: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none)."""
    lines = str(exc).splitlines()
    return lines[0] if lines else type(exc).__name__


def _message(exc: HloParseError) -> str:
    """A parse error's message without its `line:column: ` prefix."""
    return first_line(exc).split(": ", 1)[-1]
