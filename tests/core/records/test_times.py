"""Event times, attempt durations and the waterfall, from records written by the real
intentusnet 1.3.0 and write-ahead logs written by its real ``WALWriter`` in the test."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from intentusnet.wal.writer import WALWriter

from intentus_tui.core.detail import detail_to_json, load_detail
from intentus_tui.core.records.times import (
    DURATION_CLOCK,
    DURATION_LATENCY,
    SOURCE_EVENT,
    SOURCE_HEADER,
    SOURCE_RESPONSE,
    SOURCE_WAL,
    clock_text,
    duration_text,
    offset_text,
)
from intentus_tui.core.timestamps import parse_timestamp
from intentus_tui.demo.recorder import ExecutionRecorder
from tests.core.wal.support import write_in_flight
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld, build_real_world


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> RealWorld:
    return build_real_world(tmp_path_factory.mktemp("real"))


def _wal_dir(world: RealWorld) -> Path:
    wal = world.records_dir.parent / "wal"
    wal.mkdir(exist_ok=True)
    return wal


def _write_fallback_wal(wal: Path, execution_id: str) -> list[str]:
    """The fallback execution's story as the real WALWriter logs it; its times."""
    with WALWriter(str(wal), execution_id) as w:
        entries = [
            w.execution_started("ab" * 32, "Summarize"),
            w.step_started("s1", "fb-primary", "read_only", {}, "in-1"),
            w.step_failed("s1", "agent_error", "fb-primary exploded", True),
            w.fallback_triggered("fb-primary", "fb-secondary", "fb-primary exploded"),
            w.step_started("s2", "fb-secondary", "read_only", {}, "in-2"),
            w.step_completed("s2", "out-2", True),
            w.execution_completed("cd" * 32),
        ]
    return [e.timestamp_iso for e in entries]


def _at(text: str) -> datetime:
    moment = parse_timestamp(text)
    assert moment is not None
    return moment.astimezone(UTC)


def test_a_real_record_alone_has_only_the_times_it_wrote(real: RealWorld) -> None:
    """1.3.0's events carry no time: the decision's own timestamp and the response's are
    the only event times; the header's creation time is the start; attempts have none."""
    path = real.records_dir / f"{real.fallback}.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    times = load_detail(path).times
    assert times is not None
    assert times.origin == _at(raw["header"]["createdUtcIso"])
    assert times.origin_source == SOURCE_HEADER
    types = [e["type"] for e in raw["events"]]
    decision, final = types.index("ROUTER_DECISION"), types.index("FINAL_RESPONSE")
    for index in range(len(types)):
        known = times.event_time(index)
        if index == decision:
            assert known is not None and known.source == SOURCE_EVENT
            assert known.at == _at(raw["events"][index]["payload"]["timestamp"])
        elif index == final:
            assert known is not None and known.source == SOURCE_RESPONSE
            stamp = raw["events"][index]["payload"]["metadata"]["timestamp"]
            assert known.at == _at(stamp)
        else:
            assert known is None  # never guessed
            assert times.offset(index) is None
    assert [(a.agent, a.duration) for a in times.attempts] == [
        ("fb-primary", None),
        ("fb-secondary", None),
    ]
    assert times.waterfall(40) is None  # no attempt has a time: nothing to draw


def test_times_come_from_the_wal_and_durations_are_end_minus_start(real: RealWorld) -> None:
    wal = _wal_dir(real)
    stamps = _write_fallback_wal(wal, real.fallback)
    detail = load_detail(real.records_dir / f"{real.fallback}.json", wal)
    times = detail.times
    assert times is not None
    # INTENT_RECEIVED, START, END, FALLBACK, START, END are the WAL's first six entries;
    # FINAL_RESPONSE is its completion.
    events = detail.result.record.events  # type: ignore[union-attr]
    wal_of_event = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, len(events) - 1: 6}
    for index, entry in wal_of_event.items():
        known = times.event_time(index)
        assert known is not None and known.source == SOURCE_WAL
        assert known.at == _at(stamps[entry])
    first, second = times.attempts
    assert first.start == _at(stamps[1]) and first.end == _at(stamps[2])
    assert first.duration == (_at(stamps[2]) - _at(stamps[1])).total_seconds()
    assert second.duration == (_at(stamps[5]) - _at(stamps[4])).total_seconds()
    assert first.duration_source == second.duration_source == DURATION_CLOCK
    assert times.offset(1) == (_at(stamps[1]) - times.origin).total_seconds()  # type: ignore[operator]
    doc = detail_to_json(detail)
    attempts = doc["attempts"]
    assert isinstance(attempts, list)
    assert attempts[0]["started_at"] == _at(stamps[1]).replace(tzinfo=None).isoformat() + "Z"
    assert attempts[1]["duration_s"] == round(second.duration, 6)  # type: ignore[arg-type]
    listed = doc["times"]
    assert isinstance(listed, dict)
    assert [e["index"] for e in listed["events"]] == list(range(len(events)))


