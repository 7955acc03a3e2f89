"""Live watching with real watchfiles events: added, rewritten, half-written, deleted, bursts."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import time
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.message import Message

from intentus_tui.core.records.load import is_record_name
from intentus_tui.tui.live.messages import (
    DetailLoaded,
    IndexChanged,
    PathsChanged,
    WatcherStopped,
    WatchStarted,
)
from intentus_tui.tui.live.watcher import DirectoryWatcher
from tests.factories import make_record, write_record
from tests.tui.app_support import (
    SIZE,
    created,
    fixed_id,
    make_app,
    screen_lines,
    screen_text,
    settle,
    wait_for,
    wait_for_scan_and_side_pane,
    write_world,
)


def _key(execution_id: str) -> str:
    return f"{execution_id}.json"


async def test_added_rewritten_and_deleted_files_update_only_their_rows(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await settle(pilot)
        listing = app.execution_list
        model = listing.model
        assert listing.select_key(_key(world["invalidated"]))
        await settle(pilot)
        untouched = model.summaries[_key(world["ok"])]

        new_id = fixed_id(77)
        write_record(records_dir, make_record(execution_id=new_id, created=created(77)))
        await wait_for(pilot, lambda: _key(new_id) in model.summaries, "new file listed")
        assert model.summaries[_key(world["ok"])] is untouched  # not re-read, not replaced
        assert listing.selected_key == _key(world["invalidated"])

        # The selected record is rewritten: its row and its detail follow.
        path = records_dir / _key(world["invalidated"])
        record = json.loads(path.read_text())
        record["header"]["replayableReason"] = "recording_failure"
        path.write_text(json.dumps(record, indent=2))
        await wait_for(
            pilot,
            lambda: (
                model.summaries[_key(world["invalidated"])].replay_reason == "recording_failure"
            ),
            "rewritten file re-read",
        )
        await wait_for(
            pilot,
            lambda: app.detail is not None and app.detail.replay_reason == "recording_failure",
            "selected detail reloaded",
        )
        assert listing.selected_key == _key(world["invalidated"])

        os.remove(records_dir / _key(world["ok"]))
        await wait_for(pilot, lambda: _key(world["ok"]) not in model.summaries, "deleted file gone")
        assert model.row_of(_key(world["ok"])) is None
        assert listing.selected_key == _key(world["invalidated"])
        assert sum(model.counts.values()) == 6  # 6 - 1 deleted + 1 added
        assert not any("is gone" in str(n.message) for n in app._notifications)  # not shown

        # The execution being read is removed: the cursor moves on, and says so.
        os.remove(records_dir / _key(world["invalidated"]))
        await wait_for(pilot, lambda: listing.selected_key != _key(world["invalidated"]), "moved")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert said[-1] == (
            f"{_key(world['invalidated'])} is gone (its file was removed): the cursor moved on "
            f"to {model.summaries[listing.selected_key].short_id}"
        )


async def test_a_half_written_file_is_corrupted_until_it_parses(records_dir: Path) -> None:
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        model = app.execution_list.model
        execution_id = fixed_id(5)
        text = json.dumps(make_record(execution_id=execution_id), indent=2)
        path = records_dir / _key(execution_id)
        path.write_text(text[: len(text) // 2])
        await wait_for(pilot, lambda: _key(execution_id) in model.summaries, "partial file seen")
        assert model.summaries[_key(execution_id)].state.value == "corrupted"
        path.write_text(text)
        await wait_for(
            pilot,
            lambda: model.summaries[_key(execution_id)].state.value == "completed",
            "complete file re-read",
        )
        assert model.summaries[_key(execution_id)].replayable


@pytest.mark.slow
async def test_a_burst_of_1000_new_files_converges_exactly(records_dir: Path) -> None:
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        model = app.execution_list.model
        template = json.dumps(make_record(execution_id="ID-PLACEHOLDER"), indent=2)
        for n in range(1000):
            execution_id = fixed_id(1000 + n)
            (records_dir / _key(execution_id)).write_text(
                template.replace("ID-PLACEHOLDER", execution_id)
            )
        on_disk = {name for name in os.listdir(records_dir) if is_record_name(name)}
        await wait_for(pilot, lambda: len(model.summaries) == 1000, "1000 rows", timeout=60)
        await settle(pilot)
        assert set(model.summaries) == on_disk
        assert model.shown_count == 1000 and len(model) == 1001  # + the group header
        assert all(s.state.value == "completed" for s in model.summaries.values())
        assert "1,000 executions" in str(app.query_one("HeaderBar").render())


async def test_paused_collects_changes_and_resume_applies_them(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await settle(pilot)
        model = app.execution_list.model
        await pilot.press("p")
        assert "paused" in str(app.query_one("HeaderBar").render())
        new_id = fixed_id(88)
        write_record(records_dir, make_record(execution_id=new_id))
        await wait_for(pilot, lambda: app.feeder.pending_count > 0, "change noticed while paused")
        await settle(pilot)
        assert _key(new_id) not in model.summaries
        count = app.feeder.pending_count
        waiting = (
            "1 change waiting" if count == 1 else f"{count} changes waiting"
        )  # not "1 changes"
        assert f"({waiting})" in str(app.query_one("HeaderBar").render())
        await pilot.press("p")
        await wait_for(pilot, lambda: _key(new_id) in model.summaries, "applied on resume")
        assert "● live" in str(app.query_one("HeaderBar").render())


def test_the_watcher_says_when_it_watches_reports_changes_and_stops(records_dir: Path) -> None:
    posted: queue.Queue[object] = queue.Queue()
    watcher = DirectoryWatcher([records_dir], posted.put)
    watcher.start()
    try:
        assert isinstance(posted.get(timeout=10), WatchStarted)
        path = write_record(records_dir, make_record(execution_id=fixed_id(90)))
        (records_dir / "notes.txt").write_text("not a record")
        seen: set[Path] = set()
        deadline = time.monotonic() + 10
        while path not in seen and time.monotonic() < deadline:
            message = posted.get(timeout=10)
            assert isinstance(message, PathsChanged)
            seen |= message.paths
        assert path in seen
        assert records_dir / "notes.txt" not in seen
    finally:
        watcher.stop()
        watcher.join(timeout=5)
    assert not watcher._thread.is_alive()  # stopped within one step, not at exit


def test_a_watcher_that_cannot_watch_says_why(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import watchfiles
    from watchfiles._rust_notify import WatchfilesRustInternalError

    def broken(*paths: object, **options: object) -> object:
        raise WatchfilesRustInternalError("inotify watch limit reached")  # a RuntimeError

    monkeypatch.setattr(watchfiles, "watch", broken)
    posted: queue.Queue[object] = queue.Queue()
    watcher = DirectoryWatcher([records_dir], posted.put)
    watcher.start()
    try:
        message = posted.get(timeout=10)
    finally:
        watcher.stop()
        watcher.join(timeout=5)
    assert isinstance(message, WatcherStopped)  # the app then scans without watching
    assert "limit" in message.reason


def test_a_watcher_whose_app_has_closed_stops(records_dir: Path) -> None:
    def closed(message: object) -> None:
        raise RuntimeError("Event loop is closed")

    watcher = DirectoryWatcher([records_dir], closed)
    watcher.start()
    watcher.join(timeout=5)
    assert not watcher._thread.is_alive()


async def test_results_that_arrive_while_the_app_closes_are_dropped(
    records_dir: Path, world: dict[str, str]
) -> None:
    """A detail or a batch of rows finishing as the app closes reaches an app whose panes
    are being taken down, children first (the side pane still mounted, its tabs gone):
    it is dropped, where it used to raise ``NoMatches: VerifyPane`` out of the app."""
    app = make_app(records_dir)
    arrived_while_closing = 0

    def deliver_while_closing(message: Message) -> None:
        # Each widget taken down (its Unmount) is a moment a worker's result may land.
        nonlocal arrived_while_closing
        if isinstance(message, events.Unmount) and app.closing and app.detail_key:
            assert app.detail is not None
            arrived_while_closing += app.post_message(DetailLoaded(app.detail_key, app.detail))
            row = app.execution_list.model.summaries[app.detail_key]
            app.post_message(IndexChanged((row,), scanned=None))

    async with app.run_test(size=SIZE, message_hook=deliver_while_closing) as pilot:
        await settle(pilot)
        assert app.side_pane.ready and app.detail is not None
        assert app.side_pane.verify_pane.detail is app.detail
    assert arrived_while_closing > 0  # the race was really run


@pytest.mark.parametrize(("ticks", "how"), [(0, "end"), (2, "end"), (3, "end"), (0, "q"), (3, "q")])
async def test_closing_while_the_side_pane_mounts_is_not_a_crash(
    records_dir: Path, world: dict[str, str], ticks: int, how: str
) -> None:
    """Closed a few loop turns after the side pane's tabs began to mount, the app raised
    out of a pane's mount whose children were already taken down (``No Tab with id
    '--content-tab-verify'``, ``NoMatches: #verify-text``, ``#label`` of the Diff tab's
    Select), one run in ten of a test that ended early; each turn is a different widget."""
    app = make_app(records_dir)
    async with app.run_test(size=SIZE):
        for _ in range(10_000):  # the first rows are drawn, then the tabs are asked for
            if app.side_pane._building:
                break
            await asyncio.sleep(0)
        for _ in range(ticks):
            await asyncio.sleep(0)
        assert not app.side_pane.ready  # still mounting: the race is really run
        if how == "q":
            app.exit()


async def test_an_app_closed_without_exit_leaves_no_thread_watching(
    records_dir: Path, world: dict[str, str]
) -> None:
    """Closed without ``exit()`` (a test's end, an app embedding it), its watcher thread
    went on polling a directory nobody looked at, twenty times a second, for as long as
    the process lived: a test run kept hundreds of them."""
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        watcher = app._watcher
        assert watcher is not None and watcher._thread.is_alive()
    watcher.join(timeout=5)
    assert not watcher._thread.is_alive()


async def test_the_viewed_execution_and_event_stay_put_while_executions_arrive(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        assert listing.select_key(_key(world["fallback"]))
        await pilot.press("enter")  # open its timeline and step to the third event
        await wait_for(pilot, lambda: app.detail_key == _key(world["fallback"]), "detail")
        await pilot.press("j", "j")
        await settle(pilot)
        assert app.timeline.lines.cursor == 2
        for n in range(80, 85):  # newer than everything shown: they sort above it
            write_record(records_dir, make_record(execution_id=fixed_id(n), created=created(n)))
        await wait_for(
            pilot, lambda: _key(fixed_id(84)) in listing.model.summaries, "new files listed"
        )
        await settle(pilot)
        assert listing.selected_key == _key(world["fallback"])
        assert app.detail_key == _key(world["fallback"])
        assert app.timeline.lines.cursor == 2
        assert "follow" not in screen_text(app).splitlines()[0]


def _cut_short(records: Path, n: int) -> str:
    """A newer record cut short among its events (unknown: the failures-first view lists
    it in its top group); its key."""
    text = json.dumps(make_record(execution_id=fixed_id(n), created=created(n)), indent=2)
    (records / _key(fixed_id(n))).write_text(text[: text.index('"AGENT_ATTEMPT_END"')], "utf-8")
    return _key(fixed_id(n))


async def test_the_top_row_opened_untouched_stays_while_newer_executions_arrive(
    records_dir: Path, world: dict[str, str]
) -> None:
    """The cursor on the top row, where the list opens, never moved in the list: each
    arrival listed above it took the top row, and with it the side pane and the timeline
    open on it (the place in its events lost). Only follow mode (``T``) moves to what
    arrives."""
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        viewed = listing.selected_key
        assert viewed is not None and listing.cursor_row == listing.model.nearest_item(0)
        arrived = _cut_short(records_dir, 70)
        await wait_for(pilot, lambda: arrived in listing.model.summaries, "listed")
        await settle(pilot)
        assert listing.model.key_at(listing.model.nearest_item(0) or 0) == arrived  # above it
        assert listing.selected_key == viewed and app.detail_key == viewed
        await pilot.press("enter")  # its timeline, two events on
        await settle(pilot)
        at = app.timeline.lines.cursor
        await pilot.press("k", "k")
        await settle(pilot)
        assert app.timeline.lines.cursor == at - 2
        arrived = _cut_short(records_dir, 71)
        await wait_for(pilot, lambda: arrived in listing.model.summaries, "listed")
        await settle(pilot)
        assert listing.selected_key == viewed and app.detail_key == viewed
        assert app.timeline.lines.cursor == at - 2


async def test_follow_mode_selects_each_arrival_until_the_cursor_is_moved_by_hand(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        assert listing.select_key(_key(world["invalidated"]))
        await pilot.press("T")  # follow: the newest execution there is, now
        await settle(pilot)
        assert listing.selected_key == _key(world["ok2"])  # created last of the world
        assert "⇣ follow" in screen_text(app).splitlines()[0]

        write_record(records_dir, make_record(execution_id=fixed_id(90), created=created(90)))
        await wait_for(pilot, lambda: listing.selected_key == _key(fixed_id(90)), "followed")
        await wait_for(pilot, lambda: app.detail_key == _key(fixed_id(90)), "its timeline")

        await pilot.press("j")  # the user takes the cursor: following stops
        await settle(pilot)
        assert not listing.following
        assert "follow" not in screen_text(app).splitlines()[0]
        moved_to = listing.selected_key
        write_record(records_dir, make_record(execution_id=fixed_id(91), created=created(91)))
        await wait_for(pilot, lambda: _key(fixed_id(91)) in listing.model.summaries, "listed")
        await settle(pilot)
        assert listing.selected_key == moved_to


async def test_a_file_name_that_is_not_utf8_does_not_stop_the_live_list(
    records_dir: Path, world: dict[str, str]
) -> None:
    # watchfiles stops at such a name ("Unable to decode path"): the header said
    # "watching stopped" and no file written after it was ever listed.
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        model = app.execution_list.model
        odd = os.fsencode(records_dir) + b"/odd-\xff\xfe.json"
        with open(odd, "wb") as handle:  # a copy of a record, under a name not UTF-8
            handle.write((records_dir / _key(world["ok"])).read_bytes())
        await wait_for(
            pilot, lambda: "odd-\udcff\udcfe.json" in model.summaries, "the odd name listed"
        )
        after = fixed_id(78)
        write_record(records_dir, make_record(execution_id=after, created=created(78)))
        await wait_for(pilot, lambda: _key(after) in model.summaries, "a later file listed")
        os.unlink(odd)
        await wait_for(
            pilot, lambda: "odd-\udcff\udcfe.json" not in model.summaries, "the odd name gone"
        )
        assert "watching stopped" not in screen_text(app)


async def test_opened_before_the_agent_ran_it_reopens_on_the_records_when_they_appear(
    tmp_path: Path,
) -> None:
    # The records directory IntentusNet creates on its first run was never looked at:
    # the list stayed empty until the debugger was opened again.
    project = tmp_path / "project"
    project.mkdir()
    app = make_app(project, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "the empty directory read")
        await settle(pilot)
        assert "here or in .intentusnet/records" in app.execution_list.empty_message
        records = project / ".intentusnet" / "records"
        records.mkdir(parents=True)
        write_record(records, make_record(execution_id=fixed_id(5), created=created(5)))
        deadline = time.monotonic() + 10
        while app.reopen is None and time.monotonic() < deadline:
            await pilot.pause(0.05)
    assert app.reopen is not None and app.reopen.records_dir == records
    assert app.reopen.requested == project


async def test_a_directory_of_records_is_followed_as_it_is(records_dir: Path) -> None:
    # Records of its own: a plain directory stays the one followed, .intentusnet or not.
    write_record(records_dir, make_record(execution_id=fixed_id(6), created=created(6)))
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        (records_dir / ".intentusnet" / "records").mkdir(parents=True)
        await pilot.pause(0.5)  # the check's period (0.1 s in the tests), and some
        assert app.reopen is None and app.is_running


async def _take_away(pilot: Any, app: Any, records_dir: Path) -> Path:
    """Move the watched directory away until the header says it is gone; where it went."""
    kept = records_dir.parent / "kept"
    records_dir.rename(kept)
    await wait_for(pilot, lambda: app.header_state.live == "stopped", "the loss said")
    return kept


async def test_a_directory_removed_and_made_again_is_followed_again(
    records_dir: Path, world: dict[str, str]
) -> None:
    # It was lost for good while the header still said "live".
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        model = app.execution_list.model
        kept = await _take_away(pilot, app, records_dir)
        kept.rename(records_dir)  # back, and a record written into it since
        new_id = fixed_id(79)
        write_record(records_dir, make_record(execution_id=new_id, created=created(79)))
        await wait_for(pilot, lambda: app.header_state.live == "live", "watching again")
        await wait_for(pilot, lambda: _key(new_id) in model.summaries, "the new one listed")
        await wait_for(pilot, lambda: _key(world["ok"]) in model.summaries, "the old ones back")
        later = fixed_id(80)  # and what is written after: the watch is live again
        write_record(records_dir, make_record(execution_id=later, created=created(80)))
        await wait_for(pilot, lambda: _key(later) in model.summaries, "a later one listed")


async def test_paused_while_a_directory_went_and_came_back_stays_paused(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await pilot.press("p")
        await settle(pilot)
        assert app.header_state.live == "paused"
        kept = await _take_away(pilot, app, records_dir)
        kept.rename(records_dir)
        await wait_for(pilot, lambda: app.header_state.live != "stopped", "watching again")
        assert app.header_state.live == "paused" and not app.feeder.live  # it said "live"


def test_a_records_directory_itself_awaits_no_project(tmp_path: Path) -> None:
    from intentus_tui.core.paths import resolve_root
    from intentus_tui.tui.live.project_watch import awaits_project

    records = tmp_path / "p" / ".intentusnet" / "records"
    records.mkdir(parents=True)
    assert not awaits_project(resolve_root(records))  # "or in .intentusnet/records": no
    assert not awaits_project(resolve_root(records.parent))
    (tmp_path / "q").mkdir()
    assert awaits_project(resolve_root(tmp_path / "q"))


async def test_logs_with_no_records_directory_are_listed_and_records_join_them(
    tmp_path: Path,
) -> None:
    # An application that logs before it records (or crashed before its first record):
    # the debugger said "No execution records" and "watching stopped", the logs unread,
    # and never saw the records directory when it came.
    from tests.core.wal.support import NAMES, write_incident_logs

    project = tmp_path / "project"
    write_incident_logs(project / ".intentusnet" / "wal")
    app = make_app(project, watch=True, directory_label=None)  # the header's own words
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        model = app.execution_list.model
        for execution_id in NAMES.values():
            assert f"{execution_id}.wal" in model.summaries
        assert app.header_state.live == "live"
        assert "watching stopped" not in screen_text(app)
        assert app.header_state.directory == str(project / ".intentusnet")  # not records/
        records = project / ".intentusnet" / "records"
        records.mkdir()
        new_id = fixed_id(81)
        write_record(records, make_record(execution_id=new_id, created=created(81)))
        await wait_for(pilot, lambda: _key(new_id) in model.summaries, "the new record listed")
        assert f"{NAMES['clean']}.wal" in model.summaries
        assert app.reopen is None


async def test_a_records_directory_gone_beside_its_logs_is_said_until_it_is_back(
    tmp_path: Path,
) -> None:
    # With its WAL directory still watched, a records directory moved away went unsaid:
    # the header read "● live" while the records' rows turned into their logs' alone.
    from tests.core.wal.support import NAMES, write_incident_logs

    layout = tmp_path / "project" / ".intentusnet"
    records = layout / "records"
    records.mkdir(parents=True)
    write_incident_logs(layout / "wal")
    kept_id = fixed_id(82)
    write_record(records, make_record(execution_id=kept_id, created=created(82)))
    failing = {"agents": (("agent-a", "error"),), "final_status": "error"}
    logged = NAMES["failed"]  # an execution with its record and its log, among failures
    write_record(records, make_record(execution_id=logged, created=created(83), **failing))
    for later in (84, 85):  # listed above it, and gone with the records directory
        record = make_record(execution_id=fixed_id(later), created=created(later), **failing)
        write_record(records, record)
    app = make_app(layout.parent, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        assert app.header_state.live == "live"
        listed = app.execution_list
        assert listed.select_key(_key(logged))
        await settle(pilot)
        records.rename(layout / "records-away")
        await wait_for(pilot, lambda: app.header_state.live == "stopped", "the loss said")
        # The watch resumed on the logs at once: the header said "● live" again.
        await pilot.pause(0.5)
        assert app.header_state.live == "stopped"
        assert "records gone: waiting for it to come back" in screen_lines(app)[0]
        # The execution viewed is still listed, from its log: it stays selected (the
        # cursor kept its row number, on another execution).
        await wait_for(pilot, lambda: listed.selected_key == f"{logged}.wal", "its log")
        (layout / "records-away").rename(records)
        await wait_for(pilot, lambda: app.header_state.live == "live", "watching again")
        model = app.execution_list.model
        await wait_for(pilot, lambda: _key(kept_id) in model.summaries, "the record back")
        await wait_for(pilot, lambda: listed.selected_key == _key(logged), "its record again")


async def test_a_layout_moved_away_is_said_gone_and_its_rows_go_until_it_is_back(
    tmp_path: Path,
) -> None:
    # `mv .intentusnet elsewhere`: the header said "✗ watching stopped" and the list went
    # on showing every execution and its verdict as if it were there.
    layout = tmp_path / "project" / ".intentusnet"
    (layout / "records").mkdir(parents=True)
    world = write_world(layout / "records")
    (layout / "wal").mkdir()
    (layout / "wal" / f"{world['ok']}.wal").write_text("")  # a record's log goes with it
    app = make_app(layout.parent, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        model = app.execution_list.model
        assert len(model.summaries) == 6
        layout.rename(tmp_path / "elsewhere")
        gone = f"{layout} gone: waiting for it to come back"
        said = "/project/.intentusnet gone: waiting for it to come back"  # a long path is cut
        await wait_for(pilot, lambda: said in screen_lines(app)[0], "the loss said")
        await wait_for(pilot, lambda: not model.summaries, "its rows gone")
        await settle(pilot)
        assert screen_lines(app)[1].startswith(" 0 executions")
        assert app.execution_list.empty_message.startswith(gone)  # where the rows were
        (tmp_path / "elsewhere").rename(layout)
        await wait_for(pilot, lambda: app.header_state.live == "live", "watching again")
        await wait_for(pilot, lambda: len(model.summaries) == 6, "its rows back")
        assert _key(world["ok"]) in model.summaries
