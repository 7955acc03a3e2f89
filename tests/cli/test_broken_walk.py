"""A user's walk through a broken records directory of real intentusnet 1.3.0 records:
what each command says of the entries that are not whole records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from rich.cells import cell_len

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli, run_in_pty
from tests.intentusnet_world import RealWorld


@pytest.fixture
def broken(real_world: RealWorld, tmp_path: Path) -> Path:
    """Real records beside a dangling link, a link leading outside, a directory named
    ``x.json`` and a truncated copy of the successful record."""
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    whole = (records / f"{real_world.success}.json").read_bytes()
    (records / f"{real_world.success}.trunc.json").write_bytes(whole[:1500])
    (records / "dangling.json").symlink_to(records / "nowhere.json")
    (records / "outside.json").symlink_to(Path("/etc/passwd"))
    (records / "x.json").mkdir()
    (records / "notjson.json").write_text("not json {\n")
    (records / "empty.json").write_bytes(b"")
    return records


def test_verify_an_empty_directory_beside_other_paths_is_one_failed_line(
    broken: Path, real_world: RealWorld
) -> None:
    """``verify dangling.json RECORD x.json`` stopped at x.json ("nothing to verify", exit
    2): the record named beside it was never verified. Beside other paths, a directory with
    nothing to verify is one line counted as failed, as a missing path is."""
    record = f"{real_world.success}.json"
    done = cli("verify", "dangling.json", record, "x.json", cwd=broken)
    assert done.returncode == ExitCode.PROBLEMS, done
    assert done.stderr.splitlines() == [
        "intentus-tui: cannot follow dangling.json: the link leads nowhere (its target does not exist)",
        "intentus-tui: nothing to verify in x.json: no records (*.json) or WALs (*.wal)",
    ]
    assert done.stdout.startswith(f"ok    {record}  hash match")
    assert done.stdout.splitlines()[-1] == (
        "1 checked (1 record, 0 WALs), 0 failed; 2 named paths could not be read (failed)"
    )
    doc = json.loads(cli("verify", "--json", record, "x.json", cwd=broken).stdout)
    assert doc["records"] == 1 and doc["files"][0]["ok"] is True
    assert (doc["ok"], doc["failed"], doc["not_read"]) == (False, 0, 1)  # as the text says
    assert doc["unopened"] == [
        {
            "root": "x.json",
            "problem": "nothing to verify in x.json: no records (*.json) or WALs (*.wal)",
        }
    ]
    # Alone, or beside paths that are not there either, it is still nothing to verify.
    for args in (["x.json"], ["x.json", "nosuch.json"]):
        nothing = cli("verify", *args, cwd=broken)
        assert nothing.returncode == ExitCode.USAGE, nothing
        assert nothing.stdout == ""


def test_the_listing_of_a_broken_directory_fits_80_columns_with_its_verdict_said(
    broken: Path, real_world: RealWorld
) -> None:
    """At 80 columns, ``no (record_corrupted)`` and ``no (manually_invalidated)`` wrapped
    every row of a table with a FILE column ("still wider than 80 columns"), and the two
    copies of a record were both ``2f332d19-97…``. The reasons are said in their telling
    word, each named with its code on the last lines; the files' names keep their end."""
    narrow = run_in_pty("inspect", "--list", str(broken), cwd=broken.parent, columns=80)
    lines = narrow.decode().replace("\r\n", "\n").splitlines()
    assert all(cell_len(line) <= 80 for line in lines), lines
    end = next(i for i, line in enumerate(lines) if line.startswith("("))
    header, rows, note = lines[0].split(), lines[1:end], " ".join(lines[end:])
    assert header == ["EXECUTION", "FILE", "OUTCOME", "INTEGRITY", "REPLAY"]
    assert note.startswith("(fitted to 80 columns:")
    # The truncated copy is damaged, not "unknown (untrusted)" for its copy's name: the
    # verdict's cells fit whole (shortened as tests/render/test_table.py shows when not).
    assert "said shorter" not in note
    piped = cli("inspect", "--list", str(broken), cwd=broken.parent).stdout.splitlines()
    assert len(rows) == len(piped) - 1 == 10
    said = {"corrupted": "record_corrupted", "invalidated": "manually_invalidated"}
    for row, whole in zip(rows, piped[1:], strict=True):
        outcome, integrity, replay = _verdict(row)
        assert f"  {outcome}  " in whole and f"  {integrity}  " in whole
        code = replay.removeprefix("no (").removesuffix(")")
        assert f"  {'yes' if replay == 'yes' else f'no ({said.get(code, code)})'}  " in whole
    copies = [row.split()[1] for row in rows if row.startswith(real_world.success[:8])]
    assert len(copies) == 2 and copies[0] != copies[1] and copies[1].endswith("trunc.json")


