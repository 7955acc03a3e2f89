"""Ordering ready-made listing rows without decoding them: the same order as decoding."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.index.scan import RowBlock, RowPlaces
from intentus_tui.core.index.summarize import summarize_path
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.timestamps import time_order
from intentus_tui.render import listing_order
from intentus_tui.render.listing_order import (
    ROW_SEPARATOR,
    listing_key,
    open_time_ordered,
    packed_order,
    row_key,
    time_ordered_rows,
)
from intentus_tui.render.rows import LISTING_ROWS, row_line
from tests.intentusnet_world import RealWorld


def _rows(real_world: RealWorld) -> list[bytes]:
    """Rows of the real records, with times and ids that take each way through the reader."""
    return [row_line(summary) for summary in _summaries(real_world)]


def _summaries(real_world: RealWorld) -> list[ExecutionSummary]:
    base = summarize_path(real_world.records_dir / f"{real_world.success}.json")
    variants = [
        ("b-plain", "2026-11-25T02:51:27.428383+00:00"),
        ("a-plain", "2026-11-25T02:51:27.428383+00:00"),  # same time: by id
        ("offset", "2026-11-25T03:00:00+02:00"),  # 01:00 UTC: first
        ("zulu", "2026-11-25T02:00:00Z"),
        ('quote"in-id', "2026-11-25T02:30:00Z"),  # escaped id: decoded whole
        ("control\x01", "2026-11-25T02:35:00Z"),  # sanitized into an escape
        ("undated", ""),
        ("garbage-time", "not a time"),
        ("escaped-time", "2026-11-25T02:40:00Z\u202e"),  # an escape in the time
    ]
    return [
        dataclasses.replace(base, execution_id=ident, created=created)
        for ident, created in variants
    ]


def test_the_key_read_from_the_bytes_is_the_key_of_the_decoded_row(
    real_world: RealWorld,
) -> None:
    for row in _rows(real_world):
        doc = orjson.loads(row)
        order = time_order(doc["created"], doc["execution_id"])
        assert row_key(row) == listing_key(order, doc["file"]), row


def test_rows_start_the_way_the_fast_reader_expects(real_world: RealWorld) -> None:
    """The key is read from the bytes only while a row starts with its id, file name and
    time (else every row is decoded whole: right, but slower at 100,000 rows)."""
    row = row_line(summarize_path(real_world.records_dir / f"{real_world.success}.json"))
    head = b'    {"execution_id":"' + real_world.success.encode() + b'","file":"'
    assert row.startswith(head)
    assert row.index(b',"created":"') == row.index(b'.json","') + len(b'.json"')


def test_rows_come_out_oldest_first(real_world: RealWorld, tmp_path: Path) -> None:
    rows = _rows(real_world)
    expected = sorted(rows, key=lambda r: time_order(*_fields(r)))
    blocks = [b",\n".join(rows[:4]), b",\n".join(rows[4:])]
    assert ordered_rows(blocks) == expected
    assert [orjson.loads(r)["execution_id"] for r in expected][:3] == [
        "offset",
        "zulu",
        'quote"in-id',
    ]
    assert b",\n".join(ordered_rows(iter(blocks))) == b",\n".join(expected)
    rows_file = tmp_path / "index-rows.json"
    rows_file.write_bytes(b",\n".join(rows))
    copy = _read_ordered(rows_file, b",\n".join(expected))
    assert copy.parent == tmp_path and copy.name != rows_file.name
    assert _read_ordered(rows_file, b",\n".join(expected)) == copy  # made once per version
    rows_file.write_bytes(b",\n".join(rows[:2]))  # a new version: a new copy, the old gone
    newer = _read_ordered(rows_file, b",\n".join(sorted(rows[:2], key=row_key)))
    assert newer != copy and not copy.exists()


def test_keys_made_by_the_workers_order_rows_as_the_rows_themselves(
    real_world: RealWorld,
) -> None:
    """The workers send each row's key (``RowBlock``): the same order as reading the rows,
    ids with escapes and undated rows included, across blocks."""
    summaries = _summaries(real_world)
    for summary in summaries:
        assert LISTING_ROWS.order(summary) == row_key(row_line(summary))
    plain = [b",\n".join(row_line(s) for s in summaries[:5]), row_line(summaries[5])]
    plain.append(b",\n".join(row_line(s) for s in summaries[6:]))
    keyed = [
        RowBlock(
            b",\n".join(row_line(s) for s in part),
            [LISTING_ROWS.order(s) for s in part],
            [len(row_line(s)) for s in part],
        )
        for part in (summaries[:5], summaries[5:6], summaries[6:], [])
    ]
    expected = sorted(_rows(real_world), key=row_key)
    assert ordered_rows(keyed) == ordered_rows(plain) == expected


def test_a_file_with_its_row_places_is_ordered_without_reading_rows(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first open writes the rows file and knows where each row is (``RowPlaces``): its
    ordered copy is the one made by reading the rows; places that do not fit the file
    (it changed since) are not trusted."""
    summaries = _summaries(real_world)
    rows = [row_line(s) for s in summaries]
    expected = b",\n".join(sorted(rows, key=row_key))
    places = RowPlaces()
    for part in (summaries[:4], summaries[4:]):
        places.add([LISTING_ROWS.order(s) for s in part], [len(row_line(s)) for s in part])
    rows_file = tmp_path / "index-rows.json"
    rows_file.write_bytes(b",\n".join(rows))

    def no_reading(*_: object) -> list[bytes]:
        raise AssertionError("a row was read to find its key")

    with monkeypatch.context() as patch:
        patch.setattr(listing_order, "_file_entries", no_reading)
        ordered = open_time_ordered(rows_file, places)
        assert ordered is not None
        with ordered:
            assert ordered.read() == expected
    rows_file.write_bytes(b",\n".join(rows[:3]))  # rewritten: the places no longer fit
    again = open_time_ordered(rows_file, places)
    assert again is not None
    with again:
        assert again.read() == b",\n".join(sorted(rows[:3], key=row_key))


