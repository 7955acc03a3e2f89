"""``intentus-tui replay``: print the recorded response. Executes nothing."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from intentus_tui.cli.common import (
    decided_exit,
    dumps_json,
    echo_folded,
    echo_json,
    echo_text,
    fail,
    guarded,
    in_bundle_terms,
    locate_execution,
    read_json_file,
    remote_options,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.actions import (
    NULL_PAYLOAD,
    IntegrityProblem,
    ReplayOutcome,
    ReplayResult,
    load_detail,
    response_recorded,
)
from intentus_tui.core.actions import replay as replay_record
from intentus_tui.core.detail import execution_wal, no_response_of, verdict_of_result
from intentus_tui.core.model import ReplayCode, Verdict
from intentus_tui.core.paths import shown_path
from intentus_tui.core.records.load import LoadResult, LoadStatus, load_record_file
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.timestamps import utc_text

if TYPE_CHECKING:
    from intentus_tui.core.wal.read import WalLog

UNTRUSTED_HEADLINE = "replayed from an untrusted record: investigate before using this answer"
UNCHECKED_HEADLINE = (
    "replayed from a record that cannot be fully checked: treat this answer with care"
)


def _load_envelope(path: str) -> Any:
    """The envelope to check, never None: a file holding ``null``, or a record holding no
    envelope (none written, or not recovered from a damaged one), was no envelope given
    at all: the check was skipped and the response replayed, exit 0."""
    result = load_record_file(Path(path))
    if result.status is LoadStatus.NOT_RECORD or result.record is None:
        # A bare envelope file is not a record: parse it as plain JSON.
        envelope = read_json_file(path, "envelope")
        held = "it holds null, not an envelope"
    else:
        envelope = result.record.envelope  # a whole record: use its envelope
        held = "it is a record that holds no envelope"
    if envelope is None:
        fail(f"cannot read envelope file {shown_path(path)}: {held}: nothing to check")
    return envelope


def _cannot_replay(
    verdict: Verdict | None,
    code: ReplayCode,
    message: str,
    as_json: bool,
    exit_code: int = ExitCode.NOT_REPLAYABLE,
) -> NoReturn:
    """No record to replay (none was written, or the file cannot be read), refused as every
    refusal is: the document alone with ``--json``, else one line on stderr. Its code is the
    verdict's, as ``inspect --list`` gives it (``code`` when there is no verdict), the
    verdict's words first when they say more than ``message`` (a log whose chain breaks:
    untrusted)."""
    if verdict is not None and verdict.replay is not code:
        code, message = verdict.replay, f"{verdict.replay_reason}; {message}"
    decided_exit(exit_code)
    if as_json:
        echo_json({"replayed": False, "replayable": False, "reason": code, "detail": message})
    else:  # as every refusal of replay says it: "not replayable" and the verdict's code
        _refusal(f"not replayable ({code}): {message}")
    raise click.exceptions.Exit(exit_code)


def _unread_file(result: LoadResult, verdict: Verdict | None) -> str:
    """Why a file that holds no record has nothing to replay: the verdict's words (as
    ``inspect`` says them), the file, and what was found there when they do not say it."""
    found = f"{result.path}: {result.message}"
    if verdict is None or verdict.replay is not ReplayCode.RECORD_CORRUPTED:
        return found
    if result.status.not_read or result.status.read_no_record:  # its words say what was
        # found: a link leading nowhere, "the file is empty"
        return f"{verdict.replay_reason} ({result.path})"
    return f"{verdict.replay_reason} ({found})"


def _only_a_log(
    as_json: bool, strict: bool, message: str, exit_code: int, log: Path | None
) -> NoReturn:
    """Known only from its write-ahead log ``log``: refused with that log's verdict; with
    ``strict``, as untrusted first when the log's chain breaks."""
    detail = load_detail(log) if log is not None else None
    if detail is None:
        _cannot_replay(None, ReplayCode.NO_RECORD, message, as_json, exit_code)
    _refuse_untrusted(detail.result, detail.wal, strict, as_json)
    _cannot_replay(detail.verdict, ReplayCode.NO_RECORD, message, as_json, exit_code)


