"""Run a loaded file through every core consumer, and check what comes out is inert.

``exercise`` is the one place that knows the whole read path: summary (the list row),
verification, detail (timeline, replayability, post-mortem), replay, comparison with a
good record, Verist diff and snapshot. Any exception it lets through is a bug; the only
exceptions allowed are the documented, typed refusals (``SnapshotError``,
``ReplayHashMismatchError``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from intentus_tui.cli.common import dumps_json
from intentus_tui.core.compare import compare_records
from intentus_tui.core.detail import detail_of, detail_to_json, wal_to_json
from intentus_tui.core.index.summarize import summarize
from intentus_tui.core.index.wal_join import wal_only_summary
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.postmortem import build_postmortem
from intentus_tui.core.records.load import LoadResult, LoadStatus, load_record_bytes
from intentus_tui.core.records.replay import ReplayEngine, ReplayHashMismatchError
from intentus_tui.core.records.timeline import build_timeline
from intentus_tui.core.records.verify import verify_load_result
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.verist.diff import diff
from intentus_tui.core.verist.snapshot import SnapshotError, snapshot_from_record
from intentus_tui.core.wal.read import WalLog
from intentus_tui.render.rows import summary_to_json
from tests.factories import make_record
from tests.hostile.corpus import FORBIDDEN_RAW

GOOD = make_record(execution_id="good")
ALL_STATUSES = frozenset(LoadStatus)

# ExecutionSummary fields that hold record text for one-line display.
SUMMARY_TEXT_FIELDS = (
    "execution_id",
    "created",
    "intent",
    "agent",
    "strategy",
    "message",
    "replay_reason",
    "chain",
    "in_flight_agent",
    "final_status",
    "wal_problem",
)


def strings_in(value: Any, path: str = "$") -> Iterator[tuple[str, str]]:
    """Every string (keys included) in a JSON-like value or dataclass, with where it is."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str):
                    yield f"{where}.<key>", key
                stack.append((f"{where}.{key}", child))
        elif isinstance(item, list | tuple):
            stack.extend((f"{where}[{i}]", child) for i, child in enumerate(item))
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            for f in dataclasses.fields(item):
                stack.append((f"{where}.{f.name}", getattr(item, f.name)))


_FORBIDDEN = re.compile("[" + re.escape("".join(sorted(FORBIDDEN_RAW))) + "\ud800-\udfff]")


def raw_controls(text: str) -> set[str]:
    """The characters in ``text`` a terminal would act on (or that hide/reorder text)."""
    return set(_FORBIDDEN.findall(text)) if _FORBIDDEN.search(text) else set()


def assert_one_line_clean(summary: ExecutionSummary) -> None:
    """A list row shows only sanitized one-line text."""
    for name in SUMMARY_TEXT_FIELDS:
        value = getattr(summary, name)
        if value is not None:
            assert sanitize_line(value) == value, (name, value)


def assert_no_raw_controls(value: Any, *, skip: tuple[str, ...] = ()) -> None:
    """No string in ``value`` carries a control, bidi or zero-width character raw."""
    for where, text in strings_in(value):
        if any(where.endswith(s) for s in skip):
            continue
        bad = raw_controls(text)
        assert not bad, f"{where} carries raw {sorted(map(hex, map(ord, bad)))}: {text!r}"


def assert_valid_json_text(text: str) -> Any:
    """``text`` is one strict JSON document (no NaN) with no raw terminal controls."""
    assert not raw_controls(text), sorted(map(hex, map(ord, raw_controls(text))))
    return json.loads(text, parse_constant=_refuse_constant)


def _refuse_constant(name: str) -> Any:
    raise AssertionError(f"{name} is not JSON")


# The detail document's "file" is the real path (data, not display); everything else is
# text from the record made inert by the core.
DETAIL_RAW_FIELDS = (".file",)


