"""The empty list's message wraps so that no line holds only punctuation: at 80x24 a
records path that filled the line left its final "." alone on the line under it."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.tui.presenters.message_wrap import wrap_message
from tests.tui.app_support import list_lines, make_app, settle

LINE = 32  # the message's width in the list at 80x24


async def test_an_empty_list_never_leaves_the_final_dot_alone(tmp_path: Path) -> None:
    base = tmp_path / "p"
    tail = "/.intentusnet/records"
    pad = -(len(str(base)) + len(tail)) % LINE  # the path fills its last line
    records = Path(f"{base}{'x' * pad}{tail}")
    records.mkdir(parents=True)
    app = make_app(records)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.execution_list.scrollable_content_region.width - 2 == LINE
        lines = [line.strip() for line in list_lines(app) if line.strip()]
        assert lines[0] == "No execution records (*.json) in", lines
        assert "records." in lines, lines
        assert all(line.strip(".") for line in lines), lines
        assert "".join(lines[1 : lines.index("records.") + 1]) == f"{records}."


def test_a_word_too_long_for_its_line_breaks_after_a_slash_and_leaves_no_dot_alone() -> None:
    assert wrap_message("in /tmp/abcdef/.intentusnet/records.", 32) == [
        "in",
        "/tmp/abcdef/.intentusnet/",
        "records.",
    ]
    # No slash to break after: its last character goes down with the dot.
    assert wrap_message("Cannot read: abcdefghijkl.", 12) == ["Cannot read:", "abcdefghijk", "l."]
    assert wrap_message("one\n\ntwo", 10) == ["one", "", "two"]
