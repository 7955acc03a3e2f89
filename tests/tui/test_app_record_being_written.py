"""A record caught mid-write while it is shown (1.3.0 writes in place: its first half is
on disk for a moment): the timeline and the side pane say it is being written, as its
row does ("… writing"), not that the file is damaged; once it has been still for a while
and is still cut short, they say it is damaged, as the row then does."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.screens.confirm import ConfirmScreen
from intentus_tui.tui.widgets import execution_list
from tests.tui.app_support import (
    SIZE,
    make_app,
    screen_text,
    settle,
    timeline_summary,
    wait_for,
    wait_for_scan_and_side_pane,
    write_world,
)


def _watched_world(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch, writing_seconds: float
) -> tuple[IntentusApp, str]:
    """The world watched, a file left cut short said written for ``writing_seconds``; and
    the key of its whole success, the one cut here."""
    monkeypatch.setattr(execution_list, "WRITING_SECONDS", writing_seconds)
    ids = write_world(records_dir)
    return make_app(records_dir, watch=True), f"{ids['ok']}.json"


def _half_written(path: Path) -> None:
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])  # the writer is half-way


async def _cut_while_selected(pilot: Pilot[Any], app: IntentusApp, path: Path, said: str) -> None:
    """Select the execution of ``path``, cut its file half-way, and wait until its row is
    "… writing" and the timeline's header says so (``said``: what is waited for)."""
    listing = app.execution_list
    key = path.name
    assert listing.select_key(key)
    await settle(pilot)
    _half_written(path)
    await wait_for(
        pilot, lambda: listing.is_writing(key) and "… writing" in timeline_summary(app), said
    )


async def test_the_timeline_says_a_record_shown_is_being_written_as_its_row_does(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, key = _watched_world(records_dir, monkeypatch, 1.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        assert listing.select_key(key)
        await settle(pilot)
        _half_written(records_dir / key)
        await wait_for(
            pilot,
            lambda: (
                listing.is_writing(key)
                and app.detail_key == key
                and "being written" in screen_text(app)
            ),
            "the row and the timeline say it is being written",
        )
        shown = screen_text(app)
        assert "the file is damaged" not in shown
        # Left so: it is damaged, and every pane says so.
        await wait_for(pilot, lambda: not listing.is_writing(key), "the writing timer")
        await wait_for(
            pilot, lambda: "the file is damaged" in screen_text(app), "the timeline says damaged"
        )
        assert "being written" not in screen_text(app)


async def test_the_short_timeline_header_says_writing_as_the_row_does(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80x24 the timeline's header gives the three answers in one line (no reasons): its
    outcome is the row's "… writing", not "? unknown" (a damaged file's) beside that row."""
    app, key = _watched_world(records_dir, monkeypatch, 60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await _cut_while_selected(
            pilot, app, records_dir / key, "the timeline's header says it is being written"
        )
        assert "? unknown" not in screen_text(app)


async def test_a_damaged_record_read_again_unchanged_is_not_said_being_written(
    tmp_path: Path,
) -> None:
    """``rm -r .intentusnet/wal``: every execution's log is read again, and with it its
    record; a damaged record whose file had not changed was then said "… writing" (row,
    timeline and side pane) for seconds, as if its writer were at work."""
    layout = tmp_path / ".intentusnet"
    ids = write_world(layout / "records")
    (layout / "wal").mkdir()
    (layout / "wal" / f"{ids['ok']}.wal").write_text("")
    key = f"{ids['truncated']}.json"
    app = make_app(tmp_path, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        assert listing.select_key(key)
        await settle(pilot)
        shutil.rmtree(layout / "wal")
        await wait_for(pilot, lambda: "wal gone" in screen_text(app), "the loss said")
        await settle(pilot)
        assert not listing.is_writing(key)
        assert "… writing" not in screen_text(app)


async def test_the_counts_and_the_group_say_being_written_as_the_row_does(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row, the timeline and the side pane said "… writing" while the header's counts
    said "2 unknown" and its group "Outcome unknown (2)": they now say it is being written
    (the world's own damaged record stays unknown), and once it is still, unknown."""
    app, key = _watched_world(records_dir, monkeypatch, 1.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        listing.show_failures_first()
        await settle(pilot)
        assert "1 unknown" in screen_text(app)  # the world's truncated record
        _half_written(records_dir / key)
        await wait_for(pilot, lambda: listing.is_writing(key), "the row says writing")
        await settle(pilot)
        shown = screen_text(app)
        assert "1 unknown, 1 being written" in shown
        assert "Outcome unknown (2, 1 being written)" in shown
        assert "2 unknown" not in shown
        # Left so: it is damaged, and the header counts it so.
        await wait_for(pilot, lambda: not listing.is_writing(key), "the writing timer")
        await wait_for(pilot, lambda: "2 unknown" in screen_text(app), "the counts say unknown")
        assert "being written" not in screen_text(app)
        assert "Outcome unknown (2)" in screen_text(app)


def test_a_group_of_records_being_written_alone_is_titled_so() -> None:
    from intentus_tui.tui.presenters.list_groups import Group
    from intentus_tui.tui.presenters.list_rows import group_header_text

    assert group_header_text(Group.UNKNOWN, 1, 40, writing=1).startswith("── Being written (1) ")
    assert group_header_text(Group.UNKNOWN, 1, 40).startswith("── Outcome unknown (1) ")


async def test_r_and_R_on_a_record_being_written_wait_for_it_as_its_row_does(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While its row said "… writing" (and the header "1 being written"), r refused it as
    a damaged file ("record_corrupted — the file is damaged") and R offered to force the
    replay of a "Damaged record": the Replay tab now says it is being written, as its row
    does, and R asks nothing before the file is whole."""
    app, key = _watched_world(records_dir, monkeypatch, 60.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await _cut_while_selected(
            pilot, app, records_dir / key, "the row and the timeline say it is being written"
        )
        await pilot.press("r")
        await settle(pilot)
        said = " ".join(app.side_pane.replay_pane.text.split())
        assert "being written" in said, said
        assert "damaged" not in said and "Replay refused" not in said, said
        app.clear_notifications()
        await pilot.press("R")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        notes = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert any(n.startswith("Not now: ") and "being written" in n for n in notes), notes
