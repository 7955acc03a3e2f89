"""Every command that takes an execution id takes a unique prefix of it (the debugger shows
8 characters), over records written by the real IntentusNet 1.3.0."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.real_ids import copy_real_world, save_as, write_wal_only

TWIN_A = "580f2534-aaaa-4000-8000-000000000001"
TWIN_B = "580f2534-bbbb-4000-8000-000000000002"
WAL_ONLY = "9c0ffee1-1111-4111-8111-111111111111"


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path) -> Path:
    """A project directory (the commands run in it): the real records, two more whose ids
    share their first 8 characters, and a WAL-only execution."""
    records = copy_real_world(real_world, tmp_path)
    save_as(records, real_world.success, TWIN_A)
    save_as(records, real_world.fallback, TWIN_B)
    write_wal_only(records.parent / "wal", WAL_ONLY)
    (tmp_path / "out").mkdir()
    return tmp_path


def _one_error_line(out: subprocess.CompletedProcess[str], code: int = ExitCode.USAGE) -> str:
    assert out.returncode == code, out
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def test_inspect_takes_the_8_characters_the_debugger_shows(
    world: Path, real_world: RealWorld
) -> None:
    out = cli("inspect", real_world.fallback[:8], "--json", cwd=world)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["execution_id"] == real_world.fallback
    text = cli("inspect", real_world.fallback[:8], cwd=world)
    assert text.stdout.startswith(f"execution   {real_world.fallback}\n")


def test_replay_takes_a_prefix(world: Path, real_world: RealWorld) -> None:
    out = cli("replay", real_world.success[:8], "--json", cwd=world)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["original_execution_id"] == real_world.success


def test_diff_takes_prefixes(world: Path, real_world: RealWorld) -> None:
    out = cli("diff", real_world.success[:8], TWIN_A[:10], "--json", cwd=world)
    assert out.returncode == ExitCode.OK, out.stderr  # the same record saved under a new id
    doc = json.loads(out.stdout)
    assert (doc["a"]["execution_id"], doc["b"]["execution_id"]) == (real_world.success, TWIN_A)


def test_snapshot_takes_a_prefix(world: Path, real_world: RealWorld) -> None:
    target = world / "out" / "snap.json"
    out = cli("snapshot", real_world.invalidated[:8], "-o", str(target), cwd=world)
    assert out.returncode == 0, out.stderr
    snapshot = json.loads(target.read_text())
    assert real_world.invalidated in json.dumps(snapshot)


@pytest.mark.parametrize(
    "command",
    [
        ("inspect", "580f2534"),
        ("inspect", "580f2534", "--json"),
        ("replay", "580f2534"),
        ("diff", "580f2534", "c"),
        ("snapshot", "580f2534", "-o", "out/s.json"),
    ],
)
def test_an_ambiguous_prefix_exits_2_naming_the_candidates(
    world: Path, command: tuple[str, ...]
) -> None:
    line = _one_error_line(cli(*command, cwd=world))
    assert "'580f2534' is ambiguous" in line and TWIN_A in line and TWIN_B in line
    assert not (world / "out" / "s.json").exists()


@pytest.mark.parametrize(
    "command",
    [
        ("inspect", "deadbeef"),
        ("replay", "deadbeef", "--force"),
        ("diff", "deadbeef", "580f2534-a"),
        ("snapshot", "deadbeef", "-o", "out/s.json"),
    ],
)
def test_an_unknown_id_exits_2_with_one_line(world: Path, command: tuple[str, ...]) -> None:
    assert "no execution 'deadbeef'" in _one_error_line(cli(*command, cwd=world))


@pytest.mark.parametrize(
    "command",
    [("inspect", "../records"), ("replay", ".hidden"), ("snapshot", "..", "-o", "out/s.json")],
)
def test_unsafe_ids_are_still_refused(world: Path, command: tuple[str, ...]) -> None:
    line = _one_error_line(cli(*command, cwd=world))
    assert "no execution" not in line


def test_a_wal_only_execution_resolves(world: Path) -> None:
    out = cli("inspect", WAL_ONLY[:8], "--json", cwd=world)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["file"].endswith(f"{WAL_ONLY}.wal")
    assert doc["wal"]["chain_valid"] is True
    # Nothing to replay or snapshot: said plainly, with the whole id. Not replayable is
    # replay's exit 3 (with --force too: there is no recorded response); snapshot's is 2.
    for command, code in (
        (("replay", WAL_ONLY[:8]), ExitCode.NOT_REPLAYABLE),
        (("replay", WAL_ONLY[:8], "--force"), ExitCode.NOT_REPLAYABLE),
        (("snapshot", WAL_ONLY[:8], "-o", "out/w.json"), ExitCode.USAGE),
    ):
        line = _one_error_line(cli(*command, cwd=world), code)
        assert WAL_ONLY in line and "only a write-ahead log" in line
        assert line.endswith(f"inspect it with `intentus-tui inspect {WAL_ONLY}`")


@pytest.mark.parametrize("several", [False, True])
def test_replay_json_of_a_wal_only_execution_is_a_refusal_document(
    world: Path, several: bool
) -> None:
    roots = ["--dir", ".intentusnet"]
    if several:
        (world / "other" / "records").mkdir(parents=True)
        roots += ["--dir", "other"]
    for target in (WAL_ONLY[:8], f".intentusnet/wal/{WAL_ONLY}.wal"):
        out = cli("replay", target, "--json", *roots, cwd=world)
        assert out.returncode == ExitCode.NOT_REPLAYABLE, out
        assert out.stderr == ""  # the document alone, as every refusal of replay --json
        doc = json.loads(out.stdout)
        assert doc["replayed"] is False and doc["replayable"] is False
        assert doc["reason"] == "no_record"
        line = _one_error_line(cli("replay", target, *roots, cwd=world), ExitCode.NOT_REPLAYABLE)
        said = f"not replayable (no_record): {doc['detail']}"
        assert "intentus-tui: " + said == line  # the same words without --json


def test_replay_json_of_a_damaged_record_is_a_refusal_document(
    world: Path, real_world: RealWorld
) -> None:
    record = world / ".intentusnet" / "records" / f"{real_world.success}.json"
    record.write_bytes(record.read_bytes()[:200])  # cut off mid-write
    out = cli("replay", real_world.success[:8], "--json", cwd=world)
    assert out.returncode == ExitCode.NOT_REPLAYABLE and out.stderr == "", out
    line = _one_error_line(
        cli("replay", real_world.success[:8], cwd=world), ExitCode.NOT_REPLAYABLE
    )
    doc = json.loads(out.stdout)
    assert doc == {
        "replayed": False,
        "replayable": False,
        "reason": "record_corrupted",
        "detail": line.removeprefix("intentus-tui: not replayable (record_corrupted): "),
    }
    assert "truncated" in doc["detail"] or "ends at byte" in doc["detail"], doc


def test_a_write_ahead_log_named_as_a_file_is_said_to_be_one(world: Path) -> None:
    wal = f".intentusnet/wal/{WAL_ONLY}.wal"
    for command, code in (
        (("replay", wal), ExitCode.NOT_REPLAYABLE),
        (("snapshot", wal, "-o", "out/w.json"), ExitCode.USAGE),
    ):
        line = _one_error_line(cli(*command, cwd=world), code)
        assert "is a write-ahead log, not a record" in line, line  # not "invalid JSON"
        shown = cli(*_hint(line), cwd=world)  # the hint, copied as printed, works
        assert shown.returncode == ExitCode.OK, shown.stderr


def _hint(line: str) -> list[str]:
    """The command a WAL-only error line suggests, as the shell would split it."""
    command = line.split("inspect it with `", 1)[1].removesuffix("`")
    words = shlex.split(command)
    assert words[:2] == ["intentus-tui", "inspect"], line
    return words[1:]


@pytest.mark.parametrize("several", [False, True])
def test_the_hint_for_a_wal_only_execution_names_the_roots_given(
    world: Path, tmp_path: Path, several: bool
) -> None:
    spaced = tmp_path / "it's here"  # a space and a quote: the hint quotes them
    shutil.copytree(world / ".intentusnet", spaced / ".intentusnet")
    roots = ["--dir", str(spaced)]
    if several:
        other = tmp_path / "other" / ".intentusnet"
        (other / "records").mkdir(parents=True)
        roots += ["--dir", str(other)]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for command in (("replay", WAL_ONLY[:8]), ("snapshot", WAL_ONLY[:8], "-o", "w.json")):
        code = ExitCode.NOT_REPLAYABLE if command[0] == "replay" else ExitCode.USAGE
        line = _one_error_line(cli(*command, *roots, cwd=elsewhere), code)
        hint = _hint(line)
        assert hint[2:] == roots, line
        shown = cli(*hint, cwd=elsewhere)  # copied as printed, it works
        assert shown.returncode == ExitCode.OK, shown.stderr
        assert shown.stdout.startswith(f"execution   {WAL_ONLY}\n")


def test_the_dir_option_is_searched(world: Path, real_world: RealWorld, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    records = world / ".intentusnet" / "records"
    out = cli("inspect", real_world.success[:8], "--dir", str(records), "--json", cwd=elsewhere)
    assert out.returncode == 0 and json.loads(out.stdout)["execution_id"] == real_world.success


@pytest.mark.parametrize(
    ("command", "hint"),
    [
        (("inspect", ".intentusnet"), "(--list lists its executions, --dir .intentusnet ID"),
        (("replay", ".intentusnet"), "(--dir .intentusnet ID names one of its executions)"),
    ],
)
def test_a_directory_given_for_an_execution_says_how_to_name_one(
    world: Path, command: tuple[str, ...], hint: str
) -> None:
    line = _one_error_line(cli(*command, cwd=world))
    assert "is a directory, not a record file or execution id" in line
    assert hint in line


def test_diff_of_a_directory_and_two_ids_says_how_to_name_them(
    world: Path, real_world: RealWorld
) -> None:
    a, b = real_world.success[:8], real_world.fallback[:8]
    out = cli("diff", ".intentusnet", a, b, cwd=world)
    assert out.returncode == ExitCode.USAGE and "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert line.endswith(
        f"(two executions of a directory: intentus-tui diff --dir .intentusnet {a} {b})"
        " (see intentus-tui diff --help)"
    )
    again = cli("diff", "--dir", ".intentusnet", a, b, cwd=world)  # as it says: it compares
    assert again.returncode in (ExitCode.OK, 1) and "Error" not in again.stderr


def test_with_dir_a_bare_id_is_never_a_file_of_the_current_directory(
    world: Path, real_world: RealWorld, tmp_path: Path
) -> None:
    """``replay ID --dir D > ID`` left a file named as the id in the current directory;
    the next ``inspect ID --dir D`` read that file, another execution altogether."""
    here = tmp_path / "here"
    here.mkdir()
    shutil.copy(
        world / ".intentusnet" / "records" / f"{real_world.fallback}.json",
        here / real_world.success,
    )
    for command in ("inspect", "replay"):
        run = cli(command, real_world.success, "--dir", str(world), "--json", cwd=here)
        assert real_world.fallback not in run.stdout, (command, run.stdout[:300])
        assert real_world.success in run.stdout, (command, run.stderr)
    # Without --dir, a file named so is what is meant (the current directory's).
    alone = cli("inspect", real_world.success, "--json", cwd=here)
    assert json.loads(alone.stdout)["execution_id"] == real_world.fallback


def test_an_id_shown_for_a_renamed_record_names_it_in_every_command(
    world: Path, real_world: RealWorld
) -> None:
    """The listing shows the id a file records; ``inspect`` of that id said "no
    execution" when the file was not named after it."""
    records = world / ".intentusnet" / "records"
    (records / f"{real_world.fallback}.json").rename(records / "from-the-incident.json")
    listed = json.loads(cli("inspect", "--list", "--json", cwd=world).stdout)["executions"]
    (row,) = [row for row in listed if row["execution_id"] == real_world.fallback]
    shown = cli("inspect", real_world.fallback[:8], cwd=world)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1].endswith("/.intentusnet/records/from-the-incident.json")
    # Its name no longer says its id, but the record is as written: replayed as the list says.
    replayed = json.loads(cli("replay", real_world.fallback[:8], "--json", cwd=world).stdout)
    assert row["replayable"] is True and row["replayable_reason"] is None
    assert replayed["replayed"] is True and replayed["integrity"] == []
    shutil.copy(records / "from-the-incident.json", records / "second-copy.json")
    line = _one_error_line(cli("inspect", real_world.fallback[:8], cwd=world))
    assert line == (
        f"intentus-tui: execution '{real_world.fallback}' is recorded in 2 files: "
        "from-the-incident.json, second-copy.json (name the file instead: its path, or its "
        "name with --dir)"
    )


