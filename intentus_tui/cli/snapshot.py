"""``intentus-tui snapshot RECORD [-o FILE]``: pin an execution as a Verist snapshot.

The snapshot (``core.snapshot.snapshot_from_record``) is written atomically to FILE, by default
``<executionId>.snapshot.json`` in the current directory. It is never written into the record
directory: a ``*.json`` file there would be listed (and complained about) as a record.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from intentus_tui.cli.common import (
    echo_json,
    echo_text,
    fail,
    guarded,
    locate_record,
    remote_options,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.records.load import LoadStatus, load_record_file
from intentus_tui.core.records.store import safe_file_stem
from intentus_tui.core.remote.location import is_remote
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.verist.snapshot import SnapshotError, save_snapshot, snapshot_from_record

SNAPSHOT_SUFFIX = ".snapshot.json"


def _real_dir(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path.absolute()


def _protected_dirs(record_path: Path, directory: str | None) -> set[Path]:
    """The record's own directory and the record directory of ``--dir`` (or the default)."""
    dirs = {_real_dir(record_path.parent)}
    root = resolve_root(directory).records_dir
    if root.is_dir():
        dirs.add(_real_dir(root))
    return dirs


def _target(output: str | None, stem: str, protected: set[Path]) -> Path:
    target = Path(output) if output else Path.cwd() / f"{stem}{SNAPSHOT_SUFFIX}"
    if target.is_dir():
        fail(f"{target} is a directory: name the snapshot file to write")
    if _real_dir(target.parent) in protected:
        where = "the record directory" if output else "the current directory, a record directory"
        fail(
            f"refusing to write {target.name} into {where} ({target.parent}): "
            "it would be listed as a record; choose another place with -o"
        )
    return target


@click.command("snapshot")
@click.argument("record")
@click.option("-o", "--output", help="File to write (default: ./<id>.snapshot.json).")
@click.option(
    "--dir",
    "directories",
    multiple=True,
    help="Record directory or remote URL for ids (repeatable: LABEL:ID picks a root).",
)
@click.option("--json", "as_json", is_flag=True, help="Print {path, input_hash, artifacts}.")
@remote_options
@guarded
def snapshot(record: str, output: str | None, directories: tuple[str, ...], as_json: bool) -> None:
    """Write a Verist snapshot of RECORD (a record file, an id or a unique prefix of one)
    to compare later runs against."""
    path = locate_record(record, directories or None)
    local = [d for d in directories if not is_remote(d)]
    directory = local[0] if len(local) == 1 and len(directories) == 1 else None
    result = load_record_file(path)
    if result.record is None:
        fail(f"{record}: {result.message}")
    if result.status is LoadStatus.SALVAGED:
        click.echo(
            f"intentus-tui: warning: {sanitize_line(result.message)} "
            "The snapshot holds what was recovered.",
            err=True,
        )
    try:
        snap = snapshot_from_record(dict(result.record.raw))
    except SnapshotError as exc:
        fail(f"{record}: cannot make a snapshot: {exc}")
    target = _target(output, safe_file_stem(result), _protected_dirs(path, directory))
    try:
        written = save_snapshot(snap, target)
    except SnapshotError as exc:
        fail(str(exc))
    shown = os.fspath(written)
    if as_json:
        echo_json(
            {
                "path": shown,
                "input_hash": snap.input_hash,
                "artifacts": [{"kind": a.kind, "hash": a.hash} for a in snap.artifacts],
            }
        )
    else:
        echo_text(sanitize_line(shown))
    raise click.exceptions.Exit(ExitCode.OK)
