"""``intentus-tui export`` as a user runs it, on a location holding records written by the
real IntentusNet 1.3.0 (a success, a fallback chain, a crash recorded in an attempt, a
truncated failure, an invalidated one), WAL-only executions written by its ``WALWriter``,
and a file that is not a record."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from tests.cli.support import cli
from tests.core.export.support import (
    attrs,
    build_crash_world,
    file_of,
    prove_otlp_line,
    root_of,
    spans_of,
)
from tests.core.wal.support import NAMES, write_incident_logs
from tests.intentusnet_world import RealWorld

SKIPPED = "intentus-tui: skipped "  # how a file that is not exported is named on stderr


@pytest.fixture(scope="module")
def location(tmp_path_factory: pytest.TempPathFactory, real_world: RealWorld) -> Path:
    base = tmp_path_factory.mktemp("export") / ".intentusnet"
    shutil.copytree(real_world.records_dir, base / "records")
    crash = build_crash_world(tmp_path_factory.mktemp("crash"))
    for record in (crash.base / ".intentusnet" / "records").glob("*.json"):
        shutil.copy(record, base / "records")
    write_incident_logs(base / "wal")
    (base / "records" / "zz-broken.json").write_text("{ this is not json", encoding="utf-8")
    return base


def executions(base: Path) -> list[str]:
    ids = {p.stem for p in (base / "records").glob("*.json")}
    ids |= {p.stem for p in (base / "wal").glob("*.wal")}
    return sorted(ids)


def test_otlp_export_of_a_location_proves_line_by_line(location: Path, tmp_path: Path) -> None:
    out = tmp_path / "traces.jsonl"
    run = cli("export", "--format", "otlp", str(location), "-o", str(out))
    # The file that is not a record is named on stderr, once, and skipped: exit code 1.
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    (skip,) = [
        line for line in run.stderr.splitlines() if "skipped" in line and "zz-broken" in line
    ]
    assert skip.startswith("intentus-tui: skipped ") and "zz-broken.json" in skip
    exported = [e for e in executions(location) if e != "zz-broken"]
    assert f"exported {len(exported)} executions (otlp)" in run.stderr

    lines = out.read_bytes().splitlines(keepends=True)
    assert len(lines) == len(exported)
    docs = [prove_otlp_line(line) for line in lines]
    trace_ids = [root_of(doc)["traceId"] for doc in docs]
    assert trace_ids == [hashlib.sha256(e.encode()).hexdigest()[:32] for e in exported]
    outcomes = {
        attrs(root_of(doc))["intentus.execution_id"]: attrs(root_of(doc))[
            "intentus.verdict.outcome"
        ]
        for doc in docs
    }
    assert outcomes[NAMES["killed"]] == "in_flight" and outcomes[NAMES["edited"]] == "unknown"
    assert [p.name for p in tmp_path.iterdir()] == ["traces.jsonl"]  # no temp file left


@pytest.mark.parametrize("fmt", ["otlp", "json"])
def test_exporting_twice_gives_identical_bytes(location: Path, tmp_path: Path, fmt: str) -> None:
    """In either format, in-flight attempts included: the json lines once held how long
    an attempt had been open at the moment of the export (``open_s``), never the same."""
    from intentus_tui.demo.writer import build_demo_world

    demo = build_demo_world(tmp_path / "demo").root  # executions crashed mid-attempt
    for source in (location, demo):
        first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
        cli("export", "--format", fmt, str(source), "-o", str(first))
        cli("export", "--format", fmt, str(source), "-o", str(second))
        assert first.read_bytes() == second.read_bytes() and first.stat().st_size > 0
    if fmt == "json":
        in_flight = [
            attempt
            for line in first.read_bytes().splitlines()
            for attempt in (json.loads(line).get("times") or {}).get("attempts", [])
            if "open_s" in attempt
        ]
        assert in_flight and all(a["open_s"] is None for a in in_flight)


def test_ids_and_prefixes_name_what_to_export(location: Path, real_world: RealWorld) -> None:
    wanted = [real_world.fallback, NAMES["failed"]]  # a record, and a WAL-only execution
    run = cli(
        "export",
        "--format",
        "otlp",
        real_world.fallback[:8],
        NAMES["failed"][:12],
        "--dir",
        str(location),
        "-o",
        "-",
    )
    assert run.returncode == 0, run.stderr
    docs = [prove_otlp_line(line.encode() + b"\n") for line in run.stdout.splitlines()]
    assert [attrs(root_of(d))["intentus.execution_id"] for d in docs] == wanted
    assert "exported 2 executions (otlp) to standard output" in run.stderr


def test_json_export_is_inspect_json_one_execution_a_line(location: Path) -> None:
    """Each line is the execution's ``inspect ID --json`` document, its ``file`` named as
    ``inspect --list --json`` names it (the file's name within its root: it was the path
    it was read at, where the listing gives the name), which ``inspect FILE --dir`` takes,
    and its log (``wal.file``) by its name."""
    run = cli("export", "--format", "json", "--dir", str(location), "-o", "-")
    # The file that is not a record holds no execution: skipped, as --format otlp does.
    assert run.returncode == 1, run.stderr
    (skip,) = [line for line in run.stderr.splitlines() if line.startswith(SKIPPED)]
    assert "zz-broken.json: nothing to export" in skip
    docs = [json.loads(line) for line in run.stdout.splitlines()]  # no pandas needed
    ids = executions(location)
    assert [d["execution_id"] for d in docs] == [i for i in ids if i != "zz-broken"]
    rows = json.loads(cli("inspect", "--list", "--json", str(location)).stdout)["executions"]
    listed = {row["execution_id"]: row["file"] for row in rows if row["execution_id"] in ids}
    assert {doc["execution_id"]: doc["file"] for doc in docs} == {
        i: f for i, f in listed.items() if i != "zz-broken"
    }
    assert any(doc["file"].endswith(".wal") for doc in docs)  # a WAL-only execution's log
    for doc in docs:
        inspect = cli("inspect", doc["file"], "--dir", str(location), "--json")
        assert inspect.returncode == 0, inspect.stderr
        inspected = json.loads(inspect.stdout)
        assert Path(inspected["file"]).name == doc["file"]  # inspect ID --json: its path
        if inspected["wal"] is not None:  # and its log's path
            assert Path(inspected["wal"]["file"]).name == doc["wal"]["file"]
            inspected["wal"]["file"] = doc["wal"]["file"]
        assert doc == {**inspected, "file": doc["file"]}, doc["file"]


def test_bad_requests_fail_with_one_line_and_write_nothing(location: Path, tmp_path: Path) -> None:
    out = tmp_path / "never.jsonl"
    unknown = cli("export", "--format", "otlp", "nosuchid", "--dir", str(location), "-o", str(out))
    assert unknown.returncode == 2 and not out.exists()
    assert unknown.stderr.startswith("intentus-tui: no execution 'nosuchid'")
    into_dir = cli("export", "--format", "otlp", str(location), "-o", str(tmp_path))
    assert into_dir.returncode == 2 and "is a directory" in into_dir.stderr
    no_format = cli("export", str(location), "-o", str(out))
    assert no_format.returncode == 2 and not out.exists()
    for run in (unknown, into_dir, no_format):
        assert "Traceback" not in run.stderr


# ------------------------------------------------------- files that hold no execution

NOT_EXECUTIONS = ("dir.json", "empty.json", "fifo.json", "list.json", "passwd.json")


@pytest.fixture(scope="module")
def with_non_executions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo world (records and WAL-only executions) beside files named like records that
    hold no execution: a directory, an empty file, a FIFO, a JSON list and a symlink out."""
    from intentus_tui.demo.writer import build_demo_world

    base = build_demo_world(tmp_path_factory.mktemp("non-executions"), count=3).root
    records = base / "records"
    (records / "dir.json").mkdir()
    (records / "empty.json").write_bytes(b"")
    os.mkfifo(records / "fifo.json")
    (records / "list.json").write_text("[1, 2]", encoding="utf-8")
    (records / "passwd.json").symlink_to("/etc/passwd")
    return base


