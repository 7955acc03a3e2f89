"""What the debugger and the command line do with executions: one entry point per use case.

- ``load_detail``: everything shown about one execution (record, timeline, verification,
  replayability, write-ahead log, post-mortem);
- ``replay``: the recorded response, or why not (a forced replay too); nothing is executed;
- ``compare`` / ``compare_view``: A against B (``core.compare``); ``compare_side_by_side``
  lays them out for the full-screen comparison, under ``ignore_config``'s rules; a record's
  side carries its execution's verdict (``detail_operand``, ``file_operand``) and
  ``untrusted_warnings`` says when a side cannot be believed;
- ``postmortem``: the state an execution was left in and the recovery hint;
- ``verify_file``: the integrity checks of one record file;
- ``invalidate`` and ``save_snapshot``: the two writes an operator can ask for.

The debugger's widgets and screens reach the core only through this module (and the summary
model); the types they show are re-exported here. Types of modules the debugger's first
frame does not load are resolved on first use (``__getattr__`` below), so importing this
module costs nothing at start-up.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from intentus_tui.core.model import Integrity, Outcome, ReplayCode, Verdict
from intentus_tui.core.records.load import LoadResult, LoadStatus
from intentus_tui.core.records.replay import (
    EXECUTION_INCOMPLETE,
    FORCE_REPLAY_RISKS,
    FORCED_WARNING,
    MANUALLY_INVALIDATED,
    NO_RESPONSE_TO_FORCE,
    NULL_PAYLOAD,
    RECORD_CORRUPTED,
    RECORDING_FAILURE,
    UNTRUSTED_LOG,
    WAL_CHAIN_BROKEN,
    IntegrityProblem,
    NotReplayableError,
    ReplayEngine,
    ReplayHashMismatchError,
    ReplayResult,
    UntrustedRecordError,
    force_replay_risks,
    integrity_problems,
    no_response_text,
    response_recorded,
    unread_record_problems,
    untrusted_problems,
)
from intentus_tui.core.records.timeline import Attempt, EventRow, ExecutionState, Timeline
from intentus_tui.core.records.times import (
    NO_TIME,
    AttemptTimes,
    ExecutionTimes,
    Waterfall,
    clock_text,
    duration_text,
    offset_text,
)
from intentus_tui.core.records.verify import (
    HashCheck,
    HashStatus,
    SequenceCheck,
    StructureCheck,
    VerifyReport,
    salvaged_hash_words,
)
from intentus_tui.core.timestamps import utc_text
from intentus_tui.core.verdict import (
    CLAIMED,
    claimed_chain,
    claims_only,
    cut_short_by_writer,
    replay_code_text,
    replay_text,
    verdict_of,
)
from intentus_tui.core.verist.missing import MISSING

if TYPE_CHECKING:
    from intentus_tui.core.activegraph import ForkComparison, StructuralDiff
    from intentus_tui.core.compare import (
        WHOLE_RECORD,
        CompareError,
        Comparison,
        IgnoreConfig,
        IgnoreRules,
        Operand,
        RecordComparison,
        SnapshotSummary,
        changed_events_text,
        changed_values_text,
        equal_words,
        file_operand,
        from_untrusted,
        path_problem,
        path_text,
        run_operand,
        untrusted_warnings,
    )
    from intentus_tui.core.compare.aligned import Fold, Folded, SideBySide, SideRow
    from intentus_tui.core.detail import ExecutionDetail
    from intentus_tui.core.json_indent import FLAT_BELOW, dumps_indented
    from intentus_tui.core.postmortem import PostMortem
    from intentus_tui.core.reconcile import log_ended
    from intentus_tui.core.verist.diff import DiffEntry
    from intentus_tui.core.wal.analyse import RecoveryHint
    from intentus_tui.core.wal.read import WalEntry, WalLog

__all__ = [
    "CLAIMED",
    "EXECUTION_INCOMPLETE",
    "FLAT_BELOW",
    "FORCED_WARNING",
    "FORCE_REPLAY_RISKS",
    "MANUALLY_INVALIDATED",
    "MISSING",
    "NO_RESPONSE_TO_FORCE",
    "NO_TIME",
    "NULL_PAYLOAD",
    "RECORDING_FAILURE",
    "RECORD_CORRUPTED",
    "UNTRUSTED_LOG",
    "VIEW_ALIGNED",
    "VIEW_WHAT_HAPPENED",
    "WAL_CHAIN_BROKEN",
    "WHOLE_RECORD",
    "ActionError",
    "Attempt",
    "AttemptTimes",
    "CompareError",
    "Comparison",
    "DiffEntry",
    "EventRow",
    "ExecutionDetail",
    "ExecutionState",
    "ExecutionTimes",
    "Fold",
    "Folded",
    "ForkComparison",
    "HashCheck",
    "HashStatus",
    "IgnoreConfig",
    "IgnoreRules",
    "IntegrityProblem",
    "LoadResult",
    "LoadStatus",
    "Operand",
    "PostMortem",
    "RecordComparison",
    "RecoveryHint",
    "ReplayOutcome",
    "ReplayResult",
    "SequenceCheck",
    "SideBySide",
    "SideRow",
    "SnapshotSummary",
    "StructuralDiff",
    "StructureCheck",
    "Timeline",
    "VerifyReport",
    "WalEntry",
    "WalLog",
    "Waterfall",
    "changed_events_text",
    "changed_values_text",
    "claimed_chain",
    "claims_only",
    "clock_text",
    "compare",
    "compare_side_by_side",
    "compare_view",
    "detail_operand",
    "dumps_indented",
    "duration_text",
    "equal_words",
    "file_operand",
    "force_replay_risks",
    "from_untrusted",
    "ignore_config",
    "invalidate",
    "load_detail",
    "log_ended",
    "no_response_text",
    "offset_text",
    "path_problem",
    "path_text",
    "postmortem",
    "replay",
    "replay_code_text",
    "replay_integrity",
    "response_recorded",
    "run_operand",
    "salvaged_hash_words",
    "save_snapshot",
    "snapshot_warnings",
    "untrusted_problems",
    "untrusted_warnings",
    "utc_text",
    "verdict_of",
    "verify_file",
]

# Names resolved on first use: their modules are not needed for the debugger's first frame.
_LAZY: dict[str, str] = {
    "FLAT_BELOW": "intentus_tui.core.json_indent",
    "dumps_indented": "intentus_tui.core.json_indent",
    "WHOLE_RECORD": "intentus_tui.core.compare",
    "CompareError": "intentus_tui.core.compare",
    "Comparison": "intentus_tui.core.compare",
    "Operand": "intentus_tui.core.compare",
    "IgnoreConfig": "intentus_tui.core.compare",
    "IgnoreRules": "intentus_tui.core.compare",
    "Fold": "intentus_tui.core.compare.aligned",
    "Folded": "intentus_tui.core.compare.aligned",
    "SideBySide": "intentus_tui.core.compare.aligned",
    "SideRow": "intentus_tui.core.compare.aligned",
    "RecordComparison": "intentus_tui.core.compare",
    "SnapshotSummary": "intentus_tui.core.compare",
    "changed_events_text": "intentus_tui.core.compare",
    "changed_values_text": "intentus_tui.core.compare",
    "file_operand": "intentus_tui.core.compare",
    "path_problem": "intentus_tui.core.compare",
    "path_text": "intentus_tui.core.compare",
    "run_operand": "intentus_tui.core.compare",
    "untrusted_warnings": "intentus_tui.core.compare",
    "equal_words": "intentus_tui.core.compare",
    "from_untrusted": "intentus_tui.core.compare",
    "UNTRUSTED_EVIDENCE": "intentus_tui.core.compare",
    "ForkComparison": "intentus_tui.core.activegraph",
    "StructuralDiff": "intentus_tui.core.activegraph",
    "ExecutionDetail": "intentus_tui.core.detail",
    "PostMortem": "intentus_tui.core.postmortem",
    "DiffEntry": "intentus_tui.core.verist.diff",
    "log_ended": "intentus_tui.core.reconcile",
    "RecoveryHint": "intentus_tui.core.wal.analyse",
    "WalEntry": "intentus_tui.core.wal.read",
    "WalLog": "intentus_tui.core.wal.read",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


class ActionError(Exception):
    """An action that could not be done; the message is one line for a person."""


# --------------------------------------------------------------------------- detail


def load_detail(
    path: str | Path, wal_dir: Path | None = None, *, record_removed: bool = False
) -> ExecutionDetail:
    """Read one execution (a record file, or a ``.wal`` for WAL-only ones). Never raises.
    ``record_removed``: a WAL-only execution's record file was seen, then removed."""
    from intentus_tui.core.detail import load_detail as load

    return load(path, wal_dir, record_removed=record_removed)


