"""``intentus-tui verify``: the integrity of each record and each write-ahead log's hash
chain; exit 1 if any fails, 2 if there is nothing to verify."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from intentus_tui.cli.bundle import (
    bundle_root,
    bundled_verdict_notes,
    extracted,
    looks_like_bundle,
    manifest_lines,
)
from intentus_tui.cli.common import (
    bundled_file,
    decided_exit,
    echo_folded,
    echo_json,
    error_document,
    fail,
    guarded,
    open_many,
    open_root,
    remote_options,
    store_entry,
    typed_path,
    verdict_line,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.actions import ExecutionDetail, load_detail
from intentus_tui.core.bundle.layout import RECORDS
from intentus_tui.core.bundle.read import BundleError, ExtractedBundle
from intentus_tui.core.execution_ids import (
    ExecutionIdError,
    ExecutionMatch,
    resolve_execution_id,
)
from intentus_tui.core.model import Integrity, LoadStatus
from intentus_tui.core.paths import (
    RecordRoot,
    cannot_follow,
    list_record_paths,
    resolve_root,
    shown_path,
    sibling_wal_dir,
)
from intentus_tui.core.records.load import WAL_SUFFIX
from intentus_tui.core.records.verify import hash_words
from intentus_tui.core.remote.location import is_remote
from intentus_tui.core.roots import distinct_specs
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.verdict import writer_cut_story
from intentus_tui.core.verist.verify import (
    CHANGED_SINCE_SAVED,
    ArtifactCheck,
    SnapshotFileReport,
    check_snapshot_file,
)
from intentus_tui.core.wal.verify import WalVerifyReport, verify_wal

if TYPE_CHECKING:
    from intentus_tui.core.roots import OpenedRoot

# (a WAL file, the records directory its record would be in)
WalTarget = tuple[Path, Path | None]
# (a record file, the WAL directory its log would be in)
RecordTarget = tuple[Path, Path | None]


def _wal_paths(directory: Path | None) -> list[Path]:
    if directory is None:
        return []
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [directory / n for n in names if n.endswith(WAL_SUFFIX) and len(n) > len(WAL_SUFFIX)]


def _root_targets(root: RecordRoot) -> tuple[list[RecordTarget], list[WalTarget]]:
    records = [(path, root.wal_dir) for path in list_record_paths(root.records_dir)]
    # A directory of WALs given on its own is verified too (its records would be beside it).
    wal_dirs = [root.wal_dir] if root.wal_dir is not None else []
    if not records:
        wal_dirs.append(root.records_dir)
    wals: list[WalTarget] = [(p, root.records_dir) for d in wal_dirs for p in _wal_paths(d)]
    return records, wals


def _targets(
    paths: tuple[str, ...],
    labels: dict[Path, str] | None = None,
    unopened: list[tuple[str, str]] | None = None,
    *,
    others: bool = False,
    named_files: list[Path] | None = None,
    beside_bundles: bool = False,
) -> tuple[list[RecordTarget], list[WalTarget]]:
    """The records and WALs to check; with several roots named, ``labels`` is told each
    file's root label (as the merged list names it) and ``unopened`` each root that could
    not be opened (said on stderr: the others are verified). ``others``: something else
    (a bundle) was named beside ``paths``. ``named_files`` is told each file named itself,
    or found in a directory named that is no ``records`` directory (``snapshots/``): it may
    be a saved snapshot or baseline. ``beside_bundles``: bundles are checked too, their
    files named by their bundle: a root's are named by its label."""
    if not paths:
        root = open_root(None)
        found = _root_targets(root)
        if not found[0] and not found[1]:
            fail(f"nothing to verify in {root.requested}: no records (*.json) or WALs (*.wal)")
        return found
    records: list[RecordTarget] = []
    wals: list[WalTarget] = []
    several = len(paths) > 1 or others  # then a path that is not there fails alone
    named_roots = [raw for raw in paths if is_remote(raw) or Path(raw).is_dir()]
    roots = distinct_specs(named_roots)  # a root named twice is verified once
    # With files named beside the roots, none opening is a failure among them, not the end.
    besides = others or len(named_roots) < len(paths)
    opened = dict(zip(roots, open_many(roots, others=besides), strict=True)) if roots else {}
    missing: list[str] = []
    for raw in paths:
        path = Path(raw)
        if raw in named_roots:
            if raw not in opened:
                continue  # the same root as one before
            entry = opened[raw]
            if entry.root is None:
                if unopened is not None:
                    unopened.append((entry.label, entry.problem or "could not be opened"))
                continue  # said on stderr; the other roots are verified
            if entry.mirror is not None:
                for record in list_record_paths(entry.root.records_dir):
                    _whole_copy(entry, record)
            found_records, found_wals = _root_targets(entry.root)
            if not found_records and not found_wals:
                where = sanitize_line(shown_path(raw))
                empty = f"nothing to verify in {where}: no records (*.json) or WALs (*.wal)"
                if not several:
                    fail(empty)
                # Beside other paths: one line, counted as failed, as a missing path is;
                # the others are verified (it ended the command, dropping them).
                echo_error(f"intentus-tui: {empty}")
                missing.append(empty)
                if unopened is not None:
                    unopened.append((entry.label, empty))
                continue
            records += found_records
            wals += found_wals
            if named_files is not None and entry.root.records_dir.name != RECORDS:
                # A directory that is not a record store (``.intentusnet/snapshots``, one
                # named itself): a snapshot in it is checked as one, as when named alone.
                named_files += [target for target, _ in found_records]
            if labels is not None and (len(roots) > 1 or beside_bundles):
                labels.update((target, entry.label) for target, _ in found_records + found_wals)
        elif (in_store := store_entry(raw, None)) is not None:
            # A link of the current directory's store, typed as a path: its record file
            # (or log), checked as ``verify`` of the store checks it (never followed out).
            store, stored = in_store
            if stored.name.endswith(WAL_SUFFIX):
                wals.append((stored, None))
            else:
                records.append((stored, store.wal_dir))
        elif (bundled := bundled_file(raw)) is not None:
            # ``FILE.tar.gz:records/X.json``, as a bundle's files are named: that file of
            # the bundle's read-only copy, checked as ``verify FILE.tar.gz`` checks it.
            if bundled.name.endswith(WAL_SUFFIX):
                wals.append((bundled, None))
            else:
                records.append((bundled, sibling_wal_dir(bundled)))
                if named_files is not None:
                    named_files.append(bundled)
        elif path.exists():
            path = typed_path(raw)  # a link typed is followed, as cat follows it
            if path.name.endswith(WAL_SUFFIX):
                wals.append((path, None))
            else:
                records.append((path, sibling_wal_dir(path)))
                if named_files is not None:
                    named_files.append(path)
        elif (named := _execution_here(raw)) is not None:
            # An execution id (or a unique prefix) of the current directory's records, as
            # ``inspect ID`` takes it ("no such file or directory" before): its record and
            # its log, each checked as ``verify DIR`` checks it (a log that cannot be read
            # passed ``verify ID`` and failed ``verify DIR``).
            match, log_dir = named
            if match.record is not None:
                records.append((match.record, log_dir))
            if match.wal is not None:
                wals.append((match.wal, None))
        else:
            # Nothing to read there: said as such and failed, not checked as a damaged
            # record ("hash unreadable", "file vanished"); the other paths are verified.
            is_link = path.is_symlink()
            problem = (
                cannot_follow(raw) if is_link else f"no such file or directory: {shown_path(raw)}"
            )
            if not several and not is_link:
                fail(problem)
            problem = sanitize_line(problem)
            echo_error(f"intentus-tui: {problem}")
            missing += [] if is_link else [problem]
            if unopened is not None:
                unopened.append((shown_path(raw), problem))
    if len(missing) == len(paths) and not others:  # nothing named is there: a usage error
        error_document("; ".join(missing), ExitCode.USAGE)
        raise click.exceptions.Exit(ExitCode.USAGE)
    return _once(records), _once(wals)


