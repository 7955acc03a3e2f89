"""The CLI on every hostile file: the documented exit code, valid JSON, terminal-safe text,
one clear line on stderr -- never a traceback and never "internal error".

Most runs are in-process (click's runner: an escaping exception fails the test with its
traceback); a few run the real entry point as a subprocess, including permission denied
for real (a root test process drops the capabilities that let root read anything).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from intentus_tui.cli import main
from intentus_tui.core.records.store import check_id
from tests.cli.support import deny_capabilities
from tests.factories import make_record
from tests.hostile.corpus import Corpus, build_corpus, dump_json
from tests.hostile.harness import assert_valid_json_text, deadline, raw_controls, tree_digest

# command -> the exit codes the README documents for it
EXIT_CODES = {
    "inspect": {0, 1, 2},  # 1: of several roots, one could not be opened
    "verify": {0, 1, 2},
    "replay": {0, 2, 3, 4},
    "diff": {0, 1, 2},
    "snapshot": {0, 1, 2},  # 1: a file that holds nothing it can pin
}


@dataclass(frozen=True)
class Run:
    args: tuple[str, ...]
    code: int
    stdout: str
    stderr: str


def run_cli(*args: str) -> Run:
    """Run the CLI in-process; fail on any escaping exception, traceback or unsafe output."""
    with deadline(30, f"intentus-tui {args!r}"):
        result = CliRunner().invoke(main, list(args), catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    run = Run(tuple(args), result.exit_code, result.stdout, result.stderr)
    check_output(run)
    return run


def check_output(run: Run) -> None:
    where = f"intentus-tui {' '.join(map(repr, run.args))}"
    assert "Traceback" not in run.stderr + run.stdout, where
    assert "internal error" not in run.stderr, f"{where}: {run.stderr}"
    assert not raw_controls(run.stderr), f"{where}: stderr {run.stderr!r}"
    command = next((a for a in run.args if a in EXIT_CODES), "inspect")
    assert run.code in EXIT_CODES[command], f"{where}: exit {run.code}\n{run.stderr}"
    if run.code == 2:
        assert run.stderr.startswith("intentus-tui: "), f"{where}: {run.stderr!r}"
    if "--json" in run.args and run.stdout:
        assert_valid_json_text(run.stdout)
    else:
        assert not raw_controls(run.stdout), f"{where}: stdout carries raw controls"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    """The corpus; after every test of this module ran on it, nothing in it has changed."""
    built = build_corpus(tmp_path_factory.mktemp("cli"))
    before = tree_digest(built.root)
    yield built
    assert tree_digest(built.root) == before, "a command wrote into the corpus"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Default output (snapshot) lands in tmp; the index cache too."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))


def _ids(corpus: Corpus) -> Iterator[str]:
    for name in sorted(corpus.records):
        stem = name.removesuffix(".json")
        try:
            yield check_id(stem)
        except ValueError:
            continue


def test_inspect_list_on_the_corpus(corpus: Corpus) -> None:
    as_json = run_cli("inspect", "--list", str(corpus.intentusnet), "--json")
    doc = json.loads(as_json.stdout)
    files = {e["file"] for e in doc["executions"]}
    assert set(corpus.records) <= files
    assert all(not k.startswith(".") for k in files)
    text = run_cli("inspect", "--list", str(corpus.intentusnet))
    assert text.code == 0 and len(text.stdout.splitlines()) == len(doc["executions"]) + 1
    assert run_cli("inspect", "--list", str(corpus.intentusnet), "--no-cache").code == 0


# What a link named that cannot be followed is said to be, as a listing says it.
_BROKEN_LINK = (
    ": the link leads nowhere (its target does not exist)\n",
    ": the link loops (it leads back to itself)\n",
)


def test_inspect_every_file_and_every_id(corpus: Corpus) -> None:
    for path in corpus.record_paths():
        for fmt in ((), ("--json",)):
            run = run_cli("inspect", str(path), *fmt)
            dangling = path.is_symlink() and not path.exists()  # typed: nothing to read there
            expected = 2 if path.is_dir() or dangling else 0
            assert run.code == expected, (path.name, run.stderr)
            if dangling:
                assert run.stderr.endswith(_BROKEN_LINK), run.stderr
    for execution_id in _ids(corpus):
        run = run_cli("inspect", execution_id, "--dir", str(corpus.intentusnet), "--json")
        if execution_id == "secret":  # symlink out: a record not read, as listed
            assert run.code == 0 and json.loads(run.stdout)["load_status"] == "unreadable"
        else:
            assert run.code in (0, 2), execution_id
    for path in corpus.wal_paths():
        run_cli("inspect", str(path), "--json")


def test_verify_every_file_and_the_whole_directory(corpus: Corpus) -> None:
    for path in corpus.record_paths():
        run = run_cli("verify", str(path), "--json")
        if path.is_dir():
            continue  # a directory argument is verified as a record directory
        if path.is_symlink() and not path.exists():  # nothing there to check: one line
            assert run.code == 1 and json.loads(run.stdout)["exit_code"] == 1, path.name
            assert run.stderr.endswith(_BROKEN_LINK), run.stderr
            continue
        report = json.loads(run.stdout)["files"][0]
        assert run.code == (0 if report["ok"] else 1)
        run_cli("verify", str(path))
    whole = run_cli("verify", str(corpus.intentusnet), "--json")
    doc = json.loads(whole.stdout)
    assert whole.code == 1 and doc["records"] == len(corpus.records)
    assert doc["wals"] == len(corpus.wals)  # every WAL's chain is checked too
    assert doc["checked"] == len(corpus.records) + len(corpus.wals)
    run_cli("verify", str(corpus.intentusnet))


def test_replay_every_file(corpus: Corpus, tmp_path: Path) -> None:
    good = corpus.records_dir / "good-1.json"
    for path in corpus.record_paths():
        for flags in ((), ("--json",), ("--force", "--json"), ("--force",)):
            run_cli("replay", str(path), *flags)
        # Every hostile file as the envelope to verify against a good record.
        run_cli("replay", str(good), "--envelope", str(path), "--json")
    deep = corpus.records_dir / "deep-990.json"
    run = run_cli("replay", str(good), "--envelope", str(deep), "--json")
    assert run.code in (2, 4)


def test_diff_every_file_against_a_good_record(corpus: Corpus) -> None:
    good = corpus.records_dir / "good-1.json"
    for path in corpus.record_paths():
        run_cli("diff", str(good), str(path), "--json")
        run_cli("diff", str(path), str(path))


def test_snapshot_every_file(corpus: Corpus, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for n, path in enumerate(corpus.record_paths()):
        run = run_cli("snapshot", str(path), "-o", str(out / f"s-{n}.snapshot.json"), "--json")
        if run.code == 0:
            assert json.loads(run.stdout)["path"] == str(out / f"s-{n}.snapshot.json")
    # Default names come from the execution id: a hostile id never becomes a path.
    for path in corpus.record_paths():
        run_cli("snapshot", str(path))
    written = os.listdir(tmp_path)
    assert all(check_id(n.removesuffix(".snapshot.json")) for n in written if n != "out")
    assert not [p for p in corpus.root.rglob("*.snapshot.json")]  # nothing written there


def test_bad_arguments_are_one_clear_line(corpus: Corpus) -> None:
    records = str(corpus.intentusnet)
    for args in (
        ("inspect", "../../etc/passwd", "--dir", records),
        ("inspect", "..", "--dir", records),
        ("inspect", "a\x00b", "--dir", records),
        ("inspect", "/nonexistent/x.json"),
        ("inspect", "--list", "/nonexistent"),
        ("inspect", "--list", str(corpus.records_dir / "good-1.json")),
        ("replay", ".hidden", "--dir", records),
        ("replay", "\x1b[2J\x1b]0;title\x07", "--dir", records),
        ("verify", "/nonexistent"),
        ("verify", "a\x00b"),
        ("snapshot", "nope", "--dir", records),
        ("diff", "a\x00b", "b"),
        ("diff", "x.db#", "y"),
        ("inspect", "--list", "\u202eevil"),
    ):
        run = run_cli(*args)
        assert run.code == 2, (args, run.stdout, run.stderr)
        assert len(run.stderr.strip().splitlines()) == 1


def test_files_deleted_between_listing_and_reading(
    corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listing names a file that is gone by the time it is read."""
    records = tmp_path / "records"
    records.mkdir()
    for n in range(3):
        (records / f"r-{n}.json").write_bytes(dump_json(make_record(execution_id=f"r-{n}")))
    import intentus_tui.cli.verify as verify_cli
    import intentus_tui.core.index.directory as index

    real_listdir, real_paths = index.listdir, verify_cli.list_record_paths

    def names_then_delete(directory: Path) -> list[str]:
        names = real_listdir(directory)
        (directory / "r-1.json").unlink(missing_ok=True)
        return names

    def paths_then_delete(directory: Path) -> list[Path]:
        paths = real_paths(directory)
        (directory / "r-1.json").unlink(missing_ok=True)
        return paths

    monkeypatch.setattr(index, "listdir", names_then_delete)
    monkeypatch.setattr(verify_cli, "list_record_paths", paths_then_delete)
    doc = json.loads(run_cli("inspect", "--list", str(records), "--json", "--no-cache").stdout)
    rows = {e["file"]: e for e in doc["executions"]}
    assert rows["r-1.json"]["load_status"] == "unreadable"
    assert "vanished" in rows["r-1.json"]["message"]
    (records / "r-1.json").write_bytes(b"{}")
    run = run_cli("verify", str(records), "--json")
    assert run.code == 1
    report = {Path(f["file"]).name: f for f in json.loads(run.stdout)["files"]}
    assert report["r-1.json"]["load_status"] == "unreadable"


