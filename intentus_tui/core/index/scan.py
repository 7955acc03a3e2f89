"""Reading a whole directory: the record names, each file's stamp (the stat survey), and
the summaries made on every core, a chunk of files at a time.

Listing rows are made by whoever shows them (``intentus_tui.render``), not here: a
caller hands in a ``RowFormat`` and the workers make the rows with the summaries, on
their own cores, so that a listing or the cache never makes them again.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import signal
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple, Protocol, overload

import orjson

from intentus_tui.core.index.access import Reader, current_reader, mode_lets_read
from intentus_tui.core.index.cache import (
    NO_STAMP,
    STAMP_WIDTH,
    Snapshot,
    Stamp,
    Stamps,
    new_stamps,
    packable,
    stamp_bytes,
    summary_lines,
)
from intentus_tui.core.index.parallel import PARALLEL_THRESHOLD, can_fork, map_chunks
from intentus_tui.core.model import (
    FIELD_NAMES,
    ExecutionSummary,
    share_repeated,
    summaries_from_table,
)
from intentus_tui.core.native import stat_stamps as _native_stat_stamps
from intentus_tui.core.records.load import is_record_name


class RowFormat(Protocol):
    """How a listing shows summaries: one row each (bytes, no separator), and the
    counts printed with them. Must pickle (it travels to worker processes)."""

    def row(self, summary: ExecutionSummary) -> bytes: ...

    def counts(self, summaries: Iterable[ExecutionSummary]) -> dict[str, int]: ...

    def rows_and_counts(
        self, summaries: Sequence[ExecutionSummary]
    ) -> tuple[list[bytes], dict[str, int]]:
        """``row`` of each summary and their ``counts``, made together."""
        ...

    def order(self, summary: ExecutionSummary) -> bytes:
        """The row's place in the listing: keys that sort as the rows are to be printed."""
        ...


# Objects made and not freed since the last collection (``gc.get_count()[0]``) beyond
# which a chunk's end collects the young generations.
_CYCLE_ALLOWANCE = 20_000


def free_cycles() -> None:
    """The scan runs with the cyclic GC off (it would re-walk every summary kept so far),
    but a damaged file may leave cycles (an exception and its frames): free them once
    they add up. Collecting after every chunk took 1% of a listing's CPU, and almost
    every chunk left nothing to free."""
    if gc.get_count()[0] > _CYCLE_ALLOWANCE:
        gc.collect(1)


_CHUNK = 128


def summarizer() -> Callable[[str], tuple[Stamp | None, ExecutionSummary]]:
    """The summary lane's entry (``summarize.summarize_file``), imported when first
    needed: a warm listing that reads no file never loads the lane (8 ms of a 0.28 s
    re-open of 100,000 records). Called by this process before its workers fork, so that
    each inherits it rather than importing it again."""
    from intentus_tui.core.index.summarize import summarize_file

    return summarize_file


Built = tuple[Stamp | None, ExecutionSummary, bytes | None]


def summarize_chunk(
    paths: list[str], rows: RowFormat | None = None, home: int = 0, tidy_home: bool = True
) -> Any:
    """Worker side: (stamp, summary, listing row) per file.

    In the process ``home`` (the scan's own, which works too) the summaries stay objects;
    there the chunk frees the cycles left behind (``free_cycles``) only with ``tidy_home``
    (the scan turned the collector off; a program that turned it off itself collects as it
    decides: the debugger's young collections walk its list's million rows, 32 ms each).
    A worker process sends a table instead: a header of field names and each summary's
    values under it (a third smaller than one JSON object per summary, and rebuilt in
    half the time: the parent rebuilds every summary the workers send).
    """
    out = []
    summarize = summarizer()
    for path in paths:
        stamp, summary = summarize(path)
        out.append((stamp, summary, rows.row(summary).decode() if rows is not None else None))
    at_home = os.getpid() == home
    if tidy_home or not at_home:
        free_cycles()
    if at_home:
        return out
    values = attrgetter(*FIELD_NAMES)
    return {
        "fields": FIELD_NAMES,
        "stamps": [stamp for stamp, _, _ in out],
        "summaries": [values(summary) for _, summary, _ in out],
        "rows": [row for _, _, row in out],
    }


def _rebuild(result: Any) -> list[Built]:
    """``summarize_chunk``'s result as (stamp, summary, row), however it travelled."""
    if type(result) is list:  # made in this process
        share_repeated(summary for _, summary, _ in result)
        return [
            (stamp, summary, line.encode() if line is not None else None)
            for stamp, summary, line in result
        ]
    summaries = summaries_from_table(result["fields"], result["summaries"])
    return [
        (
            tuple(stamp) if stamp is not None else None,
            summary,
            line.encode() if line is not None else None,
        )
        for stamp, summary, line in zip(result["stamps"], summaries, result["rows"], strict=True)
    ]


