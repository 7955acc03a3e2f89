"""Verist's normalizeCommands: semantic projections in JavaScript's localeCompare order."""

from __future__ import annotations

import json
import random
from functools import cmp_to_key
from typing import Any

from intentus_tui.core.verist import commands
from intentus_tui.core.verist.commands import normalize_commands
from intentus_tui.core.verist.snapshot import create_snapshot_from_result
from tests.core.verist.support import DATA, step_result


def test_commands_are_normalized_so_order_does_not_change_the_hash() -> None:
    def commands_hash(commands: list[dict[str, Any]]) -> str:
        artifact = create_snapshot_from_result(step_result(commands=commands)).artifact(
            "step-commands"
        )
        assert artifact is not None
        return artifact.hash

    invoke_a = {"type": "invoke", "step": "a", "input": {}}
    invoke_b = {"type": "invoke", "step": "b", "input": {}}
    assert commands_hash([invoke_b, invoke_a]) == commands_hash([invoke_a, invoke_b])
    mixed = [
        {"type": "review", "reason": "check totals"},
        {"type": "invoke", "step": "enrich", "input": {"id": 1}},
        {"type": "emit", "topic": "doc.processed", "payload": {"id": 1}},
        {"type": "invoke", "step": "validate", "input": {"id": 1}, "runnerMeta": "dropped"},
    ]
    assert commands_hash(mixed) == commands_hash(list(reversed(mixed)))
    assert normalize_commands(mixed) == [
        {"type": "emit", "topic": "doc.processed", "payload": {"id": 1}},
        {"type": "invoke", "step": "enrich", "input": {"id": 1}},
        {"type": "invoke", "step": "validate", "input": {"id": 1}},
        {"type": "review", "reason": "check totals"},
    ]


def test_locale_compare_matches_javascript_on_stored_strings() -> None:
    expected = json.loads((DATA / "verist_locale_compare.json").read_text(encoding="utf-8"))
    order: list[str] = expected["sorted"]
    shuffled = order[:]
    random.Random(7).shuffle(shuffled)
    assert sorted(shuffled, key=cmp_to_key(commands._locale_compare)) == order
