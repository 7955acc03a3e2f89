"""A file the debugger's list could not read at all has no intent to show: its row's
intent column said "Cannot r…" (the loader's message, cut); the reason is the verdict's."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.intentusnet_world import RealWorld
from tests.tui.app_support import list_lines, make_app, settle


async def test_an_unreadable_file_shows_a_dash_for_its_intent(
    real_world: RealWorld, tmp_path: Path
) -> None:
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    os.mkfifo(records / "5a000001-0000-4000-8000-000000000000.json")
    (records / "notjson.json").write_text("{not json")  # broken, not unread: says what
    app = make_app(records)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rows = {line.split()[0]: line for line in list_lines(app) if line.strip()}
    fifo = rows["5a000001"]
    assert fifo.rstrip().endswith(" -") and "Named" not in fifo, fifo
    assert "Summarize" in rows[real_world.success[:8]]
    assert "Not a readable r…" in rows["notjson"]
