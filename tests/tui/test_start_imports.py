"""What the debugger's start imports: only what its first frame needs.

The first rows are drawn before Textual is imported, and every module on that path is
time a user waits for. The bundle writer, the comparison screen and the remote mirror
(SSH, object storage, tar) together cost ~60 ms: they are imported when first used.

Creating a frozen dataclass costs 0.5-0.8 ms here (its methods are compiled from source
at import), a ``NamedTuple`` 0.13 ms: the small value types on the path to the first rows
are NamedTuples, which took 7 ms off that path.
"""

from __future__ import annotations

import subprocess
import sys

LATER = (
    "intentus_tui.core.bundle.write",  # `intentus-tui PATH` only asks if PATH is a bundle
    "intentus_tui.tui.screens.compare",  # opened by d, D or a picker
    "intentus_tui.core.remote.mirror",  # a remote root only
    "tarfile",
)


def _loaded_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_the_start_path_to_the_app_leaves_the_rarely_used_parts_unimported() -> None:
    loaded = _loaded_after(
        "from intentus_tui.cli.open import opens_as_bundle\n"
        "opens_as_bundle('records')\n"
        "import intentus_tui.tui.startup.first_rows, intentus_tui.tui.startup.start_frame\n"
        "import intentus_tui.tui.app\n"
    )
    assert "intentus_tui.tui.app" in loaded  # the probe ran
    assert sorted(loaded & set(LATER)) == []


# Not needed to draw the start frame, and ~20 ms before it: the scan itself, its cache
# (sqlite3) and Textual come after it.
AFTER_THE_START_FRAME = (
    "intentus_tui.core.index.scan",
    "intentus_tui.core.index.cache",
    "sqlite3",
    "textual",
)


def test_the_start_frame_s_path_leaves_the_scan_and_textual_unimported() -> None:
    loaded = _loaded_after(
        "from intentus_tui.cli import main\n"
        "import intentus_tui.cli.open, intentus_tui.tui.startup.tuning\n"
        "import intentus_tui.tui.startup.first_rows, intentus_tui.tui.startup.start_frame\n"
    )
    assert "intentus_tui.tui.startup.start_frame" in loaded  # the probe ran
    assert sorted(loaded & set(AFTER_THE_START_FRAME)) == []


def test_opening_a_comparison_still_finds_its_screen() -> None:
    loaded = _loaded_after(
        "from intentus_tui.tui.comparing import comparison_bindings\n"
        "assert 'compare.next' in [b.id for b in comparison_bindings()]\n"
    )
    assert "intentus_tui.tui.screens.compare" in loaded


# The dataclasses the path to the first rows creates today: the summary model, the record
# model, the cache's snapshot and the list's presenters.
START_PATH_DATACLASSES = 16


def test_the_path_to_the_first_rows_creates_no_more_dataclasses_than_today() -> None:
    probe = (
        "import dataclasses\n"
        "made = []\n"
        "real = dataclasses._process_class\n"
        "def counting(cls, *args, **kwargs):\n"
        "    made.append(cls.__module__ + '.' + cls.__qualname__)\n"
        "    return real(cls, *args, **kwargs)\n"
        "dataclasses._process_class = counting\n"
        "from intentus_tui.cli.open import opens_as_bundle\n"
        "opens_as_bundle('records')\n"
        "import intentus_tui.cli, intentus_tui.tui.startup.first_rows\n"
        "import intentus_tui.tui.startup.start_frame\n"
        "print(' '.join(m for m in made if m.startswith('intentus_tui.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    made = out.stdout.split()
    assert "intentus_tui.core.model.ExecutionSummary" in made  # the probe counted
    assert len(made) <= START_PATH_DATACLASSES, (
        f"{len(made)} dataclasses on the start path (a new small value type there should be "
        f"a NamedTuple, or imported when first used): {made}"
    )
