"""What ``D`` offers to compare with: saved snapshots, Verist baselines and record files,
found under the root, written by the product's own save code and the real intentusnet 1.3.0."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.actions import load_detail, save_snapshot
from intentus_tui.core.compare import file_operand
from intentus_tui.core.compare.targets import (
    describe_file,
    find_compare_files,
    find_runs,
    project_directories,
    snapshot_directory,
)
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.verist.baselines import baseline_path
from intentus_tui.core.verist.snapshot import load_snapshot, snapshot_from_record
from intentus_tui.core.verist.snapshot import save_snapshot as write_snapshot
from tests.core.verist.support import BASELINE, BASELINE_ROOT
from tests.intentusnet_world import RealWorld


@pytest.fixture
def project(tmp_path: Path, real_world: RealWorld) -> Path:
    """A project directory holding a copy of the real 1.3.0 records in ``.intentusnet``."""
    base = tmp_path / "project"
    shutil.copytree(real_world.records_dir, base / ".intentusnet" / "records")
    return base


def record_path(project: Path, execution_id: str) -> Path:
    return project / ".intentusnet" / "records" / f"{execution_id}.json"


def set_mtime(path: Path, seconds: float) -> None:
    os.utime(path, (seconds, seconds))


def test_finds_saved_snapshots_baselines_and_records_labelled(
    project: Path, real_world: RealWorld
) -> None:
    root = resolve_root(project)
    # ``s`` in the debugger: the product's own save, into the snapshot directory.
    saved = save_snapshot(
        load_detail(record_path(project, real_world.success)), snapshot_directory(root)
    )
    assert saved.parent == project / ".intentusnet" / "snapshots"
    # A baseline where Verist's CLI keeps them, written by the product's save with metadata.
    fallback = json.loads(record_path(project, real_world.fallback).read_text("utf-8"))
    snapshot = snapshot_from_record(fallback)
    pinned = write_snapshot(
        snapshot, baseline_path(project, snapshot, "inputs/refund.json"), metadata={"label": "pin"}
    )
    # Verist's own baseline (hashed by Node) in the same tree, and a record copied beside.
    verist = project / BASELINE.relative_to(BASELINE_ROOT)
    verist.parent.mkdir(parents=True)
    shutil.copy(BASELINE, verist)
    copied = shutil.copy(record_path(project, real_world.fallback), project / "incident.json")
    (project / "package.json").write_text('{"name": "x"}', "utf-8")  # not a candidate

    targets = find_compare_files(root)
    by_path = {t.path: t for t in targets}
    assert set(by_path) == {saved, pinned, verist, Path(copied)}
    assert [t.kind for t in targets] == ["snapshot", "baseline", "baseline", "record"]

    snap = by_path[saved]
    assert snap.title == "Summarize@1.0 · route"
    assert snap.execution_id == real_world.success  # from the snapshot, not its file name
    assert snap.when.endswith("Z") and snap.when[:4].isdigit()
    baseline = by_path[pinned]
    assert (baseline.kind, baseline.note, baseline.execution_id) == (
        "baseline",
        "pin",
        real_world.fallback,
    )
    assert pinned.parts[-6:-1] == (".verist", "baselines", "Summarize", "1.0", "route")
    real = by_path[verist]
    assert (real.title, real.note, real.execution_id) == (
        "verify-doc@1.0.0 · extract",
        "golden",
        "",
    )
    record = by_path[Path(copied)]
    assert (record.kind, record.title, record.execution_id) == (
        "record",
        "Summarize",
        real_world.fallback,
    )
    # Every one of them can be compared: each file reads as what it was listed as.
    for target in targets:
        kind = "record" if target.kind == "record" else "snapshot"
        assert file_operand(target.path.name, target.path, prefer="snapshot").kind == kind


def test_the_records_directory_is_never_listed(project: Path, real_world: RealWorld) -> None:
    root = resolve_root(project)
    # A snapshot left among the records is the index's business (it lists it as not a
    # record), never a candidate read a second time here.
    snapshot = load_snapshot(
        save_snapshot(load_detail(record_path(project, real_world.success)), project / "elsewhere")
    )
    write_snapshot(snapshot, root.records_dir / "stray.json")
    assert find_compare_files(root) == []
    # Opened as a plain records directory: still not read.
    plain = resolve_root(root.records_dir)
    assert plain.requested == root.records_dir
    assert all(t.path.parent != root.records_dir for t in find_compare_files(plain))


def test_newest_first_and_bounded_per_place(tmp_path: Path, real_world: RealWorld) -> None:
    project = tmp_path / "p"
    (project / ".intentusnet" / "records").mkdir(parents=True)
    root = resolve_root(project)
    detail = load_detail(real_world.records_dir / f"{real_world.success}.json")
    first = save_snapshot(detail, snapshot_directory(root))
    snapshot = load_snapshot(first)
    paths = [first]
    for n in range(1, 6):
        paths.append(write_snapshot(snapshot, snapshot_directory(root) / f"copy-{n}.json"))
    for n, path in enumerate(paths):
        set_mtime(path, 1_700_000_000 + n)
    found = find_compare_files(root, per_place=3)
    assert [t.path for t in found] == paths[::-1][:3]


@pytest.mark.parametrize(
    "content",
    [b"", b"[1, 2", b"\xff\xfe", b"[]", b'{"stepName": 1}', b'{"format": "verist-baseline@1"}'],
)
def test_files_that_are_nothing_comparable_are_left_out(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    assert describe_file(path) is None


def test_a_record_cut_short_is_not_offered_but_accepted_when_named(
    real_world: RealWorld,
) -> None:
    # 1.3.0 leaves its error records cut short: not valid JSON, so not labelled and not
    # offered; named (a typed path), what was recovered of it is compared as a record.
    path = real_world.records_dir / f"{real_world.error_truncated}.json"
    assert describe_file(path) is None
    operand = file_operand(path.name, path, prefer="snapshot")
    assert operand.kind == "record" and operand.note
    # as its verdict tells it: cut by its writer, not damaged afterwards
    assert operand.note.startswith("cut short by its writer, compared what was recovered: ")


def test_project_directories(tmp_path: Path) -> None:
    (tmp_path / ".intentusnet" / "records").mkdir(parents=True)
    assert project_directories(resolve_root(tmp_path)) == [tmp_path.absolute()]
    inner = resolve_root(tmp_path / ".intentusnet" / "records")
    assert project_directories(inner) == [inner.requested, tmp_path.absolute()]


def test_symlinks_are_not_followed_out_of_the_tree(tmp_path: Path, real_world: RealWorld) -> None:
    project = tmp_path / "p"
    (project / ".intentusnet" / "records").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(real_world.records_dir / f"{real_world.success}.json", outside / "r.json")
    (project / "linked.json").symlink_to(outside / "r.json")
    leaf = outside / "1.0" / "route"
    leaf.mkdir(parents=True)
    snapshot = snapshot_from_record(json.loads((outside / "r.json").read_text("utf-8")))
    write_snapshot(snapshot, leaf / "b.json", metadata={})
    baselines = project / ".verist" / "baselines"
    baselines.mkdir(parents=True)
    (baselines / "wf").symlink_to(outside)  # a workflow directory leading outside
    (outside / "1.0" / "route" / "c.json").symlink_to(outside / "r.json")
    assert find_compare_files(resolve_root(project)) == []
    # The same tree, really inside, is found.
    shutil.copytree(outside, baselines / "real", symlinks=True)
    found = find_compare_files(resolve_root(project))
    assert [t.path for t in found] == [baselines / "real" / "1.0" / "route" / "b.json"]


@pytest.mark.parametrize("opened", [".", ".intentusnet/records"])
def test_discovery_never_lists_the_records_directory(
    project: Path, opened: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At 100,000 records, listing them here would cost as much as the index itself (the
    # index lists them already): discovery looks only at the other places.
    root = resolve_root(project / opened)
    records = os.path.realpath(root.records_dir)
    listed: list[str] = []
    real_scandir = os.scandir

    def watched(path: Any = ".") -> Any:
        listed.append(os.path.realpath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", watched)
    real_listdir = os.listdir

    def watched_names(path: Any = ".") -> Any:
        listed.append(os.path.realpath(path))
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", watched_names)
    found = find_compare_files(root, snapshots=project / "no-snapshots-here")
    assert listed, "discovery looked nowhere: the watch is not on its path"
    assert records not in listed
    assert all(t.kind != "record" or t.path.parent != root.records_dir for t in found)
    listed.clear()
    find_runs([("", root)])  # Active Graph stores are looked for in the same places
    if opened == ".":
        assert listed and records not in listed
        return
    # Opened itself, the records directory is where a user keeps a run store: its names
    # are listed for one, once until a name comes or goes.
    assert records in listed
    listed.clear()
    find_runs([("", root)])
    assert records not in listed
    (Path(records) / "runs.db").write_bytes(b"")
    find_runs([("", root)])
    assert records in listed


def test_every_root_is_searched_and_each_file_names_its_root(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """Several roots open: each one's saved snapshots are found, named by the root they
    were found under; a file two roots share (one project directory) is listed once."""
    from intentus_tui.core.compare.targets import find_compare_files_in_roots

    roots = []
    saved = {}
    for label in ("alpha", "beta"):
        base = tmp_path / label
        shutil.copytree(real_world.records_dir, base / ".intentusnet" / "records")
        root = resolve_root(base)
        saved[label] = save_snapshot(
            load_detail(record_path(base, real_world.success)), snapshot_directory(root)
        )
        roots.append((label, root))
    found = find_compare_files_in_roots(roots)
    assert {(t.root, t.path) for t in found} == {(k, v) for k, v in saved.items()}
    # The same root opened twice (its records and its project directory): listed once.
    twice = find_compare_files_in_roots([roots[0], ("again", roots[0][1])])
    assert [(t.root, t.path) for t in twice] == [("alpha", saved["alpha"])]
    # One root, unlabelled: as before.
    assert [t.root for t in find_compare_files(roots[1][1])] == [""]


def test_the_runs_of_an_active_graph_store_beside_the_records(
    project: Path, tmp_path: Path
) -> None:
    """What ``D`` offers as runs: each run of a store the real ``activegraph`` wrote, with
    its label (or goal), its fork numbered as a comparison numbers its events; a SQLite file
    that is no run store, a text file named ``.db`` and a store in the records directory
    are not offered."""
    import sqlite3

    from tests.activegraph_world import notes_world

    (tmp_path / "ag").mkdir()
    world = notes_world(tmp_path / "ag")
    shutil.copy(world.path, project / "notes.db")
    shutil.copy(world.path, project / ".intentusnet" / "records" / "in-records.db")
    other = sqlite3.connect(project / "other.sqlite")
    other.execute("CREATE TABLE t (x)")
    other.commit()
    other.close()
    (project / "notes.txt.db").write_text("not a database", "utf-8")

    # The records directory opened itself: its store is offered (it was not).
    in_records = find_runs([("", resolve_root(project / ".intentusnet" / "records"))])
    assert {(t.path.name, t.run_id) for t in in_records} == {
        (name, run)
        for name in ("in-records.db", "notes.db")
        for run in (world.parent, world.child, world.grandchild, world.sibling)
    }
    runs = find_runs([("", resolve_root(project))])
    assert [(t.kind, t.path, t.run_id) for t in runs] == [
        ("run", project / "notes.db", run)
        for run in (world.parent, world.child, world.grandchild, world.sibling)
    ]
    by_id = {t.run_id: t for t in runs}
    assert (by_id[world.parent].title, by_id[world.parent].note) == ("Take notes", "")
    child = by_id[world.child]
    assert (child.title, child.note) == ("child", f"fork of {world.parent} at #7")
    assert by_id[world.grandchild].note == "fork of child at #11"  # its parent's label
    assert child.when.endswith("Z") and child.when[:4].isdigit()
    labelled = find_runs([("beta", resolve_root(project))])
    assert {t.root for t in labelled} == {"beta"}
