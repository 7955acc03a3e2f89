"""A file that holds no record, as ``verify``'s line says it: in words ("hash not checked
(not a readable record)"), not the loader's code ("hash not_json"), for every such file of
the hostile corpus; and in the words its own problem line, ``inspect`` and the list say it
with, not a second wording of the same fact."""

from __future__ import annotations

import json
import re
from pathlib import Path

from intentus_tui.core.model import LoadStatus
from tests.cli.support import cli
from tests.hostile.corpus import build_corpus


def test_a_garbage_file_is_said_in_words(tmp_path: Path) -> None:
    garbage = tmp_path / "x.json"
    garbage.write_text("not json {", "utf-8")
    done = cli("verify", str(garbage))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "FAIL  x.json  hash not checked (not a readable record)"
    assert lines[1].startswith("      - Not a readable record: invalid JSON at byte 0")


def test_no_line_of_the_hostile_corpus_gives_a_code(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path)
    done = cli("verify", str(corpus.intentusnet))
    codes = {status.value for status in LoadStatus if "_" in status.value}
    said = [
        line.rsplit("  hash ", 1)[1]
        for line in done.stdout.splitlines()
        if re.match(r"(ok  |FAIL)  ", line) and "  hash " in line
    ]
    assert any(words.startswith("not checked (") for words in said), said
    assert not [words for words in said if set(re.findall(r"\w+", words)) & codes], said


def _files_without_a_record(place: Path) -> dict[str, Path]:
    files = {
        "binary": b"\x00\x01\x02\x03binary\x00",
        "cut": b'{"version": "1.3.0", "envelope": {"intent": "x", "pay',
        "empty": b"",
        "latin": b'{"a": "caf\xe9"}',
    }
    for name, data in files.items():
        (place / f"{name}.json").write_bytes(data)
    return {name: place / f"{name}.json" for name in files}


def test_verify_says_a_file_in_the_words_its_problem_and_inspect_say(tmp_path: Path) -> None:
    """``verify`` said "hash not checked (not readable JSON)" of a file whose next line,
    ``inspect`` and the list said "Not a readable record"; and "(the file is empty)" where
    they said "File is empty"."""
    said: dict[str, str] = {}
    for name, path in _files_without_a_record(tmp_path).items():
        done = cli("verify", str(path))
        assert done.returncode == 1, done.stderr
        first, problem = done.stdout.splitlines()[:2]
        words = re.fullmatch(rf"FAIL  {name}\.json  hash not checked \((.+)\)", first)
        assert words is not None, first
        said[name] = words[1]
        assert words[1].lower() in problem.lower(), (first, problem)
        shown = cli("inspect", str(path)).stdout
        assert f"problem     {problem.removeprefix('      - ')}" in shown
    assert said == {
        "binary": "not a readable record",
        "cut": "not a readable record",
        "empty": "empty",
        "latin": "not UTF-8 text",
    }


def test_verify_json_keeps_its_codes(tmp_path: Path) -> None:
    paths = _files_without_a_record(tmp_path)
    done = cli("verify", "--json", *(str(path) for path in paths.values()))
    assert done.returncode == 1, done.stderr
    files = {Path(f["file"]).stem: f for f in json.loads(done.stdout)["files"]}
    assert {name: f["load_status"] for name, f in files.items()} == {
        "binary": "not_json",
        "cut": "not_json",
        "empty": "empty",
        "latin": "not_utf8",
    }
    assert all(f["hash"] is None and not f["ok"] for f in files.values())
