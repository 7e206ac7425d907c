"""The one exception hierarchy of dynhlo.

Every error raised on purpose derives from :class:`DynHloError` and names the place it is
about: a line and column of HLO text, an instruction, a parameter (index and name), a
dimension, a size and a bound. Messages are one line that can be shown to a user as is.
"""

from __future__ import annotations

import contextlib
import sys


class DynHloError(Exception):
    """Base of every error dynhlo raises on purpose."""


class HloParseError(DynHloError):
    """Malformed HLO text.

    Attributes:
        line, column: 1-based position in the text where parsing stopped.
        expected: what the parser wanted to see there.
    """

    def __init__(self, message: str, line: int, column: int, source_line: str = ""):
        self.line = line
        self.column = column
        self.source_line = source_line
        text = f"{line}:{column}: {message}"
        if source_line:
            text += f"\n  {source_line}\n  {' ' * (column - 1)}^"
        super().__init__(text)


class HloVerifyError(DynHloError):
    """A structurally valid module whose shapes or operands are inconsistent.

    Attributes:
        instruction: name of the offending instruction (None for module-level problems).
        line, column: 1-based position of the instruction in the parsed text, when known.
    """

    def __init__(self, message: str, instruction: str | None = None,
                 line: int | None = None, column: int | None = None):
        self.message = message
        self.instruction = instruction
        self.line = line
        self.column = column
        super().__init__(self._text())

    def _text(self) -> str:
        where = f"{self.line}:{self.column}: " if self.line is not None else ""
        prefix = f"instruction '{self.instruction}': " if self.instruction else ""
        return where + prefix + self.message

    def locate(self, position: tuple[int, int] | None) -> "HloVerifyError":
        """Set the instruction's (line, column) unless already set; returns self."""
        if position is not None and self.line is None:
            self.line, self.column = position
            self.args = (self._text(),)
        return self


class UnsupportedError(DynHloError):
    """Valid HLO that dynhlo cannot compile (yet): names the opcode, instruction and backend."""


class ArgumentError(DynHloError):
    """Arguments passed to an executable that do not match its entry parameters.

    Attributes:
        parameter: index of the parameter (None when the count is wrong).
        name: the parameter's instruction name.
        dimension, size, bound: the dimension at fault, the size given, its bound.
    """

    def __init__(self, message: str, parameter: int | None = None, name: str | None = None,
                 dimension: int | None = None, size: int | None = None,
                 bound: int | None = None):
        self.parameter = parameter
        self.name = name
        self.dimension = dimension
        self.size = size
        self.bound = bound
        super().__init__(message)


class DynamicSizeError(DynHloError):
    """A dynamic size computed at run time that breaks the module's contract.

    Examples: a set-dimension-size beyond the bound, two different sizes meeting in one
    elementwise op, a dynamic reshape whose sizes do not divide.
    """


class SizeRequirementError(ArgumentError, DynamicSizeError):
    """An argument size below the least that an op of the module's producer accepts
    (TensorFlow's top_k needs k rows, a VALID window its extent: dynhlo.hlo.size_requirements),
    checked before each call: a DynamicSizeError (the op's size contract) that is an
    ArgumentError too (the argument's size is at fault)."""


class IterationLimitError(DynHloError):
    """A while loop ran more iterations than the `max_while_iterations` compile option allows
    (a loop that would never end, or a bigger input than the limit was chosen for)."""


class ResourceExhaustedError(DynHloError):
    """An array larger than its device's memory (XLA: RESOURCE_EXHAUSTED): names the
    instruction, the bytes it needs, the device and what is available."""


class ArtifactError(DynHloError):
    """A serialized executable that cannot be loaded: says which check failed."""


@contextlib.contextmanager
def malformed_as_artifact_error(what: str):
    """Inside, data read from an artifact that lacks a field or has one of another JSON type
    (a hand-made payload: KeyError, TypeError, ValueError, IndexError, AttributeError,
    OverflowError) is an ArtifactError saying `what` is malformed."""
    try:
        yield
    except (KeyError, TypeError, ValueError, IndexError, AttributeError,
            OverflowError) as exc:
        raise ArtifactError(f"{what} is malformed ({type(exc).__name__}: {exc}); "
                            "recompile the artifact") from None


def user_stacklevel() -> int:
    """The `stacklevel` for a warnings.warn made by the caller of this function that points
    at the first frame outside dynhlo: the user's line, whatever the path there (a fixed
    number breaks when a decorator, like compile's gc pause, or another entry point such as
    load over deserialize, adds frames; contextlib's frames are skipped too)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and (frame.f_code.co_filename == contextlib.__file__ or
                                 frame.f_globals.get("__name__", "").split(".")[0] == "dynhlo"):
        frame, level = frame.f_back, level + 1
    return level
