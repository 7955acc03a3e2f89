"""``intentus-tui verify``: integrity of each record; exit 1 if any fails."""

from __future__ import annotations

from pathlib import Path

import click

from intentus_tui.cli.common import echo_json, echo_text, fail, guarded, open_root
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.actions import verify_file
from intentus_tui.core.paths import list_record_paths


def _targets(paths: tuple[str, ...]) -> list[Path]:
    if not paths:
        return list_record_paths(open_root(None).records_dir)
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out.extend(list_record_paths(open_root(raw).records_dir))
        elif path.exists() or path.is_symlink():
            out.append(path)
        else:
            fail(f"no such file or directory: {raw}")
    return out


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@guarded
def verify(paths: tuple[str, ...], as_json: bool) -> None:
    """Check envelope hashes, event sequences and structure of records (DIRS or FILES)."""
    reports = [verify_file(p) for p in _targets(paths)]
    failed = [r for r in reports if not r.ok]
    if as_json:
        echo_json(
            {
                "ok": not failed,
                "checked": len(reports),
                "failed": len(failed),
                "files": [r.to_json() for r in reports],
            }
        )
    else:
        for report in reports:
            mark = "ok  " if report.ok else "FAIL"
            hash_status = report.hash.status.value if report.hash else report.load_status.value
            if report.hash is not None and report.hash.benign is not None:
                hash_status += " (benign)"
            echo_text(f"{mark}  {Path(report.path).name}  hash {hash_status}")
            for problem in report.problems:
                echo_text(f"      - {problem}")
            for note in report.notes:
                echo_text(f"      · {note}")
        echo_text(f"{len(reports)} checked, {len(failed)} failed")
    raise click.exceptions.Exit(ExitCode.PROBLEMS if failed else ExitCode.OK)
