"""The escape key, told from the start of an escape sequence without a tenth of a second's wait.

A terminal sends the escape key as the byte ESC, which also starts every escape sequence
(arrows, function keys, mouse reports): only waiting for what follows tells them apart.
Textual waits ``ESCDELAY`` milliseconds (100 unless set), and its input loop only looks at
the clock when its 0.1 s ``select`` returns: a lone ESC became a key 100-200 ms after it
arrived, so every ``esc`` (close the help, the comparison, the filter) took that long.

Here the input loop wakes when the wait is over, and, unless the user set ``ESCDELAY``,
the wait is ``DEFAULT_ESCAPE_DELAY_MS``. A terminal writes an escape sequence's bytes at
once, so they arrive together, locally and over SSH (one packet); Neovim waits 50 ms
(``ttimeoutlen``), fish 30 ms, tmux 10 ms. Over a link that splits a sequence with more
than that between its pieces an arrow key would read as ``esc`` then ``[A``: set
``ESCDELAY`` (milliseconds) higher there, e.g. ``ESCDELAY=100``. A terminal speaking the
kitty keyboard protocol (Textual asks for it) sends the escape key as a sequence of its
own, and waits for nothing.
"""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder
from typing import Any

from textual import constants
from textual._parser import ParseError
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.drivers.linux_driver import LinuxDriver

DEFAULT_ESCAPE_DELAY_MS = 25
# Textual's input loop wakes this often when nothing arrives (to see that the app quits).
IDLE_WAKE_SECONDS = 0.1


def escape_delay_seconds(environ: dict[str, str] | os._Environ[str] = os.environ) -> float:
    """How long a lone ESC waits for the rest of a sequence: the user's ``ESCDELAY``
    (milliseconds, at least 1, as Textual reads it) or ``DEFAULT_ESCAPE_DELAY_MS``."""
    try:
        milliseconds = int(environ["ESCDELAY"])
    except (KeyError, ValueError):
        milliseconds = DEFAULT_ESCAPE_DELAY_MS
    return max(1, milliseconds) / 1000


def _wake_in(parser: XTermParser) -> float:
    """Seconds until the parser's pending wait (a lone ESC's) is over, or the idle wake."""
    # Textual's parser keeps when its wait ends in a private field; without it, Textual's
    # own pace (the idle wake).
    deadline = getattr(parser, "_timeout_time", None)
    if deadline is None:
        return IDLE_WAKE_SECONDS
    return max(0.0, min(IDLE_WAKE_SECONDS, deadline - get_time()))


class PromptEscapeDriver(LinuxDriver):
    """Textual's Linux driver, whose input loop wakes when a lone ESC's wait ends."""

    def __init__(self, app: App[Any], **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        # Read by Textual's parser (``constants.ESCAPE_DELAY``) at each ESC: one process,
        # one terminal, so setting it here sets it for this app's input.
        setattr(constants, "ESCAPE_DELAY", escape_delay_seconds())  # noqa: B010 (Final)

    def run_input_thread(self) -> None:
        """Textual 8's input loop (``LinuxDriver.run_input_thread``) with one change: the
        ``select`` returns when a pending ESC's wait is over, not up to 0.1 s later."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno = self.fileno
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode

        def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> None:
            for index, (_key, mask) in enumerate(ready):
                if mask & selectors.EVENT_READ:
                    last = index == len(ready) - 1
                    data = decode(os.read(fileno, 1024 * 4), final=final and last)
                    if not data:  # a piped stdin at its end
                        break
                    for event in parser.feed(data):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                process(selector.select(_wake_in(parser)))
            selector.unregister(self.fileno)
            process(selector.select(IDLE_WAKE_SECONDS), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass


def answer_escape_promptly(app: App[Any]) -> None:
    """Make ``app`` run ``PromptEscapeDriver`` if it would run Textual's Linux driver (not
    one chosen by ``TEXTUAL_DRIVER``, nor one already derived from this)."""
    if app.driver_class is LinuxDriver:
        app.driver_class = PromptEscapeDriver
