"""Decoders for attribute text (`dimensions={1,0}`, `slice={[0:5:1]}`, `padding=0_1x2_3`, ...).

Also XLA's dimension-number groups (dot, gather, scatter) decoded at once, so shape rules and
lowerings read them the same way.

Attributes stay in the IR as written; these functions decode them on demand and memoize the
result on the instruction. A malformed value is an HloVerifyError naming the instruction.
Formats: xla/hlo/parser/hlo_parser.cc (ParseAttributes and friends).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import HloVerifyError
from .ir import Instruction

_INT = re.compile(r"-?\d+")
_PLAIN_INTS = re.compile(r"\{((?:-?\d+,)*-?\d+)?\}")   # `{1,0}` as printers write it
_AFTER_EQUALS = re.compile(r"=\s+")


def _bad(inst: Instruction, key: str, what: str) -> HloVerifyError:
    return HloVerifyError(f"attribute {key}={inst.attrs.get(key)!r} is not {what}", inst.name)


def ints(inst: Instruction, key: str, default: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """`{1,0}` -> (1, 0). Missing: `default`, or an error when no default is given."""
    done = inst._decoded.get(("ints", key))   # decoded before: no decoder to build
    if done is not None:
        return done

    def decode(i):
        text = i.attrs.get(key)
        if text is None:
            if default is None:
                raise HloVerifyError(f"{i.opcode.value} needs attribute {key}=", i.name)
            return default
        plain = _PLAIN_INTS.fullmatch(text)
        if plain is not None:   # no spaces, no empty entries: what the general path gives
            return tuple(map(int, plain.group(1).split(","))) if plain.group(1) else ()
        body = text.strip()
        if body.startswith("{") and body.endswith("}"):
            body = body[1:-1]
        parts = [p.strip() for p in body.split(",") if p.strip()]
        if not all(_INT.fullmatch(p) for p in parts):
            raise _bad(i, key, "a list of integers like {1,0}")
        return tuple(int(p) for p in parts)
    return inst.decoded(("ints", key), decode)


def integer(inst: Instruction, key: str, default: int | None = None) -> int:
    done = inst._decoded.get(("int", key))
    if done is not None:
        return done

    def decode(i):
        text = i.attrs.get(key)
        if text is None:
            if default is None:
                raise HloVerifyError(f"{i.opcode.value} needs attribute {key}=", i.name)
            return default
        if not _INT.fullmatch(text.strip()):
            raise _bad(i, key, "an integer")
        return int(text)
    return inst.decoded(("int", key), decode)


def string(inst: Instruction, key: str, default: str | None = None) -> str | None:
    """A bare word or a quoted string, unquoted."""
    text = inst.attrs.get(key)
    if text is None:
        return default
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].encode().decode("unicode_escape")
    return text


def boolean(inst: Instruction, key: str, default: bool = False) -> bool:
    text = inst.attrs.get(key)
    return default if text is None else text.strip() == "true"


def ffi_char(inst: Instruction, name: str, default: str) -> str:
    """A char attribute of a typed-FFI call (JAX's LAPACK calls): backend_config={uplo = 76 :
    ui8} -> 'L'; `default` where the config does not name it."""
    found = re.search(rf"\b{name}\s*=\s*(\d+)", inst.attrs.get("backend_config", ""))
    if not found:
        return default
    # past a ui8 it is no char: U+FFFD, which no call takes (chr() of it raised ValueError)
    return chr(int(found.group(1))) if int(found.group(1)) < 256 else "\ufffd"


def ffi_bool(inst: Instruction, name: str, default: bool) -> bool:
    """A bool attribute of a typed-FFI call (JAX's GPU solver calls): backend_config={lower =
    true} -> True; `default` where the config does not name it."""
    found = re.search(rf"\b{name}\s*=\s*(true|false)\b", inst.attrs.get("backend_config", ""))
    return found.group(1) == "true" if found else default


def ffi_int(inst: Instruction, name: str) -> int | None:
    """An integer attribute of a typed-FFI call: backend_config={low = 1 : i32} -> 1; None
    where the config does not name it."""
    found = re.search(rf"\b{name}\s*=\s*(-?\d+)\s*:\s*[su]?i\d+\b",
                      inst.attrs.get("backend_config", ""))
    return int(found.group(1)) if found else None


def ffi_uplo(inst: Instruction) -> str:
    """The triangle a factorization reads, 'L' or 'U': LAPACK's char `uplo` (JAX's CPU calls)
    or the bool `lower` (its cuSOLVER/hipSOLVER calls); 'L' where neither is named."""
    return "L" if ffi_bool(inst, "lower", ffi_char(inst, "uplo", "L") == "L") else "U"


def slices(inst: Instruction, key: str = "slice") -> tuple[tuple[int, int, int], ...]:
    """`{[0:5], [1:9:2]}` -> ((0, 5, 1), (1, 9, 2))."""
    def decode(i):
        text = i.attrs.get(key)
        if text is None:
            raise HloVerifyError(f"{i.opcode.value} needs attribute {key}=", i.name)
        out = []
        for part in re.findall(r"\[([^\]]*)\]", text):
            nums = part.split(":")
            if len(nums) not in (2, 3) or not all(_INT.fullmatch(n.strip()) for n in nums):
                raise _bad(i, key, "a list of [start:limit:stride]")
            nums = [int(n) for n in nums] + ([1] if len(nums) == 2 else [])
            out.append(tuple(nums))
        return tuple(out)
    return inst.decoded(("slices", key), decode)


def padding(inst: Instruction, key: str = "padding") -> tuple[tuple[int, int, int], ...]:
    """`0_1_0x2_3` -> ((0, 1, 0), (2, 3, 0)): (low, high, interior) per dimension."""
    def decode(i):
        text = i.attrs.get(key, "").strip()
        if not text:
            return ()
        out = []
        for part in text.split("x"):
            nums = part.split("_")
            if len(nums) not in (2, 3) or not all(_INT.fullmatch(n) for n in nums):
                raise _bad(i, key, "a padding config like 0_1_0x2_3")
            nums = [int(n) for n in nums] + ([0] if len(nums) == 2 else [])
            out.append(tuple(nums))
        return tuple(out)
    return inst.decoded(("padding", key), decode)


def window(inst: Instruction) -> dict[str, list]:
    """`{size=3x3 stride=2x1 pad=0_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1}` -> dict of lists.

    Keys: size, stride, pad (list of (lo, hi)), lhs_dilate, rhs_dilate, window_reversal.
    """
    def decode(i):
        text = i.attrs.get("window", "{}").strip().strip("{}")
        # XLA lexes `size=` as one token and skips blanks and comments after it (the parser
        # turned `size=/*c*/3` into `size= 3`): a value may stand apart from its '='.
        text = _AFTER_EQUALS.sub("=", text)
        fields: dict[str, list] = {}
        for item in text.split():
            name, _, value = item.partition("=")
            try:
                if name == "pad":
                    fields[name] = [tuple(int(n) for n in p.split("_")) for p in value.split("x")]
                elif name == "window_reversal":
                    fields[name] = [v == "true" for v in value.split("x")]
                else:
                    fields[name] = [int(v) for v in value.split("x")]
            except ValueError:
                raise _bad(i, "window", "a window like {size=3x3 stride=1x1}") from None
        return fields
    return inst.decoded("window", decode)


class DotDims(NamedTuple):
    """XLA's DotDimensionNumbers (all default to empty)."""
    lhs_batch: tuple[int, ...]
    rhs_batch: tuple[int, ...]
    lhs_contracting: tuple[int, ...]
    rhs_contracting: tuple[int, ...]


