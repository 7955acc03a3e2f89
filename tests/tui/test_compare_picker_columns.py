"""``D``'s lines keep their columns whatever the ids: a UUID (shown as its first 8
characters), the documented ``exec-a1b2c3d4`` form and a long id side by side, executions
and snapshots alike. The id column is as wide as the list's, a longer id is cut with ``…``,
and each line's time and verdict marks stay whole within an 80-column screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record
from intentus_tui.tui.screens.compare_picker import ComparePicker
from tests.factories import make_record, write_record
from tests.tui.app_support import created, fixed_id, screen_lines, settle
from tests.tui.test_app_diff_file import make_noting_app, select

LONG_ID = "exec-very-long-identifier-for-a-real-incident-0001"
TIME = re.compile(r"2026-01-05 \d\d:\d\d:\d\d")
MARKS = re.compile(r"2026-01-05 \d\d:\d\d:\d\d [✓✗◌?⚠] #. [↺✗] ")


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_long_ids_are_cut_and_the_columns_stay_aligned(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    records = tmp_path / ".intentusnet" / "records"
    ids = [fixed_id(1), "exec-a1b2c3d4", LONG_ID, fixed_id(4)]
    for n, execution_id in enumerate(ids, start=1):
        write_record(
            records, make_record(execution_id=execution_id, created=created(n), intent="Route")
        )
    long_record = make_record(execution_id=LONG_ID, created=created(3), intent="Route")
    save_snapshot(
        snapshot_from_record(long_record), records.parent / "snapshots" / "long.snapshot.json"
    )
    app = make_noting_app(records)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await select(app, pilot, fixed_id(4))
        await pilot.press("D")
        picker = app.screen
        assert isinstance(picker, ComparePicker)
        await settle(pilot)
        screen = screen_lines(app)
        lines = [text for text in screen if TIME.search(text)]
        kinds = [text.split()[1] for text in lines]  # after the dialog's border
        assert kinds.count("exec") == 3 and kinds.count("snapshot") == 1, screen
        # One column for the times, whatever the id before it.
        columns = {TIME.search(text).start() for text in lines}  # type: ignore[union-attr]
        assert len(columns) == 1, "\n".join(lines)
        # The long id cut with an ellipsis, in the snapshot's line and the execution's.
        cut = [text for text in lines if "exec-very-long" in text]
        assert len(cut) == 2 and all("exec-very-long-…" in text for text in cut), cut
        assert not any(LONG_ID in text for text in screen)
        # Each execution's time and verdict marks whole: the line fits the screen.
        executions = [text for text in lines if text.split()[1] == "exec"]
        assert all(MARKS.search(text) for text in executions), executions
        assert all(len(text) == size[0] for text in screen)
