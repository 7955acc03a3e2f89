"""At 80x24 the timeline's one-line verdict of two unreadable files (the same verdict:
outcome unknown, unverifiable, not replayable for a corrupted record) reads the same,
abbreviated as the list's columns are rather than wrapped when the pane had a row to spare."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import make_record, write_record
from tests.tui.app_support import make_app, screen_lines, screen_text, settle


async def test_a_binary_and_a_truncated_file_read_the_same_verdict(tmp_path: Path) -> None:
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    (records / "binary.json").write_bytes(bytes(range(256)) * 4)
    cut = write_record(records, make_record(execution_id="cut"))
    cut.write_bytes(cut.read_bytes()[:300])
    app = make_app(tmp_path)
    shown: dict[str, list[str]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in ("binary.json", "cut.json"):
            assert app.execution_list.select_key(key)
            await settle(pilot)
            shown[key] = [line.split("││", 1)[-1] for line in screen_lines(app)[3:8]]
    for key, lines in shown.items():
        verdict = [line for line in lines if "? unknown" in line]
        assert len(verdict) == 1, (key, lines)
        assert "? unknown · unverif. · ✗ corrupt" in verdict[0], (key, lines)
        assert not any("(record_corrupted)" in line for line in lines), (key, lines)


async def test_a_file_with_no_record_says_what_it_is_under_its_verdict(tmp_path: Path) -> None:
    """At 80x24 the timeline of a binary file or a link leading nowhere kept a blank row
    between its one-line verdict and its events; it says what the file is there, as its
    list row does."""
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    (records / "binary.json").write_bytes(b"\x00\xff\xfe\x00binary")
    (records / "dangling.json").symlink_to(records / "nowhere.json")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key, said in (
            ("binary.json", "Not UTF-8 text: invalid UTF-8 at byte 1"),
            ("dangling.json", "Cannot read: the link leads nowhere"),
        ):
            assert app.execution_list.select_key(key)
            await settle(pilot)
            lines = [line.split("││", 1)[-1].rstrip("│ ") for line in screen_lines(app)[3:7]]
            assert "? unknown" in lines[1], (key, lines)
            assert lines[2].strip().startswith(said), (key, lines)


@pytest.mark.parametrize("size", [(120, 36), (200, 50)])
async def test_a_file_with_no_record_is_drawn_whole_where_the_pane_has_room(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Where the pane has room for more than the short summary, a file with no record has
    no chain: drawing a cut file's timeline raised IndexError (the short form's file line
    was taken for a chain line the whole form does not have), and the debugger stopped."""
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    (records / "binary.json").write_bytes(b"\x00\xff\xfe\x00binary")
    (records / "dangling.json").symlink_to(records / "nowhere.json")
    (records / "cut-1.json").write_bytes(b'{"header": {"executionId": "cut-1"')
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for key, said in (
            ("cut-1.json", "truncated"),
            ("binary.json", "Not UTF-8 text: invalid UTF-8 at byte 1"),
            ("dangling.json", "Cannot read: the link leads nowhere"),
        ):
            assert app.execution_list.select_key(key)
            await settle(pilot)
            assert said in screen_text(app), key