def _once(targets: list[RecordTarget]) -> list[RecordTarget]:
    """Each file checked once, where it was first named: a file named twice, or named
    beside its directory, was checked (and counted: "6 checked" of 4) each time."""
    seen: set[str] = set()
    kept = []
    for target in targets:
        real = os.path.abspath(target[0])  # not realpath: a link in a store is its own entry
        if real not in seen:
            seen.add(real)
            kept.append(target)
    return kept


def _whole_copy(entry: OpenedRoot, record: Path) -> None:
    """Verifying needs every byte: a huge remote record listed from its head and tail is
    read whole first."""
    mirror = entry.mirror
    if mirror is not None and mirror.is_partial(record):
        problem = mirror.fetch_whole(record)
        if problem is not None:
            fail(problem)


def _untrusted_reason(detail: ExecutionDetail) -> str | None:
    """What the execution's verdict says cannot be believed (a tampered record, a broken
    WAL chain beside it, a record of a bundle changed since it was bundled), or None: such
    a record fails even when its own checks pass."""
    verdict = detail.verdict
    return None if verdict is None or verdict.trusted else verdict.integrity_reason


def _record_ok(detail: ExecutionDetail) -> bool:
    return detail.verify.ok and _untrusted_reason(detail) is None


def _shown_name(path: str, shown: str | None) -> str:
    """A file as its line names it: ``shown`` (see ``_shown_names``), else its name."""
    return shown or Path(path).name


