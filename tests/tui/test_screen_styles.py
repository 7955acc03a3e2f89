"""The comparison's and the picker's stylesheets are read while the app is idle: their
first opening reads none (Textual would then restyle the whole app on that key), and they
are styled by them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet

from intentus_tui.tui.screen_styles import stylesheet_paths
from intentus_tui.tui.screens.compare import ComparisonScreen
from intentus_tui.tui.screens.compare_picker import ComparePicker
from tests.tui.app_support import make_app, mark_and_compare, settle, wait_for
from tests.tui.compare_harness import debugger_on_pair


def test_the_paths_are_those_textual_resolves() -> None:
    picker = ComparePicker("Compare with…", list, list)
    assert stylesheet_paths(ComparePicker) == picker.css_path
    (path,) = stylesheet_paths(ComparisonScreen)
    assert path.name == "compare.tcss" and path.is_file()


async def test_the_first_comparison_and_picker_read_no_stylesheet(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = debugger_on_pair(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        idle_read = [str(path) for path in stylesheet_paths(ComparePicker)]
        await wait_for(
            pilot,
            lambda: all(app.stylesheet.has_source(path, "") for path in idle_read),
            "the stylesheets read once the app is idle",
        )
        read: list[object] = []
        real_read = Stylesheet.read

        def reading(stylesheet: Stylesheet, path: object) -> None:
            read.append(path)
            real_read(stylesheet, path)  # type: ignore[arg-type]

        monkeypatch.setattr(Stylesheet, "read", reading)
        await mark_and_compare(pilot, "exec-000A.json", "exec-000B.json")
        assert isinstance(app.screen, ComparisonScreen)
        assert app.screen.query_one("#compare-sides").styles.max_height is not None  # styled
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("D")
        await settle(pilot)
        assert isinstance(app.screen, ComparePicker)
        assert app.screen.query_one("#picker-dialog").styles.max_height is not None
        assert read == []


async def test_while_the_list_fills_the_stylesheets_wait_for_the_scan(
    records_dir: Path, world: dict[str, str]
) -> None:
    """Read during a scan they would cost the fill a quarter of a second at 100,000
    records: the first rows and the side pane come, the stylesheets once the scan ends."""
    from intentus_tui.core.index.directory import DirectoryIndex
    from intentus_tui.core.paths import resolve_root
    from tests.tui.app_support import wait_for_scan_and_side_pane
    from tests.tui.test_app_scan import GatedIndex

    everything = DirectoryIndex(resolve_root(records_dir), use_cache=False).scan()
    app = make_app(records_dir)
    index = GatedIndex(app.root, [everything[:3], everything[3:]])
    app.feeder.index = index  # type: ignore[assignment]
    paths = [str(path) for path in stylesheet_paths(ComparePicker)]
    async with app.run_test(size=(200, 50)) as pilot:
        try:
            index.gate.release()  # the first batch only
            await wait_for(pilot, lambda: app.side_pane.ready, "the side pane, after the rows")
            for _ in range(5):  # frames enough for what used to follow the side pane's
                await pilot.pause(0.02)
            assert not app.scan_done
            assert not any(app.stylesheet.has_source(path, "") for path in paths)
            index.gate.release()
            await wait_for_scan_and_side_pane(pilot, app)
            await wait_for(
                pilot,
                lambda: all(app.stylesheet.has_source(path, "") for path in paths),
                "the stylesheets, once the scan is done",
            )
        finally:
            index.open()


@pytest.mark.parametrize("screen_type", [ComparisonScreen, ComparePicker])
def test_every_rule_of_a_screen_is_scoped_to_it(screen_type: type[Any]) -> None:
    """Read while the main screen is up, they restyle nothing alive: no rule in them may
    match a widget outside its own screen (each selector starts with the screen's type)."""
    from textual.app import App

    variables = App().get_css_variables()
    for path in stylesheet_paths(screen_type):
        stylesheet = Stylesheet(variables=variables)
        stylesheet.read(path)
        assert stylesheet.rules
        for rule in stylesheet.rules:
            for selectors in rule.selector_set:
                first = selectors.selectors[0]
                assert first.name == screen_type.__name__, (path.name, rule.css)


async def test_reading_them_parses_those_files_alone(
    records_dir: Path, world: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's own stylesheet, parsed at start, is not parsed again (nor the theme's
    variables), and nothing alive is restyled: the idle read cost 40-70 ms, now 2 ms."""
    import textual.css.stylesheet as stylesheet_module

    from intentus_tui.tui import app as app_module
    from tests.tui.css_memo import TEXTUAL_PARSE_RULES

    # What the app itself parses: not the suite's parses shared between apps.
    monkeypatch.setattr(stylesheet_module.Stylesheet, "_parse_rules", TEXTUAL_PARSE_RULES)

    parsed: list[str] = []
    real_parse = stylesheet_module.parse

    def counting_parse(scope: str, css: str, read_from: tuple[str, str], **kwargs: Any) -> Any:
        parsed.append(read_from[0])
        return real_parse(scope, css, read_from, **kwargs)

    real_read_screen_styles = app_module.read_screen_styles
    during: list[str] = []

    def watched_read(app: Any) -> None:
        monkeypatch.setattr(stylesheet_module, "parse", counting_parse)
        real_read_screen_styles(app)
        monkeypatch.setattr(stylesheet_module, "parse", real_parse)
        during.extend(parsed)

    monkeypatch.setattr(app_module, "read_screen_styles", watched_read)
    app = make_app(records_dir)
    screens = {
        str(path)
        for screen in (ComparisonScreen, ComparePicker)
        for path in stylesheet_paths(screen)
    }
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await wait_for(
            pilot,
            lambda: all(app.stylesheet.has_source(path, "") for path in screens),
            "the stylesheets read once the app is idle",
        )
    assert sorted(during) == sorted(screens)
