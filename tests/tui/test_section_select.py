"""The diff pane's section picker survives Select's mount race (see section_select.py)."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Static
from textual.widgets._select import SelectCurrent

from intentus_tui.tui.widgets.section_select import SectionSelect

SECTIONS = [("Compare", "compare"), ("Envelope", "envelope")]


class _Picker(App[None]):
    def compose(self) -> ComposeResult:
        yield SectionSelect(SECTIONS, value="envelope", allow_blank=False, id="pick")


def _label(app: App[None]) -> str:
    return str(app.query_one("#pick SelectCurrent #label", Static).render())


async def test_a_label_not_composed_yet_at_mount_is_set_once_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_update = SelectCurrent.update
    calls = 0

    def update_racing_compose(self: SelectCurrent, label: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:  # as in the race: the label child is not there yet
            raise NoMatches("No nodes match '#label'")
        real_update(self, label)  # type: ignore[arg-type]

    monkeypatch.setattr(SelectCurrent, "update", update_racing_compose)
    app = _Picker()
    async with app.run_test() as pilot:  # a plain Select would end the app here
        await pilot.pause()
        assert calls >= 2
        assert app.query_one(SectionSelect).value == "envelope"
        assert _label(app) == "Envelope"


async def test_without_the_race_it_is_a_plain_select() -> None:
    app = _Picker()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert _label(app) == "Envelope"
        picker = app.query_one(SectionSelect)
        picker.value = "compare"
        await pilot.pause()
        assert _label(app) == "Compare"