def test_a_wal_telling_another_story_gives_no_attempt_times(
    real: RealWorld, tmp_path: Path
) -> None:
    """Steps by other agents than the record's attempts are not joined to them."""
    with WALWriter(str(tmp_path), real.fallback) as w:
        w.execution_started("ab" * 32, "Summarize")
        w.step_started("s1", "someone-else", "read_only", {}, "in-1")
        w.step_completed("s1", "out", True)
    times = load_detail(real.records_dir / f"{real.fallback}.json", tmp_path).times
    assert times is not None
    assert times.attempts[0].start is None and times.attempts[0].duration is None


def test_a_waterfall_puts_the_attempts_in_order_on_one_axis(real: RealWorld) -> None:
    wal = _wal_dir(real)
    _write_fallback_wal(wal, real.fallback)
    times = load_detail(real.records_dir / f"{real.fallback}.json", wal).times
    assert times is not None
    drawn = times.waterfall(60)
    assert drawn is not None
    first, second = drawn.bars
    assert first is not None and second is not None
    assert 0 <= first.start < first.end <= second.start + 1
    assert second.start < second.end <= 60
    assert (first.status, second.status) == ("error", "ok")


def test_an_in_flight_step_of_a_wal_only_execution_reports_how_long_it_is_open(
    tmp_path: Path,
) -> None:
    path = write_in_flight(tmp_path, "irreversible")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    detail = load_detail(path)
    times = detail.times
    assert times is not None
    lookup, charge = times.attempts
    assert (
        lookup.duration
        == (_at(lines[2]["timestamp_iso"]) - _at(lines[1]["timestamp_iso"])).total_seconds()
    )
    assert charge.in_flight and charge.end is None and charge.duration is None
    assert charge.start == _at(lines[3]["timestamp_iso"])
    later = charge.start + timedelta(minutes=3, seconds=12)  # type: ignore[operator]
    assert charge.open_for(later) == 192.0
    assert duration_text(charge.open_for(later)) == "3m12s"
    assert [a for a in times.open_attempts] == [charge]
    # Its bar runs up to now: the last cell at "now".
    drawn = times.waterfall(20, later)
    assert drawn is not None and drawn.bars[1] is not None
    assert drawn.bars[1].open and drawn.bars[1].end == 20
    doc = detail_to_json(detail)["times"]
    assert isinstance(doc, dict)
    assert [e["at"] for e in doc["events"]] == [
        _at(line["timestamp_iso"]).replace(tzinfo=None).isoformat() + "Z" for line in lines
    ]


