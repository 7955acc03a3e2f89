"""The index cache's stamps: a file no stamp can break, on every path a listing takes.

A record file dated after 2262 (`touch -d @10000000000`: tar extraction and bad clocks make
them) has an mtime in nanoseconds beyond a signed 64-bit number. It must be listed, with
its real time, and the cache must still recognise it unchanged on the next open.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core import native, sanitize
from intentus_tui.core.index import scan
from intentus_tui.core.index.cache import (
    CACHE_ENV,
    NO_STAMP,
    IndexCache,
    low_64_bits,
    new_stamps,
    packable,
)
from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.index.scan import stat_names
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.records import hashing, load
from intentus_tui.render.listing_order import open_time_ordered, row_key, time_ordered_rows
from intentus_tui.render.rows import LISTING_ROWS
from tests.factories import make_record, write_record

AFTER_2262 = 10**19  # ns: 2286-11-20, as `touch -d @10000000000` sets it
HIGH_INODE = (1 << 64) - 5


def spy_on_the_pool(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Make the index summarize even a few files in its process pool, a file per chunk;
    returns the (cores, chunks) of each pool run, as they happen."""
    runs: list[tuple[int, int]] = []
    real = scan.map_chunks

    def spied(work: Any, decode: Any, chunks: Any, cores: int, **kwargs: Any) -> Any:
        if cores > 1:
            runs.append((cores, len(chunks)))
        return real(work, decode, chunks, cores, **kwargs)

    monkeypatch.setattr(scan, "PARALLEL_THRESHOLD", 2)
    monkeypatch.setattr(scan, "_CHUNK", 1)
    monkeypatch.setattr(scan, "map_chunks", spied)
    return runs


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(path))
    return path


@pytest.fixture
def far_future(tmp_path: Path) -> Path:
    """A records directory of four executions, one of them in a file dated 2286."""
    records = tmp_path / "records"
    for name in ("a-1", "b-2", "c-3"):
        write_record(records, make_record(execution_id=name))
    late = write_record(records, make_record(execution_id="late-1"))
    os.utime(late, ns=(AFTER_2262, AFTER_2262))
    assert late.stat().st_mtime_ns == AFTER_2262  # the filesystem holds it
    return records


