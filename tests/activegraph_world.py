"""A family of Active Graph runs written by the real ``activegraph`` package, and what its own
``activegraph diff`` says about any two of them.

``notes_world`` writes one store: a ``parent`` run whose behaviour creates three notes and two
relations; a ``child`` forked after the second relation, which adds a note, patches one, and
adds a relation (the parent, after the fork, adds a note and patches another); a
``grandchild`` forked from the child at its last event, which patches again, removes a relation
and adds a note; and a ``sibling`` forked from the parent earlier (after the first note), which
removes a note (and the relations on it, by cascade) and adds another. So the grandchild
against its grandparent has shared, parent-only, fork-only and divergent objects and relations,
and the sibling against the grandchild shares only an ancestor.

``real_diff`` asks the real package, on a copy (``Runtime.load`` writes to its store): its
``compute_diff`` (the per-id answers) and its ``activegraph diff --json`` command (the counts).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from activegraph import Behavior, FrozenClock, Graph, Runtime
from activegraph.cli.main import cli as activegraph_cli
from activegraph.runtime.diff import compute_diff
from click.testing import CliRunner


def _writer(event: Any, graph: Any, ctx: Any) -> None:
    a = graph.add_object("note", {"text": "alpha"})
    b = graph.add_object("note", {"text": "beta"})
    c = graph.add_object("note", {"text": "gamma"})
    graph.add_relation(a.id, b.id, "cites")
    graph.add_relation(b.id, c.id, "cites")


@dataclass(frozen=True)
class NotesWorld:
    path: Path
    parent: str
    child: str
    grandchild: str
    sibling: str
    child_fork_event: str  # where the child left the parent
    grandchild_fork_event: str  # where the grandchild left the child
    sibling_fork_event: str  # where the sibling left the parent

    def ref(self, run_id: str) -> str:
        return f"{self.path}#{run_id}"


def notes_world(directory: Path) -> NotesWorld:
    path = directory / "notes.db"
    graph = Graph(clock=FrozenClock("2020-01-01T00:00:00Z"))
    parent = Runtime(
        graph,
        behaviors=[Behavior(name="writer", fn=_writer, on=["goal.created"])],
        persist_to=str(path),
    )
    parent.run_goal("Take notes")
    events = graph.events
    child_at = events[6].id  # the second relation.created
    sibling_at = events[2].id  # the first object.created
    graph.add_object("note", {"text": "parent only"})
    graph.patch_object("note#1", {"text": "alpha, by the parent"})

    child = parent.fork(at_event=child_at, label="child")
    child.run_until_idle()
    child_graph = child.graph
    child_graph.add_object("note", {"text": "child note"})
    child_graph.patch_object("note#2", {"text": "beta v2"})
    child_graph.add_relation("note#3", "note#1", "answers")

    grandchild_at = child_graph.events[-1].id
    grandchild = child.fork(at_event=grandchild_at, label="grandchild")
    grand_graph = grandchild.graph
    grand_graph.patch_object("note#2", {"text": "beta v3"})
    grand_graph.remove_relation("rel_002")
    grand_graph.add_object("note", {"text": "grandchild note"})

    sibling = parent.fork(at_event=sibling_at, label="sibling")
    sibling_graph = sibling.graph
    sibling_graph.add_object("note", {"text": "sibling note"})
    sibling_graph.add_relation("note#1", "note#2", "cites")
    sibling_graph.remove_object("note#1")  # and, by cascade, the relation just added

    for runtime in (parent, child, grandchild, sibling):
        runtime.graph.store.close()
    return NotesWorld(
        path,
        graph.run_id,
        child_graph.run_id,
        grand_graph.run_id,
        sibling_graph.run_id,
        child_at,
        grandchild_at,
        sibling_at,
    )


@dataclass(frozen=True)
class RealDiff:
    """``activegraph diff`` of A against B: its JSON counts and its per-id lines."""

    counts: dict[str, Any]
    objects: dict[str, str]  # id -> "only in parent" / "only in fork" / "differs"
    relations: dict[str, str]
    object_lines: list[str]
    relation_lines: list[str]


def _kind(item: Any) -> str:
    if item.in_parent is None:
        return "only in fork"
    if item.in_fork is None:
        return "only in parent"
    return "differs"


def copy_store(source: Path, target: Path) -> None:
    """A consistent copy, committed frames of a ``-wal`` file included (a plain file copy would
    miss what a writer that never closed its store left there)."""
    target.unlink(missing_ok=True)
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()


def real_diff(path: Path, run_a: str, run_b: str, scratch: Path) -> RealDiff:
    """What the real package says, read on a copy of the store."""
    copy = scratch / f"real-{run_a}-{run_b}.db"
    copy_store(path, copy)
    result = CliRunner().invoke(
        activegraph_cli, ["diff", str(copy), "--run-a", run_a, "--run-b", run_b, "--json"]
    )
    assert result.exit_code == 0, result.output
    counts = json.loads(result.output)
    loaded_a = Runtime.load(str(copy), run_id=run_a)
    loaded_b = Runtime.load(str(copy), run_id=run_b)
    try:
        diff = compute_diff(loaded_a.graph, loaded_b.graph, run_a, run_b)
    finally:
        loaded_a.graph.store.close()
        loaded_b.graph.store.close()
    return RealDiff(
        counts,
        {o.id: _kind(o) for o in diff.divergent_objects},
        {r.id: _kind(r) for r in diff.divergent_relations},
        [o.summary() for o in diff.divergent_objects],
        [r.summary() for r in diff.divergent_relations],
    )
