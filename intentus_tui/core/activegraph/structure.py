"""What two Active Graph runs built: their objects and relations, and their events as
``activegraph diff`` counts them.

A run's graph is a projection of its log, rebuilt here the way Active Graph 1.x rebuilds it when
it loads a run (``Runtime.load``, ``core/graph.py``'s ``apply_event``): from the run's hot log
(the ``events`` table; a compacted run's hot log starts with a ``runtime.snapshot`` event whose
state, kept in the ``snapshots`` table, is the base), applying

- ``object.created`` (the object as written) and ``object.removed`` (with every relation that
  starts or ends at it), ``relation.created`` and ``relation.removed``;
- ``patch.applied``: ``update`` merges the patch value into the object's data, ``replace``
  replaces it; either adds one to the object's version.

An object or relation is compared as Active Graph's own diff compares it: its ``to_dict`` form
without ``provenance`` (which holds the run id and wall-clock times). Each id is then *shared*
(equal in both), *only in A*, *only in B*, or *differs*; Active Graph's ``divergent_objects``
are the last three together.

The event counts are Active Graph's too: lifecycle events (``behavior.*``,
``relation_behavior.*``, ``runtime.*``) are left out, and the shared prefix is the leading
events equal by id, type and exact payload (nothing normalized: an event re-emitted after the
fork carries the fork's run id and clock, so it is not shared). The lineage view
(``lineage.py``) is the one that sees past those.

Nothing here raises on a malformed log: an event that cannot be applied is skipped and counted
in ``notes``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from intentus_tui.core.activegraph.store import GraphEvent, RunDatabase

__all__ = [
    "LIFECYCLE_PREFIXES",
    "GraphState",
    "ItemChange",
    "ItemStatus",
    "StructuralDiff",
    "compare_structure",
    "graph_state",
    "project_graph",
]

LIFECYCLE_PREFIXES = ("behavior.", "relation_behavior.", "runtime.")
ItemStatus: TypeAlias = Literal["shared", "only_a", "only_b", "differs"]
ItemKind: TypeAlias = Literal["object", "relation"]
ITEM_STATUSES: tuple[ItemStatus, ...] = ("shared", "only_a", "only_b", "differs")


def is_lifecycle(event: GraphEvent) -> bool:
    return event.type.startswith(LIFECYCLE_PREFIXES)


@dataclass(frozen=True, slots=True)
class GraphState:
    """A run's objects and relations by id, each without its provenance."""

    objects: Mapping[str, dict[str, Any]]
    relations: Mapping[str, dict[str, Any]]
    events: tuple[GraphEvent, ...]  # the hot log the state was built from
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ItemChange:
    """One object or relation id in A and B; ``in_a``/``in_b`` are ``None`` where it is absent."""

    kind: ItemKind
    id: str
    status: ItemStatus
    in_a: dict[str, Any] | None
    in_b: dict[str, Any] | None

    def summary(self, a: str = "A", b: str = "B") -> str:
        """One line, as Active Graph's diff prints it with ``a``/``b`` for parent/fork (raw)."""
        if self.status == "shared":
            return f"{self.id} same in both"
        if self.status == "differs":
            if self.kind == "relation":
                return f"{self.id} differs"
            va = (self.in_a or {}).get("version")
            vb = (self.in_b or {}).get("version")
            return f"{self.id} differs ({a} v{va} ↔ {b} v{vb})"
        side, item = (a, self.in_a) if self.status == "only_a" else (b, self.in_b)
        text = f"{self.id} only in {side}"
        if self.kind == "relation" and item is not None:
            text += f" ({item.get('source')} --{item.get('type')}--> {item.get('target')})"
        return text


def _counts(items: Sequence[ItemChange]) -> dict[str, int]:
    """Count by status; every status of ``ITEM_STATUSES`` is a key."""
    counts: dict[str, int] = dict.fromkeys(ITEM_STATUSES, 0)
    for item in items:
        counts[item.status] += 1
    return counts


