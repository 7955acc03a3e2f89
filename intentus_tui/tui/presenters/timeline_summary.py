"""The lines above a timeline's events: the execution's identity and verdict, how its
attempts ran (a chain or a fan-out), where it stopped; for one known only from its
write-ahead log, the log's steps. Pure: Textual content from the core's facts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from textual.content import Content

from intentus_tui.core.actions import CLAIMED, ExecutionState, LoadStatus, Timeline, claims_only
from intentus_tui.core.model import FILE_WORDS, Integrity, Outcome, Verdict, salvaged_words
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.render.cells import fit, wider_than
from intentus_tui.tui.presenters.list_rows import (
    display_id,
)
from intentus_tui.tui.presenters.time_cells import attempt_duration, times_text
from intentus_tui.tui.presenters.verdict_cells import (
    INTEGRITY_WIDTH,
    REPLAY_WIDTH,
    WritingVerdict,
    integrity_cell,
    integrity_words,
    outcome_badge,
    replay_cell,
    replay_words,
)

if TYPE_CHECKING:  # not imported at start: the first frame should not wait for them
    from intentus_tui.core.actions import Attempt, ExecutionDetail, ExecutionTimes, WalLog

_MARK_STYLES = {"ok": "$success", "error": "$error", "in_flight": "$warning"}


class ChainForm(NamedTuple):
    """How much of a chain to draw: the attempts (by number; None: all, the others each
    run of them one "…"), whose durations (``all``, ``in_flight``, ``none``), whether
    the attempts only the log has are said to be the log's, the most cells an agent's
    name takes (None: whole; a longer one ends in "…"), and whether each attempt in flight
    is said to be (else only the last drawn: ``a … → b … in flight``)."""

    shown: frozenset[int] | None = None
    durations: str = "all"
    log_words: bool = True
    name_cells: int | None = None
    flight_words: bool = True


WHOLE_CHAIN = ChainForm()
# An agent's name in the chain is cut after this many characters: a hostile 4 MB name was
# copied into each of the chain's nine forms, 1.3 s of each selection.
CHAIN_NAME_MOST = 4_000


def chain_content(
    timeline: Timeline,
    times: ExecutionTimes | None = None,
    now: datetime | None = None,
    *,
    claimed: bool = False,
    form: ChainForm = WHOLE_CHAIN,
) -> Content:
    """How the attempts ran, each mark in its status colour and its duration where one is
    known: tried in turn, ``fb-primary ✗ 738ms → fb-secondary ✓ 2.86s``, or side by side,
    ``⇉ primary ✗ | replica ✓ ← answer``; an attempt in flight, how long it is open. The
    attempts only the write-ahead log has (the record stops before them) follow ``from the
    log:``, said once. ``claimed``: the execution is untrusted, its attempts only claims
    (``(claimed)`` first, as ``inspect`` and the palette say it; its successes not green).
    ``form``: less of it, for a narrow pane (``chain_forms``)."""
    fan_out = timeline.fan_out is not None
    answer = timeline.answered_by if fan_out else None
    parts: list[str | tuple[str, str]] = [(f"{CLAIMED} ", "$warning")] if claimed else []
    if fan_out:
        parts.append(("⇉ ", "bold $accent"))
    logged = next((a.number for a in timeline.attempts if a.log_start_seq is not None), None)
    runs = _drawn(timeline.attempts, form.shown)
    said_in_flight = None  # the one attempt "in flight" follows, when not each
    if not form.flight_words:
        flying = (n for n, _, a in runs if a is not None and a.in_flight)
        said_in_flight = max(flying, default=None)
    for drawn, (first, last, attempt) in enumerate(runs):
        if drawn:
            parts.append((" | " if fan_out else " → ", "$text-muted"))
        if form.log_words and logged is not None and first <= logged <= last:
            parts.append(("from the log: ", "$text-muted"))
            logged = None  # said once
        if attempt is None:
            parts.append(("…", "$text-muted"))  # attempts a narrow pane leaves out
            continue
        name = attempt.agent or "?"
        if len(name) > CHAIN_NAME_MOST:  # more than the summary's dozen rows show
            name = name[:CHAIN_NAME_MOST] + "…"
        parts.append((name if form.name_cells is None else _cut(name, form.name_cells), "bold"))
        style = _MARK_STYLES.get(attempt.status, "$text-muted")
        parts.append(
            (f" {attempt.mark}", "$text-muted" if claimed and _says_success(style) else style)
        )
        if attempt.in_flight and (form.flight_words or attempt.number == said_in_flight):
            parts.append((" in flight", "bold $warning"))
        index = attempt.number - 1
        timed = times.attempts[index] if times and index < len(times.attempts) else None
        took = attempt_duration(timed, now)
        timed_too = form.durations == "all" or (form.durations == "in_flight" and attempt.in_flight)
        if took is not None and timed_too:
            parts.append((f" {took}", "bold $warning" if attempt.in_flight else "$text-muted"))
        if attempt is answer:
            parts.append((" ← answer", "$text-muted" if claimed else "$success"))
    return Content.assemble(*parts) if parts else Content.styled("no agent attempts", "$text-muted")


def _cut(name: str, cells: int) -> str:
    # Measured by its start when that is too wide already: a 1 MB agent name was measured
    # whole in each of the chain's forms, 1.8 s a selection.
    return fit(name, cells) if wider_than(name, cells) else name


def _drawn(
    attempts: Sequence[Attempt], shown: frozenset[int] | None
) -> list[tuple[int, int, Attempt | None]]:
    """The attempts drawn, each with its number (twice), and each run of those left out
    as one: its first and last numbers, None."""
    drawn: list[tuple[int, int, Attempt | None]] = []
    for attempt in attempts:
        number = attempt.number
        if shown is None or number in shown:
            drawn.append((number, number, attempt))
        elif drawn and drawn[-1][2] is None:
            drawn[-1] = (drawn[-1][0], number, None)
        else:
            drawn.append((number, number, None))
    return drawn


_WHOLE_CHAIN_MOST = 12


def chain_forms(timeline: Timeline) -> list[ChainForm]:
    """The shorter chains to draw where the whole one does not fit its rows, most telling
    first: the durations go (the warning under it says how long the one in flight is
    open), then "from the log:" (the warning and the events' end say it), then the middle
    of the chain, then its ends' names shorten, then its start goes, then the names shorten
    more. The attempts in flight, the last one and the answer stay, their marks whole: a
    narrow pane draws ``a ✗ → … → c … in flight``, ``a ✗ → ticket-classifier-b… ✓`` or
    ``⇉ … | kb-search-c… ✓ ← answer``, never a chain cut before its end. Several attempts
    in flight are said so once (``a … → b … in flight``), and at the last only the first
    of them stays."""
    attempts = timeline.attempts
    if not attempts:
        return []
    kept = _kept(timeline)
    ends = frozenset({attempts[0].number, *kept})
    logged = any(a.log_start_seq is not None for a in attempts)
    # Several attempts in flight: past the whole chain's first forms, "in flight" is said
    # once, after the last of them (80 columns cut ``a … in flight → b … in flig…``).
    words = len(timeline.in_flight) < 2
    forms: list[ChainForm] = []
    if len(attempts) <= _WHOLE_CHAIN_MOST:  # else not in a row or two: not drawn whole again
        forms += [ChainForm(None, "in_flight"), ChainForm(None, "none")]
        forms += [ChainForm(None, "none", False)] if logged else []
        forms += [] if words else [ChainForm(None, "none", not logged, None, False)]
    for shown in (ends, frozenset(kept)):
        if len(shown) < len(attempts):
            forms += [
                ChainForm(shown, "in_flight", not logged, None, words),
                ChainForm(shown, "none", not logged, None, words),
            ]
        if shown is ends:  # the first attempt (often the failure) is worth shorter names
            whole = ends if len(ends) < len(attempts) else None
            forms += [
                ChainForm(whole, "none", not logged, cells, words) for cells in _FIRST_NAME_CELLS
            ]
    fewest = frozenset(kept) if len(kept) < len(attempts) else None
    fewer = _kept(timeline, in_flight=1)
    if len(fewer) == len(kept):
        return forms + [ChainForm(fewest, "none", not logged, c, words) for c in _NAME_CELLS]
    # Then only the first attempt in flight stays of them: its agent's name whole before
    # the others' names are cut to a few letters.
    forms += [ChainForm(fewest, "none", not logged, c, words) for c in _NAME_CELLS[:2]]
    return forms + [
        ChainForm(frozenset(fewer), "none", not logged, c, False) for c in (None, *_NAME_CELLS)
    ]


def _kept(timeline: Timeline, in_flight: int | None = None) -> set[int]:
    """The attempts every shorter chain draws: the last, the answer, those in flight (the
    first of them, as many as have a line of their own, or ``in_flight``)."""
    most = _EACH_SAID_MOST if in_flight is None else in_flight
    kept = {a.number for a in timeline.in_flight[:most]}
    kept |= {timeline.attempts[-1].number} if timeline.attempts else set()
    if timeline.answered_by is not None:
        kept.add(timeline.answered_by.number)
    return kept


# Longer than this, a chain is drawn as its first and last ``_CHAIN_ENDS`` attempts and
# those ``_kept`` (the others, each run of them, one "…"): thousands of attempts drawn whole
# made one line of hundreds of rows, wrapped again each time the pane was fitted.
_CHAIN_DRAWN_MOST = 60
_CHAIN_ENDS = 20


def _longest_form(count: int, kept: set[int]) -> ChainForm:
    """The most drawn of a chain of ``count`` attempts (or a log's steps), numbered from 1,
    whose shorter forms keep ``kept``."""
    if count <= _CHAIN_DRAWN_MOST:
        return WHOLE_CHAIN
    ends = [*range(1, _CHAIN_ENDS + 1), *range(count - _CHAIN_ENDS + 1, count + 1)]
    return ChainForm(frozenset([*ends, *kept]))


# The names of a chain that does not fit otherwise, shorter and shorter: the marks after
# them ("✓ ← answer", "… in flight") say what matters.
_NAME_CELLS = (16, 12, 8, 4)
# Before the start of a chain goes: its ends with names this long at most.
_FIRST_NAME_CELLS = (20, 16)


def _says_success(style: str) -> bool:
    """A style that says success: what an untrusted execution's claims are not shown in."""
    return "$success" in style


def _plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else words or word + 's'}"


_OUTCOME_STYLES = {
    Outcome.SUCCEEDED: "bold $success",
    Outcome.FAILED: "bold $error",
    Outcome.IN_FLIGHT: "bold $warning",
    Outcome.UNKNOWN: "bold $error",
}
_INTEGRITY_STYLES = {
    Integrity.VERIFIED: "$success",
    Integrity.BENIGN: "$warning",
    Integrity.TAMPERED: "bold $error",
    Integrity.UNVERIFIABLE: "$warning",
    Integrity.CHAIN_BROKEN: "bold $error",
}


def outcome_part(verdict: Verdict) -> tuple[str, str]:
    """The outcome badge as the list row shows it, styled for the header line."""
    text, _ = outcome_badge(verdict)
    style = _OUTCOME_STYLES[verdict.outcome] if verdict.trusted else "bold reverse $error"
    if isinstance(verdict, WritingVerdict):  # "… writing": as the row, to be whole soon
        style = _OUTCOME_STYLES[Outcome.IN_FLIGHT]
    return text, style


def verdict_lines(verdict: Verdict) -> list[Content]:
    """The verdict's three answers, each with its reason, in the command line's words."""
    integrity, replay = integrity_words(verdict.integrity), replay_words(verdict)
    replay_style = "$success" if verdict.replayable else "$warning"
    rows = (
        ("outcome   ", outcome_part(verdict), verdict.outcome_reason),
        (
            "integrity ",
            (integrity, _INTEGRITY_STYLES[verdict.integrity]),
            verdict.integrity_reason,
        ),
        ("replay    ", (replay, replay_style), verdict.replay_reason),
    )
    return [
        Content.assemble(
            (label, "$text-muted"), part, (f" — {sanitize_line(reason)}", "$text-muted")
        )
        for label, part, reason in rows
    ]


def verdict_brief(verdict: Verdict) -> Content:
    """The three answers on one line, without their reasons, in the words of the verdict's
    lines and the Verify tab: ``? unknown · unverifiable · ✗ no (record_corrupted)``
    (``verdict_brief_shorter`` where they do not fit)."""
    return _brief(verdict, integrity_words(verdict.integrity), replay_words(verdict))


def verdict_brief_shorter(verdict: Verdict) -> tuple[Content, ...]:
    """``verdict_brief`` as the list's columns abbreviate it, for a row too narrow for its
    words: ``? unknown · unverif. · ✗ corrupt`` (none when they read the same)."""
    integrity, _ = integrity_cell(verdict.integrity, INTEGRITY_WIDTH)
    replay, _ = replay_cell(verdict.replay, REPLAY_WIDTH)
    shorter = _brief(verdict, integrity, replay)
    return (shorter,) if shorter.plain != verdict_brief(verdict).plain else ()


def _brief(verdict: Verdict, integrity: str, replay: str) -> Content:
    return Content.assemble(
        outcome_part(verdict),
        (" · ", "$text-muted"),
        (integrity, _INTEGRITY_STYLES[verdict.integrity]),
        (" · ", "$text-muted"),
        (replay, "$success" if verdict.replayable else "$warning"),
    )


# The width of the verdict's labels ("integrity "): its reasons wrap beside them.
VERDICT_LABEL_WIDTH = 10


class SummaryText(NamedTuple):
    """The lines above the events, and how far in each one's wrapped rows go (a verdict's
    reason stays beside its label); ``short``: the same in fewer rows, for a short pane."""

    lines: list[Content]
    hangs: list[int]
    short: tuple[list[Content], list[int]] | None = None
    keep: int = 0  # the first lines that show whole, or one row each, or in the short form
    first: tuple[int, ...] = ()  # of those, the lines whose rows to spare come first
    # Lines (of either form) with shorter ones to draw in fewer rows, most telling first:
    # the chain, whose middle goes before its end (the agent in flight) does.
    shorter: tuple[tuple[Content, tuple[Content, ...]], ...] = ()
    # Lines that have a row only when the others have all theirs: the fallbacks (the counts
    # line and the events' ↪ say them too) give way to the verdict's reasons.
    yielding: tuple[int, ...] = ()
    # The yielding lines said in one, drawn in their place when they cannot all have a row
    # (rather than the first few shown and the others left out): ``fallbacks: a → b → c``.
    folded: Content | None = None
    # Lines of ``shorter`` drawn shorter whenever they wrap (``ClampedText.show``).
    abbreviate: tuple[Content, ...] = ()

    @property
    def content(self) -> Content:
        return Content("\n").join(self.lines)


def summary_content(
    detail: ExecutionDetail, verdict: Verdict | None = None, now: datetime | None = None
) -> SummaryText:
    """The lines above the events: identity and verdict (or the file's state when there is
    no verdict), salvage, chain, crash point.

    Most important first: the pane is short and a narrow one wraps.
    """
    result, timeline = detail.result, detail.timeline
    record = result.record
    ident = sanitize_line((record.execution_id if record else None) or result.stem)
    intent = sanitize_line(record.intent_name or "") if record else ""
    state = outcome_part(verdict) if verdict is not None else _state_part(detail)
    title = Content.assemble(
        (ident, "bold"), ("  ", ""), (intent, "$text-accent"), ("  ", ""), state
    )
    # On one row too narrow for it: the whole id and the answer (the list's row names the
    # intent), else the id as the list shows it (a UUID's first 8 characters), the answer,
    # then the intent: a cut never takes the verdict's word ("⚠ untru…" at 120 columns).
    whole_id = Content.assemble((ident, "bold"), ("  ", ""), state)
    short_title = Content.assemble(
        (display_id(ident), "bold"), ("  ", ""), state, ("  ", ""), (intent, "$text-accent")
    )
    titles = ((title, (whole_id, short_title)),)
    text = SummaryText([title], [0])
    if verdict is not None:  # a damaged file's damage lines follow
        _add(text, verdict_lines(verdict), VERDICT_LABEL_WIDTH)
    if result.status is not LoadStatus.OK:
        _add(text, _salvage_lines(detail))
    chain: Content | None = None
    chain_at = len(text.lines)
    forms: tuple[Content, ...] = ()
    if timeline is not None:
        claimed = claims_only(verdict)
        chain, *rest = _timeline_lines(timeline, detail.times, now, claimed)
        _add(text, [chain], len(chain_label(timeline)))  # a long chain stays beside its label
        _add(text, rest)
        fallbacks = _fallback_lines(timeline)
        text = text._replace(
            yielding=tuple(range(len(text.lines), len(text.lines) + len(fallbacks))),
            folded=_folded_fallbacks(timeline) if len(fallbacks) > 1 else None,
        )
        _add(text, fallbacks)
        label = (chain_label(timeline), "$text-muted")
        forms = tuple(
            Content.assemble(
                label, chain_content(timeline, detail.times, now, claimed=claimed, form=f)
            )
            for f in chain_forms(timeline)
        )
    chained = (chain, len(chain_label(timeline))) if chain and timeline else None
    if chained is None and record is None and result.status is not LoadStatus.OK:
        # No record, no chain: the short form's third row says what the file is, as its
        # list row does ("Not UTF-8 text: …", "Cannot read: …"); it was left blank.
        chained = (_salvage_lines(detail)[0], 0)
    text = _with_short_form(text, ident, intent, verdict, chained)
    if text.keep and chain is not None:  # whole, the chain names the agent that answered
        text = text._replace(first=(*text.first, chain_at))
    chains = ((chain, forms),) if chain is not None and forms else ()
    return text._replace(shorter=(*titles, *chains, *text.shorter))


def _with_short_form(
    text: SummaryText,
    ident: str,
    intent: str,
    verdict: Verdict | None,
    chain: tuple[Content, int] | None,
) -> SummaryText:
    """``text`` with its short form, for a pane too short for the verdict's lines (80x24):
    the three answers in one line, then the chain; the reasons are a tab away (Verify,
    Post-mortem). Every answer in sight beats two with reasons."""
    if verdict is None:
        return text
    # The id as the list shows it (a UUID's first 8 characters): the intent keeps its room.
    named = Content.assemble((display_id(ident), "bold"), ("  ", ""), (intent, "$text-accent"))
    brief = verdict_brief(verdict)
    short = [(named, 0), (brief, 0), *([chain] if chain else [])]
    lines, hangs = zip(*short, strict=True)
    # The answers in words where their row has room, else as the list's columns say them.
    briefer = ((brief, verdict_brief_shorter(verdict)),)
    # title, the 3 answers; rows to spare go to the integrity's reason first: when it is
    # long, it says what broke (the outcome's then only advises investigating); then the
    # outcome's and the replay's (the chain's follow: see summary_content)
    return text._replace(
        short=(list(lines), list(hangs)),
        keep=4,
        first=(2, 1, 3),
        shorter=(*text.shorter, *briefer),
        # Abbreviated as the list's columns are before it wraps: "✗ corrupt" whether or
        # not the pane has a row to spare for "(record_corrupted)" (with no chain line).
        abbreviate=(brief,),
    )


def _add(text: SummaryText, lines: Sequence[Content], hang: int = 0) -> None:
    text.lines.extend(lines)
    text.hangs.extend([hang] * len(lines))


def chain_label(timeline: Timeline) -> str:
    """The chain line's label: ``chain `` or the fan-out's name (``parallel ``)."""
    return f"{timeline.fan_out} " if timeline.fan_out is not None else "chain "


def _timeline_lines(
    timeline: Timeline, times: ExecutionTimes | None, now: datetime | None, claimed: bool
) -> list[Content]:
    fan_out = timeline.fan_out
    counts = [_plural(len(timeline.rows), "event")]
    if fan_out is None:
        counts.append(_plural(timeline.attempt_count, "attempt"))
    else:
        counts.append(_plural(timeline.attempt_count, "branch", "branches"))
    if timeline.fallbacks:
        counts.append(_plural(len(timeline.fallbacks), "fallback") + _logged_part(timeline))
    if fan_out is not None and timeline.decided_agent is not None:
        why = f" ({timeline.decision_reason})" if timeline.decision_reason else ""
        answered = timeline.answered_by is not None
        counts.append(f"{'answer' if answered else 'router'}: {timeline.decided_agent}{why}")
    counts.append(f"final response: {timeline.final_text}")
    # "took" is claimed only when the last event has a time: a broken log chain or a
    # record without event times left the last known time short of the end.
    end = len(timeline.rows) - 1
    end_timed = times is not None and end >= 0 and times.event_time(end) is not None
    took = times_text(times, now, timeline.state is ExecutionState.COMPLETED and end_timed)
    if took:
        counts.append(took)
    lines = [  # the chain first (see summary_content)
        Content.assemble(
            (chain_label(timeline), "$text-muted"),
            chain_content(
                timeline,
                times,
                now,
                claimed=claimed,
                form=_longest_form(len(timeline.attempts), _kept(timeline)),
            ),
        ),
        Content.styled(" · ".join(counts), "$text-muted"),
    ]
    if fan_out == "parallel" and timeline.attempts:
        # 1.3.0 stops recording at the first success; with none, every branch is here.
        succeeded = any(a.status == "ok" for a in timeline.attempts)
        after = "; none after the first success" if succeeded else ""
        lines.append(Content.styled(f"recorded as they finished{after}", "$text-muted"))
    what = "branch" if fan_out is not None else "attempt"
    for attempt in timeline.in_flight[:_EACH_SAID_MOST]:
        seq = f" at seq {attempt.start_seq}" if attempt.start_seq is not None else ""
        only = ""
        if attempt.log_start_seq is not None:
            seq, only = f" at WAL #{attempt.log_start_seq}", "only the write-ahead log has it; "
        timed = times.attempts[attempt.number - 1] if times else None
        open_for = timed.open_for(now) if timed is not None and now is not None else None
        took = f", {attempt_duration(timed, now)}," if open_for is not None else ""
        lines.append(
            Content.styled(
                f"⚠ {what} {attempt.number} by {attempt.agent}{took} started{seq} and never ended"
                f" — {only}it may have had side effects",
                "bold $warning",
            )
        )
    if len(timeline.in_flight) > _EACH_SAID_MOST:
        more = len(timeline.in_flight) - _EACH_SAID_MOST
        lines.append(
            Content.styled(
                f"⚠ {_plural(more, f'more {what}', f'more {what}es' if fan_out else None)}"
                " started and never ended — the events show each",
                "bold $warning",
            )
        )
    closed = [a for a in timeline.attempts if a.log_end_seq and a.log_start_seq is None]
    if closed:  # rare: the words (and their module) are fetched when there is one
        from intentus_tui.core import actions

        lines += [
            Content.styled(f"⚠ {actions.log_ended(a)}", "$warning")
            for a in closed[:_EACH_SAID_MOST]
        ]
        if len(closed) > _EACH_SAID_MOST:
            more = len(closed) - _EACH_SAID_MOST
            said = f"⚠ {more:,} more ended only in the write-ahead log"
            lines.append(Content.styled(said, "$warning"))
    if timeline.log_disagreement is not None:
        said = f"⚠ the record and its write-ahead log disagree: {timeline.log_disagreement}"
        lines.append(Content.styled(said, "bold $warning"))
    if timeline.state is ExecutionState.INCOMPLETE and timeline.last_event is not None:
        last = timeline.last_event
        seq = f"seq {last.seq} " if last.seq is not None else ""
        lines.append(
            Content.styled(f"last recorded event: {seq}{last.type} {last.summary}", "$warning")
        )
    return lines


# Each in-flight attempt, fallback or attempt ended only in the log has a line of its own up
# to this many; one line counts the rest (a damaged record can hold thousands: each line
# wrapped and fitted to the pane, the summary took seconds on the screen's own thread).
_EACH_SAID_MOST = 3


def _fallback_lines(timeline: Timeline) -> list[Content]:
    """Each fallback (the first three), with its reason."""
    lines: list[Content] = []
    for step in timeline.fallbacks[:_EACH_SAID_MOST]:
        why = f": {step.reason}" if step.reason else ""
        seq = f"seq {step.seq} " if step.seq is not None else ""
        if step.log_seq is not None:
            seq = f"WAL #{step.log_seq} "
        lines.append(
            Content.styled(f"{seq}fallback {step.from_agent} → {step.to_agent}{why}", "$warning")
        )
    if len(timeline.fallbacks) > _EACH_SAID_MOST:
        more = len(timeline.fallbacks) - _EACH_SAID_MOST
        lines.append(Content.styled(f"… {_plural(more, 'more fallback')}", "$warning"))
    return lines


def _folded_fallbacks(timeline: Timeline) -> Content:
    """Every fallback on one line: ``fallbacks: a → b → c: unavailable (WAL #4, #7)``, its
    agents as they handed on (a step that does not continue the one before after a comma),
    the reason when all share it, then where each was recorded; past the first
    ``_FOLDED_MOST`` fallbacks, how many more."""
    steps = timeline.fallbacks[:_FOLDED_MOST]
    chains: list[list[str]] = []
    for step in steps:
        if chains and chains[-1][-1] == step.from_agent:
            chains[-1].append(step.to_agent)
        else:
            chains.append([step.from_agent, step.to_agent])
    reasons = {step.reason for step in timeline.fallbacks}
    (reason,) = reasons if len(reasons) == 1 else (None,)
    why = f": {reason}" if reason else ""
    logged = [f"#{step.log_seq}" for step in steps if step.log_seq is not None]
    recorded = [str(step.seq) for step in steps if step.log_seq is None and step.seq is not None]
    where = [
        f"{name} {', '.join(seqs)}" for name, seqs in (("seq", recorded), ("WAL", logged)) if seqs
    ]
    more = len(timeline.fallbacks) - len(steps)
    at = f" ({'; '.join(where)}{', …' if more else ''})" if where else ""
    agents = ", ".join(" → ".join(chain) for chain in chains)
    if more:
        agents += f" … ({_plural(more, 'more fallback')})"
    return Content.styled(f"fallbacks: {agents}{why}{at}", "$warning")


_FOLDED_MOST = 10


def _logged_part(timeline: Timeline) -> str:
    """After the fallback count: how many of them only the write-ahead log has."""
    logged = sum(1 for step in timeline.fallbacks if step.log_seq is not None)
    if not logged:
        return ""
    return " (the log's)" if logged == len(timeline.fallbacks) else f" ({logged} the log's)"


def _salvage_lines(detail: ExecutionDetail) -> list[Content]:
    """Where the file breaks and what survived it; the loader's message otherwise."""
    result = detail.result
    if result.damage is None or result.record is None:
        return [Content.styled(sanitize_line(result.message), "bold $error")]
    damage = f"{salvaged_words(result.message)}: {result.damage.describe()}"
    lines = [Content.styled(sanitize_line(damage), "bold $error")]
    recovered = ", ".join(result.recovered) or "nothing whole"
    partly = ""
    if result.partial:
        partly = f" · partly: {', '.join(result.partial)}"
        if "events" in result.partial:
            count = len(result.record.events)
            partly += f" ({count:,} complete event{'s' if count != 1 else ''} before the break)"
    lines.append(Content.styled(sanitize_line(f"recovered whole: {recovered}{partly}"), "$error"))
    return lines


def _state_part(detail: ExecutionDetail) -> tuple[str, str]:
    timeline = detail.timeline
    if detail.result.status is LoadStatus.SALVAGED:
        return (f"✗ {salvaged_words(detail.result.message)}", "bold $error")
    if timeline is None:
        status = detail.result.status  # as its line says it: "not UTF-8 text", not "not utf8"
        return (f"✗ {FILE_WORDS.get(status, status.value.replace('_', ' '))}", "bold $error")
    if timeline.state is ExecutionState.INCOMPLETE:
        return ("… incomplete", "bold $warning")
    if detail.replayable:
        return ("✓ replayable", "bold $success")
    verdict = detail.verdict  # its words, as the Replay tab and the CLI say them
    why = verdict.replay_reason if verdict is not None else detail.replay_reason or "?"
    return (f"✗ not replayable: {sanitize_line(why)}", "bold $warning")


def wal_summary_content(
    log: WalLog,
    verdict: Verdict | None = None,
    times: ExecutionTimes | None = None,
    now: datetime | None = None,
) -> SummaryText:
    text = SummaryText([], [])
    ident, intent = sanitize_line(log.execution_id), sanitize_line(log.intent_name or "")
    _add(
        text,
        [
            Content.assemble(
                (ident, "bold"),
                "  ",
                (intent, "$text-accent"),
                "  ",
                (f"◌ {log.state.replace('_', ' ')}: no record file", "bold $warning")
                if verdict is None
                else outcome_part(verdict),
            )
        ],
    )
    if verdict is not None:
        _add(text, verdict_lines(verdict), VERDICT_LABEL_WIDTH)
    _add(text, [Content.styled(f"write-ahead log: {sanitize_line(log.message)}", "$text-muted")])
    took = times_text(times, now, log.state != "in_flight")
    if took:
        _add(text, [Content.styled(took, "$text-muted")])
    steps: Content | None = None
    forms: tuple[Content, ...] = ()
    if log.steps:
        steps = steps_content(
            log, verdict, times, now, _longest_form(len(log.steps), _kept_steps(log))
        )
        forms = tuple(steps_content(log, verdict, times, now, f) for f in step_forms(log))
        _add(text, [steps])
    step = log.in_flight_step
    if step is not None:
        effect = f", {sanitize_line(step.side_effect)}" if step.side_effect else ""
        seq = f" at seq {step.started_seq}" if step.started_seq is not None else ""
        warning = (
            f"⚠ step {sanitize_line(step.step_id)} ({sanitize_line(step.agent or '?')}{effect})"
            f" started{seq} and never ended"
        )
        _add(text, [Content.styled(warning, "bold $warning")])
    text = _with_short_form(text, ident, intent, verdict, (steps, 0) if steps else None)
    if steps is None or not forms:
        return text
    return text._replace(shorter=((steps, forms), *text.shorter))


def steps_content(
    log: WalLog,
    verdict: Verdict | None,
    times: ExecutionTimes | None,
    now: datetime | None,
    form: ChainForm = WHOLE_CHAIN,
) -> Content:
    """A log's steps in turn, ``steps lookup ✓ 12ms → charge … in flight open 3m``;
    ``form``: less of it, for a narrow pane (``step_forms``)."""
    parts: list[str | tuple[str, str]] = [("steps ", "$text-muted")]
    shown = form.shown
    said_in_flight = None  # as ``chain_content``'s
    if not form.flight_words:
        steps = enumerate(log.steps, 1)
        flying = (n for n, s in steps if s.status == "started" and (shown is None or n in shown))
        said_in_flight = max(flying, default=None)
    for number, done in enumerate(log.steps, 1):
        if shown is not None and number not in shown:
            if number == 1 or number - 1 in shown:  # a run of steps left out: one "…"
                parts.append((" → …" if number > 1 else "…", "$text-muted"))
            continue
        if number > 1:
            parts.append((" → ", "$text-muted"))
        mark, style = _STEP_MARKS.get(done.status, ("?", "$text-muted"))
        if done.status == "started" and not form.flight_words and number != said_in_flight:
            mark = "…"  # "in flight" said once, after the last (``step_forms``)
        if _says_success(style) and verdict is not None and not verdict.trusted:
            style = "$text-muted"  # a claim of a log whose chain breaks
        name = sanitize_line(done.agent or done.step_id)
        parts.append((name if form.name_cells is None else _cut(name, form.name_cells), "bold"))
        parts.append((f" {mark}", style))
        timed = times.attempts[number - 1] if times and number <= len(times.attempts) else None
        in_flight = timed is not None and timed.in_flight
        duration = attempt_duration(timed, now)
        if duration is not None and (
            form.durations == "all" or (form.durations == "in_flight" and in_flight)
        ):
            parts.append((f" {duration}", style if in_flight else "$text-muted"))
    return Content.assemble(*parts)


def step_forms(log: WalLog) -> list[ChainForm]:
    """A log's steps line shorter, as a chain's (``chain_forms``): the durations go (but
    the step in flight's), then the middle steps, then the first, then the names shorten;
    the step in flight and the last one stay, so a narrow pane never cuts them off."""
    steps = log.steps
    if not steps:
        return []
    kept = _kept_steps(log)
    words = sum(step.status == "started" for step in steps) < 2  # as ``chain_forms``
    forms = []
    if len(steps) <= _WHOLE_CHAIN_MOST:  # else not in a row or two: not drawn whole again
        forms += [ChainForm(None, "in_flight"), ChainForm(None, "none")]
        forms += [] if words else [ChainForm(None, "none", flight_words=False)]
    for shown in (frozenset({1, *kept}), frozenset(kept)):
        if len(shown) < len(steps):
            forms += [
                ChainForm(shown, "in_flight", flight_words=words),
                ChainForm(shown, "none", flight_words=words),
            ]
    fewest = frozenset(kept) if len(kept) < len(steps) else None
    return forms + [ChainForm(fewest, "none", True, cells, words) for cells in _NAME_CELLS]


def _kept_steps(log: WalLog) -> set[int]:
    """The steps every shorter line draws: the last, those in flight (the first few)."""
    started = [n for n, step in enumerate(log.steps, 1) if step.status == "started"]
    return {*started[:_EACH_SAID_MOST], len(log.steps)}


_STEP_MARKS = {
    "completed": ("✓", "$success"),
    "failed": ("✗", "$error"),
    "started": ("… in flight", "bold $warning"),
    "skipped": ("–", "$text-muted"),
}
