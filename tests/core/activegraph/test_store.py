"""Active Graph run databases written by the real ``activegraph`` package, read back read-only."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from activegraph import Behavior, FrozenClock, Graph, ReplayDivergenceError, Runtime
from activegraph.store.sqlite import SQLiteEventStore

from intentus_tui.core.activegraph import (
    RUN_ID_PLACEHOLDER,
    ActiveGraphError,
    RunDatabase,
    compare_fork,
    lineage,
    list_runs,
    normalize_payload,
    run_divergence,
    run_events,
    timeline,
)

# --------------------------------------------------------------------------- the world


def _planner(draft_status: str) -> Behavior:
    """Creates two tasks; ``draft_status`` is the knob the forks turn."""

    def planner(event: Any, graph: Any, ctx: Any) -> None:
        graph.add_object("task", {"title": "Research", "status": "open"})
        graph.add_object("task", {"title": "Draft", "status": draft_status})

    return Behavior(name="planner", fn=planner, on=["goal.created"])


def _researcher_fn(event: Any, graph: Any, ctx: Any) -> None:
    obj = event.payload["object"]
    if obj["type"] == "task" and obj["data"]["status"] == "open":
        graph.emit("task.completed", {"task_id": obj["id"]})


def _researcher() -> Behavior:
    return Behavior(name="researcher", fn=_researcher_fn, on=["object.created"])


def _reviewing_researcher() -> Behavior:
    """The changed behaviour: also files a review after each completed task."""

    def researcher(event: Any, graph: Any, ctx: Any) -> None:
        _researcher_fn(event, graph, ctx)
        obj = event.payload["object"]
        if obj["data"]["status"] == "open":
            graph.emit("task.reviewed", {"task_id": obj["id"]})

    return Behavior(name="researcher", fn=researcher, on=["object.created"])


@dataclass(frozen=True)
class World:
    path: Path
    parent: str
    same: str  # fork at the goal, same behaviours
    changed: str  # fork whose researcher also emits task.reviewed: one more event
    payload_only: str  # fork whose planner writes another status: same event types
    grandchild: str  # fork of ``changed``, same behaviours
    goal_event: str


def _close(*runtimes: Runtime) -> None:
    for runtime in runtimes:
        runtime.graph.store.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    path = tmp_path_factory.mktemp("ag") / "runs.db"
    # The parent's clock is frozen in 2020; forks use the wall clock, so every timestamp and
    # every run id differs between parent and fork: the comparison must see past both.
    graph = Graph(clock=FrozenClock("2020-01-01T00:00:00Z"))
    parent = Runtime(graph, behaviors=[_planner("blocked"), _researcher()], persist_to=str(path))
    parent.run_goal("Evaluate the idea")
    goal = graph.events[0].id
    same = parent.fork(at_event=goal, label="same")
    same.run_until_idle()
    changed = parent.fork(
        at_event=goal, label="changed", behaviors=[_planner("blocked"), _reviewing_researcher()]
    )
    changed.run_until_idle()
    payload_only = parent.fork(
        at_event=goal, label="payload-only", behaviors=[_planner("on-hold"), _researcher()]
    )
    payload_only.run_until_idle()
    grandchild = changed.fork(at_event=changed.graph.events[4].id, label="grandchild")
    grandchild.run_until_idle()
    _close(parent, same, changed, payload_only, grandchild)
    return World(
        path,
        graph.run_id,
        same.graph.run_id,
        changed.graph.run_id,
        payload_only.graph.run_id,
        grandchild.graph.run_id,
        goal,
    )


def _copy(world: World, tmp_path: Path) -> Path:
    target = tmp_path / "copy.db"
    shutil.copyfile(world.path, target)
    return target


# --------------------------------------------------------------------------- runs and lineage


def test_list_runs_shows_lineage_labels_and_counts(world: World) -> None:
    runs = {r.run_id: r for r in list_runs(world.path)}
    assert set(runs) == {
        world.parent,
        world.same,
        world.changed,
        world.payload_only,
        world.grandchild,
    }
    parent = runs[world.parent]
    assert not parent.is_fork and parent.goal == "Evaluate the idea"
    assert parent.event_count == 11
    changed = runs[world.changed]
    assert changed.parent_run_id == world.parent
    assert changed.forked_at_event_id == world.goal_event
    assert changed.label == "changed"
    assert changed.event_count == 12  # one more event: task.reviewed
    assert runs[world.grandchild].parent_run_id == world.changed


def test_lineage_runs_from_root_to_the_run(world: World) -> None:
    chain = lineage(world.path, world.grandchild)
    assert [r.run_id for r in chain] == [world.parent, world.changed, world.grandchild]


def test_run_events_is_the_full_log_with_ids_actors_and_causes(world: World) -> None:
    events = run_events(world.path, world.parent)
    assert [e.id for e in events] == [f"evt_{i:03d}" for i in range(1, 12)]
    assert events[0].type == "goal.created" and events[0].actor == "user"
    assert events[0].payload == {"goal": "Evaluate the idea"}
    assert events[2].type == "object.created" and events[2].actor == "planner"
    assert events[2].caused_by == "evt_001"
    assert events[-1].type == "runtime.idle"
    assert [e.seq for e in events] == sorted(e.seq for e in events)


def test_a_fork_holds_copies_of_its_prefix(world: World) -> None:
    fork = run_events(world.path, world.changed)
    parent = run_events(world.path, world.parent)
    assert fork[0].id == parent[0].id == world.goal_event
    assert fork[0].run_id == world.changed  # a copy, not a reference
    assert fork[0].seq != parent[0].seq


def test_timeline_rows_are_display_ready(world: World) -> None:
    rows = timeline(run_events(world.path, world.parent), run_id=world.parent, limit=40)
    assert rows[0].id == "evt_001" and rows[0].caused_by == "-" and rows[0].actor == "user"
    assert rows[2].caused_by == "evt_001"
    assert all(len(row.payload) <= 40 for row in rows)
    assert rows[2].payload.endswith("…")
    assert not any(row.inherited for row in rows)


# --------------------------------------------------------------------------- fork comparison


def test_a_fork_with_the_same_behaviours_does_not_diverge(world: World) -> None:
    comparison = compare_fork(world.path, world.same)
    assert comparison.first_divergence is None and comparison.equal
    assert comparison.shared_prefix_len == 11
    assert comparison.parent_tail == () and comparison.fork_tail == ()
    assert comparison.fork_point_index == 0 and comparison.prefix_intact


def test_a_fork_with_a_changed_behaviour_diverges_by_type(world: World) -> None:
    comparison = compare_fork(world.path, world.changed)
    divergence = comparison.first_divergence
    assert divergence is not None and divergence.kind == "type"
    assert comparison.shared_prefix_len == divergence.index == 7
    assert (divergence.type_a, divergence.type_b) == ("behavior.completed", "task.reviewed")
    assert divergence.event_b is not None and divergence.event_b.actor == "researcher"
    assert [e.type for e in comparison.fork_tail][:2] == ["task.reviewed", "behavior.completed"]
    assert len(comparison.parent_tail) == 4 and len(comparison.fork_tail) == 5


def test_a_payload_only_fork_diverges_by_payload_where_strict_replay_sees_nothing(
    world: World, tmp_path: Path
) -> None:
    comparison = compare_fork(world.path, world.payload_only)
    divergence = comparison.first_divergence
    assert divergence is not None and divergence.kind == "payload"
    assert divergence.index == 3 and comparison.shared_prefix_len == 3
    assert divergence.event_a is not None and divergence.event_a.id == "evt_004"
    assert divergence.payload_diff is not None
    [entry] = divergence.payload_diff.entries
    assert entry.path == ("payload", "object", "data", "status")
    assert (entry.before, entry.after) == ("blocked", "on-hold")
    assert len(comparison.parent_tail) == len(comparison.fork_tail) == 8
    # Active Graph's own strict replay, given the parent's behaviours, accepts the fork:
    # it compares event types only. (On a copy: Runtime.load writes to its store.)
    copy = _copy(world, tmp_path)
    loaded = Runtime.load(
        str(copy),
        run_id=world.payload_only,
        behaviors=[_planner("blocked"), _researcher()],
        replay_strict=True,
    )
    loaded.graph.store.close()


def test_strict_replay_does_catch_the_changed_behaviour(world: World, tmp_path: Path) -> None:
    copy = _copy(world, tmp_path)
    with pytest.raises(ReplayDivergenceError):
        Runtime.load(
            str(copy),
            run_id=world.changed,
            behaviors=[_planner("blocked"), _researcher()],
            replay_strict=True,
        )


def test_a_fork_of_a_fork_compares_with_its_own_parent(world: World) -> None:
    comparison = compare_fork(world.path, world.grandchild)
    assert comparison.parent.run_id == world.changed
    assert comparison.fork_point_index == 4
    assert comparison.equal and comparison.shared_prefix_len == 12


def test_compare_fork_refuses_a_run_that_is_not_a_fork(world: World) -> None:
    with pytest.raises(ActiveGraphError, match="not a fork"):
        compare_fork(world.path, world.parent)


def test_an_edited_copied_prefix_is_reported(world: World, tmp_path: Path) -> None:
    copy = _copy(world, tmp_path)
    with sqlite3.connect(copy) as conn:
        conn.execute(
            "UPDATE events SET payload = ? WHERE run_id = ? AND id = ?",
            ('{"goal": "Something else"}', world.same, world.goal_event),
        )
    comparison = compare_fork(copy, world.same)
    assert comparison.first_divergence is not None
    assert comparison.first_divergence.index == 0
    assert not comparison.prefix_intact


# --------------------------------------------------------------------------- storage shapes


def test_a_fork_that_references_its_prefix_is_reconstructed(world: World, tmp_path: Path) -> None:
    copy = _copy(world, tmp_path)
    with sqlite3.connect(copy) as conn:  # as if the store shared rows instead of copying them
        conn.execute(
            "DELETE FROM events WHERE run_id = ? AND id = ?", (world.changed, world.goal_event)
        )
    events = run_events(copy, world.changed)
    assert len(events) == 12
    assert events[0].id == world.goal_event and events[0].run_id == world.parent
    rows = timeline(events, run_id=world.changed)
    assert rows[0].inherited and not rows[1].inherited
    assert compare_fork(copy, world.payload_only).first_divergence is not None


def test_archived_events_are_part_of_the_log(world: World, tmp_path: Path) -> None:
    copy = _copy(world, tmp_path)
    full = run_events(copy, world.parent)
    store = SQLiteEventStore(str(copy), run_id=world.parent)
    moved = store.archive_prefix(full[5].seq, archived_at="2020-01-02T00:00:00Z")
    store.close()
    assert moved == 5
    events = run_events(copy, world.parent)
    assert [e.id for e in events] == [e.id for e in full]
    assert [e.archived for e in events] == [True] * 5 + [False] * 6


def test_a_corrupt_payload_is_kept_as_text(world: World, tmp_path: Path) -> None:
    copy = _copy(world, tmp_path)
    with sqlite3.connect(copy) as conn:
        conn.execute(
            "UPDATE events SET payload = '{broken' WHERE run_id = ? AND id = 'evt_002'",
            (world.parent,),
        )
    events = run_events(copy, world.parent)
    assert events[1].payload == "{broken"
    assert events[1].payload_error is not None and "not JSON" in events[1].payload_error


# --------------------------------------------------------------------------- normalization


def test_normalization_drops_wall_clock_and_run_ids_but_keeps_logical_ids() -> None:
    payload = {
        "object": {
            "id": "task#1",
            "provenance": {"run_id": "RUN1", "timestamp": "2020", "caused_by_event": "evt_001"},
        },
        "latency_seconds": 1.5,
    }
    assert normalize_payload(payload, frozenset({"RUN1"})) == {
        "object": {
            "id": "task#1",
            "provenance": {"run_id": RUN_ID_PLACEHOLDER, "caused_by_event": "evt_001"},
        },
    }


def test_normalization_drops_the_session_budget_of_runtime_markers_only() -> None:
    marker = {"snapshot": {"used": {"max_events": 3}}, "exhausted_by": "max_events"}
    assert normalize_payload(marker, event_type="runtime.budget_exhausted") == {
        "exhausted_by": "max_events"
    }
    assert normalize_payload(marker, event_type="report.filed") == marker


def test_run_divergence_reports_length(world: World) -> None:
    events = run_events(world.path, world.parent)
    divergence = run_divergence(events, events[:-2], run_ids=(world.parent,))
    assert divergence is not None and divergence.kind == "length"
    assert divergence.index == 9 and divergence.event_b is None
    assert divergence.type_a == "behavior.completed"
    assert run_divergence(events, events) is None


# --------------------------------------------------------------------------- read-only, errors


def _sidecars(path: Path) -> list[Path]:
    return [p for p in path.parent.iterdir() if p.name.startswith(path.name + "-")]


def test_reading_writes_nothing(world: World, tmp_path: Path) -> None:
    copy = _copy(world, tmp_path)
    before = (copy.read_bytes(), copy.stat().st_mtime_ns)
    with RunDatabase(copy) as db:
        for run in db.list_runs():
            db.run_events(run.run_id)
        db.compare_fork(world.changed)
    assert (copy.read_bytes(), copy.stat().st_mtime_ns) == before
    assert _sidecars(copy) == []


def test_a_live_writers_committed_events_are_read(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    graph = Graph(clock=FrozenClock())
    runtime = Runtime(graph, behaviors=[_planner("open")], persist_to=str(path))
    runtime.run_goal("live")
    try:
        assert path.with_name("live.db-wal").exists()  # the writer still holds the file
        [run] = list_runs(path)
        assert run.run_id == graph.run_id
        assert len(run_events(path, run.run_id)) == len(graph.events)
    finally:
        runtime.graph.store.close()


def test_the_connection_cannot_write(world: World) -> None:
    with RunDatabase(world.path) as db, pytest.raises(sqlite3.OperationalError):
        db._conn.execute("DELETE FROM events")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"", "empty"),
        (b"hello, not a database", "not a SQLite database"),
    ],
)
def test_unreadable_files_get_a_clear_error(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "runs.db"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ActiveGraphError, match=message):
        list_runs(path)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ActiveGraphError, match="not a file"):
        list_runs(tmp_path)


def test_a_sqlite_file_that_is_not_a_run_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(ActiveGraphError, match="not an Active Graph run store"):
        list_runs(path)


def test_a_truncated_database_gets_a_clear_error(world: World, tmp_path: Path) -> None:
    path = tmp_path / "cut.db"
    path.write_bytes(world.path.read_bytes()[:200])
    with pytest.raises(ActiveGraphError):
        list_runs(path)


def test_an_unknown_run_names_the_runs_there_are(world: World) -> None:
    with pytest.raises(ActiveGraphError, match=f"no run 'nope'.*{world.parent}"):
        run_events(world.path, "nope")
