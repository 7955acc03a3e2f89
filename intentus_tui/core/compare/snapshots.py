"""A snapshot or baseline on either side: Verist's three-part comparison (input, output,
commands; events are left out), a record taking part as the snapshot ``snapshot_from_record``
makes of it.

When both sides carry an IntentusNet record header (a record, or a snapshot made of one: its
``intentusnet-record-header`` artifact), the header and router decision are compared too, at
the paths a record comparison uses (``header.replayable``, ``routerDecision.agent``) and under
the same ignore rules: a record marked not replayable since its snapshot was taken differs
from it. A Verist snapshot or baseline without that artifact leaves the header out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from intentus_tui.core.compare.ignore import NO_RULES, IgnoreRules
from intentus_tui.core.compare.operands import CompareError, Operand
from intentus_tui.core.compare.records import compare_values, same_recorded_hash
from intentus_tui.core.compare.result import Comparison, SnapshotSummary
from intentus_tui.core.verist.diff import DiffEntry, DiffResult, diff
from intentus_tui.core.verist.key_by import KeyFn
from intentus_tui.core.verist.missing import MISSING

if TYPE_CHECKING:
    from intentus_tui.core.verist.snapshot import Snapshot


def _prefixed(prefix: str, result: DiffResult | None) -> list[DiffEntry]:
    if result is None:
        return []
    return [DiffEntry((prefix, *e.path), e.before, e.after, e.array_op) for e in result.entries]


def as_snapshot(operand: Operand) -> Snapshot:
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


def record_header(snapshot: Snapshot) -> Any:
    """The ``intentusnet-record-header`` content (``{header, routerDecision}``), or MISSING."""
    from intentus_tui.core.verist.snapshot import RECORD_HEADER_KIND

    artifact = snapshot.artifact(RECORD_HEADER_KIND)
    content = artifact.content if artifact is not None else MISSING
    return content if isinstance(content, dict) else MISSING


def step_output(snapshot: Snapshot) -> Any:
    artifact = snapshot.step_output
    content = artifact.content if artifact is not None else MISSING
    return content.get("output", MISSING) if isinstance(content, dict) else MISSING


def _step_output_hash(snapshot: Snapshot, operand: Operand) -> str | None:
    """The hash of the step output as it reads now: the one stored with it where that
    holds (a record's snapshot is made now; a saved one whose hashes were all checked when
    it was read has no ``note``), else its content hashed again. A snapshot whose events
    were edited since it was saved kept the stored hash of the events it had, and its
    events were said equal."""
    from intentus_tui.core.verist.hashing import try_hash

    artifact = snapshot.step_output
    if artifact is None:
        return None
    stale = operand.kind == "snapshot" and operand.note is not None
    if stale and artifact.content is not MISSING:
        actual, _ = try_hash(artifact.content)
        if actual is not None:
            return actual
    return artifact.hash


def compare_snapshot_operands(
    a: Operand,
    b: Operand,
    key_by_paths: Mapping[str, KeyFn] | None,
    aligned: bool,
    ignore: IgnoreRules = NO_RULES,
) -> Comparison:
    """Verist's ``compareSnapshots`` (input, output, commands; events are left out)."""
    from intentus_tui.core.verist.recompute import compare_snapshots

    sa, sb = as_snapshot(a), as_snapshot(b)
    input_diff, output_diff, commands_diff = compare_snapshots(sa, sb, key_by=key_by_paths or None)
    notes: list[str] = []
    if aligned:
        # compare_snapshots is Verist's by-index diff; redo input and output aligned.
        input_diff = diff(sa.input, sb.input, aligned=True)
        if output_diff is not None:
            output_diff = compare_values(
                step_output(sa), step_output(sb), key_by_paths=key_by_paths, aligned=True
            )
    header_a, header_b = record_header(sa), record_header(sb)
    header_diff = None
    if header_a is not MISSING and header_b is not MISSING:
        header_diff = diff(header_a, header_b, aligned=aligned)
    ha, hb = _step_output_hash(sa, a), _step_output_hash(sb, b)
    same_hash = ha is not None and ha == hb
    shown_input, hidden_input = ignore.split(_prefixed("input", input_diff))
    shown_output, hidden_output = ignore.split(_prefixed("output", output_diff))
    shown_commands, hidden_commands = ignore.split(_prefixed("commands", commands_diff))
    shown_header, hidden_header = ignore.split(header_diff.entries if header_diff else ())
    equal = not shown_input and not shown_output and not shown_commands and not shown_header
    if output_diff is not None:
        if output_diff.equal and not same_hash:
            notes.append(
                "the step-output hashes differ although the outputs are equal: the recorded "
                "events differ (Verist's snapshot comparison leaves events out; "
                "diff the records to see them)"
            )
        elif not same_hash:  # the hash covers the events: equal hashes, equal events
            notes.append(
                "events not compared (Verist's snapshot comparison leaves them out): "
                "diff the records to see whether they differ"
            )
    else:
        # No comparable content on a side (hash-only or malformed): fall back to the hashes.
        equal = equal and same_hash
        notes.append(
            "outputs not compared path by path (a snapshot has no step-output content); "
            + ("their step-output hashes match" if same_hash else "their step-output hashes differ")
        )
    summary = SnapshotSummary(
        same_input=not shown_input,
        same_input_hash=sa.input_hash == sb.input_hash,
        # No content to compare: equal hashes still say the outputs are equal (the hash
        # covers the output and the events); differing ones do not say which differs.
        same_output=(True if same_hash else None) if output_diff is None else not shown_output,
        same_commands=None if commands_diff is None else not shown_commands,
        same_header=None if header_diff is None else not shown_header,
        same_envelope_hash=None if header_diff is None else same_recorded_hash(header_a, header_b),
    )
    return Comparison(
        "snapshots",
        equal,
        shown_input + shown_output + shown_commands + shown_header,
        hidden=hidden_input + hidden_output + hidden_commands + hidden_header,
        snapshots=summary,
        notes=tuple(notes),
        ignore=ignore,
    )
