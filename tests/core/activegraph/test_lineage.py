"""Lineage through any ancestor, on runs written by the real ``activegraph`` package."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from activegraph import FrozenClock, Graph, Runtime
from activegraph.store.sqlite import SQLiteEventStore

from intentus_tui.core.activegraph import (
    RunDatabase,
    compare_fork,
    compare_lineage,
    relate_runs,
)
from tests.activegraph_world import NotesWorld


def _real_chain(world: NotesWorld, run_id: str) -> list[tuple[str, str, str]]:
    """(parent, fork, fork point) from the root down, as the real store lists its runs."""
    records = {r.run_id: r for r in SQLiteEventStore.list_runs(str(world.path))}
    chain = []
    while (record := records[run_id]).parent_run_id is not None:
        chain.append((record.parent_run_id, run_id, record.forked_at_event_id))
        run_id = record.parent_run_id
    return chain[::-1]


def _copied_rows(world: NotesWorld, run_a: str, run_b: str) -> int:
    """Leading events the real store holds identically (id, type, payload, actor, time)."""
    logs = []
    for run_id in (run_a, run_b):
        store = SQLiteEventStore(str(world.path), run_id=run_id)
        try:
            logs.append([e.to_dict() for e in store.iter_events()])
        finally:
            store.close()
    count = 0
    for a, b in zip(*logs, strict=False):
        if a != b:
            break
        count += 1
    return count


def test_a_grandchild_against_its_grandparent(notes: NotesWorld) -> None:
    comparison = compare_lineage(notes.path, notes.parent, notes.grandchild)
    assert comparison is not None and comparison.relation is not None
    relation = comparison.relation
    assert relation.kind == "ancestor"
    assert relation.common_ancestor.run_id == notes.parent
    assert relation.forks_a == ()
    assert [(f.parent_run_id, f.fork_run_id, f.event_id) for f in relation.forks_b] == (
        _real_chain(notes, notes.grandchild)
    )
    assert [f.event_id for f in relation.forks_b] == [
        notes.child_fork_event,
        notes.grandchild_fork_event,
    ]
    assert "A is B's grandparent" in relation.describe()
    # The child copied 7 of the parent's events, the grandchild 11 of the child's: 7 remain.
    assert [f.copied for f in relation.forks_b] == [7, 11]
    assert relation.inherited_len == 7 == _copied_rows(notes, notes.parent, notes.grandchild)
    assert comparison.fork_point_index == 6
    assert comparison.parent.run_id == notes.parent
    assert comparison.fork.run_id == notes.grandchild
    assert comparison.shared_prefix_len == 7 and comparison.prefix_intact
    assert comparison.first_divergence is not None
    assert len(comparison.parent_tail) == 4 and len(comparison.fork_tail) == 7


def test_the_order_of_the_two_runs_does_not_change_who_is_the_ancestor(
    notes: NotesWorld,
) -> None:
    comparison = compare_lineage(notes.path, notes.grandchild, notes.parent)
    assert comparison is not None and comparison.relation is not None
    assert comparison.parent.run_id == notes.parent
    assert comparison.relation.kind == "ancestor"
    assert "B is A's grandparent" in comparison.relation.describe()
    assert comparison.shared_prefix_len == 7


def test_a_direct_fork_is_a_parent_relation(notes: NotesWorld) -> None:
    with RunDatabase(notes.path) as db:
        relation = relate_runs(db, notes.child, notes.grandchild)
    assert relation is not None and relation.kind == "parent"
    assert relation.inherited_len == 11 == _copied_rows(notes, notes.child, notes.grandchild)
    assert compare_fork(notes.path, notes.grandchild).fork_point_index == 10


def test_two_runs_that_share_an_ancestor(notes: NotesWorld) -> None:
    comparison = compare_lineage(notes.path, notes.sibling, notes.grandchild)
    assert comparison is not None and comparison.relation is not None
    relation = comparison.relation
    assert relation.kind == "common-ancestor"
    assert relation.common_ancestor.run_id == notes.parent
    assert [f.event_id for f in relation.forks_a] == [notes.sibling_fork_event]
    assert [f.event_id for f in relation.forks_b] == [
        notes.child_fork_event,
        notes.grandchild_fork_event,
    ]
    assert [(f.parent_run_id, f.fork_run_id, f.event_id) for f in relation.forks_a] == (
        _real_chain(notes, notes.sibling)
    )
    # The sibling left the parent first, after 3 events: that is all the two still share.
    assert relation.inherited_len == 3 == _copied_rows(notes, notes.sibling, notes.grandchild)
    assert comparison.parent.run_id == notes.sibling  # A, when neither descends from the other
    assert comparison.shared_prefix_len == 3 and comparison.prefix_intact
    assert f"share the ancestor {notes.parent}" in relation.describe()


def test_unrelated_runs_and_the_same_run_have_no_lineage_comparison(
    notes: NotesWorld, tmp_path: Path
) -> None:
    path = tmp_path / "two.db"
    shutil.copyfile(notes.path, path)
    other = Runtime(Graph(clock=FrozenClock()), persist_to=str(path))
    other.run_goal("Something else")
    other.graph.store.close()
    assert compare_lineage(path, notes.parent, other.graph.run_id) is None
    assert compare_lineage(path, notes.grandchild, notes.grandchild) is None


def test_an_edited_inherited_prefix_is_reported(notes: NotesWorld, tmp_path: Path) -> None:
    path = tmp_path / "edited.db"
    shutil.copyfile(notes.path, path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE events SET payload = ? WHERE run_id = ? AND id = 'evt_001'",
            ('{"goal": "Something else"}', notes.grandchild),
        )
    comparison = compare_lineage(path, notes.parent, notes.grandchild)
    assert comparison is not None
    assert comparison.shared_prefix_len == 0 and not comparison.prefix_intact


def test_a_missing_parent_row_stops_the_lineage_without_an_error(
    notes: NotesWorld, tmp_path: Path
) -> None:
    path = tmp_path / "orphan.db"
    shutil.copyfile(notes.path, path)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM runs WHERE run_id = ?", (notes.child,))
    # The grandchild's parent is gone: it shares no known ancestor with the grandparent.
    assert compare_lineage(path, notes.parent, notes.grandchild) is None


@pytest.mark.parametrize("run", ["parent", "child", "grandchild", "sibling"])
def test_reading_lineage_writes_nothing(notes: NotesWorld, tmp_path: Path, run: str) -> None:
    path = tmp_path / "copy.db"
    shutil.copyfile(notes.path, path)
    before = path.read_bytes()
    compare_lineage(path, notes.parent, getattr(notes, run))
    assert path.read_bytes() == before
