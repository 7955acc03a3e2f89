"""The header's progress while a directory is opened: until the record files are counted
it says so, and it gives their number as soon as they are, never a guess.

A big directory's first rows are read before its files are counted (counting 100,000 of
them would delay those rows): the start frame said "indexing 36…", and the app kept
saying it until the scan's second batch (seconds on a loaded machine), though the scan
had counted the files before it read the first one.
"""

from __future__ import annotations

import json
from pathlib import Path

from intentus_tui.core.index.scan import PARALLEL_THRESHOLD
from intentus_tui.tui.presenters.header_text import location_parts
from intentus_tui.tui.startup.first_rows import first_look
from intentus_tui.tui.startup.start_frame import frame_lines
from tests.factories import make_record
from tests.tui.app_support import SIZE, created, fixed_id, make_app, wait_for_scan_and_side_pane

COLUMNS, LINES = SIZE


def write_records(directory: Path, count: int) -> None:
    """``count`` real records (one made, the others its text under their own ids: fast)."""
    directory.mkdir(parents=True, exist_ok=True)
    first = fixed_id(0)
    text = json.dumps(make_record(execution_id=first, created=created(0)), indent=2)
    for n in range(count):
        (directory / f"{fixed_id(n)}.json").write_text(text.replace(first, fixed_id(n)), "utf-8")


def top_line(directory: Path, preview: int) -> str:
    """The start frame's first line for ``directory``, as the command line draws it."""
    first = first_look(directory, preview)
    assert len(first.rows) == preview
    line = frame_lines(
        "records", first.rows, watch=True, columns=COLUMNS, lines=LINES, total=first.total
    )[0]
    return "".join(span.text for span in line)


def test_the_start_frame_says_the_files_are_being_counted_until_they_are(
    tmp_path: Path,
) -> None:
    big, small = tmp_path / "big", tmp_path / "small"
    write_records(big, PARALLEL_THRESHOLD + 10)  # too many to count before the first rows
    write_records(small, 50)
    assert "indexing 20 (counting files…)" in top_line(big, 20)
    assert "indexing 20/50 " in top_line(small, 20)  # all listed by the first look: counted


async def test_the_header_gives_the_total_from_the_scan_s_listing_on(tmp_path: Path) -> None:
    """Every header shown while the scan's rows come in gives the number of record files:
    the scan posts it once it has listed them, before it reads one. (The first rows read
    before it lists them, ``preview_summaries``, are shown "counting files…".)"""
    write_records(tmp_path, 150)
    app = make_app(tmp_path)
    shown: list[str] = []
    show = app._show_header

    def recording() -> None:
        show()
        state = app.header_state
        if state.scanning and state.scanned:
            shown.append("".join(text for text, _ in location_parts(state, None)))

    app._show_header = recording  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
    assert shown, "no header was shown while the rows came in"
    for header in shown:
        assert "/150 " in header, header