@dataclass(frozen=True, slots=True)
class StructuralDiff:
    """Run A against run B: Active Graph's event partition and every object and relation."""

    run_a: str
    run_b: str
    shared_events: int
    a_only_events: int
    b_only_events: int
    objects: tuple[ItemChange, ...]
    relations: tuple[ItemChange, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def object_counts(self) -> dict[str, int]:
        return _counts(self.objects)

    @property
    def relation_counts(self) -> dict[str, int]:
        return _counts(self.relations)

    @property
    def divergent_objects(self) -> tuple[ItemChange, ...]:
        return tuple(item for item in self.objects if item.status != "shared")

    @property
    def divergent_relations(self) -> tuple[ItemChange, ...]:
        return tuple(item for item in self.relations if item.status != "shared")

    @property
    def same_graph(self) -> bool:
        return not self.divergent_objects and not self.divergent_relations

    def activegraph_summary(self) -> dict[str, Any]:
        """The counts ``activegraph diff URL --run-a A --run-b B --json`` prints, same keys."""
        return {
            "run_a": self.run_a,
            "run_b": self.run_b,
            "shared_events": self.shared_events,
            "parent_only_events": self.a_only_events,
            "fork_only_events": self.b_only_events,
            "divergent_objects": len(self.divergent_objects),
            "divergent_relations": len(self.divergent_relations),
        }


# --------------------------------------------------------------------------- projection


def _mapping(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object")
    return value


def _object(raw: Any) -> dict[str, Any]:
    o = _mapping(raw, "the object")
    return {
        "id": str(o["id"]),
        "type": o["type"],
        "data": copy.deepcopy(o["data"]),
        "version": o["version"],
    }


def _relation(raw: Any) -> dict[str, Any]:
    r = _mapping(raw, "the relation")
    return {
        "id": str(r["id"]),
        "source": r["source"],
        "target": r["target"],
        "type": r["type"],
        "data": copy.deepcopy(r["data"]),
    }


def _apply(
    event: GraphEvent, objects: dict[str, dict[str, Any]], relations: dict[str, dict[str, Any]]
) -> None:
    payload = event.payload
    kind = event.type
    if kind == "object.created":
        obj = _object(_mapping(payload, "the payload")["object"])
        objects[obj["id"]] = obj
    elif kind == "object.removed":
        removed = str(_mapping(payload, "the payload")["id"])
        objects.pop(removed, None)
        for rid in [r for r, rel in relations.items() if removed in (rel["source"], rel["target"])]:
            del relations[rid]
    elif kind == "relation.created":
        rel = _relation(_mapping(payload, "the payload")["relation"])
        relations[rel["id"]] = rel
    elif kind == "relation.removed":
        relations.pop(str(_mapping(payload, "the payload")["id"]), None)
    elif kind == "patch.applied":
        patch = _mapping(_mapping(payload, "the payload")["patch"], "the patch")
        target = objects.get(str(patch["target"]))
        if target is None:
            return
        if patch["op"] == "update":
            target["data"].update(_mapping(copy.deepcopy(patch["value"]), "the patch value"))
        elif patch["op"] == "replace":
            target["data"] = copy.deepcopy(patch["value"])
        else:
            raise ValueError(f"unknown patch op {patch['op']!r}")
        target["version"] += 1


def _snapshot_base(
    snapshot: Any, objects: dict[str, dict[str, Any]], relations: dict[str, dict[str, Any]]
) -> None:
    state = _mapping(snapshot, "the snapshot")
    for raw in state.get("objects", []):
        o = _mapping(raw, "a snapshot object")
        objects[str(o["id"])] = {
            "id": str(o["id"]),
            "type": o["type"],
            "data": copy.deepcopy(o["data"]),
            "version": o.get("version", 1),
        }
    for raw in state.get("relations", []):
        r = _mapping(raw, "a snapshot relation")
        relations[str(r["id"])] = {
            "id": str(r["id"]),
            "source": r["source"],
            "target": r["target"],
            "type": r["type"],
            "data": copy.deepcopy(r.get("data", {})),
        }


def project_graph(events: Sequence[GraphEvent], snapshot: Any = None) -> GraphState:
    """The objects and relations ``events`` build (on ``snapshot``'s state, if given)."""
    objects: dict[str, dict[str, Any]] = {}
    relations: dict[str, dict[str, Any]] = {}
    notes: list[str] = []
    if snapshot is not None:
        try:
            _snapshot_base(snapshot, objects, relations)
        except (KeyError, TypeError, ValueError, RecursionError) as exc:
            notes.append(f"the snapshot's state cannot be read: {_why(exc)}")
    skipped: list[str] = []
    for event in events:
        try:
            _apply(event, objects, relations)
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            skipped.append(f"{event.id} ({event.type}: {_why(exc)})")
    if skipped:
        shown = ", ".join(skipped[:3]) + (
            f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
        )
        notes.append(f"{len(skipped)} event(s) could not be applied to the graph: {shown}")
    return GraphState(objects, relations, tuple(events), tuple(notes))


def _why(exc: Exception) -> str:
    return f"no {exc.args[0]!r}" if isinstance(exc, KeyError) and exc.args else str(exc)


def graph_state(db: RunDatabase, run_id: str) -> GraphState:
    """A run's graph as Active Graph loads it: the hot log, on its snapshot when compacted."""
    hot = [e for e in db.run_events(run_id) if not e.archived]
    snapshot: Any = None
    notes: list[str] = []
    if hot and hot[0].type == "runtime.snapshot":
        payload = hot[0].payload
        state_hash = payload.get("state_hash") if isinstance(payload, dict) else None
        blob = db.snapshot_blob(str(state_hash)) if state_hash else None
        if blob is None:
            notes.append(
                f"run {run_id}: the compacted run's snapshot {state_hash} is missing; "
                "objects and relations from before it are not shown"
            )
        else:
            try:
                snapshot = json.loads(blob)
            except (json.JSONDecodeError, RecursionError):
                notes.append(f"run {run_id}: the snapshot {state_hash} is not JSON")
    state = project_graph(hot, snapshot)
    prefixed = tuple(f"run {run_id}: {n}" for n in state.notes)
    return GraphState(state.objects, state.relations, state.events, (*notes, *prefixed))


# --------------------------------------------------------------------------- comparison


def _items(
    kind: ItemKind, a: Mapping[str, dict[str, Any]], b: Mapping[str, dict[str, Any]]
) -> tuple[ItemChange, ...]:
    items: list[ItemChange] = []
    for item_id in sorted(set(a) | set(b)):
        in_a, in_b = a.get(item_id), b.get(item_id)
        status: ItemStatus
        if in_a is None:
            status = "only_b"
        elif in_b is None:
            status = "only_a"
        else:
            status = "shared" if _equal(in_a, in_b) else "differs"
        items.append(ItemChange(kind, item_id, status, in_a, in_b))
    return tuple(items)


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except RecursionError:  # nested past Python's limit: cannot be shown equal
        return False


def _event_partition(a: Sequence[GraphEvent], b: Sequence[GraphEvent]) -> tuple[int, int, int]:
    left = [e for e in a if not is_lifecycle(e)]
    right = [e for e in b if not is_lifecycle(e)]
    shared = 0
    for ea, eb in zip(left, right, strict=False):
        if ea.id != eb.id or ea.type != eb.type or not _equal(ea.payload, eb.payload):
            break
        shared += 1
    return shared, len(left) - shared, len(right) - shared


def compare_structure(
    run_a: str, state_a: GraphState, run_b: str, state_b: GraphState
) -> StructuralDiff:
    """Run A against run B as ``activegraph diff --run-a A --run-b B`` compares them."""
    shared, only_a, only_b = _event_partition(state_a.events, state_b.events)
    return StructuralDiff(
        run_a,
        run_b,
        shared,
        only_a,
        only_b,
        _items("object", state_a.objects, state_b.objects),
        _items("relation", state_a.relations, state_b.relations),
        (*state_a.notes, *state_b.notes),
    )
