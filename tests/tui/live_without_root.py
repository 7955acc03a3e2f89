"""The debugger as a user without root's power to read any file: run in a process of its
own by ``test_app_live_access`` (as root, which changes the files meanwhile).

It reports what a user sees at each step as one JSON line on stdout (the header's first
line, each listed execution's verdict) and waits for a line on stdin before the next: the
test's go, or the verdicts it expects (``inspect --list``'s) to wait for.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import textual._wait

from intentus_tui.core.verdict import verdict_of
from intentus_tui.tui.app import IntentusApp
from tests.tui.app_support import (
    SIZE,
    make_app,
    screen_lines,
    settle,
    wait_for,
    wait_for_scan_and_side_pane,
)

textual._wait.SLEEP_GRANULARITY = 0.001  # as the test suite's conftest does
textual._wait.SLEEP_IDLE = 0.0001

Rows = dict[str, list[object]]


def rows(app: IntentusApp) -> Rows:
    """Each listed execution: [outcome, integrity, replayable], as ``inspect --list``."""
    seen: Rows = {}
    for key, summary in app.execution_list.model.summaries.items():
        verdict = verdict_of(summary)
        seen[key] = [verdict.outcome.value, verdict.integrity.value, verdict.replayable]
    return seen


async def report(app: IntentusApp, step: str) -> str:
    """Say what is on screen; the test's answer."""
    said = {
        "step": step,
        "header": screen_lines(app)[0],
        "counts": screen_lines(app)[1],
        "rows": rows(app),
        "detail": None if app.detail is None else str(app.detail.result.status.value),
        "toasts": [notification.message for notification in app._notifications],
    }
    print(json.dumps(said), flush=True)
    return (await asyncio.to_thread(sys.stdin.readline)).strip()


def _read(app: IntentusApp) -> bool:
    return app.detail is not None and app.detail.result.status.value != "unreadable"


async def main(project: Path, opened: str) -> None:
    app = make_app(project, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await settle(pilot)
        await report(app, "listed")  # the test takes the records directory's access away
        await wait_for(pilot, lambda: app.header_state.live != "live", "the loss said")
        await settle(pilot)
        await report(app, "unlistable")  # the test changes and adds records, as root
        # An execution opened now: its record is there, it just cannot be read.
        assert app.execution_list.select_key(opened)
        await wait_for(pilot, lambda: app.detail_key == opened, "its detail", timeout=10)
        await settle(pilot)
        await pilot.press("r")  # replay it
        await settle(pilot)
        expected: Rows = json.loads(await report(app, "opened"))  # access is back
        try:
            await wait_for(pilot, lambda: rows(app) == expected, "inspect --list's rows")
            await wait_for(pilot, lambda: app.header_state.live == "live", "watching again")
            await wait_for(pilot, lambda: _read(app), "the execution shown read again")
        except AssertionError:
            pass  # the test says what differs
        await settle(pilot)
        await report(app, "back")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2]))
