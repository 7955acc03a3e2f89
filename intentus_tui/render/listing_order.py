"""The ``inspect --list`` order (oldest first, then by id; undated last) for listing rows
that are already made.

The JSON listing's rows come ready-made from the index workers or the cache, in file-name
order. Decoding 100,000 of them to sort would cost more than the listing itself, so each
row's sort key is read from its first three members (``execution_id``, ``file``,
``created``, written in that order by ``rows.summary_to_json``); a row that does not
start that way, or whose id or time holds an escape, is decoded whole instead.

The cache's file of rows is put in order once per version of it: the ordered copy beside
it (``open_time_ordered``) makes a warm listing a plain copy of a file again.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson

from intentus_tui.core.fsio import atomic_write
from intentus_tui.core.timestamps import TimeOrder, time_order

ROW_SEPARATOR = b",\n"  # between the rows of the "executions" array
_HEAD = b'    {"execution_id":"'
_FILE = b'","file":"'
_CREATED = b',"created":'
_BATCH = 2048  # rows written at a time
_ORDERED = "-by-time-"  # the ordered copy of a rows file: <stem>-by-time-<stamp>.json


def row_time_order(row: bytes) -> TimeOrder:
    """The ``time_order`` key of one listing row."""
    if row.startswith(_HEAD):
        # Inside a JSON string every quote is escaped, so these markers are the members'.
        id_end = row.find(_FILE, len(_HEAD))
        at = row.find(_CREATED, id_end) if id_end > 0 else -1
        if at > 0:
            ident = row[len(_HEAD) : id_end]
            start = at + len(_CREATED)
            close = row.find(b'"', start + 1)
            if b"\\" not in ident:
                execution_id = ident.decode("utf-8", "replace")
                if row.startswith(b"null", start):
                    return time_order(None, execution_id)
                if row[start : start + 1] == b'"' and close > 0:
                    created = row[start + 1 : close]
                    if b"\\" not in created:
                        return time_order(created.decode("utf-8", "replace"), execution_id)
    try:
        doc = orjson.loads(row)
        created_value, ident_value = doc.get("created"), doc.get("execution_id")
    except (orjson.JSONDecodeError, AttributeError):
        return time_order(None, "")
    return time_order(
        created_value if isinstance(created_value, str) else None,
        ident_value if isinstance(ident_value, str) else "",
    )


def split_rows(blocks: Iterable[bytes] | Path) -> list[bytes]:
    """Every row of ``blocks`` (each one row or rows joined by ``,\\n``, or a file of
    them). A row is one line of compact JSON: it holds no newline of its own."""
    if isinstance(blocks, Path):
        data = blocks.read_bytes()
        return data.split(ROW_SEPARATOR) if data.strip() else []
    rows: list[bytes] = []
    for block in blocks:
        if block:
            rows.extend(block.split(ROW_SEPARATOR))
    return rows


def time_ordered_rows(blocks: Iterable[bytes] | Path) -> list[bytes]:
    """The rows of ``blocks``, oldest first (see ``core.timestamps.time_order``)."""
    rows = split_rows(blocks)
    rows.sort(key=row_time_order)
    return rows


def in_batches(rows: list[bytes]) -> Iterator[bytes]:
    """``rows`` joined by ``,\\n``, a batch at a time (the caller separates the batches)."""
    for start in range(0, len(rows), _BATCH):
        yield ROW_SEPARATOR.join(rows[start : start + _BATCH])


def _joined(batches: Iterable[bytes]) -> Iterator[bytes]:
    separator = b""
    for batch in batches:
        yield separator + batch
        separator = ROW_SEPARATOR


def open_time_ordered(rows_path: Path) -> io.BufferedReader | None:
    """A copy of the file of rows ``rows_path`` in time order, beside it, open for reading:
    made on the first call for each version of that file (its size, time and inode name
    the copy), reused after. None if it cannot be read or the copy cannot be written.

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
            data = source.read()
        rows = data.split(ROW_SEPARATOR) if data.strip() else []
        del data
        rows.sort(key=row_time_order)
        atomic_write(ordered, _joined(in_batches(rows)), durable=False)
        copy = ordered.open("rb")
    except OSError:
        return None
    _remove_older_copies(rows_path.parent, stem, st.st_mtime_ns, keep=ordered)
    return copy


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