# ------------------------------------------------------------------ the real entry point


def cli_subprocess(*args: str, preexec: list[str] | None = None) -> Run:
    proc = subprocess.run(
        [*(preexec or []), sys.executable, "-m", "intentus_tui.cli", *args],
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    stdout = proc.stdout.decode("utf-8")
    stderr = proc.stderr.decode("utf-8")
    run = Run(tuple(args), proc.returncode, stdout, stderr)
    check_output(run)
    return run


def test_the_real_entry_point_on_the_corpus(corpus: Corpus) -> None:
    run = cli_subprocess("inspect", "--list", str(corpus.intentusnet), "--json", "--no-cache")
    assert run.code == 0
    assert cli_subprocess("verify", str(corpus.intentusnet)).code == 1
    hostile = corpus.records_dir / f"{corpus.hostile_ids[6]}.json"  # clear screen
    text = cli_subprocess("inspect", str(hostile))
    assert "␛[2J" in text.stdout and "\x1b" not in text.stdout


def test_permission_denied_for_real(tmp_path: Path) -> None:
    prefix = deny_capabilities()
    if prefix is None:
        pytest.skip("running as root without setpriv: root reads mode-000 files")
    records = tmp_path / ".intentusnet" / "records"
    wal = tmp_path / ".intentusnet" / "wal"
    wal.mkdir(parents=True)
    records.mkdir(parents=True, exist_ok=True)
    locked = records / "locked-1.json"
    locked.write_bytes(dump_json(make_record(execution_id="locked-1")))
    (wal / "locked-1.wal").write_bytes(b"{}\n")
    (records / "ok-1.json").write_bytes(dump_json(make_record(execution_id="ok-1")))
    for path in (locked, wal / "locked-1.wal"):
        path.chmod(0)
    try:
        listing = cli_subprocess(
            "inspect",
            "--list",
            str(tmp_path / ".intentusnet"),
            "--json",
            "--no-cache",
            preexec=prefix,
        )
        rows = {e["file"]: e for e in json.loads(listing.stdout)["executions"]}
        assert rows["locked-1.json"]["load_status"] == "unreadable"
        assert "Permission denied" in rows["locked-1.json"]["message"]
        assert rows["ok-1.json"]["load_status"] == "ok"
        one = cli_subprocess("inspect", str(locked), "--json", preexec=prefix)
        doc = json.loads(one.stdout)
        assert (
            doc["load_status"] == "unreadable" and doc["wal"]["file_status"] == "permission_denied"
        )
        # Not said to be damaged: it cannot be read, and may be whole.
        assert doc["verdict"]["replay_reason"] == (
            "the file cannot be read (permission denied): no response to replay from it"
        )
        assert "damaged" not in json.dumps(doc["verdict"])
        assert cli_subprocess("verify", str(locked), preexec=prefix).code == 1
        assert cli_subprocess("replay", str(locked), preexec=prefix).code == 3
    finally:
        for path in (locked, wal / "locked-1.wal"):
            path.chmod(0o644)


def test_a_records_directory_that_cannot_be_listed_is_said_not_taken_for_empty(
    tmp_path: Path,
) -> None:
    """Its records unlistable (mode 000), the directory read as one without records: each
    execution of the logs beside it was "not replayable: no record file was written", a
    false verdict, and ``inspect --list`` exited 0. Now every command says it in one line
    (exit 2; with several roots, that root failed and the others are listed: exit 1)."""
    prefix = deny_capabilities()
    if prefix is None:
        pytest.skip("running as root without setpriv: root reads mode-000 directories")
    base = tmp_path / "locked" / ".intentusnet"
    records, wal = base / "records", base / "wal"
    wal.mkdir(parents=True)
    records.mkdir()
    (records / "ok-1.json").write_bytes(dump_json(make_record(execution_id="ok-1")))
    (wal / "ok-1.wal").write_bytes(b"{}\n")
    other = tmp_path / "other" / ".intentusnet" / "records"
    other.mkdir(parents=True)
    (other / "ok-2.json").write_bytes(dump_json(make_record(execution_id="ok-2")))
    records.chmod(0)
    said = f"intentus-tui: cannot list {records}: permission denied: what it holds cannot be read"
    try:
        for command in (
            ("inspect", "--list", str(base.parent)),
            ("inspect", "--list", str(base.parent), "--json"),
            ("verify", str(base.parent)),
            ("inspect", "ok-1", "--dir", str(base.parent)),
            ("export", "--format", "json", "--dir", str(base.parent), "-o", "-"),
        ):
            run = cli_subprocess(*command, preexec=prefix)
            assert run.code == 2, run
            assert run.stderr.splitlines() == [said], run
            assert "no_record" not in run.stdout
        several = cli_subprocess(
            "inspect",
            "--list",
            str(base.parent),
            str(other.parent.parent),
            "--json",
            preexec=prefix,
        )
        assert several.code == 1
        doc = json.loads(several.stdout)
        assert [e["execution_id"] for e in doc["executions"]] == ["ok-2"]
        assert doc["roots"][0]["problem"] == said.removeprefix("intentus-tui: ")
    finally:
        records.chmod(0o755)


def test_events_with_no_integer_seq_are_said_once_in_the_files_terms(corpus: Corpus) -> None:
    """``verify`` (and the Verify tab) said of an event written as a string or null "has
    no integer seq (None)", and of seqs "1" and true "('1')", "(True)": Python's words for
    what the file does not hold; and said each twice, as a sequence problem too (which
    counted as an edit). The structure check names each, once; the events after them are
    checked in order from the places they hold."""
    run = run_cli("verify", str(corpus.records_dir / "wrong-events.json"))
    problems = [line.strip() for line in run.stdout.splitlines()]
    assert "- events[0] is string, expected object" in problems, run.stdout
    assert "- events[1] is null, expected object" in problems
    assert "- events[2].seq is string" in problems
    assert "- events[3].seq is boolean" in problems
    assert not any("event #" in line for line in problems), run.stdout
    assert "- seq -5 after seq 4: not strictly increasing" in problems
    assert not any(word in run.stdout for word in ("None", "True", "'1'")), run.stdout
