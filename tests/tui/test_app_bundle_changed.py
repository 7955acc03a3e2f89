"""A bundle opened in the debugger whose record changed since it was bundled, its own checks
passing (its envelope edited and its hash made again by IntentusNet 1.3.0's own hasher):
its row, the header's counts, the timeline, the palette, the Verify, Replay and
Post-mortem tabs give it the
one verdict ``verify`` gives it (tampered, changed since it was bundled; not replayable,
untrusted). They showed it verified and replayable; only the header said the bundle
differs from its manifest."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.cli.open import bundle_app
from intentus_tui.core.bundle.read import ExtractedBundle, extract_bundle
from intentus_tui.tui.commands import ExecutionCommands
from intentus_tui.tui.screens.confirm import ConfirmScreen
from intentus_tui.tui.startup.first_rows import preview_summaries
from tests.cli.support import cli
from tests.core.bundle.support import (
    BundleWorld,
    build_bundle_world,
    edit_record,
    forge_envelope,
)
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import (
    WIDE,
    list_lines,
    screen_text,
    settle,
    timeline_summary,
    wait_for,
)

CHANGED = "the record changed since it was bundled: sha256 "


def _row(lines: list[str], execution_id: str) -> str:
    return next(line for line in lines if execution_id[:8] in line)


def _opened(
    real_world: RealWorld, tmp_path: Path, forged: int = 1
) -> tuple[BundleWorld, Path, ExtractedBundle]:
    """A bundle of three executions made by ``bundle`` (the success, the fallback, the
    invalidated one), the first ``forged`` of their records then forged inside it, extracted
    as ``intentus-tui edited.tar.gz`` extracts it: (world, the bundle, its copy)."""
    world = build_bundle_world(real_world, tmp_path / "incident")
    bundle = tmp_path / "evidence.tar.gz"
    ids = (world.success, world.invalidated, world.fallback)
    run = cli("bundle", *ids, "--dir", str(world.base), "-o", str(bundle))
    assert run.returncode == 0, run.stderr
    for n, execution_id in enumerate(ids[:forged]):
        name = f"records/{execution_id}.json"
        bundle = edit_record(bundle, tmp_path / f"edited-{n}.tar.gz", name, forge_envelope)
    copy = tmp_path / "copy"
    copy.mkdir()
    return world, bundle, extract_bundle(bundle, copy)


async def test_a_record_changed_since_it_was_bundled_is_untrusted_on_every_screen(
    real_world: RealWorld, tmp_path: Path
) -> None:
    world, edited, bundle = _opened(real_world, tmp_path)
    app = bundle_app(bundle, str(edited))
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        lines = list_lines(app)
        changed = _row(lines, world.success)
        assert "⚠ untrusted" in changed and "TAMPERED" in changed and "✗ untrust" in changed
        assert "✓ succeeded" in _row(lines, world.fallback)
        assert "verified" in _row(lines, world.fallback)
        text = screen_text(app)
        assert "(1 file differs from its manifest: run verify)" in text.splitlines()[0]
        assert "3 executions · 1 needs attention: 1 untrusted (1 tampered)" in text
        # The failures-first list opens on it.
        assert app.execution_list.selected_key == f"{world.success}.json"
        await wait_for(pilot, lambda: app.detail is not None, "the detail")
        await settle(pilot)
        summary = timeline_summary(app)
        assert f"integrity tampered — {CHANGED}" in summary
        assert "replay    ✗ no (untrusted)" in summary

        # The palette finds it by its verdict's words, with its reasons.
        provider = ExecutionCommands(app.screen)
        found = {hit.text.split()[0]: str(hit.help) async for hit in provider.search("tampered")}
        assert list(found) == [world.success]
        assert f"\nintegrity tampered — {CHANGED}" in found[world.success]

        await pilot.press("1")
        await settle(pilot)
        verify = app.side_pane.verify_pane.text.splitlines()
        assert verify[0].split() == ["Integrity", "TAMPERED"]
        assert verify[1].strip().startswith(CHANGED)
        assert verify[2].split(" — ")[0].split() == ["Outcome", "⚠", "untrusted"]
        assert "cannot be believed: the record claims succeeded" in verify[2]
        assert verify[3].split(" — ")[0].split() == ["Replay", "✗", "no", "(untrusted)"]
        assert any(line.split()[:2] == ["NOT", "TRUSTED"] for line in verify)
        assert ["Envelope", "hash", "MATCH"] in [line.split() for line in verify]  # its own

        await pilot.press("r")
        await settle(pilot)
        pane = app.side_pane.replay_pane
        assert pane.outcome is not None and pane.outcome.kind == "refused"
        assert pane.outcome.reason == "untrusted"
        assert "Reason          untrusted — the record fails its integrity check" in pane.text
        # ... and which check: r said only that, R and the Verify tab what broke
        refused = " ".join(pane.text.split())
        assert "Tampered: the record changed since it was bundled: sha256 " in refused

        await pilot.press("R")  # force replay: allowed, as for any tampered record
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        dialog = app.screen.body_text
        assert "Untrusted record: record changed since it was bundled" in dialog
        await pilot.press("y")
        await settle(pilot)
        assert pane.outcome is not None and pane.outcome.kind == "result"
        assert pane.text.splitlines()[0] == (
            "⚠ REPLAYED FROM AN UNTRUSTED RECORD — record changed since it was bundled: "
            "investigate before using this answer"
        )

        await pilot.press("4")
        await settle(pilot)
        postmortem = " ".join(app.side_pane.postmortem_pane.text.split())
        assert "investigate first" in postmortem.lower()


def test_the_first_rows_drawn_before_the_index_say_it_too(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A big bundle's first rows are read before its index runs (the start frame, the app's
    first frame): two of its three records, two of them forged (one at least is read)."""
    world, _path, bundle = _opened(real_world, tmp_path, forged=2)
    rows = preview_summaries(bundle.directory / "records", 2, bundle.directory / "wal")
    forged = {f"{world.success}.json", f"{world.invalidated}.json"}
    assert len(rows) == 2 and any(row.key in forged for row in rows)
    for row in rows:
        assert (row.bundle_change is not None) == (row.key in forged), row.key
        if row.key in forged:
            assert row.bundle_change.startswith(CHANGED)
