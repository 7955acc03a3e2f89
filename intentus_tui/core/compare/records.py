"""Two IntentusNet records compared by what happened.

``compare_records(a, b)`` diffs every section of the record (``header``, ``envelope``,
``routerDecision``, ``events``, ``finalResponse``), sums it up for a person (same intent? same
agent path? same response? same envelope hash?) and finds the first event where the two
streams part. The header's execution id, creation time and envelope hash differ between any two
executions: the default ignore rules hide them (counted); its ``replayable`` and
``replayableReason`` are shown, since an invalidated copy of a record is a real difference.

Events are aligned event by event (``core.compare.events``): the same event side by side is
diffed without its ``seq`` (after an inserted event every later seq shifts, and reporting that
shift for each of them would bury the one real change); an event only one side has is one
``insert`` or ``delete`` entry. As in Verist's aligned diffs, an index in a path is the event's
position in B, or in A for an event only A has.

Differences at paths the ignore rules cover are hidden: counted in ``hidden``, left out of
``entries``, of ``equal`` and of the summary's answers.

Nothing here raises on a malformed record: a missing section is ``MISSING``, a section of the
wrong type is compared as it is, and events that are not objects are compared whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from intentus_tui.core.compare.divergence import (
    Divergence,
    event_type,
    events_of,
    first_divergence,
)
from intentus_tui.core.compare.events import aligned_events_diff, record_event_key
from intentus_tui.core.compare.ignore import NO_RULES, IgnoreRules
from intentus_tui.core.verist.diff import DiffEntry, DiffResult, PathKey, diff
from intentus_tui.core.verist.key_by import KeyFn, key_by
from intentus_tui.core.verist.missing import MISSING

# (section key in the record, attribute name on RecordComparison)
RECORD_SECTIONS_COMPARED: tuple[tuple[str, str], ...] = (
    ("header", "header"),
    ("envelope", "envelope"),
    ("routerDecision", "router_decision"),
    ("events", "events"),
    ("finalResponse", "final_response"),
)


def _same(a: Any, b: Any, where: tuple[PathKey, ...], ignore: IgnoreRules) -> bool:
    result = diff(a, b)
    if result.equal or not ignore:
        return result.equal
    shown, _ = ignore.split(DiffEntry((*where, *e.path), e.before, e.after) for e in result.entries)
    return not shown


# --------------------------------------------------------------------------- summary


def agent_path(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The agents of ``AGENT_ATTEMPT_START`` events, in order: who was tried."""
    agents: list[str] = []
    for event in events_of(record):
        if event_type(event) != "AGENT_ATTEMPT_START":
            continue
        payload = event.get("payload") if isinstance(event, dict) else None
        agent = payload.get("agent") if isinstance(payload, dict) else None
        agents.append(agent if isinstance(agent, str) else "?")
    return tuple(agents)


def _intent(record: Mapping[str, Any]) -> Any:
    envelope = record.get("envelope")
    return envelope.get("intent", MISSING) if isinstance(envelope, dict) else MISSING


def _intent_name(intent: Any) -> str | None:
    if isinstance(intent, dict):
        name = intent.get("name")
        return name if isinstance(name, str) else None
    return intent if isinstance(intent, str) else None


def _envelope_hash(record: Mapping[str, Any]) -> str | None:
    header = record.get("header")
    value = header.get("envelopeHash") if isinstance(header, dict) else None
    return value if isinstance(value, str) and value else None


def _normalized_hash(value: str) -> str:
    # The documented form writes "sha256:<hex>", the runtime form bare hex: same digest.
    return value.removeprefix("sha256:").lower()


