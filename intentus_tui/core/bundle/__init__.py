"""Evidence bundles: the records, write-ahead logs and snapshots of chosen executions in one
``.tar.gz`` with a manifest (each file's sha256 and size, the tool's version, when it was
made, and each execution's verdict at that time), read back safely and checked offline.

- ``layout``: which paths a bundle may hold (``manifest.json``, ``records/``, ``wal/``,
  ``snapshots/``) and why any other is refused;
- ``manifest``: the manifest's model, its JSON and its strict reading;
- ``write``: collect an execution's files and write a bundle (deterministic, atomic);
- ``read``: extract a bundle into a private directory, refusing anything hostile, and
  compare what it holds with its manifest.
"""

from __future__ import annotations

from intentus_tui.core.bundle.layout import BUNDLE_SUFFIXES, is_bundle_name
from intentus_tui.core.bundle.manifest import BundledExecution, FileEntry, Manifest
from intentus_tui.core.bundle.read import (
    BundleError,
    BundleLimits,
    ExtractedBundle,
    FileProblem,
    extract_bundle,
)
from intentus_tui.core.bundle.write import bundle_executions

__all__ = [
    "BUNDLE_SUFFIXES",
    "BundleError",
    "BundleLimits",
    "BundledExecution",
    "ExtractedBundle",
    "FileEntry",
    "FileProblem",
    "Manifest",
    "bundle_executions",
    "extract_bundle",
    "is_bundle_name",
]
