"""The timeline, event and side panes never show another execution than the one under the
list's cursor: from the moment the cursor moves they say the new one is loading, then
show it.

The cursor moves on a live change (follow mode), on a key, or when a newer read takes its
row out of the view (``ExecutionList.as_read``); the app hears of it by a message and reads
the new detail in a thread. A frame may be drawn between any two messages, so the panes are
checked as each message is dispatched (``message_hook``): whatever a frame drawn then would
show. No timing decides the outcome.
"""

from __future__ import annotations

import os
from pathlib import Path

from textual.message import Message
from textual.widgets import Static

from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.widgets.pane_text import LinesView
from tests.factories import make_record, write_record
from tests.tui.app_support import (
    SIZE,
    created,
    event_lines,
    fixed_id,
    make_app,
    screen_text,
    settle,
    timeline_summary,
    wait_for,
    wait_for_scan_and_side_pane,
)

NUMBERS = range(1, 10)
EVENT_PARTS = ("#event-detail-title", "#event-detail-body")
# The hook reads every pane at every message: on a loaded machine the app settles slower.
SLOW = 60.0


def _write(records_dir: Path, n: int, **kwargs: object) -> str:
    """Execution ``n``, its intent named after it: its id or its intent on a pane is it."""
    record = make_record(
        execution_id=fixed_id(n),
        intent=f"Intent{n:02d}",
        created=created(n),
        **kwargs,  # type: ignore[arg-type]
    )
    return write_record(records_dir, record).name


def _pane_texts(app: IntentusApp) -> dict[str, str]:
    """The timeline (its summary and rows), the event pane and the Verify tab as shown."""
    texts = {"timeline": "\n".join([timeline_summary(app), *event_lines(app)])}
    texts["event"] = "\n".join(
        str(app.event_detail.query_one(part).render()) for part in EVENT_PARTS
    )
    if app.side_pane.ready:
        texts["verify"] = app.side_pane.verify_pane.text
    return texts


class PaneWatch:
    """A ``message_hook``: at each message, which panes show an execution not selected."""

    def __init__(self, app: IntentusApp) -> None:
        self.app = app
        self.wrong: list[str] = []
        self.loading_seen = 0  # messages seen while the selected execution was loading
        self.said_loading = 0  # of those, when every pane said it was loading
        self._last: tuple[object, ...] | None = None

    def reset(self) -> None:
        self.wrong.clear()
        self.loading_seen = self.said_loading = 0

    def _changed(self, selected: str) -> bool:
        """Whether the selection or any pane's content changed since the last message
        (the same objects: nothing new to read; reading every pane each time is slow)."""
        app = self.app
        verify = app.side_pane.verify_pane.query_one(LinesView) if app.side_pane.ready else None
        now = (
            selected,
            app.detail_key,
            app.timeline.query_one("#timeline-summary", Static).content,
            app.timeline.lines.rows,
            *(app.event_detail.query_one(p, Static).content for p in EVENT_PARTS),
            verify.lines if verify is not None else None,
        )
        if self._last is not None and all(a is b for a, b in zip(now, self._last, strict=True)):
            return False
        self._last = now
        return True

    def __call__(self, message: Message) -> None:
        app = self.app
        if not app.is_running or not hasattr(app, "execution_list"):  # not composed yet
            return
        selected = app.execution_list.selected_key
        if not app.execution_list.is_mounted or selected is None:
            return
        loading = selected != app.detail_key
        self.loading_seen += loading
        if not self._changed(selected):
            return  # the panes are as they were at the last message: checked then
        texts = _pane_texts(app)
        said = f"loading {selected.removesuffix('.json')}…"
        if loading and said in texts["timeline"] and said in texts.get("verify", said):
            self.said_loading += 1
        for pane, text in texts.items():
            for n in NUMBERS:
                if f"{fixed_id(n)}.json" != selected and (
                    fixed_id(n) in text or f"Intent{n:02d}" in text
                ):
                    self.wrong.append(f"{pane} shows {n} with {selected[:8]} selected: {message!r}")