def _verdict(row: str) -> tuple[str, str, str]:
    """A narrow row's OUTCOME, INTEGRITY and REPLAY cells."""
    cells = [cell.strip() for cell in row.split("  ") if cell.strip()]
    return cells[-3], cells[-2], cells[-1]


def test_a_prefix_of_an_id_in_several_files_names_every_file_and_how_to_pick_one(
    broken: Path, real_world: RealWorld
) -> None:
    """``inspect PREFIX`` where the record, a truncated copy and a 20 MB copy named
    otherwise hold the execution said "2 executions match: ID, ID.trunc": the big copy was
    not named, and ``ID.trunc`` is a file's stem, not an id. Each file is named, and how to
    name one of them; with several roots, as ``LABEL:FILE``."""
    whole = json.loads((broken / f"{real_world.success}.json").read_text())
    whole["padding"] = "x" * (17 * 1024 * 1024)  # over 16 MB: listed from its head and tail
    (broken / "huge.json").write_text(json.dumps(whole))
    files = f"{real_world.success}.json, {real_world.success}.trunc.json, huge.json"
    asked = cli("inspect", real_world.success[:8], "--dir", str(broken), cwd=broken.parent)
    assert asked.returncode == ExitCode.USAGE and asked.stdout == ""
    assert asked.stderr == (
        f"intentus-tui: execution '{real_world.success}' is recorded in 3 files: {files} "
        "(name the file instead: its path, or its name with --dir)\n"
    )
    # As it says: each file names its execution.
    picked = cli("inspect", "huge.json", "--dir", str(broken), "--json", cwd=broken.parent)
    assert json.loads(picked.stdout)["execution_id"] == real_world.success
    other = broken.parent / "other"
    other.mkdir()
    shutil.copy(broken / f"{real_world.fallback}.json", other)
    several = cli(
        "inspect",
        real_world.success[:8],
        "--dir",
        str(broken),
        "--dir",
        str(other),
        cwd=broken.parent,
    )
    assert several.returncode == ExitCode.USAGE
    label = broken.parent.name  # the project's name
    assert several.stderr == (
        f"intentus-tui: execution '{real_world.success}' is recorded in 3 files of root "
        f"{label}: {files} (name the file instead: {label}:FILE, as {label}:huge.json)\n"
    )
    picked = cli(
        "inspect",
        f"{label}:huge.json",
        "--dir",
        str(broken),
        "--dir",
        str(other),
        "--json",
        cwd=broken.parent,
    )
    assert json.loads(picked.stdout)["execution_id"] == real_world.success


