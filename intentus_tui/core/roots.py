"""Several roots at once: each location the operator names (a local directory, or a
remote URL read through its local mirror), its label, and whether it could be opened.

An execution is known by (root label, id): ``LABEL:ID`` names it in one root, and a bare
id (or prefix) is accepted when exactly one root has it. A root that cannot be opened is
kept with the one line saying why, so the others still load.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from intentus_tui.core.execution_ids import (
    AmbiguousExecutionError,
    ExecutionIdError,
    ExecutionMatch,
    RecordedInSeveralFilesError,
    UnknownExecutionError,
    resolve_execution_id,
)
from intentus_tui.core.paths import (
    RecordRoot,
    cannot_follow,
    layout_problem,
    resolve_root,
    shown_path,
    tidy_path,
    wal_dir_problem,
)
from intentus_tui.core.read_only import read_only_reason
from intentus_tui.core.remote.location import RemoteOptions, is_remote, parse_remote
from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:  # the mirror (SSH, object storage, tar) is imported for a remote root only
    from intentus_tui.core.remote.mirror import RemoteMirror, SyncReport


@dataclass(slots=True)
class OpenedRoot:
    """One location given by the operator."""

    label: str
    spec: str  # as given (a remote URL without its password)
    root: RecordRoot | None  # None: it could not be opened at all
    problem: str | None = None  # the one line saying what is wrong with it
    mirror: RemoteMirror | None = None  # set for a remote root
    bundle: bool = False  # an evidence bundle, read from its private read-only copy
    # Its log directory cannot be listed: every record is listed, its log unchecked (the
    # problem says so, a note).
    logs_unlisted: bool = False

    @property
    def failed(self) -> bool:
        return self.root is None

    @property
    def whole(self) -> bool:
        """Every execution of it can be listed (a bundle's problem is a note on trust: what
        in it differs from its manifest; its rows say which are untrusted)."""
        return self.root is not None and (self.problem is None or self.bundle or self.logs_unlisted)

    @property
    def read_only(self) -> str | None:
        if self.root is None:
            return None
        return read_only_reason(self.root.records_dir)


def _local_label(path: Path) -> str:
    parts = [p for p in tidy_path(path.absolute()).parts if p not in ("/", "")]
    while len(parts) > 1 and parts[-1] in ("records", ".intentusnet", "wal"):
        parts.pop()
    return parts[-1] if parts else "/"


def unique_labels(labels: Sequence[str]) -> list[str]:
    """``labels`` with repeats told apart (``host``, ``host#2``) and no ``:`` in any."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        label = sanitize_line(label).replace(":", "_") or "root"
        count = seen.get(label, 0) + 1
        seen[label] = count
        out.append(label if count == 1 else f"{label}#{count}")
    return out


# Opens an evidence bundle as a root: (its read-only copy, a note on what in it differs from
# its manifest) or (None, why it cannot be read). Given by the caller, who owns the copy
# and removes it when it is done (a command when it ends, the debugger when it closes).
BundleOpener = Callable[[str], tuple[RecordRoot | None, str | None]]


def is_bundle_file(spec: str) -> bool:
    """Whether the local ``spec`` names a bundle file (``.tar.gz``/``.tgz``, not a folder)."""
    from intentus_tui.core.bundle.layout import is_bundle_name

    return is_bundle_name(spec) and os.path.exists(spec) and not os.path.isdir(spec)


# An empty ROOT (an unset shell variable: ``--dir "$RECORDS"``) was the current directory
# (``Path("")`` is ``.``): its records were listed, verified or served as if named.
EMPTY_ROOT = "an empty argument names no directory: give a directory or a URL"


def open_local(
    spec: str, open_bundle: BundleOpener | None = None
) -> tuple[RecordRoot | None, str | None]:
    if not spec:
        return None, EMPTY_ROOT
    path = Path(spec)
    if not path.exists():
        if path.is_symlink():
            return None, cannot_follow(spec)
        return None, f"no such directory: {shown_path(spec)}"
    if not path.is_dir():
        if is_bundle_file(spec):
            if open_bundle is not None:
                return open_bundle(spec)
            return None, f"not a directory: {shown_path(spec)} (a bundle: open it on its own)"
        return None, f"not a directory: {shown_path(spec)}"
    root = resolve_root(spec)
    if not root.records_dir.is_dir() and not root.records_to_come:
        return None, f"no such directory: {root.records_dir}"
    problem = layout_problem(root)  # ".intentusnet/records" a file: not "no records"
    # Logs that cannot be listed: the records are, each with its log unchecked (a note).
    return (None, problem) if problem is not None else (root, wal_dir_problem(root))


def open_roots(
    specs: Sequence[str],
    options: RemoteOptions | None = None,
    *,
    sync: bool = True,
    on_synced: Callable[[OpenedRoot, SyncReport], object] | None = None,
    open_bundle: BundleOpener | None = None,
) -> list[OpenedRoot]:
    """Each of ``distinct_specs(specs)`` opened (a remote one synced into its mirror, and
    its connection closed, unless ``sync`` is false; a bundle by ``open_bundle``). Never
    raises: a root that cannot be opened is ``failed`` with its problem."""
    options = options or RemoteOptions()
    opened: list[OpenedRoot] = []
    labels: list[str] = []
    for spec in distinct_specs(specs):
        if not is_remote(spec):
            root, problem = open_local(spec, open_bundle)
            bundle = is_bundle_file(spec)
            unlisted = root is not None and problem is not None and not bundle
            opened.append(
                OpenedRoot("", spec, root, problem, bundle=bundle, logs_unlisted=unlisted)
            )
            labels.append(_local_label(Path(spec)) if spec else "''")  # not the cwd's name
            continue
        try:
            location = parse_remote(spec)
        except ValueError as exc:
            opened.append(OpenedRoot("", spec, None, sanitize_line(str(exc))))
            labels.append(spec.partition("://")[0])
            continue
        from intentus_tui.core.remote.mirror import RemoteMirror

        mirror = RemoteMirror(location, options)
        entry = OpenedRoot("", location.url, mirror.root, None, mirror)
        if sync:
            report = mirror.sync()
            entry.problem = report.problem
            # Nothing ever read: the root failed. Else what was read is shown.
            entry.root = mirror.root if report.problem is None or mirror.has_copy else None
            if on_synced is not None:
                on_synced(entry, report)
            mirror.close()  # synced once: no idle connection (nor its thread) is kept
        opened.append(entry)
        labels.append(location.label)
    for entry, label in zip(opened, unique_labels(labels), strict=True):
        entry.label = label
    return opened


def distinct_specs(specs: Sequence[str]) -> list[str]:
    """``specs`` without those naming a root named before: a location given twice (``DIR``
    and ``DIR/.intentusnet/records``, a URL twice) is one root (its executions were
    listed, and counted, twice). A spec that cannot be opened is kept: it fails once."""
    seen: set[str] = set()
    kept: list[str] = []
    for spec in specs:
        place: str | None = None
        if is_remote(spec):
            with contextlib.suppress(ValueError):
                place = parse_remote(spec).url
        elif is_bundle_file(spec):  # the file itself: not extracted to be told apart
            place = os.path.realpath(spec)
        else:
            root, _ = open_local(spec)
            place = os.path.realpath(root.records_dir) if root is not None else None
        if place is not None and place in seen:
            continue
        if place is not None:
            seen.add(place)
        kept.append(spec)
    return kept


def root_holding(path: Path, roots: Iterable[tuple[str, RecordRoot]]) -> str | None:
    """The label of the root whose records or WAL directory holds ``path`` (None: none
    does): where a changed file is routed (``core.index.multi``), and which root an
    exported file is of."""
    for label, root in roots:
        if path.parent == root.records_dir or path.parent == root.wal_dir:
            return label
    return None


def split_label(text: str, labels: Sequence[str]) -> tuple[str | None, str]:
    """(root label, the rest) for ``LABEL:ID``; (None, text) when no label starts it."""
    label, sep, rest = text.partition(":")
    if sep and label in labels:
        return label, rest
    return None, text


def resolve_across(roots: Sequence[OpenedRoot], text: str) -> tuple[OpenedRoot, ExecutionMatch]:
    """The root and execution ``text`` names (``LABEL:ID`` or an id or prefix only one
    root has); ``ExecutionIdError`` (one line) otherwise."""
    working = [r for r in roots if r.root is not None]
    label, rest = split_label(text, [r.label for r in roots])
    if label is not None:
        chosen = next(r for r in roots if r.label == label)
        if chosen.root is None:
            raise ExecutionIdError(f"root {label} could not be opened: {chosen.problem}")
        try:
            return chosen, resolve_execution_id(chosen.root, rest)
        except RecordedInSeveralFilesError as exc:
            raise exc.in_root(label) from None
    found: list[tuple[OpenedRoot, ExecutionMatch]] = []
    copies: list[tuple[OpenedRoot, RecordedInSeveralFilesError]] = []
    ambiguous: ExecutionIdError | None = None
    for entry in working:
        assert entry.root is not None
        try:
            found.append((entry, resolve_execution_id(entry.root, text)))
        except RecordedInSeveralFilesError as exc:  # named as LABEL:FILE names one
            copies.append((entry, exc))
            ambiguous = exc.in_root(entry.label)
        except AmbiguousExecutionError as exc:
            ambiguous = exc
        except UnknownExecutionError:
            continue
    if len(found) == 1 and ambiguous is None:
        return found[0]
    if copies and (found or len(copies) > 1):
        _in_files_of_several_roots(roots, text, found, copies)
    if len(found) > 1:
        where = ", ".join(f"{entry.label}:{match.execution_id}" for entry, match in found)
        raise ExecutionIdError(f"{text!r} is in more than one root: say which ({where})")
    if ambiguous is not None:
        raise ambiguous
    names = ", ".join(r.label for r in working) or "no root could be opened"
    typed_label, sep, _ = text.partition(":")
    # LABEL:ID with a label no root has (or an id with a colon that none holds)
    unlabelled = f", and no root is labelled {typed_label!r}" if sep and typed_label else ""
    raise ExecutionIdError(f"no execution {text!r} in any root ({names}){unlabelled}")


def _in_files_of_several_roots(
    roots: Sequence[OpenedRoot],
    text: str,
    found: list[tuple[OpenedRoot, ExecutionMatch]],
    copies: list[tuple[OpenedRoot, RecordedInSeveralFilesError]],
) -> None:
    """Raises one error naming every file, in every root (in ``roots``' order), of the execution ``text`` names
    when some root holds it in several files and another holds it too (one root's files
    alone were named, as if the others had none); returns if the roots name different
    executions (then each root is to be said, as ``LABEL:ID``)."""
    ids = {match.execution_id for _, match in found} | {exc.execution_id for _, exc in copies}
    if len(ids) != 1:
        if not found:
            return
        where = ", ".join(
            [f"{entry.label}:{match.execution_id}" for entry, match in found]
            + [f"{entry.label}:{exc.execution_id}" for entry, exc in copies]
        )
        raise ExecutionIdError(f"{text!r} is in more than one root: say which ({where})")
    names: dict[str, list[str]] = {}  # label -> its files
    for entry, match in found:
        path = match.record or match.wal
        assert path is not None
        names[entry.label] = [path.name]
    for entry, exc in copies:
        names[entry.label] = list(exc.files)
    files = [(r.label, name) for r in roots for name in names.get(r.label, [])]
    raise RecordedInSeveralFilesError.in_roots(text, ids.pop(), files)