def summarize_many(
    prefix: str,
    names: Sequence[str],
    workers: int | None,
    rows: RowFormat | None = None,
    *,
    tidy_home: bool = True,
) -> Iterator[list[Built]]:
    """Summaries of the files ``names`` under ``prefix`` in batches, on every core for a big
    directory. ``tidy_home``: as ``summarize_chunk``'s."""
    summarizer()  # loaded here, before any worker forks
    work = partial(summarize_chunk, rows=rows, home=os.getpid(), tidy_home=tidy_home)
    yield from map_chunks(work, _rebuild, PathChunks(prefix, names), cores_for(names, workers))


class RowBlock(NamedTuple):
    """A chunk's listing rows joined by ``,\\n``, with each row's order key and length
    (made by the workers, so that the parent sorts keys and never reads a row)."""

    rows: bytes
    keys: list[bytes]
    lengths: list[int]


def listing_chunk(paths: list[str], rows: RowFormat) -> bytes:
    """Worker side of a listing that needs no summaries kept: one line of JSON (the
    counts, each row's order key as Latin-1 text and its length), then the chunk's rows
    joined by ``,\\n``, in the order of their keys: the parent's sort of every row then
    merges sorted runs (at 100,000 rows, 27 ms here against 50-70 ms for rows in file
    order), and the sorting of each run is done on every core."""
    summarize = summarizer()
    summaries = [summarize(path)[1] for path in paths]
    keys = [rows.order(s) for s in summaries]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    summaries = [summaries[i] for i in order]
    made, counts = rows.rows_and_counts(summaries)
    head = {
        "counts": counts,
        "keys": [keys[i].decode("latin-1") for i in order],
        "lengths": [len(row) for row in made],
    }
    free_cycles()
    return orjson.dumps(head) + b"\n" + b",\n".join(made)


def split_listing_chunk(data: bytes) -> tuple[dict[str, int], RowBlock]:
    line, _, made = data.partition(b"\n")
    head = orjson.loads(line)
    keys = [key.encode("latin-1") for key in head["keys"]]
    return head["counts"], RowBlock(made, keys, head["lengths"])


def listing_blocks(
    prefix: str, names: Sequence[str], workers: int | None, rows: RowFormat
) -> tuple[dict[str, int], list[RowBlock]]:
    """Counts (summed over chunks, sorted) and blocks of rows of the files ``names`` under
    ``prefix``, as they are made (the rows' keys put them in order)."""
    counts = dict(rows.counts(()))  # every key, zero or not: no chunk at all when empty
    blocks = []
    summarizer()  # loaded here, before any worker forks
    work = partial(listing_chunk, rows=rows)
    parts = map_chunks(
        work,
        split_listing_chunk,
        PathChunks(prefix, names),
        cores_for(names, workers),
    )
    for chunk_counts, block in parts:
        for label, count in chunk_counts.items():
            counts[label] = counts.get(label, 0) + count
        blocks.append(block)
    return dict(sorted(counts.items())), blocks


@dataclass(slots=True)
class RowPlaces:
    """Where each row of a file of listing rows (joined by ``,\\n``) is, with its order
    key: made by the workers beside the rows, so that the file is put in order without
    reading a row back."""

    keys: list[bytes] = field(default_factory=list)
    starts: array[int] = field(default_factory=lambda: array("q"))
    lengths: array[int] = field(default_factory=lambda: array("q"))
    size: int = 0  # the file's length so far

    def add(self, keys: list[bytes], lengths: list[int]) -> None:
        """The rows of the next part written (after a separator if anything came before)."""
        if not lengths:
            return
        start = self.size + len(b",\n") if self.size else 0
        for length in lengths:
            self.starts.append(start)
            start += length + len(b",\n")
        self.keys += keys
        self.lengths.extend(lengths)
        self.size = start - len(b",\n")


def filling_chunk(paths: list[str], rows: RowFormat) -> bytes:
    """Worker side of a first open with the cache on: what the cache keeps of each file
    (its stamp, its listing row, its summary as the summaries file holds it), each row's
    order key and length, and the chunk's counts, so that the parent writes them out as
    they come and holds no summary. One line of JSON, then the rows, then the summary
    lines: bytes as they are (inside JSON, every quote in them was escaped and unescaped)."""
    summarize = summarizer()
    built = [summarize(path) for path in paths]
    summaries = [summary for _, summary in built]
    made, counts = rows.rows_and_counts(summaries)
    joined = b",\n".join(made)
    head = {
        "counts": counts,
        "stamps": [packable(stamp) for stamp, _ in built],
        "keys": [rows.order(s).decode("latin-1") for s in summaries],
        "lengths": [len(row) for row in made],
        "rows_size": len(joined),
    }
    free_cycles()
    return orjson.dumps(head) + b"\n" + joined + summary_lines(summaries)


