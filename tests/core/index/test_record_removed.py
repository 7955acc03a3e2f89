"""A record file the index saw, removed by a live update while its write-ahead log stays:
the execution is known from its log alone, and says its record was removed (seen, then
gone), not that none was written (demo data, written as the demo writes it)."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.core.detail import load_detail
from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.model import Integrity, Outcome, ReplayCode
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.verdict import verdict_of
from intentus_tui.demo.writer import build_demo_world


def test_a_completed_execution_whose_record_is_removed_says_so(tmp_path: Path) -> None:
    manifest = build_demo_world(tmp_path, count=40, seed=7)
    execution_id = next(i for i in manifest.ids("success") if manifest.wal_path(i).exists())
    index = DirectoryIndex(resolve_root(manifest.root), use_cache=False, workers=1)
    index.scan()
    record = manifest.record_path(execution_id)
    record.unlink()
    changed, removed = index.update([record])
    assert record.name in removed
    (alone,) = changed
    assert alone.source == "wal" and alone.record_removed
    verdict = verdict_of(alone)
    # What the log says stays said; what went missing is said beside it.
    assert verdict.outcome is Outcome.SUCCEEDED
    assert verdict.outcome_reason.endswith("; the record file was removed (seen, then gone)")
    assert verdict.integrity is Integrity.UNVERIFIABLE
    assert verdict.replay is ReplayCode.NO_RECORD and "removed" in verdict.replay_reason

    detail = load_detail(manifest.wal_path(execution_id), record_removed=True)
    assert detail.verdict == verdict
    assert detail.result.message.startswith("The record file was removed (seen, then gone)")
    pm = detail.postmortem
    assert pm is not None and pm.hint.verdict == "do_not_retry"
    assert "Its record file was removed (seen, then gone)" in pm.hint.reason
    assert "No record was written" not in pm.hint.reason
    assert any("removed (seen, then gone)" in d for d in pm.disagreements)

    # A log nobody saw a record beside says, as before, that none was written.
    never = load_detail(manifest.wal_path(manifest.first("crash_wal_only"))).verdict
    assert never is not None and never.integrity is Integrity.VERIFIED
    assert never.replay_reason.startswith("no record file was written")
