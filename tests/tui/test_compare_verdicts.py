"""Every view of a comparison names each record's verdict, the one it carries from the core
(as its list row shows it), and warns about a side whose evidence fails its integrity check:
the Diff tab, the full-screen comparison opened by ``d`` and again by ``f``. A snapshot or
baseline has no verdict and none is shown. The tampered record is one whose envelope payload
was edited after its hash was taken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from intentus_tui.core.compare import file_operand
from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.factories import write_record
from tests.tui.compare_harness import (
    CompareApp,
    compare_pair,
    debugger_on_pair,
    pair_app,
    record_pair,
    tampered_pair_app,
)
from tests.tui.side_pane_harness import (
    SidePaneApp,
    detail_from,
    finish_workers,
    good_record,
    tampered_record,
)

CLEAN = "✓ succeeded · verified · ↺ yes"
TAMPERED = "⚠ untrusted · tampered · ✗ no (untrusted)"
WARNING = (
    "B is untrusted (integrity tampered): its differences come from evidence that fails "
    "its integrity check"
)
# Why, as ``intentus-tui diff`` says it after the warning.
TAMPERING = (
    "(the envelope does not hash to the recorded envelopeHash and no harmless explanation "
    "reproduces it: possible tampering)"
)


def _text(widget: Any) -> str:
    return str(widget.render())


def _flat(text: str) -> str:
    """Wrapped lines joined back into one (a warning wraps in a narrow pane)."""
    return " ".join(text.split())


async def diff_title(left: Any, right: Any) -> str:
    app = SidePaneApp(left, tab="verify")
    async with app.run_test(size=(100, 40)) as pilot:
        app.side.show_diff(left, right)
        await finish_workers(pilot)
        return _text(app.side.diff_pane.query_one("#diff-title"))


async def test_the_diff_tab_names_both_verdicts_and_warns_about_the_tampered_side() -> None:
    clean, tampered = detail_from(good_record("exec-000A")), detail_from(tampered_record())
    assert tampered.verdict is not None and not tampered.verdict.trusted
    title = await diff_title(clean, tampered)
    lines = title.splitlines()
    assert lines[:2] == ["A: exec-000A", "B: exec-0002"]  # a line each, never wrapped together
    assert lines[2:4] == [f"A {CLEAN}", f"B {TAMPERED}"]
    assert f"⚠ {WARNING}" in _flat(title)
    assert title.count("is untrusted") == 1


async def test_the_diff_tab_of_a_clean_pair_shows_both_verdicts_and_no_warning() -> None:
    title = await diff_title(
        detail_from(good_record("exec-000A")), detail_from(good_record("exec-000B"))
    )
    assert title.splitlines() == ["A: exec-000A", "B: exec-000B", f"A {CLEAN}", f"B {CLEAN}"]


async def test_a_snapshot_side_has_no_verdict_line(tmp_path: Path) -> None:
    record = tampered_record()
    path = write_record(tmp_path, record)
    pinned = save_snapshot(snapshot_from_record(good_record("exec-000A")), tmp_path / "pin.json")
    app = SidePaneApp(None, tab="diff")
    async with app.run_test(size=(100, 40)) as pilot:
        app.side.show_comparison(
            "exec-0002", file_operand("A", path), "pin.json", file_operand("B", pinned)
        )
        await finish_workers(pilot)
        title = _text(app.side.diff_pane.query_one("#diff-title"))
    assert title.splitlines()[:3] == ["A: exec-0002", "B: pin.json", f"A {TAMPERED}"]
    assert not any(line.startswith("B ") for line in title.splitlines())
    assert "A is untrusted (integrity tampered)" in _flat(title)


async def test_the_full_screen_names_both_verdicts_and_warns() -> None:
    app = tampered_pair_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        # Side by side, each on one line of its half: both without the word "execution".
        assert _text(screen.query_one("#side-a")) == f"A exec-000A · {CLEAN}"
        assert _text(screen.query_one("#side-b")) == f"B exec-000B · {TAMPERED}"
        warning = screen.query_one("#compare-warning")
        assert warning.display and warning.region.height >= 1
        assert _flat(_text(warning)) == f"⚠ {WARNING} {TAMPERING}"


async def test_the_full_screen_of_a_clean_pair_has_no_warning() -> None:
    app = pair_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        assert _text(screen.query_one("#side-a")).endswith(CLEAN)
        assert _text(screen.query_one("#side-b")).endswith(CLEAN)
        warning = screen.query_one("#compare-warning")
        assert not warning.display and warning.region.height == 0


async def test_d_and_then_f_from_the_diff_tab_show_both_verdicts(records_dir: Path) -> None:
    """``f`` in the Diff tab opens the full screen again: with the verdicts, as ``d`` did."""
    from tests.tui.app_support import settle

    a, b = record_pair()
    b["envelope"]["payload"] = {"text": "edited after hashing"}
    app = debugger_on_pair(records_dir, (a, b))
    async with app.run_test(size=(200, 50)) as pilot:
        await compare_pair(pilot)
        for opened_by in ("d", "f"):
            screen = app.screen
            assert isinstance(screen, ComparisonScreen), opened_by
            assert _text(screen.query_one("#side-a")).endswith(CLEAN), opened_by
            assert _text(screen.query_one("#side-b")).endswith(TAMPERED), opened_by
            assert _flat(_text(screen.query_one("#compare-warning"))) == f"⚠ {WARNING} {TAMPERING}"
            await pilot.press("escape")
            await settle(pilot)
            pane = app.side_pane.diff_pane
            title = _text(pane.query_one("#diff-title"))
            assert f"A {CLEAN}" in title and f"B {TAMPERED}" in title, opened_by
            assert WARNING in _flat(title), opened_by
            pane.view.focus()
            await pilot.press("f")
            await settle(pilot)


def _trace_edited() -> tuple[Any, Any]:
    """A record and one whose only edit, made after its hash was taken, is its trace id: a
    path the ignore rules hide, so the values compared match."""
    from tests.tui.side_pane_harness import good_record as record

    a, b = record("exec-000A"), record("exec-000B")
    b["envelope"]["metadata"]["traceId"] = "edited after hashing"
    return detail_from(a), detail_from(b)


async def test_equal_from_an_untrusted_side_says_so_on_the_full_screen_and_the_diff_tab() -> None:
    """They said "equal" and drew a green EQUAL badge, as for two records that verify."""
    a, b = _trace_edited()
    assert b.verdict is not None and not b.verdict.trusted
    app = CompareApp(a, b)
    async with app.run_test(size=(120, 36)) as pilot:
        await finish_workers(pilot)
        status = _flat(_text(app.comparison.query_one("#compare-status")))
    assert status.startswith("records · equal, from untrusted evidence · ")
    assert "hidden by ignore rules" in status

    side = SidePaneApp(a, tab="verify")
    async with side.run_test(size=(100, 40)) as pilot:
        side.side.show_diff(a, b)
        await finish_workers(pilot)
        said = _flat(_text(side.side.diff_pane.query_one("#diff-status")))
    assert said.startswith("EQUAL (no changes), from untrusted evidence")

    clean = CompareApp(*_trace_edited()[:1], detail_from(good_record("exec-000C")))
    async with clean.run_test(size=(120, 36)) as pilot:
        await finish_workers(pilot)
        status = _flat(_text(clean.comparison.query_one("#compare-status")))
    assert status.startswith("records · equal · ")