def _refuse_untrusted(result: LoadResult, wal: WalLog | None, strict: bool, as_json: bool) -> None:
    """No record to replay: ``--strict`` refuses it as untrusted (exit 5) before any other
    refusal when a record file there cannot be read or its log's chain breaks."""
    outcome = replay_record(result, strict=strict, wal=wal)
    if outcome.kind == "untrusted":
        _untrusted(outcome.problems, as_json)


def _untrusted(problems: tuple[IntegrityProblem, ...], as_json: bool) -> NoReturn:
    """``--strict``'s refusal: the document alone with ``--json``, else one line."""
    decided_exit(ExitCode.UNTRUSTED)
    if as_json:
        integrity = [problem.to_json() for problem in problems]
        echo_json({"replayed": False, "trusted": False, "integrity": integrity})
    else:
        _refusal(f"integrity in doubt, not replayed (--strict): {_problem_names(problems)}")
    raise click.exceptions.Exit(ExitCode.UNTRUSTED)


def _refusal(text: str) -> None:
    """A refusal in text mode: on stderr, as every error is, so that ``replay X > answer``
    captures only answers."""
    echo_error(sanitize_line(f"intentus-tui: {in_bundle_terms(text)}"))


def _problem_names(problems: tuple[IntegrityProblem, ...]) -> str:
    return "; ".join(problem.summary for problem in problems)


def _headline(outcome: ReplayOutcome) -> str:
    return UNTRUSTED_HEADLINE if outcome.answer_untrusted else UNCHECKED_HEADLINE


def _integrity_line(outcome: ReplayOutcome) -> str:
    """A forced replay that returned nothing: the record's integrity as its verdict says
    it (inspect's words), a WARNING only when the evidence fails its check; no answer to
    warn about."""
    verdict = outcome.verdict
    if verdict is None:
        return "WARNING: integrity: the record fails its integrity check"
    said = f"integrity: {verdict.integrity.value}: {verdict.integrity_reason}"
    return sanitize_line(said if verdict.trusted else f"WARNING: {said}")


def _echo_result(replayed: ReplayResult, path: Path, outcome: ReplayOutcome, nothing: str) -> None:
    """``nothing``: why a forced replay returned no response, when it returned none."""
    recorded = utc_text(replayed.originalTimestamp)
    said = [  # what is said of the replay: folded under its text on a terminal
        sanitize_line(f"replay of {replayed.originalExecutionId or path.name}")
        + (f" (recorded {recorded})" if recorded else " (no recorded time)")
    ]
    if not replayed.response_recorded:  # nothing returned: no answer to warn about
        said.append(sanitize_line(f"nothing replayed: {nothing}"))
        if replayed.untrusted:
            said.append(_integrity_line(outcome))
    elif replayed.untrusted:
        said.append(f"WARNING: {_headline(outcome)}")
    integrity_texts = {problem.text for problem in replayed.integrity}
    for warning in replayed.warnings:
        if not replayed.response_recorded and warning.endswith(NULL_PAYLOAD):
            continue  # why there is no payload: "nothing replayed" said it
        if warning not in integrity_texts:  # forced-replay warnings
            said.append(f"warning: {warning}")
    for problem in replayed.integrity:
        said.append(f"{'note' if problem.benign else 'warning'}: {problem.text}")
    # A forced replay of a record with no final response has no status to show.
    said.append(f"status: {replayed.status or 'none recorded'}")
    echo_folded(sanitize_line(line) for line in said)
    # What was recorded, each one line however long: JSON to copy whole, never folded.
    if replayed.error is not None:
        echo_text(f"error: {dumps_json(replayed.error)}")
    echo_text(f"payload: {dumps_json(replayed.payload)}")
    echo_text(f"metadata: {dumps_json(dict(replayed.metadata))}")


