"""The verdict in one line (a short timeline pane, the command palette's hits) says its
answers in the words of the Verify tab and the timeline's verdict lines where they fit,
and as the list's columns abbreviate them only where they do not."""

from __future__ import annotations

import pytest

from intentus_tui.tui.commands import ExecutionCommands
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import make_app, screen_text, settle

WORDS = "✓ succeeded · verified · ✗ no (manually_invalidated)"
ABBREVIATED = "✓ succeeded · verified · ✗ operator"


@pytest.mark.parametrize(("size", "said"), [((120, 24), WORDS), ((80, 24), ABBREVIATED)])
async def test_a_short_timeline_pane_says_the_verdict_in_words_where_they_fit(
    real_world: RealWorld, size: tuple[int, int], said: str
) -> None:
    """A real 1.3.0 record an operator invalidated, in a pane too short for the verdict's
    lines: at 120x24 its answers read ``✗ operator`` though ``✗ no (manually_invalidated)``
    fitted the row; at 80x24 they do not fit and are abbreviated."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{real_world.invalidated}.json")
        await settle(pilot)
        shown = screen_text(app)
        assert "outcome   " not in shown  # the short form: no verdict lines
        (line,) = [row for row in shown.splitlines() if "✓ succeeded · verified ·" in row]
        assert f"│ {said} " in line, line


@pytest.mark.parametrize(("width", "said"), [(120, WORDS), (80, "✓ #✓ ✗")])
async def test_a_palette_hit_says_the_verdict_in_words_where_they_fit(
    real_world: RealWorld, width: int, said: str
) -> None:
    """The palette's hit for the invalidated record: its line has room for the verdict's
    words at 120 columns (it said ``✗ operator`` there too); at 80 the id, intent and
    words, or abbreviations, do not fit one line (they wrapped), and the list's marks are
    shown, the reasons in words on the lines under them."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot)
        provider = ExecutionCommands(app.screen)
        (hit,) = [hit async for hit in provider.search(real_world.invalidated[:13])]
        prompt = str(hit.prompt)
        assert prompt.endswith(f"  {said}"), prompt
        assert len(prompt) <= width - 6
