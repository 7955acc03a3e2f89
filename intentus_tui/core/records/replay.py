"""Replay: return what was recorded. Never runs agent code, never calls a model.

The contract is IntentusNet's documented replay API: ``ReplayEngine(record).is_replayable()
-> (bool, reason)`` and ``replay(env=None, force=False) -> ReplayResult``. Field names of
``ReplayResult`` are IntentusNet's (camelCase) so code written against that documentation
works unchanged.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.records.load import ExecutionRecord, LoadResult, LoadStatus
from intentus_tui.core.records.store import FileExecutionStore, RecordLoadError, UnsafeIdError
from intentus_tui.core.records.verify import check_structure, detect_hash_form

EXECUTION_INCOMPLETE = "execution_incomplete"
RECORDING_FAILURE = "recording_failure"
MANUALLY_INVALIDATED = "manually_invalidated"
RECORD_CORRUPTED = "record_corrupted"
FORCED_WARNING = "Forced replay of non-replayable record"

# What a forced replay risks, by why the record is not replayable: shown before one.
FORCE_REPLAY_RISKS: tuple[tuple[str, str], ...] = (
    ("Incomplete execution", "May return null payload"),
    ("Recording failure", "May return partial/corrupt data"),
    ("Corrupted record", "May raise parse errors"),
)


class NotReplayableError(Exception):
    def __init__(self, reason: str | None) -> None:
        super().__init__(f"Execution is not replayable: {reason or 'unknown reason'}")
        self.reason = reason


class ReplayHashMismatchError(Exception):
    def __init__(self, recorded: str | None, provided: str) -> None:
        super().__init__(
            f"Envelope modified since original execution: recorded {recorded}, provided {provided}"
        )
        self.recorded = recorded
        self.provided = provided


@dataclass(frozen=True)
class ReplayResult:
    payload: Any
    metadata: Mapping[str, Any]
    fromReplay: bool = True
    originalExecutionId: str | None = None
    originalTimestamp: str | None = None
    warnings: tuple[str, ...] = field(default=())
    status: str | None = None  # the recorded response's status (success, error, ...)
    error: Any = None  # the recorded error: an error response replays as the error

    def to_json(self) -> dict[str, Any]:
        return {
            "payload": self.payload,
            "metadata": dict(self.metadata),
            "from_replay": self.fromReplay,
            "original_execution_id": self.originalExecutionId,
            "original_timestamp": self.originalTimestamp,
            "status": self.status,
            "error": self.error,
            "warnings": list(self.warnings),
        }


class ReplayEngine:
    def __init__(
        self, record: ExecutionRecord, *, damaged: bool = False, structure_ok: bool | None = None
    ) -> None:
        """``damaged``: salvaged from a broken file. ``structure_ok``: a check already made."""
        self._record = record
        self._damaged = damaged
        self._structure_ok = structure_ok

    @classmethod
    def from_load_result(cls, result: LoadResult) -> ReplayEngine:
        if result.record is None:
            raise RecordLoadError(result)
        return cls(result.record, damaged=result.status is not LoadStatus.OK)

    @property
    def record(self) -> ExecutionRecord:
        return self._record

    def is_replayable(self) -> tuple[bool, str | None]:
        raw = self._record.raw
        if self._damaged:
            return False, RECORD_CORRUPTED
        final = raw.get("finalResponse")
        if final is None:
            return False, EXECUTION_INCOMPLETE
        if final == {} or not isinstance(final, dict):
            return False, RECORDING_FAILURE
        header = self._record.header
        if header.replayable is False:
            return False, header.replayable_reason or "marked not replayable (no reason given)"
        if header.replayable is None and "replayable" in header.raw:
            return False, RECORD_CORRUPTED  # present but not a boolean; absent means true (1.3.0)
        if self._structure_ok is None:
            self._structure_ok = check_structure(self._record).record_ok
        if not self._structure_ok:
            return False, RECORD_CORRUPTED
        return True, None

    def replay(self, env: Any = None, force: bool = False) -> ReplayResult:
        ok, reason = self.is_replayable()
        if not ok and not force:
            raise NotReplayableError(reason)
        if env is not None:
            self._verify_envelope(env)
        final = self._record.final_response
        response = final if isinstance(final, dict) else {}
        metadata = response.get("metadata")
        warnings: list[str] = []
        if not ok:
            warnings.append(FORCED_WARNING)
            warnings.append(f"Not replayable: {reason}")
            if final is None:
                warnings.append("No final response was recorded: payload is null")
        return ReplayResult(
            payload=response.get("payload"),
            metadata=metadata if isinstance(metadata, dict) else {},
            fromReplay=True,
            originalExecutionId=self._record.execution_id,
            originalTimestamp=self._record.header.created_utc_iso,
            warnings=tuple(warnings),
            status=response.get("status") if isinstance(response.get("status"), str) else None,
            error=response.get("error"),
        )

    def _verify_envelope(self, env: Any) -> None:
        recorded = self._record.header.envelope_hash
        hasher = documented_envelope_hash
        if detect_hash_form(recorded) != "documented":
            hasher = runtime_envelope_hash
        try:
            provided = hasher(env)
        except RecursionError:  # an envelope too deep to hash cannot be shown to match
            raise ReplayHashMismatchError(
                recorded, "(envelope too deeply nested to hash)"
            ) from None
        if recorded is None or provided.lower() != recorded.lower():
            raise ReplayHashMismatchError(recorded=recorded, provided=provided)


def _failed_result(execution_id: str, message: str) -> ReplayResult:
    return ReplayResult(
        payload=None,
        metadata={"error": message},
        fromReplay=True,
        originalExecutionId=execution_id,
        warnings=(f"Not replayable: {message}",),
    )


def batch_replay(
    store: FileExecutionStore, execution_ids: Iterable[str]
) -> dict[str, ReplayResult]:
    """Replay many; one bad id never stops the rest (its result carries the reason)."""
    results: dict[str, ReplayResult] = {}
    for execution_id in execution_ids:
        try:
            engine = ReplayEngine.from_load_result(store.load_result(execution_id))
            results[execution_id] = engine.replay()
        except NotReplayableError as exc:
            results[execution_id] = _failed_result(execution_id, str(exc))
        except (RecordLoadError, UnsafeIdError) as exc:
            results[execution_id] = _failed_result(execution_id, str(exc))
    return results


class CachingReplayEngine:
    """Replays by id through a bounded LRU cache, invalidated when the file changes.

    A cache entry is keyed by the file's (size, mtime, inode): a record rewritten in
    place, replaced by rename, or invalidated by an operator is replayed afresh.
    """

    def __init__(self, store: FileExecutionStore, max_entries: int = 256) -> None:
        self._store = store
        self._max = max_entries
        self._cache: OrderedDict[str, tuple[tuple[int, int, int], ReplayResult]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def _stamp(self, execution_id: str) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self._store.path_for(execution_id))
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns, st.st_ino)

    def replay(self, execution_id: str) -> ReplayResult:
        stamp = self._stamp(execution_id)
        cached = self._cache.get(execution_id)
        if cached is not None and stamp is not None and cached[0] == stamp:
            self._cache.move_to_end(execution_id)
            self.hits += 1
            return cached[1]
        self.misses += 1
        self._cache.pop(execution_id, None)
        result = ReplayEngine.from_load_result(self._store.load_result(execution_id)).replay()
        if stamp is not None:
            self._cache[execution_id] = (stamp, result)
            while len(self._cache) > self._max:
                self._cache.popitem(last=False)
        return result

    def __len__(self) -> int:
        return len(self._cache)
