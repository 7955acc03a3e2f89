"""The palette's Screenshot saves an SVG even where there is no Downloads directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.app_support import SIZE, make_app, settle, wait_for, write_world


async def test_a_screenshot_is_saved_without_a_downloads_directory(
    records_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"  # no Downloads in it, as on most servers
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(home / "Downloads"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.deliver_screenshot()  # what the palette's "Screenshot" command runs
        await wait_for(pilot, lambda: any(work.glob("*.svg")), "the screenshot file")
        await wait_for(
            pilot,
            lambda: any("Saved screenshot" in str(n.message) for n in app._notifications),
            "the saved-screenshot notice",
        )
        notes = [str(n.message) for n in app._notifications]
    (saved,) = work.glob("*.svg")
    assert saved.read_text().startswith("<svg")
    assert not any("Failed" in note for note in notes)
