"""The read-only commands (``inspect``, ``inspect --list``, ``diff``, ``replay``, ``export``)
open an evidence bundle as the debugger and ``verify`` do: from a private read-only copy
they remove, naming its files inside the bundle. They refused it ("not a directory … a
bundle"), and ``export`` read it as a record that is not UTF-8."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tarfile
from pathlib import Path

from tests.cli.support import cli
from tests.core.bundle.support import BundleWorld, edit_record, forge_envelope


def _listed(run_stdout: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split()[1:] for line in run_stdout.splitlines()[1:]}


def _cached_directories(cache: Path) -> list[str]:
    """The directories the index cache in ``cache`` holds a listing of."""
    found = []
    for path in sorted(cache.glob("*.sqlite")) if cache.exists() else []:
        with contextlib.closing(sqlite3.connect(path)) as db:
            found += [row[0] for row in db.execute("SELECT dir FROM snapshots")]
    return sorted(found)


def test_the_read_only_commands_read_a_bundle(
    bundle: Path, world: BundleWorld, private_tmp: Path, tmp_path: Path
) -> None:
    directory = cli("inspect", "--list", "--dir", str(world.base), "--no-cache")
    # ``bundle`` indexed the directory it bundled (to name the copies it left out).
    cached = _cached_directories(tmp_path / "cache")
    for args in (["--list", str(bundle)], ["--list", "--dir", str(bundle)]):
        listed = cli("inspect", *args)
        assert listed.returncode == 0, listed.stderr
        rows = _listed(listed.stdout)
        assert set(rows) == {world.success, world.fallback, world.invalidated, world.wal_only}
        assert all(rows[key] == _listed(directory.stdout)[key] for key in rows)
        assert os.listdir(private_tmp) == []  # its private copy is gone
    # Nothing of a copy that is gone is cached.
    assert _cached_directories(tmp_path / "cache") == cached
    assert not any(str(private_tmp) in d for d in cached)

    inspected = cli("inspect", world.success[:8], "--dir", str(bundle), "--json")
    assert inspected.returncode == 0, inspected.stderr
    doc = json.loads(inspected.stdout)
    assert doc["verdict"]["integrity"] == "verified"
    # Named inside the bundle, as verify names it, not by the copy that is gone.
    assert doc["file"] == f"{bundle}:records/{world.success}.json"
    assert doc["wal"]["file"] == f"{bundle}:wal/{world.success}.wal"
    text = cli("inspect", world.success[:8], "--dir", str(bundle)).stdout
    assert f"file        {bundle}:records/{world.success}.json" in text.splitlines()

    compared = cli("diff", world.success[:8], world.fallback[:8], "--dir", str(bundle))
    assert compared.returncode == 1 and "different:" in compared.stdout, compared.stderr
    replayed = cli("replay", world.fallback[:8], "--dir", str(bundle), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["payload"]["by"] == "fb-secondary"
    only_log = cli("replay", world.wal_only[:8], "--dir", str(bundle))
    assert only_log.returncode == 3
    assert f"({bundle}:wal/{world.wal_only}.wal)" in only_log.stderr
    assert str(private_tmp) not in only_log.stderr

    for args in ([str(bundle)], ["--dir", str(bundle)]):
        exported = cli("export", "--format", "json", *args, "-o", "-")
        assert exported.returncode == 0, exported.stderr
        ids = [json.loads(line)["execution_id"] for line in exported.stdout.splitlines()]
        assert sorted(ids) == sorted(
            [world.success, world.fallback, world.invalidated, world.wal_only]
        )
    beside = bundle.parent / "traces.jsonl"  # it was "into the record directory"
    exported = cli("export", "--format", "otlp", str(bundle), "-o", str(beside))
    assert exported.returncode == 0, exported.stderr
    assert len(beside.read_text().splitlines()) == 4
    assert os.listdir(private_tmp) == []


def test_nothing_is_written_over_the_bundle_read(bundle: Path, private_tmp: Path) -> None:
    before = bundle.read_bytes()
    for fmt in ("json", "otlp"):
        run = cli("export", "--format", fmt, "--dir", str(bundle), "-o", str(bundle))
        assert run.returncode == 2
        assert run.stderr == (
            f"intentus-tui: refusing to overwrite {bundle}: it is the bundle read; "
            "choose another place with -o\n"
        )
    assert bundle.read_bytes() == before
    assert os.listdir(private_tmp) == []


def test_a_bundle_named_as_an_execution_says_how_to_read_it(
    bundle: Path, world: BundleWorld, private_tmp: Path
) -> None:
    """Never read as a record: "Not UTF-8 text: invalid UTF-8 at byte 1"."""
    line = (
        f"intentus-tui: {bundle} is a bundle, not a record file or execution id "
        f"(`intentus-tui inspect --list {bundle}` lists its executions, "
        f"`--dir {bundle} ID` names one of them)\n"
    )
    for args in (
        ["inspect", str(bundle)],
        ["replay", str(bundle)],
        ["diff", str(bundle), world.success, "--dir", str(world.base)],
    ):
        run = cli(*args)
        assert run.returncode == 2 and run.stderr == line, (args, run.stderr)
        assert "UTF-8" not in run.stderr
    assert os.listdir(private_tmp) == []


def test_a_bundle_that_differs_from_its_manifest_says_so(
    bundle: Path, world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    name = f"records/{world.success}.json"
    edited = edit_record(bundle, tmp_path / "edited.tar.gz", name, forge_envelope)
    run = cli("inspect", "--list", str(edited))
    assert run.returncode == 0, run.stderr
    assert run.stderr == (
        "intentus-tui: note: bundle edited.tar.gz (1 file differs from its manifest: run verify)\n"
    )
    row = _listed(run.stdout)[world.success]
    assert row[2:7] == ["unknown", "(untrusted)", "tampered", "no", "(untrusted)"], row
    assert os.listdir(private_tmp) == []


def test_a_bundle_packed_again_from_its_directory_reads_as_it_was(
    bundle: Path, world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    """Extracted, then packed again as ``tar czf x.tar.gz -C extracted .`` packs it (``.``,
    ``./records``, ``./records/ID.json``, ...): ``verify`` and the readers said "member '.'
    refused: not a bundle path" (exit 1); they read it as the bundle it was."""
    extracted = tmp_path / "extracted"
    with tarfile.open(bundle, "r:gz") as tar:
        tar.extractall(extracted, filter="data")
    repacked = tmp_path / "x.tar.gz"
    with tarfile.open(repacked, "w:gz") as tar:
        tar.add(extracted, arcname=".")
    with tarfile.open(repacked, "r:gz") as tar:
        assert f"./records/{world.success}.json" in tar.getnames()
    run = cli("verify", str(repacked))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("ok    x.tar.gz  manifest: ")
    listed = cli("inspect", "--list", str(repacked))
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    assert world.success in _listed(listed.stdout)
    assert os.listdir(private_tmp) == []


