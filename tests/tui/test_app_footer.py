"""The footer: the keys of what has focus, rebuilt only when they change, and without
leaving widgets behind (Textual's Footer used to keep every key it ever composed)."""

from __future__ import annotations

import gc
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.widgets.footer import AppFooter
from tests.tui.app_support import SIZE, make_app, settle, wait_for


def _live_widgets() -> Counter[str]:
    gc.collect()
    return Counter(type(o).__name__ for o in gc.get_objects() if isinstance(o, Widget))


async def test_focus_changes_leave_no_widgets_behind(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", "enter")  # anything built on first use is built now
        await settle(pilot)
        before = _live_widgets()
        for _ in range(5):
            await pilot.press("slash")
            await pilot.pause()
            assert app.screen.focused is not app.execution_list
            await pilot.press("enter")
            await pilot.pause()
        await settle(pilot)
        assert app.screen.focused is app.execution_list
        assert _live_widgets() - before == Counter()


def _footer_keys(app: IntentusApp) -> list[tuple[str, str]]:
    return [(key.key_display, key.description) for key in app.query(FooterKey)]


LIST_KEYS = [
    ("→", "Open timeline"),
    ("q", "Quit"),
    ("?", "Help"),
    ("/", "Filter"),
    ("v", "View"),
    ("!", "Failures first"),
    ("o", "Sort"),
    ("p", "Live/pause"),
    ("r", "Replay"),
    ("m", "Mark for diff"),
    ("d", "Diff"),
    ("^p", "palette"),
]
FILTER_KEYS = [("/", "Filter"), ("esc", "Clear filter"), ("^p", "palette")]


async def test_the_footer_shows_the_keys_of_what_has_focus_built_once_per_change(
    records_dir: Path, world: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[FooterKey] = []
    original_init = FooterKey.__init__

    def counted_init(self: FooterKey, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        original_init(self, *args, **kwargs)

    monkeypatch.setattr(FooterKey, "__init__", counted_init)
    builds: list[list[tuple[str, str, bool]]] = []  # the keys of each footer built
    original_compose = AppFooter.compose

    def recorded_compose(self: AppFooter) -> Any:
        keys = []
        for widget in original_compose(self):
            if isinstance(widget, FooterKey):
                keys.append((widget.key_display, widget.description, widget.disabled))
            yield widget
        builds.append(keys)

    monkeypatch.setattr(AppFooter, "compose", recorded_compose)
    app = make_app(records_dir, watch=True)  # watched: p pauses and resumes it
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # The selected execution read: its keys are enabled by then (under load, after
        # the first settle: a change of keys inside the count below).
        await wait_for(pilot, lambda: app.detail is not None, "the selected execution read")
        await settle(pilot)
        assert _footer_keys(app) == LIST_KEYS
        made.clear()
        builds.clear()
        await pilot.press("slash")
        await settle(pilot)
        assert _footer_keys(app) == FILTER_KEYS
        await pilot.press("enter")
        await settle(pilot)
        assert _footer_keys(app) == LIST_KEYS
        # One footer built per change of keys: Textual's footer built each twice, every
        # key mounted and styled again for the same keys (a tenth of the tests' CPU).
        assert [(key, text) for key, text, _ in builds[0]] == FILTER_KEYS
        assert [(key, text) for key, text, _ in builds[-1]] == LIST_KEYS
        assert all(before != after for before, after in pairwise(builds)), builds
        assert len(made) == sum(len(keys) for keys in builds)
        shown = set(app.query(FooterKey))
        for key in ("j", "k", "p", "p"):  # other executions, live paused and resumed
            await pilot.press(key)
            await settle(pilot)
            assert set(app.query(FooterKey)) == shown, key
        diff = next(key for key in app.query(FooterKey) if key.action == "diff")
        assert diff.has_class("-disabled")  # nothing marked to compare with
        await pilot.press("m", "j")
        await settle(pilot)
        diff = next(key for key in app.query(FooterKey) if key.action == "diff")
        assert not diff.has_class("-disabled")


def _key_states(app: IntentusApp) -> list[tuple[str, str, bool, bool]]:
    return [
        (key.key, key.action, key.has_class("-disabled"), key._disabled)
        for key in app.query(FooterKey)
    ]


async def test_a_key_enabled_since_is_set_in_place_as_a_new_footer_draws_it(
    records_dir: Path, world: dict[str, str]
) -> None:
    """Marking an execution enables ``d``: the footer's keys stay the widgets they were
    (none mounted again: every start enables ``r`` and ``m`` so), each dim or not, and
    answering a click or not, as a footer composed afresh makes it."""
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.detail is not None, "the selected execution read")
        await settle(pilot)
        keys = list(app.query(FooterKey))
        diff = next(key for key in keys if key.action == "diff")
        assert diff.has_class("-disabled")
        await pilot.press("m", "j")
        await settle(pilot)
        assert list(app.query(FooterKey)) == keys
        assert not diff.has_class("-disabled") and not diff._disabled
        in_place = _key_states(app)
        footer = app.query_one(AppFooter)
        footer._shown = None  # forgets what it showed: composes afresh
        footer.refresh(recompose=True)
        await settle(pilot)
        assert list(app.query(FooterKey)) != keys
        assert _key_states(app) == in_place
