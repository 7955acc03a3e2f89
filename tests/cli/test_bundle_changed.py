"""A record of a bundle changed since it was bundled, its own checks passing (its envelope
edited and its hash made again by IntentusNet 1.3.0's own hasher): only the manifest
knows, and every command reading the bundle gives it the one verdict. Integrity tampered,
saying it changed since it was bundled; not replayable (untrusted). The commands said
"verified; replayable" of it, ``verify`` alone failing it."""

from __future__ import annotations

import hashlib
import json
import tarfile
from pathlib import Path

import pytest

from intentus_tui.cli.open import bundle_label
from intentus_tui.core.bundle.read import extract_bundle
from tests.cli.support import cli
from tests.core.bundle.support import (
    BundleWorld,
    edit_record,
    forge_envelope,
    read_members,
    write_tarball,
)

CHANGED = "the record changed since it was bundled: sha256 "
UNTRUSTED = "verdict: outcome unknown (untrusted), integrity tampered; not replayable (untrusted)"


def _bundle(world: BundleWorld, output: Path, *ids: str) -> Path:
    run = cli("bundle", *ids, "--dir", str(world.base), "-o", str(output))
    assert run.returncode == 0, run.stderr
    return output


@pytest.fixture
def edited(world: BundleWorld, tmp_path: Path) -> Path:
    """A bundle of a record with its WAL, another record and a WAL-only execution; the
    first record's envelope then forged inside it, the manifest untouched."""
    good = _bundle(world, tmp_path / "good.tar.gz", world.success, world.fallback, world.wal_only)
    name = f"records/{world.success}.json"
    return edit_record(good, tmp_path / "edited.tar.gz", name, forge_envelope)


def test_verify_gives_the_changed_record_its_untrusted_verdict(
    edited: Path, world: BundleWorld
) -> None:
    run = cli("verify", str(edited))
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    row = lines.index(f"FAIL  {world.success}.json  hash match")  # its own hash matches
    assert lines[row + 1].startswith("      - changed since it was bundled: sha256 ")
    assert lines[row + 2] == f"      {UNTRUSTED}"  # it said: succeeded, verified; replayable
    assert f"      · {world.success}: bundled as outcome succeeded, integrity verified, " in (
        run.stdout
    )
    assert f"ok    {world.fallback}.json  hash match" in lines  # the others as they were

    doc = json.loads(cli("verify", str(edited), "--json").stdout)
    (record,) = [f for f in doc["files"] if f["file"].endswith(f"{world.success}.json")]
    assert record["ok"] is False and record["problems"] == []  # its own checks pass
    assert record["hash"]["status"] == "match"
    assert record["changed_since_bundled"].startswith("sha256 ")
    verdict = record["verdict"]
    assert (verdict["outcome"], verdict["integrity"], verdict["replay"]) == (
        "unknown",
        "tampered",
        "untrusted",
    )
    assert verdict["integrity_reason"].startswith(CHANGED)
    assert verdict["replayable"] is False and verdict["needs_attention"] is True


def test_a_record_added_to_a_bundle_is_not_vouched_for(world: BundleWorld, tmp_path: Path) -> None:
    """A record the manifest does not name (a real record of another execution, slipped in
    under its own name): its line was ``ok``, its verdict verified; replayable."""
    good = _bundle(world, tmp_path / "good.tar.gz", world.success)
    extra = tarfile.TarInfo(f"records/{world.fallback}.json")
    data = (world.records / f"{world.fallback}.json").read_bytes()
    extra.size = len(data)
    added = write_tarball(tmp_path / "added.tar.gz", [*read_members(good), (extra, data)])
    run = cli("verify", str(added))
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    row = lines.index(f"FAIL  {world.fallback}.json  hash match")
    assert lines[row + 1] == (
        "      - the record is not in its bundle's manifest: added since it was bundled: "
        "nothing vouches for its bytes"
    )
    assert lines[row + 2] == f"      {UNTRUSTED}"
    assert f"ok    {world.success}.json  hash match" in lines


