"""Files that change under the reader: deleted, rewritten, swapped for a FIFO, or made
unreadable between listing and reading. Always a clean classification, and a rewritten
file reads as the old or the new content, never a mix."""

from __future__ import annotations

import errno
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import intentus_tui.core.index.directory as index_module
import intentus_tui.core.index.summarize as summarize_module
from intentus_tui.core.detail import load_detail
from intentus_tui.core.fsio import PlainFile
from intentus_tui.core.index.directory import scan_root
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.load import LoadStatus, load_record_file
from intentus_tui.core.verist.snapshot import SnapshotError, load_snapshot
from intentus_tui.core.wal.read import read_wal
from tests.factories import make_record
from tests.hostile.corpus import dump_json
from tests.hostile.harness import deadline, exercise


def _records(directory: Path, count: int = 4) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(count):
        path = directory / f"r-{n}.json"
        path.write_bytes(dump_json(make_record(execution_id=f"r-{n}")))
        paths.append(path)
    return paths


def _scan_with(
    directory: Path, monkeypatch: pytest.MonkeyPatch, after_listing: Callable[[Path], None]
) -> dict[str, Any]:
    real = index_module.listdir  # what the scan lists the directory with

    def listing(d: Path) -> list[str]:
        names = real(d)
        after_listing(d)
        return names

    monkeypatch.setattr(index_module, "listdir", listing)
    with deadline(10, "scan"):
        rows = scan_root(RecordRoot(directory, None, directory), use_cache=False, workers=1)
    return {s.key: s for s in rows}


def test_deleted_between_listing_and_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _records(tmp_path)
    rows = _scan_with(tmp_path, monkeypatch, lambda d: (d / "r-1.json").unlink())
    assert rows["r-1.json"].load_status is LoadStatus.UNREADABLE
    assert "vanished" in rows["r-1.json"].message
    assert {k for k, s in rows.items() if s.load_status is LoadStatus.OK} == {
        "r-0.json",
        "r-2.json",
        "r-3.json",
    }
    result = load_record_file(tmp_path / "r-1.json")
    assert result.status is LoadStatus.UNREADABLE
    exercise(result)
    assert load_detail(tmp_path / "r-1.json", tmp_path).result.status is LoadStatus.UNREADABLE


def test_rewritten_between_listing_and_reading_reads_the_new_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _records(tmp_path)
    new = make_record(execution_id="r-2", intent="Rewritten")

    def rewrite(d: Path) -> None:
        temp = d / ".r-2.json.tmp"
        temp.write_bytes(dump_json(new))
        os.replace(temp, d / "r-2.json")

    rows = _scan_with(tmp_path, monkeypatch, rewrite)
    assert rows["r-2.json"].intent == "Rewritten" and rows["r-2.json"].load_status is LoadStatus.OK


@pytest.mark.parametrize("kind", ["fifo", "directory", "broken symlink"])
def test_replaced_by_a_non_file_between_listing_and_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    _records(tmp_path)

    def swap(d: Path) -> None:
        target = d / "r-3.json"
        target.unlink()
        if kind == "fifo":
            os.mkfifo(target)
        elif kind == "directory":
            target.mkdir()
        else:
            os.symlink(d / "gone.json", target)

    rows = _scan_with(tmp_path, monkeypatch, swap)
    expected = LoadStatus.UNREADABLE if kind == "broken symlink" else LoadStatus.NOT_A_FILE
    assert rows["r-3.json"].load_status is expected


def test_atomic_rewrites_racing_the_reader_read_old_or_new(tmp_path: Path) -> None:
    """A writer replaces one record by rename as fast as it can; every read is whole."""
    versions = [make_record(execution_id="race-1", intent=f"v{n}") for n in range(2)]
    blobs = [dump_json(v) for v in versions]
    path = tmp_path / "race-1.json"
    path.write_bytes(blobs[0])
    stop = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            temp = tmp_path / f".race-1.json.{n}.tmp"
            temp.write_bytes(blobs[n % 2])
            os.replace(temp, path)

    thread = threading.Thread(target=writer)
    thread.start()
    seen = set()
    try:
        for _ in range(400):
            result = load_record_file(path)
            assert result.status is LoadStatus.OK, result.message
            assert result.record is not None
            assert result.record.raw in versions
            seen.add(result.record.intent_name)
    finally:
        stop.set()
        thread.join()
    assert seen  # both versions are usually seen; at least one always


