"""A record IntentusNet 1.3.0 cut short writing its error response, as ``verify`` and
``inspect`` say it: its hash "match" is said to be of the envelope that survived (a bare
"hash match" beside FAIL was read as verified), and ``verify`` tells the story
``inspect`` tells (cut by its writer), still failing."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.core.detail import load_detail
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld

SURVIVED = "match (of the envelope that survived; the file is cut short)"


def _cut(world: RealWorld) -> Path:
    return world.records_dir / f"{world.error_truncated}.json"


def test_verify_says_what_the_match_is_of_and_why_the_file_is_cut(real_world: RealWorld) -> None:
    done = cli("verify", str(_cut(real_world)))
    assert done.returncode == 1, done.stderr  # the file is damaged: still a failure
    lines = done.stdout.splitlines()
    assert lines[0] == f"FAIL  {real_world.error_truncated}.json  hash {SURVIVED}"
    # inspect's story, in the core's words (the verdict's integrity reason), not only
    # "Damaged record"
    reason = load_detail(_cut(real_world)).verdict.integrity_reason
    assert lines[1] == f"      - {reason[0].upper()}{reason[1:]}"
    assert "most likely cut by its writer" in lines[1] and "file ends at byte" in lines[1]
    assert not any("Damaged record" in line for line in lines)


def test_inspect_says_the_same_of_the_hash(real_world: RealWorld) -> None:
    done = cli("inspect", str(_cut(real_world)))
    assert done.returncode == 0, done.stderr
    assert f"hash        {SURVIVED}: Envelope hash matches" in done.stdout.splitlines()


def test_a_success_cut_short_keeps_its_damage_bare(real_world: RealWorld, tmp_path: Path) -> None:
    # Cut before its success was written: no writer's story, the damage said as found.
    data = (real_world.records_dir / f"{real_world.success}.json").read_bytes()
    path = tmp_path / f"{real_world.success}.json"
    path.write_bytes(data[: data.index(b'"finalResponse"')])
    lines = cli("verify", str(path)).stdout.splitlines()
    assert lines[0].endswith(f"hash {SURVIVED}")
    assert lines[1].startswith("      - Damaged record: file ends at byte")
