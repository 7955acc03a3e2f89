"""Verist CLI baselines: verified against hashes Node computed, their structure rules and
file names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from intentus_tui.core.verist.baselines import baseline_filename, baseline_path, load_baseline
from intentus_tui.core.verist.recompute import load_output
from intentus_tui.core.verist.snapshot import Ok, SnapshotError, load_snapshot, save_snapshot
from intentus_tui.core.verist.verify import verify_snapshot
from tests.core.verist.support import BASELINE, BASELINE_ROOT

# --- Verist baseline files ----------------------------------------------------------------


def test_real_verist_baseline_verifies() -> None:
    baseline = load_baseline(BASELINE)
    assert baseline.problems == ()
    assert baseline.metadata["label"] == "golden"
    checks = baseline.verify()
    assert [(c.target, c.kind, c.status) for c in checks] == [
        ("input", "(input)", "ok"),
        ("artifacts[0]", "step-output", "ok"),
        ("artifacts[1]", "step-commands", "ok"),
        ("artifacts[2]", "llm-output", "ok"),
        ("artifacts[3]", "llm-input", "hash_only"),
    ]
    assert all(c.ok for c in checks[:4])
    assert isinstance(load_output(baseline.snapshot), Ok)
    # The file is named the way Verist's CLI names it.
    assert baseline_filename(baseline.metadata["inputPath"], baseline.snapshot.input_hash) == (
        BASELINE.name
    )
    assert baseline_path(BASELINE_ROOT, baseline.snapshot, baseline.metadata["inputPath"]) == (
        BASELINE
    )


def tampered_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = BASELINE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / BASELINE.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_tampered_baseline_reports_which_hash_fails(tmp_path: Path) -> None:
    checks = load_baseline(tampered_copy(tmp_path, '"John"', '"Jon"')).verify()
    status = {c.target: c.status for c in checks}
    assert status == {
        "input": "ok",
        "artifacts[0]": "mismatch",
        "artifacts[1]": "ok",
        "artifacts[2]": "ok",
        "artifacts[3]": "hash_only",
    }
    mismatch = checks[1]
    assert mismatch.actual is not None and mismatch.actual != mismatch.expected
    assert mismatch.message == f"expected {mismatch.expected}, got {mismatch.actual}"
    input_checks = load_baseline(tampered_copy(tmp_path, '"doc-123",', '"doc-124",')).verify()
    assert input_checks[0].status == "mismatch"


def test_reformatting_a_baseline_keeps_its_hashes(tmp_path: Path) -> None:
    # Re-serialising changes number tokens (2.0 -> 2, 1E21 -> 1e+21) but not the values.
    doc = json.loads(BASELINE.read_text(encoding="utf-8"))
    path = tmp_path / "reformatted.json"
    path.write_text(json.dumps(doc, indent=4, sort_keys=True), encoding="utf-8")
    assert [c.status for c in load_baseline(path).verify()][:4] == ["ok"] * 4


def test_load_snapshot_reads_baselines_and_bare_snapshots(tmp_path: Path) -> None:
    from_baseline = load_snapshot(BASELINE)
    assert from_baseline.step_name == "extract"
    bare = save_snapshot(from_baseline, tmp_path / "bare.json")
    again = load_snapshot(bare)
    assert again.to_json() == from_baseline.to_json()
    assert [c.status for c in verify_snapshot(again)][:4] == ["ok"] * 4


def test_baseline_structure_rules(tmp_path: Path) -> None:
    doc = json.loads(BASELINE.read_text(encoding="utf-8"))
    doc["snapshot"]["artifacts"].append(dict(doc["snapshot"]["artifacts"][0]))
    path = tmp_path / "two-outputs.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    tolerant = load_baseline(path)
    assert tolerant.problems == (
        f"Baseline file {path} must contain exactly one step-output artifact, got 2",
    )
    with pytest.raises(SnapshotError, match="exactly one step-output artifact, got 2"):
        load_baseline(path, strict=True)


def test_baseline_filename_normalizes_names() -> None:
    digest = "sha256:abcdef0123456789"
    assert baseline_filename("inputs/Crème Brûlée.JSON", digest) == "creme-brulee-abcdef01.json"
    assert baseline_filename("C:\\data\\--x--.json", digest) == "x-abcdef01.json"
    assert baseline_filename(".hidden", digest) == "hidden-abcdef01.json"
    assert baseline_filename("???.json", digest) == "input-abcdef01.json"
    assert baseline_filename("a" * 100 + ".json", digest) == "a" * 64 + "-abcdef01.json"
