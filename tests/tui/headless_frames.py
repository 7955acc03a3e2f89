"""A headless app's frames composed when a test looks, not at every tick.

An app under ``run_test`` composes a frame at each screen update, up to 60 a second, and
its headless driver throws every one away. Here the top screen's frame is composed when a
test reads the screen (the compositor's lines, an SVG snapshot: each composes the whole
screen) and once more when the test's body ends, so a screen that cannot be drawn still
fails its test as it would crash the app. Layout, resizes, mounts and every message run as
before; an app in a real terminal (the pty tests, the program) is untouched.

Measured (``pytest -n 2 tests/tui``, 975 tests, the two codes in turn twice, 2026-11-30):
192 s and 196 s of wall time with 278 s and 285 s of CPU before; 162 s and 159 s with
212 s and 200 s after.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

TEXTUAL_COMPOSITOR_REFRESH = Screen._compositor_refresh
TEXTUAL_RUN_TEST = App.run_test


def _compose_when_asked(self: Screen[Any]) -> None:
    app = self.app
    if app.is_headless and not app.is_inline and self is app.screen:
        self._dirty_widgets.clear()  # its regions stay dirty for the frame composed later
        return
    TEXTUAL_COMPOSITOR_REFRESH(self)


def draw_frame(app: App[Any]) -> None:
    """Compose the top screen's pending frame, as Textual does at a tick."""
    TEXTUAL_COMPOSITOR_REFRESH(app.screen)


@asynccontextmanager
async def _run_test_drawing_its_last_frame(
    self: App[Any], *args: Any, **kwargs: Any
) -> AsyncIterator[Pilot[Any]]:
    async with TEXTUAL_RUN_TEST(self, *args, **kwargs) as pilot:
        yield pilot
        if self.is_running and self.screen_stack:
            draw_frame(self)


Screen._compositor_refresh = _compose_when_asked  # type: ignore[method-assign]
App.run_test = _run_test_drawing_its_last_frame  # type: ignore[method-assign, assignment]
