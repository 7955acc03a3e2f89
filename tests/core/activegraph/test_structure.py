"""Objects and relations of two runs, checked against the real ``activegraph diff``."""

from __future__ import annotations

import itertools
import shutil
import sqlite3
from pathlib import Path

import pytest
from activegraph import Runtime
from activegraph.store.retention import compact

from intentus_tui.core.activegraph import (
    RunDatabase,
    StructuralDiff,
    compare_structure,
    graph_state,
)
from tests.activegraph_world import NotesWorld, real_diff

RUNS = ("parent", "child", "grandchild", "sibling")
STATUS_AS_REAL = {"only_a": "only in parent", "only_b": "only in fork", "differs": "differs"}


def _ours(path: Path, run_a: str, run_b: str) -> StructuralDiff:
    with RunDatabase(path) as db:
        return compare_structure(run_a, graph_state(db, run_a), run_b, graph_state(db, run_b))


@pytest.mark.parametrize(("a", "b"), list(itertools.permutations(RUNS, 2)))
def test_every_pair_agrees_with_activegraph_diff(
    notes: NotesWorld, tmp_path: Path, a: str, b: str
) -> None:
    run_a, run_b = getattr(notes, a), getattr(notes, b)
    ours = _ours(notes.path, run_a, run_b)
    real = real_diff(notes.path, run_a, run_b, tmp_path)
    assert ours.activegraph_summary() == real.counts
    assert {i.id: STATUS_AS_REAL[i.status] for i in ours.divergent_objects} == real.objects
    assert {i.id: STATUS_AS_REAL[i.status] for i in ours.divergent_relations} == real.relations
    # Active Graph's own lines, word for word, with its names for the two sides.
    assert [i.summary("parent", "fork") for i in ours.divergent_objects] == real.object_lines
    assert [i.summary("parent", "fork") for i in ours.divergent_relations] == real.relation_lines


def test_a_grandchild_against_its_grandparent_item_by_item(notes: NotesWorld) -> None:
    ours = _ours(notes.path, notes.parent, notes.grandchild)
    assert (ours.shared_events, ours.a_only_events, ours.b_only_events) == (6, 2, 6)
    assert ours.object_counts == {"shared": 1, "only_a": 0, "only_b": 1, "differs": 3}
    assert ours.relation_counts == {"shared": 1, "only_a": 1, "only_b": 1, "differs": 0}
    by_id = {i.id: i for i in (*ours.objects, *ours.relations)}
    assert by_id["note#3"].status == "shared"  # untouched on both sides
    assert by_id["note#2"].summary() == "note#2 differs (A v1 ↔ B v3)"  # patched twice below
    assert by_id["note#4"].status == "differs"  # the same id, minted on each side after the fork
    assert by_id["note#5"].summary() == "note#5 only in B"
    assert by_id["rel_001"].status == "shared"
    assert by_id["rel_002"].summary() == "rel_002 only in A (note#2 --cites--> note#3)"
    assert by_id["rel_003"].summary() == "rel_003 only in B (note#3 --answers--> note#1)"
    assert not ours.same_graph and ours.notes == ()


def test_a_removed_object_takes_its_relations_with_it(notes: NotesWorld) -> None:
    with RunDatabase(notes.path) as db:
        state = graph_state(db, notes.sibling)
    assert sorted(state.objects) == ["note#2"]  # note#1 was removed
    assert state.objects["note#2"]["data"] == {"text": "sibling note"}
    assert dict(state.relations) == {}  # rel_001 (note#1 -> note#2) went with note#1


def test_a_run_against_itself_is_all_shared(notes: NotesWorld) -> None:
    ours = _ours(notes.path, notes.grandchild, notes.grandchild)
    assert ours.same_graph
    assert ours.object_counts == {"shared": 5, "only_a": 0, "only_b": 0, "differs": 0}
    assert ours.a_only_events == ours.b_only_events == 0


def test_a_compacted_run_is_read_from_its_snapshot(notes: NotesWorld, tmp_path: Path) -> None:
    path = tmp_path / "compacted.db"
    shutil.copyfile(notes.path, path)
    with RunDatabase(path) as db:
        before = graph_state(db, notes.grandchild)
    compact(str(path), notes.grandchild)
    with RunDatabase(path) as db:
        after = graph_state(db, notes.grandchild)
        assert db.run_events(notes.grandchild)[0].archived  # the prefix went to the archive
    assert after.events[0].type == "runtime.snapshot"
    assert dict(after.objects) == dict(before.objects)
    assert dict(after.relations) == dict(before.relations)
    assert after.notes == ()
    ours = _ours(path, notes.parent, notes.grandchild)
    assert (
        ours.activegraph_summary()
        == real_diff(path, notes.parent, notes.grandchild, tmp_path).counts
    )


def test_a_missing_snapshot_is_said_not_hidden(notes: NotesWorld, tmp_path: Path) -> None:
    path = tmp_path / "nosnap.db"
    shutil.copyfile(notes.path, path)
    compact(str(path), notes.grandchild)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM snapshots")
    with RunDatabase(path) as db:
        state = graph_state(db, notes.grandchild)
    assert any("snapshot" in note and "missing" in note for note in state.notes)


def test_an_event_that_cannot_be_applied_is_skipped_and_counted(
    notes: NotesWorld, tmp_path: Path
) -> None:
    path = tmp_path / "bad.db"
    shutil.copyfile(notes.path, path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE events SET payload = '{\"patch\": 3}' WHERE run_id = ? AND id = 'evt_012'",
            (notes.grandchild,),
        )
        conn.execute(
            "UPDATE events SET payload = '{broken' WHERE run_id = ? AND id = 'evt_013'",
            (notes.grandchild,),
        )
    with RunDatabase(path) as db:
        state = graph_state(db, notes.grandchild)
    [note] = state.notes
    assert "2 event(s) could not be applied" in note and "evt_012" in note
    assert state.objects["note#2"]["version"] == 2  # the second patch was not applied
    assert "rel_002" in state.relations  # nor the removal


def test_the_real_package_agrees_the_graph_is_what_we_rebuilt(
    notes: NotesWorld, tmp_path: Path
) -> None:
    path = tmp_path / "load.db"
    shutil.copyfile(notes.path, path)
    loaded = Runtime.load(str(path), run_id=notes.grandchild)
    try:
        objects = {o.id: o.to_dict() for o in loaded.graph.all_objects()}
        relations = {r.id: r.to_dict() for r in loaded.graph.all_relations()}
    finally:
        loaded.graph.store.close()
    for item in (*objects.values(), *relations.values()):
        item.pop("provenance")
    with RunDatabase(notes.path) as db:
        state = graph_state(db, notes.grandchild)
    assert dict(state.objects) == objects and dict(state.relations) == relations


def test_an_object_nested_past_the_recursion_limit_does_not_stop_the_comparison(
    notes: NotesWorld, tmp_path: Path
) -> None:
    path = tmp_path / "deep.db"
    shutil.copyfile(notes.path, path)
    deep = '{"a":' * 900 + "1" + "}" * 900
    payload = (
        '{"object": {"id": "note#1", "type": "note", "data": ' + deep + ', "version": 1, '
        '"provenance": {}}}'
    )
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE events SET payload = ? WHERE run_id = ? AND id = 'evt_003'",
            (payload, notes.grandchild),
        )
    ours = _ours(path, notes.parent, notes.grandchild)  # no exception
    assert {i.id for i in ours.divergent_objects} >= {"note#1"}
