"""How two runs of one Active Graph store are related, and where their logs part.

A fork copies its parent's log up to and including the fork point, so the copied events keep
their positions: a run's first ``k`` events are its parent's first ``k`` events, ``k`` being one
past the fork point's position in the parent. Going up a chain of forks, the events a run still
shares *by lineage* with an ancestor are the shortest of those copies. Two runs are related when
one is an ancestor of the other (its parent, grandparent, ...) or when both descend from a third
run, their nearest common ancestor; then each side left that ancestor at its own fork point, and
the events both inherited from it are the shorter of the two copies.

The comparison (``ForkComparison``) puts that lineage next to what the logs say: the leading
events equal under ``run_divergence`` (type, actor, normalized payload), each side's tail, and
whether the inherited prefix is still equal in both (it is not when someone edited one copy).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal, TypeAlias

from intentus_tui.core.activegraph.store import (
    ActiveGraphError,
    GraphEvent,
    RunDatabase,
    RunInfo,
    _database,
    run_divergence,
)
from intentus_tui.core.compare import Divergence
from intentus_tui.core.compare.notation import fork_event_text

__all__ = [
    "ForkComparison",
    "ForkPoint",
    "RelationKind",
    "RunRelation",
    "compare_fork",
    "compare_lineage",
    "relate_runs",
]

# "parent": one run is the other's parent; "ancestor": an older ancestor (grandparent...);
# "common-ancestor": neither descends from the other, both descend from a third run.
RelationKind: TypeAlias = Literal["same", "parent", "ancestor", "common-ancestor"]


@dataclass(frozen=True, slots=True)
class ForkPoint:
    """One fork: ``fork_run_id`` copied ``parent_run_id``'s log up to ``event_id``.

    ``index`` is that event's position in the parent's log (``None`` if the parent no longer has
    it, or the run row names no event).
    """

    parent_run_id: str
    fork_run_id: str
    event_id: str | None
    index: int | None

    @property
    def copied(self) -> int | None:
        """How many of the parent's events the fork copied."""
        return None if self.index is None else self.index + 1


@dataclass(frozen=True, slots=True)
class RunRelation:
    """How run A and run B are related: their nearest common ancestor and the forks to each.

    ``forks_a`` / ``forks_b`` run from the common ancestor down to A / B (empty on the side that
    *is* the common ancestor). ``inherited_len`` counts the common ancestor's leading events both
    runs copied (``None`` when a fork point cannot be placed).
    """

    kind: RelationKind
    a: RunInfo
    b: RunInfo
    common_ancestor: RunInfo
    forks_a: tuple[ForkPoint, ...]
    forks_b: tuple[ForkPoint, ...]
    inherited_len: int | None

    @property
    def run_ids(self) -> tuple[str, ...]:
        """Every run on the way from A to B through the common ancestor."""
        forks = (*self.forks_a, *self.forks_b)
        return (self.common_ancestor.run_id, *(f.fork_run_id for f in forks))

    @property
    def generations(self) -> int:
        """Forks between the two runs along the family tree (1: parent and fork)."""
        return len(self.forks_a) + len(self.forks_b)

    def describe(self) -> str:
        """One line for a person, each fork point numbered as a run's events are (``(at
        #7)``, ``fork_event_text``). Raw text: sanitize before printing."""
        ancestor = self.common_ancestor.run_id
        if self.kind == "same":
            return "the same run"
        if not self.forks_a or not self.forks_b:
            older, forks = ("A", self.forks_b) if not self.forks_a else ("B", self.forks_a)
            younger = "B" if older == "A" else "A"
            names = {1: "parent", 2: "grandparent"}
            name = names.get(len(forks), f"ancestor ({len(forks)} forks up)")
            return f"{older} is {younger}'s {name}: " + _path_text(ancestor, forks)
        return (
            f"A and B share the ancestor {ancestor}: A "
            + _path_text(ancestor, self.forks_a)
            + "; B "
            + _path_text(ancestor, self.forks_b)
        )


def _path_text(start: str, forks: tuple[ForkPoint, ...]) -> str:
    parts = [start]
    for fork in forks:
        parts.append(f"→ (at {fork_event_text(fork.event_id, fork.index)}) {fork.fork_run_id}")
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class ForkComparison:
    """Two related runs: their lineage, the shared prefix, each side's tail, the first divergence.

    ``parent`` is the older side (the ancestor, when one run descends from the other; run A when
    both descend from a third run) and ``fork`` the other; tails and the divergence are in that
    order. ``fork_point_index`` is the position, in both logs, of the last event both inherited
    by lineage (for a direct fork: its fork point). ``shared_prefix_len`` counts leading events
    equal under the comparison (``type``, ``actor``, normalized ``payload``); it is usually past
    the fork point, since behaviours that did not change re-emit the same events.
    ``prefix_intact`` is False when the inherited prefix itself differs: someone edited a copy.
    """

    parent: RunInfo
    fork: RunInfo
    fork_point_index: int | None
    shared_prefix_len: int
    parent_tail: tuple[GraphEvent, ...]
    fork_tail: tuple[GraphEvent, ...]
    first_divergence: Divergence[GraphEvent] | None
    relation: RunRelation | None = None

    @property
    def prefix_intact(self) -> bool:
        return self.fork_point_index is None or self.shared_prefix_len > self.fork_point_index

    @property
    def equal(self) -> bool:
        return self.first_divergence is None