def filling_parts(
    prefix: str,
    names: Sequence[str],
    workers: int | None,
    rows: RowFormat,
    counts: dict[str, int],
    stamps: Stamps,
    places: RowPlaces,
) -> Iterator[tuple[bytes, bytes]]:
    """``filling_chunk`` of the files ``names`` under ``prefix`` in order, on every core for
    a big directory: yields (rows, summary lines) and adds each chunk's counts, stamps and
    row places to ``counts``/``stamps``/``places``."""
    summarizer()  # loaded here, before any worker forks
    work = partial(filling_chunk, rows=rows)
    files = PathChunks(prefix, names)
    for part in map_chunks(work, _as_is, files, cores_for(names, workers), ordered=True):
        line, _, rest = part.partition(b"\n")
        head = orjson.loads(line)
        for label, count in head["counts"].items():
            counts[label] = counts.get(label, 0) + count
        for stamp in head["stamps"]:
            stamps.extend(stamp)
        places.add([key.encode("latin-1") for key in head["keys"]], head["lengths"])
        size = head["rows_size"]
        yield rest[:size], rest[size:]


def _as_is(result: Any) -> Any:
    return result


class PathChunks(Sequence[list[str]]):
    """The full paths of the files ``names`` under ``prefix``, ``_CHUNK`` at a time, each
    chunk made when it is asked for: a million paths made at once held 120 MB until the
    scan ended."""

    def __init__(self, prefix: str, names: Sequence[str]) -> None:
        self._prefix = prefix
        self._names = names

    def __len__(self) -> int:
        return -(-len(self._names) // _CHUNK)

    @overload
    def __getitem__(self, index: int) -> list[str]: ...

    @overload
    def __getitem__(self, index: slice) -> list[list[str]]: ...

    def __getitem__(self, index: int | slice) -> list[str] | list[list[str]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        start = (index % len(self)) * _CHUNK
        prefix = self._prefix
        return [prefix + name for name in self._names[start : start + _CHUNK]]


def cores_for(names: Sequence[str], workers: int | None) -> int:
    if len(names) < PARALLEL_THRESHOLD:
        return 1  # below this, starting helpers costs more than it saves
    return workers if workers is not None else (os.cpu_count() or 1)


# ------------------------------------------------------------------ the stat survey


class Survey(NamedTuple):
    """A directory's record files and their stamps now, and the snapshot of last time."""

    listing: list[str]
    names: list[str]
    stamps: Stamps
    snapshot: Snapshot | None

    @property
    def fresh(self) -> bool:
        """Nothing changed: same files, same stamps, and every file could be stat'ed."""
        snapshot = self.snapshot
        return (
            snapshot is not None
            and snapshot.names == self.names
            and snapshot.stamps == self.stamps
            and NO_STAMP[0] not in self.stamps[::STAMP_WIDTH]  # sizes: -1 marks NO_STAMP
        )


def listdir(directory: Path) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def record_names(listing: list[str], *, in_order: bool = True) -> list[str]:
    """The record files' names in ``listing``: sorted, or as listed with ``in_order=False``
    (for a caller that orders what it makes by keys of its own: at 100,000 names the sort
    takes 23 ms, all of it before any worker starts)."""
    names = list(filter(is_record_name, listing))
    if in_order:
        names.sort()
    return names


def stored_summaries(snapshot: Snapshot | None) -> list[ExecutionSummary] | None:
    """The snapshot's summaries (its names and stamps are already loaded), or None when
    there is none or its file is damaged or not ours."""
    if snapshot is None:
        return None
    try:
        summaries = [summary for chunk in snapshot.summary_chunks() for summary in chunk]
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return None
    return summaries if len(summaries) == len(snapshot.names) else None


def keep_unchanged(
    survey: Survey,
    old: Snapshot,
    old_summaries: list[ExecutionSummary],
    fresh: list[ExecutionSummary],
    stamps: dict[str, bytes],
) -> list[str]:
    """Add to ``fresh`` (and ``stamps``) the snapshot's summary of every file whose stamp
    is unchanged; return the names of the others, to read."""
    known = {name: i for i, name in enumerate(old.names)}
    todo: list[str] = []
    width = STAMP_WIDTH
    for i, name in enumerate(survey.names):
        stamp = tuple(survey.stamps[width * i : width * (i + 1)])
        j = known.get(name)
        if (
            j is not None
            and stamp != NO_STAMP
            and tuple(old.stamps[width * j : width * (j + 1)]) == stamp
        ):
            fresh.append(old_summaries[j])
            stamps[name] = stamp_bytes(stamp)
        else:
            todo.append(name)
    return todo


# Below this many files, a second process to stat them costs more than it saves.
PARALLEL_STAT_THRESHOLD = 20_000


def stat_names(directory: Path, names: list[str], workers: int | None = None) -> Stamps:
    """Each file's stamp (following a link, as reading does; ``NO_STAMP`` where it cannot
    be stat'ed), packed. A stat costs a few microseconds of system time and there may be
    100,000 of them: a big directory is split with a forked helper when that is safe."""
    stamps = stat_names_while(directory, names, workers, _go_on, helper_share=0.5)
    assert stamps is not None  # nothing said to stop
    return stamps


def _go_on() -> bool:
    return True


def stat_names_while(
    directory: Path,
    names: list[str],
    workers: int | None,
    meanwhile: Callable[[], bool],
    *,
    helper_share: float,
) -> Stamps | None:
    """``stat_names``, with ``meanwhile()`` run here while a forked helper stats its share
    of ``names`` (``helper_share``, the larger one when ``meanwhile`` takes a while), or
    before any stat where no helper is forked. None, and the helper stopped, when
    ``meanwhile`` says (False) that these are not the names to stat after all."""
    try:
        directory_fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        if not meanwhile():
            return None
        return stamps_of([os.path.join(directory, name) for name in names], None)
    try:
        return _stat_split(names, directory_fd, workers, meanwhile, helper_share)
    finally:
        os.close(directory_fd)


def _stat_split(
    names: list[str],
    directory_fd: int,
    workers: int | None,
    meanwhile: Callable[[], bool],
    helper_share: float,
) -> Stamps | None:
    cores = workers if workers is not None else (os.cpu_count() or 1)
    if len(names) < PARALLEL_STAT_THRESHOLD or cores <= 1 or not can_fork():
        return stamps_of(names, directory_fd) if meanwhile() else None
    split = len(names) - int(len(names) * helper_share)
    ours, theirs = names[:split], names[split:]
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper: stat its part, send it packed, leave without cleanup
        status = 0
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                out.write(stamps_of(theirs, directory_fd).tobytes())
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    stamps: Stamps | None = None
    try:
        if meanwhile():
            stamps = stamps_of(ours, directory_fd)
    finally:
        if stamps is None:  # its stats are of no use: it is stopped, not waited for
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with os.fdopen(read_end, "rb") as incoming:
            data = incoming.read() if stamps is not None else b""
        os.waitpid(pid, 0)
    if stamps is None:
        return None
    if len(data) != len(theirs) * STAMP_WIDTH * stamps.itemsize:
        return stamps_of(names, directory_fd)  # the helper failed: do it all here
    stamps.frombytes(data)
    return stamps


def stamps_of(names: list[str], directory_fd: int | None) -> Stamps:
    """Stamps of ``names`` (relative to ``directory_fd``, or paths when it is None), as
    ``cache.packable`` packs them: the inner loop of a re-open, in C where it is built. A
    file whose mode bits deny this process is never fresh (``core.index.access``)."""
    reader = current_reader()
    if (
        _native_stat_stamps is not None
        and directory_fd is not None
        and (reader is None or _native_takes_reader())
    ):
        out = new_stamps()  # the same loop in C: the system calls alone
        if reader is None:
            out.frombytes(_native_stat_stamps(directory_fd, names))
        else:
            out.frombytes(_native_stat_stamps(directory_fd, names, *reader))
        return out
    return python_stamps_of(names, directory_fd, reader)


@functools.cache
def _native_takes_reader() -> bool:
    """Does the native ``stat_stamps`` take a reader? One built before it did refuses it
    (then the pure loop runs, which does)."""
    if _native_stat_stamps is None:
        return False
    try:
        return _native_stat_stamps(-1, [], 0, 0, ()) == b""
    except TypeError:
        return False


def python_stamps_of(
    names: list[str], directory_fd: int | None, reader: Reader | None = None
) -> Stamps:
    """``stamps_of`` in Python (the definition of the native ``stat_stamps``): with a
    ``reader``, ``NO_STAMP`` for a file whose mode bits deny it."""
    out = new_stamps()
    add = out.extend
    stat = os.stat
    for name in names:
        try:
            st = stat(name, dir_fd=directory_fd)
        except OSError:  # vanished, unreadable, a dangling link: read (and explain) it
            add(NO_STAMP)
            continue
        if reader is not None and not mode_lets_read(st, reader):
            add(NO_STAMP)  # read again: reading it says whether it can be read
            continue
        add(packable((st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)))
    return out
