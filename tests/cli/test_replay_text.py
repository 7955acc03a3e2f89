"""``replay``'s text for a user: no Python ``None`` for a missing status or time, and one
plain line (no codec or parser jargon) for an ``--envelope`` file it cannot read. Records
written by the real IntentusNet 1.3.0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.real_ids import copy_real_world, save_as


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path) -> Path:
    copy_real_world(real_world, tmp_path)
    return tmp_path


def test_forced_replay_of_a_record_without_a_response_shows_no_none(
    world: Path, real_world: RealWorld
) -> None:
    """1.3.0 leaves an error record cut short, with no final response: forced, it replays
    as null with warnings, and the text says so in words; nothing was returned (exit 3)."""
    out = cli("replay", real_world.error_truncated, "--force", cwd=world)
    assert out.returncode == ExitCode.NOT_REPLAYABLE, out.stderr
    assert "None" not in out.stdout
    lines = out.stdout.splitlines()
    assert re.fullmatch(
        rf"replay of {real_world.error_truncated} \(recorded \d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)",
        lines[0],
    )
    assert "status: none recorded" in lines
    doc = json.loads(
        cli("replay", real_world.error_truncated, "--force", "--json", cwd=world).stdout
    )
    assert doc["status"] is None  # JSON keeps null: a script tells "none" from a status


def test_a_record_without_a_time_says_so(world: Path, real_world: RealWorld) -> None:
    records = world / ".intentusnet" / "records"
    save_as(records, real_world.success, "no-time-1", "")
    out = cli("replay", "no-time-1", cwd=world)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[:2] == [
        "replay of no-time-1 (no recorded time)",
        "status: success",
    ]


def _envelope_files(base: Path) -> dict[str, tuple[Path, str]]:
    """name -> (file, what the line must say)."""
    (base / "adir").mkdir()
    files = {
        "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "it holds binary data, not JSON text"),
        "latin-1": (
            '{"payload": "héllo"}'.encode("latin-1"),
            "it is not UTF-8 text (byte 15 is 0xe9)",
        ),
        "empty": (b"", "the file is empty"),
        "truncated": (b'{"payload": {"text": "hi"', "not valid JSON at line 1, column 26"),
    }
    out: dict[str, tuple[Path, str]] = {}
    for name, (data, says) in files.items():
        path = base / f"{name}.env"
        path.write_bytes(data)
        out[name] = (path, says)
    out["directory"] = (base / "adir", "it is a directory, not a file")
    out["missing"] = (base / "nope.json", "no such file")
    return out


@pytest.mark.parametrize(
    "kind", ["binary", "latin-1", "empty", "truncated", "directory", "missing"]
)
def test_an_unreadable_envelope_file_is_one_plain_line(
    world: Path, real_world: RealWorld, kind: str
) -> None:
    path, says = _envelope_files(world)[kind]
    out = cli("replay", real_world.success[:8], "--envelope", str(path), cwd=world)
    assert out.returncode == ExitCode.USAGE
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert lines == [f"intentus-tui: cannot read envelope file {path}: {says}"]
    for jargon in ("codec", "Errno", "Traceback", "char ", "Expecting"):
        assert jargon not in out.stderr


def test_a_readable_envelope_still_verifies(world: Path, real_world: RealWorld) -> None:
    record = json.loads(
        (world / ".intentusnet" / "records" / f"{real_world.success}.json").read_text()
    )
    envelope = world / "env.json"
    envelope.write_text("\ufeff" + json.dumps(record["envelope"]), encoding="utf-8")  # a BOM
    ok = cli("replay", real_world.success[:8], "--envelope", str(envelope), cwd=world)
    assert ok.returncode == 0, ok.stderr
    envelope.write_text(json.dumps({**record["envelope"], "payload": {"x": 1}}))
    bad = cli("replay", real_world.success[:8], "--envelope", str(envelope), cwd=world)
    assert bad.returncode == ExitCode.MISMATCH
