"""``inspect ID`` and ``verify`` on an 80-column terminal: a long line (two sha256 digests
in one sentence, a verdict's reason) is folded at the terminal's width, its continuation
lines under its value, so the labels stand alone in their column and every word is still
there. Piped or redirected, each fact stays one line, as scripts grep it. Records written
by the real IntentusNet 1.3.0, one of them copied and changed (tampered)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from rich.cells import cell_len

from tests.cli.support import ROOT, cli, run_in_pty
from tests.intentusnet_world import build_real_world

# A fact's line: its label (or its list marker) and the spaces before its value.
VALUE_AT = re.compile(r" *(?:[-·] |verdict: |[^ ]+(?: [^ ]+)? {2,})")


def tampered_world(tmp_path: Path) -> Path:
    """The real world with a copy of a record whose envelope was changed, beside it and in
    its records directory; the directory ``verify`` is given."""
    world = build_real_world(tmp_path)
    record = json.loads((world.records_dir / f"{world.success}.json").read_text())
    record["envelope"]["metadata"]["traceId"] = "changed-after-recording"
    text = json.dumps(record)
    (tmp_path / "tampered.json").write_text(text)
    (world.records_dir / "tampered.json").write_text(text)
    return world.records_dir.parent


def lines_of(output: bytes) -> list[str]:
    return output.decode().replace("\r\n", "\n").splitlines()


def assert_folded(narrow: list[str], piped: list[str], width: int = 80) -> int:
    """Every line fits; each piped line is its first folded line's start, then continuation
    lines that start under its value; nothing is lost. How many lines were folded."""
    assert all(cell_len(line) <= width for line in narrow), [
        line for line in narrow if cell_len(line) > width
    ]
    at = 0
    folded = 0
    for whole in piped:
        first = narrow[at]
        at += 1
        assert whole.startswith(first), (whole, first)
        if first == whole:
            continue
        folded += 1
        column = VALUE_AT.match(whole)
        assert column is not None, whole
        indent = cell_len(column.group())
        shown = first
        while "".join(shown.split()) != "".join(whole.split()):
            part = narrow[at]
            at += 1
            # Under the value: never at column 0, under the labels, never deeper.
            assert part[:indent] == " " * indent and part[indent] != " ", (whole, part)
            shown += " " + part
        assert shown.split() == whole.split()  # every word, whole (none longer than 68)
    assert at == len(narrow)
    return folded


def test_inspect_of_a_tampered_record_folds_its_long_lines_under_their_values(
    tmp_path: Path,
) -> None:
    tampered_world(tmp_path)
    narrow = lines_of(run_in_pty("inspect", "tampered.json", cwd=tmp_path, columns=80))
    piped = cli("inspect", "tampered.json", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    whole = piped.stdout.splitlines()
    long = [line for line in whole if cell_len(line) > 80]
    assert [line.split()[0] for line in long] == [
        *("outcome", "integrity", "replayable", "hash", "problem", "note"),
        *("untrusted", "hint"),
    ]
    assert assert_folded(narrow, whole) == len(long)
    # The labels stand alone at the left: every line not a continuation starts one.
    labels = [line.split()[0] for line in narrow if not line.startswith(" " * 12)]
    assert labels[:6] == ["execution", "file", "status", "verdict", "outcome", "integrity"]
    assert "hash" in labels and "problem" in labels and "post-mortem" in labels
    digests = [w for w in piped.stdout.split() if re.fullmatch(r"[0-9a-f]{64}", w)]
    assert len(digests) == 4 and all(d in narrow_words(narrow) for d in digests)


def narrow_words(lines: list[str]) -> set[str]:
    return {word for line in lines for word in line.split()}


def test_verify_folds_its_explanations_under_their_text(tmp_path: Path) -> None:
    root = tampered_world(tmp_path)
    narrow = lines_of(run_in_pty("verify", str(root), cwd=tmp_path, columns=80))
    piped = cli("verify", str(root), cwd=tmp_path)
    assert piped.returncode == 1, piped.stderr
    whole = piped.stdout.splitlines()
    assert assert_folded(narrow, whole) >= 3
    envelope = next(i for i, line in enumerate(narrow) if "- Envelope modified" in line)
    assert narrow[envelope].startswith("      - Envelope modified")
    assert narrow[envelope + 1].startswith(" " * 8) and narrow[envelope + 1][8] != " "
    # The file lines and the last line stand at column 0, as piped.
    starts = [line.split()[:2] for line in narrow if not line.startswith(" ")]
    assert starts == [line.split()[:2] for line in whole if not line.startswith(" ")]


def test_piped_or_redirected_each_fact_stays_one_line(tmp_path: Path) -> None:
    """A program reading a pipe or a file gets one line a fact, whatever COLUMNS says; a
    terminal wider than every line gets the lines as a pipe does."""
    root = tampered_world(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    for args in (["inspect", "tampered.json"], ["verify", str(root)]):
        target = tmp_path / "out.txt"
        with target.open("w") as out:
            subprocess.run(
                [sys.executable, "-m", "intentus_tui.cli", *args],
                stdout=out,
                stderr=subprocess.DEVNULL,
                cwd=tmp_path,
                env=env,
                timeout=60,
            )
        piped = cli(*args, cwd=tmp_path, env=env).stdout
        assert target.read_text() == piped
        facts = [line for line in piped.splitlines() if "Envelope modified" in line]
        assert facts and all(line.count("hashes to") == 1 for line in facts)
        for line in facts:  # both digests on the fact's one line
            assert len(re.findall(r"\b[0-9a-f]{64}\b", line)) == 2, line
        assert max(cell_len(line) for line in piped.splitlines()) > 200
        wide = run_in_pty(*args, cwd=tmp_path, columns=1000).decode()
        assert wide.replace("\r\n", "\n") == piped


def test_diff_on_an_80_column_terminal_folds_its_lines_under_their_values(
    tmp_path: Path,
) -> None:
    """``diff``'s lines too: the untrusted side's warning, the verdict lines, a changed
    value's two sides; a continuation never starts at column 0, where the next fact's
    label or its mark (``+``, ``-``) stands."""
    tampered_world(tmp_path)
    world = tmp_path / ".intentusnet" / "records"
    original = next(p.name for p in world.glob("*.json") if p.name != "tampered.json")
    args = ("diff", "tampered.json", f".intentusnet/records/{original}", "--all")
    narrow = lines_of(run_in_pty(*args, cwd=tmp_path, columns=80))
    piped = cli(*args, cwd=tmp_path)
    whole = piped.stdout.splitlines()
    assert any(cell_len(line) > 80 for line in whole)  # the warning, a verdict line
    assert all(cell_len(line) <= 80 for line in narrow), narrow
    # every character, in order (a JSON event longer than a line is cut where it must)
    assert "".join("".join(narrow).split()) == "".join("".join(whole).split())
    continued = [line for line in narrow if not any(w.startswith(line) for w in whole)]
    assert continued and all(line.startswith(" ") for line in continued), continued
    warning = next(i for i, line in enumerate(narrow) if line.startswith("warning: "))
    assert narrow[warning + 1].startswith(" " * 9) and narrow[warning + 1][9] != " "


def test_a_forced_replay_folds_what_it_says_and_keeps_the_recorded_json_as_it_is(
    tmp_path: Path,
) -> None:
    """``replay --force`` of the tampered copy at 80 columns: its warnings fold under their
    text; the recorded payload and metadata are JSON to copy, printed as they are."""
    tampered_world(tmp_path)
    args = ("replay", "tampered.json", "--force")
    narrow = lines_of(run_in_pty(*args, cwd=tmp_path, columns=80))
    piped = cli(*args, cwd=tmp_path)
    whole = piped.stdout.splitlines()
    mismatch = next(line for line in whole if line.startswith("warning: envelope hash mismatch"))
    assert cell_len(mismatch) > 80  # one line, piped: both digests in it
    assert all(cell_len(line) <= 80 for line in narrow), narrow
    at = narrow.index("warning: envelope hash mismatch, possible tampering: stored")
    continued = narrow[at + 1 : at + 4]
    assert all(line.startswith(" " * 9) and line[9] != " " for line in continued), continued
    payload = whole.index("payload: {")
    assert narrow[-(len(whole) - payload) :] == whole[payload:]  # the JSON, line for line


def test_an_error_line_on_a_terminal_folds_under_the_message_and_piped_stays_one_line(
    tmp_path: Path,
) -> None:
    """A refused path with a long name and ``replay``'s refusal of a record the real
    IntentusNet 1.3.0 cut short: on a 60- or 40-column terminal the ``intentus-tui: ``
    line folds at its width, each continuation under the message's start, not at column 0
    under the program's name; piped, stderr is the one line it was."""
    world = build_real_world(tmp_path)
    name = "an-execution-record-directory-with-a-rather-long-name-0123456789abcdef.json"
    (tmp_path / name).mkdir()
    for args in (
        ("inspect", name),
        ("replay", "--dir", str(world.records_dir), world.error_truncated),
    ):
        piped = cli(*args, cwd=tmp_path)
        assert piped.returncode != 0 and piped.stdout == ""
        message = piped.stderr
        assert message.startswith("intentus-tui: ") and message.count("\n") == 1
        assert cell_len(message) > 100
        for columns in (60, 40):
            narrow = lines_of(run_in_pty(*args, cwd=tmp_path, columns=columns))
            assert all(cell_len(line) <= columns for line in narrow), narrow
            assert narrow[0].startswith("intentus-tui: ") and len(narrow) > 2
            for line in narrow[1:]:
                assert line.startswith(" " * 14) and line[14] != " ", narrow
            assert "".join("".join(narrow).split()) == "".join(message.split())
