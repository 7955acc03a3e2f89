"""A persistent index cache: one snapshot per opened directory.

Lives under the user cache directory (``platformdirs``), or ``INTENTUS_TUI_CACHE_DIR``;
never inside a record directory. Any problem with it — corrupt, locked, stale schema,
unwritable — makes it step aside silently: the index then reads the files.

A snapshot is what a re-open needs, each part as one blob so that nothing is decoded
that the caller does not use: the directory listing as ``os.listdir`` gave it (if it is
unchanged, so are the record names, and neither filtering nor sorting is redone), the
record names, each file's stamp (a file whose stamp changed is read again), the
summaries, and the ``inspect --list --json`` rows and counts ready to print.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import struct
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import TypeVar

import orjson

from intentus_tui import __version__
from intentus_tui.core.fsio import atomic_file, atomic_write
from intentus_tui.core.model import FIELD_NAMES, ExecutionSummary, summaries_from_table

T = TypeVar("T")

CACHE_ENV = "INTENTUS_TUI_CACHE_DIR"
_SCHEMA = 28  # 7: verdict fields (wal_chain_ok, hash_story, contradiction); 8: root;
# 9: the big blobs last in a snapshot row; 10: summaries stored as tables; 11: a huge
# record whose tail does not show its final response is unknown, not damaged; 12: a
# listing row's undecodable file-name bytes as \u escapes (were U+FFFD); 13:
# all_attempts_failed (a record cut short after every attempt failed: failed); 14: a
# link leading nowhere or looping, a socket, say so (messages of unreadable files); 15:
# a recorded status other than ok or error as written (it was lowercased); 16: a file
# cut short inside its FINAL_RESPONSE event has the status that event began to write;
# 17: bundle_change (a bundle's record not what its manifest sealed); 18: a cut copy's
# tampered reason says its damage too (the listing rows kept hold the reasons); 19:
# final_kind (a final response that is not an object says what it is); 20: record_removed;
# 21: a copy's or a renamed file's name is a note, not a contradiction; "1 complete event"
# 22: the integrity of a file never read, or holding no record, in one sentence; 23: a
# record's copies listed after it (a time-ordered copy of the rows made before lists them first);
# 24: a contradiction names five seq problems at most, then counts the rest; 25: a huge
# file whose head holds no whole section is unknown (unchecked), not damaged; 26: a
# SQLite database is not a record (it was 'Not UTF-8 text', damaged); 27: a huge file's
# message says 'inspect ID reads … it whole' (it said only 'select it', the debugger's word);
# 28: a record cut short by its writer says so in its message (it said 'Damaged record')

# A file's identity for the cache: if any of these change, its summary is recomputed.
Stamp = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode

# Many stamps, packed: STAMP_WIDTH signed 64-bit numbers per file, in the names' order.
# Each number is kept as its low 64 bits (two's complement), so no file is ever too odd to
# pack. That is exact for sizes, for inode numbers (unsigned 64-bit: a high one reads back
# negative) and for every time from 1677 to 2554, which is all ext4 or XFS can hold (a
# time after 2262, e.g. `touch -d @10000000000`, reads back negative, and equal stamps
# stay equal). Only a filesystem with 64-bit seconds (tmpfs) holds later times: their low
# 64 bits still change whenever the file does. The native stat survey's 64-bit arithmetic
# wraps to the same bits.
Stamps = array
STAMP_WIDTH = 4
NO_STAMP: Stamp = (-1, -1, -1, -1)  # could not be stat'ed or read: never fresh
_SIGN_BIT = 1 << 63
_LOW_64_BITS = (1 << 64) - 1


def new_stamps() -> Stamps:
    return array("q")


def low_64_bits(number: int) -> int:
    """``number``'s low 64 bits, read as a signed 64-bit number."""
    number &= _LOW_64_BITS
    return number - (1 << 64) if number & _SIGN_BIT else number


_STAMP_BYTES = struct.Struct(f"={STAMP_WIDTH}q")


def stamp_bytes(stamp: Stamp | None) -> bytes:
    """``packable(stamp)`` as the bytes ``Stamps`` holds it in: a scan keeps each file's
    stamp this way until it stores them (8 MB less than tuples of four numbers at 100,000
    files, measured with tracemalloc at the end of a cold scan)."""
    return _STAMP_BYTES.pack(*packable(stamp))


