"""An attempt its record left open and its write-ahead log closed, on files written by the
real intentusnet 1.3.0: every view says the attempt failed, as the log does, and that the
record and the log disagree; none calls it in flight."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from intentus_tui.core.detail import detail_to_json, load_detail
from intentus_tui.core.paths import resolve_root
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld, build_real_world, with_lost_attempt_end


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> RealWorld:
    return build_real_world(tmp_path_factory.mktemp("real"))


@pytest.fixture(scope="module")
def project(world: RealWorld, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return with_lost_attempt_end(world, tmp_path_factory.mktemp("lost"))


def test_the_record_alone_shows_the_attempt_in_flight(world: RealWorld, project: Path) -> None:
    # The premise: without its log the record says the first attempt never ended.
    root = resolve_root(project)
    detail = load_detail(root.path_of(f"{world.fallback}.json"))
    assert detail.timeline is not None
    assert [a.agent for a in detail.timeline.in_flight] == ["fb-primary"]


def test_the_log_closes_the_attempt_in_the_detail(world: RealWorld, project: Path) -> None:
    root = resolve_root(project)
    detail = load_detail(root.path_of(f"{world.fallback}.json"), root.wal_dir)
    timeline, pm, times = detail.timeline, detail.postmortem, detail.times
    assert timeline is not None and pm is not None and times is not None
    assert timeline.in_flight == ()
    assert timeline.chain == "fb-primary ✗ → fb-secondary ✓"
    first = timeline.attempts[0]
    assert first.status == "error" and first.log_end_seq == 3
    assert first.exception == "unavailable: circuit breaker open"  # the log's step.failed
    start = timeline.rows[first.event_index or 0]
    assert not start.in_flight and start.is_error and start.status == "error"
    assert start.summary.endswith("· ended as WAL #3 says")
    assert first.event_index in timeline.error_indexes  # `e` (next error) stops there
    assert pm.in_flight == ()
    assert pm.disagreements == (
        "attempt 1 (fb-primary) failed as the write-ahead log recorded (WAL #3); "
        "the record has no end for it",
    )
    # Its end is the log's step.failed entry: the attempt has a duration.
    assert times.attempts[0].status == "error"
    assert times.attempts[0].end is not None and times.attempts[0].duration is not None
    doc = detail_to_json(detail)
    assert doc["in_flight"] == [] and doc["agent_chain"] == "fb-primary ✗ → fb-secondary ✓"
    assert [a["log_end_seq"] for a in doc["attempts"]] == [3, None]


def test_inspect_and_the_listing_say_the_same(world: RealWorld, project: Path) -> None:
    shown = cli("inspect", world.fallback, cwd=project)
    assert shown.returncode == 0, shown.stderr
    assert "in flight" not in shown.stdout
    assert "agents      fb-primary ✗ → fb-secondary ✓" in shown.stdout
    assert "fb-primary) failed as the write-ahead log recorded (WAL #3)" in shown.stdout
    listed = cli("inspect", "--list", "--json", "--no-cache", cwd=project)
    assert listed.returncode == 0, listed.stderr
    (row,) = json.loads(listed.stdout)["executions"]
    assert row["agent_chain"] == "fb-primary ✗ → fb-secondary ✓"
    assert row["in_flight_agent"] is None


def test_a_declared_loss_in_a_damaged_file_is_not_tampering(
    world: RealWorld, project: Path, tmp_path: Path
) -> None:
    """The record whose writer declared a recording failure, its last byte lost: its gap
    (seq 2, then 4) made it "tampered" and "untrusted", where the whole file is
    "unverifiable"; damaged, it is unverifiable for its damage."""
    source = resolve_root(project).path_of(f"{world.fallback}.json")
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    (records / source.name).write_bytes(source.read_bytes().rstrip()[:-1])
    for args in (
        ("inspect", "--list", "--json", "--no-cache"),
        ("inspect", "--json", world.fallback),
    ):
        doc = json.loads(cli(*args, cwd=tmp_path).stdout)
        verdict = doc["executions"][0] if "executions" in doc else doc["verdict"]
        assert verdict["integrity"] == "unverifiable", verdict
        assert verdict["integrity_reason"].startswith("the file is damaged: ")
        assert verdict["replayable_reason" if "executions" in doc else "replay"] == (
            "record_corrupted"
        )