def verify_file(path: Path) -> VerifyReport:
    """The integrity checks of one record file (hash, sequence, structure, the file itself)."""
    from intentus_tui.core.records.load import load_record_file
    from intentus_tui.core.records.verify import verify_load_result

    return verify_load_result(load_record_file(path))


# --------------------------------------------------------------------------- replay


ReplayKind = Literal["result", "refused", "mismatch", "untrusted", "failed"]


class ReplayOutcome(NamedTuple):
    """What one replay attempt produced.

    ``result``: the recorded response (its ``integrity`` lists the record's problems).
    ``refused``: not replayable and not forced (``reason`` says why). ``mismatch``: the
    envelope given does not hash to the recorded one (``recorded``/``provided``).
    ``untrusted``: a strict replay of a record with integrity problems (``problems``).
    ``failed``: nothing could be replayed (``message``). ``verdict``: the execution's, as
    every screen shows it: it says whether an answer with integrity problems comes from an
    untrusted record (tampered, its log's chain broken) or one that cannot be fully checked.

    A named tuple, not a dataclass: this module is imported for the debugger's first frame,
    where building this class as a frozen dataclass took 0.9 ms, as a named tuple 0.14 ms.
    """

    kind: ReplayKind
    forced: bool
    result: ReplayResult | None = None
    reason: str | None = None
    message: str = ""
    recorded: str | None = None
    provided: str | None = None
    problems: tuple[IntegrityProblem, ...] = ()
    verdict: Verdict | None = None

    @property
    def answer_untrusted(self) -> bool:
        """The answer comes from evidence that fails its integrity check (not merely
        evidence that cannot be fully checked)."""
        return self.verdict is None or not self.verdict.trusted

    @property
    def refusal_code(self) -> str | None:
        """A refusal's code, as ``inspect --list``'s REPLAY column gives it: the verdict's
        when it refuses (a writer's own reason is no code: ``marked_not_replayable``), else
        the record header's reason."""
        verdict = self.verdict
        return self.reason if verdict is None or verdict.replayable else verdict.replay.value

    @property
    def refusal_text(self) -> str:
        """What a refusal means: the verdict's words when it refuses (every screen says the
        same), else what the header's reason means."""
        verdict = self.verdict
        if self.message:
            return self.message
        if verdict is not None and not verdict.replayable:
            return verdict.replay_reason
        return replay_text(self.reason)


