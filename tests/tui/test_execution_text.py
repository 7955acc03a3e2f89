"""The text the dialogs and panes say about one execution (``presenters.execution_text``)."""

from __future__ import annotations

from intentus_tui.core.records.replay import EXECUTION_INCOMPLETE
from intentus_tui.tui.presenters.execution_text import clip, explain_reason
from intentus_tui.tui.widgets.pane_text import safe


def test_clip_cuts_huge_text_and_says_how_much_is_left_out() -> None:
    assert clip("x" * 310) == "x" * 300 + "… (10 more characters)"
    assert clip("short") == "short"


def test_clip_makes_escape_sequences_inert() -> None:
    shown = clip("id\x1b[31mred\x07")
    assert "\x1b" not in shown and "\x07" not in shown and "red" in shown


def test_pane_values_are_clipped_the_same_way_with_their_own_limit() -> None:
    assert safe("y" * 700) == clip("y" * 700, 600)
    assert safe(12) == "12"


def test_explain_reason_says_what_a_documented_reason_means() -> None:
    assert explain_reason(EXECUTION_INCOMPLETE).startswith(
        "execution_incomplete — no final response"
    )
    unknown = explain_reason("made_up\x1b")  # shown as recorded, made inert
    assert unknown.startswith("made_up") and "\x1b" not in unknown and "—" not in unknown
    assert explain_reason(None) == "no reason recorded"
