"""The list's groups: each execution's verdict codes (interned) and the section of the
grouped list they put it in, failures first."""

from __future__ import annotations

from enum import IntEnum

from intentus_tui.core.model import (
    UNTRUSTED_INTEGRITY,
    ExecutionSummary,
    Integrity,
    Outcome,
    ReplayCode,
)
from intentus_tui.core.verdict import verdict_of


class Group(IntEnum):
    """Sections of the grouped list, in display order: what needs attention first (evidence
    that cannot be believed, then outcomes unknown, failed, in flight), then the successes
    (those that cannot be replayed after those that can)."""

    UNTRUSTED = 0  # tampered or a broken hash chain: nothing recorded can be believed
    UNKNOWN = 1
    FAILED = 2
    IN_FLIGHT = 3  # crashed or still running
    SUCCEEDED = 4
    SUCCEEDED_NOT_REPLAYABLE = 5


GROUP_TITLES = {
    Group.UNTRUSTED: "Untrusted: tampered or chain broken",
    Group.UNKNOWN: "Outcome unknown",
    Group.FAILED: "Failed",
    Group.IN_FLIGHT: "In flight (crashed or still running)",
    Group.SUCCEEDED: "Succeeded",
    Group.SUCCEEDED_NOT_REPLAYABLE: "Succeeded, not replayable",
}
# A group whose rows are all records caught mid-write (their rows say "… writing"): they sit
# where their half puts them (outcome unknown) until they are whole or have been still a
# while, and the group says what they are, as their rows, the counts line and panes do.
WRITING_TITLE = "Being written"
# Where a title does not fit: its first words, whole, rather than its explanation cut
# mid-word ("Untrusted: tampered or c…").
GROUP_SHORT_TITLES = {
    Group.UNTRUSTED: "Untrusted",
    Group.IN_FLIGHT: "In flight",
    Group.SUCCEEDED_NOT_REPLAYABLE: "Succeeded, no replay",
}
ATTENTION_GROUPS = frozenset({Group.UNTRUSTED, Group.UNKNOWN, Group.FAILED, Group.IN_FLIGHT})

# A verdict's three codes: what the list groups, sorts and counts by. Interned (one tuple
# per combination, a few dozen in all) so that 100,000 executions share them.
VerdictKind = tuple[Outcome, Integrity, ReplayCode]
KINDS: dict[VerdictKind, VerdictKind] = {}
_OUTCOME_GROUPS = {
    Outcome.UNKNOWN: Group.UNKNOWN,
    Outcome.FAILED: Group.FAILED,
    Outcome.IN_FLIGHT: Group.IN_FLIGHT,
}


def kind_of(summary: ExecutionSummary) -> VerdictKind:
    """The codes of ``verdict_of(summary)``: the one verdict every screen shows."""
    verdict = verdict_of(summary)
    kind = (verdict.outcome, verdict.integrity, verdict.replay)
    return KINDS.setdefault(kind, kind)


def group_of_kind(kind: VerdictKind) -> Group:
    outcome, integrity, replay = kind
    if integrity in UNTRUSTED_INTEGRITY:
        return Group.UNTRUSTED
    group = _OUTCOME_GROUPS.get(outcome)
    if group is not None:
        return group
    if replay is ReplayCode.REPLAYABLE:
        return Group.SUCCEEDED
    return Group.SUCCEEDED_NOT_REPLAYABLE


def group_of(summary: ExecutionSummary) -> Group:
    return group_of_kind(kind_of(summary))
