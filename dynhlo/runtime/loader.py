"""Loading artifacts: checked artifact bytes (dynhlo.runtime.artifact) -> executables.

Each bucket's program goes through the compile driver's load path (dynhlo.compiler: parse and
verify each stored module once, infer, the backend's pipeline, infer, the backend's load of
its payload), so nothing is compiled unless the caller asks for a recompile (another target,
or a program the backend refuses here).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from ..backends import BACKENDS
from ..compiler import checked, load_program
from ..errors import ArtifactError, DynHloError, UnsupportedError, user_stacklevel
from ..gc_pause import gc_paused
from ..hlo.ir import HloModule
from .artifact import Artifact, _as_path, read_artifact, read_regular
from .buckets import BucketedExecutable
from ..options import check_padding_reads, check_while_limit, strict_precision
from .executable import Executable, compile
from .module_text import keep_in_text
from .stored_assertions import from_data
from .stored_constants import StoredConstants
from .stored_requirements import from_data as requirements_from_data


@gc_paused()
def deserialize(data: bytes, backend: str | None = None, target: str | None = None,
                recompile: bool = False):
    """The executable in artifact bytes, loaded without compiling (stats stay unchanged).

    Args:
        backend, target: what the caller expects; a mismatch is an ArtifactError.
        recompile: when the stored programs do not fit (another `target` asked for, or the
            backend refuses them here, e.g. a GPU of another architecture), compile the
            stored modules again (for `target`, else the backend's default) with a warning,
            instead of raising. Checksums and the header are checked either way.

    Returns an Executable, or a BucketedExecutable for an artifact with several buckets.

    Raises:
        ArtifactError: any check of read_artifact, another backend or target than expected,
            or sections the backend cannot load.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ArtifactError(f"deserialize() takes the bytes of an artifact, got "
                            f"{type(data).__name__}; use dynhlo.load(path) for a file")
    artifact = read_artifact(bytes(data))
    if backend is not None and backend != artifact.backend:
        raise ArtifactError(f"artifact is for backend '{artifact.backend}', asked for "
                            f"'{backend}'; compile the module for '{backend}'")
    if artifact.backend == "cpu" and target not in (None, artifact.target):
        raise ArtifactError(f"artifact holds code for target '{artifact.target}', asked for "
                            f"'{target}'; the cpu backend has the one target "
                            f"'{artifact.target}'")
    if target is not None and target != artifact.target and not recompile:
        raise ArtifactError(f"artifact holds code for target '{artifact.target}', asked for "
                            f"'{target}'; recompile with dynhlo.load(path, target='{target}', "
                            "recompile=True) or `dynhlo compile --target`")
    if target is not None and target != artifact.target:
        return build_executable(artifact, _Recompile(target))
    return build_executable(artifact, _Recompile(target) if recompile else None)


@dataclass
class _Recompile:
    """How to recompile: the target asked for (None: the backend's default)."""

    target: str | None


# -- building executables from a checked artifact

def build_executable(artifact: Artifact, recompile: _Recompile | None = None):
    """Executables for every bucket of a checked artifact; compiles only as `recompile` says:
    at once for another target, else when the backend refuses the stored program."""
    parsed: dict[str, HloModule] = {}
    constants = _stored_constants(artifact)
    source = _module_of(artifact, artifact.header["module"], parsed, constants)
    precision = _header_precision(artifact.header["options"])
    modules = [_module_of(artifact, entry["module"], parsed, constants)
               for entry in artifact.header["buckets"]]
    constants.check_all_read()
    assertions = _stored_assertions(artifact, source)
    for module in parsed.values():   # each bucket's executable checks them, as compiled
        module.shape_assertions = list(assertions)
        keep_in_text(module)   # and its text, printed, keeps them as the saved one's did
    exes = {}
    for entry, module in zip(artifact.header["buckets"], modules, strict=True):
        exes[entry["bound"]] = _program_for(artifact, module, entry, recompile)
        _check_program_precision(exes[entry["bound"]], precision, entry)
    options = dict(artifact.header["options"])
    try:  # a run option: kept in the header, not the payload
        limit = check_while_limit(options.get("max_while_iterations"))
    except UnsupportedError as exc:
        raise ArtifactError(f"malformed artifact header: option {exc}") from None
    padding = _header_padding_reads(options)
    for entry in artifact.header["buckets"]:
        exes[entry["bound"]].program.while_limit = limit
        _set_padding_reads(exes[entry["bound"]], padding, entry)
    if not artifact.header["bucket_dims"]:
        exe = exes[None]
        exe.options = options
        return exe
    dims = [tuple(d) for d in artifact.header["bucket_dims"]]
    _check_bucket_dims(source, dims)
    return BucketedExecutable(source, dims, exes, options)


def _stored_assertions(artifact: Artifact, source: HloModule) -> list:
    """The module's shape assertions (jax.export's n >= 1) and size requirements (from_tf's
    least sizes), read strictly; none in a file of a version that did not store them."""
    assertions = [] if artifact.format_version < 2 else \
        from_data(artifact.header["shape_assertions"], source)
    if artifact.format_version < 3:
        return assertions
    return assertions + requirements_from_data(artifact.header["size_requirements"], source)


def _header_precision(options: dict) -> str:
    """The header's `precision` compile option ("highest" when absent or null, as
    compile() reads it); ArtifactError for a value dynhlo does not write."""
    return strict_precision(options.get("precision"), "malformed artifact header: option")


def _header_padding_reads(options: dict) -> str:
    """The header's `padding_reads` compile option ("zeros" when absent: artifacts written
    before the option); ArtifactError for a value dynhlo does not write."""
    try:
        return check_padding_reads(options.get("padding_reads"))
    except UnsupportedError as exc:
        raise ArtifactError(f"malformed artifact header: option {exc}") from None


def _set_padding_reads(exe, mode: str, entry: dict) -> None:
    """The header's padding_reads on the program: the cpu's is a setting; a gpu plan was
    made with one (kept in its payload), which must be the header's."""
    built = exe.program.padding_reads
    if built == mode:
        return
    if not hasattr(exe.program, "plan"):
        exe.program.padding_reads = mode
        return
    raise ArtifactError(f"{_label(entry)} was built with padding_reads {built!r}, the "
                        f"header says {mode!r}; recompile the artifact")


def _check_program_precision(exe, precision: str, entry: dict) -> None:
    """ArtifactError unless the program was built with the header's precision: the header
    is what the CLI's --precision check and `inspect` read, the program (a GPU payload's own
    field) what runs, so a hand-edited file must not say one and compute the other."""
    built = getattr(exe.program, "precision", precision)   # the cpu keeps none
    if built != precision:
        raise ArtifactError(f"{_label(entry)} was built with precision {built!r}, the "
                            f"header says {precision!r}; recompile the artifact")


def _stored_constants(artifact: Artifact) -> StoredConstants:
    """The large constants the module texts refer to (none before format version 4)."""
    if artifact.format_version < 4:
        return StoredConstants(b"", [])
    return StoredConstants(artifact.sections.get("constants", b""),
                           artifact.header["constants"])


def stored_module(artifact: Artifact) -> HloModule:
    """The module an artifact was compiled from (as given, before bucketing), parsed and
    verified, its large constants read from the file, with the size checks it was stored
    with (inference reads their equalities); for `dynhlo inspect`.

    Raises ArtifactError naming the section, the constant or the check that is wrong."""
    module = _module_of(artifact, artifact.header["module"], {}, _stored_constants(artifact))
    module.shape_assertions = _stored_assertions(artifact, module)
    return module


def _module_of(artifact: Artifact, section: str, parsed: dict,
               constants: StoredConstants) -> HloModule:
    if section not in parsed:
        try:
            parsed[section] = checked(artifact.sections[section].decode("utf-8"), constants)
        except ArtifactError:
            raise   # a stored constant: its message names it
        except UnicodeDecodeError as exc:   # a hand-made file whose checksums were redone
            raise ArtifactError(f"section '{section}' is not UTF-8 HLO text ({exc.reason} "
                                f"at byte {exc.start})") from None
        except DynHloError as exc:
            raise ArtifactError(f"section '{section}' does not hold a valid HLO module: "
                                f"{exc}") from None
    return parsed[section]


def _check_bucket_dims(source: HloModule, dims: list) -> None:
    params = source.entry.parameters
    for number, d in dims:
        if number >= len(params) or d >= params[number].shape.rank or params[
                number].shape.is_tuple or not params[number].shape.dynamic[d]:
            raise ArtifactError(f"malformed artifact header: bucket dimension {d} of "
                                f"parameter {number} is not a dynamic dimension of the module")


def _load_program(artifact: Artifact, module: HloModule, entry: dict):
    if artifact.backend not in BACKENDS:
        raise ArtifactError(f"artifact is for backend '{artifact.backend}', which this dynhlo "
                            "does not have")
    payload = {key: artifact.sections[name] for key, name in entry["program"].items()}
    try:
        program = load_program(module, artifact.backend, payload, artifact.target)
    except ArtifactError:
        raise
    except DynHloError as exc:
        raise ArtifactError(f"cannot load {_label(entry)}: {exc}") from None
    except (KeyError, ValueError, TypeError) as exc:  # malformed sections of a hand-made file
        raise ArtifactError(f"{_label(entry)}: malformed program sections "
                            f"({type(exc).__name__}: {exc})") from None
    return Executable(module, program, {"backend": artifact.backend})


def _label(entry: dict) -> str:
    bound = entry["bound"]
    return "the artifact's program" if bound is None else f"the artifact's bucket {bound}"


def _program_for(artifact: Artifact, module: HloModule, entry: dict,
                 recompile: _Recompile | None):
    if recompile is not None and recompile.target not in (None, artifact.target):
        return _compile_for(artifact, module, recompile.target)
    try:
        return _load_program(artifact, module, entry)
    except (ArtifactError, UnsupportedError) as exc:
        if recompile is None:
            raise
        warnings.warn(f"recompiling {_label(entry)}: {exc}",
                      RuntimeWarning, stacklevel=user_stacklevel())
        return _compile_for(artifact, module, recompile.target)


def _compile_for(artifact: Artifact, module: HloModule, target: str | None):
    """Compile a stored module with the artifact's backend options, for `target`."""
    options = {k: v for k, v in artifact.header["options"].items()
               if k not in ("backend", "bounds", "buckets", "target")}
    if target is not None:
        options["target"] = target
    return compile(module, artifact.backend, **options)


def load(path, backend: str | None = None, target: str | None = None,
         recompile: bool = False):
    """The executable in the artifact file at `path` (written by `exe.save` or `dynhlo
    compile`), loaded without compiling: deserialize() of the file's bytes.

    Args:
        path: a str or os.PathLike.
        backend, target: what the caller expects; a mismatch is an ArtifactError.
        recompile: compile the stored modules again when the stored programs do not fit
            here (see deserialize).

    Returns an Executable, or a BucketedExecutable for an artifact with several buckets;
    call it as the executable that was saved.

    Raises:
        ArtifactError: the file cannot be read or is not a regular file (a FIFO or a
            device), or any check of deserialize fails (magic bytes, versions, checksums,
            backend, target); the message starts with the path.
    """
    path = _as_path(path, "load")
    data = read_regular(path)
    try:
        return deserialize(data, backend, target, recompile)
    except ArtifactError as exc:
        raise ArtifactError(f"{path}: {exc}") from None


__all__ = ["build_executable", "deserialize", "load", "stored_module"]
