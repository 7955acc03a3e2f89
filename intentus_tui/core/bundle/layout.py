"""The paths a bundle may hold, and why any other path is refused.

A bundle is laid out as an ``.intentusnet`` directory, so that once extracted it opens
like one: ``records/<id>.json``, ``wal/<id>.wal``, ``snapshots/<name>.json``, plus
``manifest.json`` and ``manifest.sha256`` at the top. Every file name is a single plain
component: no directory above, no hidden name, no control character.
"""

from __future__ import annotations

from intentus_tui.core.sanitize import sanitize_line

MANIFEST_NAME = "manifest.json"
# ``sha256sum`` format: "<hex>  manifest.json"; a changed manifest is then caught too.
MANIFEST_DIGEST_NAME = "manifest.sha256"
RECORDS = "records"
WALS = "wal"
SNAPSHOTS = "snapshots"
# section directory -> the suffix its files must have
SECTIONS: dict[str, str] = {RECORDS: ".json", WALS: ".wal", SNAPSHOTS: ".json"}
BUNDLE_SUFFIXES = (".tar.gz", ".tgz")
MAX_NAME_BYTES = 255


def is_bundle_name(name: str) -> bool:
    """Whether a file name says it is a bundle (``.tar.gz`` or ``.tgz``)."""
    return name.lower().endswith(BUNDLE_SUFFIXES)


def member_problem(name: str) -> str | None:
    """Why ``name`` cannot be a file of a bundle, or None when it can."""
    if not name:
        return "an empty path"
    if "\x00" in name:
        return "a NUL byte in the path"
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "an absolute path"
    parts = name.split("/")
    if ".." in parts:
        return "a '..' path (it would leave the bundle's directory)"
    if "\\" in name:
        return "a backslash in the path"
    if name in (MANIFEST_NAME, MANIFEST_DIGEST_NAME):
        return None
    if len(parts) != 2 or parts[0] not in SECTIONS:
        return "not a bundle path (records/*.json, wal/*.wal, snapshots/*.json)"
    file_name = parts[1]
    if not file_name or file_name in (".", "..") or file_name.startswith("."):
        return "a hidden or empty file name"
    if not file_name.endswith(SECTIONS[parts[0]]) or file_name == SECTIONS[parts[0]]:
        return f"a file in {parts[0]}/ that does not end with {SECTIONS[parts[0]]}"
    if sanitize_line(file_name) != file_name:
        return "control or invisible characters in the file name"
    if len(file_name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        return "a file name longer than 255 bytes"
    return None


TOP = "."  # the bundle's own top directory, as a member's path


def bundle_path(name: str) -> str:
    """A member's path as the bundle names it: without the ``./`` that ``tar -C DIR .``
    writes before each (``./records/x.json`` is ``records/x.json``); ``.`` and ``./``, the
    top directory, are ``TOP``. Nothing else changes: what follows the prefix is checked
    as any path is (``./../x`` is ``../x``, refused)."""
    while name.startswith("./"):
        name = name[2:]
    return TOP if name in ("", TOP) else name


def is_directory_entry(name: str) -> bool:
    """The directory entries another ``tar`` would add: the sections, the top one
    (harmless)."""
    return name == TOP or name.rstrip("/") in SECTIONS