def exported_ids(fmt: str, stdout: str) -> list[str]:
    if fmt == "json":
        return [json.loads(line)["execution_id"] for line in stdout.splitlines()]
    return [
        attrs(root_of(prove_otlp_line(line.encode() + b"\n")))["intentus.execution_id"]
        for line in stdout.splitlines()
    ]


@pytest.mark.parametrize("fmt", ["otlp", "json"])
def test_a_file_that_holds_no_execution_is_skipped_in_every_format(
    with_non_executions: Path, fmt: str
) -> None:
    base = with_non_executions
    run = cli("export", "--format", fmt, str(base), "-o", "-")
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    skipped = [line for line in run.stderr.splitlines() if line.startswith(SKIPPED)]
    # Each named once, in execution-id order, saying why.
    assert len(skipped) == len(NOT_EXECUTIONS)
    for line, name in zip(skipped, NOT_EXECUTIONS, strict=True):
        assert line.startswith(f"{SKIPPED}{base / 'records' / name}: nothing to export: "), line
    wanted = [e for e in executions(base) if f"{e}.json" not in NOT_EXECUTIONS]
    assert exported_ids(fmt, run.stdout) == wanted
    assert run.stderr.splitlines()[-1] == (
        f"intentus-tui: exported {len(wanted)} executions ({fmt}) to standard output, skipped 5"
    )


