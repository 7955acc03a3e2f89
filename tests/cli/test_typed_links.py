"""A path typed on the command line is read as typed, like ``cat`` reads it: a symlink is
followed wherever it leads, and its target names the file (its name, the write-ahead log
beside it, what is shown). A link found while scanning a directory is not followed out
of it: the listing and ``verify DIR`` say it was refused."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld


def answer(run: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    """What a command said: its exit code, its output and its errors."""
    return run.returncode, run.stdout, run.stderr


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(a record written where 1.3.0 writes it, with a WAL beside it; a link to it from
    elsewhere; the directory holding that link, with a link out of it too)."""
    from intentus_tui.core.wal.read import encode_wal_line, make_wal_entry

    base = tmp_path / "app" / ".intentusnet"
    record = write_record(base / "records", make_record(execution_id="exec-linked"))
    (base / "wal").mkdir()
    entry = make_wal_entry(
        seq=1,
        execution_id="exec-linked",
        timestamp_iso="2026-01-05T10:00:00+00:00",
        entry_type="execution.started",
        payload={"intent": "Summarize"},
        prev_hash=None,
    )
    (base / "wal" / "exec-linked.wal").write_bytes(encode_wal_line(entry))
    links = tmp_path / "links"
    links.mkdir()
    alias = links / "alias.json"
    alias.symlink_to(record)
    return record, alias, links


