"""The command palette's hits say their verdicts in one form per list: at 80 columns a
long id's hit said ``⚠ #! ✗`` and a short id's, just under it, ``⚠ untrusted · tampered
· ✗ no (untrusted)``: the same verdict read as two."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.tui.commands import ExecutionCommands
from tests.factories import write_record
from tests.tui.app_support import make_app, settle
from tests.tui.side_pane_harness import tampered_record

LONG_ID = "616499c9-e25a-4605-aec6-f0245bd86d40"
SHORT_ID = "exec-3580bf82"
MARKS = "⚠ #! ✗"
WORDS = "⚠ untrusted · tampered · ✗ no (untrusted)"


async def _shown(records: Path, query: str) -> list[str]:
    app = make_app(records)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        provider = ExecutionCommands(app.screen)
        return [str(hit.prompt) async for hit in provider.search(query)]


async def test_every_hit_of_a_list_says_its_verdict_in_one_form(tmp_path: Path) -> None:
    records = tmp_path / "records"
    for execution_id in (LONG_ID, SHORT_ID):
        write_record(records, tampered_record(execution_id))
    shown = await _shown(records, "untrusted")
    assert len(shown) == 2, shown
    assert all(hit.endswith(MARKS) for hit in shown), shown  # the long id's needs the marks
    # Alone in its list, the short id's hit has room for the words.
    (alone,) = await _shown(records, SHORT_ID)
    assert alone.endswith(WORDS), alone