async def test_following_the_panes_never_show_the_execution_the_cursor_left(
    records_dir: Path,
) -> None:
    for n in range(1, 4):
        _write(records_dir, n)
    app = make_app(records_dir, watch=True)
    watch = PaneWatch(app)
    async with app.run_test(size=SIZE, message_hook=watch) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await pilot.press("T")  # follow the newest
        await settle(pilot, SLOW)
        assert app.execution_list.selected_key == app.detail_key == f"{fixed_id(3)}.json"
        watch.reset()
        for n in range(4, 7):  # each arrives, is followed, and is shown
            key = _write(records_dir, n)
            shown = f"execution {n} shown"
            await wait_for(pilot, lambda key=key: app.detail_key == key, shown, SLOW)
            await settle(pilot, SLOW)
            assert f"Intent{n:02d}" in "\n".join(_pane_texts(app).values())
        assert app.execution_list.following
    assert watch.loading_seen > 0  # the panes were looked at while a followed one loaded
    assert not watch.wrong, "\n".join(watch.wrong)
    assert watch.said_loading > 0  # and said so


async def test_moving_by_hand_the_panes_never_show_the_execution_the_cursor_left(
    records_dir: Path,
) -> None:
    for n in range(1, 4):
        _write(records_dir, n)
    app = make_app(records_dir)
    watch = PaneWatch(app)
    async with app.run_test(size=SIZE, message_hook=watch) as pilot:
        await settle(pilot, SLOW)
        watch.reset()
        for key in ("j", "j", "k", "k"):
            await pilot.press(key)
            await settle(pilot, SLOW)
            selected = app.execution_list.selected_key
            assert selected is not None and selected[:8] in timeline_summary(app)
    assert watch.loading_seen > 0
    assert not watch.wrong, "\n".join(watch.wrong)


async def test_a_newer_read_that_takes_its_row_out_of_the_view_is_not_shown(
    records_dir: Path,
) -> None:
    """Filtered to the executions in flight, one ends: read as it is selected, its newer
    summary (succeeded) leaves the view and the cursor goes to the next row. The detail
    just read is of the row left: it is not shown beside the row now selected."""
    running = _write(records_dir, 1, final_status=None)
    _write(records_dir, 2, final_status=None)
    app = make_app(records_dir)  # not watching: nothing else tells the list of the change
    watch = PaneWatch(app)
    async with app.run_test(size=SIZE, message_hook=watch) as pilot:
        await settle(pilot, SLOW)
        listing = app.execution_list
        await pilot.press("slash", *"in flight", "enter")
        await settle(pilot, SLOW)
        assert listing.model.shown_count == 2
        path = write_record(records_dir, make_record(execution_id=fixed_id(1), intent="Intent01"))
        later = os.stat(path).st_mtime + 5
        os.utime(path, (later, later))
        assert listing.select_key(f"{fixed_id(2)}.json")
        await settle(pilot, SLOW)
        watch.reset()
        assert listing.select_key(running)  # read again as it is selected: it has ended
        await settle(pilot, SLOW)
        assert listing.selected_key == f"{fixed_id(2)}.json"  # the ended one left the view
        assert app.detail_key == listing.selected_key
        assert fixed_id(2) in timeline_summary(app)
    assert not watch.wrong, "\n".join(watch.wrong)


async def test_a_hidden_tab_is_made_when_shown_by_key_or_by_mouse(records_dir: Path) -> None:
    """A tab not shown makes its lines when it is (a 16,000-attempt execution's post-mortem
    took a second of each selection made on another tab). Shown by its key or by a click on
    it, it shows the execution selected: never the one before, never nothing."""
    for n, agent in ((1, "alpha-agent"), (2, "beta-agent")):
        _write(records_dir, n, agents=((agent, "ok"),))
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        side = app.side_pane
        shown = side.postmortem_pane.query_one(LinesView)
        assert side.active_tab == "verify"
        first = "beta-agent" if "beta-agent" in timeline_summary(app) else "alpha-agent"
        other = {"alpha-agent": "beta-agent", "beta-agent": "alpha-agent"}[first]
        await pilot.press("j")
        await settle(pilot)
        assert other in timeline_summary(app)
        assert shown.lines == []  # hidden: not made on the selection
        await pilot.press("4")
        await settle(pilot)
        assert side.active_tab == "postmortem"
        assert f"#1 {other}" in screen_text(app) and first not in shown.text
        await pilot.press("1", "k")
        await settle(pilot)
        assert first in timeline_summary(app) and shown.lines == []
        await pilot.click("#--content-tab-postmortem")
        await settle(pilot)
        assert side.active_tab == "postmortem"
        assert f"#1 {first}" in screen_text(app) and other not in shown.text
