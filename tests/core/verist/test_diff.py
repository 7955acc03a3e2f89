"""The Verist diff engine: Verist's documented behaviours (seed 004, DESIGN 2.4) as test cases."""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from intentus_tui.core.verist.diff import (
    MISSING,
    DiffEntry,
    DiffError,
    DiffResult,
    apply_diff,
    diff,
    format_diff,
    format_entry,
    format_path,
    key_by,
)


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


# --- format -------------------------------------------------------------------------------


def test_format_diff_lines() -> None:
    assert format_diff(diff({"a": 1}, {"a": 1})) == "(no changes)"
    assert format_diff(diff({"age": 30}, {"age": 31})) == "  age: 30 → 31"
    assert format_diff(diff({}, {"name": "Alice"})) == '+ name: "Alice"'
    assert format_diff(diff({"name": "Alice"}, {})) == '- name: "Alice"'
    assert format_diff(diff({"user": {"name": "A"}}, {"user": {"name": "B"}})) == (
        '  user.name: "A" → "B"'
    )
    assert format_diff(diff([1, 2], [1, 3])) == "  [1]: 2 → 3"
    assert format_diff(diff({"a": None}, {"a": 1})) == "  a: null → 1"
    assert format_diff(diff({"a": 1, "b": 2}, {"a": 2, "b": 3})) == "  a: 1 → 2\n  b: 2 → 3"
    assert format_diff(diff({"a": True}, {"a": False})) == "  a: true → false"


def test_format_values_the_javascript_way() -> None:
    obj = {"z": 1, "a": 2, "m": 3}
    assert format_diff(diff({}, {"data": obj})) == '+ data: {"a":2,"m":3,"z":1}'
    assert format_diff(diff({"x": 1.0}, {"x": 1e21})) == "  x: 1 → 1e+21"
    assert format_diff(diff({"x": 1e-7}, {"x": 2.5})) == "  x: 1e-7 → 2.5"
    assert format_diff(diff([1], [1, MISSING])) == "+ [1]: (undefined)"


def test_format_path_matches_verist() -> None:
    assert format_path(()) == "(root)"
    assert format_path(("a", "b", 0, "c")) == "a.b[0].c"
    assert format_path((1, "x")) == "[1].x"
    assert format_path(("a", 0, 1)) == "a[0][1]"
    assert format_path(("a.b",)) == "a.b"  # keys are not escaped


def test_format_entry_is_one_line_per_kind() -> None:
    assert format_entry(DiffEntry(("a",), MISSING, [1])) == "+ a: [1]"
    assert format_entry(DiffEntry(("a",), {"k": None}, MISSING)) == '- a: {"k":null}'
    assert format_entry(DiffEntry((), "x", 1)) == '  (root): "x" → 1'


# --- key_by -------------------------------------------------------------------------------


def keyed_diff(before: Any, after: Any, paths: dict[str, Any]) -> DiffResult:
    return diff(key_by(before, paths), key_by(after, paths))


def test_key_by_makes_a_reordered_array_equal() -> None:
    before = {"entities": [{"id": "e1", "text": "John"}, {"id": "e2", "text": "Acme"}]}
    after = {"entities": [{"id": "e2", "text": "Acme"}, {"id": "e1", "text": "John"}]}
    assert not diff(before, after).equal
    assert keyed_diff(before, after, {"entities": "id"}).equal


def test_key_by_reports_changes_by_identity() -> None:
    before = {"entities": [{"id": "e1", "confidence": 0.9}, {"id": "e2", "confidence": 0.8}]}
    after = {"entities": [{"id": "e2", "confidence": 0.7}, {"id": "e1", "confidence": 0.9}]}
    assert keyed_diff(before, after, {"entities": "id"}).entries == (
        DiffEntry(("entities", "e2", "confidence"), 0.8, 0.7),
    )


