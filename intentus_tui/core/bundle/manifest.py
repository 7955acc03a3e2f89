"""A bundle's manifest: what it holds (each file's sha256 and size), which tool made it and
when, and the verdict on each execution at that time.

``Manifest.parse`` reads one strictly: a manifest is what every other check trusts, so a
field of the wrong type, a path a bundle may not hold or a file named twice is refused
(``ManifestError``, one line) rather than half-read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from intentus_tui.core.bundle.layout import MANIFEST_DIGEST_NAME, MANIFEST_NAME, member_problem

FORMAT = "intentus-tui-bundle@1"
TOOL_NAME = "intentus-tui"
_SHA256 = re.compile(r"[0-9a-f]{64}")


class ManifestError(ValueError):
    """A manifest that cannot be trusted to describe the bundle; ``str()`` is one line."""


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file of the bundle: its path inside it, its sha256 (hex) and its size."""

    path: str
    sha256: str
    size: int

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "size": self.size}


@dataclass(frozen=True, slots=True)
class BundledExecution:
    """One execution in the bundle: its files (paths inside the bundle) and its verdict
    (``Verdict.to_json``) when it was bundled, if it had one."""

    execution_id: str
    record: str | None
    wal: str | None
    snapshots: tuple[str, ...] = ()
    verdict: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "execution_id": self.execution_id,
            "record": self.record,
            "wal": self.wal,
            "snapshots": list(self.snapshots),
            "verdict": dict(self.verdict) if self.verdict is not None else None,
        }


@dataclass(frozen=True, slots=True)
class Manifest:
    tool_version: str
    created: str  # ISO 8601, UTC
    files: tuple[FileEntry, ...]
    executions: tuple[BundledExecution, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "tool": {"name": TOOL_NAME, "version": self.tool_version},
            "created": self.created,
            "executions": [e.to_json() for e in self.executions],
            "files": [f.to_json() for f in self.files],
        }

    def to_bytes(self) -> bytes:
        return (json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n").encode()

    @classmethod
    def parse(cls, data: bytes) -> Manifest:
        try:
            doc = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
        except UnicodeDecodeError:
            raise ManifestError(f"{MANIFEST_NAME} is not UTF-8 text") from None
        except RecursionError:
            raise ManifestError(f"{MANIFEST_NAME} is nested too deeply") from None
        except ValueError as exc:
            raise ManifestError(f"{MANIFEST_NAME} is not valid JSON ({exc})") from None
        return cls.from_json(doc)

    @classmethod
    def from_json(cls, doc: Any) -> Manifest:
        if not isinstance(doc, dict):
            raise ManifestError(f"{MANIFEST_NAME} is not a JSON object")
        if doc.get("format") != FORMAT:
            raise ManifestError(
                f"{MANIFEST_NAME} has format {doc.get('format')!r}, not {FORMAT!r}: "
                "not a bundle this tool wrote"
            )
        tool = doc.get("tool")
        if not isinstance(tool, dict) or not isinstance(tool.get("version"), str):
            raise ManifestError(f'{MANIFEST_NAME}: "tool" must be {{"name", "version"}}')
        created = doc.get("created")
        if not isinstance(created, str):
            raise ManifestError(f'{MANIFEST_NAME}: "created" must be a string')
        files = doc.get("files")
        if not isinstance(files, list):
            raise ManifestError(f'{MANIFEST_NAME}: "files" must be a list')
        entries = tuple(_file_entry(item, n) for n, item in enumerate(files, 1))
        seen: set[str] = set()
        for entry in entries:
            if entry.path in seen:
                raise ManifestError(f"{MANIFEST_NAME} names {entry.path} twice")
            seen.add(entry.path)
        executions = doc.get("executions", [])
        if not isinstance(executions, list):
            raise ManifestError(f'{MANIFEST_NAME}: "executions" must be a list')
        return cls(
            tool_version=tool["version"],
            created=created,
            files=entries,
            executions=tuple(_execution(item, n) for n, item in enumerate(executions, 1)),
        )


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _file_entry(item: Any, n: int) -> FileEntry:
    where = f'{MANIFEST_NAME}: "files" item {n}'
    if not isinstance(item, dict):
        raise ManifestError(f"{where} is not an object")
    path, digest, size = item.get("path"), item.get("sha256"), item.get("size")
    if not isinstance(path, str):
        raise ManifestError(f'{where} has no "path" string')
    problem = member_problem(path)
    if problem is not None or path in (MANIFEST_NAME, MANIFEST_DIGEST_NAME):
        raise ManifestError(f"{where} names {path!r}: {problem or 'the manifest itself'}")
    if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
        raise ManifestError(f'{where} ({path}) has no "sha256" of 64 lowercase hex digits')
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ManifestError(f'{where} ({path}) has no "size" (a whole number of bytes)')
    return FileEntry(path, digest, size)


def _optional_str(value: Any, where: str, key: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ManifestError(f'{where}: "{key}" must be a string or null')


def _execution(item: Any, n: int) -> BundledExecution:
    where = f'{MANIFEST_NAME}: "executions" item {n}'
    if not isinstance(item, dict) or not isinstance(item.get("execution_id"), str):
        raise ManifestError(f'{where} is not an object with an "execution_id" string')
    snapshots = item.get("snapshots", [])
    if not isinstance(snapshots, list) or not all(isinstance(s, str) for s in snapshots):
        raise ManifestError(f'{where}: "snapshots" must be a list of paths')
    verdict = item.get("verdict")
    if verdict is not None and not isinstance(verdict, dict):
        raise ManifestError(f'{where}: "verdict" must be an object or null')
    return BundledExecution(
        execution_id=item["execution_id"],
        record=_optional_str(item.get("record"), where, "record"),
        wal=_optional_str(item.get("wal"), where, "wal"),
        snapshots=tuple(snapshots),
        verdict=verdict,
    )