def test_a_typed_link_is_followed_to_its_record_by_every_command(
    linked: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    record, alias, _ = linked
    doc = json.loads(cli("inspect", str(alias), "--json").stdout)
    # The target names the file: not "misnamed", and its WAL beside it is joined.
    assert doc["execution_id"] == "exec-linked" and doc["file"] == str(record)
    assert doc["verdict"]["integrity"] == "verified" and doc["wal"] is not None
    inspect = cli("inspect", str(alias))
    assert inspect.returncode == 0 and "not followed" not in inspect.stdout
    verify = cli("verify", str(alias))
    assert verify.returncode == 0, verify.stdout
    assert verify.stdout.startswith(f"ok    {record.name}  hash match")
    replay = cli("replay", str(alias), "--json")
    assert replay.returncode == 0 and json.loads(replay.stdout)["payload"] == {"summary": "done"}
    diff = cli("diff", str(alias), str(record))
    assert diff.returncode == 0, diff.stdout + diff.stderr
    out = tmp_path / "out.jsonl"
    export = cli("export", "--format", "json", str(alias), "-o", str(out))
    assert export.returncode == 0, export.stderr
    assert json.loads(out.read_text("utf-8"))["execution_id"] == "exec-linked"
    snapshot = cli("snapshot", str(alias), "-o", str(tmp_path / "pin.snapshot.json"))
    assert snapshot.returncode == 0, snapshot.stderr


def test_a_typed_link_out_of_its_directory_is_read_like_cat(
    linked: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """``inspect outside.json`` (a link to /etc/passwd) reads /etc/passwd, as ``inspect
    /etc/passwd`` does: not a record, said so; never "outside the directory"."""
    _, _, links = linked
    outside = links / "outside.json"
    outside.symlink_to("/etc/passwd")
    for command in (("inspect",), ("verify",), ("replay", "--force")):
        typed = cli(*command, str(outside), "--json")
        direct = cli(*command, "/etc/passwd", "--json")
        assert typed.returncode == direct.returncode, (command, typed.stderr)
        assert "not followed" not in typed.stdout + typed.stderr, command
        assert typed.stdout == direct.stdout, command
    envelope = tmp_path / "envelope.json"
    envelope.symlink_to(outside)  # a link to a link out: read, and found not to be JSON
    record, _, _ = linked
    run = cli("replay", str(record), "--envelope", str(envelope))
    assert run.returncode == 2 and "not followed" not in run.stderr
    assert run.stderr.startswith(f"intentus-tui: cannot read envelope file {envelope}: ")


def test_a_link_found_while_scanning_is_not_followed_out_of_its_directory(
    linked: tuple[Path, Path, Path],
) -> None:
    _, _, links = linked
    (links / "outside.json").symlink_to("/etc/passwd")
    listing = json.loads(cli("inspect", "--list", str(links), "--json").stdout)
    rows = {row["file"]: row for row in listing["executions"]}
    assert "outside the directory: not followed" in rows["outside.json"]["message"]
    verify = cli("verify", str(links))
    assert verify.returncode == 1
    assert "outside the directory: not followed" in verify.stdout


def test_a_typed_link_that_leads_nowhere_is_said_as_verify_says_it_by_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``inspect dangling.json`` exited 0 with an execution "dangling", corrupted, "Refused:
    symlink to /nonexistent, outside the directory: not followed"; ``replay`` exited 3 (not
    replayable). Nothing is there, as with a missing path: verify's line, exit 2."""
    monkeypatch.chdir(tmp_path)
    Path("dangling.json").symlink_to("/nonexistent")
    Path("loop.json").symlink_to("loop.json")
    out = str(tmp_path / "out.jsonl")
    for link, why in (
        ("dangling.json", "the link leads nowhere (its target does not exist)"),
        ("loop.json", "the link loops (it leads back to itself)"),
    ):
        says = f"cannot follow {link}: {why}"
        for command in (
            ("inspect", link),
            ("replay", link),
            ("replay", "--force", link),
            ("replay", "--strict", link),
            ("diff", link, link),
            ("snapshot", link, "-o", str(tmp_path / "pin.snapshot.json")),
            ("export", "--format", "otlp", link, "-o", out),
        ):
            run = cli(*command, cwd=tmp_path)
            assert (run.returncode, run.stderr, run.stdout) == (
                ExitCode.USAGE,
                f"intentus-tui: {says}\n",
                "",
            ), command
        for command in (("inspect", link), ("replay", link), ("diff", link, link)):
            run = cli(*command, "--json", cwd=tmp_path)
            assert run.returncode == ExitCode.USAGE, command
            assert json.loads(run.stdout) == {"error": says, "exit_code": ExitCode.USAGE}
        assert cli("verify", link, cwd=tmp_path).stderr == f"intentus-tui: {says}\n"
    assert os.path.islink("dangling.json") and not Path(out).exists()


def test_verify_says_a_link_that_loops_or_leads_nowhere_cannot_be_followed(
    linked: tuple[Path, Path, Path],
) -> None:
    """``verify LINK`` checked such a link as a record ("FAIL loop hash unreadable",
    "file vanished (deleted or renamed while being read)"): it is one line naming the
    link, a failure, and the other arguments are verified."""
    record, _, links = linked
    loop = links / "loop"
    loop.symlink_to(loop)
    dangling = links / "dangling.json"
    dangling.symlink_to(links / "nowhere.json")
    for link, why in (
        (loop, "the link loops (it leads back to itself)"),
        (dangling, "the link leads nowhere (its target does not exist)"),
    ):
        says = f"cannot follow {link}: {why}"
        alone = cli("verify", str(link))
        assert alone.returncode == ExitCode.PROBLEMS, alone
        assert alone.stderr == f"intentus-tui: {says}\n" and alone.stdout == ""
        doc = json.loads(cli("verify", str(link), "--json").stdout)
        assert doc == {"error": says, "exit_code": ExitCode.PROBLEMS}
    both = cli("verify", str(loop), str(record))
    assert both.returncode == ExitCode.PROBLEMS, both
    assert (
        both.stderr
        == f"intentus-tui: cannot follow {loop}: the link loops (it leads back to itself)\n"
    )
    assert both.stdout.startswith(f"ok    {record.name}  hash match")
    assert "loop" not in both.stdout.splitlines()[0]
    # The link is not a root: the last line said "1 root not opened (failed)"; then "1
    # failed" of the one record checked, which passed (the link was the failure).
    assert both.stdout.splitlines()[-1] == (
        "1 checked (1 record, 0 WALs), 0 failed; 1 named path could not be read (failed)"
    )
    doc = json.loads(cli("verify", "--json", str(loop), str(record)).stdout)
    assert doc["records"] == 1 and doc["files"][0]["ok"] is True
    assert (doc["ok"], doc["failed"], doc["not_read"]) == (False, 0, 1)
    assert doc["unopened"] == [
        {
            "root": str(loop),
            "problem": f"cannot follow {loop}: the link loops (it leads back to itself)",
        }
    ]


def test_a_link_in_the_store_gets_one_answer_by_its_id_or_by_its_name(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """``inspect ID --dir D`` of a record file that is a link leading nowhere exited 0 with
    its verdict (a record that cannot be read, as the list shows it), while ``inspect
    ID.json --dir D``, the same file by its name, exited 2 ("cannot follow"); a link out of
    the store, refused by its id, was followed by its name (and read /etc/passwd); then
    refused by both (exit 2) while the list showed it as a row, a record not read."""
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    (records / "5a000001-0000-4000-8000-000000000000.json").symlink_to("gone.json")
    (records / "5a000002-0000-4000-8000-000000000000.json").symlink_to(
        "5a000002-0000-4000-8000-000000000000.json"
    )
    (records / "5a000003-0000-4000-8000-000000000000.json").symlink_to("/etc/passwd")
    listed = json.loads(cli("inspect", "--list", "--dir", str(records), "--json").stdout)
    rows = {row["execution_id"]: row for row in listed["executions"]}
    for n in (1, 2, 3):
        execution = f"5a00000{n}-0000-4000-8000-000000000000"
        for json_flag in ((), ("--json",)):
            by_id = cli("inspect", execution, "--dir", str(records), *json_flag)
            by_name = cli("inspect", f"{execution}.json", "--dir", str(records), *json_flag)
            assert answer(by_name) == answer(by_id), (execution, json_flag)
            assert by_id.returncode == ExitCode.OK, (execution, by_id.stderr)
        doc = json.loads(by_id.stdout)  # the --json run: as the list shows it
        assert doc["load_status"] == "unreadable"
        assert doc["message"] == rows[execution]["message"]
        assert doc["verdict"]["integrity"] == rows[execution]["integrity"] == "unverifiable"
        assert (
            doc["verdict"]["replay"] == rows[execution]["replayable_reason"] == "record_corrupted"
        )
    assert "symlink to /etc/passwd, outside the directory: not followed" in doc["message"]


def _store_with_a_record_linked_out(
    real_world: RealWorld, tmp_path: Path
) -> tuple[Path, Path, Path, Path]:
    """(base, its records, a directory elsewhere, the store's link to a real record there):
    the success as a record of the store, the fallback's record linked out of it."""
    base = tmp_path / "app"
    records = base / ".intentusnet" / "records"
    records.mkdir(parents=True)
    shutil.copy(real_world.records_dir / f"{real_world.success}.json", records)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(real_world.records_dir / f"{real_world.fallback}.json", elsewhere)
    out = records / f"{real_world.fallback}.json"  # a real record, out of the store
    out.symlink_to(elsewhere / out.name)
    return base, records, elsewhere, out


def test_a_link_out_of_the_store_is_a_record_not_read_for_every_command_by_its_id(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """The list and ``verify`` show a record file that is a link out of the store as a row,
    a record not read ("Refused: symlink to …: not followed"); ``inspect`` of that row's
    id, name or prefix said ``refused: … outside the store`` and exited 2 (a usage error),
    as did ``replay``, ``diff`` and ``snapshot``. Each answers now as for a link in the
    store that leads nowhere, another file that cannot be read; the target is never read."""
    base, records, _elsewhere, out = _store_with_a_record_linked_out(real_world, tmp_path)
    (records / "aaaa1111-2222-4333-8444-555566667777.json").symlink_to("/etc/passwd")
    (records / "dddd1111-2222-4333-8444-555566667777.json").symlink_to("gone.json")
    pin = str(tmp_path / "pin.snapshot.json")
    commands = (
        ("inspect",),
        ("inspect", "--json"),
        ("verify",),
        ("replay",),
        ("replay", "--force"),
        ("replay", "--json"),
        ("diff", real_world.success),
        ("snapshot", "-o", pin),
    )
    for command in commands:
        nowhere = cli(*command, "dddd1111", cwd=base)
        assert "leads nowhere" in nowhere.stdout + nowhere.stderr, (command, nowhere.stderr)
        for named in ("aaaa1111", "aaaa1111-2222-4333-8444-555566667777.json", out.name[:8]):
            run = cli(*command, named, cwd=base)
            assert run.returncode == nowhere.returncode, (command, named, run.stderr)
            said = run.stdout + run.stderr
            assert "outside the directory: not followed" in said, (command, named, said)
            assert "outside the store" not in said and "Summarize" not in said, (command, named)
        if command[0] != "verify":  # (it takes no --dir)
            elsewhere_run = cli(*command, "aaaa", "--dir", str(base), cwd=tmp_path)
            assert elsewhere_run.returncode == nowhere.returncode, command
    assert not Path(pin).exists()
    shown = cli("inspect", "aaaa1111", cwd=base).stdout
    assert "not read: Refused: symlink to /etc/passwd, outside the directory: not followed" in shown
    assert "replayable  no (record_corrupted)" in shown
    listed = cli("inspect", "--list", cwd=base).stdout
    row = next(line for line in listed.splitlines() if line.startswith("aaaa1111"))
    assert "unknown    unverifiable  no (record_corrupted)" in row


def test_a_link_out_of_the_store_typed_as_a_path_from_inside_it_is_not_followed(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """From the records directory (or its ``.intentusnet``'s parent), ``inspect X.json``,
    the store's link out typed as a path, followed it and showed the target (a record of
    another store, /etc/passwd), where ``inspect X`` said "not followed". A path that leads
    to the store's entry, however typed, is that file: every command answers as by its id."""
    base, records, elsewhere, out = _store_with_a_record_linked_out(real_world, tmp_path)
    passwd = records / "aaaa1111-2222-4333-8444-555566667777.json"
    passwd.symlink_to("/etc/passwd")
    alias = tmp_path / "alias.json"  # a link to the store's link: it leads to the store
    alias.symlink_to(passwd)
    pin = str(tmp_path / "pin.snapshot.json")
    cases = [
        (real_world.fallback, [(records, out.name), (records, f"./{out.name}")]),
        (
            passwd.stem,
            [
                (records, passwd.name),
                (records, f"./{passwd.name}"),
                (base, f".intentusnet/records/{passwd.name}"),
                (base, str(alias)),
            ],
        ),
    ]
    for execution, typed in cases:
        for cwd, path in typed:
            for command in (("inspect",), ("inspect", "--json"), ("verify",), ("replay",)):
                by_id = cli(*command, execution, cwd=cwd)
                run = cli(*command, path, cwd=cwd)
                assert answer(run) == answer(by_id), (command, cwd, path)
                assert "outside the directory: not followed" in run.stdout + run.stderr
            for command in (("diff", real_world.success), ("snapshot", "-o", pin)):
                by_id = cli(*command, execution, cwd=cwd)
                run = cli(*command, path, cwd=cwd)
                assert run.returncode == by_id.returncode, (command, cwd, path, run.stderr)
                said = run.stdout + run.stderr
                assert "outside the directory: not followed" in said, (command, path, said)
                assert "Summarize" not in said and "root:" not in said, (command, path)
    assert not Path(pin).exists()
    # With --dir, the store's file typed by its path is that store's, as its name is.
    by_dir = cli("inspect", str(passwd), "--dir", str(records), "--json", cwd=tmp_path)
    doc = json.loads(by_dir.stdout)
    assert doc["file"] == str(passwd) and doc["load_status"] == "unreadable"
    # A file of the store that is no link, and a link elsewhere, are read as typed.
    success = cli("inspect", f"{real_world.success}.json", "--json", cwd=records)
    assert json.loads(success.stdout)["execution_id"] == real_world.success
    followed = cli("inspect", str(elsewhere / out.name), "--json", cwd=records)
    assert json.loads(followed.stdout)["execution_id"] == real_world.fallback


def test_a_log_linked_out_of_the_store_typed_as_a_path_is_not_followed(tmp_path: Path) -> None:
    """``inspect .intentusnet/wal/X.wal``, a link of the write-ahead log directory to
    /etc/passwd, read /etc/passwd as a record ("execution passwd … invalid JSON") where
    ``inspect X`` and the list say the log was refused ("not followed")."""
    base = tmp_path / "app"
    wal = base / ".intentusnet" / "wal"
    wal.mkdir(parents=True)
    (base / ".intentusnet" / "records").mkdir()
    (wal / "evil.wal").symlink_to("/etc/passwd")
    for cwd, path in ((base, ".intentusnet/wal/evil.wal"), (wal, "evil.wal")):
        for command in (("inspect",), ("inspect", "--json"), ("replay",)):
            by_id = cli(*command, "evil", cwd=base)
            run = cli(*command, path, cwd=cwd)
            assert answer(run) == answer(by_id), (command, cwd, path)
            assert "passwd" not in run.stdout.replace("symlink to /etc/passwd", "")
        checked = cli("verify", path, cwd=cwd)
        assert checked.returncode == 1
        assert "evil.wal  wal cannot be checked: refused: symlink to /etc/passwd" in checked.stdout
