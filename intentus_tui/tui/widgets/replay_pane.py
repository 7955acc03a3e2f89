"""The Replay tab: the recorded response of the current execution, or why there is none.

Replay never runs agent code or calls a model: ``actions.replay`` only reads the record.
The replay and the pretty-printing of a multi-megabyte payload run in a thread worker; the
payload is then drawn lazily by ``JsonView``.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Static
from textual.worker import Worker, get_current_worker

from intentus_tui.core.actions import (
    FORCED_WARNING,
    ExecutionDetail,
    ReplayOutcome,
    ReplayResult,
    replay,
    replay_integrity,
    untrusted_problems,
    utc_text,
)
from intentus_tui.core.model import Verdict
from intentus_tui.tui.presenters.execution_text import (
    NOTHING_TO_REPLAY,
    doubt_rows,
    execution_label,
    integrity_note,
    no_response_note,
    refusal_note,
    unreadable_record,
    untrusted_banner,
)
from intentus_tui.tui.presenters.verdict_cells import (
    integrity_words,
)
from intentus_tui.tui.widgets.json_view import JsonView, pretty_json_lines
from intentus_tui.tui.widgets.pane_text import (
    BLANK,
    DIM_STYLE,
    PROBLEM_STYLE,
    WARNING_STYLE,
    Line,
    LinesView,
    badge,
    badge_line,
    bullet,
    compact_value,
    heading,
    line,
    loading_lines,
    plain,
    replayable_row,
    row,
    safe,
)
from intentus_tui.tui.widgets.scroll_keys import KeyedScroll

MAX_METADATA_KEYS = 30
BANNER_STYLE = "bold $text-error"


def _status_badge(result: ReplayResult) -> Content:
    status = result.status
    if status is None:
        return badge("NO STATUS", "muted")
    lowered = status.lower()
    if result.error is not None or lowered in ("error", "failed", "failure"):
        return badge(safe(status).upper(), "error")
    if lowered in ("success", "ok", "completed"):
        return badge(safe(status).upper(), "ok")
    return badge(safe(status).upper(), "info")


def _time_text(when: str | None) -> str | tuple[str, str]:
    """When the record was made, as every screen and ``replay`` show it: UTC to the second
    (``2026-01-05T09:01:41Z``), whichever form the record wrote it in."""
    return safe(utc_text(when)) if when else ("—", DIM_STYLE)


def _is_error(result: ReplayResult) -> bool:
    return result.error is not None or (result.status or "").lower() in ("error", "failed")


def _integrity_row(verdict: Verdict, mark: str) -> Line:
    """The verdict's integrity answer and reason, as the Verify tab and inspect say them."""
    said = f"{mark}{integrity_words(verdict.integrity)} — {verdict.integrity_reason}"
    return row("Integrity", (safe(said), PROBLEM_STYLE))


def integrity_lines(
    result: ReplayResult, untrusted: bool = True, verdict: Verdict | None = None
) -> list[Line]:
    """Above everything else: a banner when the record cannot be trusted (``untrusted``,
    as its verdict says) or fully checked, the verdict's integrity answer and reason (as
    the Verify tab gives them), each problem, and the notes on harmless differences."""
    lines: list[Line] = []
    doubts = result.untrusted
    if doubts:
        banner = untrusted_banner(doubts, untrusted)
        lines.append(Line(Content(""), Content.assemble((banner, BANNER_STYLE))))
        if verdict is not None:
            lines.append(_integrity_row(verdict, ""))
        for problem in doubts:
            lines.append(bullet(integrity_note(problem), PROBLEM_STYLE, mark="✗"))
    for problem in result.integrity:
        if problem.benign:
            lines.append(bullet(integrity_note(problem), DIM_STYLE, mark="ℹ"))
    if lines:
        lines.append(BLANK)
    return lines


def execution_rows(detail: ExecutionDetail, by_file: bool = False) -> list[Line]:
    """The execution's id and, with ``by_file`` (another file holds the id too: a copy,
    as its list row and the border name it), the name of the file replayed."""
    rows = [row("Execution", safe(execution_label(detail)))]
    if by_file:
        rows.append(row("File", safe(detail.path.name)))
    return rows


