"""Verist's text form of a diff: paths, values and lines."""

from __future__ import annotations

from intentus_tui.core.verist.diff import DiffEntry, diff
from intentus_tui.core.verist.format import format_diff, format_entry, format_path
from intentus_tui.core.verist.missing import MISSING

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
