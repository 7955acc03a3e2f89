"""The comparison's two titles: side by side only when each fits its half on one line, its
verdict in words; else one above the other, each the whole width. Between 120 and 149
columns a long title was kept side by side and wrapped inside its verdict ("✗" on one
line, "no (untrusted)" on the next)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.compare.operands import Operand, file_operand, record_operand
from intentus_tui.core.model import Integrity, Outcome, ReplayCode, Verdict
from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record
from intentus_tui.tui.comparing import ComparisonLauncher
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.tui.side_pane_harness import good_record

CHAIN_BROKEN = Verdict(Outcome.SUCCEEDED, "", Integrity.CHAIN_BROKEN, "", ReplayCode.UNTRUSTED, "")
VERIFIED = Verdict(Outcome.SUCCEEDED, "", Integrity.VERIFIED, "", ReplayCode.REPLAYABLE, "")
LONG_VERDICT = "⚠ untrusted · chain broken · ✗ no (untrusted)"
SHORT_VERDICT = "✓ succeeded · verified · ↺ yes"


class _TitlesApp(ComparisonLauncher):
    def __init__(self, a: Operand, b: Operand) -> None:
        super().__init__()
        self.a, self.b = a, b

    def on_mount(self) -> None:
        self.open_comparison(self.a, self.b)


def _side(tmp_path: Path, ident: str, verdict: Verdict) -> Operand:
    record = good_record(ident)
    return record_operand(ident, record, path=tmp_path / f"{ident}.json", verdict=verdict)


PAIRS = {
    # As the demo's exec-3580bf82 (its log's chain broken) beside exec-25576d2f.
    "long-short": (("exec-3580bf82", CHAIN_BROKEN), ("exec-25576d2f", VERIFIED)),
    "long-long": (("exec-3580bf82", CHAIN_BROKEN), ("exec-3580bf83", CHAIN_BROKEN)),
    "short-short": (("exec-25576d2f", VERIFIED), ("exec-25576d30", VERIFIED)),
}
# Where the two stand one above the other; side by side at every other width.
STACKED = {"long-short": {120}, "long-long": {120}, "short-short": set()}


@pytest.mark.parametrize("width", [120, 135, 149, 150, 200])
@pytest.mark.parametrize("pair", list(PAIRS))
async def test_titles_side_by_side_only_when_each_fits_its_half_on_one_line(
    tmp_path: Path, pair: str, width: int
) -> None:
    (id_a, verdict_a), (id_b, verdict_b) = PAIRS[pair]
    app = _TitlesApp(_side(tmp_path, id_a, verdict_a), _side(tmp_path, id_b, verdict_b))
    async with app.run_test(size=(width, 36)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        sides: list[Any] = [screen.query_one("#side-a"), screen.query_one("#side-b")]
        for side, ident, verdict in zip(sides, (id_a, id_b), (verdict_a, verdict_b), strict=True):
            text = str(side.render())
            words = LONG_VERDICT if verdict is CHAIN_BROKEN else SHORT_VERDICT
            assert ident in text and text.endswith(words), text
            assert side.size.height == 1, (text, side.size)  # never wrapped
        a, b = sides
        if width in STACKED[pair]:
            assert b.region.y == a.region.y + 1 and a.region.width == b.region.width == width
        else:
            assert a.region.y == b.region.y and a.region.right <= b.region.x


async def test_a_snapshot_named_whole_stacks_the_titles_rather_than_cut_its_name(
    tmp_path: Path,
) -> None:
    """A snapshot the ``s`` key saved (``exec-2e05319a-2bd4be78.json``) beside its record at
    120 columns: B's title stood side by side cut to ``snapshot exec-2e05319a-2bd4be78.…``,
    the file's end and its workflow and step lost, though one above the other it fits
    whole. A name cut to fit a half is no reason to stay side by side."""
    ident = "exec-2e05319a"
    record = good_record(ident, intent="TranslateText")  # the demo's: 60 cells, a half 58
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    saved = save_snapshot(snapshot_from_record(record), snapshots / f"{ident}-2bd4be78.json")
    a = _side(tmp_path, ident, VERIFIED)
    b = file_operand(saved.name, saved, prefer="snapshot")
    whole = f"snapshot {saved.name} · {b.describe()['workflow_id']}/"
    app = _TitlesApp(a, b)
    async with app.run_test(size=(120, 36)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        side_a, side_b = screen.query_one("#side-a"), screen.query_one("#side-b")
        text = str(side_b.render())
        assert text.startswith(f"B {whole}") and "…" not in text, text
        assert side_b.size.height == 1, (text, side_b.size)
        assert str(side_a.render()).endswith(SHORT_VERDICT)


@pytest.mark.parametrize("width", [80, 60])
async def test_at_80_columns_a_snapshots_title_keeps_the_end_of_its_name(
    tmp_path: Path, width: int
) -> None:
    """The `s` key names a snapshot after its execution's UUID and a hash of its own
    (`7809d8ed-7dba-…-34a79d21fd56-592f95c2.json`). At 80 columns B's title was cut at its
    end, `B snapshot 7809d8ed-7dba-4ec5-93f4…`: every snapshot of that execution read the
    same. Its whole name when it fits the line (without its workflow and step), else cut
    in its middle, its end kept, as the picker lists it."""
    ident = "7809d8ed-7dba-4ec5-93f4-34a79d21fd56"
    record = good_record(ident)
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    saved = save_snapshot(snapshot_from_record(record), snapshots / f"{ident}-592f95c2.json")
    a = _side(tmp_path, ident, VERIFIED)
    b = file_operand(saved.name, saved, prefer="snapshot")
    app = _TitlesApp(a, b)
    async with app.run_test(size=(width, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        text = str(screen.query_one("#side-b").render())
    if width == 80:
        assert text.startswith(f"B snapshot {saved.name}"), text
    assert text.rstrip().endswith("-592f95c2.json"), text
