"""Snapshot tests of the full-screen comparison at 80x24, 120x36 and 200x50 (sync tests:
snap_compare runs its own event loop). Deterministic records (fixed ids and times), no
watchers, no clocks; each opens on the first difference. Each side's title carries its
verdict; an untrusted side adds a warning under the titles."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.compare_harness import pair_app, tampered_pair_app
from tests.tui.side_pane_harness import finish_workers


async def _opened(pilot: Pilot[Any]) -> None:
    await finish_workers(pilot)


@pytest.mark.parametrize(
    "size", [(80, 24), (120, 36), (200, 50)], ids=["80x24", "120x36", "200x50"]
)
def test_snapshot_comparison(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(pair_app(), terminal_size=size, run_before=_opened)


def test_snapshot_comparison_ignore_rules_off(snap_compare: Any) -> None:
    async def rules_off(pilot: Pilot[Any]) -> None:
        await finish_workers(pilot)
        await pilot.press("i")
        await pilot.pause()

    assert snap_compare(pair_app(), terminal_size=(120, 36), run_before=rules_off)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_snapshot_comparison_with_an_untrusted_side(
    snap_compare: Any, size: tuple[int, int]
) -> None:
    assert snap_compare(tampered_pair_app(), terminal_size=size, run_before=_opened)