def replay(
    result: LoadResult,
    *,
    force: bool = False,
    envelope: Any = None,
    strict: bool = False,
    report: VerifyReport | None = None,
    wal: WalLog | None = None,
    verdict: Verdict | None = None,
) -> ReplayOutcome:
    """Return the recorded response of a loaded record, exactly; never runs agent code or
    calls a model. With ``envelope``, its hash is checked against the recorded one first.
    The result carries the record's integrity problems (with ``wal``, the write-ahead log's
    chain too; ``report``: the record's checks, when already made); ``strict`` refuses a
    record with such problems instead (benign hash mismatches aside). Never raises.

    What the execution's verdict (``verdict``, or made here) calls not replayable is refused
    unless ``force``: an untrusted one (tampered, or its log's chain broken) too, with the
    verdict's reason, as every screen says it; ``strict`` refuses it as untrusted, before
    any other reason the record gives. With no record to read, nothing is replayed; a
    record file that cannot be read, or a log whose chain breaks, is refused as untrusted
    by ``strict`` first."""
    if result.record is None:
        problems = unread_record_problems(result, wal)
        if strict and problems:
            return ReplayOutcome("untrusted", force, problems=problems, verdict=verdict)
        return ReplayOutcome(
            "failed", force, message=f"Nothing to replay: {result.message}", verdict=verdict
        )
    # The summary says whether a file cut short was cut by its own writer (only a salvaged
    # one can be): made again only then, or for a verdict not given.
    summary = None
    if verdict is None or result.status is LoadStatus.SALVAGED:
        from intentus_tui.core.detail import summary_of

        summary = summary_of(result, wal)
    if verdict is None and summary is not None:
        verdict = verdict_of(summary)
    cut_by_writer = summary is not None and cut_short_by_writer(summary)
    try:
        engine = ReplayEngine.from_load_result(
            result, report=report, wal=wal, cut_by_writer=cut_by_writer
        )
        if verdict is not None and verdict.replay is ReplayCode.UNTRUSTED:
            if strict:
                return ReplayOutcome(
                    "untrusted", force, problems=engine.untrusted(), verdict=verdict
                )
            if not force:
                return ReplayOutcome(
                    "refused",
                    force,
                    reason=ReplayCode.UNTRUSTED,
                    message=verdict.replay_reason,
                    verdict=verdict,
                )
        replayed = engine.replay(env=envelope, force=force, strict=strict)
        if (
            force
            and verdict is not None
            and not verdict.replayable
            and FORCED_WARNING not in replayed.warnings
        ):
            # What the verdict refuses (an untrusted record its header calls replayable)
            # is forced too, and marked as the confirmation says it will be.
            forced = (FORCED_WARNING, f"Not replayable: {verdict.replay.value}")
            replayed = dataclasses.replace(replayed, warnings=forced + replayed.warnings)
        if (
            verdict is not None
            and verdict.trusted
            and verdict.outcome is Outcome.UNKNOWN
            and replayed.response_recorded  # else no answer came back to doubt
        ):
            # The evidence holds, but its parts tell different stories (the record says
            # success, its log failed): the answer may not be what happened.
            unknown = (
                f"outcome unknown: {verdict.outcome_reason}: this answer may not be what the "
                "execution returned"
            )
            replayed = dataclasses.replace(replayed, warnings=(unknown, *replayed.warnings))
    except NotReplayableError as exc:
        return ReplayOutcome("refused", force, reason=exc.reason, verdict=verdict)
    except ReplayHashMismatchError as exc:
        return ReplayOutcome(
            "mismatch", force, recorded=exc.recorded, provided=exc.provided, verdict=verdict
        )
    except UntrustedRecordError as exc:
        return ReplayOutcome("untrusted", force, problems=exc.problems, verdict=verdict)
    except Exception as exc:  # a forced replay of a structurally broken record may raise
        return ReplayOutcome(
            "failed", force, message=f"{type(exc).__name__}: {exc}", verdict=verdict
        )
    return ReplayOutcome("result", force, replayed, verdict=verdict)


