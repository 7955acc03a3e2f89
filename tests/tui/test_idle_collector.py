"""Full garbage-collector passes wait for the keys and the mouse to rest."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from intentus_tui.tui.idle_collector import (
    CHECK_SECONDS,
    IDLE_SECONDS,
    NEVER,
    OVERDUE_SECONDS,
    PENDING_PASSES,
    SPACING,
    IdleCollector,
)
from tests.tui.app_support import make_app, settle, write_world


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)
    gc.enable()


def make_full_pass_pending() -> None:
    """As many middle-generation passes as make Python want a full one."""
    while gc.get_count()[2] < PENDING_PASSES:
        gc.collect(1)


def test_python_no_longer_runs_full_passes_by_itself(thresholds: tuple[int, int, int]) -> None:
    collector = IdleCollector()
    collector.take_over()
    young, middle, _ = thresholds
    assert gc.get_threshold() == (young, middle, NEVER)
    collector.give_back()
    assert gc.get_threshold() == thresholds


def test_no_full_pass_while_keys_are_pressed(thresholds: tuple[int, int, int]) -> None:
    clock = Clock()
    collector = IdleCollector(clock)
    collector.take_over()
    make_full_pass_pending()
    for _ in range(10):  # a key every 0.2 s
        clock.now += 0.2
        collector.input_seen()
        clock.now += 0.1
        assert not collector.tick()
    assert collector.passes == 0 and gc.get_count()[2] >= PENDING_PASSES


def test_a_full_pass_once_the_keys_rest(thresholds: tuple[int, int, int]) -> None:
    clock = Clock()
    collector = IdleCollector(clock)
    collector.take_over()
    make_full_pass_pending()
    collector.input_seen()
    clock.now += IDLE_SECONDS / 2
    assert not collector.tick()
    clock.now += IDLE_SECONDS
    cycle: list[object] = []
    cycle.append(cycle)  # garbage only a collection frees
    del cycle
    assert collector.tick() and collector.passes == 1
    assert gc.get_count()[2] == 0  # a full pass ran: nothing pending
    clock.now += IDLE_SECONDS
    assert not collector.tick()  # nothing is pending now: no pass for nothing


def test_an_overdue_full_pass_runs_even_under_a_held_key(
    thresholds: tuple[int, int, int],
) -> None:
    clock = Clock()
    collector = IdleCollector(clock)
    collector.take_over()
    make_full_pass_pending()
    while clock.now < 1000.0 + OVERDUE_SECONDS - 0.1:
        clock.now += 0.05
        collector.input_seen()
        assert not collector.tick()
    clock.now += 0.2
    collector.input_seen()
    assert collector.tick()


def test_no_pass_while_the_collector_is_off(thresholds: tuple[int, int, int]) -> None:
    clock = Clock()
    collector = IdleCollector(clock)
    collector.take_over()
    make_full_pass_pending()
    clock.now += OVERDUE_SECONDS * 2
    gc.disable()  # as the index does while it scans
    try:
        assert not collector.tick()
    finally:
        gc.enable()
    assert collector.tick()


async def test_the_debugger_keeps_full_passes_for_idle_moments(
    records_dir: Path, thresholds: tuple[int, int, int]
) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert gc.get_threshold()[2] == NEVER
        collector = app.idle_collector
        assert collector is not None
        await pilot.press("j")  # a key...
        before = collector.passes
        make_full_pass_pending()
        assert not collector.due()  # ... the full pass waits
        await pilot.pause(IDLE_SECONDS + 3 * CHECK_SECONDS)
        assert collector.passes == before + 1 and gc.get_count()[2] < PENDING_PASSES
    assert gc.get_threshold() == thresholds  # Python's own again once the app is gone


def test_a_long_pass_keeps_the_next_one_away_for_twenty_times_as_long(
    thresholds: tuple[int, int, int],
) -> None:
    """At 1,000,000 rows a full pass takes about a second: without spacing, an idle app
    filling its list ran one at every check."""
    clock = Clock()

    def slow_pass() -> None:
        gc.collect()
        clock.now += 1.0  # as long as a pass over a million rows

    collector = IdleCollector(clock, collect=slow_pass)
    collector.take_over()
    make_full_pass_pending()
    clock.now += IDLE_SECONDS
    assert collector.tick() and collector.passes == 1
    while clock.now < collector._last_pass + SPACING * 1.0 - CHECK_SECONDS:
        make_full_pass_pending()
        clock.now += CHECK_SECONDS
        assert not collector.tick(), "a pass came before twenty times the last one's length"
    make_full_pass_pending()
    clock.now += CHECK_SECONDS * 2
    assert collector.tick() and collector.passes == 2


def test_a_held_collector_runs_no_idle_pass_until_released(
    thresholds: tuple[int, int, int],
) -> None:
    """A screen with many short-lived objects (the compare picker) holds the idle passes:
    the key that closes it must not wait for a pass walking them."""
    clock = Clock()
    collector = IdleCollector(clock)
    collector.take_over()
    make_full_pass_pending()
    collector.hold()
    clock.now += IDLE_SECONDS * 5
    assert not collector.due() and not collector.tick()
    collector.release()
    assert collector.tick() and collector.passes == 1


def test_an_overdue_pass_runs_even_while_held(thresholds: tuple[int, int, int]) -> None:
    clock = Clock()
    collector = IdleCollector(clock)
    collector.take_over()
    make_full_pass_pending()
    collector.hold()
    clock.now += OVERDUE_SECONDS + 1
    assert collector.tick()
    collector.release()
    collector.release()  # one release too many changes nothing
    make_full_pass_pending()
    collector.hold()
    clock.now += IDLE_SECONDS
    assert not collector.due()  # held again: one hold is one hold
    collector.release()
    assert collector.due()