def test_a_bundle_is_one_root_among_others(
    bundle: Path, world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    """A colleague's bundle beside the local records: one listing, each execution known by
    its root, compared across them. It was refused: "not a directory ... (a bundle is
    opened on its own, not among other roots)"."""
    listed = cli("inspect", "--list", str(bundle), str(world.base))
    assert listed.returncode == 0, listed.stderr
    rows = [line.split() for line in listed.stdout.splitlines()[1:]]
    in_bundle = {row[1] for row in rows if row[0] == "evidence.tar.gz"}
    assert in_bundle == {world.success, world.fallback, world.invalidated, world.wal_only}
    assert {row[1] for row in rows if row[0] == "incident"} >= in_bundle
    assert "evidence.tar.gz 4" in listed.stderr
    assert os.listdir(private_tmp) == []  # its private copy is gone

    roots = ["--dir", str(world.base), "--dir", str(bundle)]
    inspected = cli("inspect", *roots, f"evidence.tar.gz:{world.success[:8]}", "--json")
    assert inspected.returncode == 0, inspected.stderr
    assert json.loads(inspected.stdout)["file"] == f"{bundle}:records/{world.success}.json"
    same = cli("diff", *roots, f"evidence.tar.gz:{world.success}", f"incident:{world.success}")
    assert same.returncode == 0 and same.stdout.splitlines()[-1] == "equal", same.stdout
    # What differs from the manifest is said for that root; the others list as they are.
    edited = edit_record(
        bundle, tmp_path / "edited.tar.gz", f"records/{world.success}.json", forge_envelope
    )
    noted = cli("inspect", "--list", str(world.base), str(edited))
    assert noted.returncode == 0, noted.stderr
    assert (
        "intentus-tui: root edited.tar.gz: note: bundle edited.tar.gz: 1 file differs from "
        "its manifest: run verify\n"
    ) in noted.stderr
    tampered = next(
        line.split()
        for line in noted.stdout.splitlines()
        if line.startswith("edited.tar.gz") and world.success in line
    )
    assert tampered[4:9] == ["unknown", "(untrusted)", "tampered", "no", "(untrusted)"], tampered
    # One that cannot be read is one line, and the others still list.
    broken = tmp_path / "broken.tar.gz"
    broken.write_bytes(b"not a tar at all")
    failed = cli("inspect", "--list", str(world.base), str(broken))
    assert failed.returncode == 1, failed.stderr
    assert failed.stderr.startswith("intentus-tui: root broken.tar.gz: failed: ")
    assert len(failed.stderr.splitlines()) == 2 and "Traceback" not in failed.stderr
    assert {line.split()[0] for line in failed.stdout.splitlines()[1:]} == {"incident"}
    assert os.listdir(private_tmp) == []


def test_a_bundle_is_no_source_for_a_new_bundle(
    bundle: Path, world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    output = tmp_path / "again.tar.gz"
    run = cli("bundle", world.success, "--dir", str(bundle), "-o", str(output))
    assert run.returncode == 2 and not output.exists()
    assert run.stderr == (
        f"intentus-tui: not a directory: {bundle} (a bundle: `intentus-tui {bundle}` "
        "opens it, `verify` checks it)\n"
    )