def replay_integrity(detail: ExecutionDetail) -> tuple[IntegrityProblem, ...]:
    """What a replay of this execution would report about its record's integrity (from the
    checks already made for the detail); empty for an execution with no record."""
    record = detail.result.record
    if record is None:
        return ()
    return integrity_problems(
        record,
        load=detail.result,
        report=detail.verify,
        wal=detail.wal,
        cut_by_writer=detail.summary is not None and cut_short_by_writer(detail.summary),
    )


# --------------------------------------------------------------------------- post-mortem


def postmortem(detail: ExecutionDetail, wal: WalLog | None = None) -> PostMortem:
    """The post-mortem of one execution (``wal`` defaults to the one joined to it); the one
    computed with the detail is reused when the log is the same."""
    from intentus_tui.core.detail import postmortem_of

    wal = wal if wal is not None else detail.wal
    if wal is detail.wal and detail.postmortem is not None:
        return detail.postmortem
    return postmortem_of(detail.timeline, wal, detail.summary)


# --------------------------------------------------------------------------- compare

VIEW_WHAT_HAPPENED = "compare"
VIEW_ALIGNED = "compare-aligned"


def detail_operand(detail: ExecutionDetail) -> Operand:
    """An execution's record as one side of a comparison, with the execution's verdict; with
    no record, an empty one (everything on the other side is then an addition), and ``note``
    says why."""
    from intentus_tui.core.compare import load_result_operand, record_operand

    result = detail.result
    verdict = detail.verdict
    if result.record is None:
        # Its file still named: a comparison holding it is made again when the file is.
        return record_operand(result.stem, {}, result.message, result.path, verdict)
    return load_result_operand(result.stem, result, detail.wal, verdict=verdict)


def compare(
    a: Operand,
    b: Operand,
    *,
    key_by_paths: Mapping[str, Any] | None = None,
    aligned: bool = False,
    ignore: IgnoreRules | None = None,
) -> Comparison:
    """A against B by their kinds (``core.compare.compare``); ``ignore``: no rules if None."""
    from intentus_tui.core.compare import NO_RULES
    from intentus_tui.core.compare import compare as compare_operands

    rules = NO_RULES if ignore is None else ignore
    return compare_operands(a, b, key_by_paths=key_by_paths, aligned=aligned, ignore=rules)


def ignore_config(path: Path | None = None) -> IgnoreConfig:
    """The ignore rules in effect: the defaults and the user's ``compare.toml`` (or ``path``)."""
    from intentus_tui.core.compare import load_ignore_config

    return load_ignore_config(path)


