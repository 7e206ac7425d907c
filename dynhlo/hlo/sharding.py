"""XLA's `sharding=` attribute (HloSharding): its grammar, its checks against a shape, and
which piece of a full array each partition holds.

Grammar (XLA's hlo_parser.cc ParseSharding / ParseSingleSharding): `{replicated}`,
`{maximal device=N}`, `{manual}`, `{unknown}`, `{unreduced}`, a tiled sharding
`{devices=[a,b,...]<=[N]}` or `<=[x,y]T(1,0)` (an iota tile assignment: the ids 0..N-1
reshaped and transposed) or `{devices=[a,b,...]0,1,2,3}` (listed), with
`last_tile_dim_replicate` or `last_tile_dims={replicated, manual, ...}` for trailing tile dims
that are subgroups rather than data tiles; any of them with `metadata={...}` and
`shard_as N` / `shard_like N`. A tuple's sharding is `{{...}, {...}}`, one per leaf array. A
named sharding (`{mesh[...], ...}`) is kept unread. The parser refuses what XLA's parser
refuses (a listed assignment whose device count is not the product of its dims; an iota
whose size is not), and never materialises a tile assignment to do so.

Checks (XLA's HloSharding::Validate, which XLA's verifier runs on every instruction with a
sharding, with num_devices = num_partitions when that is above 1): a tuple sharding goes on
a tuple shape with one element per leaf, a single sharding on a tuple applies to every leaf
(XLA's parser normalises it so); a tiled sharding tiles exactly the array's rank (its tile
dims less the subgroup dims) with more than one device; each device is >= 0, named once,
below num_devices, and, with num_devices known, every device is named.

The tile of partition p is the position of p in the tile assignment; its piece of dimension
d is the d-th of `dims[d]` equal slices (dynhlo refuses sizes that do not divide, where XLA
pads the last piece).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

import numpy as np

from ..errors import HloVerifyError, UnsupportedError
from .shape import AnyShape, Shape, leaf_shapes

MAX_TILES = 1 << 16
"""The most devices a tile assignment may have to be materialised (the launcher needs one
process per device, so it never meets more): an iota's count is checked first."""

SUBGROUP_TYPES = ("manual", "maximal", "replicated", "unreduced")
"""The types `last_tile_dims={...}` may name (XLA's ParseListShardingType)."""


