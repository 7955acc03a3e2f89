"""A yes/no modal for operator actions that are risky (force replay) or write (invalidate).

Every line shown is displayed literally: record-derived text never goes through markup,
and the helpers below sanitize it first, so a hostile execution id cannot style the dialog,
break it with ``[/x]`` or write escape sequences to the terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from intentus_tui.core.records.load import LoadStatus
from intentus_tui.core.records.replay import (
    EXECUTION_INCOMPLETE,
    FORCE_REPLAY_RISKS,
    FORCED_WARNING,
    MANUALLY_INVALIDATED,
    RECORD_CORRUPTED,
    RECORDING_FAILURE,
)
from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:  # imported by the app when a record is loaded
    from intentus_tui.core.detail import ExecutionDetail

# Which row of seed 000's "Force Replay Risks" table a replayable reason falls under.
_RISK_ROW_FOR_REASON: dict[str, str] = {
    EXECUTION_INCOMPLETE: "Incomplete execution",
    RECORDING_FAILURE: "Recording failure",
    RECORD_CORRUPTED: "Corrupted record",
}

# What each documented reason means, for people who have not read the seed.
REASON_EXPLANATIONS: dict[str, str] = {
    EXECUTION_INCOMPLETE: "no final response was recorded (the process died or is still running)",
    RECORDING_FAILURE: "a final response exists but was not recorded properly",
    MANUALLY_INVALIDATED: "an operator marked this record as not replayable",
    RECORD_CORRUPTED: "the record is damaged or structurally invalid",
}


MAX_FIELD_CHARS = 300  # record-derived text in a dialog: enough to recognise, never a 1 MB wall


def clip(text: str, limit: int = MAX_FIELD_CHARS) -> str:
    """Sanitized, and cut with a note when longer than ``limit``."""
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text) - limit:,} more characters)"
    return sanitize_line(text)


def explain_reason(reason: str | None) -> str:
    """``reason — what it means``, sanitized; unknown reasons are shown as recorded."""
    if reason is None:
        return "no reason recorded"
    shown = clip(reason)
    meaning = REASON_EXPLANATIONS.get(reason)
    return f"{shown} — {meaning}" if meaning else shown


def execution_label(detail: ExecutionDetail) -> str:
    """The execution id if the record has one, else the file name; sanitized."""
    record = detail.result.record
    execution_id = record.execution_id if record is not None else None
    return clip(execution_id if execution_id is not None else detail.path.name)


def force_replay_lines(detail: ExecutionDetail) -> list[str]:
    """What the operator must know before forcing a replay of this record."""
    lines = [f"Execution: {execution_label(detail)}"]
    if detail.replayable:
        lines.append("This record is replayable: a forced replay returns the same as a normal one.")
    else:
        lines.append(f"Not replayable: {explain_reason(detail.replay_reason)}")
    if detail.result.status is not LoadStatus.OK:
        lines.append(f"File: {clip(detail.result.message)}")
    lines.append("")
    lines.append("Force replay risks (seed 000):")
    applies = _RISK_ROW_FOR_REASON.get(detail.replay_reason or "")
    for scenario, risk in FORCE_REPLAY_RISKS:
        marker = "▶" if scenario == applies else " "
        note = "   ← this record" if scenario == applies else ""
        lines.append(f" {marker} {scenario}: {risk}{note}")
    lines.append("")
    lines.append(
        "Replay returns what was recorded; it never runs agent code or calls a model. "
        f'The result is marked "{FORCED_WARNING}".'
    )
    return lines


def invalidate_lines(detail: ExecutionDetail) -> list[str]:
    """What invalidating this record will change on disk."""
    lines = [
        f"Execution: {execution_label(detail)}",
        f"File: {clip(str(detail.path))}",
    ]
    if detail.replayable:
        lines.append("Currently: replayable")
    else:
        lines.append(f"Currently: not replayable ({explain_reason(detail.replay_reason)})")
    lines.append("")
    lines.append(
        f'The header is rewritten to replayable: false, replayableReason: "{MANUALLY_INVALIDATED}". '
        "Nothing else in the record changes; the write is atomic (temp file, fsync, rename)."
    )
    lines.append("Replay will refuse this record afterwards; a forced replay stays possible.")
    if detail.result.status is not LoadStatus.OK:
        lines.append(
            "This file is damaged: it cannot be invalidated, because rewriting it would drop "
            "everything after the damage."
        )
    return lines


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
        max-height: 90%;
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
        max-height: 24;
    }
    ConfirmScreen #confirm-buttons {
        height: auto;
        margin-top: 1;
        align-horizontal: right;
    }
    ConfirmScreen #confirm-buttons Button {
        margin-left: 2;
    }
    ConfirmScreen #confirm-keys {
        color: $foreground-muted;
        margin-top: 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Confirm", id="confirm.yes"),
        Binding("enter", "confirm", "Confirm", show=False, id="confirm.enter"),
        Binding("n", "cancel", "Cancel", id="confirm.no"),
        Binding("escape", "cancel", "Cancel", show=False, id="confirm.escape"),
    ]

    # No button starts focused: enter goes to the screen's binding (confirm) rather than to
    # whichever button happened to get focus; tab still reaches both buttons.
    AUTO_FOCUS = None

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
                yield Static(Content("\n".join(self._lines)), id="confirm-lines")
            with Horizontal(id="confirm-buttons"):
                yield Button(Content("Cancel"), id="cancel")
                yield Button(Content(self._confirm_label), variant="warning", id="confirm")
            yield Static(Content("y / enter: confirm    n / esc: cancel"), id="confirm-keys")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