def compare_side_by_side(a: Operand, b: Operand, ignore: IgnoreRules) -> SideBySide:
    """A and B compared and laid out in two columns (``core.compare.aligned``);
    ``CompareError`` when they cannot be compared."""
    from intentus_tui.core.compare.aligned import side_by_side

    return side_by_side(a, b, ignore)


def compare_view(
    view: str,
    a: Operand | None = None,
    b: Operand | None = None,
    *,
    a_value: Any = MISSING,
    b_value: Any = MISSING,
) -> Comparison:
    """The comparison the Diff tab shows.

    Two operands: ``VIEW_WHAT_HAPPENED`` (or ``VIEW_ALIGNED``) is ``compare`` under the ignore
    rules in effect (``ignore_config``, as ``intentus-tui diff`` applies them); for two records
    any other view names one raw section (``WHOLE_RECORD``, ``header``, ...), shown whole.
    Without operands, the two plain values are diffed as they are.
    """
    from intentus_tui.core.compare import compare_plain_values, compare_record_section

    if a is None or b is None:
        return compare_plain_values(a_value, b_value)
    if a.kind == b.kind == "record" and view not in (VIEW_WHAT_HAPPENED, VIEW_ALIGNED):
        return compare_record_section(a, b, view)
    return compare(a, b, aligned=view == VIEW_ALIGNED, ignore=ignore_config().rules)


# --------------------------------------------------------------------------- writes


def refuse_read_only(path: Path) -> None:
    """``ActionError`` when ``path`` is in a read-only root (``core.read_only``)."""
    from intentus_tui.core.read_only import read_only_reason

    reason = read_only_reason(path)
    if reason is not None:
        raise ActionError(f"read-only root: {reason}")


def invalidate(detail: ExecutionDetail) -> None:
    """Mark the record not replayable (``manually_invalidated``), atomically; ``ActionError``."""
    from intentus_tui.core.records.store import FileExecutionStore, RecordLoadError, UnsafeIdError

    path = detail.path
    refuse_read_only(path)
    try:
        FileExecutionStore(path.parent).invalidate(detail.result.stem)
    except (RecordLoadError, UnsafeIdError, OSError) as exc:
        raise ActionError(str(exc)) from None


def snapshot_warnings(detail: ExecutionDetail) -> list[str]:
    """What saving a snapshot of this record must be warned of, one line each (raw text,
    ``warning: ...``), the same in ``snapshot`` and the debugger's dialog: a damaged file
    (the snapshot holds what was recovered) and evidence that fails its integrity check
    (the verdict's words). A warning, never a refusal."""
    lines: list[str] = []
    if detail.result.status is LoadStatus.SALVAGED:
        lines.append(f"warning: {detail.result.message} The snapshot holds what was recovered.")
    verdict = detail.verdict
    if verdict is not None and not verdict.trusted:
        words = verdict.integrity.value.replace("_", " ")  # as the verdict says it: chain broken
        what = (
            "record's write-ahead log" if verdict.integrity is Integrity.CHAIN_BROKEN else "record"
        )
        lines.append(
            f"warning: the {what} fails its integrity check ({words}): the snapshot carries "
            "content that cannot be believed"
        )
    return lines


def save_snapshot(detail: ExecutionDetail, directory: Path) -> Path:
    """Write a Verist snapshot of the record into ``directory``; the file name is the record's
    stem and a digest of the snapshot's hashes (saving twice writes one file). ``ActionError``.
    """
    from intentus_tui.core.records.store import safe_file_stem
    from intentus_tui.core.verist.snapshot import (
        SnapshotError,
        snapshot_from_record,
    )
    from intentus_tui.core.verist.snapshot import (
        save_snapshot as write_snapshot,
    )

    refuse_read_only(detail.path)
    refuse_read_only(directory)
    record = detail.result.record
    if record is None:
        raise ActionError(f"no record to snapshot: {detail.result.message}")
    try:
        snapshot = snapshot_from_record(record.to_json())
        output = snapshot.step_output
        digest = hashlib.sha256(
            (snapshot.input_hash + (output.hash if output else "")).encode()
        ).hexdigest()[:8]
        name = f"{safe_file_stem(detail.result)}-{digest}.json"
        return write_snapshot(snapshot, directory / name)
    except (SnapshotError, OSError) as exc:
        raise ActionError(str(exc)) from None
