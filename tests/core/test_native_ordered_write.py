"""``write_in_key_order`` writes exactly what ``time_ordered_rows`` gives for the same
blocks (the listing's rows in time order), to any file, whatever the blocks hold; it
refuses malformed blocks before writing anything, and owns what it writes from while
the GIL is released. ``copy_in_key_order`` makes the same ordered copy of a file of rows
as the Python copy does."""

from __future__ import annotations

import fcntl
import gc
import io
import os
import termios
import threading
from array import array
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from intentus_tui.core import native
from intentus_tui.core.index.scan import RowBlock, RowPlaces
from intentus_tui.render import listing_order
from intentus_tui.render.listing_order import (
    ROW_SEPARATOR,
    listing_key,
    open_time_ordered,
    time_ordered_rows,
    write_time_ordered,
)

pytestmark = pytest.mark.skipif(
    native.write_in_key_order is None or native.copy_in_key_order is None,
    reason="native speed-ups not built or turned off",
)

PROOF = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Keys as the listing makes them: time order (undated, instant, id), then the file.
_orders = st.tuples(
    st.booleans(),
    st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2001, 1, 1)).map(
        lambda moment: moment.replace(tzinfo=UTC)
    ),
    st.text(alphabet=st.sampled_from("ab\x00\x01é-"), max_size=3),
)
_listing_keys = st.builds(
    listing_key, _orders, st.text(alphabet=st.sampled_from("ab.-é"), max_size=4)
)
# Any bytes without NUL: a key that is a prefix of another sorts first either way.
_plain_keys = st.binary(max_size=12).filter(lambda key: b"\x00" not in key)
_rows = st.binary(max_size=40)


@st.composite
def _blocks(draw: st.DrawFn) -> list[RowBlock]:
    keys = _listing_keys if draw(st.booleans()) else _plain_keys
    pool = draw(st.lists(keys, min_size=1, max_size=6))  # few keys: many ties
    blocks = []
    for _ in range(draw(st.integers(0, 5))):
        pairs = draw(st.lists(st.tuples(st.sampled_from(pool), _rows), max_size=8))
        if draw(st.booleans()):  # as the workers send them: each block in key order
            pairs.sort(key=lambda pair: pair[0])
        rows = [row for _, row in pairs]
        blocks.append(
            RowBlock(ROW_SEPARATOR.join(rows), [key for key, _ in pairs], [len(r) for r in rows])
        )
    return blocks


def _python(blocks: list[RowBlock]) -> bytes:
    return b"".join(piece for batch in time_ordered_rows(blocks) for piece in batch)


def _native(blocks: list[RowBlock], path: Path) -> tuple[int, bytes]:
    assert native.write_in_key_order is not None
    with path.open("wb") as out:
        written = native.write_in_key_order(out.fileno(), blocks, ROW_SEPARATOR)
    return written, path.read_bytes()


@PROOF
@given(_blocks())
def test_it_writes_what_the_python_order_gives(
    tmp_path_factory: pytest.TempPathFactory, blocks: list[RowBlock]
) -> None:
    path = tmp_path_factory.mktemp("out") / "rows"
    expected = _python(blocks)
    assert _native(blocks, path) == (len(expected), expected)


def test_equal_keys_keep_the_order_of_their_blocks_and_rows(tmp_path: Path) -> None:
    same = b"k"
    blocks = [
        RowBlock(b"b2,\na1", [b"z", same], [2, 2]),  # not in key order: sorted here
        RowBlock(b"c1,\nc2", [same, same], [2, 2]),
        RowBlock(b"", [], []),
        RowBlock(b"a0", [b"a"], [2]),
    ]
    assert _native(blocks, tmp_path / "rows")[1] == b"a0,\na1,\nc1,\nc2,\nb2" == _python(blocks)


