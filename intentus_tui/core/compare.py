"""Compare A with B: the one "A vs B" use case of the command line and the debugger.

An operand (``Operand``) is a record, a Verist snapshot or baseline, or an Active Graph run;
``compare(a, b)`` picks the comparison from their kinds and returns one ``Comparison``:

- two records: ``compare_records`` below (the sections that say what happened, a summary,
  the first event divergence);
- a snapshot or baseline on either side: Verist's three-part snapshot comparison (input,
  output, commands; ``compare_snapshot_operands``), a record taking part as the snapshot
  ``snapshot_from_record`` makes of it;
- two runs: their event lists, normalized as ``core.activegraph`` documents; their lineage
  when both are in one database and related (one is the other's parent or any older ancestor,
  or both descend from a third run: fork points, the shared prefix, each side's tail); and what
  they built (objects and relations shared, only in A, only in B, differing, with the event
  counts ``activegraph diff`` prints). Two runs are equal when their normalized events and
  their objects and relations are.

Every entry's path is relative to the operand (``input.intent.name``, ``events.3.payload``)
and is written with ``path_text`` (Verist's ``formatPath``) wherever it is shown.

``compare_records(a, b)`` diffs the sections that describe *what happened* (``envelope``,
``routerDecision``, ``events``, ``finalResponse``) with the Verist diff, sums it up for a person
(same intent? same agent path? same response? same envelope hash?) and finds the first event
where the two streams part. The ``header`` is left out of the section diffs on purpose: its
execution id and creation time differ between any two executions; its envelope hash is
compared in the summary.

``find_divergence`` is the event-stream comparison shared with Active Graph runs. It is
stricter than Active Graph's strict replay, which compares event *types* only: two streams
diverge at the first position where the types differ (``type``), where one stream has ended
(``length``), or where the types agree but anything else in the event differs (``payload``).

Nothing here raises on a malformed record: a missing section is ``MISSING``, a section of the
wrong type is compared as it is, and events that are not objects are compared whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, TypeVar

import orjson

from intentus_tui.core.verist.diff import DiffEntry, DiffResult, diff
from intentus_tui.core.verist.format import format_path
from intentus_tui.core.verist.key_by import KeyFn, key_by
from intentus_tui.core.verist.missing import MISSING

if TYPE_CHECKING:  # activegraph imports this module (find_divergence): imported where used
    from intentus_tui.core.activegraph import ForkComparison, GraphEvent, RunInfo, StructuralDiff
    from intentus_tui.core.records.load import LoadResult
    from intentus_tui.core.verist.snapshot import Snapshot

__all__ = [
    "RECORD_SECTIONS_COMPARED",
    "WHOLE_RECORD",
    "CompareError",
    "Comparison",
    "ComparisonSummary",
    "Divergence",
    "DivergenceKind",
    "Operand",
    "RecordComparison",
    "RunSummary",
    "SnapshotSummary",
    "agent_path",
    "compare",
    "compare_plain_values",
    "compare_record_section",
    "compare_records",
    "compare_snapshot_operands",
    "compare_values",
    "file_operand",
    "find_divergence",
    "first_divergence",
    "load_result_operand",
    "path_text",
    "record_operand",
    "run_operand",
]

E = TypeVar("E")
DivergenceKind: TypeAlias = Literal["type", "length", "payload"]

# (section key in the record, attribute name on RecordComparison)
RECORD_SECTIONS_COMPARED: tuple[tuple[str, str], ...] = (
    ("envelope", "envelope"),
    ("routerDecision", "router_decision"),
    ("events", "events"),
    ("finalResponse", "final_response"),
)
_EQUAL = DiffResult(True, ())


@dataclass(frozen=True, slots=True)
class Divergence(Generic[E]):
    """Where two event streams first part.

    ``index`` is the 0-based position in both streams. ``event_a``/``event_b`` are the events at
    that position (``None`` on the side that has already ended, for ``length``). For ``payload``,
    ``payload_diff`` says what differs between the two events' bodies.
    """

    index: int
    kind: DivergenceKind
    event_a: E | None
    event_b: E | None
    seq_a: int | None
    seq_b: int | None
    type_a: str | None
    type_b: str | None
    payload_diff: DiffResult | None = None

    def describe(self) -> str:
        """One line for a person (raw text: sanitize before printing)."""
        where = f"event #{self.index + 1} (seq {_seq_text(self.seq_a)} / {_seq_text(self.seq_b)})"
        if self.kind == "length":
            if self.type_a is None:
                return f"{where}: A ends, B goes on with {self.type_b}"
            return f"{where}: B ends, A goes on with {self.type_a}"
        if self.kind == "type":
            return f"{where}: type {self.type_a} in A, {self.type_b} in B"
        count = len(self.payload_diff.entries) if self.payload_diff is not None else 0
        plural = "" if count == 1 else "s"
        return f"{where}: same type {self.type_a}, payload differs ({count} change{plural})"


def _seq_text(seq: int | None) -> str:
    return "-" if seq is None else str(seq)


def _surely_equal(a: Any, b: Any) -> bool:
    """A cheap yes for equal JSON values; False means "walk them" (Python's == says True == 1,
    orjson's bytes do not; orjson writes NaN as null, == does not confuse those)."""
    try:
        return bool(a == b) and orjson.dumps(a) == orjson.dumps(b)
    except (TypeError, RecursionError):
        return False


def find_divergence(
    a: Sequence[E],
    b: Sequence[E],
    *,
    type_of: Callable[[E], str],
    body_of: Callable[[E], Any],
    seq_of: Callable[[E], int | None],
) -> Divergence[E] | None:
    """The first position where ``a`` and ``b`` differ by type, by length or by body.

    ``body_of`` gives what must be equal besides the type (it should leave out identifiers that
    always differ between two streams, such as sequence numbers).
    """
    for index in range(min(len(a), len(b))):
        ea, eb = a[index], b[index]
        if _surely_equal(ea, eb):
            continue  # the whole event is the same (the common case): no need to look inside
        ta, tb = type_of(ea), type_of(eb)
        if ta != tb:
            return Divergence(index, "type", ea, eb, seq_of(ea), seq_of(eb), ta, tb)
        body_a, body_b = body_of(ea), body_of(eb)
        if _surely_equal(body_a, body_b):
            continue
        body = diff(body_a, body_b)
        if not body.equal:
            return Divergence(index, "payload", ea, eb, seq_of(ea), seq_of(eb), ta, tb, body)
    if len(a) == len(b):
        return None
    index = min(len(a), len(b))
    rest_a = a[index] if index < len(a) else None
    rest_b = b[index] if index < len(b) else None
    return Divergence(
        index,
        "length",
        rest_a,
        rest_b,
        None if rest_a is None else seq_of(rest_a),
        None if rest_b is None else seq_of(rest_b),
        None if rest_a is None else type_of(rest_a),
        None if rest_b is None else type_of(rest_b),
    )


# --------------------------------------------------------------------------- record events


def _event_type(event: Any) -> str:
    value = event.get("type") if isinstance(event, dict) else None
    if isinstance(value, str):
        return value
    return "(no type)" if value is None else repr(value)


def _event_seq(event: Any) -> int | None:
    value = event.get("seq") if isinstance(event, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _event_body(event: Any) -> Any:
    """Everything but ``seq`` and ``type``: the payload and any extra keys the writer added."""
    if isinstance(event, dict):
        return {k: v for k, v in event.items() if k not in ("seq", "type")}
    return event


def _events_of(record: Mapping[str, Any]) -> list[Any]:
    events = record.get("events")
    return events if isinstance(events, list) else []


def first_divergence(events_a: Any, events_b: Any) -> Divergence[Any] | None:
    """The first event where two records' event lists part (``None``: the streams agree).

    Events are taken in the order the records list them; ``seq`` is reported, not compared
    (a renumbered but otherwise identical stream does not diverge). Non-list inputs count as
    empty streams.
    """
    a = events_a if isinstance(events_a, list) else []
    b = events_b if isinstance(events_b, list) else []
    return find_divergence(a, b, type_of=_event_type, body_of=_event_body, seq_of=_event_seq)


# --------------------------------------------------------------------------- summary


def agent_path(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The agents of ``AGENT_ATTEMPT_START`` events, in order: who was tried."""
    agents: list[str] = []
    for event in _events_of(record):
        if _event_type(event) != "AGENT_ATTEMPT_START":
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


def _summarize(a: Mapping[str, Any], b: Mapping[str, Any]) -> ComparisonSummary:
    intent_a, intent_b = _intent(a), _intent(b)
    path_a, path_b = agent_path(a), agent_path(b)
    hash_a, hash_b = _envelope_hash(a), _envelope_hash(b)
    same_hash = (
        None
        if hash_a is None or hash_b is None
        else _normalized_hash(hash_a) == _normalized_hash(hash_b)
    )
    return ComparisonSummary(
        same_intent=diff(intent_a, intent_b).equal,
        same_agent_path=path_a == path_b,
        same_response=diff(a.get("finalResponse", MISSING), b.get("finalResponse", MISSING)).equal,
        same_envelope_hash=same_hash,
        intent_a=_intent_name(intent_a),
        intent_b=_intent_name(intent_b),
        agent_path_a=path_a,
        agent_path_b=path_b,
    )


# --------------------------------------------------------------------------- comparison


@dataclass(frozen=True, slots=True)
class RecordComparison:
    """Section by section diffs of two records, a summary, and the first event divergence.

    Paths in the section diffs are relative to the section; ``entries`` prefixes them with the
    section key (``events.3.payload.agent``: the event with seq 3, when events are keyed by seq).
    """

    envelope: DiffResult
    router_decision: DiffResult
    events: DiffResult
    final_response: DiffResult
    summary: ComparisonSummary
    first_divergence: Divergence[Any] | None
    events_keyed_by_seq: bool

    @property
    def equal(self) -> bool:
        return all(getattr(self, attr).equal for _, attr in RECORD_SECTIONS_COMPARED)

    @property
    def entries(self) -> tuple[DiffEntry, ...]:
        out: list[DiffEntry] = []
        for key, attr in RECORD_SECTIONS_COMPARED:
            result: DiffResult = getattr(self, attr)
            out.extend(
                DiffEntry((key, *e.path), e.before, e.after, e.array_op) for e in result.entries
            )
        return tuple(out)

    @property
    def result(self) -> DiffResult:
        """All sections as one ``DiffResult`` (for ``format_diff``)."""
        entries = self.entries
        return DiffResult(not entries, entries)


def _seqs_are_keys(events: Any) -> bool:
    """True when every event is an object with an integer ``seq`` and no seq repeats."""
    if not isinstance(events, list):
        return False
    seen: set[int] = set()
    for event in events:
        seq = _event_seq(event)
        if seq is None or seq in seen:
            return False
        seen.add(seq)
    return True


def _keyed_by_seq(events: Any) -> dict[str, Any]:
    return {str(event["seq"]): event for event in events}


def _strip_seq(events: Any) -> Any:
    if not isinstance(events, list):
        return events
    return [_event_body_with_type(e) for e in events]


def _event_body_with_type(event: Any) -> Any:
    if isinstance(event, dict):
        return {k: v for k, v in event.items() if k != "seq"}
    return event


def _events_diff(events_a: Any, events_b: Any, *, aligned: bool) -> tuple[DiffResult, bool]:
    """Events keyed by seq when both sides allow it; with ``aligned``, aligned on content.

    Aligned mode leaves ``seq`` out: after an inserted event every later seq shifts, and
    reporting that shift for each of them would bury the one real change.
    """
    if aligned and isinstance(events_a, list) and isinstance(events_b, list):
        return diff(_strip_seq(events_a), _strip_seq(events_b), aligned=True), False
    if _seqs_are_keys(events_a) and _seqs_are_keys(events_b):
        return diff(_keyed_by_seq(events_a), _keyed_by_seq(events_b)), True
    return diff(events_a, events_b, aligned=aligned), False


def _as_record(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def compare_records(
    a_json: Any,
    b_json: Any,
    *,
    key_by_paths: Mapping[str, KeyFn] | None = None,
    aligned: bool = False,
) -> RecordComparison:
    """Compare two record JSON objects (``LoadResult.record.raw``).

    ``key_by_paths`` (dot-paths from the record root, e.g. ``{"events": "seq"}``) reshapes arrays
    before the section diffs, as Verist's ``keyBy``; a bad key (duplicate, missing field) raises
    ``DiffError``, the one exception this function lets through because the caller asked for it.
    The summary and the first divergence always use the records as they are.
    """
    a, b = _as_record(a_json), _as_record(b_json)
    shaped_a, shaped_b = a, b
    if key_by_paths:
        shaped_a = key_by(a, key_by_paths)
        shaped_b = key_by(b, key_by_paths)
    sections: dict[str, DiffResult] = {}
    keyed = False
    for key, attr in RECORD_SECTIONS_COMPARED:
        before = shaped_a.get(key, MISSING)
        after = shaped_b.get(key, MISSING)
        if key == "events":
            sections[attr], keyed = _events_diff(before, after, aligned=aligned)
        else:
            sections[attr] = diff(before, after, aligned=aligned)
    return RecordComparison(
        envelope=sections["envelope"],
        router_decision=sections["router_decision"],
        events=sections["events"],
        final_response=sections["final_response"],
        summary=_summarize(a, b),
        first_divergence=first_divergence(a.get("events"), b.get("events")),
        events_keyed_by_seq=keyed,
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


def path_text(entry: DiffEntry) -> str:
    """The one notation for a difference's path, in every output (Verist's ``formatPath``)."""
    return format_path(entry.path)


# --------------------------------------------------------------------------- operands

OperandKind: TypeAlias = Literal["record", "snapshot", "run"]
Compared: TypeAlias = Literal["records", "snapshots", "runs", "values"]


class CompareError(Exception):
    """An operand that cannot be read or compared; the message is one line for a person."""


@dataclass(frozen=True)
class Operand:
    """One side of a comparison, read and classified. ``label`` is what names it to a person."""

    label: str
    kind: OperandKind
    record: Mapping[str, Any] | None = None
    snapshot: Snapshot | None = None
    run: RunInfo | None = None
    events: tuple[GraphEvent, ...] = ()
    db_path: Path | None = None
    note: str | None = None  # e.g. "damaged record, compared what was recovered: ..."

    def describe(self) -> dict[str, Any]:
        """What was read, as plain JSON values (raw text: sanitize before printing)."""
        out: dict[str, Any] = {"source": self.label, "kind": self.kind}
        if self.record is not None:
            header = self.record.get("header")
            execution_id = header.get("executionId") if isinstance(header, dict) else None
            out["execution_id"] = execution_id if isinstance(execution_id, str) else None
        if self.snapshot is not None:
            out["workflow_id"] = self.snapshot.workflow_id
            out["step_name"] = self.snapshot.step_name
            out["input_hash"] = self.snapshot.input_hash
        if self.run is not None:
            out.update(
                run_id=self.run.run_id,
                parent_run_id=self.run.parent_run_id,
                forked_at_event_id=self.run.forked_at_event_id,
                label=self.run.label,
                event_count=len(self.events),
            )
        if self.note:
            out["note"] = self.note
        return out


def record_operand(label: str, record: Mapping[str, Any], note: str | None = None) -> Operand:
    """A record already read (``LoadResult.record.raw``)."""
    return Operand(label, "record", record=record, note=note)


def load_result_operand(label: str, result: LoadResult) -> Operand:
    """The record of a load result (which must have one); a damaged file says so in ``note``."""
    from intentus_tui.core.records.load import LoadStatus

    assert result.record is not None
    note = None
    if result.status is LoadStatus.SALVAGED:
        note = f"damaged record, compared what was recovered: {result.message}"
    return record_operand(label, dict(result.record.raw), note)


def run_operand(label: str, db_path: str | Path, run_id: str) -> Operand:
    """Run ``run_id`` of an Active Graph database (``RUNS.db#RUN_ID``), or ``CompareError``."""
    from intentus_tui.core.activegraph import ActiveGraphError, RunDatabase

    if not run_id:
        raise CompareError(f"{label}: name a run after '#' (RUNS.db#RUN_ID)")
    try:
        with RunDatabase(db_path) as db:
            run = db.run(run_id)
            events = db.run_events(run_id)
    except ActiveGraphError as exc:
        raise CompareError(str(exc)) from None
    return Operand(label, "run", run=run, events=tuple(events), db_path=Path(db_path))


def _run_names(path: Path) -> str:
    from intentus_tui.core.activegraph import ActiveGraphError, RunDatabase

    try:
        with RunDatabase(path) as db:
            runs = db.list_runs()
    except ActiveGraphError as exc:
        return f" ({exc})"
    return f"; runs: {', '.join(r.run_id for r in runs)}" if runs else "; it holds no runs"


def file_operand(
    label: str, path: Path, *, prefer: Literal["record", "snapshot"] = "record"
) -> Operand:
    """A record, snapshot or baseline file, or ``CompareError`` with one clear line.

    ``prefer="snapshot"`` reads the file as a snapshot first and reports the snapshot
    reader's problem when it is neither (for a person who was asked for a snapshot file);
    a record given there is still compared as a record.
    """
    from intentus_tui.core.activegraph import is_sqlite_file
    from intentus_tui.core.records.load import LoadStatus, load_record_file
    from intentus_tui.core.verist.snapshot import SnapshotError, load_snapshot

    if path.is_dir():
        raise CompareError(
            f"{label} is a directory: name a record file, a record id or a snapshot file"
        )
    if path.is_file() and is_sqlite_file(path):
        raise CompareError(
            f"{label} is a SQLite database: name a run as {label}#RUN_ID{_run_names(path)}"
        )
    if prefer == "snapshot":
        try:
            return Operand(label, "snapshot", snapshot=load_snapshot(path))
        except (SnapshotError, OSError) as exc:
            snapshot_problem = str(exc)
        result = load_record_file(path)
        if result.record is None:
            raise CompareError(snapshot_problem)
    else:
        result = load_record_file(path)
    if result.record is not None:
        return load_result_operand(label, result)
    if result.status is LoadStatus.NOT_RECORD:
        try:
            return Operand(label, "snapshot", snapshot=load_snapshot(path))
        except SnapshotError as exc:
            raise CompareError(f"{label}: neither a record nor a snapshot: {exc}") from None
    raise CompareError(f"{label}: {result.message}")


# --------------------------------------------------------------------------- the comparison


@dataclass(frozen=True, slots=True)
class SnapshotSummary:
    """Verist's three questions; ``None`` where a side has nothing to compare."""

    same_input: bool
    same_input_hash: bool
    same_output: bool | None
    same_commands: bool | None

    def to_json(self) -> dict[str, Any]:
        return {
            "same_input": self.same_input,
            "same_input_hash": self.same_input_hash,
            "same_output": self.same_output,
            "same_commands": self.same_commands,
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

    ``entries`` are every difference, paths relative to the operands; exactly one of
    ``records`` / ``snapshots`` / ``runs`` is set (none for two plain values).
    """

    compared: Compared
    equal: bool
    entries: tuple[DiffEntry, ...]
    records: RecordComparison | None = None
    snapshots: SnapshotSummary | None = None
    runs: RunSummary | None = None
    divergence: Divergence[Any] | None = None
    fork: ForkComparison | None = None
    structure: StructuralDiff | None = None  # two runs: their objects and relations
    notes: tuple[str, ...] = field(default=())

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


def _prefixed(prefix: str, result: DiffResult | None) -> list[DiffEntry]:
    if result is None:
        return []
    return [DiffEntry((prefix, *e.path), e.before, e.after, e.array_op) for e in result.entries]


def _as_snapshot(operand: Operand) -> Snapshot:
    from intentus_tui.core.verist.snapshot import SnapshotError, snapshot_from_record

    if operand.snapshot is not None:
        return operand.snapshot
    assert operand.record is not None
    try:
        return snapshot_from_record(operand.record)
    except SnapshotError as exc:
        raise CompareError(
            f"{operand.label}: cannot make a snapshot of this record: {exc}"
        ) from None


def _step_output(snapshot: Snapshot) -> Any:
    artifact = snapshot.step_output
    content = artifact.content if artifact is not None else MISSING
    return content.get("output", MISSING) if isinstance(content, dict) else MISSING


def compare_snapshot_operands(
    a: Operand, b: Operand, key_by_paths: Mapping[str, KeyFn] | None, aligned: bool
) -> Comparison:
    """Verist's ``compareSnapshots`` (input, output, commands; events are left out)."""
    from intentus_tui.core.verist.recompute import compare_snapshots

    sa, sb = _as_snapshot(a), _as_snapshot(b)
    input_diff, output_diff, commands_diff = compare_snapshots(sa, sb, key_by=key_by_paths or None)
    notes: list[str] = []
    if aligned:
        # compare_snapshots is Verist's by-index diff; redo input and output aligned.
        input_diff = diff(sa.input, sb.input, aligned=True)
        if output_diff is not None:
            output_diff = compare_values(
                _step_output(sa), _step_output(sb), key_by_paths=key_by_paths, aligned=True
            )
    equal = input_diff.equal
    ha, hb = (s.step_output.hash if s.step_output else None for s in (sa, sb))
    same_hash = ha is not None and ha == hb
    if output_diff is not None:
        equal = equal and output_diff.equal
        if output_diff.equal and not same_hash:
            notes.append(
                "the step-output hashes differ although the outputs are equal: the recorded "
                "events differ (Verist's snapshot comparison leaves events out; "
                "diff the records to see them)"
            )
    else:
        # No comparable content on a side (hash-only or malformed): fall back to the hashes.
        equal = equal and same_hash
        notes.append(
            "outputs not compared path by path (a snapshot has no step-output content); "
            + ("their step-output hashes match" if same_hash else "their step-output hashes differ")
        )
    if commands_diff is not None:
        equal = equal and commands_diff.equal
    entries = (
        _prefixed("input", input_diff)
        + _prefixed("output", output_diff)
        + _prefixed("commands", commands_diff)
    )
    summary = SnapshotSummary(
        same_input=input_diff.equal,
        same_input_hash=sa.input_hash == sb.input_hash,
        same_output=None if output_diff is None else output_diff.equal,
        same_commands=None if commands_diff is None else commands_diff.equal,
    )
    return Comparison("snapshots", equal, tuple(entries), snapshots=summary, notes=tuple(notes))


def _same_file(a: Operand, b: Operand) -> bool:
    if a.db_path is None or b.db_path is None:
        return False
    try:
        return a.db_path.resolve() == b.db_path.resolve()
    except OSError:
        return False


def _run_structure(a: Operand, b: Operand) -> StructuralDiff:
    """What the two runs built, compared as ``activegraph diff`` does (each from its own file)."""
    from intentus_tui.core.activegraph import RunDatabase, compare_structure, graph_state

    assert a.run is not None and b.run is not None
    assert a.db_path is not None and b.db_path is not None
    with RunDatabase(a.db_path) as db:
        state_a = graph_state(db, a.run.run_id)
    with RunDatabase(b.db_path) as db:
        state_b = graph_state(db, b.run.run_id)
    return compare_structure(a.run.run_id, state_a, b.run.run_id, state_b)


def _compare_runs(
    a: Operand, b: Operand, key_by_paths: Mapping[str, KeyFn] | None, aligned: bool
) -> Comparison:
    from intentus_tui.core.activegraph import (
        ActiveGraphError,
        comparable_events,
        compare_lineage,
        run_divergence,
    )

    assert a.run is not None and b.run is not None
    fork = None
    structure = None
    notes: list[str] = []
    if _same_file(a, b) and a.db_path is not None:
        # Lineage through any ancestor: parent, grandparent, or a run both descend from.
        try:
            fork = compare_lineage(a.db_path, a.run.run_id, b.run.run_id)
        except ActiveGraphError as exc:
            notes.append(f"lineage unavailable: {exc}")
    run_ids: tuple[str, ...] = (a.run.run_id, b.run.run_id)
    if fork is not None and fork.relation is not None:
        run_ids = fork.relation.run_ids  # the runs in between too (see core.activegraph.lineage)
    result = compare_values(
        comparable_events(a.events, run_ids),
        comparable_events(b.events, run_ids),
        key_by_paths=key_by_paths,
        aligned=aligned,
    )
    summary = RunSummary(
        events_a=len(a.events),
        events_b=len(b.events),
        same_types=[e.type for e in a.events] == [e.type for e in b.events],
    )
    if a.db_path is not None and b.db_path is not None:
        try:
            structure = _run_structure(a, b)
        except ActiveGraphError as exc:
            notes.append(f"objects and relations unavailable: {exc}")
        else:
            notes.extend(structure.notes)
    same_graph = structure is None or structure.same_graph
    return Comparison(
        "runs",
        result.equal and same_graph,
        result.entries,
        runs=summary,
        divergence=run_divergence(a.events, b.events, run_ids=run_ids),
        fork=fork,
        structure=structure,
        notes=tuple(notes),
    )


def compare(
    a: Operand,
    b: Operand,
    *,
    key_by_paths: Mapping[str, KeyFn] | None = None,
    aligned: bool = False,
) -> Comparison:
    """Compare A with B by their kinds (see the module docstring).

    Raises ``CompareError`` (a run against a record or snapshot; a record no snapshot can be
    made of) and ``DiffError`` (a bad ``key_by_paths`` key).
    """
    kinds = {a.kind, b.kind}
    if kinds == {"record"}:
        assert a.record is not None and b.record is not None
        records = compare_records(a.record, b.record, key_by_paths=key_by_paths, aligned=aligned)
        return Comparison(
            "records",
            records.equal,
            records.entries,
            records=records,
            divergence=records.first_divergence,
        )
    if "run" in kinds:
        if kinds != {"run"}:
            raise CompareError("cannot compare an Active Graph run with a record or snapshot")
        return _compare_runs(a, b, key_by_paths, aligned)
    return compare_snapshot_operands(a, b, key_by_paths, aligned)


WHOLE_RECORD = "record"


def compare_record_section(a: Operand, b: Operand, section: str) -> Comparison:
    """Two records' raw ``section`` (a top-level key, or ``WHOLE_RECORD``), diffed as it is.

    For looking at what ``compare`` leaves out on purpose (the header's ids and times).
    """
    before: Any = MISSING if a.record is None else a.record
    after: Any = MISSING if b.record is None else b.record
    if section != WHOLE_RECORD:
        before = before.get(section, MISSING) if isinstance(before, Mapping) else MISSING
        after = after.get(section, MISSING) if isinstance(after, Mapping) else MISSING
    result = diff(before, after)
    return Comparison("values", result.equal, result.entries)


def compare_plain_values(a: Any, b: Any) -> Comparison:
    """Two JSON values, as they are."""
    result = diff(a, b)
    return Comparison("values", result.equal, result.entries)
