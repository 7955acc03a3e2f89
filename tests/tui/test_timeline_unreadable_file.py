"""A file with no event to read (not UTF-8, empty) says so in the timeline one column in,
where the rows' text starts: at 80x24 on a broken directory it stood against the pane's
border (``││no events could be read from this file``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.app_support import make_app, screen_lines, settle


@pytest.mark.parametrize("content", [b"\xff\xfe\x00binary", b""])
async def test_no_events_is_said_off_the_border(records_dir: Path, content: bytes) -> None:
    (records_dir / "broken.json").write_bytes(content)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key("broken.json")
        await settle(pilot)
        said = [line for line in screen_lines(app) if "no events could be read" in line]
    assert len(said) == 1
    assert "│ no events could be read from this file" in said[0]