def test_it_writes_all_through_a_pipe_read_a_little_at_a_time() -> None:
    # 20,000 rows (far beyond a pipe's 64 KiB): writev is cut short again and again.
    rows = [f'{{"row":{n:05d},"pad":"{"x" * (n % 97)}"}}'.encode() for n in range(20_000)]
    keys = [f"{(n * 7919) % 20_000:05d}".encode() for n in range(20_000)]
    blocks = [
        RowBlock(
            ROW_SEPARATOR.join(rows[i : i + 128]),
            keys[i : i + 128],
            [len(r) for r in rows[i : i + 128]],
        )
        for i in range(0, 20_000, 128)
    ]
    read_end, write_end = os.pipe()
    got = bytearray()

    def read() -> None:
        while piece := os.read(read_end, 1000):
            got.extend(piece)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        assert native.write_in_key_order is not None
        written = native.write_in_key_order(write_end, blocks, ROW_SEPARATOR)
    finally:
        os.close(write_end)
        reader.join()
        os.close(read_end)
    assert bytes(got) == _python(blocks) and written == len(got)


def test_it_owns_the_rows_while_it_writes_outside_the_gil() -> None:
    # Once the first bytes reach the pipe the writer waits in writev without the GIL;
    # this thread then drops every other reference to the blocks and their rows and
    # collects: what is read after must still be every row, whole.
    count = 5000
    rows = [bytes([65 + n % 26]) * 200 for n in range(count)]
    expected = ROW_SEPARATOR.join(sorted(rows, key=lambda r: r[:1]))
    blocks = [
        RowBlock(
            ROW_SEPARATOR.join(rows[i : i + 100]),
            [r[:1] for r in rows[i : i + 100]],
            [200] * len(rows[i : i + 100]),
        )
        for i in range(0, count, 100)
    ]
    del rows
    read_end, write_end = os.pipe()
    got = bytearray()

    def drop_then_read() -> None:
        waiting = bytearray(4)
        while True:  # bytes in the pipe: the writer is in writev, the GIL released
            fcntl.ioctl(read_end, termios.FIONREAD, waiting)
            if int.from_bytes(waiting, "little"):
                break
        blocks.clear()
        gc.collect()
        for _ in range(50):  # reuse the freed memory, if it was freed
            bytearray(b"\xff" * 20_000)
        while piece := os.read(read_end, 1 << 16):
            got.extend(piece)

    thread = threading.Thread(target=drop_then_read)
    thread.start()
    try:
        assert native.write_in_key_order is not None
        native.write_in_key_order(write_end, blocks, ROW_SEPARATOR)
    finally:
        os.close(write_end)
        thread.join()
        os.close(read_end)
    assert not blocks
    assert bytes(got) == expected


@pytest.mark.parametrize(
    ("blocks", "error"),
    [
        ([RowBlock(b"ab", [b"k"], [3])], ValueError),  # a row beyond its block
        ([RowBlock(b"ab", [b"k"], [-1])], ValueError),
        ([RowBlock(b"ab", ["k"], [2])], ValueError),  # type: ignore[list-item]
        ([RowBlock(b"ab", [b"k", b"j"], [2])], TypeError),  # keys and lengths differ
        ([(b"ab", (b"k",), [2])], TypeError),
        ([b"ab"], TypeError),
        ([RowBlock(b"ab", [b"k"], [2**70])], OverflowError),
    ],
)
def test_malformed_blocks_are_refused_before_anything_is_written(
    tmp_path: Path, blocks: list[RowBlock], error: type[Exception]
) -> None:
    good = RowBlock(b"first", [b"a"], [5])
    path = tmp_path / "rows"
    with path.open("wb") as out, pytest.raises(error):
        assert native.write_in_key_order is not None
        native.write_in_key_order(out.fileno(), [good, *blocks], ROW_SEPARATOR)
    assert path.read_bytes() == b""


def test_a_closed_descriptor_is_an_os_error() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    os.close(write_end)
    with pytest.raises(OSError):
        assert native.write_in_key_order is not None
        native.write_in_key_order(write_end, [RowBlock(b"a", [b"k"], [1])], ROW_SEPARATOR)


