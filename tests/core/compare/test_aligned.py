"""The side-by-side layout of real 1.3.0 records: timelines aligned event by event (an
inserted event faces a gap), values aligned by path, unchanged runs folded, differences
located."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from intentus_tui.core.compare import (
    DEFAULT_RULES,
    NO_RULES,
    IgnoreRules,
    entry_line,
    file_operand,
    path_in_a,
    path_text,
    record_operand,
)
from intentus_tui.core.compare.aligned import Fold, SideRow, fold_rows, side_by_side
from tests.intentusnet_world import RealWorld


def _record(world: RealWorld, execution_id: str) -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(
        (world.records_dir / f"{execution_id}.json").read_text(encoding="utf-8")
    )
    return raw


def _timeline(layout: Any) -> list[tuple[str | None, str | None, str]]:
    return [(row.a, row.b, row.status) for row in layout.timeline]


def test_an_inserted_event_and_a_real_difference_align_with_a_gap(real_world: RealWorld) -> None:
    a = _record(real_world, real_world.success)
    b = copy.deepcopy(a)
    events = b["events"]
    # A model call inserted after the attempt started, and the agent's answer changed.
    events.insert(2, {"seq": 0, "type": "MODEL_CALL", "payload": {"model": "m-1"}})
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
    b["finalResponse"]["payload"]["by"] = "someone else"
    layout = side_by_side(record_operand("A", a), record_operand("B", b), DEFAULT_RULES)
    rows = _timeline(layout)
    types_a = [e["type"] for e in a["events"]]
    assert len(rows) == len(types_a) + 1
    inserted = rows[2]
    assert inserted == (None, "#3 MODEL_CALL", "added")
    # Every other event faces its twin, seq shifted on B's side but not a difference.
    assert rows[3][0] is not None and rows[3][0].startswith("#3 AGENT_ATTEMPT_END")
    assert rows[3][1] is not None and rows[3][1].startswith("#4 AGENT_ATTEMPT_END")
    assert rows[3][2] == "same"
    assert [r[2] for r in rows].count("added") == 1
    # The comparison reports the insertion once and the real change, nothing about seq.
    shown = [e for e in layout.comparison.entries]
    kinds = {(e.path[:2], e.kind) for e in shown}
    assert (("events", 2), "added") in kinds
    assert any(e.path == ("finalResponse", "payload", "by") for e in shown)
    assert not any(e.path[-1] == "seq" for e in shown)
    # Values: the inserted event's lines face gaps on A's side.
    gap_rows = [r for r in layout.values if r.a is None]
    assert gap_rows and all(r.status == "added" for r in gap_rows)
    assert any(r.b is not None and '"MODEL_CALL"' in r.b for r in gap_rows)
    assert {r.path_text for r in gap_rows} >= {"events[2]", "events[2].type"}
    # The timeline row of the inserted event leads to its first value line.
    first_line = layout.values[layout.event_rows[2]]
    assert first_line.path_text == "events[2]" and first_line.a is None


def test_real_fallback_against_direct(real_world: RealWorld) -> None:
    records = real_world.records_dir
    a = file_operand("A", records / f"{real_world.success}.json")
    b = file_operand("B", records / f"{real_world.fallback}.json")
    layout = side_by_side(a, b, DEFAULT_RULES)
    statuses = [row.status for row in layout.timeline]
    # fb-primary's failed attempt and the fallback exist only in B: three gaps on A's side.
    assert statuses.count("added") == 3 and statuses.count("removed") == 0
    added = [row.b for row in layout.timeline if row.status == "added"]
    assert added[0] is not None and "AGENT_ATTEMPT_START fb-primary" in added[0]
    # The final response differs only in trace ids and times: hidden with the rules on.
    final = layout.timeline[-1]
    assert final.status == "changed" and final.hidden
    assert final.differs(rules_on=False) and not final.differs(rules_on=True)
    assert layout.shown(rules_on=False) == layout.shown(rules_on=True) + layout.hidden


def test_folding_keeps_context_and_locates_each_difference(real_world: RealWorld) -> None:
    a = _record(real_world, real_world.success)
    b = copy.deepcopy(a)
    b["envelope"]["payload"]["text"] = "changed"
    layout = side_by_side(record_operand("A", a), record_operand("B", b), DEFAULT_RULES)
    folded = layout.fold(rules_on=True, context=2)
    assert len(folded.differences) == 1  # one place: the volatile fields are hidden
    first = folded.rows[folded.first or 0]
    assert isinstance(first, SideRow) and first.path_text == "envelope.payload.text"
    assert first.a is not None and '"héllo wörld"' in first.a and first.b is not None
    before = folded.rows[: folded.first]
    assert isinstance(before[0], Fold) and all(isinstance(r, SideRow) for r in before[1:])
    assert len(before) == 1 + 2  # a fold, then two lines of context
    folds = [r for r in folded.rows if isinstance(r, Fold)]
    assert sum(f.count for f in folds) + len(folded.rows) - len(folds) == len(layout.values)


def test_fold_rows_rules() -> None:
    same = [SideRow(f"s{i}", f"s{i}", "same") for i in range(10)]
    hidden = SideRow("t1", "t2", "changed", ("timestamp",), hidden=True)
    rows = [*same[:5], hidden, *same[5:]]
    on = fold_rows(rows, rules_on=True, context=1)
    assert on.differences == () and on.rows == tuple(rows)  # nothing differs: nothing folded
    off = fold_rows(rows, rules_on=False, context=1)
    assert off.rows == (Fold(0, 4), rows[4], hidden, rows[6], Fold(7, 4))
    assert off.differences == (2,)
    # A fold of one line would not save a line.
    assert fold_rows(rows[3:8], rules_on=False, context=1).rows == tuple(rows[3:8])


def test_snapshots_have_values_but_no_timeline(tmp_path: Path, real_world: RealWorld) -> None:
    from intentus_tui.core.verist.snapshot import snapshot_from_record

    a = _record(real_world, real_world.success)
    snap = snapshot_from_record(a)
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snap.to_json()), encoding="utf-8")
    layout = side_by_side(record_operand("A", a), file_operand("B", path), NO_RULES)
    assert layout.comparison.compared == "snapshots"
    assert layout.timeline == ()
    assert layout.comparison.equal
    assert [r.path_text for r in layout.values[:2]] == ["(root)", "input"]


def test_two_active_graph_runs_side_by_side(tmp_path: Path) -> None:
    from intentus_tui.core.compare import run_operand
    from tests.activegraph_world import notes_world

    world = notes_world(tmp_path)
    parent = run_operand("A", world.path, world.parent)
    child = run_operand("B", world.path, world.child)
    layout = side_by_side(parent, child, DEFAULT_RULES)
    assert layout.comparison.compared == "runs" and not layout.comparison.equal
    assert len(layout.timeline) >= max(len(parent.events), len(child.events))
    assert sum(1 for r in layout.timeline if r.a is not None) == len(parent.events)
    assert sum(1 for r in layout.timeline if r.b is not None) == len(child.events)
    # The shared prefix lines up event by event, each side naming its own event.
    first = layout.timeline[0]
    assert first.status == "same" and first.a is not None and first.b is not None
    assert first.a.split()[:3] == ["#1", parent.events[0].id, parent.events[0].type]
    # What differs after the fork faces gaps or changes, and the paths name events by number.
    assert any(r.status != "same" for r in layout.timeline)
    assert all(layout.path_text(r).startswith("#") for r in layout.timeline)
    assert layout.fold(rules_on=True).first is not None


def test_hostile_values_are_laid_out_never_raised(real_world: RealWorld) -> None:
    a = _record(real_world, real_world.success)
    b = copy.deepcopy(a)
    deep: list[Any] = []
    cursor = deep
    for _ in range(100_000):  # deeper than any recursion limit
        cursor.append([])
        cursor = cursor[0]
    b["finalResponse"]["payload"] = deep
    b["envelope"]["payload"] = {"text": "y" * 2_000_000, "nan": float("nan"), "big": 10**40}
    layout = side_by_side(record_operand("A", a), record_operand("B", b), DEFAULT_RULES)
    texts = [row.b for row in layout.values if row.b is not None]
    assert max(len(t) for t in texts) < 600  # a 2 MB string is cut on its row
    assert any(t.strip() == '"nan": NaN' for t in texts)  # not written as null
    assert any(t.strip() == f'"big": {10**40}' for t in texts)
    assert any("(nested too deeply to show)" in t for t in texts)


def test_an_event_at_another_place_in_each_record_is_named_by_both_places(
    real_world: RealWorld,
) -> None:
    """After an inserted event, B's events[3] is A's events[2]: a path naming only B's
    place read as A's third event (the one before), so both places are shown, in the
    comparison's text and on the side-by-side rows, while the ignore rules keep matching
    B's place."""
    a = _record(real_world, real_world.success)
    b = copy.deepcopy(a)
    b["events"].insert(2, {"seq": 0, "type": "MODEL_CALL", "payload": {"model": "m-1"}})
    for seq, event in enumerate(b["events"], start=1):
        event["seq"] = seq
    b["events"][3]["payload"]["status"] = "changed-in-b"
    layout = side_by_side(record_operand("A", a), record_operand("B", b), NO_RULES)
    changed = [e for e in layout.comparison.entries if e.path[:3] == ("events", 3, "payload")]
    assert [path_text(e) for e in changed] == ["events[2→3].payload.status"]
    assert path_in_a(changed[0].path) == ["events", 2, "payload", "status"]
    assert changed[0].path == ("events", 3, "payload", "status")  # B's place, as ever
    assert entry_line(changed[0]).startswith("  events[2→3].payload.status: ")
    rows = [r for r in layout.values if r.status == "changed" and r.path[-1] == "status"]
    assert [r.path_text for r in rows] == ["events[2→3].payload.status"]
    inserted = [e for e in layout.comparison.entries if e.path == ("events", 2)]
    assert [path_text(e) for e in inserted] == ["events[2]"]  # only in B: B's place
    assert IgnoreRules(("events[3].payload.status",)).covers(changed[0].path)
    assert not IgnoreRules(("events[2].payload.status",)).covers(changed[0].path)
    # The timeline's rows name their events so too (it said events[3] for A's events[2]).
    event_rows = [r for r in layout.timeline if r.a is not None and r.b is not None]
    assert [r.path_text for r in event_rows][2:] == [
        f"events[{i}→{i + 1}]" for i in range(2, len(a["events"]))
    ]
    assert [r.path_text for r in event_rows][:2] == ["events[0]", "events[1]"]


def test_the_differences_come_in_the_order_the_comparison_lists_them(
    real_world: RealWorld,
) -> None:
    """Each of the comparison's entries starts a run of rows, in the entries' order (the
    order of the Diff tab and ``intentus-tui diff``), with the rules on and off: 1.3.0
    writes an envelope's ``routing`` as strategy, targetAgent, fallbackAgents, the diff
    visits them sorted."""
    ids = [real_world.success, real_world.fallback, real_world.invalidated]
    for first in ids:
        for second in ids:
            a = file_operand("A", real_world.records_dir / f"{first}.json")
            b = file_operand("B", real_world.records_dir / f"{second}.json")
            for rules in (DEFAULT_RULES, NO_RULES):
                layout = side_by_side(a, b, rules)
                rows = layout.fold(rules_on=True)
                starts = [rows.rows[i] for i in rows.differences]
                shown = [row.path_text for row in starts if isinstance(row, SideRow)]
                assert shown == [path_text(e) for e in layout.comparison.entries]
