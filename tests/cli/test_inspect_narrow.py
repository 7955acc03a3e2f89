"""``inspect --list`` on an 80-column terminal: the table fits, the verdict keeps every
word, the ids shown still name their executions, and a last line says what was left out.
Piped, the same listing is whole. Records written by the real IntentusNet 1.3.0."""

from __future__ import annotations

import re
from pathlib import Path

from rich.cells import cell_len

from tests.cli.support import cli, run_in_pty
from tests.intentusnet_world import build_real_world

VERDICT = ("OUTCOME", "INTEGRITY", "REPLAY")


def table(text: str) -> tuple[list[str], list[list[str]], list[str]]:
    """(header, rows, the lines after the table) of a text listing."""
    lines = [line for line in text.replace("\r\n", "\n").splitlines() if line]
    end = next((i for i, line in enumerate(lines) if line.startswith("(")), len(lines))
    rows = [re.split(" {2,}", line) for line in lines[1:end]]
    return lines[0].split(), rows, lines[end:]


def test_an_80_column_terminal_gets_a_table_that_fits_with_the_whole_verdict(
    tmp_path: Path,
) -> None:
    world = build_real_world(tmp_path)
    root = str(world.records_dir.parent)
    narrow = run_in_pty("inspect", "--list", root, cwd=tmp_path, columns=80).decode()
    piped = cli("inspect", "--list", root, cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr

    lines = narrow.replace("\r\n", "\n").splitlines()
    assert all(cell_len(line) <= 80 for line in lines), lines
    header, rows, after = table(narrow)
    assert header == ["EXECUTION", "INTENT", *VERDICT]
    note = " ".join(after)
    assert "fitted to 80 columns" in note and "CREATED, EVENTS, ATTEMPTS left out" in note

    whole_header, whole_rows, whole_after = table(piped.stdout)
    assert whole_header[:2] == ["EXECUTION", "CREATED"] and "EVENTS" in whole_header
    assert not whole_after  # nothing said: nothing left out
    assert len(rows) == len(whole_rows) == 4
    for row, whole in zip(rows, whole_rows, strict=True):
        shown, full = row[0], whole[0]
        assert full.startswith(shown) and len(shown) == 8  # a UUID's first 8, as the debugger
        # The verdict, word for word as piped: nothing of it is cut.
        assert row[2:] == [whole[whole_header.index(name)] for name in VERDICT]
        found = cli("inspect", shown, "--dir", root, "--json", cwd=tmp_path)
        assert found.returncode == 0 and f'"execution_id": "{full}"' in found.stdout


def test_a_wide_terminal_gets_the_table_as_a_pipe_does(tmp_path: Path) -> None:
    world = build_real_world(tmp_path)
    root = str(world.records_dir.parent)
    wide = run_in_pty("inspect", "--list", root, cwd=tmp_path, columns=400).decode()
    piped = cli("inspect", "--list", root, cwd=tmp_path).stdout
    assert wide.replace("\r\n", "\n") == piped


def test_several_roots_on_an_80_column_terminal_stand_under_their_root_names(
    tmp_path: Path,
) -> None:
    """The ROOT column made rows with a long verdict wrap: it goes last, and each root's
    rows then stand under a line naming it, in the order the listing gives them."""
    (tmp_path / "real").mkdir()
    world = build_real_world(tmp_path / "real")
    demo = tmp_path / "demo"
    assert cli("demo", str(demo), "--count", "20", cwd=tmp_path).returncode == 0
    # The real root named first, though its executions are the newer: its rows first.
    roots = (str(world.records_dir.parent), str(demo))
    narrow = run_in_pty("inspect", "--list", *roots, cwd=tmp_path, columns=80).decode()
    piped = cli("inspect", "--list", *roots, cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr

    lines = narrow.replace("\r\n", "\n").splitlines()
    assert all(cell_len(line) <= 80 for line in lines), lines
    assert lines[0] == "24 executions in 2 roots: real 4, demo 20"  # a person's first line
    assert lines[1].split() == ["EXECUTION", "OUTCOME", "INTEGRITY", "REPLAY"]
    note = " ".join(lines[lines.index(next(x for x in lines if x.startswith("("))) :])
    assert "rows grouped by ROOT" in note and "ROOT" not in note.split("left out")[0]

    # Piped: the table alone, header first (the counts went to stderr).
    assert piped.stderr == "intentus-tui: 24 executions in 2 roots: real 4, demo 20\n"
    whole = [re.split(" {2,}", line) for line in piped.stdout.splitlines()]
    header, whole_rows = whole[0], whole[1:]
    by_root: dict[str, list[list[str]]] = {}
    for row in whole_rows:
        by_root.setdefault(row[0], []).append(row)
    sections: dict[str, list[list[str]]] = {}
    counts: dict[str, int] = {}
    section = None
    for line in lines[2:]:
        if line.startswith("("):
            break
        if line.startswith("── ROOT "):
            named = re.fullmatch(r"── ROOT (\S+) \((\d+)\)", line)
            assert named is not None, line
            section = sections.setdefault(named[1], [])
            counts[named[1]] = int(named[2])
            continue
        assert section is not None, f"a row before any root's name: {line!r}"
        section.append(re.split(" {2,}", line))
    assert list(sections) == ["real", "demo"] and set(by_root) == {"demo", "real"}
    for label, rows in sections.items():
        assert len(rows) == len(by_root[label]) == counts[label]
        for row, full in zip(rows, by_root[label], strict=True):
            assert full[header.index("EXECUTION")].startswith(row[0])
            assert row[1:] == [full[header.index(name)] for name in VERDICT]
