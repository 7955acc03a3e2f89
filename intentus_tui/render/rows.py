"""``inspect --list --json``: one row per execution, and the counts printed with them.

Every summary string is sanitized already; only file names are raw, and the few
characters a terminal would act on are escaped (``json_bytes_safe``) so that piping the
output to a terminal is as safe as text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence

import orjson

from intentus_tui.core.model import ExecutionSummary, Verdict
from intentus_tui.core.sanitize import json_bytes_safe, json_text_safe
from intentus_tui.core.timestamps import time_order
from intentus_tui.core.verdict import CLEAN_VERDICT, tally_verdicts, verdict_counts, verdict_of
from intentus_tui.render.listing_order import listing_key


def summary_to_json(s: ExecutionSummary, v: Verdict | None = None) -> dict[str, object]:
    """The ``inspect --list --json`` row (snake_case keys): the verdict (``v``, when the
    caller has it already) first, then the facts it was drawn from. Enum members are
    ``StrEnum``s: their values already."""
    if v is None:
        v = verdict_of(s)
    # Most rows share one verdict: its members are read once, not per row.
    (
        outcome,
        outcome_reason,
        integrity,
        integrity_reason,
        replayable,
        replayable_reason,
        replayable_detail,
        needs_attention,
    ) = _CLEAN_MEMBERS if v is CLEAN_VERDICT else _verdict_members(v)
    row: dict[str, object] = {
        "execution_id": s.execution_id,
        # The real name (JSON output escapes what a terminal would act on), within its
        # root: with several roots, "root" names the root (the key is LABEL/FILE).
        "file": s.file_name if s.root else s.key,
        "created": s.created or None,
        "intent": s.intent or None,
        "outcome": outcome,
        "outcome_reason": outcome_reason,
        "integrity": integrity,
        "integrity_reason": integrity_reason,
        "replayable": replayable,
        "replayable_reason": replayable_reason,
        "replayable_detail": replayable_detail,
        "needs_attention": needs_attention,
        "status": s.state,
        "hash_status": s.hash_status,
        "hash_form": s.hash_form,
        "hash_matched_form": s.matched_form,
        "event_count": s.event_count,
        "attempts": s.attempts,
        "fallbacks": s.fallbacks,
        "agent_chain": s.chain or None,
        "in_flight_agent": s.in_flight_agent,
        "final_status": s.final_status,
        "load_status": s.load_status,
        "message": s.message,
        "problems": s.problems,
        "source": s.source,
        "wal_state": s.wal_state,
        "wal_problem": s.wal_problem,
    }
    return {"root": s.root, **row} if s.root else row  # the root first, with several roots


def _verdict_members(v: Verdict) -> tuple[object, ...]:
    """The row's members drawn from the verdict, in the row's order."""
    replayable = v.replayable
    return (
        v.outcome,
        v.outcome_reason,
        v.integrity,
        v.integrity_reason,
        replayable,
        None if replayable else v.replay,
        v.replay_reason,
        v.needs_attention,
    )


_CLEAN_MEMBERS = _verdict_members(CLEAN_VERDICT)  # a verdict is immutable


def listing_counts(summaries: Iterable[ExecutionSummary]) -> dict[str, int]:
    """The verdict counts (``core.verdict.COUNT_KEYS``: a fixed vocabulary)."""
    return verdict_counts(summaries)


def row_line(summary: ExecutionSummary, verdict: Verdict | None = None) -> bytes:
    """One member of the ``executions`` array, on one line, indented to sit inside the
    document."""
    return json_bytes_safe(b"    " + _row_json(summary_to_json(summary, verdict)))


def listing_row_lines(summaries: Iterable[ExecutionSummary]) -> Iterator[bytes]:
    """``row_line`` of each summary, made one at a time."""
    for summary in summaries:
        yield row_line(summary)


def _row_json(row: dict[str, object]) -> bytes:
    try:
        return orjson.dumps(row)
    except orjson.JSONEncodeError:  # a file name with undecodable bytes (lone surrogates)
        text = json.dumps(row, ensure_ascii=False, separators=(",", ":"))
        return json_text_safe(text).encode("utf-8")  # each one a \u escape: the exact name


class ListingRows:
    """The listing's ``RowFormat`` for the index: its workers make these rows beside the
    summaries, and the cache keeps them for a warm listing."""

    def row(self, summary: ExecutionSummary) -> bytes:
        return row_line(summary)

    def counts(self, summaries: Iterable[ExecutionSummary]) -> dict[str, int]:
        return listing_counts(summaries)

    def rows_and_counts(
        self, summaries: Sequence[ExecutionSummary]
    ) -> tuple[list[bytes], dict[str, int]]:
        verdicts = [verdict_of(s) for s in summaries]  # once for both
        made = [row_line(s, v) for s, v in zip(summaries, verdicts, strict=True)]
        return made, tally_verdicts(verdicts)

    def order(self, summary: ExecutionSummary) -> bytes:
        return listing_key(time_order(summary.created or None, summary.execution_id), summary.key)


LISTING_ROWS = ListingRows()
