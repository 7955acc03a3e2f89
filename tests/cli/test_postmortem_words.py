"""``inspect ID``'s post-mortem says of a record's attempts what the Post-mortem tab says:
each that ended, with how ("completed before fb-primary error" called a failed attempt
completed)."""

from __future__ import annotations

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