def test_commands_reading_the_bundles_copy_give_the_same_verdict(
    edited: Path, world: BundleWorld, tmp_path: Path
) -> None:
    """The copy the debugger reads (extracted as it extracts one): listed, inspected,
    replayed and exported, the changed record is tampered and not replayable; its forced
    replay says why the answer cannot be believed."""
    copy = tmp_path / "copy"
    copy.mkdir()
    extract_bundle(edited, copy)
    short = world.success[:8]
    for _ in range(2):  # cold, then from the index cache (which keeps what the file says)
        listing = cli("inspect", "--list", "--dir", str(copy))
        assert listing.returncode == 0, listing.stderr
        row = next(line for line in listing.stdout.splitlines() if line.startswith(short))
        assert row.split()[3:8] == ["unknown", "(untrusted)", "tampered", "no", "(untrusted)"], row

    inspected = json.loads(cli("inspect", short, "--dir", str(copy), "--json").stdout)
    assert inspected["replayable"] is False and inspected["replayable_reason"] == "untrusted"
    assert inspected["verdict"]["integrity_reason"].startswith(CHANGED)
    assert inspected["postmortem"]["hint"]["verdict"] == "investigate_first"

    refused = cli("replay", short, "--dir", str(copy))
    assert refused.returncode == 3 and refused.stdout == ""
    assert refused.stderr.startswith("intentus-tui: not replayable (untrusted): the record fails")
    forced = cli("replay", short, "--dir", str(copy), "--force", "--json")
    assert forced.returncode == 0, forced.stderr
    answer = json.loads(forced.stdout)
    assert answer["trusted"] is False
    (problem,) = answer["integrity"]
    assert problem["kind"] == "changed_since_bundled"
    assert problem["summary"] == "record changed since it was bundled"
    assert problem["detail"].startswith("sha256 ")
    strict = cli("replay", short, "--dir", str(copy), "--strict")
    assert strict.returncode == 5
    assert strict.stderr == (
        "intentus-tui: integrity in doubt, not replayed (--strict): record changed since it "
        "was bundled\n"
    )

    exported = cli("export", "--format", "json", "--dir", str(copy), "-o", "-")
    assert exported.returncode == 0, exported.stderr
    verdicts = {
        doc["execution_id"]: doc["verdict"] for doc in map(json.loads, exported.stdout.splitlines())
    }
    assert verdicts[world.success]["integrity"] == "tampered"
    assert verdicts[world.fallback]["integrity"] == "verified"


@pytest.mark.parametrize("cache", ["--no-cache", "cold", "warm"])
def test_the_listings_shortcuts_say_it_too(cache: str, world: BundleWorld, tmp_path: Path) -> None:
    """A bundle with no write-ahead log is listed from the rows the workers make (or the
    cache keeps), never from a summary: those rows know nothing of the manifest."""
    good = _bundle(world, tmp_path / "good.tar.gz", world.fallback, world.invalidated)
    name = f"records/{world.fallback}.json"
    changed = edit_record(good, tmp_path / "changed.tar.gz", name, forge_envelope)
    copy = tmp_path / "copy"
    copy.mkdir()
    extract_bundle(changed, copy)
    assert not (copy / "wal").exists()
    args = ["inspect", "--list", "--dir", str(copy), "--json"]
    if cache == "--no-cache":
        args.append(cache)
    elif cache == "warm":
        assert cli(*args).returncode == 0
    run = cli(*args)
    assert run.returncode == 0, run.stderr
    rows = {row["execution_id"]: row for row in json.loads(run.stdout)["executions"]}
    assert rows[world.fallback]["integrity"] == "tampered"
    assert rows[world.fallback]["integrity_reason"].startswith(CHANGED)
    assert rows[world.fallback]["replayable_reason"] == "untrusted"
    assert rows[world.invalidated]["integrity"] == "verified"


def _cut_last_entry(source: Path, target: Path, name: str) -> Path:
    """``source`` again with the last entry of its log ``name`` gone (the hash chain of the
    rest intact: the log alone cannot tell), the manifest untouched."""
    members = []
    for info, data in read_members(source):
        if info.name == name:
            data = b"".join(data.splitlines(keepends=True)[:-1])
            info.size = len(data)
        members.append((info, data))
    return write_tarball(target, members)


@pytest.mark.parametrize("cache", ["cold", "warm"])
def test_a_log_changed_since_it_was_bundled_makes_its_execution_untrusted(
    cache: str, world: BundleWorld, tmp_path: Path
) -> None:
    """A write-ahead log cut short inside the bundle, its chain still whole: only the
    manifest knows. ``verify`` failed it, but the execution it is evidence of (a record
    joined with it, or one known from it alone) stayed verified everywhere else."""
    good = _bundle(world, tmp_path / "good.tar.gz", world.success, world.wal_only)
    cut = _cut_last_entry(good, tmp_path / "cut.tar.gz", f"wal/{world.success}.wal")
    cut = _cut_last_entry(cut, tmp_path / "cut2.tar.gz", f"wal/{world.wal_only}.wal")
    copy = tmp_path / "copy"
    copy.mkdir()
    extract_bundle(cut, copy)
    args = ["inspect", "--list", "--dir", str(copy), "--json"]
    if cache == "warm":
        assert cli(*args).returncode == 0
    rows = {row["execution_id"]: row for row in json.loads(cli(*args).stdout)["executions"]}
    for execution in (world.success, world.wal_only):
        assert rows[execution]["integrity"] == "tampered", rows[execution]
        reason = rows[execution]["integrity_reason"]
        assert reason.startswith("its write-ahead log changed since it was bundled: sha256 ")

    short = world.success[:8]
    inspected = json.loads(cli("inspect", short, "--dir", str(copy), "--json").stdout)
    assert inspected["verdict"]["integrity"] == "tampered"
    forced = json.loads(cli("replay", short, "--dir", str(copy), "--force", "--json").stdout)
    assert forced["trusted"] is False
    assert [p["summary"] for p in forced["integrity"]] == [
        "write-ahead log changed since it was bundled"
    ]


