"""Build the optional native speed-ups (everything else is in pyproject.toml).

``optional=True``: where no C compiler is available the install still succeeds and the
pure-Python code (the definition of every result) runs instead, only slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "intentus_tui.core._speedups",
            ["intentus_tui/core/_speedups.c"],
            optional=True,
        )
    ]
)
