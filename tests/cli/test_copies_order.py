"""A record and its copy (``X.json`` and ``X.copy.json``: one time, one id) come in one
order in every listing of them: ``inspect --list`` in text and JSON (with and without the
index cache), ``export`` in JSON Lines and OTLP, and the debugger's list. The original
first: ``inspect --list`` had the copy first (file-name order) and ``export`` the
original. Records written by the real IntentusNet 1.3.0."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from tests.cli.support import cli
from tests.intentusnet_world import build_real_world, with_a_copy
from tests.tui.app_support import list_lines, make_app, settle


def _which(text: str, original: str, copy: str) -> str:
    """``copy`` or ``original``: the file a line of output names."""
    return copy if copy in text else original if original in text else ""


async def test_a_record_comes_before_its_copy_in_every_listing(tmp_path: Path) -> None:
    world = build_real_world(tmp_path / "real")
    records = tmp_path / "records"
    copy = with_a_copy(world, records)
    original = f"{world.success}.json"
    both = [original, copy]
    env = {**os.environ, "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache")}

    for extra in (("--no-cache",), (), ()):  # without the cache, filling it, from it
        out = cli("inspect", "--list", str(records), "--json", *extra, cwd=tmp_path, env=env)
        assert out.returncode == 0, out.stderr
        rows = json.loads(out.stdout)["executions"]
        assert [r["file"] for r in rows if r["execution_id"] == world.success] == both
        text = cli("inspect", "--list", str(records), *extra, cwd=tmp_path, env=env)
        files = [re.split(r"\s{2,}", line)[1] for line in text.stdout.splitlines()[1:]]
        assert [f for f in files if f in both] == both

    for fmt in ("json", "otlp"):
        out = cli("export", "--dir", str(records), "--format", fmt, "-o", "-", cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        named = [_which(line, original, copy) for line in out.stdout.splitlines()]
        assert [n for n in named if n] == both, fmt

    app = make_app(records)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        lines = list_lines(app)
    # Each row shows its file's name in the id column (two files, one id), cut in its middle.
    ours = [line for line in lines if f" {world.success[:5]}…" in line]
    assert len(ours) == 2, lines
    assert f"{world.success[-5:]}.json" in ours[0] and ".copy.json" in ours[1], ours
