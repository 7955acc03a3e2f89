"""Both sides untrusted for different reasons, compared full screen at 80x24: the warning
was cut after four rows ("…"), B's reason partly lost, and took rows from the values. It
now takes two rows there, each side's reason begun and ``w`` said for the whole; ``w``
gives the whole (the timeline's rows lent to it), ``w`` again the short form."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import flat, make_app, mark_and_compare, screen_lines, settle

TAMPERED = "aaaaaaaa-tamp-4e10-9904-3c4ce275832d"
EDITED = "0f0f0f0f-edit-4e10-9904-3c4ce275832d"
ENVELOPE_WHY = "the envelope does not hash to the recorded envelopeHash"
EDITED_WHY = "the record contradicts itself: finalResponse differs from the FINAL_RESPONSE event"


def _pair(records: Path, source: str) -> None:
    record = json.loads((records / f"{source}.json").read_text())
    tampered = json.loads(json.dumps(record))
    tampered["header"]["executionId"] = TAMPERED
    tampered["envelope"]["payload"] = {"text": "changed"}  # its envelopeHash kept
    (records / f"{TAMPERED}.json").write_text(json.dumps(tampered, indent=2))
    edited = json.loads(json.dumps(record))
    edited["header"]["executionId"] = EDITED
    edited["finalResponse"]["metadata"]["agent"] = "someone-else"
    (records / f"{EDITED}.json").write_text(json.dumps(edited, indent=2))


async def test_both_reasons_begun_in_two_rows_and_whole_on_w(
    tmp_path: Path, real_world: RealWorld
) -> None:
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    _pair(records, real_world.success)
    app = make_app(records)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{TAMPERED}.json", f"{EDITED}.json")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        lines = screen_lines(app)
        shown = flat(lines)
        assert "A and B are untrusted (tampered)" in shown
        assert "A: the envelope does not hash" in shown
        assert "B: the record contradicts itself: finalResponse" in shown
        assert "w: in full" in shown
        warning_rows = [i for i, line in enumerate(lines) if "untrusted (tampered)" in line]
        assert warning_rows and "w: in full" in lines[warning_rows[0] + 1]  # two rows
        values_before = screen.values.size.height
        assert values_before >= 7  # a header and six lines of values (five before)
        await pilot.press("w")
        await settle(pilot)
        whole = flat(screen_lines(app))
        assert ENVELOPE_WHY in whole and EDITED_WHY in whole
        assert "edited after recording?) · w: shorter" in whole
        assert screen.values.size.height >= values_before  # the timeline's rows lent
        await pilot.press("w")
        await settle(pilot)
        assert "w: in full" in flat(screen_lines(app))
        assert "#1 INTENT_RECEIVED" in flat(screen_lines(app))  # the timeline back


async def test_a_tall_screen_gives_the_warning_whole(tmp_path: Path, real_world: RealWorld) -> None:
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    _pair(records, real_world.success)
    app = make_app(records)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{TAMPERED}.json", f"{EDITED}.json")
        await settle(pilot)
        shown = flat(screen_lines(app))
        assert ENVELOPE_WHY in shown and EDITED_WHY in shown
        assert "w: in full" not in shown