def test_a_file_name_as_the_list_shows_it_is_read_in_the_directory_given(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # "inspect copy.json --dir D" said "no such file: copy.json" (it looked in the current
    # directory): the FILE column's name could not be used as it is shown.
    records = tmp_path / "project" / ".intentusnet" / "records"
    records.mkdir(parents=True)
    source = real_world.records_dir / f"{real_world.success}.json"
    shutil.copy(source, records / "copy-kept.json")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    project = str(tmp_path / "project")
    shown = cli("inspect", "copy-kept.json", "--dir", project, cwd=elsewhere)
    assert shown.returncode == 0, shown.stderr
    assert f"file        {records / 'copy-kept.json'}" in shown.stdout
    replayed = cli("replay", "copy-kept.json", "--dir", project, cwd=elsewhere)
    assert replayed.returncode != ExitCode.USAGE, replayed.stderr
    assert "no such file" not in replayed.stderr
    missing = cli("inspect", "absent.json", "--dir", project, cwd=elsewhere)
    assert missing.returncode == ExitCode.USAGE
    assert f"no such file: {records / 'absent.json'}" in missing.stderr
    # In the project itself, no --dir: the default directory's file (it was "no such
    # file"), and bundle takes the name too (it was "no execution 'copy-kept.json'").
    here = cli("inspect", "copy-kept.json", cwd=tmp_path / "project")
    assert here.returncode == 0, here.stderr
    assert f"file        {records / 'copy-kept.json'}" in here.stdout
    packed = cli("bundle", "copy-kept.json", "--dir", project, "-o", str(elsewhere / "b.tar.gz"))
    assert packed.returncode == 0, packed.stderr
    assert "1 execution, 1 record" in packed.stdout
    # The manifest, evidence, names the execution by the id the copy records.
    import tarfile

    with tarfile.open(elsewhere / "b.tar.gz") as bundle:
        member = bundle.extractfile("manifest.json")
        assert member is not None
        (entry,) = json.loads(member.read())["executions"]
    assert (entry["execution_id"], entry["record"]) == (
        real_world.success,
        "records/copy-kept.json",
    )


def test_a_snapshot_that_cannot_be_made_is_one_line(tmp_path: Path, real_world: RealWorld) -> None:
    # A record cut before its envelope: two warnings about the snapshot's content came
    # first, then the refusal, and no snapshot was written.
    source = real_world.records_dir / f"{real_world.success}.json"
    cut = tmp_path / "cut.json"
    cut.write_bytes(source.read_bytes()[:300])
    run = cli("snapshot", str(cut), "-o", str(tmp_path / "cut.snapshot.json"))
    assert run.returncode == ExitCode.PROBLEMS  # bad data, not a usage error
    assert run.stderr.count("\n") == 1, run.stderr
    assert "cannot make a snapshot: what was recovered of the damaged record" in run.stderr
    assert not (tmp_path / "cut.snapshot.json").exists()
    # Recovered enough for a snapshot, but where it may not go (beside the records): the
    # refusal alone ("the snapshot holds what was recovered" came first, of none written).
    longer = tmp_path / "longer.json"
    longer.write_bytes(source.read_bytes()[:1500])
    refused = cli("snapshot", str(longer), "-o", str(tmp_path / "there.json"))
    assert refused.returncode == ExitCode.USAGE
    assert refused.stderr.count("\n") == 1 and "refusing" in refused.stderr, refused.stderr
    written = cli("snapshot", str(longer), "-o", str(tmp_path / "out" / "s.json"))
    assert written.returncode == ExitCode.USAGE  # no such directory
    (tmp_path / "out").mkdir()
    written = cli("snapshot", str(longer), "-o", str(tmp_path / "out" / "s.json"))
    assert written.returncode == ExitCode.OK, written.stderr
    assert "The snapshot holds what was recovered" in written.stderr  # warned, once written


def test_a_directory_after_the_id_is_answered_with_the_command_that_looks_in_it(
    world: Path, real_world: RealWorld
) -> None:
    """``inspect ID DIR`` (as ``inspect --list DIR`` takes a directory): it said only "give
    one ID or FILE (or --list with several roots)"; now it names the command to run, and
    that command works."""
    records = world / ".intentusnet" / "records"
    line = _one_error_line(cli("inspect", real_world.fallback[:8], str(records), cwd=world))
    command = f"intentus-tui inspect {real_world.fallback[:8]} --dir {records}"
    assert line == (
        f"intentus-tui: give one ID or FILE; a directory to look in goes after --dir: {command}"
    )
    suggested = cli(*shlex.split(command)[1:], cwd=world)
    assert suggested.returncode == 0, suggested.stderr
    assert suggested.stdout.startswith(f"execution   {real_world.fallback}\n")
    other = _one_error_line(cli("inspect", real_world.fallback[:8], "nowhere", cwd=world))
    assert other == "intentus-tui: give one ID or FILE (or --list with several roots)"
