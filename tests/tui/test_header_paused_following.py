"""The header while paused and following (``p`` then ``T``, or ``T`` then ``p``): the
changes waiting belong to the pause. They came after the follow mark, ``❚❚ paused  ⇣ follow
(27 changes waiting)``, which reads as if following had changes waiting."""

from __future__ import annotations

import pytest

from intentus_tui.tui.presenters.header_text import HeaderState, location_parts

RECORDS = "/srv/app/.intentusnet/records"


@pytest.mark.parametrize("width", [80, 120, 200])
def test_changes_waiting_stand_beside_paused_not_after_follow(width: int) -> None:
    state = HeaderState(
        directory=RECORDS, live="paused", pending=27, following=True, scanning=False
    )
    line = "".join(text for text, _ in location_parts(state, width))
    assert "❚❚ paused (27 changes waiting)  ⇣ follow" in line, line
    assert line.endswith("⇣ follow"), line