def _shown_names(
    files: Mapping[Path, str], bundles: Sequence[tuple[str, ExtractedBundle]]
) -> dict[Path, str]:
    """Each file's name on its line when several roots or bundles were named (``files``:
    each file's root label): a bundle's file as ``B.tar.gz:records/X.json`` (as ``--json``
    names it, and every command takes back from the bundle's directory), another as
    ``LABEL:FILE`` (as the debugger names an execution of one of several roots)."""
    names: dict[Path, str] = {}
    for file, root in files.items():
        names[file] = f"{root}:{file.name}"
        for _, bundle in bundles:
            if file.is_relative_to(bundle.directory):
                names[file] = f"{root}:{file.relative_to(bundle.directory).as_posix()}"
    return names


def _record_lines(
    detail: ExecutionDetail, shown: str | None = None, changed: str | None = None
) -> list[str]:
    report = detail.verify
    mark = "ok  " if _record_ok(detail) else "FAIL"
    lines = [f"{mark}  {_shown_name(report.path, shown)}  hash {hash_words(report)}"]
    if changed is not None:  # its own checks may pass: the manifest's say otherwise
        lines.append(f"      - changed since it was bundled: {changed}")
    verdict = detail.verdict
    story = writer_cut_story(detail.summary) if detail.summary is not None else None
    if verdict is None or verdict.integrity_reason != story:
        story = None  # its verdict tells another story (tampered): the damage is said bare
    for problem in report.problems:
        if story is not None and problem == report.load_message:
            # "Damaged record" alone read as damage done since: the story inspect tells
            problem = story[0].upper() + story[1:]
        lines.append(f"      - {problem}")
    untrusted = _untrusted_reason(detail)
    # Nothing above says why: its own checks pass, or the bundle's manifest does not vouch
    # for it (a damaged record's damage is not why it is tampered then).
    bundled = detail.summary is not None and detail.summary.bundle_change is not None
    if untrusted is not None and (report.ok or bundled) and changed is None:
        lines.append(f"      - {untrusted}")
    lines += [f"      · {note}" for note in report.notes]
    if verdict is not None:
        unsaid = verdict.integrity_reason not in report.notes
        if verdict.integrity is Integrity.UNVERIFIABLE and report.ok and unsaid:
            # nothing above says why (its log cannot be read): the verdict's reason does
            lines.append(f"      · {verdict.integrity_reason}")
        lines.append(f"      verdict: {verdict_line(verdict)}")
    return lines


