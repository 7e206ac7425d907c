"""XLA's `sharding=` attribute (HloSharding): which piece of a full array each partition holds.

Read forms: `{replicated}`, `{maximal device=N}` (the whole array; dynhlo gives it to every
device, as a replicated one), `{manual}` (refused: no full array to cut),
`{devices=[a,b,...]<=[N]}` and `<=[x,y]T(1,0)` (an iota tile assignment, like replica
groups), `{devices=[a,b,...]0,1,2,3}` (listed), with `last_tile_dim_replicate` or
`last_tile_dims={...}` for trailing tile dims over which the piece is replicated. A tuple's
sharding is `{{...}, {...}}`, one per element.

The tile of partition p is the position of p in the tile assignment; its piece of dimension
d is the d-th of `tiles[d]` equal slices (dynhlo refuses sizes that do not divide, where XLA
pads the last piece).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import UnsupportedError


@dataclass(frozen=True)
class Sharding:
    """A parsed array sharding: `tiles` is None for a whole (replicated) array, else the tile
    assignment, an int array whose first `rank` dims tile the data (the rest replicate)."""

    tiles: np.ndarray | None
    rank: int = 0

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
                      for t, n, k in zip(tile, full.shape, self.tiles.shape))
        return np.asarray(full[index], order="C")

    def assemble(self, pieces: list[np.ndarray], where: str) -> np.ndarray:
        """The full array from `pieces[p]`, partition p's piece (the first holder of a tile)."""
        if self.tiles is None:
            return pieces[0]
        grid = np.empty(self.tiles.shape[:self.rank], dtype=object)
        for p, piece in enumerate(pieces):
            tile = self.tile_of(p)
            if grid[tile] is None:
                grid[tile] = piece
        return np.block(grid.tolist()) if self.rank else pieces[0]

    def _check(self, shape, where):
        if len(shape) != self.rank:
            raise UnsupportedError(f"{where}: a sharding of {self.rank} tiled dims for a "
                                   f"rank-{len(shape)} array")
        for d, (n, k) in enumerate(zip(shape, self.tiles.shape)):
            if n % k:
                raise UnsupportedError(f"{where}: dimension {d} of size {n} does not split "
                                       f"into {k} equal pieces")


WHOLE = Sharding(None)

_TILED = re.compile(r"devices=\s*\[([\d,\s]+)\]\s*(<=\s*\[[\d,\s]+\]\s*(?:T\([\d,\s]+\))?|[\d,\s]+)"
                    r"\s*(.*)$", re.S)


def parse_sharding(text: str | None, where: str):
    """A Sharding, or a list of them for a tuple sharding; WHOLE for None or `{replicated}`.

    Raises UnsupportedError naming `where` for a form dynhlo does not read.
    """
    if text is None:
        return WHOLE
    body = text.strip()
    if body.startswith("{{") or body.startswith("{ {"):
        return [parse_sharding(e, where) for e in _elements(body[1:-1])]
    body = body.strip("{} ")
    if body in ("replicated", "") or body.startswith("maximal"):
        return WHOLE
    match = _TILED.match(body)
    if not match:
        raise UnsupportedError(f"{where}: cannot read sharding={text}")
    shape = [int(x) for x in match.group(1).split(",") if x.strip()]
    tiles = _assignment(match.group(2), shape, where, text)
    rest = match.group(3)
    replicated = 0
    if "last_tile_dim_replicate" in rest:
        replicated = 1
    elif "last_tile_dims" in rest:
        replicated = len(re.findall(r"\w+", rest.split("last_tile_dims", 1)[1]))
    return Sharding(tiles, len(shape) - replicated)


def _assignment(text: str, shape: list[int], where: str, full: str) -> np.ndarray:
    text = text.strip()
    if text.startswith("<="):
        m = re.match(r"<=\s*\[([\d,\s]+)\]\s*(?:T\(([\d,\s]+)\))?", text)
        dims = [int(x) for x in m.group(1).split(",") if x.strip()]
        perm = [int(x) for x in m.group(2).split(",")] if m.group(2) else list(range(len(dims)))
        ids = np.arange(int(np.prod(dims))).reshape(dims).transpose(perm)
    else:
        ids = np.array([int(x) for x in text.split(",") if x.strip()])
    if ids.size != int(np.prod(shape)):
        raise UnsupportedError(f"{where}: sharding={full} lists {ids.size} devices for "
                               f"{shape} tiles")
    return ids.reshape(shape)


def _elements(body: str) -> list[str]:
    """The top-level `{...}` elements of a tuple sharding's body."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch == "{":
            depth += 1
            if depth == 1:
                start = i
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append(body[start:i + 1])
    return out


__all__ = ["Sharding", "WHOLE", "parse_sharding"]