def result_lines(
    detail: ExecutionDetail, outcome: ReplayOutcome, by_file: bool = False
) -> list[Line]:
    """The header block above the payload (``by_file``: see ``execution_rows``)."""
    result = outcome.result
    assert result is not None
    lines: list[Line] = integrity_lines(result, outcome.answer_untrusted, outcome.verdict)
    if result.fromReplay:
        marker = badge("FROM REPLAY", "info")
        note = "the recorded response; no agent was run, no model was called"
    else:
        marker, note = badge("NOT A REPLAY", "warning"), "fromReplay is false"
    lines.append(badge_line(marker, note, DIM_STYLE))
    if outcome.forced and FORCED_WARNING in result.warnings:
        note = "replayed although the record is not replayable"
        lines.append(badge_line(badge("FORCED", "warning"), note, WARNING_STYLE))
    if _is_error(result):
        note = "the execution answered with an error; replay returns that error, not a success"
        lines.append(badge_line(badge("ERROR RESPONSE", "error"), note, PROBLEM_STYLE))
    lines.append(BLANK)
    original = result.originalExecutionId
    lines.append(row("Original id", safe(original) if original is not None else ("—", DIM_STYLE)))
    if by_file:
        lines.append(row("File", safe(detail.path.name)))
    lines.append(row("Original time", _time_text(result.originalTimestamp)))
    if result.untrusted:
        source = "an untrusted record" if outcome.answer_untrusted else "an unchecked record"
        lines.append(row("Status", _status_badge(result), (f"  from {source}", PROBLEM_STYLE)))
    else:
        lines.append(row("Status", _status_badge(result)))
    if result.error is not None:
        lines.append(row("Error", (compact_value(result.error, 400), PROBLEM_STYLE)))
    shown = {problem.text for problem in result.integrity}  # already above
    warnings = [warning for warning in result.warnings if warning not in shown]
    for index, warning in enumerate(warnings):
        label = "Warnings" if index == 0 else ""
        lines.append(row(label, ("⚠ " + safe(warning), WARNING_STYLE)))
    lines.extend(_metadata_lines(result))
    return lines


def no_response_lines(
    detail: ExecutionDetail, outcome: ReplayOutcome, by_file: bool = False
) -> list[Line]:
    """A forced replay of a record with no response: nothing was returned (``replay
    --force`` says so and exits 3), so no answer to warn about and no payload; what the
    record's integrity is and the replay's warnings, as ``replay`` gives them."""
    result = outcome.result
    assert result is not None
    lines = [
        heading("Nothing replayed", badge("NO RESPONSE", "warning")),
        *execution_rows(detail, by_file),
        row("Original time", _time_text(result.originalTimestamp)),
        row("Status", ("none recorded", DIM_STYLE)),
    ]
    verdict = outcome.verdict
    doubts = result.untrusted
    if verdict is not None and doubts:
        lines.append(_integrity_row(verdict, ""))
    for problem in doubts:
        lines.append(bullet(integrity_note(problem), PROBLEM_STYLE, mark="✗"))
    shown = {problem.text for problem in result.integrity}
    warnings = [warning for warning in result.warnings if warning not in shown]
    for index, warning in enumerate(warnings):
        lines.append(row("Warnings" if index == 0 else "", ("⚠ " + safe(warning), WARNING_STYLE)))
    lines.append(BLANK)
    lines.append(
        plain(f"{no_response_note(detail)} No agent was run, no model was called.", DIM_STYLE)
    )
    return lines


def _metadata_lines(result: ReplayResult) -> list[Line]:
    metadata = result.metadata
    if not metadata:
        return [row("Metadata", ("{} (none recorded)", DIM_STYLE))]
    lines = [row("Metadata", "")]
    for index, (key, value) in enumerate(metadata.items()):
        if index == MAX_METADATA_KEYS:
            lines.append(plain(f"… {len(metadata) - MAX_METADATA_KEYS} more keys", DIM_STYLE, 4))
            break
        key_text = Content.assemble("    ", (safe(key), "$text-primary"), ": ")
        lines.append(Line(key_text, Content(compact_value(value, 200))))
    return lines


def waiting_lines(detail: ExecutionDetail | None, by_file: bool = False) -> list[Line]:
    """Before a replay: what would happen (``by_file``: see ``execution_rows``)."""
    if detail is None:
        return [line("Select an execution to replay it.")]
    lines = [*execution_rows(detail, by_file), replayable_row(detail)]
    verdict = detail.verdict
    unreadable = unreadable_record(detail)
    if unreadable is not None:  # a record there that cannot be read now: not "none"
        note = f"Nothing can be replayed now: {unreadable}."
    elif detail.result.record is None:  # known from its log alone, or not a record at all
        note = NOTHING_TO_REPLAY
    elif detail.replayable and verdict is not None and verdict.replayable:
        note = "Replay returns the recorded response exactly; nothing is executed."
    elif detail.replayable and verdict is None:  # nothing says it cannot be believed
        note = "Replay still shows what was recorded, with the integrity warnings below."
    elif not detail.response_recorded:  # as `replay` says it: --force returns none
        note = f"Nothing to replay: {safe(detail.no_response_text)}."
    else:  # refused by the record or by its verdict (untrusted): `r` refuses it
        note = "A forced replay is possible after a confirmation."
    lines.append(plain(note, DIM_STYLE))
    doubts = untrusted_problems(replay_integrity(detail))
    if verdict is not None and doubts:
        lines.append(_integrity_row(verdict, "⚠ "))
        return lines
    for label, names in doubt_rows(doubts, untrusted=True):
        text = f"⚠ {label[0].lower()}{label[1:]}: {names}"
        lines.append(row("Integrity", (safe(text), PROBLEM_STYLE)))
    return lines


