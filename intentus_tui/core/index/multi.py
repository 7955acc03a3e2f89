"""The index of several roots: one ``DirectoryIndex`` per root, their summaries merged
into one list. Each summary carries its root's label (``root``) and a key unique across
the roots (``LABEL/FILE``); a path that changed is routed to the root it lies in.

Only used with more than one root: one root is indexed by its ``DirectoryIndex`` alone,
its summaries untouched.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from intentus_tui.core.index.directory import EVERY_SUMMARY_OUT, DirectoryIndex, Listed
from intentus_tui.core.index.scan import RowFormat
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.roots import root_holding

KEY_SEPARATOR = "/"  # never in a file name, so LABEL/FILE is unambiguous


def tagged(label: str, summary: ExecutionSummary) -> ExecutionSummary:
    return dataclasses.replace(summary, key=f"{label}{KEY_SEPARATOR}{summary.key}", root=label)


def split_key(key: str) -> tuple[str, str]:
    """(root label, file key) of a merged key; ("", key) for a single root's key."""
    label, sep, name = key.rpartition(KEY_SEPARATOR)
    return (label, name) if sep else ("", key)


class MultiIndex:
    """Summaries of several roots, merged (the ``DirectoryIndex`` interface the
    debugger's feeder uses)."""

    def __init__(
        self,
        roots: Sequence[tuple[str, RecordRoot]],
        *,
        use_cache: bool = True,
        workers: int | None = None,
        rows: RowFormat | None = None,
        collector_off: bool = True,
    ) -> None:
        """``collector_off``: as ``DirectoryIndex``'s, for every root."""
        if not roots:
            raise ValueError("a merged index needs at least one root")
        self.indexes = {
            label: DirectoryIndex(
                root,
                use_cache=use_cache,
                workers=workers,
                rows=rows,
                collector_off=collector_off,
            )
            for label, root in roots
        }
        self.root = roots[0][1]  # the first root (where a single-root caller looks)
        self._keys: dict[str, set[str]] = {label: set() for label in self.indexes}

    @property
    def per_root(self) -> Counter[str]:
        """Executions per root label, as listed now."""
        return Counter({label: len(keys) for label, keys in self._keys.items()})

    def file_count(self) -> int:
        return sum(index.file_count() for index in self.indexes.values())

    def scan_batches(self, listed: Listed | None = None) -> Iterator[list[ExecutionSummary]]:
        """Each root's batches in turn, tagged; ``EVERY_SUMMARY_OUT`` only from the last
        root (an earlier root's marks only that its own summaries are out). ``listed`` is
        told every root's record files once the first root has listed its own (the
        others are listed then)."""
        last = list(self.indexes)[-1] if self.indexes else None

        def counted(_: int) -> None:
            if listed is not None:
                listed(self.file_count())

        first = listed is not None
        for label, index in self.indexes.items():
            keys = self._keys[label] = set()
            for batch in index.scan_batches(counted if first else None):
                first = False
                if batch is EVERY_SUMMARY_OUT and label == last:
                    yield EVERY_SUMMARY_OUT
                    continue
                keys.update(s.key for s in batch)
                yield [tagged(label, s) for s in batch]

    def scan(self) -> list[ExecutionSummary]:
        for _ in self.scan_batches():
            pass
        return self.summaries()

    def summaries(self) -> list[ExecutionSummary]:
        return [tagged(label, s) for label, i in self.indexes.items() for s in i.summaries()]

    def update(self, paths: Iterable[Path]) -> tuple[list[ExecutionSummary], list[str]]:
        routed: dict[str, list[Path]] = {}
        roots = [(label, index.root) for label, index in self.indexes.items()]
        for path in paths:
            label = root_holding(path, roots)
            if label is not None:
                routed.setdefault(label, []).append(path)
        changed: list[ExecutionSummary] = []
        removed: list[str] = []
        for label, group in routed.items():
            index = self.indexes[label]
            now, gone = index.update(group)
            keys = self._keys[label]
            keys.difference_update(gone)
            keys.update(s.key for s in now)
            changed += [tagged(label, s) for s in now]
            removed += [f"{label}{KEY_SEPARATOR}{key}" for key in gone]
        return changed, removed