def packable(stamp: Stamp | None) -> Stamp:
    """``stamp`` as four signed 64-bit numbers (see ``Stamps``)."""
    if stamp is None:
        return NO_STAMP
    size, mtime, ctime, inode = stamp
    if -_SIGN_BIT <= mtime < _SIGN_BIT and -_SIGN_BIT <= ctime < _SIGN_BIT and inode < _SIGN_BIT:
        return stamp  # every file but a rare one
    return size, low_64_bits(mtime), low_64_bits(ctime), low_64_bits(inode)


def cache_dir() -> Path:
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("intentus-tui", appauthor=False))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One directory as the index last saw it: ``summaries[i]`` and the stamp at
    ``stamps[STAMP_WIDTH * i:][:STAMP_WIDTH]`` belong to ``names[i]``."""

    # The directory listing as stored, undecoded: it is only ever compared with a new
    # listing, and 1,000,000 decoded names would stay in memory through a whole warm open.
    listing_blob: bytes
    names: list[str]
    stamps: Stamps
    counts: dict[str, int]
    # The inspect --list --json "executions" members, ready to print, in a file beside the
    # database: printing them is a copy from file to output that never passes through Python.
    rows_path: Path
    summaries_path: Path  # a table of field values per line, read with summary_chunks()

    def has_listing(self, listing: list[str]) -> bool:
        """``listing`` is the stored listing: its names, joined as stored (they hold no
        NUL), are the stored bytes. Compared a piece at a time, never decoded."""
        stored = memoryview(self.listing_blob)
        at = 0
        for piece in _blob_pieces(listing):
            if stored[at : at + len(piece)] != piece:
                return False
            at += len(piece)
        return at == len(stored)

    def summary_chunks(self) -> Iterator[list[ExecutionSummary]]:
        """The summaries a stored chunk at a time: a warm open of 100,000 never holds
        them all decoded at once. Raises OSError, ValueError, TypeError, KeyError or
        IndexError if the file is damaged or not ours."""
        with self.summaries_path.open("rb") as lines:
            for line in lines:
                yield summaries_of_line(line)


def summaries_of_line(line: bytes) -> list[ExecutionSummary]:
    """The summaries of one line of a snapshot's summaries file (a chunk). Raises
    ValueError, TypeError, KeyError or IndexError if it is damaged or not ours."""
    table = orjson.loads(line) if line[:1] != _WIDE else json.loads(line[1:])
    return summaries_from_table(table["fields"], table["rows"])


_BLOB_PIECE = 4096  # names encoded and written into the database at a time


def beside(first: Callable[[], T], second: Callable[[], None]) -> T:
    """``first()`` in a thread of its own while ``second()`` runs in this one; ``first``'s
    answer once both are done, or what it raised (raised here, never in its thread)."""
    answer: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            answer.append(first())
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)

    thread = threading.Thread(target=run, name="beside", daemon=True)
    thread.start()
    try:
        second()
    finally:
        thread.join()
    if failure:
        raise failure[0]
    return answer[0]


def _names_pieces(names: list[str]) -> tuple[int, Iterator[bytes]]:
    """The names as stored: joined by NUL (file names hold none) as UTF-8, undecodable
    bytes as surrogate escapes; its size, and its bytes a piece at a time. A snapshot's
    blobs are written into the database in pieces, into zeroblobs at the end of its row:
    storing a million names twice and their stamps took 334 MB at its peak when they were
    made whole and bound (the text, its bytes and SQLite's copies), 3 MB this way. It
    happens at the end of a scan, when the debugger holds the most. The size is that of
    the same pieces, made once more and dropped: at 100,000 names 7 ms, against 19-21 ms
    for a length taken name by name."""
    return sum(map(len, _blob_pieces(names))), _blob_pieces(names)


def _blob_pieces(names: list[str]) -> Iterator[bytes]:
    for start in range(0, len(names), _BLOB_PIECE):
        text = "\0".join(names[start : start + _BLOB_PIECE])
        yield (("\0" if start else "") + text).encode("utf-8", "surrogateescape")


def _names_of(blob: bytes) -> list[str]:
    return blob.decode("utf-8", "surrogateescape").split("\0") if blob else []


def _stamps_from(blob: bytes) -> Stamps:
    stamps = new_stamps()
    stamps.frombytes(blob)  # ValueError unless a whole number of stamps
    if len(stamps) % STAMP_WIDTH:
        raise ValueError("stamps cut short")
    return stamps


def _file_stamp(path: Path | None) -> list[int] | None:
    try:
        st = os.stat(path) if path is not None else None
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino] if st is not None else None


def _joined(parts: Iterable[bytes], separator: bytes) -> Iterator[bytes]:
    for i, part in enumerate(parts):
        yield separator + part if i else part


_CHUNK = 1024  # summaries per line of the summaries file


# Marks a line of summaries that orjson cannot write: an integer beyond 64 bits (a file
# time after 2554, which tmpfs can hold) or a lone surrogate. The json module writes and
# reads that line, exactly; every other line stays orjson's.
_WIDE = b"#"


def _json_lines(summaries: Iterable[ExecutionSummary]) -> Iterator[bytes]:
    chunk: list[ExecutionSummary] = []
    for summary in summaries:
        chunk.append(summary)
        if len(chunk) == _CHUNK:
            yield _json_line(chunk)
            chunk = []
    if chunk:
        yield _json_line(chunk)


def summary_lines(summaries: Iterable[ExecutionSummary]) -> bytes:
    """``summaries`` as the summaries file holds them (a part for ``store_parts``)."""
    return b"".join(_json_lines(summaries))


_VALUES = attrgetter(*FIELD_NAMES)


def _json_line(chunk: Sequence[ExecutionSummary]) -> bytes:
    """One line of the summaries file: a table, its header the field names and a row of
    values per summary. Read back in half the time of one object per summary (no key is
    written or hashed per summary; 100,000: 166 ms against 344, and half the bytes)."""
    table = {"fields": FIELD_NAMES, "rows": [_VALUES(summary) for summary in chunk]}
    try:
        return orjson.dumps(table) + b"\n"
    except orjson.JSONEncodeError:
        return _WIDE + json.dumps(table, separators=(",", ":")).encode("ascii") + b"\n"


def _write_file(path: Path, chunks: Iterable[bytes]) -> list[int] | None:
    """Write ``path`` whole or not at all (a reader never sees half); return its stamp."""
    atomic_write(path, chunks, durable=False)  # a lost cache is only rebuilt: no fsync
    return _file_stamp(path)


class IndexCache:
    """One SQLite file of directory snapshots for every directory the user opened."""

    def __init__(self, directory: Path | None = None) -> None:
        self._path = (directory or cache_dir()) / f"index-v{_SCHEMA}-{__version__}.sqlite"
        self._db: sqlite3.Connection | None = None

    @property
    def path(self) -> Path:
        return self._path

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is not None:
            return self._db
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self._path, timeout=0.5, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                # The big blobs last: SQLite makes a zeroblob without its zeros in memory
                # only at the end of a row (see ``_commit``).
                "CREATE TABLE IF NOT EXISTS snapshots (dir TEXT PRIMARY KEY, counts BLOB,"
                " files BLOB, listing BLOB, names BLOB, stamps BLOB)"
            )
            db.execute("SELECT count(*) FROM snapshots LIMIT 1").fetchone()
        except (sqlite3.Error, OSError):
            self._discard()
            return None
        self._db = db
        return db

    def _discard(self) -> None:
        """A corrupt or unusable cache is removed (if we can) and bypassed."""
        self.close()
        with contextlib.suppress(OSError):
            if self._path.exists() and self._path.stat().st_size > 0:
                self._path.unlink()

    def load(self, directory: Path) -> Snapshot | None:
        """The snapshot of ``directory``, if there is a readable one (its summaries are
        read on request, with ``Snapshot.summary_chunks``)."""
        db = self._connect()
        if db is None:
            return None
        try:
            row = db.execute(
                "SELECT listing, names, stamps, counts, files FROM snapshots WHERE dir = ?",
                (str(directory),),
            ).fetchone()
        except sqlite3.Error:
            self._discard()
            return None
        if row is None:
            return None
        rows_path, summaries_path = self._side_files(directory)
        try:
            snapshot = Snapshot(
                listing_blob=bytes(row[0]),
                names=_names_of(row[1]),
                stamps=_stamps_from(row[2]),
                counts=orjson.loads(row[3]),
                rows_path=rows_path,
                summaries_path=summaries_path,
            )
            if orjson.loads(row[4]) != [_file_stamp(rows_path), _file_stamp(summaries_path)]:
                return None  # a side file is gone, or is not the one this snapshot wrote
        except (OSError, orjson.JSONDecodeError, TypeError, ValueError, IndexError):
            self._discard()
            return None
        if len(snapshot.names) != len(snapshot.stamps) // STAMP_WIDTH:
            self._discard()
            return None
        return snapshot

    def summaries_file(self, directory: Path) -> Path | None:
        """The file of ``directory``'s summaries as the index last stored them, if there is
        a cache and its snapshot of ``directory`` wrote that file (nothing else is read,
        and no cache is made)."""
        if not self._path.is_file():
            return None
        db = self._connect()
        if db is None:
            return None
        try:
            row = db.execute(
                "SELECT files FROM snapshots WHERE dir = ?", (str(directory),)
            ).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        rows_path, summaries_path = self._side_files(directory)
        try:
            if orjson.loads(row[0]) != [_file_stamp(rows_path), _file_stamp(summaries_path)]:
                return None
        except (orjson.JSONDecodeError, TypeError):
            return None
        return summaries_path

    def store(
        self,
        directory: Path,
        *,
        listing: list[str],
        names: list[str],
        stamps: Stamps,
        counts: dict[str, int],
        rows: Iterable[bytes],
        summaries: Iterable[ExecutionSummary],
    ) -> None:
        """Replace the snapshot of ``directory``. ``rows`` and ``summaries`` (one per name)
        are written out as they come: a 100,000-file snapshot is never whole in memory."""
        db = self._connect()
        if db is None:
            return
        rows_path, summaries_path = self._side_files(directory)
        try:
            files = [
                _write_file(rows_path, _joined(rows, b",\n")),
                _write_file(summaries_path, _json_lines(summaries)),
            ]
        except (TypeError, ValueError, OSError):  # not encodable (UnicodeError is a ValueError)
            return
        self._commit(db, directory, listing, names, stamps, counts, files)

    def store_parts(
        self,
        directory: Path,
        *,
        listing: list[str],
        names: list[str],
        parts: Iterable[tuple[bytes, bytes]],
        totals: Callable[[], tuple[dict[str, int], Stamps]],
        meanwhile: Callable[[Path], None] | None = None,
    ) -> Path | None:
        """Replace the snapshot of ``directory`` from ``parts`` made elsewhere, in the
        names' order: (listing rows joined by ``,\n``, lines of ``summary_lines``). The
        counts and stamps (``totals``) are asked for once every part is written. Returns
        the file of listing rows, or None if the cache could not take it all.
        ``meanwhile(rows file)`` runs in this thread while the snapshot is committed in
        another (the database's work mostly outside the GIL): both are done on return."""
        db = self._connect()
        if db is None:
            return None
        rows_path, summaries_path = self._side_files(directory)
        try:
            with (
                atomic_file(rows_path, durable=False) as write_rows,
                atomic_file(summaries_path, durable=False) as write_summaries,
            ):
                separator = b""
                for rows, lines in parts:
                    if rows:
                        write_rows(separator + rows)
                        separator = b",\n"
                    write_summaries(lines)
            files = [_file_stamp(rows_path), _file_stamp(summaries_path)]
        except OSError:
            return None
        counts, stamps = totals()

        def commit() -> bool:
            return self._commit(db, directory, listing, names, stamps, counts, files)

        committed = commit() if meanwhile is None else beside(commit, lambda: meanwhile(rows_path))
        return rows_path if committed else None

    def _commit(
        self,
        db: sqlite3.Connection,
        directory: Path,
        listing: list[str],
        names: list[str],
        stamps: Stamps,
        counts: dict[str, int],
        files: list[list[int] | None],
    ) -> bool:
        """The snapshot's row in the database, once its side files are written: its three
        big blobs made as zeros, then written a piece at a time (see ``_names_pieces``)."""
        stamp_view = memoryview(stamps).cast("B")
        try:
            listing_size, listing_pieces = _names_pieces(listing)
            names_size, names_pieces = _names_pieces(names)
            values = (
                str(directory),
                orjson.dumps(counts),
                orjson.dumps(files),
                listing_size,
                names_size,
                len(stamp_view),
            )
            with db:
                cursor = db.execute(
                    "INSERT OR REPLACE INTO snapshots (dir, counts, files, listing, names, stamps)"
                    " VALUES (?, ?, ?, zeroblob(?), zeroblob(?), zeroblob(?))",
                    values,
                )
                row = cursor.lastrowid
                assert row is not None  # an INSERT made a row
                pieces_of: tuple[tuple[str, Iterable[bytes | memoryview]], ...] = (
                    ("listing", listing_pieces),
                    ("names", names_pieces),
                    ("stamps", [stamp_view]),
                )
                for column, pieces in pieces_of:
                    with db.blobopen("snapshots", column, row) as blob:
                        for piece in pieces:
                            blob.write(piece)
        except (TypeError, ValueError):  # not encodable (UnicodeError is a ValueError)
            return False
        except sqlite3.Error:
            self._discard()
            return False
        return True

    def _side_files(self, directory: Path) -> tuple[Path, Path]:
        digest = hashlib.sha256(os.fsencode(directory)).hexdigest()[:32]
        base = f"{self._path.stem}-{digest}"
        return (
            self._path.parent / f"{base}-rows.json",
            self._path.parent / f"{base}-summaries.json",
        )

    def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
