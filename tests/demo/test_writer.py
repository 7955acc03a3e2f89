"""Writing the demo world: every promised scenario is in the files, deterministically;
foreign files are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.core.fsio import temp_name_for
from intentus_tui.demo.scenarios import MIN_COUNT, SCENARIOS
from intentus_tui.demo.writer import DemoError, DemoManifest, build_demo_world, load_manifest
from tests.cli.support import cli

# ---------------------------------------------------------------------------------------
# The tree as a whole


def test_every_scenario_is_realised_and_every_id_has_its_files(world: DemoManifest) -> None:
    for scenario in SCENARIOS:
        assert world.ids(scenario), f"{scenario} missing"
    assert len(world.execution_ids) == 40
    for execution_id, form in world.forms.items():
        has_record = world.record_path(execution_id).is_file()
        has_wal = world.wal_path(execution_id).is_file()
        assert has_record == (form != "wal_only"), execution_id
        assert has_wal == (form != "runtime"), execution_id  # 1.3.0's router writes no WAL
    on_disk = {p.stem for p in world.records_dir.iterdir()} | {
        p.stem for p in world.wal_dir.iterdir()
    }
    assert on_disk == set(world.execution_ids)
    assert load_manifest(world.root) == world


def test_same_seed_same_bytes_other_seed_other_world(tmp_path: Path) -> None:
    a = build_demo_world(tmp_path / "a", count=25, seed=3)
    b = build_demo_world(tmp_path / "b", count=25, seed=3)
    c = build_demo_world(tmp_path / "c", count=25, seed=4)
    assert a.files == b.files
    for relative in a.files:
        assert (a.root / relative).read_bytes() == (b.root / relative).read_bytes(), relative
    assert set(c.execution_ids).isdisjoint(a.execution_ids)
    # the large payload too: the same text for the same seed (drawn once), another for another
    (large_a,), (large_b,), (large_c,) = (w.ids("large_payload") for w in (a, b, c))
    texts = [w.record_path(i).read_bytes() for w, i in ((a, large_a), (b, large_b), (c, large_c))]
    assert texts[0] == texts[1] and _document(texts[0]) != _document(texts[2])


def _document(record: bytes) -> str:
    """The large payload's text, whatever its execution's ids."""
    import json

    return json.loads(record)["envelope"]["payload"]["document"]


def test_count_below_the_scenario_minimum_still_has_every_scenario(tmp_path: Path) -> None:
    manifest = build_demo_world(tmp_path, count=1)
    assert len(manifest.execution_ids) == MIN_COUNT
    assert all(manifest.ids(s) for s in SCENARIOS)


def test_refuses_foreign_files_and_replaces_an_earlier_demo(tmp_path: Path) -> None:
    first = build_demo_world(tmp_path, count=30, seed=1)
    second = build_demo_world(tmp_path, count=20, seed=2)  # replaces the first completely
    names = {p.stem for p in second.records_dir.iterdir()} | {
        p.stem for p in second.wal_dir.iterdir()
    }
    assert names == set(second.execution_ids)
    assert set(first.execution_ids).isdisjoint(names)

    (second.records_dir / "real-record.json").write_text("{}")
    with pytest.raises(DemoError, match=r"real-record\.json"):
        build_demo_world(tmp_path)
    assert (second.records_dir / "real-record.json").exists()


# ---------------------------------------------------------------------------------------
# Command line


def test_cli_demo_writes_the_world(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from intentus_tui.cli import run

    assert run(["demo", str(tmp_path / "w"), "--count", "22", "--seed", "5"]) in (0, None)
    out = capsys.readouterr().out
    assert "truncated_error_record" in out and str(tmp_path / "w") in out
    manifest = load_manifest(tmp_path / "w" / ".intentusnet")
    assert manifest is not None and len(manifest.execution_ids) == 22


def test_cli_demo_refuses_a_directory_with_real_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from intentus_tui.cli import run

    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    (records / "mine.json").write_text("{}")
    assert run(["demo", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("intentus-tui: ") and "not from a demo world" in err  # as every command


def test_cli_demo_refuses_to_write_inside_a_record_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``demo PROJECT/.intentusnet`` wrote ``.intentusnet/.intentusnet``, and ``demo
    .../records`` a demo world among the real records: anywhere inside one is refused."""
    from intentus_tui.cli import run

    store = tmp_path / ".intentusnet"
    (store / "records").mkdir(parents=True)
    (store / "records" / "mine.json").write_text("{}")
    for inside in (store, store / "records"):
        assert run(["demo", str(inside)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("intentus-tui: ") and "choose a directory outside it" in err
        assert not (inside / ".intentusnet").exists()
    assert sorted(p.name for p in store.rglob("*")) == ["mine.json", "records"]


def test_cli_demo_refuses_an_empty_directory_argument(tmp_path: Path) -> None:
    # `demo "$DIR"` with DIR unset wrote a demo world into the current directory.
    run = cli("demo", "--count", "22", "", cwd=tmp_path)
    assert run.returncode == 2, run
    assert run.stderr == (
        "intentus-tui: an empty argument names no directory: give the one to write the demo "
        "world into\n"
    )
    assert not (tmp_path / ".intentusnet").exists()


def test_cli_demo_says_why_it_cannot_write_in_words(tmp_path: Path) -> None:
    # It was Python's "[Errno 20] Not a directory: '…/.intentusnet/records'".
    (tmp_path / "a-file").write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "a-file")
    run = cli("demo", "--count", "22", str(tmp_path / "link" / "sub"))
    assert run.returncode == 2, run
    assert "Errno" not in run.stderr and run.stderr.endswith(": not a directory\n"), run.stderr


def test_a_temp_file_left_by_a_killed_live_run_belongs_to_the_demo(tmp_path: Path) -> None:
    first = build_demo_world(tmp_path, count=20, seed=1)
    listed = first.execution_ids[0]
    leftover = first.records_dir / temp_name_for(f"{listed}.json")  # killed mid atomic_write
    leftover.write_text("{")
    build_demo_world(tmp_path, count=20, seed=2)
    assert not leftover.exists()
    foreign = first.records_dir / temp_name_for("someone-elses.json")
    foreign.write_text("{")
    with pytest.raises(DemoError, match="not from a demo world"):
        build_demo_world(tmp_path, count=20, seed=3)
    assert foreign.exists()


@pytest.mark.parametrize("name", ["demo", "-x"])
def test_the_command_it_prints_opens_the_world(tmp_path: Path, name: str) -> None:
    """``demo demo`` printed "Open it with:  intentus-tui demo", which runs the demo command
    again (missing its DIRECTORY); a name starting with "-" read as an option."""
    from tests.cli.support import cli

    run = cli("demo", "--count", "22", "--", name, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    shown = run.stdout.splitlines()[-1]
    assert shown == f"Open it with:  intentus-tui ./{name}"
    listed = cli("inspect", "--list", "--dir", f"./{name}", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
