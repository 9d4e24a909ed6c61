"""Bit tricks on ``uint64`` arrays: the batched simulator's whole vocabulary.

A hand, a suit, a trick's cards, a legal set: each is one ``uint64`` per game, bit ``c``
for koloda's card int ``c`` (``suit * 13 + rank``, suits S C D H). Every helper here works
on a whole batch at once, so the per-game cost is a few machine operations and the Python
overhead is paid once per batch, never once per game.

Randomness is counter-based (a hash of the game's key and a counter) rather than a
generator's stream: a game's deal then depends on its key alone, never on which batch it
was dealt in or on the batch's size — the property a record and a replay need.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

ONE = np.uint64(1)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
#: games dealt per chunk: the (chunk × deck) work arrays stay in the L2 cache
CHUNK = 1024

try:
    _popcount = np.bitwise_count  # numpy ≥ 2.0
except AttributeError:  # pragma: no cover - numpy 1.x
    _POP16 = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.uint8)

    def _popcount(x: U64) -> npt.NDArray[np.uint8]:  # type: ignore[misc]
        m = np.uint64(0xFFFF)
        out = _POP16[x & m].astype(np.uint8)
        for shift in (16, 32, 48):
            out += _POP16[(x >> np.uint64(shift)) & m]
        return out


def popcount(x: U64) -> npt.NDArray[np.uint8]:
    """Set bits of each word (cards in a hand, actions in a legal set)."""
    return _popcount(x)


def mix64(z: U64) -> U64:
    """splitmix64's finaliser: a bijection whose outputs look independent for inputs that
    differ by one (consecutive keys, consecutive counters)."""
    z = z + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def as_keys(keys: npt.ArrayLike) -> U64:
    """Any integers (Python, numpy, negative) as uint64 keys, one per game."""
    arr = np.asarray(keys)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("keys: a non-empty one-dimensional array of integers, one a game")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"keys: integers, not {arr.dtype}")
    return arr.astype(np.int64, copy=False).view(np.uint64) if arr.dtype.kind == "i" \
        else arr.astype(np.uint64)


def key_stream(keys: U64, salt: int) -> U64:
    """One hashed word per game for the purpose named by ``salt`` (the deal's shuffle, the
    dealer): different purposes never share randomness."""
    return mix64(mix64(keys ^ np.uint64(salt)))


def _fmix32(z: npt.NDArray[np.uint32]) -> None:
    """murmur3's 32-bit finaliser, in place (a bijection with full avalanche)."""
    z ^= z >> np.uint32(16)
    z *= np.uint32(0x85EBCA6B)
    z ^= z >> np.uint32(13)
    z *= np.uint32(0xC2B2AE35)
    z ^= z >> np.uint32(16)


def shuffled(keys: U64, deck: npt.NDArray[np.uint8], salt: int = 1) -> npt.NDArray[np.uint8]:
    """Each game's deck in a random order fixed by its key, shape (games, deck size).

    Every card gets a hashed 32-bit sort key: 26 random bits (a hash of the card's place
    and the key's 64-bit hash) above the card's own int in the low six bits, and one row
    sort carries the cards along. 32-bit words because numpy's SIMD sort and multiplies
    are twice as wide for them as for 64-bit ones (the whole deal is ~3× cheaper than
    ``argsort``). A tie of the 26 random bits (about 1 game in 100 000) orders those two
    cards by their ints — a bias too small to measure.
    """
    games, size = len(keys), len(deck)
    out = np.empty((games, size), dtype=np.uint8)
    seeds = key_stream(keys, salt)
    lo = (seeds & np.uint64(0xFFFFFFFF)).astype(np.uint32)[:, None]
    hi = (seeds >> np.uint64(32)).astype(np.uint32)[:, None]
    counters = (np.arange(1, size + 1, dtype=np.uint32) * np.uint32(0x9E3779B1))[None, :]
    low, cards = ~np.uint32(63), deck.astype(np.uint32)[None, :]
    for start in range(0, games, CHUNK):
        end = start + CHUNK
        z = lo[start:end] + counters
        z ^= hi[start:end]
        _fmix32(z)
        z &= low
        z |= cards
        z.sort(axis=1)
        z &= np.uint32(63)
        out[start:end] = z
    return out


def lowest_bit_index(x: U64, offset: int = 0) -> I64:
    """``offset`` + the index of the lowest set bit (x ≠ 0): exact through float64, whose
    exponent of a power of two is its bit index."""
    low = np.negative(x)
    low &= x
    out = low.astype(np.float64).view(np.int64)
    out >>= 52
    out += offset - 1023
    return out


def random_member(x: U64, raw: U64, offset: int = 0) -> I64:
    """``offset`` + the index of a uniformly random set bit of each word, by ``raw``
    uniform 64-bit words: the r-th set bit for r = ⌊(raw / 2⁶⁴) × popcount⌋ (from the top
    32 bits: a bias under 2⁻²⁶), found by clearing the lowest bit r times.

    The loop runs as many times as the largest r of the batch (under a hand's size), and
    each pass is three in-place operations on the whole batch — cheaper than a binary
    search over popcounts of prefixes (six passes of eight)."""
    r = raw >> _S32
    r *= popcount(x)
    r >>= _S32
    if not (x & (x + ONE)).any():
        # every set is bits 0..k-1 (all bids open): the r-th set bit is bit r
        out = r.astype(np.int64)
        out += offset
        return out
    x = x.copy()
    top = int(r.max()) if len(r) else 0
    step = np.empty_like(x)
    for _ in range(top):
        np.minimum(r, ONE, out=step)
        r -= step
        np.subtract(x, step, out=step)
        x &= step
    return lowest_bit_index(x, offset)


def unpack(x: U64, width: int) -> npt.NDArray[np.uint8]:
    """Each word's low ``width`` bits as 0/1 bytes, shape (games, width)."""
    bits = np.unpackbits(np.ascontiguousarray(x).view(np.uint8).reshape(-1, 8), axis=1,
                         bitorder="little")
    return bits[:, :width]
