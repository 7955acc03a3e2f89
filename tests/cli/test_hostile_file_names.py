"""A record directory may hold files a hostile writer named: a newline in a name must not
forge an output line (an ``ok`` line for a record that fails), and no other control
character in a name reaches the terminal. Every command shows such a name with visible
placeholders (``␊``, ``␍``, ``␛``, ``⟨U+202E⟩``), as ``inspect --list`` does."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.real_ids import write_wal_only

FORGERY = (
    "a\nok    payments-audit.json  hash match\n"
    "      verdict: outcome succeeded, integrity verified; replayable\nFAIL  b"
)
# name stem -> how it is shown
HOSTILE = {
    FORGERY: "a␊ok    payments-audit.json  hash match␊"
    "      verdict: outcome succeeded, integrity verified; replayable␊FAIL  b",
    "cr\rok": "cr␍ok",
    "esc\x1b[32mgreen": "esc␛[32mgreen",
    "bidi\u202eRTL": "bidi⟨U+202E⟩RTL",
    "tab\tname": "tab␉name",
}
RAW = ("\r", "\x1b", "\u202e", "\t", "\x7f", "\x9b")


def _assert_inert(text: str) -> None:
    assert not any(char in text for char in RAW), repr(text)


@pytest.fixture
def garbage(tmp_path: Path) -> Path:
    """A directory of files that are not records, each under a hostile name."""
    directory = tmp_path / "hostile"
    directory.mkdir()
    for stem in HOSTILE:
        (directory / f"{stem}.json").write_text("garbage", "utf-8")
    return directory


def test_verify_shows_hostile_names_visibly_one_line_each(garbage: Path) -> None:
    run = cli("verify", str(garbage))
    assert run.returncode == ExitCode.PROBLEMS, run.stderr
    lines = run.stdout.splitlines()
    # Each file: its FAIL line, why, its verdict; then the total. Nothing forged.
    assert len(lines) == 3 * len(HOSTILE) + 1, run.stdout
    marks = [line for line in lines if not line.startswith(" ")]
    assert len(marks) == len(HOSTILE) + 1
    assert all(line.startswith("FAIL  ") for line in marks[:-1]), marks
    assert not any(line.startswith("ok") for line in lines)
    for shown in HOSTILE.values():
        assert f"FAIL  {shown}.json  hash not checked (not a readable record)" in lines
    _assert_inert(run.stdout)


def test_verify_names_a_hostile_wal_visibly(tmp_path: Path) -> None:
    wal_dir = tmp_path / ".intentusnet" / "wal"
    write_wal_only(wal_dir, FORGERY)
    run = cli("verify", str(wal_dir))
    assert run.returncode == ExitCode.OK, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"ok    {HOSTILE[FORGERY]}.wal  wal chain verified")
    assert len(lines) == 3, run.stdout  # the WAL, its verdict, the total


def test_inspect_of_a_hostile_file_shows_its_name_visibly(
    real_world: RealWorld, tmp_path: Path
) -> None:
    plain = tmp_path / "plain.json"
    shutil.copy(real_world.records_dir / f"{real_world.success}.json", plain)
    hostile = tmp_path / f"{FORGERY}.json"
    shutil.copy(plain, hostile)
    expected = cli("inspect", str(plain)).stdout.splitlines()
    run = cli("inspect", str(hostile))
    assert run.returncode == ExitCode.OK, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(expected), run.stdout
    assert f"file        {tmp_path}/{HOSTILE[FORGERY]}.json" in lines
    _assert_inert(run.stdout)


@pytest.mark.parametrize("stem", list(HOSTILE))
def test_replay_of_a_hostile_file_is_one_error_line(garbage: Path, stem: str) -> None:
    run = cli("replay", str(garbage / f"{stem}.json"))
    assert run.returncode == ExitCode.NOT_REPLAYABLE
    assert run.stdout == ""
    (line,) = run.stderr.splitlines()
    assert f"{HOSTILE[stem]}.json)" in line and "the file is not a readable record: " in line
    _assert_inert(run.stderr)


@pytest.mark.parametrize(
    "command",
    [
        ("snapshot", "w-", "-o", "out.json"),
        ("diff", "w-", "w-"),
        ("bundle", "w-", "-o", "out.tar.gz"),
    ],
)
def test_errors_naming_a_hostile_wal_only_execution_are_one_line(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    wal_dir = tmp_path / ".intentusnet" / "wal"
    (tmp_path / ".intentusnet" / "records").mkdir(parents=True)
    write_wal_only(wal_dir, "w-\nFORGED\t")
    run = cli(*command, cwd=tmp_path)
    assert run.returncode == ExitCode.USAGE, run
    (line,) = run.stderr.splitlines()
    assert "w-␊FORGED␉" in line
    _assert_inert(run.stderr)


def test_an_id_as_listed_names_its_execution(tmp_path: Path) -> None:
    """Listings show a hostile id with placeholders (``--json`` too): that shown form,
    whole or as a prefix, names the execution in every command that takes an id."""
    import json

    from tests.factories import make_record, write_record

    records = tmp_path / "records"
    hostile = "esc\x1b]0;TITLE\x07\x1b[32mid\u202e"
    write_record(records, make_record(execution_id=hostile))
    write_record(records, make_record(execution_id="plain-1"))
    listed = json.loads(cli("inspect", "--list", "--json", str(records)).stdout)
    (shown,) = [r["execution_id"] for r in listed["executions"] if r["execution_id"] != "plain-1"]
    assert shown == "esc␛]0;TITLE␇␛[32mid⟨U+202E⟩"
    for text in (shown, shown[:6]):
        run = cli("inspect", text, "--dir", str(records), "--json")
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout)["verdict"]["outcome"] == "succeeded"
    replayed = cli("replay", shown, "--dir", str(records))
    assert replayed.returncode == 0, replayed.stderr
    _assert_inert(replayed.stdout + replayed.stderr)


def test_a_name_that_is_not_utf8_is_exact_in_every_json_output(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A record file named with bytes that are not UTF-8: ``--json`` gives its name back
    exactly, as ``\\u`` escapes (each byte was three U+FFFD: no script could open it)."""
    import json
    import os

    base = tmp_path / ".intentusnet"
    records = base / "records"
    records.mkdir(parents=True)
    raw = b"odd-\xff\xfe.json"
    shutil.copy(real_world.records_dir / f"{real_world.success}.json", records / os.fsdecode(raw))
    cache = {**os.environ, "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache")}
    listings = [
        cli("inspect", "--list", "--json", "--no-cache", str(tmp_path)),
        cli("inspect", "--list", "--json", str(tmp_path), env=cache),  # rows made for the cache
        cli("inspect", "--list", "--json", str(tmp_path), env=cache),  # rows from the cache
    ]
    for run in listings:
        assert run.returncode == 0, run.stderr
        (row,) = json.loads(run.stdout)["executions"]
        assert os.fsencode(row["file"]) == raw and "\ufffd" not in run.stdout
    run = cli("verify", "--json", str(tmp_path))
    (entry,) = [e for e in json.loads(run.stdout)["files"] if e["kind"] == "record"]
    assert os.fsencode(Path(entry["file"]).name) == raw
    run = cli("export", "--format", "json", "-o", "-", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert os.fsencode(Path(json.loads(run.stdout)["file"]).name) == raw
