"""The debugger opened on the hostile corpus: every file listed once, every row walked.

For each row of the list the walk switches through the side-pane tabs, steps the timeline
and asks for a replay. Nothing may escape: no exception ends the app, no worker dies, no
notification carries a traceback, and the screen never holds a raw control character.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.worker import Worker, WorkerState

from intentus_tui.core.paths import resolve_root
from intentus_tui.tui import app as app_module
from intentus_tui.tui.app import IntentusApp
from tests.hostile.corpus import FORBIDDEN_RAW, Corpus, build_corpus
from tests.tui.app_support import SIZE, screen_text, settle


class RecordingApp(IntentusApp):
    """The real app, keeping every notification and every worker that died."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))  # relative to the app's module

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The walk asks what survives, not how it moves: a tab's underline and a scroll jump
        # to where they end (half the walk's time was spent waiting for them to glide).
        self.animation_level = "none"
        self.notes: list[tuple[str, str]] = []
        self.dead_workers: list[str] = []

    def notify(self, message: str, *args: Any, **kwargs: Any) -> None:
        self.notes.append((str(kwargs.get("severity", "information")), str(message)))
        super().notify(message, *args, **kwargs)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            error = event.worker.error
            self.dead_workers.append(f"{event.worker.name}: {type(error).__name__}: {error}")
        # No super() call: Textual dispatches the base class's handler too (along the MRO).


def listed_on_disk(corpus: Corpus) -> set[str]:
    """What the list must show: every ``*.json`` entry of records/ (directories, FIFOs and
    dangling links included: they are listed as classified failures) and every WAL with no
    record of the same name."""
    records = {name for name in os.listdir(corpus.records_dir) if name.endswith(".json")}
    wal_only = {
        name
        for name in os.listdir(corpus.wal_dir)
        if name.endswith(".wal") and f"{name.removesuffix('.wal')}.json" not in records
    }
    return records | wal_only


def assert_alive(app: RecordingApp, where: str) -> None:
    assert app.is_running, f"the app stopped at {where}"
    assert app._exception is None, f"{where}: {app._exception!r}"
    assert not app.dead_workers, f"{where}: {app.dead_workers}"
    tracebacks = [text for _, text in app.notes if "Traceback" in text]
    assert not tracebacks, f"{where}: {tracebacks}"


def assert_inert(text: str, where: str) -> None:
    raw = sorted({f"U+{ord(c):04X}" for c in text if c in FORBIDDEN_RAW})
    assert not raw, f"{where}: raw control characters {raw}"


async def walk_row(pilot: Pilot[Any], app: RecordingApp, key: str) -> None:
    """Every tab, a few timeline steps there and back, then a replay (it may refuse)."""
    for tab in "1234":
        await pilot.press(tab)
        await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    assert app.timeline.lines.has_focus, f"{key!r}: enter did not open the timeline"
    for step in ("j", "G", "g", "f", "e"):
        await pilot.press(step)
        await settle(pilot)
    await pilot.press("escape")
    await settle(pilot)
    assert app.execution_list.has_focus, f"{key!r}: escape did not return to the list"
    await pilot.press("1")
    await pilot.press("r")
    await settle(pilot)
    if app.detail is not None and app.detail.result.record is not None:
        assert app.side_pane.active_tab == "replay", f"{key!r}: r did not start a replay"


# The full walk (every tab, timeline steps, replay) costs ~5 s a row under Pilot; every row
# gets the cheap visit, these get the full one: one of each kind of trouble.
FULL_WALK = (
    "cut-1.json",  # salvaged from a truncated file
    "binary.json",  # not JSON at all
    "fifo.json",  # a FIFO: opening it must not block
    "[b]bold[∕b]-0.json",  # markup injection in every field
    "walonly-10.wal",  # WAL-only execution with C1 controls in every field
)


async def test_every_hostile_file_is_listed_once_and_every_row_survives_a_walk(
    tmp_path: Path,
) -> None:
    corpus = build_corpus(tmp_path)
    expected = listed_on_disk(corpus)
    # The corpus's own bookkeeping agrees with the directory (no file slipped out of it).
    wal_only = {n for n in corpus.wals if f"{n.removesuffix('.wal')}.json" not in corpus.records}
    assert expected == set(corpus.records) | wal_only
    assert set(FULL_WALK) <= expected
    app = RecordingApp(
        resolve_root(corpus.intentusnet), watch=False, directory_label="hostile", use_cache=False
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, timeout=30)
        assert app.scan_done
        model = app.execution_list.model
        assert set(model.summaries) == expected
        listed = [key for row in range(len(model)) if (key := model.key_at(row)) is not None]
        assert sorted(listed) == sorted(expected), "each execution exactly once in the rows"

        # Every row, from the top with j: its detail loads and the screen stays clean.
        await pilot.press("g")
        await settle(pilot)
        visited: list[str] = []
        while True:
            key = app.execution_list.selected_key
            assert key is not None
            if visited and key == visited[-1]:
                break  # "j" on the last row stays put
            visited.append(key)
            assert app.detail_key == key, f"{key!r}: its detail never loaded"
            assert app.detail is not None
            assert_alive(app, repr(key))
            assert_inert(screen_text(app), repr(key))
            await pilot.press("j")
            await settle(pilot)
        assert visited == listed, "j visits every row once, in list order"

        for key in FULL_WALK:
            assert app.execution_list.select_key(key)
            await settle(pilot)
            assert app.detail_key == key, f"{key!r}: its detail never loaded"
            await walk_row(pilot, app, key)
            assert_alive(app, repr(key))
            assert_inert(screen_text(app), repr(key))

        svg = app.export_screenshot()
        ET.fromstring(svg)  # well-formed XML, whatever the records held
        assert_inert(svg, "the screenshot")
        assert_alive(app, "the end")
