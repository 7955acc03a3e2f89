"""``?``: every key binding, grouped by where it applies, with its id for a keymap; then
what the list's marks mean."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from intentus_tui.tui.widgets.hanging_text import HangingLine, HangingText
from intentus_tui.tui.widgets.scroll_keys import KeyedScroll

HelpSection = tuple[str, Iterable[BindingType]]


def _key_text(binding: Binding, keymap: Mapping[str, str], display) -> str:
    keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
    return " / ".join(display(key.strip()) for key in keys.split(","))


# Glyph tables: a title and (mark, meaning) rows.
LegendSection = tuple[str, list[tuple[str, str]]]


def legend_lines(legend: Iterable[LegendSection]) -> list[HangingLine]:
    """What the list's marks mean, under a heading."""
    lines: list[HangingLine] = [Content.styled("What the list's marks mean", "bold $text-accent")]
    for title, rows in legend:
        lines.append(Content.styled(f"  {title}", "bold"))
        for mark, meaning in rows:
            # at least one space after a mark longer than its column
            lines.append((Content.styled(f"    {mark:<19} ", "bold"), Content(meaning)))
    lines.append(Content(""))
    return lines


def help_content(
    sections: Iterable[HelpSection],
    keymap: Mapping[str, str],
    display,
    footer: str,
    legend: Iterable[LegendSection] = (),
    not_offered: Mapping[str, str] | None = None,
) -> HangingText:
    """The bindings of ``sections``, each with its id; those whose action is in
    ``not_offered`` (``p`` and ``T`` where nothing is watched: the footer and the palette
    leave them out) dimmed, with why on a line of its own under their meaning (after the
    id, it made the line too long for 80 columns)."""
    not_offered = not_offered or {}
    rows = [
        (
            title,
            [
                (
                    _key_text(b, keymap, display),
                    b.description or b.action,
                    b.id or "",
                    not_offered.get(b.action),
                )
                for b in Binding.make_bindings(bindings)
            ],
        )
        for title, bindings in sections
    ]
    # Columns as wide as their longest entry (and no wider): at 80 columns every id stays
    # on its binding's line.
    key_width = max((len(keys) for _, found in rows for keys, *_ in found), default=0) + 2
    widths = [len(what) for _, found in rows for _, what, bid, _ in found if bid]  # id after
    what_width = max(widths, default=0) + 2
    lines: list[HangingLine] = []
    for title, found in rows:
        lines.append(Content.styled(title, "bold $text-accent"))
        for keys, what, binding_id, why in found:
            style = "$text-muted" if why else ""
            meaning = Content.assemble(
                (f"{what:<{what_width}}" if binding_id else what, style),
                (binding_id, "$text-muted"),
            )
            keys_text = Content.styled(f"  {keys:<{key_width}}", "$text-muted" if why else "bold")
            lines.append((keys_text, meaning))
            if why:
                indent = Content(" " * keys_text.cell_length)
                lines.append((indent, Content.styled(why, "italic $text-warning")))
        lines.append(Content(""))
    if legend:
        lines.extend(legend_lines(legend))
    lines.append(Content.styled(footer, "$text-muted"))
    return HangingText(lines)


class HelpScreen(ModalScreen[None]):
    """A scrollable list of bindings; any of escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="help.close"),
    ]
    # The text scrolls from the keyboard at once (arrows, page up/down, home/end; j/k, g/G).
    AUTO_FOCUS = "#help-scroll"

    def __init__(self, content: HangingText) -> None:
        super().__init__()
        self._content = content

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog"):
            # The screen's own keys: the footer below is the debugger's ("q Quit").
            title = Content.assemble(
                ("Keys and marks", "bold"), ("   esc or q closes · j/k scroll", "$text-muted")
            )
            yield Static(title, id="help-title")
            # j/k and g/G as on every pane that scrolls text: a line a key, at once (its
            # own j moved from where the last had not yet got to: 20 j, 5 lines).
            with KeyedScroll(id="help-scroll"):
                yield Static(self._content, id="help-body")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