def test_inspect_says_an_entry_that_was_not_read_is_not_read(broken: Path) -> None:
    """``inspect ID`` of a link leading nowhere or of a directory named ``x.json`` said
    ``status corrupted``, as of a damaged file: it was never read, and says what it is, as
    ``verify DIR`` says it. ``--json`` keeps IntentusNet's ``status`` vocabulary."""
    said = {
        "dangling": "Cannot read: the link leads nowhere (its target does not exist)",
        "x": "Named like a record but is a directory",
    }
    verified = cli("verify", str(broken), cwd=broken.parent).stdout
    for name, words in said.items():
        shown = cli("inspect", name, "--dir", str(broken), cwd=broken.parent)
        assert shown.returncode == 0, shown.stderr
        found = words.removeprefix("Cannot read: ")  # said once
        assert shown.stdout.splitlines()[2] == f"status      not read: {found}"
        assert f"FAIL  {name}.json" in verified and f"      - {words}" in verified
        doc = json.loads(cli("inspect", name, "--dir", str(broken), "--json").stdout)
        assert doc["status"] == "corrupted" and doc["replayable_reason"] == "record_corrupted"
        clause = found[0].lower() + found[1:]  # the rest of the verdict's sentence
        assert doc["replayable_detail"].startswith(f"the file cannot be read ({clause})")
    damaged = cli("inspect", "notjson", "--dir", str(broken), cwd=broken.parent)
    assert damaged.stdout.splitlines()[2] == "status      corrupted"


def test_a_log_of_one_entry_is_counted_as_one_entry(tmp_path: Path) -> None:
    """``verify`` and ``inspect`` said "chain verified: 1 entries" and "the 1 complete
    entries verify" of a log IntentusNet 1.3.0 wrote one entry into before it died."""
    from intentusnet.wal.writer import WALWriter

    wal = tmp_path / ".intentusnet" / "wal"
    wal.mkdir(parents=True)
    with WALWriter(str(wal), "exec-one") as writer:
        writer.execution_started("ab" * 32, "SearchIntent")
    log = wal / "exec-one.wal"
    done = cli("verify", str(log), cwd=tmp_path)
    assert done.stdout.startswith("ok    exec-one.wal  wal chain verified: 1 entry, in flight\n")
    shown = cli("inspect", "exec-one", cwd=tmp_path).stdout
    assert "wal         1 entry; in flight" in shown.splitlines()
    with log.open("ab") as out:
        out.write(b'{"seq": 2, "ex')  # torn: the process died appending its second entry
    torn = cli("verify", str(log), cwd=tmp_path).stdout
    assert "; the 1 complete entry verifies (in flight)\n" in torn


def test_replay_refuses_an_entry_that_holds_no_record_in_its_verdicts_words(
    broken: Path,
) -> None:
    """``replay empty`` said only ``…/empty.json: File is empty`` (``replay x``: "Named
    like a record but is a directory"), where ``inspect`` and ``inspect --list`` say ``no
    (record_corrupted)`` and why: a script looking for "not replayable" on stderr missed
    it. The refusal gives the verdict's code and reason, as for a record, and the file."""
    listed = json.loads(cli("inspect", "--list", str(broken), "--json").stdout)
    rows = {row["execution_id"]: row for row in listed["executions"]}
    for name in ("empty", "x", "dangling", "notjson"):
        row = rows[name]
        assert row["replayable_reason"] == "record_corrupted"
        for flags in ((), ("--force",)):
            run = cli("replay", name, "--dir", str(broken), *flags)
            assert (run.returncode, run.stdout) == (ExitCode.NOT_REPLAYABLE, ""), run
            (line,) = run.stderr.splitlines()
            assert line.startswith(
                f"intentus-tui: not replayable (record_corrupted): {row['replayable_detail']}"
            ), line
            assert f"{broken / name}.json" in line
            found = row["message"].removeprefix("Cannot read: ").lower()  # said once
            assert line.lower().count(found) == 1, line
        doc = json.loads(cli("replay", name, "--dir", str(broken), "--json").stdout)
        assert doc["reason"] == "record_corrupted"
        assert doc["detail"].startswith(row["replayable_detail"]), doc


