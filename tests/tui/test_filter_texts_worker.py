"""A big list's searched texts, made by a thread worker as the filter box opens: a query
typed before they are made shows at once in the box, "filtering…" in the list's subtitle,
and filters the rows once they are in, exactly as a query typed later would."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from intentus_tui.tui.presenters.list_model import ListModel
from intentus_tui.tui.widgets import execution_list
from tests.tui.app_support import SIZE, list_lines, make_app, screen_text, settle
from tests.tui.test_list_sort_worker import until


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Every list's searched texts are made by a worker, which waits for the gate."""
    monkeypatch.setattr(execution_list, "SORT_IN_WORKER_AT", 0)
    opened = threading.Event()
    make = ListModel.make_haystacks

    def gated(model: ListModel, *args: object) -> list[str]:
        assert opened.wait(10), "the gate was never opened"
        return make(model, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ListModel, "make_haystacks", gated)
    yield opened
    opened.set()


async def test_a_query_typed_before_the_texts_are_made_filters_once_they_are(
    records_dir: Path, world: dict[str, str], gate: threading.Event
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        rows_before = list(listing.model.rows)
        await pilot.press("slash", "r", "e", "f")  # at once: the texts are not made yet
        await pilot.pause()
        assert app.query_one("#filter").value == "ref"  # the letters are answered at once
        assert "filtering…" in str(listing.border_subtitle)
        assert "filtering…" in screen_text(app)  # on screen, however narrow the list
        assert listing.model.rows == rows_before and listing.waiting_query == "ref"
        gate.set()
        await until(lambda: listing.waiting_query is None)
        await settle(pilot)
        assert "filtering…" not in str(listing.border_subtitle)
        shown = [line for line in list_lines(app) if world["incomplete"][:8] in line]
        assert len(shown) == 1 and len(listing.model.summaries) > 1
        assert listing.model.query == "ref"
        assert len(listing.model.rows) < len(rows_before)  # the other executions are gone
        await pilot.press("escape")  # cleared: every row back
        await settle(pilot)
        assert listing.model.rows == rows_before


async def test_a_query_cleared_before_the_texts_are_made_leaves_every_row(
    records_dir: Path, world: dict[str, str], gate: threading.Event
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        rows_before = list(listing.model.rows)
        await pilot.press("slash", "r", "escape")
        await pilot.pause()
        assert listing.waiting_query is None and "filtering…" not in str(listing.border_subtitle)
        gate.set()
        await settle(pilot)
        assert listing.model.rows == rows_before and listing.model.query == ""


async def test_the_worker_stops_stepping_aside_for_keys_once_a_query_waits_for_it(
    records_dir: Path, world: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While keys are pressed the texts' worker steps aside (``yield_to_keys``), but once a
    typed query waits for its texts, the keys being pressed are that query's: it goes on."""
    monkeypatch.setattr(execution_list, "SORT_IN_WORKER_AT", 0)
    pauses: list[object] = []
    opened = threading.Event()
    make = ListModel.make_haystacks

    def gated(model: ListModel, missing: list[object], pause: object = None) -> list[str]:
        pauses.append(pause)
        assert opened.wait(10), "the gate was never opened"
        return make(model, missing, pause)  # type: ignore[arg-type]

    monkeypatch.setattr(ListModel, "make_haystacks", gated)
    app = make_app(records_dir)
    stepped_aside: list[bool] = []
    app.yield_to_keys = lambda: stepped_aside.append(True)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await until(lambda: bool(pauses))
        pause = pauses[0]
        assert callable(pause)
        pause()
        assert stepped_aside == [True]  # no query yet: it steps aside for the keys
        await pilot.press("r", "e", "f")
        await pilot.pause()
        assert app.execution_list.waiting_query == "ref"
        pause()
        assert stepped_aside == [True]  # the query waits for it: no stepping aside
        opened.set()
        await until(lambda: app.execution_list.waiting_query is None)
        await settle(pilot)
