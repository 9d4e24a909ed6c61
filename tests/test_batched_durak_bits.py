"""``koloda.batched.durak.nth_set_bit`` (the random policy's pick of the r-th legal card or
cover) against a plain Python count of set bits, over every part of the 64-bit word."""

from __future__ import annotations

import numpy as np

from koloda.batched.bits import popcount
from koloda.batched.durak import nth_set_bit


def test_nth_set_bit_is_the_rth_set_bit_of_every_word() -> None:
    rng = np.random.default_rng(7)
    words = rng.integers(1, 2**63, 3000, dtype=np.int64).view(np.uint64)
    words &= rng.integers(1, 2**63, 3000, dtype=np.int64).view(np.uint64)
    words[:500] |= np.uint64(1 << 63)                  # the top bit
    words[500:600] = np.uint64(1) << rng.integers(0, 64, 100).astype(np.uint64)  # one bit
    words[600:700] = np.uint64(0xFFFFFFFFFFFFFFFF)      # every bit
    words[words == 0] = 1
    count = popcount(words).astype(np.int64)
    r = (rng.random(len(words)) * count).astype(np.int64)
    r[:300] = count[:300] - 1                          # the highest set bit
    got = nth_set_bit(words, r).tolist()
    want = [[b for b in range(64) if int(w) >> b & 1][int(k)]
            for w, k in zip(words, r, strict=True)]
    assert got == want


def test_nth_card_is_the_rth_card_of_every_36_card_hand() -> None:
    from koloda.batched.durak import nth_card
    from koloda.cards import deck
    rng = np.random.default_rng(8)
    cards = np.array(sorted(int(c) for c in deck(36)), dtype=np.uint64)
    bits = np.uint64(1) << cards
    held = rng.random((3000, 36)) < rng.random((3000, 1))
    held[:100] = True                                   # the whole deck
    held[100:200] = np.eye(36, dtype=bool)[rng.integers(0, 36, 100)]   # one card
    held[~held.any(axis=1), 0] = True
    words = np.bitwise_or.reduce(np.where(held, bits, np.uint64(0)), axis=1)
    count = popcount(words).astype(np.int64)
    r = (rng.random(len(words)) * count).astype(np.int64)
    r[:300] = count[:300] - 1                          # the highest card
    assert nth_card(words, r).tolist() == nth_set_bit(words, r).tolist()
    assert nth_card(words, r).tolist() == [
        [b for b in range(64) if int(w) >> b & 1][int(k)] for w, k in zip(words, r, strict=True)]
