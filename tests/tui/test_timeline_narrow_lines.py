"""What a narrow or short timeline summary keeps when its lines are cut: the end of a
chain (the answer, the step in flight) and the verdict's reasons."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from intentusnet.wal.writer import WALWriter

from intentus_tui.demo.writer import build_demo_world
from tests.factories import make_record, write_record
from tests.tui.app_support import make_app, settle


def _summary_rows(app: object) -> list[str]:
    summary = app.timeline.query_one("#timeline-summary")  # type: ignore[attr-defined]
    return [row.rstrip() for row in str(summary.render()).splitlines()]


async def _demo_summary_rows(
    tmp_path: Path, scenario: str, size: tuple[int, int], *, only: bool = True
) -> list[str]:
    """The timeline summary's rows of the demo world's ``scenario`` execution (``only``:
    the one it has; else its first)."""
    manifest = build_demo_world(tmp_path)
    ids = manifest.scenarios[scenario]
    assert len(ids) == 1 or not only, ids
    execution_id = ids[0]
    app = make_app(manifest.records_dir)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, timeout=20)
        assert app.execution_list.select_key(f"{execution_id}.json")
        await settle(pilot)
        return _summary_rows(app)


async def test_a_narrow_broadcast_keeps_its_answer_marker_whole(tmp_path: Path) -> None:
    """At 80x24 the broadcast's chain ended "kb-search-cold ✓ ← answ…": the name of the
    branch that answered shortens first now."""
    rows = await _demo_summary_rows(tmp_path, "broadcast", (80, 24))
    (chain,) = [row for row in rows if row.startswith("broadcast ⇉")]
    assert chain.endswith("✓ ← answer"), rows
    assert "kb-search-c" in chain


async def _log_only_steps_row(tmp_path: Path, write: Callable[[WALWriter], None]) -> str:
    """The steps row, at 80x24, of a project whose one execution is a log (no record) the
    real WALWriter wrote, ``write`` its steps."""
    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    (base / "wal").mkdir()
    with WALWriter(str(base / "wal"), "exec-5a1e0001") as w:
        w.execution_started("ab" * 32, "PayIntent")
        write(w)
    app = make_app(base / "records")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, timeout=20)
        (key,) = app.execution_list.model.summaries
        assert app.execution_list.select_key(key)
        await settle(pilot)
        rows = _summary_rows(app)
    (steps,) = [row for row in rows if row.startswith("steps ")]
    return steps


async def test_a_narrow_log_only_execution_keeps_its_step_in_flight(tmp_path: Path) -> None:
    """A log with no record file (the real WALWriter's: a lookup, then a charge that never
    ended): at 80x24 its steps line was cut at its end, "steps ledger-reader ✓ 0ms →
    payments-agen…", the step in flight lost. Its middle goes now, as a chain's does."""

    def write(w: WALWriter) -> None:
        for n in range(1, 4):
            w.step_started(f"lookup-{n}", f"ledger-reader-{n}", "read_only", {}, f"in-{n}")
            w.step_completed(f"lookup-{n}", f"out-{n}", True)
        w.step_started("charge", "payments-agent", "irreversible", {}, "in-9")

    steps = await _log_only_steps_row(tmp_path, write)
    assert steps.endswith("payments-agent … in flight"), steps
    assert "…" in steps.removesuffix("… in flight")  # the steps left out, said so


@pytest.mark.parametrize(
    ("scenario", "reason", "fallback"),
    [
        ("wal_tampered", "does not hash to its entry_hash", None),
        ("fallback_chain", "hashes to the recorded envelopeHash", "kb-search-primary →"),
    ],
)
async def test_the_fallback_lines_give_way_to_the_verdicts_reasons(
    tmp_path: Path, scenario: str, reason: str, fallback: str | None
) -> None:
    """A broken log chain at 120x36: "seq 4 fallback ticket-classifier → …" took a row the
    integrity reason (what broke) needed. The fallback (the counts line and the events'
    ↪ say it too) has a row only when the reasons have theirs now: a trusted fallback
    chain's short reasons leave it one."""
    rows = await _demo_summary_rows(tmp_path, scenario, (120, 36), only=False)
    reasons = rows[rows.index(next(r for r in rows if r.startswith("integrity "))) :]
    reasons = reasons[: reasons.index(next(r for r in reasons if r.startswith("replay ")))]
    assert reason in " ".join(" ".join(reasons).split()), rows
    shown = [row for row in rows if " fallback " in row and "→" in row]
    if fallback is None:
        assert shown == [], rows
    else:
        assert len(shown) == 1 and fallback in shown[0], rows


async def test_a_two_attempt_chain_shortens_its_names_before_it_drops_the_failure(
    tmp_path: Path,
) -> None:
    """At 120x36 the broken log chain's "(claimed) ticket-classifier ✗ → ticket-classifier-
    backup ✓" was two cells too long, and the first attempt (the failure the fallback
    answered) went: "… → ticket-classifier-backup ✓". Both attempts stay now, the longer
    name cut."""
    rows = await _demo_summary_rows(tmp_path, "wal_tampered", (120, 36))
    (chain,) = [row for row in rows if row.startswith("chain ")]
    assert chain == "chain (claimed) ticket-classifier ✗ → ticket-classifier-b… ✓", rows


@pytest.mark.parametrize("agents", [("fb-primary", "fb-secondary"), ("a-one", "a-two", "a-three")])
async def test_several_attempts_in_flight_keep_their_chains_end_at_80_columns(
    records_dir: Path, agents: tuple[str, ...]
) -> None:
    """Attempts started that never ended (the process died, then again after a retry): at
    80x24 the chain read ``chain age… … in flight → age… … in flig…``, each attempt's
    words taking the room its name needed and the last cut off. "in flight" is said once
    now, after the last of them."""
    record = make_record(
        execution_id="in-flight-twice",
        agents=tuple((a, "error") for a in agents),
        final_status=None,
    )
    starts = [
        e for e in record["events"] if e["type"] in ("INTENT_RECEIVED", "AGENT_ATTEMPT_START")
    ]
    record["events"] = [{**event, "seq": seq} for seq, event in enumerate(starts, start=1)]
    write_record(records_dir, record)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key("in-flight-twice.json")
        await settle(pilot)
        rows = _summary_rows(app)
    (chain,) = [row for row in rows if row.startswith("chain ")]
    assert chain.endswith(" … in flight") and chain.count("in flight") == 1, rows
    assert chain.startswith(f"chain {agents[0][:4]}"), rows


async def test_a_log_with_two_steps_in_flight_says_so_once_at_80_columns(tmp_path: Path) -> None:
    """The real WALWriter's log of two steps started and never ended: their words took the
    room of their names, ``steps ledger-… … in flight → paym… … in flight`` cut at 80x24."""

    def write(w: WALWriter) -> None:
        w.step_started("lookup", "ledger-reader", "read_only", {}, "in-1")
        w.step_started("charge", "payments-agent", "irreversible", {}, "in-2")

    steps = await _log_only_steps_row(tmp_path, write)
    assert steps.startswith("steps ledger-") and " … → payment" in steps, steps
    assert steps.endswith(" … in flight") and steps.count("in flight") == 1, steps
