"""``intentus-tui diff`` and the ignore rules, on records written by the real intentusnet
1.3.0: hidden by default with a line saying how many, ``--all`` shows them, ``--ignore`` and
compare.toml add rules; every path in one notation, in text and JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from intentus_tui.cli import run
from intentus_tui.cli.exit_codes import ExitCode
from tests.intentusnet_world import RealWorld

# A path in the one notation: identifiers after dots, indices and odd keys in brackets.
# An element at different places in A and B (aligned events) shows both: events[3→2].
NOTATION = re.compile(r'[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*|\[\d+(→\d+)?\]|\["[^"]*"\])*|\(root\)')


def _diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(["diff", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _files(world: RealWorld, a: str, b: str) -> tuple[str, str]:
    return str(world.records_dir / f"{a}.json"), str(world.records_dir / f"{b}.json")


def test_same_intent_twice_shows_the_invalidation_with_a_hidden_count(
    real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two runs of one envelope, the second invalidated: the invalidation is the one
    difference shown; the ids and times are hidden and counted."""
    a, b = _files(real_world, real_world.success, real_world.invalidated)
    invalidation = [
        "  header.replayable: true → false",
        '  header.replayableReason: null → "manually_invalidated"',
    ]
    code, out, _ = _diff(capsys, a, b)
    assert code == ExitCode.PROBLEMS, out
    lines = out.splitlines()
    assert [line for line in lines if line.startswith("  header.")] == invalidation
    [hidden_line] = [line for line in lines if "hidden by the ignore rules" in line]
    hidden = int(hidden_line.split()[0])
    assert hidden > 0 and "--all shows them" in hidden_line
    assert lines[-1] == "different: 2 changed values, 0 changed events"
    code, out, _ = _diff(capsys, a, b, "--all")
    assert code == ExitCode.PROBLEMS
    assert out.rstrip().splitlines()[-1].startswith(f"different: {hidden + 2} changed values, ")
    assert "hidden by the ignore rules" not in out
    changed = [line for line in out.splitlines() if " → " in line and line.startswith("  ")]
    assert any(line.startswith("  events[") and ".timestamp:" in line for line in changed)
    assert any(line.startswith("  header.executionId:") for line in changed)
    assert any(line.startswith("  header.createdUtcIso:") for line in changed)
    code, out, _ = _diff(capsys, a, b, "--json")
    doc = json.loads(out)
    assert code == ExitCode.PROBLEMS and doc["equal"] is False
    shown = [e["path_text"] for e in doc["entries"]]
    assert shown == ["header.replayable", "header.replayableReason"]
    assert doc["hidden"] == hidden and "timestamp" in doc["ignore_rules"]
    doc = json.loads(_diff(capsys, a, b, "--json", "--no-ignore")[1])
    assert doc["equal"] is False and doc["hidden"] == 0 and doc["ignore_rules"] == []
    assert len(doc["entries"]) == hidden + 2


def test_paths_read_one_way_in_text_and_json(
    real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _files(real_world, real_world.success, real_world.fallback)
    doc = json.loads(_diff(capsys, a, b, "--json", "--all")[1])
    texts = [e["path_text"] for e in doc["entries"]]
    assert texts and all(NOTATION.fullmatch(t) for t in texts), texts
    assert any(t.startswith("events[") for t in texts)
    assert not any(re.search(r"\.\d", t) for t in texts)  # never events.1
    payload = [e["path_text"] for e in (doc["first_divergence"] or {}).get("payload_entries", [])]
    assert all(NOTATION.fullmatch(t) for t in payload)
    out = _diff(capsys, a, b, "--all")[1]
    for entry in doc["entries"]:
        assert any(line[2:].startswith(f"{entry['path_text']}:") for line in out.splitlines())


def test_ignore_option_and_config_file_add_rules(
    real_world: RealWorld,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    a, b = _files(real_world, real_world.success, real_world.fallback)
    base = json.loads(_diff(capsys, a, b, "--json")[1])
    shown = {e["path_text"] for e in base["entries"]}
    assert "routerDecision.reason" in shown
    doc = json.loads(_diff(capsys, a, b, "--json", "--ignore", "reason")[1])
    assert "routerDecision.reason" not in {e["path_text"] for e in doc["entries"]}
    assert doc["hidden"] > base["hidden"] and "reason" in doc["ignore_rules"]
    config = tmp_path / "mine.toml"
    config.write_text('ignore = ["envelope.routing.*"]\n', encoding="utf-8")
    monkeypatch.setenv("INTENTUS_TUI_COMPARE", str(config))
    doc = json.loads(_diff(capsys, a, b, "--json")[1])
    paths = {e["path_text"] for e in doc["entries"]}
    assert not any(p.startswith("envelope.routing.") for p in paths)
    assert any(p.startswith("envelope.routing.") for p in shown)
    config.write_text("ignore = [", encoding="utf-8")
    code, _, err = _diff(capsys, a, b)
    assert code == ExitCode.PROBLEMS and "not used" in err and "Traceback" not in err
    code, _, err = _diff(capsys, a, b, "--ignore", " ")
    assert code == ExitCode.USAGE and "--ignore" in err
