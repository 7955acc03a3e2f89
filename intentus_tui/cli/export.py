"""``intentus-tui export``: executions as JSON Lines for other tools.

``--format otlp``: one OTLP ``TracesData`` object per line (``core.export.otlp``), what the
OpenTelemetry Collector's file exporter writes and its ``otlpjsonfile`` receiver reads.
``--format json``: one ``inspect ID --json`` document per line, for jq and pandas, its
``file`` named as an ``inspect --list --json`` row names it (``listed_file``), its log
(``wal.file``) by its name too. With several roots, each line names its root by the
listing's label.

Executions are read one at a time and each line is written as soon as it is made, so a
directory of any size exports in constant memory; an OTLP line's root span events (a huge
record's hundreds of thousands) are written as they are made, so a record of hundreds of
megabytes takes about what reading it takes, not its line again three times over. A file
that holds no execution (one rule for both formats: ``core.export.source.is_exportable``)
or cannot be exported is named on stderr (one line) and skipped; the exit code is then 1.
A directory that holds no execution at all is exit 2, as ``verify`` says "nothing to
verify" there.

The output file is never written into a record or write-ahead log directory, nor over a
record or a log (``cli.output_place``, the check ``snapshot -o`` makes too).
"""

from __future__ import annotations

import itertools
import os
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import click