def test_both_formats_skip_the_same_files_with_the_same_lines(with_non_executions: Path) -> None:
    runs = {
        fmt: cli("export", "--format", fmt, str(with_non_executions), "-o", "-")
        for fmt in ("otlp", "json")
    }
    otlp, as_json = (runs[f].stderr.splitlines() for f in ("otlp", "json"))
    assert otlp[:-1] == as_json[:-1] and len(otlp) == len(NOT_EXECUTIONS) + 1
    assert runs["otlp"].returncode == runs["json"].returncode == 1
    assert exported_ids("otlp", runs["otlp"].stdout) == exported_ids("json", runs["json"].stdout)


@pytest.mark.parametrize("fmt", ["otlp", "json"])
def test_a_named_file_that_holds_no_execution_is_skipped(
    with_non_executions: Path, fmt: str, tmp_path: Path
) -> None:
    records = with_non_executions / "records"
    good = sorted(p for p in records.glob("*.json") if p.name not in NOT_EXECUTIONS)[0]
    out = tmp_path / "out.jsonl"
    run = cli("export", "--format", fmt, str(good), str(records / "list.json"), "-o", str(out))
    assert run.returncode == 1, run.stderr
    (skip,) = [line for line in run.stderr.splitlines() if line.startswith(SKIPPED)]
    assert skip.startswith(f"{SKIPPED}{records / 'list.json'}: nothing to export: ")
    assert exported_ids(fmt, out.read_text(encoding="utf-8")) == [good.stem]


# ------------------------------------------------------- where the output may go


def tree_bytes(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*") if p.is_file()
    }


