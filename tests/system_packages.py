"""Tests that need a system package (an OpenSSH server, a browser): ``.ci/run`` installs
it, so there it must be present; elsewhere the test skips saying how to get it."""

from __future__ import annotations

import os

import pytest

# Set by .ci/run, which installs every system package a test needs.
CI_FLAG = "INTENTUS_TUI_CI"


def require_system_package(available: bool, how_to_get_it: str) -> None:
    """Skip the calling test without the package, or fail it under ``.ci/run``."""
    if available:
        return
    if os.environ.get(CI_FLAG):
        pytest.fail(f"{how_to_get_it}: .ci/run was to install it", pytrace=False)
    pytest.skip(how_to_get_it)
