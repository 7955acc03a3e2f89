"""Paths in messages and documents are shown normalised (``..`` folded) without changing
what is read: ``bad/../real`` is shown as ``real``; where a symlink comes before the
``..`` (so that folding would name another place) the resolved form is shown; a path
that does not exist as typed, though its folded form does, is shown as typed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.support import cli
from tests.factories import make_record, write_record


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """``place/bad`` (a directory), ``place/real/.intentusnet/records`` (one record) and
    ``place/hop``, a link to ``place/elsewhere/inner`` (so ``hop/..`` is ``elsewhere``)."""
    (tmp_path / "bad").mkdir()
    write_record(tmp_path / "real" / ".intentusnet" / "records", make_record(execution_id="exec-1"))
    (tmp_path / "elsewhere" / "inner").mkdir(parents=True)
    write_record(tmp_path / "elsewhere" / "records", make_record(execution_id="exec-2"))
    (tmp_path / "hop").symlink_to(tmp_path / "elsewhere" / "inner")
    return tmp_path


def test_tidy_path_folds_only_where_it_is_the_same_place(place: Path) -> None:
    from intentus_tui.core.paths import resolve_root, tidy_path

    assert tidy_path(place / "bad" / ".." / "real") == place / "real"
    assert tidy_path(Path("bad/../real")) == Path("real")  # relative stays relative
    # hop/.. is the link target's parent: folding would name place itself
    assert tidy_path(place / "hop" / ".." / "records") == place / "elsewhere" / "records"
    # missing/.. cannot be walked: as typed, not a path that exists
    assert tidy_path(place / "missing" / ".." / "real") == place / "missing" / ".." / "real"
    assert tidy_path(place / "bad" / ".." / "nope") == place / "nope"
    assert resolve_root(place / "bad" / ".." / "real").records_dir == (
        place / "real" / ".intentusnet" / "records"
    )


def test_messages_and_documents_show_paths_normalised(place: Path, tmp_path: Path) -> None:
    typed = f"{place}/bad/../real"
    records = place / "real" / ".intentusnet" / "records"
    unknown = cli("inspect", "nosuch", "--dir", typed)
    assert unknown.returncode == 2
    assert (
        unknown.stderr == f"intentus-tui: no execution 'nosuch' (whole id or prefix) in {records}\n"
    )
    listing = json.loads(cli("inspect", "--list", typed, "--json").stdout)
    assert listing["directory"] == str(records)
    for command in (("inspect",), ("verify",), ("replay",)):
        missing = cli(*command, f"{typed}/.intentusnet/records/nosuch.json")
        assert missing.returncode == 2
        assert f"{records / 'nosuch.json'}\n" in missing.stderr and ".." not in missing.stderr
    doc = json.loads(cli("inspect", f"{typed}/.intentusnet/records/exec-1.json", "--json").stdout)
    assert doc["file"] == str(records / "exec-1.json")
    assert cli("inspect", "--list", f"{place}/bad/../nowhere").stderr == (
        f"intentus-tui: no such directory: {place / 'nowhere'}\n"
    )
    out = cli("snapshot", "exec-1", "--dir", typed, "-o", f"{place}/bad/../pin.snapshot.json")
    assert out.returncode == 0 and out.stdout == f"{place / 'pin.snapshot.json'}\n"
    # What is read is the same place: a symlink before the ``..`` is resolved, not folded.
    hop = cli("inspect", "nosuch", "--dir", f"{place}/hop/../records")
    assert f"in {place / 'elsewhere' / 'records'}\n" in hop.stderr
    assert json.loads(cli("inspect", "exec-2", "--dir", f"{place}/hop/../records", "--json").stdout)
    # A path that cannot be walked as typed is shown as typed.
    walked = cli("inspect", "--list", f"{place}/missing/../real")
    assert walked.returncode == 2 and f"{place}/missing/../real" in walked.stderr
    assert os.path.isdir(place / "real")


def test_a_file_name_the_root_does_not_hold_is_the_current_directory_s(tmp_path: Path) -> None:
    """``snapshot ID --dir D -o X.snapshot.json`` then ``diff --dir D ID X.snapshot.json``
    in the same directory: the file name was looked up in the root only, "no such file:
    D/.intentusnet/records/X.snapshot.json". The root's file of that name still wins."""
    from tests.cli.support import cli
    from tests.factories import make_record, write_record

    records = tmp_path / "d" / ".intentusnet" / "records"
    write_record(records, make_record(execution_id="exec-a"))
    here = tmp_path / "work"
    here.mkdir()
    root = str(records.parent.parent)
    saved = cli("snapshot", "exec-a", "--dir", root, "-o", "a.snapshot.json", cwd=here)
    assert saved.returncode == 0, saved.stderr
    compared = cli("diff", "--dir", root, "exec-a", "a.snapshot.json", cwd=here)
    assert compared.returncode == 0, compared.stderr
    assert "same output: yes" in compared.stdout
    # A file of that name in the root is the one read, as the list's FILE column names it.
    (here / "exec-a.json").write_text("not this one")
    shown = cli("inspect", "--dir", root, "exec-a.json", "--json", cwd=here)
    assert shown.returncode == 0 and str(records / "exec-a.json") in shown.stdout
