"""The list's blocked rows behave as a plain sorted list, through splits and emptied blocks."""

from __future__ import annotations

from bisect import bisect_left, insort

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from intentus_tui.tui.presenters import sorted_rows
from intentus_tui.tui.presenters.sorted_rows import SortedRows

row_keys = st.tuples(
    st.integers(0, 5), st.integers(0, 1), st.integers(0, 40), st.text("ab", max_size=3)
)
# Each step: a sorted batch to add, or one key to remove (present or not).
steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.lists(row_keys, max_size=12)),
        st.tuples(st.just("remove"), row_keys),
    ),
    max_size=40,
)


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sorted_rows, "BLOCK", 3)  # splits after 6 rows: every path runs


def _check(rows: SortedRows, model: list[tuple[object, ...]]) -> None:
    assert list(rows) == model and len(rows) == len(model) and rows == model
    assert [rows[i] for i in range(len(model))] == model
    assert [rows[i] for i in range(-len(model), 0)] == model
    for key in model[:5]:
        assert rows.bisect_left(key) == bisect_left(model, key) and key in rows


# The fixture only sets a constant: the same for every example.
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(start=st.lists(row_keys, max_size=20), ops=steps, probes=st.lists(row_keys, max_size=8))
def test_blocked_rows_match_a_sorted_list(
    small_blocks: None,
    start: list[tuple[object, ...]],
    ops: list[tuple[str, object]],
    probes: list[tuple[object, ...]],
) -> None:
    model = sorted(start)
    rows = SortedRows(model)
    _check(rows, model)
    for op, arg in ops:
        if op == "add":
            batch = sorted(arg)  # type: ignore[type-var]
            rows.add_sorted(batch)
            for key in batch:
                insort(model, key)
        else:
            there = arg in model
            assert rows.remove(arg) is there  # type: ignore[arg-type]
            if there:
                model.remove(arg)  # type: ignore[arg-type]
        _check(rows, model)
        assert all(len(b) <= 2 * sorted_rows.BLOCK for b in rows._blocks)
    for key in probes:
        assert rows.bisect_left(key) == bisect_left(model, key)
        assert (key in rows) is (key in model)
    assert rows[1:4] == model[1:4]


def test_out_of_range_and_empty() -> None:
    rows = SortedRows()
    assert len(rows) == 0 and list(rows) == [] and rows.bisect_left((1,)) == 0
    assert rows.remove((1,)) is False
    with pytest.raises(IndexError):
        rows[0]
    rows.add_sorted([(1,), (2,)])
    with pytest.raises(IndexError):
        rows[2]
    assert rows[-1] == (2,) and rows != [(1,)] and rows == SortedRows([(1,), (2,)])


def test_a_batch_costs_what_it_holds_not_the_rows_already_there() -> None:
    """The point of the blocks: adding rows touches only their blocks (a flat list's merge
    copied every row). Counted, not timed: the blocks a batch leaves unchanged are the
    very same list objects."""
    rows = SortedRows([(n,) for n in range(0, 200_000, 2)])
    before = [id(b) for b in rows._blocks]
    rows.add_sorted([(101,), (103,)])
    after = [id(b) for b in rows._blocks]
    assert len(rows) == 100_002 and rows[51] == (101,) and rows[53] == (103,)
    assert sum(a != b for a, b in zip(before, after, strict=True)) == 0  # inserted in place


def test_a_block_emptied_goes_and_its_neighbours_take_its_rows(small_blocks: None) -> None:
    rows = SortedRows([(n,) for n in range(9)])  # blocks (0 1 2) (3 4 5) (6 7 8)
    for n in (3, 4, 5):
        assert rows.remove((n,))
    assert len(rows._blocks) == 2 and list(rows) == [(0,), (1,), (2,), (6,), (7,), (8,)]
    rows.add_sorted([(4,), (9,)])
    assert list(rows) == [(0,), (1,), (2,), (4,), (6,), (7,), (8,), (9,)]
    assert rows.bisect_left((5,)) == 4 and rows[3] == (4,) and (5,) not in rows
    for n in (0, 1, 2, 4, 6, 7, 8, 9):
        assert rows.remove((n,))
    assert len(rows) == 0 and rows._blocks == [] and rows.bisect_left((1,)) == 0
    rows.add_sorted([(1,)])
    assert list(rows) == [(1,)]
