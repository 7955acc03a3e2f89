"""The execution list's shown rows: a sorted sequence kept in blocks.

A flat list merged a batch of new rows by copying every row, which touches each row's
tuple (its reference count) wherever it lies in memory: at 1,000,000 rows about 100 ms a
batch whatever its size (``bench/bench_list_model.py --rows 1000000``), so the list could
not take the first scan in slices small enough for a key to wait on. Here a row goes into
its block of at most ``2 * BLOCK`` (a bisect over the blocks' last rows, then one within
the block): a batch costs what it holds. The same structure as ``sortedcontainers``'
``SortedList``, cut to what the list needs and built from rows already in order without
sorting them again (a million-row sort is ~160 ms of a view change).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, chain
from typing import overload

RowKey = tuple[object, ...]

BLOCK = 1024  # rows a block is cut to; one is split once it holds twice this


class SortedRows(Sequence[RowKey]):
    """Row keys in sorted order; ``add_sorted`` and ``remove`` keep them so."""

    __slots__ = ("_blocks", "_lasts", "_len", "_starts")

    def __init__(self, ordered: Sequence[RowKey] = ()) -> None:
        """``ordered``: rows already sorted (not checked: a sort would cost what this saves)."""
        self._blocks: list[list[RowKey]] = [
            list(ordered[at : at + BLOCK]) for at in range(0, len(ordered), BLOCK)
        ]
        self._lasts: list[RowKey] = [block[-1] for block in self._blocks]
        self._len = len(ordered)
        self._starts: list[int] | None = None  # each block's first row number, when asked

    def __len__(self) -> int:
        return self._len

    def _first_rows(self) -> list[int]:
        starts = self._starts
        if starts is None:
            starts = self._starts = list(accumulate((len(b) for b in self._blocks), initial=0))
        return starts

    @overload
    def __getitem__(self, index: int) -> RowKey: ...

    @overload
    def __getitem__(self, index: slice) -> list[RowKey]: ...

    def __getitem__(self, index: int | slice) -> RowKey | list[RowKey]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("row out of range")
        starts = self._first_rows()
        block = bisect_right(starts, index) - 1
        return self._blocks[block][index - starts[block]]

    def __iter__(self) -> Iterator[RowKey]:
        return chain.from_iterable(self._blocks)

    def __contains__(self, row_key: object) -> bool:
        if not isinstance(row_key, tuple):
            return False
        at = self.bisect_left(row_key)
        return at < self._len and self[at] == row_key

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SortedRows | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"SortedRows({list(self)!r})"

    def bisect_left(self, row_key: RowKey) -> int:
        """Where ``row_key`` is, or would go: the first row not below it."""
        block = bisect_left(self._lasts, row_key)
        if block == len(self._lasts):
            return self._len
        return self._first_rows()[block] + bisect_left(self._blocks[block], row_key)

    def add_sorted(self, new: Iterable[RowKey]) -> None:
        """Put each of ``new`` (sorted) in its place."""
        blocks, lasts = self._blocks, self._lasts
        added = 0
        block_at = 0  # ``new`` is sorted: its rows' blocks come in order
        for row_key in new:
            added += 1
            if not blocks:
                blocks.append([row_key])
                lasts.append(row_key)
                continue
            block_at = bisect_left(lasts, row_key, block_at)
            if block_at == len(lasts):  # after every row: the last block grows
                block_at -= 1
                blocks[block_at].append(row_key)
                lasts[block_at] = row_key
            else:
                insort(blocks[block_at], row_key)
            block = blocks[block_at]
            if len(block) > 2 * BLOCK:
                blocks[block_at : block_at + 1] = [block[:BLOCK], block[BLOCK:]]
                lasts.insert(block_at, block[BLOCK - 1])
        self._len += added
        self._starts = None

    def remove(self, row_key: RowKey) -> bool:
        """Remove ``row_key``; whether it was there."""
        blocks, lasts = self._blocks, self._lasts
        block_at = bisect_left(lasts, row_key)
        if block_at == len(lasts):
            return False
        block = blocks[block_at]
        at = bisect_left(block, row_key)
        if at == len(block) or block[at] != row_key:
            return False
        del block[at]
        if block:
            lasts[block_at] = block[-1]
        else:
            del blocks[block_at], lasts[block_at]
        self._len -= 1
        self._starts = None
        return True