# A record caught mid-write (its row says "… writing"): not replayed, nor refused as damaged.
BEING_WRITTEN = (
    "The file is being written (it changed moments ago and does not parse yet): r and R "
    "answer once it is whole."
)


def writing_lines(detail: ExecutionDetail, by_file: bool = False) -> list[Line]:
    """The Replay tab of a record being written, before and after ``r``: its row's words."""
    return [
        *execution_rows(detail, by_file),
        row("Replayable", ("not before it is whole", DIM_STYLE)),
        plain(BEING_WRITTEN, DIM_STYLE),
    ]


def refused_lines(
    detail: ExecutionDetail, outcome: ReplayOutcome, by_file: bool = False
) -> list[Line]:
    """The verdict's code and words, as ``replay`` and the list say them (a writer's own
    reason was shown as the code), then what the refusal means and what forcing does."""
    code = outcome.refusal_code
    reason = safe(f"{code} — {outcome.refusal_text}")
    verdict = detail.verdict
    if outcome.message:  # the verdict's own words (an untrusted record)
        # What broke, as the Verify tab says it ("fails its integrity check" alone did not
        # say which: a record changed since it was bundled, an edited envelope, ...).
        broken = "Its evidence fails its integrity check"
        if verdict is not None and not verdict.trusted:
            broken = (
                f"{integrity_words(verdict.integrity).capitalize()}: {verdict.integrity_reason}"
            )
        forced = (
            "A forced replay (R) returns the recorded answer anyway, with its integrity "
            "problems, after a confirmation."
        )
        broken += "" if broken.endswith((".", "?", "!")) else "."  # "edited after recording?"
        note = f"{broken} {forced if detail.response_recorded else no_response_note(detail)}"
    else:
        note = refusal_note(code, detail)
    return [
        heading("Replay refused", badge("NOT REPLAYABLE", "error")),
        *execution_rows(detail, by_file),
        row("Reason", (reason, PROBLEM_STYLE)),
        BLANK,
        plain(safe(note), DIM_STYLE),
    ]


def failed_lines(
    detail: ExecutionDetail, outcome: ReplayOutcome, by_file: bool = False
) -> list[Line]:
    title = "Forced replay failed" if outcome.forced else "Replay failed"
    return [
        heading(title, badge("FAILED", "error")),
        *execution_rows(detail, by_file),
        bullet(safe(outcome.message), PROBLEM_STYLE, mark="✗"),
    ]


SMALL_PAYLOAD_LINES = 6  # a payload this short is shown whole, the summary given the rest