@pytest.mark.parametrize("fmt", ["otlp", "json"])
def test_export_never_writes_into_the_records_or_over_one(fmt: str, tmp_path: Path) -> None:
    """An output in the record or WAL directory (by any spelling of it) would be listed as
    a record, or replace one: refused with one line, exit 2, as ``snapshot -o`` refuses;
    so is overwriting a record or a WAL anywhere. Nothing is written."""
    from intentus_tui.demo.writer import build_demo_world

    base = build_demo_world(tmp_path / "world", count=3).root
    records, wals = base / "records", base / "wal"
    record = sorted(records.glob("*.json"))[0]
    copy = tmp_path / "copy.json"
    copy.write_bytes(record.read_bytes())
    log = tmp_path / "copy.wal"
    log.write_bytes(sorted(wals.glob("*.wal"))[0].read_bytes())
    before = tree_bytes(tmp_path)
    refusals = {
        record: "into the record directory",
        records / "traces.json": "into the record directory",
        records / ".." / "records" / "traces.jsonl": "into the record directory",
        wals / "traces.json": "into the write-ahead log directory",
        copy: "refusing to overwrite",
        log: "refusing to overwrite",
    }
    for out, message in refusals.items():
        for args in (["--dir", str(base)], [str(base)], [record.stem, "--dir", str(base)]):
            run = cli("export", "--format", fmt, *args, "-o", str(out))
            assert run.returncode == 2, (out, run.stderr)
            (line,) = run.stderr.splitlines()
            assert message in line and line.endswith("choose another place with -o"), line
        snap = cli("snapshot", str(record), "-o", str(out))
        assert snap.returncode == 2 and message in snap.stderr, (out, snap.stderr)
    assert tree_bytes(tmp_path) == before
    # Elsewhere, and over an earlier export, it writes as before: in the current directory
    # too, though it holds a record (it is not the directory exported).
    for _ in range(2):
        run = cli("export", "--format", fmt, str(base), "-o", "out.jsonl", cwd=tmp_path)
        assert run.returncode == 0, run.stderr


