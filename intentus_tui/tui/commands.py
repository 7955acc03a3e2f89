"""Command palette (ctrl+p): jump to an execution by id, intent or verdict words (``unknown``,
``tampered``, ``untrusted``, ``not replayable``: the words ``/`` finds it by). Each execution
found shows its verdict's marks, and under them, as its timeline header gives them, the
reason of every answer short of a clean one (an outcome other than a believable success,
integrity other than verified, not replayable), one line each, cut to the palette's width.

Record-derived text is shown as ``Content`` built from plain strings, never through
``Matcher.highlight`` or a ``str`` help text: both parse markup (a ``[/x]`` intent would
raise, a ``[$accent]`` one would style). The app's own actions are offered as system
commands (``app_commands``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, cast

from rich.cells import cell_len
from textual.app import SystemCommand
from textual.command import Hit, Hits, Provider
from textual.content import Content

from intentus_tui.core.actions import claimed_chain, verdict_of
from intentus_tui.core.model import ExecutionSummary, Integrity, Outcome, Verdict
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.presenters import verdict_cells
from intentus_tui.tui.presenters.list_search import as_searched, verdict_hits
from intentus_tui.tui.presenters.timeline_summary import verdict_lines

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


# A hit's id or intent longer than this many rows of the palette is cut there: a hostile
# 1 MB intent was a hit of 10,000 rows, wrapped again at each key typed (12 s a key).
MAX_HIT_ROWS = 4


def _cut(text: str, width: int) -> str:
    """``text``, or its first ``MAX_HIT_ROWS`` rows' worth of characters and "…"."""
    most = MAX_HIT_ROWS * max(width, MIN_HELP_WIDTH)
    return text if len(text) <= most else text[:most] + "…"


def hit_name(summary: ExecutionSummary) -> str:
    """The execution as a hit names it: ``ROOT:ID`` with several roots open, as the command
    line names it (one id in two roots was two lines alike, with no telling which opened
    which), else its id."""
    root = f"{sanitize_line(summary.root)}:" if summary.root else ""
    return root + summary.execution_id


def execution_hit_display(
    summary: ExecutionSummary,
    needle: str,
    width: int = 0,
    form: int | None = None,
    verdict: Verdict | None = None,
) -> Content:
    """The execution's id, intent and verdict in one line of ``width`` cells (0: no limit):
    the verdict's words where there is room, else as the list's columns abbreviate them,
    else as its marks; the intent is cut before that, the id last (``_fitted``). ``form``:
    which of these to say it in (``hit_form``: one for every hit of a list), else the
    longest that fits this hit. ``verdict``: as the list shows it (``verdict_shown``: a
    record being written's "… writing"), else the summary's."""
    head, intent, forms = _hit_parts(summary, needle, width, verdict)
    return _fitted(head, intent, forms, width, form)


def hit_form(
    summary: ExecutionSummary, needle: str, width: int, verdict: Verdict | None = None
) -> int:
    """Which form of its verdict (0: words, 1: the list's abbreviations, 2: marks) is the
    longest that fits the execution's hit in ``width`` cells: a list's hits all say theirs
    in the shortest form any of them needs (one read ``⚠ #! ✗``, the next ``⚠ untrusted ·
    chain broken · ✗ no (untrusted)``)."""
    return _form_that_fits(*_hit_parts(summary, needle, width, verdict), width)


def _hit_parts(
    summary: ExecutionSummary, needle: str, width: int, verdict: Verdict | None = None
) -> tuple[Content, Content, list[str]]:
    verdict = verdict_of(summary) if verdict is None else verdict
    head = Content.assemble(
        _highlighted(_cut(hit_name(summary), width), needle, "bold"),
        *(
            ("  ", (f"({sanitize_line(_cut(summary.file_name, width))})", "$text-muted"))
            if summary.copy_rank and summary.source != "wal"  # a log's name is no copy's
            else ()
        ),
        "  ",
    )
    intent = _highlighted(_cut(summary.intent or summary.key, width), needle, "")
    return head, intent, _verdict_forms(verdict)


# The fewest cells of an intent a hit cuts it to ("Classif…") before the verdict's words
# give way to shorter ones.
MIN_INTENT_CELLS = 8


def _verdict_forms(verdict: Verdict) -> list[str]:
    """The verdict as a hit says it, longest first: in words, as the list's columns
    abbreviate them (``◌ in flight · verified · ✗ no resp``), as their marks (``◌ #✓ ✗``)."""
    integrity, _ = verdict_cells.integrity_cell(verdict.integrity, 0)
    replay, _ = verdict_cells.replay_cell(verdict.replay, 0)
    badge = verdict_cells.outcome_badge(verdict)[0][0]
    return [
        verdict_cells.verdict_words(verdict),
        verdict_cells.verdict_text(verdict),
        f"{badge} {integrity} {replay}",
    ]


