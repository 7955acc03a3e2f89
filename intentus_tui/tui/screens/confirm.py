"""A yes/no modal for operator actions that are risky (force replay) or write (invalidate).

Every line shown is displayed literally: record-derived text never goes through markup, and
it is sanitized again here (``presenters.execution_text.clip``), so a hostile execution id
cannot style the dialog, break it with ``[/x]`` or write escape sequences to the terminal.
What the dialogs say is written by ``presenters.execution_text``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.css.scalar import Scalar
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from intentus_tui.tui.presenters.execution_text import MAX_FIELD_CHARS, clip
from intentus_tui.tui.widgets.hanging_text import HangingLine, HangingText

MAX_BODY_ROWS = 24  # the text's height on a tall screen; it scrolls beyond
MIN_BODY_ROWS = 3
KEYS = "y: confirm    n / esc / enter: cancel"
SCROLL_KEYS = "    ↑/↓: scroll"


# A label a line starts with ("Execution: ", "Not replayable: "), and a risk's mark: what
# follows wraps under the text after them.
_LABEL = re.compile(r"(?: ▶ |[A-Z][A-Za-z ]{0,30}: )")


def hanging(line: str) -> HangingLine:
    """A dialog line as shown: text after a label or a risk's mark hangs under itself."""
    head = _LABEL.match(line)
    if head is None:
        return Content(line)
    return (Content(head.group()), Content(line[head.end() :]))


class ConfirmScreen(ModalScreen[bool]):
    """Ask before doing something. Dismisses with True (confirmed) or False (cancelled)."""

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
        background: $background 60%;
    }
    ConfirmScreen > #confirm-dialog {
        width: 84;
        max-width: 95%;
        height: auto;
        max-height: 100%;  /* a modal may cover the header and footer: at 80x24 every row counts */
        border: thick $warning;
        background: $surface;
        padding: 1 2;
    }
    ConfirmScreen #confirm-title {
        text-style: bold;
        color: $text-warning;
        margin-bottom: 1;
    }
    ConfirmScreen #confirm-body {
        height: auto;
        max-height: 24;  /* MAX_BODY_ROWS; lowered to what fits on a short screen */
        margin-bottom: 1;
    }
    /* Docked: on a short screen (80x24) the text scrolls, the buttons and keys stay. */
    ConfirmScreen #confirm-buttons {
        dock: bottom;
        height: auto;
        margin-bottom: 1;  /* room for the keys' line, docked below */
        align-horizontal: right;
    }
    ConfirmScreen #confirm-buttons Button {
        margin-left: 2;
    }
    ConfirmScreen #confirm-keys {
        dock: bottom;
        color: $foreground-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Confirm", id="confirm.yes"),
        Binding("n", "cancel", "Cancel", id="confirm.no"),
        Binding("escape", "cancel", "Cancel", show=False, id="confirm.escape"),
        # Wherever tab took the focus (the text, to scroll it): enter cancels, as it says.
        Binding("enter", "cancel", "Cancel", show=False, id="confirm.enter"),
        # The focus is on a button: these scroll the text when it is longer than the dialog.
        Binding("down", "scroll_body('down')", "Scroll down", show=False, id="confirm.down"),
        Binding("up", "scroll_body('up')", "Scroll up", show=False, id="confirm.up"),
        Binding("pagedown", "scroll_body('page_down')", show=False, id="confirm.page-down"),
        Binding("pageup", "scroll_body('page_up')", show=False, id="confirm.page-up"),
    ]

    # Cancel starts focused, so enter (which also opens a timeline in the list: a key an
    # operator presses without reading) cancels. Only ``y`` or a click on the confirm
    # button confirms: the button never takes focus, so tab then enter cannot press it
    # (the keys' line says enter cancels, and a risky or writing action waits for "y").
    AUTO_FOCUS = "#cancel"

    def __init__(self, title: str, lines: list[str], confirm_label: str = "Confirm") -> None:
        super().__init__()
        # Callers pass sanitized text; doing it again here is cheap and makes the dialog
        # safe whatever it is given.
        self._title = clip(title)
        self._lines = [clip(line, 4 * MAX_FIELD_CHARS) for line in lines]
        self._confirm_label = clip(confirm_label, 40)

    @property
    def body_text(self) -> str:
        """The dialog's text as shown (for tests and accessibility)."""
        return "\n".join([self._title, *self._lines])

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(Content(self._title), id="confirm-title")
            with VerticalScroll(id="confirm-body"):
                yield Static(
                    HangingText([hanging(line) for line in self._lines]), id="confirm-lines"
                )
            with Horizontal(id="confirm-buttons"):
                yield Button(Content("Cancel"), id="cancel")
                confirm = Button(Content(self._confirm_label), variant="warning", id="confirm")
                confirm.can_focus = False
                yield confirm
            yield Static(Content(KEYS), id="confirm-keys")

    def on_mount(self) -> None:
        # A toast still showing (say, "Snapshot saved") would sit over the buttons and the
        # keys' line: the question is what matters now.
        self.app.clear_notifications()
        self.call_after_refresh(self._fit_body)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fit_body)

    def _fit_body(self) -> None:
        """Give the text the rows the dialog has between its title and its buttons.

        The dialog is as tall as its text up to ``max-height``; past that, an auto-height
        text would keep its full height and run on under the docked buttons, cut and not
        scrollable. So it is capped here at what fits, and scrolls. The rows above the text
        (border, padding, title) and below it (margin, buttons, keys, border) are measured
        from the layout: they do not depend on how long the text is."""
        dialog = self.query_one("#confirm-dialog")
        body = self.query_one("#confirm-body")
        buttons = self.query_one("#confirm-buttons")
        if not dialog.region or not body.region or not buttons.region:
            return
        limit = dialog.styles.max_height
        if limit is None:
            return
        tallest = int(limit.resolve(self.size, self.app.size))
        above = body.region.y - dialog.region.y
        below = dialog.region.bottom - buttons.region.y + body.styles.margin.bottom
        rows = max(MIN_BODY_ROWS, min(MAX_BODY_ROWS, tallest - above - below))
        if body.styles.max_height != Scalar.from_number(rows):
            body.styles.max_height = rows
        scrolls = self.query_one("#confirm-lines").outer_size.height > rows
        keys = KEYS + SCROLL_KEYS if scrolls else KEYS
        self.query_one("#confirm-keys", Static).update(Content(keys))

    def action_scroll_body(self, how: str) -> None:
        body = self.query_one("#confirm-body", VerticalScroll)
        {
            "down": body.scroll_down,
            "up": body.scroll_up,
            "page_down": body.scroll_page_down,
            "page_up": body.scroll_page_up,
        }[how](animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm":
            self.action_confirm()
        else:
            self.action_cancel()

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        # Said, so that enter (which cancels) is not taken for the confirm it was not.
        self.app.notify(f"Cancelled, nothing done: {self._title}", timeout=3, markup=False)
        self.dismiss(False)
