"""Loading a user keymap file."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding

from intentus_tui.tui.keymap import checked_keymap, key_problem, keymap_path, load_keymap


def test_keymap_from_a_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_text('replay = "ctrl+r"\n"timeline.next-fallback" = "]"\nbad = 3\n')
    keymap, problem = load_keymap(path)
    assert keymap == {"replay": "ctrl+r", "timeline.next-fallback": "]"}
    assert problem is not None and "1 entry without" in problem


def test_a_keymap_table_and_problems_are_reported_not_raised(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_text('[keymap]\nquit = "ctrl+q"\n')
    assert load_keymap(path) == ({"quit": "ctrl+q"}, None)
    path.write_text("this is = not toml [")
    keymap, problem = load_keymap(path)
    assert keymap == {} and problem is not None and "ignored" in problem
    assert load_keymap(tmp_path / "missing.toml") == ({}, None)


def test_keymap_path_can_be_overridden(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("INTENTUS_TUI_KEYMAP", str(tmp_path / "k.toml"))
    assert keymap_path() == tmp_path / "k.toml"


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("ctrl+r", None),
        ("F", None),
        ("question_mark", None),
        ("shift+f5", None),
        ("pagedown", None),
        ("ctrl+shift+nonsense!!", "'ctrl+shift+nonsense!!': no key is called 'nonsense!!'"),
        ("cmd+r", "'cmd+r': 'cmd' is not a modifier (ctrl, shift, alt, meta)"),
        ("ctrl+", "'ctrl+': no key after its modifiers"),
    ],
)
def test_a_key_no_terminal_sends_is_named(key: str, problem: str | None) -> None:
    assert key_problem(key) == problem


def test_a_keymap_is_checked_against_the_bindings_it_names() -> None:
    """Unknown ids, keys no terminal sends and keys two bindings then share are said; a
    binding whose keys were all bad keeps its own (it was left with none)."""
    sections = [
        (
            "Everywhere",
            [
                Binding("q", "quit", "Quit", id="quit"),
                Binding("r", "replay", "Replay", id="replay"),
            ],
        ),
        ("Execution list", [Binding("j,down", "down", "Down", id="list.down")]),
        ("Comparison", [Binding("j", "next", "Next", id="compare.next")]),
    ]
    keymap = {
        "quit": "j",
        "nosuchid": "x",
        "replay": "ctrl+shift+nonsense!!",
        "list.down": "n,down",
    }
    kept, problems = checked_keymap(keymap, sections)
    assert kept == {"quit": "j", "list.down": "n,down"}
    assert problems.split("; ") == [
        "no binding has the id 'nosuchid' (? lists them)",
        "'ctrl+shift+nonsense!!': no key is called 'nonsense!!' (replay)",
    ]  # "j" is no longer the list's (it is n): no clash there
    kept, problems = checked_keymap({"quit": "j"}, sections)
    assert problems == "'j' is both 'Down' and 'Quit'"  # the comparison's own screen: apart
    assert checked_keymap({"replay": "ctrl+r"}, sections) == ({"replay": "ctrl+r"}, "")


def test_no_key_the_debugger_binds_is_said_to_name_no_key(tmp_path: Path) -> None:
    """The check must not drop a real key: every key of every binding the help lists (and
    names a keymap may use: space, full_stop) passes it."""
    from intentus_tui.core.paths import resolve_root
    from intentus_tui.tui.app import IntentusApp

    (tmp_path / "records").mkdir()
    app = IntentusApp(resolve_root(tmp_path / "records"), watch=False, use_cache=False)
    keys = {
        key.strip()
        for _, group in app.help_sections()
        for binding in group
        if isinstance(binding, Binding)
        for key in binding.key.split(",")
    }
    assert len(keys) > 40
    named = ["space", "shift+tab", "ctrl+space", "full_stop", "exclamation_mark", "ctrl+shift+up"]
    assert {key: key_problem(key) for key in [*sorted(keys), *named]} == dict.fromkeys(
        [*sorted(keys), *named]
    )


def test_the_count_of_entries_ignored_agrees_with_its_number(tmp_path: Path) -> None:
    # "1 entries without a key string ignored"
    path = tmp_path / "keymap.toml"
    path.write_text('[keymap]\nquit = ""\n')
    assert load_keymap(path)[1] == f"keymap {path}: 1 entry without a key string ignored"
    path.write_text('[keymap]\nquit = ""\nhelp = 3\n')
    assert load_keymap(path)[1] == f"keymap {path}: 2 entries without a key string ignored"
