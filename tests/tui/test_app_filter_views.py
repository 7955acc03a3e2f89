"""The list's filter as an operator uses it, by the one verdict each execution has:
``/replayable`` finds the replayable executions only, ``/not replayable`` the others."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.intentusnet_world import build_real_world
from tests.tui.app_support import SIZE, list_lines, make_app, screen_text, settle


def _rows(app: Any) -> list[str]:
    """The execution rows on screen (no group headers, no blank lines)."""
    return [line for line in list_lines(app) if line.strip() and not line.startswith("──")]


def _notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def _type_filter(pilot: Any, text: str) -> None:
    """``/`` and ``text`` letter by letter, as typed (each key narrows the rows shown)."""
    await pilot.press("slash", *("space" if c == " " else c for c in text))
    await settle(pilot)


async def _clear_filter(pilot: Any) -> None:
    await pilot.press("escape")
    await settle(pilot)


async def test_replayable_finds_the_replayable_executions_only_and_not_replayable_the_others(
    tmp_path: Path,
) -> None:
    world = build_real_world(tmp_path)
    records = world.records_dir
    # An edited envelope: its header still says replayable, its verdict says untrusted.
    path = records / f"{world.fallback}.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["envelope"]["payload"]["text"] = "something else"
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")

    app = make_app(records)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _type_filter(pilot, "replayable")
        rows = _rows(app)
        assert len(rows) == 1 and world.success[:8] in rows[0]
        assert "✓ succeeded" in rows[0] and "↺ yes" in rows[0]
        assert "4 executions (1 shown)" in screen_text(app)
        await _clear_filter(pilot)

        not_replayable = {world.fallback, world.error_truncated, world.invalidated}
        for typed in ("not replayable", "not_replayable"):
            await _type_filter(pilot, typed)
            rows = _rows(app)
            assert {i[:8] for i in not_replayable} == {row.split()[0][:8] for row in rows}, typed
            assert not any("↺ yes" in row for row in rows), typed
            assert "4 executions (3 shown)" in screen_text(app), typed
            await _clear_filter(pilot)

        # Free text and the other verdict words find what they found before.
        await _type_filter(pilot, "tampered")
        assert [row.split()[0] for row in _rows(app)] == [world.fallback[:8]]
        await _clear_filter(pilot)
        await _type_filter(pilot, world.success[:6])
        assert [row.split()[0] for row in _rows(app)] == [world.success[:8]]
        await _clear_filter(pilot)
        await _type_filter(pilot, "replay")  # a word being typed: every row has it
        assert len(_rows(app)) == 4
