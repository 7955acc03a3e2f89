"""Reading a bundle back: a real one round-trips; every hostile one is refused with one line
naming what is wrong, and nothing is ever written outside the destination directory."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import stat
import tarfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from intentus_tui.core.bundle.read import BundleError, BundleLimits, extract_bundle
from intentus_tui.core.bundle.write import bundle_executions
from intentus_tui.core.paths import resolve_root
from tests.core.bundle.support import (
    BundleWorld,
    build_bundle_world,
    member,
    read_members,
    repack,
    write_tarball,
)
from tests.intentusnet_world import RealWorld

WHEN = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path) -> BundleWorld:
    return build_bundle_world(real_world, tmp_path / "incident")


@pytest.fixture
def bundle(world: BundleWorld, tmp_path: Path) -> Path:
    output = tmp_path / "evidence.tar.gz"
    ids = [world.success, world.fallback, world.wal_only]
    bundle_executions(resolve_root(world.base), ids, output, created=WHEN)
    return output


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """``sandbox/dest`` is where bundles are extracted; the sandbox must hold nothing else."""
    dest = tmp_path / "sandbox" / "dest"
    dest.mkdir(parents=True)
    return dest


def written_outside(dest: Path) -> list[str]:
    return sorted(set(os.listdir(dest.parent)) - {"dest"})


def test_a_real_bundle_round_trips(world: BundleWorld, bundle: Path, sandbox: Path) -> None:
    extracted = extract_bundle(bundle, sandbox)
    assert extracted.ok and extracted.problems == ()
    for name in (f"{world.success}.json", f"{world.fallback}.json"):
        assert (sandbox / "records" / name).read_bytes() == (world.records / name).read_bytes()
    for name in (f"{world.success}.wal", f"{world.wal_only}.wal"):
        assert (sandbox / "wal" / name).read_bytes() == (world.wal / name).read_bytes()
    (snapshot,) = os.listdir(sandbox / "snapshots")
    assert (sandbox / "snapshots" / snapshot).read_bytes() == (
        world.base / "snapshots" / snapshot
    ).read_bytes()
    # a read-only copy, opened like an .intentusnet directory
    mode = stat.S_IMODE((sandbox / "records" / f"{world.success}.json").stat().st_mode)
    assert mode == 0o400
    root = resolve_root(sandbox)
    assert root.records_dir == sandbox / "records" and root.wal_dir == sandbox / "wal"
    assert extracted.manifest.created == "2026-03-01T12:00:00Z"
    assert [e.execution_id for e in extracted.manifest.executions] == [
        world.success,
        world.fallback,
        world.wal_only,
    ]
    assert written_outside(sandbox) == []


def test_a_wal_only_bundle_still_opens_as_a_root(world: BundleWorld, tmp_path: Path) -> None:
    output = tmp_path / "wal-only.tgz"
    bundle_executions(resolve_root(world.base), [world.wal_only], output, created=WHEN)
    dest = tmp_path / "dest"
    dest.mkdir()
    extract_bundle(output, dest)
    assert (dest / "records").is_dir() and os.listdir(dest / "records") == []
    assert resolve_root(dest).wal_dir == dest / "wal"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("records/../../escaped.json", "'..'"),
        ("../escaped.json", "'..'"),
        ("/tmp/records/absolute.json", "absolute path"),
        ("records/.hidden.json", "hidden"),
        ("records/notes.txt", "does not end with .json"),
        ("notes.txt", "not a bundle path"),
        ("records/sub/deep.json", "not a bundle path"),
        ("records/a\x1b[2Jb.json", "control"),
        # what follows a ./ prefix is checked as any path is
        ("./../escaped.json", "'..'"),
        ("./records/../../escaped.json", "'..'"),
        (".//tmp/records/absolute.json", "absolute path"),
        ("./records/sub/deep.json", "not a bundle path"),
        ("./records/.hidden.json", "hidden"),
        ("./notes.txt", "not a bundle path"),
        (".", "not a bundle path"),  # a file named as the top directory
        ("records/./x.json", "not a bundle path"),
    ],
)
def test_paths_a_bundle_may_not_hold(name: str, why: str, tmp_path: Path, sandbox: Path) -> None:
    evil = write_tarball(tmp_path / "evil.tar.gz", [member(name, b"{}")])
    with pytest.raises(BundleError) as caught:
        extract_bundle(evil, sandbox)
    message = str(caught.value)
    assert why in message and "refused" in message and "\n" not in message
    assert written_outside(sandbox) == []
    assert not (tmp_path / "escaped.json").exists()


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"type": tarfile.SYMTYPE, "linkname": "/etc/passwd"}, "symbolic link"),
        ({"type": tarfile.SYMTYPE, "linkname": "../../outside.json"}, "symbolic link"),
        ({"type": tarfile.LNKTYPE, "linkname": "manifest.json"}, "hard link"),
        ({"type": tarfile.CHRTYPE, "devmajor": 1, "devminor": 3}, "device"),
        ({"type": tarfile.BLKTYPE, "devmajor": 8, "devminor": 0}, "device"),
        ({"type": tarfile.FIFOTYPE}, "FIFO"),
    ],
)
@pytest.mark.parametrize("name", ["records/x.json", "./records/x.json"])
def test_links_devices_and_fifos_are_refused(
    fields: dict[str, object], why: str, name: str, tmp_path: Path, sandbox: Path
) -> None:
    evil = write_tarball(tmp_path / "evil.tar.gz", [member(name, **fields)])
    with pytest.raises(BundleError, match=why):
        extract_bundle(evil, sandbox)
    assert written_outside(sandbox) == []
    assert not (sandbox / "records" / "x.json").exists()


def test_a_huge_member_is_refused_from_its_header(tmp_path: Path, sandbox: Path) -> None:
    # The header claims 10 GiB; not a byte of it is there, and none is read.
    evil = write_tarball(tmp_path / "huge.tar.gz", [member("records/x.json", size=10 << 30)])
    with pytest.raises(BundleError, match="claims 10,737,418,240 bytes"):
        extract_bundle(evil, sandbox)
    assert not (sandbox / "records").exists()


def test_member_count_and_total_size_are_limited(tmp_path: Path, sandbox: Path) -> None:
    many = write_tarball(
        tmp_path / "many.tar.gz", [member(f"records/{n}.json", b"{}") for n in range(6)]
    )
    with pytest.raises(BundleError, match="more than 5 members"):
        extract_bundle(many, sandbox, BundleLimits(members=5))
    big = write_tarball(
        tmp_path / "big.tar.gz", [member(f"records/{n}.json", b"x" * 600) for n in range(3)]
    )
    other = sandbox.parent / "other"
    other.mkdir()
    with pytest.raises(BundleError, match="more than 1,000 bytes"):
        extract_bundle(big, other, BundleLimits(total_bytes=1000))


def test_a_member_named_twice_is_refused(tmp_path: Path, sandbox: Path) -> None:
    twice = write_tarball(
        tmp_path / "twice.tar.gz",
        [member("records/x.json", b"{}"), member("records/x.json", b"[]")],
    )
    with pytest.raises(BundleError, match="appears twice"):
        extract_bundle(twice, sandbox)


@pytest.mark.parametrize("name", ["records/x.json", "manifest.json", "manifest.sha256"])
def test_a_member_named_twice_with_and_without_a_dot_slash_is_refused(
    name: str, tmp_path: Path, sandbox: Path
) -> None:
    """``./records/x.json`` is ``records/x.json``: the second would be read over the first
    (the manifest's seal, read twice, was taken from the last)."""
    twice = write_tarball(
        tmp_path / "twice.tar.gz", [member(name, b"{}"), member(f"./{name}", b"[]")]
    )
    with pytest.raises(BundleError) as caught:
        extract_bundle(twice, sandbox)
    assert str(caught.value) == f"twice.tar.gz: member {name!r} appears twice: refused"


def test_a_bundle_repacked_from_its_directory_is_read_as_it_was(
    world: BundleWorld, bundle: Path, tmp_path: Path, sandbox: Path
) -> None:
    """Extracted and packed again the common way (``tar czf x.tar.gz -C DIR .``): every
    member named ``./…``, after a ``.`` entry and the sections' own. It was refused
    ("member '.' refused: not a bundle path"); it reads as the bundle it was, every file
    found by the manifest."""
    original = extract_bundle(bundle, sandbox)
    members = [member("./", type=tarfile.DIRTYPE, mode=0o755)]
    for section in ("records", "wal", "snapshots"):
        members.append(member(f"./{section}/", type=tarfile.DIRTYPE, mode=0o755))
    for info, data in read_members(bundle):
        info.name = f"./{info.name}"
        members.append((info, data))
    repacked = write_tarball(tmp_path / "x.tar.gz", members)
    again = tmp_path / "again"
    again.mkdir()
    extracted = extract_bundle(repacked, again)
    assert extracted.ok and extracted.problems == ()
    assert extracted.files == original.files
    assert f"records/{world.success}.json" in extracted.files
    assert sorted(os.listdir(again)) == sorted(os.listdir(sandbox))


@pytest.mark.parametrize(
    "content",
    [
        b"this is not a bundle at all",
        b"",
        gzip.compress(b"gzip, but no tar inside" * 40),
        b"\x1f\x8b\x08\x00garbage after a gzip magic",
    ],
    ids=["text", "empty", "gzip-not-tar", "broken-gzip"],
)
def test_garbage_is_not_a_bundle(content: bytes, tmp_path: Path, sandbox: Path) -> None:
    path = tmp_path / "garbage.tar.gz"
    path.write_bytes(content)
    with pytest.raises(BundleError) as caught:
        extract_bundle(path, sandbox)
    assert "garbage.tar.gz" in str(caught.value) and "\n" not in str(caught.value)


def test_a_truncated_bundle_is_refused(bundle: Path, tmp_path: Path, sandbox: Path) -> None:
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(bundle.read_bytes()[: bundle.stat().st_size // 2])
    with pytest.raises(BundleError, match=r"cut\.tar\.gz"):
        extract_bundle(cut, sandbox)


def test_a_fifo_named_like_a_bundle_is_refused_without_blocking(
    tmp_path: Path, sandbox: Path
) -> None:
    fifo = tmp_path / "pipe.tar.gz"
    os.mkfifo(fifo)
    with pytest.raises(BundleError, match="FIFO"):
        extract_bundle(fifo, sandbox)


def _manifest_bundle(tmp_path: Path, manifest: bytes | None, files: dict[str, bytes]) -> Path:
    members = [member(name, data) for name, data in files.items()]
    if manifest is not None:
        digest = f"{hashlib.sha256(manifest).hexdigest()}  manifest.json\n".encode()
        members = [member("manifest.json", manifest), member("manifest.sha256", digest), *members]
    return write_tarball(tmp_path / "m.tar.gz", members)


def _manifest(contents: dict[str, bytes], **changes: object) -> bytes:
    doc: dict[str, object] = {
        "format": "intentus-tui-bundle@1",
        "tool": {"name": "intentus-tui", "version": "0.1.0"},
        "created": "2026-03-01T12:00:00Z",
        "executions": [],
        "files": [
            {"path": name, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            for name, data in contents.items()
        ],
    }
    doc.update(changes)
    return json.dumps(doc).encode()


def test_a_hand_made_manifest_that_matches_is_accepted(tmp_path: Path, sandbox: Path) -> None:
    files = {"records/a.json": b"{}", "wal/a.wal": b""}
    extracted = extract_bundle(_manifest_bundle(tmp_path, _manifest(files), files), sandbox)
    assert extracted.ok


@pytest.mark.parametrize(
    ("manifest", "why"),
    [
        (None, "no manifest.json"),
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[]", "not a JSON object"),
        (b'{"format": "zip@9"}', "not a bundle this tool wrote"),
        (_manifest({}, files={"x": 1}), '"files" must be a list'),
        (_manifest({}, files=[{"path": "../x.json", "sha256": "0" * 64, "size": 1}]), "'..'"),
        (_manifest({}, files=[{"path": "records/a.json", "sha256": "XYZ", "size": 1}]), "sha256"),
        (_manifest({}, files=[{"path": "records/a.json", "sha256": "0" * 64, "size": -1}]), "size"),
        (_manifest({}, tool="me"), '"tool"'),
        (_manifest({"records/a.json": b"{}"}, created=5), "created"),
    ],
    ids=[
        "missing",
        "not-json",
        "not-utf8",
        "array",
        "format",
        "files-type",
        "files-traversal",
        "bad-sha",
        "bad-size",
        "tool",
        "created",
    ],
)
def test_a_missing_or_invalid_manifest_is_refused(
    manifest: bytes | None, why: str, tmp_path: Path, sandbox: Path
) -> None:
    files = {"records/a.json": b"{}"}
    with pytest.raises(BundleError, match=why.replace("(", r"\(")) as caught:
        extract_bundle(_manifest_bundle(tmp_path, manifest, files), sandbox)
    assert "\n" not in str(caught.value)


def test_missing_extra_and_changed_files_are_named(
    bundle: Path, world: BundleWorld, tmp_path: Path, sandbox: Path
) -> None:
    record = f"records/{world.fallback}.json"
    wal = f"wal/{world.wal_only}.wal"
    members = [(i, d) for i, d in read_members(bundle) if i.name != wal]  # one missing
    members.append(member(f"records/{'e' * 8}.json", b"{}"))  # one extra
    members = [
        (i, d.replace(b'"Summarize"', b'"Summarise"', 1) if i.name == record else d)
        for i, d in members
    ]  # one changed (same size)
    problems = extract_bundle(write_tarball(tmp_path / "t.tar.gz", members), sandbox).problems
    # In path order (the execution ids are random: the extra file may come first).
    expected = [("changed", record), ("extra", f"records/{'e' * 8}.json"), ("missing", wal)]
    assert [(p.kind, p.path) for p in problems] == sorted(expected, key=lambda kp: kp[1])


def test_a_changed_byte_in_any_member_is_named(bundle: Path, tmp_path: Path) -> None:
    members = read_members(bundle)
    assert len(members) == 7
    for n, (info, data) in enumerate(members):
        for offset in (30, len(data) // 2, len(data) - 2):
            changed = repack(bundle, tmp_path / f"changed-{n}.tar.gz", info.name, offset)
            dest = tmp_path / f"dest-{n}-{offset}"
            dest.mkdir()
            try:
                problems = extract_bundle(changed, dest).problems
            except BundleError as exc:  # the manifest no longer parses: named all the same
                assert info.name == "manifest.json" and "manifest.json" in str(exc)
                continue
            assert any(info.name in p.path for p in problems), (info.name, offset, problems)


def test_a_symlink_the_user_names_is_followed(bundle: Path, tmp_path: Path, sandbox: Path) -> None:
    elsewhere = tmp_path / "links"
    elsewhere.mkdir()
    (elsewhere / "evidence.tar.gz").symlink_to(bundle)
    assert extract_bundle(elsewhere / "evidence.tar.gz", sandbox).ok
