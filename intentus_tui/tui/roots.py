"""The debugger on several roots, or on remote ones: which index feeds the list, which
directories are watched, where a row's file and WAL are, and the header's line of roots
with their counts and problems. Remote roots are synced into their local mirrors by a
poller thread (one per root, every ``poll_seconds``); the directory watcher sees each
copied file arrive and the list redraws only the rows that changed.

``RootsSupport`` is a base of the app: it answers for a single local root too (then it
changes nothing).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.message import Message

from intentus_tui.core.index.multi import KEY_SEPARATOR, MultiIndex, split_key
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.paths import RecordRoot, with_logs_to_come
from intentus_tui.core.remote.location import RemoteOptions
from intentus_tui.core.roots import OpenedRoot
from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:
    from intentus_tui.core.remote.mirror import RemoteMirror


class RootProblem(Message):
    """A remote root's sync ended with a problem (or ``None``: it works again)."""

    def __init__(self, label: str, problem: str | None) -> None:
        super().__init__()
        self.label = label
        self.problem = problem


class RootSet:
    """The roots the debugger shows (at least one opens)."""

    def __init__(self, opened: Sequence[OpenedRoot], options: RemoteOptions) -> None:
        self.opened = list(opened)
        self.options = options
        self.working = [entry for entry in self.opened if entry.root is not None]
        for entry in self.working:
            if entry.root is not None and entry.mirror is None and not entry.bundle:
                # Its logs are read as the runtime starts writing them (one root's alike).
                entry.root = with_logs_to_come(entry.root)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def several(self) -> bool:
        return len(self.opened) > 1

    def read_only(self) -> str | None:
        """Why nothing may be written in any root, or None when one of them may be written
        (then each root's part of the header says which are read-only)."""
        reasons = [entry.read_only for entry in self.working]
        return reasons[0] if reasons and all(reasons) else None

    def make_index(self, use_cache: bool) -> MultiIndex | None:
        """The merged index of several roots; None for one (its own index serves)."""
        if not self.several:
            return None
        return MultiIndex(
            [(e.label, e.root) for e in self.working if e.root is not None],
            use_cache=use_cache,
            collector_off=False,  # the app's collector is its own (``startup.tuning``)
        )

    def directories(self) -> list[Path]:
        found: list[Path] = []
        for entry in self.working:
            assert entry.root is not None
            found.append(entry.root.records_dir)
            if entry.root.wal_dir is not None:
                found.append(entry.root.wal_dir)
        return found

    def entry_for(self, label: str) -> OpenedRoot:
        for entry in self.working:
            if entry.label == label or not self.several:
                return entry
        return self.working[0]

    def entry_of_path(self, path: Path) -> OpenedRoot | None:
        for entry in self.working:
            root = entry.root
            if root is not None and path.parent in (root.records_dir, root.wal_dir):
                return entry
        return None

    def file_of(self, summary: ExecutionSummary) -> Path:
        """The file behind a row (a record, or a WAL-only execution's log)."""
        return self.path_of_key(summary.key)

    def path_of_key(self, key: str) -> Path:
        """The file behind a list key (``LABEL/FILE`` with several roots), in its own root."""
        label, name = split_key(key) if self.several else ("", key)
        root = self.entry_for(label).root
        assert root is not None
        return root.path_of(name)

    def label_of(self, path: Path | None) -> str | None:
        """The label of the root a file is in, when several roots are open (else None)."""
        entry = self.entry_of_path(path) if path is not None and self.several else None
        return entry.label if entry is not None else None

    def header_parts(self, per_root: dict[str, int] | None, total: int) -> list[str]:
        """What the header says of each root (its label and count, or why it failed)."""
        parts = []
        for entry in self.opened:
            where = sanitize_line(entry.spec if not self.several else entry.label)
            if entry.root is None:
                parts.append(f"{where} FAILED: {sanitize_line(entry.problem or '')}")
                continue
            count = (per_root or {}).get(entry.label, total if not self.several else 0)
            text = f"{where} {count}" if self.several else where
            kind = (
                "bundle"
                if entry.bundle
                else "remote"
                if entry.mirror is not None
                else "read-only"
                if entry.read_only is not None
                else None
            )
            if kind is not None and self.several:
                text += f" ({kind})"
            if entry.problem:
                text += f" ⚠ {sanitize_line(_problem_alone(entry, entry.problem))}"
            parts.append(text)
        return parts

    # -- remote roots: polling

    def start_polling(self, post: Callable[[Message], object]) -> None:
        for entry in self.working:
            if entry.mirror is not None:
                thread = threading.Thread(
                    target=self._poll,
                    args=(entry, entry.mirror, post),
                    name=f"remote-poll-{entry.label}",
                    daemon=True,
                )
                self._threads.append(thread)
                thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _poll(
        self, entry: OpenedRoot, mirror: RemoteMirror, post: Callable[[Message], object]
    ) -> None:
        last: str | None = entry.problem
        while not self._stop.is_set():
            report = mirror.sync()
            if report.problem != last:
                last = report.problem
                try:
                    post(RootProblem(entry.label, report.problem))
                except RuntimeError:  # the app has closed
                    return
            self._stop.wait(self.options.poll_seconds)