@pytest.fixture(params=["as built", "pure Python"])
def lane(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The index with its native helpers as built, and without any (as
    ``INTENTUS_TUI_PURE_PYTHON=1`` runs it)."""
    if request.param == "pure Python":
        helpers = {id(getattr(native, name)) for name in native.active_helpers()}
        for module in (scan, hashing, load, sanitize):
            for name in dir(module):
                if id(getattr(module, name)) in helpers:
                    monkeypatch.setattr(module, name, None)
    return str(request.param)


def test_every_stamp_packs_and_equal_stamps_stay_equal() -> None:
    ordinary = (3477, 1_700_000_000_000_000_000, 1_700_000_000_000_000_001, 42)
    odd = (3477, AFTER_2262, AFTER_2262 + 1, HIGH_INODE)
    beyond_2554 = (1, 10**20, 10**20, 7)  # tmpfs holds 64-bit seconds
    stamps = new_stamps()
    for stamp in (ordinary, odd, beyond_2554, NO_STAMP):
        stamps.extend(packable(stamp))
    assert tuple(stamps[0:4]) == ordinary  # an ordinary stamp is kept as it is
    # exact up to 2554: the low 64 bits give the real number back
    assert [n & ((1 << 64) - 1) for n in stamps[4:8]] == list(odd)
    assert tuple(stamps[12:16]) == NO_STAMP
    assert packable(odd) == packable(odd)
    assert packable(odd) != packable((3477, AFTER_2262 + 1, AFTER_2262 + 1, HIGH_INODE))
    assert low_64_bits(-1) == -1 and low_64_bits((1 << 64) - 1) == -1
    assert low_64_bits(1 << 63) == -(1 << 63)


def test_the_stat_survey_packs_a_far_future_file(far_future: Path, lane: str) -> None:
    names = sorted(os.listdir(far_future))
    stamps = stat_names(far_future, names)
    late = names.index("late-1.json")
    st = (far_future / "late-1.json").stat()
    assert tuple(stamps[4 * late : 4 * late + 4]) == packable(
        (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    )
    assert len(stamps) == 4 * len(names)


@pytest.mark.parametrize("parallel", [False, True])
def test_the_index_lists_it_cold_and_warm_and_sees_it_change(
    far_future: Path,
    cache_dir: Path,
    lane: str,
    parallel: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pool_runs = spy_on_the_pool(monkeypatch) if parallel else []
    root = resolve_root(far_future)
    cold = DirectoryIndex(root, rows=LISTING_ROWS, workers=2).scan()
    assert [s.key for s in cold] == ["a-1.json", "b-2.json", "c-3.json", "late-1.json"]
    assert all(s.load_status.value == "ok" for s in cold)
    assert cold[3].mtime_ns == AFTER_2262  # its real time, in every lane

    # warm: the stamps written cold match the file as it is: nothing to read again
    assert DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() is not None
    assert DirectoryIndex(root, rows=LISTING_ROWS, workers=2).scan() == cold
    assert pool_runs == ([(2, 4)] if parallel else [])  # the cold scan's only
    assert DirectoryIndex(root, rows=LISTING_ROWS, use_cache=False, workers=2).scan() == cold

    # another far-future time is a change: the next open reads the file again
    os.utime(far_future / "late-1.json", ns=(AFTER_2262 + 10**9, AFTER_2262 + 10**9))
    assert DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() is None
    again = DirectoryIndex(root, rows=LISTING_ROWS, workers=2).scan()
    assert [s.key for s in again] == [s.key for s in cold]
    assert DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() is not None


def _list_json(directory: Path, cache: Path, *flags: str, pure: bool) -> list[dict[str, object]]:
    env = {**os.environ, CACHE_ENV: str(cache)}
    env.pop("INTENTUS_TUI_PURE_PYTHON", None)
    if pure:
        env["INTENTUS_TUI_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "intentus_tui.cli",
            "inspect",
            str(directory),
            "--list",
            "--json",
            *flags,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return list(json.loads(done.stdout)["executions"])


@pytest.mark.parametrize("pure", [False, True], ids=["as built", "pure Python"])
def test_inspect_list_json_lists_it_on_every_path(
    far_future: Path, tmp_path: Path, pure: bool
) -> None:
    cache = tmp_path / "cache"
    without_cache = _list_json(far_future, cache, "--no-cache", pure=pure)
    assert [row["execution_id"] for row in without_cache] == ["a-1", "b-2", "c-3", "late-1"]
    assert not cache.exists()
    cold = _list_json(far_future, cache, pure=pure)  # writes the cache
    assert any(cache.iterdir())
    warm = _list_json(far_future, cache, pure=pure)  # printed from it
    assert cold == warm == without_cache
    assert _list_json(far_future, cache, "--no-cache", pure=pure) == without_cache


def test_summaries_orjson_cannot_write_are_stored_exactly(tmp_path: Path) -> None:
    """A file time after 2554 (an integer beyond 64 bits) and a file name with undecodable
    bytes (a lone surrogate) are stored and read back exactly, beside ordinary ones."""
    from dataclasses import replace

    from intentus_tui.core.index.summarize import summarize_path

    write_record(tmp_path, make_record(execution_id="e1", intent="Résumé “Q3”"))
    summary = summarize_path(tmp_path / "e1.json")
    ordinary = [replace(summary, key=f"a{i}.json") for i in range(3)]
    odd = [
        replace(summary, key="b.json", mtime_ns=10**20),
        replace(summary, key="c\udcff.json", mtime_ns=-(10**20)),
    ]
    cache = IndexCache(tmp_path)
    stamps = new_stamps()
    stamps.extend(NO_STAMP * 5)
    names = [s.key for s in ordinary + odd]
    cache.store(
        tmp_path, listing=names, names=names, stamps=stamps, counts={}, rows=[],
        summaries=ordinary + odd,
    )  # fmt: skip
    snapshot = cache.load(tmp_path)
    assert snapshot is not None
    assert [s for chunk in snapshot.summary_chunks() for s in chunk] == ordinary + odd


def test_a_summaries_file_of_another_shape_is_not_read_as_summaries(tmp_path: Path) -> None:
    """The summaries file of an older version (one object per summary) or any other JSON
    raises, so the index reads the files instead of trusting it."""
    cache = IndexCache(tmp_path)
    stamps = new_stamps()
    stamps.extend(NO_STAMP)
    cache.store(
        tmp_path, listing=["a.json"], names=["a.json"], stamps=stamps, counts={}, rows=[],
        summaries=[],
    )  # fmt: skip
    snapshot = cache.load(tmp_path)
    assert snapshot is not None
    for text in ('[{"key": "a.json"}]\n', '{"fields": ["key"], "rows": [["a.json"]]}\n'):
        snapshot.summaries_path.write_text(text)
        with pytest.raises((TypeError, KeyError, ValueError)):
            list(snapshot.summary_chunks())
    assert scan.stored_summaries(snapshot) is None


def test_names_and_stamps_stored_in_pieces_come_back_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot's names (any bytes a file system allows but NUL, across several pieces)
    and stamps are read back exactly as they were stored."""
    from intentus_tui.core.index import cache as cache_module

    monkeypatch.setattr(cache_module, "_BLOB_PIECE", 3)
    names = ["a.json", "zürich.json", "bad\udcff.json", "東京.json", "e.json", "f.json", "g"]
    listing = [*names, "notes.txt"]
    stamps = new_stamps()
    for n in range(len(names)):
        stamps.extend((n, 10**18 + n, -n, 2**62 + n))
    cache = IndexCache(tmp_path)
    cache.store(
        tmp_path,
        listing=listing,
        names=names,
        stamps=stamps,
        counts={"executions": 7},
        rows=[],
        summaries=[],
    )
    snapshot = cache.load(tmp_path)
    assert snapshot is not None
    assert snapshot.has_listing(listing) and snapshot.names == names
    assert not snapshot.has_listing(names) and not snapshot.has_listing([*listing, "x.json"])
    assert snapshot.stamps == stamps and snapshot.counts == {"executions": 7}
    for few in ([], ["only.json"]):  # no piece at all; one name and no separator
        few_stamps = new_stamps()
        few_stamps.extend(NO_STAMP * len(few))
        cache.store(
            tmp_path,
            listing=few,
            names=few,
            stamps=few_stamps,
            counts={},
            rows=[],
            summaries=[],
        )
        again = cache.load(tmp_path)
        assert again is not None and again.names == few and again.has_listing(few)


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A directory on tmpfs, whose 64-bit seconds hold times after 2554 (ext4 stops at 2446)."""
    if not os.path.isdir("/dev/shm"):
        pytest.skip("no /dev/shm")
    path = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        yield path
    finally:
        shutil.rmtree(path)


def test_a_file_dated_after_2554_is_listed_and_cached(
    tmpfs: Path, cache_dir: Path, lane: str
) -> None:
    late = write_record(tmpfs, make_record(execution_id="late-1"))
    write_record(tmpfs, make_record(execution_id="a-1"))
    os.utime(late, ns=(10**20, 10**20))
    if late.stat().st_mtime_ns != 10**20:
        pytest.skip("this /dev/shm clamps times")
    root = resolve_root(tmpfs)
    cold = DirectoryIndex(root, rows=LISTING_ROWS).scan()
    assert [s.key for s in cold] == ["a-1.json", "late-1.json"]
    assert cold[1].mtime_ns == 10**20  # its real time, in every lane
    assert (
        DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() is not None
    )  # cached, and fresh
    assert DirectoryIndex(root, rows=LISTING_ROWS).scan() == cold


@pytest.mark.parametrize("parallel", [False, True])
def test_a_first_open_fills_the_cache_from_the_workers_parts(
    tmp_path: Path, cache_dir: Path, parallel: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first open with the cache on streams the workers' rows and summaries into the
    cache (no summary held by the parent): the listing is the one a no-cache open prints,
    and the next open, warm, gives every summary back as a no-cache scan makes it."""
    records = tmp_path / "records"
    for n in range(7):
        write_record(records, make_record(execution_id=f"exec-{n}"))
    (records / "cut-1.json").write_bytes(b'{"header": {"executionId": "cut-1"')  # salvaged
    root = resolve_root(records)
    no_cache = DirectoryIndex(root, rows=LISTING_ROWS, use_cache=False, workers=2)
    expected_counts, expected_blocks = no_cache.listing_json() or ({}, [])
    pool_runs = spy_on_the_pool(monkeypatch) if parallel else []

    first = DirectoryIndex(root, rows=LISTING_ROWS, workers=2)
    assert first.fresh_listing_json() is None  # nothing cached yet
    filled = first.filled_listing_json()
    assert filled is not None
    counts, rows_path, places = filled
    assert counts == expected_counts
    written = rows_path.read_bytes()
    # the no-cache open reads the files in the directory's own order, the cache in name
    # order: the same rows, and the same listing once put in order
    no_cache_rows = [row for block in expected_blocks for row in block.rows.split(b",\n")]
    assert sorted(written.split(b",\n")) == sorted(no_cache_rows)
    printed = b"".join(piece for batch in time_ordered_rows(expected_blocks) for piece in batch)
    ordered = open_time_ordered(rows_path, places)
    assert ordered is not None
    with ordered:
        assert ordered.read() == printed
    # where each row is, and its key, as the workers said: the same as reading the file
    assert places.size == len(written)
    rows = written.split(b",\n")
    placed = zip(places.starts, places.lengths, strict=True)
    assert [written[s : s + n] for s, n in placed] == rows
    assert places.keys == [row_key(row) for row in rows]
    assert pool_runs == ([(2, 8)] if parallel else [])

    warm = DirectoryIndex(root, rows=LISTING_ROWS, workers=2)
    assert warm.fresh_listing_json() == (counts, rows_path)
    assert warm.scan() == DirectoryIndex(root, use_cache=False).scan()
    # an update is not a first open: the usual scan reads what changed
    write_record(records, make_record(execution_id="exec-new"))
    assert DirectoryIndex(root, rows=LISTING_ROWS).filled_listing_json() is None


def test_the_ordered_copy_is_made_while_the_snapshot_commits(tmp_path: Path) -> None:
    """A first open's ordered copy runs beside the commit of its snapshot; when the open
    returns both are done: the copy is the listing, the snapshot is there for a re-open."""
    records = tmp_path / "records"
    for n in range(5):
        write_record(records, make_record(execution_id=f"exec-{n}"))
    root = resolve_root(records)
    expected_blocks = DirectoryIndex(root, rows=LISTING_ROWS, use_cache=False).listing_json()
    assert expected_blocks is not None
    printed = b"".join(piece for batch in time_ordered_rows(expected_blocks[1]) for piece in batch)
    seen: list[bytes] = []

    def meanwhile(rows_path: Path, places: Any) -> None:
        ordered = open_time_ordered(rows_path, places)
        assert ordered is not None
        with ordered:
            seen.append(ordered.read())

    filled = DirectoryIndex(root, rows=LISTING_ROWS).filled_listing_json(meanwhile)
    assert filled is not None and seen == [printed]
    assert DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() == filled[:2]


def test_beside_runs_both_at_once_and_raises_where_it_was_called() -> None:
    import threading

    from intentus_tui.core.index.cache import beside

    started = threading.Event()

    def first() -> str:  # waits for the second: done one after the other, it would fail
        return "both" if started.wait(timeout=10) else "one after the other"

    assert beside(first, started.set) == "both"

    def broken() -> str:
        raise sqlite3.OperationalError("disk I/O error")

    with pytest.raises(sqlite3.OperationalError):  # raised here, not in its thread
        beside(broken, lambda: None)
    done: list[str] = []

    def finishes() -> str:
        done.append("first")
        return "first"

    def fails() -> None:
        raise ValueError("second")

    with pytest.raises(ValueError):  # the second's error, once the first is done too
        beside(finishes, fails)
    assert done == ["first"]