def exercise(result: LoadResult, *, compare: bool = True, inspect: bool = True) -> None:
    """Every core consumer of one load result. Raises only on a bug.

    ``compare=False`` skips the costly comparisons (record diff, Verist diff, snapshot);
    ``inspect=False`` skips checking the outputs for raw controls and valid JSON.
    """
    check_text: Callable[[Any], Any] = assert_no_raw_controls if inspect else _ignore
    check_json: Callable[[str], Any] = assert_valid_json_text if inspect else _ignore
    assert result.status in ALL_STATUSES and result.message
    summary = summarize(result)
    if inspect:
        assert_one_line_clean(summary)
    check_json(dumps_json(summary_to_json(summary), fast=True))
    verify_load_result(result)
    doc = detail_to_json(detail_of(result))
    if inspect:
        assert_no_raw_controls(doc, skip=DETAIL_RAW_FIELDS)
    check_json(dumps_json(doc))
    record = result.record
    if record is None:
        return
    timeline = build_timeline(record, result.status)
    check_text(
        [
            [(r.type, r.agent, r.status, r.summary) for r in timeline.rows],
            [(a.agent, a.strategy, a.status, a.exception) for a in timeline.attempts],
            [(f.from_agent, f.to_agent, f.reason) for f in timeline.fallbacks],
            timeline.chain,
            timeline.decided_agent,
            timeline.final_status,
        ]
    )
    build_postmortem(timeline, None)
    engine = ReplayEngine.from_load_result(result)
    engine.is_replayable()
    check_json(dumps_json(engine.replay(force=True).to_json()))
    with contextlib.suppress(ReplayHashMismatchError):
        engine.replay(env=record.envelope, force=True)
    if not compare:
        return
    raw = dict(record.raw)
    compare_records(GOOD, raw)
    compare_records(raw, raw)
    diff(GOOD, raw)
    with contextlib.suppress(SnapshotError):
        snapshot_from_record(raw)


def _ignore(value: Any) -> None:
    return None


def exercise_bytes(data: bytes, name: str = "fuzz.json", *, compare: bool = True) -> LoadResult:
    result = load_record_bytes(Path(name), data)
    exercise(result, compare=compare)
    return result


def exercise_wal(log: WalLog) -> None:
    """Every core consumer of a WAL: WAL-only row, post-mortem, JSON view."""
    assert log.file_status in (
        "ok",
        "empty",
        "no_entry",
        "missing",
        "is_directory",
        "permission_denied",
        "unreadable",
    )
    row = wal_only_summary(log)
    assert_one_line_clean(row)
    assert_valid_json_text(dumps_json(summary_to_json(row), fast=True))
    pm = build_postmortem(None, log)
    assert_no_raw_controls(pm.to_json())
    doc = wal_to_json(log)
    assert_no_raw_controls(doc, skip=(".file",))
    assert_valid_json_text(dumps_json(doc))
    log.hint  # noqa: B018 -- computing the hint must not raise


class Blocked(BaseException):
    """Raised by ``deadline``; a BaseException so no ``except OSError/Exception`` swallows it."""


@contextlib.contextmanager
def deadline(seconds: float, what: str) -> Iterator[None]:
    """Fail (instead of hanging CI) if the block takes longer than ``seconds``.

    SIGALRM interrupts even a blocking ``open()`` of a FIFO. Main thread only.
    """

    def expired(signum: int, frame: Any) -> None:
        raise Blocked(f"{what} took more than {seconds} s (blocked?)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def tree_digest(root: Path) -> dict[str, str]:
    """Every entry under ``root`` (symlinks not followed): a digest of each readable regular
    file's bytes, a link's target, or the kind of anything else. Equal digests before and
    after a command mean it wrote nothing there."""
    out: dict[str, str] = {}
    for dirpath, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(dirpath, name)
            if path.is_symlink():
                out[str(path)] = f"-> {os.readlink(path)}"
            elif path.is_file() and os.access(path, os.R_OK):
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                out[str(path)] = f"mode {os.lstat(path).st_mode:o}"
    return out
