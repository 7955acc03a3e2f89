"""The comparison's short warning about untrusted sides, on a narrow screen: each side's
reason is begun in whole words or not at all. At 40 columns it read "A: the env… · B:
the rec…" (cut mid-word), where one word fits in the room of each; now "A: the… · B: the
record…", and a reason whose first word does not fit is not begun ("A: …" said nothing).
The side is named first, as ever. The screen was opened at each width; a sweep of every
width now resizes one comparison (a fresh one per width cost half a second each)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from intentus_tui.tui.app import IntentusApp
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import flat, screen_lines, settle
from tests.tui.untrusted_pair import EDITED_WHY, ENVELOPE_WHY, comparing_the_pair


def _begun_in_whole_words(said: str, reason: str) -> bool:
    """``said`` is ``reason``'s first words, whole (a colon or comma after the last may be
    left out), then "…"."""
    begun = said.removesuffix("…")
    return reason.startswith(begun) and reason[len(begun)] in " :;," and begun.strip() != ""


def _warning_faults(app: IntentusApp) -> list[str]:
    """What is wrong with the comparison's warning as the screen shows it now (nothing,
    an empty list): each side's reason begun in whole words or not at all; the key to the
    full warning said whole ("w: in full", where the screen scrolls at 24 rows, its
    scrollbar taking two columns, it came out "w: in…"); no row ending in a side's name
    (at 44x24 a row ended "(tampered) · A:", the next began "the… · B: …") or a key's, no
    "·" beginning a row or alone on one."""
    lines = screen_lines(app)
    shown = flat(lines)
    faults = []
    start = shown.index("⚠ A and B are untrusted (tampered)")
    warning = shown[start : shown.index(" records · ", start)]
    if "A: …" in warning or "B: …" in warning:
        faults.append(f"a reason not begun: {warning}")
    for side, why in (("A", ENVELOPE_WHY), ("B", EDITED_WHY)):
        said = re.search(rf"{side}: (.*?…)", warning)
        if said is not None and not _begun_in_whole_words(said.group(1), why):
            faults.append(f"{side}'s reason cut in a word: {warning}")
    region = app.screen.query_one("#compare-warning").region
    rows = [line.strip() for line in lines[region.y : region.bottom]]
    if "w: in full" not in flat(rows):
        faults.append(f"the key unsaid: {rows}")
    faults += [f"a row ends in a name: {row}" for row in rows if row.endswith(("A:", "B:", "w:"))]
    faults += [f"a row begins with a separator: {row}" for row in rows if row.startswith("·")]
    faults += [f"a separator alone: {lines}" for line in lines if line.strip() == "·"]
    return faults


@pytest.mark.parametrize("width", [40, 44, 80])
async def test_the_warning_keeps_its_words_when_opened_narrow(
    tmp_path: Path, real_world: RealWorld, width: int
) -> None:
    """The comparison opened at ``width``x24."""
    async with comparing_the_pair(tmp_path, real_world, (width, 24)) as (app, _):
        assert not _warning_faults(app)


async def test_the_warning_keeps_its_words_at_every_width(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """The comparison opened at 80x24, then the terminal made narrower a column at a time
    down to 40 (the warning is fitted again at each width)."""
    async with comparing_the_pair(tmp_path, real_world, (80, 24)) as (app, pilot):
        faults = {}
        for width in range(79, 39, -1):
            await pilot.resize_terminal(width, 24)
            await settle(pilot)
            assert app.size.width == width
            if found := _warning_faults(app):
                faults[width] = found
        assert not faults, faults
