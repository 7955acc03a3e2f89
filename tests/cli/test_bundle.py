"""``intentus-tui bundle`` and ``intentus-tui verify FILE.tar.gz`` as a user runs them, on
executions written by the real IntentusNet 1.3.0; hostile bundles get one line, exit 1."""

from __future__ import annotations

import json
import os
import stat
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.core.bundle.support import (
    BundleWorld,
    build_bundle_world,
    member,
    read_members,
    repack,
    write_tarball,
)
from tests.intentusnet_world import RealWorld


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path) -> BundleWorld:
    return build_bundle_world(real_world, tmp_path / "incident")


@pytest.fixture
def good_bundle(world: BundleWorld, tmp_path: Path) -> Path:
    """Executions whose files all verify: a record with its WAL and snapshot, a fallback,
    an invalidated record, a WAL-only execution."""
    output = tmp_path / "evidence.tar.gz"
    ids = [world.success[:8], world.fallback[:8], world.invalidated[:8], world.wal_only[:8]]
    run = cli("bundle", *ids, "--dir", str(world.base), "-o", str(output))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"{output}: 4 executions, 3 records, 2 WALs, 1 snapshot"
    return output


def test_verify_checks_the_manifest_then_the_records_and_wals(
    good_bundle: Path, world: BundleWorld, private_tmp: Path
) -> None:
    run = cli("verify", str(good_bundle))
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("ok    evidence.tar.gz  manifest: 6 files match their sha256")
    assert f"ok    {world.success}.json  hash match" in lines
    assert any(line.startswith(f"ok    {world.wal_only}.wal  wal chain verified") for line in lines)
    assert lines[-1] == "6 checked (3 records, 2 WALs, 1 bundle manifest), 0 failed"
    assert os.listdir(private_tmp) == []  # the extracted copy is gone

    doc = json.loads(cli("verify", str(good_bundle), "--json").stdout)
    assert doc["ok"] is True and doc["records"] == 3 and doc["wals"] == 2
    (bundle,) = doc["bundles"]
    assert bundle["ok"] is True and bundle["problems"] == [] and bundle["files"] == 6
    verdicts = {e["execution_id"]: e["verdict"] for e in bundle["executions"]}
    assert verdicts[world.invalidated]["replay"] == "manually_invalidated"
    # files are named inside the bundle, not by the temporary copy that is gone
    paths = {f.get("path") or f.get("file") for f in doc["files"]}
    assert f"{good_bundle}:records/{world.success}.json" in paths
    assert f"{good_bundle}:wal/{world.wal_only}.wal" in paths


def test_the_verdicts_agree_with_verify_on_the_directory(
    world: BundleWorld, tmp_path: Path
) -> None:
    """A bundle of every execution (the truncated one too) verifies as its directory does."""
    output = tmp_path / "all.tgz"
    ids = [world.success, world.fallback, world.invalidated, world.truncated, world.wal_only]
    assert cli("bundle", *ids, "--dir", str(world.base), "-o", str(output)).returncode == 0
    direct = cli("verify", str(world.base))
    bundled = cli("verify", str(output))
    assert direct.returncode == bundled.returncode == 1
    assert f"FAIL  {world.truncated}.json" in bundled.stdout
    # the same lines for the records and WALs, after the manifest's
    assert bundled.stdout.splitlines()[1:-1] == direct.stdout.splitlines()[:-1]


