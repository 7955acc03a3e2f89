"""key_by (Verist's normalizeForDiff): arrays compared by an element key."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from intentus_tui.core.verist.diff import DiffEntry, DiffError, DiffResult, diff
from intentus_tui.core.verist.key_by import key_by
from intentus_tui.core.verist.missing import MISSING


def entries(before: Any, after: Any) -> list[tuple[tuple[Any, ...], Any, Any]]:
    return [(e.path, e.before, e.after) for e in diff(before, after).entries]


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
