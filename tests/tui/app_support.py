"""Helpers for driving the debugger app in Pilot tests: deterministic worlds, waiting."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static, Tabs
from textual.widgets._tabs import Underline
from textual.worker import Worker

from intentus_tui.core.paths import RecordRoot, resolve_root
from intentus_tui.tui.app import IntentusApp
from tests.factories import make_record, write_record

# The size most app tests run at (one of the sizes the debugger is looked at in); WIDE for
# the list's widest rows: its verdict columns in words (`✗ operator`, `↺ yes`).
SIZE = (120, 36)
WIDE = (160, 45)

HOSTILE_TEXTS = ("[b]x[/b]", "[/x]", "[$accent]", "\x1b[2J", "\x1b]0;title\x07", "\u202e")


def fixed_id(n: int) -> str:
    """Deterministic UUID-shaped ids: the list shows their first 8 characters."""
    return f"{n:08x}-0000-4000-8000-{n:012x}"


def created(n: int) -> str:
    return f"2026-01-05T10:{n // 60:02d}:{n % 60:02d}.000000+00:00"


def write_world(records: Path) -> dict[str, str]:
    """Six executions covering every group; returns name -> execution id."""
    ids: dict[str, str] = {}

    def add(name: str, n: int, **kwargs: Any) -> Path:
        ids[name] = fixed_id(n)
        return write_record(
            records, make_record(execution_id=ids[name], created=created(n), **kwargs)
        )

    add("ok", 1, intent="Summarize")
    add(
        "fallback",
        2,
        intent="Translate",
        agents=(("fb-primary", "error"), ("fb-secondary", "ok")),
    )
    add("invalidated", 3, intent="Classify", replayable=False, reason="manually_invalidated")
    incomplete = make_record(
        execution_id=fixed_id(4), created=created(4), intent="Refund", final_status=None
    )
    incomplete["events"].append(
        {"seq": 4, "type": "AGENT_ATTEMPT_START", "payload": {"agent": "refunder", "index": 1}}
    )
    ids["incomplete"] = fixed_id(4)
    write_record(records, incomplete)
    truncated = make_record(
        execution_id=fixed_id(5),
        created=created(5),
        intent="Summarize",
        agents=(("fb-primary", "error"), ("fb-secondary", "ok")),
    )
    text = json.dumps(truncated, indent=2)
    # Cut inside the second attempt's end: the process died while writing it.
    cut = text.index('"AGENT_ATTEMPT_END"', text.rindex('"AGENT_ATTEMPT_START"'))
    (records / f"{fixed_id(5)}.json").write_text(text[:cut], encoding="utf-8")
    ids["truncated"] = fixed_id(5)
    add("ok2", 6, intent="Translate")
    return ids


def make_app(directory: Path, *, watch: bool = False, **kwargs: Any) -> IntentusApp:
    kwargs.setdefault("directory_label", "records")
    kwargs.setdefault("use_cache", False)  # never write the user's cache from a test
    # A relative directory stays relative (resolve_root makes paths absolute), so snapshot
    # tests run in a temp cwd show no temp path.
    root = (
        RecordRoot(directory, None, directory)
        if not directory.is_absolute()
        else resolve_root(directory)
    )
    return IntentusApp(root, watch=watch, **kwargs)


def _running_workers(app: App[Any]) -> list[Worker[Any]]:
    return [w for w in app.workers if w.group != "watcher" and not w.is_finished]


def _building_side_pane(app: App[Any]) -> bool:
    # Its tabs are asked for after the first rows or at the scan's end; mounting them is
    # not a worker.
    return isinstance(app, IntentusApp) and app._side_pane_scheduled and not app.side_pane.ready


def _screen_busy(app: App[Any]) -> bool:
    """A resize is still to be passed on, a layout is still to run, or a message still
    waits (a resize's handlers fit their text to the new size, which asks for another
    layout). Textual passes a terminal's resize on from a timer (1/120 s after it), which
    no queue shows: a comparison resized to 200x40 was still fitted to 80x24 after a settle
    in 2 runs of 6 on a loaded machine."""
    if app._resize_timer is not None:
        return True
    screen = app.screen
    if screen._layout_required:
        return True
    return any(not node._message_queue.empty() for node in (app, *screen.walk_children()))


def underline_off_its_tab(app: App[Any]) -> bool:
    """Whether a tab bar's underline is not yet under its active tab: Textual moves it once
    the screen is next idle after the key, which the animator and the workers do not show
    (a busy machine's snapshot caught it under the old tab)."""
    for tabs in app.screen.query(Tabs):
        active = tabs.active_tab
        if active is None or not tabs.display or not tabs.region:
            continue
        start, end = active.virtual_region.shrink(active.styles.gutter).column_span
        underline = tabs.query_one(Underline)
        if (underline.highlight_start, underline.highlight_end) != (start, end):
            return True
    return False


async def _animations_finished(app: App[Any], timeout: float) -> None:
    try:
        await asyncio.wait_for(app.animator.wait_until_complete(), max(timeout, 0.01))
    except TimeoutError:
        raise AssertionError("an animation did not end in time") from None


async def _workers_finished(workers: list[Worker[Any]], timeout: float) -> None:
    """Wait for these workers to end, however they end (a failure is the app's to show)."""
    waits = [asyncio.ensure_future(worker.wait()) for worker in workers]
    done, pending = await asyncio.wait(waits, timeout=max(timeout, 0))
    for wait in pending:
        wait.cancel()
    for wait in done:
        wait.exception()  # retrieved: the test looks at what the app shows instead


# Seconds a tab's underline may stay off its tab, with nothing else to wait for, before
# it is taken as left there, a bug the test fails on (``underline_off_its_tab``): its move
# takes 0.3 s at most. The helper once put it under its tab itself, which hid one (the
# Diff tab chosen under a full-screen comparison: its underline stayed under no tab).
UNDERLINE_STUCK = 3.0


async def settle(pilot: Pilot[Any], timeout: float = 30.0) -> None:
    """Wait until no worker (but the watcher) runs, no animation (a scroll) is under way,
    the side pane is built if it was asked for, no layout is pending (a resize's handlers
    fit their text, then lay out again), and every posted message is handled, twice
    over with a frame drawn in between (what a frame starts, a finished worker's message,
    may start more work). ``timeout`` only stops a hang: a loaded 2-core machine running
    two test processes had a worker take over 10 s, failing a test that had nothing wrong."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    underline_since = time.monotonic()
    quiet_rounds = 0
    waiting_for = "nothing"
    while quiet_rounds < 2:
        await pilot.pause()
        underline = False  # only the underline was waited for this round
        if not app.animator._complete_event.is_set():  # between two frames looks idle
            quiet_rounds, waiting_for = 0, "an animation"
            await _animations_finished(app, deadline - time.monotonic())
        elif workers := _running_workers(app):
            quiet_rounds, waiting_for = 0, f"workers {[w.name for w in workers]}"
            await _workers_finished(workers, deadline - time.monotonic())
        elif _building_side_pane(app):
            quiet_rounds, waiting_for = 0, "the side pane"
            await pilot.pause(0.005)
        elif _screen_busy(app):
            quiet_rounds, waiting_for = 0, "a layout or a message"
        elif underline_off_its_tab(app):
            quiet_rounds, waiting_for, underline = 0, "a tab's underline", True
            if time.monotonic() > underline_since + UNDERLINE_STUCK:
                raise AssertionError("a tab's underline stayed off its active tab")
            await pilot.pause(0.005)
        else:
            quiet_rounds += 1
        if not underline:
            underline_since = time.monotonic()
        if time.monotonic() > deadline:
            raise AssertionError(f"the app did not settle in time (waiting for {waiting_for})")


async def mark_and_compare(pilot: Pilot[Any], marked: str, selected: str) -> None:
    """Mark the execution in file ``marked`` (``m``), select the one in ``selected`` and
    compare them (``d``), as a user does from the list."""
    app = pilot.app
    assert isinstance(app, IntentusApp)
    assert app.execution_list.select_key(marked)
    await settle(pilot)
    await pilot.press("m")
    assert app.execution_list.select_key(selected)
    await settle(pilot)
    await pilot.press("d")
    await settle(pilot)


async def wait_for(
    pilot: Pilot[Any], condition: Callable[[], bool], what: str, timeout: float = 15.0
) -> None:
    """Poll ``condition`` while the app runs; fail with ``what`` after ``timeout`` seconds.

    Every 5 ms at first, then less often the longer it waits (a tenth of the time waited,
    at most 50 ms): each look has the app bring its screen up to date, and a wait of
    seconds (a catch-up window, a clock that ticks) spent over half its time doing that."""
    started = time.monotonic()
    deadline = started + timeout
    while not condition():
        now = time.monotonic()
        if now > deadline:
            raise AssertionError(f"timed out waiting for: {what}")
        await pilot.pause(min(max(0.005, (now - started) / 10), 0.05))


async def wait_for_scan_and_side_pane(pilot: Pilot[Any], app: IntentusApp) -> None:
    """The scan finished and the side pane it then builds is mounted. A test that ends
    sooner has ``run_test`` close the app while the pane's tabs are still mounting, and
    their Mount handlers query children never composed (Textual raises: a flaky failure).
    The scan's worker has ended too: the list is complete before the cache is written, and
    a test that reads the cache next must not race that write."""
    await wait_for(pilot, lambda: app.scan_done, "the scan to finish")
    await wait_for(pilot, lambda: app.side_pane.ready, "the side pane built")
    scanning = [w for w in app.workers if w.group == "scan" and not w.is_finished]
    if scanning:
        await _workers_finished(scanning, 15.0)


def list_lines(app: IntentusApp) -> list[str]:
    """The execution list's visible rows as plain text."""
    listing = app.execution_list
    return [listing.render_line(y).text for y in range(listing.scrollable_content_region.height)]


def event_lines(app: IntentusApp) -> list[str]:
    lines = app.timeline.lines
    return [lines.render_line(y).text for y in range(lines.scrollable_content_region.height)]


def screen_text(app: App[Any]) -> str:
    """Everything on screen as plain text (from the compositor, as a terminal would get it)."""
    return "\n".join(screen_lines(app))


def screen_lines(app: App[Any]) -> list[str]:
    """``screen_text`` line by line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def timeline_summary(app: IntentusApp) -> str:
    """The text above the events (unwrapped)."""
    return str(app.timeline.query_one("#timeline-summary", Static).content)


def flat(lines: list[str]) -> str:
    """Lines as one, every run of spaces one space: a phrase however it wrapped."""
    return " ".join(" ".join(line.split()) for line in lines)


def diff_line(
    records: Path, ids: tuple[str, str], capsys: pytest.CaptureFixture[str], prefix: str
) -> str:
    """The line of ``intentus-tui diff A B`` (two records of ``records``) that begins with
    ``prefix``, without it: what a screen must say in the same words."""
    from intentus_tui.cli import run as run_cli

    capsys.readouterr()
    run_cli(["diff", str(records / f"{ids[0]}.json"), str(records / f"{ids[1]}.json")])
    lines = capsys.readouterr().out.splitlines()
    return next(line for line in lines if line.startswith(prefix)).removeprefix(prefix)