@click.command()
@click.argument("target", metavar="ID|FILE")
@click.option(
    "--dir",
    "directory",
    multiple=True,
    help="Record directory or remote URL for an id (repeatable: LABEL:ID picks a root).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Replay even a non-replayable or untrusted record (with warnings).",
)
@click.option(
    "--envelope", "envelope_file", type=click.Path(), help="Verify this envelope's hash first."
)
@click.option(
    "--strict",
    is_flag=True,
    help=(
        "Refuse (exit 5) to return the response of a record whose integrity is in doubt: "
        "envelope hash mismatch with no benign explanation, unverifiable hash, final "
        "response edited, damaged (or unreadable) record or one filed under another "
        "execution's id, events missing, broken write-ahead log chain or one that cannot "
        "be read (with or without a record to replay). A hash mismatch with a known "
        "benign explanation is not refused."
    ),
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@remote_options
@guarded
def replay(
    target: str,
    directory: tuple[str, ...],
    force: bool,
    envelope_file: str | None,
    strict: bool,
    as_json: bool,
) -> None:
    """Return the recorded response of ID|FILE exactly, without running any agent.

    ID is an execution id or a unique prefix of one. What its verdict calls not replayable
    is refused (exit 3), an untrusted record (tampered, or its log's chain broken) too;
    --force returns it anyway, with the record's integrity problems as warnings
    ("trusted": false in --json); --strict refuses any record with such problems, forced
    or not (exit 5).
    """
    # Known only from its WAL: no recorded response, so not replayable (even with --force).
    path, wal_dir = locate_execution(
        target,
        directory or None,
        allow_wal=False,
        no_record=ExitCode.NOT_REPLAYABLE,
        refuse=partial(_only_a_log, as_json, strict),
    )
    result = load_record_file(path)
    wal = execution_wal(result, wal_dir)
    if result.record is None:
        _refuse_untrusted(result, wal, strict, as_json)
        verdict = verdict_of_result(result, wal)
        message = _unread_file(result, verdict)
        _cannot_replay(verdict, ReplayCode.RECORD_CORRUPTED, message, as_json)
    envelope = _load_envelope(envelope_file) if envelope_file else None
    outcome = replay_record(result, force=force, envelope=envelope, strict=strict, wal=wal)
    if outcome.kind == "refused":
        decided_exit(ExitCode.NOT_REPLAYABLE)
        code, why = outcome.refusal_code, outcome.refusal_text  # as the debugger's pane
        if as_json:
            refusal = {"replayed": False, "replayable": False, "reason": code}
            echo_json({**refusal, "detail": why})
        else:
            # as inspect's verdict line says it: the code, then what it means; --force is
            # advised only where a response was recorded to return (the debugger's rule)
            hint = (
                "use --force to replay anyway"
                if response_recorded(result.record)
                else "nothing to replay: --force returns none"
            )
            _refusal(f"not replayable ({code}): {why} ({hint})")
        raise click.exceptions.Exit(ExitCode.NOT_REPLAYABLE)
    if outcome.kind == "mismatch":
        decided_exit(ExitCode.MISMATCH)
        if as_json:
            echo_json(
                {
                    "replayed": False,
                    "envelope_match": False,
                    "recorded": outcome.recorded,
                    "provided": outcome.provided,
                }
            )
        else:
            _refusal(f"envelope mismatch: recorded {outcome.recorded}, provided {outcome.provided}")
        raise click.exceptions.Exit(ExitCode.MISMATCH)
    if outcome.kind == "untrusted":
        _untrusted(outcome.problems, as_json)
    replayed = outcome.result
    if replayed is None:
        fail(outcome.message)
    # A forced replay that found no final response returned nothing: a script must not take
    # its null payload for an answer.
    done = ExitCode.OK if replayed.response_recorded else ExitCode.NOT_REPLAYABLE
    decided_exit(done)
    if as_json:
        # "replayed" is what stderr says: false when nothing was returned (exit 3).
        echo_json({"replayed": replayed.response_recorded, **replayed.to_json()})
        if not replayed.response_recorded:  # stdout may go to a script: say it here too
            said = f"intentus-tui: nothing replayed: {no_response_of(result, wal)}"
            echo_error(sanitize_line(said))
        elif replayed.untrusted:  # stdout may go to a script: say it where a person looks
            names = _problem_names(replayed.untrusted)
            headline = _headline(outcome)
            echo_error(sanitize_line(f"intentus-tui: {headline} ({names})"))
    else:
        _echo_result(replayed, result.path, outcome, no_response_of(result, wal))
    raise click.exceptions.Exit(done)