def test_the_listing_writes_the_same_bytes_either_way(tmp_path: Path) -> None:
    # What the command line calls: to a real file (the native helper), to a buffer with no
    # descriptor, and to a real file with the helper off: one output.
    blocks = [
        RowBlock(b'{"b"},\n{"a"}', [b"2", b"1"], [5, 5]),
        RowBlock(b"", [], []),
        RowBlock(b'{"c"}', [b"0"], [5]),
    ]
    outputs = []
    for with_native in (True, False):
        path = tmp_path / f"rows-{with_native}"
        saved = listing_order.write_in_key_order
        listing_order.write_in_key_order = saved if with_native else None
        try:
            with path.open("wb") as out:
                assert write_time_ordered(out, blocks)
        finally:
            listing_order.write_in_key_order = saved
        outputs.append(path.read_bytes())
    buffer = io.BytesIO()
    assert write_time_ordered(buffer, blocks)
    outputs.append(buffer.getvalue())
    assert outputs == [b'\n{"c"},\n{"a"},\n{"b"}'] * 3
    with (tmp_path / "none").open("wb") as out:
        assert not write_time_ordered(out, [RowBlock(b"", [], [])])
    assert (tmp_path / "none").read_bytes() == b""


def _rows_file(blocks: list[RowBlock], path: Path) -> RowPlaces:
    """The blocks' rows in one file joined by the separator, as a first open writes the
    cache's file of rows, and where each is."""
    places = RowPlaces()
    with path.open("wb") as out:
        for block in blocks:
            if block.rows:
                out.write((ROW_SEPARATOR if places.size else b"") + block.rows)
                places.add(block.keys, block.lengths)
    return places


def _copied(rows_file: Path, places: RowPlaces, helper: object) -> bytes:
    """The ordered copy of ``rows_file`` made with ``helper`` (None: the Python definition)."""
    saved = listing_order.copy_in_key_order
    listing_order.copy_in_key_order = helper  # type: ignore[assignment]
    try:
        for old in rows_file.parent.glob("*-by-time-*"):
            old.unlink()
        ordered = open_time_ordered(rows_file, places)
        assert ordered is not None
        with ordered:
            return ordered.read()
    finally:
        listing_order.copy_in_key_order = saved


@PROOF
@given(_blocks())
def test_the_ordered_copy_of_a_file_is_the_python_copy(
    tmp_path_factory: pytest.TempPathFactory, blocks: list[RowBlock]
) -> None:
    rows_file = tmp_path_factory.mktemp("copy") / "index-rows.json"
    places = _rows_file(blocks, rows_file)
    native_copy = _copied(rows_file, places, native.copy_in_key_order)
    assert native_copy == _copied(rows_file, places, None)
    # and the same as the rows put in order where they were made
    assert native_copy == _python([block for block in blocks if block.rows])


def test_a_row_bigger_than_the_spool_is_copied_whole(tmp_path: Path) -> None:
    big = b"x" * (3 << 20) + b"end"
    blocks = [RowBlock(b"small,\n" + big, [b"b", b"a"], [5, len(big)])]
    places = _rows_file(blocks, tmp_path / "index-rows.json")
    assert _copied(tmp_path / "index-rows.json", places, native.copy_in_key_order) == (
        big + b",\nsmall"
    )


def test_a_file_shorter_than_its_places_is_an_error_not_short_rows(tmp_path: Path) -> None:
    rows_file = tmp_path / "index-rows.json"
    rows_file.write_bytes(b"aaaa,\nbb")
    assert native.copy_in_key_order is not None
    with rows_file.open("rb") as source, (tmp_path / "out").open("wb") as out:
        starts, lengths = array("q", [0, 6]), array("q", [4, 5])  # the second row is cut
        with pytest.raises(OSError):
            native.copy_in_key_order(
                out.fileno(), source.fileno(), [b"a", b"b"], starts, lengths, ROW_SEPARATOR
            )
        with pytest.raises(TypeError):  # places as lists, not arrays of 64-bit ints
            native.copy_in_key_order(
                out.fileno(),
                source.fileno(),
                [b"a"],
                [0],
                [4],
                ROW_SEPARATOR,  # type: ignore[arg-type]
            )
        with pytest.raises(ValueError):
            native.copy_in_key_order(
                out.fileno(), source.fileno(), [b"a"], starts, lengths, ROW_SEPARATOR
            )
