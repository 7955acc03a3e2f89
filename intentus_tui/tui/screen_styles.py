"""The full screens' stylesheets, read while the app is idle rather than on the key that
first opens them.

Textual reads a screen's ``CSS_PATH`` when the screen is first pushed, then re-parses the
whole stylesheet and restyles every widget of the app: a tenth of a second or more, added
to the first ``d`` (the comparison) or ``D`` (its picker) of a session. Read here, once the
first rows and the side pane are out, they cost only their own parse (2 ms), while
nobody waits for a key.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen


def stylesheet_paths(screen_type: type[Screen[Any]]) -> list[Path]:
    """The files of ``screen_type.CSS_PATH``, resolved as Textual resolves them (beside the
    module defining the screen), so that Textual finds them read."""
    css_path = screen_type.CSS_PATH
    if css_path is None:
        return []
    paths = list(css_path) if isinstance(css_path, list) else [css_path]
    here = Path(inspect.getfile(screen_type)).parent
    return [Path(path) if Path(path).is_absolute() else (here / path).resolve() for path in paths]


def read_screen_styles(app: App[Any]) -> None:
    """Read the comparison's and the compare picker's stylesheets into ``app``'s (each
    once)."""
    from intentus_tui.tui.screens.compare import ComparisonScreen
    from intentus_tui.tui.screens.compare_picker import ComparePicker

    stylesheet = app.stylesheet
    added = False
    for screen_type in (ComparisonScreen, ComparePicker):
        for path in stylesheet_paths(screen_type):
            if not stylesheet.has_source(str(path), ""):
                stylesheet.read(path)
                added = True
    if added:
        # Only the new files are parsed (the rest comes from the stylesheet's cache), and
        # nothing is restyled: every rule in them is scoped to its screen (a test holds
        # them to it), so no widget alive now matches one. Textual's own first push would
        # re-parse everything and restyle the whole app.
        stylesheet.parse()
