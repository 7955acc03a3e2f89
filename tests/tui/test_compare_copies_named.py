"""A copy of a record compared with its original (``ID.copy.json`` beside ``ID.json``, one
id): wherever the comparison names its sides, A and B are told apart by their files."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.intentusnet_world import build_real_world, with_a_copy
from tests.tui.app_support import make_app, mark_and_compare, screen_lines, settle


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """Real 1.3.0 records with a copy of the successful one beside it: the directory,
    the copy's file name and the original's."""
    base = tmp_path_factory.mktemp("copies")
    world = build_real_world(base / "real")
    records = base / "records"
    copy = with_a_copy(world, records)
    return records, copy, f"{world.success}.json"


def _diff_header(lines: list[str]) -> tuple[str, str]:
    """The Diff tab's A and B column headers as shown (``− A …``, ``+ B …``)."""
    (header,) = [line for line in lines if "− A " in line and "+ B " in line]
    after_a = header.split("− A ", 1)[1]
    a, _, b = after_a.partition("+ B ")
    return a.split("│")[0].strip(), b.split("│")[0].strip()


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_a_copy_and_its_original_are_named_by_their_files(
    copied: tuple[Path, str, str], size: tuple[int, int]
) -> None:
    """At 80x24 the comparison's title named the copy by its file and the original by its
    id alone (its file's name, which repeats the id, was the first thing dropped to fit),
    and the Diff tab's column headers read ``− A 10f1b8…`` and ``+ B 10f1b8…``: the same.
    Now each title ends with its file's name, as the list's row cuts it where the whole
    does not fit, and the headers show where the two names differ."""
    records, copy, original = copied
    app = make_app(records)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, copy, original)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        titles = [str(screen.query_one(f"#side-{s}", Static).content) for s in "ab"]
        # the copy's end and the original's: ".copy.json" against "<end of the id>.json"
        assert ".copy.json" in titles[0], titles
        assert original[-10:] in titles[1], titles
        assert ".copy.json" not in titles[1], titles
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("3")  # the Diff tab
        await settle(pilot)
        a, b = _diff_header(screen_lines(app))
    assert a != b, (a, b)
    assert "copy" in a and "copy" not in b, (a, b)


def _pane_text(line: str) -> str:
    """What a screen line shows inside the side pane (the right-hand box)."""
    return line.split("││", 1)[1].rstrip("│ ").strip() if "││" in line else ""


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_diff_tabs_title_never_breaks_a_file_name(
    copied: tuple[Path, str, str], size: tuple[int, int]
) -> None:
    """At 80x24 the Diff tab's title read ``A:``, then ``…-b21b9b9b2d23.cop`` and ``y.json``
    on the next row: the copy's name broken mid-word. Each side's name now stands on its
    ``A:``/``B:`` row, cut in its middle where the pane is too narrow, its end kept."""
    records, copy, original = copied
    app = make_app(records)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, copy, original)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("3")  # the Diff tab
        await settle(pilot)
        shown = [_pane_text(line) for line in screen_lines(app)]
    (a,) = [line for line in shown if line.startswith("A:")]
    (b,) = [line for line in shown if line.startswith("B:")]
    assert a.endswith(".copy.json") and a[3:11] == copy[:8], shown
    assert b.endswith(original[-10:]) and b[3:11] == original[:8], shown
    if size[0] >= 120:  # room for the whole names
        assert (a, b) == (f"A: {copy}", f"B: {original}")
    assert not any(line in ("y.json", "n", "json") for line in shown), shown
