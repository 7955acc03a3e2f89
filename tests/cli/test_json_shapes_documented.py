"""The README's *JSON shapes* name every key ``inspect ID --json`` prints."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.support import cli

README = Path(__file__).resolve().parents[2] / "README.md"


def _inspect_shape() -> set[str]:
    """The keys named (in backquotes) by the README's paragraph on ``inspect ID --json``."""
    text = README.read_text("utf-8")
    start = text.index("`inspect ID --json` starts with")
    paragraph = text[start : text.index("`verify --json`:", start)]
    return {
        word
        for quoted in re.findall(r"`([^`]*)`", paragraph)
        for word in re.findall(r"\w+", quoted)
    }


def test_every_key_of_inspect_json_is_in_the_readme(tmp_path: Path) -> None:
    """``times`` (when it started, each attempt's and event's time), the log's
    ``file_status`` and ``message``, and the post-mortem's ``chain_break`` were printed by
    ``inspect ID --json`` but not named in the README's shape of it."""
    assert cli("demo", str(tmp_path / "demo"), "--count", "1").returncode == 0
    root = str(tmp_path / "demo" / ".intentusnet")
    listed = json.loads(cli("inspect", "--list", root, "--json").stdout)["executions"]
    broken = next(row for row in listed if row["integrity"] == "chain_broken")
    doc = json.loads(cli("inspect", broken["execution_id"], "--dir", root, "--json").stdout)
    assert doc["wal"] is not None and doc["postmortem"]["chain_break"] is not None
    printed = set(doc) | set(doc["wal"]) | set(doc["postmortem"]) | set(doc["times"])
    printed |= set(doc["times"]["attempts"][0]) | set(doc["postmortem"]["chain_break"])
    assert printed - _inspect_shape() == set()