def test_in_place_rewrites_racing_the_reader_are_classified(tmp_path: Path) -> None:
    """A writer that truncates and rewrites in place (not atomic): a reader may catch it
    empty or half-written. That is classified; a read that parses is a whole record.

    (It is not always the old or the new version: without a temp file and a rename, a
    reader can get the start of one write and the end of the next, and when the cut falls
    where both are alike that is valid JSON. No reader can tell; 1.3.0 writes this way.)"""
    versions = [make_record(execution_id="torn-1", intent=f"v{n}" * 50) for n in range(2)]
    blobs = [dump_json(v) for v in versions]
    path = tmp_path / "torn-1.json"
    path.write_bytes(blobs[0])
    stop = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            with open(path, "wb") as handle:
                data = blobs[n % 2]
                handle.write(data[: len(data) // 2])
                handle.flush()
                handle.write(data[len(data) // 2 :])

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for _ in range(400):
            result = load_record_file(path)
            exercise(result, compare=False, inspect=False)
            assert result.status in (LoadStatus.OK, LoadStatus.SALVAGED, LoadStatus.EMPTY)
            if result.status is LoadStatus.OK:
                assert result.record is not None and result.record.execution_id == "torn-1"
                assert set(result.record.raw) == set(versions[0])
    finally:
        stop.set()
        thread.join()


def _deny(monkeypatch: pytest.MonkeyPatch, denied: set[Path]) -> None:
    """As root, permission bits stop nothing: refuse opening these paths instead."""
    real_open = os.open

    def guarded_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(os.fsdecode(path)) in denied:
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)
    # The native quick read opens in C, where a denied open gives None (then the careful
    # reader opens through os.open and meets the refusal).
    quick_read = summarize_module.read_plain_file

    def guarded_quick_read(path: str, limit: int) -> PlainFile | None:
        return None if Path(path) in denied else quick_read(path, limit)

    monkeypatch.setattr(summarize_module, "read_plain_file", guarded_quick_read)


def test_permission_denied_everywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = tmp_path / "records"
    wal_dir = tmp_path / "wal"
    wal_dir.mkdir()
    paths = _records(records)
    wal = wal_dir / "r-0.wal"
    wal.write_bytes(b"{}\n")
    _deny(monkeypatch, {paths[0], wal})
    result = load_record_file(paths[0])
    assert result.status is LoadStatus.UNREADABLE and "Permission denied" in result.message
    exercise(result)
    assert read_wal(wal).file_status == "permission_denied"
    rows = {
        s.key: s
        for s in scan_root(RecordRoot(records, wal_dir, tmp_path), use_cache=False, workers=1)
    }
    assert rows["r-0.json"].load_status is LoadStatus.UNREADABLE
    assert rows["r-0.json"].wal_state == "unknown"
    assert rows["r-1.json"].load_status is LoadStatus.OK
    detail = load_detail(paths[0], wal_dir)
    assert detail.wal is not None and detail.wal.file_status == "permission_denied"
    with pytest.raises(SnapshotError, match="permission denied"):
        load_snapshot(paths[0])


def test_a_file_growing_while_read_is_read_once(tmp_path: Path) -> None:
    """The loader reads what fstat promised, then what is there: an appended tail is
    either included or not, and either way the result is classified."""
    path = tmp_path / "grow-1.json"
    blob = dump_json(make_record(execution_id="grow-1"))
    path.write_bytes(blob[:100])
    stop = threading.Event()

    def appender() -> None:
        with open(path, "ab") as handle:
            for at in range(100, len(blob), 7):
                if stop.is_set():
                    return
                handle.write(blob[at : at + 7])
                handle.flush()

    thread = threading.Thread(target=appender)
    thread.start()
    try:
        while thread.is_alive():
            result = load_record_file(path)
            assert result.status in (LoadStatus.SALVAGED, LoadStatus.NOT_JSON, LoadStatus.OK)
    finally:
        stop.set()
        thread.join()
    assert json.loads(path.read_bytes()) == json.loads(blob)
    assert load_record_file(path).status is LoadStatus.OK
