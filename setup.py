"""Build the optional native speed-ups (everything else is in pyproject.toml).

``optional=True``: where no C compiler is available the install still succeeds and the
pure-Python code (the definition of every result) runs instead, only slower.
"""

from setuptools import Extension, setup

_SOURCES = "intentus_tui/core/speedups_src"  # one module, its sources by concept

setup(
    ext_modules=[
        Extension(
            "intentus_tui.core._speedups",
            [f"{_SOURCES}/{name}.c" for name in ("module", "json_text", "files", "ordered_rows")],
            depends=[f"{_SOURCES}/speedups.h"],
            optional=True,
        )
    ]
)
