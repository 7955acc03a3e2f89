"""The debugger on several roots: one list with a root column, counts per root and a
failed root in the header, each row's detail read from its own root, and a diff of two
executions from two roots. Records written by the real intentusnet 1.3.0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from intentus_tui.core.remote.location import RemoteOptions
from intentus_tui.core.roots import open_roots
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.roots import RootSet
from tests.intentusnet_world import RealWorld
from tests.roots_world import copy_host


async def _scanned(app: IntentusApp, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(100):
        await pilot.pause(0.05)
        if app.scan_done:
            break
    await pilot.pause(0.2)


async def test_merged_list_header_detail_and_cross_root_diff(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    alpha = copy_host(real_world, tmp_path / "alpha")
    beta = copy_host(real_world, tmp_path / "beta")
    path = beta.records / f"{real_world.success}.json"
    record = json.loads(path.read_text())
    record["envelope"]["metadata"]["createdAt"] = "2030-01-01T00:00:00Z"
    path.write_text(json.dumps(record, indent=2))
    specs = [str(alpha.base), str(beta.base), str(tmp_path / "gone")]
    roots = RootSet(open_roots(specs, RemoteOptions()), RemoteOptions())
    first = roots.working[0].root
    assert first is not None
    app = IntentusApp(first, roots=roots, watch=False, use_cache=False)
    async with app.run_test(size=(160, 40)) as pilot:
        await _scanned(app, pilot)
        per_root = len(alpha.ids) + 1
        assert app.header_state.directory == (
            f"alpha {per_root} · beta {per_root} · gone FAILED: no such directory: "
            f"{tmp_path / 'gone'}"
        )
        summaries = app.execution_list.model.summaries
        assert len(summaries) == 2 * per_root
        assert {s.root for s in summaries.values()} == {"alpha", "beta"}
        # each side's detail comes from its own root; m marks one, d compares
        listing = app.execution_list
        for label in ("alpha", "beta"):
            listing.select_key(f"{label}/{real_world.success}.json")
            for _ in range(40):
                await pilot.pause(0.05)
                if app.detail is not None and app.detail_key == listing.selected_key:
                    break
            assert app.detail is not None
            root = alpha if label == "alpha" else beta
            assert app.detail.path == root.records / f"{real_world.success}.json"
            if label == "alpha":
                await pilot.press("m")
        await pilot.press("d")
        await pilot.pause(0.5)
        assert app.diff_shown
        assert app.marked is not None and app.marked.path.parent == alpha.records
