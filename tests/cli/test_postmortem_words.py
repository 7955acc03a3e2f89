"""``inspect ID``'s post-mortem says of a record's attempts what the Post-mortem tab says:
each that ended, with how ("completed before fb-primary error" called a failed attempt
completed)."""

from __future__ import annotations

from pathlib import Path

from intentusnet.wal.writer import WALWriter

from tests.cli.support import cli
from tests.intentusnet_world import RealWorld


def test_the_attempt_a_cut_record_ended_with_is_said_to_have_ended(real_world: RealWorld) -> None:
    shown = cli(
        "inspect", real_world.error_truncated, "--dir", str(real_world.records_dir)
    ).stdout.splitlines()
    post_mortem = shown[shown.index("post-mortem") + 1 :]
    assert "  ended before     fb-primary error" in post_mortem
    assert not any("completed before" in line for line in post_mortem)
    hint = next(line for line in post_mortem if line.startswith("  hint "))
    assert "Attempt #1 fb-primary (error) ended" in hint


def test_a_log_with_no_end_advises_a_retry_only_once_its_process_is_gone(tmp_path: Path) -> None:
    """The real WALWriter's log of an execution started, no step yet, no end: crashed, or
    still running (a live writer between two lines). Its hint said "It died before any step
    with side effects ran …; a retry looks safe", as if it had died: retried beside a run
    still going, it would run twice."""
    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    (base / "wal").mkdir()
    with WALWriter(str(base / "wal"), "exec-5a1e0003") as w:
        w.execution_started("ab" * 32, "PayIntent")
    shown = cli("inspect", "exec-5a1e0003", "--dir", str(base / "records")).stdout
    hint = " ".join(shown[shown.index("  hint ") :].split())
    assert "safe to retry" in hint.lower()
    assert "once its process is gone, a retry looks safe (it may still be running" in hint
    assert "died" not in hint
