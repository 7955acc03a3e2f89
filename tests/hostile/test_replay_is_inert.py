"""Replay executes nothing and opening writes nothing, watched by a Python audit hook.

In a child process (an audit hook cannot be removed), every hostile record is opened,
verified, shown and force-replayed, through the core and through the CLI, while the hook
refuses any new process, network connection, dynamic code execution, module import or
file opened for writing. The operator's own write (``snapshot -o``) is allowed only into
the one directory that the command names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.hostile.corpus import build_corpus

ROOT = Path(__file__).parents[2]

CHILD = r"""
import json, os, sys
from pathlib import Path
from click.testing import CliRunner
import intentus_tui.cli.inspect, intentus_tui.cli.replay, intentus_tui.cli.verify
import intentus_tui.cli.diff, intentus_tui.cli.snapshot
from intentus_tui.cli import main
from intentus_tui.core.detail import detail_to_json, load_detail
from intentus_tui.core.records.load import load_record_file
from intentus_tui.core.index.directory import scan_root
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.records.replay import ReplayEngine, ReplayHashMismatchError
from intentus_tui.core.records.verify import verify_load_result

corpus = Path(sys.argv[1])
out_dir = sys.argv[2]
WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# Running anything: a process, the network, new code. Never allowed.
RUN = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.fork", "os.forkpty",
       "socket.connect", "socket.getaddrinfo", "ctypes.dlopen", "exec"}
# Changing files: allowed only inside the one directory the operator named (snapshot -o).
CHANGE = {"os.rename", "os.remove", "os.unlink", "os.truncate", "os.rmdir", "os.mkdir",
          "os.chmod", "os.symlink", "os.link", "shutil.rmtree"}
# Modules it may import lazily: the standard library and the debugger's own dependencies,
# never an agent framework or a model client.
ALLOWED = set(sys.stdlib_module_names) | {"intentus_tui", "click", "orjson", "ijson",
                                          "platformdirs", "watchfiles"}
violations = []

def inside_out_dir(*paths):
    return all(str(p).startswith(out_dir) for p in paths if isinstance(p, (str, bytes, os.PathLike)))

def hook(event, args):
    if event == "import":
        if args[0].split(".")[0] not in ALLOWED:
            violations.append((event, args[0]))
    elif event == "exec" and getattr(args[0], "co_name", "") == "<module>":
        return  # a module body running on import: the import itself is checked above
    elif event in RUN:
        violations.append((event, repr(args)[:200]))
    elif event in CHANGE:
        if not inside_out_dir(*args[:2]):
            violations.append((event, repr(args)[:200]))
    elif event == "open":
        path, mode, flags = args
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & WRITE)
        if writing and not inside_out_dir(path):
            violations.append((event, repr(args)[:200]))

records = corpus / ".intentusnet" / "records"
sys.addaudithook(hook)
scan_root(resolve_root(corpus / ".intentusnet"), use_cache=False, workers=1)
runner = CliRunner()
for path in sorted(records.iterdir()):
    result = load_record_file(path)
    verify_load_result(result)
    detail_to_json(load_detail(path, corpus / ".intentusnet" / "wal"))
    if result.record is not None:
        engine = ReplayEngine.from_load_result(result)
        engine.replay(force=True)
        try:
            engine.replay(env=result.record.envelope, force=True)
        except ReplayHashMismatchError:
            pass
    for args in (["replay", str(path), "--force", "--json"], ["inspect", str(path)],
                 ["verify", str(path), "--json"]):
        runner.invoke(main, args)
    runner.invoke(main, ["snapshot", str(path), "-o", os.path.join(out_dir, path.name)])
print(json.dumps(violations))
"""


def test_opening_replaying_and_inspecting_run_nothing_and_write_nothing(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path / "corpus")
    out = tmp_path / "out"
    out.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(corpus.root), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache"),
        },
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    violations = json.loads(proc.stdout.splitlines()[-1])
    assert violations == [], violations[:10]
    assert os.listdir(out)  # the hook saw the operator's writes (and allowed them)