class ReplayPane(Vertical):
    """Summary on top (scrolls if long), the payload below in a lazy JSON view. With no
    payload to show (before a replay, refused, failed), the summary has the whole pane."""

    DEFAULT_CSS = """
    ReplayPane { padding: 0 1; }
    /* The scrollbar's gutter kept: two cells narrower, a summary's labelled rows can wrap
       from the left edge in fewer rows, which need no scrollbar; it came and went for ever */
    ReplayPane > #replay-summary-scroll {
        height: auto; max-height: 60%; scrollbar-gutter: stable;
    }
    ReplayPane #replay-summary { width: 1fr; }
    ReplayPane > #replay-payload-title { margin-top: 1; color: $text-accent; text-style: bold; }
    ReplayPane > #replay-payload { height: 1fr; min-height: 3; border: round $panel; }
    ReplayPane.-no-payload > #replay-summary-scroll { height: 1fr; max-height: 100%; }
    ReplayPane.-no-payload > #replay-payload-title,
    ReplayPane.-no-payload > #replay-payload { display: none; }
    """

    class Finished(Message):
        """A replay worker is done (posted from its thread), the payload's lines made."""

        def __init__(
            self, detail: ExecutionDetail, outcome: ReplayOutcome, payload_lines: list[str]
        ) -> None:
            super().__init__()
            self.detail = detail
            self.outcome = outcome
            self.payload_lines = payload_lines

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-no-payload")
        self._detail: ExecutionDetail | None = None
        self._small_payload: int | None = None  # the lines of a payload shown whole
        self.loading_label: str | None = None  # with no detail: the execution being read
        # The detail's id is held by another file too (a copy): its file is named as well.
        self.by_file = False
        self.outcome: ReplayOutcome | None = None
        self._payload_lines: list[str] = []
        # The detail is a record caught mid-write (its row's "… writing"): set before it.
        self.writing = False

    def compose(self) -> ComposeResult:
        with KeyedScroll(id="replay-summary-scroll"):
            yield LinesView(waiting_lines(None), id="replay-summary")
        yield Static(Content("Payload"), id="replay-payload-title")
        yield JsonView(id="replay-payload")

    @property
    def detail(self) -> ExecutionDetail | None:
        return self._detail

    @detail.setter
    def detail(self, detail: ExecutionDetail | None) -> None:
        """A new execution supersedes any replay of the previous one, running or shown."""
        self._detail = detail
        self.outcome = None
        self._payload_lines = []
        # A replay still running for the previous detail is not cancelled (a thread cannot
        # be interrupted, and a cancelled worker makes wait_for_complete() raise): its
        # result is dropped on arrival because it names another detail.
        if self.is_mounted:
            self._show()

    def on_mount(self) -> None:
        self._show()

    def start(self, force: bool) -> Worker[ReplayOutcome] | None:
        """Replay the current execution in a thread; the result shows when it is done."""
        detail = self._detail
        if detail is None:
            return None
        if self.writing:  # half a file: nothing to replay or refuse yet
            self._show()
            return None
        self._set_summary([plain("Replaying…", DIM_STYLE)])
        self.add_class("-no-payload")
        return self._replay(detail, force)

    @work(thread=True, exclusive=True, group="replay", exit_on_error=False)
    def _replay(self, detail: ExecutionDetail, force: bool) -> ReplayOutcome:
        # the checks made for the detail, and its WAL: the result carries their problems
        outcome = replay(
            detail.result,
            force=force,
            report=detail.verify,
            wal=detail.wal,
            verdict=detail.verdict,
        )
        lines = pretty_json_lines(outcome.result.payload) if outcome.result is not None else []
        if not get_current_worker().is_cancelled:
            self.post_message(self.Finished(detail, outcome, lines))
        return outcome

    def on_replay_pane_finished(self, message: Finished) -> None:
        message.stop()
        if message.detail is not self._detail:
            return  # the user moved on while it ran
        self.outcome = message.outcome
        self._payload_lines = message.payload_lines
        self._show()

    def _set_summary(self, lines: list[Line]) -> None:
        self.query_one("#replay-summary", LinesView).update(lines)

    def _show(self) -> None:
        detail, outcome, by_file = self._detail, self.outcome, self.by_file
        if detail is not None and self.writing:
            self._show_alone(writing_lines(detail, by_file))
            return
        if detail is None or outcome is None:
            loading = self.loading_label if detail is None else None
            waiting = waiting_lines(detail, by_file)
            self._show_alone(loading_lines(loading) if loading else waiting)
            return
        if outcome.kind == "refused":
            self._show_alone(refused_lines(detail, outcome, by_file))
            return
        if outcome.kind != "result":  # failed (this tab gives no envelope to mismatch)
            self._show_alone(failed_lines(detail, outcome, by_file))
            return
        if outcome.result is not None and not outcome.result.response_recorded:
            # forced, and nothing returned: no payload box
            self._show_alone(no_response_lines(detail, outcome, by_file))
            return
        self._set_summary(result_lines(detail, outcome, by_file))
        lines = self._payload_lines
        count, chars = len(lines), sum(map(len, lines))
        title = f"Payload  ({count:,} line{'s' if count != 1 else ''}, {chars:,} characters)"
        self.query_one("#replay-payload-title", Static).update(Content(title))
        payload = self.query_one(JsonView)
        payload.set_lines(lines)
        # A payload of a few lines takes just their rows, right below the summary, and
        # the summary may take the rest (at 80x24 its warnings were scrolled out of sight
        # above an empty box).
        self._small_payload = count if count <= SMALL_PAYLOAD_LINES else None
        payload.styles.height = count + 2 if self._small_payload is not None else None
        self.remove_class("-no-payload")
        self._fit_summary()

    def _show_alone(self, lines: list[Line]) -> None:
        """``lines`` with no payload below: the summary has the whole pane (the rows a
        small payload left it, kept, cut a refusal shown after one mid-sentence)."""
        self.add_class("-no-payload")
        self._small_payload = None
        self._fit_summary()
        self._set_summary(lines)

    def on_resize(self) -> None:
        self._fit_summary()

    def _fit_summary(self) -> None:
        """The summary's most rows: what a small payload, its title and the blank row
        above it leave (else the stylesheet's share of the pane)."""
        summary = self.query_one("#replay-summary-scroll")
        if self._small_payload is None:
            summary.styles.max_height = None
            return
        room = self.content_region.height - (self._small_payload + 2) - 2
        summary.styles.max_height = max(room, 3)

    @property
    def text(self) -> str:
        """The summary text shown (for tests)."""
        return self.query_one("#replay-summary", LinesView).text
