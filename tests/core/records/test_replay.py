from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest

from intentus_tui.core.records.load import ExecutionRecord, load_record_file
from intentus_tui.core.records.replay import (
    FORCED_WARNING,
    CachingReplayEngine,
    NotReplayableError,
    ReplayEngine,
    ReplayHashMismatchError,
    batch_replay,
)
from intentus_tui.core.records.store import FileExecutionStore
from tests.factories import make_record, write_record


def _engine(data: dict) -> ReplayEngine:
    return ReplayEngine(ExecutionRecord.from_json(data))


def test_replay_returns_the_recorded_response_exactly() -> None:
    data = make_record(execution_id="e1")
    result = _engine(data).replay()
    assert result.payload == data["finalResponse"]["payload"]
    assert result.metadata == data["finalResponse"]["metadata"]
    assert result.fromReplay and result.originalExecutionId == "e1"
    assert result.originalTimestamp == data["header"]["createdUtcIso"]
    assert result.warnings == ()


def test_error_response_replays_as_the_error() -> None:
    data = make_record(final_status="error")
    result = _engine(data).replay()
    assert result.status == "error" and result.error == {"code": "AGENT_ERROR", "message": "Failed"}
    assert result.payload is None


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(finalResponse=None), "execution_incomplete"),
        (lambda d: d.update(finalResponse={}), "recording_failure"),
        (
            lambda d: d["header"].update(replayable=False, replayableReason="manually_invalidated"),
            "manually_invalidated",
        ),
        (
            lambda d: d["header"].update(replayable=False, replayableReason="recording_failure"),
            "recording_failure",
        ),
        (lambda d: d["header"].update(replayable="maybe"), "record_corrupted"),
        (lambda d: d.update(events="broken"), "record_corrupted"),
    ],
)
def test_not_replayable_reasons(change, reason: str) -> None:
    data = make_record()
    change(data)
    engine = _engine(data)
    assert engine.is_replayable() == (False, reason)
    with pytest.raises(NotReplayableError) as info:
        engine.replay()
    assert info.value.reason == reason
    forced = engine.replay(force=True)
    assert FORCED_WARNING in forced.warnings


def test_envelope_verification() -> None:
    data = make_record()
    engine = _engine(data)
    assert engine.replay(env=copy.deepcopy(data["envelope"])).fromReplay
    changed = copy.deepcopy(data["envelope"])
    changed["payload"] = {"text": "other"}
    with pytest.raises(ReplayHashMismatchError) as info:
        engine.replay(env=changed)
    assert info.value.recorded == data["header"]["envelopeHash"] != info.value.provided
    documented = make_record(documented=True)
    assert _engine(documented).replay(env=copy.deepcopy(documented["envelope"])).fromReplay


def test_salvaged_record_is_corrupted_but_force_replays(tmp_path: Path) -> None:
    path = write_record(tmp_path, make_record(execution_id="cut"))
    path.write_bytes(path.read_bytes()[:-200])
    engine = ReplayEngine.from_load_result(load_record_file(path))
    assert engine.is_replayable() == (False, "record_corrupted")
    forced = engine.replay(force=True)
    assert forced.payload is None and FORCED_WARNING in forced.warnings


def test_batch_replay_never_stops_on_one_bad_id(tmp_path: Path) -> None:
    write_record(tmp_path, make_record(execution_id="good"))
    write_record(tmp_path, make_record(execution_id="open", final_status=None))
    results = batch_replay(FileExecutionStore(tmp_path), ["good", "open", "missing", "../x"])
    assert results["good"].warnings == ()
    assert "execution_incomplete" in results["open"].warnings[0]
    assert results["missing"].payload is None and results["missing"].warnings
    assert "separator" in results["../x"].metadata["error"]


def test_caching_engine_is_bounded_and_sees_file_changes(tmp_path: Path) -> None:
    for i in range(5):
        write_record(tmp_path, make_record(execution_id=f"r{i}"))
    store = FileExecutionStore(tmp_path)
    cache = CachingReplayEngine(store, max_entries=3)
    for i in range(5):
        cache.replay(f"r{i}")
    assert len(cache) == 3 and cache.misses == 5
    cache.replay("r4")
    assert cache.hits == 1
    store.invalidate("r4")
    with pytest.raises(NotReplayableError):
        cache.replay("r4")
    # A rewrite with the same size and a restored mtime still changes the inode via rename.
    st = os.stat(store.path_for("r3"))
    data = make_record(execution_id="r3")
    data["finalResponse"]["payload"] = {"summary": "DONE"}
    store.save(ExecutionRecord.from_json(data))
    os.utime(store.path_for("r3"), ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cache.replay("r3").payload == {"summary": "DONE"}
