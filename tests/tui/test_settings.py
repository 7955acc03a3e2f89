"""The debugger remembers the theme the user picks."""

from __future__ import annotations

import json
from pathlib import Path

from intentus_tui.tui.settings import load_settings, remember, settings_path
from tests.tui.app_support import SIZE, make_app, settle, write_world


async def test_the_theme_picked_is_there_on_the_next_run(records_dir: Path) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        default = app.theme
        picked = next(name for name in app.available_themes if name != default)
        app.theme = picked  # what the palette's "Change theme" does
        await pilot.pause()
    assert json.loads(settings_path().read_text())["theme"] == picked
    again = make_app(records_dir)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == picked


async def test_an_unknown_or_broken_setting_falls_back_to_the_default(records_dir: Path) -> None:
    """An unknown theme falls back to the default, and says so, as a broken keymap file is
    said (it was ignored without a word: the operator's theme gone, no reason given)."""
    write_world(records_dir)
    settings_path().write_text('{"theme": "no-such-theme"}')
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme != "no-such-theme"
        said = [str(n.message) for n in app._notifications]
    assert [
        text for text in said if "no theme 'no-such-theme' here, the default is used" in text
    ] == [
        f"settings {settings_path()}: no theme 'no-such-theme' here, the default is used "
        "(ctrl+p, Change theme, picks one)"
    ], said
    settings_path().write_text("{not json")
    assert load_settings() == {}


def test_remembering_keeps_other_settings_and_reports_an_unwritable_file(tmp_path: Path) -> None:
    path = tmp_path / "conf" / "settings.json"
    assert remember("theme", "nord", path) is None
    assert remember("layout", "stacked", path) is None
    assert load_settings(path) == {"theme": "nord", "layout": "stacked"}
    blocked = tmp_path / "file"
    blocked.write_text("")
    problem = remember("theme", "nord", blocked / "settings.json")
    assert problem is not None and "cannot remember the theme" in problem
