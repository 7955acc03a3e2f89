"""``intentus-tui inspect``: list executions, or the post-mortem view of one."""

from __future__ import annotations

import io
import os
import shlex
import shutil
import sys
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import click
from rich.cells import cell_len

from intentus_tui.cli.common import (
    dumps_json,
    echo_folded,
    echo_json,
    echo_text,
    fail,
    guarded,
    in_a_bundle,
    json_started,
    locate_execution,
    open_many,
    open_root,
    print_table,
    remote_options,
    stdout_is_tty,
    terminal_columns,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.stderr import echo_error

if TYPE_CHECKING:
    from intentus_tui.core.detail import ExecutionDetail
    from intentus_tui.core.postmortem import PostMortem
    from intentus_tui.core.records.timeline import FallbackStep
from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.index.scan import RowBlock, RowPlaces
from intentus_tui.core.model import ExecutionSummary, ReplayCode, break_label, outcome_words
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.verify import hash_words
from intentus_tui.core.remote.location import is_remote
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.shared_ids import SharedIds
from intentus_tui.core.timestamps import time_order, utc_text
from intentus_tui.core.verdict import claimed_chain, claims_only, cut_short_by_writer, verdict_of
from intentus_tui.render.listing_order import open_time_ordered, write_time_ordered
from intentus_tui.render.rows import LISTING_ROWS, listing_counts
from intentus_tui.render.table import Fitting, short_ids


def _list_rows(
    summaries: list[ExecutionSummary], with_wal: bool, with_root: bool = False
) -> list[list[str]]:
    """The text table, oldest first (as the JSON listing), times in UTC to the second.

    When an execution id is found in more than one file (a copy of a record keeps the id
    inside it), a FILE column names the file of each of those rows ("-" on the others)."""
    shared = SharedIds(summaries)
    header = ["EXECUTION", "FILE"] if shared else ["EXECUTION"]
    header += ["CREATED", "INTENT", "OUTCOME", "INTEGRITY", "REPLAY", "EVENTS", "ATTEMPTS"]
    header = ["ROOT", *header] if with_root else header
    rows = [[*header, "WAL"] if with_wal else header]
    # Rows of one time and id (a record and its copies): the original, then its copies by
    # name, as in --json (``copy_rank``).
    for s in sorted(
        summaries, key=lambda s: (time_order(s.created, s.execution_id), s.copy_rank, s.key)
    ):
        verdict = verdict_of(s)
        row = [s.root] if with_root else []
        row.append(s.execution_id)
        if shared:
            row.append(sanitize_line(s.file_name) if s in shared else "-")
        row += [
            utc_text(s.created) or "-",
            s.intent or "-",
            verdict.outcome_words,
            verdict.integrity.value,
            "yes" if verdict.replayable else f"no ({verdict.replay.value})",
            str(s.event_count),
            str(s.attempts),
        ]
        if with_wal:
            row.append(_wal_column(s))
        rows.append(row)
    return rows


def _list_many(specs: list[str], as_json: bool, no_cache: bool) -> ExitCode:
    """The merged listing of several roots: a ROOT column, counts per root; a root that
    cannot be opened (or not wholly) is named on stderr (one line) and the others are
    listed, and the exit code says the list is not whole (1), as verify's and export's."""
    from intentus_tui.core.index.multi import MultiIndex

    opened = open_many(specs)
    code = ExitCode.OK if all(entry.whole for entry in opened) else ExitCode.PROBLEMS
    working = [(entry.label, entry.root) for entry in opened if entry.root is not None]
    index = MultiIndex(working, use_cache=not no_cache, rows=LISTING_ROWS)
    summaries = index.scan()
    per_root = index.per_root
    if as_json:
        head = {
            "roots": [
                {
                    "label": entry.label,
                    "location": entry.spec,
                    "directory": str(entry.root.records_dir) if entry.root else None,
                    "executions": per_root.get(entry.label, 0) if entry.root else None,
                    "problem": entry.problem,
                    "read_only": entry.read_only is not None,
                }
                for entry in opened
            ],
            "counts": listing_counts(summaries),
        }
        ordered = sorted(
            summaries, key=lambda s: (time_order(s.created, s.execution_id), s.copy_rank)
        )
        text = dumps_json(head).rstrip().removesuffix("}").rstrip()
        out = sys.stdout.buffer
        json_started()
        out.write(text.encode("utf-8") + b',\n  "executions": [')
        lines = [LISTING_ROWS.row(s) for s in ordered]
        out.write((b"\n" + b",\n".join(lines) + b"\n  ]\n}\n") if lines else b"]\n}\n")
        out.flush()
        return code
    with_wal = any(entry.root.wal_dir is not None for entry in opened if entry.root)
    rows = _list_rows(summaries, with_wal, with_root=True)
    parts = [
        f"{entry.label} {per_root.get(entry.label, 0)}"
        if entry.root is not None
        else f"{entry.label} failed"
        for entry in opened
    ]
    counts = sanitize_line(
        f"{len(summaries)} executions in {len(opened)} root{'s' if len(opened) != 1 else ''}: "
        + ", ".join(parts)
    )
    # Above the table for a person; piped, the table alone goes to the program (its header
    # first, as one root's), and the counts to stderr.
    if stdout_is_tty():
        echo_text(counts)
    else:
        echo_error(f"intentus-tui: {counts}")
    _print_listing(rows, [entry.label for entry in opened])
    return code


# On a terminal too narrow for the whole table: the least telling columns go first, and
# an intent, a file or a root label is cut before the verdict loses a word.
LEFT_OUT_FIRST = ("ATTEMPTS", "EVENTS", "WAL", "CREATED", "INTENT")
# An id that is no UUID is cut only as the debugger's id column cuts it (16 cells): what
# is left of it is a prefix that ``inspect`` still finds when no other id shares it.
CUT_TO = {"INTENT": 12, "FILE": 12, "ROOT": 8, "WAL": 12, "EXECUTION": 16}
# When even the words said shorter are not enough: a file name below its least width,
# cut in its middle (``e…runc.json``: the end tells copies apart, the id is beside it).
SQUEEZE_TO = {"FILE": 8}
# When nothing is left to leave out, the REPLAY column's reasons said in their telling word
# (the last line names each with its code, which --json and a pipe keep whole): at 80
# columns, "no (manually_invalidated)" wrapped the rows of a table with a FILE column.
REPLAY_SAID_SHORTER = {
    ReplayCode.EXECUTION_INCOMPLETE.value: "incomplete",
    ReplayCode.RECORDING_FAILURE.value: "rec. failure",
    ReplayCode.MANUALLY_INVALIDATED.value: "invalidated",
    ReplayCode.MARKED_NOT_REPLAYABLE.value: "marked",
    ReplayCode.RECORD_CORRUPTED.value: "corrupted",
}


def _several_targets(targets: Sequence[str]) -> str:
    """Why ``inspect`` takes one ID or FILE, and, when the others name directories (as
    ``--list ROOT`` takes them), the command that looks the id up in them."""
    first, *others = targets
    if all(os.path.isdir(other) or is_remote(other) for other in others):
        dirs = " ".join(f"--dir {shlex.quote(other)}" for other in others)
        return sanitize_line(
            f"give one ID or FILE; a directory to look in goes after --dir: "
            f"intentus-tui inspect {shlex.quote(first)} {dirs}"
        )
    return "give one ID or FILE (or --list with several roots)"


def _print_listing(rows: list[list[str]], roots: Sequence[str] = ()) -> None:
    # UUIDs by the prefixes no other id shares, which ``inspect PREFIX`` finds. Several
    # roots' ROOT column goes last, and its rows then stand under their root's name.
    column = rows[0].index("EXECUTION")
    ids = short_ids(row[column] for row in rows[1:])
    fitting = Fitting(
        shorten={"EXECUTION": ids},
        flexible=CUT_TO,
        leave_out=(*LEFT_OUT_FIRST, "ROOT"),
        group_by="ROOT",
        group_order=roots,
        abbreviate={"REPLAY": REPLAY_SAID_SHORTER},
        cut_middle=frozenset({"FILE"}),  # copies of a record differ at their names' end
        # last of all, so that 80 columns hold the rows (81 cells: a FILE column, an id
        # shown as exec-..., "unknown (untrusted)", "unverifiable", "no (rec. failure)")
        squeeze=SQUEEZE_TO,
    )
    print_table(rows, echo_text, fitting)


def _wal_column(s: ExecutionSummary) -> str:
    """What the WAL says, in a few words (the INTEGRITY column says whether to believe it)."""
    if s.wal_state is None:
        return "-"
    if s.wal_chain_ok is False:  # its claim is untrusted; the full story is in inspect ID
        return f"{s.wal_state} (claimed; chain broken)"
    return f"{s.wal_state} ({s.wal_problem})" if s.wal_problem else s.wal_state


def _echo_listing_json(
    root: RecordRoot,
    counts: dict[str, int],
    rows: Iterable[bytes] | Iterable[RowBlock] | io.BufferedReader,
) -> None:
    """One JSON document, one execution per line. ``rows`` are blocks of lines to be put
    in time order (``write_time_ordered``), or an open file of them in that order already
    (copied to the output by the kernel, never read here; closed after)."""
    head = {
        "directory": str(root.records_dir),
        "wal_directory": str(root.wal_dir) if root.wal_dir else None,
        "counts": counts,
    }
    text = dumps_json(head).rstrip().removesuffix("}").rstrip()
    out = sys.stdout.buffer
    json_started()
    out.write(text.encode("utf-8") + b',\n  "executions": [')
    if isinstance(rows, io.BufferedReader):
        with rows:
            if os.fstat(rows.fileno()).st_size:
                out.write(b"\n")
                out.flush()
                _copy_file_to(rows, out)
                out.write(b"\n  ]\n}\n")
            else:
                out.write(b"]\n}\n")
    else:
        any_row = write_time_ordered(out, rows)
        out.write(b"\n  ]\n}\n" if any_row else b"]\n}\n")
    out.flush()


def _copy_file_to(source: io.BufferedReader, out: BinaryIO) -> None:
    offset = 0
    try:  # the kernel copies: 50 MB of rows never pass through Python
        size = os.fstat(source.fileno()).st_size
        while offset < size:
            sent = os.sendfile(out.fileno(), source.fileno(), offset, size - offset)
            if not sent:
                break
            offset += sent
        return
    except (OSError, AttributeError, io.UnsupportedOperation):
        pass  # not a real file descriptor (or no sendfile): copy what is left here
    source.seek(offset)
    shutil.copyfileobj(source, out)


def verdict_lines(verdict: object) -> list[str]:
    """The verdict section of ``inspect ID`` from ``detail_to_json``'s ``verdict`` block
    (records and WAL-only executions alike): each answer, then its reason. It is the one
    place ``inspect`` says whether the execution can be replayed."""
    if not isinstance(verdict, dict):
        return ["verdict     none: the file could not be read as an execution"]
    replay = "yes" if verdict["replayable"] else f"no ({verdict['replay']})"
    return [
        "verdict",
        f"  outcome     {outcome_words(verdict['outcome'], verdict['integrity'])}: "
        f"{verdict['outcome_reason']}",
        f"  integrity   {verdict['integrity']}: {verdict['integrity_reason']}",
        f"  replayable  {replay}: {verdict['replay_reason']}",
    ]


EVENT_LINES_SHOWN = 1000  # a text listing; --json lists every timed event


def time_lines(
    detail: ExecutionDetail, width: int = 80, events_width: int | None = None
) -> list[str]:
    """When it started, each attempt's duration and each event's time (a dash where none
    was recorded), or that nothing recorded a time. ``width``: the columns an attempt's
    row is laid out in (80, or a narrower terminal's); ``events_width``: a terminal's,
    where the event rows are laid out narrower when one is wider (None: one line each)."""
    from intentus_tui.core.records.times import (
        NO_TIME,
        clock_text,
        duration_text,
        offset_text,
    )

    times = detail.times
    if times is None or not times.known:
        return ["times       none recorded: the events carry none and no WAL joins them"]
    now = datetime.now(UTC)
    lines = [f"started     {clock_text(times.origin)} ({times.origin_source})"]
    total = times.total
    if total:
        lines.append(f"last time   {clock_text(times.last)} (+{duration_text(total)})")
    if times.attempts:
        lines.append("attempt times")
    # As wide as the longest agent's name (20 at least, 40 at most): a longer name pushed
    # its row's status and times out of line with the others.
    agents = max([20, *(min(len(a.agent), 40) for a in times.attempts)])
    for a in times.attempts:
        open_for = a.open_for(now)
        if open_for is not None:
            took = f"open {duration_text(open_for)} (in flight)"
        elif a.duration is not None:
            took = f"{duration_text(a.duration)} ({a.duration_source})"
        else:
            took = NO_TIME
        span = f"{offset_text(a.start_offset)} → {offset_text(a.end_offset)}"
        lines.extend(_attempt_row(a.number, a.agent, agents, a.status, span, took, width))
    rows = _row_texts(detail)
    if rows:
        lines.append("event times")
    events = []
    for index, (seq, kind) in enumerate(rows[:EVENT_LINES_SHOWN]):
        known = times.event_time(index)
        at = clock_text(known.at) if known else NO_TIME
        source = f"  ({known.source})" if known else ""
        events.append((f"  #{seq:<5} {offset_text(times.offset(index)):>8}", at, kind, source))
    lines.extend(_event_rows(events, events_width))
    if len(rows) > EVENT_LINES_SHOWN:
        lines.append(f"  … {len(rows) - EVENT_LINES_SHOWN:,} more events (--json lists every time)")
    return lines


# Where a folded event row's time goes, the first that fits: under its type, under its
# offset, under its ``#``.
TIME_INDENTS = (19, 9, 4)


def _event_rows(events: list[tuple[str, str, str, str]], width: int | None) -> list[str]:
    """The ``event times`` rows from (``  #seq offset``, time, type, source): one line
    each; on a terminal too narrow for one of them, each row's offset and type on its
    first line, its time and source under them (none when no time was recorded), at one
    indent for every row. Folded by the terminal, a 40-column row took three lines
    (``#7 +0.000s``, its time, its type) and the column read as one ragged list."""
    from intentus_tui.core.records.times import NO_TIME

    wide = [f"{head}  {at:<24}  {kind}{source}" for head, at, kind, source in events]
    if width is None or all(cell_len(sanitize_line(row)) <= width for row in wide):
        return wide
    details = [f"{at}{source}" for head, at, _, source in events if at != NO_TIME or source]
    longest = max((cell_len(sanitize_line(d)) for d in details), default=0)
    indent = next((i for i in TIME_INDENTS if i + longest <= width), TIME_INDENTS[-1])
    lines: list[str] = []
    for head, at, kind, source in events:
        lines.append(f"{head}  {kind}")
        if at != NO_TIME or source:
            lines.append(f"{'':{indent}}{at}{source}")
    return lines


ROW_WIDTH = 80  # an attempt's row folds past this: a terminal would wrap it mid-column


def _attempt_row(
    number: int, agent: str, agents: int, status: str, span: str, took: str, width: int
) -> list[str]:
    """An attempt's row of ``attempt times``, folded where it would not fit ``width``
    columns: its time (``open 328d14h (in flight)``) on the next line under its span (or,
    where that is too narrow, under its status); with an agent's name too long for the
    row, the name alone on the first line. Laid out at the width it is shown in: folded
    at 80 and then again at a narrower terminal's, its time was cut in two."""
    head = f"  {number:>3} {agent:<{agents}} {status:<9}"
    row = f"{head} {span:<20} {took}"
    if cell_len(sanitize_line(row)) <= width:
        return [row]
    if cell_len(sanitize_line(f"{head} {span}")) > width:
        head = f"  {number:>3} {agent}"
        return [head, f"{'':6}{status:<9} {span:<20} {took}"]
    under = cell_len(sanitize_line(head)) + 1
    if under + cell_len(sanitize_line(took)) > width:
        under = 6  # as a row whose name stands alone: its time whole on a line
    return [f"{head} {span}", f"{'':{under}}{took}"]


def _row_texts(detail: ExecutionDetail) -> list[tuple[str, str]]:
    """(seq, type) of each timeline row: the record's events, or the WAL's entries."""
    record = detail.result.record
    if record is not None:
        return [("" if e.seq is None else str(e.seq), sanitize_line(e.type)) for e in record.events]
    if detail.wal is not None:
        return [(str(e.seq), sanitize_line(e.entry_type)) for e in detail.wal.entries]
    return []


def _claimed(detail: ExecutionDetail) -> str:
    """After the record's status, when the evidence fails its integrity check."""
    untrusted = claims_only(detail.verdict) and detail.timeline is not None
    return " (claimed; not believed: see the verdict)" if untrusted else ""


def _detail_text(detail: ExecutionDetail) -> None:
    from intentus_tui.core.detail import detail_to_json
    from intentus_tui.core.reconcile import from_log

    doc = detail_to_json(detail)
    status = f"{doc['status']}{_claimed(detail)}"
    if detail.timeline is None and detail.result.status.not_read:  # not damaged: not read
        # As verify says it ("corrupted"); "not read: Cannot read: …" said it twice.
        status = f"not read: {detail.result.why_not_read}"
    # Its writer's own cut (IntentusNet 1.3.0's error records) is not damage: as its verdict
    cut_by_writer = detail.summary is not None and cut_short_by_writer(detail.summary)
    if cut_by_writer:
        status += " (most likely cut short by its writer)"
    lines = [
        f"execution   {doc['execution_id']}",
        f"file        {doc['file']}",
        f"status      {status}",
    ]
    lines.extend(verdict_lines(doc["verdict"]))
    if doc["intent"]:
        lines.append(f"intent      {doc['intent']}")
    if doc["created"]:
        lines.append(f"created     {utc_text(str(doc['created']))}")
    hash_doc = doc["hash"]
    if isinstance(hash_doc, dict):
        lines.append(f"hash        {hash_words(detail.verify)}: {hash_doc['explanation']}")
    if detail.timeline is not None:
        none = "(none in what was recovered)" if doc["salvage"] else "(no attempts recorded)"
        logged = [a.number for a in detail.timeline.attempts if a.log_start_seq is not None]
        after = (
            f"  (from attempt {logged[0]} on, the write-ahead log's: the record stops before)"
            if logged
            else ""
        )
        chain = claimed_chain(detail.timeline.chain, detail.verdict)  # as the Post-mortem
        lines.append(f"agents      {chain or none}{after}")
        lines.extend(_fallback_lines(detail.timeline.fallbacks))
        last = detail.timeline.last_event
        if last is not None:
            lines.append(f"last event  #{last.seq} {last.type} {last.summary}")
        for attempt in detail.timeline.in_flight:
            started = from_log(attempt) or f"started at seq {attempt.start_seq}"
            lines.append(f"in flight   {attempt.agent} ({started}; never ended)")
    columns = terminal_columns()
    lines.extend(time_lines(detail, min(ROW_WIDTH, columns or ROW_WIDTH), columns))
    damage = detail.result.damage
    if damage is not None:
        lines.append(f"{break_label(detail.result.message).lower():<12}{damage.describe()}")
        recovered = ", ".join(detail.result.recovered) or "nothing whole"
        partial = f"; partial: {', '.join(detail.result.partial)}" if detail.result.partial else ""
        lines.append(f"recovered   {recovered}{partial}")
    for problem in detail.verify.problems:
        lines.append(f"problem     {problem}")
    structure = detail.verify.structure
    for note in structure.notes if structure is not None else ():
        lines.append(f"note        {note}")
    if detail.wal is not None:
        lines.append(f"wal         {detail.wal.message}")
    pm = detail.postmortem
    post_mortem = len(lines)
    if pm is not None and (pm.state != "completed" or pm.disagreements or pm.untrusted):
        lines.append("post-mortem")
        if pm.untrusted is not None:  # the verdict first: nothing claimed below is believed
            lines.append(f"  untrusted        {pm.untrusted}")
            lines.extend(_hint_lines(pm))
        lines.append(f"  last event       {pm.last_event or '(none recorded)'}")
        for number, item in enumerate(pm.in_flight):
            # The class is the log's step's: on its line only, never on another agent's.
            effect = pm.side_effect if number == pm.side_effect_at else None
            lines.append(
                f"  in flight        {item}" + (f" [side effect: {effect}]" if effect else "")
            )
        for item in pm.completed_before:  # ended, each with its status (a failed one too)
            lines.append(f"  ended before     {item}")
        if pm.chain_break is not None and pm.untrusted is None:  # else said first already
            lines.append(f"  chain break      {pm.chain_break.summary}")
        for item in pm.disagreements:
            lines.append(f"  disagreement     {item}")
        if pm.untrusted is None:
            lines.extend(_hint_lines(pm))
    # One line each, even for a file name with a newline; on a terminal, folded under the
    # value (the post-mortem's under its column, the one its labels align to).
    echo_folded(sanitize_line(line) for line in lines[:post_mortem])
    echo_folded((sanitize_line(line) for line in lines[post_mortem:]), POST_MORTEM_COLUMN)


POST_MORTEM_COLUMN = 19  # where the post-mortem's values begin: ``  last event       #5``


def _fallback_lines(fallbacks: Sequence[FallbackStep]) -> list[str]:
    """How many fallbacks there were, and which only the write-ahead log has (the record
    stops before them): the chain alone does not say a fallback was triggered."""
    if not fallbacks:
        return []
    logged = [f"WAL #{f.log_seq}" for f in fallbacks if f.log_seq is not None]
    where = ""
    if logged:
        which = "" if len(logged) == len(fallbacks) else f"{len(logged)} "
        where = f"  ({which}the write-ahead log's: {', '.join(logged)}; the record stops before)"
    return [f"fallbacks   {len(fallbacks)}{where}"]


def _hint_lines(pm: PostMortem) -> list[str]:
    return [
        f"  hint             {pm.hint.verdict.replace('_', ' ')}: {pm.hint.reason}",
        "                   (a hint from what was recorded, not a decision)",
    ]


@click.command()
@click.argument("targets", nargs=-1, metavar="[ID|FILE] | --list [ROOT ...]")
@click.option(
    "--list", "list_mode", is_flag=True, help="List every execution in the roots, oldest first."
)
@click.option(
    "--dir",
    "directories",
    multiple=True,
    help="Record directory or remote URL (repeatable; default ./.intentusnet/records or .).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the persistent index cache.")
@remote_options
@guarded
def inspect(
    targets: tuple[str, ...],
    list_mode: bool,
    directories: tuple[str, ...],
    as_json: bool,
    no_cache: bool,
) -> None:
    """List executions (--list [ROOT ...]) or show one execution's post-mortem.

    A ROOT is a directory or a remote URL (ssh://[user@]host[:port]/path, s3://bucket/prefix).
    ID is an execution id or any prefix of one that no other id shares (the debugger
    shows the first 8 characters); an execution known only from its write-ahead log
    counts too. With several roots, LABEL:ID names it in one root.
    """
    if list_mode or not targets:
        specs = [*directories, *targets] if list_mode else list(directories)
        if len(specs) > 1:
            raise click.exceptions.Exit(_list_many(specs, as_json, no_cache))
        root = open_root(specs[0] if specs else None)
        # A bundle's copy is gone when the command ends: nothing of it is cached.
        use_cache = not no_cache and not in_a_bundle(root)
        index = DirectoryIndex(root, use_cache=use_cache, keep_rows=as_json, rows=LISTING_ROWS)
        if as_json:
            # The rows come ready-made (from the cache, or from the workers) in file-name
            # order; they are put in time order here, without decoding them.
            copies: list[io.BufferedReader | None] = []  # the just-written rows, ordered

            def order_copy(rows_file: Path, places: RowPlaces) -> None:
                copies.append(open_time_ordered(rows_file, places))

            cached = index.fresh_listing_json()
            if cached is None and (filled := index.filled_listing_json(order_copy)) is not None:
                counts, rows_file, _ = filled
                cached = counts, rows_file
            ready = cached or index.listing_json()
            blocks: Iterable[bytes] | Iterable[RowBlock] | Path
            if ready is not None:
                counts, blocks = ready
            else:
                counts, blocks = listing_counts(index.scan()), index.listing_lines()
            made: Iterable[bytes] | Iterable[RowBlock]
            if isinstance(blocks, Path):  # the cache's rows: their ordered copy (or them)
                early = copies[0] if copies else None  # made beside the cache's commit
                ordered = early if early is not None else open_time_ordered(blocks)
                made = [] if ordered is not None else [blocks.read_bytes()]
            else:
                ordered, made = None, blocks
            _echo_listing_json(root, counts, ordered or made)
        else:
            rows = _list_rows(index.scan(), root.wal_dir is not None)
            _print_listing(rows)
            if len(rows) == 1:
                echo_text(sanitize_line(f"(no records in {root.records_dir})"))
        raise click.exceptions.Exit(ExitCode.OK)
    from intentus_tui.core.actions import load_detail  # one execution only
    from intentus_tui.core.detail import detail_to_json

    if len(targets) > 1:
        fail(_several_targets(targets))
    path, wal_dir = locate_execution(targets[0], directories or None)
    detail = load_detail(path, wal_dir)
    if as_json:
        echo_json(detail_to_json(detail))
    else:
        _detail_text(detail)
