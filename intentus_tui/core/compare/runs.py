"""Two Active Graph runs: their event lists, normalized as ``core.activegraph`` documents
(aligned: event by event on type and actor, as records' events are);
their lineage when both are in one database and related (one is the other's parent or any
older ancestor, or both descend from a third run: fork points, the shared prefix, each side's
tail); and what they built (objects and relations shared, only in A, only in B, differing,
with the event counts ``activegraph diff`` prints). Two runs are equal when their normalized
events and their objects and relations are."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from intentus_tui.core.compare.events import aligned_events_diff, run_event_key
from intentus_tui.core.compare.ignore import NO_RULES, IgnoreRules
from intentus_tui.core.compare.operands import Operand
from intentus_tui.core.compare.records import compare_values, count_changed_events
from intentus_tui.core.compare.result import Comparison, RunSummary
from intentus_tui.core.verist.key_by import KeyFn

if TYPE_CHECKING:
    from intentus_tui.core.activegraph import StructuralDiff


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


def compare_runs(
    a: Operand,
    b: Operand,
    key_by_paths: Mapping[str, KeyFn] | None,
    aligned: bool,
    ignore: IgnoreRules = NO_RULES,
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
    events_a = comparable_events(a.events, run_ids)
    events_b = comparable_events(b.events, run_ids)
    by_event = aligned and not key_by_paths
    if by_event:
        # Aligned: event by event, on who did what (as the comparison screen lays them out
        # and as two records' events are compared), an event one run lacks one entry.
        result = aligned_events_diff(events_a, events_b, run_event_key)
    else:
        result = compare_values(events_a, events_b, key_by_paths=key_by_paths, aligned=aligned)
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
    shown, hidden = ignore.split(result.entries)
    return Comparison(
        "runs",
        not shown and same_graph,
        shown,
        hidden=hidden,
        ignore=ignore,
        runs=summary,
        # Event by event, as the comparison screen's timelines pair them (and as two records'
        # first divergence is found), whatever the listing above compares by.
        # The ignore rules hide there what they hide in the listing, as for two records.
        divergence=run_divergence(a.events, b.events, run_ids=run_ids, aligned=True, ignore=ignore),
        fork=fork,
        structure=structure,
        notes=tuple(notes),
        changed_events=count_changed_events(shown, ()) if by_event else None,
    )