def test_a_directory_with_no_execution_is_nothing_to_export_as_to_verify(
    tmp_path: Path,
) -> None:
    """``export`` of a directory holding no record and no WAL exits 2 naming it, as
    ``verify`` does, and writes nothing (no empty file, nothing on standard output)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "out.jsonl"
    verify = cli("verify", str(empty))
    for args in ([str(empty)], ["--dir", str(empty)]):
        for where in (str(out), "-"):
            run = cli("export", "--format", "otlp", *args, "-o", where)
            assert run.returncode == verify.returncode == 2, run.stderr
            assert (
                run.stderr
                == f"intentus-tui: nothing to export in {empty}: no records (*.json) or WALs (*.wal)\n"
            )
            assert run.stdout == "" and not out.exists()


def test_an_output_is_written_where_its_name_leads_as_a_shell_writes_it(
    location: Path, tmp_path: Path
) -> None:
    """``-o`` a FIFO with a reader waiting: the reader gets the lines and the FIFO stays
    one (it was replaced by a regular file, and the reader got nothing; as root the same
    replaced /dev/null). ``-o`` a link: the file it leads to gets them, the link stays. A
    link leading to a record is refused, and so is a directory that does not exist."""
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    run = cli("export", "--format", "json", str(location), "-o", str(fifo))
    reader.join(30)
    assert run.returncode == 1, run.stderr  # the file that is not a record: skipped
    assert fifo.is_fifo()
    lines = got[0].splitlines()
    assert len(lines) == len(executions(location)) - 1
    assert all(json.loads(line)["execution_id"] for line in lines)

    target = tmp_path / "elsewhere.jsonl"
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    run = cli("export", "--format", "json", str(location), "-o", str(link))
    assert run.returncode == 1, run.stderr
    assert link.is_symlink() and target.read_bytes().splitlines() == lines

    record = next((location / "records").glob("*.json"))
    before = record.read_bytes()
    to_record = tmp_path / "to-record.jsonl"
    to_record.symlink_to(record)
    run = cli("export", "--format", "json", str(location), "-o", str(to_record))
    assert run.returncode == 2 and "refusing to write" in run.stderr, run.stderr
    assert record.read_bytes() == before and to_record.is_symlink()


def test_a_snapshot_goes_to_standard_output_or_an_existing_directory_only(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """``snapshot -o -`` writes the snapshot on standard output (it wrote a file named -);
    ``-o`` into a directory that does not exist is refused, as export refuses it (it made
    the directories, inside a record directory too)."""
    record = real_world.records_dir / f"{real_world.success}.json"
    run = cli("snapshot", str(record), "-o", "-", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["stepName"]
    assert not (tmp_path / "-").exists()
    for missing in (tmp_path / "no" / "such" / "x.json", real_world.records_dir / "sub" / "x.json"):
        run = cli("snapshot", str(record), "-o", str(missing))
        assert run.returncode == 2, run.stderr
        assert "no such directory for the output" in run.stderr or "refusing" in run.stderr
        assert not missing.parent.exists()


def test_several_dirs_export_every_root_and_a_bundle_asks_for_one(
    location: Path, real_world: RealWorld, tmp_path: Path
) -> None:
    """``--dir`` given twice: every root's executions are exported (only the last root's
    were, with no warning), a root that cannot be opened is named and makes exit 1; a
    bundle, which holds one root, refuses the second --dir rather than ignore the first."""
    other = tmp_path / "other" / ".intentusnet"
    shutil.copytree(real_world.records_dir, other / "records")
    run = cli("export", "--format", "json", "-o", "-", "--dir", str(location), "--dir", str(other))
    assert run.returncode == 1, run.stderr  # location's zz-broken.json is skipped
    per_root = Counter(json.loads(line)["root"] for line in run.stdout.splitlines())
    assert per_root[location.parent.name] > 0
    assert per_root["other"] == len(list(real_world.records_dir.glob("*.json")))
    missing = tmp_path / "missing"
    run = cli("export", "--format", "json", "-o", "-", "--dir", str(other), "--dir", str(missing))
    assert run.returncode == 1 and "missing" in run.stderr and "failed" in run.stderr
    assert len(run.stdout.splitlines()) == len(list(real_world.records_dir.glob("*.json")))
    run = cli(
        "bundle", real_world.success, "--dir", str(other), "--dir", str(location),
        "-o", str(tmp_path / "b.tar.gz"),
    )  # fmt: skip
    assert run.returncode == 2 and "give one --dir" in run.stderr, run.stderr
    assert not (tmp_path / "b.tar.gz").exists()


def test_several_directories_named_are_roots_as_for_verify_and_inspect(
    location: Path, real_world: RealWorld, tmp_path: Path
) -> None:
    """``export DIR1 DIR2`` was refused ("is a directory, not a record file"), though
    ``verify`` and ``inspect --list`` take roots so: it is ``--dir`` each, byte for byte; a
    root among them that is not there is named and makes exit 1, the others exported. An
    ID named in roots of which one cannot be opened exits 1 too (it exited 0, the root's
    failure said on stderr only)."""
    other = tmp_path / "other" / ".intentusnet"
    shutil.copytree(real_world.records_dir, other / "records")
    as_dirs = cli(
        "export", "--format", "json", "-o", "-", "--dir", str(location), "--dir", str(other)
    )
    named = cli("export", "--format", "json", "-o", "-", str(location), str(other))
    assert named.returncode == as_dirs.returncode == 1, named.stderr  # zz-broken.json skipped
    assert named.stdout == as_dirs.stdout and named.stdout
    missing = tmp_path / "missing"
    run = cli("export", "--format", "json", "-o", "-", str(other), str(missing))
    assert run.returncode == 1 and "root missing: failed" in run.stderr, run.stderr
    assert len(run.stdout.splitlines()) == len(list(real_world.records_dir.glob("*.json")))
    # A root named by a bare name that is not there, among directories (it was taken for
    # an id: "... is a directory, not a record file or execution id", exit 2).
    run = cli("export", "--format", "json", "-o", "-", "nothere", str(other), cwd=tmp_path)
    assert run.returncode == 1 and "root nothere: failed" in run.stderr, run.stderr
    assert len(run.stdout.splitlines()) == len(list(real_world.records_dir.glob("*.json")))
    run = cli(
        "export", "--format", "json", "-o", "-", real_world.success,
        "--dir", str(other), "--dir", str(missing),
    )  # fmt: skip
    assert run.returncode == 1 and "root missing: failed" in run.stderr, run.stderr
    assert [json.loads(line)["execution_id"] for line in run.stdout.splitlines()] == [
        real_world.success
    ]


def test_a_log_that_is_a_link_leading_nowhere_is_traced_at_the_links_time(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A write-ahead log that is a link leading nowhere (its target gone, or a loop) is an
    execution the listing shows; nothing in it has a time, and its file has none to give:
    its trace is at the link's own time, synthetic, as with no time recorded the story ends
    at the file's time (it was at 0: 1970, among traces of this year)."""
    base = tmp_path / ".intentusnet"
    shutil.copytree(real_world.records_dir, base / "records")
    (base / "wal").mkdir()
    made = 1_767_607_200_123_456_789  # 2026-01-05T10:00:00.123456789Z
    for name, target in (("gone", "/nonexistent/gone.wal"), ("loop", "loop.wal")):
        link = base / "wal" / f"{name}.wal"
        link.symlink_to(target)
        os.utime(link, ns=(made, made), follow_symlinks=False)
    listed = json.loads(cli("inspect", "--list", "--json", str(base)).stdout)["executions"]
    assert {"gone", "loop"} <= {row["execution_id"] for row in listed}
    run = cli("export", "--format", "otlp", str(base), "-o", "-")
    assert run.returncode == 0, run.stderr
    docs = [prove_otlp_line(line.encode() + b"\n") for line in run.stdout.splitlines()]
    by_id = {attrs(root_of(doc))["intentus.execution_id"]: doc for doc in docs}
    for name in ("gone", "loop"):
        (span,) = spans_of(by_id[name])
        assert (span["startTimeUnixNano"], span["endTimeUnixNano"]) == (str(made), str(made))
        assert attrs(span)["intentus.synthetic_time"] is True
    recorded = [  # every time in the export is of this century: none is 1970
        int(value)
        for doc in docs
        for span in spans_of(doc)
        for value in (
            span["startTimeUnixNano"],
            span["endTimeUnixNano"],
            *(event["timeUnixNano"] for event in span.get("events", [])),
        )
    ]
    assert min(recorded) > 10**18, min(recorded)


