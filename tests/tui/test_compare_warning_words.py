"""The comparison's short warning about untrusted sides, on a narrow screen: each side's
reason is begun in whole words or not at all. At 40 columns it read "A: the env… · B:
the rec…" (cut mid-word), where one word fits in the room of each; now "A: the… · B: the
record…", and a reason whose first word does not fit is not begun ("A: …" said nothing).
The side is named first, as ever."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.intentusnet_world import RealWorld
from tests.tui.app_support import flat, screen_lines
from tests.tui.untrusted_pair import EDITED_WHY, ENVELOPE_WHY, comparing_the_pair


def _begun_in_whole_words(said: str, reason: str) -> bool:
    """``said`` is ``reason``'s first words, whole, then "…"."""
    begun = said.removesuffix("…")
    return reason.startswith(begun) and reason[len(begun)] == " " and begun.strip() != ""


@pytest.mark.parametrize("width", [40, 50, 80])
async def test_each_reason_is_begun_in_whole_words_or_not_at_all(
    tmp_path: Path, real_world: RealWorld, width: int
) -> None:
    async with comparing_the_pair(tmp_path, real_world, (width, 24)) as (app, _):
        shown = flat(screen_lines(app))
        start = shown.index("⚠ A and B are untrusted (tampered)")
        warning = shown[start : shown.index(" records · ", start)]
        assert "A: …" not in warning and "B: …" not in warning
        for side, why in (("A", ENVELOPE_WHY), ("B", EDITED_WHY)):
            said = re.search(rf"{side}: (.*?…)", warning)
            assert said is None or _begun_in_whole_words(said.group(1), why), warning


@pytest.mark.parametrize("width", [40, 42, 44, 46])
async def test_the_short_warning_ends_in_its_key_where_the_screen_scrolls(
    tmp_path: Path, real_world: RealWorld, width: int
) -> None:
    """The screen scrolls at 24 rows, its scrollbar taking two columns: the warning was
    measured at the whole width and its last words came out "w: in…", the key unsaid."""
    async with comparing_the_pair(tmp_path, real_world, (width, 24)) as (app, _):
        lines = screen_lines(app)
        shown = flat(lines)
        assert "w: in full" in shown, lines
        assert not any(line.strip() == "·" for line in lines), lines


@pytest.mark.parametrize("width", range(40, 61, 2))
async def test_no_warning_row_ends_with_a_side_s_name(
    tmp_path: Path, real_world: RealWorld, width: int
) -> None:
    """At 44x24 the short warning ended a row "(tampered) · A:" and began the next "the… ·
    B: …", the side's name apart from its reason: a name stays with its reason's first
    word, a "·" with the word before it."""
    async with comparing_the_pair(tmp_path, real_world, (width, 24)) as (app, _):
        region = app.screen.query_one("#compare-warning").region
        rows = [line.strip() for line in screen_lines(app)[region.y : region.bottom]]
        assert "w: in full" in flat(rows), rows
        for row in rows:
            assert not row.endswith(("A:", "B:", "w:")), rows
            assert not row.startswith("·"), rows
