"""A record IntentusNet 1.3.0 cut short writing its error response, in the Verify and
Replay tabs: its hash match is of the envelope that survived, and a refused replay says
the file is cut short (not "damaged, not a record, or a malformed record")."""

from __future__ import annotations

from intentus_tui.core.detail import load_detail
from tests.intentusnet_world import RealWorld
from tests.tui.side_pane_harness import SidePaneApp, finish_workers, refused_replay


async def test_the_tabs_say_it_cut_short(real_world: RealWorld) -> None:
    app = SidePaneApp(
        load_detail(real_world.records_dir / f"{real_world.error_truncated}.json"), tab="verify"
    )
    async with app.run_test(size=(100, 60)) as pilot:
        await finish_workers(pilot)
        verify = " ".join(app.side.verify_pane.text.split())
        assert "Envelope hash matches (of the envelope that survived; the file is cut short)" in (
            verify
        )
        app.side.show_tab("replay")
        refused = " ".join((await refused_replay(pilot)).split())
        assert "The file is cut short: only what was written before its end could be read" in (
            refused
        )
        assert "damaged, not a record, or a malformed record" not in refused
