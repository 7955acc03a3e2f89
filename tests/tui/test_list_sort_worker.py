"""A big list's sort, made by a thread worker: the key is answered at once ("sorting…",
the rows as they were), then the rows are exactly those of a sort made at once, through
live changes and repeated keys."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from intentus_tui.tui.presenters.list_model import ListModel
from intentus_tui.tui.presenters.list_order import SORTS, Sort, SortJob, SortResult
from intentus_tui.tui.widgets import execution_list
from tests.tui.app_support import SIZE, WIDE, make_app, settle


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Every list is sorted by a worker, and each worker waits for the gate to open."""
    monkeypatch.setattr(execution_list, "SORT_IN_WORKER_AT", 0)
    opened = threading.Event()
    run = SortJob.run

    def gated(job: SortJob) -> SortResult:
        assert opened.wait(10), "the gate was never opened"
        return run(job)

    monkeypatch.setattr(SortJob, "run", gated)
    yield opened
    opened.set()


def sorted_at_once(model: ListModel, sort: Sort) -> ListModel:
    fresh = ListModel()
    fresh.view = model.view
    fresh.replace_all(model.summaries.values())
    fresh.set_sort(sort)
    return fresh


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def test_the_key_is_answered_then_the_rows_are_those_of_a_sort_at_once(
    records_dir: Path, world: dict[str, str], gate: threading.Event
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        selected = listing.selected_key
        for sort in (*SORTS[1:], SORTS[0]):
            gate.clear()
            rows_before = list(listing.model.rows)
            await pilot.press("o")
            await pilot.pause()
            assert f"sorting: {sort.label}…" in str(listing.border_subtitle)
            assert listing.model.rows == rows_before  # nothing moves until the order is in
            gate.set()
            await settle(pilot)
            assert f"sort: {sort.label}" in str(listing.border_subtitle)
            assert listing.model.sort is sort and listing.sorting is None
            assert listing.model.rows == sorted_at_once(listing.model, sort).rows
            assert listing.selected_key == selected


async def test_a_change_while_sorting_is_in_the_sorted_rows(
    records_dir: Path, world: dict[str, str], gate: threading.Event
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("o")  # oldest first, in a worker held at the gate
        await until(lambda: any(w.group == "sort" for w in app.workers))
        some = next(iter(listing.model.summaries.values()))
        arrived = replace(some, key="zz-arrived.json", execution_id="zz-arrived", intent="A")
        listing.apply_changes([arrived], [], live=True)
        gate.set()  # the worker's rows lack it: made again
        await settle(pilot)
        assert listing.model.sort.name == "oldest" and listing.sorting is None
        assert listing.model.row_of("zz-arrived.json") is not None
        assert listing.model.rows == sorted_at_once(listing.model, SORTS[1]).rows


async def test_keys_pressed_while_sorting_go_on_from_the_sort_asked_for(
    records_dir: Path, world: dict[str, str], gate: threading.Event
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("o", "o")
        await pilot.pause()
        assert "sorting: intent…" in str(listing.border_subtitle)
        gate.set()
        await settle(pilot)
        assert listing.model.sort.name == "intent"  # not oldest first, the worker before
        assert listing.model.rows == sorted_at_once(listing.model, SORTS[2]).rows


async def test_a_failed_worker_sort_is_made_on_the_apps_thread(
    records_dir: Path, world: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execution_list, "SORT_IN_WORKER_AT", 0)
    run = SortJob.run
    in_thread = {"calls": 0}

    def failing(job: SortJob) -> SortResult:
        if threading.current_thread() is not threading.main_thread():
            in_thread["calls"] += 1
            raise MemoryError("no room to sort")
        return run(job)

    monkeypatch.setattr(SortJob, "run", failing)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("o")
        await settle(pilot)
        assert in_thread["calls"] == 1
        assert listing.sorting is None and "sort: oldest first" in str(listing.border_subtitle)
        assert listing.model.rows == sorted_at_once(listing.model, SORTS[1]).rows
