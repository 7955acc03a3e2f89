"""Loading a user keymap file."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.tui.keymap import keymap_path, load_keymap


def test_keymap_from_a_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_text('replay = "ctrl+r"\n"timeline.next-fallback" = "]"\nbad = 3\n')
    keymap, problem = load_keymap(path)
    assert keymap == {"replay": "ctrl+r", "timeline.next-fallback": "]"}
    assert problem is not None and "1 entries" in problem


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
