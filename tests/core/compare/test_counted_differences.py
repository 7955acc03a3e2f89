"""The side-by-side layout has one place to step to (``n``) for each of the comparison's
entries, the count every screen and the command line show: records, snapshots and runs, with
the ignore rules on and off; and its timeline marks as many changed events as the comparison
counts (``Comparison.changed_events``)."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.compare import (
    DEFAULT_RULES,
    NO_RULES,
    file_operand,
    record_operand,
    run_operand,
)
from intentus_tui.core.compare.aligned import SideBySide, side_by_side
from intentus_tui.core.compare.operands import Operand
from tests.intentusnet_world import RealWorld


def _record(world: RealWorld, execution_id: str) -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(
        (world.records_dir / f"{execution_id}.json").read_text(encoding="utf-8")
    )
    return raw


def _assert_counts_agree(a: Operand, b: Operand) -> SideBySide:
    for rules in (DEFAULT_RULES, NO_RULES):
        layout = side_by_side(a, b, rules)
        for rules_on in (True, False):
            places = len(layout.fold(rules_on).differences)
            assert places == layout.shown(rules_on), (a.label, b.label, rules, rules_on)
        events = layout.comparison.changed_events
        if events is not None:
            assert len(layout.timeline_differences(rules_on=True)) == events
    return layout


def test_every_pair_of_real_records(real_world: RealWorld) -> None:
    """Among them an empty list against a full one (a direct run's ``fallbackAgents``): each
    agent is one place, as it is one entry (it was one place for the whole list)."""
    paths = sorted(real_world.records_dir.glob("*.json"))
    for pa, pb in itertools.permutations(paths, 2):
        _assert_counts_agree(file_operand("A", pa), file_operand("B", pb))
    layout = side_by_side(
        file_operand("A", real_world.records_dir / f"{real_world.success}.json"),
        file_operand("B", real_world.records_dir / f"{real_world.fallback}.json"),
        NO_RULES,
    )
    agents = [
        layout.values[i].path_text
        for i in layout.starts
        if layout.values[i].path_text.startswith("envelope.routing.fallbackAgents")
    ]
    assert agents == ["envelope.routing.fallbackAgents[0]", "envelope.routing.fallbackAgents[1]"]


def test_changed_values_next_to_each_other_are_one_place_each(real_world: RealWorld) -> None:
    a = _record(real_world, real_world.success)
    b = copy.deepcopy(a)
    b["envelope"]["payload"] = {"text": "other", "lang": "fr", "n": 1.5}
    layout = _assert_counts_agree(record_operand("A", a), record_operand("B", b))
    assert len(layout.comparison.entries) >= 3


def test_what_the_comparison_leaves_out_is_shown_but_not_counted(real_world: RealWorld) -> None:
    """A number written 1 and 1.0 (equal to JavaScript); an event's seq written on one side
    only: shown side by side, not a difference."""
    a = _record(real_world, real_world.success)
    b = copy.deepcopy(a)
    a["envelope"]["payload"]["count"] = 1
    b["envelope"]["payload"]["count"] = 1.0
    del b["events"][0]["seq"]
    layout = _assert_counts_agree(record_operand("A", a), record_operand("B", b))
    rows = {row.path_text: row for row in layout.values}
    assert rows["envelope.payload.count"].status == "same"
    seq = rows["events[0].seq"]
    assert seq.status == "uncompared" and seq.b is None and not seq.differs(rules_on=False)


def test_a_snapshot_without_output_against_a_record(tmp_path: Path, real_world: RealWorld) -> None:
    """A hash-only snapshot has no output to compare: the record's output is shown, not
    counted (the comparison compares the hashes and says so in a note)."""
    from intentus_tui.core.verist.snapshot import snapshot_from_record

    a = _record(real_world, real_world.success)
    doc = snapshot_from_record(a).to_json()
    for artifact in doc["artifacts"]:
        artifact.pop("content", None)
    path = tmp_path / "hash-only.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    other = copy.deepcopy(a)
    other["envelope"]["payload"]["text"] = "changed"
    layout = _assert_counts_agree(record_operand("A", other), file_operand("B", path))
    output = [row for row in layout.values if row.path_text.startswith("output")]
    assert output and all(row.status == "uncompared" and row.b is None for row in output)
    assert layout.comparison.notes


@pytest.mark.parametrize(
    ("one", "other"),
    [("parent", "sibling"), ("child", "sibling"), ("grandchild", "sibling"), ("parent", "child")],
)
def test_two_runs_are_compared_in_the_timeline_s_pairs(
    tmp_path: Path, one: str, other: str
) -> None:
    """Aligned, two runs' events are paired on who did what, as the timeline pairs them (a
    run's sibling has events its parent lacks: they were paired by content, and the status
    counted 22 differences for 17 places)."""
    from tests.activegraph_world import notes_world

    world = notes_world(tmp_path)
    a = run_operand("A", world.path, getattr(world, one))
    b = run_operand("B", world.path, getattr(world, other))
    layout = _assert_counts_agree(a, b)
    assert layout.comparison.changed_events == len(layout.timeline_differences(rules_on=True))