def test_rows_with_the_same_time_and_id_come_original_first_then_in_file_name_order(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A record and its copies (same time, same id) under other names: whatever order the
    files were read in, and whether keys come with the rows or are read from them, the
    record named after the id comes first, then the copies in file-name order."""
    own = f"{real_world.success}.json"
    base = summarize_path(real_world.records_dir / own)
    names = ["c-copy.json", "a-copy.json", own, "é-copy.json", "b\x01-copy.json", "B.json"]
    copies = [dataclasses.replace(base, key=name) for name in names]
    expected = [row_line(s) for s in sorted(copies, key=lambda s: (s.key != own, s.key))]
    assert expected[0] == row_line(base)
    for arrangement in (copies, copies[::-1], copies[2:] + copies[:2]):
        rows = [row_line(s) for s in arrangement]
        keyed = RowBlock(
            b",\n".join(rows), [LISTING_ROWS.order(s) for s in arrangement], [len(r) for r in rows]
        )
        assert ordered_rows([keyed]) == ordered_rows([b",\n".join(rows)]) == expected
        rows_file = tmp_path / f"rows-{arrangement[0].key}.json"
        rows_file.write_bytes(b",\n".join(rows))
        _read_ordered(rows_file, b",\n".join(expected))


def test_no_rows(tmp_path: Path) -> None:
    empty = tmp_path / "index-rows.json"
    empty.write_bytes(b"")
    assert ordered_rows([]) == [] and ordered_rows([b""]) == []
    _read_ordered(empty, b"")


def ordered_rows(blocks: Iterable[bytes] | Iterable[RowBlock]) -> list[bytes]:
    """Every row of ``blocks``, oldest first, as the listing writes them out."""
    joined = b"".join(piece for batch in time_ordered_rows(blocks) for piece in batch)
    return joined.split(ROW_SEPARATOR) if joined else []


def _read_ordered(rows_file: Path, expected: bytes) -> Path:
    """Check the ordered copy's content; return where it is."""
    ordered = open_time_ordered(rows_file)
    assert ordered is not None
    with ordered:
        assert ordered.read() == expected
        return Path(ordered.name)


def _fields(row: bytes) -> tuple[str | None, str]:
    doc = orjson.loads(row)
    return doc["created"], doc["execution_id"]


_times = st.one_of(
    st.none(),
    st.sampled_from(["", "not a time", "2026-11-25T02:00:00Z", "2026-11-25T04:00:00+02:00"]),
    st.datetimes(
        min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
    ).map(datetime.isoformat),
    st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)).map(
        lambda moment: moment.isoformat() + "+05:30"
    ),
)
_ids = st.text(alphabet=st.sampled_from("ab\x00\x01é😀-"), max_size=4)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(_times, _ids), max_size=12))
def test_the_packed_key_sorts_as_the_time_order(pairs: list[tuple[str | None, str]]) -> None:
    orders = [time_order(created, ident) for created, ident in pairs]
    assert sorted(orders) == sorted(orders, key=packed_order)


def test_a_file_read_in_small_pieces_with_long_rows_is_ordered_the_same(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = summarize_path(real_world.records_dir / f"{real_world.success}.json")
    long_id = "x" * 700  # its head does not hold the time: the row is decoded whole
    rows = [*_rows(real_world), row_line(dataclasses.replace(base, execution_id=long_id))]
    expected = b",\n".join(sorted(rows, key=row_key))
    for piece in (7, 300, 1 << 20):  # rows cut across pieces, and read whole
        monkeypatch.setattr(listing_order, "_READ", piece)
        rows_file = tmp_path / f"rows-{piece}.json"
        rows_file.write_bytes(b",\n".join(rows))
        _read_ordered(rows_file, expected)
        assert b",\n".join(ordered_rows([b",\n".join(rows)])) == expected