def _wal_lines(report: WalVerifyReport, shown: str | None = None) -> list[str]:
    mark = "FAIL" if not report.ok else ("torn" if report.torn else "ok  ")
    if report.crashed and not report.torn:
        mark = "warn"  # a malformed last line: whole, not torn
    lines = [f"{mark}  {_shown_name(report.path, shown)}  wal {report.summary}"]
    lines += [f"      - {detail}" for detail in report.details]
    verdict = report.verdict
    if verdict is not None:  # known from this WAL alone: its verdict is told here
        why = "investigate first" if not verdict.trusted else verdict.replay_reason
        lines.append(
            f"      verdict: outcome {verdict.outcome.value}, integrity "
            f"{verdict.integrity.value}; not replayable ({verdict.replay.value}): {why}"
        )
    return lines


def _record_json(detail: ExecutionDetail, changed: str | None = None) -> dict[str, object]:
    verdict = detail.verdict
    return {
        "kind": "record",
        **detail.verify.to_json(),
        "ok": _record_ok(detail),  # as the verdict says, as in the text
        "changed_since_bundled": changed,
        "verdict": verdict.to_json() if verdict is not None else None,
    }


def _bundle_paths(paths: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(bundle files, other paths): a bundle is an existing ``.tar.gz``/``.tgz`` file."""
    bundles = [p for p in paths if looks_like_bundle(p) and os.path.lexists(p)]
    return bundles, [p for p in paths if p not in bundles]


def _relabel(doc: dict[str, object], directory: Path, bundle: str) -> dict[str, object]:
    """A file of an extracted bundle named as ``BUNDLE:records/x.json``, not by its
    temporary path (gone when the command ends)."""
    for key in ("path", "file"):
        value = doc.get(key)
        if isinstance(value, str) and value.startswith(f"{directory}{os.sep}"):
            doc[key] = f"{bundle}:{value[len(str(directory)) + 1 :]}"
    return doc


def _execution_here(text: str) -> tuple[ExecutionMatch, Path | None] | None:
    """The execution ``text`` names in the current directory's records, and their log
    directory, if it names one there."""
    if "/" in text or os.path.lexists(text):
        return None
    root = resolve_root(None)
    if not root.records_dir.is_dir():
        return None
    try:
        return resolve_execution_id(root, text), root.wal_dir
    except ExecutionIdError:
        return None


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@remote_options
@guarded
def verify(paths: tuple[str, ...], as_json: bool) -> None:
    """Check records (envelope hashes, event sequences, structure) and write-ahead logs
    (hash chains) in DIRS or FILES, and evidence bundles (FILE.tar.gz).

    A directory means its records and the WALs beside them (.intentusnet/wal); it may be a
    remote URL (ssh://, s3://). A bundle is checked offline: every file against its
    manifest (missing, extra or changed files fail), then its records and WALs as above.
    A saved snapshot or Verist baseline named is hashed again as Verist hashes it.
    Exit 1 if any fails; 2 if there is nothing to verify. A WAL whose last line is torn (a
    crash mid-append) is reported as a crash, not a failure; one whose last line is whole
    but malformed, as such (not a failure either).
    """
    bundle_paths, plain = _bundle_paths(paths)
    with contextlib.ExitStack() as stack:
        labels: dict[Path, str] = {}
        in_bundles: dict[Path, str] = {}  # a bundle's file: the bundle it came from
        unopened: list[tuple[str, str]] = []
        named: list[Path] = []
        bundles: list[tuple[str, ExtractedBundle]] = []
        alone = len(bundle_paths) == 1 and not plain  # then it is one line, exit 1
        for path in bundle_paths:
            try:
                bundles.append((path, stack.enter_context(extracted(path, raising=not alone))))
            except BundleError as exc:  # named and counted: the other arguments are checked
                echo_error(f"intentus-tui: {sanitize_line(str(exc))}")
                unopened.append((path, sanitize_line(str(exc))))
        record_paths, wal_targets = (
            _targets(
                tuple(plain),
                labels,
                unopened,
                others=bool(bundle_paths),
                named_files=named,
                beside_bundles=bool(bundles),
            )
            if plain or not bundle_paths
            else ([], [])
        )
        if unopened and not (bundles or record_paths or wal_targets):
            # Nothing named could be read (bundles, links that lead nowhere): each said
            # on stderr, one error document.
            error_document("; ".join(why for _, why in unopened), ExitCode.PROBLEMS)
            raise click.exceptions.Exit(ExitCode.PROBLEMS)
        beside = len(bundles) > 1 or bool(record_paths or wal_targets)
        for path, bundle in bundles:
            found_records, found_wals = _root_targets(bundle_root(bundle, path))
            record_paths += found_records
            wal_targets += found_wals
            if beside:  # with other files checked, each line says which bundle it is of
                name = os.path.basename(path)
                in_bundles.update((target, name) for target, _ in found_records + found_wals)
        _report(record_paths, wal_targets, bundles, as_json, labels, unopened, named, in_bundles)


def _report(
    record_paths: list[RecordTarget],
    wal_targets: list[WalTarget],
    bundles: list[tuple[str, ExtractedBundle]],
    as_json: bool,
    labels: dict[Path, str] | None = None,
    unopened: Sequence[tuple[str, str]] = (),
    named: Sequence[Path] = (),
    in_bundles: Mapping[Path, str] | None = None,
) -> None:
    """``labels``: each file's root label, when several roots were named (then each line
    names its root, ``LABEL:FILE``, and the last line counts each root's); ``unopened``:
    what was named and could not be read (a root's label or the path, why), each a
    failure; ``named``: the files named themselves (a saved snapshot among them is
    re-hashed as one); ``in_bundles``: the bundle each file of several came from (its line
    names it, ``b.tar.gz:records/FILE``; its part of the last line counts its manifest)."""
    labels = labels or {}
    root_of = {**labels, **(in_bundles or {})}
    shown_in = _shown_names(root_of, bundles)
    details = [load_detail(path, wal_dir) for path, wal_dir in record_paths]
    snapshots, record_paths, details = _saved_snapshots(record_paths, details, named)
    changed_files = _changed_in_bundles(bundles)
    changed = [changed_files.get(Path(path)) for path, _ in record_paths]
    records = [detail.verify for detail in details]
    wals = [verify_wal(p, records_dir) for p, records_dir in wal_targets]
    failed = sum(not _record_ok(d) for d in details)
    failed += sum(not w.ok for w in wals)
    failed += sum(not bundle.ok for _, bundle in bundles) + len(unopened)
    failed += sum(not snapshot.ok for snapshot in snapshots)
    crashed = sum(w.crashed for w in wals)
    # every file whose check can fail
    checked = len(records) + len(wals) + len(bundles) + len(snapshots)
    decided_exit(ExitCode.PROBLEMS if failed else ExitCode.OK)
    if as_json:
        files = [_record_json(d, c) for d, c in zip(details, changed, strict=True)]
        files += [w.to_json() for w in wals]
        files += [snapshot.to_json() for snapshot in snapshots]
        for path, bundle in bundles:
            files = [_relabel(doc, bundle.directory, path) for doc in files]
        doc: dict[str, object] = {
            "ok": not failed,
            "checked": checked,
            "records": len(records),
            "wals": len(wals),
            "snapshots": len(snapshots),
            # of the files checked, as the text's last line counts them; a path named that
            # could not be read is counted apart, as there ("0 failed; 1 named path could
            # not be read (failed)"): it said "failed": 1 of one record that passed
            "failed": failed - len(unopened),
            "not_read": len(unopened),
            "crashed": crashed,
            "files": files,
        }
        if bundles:
            doc["bundles"] = [_bundle_json(path, bundle) for path, bundle in bundles]
        if unopened:  # counted in "not_read": named here too, not on stderr alone
            doc["unopened"] = [{"root": label, "problem": why} for label, why in unopened]
        echo_json(doc)
    else:
        lines: list[str] = []
        for path, bundle in bundles:
            lines += manifest_lines(bundle, path)
            lines += bundled_verdict_notes(bundle, _current_verdicts(bundle, details, wals))
        for (record, _), detail, why in zip(record_paths, details, changed, strict=True):
            lines += _record_lines(detail, shown_in.get(record), why)
        for (log, _), wal in zip(wal_targets, wals, strict=True):
            lines += _wal_lines(wal, shown_in.get(log))
        for snapshot in snapshots:
            lines += _snapshot_lines(snapshot)
        # Each is one line: a newline in a file name (or a bundle's member) is shown as ␊,
        # so a hostile name cannot forge an ``ok`` line.
        echo_folded(sanitize_line(line) for line in lines)
        torn = sum(w.torn for w in wals)
        notes = [f"{torn} crashed mid-write"] if torn else []
        if crashed > torn:
            notes.append(f"{crashed - torn} with a malformed last line")
        crash_note = f", {', '.join(notes)} (not failures)" if notes else ""
        if unopened:  # roots, bundles, links, missing paths: what each was, not said here
            # Apart from the files checked, which the failed count is of (as each root's
            # is): "2 checked (…), 3 failed" counted these among the failed.
            crash_note += f"; {_counted(len(unopened), 'named path')} could not be read (failed)"
        parts = [_counted(len(records), "record"), _counted(len(wals), "WAL")]
        if snapshots:
            parts.append(_counted(len(snapshots), "snapshot"))
        if bundles:
            parts.append(_counted(len(bundles), "bundle manifest"))
        # Each root's count, a bundle's among them, when roots are named.
        several = len(set(root_of.values())) > 1  # roots, or bundles, each counted
        # A bundle's manifest is counted in its bundle's part: the parts add up to the total.
        manifests = [(os.path.basename(path), bundle.ok) for path, bundle in bundles]
        per_root = _per_root(
            record_paths, details, wal_targets, wals, root_of if several else {}, manifests
        )
        echo_folded(
            [
                f"{checked} checked ({', '.join(parts)}), {failed - len(unopened)} failed"
                f"{crash_note}{per_root}"
            ]
        )
    raise click.exceptions.Exit(ExitCode.PROBLEMS if failed else ExitCode.OK)


# What the record reader made of a file that may be a snapshot: none a record.
_MAYBE_SNAPSHOT = frozenset(
    {
        LoadStatus.NOT_RECORD,
        LoadStatus.NOT_JSON,
        LoadStatus.NOT_UTF8,
        LoadStatus.TOO_DEEP,
        LoadStatus.EMPTY,
    }
)


def _saved_snapshots(
    record_paths: list[RecordTarget], details: list[ExecutionDetail], named: Sequence[Path]
) -> tuple[list[SnapshotFileReport], list[RecordTarget], list[ExecutionDetail]]:
    """The files named that are saved snapshots or baselines rather than records, re-hashed
    as Verist hashes them ("not a record" was no answer to a person checking the snapshot
    they saved); the records and their details without them."""
    snapshots: list[SnapshotFileReport] = []
    kept: list[tuple[RecordTarget, ExecutionDetail]] = []
    candidates = set(named)  # every file of a directory may be among them: no list search
    for target, detail in zip(record_paths, details, strict=True):
        report = None
        # Not a record: perhaps a snapshot, sound or one that cannot be read (cut short).
        if target[0] in candidates and detail.verify.load_status in _MAYBE_SNAPSHOT:
            report = check_snapshot_file(target[0])
        if report is None:
            kept.append((target, detail))
        else:
            snapshots.append(report)
    # An empty file beside snapshots, in a directory that is no record store, is one more
    # of them whose saving was cut off (it was counted, and failed, as a record).
    beside = {Path(report.path).parent for report in snapshots}
    empty = [
        target[0]
        for target, detail in kept
        if target[0] in candidates
        and target[0].parent in beside
        and target[0].parent.name != RECORDS
        and detail.verify.load_status is LoadStatus.EMPTY
    ]
    for path in empty:
        snapshots.append(
            SnapshotFileReport(str(path), "snapshot", (), (), invalid=EMPTY, unreadable=True)
        )
    if empty:  # in their place in the directory's listing
        snapshots.sort(key=lambda report: (str(Path(report.path).parent), report.path))
        kept = [(target, detail) for target, detail in kept if target[0] not in empty]
    return snapshots, [target for target, _ in kept], [detail for _, detail in kept]


EMPTY = "the file is empty"


def _snapshot_lines(report: SnapshotFileReport) -> list[str]:
    """``ok    snap.json  snapshot: input and 2 artifacts hash as recorded``; a failure
    names each hash that differs."""
    name = Path(report.path).name
    if report.unreadable:
        return [f"FAIL  {name}  {report.kind}: cannot be read: {report.invalid}"]
    if report.invalid is not None:
        return [f"FAIL  {name}  {report.kind}: not a valid {report.kind}: {report.invalid}"]
    if report.ok:
        content = [c for c in report.checks if c.status == "ok"]
        artifacts = _counted(len(content) - 1, "artifact")
        lines = [f"ok    {name}  {report.kind}: input and {artifacts} hash as recorded"]
    else:
        why = CHANGED_SINCE_SAVED if report.changed else "a hash it stored cannot be checked"
        lines = [f"FAIL  {name}  {report.kind}: {why}"]
        lines += [f"      - {_hash_named(c)}: {c.message}" for c in report.failed]
    lines += [
        f"      · {_hash_named(c)}: {c.message}" for c in report.checks if c.status == "hash_only"
    ]
    lines += [f"      · {problem}" for problem in report.problems]
    return lines


def _hash_named(check: ArtifactCheck) -> str:
    """``artifacts[1] (step-output)``, an artifact by its place and kind; the input by its
    name alone (its kind is ``(input)``: ``input ((input))`` said the name twice)."""
    return check.target if check.target == "input" else f"{check.target} ({check.kind})"


def _per_root(
    record_paths: list[RecordTarget],
    details: list[ExecutionDetail],
    wal_targets: list[WalTarget],
    wals: list[WalVerifyReport],
    labels: dict[Path, str],
    manifests: Sequence[tuple[str, bool]] = (),
) -> str:
    """``; a: 55 checked, 7 failed; b: …`` with several roots, else nothing. ``manifests``:
    each bundle's label and whether its manifest's check passed."""
    if not labels:
        return ""
    checked: dict[str, int] = {}
    failed: dict[str, int] = {}
    outcomes = [(path, _record_ok(d)) for (path, _), d in zip(record_paths, details, strict=True)]
    outcomes += [(path, w.ok) for (path, _), w in zip(wal_targets, wals, strict=True)]
    labelled = [(labels.get(path, ""), ok) for path, ok in outcomes]
    for label, ok in [*labelled, *manifests]:
        checked[label] = checked.get(label, 0) + 1
        failed[label] = failed.get(label, 0) + (not ok)
    return "".join(
        f"; {label}: {n} checked, {failed[label]} failed" for label, n in checked.items()
    )


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _current_verdicts(
    bundle: ExtractedBundle, details: list[ExecutionDetail], wals: list[WalVerifyReport]
) -> dict[str, dict[str, object]]:
    """A path inside ``bundle`` -> the verdict now of its file (``Verdict.to_json``): by
    file, not by execution id (a copy of a record added to a bundle holds its id: its
    verdict was said to be the original's)."""
    now: dict[str, dict[str, object]] = {}
    found = [(Path(d.result.path), d.verdict) for d in details]
    found += [(Path(w.path), w.verdict) for w in wals]
    for path, verdict in found:
        if verdict is not None and path.is_relative_to(bundle.directory):
            now[path.relative_to(bundle.directory).as_posix()] = verdict.to_json()
    return now


def _changed_in_bundles(bundles: list[tuple[str, ExtractedBundle]]) -> dict[Path, str]:
    """Each extracted file whose bytes are not the ones its manifest sealed -> why."""
    return {
        bundle.directory / problem.path: problem.detail
        for _, bundle in bundles
        for problem in bundle.problems
        if problem.kind == "changed"
    }


def _bundle_json(path: str, bundle: ExtractedBundle) -> dict[str, object]:
    manifest = bundle.manifest
    return {
        "path": path,
        "ok": bundle.ok,
        "tool_version": manifest.tool_version,
        "created": manifest.created,
        "files": len(manifest.files),
        "problems": [problem.to_json() for problem in bundle.problems],
        "executions": [execution.to_json() for execution in manifest.executions],
    }
