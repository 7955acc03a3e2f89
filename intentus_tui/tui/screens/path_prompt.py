"""A one-line modal that asks for a file path: enter submits the text, escape cancels.

The title, placeholder and suggested value are shown literally (``Content``, never
markup): a suggestion may hold a directory name taken from the user's disk.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from intentus_tui.core.sanitize import sanitize_line


class PathPrompt(ModalScreen[str | None]):
    """Ask for a path. Dismisses with the text typed (stripped), or None when cancelled."""

    DEFAULT_CSS = """
    PathPrompt {
        align: center middle;
        background: $background 60%;
    }
    PathPrompt > #path-dialog {
        width: 84;
        max-width: 95%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 1 2;
    }
    PathPrompt #path-title {
        text-style: bold;
        margin-bottom: 1;
    }
    PathPrompt #path-keys {
        color: $foreground-muted;
        margin-top: 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="path-prompt.cancel"),
    ]

    def __init__(self, title: str, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self._title = sanitize_line(title)
        self._placeholder = sanitize_line(placeholder)
        self._value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="path-dialog"):
            yield Static(Content(self._title), id="path-title")
            # Not select-on-focus: the suggestion is a directory to type a file name after.
            yield Input(
                value=self._value,
                placeholder=self._placeholder,
                select_on_focus=False,
                id="path-input",
            )
            yield Static(Content("enter: open    esc: cancel"), id="path-keys")

    @property
    def input(self) -> Input:
        return self.query_one("#path-input", Input)

    def on_mount(self) -> None:
        self.input.focus()

    @on(Input.Submitted, "#path-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)
