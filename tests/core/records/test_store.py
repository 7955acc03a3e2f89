from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from intentus_tui.core.records.load import ExecutionRecord, LoadStatus
from intentus_tui.core.records.store import (
    FileExecutionStore,
    RecordLoadError,
    UnsafeIdError,
    check_id,
)
from tests.factories import make_record, write_record


@pytest.mark.parametrize(
    "bad", ["", "..", "../x", "a/b", "/etc/passwd", "a\x00b", ".hidden", "a\\b"]
)
def test_ids_that_escape_are_refused(bad: str) -> None:
    with pytest.raises(UnsafeIdError):
        check_id(bad)


def test_symlink_out_of_the_store_is_refused(tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    store_dir.mkdir()
    outside = write_record(tmp_path, make_record(execution_id="outside"))
    (store_dir / "link.json").symlink_to(outside)
    with pytest.raises(UnsafeIdError, match="outside the store"):
        FileExecutionStore(store_dir).load("link")


def test_list_save_load(tmp_path: Path) -> None:
    store = FileExecutionStore(tmp_path)
    record = ExecutionRecord.from_json(make_record(execution_id="b"))
    store.save(record)
    write_record(tmp_path, make_record(execution_id="a"))
    (tmp_path / "c.json.tmp").write_text("{")
    assert store.list_ids() == ["a", "b"]
    assert store.load("b").to_json() == record.to_json()
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp") and p != "c.json.tmp"]


def test_invalidate_marks_and_keeps_everything_else(tmp_path: Path) -> None:
    original = make_record(execution_id="x")
    original["header"]["x-extra"] = 1
    write_record(tmp_path, original)
    store = FileExecutionStore(tmp_path)
    store.invalidate("x")
    after = json.loads((tmp_path / "x.json").read_text())
    assert after["header"]["replayable"] is False
    assert after["header"]["replayableReason"] == "manually_invalidated"
    after["header"].update(replayable=True, replayableReason=None)
    assert after == original
    assert list(after) == list(original)  # key order kept
    store.invalidate("x", reason="recording_failure")
    assert (
        json.loads((tmp_path / "x.json").read_text())["header"]["replayableReason"]
        == "recording_failure"
    )


def test_invalidate_refuses_damaged_records(tmp_path: Path) -> None:
    path = write_record(tmp_path, make_record(execution_id="cut"))
    damaged = path.read_bytes()[:-50]
    path.write_bytes(damaged)
    with pytest.raises(RecordLoadError) as info:
        FileExecutionStore(tmp_path).invalidate("cut")
    assert info.value.result.status is LoadStatus.SALVAGED
    assert path.read_bytes() == damaged  # nothing lost


def test_a_failed_rewrite_keeps_the_record_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_record(tmp_path, make_record(execution_id="x"))
    before = path.read_bytes()

    def disk_full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(OSError, match="No space left"):
        FileExecutionStore(tmp_path).invalidate("x")
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["x.json"]