def dot_dims(inst: Instruction) -> DotDims:
    """`lhs_batch_dims`, `rhs_batch_dims`, `lhs_contracting_dims`, `rhs_contracting_dims`."""
    return DotDims(*(ints(inst, key, ()) for key in (
        "lhs_batch_dims", "rhs_batch_dims", "lhs_contracting_dims", "rhs_contracting_dims")))


class GatherDims(NamedTuple):
    """XLA's GatherDimensionNumbers, plus slice_sizes (required)."""
    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...]
    start_indices_batching_dims: tuple[int, ...]
    index_vector_dim: int
    slice_sizes: tuple[int, ...]


def gather_dims(inst: Instruction, index_rank: int) -> GatherDims:
    """A gather's dimension numbers; index_vector_dim defaults to the indices' rank."""
    lists = (ints(inst, key, ()) for key in (
        "offset_dims", "collapsed_slice_dims", "start_index_map", "operand_batching_dims",
        "start_indices_batching_dims"))
    return GatherDims(*lists, integer(inst, "index_vector_dim", index_rank),
                      ints(inst, "slice_sizes"))


class ScatterDims(NamedTuple):
    """XLA's ScatterDimensionNumbers (all lists default to empty)."""
    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    input_batching_dims: tuple[int, ...]
    scatter_indices_batching_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    index_vector_dim: int


def scatter_dims(inst: Instruction, index_rank: int) -> ScatterDims:
    """A scatter's dimension numbers; index_vector_dim defaults to the indices' rank."""
    lists = (ints(inst, key, ()) for key in (
        "update_window_dims", "inserted_window_dims", "input_batching_dims",
        "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"))
    return ScatterDims(*lists, integer(inst, "index_vector_dim", index_rank))


def broadcast_axes(inst: Instruction) -> tuple[tuple[int, ...] | None, tuple[int, ...]]:
    """(the operand's axes in the order of the result dimensions they map to, or None where
    that is their own order; those result dimensions, increasing) of a broadcast. XLA's
    `dimensions` need not increase: a broadcast that lists them out of order transposes
    (HloVerifier::HandleBroadcast checks only that each operand dimension maps to a result
    dimension of its size), so a backend that views the operand at the result's rank first
    puts its axes in that order."""
    mapped = ints(inst, "dimensions", ())
    order = tuple(sorted(range(len(mapped)), key=mapped.__getitem__))
    return (None if order == tuple(range(len(mapped))) else order), tuple(sorted(mapped))
