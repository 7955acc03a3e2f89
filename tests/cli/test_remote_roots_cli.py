"""The command line on a remote root over a real OpenSSH server: a listing, one
execution by id, verify, a merged listing with a local root, and faults as one line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.cli.support import cli
from tests.core.remote.sshd import SshServer
from tests.intentusnet_world import RealWorld
from tests.roots_world import copy_host


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return cli(*args)


def test_inspect_and_verify_an_ssh_root(
    sshd: SshServer, real_world: RealWorld, tmp_path: Path
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    url = sshd.url(host.base)
    listing = run("inspect", "--list", "--json", url)
    assert listing.returncode == 0, listing.stderr
    assert len(json.loads(listing.stdout)["executions"]) == len(host.ids) + 1
    one = run("inspect", "--dir", url, "--json", real_world.success[:8])
    assert one.returncode == 0, one.stderr
    assert json.loads(one.stdout)["execution_id"] == real_world.success
    checked = run("verify", "--json", url)
    assert json.loads(checked.stdout)["records"] == len(host.ids)
    laptop = copy_host(real_world, tmp_path / "laptop")
    merged = run("inspect", "--list", str(laptop.base), url)
    assert merged.returncode == 0, merged.stderr
    count = len(host.ids) + 1
    assert merged.stderr.splitlines()[0] == (
        f"intentus-tui: {2 * count} executions in 2 roots: laptop {count}, 127.0.0.1 {count}"
    )


def test_unknown_host_is_one_line_and_the_option_accepts_it(
    sshd: SshServer, real_world: RealWorld
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    (sshd.home / ".ssh" / "known_hosts").write_text("")
    url = sshd.url(host.base)
    refused = run("inspect", "--list", url)
    assert refused.returncode == 2  # nothing could be read: one line says why
    assert refused.stderr.count("\n") == 1 and "unknown host key" in refused.stderr
    accepted = run("inspect", "--list", "--accept-unknown-host", url)
    assert accepted.returncode == 0 and accepted.stderr == ""
    assert real_world.success in accepted.stdout


def test_a_first_remote_listing_says_what_the_local_listing_says(
    sshd: SshServer, real_world: RealWorld, tmp_path: Path
) -> None:
    """A remote root's first open (every record copied into the mirror, then indexed)
    and its warm re-open (from the cache) list it as the same directory listed locally:
    every row and count; with two remote roots, each root's rows as its directory's."""
    hosts = [copy_host(real_world, sshd.served / name) for name in ("host1", "host2")]
    local = [
        json.loads(run("inspect", "--list", "--json", "--no-cache", str(h.base)).stdout)
        for h in hosts
    ]
    for _ in range(2):  # the first open, then the warm one
        listing = run("inspect", "--list", "--json", sshd.url(hosts[0].base))
        assert listing.returncode == 0, listing.stderr
        remote = json.loads(listing.stdout)
        assert (remote["counts"], remote["executions"]) == (
            local[0]["counts"],
            local[0]["executions"],
        )
    merged = run("inspect", "--list", "--json", sshd.url(hosts[1].base), sshd.url(hosts[0].base))
    assert merged.returncode == 0, merged.stderr
    document = json.loads(merged.stdout)
    labels = [root["label"] for root in document["roots"]]
    for label, theirs in zip(labels, reversed(local), strict=True):
        rows = [row for row in document["executions"] if row["root"] == label]
        # each its root's own row (its file named within the root), the root named first
        assert [{k: v for k, v in row.items() if k != "root"} for row in rows] == (
            theirs["executions"]
        )


def test_a_url_that_cannot_be_read_is_named_in_its_line() -> None:
    # The standard library says "Invalid IPv6 URL" alone: the line names what was typed.
    listed = run("inspect", "--list", "ftp://[bad")
    assert listed.returncode != 0
    assert "'ftp://[bad'" in listed.stderr and "Invalid IPv6 URL" in listed.stderr
    assert listed.stderr.count("\n") == 1 and "Traceback" not in listed.stderr
