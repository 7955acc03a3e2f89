"""A record with thousands of attempts (a damaged or hostile file; a real fallback chain has a
handful): the timeline's summary says the first few of each kind and counts the rest, and
the debugger opens it at the first attempt in flight. Each in-flight attempt had a line of
its own and the chain was drawn whole: 100,000 of them kept the screen's own thread busy for
minutes before the first row of the events showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.detail import ExecutionDetail, load_detail
from intentus_tui.tui.presenters.timeline_summary import summary_content, wal_summary_content
from tests.factories import chained_wal, make_record, write_record
from tests.tui.app_support import SIZE, make_app, settle, timeline_summary

ATTEMPTS = 2_000


def in_flight_record() -> dict[str, Any]:
    """``ATTEMPTS`` attempts started, none ended, no final response: a crash each time."""
    record = make_record(
        execution_id="in-flight",
        agents=tuple((f"agent-{i}", "error") for i in range(ATTEMPTS)),
        final_status=None,
    )
    starts = [
        e for e in record["events"] if e["type"] in ("INTENT_RECEIVED", "AGENT_ATTEMPT_START")
    ]
    record["events"] = [{**event, "seq": seq} for seq, event in enumerate(starts, start=1)]
    return record


def long_chain_record() -> dict[str, Any]:
    """``ATTEMPTS`` attempts in turn, each but the last failed: a fallback after each."""
    agents = [(f"agent-{i}", "error") for i in range(ATTEMPTS - 1)]
    return make_record(execution_id="long-chain", agents=(*agents, (f"agent-{ATTEMPTS - 1}", "ok")))


def summary_lines(detail: ExecutionDetail) -> list[str]:
    return summary_content(detail, detail.verdict).content.plain.splitlines()


@pytest.fixture
def in_flight(records_dir: Path) -> ExecutionDetail:
    return load_detail(write_record(records_dir, in_flight_record()))


def test_thousands_of_attempts_in_flight_are_said_in_four_lines(in_flight: ExecutionDetail) -> None:
    lines = summary_lines(in_flight)
    said = [line for line in lines if line.startswith("⚠") and "never ended" in line]
    assert said == [
        f"⚠ attempt {n} by agent-{n - 1} started at seq {n + 1} and never ended — it may have"
        " had side effects"
        for n in (1, 2, 3)
    ] + [f"⚠ {ATTEMPTS - 3:,} more attempts started and never ended — the events show each"]
    (chain,) = [line for line in lines if line.startswith("chain ")]
    # Its first and last twenty attempts, the middle one "…".
    assert chain.count("… in flight") == 40 and " → … → " in chain
    assert f"agent-{ATTEMPTS - 1} … in flight" in chain.split(" → … → ")[1]
    assert len(lines) < 20


def test_a_long_chain_is_drawn_by_its_ends_and_its_fallbacks_counted(records_dir: Path) -> None:
    detail = load_detail(write_record(records_dir, long_chain_record()))
    lines = summary_lines(detail)
    (chain,) = [line for line in lines if line.startswith("chain ")]
    first, last = chain.removeprefix("chain ").split(" → … → ")
    assert first.split(" → ") == [f"agent-{i} ✗" for i in range(20)]
    assert last.split(" → ") == [f"agent-{i} ✗" for i in range(ATTEMPTS - 20, ATTEMPTS - 1)] + [
        f"agent-{ATTEMPTS - 1} ✓"
    ]
    fallbacks = [line for line in lines if "fallback" in line and "·" not in line]
    assert fallbacks == [
        "seq 4 fallback agent-0 → agent-1",
        "seq 7 fallback agent-1 → agent-2",
        "seq 10 fallback agent-2 → agent-3",
        f"… {ATTEMPTS - 4:,} more fallbacks",
    ]
    folded = summary_content(detail, detail.verdict).folded
    assert folded is not None
    assert folded.plain == (
        "fallbacks: "
        + " → ".join(f"agent-{i}" for i in range(11))
        + f" … ({ATTEMPTS - 11:,} more fallbacks)"
        + " (seq 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, …)"
    )


def test_a_record_with_thousands_of_seq_gaps_names_five(records_dir: Path) -> None:
    """The verdict's reason, the list's row and the cache held every gap: 77 KB of reason
    for 2,000 of them, wrapped on screen each time the pane was fitted."""
    record = in_flight_record()
    record["events"] = [{**event, "seq": 1 + 3 * i} for i, event in enumerate(record["events"])]
    detail = load_detail(write_record(records_dir, record))
    assert detail.verdict is not None
    reason = detail.verdict.integrity_reason
    assert reason.count("gap: seq") == 5
    assert reason.endswith(f"and {ATTEMPTS - 5:,} more in the events' seq numbers")


async def test_the_debugger_opens_it_at_the_first_attempt_in_flight(records_dir: Path) -> None:
    write_record(records_dir, in_flight_record())
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, timeout=60)
        lines = app.timeline.lines
        assert lines.cursor == 1
        assert lines.rows[1].in_flight and lines.rows[1].agent == "agent-0"
        assert f"{ATTEMPTS - 3:,} more attempts started and never ended" in timeline_summary(app)


def test_a_log_of_thousands_of_steps_is_drawn_by_its_ends(tmp_path: Path) -> None:
    """An execution known from its write-ahead log alone: its steps line was drawn whole, and
    redrawn every second while its last step is in flight (20,000 steps: 25 s to open)."""
    wal_dir = tmp_path / ".intentusnet" / "wal"
    wal_dir.mkdir(parents=True)
    specs: list[tuple[str, dict[str, Any]]] = [("execution.started", {"intent_name": "Sum"})]
    for i in range(ATTEMPTS):
        specs.append(("step.started", {"step_id": f"s-{i}", "agent_name": f"agent-{i}"}))
        if i < ATTEMPTS - 1:
            specs.append(("step.failed", {"step_id": f"s-{i}", "failure_type": "x"}))
    path = wal_dir / "logged.wal"
    path.write_bytes(chained_wal("logged", specs))
    detail = load_detail(path)
    assert detail.wal is not None
    text = wal_summary_content(detail.wal, detail.verdict, detail.times)
    (steps,) = [line for line in text.content.plain.splitlines() if line.startswith("steps ")]
    first, last = steps.removeprefix("steps ").split(" → … → ")
    # Each with its duration (all 0ms: one timestamp throughout).
    assert first.split(" → ") == [f"agent-{i} ✗ 0ms" for i in range(20)]
    assert last.split(" → ")[0] == f"agent-{ATTEMPTS - 20} ✗ 0ms"
    assert last.split(" → ")[-1].startswith(f"agent-{ATTEMPTS - 1} … in flight")
    assert len(last.split(" → ")) == 20
