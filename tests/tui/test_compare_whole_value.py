"""The comparison's line under its panes shows an object or an array whole, on one line."""

from __future__ import annotations

from intentus_tui.core.compare.aligned import SideRow
from intentus_tui.tui.presenters.compare_text import span_state, value_span, whole_value_line

EVENT = ("events", 1)
# Each line with its path, as the values view makes them: a value's own first and last
# lines have its path, each line inside a longer one.
LINES = [
    ("{", EVENT),
    ('  "seq": 2', (*EVENT, "seq")),
    ('  "payload": {', (*EVENT, "payload")),
    ('    "agent": "translator-deepl"', (*EVENT, "payload", "agent")),
    ('    "tags": [', (*EVENT, "payload", "tags")),
    ('      "a"', (*EVENT, "payload", "tags", 0)),
    ('      "b"', (*EVENT, "payload", "tags", 1)),
    ("    ]", (*EVENT, "payload", "tags")),
    ("  }", (*EVENT, "payload")),
    ("}", EVENT),
]


def _rows(lines: list[tuple[str, tuple[str | int, ...]]], side: str = "a") -> list[SideRow]:
    if side == "a":
        return [SideRow(line, None, "removed", path) for line, path in lines]
    return [SideRow(None, line, "added", path) for line, path in lines]


def test_an_opening_or_closing_line_shows_the_value_whole() -> None:
    whole = '{"seq": 2, "payload": {"agent": "translator-deepl", "tags": ["a", "b"]}}'
    rows = _rows(LINES)
    assert whole_value_line(rows, 0, "a", 200) == whole
    assert whole_value_line(rows, len(LINES) - 1, "a", 200) == whole
    inner = '"payload": {"agent": "translator-deepl", "tags": ["a", "b"]}'
    assert whole_value_line(rows, 2, "a", 200) == inner
    assert whole_value_line(rows, 8, "a", 200) == inner
    assert whole_value_line(rows, 7, "a", 200) == '"tags": ["a", "b"]'


def test_a_line_that_is_its_own_value_or_a_gap_is_left_as_it_is() -> None:
    rows = _rows(LINES)
    assert whole_value_line(rows, 1, "a", 200) is None  # "seq": 2
    assert whole_value_line(rows, 0, "b", 200) is None  # nothing on B's side
    cut = [SideRow('  "text": "{' + "x" * 10 + "…", None, "removed")]
    assert whole_value_line(cut, 0, "a", 200) is None


def test_a_long_value_is_cut_to_the_width_with_an_ellipsis() -> None:
    rows = _rows(LINES, "b")
    line = whole_value_line(rows, 0, "b", 20)
    assert line == '{"seq": 2, "payload…'
    assert len(line) == 20


def test_the_other_sides_lines_and_gaps_between_are_skipped() -> None:
    rows = [
        SideRow('  "x": {', '  "x": {', "same", ("x",)),
        SideRow('    "old": 1', None, "removed", ("x", "old")),
        SideRow(None, '    "new": 2', "added", ("x", "new")),
        SideRow("  }", "  }", "same", ("x",)),
    ]
    assert whole_value_line(rows, 0, "a", 80) == '"x": {"old": 1}'
    assert whole_value_line(rows, 3, "b", 80) == '"x": {"new": 2}'


def test_a_value_s_rows_run_from_its_first_line_to_its_last() -> None:
    rows = [
        SideRow("{", "{", "same", ("e",)),
        SideRow('  "a": 1', '  "a": 2', "changed", ("e", "a")),
        SideRow('  "t": 1', '  "t": 2', "changed", ("e", "t"), hidden=True),
        SideRow("}", "}", "same", ("e",)),
    ]
    assert value_span(rows, 0) == range(0, 4)
    assert value_span(rows, 3) == range(0, 4)
    assert value_span(rows, 1) is None
    assert span_state(rows, range(0, 4), rules_on=True) == "changed"
    assert span_state(rows, range(2, 4), rules_on=True) == "hidden"
    assert span_state(rows, range(2, 4), rules_on=False) == "changed"
    assert span_state(rows, range(3, 4), rules_on=True) == "same"