def test_the_verdict_of_a_link_leading_nowhere_says_cannot_be_read_once(broken: Path) -> None:
    """``inspect dangling`` said "outcome unknown: the file cannot be read: Cannot read: the
    link leads nowhere" and "no (record_corrupted): the file cannot be read (Cannot read:
    the link leads nowhere …)", the list and ``replay`` too: it is said once."""
    why = "the link leads nowhere (its target does not exist)"
    shown = cli("inspect", "dangling", "--dir", str(broken), cwd=broken.parent).stdout
    verdict = [line for line in shown.splitlines() if line.startswith("  ")][:3]
    assert verdict[0] == f"  outcome     unknown: the file cannot be read: {why}"
    assert verdict[2].startswith(
        f"  replayable  no (record_corrupted): the file cannot be read ({why}): "
    )
    listed = json.loads(cli("inspect", "--list", str(broken), "--json").stdout)
    (row,) = [row for row in listed["executions"] if row["execution_id"] == "dangling"]
    refused = cli("replay", "dangling", "--dir", str(broken)).stderr
    for said in (row["outcome_reason"], row["replayable_detail"], refused):
        assert said.lower().count("cannot be read") + said.lower().count("cannot read") == 1


def test_a_directory_named_like_a_record_is_its_list_row_by_id_and_a_directory_as_a_path(
    broken: Path, real_world: RealWorld
) -> None:
    """The list shows ``x.json`` (a directory) as a record not read, and ``inspect x`` (its
    row's id) says so. Typed as a path or a file name, it is a directory: one line, exit 2,
    wherever the command runs. ``inspect .../x.json`` showed a post-mortem (exit 0) from the
    store's directory and said "is a directory" (exit 2) from anywhere else."""
    words = "Named like a record but is a directory"
    other = real_world.success
    dirs = ["--dir", str(broken)]
    shown = cli("inspect", "x", *dirs, cwd=broken)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[2] == f"status      not read: {words}"
    replayed = cli("replay", "x", *dirs, cwd=broken)
    assert replayed.returncode == ExitCode.NOT_REPLAYABLE, replayed.stderr
    assert "(named like a record but is a directory)" in replayed.stderr
    compared = cli("diff", "x", other, *dirs, cwd=broken)
    assert compared.returncode == ExitCode.USAGE
    assert compared.stderr == f"intentus-tui: x: {words}\n"
    full = str(broken / "x.json")
    for name, where, cwd in (
        ("x.json", dirs, broken),
        ("x.json", [], broken),
        (full, [], broken),
        (full, [], broken.parent),
        (full, [], Path("/")),
    ):
        for command in ("inspect", "replay"):
            run = cli(command, name, *where, cwd=cwd)
            assert (run.returncode, run.stdout) == (ExitCode.USAGE, ""), (name, cwd, run)
            (line,) = run.stderr.splitlines()
            assert "is a directory, not a record file or execution id" in line, line
    # A directory typed that is no store's entry is one to list, not a record.
    elsewhere = cli("inspect", str(broken), cwd=broken.parent)
    assert elsewhere.returncode == ExitCode.USAGE
    assert "is a directory, not a record file or execution id" in elsewhere.stderr


def test_verify_json_counts_what_could_not_be_read_apart_from_what_failed(
    broken: Path, real_world: RealWorld
) -> None:
    """``verify --json RECORD missing.json`` said ``"failed": 1`` of one record that passed,
    where the text's last line says "0 failed; 1 named path could not be read (failed)":
    ``failed`` counts the files checked, as the text does, and ``not_read`` the paths named
    that could not be read (each in ``unopened``); both fail the run (exit 1, ``ok`` false)."""
    record = f"{real_world.success}.json"
    args = ("verify", record, "missing.json", "dangling.json")
    text = cli(*args, cwd=broken)
    assert text.returncode == ExitCode.PROBLEMS
    assert text.stdout.splitlines()[-1] == (
        "1 checked (1 record, 0 WALs), 0 failed; 2 named paths could not be read (failed)"
    )
    run = cli(*args, "--json", cwd=broken)
    assert run.returncode == ExitCode.PROBLEMS
    doc = json.loads(run.stdout)
    assert (doc["ok"], doc["checked"], doc["failed"], doc["not_read"]) == (False, 1, 0, 2)
    assert len(doc["unopened"]) == doc["not_read"]
