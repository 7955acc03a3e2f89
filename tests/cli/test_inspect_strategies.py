"""``inspect`` on broadcast and parallel runs written by the real 1.3.0: drawn as fan-outs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.support import cli
from tests.intentusnet_strategies import build_strategy_world


def test_inspect_draws_each_run_by_its_strategy(tmp_path: Path) -> None:
    world = build_strategy_world(tmp_path)
    broadcast = world.records_dir / f"{world.broadcast}.json"
    shown = cli("inspect", str(broadcast))
    assert shown.returncode == 0, shown.stderr
    assert "agents      ⇉ primary ✗ | replica ✓ | cache ✗ | cold ✓\n" in shown.stdout
    listed = cli("inspect", "--list", "--json", "--no-cache", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)["executions"]
    chains = {row["execution_id"]: row["agent_chain"] for row in rows}
    assert chains == {
        world.broadcast: "⇉ primary ✗ | replica ✓ | cache ✗ | cold ✓",
        world.parallel: "⇉ primary ✗ | cache ✗ | replica ✓",
        world.fallback: "primary ✗ → replica ✓",
        world.direct: "replica ✓",
    }