@dataclass(frozen=True)
class Sharding:
    """One array's sharding.

    Attributes:
        kind: "replicated", "maximal", "manual", "unknown", "unreduced", "tiled" or "named".
        dims: a tiled sharding's tile assignment shape (data tile dims, then subgroup dims).
        devices: a listed tile assignment's devices in row-major order, or a maximal
            sharding's one device; None for an iota assignment.
        iota: an iota assignment's (reshape dims, transpose permutation).
        subgroups: the types of the trailing subgroup dims (last_tile_dim_replicate is
            ("replicated",)).
    """

    kind: str = "replicated"
    dims: tuple[int, ...] = ()
    devices: tuple[int, ...] | None = None
    iota: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    subgroups: tuple[str, ...] = ()

    @property
    def rank(self) -> int:
        """The number of data dims a tiled sharding cuts."""
        return len(self.dims) - len(self.subgroups)

    @property
    def count(self) -> int:
        """The number of devices of a tiled sharding's assignment (no array is made)."""
        return math.prod(self.dims)

    @functools.cached_property
    def tiles(self) -> np.ndarray | None:
        """A tiled sharding's tile assignment as an int array; None for a whole array."""
        if self.kind != "tiled":
            return None
        if self.count > MAX_TILES:
            raise UnsupportedError(f"a tile assignment of {self.count} devices (dynhlo "
                                   f"materialises at most {MAX_TILES})")
        if self.devices is not None:
            tiles = np.array(self.devices, dtype=np.int64).reshape(self.dims)
        else:
            reshape, perm = self.iota
            tiles = np.arange(self.count).reshape(reshape).transpose(perm).reshape(self.dims)
        tiles.flags.writeable = False  # parse_sharding's results are shared (cached)
        return tiles

    def tile_of(self, partition: int) -> tuple[int, ...] | None:
        """The data tile coordinates of `partition` (None: the whole array)."""
        if self.tiles is None:
            return None
        where = np.argwhere(self.tiles == partition)
        if not len(where):
            raise UnsupportedError(f"partition {partition} holds no tile of sharding "
                                   f"{self.tiles.tolist()}")
        return tuple(int(i) for i in where[0][:self.rank])

    def piece(self, full: np.ndarray, partition: int, where: str) -> np.ndarray:
        """`partition`'s piece of `full` (UnsupportedError when a size does not divide)."""
        tile = self.tile_of(partition)
        if tile is None:
            return full
        self._check(full.shape, where)
        index = tuple(slice(t * (n // k), (t + 1) * (n // k))
                      for t, n, k in zip(tile, full.shape, self.dims[:self.rank], strict=True))
        return np.asarray(full[index], order="C")

    def assemble(self, pieces: list[np.ndarray], where: str) -> np.ndarray:
        """The full array from `pieces[p]`, partition p's piece (the first holder of a tile)."""
        if self.tiles is None:
            return pieces[self.devices[0] if self.kind == "maximal" else 0]
        grid = np.empty(self.dims[:self.rank], dtype=object)
        for p, piece in enumerate(pieces):
            tile = self.tile_of(p)
            if grid[tile] is None:
                grid[tile] = piece
        return np.block(grid.tolist()) if self.rank else pieces[0]

    def _check(self, shape, where):
        if len(shape) != self.rank:
            raise UnsupportedError(f"{where}: a sharding of {self.rank} tiled dims for a "
                                   f"rank-{len(shape)} array")
        for d, (n, k) in enumerate(zip(shape, self.dims[:self.rank], strict=True)):
            if n % k:
                raise UnsupportedError(f"{where}: dimension {d} of size {n} does not split "
                                       f"into {k} equal pieces")


WHOLE = Sharding()

AnySharding = Sharding | tuple  # a tuple of Shardings: a tuple sharding, one per leaf


@functools.lru_cache(maxsize=512)
def parse_sharding(text: str | None) -> AnySharding:
    """A Sharding, or a tuple of them for a tuple sharding; WHOLE for None.

    Raises HloVerifyError (no instruction named: the caller names it) for text XLA's parser
    refuses, saying what is wrong.
    """
    if text is None:
        return WHOLE
    reader = _Reader(text)
    reader.expect("{", "to start the sharding")
    if reader.peek() in ("{", "}"):
        elements = []
        while reader.peek() != "}":
            if elements:
                reader.expect(",", "between tuple elements")
            reader.expect("{", "to start a tuple element")
            elements.append(_single(reader))
        reader.take()
        result = tuple(elements)
    else:
        result = _single(reader)
    reader.end()
    return result


def check_sharding(sharding: AnySharding, shape: AnyShape, num_devices: int | None) -> None:
    """XLA's HloSharding::Validate: HloVerifyError (no instruction named) when `sharding`
    cannot be the sharding of a value of `shape` on `num_devices` devices (None: unknown)."""
    if not shape.is_tuple and shape.element_type == "token":
        return
    leaves = leaf_shapes(shape)
    if isinstance(sharding, tuple):
        if not shape.is_tuple:
            raise HloVerifyError(f"a tuple sharding ({len(sharding)} elements) on the array "
                                 f"{shape}")
        if not leaves and len(sharding) <= 1:
            return  # XLA: an empty tuple may have one sharding, or none
        if len(sharding) != len(leaves):
            raise HloVerifyError(f"a tuple sharding of {len(sharding)} elements for {shape}, "
                                 f"which has {len(leaves)} arrays")
        for i, (element, leaf) in enumerate(zip(sharding, leaves, strict=True)):
            try:
                _check_single(element, leaf, num_devices)
            except HloVerifyError as exc:
                raise HloVerifyError(f"tuple element {i}: {exc.message}") from None
        return
    for leaf in leaves:  # a single sharding on a tuple is every leaf's
        _check_single(sharding, leaf, num_devices)


def _check_single(sharding: Sharding, shape: Shape, num_devices: int | None) -> None:
    if sharding.kind == "maximal":
        _check_device(sharding.devices[0], num_devices)
    if sharding.kind != "tiled":
        return
    if sharding.count == 1:
        raise HloVerifyError("a tile assignment of one device; write {replicated} or "
                             "{maximal device=0}")
    if shape.rank != sharding.rank:
        extra = (f" after {len(sharding.subgroups)} subgroup dim(s) "
                 f"({', '.join(sharding.subgroups)})" if sharding.subgroups else "")
        raise HloVerifyError(f"the tile assignment {list(sharding.dims)} tiles "
                             f"{sharding.rank} dimension(s){extra}, but {shape} has rank "
                             f"{shape.rank}")
    if sharding.devices is None:  # an iota names 0..count-1, each once
        if num_devices is not None and sharding.count != num_devices:
            raise HloVerifyError(f"the tile assignment names {sharding.count} devices; the "
                                 f"module has {num_devices} (num_partitions)")
        return
    seen: set[int] = set()
    for device in sharding.devices:
        _check_device(device, num_devices)
        if device in seen:
            raise HloVerifyError(f"device {device} is named twice in the tile assignment")
        seen.add(device)
    if num_devices is not None and len(seen) != num_devices:
        missing = next(i for i in range(num_devices) if i not in seen)  # at most len(seen)
        raise HloVerifyError(f"the tile assignment names {len(seen)} devices but not device "
                             f"{missing}; the module has {num_devices} (num_partitions), "
                             "each named once")


def _check_device(device: int, num_devices: int | None) -> None:
    if device < 0:
        raise HloVerifyError(f"device {device} is negative")
    if num_devices is not None and device >= num_devices:
        raise HloVerifyError(f"device {device} is not a device of the module "
                             f"(num_partitions={num_devices}: devices 0..{num_devices - 1})")


# --- the grammar --------------------------------------------------------------------------

_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+)|([A-Za-z_][\w.]*)(\s*=)?'
                    r'|(<=|[{}\[\](),])|(\S))')
