"""``inspect --list``: oldest first (then by id, undated last) in text and in JSON, by every
way the JSON listing is made; and one time format in text, the same in the list and in
``inspect ID``. Records written by the real IntentusNet 1.3.0 store."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.cli.support import cli as run_cli
from tests.intentusnet_world import RealWorld
from tests.real_ids import copy_real_world, save_as, write_wal_only

UTC_SECOND = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")

# (id, createdUtcIso) in the order the listing must show them, and the time it shows.
TIMED = [
    ("zz-offset", "2026-03-01T09:00:00.250000+02:00", "2026-03-01T07:00:00Z"),
    ("mm-naive", "2026-03-01T07:30:00", "2026-03-01T07:30:00Z"),
    ("aa-zulu", "2026-03-01T08:00:00Z", "2026-03-01T08:00:00Z"),
    ("tie-a", "2026-03-01T08:00:00.500000+00:00", "2026-03-01T08:00:00Z"),
    ("tie-b", "2026-03-01T08:00:00.500000+00:00", "2026-03-01T08:00:00Z"),
    ("bb-late", "2026-03-02T00:00:00.000001+00:00", "2026-03-02T00:00:00Z"),
]
UNDATED = [("undated-a", ""), ("undated-b", "last tuesday")]


def cli(*args: str, cwd: Path, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if cache is not None:
        env["INTENTUS_TUI_CACHE_DIR"] = str(cache)
    return run_cli(*args, cwd=cwd, env=env)


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path) -> Path:
    """A project whose records (saved by the real store) have the chosen times only."""
    records = copy_real_world(real_world, tmp_path / "project")
    originals = os.listdir(records)
    for execution_id, created, _ in reversed(TIMED):
        save_as(records, real_world.success, execution_id, created)
    for execution_id, created in UNDATED:
        save_as(records, real_world.success, execution_id, created)
    for name in originals:
        os.unlink(records / name)
    return tmp_path / "project"


def _resave(records: Path, execution_id: str, created: str) -> None:
    """The real store saves the record ``execution_id`` again with a new time."""
    save_as(records, execution_id, execution_id, created)


EXPECTED = [i for i, _, _ in TIMED] + [i for i, _ in UNDATED]


def _text_rows(out: subprocess.CompletedProcess[str]) -> list[list[str]]:
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:2] == ["EXECUTION", "CREATED"]
    return [re.split(r"\s{2,}", line) for line in lines[1:]]


def test_text_listing_is_oldest_first_in_one_time_format(world: Path) -> None:
    rows = _text_rows(cli("inspect", "--list", cwd=world, cache=world / "cache"))
    assert [r[0] for r in rows] == EXPECTED
    shown = {r[0]: r[1] for r in rows}
    for execution_id, _, utc in TIMED:
        assert shown[execution_id] == utc and UTC_SECOND.fullmatch(utc)
    assert shown["undated-a"] == "-" and shown["undated-b"] == "last tuesday"


def test_inspect_one_shows_the_time_as_the_list_does(world: Path) -> None:
    for execution_id, _, utc in TIMED[:3]:
        out = cli("inspect", execution_id, cwd=world, cache=world / "cache")
        assert f"\ncreated     {utc}\n" in out.stdout, out.stdout


def _json_ids(out: subprocess.CompletedProcess[str]) -> list[str]:
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    return [e["execution_id"] for e in doc["executions"]]


def test_json_listing_is_in_the_same_order_however_it_is_made(world: Path) -> None:
    cache = world / "cache"
    uncached = cli("inspect", "--list", "--json", "--no-cache", cwd=world)  # rows gathered
    assert _json_ids(uncached) == EXPECTED
    first = cli("inspect", "--list", "--json", cwd=world, cache=cache)  # fills the cache
    assert _json_ids(first) == EXPECTED
    warm = cli("inspect", "--list", "--json", cwd=world, cache=cache)  # straight from it
    assert warm.stdout == first.stdout == uncached.stdout
    # The JSON keeps each record's own text for the time.
    created = {e["execution_id"]: e["created"] for e in json.loads(warm.stdout)["executions"]}
    assert created["zz-offset"] == "2026-03-01T09:00:00.250000+02:00"
    assert created["undated-a"] is None


def test_a_changed_record_moves_in_the_warm_listing(world: Path) -> None:
    cache = world / "cache"
    cli("inspect", "--list", "--json", cwd=world, cache=cache)
    cli("inspect", "--list", "--json", cwd=world, cache=cache)
    records = world / ".intentusnet" / "records"
    _resave(records, "zz-offset", "2027-01-01T00:00:00Z")  # now the newest
    moved = _json_ids(cli("inspect", "--list", "--json", cwd=world, cache=cache))
    assert moved == [*EXPECTED[1:6], "zz-offset", *EXPECTED[6:]]
    again = _json_ids(cli("inspect", "--list", "--json", cwd=world, cache=cache))
    assert again == moved
    assert len(list(cache.glob("*-by-time-*.json"))) == 1  # the stale ordered copy is gone


def test_wal_only_executions_take_their_place_too(world: Path) -> None:
    """With a WAL directory the listing joins the logs: the rows are made from the joined
    summaries, and still ordered (a WAL-only execution is dated by its log: written now,
    after every record here)."""
    write_wal_only(world / ".intentusnet" / "wal", "wal-only-1")
    expected = [*EXPECTED[:6], "wal-only-1", *EXPECTED[6:]]
    for extra in ((), ("--no-cache",)):
        ids = _json_ids(cli("inspect", "--list", "--json", *extra, cwd=world, cache=world / "c"))
        assert ids == expected
    text = _text_rows(cli("inspect", "--list", cwd=world, cache=world / "c"))
    assert [r[0] for r in text] == expected
    assert UTC_SECOND.fullmatch(text[6][1])


def test_copies_of_one_record_come_after_it_in_file_name_order_however_listed(
    world: Path,
) -> None:
    """Copies of a record under other names share its time and id: they come after the
    record named after the id, in file-name order, whichever order the directory lists
    them in and however the listing is made."""
    records = world / ".intentusnet" / "records"
    original = (records / "tie-a.json").read_bytes()
    for name in ("tie-a copy.json", "0-tie-a.json", "tie-a~.json"):
        (records / name).write_bytes(original)
    files = ["tie-a.json", "0-tie-a.json", "tie-a copy.json", "tie-a~.json"]
    cache = world / "cache"
    outputs = []
    for extra in (("--no-cache",), (), ()):  # without the cache, filling it, from it
        out = cli("inspect", "--list", "--json", *extra, cwd=world, cache=cache)
        assert out.returncode == 0, out.stderr
        rows = json.loads(out.stdout)["executions"]
        assert [r["file"] for r in rows if r["execution_id"] == "tie-a"] == files
        outputs.append(out.stdout)
    assert outputs[0] == outputs[1] == outputs[2]


def test_copies_of_one_record_name_their_files_in_the_text_listing(world: Path) -> None:
    """One id in several files (``cp``, a truncated copy, a name a terminal would act on):
    a FILE column names the file of each of their rows, "-" on the others, the record
    named after the id first, then its copies in file-name order; with no id repeated
    there is no FILE column (``_text_rows``)."""
    records = world / ".intentusnet" / "records"
    original = (records / "tie-a.json").read_bytes()
    names = ["0-tie-a.json", "tie-a copy.json", "tie-a\x1b[2J.json"]
    for name in names:
        (records / name).write_bytes(original)
    out = cli("inspect", "--list", "--no-cache", cwd=world)
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout
    lines = out.stdout.splitlines()
    assert lines[0].split()[:3] == ["EXECUTION", "FILE", "CREATED"]
    rows = [re.split(r"\s{2,}", line) for line in lines[1:]]
    files = [r[1] for r in rows if r[0] == "tie-a"]
    assert files == ["tie-a.json", *(n.replace("\x1b", "␛") for n in sorted(names))]
    assert {r[1] for r in rows if r[0] != "tie-a"} == {"-"}
    assert [r[0] for r in rows if r[0] != "tie-a"] == [i for i in EXPECTED if i != "tie-a"]


def test_a_record_not_named_after_its_id_names_its_file_in_the_text_listing(
    world: Path,
) -> None:
    """A renamed record: the id it holds does not find it (``inspect ID`` looks for
    ``ID.json``), its name does; so its row names the file, and ``inspect NAME`` opens it."""
    records = world / ".intentusnet" / "records"
    (records / "tie-a.json").rename(records / "renamed.json")
    out = cli("inspect", "--list", "--no-cache", cwd=world)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:3] == ["EXECUTION", "FILE", "CREATED"]
    rows = [re.split(r"\s{2,}", line) for line in lines[1:]]
    assert [r[1] for r in rows if r[0] == "tie-a"] == ["renamed.json"]
    assert {r[1] for r in rows if r[0] != "tie-a"} == {"-"}
    assert cli("inspect", "renamed", cwd=world).returncode == 0
