"""A write-ahead log padded with blank lines: read as quickly as its entries allow (30 MB
of newlines took about 40 s, one Python object a line), and every entry after them still
found at its own line and byte, as IntentusNet 1.3.0's reader (which skips them) reads it."""

from __future__ import annotations

from pathlib import Path

from intentusnet.wal.reader import WALReader

from intentus_tui.core.wal.read import read_wal
from tests.core.wal.support import EXEC_ID, lines_of, write_completed
from tests.hostile.harness import deadline


def test_megabytes_of_blank_lines_do_not_stall_the_reader(tmp_path: Path) -> None:
    log = write_completed(tmp_path)
    written = log.read_bytes()
    padding = b"\n" * 30_000_000 + b" \t\r\n" * 1000
    log.write_bytes(padding + written)
    with deadline(10, "read_wal on 30 MB of blank lines"):  # stops a stall, times nothing
        read = read_wal(log)
    assert read.file_status == "ok" and read.chain_valid and read.state == "completed"
    assert len(read.entries) == len(WALReader(str(tmp_path), EXEC_ID).read_all()) == 7
    first = read.entries[0]
    assert (first.line_no, first.byte_offset) == (30_001_001, len(padding))


def test_blank_lines_between_entries_keep_each_entry_at_its_line_and_byte(
    tmp_path: Path,
) -> None:
    log = write_completed(tmp_path)
    lines = lines_of(log)
    padded = [b"  \n", b"\n" * 70_000, *lines[:3], b"\t\n" * 3, *lines[3:], b"\n \n"]
    log.write_bytes(b"".join(padded))
    read = read_wal(log)
    assert read.chain_valid and not read.issues and len(read.entries) == 7
    data = log.read_bytes()
    for entry in read.entries:
        at = entry.byte_offset
        line = data[at : data.index(b"\n", at) + 1]
        assert line in lines and data.count(b"\n", 0, at) + 1 == entry.line_no
    assert [e.line_no for e in read.entries] == [
        70_002,
        70_003,
        70_004,
        70_008,
        70_009,
        70_010,
        70_011,
    ]