_KINDS = ("replicated", "maximal", "manual", "unknown", "unreduced")


class _Reader:
    """The tokens of a sharding's text: strings, integers, words, `word=`, punctuation, and
    any other character alone (the grammar refuses it, or a named sharding's body skips it)."""

    def __init__(self, text: str):
        self.tokens: list[str] = []
        pos, text = 0, text.rstrip()
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            word = match[3] + "=" if match[3] and match[4] else None
            self.tokens.append(word or next(g for g in match.groups() if g is not None))
            pos = match.end()
        self.i = 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise HloVerifyError("the sharding ends early (a '}' is missing)")
        self.i += 1
        return token

    def expect(self, token: str, why: str) -> None:
        got = self.take()
        if got != token:
            raise HloVerifyError(f"expected '{token}' {why}, found '{got}'")

    def integer(self, what: str) -> int:
        got = self.take()
        if not re.fullmatch(r"-?\d{1,18}", got):  # XLA's are int64
            raise HloVerifyError(f"expected an integer ({what}), found '{got[:24]}'")
        return int(got)

    def integers(self, what: str) -> list[int]:
        """`int (, int)*`."""
        out = [self.integer(what)]
        while self.peek() == ",":
            self.take()
            out.append(self.integer(what))
        return out

    def bracketed(self, what: str) -> list[int]:
        self.expect("[", f"to start {what}")
        out = self.integers(what)
        self.expect("]", f"to end {what}")
        return out

    def skip_braced(self, depth: int = 0) -> None:
        """A `{...}` value (metadata=), nested braces included; with depth=1, the rest of a
        body whose '{' was read (a named sharding's)."""
        if not depth:
            self.expect("{", "to start the value")
            depth = 1
        while depth:
            token = self.take()
            depth += (token == "{") - (token == "}")

    def end(self) -> None:
        if self.peek() is not None:
            raise HloVerifyError(f"unexpected '{self.peek()}' after the sharding's '}}'")


