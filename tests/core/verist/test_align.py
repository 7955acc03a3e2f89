"""Aligned array diffs (beyond Verist): an insertion is one entry, and applies."""

from __future__ import annotations

from typing import Any

from intentus_tui.core.verist.apply import apply_diff
from intentus_tui.core.verist.diff import DiffEntry, diff
from intentus_tui.core.verist.format import format_diff
from intentus_tui.core.verist.missing import MISSING


def entries(before: Any, after: Any) -> list[tuple[tuple[Any, ...], Any, Any]]:
    return [(e.path, e.before, e.after) for e in diff(before, after).entries]


# --- aligned mode (beyond Verist) ---------------------------------------------------------


def test_aligned_front_insertion_is_one_entry() -> None:
    before = [{"n": i} for i in range(50)]
    after = [{"n": -1}, *before]
    result = diff(before, after, aligned=True)
    assert result.entries == (DiffEntry((0,), MISSING, {"n": -1}, "insert"),)
    assert format_diff(result) == '+ [0]: {"n":-1}'
    assert apply_diff(before, result) == after


def test_aligned_deletion_and_in_place_change() -> None:
    before = ["a", "b", {"k": 1}, "c", "d"]
    after = ["a", {"k": 2}, "c", "d", "e"]
    result = diff(before, after, aligned=True)
    kinds = [(e.kind, e.array_op) for e in result.entries]
    assert ("removed", "delete") in kinds
    assert ("added", "insert") in kinds
    assert DiffEntry((1, "k"), 1, 2) in result.entries  # the changed element diffs recursively
    assert apply_diff(before, result) == after


def test_aligned_nested_arrays_apply() -> None:
    before = {"runs": [{"ev": [1, 2, 3]}, {"ev": [4]}, {"ev": []}]}
    after = {"runs": [{"ev": [0]}, {"ev": [0, 1, 2, 3]}, {"ev": [4, 5]}]}
    result = diff(before, after, aligned=True)
    assert apply_diff(before, result) == after


def test_aligned_is_off_by_default_and_verist_by_index() -> None:
    before, after = [1, 2, 3], [0, 1, 2, 3]
    assert all(e.array_op is None for e in diff(before, after).entries)


def test_aligned_equality_still_javascript() -> None:
    assert diff([True, 1], [1, True], aligned=True).entries  # true is not 1
    assert diff([{"a": 1}], [{"a": 1.0}], aligned=True).equal