from intentus_tui.cli.common import (
    fail,
    guarded,
    in_bundle_terms,
    is_bundle_file,
    locate_execution,
    open_many,
    open_root,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.output_place import Protected, check_output, write_output
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.detail import ExecutionDetail
from intentus_tui.core.export.source import ExportTarget, is_exportable, listed_file, targets_in
from intentus_tui.core.paths import RecordRoot, shown_path, tidy_path
from intentus_tui.core.remote.location import is_remote
from intentus_tui.core.roots import root_holding
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.render.json_lines import json_line, json_line_parts

FORMATS = ("otlp", "json")


def _targets(
    targets: tuple[str, ...],
    directories: tuple[str, ...],
    protected: Protected,
    failed_roots: list[str],
) -> Iterable[ExportTarget]:
    """What to export: every execution of a directory (one DIR argument, or none: the
    default location, or each --dir), or the executions the IDs (or files) name, resolved
    before anything is written so that a typo fails at once. ``protected`` learns the
    record and WAL directories read, where the output must not go; ``failed_roots`` the
    roots of several that could not be opened (each named on stderr). A directory that
    holds no execution is exit 2, as ``verify`` has nothing to verify there (with several,
    when none holds one). With several --dir, each execution carries its root's label, as
    ``inspect --list`` labels it."""
    if _roots_named(targets):
        if directories:
            fail("give either directory arguments or --dir, not both")
        if len(targets) == 1:
            return _every_execution([("", open_root(targets[0]))], protected)
        # Several directories named, as verify and inspect --list take them: as --dir each.
        targets, directories = (), targets
    several = len(directories) > 1  # labelled, as inspect --list labels several roots
    # Opened once (remote ones synced once), not again for each ID named in them; beside
    # IDs, roots that all fail leave the IDs to say what cannot be found.
    opened = open_many(directories, others=bool(targets)) if several else []
    roots = [(entry.label, entry.root) for entry in opened if entry.root is not None]
    # Each root that could not be opened is named on stderr and makes the exit 1, also
    # beside IDs found in the others.
    failed_roots += [entry.label for entry in opened if entry.root is None]
    if not targets:
        if several:
            return _every_execution(roots, protected)
        root = open_root(directories[0] if directories else None)
        return _every_execution([("", root)], protected)
    resolved: dict[Path, ExportTarget] = {}  # an execution named twice is exported once
    for target in targets:
        path, wal_dir = locate_execution(target, directories or None, opened=opened or None)
        label = root_holding(tidy_path(path.absolute()), roots) if several else None
        resolved.setdefault(path.absolute(), ExportTarget(path, wal_dir, label or ""))
    protected.add_files((t.path, t.wal_dir) for t in resolved.values())
    return list(resolved.values())


def _roots_named(targets: tuple[str, ...]) -> bool:
    """Whether the arguments name roots, not executions: one directory, or several
    arguments of which one at least is a directory (IDs are named beside --dir, never
    beside a directory): each is then a root, and one that cannot be opened is a root that
    failed, as ``verify`` and ``inspect --list`` say it. An evidence bundle is a root."""
    if len(targets) == 1:
        return os.path.isdir(targets[0]) or is_bundle_file(targets[0])
    return any(os.path.isdir(t) or is_remote(t) or is_bundle_file(t) for t in targets)


def _every_execution(
    roots: list[tuple[str, RecordRoot]], protected: Protected
) -> Iterable[ExportTarget]:
    """Every execution of each (label, root), root after root."""
    for _, root in roots:
        protected.add_root(root)
    found = itertools.chain.from_iterable(targets_in(root, label) for label, root in roots)
    first = next(found, None)
    if first is None:
        where = ", ".join(str(root.requested) for _, root in roots)
        fail(f"nothing to export in {where}: no records (*.json) or WALs (*.wal)")
    return itertools.chain((first,), found)


# A line of an export, in parts: made from an execution and its root's label ("" with one
# root). Its first part is made before it is returned, and holds everything that can fail.
LineMaker = Callable[[ExecutionDetail, str], Iterator[bytes]]


def _otlp_lines() -> LineMaker:
    from intentus_tui import __version__
    from intentus_tui.core.export.otlp import streamed_traces_data

    def make(detail: ExecutionDetail, root: str) -> Iterator[bytes]:
        # The root span's record events and log entries are made as they are written: a
        # record of hundreds of megabytes is a line of hundreds, never held whole.
        mark = f"intentus-events-{uuid.uuid4().hex}"
        doc, events = streamed_traces_data(
            detail, producer_version=__version__, root=root, mark=mark
        )
        parts = iter([json_line(doc)]) if events is None else json_line_parts(doc, mark, events)
        return itertools.chain([next(parts)], parts)

    return make


def _json_lines() -> LineMaker:
    from intentus_tui.core.detail import detail_to_json

    def make(detail: ExecutionDetail, root: str) -> Iterator[bytes]:
        doc = detail_to_json(detail, live=False)  # the same bytes every time
        # The file as an ``inspect --list --json`` row names it (its name within its root,
        # not the path it was read at: the same export wherever the root is, or its
        # mirror), and its log by its name in the root's WAL directory; with several
        # roots, the root first, as a row has it.
        doc["file"] = listed_file(detail)
        wal = doc.get("wal")
        if isinstance(wal, dict) and detail.wal is not None:
            wal["file"] = detail.wal.path.name
        return iter([json_line({"root": root, **doc} if root else doc)])

    return make


class _Export:
    """The lines of an export, and how many executions were exported or skipped. What is
    exported is decided here, once for every format: a file that holds no execution
    (``is_exportable``) is named and skipped, whatever the format would make of it."""

    def __init__(self, targets: Iterable[ExportTarget], make: LineMaker) -> None:
        self.targets = targets
        self.make = make
        self.exported = 0
        self.skipped = 0

    def lines(self) -> Iterator[bytes]:
        for target in self.targets:
            try:
                detail = target.load()
                if not is_exportable(detail):
                    why = detail.result.message or detail.result.status.value
                    self._skip(target, f"nothing to export: {why}")
                    continue
                parts = self.make(detail, target.root)
                first = next(parts)
            except Exception as exc:  # one execution's failure does not lose the others
                self._skip(target, f"cannot export it: {type(exc).__name__}: {exc}")
                continue
            self.exported += 1
            yield first
            yield from parts

    def _skip(self, target: ExportTarget, why: str) -> None:
        self.skipped += 1
        where = sanitize_line(in_bundle_terms(str(target.path)))
        echo_error(f"intentus-tui: skipped {where}: {sanitize_line(why)}")


@click.command()
@click.argument("targets", nargs=-1, metavar="[ID ... | DIR]")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    required=True,
    help="otlp: OpenTelemetry traces (OTLP JSON Lines); json: this tool's own JSON per execution.",
)
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="FILE",
    help="Where to write the JSON Lines (replaced atomically); '-' for standard output.",
)
@click.option(
    "--dir",
    "directories",
    multiple=True,
    help="Record directory (default ./.intentusnet/records or .; repeatable: every root's "
    "executions, LABEL:ID picks a root).",
)
@guarded
def export(targets: tuple[str, ...], fmt: str, output: str, directories: tuple[str, ...]) -> None:
    """Export executions as JSON Lines: OTLP traces or this tool's own JSON.

    With no ID, every execution of DIR (default ./.intentusnet; several DIRs or --dir:
    each root's, each line naming its root) is exported, records and WAL-only executions
    alike, in execution-id order (a record's copies right after it, as inspect --list has
    them). ID is an execution id, a unique prefix of one, or a record file.

    \b
    intentus-tui export --format otlp -o traces.jsonl        # every execution
    intentus-tui export --format otlp 3f2b9c1e -o one.jsonl  # one execution
    intentus-tui export --format json -o - | jq .verdict     # inspect --json, a line each
    """
    to_stdout = output == "-"
    if not to_stdout:
        target = Path(output)
        if target.is_dir():
            fail(f"the output is a directory: {shown_path(output)} (name a file)")
        if not target.parent.is_dir():
            fail(f"no such directory for the output: {shown_path(target.parent)}")
    protected = Protected()  # the record and WAL directories read, as _targets finds them
    failed_roots: list[str] = []
    chosen = _targets(targets, directories, protected, failed_roots)
    if not to_stdout:
        check_output(Path(output), protected)
    job = _Export(chosen, _otlp_lines() if fmt == "otlp" else _json_lines())
    if to_stdout:
        out = sys.stdout.buffer
        for line in job.lines():
            out.write(line)
        out.flush()
    else:
        write_output(Path(output), job.lines())
    where = "standard output" if to_stdout else shown_path(output)
    noun = "execution" if job.exported == 1 else "executions"
    skipped = f", skipped {job.skipped}" if job.skipped else ""
    echo_error(
        f"intentus-tui: exported {job.exported} {noun} ({fmt}) to {sanitize_line(where)}{skipped}"
    )
    problems = job.skipped or failed_roots  # a root that failed is skipped too
    raise click.exceptions.Exit(ExitCode.PROBLEMS if problems else ExitCode.OK)
