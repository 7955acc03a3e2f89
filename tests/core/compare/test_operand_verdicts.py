"""A record's side of a comparison carries its execution's verdict, made as ``load_detail``
makes it (the record joined with its write-ahead log), never another; snapshots have none;
``untrusted_warning`` speaks for a side whose evidence fails its integrity check only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from intentus_tui.core import actions
from intentus_tui.core.compare import (
    UNTRUSTED_DIFFERENCES,
    file_operand,
    record_operand,
    untrusted_warning,
    untrusted_warnings,
)
from intentus_tui.core.model import Integrity
from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record
from tests.core.wal.support import write_record_with_edited_log
from tests.intentusnet_world import RealWorld


@pytest.fixture
def base(tmp_path: Path, real_world: RealWorld) -> Path:
    """The real records in ``.intentusnet/records``, a record whose log's chain breaks, and
    a tampered copy of the fallback record (its envelope payload edited after hashing)."""
    base = tmp_path / ".intentusnet"
    shutil.copytree(real_world.records_dir, base / "records")
    write_record_with_edited_log(base)
    record = json.loads((base / "records" / f"{real_world.fallback}.json").read_text("utf-8"))
    record["envelope"]["payload"]["text"] = "refund 1,000,000"
    (tmp_path / "tamp-01.json").write_text(json.dumps(record, indent=2), "utf-8")
    return base


def record_files(base: Path) -> list[Path]:
    return [*sorted((base / "records").glob("*.json")), base.parent / "tamp-01.json"]


def test_a_record_file_gets_the_verdict_load_detail_gives_it(base: Path) -> None:
    integrities = set()
    for path in record_files(base):
        for wal_dir in (base / "wal", None):
            operand = file_operand(path.name, path, wal_dir=wal_dir)
            detail = actions.load_detail(path, wal_dir)
            assert operand.verdict is not None, path
            assert operand.verdict == detail.verdict, path
            assert actions.detail_operand(detail).verdict == detail.verdict
            integrities.add(operand.verdict.integrity)
    # Clean, tampered, a broken log chain (only with its log), damaged (1.3.0's error file).
    assert {
        Integrity.VERIFIED,
        Integrity.TAMPERED,
        Integrity.CHAIN_BROKEN,
        Integrity.UNVERIFIABLE,
    } <= integrities


def test_describe_gives_the_verdict_as_inspect_does(base: Path) -> None:
    path = base.parent / "tamp-01.json"
    described = file_operand("B", path).describe()
    inspected = actions.load_detail(path)
    from intentus_tui.core.detail import detail_to_json

    assert described["verdict"] == detail_to_json(inspected)["verdict"]
    assert described["verdict"]["integrity"] == "tampered"


def test_snapshots_and_bare_records_have_no_verdict(base: Path, real_world: RealWorld) -> None:
    record = json.loads((base / "records" / f"{real_world.success}.json").read_text("utf-8"))
    snapshot_path = save_snapshot(snapshot_from_record(record), base / "snapshots" / "s.json")
    snapshot = file_operand("s", snapshot_path, prefer="snapshot", wal_dir=base / "wal")
    assert snapshot.kind == "snapshot" and snapshot.verdict is None
    assert "verdict" not in snapshot.describe()
    assert untrusted_warning("B", snapshot) is None
    bare = record_operand("r", record)
    assert bare.verdict is None and bare.describe()["verdict"] is None


def test_untrusted_warning_speaks_only_for_an_untrusted_side(base: Path) -> None:
    clean = [file_operand("A", p) for p in record_files(base)]
    clean = [operand for operand in clean if operand.verdict and operand.verdict.trusted]
    assert clean and all(untrusted_warning("A", operand) is None for operand in clean)
    tampered = file_operand("B", base.parent / "tamp-01.json")
    assert tampered.untrusted
    assert untrusted_warning("B", tampered) == (
        f"B is untrusted (integrity tampered): {UNTRUSTED_DIFFERENCES}"
    )
    with_reason = untrusted_warning("B", tampered, reason=True)
    assert with_reason is not None and with_reason.endswith("possible tampering)")


def test_two_untrusted_sides_are_warned_of_in_one_line(base: Path, real_world: RealWorld) -> None:
    # A terminal of 24 rows has none to spare: both sides' warning in one line of the same
    # words; each side's integrity when they differ; a trusted side adds nothing.
    tampered = file_operand("A", base.parent / "tamp-01.json")
    broken = next(
        operand
        for path in record_files(base)
        if (operand := file_operand("B", path, wal_dir=base / "wal")).verdict is not None
        and operand.verdict.integrity is Integrity.CHAIN_BROKEN
    )
    clean = file_operand("B", base / "records" / f"{real_world.success}.json")
    assert tampered.verdict is not None and broken.verdict is not None
    # Each with why, as ``intentus-tui diff`` says it: one reason when both give the same.
    why_tampered, why_broken = tampered.verdict.integrity_reason, broken.verdict.integrity_reason
    assert untrusted_warnings(tampered, tampered) == [
        "A and B are untrusted (integrity tampered): their differences come from evidence "
        f"that fails its integrity check ({why_tampered})"
    ]
    assert untrusted_warnings(tampered, broken) == [
        "A and B are untrusted (A integrity tampered, B chain broken): their differences "
        f"come from evidence that fails its integrity check (A: {why_tampered}; B: {why_broken})"
    ]
    assert untrusted_warnings(tampered, broken, one_line=False) == [
        untrusted_warning("A", tampered, reason=True),
        untrusted_warning("B", broken, reason=True),
    ]
    assert untrusted_warnings(tampered, clean) == [untrusted_warning("A", tampered, reason=True)]
    assert untrusted_warnings(clean, None) == []
