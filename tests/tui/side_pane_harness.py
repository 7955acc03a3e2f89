"""A tiny app that mounts ``SidePane`` the way the debugger does, with deterministic data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.pilot import Pilot

from intentus_tui.core.detail import ExecutionDetail, detail_of
from intentus_tui.core.records.load import load_record_bytes
from intentus_tui.tui.presenters.execution_text import force_replay_lines
from intentus_tui.tui.screens.confirm import ConfirmScreen
from intentus_tui.tui.widgets.side_pane import SidePane
from tests.factories import make_record
from tests.tui.app_support import settle

HOSTILE = ["[b]x[/b]", "[/x]", "[$accent]", "\x1b[2J", "\x1b]0;t\x07", "\u202e"]


def detail_from(
    record: dict[str, Any], name: str | None = None, *, cut: int | None = None
) -> ExecutionDetail:
    """Analyse a record as if read from ``records/<id>.json`` (a fixed path: deterministic)."""
    data = json.dumps(record, ensure_ascii=False, indent=2).encode()
    if cut is not None:
        data = data[:cut]
    path = Path("records") / (name or f"{record['header']['executionId']}.json")
    return detail_of(load_record_bytes(path, data))


def good_record(execution_id: str = "exec-0001", **kwargs: Any) -> dict[str, Any]:
    kwargs.setdefault("agents", (("fb-primary", "error"), ("fb-secondary", "ok")))
    return make_record(execution_id=execution_id, documented=True, **kwargs)


def tampered_record(execution_id: str = "exec-0002") -> dict[str, Any]:
    """The envelope's payload changed after the hash was taken."""
    record = good_record(execution_id)
    record["envelope"]["payload"] = {"text": "hello", "amount": 1_000_000}
    return record


def salvaged_detail(execution_id: str = "exec-0003") -> ExecutionDetail:
    """A file cut short in the middle of its events (IntentusNet 1.3.0 on an error response)."""
    record = good_record(execution_id, final_status="error")
    data = json.dumps(record, indent=2)
    second_start = data.index('"AGENT_ATTEMPT_START"', data.index('"AGENT_ATTEMPT_START"') + 1)
    cut = data.index('"AGENT_ATTEMPT_END"', second_start)
    return detail_from(record, cut=cut)


async def finish_workers(pilot: Pilot[Any]) -> None:
    """Wait for every worker (replay, diff), then for the app to settle: the messages they
    posted handled, the tab they chose shown and focused (after a refresh: a key pressed
    sooner, under load, went to the tab before)."""
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)


async def refused_replay(pilot: Pilot[Any]) -> str:
    """``r`` on a record that is not replayable, the refusal shown: the Replay tab's text."""
    await pilot.press("r")
    await finish_workers(pilot)
    pane = pilot.app.query_one(SidePane).replay_pane
    assert pane.outcome is not None and pane.outcome.kind == "refused"
    return pane.text


async def forced_replay(pilot: Pilot[Any]) -> str:
    """``R``, then ``y`` in its dialog, and the replay done: the dialog's text."""
    await pilot.press("R")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ConfirmScreen)
    body = screen.body_text
    await pilot.press("y")
    await finish_workers(pilot)
    return body


class SidePaneApp(App[None]):
    """Mounts a SidePane and binds keys like the app shell: r replay, R force, n/N."""

    CSS = "SidePane { width: 1fr; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "replay", "Replay"),
        Binding("R", "force_replay", "Force replay"),
        Binding("n", "next", "Next difference"),
        Binding("N", "previous", "Previous difference"),
    ]

    def __init__(self, detail: ExecutionDetail | None = None, tab: str = "verify") -> None:
        super().__init__()
        self._initial = detail
        self._tab = tab
        self.confirmed: list[bool] = []

    @property
    def side(self) -> SidePane:
        return self.query_one(SidePane)

    def compose(self) -> ComposeResult:
        yield SidePane(id="side")

    def on_mount(self) -> None:
        self.side.detail = self._initial
        self.side.show_tab(self._tab)

    async def action_replay(self) -> None:
        await self.side.run_replay(force=False)

    def action_force_replay(self) -> None:
        detail = self.side.detail
        if detail is None:
            return

        async def answered(confirmed: bool | None) -> None:
            self.confirmed.append(bool(confirmed))
            if confirmed:
                await self.side.run_replay(force=True)

        self.push_screen(
            ConfirmScreen("Force a replay?", force_replay_lines(detail), "Force replay"), answered
        )

    def action_next(self) -> None:
        self.side.next_difference()

    def action_previous(self) -> None:
        self.side.previous_difference()
