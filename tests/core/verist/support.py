"""What the Verist tests share: the stored baseline Node hashed, and small snapshot builders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.snapshot import Snapshot, StepResult, create_snapshot_from_result

DATA = Path(__file__).parents[2] / "data"
BASELINE_ROOT = DATA / "verist_baselines"
# Written by hand with odd number tokens, integer-like and astral keys, a lone surrogate and a
# "__proto__" key; every hash in it was computed by Node's own JSON.stringify (Verist's form).
BASELINE = BASELINE_ROOT / ".verist/baselines/verify-doc/1.0.0/extract/doc-a-00c1ce3d.json"

SHA = "sha256:" + "0" * 64


def step_result(**overrides: Any) -> StepResult:
    fields: dict[str, Any] = {
        "workflow_id": "wf",
        "workflow_version": "1.0.0",
        "step_name": "process",
        "input": {"id": "doc-123"},
        "output": {"status": "done"},
        "events": [],
    }
    fields.update(overrides)
    return StepResult(**fields)


def make_snapshot(
    input: Any, output: Any, commands: Any = MISSING, *, capture: bool = True
) -> Snapshot:
    return create_snapshot_from_result(
        step_result(input=input, output=output, commands=commands), capture_commands=capture
    )
