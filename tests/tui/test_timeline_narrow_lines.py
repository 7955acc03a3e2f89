"""What a narrow or short timeline summary keeps when its lines are cut: the end of a
chain (the answer, the step in flight) and the verdict's reasons."""

from __future__ import annotations

from pathlib import Path

from intentusnet.wal.writer import WALWriter

from intentus_tui.demo.writer import build_demo_world
from tests.tui.app_support import make_app, settle


def _summary_rows(app: object) -> list[str]:
    summary = app.timeline.query_one("#timeline-summary")  # type: ignore[attr-defined]
    return [row.rstrip() for row in str(summary.render()).splitlines()]


async def test_a_narrow_broadcast_keeps_its_answer_marker_whole(tmp_path: Path) -> None:
    """At 80x24 the broadcast's chain ended "kb-search-cold ✓ ← answ…": the name of the
    branch that answered shortens first now."""
    manifest = build_demo_world(tmp_path)
    (broadcast,) = manifest.scenarios["broadcast"]
    app = make_app(manifest.records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, timeout=20)
        assert app.execution_list.select_key(f"{broadcast}.json")
        await settle(pilot)
        rows = _summary_rows(app)
    (chain,) = [row for row in rows if row.startswith("broadcast ⇉")]
    assert chain.endswith("✓ ← answer"), rows
    assert "kb-search-c" in chain


async def test_a_narrow_log_only_execution_keeps_its_step_in_flight(tmp_path: Path) -> None:
    """A log with no record file (the real WALWriter's: a lookup, then a charge that never
    ended): at 80x24 its steps line was cut at its end, "steps ledger-reader ✓ 0ms →
    payments-agen…", the step in flight lost. Its middle goes now, as a chain's does."""
    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    (base / "wal").mkdir()
    with WALWriter(str(base / "wal"), "exec-5a1e0001") as w:
        w.execution_started("ab" * 32, "PayIntent")
        for n in range(1, 4):
            w.step_started(f"lookup-{n}", f"ledger-reader-{n}", "read_only", {}, f"in-{n}")
            w.step_completed(f"lookup-{n}", f"out-{n}", True)
        w.step_started("charge", "payments-agent", "irreversible", {}, "in-9")
    app = make_app(base / "records")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, timeout=20)
        (key,) = app.execution_list.model.summaries
        assert app.execution_list.select_key(key)
        await settle(pilot)
        rows = _summary_rows(app)
    (steps,) = [row for row in rows if row.startswith("steps ")]
    assert steps.endswith("payments-agent … in flight"), rows
    assert "…" in steps.removesuffix("… in flight")  # the steps left out, said so
