"""Verist's diff: its documented behaviours as test cases, and its robustness."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from intentus_tui.core.verist.apply import apply_diff
from intentus_tui.core.verist.diff import DiffEntry, DiffResult, diff
from intentus_tui.core.verist.missing import MISSING


def entries(before: Any, after: Any) -> list[tuple[tuple[Any, ...], Any, Any]]:
    return [(e.path, e.before, e.after) for e in diff(before, after).entries]


# --- diff: shape of the result ------------------------------------------------------------


def test_identical_primitives_are_equal() -> None:
    for value in (42, "hello", True, None, 1.5):
        result = diff(value, value)
        assert result == DiffResult(True, ())


def test_primitive_difference_is_one_root_entry() -> None:
    assert diff(1, 2) == DiffResult(False, (DiffEntry((), 1, 2),))


def test_changed_object_field() -> None:
    assert entries({"name": "Alice", "age": 30}, {"name": "Alice", "age": 31}) == [
        (("age",), 30, 31)
    ]


def test_added_key_has_missing_before_and_removed_key_missing_after() -> None:
    added = diff({"a": 1}, {"a": 1, "b": 2}).entries[0]
    removed = diff({"a": 1, "b": 2}, {"a": 1}).entries[0]
    assert (added.path, added.before, added.after, added.kind) == (("b",), MISSING, 2, "added")
    assert (removed.path, removed.before, removed.after, removed.kind) == (
        ("b",),
        2,
        MISSING,
        "removed",
    )
    assert diff({"a": 1}, {"a": 2}).entries[0].kind == "changed"


def test_missing_is_not_none() -> None:
    # undefined (MISSING) vs JSON null is a change, not equality.
    assert entries({"a": None}, {}) == [(("a",), None, MISSING)]
    assert entries({}, {"a": None}) == [(("a",), MISSING, None)]


def test_undefined_counts_as_an_absent_key_in_objects() -> None:
    assert diff({"a": MISSING}, {}).equal
    assert diff({}, {"a": MISSING}).equal
    assert diff({"a": MISSING}, {"a": MISSING}).equal
    assert diff({"a": 1, "b": MISSING}, {"a": 1}).equal


def test_undefined_past_the_end_of_an_array_is_still_an_entry() -> None:
    result = diff([1], [1, MISSING])
    assert result.entries == (DiffEntry((1,), MISSING, MISSING),)
    # applying it treats after=undefined as a removal, so the result is [1]
    assert apply_diff([1], result) == [1]


def test_nested_objects_report_the_full_path() -> None:
    assert entries({"outer": {"inner": 1}}, {"outer": {"inner": 2}}) == [(("outer", "inner"), 1, 2)]


def test_arrays_are_compared_by_index() -> None:
    assert diff([1, 2, 3], [1, 2, 3]).equal
    assert entries([1, 2, 3], [1, 5, 3]) == [((1,), 2, 5)]
    assert entries([1, 2], [1, 2, 3]) == [((2,), MISSING, 3)]
    assert entries([1, 2, 3], [1, 2]) == [((2,), 3, MISSING)]
    assert entries([{"id": 1, "name": "a"}], [{"id": 1, "name": "b"}]) == [((0, "name"), "a", "b")]
    # An insertion at the front shifts everything: one entry per index (Verist semantics).
    assert len(diff([1, 2, 3], [0, 1, 2, 3]).entries) == 4


def test_type_changes_yield_one_entry_at_that_path() -> None:
    assert entries({"a": 1}, {"a": "1"}) == [(("a",), 1, "1")]
    assert entries(None, {"a": 1}) == [((), None, {"a": 1})]
    assert entries({"a": 1}, None) == [((), {"a": 1}, None)]
    assert entries({"a": [1]}, {"a": {"0": 1}}) == [(("a",), [1], {"0": 1})]
    assert entries({"a": {"x": 1}}, {"a": [1]}) == [(("a",), {"x": 1}, [1])]


def test_equality_is_javascript_strict_equality() -> None:
    # Python says True == 1; JavaScript does not.
    assert entries({"a": True}, {"a": 1}) == [(("a",), True, 1)]
    assert entries([False], [0]) == [((0,), False, 0)]
    assert entries({"deep": {"x": [True]}}, {"deep": {"x": [1]}}) == [(("deep", "x", 0), True, 1)]
    # ... but 1 and 1.0 are the same number, and -0 === 0.
    assert diff({"a": 1}, {"a": 1.0}).equal
    assert diff([0.0], [-0.0]).equal
    # NaN !== NaN
    assert not diff(float("nan"), float("nan")).equal


def test_keys_are_visited_in_javascript_sort_order_regardless_of_insertion_order() -> None:
    before = {"z": 1, "a": 2, "m": 3}
    shuffled = {"m": 3, "z": 1, "a": 2}
    target = {"z": 10, "a": 20, "m": 30}
    assert [e.path[0] for e in diff(before, target).entries] == ["a", "m", "z"]
    assert [e.path[0] for e in diff(shuffled, target).entries] == ["a", "m", "z"]


def test_key_order_is_utf16_code_units_not_code_points() -> None:
    # U+FF5E sorts after the surrogate pair of U+1F600 in UTF-16, before it in code points.
    keys = ["\uff5e", "\U0001f600", "10", "9", "B", "a"]
    result = diff(dict.fromkeys(keys, 1), dict.fromkeys(keys, 2))
    assert [e.path[0] for e in result.entries] == ["10", "9", "B", "a", "\U0001f600", "\uff5e"]


def test_entries_come_depth_first() -> None:
    before = {"a": {"x": 1, "y": [1, 2]}, "b": 1}
    after = {"a": {"x": 2, "y": [1, 3, 4]}, "b": 2}
    assert [e.path for e in diff(before, after).entries] == [
        ("a", "x"),
        ("a", "y", 1),
        ("a", "y", 2),
        ("b",),
    ]


def test_result_types_are_immutable() -> None:
    result = diff({"a": 1}, {"a": 2})
    assert isinstance(result.entries, tuple)
    with pytest.raises(AttributeError):
        result.entries[0].after = 3  # type: ignore[misc]


# --- robustness ---------------------------------------------------------------------------


def nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def test_deep_nesting_does_not_blow_the_stack() -> None:
    before, after = nested(10_000, 1), nested(10_000, 2)
    result = diff(before, after)
    assert len(result.entries) == 1
    assert len(result.entries[0].path) == 10_000
    applied = apply_diff(before, result)
    leaf = applied
    while isinstance(leaf, dict | list):
        leaf = leaf["k"] if isinstance(leaf, dict) else leaf[0]
    assert leaf == 2
    assert diff(before, nested(10_000, 1)).equal
    assert diff(before, after, aligned=True).entries[0].after == 2


def _aligned_cases(n: int) -> dict[str, tuple[list[Any], list[Any]]]:
    before = [{"seq": i, "payload": {"v": i * 3}} for i in range(n)]
    return {
        "front insertion": (before, [{"seq": -1}, *before]),
        "every element changed": (before, [{"seq": i, "payload": {"v": -i}} for i in range(n)]),
        "halves swapped": (before, before[n // 2 :] + before[: n // 2]),
    }


def _lines_run(work: Callable[..., object], *args: object) -> int:
    """How many lines of Python ``work(*args)`` runs: a measure of work that, unlike time,
    does not depend on how busy the machine is."""
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        count += event == "line"
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        work(*args)
    finally:
        sys.settrace(previous)
    return count


def test_large_aligned_arrays_are_diffed_right() -> None:
    cases = _aligned_cases(10_000)
    before, front = cases["front insertion"]
    assert len(diff(before, front, aligned=True).entries) == 1
    before, scrambled = cases["every element changed"]
    assert len(diff(before, scrambled, aligned=True).entries) == 9_999  # v=0 is unchanged
    before, shuffled = cases["halves swapped"]
    assert apply_diff(before, diff(before, shuffled, aligned=True)) == shuffled


def test_aligned_diff_work_grows_linearly_not_quadratically() -> None:
    """Four times the elements, at most about four times the work (n log n allows 4.8);
    a quadratic alignment would do 16 times as much. (Its speed, as a ratio to parsing the
    same JSON: ``bench/bench_diff.py``.)"""

    def diff_and_apply(before: list[Any], after: list[Any]) -> None:
        assert apply_diff(before, diff(before, after, aligned=True)) == after

    small, large = _aligned_cases(1_000), _aligned_cases(4_000)
    for name, pair in small.items():
        work = _lines_run(diff_and_apply, *pair)
        big_work = _lines_run(diff_and_apply, *large[name])
        assert big_work < 6 * work, (name, work, big_work)


def test_diff_of_non_json_values_compares_them_opaquely() -> None:
    marker = object()
    assert diff({"a": marker}, {"a": marker}).equal
    assert diff({"a": (1, 2)}, {"a": (1, 3)}).entries == (DiffEntry(("a",), (1, 2), (1, 3)),)