def test_key_by_added_and_removed_elements() -> None:
    one = {"entities": [{"id": "e1", "text": "A"}]}
    two = {"entities": [{"id": "e1", "text": "A"}, {"id": "e2", "text": "B"}]}
    assert keyed_diff(one, two, {"entities": "id"}).entries == (
        DiffEntry(("entities", "e2"), MISSING, {"id": "e2", "text": "B"}),
    )
    assert keyed_diff(
        two, {"entities": [{"id": "e2", "text": "B"}]}, {"entities": "id"}
    ).entries == (DiffEntry(("entities", "e1"), {"id": "e1", "text": "A"}, MISSING),)


def test_key_by_nested_dot_path_and_key_functions() -> None:
    before = {"results": {"claims": [{"claimId": "c1", "text": "X"}]}}
    after = {"results": {"claims": [{"claimId": "c1", "text": "Y"}]}}
    assert keyed_diff(before, after, {"results.claims": "claimId"}).entries == (
        DiffEntry(("results", "claims", "c1", "text"), "X", "Y"),
    )
    items_a = {"items": [{"s": "A", "n": 1}, {"s": "B", "n": 2}]}
    items_b = {"items": [{"s": "B", "n": 2}, {"s": "A", "n": 1}]}
    assert keyed_diff(items_a, items_b, {"items": lambda i: f"{i['s']}:{i['n']}"}).equal
    numbered = {"items": [{"idx": 10}, {"idx": 20}]}
    assert key_by(numbered, {"items": lambda i: i["idx"]}) == {
        "items": {"10": {"idx": 10}, "20": {"idx": 20}}
    }
    # Numbers become keys the JavaScript way: String(1.0) is "1".
    assert key_by({"items": [{"k": 1.0}]}, {"items": "k"}) == {"items": {"1": {"k": 1.0}}}


def test_key_by_errors_use_verist_messages() -> None:
    duplicate = {"entities": [{"id": "e1", "text": "A"}, {"id": "e1", "text": "B"}]}
    with pytest.raises(DiffError, match=r'^keyBy: duplicate key "e1" in entities$'):
        key_by(duplicate, {"entities": "id"})
    no_field = {"entities": [{"id": "e1"}, {"name": "no-id"}]}
    with pytest.raises(DiffError, match=r'^keyBy: element at entities\[1\] has no field "id"$'):
        key_by(no_field, {"entities": "id"})
    with pytest.raises(DiffError, match=r"^keyBy: key must be string or number, got object$"):
        key_by({"items": [{"data": {"nested": True}}]}, {"items": lambda i: i["data"]})
    with pytest.raises(DiffError, match=r"got boolean$"):
        key_by({"items": [{"id": True}]}, {"items": "id"})
    with pytest.raises(DiffError, match=r"got object$"):  # typeof null
        key_by({"items": [{"id": None}]}, {"items": "id"})
    with pytest.raises(DiffError, match=r"element at items\[0\] has no field"):
        key_by({"items": ["scalar"]}, {"items": "id"})


def test_key_by_skips_paths_that_do_not_resolve() -> None:
    assert key_by({"other": "data"}, {"entities": "id"}) == {"other": "data"}
    assert key_by({"entities": "not-an-array"}, {"entities": "id"}) == {"entities": "not-an-array"}
    assert key_by({"results": "string"}, {"results.claims": "id"}) == {"results": "string"}
    value = {"entities": [{"id": "e1"}]}
    assert key_by(value, {}) is value
    assert key_by([{"id": 1}], {"": "id"}) == [{"id": 1}]  # the root must be an object


def test_key_by_does_not_mutate_its_input() -> None:
    value = {"a": {"list": [{"id": "x"}], "other": 1}}
    snapshot = copy.deepcopy(value)
    keyed = key_by(value, {"a.list": "id"})
    assert value == snapshot
    assert keyed == {"a": {"list": {"x": {"id": "x"}}, "other": 1}}


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
