"""``intentus-tui snapshot RECORD [-o FILE]``: pin an execution as a Verist snapshot.

The snapshot (``core.snapshot.snapshot_from_record``) is written atomically to FILE, by default
``<executionId>.snapshot.json`` in the current directory. It is never written into a record
or write-ahead log directory, nor over a record (``cli.output_place``, as ``export -o``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from intentus_tui.cli.common import (
    echo_json,
    echo_text,
    fail,
    guarded,
    locate_execution,
    names_a_file,
    remote_options,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.output_place import Protected, check_output, write_output
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.actions import (
    ExecutionDetail,
    LoadStatus,
    load_detail,
    snapshot_warnings,
)
from intentus_tui.core.paths import shown_path, sibling_wal_dir
from intentus_tui.core.records.store import safe_file_stem
from intentus_tui.core.remote.location import is_remote
from intentus_tui.core.sanitize import json_bytes_safe, sanitize_line
from intentus_tui.core.verist.snapshot import SnapshotError, snapshot_bytes, snapshot_from_record

SNAPSHOT_SUFFIX = ".snapshot.json"


def _target(output: str | None, stem: str, protected: Protected) -> Path:
    target = Path(output) if output else Path.cwd() / f"{stem}{SNAPSHOT_SUFFIX}"
    if target.is_dir():
        fail(f"{shown_path(target)} is a directory: name the snapshot file to write")
    check_output(target, protected, chosen=output is not None)
    return target


@click.command("snapshot")
@click.argument("record")
@click.option(
    "-o", "--output", help="File to write (default: ./<id>.snapshot.json; - for standard output)."
)
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
    path, wal_dir = locate_execution(record, directories or None, allow_wal=False)
    detail = load_detail(path, wal_dir)  # its verdict, as every screen has it
    result = detail.result
    # A file that holds no record to pin, or one that cannot be made a snapshot, is bad
    # data (exit 1, as export's skipped file), not a usage error.
    if result.record is None:
        fail(f"{record}: {result.message}", ExitCode.PROBLEMS)
    try:
        snap = snapshot_from_record(dict(result.record.raw))
        data = snapshot_bytes(snap)  # nested too deeply to write: said here, not exit 2
    except SnapshotError as exc:  # one line: no warning of a snapshot never written
        damaged = result.status is LoadStatus.SALVAGED
        recovered = "what was recovered of the damaged record: " if damaged else ""
        fail(f"{record}: cannot make a snapshot: {recovered}{exc}", ExitCode.PROBLEMS)
    if output == "-":  # the snapshot itself on standard output, as export's -o - writes
        if as_json:
            fail("-o - writes the snapshot itself on standard output: leave out --json")
        out = sys.stdout.buffer
        # The same value, with what a terminal would act on escaped (``\u009b``), as
        # every JSON this command line prints: standard output may be a terminal.
        out.write(json_bytes_safe(data))
        out.flush()
        _warn(detail)
        raise click.exceptions.Exit(ExitCode.OK)
    protected = Protected().add_files([(path, sibling_wal_dir(path))])
    # The roots an id was looked up in: each directory named, else the default one. A file
    # named by its path was read where it is (protected above): the current directory,
    # where the snapshot goes by default, is not a record directory for being where the
    # command ran, nor when the roots named are remote, bundles, or several.
    if not directories and not names_a_file(record):
        protected.add_default(None)
    for spec in directories:
        if not is_remote(spec) and os.path.isdir(spec):
            protected.add_default(spec)
    target = _target(output, safe_file_stem(result), protected)
    write_output(target, [data])
    _warn(detail)  # once it is written: a refused output says that alone
    shown = shown_path(target)
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


def _warn(detail: ExecutionDetail) -> None:
    """What the snapshot just written holds that cannot be believed (a damaged or untrusted
    record)."""
    for warning in snapshot_warnings(detail):
        echo_error(f"intentus-tui: {sanitize_line(warning)}")