@pytest.mark.parametrize("which", ["record", "wal", "snapshot", "manifest.sha256"])
def test_a_changed_byte_fails_verify_naming_the_file(
    which: str, good_bundle: Path, world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    names = [info.name for info, _ in read_members(good_bundle)]
    name = {
        "record": f"records/{world.fallback}.json",
        "wal": f"wal/{world.wal_only}.wal",
        "snapshot": next(n for n in names if n.startswith("snapshots/")),
        "manifest.sha256": "manifest.sha256",
    }[which]
    changed = repack(good_bundle, tmp_path / "changed.tar.gz", name, change=40)
    run = cli("verify", str(changed))
    assert run.returncode == 1
    assert run.stdout.splitlines()[0].startswith("FAIL  changed.tar.gz  manifest: 1 problem (")
    assert f"      - changed: {name}" in run.stdout or f"or {name}" in run.stdout
    assert os.listdir(private_tmp) == []


def test_a_record_changed_since_it_was_bundled_fails_on_its_own_line(
    good_bundle: Path, world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    """Its answer edited where the record agrees with itself (finalResponse and its
    FINAL_RESPONSE event alike): only the manifest knows. The record's own line said
    "ok ... verified; replayable". A copy of another record added beside it: its verdict
    was said to be the original's ("exec: bundled as verified; now tampered")."""
    name = f"records/{world.success}.json"
    members = []
    for info, data in read_members(good_bundle):
        if info.name == name:
            record = json.loads(data)
            record["finalResponse"]["payload"] = {"forged": True}
            for event in record["events"]:
                if event["type"] == "FINAL_RESPONSE":
                    event["payload"]["payload"] = {"forged": True}
            data = json.dumps(record, indent=2).encode()
            info.size = len(data)
        members.append((info, data))
    copy_info = tarfile.TarInfo(f"records/copy-of-{world.fallback}.json")
    copy_data = next(d for i, d in members if i.name == f"records/{world.fallback}.json")
    copy_info.size = len(copy_data)
    members.append((copy_info, copy_data))
    edited = write_tarball(tmp_path / "edited.tar.gz", members)
    run = cli("verify", str(edited))
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    row = lines.index(
        next(line for line in lines if line.endswith(f"{world.success}.json  hash match"))
    )
    assert lines[row].startswith("FAIL  ")
    assert lines[row + 1].startswith("      - changed since it was bundled: sha256 ")
    assert not any(line.startswith(f"      · {world.fallback}: bundled as") for line in lines)
    doc = json.loads(cli("verify", str(edited), "--json").stdout)
    (record_doc,) = [f for f in doc["files"] if f["file"].endswith(f"{world.success}.json")]
    assert record_doc["ok"] is False and record_doc["changed_since_bundled"].startswith("sha256 ")
    assert os.listdir(private_tmp) == []


def test_the_total_checked_is_the_sum_of_its_parts(
    good_bundle: Path, tmp_path: Path, private_tmp: Path
) -> None:
    """Each bundle's manifest is checked (and may fail): counted in the total as in the
    parts, in the text and in --json, with singular nouns for one."""
    changed = repack(good_bundle, tmp_path / "changed.tar.gz", "manifest.sha256", change=40)
    one = cli("verify", str(good_bundle)).stdout.splitlines()[-1]
    assert one == "6 checked (3 records, 2 WALs, 1 bundle manifest), 0 failed"
    two = cli("verify", str(good_bundle), str(changed))
    assert two.returncode == 1
    # The changed manifest's seal, and so each record of its bundle: nothing vouches for them.
    assert two.stdout.splitlines()[-1] == (
        "12 checked (6 records, 4 WALs, 2 bundle manifests), 4 failed"
        "; evidence.tar.gz: 6 checked, 0 failed; changed.tar.gz: 6 checked, 4 failed"
    )
    doc = json.loads(cli("verify", str(good_bundle), str(changed), "--json").stdout)
    assert doc["checked"] == doc["records"] + doc["wals"] + len(doc["bundles"]) == 12
    assert doc["failed"] == 4
    assert os.listdir(private_tmp) == []


def test_each_line_of_several_bundles_names_its_bundle(
    good_bundle: Path, tmp_path: Path, private_tmp: Path
) -> None:
    """Two bundles holding the same record, one changed: the text named both lines by the
    record's file alone (FAIL x.json ... ok x.json), as a directory's lines are not."""
    changed = repack(good_bundle, tmp_path / "changed.tar.gz", "manifest.sha256", change=40)
    run = cli("verify", str(good_bundle), str(changed))
    records = [line for line in run.stdout.splitlines() if line.endswith("hash match")]
    assert records and all(
        line.split()[1].startswith(("evidence.tar.gz:records/", "changed.tar.gz:records/"))
        for line in records
    ), records
    assert len({line.split()[1] for line in records}) == len(records)


@pytest.mark.parametrize(
    ("members", "why"),
    [
        ([member("../escaped.json", b"{}")], "'..'"),
        ([member("records/x.json", type=tarfile.SYMTYPE, linkname="/etc/passwd")], "link"),
        ([member("records/x.json", type=tarfile.LNKTYPE, linkname="manifest.json")], "link"),
        ([member("records/x.json", size=1 << 40)], "claims"),
        ([member("records/x.json", b"{}")], "no manifest.json"),
    ],
    ids=["traversal", "symlink", "hardlink", "huge", "no-manifest"],
)
def test_hostile_bundles_get_one_line_and_exit_1(
    members: list[tuple[tarfile.TarInfo, bytes | None]],
    why: str,
    tmp_path: Path,
    private_tmp: Path,
) -> None:
    evil = write_tarball(tmp_path / "evil.tar.gz", members)
    for args in (["verify", str(evil)], [str(evil)]):  # checked, and opened in the debugger
        run = cli(*args)
        assert run.returncode == 1, args
        assert run.stdout == ""
        (line,) = run.stderr.splitlines()
        assert line.startswith("intentus-tui: evil.tar.gz: ") and why in line
        assert "Traceback" not in run.stderr
    assert os.listdir(private_tmp) == []
    assert not (tmp_path / "escaped.json").exists()


def test_a_missing_path_beside_a_bundle_is_one_failure_and_the_bundle_is_verified(
    good_bundle: Path, tmp_path: Path, private_tmp: Path
) -> None:
    """``verify B.tar.gz nosuch``: it exited 2 at the missing one, the bundle unverified."""
    missing = tmp_path / "nosuch"
    alone = cli("verify", str(good_bundle))
    run = cli("verify", str(good_bundle), str(missing))
    assert run.returncode == 1, run
    assert run.stderr == f"intentus-tui: no such file or directory: {missing}\n"
    assert run.stdout.splitlines()[:-1] == alone.stdout.splitlines()[:-1]
    # The bundle's six files passed: the missing path is the failure, said apart (it was
    # "6 checked (…), 1 failed").
    assert run.stdout.splitlines()[-1] == (
        "6 checked (3 records, 2 WALs, 1 bundle manifest), 0 failed; "
        "1 named path could not be read (failed)"
    )
    assert os.listdir(private_tmp) == []


def test_garbage_named_like_a_bundle(tmp_path: Path, private_tmp: Path) -> None:
    garbage = tmp_path / "garbage.tgz"
    garbage.write_bytes(b"\x00\x01 not gzip")
    run = cli("verify", str(garbage))
    assert run.returncode == 1
    assert run.stderr.startswith("intentus-tui: garbage.tgz: not a readable .tar.gz bundle")
    assert len(run.stderr.splitlines()) == 1


def test_a_byte_changed_inside_the_compressed_stream_is_a_damaged_archive(
    good_bundle: Path, tmp_path: Path, private_tmp: Path
) -> None:
    """One bit flipped in the middle of the gzip stream: its CRC fails. It was read as a
    bundle whose later files were "missing" and whose record was damaged."""
    data = bytearray(good_bundle.read_bytes())
    data[len(data) // 2] ^= 0x01
    damaged = tmp_path / "flipped.tar.gz"
    damaged.write_bytes(bytes(data))
    run = cli("verify", str(damaged))
    assert run.returncode == 1 and run.stdout == ""
    (line,) = run.stderr.splitlines()
    assert line.startswith("intentus-tui: flipped.tar.gz: not a readable .tar.gz bundle (")
    assert "missing" not in line
    assert os.listdir(private_tmp) == []


def test_an_unreadable_bundle_among_other_arguments_is_one_failure_of_them(
    world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    """``verify CUT.tar.gz DIR``: the bundle stopped everything (exit 1, DIR never
    checked); it is named, counted as failed, and DIR is verified."""
    garbage = tmp_path / "cut.tar.gz"
    garbage.write_bytes(b"\x1f\x8b cut short")
    alone = cli("verify", str(world.base))
    both = cli("verify", str(garbage), str(world.base))
    assert both.returncode == 1
    (line,) = both.stderr.splitlines()
    assert line.startswith("intentus-tui: cut.tar.gz: not a readable .tar.gz bundle")
    assert both.stdout.splitlines()[:-1] == alone.stdout.splitlines()[:-1]  # DIR, checked
    # It is not a root: the last line said "1 root not opened".
    assert both.stdout.splitlines()[-1].endswith("; 1 named path could not be read (failed)")
    doc = json.loads(cli("verify", "--json", str(garbage), str(world.base)).stdout)
    assert [u["root"] for u in doc["unopened"]] == [str(garbage)]
    assert doc["failed"] == sum(not f["ok"] for f in doc["files"])
    assert doc["not_read"] == 1
    # Two unreadable bundles and nothing else: each named, exit 1, one error document.
    other = tmp_path / "other.tgz"
    other.write_bytes(b"not gzip")
    run = cli("verify", "--json", str(garbage), str(other))
    assert run.returncode == 1 and len(run.stderr.splitlines()) == 2, run.stderr
    assert json.loads(run.stdout)["exit_code"] == 1
    assert os.listdir(private_tmp) == []


def test_a_bundle_beside_a_directory_names_each_files_root(
    good_bundle: Path, world: BundleWorld, private_tmp: Path
) -> None:
    """``verify DIR BUNDLE``: the bundle's lines said ``evidence.tar.gz/X.json`` and the
    directory's only ``X.json`` (the same execution, in both, told apart by one side
    alone), and the last line counted neither. Each line names its root, as with two
    directories, and each is counted."""
    run = cli("verify", str(world.base), str(good_bundle))
    lines = [line for line in run.stdout.splitlines() if line[:6] in ("ok    ", "FAIL  ")]
    named = [line.split()[1] for line in lines[1:]]  # after the manifest's line
    assert f"incident:{world.success}.json" in named
    assert f"evidence.tar.gz:records/{world.success}.json" in named
    assert all(name.startswith(("incident:", "evidence.tar.gz:")) for name in named), named
    assert run.stdout.splitlines()[-1].endswith(
        "; incident: 6 checked, 1 failed; evidence.tar.gz: 6 checked, 0 failed"
    ), run.stdout.splitlines()[-1]
    # A bundle's file as its line names it (``evidence.tar.gz/X.json`` named no file) is
    # taken back, from the bundle's directory, as --json names it.
    again = cli("verify", f"evidence.tar.gz:records/{world.success}.json", cwd=good_bundle.parent)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"ok    {world.success}.json  hash match"), again.stdout
    assert os.listdir(private_tmp) == []


def test_bundle_usage_errors(world: BundleWorld, tmp_path: Path) -> None:
    base = str(world.base)
    unknown = cli("bundle", "ffffffff", "--dir", base, "-o", str(tmp_path / "x.tar.gz"))
    assert unknown.returncode == 2 and "no execution 'ffffffff'" in unknown.stderr
    nowhere = cli("bundle", world.success, "--dir", base, "-o", str(tmp_path / "no" / "x.tgz"))
    assert nowhere.returncode == 2 and "no such directory" in nowhere.stderr
    named = cli("bundle", world.success, "--dir", base, "-o", str(tmp_path / "x.zip"))
    assert named.returncode == 2 and "FILE.tar.gz" in named.stderr
    assert cli("verify", str(tmp_path / "missing.tar.gz")).returncode == 2
    assert not any(tmp_path.glob("x.*"))


def test_a_bundle_that_cannot_be_written_is_named_not_its_temporary_file(
    world: BundleWorld,
) -> None:
    # It was "[Errno 2] No such file or directory: '/proc/.x.tar.gz.a869cadeab3f.tmp'".
    run = cli("bundle", world.success, "--dir", str(world.base), "-o", "/proc/x.tar.gz")
    assert run.returncode == 2, run
    assert run.stderr == "intentus-tui: cannot write /proc/x.tar.gz: no such file or directory\n"


def test_a_bundle_is_never_written_among_the_records_or_logs(
    world: BundleWorld, tmp_path: Path
) -> None:
    """``bundle -o`` into a record or write-ahead log directory (the root's, whatever its
    name, or any .intentusnet's) is refused as ``export -o`` is, by the same check: the
    bundle was written there, a stranger among the evidence it was made of."""
    plain = tmp_path / "evidence"  # a directory of records, not named records/
    plain.mkdir()
    (plain / f"{world.success}.json").write_bytes(
        (world.records / f"{world.success}.json").read_bytes()
    )
    for root, directory, what in (
        (world.base, world.records, "the record directory"),
        (world.base, world.wal, "the write-ahead log directory"),
        (world.base, world.records / ".." / "records", "the record directory"),
        (plain, plain, "the record directory"),
    ):
        output = directory / "evidence.tar.gz"
        run = cli("bundle", world.success, "--dir", str(root), "-o", str(output))
        assert run.returncode == ExitCode.USAGE, run
        among = "records" if what == "the record directory" else "write-ahead logs"
        assert run.stderr == (
            f"intentus-tui: refusing to write evidence.tar.gz into {what} "
            f"({directory.resolve()}): it would sit among the {among}; choose another place "
            "with -o\n"
        )
        assert run.stdout == "" and not output.exists()
        exported = cli("export", "--format", "json", "--dir", str(root), "-o", str(output))
        assert exported.returncode == ExitCode.USAGE
        assert exported.stderr == run.stderr  # one check, said the same way
    beside = cli("bundle", world.success, "--dir", str(world.base), "-o", str(tmp_path / "b.tgz"))
    assert beside.returncode == 0, beside.stderr


def test_source_date_epoch_makes_a_byte_identical_bundle(
    world: BundleWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    outputs = [tmp_path / "a.tar.gz", tmp_path / "b.tar.gz"]
    for output in outputs:
        run = cli(
            "bundle", world.success, world.wal_only, "--dir", str(world.base), "-o", str(output)
        )
        assert run.returncode == 0, run.stderr
    assert outputs[0].read_bytes() == outputs[1].read_bytes()
    manifest = json.loads(read_members(outputs[0])[0][1])
    assert manifest["created"] == "2026-01-01T00:00:00Z"


def test_the_debugger_opens_a_bundle_from_a_private_copy_it_removes(
    good_bundle: Path, world: BundleWorld, private_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``intentus-tui FILE.tar.gz``: the app runs on an extracted, read-only copy in a
    private temporary directory, which is gone once the app has closed."""
    from intentus_tui.cli import run
    from intentus_tui.tui.app import IntentusApp

    seen: list[tuple[Any, ...]] = []

    def run_app(app: IntentusApp) -> None:
        directory = app.root.records_dir.parent
        seen.append(
            (
                app.root.read_only,
                app.header_state.directory,
                app.watching,
                sorted(os.listdir(app.root.records_dir)),
                stat.S_IMODE(directory.stat().st_mode),
                directory.parent == private_tmp,
            )
        )

    monkeypatch.setattr(IntentusApp, "run", run_app)
    monkeypatch.setattr("intentus_tui.cli.open.has_a_terminal", lambda: True)  # not run
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))  # read once per process
    assert run([str(good_bundle)]) == 0
    ((read_only, label, watching, records, mode, private),) = seen
    assert read_only == "a bundle (evidence.tar.gz), opened read-only"
    assert label == "bundle evidence.tar.gz" and watching is False
    assert records == sorted(
        f"{i}.json" for i in (world.success, world.fallback, world.invalidated)
    )
    assert mode == 0o700 and private
    assert os.listdir(private_tmp) == []


def test_a_bundle_of_one_file_says_it_in_the_singular(
    world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    output = tmp_path / "one.tar.gz"
    assert (
        cli("bundle", world.wal_only[:8], "--dir", str(world.base), "-o", str(output)).returncode
        == 0
    )
    first = cli("verify", str(output)).stdout.splitlines()[0]
    assert first.startswith("ok    one.tar.gz  manifest: 1 file matches its sha256"), first


def test_an_execution_whose_file_cannot_be_read_is_not_bundled_and_says_why(
    world: BundleWorld, tmp_path: Path
) -> None:
    """A record that is a link out of the store, or a FIFO: the list shows each as a record
    not read; ``bundle`` named one said ``[Errno 1] symlink to …`` (exit 2, the usage code)."""
    base = str(world.base)
    secret = tmp_path / "secret.json"
    secret.write_text('{"intent": "never shown"}', encoding="utf-8")
    outside = "aaaa1111-2222-4333-8444-555566667777"
    (world.records / f"{outside}.json").symlink_to(secret)
    os.mkfifo(world.records / "bbbb1111-2222-4333-8444-555566667777.json")
    output = tmp_path / "x.tar.gz"
    link = cli("bundle", outside[:8], "--dir", base, "-o", str(output))
    assert link.returncode == ExitCode.PROBLEMS
    assert link.stderr == (
        f"intentus-tui: cannot bundle {outside}.json: the file cannot be read (Refused: "
        f"symlink to {secret}, outside the directory: not followed)\n"
    )
    fifo = cli("bundle", "bbbb1111", world.success[:8], "--dir", base, "-o", str(output))
    assert fifo.returncode == ExitCode.PROBLEMS
    assert "the file cannot be read (a FIFO (named pipe), not a regular file)" in fifo.stderr
    assert "Errno" not in link.stderr + fifo.stderr and "never shown" not in link.stderr
    assert not output.exists()  # no bundle without the evidence it names
