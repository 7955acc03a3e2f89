"""``export`` on every hostile file (damaged, wrong types, deep, huge numbers, NaN,
terminal escapes, symlinks out, FIFOs, unreadable, WALs torn or tampered): every line
written is valid (OTLP lines proved against opentelemetry-proto), inert in a terminal, each
file either exported or named on stderr in one line; never a traceback, nothing written
into the corpus."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from intentus_tui.cli import main
from intentus_tui.core.sanitize import sanitize_line
from tests.core.export.support import file_of, prove_otlp_line
from tests.hostile.corpus import Corpus, build_corpus
from tests.hostile.harness import deadline, raw_controls, tree_digest


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = build_corpus(tmp_path_factory.mktemp("export"))
    before = tree_digest(built.root)
    yield built
    assert tree_digest(built.root) == before, "export wrote into the corpus"


def export(corpus: Corpus, fmt: str) -> tuple[int, bytes, str]:
    with deadline(120, f"export --format {fmt}"):
        result = CliRunner().invoke(
            main, ["export", "--format", fmt, str(corpus.intentusnet), "-o", "-"]
        )
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert not raw_controls(result.stderr), result.stderr
    for line in result.stderr.splitlines():
        assert line.startswith("intentus-tui: "), line
    return result.exit_code, result.stdout_bytes, result.stderr


def exported_files(fmt: str, out: bytes) -> list[str]:
    """The name of the file each line was exported from, exact (the lines' JSON escapes
    what a terminal would act on): OTLP lines proved against opentelemetry-proto, JSON
    lines each an ``inspect ID --json`` document."""
    lines = out.splitlines(keepends=True)
    if fmt == "otlp":
        return [file_of(prove_otlp_line(line)) for line in lines]
    docs = [json.loads(line) for line in lines]
    assert docs and all(isinstance(doc, dict) and "verdict" in doc for doc in docs)
    return [doc["file"] for doc in docs]


@pytest.mark.parametrize("fmt", ["otlp", "json"])
def test_export_of_the_corpus(corpus: Corpus, fmt: str) -> None:
    code, out, err = export(corpus, fmt)
    assert code in (0, 1)
    assert not raw_controls(out.decode("utf-8"))
    exported = set(exported_files(fmt, out))
    assert "good-1.json" in exported
    skipped = [line for line in err.splitlines() if line.startswith("intentus-tui: skipped ")]
    assert code == (1 if skipped else 0)
    assert f"exported {len(out.splitlines())} execution" in err.splitlines()[-1]
    # Every file in the corpus is accounted for: exported, or skipped with its reason.
    for name in corpus.records:
        path = corpus.records_dir / name
        if path.is_dir() or name.startswith("."):
            continue
        shown = sanitize_line(name)  # a name is shown inert on stderr, as everywhere
        assert name in exported or any(shown in s for s in skipped), name


def test_both_formats_skip_the_same_files(corpus: Corpus) -> None:
    """One rule decides what holds an execution: the formats skip the same files, saying
    the same, and export the same executions."""
    (otlp_code, otlp_out, otlp_err), (json_code, json_out, json_err) = (
        export(corpus, fmt) for fmt in ("otlp", "json")
    )
    assert otlp_code == json_code
    assert otlp_err.splitlines()[:-1] == json_err.splitlines()[:-1]
    assert exported_files("otlp", otlp_out) == exported_files("json", json_out)
