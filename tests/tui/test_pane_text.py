"""The side pane's lines: a value wraps under itself, and an id breaks at its hyphens."""

from __future__ import annotations

from textual.content import Content

from intentus_tui.tui.widgets.pane_text import (
    badge,
    heading,
    join_lines,
    plain,
    row,
    unbroken,
    wrap_lines,
)

UUID = "65587ebf-e838-467e-8eb6-a712b3915d38"


def _wrapped(value: str, width: int) -> list[str]:
    return [line.plain for line in wrap_lines([row("Execution", value)], width)]


def _bodies(value: str, width: int) -> list[str]:
    """The value's lines without the label column (18 wide)."""
    return [line[18:] for line in _wrapped(value, width)]


def test_an_id_too_long_for_its_column_breaks_after_a_hyphen() -> None:
    # 80 columns, two panes: 22 columns beside the label (it broke as "…-8eb" "6-a7…").
    assert _wrapped(UUID, 40) == [
        "  Execution       65587ebf-e838-467e-",
        "                  8eb6-a712b3915d38",
    ]
    assert "".join(_bodies(UUID, 40)) == UUID


def test_a_value_that_fits_or_has_spaces_wraps_as_before() -> None:
    assert _wrapped(UUID, 80) == [f"  Execution       {UUID}"]
    text = "no record file was written - there is no recorded response"
    expected = [line.plain for line in Content(text).wrap(22)]
    assert [line.rstrip() for line in _bodies(text, 40)] == [line.rstrip() for line in expected]


def test_a_word_too_long_beside_its_label_starts_under_it_at_the_left_edge() -> None:
    # "05T09:07:03.693000+00:00" is 24 > 22 beside the label: it read "…07:03.69" "3000…".
    stamp = "2026-01-05T09:07:03.693000+00:00"
    assert _wrapped(stamp, 40) == ["  Execution", stamp]
    # the words after it follow it, then hang under the value again
    assert _wrapped(f"no ({stamp}) and then more words here", 40) == [
        "  Execution       no",
        f"({stamp}) and",
        "                  then more words here",
    ]


def test_a_heading_s_badge_and_note_wrap_beside_the_title_not_under_it() -> None:
    # The Post-mortem tab's verdict at 80 columns: the note went back to the left edge.
    verdict = heading("Verdict", badge("⚠ UNTRUSTED", "error"), "TAMPERED · not replayable")
    assert [line.plain for line in wrap_lines([verdict], 40)] == [
        "Verdict   ⚠ UNTRUSTED   TAMPERED · not",
        "         replayable",
    ]
    assert [line.plain for line in wrap_lines([heading("Recovery")], 40)] == ["Recovery"]


def test_words_kept_together_move_to_the_next_line_whole_and_show_plain_spaces() -> None:
    # The Post-mortem's answers at 80x24 wrapped as "unverifiable · ✗ no" / "(record_corrupted)".
    line = plain("unverifiable · " + unbroken("✗ no (record_corrupted)"), "red")
    assert [x.plain for x in wrap_lines([line], 36)] == [
        "  unverifiable ·",
        "  ✗ no (record_corrupted)",
    ]
    assert [x.plain for x in wrap_lines([line], 60)] == ["  unverifiable · ✗ no (record_corrupted)"]
    assert join_lines([line]).plain == "  unverifiable · ✗ no (record_corrupted)"
    # the style stays on the words it was on, and a piece longer than the room folds
    # between its words (it read "✗ no (record_corru" over "pted)")
    assert wrap_lines([line], 36)[1].spans[0].style == "red"
    for width in (20, 24):
        assert [x.plain for x in wrap_lines([line], width)] == [
            "  unverifiable ·",
            "  ✗ no",
            "  (record_corrupted)",
        ]
    assert wrap_lines([line], 20)[2].spans[0].style == "red"