def test_with_several_roots_each_line_names_its_root_as_the_listing_does(
    location: Path, real_world: RealWorld, tmp_path: Path
) -> None:
    """``--dir`` twice, the two roots holding the same executions (copies of one record
    directory): each exported execution names its root by the label ``inspect --list
    --json`` gives it, in both formats (the json line's ``root``, first, as a row's;
    ``intentus.root`` on the OTLP resource), so that the same id in two roots is told
    apart, by id as by a whole export. With one root, no line names one, as no row does."""
    other = tmp_path / "other" / ".intentusnet"
    shutil.copytree(real_world.records_dir, other / "records")
    roots = ["--dir", str(location), "--dir", str(other)]
    listing = cli("inspect", "--list", "--json", str(location), str(other))
    rows = json.loads(listing.stdout)["executions"]
    # zz-broken.json holds no execution: listed, not exported
    listed = sorted(
        (r["root"], r["execution_id"]) for r in rows if r["execution_id"] != "zz-broken"
    )
    labels = [root["label"] for root in json.loads(listing.stdout)["roots"]]
    assert len(set(labels)) == 2

    as_json = cli("export", "--format", "json", "-o", "-", *roots)
    docs = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert all(next(iter(doc)) == "root" for doc in docs)
    assert sorted((doc["root"], doc["execution_id"]) for doc in docs) == listed
    otlp = cli("export", "--format", "otlp", "-o", "-", *roots)
    traces = [prove_otlp_line(line.encode() + b"\n") for line in otlp.stdout.splitlines()]
    assert listed == sorted(
        (
            attrs(trace["resourceSpans"][0]["resource"])["intentus.root"],
            attrs(root_of(trace))["intentus.execution_id"],
        )
        for trace in traces
    )
    # One id in both roots, named in each by LABEL:ID: two lines, each of its own root.
    shared = real_world.fallback
    named = cli(
        "export", "--format", "json", "-o", "-", *roots,
        f"{labels[0]}:{shared}", f"{labels[1]}:{shared[:8]}",
    )  # fmt: skip
    assert named.returncode == 0, named.stderr
    got = [(d["root"], d["execution_id"]) for d in map(json.loads, named.stdout.splitlines())]
    assert got == [(labels[0], shared), (labels[1], shared)]
    # One root: no root, in either format.
    one = cli("export", "--format", "json", "-o", "-", str(other))
    assert all("root" not in json.loads(line) for line in one.stdout.splitlines())
    one = cli("export", "--format", "otlp", "-o", "-", str(other))
    for line in one.stdout.splitlines():
        resource = json.loads(line)["resourceSpans"][0]["resource"]
        assert "intentus.root" not in attrs(resource)


