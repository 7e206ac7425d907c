"""A module's size requirements (from_tf's least sizes: dynhlo.hlo.size_requirements) as
artifact header data (JSON), and their strict reading back.

The stored form of one requirement is `{"kind": str, "op": str, "param": int, "dim": int,
"name": str, "least": int, "argument": str | null}`, kind one of size_requirements.KINDS.

What is read back is untrusted (a hand-made header passes its checksum): every item must have
exactly these keys, a known kind, strings of bounded length, the parameter and dimension of
one of the module's entry parameters' array dimensions, and a least size in [1, 2**63); the
count is bounded. A requirement is only compared with argument sizes and formatted into a
message from a fixed template: nothing stored is run as code.
"""

from __future__ import annotations

from ..errors import ArtifactError
from ..hlo.ir import HloModule
from ..hlo.size_requirements import KINDS, SizeRequirement
from .stored_lists import dimension_problem, is_int, items, malformed

MAX_REQUIREMENTS = 4096
MAX_NAME = 1024            # characters of an op, size or argument name
INT_LIMIT = 2**63
_KEYS = {"kind", "op", "param", "dim", "name", "least", "argument"}


def to_data(assertions: list) -> list[dict]:
    """The JSON data of a module's size requirements (artifact header key
    `size_requirements`): the SizeRequirements among its `shape_assertions`."""
    return [{"kind": r.kind, "op": r.op, "param": r.where[0], "dim": r.where[1],
             "name": r.name, "least": r.least, "argument": r.argument}
            for r in assertions if isinstance(r, SizeRequirement)]


def from_data(data, module: HloModule) -> list[SizeRequirement]:
    """The size requirements stored as `data`, checked against `module`'s entry parameters.

    Raises:
        ArtifactError: anything that to_data does not write (the message names the
            requirement and what is wrong), or over the limits above.
    """
    data = items(data, MAX_REQUIREMENTS, "requirements", "size_requirements")
    return [_requirement(i, item, module) for i, item in enumerate(data)]


def _bad(index: int, why: str) -> ArtifactError:
    return malformed(f"size requirement {index}", why)


def _requirement(index: int, item, module: HloModule) -> SizeRequirement:
    if not isinstance(item, dict) or set(item) != _KEYS:
        raise _bad(index, f"not an object with exactly the keys {', '.join(sorted(_KEYS))}")
    if item["kind"] not in KINDS:
        raise _bad(index, f"kind {str(item['kind'])[:40]!r} is not one of {', '.join(KINDS)}")
    for key in ("op", "name"):
        if not _is_name(item[key]):
            raise _bad(index, f"{key} is not a non-empty string of at most {MAX_NAME} "
                              "characters")
    if item["argument"] is not None and not _is_name(item["argument"]):
        raise _bad(index, f"argument is neither null nor a non-empty string of at most "
                          f"{MAX_NAME} characters")
    p, d, least = item["param"], item["dim"], item["least"]
    if not all(is_int(v) for v in (p, d, least)) or not 1 <= least < INT_LIMIT:
        raise _bad(index, "param and dim must be integers, least an integer in [1, 2**63)")
    problem = dimension_problem(module.entry.parameters, p, d)
    if problem:
        raise _bad(index, f"it {problem}")
    return SizeRequirement(item["kind"], item["op"], (p, d), item["name"], least,
                           item["argument"])


def _is_name(value) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME


__all__ = ["from_data", "to_data"]
