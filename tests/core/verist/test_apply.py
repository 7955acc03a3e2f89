"""apply_diff: a diff applied to its base gives the after value, as Verist's applyDiff does."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from intentus_tui.core.verist.apply import apply_diff
from intentus_tui.core.verist.diff import DiffEntry, DiffError, DiffResult, diff
from intentus_tui.core.verist.missing import MISSING

# --- apply_diff ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ({"name": "Alice", "age": 30}, {"name": "Alice", "age": 31}),
        ({"a": 1}, {"a": 1, "b": 2}),
        ({"a": 1, "b": 2}, {"a": 1}),
        ({"outer": {"inner": 1}}, {"outer": {"inner": 2}}),
        ([1, 2, 3], [1, 5, 3]),
        (["a", "b", "c", "d"], ["a"]),  # removals must go in descending index order
        (["a", "b", "c"], ["a", "x"]),
        ({"l": [1, 2, 3, 4], "m": {"k": [5, 6]}}, {"l": [9], "m": {"k": []}}),
        (1, {"a": 1}),
        ({"a": [1, {"b": None}]}, {"a": [1, {"b": False}], "c": "new"}),
    ],
)
def test_apply_diff_reproduces_after(before: Any, after: Any) -> None:
    assert apply_diff(before, diff(before, after)) == after


def test_apply_diff_does_not_mutate_the_base() -> None:
    base = {"a": 1, "b": [1, 2, 3], "c": {"d": {"e": 1}}}
    snapshot = copy.deepcopy(base)
    result = apply_diff(base, diff(base, {"a": 2, "b": [1], "c": {"d": {"e": 2}}}))
    assert base == snapshot
    assert result == {"a": 2, "b": [1], "c": {"d": {"e": 2}}}


def test_apply_diff_of_an_equal_result_returns_the_base() -> None:
    base = {"a": 1}
    assert apply_diff(base, diff(base, {"a": 1})) is base


def test_apply_diff_on_a_non_object_parent_names_the_path() -> None:
    bad = DiffResult(False, (DiffEntry(("a", "b"), MISSING, 2),))
    with pytest.raises(DiffError, match=r'cannot apply change at "a": expected object, got number'):
        apply_diff({"a": 1}, bad)


def test_apply_diff_on_a_path_that_cannot_be_traversed() -> None:
    bad = DiffResult(False, (DiffEntry(("a", "b", "c"), MISSING, 2),))
    with pytest.raises(
        DiffError, match=r'cannot traverse path at "a": expected object, got number'
    ):
        apply_diff({"a": 1}, bad)
    with pytest.raises(
        DiffError, match=r'cannot apply change at "a.b": expected object, got undefined'
    ):
        apply_diff({"a": {}}, bad)
    with pytest.raises(DiffError, match=r"expected object, got null"):
        apply_diff({"a": None}, DiffResult(False, (DiffEntry(("a", "b"), 1, 2),)))


def test_apply_diff_refuses_a_string_array_index() -> None:
    # "1" instead of 1 would, in JavaScript, splice(NaN, 1) and delete index 0.
    bad = DiffResult(False, (DiffEntry(("items", "1"), "b", MISSING),))
    with pytest.raises(DiffError, match=r'array index must be number, got string "1"'):
        apply_diff({"items": ["a", "b", "c"]}, bad)


def test_apply_diff_error_is_a_value_error_not_a_crash() -> None:
    with pytest.raises(ValueError):
        apply_diff([1], DiffResult(False, (DiffEntry((0, "x"), 1, 2),)))
