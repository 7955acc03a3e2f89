"""A record still being written, behind its write-ahead log: the record stops at its first
event while the log has attempts started (one failed, one in flight), as a live
execution's files stand. Written by the real intentusnet 1.3.0 (and by the demo's live
recorder). The timeline, the post-mortem, ``inspect`` and the listing name the same
attempts and the same one in flight, marked as the log's; where the record and the log
name different agents, each says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from intentus_tui.core.detail import ExecutionDetail, detail_to_json, load_detail
from intentus_tui.core.paths import resolve_root
from intentus_tui.demo.recorder import ExecutionRecorder
from tests.cli.support import cli
from tests.intentusnet_world import (
    RealWorld,
    build_real_world,
    with_another_agent_in_flight,
    with_record_behind_its_log,
)

CHAIN = "fb-primary ✗ → fb-secondary …"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> RealWorld:
    return build_real_world(tmp_path_factory.mktemp("real"))


@pytest.fixture(scope="module")
def project(world: RealWorld, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return with_record_behind_its_log(world, tmp_path_factory.mktemp("behind"))


def _detail(project: Path, execution_id: str) -> ExecutionDetail:
    root = resolve_root(project)
    return load_detail(root.path_of(f"{execution_id}.json"), root.wal_dir)


def test_the_timeline_shows_the_attempts_only_the_log_has(world: RealWorld, project: Path) -> None:
    detail = _detail(project, world.fallback)
    timeline, pm, times = detail.timeline, detail.postmortem, detail.times
    assert timeline is not None and pm is not None and times is not None
    assert len(timeline.rows) == 1  # the record's own events: INTENT_RECEIVED
    assert timeline.chain == CHAIN
    assert [(a.agent, a.status, a.log_start_seq, a.log_end_seq) for a in timeline.attempts] == [
        ("fb-primary", "error", 2, 3),
        ("fb-secondary", "in_flight", 5, None),
    ]
    assert timeline.attempts[0].exception == "unavailable: circuit breaker open"
    # The timeline and the post-mortem name the same attempt in flight, as the log's.
    assert [a.agent for a in timeline.in_flight] == ["fb-secondary"]
    assert pm.in_flight == (
        "fb-secondary (attempt 2, started at WAL #5, in the write-ahead log only)",
    )
    assert pm.side_effect == "irreversible" and pm.side_effect_at == 0  # fb-secondary's
    assert pm.disagreements == ()  # the record is behind, not contradicting
    assert timeline.log_disagreement is None
    # Its start is the log's entry: how long it has been open can be told.
    assert times.attempts[1].in_flight and times.attempts[1].start is not None
    doc = detail_to_json(detail)
    assert doc["agent_chain"] == CHAIN
    assert [a["log_start_seq"] for a in doc["in_flight"]] == [5]


def test_inspect_and_the_listing_say_the_same(world: RealWorld, project: Path) -> None:
    shown = cli("inspect", world.fallback, cwd=project)
    assert shown.returncode == 0, shown.stderr
    assert "no attempts recorded" not in shown.stdout
    assert f"agents      {CHAIN}  (from attempt 1 on, the write-ahead log's" in shown.stdout
    assert "in flight   fb-secondary (started at WAL #5, in the write-ahead log only" in (
        shown.stdout
    )
    listed = cli("inspect", "--list", "--json", "--no-cache", cwd=project)
    assert listed.returncode == 0, listed.stderr
    (row,) = json.loads(listed.stdout)["executions"]
    assert (row["agent_chain"], row["attempts"], row["in_flight_agent"]) == (
        CHAIN,
        2,
        "fb-secondary",
    )
    assert row["outcome"] == "in_flight" and row["wal_problem"] is None


def test_the_fallback_only_the_log_has_is_counted(world: RealWorld, project: Path) -> None:
    """The log triggered the fallback (WAL #4) the record stops before: every count of
    the execution's fallbacks has it, and says it is the log's."""
    detail = _detail(project, world.fallback)
    timeline, summary = detail.timeline, detail.summary
    assert timeline is not None and summary is not None
    assert [tuple(f) for f in timeline.fallbacks] == [
        ("fb-primary", "fb-secondary", "unavailable", None, 4)
    ]
    assert summary.fallbacks == 1
    # ``f`` has no row to step to, and says why (not "no fallback recorded").
    assert timeline.fallback_indexes == ()
    assert timeline.shape_note() == (
        "the fallback is the write-ahead log's only (WAL #4): the record stops before it"
    )
    assert detail_to_json(detail)["fallbacks"] == [
        {
            "from": "fb-primary",
            "to": "fb-secondary",
            "reason": "unavailable",
            "seq": None,
            "log_seq": 4,
        }
    ]
    shown = cli("inspect", world.fallback, cwd=project)
    assert "fallbacks   1  (the write-ahead log's: WAL #4; the record stops before)" in (
        shown.stdout
    )
    listed = cli("inspect", "--list", "--json", "--no-cache", cwd=project)
    (row,) = json.loads(listed.stdout)["executions"]
    assert row["fallbacks"] == 1


def test_a_record_naming_another_agent_is_said_to_disagree(
    world: RealWorld, project: Path, tmp_path: Path
) -> None:
    """The record's attempt 1 is fb-secondary, the log's fb-primary: neither story is
    drawn as the other; every view says they differ."""
    from intentusnet.recording.models import ExecutionEvent
    from intentusnet.recording.store import FileExecutionStore

    copy = tmp_path / ".intentusnet"
    shutil.copytree(project, copy)
    store = FileExecutionStore(str(copy / "records"))
    record = store.load(world.fallback)
    start = {"agent": "fb-secondary", "strategy": "fallback", "index": 0}
    record.events.append(ExecutionEvent(seq=2, type="AGENT_ATTEMPT_START", payload=start))
    store.save(record)
    detail = _detail(copy, world.fallback)
    timeline, pm, summary = detail.timeline, detail.postmortem, detail.summary
    assert timeline is not None and pm is not None and summary is not None
    said = "attempt 1 is fb-secondary in the record but fb-primary in the write-ahead log (WAL #2)"
    assert timeline.log_disagreement == said
    assert timeline.chain == "fb-secondary …"  # the record's, the log's not drawn onto it
    assert said in pm.disagreements
    assert summary.wal_problem == said and summary.chain == "fb-secondary …"
    assert timeline.fallbacks == () and summary.fallbacks == 0  # nor the log's fallback
    shown = cli("inspect", world.fallback, cwd=copy)
    assert f"disagreement     {said}" in shown.stdout


def test_the_side_effect_in_flight_is_the_log_agent_s_not_the_record_s(
    world: RealWorld, tmp_path: Path
) -> None:
    """The record has fb-primary in flight, its log fb-secondary (irreversible): the side
    effect is said of the log's step, on a line of its own, never of fb-primary."""
    project = with_another_agent_in_flight(world, tmp_path)
    pm = _detail(project, world.fallback).postmortem
    assert pm is not None
    assert pm.in_flight == (
        "fb-primary (attempt 1, started at seq 2)",
        "fb-secondary (step attempt-1, started at WAL #2: in flight in the write-ahead log, "
        "not in the record)",
    )
    assert (pm.side_effect, pm.side_effect_at) == ("irreversible", 1)
    assert pm.to_json()["side_effect_at"] == 1
    shown = cli("inspect", world.fallback, cwd=project)
    assert shown.returncode == 0, shown.stderr
    said = [line for line in shown.stdout.splitlines() if line.startswith("  in flight")]
    assert said == [
        "  in flight        fb-primary (attempt 1, started at seq 2)",
        "  in flight        fb-secondary (step attempt-1, started at WAL #2: in flight in the "
        "write-ahead log, not in the record) [side effect: irreversible]",
    ]


def test_the_demo_live_recorder_cut_after_an_attempt_start(tmp_path: Path) -> None:
    """What the live demo leaves while an attempt runs: a record written at its first
    event, the attempt's start in the log only."""
    recorder = ExecutionRecorder(tmp_path, {"intent": {"name": "Refund"}}, fsync=False)
    recorder.intent_received()
    recorder.attempt_start("billing", strategy="DIRECT", side_effect="irreversible")
    detail = _detail(tmp_path, recorder.execution_id)
    timeline, pm, summary = detail.timeline, detail.postmortem, detail.summary
    assert timeline is not None and pm is not None and summary is not None
    assert timeline.chain == "billing …" == summary.chain
    assert [a.agent for a in timeline.in_flight] == ["billing"] == [summary.in_flight_agent]
    assert pm.in_flight == ("billing (attempt 1, started at WAL #2, in the write-ahead log only)",)
    recorder.close()