def _problem_alone(entry: OpenedRoot, problem: str) -> str:
    """A root's problem without its location first, after the root's name: at 80 columns
    "127.0.0.1 0 ⚠ ssh://root@127.0.0.1:1/tmp/x:…" said where twice and not what."""
    where = entry.mirror.location.url if entry.mirror is not None else entry.spec
    return problem.removeprefix(f"{where}: ")


class RootsSupport(App[None]):
    """What the app needs of its roots: every method works with none given (one local root)."""

    roots: RootSet | None = None
    root: RecordRoot

    def roots_index(self, use_cache: bool) -> MultiIndex | None:
        if self.roots is None:
            return None
        return self.roots.make_index(use_cache)  # no listing rows: see IndexFeeder

    def watched_directories(self) -> list[Path]:
        if self.roots is not None:
            return self.roots.directories()
        root = self.root
        return [root.records_dir] + ([root.wal_dir] if root.wal_dir is not None else [])

    def file_of(self, summary: ExecutionSummary) -> Path:
        if self.roots is not None:
            return self.roots.file_of(summary)
        wal_only = summary.source == "wal" and self.root.wal_dir is not None
        directory = self.root.wal_dir if wal_only else self.root.records_dir
        assert directory is not None
        return directory / summary.key

    def path_of_key(self, key: str) -> Path:
        """The file behind a list key, in the root the key names (several roots: ``LABEL/FILE``)."""
        return self.roots.path_of_key(key) if self.roots is not None else self.root.path_of(key)

    def key_of_path(self, path: Path) -> str:
        """The list key of a file of a root (``path_of_key`` the other way): ``LABEL/FILE``
        with several roots open, else its name."""
        entry = self.roots.entry_of_path(path) if self.roots is not None else None
        if entry is not None and self.roots is not None and self.roots.several:
            return f"{entry.label}{KEY_SEPARATOR}{path.name}"
        return path.name

    def root_of(self, path: Path) -> RecordRoot:
        """The root a file is in (its WAL directory, where snapshots go)."""
        entry = self.roots.entry_of_path(path) if self.roots is not None else None
        return entry.root if entry is not None and entry.root is not None else self.root

    def readable_file(self, path: Path) -> Path:
        """``path``, read whole first when it is a huge remote record listed from its head
        and tail (called from a worker thread)."""
        entry = self.roots.entry_of_path(path) if self.roots is not None else None
        mirror = entry.mirror if entry is not None else None
        if mirror is not None and mirror.is_partial(path):
            problem = mirror.fetch_whole(path)
            if problem is not None:
                self.call_from_thread(self.notify, problem, severity="error", markup=False)
        return path

    def records_where(self) -> str:
        """Where the list says it found no records: the records directory, or with several
        or remote roots each as given, with what is wrong with it (it named a remote root's
        local mirror, ``~/.cache/intentus-tui/remote/…/records``, no path the user typed)."""
        if self.roots is None:
            return sanitize_line(str(self.root.records_dir))

        def said(entry: OpenedRoot) -> str:
            problem = entry.problem
            if not problem or problem.startswith(entry.spec):  # "ssh://h/x: connection refused"
                return problem or entry.spec
            return f"{entry.spec} ({problem})"

        return " · ".join(sanitize_line(said(entry)) for entry in self.roots.opened)

    def roots_line(self, total: int) -> list[str] | None:
        """What the header says of each root (``Roots.header_parts``); None: one root."""
        if self.roots is None:
            return None
        index = getattr(getattr(self, "feeder", None), "index", None)
        per_root = index.per_root if isinstance(index, MultiIndex) else None
        return self.roots.header_parts(per_root, total)

    def start_roots(self) -> None:
        if self.roots is not None:
            self.roots.start_polling(self.post_message)

    def stop_roots(self) -> None:
        if self.roots is not None:
            self.roots.stop()

    def on_root_problem(self, message: RootProblem) -> None:
        if self.roots is None:
            return
        for entry in self.roots.opened:
            if entry.label == message.label:
                entry.problem = message.problem
        if message.problem:
            self.notify(message.problem, severity="warning", markup=False, timeout=8)
        for say in ("_show_header", "_update_empty_message"):  # the list names the problem
            show = getattr(self, say, None)
            if show is not None:
                show()
