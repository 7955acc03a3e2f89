"""Two event streams aligned event by event: the same event side by side, an inserted or a
missing one facing a gap.

Events are matched on who did what (their type and, for records, the agent of the payload;
for Active Graph runs, the actor), never on their bodies: a body changed in place stays one
pair whose body differs, while an event only one stream has becomes a gap on the other side.
Between two matched events, one of the same type by another agent (the attempt at that step
went elsewhere) pairs up too; events of different types never do.
Matching is Verist's array alignment (``core.verist.align``: common prefix and suffix, then a
shortest edit script), so one inserted event is one gap however long the streams.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from typing import Any, TypeAlias, TypeVar

from intentus_tui.core.verist.align import align
from intentus_tui.core.verist.diff import DiffEntry, DiffResult, diff, paired_index
from intentus_tui.core.verist.missing import MISSING

E = TypeVar("E")
# (index in A or None, index in B or None): never both None.
EventPair: TypeAlias = tuple[int | None, int | None]


def record_event_key(event: Any) -> str:
    """Who did what: an IntentusNet event's type and the agent its payload names."""
    if not isinstance(event, dict):
        return f"?{type(event).__name__}"
    kind = event.get("type")
    payload = event.get("payload")
    agent = payload.get("agent") if isinstance(payload, dict) else None
    return f"{kind}\x00{agent if isinstance(agent, str) else ''}"


def run_event_key(event: Any) -> str:
    """Who did what: an Active Graph event's type and actor (``comparable_events``' form)."""
    if not isinstance(event, dict):
        return f"?{type(event).__name__}"
    return f"{event.get('type')}\x00{event.get('actor') or ''}"


def aligned_events_diff(
    events_a: Sequence[Any],
    events_b: Sequence[Any],
    key_of: Callable[[Any], str],
    body_of: Callable[[Any], Any] = lambda event: event,
) -> DiffResult:
    """Two event streams diffed event by event (``align_events``): a pair's bodies
    (``body_of``) path by path, paths ``[j, ...]`` (B's position, a ``PairedIndex`` that
    also knows A's where they differ); an event only one side has
    is one ``insert`` (``[j]``) or ``delete`` (``[i]``, A's position) entry. The comparison
    screen lays the events out in the same pairs, so each of these entries is one of its
    differences."""
    entries: list[DiffEntry] = []
    for i, j in align_events(events_a, events_b, key_of):
        if i is not None and j is not None:
            body = diff(body_of(events_a[i]), body_of(events_b[j]))
            index = paired_index(i, j)
            entries.extend(DiffEntry((index, *e.path), e.before, e.after) for e in body.entries)
        elif i is not None:
            entries.append(DiffEntry((i,), events_a[i], MISSING, "delete"))
        elif j is not None:
            entries.append(DiffEntry((j,), MISSING, events_b[j], "insert"))
    return DiffResult(not entries, tuple(entries))


def align_events(a: Sequence[E], b: Sequence[E], key_of: Callable[[E], str]) -> list[EventPair]:
    """Every event of both streams once, in order, paired where they are the same event
    (the same key), or, between two such pairs, the same type done by another agent or
    actor (the attempt at that step went elsewhere). Events of different types are never
    paired: each faces a gap."""
    keys_a = [key_of(e) for e in a]
    keys_b = [key_of(e) for e in b]
    pairs: list[EventPair] = []
    i = j = 0
    for op, oi, oj in align(keys_a, keys_b):
        # The matched events before this edit are implicit in align's script.
        stop_i = oi if op != "ins" else None
        stop_j = oj if op != "del" else None
        while (stop_i is None or i < stop_i) and (stop_j is None or j < stop_j):
            pairs.append((i, j))
            i += 1
            j += 1
        if op == "sub":  # align pairs any two keys by position: the types decide below
            pairs.append((i, None))
            pairs.append((None, j))
            i += 1
            j += 1
        elif op == "del":
            pairs.append((i, None))
            i += 1
        else:
            pairs.append((None, j))
            j += 1
    while i < len(a) and j < len(b):
        pairs.append((i, j))
        i += 1
        j += 1
    pairs.extend((k, None) for k in range(i, len(a)))
    pairs.extend((None, k) for k in range(j, len(b)))
    return _pair_same_types(pairs, keys_a, keys_b)


_RUN_LIMIT = 400  # events in a run between two pairs beyond which none is paired by type


def _event_type(key: str) -> str:
    return key.partition("\x00")[0]


def _pair_same_types(
    pairs: list[EventPair], keys_a: list[str], keys_b: list[str]
) -> list[EventPair]:
    """Within each run of unpaired events between two pairs, pair those of the same type
    (in order: the longest common sequence of types)."""
    out: list[EventPair] = []
    run: list[EventPair] = []
    for pair in [*pairs, (-1, -1)]:  # a sentinel pair ends the last run
        if pair[0] is None or pair[1] is None:
            run.append(pair)
            continue
        if run:
            out.extend(_paired_run(run, keys_a, keys_b))
            run = []
        if pair != (-1, -1):
            out.append(pair)
    return out


def _paired_run(run: list[EventPair], keys_a: list[str], keys_b: list[str]) -> list[EventPair]:
    only_a = [i for i, _ in run if i is not None]
    only_b = [j for _, j in run if j is not None]
    if not only_a or not only_b or len(run) > _RUN_LIMIT:
        return run
    types_a = [_event_type(keys_a[i]) for i in only_a]
    types_b = [_event_type(keys_b[j]) for j in only_b]
    out: list[EventPair] = []
    x = y = 0
    blocks = SequenceMatcher(None, types_a, types_b, autojunk=False).get_matching_blocks()
    for block_a, block_b, size in blocks:  # the last block is (len, len, 0)
        out.extend((i, None) for i in only_a[x:block_a])
        out.extend((None, j) for j in only_b[y:block_b])
        out.extend(
            zip(only_a[block_a : block_a + size], only_b[block_b : block_b + size], strict=True)
        )
        x, y = block_a + size, block_b + size
    return out