def _index_of(db: RunDatabase, run_id: str, event_id: str | None) -> int | None:
    if event_id is None:
        return None
    try:
        events = db.run_events(run_id)
    except ActiveGraphError:
        return None
    return next((i for i, e in enumerate(events) if e.id == event_id), None)


def _forks_along(db: RunDatabase, chain: list[RunInfo]) -> tuple[ForkPoint, ...]:
    """The forks of a root-first chain of runs, each placed in its parent's log."""
    return tuple(
        ForkPoint(
            parent.run_id,
            child.run_id,
            child.forked_at_event_id,
            _index_of(db, parent.run_id, child.forked_at_event_id),
        )
        for parent, child in pairwise(chain)
    )


def relate_runs(db: RunDatabase, run_a: str, run_b: str) -> RunRelation | None:
    """How two runs of ``db`` are related, or ``None`` when they share no ancestor."""
    chain_a, chain_b = db.lineage(run_a), db.lineage(run_b)
    depth_in_b = {info.run_id: depth for depth, info in enumerate(chain_b)}
    common = next(
        (depth for depth in range(len(chain_a) - 1, -1, -1) if chain_a[depth].run_id in depth_in_b),
        None,
    )
    if common is None:
        return None
    down_a = chain_a[common:]
    down_b = chain_b[depth_in_b[chain_a[common].run_id] :]
    forks_a, forks_b = _forks_along(db, down_a), _forks_along(db, down_b)
    copies = [fork.copied for fork in (*forks_a, *forks_b)]
    inherited: int | None
    if any(n is None for n in copies):
        inherited = None
    elif copies:
        inherited = min(n for n in copies if n is not None)
    else:  # the same run
        inherited = len(db.run_events(run_a))
    kind: RelationKind
    if not forks_a and not forks_b:
        kind = "same"
    elif forks_a and forks_b:
        kind = "common-ancestor"
    else:
        kind = "parent" if len(forks_a) + len(forks_b) == 1 else "ancestor"
    return RunRelation(kind, chain_a[-1], chain_b[-1], chain_a[common], forks_a, forks_b, inherited)


def _compare(db: RunDatabase, relation: RunRelation) -> ForkComparison:
    # The older side first: the ancestor, or A when both descend from a third run.
    if relation.forks_a and not relation.forks_b:
        parent, fork = relation.b, relation.a
    else:
        parent, fork = relation.a, relation.b
    parent_log = db.run_events(parent.run_id)
    fork_log = db.run_events(fork.run_id)
    inherited = relation.inherited_len
    # Every run id on the way is the same placeholder: a grandchild's copied events carry its
    # parent's run id in their provenance, which says nothing about the two runs compared.
    divergence = run_divergence(parent_log, fork_log, run_ids=relation.run_ids)
    shared = divergence.index if divergence is not None else len(parent_log)
    return ForkComparison(
        parent=parent,
        fork=fork,
        fork_point_index=None if inherited is None else inherited - 1,
        shared_prefix_len=shared,
        parent_tail=tuple(parent_log[shared:]),
        fork_tail=tuple(fork_log[shared:]),
        first_divergence=divergence,
        relation=relation,
    )


def compare_lineage(
    db: RunDatabase | str | os.PathLike[str], run_a: str, run_b: str
) -> ForkComparison | None:
    """Two runs through their nearest common ancestor; ``None`` if unrelated or the same run."""
    with _database(db) as opened:
        relation = relate_runs(opened, run_a, run_b)
        if relation is None or relation.kind == "same":
            return None
        return _compare(opened, relation)


def compare_fork(db: RunDatabase | str | os.PathLike[str], fork_run_id: str) -> ForkComparison:
    """A fork against its parent (``ActiveGraphError`` for a run that is not a fork)."""
    with _database(db) as opened:
        fork = opened.run(fork_run_id)
        if fork.parent_run_id is None:
            raise ActiveGraphError(f"run {fork_run_id!r} is not a fork (it has no parent run)")
        relation = relate_runs(opened, fork.parent_run_id, fork_run_id)
        if relation is None:  # the parent's row is missing: compare with what the fork names
            raise ActiveGraphError(
                f"run {fork_run_id!r} names the parent {fork.parent_run_id!r}, "
                "which is not in the store"
            )
        return _compare(opened, relation)
