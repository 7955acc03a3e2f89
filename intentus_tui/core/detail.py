"""Everything the debugger shows about one selected execution, computed off the UI thread."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from intentus_tui.core.formats import LoadResult, load_record_file
from intentus_tui.core.replay import ReplayEngine
from intentus_tui.core.timeline import Timeline, timeline_of
from intentus_tui.core.verify import VerifyReport, verify_load_result


@dataclass(frozen=True, slots=True)
class ExecutionDetail:
    """An immutable bundle: the load result, its timeline, its verification, replayability."""

    result: LoadResult
    timeline: Timeline | None
    verify: VerifyReport
    replayable: bool
    replay_reason: str | None

    @property
    def path(self) -> Path:
        return self.result.path

    def replay_engine(self) -> ReplayEngine | None:
        return ReplayEngine.from_load_result(self.result) if self.result.record else None


def load_detail(path: Path) -> ExecutionDetail:
    """Read one file and analyse it. Never raises."""
    result = load_record_file(path)
    return detail_of(result)


def detail_of(result: LoadResult) -> ExecutionDetail:
    replayable: bool = False
    reason: str | None = "record_corrupted"
    if result.record is not None:
        replayable, reason = ReplayEngine.from_load_result(result).is_replayable()
    return ExecutionDetail(
        result=result,
        timeline=timeline_of(result),
        verify=verify_load_result(result),
        replayable=replayable,
        replay_reason=reason,
    )