def test_the_traces_file_is_the_files_exact_name_as_every_json_output_gives_it(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A record of the real 1.3.0 kept under names a terminal would act on (an escape
    sequence, a right-to-left override) and one whose bytes are not UTF-8: the trace's
    ``intentus.file`` is the file's name exactly, as the json export's ``file`` and the
    listing's give it (it was the name as the screen shows it, ``copy-␛[31mred.json``);
    the name that is not UTF-8, which an OTLP string cannot hold, is its bytes. Every
    line stays inert in a terminal."""
    base = tmp_path / ".intentusnet"
    records = base / "records"
    records.mkdir(parents=True)
    source = real_world.records_dir / f"{real_world.fallback}.json"
    names = ["copy-\x1b[31mred.json", "evil\u202etxt.json", os.fsdecode(b"odd-\xff\xfe.json")]
    for name in names:
        shutil.copy(source, records / name)
    rows = json.loads(cli("inspect", "--list", "--json", str(tmp_path)).stdout)["executions"]
    assert sorted(row["file"] for row in rows) == sorted(names)
    otlp = cli("export", "--format", "otlp", str(tmp_path), "-o", "-")
    as_json = cli("export", "--format", "json", str(tmp_path), "-o", "-")
    for run in (otlp, as_json):
        assert run.returncode == 0, run.stderr
        assert not any(c in run.stdout for c in "\x1b\u202e"), run.stdout  # escaped
    traced = [file_of(prove_otlp_line(line.encode() + b"\n")) for line in otlp.stdout.splitlines()]
    assert sorted(traced) == sorted(names)
    odd = [attrs(root_of(json.loads(line)))["intentus.file"] for line in otlp.stdout.splitlines()]
    assert b"odd-\xff\xfe.json" in odd  # its bytes, exactly
    assert [json.loads(line)["file"] for line in as_json.stdout.splitlines()] == traced


def test_a_json_export_is_the_same_wherever_the_root_is(location: Path, tmp_path: Path) -> None:
    """The same root copied elsewhere exports the same bytes: each file, and its log, is
    named within the root (the log kept the path it was read at, unlike the file beside
    it, so a moved root, or a remote root's mirror, exported differently)."""
    moved = tmp_path / "elsewhere" / ".intentusnet"
    shutil.copytree(location, moved, symlinks=True)
    here, there = (
        cli("export", "--format", "json", str(root), "-o", "-") for root in (location, moved)
    )
    assert here.stdout == there.stdout and here.stdout
    logs = [d["wal"]["file"] for d in map(json.loads, here.stdout.splitlines()) if d["wal"]]
    assert logs and all("/" not in log and log.endswith(".wal") for log in logs)
