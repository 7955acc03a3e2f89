"""The help's text wraps to the width it is shown at, each meaning under its own column."""

from __future__ import annotations

from rich.cells import cell_len
from textual.binding import Binding

from intentus_tui.tui.screens.help import help_content


def _help(width: int) -> list[str]:
    bindings = [
        Binding("r", "replay", "Replay the recorded final response", id="replay"),
        Binding("question_mark", "help", "Every key, and what the list's marks mean"),
    ]
    legend = [("Outcome", [("✗ failed", "the final response (or the log) says it failed")])]
    text = help_content(
        [("List", bindings)],
        {},
        lambda key: key.replace("question_mark", "?"),
        "Remap keys in a file.",
        legend,
    )
    return text.wrapped(width).plain.splitlines()


def test_unwrapped_it_is_one_line_per_binding_and_mark() -> None:
    lines = _help(200)
    assert any(line.startswith("  r") and line.endswith("replay") for line in lines)
    assert any("✗ failed" in line and line.endswith("says it failed") for line in lines)


def test_narrow_every_line_fits_and_a_wrapped_meaning_hangs_under_its_column() -> None:
    lines = _help(40)
    assert all(cell_len(line) <= 40 for line in lines)
    first = next(n for n, line in enumerate(lines) if "✗ failed" in line)
    column = lines[first].index("the final")
    assert lines[first + 1][:column].strip() == "" and lines[first + 1][column] != " "
    key = next(n for n, line in enumerate(lines) if line.startswith("  ?"))
    column = lines[key].index("Every key")
    assert lines[key + 1][:column].strip() == "" and lines[key + 1][column] != " "


def test_too_narrow_for_a_column_a_meaning_wraps_under_its_mark() -> None:
    lines = _help(30)  # 24 cells of mark leave no room beside it: no hanging indent
    assert all(cell_len(line) <= 30 for line in lines)
    assert any(line.startswith("    ✗ failed") for line in lines)
