"""XLA's bit generators for rng-bit-generator, bit-exact, in vectorized NumPy.

Follows XLA's RngBitGeneratorExpander and its bit generators (xla/hlo/builder/lib/prng.cc):

- The state is u64[k]; its word 0 is the key (two u32 words, low word first) for both
  algorithms and is returned unchanged.
- RNG_THREE_FRY (Threefry-2x32, 20 rounds): the counter is state[1]; element i of the
  generated array gets counter state[1] + i (row-major, mod 2**64), split into (low, high) u32
  words as the input block; 64-bit outputs are low | high << 32 of the output block. 32-bit
  and narrower outputs use both output words: the shape is halved along its first even
  dimension (else its longest, the first of equal ones; a scalar counts as [2]), the two words
  of one block fill neighbouring positions along that dimension, and the odd end is cut off.
  The new state[1] is state[1] + the number of blocks used.
- RNG_PHILOX and RNG_DEFAULT (Philox-4x32, 10 rounds, the key not scrambled): the counter is a
  u128 whose low u64 is state[1] and whose high u64 is state[2] for a u64[3] state, state[0]
  (the key) for a u64[2] one. Block j gets counter + j (the carry reaching the high word); its
  four u32 words are the next four 32-bit outputs, or, as (w0 | w1 << 32, w2 | w3 << 32), the
  next two 64-bit outputs; the tail past the shape is cut off. The new counter is counter +
  the number of blocks; a u64[2] state keeps only its low word (the key stays word 0).
- Outputs narrower than 32 bits are the low bits of the 32-bit outputs; signed and float types
  are the same bits reinterpreted (XLA returns the unsigned bits in the result's buffer).
"""

from __future__ import annotations

import math

import numpy as np

_U32 = np.uint32
_U64 = np.uint64
_THREEFRY_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_THREEFRY_PARITY = 0x1BD11BDA
_PHILOX_MUL = (0xD2511F53, 0xCD9E8D57)
_PHILOX_WEYL = (0x9E3779B9, 0xBB67AE85)
_M32 = (1 << 32) - 1


def _split64(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """u64 -> (low u32, high u32)."""
    return v.astype(_U32), (v >> _U64(32)).astype(_U32)


def _join64(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    return low.astype(_U64) | (high.astype(_U64) << _U64(32))


def threefry2x32(x0: np.ndarray, x1: np.ndarray, key: int) -> tuple[np.ndarray, np.ndarray]:
    """Threefry-2x32 with 20 rounds of counter words x0, x1 (u32 arrays) under a u64 key."""
    ks = (key & _M32, key >> 32, _THREEFRY_PARITY ^ (key & _M32) ^ (key >> 32))
    x0 = x0 + _U32(ks[0])
    x1 = x1 + _U32(ks[1])
    for group in range(5):
        for r in _THREEFRY_ROTATIONS[group % 2]:
            x0 = x0 + x1
            x1 = ((x1 << _U32(r)) | (x1 >> _U32(32 - r))) ^ x0
        x0 = x0 + _U32(ks[(group + 1) % 3])
        x1 = x1 + _U32((ks[(group + 2) % 3] + group + 1) & _M32)
    return x0, x1


def philox4x32(words: list[np.ndarray], key: int) -> list[np.ndarray]:
    """Philox-4x32 with 10 rounds of four u32 counter-word arrays under a u64 key."""
    c0, c1, c2, c3 = words
    k0, k1 = key & _M32, key >> 32
    for _ in range(10):
        p0 = c0.astype(_U64) * _U64(_PHILOX_MUL[0])  # the 32x32 -> 64-bit products
        p1 = c2.astype(_U64) * _U64(_PHILOX_MUL[1])
        lo0, hi0 = _split64(p0)
        lo1, hi1 = _split64(p1)
        c0, c1, c2, c3 = hi1 ^ c1 ^ _U32(k0), lo1, hi0 ^ c3 ^ _U32(k1), lo0
        k0, k1 = (k0 + _PHILOX_WEYL[0]) & _M32, (k1 + _PHILOX_WEYL[1]) & _M32
    return [c0, c1, c2, c3]


def split_axis(dims: tuple[int, ...]) -> int:
    """The dimension XLA splits in two for 32-bit Threefry output (SplitShapeIntoHalves)."""
    for i, d in enumerate(dims):
        if d % 2 == 0:
            return i
    return max(range(len(dims)), key=lambda i: (dims[i], -i))


def _threefry_words(key: int, counter: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    counters = np.arange(n, dtype=_U64) + _U64(counter)
    return threefry2x32(*_split64(counters), key)


def threefry_bits(key: int, counter: int, dims: tuple[int, ...], width: int):
    """(unsigned bits of `width` in shape dims, the new counter) of XLA's ThreeFry generator."""
    if width == 64:
        n = math.prod(dims)
        return _join64(*_threefry_words(key, counter, n)).reshape(dims), counter + n
    if not dims:
        low, _ = _threefry_words(key, counter, 1)
        return low.reshape(()), counter + 1
    axis = split_axis(dims)
    half = dims[:axis] + (-(-dims[axis] // 2),) + dims[axis + 1:]
    n = math.prod(half)
    low, high = (w.reshape(half) for w in _threefry_words(key, counter, n))
    both = np.stack([low, high], axis=axis + 1)
    both = both.reshape(half[:axis] + (2 * half[axis],) + half[axis + 1:])
    return both[(slice(None),) * axis + (slice(0, dims[axis]),)], counter + n


def philox_bits(key: int, counter: tuple[int, int], n: int, width: int):
    """(n unsigned bits of `width`, flat; the new u128 counter as (low, high)) of XLA's Philox."""
    per_block = 2 if width == 64 else 4
    blocks = -(-n // per_block)
    low = np.arange(blocks, dtype=_U64) + _U64(counter[0])
    high = np.full(blocks, counter[1], _U64) + (low < _U64(counter[0])).astype(_U64)
    words = philox4x32([*_split64(low), *_split64(high)], key)
    if width == 64:
        words = [_join64(words[0], words[1]), _join64(words[2], words[3])]
    flat = np.stack(words, axis=1).reshape(-1)[:n]
    total = counter[0] + blocks
    return flat, (total & ((1 << 64) - 1), (counter[1] + (total >> 64)) & ((1 << 64) - 1))


def generate(algorithm: str, state: np.ndarray, dims: tuple[int, ...], dtype: np.dtype):
    """XLA's rng-bit-generator: (new u64 state, bits of `dtype` in shape dims).

    algorithm is rng_three_fry, rng_philox or rng_default (Philox, as on XLA's CPU and GPU);
    state is u64[2] or u64[3] (u64[2] only for rng_three_fry is checked by the caller); dtype
    has 8, 16, 32 or 64 bits. The bits are exactly XLA's (see the module docstring).
    """
    words = [int(w) for w in state]
    width = 8 * dtype.itemsize
    unsigned = np.dtype(f"u{dtype.itemsize}")
    new_state = list(words)
    with np.errstate(over="ignore"):
        if algorithm == "rng_three_fry":
            bits, new_state[1] = threefry_bits(words[0], words[1], dims, width)
            new_state[1] &= (1 << 64) - 1
        else:
            high = words[2] if len(words) >= 3 else words[0]
            flat, (low, high) = philox_bits(words[0], (words[1], high), math.prod(dims),
                                            max(width, 32))
            bits = flat.reshape(dims)
            new_state[1] = low
            if len(words) >= 3:
                new_state[2] = high
    bits = bits.astype(unsigned, order="C").view(dtype)
    return np.array(new_state, dtype=_U64), bits
