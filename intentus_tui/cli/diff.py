"""``intentus-tui diff A B``: compare two executions, snapshots or Active Graph runs.

A and B are each a record file, a record id (looked up in ``--dir``), a Verist snapshot or
baseline file, or ``RUNS.db#RUN_ID`` (an Active Graph run). Two records are compared section by
section with a summary and the first divergence of their event streams; a record against a
snapshot is compared as two snapshots (the record's is made with ``snapshot_from_record``); two
runs are compared as their event lists, normalized as ``core.activegraph`` documents, and when
one is the other's fork the fork comparison (shared prefix, tails) is printed too.

Exit codes: 0 equal, 1 different, 2 usage error (missing file, unknown id or run, bad
``--key-by``, unreadable database), with one line on stderr.

``--json`` prints one document: ``equal``, ``compared`` (``records`` | ``snapshots`` | ``runs``),
``a``/``b`` (what was read), ``entries`` (``{path, path_text, before, after, kind}``; a side
that is JavaScript ``undefined`` - an added or removed key - is left out of the entry, so an
``added`` entry has no ``before`` and a ``removed`` one no ``after``), ``summary``,
``first_divergence`` and ``fork`` (``null`` where they do not apply).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import click

from intentus_tui.cli import EXIT_OK, EXIT_PROBLEMS
from intentus_tui.cli.common import echo_json, echo_text, fail, guarded, locate_record
from intentus_tui.core.activegraph import (
    ActiveGraphError,
    ForkComparison,
    GraphEvent,
    RunDatabase,
    RunInfo,
    comparable_events,
    is_sqlite_file,
    run_divergence,
)
from intentus_tui.core.compare import (
    ComparisonSummary,
    Divergence,
    compare_records,
    compare_values,
)
from intentus_tui.core.records.load import LoadStatus, load_record_file
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.verist.diff import DiffEntry, DiffError, DiffResult
from intentus_tui.core.verist.diff import diff as diff_values
from intentus_tui.core.verist.format import format_diff, format_path
from intentus_tui.core.verist.key_by import KeyFn
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.recompute import compare_snapshots
from intentus_tui.core.verist.snapshot import (
    Snapshot,
    SnapshotError,
    load_snapshot,
    snapshot_from_record,
)

SideKind = Literal["record", "snapshot", "run"]
_TAIL_LINES = 20  # per side, in text output


# --------------------------------------------------------------------------- reading A and B


@dataclass
class Side:
    """One operand, read and classified."""

    label: str  # what the user typed
    kind: SideKind
    record: dict[str, Any] | None = None
    snapshot: Snapshot | None = None
    run: RunInfo | None = None
    events: list[GraphEvent] = field(default_factory=list)
    db_path: Path | None = None
    note: str | None = None  # e.g. "damaged record: compared what was recovered"

    def describe(self) -> dict[str, Any]:
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


def _read_run(target: str, db_text: str, run_id: str) -> Side:
    if not run_id:
        fail(f"{target}: name a run after '#' (RUNS.db#RUN_ID)")
    try:
        with RunDatabase(db_text) as db:
            run = db.run(run_id)
            events = db.run_events(run_id)
    except ActiveGraphError as exc:
        fail(str(exc))
    return Side(target, "run", run=run, events=events, db_path=Path(db_text))


def _run_names(path: Path) -> str:
    try:
        with RunDatabase(path) as db:
            runs = db.list_runs()
    except ActiveGraphError as exc:
        return f" ({exc})"
    return f"; runs: {', '.join(r.run_id for r in runs)}" if runs else "; it holds no runs"


def read_side(target: str, directory: str | None) -> Side:
    """Classify and read one operand, or exit 2 with one clear line."""
    path = Path(target)
    if "#" in target and not path.exists():
        db_text, _, run_id = target.rpartition("#")
        return _read_run(target, db_text, run_id)
    if path.is_dir():
        fail(f"{target} is a directory: name a record file, a record id or a snapshot file")
    if path.is_file() and is_sqlite_file(path):
        fail(f"{target} is a SQLite database: name a run as {target}#RUN_ID{_run_names(path)}")
    record_path = locate_record(target, directory)
    result = load_record_file(record_path)
    if result.record is not None:
        note = None
        if result.status is LoadStatus.SALVAGED:
            note = f"damaged record, compared what was recovered: {result.message}"
        return Side(target, "record", record=dict(result.record.raw), note=note)
    if result.status is LoadStatus.NOT_RECORD:
        try:
            return Side(target, "snapshot", snapshot=load_snapshot(record_path))
        except SnapshotError as exc:
            fail(f"{target}: neither a record nor a snapshot: {exc}")
    fail(f"{target}: {result.message}")


def parse_key_by(specs: tuple[str, ...]) -> dict[str, KeyFn]:
    """``PATH=FIELD`` options into ``key_by``'s mapping, or exit 2."""
    paths: dict[str, KeyFn] = {}
    for spec in specs:
        path, sep, key = spec.partition("=")
        if not sep or not path.strip() or not key.strip():
            fail(f"bad --key-by {spec!r}: expected PATH=FIELD, e.g. events=seq")
        if path in paths:
            fail(f"--key-by names {path!r} twice")
        paths[path] = key
    return paths