def _form_that_fits(head: Content, intent: Content, forms: list[str], width: int) -> int:
    """The first verdict form that fits ``width`` cells with the intent whole, or cut to no
    fewer than ``MIN_INTENT_CELLS``; else the last (the marks)."""
    if width <= 0:
        return 0
    for form, said in enumerate(forms):
        room = width - head.cell_length - cell_len(said) - 2
        if room >= min(intent.cell_length, MIN_INTENT_CELLS):
            return form
    return len(forms) - 1


def _fitted(
    head: Content, intent: Content, forms: list[str], width: int, form: int | None = None
) -> Content:
    """``head``, ``intent`` and verdict form ``form`` (by default the first that fits
    ``width`` cells with the intent whole, or cut to no fewer than ``MIN_INTENT_CELLS``;
    else the marks), with the intent cut to fit; where even that leaves the intent too
    few cells, the intent then the id cut to fit: a hit wrapped ("✗" then "no resp" alone
    on a line)."""
    said = forms[_form_that_fits(head, intent, forms, width) if form is None else form]
    room = width - head.cell_length - cell_len(said) - 2 if width > 0 else intent.cell_length
    if room >= min(intent.cell_length, MIN_INTENT_CELLS):
        cut = intent if intent.cell_length <= room else _cut_to(intent, room)
        return Content.assemble(head, cut, ("  " + said, "$text-muted"))
    said = "  " + said
    named = _cut_to(Content.assemble(head, intent), width - cell_len(said))
    return Content.assemble(named, (said, "$text-muted"))


def _cut_to(content: Content, cells: int) -> Content:
    """``content`` cut to ``cells`` cells, its last one "…" (no space before it)."""
    return Content.assemble(content.truncate(max(cells - 1, 0)).rstrip(), "…")


MIN_HELP_WIDTH = 30
HIT_MARGIN = 6  # the palette's borders and padding around a hit's lines


def _short_of_clean(verdict: Verdict) -> tuple[bool, bool, bool]:
    """Which answers (outcome, integrity, replay) are short of a clean one."""
    return (
        verdict.outcome is not Outcome.SUCCEEDED or not verdict.trusted,
        verdict.integrity is not Integrity.VERIFIED,
        not verdict.replayable,
    )


def execution_hit_help(
    summary: ExecutionSummary, width: int, verdict: Verdict | None = None
) -> Content:
    """What choosing it does, then the reason of every answer of its verdict (``verdict``:
    as the list shows it) short of a clean one, as the timeline header words it: one line
    each, at most ``width`` cells."""
    verdict = verdict_of(summary) if verdict is None else verdict
    chain = claimed_chain(summary.chain, verdict) or "no attempts"
    width = max(width, MIN_HELP_WIDTH)
    lines = [
        Content.styled(sanitize_line(_cut(f"open execution · {chain}", width)), "$text-muted"),
        *(
            line
            for line, shown in zip(verdict_lines(verdict), _short_of_clean(verdict), strict=True)
            if shown
        ),
    ]
    return Content("\n").join(line.truncate(width, ellipsis=True) for line in lines)


def score_summary(summary: ExecutionSummary, needle: str, words: str = "") -> float:
    """1.0 for an id prefix, then id substring, intent prefix, intent substring, a word of
    its verdict (``words``: ``searched_words``); 0: no match."""
    execution_id = summary.execution_id.casefold()
    intent = summary.intent.casefold()
    if execution_id.startswith(needle):
        return 1.0
    if needle in execution_id or needle in summary.key.casefold():
        return 0.8
    if summary.root and needle in hit_name(summary).casefold():  # ROOT:ID typed
        return 0.8
    if intent.startswith(needle):
        return 0.6
    if needle in intent:
        return 0.4
    if needle in words:
        return 0.3
    return 0.0


# The palette searches every execution at each key: it lets the keys typed meanwhile in
# every so many (at 100,000 a key waited ~0.3 s for the search of the key before), and
# looks only at those whose searched text, once ``/`` or the palette made it, holds it.
YIELD_EVERY = 2000


