"""The index of one opened location: one summary per file, records joined with WALs.

The index holds summaries, never records. ``DirectoryIndex`` reads everything once (in
parallel, through the persistent cache) and then updates only the files it is told
changed, so a live change costs work proportional to that file. Both go through the one
summary lane (``core.index.summarize.summarize_file``).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from intentus_tui.core.bundle.seal import bundle_changes, sealed
from intentus_tui.core.index.cache import (
    NO_STAMP,
    STAMP_WIDTH,
    IndexCache,
    Snapshot,
    new_stamps,
    stamp_bytes,
)
from intentus_tui.core.index.scan import (
    RowBlock,
    RowFormat,
    RowPlaces,
    Survey,
    filling_parts,
    keep_unchanged,
    listdir,
    listing_blocks,
    record_names,
    stat_names,
    stat_names_while,
    stored_summaries,
    summarize_many,
)
from intentus_tui.core.index.wal_join import wal_only_summary, with_wal
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.paths import RecordRoot, id_of_key
from intentus_tui.core.records.load import WAL_SUFFIX, is_record_name
from intentus_tui.core.wal.files import unlisted_wal_dir, wal_paths

if TYPE_CHECKING:  # the WAL reader is imported when a WAL directory is there to read
    from intentus_tui.core.wal.read import WalLog


# The batch ``scan_batches`` yields once every summary is out and only the cache's
# snapshot is left to write (compare with ``is``): the list is complete, and a reader need
# not wait for the write to say so. Empty, and never to be changed.
EVERY_SUMMARY_OUT: list[ExecutionSummary] = []

# Told how many record files a scan found, as soon as it has listed them.
Listed = Callable[[int], None]


class DirectoryIndex:
    """Summaries of one opened location: record files joined with write-ahead logs.

    ``scan``/``scan_batches`` read everything once (in parallel, through the cache);
    ``update`` re-reads only the paths it is given.

    The copy of an evidence bundle says which of its records are not what the bundle's
    manifest sealed (``core.bundle.seal``): their summaries say so, wherever they leave
    the index (the scan's batches, ``summaries``, ``update``, the listing's rows).

    ``rows``: how a listing shows a summary (``intentus_tui.render.rows.LISTING_ROWS``).
    With it, the workers make each row beside its summary and the cache keeps them, so a
    warm listing is a copy of a file; without it, the index makes no listing and stores
    its snapshots without rows (an index with rows adds them on its next open).
    """

    def __init__(
        self,
        root: RecordRoot,
        *,
        use_cache: bool = True,
        workers: int | None = None,
        keep_rows: bool = False,
        rows: RowFormat | None = None,
        collector_off: bool = True,
    ) -> None:
        """``keep_rows``: keep the rows the workers made for ``listing_lines`` (a command
        line listing); otherwise they are dropped after the scan (they cost about as
        much memory as the summaries). ``collector_off``: the cyclic garbage collector is
        off while a scan runs (``scan_batches``); a program that goes on running while
        the scan does (the debugger) says False and keeps its collector as it decides."""
        self.root = root
        self._use_cache = use_cache
        self._workers = workers
        self._rows = rows
        self._records: dict[str, ExecutionSummary] = {}  # file name -> summary, un-joined
        self._wals: dict[str, WalLog] = {}  # execution id -> log
        # Record files seen, then removed by a live update: their logs, left alone, say so.
        self._removed: set[str] = set()
        self._survey_ahead: Survey | None = None
        self._files_listed: int | None = None  # record files the last scan found
        self._keep_rows = keep_rows
        self._collector_off = collector_off
        self._lines: dict[str, bytes] = {}  # file name -> listing row made by a worker
        # file name -> why the record is not what its bundle sealed (none: no bundle's copy)
        self._changes = bundle_changes(root.records_dir)

    # -- reading everything

    def fresh_listing_json(self) -> tuple[dict[str, int], Path] | None:
        """The counts and the file of listing rows in the cache, when no record file
        changed since they were written and there are no WALs to join."""
        if not self._use_cache or self._rows is None or self._joins_anything():
            return None
        cache = IndexCache()
        try:
            survey = self._survey(cache, self.root.records_dir.resolve())
        finally:
            cache.close()
        self._survey_ahead = survey  # a scan that follows need not list and stat again
        snapshot = survey.snapshot
        if survey.fresh and snapshot is not None and has_rows(snapshot):
            return snapshot.counts, snapshot.rows_path
        return None

    def listing_json(self) -> tuple[dict[str, int], list[RowBlock]] | None:
        """The counts and blocks of listing rows made by the workers alone, when nothing
        needs the summaries themselves: no cache to fill and no WAL to join (None
        otherwise). The parent only joins what the workers send, in order."""
        if self._use_cache or self._rows is None or self._joins_anything():
            return None
        prefix = os.path.join(self.root.records_dir, "")
        # The rows are put in order by their keys (which end with the file name): the
        # names need no order of their own.
        names = record_names(listdir(self.root.records_dir), in_order=False)
        return listing_blocks(prefix, names, self._workers, self._rows)

    def filled_listing_json(
        self, meanwhile: Callable[[Path, RowPlaces], None] | None = None
    ) -> tuple[dict[str, int], Path, RowPlaces] | None:
        """A first open with the cache on (no snapshot yet) and no WALs to join: the
        workers' rows and summaries go straight into the cache's files, and the listing is
        printed from there. No summary is held here: at 1,000,000 records, holding them
        for the cache took 2.3 GB. None where this does not apply, or the cache refused.

        ``meanwhile(rows file, places)`` runs once the rows are written, while the snapshot
        is committed beside it (``IndexCache.store_parts``): the listing's ordered copy of
        the rows (~150 ms at 100,000) and the commit (~100 ms) on two cores."""
        if not self._use_cache or self._rows is None or self._joins_anything():
            return None
        resolved = self.root.records_dir.resolve()
        cache = IndexCache()
        try:
            survey, self._survey_ahead = self._survey_ahead, None
            if survey is None:
                survey = self._survey(cache, resolved)
            if survey.snapshot is not None:  # an update: the scan reads only what changed
                self._survey_ahead = survey
                return None
            prefix = os.path.join(self.root.records_dir, "")
            counts = dict(self._rows.counts(()))  # every key, zero or not (an empty directory)
            stamps = new_stamps()
            places = RowPlaces()
            rows_path = cache.store_parts(
                resolved,
                listing=survey.listing,
                names=survey.names,
                parts=filling_parts(
                    prefix, survey.names, self._workers, self._rows, counts, stamps, places
                ),
                totals=lambda: (dict(sorted(counts.items())), stamps),
                meanwhile=None if meanwhile is None else lambda path: meanwhile(path, places),
            )
        finally:
            cache.close()
        if rows_path is None:
            return None
        return dict(sorted(counts.items())), rows_path, places

    def _joins_anything(self) -> bool:
        """Whether a record's summary is more than its file says: WALs to join, or records
        a bundle's manifest says changed (the workers' rows know neither)."""
        return self.root.wal_dir is not None or bool(self._changes)

    def _survey(
        self, cache: IndexCache | None, resolved: Path, listed: Listed | None = None
    ) -> Survey:
        """List the directory and stat every record file; compare with the snapshot.
        ``listed`` is told how many record files there are before this process stats any
        (a forked helper may have begun)."""
        directory = self.root.records_dir
        snapshot = cache.load(resolved) if cache else None
        if snapshot is None:
            listing = listdir(directory)
            names = record_names(listing)
            self._tell_listed(names, listed)
            # Stamps only serve to compare with a snapshot: with none, every file is read
            # and its stamp taken by fstat as it is (100,000 stats saved on a first open).
            return Survey(listing, names, new_stamps(), None)
        # A re-open, where the directory most often holds the snapshot's files still: they
        # are stat-ed from the start, a forked helper taking the larger share, while this
        # process lists the directory and compares (at 100,000 files the listing took 50 ms
        # of a 0.3 s warm listing, before the first stat).
        listings: list[list[str]] = []

        def same_listing() -> bool:
            listing = listdir(directory)
            listings.append(listing)
            same = snapshot.has_listing(listing)
            if same:  # same entries: no need to filter and sort them again
                self._tell_listed(snapshot.names, listed)
            return same

        stamps = stat_names_while(
            directory, snapshot.names, self._workers, same_listing, helper_share=0.6
        )
        if stamps is not None:
            return Survey(listings[0], snapshot.names, stamps, snapshot)
        names = record_names(listings[0])
        self._tell_listed(names, listed)
        return Survey(listings[0], names, stat_names(directory, names, self._workers), snapshot)

    def _tell_listed(self, names: list[str], listed: Listed | None) -> None:
        if listed is not None:
            self._files_listed = len(names)
            listed(len(names))

    def scan_batches(self, listed: Listed | None = None) -> Iterator[list[ExecutionSummary]]:
        """Fill the index, yielding batches as they are ready.

        Batches are upserts by ``key``: the last batch re-sends records joined with their
        WALs, and adds WAL-only executions. ``EVERY_SUMMARY_OUT`` comes before the cache
        is written: every summary has been yielded. ``listed`` is told how many record
        files the scan found once it has listed them, before it reads (or stats) any.
        """
        batches = self._scan_batches(listed)
        try:
            for batch in batches:
                # What the files say is kept (and cached); the bundle's word is added here.
                yield sealed(batch, self._changes)
        finally:
            batches.close()

    def _scan_batches(self, listed: Listed | None) -> Generator[list[ExecutionSummary], None, None]:
        resolved = self.root.records_dir.resolve()
        self._records = {}
        cache = IndexCache() if self._use_cache else None
        # 100,000 summaries are 100,000 tracked objects: each full collection would walk
        # them all again, for nothing (summaries hold no cycles). The switch is the whole
        # process's, and this generator's end (once every summary is out) is not when a
        # program that runs on meanwhile wants it back: such a program (the debugger)
        # asks for none and decides itself (``collector_off``).
        gc_was_enabled = gc.isenabled() and self._collector_off
        if self._collector_off:
            gc.disable()
        try:
            survey, self._survey_ahead = self._survey_ahead, None
            if survey is None:
                survey = self._survey(cache, resolved, listed)
            elif listed is not None:
                listed(len(survey.names))
            self._files_listed = len(survey.names)
            self._wals = {}
            logs = wal_paths(self.root.wal_dir)
            hidden = unlisted_wal_dir(self.root.wal_dir)
            records = self._read_records(survey, cache, resolved)
            joining = logs or hidden is not None
            stamps = yield from self._with_their_logs(records, logs, hidden) if joining else records
            yield from self._known_from_a_log_alone(logs)
            if cache is not None and stamps is not None:
                yield EVERY_SUMMARY_OUT  # a consumer holding some back can show them now
                self._store(cache, resolved, survey.listing, stamps)
        finally:
            if cache is not None:
                cache.close()
            if gc_was_enabled:
                gc.enable()
            if not self._keep_rows:
                self._lines = {}

    def _known_from_a_log_alone(self, logs: dict[str, Path]) -> Iterator[list[ExecutionSummary]]:
        """The executions whose log no record file named (read now), in one batch."""
        unread = [path for execution_id, path in logs.items() if execution_id not in self._wals]
        if not unread:
            return
        from intentus_tui.core.wal.read import read_wal

        alone = [read_wal(path) for path in unread]
        self._wals.update((log.execution_id, log) for log in alone)
        joined = [self._view(log.execution_id) for log in alone]
        yield [s for s in joined if s is not None]

    def _with_their_logs(
        self,
        batches: Generator[list[ExecutionSummary], None, dict[str, bytes] | None],
        logs: dict[str, Path],
        hidden: Path | None = None,
    ) -> Generator[list[ExecutionSummary], None, dict[str, bytes] | None]:
        """``batches`` of record summaries, each joined with its execution's log before it
        is yielded: a row never shows a verdict its log contradicts (a record whose log's
        hash chain breaks was shown succeeded and verified until every log was read).
        ``hidden``: the log directory, when it cannot be listed: each record's log is
        looked for by its name, and one that cannot be read says its chain is unchecked."""
        from intentus_tui.core.wal.read import read_wal

        while True:
            try:
                batch = next(batches)
            except StopIteration as stop:
                return stop.value
            joined = []
            for summary in batch:
                execution_id = id_of_key(summary.key)
                path = logs.get(execution_id)
                if path is None and hidden is not None:
                    path = hidden / f"{execution_id}{WAL_SUFFIX}"
                if path is None:
                    joined.append(summary)
                    continue
                log = self._wals.get(execution_id)
                if log is None:
                    log = read_wal(path)
                    if log.file_status == "missing":  # none there (the directory lets us see)
                        joined.append(summary)
                        continue
                    self._wals[execution_id] = log
                joined.append(with_wal(summary, log))
            yield joined

    def _read_records(
        self, survey: Survey, cache: IndexCache | None, resolved: Path
    ) -> Generator[list[ExecutionSummary], None, dict[str, bytes] | None]:
        """Summaries from the snapshot where a file's stamp is unchanged, read otherwise;
        returns each file's stamp if anything changed (a new snapshot is to be stored)."""
        if survey.fresh and survey.snapshot is not None:
            # Nothing changed: no file to compare one by one, nothing to store (unless
            # the snapshot was stored without listing rows, and this index makes them).
            done = yield from self._fresh_chunks(survey.snapshot)
            if done == len(survey.names):
                if cache is not None and self._rows is not None and not has_rows(survey.snapshot):
                    self._store(cache, resolved, survey.listing, survey_stamps(survey))
                return None
            self._records = {}  # a damaged summaries file: read everything instead
        old, old_summaries = survey.snapshot, stored_summaries(survey.snapshot)
        prefix = os.path.join(self.root.records_dir, "")
        stamps: dict[str, bytes] = {}  # each file's stamp_bytes
        fresh: list[ExecutionSummary] = []
        if old is None or old_summaries is None:
            old = None  # no snapshot, or its summaries are damaged: read every file
            todo = survey.names
        else:
            todo = keep_unchanged(survey, old, old_summaries, fresh, stamps)
        if fresh:
            self._records.update((s.key, s) for s in fresh)
            yield fresh
        for batch in summarize_many(
            prefix, todo, self._workers, self._rows, tidy_home=self._collector_off
        ):
            for read_stamp, summary, line in batch:  # as fstat saw the file when it was read
                stamps[summary.key] = stamp_bytes(read_stamp)
                if line is not None:
                    self._lines[summary.key] = line
            summaries = [s for _, s, _ in batch]
            self._records.update((s.key, s) for s in summaries)
            yield summaries
        changed = bool(todo) or old is None or old.names != survey.names
        return stamps if changed else None

    def _fresh_chunks(self, snapshot: Snapshot) -> Generator[list[ExecutionSummary], None, int]:
        """Every summary of an unchanged snapshot, a stored chunk at a time; returns how
        many came (fewer than the names if the file turns out damaged)."""
        count = 0
        try:
            for summaries in snapshot.summary_chunks():
                count += len(summaries)
                self._records.update((s.key, s) for s in summaries)
                yield summaries
        except (OSError, ValueError, TypeError, IndexError, KeyError):
            return -1
        return count

    def _store(
        self, cache: IndexCache, resolved: Path, listing: list[str], stamps: dict[str, bytes]
    ) -> None:
        rows = self._rows
        names = sorted(self._records)
        summaries = [self._records[n] for n in names]
        packed = new_stamps()
        missing = stamp_bytes(NO_STAMP)
        packed.frombytes(b"".join([stamps.get(name, missing) for name in names]))
        cache.store(
            resolved,
            listing=listing,
            names=names,
            stamps=packed,
            # Without a row format: no rows, and counts that say so (see ``has_rows``).
            counts=rows.counts(summaries) if rows is not None else {},
            rows=(self._lines.get(s.key) or rows.row(s) for s in summaries) if rows else (),
            summaries=summaries,  # orjson writes each as its {field: value} object
        )

    def listing_lines(self) -> Iterator[bytes]:
        """The current view as listing rows, reusing the rows the workers made where the
        summary is still theirs."""
        rows = self._rows
        if rows is None:
            raise ValueError("this index was made without a row format")
        for summary in self.summaries():
            line = None
            if summary.source == "record" and summary.bundle_change is None:
                line = self._lines.get(summary.key)
            yield line or rows.row(summary)

    def file_count(self) -> int:
        """How many record files the scan found (listing the directory if none ran)."""
        if self._files_listed is not None:
            return self._files_listed
        return len(record_names(listdir(self.root.records_dir)))

    def scan(self) -> list[ExecutionSummary]:
        for _ in self.scan_batches():
            pass
        return self.summaries()

    def summaries(self) -> list[ExecutionSummary]:
        """The current view, sorted by key."""
        if not self._wals:  # nothing to join
            return sealed([self._records[k] for k in sorted(self._records)], self._changes)
        view = {
            key: self._view(id_of_key(key)) or summary for key, summary in self._records.items()
        }
        for execution_id in self._wals:
            joined = self._view(execution_id)
            if joined is not None:
                view[joined.key] = joined
        return sealed([view[k] for k in sorted(view)], self._changes)

    def _view(self, execution_id: str) -> ExecutionSummary | None:
        record = self._records.get(f"{execution_id}.json")
        log = self._wals.get(execution_id)
        if log is None:
            return record
        if record is not None:
            return with_wal(record, log)
        return wal_only_summary(log, record_removed=f"{execution_id}.json" in self._removed)

    # -- live updates

    def update(self, paths: Iterable[Path]) -> tuple[list[ExecutionSummary], list[str]]:
        """Re-read only ``paths``; return (changed or new summaries, removed keys)."""
        before: dict[str, ExecutionSummary | None] = {}
        for path in paths:
            execution_id = self._apply(path)
            if execution_id is not None and execution_id not in before:
                before[execution_id] = None
        changed: list[ExecutionSummary] = []
        removed: list[str] = []
        for execution_id in before:
            view = self._view(execution_id)
            for key in (f"{execution_id}.json", f"{execution_id}{WAL_SUFFIX}"):
                if view is None or view.key != key:
                    removed.append(key)
            if view is not None:
                changed.append(view)
        return sealed(changed, self._changes), removed

    def _apply(self, path: Path) -> str | None:
        """Re-read one changed path into the index; return the execution id it concerns
        (None, and nothing changed, when it cannot be told whether the file is there: its
        directory cannot be searched, so its last summary stays)."""
        if path.parent == self.root.records_dir and is_record_name(path.name):
            there = _there(path)
            if there is None:
                return None
            self._lines.pop(path.name, None)
            if there:
                from intentus_tui.core.index.summarize import summarize_path  # see scan.summarizer

                self._records[path.name] = summarize_path(path)
                self._removed.discard(path.name)
            elif self._records.pop(path.name, None) is not None:
                self._removed.add(path.name)
            return id_of_key(path.name)
        wal_dir = self.root.wal_dir
        if wal_dir is not None and path.parent == wal_dir and path.name.endswith(WAL_SUFFIX):
            execution_id = path.name[: -len(WAL_SUFFIX)]
            there = _there(path)
            if there is None:
                return None
            if there:
                from intentus_tui.core.wal.read import read_wal

                self._wals[execution_id] = read_wal(path)
            else:
                self._wals.pop(execution_id, None)
            return execution_id
        return None


def _there(path: Path) -> bool | None:
    """Is ``path`` there? None when that cannot be told (a directory on its way that
    cannot be searched): ``os.path.lexists`` says False, and a record there was dropped."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return None
    return True


def has_rows(snapshot: Snapshot) -> bool:
    """Was ``snapshot`` stored with a listing row per file? (Its counts say how many
    executions they cover; a snapshot stored without rows has no counts, not even of an
    empty directory.)"""
    return snapshot.counts.get("executions") == len(snapshot.names)


def survey_stamps(survey: Survey) -> dict[str, bytes]:
    """Each file's stamp as the survey took it, as ``stamp_bytes``."""
    raw = survey.stamps.tobytes()
    size = survey.stamps.itemsize * STAMP_WIDTH
    return {name: raw[size * i : size * (i + 1)] for i, name in enumerate(survey.names)}


def scan_root(
    root: RecordRoot,
    *,
    use_cache: bool = True,
    workers: int | None = None,
    rows: RowFormat | None = None,
) -> list[ExecutionSummary]:
    """Summaries of every execution in ``root`` (records joined with WALs), sorted by key."""
    return DirectoryIndex(root, use_cache=use_cache, workers=workers, rows=rows).scan()
