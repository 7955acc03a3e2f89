"""Command palette (ctrl+p): jump to an execution by id or intent.

Record-derived text is shown as ``Content`` built from plain strings, never through
``Matcher.highlight`` or a ``str`` help text: both parse markup (a ``[/x]`` intent would
raise, a ``[$accent]`` one would style). The app's own actions are offered as system
commands (``IntentusApp.get_system_commands``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import Hit, Hits, Provider
from textual.content import Content

from intentus_tui.core.actions import verdict_of
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.tui.presenters.list_rows import verdict_text

if TYPE_CHECKING:
    from intentus_tui.tui.app import IntentusApp

MAX_HITS = 40
MATCH_STYLE = "bold underline $text-accent"


def _highlighted(text: str, needle: str, style: str) -> Content:
    content = Content(text)
    start = text.casefold().find(needle)
    if needle and start >= 0:
        content = content.stylize(MATCH_STYLE, start, start + len(needle))
    return content.stylize_before(style) if style else content


def execution_hit_display(summary: ExecutionSummary, needle: str) -> Content:
    return Content.assemble(
        _highlighted(summary.execution_id, needle, "bold"),
        "  ",
        _highlighted(summary.intent or summary.key, needle, ""),
        ("  " + verdict_text(verdict_of(summary)), "$text-muted"),
    )


def score_summary(summary: ExecutionSummary, needle: str) -> float:
    """1.0 for an id prefix, then id substring, intent prefix, intent substring; 0: no match."""
    execution_id = summary.execution_id.casefold()
    intent = summary.intent.casefold()
    if execution_id.startswith(needle):
        return 1.0
    if needle in execution_id or needle in summary.key.casefold():
        return 0.8
    if intent.startswith(needle):
        return 0.6
    if needle in intent:
        return 0.4
    return 0.0


class ExecutionCommands(Provider):
    """Find an execution by (part of) its id or intent and jump to it."""

    async def search(self, query: str) -> Hits:
        needle = query.strip().casefold()
        if not needle:
            return
        app = cast("IntentusApp", self.app)
        found: list[tuple[float, ExecutionSummary]] = []
        for summary in app.all_summaries():
            score = score_summary(summary, needle)
            if score:
                found.append((score, summary))
        found.sort(key=lambda item: (-item[0], item[1].execution_id))
        for score, summary in found[:MAX_HITS]:
            yield Hit(
                score,
                execution_hit_display(summary, needle),
                partial(app.jump_to_execution, summary.key),
                text=f"{summary.execution_id} {summary.intent}",
                help=cast(
                    str,
                    Content.styled(
                        f"open execution · {summary.chain or 'no attempts'}", "$text-muted"
                    ),
                ),
            )
