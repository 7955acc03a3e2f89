"""Several roots on the command line: one merged listing with a root column and counts
per root, executions known by (root, id), and a root that fails named while the others
load. Records written by the real intentusnet 1.3.0."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.records.hashing import runtime_envelope_hash
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.roots_world import WAL_ONLY_ID, Host, copy_host


@pytest.fixture
def hosts(real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Host]:
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    return [copy_host(real_world, tmp_path / name) for name in ("alpha", "beta")]


def test_listing_merges_roots_with_a_root_column_and_counts(hosts: list[Host]) -> None:
    alpha, beta = hosts
    result = cli("inspect", "--list", str(alpha.base), str(beta.base))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    per_root = len(alpha.ids) + 1  # the records and the WAL-only execution
    # Piped, the table alone (its header first, as one root's); the counts go to stderr.
    assert result.stderr == (
        f"intentus-tui: {2 * per_root} executions in 2 roots: alpha {per_root}, beta {per_root}\n"
    )
    assert lines[0].split()[:2] == ["ROOT", "EXECUTION"]
    rows = [line.split() for line in lines[1:]]
    for host, label in ((alpha, "alpha"), (beta, "beta")):
        listed = {row[1] for row in rows if row[0] == label}
        assert listed == {*host.ids, WAL_ONLY_ID}


def test_json_listing_names_each_rows_root(hosts: list[Host]) -> None:
    alpha, beta = hosts
    result = cli("inspect", "--list", "--json", str(alpha.base), str(beta.base))
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [(r["label"], r["executions"], r["problem"]) for r in doc["roots"]] == [
        ("alpha", len(alpha.ids) + 1, None),
        ("beta", len(beta.ids) + 1, None),
    ]
    assert doc["counts"]["executions"] == len(doc["executions"]) == 2 * (len(alpha.ids) + 1)
    assert {row["root"] for row in doc["executions"]} == {"alpha", "beta"}
    # Each row is its root's own listing row, with the root named first: its file is the
    # file's name within that root (the root is not repeated in it).
    for host, label in ((alpha, "alpha"), (beta, "beta")):
        alone = cli("inspect", "--list", "--json", "--no-cache", str(host.base))
        own = json.loads(alone.stdout)["executions"]
        rows = [row for row in doc["executions"] if row["root"] == label]
        assert {row["file"] for row in rows} == {
            *(f"{execution_id}.json" for execution_id in host.ids),
            f"{WAL_ONLY_ID}.wal",
        }
        assert sorted(({k: v for k, v in row.items() if k != "root"} for row in rows), key=str) == (
            sorted(own, key=str)
        )
        assert all(next(iter(row)) == "root" for row in rows)


def test_a_missing_root_is_named_on_stderr_and_the_others_list(
    hosts: list[Host], tmp_path: Path
) -> None:
    alpha, _ = hosts
    missing = tmp_path / "gone"
    result = cli("inspect", "--list", str(alpha.base), str(missing))
    # The list is not whole: exit 1, as verify and export say it (it exited 0).
    assert result.returncode == ExitCode.PROBLEMS
    assert result.stderr.splitlines() == [
        f"intentus-tui: root gone: failed: no such directory: {missing}",
        f"intentus-tui: {len(alpha.ids) + 1} executions in 2 roots: alpha {len(alpha.ids) + 1}, "
        "gone failed",
    ]
    assert result.stdout.splitlines()[0].split()[:2] == ["ROOT", "EXECUTION"]


def test_a_root_that_is_a_looping_link_is_named_as_one(hosts: list[Host], tmp_path: Path) -> None:
    # It was "no such directory", where the same link named alone is "cannot follow".
    alpha, _ = hosts
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    result = cli("inspect", "--list", str(alpha.base), str(loop))
    assert result.returncode == ExitCode.PROBLEMS
    assert result.stderr.splitlines()[0] == (
        f"intentus-tui: root loop: failed: cannot follow {loop}: "
        "the link loops (it leads back to itself)"
    )


def test_only_failing_roots_exit_2_with_one_line_each(tmp_path: Path) -> None:
    result = cli("inspect", "--list", str(tmp_path / "a"), str(tmp_path / "b"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 2
    assert "Traceback" not in result.stderr


def test_an_id_in_two_roots_must_name_its_root(hosts: list[Host]) -> None:
    alpha, beta = hosts
    some = alpha.ids[0]
    dirs = ["--dir", str(alpha.base), "--dir", str(beta.base)]
    ambiguous = cli("inspect", *dirs, some)
    assert ambiguous.returncode == 2
    assert f"alpha:{some}" in ambiguous.stderr and f"beta:{some}" in ambiguous.stderr
    chosen = cli("inspect", *dirs, "--json", f"beta:{some[:8]}")
    assert chosen.returncode == 0, chosen.stderr
    assert json.loads(chosen.stdout)["file"] == str(beta.records / f"{some}.json")
    # A label no root has is said as such (it was only "no execution ... in any root").
    typo = cli("inspect", *dirs, f"gamma:{some[:8]}")
    assert typo.returncode == 2
    assert typo.stderr == (
        f"intentus-tui: no execution 'gamma:{some[:8]}' in any root (alpha, beta), "
        "and no root is labelled 'gamma'\n"
    )


def test_an_id_in_one_root_only_needs_no_label(hosts: list[Host]) -> None:
    alpha, beta = hosts
    (beta.records / f"{alpha.ids[0]}.json").unlink()
    result = cli("inspect", "--dir", str(alpha.base), "--dir", str(beta.base), alpha.ids[0])
    assert result.returncode == 0, result.stderr
    assert f"file        {alpha.records / alpha.ids[0]}.json" in result.stdout


def test_diff_compares_executions_of_two_roots(hosts: list[Host], real_world: RealWorld) -> None:
    alpha, beta = hosts
    some = real_world.success
    record = json.loads((beta.records / f"{some}.json").read_text())
    record["envelope"]["metadata"]["createdAt"] = "2030-01-01T00:00:00Z"
    # Recorded so, not edited afterwards: equal from a tampered side would be no clean exit.
    record["header"]["envelopeHash"] = runtime_envelope_hash(record["envelope"])
    (beta.records / f"{some}.json").write_text(json.dumps(record, indent=2))
    dirs = ["--dir", str(alpha.base), "--dir", str(beta.base)]
    # Only a timestamp differs (and so the envelope's hash): hidden by the default ignore
    # rules, and counted.
    quiet = cli("diff", *dirs, "--json", f"alpha:{some}", f"beta:{some}")
    assert quiet.returncode == 0, quiet.stderr
    assert json.loads(quiet.stdout)["hidden"] == 2
    result = cli("diff", *dirs, "--json", "--all", f"alpha:{some}", f"beta:{some}")
    assert result.returncode == 1, result.stderr  # they differ
    doc = json.loads(result.stdout)
    changed = {e["path_text"]: e["after"] for e in doc["entries"]}
    assert changed["envelope.metadata.createdAt"] == "2030-01-01T00:00:00Z"


def test_a_file_of_one_root_is_named_root_colon_file_as_the_debugger_names_it(
    hosts: list[Host], real_world: RealWorld
) -> None:
    """The comparison's title names a copy ``beta:copy.json``: the command line looked for
    ``beta:copy.json`` in the first root's records ("no such file")."""
    alpha, beta = hosts
    some = real_world.success
    shutil.copy(beta.records / f"{some}.json", beta.records / "copy.json")
    dirs = ["--dir", str(alpha.base), "--dir", str(beta.base)]
    same = cli("diff", *dirs, f"alpha:{some}", "beta:copy.json")
    assert same.returncode == 0, same.stderr  # the same record, copied
    shown = cli("inspect", *dirs, "--json", "beta:copy.json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["file"] == str(beta.records / "copy.json")
    missing = cli("inspect", *dirs, "alpha:copy.json")
    assert missing.returncode == ExitCode.USAGE
    assert missing.stderr == (
        f"intentus-tui: no such file in root alpha: {alpha.records / 'copy.json'}\n"
    )


def test_verify_several_roots_and_a_failing_one(hosts: list[Host], tmp_path: Path) -> None:
    alpha, beta = hosts
    result = cli("verify", "--json", str(alpha.base), str(beta.base), "ssh://")
    doc = json.loads(result.stdout)
    assert doc["records"] == 2 * len(alpha.ids)
    assert doc["wals"] == 2
    assert result.stderr.strip().startswith("intentus-tui: root ssh: failed: no host in")


def test_verify_text_names_each_files_root_and_counts_each_root(hosts: list[Host]) -> None:
    # Two roots sharing ids printed the same line twice, with no root to tell them apart.
    alpha, beta = hosts
    result = cli("verify", str(alpha.base), str(beta.base))
    heads = [line.split()[1] for line in result.stdout.splitlines() if not line.startswith(" ")]
    files = heads[:-1]  # the last line counts
    assert len(files) == len(set(files)) == 2 * (len(alpha.ids) + 1)  # records and a WAL each
    for label in ("alpha", "beta"):
        # ``alpha:X.json``: as the debugger names an execution of one of several roots
        assert sum(name.startswith(f"{label}:") for name in files) == len(alpha.ids) + 1
    last = result.stdout.splitlines()[-1]
    per_root = len(alpha.ids) + 1
    assert f"; alpha: {per_root} checked, " in last and f"; beta: {per_root} checked, " in last
    one = cli("verify", str(alpha.base)).stdout.splitlines()
    assert "alpha:" not in "\n".join(one)  # one root: as before


def test_verify_a_missing_root_fails_and_the_others_are_verified(
    hosts: list[Host], tmp_path: Path
) -> None:
    # It exited 2 at the missing one, verifying nothing.
    alpha, _ = hosts
    missing = tmp_path / "nowhere"
    result = cli("verify", str(alpha.base), str(missing))
    assert result.returncode == 1, result
    assert result.stderr == f"intentus-tui: no such file or directory: {missing}\n"
    last = result.stdout.splitlines()[-1]
    assert (
        last.startswith(f"{len(alpha.ids) + 1} checked")
        and "1 named path could not be read (failed)" in last
    )
    doc = json.loads(cli("verify", "--json", str(alpha.base), str(missing)).stdout)
    assert doc["ok"] is False and doc["records"] == len(alpha.ids)
    # The failure it counts is named in the document (it was on stderr alone: "failed"
    # counted one more than the files that failed).
    assert doc["failed"] == sum(not f["ok"] for f in doc["files"])
    assert doc["not_read"] == 1
    assert doc["unopened"] == [
        {"root": str(missing), "problem": f"no such file or directory: {missing}"}
    ]


def test_verify_a_missing_path_beside_a_record_file_fails_and_the_file_is_verified(
    hosts: list[Host], real_world: RealWorld, tmp_path: Path
) -> None:
    """``verify nosuch good.json``: it exited 2 at the missing one, good.json never
    verified; the missing one is one line and one failure, named as missing whatever it
    was to be (it said ``no such directory`` of a file's name)."""
    alpha, _ = hosts
    record = alpha.records / f"{real_world.success}.json"
    missing = tmp_path / "nosuch"
    for args in ((str(missing), str(record)), (str(record), str(missing))):
        result = cli("verify", *args)
        assert result.returncode == 1, result
        assert result.stderr == f"intentus-tui: no such file or directory: {missing}\n"
        lines = result.stdout.splitlines()
        assert lines[0] == f"ok    {record.name}  hash match"
        # The record passed: the missing path is the failure, said apart (it was "1 failed").
        assert lines[-1] == (
            "1 checked (1 record, 0 WALs), 0 failed; 1 named path could not be read (failed)"
        )
        doc = json.loads(cli("verify", "--json", *args).stdout)
        assert doc["ok"] is False and doc["records"] == 1 and doc["files"][0]["ok"] is True
        assert (doc["failed"], doc["not_read"]) == (0, 1)  # as the last line counts them
        assert doc["unopened"] == [
            {"root": str(missing), "problem": f"no such file or directory: {missing}"}
        ]
    # Missing paths alone are still a usage error: nothing named could be verified.
    alone = cli("verify", str(missing), str(tmp_path / "other"))
    assert alone.returncode == 2 and alone.stdout == ""


def test_a_root_named_twice_is_one_root(hosts: list[Host]) -> None:
    """The same directory named twice (as a project and as its records directory): each
    execution was listed twice, and verify credited every file to the second name."""
    alpha, beta = hosts
    per_root = len(alpha.ids) + 1
    result = cli("inspect", "--list", str(alpha.base), str(alpha.records), str(beta.base))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        f"intentus-tui: {2 * per_root} executions in 2 roots: alpha {per_root}, beta {per_root}"
    )
    alone = cli("inspect", "--list", str(alpha.base), str(alpha.records))
    assert alone.stderr == f"intentus-tui: {per_root} executions in 1 root: alpha {per_root}\n"
    verify = cli("verify", str(alpha.base), f"{alpha.base}/", str(beta.base))
    last = verify.stdout.splitlines()[-1]
    one = cli("verify", str(alpha.base)).stdout.splitlines()[-1]
    checked = int(one.split()[0])
    assert last.startswith(f"{2 * checked} checked"), last
    assert f"alpha: {checked} checked" in last and f"beta: {checked} checked" in last, last
    assert "#2" not in verify.stdout


def test_a_snapshot_by_several_roots_goes_to_the_current_directory(
    hosts: list[Host], tmp_path: Path
) -> None:
    """With several roots, the current directory was taken for the default root's records
    ("refusing to write … into the current directory, a record directory"), wherever the
    command ran; it is refused only inside one of the roots named."""
    alpha, beta = hosts
    some = alpha.ids[0]
    dirs = ["--dir", str(alpha.base), "--dir", str(beta.base)]
    work = tmp_path / "work"
    work.mkdir()
    made = cli("snapshot", *dirs, f"beta:{some}", cwd=work)
    assert made.returncode == 0, made.stderr
    assert (work / f"{some}.snapshot.json").is_file()
    refused = cli("snapshot", *dirs, f"beta:{some}", cwd=alpha.records)
    assert refused.returncode == 2
    assert "into the current directory, a record directory" in refused.stderr
    assert not (alpha.records / f"{some}.snapshot.json").exists()