def test_an_in_flight_attempt_of_a_partial_record_joins_its_wal_by_seq(tmp_path: Path) -> None:
    """The crash-safe recorder logs each event in its WAL entry: joined by the event's seq."""
    stamps = iter(f"2026-01-05T10:00:0{n}.500000+00:00" for n in range(9))
    rec = ExecutionRecorder(
        tmp_path, {"intent": {"name": "Pay"}}, fsync=False, now=lambda: next(stamps)
    )
    rec.intent_received()
    rec.attempt_start("payer", side_effect="irreversible")
    rec.close()  # the process "dies" here: no end, no final response
    detail = load_detail(rec.record_path, rec.wal_dir)
    times = detail.times
    assert times is not None
    assert times.origin == datetime(2026, 1, 5, 10, 0, 0, 500000, tzinfo=UTC)  # the header
    assert times.event_time(0).at == datetime(2026, 1, 5, 10, 0, 1, 500000, tzinfo=UTC)  # type: ignore[union-attr]
    (attempt,) = times.attempts
    assert attempt.in_flight
    assert attempt.start == datetime(2026, 1, 5, 10, 0, 2, 500000, tzinfo=UTC)
    assert attempt.start_offset == 2.0
    assert attempt.open_for(datetime(2026, 1, 5, 10, 5, 2, 500000, tzinfo=UTC)) == 300.0
    (in_flight,) = detail_to_json(detail)["in_flight"]  # type: ignore[misc]
    assert in_flight["started_at"] == "2026-01-05T10:00:02.500000Z"
    assert in_flight["open_s"] > 300  # against the real clock: it is 2026-01-05 no longer


def test_a_documented_record_gives_durations_from_latency_ms(tmp_path: Path) -> None:
    record = make_record(documented=True, agents=(("a", "error"), ("b", "ok")))
    for event in record["events"]:
        if event["type"] == "AGENT_ATTEMPT_END":
            event["payload"]["latency_ms"] = 120.5 if event["payload"]["agent"] == "a" else 2000
    path = write_record(tmp_path, record)
    times = load_detail(path).times
    assert times is not None
    assert [(a.duration, a.duration_source) for a in times.attempts] == [
        (0.1205, DURATION_LATENCY),
        (2.0, DURATION_LATENCY),
    ]
    assert times.waterfall(30) is None  # durations, but no start on any axis


def test_texts() -> None:
    assert offset_text(0.2864) == "+0.286s"
    # Cut as the clock cuts: 0.286611 s after 09:09:07.000 is +0.286s beside .286Z
    # (rounded, it read +0.287s).
    assert offset_text(0.286611) == "+0.286s"
    assert offset_text(0.287) == "+0.287s"  # not cut below itself by the float's error
    assert offset_text(12.345) == "+12.34s"
    assert offset_text(192.4) == "+3m12.4s"
    assert offset_text(119.99) == "+2m00.0s"
    assert offset_text(7380) == "+2h03m"
    assert offset_text(None) == "—"
    assert all(len(offset_text(s)) <= 8 for s in (0, 9.9999, 59.99, 599.9, 3599, 86399, 9e6))
    assert duration_text(0.7382) == "738ms"
    assert duration_text(2.8635) == "2.86s"
    assert duration_text(None) == "—"
    assert clock_text(datetime(2026, 1, 5, 9, 9, 7, 286611, tzinfo=UTC)) == (
        "2026-01-05T09:09:07.286Z"
    )
    assert clock_text(None) == "—"


def test_an_attempt_with_no_end_in_a_completed_execution_runs_no_clock(
    real: RealWorld, tmp_path: Path
) -> None:
    # Its end event was lost (the writer declared a recording failure): the execution has
    # its final response, so nothing is in flight, whatever the clock says now.
    doc = json.loads((real.records_dir / f"{real.fallback}.json").read_text("utf-8"))
    ended = next(i for i, e in enumerate(doc["events"]) if e["type"] == "AGENT_ATTEMPT_END")
    del doc["events"][ended]
    doc["header"].update(replayable=False, replayableReason="recording_failure")
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    path = records / f"{real.fallback}.json"
    path.write_text(json.dumps(doc), "utf-8")
    wal = records.parent / "wal"
    wal.mkdir()
    _write_fallback_wal(wal, real.fallback)  # every event has a time
    later = datetime.now(UTC) + timedelta(days=300)
    # Alone, the record cannot say how the attempt ended: unended. Its log can: it failed,
    # and it ended when the log's step.failed entry was written.
    for log, status in ((None, "unended"), (wal, "error")):
        times = load_detail(path, log).times
        assert times is not None and times.attempts
        first = times.attempts[0]
        assert first.status == status and not first.in_flight
        assert (first.end is None) is (log is None)
        assert first.open_for(later) is None and not times.open_attempts
        drawn = times.waterfall(20, later)
        assert drawn is None or all(bar is None or not bar.open for bar in drawn.bars)
