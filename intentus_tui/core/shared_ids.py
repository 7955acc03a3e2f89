"""Rows that must name their file, because their execution id does not tell them apart
or does not find them:

- ids that more than one file holds: copies of one record (``cp a.json b.json`` keeps the
  id inside), or a truncated copy beside the real file. Their rows look alike (same id,
  maybe different verdicts).
- records whose file is not named after their id (renamed, or an id that had to be
  sanitized to be shown): the id the row shows does not find the file; its name does.

Ids are counted per root: with several roots, the root already tells two rows apart.
Counting is a C-level pass over the ids; the per-row work of finding which ids repeat is
only done when the number of distinct ids says some do (so never, in the usual directory
of one file per execution).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from operator import attrgetter

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.records.load import RECORD_SUFFIX

_ROOT = attrgetter("root")
_ID = attrgetter("execution_id")


def id_of(summary: ExecutionSummary) -> Hashable:
    """What is counted: the execution id, with the root's label when several roots are
    open (each summary then carries one)."""
    return (summary.root, summary.execution_id) if summary.root else summary.execution_id


def _ids(summaries: Sequence[ExecutionSummary]) -> Iterable[Hashable]:
    """``id_of`` each summary: with one root (no labels), the ids themselves, untouched."""
    if any(map(_ROOT, summaries)):
        return [id_of(s) for s in summaries]
    return map(_ID, summaries)


def misnamed(summary: ExecutionSummary) -> bool:
    """A record whose file is not named ``<its id>.json``: its id does not find it."""
    if summary.source == "wal":
        return False
    name = summary.key.rpartition("/")[2]  # a merged key is LABEL/FILE
    return name[: -len(RECORD_SUFFIX)] != summary.execution_id or not name.endswith(RECORD_SUFFIX)


class SharedIds:
    """Which execution ids (per root) more than one file holds, and which records are
    misnamed (by key), kept up to date as files come, change and go. ``summary in
    shared`` says whether its row needs its file named."""

    __slots__ = ("_counts", "misnamed", "shared", "version")

    def __init__(self, summaries: Sequence[ExecutionSummary] = ()) -> None:
        self._counts: Counter[Hashable] = Counter()
        self.shared: set[Hashable] = set()
        self.misnamed: set[str] = set()  # keys of misnamed records
        self.version = 0  # bumped each time ``shared`` or ``misnamed`` changes
        if summaries:
            self.update(summaries)

    def __bool__(self) -> bool:
        return bool(self.shared) or bool(self.misnamed)

    def __contains__(self, summary: object) -> bool:
        if not isinstance(summary, ExecutionSummary):
            return False
        if self.misnamed and summary.key in self.misnamed:
            return True
        return bool(self.shared) and id_of(summary) in self.shared

    def clear(self) -> None:
        if self.shared or self.misnamed:
            self.version += 1
        self._counts.clear()
        self.shared.clear()
        self.misnamed.clear()

    def update(
        self, added: Sequence[ExecutionSummary], dropped: Sequence[ExecutionSummary] = ()
    ) -> bool:
        """Count the files ``added`` and forget those ``dropped`` (a replaced file: its old
        summary dropped, its new one added). Whether ``shared`` changed."""
        renamed = self._note_misnamed(added, dropped)
        counts, shared = self._counts, self.shared
        gone: set[Hashable] = set()
        for ident in _ids(dropped) if dropped else ():
            left = counts.pop(ident, 0) - 1
            if left > 0:
                counts[ident] = left
            if left <= 1 and ident in shared:
                shared.discard(ident)
                gone.add(ident)
        came: set[Hashable] = set()
        if added:
            known = len(counts)
            counts.update(_ids(added))
            if len(counts) - known != len(added):  # an id already counted, or twice here
                came = {i for i in set(_ids(added)) if counts[i] > 1 and i not in shared}
                shared.update(came)
        changed = gone != came or renamed  # dropped and counted again at once: no change
        if changed:
            self.version += 1
        return changed

    def _note_misnamed(
        self, added: Sequence[ExecutionSummary], dropped: Sequence[ExecutionSummary]
    ) -> bool:
        """Keep ``misnamed`` up to date; whether it changed (without copying it: a scan
        updates it once a batch)."""
        known = self.misnamed
        gone = {s.key for s in dropped if s.key in known} if known else set()
        known -= gone
        came = {s.key for s in added if misnamed(s)} - known
        known |= came
        return gone != came  # a file dropped and named again at once: no change
