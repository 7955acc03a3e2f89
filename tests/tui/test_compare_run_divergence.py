"""Two Active Graph runs' first divergence is the first event their aligned comparison shows
as differing, said the same way by ``intentus-tui diff`` (with or without ``--aligned``), the
Diff tab and the comparison screen.

The grandchild against the sibling: both inherit the parent's first three events; the
grandchild goes on with the parent's writer (``#4 object.created by writer``), the sibling
with its own note (``#4 object.created by system``), which pairs with the grandchild's #9.
The first divergence said ``event #4 …: same type object.created, payload differs (4 changed
values)``, comparing the two #4s by position, while the timelines showed A's #4 facing a gap
and ``diff --aligned`` listed ``- #4``. The Diff tab did not say it at all."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from intentus_tui.cli import run as run_cli
from intentus_tui.core.activegraph import run_events
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.activegraph_world import NotesWorld, notes_world
from tests.tui.app_support import settle, wait_for
from tests.tui.test_app_diff_file import make_noting_app, open_picker
from tests.tui.test_app_diff_runs import _compare_with_run, _pick_run


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> NotesWorld:
    return notes_world(tmp_path_factory.mktemp("notes"))


def _expected(notes: NotesWorld) -> str:
    seq = run_events(notes.path, notes.grandchild)[3].seq
    return f"event #4 (A seq {seq}): only in A (object.created)"


def _cli(refs: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    run_cli(["diff", *refs])
    return capsys.readouterr().out.splitlines()


def test_the_cli_says_the_first_event_the_alignment_sets_apart(
    notes: NotesWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    refs = [notes.ref(notes.grandchild), notes.ref(notes.sibling)]
    expected = f"first divergence: {_expected(notes)}"
    aligned = _cli([*refs, "--aligned"], capsys)
    assert expected in aligned
    assert "    B: (no such event here: it goes on)" in aligned
    # The listing's first event: A's #4, removed (B's #4 pairs with A's #9).
    listed = [line for line in aligned if line.startswith(("- #", "+ #", "  #"))]
    listed = [line for line in listed if ": " in line and " evt_" not in line]
    assert listed[0].startswith("- #4: ")
    assert any(line.startswith("  #9→#4.") for line in listed)
    # By position, the same line: where the runs part does not depend on the listing.
    assert expected in _cli(refs, capsys)


async def test_the_diff_tab_and_the_comparison_screen_say_it_as_the_cli_does(
    tmp_path: Path, notes: NotesWorld
) -> None:
    (tmp_path / ".intentusnet" / "records").mkdir(parents=True)
    shutil.copy(notes.path, tmp_path / "notes.db")
    app = make_noting_app(tmp_path / ".intentusnet" / "records")
    expected = f"first divergence: {_expected(notes)}"
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        picker = await open_picker(app, pilot)
        second = await _pick_run(app, pilot, picker, notes.grandchild)
        await _compare_with_run(app, pilot, second, notes.sibling)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen) and screen.compared is not None
        status = " ".join(str(screen.query_one("#compare-status").render()).split())
        first_row = next(row for row in screen.compared.timeline if row.differs(True))
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        tab = str(app.side_pane.diff_pane.query_one("#diff-summary").render())
        await pilot.press("f")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ComparisonScreen) and app.screen.compared is not None,
            "full screen again",
        )
        again = " ".join(str(app.screen.query_one("#compare-status").render()).split())
    # The screen's first differing row is A's #4 facing a gap, and its status names it so.
    assert first_row.status == "removed" and first_row.a is not None and first_row.b is None
    assert first_row.a.startswith("#4 evt_004 object.created by writer")
    assert expected in status, status
    assert expected in again, again
    assert expected in [line.strip() for line in tab.splitlines()], tab
    # The tab's values pair events by position (25 of them here), the full screen's as
    # --aligned does (20 values, 12 events): the tab says so, the count's change no surprise.
    said = " ".join(tab.split())
    assert "values: the events paired by position, as `diff`; f pairs them on type" in said
