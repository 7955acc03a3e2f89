"""A demo crash whose log is edited after its irreversible step started: the entries
before the edit still say that step started, and the hint must still warn of it."""

from __future__ import annotations

import shutil
from pathlib import Path

from intentus_tui.core.detail import load_detail
from intentus_tui.demo.writer import DemoManifest
from intentus_tui.tui.widgets.postmortem_pane import postmortem_lines
from tests.cli.support import cli


def _edited_crash(world: DemoManifest, tmp_path: Path) -> tuple[Path, str, str]:
    """A copy of the world where the crash with a failed irreversible first attempt has
    that failure's text edited (seq 3: the chain breaks there); its id and first agent."""
    root = tmp_path / ".intentusnet"
    shutil.copytree(world.root, root)
    for execution_id in world.ids("crash_mid_attempt"):
        wal = root / "wal" / f"{execution_id}.wal"
        lines = wal.read_bytes().splitlines(keepends=True)
        if b'"irreversible"' in lines[1] and b'"step.failed"' in lines[2]:
            lines[2] = lines[2].replace(b"model returned", b"all good, model returned", 1)
            wal.write_bytes(b"".join(lines))
            agent = lines[1].split(b'"agent_name": "')[1].split(b'"')[0].decode()
            return root, execution_id, agent
    raise AssertionError("no crash whose first attempt was irreversible and failed")


def test_a_log_broken_after_an_irreversible_step_started_still_warns_of_it(
    world: DemoManifest, tmp_path: Path
) -> None:
    root, execution_id, agent = _edited_crash(world, tmp_path)
    detail = load_detail(root / "records" / f"{execution_id}.json", root / "wal")
    pm = detail.postmortem
    assert pm is not None and pm.chain_break is not None and pm.chain_break.seq == 3
    hint = pm.hint
    assert hint.verdict == "investigate_first"  # the break: find out who changed the log
    assert "nothing from line 3 (seq 3) on can be believed" in hint.reason
    assert "through seq 2" in hint.reason and "say only" not in hint.reason
    assert f"an irreversible step, 'attempt-1' ({agent}), started at seq 2" in hint.reason
    assert "a retry could repeat it" in hint.reason
    # The record's later attempt is not given the first one's class: the log's own step is
    # named beside it.
    assert pm.side_effect == "irreversible" and pm.side_effect_at is not None
    assert agent in pm.in_flight[pm.side_effect_at]
    assert all(agent not in item for item in pm.in_flight[: pm.side_effect_at])

    pane = " ".join(" ".join(line.plain for line in postmortem_lines(detail)).split())
    assert "HINT: INVESTIGATE FIRST" in pane and "a retry could repeat it" in pane

    shown = cli("inspect", execution_id, "--dir", str(tmp_path))
    assert shown.returncode != 2, shown.stderr
    text = " ".join(shown.stdout.split())
    assert "a retry could repeat it" in text and "say only" not in text
    # never beside the other agent's line: beside the log's own step
    marked = [line for line in shown.stdout.splitlines() if "[side effect: irreversible]" in line]
    assert len(marked) == 1 and agent in marked[0], marked