# --------------------------------------------------------------------------- the comparison


@dataclass
class Outcome:
    """What ``diff`` prints, in a form both the text and the JSON output use."""

    compared: str
    equal: bool
    entries: tuple[DiffEntry, ...]
    summary: dict[str, Any] | None = None
    summary_lines: list[str] = field(default_factory=list)
    divergence: Divergence[Any] | None = None
    fork: ForkComparison | None = None
    fork_json: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)


def _prefixed(prefix: str, result: DiffResult | None) -> list[DiffEntry]:
    if result is None:
        return []
    return [DiffEntry((prefix, *e.path), e.before, e.after, e.array_op) for e in result.entries]


def _yes(value: bool | None) -> str:
    return "unknown" if value is None else ("yes" if value else "no")


def _path_text(agents: tuple[str, ...]) -> str:
    return " → ".join(agents) if agents else "(no attempts)"


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


def _summary_lines(summary: ComparisonSummary) -> list[str]:
    intent = _yes(summary.same_intent)
    if not summary.same_intent:
        intent += f" ({summary.intent_a or '?'} / {summary.intent_b or '?'})"
    path = _yes(summary.same_agent_path)
    if not summary.same_agent_path:
        path += f" ({_path_text(summary.agent_path_a)} / {_path_text(summary.agent_path_b)})"
    return [
        f"same intent: {intent}",
        f"same agent path: {path}",
        f"same response: {_yes(summary.same_response)}",
        f"same envelope hash: {_yes(summary.same_envelope_hash)}",
    ]


def compare_two_records(a: Side, b: Side, key_paths: dict[str, KeyFn], aligned: bool) -> Outcome:
    assert a.record is not None and b.record is not None
    comparison = compare_records(a.record, b.record, key_by_paths=key_paths, aligned=aligned)
    return Outcome(
        "records",
        comparison.equal,
        comparison.entries,
        summary=_summary_json(comparison.summary),
        summary_lines=_summary_lines(comparison.summary),
        divergence=comparison.first_divergence,
    )


def _as_snapshot(side: Side) -> Snapshot:
    if side.snapshot is not None:
        return side.snapshot
    assert side.record is not None
    try:
        return snapshot_from_record(side.record)
    except SnapshotError as exc:
        fail(f"{side.label}: cannot make a snapshot of this record: {exc}")


def _step_output(snapshot: Snapshot) -> Any:
    artifact = snapshot.step_output
    content = artifact.content if artifact is not None else MISSING
    return content.get("output", MISSING) if isinstance(content, dict) else MISSING