def same_recorded_hash(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool | None:
    """Whether the two headers' ``envelopeHash`` name one digest (``None``: a side has none).

    ``a`` and ``b`` are records, or anything with a ``header`` object (a snapshot's record
    header)."""
    hash_a, hash_b = _envelope_hash(a), _envelope_hash(b)
    if hash_a is None or hash_b is None:
        return None
    return _normalized_hash(hash_a) == _normalized_hash(hash_b)


@dataclass(frozen=True, slots=True)
class ComparisonSummary:
    """The answers a person wants first. ``same_envelope_hash`` is ``None`` when a side has none."""

    same_intent: bool
    same_agent_path: bool
    same_response: bool
    same_envelope_hash: bool | None
    intent_a: str | None
    intent_b: str | None
    agent_path_a: tuple[str, ...]
    agent_path_b: tuple[str, ...]


def _summarize(
    a: Mapping[str, Any], b: Mapping[str, Any], ignore: IgnoreRules
) -> ComparisonSummary:
    intent_a, intent_b = _intent(a), _intent(b)
    path_a, path_b = agent_path(a), agent_path(b)
    return ComparisonSummary(
        same_intent=_same(intent_a, intent_b, ("envelope", "intent"), ignore),
        same_agent_path=path_a == path_b,
        same_response=_same(
            a.get("finalResponse", MISSING),
            b.get("finalResponse", MISSING),
            ("finalResponse",),
            ignore,
        ),
        same_envelope_hash=same_recorded_hash(a, b),
        intent_a=_intent_name(intent_a),
        intent_b=_intent_name(intent_b),
        agent_path_a=path_a,
        agent_path_b=path_b,
    )


# --------------------------------------------------------------------------- comparison


@dataclass(frozen=True, slots=True)
class RecordComparison:
    """Section by section diffs of two records, a summary, and the first event divergence.

    The section results hold every difference, paths relative to the section; ``entries``
    prefixes them with the section key (``events[3].payload.agent``) and leaves out the
    ``hidden`` ones the ignore rules cover.
    """

    header: DiffResult
    envelope: DiffResult
    router_decision: DiffResult
    events: DiffResult
    final_response: DiffResult
    summary: ComparisonSummary
    first_divergence: Divergence[Any] | None
    entries: tuple[DiffEntry, ...]
    hidden: int = 0
    # How many events differ once the rules hide what they cover (``count_changed_events``);
    # None when the events were not compared event by event (a side has no list of them).
    changed_events: int | None = None

    @property
    def equal(self) -> bool:
        return not self.entries

    @property
    def all_entries(self) -> tuple[DiffEntry, ...]:
        """Every difference, hidden ones included."""
        out: list[DiffEntry] = []
        for key, attr in RECORD_SECTIONS_COMPARED:
            result: DiffResult = getattr(self, attr)
            out.extend(
                DiffEntry((key, *e.path), e.before, e.after, e.array_op) for e in result.entries
            )
        return tuple(out)

    @property
    def result(self) -> DiffResult:
        """The shown differences as one ``DiffResult``."""
        return DiffResult(not self.entries, self.entries)


def strip_seq(event: Any) -> Any:
    if isinstance(event, dict):
        return {k: v for k, v in event.items() if k != "seq"}
    return event


def events_diff(events_a: list[Any], events_b: list[Any]) -> DiffResult:
    """Events aligned event by event; paths ``[j]`` (B's position) or ``[i]`` (only in A)."""
    return aligned_events_diff(events_a, events_b, record_event_key, strip_seq)


def count_changed_events(entries: Sequence[DiffEntry], at: tuple[PathKey, ...]) -> int:
    """The events the ``entries`` of an event-by-event diff (``aligned_events_diff``, under
    ``at``) fall in: each pair with a difference in its body once, each event only one side
    has once; as the comparison screen's timeline marks them."""
    paired: set[PathKey] = set()
    alone = 0
    depth = len(at)
    for entry in entries:
        path = entry.path
        if len(path) <= depth or path[:depth] != at or not isinstance(path[depth], int):
            continue
        if entry.array_op is None:
            paired.add(path[depth])
        else:
            alone += 1
    return len(paired) + alone


def _event_lists(before: Any, after: Any) -> bool:
    """Both sides' events are lists, or one is and the other side has none at all."""
    lists = [isinstance(side, list) for side in (before, after)]
    return all(lists) or (any(lists) and (before is MISSING or after is MISSING))


def _listed(events: Any) -> list[Any]:
    return events if isinstance(events, list) else []


def _as_record(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def compare_records(
    a_json: Any,
    b_json: Any,
    *,
    key_by_paths: Mapping[str, KeyFn] | None = None,
    aligned: bool = False,
    ignore: IgnoreRules = NO_RULES,
) -> RecordComparison:
    """Compare two record JSON objects (``LoadResult.record.raw``).

    ``key_by_paths`` (dot-paths from the record root, e.g. ``{"events": "seq"}``) reshapes arrays
    before the section diffs, as Verist's ``keyBy``; a bad key (duplicate, missing field) raises
    ``DiffError``, the one exception this function lets through because the caller asked for it.
    ``aligned`` aligns the other arrays on content too. The summary and the first divergence
    always use the records as they are.
    """
    a, b = _as_record(a_json), _as_record(b_json)
    shaped_a, shaped_b = a, b
    if key_by_paths:
        shaped_a = key_by(a, key_by_paths)
        shaped_b = key_by(b, key_by_paths)
    sections: dict[str, DiffResult] = {}
    every: list[DiffEntry] = []
    by_event = False
    for key, attr in RECORD_SECTIONS_COMPARED:
        before = shaped_a.get(key, MISSING)
        after = shaped_b.get(key, MISSING)
        if key == "events" and _event_lists(before, after):
            # A side with no events section (a record cut before it): its events are
            # none, and the other's are compared one by one (they were one value).
            sections[attr] = events_diff(_listed(before), _listed(after))
            by_event = True
        else:
            sections[attr] = diff(before, after, aligned=aligned)
        every.extend(
            DiffEntry((key, *e.path), e.before, e.after, e.array_op) for e in sections[attr].entries
        )
    shown, hidden = ignore.split(every)
    return RecordComparison(
        header=sections["header"],
        envelope=sections["envelope"],
        router_decision=sections["router_decision"],
        events=sections["events"],
        final_response=sections["final_response"],
        summary=_summarize(a, b, ignore),
        first_divergence=first_divergence(a.get("events"), b.get("events"), ignore),
        entries=shown,
        hidden=hidden,
        changed_events=count_changed_events(shown, ("events",)) if by_event else None,
    )


def compare_values(
    a: Any,
    b: Any,
    *,
    key_by_paths: Mapping[str, KeyFn] | None = None,
    aligned: bool = False,
) -> DiffResult:
    """A plain diff of two JSON values after ``key_by`` (raises ``DiffError`` on a bad key)."""
    if key_by_paths:
        a = key_by(a, key_by_paths)
        b = key_by(b, key_by_paths)
    return diff(a, b, aligned=aligned)
