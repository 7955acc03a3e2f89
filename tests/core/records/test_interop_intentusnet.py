"""Records written by the real intentusnet 1.3.0, classified as the library would — or better."""

from __future__ import annotations

import json

import pytest
from intentusnet.recording.models import stable_hash
from intentusnet.recording.replay import ReplayEngine as RealReplayEngine
from intentusnet.recording.store import FileExecutionStore as RealStore

from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.records.load import LoadStatus, load_record_file
from intentus_tui.core.records.replay import ReplayEngine
from intentus_tui.core.records.timeline import ExecutionState, build_timeline
from intentus_tui.core.records.verify import HashStatus, check_envelope_hash
from tests.intentusnet_world import RealWorld


def _path(world: RealWorld, execution_id: str):
    return world.records_dir / f"{execution_id}.json"


@pytest.mark.parametrize("which", ["success", "fallback", "invalidated"])
def test_loadable_records_agree_with_the_real_library(real_world: RealWorld, which: str) -> None:
    execution_id = getattr(real_world, which)
    real_record = RealStore(str(real_world.records_dir)).load(execution_id)
    ours = load_record_file(_path(real_world, execution_id))
    assert ours.status is LoadStatus.OK and ours.record is not None
    real_ok, _ = RealReplayEngine(real_record).is_replayable()
    our_ok, our_reason = ReplayEngine(ours.record).is_replayable()
    assert our_ok == real_ok
    if which == "invalidated":
        assert our_reason == "manually_invalidated"
    # Our runtime-form hash is the library's own stable_hash of the stored envelope.
    check = check_envelope_hash(ours.record)
    assert check.status is HashStatus.MATCH and check.matched_form == "runtime"
    assert (
        check.computed["runtime"]
        == stable_hash(real_record.envelope)
        == real_record.header.envelopeHash
    )


def test_fallback_chain_is_reconstructed(real_world: RealWorld) -> None:
    result = load_record_file(_path(real_world, real_world.fallback))
    assert result.record is not None
    timeline = build_timeline(result.record)
    assert timeline.chain == "fb-primary ✗ → fb-secondary ✓"
    assert [(f.from_agent, f.to_agent) for f in timeline.fallbacks] == [
        ("fb-primary", "fb-secondary")
    ]
    assert timeline.state is ExecutionState.COMPLETED
    assert timeline.decided_agent == "fb-secondary"


def test_error_record_truncated_by_the_library_is_salvaged(real_world: RealWorld) -> None:
    path = _path(real_world, real_world.error_truncated)
    # The real library cannot read its own error record at all...
    with pytest.raises(json.JSONDecodeError):
        RealStore(str(real_world.records_dir)).load(real_world.error_truncated)
    # ...we recover everything before the break and say exactly where it is.
    result = load_record_file(path)
    assert result.status is LoadStatus.SALVAGED
    assert result.recovered == ("header", "envelope", "routerDecision")
    assert result.partial == ("events",)
    assert result.damage is not None and result.damage.truncated
    assert result.damage.offset == path.stat().st_size
    assert path.read_bytes().rstrip().endswith(b'"error":')
    assert result.record is not None and result.record.execution_id == real_world.error_truncated
    types = [e.type for e in result.record.events]
    assert types[:2] == ["INTENT_RECEIVED", "AGENT_ATTEMPT_START"]
    assert ReplayEngine.from_load_result(result).is_replayable() == (False, "record_corrupted")
    assert check_envelope_hash(result.record).status is HashStatus.MATCH


def test_index_of_the_real_directory(real_world: RealWorld) -> None:
    root = resolve_root(real_world.records_dir.parent)
    assert root.records_dir == real_world.records_dir
    by_id = {s.execution_id: s for s in DirectoryIndex(root).scan()}
    assert by_id[real_world.success].state_label == "replayable"
    assert by_id[real_world.fallback].attempts == 2
    assert by_id[real_world.invalidated].state_label == "manually_invalidated"
    assert by_id[real_world.error_truncated].state_label == "corrupted"