def compare_two_snapshots(a: Side, b: Side, key_paths: dict[str, KeyFn], aligned: bool) -> Outcome:
    sa, sb = _as_snapshot(a), _as_snapshot(b)
    input_diff, output_diff, commands_diff = compare_snapshots(sa, sb, key_by=key_paths or None)
    notes: list[str] = []
    if aligned:
        # compare_snapshots is Verist's by-index diff; redo input and output aligned.
        input_diff = diff_values(sa.input, sb.input, aligned=True)
        if output_diff is not None:
            output_diff = compare_values(
                _step_output(sa), _step_output(sb), key_by_paths=key_paths, aligned=True
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
    summary = {
        "same_input": input_diff.equal,
        "same_input_hash": sa.input_hash == sb.input_hash,
        "same_output": None if output_diff is None else output_diff.equal,
        "same_commands": None if commands_diff is None else commands_diff.equal,
    }
    lines = [
        f"same input: {_yes(input_diff.equal)}",
        f"same output: {_yes(summary['same_output'])}",
        "same commands: "
        + ("n/a (no commands)" if commands_diff is None else _yes(commands_diff.equal)),
    ]
    return Outcome("snapshots", equal, tuple(entries), summary, lines, notes=notes)


def _fork_relation(a: Side, b: Side) -> tuple[str, str] | None:
    """(parent run id, fork run id) when one run is the other's direct fork in the same file."""
    if a.run is None or b.run is None or a.db_path is None or b.db_path is None:
        return None
    try:
        same_file = a.db_path.resolve() == b.db_path.resolve()
    except OSError:
        return None
    if not same_file:
        return None
    if b.run.parent_run_id == a.run.run_id:
        return a.run.run_id, b.run.run_id
    if a.run.parent_run_id == b.run.run_id:
        return b.run.run_id, a.run.run_id
    return None


def compare_two_runs(a: Side, b: Side, key_paths: dict[str, KeyFn], aligned: bool) -> Outcome:
    assert a.run is not None and b.run is not None
    run_ids = (a.run.run_id, b.run.run_id)
    result = compare_values(
        comparable_events(a.events, run_ids),
        comparable_events(b.events, run_ids),
        key_by_paths=key_paths,
        aligned=aligned,
    )
    divergence = run_divergence(a.events, b.events, run_ids=run_ids)
    outcome = Outcome(
        "runs",
        result.equal,
        result.entries,
        summary={
            "events_a": len(a.events),
            "events_b": len(b.events),
            "same_types": [e.type for e in a.events] == [e.type for e in b.events],
        },
        divergence=divergence,
    )
    outcome.summary_lines = [
        f"events: {len(a.events)} / {len(b.events)}",
        f"same event types: {_yes(outcome.summary['same_types'] if outcome.summary else None)}",
    ]
    relation = _fork_relation(a, b)
    if relation is not None and a.db_path is not None:
        try:
            with RunDatabase(a.db_path) as db:
                outcome.fork = db.compare_fork(relation[1])
        except ActiveGraphError as exc:
            outcome.notes.append(f"fork comparison unavailable: {exc}")
    return outcome


def compare_sides(a: Side, b: Side, key_paths: dict[str, KeyFn], aligned: bool) -> Outcome:
    kinds = {a.kind, b.kind}
    if kinds == {"record"}:
        return compare_two_records(a, b, key_paths, aligned)
    if "run" in kinds:
        if kinds != {"run"}:
            fail("cannot compare an Active Graph run with a record or snapshot")
        return compare_two_runs(a, b, key_paths, aligned)
    return compare_two_snapshots(a, b, key_paths, aligned)


# --------------------------------------------------------------------------- JSON output


def _plain(value: Any) -> Any:
    """A JSON-ready copy: MISSING nested in a value becomes null."""
    if value is MISSING:
        return None
    if not isinstance(value, dict | list):
        return value
    try:
        return json.loads(json.dumps(value, default=lambda o: None if o is MISSING else str(o)))
    except RecursionError:  # str() would recurse as deep
        return "(nested too deeply to show)"
    except ValueError:
        return str(value)


def entry_json(entry: DiffEntry) -> dict[str, Any]:
    out: dict[str, Any] = {
        "path": list(entry.path),
        "path_text": format_path(entry.path),
        "kind": entry.kind,
    }
    if entry.before is not MISSING:
        out["before"] = _plain(entry.before)
    if entry.after is not MISSING:
        out["after"] = _plain(entry.after)
    if entry.array_op is not None:
        out["array_op"] = entry.array_op
    return out


def graph_event_json(event: GraphEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "id": event.id,
        "type": event.type,
        "actor": event.actor,
        "caused_by": event.caused_by,
        "frame_id": event.frame_id,
        "timestamp": event.timestamp,
        "run_id": event.run_id,
        "payload": _plain(event.payload),
    }


def _event_json(event: Any) -> Any:
    return graph_event_json(event) if isinstance(event, GraphEvent) else _plain(event)


def divergence_json(divergence: Divergence[Any] | None) -> dict[str, Any] | None:
    if divergence is None:
        return None
    payload = divergence.payload_diff
    return {
        "index": divergence.index,
        "kind": divergence.kind,
        "seq_a": divergence.seq_a,
        "seq_b": divergence.seq_b,
        "type_a": divergence.type_a,
        "type_b": divergence.type_b,
        "event_a": _event_json(divergence.event_a),
        "event_b": _event_json(divergence.event_b),
        "payload_entries": [entry_json(e) for e in payload.entries] if payload else [],
        "description": divergence.describe(),
    }


def fork_json(fork: ForkComparison | None) -> dict[str, Any] | None:
    if fork is None:
        return None
    return {
        "parent_run_id": fork.parent.run_id,
        "fork_run_id": fork.fork.run_id,
        "forked_at_event_id": fork.fork.forked_at_event_id,
        "fork_point_index": fork.fork_point_index,
        "shared_prefix_len": fork.shared_prefix_len,
        "prefix_intact": fork.prefix_intact,
        "parent_tail": [graph_event_json(e) for e in fork.parent_tail],
        "fork_tail": [graph_event_json(e) for e in fork.fork_tail],
        "first_divergence": divergence_json(fork.first_divergence),
    }


def outcome_json(a: Side, b: Side, outcome: Outcome) -> dict[str, Any]:
    return {
        "equal": outcome.equal,
        "compared": outcome.compared,
        "a": a.describe(),
        "b": b.describe(),
        "entries": [entry_json(e) for e in outcome.entries],
        "summary": outcome.summary,
        "first_divergence": divergence_json(outcome.divergence),
        "fork": fork_json(outcome.fork),
        "notes": outcome.notes,
    }


# --------------------------------------------------------------------------- text output


def _line(text: str) -> None:
    echo_text(sanitize_line(text))


def _compact(value: Any, limit: int = 160) -> str:
    try:
        text = json.dumps(_plain(value), ensure_ascii=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _event_line(event: Any) -> str:
    if isinstance(event, GraphEvent):
        cause = f" ← {event.caused_by}" if event.caused_by else ""
        return f"{event.id} {event.type} by {event.actor or '-'}{cause} {_compact(event.payload)}"
    return _compact(event)


def _print_divergence(divergence: Divergence[Any] | None, title: str) -> None:
    if divergence is None:
        _line(f"{title}: none")
        return
    _line(f"{title}: {divergence.describe()}")
    for side, event in (("A", divergence.event_a), ("B", divergence.event_b)):
        _line(f"    {side}: {'(ended)' if event is None else _event_line(event)}")
    if divergence.payload_diff is not None:
        for text in format_diff(divergence.payload_diff).split("\n"):
            _line(f"    {text}")


def _print_tail(name: str, events: tuple[GraphEvent, ...], start: int) -> None:
    _line(f"{name} tail ({len(events)} events):")
    for offset, event in enumerate(events[:_TAIL_LINES]):
        _line(f"  #{start + offset + 1} {_event_line(event)}")
    if len(events) > _TAIL_LINES:
        _line(f"  … {len(events) - _TAIL_LINES} more")


def _print_fork(fork: ForkComparison) -> None:
    point = "?" if fork.fork_point_index is None else f"#{fork.fork_point_index + 1}"
    label = f" ({fork.fork.label})" if fork.fork.label else ""
    _line(
        f"fork: {fork.fork.run_id}{label} forked from {fork.parent.run_id} "
        f"at {fork.fork.forked_at_event_id} (event {point})"
    )
    intact = "" if fork.prefix_intact else " — the copied prefix differs from the parent!"
    _line(f"shared prefix: {fork.shared_prefix_len} events{intact}")
    _print_tail("parent", fork.parent_tail, fork.shared_prefix_len)
    _print_tail("fork", fork.fork_tail, fork.shared_prefix_len)


def print_text(a: Side, b: Side, outcome: Outcome) -> None:
    for name, side in (("A", a), ("B", b)):
        described = side.describe()
        ident = (
            described.get("execution_id") or described.get("run_id") or described.get("workflow_id")
        )
        _line(f"{name}: {side.label} ({side.kind}{f' {ident}' if ident else ''})")
        if side.note:
            _line(f"   note: {side.note}")
    for text in outcome.summary_lines:
        _line(text)
    if outcome.compared != "snapshots":
        _print_divergence(outcome.divergence, "first divergence")
    if outcome.fork is not None:
        _print_fork(outcome.fork)
    for note in outcome.notes:
        _line(f"note: {note}")
    _line("")
    for text in format_diff(DiffResult(not outcome.entries, outcome.entries)).split("\n"):
        _line(text)
    count = len(outcome.entries)
    _line("equal" if outcome.equal else f"different: {count} change{'' if count == 1 else 's'}")


# --------------------------------------------------------------------------- the command


@click.command("diff")
@click.argument("a")
@click.argument("b")
@click.option("--dir", "directory", help="Record directory for ids (default: as the debugger).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option(
    "--key-by",
    "key_by_specs",
    multiple=True,
    metavar="PATH=FIELD",
    help="Compare the array at dot-PATH as a map keyed by FIELD (repeatable).",
)
@click.option(
    "--aligned", is_flag=True, help="Align arrays on content: an insertion is one change."
)
@guarded
def diff(
    a: str,
    b: str,
    directory: str | None,
    as_json: bool,
    key_by_specs: tuple[str, ...],
    aligned: bool,
) -> None:
    """Compare A and B: records (file or id), snapshot/baseline files, or RUNS.db#RUN_ID.

    Exit 0 when equal, 1 when different, 2 on a usage error.
    """
    key_paths = parse_key_by(key_by_specs)
    side_a = read_side(a, directory)
    side_b = read_side(b, directory)
    try:
        outcome = compare_sides(side_a, side_b, key_paths, aligned)
    except DiffError as exc:
        fail(f"--key-by: {exc}")
    if as_json:
        echo_json(outcome_json(side_a, side_b, outcome))
    else:
        print_text(side_a, side_b, outcome)
    raise click.exceptions.Exit(EXIT_OK if outcome.equal else EXIT_PROBLEMS)
