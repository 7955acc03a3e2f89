"""The compare picker screen on its own: literal lines, highlighted matches, 100,000
executions, and how it looks at 80x24 and 120x36 (sync snapshot tests: snap_compare runs
its own event loop).

Deterministic data: fixed ids, times and file names, candidates handed to the screen
directly (no disk, no clock).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from intentus_tui.core.compare.targets import CompareTarget
from intentus_tui.tui.presenters import compare_candidates
from intentus_tui.tui.presenters.compare_candidates import (
    Candidate,
    CandidateIndex,
    ExecutionLines,
    build_candidates,
)
from intentus_tui.tui.presenters.list_model import ListModel
from intentus_tui.tui.screens.compare_picker import ComparePicker, candidate_prompt, unusable_path
from tests.cli.support import cli
from tests.tui.test_compare_candidates import _many
from tests.tui.test_list_model import summary

SAVED = CompareTarget(
    "snapshot",
    Path("/p/.intentusnet/snapshots/00000002-0000-4000-8000-000000000002-5f1c2a9e.json"),
    "Translate@1.0 · route",
    execution_id="00000002-0000-4000-8000-000000000002",
    when="2026-01-05T10:00:02Z",
)
FILES = [
    SAVED,
    CompareTarget(
        "snapshot",
        Path("/p/.intentusnet/snapshots/known-good.json"),
        "Summarize@1.0 · route",
        execution_id="00000001-0000-4000-8000-000000000001",
        when="2026-01-05T10:00:01Z",
    ),
    CompareTarget(
        "baseline",
        Path("/p/.verist/baselines/verify-doc/1.0.0/extract/doc-a-00c1ce3d.json"),
        "verify-doc@1.0.0 · extract",
        when="2023-11-14T22:13:20Z",
        note="golden",
    ),
    CompareTarget(
        "record",
        Path("/p/incident.json"),
        "Refund",
        execution_id="00000009-0000-4000-8000-000000000009",
        when="2026-01-05T09:59:00Z",
    ),
]


def small_index() -> CandidateIndex:
    summaries = [
        replace(summary(1), intent="Summarize"),
        replace(summary(2, "failed"), intent="Translate", key="00002.json"),
        replace(summary(3, "tampered"), intent="Refund", key="00003.json"),
        replace(summary(4, "incomplete", replayable=False), intent="Classify", key="00004.json"),
    ]
    model = ListModel()
    model.replace_all(summaries)
    executions = ExecutionLines().candidates(summaries, model.kind)
    return CandidateIndex(build_candidates(FILES, [SAVED.path], executions))


class PickerApp(App[None]):
    """A bare app that opens the picker over a line of text, as ``D`` does."""

    def __init__(
        self, index: CandidateIndex, executions: Callable[[], list[Candidate]] | None = None
    ) -> None:
        super().__init__()
        self.index = index
        self.executions = executions
        self.chosen: list[Candidate | None] = []

    def compose(self) -> ComposeResult:
        yield Static("the debugger would be here")

    def on_mount(self) -> None:
        if self.executions is None:
            picker = ComparePicker("Compare 00000007 with…", lambda: self.index.candidates)
        else:
            files = [c for c in self.index.candidates if c.kind != "execution"]
            picker = ComparePicker("Compare 00000007 with…", lambda: files, self.executions)
        self.push_screen(picker, self.chosen.append)


async def ready(pilot: Any) -> ComparePicker:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    picker = pilot.app.screen
    assert isinstance(picker, ComparePicker) and picker.index is not None and picker.complete
    return picker


async def test_lines_are_literal_and_matches_are_highlighted() -> None:
    hostile = replace(FILES[3], title="[b]Refund[/b] [$accent]x [/x]")
    index = CandidateIndex(build_candidates([hostile], [], []))
    app = PickerApp(index)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await ready(pilot)
        line = str(picker.options.get_option_at_index(1).prompt)
        assert "[b]Refund[/b] [$accent]x [/x]" in line  # shown as written, never markup
        await pilot.press(*"rfnd")
        await pilot.pause()
        prompt = picker.options.get_option_at_index(0).prompt
        candidate = picker.shown[0]
        assert candidate is not None
        hit = index.search("rfnd")[0][0]
        assert prompt == candidate_prompt(candidate, hit.offsets)
        marked = [
            candidate.line[span.start : span.end]
            for span in prompt.spans  # type: ignore[union-attr]
            if "underline" in str(span.style)
        ]
        assert "".join(marked).lower() == "rfnd"
        await pilot.press("enter")
        assert app.chosen == [candidate]


async def test_files_are_listed_before_the_executions_are_read() -> None:
    index = small_index()
    executions = [c for c in index.candidates if c.kind == "execution"]
    release = threading.Event()

    def slow_executions() -> list[Candidate]:
        release.wait(10)
        return executions

    app = PickerApp(index, slow_executions)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = app.screen
        assert isinstance(picker, ComparePicker)
        while picker.index is None:
            await pilot.pause(0.01)
        assert not picker.complete
        status = str(picker.query_one("#picker-status").render())
        assert status.endswith("1 record file · reading the executions…")
        assert [c.kind for c in picker.shown if c] == ["saved", "snapshot", "baseline", "record"]
        await pilot.press("down", "down")  # to the baseline, while the executions load
        chosen = picker.highlighted
        assert chosen is not None and chosen.kind == "baseline"
        release.set()
        await ready(pilot)
        assert [c.kind for c in picker.shown if c][-4:] == ["execution"] * 4
        assert picker.highlighted == chosen  # the arrival did not move the choice


async def test_the_worker_steps_aside_for_keys_and_every_candidate_is_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(compare_candidates, "PAUSE_EVERY", 2)
    index = small_index()
    files = [c for c in index.candidates if c.kind != "execution"]
    executions = [c for c in index.candidates if c.kind == "execution"]
    paused_in: list[threading.Thread] = []

    class PausingPickerApp(PickerApp):
        def on_mount(self) -> None:
            picker = ComparePicker(
                "Compare 00000007 with…",
                lambda: files,
                lambda: executions,
                lambda: paused_in.append(threading.current_thread()),
            )
            self.push_screen(picker, self.chosen.append)

    app = PausingPickerApp(index)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await ready(pilot)
        assert paused_in and threading.main_thread() not in paused_in  # the worker's pauses
        assert picker.index is not None and picker.index.candidates == index.candidates
        assert [c.kind for c in picker.shown if c] == [c.kind for c in index.candidates]
        status = str(picker.query_one("#picker-status").render())
        assert status.startswith("1 just saved · 1 snapshot · 1 baseline · 1 record file")
        assert status.endswith("4 executions")


async def test_closing_the_picker_lets_go_of_its_candidates() -> None:
    app = PickerApp(small_index())
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await ready(pilot)
        assert picker.index is not None
        index = weakref.ref(picker.index)
        await pilot.press("escape")
        await pilot.pause()
        assert app.chosen == [None]
        # Gone at once, without waiting for a garbage collection: at 100,000 executions
        # they were walked by each one for as long as the screen object lingered.
        assert index() is None


async def test_100000_executions_never_make_more_than_200_options() -> None:
    summaries = _many(100_000)
    model = ListModel()
    model.replace_all(summaries)
    index = CandidateIndex(
        build_candidates(FILES, [], ExecutionLines().candidates(summaries, model.kind))
    )
    app = PickerApp(index)
    async with app.run_test(size=(120, 36)) as pilot:
        picker = await ready(pilot)
        assert picker.options.option_count <= 200 + 5  # never 100,000 options
        # Each key rebuilds at most 200 options, whatever matches: what keeps a key fast
        # (timed by bench/bench_picker.py, not here).
        for text in ("s", "su", "sum", "sum0", "sum00", "zzzq", ""):
            picker.input.value = text  # what a key does: filter and rebuild the list
            picker.refresh_list()
            assert picker.options.option_count <= 205
        status = str(picker.query_one("#picker-status").render())
        assert "100,000 executions" in status and "the first 200 shown" in status


def test_snapshot_picker_80x24(snap_compare: Any) -> None:
    async def settle(pilot: Any) -> None:
        await ready(pilot)

    assert snap_compare(PickerApp(small_index()), terminal_size=(80, 24), run_before=settle)


def test_snapshot_picker_filtered_120x36(snap_compare: Any) -> None:
    async def type_query(pilot: Any) -> None:
        await ready(pilot)
        await pilot.press(*"trans", "down")
        await pilot.pause()

    assert snap_compare(PickerApp(small_index()), terminal_size=(120, 36), run_before=type_query)


def test_a_typed_path_that_names_no_file_says_what_it_is(tmp_path: Path) -> None:
    """A FIFO or a device was "no file at this path" while it was there; then "… is not a
    regular file (a FIFO, a device, a socket): nothing to compare", where ``intentus-tui
    diff`` and ``inspect`` say "Named like a record but is a FIFO (named pipe)"."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    said = unusable_path(str(fifo))
    assert said == f"{fifo}: Named like a record but is a FIFO (named pipe)"
    assert cli("diff", str(fifo), str(fifo)).stderr == f"intentus-tui: {said}\n"
    # As ``intentus-tui diff ID PATH`` says it (the picker said "a directory: name a file in
    # it", "no file at this path" of a missing file and of a link leading nowhere).
    assert unusable_path(f"{tmp_path}/") == (
        f"{tmp_path} is a directory: name a record file, a record id or a snapshot file"
    )
    assert unusable_path(str(tmp_path / "nothing.json")) == (
        f"no such file: {tmp_path / 'nothing.json'}"
    )
    (tmp_path / "dangling.json").symlink_to(tmp_path / "gone")
    assert unusable_path(str(tmp_path / "dangling.json")) == (
        f"cannot follow {tmp_path / 'dangling.json'}: the link leads nowhere (its target does not exist)"
    )
