"""What comparing A with B found (``Comparison``), for the command line and the debugger."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from intentus_tui.core.compare.divergence import Divergence
from intentus_tui.core.compare.ignore import NO_RULES, IgnoreRules
from intentus_tui.core.compare.records import ComparisonSummary, RecordComparison
from intentus_tui.core.verist.diff import DiffEntry, DiffResult

if TYPE_CHECKING:
    from intentus_tui.core.activegraph import ForkComparison, StructuralDiff

Compared: TypeAlias = Literal["records", "snapshots", "runs", "values"]


@dataclass(frozen=True, slots=True)
class SnapshotSummary:
    """Verist's three questions, and whether the IntentusNet record headers (header and
    router decision) are the same and name the same recorded envelope hash (the ignore rules
    hide ``header.envelopeHash``, as for two records); ``None`` where a side has nothing to
    compare."""

    same_input: bool
    same_input_hash: bool
    same_output: bool | None
    same_commands: bool | None
    same_header: bool | None = None
    same_envelope_hash: bool | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "same_input": self.same_input,
            "same_input_hash": self.same_input_hash,
            "same_output": self.same_output,
            "same_commands": self.same_commands,
            "same_header": self.same_header,
            "same_envelope_hash": self.same_envelope_hash,
        }


@dataclass(frozen=True, slots=True)
class RunSummary:
    events_a: int
    events_b: int
    same_types: bool

    def to_json(self) -> dict[str, Any]:
        return {"events_a": self.events_a, "events_b": self.events_b, "same_types": self.same_types}


def _summary_json(summary: ComparisonSummary) -> dict[str, Any]:
    return {
        "same_intent": summary.same_intent,
        "same_agent_path": summary.same_agent_path,
        "same_response": summary.same_response,
        "same_envelope_hash": summary.same_envelope_hash,
        "intent_a": summary.intent_a,
        "intent_b": summary.intent_b,
        "agent_path_a": list(summary.agent_path_a),
        "agent_path_b": list(summary.agent_path_b),
    }


@dataclass(frozen=True)
class Comparison:
    """What comparing A with B found, for the command line and the debugger alike.

    ``entries`` are the differences shown, paths relative to the operands: each one changed
    value (a value changed, added or removed), the unit every count of differences is in
    (``changed_values_text``); ``hidden`` counts those the ignore rules (``ignore``) set aside. Exactly one of ``records`` / ``snapshots`` /
    ``runs`` is set (none for two plain values).
    """

    compared: Compared
    equal: bool
    entries: tuple[DiffEntry, ...]
    hidden: int = 0  # differences the ignore rules hid (left out of ``entries`` and ``equal``)
    records: RecordComparison | None = None
    snapshots: SnapshotSummary | None = None
    runs: RunSummary | None = None
    divergence: Divergence[Any] | None = None
    fork: ForkComparison | None = None
    structure: StructuralDiff | None = None  # two runs: their objects and relations
    notes: tuple[str, ...] = field(default=())
    ignore: IgnoreRules = NO_RULES
    # How many events differ (records; runs compared aligned), as the comparison screen's
    # timeline marks them; None when the events were not compared event by event.
    changed_events: int | None = None

    @property
    def result(self) -> DiffResult:
        return DiffResult(not self.entries, self.entries)

    def summary_json(self) -> dict[str, Any] | None:
        if self.records is not None:
            return _summary_json(self.records.summary)
        if self.snapshots is not None:
            return self.snapshots.to_json()
        if self.runs is not None:
            return self.runs.to_json()
        return None


def changed_values_text(count: int) -> str:
    """``27 changed values``: how the command line, the Diff tab and the comparison screen
    count differences (one per entry), so that no two of them can be read as different units."""
    return f"{count:,} changed value{'' if count == 1 else 's'}"


def changed_events_text(count: int) -> str:
    """``13 changed events``: events that differ (a body changed, or only one side has it)."""
    return f"{count:,} changed event{'' if count == 1 else 's'}"
