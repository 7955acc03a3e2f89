"""The command line's exit codes, in one place (the README's "Exit codes" table)."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What ``intentus-tui`` exits with; the numbers are part of its interface."""

    OK = 0  # fine; for diff: equal
    PROBLEMS = 1  # verify found a failing record or bundle file; diff found differences;
    # export skipped a file; snapshot of one that holds nothing it can pin (bad data);
    # a bundle refused as unsafe or unreadable
    USAGE = 2  # usage error, missing path, nothing to verify or export, an output refused
    # (cli.output_place), unknown or unsafe id (one line on stderr; with --json,
    # {"error", "exit_code"} on stdout too: cli.common.fail)
    NOT_REPLAYABLE = 3  # replay without --force of a record that is not replayable; with it
    # too when there is nothing to replay (WAL only, not a record, no final response recorded)
    MISMATCH = 4  # replay --envelope: the envelope does not hash to the recorded one
    UNTRUSTED = 5  # replay --strict: the record has integrity problems (tampered, edited,
    # damaged or unreadable; its log's chain broken), before any refusal of exit 3
    INTERRUPTED = 130  # 128 + SIGINT: ctrl-c; it was 1, which verify and diff give results
    READER_LEFT = 141  # 128 + SIGPIPE: standard output's reader left before the end (| head),
    # as cat and git exit; a non-zero code the command had already decided is kept instead
