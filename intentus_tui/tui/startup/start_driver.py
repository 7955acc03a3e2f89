"""Textual's Linux driver, taking over the screen the start frame already drew on.

The start frame (``start_frame``) entered the alternate screen. Entering it again would,
in xterm, clear it, and leave it blank until the app's first frame is ready (a quarter of
a second), and would save the start frame's cursor in place of the user's where a
terminal keeps one saved cursor for both screens. So the driver skips that one enter; the
app's first frame then replaces the start frame directly, and leaving the alternate
screen at exit restores the user's cursor. Every later enter (after a suspend) is kept.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.drivers.linux_driver import LinuxDriver

from intentus_tui.tui.startup.escape_key import PromptEscapeDriver

ENTER_ALTERNATE_SCREEN = "\x1b[?1049h"


class StartFrameDriver(PromptEscapeDriver):
    _entered_by_start_frame = True

    def write(self, data: str) -> None:
        if self._entered_by_start_frame and data == ENTER_ALTERNATE_SCREEN:
            self._entered_by_start_frame = False
            return
        super().write(data)


def take_over_start_frame(app: App[Any]) -> None:
    """Make ``app`` start on the start frame's screen, if it runs Textual's Linux driver
    (not one chosen by ``TEXTUAL_DRIVER``); it answers the escape key promptly too."""
    if app.driver_class in (LinuxDriver, PromptEscapeDriver):
        app.driver_class = StartFrameDriver
