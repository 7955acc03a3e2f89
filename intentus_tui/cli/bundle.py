"""``intentus-tui bundle ID ... -o FILE.tar.gz``: an evidence bundle of chosen executions;
and what ``verify`` and the debugger do with one (``intentus-tui verify FILE.tar.gz``,
``intentus-tui FILE.tar.gz``).

A bundle holds each execution's record, its write-ahead log and the snapshots saved of it,
with a manifest (``core.bundle``). Reading one back extracts it into a private temporary
directory (removed afterwards) and refuses anything hostile with one line, exit 1.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import click

from intentus_tui.cli.common import (
    OPENED_BUNDLES,
    echo_json,
    echo_text,
    fail,
    guarded,
    open_root,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.output_place import Protected, check_output
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.bundle.layout import is_bundle_name
from intentus_tui.core.bundle.manifest import Manifest
from intentus_tui.core.bundle.read import BundleError, ExtractedBundle, extract_bundle
from intentus_tui.core.bundle.write import bundle_executions as write_bundle
from intentus_tui.core.bundle.write import copies_left_out
from intentus_tui.core.execution_ids import ExecutionIdError
from intentus_tui.core.paths import RecordRoot, resolve_root, shown_path
from intentus_tui.core.read_only import mark_read_only
from intentus_tui.core.sanitize import quoted, sanitize_line

TEMP_PREFIX = "intentus-bundle-"


def looks_like_bundle(path: str) -> bool:
    """A path that names a bundle file (``.tar.gz``/``.tgz``), not a directory."""
    return is_bundle_name(path) and not os.path.isdir(path)


@contextlib.contextmanager
def extracted(path: str, *, raising: bool = False) -> Iterator[ExtractedBundle]:
    """The bundle ``path`` extracted into a private temporary directory, removed when the
    block ends. A hostile or unreadable bundle: one line on stderr, exit 1 (``raising``:
    its ``BundleError``, for a caller with more to do)."""
    directory = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX))  # mode 0700: ours alone
    try:
        try:
            bundle = extract_bundle(path, directory)
        except BundleError as exc:
            if raising:
                raise
            fail(str(exc), ExitCode.PROBLEMS)
        yield bundle
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def opened_bundle(path: str) -> RecordRoot:
    """The bundle ``path`` as a root for the running command (``inspect``, ``diff``,
    ``replay``, ``export``), as the debugger opens it: extracted once into a private
    temporary directory removed when the command ends, read-only (nothing is written into
    it, nor into the index cache for it). A bundle whose files differ from its manifest is
    said on stderr, as the debugger's header says it; a hostile or unreadable one is one
    line, exit 1."""
    from intentus_tui.cli.open import bundle_label

    root, bundle = _extracted_once(path, raising=False)
    if bundle is not None and not bundle.ok:
        echo_error(f"intentus-tui: note: {sanitize_line(bundle_label(bundle, path))}")
    return root


def bundle_among_roots(path: str) -> tuple[RecordRoot | None, str | None]:
    """The bundle ``path`` as one of several roots (``core.roots.BundleOpener``): its
    read-only copy, removed when the command (or the debugger) ends, and what in it differs
    from its manifest; or None and why it cannot be read, while the other roots load."""
    from intentus_tui.cli.open import bundle_note

    try:
        root, bundle = _extracted_once(path, raising=True)
    except BundleError as exc:
        return None, sanitize_line(str(exc))
    note = bundle_note(bundle) if bundle is not None else None
    return root, None if note is None else f"bundle {Path(path).name}: {note}"


def _extracted_once(path: str, *, raising: bool) -> tuple[RecordRoot, ExtractedBundle | None]:
    """The running command's read-only root of the bundle ``path``, extracted on its first
    use (then also the bundle; None after: what it said was said)."""
    ctx = click.get_current_context()
    opened: dict[str, tuple[str, RecordRoot]] = ctx.meta.setdefault(OPENED_BUNDLES, {})
    key = os.path.realpath(path)
    if key in opened:
        return opened[key][1], None
    bundle = ctx.with_resource(extracted(path, raising=raising))
    opened[key] = (path, bundle_root(bundle, path))
    return opened[key][1], bundle


def bundle_root(bundle: ExtractedBundle, path: str) -> RecordRoot:
    """The extracted bundle as a read-only record root."""
    mark_read_only(bundle.directory, f"a bundle ({Path(path).name}), opened read-only")
    return resolve_root(bundle.directory)


def manifest_lines(bundle: ExtractedBundle, path: str) -> list[str]:
    """What ``verify`` says of the files against the manifest."""
    manifest = bundle.manifest
    count = len(manifest.files)
    made = f"made by intentus-tui {manifest.tool_version} at {manifest.created}"
    name = Path(path).name
    if bundle.ok:
        files = "1 file matches its" if count == 1 else f"{count} files match their"
        return [f"ok    {name}  manifest: {files} sha256 ({made})"]
    problems = f"{len(bundle.problems)} problem{'' if len(bundle.problems) == 1 else 's'}"
    lines = [
        f"FAIL  {name}  manifest: {problems} ({count} file{'' if count == 1 else 's'}; {made})"
    ]
    return lines + [f"      - {problem.line()}" for problem in bundle.problems]


def bundled_verdict_notes(bundle: ExtractedBundle, now: dict[str, dict[str, object]]) -> list[str]:
    """Where an execution's verdict now differs from the one the manifest recorded
    (``now``: by the path of its record, or of its log, inside the bundle)."""
    notes = []
    for execution in bundle.manifest.executions:
        then = execution.verdict
        current = now.get(execution.record or "") or now.get(execution.wal or "")
        if then is None or current is None:
            continue
        keys = ("outcome", "integrity", "replay")
        if any(then.get(k) != current.get(k) for k in keys):
            was = ", ".join(f"{k} {then.get(k)}" for k in keys)
            is_ = ", ".join(f"{k} {current.get(k)}" for k in keys)
            notes.append(f"      · {execution.execution_id}: bundled as {was}; now {is_}")
    return notes


def _source_date() -> datetime | None:
    """``SOURCE_DATE_EPOCH`` (the reproducible-builds convention), when set: the bundle's
    creation time, so the same files make a byte-identical bundle."""
    value = os.environ.get("SOURCE_DATE_EPOCH")
    if not value:
        return None
    try:
        return datetime.fromtimestamp(int(value), UTC)
    except (ValueError, OverflowError, OSError):
        fail(f"SOURCE_DATE_EPOCH must be a whole number of seconds (got {value!r})")


def _note_left_out(root: RecordRoot, manifest: Manifest, ids: tuple[str, ...]) -> None:
    """A note on stderr for each execution bundled whose copies (other files that record
    it) the bundle does not hold: not all its evidence is in it, and how to add them."""
    for execution_id, names in copies_left_out(root, manifest).items():
        files = ", ".join(names)
        which = "which also records" if len(names) == 1 else "which also record"
        again = " ".join(shlex.quote(part) for part in (*ids, *names))
        echo_error(
            sanitize_line(
                f"intentus-tui: note: not bundled: {files}, {which} execution "
                f"{quoted(execution_id)} (name each file to bundle it too, as: bundle {again})"
            )
        )


def _note_no_record(manifest: Manifest) -> None:
    """A note on stderr for each execution bundled whose file holds no whole record (damaged,
    empty, not a record): it is packed as it is, evidence too, but the count's "record" is
    a file that could not be read as one."""
    for execution in manifest.executions:
        verdict = execution.verdict or {}
        if verdict.get("replay") != "record_corrupted" or verdict.get("outcome") != "unknown":
            continue
        why = verdict.get("outcome_reason") or "the file holds no whole record"
        echo_error(
            sanitize_line(
                f"intentus-tui: note: {quoted(execution.execution_id)} packed as it is, "
                f"outcome unknown: {why}"
            )
        )


@click.command("bundle")
@click.argument("ids", nargs=-1, required=True)
@click.option(
    "--dir",
    "directories",
    multiple=True,
    help="Record directory for ids (default: as the debugger; one: a bundle holds one root).",
)
@click.option("-o", "--output", required=True, help="The bundle to write (FILE.tar.gz).")
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
@guarded
def bundle(ids: tuple[str, ...], directories: tuple[str, ...], output: str, as_json: bool) -> None:
    """Pack executions IDS (whole ids or unique prefixes) into an evidence bundle: each one's
    record, write-ahead log and saved snapshots, with a manifest (sha256 of each file, the
    tool's version, the verdicts now). Check it with `intentus-tui verify FILE.tar.gz`;
    open it read-only with `intentus-tui FILE.tar.gz`. With SOURCE_DATE_EPOCH set, the same
    files make a byte-identical bundle."""
    if len(directories) > 1:  # taking the last one silently left the others' ids unfound
        fail("a bundle holds the executions of one root: give one --dir")
    # A bundle is evidence as it was sealed: not the source of another one.
    root = open_root(directories[0] if directories else None, bundle=False)
    target = Path(output)
    if target.is_dir():
        fail(f"{shown_path(output)} is a directory: name the bundle file to write")
    if not is_bundle_name(target.name):
        fail(f"name the bundle FILE.tar.gz or FILE.tgz (got {target.name})")
    # Never among the records or logs it is made of, nor over one: the evidence stays as it was.
    check_output(target, Protected().add_root(root))
    try:
        manifest = write_bundle(root, ids, target, created=_source_date())
    except ExecutionIdError as exc:
        fail(str(exc))
    except BundleError as exc:  # an execution named whose file cannot be read
        fail(str(exc), ExitCode.PROBLEMS)
    except OSError as exc:  # the output: named, not the temporary file beside it
        fail(f"cannot write {shown_path(output)}: {(exc.strerror or str(exc)).lower()}")
    _note_left_out(root, manifest, ids)
    _note_no_record(manifest)
    if as_json:
        echo_json({"path": os.fspath(target), **manifest.to_json()})
    else:
        sections = {"records": 0, "wal": 0, "snapshots": 0}
        for entry in manifest.files:
            sections[entry.path.split("/", 1)[0]] += 1
        counts = [
            (len(manifest.executions), "execution"),
            (sections["records"], "record"),
            (sections["wal"], "WAL"),
            (sections["snapshots"], "snapshot"),
        ]
        what = ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in counts)
        echo_text(f"{sanitize_line(os.fspath(target))}: {what}")
    raise click.exceptions.Exit(ExitCode.OK)