class ExecutionCommands(Provider):
    """Find an execution by (part of) its id or intent and jump to it."""

    async def startup(self) -> None:
        # The searched texts, made in a worker as "/" makes them: the searches after skip
        # the executions whose text lacks the query.
        cast("IntentusApp", self.app).execution_list.prepare_filter()

    async def search(self, query: str) -> Hits:
        needle = query.strip().casefold()
        if not needle:
            return
        app = cast("IntentusApp", self.app)
        model = app.execution_list.model
        words, texts = model.verdict_words, model.searched_texts()
        searched = as_searched(needle)  # as the texts hold it
        in_words = verdict_hits(searched, plain=True)  # the verdicts whose words hold it
        shown = app.execution_list.verdict_shown
        # "ROOT:ID" is in no searched text (each holds the root and the id apart).
        rooted = ":" in needle
        found: list[tuple[float, ExecutionSummary]] = []
        # A copy: the list changes while this search lets the keys in.
        for done, summary in enumerate(list(app.all_summaries()), 1):
            if not done % YIELD_EVERY:
                await asyncio.sleep(0)  # a key typed: a newer search, this one is dropped
            text = texts.get(summary.key)
            if (
                text is not None
                and not rooted
                and searched not in text
                and (model.kind(summary), summary.key in model.writing) not in in_words
            ):
                continue  # what it is scored by is all in its searched texts
            score = score_summary(summary, needle, words(summary))
            if score:
                found.append((score, summary))
        found.sort(key=lambda item: (-item[0], item[1].execution_id))
        hits, width = found[:MAX_HITS], app.size.width - HIT_MARGIN
        # Each verdict as the list shows it (a record being written: "… writing").
        verdicts = [shown(summary.key, summary) for _, summary in hits]
        # One form of the verdict for every hit: the shortest that any of them needs.
        form = max(
            (hit_form(s, needle, width, v) for (_, s), v in zip(hits, verdicts, strict=True)),
            default=0,
        )
        for (score, summary), verdict in zip(hits, verdicts, strict=True):
            yield Hit(
                score,
                execution_hit_display(summary, needle, width, form, verdict),
                partial(app.jump_to_execution, summary.key),
                text=f"{hit_name(summary)} {summary.intent}",
                help=cast(str, execution_hit_help(summary, app.size.width - HIT_MARGIN, verdict)),
            )


def app_commands(app: IntentusApp) -> Iterator[SystemCommand]:
    """The app's actions in the palette; those that need a record only when one is open."""
    if app.watched():  # never watched (a bundle): nothing to toggle, nothing arrives
        yield SystemCommand(
            "Toggle live / paused",
            "Stop or resume watching the directory",
            app.action_toggle_live,
        )
        yield SystemCommand(
            "Follow newest (like tail -f)",
            "Select each execution as it arrives; moving the cursor stops following",
            app.action_toggle_follow,
        )
    yield SystemCommand(
        "Failures first",
        "Group by verdict: untrusted, unknown, failed, in flight, then the successes",
        app.action_failures_first,
    )
    yield SystemCommand(
        "Cycle list view",
        "Failures first, needs attention, flat, or one verdict only",
        app.action_cycle_view,
    )
    yield SystemCommand(
        "Cycle sort", "Newest, oldest, intent, verdict, attempts", app.action_cycle_sort
    )
    yield SystemCommand("Filter executions", "By id, intent, agent or state", app.action_filter)
    yield SystemCommand("Help: keys", "Every key binding", app.action_help)
    yield SystemCommand(
        "Maximise",
        "Every pane back (z)" if app.maximised else "The focused pane takes the whole screen (z)",
        app.action_maximise,
    )
    if app.detail is not None and app.detail.result.record is not None:
        yield SystemCommand("Replay", "Return the recorded response", app.action_replay)
        yield SystemCommand(
            "Force replay", "Replay a record that is not replayable", app.action_force_replay
        )
        yield SystemCommand("Mark for diff", "Left side of the next diff", app.action_mark)
        yield SystemCommand(
            "Invalidate record",
            "Mark it not replayable (writes the file)",
            app.action_invalidate,
        )
        yield SystemCommand(
            "Save snapshot", "Write a Verist snapshot of this record", app.action_save_snapshot
        )
        yield SystemCommand(
            "Compare with…",
            "Pick a snapshot, Verist baseline, record file or execution to diff against",
            app.action_diff_file,
        )
    if app.marked is not None and app.detail is not None:
        yield SystemCommand("Diff marked vs selected", "Compare two executions", app.action_diff)
    for name, title in (
        ("verify", "Verify"),
        ("replay", "Replay"),
        ("diff", "Diff"),
        ("postmortem", "Post-mortem"),
    ):
        yield SystemCommand(
            f"Show the {title} tab{' (the verdict and its reasons)' if name == 'verify' else ''}",
            "Side pane",
            partial(app.action_side_tab, name),
        )