def _single(reader: _Reader) -> Sharding:
    """One sharding's body after its '{', through its '}' (ParseSingleSharding)."""
    if reader.peek() in ("mesh", "maximal_mesh"):
        reader.skip_braced(depth=1)
        return Sharding("named")
    kinds: list[str] = []
    devices: list[int] | None = None
    dims: list[int] = []
    iota = None
    subgroups: list[str] = []
    replicate = False
    while reader.peek() != "}":
        token = reader.take()
        if token in _KINDS:
            kinds.append(token)
        elif token == "last_tile_dim_replicate":
            replicate = True
        elif token in ("shard_as", "shard_like"):
            reader.integer(f"{token}'s group")
        elif token == "device=":
            devices = [reader.integer("device=")]
        elif token == "devices=":
            dims, devices, iota = _tile_assignment(reader)
        elif token == "metadata=":
            reader.skip_braced()
        elif token == "last_tile_dims=":
            subgroups.extend(_subgroup_types(reader))
        else:
            raise HloVerifyError(f"unexpected '{token}' in the sharding (expected replicated, "
                                 "maximal, manual, unknown, unreduced, device=, devices=, "
                                 "last_tile_dim_replicate, last_tile_dims=, metadata=, "
                                 "shard_as or shard_like)")
    reader.take()
    if replicate and subgroups:  # XLA's parser CHECK-fails on both
        raise HloVerifyError("last_tile_dim_replicate and last_tile_dims= together (write "
                             "last_tile_dims={..., replicated})")
    return _make(kinds, devices, dims, iota, subgroups + ["replicated"] * replicate)


def _tile_assignment(reader: _Reader):
    """`[dims]` then `<=[reshape]` with an optional `T(perm)`, or a device list."""
    dims = reader.bracketed("the tile assignment dims")
    if any(d < 1 for d in dims):
        raise HloVerifyError(f"tile assignment dims {dims}: each must be >= 1")
    if reader.peek() != "<=":
        return dims, reader.integers("a device"), None
    reader.take()
    reshape = reader.bracketed("the iota dims")
    perm = list(range(len(reshape)))
    if reader.peek() == "T":
        reader.take()
        reader.expect("(", "after T")
        perm = reader.integers("a transpose dim")
        reader.expect(")", "to end T(...)")
    if any(d < 1 for d in reshape) or sorted(perm) != list(range(len(reshape))):
        raise HloVerifyError(f"iota <=[{_join(reshape)}]T({_join(perm)}): the dims must be "
                             ">= 1 and T a permutation of their positions")
    if math.prod(reshape) != math.prod(dims):
        raise HloVerifyError(f"the iota tile assignment has {math.prod(reshape)} devices but "
                             f"its dims {dims} hold {math.prod(dims)}")
    return dims, None, (tuple(reshape), tuple(perm))


def _join(values) -> str:
    return ",".join(map(str, values))


def _subgroup_types(reader: _Reader) -> list[str]:
    reader.expect("{", "to start last_tile_dims")
    types = []
    while reader.peek() != "}":
        if types:
            reader.expect(",", "between last_tile_dims types")
        token = reader.take()
        if token not in SUBGROUP_TYPES:
            raise HloVerifyError(f"last_tile_dims: unknown type '{token}' (expected one of "
                                 f"{', '.join(SUBGROUP_TYPES)})")
        types.append(token)
    reader.take()
    return types


def _make(kinds, devices, dims, iota, subgroups) -> Sharding:
    """The sharding the parsed parts make, refused as XLA's parser refuses it."""
    kind = next((k for k in _KINDS if k in kinds), "tiled")  # XLA's order of precedence
    if kind == "maximal":
        if devices is None or len(devices) != 1:
            raise HloVerifyError("a maximal sharding names exactly one device (device=N)")
        return Sharding("maximal", devices=tuple(devices))
    if kind != "tiled":
        if devices is not None:
            raise HloVerifyError(f"a {kind} sharding names no devices")
        return Sharding(kind)
    if not dims:
        raise HloVerifyError("a tiled sharding needs devices=[dims]... (or write "
                             "{replicated} or {maximal device=N})")
    if len(subgroups) > len(dims):
        raise HloVerifyError(f"{len(subgroups)} subgroup dims for a tile assignment of "
                             f"{len(dims)} dims {dims}")
    if devices is not None and len(devices) != math.prod(dims):
        raise HloVerifyError(f"{len(devices)} devices listed for tile assignment dims {dims}, "
                             f"which hold {math.prod(dims)}")
    return Sharding("tiled", tuple(dims), None if devices is None else tuple(devices), iota,
                    tuple(subgroups))


__all__ = ["AnySharding", "MAX_TILES", "Sharding", "WHOLE", "check_sharding",
           "parse_sharding"]
