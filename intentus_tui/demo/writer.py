"""Writing the demo world: ``root/.intentusnet/{records,wal}`` plus a manifest of which
execution shows which scenario (``demo-manifest.json``).

The same seed gives the same bytes. An ``.intentusnet`` holding anything but an earlier demo
world is refused; an earlier demo world (including files a killed live run left) is replaced.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from intentus_tui.core.fsio import atomic_write, temp_target
from intentus_tui.demo.scenarios import SCENARIOS, plan_world
from intentus_tui.demo.simulator import Execution, Form

MANIFEST_NAME = "demo-manifest.json"


class DemoError(Exception):
    """The demo world cannot be written where asked."""


@dataclass(frozen=True)
class DemoManifest:
    """Which execution ids realise which scenario, and in which form each was written."""

    root: Path  # the .intentusnet directory
    seed: int
    scenarios: Mapping[str, tuple[str, ...]]
    forms: Mapping[str, Form]
    files: tuple[str, ...] = ()  # every file written, relative to ``root``

    @property
    def records_dir(self) -> Path:
        return self.root / "records"

    @property
    def wal_dir(self) -> Path:
        return self.root / "wal"

    @property
    def execution_ids(self) -> tuple[str, ...]:
        return tuple(self.forms)

    def ids(self, scenario: str) -> tuple[str, ...]:
        return self.scenarios.get(scenario, ())

    def first(self, scenario: str) -> str:
        ids = self.ids(scenario)
        if not ids:
            raise KeyError(scenario)
        return ids[0]

    def record_path(self, execution_id: str) -> Path:
        return self.records_dir / f"{execution_id}.json"

    def wal_path(self, execution_id: str) -> Path:
        return self.wal_dir / f"{execution_id}.wal"

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "scenarios": {k: list(v) for k, v in self.scenarios.items()},
            "descriptions": SCENARIOS,
            "forms": dict(self.forms),
            "files": list(self.files),
        }


def build_demo_world(
    root: str | os.PathLike[str], *, count: int = 40, seed: int = 7
) -> DemoManifest:
    """Write ``root/.intentusnet/{records,wal}`` with ``max(count, MIN_COUNT)`` executions.

    Refuses (``DemoError``) to write into an ``.intentusnet`` that holds anything but an
    earlier demo world, or inside any ``.intentusnet``; an earlier demo world is replaced.
    """
    place = Path(root).absolute()
    inside = next((p for p in (place, *place.parents) if p.name == ".intentusnet"), None)
    if inside is not None:  # it wrote .intentusnet/.intentusnet, records/.intentusnet
        where = "a record store" if inside == place else f"inside {inside}"
        raise DemoError(f"{root} is {where}; choose a directory outside it")
    base = Path(root) / ".intentusnet"
    _prepare(base)
    return _write(base, seed, plan_world(seed, count))


def _prepare(base: Path) -> None:
    records, wal = base / "records", base / "wal"
    manifest = base / MANIFEST_NAME
    previous: list[str] = []
    if manifest.is_file():
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            previous = list(json.loads(manifest.read_text(encoding="utf-8")).get("files", []))
    for directory in (records, wal):
        if not directory.is_dir():
            continue
        foreign = [
            p.name for p in directory.iterdir() if not _is_demo_file(directory, p.name, previous)
        ]
        if foreign:
            raise DemoError(
                f"{directory} already holds files that are not from a demo world "
                f"(e.g. {foreign[0]!r}); choose an empty directory"
            )
    for directory in (records, wal):
        if directory.is_dir():
            for path in directory.iterdir():
                with contextlib.suppress(OSError):
                    path.unlink()  # all demo files: checked above
    records.mkdir(parents=True, exist_ok=True)
    wal.mkdir(parents=True, exist_ok=True)


def _is_demo_file(directory: Path, name: str, previous: list[str]) -> bool:
    """Listed in the earlier manifest, or the temp file of one (a live run killed mid-write)."""
    name = temp_target(name) or name
    return f"{directory.name}/{name}" in previous


def _write(base: Path, seed: int, executions: list[Execution]) -> DemoManifest:
    scenarios: dict[str, list[str]] = {name: [] for name in SCENARIOS}
    forms: dict[str, Form] = {}
    files: list[str] = []
    for execution in executions:
        execution.render()
        stamp = execution.created.timestamp()
        if execution.record_bytes is not None:
            path = base / "records" / f"{execution.execution_id}.json"
            path.write_bytes(execution.record_bytes)
            os.utime(path, (stamp, stamp))
            files.append(f"records/{path.name}")
        if execution.wal_bytes is not None:
            path = base / "wal" / f"{execution.execution_id}.wal"
            path.write_bytes(execution.wal_bytes)
            os.utime(path, (stamp, stamp))
            files.append(f"wal/{path.name}")
        forms[execution.execution_id] = execution.form
        for scenario in execution.scenarios:
            scenarios[scenario].append(execution.execution_id)
        if execution.form in ("runtime", "documented"):
            scenarios[f"{execution.form}_form"].append(execution.execution_id)
    manifest = DemoManifest(
        root=base,
        seed=seed,
        scenarios={k: tuple(v) for k, v in scenarios.items()},
        forms=forms,
        files=tuple(files),
    )
    save_manifest(manifest)
    return manifest


def save_manifest(manifest: DemoManifest) -> None:
    data = (json.dumps(manifest.to_json(), indent=2) + "\n").encode("utf-8")
    atomic_write(manifest.root / MANIFEST_NAME, data, durable=False)


def load_manifest(base: str | os.PathLike[str]) -> DemoManifest | None:
    """Read ``<.intentusnet>/demo-manifest.json`` back (None if absent or unreadable)."""
    directory = Path(base)
    try:
        data = json.loads((directory / MANIFEST_NAME).read_text(encoding="utf-8"))
        return DemoManifest(
            root=directory,
            seed=int(data["seed"]),
            scenarios={str(k): tuple(str(i) for i in v) for k, v in data["scenarios"].items()},
            forms={str(k): v for k, v in data["forms"].items()},
            files=tuple(str(f) for f in data.get("files", [])),
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
