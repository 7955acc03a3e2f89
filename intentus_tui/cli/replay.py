"""``intentus-tui replay``: print the recorded response. Executes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from intentus_tui.cli.common import (
    dumps_json,
    echo_json,
    echo_text,
    fail,
    guarded,
    locate_record,
    read_json_file,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.actions import replay as replay_record
from intentus_tui.core.records.load import LoadStatus, load_record_file
from intentus_tui.core.timestamps import utc_text


def _load_envelope(path: str) -> Any:
    result = load_record_file(Path(path))
    if result.status is LoadStatus.NOT_RECORD or result.record is None:
        # A bare envelope file is not a record: parse it as plain JSON.
        return read_json_file(path, "envelope")
    return result.record.envelope  # a whole record: use its envelope


@click.command()
@click.argument("target", metavar="ID|FILE")
@click.option(
    "--dir", "directory", help="Record directory for an id (default ./.intentusnet/records or .)."
)
@click.option("--force", is_flag=True, help="Replay even a non-replayable record (with warnings).")
@click.option(
    "--envelope", "envelope_file", type=click.Path(), help="Verify this envelope's hash first."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@guarded
def replay(
    target: str, directory: str | None, force: bool, envelope_file: str | None, as_json: bool
) -> None:
    """Return the recorded response of ID|FILE exactly, without running any agent.

    ID is an execution id or a unique prefix of one."""
    result = load_record_file(locate_record(target, directory))
    if result.record is None:
        fail(f"{result.path}: {result.message}", ExitCode.NOT_REPLAYABLE)
    envelope = _load_envelope(envelope_file) if envelope_file else None
    outcome = replay_record(result, force=force, envelope=envelope)
    if outcome.kind == "refused":
        if as_json:
            echo_json({"replayed": False, "replayable": False, "reason": outcome.reason})
        else:
            echo_text(f"not replayable: {outcome.reason} (use --force to replay anyway)")
        raise click.exceptions.Exit(ExitCode.NOT_REPLAYABLE)
    if outcome.kind == "mismatch":
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
            echo_text(
                f"envelope mismatch: recorded {outcome.recorded}, provided {outcome.provided}"
            )
        raise click.exceptions.Exit(ExitCode.MISMATCH)
    replayed = outcome.result
    if replayed is None:
        fail(outcome.message)
    doc = {"replayed": True, **replayed.to_json()}
    if as_json:
        echo_json(doc)
    else:
        recorded = utc_text(replayed.originalTimestamp)
        echo_text(
            f"replay of {replayed.originalExecutionId or result.path.name}"
            + (f" (recorded {recorded})" if recorded else " (no recorded time)")
        )
        # A forced replay of a record with no final response has no status to show.
        echo_text(f"status: {replayed.status or 'none recorded'}")
        for warning in replayed.warnings:
            echo_text(f"warning: {warning}")
        if replayed.error is not None:
            echo_text(f"error: {dumps_json(replayed.error)}")
        echo_text(f"payload: {dumps_json(replayed.payload)}")
        echo_text(f"metadata: {dumps_json(dict(replayed.metadata))}")
    raise click.exceptions.Exit(ExitCode.OK)
