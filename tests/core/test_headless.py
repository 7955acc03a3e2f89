"""The core must never import a UI library: the CLI and other tools depend on it alone."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import intentus_tui.core


def test_every_core_module_imports_without_textual_or_rich() -> None:
    modules = [
        m.name for m in pkgutil.walk_packages(intentus_tui.core.__path__, "intentus_tui.core.")
    ]
    assert "intentus_tui.core.records.load" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'click'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core imported UI modules: {out.stdout}"
