"""``D``'s count of the executions it cannot offer says what they are in the words their
lines say it with: a binary file's line says "Not UTF-8 text: …", an empty one's "File is
empty", and the count said "(2 with no record)" of them."""

from __future__ import annotations

import os
from pathlib import Path

from intentus_tui.core.paths import resolve_root
from tests.factories import make_record, write_record
from tests.tui.app_support import settle
from tests.tui.test_app_diff_file import NotingApp, open_picker, select, shown_lines


async def test_files_with_nothing_to_compare_are_counted_as_their_lines_say(
    tmp_path: Path,
) -> None:
    records = tmp_path / "records"
    record = make_record()
    write_record(records, record)
    (records / "binary.json").write_bytes(b"\x00\xff\xfe\x00binary")
    (records / "empty.json").write_bytes(b"")
    app = NotingApp(resolve_root(records), watch=False, directory_label="x", use_cache=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await select(app, pilot, record["header"]["executionId"])
        picker = await open_picker(app, pilot)
        lines = shown_lines(picker)
        assert any("Not UTF-8 text: " in line for line in lines)
        assert any("File is empty" in line for line in lines)
        status = str(picker.query_one("#picker-status").render())
        assert status.startswith("2 executions (")
        assert "1 not UTF-8 text" in status and "1 empty" in status
        assert "with no record" not in status


async def test_files_that_cannot_be_read_are_counted_in_verify_s_words(tmp_path: Path) -> None:
    """A link leading nowhere and a FIFO: their lines say "Cannot read: …" and "Named like a
    record but is a FIFO …", verify "(the file cannot be read)" and "(not a regular file)";
    the count said "(1 unreadable, 1 not a file)"."""
    records = tmp_path / "records"
    record = make_record()
    write_record(records, record)
    (records / "dangling.json").symlink_to(records / "nowhere.json")
    os.mkfifo(records / "fifo.json")
    app = NotingApp(resolve_root(records), watch=False, directory_label="x", use_cache=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await select(app, pilot, record["header"]["executionId"])
        picker = await open_picker(app, pilot)
        assert any("Cannot read: " in line for line in shown_lines(picker))
        status = str(picker.query_one("#picker-status").render())
        assert "1 cannot be read" in status and "1 not a regular file" in status, status
        assert "unreadable" not in status
