"""Reading the lists an artifact header stores about a module (shape assertions, size
requirements): untrusted data, checked strictly, refused with an ArtifactError that names
the header key or item and what is wrong."""

from __future__ import annotations

from ..errors import ArtifactError


def malformed(where: str, why: str) -> ArtifactError:
    return ArtifactError(f"malformed artifact header: {where}: {why}; recompile the artifact")


def items(data, limit: int, what: str, key: str) -> list:
    """`data` when it is a list of at most `limit` items (`what`: their plural, for the
    message; `key`: the header key), else a malformed-header ArtifactError."""
    if not isinstance(data, list):
        raise malformed(key, f"not a list but {type(data).__name__}")
    if len(data) > limit:
        raise malformed(key, f"{len(data)} {what}, over the limit of {limit}")
    return data


def dimension_problem(params: list, p: int, d: int) -> str | None:
    """Why (p, d) is not an array dimension of one of the entry parameters `params`, as
    "reads ..." (None when it is one)."""
    if not 0 <= p < len(params):
        return f"reads parameter {p}; the module has {len(params)}"
    shape = params[p].shape
    if d < 0 or shape.is_tuple or d >= shape.rank:
        return f"reads dimension {d} of parameter {p}, which is {shape}"
    return None


def is_int(value) -> bool:
    """A Python int, not a bool (JSON's true reads as one)."""
    return isinstance(value, int) and not isinstance(value, bool)