def _with_manifest_entry_made_again(source: Path, target: Path, name: str) -> Path:
    """``source`` again with its manifest's entry for ``name`` made to match that member's
    bytes now, ``manifest.sha256`` left as it was: what one who edits a record and its
    manifest entry, but not the manifest's own seal, leaves."""
    members = read_members(source)
    data = next(data for info, data in members if info.name == name)
    out = []
    for info, member_data in members:
        if info.name == "manifest.json":
            manifest = json.loads(member_data)
            for entry in manifest["files"]:
                if entry["path"] == name:
                    entry["sha256"], entry["size"] = hashlib.sha256(data).hexdigest(), len(data)
            member_data = json.dumps(manifest, indent=2).encode()
            info.size = len(member_data)
        out.append((info, member_data))
    return write_tarball(target, out)


def test_a_manifest_that_does_not_match_its_seal_vouches_for_no_record(
    world: BundleWorld, tmp_path: Path
) -> None:
    """A record forged inside a bundle and its manifest entry made again to match: the
    manifest no longer hashes to ``manifest.sha256``. ``verify`` failed the manifest, but
    the forged record (its own checks pass, its manifest entry too) was "verified;
    replayable" in its verdict, everywhere. Nothing in such a bundle vouches for any file:
    each record's verdict says so, untrusted."""
    ids = (world.success, world.fallback, world.truncated)
    good = _bundle(world, tmp_path / "good.tar.gz", *ids)
    name = f"records/{world.success}.json"
    forged = edit_record(good, tmp_path / "forged.tar.gz", name, forge_envelope)
    resealed = _with_manifest_entry_made_again(forged, tmp_path / "resealed.tar.gz", name)
    run = cli("verify", str(resealed))
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    for execution in ids:
        # The record 1.3.0 left cut short says its damage, and then why it is tampered.
        row = next(n for n, line in enumerate(lines) if line.startswith(f"FAIL  {execution}"))
        said = lines[row + 1 : lines.index(f"      {UNTRUSTED}", row)]
        seal = [line for line in said if "manifest does not match its seal" in line]
        assert seal and seal[0].startswith(
            "      - the bundle's manifest does not match its seal: manifest.json hashes to "
        ), said
        assert seal[0].endswith("; nothing vouches for its bytes")

    copy = tmp_path / "copy"
    copy.mkdir()
    extract_bundle(resealed, copy)
    listing = cli("inspect", "--list", "--dir", str(copy), "--json")
    rows = {row["execution_id"]: row for row in json.loads(listing.stdout)["executions"]}
    for execution in (world.success, world.fallback):
        assert rows[execution]["integrity"] == "tampered"
        assert rows[execution]["integrity_reason"].startswith(
            "the bundle's manifest does not match its seal: "
        )
        assert rows[execution]["replayable_reason"] == "untrusted"
    refused = cli("replay", world.success[:8], "--dir", str(copy))
    assert refused.returncode == 3
    # The debugger's header: it said "(1 file differs from its manifest: run verify)",
    # while no file differs from it.
    (tmp_path / "again").mkdir()
    assert bundle_label(extract_bundle(resealed, tmp_path / "again"), str(resealed)) == (
        "bundle resealed.tar.gz (its manifest does not match its seal: run verify)"
    )


def test_a_bundle_without_its_manifests_seal_vouches_for_no_record(
    world: BundleWorld, tmp_path: Path
) -> None:
    good = _bundle(world, tmp_path / "good.tar.gz", world.fallback)
    unsealed = write_tarball(
        tmp_path / "unsealed.tar.gz",
        [(info, data) for info, data in read_members(good) if info.name != "manifest.sha256"],
    )
    run = cli("verify", str(unsealed))
    assert run.returncode == 1
    assert (
        "      - the bundle's manifest does not match its seal: manifest.sha256 is missing; "
        "nothing vouches for its bytes"
    ) in run.stdout.splitlines()
