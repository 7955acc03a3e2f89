"""Which columns of an event row fit: the summary keeps room at every width."""

from __future__ import annotations

import pytest

from intentus_tui.tui.presenters.event_columns import (
    MIN_NARROW_SUMMARY_WIDTH,
    TYPE_WIDTH,
    row_columns,
)
from intentus_tui.tui.presenters.time_cells import CLOCK_WIDTH, OFFSET_WIDTH


@pytest.mark.parametrize("width", [30, 40, 50, 62, 78, 100, 118, 160, 198])
@pytest.mark.parametrize("time_width", [0, OFFSET_WIDTH, CLOCK_WIDTH])
@pytest.mark.parametrize("bars", [False, True])
def test_the_summary_keeps_room(width: int, time_width: int, bars: bool) -> None:
    """The time column and the waterfall never squeeze the summary under its narrow
    minimum (nor under what it had without them, in a pane too narrow for that)."""
    columns = row_columns(width, 3, time_width, bars)
    without = width - row_columns(width, 3, 0, False).fixed
    assert width - columns.fixed >= min(MIN_NARROW_SUMMARY_WIDTH, without)
    assert columns.time <= time_width
    if columns.waterfall:
        assert bars


def test_what_goes_first_as_the_pane_narrows() -> None:
    wide = row_columns(198, 3, OFFSET_WIDTH, True)
    assert wide.agent and wide.status and wide.type == TYPE_WIDTH and wide.waterfall
    assert wide.time == OFFSET_WIDTH
    at_80 = row_columns(78, 3, OFFSET_WIDTH, True)  # 80 columns, the timeline maximised
    assert not at_80.agent and at_80.time == OFFSET_WIDTH and at_80.waterfall
    narrow = row_columns(40, 3, CLOCK_WIDTH, True)
    assert not narrow.waterfall and narrow.time in (0, 8)  # the clock shrinks, then goes
    assert row_columns(62, 3, 0, False).type == TYPE_WIDTH  # no time: the full type fits


def test_a_wide_pane_gives_long_agent_names_their_room() -> None:
    """``summarizer-clau…`` was cut even at 200 columns maximised."""
    assert row_columns(200, 3, 0, False, len("summarizer-claude")).agent == 17
    assert row_columns(200, 3, 0, False, 60).agent == 28  # up to a limit
    assert row_columns(200, 3, 0, False, 5).agent == 16  # never narrower than before
    assert row_columns(120, 3, 0, False, 60).agent == 16  # a narrower pane keeps 16
