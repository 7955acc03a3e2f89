"""A file of a bundle named as ``verify`` and ``inspect`` name it, ``FILE.tar.gz:PATH``, is
that file of the bundle wherever a record or snapshot file is taken (``diff``, ``inspect``,
``replay``, ``snapshot``, ``verify``). It was "no such file": a bundled snapshot could be
compared only from the debugger."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.cli.support import cli
from tests.core.bundle.support import BundleWorld


def _verified_names(bundle: Path) -> tuple[list[str], str]:
    """The names ``verify --json`` gives the bundle's records and logs, and its snapshot's."""
    run = cli("verify", "--json", str(bundle))
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    (snapshot,) = [s for e in doc["bundles"][0]["executions"] for s in e["snapshots"]]
    return [entry["file"] for entry in doc["files"]], f"{bundle}:{snapshot}"


def test_the_names_verify_prints_are_typed_back(
    bundle: Path, world: BundleWorld, private_tmp: Path
) -> None:
    files, snapshot = _verified_names(bundle)
    record = f"{bundle}:records/{world.success}.json"
    other = f"{bundle}:records/{world.fallback}.json"
    assert record in files and other in files
    assert snapshot == f"{bundle}:snapshots/{Path(snapshot).name}"

    # The snapshot saved of the success, compared with it as it is in the bundle.
    compared = cli("diff", world.success[:8], snapshot, "--dir", str(bundle))
    assert compared.returncode == 0, compared.stderr
    assert compared.stdout.splitlines()[1].startswith(f"B: {snapshot} (snapshot ")
    assert compared.stdout.splitlines()[-1] == "equal"
    # Two records of the bundle, by the names verify gives them, no --dir needed.
    two = cli("diff", record, other)
    assert two.returncode == 1, two.stderr
    assert f"A: {record} (record {world.success})" in two.stdout.splitlines()
    assert "different:" in two.stdout.splitlines()[-1]

    inspected = cli("inspect", record, "--json")
    assert inspected.returncode == 0, inspected.stderr
    doc = json.loads(inspected.stdout)
    assert doc["file"] == record
    assert doc["verdict"]["integrity"] == "verified"
    replayed = cli("replay", other, "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["payload"]["by"] == "fb-secondary"
    pinned = cli("snapshot", record, "-o", "-")
    assert pinned.returncode == 0, pinned.stderr
    assert json.loads(pinned.stdout)["input"]

    checked = cli("verify", record, snapshot)
    assert checked.returncode == 0, checked.stderr
    lines = checked.stdout.splitlines()
    assert f"ok    {world.success}.json  hash match" in lines
    assert f"ok    {Path(snapshot).name}  snapshot: input and 2 artifacts hash as recorded" in lines
    # Beside another root, ``FILE.tar.gz:ID`` is still the bundle's execution by its label,
    # the bundle in the current directory: not a path inside it.
    for name in (world.success, f"{world.success}.json"):
        labelled = cli(
            "inspect",
            f"{bundle.name}:{name}",
            "--dir",
            str(world.base),
            "--dir",
            bundle.name,
            cwd=bundle.parent,
        )
        assert labelled.returncode == 0, labelled.stderr
        assert f"file        {bundle.name}:records/{world.success}.json" in labelled.stdout
    assert os.listdir(private_tmp) == []  # each command's private copy is gone


def test_a_name_that_is_not_a_file_of_the_bundle_is_one_line(
    bundle: Path, world: BundleWorld, private_tmp: Path
) -> None:
    refusals = {
        f"{bundle}:records/nope.json": (
            f"no such file in bundle {bundle}: records/nope.json "
            f"(`intentus-tui verify --json {bundle}` names each of its files)"
        ),
        f"{bundle}:../incident/records/{world.success}.json": (
            f"refused: {bundle}:../incident/records/{world.success}.json: a '..' path "
            "(it would leave the bundle's directory)"
        ),
        f"{bundle}:/etc/passwd": f"refused: {bundle}:/etc/passwd: an absolute path",
        f"{bundle}:./manifest.json": (
            f"refused: {bundle}:./manifest.json: the bundle's manifest, not a record, log or snapshot"
        ),
    }
    for name, line in refusals.items():
        for args in (["diff", world.success[:8], name, "--dir", str(bundle)], ["inspect", name]):
            run = cli(*args)
            assert run.returncode == 2, (args, run.stderr)
            assert run.stderr == f"intentus-tui: {line}\n", args
            assert run.stdout == ""
    # A log without its record, where a record is needed: said as a log typed is.
    log = f"{bundle}:wal/{world.wal_only}.wal"
    run = cli("diff", world.success[:8], log, "--dir", str(bundle))
    assert run.returncode == 2
    assert run.stderr.startswith(f"intentus-tui: {log} is a write-ahead log, not a record")
    assert len(run.stderr.splitlines()) == 1
    assert os.listdir(private_tmp) == []
