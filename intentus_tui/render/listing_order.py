"""The ``inspect --list`` order of rows already made: oldest first, then by id, then the
file named after the id before its copies, by name (``copy_rank``); undated last.

The JSON listing's rows come ready-made from the index workers or the cache, in the order
their files were read. The key ends with the file's rank and name (``listing_key``): rows
with the same time and id come in one order however the files were read. The workers send
each row's key with it (``RowBlock``, ``RowPlaces``): the keys are made on every core and
only sorted here (at 100,000 rows, 25 ms here against 400 ms to read them from the rows).
For rows that come without keys, decoding them to sort would cost more than the listing
itself, so each row's sort key is read from its first three members (``execution_id``,
``file``, ``created``, written in that order by ``rows.summary_to_json``); a row that
does not start that way, or whose id or time holds an escape, is decoded whole instead.

Rows are never copied to be sorted: each gets one small entry (its key packed into bytes,
then where the row is), the entries are sorted, and the rows are written out in that
order from where they are (the workers' blocks, or the file). At 1,000,000 rows that is
about 100 MB of entries beside rows that stay where they were; a list of the rows
themselves would double the listing's 1 GB.

The cache's file of rows is put in order once per version of it: the ordered copy beside
it (``open_time_ordered``) makes a warm listing a plain copy of a file again.
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from pathlib import Path
from typing import BinaryIO

import orjson

from intentus_tui.core.fsio import atomic_file, write_gathered
from intentus_tui.core.index.scan import RowBlock, RowPlaces
from intentus_tui.core.model import copy_rank
from intentus_tui.core.native import copy_in_key_order, write_in_key_order
from intentus_tui.core.timestamps import TimeOrder, time_order

ROW_SEPARATOR = b",\n"  # between the rows of the "executions" array
_SEPARATOR_VIEW = memoryview(ROW_SEPARATOR)
_HEAD = b'    {"execution_id":"'
_FILE = b'","file":"'
_CREATED = b',"created":'
_HEAD_BYTES = 512  # enough for the three first members of any usual row
_BATCH = 2048  # rows written at a time
_READ = 8 << 20  # a file of rows is read this much at a time
_ORDERED = "-by-time-"  # the ordered copy of a rows file: <stem>-by-time-<stamp>.json
_WHERE = struct.Struct(">IQI")  # source, start, length: after the key in an entry
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_TIME_BIAS = 1 << 62  # every instant from year 1 to 9999 in microseconds, made positive


def row_key(row: bytes) -> bytes:
    """The listing key (``listing_key``) of one listing row."""
    return _head_key(row) or _decoded_key(row)


def _head_key(row: bytes) -> bytes | None:
    """The key read from the row's first members, or None when they cannot say (the
    row, or this much of its head, does not start the usual way)."""
    if not row.startswith(_HEAD):
        return None
    # Inside a JSON string every quote is escaped, so these markers are the members'.
    id_end = row.find(_FILE, len(_HEAD))
    at = row.find(_CREATED, id_end) if id_end > 0 else -1
    if at < 0:
        return None
    ident, file = row[len(_HEAD) : id_end], row[id_end + len(_FILE) : at - 1]
    if b"\\" in ident or b"\\" in file:
        return None
    execution_id = ident.decode("utf-8", "replace")
    file = _ranked(file, ident)
    start = at + len(_CREATED)
    if row.startswith(b"null", start):
        return _packed_key(time_order(None, execution_id), file)
    close = row.find(b'"', start + 1)
    if row[start : start + 1] != b'"' or close < 0:
        return None
    created = row[start + 1 : close]
    if b"\\" in created:
        return None
    return _packed_key(time_order(created.decode("utf-8", "replace"), execution_id), file)


def _decoded_key(row: bytes) -> bytes:
    try:
        doc = orjson.loads(row)
        created, ident, file = doc.get("created"), doc.get("execution_id"), doc.get("file")
    except (orjson.JSONDecodeError, AttributeError):
        return listing_key(time_order(None, ""), "")
    return listing_key(
        time_order(
            created if isinstance(created, str) else None,
            ident if isinstance(ident, str) else "",
        ),
        file if isinstance(file, str) else "",
    )


def listing_key(order: TimeOrder, file: str) -> bytes:
    """The order of a listing row as bytes: ``packed_order``, then the file's ``copy_rank``
    and name, so that rows with the same time and id come in one order whatever order
    their files were read in: the file named after the id, then its copies by name."""
    try:
        name = file.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes in the name: as its row spells it
        name = file.encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode("utf-8")
    rank = _RANKS[copy_rank(file.rpartition("/")[2], order[2])]
    return _packed_key(order, rank + name)


_RANKS = (b"0", b"1")


def _ranked(file: bytes, execution_id: bytes) -> bytes:
    """The file's name after its ``copy_rank`` (a byte): how the names of one time and id
    sort. ``file`` may be ``LABEL/name``: the name is ranked. In bytes, as the row has
    them: a key is made for each of 100,000 rows (decoding the name cost 0.1 us a row)."""
    return _RANKS[copy_rank(file.rpartition(b"/")[2], execution_id)] + file


def _packed_key(order: TimeOrder, file: bytes) -> bytes:
    return packed_order(order) + file


def packed_order(order: TimeOrder) -> bytes:
    """``order`` as bytes that sort as it does: undated flag, the instant in microseconds,
    then the id (NUL escaped, then a two-NUL end, so a shorter id sorts first)."""
    undated, moment, ident = order
    micros = 0 if undated else (moment - _EPOCH) // _MICROSECOND + _TIME_BIAS
    name = ident.encode("utf-8", "surrogatepass").replace(b"\x00", b"\x00\x01")
    return (b"\x01" if undated else b"\x00") + micros.to_bytes(8, "big") + name + b"\x00\x00"


def _entry(head: bytes, row: bytes | memoryview, source: int, start: int, end: int) -> bytes:
    key = _head_key(head) or _decoded_key(bytes(row))
    return key + _WHERE.pack(source, start, end - start)


def _block_entries(blocks: Sequence[bytes | RowBlock]) -> list[bytes]:
    entries = []
    for number, block in enumerate(blocks):
        if isinstance(block, RowBlock):  # the keys came with the rows: no row is read
            entries.extend(_keyed_entries(block, number))
            continue
        view = memoryview(block)
        start, size = 0, len(block)
        while start < size:
            end = block.find(ROW_SEPARATOR, start)
            end = size if end < 0 else end
            head = block[start : min(end, start + _HEAD_BYTES)]
            entries.append(_entry(head, view[start:end], number, start, end))
            start = end + len(ROW_SEPARATOR)
    return entries


def _keyed_entries(block: RowBlock, number: int) -> list[bytes]:
    starts = accumulate((length + len(ROW_SEPARATOR) for length in block.lengths), initial=0)
    return _entries(block.keys, starts, block.lengths, number)


def _entries(
    keys: list[bytes], starts: Iterable[int], lengths: Sequence[int], source: int
) -> list[bytes]:
    """One entry per row from keys its maker gave: no row is read."""
    pack = _WHERE.pack
    return [
        key + pack(source, start, length)
        for key, start, length in zip(keys, starts, lengths, strict=False)
    ]


def _file_entries(source: io.BufferedReader) -> list[bytes]:
    """The entries of a file of rows, read a piece at a time."""
    entries = []
    carried, offset = b"", 0  # ``carried`` starts at file offset ``offset``
    while True:
        piece = source.read(_READ)
        data = carried + piece if carried else piece
        last = len(data) if not piece else data.rfind(ROW_SEPARATOR)
        start = 0
        while start < last:
            end = data.find(ROW_SEPARATOR, start, last)
            end = last if end < 0 else end
            row = data[start:end] if end - start <= _HEAD_BYTES else None
            head = row if row is not None else data[start : start + _HEAD_BYTES]
            entries.append(
                _entry(head, row or memoryview(data)[start:end], 0, offset + start, offset + end)
            )
            start = end + len(ROW_SEPARATOR)
        if not piece:
            return entries
        if last >= 0:
            carried, offset = data[last + len(ROW_SEPARATOR) :], offset + last + len(ROW_SEPARATOR)
        else:
            carried = data


def _where(entry: bytes) -> tuple[int, int, int]:
    return _WHERE.unpack_from(entry, len(entry) - _WHERE.size)


def time_ordered_rows(blocks: Iterable[bytes | RowBlock]) -> Iterator[list[memoryview]]:
    """The rows of ``blocks`` (each one row, or rows joined by ``,\\n``, or a ``RowBlock``
    that brings each row's key), oldest first, joined by ``,\\n``: in batches of pieces
    that, written one after another, are the joined rows. Each piece is a view into its
    block, not a copy (a writer can hand them to the kernel as they are); a row followed
    by a separator in its block is one piece with it (100,000 rows: half the pieces, and
    a listing's write of them 0.1 s to 0.05 s here)."""
    held = [block for block in blocks if (block.rows if isinstance(block, RowBlock) else block)]
    entries = _block_entries(held)
    entries.sort()
    views = [memoryview(block.rows if isinstance(block, RowBlock) else block) for block in held]
    sizes = [len(view) for view in views]
    unpack, where = _WHERE.unpack_from, _WHERE.size
    separated = len(ROW_SEPARATOR)
    for first in range(0, len(entries), _BATCH):
        parts: list[memoryview] = []
        for entry in entries[first : first + _BATCH]:
            number, start, length = unpack(entry, len(entry) - where)
            end = start + length
            if end < sizes[number]:  # a separator follows it in its block
                parts.append(views[number][start : end + separated])
            else:
                parts += (views[number][start:end], _SEPARATOR_VIEW)
        if first + _BATCH >= len(entries):  # the last row: no separator after it
            if parts[-1] is _SEPARATOR_VIEW:
                parts.pop()
            else:
                parts[-1] = parts[-1][:-separated]
        yield parts


def write_time_ordered(out: BinaryIO, blocks: Iterable[bytes] | Iterable[RowBlock]) -> bool:
    """The rows of ``blocks`` oldest first (``time_ordered_rows``) written to ``out`` after
    a newline; whether there was any row. Where ``out`` is a real file the pieces go to
    the kernel as they are, not joined first; ``RowBlock``s, whose keys came with them,
    are put in order and written by the native helper where it is built: at 100,000
    rows 17 ms against 106-113 ms here (``python bench/bench_native.py --count 100000``),
    work this process does alone once every core is done (2.4-2.5 s in all)."""
    held: list[bytes | RowBlock] = list(blocks)
    descriptor = _descriptor(out)
    if (
        write_in_key_order is not None
        and descriptor is not None
        and all(type(block) is RowBlock for block in held)
    ):
        rows = [block for block in held if isinstance(block, RowBlock) and block.rows]
        if not rows:
            return False
        out.write(b"\n")
        out.flush()  # what is buffered goes first
        write_in_key_order(descriptor, rows, ROW_SEPARATOR)
        return True
    any_row = False
    for batch in time_ordered_rows(held):
        if not batch:
            continue
        if not any_row:
            out.write(b"\n")
            any_row = True
        if descriptor is None:
            out.write(b"".join(batch))
        else:
            out.flush()
            write_gathered(descriptor, list(batch))
    return any_row


def _descriptor(out: BinaryIO) -> int | None:
    if not hasattr(os, "writev"):
        return None
    try:
        return out.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


def _file_batches(source: io.BufferedReader, entries: list[bytes]) -> Iterator[bytes]:
    """The rows at ``entries`` in a file of rows, a read call each. Slicing a map of the
    file took half the time (1,000,000 rows: 0.95 s against 2.0 s) but counted every page
    of it in the process's resident memory: a first open of 1,000,000 records peaked at
    1.06 GB instead of under 300 MB."""
    descriptor = source.fileno()
    for first in range(0, len(entries), _BATCH):
        yield ROW_SEPARATOR.join(
            [
                os.pread(descriptor, length, start)
                for _, start, length in map(_where, entries[first : first + _BATCH])
            ]
        )


def _joined(batches: Iterable[bytes]) -> Iterator[bytes]:
    """The batches with a separator between each two, written apart (``separator + batch``
    copied every row once more)."""
    for number, batch in enumerate(batches):
        if number:
            yield ROW_SEPARATOR
        yield batch


def open_time_ordered(rows_path: Path, places: RowPlaces | None = None) -> io.BufferedReader | None:
    """A copy of the file of rows ``rows_path`` in time order, beside it, open for reading:
    made on the first call for each version of that file (its size, time and inode name
    the copy), reused after. None if it cannot be read or the copy cannot be written.
    ``places``: where each row is and its key, from whoever wrote the file (then no row is
    read to find its key).

    Open before it is returned: a listing running at the same time that makes the copy of
    a newer version removes this one, and an open file is still read whole."""
    try:
        with rows_path.open("rb") as source:
            st = os.fstat(source.fileno())
            stem = rows_path.name.removesuffix(".json")
            ordered = rows_path.with_name(
                f"{stem}{_ORDERED}{st.st_size}-{st.st_mtime_ns}-{st.st_ino}.json"
            )
            with contextlib.suppress(FileNotFoundError):
                return ordered.open("rb")
            placed = places is not None and places.size == st.st_size
            with atomic_file(ordered, durable=False) as write:
                if placed and copy_in_key_order is not None:
                    assert places is not None
                    copy_in_key_order(
                        write.fileno(),
                        source.fileno(),
                        places.keys,
                        places.starts,
                        places.lengths,
                        ROW_SEPARATOR,
                    )
                else:
                    _write_file_in_order(source, write, places if placed else None)
        copy = ordered.open("rb")
    except OSError:
        return None
    _remove_older_copies(rows_path.parent, stem, st.st_mtime_ns, keep=ordered)
    return copy


def _write_file_in_order(
    source: io.BufferedReader, write: Callable[[bytes], None], places: RowPlaces | None
) -> None:
    """The rows of the file ``source`` in time order, to ``write``: ``copy_in_key_order``'s
    definition, and what runs without it (or without ``places``: then each row's key is
    read from the row). At 100,000 rows the native helper's copy took 1.07 us of CPU a
    row against 2.05 here (``python bench/bench_native.py --count 100000``), and a first
    open's ordered copy 140-170 ms against 260-350 ms."""
    if places is not None:
        entries = _entries(places.keys, places.starts, places.lengths, 0)
    else:
        entries = _file_entries(source)
    entries.sort()
    for piece in _joined(_file_batches(source, entries)):
        write(piece)


def _remove_older_copies(directory: Path, stem: str, mtime_ns: int, keep: Path) -> None:
    """The copies of earlier versions of the rows file: no one will ask for them again.
    (A newer version's copy, made by a listing running at the same time, is kept.)"""
    prefix = f"{stem}{_ORDERED}"
    for old in directory.glob(f"{prefix}*.json"):
        if old == keep:
            continue
        stamp = old.name[len(prefix) : -len(".json")].split("-")
        try:
            older = len(stamp) == 3 and int(stamp[1]) <= mtime_ns
        except ValueError:
            older = False
        if older:
            with contextlib.suppress(OSError):
                old.unlink()
